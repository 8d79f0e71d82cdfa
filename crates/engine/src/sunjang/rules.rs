//! The league's settings: every number of sunjang-league.txt, named.

use crate::RuleError;

use super::HalfPoints;

/// How many groups a division of a given size has (A.i.3; SJ-R2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GroupCount {
    /// SJ-R2: the count whose average group size is nearest the ideal,
    /// within A.i.3's bounds; on equal distance, fewer groups.
    NearestIdeal,
    /// The fewest groups whose sizes stay within the deviation from the
    /// ideal (the other reading of A.i.3).
    Fewest,
}

/// The league's rules. Defaults are the document's numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SunjangRules {
    /// "an ideal group size of 7 players" (A.i).
    pub ideal_group_size: u32,
    /// "within a deviation of 2 players" (A.i).
    pub deviation: u32,
    /// "no group shall contain fewer than 5 players" (A.i.3).
    pub min_group_size: u32,
    /// "There shall be two groups on the main division" (A.i.1).
    pub main_division_groups: u32,
    /// "Unless there is fewer than 10 players to play the tournament"
    /// (footnote 1): below this, the main division has one group.
    pub single_group_below: u32,
    /// "Each division shall be no shorter than 5 players" (A.i.2).
    pub min_division_size: u32,
    /// "no larger than thrice the size of the division directly above"
    /// (A.i.2), and "no larger than thrice the number of groups" (A.i.3).
    pub growth_factor: u32,
    /// "a natural limit of 6×3ⁿ players" (A.i.4): the 6; n is the
    /// division's number counted from 1 for A (SJ-R1).
    pub cap_base: u32,
    /// "Should there be fewer than 5 players ..., that season should be
    /// cancelled" (footnote 2).
    pub min_season_players: u32,
    /// Group count reading (SJ-R2).
    pub group_count: GroupCount,
    /// Gamepoints for a win and a jigo, in halves (SJ-R4: 1 and ½).
    pub win_points: HalfPoints,
    pub jigo_points: HalfPoints,
    /// "each player receives ten points for every division below their
    /// own" (footnote 4; SJ-R4), in halves.
    pub start_points_per_division: HalfPoints,
    /// "There shall be at least two direct promotions per division" (B.1).
    pub min_direct_promotions: u32,
    /// "Two players within 10 rating points difference may be considered
    /// to be in a virtual tie" (footnote 6; SJ-R13).
    pub virtual_tie_rating: u32,
    /// C.1 addendum: whether provisional players may be promoted by rank.
    pub provisional_promotable: bool,
    /// Final round: "ended up in 4th place or better" (SJ-R7).
    pub final_round_min_place: u32,
}

/// The most a win may be worth, in halves (1000 gamepoints).
pub const MOST_WIN_HALVES: HalfPoints = 2000;

impl Default for SunjangRules {
    fn default() -> Self {
        Self {
            ideal_group_size: 7,
            deviation: 2,
            min_group_size: 5,
            main_division_groups: 2,
            single_group_below: 10,
            min_division_size: 5,
            growth_factor: 3,
            cap_base: 6,
            min_season_players: 5,
            group_count: GroupCount::NearestIdeal,
            win_points: 2,
            jigo_points: 1,
            start_points_per_division: 20,
            min_direct_promotions: 2,
            virtual_tie_rating: 10,
            provisional_promotable: false,
            final_round_min_place: 4,
        }
    }
}

impl SunjangRules {
    /// The A.i.4 cap of division `d` (A = 0): `cap_base × growth^(d+1)`
    /// (SJ-R1: 18 for A, 54 for B), saturating.
    pub fn cap(&self, d: super::Division) -> u64 {
        let mut cap = u64::from(self.cap_base);
        for _ in 0..=d {
            cap = cap.saturating_mul(u64::from(self.growth_factor));
        }
        cap
    }

    /// SODOS units per gamepoint ([`super::SodosUnits`]): twice a win's
    /// points in halves, so that the share of an opponent's gamepoints a
    /// result gives (its points over a win's) is a whole number of units.
    pub fn sodos_per_point(&self) -> u64 {
        2 * u64::from(self.win_points.max(1))
    }

    /// The largest group A.i allows: ideal + deviation.
    pub fn max_group_size(&self) -> u32 {
        self.ideal_group_size + self.deviation
    }

    pub fn check(&self) -> Result<(), RuleError> {
        let bad = |field: &str, m: String| {
            Err(RuleError::new("Sunjang A. Divisions & Groups", m).field(field))
        };
        if !(2..=50).contains(&self.ideal_group_size) {
            return bad(
                "ideal_group_size",
                format!(
                    "the ideal group size is 2 to 50, not {}",
                    self.ideal_group_size
                ),
            );
        }
        if self.deviation >= self.ideal_group_size {
            return bad(
                "deviation",
                "the deviation must be smaller than the ideal group size".into(),
            );
        }
        if self.min_group_size < 2 || self.min_group_size > self.ideal_group_size {
            return bad(
                "min_group_size",
                format!(
                    "the smallest group is 2 to the ideal size, not {}",
                    self.min_group_size
                ),
            );
        }
        if self.main_division_groups == 0 {
            return bad(
                "main_division_groups",
                "the main division has at least one group".into(),
            );
        }
        if self.growth_factor < 2 {
            return bad(
                "growth_factor",
                "each division may be at least twice the one above".into(),
            );
        }
        if self.cap_base == 0 || self.min_division_size == 0 || self.min_season_players == 0 {
            return bad("cap_base", "sizes must be positive".into());
        }
        if self.win_points == 0 || self.jigo_points > self.win_points {
            return bad(
                "win_points",
                "a win is worth more than nothing and at least a jigo".into(),
            );
        }
        // SODOS is counted exactly in units of 1 / (2 × a win in halves)
        // gamepoint (ARB-R39): a win of at most 1000 gamepoints keeps every
        // sum far inside 64 bits.
        if self.win_points > MOST_WIN_HALVES {
            return bad(
                "win_points",
                format!("a win is worth at most {} gamepoints", MOST_WIN_HALVES / 2),
            );
        }
        Ok(())
    }
}
