//! Arbiter's permanent record: the versioned, serialized mirror of the
//! engine's events, and the TOML rules files.
//!
//! The engine has no serde on its domain types. This crate owns their
//! serialized shape: private DTOs ("format v1") converted to and from the
//! engine's types, so the engine can change its internals without changing
//! what is stored.
//!
//! # Event format v1
//!
//! One event is one JSON object, `v` and `type` first, then the event's
//! fields (snake_case):
//!
//! ```json
//! {"v":1,"type":"result-recorded","game":12,"result":{"outcome":"us-win","ended_by":"vp","vp":20,"turn":7,"status":"played","at":"2026-01-31T12:00:00Z"}}
//! ```
//!
//! - `type` is [`Event::kind`] (`created`, `round-announced`, ...).
//! - Player and game ids are plain integers, at least 1. Rungs count from 1.
//! - Times are RFC 3339 in UTC (`2026-01-31T12:00:00Z`, fractional seconds
//!   only when present). Years 0000..=9999.
//! - Seeds and hashes are 64 lowercase hex digits.
//! - Sides are `"USSR"` and `"US"`; outcomes `"ussr-win"`, `"us-win"`,
//!   `"tie"`; other enums are kebab-case strings, and enums with fields are
//!   objects tagged by `kind` (`{"kind":"champion-switch","champion":3,"last":"US"}`).
//! - How a game ended is its short tag (`"vp"`, `"defcon"`, `"europe"`,
//!   `"final-scoring"`, `"wargames"`, `"concession"`, `"forfeit"`,
//!   `"adjudication"`) or `{"other":"text"}`.
//! - Optional values are left out when absent.
//! - A round's moves are compact arrays, `[player, from, to, reason]` or
//!   `[player, from, to, reason, number]`: `[7,3,1,"won",12]`,
//!   `[8,4,5,"lost-tie",12]`, `[2,1,2,"skipped-top"]`,
//!   `[9,9,10,"skip-loss",2]`, `[5,5,5,"no-result",14]`, `[11,12,12,"entered"]`.
//!   The reasons are `won`, `won-tie`, `lost`, `lost-tie` and `no-result`
//!   (number: the game), `skip-loss` (number: which consecutive skip),
//!   `skipped`, `skipped-top`, `bye` and `entered` (no number).
//! - Byes are `[player, rung]` pairs.
//!
//! Reading is strict: unknown fields, unknown tags, id 0, a seed that is not
//! 32 bytes are errors ([`RecordError`]), never panics. A record of another
//! version is refused with [`RecordError::Version`] before its body is read.
//!
//! The XMadn formats (a league, a Challengers event) follow the same
//! conventions with their own types and values: see [`xmadn`],
//! [`encode_league`], [`decode_league`], [`encode_challengers`],
//! [`decode_challengers`]. So does the Sunjang league: see [`sunjang`],
//! [`encode_sunjang`], [`decode_sunjang`]. Each format has its own decoder;
//! a record of another format is refused naming it. `reverted` has the same
//! shape in all of them.
//!
//! # Rules files
//!
//! See [`parse_rules`], [`rules_to_toml`] and the presets ([`preset`]) for
//! the TWS ladder; [`parse_league_rules`], [`league_rules_to_toml`],
//! [`parse_challengers_rules`], [`challengers_rules_to_toml`] for XMadn;
//! [`parse_sunjang_rules`] and [`sunjang_rules_to_toml`] for the Sunjang
//! league (its rules and its division restrictions per rank).

mod envelope;
pub mod roundrobin;
mod rules_file;
pub mod sunjang;
mod v1;
pub mod xmadn;

use arbiter_engine::tws::Event;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

pub use rules_file::{
    PRESETS, RulesFileError, SUNJANG_LEAGUE_PRESET, TWS_LADDER_PRESET, XMADN_CHALLENGERS_PRESET,
    XMADN_LEAGUE_PRESET, parse_rules, preset, rules_to_toml,
};
pub use sunjang::{
    MAX_LAYOUT_FILE, SunjangLayoutFile, decode_sunjang, encode_sunjang, parse_sunjang_layout,
    parse_sunjang_rules, sunjang_rules_to_toml,
};
pub use xmadn::{
    challengers_rules_to_toml, decode_challengers, decode_league, encode_challengers,
    encode_league, league_rules_to_toml, parse_challengers_rules, parse_league_rules,
};

/// The version of the event format this crate writes (and the only one it
/// reads).
pub const FORMAT_VERSION: u32 = 1;

/// Why a stored event cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The record was written in a format version this program does not read.
    #[error(
        "event format version {found} is not supported: this program reads version {supported}"
    )]
    Version { found: u32, supported: u32 },
    /// The record is not a valid event: the message names the event type when
    /// known, the field, and the line and column.
    #[error("malformed event: {message}")]
    Malformed { message: String },
}

/// Encode an event as format v1 JSON (one line).
///
/// Serialization cannot fail: every DTO is a struct with string keys, and
/// the hand-written `Serialize` impls (ids, times, hashes, end tags, moves)
/// only write numbers, strings, arrays and string-keyed maps. Should
/// serde_json ever report an error anyway, the result is a record of type
/// `unencodable` naming the event kind and the error, which [`decode`]
/// refuses (rather than a silently empty or partial record, or a panic).
pub fn encode(event: &Event) -> String {
    encode_dto(&v1::EventDto::from(event), event.kind())
}

/// Serialize a DTO (which writes its own `v` and `type`); on the error that
/// cannot happen, a record of type `unencodable` (see [`encode`]).
pub(crate) fn encode_dto<T: Serialize>(dto: &T, kind: &str) -> String {
    match serde_json::to_string(dto) {
        Ok(json) => json,
        Err(error) => serde_json::json!({
            "v": FORMAT_VERSION,
            "type": "unencodable",
            "kind": kind,
            "message": error.to_string(),
        })
        .to_string(),
    }
}

/// Decode a format v1 JSON event.
///
/// # Errors
///
/// [`RecordError::Version`] when `v` is not [`FORMAT_VERSION`];
/// [`RecordError::Malformed`] for anything else that is wrong (invalid JSON,
/// a missing or unknown field, an unknown `type`, a bad value such as player
/// id 0 or a seed that is not 64 hex digits), naming where.
pub fn decode(payload: &str) -> Result<Event, RecordError> {
    decode_dto::<v1::EventDto>(payload).map(Into::into)
}

/// Read a payload's envelope and its body into the DTO enum `T` (see
/// [`envelope`]), with the errors of [`decode`].
pub(crate) fn decode_dto<T: DeserializeOwned>(payload: &str) -> Result<T, RecordError> {
    match serde_json::from_str::<envelope::Decoded<T>>(payload) {
        Ok(envelope::Decoded::V1(dto)) => Ok(dto),
        Ok(envelope::Decoded::Unsupported(found)) => Err(RecordError::Version {
            found,
            supported: FORMAT_VERSION,
        }),
        Err(error) => Err(RecordError::Malformed {
            message: match kind_of(payload) {
                Some(kind) => format!("`{kind}` event: {error}"),
                None => error.to_string(),
            },
        }),
    }
}

/// The `type` of a payload that failed to decode, to name it in the error.
pub(crate) fn kind_of(payload: &str) -> Option<String> {
    #[derive(Deserialize)]
    struct Probe {
        #[serde(rename = "type")]
        kind: Option<String>,
    }
    serde_json::from_str::<Probe>(payload).ok()?.kind
}
