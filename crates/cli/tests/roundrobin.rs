//! The general round-robin league (issue 16) from the command line, with
//! the real binary: a FIFA World Cup group entered result by result gives
//! the published table (names given either way round, the score in the
//! order of the names), a 20-team double round robin gets its 380 games,
//! and bad input is refused naming the field, changing nothing stored.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::Arbiter;
use serde_json::Value;

/// FIFA World Cup 2022 Group E, as played
/// (https://en.wikipedia.org/wiki/2022_FIFA_World_Cup_Group_E): Japan
/// first on points, Spain second over Germany on goal difference (+6
/// against +1), Costa Rica fourth.
const GROUP_E: &[(&str, &str)] = &[
    ("Germany-Japan", "1-2"),
    ("Spain-Costa Rica", "7-0"),
    ("Japan-Costa Rica", "0-1"),
    ("Spain-Germany", "1-1"),
    ("Japan-Spain", "2-1"),
    ("Costa Rica-Germany", "2-4"),
];

fn group_e() -> Arbiter {
    let a = Arbiter::new();
    a.ok(&[
        "round-robin",
        "create",
        "wc-e",
        "--name",
        "FIFA World Cup 2022 Group E",
        "--preset",
        "fifa-world-cup",
        "--player",
        "Spain",
        "--player",
        "Costa Rica",
        "--player",
        "Germany",
        "--player",
        "Japan",
    ]);
    a.ok(&["-c", "wc-e", "round-robin", "start"]);
    a
}

fn table(a: &Arbiter) -> Vec<Value> {
    let v = a.ok_json(&["-c", "wc-e", "--json", "round-robin", "show"]);
    v["table"].as_array().unwrap().clone()
}

#[test]
fn a_world_cup_group_gives_the_published_table_with_its_tiebreak_explained() {
    let a = group_e();
    for (game, score) in GROUP_E {
        a.ok(&["-c", "wc-e", "round-robin", "result", game, score]);
    }
    let rows = table(&a);
    let order: Vec<&str> = rows.iter().map(|r| r["player"].as_str().unwrap()).collect();
    assert_eq!(order, ["Japan", "Spain", "Germany", "Costa Rica"]);
    let points: Vec<&str> = rows.iter().map(|r| r["points"].as_str().unwrap()).collect();
    assert_eq!(points, ["6", "4", "4", "3"]);
    let spain = rows[1]["explanation"]["text"].as_str().unwrap();
    assert!(
        spain.contains("Ahead of Germany on score difference: +6 against +1"),
        "{spain}"
    );
    // The score was read in the order the names were given: Japan beat
    // Germany 2-1 though Germany was named first.
    let japan = &rows[0];
    assert_eq!(japan["scored"], 4);
    assert_eq!(japan["conceded"], 3);
    // The same table as CSV and as a forum post.
    let csv = a.ok(&["-c", "wc-e", "standings", "--csv"]);
    assert!(
        csv.lines().nth(1).unwrap().starts_with("1,Japan,3,2,0,1,"),
        "{csv}"
    );
    let md = a.ok(&[
        "-c",
        "wc-e",
        "round-robin",
        "export",
        "--format",
        "markdown",
    ]);
    assert!(
        md.contains("| 1 | Japan | 3 | 2 | 0 | 1 | 4 | 3 | 6 |"),
        "{md}"
    );
    // History in words, and undo by a correcting event.
    let history = a.ok(&["-c", "wc-e", "history"]);
    assert!(history.contains("Costa Rica v Germany: 2-4"), "{history}");
    let undone = a.ok(&["-c", "wc-e", "undo"]);
    assert!(undone.contains("Undid event 8"), "{undone}");
    assert_eq!(table(&a)[2]["played"], 2);
}

