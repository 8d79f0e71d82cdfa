//! `arbiter sunjang carry-over FILE --season N [--dry-run] [--source TEXT]`
//! (issue 18 §1; rulings ARB-R77..ARB-R79): a Sunjang league carried over
//! from its last season's records plans its next season as the league that
//! played it does.
//!
//! The league of `examples/sunjang-league.arbiter` plays season 1 (sixteen
//! players in A1, A2 and B), closes it, decides its final round (Kim
//! Min-jun champion), loses Lukas Weber and gains Ana Costa. Its season 1,
//! written as a moderator would copy it from the published tables, is the
//! fixture `tests/carry-over/sunjang-season-1.csv` (one row a player: his
//! figures, group, place, gamepoints, SODOS, the results by name, withdrawn,
//! champion). Carried into a new league, with Ana Costa registered after
//! it, the plan of season 2 is the played league's: the same divisions,
//! groups, seeds and placements, each placement that reads season 1
//! citing the carried records; the champion defends the title. Hostile
//! files are refused naming the line and column, with nothing stored.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::HashMap;
use std::path::PathBuf;

use common::{Arbiter, assert_unchanged};
use serde_json::Value;

const EXAMPLE: &str = "examples/sunjang-league.arbiter";
const SOURCE: &str = "the club forum's season 1 tables";
const ANA: [&str; 8] = [
    "sunjang",
    "player",
    "add",
    "Ana Costa",
    "--rank",
    "4k",
    "--rating",
    "1960",
];

fn fixture() -> PathBuf {
    common::workspace_root().join("crates/cli/tests/carry-over/sunjang-season-1.csv")
}

/// The example league up to the planning of season 2: season 1 played,
/// closed, its final decided, Lukas Weber withdrawn, Ana Costa added.
fn played() -> Arbiter {
    let a = Arbiter::new();
    let text = std::fs::read_to_string(common::workspace_root().join(EXAMPLE)).unwrap();
    let upto = text
        .find("# --- Season 2")
        .expect("the example plans season 2");
    a.script("upto-season-2.arbiter", &text[..upto]).success();
    a
}

/// Season 1 of `a` as a carry-over file: each player's figures now, his
/// group, place, gamepoints and SODOS from the season's tables, his results
/// from the crosstables, whether he has withdrawn, the champion.
fn records_of(a: &Arbiter, champion: &str) -> String {
    let season = a.ok_json(&["-c", "sj", "sunjang", "season", "show", "1", "--json"]);
    let list = a.ok_json(&["-c", "sj", "sunjang", "player", "list", "--json"]);
    let players: HashMap<String, Value> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap().to_string(), p.clone()))
        .collect();
    let mut out = String::from(
        "name,rank,provisional,rating,corr_rank,corr_rating,group,place,gamepoints,sodos,beat,jigo,both_forfeit,withdrawn,champion\n",
    );
    for d in season["divisions"].as_array().unwrap() {
        for g in d["groups"].as_array().unwrap() {
            let rows = g["players"].as_array().unwrap();
            let names: Vec<&str> = rows.iter().map(|r| r["player"].as_str().unwrap()).collect();
            let cells = g["cells"].as_array().unwrap();
            let at = |i: usize, j: usize| cells[i][j].as_str().unwrap().to_string();
            for (i, r) in rows.iter().enumerate() {
                let name = names[i];
                let p = &players[name];
                let pick = |f: &dyn Fn(usize) -> bool| {
                    (0..names.len())
                        .filter(|&j| j != i && f(j))
                        .map(|j| names[j])
                        .collect::<Vec<_>>()
                        .join(";")
                };
                let beat = pick(&|j| matches!(at(i, j).as_str(), "1" | "+"));
                let jigo = pick(&|j| at(i, j) == "½");
                let both = pick(&|j| at(i, j) == "-" && at(j, i) == "-");
                let opt = |v: &Value| match v {
                    Value::Null => String::new(),
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                let yes = |b: bool| if b { "yes" } else { "" };
                let line = [
                    common::csv_cell(name),
                    opt(&p["rank"]),
                    yes(p["provisional"] == true).to_string(),
                    opt(&p["rating"]),
                    opt(&p["corr_rank"]),
                    opt(&p["corr_rating"]),
                    g["id"].as_str().unwrap().to_string(),
                    r["place"].to_string(),
                    opt(&r["gamepoints"]),
                    opt(&r["sodos"]),
                    common::csv_cell(&beat),
                    common::csv_cell(&jigo),
                    common::csv_cell(&both),
                    yes(p["withdrawn"] == true).to_string(),
                    yes(name == champion).to_string(),
                ];
                out.push_str(&line.join(","));
                out.push('\n');
            }
        }
    }
    out
}

