//! A competition's time zone (issue 17 §3, ARB-R82): `/c/{id}/time-zone`
//! for its owner and moderators; times shown in it, inside `<time
//! datetime>` with the zone for the reader's-zone script, with a countdown
//! to each open deadline written on the server (readable without
//! JavaScript); a zone misspelled answered next to its field with the input
//! kept and the zone meant; the setting an event of the history.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter_store::EventStore;
use axum::http::StatusCode;
use common::ladder::{LADDER, World};
use common::{PASSWORD, get_with_cookie, hidden, login_session, post_form};

async fn set_zone(w: &World, cookie: &str, zone: &str) -> common::Answer {
    let url = format!("/c/{LADDER}/time-zone");
    let page = get_with_cookie(&w.app, &url, cookie).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text());
    let csrf = hidden(&page.text(), "_csrf");
    let body = format!(
        "time_zone={}&_csrf={}",
        common::enc(zone),
        common::enc(&csrf)
    );
    post_form(&w.app, &url, cookie, body).await
}

#[tokio::test]
async fn the_owner_sets_the_zone_and_every_time_is_shown_in_it() {
    let w = World::new().await;
    // Before: UTC, each open deadline with its countdown, the instant in
    // `datetime`.
    let ladder = get_with_cookie(&w.app, &format!("/c/{LADDER}"), "").await;
    let html = ladder.text();
    assert!(html.contains(r#"data-zone="UTC""#), "{html}");
    assert!(
        html.contains(r#"<span class="countdown">(in "#),
        "a countdown: {html}"
    );
    assert!(
        html.contains("/assets/time.js?v="),
        "the reader's-zone script"
    );

    let olga = login_session(&w.app, "olga", PASSWORD).await;
    let page = get_with_cookie(&w.app, &format!("/c/{LADDER}/time-zone"), &olga).await;
    assert!(
        page.text()
            .contains("The time zone is <strong>UTC</strong>")
    );

    // Misspelled: the page again, the problem next to the field, the input
    // kept, the zone meant suggested; nothing stored.
    let version = w.state.service.store().version(LADDER).await.unwrap();
    let a = set_zone(&w, &olga, "Europe/Berln").await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text());
    let html = a.text();
    assert!(
        html.contains(r#"value="Europe/Berln""#),
        "input kept: {html}"
    );
    assert!(html.contains(r#"aria-invalid="true""#), "{html}");
    assert!(
        html.contains(r#"class="field-error" id="time_zone-error""#)
            && html.contains("did you mean Europe/Berlin?"),
        "{html}"
    );
    assert_eq!(
        w.state.service.store().version(LADDER).await.unwrap(),
        version
    );

    // Set: one event; the ladder's times in Berlin's time.
    let a = set_zone(&w, &olga, "Europe/Berlin").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    assert!(
        a.text().contains("The time zone is now Europe/Berlin"),
        "{}",
        a.text()
    );
    assert_eq!(
        w.state.service.time_zone(LADDER).await.unwrap().name(),
        "Europe/Berlin"
    );
    assert_eq!(
        w.state.service.store().version(LADDER).await.unwrap(),
        version + 1
    );
    let html = get_with_cookie(&w.app, &format!("/c/{LADDER}"), "")
        .await
        .text();
    assert!(html.contains(r#"data-zone="Europe/Berlin""#), "{html}");
    let history = get_with_cookie(&w.app, &format!("/c/{LADDER}/history"), "")
        .await
        .text();
    assert!(
        history.contains("time zone set to Europe/Berlin"),
        "{history}"
    );
    assert!(
        history.contains(" CET</time>") || history.contains(" CEST</time>"),
        "the history's times in Berlin's: {history}"
    );

    // Sent again (Back, then send): says so, stores nothing.
    let a = set_zone(&w, &olga, "europe/berlin").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    assert!(
        a.text().contains("already was Europe/Berlin"),
        "{}",
        a.text()
    );
    assert_eq!(
        w.state.service.store().version(LADDER).await.unwrap(),
        version + 1
    );
}

#[tokio::test]
async fn hostile_zones_are_refused_by_name_and_nothing_is_stored() {
    let w = World::new().await;
    let olga = login_session(&w.app, "olga", PASSWORD).await;
    let version = w.state.service.store().version(LADDER).await.unwrap();
    for hostile in [
        "x".repeat(100_000),
        "Europe/Berlin\u{0}".to_string(),
        "../../etc/passwd".to_string(),
        "<script>alert(1)</script>".to_string(),
        String::new(),
    ] {
        let a = set_zone(&w, &olga, &hostile).await;
        assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{hostile:.40}");
        let html = a.text();
        assert!(html.contains("field-error"), "{html}");
        assert!(!html.contains("<script>alert"), "escaped: {html}");
        assert!(html.len() < 200_000, "the typed value is bounded");
    }
    assert_eq!(
        w.state.service.store().version(LADDER).await.unwrap(),
        version
    );
}

#[tokio::test]
async fn a_player_may_not_set_the_zone() {
    let w = World::new().await;
    let alice = login_session(&w.app, "alice", PASSWORD).await;
    let page = get_with_cookie(&w.app, &format!("/c/{LADDER}/time-zone"), &alice).await;
    assert_eq!(page.status, StatusCode::FORBIDDEN, "{}", page.text());
}

#[tokio::test]
async fn the_api_reads_and_sets_the_zone() {
    use common::{As, send};
    use serde_json::json;
    let w = World::new().await;
    let path = format!("/api/competitions/{LADDER}/time-zone");
    let a = send(
        &w.app,
        axum::http::Method::GET,
        &path,
        As::Nobody,
        &[],
        None,
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    assert_eq!(a.json()["time_zone"], "UTC");

    let olga = As::Token(w.tokens["olga"].as_str());
    let put = |zone: &'static str| {
        let path = path.clone();
        let app = w.app.clone();
        async move {
            send(
                &app,
                axum::http::Method::PUT,
                &path,
                olga,
                &[],
                Some(&json!({ "time_zone": zone })),
            )
            .await
        }
    };
    let a = put("America/Sao_Paulo").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    assert_eq!(a.json()["time_zone"], "America/Sao_Paulo");
    assert_eq!(a.json()["stored"], true);
    let a = put("america/sao_paulo").await;
    assert_eq!(
        a.json()["stored"],
        false,
        "the zone already set stores nothing"
    );
    let a = put("Sao Paulo").await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text());
    assert_eq!(a.json()["error"]["field"], "time_zone", "{}", a.text());
    assert!(
        a.text().contains("did you mean America/Sao_Paulo?"),
        "{}",
        a.text()
    );
    // The list of competitions says each one's zone.
    let list = send(
        &w.app,
        axum::http::Method::GET,
        "/api/competitions",
        As::Nobody,
        &[],
        None,
    )
    .await;
    assert!(
        list.text().contains(r#""time_zone":"America/Sao_Paulo""#),
        "{}",
        list.text()
    );
}
