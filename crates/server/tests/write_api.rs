//! The write side of the API over HTTP (in process): sessions (cookie
//! attributes, a fresh id at each login, logout), CSRF, API tokens, login
//! throttling, registration, `If-Match`, `Idempotency-Key`, a report and its
//! confirmation, GETs that never write, and snapshots of a few bodies.
//!
//! The ladder is the one of `tests/roles.rs`: `olga` owns it, `mona` and
//! `pete` moderate, game X is Alice Adams (`alice`) v. Bob Brown (`bob`),
//! game Y is Carol Clark (`carol`) v. Dan Dunn, game M is Pete Moder
//! (`pete`) v. Eve Evans; Alice has reported X and Pete M.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::net::SocketAddr;

use arbiter_server::auth;
use arbiter_server::auth::AuthConfig;
use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Method, Request, StatusCode, header};
use common::ladder::{LADDER, World, result};
use common::{Answer, As, PASSWORD, oneshot, send};
use serde_json::{Value, json};

// ----- helpers -----

/// The error object of an error answer with `status`.
fn error(a: &Answer, status: StatusCode) -> Value {
    assert_eq!(a.status, status, "{}", a.text());
    let body = a.json();
    assert!(body["error"]["message"].is_string(), "{body}");
    body["error"].clone()
}

/// The session id a login's `Set-Cookie` sets.
fn session_id(a: &Answer) -> String {
    let cookies: Vec<&str> = a
        .headers
        .get_all(header::SET_COOKIE)
        .iter()
        .map(|v| v.to_str().unwrap())
        .collect();
    assert_eq!(cookies.len(), 1, "{cookies:?}");
    cookies[0]
        .strip_prefix(&format!("{}=", auth::SESSION_COOKIE))
        .and_then(|c| c.split(';').next())
        .unwrap_or_else(|| panic!("{cookies:?}"))
        .to_string()
}

fn is_token(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// A login from `address` (none: no `ConnectInfo`, as in process).
async fn login_from(
    app: &Router,
    address: Option<SocketAddr>,
    username: &str,
    password: &str,
) -> Answer {
    let mut request = Request::post("/api/session")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(
            serde_json::to_vec(&json!({"username": username, "password": password})).unwrap(),
        ))
        .unwrap();
    if let Some(a) = address {
        request.extensions_mut().insert(ConnectInfo(a));
    }
    oneshot(app, request).await
}

/// Log in: (session id, CSRF token).
async fn login(app: &Router, username: &str) -> (String, String) {
    let a = login_from(app, None, username, PASSWORD).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let csrf = a.json()["csrf_token"].as_str().unwrap().to_string();
    (session_id(&a), csrf)
}

async fn me(app: &Router, who: As<'_>) -> Answer {
    send(app, Method::GET, "/api/me", who, &[], None).await
}

async fn round(w: &World, n: u32) -> Value {
    let a = send(
        &w.app,
        Method::GET,
        &format!("/api/competitions/{LADDER}/rounds/{n}"),
        As::Nobody,
        &[],
        None,
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    a.json()
}

fn game<'a>(round: &'a Value, id: &str) -> &'a Value {
    round["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id)
        .unwrap_or_else(|| panic!("no {id} in {round}"))
}

fn record_x(w: &World) -> Value {
    json!({"action": "record-result", "game": w.x, "result": result("Bob Brown")})
}

async fn post_action(w: &World, who: As<'_>, headers: &[(&str, String)], body: &Value) -> Answer {
    send(
        &w.app,
        Method::POST,
        &format!("/api/competitions/{LADDER}/actions"),
        who,
        headers,
        Some(body),
    )
    .await
}

/// Check `body` against the documented schema `name`: every property it
/// has is documented, every required one is there.
fn fits_schema(name: &str, body: &Value) {
    let doc =
        serde_json::to_value(<arbiter_server::api::ApiDoc as utoipa::OpenApi>::openapi()).unwrap();
    let schema = &doc["components"]["schemas"][name];
    assert!(schema.is_object(), "no schema {name}");
    let properties = schema["properties"].as_object().unwrap();
    for key in body.as_object().unwrap().keys() {
        assert!(
            properties.contains_key(key),
            "{name} does not document {key}: {body}"
        );
    }
    for key in schema["required"].as_array().into_iter().flatten() {
        assert!(
            body.get(key.as_str().unwrap()).is_some(),
            "{name} requires {key}: {body}"
        );
    }
}

