//! The JSON API in process (`tower::ServiceExt::oneshot`), on a database
//! holding the demo competitions (one of each format), shown at the demo's
//! fixed time: every route, snapshots of the OpenAPI document and of the
//! bodies, every body checked against its documented schema, the error
//! shape, and the layers (ETag, security headers, request ids, body limit,
//! timeout, compression).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::time::Duration;

use arbiter_server::{AppState, Clock, Config};
use arbiter_service::Service;
use arbiter_store_sqlite::SqliteStore;
use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use common::{Answer, oneshot};
use serde_json::Value;

/// The demo's competitions (one of each format) in a database of the
/// test's own, in memory, shown at the demo's fixed time.
async fn demo_state() -> AppState {
    let store = SqliteStore::open_in_memory().await.unwrap();
    let built = arbiter_demo::build(&store, "tws-demo").await.unwrap();
    AppState::new(Service::new(store)).with_clock(Clock::Fixed(built.now))
}

async fn app() -> Router {
    arbiter_server::app(demo_state().await)
}

impl Answer {
    /// The error of an error response, checked against the one shape.
    fn error(&self, status: StatusCode, code: &str) -> Value {
        assert_eq!(
            self.status,
            status,
            "{}",
            String::from_utf8_lossy(&self.body)
        );
        assert!(
            self.header("content-type").starts_with("application/json"),
            "{:?}",
            self.headers
        );
        let body = self.strict_json();
        let mut errors = Vec::new();
        let shape = serde_json::json!({"$ref": "#/components/schemas/ErrorBody"});
        check(&document(), &shape, &body, "$", &mut errors);
        assert!(errors.is_empty(), "{body}: {errors:?}");
        let obj = body.as_object().unwrap();
        assert_eq!(obj.keys().collect::<Vec<_>>(), ["error"], "{body}");
        let e = &body["error"];
        assert_eq!(e["code"], code, "{body}");
        assert!(
            e["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{body}"
        );
        for key in e.as_object().unwrap().keys() {
            assert!(
                ["code", "message", "clause", "field", "current_version"].contains(&key.as_str()),
                "{body}"
            );
        }
        e.clone()
    }
}

async fn get(app: &Router, uri: &str) -> Answer {
    oneshot(app, Request::get(uri).body(Body::empty()).unwrap()).await
}

/// GET that must answer 200 with JSON that fits its documented schema.
async fn get_ok(app: &Router, uri: &str, schema_path: &str) -> Answer {
    let a = get(app, uri).await;
    assert_eq!(
        a.status,
        StatusCode::OK,
        "{uri}: {}",
        String::from_utf8_lossy(&a.body)
    );
    assert!(a.header("content-type").starts_with("application/json"));
    conforms(&a.strict_json(), schema_path);
    a
}

// ----- the documented schemas -----

fn document() -> Value {
    serde_json::to_value(<arbiter_server::api::ApiDoc as utoipa::OpenApi>::openapi()).unwrap()
}

/// Check `body` against the schema of the 200 response of `GET path`.
fn conforms(body: &Value, path: &str) {
    let doc = document();
    let schema =
        &doc["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"];
    assert!(!schema.is_null(), "{path} documents no JSON 200 body");
    let mut errors = Vec::new();
    check(&doc, schema, body, "$", &mut errors);
    assert!(
        errors.is_empty(),
        "{path}: the body does not fit its schema:\n{}",
        errors[..errors.len().min(20)].join("\n")
    );
}

fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(r) => {
            let name = r.trim_start_matches("#/components/schemas/");
            let target = &doc["components"]["schemas"][name];
            assert!(!target.is_null(), "dangling reference {r}");
            resolve(doc, target)
        }
        None => schema,
    }
}

/// The properties an object schema names, its `allOf` parts included.
fn known_properties(doc: &Value, schema: &Value, out: &mut Vec<String>) {
    let schema = resolve(doc, schema);
    if let Some(p) = schema["properties"].as_object() {
        out.extend(p.keys().cloned());
    }
    for part in schema["allOf"].as_array().into_iter().flatten() {
        known_properties(doc, part, out);
    }
}

