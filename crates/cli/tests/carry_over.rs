//! `arbiter ladder carry-over FILE [--dry-run] [--round N] [--source TEXT]`
//! (issue 18 §1): a running TWS ladder of 40 members, their side
//! histories, records, skip streaks and missed rounds, the champion's
//! streak and 3 inactive players, carried over from one file
//! (`tests/carry-over/ladder-round-38.csv`); the next round's pairings and
//! sides come out as the rules give them, each explanation citing the
//! carried records; hostile files are refused naming the line and field,
//! with nothing stored; an export of the carried ladder re-imports
//! byte-identically.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::PathBuf;

use common::Arbiter;
use serde_json::Value;

const SOURCE: &str = "BGG forum ladder table, 2026-02-28";

fn fixture() -> PathBuf {
    common::workspace_root().join("crates/cli/tests/carry-over/ladder-round-38.csv")
}

fn fixture_text() -> String {
    std::fs::read_to_string(fixture()).unwrap()
}

/// A ladder with its moderators and nobody registered.
fn fresh() -> Arbiter {
    let a = Arbiter::new();
    a.ok(&[
        "competition",
        "create",
        "tws",
        "--name",
        "TWS Ladder",
        "--moderator",
        "Jordan Reyes",
        "--moderator",
        "Sam Whitfield",
        "--at",
        "2026-03-01",
    ]);
    a
}

/// `arbiter ladder carry-over FILE EXTRA...` entered by the moderator
/// Jordan Reyes (the test environment of `common`, another actor).
fn carry(a: &Arbiter, file: &str, extra: &[&str]) -> common::Run {
    let mut args = vec!["--at", "2026-03-01T09:00:00Z", "ladder", "carry-over", file];
    args.extend(extra);
    a.run_as("Jordan Reyes", &args)
}

/// The fixture carried over, continuing from round 38.
fn carried() -> Arbiter {
    let a = fresh();
    let file = fixture();
    carry(
        &a,
        file.to_str().unwrap(),
        &["--round", "38", "--source", SOURCE],
    )
    .success();
    a
}

/// The fixture's rows: name → (ussr, us, last side), members in rung order.
fn rows() -> Vec<(String, String, u32, u32, String)> {
    fixture_text()
        .lines()
        .skip(1)
        .map(|l| {
            let c: Vec<&str> = l.split(',').collect();
            (
                c[0].to_string(),
                c[1].to_string(),
                c[3].parse().unwrap(),
                c[4].parse().unwrap(),
                c[5].to_string(),
            )
        })
        .collect()
}

/// The sides the rules of ASSIGNMENT OF SIDES give the pair of rungs
/// (higher, lower), from the carried counts and last sides, worked out
/// here independently of the engine: (side of the higher rung, clause).
fn expected_side(
    higher: &(String, String, u32, u32, String),
    lower: &(String, String, u32, u32, String),
    champion: bool,
) -> (&'static str, &'static str) {
    let other = |s: &str| if s == "US" { "USSR" } else { "US" };
    let least = |u: u32, s: u32| if u < s { "USSR" } else { "US" };
    // Rule 1: the champion switches relative to his previous game.
    if champion {
        return (other(&higher.4), "rule 1");
    }
    // Rule 2: both can switch: they do.
    if higher.4 != lower.4 {
        return (other(&higher.4), "both switch");
    }
    let (ih, il) = (higher.2.abs_diff(higher.3), lower.2.abs_diff(lower.3));
    if ih > il {
        return (least(higher.2, higher.3), "most unbalanced");
    }
    if il > ih {
        return (other(least(lower.2, lower.3)), "most unbalanced");
    }
    if ih > 0 {
        return (least(higher.2, higher.3), "higher rung least played");
    }
    // TWS-R8: both balanced: the higher rung switches.
    (other(&higher.4), "higher rung switches")
}

