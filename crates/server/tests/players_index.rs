//! The players index of every format: `/c/{id}/players` on every demo
//! competition (`arbiter_server::demo::install_all`) lists every player
//! with a link to his page that answers 200; the `?q=` filter (case- and
//! accent-insensitive part of a name); a hostile filter (markup escaped,
//! control characters refused, bytes that are not UTF-8 read as
//! replacement characters) and an over-long one (refused: 400 naming the
//! field `q`); an unknown competition is the 404 page; a hostile
//! player's name is escaped and his link is one path segment; the page is
//! kept by the page cache like the other public pages.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeSet;

use arbiter_server::pages::cache::CACHE_HEADER;
use arbiter_server::{AppState, Clock};
use arbiter_service::Service;
use arbiter_store_sqlite::SqliteStore;
use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use common::ladder::World;
use common::{As, send};
use serde_json::{Value, json};

struct Demo {
    app: Router,
    state: AppState,
}

/// The demo competitions in memory, shown at the demo's day.
async fn demo() -> Demo {
    let today = arbiter_demo::reference_today();
    let store = SqliteStore::open_in_memory().await.unwrap();
    let state = AppState::new(Service::new(store)).with_clock(Clock::Fixed(today));
    arbiter_server::demo::install_all(&state.service, today)
        .await
        .unwrap();
    Demo {
        app: arbiter_server::app(state.clone()),
        state,
    }
}

async fn get(app: &Router, uri: &str) -> common::Answer {
    common::oneshot(app, Request::get(uri).body(Body::empty()).unwrap()).await
}

/// A page that must answer 200, its text.
async fn page(app: &Router, uri: &str) -> String {
    let a = get(app, uri).await;
    let body = a.text();
    assert_eq!(a.status, StatusCode::OK, "{uri}:\n{body}");
    assert_eq!(body.matches("<h1").count(), 1, "{uri}");
    body
}

/// Text as the templates escape it.
fn esc(s: &str) -> String {
    s.replace('&', "&#38;")
        .replace('<', "&#60;")
        .replace('>', "&#62;")
        .replace('"', "&#34;")
        .replace('\'', "&#39;")
}

/// Every player row of the index: the address and the name of its link.
fn rows(html: &str) -> Vec<(String, String)> {
    let Some(start) = html.find("<tbody>") else {
        return Vec::new();
    };
    let end = html[start..].find("</tbody>").unwrap() + start;
    html[start..end]
        .split("<th scope=\"row\"><a href=\"")
        .skip(1)
        .map(|cell| {
            let (href, rest) = cell.split_once("\">").unwrap();
            let (name, _) = rest.split_once("</a>").unwrap();
            (href.to_string(), name.to_string())
        })
        .collect()
}

/// The players the API's view names: a ladder's rungs, inactive list and
/// applicants; the others' list of players (names or objects with one).
fn players_of(view: &Value) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let name = |v: &Value| {
        v.as_str()
            .or_else(|| v["name"].as_str())
            .map(str::to_string)
    };
    if let Some(rungs) = view["rungs"].as_array() {
        names.extend(rungs.iter().filter_map(name));
        for list in ["inactive", "applicants"] {
            names.extend(view[list].as_array().unwrap().iter().filter_map(name));
        }
    } else {
        names.extend(view["players"].as_array().unwrap().iter().filter_map(name));
    }
    names
}