/// A small JSON Schema check of what utoipa emits: types, properties
/// (required, and no property the schema does not name), items, enums,
/// oneOf (exactly one), allOf, anyOf.
fn check(doc: &Value, schema: &Value, v: &Value, at: &str, errors: &mut Vec<String>) {
    let schema = resolve(doc, schema);
    if let Some(all) = schema["allOf"].as_array() {
        for part in all {
            let part = resolve(doc, part);
            // Each part is checked for its own fields; unknown fields are
            // judged on the whole below.
            let mut relaxed = part.clone();
            if let Some(o) = relaxed.as_object_mut() {
                o.insert("x-open".into(), Value::Bool(true));
            }
            check(doc, &relaxed, v, at, errors);
        }
    }
    if let Some(one) = schema["oneOf"].as_array() {
        let fits = one
            .iter()
            .filter(|s| {
                let mut e = Vec::new();
                check(doc, s, v, at, &mut e);
                e.is_empty()
            })
            .count();
        if fits != 1 {
            errors.push(format!("{at}: fits {fits} of the oneOf schemas, not 1"));
        }
    }
    if let Some(any) = schema["anyOf"].as_array() {
        let fits = any.iter().any(|s| {
            let mut e = Vec::new();
            check(doc, s, v, at, &mut e);
            e.is_empty()
        });
        if !fits {
            errors.push(format!("{at}: fits none of the anyOf schemas"));
        }
    }
    if let Some(options) = schema["enum"].as_array()
        && !options.contains(v)
    {
        errors.push(format!("{at}: {v} is not one of {options:?}"));
    }
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if !types.is_empty() {
        let fits = types.iter().any(|t| match *t {
            "null" => v.is_null(),
            "boolean" => v.is_boolean(),
            "string" => v.is_string(),
            "integer" => v.is_i64() || v.is_u64(),
            "number" => v.is_number(),
            "array" => v.is_array(),
            "object" => v.is_object(),
            _ => false,
        });
        if !fits {
            errors.push(format!("{at}: {v} is not of type {types:?}"));
            return;
        }
        if v.is_u64()
            && let Some(min) = schema["minimum"].as_f64()
            && (v.as_u64().unwrap_or(0) as f64) < min
        {
            errors.push(format!("{at}: {v} is below {min}"));
        }
    }
    if let (Some(items), Some(values)) = (schema.get("items"), v.as_array()) {
        for (i, item) in values.iter().enumerate() {
            check(doc, items, item, &format!("{at}[{i}]"), errors);
        }
    }
    if let Some(obj) = v.as_object()
        && (schema.get("properties").is_some() || schema.get("allOf").is_some())
    {
        let props = schema["properties"].as_object();
        for req in schema["required"].as_array().into_iter().flatten() {
            let req = req.as_str().unwrap_or("");
            if !obj.contains_key(req) {
                errors.push(format!("{at}: the required {req:?} is missing"));
            }
        }
        if let Some(props) = props {
            for (k, s) in props {
                if let Some(value) = obj.get(k) {
                    check(doc, s, value, &format!("{at}.{k}"), errors);
                }
            }
        }
        if schema.get("x-open").is_none() {
            let mut known = Vec::new();
            known_properties(doc, schema, &mut known);
            for k in obj.keys() {
                if !known.contains(k) {
                    errors.push(format!("{at}: {k:?} is not documented"));
                }
            }
        }
    }
}

// ----- the OpenAPI document -----

#[tokio::test]
async fn the_openapi_document_is_served_and_describes_every_route() {
    let app = app().await;
    let a = get(&app, "/api/openapi.json").await;
    assert_eq!(a.status, StatusCode::OK);
    let served = a.strict_json();
    assert_eq!(served, document());
    assert_eq!(served["openapi"], "3.1.0");
    let paths: Vec<&String> = served["paths"].as_object().unwrap().keys().collect();
    assert_eq!(
        paths,
        [
            "/api/accounts",
            "/api/calendars",
            "/api/calendars/{id}",
            "/api/competitions",
            "/api/competitions/{id}",
            "/api/competitions/{id}/actions",
            "/api/competitions/{id}/area-report",
            "/api/competitions/{id}/calendars",
            "/api/competitions/{id}/calendars/{feed}",
            "/api/competitions/{id}/clinch",
            "/api/competitions/{id}/history",
            "/api/competitions/{id}/projection",
            "/api/competitions/{id}/ratings",
            "/api/competitions/{id}/results/import",
            "/api/competitions/{id}/rounds/{n}",
            "/api/competitions/{id}/seasons/{n}",
            "/api/competitions/{id}/time-zone",
            "/api/competitions/{id}/what-if",
            "/api/health",
            "/api/me",
            "/api/openapi.json",
            "/api/session",
            "/api/stats",
            "/api/tokens",
            "/api/tokens/{id}",
        ]
    );
    // Every error response of every method is documented with the one
    // error shape.
    for (path, item) in served["paths"].as_object().unwrap() {
        let methods = item.as_object().unwrap();
        assert!(!methods.is_empty(), "{path}");
        for (method, operation) in methods {
            for (status, response) in operation["responses"].as_object().unwrap() {
                if status.starts_with('4') || status.starts_with('5') {
                    assert_eq!(
                        response["content"]["application/json"]["schema"]["$ref"],
                        "#/components/schemas/ErrorBody",
                        "{method} {path} {status}"
                    );
                }
            }
        }
    }
    insta::assert_json_snapshot!("openapi", served);
}

