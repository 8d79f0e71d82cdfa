//! The search box (issue 17 §1): `GET /search?q=` on the demo as `arbiter
//! serve --demo` installs it (every format: the ladder, the XMadn league
//! and Challengers event, the Sunjang league, the round robins). It finds
//! competitions and players of every format, whatever the case and the
//! accents, best matches first, at most 50; every page's header carries the
//! form; hostile queries are answered 400 naming the field `q`, with the
//! input kept and escaped, never a 500.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter_engine::model::Time;
use arbiter_server::demo::install_all;
use arbiter_server::{AppState, Clock};
use arbiter_service::Service;
use arbiter_store_sqlite::SqliteStore;
use axum::Router;
use axum::http::StatusCode;
use common::{Answer, get_with_cookie};

fn today() -> Time {
    "2026-12-05T12:00:00Z".parse().unwrap()
}

/// `serve --demo` on an in-memory database.
async fn served() -> (
    Router,
    arbiter_demo::Built,
    arbiter_demo::roundrobin::RoundRobins,
) {
    let store = SqliteStore::open_in_memory().await.unwrap();
    let state = AppState::new(Service::new(store)).with_clock(Clock::Fixed(today()));
    let (built, round_robins, _) = install_all(&state.service, today()).await.unwrap();
    (arbiter_server::app(state), built, round_robins)
}

async fn search(app: &Router, q: &str) -> Answer {
    get_with_cookie(app, &format!("/search?q={q}"), "").await
}

/// The results of a search page: each link's address and name, in order.
fn results(html: &str) -> Vec<(String, String)> {
    let Some(start) = html.find("<ol class=\"search-results\">") else {
        return Vec::new();
    };
    let list = &html[start..start + html[start..].find("</ol>").unwrap()];
    list.split("<li><a href=\"")
        .skip(1)
        .map(|item| {
            let href = &item[..item.find('"').unwrap()];
            let name = &item[item.find('>').unwrap() + 1..item.find("</a>").unwrap()];
            (href.to_string(), name.to_string())
        })
        .collect()
}

#[tokio::test]
async fn the_search_finds_players_and_competitions_of_every_format() {
    let (app, built, rr) = served().await;
    let ladder = &built.ladder.0;

    // A ladder player, without his accent and in lower case: his own page.
    let a = search(&app, "chloe").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let found = results(&a.text());
    assert_eq!(
        found.first().unwrap(),
        &(
            format!("/c/{ladder}/players/Chlo%C3%A9%20Dubois"),
            "Chloé Dubois".to_string()
        ),
        "{found:?}"
    );
    // The link leads to his page.
    let page = get_with_cookie(&app, &found[0].0, "").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.text().contains("Chloé Dubois"));

    // A league player, a Challengers player, a Sunjang entrant, a round
    // robin's team: his own page, by the id his competition gave him.
    let id_of = |names: Vec<&String>, name: &str| {
        names.iter().position(|n| n.as_str() == name).unwrap() + 1
    };
    for (q, name, href) in [
        (
            "anke%20vogel",
            "Anke Vogel",
            format!(
                "/c/{}/players/{}",
                built.league.0,
                id_of(built.league.1.players.iter().collect(), "Anke Vogel")
            ),
        ),
        (
            "DANA",
            "Dana Roth",
            format!(
                "/c/{}/players/{}",
                built.challengers.0,
                id_of(built.challengers.1.players.iter().collect(), "Dana Roth")
            ),
        ),
        (
            "park%20joon",
            "Park Joon",
            format!(
                "/c/{}/players/{}",
                built.sunjang.0,
                id_of(
                    built.sunjang.1.players.iter().map(|p| &p.name).collect(),
                    "Park Joon"
                )
            ),
        ),
        (
            "romania",
            "Romania",
            format!(
                "/c/{}/players/{}",
                rr.euro.0,
                id_of(
                    rr.euro.1.entrants.iter().map(|e| &e.name).collect(),
                    "Romania"
                )
            ),
        ),
    ] {
        let a = search(&app, q).await;
        assert_eq!(a.status, StatusCode::OK);
        let found = results(&a.text());
        assert!(
            found.contains(&(href.clone(), name.to_string())),
            "{q}: {found:?}"
        );
        let page = get_with_cookie(&app, href.split('#').next().unwrap(), "").await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(page.text().contains(name), "{href}");
    }

    // A competition by its id or its name.
    let a = search(&app, &rr.chess.0).await;
    let found = results(&a.text());
    assert_eq!(
        found.first().unwrap().0,
        format!("/c/{}", rr.chess.0),
        "{found:?}"
    );
}

