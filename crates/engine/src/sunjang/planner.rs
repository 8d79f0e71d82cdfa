//! The season planner: from the previous season's final standings (or, for a
//! first season, from the registrations), the withdrawals, the new players
//! and the division restrictions per rank, the next season's divisions and
//! groups (sections A, B, C and E.1 of sunjang-league.txt).
//!
//! The plan is made in this order:
//!
//! 1. Section B on the previous season as played (ARB-R32): each division's
//!    direct promotions (its group leaders, topped up from the merged ranking
//!    to at least two, B.1, B.3, SJ-R5) and its demotions (as many as the
//!    direct promotions of the division below, one more per group of exactly
//!    10, B.2, SJ-R6), never overlapping (B.5, SJ-R14). Then the withdrawals
//!    forfeit their merits: their spots are lost, not passed on (B.4).
//! 2. Each entrant's default division: the one section B assures him, or,
//!    higher, the lowest division his rank allows (C.3, SJ-R11); a new player
//!    the lowest division his rank allows, and with no restriction (or a
//!    provisional rank that moves nobody, ARB-R33) a new division below the
//!    previous season's lowest (ARB-R30).
//! 3. The divisions top down (E.1): a division takes the players whose
//!    default it is (refused when the lowest division restrictions would take
//!    it over its limit, A.i.4, C.3, ARB-R35); its free space (A.i.4, A.i.5,
//!    SJ-R10; a new division's ideal size, ARB-R31) goes to the promotable
//!    players below, whatever their division, by D.2 (C.4, C.5, ARB-R37).
//!    A division under its minimum (A.i.1, A.i.2) or over thrice the one
//!    above (A.i.2) is mended by E.1 promotions (ARB-R34).
//! 4. Each division's seeding by rank (A.ii.2; ties by D.2, ties nothing
//!    separates in registration order, ARB-R36), its number of groups
//!    (A.i.1, A.i.3, footnote 1, SJ-R2), the even split (footnote 3) and the
//!    zig-zag (footnote 5, SJ-R3).
//!
//! Every placement carries its reason and an explanation naming its rule;
//! the division-level decisions are the plan's notes.
//!
//! Performance: the planner is linear in the players apart from sorting.
//! Section D.2 is evaluated by [`D2`], which gives the same order as
//! [`RankingData::secondary_cascade`] (tested against it) without recording
//! every split, so that a division of tens of thousands of players sorts in
//! milliseconds.

use crate::explain::ordinal;
use std::cmp::Reverse;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use crate::RuleError;
use crate::explain::Explanation;

use super::ranking::{CRITERIA, RankingData, SECONDARY};
use super::rules::GroupCount;
use super::{Division, GroupId, PlayerId, Rank, Restrictions, SunjangRules, division_letter};

/// Ruling: where a new player goes (see the module documentation).
pub const ARB_NEW_PLAYER: &str = "ARB-R30";
/// Ruling: new divisions and first seasons.
pub const ARB_NEW_DIVISION: &str = "ARB-R31";
/// Ruling: section B is counted on the previous season as played.
pub const ARB_COUNTING: &str = "ARB-R32";
/// Ruling: provisional players when they are not promotable.
pub const ARB_PROVISIONAL: &str = "ARB-R33";
/// Ruling: how E.1 mends a division's size.
pub const ARB_E1: &str = "ARB-R34";
/// Ruling: the limit of A.i.4 against C.3 and against assured spots.
pub const ARB_CAP: &str = "ARB-R35";
/// Ruling: ties that D.2 does not separate.
pub const ARB_TIES: &str = "ARB-R36";
/// Ruling: free space is filled top down from every division below.
pub const ARB_PRIORITY: &str = "ARB-R37";

/// One division of the previous season, as it finished.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PreviousDivision {
    /// The merged section-D ranking of the whole division, best first
    /// (SJ-R5), withdrawn players included.
    pub ranking: Vec<PlayerId>,
    /// The leader of each group, in group order (`group_leaders[0]` led
    /// group 1).
    pub group_leaders: Vec<PlayerId>,
    /// The size of each group, in group order.
    pub groups: Vec<u32>,
}

/// The previous season: its divisions, A first.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PreviousSeason {
    pub divisions: Vec<PreviousDivision>,
}

/// What the planner reads.
#[derive(Debug, Clone, Copy)]
pub struct PlanInput<'a> {
    pub rules: &'a SunjangRules,
    pub restrictions: &'a Restrictions,
    /// Every registered player's figures (indexed by [`PlayerId::index`]),
    /// the previous season's performance (for the explanations) and the
    /// organizer's tiebreak record (D.2).
    pub data: RankingData<'a>,
    /// `None` for a first season.
    pub previous: Option<&'a PreviousSeason>,
    /// Everyone playing next season, in registration order. Previous
    /// players absent from it have withdrawn (B.4).
    pub entrants: &'a [PlayerId],
}

/// Why a player is where the plan puts him.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlacementReason {
    /// B.1 (a group leader) or B.3 (topped up to at least two from the
    /// merged ranking, SJ-R5).
    DirectPromotion {
        from: Division,
        leader_of: Option<GroupId>,
    },
    /// B.2, B.3: `place` in the merged ranking of `from`.
    Demotion { from: Division, place: usize },
    /// Neither promoted nor demoted (in A, also the final-round
    /// qualifiers).
    Middle { division: Division },
    /// C.5: into free space, from the division otherwise assured (`None`
    /// for a new player).
    PromotionByRank { from: Option<Division> },
    /// C.3 (SJ-R11): up to the lowest division the rank allows.
    ForcedPromotion { from: Option<Division> },
    /// E.1: promoted from `from` because a division's size broke A.i.1 or
    /// A.i.2 (ARB-R34).
    SizeOverride { from: Division },
    /// A new player placed by the restrictions for his rank, or in a new
    /// division (ARB-R30, ARB-R31).
    NewPlayer,
    /// A first season: placed by rank (ARB-R31).
    FirstSeason,
}

impl PlacementReason {
    /// Whether the placement reads the previous season's figures (its
    /// rankings, group leaders or divisions): what a carried season's
    /// figures stand in for (ARB-R77).
    pub fn reads_previous_season(&self) -> bool {
        match self {
            PlacementReason::DirectPromotion { .. }
            | PlacementReason::Demotion { .. }
            | PlacementReason::Middle { .. }
            | PlacementReason::SizeOverride { .. } => true,
            PlacementReason::PromotionByRank { from }
            | PlacementReason::ForcedPromotion { from } => from.is_some(),
            PlacementReason::NewPlayer | PlacementReason::FirstSeason => false,
        }
    }
}

/// One entrant's place in the next season.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    pub player: PlayerId,
    pub group: GroupId,
    /// 1-based seed within the division (A.ii.2).
    pub seed: u32,
    pub reason: PlacementReason,
    pub explanation: Explanation,
}

/// One division of the plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedDivision {
    /// Each group's players in seed order; groups smallest first (SJ-R3).
    pub groups: Vec<Vec<PlayerId>>,
}

impl PlannedDivision {
    /// The number of players.
    pub fn size(&self) -> usize {
        self.groups.iter().map(Vec::len).sum()
    }
}

/// The next season.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// A first.
    pub divisions: Vec<PlannedDivision>,
    /// Exactly one per entrant, in entrant order.
    pub placements: Vec<Placement>,
    /// Division-level decisions: section B's counts, sizes, group counts,
    /// limits, E.1 overrides, seeding ties.
    pub notes: Vec<Explanation>,
}

/// The planner's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlanOutcome {
    Planned(Plan),
    /// Footnote 2: fewer than 5 players; the title is void.
    Cancelled {
        players: usize,
        explanation: Explanation,
    },
}

const NONE: u32 = u32::MAX;

const CLAUSE_A1: &str = "Sunjang A.i.1";
const CLAUSE_A4: &str = "Sunjang A.i.4";
const CLAUSE_A3: &str = "Sunjang A.i.3";
const CLAUSE_AII2: &str = "Sunjang A.ii.2";
const CLAUSE_B1: &str = "Sunjang B.1";
const CLAUSE_B2: &str = "Sunjang B.2";
const CLAUSE_B3: &str = "Sunjang B.3";
const CLAUSE_B4: &str = "Sunjang B.4";
const CLAUSE_B5: &str = "Sunjang B.5";
const CLAUSE_MIDDLE: &str = "Sunjang Definitions: Middle positions";
const CLAUSE_C3: &str = "Sunjang C.3";
const CLAUSE_C5: &str = "Sunjang C.5";
const CLAUSE_E1: &str = "Sunjang E.1";
const CLAUSE_RESTRICTIONS: &str = "Sunjang Definitions: Division restrictions per rank";
const CLAUSE_CANCEL: &str = "Sunjang footnote 2";
const CLAUSE_INPUT: &str = "Sunjang season planner";