/// The sides of a game are drawn at the announcement (a fresh seed each
/// time): take them out of a message so that a snapshot holds.
fn without_sides(body: &mut Value) {
    let Some(message) = body.get_mut("message") else {
        return;
    };
    let mut text = message.as_str().unwrap().to_string();
    for (a, b) in [("Adams", "Brown"), ("Moder", "Evans"), ("Clark", "Dunn")] {
        text = text
            .replace(&format!("{a} v. {b}"), &format!("[{a} and {b}]"))
            .replace(&format!("{b} v. {a}"), &format!("[{a} and {b}]"));
    }
    text = text
        .replace("USSR win", "[side] win")
        .replace("US win", "[side] win");
    *message = json!(text);
}

// ----- sessions -----

#[tokio::test]
async fn login_sets_a_hardened_cookie_with_a_fresh_id_each_time() {
    let w = World::new().await;
    // A session id the client brought before logging in (fixation).
    let planted = "ab".repeat(32);
    let a = send(
        &w.app,
        Method::POST,
        "/api/session",
        As::CookieOnly(&planted),
        &[],
        Some(&json!({"username": "alice", "password": PASSWORD})),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let cookie = a.headers[header::SET_COOKIE].to_str().unwrap().to_string();
    for part in ["HttpOnly", "Secure", "SameSite=Lax", "Path=/"] {
        assert!(
            cookie.split("; ").any(|p| p == part),
            "{part} missing: {cookie}"
        );
    }
    let max_age: u64 = cookie
        .split("; ")
        .find_map(|p| p.strip_prefix("Max-Age="))
        .unwrap()
        .parse()
        .unwrap();
    assert!(max_age > 0, "{cookie}");
    let first = session_id(&a);
    assert!(is_token(&first), "{first}");
    assert_ne!(first, planted, "the session id the client brought was kept");
    let body = a.json();
    assert_eq!(body["username"], "alice");
    let csrf = body["csrf_token"].as_str().unwrap().to_string();
    assert!(is_token(&csrf), "{body}");
    // The planted id logs nobody in; the new one does, with the same CSRF
    // token.
    error(
        &me(&w.app, As::CookieOnly(&planted)).await,
        StatusCode::UNAUTHORIZED,
    );
    let mine = me(&w.app, As::CookieOnly(&first)).await;
    assert_eq!(mine.status, StatusCode::OK, "{}", mine.text());
    assert_eq!(mine.json()["csrf_token"], csrf.as_str());
    // Logging in again, with the first session's cookie: another id and
    // another CSRF token.
    let again = send(
        &w.app,
        Method::POST,
        "/api/session",
        As::CookieOnly(&first),
        &[],
        Some(&json!({"username": "alice", "password": PASSWORD})),
    )
    .await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text());
    let second = session_id(&again);
    assert!(is_token(&second));
    assert_ne!(second, first);
    assert_ne!(again.json()["csrf_token"], csrf.as_str());
}

#[tokio::test]
async fn logout_deletes_the_session_on_the_server() {
    let w = World::new().await;
    let (id, csrf) = login(&w.app, "mona").await;
    assert_eq!(me(&w.app, As::CookieOnly(&id)).await.status, StatusCode::OK);
    // Without the CSRF token, logging out is refused and the session lives.
    let refused = send(
        &w.app,
        Method::DELETE,
        "/api/session",
        As::CookieOnly(&id),
        &[],
        None,
    )
    .await;
    assert_eq!(
        error(&refused, StatusCode::FORBIDDEN)["field"],
        auth::CSRF_FIELD
    );
    assert_eq!(me(&w.app, As::CookieOnly(&id)).await.status, StatusCode::OK);
    let out = send(
        &w.app,
        Method::DELETE,
        "/api/session",
        As::Cookie(&id, &csrf),
        &[],
        None,
    )
    .await;
    assert_eq!(out.status, StatusCode::NO_CONTENT, "{}", out.text());
    let cleared = out.headers[header::SET_COOKIE].to_str().unwrap();
    assert!(
        cleared.starts_with(&format!("{}=;", auth::SESSION_COOKIE))
            && cleared.contains("Max-Age=0"),
        "{cleared}"
    );
    // The old cookie, kept by the client, no longer works: not for reading
    // the account, not for writing.
    error(
        &me(&w.app, As::CookieOnly(&id)).await,
        StatusCode::UNAUTHORIZED,
    );
    let before = w.version().await;
    let write = w.act(As::Cookie(&id, &csrf), &record_x(&w)).await;
    error(&write, StatusCode::UNAUTHORIZED);
    assert_eq!(w.version().await, before);
}

