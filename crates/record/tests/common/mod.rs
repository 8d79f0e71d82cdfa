//! What the record's tests share: short constructors, the random values of
//! the property tests, and the errors a refused record or rules file gives.

// Each test file uses its own subset of these helpers.
#![allow(dead_code)]

use std::fmt::Debug;

use arbiter_engine::model::{GameId, PlayerId, Time};
use arbiter_record::{RecordError, RulesFileError};
use chrono::DateTime;
use proptest::prelude::*;

pub fn t(s: &str) -> Time {
    s.parse().unwrap()
}

pub fn p(n: u32) -> PlayerId {
    PlayerId(n)
}

/// A player id: mostly one of the first `common` ones, else any.
pub fn player(common: u32) -> impl Strategy<Value = PlayerId> {
    prop_oneof![1..=common, 1..=u32::MAX].prop_map(PlayerId)
}

/// A game id: mostly one of the first `common` ones, else any.
pub fn game_id(common: u32) -> impl Strategy<Value = GameId> {
    prop_oneof![1..=common, 1..=u32::MAX].prop_map(GameId)
}

/// Any moment of the years 0000..=9999, to the nanosecond.
pub fn time() -> impl Strategy<Value = Time> {
    (
        -62_167_219_200i64..=253_402_300_799,
        prop_oneof![Just(0u32), 0..1_000_000_000u32],
    )
        .prop_map(|(s, n)| DateTime::from_timestamp(s, n).unwrap())
}

/// Text with quotes, backslashes, newlines, control characters and unicode.
pub fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a-zA-Z \"\\\\\n\t'{}\\[\\]<>&éß中文🎲\u{0}\u{7f}]{0,24}",
    ]
}

/// The message of the malformed-record error that decoding `json` gave.
#[track_caller]
pub fn malformed<T: Debug>(decoded: Result<T, RecordError>, json: &str) -> String {
    match decoded {
        Err(RecordError::Malformed { message }) => message,
        other => panic!("expected a malformed-record error for {json}, got {other:?}"),
    }
}

/// The error that reading the rules file `text` gave.
#[track_caller]
pub fn file_error<T: Debug>(parsed: Result<T, RulesFileError>, text: &str) -> RulesFileError {
    match parsed {
        Err(e) => e,
        Ok(rules) => panic!("expected an error for {text:?}, got {rules:?}"),
    }
}

/// The rules-file error's message contains `part`.
#[track_caller]
pub fn says(e: &RulesFileError, part: &str) {
    assert!(e.message.contains(part), "{}", e.message);
}