/// A new league with nobody registered.
fn fresh() -> Arbiter {
    let a = Arbiter::new();
    a.ok(&[
        "sunjang",
        "create",
        "sj",
        "--name",
        "Sunjang Baduk League",
        "--at",
        "2026-08-01",
    ]);
    a
}

fn carry(a: &Arbiter, file: &str, extra: &[&str]) -> common::Run {
    let mut args = vec![
        "-c",
        "sj",
        "--at",
        "2026-08-02T09:00:00Z",
        "sunjang",
        "carry-over",
        file,
        "--source",
        SOURCE,
    ];
    args.extend(extra);
    a.run_as("Jordan Park", &args)
}

/// The fixture carried over into a new league, Ana Costa added after it.
fn carried() -> Arbiter {
    let a = fresh();
    let f = fixture();
    carry(&a, f.to_str().unwrap(), &["--season", "1"]).success();
    a.ok(&[&["-c", "sj"][..], &ANA[..], &["--at", "2026-08-25"][..]].concat());
    a
}

fn preview(a: &Arbiter) -> Value {
    a.ok_json(&[
        "-c",
        "sj",
        "--at",
        "2026-09-01",
        "sunjang",
        "season",
        "plan",
        "--preview",
        "--json",
    ])
}

#[test]
fn the_fixture_is_season_1_of_the_example_as_its_tables_give_it() {
    let text = records_of(&played(), "Kim Min-jun");
    common::assert_fixture(&fixture(), &text, "the example's season 1");
}

#[test]
fn season_2_is_planned_from_the_carried_season_as_from_the_played_one() {
    let want = preview(&played());
    let got = preview(&carried());
    assert_eq!(want["number"], 2);
    assert_eq!(got["number"], 2, "the season after the carried season 1");
    let groups = |v: &Value| -> Vec<(String, Vec<String>)> {
        v["divisions"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|d| d["groups"].as_array().unwrap().iter())
            .map(|g| {
                (
                    g["id"].as_str().unwrap().to_string(),
                    g["players"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|p| p["player"].as_str().unwrap().to_string())
                        .collect(),
                )
            })
            .collect()
    };
    assert_eq!(groups(&got), groups(&want), "the same groups");
    // Placements are listed in registration order, which differs: the
    // carried players are registered in the file's order.
    let placements = |v: &Value| -> HashMap<String, Value> {
        v["placements"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p["player"].as_str().unwrap().to_string(), p.clone()))
            .collect()
    };
    let (w, g) = (placements(&want), placements(&got));
    assert_eq!(w.len(), 16, "15 of season 1 and Ana Costa");
    assert_eq!(g.len(), w.len());
    let citation = format!(
        " (the figures of season 1, carried over on 2026-08-02 (source: {SOURCE}; entered by Jordan Park))"
    );
    let mut cited = 0;
    for (name, x) in &w {
        let y = &g[name];
        assert_eq!(x["group"], y["group"], "{name}");
        assert_eq!(x["seed"], y["seed"], "{name}");
        let (tx, ty) = (
            x["explanation"]["text"].as_str().unwrap(),
            y["explanation"]["text"].as_str().unwrap(),
        );
        if ty == tx {
            assert_eq!(name, "Ana Costa", "only the new player reads no season 1");
        } else {
            assert_eq!(ty, format!("{tx}{citation}"), "{name}");
            assert!(
                y["explanation"]["rulings"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|r| r == "ARB-R77")
            );
            cited += 1;
        }
    }
    assert_eq!(cited, 15);
    // The promotions and demotions the example announces.
    let text_of = |name: &str| g[name]["explanation"]["text"].as_str().unwrap().to_string();
    assert!(
        text_of("Ana Costa").contains("promotion by rank"),
        "{}",
        text_of("Ana Costa")
    );
}

#[test]
fn the_carried_champion_defends_the_title_and_the_history_says_so() {
    let a = carried();
    let history = a.ok(&["-c", "sj", "history"]);
    assert!(
        history.contains(&format!(
            "season 1 carried over from the records (16 players in 2 divisions, 1 withdrawn, defending champion Kim Min-jun; source: {SOURCE}; entered by Jordan Park; ARB-R77)"
        )),
        "{history}"
    );
}

#[test]
fn the_carry_over_shows_the_tables_and_a_dry_run_stores_nothing() {
    let a = fresh();
    let before = a.stored_every();
    let f = fixture();
    let out = carry(&a, f.to_str().unwrap(), &["--season", "1", "--dry-run"])
        .success()
        .stdout;
    assert_unchanged(&before, &a.stored_every(), "a dry run");
    assert!(out.contains("Group A1"), "{out}");
    assert!(
        out.contains("Division A, merged ranking (SJ-R5): "),
        "{out}"
    );
    assert!(out.contains("Defending champion: Kim Min-jun"), "{out}");
    assert!(
        out.contains("Dry run: would carry over season 1 (16 players in 2 divisions)"),
        "{out}"
    );
    let out = carry(&a, f.to_str().unwrap(), &["--season", "1"])
        .success()
        .stdout;
    assert!(out.contains("the next season planned is season 2"), "{out}");
}

