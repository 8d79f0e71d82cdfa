//! The round-robin league's what-if, ratings, projection and clinch pages
//! and API in process (issue 16 §2), on FIFA World Cup 2022 Group E after
//! matchday 2 (https://en.wikipedia.org/wiki/2022_FIFA_World_Cup_Group_E),
//! with one team's name made hostile HTML: every page answers with the
//! one h1, figures come from the league's own rules, names are escaped,
//! and nothing is stored.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_engine::model::Time;
use arbiter_engine::roundrobin::{Command, RoundRobin, RoundRobinRules};
use arbiter_server::{AppState, Clock};
use arbiter_service::roundrobin::read_score;
use arbiter_service::{Context, SeedSource, Service};
use arbiter_store::EventStore;
use arbiter_store_sqlite::SqliteStore;
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use chrono::{Duration, TimeZone, Utc};
use http_body_util::BodyExt;
use tower::ServiceExt;

/// Costa Rica's name, as hostile HTML.
const EVIL: &str = "<script>alert(1)</script>";

struct World {
    app: Router,
    svc: Service<SqliteStore>,
    _dir: tempfile::TempDir,
}

fn now() -> Time {
    Utc.with_ymd_and_hms(2022, 11, 30, 12, 0, 0).unwrap()
}

async fn world() -> World {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(&dir.path().join("rr.db")).await.unwrap();
    let svc = Service::new(store.clone()).with_seeds(SeedSource::Deterministic("rr".into()));
    let t0 = now() - Duration::days(10);
    let ctx = Context::new("organizer", t0);
    let teams: Vec<String> = ["Spain", EVIL, "Germany", "Japan"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    svc.create_round_robin(
        "wc",
        "Group E",
        RoundRobinRules::fifa_world_cup(),
        &teams,
        &ctx,
    )
    .await
    .unwrap();
    svc.start_round_robin("wc", None, &ctx).await.unwrap();
    // Matchdays 1 and 2 as played.
    let japan_evil = format!("Japan-{EVIL}");
    let spain_evil = format!("Spain-{EVIL}");
    for (game, score) in [
        ("Germany-Japan", "1-2"),
        (spain_evil.as_str(), "7-0"),
        (japan_evil.as_str(), "0-1"),
        ("Spain-Germany", "1-1"),
    ] {
        let (rr, _) = svc.load_as::<RoundRobin>("wc", None).await.unwrap();
        let (game, score) = read_score(&rr, game, score, None).unwrap();
        svc.execute_as::<RoundRobin>(
            "wc",
            Command::Record {
                game,
                score,
                minutes: None,
                at: t0,
            },
            &ctx,
        )
        .await
        .unwrap();
    }
    // The server's own service over the same database.
    let served = Service::new(store).with_seeds(SeedSource::Deterministic("rr".into()));
    let app = arbiter_server::app(AppState::new(served).with_clock(Clock::Fixed(now())));
    World {
        app,
        svc,
        _dir: dir,
    }
}

async fn get(app: &Router, uri: &str) -> (StatusCode, String) {
    let response = app
        .clone()
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8(body.to_vec()).unwrap())
}

async fn page(app: &Router, uri: &str) -> String {
    let (status, body) = get(app, uri).await;
    assert_eq!(status, StatusCode::OK, "{uri}:\n{body}");
    assert_eq!(body.matches("<h1").count(), 1, "{uri}");
    assert!(!body.contains("<script>alert"), "{uri} does not escape");
    body
}

async fn json(app: &Router, uri: &str) -> serde_json::Value {
    let (status, body) = get(app, uri).await;
    assert_eq!(status, StatusCode::OK, "{uri}:\n{body}");
    serde_json::from_str(&body).unwrap()
}

