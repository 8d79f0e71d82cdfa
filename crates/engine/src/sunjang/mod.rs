//! The Sunjang Baduk league (sunjang-league.txt): seasons of divisions and
//! groups in a pyramid, group play with gamepoints and SODOS, promotion,
//! demotion and promotion by rank, and the final round.
//!
//! - [`rules`]: every number of the document as a setting.
//! - this module: ranks, players, divisions and groups, the division
//!   restrictions per rank.
//! - [`ranking`]: section D, the priority criteria, on the reusable
//!   [`crate::cascade`].
//! - [`group`]: round-robin pairings with balanced black, results, group
//!   tables, the merged division ranking.
//! - [`planner`]: the season planner (sections A, B, C, E).
//! - [`final_round`]: the three-player final.
//! - [`season`]: the competition's state, commands and events.

pub mod carry;
pub mod clinch;
pub mod final_round;
pub mod group;
pub mod layout;
pub mod planner;
pub mod ranking;
pub mod rules;
pub mod season;

use std::fmt;

use crate::RuleError;
pub use crate::model::PlayerId;
pub use rules::SunjangRules;

/// A Go rank: 30k (weakest) to 1k, then 1d to 9d.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rank {
    Kyu(u8),
    Dan(u8),
}

impl Rank {
    /// Strength as a number: 30k is 1, 1k is 30, 1d is 31, 9d is 39.
    pub fn strength(self) -> i64 {
        match self {
            Rank::Kyu(k) => 31 - i64::from(k),
            Rank::Dan(d) => 30 + i64::from(d),
        }
    }

    /// Parse `5k`, `12 kyu`, `3d`, `1 dan` (case-insensitive). A trailing
    /// `?` (a provisional rank on OGS) is accepted and reported.
    pub fn parse(s: &str) -> Result<(Rank, bool), RuleError> {
        let t = s.trim().to_ascii_lowercase();
        let (t, provisional) = match t.strip_suffix('?') {
            Some(rest) => (rest.trim().to_string(), true),
            None => (t, false),
        };
        let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
        let (num, unit) = t.split_at(split);
        let n: u8 = num.parse().map_err(|_| bad_rank(s))?;
        let rank = match unit.trim() {
            "k" | "kyu" if (1..=30).contains(&n) => Rank::Kyu(n),
            "d" | "dan" if (1..=9).contains(&n) => Rank::Dan(n),
            _ => return Err(bad_rank(s)),
        };
        Ok((rank, provisional))
    }
}

fn bad_rank(s: &str) -> RuleError {
    RuleError::new(
        "Sunjang Division Restrictions per Rank",
        format!(
            "{s:?} is not a rank: use 30k to 1k or 1d to 9d (a trailing ? marks a provisional rank)"
        ),
    )
    .field("rank")
}

impl PartialOrd for Rank {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Stronger ranks are greater.
impl Ord for Rank {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.strength().cmp(&other.strength())
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rank::Kyu(k) => write!(f, "{k}k"),
            Rank::Dan(d) => write!(f, "{d}d"),
        }
    }
}

/// What the league knows of a player: the figures of section D.2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerInfo {
    pub name: String,
    /// Overall rank.
    pub rank: Rank,
    /// The rank is provisional (C.1 addendum).
    pub provisional: bool,
    /// Overall rating.
    pub rating: i32,
    /// Correspondence rank and rating, when the player has them.
    pub corr_rank: Option<Rank>,
    pub corr_rating: Option<i32>,
}

/// A division: 0 is A (the main division), 1 is B, ...
pub type Division = u32;