#[tokio::test]
async fn a_write_with_the_session_cookie_needs_its_csrf_token() {
    let w = World::new().await;
    let (id, csrf) = login(&w.app, "mona").await;
    let (_, bobs_csrf) = login(&w.app, "bob").await;
    let before = w.version().await;
    let wrong = "0".repeat(64);
    for who in [
        As::CookieOnly(&id),
        As::Cookie(&id, &wrong),
        As::Cookie(&id, ""),
        // Another session's token.
        As::Cookie(&id, &bobs_csrf),
    ] {
        let a = w.act(who, &record_x(&w)).await;
        assert_eq!(
            error(&a, StatusCode::FORBIDDEN)["field"],
            auth::CSRF_FIELD,
            "{who:?}"
        );
        assert_eq!(w.version().await, before, "{who:?}");
    }
    // The same for making a token and creating a competition.
    let token = send(
        &w.app,
        Method::POST,
        "/api/tokens",
        As::CookieOnly(&id),
        &[],
        Some(&json!({"label": "x"})),
    )
    .await;
    error(&token, StatusCode::FORBIDDEN);
    let (olga, _) = login(&w.app, "olga").await;
    let create = send(
        &w.app,
        Method::POST,
        "/api/competitions",
        As::Cookie(&olga, &wrong),
        &[],
        Some(&json!({"format": "tws-ladder", "id": "csrf-ladder", "name": "No"})),
    )
    .await;
    error(&create, StatusCode::FORBIDDEN);
    let missing = send(
        &w.app,
        Method::GET,
        "/api/competitions/csrf-ladder",
        As::Nobody,
        &[],
        None,
    )
    .await;
    error(&missing, StatusCode::NOT_FOUND);
    // With the right token, the write goes through.
    let done = w.act_ok(As::Cookie(&id, &csrf), &record_x(&w)).await;
    assert_eq!(done["stored"], true);
    assert_ne!(w.version().await, before);
}

#[tokio::test]
async fn a_bearer_token_needs_no_csrf_and_a_wrong_one_is_401() {
    let w = World::new().await;
    // A token made over HTTP after logging in.
    let (id, csrf) = login(&w.app, "mona").await;
    let made = send(
        &w.app,
        Method::POST,
        "/api/tokens",
        As::Cookie(&id, &csrf),
        &[],
        Some(&json!({"label": " my script "})),
    )
    .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
    let body = made.json();
    assert_eq!(body["label"], "my script");
    let token = body["token"].as_str().unwrap().to_string();
    assert!(
        token.starts_with("arb_") && is_token(&token[4..]),
        "{token}"
    );
    let mine = me(&w.app, As::Token(&token)).await;
    assert_eq!(mine.status, StatusCode::OK);
    assert_eq!(mine.json()["username"], "mona");
    assert!(mine.json().get("csrf_token").is_none(), "{}", mine.text());
    // Wrong tokens and other schemes: 401, nothing stored.
    let before = w.version().await;
    let bad = format!("arb_{}", "0".repeat(64));
    let wrong = w.act(As::Token(&bad), &record_x(&w)).await;
    assert_eq!(
        error(&wrong, StatusCode::UNAUTHORIZED)["code"],
        "unauthorized"
    );
    for value in [
        "Basic bW9uYTp4",
        "Bearer",
        "bearer x",
        &format!("Bearer {}", &token[..20]),
    ] {
        let a = send(
            &w.app,
            Method::POST,
            &format!("/api/competitions/{LADDER}/actions"),
            As::Nobody,
            &[
                ("authorization", value.to_string()),
                ("if-match", before.clone()),
            ],
            Some(&record_x(&w)),
        )
        .await;
        error(&a, StatusCode::UNAUTHORIZED);
    }
    error(&me(&w.app, As::Token(&bad)).await, StatusCode::UNAUTHORIZED);
    assert_eq!(w.version().await, before);
    // The right token needs no CSRF token (none is sent).
    let done = w.act_ok(As::Token(&token), &record_x(&w)).await;
    assert_eq!(done["stored"], true);
}

