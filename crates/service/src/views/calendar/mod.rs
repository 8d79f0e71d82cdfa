//! Calendars (issue 18 §4): what a competition's and a player's calendar
//! feeds hold, and the iCalendar text (RFC 5545) calendar applications
//! subscribe to.
//!
//! Each format says which of its dates go in a calendar
//! ([`CalendarSource`], one module per format beside this one): the dates
//! its state records, nothing invented. A dated entry is a `VEVENT` at that
//! instant (every time the engine records is an instant, so each is written
//! in UTC with `Z`); a game the state gives no date (an XMadn game still to
//! play, a Sunjang group game) is a `VTODO` without one, which RFC 5545
//! allows and task lists show. The descriptions' text gives each time in
//! the competition's zone, as its pages do (`2026-04-15 23:59 CEST`,
//! ARB-R82); the applications place `DTSTART` in their reader's own.
//!
//! A competition's feed ([`Service::competition_calendar`]) holds its rounds,
//! seasons and deadlines; a player's ([`Service::account_calendar`],
//! [`Service::player_calendar`]) his games and their deadlines, in every
//! competition where the account is linked to a player by the
//! competition's own events (ARB-R50; never a name).
//!
//! The text ([`Calendar::to_ics`]): CRLF line ends, lines folded at 75
//! octets without splitting a character, TEXT values escaped (`\\`, `;`,
//! `,`, newlines; other control characters become spaces), a `UID` per
//! entry that stays the same from one fetch to the next (the competition,
//! the entry's key, and for a player's feed the player's id), so that an
//! application updates an entry rather than adding it twice.

pub mod roundrobin;
pub mod sunjang;
pub mod tws;
pub mod xmadn;

use std::fmt::Write as _;

use arbiter_engine::model::{Linked, PlayerId, Time};
use arbiter_store::EventStore;

use crate::format::Format;
use crate::{Service, ServiceError};

/// When an entry happens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// At this instant (a deadline, the time a result was recorded).
    At(Time),
    /// The state records no date for it: a to-do (`VTODO`).
    Undated,
}

/// Where an entry stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Still ahead: a deadline, a game to play.
    Open,
    /// Done: a game decided, a round closed.
    Done,
    /// Called off: a cancelled game.
    Cancelled,
}

/// One entry of a calendar, as a format gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Unique and stable within the competition's feed or one player's
    /// part of it: `round-3-deadline`, `game-51`.
    pub key: String,
    pub when: When,
    /// One line: "G51: Ana Morales vs Ben Li (deadline)".
    pub summary: String,
    /// Lines: the opponent, sides, deadline, result.
    pub description: String,
    /// The page it is about, from the server's root: `/c/tws/rounds/3`.
    pub page: String,
    pub status: Status,
}

/// A game still to be played that has a deadline: what a calendar shows
/// at its deadline, and what "deadline approaching" notifies (issue 18 §3,
/// `crate::notify`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Due {
    /// The game as the competition names it ("G12"), unique within it.
    pub game: String,
    /// Its players' names, in the order the game lists them.
    pub players: Vec<String>,
    pub deadline: Time,
    /// The moderator in charge of it, where the format records one.
    pub moderator: Option<String>,
    /// The page it is on, from the server's root: `/c/tws/rounds/3`.
    pub page: String,
}

/// What a format puts in calendars.
pub trait CalendarSource: Format {
    /// The competition's entries (`player` `None`: rounds, seasons,
    /// deadlines, and what it dates), or one player's (his games and their
    /// deadlines).
    fn entries(&self, competition: &str, player: Option<PlayerId>) -> Vec<Entry>;
    /// Its games still to be played that have a deadline: the ones a
    /// player's calendar shows at their deadline as "(deadline)". None for
    /// a format that records no deadlines (XMadn, Sunjang).
    fn due(&self, competition: &str) -> Vec<Due> {
        let _ = competition;
        Vec::new()
    }
}

