//! Times as pages show them (issue 17 §3, ARB-R82): in the competition's
//! time zone, with the instant in UTC for a `<time datetime="…">`, and with
//! a countdown to a deadline written when the view is built ("in 3 days",
//! "2 hours ago"), so that a page reads it without JavaScript. The views
//! that carry one keep it out of their JSON.

use arbiter_engine::model::Time;
use arbiter_engine::zone::TimeZone;

/// A time on a page (the server's `when` macro of `macros.html`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct When {
    /// The instant, RFC 3339 in UTC (`datetime`).
    pub iso: String,
    /// The time in the competition's zone, as the reader sees it first.
    pub shown: String,
    /// The competition's zone (`data-zone`, which the script compares with
    /// the reader's).
    pub zone: &'static str,
    /// How far it is from now, when it is a deadline.
    pub countdown: Option<String>,
    /// A deadline that has passed.
    pub passed: bool,
}

impl When {
    /// `t` to the minute in `zone` ("2026-04-15 23:59 CEST").
    pub fn at(t: Time, zone: TimeZone) -> Self {
        When {
            iso: t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            shown: zone.minute(t),
            zone: zone.name(),
            countdown: None,
            passed: false,
        }
    }

    /// Deadline `t` in `zone` to the minute, with its countdown from `now`.
    pub fn deadline(t: Time, zone: TimeZone, now: Time) -> Self {
        When {
            countdown: Some(countdown(t, now)),
            passed: t < now,
            ..When::at(t, zone)
        }
    }

    /// Deadline `t` as the day it falls on in `zone` (the ladder's
    /// deadlines are days), with its countdown from `now`.
    pub fn deadline_day(t: Time, zone: TimeZone, now: Time) -> Self {
        When {
            shown: zone.date(t),
            ..When::deadline(t, zone, now)
        }
    }
}

impl When {
    /// Without its countdown: the deadline of what is already done.
    #[must_use]
    pub fn settled(self) -> Self {
        When {
            countdown: None,
            passed: false,
            ..self
        }
    }

    /// Without its countdown when `done`.
    #[must_use]
    pub fn settled_if(self, done: bool) -> Self {
        if done { self.settled() } else { self }
    }
}

/// How far `t` is from `now`, in the largest whole unit: "in 3 days",
/// "in 5 hours", "in 12 minutes", "now", "2 days ago".
pub fn countdown(t: Time, now: Time) -> String {
    let seconds = (t - now).num_seconds();
    let span = seconds.unsigned_abs();
    let (n, unit) = if span >= 2 * 86_400 {
        (span / 86_400, "day")
    } else if span >= 2 * 3_600 {
        (span / 3_600, "hour")
    } else if span >= 60 {
        (span / 60, "minute")
    } else {
        return "now".to_string();
    };
    let plural = if n == 1 { "" } else { "s" };
    if seconds > 0 {
        format!("in {n} {unit}{plural}")
    } else {
        format!("{n} {unit}{plural} ago")
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn at(s: &str) -> Time {
        chrono::DateTime::parse_from_rfc3339(s)
            .unwrap()
            .with_timezone(&chrono::Utc)
    }

    #[test]
    fn countdowns_name_the_largest_whole_unit() {
        let now = at("2026-04-10T12:00:00Z");
        assert_eq!(countdown(at("2026-04-15T23:59:59Z"), now), "in 5 days");
        assert_eq!(countdown(at("2026-04-11T11:00:00Z"), now), "in 23 hours");
        assert_eq!(countdown(at("2026-04-10T13:30:00Z"), now), "in 90 minutes");
        assert_eq!(countdown(at("2026-04-10T12:01:00Z"), now), "in 1 minute");
        assert_eq!(countdown(at("2026-04-10T12:00:30Z"), now), "now");
        assert_eq!(countdown(at("2026-04-07T12:00:00Z"), now), "3 days ago");
    }

    #[test]
    fn a_deadline_is_shown_in_the_zone_with_the_instant_in_utc() {
        let berlin = TimeZone::parse("Europe/Berlin").unwrap();
        let w = When::deadline(
            at("2026-04-15T21:59:59Z"),
            berlin,
            at("2026-04-16T00:00:00Z"),
        );
        assert_eq!(w.iso, "2026-04-15T21:59:59Z");
        assert_eq!(w.shown, "2026-04-15 23:59 CEST");
        assert_eq!(w.zone, "Europe/Berlin");
        assert_eq!(w.countdown.as_deref(), Some("2 hours ago"));
        assert!(w.passed);
        let day = When::deadline_day(
            at("2026-04-15T21:59:59Z"),
            berlin,
            at("2026-04-10T00:00:00Z"),
        );
        assert_eq!(day.shown, "2026-04-15");
        assert!(!day.passed);
    }
}