// ----- logins and accounts -----

#[tokio::test]
async fn failed_logins_are_throttled_per_username_even_unknown_ones() {
    let w = World::new().await;
    for username in ["alice", "nobody-here"] {
        for attempt in 1..=5 {
            let a = login_from(&w.app, None, username, "wrong password!").await;
            assert_eq!(
                error(&a, StatusCode::UNAUTHORIZED)["code"],
                "unauthorized",
                "{username} #{attempt}"
            );
        }
        // The sixth failure within the window is refused before the
        // password is checked, even the right one.
        for password in ["wrong password!", PASSWORD] {
            let a = login_from(&w.app, None, username, password).await;
            assert_eq!(
                error(&a, StatusCode::TOO_MANY_REQUESTS)["code"],
                "throttled",
                "{username}"
            );
            let wait: u64 = a.headers[header::RETRY_AFTER]
                .to_str()
                .unwrap()
                .parse()
                .unwrap();
            assert!((1..=15 * 60).contains(&wait), "{wait}");
        }
    }
    // Usernames are compared lower-cased: "ALICE" is throttled too.
    let a = login_from(&w.app, None, "ALICE", PASSWORD).await;
    error(&a, StatusCode::TOO_MANY_REQUESTS);
    // Another username is not.
    assert_eq!(
        login_from(&w.app, None, "bob", PASSWORD).await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn failed_logins_are_throttled_per_address() {
    let w = World::with_auth(AuthConfig {
        max_failures_per_address: 3,
        ..AuthConfig::default()
    })
    .await;
    let attacker: SocketAddr = "203.0.113.7:40000".parse().unwrap();
    let other: SocketAddr = "198.51.100.9:40000".parse().unwrap();
    for username in ["alice", "bob", "carol"] {
        let a = login_from(&w.app, Some(attacker), username, "wrong password!").await;
        error(&a, StatusCode::UNAUTHORIZED);
    }
    let a = login_from(&w.app, Some(attacker), "mona", PASSWORD).await;
    error(&a, StatusCode::TOO_MANY_REQUESTS);
    assert!(a.headers.contains_key(header::RETRY_AFTER));
    let ok = login_from(&w.app, Some(other), "mona", PASSWORD).await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.text());
}

#[tokio::test]
async fn registration_checks_each_field_and_refuses_a_taken_username() {
    let w = World::new().await;
    let register = |body: Value| {
        let app = w.app.clone();
        async move {
            send(
                &app,
                Method::POST,
                "/api/accounts",
                As::Nobody,
                &[],
                Some(&body),
            )
            .await
        }
    };
    let good =
        |username: &str| json!({"username": username, "name": "New Comer", "password": PASSWORD});
    for (body, field) in [
        (
            json!({"username": "-x", "name": "N", "password": PASSWORD}),
            "username",
        ),
        (
            json!({"username": "a", "name": "N", "password": PASSWORD}),
            "username",
        ),
        (
            json!({"username": "has space", "name": "N", "password": PASSWORD}),
            "username",
        ),
        (
            json!({"username": "x".repeat(33), "name": "N", "password": PASSWORD}),
            "username",
        ),
        (
            json!({"username": "newbie", "name": "N", "password": "short"}),
            "password",
        ),
        (
            json!({"username": "newbie", "name": "N", "password": "123456789"}),
            "password",
        ),
        (
            json!({"username": "newbie", "name": "  ", "password": PASSWORD}),
            "name",
        ),
        (
            json!({"username": "newbie", "name": "N", "email": "not-an-address", "password": PASSWORD}),
            "email",
        ),
        (json!({"username": "newbie", "name": "N"}), "body"),
        (
            json!({"username": "newbie", "name": "N", "password": PASSWORD, "organizer": true}),
            "body",
        ),
    ] {
        let a = register(body.clone()).await;
        let e = error(&a, StatusCode::BAD_REQUEST);
        assert_eq!(e["field"], field, "{body}: {e}");
    }
    let a = register(good("Newbie")).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
    assert_eq!(
        a.json(),
        json!({"username": "newbie", "name": "New Comer", "organizer": false, "roles": []})
    );
    // Taken, whatever the case; an existing account too.
    for username in ["newbie", "NEWBIE", "alice"] {
        error(&register(good(username)).await, StatusCode::CONFLICT);
    }
    // The account logs in.
    assert_eq!(
        login_from(&w.app, None, "newbie", PASSWORD).await.status,
        StatusCode::OK
    );
}

// ----- versions and retries -----

#[tokio::test]
async fn a_write_needs_if_match_and_a_stale_one_is_409_with_the_current_version() {
    let w = World::new().await;
    let mona = w.token("mona");
    let before = w.version().await;
    let current: u64 = before
        .trim_matches('"')
        .trim_start_matches('v')
        .parse()
        .unwrap();
    let missing = post_action(&w, As::Token(mona), &[], &record_x(&w)).await;
    let e = error(&missing, StatusCode::PRECONDITION_REQUIRED);
    assert_eq!(e["field"], "If-Match", "{e}");
    assert_eq!(e["code"], "precondition-required", "{e}");
    assert_eq!(w.version().await, before);
    // A preview stores nothing and needs none.
    let preview = post_action(
        &w,
        As::Token(mona),
        &[],
        &json!({"action": "close-round", "preview": true}),
    )
    .await;
    assert_ne!(
        preview.status,
        StatusCode::PRECONDITION_REQUIRED,
        "{}",
        preview.text()
    );
    for stale in ["\"v1\"", "\"v3\""] {
        let a = post_action(
            &w,
            As::Token(mona),
            &[("if-match", stale.to_string())],
            &record_x(&w),
        )
        .await;
        let e = error(&a, StatusCode::CONFLICT);
        assert_eq!(e["current_version"], current, "{stale}: {e}");
        assert_eq!(e["code"], "conflict");
        assert_eq!(w.version().await, before);
    }
    let ahead = post_action(
        &w,
        As::Token(mona),
        &[("if-match", format!("\"v{}\"", current + 5))],
        &record_x(&w),
    )
    .await;
    assert_eq!(
        error(&ahead, StatusCode::CONFLICT)["current_version"],
        current
    );
    // Only the strong tag the server issues names a version (issue 14,
    // item 4): a weak one, an unquoted one, a bare number, `*`, a list or
    // a tag written otherwise is refused, even for the current version.
    for bad in [
        "\"latest\"".to_string(),
        format!("W/{before}"),
        format!("W/\"v{current}\""),
        format!("v{current}"),
        current.to_string(),
        "*".to_string(),
        format!("{before}, \"v1\""),
        format!("\"v0{current}\""),
        format!("\"v{current}"),
        format!("\"V{current}\""),
    ] {
        let a = post_action(
            &w,
            As::Token(mona),
            &[("if-match", bad.clone())],
            &record_x(&w),
        )
        .await;
        assert_eq!(
            error(&a, StatusCode::BAD_REQUEST)["field"],
            "If-Match",
            "{bad}"
        );
        assert_eq!(w.version().await, before, "{bad}");
    }
    // The current version's strong tag goes through.
    let ok = post_action(
        &w,
        As::Token(mona),
        &[("if-match", before.clone())],
        &record_x(&w),
    )
    .await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.text());
    assert_eq!(ok.json()["version"], current + 1);
    assert_eq!(
        ok.headers[header::ETAG].to_str().unwrap(),
        format!("\"v{}\"", current + 1)
    );
    assert_eq!(w.version().await, format!("\"v{}\"", current + 1));
}

