//! What the Sunjang events store: ranks, division letters, group ids,
//! outcomes, recorded explanations, players, the rules and the division
//! restrictions per rank.

use std::fmt;

use arbiter_engine::sunjang::group::Outcome;
use arbiter_engine::sunjang::planner::PreviousDivision;
use arbiter_engine::sunjang::rules::GroupCount;
use arbiter_engine::sunjang::season::{Note, PlacedPlayer};
use arbiter_engine::sunjang::{
    Division, GroupId, PlayerInfo, Rank, Restriction, Restrictions, SunjangRules, division_letter,
};
use serde::de::{self, Deserializer, Unexpected, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use crate::v1::{Pid, mirror_unit_enum};

// ---------------------------------------------------------------------------
// Ranks.

/// The ranks a record holds: `"30k"` to `"1k"`, `"1d"` to `"9d"`.
pub(crate) const RANK_EXPECTED: &str = "a rank such as \"5k\" or \"3d\" (30k to 1k, then 1d to 9d)";

/// A rank in its short form, exactly as written: digits without a leading
/// zero, then `k` or `d` (lower case), in the engine's range.
pub(crate) fn parse_rank(s: &str) -> Option<Rank> {
    let (digits, dan) = match (s.strip_suffix('k'), s.strip_suffix('d')) {
        (Some(digits), _) => (digits, false),
        (_, Some(digits)) => (digits, true),
        _ => return None,
    };
    if digits.is_empty()
        || digits.len() > 2
        || digits.starts_with('0')
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let n: u8 = digits.parse().ok()?;
    match dan {
        false if (1..=30).contains(&n) => Some(Rank::Kyu(n)),
        true if (1..=9).contains(&n) => Some(Rank::Dan(n)),
        _ => None,
    }
}

/// A rank: `"5k"`, `"3d"` (see [`parse_rank`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RankDto(pub(crate) Rank);

impl Serialize for RankDto {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for RankDto {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct RankVisitor;
        impl Visitor<'_> for RankVisitor {
            type Value = RankDto;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(RANK_EXPECTED)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<RankDto, E> {
                parse_rank(v).map(RankDto).ok_or_else(|| {
                    E::custom(format_args!("invalid rank {v:?}: expected {RANK_EXPECTED}"))
                })
            }
        }
        d.deserialize_str(RankVisitor)
    }
}

// ---------------------------------------------------------------------------
// Divisions and groups.

/// The division of letters `s` (`"A"` is 0, `"Z"` 25, `"AA"` 26: the
/// inverse of [`division_letter`]): upper-case letters only.
pub(crate) fn parse_division(s: &str) -> Option<Division> {
    if s.is_empty() || s.len() > 7 {
        return None;
    }
    let mut n: u64 = 0;
    for b in s.bytes() {
        if !b.is_ascii_uppercase() {
            return None;
        }
        n = n * 26 + u64::from(b - b'A' + 1);
    }
    Division::try_from(n - 1).ok()
}

/// The divisions a record holds.
pub(crate) const DIVISION_EXPECTED: &str =
    "a division letter: \"A\" (the main division), \"B\", ..., \"Z\", \"AA\", ...";

/// A division: its letter, `"A"` for the main division.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DivisionDto(pub(crate) Division);

impl Serialize for DivisionDto {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&division_letter(self.0))
    }
}

impl<'de> Deserialize<'de> for DivisionDto {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct DivisionVisitor;
        impl Visitor<'_> for DivisionVisitor {
            type Value = DivisionDto;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(DIVISION_EXPECTED)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<DivisionDto, E> {
                parse_division(v).map(DivisionDto).ok_or_else(|| {
                    E::custom(format_args!(
                        "invalid division {v:?}: expected {DIVISION_EXPECTED}"
                    ))
                })
            }
        }
        d.deserialize_str(DivisionVisitor)
    }
}

const GROUP_EXPECTED: &str = "a group: its division letter and its number from 1, such as \"A1\" or \"B2\", or the letter alone for the only group of its division, such as \"B\"";

