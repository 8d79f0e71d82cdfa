//! A competition's time zone (issue 17 §3, ARB-R82).
//!
//! Events record instants in UTC, and every rule that compares times
//! compares instants, so a zone decides nothing that is already recorded.
//! It says how a competition's times are shown (a deadline "2026-04-15
//! 23:59 CEST" in its zone, not in UTC) and how a date given without a time
//! is read: a deadline given as a day ends at 23:59:59 of that day in the
//! competition's zone. Without a setting a competition's zone is UTC, as
//! before the setting existed. Each format records the setting with its own
//! `…time-zone-set` event, decided by [`TimeZone::set`].

use std::fmt;

use chrono::{LocalResult, NaiveDate, NaiveDateTime, NaiveTime, Offset, TimeZone as _};
use chrono_tz::{TZ_VARIANTS, Tz};

use crate::error::RuleError;
use crate::model::Time;

/// The clause a zone's refusals and explanations cite.
pub const CLAUSE: &str = "ARB-R82";

/// The longest zone name a command may give (the IANA names are at most 32
/// characters long).
pub const MAX_ZONE: usize = 64;

/// An IANA time zone ("Europe/Berlin", "America/New_York", "UTC").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TimeZone(Tz);

impl Default for TimeZone {
    fn default() -> Self {
        TimeZone(Tz::UTC)
    }
}

impl fmt::Display for TimeZone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl TimeZone {
    /// UTC, the zone of a competition without the setting.
    pub const UTC: TimeZone = TimeZone(Tz::UTC);

    /// The zone of IANA name `name`, matched without regard to case
    /// ("europe/berlin" is Europe/Berlin); a name that is not one is
    /// refused with the names it may have meant, naming field `time_zone`.
    pub fn parse(name: &str) -> Result<Self, RuleError> {
        let name = name.trim();
        let refuse = |message: String| Err(RuleError::new(CLAUSE, message).field("time_zone"));
        if name.is_empty() {
            return refuse(
                "a time zone is needed: an IANA name such as Europe/Berlin or UTC".into(),
            );
        }
        if name.chars().count() > MAX_ZONE || name.chars().any(char::is_control) {
            return refuse(format!(
                "a time zone is an IANA name of at most {MAX_ZONE} characters, such as Europe/Berlin"
            ));
        }
        if let Some(tz) = TZ_VARIANTS
            .iter()
            .find(|tz| tz.name().eq_ignore_ascii_case(name))
        {
            return Ok(TimeZone(*tz));
        }
        let suggestions = suggest(name);
        let hint = if suggestions.is_empty() {
            "; zones are IANA names such as Europe/Berlin, America/New_York or UTC".to_string()
        } else {
            format!("; did you mean {}?", suggestions.join(" or "))
        };
        refuse(format!("{name:?} is not a time zone{hint}"))
    }

    /// The zone's IANA name.
    pub fn name(&self) -> &'static str {
        self.0.name()
    }

    /// Whether it is UTC (or one of its aliases).
    pub fn is_utc(&self) -> bool {
        matches!(
            self.0,
            Tz::UTC | Tz::Etc__UTC | Tz::Etc__UCT | Tz::UCT | Tz::Etc__Universal | Tz::Universal
        ) || matches!(self.0, Tz::Zulu | Tz::Etc__Zulu)
    }

    /// The day of `t` in this zone, `2026-04-15`.
    pub fn date(&self, t: Time) -> String {
        t.with_timezone(&self.0).format("%Y-%m-%d").to_string()
    }

    /// The minute of `t` in this zone with its abbreviation,
    /// `2026-04-15 23:59 CEST` (or `… UTC`; a zone without a letter
    /// abbreviation gives its offset, `… +03`).
    pub fn minute(&self, t: Time) -> String {
        t.with_timezone(&self.0)
            .format("%Y-%m-%d %H:%M %Z")
            .to_string()
    }

    /// The offset from UTC at `t`, `+02:00`.
    pub fn offset(&self, t: Time) -> String {
        let seconds = self.0.offset_from_utc_datetime(&t.naive_utc()).fix();
        seconds.to_string()
    }

    /// The last second of day `day` in this zone, 23:59:59 local (a
    /// deadline given as a day, ARB-R82). A day whose 23:59:59 falls in a
    /// gap of a change of offset ends at the gap's start; one where it
    /// occurs twice ends at the later.
    pub fn end_of_day(&self, day: NaiveDate) -> Time {
        let local =
            NaiveDateTime::new(day, NaiveTime::from_hms_opt(23, 59, 59).unwrap_or_default());
        match self.0.from_local_datetime(&local) {
            LocalResult::Single(t) => t.with_timezone(&chrono::Utc),
            LocalResult::Ambiguous(_, later) => later.with_timezone(&chrono::Utc),
            LocalResult::None => {
                // No zone has a gap at 23:59:59 that is not closed by
                // midnight; step back a minute at a time to its start.
                let mut probe = local;
                for _ in 0..(24 * 60) {
                    probe -= chrono::Duration::minutes(1);
                    if let LocalResult::Single(t) = self.0.from_local_datetime(&probe) {
                        return t.with_timezone(&chrono::Utc);
                    }
                }
                local.and_utc()
            }
        }
    }

    /// Decide setting a competition's zone from `current` to `name`: the
    /// new zone, or a refusal naming field `time_zone` when it is not a
    /// zone or is already the competition's.
    pub fn set(current: TimeZone, name: &str) -> Result<TimeZone, RuleError> {
        let zone = TimeZone::parse(name)?;
        if zone == current {
            return Err(RuleError::new(
                CLAUSE,
                format!("the competition's time zone is already {zone}"),
            )
            .field("time_zone"));
        }
        Ok(zone)
    }

    /// Every zone's IANA name, in the database's order (for a form's list).
    pub fn names() -> impl Iterator<Item = &'static str> {
        TZ_VARIANTS.iter().map(|tz| tz.name())
    }
}

