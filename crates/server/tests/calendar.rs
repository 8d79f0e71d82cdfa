//! Calendar feeds (issue 18 §4): every format's competition feed and a
//! player's feed on the demo, each read back by an RFC 5545 parser (the
//! `icalendar` crate) and checked line by line (CRLF, 75 octets, one UID
//! and DTSTAMP per component); revocation (404 at once, a new URL for a
//! new feed); hostile tokens (404, one answer for all); a hostile player's
//! name and a reason with newlines folded and escaped; the pages' forms
//! (CSRF, roles).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::HashSet;

use arbiter_engine::model::{GameStatus, Time};
use arbiter_server::demo::install_all;
use arbiter_server::{AppState, Clock, auth};
use arbiter_service::Service;
use arbiter_store::Role;
use arbiter_store_sqlite::SqliteStore;
use axum::Router;
use axum::http::{Method, StatusCode, header};
use common::ladder::World;
use common::{
    Answer, As, form_body, get_with_cookie, grant, hidden, login_session, post_form, send,
};
use icalendar::parser::{Component, read_calendar, unfold};
use serde_json::json;

/// The server's address in the tests' feeds (`AppState::new`'s default).
const BASE: &str = "http://localhost:8080";

struct Demo {
    app: Router,
    state: AppState,
    built: arbiter_demo::Built,
    round_robins: arbiter_demo::roundrobin::RoundRobins,
    today: Time,
}

async fn demo() -> Demo {
    let today = arbiter_demo::reference_today();
    let store = SqliteStore::open_in_memory().await.unwrap();
    let state = AppState::new(Service::new(store)).with_clock(Clock::Fixed(today));
    let (built, round_robins, _) = install_all(&state.service, today).await.unwrap();
    Demo {
        app: arbiter_server::app(state.clone()),
        state,
        built,
        round_robins,
        today,
    }
}

/// An API token of the demo account `username`.
async fn token(state: &AppState, username: &str) -> String {
    auth::create_token(state, username, "calendar tests")
        .await
        .unwrap()
}

/// Make a feed through the API; its URL, as a path on this server.
async fn make_feed(app: &Router, path: &str, token: &str, label: &str) -> (String, String) {
    let a = send(
        app,
        Method::POST,
        path,
        As::Token(token),
        &[],
        Some(&json!({"label": label})),
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text());
    let url = a.json()["url"].as_str().unwrap().to_string();
    let id = a.json()["id"].as_str().unwrap().to_string();
    let path = url.strip_prefix(BASE).unwrap().to_string();
    assert!(
        path.starts_with("/calendar/") && path.ends_with(".ics"),
        "{url}"
    );
    (path, id)
}

async fn delete(app: &Router, path: &str, token: &str) -> Answer {
    send(app, Method::DELETE, path, As::Token(token), &[], None).await
}

/// A new feed of competition `id` made with `token`, fetched and parsed.
async fn competition_feed(app: &Router, id: &str, token: &str) -> (String, Vec<Item>) {
    let (path, _) = make_feed(
        app,
        &format!("/api/competitions/{id}/calendars"),
        token,
        "forum",
    )
    .await;
    parse(&fetch(app, &path).await)
}

async fn fetch(app: &Router, path: &str) -> Answer {
    send(app, Method::GET, path, As::Nobody, &[], None).await
}

/// One component of a feed, its properties unfolded and unescaped.
#[derive(Debug, Clone)]
struct Item {
    kind: String,
    uid: String,
    summary: String,
    description: String,
    start: Option<String>,
    status: String,
    url: String,
}

