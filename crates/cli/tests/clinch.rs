//! `arbiter clinch` with the real binary: what is still possible
//! (ARB-R47) on the demo's running Sunjang season, on a small XMadn league
//! played part of the way (the demo's league is finished), `--json`, and
//! the refusals.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::Arbiter;
use serde_json::Value;

fn demo() -> Arbiter {
    let a = Arbiter::new();
    a.demo();
    a
}

/// One double round-robin and no playoff: the title is the only zone.
const ONE_DRR_NO_PLAYOFF: &str = "format = \"xmadn-league\"\n\
double_round_robins = 1\n\
\n\
[playoff]\n\
format = \"none\"\n";

const VERDICTS: [&str; 6] = [
    "clinched",
    "clinched-unless-die",
    "eliminated",
    "eliminated-unless-die",
    "open",
    "undetermined",
];

/// Every verdict of a `--json` view has its fields, a known key and a
/// reason.
fn check_view(v: &Value) {
    assert_eq!(v["ruling"], "ARB-R47");
    for g in v["groups"].as_array().unwrap() {
        let zones = g["zones"].as_array().unwrap();
        assert!(!zones.is_empty());
        for p in g["players"].as_array().unwrap() {
            let verdicts = p["verdicts"].as_array().unwrap();
            assert_eq!(verdicts.len(), zones.len());
            for (x, z) in verdicts.iter().zip(zones) {
                assert_eq!(x["zone"], z["key"]);
                assert!(VERDICTS.contains(&x["verdict"].as_str().unwrap()), "{x}");
                assert!(!x["text"].as_str().unwrap().is_empty());
                assert_eq!(x["rulings"], serde_json::json!(["ARB-R47"]));
                assert_eq!(x["clause"], z["clause"]);
            }
        }
    }
}

#[test]
fn the_running_sunjang_season_of_the_demo() {
    let a = demo();
    let all = a.ok(&["-c", "sunjang-demo", "clinch"]);
    insta::assert_snapshot!("clinch_sunjang_demo", all);
    let v = a.ok_json(&["-c", "sunjang-demo", "clinch", "--json"]);
    assert_eq!(v["format"], "sunjang-league");
    assert_eq!(v["season"], 3);
    check_view(&v);
    let groups = v["groups"].as_array().unwrap();
    assert!(!groups.is_empty());
    for g in groups {
        assert!(g["games_left"].as_u64().unwrap() > 0);
        assert_eq!(g["zones"][0]["key"], "group-win");
    }
    // One group by its label, any case.
    let label = groups[0]["group"].as_str().unwrap().to_string();
    let one = a.ok_json(&[
        "-c",
        "sunjang-demo",
        "clinch",
        &label.to_lowercase(),
        "--json",
    ]);
    assert_eq!(one["groups"].as_array().unwrap().len(), 1);
    assert_eq!(one["groups"][0], groups[0]);
}

#[test]
fn a_finished_league_and_other_formats() {
    let a = demo();
    let v = a.ok_json(&["-c", "xmadn-league-demo", "clinch", "--json"]);
    assert_eq!(v["groups"], serde_json::json!([]));
    assert!(v["note"].as_str().unwrap().contains("final"));
    a.run(&["-c", "tws-demo", "clinch"])
        .fails_with(1)
        .stderr_names(&["ARB-R47", "XMadn leagues and Sunjang leagues"]);
    a.run(&["-c", "xmadn-challengers-demo", "clinch"])
        .fails_with(1);
    a.run(&["-c", "sunjang-demo", "clinch", "Z9"])
        .fails_with(1)
        .stderr_names(&["there is no group Z9 in season 3"]);
    a.run(&["-c", "xmadn-league-demo", "clinch", "A1"])
        .fails_with(1)
        .stderr_names(&["no groups"]);
}

#[test]
fn a_running_xmadn_league() {
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
        "Carl",
        "--at",
        "2026-01-01",
        "--rules",
        &rules,
    ]);
    a.ok(&["league", "roll", "--at", "2026-01-02"]);
    let open = a.ok(&["clinch"]);
    // Anna wins her games, in the order they may be played, until she has
    // won three of them.
    let mut anna = 0;
    for _ in 0..6 {
        if anna == 3 {
            break;
        }
        let v = a.ok_json(&["league", "show", "--json"]);
        let Some(g) = v["drrs"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|d| d["games"].as_array().unwrap().iter())
            .find(|g| g["playable"] == true)
            .cloned()
        else {
            break;
        };
        let p: Vec<String> = g["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect();
        let (w, l) = if p[1] == "Anna" {
            (p[1].clone(), p[0].clone())
        } else {
            (p[0].clone(), p[1].clone())
        };
        if w == "Anna" {
            anna += 1;
        }
        a.ok(&[
            "league", "result", &w, &l, "--pawns", "4-1", "--time", "20:00",
        ]);
    }
    let later = a.ok(&["clinch"]);
    insta::assert_snapshot!("clinch_xmadn_open", open);
    insta::assert_snapshot!("clinch_xmadn_later", later);
    let v = a.ok_json(&["clinch", "--json"]);
    assert_eq!(v["format"], "xmadn-league");
    check_view(&v);
    let g = &v["groups"][0];
    assert_eq!(g["zones"][0]["key"], "title");
    assert_eq!(g["exact"], true);
    assert_eq!(g["players"].as_array().unwrap().len(), 3);
}
