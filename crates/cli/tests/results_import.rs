//! `arbiter results import FILE.csv [--dry-run]` (issue 18 §2): the
//! results a moderator already keeps in a spreadsheet, for every format,
//! each row decided by the rules in order on a copy and stored in one
//! append, all or nothing; a dry run stores nothing; a row already recorded
//! as the file says is left as it is, so the same file can be imported
//! again as it grows; every refusal names the file, the line and the column.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{Arbiter, running};
use serde_json::Value;

/// FIFA World Cup 2022, Group E, in the order of the draw.
const GROUP_E: [&str; 4] = ["Spain", "Costa Rica", "Germany", "Japan"];

/// The group's six published results, home side first as the schedule
/// gives them or not (a single round robin reads either way round)
/// (<https://www.fifa.com/fifaplus/en/tournaments/mens/worldcup/qatar2022>).
const GROUP_E_RESULTS: &str = "home,away,score,at\n\
Germany,Japan,1-2,2022-11-23\n\
Spain,Costa Rica,7-0,2022-11-23\n\
Japan,Costa Rica,0-1,2022-11-27\n\
Spain,Germany,1-1,2022-11-27\n\
Japan,Spain,2-1,2022-12-01\n\
Costa Rica,Germany,2-4,2022-12-01\n";

fn group_e() -> Arbiter {
    let a = Arbiter::new();
    let mut args = vec![
        "round-robin",
        "create",
        "wc-e",
        "--name",
        "World Cup 2022 Group E",
        "--preset",
        "fifa-world-cup",
    ];
    for team in GROUP_E {
        args.extend(["--player", team]);
    }
    a.ok(&args);
    a.ok(&["round-robin", "start", "--at", "2022-11-20"]);
    a
}

/// What a refusal must leave as it was: the history and the table.
fn stored(a: &Arbiter) -> String {
    format!(
        "{}\n{}",
        a.ok(&["history", "--json"]),
        a.ok(&["standings", "--json"])
    )
}

/// `arbiter results import FILE`, refused with exit 1 and nothing stored.
fn refused(a: &Arbiter, file: &std::path::Path) -> common::Run {
    let before = stored(a);
    let run = a
        .run(&["results", "import", file.to_str().unwrap()])
        .fails_with(1);
    assert_eq!(stored(a), before, "a refused import stored something");
    run
}

