//! XMadn Double-Threat from the command line, with the real binary.
//!
//! - Bad input: every refusal exits 1 (2 for a mistake on the command line
//!   found before anything runs), names the rule or field it breaks, and
//!   changes nothing stored (the competition list, each history and each
//!   competition's view, compared before and after).
//! - Behaviour: a two-DRR league with the default preset run to its champion
//!   (a step-6 tiebreak roll, the QG, the FS3 with its head start, `roll
//!   verify`, explanations, `--json` shapes, history, undo); a league whose
//!   significant outcomes are determined early and whose remaining games are
//!   cancelled; a first-to-5 Challengers event to its end.
//! - The example scripts `examples/xmadn-league.arbiter` and
//!   `examples/xmadn-challengers.arbiter`, replayed, with snapshots of what a
//!   moderator sees.
//!
//! The dice are reproducible (the harness sets
//! `ARBITER_DETERMINISTIC_SEEDS=test`), but apart from the example scripts
//! the tests read the positions and the games that may be played now from
//! `league show --json` instead of assuming the faces rolled.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::HashMap;

use common::{Arbiter, Run, assert_unchanged};
use serde_json::Value;

const LEAGUE_EXAMPLE: &str = "examples/xmadn-league.arbiter";
const CHALLENGERS_EXAMPLE: &str = "examples/xmadn-challengers.arbiter";

/// One double round-robin and no playoff: the title is the only
/// significant outcome (ARB-R26), so it can be determined early.
const ONE_DRR_NO_PLAYOFF: &str = "format = \"xmadn-league\"\n\
double_round_robins = 1\n\
\n\
[playoff]\n\
format = \"none\"\n";

/// The Masters rules: the winner brings home both allied colours (8 pawns).
const MASTERS: &str = "format = \"xmadn-league\"\nrule_set = \"2T+\"\n";

// --- Helpers --------------------------------------------------------------------

/// The players of every league and Challengers event here.
const ANNA_BERT_CARL: [&str; 6] = ["--player", "Anna", "--player", "Bert", "--player", "Carl"];

/// A league of Anna, Bert and Carl: the xmadn-league preset, or a rules file.
fn league(rules: Option<&str>) -> Arbiter {
    let a = Arbiter::new();
    let path = rules.map(|text| a.file("league.toml", text).to_string_lossy().into_owned());
    let mut args = vec!["league", "create", "xl", "--name", "Test League"];
    args.extend(ANNA_BERT_CARL);
    args.extend(["--at", "2026-01-01"]);
    if let Some(p) = &path {
        args.extend(["--rules", p.as_str()]);
    }
    a.ok(&args);
    a
}

/// `challengers create xc --name NAME`, Anna, Bert and Carl, then `extra`.
fn create_challengers<'a>(name: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["challengers", "create", "xc", "--name", name];
    args.extend(ANNA_BERT_CARL);
    args.extend(extra);
    args
}

/// A Challengers event of Anna, Bert and Carl (first to 5 unless `first_to`).
fn challengers(first_to: Option<&str>) -> Arbiter {
    let a = Arbiter::new();
    let extra = first_to.map_or(vec![], |x| vec!["--first-to", x]);
    a.ok(&create_challengers("Test Challengers", &extra));
    a
}

/// A league with the positions of DRR 1 rolled.
fn rolled(rules: Option<&str>) -> Arbiter {
    let a = league(rules);
    a.ok(&["league", "roll", "--at", "2026-01-02"]);
    a
}

fn show(a: &Arbiter) -> Value {
    a.ok_json(&["league", "show", "--json"])
}

fn challengers_show(a: &Arbiter) -> Value {
    a.ok_json(&["challengers", "show", "--json"])
}

/// `league result`.
const RESULT: &[&str] = &["league", "result"];
/// `league playoff result`.
const PLAYOFF_RESULT: &[&str] = &["league", "playoff", "result"];
/// `challengers result`.
const CHALLENGERS_RESULT: &[&str] = &["challengers", "result"];

/// `COMMAND P Q --pawns PAWNS --time TIME`: a game's result, COMMAND one of
/// [`RESULT`], [`PLAYOFF_RESULT`] and [`CHALLENGERS_RESULT`].
fn result<'a>(
    command: &[&'a str],
    p: &'a str,
    q: &'a str,
    pawns: &'a str,
    time: &'a str,
) -> Vec<&'a str> {
    let mut args = command.to_vec();
    args.extend([p, q, "--pawns", pawns, "--time", time]);
    args
}

/// `challengers qualifier FIRST SECOND THIRD --choose COLOURS`, then `extra`.
fn qualifier<'a>(places: [&'a str; 3], choose: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["challengers", "qualifier"];
    args.extend(places);
    args.extend(["--choose", choose]);
    args.extend(extra);
    args
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

fn keys(v: &Value) -> Vec<String> {
    let mut k: Vec<String> = v
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {v}"))
        .keys()
        .cloned()
        .collect();
    k.sort();
    k
}

/// The object's keys are exactly `expected`.
#[track_caller]
fn assert_keys(v: &Value, expected: &[&str], what: &str) {
    let mut e: Vec<String> = expected.iter().map(|s| (*s).to_string()).collect();
    e.sort();
    assert_eq!(keys(v), e, "the keys of {what}: {v}");
}

/// The round-robin games that may be played now, with their DRR.
fn playable(v: &Value) -> Vec<(u64, Value)> {
    let mut out = Vec::new();
    for d in v["drrs"].as_array().unwrap() {
        for g in d["games"].as_array().unwrap() {
            if g["playable"] == true {
                out.push((d["number"].as_u64().unwrap(), g.clone()));
            }
        }
    }
    out
}

/// A game's two players, in the game's order.
fn pair(g: &Value) -> [String; 2] {
    let p = strings(&g["players"]);
    [p[0].clone(), p[1].clone()]
}

/// The game of the round-robins whose league-wide id (its alias, ARB-R63)
/// is `label` (G5).
fn game(v: &Value, label: &str) -> Value {
    v["drrs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|d| d["games"].as_array().unwrap().iter())
        .find(|g| g["alias"] == label)
        .unwrap_or_else(|| panic!("no game {label} in {v}"))
        .clone()
}

/// The row of `player` on the table.
fn row(v: &Value, player: &str) -> Value {
    v["table"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["player"] == player)
        .unwrap_or_else(|| panic!("{player} is not on the table: {v}"))
        .clone()
}

/// `league result WINNER LOSER --pawns 4-LOSER_PAWNS --time TIME`.
fn win(a: &Arbiter, winner: &str, loser: &str, loser_pawns: u8, time: &str) -> String {
    let pawns = format!("4-{loser_pawns}");
    a.ok(&result(RESULT, winner, loser, &pawns, time))
}

/// `league playoff result WINNER LOSER --pawns 4-LOSER_PAWNS --time TIME`.
fn playoff_win(a: &Arbiter, winner: &str, loser: &str, loser_pawns: u8, time: &str) -> String {
    let pawns = format!("4-{loser_pawns}");
    a.ok(&result(PLAYOFF_RESULT, winner, loser, &pawns, time))
}

/// What the round-robins needed.
#[derive(Debug, Default)]
struct Played {
    games: usize,
    position_rolls: usize,
    tiebreak_rolls: usize,
    /// The phase each step-6 roll was asked for in.
    tiebreak_phases: Vec<String>,
    /// `league explain` just before the first step-6 roll.
    explain_before_tiebreak: Option<String>,
}

/// Plays the round-robins to their end as a moderator would from `league
/// show --json`: rolls when the league asks for a roll (the positions of a
/// DRR, or step 6 of the tiebreak), records every game it says may be played
/// now, 4-0 in 20:00 for the player `pick` returns (0 or 1, in the game's
/// order), and stops when no roll is due and no game may be played.
fn play_round_robins(a: &Arbiter, mut pick: impl FnMut(u64, &[String; 2]) -> usize) -> Played {
    let mut done = Played::default();
    for _ in 0..100 {
        let v = show(a);
        if let Some((drr, g)) = playable(&v).into_iter().next() {
            let players = pair(&g);
            let w = pick(drr, &players);
            win(a, &players[w], &players[1 - w], 0, "20:00");
            done.games += 1;
            continue;
        }
        let phase = v["phase"].as_str().unwrap().to_string();
        if phase.contains("positions to be rolled") {
            a.ok(&["league", "roll"]);
            done.position_rolls += 1;
        } else if phase.contains("step 6") {
            if done.explain_before_tiebreak.is_none() {
                done.explain_before_tiebreak = Some(a.ok(&["league", "explain"]));
            }
            let out = a.ok(&["league", "roll"]);
            assert!(out.contains("round of die-roll for step 6"), "{out}");
            done.tiebreak_rolls += 1;
            done.tiebreak_phases.push(phase);
        } else {
            return done;
        }
    }
    panic!("the league never stopped asking for games or rolls");
}

/// Anna wins every game; Bert and Carl split each DRR (the first of their two
/// meetings goes to the first named, the second to the other). With every
/// game 4-0 in 20:00, Bert and Carl are level through step 5.
fn anna_wins_bert_and_carl_split() -> impl FnMut(u64, &[String; 2]) -> usize {
    let mut first_winner: HashMap<u64, String> = HashMap::new();
    move |drr, players| {
        if let Some(i) = players.iter().position(|p| p == "Anna") {
            return i;
        }
        match first_winner.get(&drr) {
            None => {
                first_winner.insert(drr, players[0].clone());
                0
            }
            Some(w) => usize::from(players[0] == *w),
        }
    }
}

/// Every pair splits its two games of each DRR: everyone is level through
/// step 5.
fn everyone_splits() -> impl FnMut(u64, &[String; 2]) -> usize {
    let mut first_winner: HashMap<(u64, [String; 2]), String> = HashMap::new();
    move |drr, players| {
        let mut key = players.clone();
        key.sort();
        match first_winner.get(&(drr, key.clone())) {
            None => {
                first_winner.insert((drr, key), players[0].clone());
                0
            }
            Some(w) => usize::from(players[0] == *w),
        }
    }
}

/// The history's event kinds, in order.
fn event_kinds(a: &Arbiter) -> Vec<String> {
    a.ok_json(&["history", "--json"])
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["event"].as_str().unwrap().to_string())
        .collect()
}