#[test]
fn hostile_files_are_refused_naming_the_line_and_column_and_nothing_is_stored() {
    let good = std::fs::read_to_string(fixture()).unwrap();
    let lines: Vec<&str> = good.lines().collect();
    let a = fresh();
    let before = a.stored_every();
    let refuse = |name: &str, text: &str, season: &str, words: &[&str]| {
        let path = a.file(name, text);
        let run = carry(&a, path.to_str().unwrap(), &["--season", season]).fails_with(1);
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
    // One cell changed on a line (3: the second player).
    let on = |line: usize, column: usize, value: &str| {
        let mut out: Vec<String> = lines.iter().map(|s| (*s).to_string()).collect();
        let mut cells: Vec<String> = out[line - 1].split(',').map(str::to_string).collect();
        cells[column] = value.to_string();
        out[line - 1] = cells.join(",");
        out.join("\n") + "\n"
    };
    let with = |column: usize, value: &str| on(3, column, value);
    refuse(
        "points.csv",
        &with(8, "3.3"),
        "1",
        &["line 3, column `gamepoints`", "whole or half"],
    );
    refuse(
        "many.csv",
        &with(8, "40"),
        "1",
        &["line 3, column `gamepoints`", "more than his"],
    );
    refuse(
        "sodos.csv",
        &with(9, "1/3"),
        "1",
        &["line 3, column `sodos`"],
    );
    refuse(
        "wrong-sodos.csv",
        &with(9, "99"),
        "1",
        &["line 3, column `sodos`", "SJ-R12"],
    );
    refuse("place.csv", &with(7, "9"), "1", &["line 3, column `place`"]);
    refuse("group.csv", &with(6, "Q7"), "1", &["column `group`"]);
    refuse(
        "stranger.csv",
        &with(10, "Nobody Known"),
        "1",
        &["line 3, column `beat`", "not a player of the file"],
    );
    refuse(
        "formula.csv",
        &with(0, "=cmd()"),
        "1",
        &["line 3, column `name`", "formula"],
    );
    refuse(
        "champions.csv",
        &on(2, 14, "yes"),
        "1",
        &["line 3, column `champion`", "already the player on line 2"],
    );
    refuse("empty.csv", "", "1", &["empty"]);
    refuse("season-0.csv", &good, "0", &["--season", "numbered from 1"]);
    // The results among level players removed: the third criterion needs them.
    let stripped: String = lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                return format!("{l}\n");
            }
            let mut c: Vec<&str> = l.split(',').collect();
            c[10] = "";
            c[11] = "";
            c[12] = "";
            c.join(",") + "\n"
        })
        .collect();
    let path = a.file("stripped.csv", &stripped);
    let run = carry(&a, path.to_str().unwrap(), &["--season", "1"]);
    // Season 1's tables may or may not have players level on both; either
    // the file is accepted without them, or refused naming the criterion.
    let level = lines.iter().skip(1).enumerate().any(|(i, x)| {
        let c: Vec<&str> = x.split(',').collect();
        lines.iter().skip(i + 2).any(|y| {
            let d: Vec<&str> = y.split(',').collect();
            c[6] == d[6] && c[8] == d[8] && c[9] == d[9]
        })
    });
    if level {
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert!(
            run.stderr.contains("third main criterion"),
            "{}",
            run.stderr
        );
        assert_unchanged(&before, &a.stored_every(), "stripped");
    } else {
        assert_eq!(run.code, 0, "no player level with another: {}", run.stderr);
    }
}

#[test]
fn only_an_empty_sunjang_league_is_carried_over() {
    let a = played();
    let f = fixture();
    let before = a.stored_every();
    let run = carry(&a, f.to_str().unwrap(), &["--season", "1"]).fails_with(1);
    assert!(
        run.stderr.contains("before anyone is registered"),
        "{}",
        run.stderr
    );
    assert_unchanged(&before, &a.stored_every(), "a league with players");
    let b = Arbiter::new();
    b.ok(&[
        "competition",
        "create",
        "tws",
        "--name",
        "Ladder",
        "--at",
        "2026-03-01",
    ]);
    let run = b
        .run(&[
            "-c",
            "tws",
            "sunjang",
            "carry-over",
            f.to_str().unwrap(),
            "--season",
            "1",
        ])
        .fails_with(1);
    assert!(!run.stderr.is_empty());
}
