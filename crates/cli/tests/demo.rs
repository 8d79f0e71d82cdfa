//! `arbiter demo`: the newcomer's first minute. It must build its ladder on
//! an empty database, tell the same story every time, and leave a ladder
//! that every read command can show.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::Arbiter;

#[test]
fn the_compared_demo_is_told_on_the_demo_crates_reference_day() {
    assert_eq!(
        chrono::DateTime::parse_from_rfc3339(common::DEMO_DAY).unwrap(),
        arbiter_demo::reference_today()
    );
}

#[test]
fn the_demo_builds_and_shows_the_same_ladder_every_time() {
    let a = Arbiter::new();
    let first = a.demo();
    insta::assert_snapshot!("demo_output", first);
    // A second database gets exactly the same story.
    let b = Arbiter::new();
    assert_eq!(b.demo(), first);
    // A second demo in the same database gets its own competition.
    let again = a.demo();
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

#[test]
fn the_demo_has_a_sunjang_league_of_three_seasons() {
    let a = Arbiter::new();
    a.ok(&["demo"]);
    let c = ["-c", "sunjang-demo"];
    let list = a.ok_json(&["competition", "list", "--json"]);
    let row = list
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "sunjang-demo")
        .unwrap_or_else(|| panic!("no sunjang-demo in {list}"));
    assert_eq!(row["format"], "sunjang-league");
    assert_eq!(row["rounds"], 3);
    let season = |n: &str| {
        a.run(&[&c[..], &["sunjang", "season", "show", n, "--json"]].concat())
            .success()
            .json()
    };
    // Seasons 1 and 2: closed, every game played, a champion crowned.
    for n in ["1", "2"] {
        let s = season(n);
        assert_eq!(s["status"], "closed", "season {n}");
        assert_eq!(s["unfinished_games"], 0, "season {n}");
        let f = &s["final_round"];
        assert_eq!(f["state"], "champion", "season {n}: {f}");
        assert!(f["champion"].is_string(), "season {n}: {f}");
        assert!(
            f["explanation"]["text"]
                .as_str()
                .is_some_and(|t| t.contains("champion")),
            "season {n}: {f}"
        );
        assert_eq!(f["players"].as_array().map(Vec::len), Some(3), "{f}");
    }
    // Season 3 is being played; there is no fourth.
    let s3 = season("3");
    assert_eq!(s3["status"], "planned");
    assert!(s3["unfinished_games"].as_u64().is_some_and(|n| n > 0));
    a.run(&[&c[..], &["sunjang", "season", "show", "4"]].concat())
        .fails_with(1)
        .stderr_names(&["there is no season 4"]);

    // `season moves` explains every placement of every plan, each by its rule.
    for n in ["1", "2", "3"] {
        let s = season(n);
        let mut players: Vec<String> = s["divisions"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|d| d["groups"].as_array().unwrap())
            .flat_map(|g| g["players"].as_array().unwrap())
            .map(|p| p["player"].as_str().unwrap().to_string())
            .collect();
        players.sort();
        let moves = a
            .run(&[&c[..], &["sunjang", "season", "moves", n, "--json"]].concat())
            .success()
            .json();
        let mut placed: Vec<String> = moves
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                let p = m["player"].as_str().unwrap();
                let e = &m["explanation"];
                assert!(
                    e["text"]
                        .as_str()
                        .is_some_and(|t| t.starts_with(&format!("{p}: "))),
                    "season {n}: {m}"
                );
                assert!(
                    e["clause"]
                        .as_str()
                        .is_some_and(|c| c.starts_with("Sunjang ")),
                    "season {n}: {p}'s placement names no rule: {m}"
                );
                p.to_string()
            })
            .collect();
        placed.sort();
        assert_eq!(placed, players, "season {n}: one placement per player");
        let text = a.ok(&[&c[..], &["sunjang", "season", "moves", n]].concat());
        let lines = text.lines().count();
        let notes = s["notes"].as_array().unwrap().len();
        assert_eq!(lines, notes + placed.len(), "season {n}:\n{text}");
        assert!(
            text.lines().all(|l| l.contains(" [Sunjang ")),
            "season {n}: a line without its clause:\n{text}"
        );
    }
    // Between seasons players withdraw (not placed again; a lost merit is
    // noted, B.4), new players join, promotions by rank fill the space.
    let withdrawn: Vec<String> = a
        .run(&[&c[..], &["sunjang", "player", "list", "--json"]].concat())
        .success()
        .json()
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["withdrawn"] == true)
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(withdrawn.len(), 4, "{withdrawn:?}");
    let placed = |n: &str| -> Vec<String> {
        season(n)["placements"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["player"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        [placed("1").len(), placed("2").len(), placed("3").len()],
        [60, 61, 60],
        "60 registered, then 3 withdraw and 4 join, then 1 withdraws"
    );
    for w in &withdrawn {
        assert!(!placed("3").contains(w), "{w} withdrew but is placed");
    }
    let moves2 = a.ok(&[&c[..], &["sunjang", "season", "moves", "2"]].concat());
    for what in ["new player", "rule C.5", "rule B.1", "rule B.2/B.3"] {
        assert!(
            moves2.contains(what),
            "no {what:?} in season 2's moves:\n{moves2}"
        );
    }
    let moves3 = a.ok(&[&c[..], &["sunjang", "season", "moves", "3"]].concat());
    assert!(
        moves3.contains("withdrew: 1 direct promotion(s) from B lost, not passed on (B.4)"),
        "{moves3}"
    );
}

/// The actions the README suggests on the demo's running round, as of `at`
/// (none: the real clock): no game is overdue, the deadline is weeks ahead
/// and no event of any demo competition lies after the day it was built
/// for; a moderator records a result, the close is previewed early, and a
/// what-if of every open game shows the ladder after the round (issue 15
/// §1: a demo dated 2025 refused all of these once its deadline passed).
fn the_readme_actions_work(a: &Arbiter, at: Option<chrono::DateTime<chrono::Utc>>) {
    let stamp = at.map(|t| t.to_rfc3339());
    let run = |args: &[&str]| -> String {
        let mut all: Vec<&str> = Vec::new();
        if let Some(s) = &stamp {
            all.extend(["--at", s.as_str()]);
        }
        all.extend(args);
        a.ok(&all)
    };
    let today = at.unwrap_or_else(chrono::Utc::now);
    run(&["demo"]);
    let round: serde_json::Value =
        serde_json::from_str(&run(&["-c", "tws-demo", "round", "show", "--json"])).unwrap();
    assert_eq!(round["number"], 4, "{round}");
    assert_eq!(round["overdue"], serde_json::json!([]), "{round}");
    let deadline =
        chrono::NaiveDate::parse_from_str(round["deadline"].as_str().unwrap(), "%Y-%m-%d").unwrap();
    let weeks_ahead = (deadline - today.date_naive()).num_days();
    assert!(
        weeks_ahead >= 21,
        "the running round's deadline {deadline} is only {weeks_ahead} days after {today}"
    );
    for id in [
        "tws-demo",
        "xmadn-league-demo",
        "xmadn-challengers-demo",
        "sunjang-demo",
    ] {
        let history: serde_json::Value =
            serde_json::from_str(&run(&["-c", id, "history", "--json", "--limit", "100000"]))
                .unwrap();
        for h in history.as_array().unwrap() {
            let t = chrono::DateTime::parse_from_rfc3339(h["time"].as_str().unwrap()).unwrap();
            assert!(
                t <= today + chrono::Duration::seconds(1),
                "{id}: event {} at {t} lies after the day the demo was built for ({today})",
                h["seq"]
            );
        }
    }
    let open: Vec<(String, String)> = round["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["result"].is_null())
        .map(|g| {
            (
                g["id"].as_str().unwrap().to_string(),
                g["ussr"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(open.len() >= 3, "the running round has open games: {round}");
    let (first, ussr) = &open[0];
    let recorded = run(&[
        "-c", "tws-demo", "result", "record", first, "--winner", ussr, "--by", "vp", "--turn", "6",
    ]);
    assert!(recorded.contains("USSR win"), "{recorded}");
    let preview = run(&[
        "-c",
        "tws-demo",
        "round",
        "close",
        "--preview",
        "--early",
        "--reason",
        "to see the re-sort",
    ]);
    assert!(
        preview.contains("PREVIEW") && preview.contains("Champion:"),
        "{preview}"
    );
    let mut what_if = vec!["-c", "tws-demo", "what-if"];
    let results: Vec<String> = open[1..].iter().map(|(g, _)| format!("{g}=ussr")).collect();
    for r in &results {
        what_if.extend(["--result", r.as_str()]);
    }
    let after = run(&what_if);
    assert!(
        after.contains("What if") && after.contains("rung"),
        "{after}"
    );
}

#[test]
fn the_readme_actions_work_on_the_demo_built_today() {
    the_readme_actions_work(&Arbiter::new(), None);
}

#[test]
fn the_readme_actions_work_on_the_demo_built_a_year_from_now() {
    let later = chrono::Utc::now() + chrono::Duration::days(365);
    the_readme_actions_work(&Arbiter::new(), Some(later));
}
