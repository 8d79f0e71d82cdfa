//! The XMadn rules files: TOML, every number of xmadn-double-threat.txt a
//! named setting. As for the TWS ladder ([`crate::parse_rules`]): every
//! setting is optional and defaults to the engine's default rules, unknown
//! settings are refused, and every error names the line, the column and the
//! setting; the rules read are then checked by the engine and its refusal is
//! placed at the setting it names.

use arbiter_engine::RuleError;
use arbiter_engine::xmadn::{ChallengersRules, LeagueRules, Playoff, RuleSet, Series};
use serde::Deserialize;
use serde::de::{self, Deserializer};

use crate::rules_file::{RulesFileError, basic_string, format_first, rule_error, toml_error};

/// `format` of a league rules file (and the name of its preset).
const LEAGUE_FORMAT: &str = "xmadn-league";
/// `format` of a Challengers rules file (and the name of its preset).
const CHALLENGERS_FORMAT: &str = "xmadn-challengers";

fn check_format<'de, D: Deserializer<'de>>(
    d: D,
    expected: &str,
    what: &str,
) -> Result<(), D::Error> {
    let name = String::deserialize(d)?;
    if name == expected {
        Ok(())
    } else {
        Err(de::Error::custom(format_args!(
            "format {name:?} is not {what}: this file must say format = \"{expected}\""
        )))
    }
}

/// `format = "xmadn-league"`.
#[derive(Debug)]
struct LeagueFormat;

impl<'de> Deserialize<'de> for LeagueFormat {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        check_format(d, LEAGUE_FORMAT, "an XMadn league").map(|()| LeagueFormat)
    }
}

/// `format = "xmadn-challengers"`.
#[derive(Debug)]
struct ChallengersFormat;

impl<'de> Deserialize<'de> for ChallengersFormat {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        check_format(d, CHALLENGERS_FORMAT, "an XMadn Challengers event")
            .map(|()| ChallengersFormat)
    }
}

/// `"2T"` or `"2T+"` (also the names, any case).
#[derive(Debug)]
struct RuleSetName(RuleSet);

impl<'de> Deserialize<'de> for RuleSetName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        RuleSet::parse(&name).map(RuleSetName).ok_or_else(|| {
            de::Error::custom(format_args!(
                "unknown rule set {name:?}: expected \"2T\" (Championship) or \"2T+\" (Masters)"
            ))
        })
    }
}

/// `"game"` or `"first-to-N"`.
#[derive(Debug)]
struct SeriesName(Series);

impl<'de> Deserialize<'de> for SeriesName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        if name == "game" {
            return Ok(SeriesName(Series::Game));
        }
        name.strip_prefix("first-to-")
            .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
            .and_then(|n| n.parse().ok())
            .map(|x| SeriesName(Series::FirstTo(x)))
            .ok_or_else(|| {
                de::Error::custom(format_args!(
                    "unknown series {name:?}: expected \"game\" (a single game) or \"first-to-N\" \
                     (a first-to-N-wins series, such as \"first-to-3\")"
                ))
            })
    }
}

fn series_name(s: Series) -> String {
    match s {
        Series::Game => basic_string("game"),
        Series::FirstTo(x) => basic_string(&format!("first-to-{x}")),
    }
}

fn colour_list(colours: &[String]) -> String {
    let items: Vec<String> = colours.iter().map(|c| basic_string(c)).collect();
    format!("[{}]", items.join(", "))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum PlayoffFormat {
    None,
    TopTwo,
    AllThree,
}

#[derive(Debug, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a table such as [playoff] format = \"all-three\", qualifying = \"game\", final = \"first-to-3\""
)]
struct PlayoffFile {
    format: Option<PlayoffFormat>,
    qualifying: Option<SeriesName>,
    #[serde(rename = "final")]
    final_round: Option<SeriesName>,
}

const CLAUSE_PLAYOFF: &str = "XMadn League: Playoff";

