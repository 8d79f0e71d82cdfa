//! A player's home in every format (issue 17 §1): `/c/{id}/players/{n}`
//! for the XMadn league and Challengers, the Sunjang league and the round
//! robins, by the id the player's registering event gave him, on the demo
//! competitions (`arbiter_server::demo::install_all`) at the demo's time.
//!
//! Each page shows the player's games to play (opponent, side, and the
//! deadline where the format has one), his results, his standing with the
//! table's own explanation, what is still possible for him and his
//! ratings where the format offers them; every table of the format links
//! each player's name to his page, and every link reaches a page; an
//! address naming no player (a name, 0, a number past the last player, a
//! huge number, a sign) is the 404 page.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeSet;

use arbiter_engine::model::PlayerId;
use arbiter_server::{AppState, Clock};
use arbiter_service::Service;
use arbiter_store_sqlite::SqliteStore;
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};

struct Demo {
    app: Router,
    built: arbiter_demo::Built,
    rr: arbiter_demo::roundrobin::RoundRobins,
}

/// The demo competitions in memory, shown at the demo's day.
async fn demo() -> Demo {
    let today = arbiter_demo::reference_today();
    let store = SqliteStore::open_in_memory().await.unwrap();
    let state = AppState::new(Service::new(store)).with_clock(Clock::Fixed(today));
    let (built, rr, _) = arbiter_server::demo::install_all(&state.service, today)
        .await
        .unwrap();
    Demo {
        app: arbiter_server::app(state),
        built,
        rr,
    }
}

async fn get(app: &Router, uri: &str) -> (StatusCode, String) {
    let a = common::oneshot(app, Request::get(uri).body(Body::empty()).unwrap()).await;
    (a.status, String::from_utf8(a.body).unwrap())
}