#[test]
fn a_forty_member_ladder_carries_over_and_the_next_round_follows_the_rules() {
    let a = carried();
    let ladder: Value = a.ok_json(&["ladder", "show", "--json"]);
    let rungs = ladder["rungs"].as_array().unwrap();
    let rows = rows();
    let members: Vec<_> = rows.iter().filter(|r| r.0 != "inactive").collect();
    assert_eq!(rungs.len(), 40);
    for (r, m) in rungs.iter().zip(&members) {
        assert_eq!(r["rung"].to_string(), m.0);
        assert_eq!(r["name"], m.1.as_str());
        assert_eq!(
            (r["ussr"].as_u64(), r["us"].as_u64()),
            (Some(m.2.into()), Some(m.3.into()))
        );
    }
    assert_eq!(ladder["champion"], "Ana Morales");
    assert_eq!(ladder["streak"], 3);
    assert_eq!(ladder["rounds_closed"], 37);
    let shown = a.ok(&["ladder", "show"]);
    assert!(
        shown.contains(
            "Champion: Ana Morales, 3 consecutive round(s) at the top. Rounds closed: 37."
        ),
        "{shown}"
    );
    assert_eq!(
        ladder["inactive"],
        serde_json::json!(["Harold Finch", "Miguel Santos", "Astrid Berg"])
    );
    // Rung 1's record as carried: 22-7-0.
    assert_eq!(rungs[0]["ladder"]["wins"], 22);
    assert_eq!(rungs[0]["ladder"]["losses"], 7);

    // The history names the event, its source and the moderator.
    let history = a.ok(&["history"]);
    assert!(history.contains("carried-over"), "{history}");
    assert!(history.contains(SOURCE), "{history}");
    assert!(history.contains("Jordan Reyes"), "{history}");

    // The next round is round 38: adjacent pairs, sides by the rules.
    let out = a.ok(&["round", "announce", "--at", "2026-03-02"]);
    assert!(out.contains("Round 38 announced"), "{out}");
    let round: Value = a.ok_json(&["round", "show", "--json"]);
    assert_eq!(round["number"], 38);
    let games = round["games"].as_array().unwrap();
    assert_eq!(games.len(), 20);
    for (k, g) in games.iter().enumerate() {
        let (hi, lo) = (members[2 * k], members[2 * k + 1]);
        let (side, why) = expected_side(hi, lo, k == 0);
        let (ussr, us) = if side == "USSR" { (hi, lo) } else { (lo, hi) };
        assert_eq!(
            (g["ussr"].as_str().unwrap(), g["us"].as_str().unwrap()),
            (ussr.1.as_str(), us.1.as_str()),
            "game {} (rungs {} and {}, {why})",
            k + 1,
            hi.0,
            lo.0
        );
    }
    // The pairs worked by hand from the fixture's rows: the champion
    // (last US) plays the USSR; rungs 3 and 4 both switch; rung 5 is the
    // more unbalanced (9/14) and takes the USSR; rungs 7 and 8 are equally
    // unbalanced, so rung 7 takes his least-played side, the US; rungs 9
    // and 10 are both balanced, so rung 9 switches from the US (TWS-R8).
    let pair = |k: usize| {
        (
            games[k]["ussr"].as_str().unwrap().to_string(),
            games[k]["us"].as_str().unwrap().to_string(),
        )
    };
    assert_eq!(pair(0), ("Ana Morales".into(), "Pieter van Dijk".into()));
    assert_eq!(
        pair(1),
        ("Graham Whitcombe".into(), "Kenji Watanabe".into())
    );
    assert_eq!(pair(2), ("Sofia Lindqvist".into(), "Marek Nowak".into()));
    assert_eq!(pair(3), ("Tomás Herrera".into(), "Rachel Goldberg".into()));
    assert_eq!(pair(4), ("Ingrid Solberg".into(), "Dmitri Volkov".into()));

    // Every explanation of a side cites the carried records.
    let shown = a.ok(&["round", "show"]);
    let why: Vec<&str> = shown
        .lines()
        .skip_while(|l| !l.starts_with("Why these sides"))
        .skip(1)
        .take(20)
        .collect();
    assert_eq!(why.len(), 20, "{shown}");
    for line in &why {
        assert!(
            line.contains("the records carried over on 2026-03-01")
                && line.contains(SOURCE)
                && line.contains("entered by Jordan Reyes"),
            "an explanation that does not cite the carried records: {line}"
        );
    }
    assert!(why.iter().all(|l| l.contains("ARB-R74")), "{why:?}");
    assert!(
        why[0].contains("his last side, US, comes from the records carried over on 2026-03-01"),
        "{}",
        why[0]
    );
    assert!(
        why[2].contains("Sofia Lindqvist's 9 USSR / 14 US"),
        "{}",
        why[2]
    );
    // `explain` for a game says the same.
    let g1 = a.ok(&["game", "show", "G1"]);
    assert!(g1.contains("carried over on 2026-03-01"), "{g1}");
}