fn order(a: &Arbiter) -> Vec<String> {
    let table: Value = a.ok_json(&["standings", "--json"]);
    table
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["player"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_round_robin_takes_the_published_results_and_ranks_them_as_published() {
    let a = group_e();
    let file = a.file("group-e.csv", GROUP_E_RESULTS);
    let path = file.to_str().unwrap();

    // A dry run says what would be stored and stores nothing.
    let before = stored(&a);
    let dry = a.ok(&["results", "import", path, "--dry-run"]);
    assert!(dry.contains("line 3: G"), "{dry}");
    assert!(dry.contains("Spain v Costa Rica: 7-0"), "{dry}");
    assert!(
        dry.contains("Dry run: 6 results would be recorded from"),
        "{dry}"
    );
    assert_eq!(stored(&a), before, "a dry run stored something");

    let done = a.ok(&["results", "import", path]);
    assert!(done.contains("Recorded 6 results from"), "{done}");
    // The published order: Japan 6, Spain 4 (+6), Germany 4 (+1), Costa Rica 3.
    assert_eq!(order(&a), ["Japan", "Spain", "Germany", "Costa Rica"]);

    // The same file again: every row is already recorded, nothing is stored.
    let before = stored(&a);
    let again = a.ok(&["results", "import", path]);
    assert!(
        again.contains("Nothing to record from") && again.contains("6 rows already recorded"),
        "{again}"
    );
    assert_eq!(stored(&a), before, "a repeated import stored something");

    // --json for scripts.
    let json = a.ok_json(&["results", "import", path, "--dry-run", "--json"]);
    assert_eq!(json["unchanged"], 6);
    assert_eq!(json["recorded"], 0);
    assert_eq!(json["dry_run"], true);
}

#[test]
fn a_refused_row_names_its_line_and_column_and_stores_nothing() {
    let a = group_e();
    let cases: &[(&str, &str, &[&str])] = &[
        // A score the preset cannot take, on the last line: the rows before
        // it are not stored either.
        (
            "bad-score.csv",
            "home,away,score\nGermany,Japan,1-2\nSpain,Costa Rica,seven-nil\n",
            &["bad-score.csv line 3, column `score`", "seven-nil"],
        ),
        // A team that is not in the group.
        (
            "unknown.csv",
            "home,away,score\nGermany,Japan,1-2\nSpain,Brazil,1-0\n",
            &["unknown.csv line 3", "Spain-Brazil"],
        ),
        // A game recorded with another result earlier in the file.
        (
            "twice.csv",
            "game,score\nGermany-Japan,1-2\nGermany-Japan,2-1\n",
            &["twice.csv line 3, column `score`", "already has the result"],
        ),
        // No result.
        (
            "empty-result.csv",
            "home,away,score\nGermany,Japan,\n",
            &[
                "empty-result.csv line 2, column `result`",
                "every row needs its result",
            ],
        ),
        // No game.
        (
            "no-game.csv",
            "score\n1-2\n",
            &["no-game.csv line 2, column `game`"],
        ),
        // A column the import does not know.
        (
            "unknown-column.csv",
            "home,away,score,referee\nGermany,Japan,1-2,Someone\n",
            &[
                "unknown-column.csv line 1, column `referee`",
                "unknown column",
            ],
        ),
        // A time that is not one.
        (
            "bad-time.csv",
            "home,away,score,at\nGermany,Japan,1-2,yesterday\n",
            &["bad-time.csv line 2, column `at`", "not a time"],
        ),
        // Minutes out of range.
        (
            "minutes.csv",
            "home,away,score,minutes\nGermany,Japan,1-2,99999999\n",
            &["minutes.csv line 2, column `minutes`"],
        ),
        // A header and nothing else.
        (
            "header-only.csv",
            "home,away,score\n",
            &["nothing to import"],
        ),
        // A cell cut short by a quote never closed.
        (
            "quote.csv",
            "home,away,score\n\"Germany,Japan,1-2\n",
            &["quote.csv line 2", "header names 3 columns"],
        ),
    ];
    for (name, text, words) in cases {
        let file = a.file(name, text);
        refused(&a, &file).stderr_names(words);
    }
    // Bytes that are not UTF-8 (a Latin-1 spreadsheet).
    let latin1 = a.db().with_file_name("latin1.csv");
    std::fs::write(&latin1, b"home,away,score\nM\xfcnchen,Japan,1-2\n").unwrap();
    refused(&a, &latin1).stderr_names(&["latin1.csv line 2", "UTF-8"]);
    // A file larger than an import takes is refused before it is read whole.
    let huge = a.db().with_file_name("huge.csv");
    let mut text = String::from("home,away,score\n");
    while text.len() <= arbiter_service::csv::MAX_BYTES {
        text.push_str("Germany,Japan,1-2\n");
    }
    std::fs::write(&huge, text).unwrap();
    refused(&a, &huge).stderr_names(&["huge.csv"]);
    // Nothing was recorded by any of them.
    assert!(order(&a).len() == 4);
    let results = a.ok(&["results", "--csv"]);
    assert!(!results.contains("1-2"), "{results}");
}

#[test]
fn a_ladder_takes_its_round_results_with_how_each_game_ended() {
    let a = running();
    let results = a.ok(&["results", "--csv"]);
    let scheduled: Vec<Vec<String>> = results
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect::<Vec<_>>())
        .filter(|c| c[4] == "scheduled")
        .collect();
    assert!(scheduled.len() >= 2, "{results}");
    // The first game won by its USSR player on VP, the second by the US
    // side by concession.
    let (g1, ussr1) = (&scheduled[0][0], &scheduled[0][2]);
    let g2 = &scheduled[1][0];
    let csv = format!(
        "game,result,by,vp,turn,note\n{g1},{ussr1},vp,-20,7,\n{g2},us,concession,,5,conceded on the forum\n"
    );
    let file = a.file("round.csv", &csv);
    let out = a.ok(&["results", "import", file.to_str().unwrap()]);
    assert!(out.contains("Recorded 2 results from"), "{out}");
    assert!(out.contains(&format!("{g1}: {ussr1} (USSR) wins")), "{out}");
    let after = a.ok(&["results", "--csv"]);
    let row = |g: &str| {
        after
            .lines()
            .find(|l| l.starts_with(&format!("{g},")))
            .unwrap()
            .to_string()
    };
    // Agreed: the round's deadline has passed when the test runs.
    assert!(row(g1).contains(",USSR win,"), "{}", row(g1));
    assert!(row(g1).contains(",-20,7,"), "{}", row(g1));
    assert!(row(g2).contains("conceded on the forum"), "{}", row(g2));
    // A winner who does not play in the game names the result column.
    let wrong = a.file("wrong.csv", &format!("game,result\n{g1},Nobody Atall\n"));
    refused(&a, &wrong).stderr_names(&["wrong.csv line 2, column `result`", "does not play in"]);
}

#[test]
fn an_xmadn_league_and_a_challengers_event_take_pawns_and_times() {
    // The league: DRR 1 rolled, three of its games from a file, A-B naming
    // their next game.
    let a = Arbiter::new();
    a.ok(&[
        "league",
        "create",
        "xl",
        "--name",
        "L",
        "--player",
        "Anna",
        "--player",
        "Bert",
        "--player",
        "Carl",
        "--at",
        "2026-01-01",
    ]);
    a.ok(&["league", "roll", "--at", "2026-01-02"]);
    // The first three games of DRR 1, by their labels, the pawns in the
    // order of each game's players.
    let view = a.ok_json(&["league", "show", "--json"]);
    let games = view["drrs"][0]["games"].as_array().unwrap().clone();
    let label = |i: usize| games[i]["alias"].as_str().unwrap().to_string();
    let player = |i: usize, k: usize| games[i]["players"][k].as_str().unwrap().to_string();
    let file = a.file(
        "drr1.csv",
        &format!(
            "game,result,at\n{},4-2@20:10,2026-01-03\n{},1-4@18:00,2026-01-04\n{},4-3@25:00,2026-01-05\n",
            label(0),
            label(1),
            label(2)
        ),
    );
    let out = a.ok(&["results", "import", file.to_str().unwrap()]);
    assert!(out.contains("Recorded 3 results from"), "{out}");
    assert!(
        out.contains(&format!("{} 4 – 2 {} (20:10)", player(0, 0), player(0, 1))),
        "{out}"
    );
    let view = a.ok_json(&["league", "show", "--json"]);
    let played: u64 = view["table"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["played"].as_u64().unwrap())
        .sum();
    assert_eq!(played, 6, "{view}");
    // A game already played, with another score: the rule's refusal, with
    // the line.
    let again = a.file(
        "again.csv",
        &format!("game,result\n{},4-0@10:00\n", label(0)),
    );
    refused(&a, &again).stderr_names(&["again.csv line 2"]);
    // A score no game of the rule set can end with.
    let bad = a.file("bad.csv", &format!("game,result\n{},9-9@20:10\n", label(3)));
    refused(&a, &bad).stderr_names(&["bad.csv line 2"]);

    // Challengers: the qualifier played, Game 1 and Game 2 from a file.
    let c = Arbiter::new();
    c.ok(&[
        "challengers",
        "create",
        "xc",
        "--name",
        "T",
        "--player",
        "Anna",
        "--player",
        "Bert",
        "--player",
        "Carl",
    ]);
    c.ok(&[
        "challengers",
        "qualifier",
        "Anna",
        "Bert",
        "Carl",
        "--choose",
        "red/blue",
    ]);
    let next = c.ok_json(&["challengers", "show", "--json"])["next"]["players"].clone();
    let (p, q) = (next[0].as_str().unwrap(), next[1].as_str().unwrap());
    let file = c.file("games.csv", &format!("game,result\n{p}-{q},4-1@12:00\n"));
    let out = c.ok(&["results", "import", file.to_str().unwrap()]);
    assert!(out.contains("Recorded 1 result from"), "{out}");
    let view = c.ok_json(&["challengers", "show", "--json"]);
    assert_eq!(view["games"].as_array().unwrap().len(), 1, "{view}");
}

#[test]
fn a_sunjang_season_takes_its_group_results_by_colour() {
    let a = Arbiter::new();
    // The example league up to season 1's plan.
    let example =
        std::fs::read_to_string(common::workspace_root().join("examples/sunjang-league.arbiter"))
            .unwrap();
    let setup: String = example
        .lines()
        .take_while(|l| !l.starts_with("sunjang season export"))
        .filter(|l| !l.contains("--preview"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(setup.contains("sunjang season plan --at"), "{setup}");
    a.script("setup.arbiter", &setup).success();
    let results = a.ok(&["results", "--csv"]);
    let open: Vec<Vec<&str>> = results
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|c| c.get(5).is_some_and(|r| r.is_empty()))
        .collect();
    assert!(open.len() >= 2, "{results}");
    let csv = format!(
        "black,white,result\n{},{},black\n{},{},jigo\n",
        open[0][3], open[0][4], open[1][3], open[1][4]
    );
    let file = a.file("group.csv", &csv);
    let out = a.ok(&["results", "import", file.to_str().unwrap()]);
    assert!(out.contains("Recorded 2 results from"), "{out}");
    assert!(
        out.contains(&format!(
            "{} (black) – {} (white): black wins",
            open[0][3], open[0][4]
        )),
        "{out}"
    );
    // Again: already recorded, nothing stored.
    let again = a.ok(&["results", "import", file.to_str().unwrap()]);
    assert!(again.contains("2 rows already recorded"), "{again}");
    // White named as black: the rule's refusal, with the line.
    let swapped = a.file(
        "swapped.csv",
        &format!("black,white,result\n{},{},white\n", open[2][4], open[2][3]),
    );
    refused(&a, &swapped).stderr_names(&["swapped.csv line 2"]);
}
