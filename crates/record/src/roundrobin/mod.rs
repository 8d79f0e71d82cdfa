//! The general round-robin league (issue 16, §2): its events in format v1
//! (`type` names prefixed `round-robin-`) and its TOML rules file.
//!
//! The crate's v1 conventions hold (see the [crate] docs): `v` and `type`
//! first, snake_case fields, player ids from 1, game numbers from 1, times
//! RFC 3339 in UTC, seeds 64 hex digits, optional values left out. What is
//! particular here:
//!
//! - A score is `{"goals":[2,1]}` (home first), `{"won":"home"}`,
//!   `"drawn"`, or `{"forfeit":"home"}` / `{"forfeit":"away"}` /
//!   `{"forfeit":"both"}` (the side that wins it; `both`: neither played).
//! - A schedule is an array of rounds, each an array of `[home, away]`.
//! - Rules are the rules file's settings as an object (`tiebreaks` the
//!   catalogue's ids).
//!
//! ```json
//! {"v":1,"type":"round-robin-result","game":4,"score":{"goals":[2,1]},"at":"2026-03-01T19:00:00Z"}
//! ```

mod events;
mod rules_file;

pub use events::{decode_round_robin, encode_round_robin};
pub use rules_file::{
    FORMAT, PRESETS, parse_round_robin_rules, round_robin_preset, round_robin_rules_to_toml,
};

pub(crate) use events::KINDS;
