//! The what-if page (`GET /c/{id}/what-if`) in process: the form for each
//! demo format (the ladder's running round, the Sunjang season's group
//! games; the demo's finished XMadn league has nothing left), a running
//! XMadn league whose players' names are HTML, hypothetical results that
//! change the shown table, nothing stored (the version is unchanged),
//! bad fields answered 400 naming the field, refusals of the rules 422,
//! and snapshots of the rendered main part.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter_engine::sunjang::season::League as SunjangLeague;
use arbiter_engine::xmadn::LeagueRules;
use arbiter_server::{AppState, Clock};
use arbiter_service::sunjang::season_view;
use arbiter_service::{Context, SeedSource, Service};
use arbiter_store::EventStore;
use arbiter_store_sqlite::SqliteStore;
use axum::Router;
use axum::http::{Method, StatusCode};
use chrono::Duration;
use common::{As, send};

const EVIL: &str = "<script>alert(1)</script>";

struct World {
    app: Router,
    state: AppState,
    built: arbiter_demo::Built,
}

/// The demo, and a running XMadn league `xss` whose names are HTML, with
/// the positions of its first double round-robin rolled.
async fn world() -> World {
    let store = SqliteStore::open_in_memory().await.unwrap();
    let built = arbiter_demo::build(&store, "tws-demo").await.unwrap();
    let svc = Service::new(store).with_seeds(SeedSource::Deterministic("what-if".into()));
    let t0 = built.now - Duration::days(3);
    let players = [EVIL, "O'Neill & Sons", "Zed \"Z\""].map(String::from);
    svc.create_league(
        "xss",
        "<b>League</b>",
        LeagueRules::default(),
        &players,
        &Context::new("mod", t0),
    )
    .await
    .unwrap();
    svc.league_roll("xss", &Context::new("mod", t0 + Duration::hours(1)))
        .await
        .unwrap();
    let state = AppState::new(svc).with_clock(Clock::Fixed(built.now));
    World {
        app: arbiter_server::app(state.clone()),
        state,
        built,
    }
}

/// `application/x-www-form-urlencoded`, every byte but letters and digits
/// escaped.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

