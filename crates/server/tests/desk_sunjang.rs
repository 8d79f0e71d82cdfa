//! The Sunjang desk's corrections behind their group (issue 17 §2: "a
//! season's 200 correction forms are behind a filter by group or player"):
//! on the demo's running season, the desk says how many results are
//! recorded and shows one closed section per group, each holding the
//! correction form of every recorded game of that group, and nothing else.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter_server::{AppState, Clock};
use arbiter_service::Service;
use arbiter_store_sqlite::SqliteStore;
use axum::http::StatusCode;

#[tokio::test]
async fn the_corrections_are_behind_their_group() {
    let today = arbiter_demo::reference_today();
    let store = SqliteStore::open_in_memory().await.unwrap();
    let state = AppState::new(Service::new(store)).with_clock(Clock::Fixed(today));
    arbiter_server::demo::install_all(&state.service, today)
        .await
        .unwrap();
    let app = arbiter_server::app(state);
    let jordan = common::login_session(&app, "jordan", arbiter_server::demo::DEMO_PASSWORD).await;
    let desk = common::get_with_cookie(&app, "/c/sunjang-demo/manage", &jordan).await;
    assert_eq!(desk.status, StatusCode::OK, "{}", desk.text());
    let html = desk.text();
    let corrections = &html[html.find(r#"<h3 id="corrections">"#).expect("corrections")..];
    let corrections = &corrections[..corrections.find(r#"<h3 id="close">"#).unwrap()];
    let forms = corrections.matches(r#"value="correct-result""#).count();
    assert!(forms > 20, "the demo's season has many results: {forms}");
    assert!(
        corrections.contains(&format!("<p>{forms} results are recorded. Open a group")),
        "{corrections}"
    );
    // One closed section a group, its games inside, every game once.
    let groups: Vec<&str> = corrections
        .split(r#"<details class="form group-corrections"><summary>Group "#)
        .skip(1)
        .collect();
    assert!(groups.len() > 1, "{corrections}");
    let mut inside = 0;
    for g in &groups {
        let (name, rest) = g.split_once(':').unwrap();
        let n: usize = rest
            .trim_start()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let here = rest.matches(r#"value="correct-result""#).count();
        assert_eq!(here, n, "group {name} says {n} and holds {here}");
        inside += here;
    }
    assert_eq!(inside, forms);
    assert!(!corrections.contains("<details class=\"form group-corrections\" open"));
}