#[tokio::test]
async fn an_idempotency_key_replays_the_first_outcome_and_refuses_another_request() {
    let w = World::new().await;
    let mona = w.token("mona");
    let before = w.version().await;
    let headers = [
        ("if-match", before.clone()),
        ("idempotency-key", "record-x-1".to_string()),
    ];
    let first = post_action(&w, As::Token(mona), &headers, &record_x(&w)).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text());
    let first_body = first.json();
    assert_eq!(first_body["stored"], true);
    let after = w.version().await;
    assert_ne!(after, before);
    // The retry is the same request: the same (now stale) If-Match and key.
    let retry = post_action(&w, As::Token(mona), &headers, &record_x(&w)).await;
    assert_eq!(
        retry.status,
        StatusCode::OK,
        "a retry of a done request: {}",
        retry.text()
    );
    let retry_body = retry.json();
    assert_eq!(retry_body["version"], first_body["version"], "{retry_body}");
    assert_eq!(retry_body["action"], first_body["action"]);
    assert_eq!(retry_body["replayed"], true, "{retry_body}");
    assert_eq!(retry_body["stored"], false, "{retry_body}");
    assert_eq!(retry.headers[header::ETAG], first.headers[header::ETAG]);
    assert_eq!(w.version().await, after, "the retry stored something");
    // With the current version as If-Match, the same.
    let retry = post_action(
        &w,
        As::Token(mona),
        &[
            ("if-match", after.clone()),
            ("idempotency-key", "record-x-1".into()),
        ],
        &record_x(&w),
    )
    .await;
    assert_eq!(retry.status, StatusCode::OK, "{}", retry.text());
    assert_eq!(retry.json()["replayed"], true);
    assert_eq!(w.version().await, after);
    // The key names that request: another body with it is refused.
    let other = json!({"action": "record-result", "game": w.y, "result": result("Dan Dunn")});
    let reused = post_action(
        &w,
        As::Token(mona),
        &[
            ("if-match", after.clone()),
            ("idempotency-key", "record-x-1".into()),
        ],
        &other,
    )
    .await;
    let e = error(&reused, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(e["field"], "Idempotency-Key", "{e}");
    assert_eq!(w.version().await, after);
    // A key that is too long or empty names the header.
    for key in ["x".repeat(201), " ".to_string()] {
        let a = post_action(
            &w,
            As::Token(mona),
            &[("if-match", after.clone()), ("idempotency-key", key)],
            &other,
        )
        .await;
        assert_eq!(
            error(&a, StatusCode::BAD_REQUEST)["field"],
            "Idempotency-Key"
        );
    }
    assert_eq!(w.version().await, after);
}

