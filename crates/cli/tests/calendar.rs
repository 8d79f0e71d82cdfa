//! `arbiter calendar` with the real binary (issue 18 §4): a competition's
//! feed and a player's on the demo, as iCalendar text (CRLF, folded lines,
//! escaped text) and as `--json`, and the refusals naming what is wrong.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::Arbiter;

fn demo() -> Arbiter {
    let a = Arbiter::new();
    a.demo();
    a
}

/// The content lines of an iCalendar text, each checked: ended by CRLF, at
/// most 75 octets; unfolded.
fn lines(text: &str) -> Vec<String> {
    assert!(text.ends_with("\r\n"));
    let mut out: Vec<String> = Vec::new();
    for line in text.trim_end_matches("\r\n").split("\r\n") {
        assert!(!line.contains('\n'), "a bare LF in {line:?}");
        assert!(line.len() <= 75, "{} octets: {line:?}", line.len());
        match line.strip_prefix(' ') {
            Some(rest) => out.last_mut().unwrap().push_str(rest),
            None => out.push(line.to_string()),
        }
    }
    out
}

#[test]
fn a_competition_and_a_player_calendar_print_as_icalendar_and_json() {
    let a = demo();
    let text = a.ok(&["-c", "tws-demo", "calendar", "--at", "2030-01-01T06:00:00Z"]);
    let l = lines(&text);
    assert_eq!(l.first().map(String::as_str), Some("BEGIN:VCALENDAR"));
    assert_eq!(l.last().map(String::as_str), Some("END:VCALENDAR"));
    assert!(l.iter().any(|x| x == "SUMMARY:Round 4 deadline"));
    // Every DTSTAMP is the competition's last change: the same text on the
    // next run, whatever the time.
    let stamps: std::collections::BTreeSet<&String> =
        l.iter().filter(|x| x.starts_with("DTSTAMP:")).collect();
    assert_eq!(stamps.len(), 1, "{stamps:?}");
    assert_eq!(text, a.ok(&["-c", "tws-demo", "calendar"]));
    let begins = l.iter().filter(|x| *x == "BEGIN:VEVENT").count();
    assert_eq!(begins, l.iter().filter(|x| x.starts_with("UID:")).count());

    let player = a.ok(&["-c", "tws-demo", "calendar", "--player", "Ana Morales"]);
    let l = lines(&player);
    assert!(
        l.iter()
            .any(|x| x.starts_with("SUMMARY:G") && x.contains("Ana Morales")),
        "{player}"
    );
    assert!(
        l.iter()
            .any(|x| x.starts_with("DESCRIPTION:") && x.contains("\\n"))
    );

    let json = a.ok_json(&["-c", "xmadn-league-demo", "--json", "calendar"]);
    let entries = json["entries"].as_array().unwrap();
    assert!(!entries.is_empty());
    for e in entries {
        assert!(
            e["uid"]
                .as_str()
                .unwrap()
                .ends_with(".xmadn-league-demo@arbiter")
        );
        assert!(
            e["url"]
                .as_str()
                .unwrap()
                .starts_with("http://localhost:8080/c/")
        );
    }
}

#[test]
fn a_calendar_of_nobody_is_refused_naming_what_is_missing() {
    let a = demo();
    a.run(&["-c", "tws-demo", "calendar", "--player", "Nobody Here"])
        .fails_with(1)
        .stderr_names(&["Nobody Here"]);
    a.run(&["calendar", "--account", "nobody"])
        .fails_with(1)
        .stderr_names(&["--account", "nobody"]);
    a.run(&[
        "-c",
        "tws-demo",
        "calendar",
        "--player",
        "A",
        "--account",
        "b",
    ])
    .fails_with(1)
    .stderr_names(&["--player", "--account"]);
    a.run(&["-c", "no-such", "calendar"]).fails_with(1);
}