/// An entry in a feed, with the competition it comes from and, in a
/// player's feed, the player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub competition: String,
    pub player: Option<PlayerId>,
    /// When the competition last changed (its last event's time): the
    /// `DTSTAMP` of a calendar without a `METHOD` is when the information
    /// was last revised (RFC 5545 §3.8.7.2), so that the text stays the
    /// same from one fetch to the next until something changes.
    pub revised: Option<Time>,
    pub entry: Entry,
}

impl Item {
    /// The entry's `UID`: the same on every fetch. A player's entry names
    /// him, so that it never takes the place of the competition's entry
    /// for the same game in an application subscribed to both; a to-do's
    /// says so, so that a game to play (a `VTODO`) and the same game once
    /// dated (a `VEVENT`) are never one component of two kinds.
    pub fn uid(&self) -> String {
        let todo = match self.entry.when {
            When::At(_) => "",
            When::Undated => "todo-",
        };
        let key = &self.entry.key;
        match self.player {
            Some(p) => format!("{todo}{key}.p{}.{}@arbiter", p.0, self.competition),
            None => format!("{todo}{key}.{}@arbiter", self.competition),
        }
    }
}

/// A calendar: its name and its entries, in the order the formats give
/// them, competitions by id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Calendar {
    pub name: String,
    pub items: Vec<Item>,
}

/// How often applications are asked to fetch a feed again.
const REFRESH: &str = "PT1H";

impl Calendar {
    /// The calendar as iCalendar text (RFC 5545). `base` is the server's
    /// address the pages are linked from (`https://arbiter.example`, no
    /// trailing slash); `now` is the `DTSTAMP` of a component whose
    /// competition's last change is not known.
    pub fn to_ics(&self, base: &str, now: Time) -> String {
        let mut out = String::new();
        line(&mut out, "BEGIN:VCALENDAR");
        line(&mut out, "VERSION:2.0");
        line(&mut out, "PRODID:-//Arbiter//Arbiter competitions//EN");
        line(&mut out, "CALSCALE:GREGORIAN");
        line(&mut out, &format!("NAME:{}", text(&self.name)));
        line(&mut out, &format!("X-WR-CALNAME:{}", text(&self.name)));
        line(
            &mut out,
            &format!("REFRESH-INTERVAL;VALUE=DURATION:{REFRESH}"),
        );
        line(&mut out, &format!("X-PUBLISHED-TTL:{REFRESH}"));
        for item in &self.items {
            let e = &item.entry;
            let url = format!("{base}{}", e.page);
            let component = match e.when {
                When::At(_) => "VEVENT",
                When::Undated => "VTODO",
            };
            line(&mut out, &format!("BEGIN:{component}"));
            line(&mut out, &format!("UID:{}", text(&item.uid())));
            line(
                &mut out,
                &format!("DTSTAMP:{}", utc(item.revised.unwrap_or(now))),
            );
            if let When::At(t) = e.when {
                line(&mut out, &format!("DTSTART:{}", utc(t)));
                // A deadline or a recorded result takes no time of anyone's
                // day: shown, never counted as busy.
                line(&mut out, "TRANSP:TRANSPARENT");
            }
            line(&mut out, &format!("SUMMARY:{}", text(&e.summary)));
            line(
                &mut out,
                &format!("DESCRIPTION:{}", text(&format!("{}\n{url}", e.description))),
            );
            line(&mut out, &format!("URL:{}", uri(&url)));
            let status = match (e.when, e.status) {
                (_, Status::Cancelled) => "CANCELLED",
                (When::At(_), _) => "CONFIRMED",
                (When::Undated, Status::Open) => "NEEDS-ACTION",
                (When::Undated, Status::Done) => "COMPLETED",
            };
            line(&mut out, &format!("STATUS:{status}"));
            line(&mut out, &format!("END:{component}"));
        }
        line(&mut out, "END:VCALENDAR");
        out
    }
}

/// A UTC date-time as RFC 5545 writes it: `20260415T235959Z`.
fn utc(t: Time) -> String {
    t.format("%Y%m%dT%H%M%SZ").to_string()
}

