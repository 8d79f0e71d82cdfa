//! The round-robin league's rules file: TOML, every setting of
//! [`RoundRobinRules`] named. A file may start from a preset
//! (`preset = "uefa-euro"`) and change some settings; settings left out
//! take the preset's values (FIFA's when no preset is named). Unknown
//! settings are refused, and every error names the line, the column and
//! the setting, as for the other formats.

use arbiter_engine::roundrobin::{HeadToHead, Points, RoundRobinRules, Tiebreak, Withdrawal};
use serde::Deserialize;
use serde::de::{self, Deserializer};

use crate::rules_file::{RulesFileError, basic_string, format_first, rule_error, toml_error};

/// `format` of a round-robin rules file.
pub const FORMAT: &str = "round-robin";

/// The presets, each reproducing a real competition's published rules.
pub const PRESETS: &[(&str, &str)] = &[
    (
        "fifa-world-cup",
        include_str!("../../../../presets/round-robin/fifa-world-cup.toml"),
    ),
    (
        "uefa-euro",
        include_str!("../../../../presets/round-robin/uefa-euro.toml"),
    ),
    (
        "chess",
        include_str!("../../../../presets/round-robin/chess.toml"),
    ),
    (
        "go",
        include_str!("../../../../presets/round-robin/go.toml"),
    ),
    (
        "xmadn",
        include_str!("../../../../presets/round-robin/xmadn.toml"),
    ),
];

/// The text of the round-robin preset `name`.
pub fn round_robin_preset(name: &str) -> Option<&'static str> {
    PRESETS.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

#[derive(Debug)]
struct Format;

impl<'de> Deserialize<'de> for Format {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        if name == FORMAT {
            Ok(Format)
        } else {
            Err(de::Error::custom(format_args!(
                "format {name:?} is not a round-robin league: this file must say format = \"{FORMAT}\""
            )))
        }
    }
}