#[test]
fn bad_input_is_refused_naming_the_field_and_nothing_changes() {
    let a = group_e();
    a.ok(&[
        "-c",
        "wc-e",
        "round-robin",
        "result",
        "Germany-Japan",
        "1-2",
    ]);
    let before = a.ok(&["-c", "wc-e", "--json", "history"]);
    for (args, words) in [
        (
            vec!["result", "Germany-Japan", "1-2"],
            vec!["Germany", "Japan"],
        ),
        (vec!["result", "G99", "1-0"], vec!["game", "G1 to G6"]),
        (
            vec!["result", "Spain-Brazil", "1-0"],
            vec!["game", "Spain-Brazil"],
        ),
        (vec!["result", "G2", "two-nil"], vec!["score"]),
        (vec!["result", "G2", "1-0-0"], vec!["score"]),
        (vec!["result", "G2", "99999999999-0"], vec!["score"]),
        (vec!["add", "Brazil"], vec!["ARB-R68"]),
        (vec!["withdraw", "Nobody"], vec!["player", "Nobody"]),
        (vec!["lots", "Spain", "Nobody"], vec!["players", "Nobody"]),
    ] {
        let mut full = vec!["-c", "wc-e", "round-robin"];
        full.extend(args.iter().copied());
        a.run(&full).fails_with(1).stderr_names(&words);
    }
    let long = "x".repeat(5000);
    a.run(&["-c", "wc-e", "round-robin", "result", &long, "1-0"])
        .fails_with(1)
        .stderr_names(&["game"]);
    assert_eq!(a.ok(&["-c", "wc-e", "--json", "history"]), before);
    // A preset that does not exist names the ones that do.
    a.run(&[
        "round-robin",
        "create",
        "x",
        "--name",
        "X",
        "--preset",
        "cricket",
        "--player",
        "A",
        "--player",
        "B",
    ])
    .fails_with(2)
    .stderr_names(&["cricket", "fifa-world-cup", "chess"]);
}