/// The zone names closest to `name`: those that end in it (a city given
/// alone, "Berlin"), else the nearest by Jaro-Winkler (0.88 or closer, and within 0.02
/// of the nearest), at most three.
fn suggest(name: &str) -> Vec<&'static str> {
    let key = name.to_lowercase().replace(' ', "_");
    let by_city: Vec<&'static str> = TZ_VARIANTS
        .iter()
        .map(|tz| tz.name())
        .filter(|n| {
            let lower = n.to_lowercase();
            lower.rsplit('/').next() == Some(key.as_str())
        })
        .take(3)
        .collect();
    if !by_city.is_empty() {
        return by_city;
    }
    let mut scored: Vec<(f64, &'static str)> = TZ_VARIANTS
        .iter()
        .map(|tz| {
            let n = tz.name();
            let lower = n.to_lowercase();
            let city = lower.rsplit('/').next().unwrap_or(&lower).to_string();
            let score = strsim::jaro_winkler(&lower, &key).max(strsim::jaro_winkler(&city, &key));
            (score, n)
        })
        .filter(|(score, _)| *score >= 0.88)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    // Only the nearly closest: a typo names one zone, not its neighbours.
    let best = scored.first().map_or(0.0, |(score, _)| *score);
    scored
        .into_iter()
        .take_while(|(score, _)| *score >= best - 0.02)
        .take(3)
        .map(|(_, n)| n)
        .collect()
}

/// A competition with a time zone: each format's state answers it from its
/// `…time-zone-set` events (UTC without one).
pub trait Zoned {
    fn zone(&self) -> TimeZone;
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
    fn names_are_matched_without_case_and_misspellings_suggested() {
        assert_eq!(
            TimeZone::parse("europe/berlin").unwrap().name(),
            "Europe/Berlin"
        );
        assert_eq!(TimeZone::parse(" UTC ").unwrap(), TimeZone::UTC);
        let e = TimeZone::parse("Europe/Berln").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("time_zone"));
        assert!(
            e.message.contains("did you mean Europe/Berlin?"),
            "{}",
            e.message
        );
        let e = TimeZone::parse("Berlin").unwrap_err();
        assert!(
            e.message.contains("did you mean Europe/Berlin?"),
            "{}",
            e.message
        );
        let e = TimeZone::parse("Mars/Olympus_Mons").unwrap_err();
        assert!(e.message.contains("IANA"), "{}", e.message);
        assert!(TimeZone::parse("").is_err());
        assert!(TimeZone::parse(&"x".repeat(65)).is_err());
        assert!(TimeZone::parse("Europe/\u{0}Berlin").is_err());
    }

    #[test]
    fn times_are_shown_in_the_zone_with_its_abbreviation() {
        let berlin = TimeZone::parse("Europe/Berlin").unwrap();
        // Summer time (CEST, +02:00) and winter time (CET, +01:00).
        assert_eq!(
            berlin.minute(at("2026-07-01T21:59:00Z")),
            "2026-07-01 23:59 CEST"
        );
        assert_eq!(
            berlin.minute(at("2026-01-01T22:59:00Z")),
            "2026-01-01 23:59 CET"
        );
        assert_eq!(berlin.offset(at("2026-07-01T00:00:00Z")), "+02:00");
        // A UTC evening is the next day in Tokyo.
        let tokyo = TimeZone::parse("Asia/Tokyo").unwrap();
        assert_eq!(tokyo.date(at("2026-04-15T20:00:00Z")), "2026-04-16");
        assert_eq!(
            TimeZone::UTC.minute(at("2026-04-15T20:00:00Z")),
            "2026-04-15 20:00 UTC"
        );
    }

    #[test]
    fn a_day_ends_at_its_last_second_in_the_zone() {
        let day = NaiveDate::from_ymd_opt(2026, 4, 15).unwrap();
        assert_eq!(TimeZone::UTC.end_of_day(day), at("2026-04-15T23:59:59Z"));
        let ny = TimeZone::parse("America/New_York").unwrap();
        assert_eq!(ny.end_of_day(day), at("2026-04-16T03:59:59Z"));
        let kiritimati = TimeZone::parse("Pacific/Kiritimati").unwrap();
        assert_eq!(kiritimati.end_of_day(day), at("2026-04-15T09:59:59Z"));
    }

    #[test]
    fn setting_the_same_zone_again_is_refused() {
        let berlin = TimeZone::parse("Europe/Berlin").unwrap();
        assert!(TimeZone::set(berlin, "europe/berlin").is_err());
        assert_eq!(
            TimeZone::set(TimeZone::UTC, "Europe/Berlin").unwrap(),
            berlin
        );
    }

    #[test]
    fn utc_and_its_aliases_are_utc() {
        assert!(TimeZone::UTC.is_utc());
        assert!(TimeZone::parse("Etc/UTC").unwrap().is_utc());
        assert!(!TimeZone::parse("Europe/London").unwrap().is_utc());
    }
}
