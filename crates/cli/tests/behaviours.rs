//! What the CLI promises beyond single commands: undo, showing a past state,
//! idempotent retries, choosing the competition, and `--json` on every read
//! command.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{Arbiter, REGISTERED, assert_unchanged, running};

fn history(a: &Arbiter) -> Vec<serde_json::Value> {
    a.run(&["history", "--json"])
        .success()
        .json()
        .as_array()
        .unwrap()
        .clone()
}

fn version(a: &Arbiter) -> u64 {
    a.run(&["ladder", "show", "--json"]).success().json()["version"]
        .as_u64()
        .unwrap()
}

// --- Undo ---------------------------------------------------------------------

#[test]
fn undo_twice_marks_both_events_undone() {
    let a = running();
    let before = history(&a);
    let last = before.len() as u64;
    // The last two events: G4's result (24) and the announcement of round 2 (23).
    assert_eq!(before[before.len() - 1]["event"], "result-recorded");
    assert_eq!(before[before.len() - 2]["event"], "round-announced");

    let first = a.ok(&["undo", "--at", "2026-03-12"]);
    assert!(
        first.contains(&format!("Undid event {last} (result-recorded")),
        "{first}"
    );
    let second = a
        .run(&["undo", "--json", "--at", "2026-03-12"])
        .success()
        .json();
    assert_eq!(second["undone"], last - 1);
    assert_eq!(second["event"], "round-announced");
    assert_eq!(second["version"], last + 2);

    let after = history(&a);
    assert_eq!(after.len() as u64, last + 2, "undo appends, never deletes");
    let undone: Vec<u64> = after
        .iter()
        .filter(|h| h["undone"] == true)
        .map(|h| h["seq"].as_u64().unwrap())
        .collect();
    assert_eq!(undone, [last - 1, last]);
    for h in &after[after.len() - 2..] {
        assert_eq!(h["event"], "reverted");
        assert_eq!(h["actor"], "tester");
        assert_eq!(h["time"], "2026-03-12T00:00:00Z");
    }
    // The text history marks them too.
    let text = a.ok(&["history", "--limit", "4"]);
    assert_eq!(text.matches("(undone)").count(), 2, "{text}");

    // Round 2 is gone; round 1 stays closed, and round 2 can be announced again.
    let ladder = a.run(&["ladder", "show", "--json"]).success().json();
    assert_eq!(ladder["current_round"], serde_json::Value::Null);
    assert_eq!(ladder["rounds_closed"], 1);
    a.ok(&["round", "announce", "--at", "2026-03-13"]);
}

#[test]
fn undo_cannot_undo_the_creation() {
    let a = Arbiter::new();
    a.ok(&[
        "competition",
        "create",
        "tws",
        "--name",
        "T",
        "--at",
        "2026-01-05",
    ]);
    let before = a.stored();
    a.run(&["undo", "--at", "2026-01-06"])
        .fails_with(1)
        .stderr_names(&["creation", "cannot be undone"]);
    assert_unchanged(&before, &a.stored(), "the refused undo");
}

// --- As of --------------------------------------------------------------------

#[test]
fn ladder_show_as_of_equals_what_was_shown_then() {
    let a = Arbiter::new();
    a.script("registered.arbiter", REGISTERED).success();
    let mut captured = Vec::new();
    let steps: &[&[&str]] = &[
        &["round", "announce", "--at", "2026-01-10"],
        &[
            "result",
            "record",
            "G1",
            "--winner",
            "Ana Morales",
            "--by",
            "concession",
            "--at",
            "2026-02-01",
        ],
        &[
            "result",
            "forfeit",
            "G2",
            "--absent",
            "Chloé Dubois",
            "--at",
            "2026-02-02",
        ],
        &[
            "result",
            "record",
            "G3",
            "--tie",
            "--by",
            "final-scoring",
            "--at",
            "2026-02-03",
        ],
        &["round", "close", "--at", "2026-02-04"],
        &["skip", "request", "Ana Morales", "--at", "2026-02-05"],
        &["round", "announce", "--at", "2026-02-06"],
    ];
    captured.push((version(&a), a.ok(&["ladder", "show"])));
    for step in steps {
        a.ok(step);
        captured.push((version(&a), a.ok(&["ladder", "show"])));
        captured.push((version(&a), a.ok(&["ladder", "show", "--json"])));
    }
    for (v, shown) in &captured {
        let as_of = if shown.trim_start().starts_with('{') {
            a.ok(&["ladder", "show", "--as-of", &v.to_string(), "--json"])
        } else {
            a.ok(&["ladder", "show", "--as-of", &v.to_string()])
        };
        assert_eq!(&as_of, shown, "ladder show --as-of {v}");
    }
}

