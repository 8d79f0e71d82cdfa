//! What both XMadn formats store: rule sets, rules, scores, colours,
//! series, playoffs, rolls of the die, and fixed-size arrays.

use std::fmt;
use std::marker::PhantomData;

use arbiter_engine::model::PlayerId;
use arbiter_engine::xmadn::league::PlayoffStage;
use arbiter_engine::xmadn::{
    ChallengersRules, Colours, Home, LeagueRules, Playoff, RuleSet, Score, Series,
};
use serde::de::{self, Deserializer, IgnoredAny, SeqAccess, Unexpected, Visitor};
use serde::ser::{SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};

use crate::v1::{Pid, mirror_unit_enum};

/// Exactly `N` values, as a JSON array: a shorter or longer array is an
/// error that says how long it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Arr<T, const N: usize>(pub(crate) [T; N]);

impl<T: Serialize, const N: usize> Serialize for Arr<T, N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(N))?;
        for item in &self.0 {
            seq.serialize_element(item)?;
        }
        seq.end()
    }
}

impl<'de, T: Deserialize<'de>, const N: usize> Deserialize<'de> for Arr<T, N> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ArrVisitor<T, const N: usize>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>, const N: usize> Visitor<'de> for ArrVisitor<T, N> {
            type Value = Arr<T, N>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "an array of exactly {N} values")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Arr<T, N>, A::Error> {
                let mut items = Vec::with_capacity(N);
                while items.len() < N {
                    match seq.next_element()? {
                        Some(item) => items.push(item),
                        None => return Err(de::Error::invalid_length(items.len(), &self)),
                    }
                }
                let mut len = N;
                while seq.next_element::<IgnoredAny>()?.is_some() {
                    len += 1;
                }
                if len != N {
                    return Err(de::Error::invalid_length(len, &self));
                }
                let len = items.len();
                items
                    .try_into()
                    .map(Arr)
                    .map_err(|_| de::Error::invalid_length(len, &self))
            }
        }
        d.deserialize_seq(ArrVisitor(PhantomData))
    }
}

/// A player id array from the engine's.
pub(crate) fn pids<const N: usize>(players: &[PlayerId; N]) -> Arr<Pid, N> {
    Arr(players.map(Pid))
}

/// The engine's player id array.
pub(crate) fn players<const N: usize>(pids: Arr<Pid, N>) -> [PlayerId; N] {
    pids.0.map(|p| p.0)
}

/// `"2T"` (Championship) or `"2T+"` (Masters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum RuleSetDto {
    #[serde(rename = "2T")]
    Championship,
    #[serde(rename = "2T+")]
    Masters,
}

mirror_unit_enum!(
    RuleSet,
    RuleSetDto {
        Championship,
        Masters
    }
);

/// `"game"` or `{"first_to": x}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum SeriesDto {
    Game,
    FirstTo(u32),
}

impl From<Series> for SeriesDto {
    fn from(s: Series) -> Self {
        match s {
            Series::Game => SeriesDto::Game,
            Series::FirstTo(x) => SeriesDto::FirstTo(x),
        }
    }
}

impl From<SeriesDto> for Series {
    fn from(s: SeriesDto) -> Self {
        match s {
            SeriesDto::Game => Series::Game,
            SeriesDto::FirstTo(x) => Series::FirstTo(x),
        }
    }
}

/// `{"kind": "none"}`, `{"kind": "top-two", "final": ...}` or
/// `{"kind": "all-three", "qualifying": ..., "final": ...}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub(crate) enum PlayoffDto {
    /// A struct variant, not a unit one: serde lets a unit variant of an
    /// internally tagged enum carry unknown fields.
    None {},
    TopTwo {
        #[serde(rename = "final")]
        final_round: SeriesDto,
    },
    AllThree {
        qualifying: SeriesDto,
        #[serde(rename = "final")]
        final_round: SeriesDto,
    },
}

impl From<Playoff> for PlayoffDto {
    fn from(p: Playoff) -> Self {
        match p {
            Playoff::None => PlayoffDto::None {},
            Playoff::TopTwo { final_round } => PlayoffDto::TopTwo {
                final_round: final_round.into(),
            },
            Playoff::AllThree {
                qualifying,
                final_round,
            } => PlayoffDto::AllThree {
                qualifying: qualifying.into(),
                final_round: final_round.into(),
            },
        }
    }
}

impl From<PlayoffDto> for Playoff {
    fn from(p: PlayoffDto) -> Self {
        match p {
            PlayoffDto::None {} => Playoff::None,
            PlayoffDto::TopTwo { final_round } => Playoff::TopTwo {
                final_round: final_round.into(),
            },
            PlayoffDto::AllThree {
                qualifying,
                final_round,
            } => Playoff::AllThree {
                qualifying: qualifying.into(),
                final_round: final_round.into(),
            },
        }
    }
}

/// `"qualifying"` or `"final"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum StageDto {
    Qualifying,
    Final,
}

mirror_unit_enum!(PlayoffStage, StageDto { Qualifying, Final });

/// A league's rules, every field required: an event states the rules in
/// full, so a later change of the defaults never changes the record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LeagueRulesDto {
    rule_set: RuleSetDto,
    double_round_robins: u32,
    playoff: PlayoffDto,
    head_start: bool,
    die_faces: u8,
    restart_min_tie: u32,
    board_colours: Vec<String>,
}

impl From<&LeagueRules> for LeagueRulesDto {
    fn from(r: &LeagueRules) -> Self {
        LeagueRulesDto {
            rule_set: r.rule_set.into(),
            double_round_robins: r.double_round_robins,
            playoff: r.playoff.into(),
            head_start: r.head_start,
            die_faces: r.die_faces,
            restart_min_tie: r.restart_min_tie,
            board_colours: r.board_colours.clone(),
        }
    }
}

