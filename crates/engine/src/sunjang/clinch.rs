//! Clinch and elimination in a Sunjang group (ARB-R47): for each player
//! and each zone a single group decides, whether every completion of the
//! group's remaining games puts him in it, none does, or it is open,
//! ranked by section D exactly as [`super::group::group_table`] ranks.
//!
//! Zones ([`group_zones`]): the group win (B.1: "Each group leader shall
//! directly promote"); the direct promotions and the demotions when the
//! division has one group (B.1-B.3 on the group's own table, since the
//! merged ranking of SJ-R5 is then the group table); the automatic
//! qualification for the final round in division A (the two leaders, or
//! the top two of a single group, ARB-R40). With several groups, the
//! promotions beyond the leaders and the demotions come from the merged
//! ranking of the whole division: no single group decides them, and they
//! are left out.
//!
//! A remaining game has four results that differ for the table: a win for
//! either player, a jigo, or both forfeiting (a loss for both, ARB-R39). A
//! single forfeit counts as a win for the other player for gamepoints,
//! head-to-head and SODOS (ARB-R39), so it adds nothing to enumerate.
//!
//! # Method, and why it is exact
//!
//! The completions are searched depth first, one remaining game at a time,
//! and each leaf is ranked with the whole cascade of section D (gamepoints,
//! SODOS from the final gamepoints, head-to-head among the tied with the
//! SJ-R9 restart, then D.2, whose figures come from the same criteria
//! [`RankingData::main_cascade`] uses). A search looks for the evidence
//! one player still lacks for one zone (a completion in, one out, one
//! where a tie across the zone's edge is left to the organizer's record);
//! every leaf it reaches records evidence for every player and zone.
//!
//! A subtree is cut only when no completion in it can give the evidence
//! sought, by bounds that hold for every completion below the node:
//!
//! - a player's final gamepoints lie between what he has and what he has
//!   plus a win in each of his games left; anyone certainly ahead on
//!   gamepoints ranks above him, anyone certainly behind below;
//! - when two players can be level only if one takes nothing more and the
//!   other wins every game he has left, their SODOS are bounded in that
//!   one case (SODOS is linear in the final gamepoints, each bounded): a
//!   certainly higher SODOS ranks above in whatever tie they share; so
//!   does, with SODOS and every head-to-head count certainly equal, a D.2
//!   figure that tells the two apart whoever else is tied (checked for
//!   every pair beforehand);
//! - to be alone first, nobody may end above his most gamepoints, which
//!   narrows those bounds further;
//! - to have `m` players at or above him, `m` players must reach his
//!   present gamepoints together: a transport of the points of the games
//!   left (a max flow, for each choice of the players who must gain);
//! - a tie left to the organizer needs a set of players whom D.2 cannot
//!   separate (checked for every subset of the group beforehand) with a
//!   common gamepoint total still reachable.
//!
//! - when the gamepoints of two players can meet only so, the SODOS
//!   difference is also bounded game by game (it is linear in the final
//!   gamepoints, each game left adds to it on its own, and the cap on
//!   everyone's gamepoints enters through a Lagrangian multiplier); with
//!   SODOS never lower, the head-to-head count of criterion 2 is compared
//!   over the worst block the two can share (both rows are fixed then: the
//!   score between them plus every other player's difference where it
//!   hurts): more for certain ranks above whoever else shares the tie, and
//!   never less, with a D.2 figure that ranks him above (as above), too;
//! - to be alone in the places 1 to `k` with `k - 1` players sure to end
//!   above his most gamepoints, nobody else may end above it either: the
//!   cap of the first place then bounds everyone else; and anyone who can
//!   at best share his block (SODOS and head-to-head as above never
//!   lower, and no D.2 criterion, live matches included, ever ranking
//!   him below whoever else is tied) keeps him out as well;
//! - once his games are over, and no game is left between two players
//!   who could end level with him (each of them has his games over at his
//!   total, or plays only players who cannot end level), their
//!   head-to-head rows among themselves are fixed, and only their places
//!   on gamepoints and their SODOS against his are open (SODOS is linear
//!   in the others' final gamepoints and in the head-to-head row, each
//!   bounded): each arrangement the bounds allow (each of them below him,
//!   above, or level and then ranked with him by head-to-head and D.2) is
//!   tried, and none putting him in the zone rules the subtree out.
//!
//! Each kind of evidence a player lacks for a zone is searched on its own.
//! For a zone that begins at 1st or ends last, the kind fixes a direction:
//! a better result for him (more gamepoints for him, no more for his
//! opponent) can only move his block up (his new block ends no lower than
//! his old one began: everyone at or above his new gamepoints was strictly
//! above his old ones), so a search for a completion that puts him in the
//! top zone (out of the bottom one) keeps only his results no other
//! betters (a win), and one for the reverse only those no other worsens
//! (a loss, both forfeiting). The other games are then tried in the order
//! likeliest to give the witness: first, once his own games are over, the
//! result that moves his SODOS the right way against those level with him
//! (SODOS is linear in the final gamepoints, each weighted by what he and
//! they took from that player); then going up the fewest gamepoints to
//! the others (both forfeiting), going down the most, to the players below
//! him.
//!
//! The games of the player searched about come first, then his rivals'.
//! A search that finishes has therefore seen a witness of every kind that
//! exists: the verdict is exact. A search that exceeds its [`Budget`]
//! answers [`Verdict::Undetermined`] (unless completions on both sides were
//! found: then it is open, which is proven). Measured on 9-player groups
//! (`examples/clinch_scan.rs`, 10,000 seeded groups per case, release
//! build, 2 cores), every verdict is exact: with half the games left and
//! random results, mean 1.6 ms, median 0.2 ms, the slowest group 0.54 s
//! (seed 9095; seed 1738, 0.48 s, is a player who can reach the promotion
//! places only at his most gamepoints, level with two who have them
//! already, one of whom may pass them); the favourites winning 80%, mean
//! 1.0 ms, slowest 0.17 s; with two thirds left, within 1 ms. With every
//! player of one rank and rating (`CLINCH_LEVEL=1`: D.2 separates nobody,
//! every tie at the top is left to the organizer's record), the slowest
//! group 0.35 s.

use crate::sunjang::planner::direct_promotions;
use std::collections::HashMap;

use crate::cascade::{Cascade, Restart};
use crate::clinch::{Analysis, Evidence, TieKind, Verdict, Zone, ZoneKind};

use super::group::{GroupGame, Outcome, points};
use super::ranking::RankingData;
use super::season::{League, Season};
use super::{Division, GroupId, PlayerId, SunjangRules};

/// How much search an analysis may use, per player and zone (`nodes`) and
/// in all (`total`); past it, what is not proven yet is
/// [`Verdict::Undetermined`]. The engine has no clock, so the budget counts
/// work in units shaped like time: a node of the search 5, a pair bound
/// that needs the SODOS bounds 4 more, a completion ranked with the
/// cascade 35 more, a max-flow check 60, a check of a block of players
/// pinned level with him 4 more and 8 per arrangement of it ranked (a
/// unit is some 15 to 20 ns on the 2-core machine of the measurements).
/// The default, 40 million units, keeps a 9-player group under a second
/// at worst: about 0.7 s when a search runs out of it
/// (`examples/clinch_scan.rs`, where the slowest of 60,000 groups takes
/// 0.54 s); a caller wanting less time or more certainty scales it. So
/// that one hard question cannot take the whole budget from the easy ones
/// after it, each search leaves [`RESERVED_PER_QUESTION`] for every
/// question still open after it (at most an eighth of `total` in all).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Units per player and zone.
    pub nodes: u64,
    /// Units in all.
    pub total: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            nodes: 40_000_000,
            total: 40_000_000,
        }
    }
}

/// Where a group stands in the season's pyramid, for [`group_zones`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroupSetting {
    /// Players of this group.
    pub size: usize,
    /// The division (A = 0).
    pub division: Division,
    /// Groups in this division.
    pub groups: usize,
    /// Players of this division (all its groups).
    pub division_size: usize,
    /// Groups of exactly 10 players in this division (B.2, SJ-R6).
    pub tens: usize,
    /// The division directly below: its groups and players; `None` for the
    /// last division.
    pub below: Option<(usize, usize)>,
}

/// The zones a single group decides (see the module documentation): the
/// group win, the direct promotions (a division below A), the final round
/// (division A), and, with one group in the division, all direct
/// promotions and the demotions, counted as the planner counts them (B.1:
/// as many as groups, at least `min_direct_promotions`; B.2: as many as the
/// division below promotes, plus one per group of ten; B.5 and SJ-R14:
/// never overlapping the promotions).
pub fn group_zones(s: &GroupSetting, rules: &SunjangRules) -> Vec<Zone> {
    let mut zones = Vec::new();
    if s.size == 0 {
        return zones;
    }
    zones.push(Zone::new(ZoneKind::Title, 1, 1));
    let promotions = direct_promotions(s.groups, s.division_size, rules);
    let single = s.groups == 1;
    if s.division > 0 {
        let last = if single { promotions.min(s.size) } else { 1 };
        zones.push(Zone::new(ZoneKind::Promotion, 1, last.max(1)));
    } else if single {
        zones.push(Zone::new(ZoneKind::FinalRound, 1, 2.min(s.size)));
    } else if s.groups == 2 {
        zones.push(Zone::new(ZoneKind::FinalRound, 1, 1));
    }
    if single && let Some((groups_below, size_below)) = s.below {
        // The planner's one count (B.2 with SJ-R6, B.5): a single group is
        // its whole division.
        let demotions = super::planner::demotion_count(
            &[s.size],
            promotions.min(s.size),
            Some((groups_below, size_below)),
            rules,
        )
        .count;
        if demotions > 0 {
            zones.push(Zone::new(
                ZoneKind::Demotion,
                s.size - demotions + 1,
                s.size,
            ));
        }
    }
    zones
}