// ----- the routes -----

#[tokio::test]
async fn ratings_area_reports_and_projections_fit_their_schemas() {
    let app = app().await;
    for system in ["area", "elo", "glicko2"] {
        for scope in ["competition", "installation"] {
            let a = get_ok(
                &app,
                &format!("/api/competitions/tws-demo/ratings?system={system}&scope={scope}"),
                "/api/competitions/{id}/ratings",
            )
            .await;
            let v = a.strict_json();
            assert_eq!(v["system"], system);
            assert!(!v["players"].as_array().unwrap().is_empty());
        }
    }
    get_ok(
        &app,
        "/api/competitions/tws-demo/area-report?round=2",
        "/api/competitions/{id}/area-report",
    )
    .await;
    for id in ["tws-demo", "xmadn-league-demo", "sunjang-demo"] {
        let a = get_ok(
            &app,
            &format!("/api/competitions/{id}/projection?seasons=200&seed=7"),
            "/api/competitions/{id}/projection",
        )
        .await;
        assert_eq!(a.strict_json()["seasons"], 200);
        assert!(a.header("etag").starts_with("\"v"));
    }
}

#[tokio::test]
async fn ratings_and_projections_refuse_what_they_cannot_answer() {
    let app = app().await;
    get(&app, "/api/competitions/tws-demo/ratings?system=chess")
        .await
        .error(StatusCode::BAD_REQUEST, "bad-request");
    get(&app, "/api/competitions/sunjang-demo/ratings")
        .await
        .error(StatusCode::BAD_REQUEST, "bad-request");
    get(&app, "/api/competitions/tws-demo/area-report?round=99")
        .await
        .error(StatusCode::BAD_REQUEST, "bad-request");
    get(&app, "/api/competitions/tws-demo/projection?seasons=0")
        .await
        .error(StatusCode::BAD_REQUEST, "bad-request");
    get(&app, "/api/competitions/tws-demo/projection?seasons=100001")
        .await
        .error(StatusCode::BAD_REQUEST, "bad-request");
    get(&app, "/api/competitions/xmadn-challengers-demo/projection")
        .await
        .error(StatusCode::BAD_REQUEST, "bad-request");
    get(&app, "/api/competitions/nobody/projection")
        .await
        .error(StatusCode::NOT_FOUND, "not-found");
}

#[tokio::test]
async fn health_answers_with_the_database() {
    let app = app().await;
    let a = get_ok(&app, "/api/health", "/api/health").await;
    insta::assert_json_snapshot!("health", a.strict_json());
}

#[tokio::test]
async fn the_list_shows_one_competition_of_each_format() {
    let app = app().await;
    let a = get_ok(&app, "/api/competitions", "/api/competitions").await;
    insta::assert_json_snapshot!("competitions", a.strict_json());
}

/// The version in the body is the ETag's.
fn assert_etag(a: &Answer, version: &Value) {
    let v = version.as_u64().unwrap();
    assert_eq!(a.header("etag"), format!("\"v{v}\""));
}

#[tokio::test]
async fn each_competition_is_shown_by_its_format_with_its_version_as_etag() {
    let app = app().await;
    let list = get(&app, "/api/competitions").await.strict_json();
    let version_of = |id: &str| {
        list.as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .map(|r| r["version"].clone())
            .unwrap()
    };
    for (id, format) in [
        ("tws-demo", "tws-ladder"),
        ("xmadn-league-demo", "xmadn-league"),
        ("xmadn-challengers-demo", "xmadn-challengers"),
        ("sunjang-demo", "sunjang-league"),
    ] {
        let a = get_ok(
            &app,
            &format!("/api/competitions/{id}"),
            "/api/competitions/{id}",
        )
        .await;
        let body = a.strict_json();
        assert_eq!(body["format"], format);
        assert_eq!(body["view"]["competition"], id);
        assert_eq!(body["view"]["version"], version_of(id));
        assert_etag(&a, &version_of(id));
        if format == "sunjang-league" {
            // Three seasons of sixty players: the seasons are snapshotted
            // one by one below; here the league without them.
            let mut league = body.clone();
            let seasons = league["view"]["seasons"].as_array().unwrap().len();
            assert_eq!(seasons, 3);
            league["view"]["seasons"] = Value::from(format!("{seasons} seasons"));
            insta::assert_json_snapshot!(format!("competition_{id}"), league);
        } else {
            insta::assert_json_snapshot!(format!("competition_{id}"), body);
        }
    }
}