#[test]
fn a_dry_run_shows_the_ladder_and_stores_nothing() {
    let a = fresh();
    let before = a.stored();
    let file = fixture();
    let out = carry(&a, file.to_str().unwrap(), &["--round", "38", "--dry-run"]).success();
    let text = out.stdout;
    assert!(text.contains("Tessa de Vries"), "{text}");
    assert!(
        text.contains("Dry run: would carry over 40 members and 3 inactive"),
        "{text}"
    );
    common::assert_unchanged(&before, &a.stored(), "a dry run");
}

#[test]
fn json_carries_over_the_same_ladder() {
    let a = fresh();
    let rows = rows();
    let member = |r: &(String, String, u32, u32, String)| {
        serde_json::json!({
            "name": r.1, "ussr_games": r.2, "us_games": r.3,
            "last_side": if r.4.is_empty() { Value::Null } else { Value::from(r.4.clone()) },
        })
    };
    // Wins, losses, ties and streaks from the CSV's own columns.
    let text = fixture_text();
    let full: Vec<Value> = text
        .lines()
        .skip(1)
        .zip(&rows)
        .map(|(l, r)| {
            let c: Vec<&str> = l.split(',').collect();
            let mut m = member(r);
            for (k, name) in [
                (6, "wins"),
                (7, "losses"),
                (8, "ties"),
                (9, "skip_streak"),
                (10, "missed_rounds"),
            ] {
                m[name] = Value::from(c[k].parse::<u32>().unwrap());
            }
            m
        })
        .collect();
    let (ladder, inactive): (Vec<_>, Vec<_>) = full
        .into_iter()
        .zip(&rows)
        .partition(|(_, r)| r.0 != "inactive");
    let doc = serde_json::json!({
        "round": 38,
        "source": SOURCE,
        "champion_streak": 3,
        "ladder": ladder.into_iter().map(|(m, _)| m).collect::<Vec<_>>(),
        "inactive": inactive.into_iter().map(|(m, _)| m).collect::<Vec<_>>(),
    });
    let path = a.file("ladder.json", &doc.to_string());
    carry(&a, path.to_str().unwrap(), &[]).success();
    let b = carried();
    let view = |x: &Arbiter| {
        let mut v: Value = x.ok_json(&["ladder", "show", "--json"]);
        v["version"] = Value::Null;
        v
    };
    assert_eq!(view(&a), view(&b));
}

/// `file` (written with `text`) refused with exit 1, naming every word of
/// `names`, and nothing stored.
fn refused(name: &str, text: &[u8], extra: &[&str], names: &[&str]) {
    let a = fresh();
    let path = a.file(name, "");
    std::fs::write(&path, text).unwrap();
    let before = a.stored();
    let run = carry(&a, path.to_str().unwrap(), extra).fails_with(1);
    common::assert_unchanged(&before, &a.stored(), name);
    run.stderr_names(names);
}