/// Where a group of a season stands: its division's groups and size, and
/// the division below.
pub fn setting_of(season: &Season, id: GroupId) -> Option<GroupSetting> {
    let d = id.division as usize;
    let groups = season.divisions.get(d)?;
    let group = season.group(id)?;
    let size_of = |gs: &[super::season::GroupState]| gs.iter().map(|g| g.players.len()).sum();
    Some(GroupSetting {
        size: group.players.len(),
        division: id.division,
        groups: groups.len(),
        division_size: size_of(groups),
        tens: groups.iter().filter(|g| g.players.len() == 10).count(),
        below: season
            .divisions
            .get(d + 1)
            .map(|gs| (gs.len(), size_of(gs))),
    })
}

/// The clinch analysis of a group of a season in play, against the zones
/// [`group_zones`] gives it; `None` for a group the season does not have.
pub fn analyse_group(
    league: &League,
    season: &Season,
    id: GroupId,
    budget: Budget,
) -> Option<Analysis<PlayerId>> {
    let setting = setting_of(season, id)?;
    let group = season.group(id)?;
    let zones = group_zones(&setting, &league.rules);
    let data = league.data(&[], &[]);
    Some(analyse(&group.players, &group.games, &data, &zones, budget))
}

/// The clinch analysis of one group: every player of `players` against
/// every zone, with the group's `games` (those without a result are the
/// games left). `data` gives the D.2 figures, the organizer's tiebreak
/// records and the rules; its `performance` and `games` are not read (as
/// in [`super::group::group_table`]).
pub fn analyse(
    players: &[PlayerId],
    games: &[GroupGame],
    data: &RankingData<'_>,
    zones: &[Zone],
    budget: Budget,
) -> Analysis<PlayerId> {
    let mut ids: Vec<PlayerId> = Vec::with_capacity(players.len());
    for &p in players {
        if !ids.contains(&p) {
            ids.push(p);
        }
    }
    let n = ids.len();
    if n > MAX_PLAYERS {
        // Subsets are bit masks: a group this large is not analysed.
        let z = zones.len();
        return Analysis {
            zones: zones.to_vec(),
            players: ids,
            verdicts: vec![vec![Verdict::Undetermined; z]; n],
            evidence: vec![vec![Evidence::default(); z]; n],
            exact: false,
            completions: 0,
            remaining: games.iter().filter(|g| g.outcome.is_none()).count(),
        };
    }
    let cascade = data.main_cascade();
    let mut problem = Problem::new(&ids, games, data.rules, cascade, zones);
    let z = zones.len();
    let mut search = Search::new(&problem);
    // Cheap witnesses first: each player winning, then losing, all his
    // games left (the others' games in a fixed scramble).
    search.probes(&mut problem);
    let mut complete = vec![vec![false; z]; n];
    let mut used = 0u64;
    for (p, row) in complete.iter_mut().enumerate() {
        for (zi, done) in row.iter_mut().enumerate() {
            if search.evidence[p * z + zi].settled() {
                *done = true;
                continue;
            }
            // One hard question may not take the whole budget from the
            // ones after it: each still open keeps a floor in reserve (the
            // reserve at most an eighth of the total).
            let later = (p * z + zi + 1..n * z)
                .filter(|&k| !search.evidence[k].settled())
                .count() as u64;
            let reserve = later
                .saturating_mul(RESERVED_PER_QUESTION)
                .min(budget.total / 8);
            let zone = problem.zones[zi];
            let mut spent = 0u64;
            let mut finished = true;
            // One search per kind of evidence he lacks, each with its own
            // direction (see `Goal`).
            for kind in [Kind::Inside, Kind::Outside, Kind::Die] {
                let e = search.evidence[p * z + zi];
                if e.settled() || e.has(kind) {
                    continue;
                }
                let room = budget.nodes.saturating_sub(spent);
                let left = budget.total.saturating_sub(used);
                let own = left
                    .saturating_sub(reserve)
                    .max(left.min(RESERVED_PER_QUESTION));
                let limit = room.min(own);
                if limit == 0 {
                    finished = false;
                    break;
                }
                search.goal = Goal::new(kind, zone, n);
                let key = problem.key_players(p, search.goal.direction);
                problem.order_for(Some(p), &key);
                search.nodes = 0;
                search.flows.set(0);
                search.bounds.set(0);
                search.limit = limit;
                search.aborted = false;
                search.dfs(&mut problem, 0, p, zi);
                let work = search.work();
                spent += work;
                used += work;
                if search.aborted {
                    finished = false;
                    break;
                }
            }
            *done = finished;
        }
    }
    Analysis::assemble(
        zones,
        ids,
        &search.evidence,
        &complete,
        search.completions,
        problem.rem.len(),
    )
}

/// The group, in indices.
struct Problem<'a> {
    n: usize,
    win: u64,
    /// The distinct point splits of a game: (first player, second player).
    outcomes: Vec<(u32, u32)>,
    base: Vec<u32>,
    /// `n * n`: gamepoints `i` took in his games against `j` (known games).
    base_h2h: Vec<u32>,
    rem: Vec<(usize, usize)>,
    /// `left[d * n + i]`: games of `i` among `rem[d..]`.
    left: Vec<u32>,
    /// `pair_left[d * n * n + i * n + j]`: games of `i` against `j` among
    /// `rem[d..]`.
    pair_left: Vec<u32>,
    /// The most gamepoints one game gives its two players together.
    game_total: u32,
    ids: Vec<PlayerId>,
    cascade: Cascade<'a, PlayerId>,
    tolerance: Vec<i64>,
    restart: Option<Restart>,
    /// D.2 figures by (criterion, subset): one per player of the group.
    statics: HashMap<(usize, u64), Vec<i64>>,
    /// D.2 figures as the cascade reads them, for the leaves: each is a
    /// player's own figure (rank, rating, ...) plus a count over the
    /// others of the tie (live matches won against them):
    /// `own[k][i] + sum of over[k][i * n + j]` for `j` tied with `i`.
    own: Vec<Vec<i64>>,
    over: Vec<Vec<i64>>,
    zones: Vec<Zone>,
    /// `static_above[u * n + l]`: whenever `u` and `l` reach D.2 in one
    /// tie, D.2 ranks `u` above `l`, whoever else is in it: the first
    /// criterion that tells them apart is not the live match (which counts
    /// wins inside the tie) and ranks `u` above: without tolerance by a
    /// higher figure, with one by more than the tolerance; every criterion
    /// before it has them level, or `u` higher within the tolerance (a
    /// block is anchored at its best, ARB-R51: a third player may then
    /// split them, but only with `u` above).
    static_above: Vec<bool>,
    /// `never_below[u * n + l]`: whenever `u` and `l` reach D.2 in one
    /// tie, D.2 never ranks `l` in a block above `u`, whoever else is in
    /// it: at each criterion, live match included, the least `u`'s figure
    /// can exceed `l`'s by over every tie holding both (each criterion is
    /// own figures plus counts over the others of the tie) is never
    /// negative (then no block boundary can fall between them with
    /// `l` above: a block is anchored at its best, ARB-R51), until one
    /// ranks `u` above for certain (by more than its tolerance).
    never_below: Vec<bool>,
    /// The most a game gives is a win, and only a win gives it (a jigo is
    /// worth less), the loser then taking nothing.
    max_only_by_winning: bool,
    /// Per player: the subsets containing him that D.2 cannot separate
    /// (where a tie may be left to the organizer); `None`: not computed
    /// (a group too large), assume any.
    die_sets: Option<Vec<Vec<u64>>>,
}

/// The largest group analysed (subsets are 64-bit masks).
pub const MAX_PLAYERS: usize = 63;

/// Budget units (see [`Budget`]) of a node of the search: its move and
/// the quick bounds of `promising`. Calibrated on the slowest groups of
/// `examples/clinch_scan.rs` (a unit some 15 to 20 ns on the 2-core
/// machine of the measurements).
const NODE_COST: u64 = 5;

/// Budget units of a pair bound that needs the SODOS bounds (the slow path
/// of [`Search::surely_above`]).
const BOUND_COST: u64 = 4;

/// Budget units of ranking a completion with the cascade.
const LEAF_COST: u64 = 35;

/// Budget units kept back for each question (a player and a zone) still
/// open after the one being searched, so that a hard search cannot leave
/// the easy ones after it nothing (about 4 ms).
const RESERVED_PER_QUESTION: u64 = 250_000;

/// Budget units of one max-flow check.
const FLOW_COST: u64 = 60;

/// The largest group whose SODOS bounds use fixed-size arrays.
const MAX_SMALL: usize = 16;

/// The largest group whose subsets are all checked for D.2 ties.
const SUBSET_LIMIT: usize = 14;