#[tokio::test]
async fn creating_a_competition_twice_with_one_key_replays_the_first() {
    let w = World::new().await;
    let olga = w.token("olga");
    let body = json!({"format": "tws-ladder", "id": "second", "name": "Second Ladder"});
    let headers = [("idempotency-key", "create-second".to_string())];
    let create = || {
        send(
            &w.app,
            Method::POST,
            "/api/competitions",
            As::Token(olga),
            &headers,
            Some(&body),
        )
    };
    let first = create().await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text());
    fits_schema("Created", &first.json());
    assert_eq!(
        first.headers[header::ETAG].to_str().unwrap(),
        format!("\"v{}\"", first.json()["version"])
    );
    let retry = create().await;
    assert_eq!(
        retry.status,
        StatusCode::CREATED,
        "a retry of a create: {}",
        retry.text()
    );
    assert_eq!(retry.json(), first.json());
    // Without a key, the id is taken.
    let taken = send(
        &w.app,
        Method::POST,
        "/api/competitions",
        As::Token(olga),
        &[],
        Some(&json!({"format": "tws-ladder", "id": "second", "name": "Again"})),
    )
    .await;
    error(&taken, StatusCode::CONFLICT);
    let other_format = send(
        &w.app,
        Method::POST,
        "/api/competitions",
        As::Token(olga),
        &[],
        Some(&json!({"format": "chess-swiss", "id": "third", "name": "No"})),
    )
    .await;
    assert_eq!(
        error(&other_format, StatusCode::BAD_REQUEST)["field"],
        "format"
    );
}

// ----- a report and its confirmation -----

