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

/// A config whose slowdown is quick enough for tests.
fn quick_slowdown() -> AuthConfig {
    AuthConfig {
        slowdown_base: std::time::Duration::from_millis(5),
        slowdown_max: std::time::Duration::from_millis(20),
        ..AuthConfig::default()
    }
}

fn address(n: u8) -> SocketAddr {
    SocketAddr::from(([203, 0, 113, n], 40000))
}

/// Issue 14 item 7: five wrong passwords from five addresses locked the
/// owner out for 15 minutes. Now they only slow the username down: its
/// owner logs in from his own address, right away after a short wait.
#[tokio::test]
async fn wrong_passwords_from_many_addresses_do_not_lock_the_owner_out() {
    let w = World::with_auth(quick_slowdown()).await;
    for n in 1..=8 {
        let a = login_from(&w.app, Some(address(n)), "alice", "wrong password!").await;
        assert_eq!(
            error(&a, StatusCode::UNAUTHORIZED)["code"],
            "unauthorized",
            "#{n}"
        );
    }
    let started = std::time::Instant::now();
    let owner = login_from(&w.app, Some(address(100)), "alice", PASSWORD).await;
    assert_eq!(owner.status, StatusCode::OK, "{}", owner.text());
    // Eight failures, three past the five allowed: 5 ms doubled three
    // times, within the 20 ms maximum.
    assert!(started.elapsed() >= std::time::Duration::from_millis(20));
}