fn query(pairs: &[(String, String)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

async fn get(app: &Router, uri: &str) -> (StatusCode, String) {
    let a = send(app, Method::GET, uri, As::Nobody, &[], None).await;
    let text = a.text();
    assert_eq!(text.matches("<h1").count(), 1, "{uri}: one h1");
    assert!(!text.contains("<script>alert"), "{uri} does not escape");
    (a.status, text)
}

async fn ok(app: &Router, uri: &str) -> String {
    let (status, text) = get(app, uri).await;
    assert_eq!(status, StatusCode::OK, "{uri}:\n{text}");
    text
}

async fn version(state: &AppState, id: &str) -> u64 {
    state.service.store().version(id).await.unwrap()
}

/// The page's `<main>`, for a snapshot.
fn main_part(html: &str) -> String {
    let start = html.find("<main").unwrap();
    let end = html.find("</main>").unwrap() + "</main>".len();
    html[start..end].to_string()
}

/// The ladder's games of round 4 without a result, with a winner each.
fn ladder_results() -> Vec<(String, String)> {
    [
        ("G49", "ussr"),
        ("G50", "tie"),
        ("G51", "us"),
        ("G52", "ussr"),
        ("G53", "ussr"),
        ("G54", "us"),
        ("G55", "ussr"),
    ]
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .to_vec()
}

#[tokio::test]
async fn the_ladder_page_closes_the_round_on_a_copy() {
    let w = world().await;
    let id = w.built.ladder.0.clone();
    let before = version(&w.state, &id).await;
    let form = ok(&w.app, &format!("/c/{id}/what-if")).await;
    assert!(form.contains(r#"<form method="get" action="/c/tws-demo/what-if">"#));
    for (game, _) in ladder_results() {
        assert!(
            form.contains(&format!(r#"<select name="{game}">"#)),
            "{game}"
        );
    }
    assert!(form.contains(r#"href="/c/tws-demo/what-if" aria-current="page""#));
    assert!(!form.contains("What would follow"));

    let uri = format!("/c/{id}/what-if?{}", query(&ladder_results()));
    let page = ok(&w.app, &uri).await;
    assert!(page.contains("Round 4 closed"), "{page}");
    assert!(page.contains("The ladder after the close, each move with its rule"));
    assert!(page.contains("TWS Change of Ladder Standings"));
    // The choices are kept in the form.
    assert!(page.contains(r#"<option value="tie" selected>"#));
    assert_eq!(version(&w.state, &id).await, before, "nothing stored");
    insta::assert_snapshot!("what_if_ladder", main_part(&page));

    // Part of a round (issue 15, item 5): the games left without a result
    // stay undecided, and each player's best and worst rung at the close
    // is shown over every outcome of them, instead of a refusal.
    let (status, text) = get(&w.app, &format!("/c/{id}/what-if?G49=ussr")).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    assert!(text.contains("Round 4 cannot close yet"), "{text}");
    assert!(text.contains("6 game(s) stay undecided: G50"), "{text}");
    assert!(
        text.contains("every outcome of the 6 undecided game(s) examined (64 completions)"),
        "{text}"
    );
    assert!(text.contains("Each player's best and worst rung at the close of round 4"));
    assert!(!text.contains("The rules refuse this what-if"), "{text}");
    assert!(text.contains(r#"<option value="ussr" selected>"#));
    insta::assert_snapshot!("what_if_ladder_part_of_a_round", main_part(&text));
    // The API answers the same, with the ranges.
    let a = send(
        &w.app,
        Method::POST,
        &format!("/api/competitions/{id}/what-if"),
        As::Nobody,
        &[],
        Some(&serde_json::json!({"results": {"G49": "ussr"}})),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let j = a.json();
    assert!(j.get("close").is_none(), "{j}");
    assert_eq!(j["possible"]["exact"], true, "{j}");
    assert_eq!(j["possible"]["completions"], 64, "{j}");
    assert_eq!(
        j["possible"]["undecided"].as_array().unwrap().len(),
        6,
        "{j}"
    );
    for p in j["possible"]["players"].as_array().unwrap() {
        assert!(p["best"].as_u64() <= p["worst"].as_u64(), "{p}");
    }

    // Bad fields are named.
    let (status, text) = get(&w.app, &format!("/c/{id}/what-if?G999=ussr")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(text.contains("Field “G999”"), "{text}");
    let (status, text) = get(&w.app, &format!("/c/{id}/what-if?G49=maybe")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        text.contains("Field “G49”: “maybe” is not a choice"),
        "{text}"
    );
    assert_eq!(version(&w.state, &id).await, before);
}

#[tokio::test]
async fn an_xmadn_league_s_table_follows_the_hypothetical_results() {
    let w = world().await;
    let before = version(&w.state, "xss").await;
    let form = ok(&w.app, "/c/xss/what-if").await;
    assert!(
        form.contains("&#60;script&#62;alert(1)&#60;/script&#62; wins"),
        "{form}"
    );
    assert!(form.contains(r#"name="G1.winner""#));
    assert!(form.contains(r#"name="G1.pawns""#));
    assert!(form.contains(r#"name="G1.time""#));
    assert!(!form.contains("What would follow"));

    // G1's first player wins 4-2 in 25:00.
    let results = [("G1.winner", "1"), ("G1.pawns", "2"), ("G1.time", "25:00")]
        .map(|(k, v)| (k.to_string(), v.to_string()));
    let page = ok(&w.app, &format!("/c/xss/what-if?{}", query(&results))).await;
    assert!(page.contains("Table after these results"), "{page}");
    // One player 1-0 with 4:2 pawns, another 0-1 with 2:4.
    assert!(page.contains("<td>1-0</td>\n<td>4:2</td>"), "{page}");
    assert!(page.contains("<td>0-1</td>\n<td>2:4</td>"), "{page}");
    assert!(page.contains(" 4 – 2 "), "{page}");
    assert!(page.contains(r#"<option value="1" selected>"#));
    assert_eq!(version(&w.state, "xss").await, before, "nothing stored");
    insta::assert_snapshot!("what_if_xmadn", main_part(&page));

    // The league's own page still shows no game played.
    let league = ok(&w.app, "/c/xss").await;
    assert!(!league.contains("<td>1-0</td>"));

    // Bad fields are named; a game out of order is refused by its rule.
    for (q, field) in [
        ("G1.winner=1&G1.pawns=4&G1.time=25:00", "G1.pawns"),
        ("G1.winner=1&G1.pawns=0&G1.time=soon", "G1.time"),
        ("G1.winner=3&G1.pawns=0&G1.time=25:00", "G1.winner"),
        ("G9.winner=1", "G9.winner"),
    ] {
        let (status, text) = get(&w.app, &format!("/c/xss/what-if?{q}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{q}: {text}");
        assert!(text.contains(&format!("Field “{field}”")), "{q}: {text}");
    }
    let (status, text) = get(
        &w.app,
        "/c/xss/what-if?G3.winner=1&G3.pawns=0&G3.time=20:00",
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{text}");
    assert!(text.contains("Games 1 to 3 are played in order"), "{text}");
    assert_eq!(version(&w.state, "xss").await, before);
}

/// The running season's games without a result, as (black, white).
fn remaining(l: &SunjangLeague) -> Vec<(String, String)> {
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
async fn a_sunjang_season_s_tables_and_next_plan() {
    let w = world().await;
    let id = w.built.sunjang.0.clone();
    let before = version(&w.state, &id).await;
    let games = remaining(&w.built.sunjang.1);
    assert!(!games.is_empty());
    let form = ok(&w.app, &format!("/c/{id}/what-if")).await;
    let (b, wh) = &games[0];
    let field = format!("{b}-{wh}").replace('\'', "&#39;");
    assert!(
        form.contains(&format!(r#"<select name="{field}">"#)),
        "{form}"
    );

    // One result: the group tables, no plan yet.
    let one = vec![(format!("{b}-{wh}"), "black".to_string())];
    let page = ok(&w.app, &format!("/c/{id}/what-if?{}", query(&one))).await;
    assert!(page.contains("after these results"), "{page}");
    assert!(page.contains("No plan:"), "{page}");
    let other = vec![(format!("{b}-{wh}"), "white".to_string())];
    let flipped = ok(&w.app, &format!("/c/{id}/what-if?{}", query(&other))).await;
    assert_ne!(main_part(&page), main_part(&flipped), "the result shows");

    // Every result: the season closes and the next one is planned.
    let outcomes = ["black", "white", "jigo", "white-forfeits"];
    let all: Vec<(String, String)> = games
        .iter()
        .enumerate()
        .map(|(i, (b, w))| (format!("{b}-{w}"), outcomes[i % 4].to_string()))
        .collect();
    let page = ok(&w.app, &format!("/c/{id}/what-if?{}", query(&all))).await;
    let season = w.built.sunjang.1.current().unwrap().number();
    assert!(
        page.contains(&format!(
            "Season {} as the planner would plan it",
            season + 1
        )),
        "{page}"
    );
    assert!(page.contains("would be placed"));
    assert_eq!(version(&w.state, &id).await, before, "nothing stored");
    insta::assert_snapshot!("what_if_sunjang", main_part(&page));

    let (status, text) = get(&w.app, &format!("/c/{id}/what-if?Nobody-Kim=black")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(text.contains("Field “Nobody-Kim”"), "{text}");
}

#[tokio::test]
async fn finished_and_other_formats() {
    let w = world().await;
    // The demo's league is finished: a page without a form.
    let id = w.built.league.0.clone();
    let page = ok(&w.app, &format!("/c/{id}/what-if")).await;
    assert!(page.contains("No game of a double round-robin is waiting"));
    assert!(!page.contains("<form method=\"get\""));
    // Challengers have no what-if; nor does a competition that is not.
    let (status, _) = get(&w.app, &format!("/c/{}/what-if", w.built.challengers.0)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = get(&w.app, "/c/nothing-here/what-if").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// XMadn ratings (ARB-R49) on the ratings page and in the API; the
/// league's projection takes its odds from them.
#[tokio::test]
async fn an_xmadn_league_is_rated() {
    let w = world().await;
    let id = w.built.league.0.clone();
    let page = ok(&w.app, &format!("/c/{id}/ratings")).await;
    assert!(page.contains("ARB-R49"), "{page}");
    assert!(page.contains(&format!(r#"href="/c/{id}/ratings" aria-current="page""#)));
    for system in ["elo", "glicko2"] {
        ok(&w.app, &format!("/c/{id}/ratings?system={system}")).await;
    }
    let a = send(
        &w.app,
        Method::GET,
        &format!("/api/competitions/{id}/ratings?system=elo"),
        As::Nobody,
        &[],
        None,
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let v = a.json();
    assert_eq!(v["ruling"], "ARB-R49");
    let players = v["players"].as_array().unwrap();
    assert_eq!(players.len(), 3);
    let games: u64 = players.iter().map(|p| p["games"].as_u64().unwrap()).sum();
    assert_eq!(
        games,
        2 * v["games"].as_u64().unwrap(),
        "two players a game"
    );
    // Elo is zero-sum: the ratings still average the initial 1000.
    let sum: f64 = players.iter().map(|p| p["rating"].as_f64().unwrap()).sum();
    assert!((sum - 3000.0).abs() < 0.5, "{sum}");
    // The running league without a game played: everyone at the start.
    let fresh = ok(&w.app, "/c/xss/ratings").await;
    assert!(fresh.contains("No rated game yet."));
    let projection = ok(&w.app, &format!("/c/{id}/projection?seasons=50")).await;
    assert!(projection.contains("AREA ratings of the league&#39;s games (ARB-R49)"));
}
