//! Rendered pages kept per competition version (issue 17 §4,
//! `pages::cache`): an anonymous reader's second request is answered from
//! the cache with the same bytes; a write, the next minute or a new page
//! renders again; a reader with a session or a token is never answered
//! from it; missing competitions and the pages that are not kept keep
//! nothing. The JSON view kept per version is answered in front of the
//! router the same way.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter_server::pages::cache::{CACHE_HEADER, MOST_PAGES};
use arbiter_server::{AppState, Clock};
use axum::http::{Method, StatusCode};
use common::ladder::{LADDER, World};
use common::{Answer, As, get_with_cookie, send};
use serde_json::json;

async fn get(world: &World, uri: &str) -> Answer {
    get_with_cookie(&world.app, uri, "").await
}

fn cache(a: &Answer) -> &str {
    a.headers
        .get(CACHE_HEADER)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

#[tokio::test]
async fn the_second_anonymous_request_is_answered_from_the_cache_with_the_same_bytes() {
    let world = World::new().await;
    for uri in [
        format!("/c/{LADDER}"),
        format!("/c/{LADDER}/rounds/1"),
        format!("/c/{LADDER}/history"),
        format!("/c/{LADDER}/players/Alice%20Adams"),
        format!("/c/{LADDER}/stats"),
    ] {
        let first = get(&world, &uri).await;
        assert_eq!(first.status, StatusCode::OK, "{uri}: {}", first.text());
        assert_eq!(cache(&first), "miss", "{uri}");
        let second = get(&world, &uri).await;
        assert_eq!(cache(&second), "hit", "{uri}");
        assert_eq!(second.status, StatusCode::OK);
        assert_eq!(second.body, first.body, "{uri}");
        assert_eq!(
            second.header("content-type"),
            first.header("content-type"),
            "{uri}"
        );
        // The security headers are the outer layers', on a hit as on a miss.
        assert_eq!(second.header("x-content-type-options"), "nosniff");
        assert!(!second.header("content-security-policy").is_empty());
    }
}

#[tokio::test]
async fn a_write_renders_the_page_again_with_what_it_changed() {
    let world = World::new().await;
    let uri = format!("/c/{LADDER}/rounds/1");
    let before = get(&world, &uri).await;
    assert_eq!(cache(&get(&world, &uri).await), "hit");
    // Bob confirms Alice's report of game X: the round's page changes.
    let bob = world.token("bob").to_string();
    world
        .act_ok(
            As::Token(&bob),
            &json!({"action": "confirm-result", "game": world.x}),
        )
        .await;
    let after = get(&world, &uri).await;
    assert_eq!(cache(&after), "miss");
    assert_ne!(after.body, before.body, "the confirmation shows");
    // What a reader the cache never answers sees, byte for byte.
    let fresh = send(&world.app, Method::GET, &uri, As::Token(&bob), &[], None).await;
    assert_eq!(cache(&fresh), "");
    assert_eq!(fresh.body, after.body);
    assert_eq!(cache(&get(&world, &uri).await), "hit");
}

#[tokio::test]
async fn a_write_through_another_server_on_the_same_database_renders_the_page_again() {
    // Another process on the same database (the CLI, a second server)
    // appends: nothing of this server sees it but the store's version,
    // which every request still asks (through the gate).
    let world = World::new().await;
    let uri = format!("/c/{LADDER}/rounds/1");
    let before = get(&world, &uri).await;
    assert_eq!(cache(&get(&world, &uri).await), "hit");
    let other = arbiter_server::app(
        AppState::new(arbiter_service::Service::new(
            world.state.service.store().clone(),
        ))
        .with_clock(Clock::Fixed(common::now())),
    );
    let bob = world.token("bob").to_string();
    let confirmed = send(
        &other,
        Method::POST,
        &format!("/api/competitions/{LADDER}/actions"),
        As::Token(&bob),
        &[("if-match", world.version().await)],
        Some(&json!({"action": "confirm-result", "game": world.x})),
    )
    .await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.text());
    let after = get(&world, &uri).await;
    assert_eq!(cache(&after), "miss");
    assert_ne!(after.body, before.body, "the confirmation shows");
}

#[tokio::test]
async fn the_json_view_kept_in_front_of_the_router_answers_as_the_handler_and_follows_writes() {
    // `GET /api/competitions/{id}` with a view kept at the store's version
    // is answered before routing (`api::competitions::serve_kept`): the
    // same answer as the handler's, never an older version.
    let world = World::new().await;
    let uri = format!("/api/competitions/{LADDER}");
    let first = get(&world, &uri).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text());
    for _ in 0..2 {
        let again = get(&world, &uri).await;
        assert_eq!(again.status, StatusCode::OK);
        assert_eq!(again.body, first.body);
        assert_eq!(again.header("etag"), first.header("etag"));
        assert_eq!(again.header("content-type"), "application/json");
        assert_eq!(again.header("x-content-type-options"), "nosniff");
        assert!(!again.header("x-request-id").is_empty());
    }
    // A write through another server on the same database.
    let other = arbiter_server::app(
        AppState::new(arbiter_service::Service::new(
            world.state.service.store().clone(),
        ))
        .with_clock(Clock::Fixed(common::now())),
    );
    let bob = world.token("bob").to_string();
    let confirmed = send(
        &other,
        Method::POST,
        &format!("/api/competitions/{LADDER}/actions"),
        As::Token(&bob),
        &[("if-match", world.version().await)],
        Some(&json!({"action": "confirm-result", "game": world.x})),
    )
    .await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.text());
    let after = get(&world, &uri).await;
    assert_eq!(after.status, StatusCode::OK);
    assert_ne!(after.header("etag"), first.header("etag"));
    assert_ne!(after.body, first.body);
    assert_eq!(get(&world, &uri).await.body, after.body);
    // Paths beside it are the router's, as before.
    for (path, status) in [
        (format!("{uri}/"), StatusCode::NOT_FOUND),
        (
            "/api/competitions/no-such-competition".to_string(),
            StatusCode::NOT_FOUND,
        ),
        (
            "/api/competitions/Bad%20Id".to_string(),
            StatusCode::NOT_FOUND,
        ),
    ] {
        let a = get(&world, &path).await;
        assert_eq!(a.status, status, "{path}: {}", a.text());
        assert!(
            a.header("content-type").starts_with("application/json"),
            "{path}"
        );
    }
}