/// One address that keeps failing for a username is refused for that
/// username (429 even with the right password); the owner elsewhere is not.
#[tokio::test]
async fn failed_logins_are_throttled_per_username_and_address() {
    let w = World::with_auth(quick_slowdown()).await;
    for username in ["alice", "nobody-here"] {
        for attempt in 1..=5 {
            let a = login_from(&w.app, Some(address(7)), username, "wrong password!").await;
            assert_eq!(
                error(&a, StatusCode::UNAUTHORIZED)["code"],
                "unauthorized",
                "{username} #{attempt}"
            );
        }
        // The sixth attempt from there is refused before the password is
        // checked, even the right one.
        for password in ["wrong password!", PASSWORD] {
            let a = login_from(&w.app, Some(address(7)), username, password).await;
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
    // Usernames are compared lower-cased: "ALICE" from there is refused too.
    let a = login_from(&w.app, Some(address(7)), "ALICE", PASSWORD).await;
    error(&a, StatusCode::TOO_MANY_REQUESTS);
    // Another username from there is not (the address is below its 20).
    assert_eq!(
        login_from(&w.app, Some(address(7)), "bob", PASSWORD)
            .await
            .status,
        StatusCode::OK
    );
    // Alice from her own address logs in.
    assert_eq!(
        login_from(&w.app, Some(address(8)), "alice", PASSWORD)
            .await
            .status,
        StatusCode::OK
    );
}

/// A login through a proxy: the peer is `proxy`, and it forwards for
/// `client`.
async fn login_via(
    app: &Router,
    proxy: SocketAddr,
    forwarded_for: &str,
    username: &str,
    password: &str,
) -> Answer {
    let mut request = Request::post("/api/session")
        .header(header::CONTENT_TYPE, "application/json")
        .header("x-forwarded-for", forwarded_for)
        .body(Body::from(
            serde_json::to_vec(&json!({"username": username, "password": password})).unwrap(),
        ))
        .unwrap();
    request.extensions_mut().insert(ConnectInfo(proxy));
    oneshot(app, request).await
}

/// Issue 14 item 7: everyone behind one reverse proxy shared one bucket.
/// A proxy named in the configuration is believed about the client; the
/// same header from anyone else is not.
#[tokio::test]
async fn behind_a_trusted_proxy_each_client_has_its_own_bucket() {
    let proxy: SocketAddr = "10.0.0.1:50000".parse().unwrap();
    let w = World::with_auth(AuthConfig {
        max_failures_per_address: 3,
        trusted_proxies: vec![proxy.ip()],
        ..quick_slowdown()
    })
    .await;
    for username in ["alice", "bob", "carol"] {
        let a = login_via(&w.app, proxy, "198.51.100.66", username, "wrong password!").await;
        error(&a, StatusCode::UNAUTHORIZED);
    }
    let a = login_via(&w.app, proxy, "198.51.100.66", "mona", PASSWORD).await;
    error(&a, StatusCode::TOO_MANY_REQUESTS);
    // Another client behind the same proxy has a bucket of its own.
    let ok = login_via(&w.app, proxy, "198.51.100.9", "mona", PASSWORD).await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.text());
    // An untrusted peer cannot escape its bucket by naming other clients.
    let spoofer = address(50);
    for (n, username) in ["alice", "bob", "carol"].into_iter().enumerate() {
        let a = login_via(
            &w.app,
            spoofer,
            &format!("192.0.2.{n}"),
            username,
            "wrong password!",
        )
        .await;
        error(&a, StatusCode::UNAUTHORIZED);
    }
    let a = login_via(&w.app, spoofer, "192.0.2.99", "mona", PASSWORD).await;
    error(&a, StatusCode::TOO_MANY_REQUESTS);
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
    // The list of tokens is a read (it only notes the token's use, in the
    // accounts, not in a competition).
    let a = send(
        &w.app,
        Method::GET,
        "/api/tokens",
        As::Token(token),
        &[],
        None,
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    // A GET on the write routes is not a write either.
    for uri in [
        format!("/api/competitions/{LADDER}/actions"),
        "/api/session".into(),
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
    // The id is the start of the random token's hash.
    let id = made["id"].as_str().unwrap();
    assert!(
        id.len() == 16 && id.bytes().all(|b| b.is_ascii_hexdigit()),
        "{id}"
    );
    made["id"] = json!("[the token's id]");
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

// ----- issue 14: tokens, registration, cross-site writes -----

async fn tokens_of(app: &Router, who: As<'_>) -> Answer {
    send(app, Method::GET, "/api/tokens", who, &[], None).await
}

async fn revoke(app: &Router, who: As<'_>, id: &str) -> Answer {
    send(
        app,
        Method::DELETE,
        &format!("/api/tokens/{id}"),
        who,
        &[],
        None,
    )
    .await
}

/// Issue 14 item 2, judged by "a revoked token answers 401": tokens are
/// listed (label, created, last used; never the token), revoked one by one
/// by their owner only, and a revoked token logs nobody in.
#[tokio::test]
async fn a_revoked_token_answers_401() {
    let w = World::new().await;
    let (session, csrf) = login(&w.app, "mona").await;
    let made = send(
        &w.app,
        Method::POST,
        "/api/tokens",
        As::Cookie(&session, &csrf),
        &[],
        Some(&json!({"label": "ci", "expires_in_days": 30})),
    )
    .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text());
    let made = made.json();
    let token = made["token"].as_str().unwrap().to_string();
    let id = made["id"].as_str().unwrap().to_string();
    assert_eq!(id.len(), 16, "{made}");
    assert_eq!(made["expires_at"], "2026-04-01T12:00:00+00:00", "{made}");
    assert_eq!(me(&w.app, As::Token(&token)).await.status, StatusCode::OK);

    let list = tokens_of(&w.app, As::Token(&token)).await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text());
    let list = list.json();
    let labels: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["label"].as_str().unwrap())
        .collect();
    // Sorted by creation, then label.
    assert_eq!(labels, ["ci", "tests"], "{list}");
    let ci = &list[0];
    fits_schema("TokenView", ci);
    fits_schema("TokenView", &list[1]);
    assert_eq!(ci["id"], id.as_str());
    assert_eq!(ci["created_at"], "2026-03-02T12:00:00+00:00");
    assert_eq!(
        ci["last_used"], "2026-03-02T12:00:00+00:00",
        "its use is noted"
    );
    assert_eq!(ci["expired"], false);
    assert!(
        !list.to_string().contains(&token),
        "the token itself is never listed"
    );

    // Nobody revokes another's token: 404, and it still works.
    error(
        &revoke(&w.app, As::Token(w.token("otto")), &id).await,
        StatusCode::NOT_FOUND,
    );
    error(
        &revoke(&w.app, As::Nobody, &id).await,
        StatusCode::UNAUTHORIZED,
    );
    // With a session, the CSRF token is required.
    error(
        &revoke(&w.app, As::CookieOnly(&session), &id).await,
        StatusCode::FORBIDDEN,
    );
    assert_eq!(me(&w.app, As::Token(&token)).await.status, StatusCode::OK);
    // A hostile id is refused naming the field.
    let e = error(
        &revoke(&w.app, As::Token(&token), &"f".repeat(65)).await,
        StatusCode::BAD_REQUEST,
    );
    assert_eq!(e["field"], "id");

    let done = revoke(&w.app, As::Cookie(&session, &csrf), &id).await;
    assert_eq!(done.status, StatusCode::NO_CONTENT, "{}", done.text());
    let refused = me(&w.app, As::Token(&token)).await;
    assert_eq!(
        error(&refused, StatusCode::UNAUTHORIZED)["code"],
        "unauthorized"
    );
    let before = w.version().await;
    error(
        &w.act(As::Token(&token), &json!({"action": "join"})).await,
        StatusCode::UNAUTHORIZED,
    );
    assert_eq!(w.version().await, before, "nothing stored");
    error(
        &revoke(&w.app, As::Cookie(&session, &csrf), &id).await,
        StatusCode::NOT_FOUND,
    );
    // The other token of the account is untouched.
    assert_eq!(
        me(&w.app, As::Token(w.token("mona"))).await.status,
        StatusCode::OK
    );
    for days in [0, 3651] {
        let a = send(
            &w.app,
            Method::POST,
            "/api/tokens",
            As::Token(w.token("mona")),
            &[],
            Some(&json!({"label": "x", "expires_in_days": days})),
        )
        .await;
        assert_eq!(
            error(&a, StatusCode::BAD_REQUEST)["field"],
            "expires_in_days"
        );
    }
}

/// Issue 14 item 2: "a token can carry an expiry". Past it, the token
/// answers 401 naming the expiry, and its list says it expired.
#[tokio::test]
async fn an_expired_token_answers_401() {
    use arbiter_server::{AppState, Clock};
    let store = arbiter_store_sqlite::SqliteStore::open_in_memory()
        .await
        .unwrap();
    let then = AppState::new(arbiter_service::Service::new(store.clone()))
        .with_clock(Clock::Fixed(common::now()));
    let tokens = common::accounts_with_tokens(&then, &[("vera", "Vera Velasquez", false)]).await;
    let (token, _) = auth::create_expiring_token(&then, "vera", "a day", Some(1))
        .await
        .unwrap();
    let app = arbiter_server::app(then);
    assert_eq!(me(&app, As::Token(&token)).await.status, StatusCode::OK);
    let later = AppState::new(arbiter_service::Service::new(store))
        .with_clock(Clock::Fixed(common::now() + chrono::TimeDelta::hours(24)));
    let app = arbiter_server::app(later);
    let e = error(&me(&app, As::Token(&token)).await, StatusCode::UNAUTHORIZED);
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("expired at 2026-03-03T12:00:00+00:00"),
        "{e}"
    );
    let list = tokens_of(&app, As::Token(&tokens["vera"])).await.json();
    assert_eq!(list[0]["label"], "a day", "{list}");
    assert_eq!(list[0]["expired"], true, "{list}");
    assert_eq!(list[1]["expired"], false, "{list}");
}