#[tokio::test]
async fn results_are_ranked_exact_then_prefix_then_substring_and_capped() {
    let (app, _, _) = served().await;
    // "Ana Morales" begins with "ana"; "Hiro Tanaka" only contains it.
    let found = results(&search(&app, "ana").await.text());
    let at = |name: &str| found.iter().position(|(_, n)| n == name);
    let (ana, hiro) = (at("Ana Morales").unwrap(), at("Hiro Tanaka").unwrap());
    assert!(ana < hiro, "{found:?}");
    // The exact name comes first.
    let found = results(&search(&app, "Hiro%20Tanaka").await.text());
    assert_eq!(found[0].1, "Hiro Tanaka");

    // "e" matches more than 50: the best 50 and a note.
    let a = search(&app, "e").await;
    let text = a.text();
    assert_eq!(results(&text).len(), 50, "{text}");
    assert!(text.contains("Showing the best 50 of"), "{text}");

    // Nothing found says so.
    let text = search(&app, "qqqqzzzz").await.text();
    assert!(results(&text).is_empty());
    assert!(text.contains("Nothing matches “qqqqzzzz”"), "{text}");
}

#[tokio::test]
async fn an_empty_search_shows_the_form_and_every_page_has_the_box() {
    let (app, built, _) = served().await;
    for q in ["", "%20%20%20"] {
        let a = search(&app, q).await;
        assert_eq!(a.status, StatusCode::OK);
        assert!(a.text().contains("id=\"search-q\""));
        assert!(results(&a.text()).is_empty());
    }
    let a = get_with_cookie(&app, "/search", "").await;
    assert_eq!(a.status, StatusCode::OK);
    // The header's form, on every page, the error page too.
    for uri in [
        "/".to_string(),
        format!("/c/{}", built.ladder.0),
        format!("/c/{}/history", built.sunjang.0),
        "/login".to_string(),
        "/no/such/page".to_string(),
    ] {
        let text = get_with_cookie(&app, &uri, "").await.text();
        assert!(
            text.contains(
                r#"<form class="site-search" method="get" action="/search" role="search">"#
            ),
            "{uri}"
        );
    }
}

#[tokio::test]
async fn hostile_queries_are_refused_naming_q_and_never_fail() {
    let (app, _, _) = served().await;
    let long = "x".repeat(101);
    for (q, why) in [
        (long.as_str(), "at most 100 characters"),
        ("Ana%00Morales", "control characters"),
        ("Ana%0AMorales", "control characters"),
        ("%1B%5B31m", "control characters"),
    ] {
        let a = search(&app, q).await;
        let text = a.text();
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{q}: {text}");
        assert!(text.contains("Field “q”"), "{q}: {text}");
        assert!(text.contains(why), "{q}: {text}");
        assert!(text.contains("id=\"search-q\""), "{q}");
        assert!(!text.contains('\u{0}') && !text.contains('\u{1B}'), "{q}");
    }
    // The over-long input is kept in the form.
    let text = search(&app, &long).await.text();
    assert!(text.contains(&format!("value=\"{long}\"")));

    // Exactly 100 characters is a search; HTML is escaped, and a query
    // that looks like a pattern is only text.
    assert_eq!(search(&app, &"x".repeat(100)).await.status, StatusCode::OK);
    for q in [
        "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
        "%22%3E%3Cimg%20src%3Dx%3E",
        "%25",
        ".*",
        "%5C",
        "'%20OR%201%3D1%20--",
        "%E2%80%AE",
        // Bytes that are not UTF-8 are read as U+FFFD, which matches
        // nothing.
        "%FF%FE",
    ] {
        let a = search(&app, q).await;
        let text = a.text();
        assert_eq!(a.status, StatusCode::OK, "{q}: {text}");
        assert!(!text.contains("<script>alert"), "{q}");
        assert!(!text.contains("<img src=x>"), "{q}");
    }
    // Two q fields: one is read, never a failure.
    let a = get_with_cookie(&app, "/search?q=ana&q=ben", "").await;
    assert_eq!(a.status, StatusCode::OK);
}