#[test]
fn a_twenty_team_double_round_robin_gets_every_pair_home_and_away() {
    let a = Arbiter::new();
    let teams: Vec<String> = (1..=20).map(|i| format!("Team {i:02}")).collect();
    let mut args = vec![
        "round-robin",
        "create",
        "league",
        "--name",
        "League",
        "--preset",
        "uefa-euro",
        "--cycles",
        "2",
    ];
    for t in &teams {
        args.extend(["--player", t.as_str()]);
    }
    a.ok(&args);
    a.ok(&["-c", "league", "round-robin", "start"]);
    let v = a.ok_json(&["-c", "league", "--json", "round-robin", "show"]);
    let rounds = v["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 38);
    let mut pairs = std::collections::HashMap::new();
    for r in rounds {
        let games = r["games"].as_array().unwrap();
        assert_eq!(games.len(), 10);
        for g in games {
            let key = (
                g["home"].as_str().unwrap().to_string(),
                g["away"].as_str().unwrap().to_string(),
            );
            *pairs.entry(key).or_insert(0) += 1;
        }
    }
    // Every ordered pair once: each team at home once against each other.
    assert_eq!(pairs.len(), 380);
    assert!(pairs.values().all(|n| *n == 1));
    let list = a.ok_json(&["--json", "competition", "list"]);
    assert_eq!(list[0]["format"], "round-robin");
    assert_eq!(list[0]["members"], 20);
}

#[test]
fn what_if_shows_the_table_after_imagined_results_and_stores_nothing() {
    let a = group_e();
    // Matchday 1 and 2 as played; matchday 3 imagined.
    for (game, score) in &GROUP_E[..4] {
        a.ok(&["-c", "wc-e", "round-robin", "result", game, score]);
    }
    let before = a.ok(&["-c", "wc-e", "--json", "history"]);
    // The real matchday 3 gives the published order.
    let v = a.ok_json(&[
        "-c",
        "wc-e",
        "--json",
        "what-if",
        "--result",
        "Japan-Spain=2-1",
        "--result",
        "Costa Rica-Germany=2-4",
    ]);
    let order: Vec<&str> = v["league"]["table"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["player"].as_str().unwrap())
        .collect();
    assert_eq!(order, ["Japan", "Spain", "Germany", "Costa Rica"]);
    // Shown by game number, home first (the Berger table's G1 is Spain v
    // Japan), the score turned to that order.
    assert_eq!(v["results"][0], "G1 Spain v Japan: 1-2");
    // Imagined otherwise: a Spain win and a Costa Rica draw put Spain first
    // and Germany out on goal difference.
    let text = a.ok(&[
        "-c",
        "wc-e",
        "what-if",
        "--result",
        "Spain-Japan=1-0",
        "--result",
        "G2=1-1",
    ]);
    assert!(text.contains("What if (nothing is stored)"), "{text}");
    let v = a.ok_json(&[
        "-c",
        "wc-e",
        "--json",
        "what-if",
        "--result",
        "Spain-Japan=1-0",
        "--result",
        "G2=1-1",
    ]);
    let first = &v["league"]["table"][0];
    assert_eq!(first["player"], "Spain");
    // A played game imagined otherwise (G6, Germany v Spain, 1-1) is
    // corrected on the copy only: a German win puts Germany level with
    // Japan on 3 points and second on goal difference.
    let v = a.ok_json(&["-c", "wc-e", "--json", "what-if", "--result", "G6=2-1"]);
    assert_eq!(v["results"][0], "G6 Germany v Spain: 2-1");
    assert_eq!(v["league"]["table"][0]["player"], "Spain");
    assert_eq!(v["league"]["table"][1]["player"], "Germany");
    // Bad input names the field; nothing is stored either way.
    a.run(&["-c", "wc-e", "what-if", "--result", "Spain-Brazil=1-0"])
        .fails_with(1)
        .stderr_names(&["game", "Spain-Brazil"]);
    a.run(&["-c", "wc-e", "what-if", "--result", "G5=lots"])
        .fails_with(1)
        .stderr_names(&["score"]);
    assert_eq!(a.ok(&["-c", "wc-e", "--json", "history"]), before);
}

#[test]
fn statistics_of_a_group() {
    let a = group_e();
    for (game, score) in GROUP_E {
        a.ok(&["-c", "wc-e", "round-robin", "result", game, score]);
    }
    let v = a.ok_json(&["-c", "wc-e", "--json", "round-robin", "stats"]);
    // 1+2, 7+0, 0+1, 1+1, 2+1, 2+4: 22 goals in 6 games.
    assert_eq!(v["goals"], 22);
    assert_eq!(v["goals_per_game"], "3.67");
    assert_eq!(v["biggest_wins"][0]["score"], "7-0");
    assert_eq!(v["players"][0]["player"], "Japan");
    let text = a.ok(&["-c", "wc-e", "round-robin", "stats"]);
    assert!(
        text.contains("6 games played, 0 forfeited, 0 left."),
        "{text}"
    );
    assert!(
        text.contains("Biggest win: G4 Spain 7-0 Costa Rica (round 2)."),
        "{text}"
    );
    // The same figures in the league's JSON view.
    let show = a.ok_json(&["-c", "wc-e", "--json", "round-robin", "show"]);
    assert_eq!(show["statistics"], v);
}

/// In a double round robin the names are home first: a result entered
/// twice is refused, naming the return game, never recorded as it.
#[test]
fn a_double_round_robin_reads_the_names_home_first() {
    let a = Arbiter::new();
    a.ok(&[
        "round-robin",
        "create",
        "l",
        "--name",
        "L",
        "--preset",
        "uefa-euro",
        "--cycles",
        "2",
        "--player",
        "Ajax",
        "--player",
        "Benfica",
        "--player",
        "Celtic",
    ]);
    a.ok(&["-c", "l", "round-robin", "start"]);
    a.ok(&["-c", "l", "round-robin", "result", "Ajax-Benfica", "1-2"]);
    let before = a.ok(&["-c", "l", "--json", "history"]);
    a.run(&["-c", "l", "round-robin", "result", "Ajax-Benfica", "1-2"])
        .fails_with(1)
        .stderr_names(&["game", "Ajax's home game against Benfica", "Benfica-Ajax"]);
    assert_eq!(a.ok(&["-c", "l", "--json", "history"]), before);
    a.ok(&["-c", "l", "round-robin", "result", "Benfica-Ajax", "2-0"]);
    let v = a.ok_json(&["-c", "l", "--json", "round-robin", "show"]);
    let games: Vec<(String, String, String)> = v["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["games"].as_array().unwrap().iter())
        .filter(|g| g["score"].is_string())
        .map(|g| {
            (
                g["home"].as_str().unwrap().to_string(),
                g["away"].as_str().unwrap().to_string(),
                g["score"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        games,
        [
            ("Ajax".into(), "Benfica".into(), "1-2".into()),
            ("Benfica".into(), "Ajax".into(), "2-0".into())
        ]
    );
}