impl<'a> Problem<'a> {
    fn new(
        ids: &[PlayerId],
        games: &[GroupGame],
        rules: &SunjangRules,
        cascade: Cascade<'a, PlayerId>,
        zones: &[Zone],
    ) -> Problem<'a> {
        let n = ids.len();
        let pos = |p: PlayerId| ids.iter().position(|&x| x == p);
        let mut base = vec![0u32; n];
        let mut base_h2h = vec![0u32; n * n];
        let mut rem = Vec::new();
        for g in games {
            let (Some(b), Some(w)) = (pos(g.pairing.black), pos(g.pairing.white)) else {
                continue;
            };
            if b == w {
                continue;
            }
            match g.outcome {
                Some(o) => {
                    let [pb, pw] = points(o, rules);
                    base[b] += pb;
                    base[w] += pw;
                    base_h2h[b * n + w] += pb;
                    base_h2h[w * n + b] += pw;
                }
                None => rem.push((b, w)),
            }
        }
        let (left, pair_left) = (Vec::new(), Vec::new());
        let mut outcomes: Vec<(u32, u32)> = Vec::new();
        for o in [
            Outcome::BlackWins,
            Outcome::WhiteWins,
            Outcome::Jigo,
            Outcome::BothForfeit,
        ] {
            let [x, y] = points(o, rules);
            if !outcomes.contains(&(x, y)) {
                outcomes.push((x, y));
            }
        }
        let tolerance = cascade.criteria.iter().map(|c| c.tolerance).collect();
        let restart = cascade.restart;
        let mut p = Problem {
            n,
            win: u64::from(rules.win_points.max(1)),
            outcomes,
            base,
            base_h2h,
            rem,
            left,
            pair_left,
            game_total: 0,
            ids: ids.to_vec(),
            cascade,
            tolerance,
            restart,
            statics: HashMap::new(),
            own: Vec::new(),
            over: Vec::new(),
            zones: zones.to_vec(),
            die_sets: None,
            static_above: Vec::new(),
            never_below: Vec::new(),
            max_only_by_winning: false,
        };
        let top = p.max_points();
        p.max_only_by_winning = p
            .outcomes
            .iter()
            .all(|&(x, y)| (x != top || y == 0) && (y != top || x == 0));
        p.static_above = p.static_pairs();
        p.additive();
        p.never_below = p.never_below_pairs();
        p.game_total = p.outcomes.iter().map(|o| o.0 + o.1).max().unwrap_or(0);
        p.order_for(None, &[]);
        p.die_sets = p.inseparable_sets();
        p
    }

    /// Order the games left for a search about player `q`: his games
    /// first, then those of his rivals (whose reachable gamepoints overlap
    /// his), then the rest, each by the most games left to their players;
    /// and count what is left after each depth.
    /// The players whose final gamepoints decide a tie of `q` at the end
    /// of his range with those pinned there (going up: those who already
    /// have his most gamepoints; going down: those whose most is his
    /// present total): every such player, and each player whom `q` and one
    /// of them took a different number of points from (SODOS weighs that
    /// player's final gamepoints by the difference).
    fn key_players(&self, q: usize, direction: Option<Direction>) -> Vec<bool> {
        let n = self.n;
        let mut key = vec![false; n];
        let Some(dir) = direction else {
            return key;
        };
        let w = self.max_points();
        // Games left before any is decided (depth 0).
        let games_left = |i: usize| self.left[i];
        // Final head-to-head rows: going up he wins all his games left and
        // the pinned rival takes nothing; going down the reverse.
        let row = |i: usize, wins: bool, j: usize| {
            self.base_h2h[i * n + j]
                + if wins {
                    w * self.pair_left[i * n + j]
                } else {
                    0
                }
        };
        let (q_wins, mark) = match dir {
            Direction::Up => (true, self.base[q] + w * games_left(q)),
            Direction::Down => (false, self.base[q]),
        };
        for r in (0..n).filter(|&r| r != q) {
            let pinned = match dir {
                Direction::Up => self.base[r] == mark,
                Direction::Down => self.base[r] + w * games_left(r) == mark,
            };
            if !pinned {
                continue;
            }
            key[r] = true;
            for j in (0..n).filter(|&j| j != q && j != r) {
                if row(q, q_wins, j) != row(r, !q_wins, j) {
                    key[j] = true;
                }
            }
        }
        key
    }

    fn order_for(&mut self, q: Option<usize>, key_players: &[bool]) {
        let n = self.n;
        let w = self.max_points();
        let mut count = vec![0u32; n];
        for &(a, b) in &self.rem {
            count[a] += 1;
            count[b] += 1;
        }
        let range = |i: usize| (self.base[i], self.base[i] + w * count[i]);
        let rival = |i: usize| {
            q.is_some_and(|q| {
                let (lo, hi) = range(q);
                let (l2, h2) = range(i);
                l2 <= hi && lo <= h2
            })
        };
        let key = |&(a, b): &(usize, usize)| {
            let is_key = |i: usize| key_players.get(i).copied().unwrap_or(false);
            let class = if q.is_some_and(|q| a == q || b == q) {
                0
            } else if is_key(a) || is_key(b) {
                1
            } else if rival(a) || rival(b) {
                2
            } else {
                3
            };
            // Among the rest, the games of the players nearest his best
            // total first: their results decide ties with him soonest.
            let near = |i: usize| q.map_or(0, |q| range(q).1.abs_diff(self.base[i]));
            (
                class,
                near(a).min(near(b)),
                std::cmp::Reverse(count[a] + count[b]),
                a,
                b,
            )
        };
        let mut rem = std::mem::take(&mut self.rem);
        rem.sort_by_key(key);
        let m = rem.len();
        let mut left = vec![0u32; (m + 1) * n];
        let mut pair_left = vec![0u32; (m + 1) * n * n];
        for d in (0..m).rev() {
            let (now, next) = left.split_at_mut((d + 1) * n);
            now[d * n..].copy_from_slice(&next[..n]);
            let (now, next) = pair_left.split_at_mut((d + 1) * n * n);
            now[d * n * n..].copy_from_slice(&next[..n * n]);
            let (a, b) = rem[d];
            left[d * n + a] += 1;
            left[d * n + b] += 1;
            pair_left[d * n * n + a * n + b] += 1;
            pair_left[d * n * n + b * n + a] += 1;
        }
        self.rem = rem;
        self.left = left;
        self.pair_left = pair_left;
    }

    fn max_points(&self) -> u32 {
        self.outcomes
            .iter()
            .map(|o| o.0.max(o.1))
            .max()
            .unwrap_or(0)
    }

    /// The D.2 figures of criterion `k` (at least 3) on the subset `mask`.
    fn static_values(&mut self, k: usize, mask: u64) -> &Vec<i64> {
        let n = self.n;
        let ids = &self.ids;
        let cascade = &self.cascade;
        self.statics.entry((k, mask)).or_insert_with(|| {
            let set: Vec<PlayerId> = (0..n)
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| ids[i])
                .collect();
            let got = cascade
                .criteria
                .get(k)
                .and_then(|c| (c.eval)(&set))
                .unwrap_or_default();
            let mut out = vec![0i64; n];
            let mut it = got.into_iter();
            for (i, slot) in out.iter_mut().enumerate() {
                if mask >> i & 1 == 1 {
                    *slot = it.next().unwrap_or(0);
                }
            }
            out
        })
    }

    /// Whether D.2 (criteria 3 and on) leaves the subset `mask` as one tie.
    fn inseparable(&mut self, mask: u64) -> bool {
        let members: Vec<usize> = (0..self.n).filter(|i| mask >> i & 1 == 1).collect();
        for k in 3..self.cascade.criteria.len() {
            let tol = self.tolerance[k];
            let v = self.static_values(k, mask).clone();
            let mut vals: Vec<i64> = members.iter().map(|&i| v[i]).collect();
            vals.sort_unstable_by(|a, b| b.cmp(a));
            if vals.windows(2).any(|w| w[0].saturating_sub(w[1]) > tol) {
                return false;
            }
        }
        true
    }

    /// Read each D.2 criterion as own figures plus pairwise counts, from
    /// its values on single players and on pairs.
    fn additive(&mut self) {
        let n = self.n.min(63);
        let k_max = self.cascade.criteria.len();
        let mut own = vec![Vec::new(); k_max];
        let mut over = vec![Vec::new(); k_max];
        for k in 3..k_max {
            let mut a = vec![0i64; n];
            let mut b = vec![0i64; n * n];
            for (i, slot) in a.iter_mut().enumerate() {
                *slot = self.static_values(k, 1u64 << i)[i];
            }
            for i in 0..n {
                for j in 0..n {
                    if i != j {
                        let v = self.static_values(k, (1u64 << i) | (1u64 << j))[i];
                        b[i * n + j] = v - a[i];
                    }
                }
            }
            own[k] = a;
            over[k] = b;
        }
        self.own = own;
        self.over = over;
    }

    fn static_pairs(&mut self) -> Vec<bool> {
        let n = self.n;
        let k_max = self.cascade.criteria.len();
        let mut out = vec![false; n * n];
        if n > 63 {
            return out;
        }
        for u in 0..n {
            for l in 0..n {
                if u == l {
                    continue;
                }
                let mask = (1u64 << u) | (1u64 << l);
                let mut verdict = false;
                // The live match (the last criterion) depends on the tie.
                for k in 3..k_max.saturating_sub(1) {
                    let v = self.static_values(k, mask);
                    let (a, b) = (v[u], v[l]);
                    let tol = self.tolerance[k];
                    if tol == 0 {
                        if a != b {
                            verdict = a > b;
                            break;
                        }
                    } else if a > b.saturating_add(tol.abs()) {
                        // Two blocks whoever else is tied, `u` above.
                        verdict = true;
                        break;
                    } else if a < b {
                        // A block is anchored at its best (ARB-R51): a
                        // third player can put `l` in a block above `u`.
                        break;
                    }
                }
                out[u * n + l] = verdict;
            }
        }
        out
    }

    fn never_below_pairs(&self) -> Vec<bool> {
        let n = self.n;
        let k_max = self.cascade.criteria.len();
        let mut out = vec![false; n * n];
        for u in 0..n {
            for l in (0..n).filter(|&l| l != u) {
                let mut verdict = true;
                for k in 3..k_max {
                    let (own, over) = (&self.own[k], &self.over[k]);
                    if own.len() < n || over.len() < n * n {
                        verdict = false;
                        break;
                    }
                    let mut least = own[u] - own[l] + over[u * n + l] - over[l * n + u];
                    for j in (0..n).filter(|&j| j != u && j != l) {
                        least += (over[u * n + j] - over[l * n + j]).min(0);
                    }
                    let tol = self.tolerance[k];
                    // More than the tolerance apart: two blocks, `u` above.
                    if least > tol.abs() {
                        break;
                    }
                    // A block is anchored at its best (ARB-R51): a player
                    // within the tolerance below `l` can still fall in the
                    // next block while `l` stays with the best, so only a
                    // figure never lower keeps `u` from being below.
                    if least < 0 {
                        verdict = false;
                        break;
                    }
                }
                // Ranked above by D.2 whoever else is tied: never below.
                out[u * n + l] = verdict || self.static_above[u * n + l];
            }
        }
        out
    }

    fn inseparable_sets(&mut self) -> Option<Vec<Vec<u64>>> {
        let n = self.n;
        if n > SUBSET_LIMIT || self.cascade.criteria.len() < 3 {
            return None;
        }
        let mut out = vec![Vec::new(); n];
        for mask in 1u64..(1u64 << n) {
            if mask.count_ones() < 2 || !self.inseparable(mask) {
                continue;
            }
            for (i, sets) in out.iter_mut().enumerate() {
                if mask >> i & 1 == 1 {
                    sets.push(mask);
                }
            }
        }
        Some(out)
    }

    /// The figure of criterion `step` for player `i` among `tied`.
    fn value(&self, step: usize, i: usize, tied: &[usize], leaf: &Leaf) -> i64 {
        let n = self.n;
        match step {
            0 => i64::from(leaf.pts[i]),
            1 => leaf.sodos[i],
            2 => tied
                .iter()
                .map(|&j| i64::from(leaf.h2h[i * n + j]))
                .sum::<i64>(),
            k => {
                let over = &self.over[k];
                self.own[k][i]
                    + tied
                        .iter()
                        .filter(|&&j| j != i)
                        .map(|&j| over[i * n + j])
                        .sum::<i64>()
            }
        }
    }

    /// Section D on the leaf, as [`Cascade::rank`] orders: `tied` is put
    /// in the final order, and the length of each final block (more than
    /// one: a tie nothing separated) pushed onto `out`, top first. No
    /// allocation: a leaf is ranked millions of times.
    fn rank_into(&self, leaf: &Leaf, tied: &mut [usize], from: usize, out: &mut Vec<usize>) {
        let len = tied.len();
        if len < 2 {
            if len == 1 {
                out.push(1);
            }
            return;
        }
        for step in from..self.cascade.criteria.len() {
            let mut scored = [(0i64, 0usize); MAX_PLAYERS];
            for (slot, &i) in scored.iter_mut().zip(tied.iter()) {
                *slot = (self.value(step, i, tied, leaf), i);
            }
            let scored = &mut scored[..len];
            scored.sort_by_key(|b| std::cmp::Reverse(b.0));
            let tol = self.tolerance[step];
            // Where each block ends: a block holds the players within the
            // tolerance of its best (ARB-R51), as in the cascade.
            let mut ends = [0usize; MAX_PLAYERS];
            let mut blocks = 0usize;
            let mut top = scored.first().map_or(0, |s| s.0);
            for (k, &(v, _)) in scored.iter().enumerate().skip(1) {
                if top.saturating_sub(v) > tol {
                    ends[blocks] = k;
                    blocks += 1;
                    top = v;
                }
            }
            if blocks == 0 {
                continue;
            }
            ends[blocks] = len;
            blocks += 1;
            for (slot, &(_, i)) in tied.iter_mut().zip(scored.iter()) {
                *slot = i;
            }
            let restart = self.restart.filter(|r| step >= r.to && len >= r.min_tie);
            let mut start = 0usize;
            for &end in &ends[..blocks] {
                let next = match restart {
                    Some(r) if end - start > 1 => r.to,
                    _ => step + 1,
                };
                self.rank_into(leaf, &mut tied[start..end], next, out);
                start = end;
            }
            return;
        }
        out.push(len);
    }
}