#[derive(Debug, Deserialize)]
struct FormatOnly {
    #[allow(dead_code)]
    format: Option<Format>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a round-robin rules file")]
struct PointsFile {
    win: Option<u32>,
    draw: Option<u32>,
    loss: Option<u32>,
    forfeit_win: Option<u32>,
    forfeit_loss: Option<u32>,
    scale: Option<u32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a round-robin rules file")]
struct RulesFile {
    #[allow(dead_code)] // Checked while reading.
    format: Option<Format>,
    preset: Option<String>,
    regulation: Option<String>,
    cycles: Option<u32>,
    scores: Option<bool>,
    /// `[3, 0]`, or `false` for none.
    forfeit_score: Option<ForfeitScore>,
    tiebreaks: Option<Vec<String>>,
    head_to_head: Option<String>,
    withdrawal: Option<String>,
    top: Option<u32>,
    bottom: Option<u32>,
    points: Option<PointsFile>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged, expecting = "a score as [3, 0], or false for none")]
enum ForfeitScore {
    Score([u32; 2]),
    None(bool),
}

fn unknown(field: &str, value: &str, known: &[&str]) -> arbiter_engine::RuleError {
    arbiter_engine::RuleError::new(
        "Round-robin rules",
        format!("`{value}` is not one of {}", known.join(", ")),
    )
    .field(field)
}

impl RulesFile {
    fn into_rules(self) -> Result<RoundRobinRules, arbiter_engine::RuleError> {
        let base = match &self.preset {
            None => RoundRobinRules::default(),
            Some(p) => RoundRobinRules::preset(p)
                .ok_or_else(|| unknown("preset", p, &RoundRobinRules::PRESETS))?,
        };
        let tiebreaks = match self.tiebreaks {
            None => base.tiebreaks.clone(),
            Some(list) => {
                let ids: Vec<&str> = Tiebreak::ALL.iter().map(|t| t.id()).collect();
                list.iter()
                    .map(|t| Tiebreak::parse(t).ok_or_else(|| unknown("tiebreaks", t, &ids)))
                    .collect::<Result<_, _>>()?
            }
        };
        let head_to_head = match &self.head_to_head {
            None => base.head_to_head,
            Some(h) => HeadToHead::parse(h)
                .ok_or_else(|| unknown("head_to_head", h, &["once", "restart", "block"]))?,
        };
        let withdrawal = match &self.withdrawal {
            None => base.withdrawal,
            Some(w) => Withdrawal::parse(w)
                .ok_or_else(|| unknown("withdrawal", w, &["keep-results", "annul-under-half"]))?,
        };
        let p = base.points;
        let points = self.points.map_or(p, |f| Points {
            win: f.win.unwrap_or(p.win),
            draw: f.draw.unwrap_or(p.draw),
            loss: f.loss.unwrap_or(p.loss),
            forfeit_win: f.forfeit_win.unwrap_or(p.forfeit_win),
            forfeit_loss: f.forfeit_loss.unwrap_or(p.forfeit_loss),
            scale: f.scale.unwrap_or(p.scale),
        });
        Ok(RoundRobinRules {
            regulation: self.regulation.unwrap_or(base.regulation),
            cycles: self.cycles.unwrap_or(base.cycles),
            points,
            scores: self.scores.unwrap_or(base.scores),
            forfeit_score: match self.forfeit_score {
                None => base.forfeit_score,
                Some(ForfeitScore::Score([w, l])) => Some((w, l)),
                Some(ForfeitScore::None(false)) => None,
                Some(ForfeitScore::None(true)) => {
                    return Err(arbiter_engine::RuleError::new(
                        "Round-robin rules",
                        "forfeit_score is a score such as [3, 0], or false for none",
                    )
                    .field("forfeit_score"));
                }
            },
            tiebreaks,
            head_to_head,
            withdrawal,
            top: self.top.unwrap_or(base.top),
            bottom: self.bottom.unwrap_or(base.bottom),
        })
    }
}

/// Read a round-robin rules file; the rules read are checked by the
/// engine ([`RoundRobinRules::validate`]).
///
/// # Errors
///
/// A [`RulesFileError`] naming the line, column and setting.
pub fn parse_round_robin_rules(text: &str) -> Result<RoundRobinRules, RulesFileError> {
    format_first::<FormatOnly>(text)?;
    let file: RulesFile = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
    let rules = file.into_rules().map_err(|e| rule_error(text, &e))?;
    rules.validate().map_err(|e| rule_error(text, &e))?;
    Ok(rules)
}

/// Write `r` as a rules file that [`parse_round_robin_rules`] reads back to
/// the same rules, every setting written.
pub fn round_robin_rules_to_toml(r: &RoundRobinRules) -> String {
    let list = |items: Vec<&str>| {
        format!(
            "[{}]",
            items
                .into_iter()
                .map(basic_string)
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let p = r.points;
    [
        "# Round-robin league rules (ARB-R67, ARB-R68)".to_string(),
        format!("format = {}", basic_string(FORMAT)),
        format!("regulation = {}", basic_string(&r.regulation)),
        format!("cycles = {}  # 1 single, 2 double round robin", r.cycles),
        format!(
            "scores = {}  # results carry scores (goals); false: win, draw or loss",
            r.scores
        ),
        match r.forfeit_score {
            Some((w, l)) => format!("forfeit_score = [{w}, {l}]  # the score a forfeit counts as"),
            None => "forfeit_score = false  # a forfeit scores nothing".to_string(),
        },
        format!(
            "tiebreaks = {}  # after points, in order",
            list(r.tiebreaks.iter().map(|t| t.id()).collect())
        ),
        format!(
            "head_to_head = {}  # once, restart (XM-R4) or block (UEFA)",
            basic_string(r.head_to_head.id())
        ),
        format!(
            "withdrawal = {}  # keep-results or annul-under-half (ARB-R68)",
            basic_string(r.withdrawal.id())
        ),
        format!(
            "top = {}  # places at the top that qualify or are promoted; 0: none (ARB-R69)",
            r.top
        ),
        format!(
            "bottom = {}  # places at the bottom that are relegated; 0: none (ARB-R69)",
            r.bottom
        ),
        String::new(),
        "[points]  # integers; scale = units per point (2: half points)".to_string(),
        format!("win = {}", p.win),
        format!("draw = {}", p.draw),
        format!("loss = {}", p.loss),
        format!("forfeit_win = {}", p.forfeit_win),
        format!("forfeit_loss = {}", p.forfeit_loss),
        format!("scale = {}", p.scale),
        String::new(),
    ]
    .join("\n")
}