#[tokio::test]
async fn history_gives_every_event_as_stored_and_the_last_ones_on_request() {
    let app = app().await;
    for id in [
        "tws-demo",
        "xmadn-league-demo",
        "xmadn-challengers-demo",
        "sunjang-demo",
    ] {
        let uri = format!("/api/competitions/{id}/history");
        let all = get_ok(&app, &uri, "/api/competitions/{id}/history").await;
        let events = all.strict_json();
        let events = events.as_array().unwrap();
        // 1, 2, 3 … without gaps, and the last is the version (the ETag).
        for (i, e) in events.iter().enumerate() {
            assert_eq!(e["seq"], i as u64 + 1, "{id}");
            assert_eq!(e["payload"]["v"], 1, "{id}: {e}");
            assert_eq!(e["actor"], "demo");
        }
        assert_etag(&all, &events.last().unwrap()["seq"]);
        let last = get_ok(
            &app,
            &format!("{uri}?limit=3"),
            "/api/competitions/{id}/history",
        )
        .await;
        let tail = last.strict_json();
        assert_eq!(tail.as_array().unwrap()[..], events[events.len() - 3..]);
        insta::assert_json_snapshot!(format!("history_{id}_last_3"), tail);
    }
    let first = get(&app, "/api/competitions/tws-demo/history")
        .await
        .strict_json();
    insta::assert_json_snapshot!("history_tws-demo_first_3", first.as_array().unwrap()[..3]);
    // More than there are: all of them; none: none.
    let many = get(&app, "/api/competitions/tws-demo/history?limit=100000").await;
    assert_eq!(many.strict_json(), first);
    let none = get(&app, "/api/competitions/tws-demo/history?limit=0").await;
    assert_eq!(none.strict_json(), Value::Array(Vec::new()));
}

#[tokio::test]
async fn ladder_rounds_are_shown_with_games_sides_and_deadlines() {
    let app = app().await;
    let version =
        get(&app, "/api/competitions/tws-demo").await.strict_json()["view"]["version"].clone();
    for n in 1..=4 {
        let a = get_ok(
            &app,
            &format!("/api/competitions/tws-demo/rounds/{n}"),
            "/api/competitions/{id}/rounds/{n}",
        )
        .await;
        assert_etag(&a, &version);
        let round = a.strict_json();
        assert_eq!(round["number"], n);
        assert_eq!(round["closed"], n < 4, "round {n}");
        if n == 2 || n == 4 {
            insta::assert_json_snapshot!(format!("round_tws-demo_{n}"), round);
        }
    }
    let missing = get(&app, "/api/competitions/tws-demo/rounds/5").await;
    let e = missing.error(StatusCode::NOT_FOUND, "not-found");
    assert_eq!(e["message"], "tws-demo has no round 5");
}

#[tokio::test]
async fn sunjang_seasons_are_shown_with_groups_and_placements() {
    let app = app().await;
    let version = get(&app, "/api/competitions/sunjang-demo")
        .await
        .strict_json()["view"]["version"]
        .clone();
    for n in 1..=3 {
        let a = get_ok(
            &app,
            &format!("/api/competitions/sunjang-demo/seasons/{n}"),
            "/api/competitions/{id}/seasons/{n}",
        )
        .await;
        assert_etag(&a, &version);
        let season = a.strict_json();
        assert_eq!(season["number"], n);
        assert_eq!(season["status"], if n < 3 { "closed" } else { "planned" });
        if n < 3 {
            assert_eq!(season["final_round"]["state"], "champion", "season {n}");
        } else {
            // The running season (each season is about 100 kB of JSON: one
            // snapshot is enough).
            insta::assert_json_snapshot!(format!("season_sunjang-demo_{n}"), season);
        }
    }
    let missing = get(&app, "/api/competitions/sunjang-demo/seasons/4").await;
    let e = missing.error(StatusCode::NOT_FOUND, "not-found");
    assert_eq!(e["message"], "sunjang-demo has no season 4");
}