/// A completed table's figures.
struct Leaf<'s> {
    pts: &'s [u32],
    h2h: &'s [u32],
    sodos: &'s [i64],
}

/// Which relation [`Search::surely_above`] proves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rel {
    /// In a block above, in every completion.
    Above,
    /// Never in a block below: above, or in one block.
    NeverBelow,
}

/// A kind of evidence (see [`Evidence`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Inside,
    Outside,
    Die,
}

trait Has {
    fn has(&self, kind: Kind) -> bool;
}

impl Has for Evidence {
    fn has(&self, kind: Kind) -> bool {
        match kind {
            Kind::Inside => self.inside,
            Kind::Outside => self.outside,
            Kind::Die => self.die,
        }
    }
}

/// Which way the player searched about must go for the evidence sought.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Direction {
    /// Up the table: into a zone that starts at 1st, out of one that ends
    /// last.
    Up,
    /// Down the table: the reverse.
    Down,
}

/// What one search looks for: one kind of evidence, and the direction it
/// lies in when the zone touches the top or the bottom of the table.
///
/// The direction is what makes the searches short. A better result for
/// the player searched about (more gamepoints for him, no more for his
/// opponent) moves his block weakly up: his new block ends no lower than
/// his old one began, since everyone at or above his new gamepoints was
/// strictly above his old ones. So a completion that puts him in a zone
/// beginning at 1st (or out of one ending last) still does after any such
/// change, and one that puts him out of it (in it) still does after the
/// reverse change: a search in a direction needs only his results that no
/// other result betters (worsens) that way, which [`Search::dfs`] keeps.
/// Results of the other games come in the order likeliest to give the
/// witness: the fewest gamepoints to the others first when he goes up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Goal {
    /// `None`: every kind lacking.
    kind: Option<Kind>,
    direction: Option<Direction>,
}

impl Goal {
    fn new(kind: Kind, zone: Zone, n: usize) -> Goal {
        let top = zone.first <= 1;
        let bottom = zone.last >= n;
        let direction = match (kind, top, bottom) {
            (_, true, true) | (Kind::Die, _, _) => None,
            (Kind::Inside, true, false) | (Kind::Outside, false, true) => Some(Direction::Up),
            (Kind::Outside, true, false) | (Kind::Inside, false, true) => Some(Direction::Down),
            _ => None,
        };
        Goal {
            kind: Some(kind),
            direction,
        }
    }

    /// Every kind, no direction: a search for all the evidence lacking.
    fn any() -> Goal {
        Goal {
            kind: None,
            direction: None,
        }
    }

    /// Whether this search looks for evidence of `kind`.
    fn wants(&self, kind: Kind) -> bool {
        self.kind.is_none_or(|k| k == kind)
    }

    /// Whether `e` holds all this search looks for.
    fn met(&self, e: &Evidence) -> bool {
        e.settled() || self.kind.is_some_and(|k| e.has(k))
    }
}

struct Search {
    goal: Goal,
    n: usize,
    z: usize,
    pts: Vec<u32>,
    h2h: Vec<u32>,
    evidence: Vec<Evidence>,
    /// Work done in the current query, in units (see [`Budget`]): a node
    /// [`NODE_COST`], a completion ranked [`LEAF_COST`] more.
    nodes: u64,
    /// Pair bounds that needed [`Search::surely_above`] in the current
    /// query, [`BOUND_COST`] units each.
    bounds: std::cell::Cell<u64>,
    /// Transports (max-flow checks) tried in the current query, each
    /// [`FLOW_COST`] units.
    flows: std::cell::Cell<u64>,
    limit: u64,
    aborted: bool,
    completions: u64,
    max_win: u32,
    sodos: Vec<i64>,
    /// Scratch for [`Problem::rank_into`]: the block lengths of a leaf.
    blocks: Vec<usize>,
}

impl Search {
    fn new(p: &Problem) -> Search {
        Search {
            goal: Goal::any(),
            n: p.n,
            z: p.zones.len(),
            pts: p.base.clone(),
            h2h: p.base_h2h.clone(),
            evidence: vec![Evidence::default(); p.n * p.zones.len()],
            nodes: 0,
            flows: std::cell::Cell::new(0),
            bounds: std::cell::Cell::new(0),
            limit: u64::MAX,
            aborted: false,
            completions: 0,
            max_win: p.max_points(),
            sodos: vec![0; p.n],
            blocks: Vec::with_capacity(p.n),
        }
    }

    /// The work of the current query, in budget units.
    fn work(&self) -> u64 {
        self.nodes
            .saturating_add(self.bounds.get().saturating_mul(BOUND_COST))
            .saturating_add(self.flows.get().saturating_mul(FLOW_COST))
    }

    fn apply(&mut self, p: &Problem, d: usize, o: usize, sign: bool) {
        let (a, b) = p.rem[d];
        let (x, y) = p.outcomes[o];
        let n = self.n;
        if sign {
            self.pts[a] += x;
            self.pts[b] += y;
            self.h2h[a * n + b] += x;
            self.h2h[b * n + a] += y;
        } else {
            self.pts[a] -= x;
            self.pts[b] -= y;
            self.h2h[a * n + b] -= x;
            self.h2h[b * n + a] -= y;
        }
    }

