//! An XMadn league's front page before its first game (issue 17 §3): the
//! picture is the road to the title as the league's own rules fix it —
//! the field, the playoff's empty bracket (a qualifying round and a final,
//! a final alone, or none), the title still open — never nothing and
//! never a placeholder. Once a game counts the table's top takes its place.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter_engine::xmadn::{LeagueRules, Playoff, Series};
use arbiter_server::{AppState, Clock};
use arbiter_service::{Context, Service};
use arbiter_store_sqlite::SqliteStore;
use axum::http::StatusCode;

const PLAYERS: [&str; 3] = ["Ana Morales", "Ben Okafor", "Chen Wei"];

/// The front page of a league with `playoff` and `head_start`, created
/// and not played.
async fn front_page(playoff: Playoff, head_start: bool) -> String {
    let now = common::now();
    let store = SqliteStore::open_in_memory().await.unwrap();
    let state = AppState::new(Service::new(store)).with_clock(Clock::Fixed(now));
    let rules = LeagueRules {
        playoff,
        head_start,
        double_round_robins: 1,
        ..LeagueRules::default()
    };
    state
        .service
        .create_league(
            "spring",
            "Spring league",
            rules,
            &PLAYERS.map(str::to_string),
            &Context::new("mod", now),
        )
        .await
        .unwrap();
    let app = arbiter_server::app(state);
    let a = common::get_with_cookie(&app, "/c/spring", "").await;
    assert_eq!(a.status, StatusCode::OK);
    a.text()
}

/// The road's picture of `html`.
fn road(html: &str) -> &str {
    let from = html
        .find(r#"<figure class="picture bracket-picture road-picture""#)
        .unwrap_or_else(|| panic!("no road to the title before the first game: {html}"));
    &html[from..from + html[from..].find("</figure>").unwrap()]
}

fn has(picture: &str, wanted: &[&str]) {
    for w in wanted {
        assert!(picture.contains(w), "no {w:?} in {picture}");
    }
}

#[tokio::test]
async fn a_league_with_a_final_alone_draws_its_final_between_the_table_s_first_two() {
    let html = front_page(
        Playoff::TopTwo {
            final_round: Series::FirstTo(2),
        },
        false,
    )
    .await;
    let p = road(&html);
    has(
        p,
        &[
            r#"<span class="muted">1 double round-robin, 6 games</span>"#,
            r#"<a href="/c/spring/players/1">Ana Morales</a>"#,
            r#"<a href="/c/spring/players/3">Chen Wei</a>"#,
            // No head start: the organizer did not allow it.
            r#"<p class="stage-title">Final <span class="muted">FS2 · first to 2</span></p>"#,
            r#"<span class="side-name">1st of the table</span>"#,
            r#"<span class="side-name">2nd of the table</span>"#,
            r#"<p class="champion-name muted">the winner of FS2</p>"#,
        ],
    );
    assert!(
        !p.contains("Qualifying") && !p.contains("3rd of the table"),
        "{p}"
    );
    assert!(!html.contains("podium-picture"));
}

#[tokio::test]
async fn a_league_without_a_playoff_draws_its_field_and_the_table_s_first_as_champion() {
    let html = front_page(Playoff::None, true).await;
    let p = road(&html);
    has(
        p,
        &[
            r#"<a href="/c/spring/players/2">Ben Okafor</a>"#,
            r#"<p class="champion-name muted">the table&#39;s 1st</p>"#,
            "the table decides, its 1st is champion",
        ],
    );
    assert_eq!(p.matches("<li class=\"bracket-stage").count(), 2, "{p}");
    assert!(!p.contains("#playoff"), "{p}");
}