/// How many names a note lists before it counts the rest.
const NOTE_NAMES: usize = 8;

/// The number of groups of a division of `players` (A.i.3; SJ-R2), or
/// `None` when no count keeps every group within the deviation of the ideal
/// size and at least `min_group_size`, and at most thrice `groups_above`.
///
/// The main division (`main`) has `main_division_groups` groups (A.i.1), or
/// one when fewer than `single_group_below` play (footnote 1).
pub fn group_count(
    rules: &SunjangRules,
    players: u32,
    groups_above: Option<u32>,
    main: bool,
) -> Option<u32> {
    if players == 0 {
        return None;
    }
    if main {
        if players < rules.single_group_below {
            return Some(1);
        }
        let g = rules.main_division_groups;
        return (players >= g.saturating_mul(rules.min_group_size)).then_some(g);
    }
    let lo = players.div_ceil(rules.max_group_size().max(1));
    let mut hi = players / rules.min_group_size.max(1);
    if let Some(above) = groups_above {
        hi = hi.min(above.saturating_mul(rules.growth_factor));
    }
    if lo == 0 || lo > hi {
        return None;
    }
    match rules.group_count {
        GroupCount::Fewest => Some(lo),
        GroupCount::NearestIdeal => {
            // Nearest average to the ideal: compare |n - ideal·g| / g
            // exactly; on equal distance the fewer groups.
            let ideal = u64::from(rules.ideal_group_size);
            let n = u64::from(players);
            let mut best = lo;
            for g in lo + 1..=hi {
                let (gb, gg) = (u64::from(best), u64::from(g));
                let db = n.abs_diff(ideal * gb) * gg;
                let dg = n.abs_diff(ideal * gg) * gb;
                if dg < db {
                    best = g;
                }
            }
            Some(best)
        }
    }
}

/// The sizes of `groups` groups of `players` split evenly (footnote 3),
/// smallest first (SJ-R3).
pub fn group_sizes(players: u32, groups: u32) -> Vec<u32> {
    if groups == 0 {
        return Vec::new();
    }
    let (q, r) = (players / groups, players % groups);
    (0..groups)
        .map(|i| q + u32::from(i >= groups - r))
        .collect()
}

/// The group (index into `group_sizes`) of each seed, in seed order: a snake
/// row by row (1 2 3, 3 2 1, ...), a full group dropping out (SJ-R3).
/// Seeds beyond the groups' room get no group.
fn snake(group_sizes: &[u32], players: usize) -> Vec<usize> {
    let g = group_sizes.len();
    let mut count = vec![0u32; g];
    let mut out = Vec::with_capacity(players);
    let mut forward = true;
    while out.len() < players {
        let before = out.len();
        for k in 0..g {
            let j = if forward { k } else { g - 1 - k };
            if out.len() < players && count[j] < group_sizes[j] {
                out.push(j);
                count[j] += 1;
            }
        }
        if out.len() == before {
            break;
        }
        forward = !forward;
    }
    out
}

/// Zig-zag seeding (footnote 5, SJ-R3): the players in seed order dealt to
/// the groups (in group order, smallest first) in a snake, a full group
/// dropping out, so that the smaller groups get the top seeds.
pub fn zigzag(players_in_seed_order: &[PlayerId], group_sizes: &[u32]) -> Vec<Vec<PlayerId>> {
    let mut groups: Vec<Vec<PlayerId>> = group_sizes
        .iter()
        .map(|&s| Vec::with_capacity(s as usize))
        .collect();
    for (p, j) in players_in_seed_order
        .iter()
        .zip(snake(group_sizes, players_in_seed_order.len()))
    {
        groups[j].push(*p);
    }
    groups
}

// ---------------------------------------------------------------------
// D.2, fast.

/// A player to rank and his position in the listing (registration order).
type Item = (u32, PlayerId);

/// Section D.2 as sort keys: the same order as
/// [`RankingData::secondary_cascade`] (each criterion evaluated only among
/// the players still tied, ratings within the virtual-tie distance chained,
/// SJ-R13), with the ties nothing separates put in registration order
/// (ARB-R36), and without a record of every split.
pub(crate) struct D2 {
    /// Overall rank, overall rating, correspondence rank, correspondence
    /// rating, "did not give way", by player index.
    keys: Vec<[i64; 5]>,
    tolerance: [i64; 6],
    live: Vec<(PlayerId, PlayerId)>,
}

/// A D.2 order: the players best first, and for each the criterion (index
/// of D.2, 0 = overall rank) that separated him from the player above, or
/// `None` when nothing did (a tie, or the first). Two players are separated
/// by the lowest criterion among the splits between them.
pub(crate) struct Ranked {
    pub order: Vec<Item>,
    pub split: Vec<Option<u8>>,
}

impl D2 {
    pub(crate) fn new(data: &RankingData) -> D2 {
        let mut gave_way = vec![false; data.info.len()];
        for p in &data.tiebreaks.gave_way {
            if let Some(g) = gave_way.get_mut(p.index()) {
                *g = true;
            }
        }
        let keys = data
            .info
            .iter()
            .zip(&gave_way)
            .map(|(i, &g)| {
                [
                    i.rank.strength(),
                    i64::from(i.rating),
                    i.corr_rank.map_or(0, Rank::strength),
                    i.corr_rating.map_or(i64::MIN / 4, i64::from),
                    i64::from(!g),
                ]
            })
            .collect();
        let vt = i64::from(data.rules.virtual_tie_rating);
        D2 {
            keys,
            tolerance: [0, vt, 0, vt, 0, 0],
            live: data.tiebreaks.live_matches.clone(),
        }
    }

    fn values(&self, step: usize, set: &[Item]) -> Vec<i64> {
        if step < 5 {
            return set
                .iter()
                .map(|t| self.keys.get(t.1.index()).map_or(0, |k| k[step]))
                .collect();
        }
        if self.live.is_empty() {
            return vec![0; set.len()];
        }
        let members: HashSet<PlayerId> = set.iter().map(|t| t.1).collect();
        let mut wins: HashMap<PlayerId, i64> = HashMap::new();
        for (w, l) in &self.live {
            if members.contains(w) && members.contains(l) {
                *wins.entry(*w).or_default() += 1;
            }
        }
        set.iter()
            .map(|t| wins.get(&t.1).copied().unwrap_or(0))
            .collect()
    }

    /// Rank `listing` (in registration order: its positions are the
    /// items' first field).
    pub(crate) fn rank(&self, listing: Vec<Item>) -> Ranked {
        let mut out = Ranked {
            order: Vec::with_capacity(listing.len()),
            split: Vec::with_capacity(listing.len()),
        };
        self.rank_into(listing, 0, &mut out);
        out
    }

    fn rank_into(&self, tied: Vec<Item>, from: usize, out: &mut Ranked) {
        if tied.len() < 2 {
            for t in tied {
                out.order.push(t);
                out.split.push(None);
            }
            return;
        }
        for step in from..6 {
            let values = self.values(step, &tied);
            let mut scored: Vec<(Item, i64)> = tied.iter().copied().zip(values).collect();
            scored.sort_by_key(|s| Reverse(s.1));
            let tol = self.tolerance[step];
            // A block is anchored at its best value (ARB-R51), as in the
            // cascade.
            let mut bounds = vec![0];
            for i in 1..scored.len() {
                let top = bounds.last().map_or(0, |&b| scored[b].1);
                if top.saturating_sub(scored[i].1) > tol {
                    bounds.push(i);
                }
            }
            if bounds.len() == 1 {
                continue;
            }
            bounds.push(scored.len());
            for k in 0..bounds.len() - 1 {
                let block: Vec<Item> = scored[bounds[k]..bounds[k + 1]]
                    .iter()
                    .map(|s| s.0)
                    .collect();
                let start = out.order.len();
                self.rank_into(block, step + 1, out);
                if k > 0 {
                    out.split[start] = u8::try_from(step).ok();
                }
            }
            return;
        }
        // Nothing separates them: registration order (ARB-R36).
        let mut tied = tied;
        tied.sort_by_key(|t| t.0);
        for t in tied {
            out.order.push(t);
            out.split.push(None);
        }
    }
}

// ---------------------------------------------------------------------
// The planner.

/// What section B gives a returning player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Base {
    New,
    Promoted {
        from: Division,
        leader_of: Option<GroupId>,
        place: usize,
        of: usize,
    },
    Demoted {
        from: Division,
        place: usize,
        of: usize,
    },
    Middle {
        division: Division,
        place: usize,
        of: usize,
        /// A's direct promotions: the final-round qualifiers.
        qualifier: bool,
        leader_of: Option<GroupId>,
    },
}

