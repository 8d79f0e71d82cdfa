//! A real 20-club double round robin from the command line (issue 16): the
//! Premier League 2011-12, created with `round-robin create --cycles 2`
//! from a rules file an organizer would write (the FIFA preset's points,
//! then goal difference and goals scored), started, and its 380 published
//! results entered through the real binary as ONE `arbiter script`, each
//! `round-robin result "HOME-AWAY" H-A`. The table is the published one:
//! Manchester City above Manchester United on score difference (+64 against
//! +56), both on 89 points, and every other tie explained.
//!
//! The games and the published order are read from the engine's golden
//! case `crates/engine/tests/golden-roundrobin/premier-league-2011-12.case`
//! (its header names the sources: openfootball's results and the published
//! final table), so the data is kept once.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeMap;

use common::{Arbiter, workspace_root};
use serde_json::Value;

const CASE: &str = "crates/engine/tests/golden-roundrobin/premier-league-2011-12.case";

/// The rules file: the FIFA preset's 3/1/0 and goals, the Premier League's
/// criteria after points (goal difference, then goals scored), its four
/// Champions League places and three relegated. The cycles come from the
/// command line.
const RULES: &str = r#"format = "round-robin"
preset = "fifa-world-cup"
regulation = "Premier League Rules 2011/12, Section C: points, then goal difference, then goals scored"
tiebreaks = ["difference", "scored"]
top = 4
bottom = 3
"#;

/// One game as the source prints it, home club first.
struct Game {
    home: String,
    away: String,
    score: String,
}

/// A place of the published table.
struct Place {
    place: usize,
    club: String,
    points: String,
}

struct Season {
    clubs: Vec<String>,
    games: Vec<Game>,
    table: Vec<Place>,
}

fn is_score(token: &str) -> bool {
    token
        .split_once('-')
        .is_some_and(|(a, b)| a.parse::<u32>().is_ok() && b.parse::<u32>().is_ok())
}

/// The case file's players, games and expected places.
fn season() -> Season {
    let path = workspace_root().join(CASE);
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let mut season = Season {
        clubs: Vec::new(),
        games: Vec::new(),
        table: Vec::new(),
    };
    let mut section = "";
    for raw in text.lines() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(list) = line.strip_prefix("players:") {
            season.clubs = list.split(';').map(|c| c.trim().to_string()).collect();
            continue;
        }
        match line {
            "games:" | "expect:" => {
                section = line;
                continue;
            }
            _ => {}
        }
        match section {
            "games:" => {
                let tokens: Vec<&str> = line.split_whitespace().collect();
                let i = tokens
                    .iter()
                    .position(|t| is_score(t))
                    .unwrap_or_else(|| panic!("no score in {line:?}"));
                season.games.push(Game {
                    home: tokens[..i].join(" "),
                    away: tokens[i + 1..].join(" "),
                    score: tokens[i].to_string(),
                });
            }
            "expect:" => {
                let line = line.split('[').next().unwrap().trim();
                let (place, rest) = line.split_once(". ").unwrap();
                let (club, points) = rest.rsplit_once(' ').unwrap();
                season.table.push(Place {
                    place: place.parse().unwrap(),
                    club: club.to_string(),
                    points: points.to_string(),
                });
            }
            _ => {}
        }
    }
    season
}

/// The whole season as one script: create, start, then every result in
/// the source's order.
fn script(season: &Season, rules: &str) -> String {
    let mut s = String::from("# Premier League 2011-12 (issue 16): 20 clubs, 380 games\n");
    s.push_str(&format!(
        "round-robin create pl --name \"Premier League 2011-12\" --rules \"{rules}\" --cycles 2"
    ));
    for c in &season.clubs {
        s.push_str(&format!(" --player \"{c}\""));
    }
    s.push_str("\n-c pl round-robin start\n");
    for g in &season.games {
        s.push_str(&format!(
            "-c pl round-robin result \"{}-{}\" {}\n",
            g.home, g.away, g.score
        ));
    }
    s
}

fn text(v: &Value) -> &str {
    v["explanation"]["text"].as_str().unwrap()
}