#[tokio::test]
async fn a_report_confirmed_by_the_opponent_is_recorded() {
    let w = World::new().await;
    let r = round(&w, 1).await;
    let x = game(&r, &w.x);
    assert_eq!(x["report"]["by"], "Alice Adams", "{x}");
    assert_eq!(x["report"]["awaiting"], "Bob Brown", "{x}");
    assert!(x["result"].is_null(), "{x}");
    let done = w
        .act_ok(
            As::Token(w.token("bob")),
            &json!({"action": "confirm-result", "game": w.x}),
        )
        .await;
    assert_eq!(done["action"], "confirm-result");
    assert_eq!(done["stored"], true);
    let r = round(&w, 1).await;
    let x = game(&r, &w.x);
    assert_eq!(x["result"]["winner"], "Alice Adams", "{x}");
    assert_eq!(x["result"]["ended_by"], "final scoring", "{x}");
    assert_eq!(x["result"]["turn"], 10, "{x}");
    assert_eq!(x["status"], "played", "{x}");
    assert!(x.get("report").is_none(), "{x}");
    // Carol reports Y; her opponent has no account, so a moderator
    // confirms.
    w.act_ok(
        As::Token(w.token("carol")),
        &json!({"action": "report-result", "game": w.y, "result": result("Carol Clark")}),
    )
    .await;
    w.act_ok(
        As::Token(w.token("mona")),
        &json!({"action": "confirm-result", "game": w.y}),
    )
    .await;
    let r = round(&w, 1).await;
    assert_eq!(game(&r, &w.y)["result"]["winner"], "Carol Clark");
    // A confirmed game cannot be confirmed again.
    let again = w
        .act(
            As::Token(w.token("bob")),
            &json!({"action": "confirm-result", "game": w.x}),
        )
        .await;
    assert_eq!(
        again.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        again.text()
    );
}

// ----- reading never writes -----

#[tokio::test]
async fn no_get_changes_the_version() {
    let w = World::new().await;
    let (id, csrf) = login(&w.app, "alice").await;
    let before = w.version().await;
    let api = [
        "/api/health".to_string(),
        "/api/openapi.json".into(),
        "/api/competitions".into(),
        format!("/api/competitions/{LADDER}"),
        format!("/api/competitions/{LADDER}/history"),
        format!("/api/competitions/{LADDER}/history?last=3"),
        format!("/api/competitions/{LADDER}/rounds/1"),
        "/api/me".into(),
    ];
    let pages = [
        "/".to_string(),
        format!("/c/{LADDER}"),
        format!("/c/{LADDER}/history"),
        format!("/c/{LADDER}/rounds/1"),
        format!("/c/{LADDER}/players/Alice%20Adams"),
        format!("/c/{LADDER}/stats"),
    ];
    let token = w.token("olga");
    for who in [As::Nobody, As::Token(token), As::Cookie(&id, &csrf)] {
        for uri in &api {
            let a = send(&w.app, Method::GET, uri, who, &[], None).await;
            if !(uri == "/api/me" && matches!(who, As::Nobody)) {
                assert_eq!(a.status, StatusCode::OK, "{uri} {who:?}: {}", a.text());
            }
        }
        for uri in &pages {
            let a = send(&w.app, Method::GET, uri, who, &[], None).await;
            assert!(!a.status.is_server_error(), "{uri} {who:?}: {}", a.status);
        }
        assert_eq!(w.version().await, before, "{who:?}");
    }
    // A GET on the write routes is not a write either.
    for uri in [
        format!("/api/competitions/{LADDER}/actions"),
        "/api/session".into(),
        "/api/tokens".into(),
    ] {
        let a = send(&w.app, Method::GET, &uri, As::Token(token), &[], None).await;
        assert!(a.status.is_client_error(), "{uri}: {}", a.status);
    }
    assert_eq!(w.version().await, before);
}

// ----- snapshots -----

/// Replace the secret at `key` (checked to look like one) by a marker.
fn redact(body: &mut Value, key: &str) {
    let v = body.get_mut(key).unwrap_or_else(|| panic!("no {key}"));
    let s = v.as_str().unwrap();
    assert!(is_token(s.trim_start_matches("arb_")), "{s}");
    *v = json!("[redacted]");
}