/// A registration from `address`.
async fn register_from(app: &Router, address: SocketAddr, body: &Value) -> Answer {
    let mut request = Request::post("/api/accounts")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(serde_json::to_vec(body).unwrap()))
        .unwrap();
    request.extensions_mut().insert(ConnectInfo(address));
    oneshot(app, request).await
}

/// Issue 14 item 7: registrations are limited per address; reserved
/// usernames and easily guessed passwords are refused with the reason.
#[tokio::test]
async fn registration_is_limited_per_address_and_refuses_reserved_names_and_weak_passwords() {
    let w = World::with_auth(AuthConfig {
        max_registrations_per_address: 2,
        ..AuthConfig::default()
    })
    .await;
    let body = |username: &str, password: &str| json!({"username": username, "name": "New Comer", "password": password});
    for name in [
        "admin",
        "root",
        "system",
        "moderator",
        "demo",
        "Administrator",
    ] {
        let a = register_from(&w.app, address(1), &body(name, PASSWORD)).await;
        let e = error(&a, StatusCode::BAD_REQUEST);
        assert_eq!(e["field"], "username", "{name}: {e}");
        assert!(e["message"].as_str().unwrap().contains("reserved"), "{e}");
    }
    for weak in ["password12", "1234567890", "          "] {
        let a = register_from(&w.app, address(2), &body("newbie", weak)).await;
        let e = error(&a, StatusCode::BAD_REQUEST);
        assert_eq!(e["field"], "password", "{weak:?}: {e}");
        assert!(
            e["message"]
                .as_str()
                .unwrap()
                .starts_with("the password is too easy to guess: "),
            "{weak:?}: {e}"
        );
    }
    for n in 3..=4 {
        let a = register_from(&w.app, address(n), &body(&format!("first{n}"), PASSWORD)).await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
        let a = register_from(&w.app, address(n), &body(&format!("second{n}"), PASSWORD)).await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
        let a = register_from(&w.app, address(n), &body(&format!("third{n}"), PASSWORD)).await;
        assert_eq!(
            error(&a, StatusCode::TOO_MANY_REQUESTS)["code"],
            "throttled"
        );
        assert!(a.headers.contains_key(header::RETRY_AFTER));
    }
    // Nothing was made by the refused ones.
    assert_eq!(
        login_from(&w.app, None, "third3", PASSWORD).await.status,
        StatusCode::UNAUTHORIZED
    );
}