impl PlayoffFile {
    /// The playoff, settings left out taken from `default`'s.
    fn into_playoff(self, default: Playoff) -> Result<Playoff, RuleError> {
        let (format, qualifying, final_round) = match default {
            Playoff::None => (PlayoffFormat::None, Series::Game, Series::Game),
            Playoff::TopTwo { final_round } => (PlayoffFormat::TopTwo, Series::Game, final_round),
            Playoff::AllThree {
                qualifying,
                final_round,
            } => (PlayoffFormat::AllThree, qualifying, final_round),
        };
        let format = self.format.unwrap_or(format);
        let only_all_three = || {
            RuleError::new(
                CLAUSE_PLAYOFF,
                "only a playoff of all three players has a qualifying round (2nd v. 3rd): \
                 leave out `qualifying` or say format = \"all-three\"",
            )
            .field("playoff.qualifying")
        };
        match format {
            PlayoffFormat::None => {
                if self.final_round.is_some() {
                    return Err(RuleError::new(
                        CLAUSE_PLAYOFF,
                        "a league without a playoff has no final: leave out `final` or say \
                         format = \"top-two\" or \"all-three\"",
                    )
                    .field("playoff.final"));
                }
                if self.qualifying.is_some() {
                    return Err(only_all_three());
                }
                Ok(Playoff::None)
            }
            PlayoffFormat::TopTwo => {
                if self.qualifying.is_some() {
                    return Err(only_all_three());
                }
                Ok(Playoff::TopTwo {
                    final_round: self.final_round.map_or(final_round, |s| s.0),
                })
            }
            PlayoffFormat::AllThree => Ok(Playoff::AllThree {
                qualifying: self.qualifying.map_or(qualifying, |s| s.0),
                final_round: self.final_round.map_or(final_round, |s| s.0),
            }),
        }
    }
}

/// The `format` setting alone (see [`format_first`]).
#[derive(Debug, Deserialize)]
struct LeagueFormatOnly {
    #[allow(dead_code)] // Checked while reading.
    format: Option<LeagueFormat>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "an XMadn league rules file")]
struct LeagueFile {
    #[allow(dead_code)] // Checked while reading.
    format: Option<LeagueFormat>,
    rule_set: Option<RuleSetName>,
    double_round_robins: Option<u32>,
    die_faces: Option<u8>,
    restart_min_tie: Option<u32>,
    head_start: Option<bool>,
    board_colours: Option<Vec<String>>,
    playoff: Option<PlayoffFile>,
}

impl LeagueFile {
    fn into_rules(self) -> Result<LeagueRules, RuleError> {
        let d = LeagueRules::default();
        let playoff = match self.playoff {
            Some(p) => p.into_playoff(d.playoff)?,
            None => d.playoff,
        };
        Ok(LeagueRules {
            rule_set: self.rule_set.map_or(d.rule_set, |r| r.0),
            double_round_robins: self.double_round_robins.unwrap_or(d.double_round_robins),
            playoff,
            head_start: self.head_start.unwrap_or(d.head_start),
            die_faces: self.die_faces.unwrap_or(d.die_faces),
            restart_min_tie: self.restart_min_tie.unwrap_or(d.restart_min_tie),
            board_colours: self.board_colours.unwrap_or(d.board_colours),
        })
    }
}

/// Read an XMadn league rules file. Settings left out take the engine's
/// defaults ([`LeagueRules::default`]); the result is checked with
/// [`LeagueRules::check`].
///
/// # Errors
///
/// A [`RulesFileError`] naming the line, column and setting for invalid
/// TOML, an unknown setting, a value of the wrong type, a `format` other than
/// `"xmadn-league"`, a playoff setting its format does not have, or a value
/// the rules refuse (`double_round_robins = 0`).
pub fn parse_league_rules(text: &str) -> Result<LeagueRules, RulesFileError> {
    format_first::<LeagueFormatOnly>(text)?;
    let file: LeagueFile = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
    let rules = file.into_rules().map_err(|e| rule_error(text, &e))?;
    rules.check().map_err(|e| rule_error(text, &e))?;
    Ok(rules)
}