// --- Idempotency keys -----------------------------------------------------------

const RECORD_G5: [&str; 10] = [
    "result",
    "record",
    "G5",
    "--winner",
    "Ben Carter",
    "--by",
    "concession",
    "--idempotency-key",
    "g5-result",
    "--at",
];

#[test]
fn the_same_idempotency_key_twice_stores_once() {
    let a = running();
    let v = version(&a);
    let mut args = RECORD_G5.to_vec();
    args.push("2026-03-13");
    let first = a.ok(&args);
    assert!(first.contains("G5"), "{first}");
    assert_eq!(version(&a), v + 1);
    let stored = a.stored();

    let second = a.ok(&args);
    assert!(
        second.contains("Already done (same idempotency key)"),
        "{second}"
    );
    assert_unchanged(&stored, &a.stored(), "the retried command");

    let mut json = args.clone();
    json.push("--json");
    let third = a.run(&json).success().json();
    assert_eq!(third["replayed"], true);
    assert_eq!(third["first"], v + 1);
    assert_eq!(third["last"], v + 1);
    assert_unchanged(&stored, &a.stored(), "the retried command with --json");
}

#[test]
fn without_a_key_a_repeated_result_is_refused() {
    let a = running();
    let mut args = RECORD_G5[..7].to_vec();
    args.extend(["--at", "2026-03-13"]);
    a.ok(&args);
    a.refused(1, &args).stderr_names(&["already has a result"]);
}

#[test]
fn an_idempotency_key_reused_for_another_command_is_refused() {
    let a = running();
    let mut args = RECORD_G5.to_vec();
    args.push("2026-03-13");
    a.ok(&args);
    let v = version(&a);
    // Another game, the same key: refused (exit 1, naming the key), nothing
    // stored; G6's result is not silently dropped as "Already done".
    let g6 = |key: &'static str| {
        [
            "result",
            "record",
            "G6",
            "--winner",
            "Farid Haddad",
            "--by",
            "concession",
            "--idempotency-key",
            key,
            "--at",
            "2026-03-14",
        ]
    };
    let run = a.refused(1, &g6("g5-result"));
    let run = run.stderr_names(&["g5-result", "different request"]);
    assert!(!run.stdout.contains("Already done"), "{}", run.stdout);
    let shown = a.run(&["game", "show", "G6", "--json"]).success().json();
    assert_eq!(shown["status"], "scheduled", "{shown}");
    assert_eq!(version(&a), v);

    // The first command, retried later with its key, is still a replay.
    let mut later = RECORD_G5.to_vec();
    later.push("2026-03-15");
    let again = a.ok(&later);
    assert!(
        again.contains("Already done (same idempotency key)"),
        "{again}"
    );
    assert_eq!(version(&a), v);

    // G6 with a key of its own is stored.
    a.ok(&g6("g6-result"));
    assert_eq!(version(&a), v + 1);
    let shown = a.run(&["game", "show", "G6", "--json"]).success().json();
    assert_ne!(shown["status"], "scheduled", "{shown}");
}

// --- Choosing the competition ---------------------------------------------------