#[tokio::test]
async fn every_format_lists_every_player_with_a_working_link() {
    let d = demo().await;
    let ids = d.state.service.competitions().await.unwrap();
    let mut formats = BTreeSet::new();
    for id in &ids {
        formats.insert(format!(
            "{:?}",
            d.state.service.format_of(id).await.unwrap()
        ));
        let html = page(&d.app, &format!("/c/{id}/players")).await;
        // In the competition's navigation, as the current page.
        assert!(
            html.contains(&format!(
                "<a href=\"/c/{id}/players\" aria-current=\"page\">Players</a>"
            )),
            "{id}: the navigation"
        );
        let listed = rows(&html);
        let view = common::view(&d.app, id).await;
        let expected = players_of(&view);
        assert!(!expected.is_empty(), "{id}: the demo has players");
        let names: BTreeSet<String> = listed.iter().map(|(_, n)| n.clone()).collect();
        for name in &expected {
            assert!(names.contains(&esc(name)), "{id}: {name} is not listed");
        }
        let hrefs: BTreeSet<&String> = listed.iter().map(|(h, _)| h).collect();
        assert_eq!(hrefs.len(), listed.len(), "{id}: one page per player");
        let prefix = format!("/c/{id}/players/");
        assert!(listed.iter().all(|(h, _)| h.starts_with(&prefix)), "{id}");
        assert!(html.contains(&format!("{} player", listed.len())), "{id}");
        // The first and the last player's pages answer.
        for (href, name) in [listed.first().unwrap(), listed.last().unwrap()] {
            let home = page(&d.app, href).await;
            assert!(home.contains(name.as_str()), "{href}");
        }
    }
    // The demo has every format.
    assert_eq!(
        formats.len(),
        arbiter_service::format::CompetitionFormat::ALL.len()
    );
}

#[tokio::test]
async fn the_index_says_where_each_player_stands() {
    let d = demo().await;
    let ladder = page(&d.app, "/c/tws-demo/players").await;
    assert!(ladder.contains("rung 1"), "{ladder}");
    let ids = d.state.service.competitions().await.unwrap();
    for id in &ids {
        let html = page(&d.app, &format!("/c/{id}/players")).await;
        // Every format gives at least one player a place or a record.
        assert!(
            html.contains("<td data-label=\"Stands\">") && html.contains(" of "),
            "{id}"
        );
    }
}

#[tokio::test]
async fn the_filter_finds_part_of_a_name_whatever_the_case() {
    let d = demo().await;
    let ids = d.state.service.competitions().await.unwrap();
    for id in &ids {
        let all = rows(&page(&d.app, &format!("/c/{id}/players")).await);
        let (href, name) = all.first().unwrap().clone();
        // Three characters from the middle of the first name, in upper case.
        let chars: Vec<char> = name.chars().filter(|c| c.is_alphabetic()).collect();
        let part: String = chars
            .iter()
            .skip(1)
            .take(3)
            .collect::<String>()
            .to_uppercase();
        let uri = format!("/c/{id}/players?q={}", common::enc(&part));
        let html = page(&d.app, &uri).await;
        let found = rows(&html);
        assert!(found.contains(&(href, name)), "{uri}");
        assert!(found.len() <= all.len());
        let folded = part.to_lowercase();
        for (_, n) in &found {
            assert!(n.to_lowercase().contains(&folded), "{uri}: {n}");
        }
        // Nothing found: said, no table.
        let html = page(&d.app, &format!("/c/{id}/players?q=zzzqqq-nobody")).await;
        assert!(rows(&html).is_empty());
        assert!(html.contains("No player's name contains"), "{html}");
    }
}

#[tokio::test]
async fn hostile_and_over_long_filters_are_refused_naming_the_field() {
    let d = demo().await;
    // Markup is escaped, in the form and in the sentence.
    let html = page(
        &d.app,
        "/c/tws-demo/players?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E%22%27",
    )
    .await;
    assert!(!html.contains("<script>alert"), "{html}");
    assert!(html.contains("&#60;script&#62;alert(1)"));
    // 200 characters pass; 201 do not.
    page(
        &d.app,
        &format!("/c/tws-demo/players?q={}", "a".repeat(200)),
    )
    .await;
    for (uri, words) in [
        (
            format!("/c/tws-demo/players?q={}", "a".repeat(201)),
            "at most 200 characters",
        ),
        (
            format!("/c/tws-demo/players?q={}", "%C3%A9".repeat(5000)),
            "at most 200 characters",
        ),
        (
            "/c/tws-demo/players?q=a%00b".to_string(),
            "control characters",
        ),
    ] {
        let a = get(&d.app, &uri).await;
        let body = a.text();
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{uri}");
        assert!(body.contains("Field “q”"), "{uri}: {body}");
        assert!(body.contains(words), "{uri}: {body}");
        assert!(body.contains("aria-invalid=\"true\""), "{uri}");
        assert!(rows(&body).is_empty(), "{uri}");
        // The refused input is kept, shortened.
        assert!(body.len() < 20_000, "{uri}: {}", body.len());
    }
    // Bytes that are not UTF-8 are read as replacement characters: no
    // one's name holds them.
    let html = page(&d.app, "/c/tws-demo/players?q=%FF%FE").await;
    assert!(rows(&html).is_empty());
}

