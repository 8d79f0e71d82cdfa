//! Bad input: every refusal exits non-zero (1 when refused, 2 for a command
//! line clap cannot parse), says in words which rule or field it breaks, and
//! changes nothing stored (`history --json` and `ladder show --json` of every
//! competition are the same before and after).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{Arbiter, REGISTERED, assert_unchanged, registered, running};

#[test]
fn the_running_fixture_is_what_the_tests_expect() {
    let a = running();
    let round = a.run(&["round", "show", "--json"]).success().json();
    assert_eq!(round["number"], 2);
    let names: Vec<&str> = round["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "Ladder Round 2 Morales v. Volkov",
            "Ladder Round 2 Lindgren v. Carter",
            "Ladder Round 2 Dubois v. Haddad",
        ]
    );
}

// --- Names and games ----------------------------------------------------------

#[test]
fn an_unknown_player_is_refused() {
    let a = running();
    a.refused(1, &["skip", "request", "Nobody Here", "--at", "2026-03-11"])
        .stderr_names(&["no player named", "Nobody Here"]);
    a.refused(
        1,
        &[
            "result",
            "record",
            "G5",
            "--winner",
            "Nobody Here",
            "--by",
            "concession",
            "--at",
            "2026-03-11",
        ],
    )
    .stderr_names(&["no player named", "Nobody Here"]);
}

#[test]
fn a_result_for_a_game_of_a_closed_round_is_refused() {
    let a = running();
    // G1 was played in round 1, which is closed: its re-sort stands (ARB-R11).
    a.refused(
        1,
        &[
            "result",
            "record",
            "G1",
            "--winner",
            "Ana Morales",
            "--by",
            "concession",
            "--at",
            "2026-03-11",
        ],
    )
    .stderr_names(&["round 1 is closed", "Ladder Round 1 Carter v. Morales"]);
}

#[test]
fn a_result_for_a_player_without_a_game_in_the_round_is_refused() {
    let a = running();
    // The eliminator has no game in round 2 (six members, no odd one).
    a.refused(
        1,
        &[
            "result",
            "record",
            "Mika Lindqvist",
            "--winner",
            "Mika Lindqvist",
            "--by",
            "concession",
            "--at",
            "2026-03-11",
        ],
    )
    .stderr_names(&["Mika Lindqvist has no game in round 2"]);
}

#[test]
fn a_winner_who_does_not_play_in_the_game_is_refused() {
    let a = running();
    a.refused(
        1,
        &[
            "result",
            "record",
            "G5",
            "--winner",
            "Ana Morales",
            "--by",
            "concession",
            "--at",
            "2026-03-11",
        ],
    )
    .stderr_names(&["Ana Morales does not play in", "Lindgren v. Carter"]);
}

#[test]
fn a_result_for_a_nonexistent_game_is_refused() {
    let a = running();
    a.refused(
        1,
        &[
            "result",
            "record",
            "G99",
            "--winner",
            "Ana Morales",
            "--by",
            "concession",
            "--at",
            "2026-03-11",
        ],
    )
    .stderr_names(&["no game G99"]);
    a.refused(1, &["game", "show", "G0"])
        .stderr_names(&["no game G0"]);
}

#[test]
fn a_second_result_for_the_same_game_is_refused() {
    let a = running();
    a.refused(
        1,
        &[
            "result",
            "record",
            "G4",
            "--winner",
            "Dmitri Volkov",
            "--by",
            "concession",
            "--at",
            "2026-03-11",
        ],
    )
    .stderr_names(&["already has a result", "correction", "TWS Conduct of Games"]);
}

// --- Skips and pairings ---------------------------------------------------------

#[test]
fn a_skip_for_a_player_already_paired_is_refused() {
    let a = running();
    a.refused(
        1,
        &[
            "skip",
            "request",
            "Ben Carter",
            "--round",
            "2",
            "--at",
            "2026-03-11",
        ],
    )
    .stderr_names(&[
        "Ben Carter is already paired in round 2",
        "G5",
        "TWS Skipping Rounds",
        "round",
    ]);
}