/// How a player came to his division in the plan.
#[derive(Debug, Clone, PartialEq, Eq)]
enum How {
    /// His default division (assured, forced, or by the restrictions).
    Default,
    /// C.5: the first promotable player left out (and the criterion that
    /// put this one before him: `None` when they are tied).
    Rank {
        over: Option<(PlayerId, Option<u8>)>,
    },
    /// Filled into a new division (ARB-R31).
    NewDivision,
    /// E.1.
    Override {
        from: Division,
        cause: String,
        direct: Option<(usize, usize)>,
    },
}

#[derive(Debug, Clone)]
struct Entry {
    player: PlayerId,
    base: Base,
    /// The restriction for his rank, if it applies to him.
    limits: Option<(Division, Division)>,
    /// Provisional and not promotable (C.1 addendum, ARB-R33).
    exempt: bool,
    /// The division section B assures him.
    assured: Option<Division>,
    /// The default division (`NONE`: below every division).
    floor: u32,
    /// The highest division he may be promoted to by rank (`NONE`: none).
    ceil: u32,
    /// C.3 raised his default above his assured division.
    forced: bool,
    division: Option<Division>,
    how: How,
}

struct Planner<'a> {
    input: &'a PlanInput<'a>,
    rules: &'a SunjangRules,
    d2: D2,
    entries: Vec<Entry>,
    prev_sizes: Vec<usize>,
    n_prev: u32,
    first_season: bool,
    /// Entry indexes per division of the plan.
    divs: Vec<Vec<usize>>,
    notes: Vec<Explanation>,
    /// Notes on E.1 overrides, kept apart so that they follow the notes on
    /// section B.
    override_notes: Vec<Explanation>,
    /// Divisions whose limit the plan surpasses, and why.
    over_limit: Vec<(Division, String)>,
}

/// How many players of a division of `size` players in `groups` groups are
/// promoted directly: its group leaders, and at least
/// `min_direct_promotions` (B.1, B.3). The planner, the projections and the
/// clinch analysis all count with this.
pub fn direct_promotions(groups: usize, size: usize, rules: &SunjangRules) -> usize {
    groups.max(rules.min_direct_promotions as usize).min(size)
}

/// How many players a division demotes (B.2, SJ-R6, B.5 with SJ-R14):
/// as many as the direct promotions of the division below, plus one for
/// every group of exactly 10 players of this division, reduced so that
/// they do not overlap the `promoted` players of this division.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DemotionCount {
    /// The direct promotions of the division below (B.2's "as many").
    pub below_promotions: usize,
    /// Groups of exactly 10 players in this division (SJ-R6).
    pub tens: usize,
    /// `below_promotions + tens`, before B.5.
    pub wanted: usize,
    /// What the division demotes: `wanted`, at most the players who do not
    /// promote (B.5; SJ-R14).
    pub count: usize,
}

/// The one count of demotions, read by the planner (the notes and the
/// placements of section B), the final round (footnote 8: who has "fallen
/// below demotion line"), the projections and the clinch analysis.
/// `group_sizes` are the sizes of the division's groups, `promoted` how
/// many of it promote (for A, the final's automatic qualifiers), `below`
/// the number of groups and players of the division directly below
/// (`None` for the lowest, which demotes no one).
pub fn demotion_count(
    group_sizes: &[usize],
    promoted: usize,
    below: Option<(usize, usize)>,
    rules: &SunjangRules,
) -> DemotionCount {
    let Some((below_groups, below_size)) = below else {
        return DemotionCount {
            below_promotions: 0,
            tens: 0,
            wanted: 0,
            count: 0,
        };
    };
    let below_promotions = direct_promotions(below_groups, below_size, rules);
    let tens = group_sizes.iter().filter(|&&g| g == 10).count();
    let wanted = below_promotions + tens;
    let room = group_sizes.iter().sum::<usize>().saturating_sub(promoted);
    DemotionCount {
        below_promotions,
        tens,
        wanted,
        count: wanted.min(room),
    }
}

/// [`demotion_count`] of a previous season's division.
pub fn division_demotions(
    division: &PreviousDivision,
    below: Option<&PreviousDivision>,
    promoted: usize,
    rules: &SunjangRules,
) -> DemotionCount {
    let sizes: Vec<usize> = division.groups.iter().map(|&g| g as usize).collect();
    demotion_count(
        &sizes,
        promoted,
        below.map(|b| (b.groups.len(), b.groups.iter().map(|&g| g as usize).sum())),
        rules,
    )
}

fn letter(d: Division) -> String {
    division_letter(d)
}

fn number_word(n: u32) -> String {
    match n {
        1 => "one".into(),
        2 => "two".into(),
        3 => "three".into(),
        _ => n.to_string(),
    }
}

fn to_usize(x: u64) -> usize {
    usize::try_from(x).unwrap_or(usize::MAX)
}

fn bad_input(message: String, field: &str) -> RuleError {
    RuleError::new(CLAUSE_INPUT, message).field(field)
}