#[test]
fn the_premier_league_2011_12_entered_as_one_script_gives_the_published_table() {
    let season = season();
    assert_eq!(season.clubs.len(), 20);
    assert_eq!(season.games.len(), 380);
    assert_eq!(season.table.len(), 20);

    let a = Arbiter::new();
    let rules = a.file("premier-league.toml", RULES);
    let rules = rules.to_string_lossy().into_owned();
    let run = a
        .script("premier-league-2011-12.arbiter", &script(&season, &rules))
        .success();
    assert!(run.stderr.is_empty(), "{}", run.stderr);

    let v = a.ok_json(&["-c", "pl", "--json", "round-robin", "show"]);
    assert_eq!(v["cycles"], 2);
    assert_eq!(v["games"], 380);
    assert_eq!(v["games_played"], 380);
    assert_eq!(v["finished"], true);
    assert_eq!(v["tiebreaks"], serde_json::json!(["difference", "scored"]));

    // Every game holds the source's result with the source's home club:
    // "HOME-AWAY" found the game where the first club is at home, although
    // the two meet twice.
    let rounds = v["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 38);
    let mut stored = BTreeMap::new();
    for r in rounds {
        for g in r["games"].as_array().unwrap() {
            let key = (
                g["home"].as_str().unwrap().to_string(),
                g["away"].as_str().unwrap().to_string(),
            );
            let score = g["score"].as_str().unwrap().to_string();
            assert!(stored.insert(key, score).is_none());
        }
    }
    let published: BTreeMap<(String, String), String> = season
        .games
        .iter()
        .map(|g| ((g.home.clone(), g.away.clone()), g.score.clone()))
        .collect();
    assert_eq!(published.len(), 380);
    assert_eq!(stored, published);

    // The published order of all 20 clubs, with their points, one club a
    // place.
    let rows = v["table"].as_array().unwrap();
    let got: Vec<(u64, &str, &str)> = rows
        .iter()
        .map(|r| {
            (
                r["place"].as_u64().unwrap(),
                r["player"].as_str().unwrap(),
                r["points"].as_str().unwrap(),
            )
        })
        .collect();
    let want: Vec<(u64, &str, &str)> = season
        .table
        .iter()
        .map(|p| (p.place as u64, p.club.as_str(), p.points.as_str()))
        .collect();
    assert_eq!(got, want);

    // Every tie on points, explained by its criterion and figures.
    let city = text(&rows[0]);
    assert!(
        city.contains(
            "Manchester City is 1st with 89 points. Ahead of Manchester United on score difference: +64 against +56, level on points (89)."
        ),
        "{city}"
    );
    assert!(city.contains("Premier League Rules 2011/12"), "{city}");
    assert_eq!(
        (rows[0]["scored"].as_i64(), rows[0]["conceded"].as_i64()),
        (Some(93), Some(29))
    );
    assert_eq!(
        (rows[1]["scored"].as_i64(), rows[1]["conceded"].as_i64()),
        (Some(89), Some(33))
    );
    for (row, words) in [
        (
            1,
            "Behind Manchester City on score difference: +56 against +64, level on points (89).",
        ),
        (
            8,
            "Behind Liverpool on score difference: -3 against +7, level on points (52).",
        ),
        (
            10,
            "Behind West Bromwich Albion on scored: 44 against 45, level on points (47).",
        ),
        (
            13,
            "Behind Sunderland on score difference: -17 against -1, level on points (45).",
        ),
    ] {
        let t = text(&rows[row]);
        assert!(t.contains(words), "place {}: {t}", row + 1);
    }

    // Norwich City, the third club on 47 points, below the other two on
    // score difference evaluated among the three (the names of the three
    // in the cascade's order, not checked here).
    let norwich = text(&rows[11]);
    assert!(
        norwich.contains("Behind Swansea City on score difference among "),
        "{norwich}"
    );
    for club in ["West Bromwich Albion", "Swansea City", "Norwich City"] {
        assert!(norwich.contains(club), "{norwich}");
    }
    assert!(
        norwich.contains(": -14 against -7, level on points (47)."),
        "{norwich}"
    );

    // The table as CSV: its header, the champions and the runner-up.
    let csv = a.ok(&["-c", "pl", "standings", "--csv"]);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 21, "{csv}");
    assert!(
        lines[0].starts_with(
            "place,player,played,won,drawn,lost,forfeits,scored,conceded,difference,points,"
        ),
        "{csv}"
    );
    assert!(
        lines[1].starts_with("1,Manchester City,38,28,5,5,0,93,29,64,89,"),
        "{csv}"
    );
    assert!(
        lines[1].contains("Ahead of Manchester United on score difference: +64 against +56"),
        "{csv}"
    );
    assert!(
        lines[2].starts_with("2,Manchester United,38,28,5,5,0,89,33,56,89,"),
        "{csv}"
    );

    // The runner-up's place in words.
    let explain = a.ok(&["-c", "pl", "round-robin", "explain", "Manchester United"]);
    assert!(
        explain.contains("Manchester United is 2nd with 89 points."),
        "{explain}"
    );
    assert!(
        explain.contains("Behind Manchester City on score difference: +56 against +64"),
        "{explain}"
    );
}