    /// Rank the current (complete) assignment and record its evidence.
    fn leaf(&mut self, p: &mut Problem) {
        self.completions += 1;
        self.nodes += LEAF_COST;
        let n = self.n;
        let z = self.z;
        for i in 0..n {
            let s: u64 = (0..n)
                .map(|j| u64::from(self.h2h[i * n + j]) * u64::from(self.pts[j]))
                .sum();
            // As the table keeps it: exact, in units of 1 / (2 × win)
            // gamepoint (ARB-R39).
            self.sodos[i] = i64::try_from(s).unwrap_or(i64::MAX);
        }
        // Criterion 0 first: players of different gamepoints are in
        // different blocks, and a group of equal gamepoints goes on at
        // criterion 1 (no restart before criterion 2), so each group is
        // ranked on its own, and only if one of its players still lacks
        // evidence.
        let mut order = [0usize; MAX_PLAYERS];
        for (i, slot) in order.iter_mut().enumerate().take(n) {
            *slot = i;
        }
        let order = &mut order[..n];
        order.sort_by_key(|&i| std::cmp::Reverse(self.pts[i]));
        let leaf = Leaf {
            pts: &self.pts,
            h2h: &self.h2h,
            sodos: &self.sodos,
        };
        let mut placed = [(0usize, 0usize, 0usize); MAX_PLAYERS];
        let mut count = 0usize;
        let mut place = |i: usize, lo: usize, hi: usize| {
            placed[count] = (i, lo, hi);
            count += 1;
        };
        let mut blocks = std::mem::take(&mut self.blocks);
        let mut at = 0usize;
        let mut start = 0usize;
        let sodos_tol = p.tolerance.get(1).copied().unwrap_or(0);
        while start < n {
            let mut end = start + 1;
            while end < n && self.pts[order[end]] == self.pts[order[start]] {
                end += 1;
            }
            let group = &mut order[start..end];
            let needed = group
                .iter()
                .any(|&i| (0..z).any(|zi| !self.evidence[i * z + zi].settled()));
            if needed && group.len() == 1 {
                at += 1;
                place(group[0], at, at);
            } else if needed
                && group.len() == 2
                && self.sodos[group[0]].abs_diff(self.sodos[group[1]]) > sodos_tol.unsigned_abs()
            {
                // What `rank_into` does with two players SODOS separates.
                let (u, l) = if self.sodos[group[0]] > self.sodos[group[1]] {
                    (group[0], group[1])
                } else {
                    (group[1], group[0])
                };
                place(u, at + 1, at + 1);
                place(l, at + 2, at + 2);
                at += 2;
            } else if needed {
                blocks.clear();
                p.rank_into(&leaf, group, 1, &mut blocks);
                let mut k = 0usize;
                for &len in &blocks {
                    let (lo, hi) = (at + 1, at + len);
                    at += len;
                    for &i in &group[k..k + len] {
                        place(i, lo, hi);
                    }
                    k += len;
                }
            } else {
                at += group.len();
            }
            start = end;
        }
        self.blocks = blocks;
        for &(i, lo, hi) in &placed[..count] {
            for (zi, zone) in p.zones.iter().enumerate() {
                self.evidence[i * z + zi].record(zone.classify(lo, hi), TieKind::Die);
            }
        }
    }

    /// The witness completions tried first: for each player, all his games
    /// left won, then all lost; the other games by a fixed scramble.
    fn probes(&mut self, p: &mut Problem) {
        let m = p.rem.len();
        let k = p.outcomes.len();
        if m == 0 {
            self.leaf(p);
            return;
        }
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        for target in 0..self.n {
            for favour in [true, false] {
                let mut chosen = Vec::with_capacity(m);
                for d in 0..m {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    let (a, b) = p.rem[d];
                    let o = if a == target || b == target {
                        let first = (a == target) == favour;
                        // Outcome 0 is a win for the first player, 1 for
                        // the second.
                        usize::from(!first).min(k - 1)
                    } else {
                        ((state >> 33) % k as u64) as usize
                    };
                    chosen.push(o);
                }
                for (d, &o) in chosen.iter().enumerate() {
                    self.apply(p, d, o, true);
                }
                self.leaf(p);
                for (d, &o) in chosen.iter().enumerate() {
                    self.apply(p, d, o, false);
                }
            }
        }
    }

    /// Whether `upper` ranks in a block above `lower` in every completion
    /// below depth `d`: more gamepoints for certain, or gamepoints that can
    /// be equal only if `upper` gains nothing more and `lower` wins every
    /// game he has left, and then a higher SODOS for certain (criterion 1
    /// separates them in whatever tie they share).
    ///
    /// With a `cap`, only the completions where nobody ends above `cap`
    /// gamepoints, but those already above it, are considered (a search
    /// for `lower` alone in the top places needs no other: with those
    /// already above his most, anyone else above his total puts him out).
    ///
    /// With `Rel::NeverBelow`, whether `upper` never ranks in a block below
    /// `lower`'s (above it, or in one block with him): what keeps `lower`
    /// from being alone in a place `upper` could otherwise leave him.
    fn surely_above(
        &self,
        prob: &Problem,
        d: usize,
        upper: usize,
        lower: usize,
        cap: u32,
        rel: Rel,
    ) -> bool {
        self.bounds.set(self.bounds.get() + 1);
        let n = self.n;
        let left = &prob.left[d * n..(d + 1) * n];
        let w = self.max_win;
        let min_u = self.pts[upper];
        let max_l = self.pts[lower] + w * left[lower];
        if min_u != max_l || !prob.max_only_by_winning {
            return min_u > max_l;
        }
        // Equal only thus: `upper` takes nothing from his games left (his
        // head-to-head stays), `lower` wins all of his.
        let pairs = &prob.pair_left[d * n * n..(d + 1) * n * n];
        let final_l = |j: usize| self.h2h[lower * n + j] + w * pairs[lower * n + j];
        let range = |j: usize| {
            if j == lower {
                (max_l, max_l)
            } else if j == upper {
                (min_u, min_u)
            } else {
                let won_by_lower = pairs[lower * n + j];
                let hi = self.pts[j] + w * (left[j] - won_by_lower);
                if self.pts[j] > cap {
                    (self.pts[j], hi)
                } else {
                    (self.pts[j], hi.min(cap))
                }
            }
        };
        let (mut lo_u, mut hi_l) = (0u64, 0u64);
        // SODOS(upper) - SODOS(lower), both times a win's points, is linear
        // in the final gamepoints: its least value.
        let mut diff_min = 0i64;
        for j in 0..n {
            let (min_j, max_j) = range(j);
            let hu = self.h2h[upper * n + j];
            let hl = final_l(j);
            lo_u += u64::from(hu) * u64::from(min_j);
            hi_l += u64::from(hl) * u64::from(max_j);
            let c = i64::from(hu) - i64::from(hl);
            let (a, b) = (c * i64::from(min_j), c * i64::from(max_j));
            diff_min += a.min(b);
        }
        // The table keeps SODOS exactly in these units (ARB-R39): every
        // difference counts.
        if lo_u > hi_l || diff_min > 0 {
            return true;
        }
        let gap = diff_min.max(self.sodos_gap_min(prob, d, upper, lower, cap));
        if gap > 0 {
            return true;
        }
        // SODOS never lower (tolerance 0: equal SODOS keep them in one
        // block, a higher one puts `upper` in a block above), and then at
        // head-to-head (criterion 2, tolerance 0) a count never lower in
        // whatever block they share: both rows are fixed here, so the
        // least `upper`'s count can exceed `lower`'s by, over every block
        // holding both, is their score between them plus each other
        // player's difference where it is negative (a block holds him only
        // when that hurts). More, for certain: a block above. Never less:
        // a block above, or one block again, and so on after the SJ-R9
        // restart (which ranks again inside a block, where the same holds
        // of every smaller block) down to D.2, where `static_above` ranks
        // `upper` above whoever else is in it.
        let exact = |k: usize| prob.tolerance.get(k).is_some_and(|&t| t == 0);
        if !(gap >= 0 && exact(1) && exact(2)) {
            return false;
        }
        let mut h2h_least = i64::from(self.h2h[upper * n + lower]) - i64::from(final_l(upper));
        for j in (0..n).filter(|&j| j != upper && j != lower) {
            h2h_least += (i64::from(self.h2h[upper * n + j]) - i64::from(final_l(j))).min(0);
        }
        h2h_least > 0
            || (h2h_least == 0
                && match rel {
                    Rel::Above => prob.static_above[upper * n + lower],
                    Rel::NeverBelow => prob.never_below[upper * n + lower],
                })
    }

    /// A lower bound of SODOS(upper) - SODOS(lower) (both times a win's
    /// points) over the completions below depth `d` where `upper` takes
    /// nothing more, `lower` wins every game he has left, and nobody ends
    /// above `cap` gamepoints but those already above it (whose `l[j]`
    /// stays 0). In that case both head-to-head rows are
    /// fixed and the difference is `const + sum of c[j] * P[j]`, linear in
    /// the final gamepoints `P` of the others. For any `l[j] >= 0`, adding
    /// `l[j] * (P[j] - cap)` (never positive under the cap) only lowers it,
    /// and the sum then splits game by game: each game left adds the least
    /// over its allowed results (`upper` taking nothing, `lower` winning)
    /// of `(c + l)` times the points it gives. That is a lower bound for
    /// every `l`: tried with `l = 0` and with `l[j] = -c[j]` for those who
    /// could pass the cap and count against `upper`.
    fn sodos_gap_min(&self, prob: &Problem, d: usize, upper: usize, lower: usize, cap: u32) -> i64 {
        let n = self.n;
        let w = self.max_win;
        let pairs = &prob.pair_left[d * n * n..(d + 1) * n * n];
        let left = &prob.left[d * n..(d + 1) * n];
        let hu = |j: usize| i64::from(self.h2h[upper * n + j]);
        let hl = |j: usize| i64::from(self.h2h[lower * n + j] + w * pairs[lower * n + j]);
        let p_u = i64::from(self.pts[upper]);
        let p_l = i64::from(self.pts[lower] + w * left[lower]);
        let mut coef = [0i64; MAX_SMALL];
        let mut mult = [0i64; MAX_SMALL];
        if n > MAX_SMALL {
            return 0;
        }
        for j in (0..n).filter(|&j| j != upper && j != lower) {
            coef[j] = hu(j) - hl(j);
            let hi = self.pts[j] + w * left[j];
            if cap != u32::MAX && coef[j] < 0 && hi > cap && self.pts[j] <= cap {
                mult[j] = -coef[j];
            }
        }
        let mut best_bound = i64::MIN;
        for use_cap in [false, true] {
            if use_cap && mult.iter().all(|&m| m == 0) {
                continue;
            }
            let l = |j: usize| if use_cap { mult[j] } else { 0 };
            let eff = |j: usize| coef[j] + l(j);
            let mut gap = hu(lower) * p_l - hl(upper) * p_u;
            for j in (0..n).filter(|&j| j != upper && j != lower) {
                gap += eff(j) * i64::from(self.pts[j]) - l(j) * i64::from(cap);
            }
            for &(a, b) in &prob.rem[d..] {
                let mut best: Option<i64> = None;
                for &(x, y) in &prob.outcomes {
                    let allowed = |i: usize, mine: u32| {
                        (i != upper || mine == 0) && (i != lower || mine == w)
                    };
                    if !allowed(a, x) || !allowed(b, y) {
                        continue;
                    }
                    let part = |i: usize, got: u32| {
                        if i == upper || i == lower {
                            0
                        } else {
                            eff(i) * i64::from(got)
                        }
                    };
                    let v = part(a, x) + part(b, y);
                    best = Some(best.map_or(v, |m: i64| m.min(v)));
                }
                match best {
                    Some(v) => gap += v,
                    // No allowed result: that case cannot happen here;
                    // claim nothing.
                    None => return 0,
                }
            }
            best_bound = best_bound.max(gap);
        }
        best_bound
    }