#[tokio::test]
async fn snapshots_of_write_bodies() {
    let w = World::new().await;
    let mut done = w.act_ok(As::Token(w.token("mona")), &record_x(&w)).await;
    without_sides(&mut done);
    fits_schema("ActionDone", &done);
    insta::assert_json_snapshot!("action_done_record_result", done);
    let mut confirm = w
        .act_ok(
            As::Token(w.token("mona")),
            &json!({"action": "confirm-result", "game": w.m}),
        )
        .await;
    without_sides(&mut confirm);
    insta::assert_json_snapshot!("action_done_confirm_result", confirm);
    let a = login_from(&w.app, None, "pete", PASSWORD).await;
    let mut me_session = a.json();
    fits_schema("Me", &me_session);
    redact(&mut me_session, "csrf_token");
    insta::assert_json_snapshot!("me_by_session", me_session);
    let me_token = me(&w.app, As::Token(w.token("olga"))).await.json();
    fits_schema("Me", &me_token);
    insta::assert_json_snapshot!("me_by_token", me_token);
    let (id, csrf) = (
        session_id(&a),
        a.json()["csrf_token"].as_str().unwrap().to_string(),
    );
    let made = send(
        &w.app,
        Method::POST,
        "/api/tokens",
        As::Cookie(&id, &csrf),
        &[],
        Some(&json!({"label": "laptop"})),
    )
    .await;
    let mut made = made.json();
    fits_schema("TokenCreated", &made);
    redact(&mut made, "token");
    insta::assert_json_snapshot!("token_created", made);
}

// ----- previews, expiry, applications -----

#[tokio::test]
async fn a_preview_stores_nothing() {
    let w = World::new().await;
    let mona = w.token("mona");
    w.act_ok(
        As::Token(mona),
        &json!({"action": "record-result", "game": w.y, "result": result("Dan Dunn")}),
    )
    .await;
    let before = w.version().await;
    let body =
        json!({"action": "close-round", "early_reason": "to start round 2", "preview": true});
    let preview = post_action(&w, As::Token(mona), &[], &body).await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.text());
    let done = preview.json();
    assert_eq!(done["stored"], false, "{done}");
    assert!(done["close"].is_object(), "{done}");
    assert_eq!(
        format!("\"v{}\"", done["version"]),
        before,
        "a preview answers the version it was made at"
    );
    assert_eq!(w.version().await, before);
}

#[tokio::test]
async fn an_expired_session_logs_nobody_in() {
    let w = World::with_auth(AuthConfig {
        session_ttl: std::time::Duration::ZERO,
        ..AuthConfig::default()
    })
    .await;
    // The login answers, but its session is over at once: no CSRF token,
    // and the cookie logs nobody in.
    let a = login_from(&w.app, None, "mona", PASSWORD).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    assert!(a.json().get("csrf_token").is_none(), "{}", a.text());
    let id = session_id(&a);
    error(
        &me(&w.app, As::CookieOnly(&id)).await,
        StatusCode::UNAUTHORIZED,
    );
    let before = w.version().await;
    error(
        &w.act(As::Cookie(&id, "x"), &record_x(&w)).await,
        StatusCode::UNAUTHORIZED,
    );
    assert_eq!(w.version().await, before);
}

/// Joining grants the player role at once (before a moderator approves); a
/// declined applicant loses it and may apply again.
#[tokio::test]
async fn a_declined_applicant_is_no_player_and_may_apply_again() {
    let w = World::new().await;
    let zed = w.token("zed");
    w.act_ok(
        As::Token(w.token("mona")),
        &json!({"action": "decline", "player": "Zed Zane", "reason": "the ladder is full"}),
    )
    .await;
    let roles = me(&w.app, As::Token(zed)).await.json()["roles"].clone();
    let again = w.act(As::Token(zed), &json!({"action": "join"})).await;
    assert_eq!(
        roles,
        json!([]),
        "a declined applicant still has a role: {roles}; joining again answers {} {}",
        again.status,
        again.text()
    );
    // The rules may still refuse a second application (422); "you already
    // play" (400) must not.
    assert!(
        again.status == StatusCode::OK || again.status == StatusCode::UNPROCESSABLE_ENTITY,
        "a declined applicant cannot apply again: {} {}",
        again.status,
        again.text()
    );
}