/// "A", "B", ... "Z", then "AA", "AB", ...
pub fn division_letter(d: Division) -> String {
    let mut n = d as usize;
    let mut out = Vec::new();
    loop {
        out.push(b'A' + (n % 26) as u8);
        if n < 26 {
            break;
        }
        n = n / 26 - 1;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// The clause that names groups: "They are denoted by the division letter
/// plus a number (if necessary)".
pub const CLAUSE_GROUP_NAME: &str = "Sunjang Definitions: Group";

/// A group: its division and its number (1-based) within it.
///
/// Its name follows "Sunjang Definitions: Group" ("denoted by the division
/// letter plus a number (if necessary)"): the only group of its division is
/// named by the letter alone (`B`), the groups of a division of two or more
/// by letter and number (`A1`, `A2`). The name depends on the division's
/// group count, which the id carries (`alone`, set where ids are made with
/// that knowledge: the planner, a layout, a season's groups); equality,
/// hashing, order and `Debug` read only the division and the number, so
/// `B` and `B1` are one group (and a request's fingerprint does not change).
#[derive(Clone, Copy)]
pub struct GroupId {
    pub division: Division,
    pub number: u32,
    /// The only group of its division: named by its letter alone.
    alone: bool,
}

impl GroupId {
    /// Group `number` of `division`, named with its number ("B1") unless
    /// [`GroupId::named_for`] says its division has one group.
    pub const fn new(division: Division, number: u32) -> Self {
        Self {
            division,
            number,
            alone: false,
        }
    }

    /// Group `number` of `division`, a division of `groups` groups: the
    /// only one is named by the letter alone ("Sunjang Definitions: Group").
    pub const fn of(division: Division, number: u32, groups: usize) -> Self {
        Self::new(division, number).named_for(groups)
    }

    /// The only group of `division`, named by its letter ("B").
    pub const fn only(division: Division) -> Self {
        Self::of(division, 1, 1)
    }

    /// The same group, named for a division of `groups` groups.
    #[must_use]
    pub const fn named_for(self, groups: usize) -> Self {
        Self {
            alone: groups == 1 && self.number == 1,
            ..self
        }
    }

    /// Whether the group is named by its division letter alone (the only
    /// group of its division).
    pub const fn is_alone(&self) -> bool {
        self.alone
    }

    /// A group as people write it: `B2`, `b2`, `AA10`, or a division letter
    /// alone (`B`), which is group 1 named by its letter (the name of the
    /// only group of B). Which group it is in a season, and whether the
    /// letter alone is enough there, is [`season::Season::find_group`]'s
    /// to say.
    pub fn parse(s: &str) -> Option<GroupId> {
        let t = s.trim().to_ascii_uppercase();
        let split = t.find(|c: char| !c.is_ascii_uppercase()).unwrap_or(t.len());
        let (letters, digits) = t.split_at(split);
        if letters.is_empty() || letters.len() > 4 {
            return None;
        }
        let mut division: u32 = 0;
        for b in letters.bytes() {
            division = division * 26 + u32::from(b - b'A') + 1;
        }
        let division = division - 1;
        if digits.is_empty() {
            return Some(GroupId::only(division));
        }
        if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 6 {
            return None;
        }
        let number = digits.parse::<u32>().ok().filter(|&n| n >= 1)?;
        Some(GroupId::new(division, number))
    }
}

impl PartialEq for GroupId {
    fn eq(&self, other: &Self) -> bool {
        (self.division, self.number) == (other.division, other.number)
    }
}

impl Eq for GroupId {}

impl std::hash::Hash for GroupId {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.division, self.number).hash(state);
    }
}

impl PartialOrd for GroupId {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for GroupId {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.division, self.number).cmp(&(other.division, other.number))
    }
}

impl fmt::Debug for GroupId {
    /// As equality sees it: the division and the number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GroupId")
            .field("division", &self.division)
            .field("number", &self.number)
            .finish()
    }
}

impl fmt::Display for GroupId {
    /// "A1", "B3" ("the division letter plus a number"), or "B" for the
    /// only group of B ("plus a number (if necessary)", Sunjang
    /// Definitions: Group).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.alone {
            f.write_str(&division_letter(self.division))
        } else {
            write!(f, "{}{}", division_letter(self.division), self.number)
        }
    }
}

/// One row of the division restrictions per rank: players ranked from
/// `weakest` to `strongest` (inclusive) may be placed from division
/// `highest` down to division `lowest` (`highest <= lowest`, A = 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Restriction {
    pub strongest: Rank,
    pub weakest: Rank,
    pub highest: Division,
    pub lowest: Division,
}