/// The fixture with line `line` (1 is the header) replaced.
fn with_line(line: usize, new: &str) -> String {
    let mut lines: Vec<String> = fixture_text().lines().map(str::to_string).collect();
    lines[line - 1] = new.to_string();
    lines.join("\n") + "\n"
}

#[test]
fn hostile_files_are_refused_naming_the_line_and_field_and_store_nothing() {
    let round = ["--round", "38"];
    // Not a permutation: rung 7 twice (line 9 is rung 8).
    let twice = fixture_text().replacen("\n8,Tomás Herrera", "\n7,Tomás Herrera", 1);
    refused(
        "twice.csv",
        twice.as_bytes(),
        &round,
        &[
            "twice.csv line 9",
            "`rung`",
            "rung 7 is already given on line 8",
        ],
    );
    // A rung missing: rung 40 renumbered 41.
    let gap = fixture_text().replacen("\n40,Tessa", "\n41,Tessa", 1);
    refused(
        "gap.csv",
        gap.as_bytes(),
        &round,
        &["gap.csv line", "`rung`"],
    );
    // The same person twice.
    let dup = with_line(41, "40,Ana Morales,,15,17,US,10,22,0,0,0,");
    refused(
        "dup.csv",
        dup.as_bytes(),
        &round,
        &["dup.csv line 41", "`name`", "line 2"],
    );
    // An unknown column.
    let unknown = fixture_text().replacen("champion_streak", "elo", 1);
    refused(
        "unknown.csv",
        unknown.as_bytes(),
        &round,
        &["unknown.csv line 1", "`elo`", "unknown column"],
    );
    // A negative count.
    let negative = with_line(4, "3,Graham Whitcombe,,-12,11,US,14,9,0,0,0,");
    refused(
        "negative.csv",
        negative.as_bytes(),
        &round,
        &["negative.csv line 4", "`ussr_games`", "not a count"],
    );
    // A last side never played.
    let never = with_line(2, "1,Ana Morales,,0,14,USSR,7,7,0,0,0,3");
    refused(
        "never.csv",
        never.as_bytes(),
        &round,
        &["never.csv line 2", "`last_side`", "0 USSR games"],
    );
    // A record that does not count the games played.
    let record = with_line(3, "2,Pieter van Dijk,,13,13,USSR,16,9,0,0,0,");
    refused(
        "record.csv",
        record.as_bytes(),
        &round,
        &["record.csv line 3", "`wins`"],
    );
    // A champion's streak below rung 1.
    let streak = with_line(3, "2,Pieter van Dijk,,13,13,USSR,16,10,0,0,0,2");
    refused(
        "streak.csv",
        streak.as_bytes(),
        &round,
        &["streak.csv line 3", "`champion_streak`"],
    );
    // An inactive player who has not missed enough rounds (TWS-R4).
    let inactive = with_line(42, "inactive,Harold Finch,,5,4,USSR,3,6,0,0,2,");
    refused(
        "inactive.csv",
        inactive.as_bytes(),
        &round,
        &["inactive.csv line 42", "`missed_rounds`", "TWS-R4"],
    );
    // Not UTF-8 (Latin-1 "Tomás").
    let text = fixture_text();
    let at = text.find("Tomás").unwrap() + "Tom".len();
    let mut latin1 = text.into_bytes();
    latin1.splice(at..at + "á".len(), [0xE1]);
    refused(
        "latin1.csv",
        &latin1,
        &round,
        &["latin1.csv line 9", "`name`", "not UTF-8"],
    );
    // Too large.
    let mut huge = fixture_text().into_bytes();
    huge.resize(arbiter_huge(), b'\n');
    refused(
        "huge.csv",
        &huge,
        &round,
        &["huge.csv", "larger than 8 MiB"],
    );
    // No round to continue from.
    refused(
        "ladder.csv",
        fixture_text().as_bytes(),
        &[],
        &["ladder.csv", "--round"],
    );
    // JSON: an unknown field, and a refusal by path.
    refused(
        "bad.json",
        br#"{"round": 5, "ladder": [{"name": "Ana Morales", "elo": 1500}]}"#,
        &[],
        &["bad.json line 1", "unknown field `elo`"],
    );
    refused(
        "side.json",
        br#"{"round": 5, "champion_streak": 1, "ladder": [{"name": "Ana Morales"}, {"name": "Ben Carter", "ussr_games": 1, "wins": 1}]}"#,
        &[],
        &["side.json: ladder[1].last_side"],
    );
}