#[test]
fn one_competition_is_chosen_without_c_and_two_need_it() {
    let a = Arbiter::new();
    a.ok(&[
        "competition",
        "create",
        "tws-east",
        "--name",
        "East",
        "--moderator",
        "Jordan Reyes",
        "--at",
        "2026-01-05",
    ]);
    // One competition: every command finds it.
    a.ok(&["player", "add", "Ana Morales", "--at", "2026-01-05"]);
    let shown = a.ok(&["ladder", "show"]);
    assert!(shown.contains("East (tws-east)"), "{shown}");
    assert!(shown.contains("Ana Morales"), "{shown}");

    a.ok(&[
        "competition",
        "create",
        "tws-west",
        "--name",
        "West",
        "--at",
        "2026-01-05",
    ]);
    // Two: a command without -c is refused and lists them.
    for args in [
        &["ladder", "show"][..],
        &["player", "add", "Ben Carter", "--at", "2026-01-06"][..],
    ] {
        a.refused(1, args)
            .stderr_names(&["2 competitions", "tws-east", "tws-west", "-c"]);
    }
    // -c and ARBITER_COMPETITION choose.
    a.ok(&[
        "-c",
        "tws-west",
        "player",
        "add",
        "Ben Carter",
        "--at",
        "2026-01-06",
    ]);
    let west = a
        .command()
        .env("ARBITER_COMPETITION", "tws-west")
        .args(["player", "list", "--json"])
        .output()
        .unwrap();
    assert!(west.status.success());
    let west = String::from_utf8(west.stdout).unwrap();
    assert!(
        west.contains("Ben Carter") && !west.contains("Ana Morales"),
        "{west}"
    );
    let east = a.ok(&["-c", "tws-east", "player", "list", "--json"]);
    assert!(
        east.contains("Ana Morales") && !east.contains("Ben Carter"),
        "{east}"
    );
    // Listing needs no choice.
    let list = a.run(&["competition", "list", "--json"]).success().json();
    assert_eq!(list.as_array().unwrap().len(), 2);
}

// --- JSON -------------------------------------------------------------------------

/// Every read command, on a ladder with a closed round, a running round, a
/// quick game and a pending skip.
const READ_COMMANDS: &[&[&str]] = &[
    &["competition", "list"],
    &["competition", "show"],
    &["rules", "versions"],
    &["moderator", "list"],
    &["player", "list"],
    &["player", "show", "Ana Morales"],
    &["eliminator", "list"],
    &["skip", "list"],
    &["round", "show"],
    &["round", "show", "1"],
    &["round", "explain", "1"],
    &["round", "explain"],
    &["game", "show", "G4"],
    &["game", "show", "Ben Carter"],
    &["game", "list"],
    &["game", "list", "--round", "1"],
    &["quick", "leaderboard"],
    &["ladder", "show"],
    &["ladder", "show", "--as-of", "10"],
    &["ladder", "explain", "Dmitri Volkov"],
    &["stats"],
    &["stats", "--player", "Ana Morales"],
    &["history"],
    &["history", "--limit", "3"],
    &["draw", "verify", "--round", "1"],
    &["draw", "verify"],
];

#[test]
fn every_read_command_prints_json_with_json() {
    let a = running();
    a.ok(&[
        "quick",
        "add",
        "--ussr",
        "Ana Morales",
        "--us",
        "Mika Lindqvist",
        "--at",
        "2026-03-11",
    ]);
    a.ok(&["skip", "request", "Farid Haddad", "--at", "2026-03-12"]);
    let before = a.stored();
    for args in READ_COMMANDS {
        let mut with_json = args.to_vec();
        with_json.push("--json");
        let run = a.run(&with_json).success();
        let value = run.json();
        assert!(
            !value.is_null(),
            "`arbiter {}` printed null",
            with_json.join(" ")
        );
        // And the same command without --json is not JSON.
        let text = a.ok(args);
        assert!(
            serde_json::from_str::<serde_json::Value>(&text).is_err(),
            "`arbiter {}` printed JSON without --json",
            args.join(" ")
        );
    }
    assert_unchanged(&before, &a.stored(), "reading");
}