/// The division restrictions per rank. Ranks no row covers are not
/// restricted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Restrictions {
    pub rows: Vec<Restriction>,
}

const CLAUSE_RESTRICTIONS: &str = "Sunjang Definitions: Division restrictions per rank";

impl Restriction {
    /// The row's rank range as organizers write it, weakest first:
    /// "10k–1k", "1d–3d", or "5k" for a row of one rank.
    pub fn ranks(&self) -> String {
        if self.weakest == self.strongest {
            self.weakest.to_string()
        } else {
            format!("{}–{}", self.weakest, self.strongest)
        }
    }

    /// "the row for 10k–1k".
    pub fn title(&self) -> String {
        format!("the row for {}", self.ranks())
    }
}

impl Restrictions {
    /// The table with `row` set (ARB-R56): it replaces the row of exactly
    /// its rank range, or is added; rows are kept strongest first. The
    /// result is for [`Restrictions::check`] to judge (a row that overlaps
    /// another is refused there, naming both by their rank ranges).
    pub fn with_row(&self, row: Restriction) -> Restrictions {
        let mut rows: Vec<Restriction> = self
            .rows
            .iter()
            .filter(|r| !(r.weakest == row.weakest && r.strongest == row.strongest))
            .copied()
            .collect();
        rows.push(row);
        rows.sort_by_key(|r| std::cmp::Reverse((r.strongest, r.weakest)));
        Restrictions { rows }
    }

    /// The table without the row of exactly the rank range `weakest` to
    /// `strongest` (ARB-R56), refused naming the rows there are when there
    /// is none.
    pub fn without_row(&self, weakest: Rank, strongest: Rank) -> Result<Restrictions, RuleError> {
        let probe = Restriction {
            strongest,
            weakest,
            highest: 0,
            lowest: 0,
        };
        if !self
            .rows
            .iter()
            .any(|r| r.weakest == weakest && r.strongest == strongest)
        {
            let there: Vec<String> = self.rows.iter().map(Restriction::ranks).collect();
            return Err(RuleError::new(
                CLAUSE_RESTRICTIONS,
                format!(
                    "there is no row for {}: the rows are {} (ARB-R56)",
                    probe.ranks(),
                    if there.is_empty() {
                        "none".to_string()
                    } else {
                        there.join(", ")
                    }
                ),
            )
            .field("ranks"));
        }
        Ok(Restrictions {
            rows: self
                .rows
                .iter()
                .filter(|r| !(r.weakest == weakest && r.strongest == strongest))
                .copied()
                .collect(),
        })
    }

    /// The limits for `rank`: (highest, lowest) division, `None` when no row
    /// covers it.
    pub fn limits(&self, rank: Rank) -> Option<(Division, Division)> {
        self.rows
            .iter()
            .find(|r| r.weakest <= rank && rank <= r.strongest)
            .map(|r| (r.highest, r.lowest))
    }

    /// Refuse a table that is not a table: overlapping rows, a row whose
    /// highest division is below its lowest, or limits that are not
    /// monotone: "Both limits for superior ranks cannot be any lower than
    /// the limits for inferior ranks."
    pub fn check(&self) -> Result<(), RuleError> {
        for (i, r) in self.rows.iter().enumerate() {
            let field = format!("restrictions[{i}]");
            if r.weakest > r.strongest {
                return Err(RuleError::new(
                    CLAUSE_RESTRICTIONS,
                    format!(
                        "the row for {} to {} is upside down: give the weakest rank first",
                        r.weakest, r.strongest
                    ),
                )
                .field(field));
            }
            if r.highest > r.lowest {
                return Err(RuleError::new(
                    CLAUSE_RESTRICTIONS,
                    format!(
                        "{}: the highest division {} is below the lowest division {}",
                        r.title(),
                        division_letter(r.highest),
                        division_letter(r.lowest)
                    ),
                )
                .field(field));
            }
            for o in self.rows.iter().take(i) {
                if r.weakest <= o.strongest && o.weakest <= r.strongest {
                    return Err(RuleError::new(
                        CLAUSE_RESTRICTIONS,
                        format!(
                            "{} and {} overlap: each rank has one row",
                            o.title(),
                            r.title()
                        ),
                    )
                    .field(field));
                }
                // o superior to r, or r superior to o: limits must follow.
                let (sup, inf) = if o.weakest > r.strongest {
                    (o, r)
                } else {
                    (r, o)
                };
                if sup.highest > inf.highest || sup.lowest > inf.lowest {
                    return Err(RuleError::new(
                        CLAUSE_RESTRICTIONS,
                        format!(
                            "{} (divisions {} to {}) would have a lower limit than {} (divisions {} to {}): \"Both limits for superior ranks cannot be any lower than the limits for inferior ranks.\"",
                            sup.title(),
                            division_letter(sup.highest),
                            division_letter(sup.lowest),
                            inf.title(),
                            division_letter(inf.highest),
                            division_letter(inf.lowest)
                        ),
                    )
                    .field(field));
                }
            }
        }
        Ok(())
    }
}