// ----- errors -----

#[tokio::test]
async fn an_unknown_competition_is_a_json_404_on_every_route() {
    let app = app().await;
    for uri in [
        "/api/competitions/nope",
        "/api/competitions/nope/history",
        "/api/competitions/nope/rounds/1",
        "/api/competitions/nope/seasons/1",
    ] {
        let e = get(&app, uri)
            .await
            .error(StatusCode::NOT_FOUND, "not-found");
        assert_eq!(e["message"], "there is no competition \"nope\"", "{uri}");
    }
}

#[tokio::test]
async fn rounds_and_seasons_belong_to_their_format() {
    let app = app().await;
    let e = get(&app, "/api/competitions/sunjang-demo/rounds/1")
        .await
        .error(StatusCode::NOT_FOUND, "not-found");
    assert_eq!(
        e["message"],
        "competition \"sunjang-demo\" is a Sunjang league: it has no ladder rounds (those are for a TWS ladder)"
    );
    let e = get(&app, "/api/competitions/xmadn-league-demo/seasons/1")
        .await
        .error(StatusCode::NOT_FOUND, "not-found");
    assert_eq!(
        e["message"],
        "competition \"xmadn-league-demo\" is an XMadn league: it has no seasons (those are for a Sunjang league)"
    );
}

#[tokio::test]
async fn malformed_path_and_query_values_are_a_json_400() {
    let app = app().await;
    for (uri, names) in [
        ("/api/competitions/tws-demo/rounds/two", "`two`"),
        ("/api/competitions/tws-demo/rounds/-1", "`-1`"),
        (
            "/api/competitions/sunjang-demo/seasons/99999999999",
            "`99999999999`",
        ),
        ("/api/competitions/tws-demo/history?limit=ten", "limit"),
        ("/api/competitions/tws-demo/history?limit=-1", "limit"),
    ] {
        let e = get(&app, uri)
            .await
            .error(StatusCode::BAD_REQUEST, "bad-request");
        let message = e["message"].as_str().unwrap();
        assert!(message.contains(names), "{uri}: {e}");
    }
}

