//! The competition's time zone (ARB-R82) against a peer: Python's
//! `zoneinfo` (the standard library, reading the system's IANA database),
//! on the same zones and days. For every day of 2026 and 2027 in zones
//! across the world (with and without summer time, half-hour and
//! quarter-hour offsets, the date line), the end of the day
//! (`TimeZone::end_of_day`) must be the instant `zoneinfo` gives 23:59:59
//! local time (the later one where it occurs twice), and noon and 23:30 UTC
//! must be shown (`TimeZone::minute`) as `zoneinfo` writes them with `%Z`.
//! A day whose 23:59:59 does not exist locally is counted, not compared
//! (`zoneinfo` has no answer for it; the module's own test covers it).
//!
//! It needs `python3` (3.9 or later) and the system's time zone database
//! (Debian's `tzdata`); without them it fails saying so.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::process::{Command, Stdio};

use arbiter_engine::zone::TimeZone;
use chrono::{Duration, NaiveDate, TimeZone as _, Utc};

const ZONES: &[&str] = &[
    "UTC",
    "Europe/London",
    "Europe/Berlin",
    "Europe/Helsinki",
    "Europe/Moscow",
    "Europe/Istanbul",
    "America/New_York",
    "America/Chicago",
    "America/Denver",
    "America/Phoenix",
    "America/Los_Angeles",
    "America/Anchorage",
    "America/Sao_Paulo",
    "America/Argentina/Buenos_Aires",
    "America/St_Johns",
    "America/Halifax",
    "America/Mexico_City",
    "Pacific/Honolulu",
    "Pacific/Auckland",
    "Pacific/Chatham",
    "Pacific/Kiritimati",
    "Pacific/Pago_Pago",
    "Australia/Sydney",
    "Australia/Adelaide",
    "Australia/Lord_Howe",
    "Australia/Perth",
    "Asia/Tokyo",
    "Asia/Seoul",
    "Asia/Shanghai",
    "Asia/Kolkata",
    "Asia/Kathmandu",
    "Asia/Tehran",
    "Asia/Dubai",
    "Africa/Cairo",
    "Africa/Johannesburg",
    "Africa/Lagos",
    "Atlantic/Azores",
];

const PEER: &str = r#"
import sys, datetime, zoneinfo
out = []
for line in sys.stdin:
    zone, day, noon, late = line.split()
    z = zoneinfo.ZoneInfo(zone)
    d = datetime.date.fromisoformat(day)
    local = datetime.datetime(d.year, d.month, d.day, 23, 59, 59, tzinfo=z, fold=1)
    utc = local.astimezone(datetime.timezone.utc)
    # A local time that does not exist does not come back the same.
    back = utc.astimezone(z).replace(tzinfo=None)
    end = "gap" if back != local.replace(tzinfo=None) else utc.strftime("%Y-%m-%dT%H:%M:%SZ")
    shown = []
    for t in (noon, late):
        i = datetime.datetime.fromisoformat(t.replace("Z", "+00:00"))
        shown.append(i.astimezone(z).strftime("%Y-%m-%d_%H:%M_%Z"))
    out.append(" ".join([zone, day, end] + shown))
sys.stdout.write("\n".join(out) + "\n")
"#;

#[test]
fn end_of_day_and_shown_times_agree_with_pythons_zoneinfo() {
    let first = NaiveDate::from_ymd_opt(2026, 1, 1).unwrap();
    let days: Vec<NaiveDate> = (0..730).map(|n| first + Duration::days(n)).collect();
    let mut input = String::new();
    for zone in ZONES {
        for day in &days {
            let noon = Utc.from_utc_datetime(&day.and_hms_opt(12, 0, 0).unwrap());
            let late = Utc.from_utc_datetime(&day.and_hms_opt(23, 30, 0).unwrap());
            input.push_str(&format!(
                "{zone} {day} {} {}\n",
                noon.format("%Y-%m-%dT%H:%M:%SZ"),
                late.format("%Y-%m-%dT%H:%M:%SZ")
            ));
        }
    }
    let mut child = Command::new("python3")
        .arg("-c")
        .arg(PEER)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 is needed for this comparison (Debian: apt-get install python3 tzdata)");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "python3's zoneinfo failed (is Debian's tzdata installed?): {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let answers = String::from_utf8(output.stdout).unwrap();
    let mut compared = 0;
    let mut gaps = 0;
    let mut disagreements = Vec::new();
    for line in answers.lines() {
        let parts: Vec<&str> = line.split(' ').collect();
        let [zone, day, end, noon, late] = parts[..] else {
            panic!("the peer's line {line:?}");
        };
        let z = TimeZone::parse(zone).unwrap();
        let d = NaiveDate::parse_from_str(day, "%Y-%m-%d").unwrap();
        if end == "gap" {
            gaps += 1;
        } else {
            let ours = z.end_of_day(d).format("%Y-%m-%dT%H:%M:%SZ").to_string();
            if ours != end {
                disagreements.push(format!("{zone} {day}: end of day {ours}, zoneinfo {end}"));
            }
        }
        for (hour, minute, theirs) in [(12, 0, noon), (23, 30, late)] {
            let t = Utc.from_utc_datetime(&d.and_hms_opt(hour, minute, 0).unwrap());
            let ours = z.minute(t).replace(' ', "_");
            if ours != theirs {
                disagreements.push(format!("{zone} {t}: shown {ours}, zoneinfo {theirs}"));
            }
        }
        compared += 1;
    }
    assert_eq!(compared, ZONES.len() * days.len(), "every day answered");
    assert!(gaps < 10, "{gaps} days without a 23:59:59");
    assert!(
        disagreements.is_empty(),
        "{} disagreements with zoneinfo, first: {:#?}",
        disagreements.len(),
        &disagreements[..disagreements.len().min(10)]
    );
}