    /// Whether at least `m` players other than `q` can end with at least
    /// `q`'s present gamepoints in one completion below depth `d`: a
    /// transport of the points of the games left (each game gives at most
    /// a win to either player, its two shares at most the most a game
    /// gives), for each choice of players who must gain.
    fn can_reach(&self, prob: &Problem, d: usize, q: usize, m: usize) -> bool {
        let n = self.n;
        let left = &prob.left[d * n..(d + 1) * n];
        let w = self.max_win;
        let t = self.pts[q];
        let free = (0..n).filter(|&i| i != q && self.pts[i] >= t).count();
        if free >= m {
            return true;
        }
        let mut needy: Vec<(usize, u32)> = (0..n)
            .filter(|&i| i != q && self.pts[i] < t && self.pts[i] + w * left[i] >= t)
            .map(|i| (i, t - self.pts[i]))
            .collect();
        let want = m - free;
        if needy.len() < want {
            return false;
        }
        needy.sort_by_key(|x| x.1);
        let games = &prob.rem[d..];
        let mut chosen: Vec<usize> = (0..want).collect();
        loop {
            let demand: Vec<(usize, u32)> = chosen.iter().map(|&k| needy[k]).collect();
            self.flows.set(self.flows.get() + 1);
            if transport(games, &demand, w, prob.game_total, n) {
                return true;
            }
            // The next combination of `want` among `needy`.
            if !crate::clinch::next_combination(&mut chosen, needy.len()) {
                return false;
            }
        }
    }