#[tokio::test]
async fn unknown_api_routes_and_methods_answer_in_the_error_shape() {
    let app = app().await;
    for uri in [
        "/api",
        "/api/",
        "/api/nothing",
        "/api/competitions/tws-demo/games",
        "/api/competitions/tws-demo/rounds/1/extra",
    ] {
        let e = get(&app, uri)
            .await
            .error(StatusCode::NOT_FOUND, "not-found");
        assert!(
            e["message"].as_str().unwrap().contains("openapi.json"),
            "{uri}"
        );
    }
    for method in [Method::POST, Method::PUT, Method::DELETE, Method::PATCH] {
        let a = oneshot(
            &app,
            Request::builder()
                .method(method.clone())
                .uri("/api/competitions/tws-demo")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
        a.error(StatusCode::METHOD_NOT_ALLOWED, "method-not-allowed");
        assert!(a.header("allow").contains("GET"), "{method}");
    }
    // Reading changes nothing: HEAD answers like GET, without a body.
    let head = oneshot(
        &app,
        Request::head("/api/competitions/tws-demo")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(head.status, StatusCode::OK);
    assert!(head.body.is_empty());
    assert!(head.header("etag").starts_with("\"v"));
}

#[tokio::test]
async fn an_oversized_body_is_refused_with_413_before_routing() {
    // The limit answers first, before the route or its extractors: here on
    // a write route.
    let app = app().await;
    let big = vec![b'x'; 1024 * 1024 + 1];
    let a = oneshot(
        &app,
        Request::post("/api/competitions")
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::CONTENT_LENGTH, big.len())
            .body(Body::from(big))
            .unwrap(),
    )
    .await;
    a.error(StatusCode::PAYLOAD_TOO_LARGE, "payload-too-large");
    assert!(a.headers.contains_key("x-request-id"));
    // Just under the limit, the router answers (no such method).
    let fits = vec![b'x'; 1024 * 1024];
    oneshot(
        &app,
        Request::post("/api/health")
            .header(header::CONTENT_LENGTH, fits.len())
            .body(Body::from(fits))
            .unwrap(),
    )
    .await
    .error(StatusCode::METHOD_NOT_ALLOWED, "method-not-allowed");
}

#[tokio::test]
async fn a_request_over_the_time_limit_answers_503_timeout() {
    let state = demo_state().await.with_config(Config {
        timeout: Duration::ZERO,
        ..Config::default()
    });
    let app = arbiter_server::app(state);
    // The list reads the database: it cannot answer within no time.
    get(&app, "/api/competitions")
        .await
        .error(StatusCode::SERVICE_UNAVAILABLE, "timeout");
}

// ----- layers -----

#[tokio::test]
async fn every_response_carries_the_security_headers() {
    let app = app().await;
    for uri in [
        "/api/competitions",
        "/api/competitions/nope",
        "/api/openapi.json",
        "/not-an-api-path",
    ] {
        let a = get(&app, uri).await;
        assert_eq!(a.header("x-content-type-options"), "nosniff", "{uri}");
        assert_eq!(a.header("referrer-policy"), "no-referrer", "{uri}");
        assert_eq!(a.header("x-frame-options"), "DENY", "{uri}");
        let csp = a.header("content-security-policy");
        assert_eq!(csp, arbiter_server::CONTENT_SECURITY_POLICY, "{uri}");
        for directive in [
            "default-src 'none'",
            "script-src 'self'",
            "style-src 'self'",
            "frame-ancestors 'none'",
        ] {
            assert!(csp.contains(directive), "{uri}: {csp}");
        }
        assert!(!csp.contains("unsafe"), "{csp}");
    }
}

#[tokio::test]
async fn every_response_carries_a_request_id_and_keeps_the_clients() {
    let app = app().await;
    let a = get(&app, "/api/health").await;
    let id = a.header("x-request-id").to_string();
    assert_eq!(id.len(), 36, "a UUID: {id}");
    let b = get(&app, "/api/health").await;
    assert_ne!(b.header("x-request-id"), id, "a fresh id per request");
    let mine = oneshot(
        &app,
        Request::get("/api/competitions/nope")
            .header("x-request-id", "client-chosen-42")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(mine.header("x-request-id"), "client-chosen-42");
}

#[tokio::test]
async fn responses_are_compressed_for_clients_that_accept_gzip() {
    let app = app().await;
    let a = oneshot(
        &app,
        Request::get("/api/openapi.json")
            .header(header::ACCEPT_ENCODING, "gzip")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(a.header("content-encoding"), "gzip");
    assert_eq!(&a.body[..2], [0x1f, 0x8b], "gzip magic");
    let plain = get(&app, "/api/openapi.json").await;
    assert!(a.body.len() * 3 < plain.body.len());
}

// ----- another process writes -----

#[tokio::test]
async fn writes_by_another_process_show_at_once_with_a_new_etag() {
    use arbiter_engine::tws::{Command, LadderRules};
    use arbiter_service::Context;
    use chrono::TimeZone as _;

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shared.db");
    // The CLI: its own store and service on the same file.
    let cli = Service::new(SqliteStore::open(&path).await.unwrap());
    let at = chrono::Utc.with_ymd_and_hms(2025, 3, 1, 12, 0, 0).unwrap();
    let ctx = Context::new("moderator", at);
    cli.create_ladder("club", "Club ladder", LadderRules::default(), &[], &ctx)
        .await
        .unwrap();
    let server = Service::new(SqliteStore::open(&path).await.unwrap());
    let app = arbiter_server::app(AppState::new(server));
    let before = get(&app, "/api/competitions/club").await;
    let v1 = cli.load("club", None).await.unwrap().1;
    assert_eq!(before.header("etag"), format!("\"v{v1}\""));
    assert_eq!(
        before.strict_json()["view"]["rungs"],
        Value::Array(Vec::new())
    );
    for name in ["Ana Morales", "Ben Carter"] {
        cli.execute(
            "club",
            Command::Join {
                name: name.into(),
                surname: None,
            },
            &ctx,
        )
        .await
        .unwrap();
    }
    let after = get(&app, "/api/competitions/club").await;
    let v2 = cli.load("club", None).await.unwrap().1;
    assert!(v2 > v1);
    assert_eq!(after.header("etag"), format!("\"v{v2}\""));
    let rungs = after.strict_json()["view"]["rungs"].clone();
    assert_eq!(rungs.as_array().map(Vec::len), Some(2), "{rungs}");
    let history = get(&app, "/api/competitions/club/history")
        .await
        .strict_json();
    assert_eq!(history.as_array().map(Vec::len), Some(v2 as usize));
    assert_eq!(history[v2 as usize - 1]["actor"], "moderator");
    let list = get(&app, "/api/competitions").await.strict_json();
    assert_eq!(list[0]["members"], 2);
    assert_eq!(list[0]["version"], v2);
}