/// Gamepoints in halves (a jigo is half a point): scores never compare
/// floats.
pub type HalfPoints = u32;

/// SODOS in units of `1 / sodos_per_point` gamepoint
/// ([`SunjangRules::sodos_per_point`]: twice a win's points in halves), so
/// that it is exact for every gamepoint setting (SJ-R12; ARB-R39): with a
/// win 1 and a jigo ½, quarter points (a jigo against 3½ is 1¾); with a
/// win 3 and a jigo 1, twelfths (a jigo against 4 is 1⅓).
pub type SodosUnits = u64;

/// SODOS as a mixed number in lowest terms: "1¾", "12", "0¼", "5⅓", and
/// "5 2/7" where no fraction glyph exists.
pub fn format_sodos(units: SodosUnits, per_point: u64) -> String {
    let per_point = per_point.max(1);
    let (whole, rem) = (units / per_point, units % per_point);
    if rem == 0 {
        return whole.to_string();
    }
    let g = gcd(rem, per_point);
    let (n, d) = (rem / g, per_point / g);
    let glyph = match (n, d) {
        (1, 2) => "½",
        (1, 3) => "⅓",
        (2, 3) => "⅔",
        (1, 4) => "¼",
        (3, 4) => "¾",
        (1, 5) => "⅕",
        (2, 5) => "⅖",
        (3, 5) => "⅗",
        (4, 5) => "⅘",
        (1, 6) => "⅙",
        (5, 6) => "⅚",
        (1, 7) => "⅐",
        (1, 8) => "⅛",
        (3, 8) => "⅜",
        (5, 8) => "⅝",
        (7, 8) => "⅞",
        (1, 9) => "⅑",
        (1, 10) => "⅒",
        _ => return format!("{whole} {n}/{d}"),
    };
    format!("{whole}{glyph}")
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// "3½", "10", "0½".
pub fn format_points(h: HalfPoints) -> String {
    if h.is_multiple_of(2) {
        (h / 2).to_string()
    } else {
        format!("{}½", h / 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_parse_and_order() {
        assert_eq!(Rank::parse("5k").map(|r| r.0), Ok(Rank::Kyu(5)));
        assert_eq!(Rank::parse(" 3 Dan ").map(|r| r.0), Ok(Rank::Dan(3)));
        assert_eq!(Rank::parse("12k?"), Ok((Rank::Kyu(12), true)));
        assert!(Rank::parse("31k").is_err());
        assert!(Rank::parse("10d").is_err());
        assert!(Rank::parse("5 p").is_err());
        assert!(Rank::Dan(1) > Rank::Kyu(1));
        assert!(Rank::Kyu(1) > Rank::Kyu(2));
    }

    #[test]
    fn letters() {
        assert_eq!(division_letter(0), "A");
        assert_eq!(division_letter(25), "Z");
        assert_eq!(division_letter(26), "AA");
        assert_eq!(GroupId::new(1, 3).to_string(), "B3");
    }

    /// "They are denoted by the division letter plus a number (if
    /// necessary)." (Sunjang Definitions: Group)
    #[test]
    fn a_group_is_named_by_its_letter_alone_when_it_is_the_only_one() {
        assert_eq!(GroupId::of(1, 1, 1).to_string(), "B");
        assert_eq!(GroupId::only(27).to_string(), "AB");
        assert_eq!(GroupId::of(0, 1, 2).to_string(), "A1");
        assert_eq!(GroupId::of(0, 2, 2).to_string(), "A2");
        assert_eq!(GroupId::new(1, 1).to_string(), "B1");
        assert_eq!(GroupId::new(1, 1).named_for(1).to_string(), "B");
        assert_eq!(GroupId::of(1, 1, 1).named_for(3).to_string(), "B1");
        // The name is not the identity: B and B1 are one group.
        assert_eq!(GroupId::only(1), GroupId::new(1, 1));
        assert!(GroupId::only(1) < GroupId::new(1, 2));
        let set: std::collections::HashSet<GroupId> =
            [GroupId::only(1), GroupId::new(1, 1)].into_iter().collect();
        assert_eq!(set.len(), 1);
        assert_eq!(
            format!("{:?}", GroupId::only(1)),
            format!("{:?}", GroupId::new(1, 1))
        );
    }

    #[test]
    fn restrictions_must_be_monotone() {
        let ok = Restrictions {
            rows: vec![
                Restriction {
                    strongest: Rank::Dan(9),
                    weakest: Rank::Dan(1),
                    highest: 0,
                    lowest: 0,
                },
                Restriction {
                    strongest: Rank::Kyu(1),
                    weakest: Rank::Kyu(5),
                    highest: 0,
                    lowest: 1,
                },
                Restriction {
                    strongest: Rank::Kyu(6),
                    weakest: Rank::Kyu(30),
                    highest: 1,
                    lowest: 2,
                },
            ],
        };
        assert!(ok.check().is_ok());
        assert_eq!(ok.limits(Rank::Kyu(3)), Some((0, 1)));
        let mut bad = ok.clone();
        bad.rows[0].lowest = 2; // dan players could go lower than 1-5k
        let e = bad.check().expect_err("refused");
        assert!(e.message.contains("superior ranks"), "{e}");
        assert!(
            e.message.contains("the row for 1d–9d (divisions A to C) would have a lower limit than the row for 5k–1k (divisions A to B)"),
            "{e}"
        );
    }

    /// ARB-R56: one row at a time; rows named by their rank range.
    #[test]
    fn one_row_is_set_or_removed_and_named_by_its_ranks() {
        let table = Restrictions::default()
            .with_row(Restriction {
                strongest: Rank::Kyu(1),
                weakest: Rank::Kyu(10),
                highest: 0,
                lowest: 1,
            })
            .with_row(Restriction {
                strongest: Rank::Dan(9),
                weakest: Rank::Dan(1),
                highest: 0,
                lowest: 0,
            });
        assert!(table.check().is_ok());
        assert_eq!(table.rows[0].ranks(), "1d–9d", "strongest first");
        // The same range replaces its row.
        let replaced = table.with_row(Restriction {
            strongest: Rank::Kyu(1),
            weakest: Rank::Kyu(10),
            highest: 0,
            lowest: 2,
        });
        assert_eq!(replaced.rows.len(), 2);
        assert_eq!(replaced.limits(Rank::Kyu(5)), Some((0, 2)));
        // An overlapping range is refused by the check, naming both rows.
        let e = table
            .with_row(Restriction {
                strongest: Rank::Kyu(5),
                weakest: Rank::Kyu(15),
                highest: 1,
                lowest: 2,
            })
            .check()
            .expect_err("overlap");
        assert!(
            e.message
                .contains("the row for 10k–1k and the row for 15k–5k overlap"),
            "{e}"
        );
        let fewer = table
            .without_row(Rank::Kyu(10), Rank::Kyu(1))
            .expect("there");
        assert_eq!(fewer.rows.len(), 1);
        let e = fewer
            .without_row(Rank::Kyu(10), Rank::Kyu(1))
            .expect_err("gone");
        assert!(
            e.message
                .contains("there is no row for 10k–1k: the rows are 1d–9d"),
            "{e}"
        );
    }
}