/// The Berger table puts the real matchday 3 in its round 1: G1 (Spain v
/// Japan) and G2 (Costa Rica v Germany) are the games left; the real
/// matchdays 1 and 2 are its G3 to G6.
#[tokio::test]
async fn the_what_if_page_offers_the_games_left_and_shows_the_table_after_them() {
    let w = world().await;
    let version = w.svc.store().version("wc").await.unwrap();
    let form = page(&w.app, "/c/wc/what-if").await;
    assert!(form.contains(r#"name="G1.result""#), "{form}");
    assert!(form.contains(r#"name="G2.score""#), "{form}");
    assert!(
        !form.contains(r#"name="G5.result""#),
        "a played game is not offered"
    );
    assert!(form.contains("&#60;script&#62;"));
    // The real matchday 3: Japan beat Spain 2-1, Germany beat Costa Rica
    // 4-2; the published order, Spain over Germany on goal difference.
    let after = page(
        &w.app,
        "/c/wc/what-if?G1.result=away&G1.score=1-2&G2.result=away&G2.score=2-4",
    )
    .await;
    // Each team links to its page (issue 17 §1): the order without the links.
    let mut plain = after.clone();
    while let Some(i) = plain.find("<a href=\"/c/wc/players/") {
        let end = i + plain[i..].find("\">").unwrap() + 2;
        plain.replace_range(i..end, "");
    }
    let order: Vec<usize> = ["Japan", "Spain", "Germany", "&#60;script&#62;"]
        .iter()
        .map(|t| plain.rfind(&format!("<th scope=\"row\">{t}")).unwrap())
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{after}");
    assert!(after.contains("score difference"), "{after}");
    // A result without a score counts 1-0; a draw 0-0.
    let draw = page(&w.app, "/c/wc/what-if?G1.result=draw").await;
    assert!(draw.contains("G1 Spain v Japan: 0-0"), "{draw}");
    // A choice the form does not offer, a field it does not have, a score
    // the rules cannot read: refused naming the field.
    let (status, body) = get(&w.app, "/c/wc/what-if?G2.result=maybe").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body.contains("G2.result"), "{body}");
    let (status, body) = get(&w.app, "/c/wc/what-if?G5.result=home").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body.contains("G5.result"), "{body}");
    let (status, body) = get(&w.app, "/c/wc/what-if?G2.score=two-nil").await;
    assert!(status.is_client_error(), "{status}");
    assert!(body.contains("score"), "{body}");
    let long = "9".repeat(40);
    let (status, body) = get(&w.app, &format!("/c/wc/what-if?G2.score={long}")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body.contains("G2.score"), "{body}");
    // The API's what-if gives the same table; nothing was stored.
    let response = w
        .app
        .clone()
        .oneshot(
            Request::post("/api/competitions/wc/what-if")
                .header("content-type", "application/json")
                // Named the other way round, the score in that order.
                .body(Body::from(
                    serde_json::json!({"results": {"G1": "1-2", format!("Germany-{EVIL}"): "4-2"}})
                        .to_string(),
                ))
                .unwrap(),
        )
        .await
        .unwrap();
    let status = response.status();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let body = String::from_utf8(body.to_vec()).unwrap();
    assert_eq!(status, StatusCode::OK, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["league"]["table"][0]["player"], "Japan");
    assert_eq!(v["league"]["table"][1]["player"], "Spain");
    assert_eq!(w.svc.store().version("wc").await.unwrap(), version);
}

#[tokio::test]
async fn ratings_and_projection_of_a_round_robin() {
    let w = world().await;
    for system in ["", "?system=elo", "?system=glicko2"] {
        let html = page(&w.app, &format!("/c/wc/ratings{system}")).await;
        assert!(html.contains("ARB-R70"), "{system}");
        assert!(html.contains("Japan"), "{system}");
    }
    let html = page(&w.app, "/c/wc/projection?seasons=300&seed=abc").await;
    assert!(html.contains("300 simulated seasons"), "{html}");
    assert!(html.contains("ARB-R70"));
    assert!(
        html.contains("Top 2"),
        "the FIFA group's two places that advance"
    );
    let a = json(
        &w.app,
        "/api/competitions/wc/projection?seasons=400&seed=same",
    )
    .await;
    let b = json(
        &w.app,
        "/api/competitions/wc/projection?seasons=400&seed=same",
    )
    .await;
    assert_eq!(a, b, "the same seed gives the same figures");
    let players = a["groups"][0]["players"].as_array().unwrap();
    let count = |key: &str| -> u64 {
        players
            .iter()
            .flat_map(|p| p["outcomes"].as_array().unwrap().iter())
            .filter(|c| c["outcome"] == key)
            .map(|c| c["count"].as_u64().unwrap())
            .sum()
    };
    // One team a season wins the group, two advance, each place is taken.
    assert_eq!(count("place-1"), 400);
    assert_eq!(count("top-2"), 800);
    assert_eq!(count("place-4"), 400);
    let overview = page(&w.app, "/c/wc").await;
    // The league's statistics on its page: 4 games, 13 goals.
    assert!(overview.contains(r#"<h2 id="statistics">Statistics</h2>"#));
    assert!(overview.contains("13 goals, 3.25 a game."), "{overview}");
    assert!(
        overview.contains("Spain 7-0 &#60;script&#62;"),
        "{overview}"
    );
    for link in ["ratings", "projection", "what-if"] {
        assert!(
            overview.contains(&format!(r#"href="/c/wc/{link}""#)),
            "{link}"
        );
    }
}

/// Before matchday 3 every place was open but one: Germany, on 1 point,
/// could not win the group (the published table after matchday 2; Japan
/// beat Spain and Germany went out on goal difference in the end).
#[tokio::test]
async fn what_is_still_possible_in_a_round_robin() {
    let w = world().await;
    let v = json(&w.app, "/api/competitions/wc/clinch").await;
    assert_eq!(v["format"], "round-robin");
    let group = &v["groups"][0];
    assert_eq!(group["games_left"], 2);
    let zones: Vec<&str> = group["zones"]
        .as_array()
        .unwrap()
        .iter()
        .map(|z| z["key"].as_str().unwrap())
        .collect();
    assert_eq!(zones, ["title", "top-2"]);
    for p in group["players"].as_array().unwrap() {
        let title = &p["verdicts"][0]["verdict"];
        if p["player"] == "Germany" {
            assert_eq!(title, "eliminated", "{p}");
        } else {
            assert_eq!(title, "open", "{p}");
        }
        assert_eq!(p["verdicts"][1]["verdict"], "open", "{p}");
    }
    let html = page(&w.app, "/c/wc/clinch").await;
    assert!(html.contains("Germany cannot finish 1st"), "{html}");
    assert!(html.contains("FIFA World Cup Qatar 2022 Regulations"));
    let overview = page(&w.app, "/c/wc").await;
    assert!(overview.contains(r#"href="/c/wc/clinch""#));
}
