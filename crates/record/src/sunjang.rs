//! The Sunjang league (sunjang-league.txt): its events
//! ([`arbiter_engine::sunjang::season::Event`]) in format v1, and its TOML
//! rules file.
//!
//! # Events
//!
//! The conventions of the crate's format v1 (see the [crate] docs): one
//! JSON object, `v` and `type` first (`type` is the engine's
//! `Event::kind()`, prefixed `sunjang-`), snake_case fields, player ids
//! integers from 1, times RFC 3339 in UTC, optional values left out, enums
//! kebab-case strings. What is particular to Sunjang:
//!
//! - Seasons are numbered from 1.
//! - A rank is its short form: `"30k"` to `"1k"`, then `"1d"` to `"9d"`
//!   (no spaces, lower case, no leading zero).
//! - A division is its letter: `"A"` (the main division), `"B"`, ...,
//!   `"Z"`, `"AA"`, ...; a group is its name, the division letter plus its
//!   number from 1: `"A1"`, `"B2"`.
//! - An outcome is `"black-wins"`, `"white-wins"`, `"jigo"`,
//!   `"black-forfeits"`, `"white-forfeits"` or `"both-forfeit"`.
//! - A player is `{"name","rank","provisional","rating"}` with
//!   `"corr_rank"` and `"corr_rating"` when he has them.
//! - The rules state every setting; gamepoints are integers counting
//!   halves, as the engine keeps them: `"win_half_points":2` (one
//!   gamepoint), `"jigo_half_points":1`, `"start_half_points_per_division":20`.
//! - The division restrictions per rank are an array of rows
//!   `{"strongest":"1k","weakest":"5k","highest":"A","lowest":"B"}`.
//! - A recorded explanation (a plan's placements and notes, a cancelled
//!   season) is `{"clause":...,"rulings":[...],"text":...}`.
//! - A season's plan lists its divisions (A first), each its groups, each
//!   its players in seed order: `[[[1,4],[2,3]],[[5,6,7]]]`; a closed
//!   season each division's `ranking`, `group_leaders` and the size of each
//!   of its `groups`.
//!
//! ```json
//! {"v":1,"type":"sunjang-result-recorded","season":2,"group":"B2","black":7,"white":12,"outcome":"jigo","at":"2026-03-01T19:00:00Z"}
//! {"v":1,"type":"sunjang-live-match-won","winner":3,"loser":8}
//! ```
//!
//! Reading is as strict as for the other formats: unknown fields, unknown
//! types, player id 0, season 0, group `"B0"`, a rank such as `"5p"` or
//! `"31k"` are [`RecordError::Malformed`] naming the field, line and
//! column; another `v` is [`RecordError::Version`] before the body is read;
//! a record of another format is refused naming it. What only the state can
//! tell (restrictions that are not monotone, a group the season does not
//! have) is the engine's `check`.
//!
//! # Rules file
//!
//! [`parse_sunjang_rules`] reads a TOML file in which every number of the
//! document is a named setting and the restrictions per rank are
//! `[[restriction]]` rows (the preset `sunjang-league`, [`crate::preset`],
//! quotes the document above each); [`sunjang_rules_to_toml`] writes one.

mod dto;
mod events;
pub(crate) use events::KINDS;
mod layout_file;
mod rules_file;

use arbiter_engine::sunjang::season::Event;

use crate::RecordError;

pub use layout_file::{MAX_LAYOUT_FILE, SunjangLayoutFile, parse_sunjang_layout};
pub use rules_file::{parse_sunjang_rules, sunjang_rules_to_toml};

/// Encode a Sunjang event as format v1 JSON (one line). Like
/// [`crate::encode`], it cannot fail (an impossible serializer error gives
/// an `unencodable` record that no decoder reads).
pub fn encode_sunjang(e: &Event) -> String {
    crate::encode_dto(&events::EventDto::from(e), e.kind())
}

/// Decode a format v1 Sunjang event.
///
/// # Errors
///
/// As [`crate::decode`]; an event of another format is refused naming it.
pub fn decode_sunjang(payload: &str) -> Result<Event, RecordError> {
    crate::decode_dto::<events::EventDto>(payload)
        .map(Into::into)
        .map_err(|error| another_format(payload, error))
}

const SUNJANG: &str = "a Sunjang league event";

/// A record that is not a Sunjang event because it is an event of another
/// format (it reads as one): say which.
fn another_format(payload: &str, error: RecordError) -> RecordError {
    let RecordError::Malformed { .. } = error else {
        return error;
    };
    let Some(kind) = crate::kind_of(payload) else {
        return error;
    };
    if KINDS.contains(&kind.as_str()) {
        return error;
    }
    let other = if crate::decode_league(payload).is_ok() {
        "an XMadn league event"
    } else if crate::decode_challengers(payload).is_ok() {
        "an XMadn Challengers event"
    } else if crate::decode(payload).is_ok() {
        "a Twilight Struggle ladder event"
    } else {
        return error;
    };
    RecordError::Malformed {
        message: format!(
            "`{kind}` is {other}, not {SUNJANG} (its types are {})",
            KINDS.join(", ")
        ),
    }
}
