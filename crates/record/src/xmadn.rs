//! The XMadn Double-Threat formats (xmadn-double-threat.txt): the events of
//! a league ([`arbiter_engine::xmadn::league::Event`]) and of a Challengers
//! event ([`arbiter_engine::xmadn::challengers::Event`]) in format v1, and
//! their TOML rules files.
//!
//! # Events
//!
//! The conventions of the crate's format v1 (see the [crate] docs): one
//! JSON object, `v` and `type` first (`type` is the engine's
//! `Event::kind()`), snake_case fields, ids (players, games) integers from 1,
//! times RFC 3339 in UTC, seeds and hashes 64 lowercase hex digits, optional
//! values left out, enums kebab-case strings or objects tagged by `kind`.
//! What is particular to XMadn:
//!
//! - Rule sets are `"2T"` (Championship) and `"2T+"` (Masters).
//! - A score is `{"pawns":[4,2],"seconds":750}`: the counted pawns of the
//!   game's two players in its player order, and the game's time.
//! - Allied colours are `{"vanguard":"red","rearguard":"blue"}`.
//! - A round of die-roll is an array of `[player, face]` pairs (faces from
//!   1); a roll of several rounds (ties roll again, XM-R1) is an array of
//!   them: `[[[1,4],[2,6],[3,4]],[[1,2],[3,5]]]`.
//! - A series is `"game"` or `{"first_to":3}`.
//! - A playoff is `{"kind":"none"}`, `{"kind":"top-two","final":...}` or
//!   `{"kind":"all-three","qualifying":...,"final":...}`; a playoff round
//!   (`stage`) is `"qualifying"` or `"final"`.
//! - Fixed-size values have exactly their size: three positions, three
//!   finishing places, three Game 0 colours, two players, two pawn counts.
//!
//! ```json
//! {"v":1,"type":"league-result-recorded","game":4,"score":{"pawns":[4,2],"seconds":750},"at":"2026-03-01T19:00:00Z"}
//! {"v":1,"type":"challengers-game-played","number":3,"players":[2,1],"score":{"pawns":[1,4],"seconds":1385},"at":"2026-03-01T19:00:00Z"}
//! ```
//!
//! Reading is as strict as for the TWS ladder ([`crate::decode`]): unknown
//! fields, unknown types, id 0, die face 0, a seed that is not 32 bytes, an
//! array of the wrong size are [`RecordError::Malformed`]; another `v` is
//! [`RecordError::Version`] before the body is read. A record of another
//! format (a TWS ladder event read as a league event, a league event read as
//! a Challengers event) is refused with a message naming both formats.
//! `reverted` has the same shape in every format. What only the state can
//! tell (positions that are not a permutation, a score the rule set does not
//! allow) is the engine's `check`.
//!
//! # Rules files
//!
//! [`parse_league_rules`] and [`parse_challengers_rules`] read TOML files in
//! which every number of the document is a named setting (the presets
//! `xmadn-league` and `xmadn-challengers`, [`crate::preset`], quote the
//! document above each); [`league_rules_to_toml`] and
//! [`challengers_rules_to_toml`] write them.

mod challengers;
mod dto;
mod league;
mod rules_file;

use arbiter_engine::xmadn::{challengers as engine_challengers, league as engine_league};
use serde::de::DeserializeOwned;

use crate::RecordError;

pub use rules_file::{
    challengers_rules_to_toml, league_rules_to_toml, parse_challengers_rules, parse_league_rules,
};

/// Encode a league event as format v1 JSON (one line). Like
/// [`crate::encode`], it cannot fail (an impossible serializer error gives
/// an `unencodable` record that no decoder reads).
pub fn encode_league(e: &engine_league::Event) -> String {
    crate::encode_dto(&league::EventDto::from(e), e.kind())
}

/// Decode a format v1 league event.
///
/// # Errors
///
/// As [`crate::decode`]; an event of another format is refused naming it.
pub fn decode_league(payload: &str) -> Result<engine_league::Event, RecordError> {
    decode_as::<league::EventDto>(payload, league::KINDS, LEAGUE).map(Into::into)
}

/// Encode a Challengers event as format v1 JSON (one line); see
/// [`encode_league`].
pub fn encode_challengers(e: &engine_challengers::Event) -> String {
    crate::encode_dto(&challengers::EventDto::from(e), e.kind())
}

/// Decode a format v1 Challengers event.
///
/// # Errors
///
/// As [`crate::decode`]; an event of another format is refused naming it.
pub fn decode_challengers(payload: &str) -> Result<engine_challengers::Event, RecordError> {
    decode_as::<challengers::EventDto>(payload, challengers::KINDS, CHALLENGERS).map(Into::into)
}

const LEAGUE: &str = "an XMadn league event";
const CHALLENGERS: &str = "an XMadn Challengers event";
const TWS: &str = "a Twilight Struggle ladder event";
const SUNJANG: &str = "a Sunjang league event";

/// Decode into the DTO enum `T` of the format `this`, whose types are
/// `kinds`; a record of another format says which.
pub(crate) fn decode_as<T: DeserializeOwned>(
    payload: &str,
    kinds: &[&str],
    this: &str,
) -> Result<T, RecordError> {
    crate::decode_dto::<T>(payload).map_err(|error| {
        let RecordError::Malformed { .. } = error else {
            return error;
        };
        let Some(kind) = crate::kind_of(payload) else {
            return error;
        };
        if kinds.contains(&kind.as_str()) {
            return error;
        }
        match other_format(&kind, payload) {
            Some(other) if other != this => RecordError::Malformed {
                message: format!(
                    "`{kind}` is {other}, not {this} (its types are {})",
                    kinds.join(", ")
                ),
            },
            _ => error,
        }
    })
}

/// Which format an event of type `kind` belongs to, if another one reads it
/// (a TWS event only if the whole record reads as one).
fn other_format(kind: &str, payload: &str) -> Option<&'static str> {
    if league::KINDS.contains(&kind) {
        Some(LEAGUE)
    } else if challengers::KINDS.contains(&kind) {
        Some(CHALLENGERS)
    } else if crate::sunjang::KINDS.contains(&kind) {
        Some(SUNJANG)
    } else if crate::roundrobin::KINDS.contains(&kind) {
        Some("a round-robin league event")
    } else if crate::v1::KINDS.contains(&kind) && crate::decode(payload).is_ok() {
        Some(TWS)
    } else {
        None
    }
}