/// A group id from its name: the division letters, then the number (from
/// 1, without a leading zero), or the letters alone: the only group of the
/// division, "denoted by the division letter plus a number (if necessary)"
/// (Sunjang Definitions: Group). Logs written before groups were so named
/// say "B1" for the only group of B: both are group 1 of B (and the league
/// names it B when it applies the season's plan).
pub(crate) fn parse_group(s: &str) -> Option<GroupId> {
    let Some(split) = s.find(|c: char| c.is_ascii_digit()) else {
        return parse_division(s).map(GroupId::only);
    };
    let (letters, digits) = s.split_at(split);
    if digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(GroupId::new(parse_division(letters)?, digits.parse().ok()?))
}

/// A group: `"A1"`, `"B2"`, or `"B"` for the only group of B ("the
/// division letter plus a number (if necessary)").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct GroupDto(pub(crate) GroupId);

impl Serialize for GroupDto {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for GroupDto {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct GroupVisitor;
        impl Visitor<'_> for GroupVisitor {
            type Value = GroupDto;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(GROUP_EXPECTED)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<GroupDto, E> {
                parse_group(v).map(GroupDto).ok_or_else(|| {
                    E::custom(format_args!(
                        "invalid group {v:?}: expected {GROUP_EXPECTED}"
                    ))
                })
            }
        }
        d.deserialize_str(GroupVisitor)
    }
}

/// A season's number: a plain integer, at least 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SeasonNo(pub(crate) u32);

impl Serialize for SeasonNo {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(self.0)
    }
}

impl<'de> Deserialize<'de> for SeasonNo {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match u32::deserialize(d)? {
            0 => Err(de::Error::invalid_value(
                Unexpected::Unsigned(0),
                &"a season number (seasons count from 1)",
            )),
            n => Ok(SeasonNo(n)),
        }
    }
}

// ---------------------------------------------------------------------------
// Outcomes and notes.

/// `"black-wins"`, `"white-wins"`, `"jigo"`, `"black-forfeits"`,
/// `"white-forfeits"`, `"both-forfeit"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum OutcomeDto {
    BlackWins,
    WhiteWins,
    Jigo,
    BlackForfeits,
    WhiteForfeits,
    BothForfeit,
}

mirror_unit_enum!(
    Outcome,
    OutcomeDto {
        BlackWins,
        WhiteWins,
        Jigo,
        BlackForfeits,
        WhiteForfeits,
        BothForfeit,
    }
);

/// A recorded explanation: `{"clause": ..., "rulings": [...], "text": ...}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NoteDto {
    clause: String,
    rulings: Vec<String>,
    text: String,
}

impl From<&Note> for NoteDto {
    fn from(n: &Note) -> Self {
        NoteDto {
            clause: n.clause.clone(),
            rulings: n.rulings.clone(),
            text: n.text.clone(),
        }
    }
}

impl From<NoteDto> for Note {
    fn from(n: NoteDto) -> Self {
        Note {
            clause: n.clause,
            rulings: n.rulings,
            text: n.text,
        }
    }
}

// ---------------------------------------------------------------------------
// Players.

/// What the league knows of a player (D.2): the correspondence rank and
/// rating are left out when the player has none.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayerInfoDto {
    name: String,
    rank: RankDto,
    provisional: bool,
    rating: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    corr_rank: Option<RankDto>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    corr_rating: Option<i32>,
}

impl From<&PlayerInfo> for PlayerInfoDto {
    fn from(p: &PlayerInfo) -> Self {
        PlayerInfoDto {
            name: p.name.clone(),
            rank: RankDto(p.rank),
            provisional: p.provisional,
            rating: p.rating,
            corr_rank: p.corr_rank.map(RankDto),
            corr_rating: p.corr_rating,
        }
    }
}

impl From<PlayerInfoDto> for PlayerInfo {
    fn from(p: PlayerInfoDto) -> Self {
        PlayerInfo {
            name: p.name,
            rank: p.rank.0,
            provisional: p.provisional,
            rating: p.rating,
            corr_rank: p.corr_rank.map(|r| r.0),
            corr_rating: p.corr_rating,
        }
    }
}

