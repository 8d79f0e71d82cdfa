//! Hostile API bodies: 10,000 generated bodies per run sent in process to
//! the POST routes of the API (`tests/common/ladder.rs`'s ladder, with the
//! owner's token, another account's or none): JSON built from the routes'
//! own keys and values (actions, results, names, rules files) with hostile
//! values, truncated JSON, raw bytes, NULs, deeply nested arrays. No answer
//! is a 5xx, every error has the API's shape, and every 400 and 422 names
//! the offending field (`error.field`) or, for a body serde could not read,
//! says where (`line N column M`) or which field (`missing field`,
//! `unknown field`, `unknown variant`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use common::ladder::{LADDER, World};
use common::oneshot;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Map, Value};

const CASES: u32 = 10_000;

const KEYS: &[&str] = &[
    "action",
    "name",
    "id",
    "format",
    "game",
    "result",
    "winner",
    "outcome",
    "ended_by",
    "vp",
    "turn",
    "player",
    "players",
    "username",
    "password",
    "email",
    "label",
    "reason",
    "account",
    "rules",
    "pairs",
    "a",
    "b",
    "byes",
    "results",
    "first_to",
    "from_round",
    "deadline",
    "preview",
    "agreed",
    "unknown_key",
    "",
    "\u{0}",
];

const STRINGS: &[&str] = &[
    "join",
    "add-player",
    "approve",
    "record-result",
    "report-result",
    "announce-round",
    "change-rules",
    "add-moderator",
    "no-such-action",
    "tws-ladder",
    "xmadn-league",
    "sunjang-league",
    "test-ladder",
    "Bad Id!",
    "Alice Adams",
    "Bob Brown",
    "Nobody Here",
    "G1",
    "G999999",
    "ussr",
    "us",
    "tie",
    "vp",
    "olga",
    "alice",
    "=HYPERLINK(\"x\")",
    "+1",
    "-1",
    "@SUM(A1)",
    "",
    " ",
    "\u{0}",
    "\u{feff}",
    "<script>alert(1)</script>",
    "2026-13-45",
    "format = \"tws-ladder\"\ndeadline_months = 0",
    "format = 3",
    "[[[",
    "G1=ussr",
    "Alice Adams-Bob Brown=4-2@20:10",
];

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => (0..STRINGS.len()).prop_map(|i| Value::String(STRINGS[i].to_string())),
        1 => "\\PC{0,30}".prop_map(Value::String),
        1 => (1..300usize).prop_map(|n| Value::String("x".repeat(n * 10))),
        2 => any::<i64>().prop_map(Value::from),
        1 => prop_oneof![Just(0i64), Just(-1), Just(1), Just(i64::from(u32::MAX) + 1)].prop_map(Value::from),
        1 => any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        1 => any::<bool>().prop_map(Value::Bool),
        1 => Just(Value::Null),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((0..KEYS.len(), inner), 0..5).prop_map(|kv| {
                Value::Object(
                    kv.into_iter()
                        .map(|(k, v)| (KEYS[k].to_string(), v))
                        .collect::<Map<String, Value>>(),
                )
            }),
        ]
    })
}

/// A body that looks like one of the routes': an object whose `action` (or
/// first key) is often right.
fn object() -> impl Strategy<Value = Value> {
    (
        prop::option::of(0..9usize),
        prop::collection::vec((0..KEYS.len(), value()), 0..6),
    )
        .prop_map(|(action, kv)| {
            let mut m: Map<String, Value> = kv
                .into_iter()
                .map(|(k, v)| (KEYS[k].to_string(), v))
                .collect();
            if let Some(a) = action {
                m.insert("action".into(), Value::String(STRINGS[a].to_string()));
            }
            Value::Object(m)
        })
}

fn body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        8 => object().prop_map(|v| serde_json::to_vec(&v).unwrap()),
        2 => value().prop_map(|v| serde_json::to_vec(&v).unwrap()),
        // Truncated JSON.
        2 => (object(), any::<prop::sample::Index>()).prop_map(|(v, i)| {
            let mut b = serde_json::to_vec(&v).unwrap();
            b.truncate(i.index(b.len() + 1));
            b
        }),
        1 => prop::collection::vec(any::<u8>(), 0..100),
        // Deeply nested arrays and objects (serde_json stops at 128).
        1 => (1..5000usize).prop_map(|n| format!("{}{}", "[".repeat(n), "]".repeat(n)).into_bytes()),
        1 => (1..3000usize).prop_map(|n| format!("{}1{}", "{\"a\":".repeat(n), "}".repeat(n)).into_bytes()),
        // NUL bytes and a byte-order mark around JSON.
        1 => object().prop_map(|v| {
            let mut b = b"\xEF\xBB\xBF".to_vec();
            b.extend(serde_json::to_vec(&v).unwrap());
            b.push(0);
            b
        }),
    ]
}

