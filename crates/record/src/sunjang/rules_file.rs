//! The Sunjang rules file: TOML, every number of sunjang-league.txt a
//! named setting, and the division restrictions per rank as
//! `[[restriction]]` rows. As for the other formats
//! ([`crate::parse_rules`]): every setting is optional and defaults to the
//! engine's default rules (a file without rows has no restrictions),
//! unknown settings are refused, and every error names the line, the column
//! and the setting (`restriction[1].weakest` for a row's, rows counted from
//! 0 as in the engine's messages); the rules and restrictions read are then
//! checked by the engine and its refusal is placed at the setting or row it
//! names.

use std::fmt;
use std::ops::Range;

use arbiter_engine::RuleError;
use arbiter_engine::sunjang::rules::GroupCount;
use arbiter_engine::sunjang::{
    HalfPoints, Rank, Restriction, Restrictions, SunjangRules, division_letter,
};
use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};
use toml::de::{DeTable, DeValue};

use super::dto::{DivisionDto, GroupCountDto};
use crate::rules_file::{RulesFileError, basic_string, line_column, rule_error, toml_error};

/// `format` of a Sunjang rules file (and the name of its preset).
const FORMAT: &str = "sunjang-league";

/// The array of restriction rows.
const ROWS: &str = "restriction";

/// `format = "sunjang-league"`.
#[derive(Debug)]
struct SunjangFormat;

impl<'de> Deserialize<'de> for SunjangFormat {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        if name == FORMAT {
            Ok(SunjangFormat)
        } else {
            Err(de::Error::custom(format_args!(
                "format {name:?} is not a Sunjang league: this file must say format = \"{FORMAT}\""
            )))
        }
    }
}

/// A rank as people write it: `"5k"`, `"12 kyu"`, `"3d"`, `"1 dan"` (any
/// case); not provisional.
#[derive(Debug)]
struct RankName(Rank);

const RANK_EXPECTED: &str = "a rank from 30k to 1k or 1d to 9d, such as \"5k\" or \"3d\"";

impl<'de> Deserialize<'de> for RankName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        match Rank::parse(&name) {
            Ok((rank, false)) => Ok(RankName(rank)),
            Ok((_, true)) => Err(de::Error::custom(format_args!(
                "{name:?}: a restriction is for ranks, not provisional ones: leave out the \"?\""
            ))),
            Err(_) => Err(de::Error::custom(format_args!(
                "unknown rank {name:?}: expected {RANK_EXPECTED}"
            ))),
        }
    }
}

/// Gamepoints: a whole or half number (`1`, `0.5`, `10`, `2.5`), kept in
/// halves.
#[derive(Debug)]
struct GamePoints(HalfPoints);

const MOST_HALVES: f64 = HalfPoints::MAX as f64;

impl<'de> Deserialize<'de> for GamePoints {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct PointsVisitor;
        impl Visitor<'_> for PointsVisitor {
            type Value = GamePoints;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("gamepoints: a whole or half number such as 1, 0.5 or 10")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<GamePoints, E> {
                if v < 0 {
                    return Err(E::custom(format_args!(
                        "gamepoints cannot be negative, got {v}"
                    )));
                }
                v.checked_mul(2)
                    .and_then(|h| HalfPoints::try_from(h).ok())
                    .map(GamePoints)
                    .ok_or_else(|| too_many(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<GamePoints, E> {
                v.checked_mul(2)
                    .and_then(|h| HalfPoints::try_from(h).ok())
                    .map(GamePoints)
                    .ok_or_else(|| too_many(v))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<GamePoints, E> {
                if !v.is_finite() {
                    return Err(E::custom(format_args!("gamepoints are a number, not {v}")));
                }
                if v < 0.0 {
                    return Err(E::custom(format_args!(
                        "gamepoints cannot be negative, got {v}"
                    )));
                }
                let halves = v * 2.0;
                if halves.fract() != 0.0 {
                    return Err(E::custom(format_args!(
                        "{v} is not a whole or half gamepoint: gamepoints count in halves (a jigo is 0.5), such as 1, 0.5 or 2.5"
                    )));
                }
                if halves > MOST_HALVES {
                    return Err(too_many(v));
                }
                // Whole, non-negative and in range: the conversion is exact.
                Ok(GamePoints(halves as HalfPoints))
            }
        }
        d.deserialize_any(PointsVisitor)
    }
}

fn too_many<E: de::Error>(v: impl fmt::Display) -> E {
    E::custom(format_args!(
        "{v} gamepoints is too many: at most {}",
        points(HalfPoints::MAX)
    ))
}

/// Halves as a TOML number: `1`, `0.5`, `10`, `2.5`.
fn points(h: HalfPoints) -> String {
    if h.is_multiple_of(2) {
        (h / 2).to_string()
    } else {
        format!("{}.5", h / 2)
    }
}

#[derive(Debug, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a [[restriction]] row such as strongest = \"1k\", weakest = \"5k\", highest = \"A\", lowest = \"B\""
)]
struct RowFile {
    strongest: RankName,
    weakest: RankName,
    highest: DivisionDto,
    lowest: DivisionDto,
}

