//! `arbiter what-if` for an XMadn league and a Sunjang league, and
//! `arbiter stats --all`, with the real binary: snapshots of the output,
//! `--json`, nothing stored (the competition list with its versions is
//! unchanged), and bad input.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::Arbiter;

fn demo() -> Arbiter {
    let a = Arbiter::new();
    a.demo();
    a
}

/// One double round-robin and no playoff.
const ONE_DRR_NO_PLAYOFF: &str = "format = \"xmadn-league\"\n\
double_round_robins = 1\n\
\n\
[playoff]\n\
format = \"none\"\n";

#[test]
fn what_if_on_a_running_xmadn_league() {
    let a = Arbiter::new();
    let rules = a.file("league.toml", ONE_DRR_NO_PLAYOFF);
    let rules = rules.to_string_lossy().into_owned();
    a.ok(&[
        "league",
        "create",
        "xl",
        "--name",
        "Test League",
        "--player",
        "Anna",
        "--player",
        "Bert",
        "--player",
        "Jean-Luc",
        "--at",
        "2026-01-01",
        "--rules",
        &rules,
    ]);
    a.ok(&["league", "roll", "--at", "2026-01-02"]);
    let v = a.ok_json(&["league", "show", "--json"]);
    let g = v["drrs"][0]["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["playable"] == true)
        .unwrap()
        .clone();
    let key = format!(
        "{}-{}=4-2@20:10",
        g["players"][0].as_str().unwrap(),
        g["players"][1].as_str().unwrap()
    );
    let before = a.ok(&["competition", "list", "--json"]);
    let out = a.ok(&["what-if", "--result", &key, "--at", "2026-01-03"]);
    insta::assert_snapshot!("what_if_xmadn", out);
    let j = a.ok_json(&["what-if", "--result", &key, "--json", "--at", "2026-01-03"]);
    assert_eq!(j["format"], "xmadn-league");
    assert_eq!(j["league"]["table"].as_array().unwrap().len(), 3);
    assert_eq!(
        a.ok(&["competition", "list", "--json"]),
        before,
        "nothing stored"
    );
    // The same result for real gives the same table.
    a.ok(&[
        "league",
        "result",
        g["players"][0].as_str().unwrap(),
        g["players"][1].as_str().unwrap(),
        "--pawns",
        "4-2",
        "--time",
        "20:10",
        "--at",
        "2026-01-03",
    ]);
    let real = a.ok_json(&["league", "show", "--json"]);
    assert_eq!(real["table"], j["league"]["table"]);
    assert_eq!(
        real["table_explanations"],
        j["league"]["table_explanations"]
    );
    // Bad input.
    a.run(&["what-if", "--result", "Anna-Bert"]).fails_with(2);
    a.run(&["what-if", "--result", "Anna-Nobody=4-2@20:10"])
        .fails_with(1)
        .stderr_names(&["A-B"]);
    a.run(&["what-if", "--result", "Anna-Bert=4-2"])
        .fails_with(1)
        .stderr_names(&["PAWNS@TIME"]);
}

#[test]
fn what_if_on_the_running_sunjang_season_of_the_demo() {
    let a = demo();
    let before = a.ok(&["competition", "list", "--json"]);
    let one = a.ok(&[
        "-c",
        "sunjang-demo",
        "what-if",
        "--result",
        "Lee Lukas-Park Ji-woo=black",
        "--result",
        "Choi Do-yun-Kim Aiko=jigo",
    ]);
    insta::assert_snapshot!("what_if_sunjang_partial", one);
    assert!(one.contains("No plan of the next season"));
    let v = a.ok_json(&["-c", "sunjang-demo", "what-if", "--json"]);
    assert_eq!(v["format"], "sunjang-league");
    let mut results = Vec::new();
    for d in v["season"]["divisions"].as_array().unwrap() {
        for g in d["groups"].as_array().unwrap() {
            for p in g["pairings"].as_array().unwrap() {
                if p.get("result").is_none() {
                    results.push(format!(
                        "--result={}-{}=white",
                        p["black"].as_str().unwrap(),
                        p["white"].as_str().unwrap()
                    ));
                }
            }
        }
    }
    assert!(!results.is_empty());
    let mut args = vec!["-c", "sunjang-demo", "what-if", "--json"];
    args.extend(results.iter().map(String::as_str));
    let all = a.ok_json(&args);
    assert_eq!(all["season"]["unfinished_games"], 0);
    assert_eq!(all["next_season"]["number"], 4);
    assert_eq!(
        a.ok(&["competition", "list", "--json"]),
        before,
        "nothing stored"
    );
    a.run(&[
        "-c",
        "sunjang-demo",
        "what-if",
        "--result",
        "Lee Lukas-Park Ji-woo=maybe",
    ])
    .fails_with(1)
    .stderr_names(&["jigo"]);
    a.run(&["-c", "xmadn-challengers-demo", "what-if"])
        .fails_with(1)
        .stderr_names(&["XMadn leagues and Sunjang leagues"]);
}

#[test]
fn statistics_of_every_ladder() {
    let a = demo();
    insta::assert_snapshot!("stats_all", a.ok(&["stats", "--all"]));
    let v = a.ok_json(&["stats", "--all", "--json"]);
    assert_eq!(v["competitions"][0]["id"], "tws-demo");
    assert_eq!(v["competitions"].as_array().unwrap().len(), 1);
    let one = a.ok_json(&["-c", "tws-demo", "stats", "--json"]);
    assert_eq!(v["all_games"], one["all_games"]);
    assert_eq!(v["by_turn"], one["by_turn"]);
    let p = a.ok_json(&["stats", "--all", "--player", "  hiro TANAKA ", "--json"]);
    assert_eq!(p["name"], "Hiro Tanaka");
    assert_eq!(p["competitions"], serde_json::json!(["tws-demo"]));
    assert!(
        a.ok(&["stats", "--all", "--player", "Nobody"])
            .contains("no decided game")
    );
}