/// A TEXT value (RFC 5545 §3.3.11): backslash, semicolon and comma
/// escaped, a newline as `\n`, carriage returns dropped, and every other
/// control character (which TEXT cannot hold) a space.
pub fn text(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A URI value: the characters a URI may not hold percent-encoded (pages
/// are made from competition ids and numbers, so this is a safeguard).
fn uri(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_graphic()
            && !matches!(
                b,
                b'"' | b'<' | b'>' | b'\\' | b'^' | b'`' | b'{' | b'|' | b'}'
            )
        {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// The longest line RFC 5545 §3.1 allows, in octets, without its CRLF.
pub const FOLD_AT: usize = 75;

/// Write one content line, folded at [`FOLD_AT`] octets (a continuation
/// starts with a space, which counts), never inside a UTF-8 character, and
/// ended by CRLF.
fn line(out: &mut String, content: &str) {
    let mut room = FOLD_AT;
    let mut used = 0;
    for c in content.chars() {
        let len = c.len_utf8();
        if used + len > room {
            out.push_str("\r\n ");
            // The space is the continuation line's first octet.
            room = FOLD_AT - 1;
            used = 0;
        }
        out.push(c);
        used += len;
    }
    out.push_str("\r\n");
}

/// The longest name of a player asked for by name.
const MAX_NAME: usize = 200;

impl<S: EventStore> Service<S> {
    /// The calendar of competition `competition`: its rounds, seasons and
    /// deadlines.
    pub async fn competition_calendar(&self, competition: &str) -> crate::Result<Calendar> {
        let (name, entries, version) =
            crate::with_format!(self.format_of(competition).await?, |F| {
                self.read_as::<F, _>(competition, |state, version| {
                    (
                        state.title().to_string(),
                        state.entries(competition, None),
                        version,
                    )
                })
                .await?
            });
        Ok(Calendar {
            name,
            items: self.items(competition, None, entries, version).await?,
        })
    }

    /// The calendar of the player named exactly `name` in `competition`
    /// (as the CLI asks for it): his games and their deadlines.
    pub async fn player_calendar(&self, competition: &str, name: &str) -> crate::Result<Calendar> {
        if name.len() > MAX_NAME {
            return Err(ServiceError::Input(format!(
                "a player's name is at most {MAX_NAME} bytes"
            )));
        }
        let (title, player, entries, version) =
            crate::with_format!(self.format_of(competition).await?, |F| {
                self.read_as::<F, _>(competition, |state, version| {
                    let player = state.player_named(name).ok_or_else(|| {
                        ServiceError::Input(format!(
                            "there is no player named {name:?} in {competition}"
                        ))
                    })?;
                    Ok::<_, ServiceError>((
                        state.title().to_string(),
                        player,
                        state.entries(competition, Some(player)),
                        version,
                    ))
                })
                .await??
            });
        Ok(Calendar {
            name: format!("{name}: {title}"),
            items: self
                .items(competition, Some(player), entries, version)
                .await?,
        })
    }

    /// The calendar of account `account` (its username), named `name`:
    /// the games and deadlines of the player it is linked to in every
    /// competition (ARB-R50), competitions by id.
    pub async fn account_calendar(&self, account: &str, name: &str) -> crate::Result<Calendar> {
        let mut all = Vec::new();
        for competition in self.competitions().await? {
            let found = crate::with_format!(self.format_of(&competition).await?, |F| {
                self.read_as::<F, _>(&competition, |state, version| {
                    state
                        .links()
                        .player_of(account)
                        .map(|player| (player, state.entries(&competition, Some(player)), version))
                })
                .await?
            });
            if let Some((player, entries, version)) = found {
                all.extend(
                    self.items(&competition, Some(player), entries, version)
                        .await?,
                );
            }
        }
        Ok(Calendar {
            name: format!("Games of {name}"),
            items: all,
        })
    }
}

impl<S: EventStore> Service<S> {
    /// `entries` of `competition` at `version` as a feed's items, each with
    /// the time of the competition's last event.
    async fn items(
        &self,
        competition: &str,
        player: Option<PlayerId>,
        entries: Vec<Entry>,
        version: u64,
    ) -> crate::Result<Vec<Item>> {
        let revised = self
            .store()
            .read(competition, version, Some(version))
            .await?
            .last()
            .and_then(|e| chrono::DateTime::parse_from_rfc3339(&e.recorded_at).ok())
            .map(|t| t.with_timezone(&chrono::Utc));
        Ok(entries
            .into_iter()
            .map(|entry| Item {
                competition: competition.to_string(),
                player,
                revised,
                entry,
            })
            .collect())
    }
}

/// Two players' game as summaries name it: "G51: Ana Morales vs Ben Li".
pub(crate) fn versus(label: &str, a: &str, b: &str) -> String {
    format!("{label}: {a} vs {b}")
}

/// A game still to be played: at its deadline when it has one ("…
/// (deadline)"), else an undated to-do ("… (to play)").
pub(crate) fn to_play(
    title: &str,
    deadline: Option<Time>,
    lines: &mut Vec<String>,
) -> (When, String, Status) {
    lines.push("Still to be played.".to_string());
    match deadline {
        Some(d) => (When::At(d), format!("{title} (deadline)"), Status::Open),
        None => (When::Undated, format!("{title} (to play)"), Status::Open),
    }
}

/// The entry of game number `number` (its key `game-N`), its lines the
/// description.
pub(crate) fn game_entry(
    number: u32,
    (when, summary, status): (When, String, Status),
    lines: &[String],
    page: String,
) -> Entry {
    Entry {
        key: format!("game-{number}"),
        when,
        summary,
        description: lines.join("\n"),
        page,
        status,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use chrono::TimeZone;

    #[test]
    fn text_is_escaped() {
        assert_eq!(text("a,b;c\\d\ne\r\tf\u{7}"), "a\\,b\\;c\\\\d\\ne f ");
    }

    #[test]
    fn lines_fold_at_75_octets_between_characters() {
        let mut out = String::new();
        let long = format!("SUMMARY:{}", "é".repeat(100));
        line(&mut out, &long);
        assert!(out.ends_with("\r\n"));
        let lines: Vec<&str> = out.trim_end_matches("\r\n").split("\r\n").collect();
        assert!(lines.len() > 2);
        for (i, l) in lines.iter().enumerate() {
            assert!(l.len() <= FOLD_AT, "line {i} has {} octets", l.len());
            assert_eq!(i > 0, l.starts_with(' '));
        }
        let unfolded: String = lines
            .iter()
            .enumerate()
            .map(|(i, l)| if i == 0 { *l } else { &l[1..] })
            .collect();
        assert_eq!(unfolded, long);
    }

    #[test]
    fn a_short_line_is_not_folded() {
        let mut out = String::new();
        line(&mut out, &"x".repeat(75));
        assert_eq!(out, format!("{}\r\n", "x".repeat(75)));
    }

    #[test]
    fn uids_stay_apart_between_a_competition_and_a_player() {
        let entry = Entry {
            key: "game-5".into(),
            when: When::At(
                chrono::Utc
                    .with_ymd_and_hms(2026, 4, 15, 23, 59, 0)
                    .unwrap(),
            ),
            summary: "s".into(),
            description: "d".into(),
            page: "/c/x".into(),
            status: Status::Open,
        };
        let of = |player| Item {
            competition: "x".into(),
            player,
            revised: None,
            entry: entry.clone(),
        };
        assert_eq!(of(None).uid(), "game-5.x@arbiter");
        assert_eq!(of(Some(PlayerId(3))).uid(), "game-5.p3.x@arbiter");
        let todo = Item {
            entry: Entry {
                when: When::Undated,
                ..entry.clone()
            },
            ..of(None)
        };
        assert_eq!(todo.uid(), "todo-game-5.x@arbiter");
    }

    #[test]
    fn urls_hold_no_character_a_uri_cannot() {
        assert_eq!(uri("http://h/c/a b\"<"), "http://h/c/a%20b%22%3C");
    }
}
