//! `arbiter competition time-zone` (issue 17 §3, ARB-R82) in every format
//! of the demo: shown (UTC until set), set by the format's own event (in
//! the history, undone by `undo`), carried by `export` and `import`, and a
//! deadline given as a day read in it; a name that is not a zone refused
//! naming the field and the zone meant, nothing stored.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::Arbiter;

/// The demo's competitions, one of each format.
const DEMO: &[&str] = &[
    "tws-demo",
    "xmadn-league-demo",
    "xmadn-challengers-demo",
    "sunjang-demo",
    "chess-round-robin-demo",
];

fn zone(a: &Arbiter, id: &str) -> String {
    a.ok_json(&["-c", id, "competition", "time-zone", "--json"])["time_zone"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn version(a: &Arbiter, id: &str) -> u64 {
    a.ok_json(&["competition", "list", "--json"])
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap()["version"]
        .as_u64()
        .unwrap()
}

#[test]
fn every_format_sets_undoes_exports_and_imports_its_zone() {
    let a = Arbiter::new();
    a.demo();
    for id in DEMO {
        assert_eq!(zone(&a, id), "UTC", "{id}");
        let out = a.ok(&["-c", id, "competition", "time-zone", "asia/tokyo"]);
        assert!(out.contains("is now Asia/Tokyo"), "{id}: {out}");
        assert_eq!(zone(&a, id), "Asia/Tokyo", "{id}");
        let history = a.ok(&["-c", id, "history", "--json"]);
        assert!(
            history.contains("time zone set to Asia/Tokyo"),
            "{id}: {history}"
        );

        // Misspelled, or the zone it has: refused naming the field,
        // nothing stored.
        let before = version(&a, id);
        let refused = a.run(&["-c", id, "competition", "time-zone", "Asia/Tokio"]);
        assert_ne!(refused.code, 0);
        assert!(
            refused.stderr.contains("did you mean Asia/Tokyo?")
                && refused.stderr.contains("time_zone"),
            "{id}: {}",
            refused.stderr
        );
        let again = a.run(&["-c", id, "competition", "time-zone", "Asia/Tokyo"]);
        assert!(
            again.stderr.contains("already Asia/Tokyo"),
            "{}",
            again.stderr
        );
        assert_eq!(version(&a, id), before, "{id}: nothing stored");

        // Undone: UTC again, then set for the export.
        a.ok(&["-c", id, "undo"]);
        assert_eq!(zone(&a, id), "UTC", "{id}");
        a.ok(&["-c", id, "competition", "time-zone", "Pacific/Auckland"]);
    }

    // Carried by export and import.
    let file = a.db().with_file_name("zones.jsonl");
    a.ok(&["export", "--all", "-o", file.to_str().unwrap()]);
    let b = Arbiter::new();
    b.ok(&["import", file.to_str().unwrap()]);
    for id in DEMO {
        assert_eq!(zone(&b, id), "Pacific/Auckland", "{id}");
    }
}

#[test]
fn a_deadline_given_as_a_day_ends_in_the_zone() {
    let a = Arbiter::new();
    a.demo();
    let id = "chess-round-robin-demo";
    a.ok(&["-c", id, "competition", "time-zone", "America/New_York"]);
    a.ok(&["-c", id, "round-robin", "deadline", "9", "2027-01-15"]);
    let view = a.ok_json(&["-c", id, "round-robin", "show", "--json"]);
    let round = view["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["number"] == 9)
        .unwrap()
        .clone();
    // 23:59:59 in New York on 15 January (UTC-5) is 04:59:59 UTC the next
    // day.
    assert_eq!(round["deadline"], "2027-01-16T04:59:59+00:00", "{round}");
}
