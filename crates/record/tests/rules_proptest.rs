//! Hostile rules files: 10,000 mutations of each preset per run, read by
//! its own parser (and now and then by another format's): no panic, and
//! every refusal names a line or a setting.
//!
//! A mutation is one to four of: a value replaced by a hostile one (a
//! negative or huge number, a float, a string where a number goes, an
//! array, an inline table, a NUL, an empty string, a rank out of range), a
//! line deleted, duplicated or swapped, a `key = value` line inserted (known
//! keys and unknown ones), the file truncated at any character, random
//! characters inserted, a byte-order mark, CRLF line ends, a repeated table
//! header. Cheap inputs: the run takes a few seconds per parser in a debug
//! build.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_record::{
    RulesFileError, SUNJANG_LEAGUE_PRESET, TWS_LADDER_PRESET, XMADN_CHALLENGERS_PRESET,
    XMADN_LEAGUE_PRESET, parse_challengers_rules, parse_league_rules, parse_rules,
    parse_sunjang_rules,
};
use proptest::prelude::*;

const CASES: u32 = 10_000;

/// Values that break a setting one way or another.
const HOSTILE_VALUES: &[&str] = &[
    "-1",
    "0",
    "1",
    "2",
    "4294967296",
    "18446744073709551616",
    "99999999999999999999999999",
    "-9223372036854775809",
    "1.5",
    "0.25",
    "-0.5",
    "1e400",
    "nan",
    "inf",
    "true",
    "false",
    "\"\"",
    "\"x\"",
    "\"\\u0000\"",
    "\"US\"",
    "\"USSR\"",
    "\"2T+\"",
    "\"31k\"",
    "\"0d\"",
    "\"10d\"",
    "\"9d\"",
    "\"30k\"",
    "\"Z\"",
    "\"AA\"",
    "[]",
    "[1, 2]",
    "[\"red\", \"red\"]",
    "{ a = 1 }",
    "1979-05-27",
    "'''multi\nline'''",
    "\"unterminated",
    "",
    "= =",
];

/// Keys, known to one format or another, and unknown ones.
const KEYS: &[&str] = &[
    "format",
    "deadline_months",
    "influence",
    "side",
    "tie_advances",
    "platform",
    "first_to",
    "min_first_to",
    "rule_set",
    "board_colours",
    "star_colours",
    "die_faces",
    "double_round_robins",
    "final",
    "qualifying",
    "head_start",
    "restart_min_tie",
    "ideal_group_size",
    "deviation",
    "min_group_size",
    "cap_base",
    "growth_factor",
    "win_points",
    "jigo_points",
    "strongest",
    "weakest",
    "highest",
    "lowest",
    "no_such_setting",
    "bid.influence",
    "\"quoted key\"",
    "ключ",
];

#[derive(Debug, Clone)]
enum Mutation {
    Value { line: usize, value: usize },
    Delete(usize),
    Duplicate(usize),
    Swap(usize, usize),
    Insert { at: usize, key: usize, value: usize },
    Truncate(usize),
    Garbage { at: usize, text: String },
    Bom,
    Crlf,
    Header { at: usize, header: usize },
}

const HEADERS: &[&str] = &[
    "[bid]",
    "[playoff]",
    "[[restriction]]",
    "[bid.side]",
    "[[bid]]",
    "[",
];

fn mutation() -> impl Strategy<Value = Mutation> {
    let idx = 0..200usize;
    prop_oneof![
        4 => (idx.clone(), 0..HOSTILE_VALUES.len())
            .prop_map(|(line, value)| Mutation::Value { line, value }),
        1 => idx.clone().prop_map(Mutation::Delete),
        1 => idx.clone().prop_map(Mutation::Duplicate),
        1 => (idx.clone(), idx.clone()).prop_map(|(a, b)| Mutation::Swap(a, b)),
        2 => (idx.clone(), 0..KEYS.len(), 0..HOSTILE_VALUES.len())
            .prop_map(|(at, key, value)| Mutation::Insert { at, key, value }),
        1 => (0..8000usize).prop_map(Mutation::Truncate),
        2 => (0..8000usize, "[\\PC\u{0}\n\r\t\"'\\[\\]={}#]{1,8}")
            .prop_map(|(at, text)| Mutation::Garbage { at, text }),
        1 => Just(Mutation::Bom),
        1 => Just(Mutation::Crlf),
        1 => (idx, 0..HEADERS.len()).prop_map(|(at, header)| Mutation::Header { at, header }),
    ]
}

