//! `POST /api/competitions/{id}/what-if` for a Sunjang league and an XMadn
//! league, and the installation's statistics (`GET /api/stats`, `/stats`),
//! in process on the demo. A what-if stores nothing (the version is
//! unchanged) and gives what recording the same results, closing the
//! season and planning the next for real gives on a copy of the store
//! (the demo built again).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter_engine::sunjang::season::{self, League};
use arbiter_server::{AppState, Clock};
use arbiter_service::sunjang::{parse_outcome, season_view};
use arbiter_service::{Context, Service};
use arbiter_store::EventStore;
use arbiter_store_sqlite::SqliteStore;
use axum::http::{Method, StatusCode};
use common::{As, send};
use serde_json::{Value, json};

async fn demo() -> (AppState, arbiter_demo::Built) {
    let store = SqliteStore::open_in_memory().await.unwrap();
    let built = arbiter_demo::build(&store, "tws-demo").await.unwrap();
    let state = AppState::new(Service::new(store)).with_clock(Clock::Fixed(built.now));
    (state, built)
}

async fn version(state: &AppState, id: &str) -> u64 {
    state.service.store().version(id).await.unwrap()
}

/// The running season's games without a result, as (black, white).
fn remaining(l: &League) -> Vec<(String, String)> {
    let s = season_view(l, l.current().unwrap());
    s.divisions
        .iter()
        .flat_map(|d| &d.groups)
        .flat_map(|g| &g.pairings)
        .filter(|p| p.result.is_none())
        .map(|p| (p.black.clone(), p.white.clone()))
        .collect()
}

#[tokio::test]
async fn a_sunjang_what_if_stores_nothing_and_matches_the_real_close_and_plan() {
    let (state, built) = demo().await;
    let (copy, _) = demo().await;
    let app = arbiter_server::app(state.clone());
    let id = built.sunjang.0.clone();
    let before = version(&state, &id).await;
    let games = remaining(&built.sunjang.1);
    assert!(!games.is_empty(), "the demo's season is running");
    let outcomes = ["black", "white", "jigo", "white-forfeits"];
    let list: Vec<String> = games
        .iter()
        .enumerate()
        .map(|(i, (b, w))| format!("{b}-{w}={}", outcomes[i % outcomes.len()]))
        .collect();

    // Only some results: the groups, and no plan yet.
    let partial = send(
        &app,
        Method::POST,
        &format!("/api/competitions/{id}/what-if"),
        As::Nobody,
        &[],
        Some(&json!({"results": [list[0].clone()]})),
    )
    .await;
    assert_eq!(partial.status, StatusCode::OK, "{}", partial.text());
    let p = partial.json();
    assert_eq!(p["format"], "sunjang-league");
    assert!(p["no_plan"].as_str().unwrap().contains("without a result"));
    assert!(p.get("next_season").is_none());

    // Every result: the season closes and the next one is planned.
    let full = send(
        &app,
        Method::POST,
        &format!("/api/competitions/{id}/what-if"),
        As::Nobody,
        &[],
        Some(&json!({ "results": list })),
    )
    .await;
    assert_eq!(full.status, StatusCode::OK, "{}", full.text());
    assert_eq!(full.etag(), format!("\"v{before}\""));
    let v: Value = full.json();
    assert_eq!(v["results"].as_array().unwrap().len(), games.len());
    assert!(v.get("no_plan").is_none(), "{}", v["no_plan"]);
    assert_eq!(version(&state, &id).await, before, "nothing stored");

    // For real, on the copy.
    let svc = &copy.service;
    let ctx = Context::new("mod", built.now);
    for (i, (b, w)) in games.iter().enumerate() {
        let (l, _) = svc.load_as::<League>(&id, None).await.unwrap();
        svc.execute_as::<League>(
            &id,
            season::Command::RecordResult {
                black: l.find(b).unwrap(),
                white: l.find(w).unwrap(),
                outcome: parse_outcome(outcomes[i % outcomes.len()]).unwrap(),
                at: built.now,
            },
            &ctx,
        )
        .await
        .unwrap();
    }
    let (l, _) = svc.load_as::<League>(&id, None).await.unwrap();
    let played = serde_json::to_value(season_view(&l, l.current().unwrap())).unwrap();
    assert_eq!(v["season"], played);
    svc.execute_as::<League>(&id, season::Command::CloseSeason { at: built.now }, &ctx)
        .await
        .unwrap();
    svc.execute_as::<League>(&id, season::Command::PlanSeason { at: built.now }, &ctx)
        .await
        .unwrap();
    let (l, _) = svc.load_as::<League>(&id, None).await.unwrap();
    let planned = serde_json::to_value(season_view(&l, l.current().unwrap())).unwrap();
    assert_eq!(v["next_season"], planned);
    assert_eq!(
        v["next_season"]["number"].as_u64(),
        v["season"]["number"].as_u64().map(|n| n + 1)
    );
}

