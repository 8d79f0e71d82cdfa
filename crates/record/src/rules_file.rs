//! Rules files: TOML, every number of a rules document a named setting.
//!
//! Every setting is optional and defaults to the document's number
//! ([`LadderRules::default`]); unknown settings are refused
//! (`deny_unknown_fields`), and every error names the line, the column and
//! the setting.

use std::fmt;
use std::ops::Range;

use arbiter_engine::RuleError;
use arbiter_engine::tws::{Bid, LadderRules};
use serde::Deserialize;
use serde::de::{self, DeserializeOwned, Deserializer};
use toml::de::{DeTable, DeValue};

use crate::v1::SideDto;

/// The Twilight Struggle ladder preset (tws-ladder.txt), with the sentence
/// of the document behind each number.
pub const TWS_LADDER_PRESET: &str = include_str!("../../../presets/tws-ladder.toml");

/// The XMadn league preset (xmadn-double-threat.txt, "League (L)"), read by
/// [`crate::parse_league_rules`].
pub const XMADN_LEAGUE_PRESET: &str = include_str!("../../../presets/xmadn-league.toml");

/// The XMadn Challengers preset (xmadn-double-threat.txt, "Challengers
/// (C)"), read by [`crate::parse_challengers_rules`].
pub const XMADN_CHALLENGERS_PRESET: &str = include_str!("../../../presets/xmadn-challengers.toml");

/// The Sunjang league preset (sunjang-league.txt, with the document's
/// example of division restrictions per rank), read by
/// [`crate::parse_sunjang_rules`].
pub const SUNJANG_LEAGUE_PRESET: &str = include_str!("../../../presets/sunjang-league.toml");

/// The names of the presets, in the order they are listed to users. Each
/// preset's `format` setting is its name.
pub const PRESETS: &[&str] = &[
    "tws-ladder",
    "xmadn-league",
    "xmadn-challengers",
    "sunjang-league",
];

/// The text of the preset `name` (`"tws-ladder"`, `"xmadn-league"`,
/// `"xmadn-challengers"`, `"sunjang-league"`), if there is one.
pub fn preset(name: &str) -> Option<&'static str> {
    match name {
        "tws-ladder" => Some(TWS_LADDER_PRESET),
        "xmadn-league" => Some(XMADN_LEAGUE_PRESET),
        "xmadn-challengers" => Some(XMADN_CHALLENGERS_PRESET),
        "sunjang-league" => Some(SUNJANG_LEAGUE_PRESET),
        _ => None,
    }
}

/// A rules file that cannot be used: where, which setting, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesFileError {
    /// 1-based line of the offending text, when known.
    pub line: Option<usize>,
    /// 1-based column (in characters) of the offending text, when known.
    pub column: Option<usize>,
    /// The setting, dotted for tables (`bid.side`), when known.
    pub field: Option<String>,
    pub message: String,
}