/// Write `r` as a league rules file that [`parse_league_rules`] reads back
/// to the same rules. Every setting is written, with the clause it comes
/// from.
pub fn league_rules_to_toml(r: &LeagueRules) -> String {
    let mut lines = vec![
        "# XMadn league rules (xmadn-double-threat.txt, League (L); rulings XM-R1..R9)".to_string(),
        format!("format = {}", basic_string(LEAGUE_FORMAT)),
        format!(
            "rule_set = {}  # XMadn Double-Threat, XM-R9",
            basic_string(r.rule_set.code())
        ),
        format!(
            "double_round_robins = {}  # XMadn League",
            r.double_round_robins
        ),
        format!(
            "die_faces = {}  # XMadn League: Double-round robins, Table step 6",
            r.die_faces
        ),
        format!(
            "restart_min_tie = {}  # XMadn League: Table, XM-R4",
            r.restart_min_tie
        ),
        format!(
            "head_start = {}  # XMadn League: Playoff, XM-R7",
            r.head_start
        ),
        format!(
            "board_colours = {}  # XMadn Double-Threat, ARB-R25",
            colour_list(&r.board_colours)
        ),
        String::new(),
        "[playoff]  # XMadn League: Playoff".to_string(),
    ];
    match r.playoff {
        Playoff::None => lines.push(format!("format = {}", basic_string("none"))),
        Playoff::TopTwo { final_round } => {
            lines.push(format!("format = {}", basic_string("top-two")));
            lines.push(format!("final = {}", series_name(final_round)));
        }
        Playoff::AllThree {
            qualifying,
            final_round,
        } => {
            lines.push(format!("format = {}", basic_string("all-three")));
            lines.push(format!("qualifying = {}", series_name(qualifying)));
            lines.push(format!("final = {}", series_name(final_round)));
        }
    }
    lines.push(String::new());
    lines.join("\n")
}

/// The `format` setting alone (see [`format_first`]).
#[derive(Debug, Deserialize)]
struct ChallengersFormatOnly {
    #[allow(dead_code)] // Checked while reading.
    format: Option<ChallengersFormat>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "an XMadn Challengers rules file")]
struct ChallengersFile {
    #[allow(dead_code)] // Checked while reading.
    format: Option<ChallengersFormat>,
    rule_set: Option<RuleSetName>,
    first_to: Option<u32>,
    min_first_to: Option<u32>,
    board_colours: Option<Vec<String>>,
    star_colours: Option<Vec<String>>,
}

impl ChallengersFile {
    fn into_rules(self) -> ChallengersRules {
        let d = ChallengersRules::default();
        ChallengersRules {
            rule_set: self.rule_set.map_or(d.rule_set, |r| r.0),
            first_to: self.first_to.unwrap_or(d.first_to),
            min_first_to: self.min_first_to.unwrap_or(d.min_first_to),
            board_colours: self.board_colours.unwrap_or(d.board_colours),
            star_colours: self.star_colours.unwrap_or(d.star_colours),
        }
    }
}

/// Read an XMadn Challengers rules file. Settings left out take the
/// engine's defaults ([`ChallengersRules::default`]); the result is checked
/// with [`ChallengersRules::check`].
///
/// # Errors
///
/// A [`RulesFileError`] naming the line, column and setting for invalid
/// TOML, an unknown setting, a value of the wrong type, a `format` other than
/// `"xmadn-challengers"`, or a value the rules refuse (`first_to = 3`: "The
/// minimum distance shall be first-to-4").
pub fn parse_challengers_rules(text: &str) -> Result<ChallengersRules, RulesFileError> {
    format_first::<ChallengersFormatOnly>(text)?;
    let file: ChallengersFile = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
    let rules = file.into_rules();
    rules.check().map_err(|e| rule_error(text, &e))?;
    Ok(rules)
}

/// Write `r` as a Challengers rules file that [`parse_challengers_rules`]
/// reads back to the same rules. Every setting is written, with the clause
/// it comes from.
pub fn challengers_rules_to_toml(r: &ChallengersRules) -> String {
    [
        "# XMadn Challengers rules (xmadn-double-threat.txt, Challengers (C); rulings XM-R8, XM-R9)"
            .to_string(),
        format!("format = {}", basic_string(CHALLENGERS_FORMAT)),
        format!(
            "rule_set = {}  # XMadn Double-Threat, XM-R9",
            basic_string(r.rule_set.code())
        ),
        format!("first_to = {}  # XMadn Challengers", r.first_to),
        format!("min_first_to = {}  # XMadn Challengers", r.min_first_to),
        format!(
            "board_colours = {}  # XMadn Double-Threat, ARB-R25",
            colour_list(&r.board_colours)
        ),
        format!(
            "star_colours = {}  # XMadn Challengers: Game 0 (3TQ)",
            colour_list(&r.star_colours)
        ),
        String::new(),
    ]
    .join("\n")
}
