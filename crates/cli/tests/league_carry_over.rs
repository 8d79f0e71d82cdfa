//! `arbiter league carry-over FILE [--dry-run] [--source TEXT]` (issue 18
//! §1; ruling ARB-R80): an XMadn league's double round-robins already
//! played, carried over from its records.
//!
//! The league of `examples/xmadn-league.arbiter` plays DRR 1 and DRR 2 (two
//! games of DRR 2 cancelled by consent). Its games, as a forum thread lists
//! them, are the fixture `tests/carry-over/xmadn-spring-league.csv`.
//! Carried into a new league of the same three players, the table, each
//! game and the phase are the played league's, every DRR's positions are
//! explained by the records, and the playoff starts the same. Hostile files
//! are refused naming the line and column, with nothing stored.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::PathBuf;

use common::{Arbiter, assert_unchanged};
use serde_json::Value;

const EXAMPLE: &str = "examples/xmadn-league.arbiter";
const SOURCE: &str = "the club forum's spring thread";

fn fixture() -> PathBuf {
    common::workspace_root().join("crates/cli/tests/carry-over/xmadn-spring-league.csv")
}

/// The example league up to its playoff: DRR 1 and DRR 2 played.
fn played() -> Arbiter {
    let a = Arbiter::new();
    let text = std::fs::read_to_string(common::workspace_root().join(EXAMPLE)).unwrap();
    let upto = text
        .find("league playoff start")
        .expect("the example starts a playoff");
    a.script("upto-playoff.arbiter", &text[..upto]).success();
    a
}

/// The double round-robins of `a` as a carry-over file.
fn records_of(a: &Arbiter) -> String {
    let v = a.ok_json(&["-c", "xm-league", "league", "show", "--json"]);
    let mut out = String::from("drr,game,player_1,player_2,pawns_1,pawns_2,time,cancelled,at\n");
    for d in v["drrs"].as_array().unwrap() {
        if d["status"] != "scheduled" {
            continue;
        }
        for (k, g) in d["games"].as_array().unwrap().iter().enumerate() {
            let players: Vec<&str> = g["players"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap())
                .collect();
            let (pawns, time, note) = match g["status"].as_str().unwrap() {
                "played" => {
                    let (x, y) = g["score"].as_str().unwrap().split_once('-').unwrap();
                    (
                        [x.to_string(), y.to_string()],
                        g["time"].as_str().unwrap().to_string(),
                        String::new(),
                    )
                }
                "cancelled" => (
                    [String::new(), String::new()],
                    String::new(),
                    g["note"].as_str().unwrap().to_string(),
                ),
                _ => ([String::new(), String::new()], String::new(), String::new()),
            };
            out.push_str(
                &[
                    d["number"].to_string(),
                    (k + 1).to_string(),
                    common::csv_cell(players[0]),
                    common::csv_cell(players[1]),
                    pawns[0].clone(),
                    pawns[1].clone(),
                    time,
                    common::csv_cell(&note),
                    String::new(),
                ]
                .join(","),
            );
            out.push('\n');
        }
    }
    out
}

/// A new league of the example's three players, nothing rolled.
fn fresh() -> Arbiter {
    let a = Arbiter::new();
    a.ok(&[
        "league",
        "create",
        "xm-league",
        "--name",
        "XMadn Spring League",
        "--player",
        "Ana Morales",
        "--player",
        "Ben Carter",
        "--player",
        "Chloé Dubois",
        "--at",
        "2026-03-01",
    ]);
    a
}

fn carry(a: &Arbiter, file: &str, extra: &[&str]) -> common::Run {
    let mut args = vec![
        "-c",
        "xm-league",
        "--at",
        "2026-04-11T09:00:00Z",
        "league",
        "carry-over",
        file,
        "--source",
        SOURCE,
    ];
    args.extend(extra);
    a.run_as("Jordan Park", &args)
}

fn show(a: &Arbiter) -> Value {
    a.ok_json(&["-c", "xm-league", "league", "show", "--json"])
}

#[test]
fn the_fixture_is_the_examples_two_double_round_robins() {
    let text = records_of(&played());
    common::assert_fixture(&fixture(), &text, "the example's DRR 1 and DRR 2");
}