/// Runs `sql` on the test's database (with sqlx, so no `sqlite3` command is
/// needed); rows as `a|b|c` lines.
fn sqlite(a: &Arbiter, sql: &str) -> String {
    use sqlx::{Connection, Row};
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    rt.block_on(async {
        let url = format!("sqlite://{}", a.db().display());
        let mut conn = sqlx::SqliteConnection::connect(&url)
            .await
            .expect("open the test database");
        let rows = sqlx::query(sql)
            .fetch_all(&mut conn)
            .await
            .unwrap_or_else(|e| panic!("{sql:?} failed: {e}"));
        rows.iter()
            .map(|r| {
                let cells: Vec<String> = (0..r.len())
                    .map(|k| r.try_get::<String, _>(k).unwrap_or_default())
                    .collect();
                cells.join("|") + "\n"
            })
            .collect()
    })
}

/// The store's secrets (committed draw seeds), `competition|name|value`.
fn secrets(a: &Arbiter) -> String {
    sqlite(
        a,
        "SELECT competition, name, value FROM secrets ORDER BY competition, name",
    )
}

/// The player names of the first round in a roll's faces ("Bert 5, Carl 1;
/// then ..."), in the order they rolled.
fn rollers(faces: &str) -> Vec<String> {
    faces
        .split("; then ")
        .next()
        .unwrap()
        .split(", ")
        .map(|f| f.rsplit_once(' ').unwrap().0.to_string())
        .collect()
}

// --- Bad input: counted pawns and times ------------------------------------------

#[test]
fn counted_pawns_impossible_under_2t_are_refused() {
    let a = rolled(None);
    let [p, q] = pair(&playable(&show(&a))[0].1);
    for pawns in ["4-4", "5-2", "2-5", "3-2", "0-0", "4-9"] {
        a.refused_any(1, &result(RESULT, &p, &q, pawns, "20:10"))
            .stderr_names(&[
                "is not a 2T result",
                "the winner has 4 counted pawns and the loser 0 to 3",
                "XMadn League: Game results",
                "XM-R9",
                "field `pawns`",
            ]);
    }
    // The same game with a possible score is recorded.
    win(&a, &p, &q, 3, "20:10");
    assert_eq!(game(&show(&a), "G1")["status"], "played");
}

#[test]
fn an_impossible_score_is_quoted_as_typed() {
    let a = rolled(None);
    let [p, q] = pair(&playable(&show(&a))[0].1);
    // The players named in the other order than the game's.
    a.run(&result(RESULT, &q, &p, "5-2", "20:10"))
        .fails_with(1)
        .stderr_names(&["5-2 is not a 2T result"]);
}

#[test]
fn a_2t_plus_league_refuses_a_2t_score() {
    let a = rolled(Some(MASTERS));
    let v = show(&a);
    assert_eq!(v["rule_set"], "Masters (2T+)");
    let [p, q] = pair(&playable(&v)[0].1);
    for pawns in ["4-2", "8-8", "9-2", "2-4"] {
        a.refused_any(1, &result(RESULT, &p, &q, pawns, "35:00"))
            .stderr_names(&[
                "is not a 2T+ result",
                "the winner has 8 counted pawns and the loser 0 to 7",
                "XM-R9",
                "field `pawns`",
            ]);
    }
    a.ok(&result(RESULT, &p, &q, "8-5", "35:00"));
    let g = game(&show(&a), "G1");
    assert_eq!(g["winner"], p.as_str());
}

#[test]
fn a_game_time_of_zero_is_refused() {
    let a = rolled(None);
    let [p, q] = pair(&playable(&show(&a))[0].1);
    a.refused_any(1, &result(RESULT, &p, &q, "4-2", "0:00"))
        .stderr_names(&["a game's time must be more than 0:00", "field `time`"]);
}

// --- Bad input: who plays ------------------------------------------------------

#[test]
fn a_result_before_the_positions_are_rolled_is_refused() {
    let a = league(None);
    a.refused_any(1, &result(RESULT, "Anna", "Bert", "4-2", "20:10"))
        .stderr_names(&[
            "cannot record Anna v Bert now",
            "the positions of DRR 1 are to be rolled first",
            "league roll",
            "XMadn League: Double-round robins",
        ]);
}

#[test]
fn a_game_between_players_not_paired_in_a_playable_game_is_refused() {
    let a = rolled(None);
    let v = show(&a);
    let positions = strings(&v["drrs"][0]["positions"]);
    // Game 1 is #1 v #2; Game 3, #2 v #3, waits for Games 1 and 2 (ARB-R28).
    let [p, q] = pair(&playable(&v)[0].1);
    assert_eq!([p.as_str(), q.as_str()], [&positions[0], &positions[1]]);
    let (two, three) = (&positions[1], &positions[2]);
    a.refused_any(1, &result(RESULT, two, three, "4-2", "20:10"))
        .stderr_names(&[
            &format!("{two} v {three} is not the next game"),
            "Games 1 to 3 are played in order",
            &format!("now Game 1 (DRR 1): {p} v {q}"),
            "XMadn League: Double-round robins",
            "field `players`",
        ]);
    // A player against himself.
    a.refused_any(1, &result(RESULT, &p, &p, "4-2", "20:10"))
        .stderr_names(&["a game has two different players", "field `players`"]);
    // --game naming a game of other players, and a game that does not exist.
    a.refused_any(
        1,
        &[result(RESULT, &p, &q, "4-2", "20:10"), vec!["--game", "G3"]].concat(),
    )
    .stderr_names(&["(G3) is", &format!("not {p} v {q}"), "field `players`"]);
    a.refused_any(
        1,
        &[
            result(RESULT, &p, &q, "4-2", "20:10"),
            vec!["--game", "G99"],
        ]
        .concat(),
    )
    .stderr_names(&["there is no game G99", "field `game`"]);
    // Game 3's players are refused until Games 1 and 2 are played, then
    // accepted.
    win(&a, &p, &q, 1, "20:00");
    let [r, s] = pair(&playable(&show(&a))[0].1);
    a.refused_any(1, &result(RESULT, two, three, "4-2", "20:10"))
        .stderr_names(&[
            "is not the next game",
            &format!("now Game 2 (DRR 1): {r} v {s}"),
        ]);
    win(&a, &r, &s, 1, "20:00");
    win(&a, two, three, 1, "20:00");
    assert_eq!(game(&show(&a), "G3")["winner"], two.as_str());
}

#[test]
fn an_unknown_player_is_refused() {
    let a = rolled(None);
    a.refused_any(1, &result(RESULT, "Anna", "Nobody", "4-2", "20:10"))
        .stderr_names(&[
            "there is no player named \"Nobody\"",
            "the players are Anna, Bert, Carl",
        ]);
    a.refused_any(1, &["league", "explain", "Nobody"])
        .stderr_names(&["no player named \"Nobody\""]);
    a.refused_any(
        1,
        &[
            "league", "correct", "G1", "Nobody", "Anna", "--pawns", "4-2", "--time", "20:10",
            "--reason", "typo",
        ],
    )
    .stderr_names(&["no player named \"Nobody\""]);

    let c = challengers(None);
    c.refused_any(1, &qualifier(["Anna", "Bert", "Nobody"], "red/blue", &[]))
        .stderr_names(&["no player named \"Nobody\"", "Anna, Bert, Carl"]);
}