/// Issue 14 item 7: a state-changing request a browser marks as coming
/// from another site is refused (403) behind the CSRF token, even with
/// credentials that need none; the same from this site passes.
#[tokio::test]
async fn cross_site_writes_are_refused() {
    let w = World::new().await;
    let token = w.token("mona");
    let count = |list: Value| list.as_array().map_or(0, Vec::len);
    let before = count(tokens_of(&w.app, As::Token(token)).await.json());
    for headers in [
        vec![("origin", "https://evil.example".to_string())],
        vec![("origin", "null".to_string())],
        vec![("sec-fetch-site", "cross-site".to_string())],
        vec![
            ("origin", "https://evil.example".to_string()),
            ("host", "localhost:8080".to_string()),
        ],
    ] {
        let a = send(
            &w.app,
            Method::POST,
            "/api/tokens",
            As::Token(token),
            &headers,
            Some(&json!({"label": "from elsewhere"})),
        )
        .await;
        let e = error(&a, StatusCode::FORBIDDEN);
        assert_eq!(e["field"], "Origin", "{headers:?}: {e}");
    }
    let before_version = w.version().await;
    let a = send(
        &w.app,
        Method::POST,
        &format!("/api/competitions/{LADDER}/actions"),
        As::Token(w.token("zed")),
        &[
            ("origin", "https://evil.example".to_string()),
            ("if-match", before_version.clone()),
        ],
        Some(&json!({"action": "join"})),
    )
    .await;
    error(&a, StatusCode::FORBIDDEN);
    assert_eq!(w.version().await, before_version, "nothing stored");
    // A page's form from elsewhere is refused too, before its handler.
    let mut form = Request::post("/login")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header("origin", "https://evil.example")
        .body(Body::from("username=mona&password=x"))
        .unwrap();
    form.extensions_mut().insert(ConnectInfo(address(9)));
    let refused = oneshot(&w.app, form).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    // The layer's answer, not the form's own CSRF refusal.
    assert!(
        refused.text().contains("another site (Origin)"),
        "{}",
        refused.text()
    );
    // GETs are not writes; same-site writes pass.
    assert_eq!(
        send(
            &w.app,
            Method::GET,
            "/api/tokens",
            As::Token(token),
            &[("origin", "https://evil.example".to_string())],
            None,
        )
        .await
        .status,
        StatusCode::OK
    );
    for headers in [
        vec![("origin", "http://localhost:8080".to_string())],
        vec![
            ("origin", "https://arbiter.example".to_string()),
            ("host", "arbiter.example".to_string()),
            ("sec-fetch-site", "same-origin".to_string()),
        ],
    ] {
        let a = send(
            &w.app,
            Method::POST,
            "/api/tokens",
            As::Token(token),
            &headers,
            Some(&json!({"label": "from here"})),
        )
        .await;
        assert_eq!(a.status, StatusCode::CREATED, "{headers:?}: {}", a.text());
    }
    assert_eq!(
        count(tokens_of(&w.app, As::Token(token)).await.json()),
        before + 2
    );
}

/// Issue 14 item 7: "the history tells an account from a CLI actor". The
/// ladder's events written through the API name the account that acted,
/// marked as an account; an event written under a name no account has (as
/// the command line writes them) is marked as not one.
#[tokio::test]
async fn the_history_page_tells_accounts_from_other_actors() {
    let w = World::new().await;
    let page = send(
        &w.app,
        Method::GET,
        &format!("/c/{LADDER}/history"),
        As::Nobody,
        &[],
        None,
    )
    .await;
    assert_eq!(page.status, StatusCode::OK);
    let html = page.text();
    assert!(
        html.contains(r#"<td>olga <span class="muted">account</span></td>"#),
        "{html}"
    );
    assert!(html.contains(r#"<td>zed <span class="muted">account</span></td>"#));
    assert!(
        !html.contains("not an account</span></td>"),
        "every actor here is an account"
    );
}
