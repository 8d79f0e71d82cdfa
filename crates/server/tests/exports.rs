//! A competition's exports on the web (issue 17 §2: every desk has the
//! forum exports and the CSV downloads the CLI has): `/c/{id}/standings.csv`,
//! `/c/{id}/results.csv` and `/c/{id}/forum.txt?markup=…`, for every format
//! of the demo, the same bytes as the service gives the CLI, linked from
//! every desk; hostile parameters answered 400 naming the field.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter_server::{AppState, Clock};
use arbiter_service::Service;
use arbiter_service::csv::Export;
use arbiter_service::forum::Markup;
use arbiter_store_sqlite::SqliteStore;
use axum::http::StatusCode;
use common::get_with_cookie;

async fn demo() -> (axum::Router, AppState, Vec<String>) {
    let store = SqliteStore::open_in_memory().await.unwrap();
    let built = arbiter_demo::build(&store, "tws-demo").await.unwrap();
    arbiter_demo::roundrobin::build_on(&store, built.now)
        .await
        .unwrap();
    let state = AppState::new(Service::new(store)).with_clock(Clock::Fixed(built.now));
    let ids = state.service.competitions().await.unwrap();
    (arbiter_server::app(state.clone()), state, ids)
}

#[tokio::test]
async fn every_format_downloads_its_csv_and_its_forum_post() {
    let (app, state, ids) = demo().await;
    assert!(ids.len() >= 6, "{ids:?}");
    for id in &ids {
        for (path, what) in [
            ("standings.csv", Export::Standings),
            ("results.csv", Export::Results),
        ] {
            let a = get_with_cookie(&app, &format!("/c/{id}/{path}"), "").await;
            assert_eq!(a.status, StatusCode::OK, "{id} {path}: {}", a.text());
            assert_eq!(a.header("content-type"), "text/csv; charset=utf-8");
            assert!(
                a.header("content-disposition")
                    .contains(&format!("{id}-{}", path)),
                "{id}: {}",
                a.header("content-disposition")
            );
            let want = state
                .service
                .export_table(id, what, state.now())
                .await
                .unwrap()
                .to_csv()
                .unwrap();
            assert_eq!(a.text(), want, "{id} {path}: the CLI's bytes");
            assert!(!a.etag().is_empty());
        }
        for (markup, query) in [(Markup::BbCode, "bbcode"), (Markup::Markdown, "markdown")] {
            let a = get_with_cookie(&app, &format!("/c/{id}/forum.txt?markup={query}"), "").await;
            let (_, want) = state
                .service
                .forum_post(id, markup, state.now())
                .await
                .unwrap();
            match want {
                Some(text) => {
                    assert_eq!(a.status, StatusCode::OK, "{id} {query}: {}", a.text());
                    assert_eq!(a.header("content-type"), "text/plain; charset=utf-8");
                    assert_eq!(a.text(), text);
                    assert!(!text.trim().is_empty(), "{id}");
                }
                None => assert_eq!(a.status, StatusCode::NOT_FOUND, "{id}"),
            }
        }
    }
    // BBCode and Markdown differ where a format writes markup.
    let bb = get_with_cookie(&app, "/c/tws-demo/forum.txt?markup=bbcode", "").await;
    let md = get_with_cookie(&app, "/c/tws-demo/forum.txt?markup=markdown", "").await;
    assert!(
        bb.text().contains("[b]") || bb.text().contains("[table]"),
        "{}",
        bb.text()
    );
    assert_ne!(bb.text(), md.text());
}

#[tokio::test]
async fn hostile_parameters_and_missing_competitions_are_answered_in_words() {
    let (app, _, _) = demo().await;
    let bad = get_with_cookie(&app, "/c/tws-demo/forum.txt?markup=%3Cscript%3E", "").await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.text());
    assert!(bad.text().contains("markup"), "{}", bad.text());
    let long = format!("/c/tws-demo/forum.txt?markup={}", "x".repeat(5000));
    let long = get_with_cookie(&app, &long, "").await;
    assert_eq!(long.status, StatusCode::BAD_REQUEST);
    assert!(long.text().len() < 1000, "the answer does not echo it all");
    for path in [
        "/c/no-such/standings.csv",
        "/c/no-such/results.csv",
        "/c/no-such/forum.txt",
        "/c/..%2F..%2Fetc/results.csv",
    ] {
        let a = get_with_cookie(&app, path, "").await;
        assert_eq!(a.status, StatusCode::NOT_FOUND, "{path}: {}", a.text());
    }
}

#[tokio::test]
async fn the_desk_links_its_exports() {
    let w = common::ladder::World::new().await;
    let cookie = common::login_session(&w.app, "mona", common::PASSWORD).await;
    let id = common::ladder::LADDER;
    let desk = get_with_cookie(&w.app, &format!("/c/{id}/manage"), &cookie).await;
    assert_eq!(desk.status, StatusCode::OK, "{}", desk.text());
    let html = desk.text();
    for link in [
        format!("/c/{id}/standings.csv"),
        format!("/c/{id}/results.csv"),
        format!("/c/{id}/forum.txt?markup=bbcode"),
        format!("/c/{id}/forum.txt?markup=markdown"),
        format!("/c/{id}/results-import"),
    ] {
        assert!(html.contains(&link), "the desk links {link}");
        // And each answers.
        let a = get_with_cookie(&w.app, &link, &cookie).await;
        assert_eq!(a.status, StatusCode::OK, "{link}: {}", a.text());
    }
}