/// Check a feed line by line and parse it with the `icalendar` crate:
/// its components, in order.
fn parse(a: &Answer) -> (String, Vec<Item>) {
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    assert_eq!(
        a.header(header::CONTENT_TYPE.as_str()),
        "text/calendar; charset=utf-8"
    );
    let text = a.text();
    assert!(text.ends_with("\r\n"), "the last line ends with CRLF");
    for (i, line) in text.split("\r\n").enumerate() {
        assert!(
            !line.contains('\n') && !line.contains('\r'),
            "line {i}: a bare line break"
        );
        assert!(
            line.len() <= 75,
            "line {i} has {} octets: {line:?}",
            line.len()
        );
        assert!(
            !line.chars().any(|c| c.is_control() && c != '\t'),
            "line {i}: a control character"
        );
    }
    let unfolded = unfold(&text);
    let calendar = read_calendar(&unfolded).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let prop = |props: &[icalendar::parser::Property<'_>], name: &str| -> Vec<String> {
        props
            .iter()
            .filter(|p| p.name == name)
            // The parser unescapes TEXT values itself (SUMMARY,
            // DESCRIPTION, NAME, X-WR-CALNAME ...).
            .map(|p| p.val.as_str().to_string())
            .collect()
    };
    assert_eq!(prop(&calendar.properties, "VERSION"), ["2.0"]);
    assert_eq!(prop(&calendar.properties, "PRODID").len(), 1);
    let name = prop(&calendar.properties, "X-WR-CALNAME")
        .pop()
        .expect("a name");
    let mut uids = HashSet::new();
    let items: Vec<Item> = calendar
        .components
        .iter()
        .map(|c: &Component<'_>| {
            let kind = c.name.as_str().to_string();
            assert!(kind == "VEVENT" || kind == "VTODO", "{kind}");
            let one = |n: &str| {
                let v = prop(&c.properties, n);
                assert_eq!(v.len(), 1, "{kind} has {} {n}: {c:?}", v.len());
                v[0].clone()
            };
            let uid = one("UID");
            assert!(uids.insert(uid.clone()), "UID {uid} twice");
            let stamp = one("DTSTAMP");
            assert!(stamp.ends_with('Z') && stamp.len() == 16, "{stamp}");
            let start = prop(&c.properties, "DTSTART").pop();
            assert_eq!(start.is_some(), kind == "VEVENT", "{c:?}");
            Item {
                uid,
                summary: one("SUMMARY"),
                description: one("DESCRIPTION"),
                status: one("STATUS"),
                url: one("URL"),
                start,
                kind,
            }
        })
        .collect();
    // The crate's typed calendar reads every start as a UTC time.
    let typed: icalendar::Calendar = calendar.into();
    for component in &typed.components {
        if let icalendar::CalendarComponent::Event(e) = component {
            use icalendar::Component as _;
            match e.get_start() {
                Some(icalendar::DatePerhapsTime::DateTime(icalendar::CalendarDateTime::Utc(_))) => {
                }
                other => panic!("an event starts at {other:?}"),
            }
        }
    }
    (name, items)
}

fn utc(t: Time) -> String {
    t.format("%Y%m%dT%H%M%SZ").to_string()
}

fn find<'a>(items: &'a [Item], summary: &str) -> &'a Item {
    items
        .iter()
        .find(|i| i.summary == summary)
        .unwrap_or_else(|| {
            let all: Vec<&str> = items.iter().map(|i| i.summary.as_str()).collect();
            panic!("no {summary:?} among {all:#?}")
        })
}

#[tokio::test]
async fn every_format_has_a_competition_feed_that_parses_per_rfc_5545() {
    let d = demo().await;
    let jordan = token(&d.state, "jordan").await;
    let b = &d.built;
    let rr = &d.round_robins;

    // The ladder: each round announced, its deadline, and its close.
    let (ladder_id, ladder, _) = &b.ladder;
    let (name, items) = competition_feed(&d.app, ladder_id, &jordan).await;
    assert_eq!(name, ladder.name);
    let closed = ladder.rounds.iter().filter(|r| r.closed.is_some()).count();
    assert_eq!(items.len(), 2 * ladder.rounds.len() + closed);
    let running = ladder.rounds.last().unwrap();
    let n = running.number;
    let deadline = find(&items, &format!("Round {n} deadline"));
    assert_eq!(deadline.kind, "VEVENT");
    assert_eq!(
        deadline.start.as_deref(),
        Some(utc(running.deadline).as_str())
    );
    assert_eq!(
        deadline.uid,
        format!("round-{n}-deadline.{ladder_id}@arbiter")
    );
    assert_eq!(deadline.url, format!("{BASE}/c/{ladder_id}/rounds/{n}"));
    assert!(deadline.description.contains("still to be decided"));
    assert_eq!(
        find(&items, "Round 1 closed").start.as_deref(),
        Some(utc(ladder.rounds[0].closed.as_ref().unwrap().at).as_str())
    );

    // The XMadn league: its rolls and games; games still to play undated.
    let (league_id, league, _) = &b.league;
    let (_, items) = competition_feed(&d.app, league_id, &jordan).await;
    assert_eq!(items.len(), league.rolls.len() + league.games.len());
    assert!(find(&items, "DRR 1: positions rolled").start.is_some());
    let todo = league.games.iter().filter(|g| !g.is_resolved()).count();
    assert_eq!(items.iter().filter(|i| i.kind == "VTODO").count(), todo);
    for i in items.iter().filter(|i| i.kind == "VTODO") {
        assert!(i.summary.ends_with("(to play)"), "{}", i.summary);
        assert_eq!(i.status, "NEEDS-ACTION");
        assert!(i.uid.starts_with("todo-"), "{}", i.uid);
    }

    // Challengers: Game 0, each game, and the next one.
    let (ch_id, ch, _) = &b.challengers;
    let (_, items) = competition_feed(&d.app, ch_id, &jordan).await;
    let next = usize::from(ch.board().is_some());
    assert_eq!(
        items.len(),
        usize::from(ch.qualifier().is_some()) + ch.games().len() + next
    );
    let g1 = &ch.games()[0];
    let game1 = find(
        &items,
        &format!(
            "Game 1: {} vs {}: {}-{}",
            ch.name_of(g1.players[0]),
            ch.name_of(g1.players[1]),
            g1.score.pawns[0],
            g1.score.pawns[1]
        ),
    );
    assert_eq!(game1.start.as_deref(), Some(utc(g1.at).as_str()));

    // Sunjang: each season planned and closed.
    let (sj_id, sj, _) = &b.sunjang;
    let (_, items) = competition_feed(&d.app, sj_id, &jordan).await;
    let closed = sj.seasons.iter().filter(|s| s.close.is_some()).count();
    assert_eq!(items.len(), sj.seasons.len() + closed);
    let s1 = &sj.seasons[0];
    assert_eq!(
        find(&items, "Season 1 planned").start.as_deref(),
        Some(utc(s1.plan.at).as_str())
    );
    assert_eq!(
        find(&items, "Season 1 planned").url,
        format!("{BASE}/c/{sj_id}/seasons/1")
    );

    // The chess round robin: its start and each round's deadline.
    let (chess_id, chess, _) = &rr.chess;
    let (_, items) = competition_feed(&d.app, chess_id, &jordan).await;
    let with_deadline: Vec<_> = chess
        .rounds
        .iter()
        .filter(|r| r.deadline.is_some())
        .collect();
    assert!(!with_deadline.is_empty());
    assert_eq!(items.len(), 1 + with_deadline.len());
    for r in with_deadline {
        let item = find(&items, &format!("Round {} deadline", r.number));
        assert_eq!(
            item.start.as_deref(),
            Some(utc(r.deadline.unwrap()).as_str())
        );
    }
    // EURO 2024's group has no deadlines: its start alone.
    let (euro_id, euro, _) = &rr.euro;
    let (_, items) = competition_feed(&d.app, euro_id, &jordan).await;
    let dated = euro.rounds.iter().filter(|r| r.deadline.is_some()).count();
    assert_eq!(items.len(), usize::from(euro.started.is_some()) + dated);
    assert!(d.today >= chess.started.unwrap());
}