#[derive(Debug, Clone, Copy)]
enum Who {
    Owner,
    Player,
    Nobody,
}

fn routes() -> Vec<String> {
    vec![
        "/api/competitions".into(),
        format!("/api/competitions/{LADDER}/actions"),
        format!("/api/competitions/{LADDER}/actions"),
        format!("/api/competitions/{LADDER}/actions"),
        "/api/session".into(),
        "/api/accounts".into(),
        "/api/tokens".into(),
        format!("/api/competitions/{LADDER}/what-if"),
        "/api/competitions/no-such/actions".into(),
    ]
}

/// Does the error say which field, or where in the body?
fn names_a_field(error: &Value) -> bool {
    if error["field"].as_str().is_some_and(|f| !f.is_empty()) {
        return true;
    }
    // A body that is not JSON at all (or not sent as JSON) is refused
    // before any field: the message says where it stopped reading or what
    // the Content-Type should be.
    let m = error["message"].as_str().unwrap_or("");
    m.contains(" line ") || m.contains("Content-Type")
}

/// A well-formed request the competition's state refuses: a rule refusal
/// names its clause (422), and the one 400 of this kind says why in words
/// (the caller already plays); there is no field to name.
fn is_state_refusal(error: &Value) -> bool {
    error["clause"].as_str().is_some_and(|c| !c.is_empty())
        || error["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("you already play in this competition"))
}

#[test]
fn generated_api_bodies_never_fail_the_server_and_errors_name_the_field() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let world = rt.block_on(World::new());
    let routes = routes();
    let tokens = [world.tokens["olga"].clone(), world.tokens["alice"].clone()];
    let mut runner = TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = (
        0..routes.len(),
        body(),
        prop_oneof![
            6 => Just(Who::Owner),
            2 => Just(Who::Player),
            1 => Just(Who::Nobody)
        ],
        prop::option::of(prop_oneof![
            Just("\"v1\"".to_string()),
            Just("*".to_string()),
            (0..40u64).prop_map(|v| format!("\"v{v}\"")),
            "\\PC{0,10}",
        ]),
        any::<bool>(),
    );
    let statuses = std::cell::RefCell::new(std::collections::BTreeMap::<u16, u32>::new());
    let result = runner.run(&strategy, |(route, body, who, if_match, json_type)| {
        let uri = &routes[route];
        let mut r = Request::builder().method(Method::POST).uri(uri);
        if json_type {
            r = r.header(header::CONTENT_TYPE, "application/json");
        } else {
            r = r.header(header::CONTENT_TYPE, "text/plain");
        }
        match who {
            Who::Owner => r = r.header(header::AUTHORIZATION, format!("Bearer {}", tokens[0])),
            Who::Player => r = r.header(header::AUTHORIZATION, format!("Bearer {}", tokens[1])),
            Who::Nobody => {}
        }
        if let Some(m) = if_match
            && let Ok(v) = axum::http::HeaderValue::from_str(&m)
        {
            r = r.header(header::IF_MATCH, v);
        }
        let request = r.body(Body::from(body.clone())).unwrap();
        let a = rt.block_on(oneshot(&world.app, request));
        *statuses.borrow_mut().entry(a.status.as_u16()).or_default() += 1;
        let shown = || String::from_utf8_lossy(&body[..body.len().min(300)]).into_owned();
        prop_assert!(
            !a.status.is_server_error(),
            "POST {uri} answered {}: {}\nbody: {}",
            a.status,
            a.text(),
            shown()
        );
        if a.status.is_client_error() {
            let v: Value = serde_json::from_slice(&a.body).map_err(|e| {
                TestCaseError::fail(format!(
                    "POST {uri}: {} is not JSON ({e}): {}",
                    a.status,
                    a.text()
                ))
            })?;
            let error = &v["error"];
            prop_assert!(error["code"].is_string(), "POST {uri}: {v}");
            prop_assert!(error["message"].is_string(), "POST {uri}: {v}");
            if a.status == StatusCode::BAD_REQUEST || a.status == StatusCode::UNPROCESSABLE_ENTITY {
                prop_assert!(
                    names_a_field(error) || is_state_refusal(error),
                    "POST {uri} answered {} without naming a field: {v}\nbody: {}",
                    a.status,
                    shown()
                );
            }
        }
        Ok(())
    });
    eprintln!("statuses over {CASES} bodies: {:?}", statuses.borrow());
    if let Err(e) = result {
        panic!("{e}");
    }
}