#[tokio::test]
async fn an_unknown_competition_is_the_404_page() {
    let d = demo().await;
    for uri in [
        "/c/no-such/players",
        "/c/NOT%20AN%20ID/players",
        "/c/no-such/players?q=a",
    ] {
        let a = get(&d.app, uri).await;
        assert_eq!(a.status, StatusCode::NOT_FOUND, "{uri}");
        assert!(a.text().contains("Page not found"), "{uri}");
    }
}

#[tokio::test]
async fn a_hostile_name_is_escaped_and_its_link_is_one_segment() {
    let w = World::new().await;
    let olga = w.token("olga").to_string();
    let hostile = "<script>alert('x')</script> & \"Q\" ../a/b?c#d";
    let created = send(
        &w.app,
        Method::POST,
        "/api/competitions",
        As::Token(&olga),
        &[],
        Some(&json!({"format": "tws-ladder", "id": "hostile", "name": "<b>Hostile</b> ladder"})),
    )
    .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
    for body in [
        json!({"action": "add-player", "name": hostile}),
        json!({"action": "add-player", "name": "Dan Dunn"}),
    ] {
        let a = send(
            &w.app,
            Method::POST,
            "/api/competitions/hostile/actions",
            As::Token(&olga),
            &[("if-match", common::etag(&w.app, "hostile").await)],
            Some(&body),
        )
        .await;
        assert!(a.status.is_success(), "{body}: {}", a.text());
    }
    let html = page(&w.app, "/c/hostile/players").await;
    assert!(!html.contains("<script>alert"), "{html}");
    assert!(!html.contains("<b>Hostile"), "{html}");
    let listed = rows(&html);
    let (href, name) = listed
        .iter()
        .find(|(_, n)| *n == esc(hostile))
        .expect("the hostile name, escaped")
        .clone();
    assert_eq!(name, esc(hostile));
    let segment = href.strip_prefix("/c/hostile/players/").unwrap();
    assert!(!segment.contains(['/', '?', '#', '<', '"']), "{href}");
    let home = page(&w.app, &href).await;
    assert!(home.contains(&esc(hostile)));
    // The filter finds him by a part of his name with markup in it.
    let found = rows(&page(&w.app, "/c/hostile/players?q=%3CSCRIPT%3E").await);
    assert_eq!(found, vec![(href, name)]);
}

#[tokio::test]
async fn the_index_is_kept_by_the_page_cache() {
    let d = demo().await;
    let first = get(&d.app, "/c/tws-demo/players").await;
    assert_eq!(first.status, StatusCode::OK);
    assert_eq!(first.header(CACHE_HEADER), "miss");
    let second = get(&d.app, "/c/tws-demo/players").await;
    assert_eq!(second.header(CACHE_HEADER), "hit");
    assert_eq!(first.body, second.body);
    // Another filter is another page; a refusal is never kept.
    let filtered = get(&d.app, "/c/tws-demo/players?q=a").await;
    assert_eq!(filtered.header(CACHE_HEADER), "miss");
    let long = format!("/c/tws-demo/players?q={}", "a".repeat(201));
    for _ in 0..2 {
        let a = get(&d.app, &long).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST);
        assert_ne!(
            a.headers.get(CACHE_HEADER).map(|v| v.to_str().unwrap()),
            Some("hit")
        );
    }
}