#[tokio::test]
async fn a_player_feed_holds_his_games_in_every_competition_he_is_linked_in() {
    let d = demo().await;
    let b = &d.built;
    // A ladder player with a game to play in the running round (linked to
    // his demo account by the demo); link his account to a player of each
    // other format too, by the competitions' own events.
    let (ladder_id, ladder, _) = &b.ladder;
    let running = ladder.rounds.last().unwrap();
    let open = running
        .games
        .iter()
        .filter_map(|g| ladder.game(*g))
        .find(|g| g.status == GameStatus::Scheduled)
        .expect("a game to play in the running round");
    let me = open.ussr.player;
    let my_name = ladder.name_of(me);
    let user = arbiter_server::demo::username_of(&my_name);
    let league_player = b.league.1.players[0].clone();
    let ch_player = b.challengers.1.players[0].clone();
    let sj_season = b.sunjang.1.seasons.last().unwrap();
    let sj_me = sj_season.divisions[0][0].players[0];
    let sj_player = b.sunjang.1.name_of(sj_me);
    let chess = &d.round_robins.chess;
    let chess_player = chess.1.entrants[0].name.clone();
    for (id, name) in [
        (&b.league.0, &league_player),
        (&b.challengers.0, &ch_player),
        (&b.sunjang.0, &sj_player),
        (&chess.0, &chess_player),
    ] {
        // The demo links some players of these formats to accounts of
        // their own, to report their games (ARB-R81): that link ends first.
        let ctx = arbiter_service::Context {
            actor: "tests".into(),
            at: d.state.now(),
            idempotency_key: None,
            expected: None,
        };
        let theirs = arbiter_server::demo::username_of(name);
        let _ = d.state.service.unlink_account(id, &theirs, &ctx).await;
        grant(&d.state, id, &user, Role::Player, Some(name)).await;
    }
    let mine = token(&d.state, &user).await;
    let (path, _) = make_feed(&d.app, "/api/calendars", &mine, "phone").await;
    let (name, items) = parse(&fetch(&d.app, &path).await);
    assert_eq!(name, format!("Games of {my_name}"));

    // The ladder: every game of his, each once; the running round's at its
    // deadline, named as the issue asks.
    let hers: Vec<_> = ladder.games.iter().filter(|g| g.has_player(me)).collect();
    let in_ladder: Vec<&Item> = items
        .iter()
        .filter(|i| i.uid.ends_with(&format!(".p{}.{ladder_id}@arbiter", me.0)))
        .collect();
    assert_eq!(in_ladder.len(), hers.len());
    let (ussr, us) = (
        ladder.name_of(open.ussr.player),
        ladder.name_of(open.us.player),
    );
    let item = find(&items, &format!("{}: {ussr} vs {us} (deadline)", open.id));
    assert_eq!(
        item.start.as_deref(),
        Some(utc(open.deadline.unwrap()).as_str())
    );
    assert!(
        item.description
            .contains(&format!("{my_name} plays the USSR against {us} (US)")),
        "{}",
        item.description
    );
    assert!(
        item.description.ends_with(&format!(
            "{BASE}/c/{ladder_id}/rounds/{}",
            open.round.unwrap()
        )),
        "{}",
        item.description
    );
    assert_eq!(item.status, "CONFIRMED");
    if let Some(decided) = hers.iter().find(|g| g.result.is_some()) {
        let item = items
            .iter()
            .find(|i| i.uid == format!("game-{}.p{}.{ladder_id}@arbiter", decided.id.0, me.0))
            .unwrap();
        assert_eq!(
            item.start.as_deref(),
            Some(utc(decided.result.as_ref().unwrap().at).as_str())
        );
    }

    // The league, Challengers, Sunjang and chess: his player's games there.
    let league = &b.league.1;
    let lp = league.find(&league_player).unwrap();
    let count = |id: &str| {
        items
            .iter()
            .filter(|i| i.uid.ends_with(&format!(".{id}@arbiter")))
            .count()
    };
    assert_eq!(
        count(&b.league.0),
        league.games.iter().filter(|g| g.has(lp)).count()
    );
    let ch = &b.challengers.1;
    let cp = ch.find(&ch_player).unwrap();
    assert_eq!(
        count(&b.challengers.0),
        1 + ch
            .games()
            .iter()
            .filter(|g| g.players.contains(&cp))
            .count()
            + usize::from(ch.board().is_some_and(|bd| bd.has(cp)))
    );
    let rr = &chess.1;
    let rp = rr.find(&chess_player).unwrap();
    assert_eq!(
        count(&chess.0),
        rr.games.iter().filter(|g| g.has(rp)).count()
    );
    assert!(count(&b.sunjang.0) >= 1, "his seasons at least");
    // A Sunjang group game of his in a running season is a to-do.
    if sj_season.close.is_none() {
        assert!(
            items
                .iter()
                .any(|i| i.kind == "VTODO" && i.summary.contains(&sj_player)),
            "a group game of {sj_player}"
        );
    }
    // Nothing of anyone else's: his opponent's ladder games without him.
    let other = open.us.player;
    for g in ladder
        .games
        .iter()
        .filter(|g| g.has_player(other) && !g.has_player(me))
    {
        assert!(
            !items
                .iter()
                .any(|i| i.summary.starts_with(&format!("{}:", g.id))
                    && i.uid.contains(&format!(".{ladder_id}@"))),
            "{} is not his",
            g.id
        );
    }
}