fn announce_with(pairs: &[&str], reason: Option<&str>) -> Vec<String> {
    let mut args: Vec<String> = vec!["round".into(), "announce".into()];
    for p in pairs {
        args.push("--pair".into());
        args.push((*p).into());
    }
    if let Some(r) = reason {
        args.push("--reason".into());
        args.push(r.into());
    }
    args.push("--at".into());
    args.push("2026-01-10".into());
    args
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn a_pairing_override_that_leaves_a_player_unpaired_is_refused() {
    let a = registered();
    let args = announce_with(
        &["Ana Morales:Ben Carter", "Chloé Dubois:Dmitri Volkov"],
        Some("schedules"),
    );
    a.refused(1, &strs(&args)).stderr_names(&[
        "leaves Emma Lindgren (rung 5), Farid Haddad (rung 6) unpaired",
        "TWS Pairings",
        "pairs",
    ]);
}

#[test]
fn a_pairing_override_that_pairs_a_player_twice_is_refused() {
    let a = registered();
    let args = announce_with(
        &[
            "Ana Morales:Ben Carter",
            "Ana Morales:Chloé Dubois",
            "Dmitri Volkov:Emma Lindgren",
            "Farid Haddad:Mika Lindqvist",
        ],
        Some("schedules"),
    );
    a.refused(1, &strs(&args)).stderr_names(&[
        "Ana Morales is paired twice (pairs 1 and 2)",
        "TWS Pairings",
        "pairs[2]",
    ]);
}

#[test]
fn a_pairing_override_without_a_reason_is_refused() {
    let a = registered();
    let pairs = [
        "Ana Morales:Ben Carter",
        "Chloé Dubois:Dmitri Volkov",
        "Emma Lindgren:Farid Haddad",
    ];
    a.refused(1, &strs(&announce_with(&pairs, None)))
        .stderr_names(&["needs --reason", "TWS Pairings"]);
    a.refused(1, &strs(&announce_with(&pairs, Some("  "))))
        .stderr_names(&["reason", "must not be empty", "TWS Pairings"]);
}

#[test]
fn a_deadline_beyond_three_months_is_refused() {
    let a = registered();
    a.refused(
        1,
        &[
            "round",
            "announce",
            "--deadline",
            "2026-04-11",
            "--at",
            "2026-01-10",
        ],
    )
    .stderr_names(&[
        "not more than 3 months",
        "2026-04-11",
        "TWS Conduct of Games",
        "deadline",
    ]);
}

#[test]
fn a_deadline_on_the_last_day_of_the_limit_is_accepted() {
    // The default deadline of a round announced on 2026-01-10 shows as
    // 2026-04-10; typing that date back is refused, because a date given to
    // --deadline means the end of that day and the limit its start.
    let a = registered();
    let run = a.run(&[
        "round",
        "announce",
        "--deadline",
        "2026-04-10",
        "--at",
        "2026-01-10",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

// --- Results and the deadline ---------------------------------------------------

#[test]
fn an_agreed_result_before_the_deadline_is_refused() {
    let a = running();
    a.refused(
        1,
        &[
            "result",
            "record",
            "G5",
            "--winner",
            "Ben Carter",
            "--by",
            "concession",
            "--agreed",
            "--at",
            "2026-03-11",
        ],
    )
    .stderr_names(&[
        "agreed outcome is for games not completed within the time limit",
        "2026-06-01",
        "TWS Conduct of Games",
        "agreed",
    ]);
}

#[test]
fn a_played_result_after_the_deadline_is_refused() {
    let a = running();
    a.refused(
        1,
        &[
            "result",
            "record",
            "G5",
            "--winner",
            "Ben Carter",
            "--by",
            "concession",
            "--at",
            "2026-06-05",
        ],
    )
    .stderr_names(&["deadline", "passed on 2026-06-01", "agree", "adjudicates"]);
}

#[test]
fn an_adjudication_before_the_deadline_is_refused() {
    let a = running();
    a.refused(
        1,
        &[
            "result",
            "adjudicate",
            "G5",
            "--winner",
            "Ben Carter",
            "--final-state",
            "Turn 5, VP -3",
            "--decision",
            "USSR ahead",
            "--at",
            "2026-03-11",
        ],
    )
    .stderr_names(&["is not overdue", "2026-06-01", "TWS Conduct of Games"]);
}

#[test]
fn a_tie_ended_by_vp_is_refused() {
    let a = running();
    a.refused(
        1,
        &[
            "result",
            "record",
            "G5",
            "--tie",
            "--by",
            "vp",
            "--at",
            "2026-03-11",
        ],
    )
    .stderr_names(&["a tie can only come from final scoring", "ended_by"]);
}

#[test]
fn implausible_figures_are_refused() {
    let a = running();
    a.refused(
        1,
        &[
            "result",
            "record",
            "G5",
            "--winner",
            "Ben Carter",
            "--by",
            "concession",
            "--turn",
            "11",
            "--at",
            "2026-03-11",
        ],
    )
    .stderr_names(&["turns 1 to 10", "turn"]);
    a.refused(
        1,
        &[
            "result",
            "record",
            "G5",
            "--winner",
            "Ben Carter",
            "--by",
            "vp",
            "--vp",
            "-21",
            "--at",
            "2026-03-11",
        ],
    )
    .stderr_names(&["-20", "+20", "vp"]);
}

#[test]
fn a_vp_win_with_the_marker_on_the_losers_side_is_refused() {
    // G5: Ben Carter is the US (the pair's draw, ARB-R8). "Result: US win
    // (Ben Carter), by 20 VP, VP -20" is what `game show G5` then says.
    let a = running();
    a.refused(
        1,
        &[
            "result",
            "record",
            "G5",
            "--winner",
            "Ben Carter",
            "--by",
            "vp",
            "--vp",
            "-20",
            "--at",
            "2026-03-11",
        ],
    );
}

// --- Closing a round --------------------------------------------------------------

#[test]
fn a_close_while_games_are_open_lists_them() {
    let a = running();
    a.refused(1, &["round", "close", "--at", "2026-03-11"])
        .stderr_names(&[
            "round 2 cannot close",
            "2 game(s) still being played",
            "G5 \"Ladder Round 2 Lindgren v. Carter\"",
            "G6 \"Ladder Round 2 Dubois v. Haddad\"",
            "TWS Conduct of Games",
        ]);
}

#[test]
fn a_close_after_the_deadline_lists_the_overdue_games() {
    let a = running();
    let run = a
        .refused(1, &["round", "close", "--at", "2026-06-05"])
        .stderr_names(&[
            "round 2 cannot close",
            "passed the deadline of 2026-06-01",
            "agree",
            "adjudicate",
            "G5 \"Ladder Round 2 Lindgren v. Carter\"",
            "G6 \"Ladder Round 2 Dubois v. Haddad\"",
        ]);
    assert!(!run.stderr.contains("G4"), "G4 is decided: {}", run.stderr);
}

#[test]
fn a_close_preview_that_is_refused_is_refused_the_same_way() {
    let a = running();
    a.refused(1, &["round", "close", "--preview", "--at", "2026-03-11"])
        .stderr_names(&["round 2 cannot close", "G5", "G6"]);
}

// --- Rules files ------------------------------------------------------------------

const SYNTAX_ERROR: &str = "format = \"tws-ladder\"\ndeadline_months = 3\nbid = [\n";
const MISSPELLED: &str =
    "format = \"tws-ladder\"\n# one month less than the preset\ndeadline_month = 3\n";

#[test]
fn a_rules_file_with_a_syntax_error_is_refused_on_create() {
    let a = registered();
    let file = a.file("broken.toml", SYNTAX_ERROR);
    a.refused(
        1,
        &[
            "competition",
            "create",
            "tws-two",
            "--name",
            "Second",
            "--rules",
            file.to_str().unwrap(),
            "--at",
            "2026-01-10",
        ],
    )
    .stderr_names(&["broken.toml", "line 3", "field `bid`"]);
}

#[test]
fn a_rules_file_with_a_misspelled_setting_is_refused_on_create() {
    let a = registered();
    let file = a.file("misspelled.toml", MISSPELLED);
    a.refused(
        1,
        &[
            "competition",
            "create",
            "tws-two",
            "--name",
            "Second",
            "--rules",
            file.to_str().unwrap(),
            "--at",
            "2026-01-10",
        ],
    )
    .stderr_names(&[
        "misspelled.toml",
        "line 3",
        "deadline_month",
        "unknown field",
        "deadline_months",
    ]);
}

#[test]
fn a_rules_file_with_a_syntax_error_is_refused_on_change() {
    let a = registered();
    let file = a.file("broken.toml", SYNTAX_ERROR);
    a.refused(
        1,
        &[
            "rules",
            "change",
            "--file",
            file.to_str().unwrap(),
            "--reason",
            "shorter rounds",
            "--at",
            "2026-01-10",
        ],
    )
    .stderr_names(&["broken.toml", "line 3", "field `bid`"]);
}

#[test]
fn a_rules_file_with_a_misspelled_setting_is_refused_on_change() {
    let a = registered();
    let file = a.file("misspelled.toml", MISSPELLED);
    a.refused(
        1,
        &[
            "rules",
            "change",
            "--file",
            file.to_str().unwrap(),
            "--reason",
            "shorter rounds",
            "--at",
            "2026-01-10",
        ],
    )
    .stderr_names(&[
        "misspelled.toml",
        "line 3",
        "deadline_month",
        "unknown field",
    ]);
}

#[test]
fn a_rules_file_with_a_value_the_rules_refuse_names_it() {
    let a = registered();
    let file = a.file(
        "zero.toml",
        "format = \"tws-ladder\"\n\ndeadline_months = 0\n",
    );
    a.refused(
        1,
        &[
            "rules",
            "change",
            "--file",
            file.to_str().unwrap(),
            "--reason",
            "no limit",
            "--at",
            "2026-01-10",
        ],
    )
    .stderr_names(&["line 3", "deadline_months", "between 1 and 24 months"]);
}

// --- Scripts ------------------------------------------------------------------------

#[test]
fn a_script_with_an_unknown_verb_stores_nothing() {
    let a = registered();
    let before = a.stored();
    a.script(
        "bad-verb.arbiter",
        "player add \"Gus Grant\" --at 2026-01-07\n\
         player add \"Hana Ito\" --at 2026-01-07\n\
         player frobnicate \"Ivo Ilic\" --at 2026-01-07\n\
         player add \"Jan Jansen\" --at 2026-01-07\n",
    )
    .fails_with(2)
    .stderr_names(&["bad-verb.arbiter, line 3", "frobnicate"]);
    assert_unchanged(
        &before,
        &a.stored(),
        "the script with an unknown verb on line 3",
    );
}

#[test]
fn a_script_with_unbalanced_quotes_stores_nothing() {
    let a = registered();
    let before = a.stored();
    a.script(
        "quotes.arbiter",
        "# a comment is line 1\n\
         player add \"Gus Grant\" --at 2026-01-07\n\
         player add \"Hana Ito --at 2026-01-07\n",
    )
    .fails_with(2)
    .stderr_names(&["quotes.arbiter, line 3", "unbalanced quotes"]);
    assert_unchanged(
        &before,
        &a.stored(),
        "the script with unbalanced quotes on line 3",
    );
}

#[test]
fn a_script_with_a_bad_option_value_stores_nothing_even_in_a_new_database() {
    let a = Arbiter::without_db();
    a.script(
        "fresh.arbiter",
        "competition create tws --name \"T\" --moderator \"J R\" --at 2026-01-05\n\
         player add \"Ana Morales\" --at 2026-01-05\n\
         round announce --bogus --at 2026-01-06\n",
    )
    .fails_with(2)
    .stderr_names(&["line 3", "--bogus"]);
    // The script is parsed before the database is opened: not even an
    // empty database is left behind (issue 14, item 6).
    assert!(
        !a.db().exists(),
        "a refused script made {}",
        a.db().display()
    );
}

#[test]
fn a_script_with_a_malformed_date_stores_nothing() {
    // README: "every line is checked before any runs, so a malformed line
    // changes nothing". `--at 2026-13-45` is malformed, but line 1 runs.
    let a = registered();
    let before = a.stored();
    a.script(
        "bad-date.arbiter",
        "player add \"Gus Grant\" --at 2026-01-07\n\
         player add \"Hana Ito\" --at 2026-13-45\n",
    )
    .fails_with(2)
    .stderr_names(&["line 2", "2026-13-45"]);
    assert_unchanged(
        &before,
        &a.stored(),
        "the script with a malformed date on line 2",
    );
}

#[test]
fn a_script_refused_by_a_rule_stores_nothing() {
    // The script is tried on a copy of the database first: a line the rules
    // refuse stops it there, and nothing at all is stored.
    let a = registered();
    let before = a.stored();
    let script = "player add \"Gus Grant\" --at 2026-01-07\n\
             # line 2 is a comment\n\
             skip request \"Ana Morales\" --at 2026-01-08\n\
             player approve \"Ben Carter\" --at 2026-01-08\n\
             player add \"Hana Ito\" --at 2026-01-09\n";
    let run = a
        .script("refused.arbiter", script)
        .fails_with(1)
        .stderr_names(&[
            "refused.arbiter, line 4",
            "player approve \"Ben Carter\"",
            "Ben Carter is a member and cannot be approved",
            "TWS Joining the Ladder",
            "nothing was stored",
        ]);
    assert!(!run.stdout.contains("Gus Grant"), "{}", run.stdout);
    assert_unchanged(&before, &a.stored(), "the script refused on line 4");

    // With --no-rehearsal the lines before the refused one stay stored.
    let path = a.file("refused-again.arbiter", script);
    let path = path.to_string_lossy().into_owned();
    let run = a
        .run(&["script", "--no-rehearsal", &path])
        .fails_with(1)
        .stderr_names(&["line 4", "cannot be approved"]);
    assert!(run.stdout.contains("Gus Grant"), "{}", run.stdout);
    assert!(!run.stdout.contains("Hana Ito"), "{}", run.stdout);
    let players = a.ok(&["player", "list", "--json"]);
    assert!(players.contains("Gus Grant"));
    assert!(!players.contains("Hana Ito"));
}

#[test]
fn a_script_cannot_switch_the_database() {
    let a = registered();
    let other = a.file("other.db", "");
    let line = format!(
        "player add \"Gus Grant\" --at 2026-01-07\nladder show --db {}\n",
        other.display()
    );
    let before = a.stored();
    a.script("switch.arbiter", &line)
        .fails_with(2)
        .stderr_names(&["line 2", "--db"]);
    assert_unchanged(&before, &a.stored(), "the script switching the database");
}

// --- Command line, dates and competitions -------------------------------------------

#[test]
fn a_malformed_date_is_refused() {
    let a = running();
    let run = a
        .refused(
            2,
            &[
                "result",
                "record",
                "G5",
                "--winner",
                "Ben Carter",
                "--by",
                "concession",
                "--at",
                "not-a-date",
            ],
        )
        .stderr_names(&["not-a-date", "is not a time", "YYYY-MM-DD"]);
    assert!(!run.stderr.contains("panicked"));
    a.refused(2, &["ladder", "show", "--at", "2026-02-30"])
        .stderr_names(&["2026-02-30", "is not a time"]);
}

#[test]
fn a_malformed_deadline_is_refused() {
    let a = registered();
    a.refused(
        2,
        &[
            "round",
            "announce",
            "--deadline",
            "someday",
            "--at",
            "2026-01-10",
        ],
    )
    .stderr_names(&["--deadline", "someday", "is not a time"]);
}

#[test]
fn an_invalid_competition_id_is_refused() {
    let a = registered();
    a.refused(
        1,
        &[
            "competition",
            "create",
            "TWS Ladder!",
            "--name",
            "Second",
            "--at",
            "2026-01-10",
        ],
    )
    .stderr_names(&["competition id", "TWS Ladder!", "lowercase letters"]);
}

#[test]
fn an_unknown_competition_is_refused() {
    let a = registered();
    a.refused(1, &["-c", "nope", "ladder", "show"])
        .stderr_names(&["no competition \"nope\"", "competition list"]);
    a.refused(
        1,
        &[
            "-c",
            "nope",
            "player",
            "add",
            "Gus Grant",
            "--at",
            "2026-01-10",
        ],
    )
    .stderr_names(&["no competition \"nope\""]);
}

#[test]
fn creating_a_competition_twice_is_refused() {
    let a = registered();
    a.refused(
        1,
        &[
            "competition",
            "create",
            "tws",
            "--name",
            "Again",
            "--at",
            "2026-01-10",
        ],
    )
    .stderr_names(&["\"tws\" already exists"]);
}

#[test]
fn an_unknown_preset_is_refused() {
    let a = registered();
    a.refused(
        1,
        &[
            "competition",
            "create",
            "tws-two",
            "--name",
            "Second",
            "--preset",
            "chess",
            "--at",
            "2026-01-10",
        ],
    )
    .stderr_names(&["no preset \"chess\"", "tws-ladder"]);
}

#[test]
fn clap_usage_errors_exit_with_2() {
    let a = running();
    a.refused(
        2,
        &[
            "result",
            "record",
            "G5",
            "--winner",
            "Ben Carter",
            "--tie",
            "--at",
            "2026-03-11",
        ],
    )
    .stderr_names(&["--winner", "cannot be used with", "--tie"]);
    a.refused(2, &["result", "recrod", "G5"]).stderr_names(&[
        "unrecognized subcommand",
        "recrod",
        "record",
    ]);
    a.refused(2, &["result", "record"])
        .stderr_names(&["required", "<GAME>"]);
    a.refused(2, &["round", "show", "two"])
        .stderr_names(&["invalid value", "two"]);
}

#[test]
fn a_script_with_an_unknown_file_is_refused() {
    let a = Arbiter::new();
    a.run(&["script", "no/such/file.arbiter"])
        .fails_with(1)
        .stderr_names(&["cannot read the script", "no/such/file.arbiter"]);
}

#[test]
fn an_empty_database_explains_what_to_do() {
    let a = Arbiter::new();
    a.run(&["ladder", "show"])
        .fails_with(1)
        .stderr_names(&["no competition yet", "competition create"]);
    // The registered fixture text is a valid script on its own.
    a.script("registered.arbiter", REGISTERED).success();
}

// Storage failures exit with 4 (README), and nothing is created.
#[test]
fn a_database_that_cannot_be_opened_is_a_storage_failure() {
    let a = Arbiter::new();
    // The test's own temporary directory: a directory, not a database file.
    let file = a.file("keep", "");
    let dir = file.parent().unwrap().to_string_lossy().into_owned();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .env_remove("ARBITER_DB")
        .args(["--db", &dir, "competition", "list"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cannot open"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

// Times outside what a record can hold and read back are refused before
// anything is stored (a deadline in year 10000 once made a database
// unreadable).
#[test]
fn times_outside_the_recordable_years_are_refused() {
    let a = registered();
    let before = a.stored();
    for at in ["9999-12-31", "1969-12-31"] {
        a.refused(2, &["round", "announce", "--at", at])
            .stderr_names(&["--at", "1970 to 9998"]);
    }
    a.refused(2, &["round", "announce", "--at", "+10000-01-01T00:00:00Z"])
        .stderr_names(&["--at", "is not a time"]);
    assert_unchanged(&before, &a.stored(), "announcements at impossible times");
}

/// Issue 14, item 6: a read command with a mistyped `--db` created the
/// directory and an empty database and exited 0. Now it fails naming the
/// path, and makes neither; `--create` makes it on purpose.
#[test]
fn a_read_command_on_a_missing_database_creates_nothing() {
    let a = Arbiter::without_db();
    let missing = a.db().parent().unwrap().join("nonexistent/dir/x.db");
    let db = missing.to_string_lossy().into_owned();
    for args in [
        vec!["competition", "list"],
        vec!["ladder", "show"],
        vec!["history"],
        vec!["export", "--all"],
        vec!["player", "add", "Ana Morales"],
    ] {
        a.run_on(&missing, &args)
            .fails_with(4)
            .stderr_names(&["no database at", &db, "--create"]);
        assert!(
            !missing.parent().unwrap().exists(),
            "`{}` made {}",
            args.join(" "),
            missing.parent().unwrap().display()
        );
    }
    a.run_on(&missing, &["--create", "competition", "list"])
        .success();
    assert!(missing.is_file());
    // A command that creates makes the database without --create.
    let other = a.db().parent().unwrap().join("made/by/create.db");
    a.run_on(
        &other,
        &[
            "competition",
            "create",
            "t",
            "--name",
            "T",
            "--at",
            "2026-01-05",
        ],
    )
    .success();
    assert!(other.is_file());
}

/// Issue 14, item 5: `arbiter script /dev/zero` ran for over a minute and
/// grew to 10.6 GB. Now it reads at most the 16 MiB a script may be and
/// exits 2 naming the file and the limit, before any database is opened.
#[cfg(unix)]
#[test]
fn a_script_from_an_endless_stream_is_refused_at_its_limit() {
    let a = Arbiter::without_db();
    let started = std::time::Instant::now();
    a.run(&["script", "/dev/zero"])
        .fails_with(2)
        .stderr_names(&["/dev/zero", "16 MiB"]);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(5),
        "took {:?}",
        started.elapsed()
    );
    assert!(!a.db().exists());
    // The rules file and the export file are bounded the same way.
    a.ok(&[
        "competition",
        "create",
        "t",
        "--name",
        "T",
        "--at",
        "2026-01-05",
    ]);
    let before = a.stored();
    a.run(&["rules", "change", "--file", "/dev/zero", "--reason", "r"])
        .fails_with(2)
        .stderr_names(&["/dev/zero", "1 MiB"]);
    a.run(&[
        "competition",
        "create",
        "u",
        "--name",
        "U",
        "--rules",
        "/dev/zero",
    ])
    .fails_with(2)
    .stderr_names(&["/dev/zero", "1 MiB"]);
    a.run(&["import", "/dev/zero"])
        .fails_with(1)
        .stderr_names(&["/dev/zero", "line 1", "256 MiB", "nothing was imported"]);
    assert_unchanged(&before, &a.stored(), "the endless files");
}

/// Issue 14, item 6: an empty rules file was taken as the defaults.
#[test]
fn an_empty_rules_file_is_refused() {
    let a = Arbiter::new();
    let empty = a.file("empty.toml", "");
    let comments = a.file("comments.toml", "# nothing set\n\n");
    let empty = empty.to_string_lossy().into_owned();
    let comments = comments.to_string_lossy().into_owned();
    for file in [&empty, &comments] {
        a.run(&["competition", "create", "t", "--name", "T", "--rules", file])
            .fails_with(1)
            .stderr_names(&[file.as_str(), "holds no setting", "format"]);
    }
    a.ok(&[
        "competition",
        "create",
        "t",
        "--name",
        "T",
        "--at",
        "2026-01-05",
    ]);
    let before = a.stored();
    for file in ["/dev/null", empty.as_str(), comments.as_str()] {
        a.run(&["rules", "change", "--file", file, "--reason", "r"])
            .fails_with(1)
            .stderr_names(&[file, "holds no setting"]);
    }
    assert_unchanged(&before, &a.stored(), "the empty rules files");
}