impl From<LeagueRulesDto> for LeagueRules {
    fn from(r: LeagueRulesDto) -> Self {
        LeagueRules {
            rule_set: r.rule_set.into(),
            double_round_robins: r.double_round_robins,
            playoff: r.playoff.into(),
            head_start: r.head_start,
            die_faces: r.die_faces,
            restart_min_tie: r.restart_min_tie,
            board_colours: r.board_colours,
        }
    }
}

/// A Challengers event's rules, every field required.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ChallengersRulesDto {
    rule_set: RuleSetDto,
    first_to: u32,
    min_first_to: u32,
    board_colours: Vec<String>,
    star_colours: Vec<String>,
}

impl From<&ChallengersRules> for ChallengersRulesDto {
    fn from(r: &ChallengersRules) -> Self {
        ChallengersRulesDto {
            rule_set: r.rule_set.into(),
            first_to: r.first_to,
            min_first_to: r.min_first_to,
            board_colours: r.board_colours.clone(),
            star_colours: r.star_colours.clone(),
        }
    }
}

impl From<ChallengersRulesDto> for ChallengersRules {
    fn from(r: ChallengersRulesDto) -> Self {
        ChallengersRules {
            rule_set: r.rule_set.into(),
            first_to: r.first_to,
            min_first_to: r.min_first_to,
            board_colours: r.board_colours,
            star_colours: r.star_colours,
        }
    }
}

/// `{"vanguard": "red", "rearguard": "blue"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ColoursDto {
    vanguard: String,
    rearguard: String,
}

impl From<&Colours> for ColoursDto {
    fn from(c: &Colours) -> Self {
        ColoursDto {
            vanguard: c.vanguard.clone(),
            rearguard: c.rearguard.clone(),
        }
    }
}

impl From<ColoursDto> for Colours {
    fn from(c: ColoursDto) -> Self {
        Colours {
            vanguard: c.vanguard,
            rearguard: c.rearguard,
        }
    }
}

/// `{"pawns": [4, 2], "seconds": 750}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ScoreDto {
    pawns: Arr<u8, 2>,
    seconds: u32,
}

impl From<Score> for ScoreDto {
    fn from(s: Score) -> Self {
        ScoreDto {
            pawns: Arr(s.pawns),
            seconds: s.seconds,
        }
    }
}

impl From<ScoreDto> for Score {
    fn from(s: ScoreDto) -> Self {
        Score {
            pawns: s.pawns.0,
            seconds: s.seconds,
        }
    }
}

/// The pawns one player brought home per allied colour (ARB-R65):
/// `{"vanguard": 4, "rearguard": 1}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct HomeDto {
    vanguard: u8,
    rearguard: u8,
}

/// Both players' pawns home per colour, in the order of the score's pawns.
pub(crate) type HomesDto = Option<Arr<HomeDto, 2>>;

pub(crate) fn homes_dto(h: &Option<[Home; 2]>) -> HomesDto {
    h.map(|h| {
        Arr(h.map(|h| HomeDto {
            vanguard: h.vanguard,
            rearguard: h.rearguard,
        }))
    })
}

pub(crate) fn homes(h: HomesDto) -> Option<[Home; 2]> {
    h.map(|Arr(h)| {
        h.map(|h| Home {
            vanguard: h.vanguard,
            rearguard: h.rearguard,
        })
    })
}

/// One player's roll of the die: `[player, face]`, the face from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RollDto(pub(crate) PlayerId, pub(crate) u8);

const ROLL_EXPECTED: &str = "a roll of the die [player, face]";

impl Serialize for RollDto {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(2))?;
        seq.serialize_element(&Pid(self.0))?;
        seq.serialize_element(&self.1)?;
        seq.end()
    }
}

impl<'de> Deserialize<'de> for RollDto {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct RollVisitor;
        impl<'de> Visitor<'de> for RollVisitor {
            type Value = RollDto;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(ROLL_EXPECTED)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RollDto, A::Error> {
                let player: Pid = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::invalid_length(0, &ROLL_EXPECTED))?;
                let face: u8 = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::invalid_length(1, &ROLL_EXPECTED))?;
                if face == 0 {
                    return Err(de::Error::invalid_value(
                        Unexpected::Unsigned(0),
                        &"a face of the die (faces start at 1)",
                    ));
                }
                let mut len = 2;
                while seq.next_element::<IgnoredAny>()?.is_some() {
                    len += 1;
                }
                if len != 2 {
                    return Err(de::Error::invalid_length(len, &ROLL_EXPECTED));
                }
                Ok(RollDto(player.0, face))
            }
        }
        d.deserialize_seq(RollVisitor)
    }
}

/// Rounds of die-roll, `[[[player, face], ...], ...]`.
pub(crate) type RoundsDto = Vec<Vec<RollDto>>;

/// The rounds of a roll from the engine's.
pub(crate) fn rounds_dto(rounds: &[Vec<(PlayerId, u8)>]) -> RoundsDto {
    rounds
        .iter()
        .map(|round| round.iter().map(|&(p, face)| RollDto(p, face)).collect())
        .collect()
}

/// The engine's rounds of a roll.
pub(crate) fn rounds(rounds: RoundsDto) -> Vec<Vec<(PlayerId, u8)>> {
    rounds
        .into_iter()
        .map(|round| round.into_iter().map(|r| (r.0, r.1)).collect())
        .collect()
}