/// The `format` setting alone, other settings ignored.
#[derive(Debug, Deserialize)]
struct FormatOnly {
    #[allow(dead_code)] // Checked while reading.
    format: Option<SunjangFormat>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a Sunjang league rules file")]
struct SunjangFile {
    #[allow(dead_code)] // Checked while reading.
    format: Option<SunjangFormat>,
    ideal_group_size: Option<u32>,
    deviation: Option<u32>,
    min_group_size: Option<u32>,
    main_division_groups: Option<u32>,
    single_group_below: Option<u32>,
    min_division_size: Option<u32>,
    growth_factor: Option<u32>,
    cap_base: Option<u32>,
    min_season_players: Option<u32>,
    group_count: Option<GroupCountDto>,
    win_points: Option<GamePoints>,
    jigo_points: Option<GamePoints>,
    start_points_per_division: Option<GamePoints>,
    min_direct_promotions: Option<u32>,
    virtual_tie_rating: Option<u32>,
    provisional_promotable: Option<bool>,
    final_round_min_place: Option<u32>,
    #[serde(default)]
    restriction: Vec<RowFile>,
}

impl SunjangFile {
    fn into_rules(self) -> (SunjangRules, Restrictions) {
        let d = SunjangRules::default();
        let halves = |p: Option<GamePoints>, default: HalfPoints| p.map_or(default, |p| p.0);
        let rules = SunjangRules {
            ideal_group_size: self.ideal_group_size.unwrap_or(d.ideal_group_size),
            deviation: self.deviation.unwrap_or(d.deviation),
            min_group_size: self.min_group_size.unwrap_or(d.min_group_size),
            main_division_groups: self.main_division_groups.unwrap_or(d.main_division_groups),
            single_group_below: self.single_group_below.unwrap_or(d.single_group_below),
            min_division_size: self.min_division_size.unwrap_or(d.min_division_size),
            growth_factor: self.growth_factor.unwrap_or(d.growth_factor),
            cap_base: self.cap_base.unwrap_or(d.cap_base),
            min_season_players: self.min_season_players.unwrap_or(d.min_season_players),
            group_count: self.group_count.map_or(d.group_count, Into::into),
            win_points: halves(self.win_points, d.win_points),
            jigo_points: halves(self.jigo_points, d.jigo_points),
            start_points_per_division: halves(
                self.start_points_per_division,
                d.start_points_per_division,
            ),
            min_direct_promotions: self
                .min_direct_promotions
                .unwrap_or(d.min_direct_promotions),
            virtual_tie_rating: self.virtual_tie_rating.unwrap_or(d.virtual_tie_rating),
            provisional_promotable: self
                .provisional_promotable
                .unwrap_or(d.provisional_promotable),
            final_round_min_place: self
                .final_round_min_place
                .unwrap_or(d.final_round_min_place),
        };
        let restrictions = Restrictions {
            rows: self
                .restriction
                .into_iter()
                .map(|r| Restriction {
                    strongest: r.strongest.0,
                    weakest: r.weakest.0,
                    highest: r.highest.0,
                    lowest: r.lowest.0,
                })
                .collect(),
        };
        (rules, restrictions)
    }
}

/// Read a Sunjang league rules file. Settings left out take the engine's
/// defaults ([`SunjangRules::default`]); the restrictions are the file's
/// `[[restriction]]` rows (none: no restriction). The result is checked
/// with [`SunjangRules::check`] and [`Restrictions::check`].
///
/// # Errors
///
/// A [`RulesFileError`] naming the line, column and setting for invalid
/// TOML, an unknown setting, a value of the wrong type, a `format` other
/// than `"sunjang-league"`, an unknown rank (`"5p"`) or division letter,
/// gamepoints that are not whole or half (`0.3`), or rules or restrictions
/// the engine refuses (restrictions that are not monotone: "Both limits for
/// superior ranks cannot be any lower than the limits for inferior ranks.").
pub fn parse_sunjang_rules(text: &str) -> Result<(SunjangRules, Restrictions), RulesFileError> {
    // The `format` first, so that a file of another format is refused as
    // such rather than for the first setting this format does not have;
    // an empty file is refused before (issue 14, item 6).
    crate::rules_file::not_empty(text)?;
    toml::from_str::<FormatOnly>(text).map_err(|e| file_error(text, &e))?;
    let file: SunjangFile = toml::from_str(text).map_err(|e| file_error(text, &e))?;
    let (rules, restrictions) = file.into_rules();
    rules.check().map_err(|e| checked_error(text, &e))?;
    restrictions.check().map_err(|e| checked_error(text, &e))?;
    Ok((rules, restrictions))
}

/// A TOML or type error, placed (see [`toml_error`]), with the row and
/// setting when it is in a `[[restriction]]` row.
fn file_error(text: &str, e: &toml::de::Error) -> RulesFileError {
    let mut error = toml_error(text, e);
    if let Some(pos) = e.span().map(|s| s.start) {
        let field = match DeTable::parse(text) {
            Ok(doc) => row_path(doc.get_ref(), pos),
            Err(_) => row_key_on_line(text, pos),
        };
        if field.is_some() {
            error.field = field;
        }
    }
    error
}

fn contains(span: &Range<usize>, pos: usize) -> bool {
    span.contains(&pos) || span.start == pos
}

/// `restriction[i].key` (or `restriction[i]`) when `pos` is in a row.
fn row_path(doc: &DeTable<'_>, pos: usize) -> Option<String> {
    let rows = doc.get(ROWS)?.get_ref().as_array()?;
    rows.iter().enumerate().find_map(|(i, row)| {
        let DeValue::Table(table) = row.get_ref() else {
            return contains(&row.span(), pos).then(|| format!("{ROWS}[{i}]"));
        };
        let key = table.iter().find_map(|(key, value)| {
            (contains(&key.span(), pos) || contains(&value.span(), pos))
                .then(|| key.get_ref().to_string())
        });
        match key {
            Some(key) => Some(format!("{ROWS}[{i}].{key}")),
            None => contains(&row.span(), pos).then(|| format!("{ROWS}[{i}]")),
        }
    })
}

/// For a document that does not parse: `restriction[i].key` when the line
/// of `pos` is `key = ...` under the (i+1)-th `[[restriction]]` header.
fn row_key_on_line(text: &str, pos: usize) -> Option<String> {
    let (line, _) = line_column(text, pos);
    let lines: Vec<&str> = text.lines().collect();
    let (key, _) = lines.get(line.checked_sub(1)?)?.split_once('=')?;
    let key = key.trim();
    if key.is_empty()
        || !key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
    {
        return None;
    }
    let header = format!("[[{ROWS}]]");
    let headers: Vec<&str> = lines[..line - 1]
        .iter()
        .map(|l| l.split('#').next().unwrap_or_default().trim())
        .filter(|l| l.starts_with('['))
        .collect();
    if headers.last() != Some(&header.as_str()) {
        return None;
    }
    let index = headers.iter().filter(|h| **h == header).count() - 1;
    Some(format!("{ROWS}[{index}].{key}"))
}

/// A value the engine refuses, placed at the setting it names; its
/// `restrictions[i]` is the file's `restriction[i]` row.
fn checked_error(text: &str, e: &RuleError) -> RulesFileError {
    let index = e
        .field
        .as_deref()
        .and_then(|f| f.strip_prefix("restrictions["))
        .and_then(|f| f.strip_suffix(']'))
        .and_then(|i| i.parse::<usize>().ok());
    let Some(index) = index else {
        return rule_error(text, e);
    };
    let span = DeTable::parse(text).ok().and_then(|doc| {
        let rows = doc.get_ref().get(ROWS)?.get_ref().as_array()?;
        rows.get(index).map(|row| row.span())
    });
    let (line, column) = span.map_or((None, None), |s| {
        let (l, c) = line_column(text, s.start);
        (Some(l), Some(c))
    });
    RulesFileError {
        line,
        column,
        field: Some(format!("{ROWS}[{index}]")),
        message: format!("{} [{}]", e.message, e.clause),
    }
}

/// The document's name for a row of ranks: "Dan level", "1 ~ 5 kyu",
/// "21+ kyu".
fn row_title(r: &Restriction) -> String {
    match (r.strongest, r.weakest) {
        (Rank::Dan(9), Rank::Dan(1)) => "Dan level".to_string(),
        (Rank::Kyu(s), Rank::Kyu(30)) if s > 1 => format!("{s}+ kyu"),
        (Rank::Kyu(s), Rank::Kyu(w)) if s != w => format!("{s} ~ {w} kyu"),
        (Rank::Dan(s), Rank::Dan(w)) if s != w => format!("{w} ~ {s} dan"),
        (s, w) if s == w => s.to_string(),
        (s, w) => format!("{s} to {w}"),
    }
}

/// Write `rules` and `restrictions` as a rules file that
/// [`parse_sunjang_rules`] reads back to the same values. Every setting is
/// written, with the clause it comes from; gamepoints as whole or half
/// numbers (`1`, `0.5`, `10`).
pub fn sunjang_rules_to_toml(rules: &SunjangRules, restrictions: &Restrictions) -> String {
    let r = rules;
    let group_count = match r.group_count {
        GroupCount::NearestIdeal => "nearest-ideal",
        GroupCount::Fewest => "fewest",
    };
    let mut lines = vec![
        "# Sunjang league rules (sunjang-league.txt; rulings SJ-R1..R14)".to_string(),
        format!("format = {}", basic_string(FORMAT)),
        format!("ideal_group_size = {}  # Sunjang A.i", r.ideal_group_size),
        format!("deviation = {}  # Sunjang A.i", r.deviation),
        format!("min_group_size = {}  # Sunjang A.i.3", r.min_group_size),
        format!(
            "main_division_groups = {}  # Sunjang A.i.1",
            r.main_division_groups
        ),
        format!(
            "single_group_below = {}  # Sunjang footnote 1",
            r.single_group_below
        ),
        format!(
            "min_division_size = {}  # Sunjang A.i.2",
            r.min_division_size
        ),
        format!(
            "growth_factor = {}  # Sunjang A.i.2, A.i.3",
            r.growth_factor
        ),
        format!("cap_base = {}  # Sunjang A.i.4, SJ-R1", r.cap_base),
        format!(
            "min_season_players = {}  # Sunjang footnote 2",
            r.min_season_players
        ),
        format!(
            "group_count = {}  # Sunjang A.i.3, SJ-R2",
            basic_string(group_count)
        ),
        format!("win_points = {}  # SJ-R4", points(r.win_points)),
        format!("jigo_points = {}  # SJ-R4", points(r.jigo_points)),
        format!(
            "start_points_per_division = {}  # Sunjang footnote 4, SJ-R4",
            points(r.start_points_per_division)
        ),
        format!(
            "min_direct_promotions = {}  # Sunjang B.1",
            r.min_direct_promotions
        ),
        format!(
            "virtual_tie_rating = {}  # Sunjang footnote 6, SJ-R13",
            r.virtual_tie_rating
        ),
        format!(
            "provisional_promotable = {}  # Sunjang C.1 addendum",
            r.provisional_promotable
        ),
        format!(
            "final_round_min_place = {}  # Sunjang Final Round, SJ-R7",
            r.final_round_min_place
        ),
    ];
    if !restrictions.rows.is_empty() {
        lines.push(String::new());
        lines.push("# Sunjang Division Restrictions per Rank".to_string());
    }
    for row in &restrictions.rows {
        lines.push(String::new());
        lines.push(format!("[[{ROWS}]]  # {}", row_title(row)));
        lines.push(format!(
            "strongest = {}",
            basic_string(&row.strongest.to_string())
        ));
        lines.push(format!(
            "weakest = {}",
            basic_string(&row.weakest.to_string())
        ));
        lines.push(format!(
            "highest = {}",
            basic_string(&division_letter(row.highest))
        ));
        lines.push(format!(
            "lowest = {}",
            basic_string(&division_letter(row.lowest))
        ));
    }
    lines.push(String::new());
    lines.join("\n")
}