#[tokio::test]
async fn a_kept_page_keeps_its_gzip_bytes_and_sends_what_the_layer_would() {
    let world = World::new().await;
    let uri = format!("/c/{LADDER}");
    let gzip = |encoding: &'static str| {
        let uri = uri.clone();
        let app = world.app.clone();
        async move {
            send(
                &app,
                Method::GET,
                &uri,
                As::Nobody,
                &[("accept-encoding", encoding.to_string())],
                None,
            )
            .await
        }
    };
    let browser = "gzip, deflate, br, zstd";
    // The first request renders the page; the layer compresses it.
    let first = gzip(browser).await;
    assert_eq!(cache(&first), "miss");
    assert_eq!(first.header("content-encoding"), "gzip");
    // Then the page's gzip bytes are made once and kept: the same bytes
    // and headers as the layer's.
    for _ in 0..2 {
        let hit = gzip(browser).await;
        assert_eq!(cache(&hit), "hit");
        assert_eq!(hit.status, StatusCode::OK);
        assert_eq!(hit.header("content-encoding"), "gzip");
        assert_eq!(hit.header("vary"), "accept-encoding");
        assert_eq!(hit.header("content-type"), first.header("content-type"));
        assert_eq!(hit.body, first.body);
        assert_eq!(hit.header("x-content-type-options"), "nosniff");
        assert!(!hit.header("x-request-id").is_empty());
    }
    // Refused or absent, gzip is not sent.
    for refused in ["identity", "gzip;q=0", "br"] {
        let plain = gzip(refused).await;
        assert_eq!(cache(&plain), "hit", "{refused}");
        assert!(plain.headers.get("content-encoding").is_none(), "{refused}");
        assert!(plain.text().contains("</html>"), "{refused}");
    }
    let plain = get(&world, &uri).await;
    assert!(plain.headers.get("content-encoding").is_none());
    assert_eq!(plain.header("vary"), "accept-encoding");
}

#[tokio::test]
async fn readers_with_a_session_or_a_token_are_never_answered_from_it() {
    let world = World::new().await;
    let uri = format!("/c/{LADDER}");
    get(&world, &uri).await;
    assert_eq!(cache(&get(&world, &uri).await), "hit");
    let token = world.token("alice").to_string();
    let with_token = send(&world.app, Method::GET, &uri, As::Token(&token), &[], None).await;
    assert_eq!(with_token.status, StatusCode::OK);
    assert_eq!(cache(&with_token), "");
    let with_session = get_with_cookie(
        &world.app,
        &uri,
        &format!(
            "theme=dark; {}=whatever",
            arbiter_server::auth::SESSION_COOKIE
        ),
    )
    .await;
    assert_eq!(cache(&with_session), "");
    // Another cookie is no identity: still the anonymous page.
    let other = get_with_cookie(&world.app, &uri, "theme=dark").await;
    assert_eq!(cache(&other), "hit");
}

#[tokio::test]
async fn the_next_minute_renders_again() {
    let world = World::new().await;
    let uri = format!("/c/{LADDER}");
    get(&world, &uri).await;
    assert_eq!(cache(&get(&world, &uri).await), "hit");
    // The same store and cache, a clock a minute later.
    let later: AppState = world
        .state
        .clone()
        .with_clock(Clock::Fixed(common::now() + chrono::TimeDelta::minutes(1)));
    let app = arbiter_server::app(later);
    let next = get_with_cookie(&app, &uri, "").await;
    assert_eq!(cache(&next), "miss");
    assert_eq!(cache(&get_with_cookie(&app, &uri, "").await), "hit");
}

#[tokio::test]
async fn missing_competitions_other_pages_and_hostile_paths_keep_nothing() {
    let world = World::new().await;
    let pages = &world.state.pages;
    for uri in [
        "/c/no-such-competition".to_string(),
        "/c/no-such-competition/history".to_string(),
        format!("/c/{LADDER}/manage"),
        format!("/c/{LADDER}/what-if"),
        format!("/c/{LADDER}/rounds/99"),
        format!("/c/{LADDER}/players/Nobody"),
        "/c/%2e%2e/history".to_string(),
        format!("/c/{}", "x".repeat(300)),
        "/".to_string(),
        "/login".to_string(),
    ] {
        let a = get(&world, &uri).await;
        assert_ne!(cache(&a), "hit", "{uri}");
        assert!(!a.status.is_server_error(), "{uri}: {}", a.status);
    }
    assert!(pages.is_empty(), "{} pages kept", pages.len());
    // Query strings make many pages of one competition: at most MOST_PAGES
    // are kept, the others still answered.
    for i in 0..MOST_PAGES + 20 {
        let a = get(&world, &format!("/c/{LADDER}?i={i}")).await;
        assert_eq!(a.status, StatusCode::OK);
    }
    assert_eq!(pages.len(), MOST_PAGES);
    let extra = get(&world, &format!("/c/{LADDER}?i={}", MOST_PAGES + 5)).await;
    assert_eq!(cache(&extra), "miss");
}