/// A placement of a season's plan: `{"player": 3, "group": "B2", "seed": 1,
/// "explanation": {...}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlacedDto {
    player: Pid,
    group: GroupDto,
    seed: u32,
    explanation: NoteDto,
}

impl From<&PlacedPlayer> for PlacedDto {
    fn from(p: &PlacedPlayer) -> Self {
        PlacedDto {
            player: Pid(p.player),
            group: GroupDto(p.group),
            seed: p.seed,
            explanation: (&p.explanation).into(),
        }
    }
}

impl From<PlacedDto> for PlacedPlayer {
    fn from(p: PlacedDto) -> Self {
        PlacedPlayer {
            player: p.player.0,
            group: p.group.0,
            seed: p.seed,
            explanation: p.explanation.into(),
        }
    }
}

/// A closed season's division: its merged ranking (SJ-R5), its group
/// leaders and the size of each of its groups.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClosedDivisionDto {
    ranking: Vec<Pid>,
    group_leaders: Vec<Pid>,
    groups: Vec<u32>,
}

impl From<&PreviousDivision> for ClosedDivisionDto {
    fn from(d: &PreviousDivision) -> Self {
        ClosedDivisionDto {
            ranking: pids(&d.ranking),
            group_leaders: pids(&d.group_leaders),
            groups: d.groups.clone(),
        }
    }
}

impl From<ClosedDivisionDto> for PreviousDivision {
    fn from(d: ClosedDivisionDto) -> Self {
        PreviousDivision {
            ranking: players(d.ranking),
            group_leaders: players(d.group_leaders),
            groups: d.groups,
        }
    }
}

/// Player ids from the engine's.
pub(crate) fn pids(players: &[arbiter_engine::model::PlayerId]) -> Vec<Pid> {
    players.iter().copied().map(Pid).collect()
}

/// The engine's player ids.
pub(crate) fn players(pids: Vec<Pid>) -> Vec<arbiter_engine::model::PlayerId> {
    pids.into_iter().map(|p| p.0).collect()
}

// ---------------------------------------------------------------------------
// Rules and restrictions.

/// `"nearest-ideal"` (SJ-R2) or `"fewest"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum GroupCountDto {
    NearestIdeal,
    Fewest,
}

mirror_unit_enum!(
    GroupCount,
    GroupCountDto {
        NearestIdeal,
        Fewest
    }
);

/// The league's rules, every field required: an event states the rules in
/// full, so a later change of the defaults never changes the record.
/// Gamepoints are integers counting halves (`win_half_points: 2` is one
/// gamepoint, `jigo_half_points: 1` half of one), as the engine keeps them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RulesDto {
    ideal_group_size: u32,
    deviation: u32,
    min_group_size: u32,
    main_division_groups: u32,
    single_group_below: u32,
    min_division_size: u32,
    growth_factor: u32,
    cap_base: u32,
    min_season_players: u32,
    group_count: GroupCountDto,
    win_half_points: u32,
    jigo_half_points: u32,
    start_half_points_per_division: u32,
    min_direct_promotions: u32,
    virtual_tie_rating: u32,
    provisional_promotable: bool,
    final_round_min_place: u32,
}

impl From<&SunjangRules> for RulesDto {
    fn from(r: &SunjangRules) -> Self {
        RulesDto {
            ideal_group_size: r.ideal_group_size,
            deviation: r.deviation,
            min_group_size: r.min_group_size,
            main_division_groups: r.main_division_groups,
            single_group_below: r.single_group_below,
            min_division_size: r.min_division_size,
            growth_factor: r.growth_factor,
            cap_base: r.cap_base,
            min_season_players: r.min_season_players,
            group_count: r.group_count.into(),
            win_half_points: r.win_points,
            jigo_half_points: r.jigo_points,
            start_half_points_per_division: r.start_points_per_division,
            min_direct_promotions: r.min_direct_promotions,
            virtual_tie_rating: r.virtual_tie_rating,
            provisional_promotable: r.provisional_promotable,
            final_round_min_place: r.final_round_min_place,
        }
    }
}