#[test]
fn a_carried_league_is_the_league_that_played() {
    let original = played();
    let copy = fresh();
    let out = carry(&copy, fixture().to_str().unwrap(), &[])
        .success()
        .stdout;
    assert!(
        out.contains(
            "Carried over 2 double round-robin(s), 10 games played, 2 cancelled and 0 still to play"
        ),
        "{out}"
    );
    let (want, got) = (show(&original), show(&copy));
    assert_eq!(
        got["table"], want["table"],
        "the same table and explanations"
    );
    assert_eq!(got["phase"], want["phase"]);
    assert_eq!(got["determination"], want["determination"]);
    for (d, e) in want["drrs"]
        .as_array()
        .unwrap()
        .iter()
        .zip(got["drrs"].as_array().unwrap())
    {
        assert_eq!(d["positions"], e["positions"]);
        let strip = |g: &Value| {
            let mut g = g.clone();
            g.as_object_mut().unwrap().remove("playable");
            g
        };
        let (a, b): (Vec<Value>, Vec<Value>) = (
            d["games"].as_array().unwrap().iter().map(strip).collect(),
            e["games"].as_array().unwrap().iter().map(strip).collect(),
        );
        assert_eq!(a, b, "DRR {}", d["number"]);
        let why = e["positions_explanation"]["text"].as_str().unwrap();
        assert!(
            why.contains(&format!(
                "as the league's records give them, carried over on 2026-04-11 (source: {SOURCE}; entered by Jordan Park)"
            )),
            "{why}"
        );
    }
    // Both go on alike: the same playoff.
    let start = [
        "-c",
        "xm-league",
        "--at",
        "2026-04-12",
        "league",
        "playoff",
        "start",
        "--colours",
        "green/yellow",
    ];
    original.ok(&start);
    copy.ok(&start);
    assert_eq!(show(&copy)["playoffs"], show(&original)["playoffs"]);
    let history = copy.ok(&["-c", "xm-league", "history"]);
    assert!(
        history.contains(&format!(
            "2 double round-robin(s) carried over from the records (10 games played; source: {SOURCE}; entered by Jordan Park; ARB-R80)"
        )),
        "{history}"
    );
}

#[test]
fn a_dry_run_stores_nothing() {
    let a = fresh();
    let before = a.stored_every();
    let out = carry(&a, fixture().to_str().unwrap(), &["--dry-run"])
        .success()
        .stdout;
    assert!(
        out.contains("Dry run: would carry over 2 double round-robin(s)"),
        "{out}"
    );
    assert_unchanged(&before, &a.stored_every(), "a dry run");
}

#[test]
fn hostile_files_are_refused_naming_the_line_and_column_and_nothing_is_stored() {
    let good = std::fs::read_to_string(fixture()).unwrap();
    let lines: Vec<&str> = good.lines().collect();
    let a = fresh();
    let before = a.stored_every();
    let refuse = |name: &str, text: &str, words: &[&str]| {
        let path = a.file(name, text);
        let run = carry(&a, path.to_str().unwrap(), &[]).fails_with(1);
        for w in words {
            assert!(run.stderr.contains(w), "{name}: {w:?} in {}", run.stderr);
        }
        assert!(
            run.stderr.contains("nothing was carried over"),
            "{}",
            run.stderr
        );
        assert_unchanged(&before, &a.stored_every(), name);
    };
    let on = |line: usize, column: usize, value: &str| {
        let mut out: Vec<String> = lines.iter().map(|s| (*s).to_string()).collect();
        let mut cells: Vec<String> = out[line - 1].split(',').map(str::to_string).collect();
        cells[column] = value.to_string();
        out[line - 1] = cells.join(",");
        out.join("\n") + "\n"
    };
    let without = |line: usize| {
        let mut out: Vec<&str> = lines.clone();
        out.remove(line - 1);
        out.join("\n") + "\n"
    };
    // A score the rule set forbids: nobody brought all his pawns home.
    refuse(
        "score.csv",
        &on(2, 4, "3"),
        &["line 2, game 1 of DRR 1", "XM-R9"],
    );
    // The two players of game 2 swapped: not the schedule's order.
    let swapped = {
        let mut out: Vec<String> = lines.iter().map(|s| (*s).to_string()).collect();
        let mut cells: Vec<String> = out[2].split(',').map(str::to_string).collect();
        cells.swap(2, 3);
        out[2] = cells.join(",");
        out.join("\n") + "\n"
    };
    refuse(
        "swapped.csv",
        &swapped,
        &["line 3, column `player_1`", "by the schedule"],
    );
    refuse(
        "stranger.csv",
        &on(2, 2, "Dora Exner"),
        &[
            "line 2, column `player_1`",
            "not one of the league's players",
        ],
    );
    refuse(
        "pawns.csv",
        &on(2, 4, "many"),
        &["line 2, column `pawns_1`"],
    );
    refuse(
        "time.csv",
        &on(2, 6, ""),
        &["line 2, column `time`", "XM-R9"],
    );
    refuse(
        "no-game-1.csv",
        &without(2),
        &["column `game`", "no game 1"],
    );
    refuse(
        "twice.csv",
        &(good.clone() + lines[1] + "\n"),
        &["column `game`", "already on line 2"],
    );
    // DRR 1's game 6 still to play, but DRR 2 follows.
    let open = {
        let mut out: Vec<String> = lines.iter().map(|s| (*s).to_string()).collect();
        let mut cells: Vec<String> = out[6].split(',').map(str::to_string).collect();
        cells[4] = String::new();
        cells[5] = String::new();
        cells[6] = String::new();
        out[6] = cells.join(",");
        out.join("\n") + "\n"
    };
    refuse(
        "open.csv",
        &open,
        &["line 7, game 6 of DRR 1", "DRR 2 follows it"],
    );
    refuse("drr-9.csv", &on(2, 0, "9"), &["line 2, column `drr`"]);
}

#[test]
fn only_a_league_with_nothing_rolled_is_carried_over() {
    let a = played();
    let before = a.stored_every();
    let run = carry(&a, fixture().to_str().unwrap(), &[]).fails_with(1);
    assert!(
        run.stderr.contains("before its first double round-robin"),
        "{}",
        run.stderr
    );
    assert_unchanged(&before, &a.stored_every(), "a league that played");
}