// --- Bad input: cancellation ---------------------------------------------------

#[test]
fn cancelling_waits_for_the_significant_outcomes_and_a_cancelled_game_takes_no_result() {
    let a = rolled(Some(ONE_DRR_NO_PLAYOFF));
    let v = show(&a);
    assert_eq!(v["playoff"], "none");
    let pos = strings(&v["drrs"][0]["positions"]);
    let (one, two, three) = (&pos[0], &pos[1], &pos[2]);

    // Nothing is determined yet: no game, nor the DRR, may be cancelled.
    a.refused_any(1, &["league", "cancel", "G6", "--note", "agreed"])
        .stderr_names(&[
            "remaining games may be cancelled only once the significant outcomes are determined",
            "still open",
            "XM-R6",
        ]);

    // #1 wins Games 1 and 2, #2 wins Game 3.
    win(&a, one, two, 2, "21:00"); // Game 1: #1 v #2
    win(&a, one, three, 1, "22:00"); // Game 2: #3 v #1
    win(&a, two, three, 3, "23:00"); // Game 3: #2 v #3
    let suggest = a.ok_json(&["league", "suggest", "--json"]);
    assert_eq!(suggest["determined"], false, "{suggest}");
    assert_eq!(show(&a)["determined"], false);
    a.refused_any(1, &["league", "cancel", "G6"])
        .stderr_names(&["only once the significant outcomes are determined", "XM-R6"]);

    // Game 4 (#2 v #1) to #1: 3-0, nobody else can reach 3 wins.
    win(&a, one, two, 0, "19:00");
    let v = show(&a);
    assert_eq!(v["determined"], true, "{}", v["determination"]);
    assert!(
        v["determination"]["text"]
            .as_str()
            .unwrap()
            .contains(&format!("1st {one}")),
        "{}",
        v["determination"]
    );
    let suggest = a.ok_json(&["league", "suggest", "--json"]);
    assert_eq!(suggest["determined"], true);

    // A played game cannot be cancelled; Game 6 (#3 v #2) can.
    a.refused_any(1, &["league", "cancel", "G1"])
        .stderr_names(&[
            "(G1) has been played",
            "only remaining games may be cancelled",
        ]);
    let out = a.ok(&["league", "cancel", "G6", "--note", "both players agreed"]);
    assert!(out.contains("cancelled: both players agreed"), "{out}");
    let g6 = game(&show(&a), "G6");
    assert_eq!(g6["status"], "cancelled");
    assert_eq!(g6["playable"], false);

    // The cancelled game takes no result, by its players or by its id, and
    // has none to correct; it cannot be cancelled twice.
    a.refused_any(1, &result(RESULT, three, two, "4-2", "20:10"))
        .stderr_names(&[
            "was cancelled by mutual consent",
            "it takes no result",
            "XM-R6",
        ]);
    a.refused_any(
        1,
        &[
            result(RESULT, three, two, "4-2", "20:10"),
            vec!["--game", "G6"],
        ]
        .concat(),
    )
    .stderr_names(&["(G6) was cancelled by mutual consent", "takes no result"]);
    a.refused_any(
        1,
        &[
            "league",
            "correct",
            "G6",
            three,
            two,
            "--pawns",
            "4-2",
            "--time",
            "20:10",
            "--reason",
            "they played after all",
        ],
    )
    .stderr_names(&["(G6) has no result to correct"]);
    a.refused_any(1, &["league", "cancel", "G6"])
        .stderr_names(&["(G6) is already cancelled", "XM-R6"]);

    // Game 5 is still played; the league ends with #1 champion.
    win(&a, three, one, 2, "25:00");
    let v = show(&a);
    assert_eq!(v["champion"], one.as_str());
    assert_eq!(v["phase"], format!("finished: {one} is champion"));
    assert_eq!(row(&v, one)["wins"], 3);
    assert_eq!(
        row(&v, three)["played"],
        3,
        "the cancelled game counts for nothing"
    );
    a.refused_any(1, &result(RESULT, three, two, "4-2", "20:10"))
        .stderr_names(&["the league is over", &format!("{one} is champion")]);
}

#[test]
fn cancelling_a_drr_that_is_not_next_or_not_determined_is_refused() {
    let a = rolled(None);
    a.refused_any(1, &["league", "cancel-drr", "1"])
        .stderr_names(&[
            "only the next double round-robin, before its positions are rolled",
            "DRR 1 is not",
            "field `drr`",
        ]);
    a.refused_any(1, &["league", "cancel-drr", "3"])
        .stderr_names(&["DRR 3 is not", "field `drr`"]);
    // DRR 2 is next, but nothing is determined.
    let fresh = league(None);
    fresh
        .refused_any(1, &["league", "cancel-drr", "1"])
        .stderr_names(&["only once the significant outcomes are determined", "XM-R6"]);
}

// --- Bad input: die rolls ------------------------------------------------------

#[test]
fn a_roll_whose_committed_seed_is_missing_from_the_database_is_refused() {
    let a = league(None);
    let committed = show(&a);
    assert!(
        secrets(&a).starts_with("xl|draw-seed:"),
        "the seed of DRR 1 is committed at creation: {}",
        secrets(&a)
    );
    // The secret is lost (a restored backup without it, say).
    sqlite(&a, "DELETE FROM secrets WHERE competition = 'xl'");
    assert_eq!(secrets(&a), "");
    a.refused_any(1, &["league", "roll"]).stderr_names(&[
        "the committed draw seed is not in this database",
        "cannot be revealed",
    ]);
    assert_eq!(secrets(&a), "", "a refused roll commits no new seed");
    assert_eq!(show(&a)["version"], committed["version"]);
    assert_eq!(show(&a)["rolls"], serde_json::json!([]));
}

#[test]
fn a_roll_nobody_asked_for_is_refused() {
    let a = rolled(None);
    a.refused_any(1, &["league", "roll"]).stderr_names(&[
        "cannot roll the positions of a double round-robin now",
        "DRR 1 is being played",
    ]);
}