#[test]
fn previews_print_json_and_store_nothing() {
    let a = running();
    for g in ["G5", "G6"] {
        let winner = if g == "G5" {
            "Ben Carter"
        } else {
            "Farid Haddad"
        };
        a.ok(&[
            "result",
            "record",
            g,
            "--winner",
            winner,
            "--by",
            "concession",
            "--at",
            "2026-03-20",
        ]);
    }
    let before = a.stored();
    let close = a
        .run(&[
            "round",
            "close",
            "--preview",
            "--json",
            "--at",
            "2026-03-21",
        ])
        .success()
        .json();
    assert!(close.is_object(), "{close}");
    let announce = a
        .run(&[
            "round",
            "announce",
            "--preview",
            "--json",
            "--at",
            "2026-03-21",
        ])
        .success()
        .json();
    assert_eq!(announce["preview"], true);
    assert_eq!(announce["round"]["number"], 3);
    assert_unchanged(&before, &a.stored(), "a preview");
}

#[test]
fn writes_report_json_with_json() {
    let a = running();
    let done = a
        .run(&[
            "result",
            "record",
            "G5",
            "--winner",
            "Ben Carter",
            "--by",
            "concession",
            "--json",
            "--at",
            "2026-03-13",
        ])
        .success()
        .json();
    assert_eq!(done["events"], serde_json::json!(["result-recorded"]));
    assert_eq!(done["replayed"], false);
}

#[test]
fn rules_show_prints_json_with_json() {
    let a = running();
    a.run(&["rules", "show", "--json"]).success().json();
}

// TWS Pairings: "to initiate a round prior to the completion of a previous
// round" (ARB-R21): an early close carries the unfinished games over.
#[test]
fn an_early_close_carries_unfinished_games_into_the_next_round() {
    let a = running();
    // A normal close is refused while G5 and G6 are being played.
    a.run(&["round", "close", "--at", "2026-03-20"])
        .fails_with(1);
    // --early needs a reason.
    a.run(&["round", "close", "--early", "--at", "2026-03-20"])
        .fails_with(2);
    let closed = a.ok(&[
        "round",
        "close",
        "--early",
        "--reason",
        "two games play on",
        "--at",
        "2026-03-20",
    ]);
    assert!(
        closed.contains("carried over into the next round"),
        "{closed}"
    );
    assert!(closed.contains("ARB-R21"), "{closed}");
    let announced = a.ok(&["round", "announce", "--at", "2026-03-21"]);
    assert!(announced.contains("Round 3 announced"), "{announced}");
    // The carried games are part of round 3 and take their results there.
    let round = a.run(&["round", "show", "3", "--json"]).success().json();
    let ids: Vec<&str> = round["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"G5") && ids.contains(&"G6"), "{ids:?}");
    a.ok(&[
        "result",
        "record",
        "G5",
        "--winner",
        "Ben Carter",
        "--by",
        "concession",
        "--at",
        "2026-03-25",
    ]);
}

// README: `export ARBITER_DB=...` then run commands and scripts. The
// database from the environment is the script's own, not a line's `--db`.
#[test]
fn a_script_runs_on_the_database_named_by_arbiter_db() {
    let a = Arbiter::new();
    let script = a.file(
        "env.arbiter",
        "competition create envtest --name \"Env\" --moderator \"M\" --at 2026-01-01\n\
         player add \"Ana Morales\" --at 2026-01-01\n",
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .env("ARBITER_DB", &a.db)
        .env_remove("ARBITER_COMPETITION")
        .arg("script")
        .arg(&script)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let players = a.ok(&["player", "list", "--json"]);
    assert!(players.contains("Ana Morales"), "{players}");
}