/// A page that must answer 200.
async fn page(app: &Router, uri: &str) -> String {
    let (status, body) = get(app, uri).await;
    assert_eq!(status, StatusCode::OK, "{uri}:\n{body}");
    assert_eq!(body.matches("<h1").count(), 1, "{uri}");
    // To look at the pages: ARBITER_PAGES_DUMP=dir cargo test --test player_pages
    if let Some(dir) = std::env::var_os("ARBITER_PAGES_DUMP") {
        let name: String = uri
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let _ = std::fs::create_dir_all(&dir);
        let _ = std::fs::write(
            std::path::Path::new(&dir).join(format!("{name}.html")),
            &body,
        );
    }
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

/// The part of a page from the heading with id `from` to the next `h2`.
fn section<'a>(html: &'a str, from: &str) -> &'a str {
    let start = html
        .find(&format!(r#"<h2 id="{from}""#))
        .unwrap_or_else(|| panic!("no section {from}"));
    let rest = &html[start + 4..];
    let end = rest.find("<h2").unwrap_or(rest.len());
    &rest[..end]
}

/// Every player-page address a page links, in the order of the page.
fn player_links(html: &str, id: &str) -> Vec<String> {
    let prefix = format!("href=\"/c/{id}/players/");
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for (i, _) in html.match_indices(&prefix) {
        let rest = &html[i + 6..];
        let href = &rest[..rest.find('"').unwrap()];
        if seen.insert(href.to_string()) {
            out.push(href.to_string());
        }
    }
    out
}

/// The link to the page of player `p` with his name.
fn link(id: &str, p: PlayerId, name: &str) -> String {
    format!(r#"<a href="/c/{id}/players/{}">{}</a>"#, p.0, esc(name))
}

#[tokio::test]
async fn every_table_of_every_format_links_each_player_to_a_page_that_answers() {
    let d = demo().await;
    let app = d.app.clone();
    let comps = [
        (d.built.league.0.clone(), d.built.league.1.players.len()),
        (
            d.built.challengers.0.clone(),
            d.built.challengers.1.players.len(),
        ),
        (d.built.sunjang.0.clone(), d.built.sunjang.1.players.len()),
        (d.rr.euro.0.clone(), d.rr.euro.1.entrants.len()),
        (d.rr.chess.0.clone(), d.rr.chess.1.entrants.len()),
    ];
    for (id, count) in comps {
        let overview = page(&app, &format!("/c/{id}")).await;
        let links = player_links(&overview, &id);
        // Every player who is in a table is linked from the overview.
        assert!(!links.is_empty(), "{id} links no player");
        for href in &links {
            let n: usize = href.rsplit('/').next().unwrap().parse().unwrap();
            assert!((1..=count).contains(&n), "{href}");
            let p = page(&app, href).await;
            for h in ["games", "results", "standing"] {
                assert!(p.contains(&format!(r#"<h2 id="{h}""#)), "{href}: no {h}");
            }
            // His own page links the competition and the table.
            assert!(p.contains(&format!(r#"href="/c/{id}""#)), "{href}");
        }
    }
    // A Sunjang season's page links its players too.
    let season = page(&app, &format!("/c/{}/seasons/1", d.built.sunjang.0)).await;
    assert!(!player_links(&season, &d.built.sunjang.0).is_empty());
}

#[tokio::test]
async fn an_xmadn_league_player_sees_his_results_standing_clinch_and_rating() {
    let d = demo().await;
    let app = d.app.clone();
    // The demo league is finished: his results, his place, his rating.
    let (id, l, version) = &d.built.league;
    let v = arbiter_service::xmadn::league_view(l, id, *version);
    for (i, name) in l.players.iter().enumerate() {
        let me = PlayerId(i as u32 + 1);
        let html = page(&app, &format!("/c/{id}/players/{}", me.0)).await;
        assert!(html.contains(&format!("<h1>{}</h1>", esc(name))));
        let results = section(&html, "results");
        for played in l.games.iter().filter(|x| x.has(me) && x.score().is_some()) {
            assert!(results.contains(&format!(">{}<", played.id)), "{results}");
        }
        // His standing: his place and his row's explanations.
        let row = v.table.iter().find(|r| r.player == *name).unwrap();
        let standing = section(&html, "standing");
        assert!(
            standing.contains(&format!(
                "{} of {}",
                arbiter_engine::explain::ordinal(row.place),
                v.table.len()
            )),
            "{standing}"
        );
        assert!(!row.explanations.is_empty());
        for e in &row.explanations {
            assert!(standing.contains(&esc(&e.text)), "{standing}");
        }
        assert!(standing.contains(&format!(r#"href="/c/{id}#table""#)));
        // What is still possible, his chances and his rating.
        assert!(section(&html, "possible").contains(&format!(r#"href="/c/{id}/clinch""#)));
        assert!(section(&html, "chances").contains(&format!(r#"href="/c/{id}/projection""#)));
        let rating = section(&html, "rating");
        assert!(rating.contains("AREA rating"), "{rating}");
        assert!(rating.contains("<svg"), "{rating}");
        // The league's table links him.
        let overview = page(&app, &format!("/c/{id}")).await;
        assert!(overview.contains(&link(id, me, name)));
    }
}

#[tokio::test]
async fn an_xmadn_league_player_sees_his_next_games_and_what_is_still_possible() {
    let today = arbiter_demo::reference_today();
    let store = SqliteStore::open_in_memory().await.unwrap();
    let state = AppState::new(Service::new(store)).with_clock(Clock::Fixed(today));
    let ctx = arbiter_service::Context::new("mod", today);
    let names = ["Ann <b>", "Bo & Co", "Cy \"C\""].map(str::to_string);
    state
        .service
        .create_league(
            "running",
            "Running league",
            arbiter_engine::xmadn::LeagueRules::default(),
            &names,
            &ctx,
        )
        .await
        .unwrap();
    state.service.league_roll("running", &ctx).await.unwrap();
    let app = arbiter_server::app(state.clone());
    let (l, _) = state
        .service
        .load_as::<arbiter_engine::xmadn::league::League>("running", None)
        .await
        .unwrap();
    let g = l.playable()[0].clone();
    let me = g.players[0];
    let other = g.players[1];
    let html = page(&app, &format!("/c/running/players/{}", me.0)).await;
    let games = section(&html, "games");
    assert!(games.contains(&format!(">{}<", g.id)), "{games}");
    assert!(
        games.contains(&link("running", other, &l.name_of(other))),
        "{games}"
    );
    assert!(games.contains("may be played now"), "{games}");
    // Every game of his is to play, and he has a line of what is possible.
    let his = l.games.iter().filter(|x| x.has(me)).count();
    assert_eq!(games.matches("<th scope=\"row\">").count(), his, "{games}");
    assert!(section(&html, "results").contains("has a result yet"));
    let possible = section(&html, "possible");
    assert!(possible.contains("games left"), "{possible}");
    assert!(possible.contains("Rule:"), "{possible}");
    // The names are escaped everywhere.
    assert!(!html.contains("Ann <b>"));
    // The pages every format shares link him too: what is still possible
    // and the projection.
    for shared in ["/c/running/clinch", "/c/running/projection?seasons=20"] {
        let page = page(&app, shared).await;
        assert!(
            page.contains(&link("running", me, &l.name_of(me))),
            "{shared}"
        );
    }
}

#[tokio::test]
async fn a_challengers_player_sees_the_next_game_and_his_games() {
    let d = demo().await;
    let app = d.app.clone();
    let (id, c, version) = &d.built.challengers;
    let v = arbiter_service::xmadn::challengers_view(c, id, *version);
    let overview = page(&app, &format!("/c/{id}")).await;
    for (i, p) in c.players.iter().enumerate() {
        let me = PlayerId(i as u32 + 1);
        assert!(overview.contains(&link(id, me, p)), "{p} is not linked");
        let html = page(&app, &format!("/c/{id}/players/{}", me.0)).await;
        if let Some(n) = v.next.as_ref().filter(|n| n.players.contains(p)) {
            assert!(
                section(&html, "games").contains(&format!("Game {}", n.number)),
                "{p}"
            );
        }
        let results = section(&html, "results");
        for g in v.games.iter().filter(|g| g.players.contains(p)) {
            assert!(results.contains(&format!(">Game {}<", g.number)), "{p}");
        }
        let s = v.standings.iter().find(|s| s.player == *p).unwrap();
        assert!(section(&html, "standing").contains(&format!(
            "{} of {}",
            arbiter_engine::explain::ordinal(s.place as usize),
            v.standings.len()
        )));
    }
}

#[tokio::test]
async fn a_sunjang_player_sees_his_group_games_standing_and_what_is_possible() {
    let d = demo().await;
    let app = d.app.clone();
    let (id, l, version) = &d.built.sunjang;
    let v = arbiter_service::sunjang::sunjang_view(l, id, *version);
    let s = l.current().unwrap();
    let sv = v.seasons.last().unwrap();
    // A player of the last season with a game still to play, if it runs;
    // else one who played in it.
    let (group, game) = s
        .divisions
        .iter()
        .flatten()
        .find_map(|g| {
            g.games
                .iter()
                .find(|x| x.outcome.is_none())
                .map(|x| (g, Some(x)))
        })
        .unwrap_or_else(|| (&s.divisions[0][0], None));
    let me = game.map_or(group.players[0], |x| x.pairing.black);
    let name = l.name_of(me);
    let html = page(&app, &format!("/c/{id}/players/{}", me.0)).await;
    assert!(html.contains(&format!("<h1>{}</h1>", esc(&name))));
    if let Some(x) = game
        && s.close.is_none()
    {
        let games = section(&html, "games");
        let white = x.pairing.white;
        assert!(
            games.contains(&link(id, white, &l.name_of(white))),
            "{games}"
        );
        assert!(games.contains("Black"), "{games}");
    }
    // Results: each of his decided games in the season's group.
    let results = section(&html, "results");
    let decided = group
        .games
        .iter()
        .filter(|x| (x.pairing.black == me || x.pairing.white == me) && x.outcome.is_some())
        .count();
    assert!(results.matches("<tr>").count() >= decided, "{results}");
    // Standing: his place in his group and the group's explanations.
    let label = group.id.to_string();
    let gv = sv
        .divisions
        .iter()
        .flat_map(|d| &d.groups)
        .find(|g| g.id == label)
        .unwrap();
    let standing = section(&html, "standing");
    assert!(
        standing.contains(&format!("table of group {label}")),
        "{standing}"
    );
    for e in &gv.explanations {
        assert!(standing.contains(&esc(&e.text)), "{standing}");
    }
    assert!(html.contains(r#"<h2 id="possible""#));
    // The group's table links him.
    let season = page(&app, &format!("/c/{id}/seasons/{}", s.number())).await;
    assert!(season.contains(&link(id, me, &name)));
}

#[tokio::test]
async fn a_round_robin_player_sees_his_games_with_deadlines_his_results_and_his_place() {
    let d = demo().await;
    let app = d.app.clone();
    for (id, rr, version) in [&d.rr.euro, &d.rr.chess] {
        let v = arbiter_service::roundrobin::round_robin_view(rr, id, *version);
        // A player with a game to play if there is one, else the leader.
        let open = rr.games.iter().find(|g| rr.counted_score(g).is_none());
        let me = open.map_or_else(|| rr.find(&v.table[0].player).unwrap(), |g| g.home);
        let name = rr.name_of(me);
        let html = page(&app, &format!("/c/{id}/players/{}", me.0)).await;
        assert!(html.contains(&format!("<h1>{}</h1>", esc(&name))), "{id}");
        if let Some(g) = open {
            let games = section(&html, "games");
            assert!(games.contains(&format!(">G{}<", g.id)), "{games}");
            assert!(
                games.contains(&link(id, g.away, &rr.name_of(g.away))),
                "{games}"
            );
            let round = rr.rounds.iter().find(|r| r.number == g.round).unwrap();
            if let Some(deadline) = round.deadline {
                assert!(
                    games.contains(&deadline.format("%Y-%m-%d %H:%M UTC").to_string()),
                    "{games}"
                );
            }
        }
        let results = section(&html, "results");
        for g in rr
            .games
            .iter()
            .filter(|g| g.has(me) && rr.counted_score(g).is_some())
        {
            assert!(results.contains(&format!(">G{}<", g.id)), "{id}: G{}", g.id);
        }
        let row = v.table.iter().find(|r| r.player == name).unwrap();
        let standing = section(&html, "standing");
        assert!(standing.contains(&esc(&row.explanation.text)), "{standing}");
        assert!(html.contains(r#"<h2 id="rating""#), "{id}");
        let overview = page(&app, &format!("/c/{id}")).await;
        assert!(overview.contains(&link(id, me, &name)), "{id}");
    }
}

#[tokio::test]
async fn an_address_that_names_no_player_is_the_404_page() {
    let d = demo().await;
    let app = d.app.clone();
    let comps = [
        (&d.built.league.0, d.built.league.1.players.len()),
        (&d.built.challengers.0, d.built.challengers.1.players.len()),
        (&d.built.sunjang.0, d.built.sunjang.1.players.len()),
        (&d.rr.euro.0, d.rr.euro.1.entrants.len()),
    ];
    for (id, count) in comps {
        let name = d.built.league.1.players[0].replace(' ', "%20");
        for bad in [
            "0".to_string(),
            (count + 1).to_string(),
            "4294967296".to_string(),
            "99999999999999999999999999999999".to_string(),
            "-1".to_string(),
            "%2B1".to_string(),
            "1e3".to_string(),
            "01x".to_string(),
            "%00".to_string(),
            name,
        ] {
            let uri = format!("/c/{id}/players/{bad}");
            let (status, body) = get(&app, &uri).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{uri}");
            assert!(body.contains("Page not found"), "{uri}");
        }
    }
    // The ladder names its players' pages by name, as before.
    let (status, _) = get(
        &app,
        &format!("/c/{}/players/Nobody%20Here", d.built.ladder.0),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = get(&app, "/c/no-such-competition/players/1").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}