/// One byte more than the 8 MiB a carry-over file may be.
fn arbiter_huge() -> usize {
    8 * 1024 * 1024 + 1
}

#[test]
fn only_into_a_ladder_with_nobody_registered_and_no_round() {
    let a = carried();
    let file = fixture();
    let before = a.stored();
    carry(&a, file.to_str().unwrap(), &["--round", "38"])
        .fails_with(1)
        .stderr_names(&["already carried over"]);
    common::assert_unchanged(&before, &a.stored(), "a second carry-over");

    let b = fresh();
    b.ok(&["player", "add", "Ben Carter", "--at", "2026-03-01"]);
    carry(&b, file.to_str().unwrap(), &["--round", "38"])
        .fails_with(1)
        .stderr_names(&["ARB-R72", "before anyone is registered"]);
}

#[test]
fn a_carried_ladder_exports_and_imports_byte_identically() {
    let a = carried();
    a.ok(&["round", "announce", "--at", "2026-03-02"]);
    let path = a.file("ladder.jsonl", "");
    a.ok(&["export", "--all", "-o", path.to_str().unwrap()]);
    let bytes = std::fs::read(&path).unwrap();
    assert!(String::from_utf8_lossy(&bytes).contains("carried-over"));

    let b = Arbiter::without_db();
    b.ok(&["import", path.to_str().unwrap()]);
    let again = b.file("again.jsonl", "");
    b.ok(&["export", "--all", "-o", again.to_str().unwrap()]);
    assert!(
        std::fs::read(&again).unwrap() == bytes,
        "a re-export of the import is byte-identical"
    );
    assert_eq!(
        a.ok(&["round", "show", "--json"]),
        b.ok(&["round", "show", "--json"])
    );
}

#[test]
fn a_carried_skip_streak_makes_the_next_skip_a_loss_and_says_where_it_comes_from() {
    let a = carried();
    // Jonas Weber (rung 17) skipped round 37 by the records: skipping
    // round 38 too is his second consecutive skip, a loss (TWS-R2).
    a.ok(&["skip", "request", "Jonas Weber"]);
    a.ok(&["round", "announce", "--at", "2026-03-02"]);
    let round: Value = a.ok_json(&["round", "show", "--json"]);
    let games = round["games"].as_array().unwrap();
    assert_eq!(games.len(), 19, "39 players active: 19 games and a bye");
    for g in games {
        let id = g["id"].as_str().unwrap();
        let winner = g["ussr"].as_str().unwrap();
        a.ok(&[
            "result",
            "record",
            id,
            "--winner",
            winner,
            "--by",
            "vp",
            "--at",
            "2026-04-01",
        ]);
    }
    a.ok(&["round", "close", "--at", "2026-04-02"]);
    let why = a.ok(&["round", "explain", "38"]);
    let line = why
        .lines()
        .find(|l| l.contains("Jonas Weber skipped a 2nd consecutive round"))
        .unwrap_or_else(|| panic!("{why}"));
    assert!(
        line.contains("the first skip comes from the records carried over on 2026-03-01"),
        "{line}"
    );
    // The champion kept rung 1 by winning as the USSR: his carried streak
    // of 3 grows to 4 (ARB-R7).
    let ladder: Value = a.ok_json(&["ladder", "show", "--json"]);
    assert_eq!(ladder["champion"], "Ana Morales");
    assert_eq!(ladder["streak"], 4);
}
