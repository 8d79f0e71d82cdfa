//! `arbiter demo`: the newcomer's first minute. It must build its ladder on
//! an empty database, tell the same story every time, and leave a ladder
//! that every read command can show.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::Arbiter;

#[test]
fn the_demo_builds_and_shows_the_same_ladder_every_time() {
    let a = Arbiter::new();
    let first = a.ok(&["demo"]);
    insta::assert_snapshot!("demo_output", first);
    // A second database gets exactly the same story.
    let b = Arbiter::new();
    assert_eq!(b.ok(&["demo"]), first);
    // A second demo in the same database gets its own competition.
    let again = a.ok(&["demo"]);
    assert!(again.contains("`tws-demo-2`"), "{again}");
}

#[test]
fn the_demo_ladder_has_every_kind_of_event_the_readme_promises() {
    let a = Arbiter::new();
    a.ok(&["demo"]);
    let history = a
        .run(&["-c", "tws-demo", "history", "--json"])
        .success()
        .json();
    let kinds: Vec<&str> = history
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["event"].as_str().unwrap())
        .collect();
    for kind in [
        "player-applied",
        "player-approved",
        "guest-registered",
        "eliminator-volunteered",
        "skip-requested",
        "round-announced",
        "game-added",
        "quick-game-scheduled",
        "result-recorded",
        "round-closed",
    ] {
        assert!(kinds.contains(&kind), "the demo has no {kind}");
    }
    let games = a
        .run(&["-c", "tws-demo", "game", "list", "--json"])
        .success()
        .json();
    let statuses: Vec<&str> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["status"].as_str().unwrap())
        .collect();
    for status in ["played", "agreed", "adjudicated", "scheduled"] {
        assert!(statuses.contains(&status), "no {status} game in the demo");
    }
    let members = a
        .run(&["-c", "tws-demo", "ladder", "show", "--json"])
        .success()
        .json();
    let n = members["rungs"].as_array().unwrap().len();
    assert!((25..=35).contains(&n), "about 30 members, not {n}");
    // Every draw of every round verifies.
    for round in ["1", "2", "3", "4"] {
        a.ok(&["-c", "tws-demo", "draw", "verify", "--round", round]);
    }
}

#[test]
fn the_demo_has_an_xmadn_league_and_a_challengers_event() {
    let a = Arbiter::new();
    a.ok(&["demo"]);
    let league = a
        .run(&["-c", "xmadn-league-demo", "league", "show", "--json"])
        .success()
        .json();
    assert_eq!(league["drrs"].as_array().map(Vec::len), Some(2));
    assert!(
        league["table_explanations"]
            .as_array()
            .is_some_and(|e| !e.is_empty()),
        "every position is explained: {league}"
    );
    assert!(league["rolls"].as_array().is_some_and(|r| r.len() >= 2));
    a.ok(&["-c", "xmadn-league-demo", "roll", "verify"]);
    let ch = a
        .run(&[
            "-c",
            "xmadn-challengers-demo",
            "challengers",
            "show",
            "--json",
        ])
        .success()
        .json();
    assert!(
        ch["champion"].is_string(),
        "the Challengers event is played to its end: {ch}"
    );
    for s in ch["standings"].as_array().into_iter().flatten() {
        assert!(s["at_boards"].as_u64().is_some_and(|n| n >= 2), "{s}");
    }
}
