//! CSV from the command line: `player import FILE.csv` (all or nothing) and
//! `standings --csv` / `results --csv` for each format, with cells that
//! would start a spreadsheet formula quoted.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{Arbiter, running};

#[test]
fn a_ladder_exports_its_standings_and_results() {
    let a = running();
    let standings = a.ok(&["standings", "--csv"]);
    assert!(
        standings.starts_with("rung,player,wins,losses,ties,ussr,us,last_move,round_status\r\n")
    );
    insta::assert_snapshot!("ladder_standings_csv", standings);
    let results = a.ok(&["results", "--csv"]);
    insta::assert_snapshot!("ladder_results_csv", results);
    // The same rows as JSON and as a table.
    let json = a.run(&["standings", "--json"]).success().json();
    assert_eq!(json[0]["player"], "Ana Morales");
    let table = a.ok(&["standings"]);
    assert!(table.contains("Ana Morales"), "{table}");
}

#[test]
fn a_player_import_is_all_or_nothing_and_names_the_line() {
    let a = running();
    let bad = a.file(
        "players.csv",
        "name,surname\nGreta Nilsson,\nBen Carter,Carter\n",
    );
    let run = a.refused(1, &["player", "import", bad.to_str().unwrap()]);
    assert!(
        run.stderr
            .contains("players.csv line 3: Ben Carter is already registered"),
        "{}",
        run.stderr
    );
    let good = a.file(
        "good.csv",
        "\u{feff}Name,Surname\r\nGreta Nilsson,\r\nHiro Tanaka,Tanaka\r\n",
    );
    let out = a.ok(&["player", "import", good.to_str().unwrap()]);
    assert!(out.contains("Imported 2 players"), "{out}");
    let list = a.run(&["player", "list", "--json"]).success().json();
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"Greta Nilsson") && names.contains(&"Hiro Tanaka"));
}

#[test]
fn exported_cells_never_start_a_formula() {
    let a = running();
    a.ok(&[
        "player",
        "add",
        "=HYPERLINK(\"http://x\",\"y\")",
        "--surname",
        "Hyper",
    ]);
    let csv = a.ok(&["standings", "--csv"]);
    assert!(
        csv.contains("\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""),
        "{csv}"
    );
    // A computed move such as +4 is text too, and quoted.
    for line in csv.lines().skip(1) {
        for cell in line.split(',') {
            let cell = cell.trim_matches('"');
            let formula = cell.starts_with(['=', '+', '@', '\t', '\r'])
                || (cell.starts_with('-') && cell.parse::<i64>().is_err());
            assert!(!formula, "{cell:?} in {line}");
        }
    }
}

#[test]
fn an_xmadn_league_and_a_sunjang_league_export_too() {
    let a = Arbiter::new();
    a.ok(&[
        "league", "create", "xl", "--name", "XL", "--player", "@Ames", "--player", "+Baker",
        "--player", "Clark",
    ]);
    let standings = a.ok(&["-c", "xl", "standings", "--csv"]);
    assert!(
        standings.contains("'@Ames") && standings.contains("'+Baker"),
        "{standings}"
    );
    let results = a.ok(&["-c", "xl", "results", "--csv"]);
    assert!(
        results.starts_with("game,stage,player_a,player_b,"),
        "{results}"
    );
    a.ok(&["sunjang", "create", "sj", "--name", "SJ"]);
    let file = a.file(
        "sj.csv",
        "name,rank,rating,provisional\nKim Minho,5k,1500,no\nLee Sora,2d?,2100,\n",
    );
    let out = a.ok(&["-c", "sj", "player", "import", file.to_str().unwrap()]);
    assert!(out.contains("Imported 2 players"), "{out}");
    let players = a
        .run(&["-c", "sj", "sunjang", "player", "list", "--json"])
        .success()
        .json();
    assert_eq!(players[1]["rank"], "2d");
    assert_eq!(players[1]["provisional"], true);
    let standings = a.ok(&["-c", "sj", "standings", "--csv"]);
    assert!(
        standings.starts_with("season,division,group,place,player,"),
        "{standings}"
    );
    // An XMadn league names its players at creation: no import.
    let run = a
        .run(&["-c", "xl", "player", "import", file.to_str().unwrap()])
        .fails_with(1);
    assert!(
        run.stderr.contains("named when it is created"),
        "{}",
        run.stderr
    );
}
