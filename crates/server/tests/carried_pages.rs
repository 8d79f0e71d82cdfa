//! A Sunjang league carried over from its records on the web and in the
//! API (issue 18 §1; ARB-R77): the league's page lists the carried season
//! and shows its group tables (section D on the carried figures, each
//! player linked to his page), the first season planned after it links
//! back to it, and the API's view holds it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter_server::{AppState, Clock};
use arbiter_service::sunjang_carry::SunjangCarryOptions;
use arbiter_service::{Context, Service};
use arbiter_store_sqlite::SqliteStore;
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};

const FIXTURE: &str = include_str!("../../cli/tests/carry-over/sunjang-season-1.csv");

async fn get(app: &Router, uri: &str) -> (StatusCode, String) {
    let a = common::oneshot(app, Request::get(uri).body(Body::empty()).unwrap()).await;
    (a.status, String::from_utf8(a.body).unwrap())
}

/// A league carried over from season 1 of the example, season 2 planned.
async fn carried() -> Router {
    let now = common::now();
    let store = SqliteStore::open_in_memory().await.unwrap();
    let state = AppState::new(Service::new(store)).with_clock(Clock::Fixed(now));
    let svc = &state.service;
    let ctx = Context::new("Jordan Park", now);
    let (rules, restrictions) =
        arbiter_record::parse_sunjang_rules(arbiter_record::preset("sunjang-league").unwrap())
            .unwrap();
    svc.create_sunjang("sj", "Sunjang Baduk League", rules, restrictions, &ctx)
        .await
        .unwrap();
    let done = svc
        .carry_over_sunjang(
            "sj",
            "season-1.csv",
            FIXTURE.as_bytes(),
            &SunjangCarryOptions {
                season: Some(1),
                source: Some("the club forum's tables".into()),
                dry_run: false,
            },
            &ctx,
        )
        .await
        .unwrap();
    assert_eq!(done.next_season, 2);
    svc.execute_as::<arbiter_engine::sunjang::season::League>(
        "sj",
        arbiter_engine::sunjang::season::Command::PlanSeason { at: now },
        &ctx,
    )
    .await
    .unwrap();
    arbiter_server::app(state)
}

#[tokio::test]
async fn the_league_page_shows_the_carried_season() {
    let app = carried().await;
    let (status, html) = get(&app, "/c/sj").await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        html.contains(r#"<h2 id="carried">Season 1, carried over</h2>"#),
        "{html}"
    );
    assert!(
        html.contains("source: the club forum&#39;s tables; entered by Jordan Park"),
        "{html}"
    );
    assert!(html.contains("<h3>Group A1</h3>"), "{html}");
    assert!(html.contains("<h3>Group B</h3>"), "{html}");
    assert!(
        html.contains(
            r##"<a href="#carried">Season 1</a>: carried over from the records, champion"##
        ),
        "{html}"
    );
    // Each carried player is linked to his page.
    assert!(html.contains(r#"href="/c/sj/players/1""#), "{html}");
    assert!(
        html.contains("Division A, merged ranking (SJ-R5): "),
        "{html}"
    );
    // The season planned after it: season 2, linking back.
    let (status, season) = get(&app, "/c/sj/seasons/2").await;
    assert_eq!(status, StatusCode::OK, "{season}");
    assert!(
        season.contains(r#"<a href="/c/sj#carried">Season 1 (carried over)</a>"#),
        "{season}"
    );
    assert!(
        season.contains("carried over on"),
        "the placements cite the records"
    );
    let (status, _) = get(&app, "/c/sj/seasons/1").await;
    assert_eq!(
        status,
        StatusCode::NOT_FOUND,
        "the carried season is not a season played here"
    );
    // The API's view.
    let v = common::view(&app, "sj").await;
    assert_eq!(v["carried"]["season"], 1, "{v}");
    assert_eq!(v["carried"]["champion"], "Kim Min-jun");
    assert_eq!(v["carried"]["divisions"][0]["groups"][0]["id"], "A1");
}