fn validate(input: &PlanInput) -> Result<(), RuleError> {
    let n = input.data.info.len();
    let known = |p: PlayerId| p.0 >= 1 && p.index() < n;
    let mut seen = vec![false; n];
    for (i, &p) in input.entrants.iter().enumerate() {
        if !known(p) {
            return Err(bad_input(
                format!("entrant {p} is not a registered player"),
                &format!("entrants[{i}]"),
            ));
        }
        if seen[p.index()] {
            return Err(bad_input(
                format!(
                    "{} is entered twice: each player plays in one division",
                    input.data.info[p.index()].name
                ),
                &format!("entrants[{i}]"),
            ));
        }
        seen[p.index()] = true;
    }
    if let Some(prev) = input.previous {
        // The division (plus one) each previous player was in.
        let mut owner = vec![0u32; n];
        for (d, div) in prev.divisions.iter().enumerate() {
            let field = format!("previous.divisions[{d}]");
            if div.ranking.is_empty() {
                return Err(bad_input(
                    format!(
                        "division {} of the previous season has no players",
                        letter(d as Division)
                    ),
                    &field,
                ));
            }
            let total: u64 = div.groups.iter().map(|&g| u64::from(g)).sum();
            if total != div.ranking.len() as u64 || div.groups.contains(&0) {
                return Err(bad_input(
                    format!(
                        "division {}: the groups ({total} players) do not add up to the {} players of its ranking",
                        letter(d as Division),
                        div.ranking.len()
                    ),
                    &field,
                ));
            }
            for &p in &div.ranking {
                if !known(p) {
                    return Err(bad_input(
                        format!("{p} in the previous season is not a registered player"),
                        &field,
                    ));
                }
                if owner[p.index()] != 0 {
                    return Err(bad_input(
                        format!(
                            "{} is in the previous season twice",
                            input.data.info[p.index()].name
                        ),
                        &field,
                    ));
                }
                owner[p.index()] = d as u32 + 1;
            }
            if div.group_leaders.len() > div.groups.len() {
                return Err(bad_input(
                    format!(
                        "division {} has more group leaders than groups",
                        letter(d as Division)
                    ),
                    &field,
                ));
            }
            let mut leaders = HashSet::new();
            for &l in &div.group_leaders {
                if !known(l) || owner[l.index()] != d as u32 + 1 || !leaders.insert(l) {
                    return Err(bad_input(
                        format!(
                            "the group leader {l} is not (once) in the ranking of division {}",
                            letter(d as Division)
                        ),
                        &field,
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Plan the next season (see the module documentation). Refused, naming the
/// rules in conflict and what the organizer can change, when they cannot all
/// hold; cancelled under 5 players (footnote 2).
pub fn plan(input: &PlanInput) -> Result<PlanOutcome, RuleError> {
    input.rules.check()?;
    input.restrictions.check()?;
    validate(input)?;
    let players = input.entrants.len();
    if players < input.rules.min_season_players as usize {
        return Ok(PlanOutcome::Cancelled {
            players,
            explanation: Explanation::new(
                CLAUSE_CANCEL,
                &[],
                format!(
                    "{players} player(s) entered, fewer than {}: the season is cancelled and the title declared void for the year (footnote 2)",
                    input.rules.min_season_players
                ),
            ),
        });
    }
    let mut planner = Planner::new(input);
    planner.place_all()?;
    Ok(PlanOutcome::Planned(planner.finish()))
}

impl<'a> Planner<'a> {
    fn name(&self, p: PlayerId) -> &str {
        self.input
            .data
            .info
            .get(p.index())
            .map_or("?", |i| i.name.as_str())
    }

    fn names(&self, players: &[PlayerId]) -> String {
        Self::names_of(self.input.data.info, players)
    }

    fn new(input: &'a PlanInput<'a>) -> Planner<'a> {
        let rules = input.rules;
        let info = input.data.info;
        let prev_divs: &[PreviousDivision] = input.previous.map_or(&[], |p| &p.divisions);
        let n_prev = prev_divs.len() as Division;
        let mut entering = vec![false; info.len()];
        for p in input.entrants {
            entering[p.index()] = true;
        }
        let mut base: Vec<Base> = vec![Base::New; info.len()];
        let mut notes = Vec::new();
        // Section B, division by division, on the season as played.
        let promotions: Vec<usize> = prev_divs
            .iter()
            .map(|div| direct_promotions(div.groups.len(), div.ranking.len(), rules))
            .collect();
        for (d, div) in prev_divs.iter().enumerate() {
            let dd = d as Division;
            let of = div.ranking.len();
            let leader_of: HashMap<PlayerId, GroupId> = div
                .group_leaders
                .iter()
                .enumerate()
                .map(|(g, &p)| (p, GroupId::of(dd, g as u32 + 1, div.groups.len())))
                .collect();
            let mut promoted: Vec<PlayerId> = div
                .ranking
                .iter()
                .copied()
                .filter(|p| leader_of.contains_key(p))
                .collect();
            let mut promoted_set: HashSet<PlayerId> = promoted.iter().copied().collect();
            for &p in &div.ranking {
                if promoted.len() >= promotions[d] {
                    break;
                }
                if promoted_set.insert(p) {
                    promoted.push(p);
                }
            }
            let DemotionCount {
                tens,
                wanted,
                count: demotions,
                ..
            } = division_demotions(div, prev_divs.get(d + 1), promoted.len(), rules);
            // The lowest of the merged ranking who do not promote (B.3,
            // B.5): a reduction of SJ-R14 spares nobody in particular, as
            // every player who does not promote is then demoted.
            let demoted: Vec<PlayerId> = div
                .ranking
                .iter()
                .rev()
                .copied()
                .filter(|p| !promoted_set.contains(p))
                .take(demotions)
                .collect();
            let demoted_set: HashSet<PlayerId> = demoted.iter().copied().collect();
            for (i, &p) in div.ranking.iter().enumerate() {
                let place = i + 1;
                let leader_of = |p: PlayerId| leader_of.get(&p).copied();
                base[p.index()] = if promoted_set.contains(&p) && d > 0 {
                    Base::Promoted {
                        from: dd,
                        leader_of: leader_of(p),
                        place,
                        of,
                    }
                } else if demoted_set.contains(&p) {
                    Base::Demoted {
                        from: dd,
                        place,
                        of,
                    }
                } else {
                    Base::Middle {
                        division: dd,
                        place,
                        of,
                        qualifier: promoted_set.contains(&p),
                        leader_of: leader_of(p),
                    }
                };
            }
            // The notes on section B.
            let l = letter(dd);
            let mut text = format!(
                "{l} (previous season, {of} players in {} group(s)): ",
                div.groups.len()
            );
            let mut rulings = vec!["SJ-R5", ARB_COUNTING];
            if d == 0 {
                let _ = write!(
                    text,
                    "{} qualify for the final round as direct promotions (B.1)",
                    promoted.len()
                );
            } else {
                let _ = write!(
                    text,
                    "{} direct promotion(s) to {}: {} group leader(s) (B.1){}",
                    promoted.len(),
                    letter(dd - 1),
                    div.group_leaders.len(),
                    if promoted.len() > div.group_leaders.len() {
                        format!(
                            " and {} more from the merged ranking, at least {} per division (B.1, B.3)",
                            promoted.len() - div.group_leaders.len(),
                            number_word(rules.min_direct_promotions)
                        )
                    } else {
                        String::new()
                    }
                );
            }
            if d + 1 < prev_divs.len() {
                let _ = write!(
                    text,
                    "; {demotions} demotion(s) to {}: as many as the {} direct promotion(s) of {} (B.2)",
                    letter(dd + 1),
                    promotions[d + 1],
                    letter(dd + 1)
                );
                if tens > 0 {
                    let _ = write!(
                        text,
                        ", plus {tens} for {tens} group(s) of 10 players (B.2)"
                    );
                    rulings.push("SJ-R6");
                }
                if demotions < wanted {
                    let _ = write!(
                        text,
                        ", reduced from {wanted} so that direct promotions and demotions do not overlap (B.5)"
                    );
                    rulings.push("SJ-R14");
                }
            } else {
                text.push_str("; no demotions: no division below");
            }
            notes.push(Explanation {
                clause: if demotions < wanted {
                    CLAUSE_B5
                } else {
                    CLAUSE_B2
                },
                rulings,
                text,
            });
            let lost_up: Vec<PlayerId> = promoted
                .iter()
                .copied()
                .filter(|p| !entering[p.index()])
                .collect();
            let lost_down: Vec<PlayerId> = demoted
                .iter()
                .copied()
                .filter(|p| !entering[p.index()])
                .collect();
            if !lost_up.is_empty() && d > 0 {
                notes.push(Explanation::new(
                    CLAUSE_B4,
                    &[ARB_COUNTING],
                    format!(
                        "{} withdrew: {} direct promotion(s) from {l} lost, not passed on (B.4)",
                        Self::names_of(info, &lost_up),
                        lost_up.len()
                    ),
                ));
            }
            if !lost_down.is_empty() {
                notes.push(Explanation::new(
                    CLAUSE_B4,
                    &[ARB_COUNTING],
                    format!(
                        "{} withdrew: {} demotion(s) from {l} lost, not passed on (B.4)",
                        Self::names_of(info, &lost_down),
                        lost_down.len()
                    ),
                ));
            }
        }
        // Each entrant's default.
        let mut entries = Vec::with_capacity(input.entrants.len());
        for &p in input.entrants {
            let pi = &info[p.index()];
            let b = base[p.index()];
            let exempt = pi.provisional && !rules.provisional_promotable;
            let limits = if exempt {
                None
            } else {
                input.restrictions.limits(pi.rank)
            };
            let assured = match b {
                Base::New => None,
                Base::Promoted { from, .. } => Some(from - 1),
                Base::Demoted { from, .. } => Some(from + 1),
                Base::Middle { division, .. } => Some(division),
            };
            let (floor, forced) = match (assured, limits) {
                (Some(a), Some((_, low))) if low < a => (low, true),
                (Some(a), _) => (a, false),
                (None, Some((_, low))) => (low, false),
                (None, None) => (NONE, false),
            };
            let ceil = match (exempt, assured, limits) {
                (true, Some(_), _) => NONE,
                (true, None, _) => n_prev,
                (false, _, Some((high, _))) => high,
                (false, _, None) => 0,
            };
            entries.push(Entry {
                player: p,
                base: b,
                limits,
                exempt,
                assured,
                floor,
                ceil,
                forced,
                division: None,
                how: How::Default,
            });
        }
        Planner {
            input,
            rules,
            d2: D2::new(&input.data),
            entries,
            prev_sizes: prev_divs.iter().map(|d| d.ranking.len()).collect(),
            n_prev,
            first_season: input.previous.is_none(),
            divs: Vec::new(),
            notes,
            override_notes: Vec::new(),
            over_limit: Vec::new(),
        }
    }

    fn names_of(info: &[super::PlayerInfo], players: &[PlayerId]) -> String {
        let mut s = players
            .iter()
            .take(NOTE_NAMES)
            .map(|p| info.get(p.index()).map_or("?", |i| i.name.as_str()))
            .collect::<Vec<_>>()
            .join(", ");
        if players.len() > NOTE_NAMES {
            let _ = write!(s, " and {} more", players.len() - NOTE_NAMES);
        }
        s
    }

    /// The smallest size of division `d`: two groups of 5 on A when 10 or
    /// more play (A.i.1, footnote 1), otherwise 5 (A.i.2).
    fn min_size(&self, d: usize) -> usize {
        let r = self.rules;
        let division = r.min_division_size.max(r.min_group_size) as usize;
        if d == 0 && self.entries.len() >= r.single_group_below as usize {
            division.max(r.main_division_groups.saturating_mul(r.min_group_size) as usize)
        } else {
            division
        }
    }

    fn cap(&self, d: usize) -> usize {
        to_usize(self.rules.cap(d as Division))
    }

    /// The ideal size of a new division: the main division's groups of the
    /// ideal size, tripling per division (ARB-R31).
    fn ideal(&self, d: usize) -> usize {
        let r = self.rules;
        let mut s = u64::from(r.main_division_groups) * u64::from(r.ideal_group_size);
        for _ in 0..d {
            s = s.saturating_mul(u64::from(r.growth_factor));
        }
        to_usize(s)
    }

    fn is_new_division(&self, d: usize) -> bool {
        d >= self.n_prev as usize
    }

    /// The size C.5 may fill division `d` up to: its previous size (A.i.5,
    /// SJ-R10) or, for a new division, its ideal size (ARB-R31); at least
    /// its minimum (A.i.5 yields to A.i.1 and A.i.2); never over its limit
    /// (A.i.4) nor thrice the division above (A.i.2).
    fn target(&self, d: usize) -> usize {
        let base = if self.is_new_division(d) {
            self.ideal(d)
        } else {
            self.prev_sizes[d].max(self.min_size(d))
        };
        let above = if d == 0 {
            usize::MAX
        } else {
            self.divs[d - 1]
                .len()
                .saturating_mul(self.rules.growth_factor as usize)
        };
        base.min(self.cap(d)).min(above)
    }

    fn place(&mut self, e: usize, d: usize, how: How) {
        self.entries[e].division = Some(d as Division);
        self.entries[e].how = how;
        self.divs[d].push(e);
    }

    fn items(&self, es: &[usize]) -> Vec<Item> {
        es.iter()
            .map(|&e| (e as u32, self.entries[e].player))
            .collect()
    }

    /// `es` by D.2 (registration order first, ARB-R36).
    fn rank(&self, es: &[usize]) -> Ranked {
        let mut sorted = es.to_vec();
        sorted.sort_unstable();
        self.d2.rank(self.items(&sorted))
    }

    /// Refuse when the lowest division restrictions would take `d` over its
    /// limit (A.i.4, C.3, ARB-R35).
    fn check_cap(&mut self, d: usize, must: &[usize]) -> Result<(), RuleError> {
        let cap = self.cap(d);
        if must.len() <= cap {
            return Ok(());
        }
        let restricted: Vec<usize> = must
            .iter()
            .copied()
            .filter(|&e| {
                let x = &self.entries[e];
                x.forced || (x.base == Base::New && x.floor as usize == d)
            })
            .collect();
        let l = letter(d as Division);
        if restricted.is_empty() {
            self.over_limit.push((
                d as Division,
                format!(
                    "{l}: {} players have a spot assured in {l} by section B, more than its limit of {cap} (A.i.4, SJ-R1); assured spots are kept (ARB-R35)",
                    must.len()
                ),
            ));
            return Ok(());
        }
        let ranks: Vec<Rank> = restricted
            .iter()
            .map(|&e| self.input.data.info[self.entries[e].player.index()].rank)
            .collect();
        let strongest = ranks.iter().max().copied().unwrap_or(Rank::Kyu(30));
        let weakest = ranks.iter().min().copied().unwrap_or(Rank::Kyu(30));
        let below = letter(d as Division + 1);
        Err(RuleError::new(
            format!("{CLAUSE_A4}; {CLAUSE_C3}"),
            format!(
                "division {l} would have {} players, more than its limit of {cap} (A.i.4, SJ-R1): the lowest division restriction puts {} player(s) of ranks {weakest} to {strongest} there (C.3), and no rule may place them lower. Revise the division restrictions (A.i.4: \"If necessary, division restrictions should be revised\"; C.3): let some of these ranks play in {below}",
                must.len(),
                restricted.len()
            ),
        )
        .field("restrictions"))
    }

    /// Sections A, C and E.1, top down.
    fn place_all(&mut self) -> Result<(), RuleError> {
        let mut pending: Vec<usize> = (0..self.entries.len()).collect();
        let mut d = 0usize;
        while !pending.is_empty() {
            self.divs.push(Vec::new());
            // The players whose default division this is.
            let must: Vec<usize> = pending
                .iter()
                .copied()
                .filter(|&e| self.entries[e].floor as usize == d)
                .collect();
            self.check_cap(d, &must)?;
            for e in must {
                self.place(e, d, How::Default);
            }
            pending.retain(|&e| self.entries[e].division.is_none());
            // Free space: C.5 (ARB-R37), or a new division's fill (ARB-R31).
            let target = self.target(d);
            let size = self.divs[d].len();
            if target > size && !pending.is_empty() {
                let dd = d as u32;
                let cands: Vec<usize> = pending
                    .iter()
                    .copied()
                    .filter(|&e| {
                        let x = &self.entries[e];
                        x.floor > dd && x.ceil <= dd
                    })
                    .collect();
                if !cands.is_empty() {
                    let ranked = self.rank(&cands);
                    let take = (target - size).min(ranked.order.len());
                    let new_division = self.is_new_division(d);
                    let boundary = ranked.order.get(take).map(|t| t.1);
                    // The criterion between each promoted player and the
                    // first left out: the lowest split between them.
                    let mut over: Vec<Option<(PlayerId, Option<u8>)>> = vec![None; take];
                    if let Some(b) = boundary {
                        // Backwards, the running minimum of the splits.
                        let mut step: Option<u8> = None;
                        for i in (0..take).rev() {
                            step = match (step, ranked.split[i + 1]) {
                                (Some(a), Some(b)) => Some(a.min(b)),
                                (a, b) => a.or(b),
                            };
                            over[i] = Some((b, step));
                        }
                    }
                    for (i, t) in ranked.order.iter().take(take).enumerate() {
                        let how = if new_division {
                            How::NewDivision
                        } else {
                            How::Rank { over: over[i] }
                        };
                        self.place(t.0 as usize, d, how);
                    }
                    pending.retain(|&e| self.entries[e].division.is_none());
                }
            }
            // E.1: too small (A.i.1, A.i.2).
            self.mend_too_small(d, &mut pending);
            // E.1: more than thrice the division above (A.i.2).
            self.mend_too_large(d);
            d += 1;
        }
        // E.1: a last division under its minimum has nobody below to
        // promote: its players are promoted into the division above.
        while self.divs.len() > 1 {
            let last = self.divs.len() - 1;
            if self.divs[last].len() >= self.min_size(last) {
                break;
            }
            let members = std::mem::take(&mut self.divs[last]);
            self.divs.pop();
            let l = letter(last as Division);
            let cause = format!(
                "{l} would have {} player(s), fewer than {} (A.i.2), and there is no division below to promote from",
                members.len(),
                self.min_size(last)
            );
            let ranked = self.rank(&members);
            let moved: Vec<PlayerId> = ranked.order.iter().map(|t| t.1).collect();
            for t in &ranked.order {
                let e = t.0 as usize;
                let direct = self.applicable_place(e, last);
                self.place(
                    e,
                    last - 1,
                    How::Override {
                        from: last as Division,
                        cause: cause.clone(),
                        direct,
                    },
                );
            }
            self.override_notes.push(Explanation::new(
                CLAUSE_E1,
                &[ARB_E1],
                format!(
                    "E.1: {cause}: its players ({}) are promoted to {}",
                    self.names(&moved),
                    letter(last as Division - 1)
                ),
            ));
            self.mend_too_large(last - 1);
        }
        Ok(())
    }

    /// The merged-ranking place of `e` if he may be awarded a direct
    /// promotion from division `d` (E.1 "See rules B.3 and B.5"): he played
    /// in `d`, kept a middle position there and is still there by default.
    fn applicable_place(&self, e: usize, d: usize) -> Option<(usize, usize)> {
        let x = &self.entries[e];
        match x.base {
            Base::Middle {
                division,
                place,
                of,
                ..
            } if division as usize == d && !x.forced && x.how == How::Default => Some((place, of)),
            _ => None,
        }
    }

    /// The order E.1 promotes from `es` (the players of division `from`):
    /// those applicable for a direct promotion by the merged ranking (B.3,
    /// B.5), then the others by D.2 (ARB-R34).
    fn override_order(&self, es: &[usize], from: usize) -> Vec<(usize, Option<(usize, usize)>)> {
        let mut direct: Vec<(usize, Option<(usize, usize)>)> = es
            .iter()
            .filter_map(|&e| self.applicable_place(e, from).map(|p| (e, Some(p))))
            .collect();
        direct.sort_by_key(|x| x.1.map_or(usize::MAX, |p| p.0));
        let rest: Vec<usize> = es
            .iter()
            .copied()
            .filter(|&e| self.applicable_place(e, from).is_none())
            .collect();
        if !rest.is_empty() {
            direct.extend(self.rank(&rest).order.iter().map(|t| (t.0 as usize, None)));
        }
        direct
    }

    /// E.1 when division `d` is under its minimum: promote into it from the
    /// nearest division below (ARB-R34).
    fn mend_too_small(&mut self, d: usize, pending: &mut Vec<usize>) {
        let min = self.min_size(d);
        while self.divs[d].len() < min && !pending.is_empty() {
            let dd = d as u32;
            // The nearest default division below with players.
            let nearest = pending
                .iter()
                .map(|&e| self.entries[e].floor)
                .filter(|&f| f > dd)
                .min()
                .unwrap_or(NONE);
            let source: Vec<usize> = pending
                .iter()
                .copied()
                .filter(|&e| self.entries[e].floor == nearest)
                .collect();
            let from = if nearest == NONE {
                d + 1
            } else {
                nearest as usize
            };
            let l = letter(dd);
            let cause = if d == 0 && min > self.rules.min_division_size as usize {
                format!(
                    "{l} would have {} player(s), fewer than the {min} of {} groups (A.i.1)",
                    self.divs[d].len(),
                    number_word(self.rules.main_division_groups)
                )
            } else {
                format!(
                    "{l} would have {} player(s), fewer than {min} (A.i.2)",
                    self.divs[d].len()
                )
            };
            let need = min - self.divs[d].len();
            let order = self.override_order(&source, from);
            let mut moved = Vec::new();
            for (e, direct) in order.into_iter().take(need) {
                moved.push(self.entries[e].player);
                self.place(
                    e,
                    d,
                    How::Override {
                        from: from as Division,
                        cause: cause.clone(),
                        direct,
                    },
                );
            }
            self.override_notes.push(Explanation::new(
                CLAUSE_E1,
                &[ARB_E1],
                format!(
                    "E.1: {cause}: {} promoted from {} to {l}",
                    self.names(&moved),
                    letter(from as Division)
                ),
            ));
            pending.retain(|&e| self.entries[e].division.is_none());
        }
    }

    /// E.1 when a division (at or above `upto`) has more than thrice the
    /// players of the one above: promote from it, then look again from the
    /// top (ARB-R34).
    fn mend_too_large(&mut self, upto: usize) {
        let g = self.rules.growth_factor as usize;
        loop {
            let Some(k) = (1..=upto.min(self.divs.len().saturating_sub(1)))
                .find(|&k| self.divs[k].len() > g.saturating_mul(self.divs[k - 1].len()))
            else {
                return;
            };
            let (lk, la) = (letter(k as Division), letter(k as Division - 1));
            let cause = format!(
                "{lk} would have {} players, more than {} times the {} of {la} (A.i.2)",
                self.divs[k].len(),
                number_word(self.rules.growth_factor),
                self.divs[k - 1].len()
            );
            // Enough promotions to mend it, each from the top of the order.
            let (big, small) = (self.divs[k].len(), self.divs[k - 1].len());
            let need = (big - g * small).div_ceil(g + 1).max(1);
            let members = self.divs[k].clone();
            let order = self.override_order(&members, k);
            let mut moved = Vec::new();
            for (e, direct) in order.into_iter().take(need) {
                if let Some(pos) = self.divs[k].iter().position(|&x| x == e) {
                    self.divs[k].swap_remove(pos);
                }
                moved.push(self.entries[e].player);
                self.place(
                    e,
                    k - 1,
                    How::Override {
                        from: k as Division,
                        cause: cause.clone(),
                        direct,
                    },
                );
            }
            self.override_notes.push(Explanation::new(
                CLAUSE_E1,
                &[ARB_E1],
                format!(
                    "E.1: {cause}: {} promoted from {lk} to {la}",
                    self.names(&moved)
                ),
            ));
        }
    }

    fn finish(mut self) -> Plan {
        let mut divisions = Vec::with_capacity(self.divs.len());
        let mut seat: Vec<(GroupId, u32)> = vec![(GroupId::new(0, 0), 0); self.entries.len()];
        let mut notes = std::mem::take(&mut self.notes);
        notes.append(&mut self.override_notes);
        let mut groups_above: Option<u32> = None;
        for d in 0..self.divs.len() {
            let dd = d as Division;
            let l = letter(dd);
            let ranked = self.rank(&self.divs[d]);
            let n = ranked.order.len() as u32;
            let counted = group_count(self.rules, n, groups_above, d == 0);
            let g = counted.unwrap_or_else(|| {
                // Only after an override: as many groups as A.i.3 allows.
                let most = n / self.rules.min_group_size.max(1);
                let most = match groups_above {
                    Some(a) if d > 0 => most.min(a.saturating_mul(self.rules.growth_factor)),
                    _ if d == 0 => most.min(self.rules.main_division_groups),
                    _ => most,
                };
                most.max(1)
            });
            let sizes = group_sizes(n, g);
            let snake = snake(&sizes, ranked.order.len());
            let mut groups: Vec<Vec<PlayerId>> = sizes
                .iter()
                .map(|&s| Vec::with_capacity(s as usize))
                .collect();
            for (seed, (t, &j)) in ranked.order.iter().zip(&snake).enumerate() {
                groups[j].push(t.1);
                // "Sunjang Definitions: Group": the only group of a
                // division is named by its letter.
                seat[t.0 as usize] = (GroupId::of(dd, j as u32 + 1, sizes.len()), seed as u32 + 1);
            }
            notes.push(self.size_note(d, n, &sizes, counted.is_none()));
            // Ties nothing separates in the seeding.
            let mut ties = Vec::new();
            let mut count = 0;
            let mut i = 1;
            while i < ranked.order.len() {
                if ranked.split[i].is_none() {
                    let start = i - 1;
                    while i < ranked.order.len() && ranked.split[i].is_none() {
                        i += 1;
                    }
                    count += 1;
                    if ties.len() < 3 {
                        ties.push(
                            ranked.order[start..i]
                                .iter()
                                .map(|t| self.name(t.1))
                                .collect::<Vec<_>>()
                                .join(" = "),
                        );
                    }
                } else {
                    i += 1;
                }
            }
            if count > 0 {
                let mut shown = ties.join("; ");
                if count > 3 {
                    let _ = write!(shown, "; and {} more", count - 3);
                }
                notes.push(Explanation::new(
                    CLAUSE_AII2,
                    &["SJ-R13", ARB_TIES],
                    format!(
                        "{l}: seeded by rank, ties by D.2; tied on every criterion of D.2, seeded in registration order: {shown}"
                    ),
                ));
            }
            groups_above = Some(g);
            divisions.push(PlannedDivision { groups });
        }
        let placements = (0..self.entries.len())
            .map(|e| {
                let (group, seed) = seat[e];
                let (reason, explanation) = self.explain(e, group.division);
                Placement {
                    player: self.entries[e].player,
                    group,
                    seed,
                    reason,
                    explanation,
                }
            })
            .collect();
        Plan {
            divisions,
            placements,
            notes,
        }
    }

    fn size_note(&self, d: usize, n: u32, sizes: &[u32], overridden: bool) -> Explanation {
        let dd = d as Division;
        let l = letter(dd);
        let sizes_text = sizes
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let g = sizes.len();
        let mut text = format!("{l}: {n} players in {g} group(s) of {sizes_text}");
        let mut rulings: Vec<&'static str> = Vec::new();
        let clause = if d == 0 { CLAUSE_A1 } else { CLAUSE_A3 };
        if d == 0 {
            if (n as usize) < self.rules.single_group_below as usize {
                let _ = write!(
                    text,
                    " (one group: fewer than {} players, footnote 1)",
                    self.rules.single_group_below
                );
            } else {
                let _ = write!(
                    text,
                    " ({} groups on the main division, A.i.1)",
                    number_word(self.rules.main_division_groups)
                );
            }
        } else {
            rulings.push("SJ-R2");
            let count = match self.rules.group_count {
                GroupCount::NearestIdeal => {
                    format!("average nearest {}", self.rules.ideal_group_size)
                }
                GroupCount::Fewest => format!(
                    "the fewest groups of at most {}",
                    self.rules.max_group_size()
                ),
            };
            let _ = write!(
                text,
                " (A.i.3: {count}, groups of at least {}, at most {} times the groups above; footnote 3)",
                self.rules.min_group_size,
                number_word(self.rules.growth_factor)
            );
        }
        let _ = write!(text, "; limit {} (A.i.4)", self.cap(d));
        rulings.push("SJ-R1");
        if self.is_new_division(d) {
            let _ = write!(
                text,
                "; a new division: A.i.5 does not apply, free space up to the ideal size {}",
                self.ideal(d)
            );
            rulings.push(ARB_NEW_DIVISION);
        } else {
            let prev = self.prev_sizes[d];
            let _ = write!(text, "; previous season {prev}");
            rulings.push("SJ-R10");
            if n as usize > prev {
                let forced = self.divs[d]
                    .iter()
                    .filter(|&&e| {
                        let x = &self.entries[e];
                        x.how == How::Default && (x.forced || x.base == Base::New)
                    })
                    .count();
                let overrides = self.divs[d]
                    .iter()
                    .filter(|&&e| matches!(self.entries[e].how, How::Override { .. }))
                    .count();
                let _ = write!(text, ", grown by {} (A.i.5 yields to", n as usize - prev);
                let mut causes = Vec::new();
                if forced > 0 {
                    causes.push(format!(
                        " {forced} player(s) the lowest division restrictions place here, C.3"
                    ));
                    rulings.push("SJ-R11");
                }
                if overrides > 0 {
                    causes.push(format!(" {overrides} E.1 promotion(s)"));
                }
                if (n as usize) <= self.min_size(d) {
                    causes.push(" its minimum size, A.i.1/A.i.2".to_string());
                }
                if causes.is_empty() {
                    causes.push(" the spots section B assures".to_string());
                }
                text.push_str(&causes.join(","));
                text.push(')');
            } else {
                text.push_str(", shall not grow (A.i.5)");
            }
        }
        if overridden || (n as usize) > self.cap(d) {
            let _ = write!(
                text,
                "; over the limit after E.1, which supersedes the other rules: groups of 10 or more, one more demotion each next season (B.2)"
            );
            rulings.push("SJ-R6");
            rulings.push(ARB_E1);
        }
        for (od, why) in &self.over_limit {
            if *od == dd {
                let _ = write!(text, "; {why}");
                rulings.push(ARB_CAP);
            }
        }
        Explanation {
            clause,
            rulings,
            text,
        }
    }

    fn rank_text(&self, e: usize) -> String {
        let x = &self.entries[e];
        let info = &self.input.data.info[x.player.index()];
        let q = if info.provisional { "?" } else { "" };
        match x.limits {
            Some((h, _)) => format!("{}{q}; highest division {}", info.rank, letter(h)),
            None => format!("{}{q}; no restriction", info.rank),
        }
    }

    /// "(overall rank 3d to 2d)" between `a` and `b`.
    fn criterion_text(&self, a: PlayerId, b: PlayerId, step: u8) -> String {
        let k = SECONDARY + step as usize;
        let data = &self.input.data;
        format!(
            "{} {} to {}",
            CRITERIA[k].1,
            data.figure(k, a, &[a, b]),
            data.figure(k, b, &[a, b])
        )
    }

    fn gamepoints(&self, p: PlayerId) -> String {
        self.input
            .data
            .performance
            .get(p.index())
            .copied()
            .flatten()
            .map_or(String::new(), |x| {
                format!(", {} gamepoints", super::format_points(x.gamepoints))
            })
    }

    fn explain(&self, e: usize, d: Division) -> (PlacementReason, Explanation) {
        let (reason, mut explanation) = self.explain_placement(e, d);
        let x = &self.entries[e];
        if x.exempt && x.base != Base::New && x.how == How::Default {
            let info = &self.input.data.info[x.player.index()];
            let _ = write!(
                explanation.text,
                "; {}? is a provisional rank: not promoted by rank (C.1 addendum)",
                info.rank
            );
            explanation.rulings.push(ARB_PROVISIONAL);
        }
        (reason, explanation)
    }

    fn explain_placement(&self, e: usize, d: Division) -> (PlacementReason, Explanation) {
        let x = &self.entries[e];
        let p = x.player;
        let name = self.name(p);
        let info = &self.input.data.info[p.index()];
        let to = letter(d);
        match &x.how {
            How::Default => {
                if x.forced {
                    let from = x.assured;
                    return (
                        PlacementReason::ForcedPromotion { from },
                        Explanation::new(
                            CLAUSE_C3,
                            &["SJ-R11"],
                            format!(
                                "{name}: forced promotion {} to {to}, lowest division for {} is {to}, rule C.3 (SJ-R11)",
                                from.map_or("?".into(), letter),
                                info.rank
                            ),
                        ),
                    );
                }
                match x.base {
                    Base::Promoted {
                        from,
                        leader_of: Some(g),
                        ..
                    } => (
                        PlacementReason::DirectPromotion {
                            from,
                            leader_of: Some(g),
                        },
                        Explanation::new(
                            CLAUSE_B1,
                            &[],
                            format!(
                                "{name}: direct promotion {} to {to}, leader of {g}, rule B.1",
                                letter(from)
                            ),
                        ),
                    ),
                    Base::Promoted {
                        from,
                        leader_of: None,
                        place,
                        of,
                    } => (
                        PlacementReason::DirectPromotion {
                            from,
                            leader_of: None,
                        },
                        Explanation::new(
                            CLAUSE_B3,
                            &["SJ-R5"],
                            format!(
                                "{name}: direct promotion {} to {to}, {} of {of} in the merged ranking of {}{} (at least {} per division), rule B.1/B.3 (SJ-R5)",
                                letter(from),
                                ordinal(place),
                                letter(from),
                                self.gamepoints(p),
                                number_word(self.rules.min_direct_promotions)
                            ),
                        ),
                    ),
                    Base::Demoted { from, place, of } => (
                        PlacementReason::Demotion { from, place },
                        Explanation::new(
                            CLAUSE_B2,
                            &["SJ-R5"],
                            format!(
                                "{name}: demotion {} to {to}, {} of {of} in the merged ranking of {}{}, rule B.2/B.3 (SJ-R5)",
                                letter(from),
                                ordinal(place),
                                letter(from),
                                self.gamepoints(p)
                            ),
                        ),
                    ),
                    Base::Middle {
                        division,
                        place,
                        of,
                        qualifier,
                        leader_of,
                    } => {
                        let (clause, rulings, why) = if qualifier {
                            match leader_of {
                                Some(g) => (
                                    CLAUSE_B1,
                                    vec![],
                                    format!(
                                        ", leader of {g}: a direct promotion of A (the final round), rule B.1"
                                    ),
                                ),
                                None => (
                                    CLAUSE_B3,
                                    vec!["SJ-R5"],
                                    format!(
                                        ", {} of {of} in the merged ranking: a direct promotion of A (the final round; at least {} per division), rule B.1/B.3 (SJ-R5)",
                                        ordinal(place),
                                        number_word(self.rules.min_direct_promotions)
                                    ),
                                ),
                            }
                        } else {
                            (CLAUSE_MIDDLE, vec![], String::new())
                        };
                        (
                            PlacementReason::Middle { division },
                            Explanation {
                                clause,
                                rulings,
                                text: if qualifier {
                                    format!("{name}: stays in {to}{why}")
                                } else {
                                    format!("{name}: stays in {to} (middle position){why}")
                                },
                            },
                        )
                    }
                    Base::New => {
                        let reason = if self.first_season {
                            PlacementReason::FirstSeason
                        } else {
                            PlacementReason::NewPlayer
                        };
                        let who = if self.first_season {
                            "first season"
                        } else {
                            "new player"
                        };
                        (
                            reason,
                            Explanation::new(
                                CLAUSE_RESTRICTIONS,
                                &[ARB_NEW_PLAYER],
                                format!(
                                    "{name}: {who}, placed in {to} by the restrictions for {}: the lowest division for {} is {to} (C.3)",
                                    info.rank, info.rank
                                ),
                            ),
                        )
                    }
                }
            }
            How::Rank { over } => {
                let priority = match over {
                    Some((b, Some(step))) => format!(
                        "priority D.2 over {} ({})",
                        self.name(*b),
                        self.criterion_text(p, *b, *step)
                    ),
                    Some((b, None)) => format!(
                        "priority over {}: tied on every criterion of D.2, registered earlier (ARB-R36)",
                        self.name(*b)
                    ),
                    None => "room for every promotable player".to_string(),
                };
                let mut rulings = vec![ARB_PRIORITY];
                if matches!(over, Some((_, None))) {
                    rulings.push(ARB_TIES);
                }
                let overrides = match x.base {
                    Base::Promoted { .. } if !x.forced => {
                        ", over the direct promotion (C.2)".to_string()
                    }
                    Base::Demoted { .. } if !x.forced => ", over the demotion (C.2)".to_string(),
                    _ => String::new(),
                };
                let text = match x.assured {
                    Some(a) => format!(
                        "{name}: promotion by rank {} to {to} ({}), free space in {to}, {priority}, rule C.5{overrides}",
                        letter(a),
                        self.rank_text(e)
                    ),
                    None => format!(
                        "{name}: new player, promotion by rank to {to} ({}), free space in {to}, {priority}, rule C.5",
                        self.rank_text(e)
                    ),
                };
                (
                    PlacementReason::PromotionByRank { from: x.assured },
                    Explanation {
                        clause: CLAUSE_C5,
                        rulings,
                        text,
                    },
                )
            }
            How::NewDivision => {
                let (reason, who) = if self.first_season {
                    (PlacementReason::FirstSeason, "first season")
                } else {
                    (PlacementReason::NewPlayer, "new player")
                };
                let why = if x.exempt {
                    format!(
                        "{}? is provisional and provisional players are not promoted by rank (C.1 addendum, {ARB_PROVISIONAL}), so no restriction places him",
                        info.rank
                    )
                } else {
                    self.rank_text(e)
                };
                let place = if self.first_season {
                    format!("placed in {to} by rank (D.2), {to} filled up to its ideal size")
                } else {
                    format!("placed in {to}, a new division below the previous season's lowest")
                };
                (
                    reason,
                    Explanation::new(
                        CLAUSE_RESTRICTIONS,
                        &[ARB_NEW_PLAYER, ARB_NEW_DIVISION],
                        format!("{name}: {who} ({why}): {place}"),
                    ),
                )
            }
            How::Override {
                from,
                cause,
                direct,
            } => {
                let fl = letter(*from);
                let how = match direct {
                    Some((place, of)) => format!(
                        "{} of {of} in the merged ranking of {fl}, awarded a direct promotion (B.3, B.5)",
                        ordinal(*place)
                    ),
                    None => format!(
                        "nobody in {fl} applicable for a direct promotion: the highest ranked by D.2 is forcefully promoted"
                    ),
                };
                let new = if x.base == Base::New {
                    if self.first_season {
                        "first season, "
                    } else {
                        "new player, "
                    }
                } else {
                    ""
                };
                (
                    PlacementReason::SizeOverride { from: *from },
                    Explanation::new(
                        CLAUSE_E1,
                        &[ARB_E1],
                        format!("{name}: {new}promotion {fl} to {to} by rule E.1: {cause}; {how}"),
                    ),
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use crate::sunjang::PlayerInfo;
    use crate::sunjang::ranking::Tiebreaks;

    #[test]
    fn group_counts_follow_sj_r2() {
        let r = SunjangRules::default();
        assert_eq!(group_count(&r, 17, Some(2), false), Some(3));
        assert_eq!(group_sizes(17, 3), vec![5, 6, 6]);
        assert_eq!(group_count(&r, 23, Some(2), false), Some(3));
        assert_eq!(group_sizes(23, 3), vec![7, 8, 8]);
        assert_eq!(group_count(&r, 14, None, true), Some(2));
        assert_eq!(group_count(&r, 9, None, true), Some(1));
        assert_eq!(group_count(&r, 42, Some(2), false), Some(6));
        assert_eq!(group_count(&r, 54, Some(2), false), Some(6));
        assert_eq!(group_count(&r, 55, Some(2), false), None);
        let fewest = SunjangRules {
            group_count: GroupCount::Fewest,
            ..SunjangRules::default()
        };
        assert_eq!(group_count(&fewest, 17, Some(2), false), Some(2));
    }

    #[test]
    fn zigzag_gives_the_smaller_groups_the_top_seeds() {
        let ps: Vec<PlayerId> = (1..=17).map(PlayerId).collect();
        let g = zigzag(&ps, &[5, 6, 6]);
        let ids = |v: &Vec<PlayerId>| v.iter().map(|p| p.0).collect::<Vec<_>>();
        assert_eq!(ids(&g[0]), vec![1, 6, 7, 12, 13]);
        assert_eq!(ids(&g[1]), vec![2, 5, 8, 11, 14, 17]);
        assert_eq!(ids(&g[2]), vec![3, 4, 9, 10, 15, 16]);
    }

    fn info(n: usize) -> Vec<PlayerInfo> {
        (1..=n)
            .map(|i| PlayerInfo {
                name: format!("P{i}"),
                rank: Rank::Kyu(5),
                provisional: false,
                rating: 2000 - 20 * i as i32,
                corr_rank: None,
                corr_rating: None,
            })
            .collect()
    }

    fn run(
        info: &[PlayerInfo],
        previous: Option<&PreviousSeason>,
        entrants: &[PlayerId],
    ) -> Result<PlanOutcome, RuleError> {
        let rules = SunjangRules::default();
        let tb = Tiebreaks::default();
        plan(&PlanInput {
            rules: &rules,
            restrictions: &Restrictions::default(),
            data: RankingData {
                info,
                performance: &[],
                games: &[],
                tiebreaks: &tb,
                rules: &rules,
            },
            previous,
            entrants,
        })
    }

    #[test]
    fn bad_input_is_refused_with_its_field() {
        let info = info(8);
        let ids: Vec<PlayerId> = (1..=8).map(PlayerId).collect();
        let twice = [ids.clone(), vec![PlayerId(3)]].concat();
        let e = run(&info, None, &twice).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("entrants[8]"), "{e}");
        assert!(run(&info, None, &[PlayerId(9)]).is_err());
        let prev =
            |ranking: &[PlayerId], leaders: Vec<PlayerId>, groups: Vec<u32>| PreviousSeason {
                divisions: vec![PreviousDivision {
                    ranking: ranking.to_vec(),
                    group_leaders: leaders,
                    groups,
                }],
            };
        let e = run(
            &info,
            Some(&prev(&ids, vec![PlayerId(1)], vec![5, 4])),
            &ids,
        )
        .unwrap_err();
        assert!(e.message.contains("do not add up"), "{e}");
        let e = run(
            &info,
            Some(&prev(&ids[..4], vec![PlayerId(6)], vec![4])),
            &ids,
        )
        .unwrap_err();
        assert!(e.message.contains("group leader"), "{e}");
        // Well formed: planned, everyone placed.
        match run(
            &info,
            Some(&prev(&ids[..6], vec![PlayerId(2)], vec![6])),
            &ids,
        )
        .unwrap()
        {
            PlanOutcome::Planned(p) => assert_eq!(p.placements.len(), 8),
            other => panic!("{other:?}"),
        }
    }

    fn lcg(s: &mut u64) -> u64 {
        *s = s
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        *s >> 33
    }

    /// The fast D.2 gives the cascade's order, ties nothing separates put in
    /// registration order.
    #[test]
    fn fast_d2_matches_the_secondary_cascade() {
        let rules = SunjangRules::default();
        let mut s = 7u64;
        for round in 0..400 {
            let n = 2 + (lcg(&mut s) % 14) as usize;
            let info: Vec<PlayerInfo> = (0..n)
                .map(|i| PlayerInfo {
                    name: format!("P{i}"),
                    rank: Rank::Kyu(1 + (lcg(&mut s) % 3) as u8),
                    provisional: false,
                    rating: 1500 + (lcg(&mut s) % 40) as i32,
                    corr_rank: lcg(&mut s)
                        .is_multiple_of(2)
                        .then(|| Rank::Kyu(1 + (lcg(&mut s) % 2) as u8)),
                    corr_rating: lcg(&mut s)
                        .is_multiple_of(2)
                        .then(|| 1500 + (lcg(&mut s) % 30) as i32),
                })
                .collect();
            let ids: Vec<PlayerId> = (1..=n as u32).map(PlayerId).collect();
            let mut tb = Tiebreaks::default();
            if round % 3 == 0 {
                tb.gave_way.push(ids[(lcg(&mut s) as usize) % n]);
            }
            if round % 2 == 0 {
                for _ in 0..3 {
                    let a = ids[(lcg(&mut s) as usize) % n];
                    let b = ids[(lcg(&mut s) as usize) % n];
                    if a != b {
                        tb.live_matches.push((a, b));
                    }
                }
            }
            let data = RankingData {
                info: &info,
                performance: &[],
                games: &[],
                tiebreaks: &tb,
                rules: &rules,
            };
            let cascade = data.secondary_cascade().rank(&ids);
            // The cascade's order with each unresolved tie in listing order.
            let mut expected = cascade.order.clone();
            for u in &cascade.unresolved {
                let start = expected.iter().position(|p| u.players.contains(p)).unwrap();
                let mut block = u.players.clone();
                block.sort();
                expected[start..start + block.len()].copy_from_slice(&block);
            }
            let fast = D2::new(&data).rank(ids.iter().map(|p| (p.0, *p)).collect());
            let got: Vec<PlayerId> = fast.order.iter().map(|t| t.1).collect();
            assert_eq!(got, expected, "round {round}: {info:?} {tb:?}");
            for (i, sp) in fast.split.iter().enumerate().skip(1) {
                let tie = cascade.tie_of(got[i]);
                if tie.is_some() && cascade.tie_of(got[i - 1]) == tie {
                    assert_eq!(*sp, None);
                } else {
                    // The split lies above the first of the tie, in the
                    // cascade's own order.
                    let first = tie.map_or(got[i], |u| u.players[0]);
                    let want = cascade.split_above(first).map(|x| x.step as u8);
                    assert_eq!(*sp, want, "round {round}, position {i}");
                }
            }
        }
    }
}