#[test]
fn a_refused_roll_stores_no_secret() {
    let a = rolled(None);
    let before = secrets(&a);
    // With seeds from the OS, as in real use.
    let out = a
        .command()
        .env_remove("ARBITER_DETERMINISTIC_SEEDS")
        .args(["league", "roll"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(secrets(&a), before, "the refused roll stored a secret");
}

/// `roll recompute --seed SEED [--commitment COMMITMENT]` for Anna, Bert and
/// Carl.
fn recompute<'a>(seed: &'a str, commitment: Option<&'a str>) -> Vec<&'a str> {
    let mut args = vec!["roll", "recompute", "--seed", seed];
    if let Some(c) = commitment {
        args.extend(["--commitment", c]);
    }
    args.extend(ANNA_BERT_CARL);
    args
}

#[test]
fn roll_recompute_with_a_bad_seed_is_refused() {
    let a = rolled(None);
    let roll = &show(&a)["rolls"][0];
    let seed = roll["seed"].as_str().unwrap().to_string();
    let commitment = roll["commitment"].as_str().unwrap().to_string();
    for (bad, words) in [
        ("zz", &["--seed", "not hex"][..]),
        ("abcd", &["--seed", "64 hex digits (32 bytes) expected"][..]),
        (&seed[..63], &["--seed", "not hex"][..]),
        (&format!("{seed}00"), &["--seed", "64 hex digits"][..]),
    ] {
        a.refused_any(2, &recompute(bad, None)).stderr_names(words);
    }
    // A good seed with someone else's commitment.
    let other = "00".repeat(32);
    a.refused_any(1, &recompute(&seed, Some(&other)))
        .stderr_names(&["the seed does NOT match the commitment"]);
    // A commitment that is not hex, and fewer than two players.
    a.refused_any(
        2,
        &[
            "roll",
            "recompute",
            "--seed",
            &seed,
            "--commitment",
            "xyz",
            "--player",
            "Anna",
            "--player",
            "Bert",
        ],
    )
    .stderr_names(&["--commitment", "not hex"]);
    a.refused_any(
        2,
        &["roll", "recompute", "--seed", &seed, "--player", "Anna"],
    )
    .stderr_names(&["give at least two --player"]);
    // The published seed and commitment recompute the faces recorded.
    let out = a.ok(&recompute(&seed, Some(&commitment)));
    assert!(out.contains(roll["faces"].as_str().unwrap()), "{out}");
    assert!(out.contains("The seed matches the commitment."), "{out}");
}

#[test]
fn roll_recompute_refuses_a_die_of_fewer_than_two_faces() {
    let a = Arbiter::new();
    let seed = "11".repeat(32);
    for faces in ["0", "1"] {
        a.run(&[
            "roll",
            "recompute",
            "--seed",
            &seed,
            "--player",
            "Anna",
            "--player",
            "Bert",
            "--faces",
            faces,
        ])
        .fails_with(2)
        .stderr_names(&["--faces"]);
    }
}

// --- Bad input: Challengers distance -------------------------------------------

#[test]
fn first_to_3_is_refused() {
    let a = Arbiter::new();
    a.refused_any(1, &create_challengers("Short", &["--first-to", "3"]))
        .stderr_names(&[
            "first-to-3 is refused",
            "The minimum distance shall be first-to-4",
            "at least two at-boards",
            "XMadn Challengers",
            "field `first_to`",
        ]);
    let rules = a.file(
        "short.toml",
        "format = \"xmadn-challengers\"\nfirst_to = 3\n",
    );
    let rules = rules.to_string_lossy().into_owned();
    a.refused_any(1, &create_challengers("Short", &["--rules", &rules]))
        .stderr_names(&[
            "rules file, line 2",
            "field `first_to`",
            "first-to-3 is refused",
        ]);
    assert_eq!(a.ok(&["competition", "list", "--json"]).trim(), "[]");
    // First to 4 is the minimum, and allowed.
    a.ok(&create_challengers("Short", &["--first-to", "4"]));
    assert_eq!(challengers_show(&a)["first_to"], 4);
}

// --- Bad input: the command line -----------------------------------------------

#[test]
fn malformed_pawns_time_and_colours_are_usage_errors() {
    let a = rolled(None);
    let [p, q] = pair(&playable(&show(&a))[0].1);
    for pawns in ["4x2", "4", "a-b", "4-", "300-2", "4-2-1"] {
        a.refused_any(2, &result(RESULT, &p, &q, pawns, "20:10"))
            .stderr_names(&["--pawns", "give both players' counted pawns like 4-2"]);
    }
    for time in ["20", "20:75", "twenty", "20:1", ""] {
        a.refused_any(2, &result(RESULT, &p, &q, "4-2", time))
            .stderr_names(&["--time", "m:ss"]);
    }
    // clap itself: a missing option, a value that looks like a flag.
    a.refused_any(2, &["league", "result", &p, &q, "--pawns", "4-2"])
        .stderr_names(&["--time"]);
    a.refused_any(2, &result(RESULT, &p, &q, "-1-2", "20:10"));
    for colours in ["red", "red-blue", ""] {
        a.refused_any(2, &["league", "playoff", "start", "--colours", colours])
            .stderr_names(&["colours", "vanguard and rearguard colours like red/blue"]);
    }
    a.refused_any(2, &["league", "export", "--format", "html"])
        .stderr_names(&["--format must be bbcode or markdown"]);
    a.refused_any(
        2,
        &[
            "league", "correct", "G1", &p, &q, "--pawns", "four-two", "--time", "20:10",
            "--reason", "typo",
        ],
    )
    .stderr_names(&["--pawns"]);

    let c = challengers(None);
    c.refused_any(2, &qualifier(["Anna", "Bert", "Carl"], "red", &[]))
        .stderr_names(&["colours", "like red/blue"]);
    c.refused_any(
        2,
        &qualifier(["Anna", "Bert", "Carl"], "red/blue", &["--time", "5"]),
    )
    .stderr_names(&["--time", "m:ss"]);
    c.refused_any(
        2,
        &result(CHALLENGERS_RESULT, "Anna", "Bert", "4:2", "12:00"),
    )
    .stderr_names(&["--pawns"]);
    c.refused_any(2, &["challengers", "export", "--format", "pdf"])
        .stderr_names(&["--format"]);
}

#[test]
fn a_script_with_a_malformed_result_stores_nothing() {
    // The malformed line is found before any line runs.
    let a = Arbiter::new();
    a.script(
        "bad-pawns.arbiter",
        "league create xl --name L --player Anna --player Bert --player Carl --at 2026-01-01\n\
         league roll --at 2026-01-02\n\
         league result Anna Bert --pawns 4to2 --time 20:00 --at 2026-01-03\n",
    )
    .fails_with(2)
    .stderr_names(&["bad-pawns.arbiter, line 3", "--pawns", "4to2"]);
    assert_eq!(a.ok(&["competition", "list", "--json"]).trim(), "[]");

    // A line the rules refuse stops the rehearsal: nothing is stored either.
    let b = league(None);
    let before = b.stored_any();
    b.script(
        "refused.arbiter",
        "league roll --at 2026-01-02\n\
         league result Anna Anna --pawns 4-2 --time 20:00 --at 2026-01-03\n",
    )
    .fails_with(1)
    .stderr_names(&[
        "refused.arbiter, line 2",
        "a game has two different players",
        "nothing was stored",
    ]);
    assert_unchanged(&before, &b.stored_any(), "the refused league script");
}

#[test]
fn tws_commands_on_xmadn_competitions_are_refused_naming_the_format() {
    let a = rolled(None);
    for args in [
        &["ladder", "show"][..],
        &["round", "announce", "--at", "2026-01-03"][..],
        &["player", "list"][..],
        &["stats"][..],
        &["draw", "verify"][..],
        &[
            "result",
            "record",
            "G1",
            "--winner",
            "Anna",
            "--by",
            "concession",
        ][..],
    ] {
        a.refused_any(1, args).stderr_names(&[
            "xl is an XMadn league",
            "this command is for TWS ladders",
            "arbiter league --help",
        ]);
    }
    a.refused_any(1, &["challengers", "show"])
        .stderr_names(&["\"xl\" is an XMadn league", "Challengers event"]);

    let c = challengers(None);
    c.refused_any(1, &["ladder", "show"]).stderr_names(&[
        "xc is an XMadn Challengers event",
        "this command is for TWS ladders",
        "arbiter challengers --help",
    ]);
    c.refused_any(1, &["league", "show"])
        .stderr_names(&["\"xc\" is an XMadn Challengers event", "league"]);
    c.refused_any(1, &["roll", "verify"])
        .stderr_names(&["\"xc\" is an XMadn Challengers event"]);
}

// --- Behaviour: a whole league -----------------------------------------------

#[test]
fn a_two_drr_league_runs_from_the_cli_to_its_champion() {
    let a = league(None);
    let v = show(&a);
    assert_eq!(v["rule_set"], "Championship (2T)");
    assert_eq!(v["double_round_robins"], 2);
    assert_eq!(v["playoff"], "all three: QG then FS3");
    assert_eq!(v["phase"], "DRR 1: positions to be rolled (`league roll`)");
    assert_eq!(v["drrs"][0]["status"], "to-come");

    let played = play_round_robins(&a, anna_wins_bert_and_carl_split());
    assert_eq!(played.games, 12, "every round-robin game is played");
    assert_eq!(played.position_rolls, 2);
    assert!(played.tiebreak_rolls >= 1, "{played:?}");
    assert_eq!(
        played.tiebreak_phases[0],
        "round of die-roll (step 6) needed among Bert, Carl"
    );
    let before = played.explain_before_tiebreak.unwrap();
    assert!(
        before
            .contains("Anna above Bert: overall win-loss record, 8-0 to 2-6 [XMadn League: Table]"),
        "{before}"
    );
    assert!(
        before.contains("Bert and Carl are tied through step 5"),
        "{before}"
    );

    // The table: Anna first, Bert and Carl separated by the die (step 6).
    let v = show(&a);
    assert_eq!(v["phase"], "qualifying to start");
    assert_eq!(v["provisional"], false);
    let table: Vec<(u64, String)> = v["table"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["place"].as_u64().unwrap(),
                r["player"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(table[0], (1, "Anna".to_string()));
    assert_eq!((table[1].0, table[2].0), (2, 3));
    let (second, third) = (table[1].1.clone(), table[2].1.clone());
    for p in [&second, &third] {
        let r = row(&v, p);
        assert_eq!(
            (r["wins"].as_u64(), r["losses"].as_u64()),
            (Some(2), Some(6))
        );
        assert_eq!(r["pawn_difference"], -16);
        assert_eq!(r["win_minutes"], 40);
    }
    let step6 = v["table_explanations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["text"].as_str().unwrap().contains("step 6"))
        .unwrap_or_else(|| panic!("no step-6 explanation: {}", v["table_explanations"]));
    assert_eq!(step6["clause"], "XMadn League: Table");
    assert!(strings(&step6["rulings"]).contains(&"XM-R3".to_string()));
    assert!(
        step6["text"].as_str().unwrap().starts_with(&format!(
            "{second} above {third}: step 6, round of die-roll"
        )),
        "{step6}"
    );

    // `league explain`: one line per split, each citing its clause.
    let explain = a.ok(&["league", "explain"]);
    let lines: Vec<&str> = explain.lines().collect();
    assert_eq!(lines.len(), 2, "{explain}");
    for l in &lines {
        assert!(l.contains("[XMadn League: Table"), "{l}");
    }
    let mine = a.ok_json(&["league", "explain", &third, "--json"]);
    for e in mine.as_array().unwrap() {
        assert_keys(e, &["clause", "rulings", "text"], "an explanation");
        assert_eq!(e["clause"], "XMadn League: Table");
        assert!(e["text"].as_str().unwrap().contains(third.as_str()), "{e}");
    }

    // Results are corrected until the playoff starts (ARB-R28): G1, an Anna
    // win, took 21:30, not 20:00 (only Anna's win minutes change).
    let g1 = game(&v, "G1");
    assert_eq!(g1["winner"], "Anna");
    let l = pair(&g1).into_iter().find(|p| p != "Anna").unwrap();
    let out = a.ok(&[
        "league",
        "correct",
        "G1",
        "Anna",
        &l,
        "--pawns",
        "4-0",
        "--time",
        "21:30",
        "--reason",
        "the clock was misread",
    ]);
    assert!(
        out.contains("corrected to") && out.contains("(the clock was misread)"),
        "{out}"
    );
    let after = show(&a);
    assert_eq!(game(&after, "G1")["time"], "21:30");
    assert_eq!(row(&after, "Anna")["win_minutes"], 161);
    let places = |v: &Value| -> Vec<(Value, Value)> {
        v["table"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["player"].clone(), r["place"].clone()))
            .collect()
    };
    assert_eq!(places(&after), places(&v));

    // The playoff's qualifying game: the higher seed (2nd) chooses colours;
    // only colours of the board, two different ones.
    a.refused_any(
        1,
        &["league", "playoff", "start", "--colours", "purple/blue"],
    )
    .stderr_names(&[
        "\"purple\" is not a colour of the board",
        "red, blue, green, yellow",
        "field `colours`",
    ]);
    a.refused_any(1, &["league", "playoff", "start", "--colours", "red/red"])
        .stderr_names(&["two different allied colours", "field `colours`"]);
    a.refused_any(1, &result(PLAYOFF_RESULT, &second, &third, "4-2", "20:00"))
        .stderr_names(&["the qualifying is to be started", "league playoff start"]);
    a.ok(&["league", "playoff", "start", "--colours", "blue/red"]);
    let v = show(&a);
    let qg = &v["playoffs"][0];
    assert_keys(
        qg,
        &[
            "stage",
            "code",
            "higher",
            "lower",
            "higher_colours",
            "lower_colours",
            "head_start",
            "wins",
            "wins_needed",
            "games",
            "explanation",
        ],
        "a playoff round",
    );
    assert_eq!(qg["stage"], "qualifying");
    assert_eq!(qg["code"], "QG");
    assert_eq!(qg["higher"], second.as_str());
    assert_eq!(qg["lower"], third.as_str());
    assert_eq!(qg["higher_colours"], "blue/red");
    assert_eq!(
        qg["lower_colours"], "green/yellow",
        "the colours left (ARB-R25)"
    );
    assert_eq!(qg["head_start"], false);
    assert_eq!(qg["wins_needed"], 1);
    assert_eq!(qg["explanation"]["clause"], "XMadn League: Playoff");

    // Now the table is final (ARB-R28).
    a.refused_any(
        1,
        &[
            "league", "correct", "G1", "Anna", &l, "--pawns", "4-1", "--time", "20:00", "--reason",
            "too late",
        ],
    )
    .stderr_names(&[
        "the playoff has started",
        "the table it was seeded from is final",
        "XMadn League: Playoff",
    ]);
    // Only the qualifying's players play now.
    a.refused_any(1, &result(PLAYOFF_RESULT, "Anna", &second, "4-2", "20:00"))
        .stderr_names(&[
            &format!("the qualifying is {second} v {third}"),
            &format!("Anna v {second} are not paired in it"),
            "field `players`",
        ]);
    a.refused_any(1, &result(RESULT, "Anna", &second, "4-2", "20:00"))
        .stderr_names(&["the qualifying is being played"]);

    // The lower seed wins the QG: the final is Anna against him.
    playoff_win(&a, &third, &second, 3, "25:00");
    let v = show(&a);
    assert_eq!(v["playoffs"][0]["winner"], third.as_str());
    assert_eq!(v["playoffs"][0]["wins"], serde_json::json!([0, 1]));
    assert_eq!(v["phase"], "final to start");

    // The final: Anna chooses (colour names in any case) and, with the better
    // overall record (8-0 to 2-6), starts 1-0 (XM-R7).
    a.ok(&["league", "playoff", "start", "--colours", "Yellow/Green"]);
    let v = show(&a);
    let fs = &v["playoffs"][1];
    assert_eq!(fs["stage"], "final");
    assert_eq!(fs["code"], "FS3");
    assert_eq!(fs["higher"], "Anna");
    assert_eq!(fs["lower"], third.as_str());
    assert_eq!(fs["higher_colours"], "yellow/green");
    assert_eq!(fs["lower_colours"], "red/blue");
    assert_eq!(fs["head_start"], true);
    assert_eq!(fs["wins"], serde_json::json!([1, 0]));
    assert_eq!(fs["wins_needed"], 3);
    assert!(
        fs["explanation"]["text"]
            .as_str()
            .unwrap()
            .contains("Anna starts 1-0"),
        "{}",
        fs["explanation"]
    );
    a.refused_any(1, &result(PLAYOFF_RESULT, "Anna", &second, "4-2", "20:00"))
        .stderr_names(&[&format!("the final is Anna v {third}"), "not paired in it"]);

    playoff_win(&a, &third, "Anna", 2, "24:00");
    playoff_win(&a, "Anna", &third, 1, "22:00");
    assert!(show(&a)["champion"].is_null());
    playoff_win(&a, "Anna", &third, 0, "18:00");
    let v = show(&a);
    assert_eq!(v["champion"], "Anna");
    assert_eq!(v["phase"], "finished: Anna is champion");
    assert_eq!(v["playoffs"][1]["winner"], "Anna");
    assert_eq!(v["playoffs"][1]["wins"], serde_json::json!([3, 1]));
    let finals = v["playoffs"][1]["games"].as_array().unwrap();
    assert_eq!(finals.len(), 3, "the head start is not a game");
    for g in finals {
        assert_eq!(g["players"], serde_json::json!(["Anna", third.as_str()]));
        assert_eq!(g["status"], "played");
    }
    assert!(a.ok(&["league", "show"]).contains("\nChampion: Anna\n"));

    // Nothing more is played.
    a.refused_any(1, &result(PLAYOFF_RESULT, "Anna", &third, "4-2", "20:00"))
        .stderr_names(&["the league is over", "Anna is champion"]);
    a.refused_any(1, &["league", "roll"])
        .stderr_names(&["the league is over"]);
    a.refused_any(1, &["league", "playoff", "start", "--colours", "red/blue"]);

    // Undo the last final game: the final is open again; record it again.
    let out = a.ok(&["undo"]);
    assert!(
        out.starts_with("Undid event") && out.contains("league-playoff-game-played"),
        "{out}"
    );
    let v = show(&a);
    assert!(v["champion"].is_null());
    assert_eq!(v["phase"], "final in play");
    assert_eq!(v["playoffs"][1]["wins"], serde_json::json!([2, 1]));
    playoff_win(&a, "Anna", &third, 0, "18:00");
    assert_eq!(show(&a)["champion"], "Anna");

    // Every round of die-roll verifies against its published commitment, and
    // recomputes from its seed alone.
    let out = a.ok(&["roll", "verify"]);
    assert!(
        !out.contains("DOES NOT") && !out.contains("DIFFER"),
        "{out}"
    );
    let rolls = a.ok_json(&["roll", "verify", "--json"]);
    let rolls = rolls.as_array().unwrap();
    assert_eq!(rolls.len(), 2 + played.tiebreak_rolls);
    let purposes: Vec<&str> = rolls
        .iter()
        .map(|r| r["purpose"].as_str().unwrap())
        .collect();
    assert_eq!(
        purposes[..3],
        [
            "positions of DRR 1",
            "positions of DRR 2",
            "tiebreak step 6"
        ]
    );
    for r in rolls {
        assert_keys(
            r,
            &[
                "number",
                "purpose",
                "kind",
                "at",
                "verification",
                "rounds",
                "faces",
                "seed",
                "commitment",
                "commitment_ok",
                "faces_ok",
            ],
            "a roll",
        );
        assert_eq!(r["commitment_ok"], true, "{r}");
        assert_eq!(r["faces_ok"], true, "{r}");
        let faces = r["faces"].as_str().unwrap();
        let mut args = vec![
            "roll",
            "recompute",
            "--seed",
            r["seed"].as_str().unwrap(),
            "--commitment",
            r["commitment"].as_str().unwrap(),
            "--json",
        ];
        let players = rollers(faces);
        for p in &players {
            args.extend(["--player", p]);
        }
        if r["purpose"] == "tiebreak step 6" {
            args.push("--tiebreak");
        }
        let again = a.ok_json(&args);
        assert_eq!(again["commitment_ok"], true);
        assert_eq!(strings(&again["rounds"]).join("; then "), faces, "{r}");
    }
    // Each roll's commitment was published before it: at creation, then by
    // the roll before.
    let history = a.ok_json(&["history", "--json"]);
    let mut published = vec![history[0]["payload"]["seed_hash"].clone()];
    for h in history.as_array().unwrap() {
        if h["event"].as_str().unwrap().ends_with("-rolled") {
            published.push(h["payload"]["next_seed_hash"].clone());
        }
    }
    for (r, commitment) in rolls.iter().zip(&published) {
        assert_eq!(&r["commitment"], commitment, "{r}");
    }

    // The history: every event, in order, with its actor and a summary.
    let entries = history.as_array().unwrap();
    for (i, h) in entries.iter().enumerate() {
        assert_keys(
            h,
            &[
                "seq", "event", "actor", "time", "summary", "undone", "payload",
            ],
            "a history entry",
        );
        assert_eq!(h["seq"], i + 1);
        assert_eq!(h["actor"], "tester");
        assert!(!h["summary"].as_str().unwrap().is_empty(), "{h}");
    }
    let kinds = event_kinds(&a);
    for kind in [
        "league-created",
        "league-positions-rolled",
        "league-result-recorded",
        "league-result-corrected",
        "league-tiebreak-rolled",
        "league-playoff-started",
        "league-playoff-game-played",
        "reverted",
    ] {
        assert!(kinds.iter().any(|k| k == kind), "no {kind} in {kinds:?}");
    }
    let undone: Vec<&Value> = entries.iter().filter(|h| h["undone"] == true).collect();
    assert_eq!(undone.len(), 1);
    assert_eq!(undone[0]["event"], "league-playoff-game-played");
    let text = a.ok(&["history"]);
    assert!(
        text.contains("league-playoff-game-played (undone)"),
        "{text}"
    );
    assert!(text.contains("round of die-roll for step 6"), "{text}");

    // The competition list knows the format; `competition show` is `league show`.
    let list = a.ok_json(&["competition", "list", "--json"]);
    assert_eq!(list[0]["format"], "xmadn-league");
    assert_eq!(list[0]["version"], show(&a)["version"]);
    assert_eq!(a.ok(&["competition", "show"]), a.ok(&["league", "show"]));
}

#[test]
fn league_show_json_has_the_documented_shape() {
    let a = rolled(None);
    let v = show(&a);
    assert_keys(
        &v,
        &[
            "competition",
            "version",
            "name",
            "rule_set",
            "double_round_robins",
            "playoff",
            "head_start",
            "players",
            "phase",
            "provisional",
            "table",
            "table_explanations",
            "drrs",
            "determined",
            "determination",
            "playoffs",
            "rolls",
        ],
        "league show --json",
    );
    assert_eq!(v["competition"], "xl");
    assert_eq!(v["version"], 2);
    assert_eq!(v["players"], serde_json::json!(["Anna", "Bert", "Carl"]));
    assert_eq!(v["provisional"], true);
    assert_keys(
        &v["table"][0],
        &[
            "place",
            "player",
            "played",
            "wins",
            "losses",
            "pawns_for",
            "pawns_against",
            "pawn_difference",
            "win_minutes",
            "explanations",
        ],
        "a table row",
    );
    assert_keys(
        &v["determination"],
        &["clause", "rulings", "text"],
        "the determination",
    );
    let drrs = v["drrs"].as_array().unwrap();
    assert_eq!(drrs.len(), 2);
    assert_keys(
        &drrs[0],
        &[
            "number",
            "status",
            "positions",
            "positions_explanation",
            "games",
        ],
        "a rolled DRR",
    );
    assert_eq!(drrs[0]["status"], "scheduled");
    assert_eq!(drrs[1]["status"], "to-come");
    assert_eq!(drrs[1]["positions"], serde_json::json!([]));
    assert_eq!(
        drrs[0]["positions_explanation"]["clause"],
        "XMadn League: Double-round robins"
    );
    // The schedule of the document from the positions rolled.
    let pos = strings(&drrs[0]["positions"]);
    let games = drrs[0]["games"].as_array().unwrap();
    let schedule: Vec<[String; 2]> = games.iter().map(pair).collect();
    let at = |i: usize, j: usize| [pos[i - 1].clone(), pos[j - 1].clone()];
    assert_eq!(
        schedule,
        [at(1, 2), at(3, 1), at(2, 3), at(2, 1), at(1, 3), at(3, 2)]
    );
    assert_keys(
        &games[0],
        &[
            "id", "label", "alias", "stage", "players", "status", "playable",
        ],
        "a scheduled game",
    );
    let open: Vec<bool> = games
        .iter()
        .map(|g| g["playable"].as_bool().unwrap())
        .collect();
    assert_eq!(open, [true, false, false, false, false, false]);

    // A played game has its score (in the game's order), winner and time.
    let [p, q] = pair(&games[0]);
    a.ok(&result(RESULT, &q, &p, "4-3", "20:05"));
    let g1 = game(&show(&a), "G1");
    assert_keys(
        &g1,
        &[
            "id", "label", "alias", "stage", "players", "status", "score", "winner", "time",
            "playable",
        ],
        "a played game",
    );
    assert_eq!(g1["score"], "3-4");
    assert_eq!(g1["winner"], q.as_str());
    assert_eq!(g1["time"], "20:05");

    // The write itself, as JSON.
    let [r, s] = pair(&playable(&show(&a))[0].1);
    let done = a.ok_json(&[result(RESULT, &r, &s, "4-0", "15:00"), vec!["--json"]].concat());
    assert_eq!(
        done,
        serde_json::json!({"first": 4, "last": 4, "replayed": false, "events": ["league-result-recorded"]})
    );
    let suggest = a.ok_json(&["league", "suggest", "--json"]);
    assert_keys(
        &suggest,
        &["suggestion", "determined", "determination"],
        "league suggest --json",
    );
}

#[test]
fn undo_reverts_the_last_result() {
    let a = rolled(None);
    let [p, q] = pair(&playable(&show(&a))[0].1);
    win(&a, &p, &q, 2, "21:30");
    let before_undo = show(&a);
    assert_eq!(game(&before_undo, "G1")["status"], "played");
    assert_eq!(row(&before_undo, &p)["wins"], 1);

    let out = a.ok(&["undo"]);
    assert_eq!(
        out.trim(),
        format!(
            "Undid event 3 (league-result-recorded: DRR 1 Game 1 (G1): {p} v {q}: 4-2 in 21:30) by event 4."
        )
    );
    let v = show(&a);
    let g1 = game(&v, "G1");
    assert_eq!(g1["status"], "scheduled");
    assert_eq!(g1["playable"], true);
    assert_eq!(row(&v, &p)["wins"], 0);
    assert_eq!(v["version"], 4);
    let history = a.ok_json(&["history", "--json"]);
    assert_eq!(history[2]["undone"], true);
    assert_eq!(history[3]["event"], "reverted");

    // The game is recorded again, the other way.
    win(&a, &q, &p, 1, "19:00");
    assert_eq!(game(&show(&a), "G1")["winner"], q.as_str());
    // Undo never reaches behind the creation.
    let b = league(None);
    b.refused_any(1, &["undo"])
        .stderr_names(&["the creation of the competition cannot be undone"]);
}

#[test]
fn a_three_way_tie_through_step_5_is_broken_by_the_die() {
    let a = league(Some(
        "format = \"xmadn-league\"\n\n[playoff]\nformat = \"top-two\"\nfinal = \"game\"\n",
    ));
    let played = play_round_robins(&a, everyone_splits());
    assert_eq!(played.games, 12);
    assert_eq!(
        played.tiebreak_phases[0],
        "round of die-roll (step 6) needed among Anna, Bert, Carl"
    );
    let before = played.explain_before_tiebreak.unwrap();
    assert!(
        before.contains("Anna, Bert and Carl are tied through step 5"),
        "{before}"
    );
    let v = show(&a);
    assert_eq!(v["phase"], "final to start");
    let places: Vec<u64> = v["table"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["place"].as_u64().unwrap())
        .collect();
    assert_eq!(places, [1, 2, 3]);
    for r in v["table"].as_array().unwrap() {
        assert_eq!(
            (r["wins"].as_u64(), r["losses"].as_u64()),
            (Some(4), Some(4))
        );
        assert_eq!(r["pawn_difference"], 0);
    }
    for e in v["table_explanations"].as_array().unwrap() {
        assert!(e["text"].as_str().unwrap().contains("step 6"), "{e}");
    }
    // A single Final Game: no head start (only a first-to-x series has one,
    // XM-R7).
    a.ok(&["league", "playoff", "start", "--colours", "red/green"]);
    let v = show(&a);
    let fg = &v["playoffs"][0];
    assert_eq!(fg["code"], "FG");
    assert_eq!(fg["head_start"], false);
    assert_eq!(fg["wins"], serde_json::json!([0, 0]));
    assert_eq!(fg["higher"], v["table"][0]["player"]);
    assert_eq!(fg["lower"], v["table"][1]["player"]);
    assert_eq!(fg["lower_colours"], "blue/yellow");
    let (higher, lower) = (
        fg["higher"].as_str().unwrap().to_string(),
        fg["lower"].as_str().unwrap().to_string(),
    );
    playoff_win(&a, &lower, &higher, 3, "30:00");
    assert_eq!(show(&a)["champion"], lower.as_str());
    let rolls = a.ok_json(&["roll", "verify", "--json"]);
    assert!(
        rolls
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["commitment_ok"] == true && r["faces_ok"] == true)
    );
}

#[test]
fn the_significant_outcomes_are_determined_once_the_die_has_spoken() {
    let a = league(None);
    play_round_robins(&a, anna_wins_bert_and_carl_split());
    let v = show(&a);
    assert_eq!(v["phase"], "qualifying to start");
    assert_eq!(v["determined"], true, "{}", v["determination"]);
}

// --- Behaviour: Challengers ----------------------------------------------------

/// ARB-R65 in a Challengers event: a game entered by the pawns each player
/// brought home per allied colour; the counted pawns follow from the rule
/// set (the best colour in 2T) and are shown beside them.
#[test]
fn a_challengers_game_is_entered_by_the_pawns_brought_home() {
    let a = challengers(None);
    a.ok(&qualifier(["Carl", "Anna", "Bert"], "Green/Red", &[]));
    // Game 1 is Carl v Anna: Anna named first, 2/3 against Carl's 4/1.
    a.ok(&[
        "challengers",
        "result",
        "Anna",
        "Carl",
        "--home",
        "2/3,4/1",
        "--time",
        "12:00",
    ]);
    let v = challengers_show(&a);
    let g = &v["games"][0];
    assert_eq!(g["winner"], "Carl", "{g}");
    let carl_first = g["players"][0] == "Carl";
    assert_eq!(g["score"], if carl_first { "4-3" } else { "3-4" }, "{g}");
    let carl = &g["brought_home"][if carl_first { 0 } else { 1 }];
    assert_eq!(
        (carl["vanguard"].as_u64(), carl["rearguard"].as_u64()),
        (Some(4), Some(1)),
        "{g}"
    );
    let text = a.ok(&["challengers", "show"]);
    assert!(text.contains("(home "), "{text}");
    // No result: both count 4 (2T). Refused naming --home's figures.
    a.refused_any(
        1,
        &[
            "challengers",
            "result",
            "Carl",
            "Bert",
            "--home",
            "4/0,0/4",
            "--time",
            "12:00",
        ],
    )
    .stderr_names(&[
        "counted from the pawns brought home, 4/0 v 0/4",
        "field `home`",
    ]);
}

#[test]
fn a_first_to_5_challengers_event_runs_to_its_end() {
    let a = challengers(None);
    let v = challengers_show(&a);
    assert_eq!(v["first_to"], 5);
    assert!(v["next"].is_null());
    a.refused_any(
        1,
        &result(CHALLENGERS_RESULT, "Anna", "Bert", "4-2", "12:00"),
    )
    .stderr_names(&["record Game 0 (3TQ) first", "XMadn Challengers"]);

    a.ok(&qualifier(
        ["Carl", "Anna", "Bert"],
        "Green/Red",
        &["--time", "9:30"],
    ));
    a.refused_any(1, &qualifier(["Anna", "Bert", "Carl"], "red/blue", &[]));
    let v = challengers_show(&a);
    assert_eq!(v["qualifier"], serde_json::json!(["Carl", "Anna", "Bert"]));
    let next = &v["next"];
    assert_eq!(next["number"], 1);
    assert_eq!(next["players"], serde_json::json!(["Carl", "Anna"]));
    assert_eq!(
        next["colours"],
        serde_json::json!(["green/red", "blue/yellow"])
    );
    assert_eq!(next["sits_out"], "Bert");

    // The 3rd of Game 0 sits out Game 1 (ARB-R29); game times are more than
    // 0:00.
    a.refused_any(
        1,
        &result(CHALLENGERS_RESULT, "Bert", "Anna", "4-2", "12:00"),
    )
    .stderr_names(&[
        "Bert sits out Game 1",
        "only 1st and 2nd place of Game 0 qualify for Game 1",
        "field `players`",
    ]);
    a.refused_any(
        1,
        &result(CHALLENGERS_RESULT, "Carl", "Anna", "4-2", "0:00"),
    )
    .stderr_names(&["more than 0:00", "field `time`"]);
    a.refused_any(
        1,
        &result(CHALLENGERS_RESULT, "Carl", "Anna", "4-4", "12:00"),
    )
    .stderr_names(&["2T", "field `pawns`"]);

    // Who wins: the player who stays at the board, or the one who comes
    // back, in a fixed pattern, so that nobody walks over. The loser is
    // named first (either order is accepted, ARB-R29).
    let stayer_wins = [false, true, false, false, true];
    let mut tally: HashMap<String, u64> = HashMap::new();
    let mut previous: Option<Value> = None;
    let mut games = 0;
    for i in 0..40 {
        let v = challengers_show(&a);
        if !v["champion"].is_null() {
            break;
        }
        let next = v["next"].clone();
        assert_eq!(next["number"], i + 1);
        // The player who stays (or 1st of Game 0) is named first.
        let players = strings(&next["players"]);
        let colours = strings(&next["colours"]);
        if let Some(p) = &previous {
            // The winner stays with his colours; the returning player takes
            // the loser's (XM-R8); the loser sits out.
            let winner = usize::from(p["players"][1] == p["winner"]);
            assert_eq!(next["players"][0], p["players"][winner]);
            assert_eq!(next["colours"][0], p["colours"][winner]);
            assert_eq!(next["colours"][1], p["colours"][1 - winner]);
            assert_eq!(next["sits_out"], p["players"][1 - winner]);
            assert_ne!(next["players"][1], p["players"][1 - winner]);
        }
        assert_ne!(colours[0], colours[1]);
        let w = usize::from(!stayer_wins[i % stayer_wins.len()]);
        let (winner, loser) = (&players[w], &players[1 - w]);
        a.ok(&result(
            CHALLENGERS_RESULT,
            loser,
            winner,
            &format!("{}-4", i % 4),
            &format!("{}:{:02}", 15 + i, i * 7 % 60),
        ));
        games += 1;
        *tally.entry(winner.clone()).or_default() += 1;
        let v = challengers_show(&a);
        let g = v["games"][i].clone();
        assert_eq!(g["winner"], winner.as_str());
        assert_eq!(
            g["score"],
            format!(
                "{}-{}",
                if w == 0 { 4 } else { i % 4 },
                if w == 0 { i % 4 } else { 4 }
            )
        );
        previous = Some(g);
    }
    let champion: Vec<&String> = tally
        .iter()
        .filter(|(_, wins)| **wins == 5)
        .map(|(p, _)| p)
        .collect();
    assert_eq!(champion.len(), 1, "{tally:?}");
    let champion = champion[0].clone();
    let v = challengers_show(&a);
    assert_eq!(v["champion"], champion.as_str());
    assert!(v["next"].is_null());
    assert_eq!(v["games"].as_array().unwrap().len(), games);
    let standings = v["standings"].as_array().unwrap();
    assert_eq!(standings[0]["player"], champion.as_str());
    assert_eq!(standings[0]["wins"], 5);
    assert_eq!(standings[0]["champion"], true);
    let mut sat_out_total = 0;
    for s in standings {
        let p = s["player"].as_str().unwrap();
        assert!(
            s["at_boards"].as_u64().unwrap() >= 2,
            "first-to-5 gives everyone at least two at-boards: {s}"
        );
        assert_eq!(
            s["wins"].as_u64().unwrap(),
            tally.get(p).copied().unwrap_or(0)
        );
        assert_eq!(
            s["wins"].as_u64().unwrap() + s["losses"].as_u64().unwrap(),
            s["at_boards"].as_u64().unwrap()
        );
        sat_out_total += s["sat_out"].as_u64().unwrap();
    }
    assert_eq!(
        sat_out_total, games as u64,
        "one player sits out each counted game"
    );
    let bert = standings.iter().find(|s| s["player"] == "Bert").unwrap();
    assert_eq!(bert["qualifier_place"], 3);
    let explanation = v["champion_explanation"]["text"].as_str().unwrap();
    assert!(
        explanation.starts_with(&format!(
            "{champion} won first-to-5: 5 wins, the last in Game {games}"
        )),
        "{explanation}"
    );

    // The event is over: no further game, whoever is named.
    for pair in [["Anna", "Bert"], ["Bert", "Carl"], ["Carl", "Anna"]] {
        a.refused_any(
            1,
            &result(CHALLENGERS_RESULT, pair[0], pair[1], "4-2", "12:00"),
        )
        .stderr_names(&[
            &format!("{champion} already won first-to-5"),
            "the event is over and no more games are played",
        ]);
    }

    // Undo the winning game: the event is open again.
    let out = a.ok(&["undo"]);
    assert!(
        out.contains(&format!("challengers-game-played: Game {games}")),
        "{out}"
    );
    let v = challengers_show(&a);
    assert!(v["champion"].is_null());
    assert_eq!(v["next"]["number"], games);
    let kinds = event_kinds(&a);
    assert_eq!(kinds[0], "challengers-created");
    assert_eq!(kinds[1], "challengers-qualifier-played");
    assert_eq!(kinds.last().unwrap(), "reverted");
    let list = a.ok_json(&["competition", "list", "--json"]);
    assert_eq!(list[0]["format"], "xmadn-challengers");
    assert_eq!(
        a.ok(&["competition", "show"]),
        a.ok(&["challengers", "show"])
    );
}

// --- The example scripts -------------------------------------------------------

/// A database with the example replayed; the script's output.
fn replayed(example: &str) -> (Arbiter, String) {
    let a = Arbiter::new();
    let run: Run = a.run(&["script", example]).success();
    assert_eq!(run.stderr, "", "the example writes nothing to stderr");
    (a, run.stdout)
}

/// The snapshot `name` of `out`, what `arbiter ARGS` printed.
fn snapshot_of(name: &str, args: &str, out: &str) {
    insta::with_settings!({ description => format!("arbiter {args}"), omit_expression => true }, {
        insta::assert_snapshot!(name, out);
    });
}

/// The snapshot `name` of what `arbiter ARGS` prints.
fn snapshot(name: &str, a: &Arbiter, args: &[&str]) {
    snapshot_of(name, &args.join(" "), &a.ok(args));
}

#[test]
fn the_league_example_runs_to_its_champion() {
    let (a, out) = replayed(LEAGUE_EXAMPLE);
    snapshot_of(
        "league_script_output",
        &format!("script {LEAGUE_EXAMPLE}"),
        &out,
    );
    let v = show(&a);
    assert_eq!(v["champion"], "Ana Morales");
    let statuses: Vec<String> = v["drrs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|d| d["games"].as_array().unwrap().iter())
        .map(|g| g["status"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(statuses.iter().filter(|s| *s == "cancelled").count(), 2);
    assert_eq!(v["playoffs"][1]["head_start"], true);
    let kinds = event_kinds(&a);
    for kind in [
        "league-result-corrected",
        "league-game-cancelled",
        "league-playoff-started",
        "reverted",
    ] {
        assert!(kinds.iter().any(|k| k == kind), "no {kind} in the example");
    }
    let verify = a.ok(&["roll", "verify"]);
    assert!(!verify.contains("DOES NOT"), "{verify}");

    snapshot("league_show", &a, &["league", "show"]);
    snapshot("league_show_json", &a, &["league", "show", "--json"]);
    snapshot(
        "league_export_markdown",
        &a,
        &["league", "export", "--format", "markdown"],
    );
    snapshot(
        "league_export_bbcode",
        &a,
        &["league", "export", "--format", "bbcode"],
    );
    snapshot("league_explain", &a, &["league", "explain"]);
    snapshot("league_roll_verify", &a, &["roll", "verify"]);
    snapshot("league_history", &a, &["history"]);
}

#[test]
fn the_challengers_example_runs_to_its_champion() {
    let (a, out) = replayed(CHALLENGERS_EXAMPLE);
    snapshot_of(
        "challengers_script_output",
        &format!("script {CHALLENGERS_EXAMPLE}"),
        &out,
    );
    let v = challengers_show(&a);
    assert_eq!(v["champion"], "Farid Haddad");
    for s in v["standings"].as_array().unwrap() {
        assert!(s["at_boards"].as_u64().unwrap() >= 2, "{s}");
    }
    snapshot("challengers_show", &a, &["challengers", "show"]);
    snapshot(
        "challengers_show_json",
        &a,
        &["challengers", "show", "--json"],
    );
    snapshot(
        "challengers_export_markdown",
        &a,
        &["challengers", "export", "--format", "markdown"],
    );
    snapshot("challengers_history", &a, &["history"]);
}

#[test]
fn replaying_an_example_twice_gives_the_same_competition() {
    for (example, noun) in [
        (LEAGUE_EXAMPLE, "league"),
        (CHALLENGERS_EXAMPLE, "challengers"),
    ] {
        let (a, out_a) = replayed(example);
        let (b, out_b) = replayed(example);
        assert_eq!(out_a, out_b);
        assert_eq!(
            a.ok(&[noun, "show", "--json"]),
            b.ok(&[noun, "show", "--json"])
        );
        assert_eq!(a.ok(&["history", "--json"]), b.ok(&["history", "--json"]));
        // The example runs once per database: the second time, the
        // competition exists and the rehearsal stores nothing.
        let before = a.stored_any();
        a.run(&["script", example])
            .fails_with(1)
            .stderr_names(&["already exists", "nothing was stored"]);
        assert_unchanged(&before, &a.stored_any(), "replaying the example again");
    }
}

/// Issue 15 §4 from the command line: `league show` names the head start
/// setting (XM-R7); faces of real dice rolled at the table are entered with
/// `league roll --faces` and recorded as entered by the actor (ARB-R64), and
/// `--json` returns them; `roll verify` says who entered them; a result is
/// entered by the pawns brought home per colour (ARB-R65); games are named
/// by the document (DRR 1 Game 1) and found by it or by their id (ARB-R63).
#[test]
fn issue_15_entered_faces_pawns_home_and_document_game_numbers() {
    let a = league(None);
    let text = a.ok(&["league", "show"]);
    assert!(text.contains("head start: allowed (XM-R7)"), "{text}");
    // Out of range: refused, naming the field; nothing stored.
    a.refused_any(1, &["league", "roll", "--faces", "Anna=7,Bert=2,Carl=6"])
        .stderr_names(&["not 1 to 6", "field `faces`"]);
    let v: Value = a.ok_json(&[
        "league",
        "roll",
        "--faces",
        "Anna=5,Bert=5,Carl=2",
        "--faces",
        "Bert=6,Anna=3",
        "--json",
    ]);
    assert_eq!(v["events"][0], "league-positions-entered", "{v}");
    assert_eq!(v["roll"]["kind"], "entered", "{v}");
    assert_eq!(v["roll"]["entered_by"], "tester", "{v}");
    assert_eq!(v["roll"]["rounds"][1][1]["player"], "Bert", "{v}");
    assert_eq!(v["roll"]["rounds"][1][1]["face"], 6, "{v}");
    let verify = a.ok(&["roll", "verify"]);
    assert!(verify.contains("entered by tester at"), "{verify}");
    assert!(verify.contains("not a committed draw"), "{verify}");
    // Game 1 is Bert (#1) v Anna (#2): entered by the pawns home, Anna first.
    a.ok(&[
        "league", "result", "Anna", "Bert", "--home", "2/3,4/1", "--time", "21:00",
    ]);
    let v: Value = show(&a);
    let g = game(&v, "G1");
    assert_eq!(g["label"], "Game 1", "{g}");
    assert_eq!(g["score"], "4-3", "{g}");
    assert_eq!(g["brought_home"][0]["vanguard"], 4, "{g}");
    assert_eq!(g["brought_home"][1]["rearguard"], 3, "{g}");
    let text = a.ok(&["league", "show"]);
    assert!(text.contains("DRR 1 Game 1"), "{text}");
    assert!(text.contains("4-3 (home 4/1 v 2/3)"), "{text}");
    // The document's name and the id both find a game.
    a.refused_any(
        1,
        &[
            "league",
            "correct",
            "DRR 1 Game 2",
            "Anna",
            "Bert",
            "--pawns",
            "4-0",
            "--time",
            "9:00",
            "--reason",
            "x",
        ],
    )
    .stderr_names(&["DRR 1 Game 2 (G2) has no result to correct"]);
    a.ok(&[
        "league", "correct", "1.1", "Bert", "Anna", "--home", "4/4,0/3", "--time", "21:00",
        "--reason", "misread",
    ]);
    let v: Value = show(&a);
    assert_eq!(game(&v, "G1")["score"], "4-3");
    assert_eq!(game(&v, "G1")["brought_home"][0]["vanguard"], 4);
}