    /// Whether `q`, his games over, can still be alone in the places 1 to
    /// `last` when the head-to-head rows among everyone who could end level
    /// with him on gamepoints are fixed (`false` only when that is so and
    /// no way is left; `true` when it does not apply): each of them has
    /// his games over at `q`'s total, or has games left only against
    /// players who cannot end level with him (so his results against the
    /// others who could are in).
    ///
    /// What is left open is each one's place on gamepoints (below, level,
    /// above, as his range allows) and, level, his SODOS against `q`'s:
    /// linear in the others' final gamepoints, each taken within its
    /// range (a level player's at `q`'s total), and in his own head-to-head
    /// row where games are left (each entry within what he has and what a
    /// win in each game left against that player adds), so bounded. For
    /// each of them, each place the bounds allow is tried (below `q`,
    /// above, or level on gamepoints and SODOS and so in his block), each
    /// independently (a relaxation: some of these may not go together),
    /// and the level ones are ranked with `q` from criterion 1 on as the
    /// leaves are (the same SODOS, the fixed head-to-head, D.2). His block
    /// must end at `last` at most: those surely above him on gamepoints,
    /// those above on gamepoints or SODOS, and his block's end in that
    /// ranking.
    fn pinned_tie_allows(&self, prob: &Problem, d: usize, q: usize, last: usize) -> bool {
        let n = self.n;
        let left = &prob.left[d * n..(d + 1) * n];
        if left[q] != 0 || n > MAX_SMALL || prob.win > 2 || prob.tolerance.get(1) != Some(&0) {
            return true;
        }
        let t = self.pts[q];
        let w = self.max_win;
        let pairs = &prob.pair_left[d * n * n..(d + 1) * n * n];
        let hi_pts = |i: usize| self.pts[i] + w * left[i];
        let can_be_level = |i: usize| self.pts[i] <= t && hi_pts(i) >= t;
        let mut level = [0usize; MAX_SMALL];
        let mut count = 0usize;
        let mut strict = 0usize;
        for i in (0..n).filter(|&i| i != q) {
            if self.pts[i] > t {
                strict += 1;
            } else if can_be_level(i) {
                // His row against the others who could end level is fixed
                // only if no game is left between them.
                let fixed = (0..n).all(|j| j == i || pairs[i * n + j] == 0 || !can_be_level(j));
                if !fixed {
                    return true;
                }
                level[count] = i;
                count += 1;
            }
        }
        if count == 0 || count > 6 || strict + 1 > last {
            return true;
        }
        self.bounds.set(self.bounds.get() + 1);
        // SODOS(i) - SODOS(q) over the completions below where `i` ends
        // level with `q`: `i` with `t`, the others within their ranges
        // (those with their games over at `t`, at `t`).
        let mut options = [[false; 3]; MAX_SMALL];
        for (k, &i) in level[..count].iter().enumerate() {
            let (mut lo, mut hi) = (0i64, 0i64);
            for (j, &games) in left.iter().enumerate() {
                let own = i64::from(self.h2h[i * n + j]);
                let theirs = i64::from(self.h2h[q * n + j]);
                let (c_lo, c_hi) = (own - theirs, own + i64::from(w * pairs[i * n + j]) - theirs);
                let (a, b) = if j == q || j == i || self.pts[j] == t && games == 0 {
                    (i64::from(t), i64::from(t))
                } else {
                    (i64::from(self.pts[j]), i64::from(hi_pts(j)))
                };
                let corners = [c_lo * a, c_lo * b, c_hi * a, c_hi * b];
                lo += corners.iter().min().copied().unwrap_or(0);
                hi += corners.iter().max().copied().unwrap_or(0);
            }
            // Below (on gamepoints or SODOS), level, above.
            options[k] = [
                lo < 0 || self.pts[i] < t,
                lo <= 0 && hi >= 0,
                hi > 0 || hi_pts(i) > t,
            ];
        }
        let zeros = [0i64; MAX_SMALL];
        // The block all ends with `t` (a restart to criterion 0 reads it).
        let level_pts = [t; MAX_SMALL];
        let leaf = Leaf {
            pts: &level_pts[..n],
            h2h: &self.h2h,
            sodos: &zeros[..n],
        };
        let mut lens = Vec::with_capacity(count + 1);
        let total = 3usize.pow(count as u32);
        'combos: for code in 0..total {
            let mut c = code;
            let mut above = 0usize;
            let mut block = [0usize; MAX_SMALL];
            let mut size = 0usize;
            block[size] = q;
            size += 1;
            for (k, &i) in level[..count].iter().enumerate() {
                let choice = c % 3;
                c /= 3;
                if !options[k][choice] {
                    continue 'combos;
                }
                match choice {
                    0 => {}
                    1 => {
                        block[size] = i;
                        size += 1;
                    }
                    _ => above += 1,
                }
            }
            if strict + above + 1 > last {
                continue;
            }
            lens.clear();
            self.bounds.set(self.bounds.get() + 2);
            let members = &mut block[..size];
            prob.rank_into(&leaf, members, 1, &mut lens);
            let mut end = 0usize;
            let mut start = 0usize;
            for &len in &lens {
                if members[start..start + len].contains(&q) {
                    end = start + len;
                    break;
                }
                start += len;
            }
            if strict + above + end <= last {
                return true;
            }
        }
        false
    }

    /// Whether the subtree at depth `d` may give player `q` the evidence
    /// he still lacks for zone `zi`.
    fn promising(&self, prob: &Problem, d: usize, q: usize, zi: usize) -> bool {
        let e = self.evidence[q * self.z + zi];
        if self.goal.met(&e) {
            return false;
        }
        let goal = self.goal;
        let n = self.n;
        let left = &prob.left[d * n..(d + 1) * n];
        let lo_pts = |i: usize| self.pts[i];
        let hi_pts = |i: usize| self.pts[i] + self.max_win * left[i];
        let zone = prob.zones[zi];
        // `surely_above` with its first test done here: the bounds on
        // SODOS are needed only when the gamepoints can just meet.
        let relation = |u: usize, l: usize, cap: u32, rel: Rel| {
            let (min_u, max_l) = (lo_pts(u), hi_pts(l));
            if min_u != max_l || !prob.max_only_by_winning {
                min_u > max_l
            } else {
                self.surely_above(prob, d, u, l, cap, rel)
            }
        };
        // Alone in the places 1 to `last`: with `last - 1` players sure to
        // end above his most gamepoints, nobody else may end above it (he
        // would be at `last + 1` or lower), and anyone else who must then
        // rank above him, or can at best share his block, rules it out
        // (his block would end at `last + 1` or lower); with `last` of
        // them, nothing can put him there.
        let cap = hi_pts(q);
        let strict = (0..n).filter(|&i| lo_pts(i) > cap).count();
        let top_possible = |last: usize| match (strict + 1).cmp(&last) {
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => {
                (0..n).all(|i| i == q || lo_pts(i) > cap || !relation(i, q, cap, Rel::NeverBelow))
            }
            std::cmp::Ordering::Less => true,
        };
        if goal.kind == Some(Kind::Inside) && zone.first <= 1 {
            if e.inside
                || !top_possible(zone.last)
                || !self.pinned_tie_allows(prob, d, q, zone.last)
            {
                return false;
            }
            if zone.last == 1 {
                // What the general test below comes to for a zone of 1st
                // alone: nobody surely above him, which `top_possible`
                // implies (its bounds are narrower).
                return true;
            }
        }
        // His place lies between `ca + 1` (those surely above him, `ca`)
        // and `pa + 1` (those not surely below, `pa`); `cb` are surely
        // below. Each count is taken only when the evidence sought needs
        // it, and a count stops once it is known to decide, since the
        // pair bounds are most of a search's time (the settled pairs,
        // those apart on gamepoints, come first).
        let (a, b) = (zone.first, zone.last);
        let others = || (0..n).filter(|&i| i != q);
        let settled = |u: usize, l: usize| lo_pts(u) > hi_pts(l);
        let open = |u: usize, l: usize| lo_pts(u) == hi_pts(l) && prob.max_only_by_winning;
        // Whether more than `limit` players are surely above him (each pair
        // bound taken once: several questions below may ask).
        let known: [std::cell::Cell<u8>; MAX_PLAYERS] =
            std::array::from_fn(|_| std::cell::Cell::new(0));
        let above_more_than = |limit: usize| {
            let mut count = others().filter(|&i| settled(i, q)).count();
            if count > limit {
                return true;
            }
            for i in others().filter(|&i| open(i, q)) {
                let is_above = match known[i].get() {
                    0 => {
                        let v = self.surely_above(prob, d, i, q, u32::MAX, Rel::Above);
                        known[i].set(1 + u8::from(v));
                        v
                    }
                    k => k == 2,
                };
                if is_above {
                    count += 1;
                    if count > limit {
                        return true;
                    }
                }
            }
            false
        };
        // Those he is surely above, all counted.
        let below = std::cell::OnceCell::new();
        let cb = || {
            *below.get_or_init(|| {
                others()
                    .filter(|&i| {
                        settled(q, i)
                            || open(q, i) && self.surely_above(prob, d, q, i, u32::MAX, Rel::Above)
                    })
                    .count()
            })
        };
        let pa = || n - 1 - cb();
        // At least `m` others at or above his gamepoints.
        let deep = d < prob.rem.len();
        let reach = |m: usize| m == 0 || !deep || self.can_reach(prob, d, q, m);
        // For a zone at the top, `top_possible(b)` was checked above when
        // the search is for a completion inside it; with `b - 1` players
        // above his most gamepoints it found nobody else never below him,
        // so nobody else surely above either (surely above with no cap
        // implies never below under one: the cap only narrows the bounds,
        // and D.2 ranking above implies never below), and the count of
        // those above is `b - 1`.
        let top_checked = goal.kind == Some(Kind::Inside) && zone.first <= 1;
        if !e.inside
            && goal.wants(Kind::Inside)
            && (a <= 1 || pa() + 1 >= a)
            && ((top_checked && strict + 1 == b) || !above_more_than(b - 1))
            && reach(a - 1)
            && (a > 1 || top_checked || top_possible(b))
        {
            return true;
        }
        if !e.outside
            && goal.wants(Kind::Outside)
            && ((a >= 2 && !above_more_than(a - 2)) || (pa() + 1 > b && reach(b)))
        {
            return true;
        }
        if !e.die && goal.wants(Kind::Die) {
            let hi_max = n - cb();
            let at_a = a > 1 && !above_more_than(a - 2) && hi_max >= a && reach(a - 1);
            let at_b = !above_more_than(b - 1) && hi_max > b && reach(b);
            if at_a || at_b {
                match &prob.die_sets {
                    None => return true,
                    Some(sets) => {
                        for &mask in &sets[q] {
                            let (mut lo, mut hi) = (0u32, u32::MAX);
                            for i in (0..n).filter(|i| mask >> i & 1 == 1) {
                                lo = lo.max(lo_pts(i));
                                hi = hi.min(hi_pts(i));
                            }
                            if lo <= hi {
                                return true;
                            }
                        }
                    }
                }
            }
        }
        false
    }

    /// Search for the evidence player `q` lacks for zone `zi` (what the
    /// goal asks of it). Returns whether to stop (found all of it, or out
    /// of budget).
    fn dfs(&mut self, p: &mut Problem, d: usize, q: usize, zi: usize) -> bool {
        if self.goal.met(&self.evidence[q * self.z + zi]) {
            return true;
        }
        self.nodes += NODE_COST;
        if self.work() > self.limit {
            self.aborted = true;
            return true;
        }
        if !self.promising(p, d, q, zi) {
            return false;
        }
        if d == p.rem.len() {
            self.leaf(p);
            return self.goal.met(&self.evidence[q * self.z + zi]);
        }
        let (a, b) = p.rem[d];
        let k = p.outcomes.len().min(4);
        let mut order = [0usize, 1, 2, 3];
        let mut count = k;
        match self.goal.direction {
            Some(dir) if a == q || b == q => {
                // Only his results that no other betters (`Up`) or worsens
                // (`Down`): see `Goal`.
                let mine = |o: usize| {
                    let (x, y) = p.outcomes[o];
                    if a == q { (x, y) } else { (y, x) }
                };
                count = 0;
                for o in 0..k {
                    let (m, t) = mine(o);
                    let beaten = (0..k).any(|o2| {
                        let (m2, t2) = mine(o2);
                        match dir {
                            Direction::Up => m2 > m && t2 <= t,
                            Direction::Down => m2 < m && t2 >= t,
                        }
                    });
                    if !beaten {
                        order[count] = o;
                        count += 1;
                    }
                }
            }
            Some(dir) => {
                // The others' games: going up, the fewest gamepoints first,
                // and then to the weaker of the two; going down, the most
                // first, and then to the one who needs them to pass him
                // (below him, and the nearer).
                let (pa, pb, pq) = (self.pts[a], self.pts[b], self.pts[q]);
                let a_first = match dir {
                    Direction::Up => pa <= pb,
                    Direction::Down => match (pa <= pq, pb <= pq) {
                        (true, false) => true,
                        (false, true) => false,
                        _ => pa >= pb,
                    },
                };
                // First, with his own games over, what the result does to
                // his SODOS against those level with him now (a tie he
                // must win going up, lose going down): SODOS is linear in
                // the final gamepoints, each weighted by what he and they
                // took from that player.
                let n = self.n;
                let mut weight = [0i64; 2];
                if n <= MAX_SMALL && p.left[d * n + q] == 0 {
                    for r in (0..n).filter(|&r| r != q && self.pts[r] == pq) {
                        for (w, i) in weight.iter_mut().zip([a, b]) {
                            *w += i64::from(self.h2h[q * n + i]) - i64::from(self.h2h[r * n + i]);
                        }
                    }
                    if dir == Direction::Down {
                        weight = weight.map(|w| -w);
                    }
                }
                let key = |o: usize| {
                    let (x, y) = p.outcomes[o];
                    let (to_first, to_other) = if a_first { (x, y) } else { (y, x) };
                    let gain = weight[0] * i64::from(x) + weight[1] * i64::from(y);
                    match dir {
                        Direction::Up => (std::cmp::Reverse(gain), x + y, to_other),
                        Direction::Down => (
                            std::cmp::Reverse(gain),
                            u32::MAX - (x + y),
                            u32::MAX - to_first,
                        ),
                    }
                };
                order[..k].sort_by_key(|&o| key(o));
            }
            None => {
                // With `q` in the game, try first the result that helps
                // the evidence he lacks: a win to get into a zone at the
                // top or out of one lower down, a loss otherwise.
                let e = self.evidence[q * self.z + zi];
                let zone = p.zones[zi];
                let up = (!e.inside && zone.first == 1) || (e.inside && zone.first > 1);
                if (a == q || b == q) && ((a == q) != up) {
                    order.swap(0, 1);
                }
            }
        }
        for &o in &order[..count] {
            self.apply(p, d, o, true);
            let stop = self.dfs(p, d + 1, q, zi);
            self.apply(p, d, o, false);
            if stop {
                return true;
            }
        }
        false
    }
}