#[tokio::test]
async fn a_revoked_feed_answers_404_at_once_and_a_new_one_has_a_new_url() {
    let d = demo().await;
    let ana = token(&d.state, "ana").await;
    let (path, id) = make_feed(&d.app, "/api/calendars", &ana, "phone").await;
    assert_eq!(fetch(&d.app, &path).await.status, StatusCode::OK);
    let listed = send(
        &d.app,
        Method::GET,
        "/api/calendars",
        As::Token(&ana),
        &[],
        None,
    )
    .await;
    assert_eq!(listed.json()[0]["id"], id.as_str());
    assert!(
        !listed.text().contains(
            path.trim_start_matches("/calendar/")
                .trim_end_matches(".ics")
        )
    );
    // Another account cannot revoke it.
    let ben = token(&d.state, "ben").await;
    let other = delete(&d.app, &format!("/api/calendars/{id}"), &ben).await;
    assert_eq!(other.status, StatusCode::NOT_FOUND);
    assert_eq!(fetch(&d.app, &path).await.status, StatusCode::OK);
    // Its owner can: 404 from the next request on.
    let gone = delete(&d.app, &format!("/api/calendars/{id}"), &ana).await;
    assert_eq!(gone.status, StatusCode::NO_CONTENT, "{}", gone.text());
    let after = fetch(&d.app, &path).await;
    assert_eq!(after.status, StatusCode::NOT_FOUND);
    let (again, _) = make_feed(&d.app, "/api/calendars", &ana, "phone").await;
    assert_ne!(again, path);
    assert_eq!(fetch(&d.app, &again).await.status, StatusCode::OK);
    assert_eq!(fetch(&d.app, &path).await.status, StatusCode::NOT_FOUND);

    // A competition's feed, revoked by a moderator; a removed account's
    // feeds end with it.
    let sam = token(&d.state, "sam").await;
    let ladder = &d.built.ladder.0;
    let (club, club_id) = make_feed(
        &d.app,
        &format!("/api/competitions/{ladder}/calendars"),
        &sam,
        "club",
    )
    .await;
    let gone = delete(
        &d.app,
        &format!("/api/competitions/{ladder}/calendars/{club_id}"),
        &sam,
    )
    .await;
    assert_eq!(gone.status, StatusCode::NO_CONTENT);
    assert_eq!(fetch(&d.app, &club).await.status, StatusCode::NOT_FOUND);
    use arbiter_store::AccountStore as _;
    d.state.service.store().delete_account("ana").await.unwrap();
    assert_eq!(fetch(&d.app, &again).await.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn bad_oversized_and_garbage_tokens_answer_one_404() {
    let d = demo().await;
    let ana = token(&d.state, "ana").await;
    let (live, _) = make_feed(&d.app, "/api/calendars", &ana, "phone").await;
    let real = live
        .trim_start_matches("/calendar/")
        .trim_end_matches(".ics")
        .to_string();
    let mut flipped = real.clone().into_bytes();
    flipped[63] = if flipped[63] == b'0' { b'1' } else { b'0' };
    let flipped = String::from_utf8(flipped).unwrap();
    let paths = [
        format!("/calendar/{flipped}.ics"),
        format!("/calendar/{real}"),
        format!("/calendar/{}.ics", real.to_uppercase()),
        format!("/calendar/{}.ics", &real[..63]),
        format!("/calendar/{real}0.ics"),
        format!("/calendar/{}.ics", "f".repeat(10_000)),
        "/calendar/.ics".to_string(),
        "/calendar/%00%ff%fe.ics".to_string(),
        "/calendar/..%2F..%2Fetc%2Fpasswd".to_string(),
        format!("/calendar/{}.ics", "é".repeat(32)),
        format!("/calendar/arb_{}.ics", &real[4..]),
    ];
    let first = fetch(&d.app, &paths[0]).await;
    assert_eq!(first.status, StatusCode::NOT_FOUND);
    for p in &paths {
        let a = fetch(&d.app, p).await;
        assert_eq!(a.status, StatusCode::NOT_FOUND, "{}", &p[..p.len().min(80)]);
        assert_eq!(a.body, first.body, "one answer for every unknown feed");
    }
    // An API token is not a feed token, and a feed URL is no API token.
    let api = send(
        &d.app,
        Method::GET,
        &format!("/calendar/{}.ics", &ana[4..]),
        As::Nobody,
        &[],
        None,
    )
    .await;
    assert_eq!(api.status, StatusCode::NOT_FOUND);
    let me = send(&d.app, Method::GET, "/api/me", As::Token(&real), &[], None).await;
    assert_eq!(me.status, StatusCode::UNAUTHORIZED);
    // The live one still answers.
    assert_eq!(fetch(&d.app, &live).await.status, StatusCode::OK);

    // Inputs: the label, the feed id and the competition are checked and
    // named; an unknown competition is 404.
    for (body, field) in [
        (json!({"label": ""}), "label"),
        (json!({"label": "x".repeat(61)}), "label"),
        (json!({"label": "a\u{7}b"}), "label"),
        (json!({"label": "ok", "extra": 1}), "body"),
        (json!({"nolabel": 1}), "body"),
    ] {
        let a = send(
            &d.app,
            Method::POST,
            "/api/calendars",
            As::Token(&ana),
            &[],
            Some(&body),
        )
        .await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(a.json()["error"]["field"], field, "{body}: {}", a.text());
    }
    let a = send(
        &d.app,
        Method::DELETE,
        "/api/calendars/zz-not-hex",
        As::Token(&ana),
        &[],
        None,
    )
    .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert_eq!(a.json()["error"]["field"], "id");
    let a = delete(
        &d.app,
        &format!("/api/calendars/{}", "a".repeat(5000)),
        &ana,
    )
    .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    let jordan = token(&d.state, "jordan").await;
    for id in ["no-such-competition", &"x".repeat(300)] {
        let a = send(
            &d.app,
            Method::POST,
            &format!("/api/competitions/{id}/calendars"),
            As::Token(&jordan),
            &[],
            Some(&json!({"label": "x"})),
        )
        .await;
        assert_eq!(a.status, StatusCode::NOT_FOUND, "{}", a.text());
    }
    // At most 20 feeds an account.
    for i in 1..20 {
        make_feed(&d.app, "/api/calendars", &ana, &format!("feed {i}")).await;
    }
    let a = send(
        &d.app,
        Method::POST,
        "/api/calendars",
        As::Token(&ana),
        &[],
        Some(&json!({"label": "one too many"})),
    )
    .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert_eq!(a.json()["error"]["field"], "feeds");
}

#[tokio::test]
async fn a_hostile_name_and_a_reason_with_newlines_are_folded_and_escaped() {
    let w = World::new().await;
    let olga = w.token("olga").to_string();
    // A name with every TEXT special character, long enough to fold
    // inside multi-byte characters, paired in a ladder of its own and
    // linked to `otto`.
    let hostile = format!(
        "Zoë \"Z\" O'Neil; Back\\slash, {}",
        "Ünïcödé-Ñame".repeat(5)
    );
    let created = send(
        &w.app,
        Method::POST,
        "/api/competitions",
        As::Token(&olga),
        &[],
        Some(&json!({"format": "tws-ladder", "id": "hostile", "name": "Hostile; Ladder, \\ test"})),
    )
    .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
    let reason = "line one\nline two; with, commas \\ and a backslash";
    for body in [
        json!({"action": "add-player", "name": hostile, "account": "otto"}),
        json!({"action": "add-player", "name": "Dan Dunn"}),
        json!({"action": "announce-round", "reason": "the test's pairing",
            "pairs": [{"a": hostile, "b": "Dan Dunn"}]}),
        json!({"action": "cancel-game", "game": "G1", "reason": reason}),
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
    let otto = w.token("otto").to_string();
    let (path, _) = make_feed(&w.app, "/api/calendars", &otto, "phone").await;
    let feed = fetch(&w.app, &path).await;
    let text = feed.text();
    assert!(text.contains("\r\n "), "long lines are folded");
    assert!(text.contains("\\;") && text.contains("\\,") && text.contains("\\\\"));
    assert!(text.contains("\\n"), "a newline is written as \\n");
    let (name, items) = parse(&feed);
    assert_eq!(name, "Games of Otto Outis");
    assert_eq!(items.len(), 1, "{items:?}");
    let g = &items[0];
    assert_eq!(g.status, "CANCELLED");
    assert!(g.summary.starts_with("G1: "), "{}", g.summary);
    assert!(
        g.summary.contains(&hostile),
        "{} reads back as it was",
        g.summary
    );
    assert!(g.summary.ends_with("(cancelled)"));
    assert!(g.description.contains(reason), "{}", g.description);
    assert!(
        g.description.contains("against Dan Dunn"),
        "{}",
        g.description
    );

    // The competition's feed: its name escaped and read back.
    let (path, _) = make_feed(&w.app, "/api/competitions/hostile/calendars", &olga, "club").await;
    let (name, items) = parse(&fetch(&w.app, &path).await);
    assert_eq!(name, "Hostile; Ladder, \\ test");
    assert_eq!(items.len(), 2, "round 1 announced and its deadline");
    // The CLI's player calendar, through the service, says the same.
    let cal = w
        .state
        .service
        .player_calendar("hostile", &hostile)
        .await
        .unwrap();
    assert_eq!(cal.items.len(), 1);
    assert!(
        w.state
            .service
            .player_calendar("hostile", &"x".repeat(201))
            .await
            .is_err()
    );
}

#[tokio::test]
async fn the_pages_make_and_revoke_feeds_with_their_csrf_token_and_roles() {
    let d = demo().await;
    let ladder = d.built.ladder.0.clone();
    // The account page: a feed made by its form is shown once.
    let ana = login_session(&d.app, "ana", arbiter_server::demo::DEMO_PASSWORD).await;
    let page = get_with_cookie(&d.app, "/account", &ana).await;
    assert_eq!(page.status, StatusCode::OK);
    let html = page.text();
    assert!(html.contains("id=\"calendars\""));
    let csrf = hidden(&html, "_csrf");
    let refused = post_form(
        &d.app,
        "/account/calendars",
        &ana,
        form_body(&[("label", "phone")]),
    )
    .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "no CSRF token");
    let made = post_form(
        &d.app,
        "/account/calendars",
        &ana,
        form_body(&[("label", "phone"), ("_csrf", &csrf)]),
    )
    .await;
    assert_eq!(made.status, StatusCode::OK, "{}", made.text());
    let html = made.text();
    let at = html
        .find(&format!("{BASE}/calendar/"))
        .expect("the new URL");
    let url = &html[at..at + html[at..].find('<').unwrap()];
    let path = url.strip_prefix(BASE).unwrap().to_string();
    assert_eq!(fetch(&d.app, &path).await.status, StatusCode::OK);
    let again = get_with_cookie(&d.app, "/account", &ana).await.text();
    assert!(!again.contains(url), "shown once");
    let id_at = again.find("/account/calendars/").unwrap() + "/account/calendars/".len();
    let id = &again[id_at..id_at + 16];
    let revoked = post_form(
        &d.app,
        &format!("/account/calendars/{id}/revoke"),
        &ana,
        form_body(&[("_csrf", &csrf)]),
    )
    .await;
    assert_eq!(revoked.status, StatusCode::OK, "{}", revoked.text());
    assert!(revoked.text().contains("is revoked"));
    assert_eq!(fetch(&d.app, &path).await.status, StatusCode::NOT_FOUND);

    // A competition's feeds: its desk links them for a moderator; a player
    // is refused, nobody logged in is sent to log in.
    let here = format!("/c/{ladder}/calendars");
    let public = get_with_cookie(&d.app, &here, "").await;
    assert_eq!(public.status, StatusCode::SEE_OTHER);
    let player = get_with_cookie(&d.app, &here, &ana).await;
    assert_eq!(player.status, StatusCode::FORBIDDEN);
    let forged = post_form(
        &d.app,
        &here,
        &ana,
        form_body(&[("label", "x"), ("_csrf", &csrf)]),
    )
    .await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
    let sam = login_session(&d.app, "sam", arbiter_server::demo::DEMO_PASSWORD).await;
    let desk = get_with_cookie(&d.app, &format!("/c/{ladder}/manage"), &sam).await;
    assert!(desk.text().contains(&format!("href=\"{here}\"")));
    let page = get_with_cookie(&d.app, &here, &sam).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text());
    let sam_csrf = hidden(&page.text(), "_csrf");
    let made = post_form(
        &d.app,
        &here,
        &sam,
        form_body(&[("label", "club forum"), ("_csrf", &sam_csrf)]),
    )
    .await;
    assert_eq!(made.status, StatusCode::OK);
    let html = made.text();
    let at = html
        .find(&format!("{BASE}/calendar/"))
        .expect("the new URL");
    let path = html[at..at + html[at..].find('<').unwrap()]
        .strip_prefix(BASE)
        .unwrap()
        .to_string();
    let (name, _) = parse(&fetch(&d.app, &path).await);
    assert_eq!(name, d.built.ladder.1.name);
    let id_at = html.find(&format!("{here}/")).unwrap() + here.len() + 1;
    let id = html[id_at..id_at + 16].to_string();
    // Ana cannot revoke it; Sam can.
    let refused = post_form(
        &d.app,
        &format!("{here}/{id}/revoke"),
        &ana,
        form_body(&[("_csrf", &csrf)]),
    )
    .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    assert_eq!(fetch(&d.app, &path).await.status, StatusCode::OK);
    let revoked = post_form(
        &d.app,
        &format!("{here}/{id}/revoke"),
        &sam,
        form_body(&[("_csrf", &sam_csrf)]),
    )
    .await;
    assert_eq!(revoked.status, StatusCode::OK);
    assert_eq!(fetch(&d.app, &path).await.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_feed_is_the_same_until_its_competition_changes() {
    let d = demo().await;
    let jordan = token(&d.state, "jordan").await;
    let chess = d.round_robins.chess.0.clone();
    let (path, _) = make_feed(
        &d.app,
        &format!("/api/competitions/{chess}/calendars"),
        &jordan,
        "forum",
    )
    .await;
    let first = fetch(&d.app, &path).await;
    let again = fetch(&d.app, &path).await;
    assert_eq!(first.body, again.body, "the same bytes on the next fetch");
    let tag = first.header("etag").to_string();
    assert!(tag.starts_with('"') && tag.len() == 34, "{tag}");
    assert_eq!(again.header("etag"), tag);
    // Every DTSTAMP is the time of the competition's last event.
    use arbiter_store::EventStore as _;
    let store = d.state.service.store();
    let version = store.version(&chess).await.unwrap();
    let last = store.read(&chess, version, Some(version)).await.unwrap();
    let at: Time = last[0].recorded_at.parse().unwrap();
    let text = first.text();
    let stamps: HashSet<&str> = text
        .split("\r\n")
        .filter(|l| l.starts_with("DTSTAMP:"))
        .collect();
    assert_eq!(
        stamps,
        HashSet::from([format!("DTSTAMP:{}", utc(at)).as_str()])
    );
    // If-None-Match with its tag: 304, nothing sent.
    let if_none_match = |tag: String| {
        let (app, path) = (d.app.clone(), path.clone());
        async move {
            send(
                &app,
                Method::GET,
                &path,
                As::Nobody,
                &[("if-none-match", tag)],
                None,
            )
            .await
        }
    };
    let cached = if_none_match(tag.clone()).await;
    assert_eq!(cached.status, StatusCode::NOT_MODIFIED);
    assert!(cached.body.is_empty());
    // A change: a new deadline for the last round. The feed follows at once.
    let last_round = d.round_robins.chess.1.rounds.len();
    let changed = send(
        &d.app,
        Method::POST,
        &format!("/api/competitions/{chess}/actions"),
        As::Token(&jordan),
        &[("if-match", common::etag(&d.app, &chess).await)],
        Some(&json!({"action": "set-deadline", "round": last_round, "deadline": "2027-01-31"})),
    )
    .await;
    assert!(changed.status.is_success(), "{}", changed.text());
    let after = if_none_match(tag.clone()).await;
    assert_eq!(after.status, StatusCode::OK);
    assert_ne!(after.header("etag"), tag);
    let (_, items) = parse(&after);
    let deadline = find(&items, &format!("Round {last_round} deadline"));
    assert!(
        deadline.start.as_deref().unwrap().starts_with("20270131"),
        "{deadline:?}"
    );
}

/// The descriptions give each time in the competition's zone, as its
/// pages do (ARB-R82); `DTSTART` stays the UTC instant, which calendar
/// applications place in their reader's own zone.
#[tokio::test]
async fn descriptions_read_in_the_competitions_time_zone() {
    let d = demo().await;
    let jordan = token(&d.state, "jordan").await;
    let (ladder_id, ladder, _) = &d.built.ladder;
    let running = ladder.rounds.last().unwrap();
    let n = running.number;
    let (_, before) = competition_feed(&d.app, ladder_id, &jordan).await;
    let utc_words = running.deadline.format("%Y-%m-%d %H:%M UTC").to_string();
    assert!(
        find(&before, &format!("Round {n} deadline"))
            .description
            .contains(&utc_words),
        "{before:?}"
    );
    let set = send(
        &d.app,
        Method::PUT,
        &format!("/api/competitions/{ladder_id}/time-zone"),
        As::Token(&jordan),
        &[],
        Some(&json!({ "time_zone": "Asia/Tokyo" })),
    )
    .await;
    assert_eq!(set.status, StatusCode::OK, "{}", set.text());
    let (_, after) = competition_feed(&d.app, ladder_id, &jordan).await;
    let deadline = find(&after, &format!("Round {n} deadline"));
    let tokyo = (running.deadline + chrono::Duration::hours(9))
        .format("%Y-%m-%d %H:%M JST")
        .to_string();
    assert!(
        deadline.description.contains(&tokyo),
        "{tokyo} in {deadline:?}"
    );
    assert!(!deadline.description.contains("UTC"), "{deadline:?}");
    assert_eq!(
        deadline.start.as_deref(),
        Some(utc(running.deadline).as_str())
    );
    // No description of the feed gives a time in UTC any more.
    for item in &after {
        assert!(!item.description.contains(" UTC"), "{item:?}");
    }
    assert!(
        after
            .iter()
            .filter(|i| i.description.contains(" JST"))
            .count()
            > 1
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// Any text in a name, a summary or a description: every line within
    /// 75 octets and ended by CRLF, and the parser reads the text back as
    /// it was (control characters other than a newline, which TEXT cannot
    /// hold, become spaces; carriage returns go).
    #[test]
    fn any_text_is_written_so_that_it_reads_back(text in "\\PC{0,40}|[\\x00-\\x7f]{0,120}|.{0,300}") {
        use arbiter_service::views::calendar::{Calendar, Entry, Item, Status, When};
        let at: Time = "2026-04-15T23:59:59Z".parse().unwrap();
        let entry = |when| Entry {
            key: "game-1".into(),
            when,
            summary: text.clone(),
            description: text.clone(),
            page: "/c/x".into(),
            status: Status::Open,
        };
        let calendar = Calendar {
            name: text.clone(),
            items: vec![
                Item { competition: "x".into(), player: None, revised: Some(at), entry: entry(When::At(at)) },
                Item { competition: "x".into(), player: None, revised: None, entry: entry(When::Undated) },
            ],
        };
        let ics = calendar.to_ics(BASE, at);
        let answer = Answer {
            status: StatusCode::OK,
            headers: {
                let mut h = axum::http::HeaderMap::new();
                h.insert(header::CONTENT_TYPE, "text/calendar; charset=utf-8".parse().unwrap());
                h
            },
            body: ics.into_bytes(),
        };
        let (name, items) = parse(&answer);
        let want: String = text
            .chars()
            .filter(|c| *c != '\r')
            .map(|c| if c.is_control() && c != '\n' { ' ' } else { c })
            .collect();
        proptest::prop_assert_eq!(&name, &want);
        proptest::prop_assert_eq!(items.len(), 2);
        for i in &items {
            proptest::prop_assert_eq!(&i.summary, &want);
            proptest::prop_assert_eq!(&i.description, &format!("{want}\n{BASE}/c/x"));
        }
    }
}