impl fmt::Display for RulesFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("rules file")?;
        if let Some(line) = self.line {
            write!(f, ", line {line}")?;
        }
        if let Some(column) = self.column {
            write!(f, ", column {column}")?;
        }
        if let Some(field) = &self.field {
            write!(f, ", field `{field}`")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for RulesFileError {}

/// `format = "tws-ladder"`: the only format [`parse_rules`] reads.
#[derive(Debug)]
struct TwsLadderFormat;

const FORMAT: &str = "tws-ladder";

impl<'de> Deserialize<'de> for TwsLadderFormat {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        if name == FORMAT {
            Ok(TwsLadderFormat)
        } else {
            Err(de::Error::custom(format_args!(
                "format {name:?} is not a Twilight Struggle ladder: this file must say format = \"{FORMAT}\""
            )))
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a table with `influence` and `side`, such as [bid] influence = 3, side = \"US\""
)]
struct BidFile {
    influence: Option<u32>,
    side: Option<SideDto>,
}

/// The `format` setting alone (see [`format_first`]).
#[derive(Debug, Deserialize)]
struct FormatOnly {
    #[allow(dead_code)] // Checked while reading.
    format: Option<TwsLadderFormat>,
}

/// Refuse a rules file that holds no setting at all: empty, blank or only
/// comments (issue 14, item 6: `rules change --file /dev/null` and
/// `competition create --rules empty.toml` were taken as the defaults, a
/// silent change of every rule). A file of its `format` line alone is a
/// deliberate choice of the defaults and is read. A file that is not TOML is
/// left to the parse that follows, which names the line.
pub(crate) fn not_empty(text: &str) -> Result<(), RulesFileError> {
    match DeTable::parse(text) {
        // Placed where the `format` line it asks for would go.
        Ok(doc) if doc.get_ref().is_empty() => Err(RulesFileError {
            line: Some(1),
            column: Some(1),
            field: Some("format".into()),
            message: "the file holds no setting (it is empty, blank or only comments), and an empty file is refused rather than taken as the defaults: write at least its `format` line, or leave the rules out to use the preset".into(),
        }),
        _ => Ok(()),
    }
}

/// Read the `format` setting `P` (a struct of `format` alone, other settings
/// ignored) before the rest, so that a file of another format is refused as
/// such rather than for the first setting this format does not have; an
/// empty file is refused first ([`not_empty`]).
pub(crate) fn format_first<P: DeserializeOwned>(text: &str) -> Result<(), RulesFileError> {
    not_empty(text)?;
    toml::from_str::<P>(text)
        .map(|_| ())
        .map_err(|e| toml_error(text, &e))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a TWS ladder rules file")]
struct RulesFile {
    #[allow(dead_code)] // Checked while reading; there is only one format.
    format: Option<TwsLadderFormat>,
    deadline_months: Option<u32>,
    tie_advances: Option<SideDto>,
    consecutive_skips_for_loss: Option<u32>,
    missed_rounds_for_inactive: Option<u32>,
    sides_count_quick_rounds: Option<bool>,
    platform: Option<String>,
    game_name_prefix: Option<String>,
    quick_round_prefix: Option<String>,
    bid: Option<BidFile>,
}

impl RulesFile {
    fn into_rules(self) -> LadderRules {
        let d = LadderRules::default();
        let bid = self.bid.map_or(d.bid, |b| Bid {
            influence: b.influence.unwrap_or(d.bid.influence),
            side: b.side.map_or(d.bid.side, Into::into),
        });
        LadderRules {
            deadline_months: self.deadline_months.unwrap_or(d.deadline_months),
            bid,
            tie_advances: self.tie_advances.map_or(d.tie_advances, Into::into),
            consecutive_skips_for_loss: self
                .consecutive_skips_for_loss
                .unwrap_or(d.consecutive_skips_for_loss),
            missed_rounds_for_inactive: self
                .missed_rounds_for_inactive
                .unwrap_or(d.missed_rounds_for_inactive),
            sides_count_quick_rounds: self
                .sides_count_quick_rounds
                .unwrap_or(d.sides_count_quick_rounds),
            platform: self.platform.unwrap_or(d.platform),
            game_name_prefix: self.game_name_prefix.unwrap_or(d.game_name_prefix),
            quick_round_prefix: self.quick_round_prefix.unwrap_or(d.quick_round_prefix),
        }
    }
}

/// Read a TWS ladder rules file. Settings left out take the document's
/// numbers ([`LadderRules::default`]); the result is checked with
/// [`LadderRules::validate`].
///
/// # Errors
///
/// A [`RulesFileError`] naming the line, column and setting for invalid
/// TOML, an unknown setting, a value of the wrong type, a `format` other than
/// `"tws-ladder"`, or a value the rules refuse (`deadline_months = 0`).
pub fn parse_rules(text: &str) -> Result<LadderRules, RulesFileError> {
    format_first::<FormatOnly>(text)?;
    let file: RulesFile = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
    let rules = file.into_rules();
    rules.validate().map_err(|e| rule_error(text, &e))?;
    Ok(rules)
}

/// A value the rules refuse, placed at the setting the error names (when
/// the file writes it): `message [clause]`.
pub(crate) fn rule_error(text: &str, e: &RuleError) -> RulesFileError {
    let span = e.field.as_deref().and_then(|f| value_span(text, f));
    let (line, column) = span.map_or((None, None), |s| {
        let (l, c) = line_column(text, s.start);
        (Some(l), Some(c))
    });
    RulesFileError {
        line,
        column,
        field: e.field.clone(),
        message: format!("{} [{}]", e.message, e.clause),
    }
}

/// Write `rules` as a rules file that [`parse_rules`] reads back to the same
/// rules. Every setting is written, with the clause it comes from.
pub fn rules_to_toml(rules: &LadderRules) -> String {
    let side = |s: arbiter_engine::model::Side| basic_string(s.name());
    [
        "# Twilight Struggle ladder rules (tws-ladder.txt; rulings TWS-R1..R11)".to_string(),
        format!("format = {}", basic_string(FORMAT)),
        format!(
            "deadline_months = {}  # TWS Conduct of Games",
            rules.deadline_months
        ),
        format!(
            "tie_advances = {}  # TWS Play Balance, TWS-R11",
            side(rules.tie_advances)
        ),
        format!(
            "consecutive_skips_for_loss = {}  # TWS Skipping Rounds, TWS-R2",
            rules.consecutive_skips_for_loss
        ),
        format!(
            "missed_rounds_for_inactive = {}  # TWS Skipping Rounds, TWS-R4",
            rules.missed_rounds_for_inactive
        ),
        format!(
            "sides_count_quick_rounds = {}  # TWS-R6",
            rules.sides_count_quick_rounds
        ),
        format!(
            "platform = {}  # TWS Conduct of Games",
            basic_string(&rules.platform)
        ),
        format!(
            "game_name_prefix = {}  # TWS Conduct of Games",
            basic_string(&rules.game_name_prefix)
        ),
        format!(
            "quick_round_prefix = {}  # TWS Quick Rounds",
            basic_string(&rules.quick_round_prefix)
        ),
        String::new(),
        "[bid]  # TWS Play Balance".to_string(),
        format!("influence = {}", rules.bid.influence),
        format!("side = {}", side(rules.bid.side)),
        String::new(),
    ]
    .join("\n")
}

/// A TOML basic string: `"..."` with `\`, `"` and control characters escaped.
pub(crate) fn basic_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if c.is_control() && (c as u32) < 0x80 => {
                out.push_str(&format!("\\u{:04X}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A TOML or type error, with its line, column and setting.
pub(crate) fn toml_error(text: &str, e: &toml::de::Error) -> RulesFileError {
    let span = e.span();
    let (line, column) = span.as_ref().map_or((None, None), |s| {
        let (l, c) = line_column(text, s.start);
        (Some(l), Some(c))
    });
    let field = span.and_then(|s| {
        DeTable::parse(text)
            .ok()
            .and_then(|doc| path_at(doc.get_ref(), s.start))
            .or_else(|| key_on_line(text, s.start))
    });
    RulesFileError {
        line,
        column,
        field,
        message: e.message().trim_end().to_string(),
    }
}

/// 1-based line and column (in characters) of byte offset `pos`.
pub(crate) fn line_column(text: &str, pos: usize) -> (usize, usize) {
    let mut pos = pos.min(text.len());
    while !text.is_char_boundary(pos) {
        pos -= 1;
    }
    let before = &text[..pos];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.matches('\n').count() + 1;
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

fn contains(span: &Range<usize>, pos: usize) -> bool {
    span.contains(&pos) || span.start == pos
}

/// The dotted path of the setting whose key or value covers `pos`.
fn path_at(table: &DeTable<'_>, pos: usize) -> Option<String> {
    for (key, value) in table {
        let name = key.get_ref().as_ref();
        let nested = match value.get_ref() {
            DeValue::Table(inner) => path_at(inner, pos),
            _ => None,
        };
        if let Some(sub) = nested {
            return Some(format!("{name}.{sub}"));
        }
        if contains(&key.span(), pos) || contains(&value.span(), pos) {
            return Some(name.to_string());
        }
    }
    None
}

/// For a document that does not parse: the key written on the line of
/// `pos` (`key = ...`), under the last `[table]` header above it.
fn key_on_line(text: &str, pos: usize) -> Option<String> {
    let (line, _) = line_column(text, pos);
    let lines: Vec<&str> = text.lines().collect();
    let current = lines.get(line.checked_sub(1)?)?;
    let (key, _) = current.split_once('=')?;
    let key = key.trim();
    let bare = |k: &str| {
        !k.is_empty()
            && k.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
    };
    if !bare(key) {
        return None;
    }
    let table = lines[..line - 1].iter().rev().find_map(|l| {
        let l = l.trim();
        let name = l.strip_prefix('[')?.split(']').next()?.trim();
        bare(name).then_some(name)
    });
    Some(match table {
        Some(t) => format!("{t}.{key}"),
        None => key.to_string(),
    })
}

/// Where the value of the dotted setting `path` is written, if it is.
fn value_span(text: &str, path: &str) -> Option<Range<usize>> {
    let doc = DeTable::parse(text).ok()?;
    let mut table = doc.get_ref();
    let mut parts = path.split('.').peekable();
    while let Some(part) = parts.next() {
        let value = table.get(part)?;
        if parts.peek().is_none() {
            return Some(value.span());
        }
        match value.get_ref() {
            DeValue::Table(inner) => table = inner,
            _ => return None,
        }
    }
    None
}