/// Whether the games left can give each player of `demand` his points: a
/// game sends at most `win` to either of its players and at most `total`
/// in all. A max flow by augmenting paths, one unit at a time, on the
/// bipartite graph of games and players (small integers).
fn transport(
    games: &[(usize, usize)],
    demand: &[(usize, u32)],
    win: u32,
    total: u32,
    n: usize,
) -> bool {
    let mut need = vec![0u32; n];
    for &(i, x) in demand {
        need[i] = x;
    }
    let useful: Vec<[usize; 2]> = games
        .iter()
        .filter(|&&(a, b)| need[a] > 0 || need[b] > 0)
        .map(|&(a, b)| [a, b])
        .collect();
    let g = useful.len();
    let need_total: u64 = demand.iter().map(|x| u64::from(x.1)).sum();
    if (g as u64) * u64::from(total) < need_total {
        return false;
    }
    let mut games_of = vec![0u32; n];
    for e in &useful {
        games_of[e[0]] += 1;
        games_of[e[1]] += 1;
    }
    if demand.iter().any(|&(i, x)| x > win * games_of[i]) {
        return false;
    }
    let mut flow = vec![[0u32; 2]; g];
    let mut sent = vec![0u32; g];
    let mut got = vec![0u32; n];
    loop {
        if demand.iter().all(|&(i, x)| got[i] >= x) {
            return true;
        }
        // parent[k]: (game before, its side, the side game k gives up).
        let mut parent: Vec<Option<(usize, usize, usize)>> = vec![None; g];
        let mut seen = vec![false; g];
        let mut queue = std::collections::VecDeque::new();
        for k in 0..g {
            if sent[k] < total {
                seen[k] = true;
                queue.push_back(k);
            }
        }
        let mut end: Option<(usize, usize)> = None;
        'bfs: while let Some(k) = queue.pop_front() {
            for side in 0..2 {
                let pl = useful[k][side];
                if need[pl] == 0 || flow[k][side] >= win {
                    continue;
                }
                if parent[k].is_some_and(|(_, _, back)| back == side) {
                    continue;
                }
                if got[pl] < need[pl] {
                    end = Some((k, side));
                    break 'bfs;
                }
                // `pl` is served: another game may give up a unit it sends
                // him and send it elsewhere.
                for k2 in 0..g {
                    if seen[k2] {
                        continue;
                    }
                    let Some(s2) = (0..2).find(|&s| useful[k2][s] == pl && flow[k2][s] > 0) else {
                        continue;
                    };
                    seen[k2] = true;
                    parent[k2] = Some((k, side, s2));
                    queue.push_back(k2);
                }
            }
        }
        let Some((mut k, mut side)) = end else {
            return false;
        };
        got[useful[k][side]] += 1;
        loop {
            flow[k][side] += 1;
            match parent[k] {
                None => {
                    sent[k] += 1;
                    break;
                }
                Some((prev, prev_side, back)) => {
                    flow[k][back] -= 1;
                    k = prev;
                    side = prev_side;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zones_of_a_single_group_division() {
        let rules = SunjangRules::default();
        let s = GroupSetting {
            size: 7,
            division: 1,
            groups: 1,
            division_size: 7,
            tens: 0,
            below: Some((3, 20)),
        };
        let z = group_zones(&s, &rules);
        assert_eq!(z[0], Zone::new(ZoneKind::Title, 1, 1));
        assert_eq!(z[1], Zone::new(ZoneKind::Promotion, 1, 2));
        assert_eq!(z[2], Zone::new(ZoneKind::Demotion, 5, 7));
        let a = GroupSetting {
            size: 7,
            division: 0,
            groups: 2,
            division_size: 14,
            tens: 0,
            below: Some((3, 20)),
        };
        let z = group_zones(&a, &rules);
        assert_eq!(
            z,
            vec![
                Zone::new(ZoneKind::Title, 1, 1),
                Zone::new(ZoneKind::FinalRound, 1, 1)
            ]
        );
    }

    /// The group of `examples/clinch_scan.rs`: players 1 to 9, ranked and
    /// rated in that order, the only group of division B, a division below.
    struct Fixture {
        ids: Vec<PlayerId>,
        infos: Vec<super::super::PlayerInfo>,
        tiebreaks: super::super::ranking::Tiebreaks,
        rules: SunjangRules,
        zones: Vec<Zone>,
    }

    impl Fixture {
        fn new() -> Fixture {
            use super::super::{PlayerInfo, Rank};
            let rules = SunjangRules::default();
            let setting = GroupSetting {
                size: 9,
                division: 1,
                groups: 1,
                division_size: 9,
                tens: 0,
                below: Some((3, 21)),
            };
            Fixture {
                ids: (1..=9).map(PlayerId).collect(),
                infos: (0..9u8)
                    .map(|i| PlayerInfo {
                        name: format!("Player {}", i + 1),
                        rank: Rank::Kyu(1 + i / 2),
                        provisional: false,
                        rating: 1800 - 25 * i32::from(i),
                        corr_rank: None,
                        corr_rating: None,
                    })
                    .collect(),
                tiebreaks: super::super::ranking::Tiebreaks::default(),
                zones: group_zones(&setting, &rules),
                rules,
            }
        }

        fn data(&self) -> RankingData<'_> {
            RankingData {
                info: &self.infos,
                performance: &[],
                games: &[],
                tiebreaks: &self.tiebreaks,
                rules: &self.rules,
            }
        }

        /// The index of the zone of this kind.
        fn zone(&self, kind: ZoneKind) -> usize {
            self.zones
                .iter()
                .position(|z| z.kind == kind)
                .unwrap_or(usize::MAX)
        }
    }

    fn game(black: u32, white: u32, outcome: Option<Outcome>) -> GroupGame {
        GroupGame {
            pairing: super::super::group::Pairing {
                round: 1,
                black: PlayerId(black),
                white: PlayerId(white),
            },
            outcome,
        }
    }

    /// A position reached in the search of seed 1738 of
    /// `examples/clinch_scan.rs` (player 4, the promotion places 1st to
    /// 2nd): his games are over at 8, as are those of players 1, 2 and 8,
    /// level with him; player 7 has 6 and games left only against players
    /// 3 and 9, who cannot reach 8. Every arrangement leaves player 4 at
    /// best third (1 above on SODOS; 8 level, and ahead on head-to-head),
    /// so the pinned block rules the subtree out before its two games are
    /// enumerated, which it did not while player 7 had games left.
    #[test]
    fn a_level_block_with_a_player_whose_games_left_cannot_make_others_level() {
        use Outcome::{BlackWins as B, BothForfeit as F, Jigo as J, WhiteWins as W};
        // (black, white, result): black is the lower number.
        let results: [(u32, u32, Option<Outcome>); 36] = [
            (1, 2, Some(B)),
            (1, 3, Some(B)),
            (1, 4, Some(B)),
            (1, 5, Some(B)),
            (1, 6, Some(W)),
            (1, 7, Some(F)),
            (1, 8, Some(F)),
            (1, 9, Some(F)),
            (2, 3, Some(B)),
            (2, 4, Some(W)),
            (2, 5, Some(J)),
            (2, 6, Some(J)),
            (2, 7, Some(F)),
            (2, 8, Some(B)),
            (2, 9, Some(B)),
            (3, 4, Some(W)),
            (3, 5, Some(F)),
            (3, 6, Some(W)),
            (3, 7, None),
            (3, 8, Some(W)),
            (3, 9, Some(B)),
            (4, 5, Some(B)),
            (4, 6, Some(B)),
            (4, 7, Some(W)),
            (4, 8, Some(W)),
            (4, 9, Some(W)),
            (5, 6, Some(B)),
            (5, 7, Some(B)),
            (5, 8, Some(W)),
            (5, 9, Some(B)),
            (6, 7, Some(W)),
            (6, 8, Some(W)),
            (6, 9, Some(W)),
            (7, 8, Some(B)),
            (7, 9, None),
            (8, 9, Some(F)),
        ];
        let games: Vec<GroupGame> = results
            .iter()
            .map(|&(b, w, outcome)| game(b, w, outcome))
            .collect();
        let f = Fixture::new();
        let data = f.data();
        let promotion = f.zone(ZoneKind::Promotion);
        assert_eq!(f.zones[promotion], Zone::new(ZoneKind::Promotion, 1, 2));
        let problem = Problem::new(&f.ids, &games, &f.rules, data.main_cascade(), &f.zones);
        let search = Search::new(&problem);
        assert_eq!(search.pts, [8, 8, 2, 8, 7, 5, 6, 8, 4]);
        assert!(!search.pinned_tie_allows(&problem, 0, 3, 2));
        // And so it is: in none of the 16 completions is player 4 in the
        // promotion places.
        let a = analyse(&f.ids, &games, &data, &f.zones, Budget::default());
        assert_eq!(a.verdicts[3][promotion], Verdict::Eliminated);
    }

    /// Seed 1738 of `examples/clinch_scan.rs`: 18 games played, 18 left.
    /// Whether player 4 can reach the promotion places is the one hard
    /// question (about 26 million budget units); with a budget of 8
    /// million, all of it allowed to any one question, that search runs
    /// out, and every question after it must still get its share: the
    /// easy ones (player 5's group win among them, the next asked) come
    /// out exact.
    #[test]
    fn a_hard_question_leaves_the_budget_of_the_ones_after_it() {
        use Outcome::{BlackWins as B, WhiteWins as W};
        let played = [
            (9, 2, W),
            (8, 3, B),
            (7, 4, B),
            (6, 5, W),
            (2, 1, W),
            (3, 9, B),
            (4, 8, W),
            (5, 7, B),
            (1, 3, B),
            (9, 4, B),
            (8, 5, B),
            (7, 6, B),
            (4, 1, W),
            (3, 2, W),
            (5, 9, B),
            (6, 8, W),
            (1, 5, B),
            (2, 4, W),
        ];
        let left = [
            (9, 6),
            (8, 7),
            (6, 1),
            (5, 2),
            (4, 3),
            (7, 9),
            (1, 7),
            (2, 6),
            (3, 5),
            (9, 8),
            (8, 1),
            (7, 2),
            (6, 3),
            (5, 4),
            (1, 9),
            (2, 8),
            (3, 7),
            (4, 6),
        ];
        let games: Vec<GroupGame> = played
            .iter()
            .map(|&(b, w, o)| (b, w, Some(o)))
            .chain(left.iter().map(|&(b, w)| (b, w, None)))
            .map(|(b, w, outcome)| game(b, w, outcome))
            .collect();
        let f = Fixture::new();
        let budget = Budget {
            nodes: 8_000_000,
            total: 8_000_000,
        };
        let a = analyse(&f.ids, &games, &f.data(), &f.zones, budget);
        let promotion = f.zone(ZoneKind::Promotion);
        for (p, row) in a.verdicts.iter().enumerate() {
            for (zi, v) in row.iter().enumerate() {
                if (p, zi) == (3, promotion) {
                    assert_eq!(*v, Verdict::Undetermined);
                } else {
                    assert_ne!(*v, Verdict::Undetermined, "player {} zone {zi}", p + 1);
                }
            }
        }
    }
}