/// The largest char boundary of `s` at or below `i`.
fn floor(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn mutate(text: &str, mutations: &[Mutation]) -> String {
    let mut text = text.to_string();
    for m in mutations {
        let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
        let n = lines.len().max(1);
        match m {
            Mutation::Value { line, value } => {
                // The n-th `key = value` line (wrapping round).
                let settings: Vec<usize> = (0..lines.len())
                    .filter(|i| lines[*i].contains(" = ") && !lines[*i].starts_with('#'))
                    .collect();
                if let Some(&i) = settings.get(line % settings.len().max(1)) {
                    let key = lines[i].split(" = ").next().unwrap_or("").to_string();
                    lines[i] = format!("{key} = {}", HOSTILE_VALUES[*value]);
                }
            }
            Mutation::Delete(i) => {
                lines.remove(i % n);
            }
            Mutation::Duplicate(i) => {
                let l = lines[i % n].clone();
                lines.insert(i % n, l);
            }
            Mutation::Swap(a, b) => lines.swap(a % n, b % n),
            Mutation::Insert { at, key, value } => {
                lines.insert(
                    at % n,
                    format!("{} = {}", KEYS[*key], HOSTILE_VALUES[*value]),
                );
            }
            Mutation::Header { at, header } => lines.insert(at % n, HEADERS[*header].to_string()),
            Mutation::Truncate(at) => {
                let at = floor(&text, *at % (text.len() + 1));
                text.truncate(at);
                continue;
            }
            Mutation::Garbage { at, text: g } => {
                let at = floor(&text, *at % (text.len() + 1));
                text.insert_str(at, g);
                continue;
            }
            Mutation::Bom => {
                text.insert(0, '\u{feff}');
                continue;
            }
            Mutation::Crlf => {
                text = text.replace('\n', "\r\n");
                continue;
            }
        }
        text = lines.join("\n");
    }
    text
}

/// A refusal must say where: a line or a setting.
fn names_a_place(e: &RulesFileError, text: &str) -> Result<(), TestCaseError> {
    prop_assert!(
        e.line.is_some() || e.field.is_some(),
        "the error names neither a line nor a setting: {e}\n--- file ---\n{text}"
    );
    prop_assert!(!e.message.trim().is_empty(), "an empty message: {e:?}");
    Ok(())
}

fn check<T>(r: Result<T, RulesFileError>, text: &str) -> Result<(), TestCaseError> {
    match r {
        Ok(_) => Ok(()),
        Err(e) => names_a_place(&e, text),
    }
}

fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    prop::collection::vec(mutation(), 1..=4)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: CASES, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn tws_ladder_rules(ms in mutations(), other in 0..20u8) {
        let text = mutate(TWS_LADDER_PRESET, &ms);
        check(parse_rules(&text), &text)?;
        if other == 0 {
            check(parse_league_rules(&text), &text)?;
        }
    }

    #[test]
    fn xmadn_league_rules(ms in mutations(), other in 0..20u8) {
        let text = mutate(XMADN_LEAGUE_PRESET, &ms);
        check(parse_league_rules(&text), &text)?;
        if other == 0 {
            check(parse_challengers_rules(&text), &text)?;
        }
    }

    #[test]
    fn xmadn_challengers_rules(ms in mutations(), other in 0..20u8) {
        let text = mutate(XMADN_CHALLENGERS_PRESET, &ms);
        check(parse_challengers_rules(&text), &text)?;
        if other == 0 {
            check(parse_sunjang_rules(&text), &text)?;
        }
    }

    #[test]
    fn sunjang_league_rules(ms in mutations(), other in 0..20u8) {
        let text = mutate(SUNJANG_LEAGUE_PRESET, &ms);
        check(parse_sunjang_rules(&text), &text)?;
        if other == 0 {
            check(parse_rules(&text), &text)?;
        }
    }

    /// Not a rules file at all: any text.
    #[test]
    fn any_text(text in "\\PC{0,200}") {
        check(parse_rules(&text), &text)?;
        check(parse_league_rules(&text), &text)?;
        check(parse_challengers_rules(&text), &text)?;
        check(parse_sunjang_rules(&text), &text)?;
    }
}
