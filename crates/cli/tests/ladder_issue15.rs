//! Issue 15 §3 with the real binary: endings are a fixed vocabulary with a
//! "did you mean" (ARB-R58); a result whose winner its VP contradicts is
//! refused naming both fields (ARB-R59); a skip asked while a round runs
//! says which round it books (ARB-R4); the what-if of part of a round shows
//! the rungs still possible. Refusals store nothing.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::running;

#[test]
fn a_mistyped_ending_is_refused_with_a_suggestion() {
    let a = running();
    // G5: Emma Lindgren (USSR) v. Ben Carter (US), still open.
    for (typed, meant) in [("europ", "europe"), ("victory", "vp"), ("defcom", "defcon")] {
        a.refused(
            1,
            &[
                "result",
                "record",
                "G5",
                "--winner",
                "Ben Carter",
                "--by",
                typed,
                "--at",
                "2026-03-10",
            ],
        )
        .stderr_names(&[
            "--by",
            "ended_by",
            &format!("did you mean `{meant}`?"),
            "vp, defcon, europe, final-scoring, wargames, concession, forfeit, adjudication, other",
            "ARB-R58",
        ]);
    }
    // Free text only through `other`, with a note.
    a.refused(
        1,
        &[
            "result",
            "record",
            "G5",
            "--winner",
            "Ben Carter",
            "--by",
            "other",
            "--at",
            "2026-03-10",
        ],
    )
    .stderr_names(&["`other` needs a note", "note"]);
    // Hostile: a huge ending is refused without being echoed whole.
    let huge = "z".repeat(20_000);
    let run = a.refused(
        1,
        &[
            "result",
            "record",
            "G5",
            "--winner",
            "Ben Carter",
            "--by",
            &huge,
            "--at",
            "2026-03-10",
        ],
    );
    assert!(run.stderr.len() < 2_000, "{}", run.stderr.len());
    a.ok(&[
        "result",
        "record",
        "G5",
        "--winner",
        "Ben Carter",
        "--by",
        "other",
        "--note",
        "the US player's connection dropped for good on turn 7",
        "--at",
        "2026-03-10",
    ]);
    let stats = a.ok(&["stats", "--json"]);
    assert!(stats.contains("\"other\""), "{stats}");
}

#[test]
fn a_result_contradicting_its_vp_is_refused_naming_winner_and_vp() {
    let a = running();
    // +20 is toward the US: a USSR winner contradicts it.
    a.refused(
        1,
        &[
            "result",
            "record",
            "G5",
            "--winner",
            "Emma Lindgren",
            "--by",
            "defcon",
            "--vp",
            "20",
            "--at",
            "2026-03-10",
        ],
    )
    .stderr_names(&["winner", "vp", "contradict", "+20", "ARB-R59"]);
    a.refused(
        1,
        &[
            "result",
            "record",
            "G5",
            "--winner",
            "Ben Carter",
            "--by",
            "final-scoring",
            "--vp",
            "-3",
            "--turn",
            "10",
            "--at",
            "2026-03-10",
        ],
    )
    .stderr_names(&["winner, vp", "toward the USSR"]);
    a.ok(&[
        "result",
        "record",
        "G5",
        "--winner",
        "Ben Carter",
        "--by",
        "final-scoring",
        "--vp",
        "3",
        "--turn",
        "10",
        "--at",
        "2026-03-10",
    ]);
}

#[test]
fn a_skip_asked_while_a_round_runs_says_it_books_the_next() {
    let a = running();
    let out = a.ok(&["skip", "request", "Ana Morales", "--at", "2026-03-05"]);
    assert!(
        out.contains("Booked for round 3, because round 2 is running"),
        "{out}"
    );
    // Naming the round says nothing more.
    let out = a.ok(&[
        "skip",
        "request",
        "Ben Carter",
        "--round",
        "4",
        "--at",
        "2026-03-05",
    ]);
    assert!(!out.contains("Booked for"), "{out}");
}

#[test]
fn the_what_if_of_part_of_a_round_shows_the_rungs_still_possible() {
    let a = running();
    let before = a.stored();
    let out = a.ok(&["what-if", "--result", "G5=us", "--at", "2026-03-10"]);
    assert!(
        out.contains("Round 2 cannot close yet: 1 game(s) undecided"),
        "{out}"
    );
    assert!(
        out.contains("every outcome of the 1 undecided game(s) examined (2 completions)"),
        "{out}"
    );
    insta::assert_snapshot!("what_if_ladder_part_of_a_round", out);
    let j = a.ok_json(&[
        "what-if",
        "--result",
        "G5=us",
        "--json",
        "--at",
        "2026-03-10",
    ]);
    assert_eq!(j["possible"]["exact"], true, "{j}");
    assert_eq!(j["possible"]["players"].as_array().unwrap().len(), 6, "{j}");
    assert!(j.get("close").is_none(), "{j}");
    common::assert_unchanged(&before, &a.stored(), "a what-if");
}