#[tokio::test]
async fn what_if_refusals_by_format() {
    let (state, built) = demo().await;
    let app = arbiter_server::app(state.clone());
    let post = |id: String, body: Value| {
        let app = app.clone();
        async move {
            send(
                &app,
                Method::POST,
                &format!("/api/competitions/{id}/what-if"),
                As::Nobody,
                &[],
                Some(&body),
            )
            .await
        }
    };
    // The demo's XMadn league is finished: no game to record.
    let league = post(
        built.league.0.clone(),
        json!({"results": {"Anke Vogel-Carla Weiss": "4-2@20:10"}}),
    )
    .await;
    assert!(league.status.is_client_error(), "{}", league.text());
    // A bad score.
    let bad = post(
        built.league.0.clone(),
        json!({"results": {"Anke Vogel-Carla Weiss": "4-2"}}),
    )
    .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.text());
    // Challengers have no what-if.
    let ch = post(built.challengers.0.clone(), json!({"results": {}})).await;
    assert_eq!(ch.status, StatusCode::BAD_REQUEST, "{}", ch.text());
    // Not KEY=VALUE.
    let list = post(built.sunjang.0.clone(), json!({"results": ["Kim"]})).await;
    assert_eq!(list.status, StatusCode::BAD_REQUEST, "{}", list.text());
    // Named as every 400 of the API names its field (found by api_fuzz).
    assert_eq!(list.json()["error"]["field"], "results", "{}", list.text());
    // An unknown player.
    let who = post(
        built.sunjang.0.clone(),
        json!({"results": {"Nobody-Kim": "black"}}),
    )
    .await;
    assert_eq!(who.status, StatusCode::BAD_REQUEST, "{}", who.text());
    assert_eq!(version(&state, &built.league.0).await, built.league.2);
    assert_eq!(version(&state, &built.sunjang.0).await, built.sunjang.2);
}

#[tokio::test]
async fn installation_statistics_in_the_api_and_on_a_page() {
    let (state, built) = demo().await;
    let app = arbiter_server::app(state.clone());
    let a = send(&app, Method::GET, "/api/stats", As::Nobody, &[], None).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let v = a.json();
    assert_eq!(v["competitions"][0]["id"], built.ladder.0);
    assert_eq!(
        v["competitions"].as_array().unwrap().len(),
        1,
        "ladders only"
    );
    assert!(v["all_games"]["games"].as_u64().unwrap() > 0);
    assert!(!v["by_turn"].as_array().unwrap().is_empty());
    assert!(v["matching"].as_str().unwrap().contains("by name"));
    let single = arbiter_service::views::stats_view(&built.ladder.1);
    assert_eq!(
        v["all_games"],
        serde_json::to_value(&single.all_games).unwrap()
    );
    assert_eq!(v["by_turn"], serde_json::to_value(&single.by_turn).unwrap());
    let page = send(&app, Method::GET, "/stats", As::Nobody, &[], None).await;
    assert_eq!(page.status, StatusCode::OK);
    let html = page.text();
    assert_eq!(html.matches("<h1").count(), 1);
    assert!(html.contains("Game lengths"));
    assert!(html.contains(&format!("/c/{}/stats", built.ladder.0)));
    let ladder = send(
        &app,
        Method::GET,
        &format!("/c/{}/stats", built.ladder.0),
        As::Nobody,
        &[],
        None,
    )
    .await;
    assert!(ladder.text().contains("Game lengths"));
}