impl From<RulesDto> for SunjangRules {
    fn from(r: RulesDto) -> Self {
        SunjangRules {
            ideal_group_size: r.ideal_group_size,
            deviation: r.deviation,
            min_group_size: r.min_group_size,
            main_division_groups: r.main_division_groups,
            single_group_below: r.single_group_below,
            min_division_size: r.min_division_size,
            growth_factor: r.growth_factor,
            cap_base: r.cap_base,
            min_season_players: r.min_season_players,
            group_count: r.group_count.into(),
            win_points: r.win_half_points,
            jigo_points: r.jigo_half_points,
            start_points_per_division: r.start_half_points_per_division,
            min_direct_promotions: r.min_direct_promotions,
            virtual_tie_rating: r.virtual_tie_rating,
            provisional_promotable: r.provisional_promotable,
            final_round_min_place: r.final_round_min_place,
        }
    }
}

/// One row of the division restrictions per rank:
/// `{"strongest": "1k", "weakest": "5k", "highest": "A", "lowest": "B"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RestrictionDto {
    strongest: RankDto,
    weakest: RankDto,
    highest: DivisionDto,
    lowest: DivisionDto,
}

/// The restrictions: their rows, as an array.
pub(crate) type RestrictionsDto = Vec<RestrictionDto>;

pub(crate) fn restrictions_dto(r: &Restrictions) -> RestrictionsDto {
    r.rows
        .iter()
        .map(|row| RestrictionDto {
            strongest: RankDto(row.strongest),
            weakest: RankDto(row.weakest),
            highest: DivisionDto(row.highest),
            lowest: DivisionDto(row.lowest),
        })
        .collect()
}

pub(crate) fn restrictions(rows: RestrictionsDto) -> Restrictions {
    Restrictions {
        rows: rows
            .into_iter()
            .map(|row| Restriction {
                strongest: row.strongest.0,
                weakest: row.weakest.0,
                highest: row.highest.0,
                lowest: row.lowest.0,
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_read_in_their_short_form_only() {
        assert_eq!(parse_rank("5k"), Some(Rank::Kyu(5)));
        assert_eq!(parse_rank("30k"), Some(Rank::Kyu(30)));
        assert_eq!(parse_rank("9d"), Some(Rank::Dan(9)));
        for bad in [
            "", "k", "0k", "05k", "31k", "10d", "0d", "5K", "5 k", "5kyu", "5p", "-5k", "5k?",
            "100k", "é",
        ] {
            assert_eq!(parse_rank(bad), None, "{bad}");
        }
    }

    #[test]
    fn division_letters_invert_division_letter() {
        for d in [
            0,
            1,
            25,
            26,
            27,
            701,
            702,
            18_277,
            18_278,
            u32::MAX - 1,
            u32::MAX,
        ] {
            assert_eq!(parse_division(&division_letter(d)), Some(d), "{d}");
        }
        for bad in ["", "a", "A1", "Ä", "AAAAAAAA", "ZZZZZZZ"] {
            assert_eq!(parse_division(bad), None, "{bad}");
        }
    }

    #[test]
    fn groups_are_letters_then_a_number() {
        assert_eq!(parse_group("B2"), Some(GroupId::new(1, 2)));
        assert_eq!(parse_group("AA10"), Some(GroupId::new(26, 10)));
        // "the division letter plus a number (if necessary)" (Sunjang
        // Definitions: Group): the letter alone is the only group, and an
        // older log's "B1" is the same group.
        assert_eq!(parse_group("B"), Some(GroupId::only(1)));
        assert_eq!(
            parse_group("B").map(|g| g.to_string()).as_deref(),
            Some("B")
        );
        assert_eq!(parse_group("B1"), parse_group("B"));
        assert_eq!(
            parse_group("B1").map(|g| g.to_string()).as_deref(),
            Some("B1")
        );
        assert_eq!(
            parse_group("AA").map(|g| g.to_string()).as_deref(),
            Some("AA")
        );
        for bad in [
            "",
            "b",
            "2",
            "B0",
            "B02",
            "b2",
            "B2a",
            "B-2",
            "B 2",
            "B4294967296",
        ] {
            assert_eq!(parse_group(bad), None, "{bad}");
        }
    }
}
