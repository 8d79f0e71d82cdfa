//! Clinch and elimination in a round-robin league (issue 16; ARB-R47,
//! ARB-R69): for each player in the table and each zone (the title, the
//! top `k`, the bottom `k`:
//! [`RoundRobinRules::zones`](super::RoundRobinRules::zones)), whether
//! every completion of the remaining games puts him in it, none does, or
//! it is open, ranked by the league's own cascade exactly as
//! [`super::table`] ranks.
//!
//! # Completions (ARB-R69)
//!
//! A remaining game is one that counts (neither player's games annulled,
//! ARB-R68) and has no counted result ([`RoundRobin::counted_score`]: the
//! games of a player who withdrew keeping his results are forfeits
//! already). A completion gives each of them a result of play: a win for
//! either side or a draw (the rules have no setting that rules draws
//! out). Forfeits are not anticipated: they are decisions about games not
//! played, and a verdict, like a published one ("qualified with a game to
//! spare"), is about the results of the games; once a forfeit is recorded,
//! the next analysis starts from the table it makes.
//!
//! A completion fixes who won, not by how much. The criteria that read
//! margins (score difference and goals scored, overall or head-to-head)
//! count a game not yet played only when its margin cannot matter: a draw
//! adds nothing to a difference whatever its score; otherwise the
//! criterion waits, and a tie it would settle counts as either side of a
//! zone's edge ([`TieKind::Margin`], as ARB-R26 does for XMadn). So does
//! quickness of victory, which waits for the minutes of games not played.
//! A tie left after every criterion the results decide, or waiting for a
//! drawing of lots, is [`TieKind::Die`]: "unless a lot decides". A lot
//! already recorded for the tied players settles the tie as in the table.
//!
//! # Method, and why it is exact
//!
//! Each completion is ranked with the cascade the rules give (points, then
//! the tiebreaks, with the head-to-head once, restarted or as a block,
//! ARB-R67), evaluated on integer facts computed from the recorded games
//! plus the completion's (one implementation per criterion, checked
//! against [`super::table::Facts::value`] in the tests, and every verdict
//! against the league's own table on every completion of leagues of up to
//! 6 players in `tests/roundrobin_clinch.rs`). Only players level on
//! points whose shared places straddle a zone's edge are ranked further.
//!
//! The search looks, for one player and one zone at a time, for the
//! evidence he lacks: a completion that puts him in the zone, one that
//! puts him out of it (a tie across the edge that margins would settle
//! counts as both); every completion it reaches records evidence for every
//! player and zone. A subtree is cut only when no completion below can
//! give the evidence sought, by bounds that hold for every completion
//! below the node:
//!
//! - a player's final points lie between what he has plus a loss's points
//!   for each game he has left and what he has plus a win's; a player
//!   surely ahead on points ranks above him, one surely behind below;
//! - his block of places begins after those surely above him and ends
//!   before those surely below; to end at place `k` or lower, `k - 1`
//!   others must reach his points together: a transport of the points of
//!   the games left (a max flow, each game giving at most a win's points to
//!   either player and at most a game's most in all).
//!
//! For a zone that begins at 1st or ends last, the kind of evidence fixes a
//! direction: a better result for him (more points for him, no more for
//! his opponent) can only move his block up (his new block ends no lower
//! than his old one began: everyone at or above his new points was
//! strictly above his old ones), so a search for a completion in a top
//! zone (out of a bottom one) keeps only his results that no other betters
//! that way, and the reverse searches only those no other worsens. His
//! games come first, then those of players who can end level with him.
//! The others' results come in the order likeliest to give the witness.
//!
//! A tie left to a lot needs no search of its own. Every bound above that
//! rules out a completion in (or out) also rules out his block spanning an
//! edge, so a search that finds no completion in (out) has reached every
//! completion where he straddles an edge, but those where one of his own
//! results was left out by the direction; and there, the result left out
//! would move his block wholly past the edge he straddled, out of (into)
//! the zone: a completion the search would have found. So when one of the
//! two searches is exhaustive, every tie left to a lot has been ranked;
//! when neither is, both kinds were found and the verdict is open
//! whatever the lots do.
//!
//! A search that finishes has seen a witness of every kind that exists, so
//! the verdict is exact. The engine has no clock: the [`Budget`] counts
//! units of work, and a question it cannot settle within its share is
//! [`Verdict::Undetermined`] (unless completions on both sides were found:
//! then it is open, which is proven). Before the searches, each player's
//! extreme completions (winning every game left, losing every one) are
//! ranked: they settle most open questions at once.

use std::cell::RefCell;

use crate::cascade::{Block, Cascade, Criterion, Restart};
use crate::clinch::{Analysis, Evidence, Membership, TieKind, Zone, blocks};
use crate::model::PlayerId;

use super::table::{Outcome, sides};
use super::{HeadToHead, RoundRobin, Score, Seat, Tiebreak};

/// How much search an analysis may use, per player and zone (`nodes`) and
/// in all (`total`), in units of work; past it, what is not proven is
/// [`Verdict::Undetermined`]. The engine has no clock, so the budget counts
/// work in units shaped like time: a node of the search one per player of
/// the table (its bounds), a completion reached two per player, a tie
/// ranked with the cascade sixty per player of the table and of the tie, a
/// step of a max-flow check one (a unit is some 1 to 3 ns of CPU on the
/// 2-core machine of the measurements). The default, 300 million units,
/// keeps any analysis under about 0.7 s of CPU there, and answers a league
/// of 10 with two or three rounds left exactly (the slowest of 300 seeded
/// leagues with favourites winning, 0.12 s; with four rounds left, 0.63 s);
/// a caller wanting less time or more certainty scales it. Each search
/// leaves [`RESERVED_PER_QUESTION`] for every question still open after it
/// (at most an eighth of `total` in all), so that one hard question cannot
/// leave the easy ones after it nothing.
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
            nodes: 300_000_000,
            total: 300_000_000,
        }
    }
}

/// Budget units kept back for each question (a player and a zone) still
/// open after the one being searched (about 1 ms).
pub const RESERVED_PER_QUESTION: u64 = 400_000;

/// Units of a node of the search: its move and bounds, per player.
const NODE_COST_PER_PLAYER: u64 = 1;
/// Units of a completion reached, per player (its points ranked).
const LEAF_COST_PER_PLAYER: u64 = 2;
/// Units of a tie ranked with the cascade, per player of the table (its
/// facts) and per player of the tie.
const CASCADE_COST: u64 = 60;
/// Units of a step of a max-flow check (a game looked at).
const FLOW_COST_PER_STEP: u64 = 1;
/// The most choices of players a reach check tries before it assumes the
/// reach possible (a bound that gives up only keeps a subtree).
const MOST_FLOWS: u64 = 64;

/// The clinch analysis of a league against the zones its rules give
/// ([`RoundRobinRules::zones`](super::RoundRobinRules::zones)).
pub fn analyse_league(rr: &RoundRobin, budget: Budget) -> Analysis<PlayerId> {
    let zones = rr.rules.zones(rr.in_table().len());
    analyse(rr, &zones, budget)
}

/// The clinch analysis of a league: every player in the table
/// ([`RoundRobin::in_table`]) against every zone, over the completions of
/// the games left (see the module documentation).
pub fn analyse(rr: &RoundRobin, zones: &[Zone], budget: Budget) -> Analysis<PlayerId> {
    let problem = Problem::new(rr, zones);
    let n = problem.n;
    let z = zones.len();
    let state = RefCell::new(Facts::new(&problem));
    let ranker = Ranker::new(&problem, &state);
    let mut search = Search::new(&problem);
    let mut order = problem.rem.clone();
    search.probes(&problem, &ranker, &order);
    let mut complete = vec![vec![false; z]; n];
    let mut used = 0u64;
    for (q, row) in complete.iter_mut().enumerate() {
        for (zi, done) in row.iter_mut().enumerate() {
            if search.evidence[q * z + zi].settled() {
                *done = true;
                continue;
            }
            let later = (q * z + zi + 1..n * z)
                .filter(|&k| !search.evidence[k].settled())
                .count() as u64;
            let reserve = later
                .saturating_mul(RESERVED_PER_QUESTION)
                .min(budget.total / 8);
            let mut spent = 0u64;
            let mut finished = true;
            // No search of its own for a tie left to a lot: see the
            // module documentation.
            for kind in [Kind::Inside, Kind::Outside] {
                let e = search.evidence[q * z + zi];
                if e.settled() || kind.of(&e) {
                    continue;
                }
                let goal = Goal::new(kind, problem.zones[zi], n);
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
                problem.order_for(q, &mut order);
                search.start(goal, limit);
                search.dfs(&problem, &ranker, &order, 0, q, zi);
                spent += search.work;
                used += search.work;
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
        problem.ids.clone(),
        &search.evidence,
        &complete,
        search.completions,
        problem.rem.len(),
    )
}

/// One result a remaining game may get, as the table counts it.
#[derive(Debug, Clone, Copy)]
struct Res {
    home: Outcome,
    away: Outcome,
    /// Played over the board (its margin not known).
    played: bool,
    /// Won by one side (a draw's difference is 0 whatever its score).
    decisive: bool,
}

/// The facts every criterion reads, recorded games and a completion's
/// together, in indices.
#[derive(Debug, Clone)]
struct Facts {
    n: usize,
    pts: Vec<i64>,
    won: Vec<i64>,
    scored: Vec<i64>,
    conceded: Vec<i64>,
    /// `n * n`: `i`'s points, goals scored and conceded in his decided
    /// games against `j`, and the number of those games.
    h2h_pts: Vec<i64>,
    h2h_scored: Vec<i64>,
    h2h_conceded: Vec<i64>,
    games: Vec<i64>,
    /// Games that count for him, decided or not (Koya).
    scheduled: Vec<i64>,
    /// Minutes of his games won over the board, and how many of them have
    /// none (quickness waits for them).
    minutes: Vec<i64>,
    no_minutes: Vec<i64>,
    /// Of the completion's games: played ones between `i` and `j` (`n *
    /// n`), won or lost ones, and per player played ones, won or lost
    /// ones.
    hyp_played: Vec<u32>,
    hyp_decisive: Vec<u32>,
    hyp_played_of: Vec<u32>,
    hyp_decisive_of: Vec<u32>,
}

impl Facts {
    fn new(p: &Problem) -> Facts {
        p.base.clone()
    }

    fn empty(n: usize) -> Facts {
        Facts {
            n,
            pts: vec![0; n],
            won: vec![0; n],
            scored: vec![0; n],
            conceded: vec![0; n],
            h2h_pts: vec![0; n * n],
            h2h_scored: vec![0; n * n],
            h2h_conceded: vec![0; n * n],
            games: vec![0; n * n],
            scheduled: vec![0; n],
            minutes: vec![0; n],
            no_minutes: vec![0; n],
            hyp_played: vec![0; n * n],
            hyp_decisive: vec![0; n * n],
            hyp_played_of: vec![0; n],
            hyp_decisive_of: vec![0; n],
        }
    }

    /// Count one decided game, `h` at home, `minutes` for a played one.
    fn add(&mut self, h: usize, a: usize, home: &Outcome, away: &Outcome, minutes: Option<u32>) {
        let n = self.n;
        for (i, j, o) in [(h, a, home), (a, h, away)] {
            self.pts[i] += o.points;
            self.won[i] += i64::from(o.won);
            self.scored[i] += o.scored;
            self.conceded[i] += o.conceded;
            self.h2h_pts[i * n + j] += o.points;
            self.h2h_scored[i * n + j] += o.scored;
            self.h2h_conceded[i * n + j] += o.conceded;
            self.games[i * n + j] += 1;
            if o.won && !o.forfeit {
                match minutes {
                    Some(m) => self.minutes[i] += i64::from(m),
                    None => self.no_minutes[i] += 1,
                }
            }
        }
    }

    /// Count a game of the completion.
    fn add_hypothetical(&mut self, h: usize, a: usize, r: &Res) {
        let n = self.n;
        self.add(h, a, &r.home, &r.away, None);
        if r.played {
            for (i, j) in [(h, a), (a, h)] {
                self.hyp_played[i * n + j] += 1;
                self.hyp_played_of[i] += 1;
                if r.decisive {
                    self.hyp_decisive[i * n + j] += 1;
                    self.hyp_decisive_of[i] += 1;
                }
            }
        }
    }

    /// Set to the recorded facts of `base` plus the completion `chosen` of
    /// the games `rem`.
    fn fill(&mut self, base: &Facts, rem: &[(usize, usize)], chosen: &[usize], results: &[Res]) {
        self.clone_from(base);
        for (&(h, a), &o) in rem.iter().zip(chosen) {
            self.add_hypothetical(h, a, &results[o]);
        }
    }

    /// Whether any two players of `set` meet in a game of the completion
    /// counted in `m` (played, or won or lost).
    fn among(&self, m: &[u32], set: &[usize]) -> bool {
        let n = self.n;
        set.iter().any(|&i| set.iter().any(|&j| m[i * n + j] > 0))
    }

    /// One criterion on a tied subset, as [`super::table::Facts::value`]
    /// gives it on the completed table, or `None` while it waits: a margin
    /// of a game not yet played, minutes, a lot (ARB-R69).
    fn value(
        &self,
        criterion: Option<Tiebreak>,
        set: &[usize],
        rr: &RoundRobin,
        ids: &[PlayerId],
    ) -> Option<Vec<i64>> {
        let n = self.n;
        let each = |f: &dyn Fn(usize) -> i64| Some(set.iter().map(|&i| f(i)).collect());
        let among = |m: &[i64]| {
            Some(
                set.iter()
                    .map(|&i| set.iter().map(|&j| m[i * n + j]).sum())
                    .collect(),
            )
        };
        let win = i64::from(rr.rules.points.win);
        match criterion {
            None => each(&|i| self.pts[i]),
            Some(Tiebreak::HeadToHeadPoints) => among(&self.h2h_pts),
            Some(Tiebreak::HeadToHeadDifference) => {
                if self.among(&self.hyp_decisive, set) {
                    return None;
                }
                Some(
                    set.iter()
                        .map(|&i| {
                            set.iter()
                                .map(|&j| self.h2h_scored[i * n + j] - self.h2h_conceded[i * n + j])
                                .sum()
                        })
                        .collect(),
                )
            }
            Some(Tiebreak::HeadToHeadScored) => {
                if self.among(&self.hyp_played, set) {
                    return None;
                }
                among(&self.h2h_scored)
            }
            Some(Tiebreak::Difference) => {
                if set.iter().any(|&i| self.hyp_decisive_of[i] > 0) {
                    return None;
                }
                each(&|i| self.scored[i] - self.conceded[i])
            }
            Some(Tiebreak::Scored) => {
                if set.iter().any(|&i| self.hyp_played_of[i] > 0) {
                    return None;
                }
                each(&|i| self.scored[i])
            }
            Some(Tiebreak::Wins) => each(&|i| self.won[i]),
            Some(Tiebreak::SonnebornBerger | Tiebreak::Sodos) => {
                each(&|i| (0..n).map(|j| self.h2h_pts[i * n + j] * self.pts[j]).sum())
            }
            Some(Tiebreak::Koya) => each(&|i| {
                (0..n)
                    .filter(|&j| 2 * self.pts[j] >= win * self.scheduled[j])
                    .map(|j| self.h2h_pts[i * n + j])
                    .sum()
            }),
            Some(Tiebreak::Buchholz) => {
                each(&|i| (0..n).map(|j| self.games[i * n + j] * self.pts[j]).sum())
            }
            Some(Tiebreak::Quickness) => {
                // A game won in the completion has no minutes yet.
                if set.iter().any(|&i| self.no_minutes[i] > 0) {
                    return None;
                }
                each(&|i| -self.minutes[i])
            }
            Some(Tiebreak::Lot) => {
                let lot = rr
                    .lots
                    .iter()
                    .rev()
                    .find(|l| set.iter().all(|&i| l.order.contains(&ids[i])))?;
                Some(
                    set.iter()
                        .map(|&i| {
                            -(lot.order.iter().position(|&q| q == ids[i]).unwrap_or(0) as i64)
                        })
                        .collect(),
                )
            }
        }
    }
}

/// The league, in indices.
struct Problem<'r> {
    rr: &'r RoundRobin,
    n: usize,
    ids: Vec<PlayerId>,
    /// The results a remaining game may get: a win at home, a draw, a win
    /// away (see the module documentation).
    results: Vec<Res>,
    /// The least and the most points one side of a game can take, and the
    /// most both sides take together.
    min_points: i64,
    max_points: i64,
    max_total: i64,
    /// The recorded games' facts.
    base: Facts,
    /// The remaining games, (home, away).
    rem: Vec<(usize, usize)>,
    zones: Vec<Zone>,
    /// The criteria in cascade order: points first.
    kinds: Vec<Option<Tiebreak>>,
}

impl<'r> Problem<'r> {
    fn new(rr: &'r RoundRobin, zones: &[Zone]) -> Problem<'r> {
        let ids = rr.in_table();
        let n = ids.len();
        let mut slot = vec![None; rr.entrants.len()];
        for (i, p) in ids.iter().enumerate() {
            slot[p.index()] = Some(i);
        }
        let at = |p: PlayerId| {
            p.0.checked_sub(1)
                .and_then(|k| slot.get(k as usize).copied().flatten())
        };
        let mut base = Facts::empty(n);
        let mut rem = Vec::new();
        for g in &rr.games {
            if !rr.counts(g.home) || !rr.counts(g.away) {
                continue;
            }
            let (Some(h), Some(a)) = (at(g.home), at(g.away)) else {
                continue;
            };
            base.scheduled[h] += 1;
            base.scheduled[a] += 1;
            match rr.counted_score(g) {
                Some(score) => {
                    let (home, away) = sides(&rr.rules, score);
                    let minutes = if score.is_played() { g.minutes } else { None };
                    base.add(h, a, &home, &away, minutes);
                }
                None => rem.push((h, a)),
            }
        }
        let rules = &rr.rules;
        let (home_win, draw, away_win) = if rules.scores {
            (
                Score::Goals { home: 1, away: 0 },
                Score::Goals { home: 0, away: 0 },
                Score::Goals { home: 0, away: 1 },
            )
        } else {
            (Score::Won(Seat::Home), Score::Drawn, Score::Won(Seat::Away))
        };
        // Results of play only (ARB-R69); home win, draw, away win in this
        // order (the probes read results 0 and 2 as the two wins).
        let scores = [home_win, draw, away_win];
        let results: Vec<Res> = scores
            .iter()
            .map(|&s| {
                let (home, away) = sides(rules, s);
                Res {
                    home,
                    away,
                    played: s.is_played(),
                    decisive: home.won || away.won,
                }
            })
            .collect();
        let min_points = results
            .iter()
            .map(|r| r.home.points.min(r.away.points))
            .min()
            .unwrap_or(0);
        let max_points = results
            .iter()
            .map(|r| r.home.points.max(r.away.points))
            .max()
            .unwrap_or(0);
        let max_total = results
            .iter()
            .map(|r| r.home.points + r.away.points)
            .max()
            .unwrap_or(0);
        let mut kinds: Vec<Option<Tiebreak>> = vec![None];
        kinds.extend(rules.tiebreaks.iter().copied().map(Some));
        Problem {
            rr,
            n,
            ids,
            results,
            min_points,
            max_points,
            max_total,
            base,
            rem,
            zones: zones.to_vec(),
            kinds,
        }
    }

    /// Order the games left for a search about `q`: his games first, then
    /// those of players whose points can meet his, the games of those with
    /// the most games left first, then the rest.
    fn order_for(&self, q: usize, order: &mut [(usize, usize)]) {
        let n = self.n;
        let mut left = vec![0i64; n];
        for &(h, a) in &self.rem {
            left[h] += 1;
            left[a] += 1;
        }
        let lo = |i: usize| self.base.pts[i] + self.min_points * left[i];
        let hi = |i: usize| self.base.pts[i] + self.max_points * left[i];
        let rival = |i: usize| lo(i) <= hi(q) && lo(q) <= hi(i);
        order.sort_by_key(|&(h, a)| {
            let class = if h == q || a == q {
                0
            } else if rival(h) && rival(a) {
                1
            } else if rival(h) || rival(a) {
                2
            } else {
                3
            };
            (class, std::cmp::Reverse(left[h] + left[a]), h, a)
        });
    }
}

/// The cascade the rules give, on the facts of the completion being
/// ranked (in `state`).
struct Ranker<'a> {
    cascade: Cascade<'a, usize>,
    kinds: Vec<Option<Tiebreak>>,
    state: &'a RefCell<Facts>,
}

impl<'a> Ranker<'a> {
    fn new(p: &'a Problem<'_>, state: &'a RefCell<Facts>) -> Ranker<'a> {
        let ids: &'a [PlayerId] = &p.ids;
        let rr: &'a RoundRobin = p.rr;
        let kinds = p.kinds.clone();
        let criteria = kinds
            .iter()
            .map(|&k| Criterion {
                label: k.map_or("", Tiebreak::id),
                name: k.map_or("points", Tiebreak::name),
                eval: Box::new(move |set: &[usize]| state.borrow().value(k, set, rr, ids))
                    as Box<dyn Fn(&[usize]) -> Option<Vec<i64>> + 'a>,
                tolerance: 0,
            })
            .collect();
        // As `table::cascade` sets them up (ARB-R67).
        let h2h: Vec<usize> = (0..kinds.len())
            .filter(|&i| kinds[i].is_some_and(Tiebreak::is_head_to_head))
            .collect();
        let (restart, block) = match (rr.rules.head_to_head, h2h.first(), h2h.last()) {
            (HeadToHead::Restart, Some(&from), _) => (
                Some(Restart {
                    to: from,
                    min_tie: 3,
                }),
                None,
            ),
            (HeadToHead::Block, Some(&from), Some(&last)) => (
                None,
                Some(Block {
                    from,
                    until: last + 1,
                }),
            ),
            _ => (None, None),
        };
        Ranker {
            cascade: Cascade {
                criteria,
                restart,
                block,
            },
            kinds,
            state,
        }
    }

    /// Rank `group` (players level on points) with the cascade: each
    /// one's block of places within the group (1-based) and what a tie
    /// left waits for.
    fn rank(&self, group: &[usize], out: &mut Vec<(usize, usize, usize, TieKind)>) {
        let ranking = self.cascade.rank(group);
        let bl = blocks(&ranking);
        for (k, &i) in ranking.order.iter().enumerate() {
            let tie = match ranking
                .tie_of(i)
                .and_then(|u| u.pending)
                .and_then(|s| self.kinds.get(s).copied().flatten())
            {
                // A lot not drawn yet, or every criterion equal: settled by
                // something other than the results.
                Some(Tiebreak::Lot) | None => TieKind::Die,
                // Margins or minutes of games not played (ARB-R69).
                Some(_) => TieKind::Margin,
            };
            out.push((i, bl[k].0, bl[k].1, tie));
        }
    }
}

/// A kind of evidence (see [`Evidence`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Inside,
    Outside,
}

impl Kind {
    fn of(self, e: &Evidence) -> bool {
        match self {
            Kind::Inside => e.inside,
            Kind::Outside => e.outside,
        }
    }
}

/// Which way the player searched about must go for the evidence sought.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Direction {
    Up,
    Down,
}

/// What one search looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Goal {
    kind: Kind,
    direction: Option<Direction>,
}

impl Goal {
    fn new(kind: Kind, zone: Zone, n: usize) -> Goal {
        let top = zone.first <= 1;
        let bottom = zone.last >= n;
        let direction = match (kind, top, bottom) {
            (_, true, true) | (_, false, false) => None,
            (Kind::Inside, true, false) | (Kind::Outside, false, true) => Some(Direction::Up),
            (Kind::Outside, true, false) | (Kind::Inside, false, true) => Some(Direction::Down),
        };
        Goal { kind, direction }
    }

    fn met(&self, e: &Evidence) -> bool {
        e.settled() || self.kind.of(e)
    }
}

struct Search {
    goal: Goal,
    n: usize,
    z: usize,
    /// Points now (recorded plus the results chosen above this node).
    pts: Vec<i64>,
    /// Games each player has left below this node.
    left: Vec<i64>,
    /// The result chosen for each game, in the search's order.
    chosen: Vec<usize>,
    evidence: Vec<Evidence>,
    work: u64,
    limit: u64,
    aborted: bool,
    completions: u64,
    /// Scratch for the leaves.
    by_points: Vec<usize>,
    placed: Vec<(usize, usize, usize, TieKind)>,
    needy: Vec<(usize, i64)>,
    flow: Transport,
}

impl Search {
    fn new(p: &Problem) -> Search {
        let n = p.n;
        let mut left = vec![0i64; n];
        for &(h, a) in &p.rem {
            left[h] += 1;
            left[a] += 1;
        }
        Search {
            goal: Goal {
                kind: Kind::Inside,
                direction: None,
            },
            n,
            z: p.zones.len(),
            pts: p.base.pts.clone(),
            left,
            chosen: vec![0; p.rem.len()],
            evidence: vec![Evidence::default(); n * p.zones.len()],
            work: 0,
            limit: u64::MAX,
            aborted: false,
            completions: 0,
            by_points: Vec::with_capacity(n),
            placed: Vec::with_capacity(n),
            needy: Vec::with_capacity(n),
            flow: Transport::default(),
        }
    }

    fn start(&mut self, goal: Goal, limit: u64) {
        self.goal = goal;
        self.work = 0;
        self.limit = limit;
        self.aborted = false;
    }

    fn apply(&mut self, p: &Problem, game: (usize, usize), o: usize, sign: i64) {
        let (h, a) = game;
        let r = &p.results[o];
        self.pts[h] += sign * r.home.points;
        self.pts[a] += sign * r.away.points;
        self.left[h] -= sign;
        self.left[a] -= sign;
    }

    /// Rank the completion `chosen` of the games `order` and record its
    /// evidence for every player and zone still lacking some.
    fn leaf(&mut self, p: &Problem, ranker: &Ranker, order: &[(usize, usize)]) {
        self.completions += 1;
        let n = self.n;
        let z = self.z;
        self.work += LEAF_COST_PER_PLAYER * n as u64;
        let mut by_points = std::mem::take(&mut self.by_points);
        by_points.clear();
        by_points.extend(0..n);
        by_points.sort_by_key(|&i| std::cmp::Reverse(self.pts[i]));
        let mut placed = std::mem::take(&mut self.placed);
        let mut filled = false;
        let mut start = 0usize;
        while start < n {
            let mut end = start + 1;
            while end < n && self.pts[by_points[end]] == self.pts[by_points[start]] {
                end += 1;
            }
            let group = &by_points[start..end];
            let (lo, hi) = (start + 1, end);
            // Ranked further only when a player still lacking evidence
            // shares places that straddle a zone's edge.
            let straddles = group.len() > 1
                && group.iter().any(|&i| {
                    (0..z).any(|zi| {
                        !self.evidence[i * z + zi].settled()
                            && p.zones[zi].classify(lo, hi) == Membership::Straddles
                    })
                });
            if straddles {
                if !filled {
                    ranker
                        .state
                        .borrow_mut()
                        .fill(&p.base, order, &self.chosen, &p.results);
                    filled = true;
                }
                self.work += CASCADE_COST * (n + group.len()) as u64;
                placed.clear();
                ranker.rank(group, &mut placed);
                for &(i, a, b, tie) in &placed {
                    for zi in 0..z {
                        let m = p.zones[zi].classify(start + a, start + b);
                        self.evidence[i * z + zi].record(m, tie);
                    }
                }
            } else {
                // Alone, or level only within one side of every edge that
                // matters: the points place them.
                for &i in group {
                    for zi in 0..z {
                        let e = &mut self.evidence[i * z + zi];
                        if !e.settled() {
                            e.record(p.zones[zi].classify(lo, hi), TieKind::Die);
                        }
                    }
                }
            }
            start = end;
        }
        self.by_points = by_points;
        self.placed = placed;
    }

    /// The completions tried first: for each player, every game he has
    /// left won, then every one lost; the other games by a fixed scramble
    /// of their results.
    fn probes(&mut self, p: &Problem, ranker: &Ranker, order: &[(usize, usize)]) {
        let k = p.results.len();
        if order.is_empty() {
            self.leaf(p, ranker, order);
            return;
        }
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        for target in 0..self.n {
            for favour in [true, false] {
                for (d, &(h, a)) in order.iter().enumerate() {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    // Results 0 and 2 are a win at home and away.
                    self.chosen[d] = if h == target || a == target {
                        if (h == target) == favour { 0 } else { 2 }
                    } else {
                        ((state >> 33) % k as u64) as usize
                    };
                }
                for (d, &game) in order.iter().enumerate() {
                    self.apply(p, game, self.chosen[d], 1);
                }
                self.leaf(p, ranker, order);
                for (d, &game) in order.iter().enumerate() {
                    self.apply(p, game, self.chosen[d], -1);
                }
            }
        }
    }

    /// Whether at least `m` players other than `q` can end with `t` points
    /// or more together in a completion below this node: those already
    /// there, and for the others a transport of the points of the games
    /// left (`order[d..]`), for each choice of the players who must gain.
    fn can_reach(
        &mut self,
        p: &Problem,
        order: &[(usize, usize)],
        d: usize,
        q: usize,
        m: usize,
        t: i64,
    ) -> bool {
        if m == 0 {
            return true;
        }
        let n = self.n;
        let free = (0..n).filter(|&i| i != q && self.pts[i] >= t).count();
        if free >= m {
            return true;
        }
        let mut needy = std::mem::take(&mut self.needy);
        needy.clear();
        needy.extend(
            (0..n)
                .filter(|&i| {
                    i != q && self.pts[i] < t && self.pts[i] + p.max_points * self.left[i] >= t
                })
                .map(|i| (i, t - self.pts[i])),
        );
        needy.sort_by_key(|x| x.1);
        let reach = self.choose(p, &order[d..], &needy, m - free);
        self.needy = needy;
        reach
    }

    /// Whether `want` of the players `needy` (each with the points he
    /// lacks) can take them together from `games`: for each choice of
    /// them, the fewest lacking first, a transport.
    fn choose(
        &mut self,
        p: &Problem,
        games: &[(usize, usize)],
        needy: &[(usize, i64)],
        want: usize,
    ) -> bool {
        if needy.len() < want {
            return false;
        }
        let mut chosen: Vec<usize> = (0..want).collect();
        let mut demand: Vec<(usize, i64)> = Vec::with_capacity(want);
        let mut tries = 0u64;
        loop {
            tries += 1;
            if tries > MOST_FLOWS {
                // Too many choices to try: assume it possible (the bound
                // only keeps the subtree).
                return true;
            }
            demand.clear();
            demand.extend(chosen.iter().map(|&k| needy[k]));
            let before = self.flow.steps;
            let reach = self
                .flow
                .feasible(games, &demand, p.max_points, p.max_total, self.n);
            self.work += FLOW_COST_PER_STEP * (self.flow.steps - before);
            if reach {
                return true;
            }
            // The next combination of `want` among `needy`.
            if !crate::clinch::next_combination(&mut chosen, needy.len()) {
                return false;
            }
        }
    }

    /// Whether the subtree at depth `d` may give `q` the evidence sought
    /// for zone `zi` (see the module documentation: every test is a
    /// necessary condition).
    fn promising(
        &mut self,
        p: &Problem,
        order: &[(usize, usize)],
        d: usize,
        q: usize,
        zi: usize,
    ) -> bool {
        let n = self.n;
        self.work += NODE_COST_PER_PLAYER * n as u64;
        let lo = |s: &Search, i: usize| s.pts[i] + p.min_points * s.left[i];
        let hi = |s: &Search, i: usize| s.pts[i] + p.max_points * s.left[i];
        let (lo_q, hi_q) = (lo(self, q), hi(self, q));
        // Surely above him, surely below him.
        let above = (0..n).filter(|&i| i != q && lo(self, i) > hi_q).count();
        let below = (0..n).filter(|&i| i != q && hi(self, i) < lo_q).count();
        let zone = p.zones[zi];
        // Places count from 1 (a zone given from 0 is read from 1).
        let (a, b) = (zone.first.max(1), zone.last);
        // His block is within `above + 1 ..= n - below`; it reaches place
        // `k` or lower only if `k - 1` others end with his points or more.
        match self.goal.kind {
            Kind::Inside => {
                above < b && n - below >= a && self.can_reach(p, order, d, q, a - 1, lo_q)
            }
            Kind::Outside => {
                (a >= 2 && above + 2 <= a)
                    || (n - below > b && self.can_reach(p, order, d, q, b, lo_q))
            }
        }
    }

    /// Search for the evidence `q` lacks for zone `zi` (the goal). Returns
    /// whether to stop (found, or out of budget).
    fn dfs(
        &mut self,
        p: &Problem,
        ranker: &Ranker,
        order: &[(usize, usize)],
        d: usize,
        q: usize,
        zi: usize,
    ) -> bool {
        if self.goal.met(&self.evidence[q * self.z + zi]) {
            return true;
        }
        if self.work > self.limit {
            self.aborted = true;
            return true;
        }
        if !self.promising(p, order, d, q, zi) {
            return false;
        }
        if d == order.len() {
            self.leaf(p, ranker, order);
            return self.goal.met(&self.evidence[q * self.z + zi]);
        }
        let (h, a) = order[d];
        let k = p.results.len();
        let mut tries = [0usize, 1, 2];
        let mut count = k;
        if h == q || a == q {
            let home = h == q;
            let mine = |o: usize| {
                let r = &p.results[o];
                if home {
                    (r.home.points, r.away.points)
                } else {
                    (r.away.points, r.home.points)
                }
            };
            match self.goal.direction {
                Some(dir) => {
                    // Only his results that no other betters (`Up`) or
                    // worsens (`Down`): see the module documentation.
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
                            tries[count] = o;
                            count += 1;
                        }
                    }
                }
                None => {
                    // Toward the zone first when looking for a completion
                    // in it (away from it otherwise): his wins first for a
                    // zone at the top.
                    let zone = p.zones[zi];
                    let up = (self.goal.kind == Kind::Inside) == (zone.first == 1);
                    tries[..count].sort_by_key(|&o| {
                        let (m, _) = mine(o);
                        if up { -m } else { m }
                    });
                }
            }
        } else {
            // The others' results: when he goes up, the fewest points to
            // the two first, the more of them to the one further from him;
            // when he goes down, the most first, to the one who needs them
            // to pass him (below him, and the nearer).
            let (ph, pa, pq) = (self.pts[h], self.pts[a], self.pts[q]);
            let up = match self.goal.direction {
                Some(Direction::Up) => true,
                Some(Direction::Down) => false,
                None => {
                    let zone = p.zones[zi];
                    (self.goal.kind == Kind::Inside) == (zone.first == 1)
                }
            };
            let home_first = if up {
                ph <= pa
            } else {
                match (ph <= pq, pa <= pq) {
                    (true, false) => true,
                    (false, true) => false,
                    _ => ph >= pa,
                }
            };
            tries[..count].sort_by_key(|&o| {
                let r = &p.results[o];
                let (to_first, to_other) = if home_first {
                    (r.home.points, r.away.points)
                } else {
                    (r.away.points, r.home.points)
                };
                let total = r.home.points + r.away.points;
                if up {
                    (total, to_other, 0)
                } else {
                    (-total, -to_first, 0)
                }
            });
        }
        for &o in &tries[..count] {
            self.chosen[d] = o;
            self.apply(p, order[d], o, 1);
            let stop = self.dfs(p, ranker, order, d + 1, q, zi);
            self.apply(p, order[d], o, -1);
            if stop {
                return true;
            }
        }
        false
    }
}

/// Whether the games left can give each player of a demand his points: a
/// game sends at most `win` to either of its players and at most `total`
/// in all. A max flow by augmenting paths, one unit at a time, on the
/// bipartite graph of games and players (the method of
/// [`crate::sunjang::clinch`]'s transport, on these integers), with its
/// buffers kept between calls and its steps counted for the budget.
#[derive(Debug, Default)]
struct Transport {
    need: Vec<i64>,
    useful: Vec<[usize; 2]>,
    games_of: Vec<i64>,
    flow: Vec<[i64; 2]>,
    sent: Vec<i64>,
    got: Vec<i64>,
    /// parent[k]: (game before, its side, the side game k gives up).
    parent: Vec<Option<(usize, usize, usize)>>,
    seen: Vec<bool>,
    queue: std::collections::VecDeque<usize>,
    /// Games looked at, in all.
    steps: u64,
}

impl Transport {
    fn feasible(
        &mut self,
        games: &[(usize, usize)],
        demand: &[(usize, i64)],
        win: i64,
        total: i64,
        n: usize,
    ) -> bool {
        self.need.clear();
        self.need.resize(n, 0);
        for &(i, x) in demand {
            self.need[i] = x;
        }
        let need = &self.need;
        self.useful.clear();
        self.useful.extend(
            games
                .iter()
                .filter(|&&(a, b)| need[a] > 0 || need[b] > 0)
                .map(|&(a, b)| [a, b]),
        );
        let g = self.useful.len();
        self.steps += games.len() as u64;
        let need_total: i64 = demand.iter().map(|x| x.1).sum();
        if (g as i64) * total < need_total {
            return false;
        }
        self.games_of.clear();
        self.games_of.resize(n, 0);
        for e in &self.useful {
            self.games_of[e[0]] += 1;
            self.games_of[e[1]] += 1;
        }
        if demand.iter().any(|&(i, x)| x > win * self.games_of[i]) {
            return false;
        }
        self.flow.clear();
        self.flow.resize(g, [0; 2]);
        self.sent.clear();
        self.sent.resize(g, 0);
        self.got.clear();
        self.got.resize(n, 0);
        loop {
            if demand.iter().all(|&(i, x)| self.got[i] >= x) {
                return true;
            }
            self.parent.clear();
            self.parent.resize(g, None);
            self.seen.clear();
            self.seen.resize(g, false);
            self.queue.clear();
            for k in 0..g {
                if self.sent[k] < total {
                    self.seen[k] = true;
                    self.queue.push_back(k);
                }
            }
            self.steps += g as u64;
            let mut end: Option<(usize, usize)> = None;
            'bfs: while let Some(k) = self.queue.pop_front() {
                for side in 0..2 {
                    let pl = self.useful[k][side];
                    if self.need[pl] == 0 || self.flow[k][side] >= win {
                        continue;
                    }
                    if self.parent[k].is_some_and(|(_, _, back)| back == side) {
                        continue;
                    }
                    if self.got[pl] < self.need[pl] {
                        end = Some((k, side));
                        break 'bfs;
                    }
                    // `pl` is served: another game may give up a unit it
                    // sends him and send it elsewhere.
                    self.steps += g as u64;
                    for k2 in 0..g {
                        if self.seen[k2] {
                            continue;
                        }
                        let Some(s2) =
                            (0..2).find(|&s| self.useful[k2][s] == pl && self.flow[k2][s] > 0)
                        else {
                            continue;
                        };
                        self.seen[k2] = true;
                        self.parent[k2] = Some((k, side, s2));
                        self.queue.push_back(k2);
                    }
                }
            }
            let Some((mut k, mut side)) = end else {
                return false;
            };
            self.got[self.useful[k][side]] += 1;
            loop {
                self.flow[k][side] += 1;
                match self.parent[k] {
                    None => {
                        self.sent[k] += 1;
                        break;
                    }
                    Some((prev, prev_side, back)) => {
                        self.flow[k][back] -= 1;
                        k = prev;
                        side = prev_side;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::clinch::Verdict;
    use crate::model::Time;
    use crate::roundrobin::{Command, GameId, RoundRobinRules};

    fn at() -> Time {
        "2026-01-01T12:00:00Z".parse().unwrap()
    }

    fn run(l: &mut RoundRobin, c: Command) {
        for e in l.decide(c).unwrap() {
            l.try_apply(&e).unwrap();
        }
    }

    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 33) % n.max(1)
        }
    }

    /// A league of `n` with random results (forfeits, minutes, now and
    /// then a withdrawal and a lot), every game recorded but `left`.
    fn random(rules: RoundRobinRules, n: usize, seed: u64, left: usize) -> RoundRobin {
        let mut rng = Rng(seed);
        let mut l = RoundRobin::default();
        let players = (0..n).map(|i| format!("Player {}", i + 1)).collect();
        run(
            &mut l,
            Command::Create {
                name: "t".into(),
                rules,
                players,
            },
        );
        run(
            &mut l,
            Command::Start {
                schedule: None,
                seed: None,
                at: at(),
            },
        );
        let scores = l.rules.scores;
        let games: Vec<GameId> = l.games.iter().map(|g| g.id).collect();
        for &g in games.iter().skip(left) {
            let score = match rng.below(10) {
                0 => Score::Forfeit {
                    winner: Some(Seat::Away),
                },
                1 => Score::Forfeit { winner: None },
                _ if scores => Score::Goals {
                    home: rng.below(4) as u32,
                    away: rng.below(4) as u32,
                },
                k => [Score::Won(Seat::Home), Score::Drawn, Score::Won(Seat::Away)][k as usize % 3],
            };
            let minutes = (rng.below(4) > 0).then(|| rng.below(90) as u32);
            run(
                &mut l,
                Command::Record {
                    game: g,
                    score,
                    minutes,
                    at: at(),
                },
            );
        }
        if rng.below(3) == 0 {
            let p = PlayerId(1 + rng.below(n as u64) as u32);
            run(
                &mut l,
                Command::Withdraw {
                    player: p,
                    at: at(),
                },
            );
        }
        let order = l.in_table();
        if order.len() >= 2 {
            run(
                &mut l,
                Command::EnterLots {
                    order,
                    how: "by hand".into(),
                    at: at(),
                },
            );
        }
        l
    }

    /// The facts of a completion give every criterion as the table's own
    /// `Facts::value` does on the league with those results recorded,
    /// whenever they do not wait for a margin (ARB-R69).
    #[test]
    fn every_criterion_as_the_table_gives_it() {
        let mut checked = 0;
        for seed in 0..120u64 {
            let name = RoundRobinRules::PRESETS[seed as usize % 5];
            let mut rules = RoundRobinRules::preset(name).unwrap();
            // Every criterion of the catalogue the results allow.
            rules.tiebreaks = Tiebreak::ALL
                .into_iter()
                .filter(|t| rules.scores || !t.needs_scores())
                .collect();
            rules.head_to_head = HeadToHead::Once;
            let n = 3 + (seed as usize % 6);
            let left = seed as usize % 4;
            let l = random(rules, n, seed, left);
            let p = Problem::new(&l, &[]);
            let mut rng = Rng(seed ^ 0xABCD);
            let chosen: Vec<usize> = p.rem.iter().map(|_| rng.below(3) as usize).collect();
            let mut facts = Facts::empty(p.n);
            facts.fill(&p.base, &p.rem, &chosen, &p.results);
            // The same results recorded on a copy.
            let mut done = l.clone();
            let mut k = 0;
            for g in l.games.iter() {
                if l.counts(g.home) && l.counts(g.away) && l.counted_score(g).is_none() {
                    let (home, away) = (p.results[chosen[k]].home, p.results[chosen[k]].away);
                    let score = if l.rules.scores {
                        Score::Goals {
                            home: home.scored as u32,
                            away: away.scored as u32,
                        }
                    } else if home.won {
                        Score::Won(Seat::Home)
                    } else if away.won {
                        Score::Won(Seat::Away)
                    } else {
                        Score::Drawn
                    };
                    run(
                        &mut done,
                        Command::Record {
                            game: g.id,
                            score,
                            minutes: None,
                            at: at(),
                        },
                    );
                    k += 1;
                }
            }
            let table = super::super::table::Facts::new(&done);
            assert_eq!(table.players, p.ids);
            for _ in 0..20 {
                let set: Vec<usize> = (0..p.n).filter(|_| rng.below(2) == 0).collect();
                if set.is_empty() {
                    continue;
                }
                let ids: Vec<PlayerId> = set.iter().map(|&i| p.ids[i]).collect();
                for c in std::iter::once(None).chain(Tiebreak::ALL.into_iter().map(Some)) {
                    if c.is_some_and(|t| t.needs_scores()) && !l.rules.scores {
                        continue;
                    }
                    let mine = facts.value(c, &set, &l, &p.ids);
                    let theirs = table.value(c, &ids);
                    match mine {
                        Some(v) => {
                            checked += 1;
                            assert_eq!(Some(v), theirs, "{name} seed {seed} {c:?} {set:?}");
                        }
                        // Waiting only for a margin or minutes of the
                        // completion's games (or a lot, as the table).
                        None => assert!(
                            theirs.is_none()
                                || matches!(
                                    c,
                                    Some(
                                        Tiebreak::Difference
                                            | Tiebreak::Scored
                                            | Tiebreak::HeadToHeadDifference
                                            | Tiebreak::HeadToHeadScored
                                            | Tiebreak::Quickness
                                    )
                                ),
                            "{name} seed {seed} {c:?}"
                        ),
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// Zones a caller gives out of shape (from place 0, empty, past the
    /// last place, every place) are judged without a panic: classified as
    /// [`Zone::classify`] does.
    #[test]
    fn odd_zones_do_not_panic() {
        use crate::clinch::ZoneKind;
        let l = random(RoundRobinRules::chess(), 5, 3, 4);
        let zones = [
            Zone::new(ZoneKind::Place(0), 0, 0),
            Zone::new(ZoneKind::Place(0), 0, 2),
            Zone::new(ZoneKind::Place(5), 5, 2),
            Zone::new(ZoneKind::Place(9), 9, 100),
            Zone::new(ZoneKind::Title, 1, 5),
        ];
        let a = analyse(&l, &zones, Budget::default());
        assert!(a.exact);
        for row in &a.verdicts {
            assert_eq!(row[4], Verdict::Clinched);
            assert_eq!(row[0], Verdict::Eliminated);
            assert_eq!(row[3], Verdict::Eliminated);
        }
        let empty = RoundRobin::default();
        assert!(
            analyse(&empty, &zones, Budget::default())
                .players
                .is_empty()
        );
    }

    #[test]
    fn transport_counts_what_games_can_give() {
        // Two games 0-1, 0-2: player 0 can take 6 (two wins), or 3 with
        // player 1 taking 3.
        let games = [(0, 1), (0, 2)];
        let mut t = Transport::default();
        let mut transport =
            |g: &[(usize, usize)], d: &[(usize, i64)], w, total, n| t.feasible(g, d, w, total, n);
        assert!(transport(&games, &[(0, 6)], 3, 3, 3));
        assert!(!transport(&games, &[(0, 6), (1, 1)], 3, 3, 3));
        assert!(transport(&games, &[(0, 3), (1, 3)], 3, 3, 3));
        assert!(!transport(&games, &[(1, 4)], 3, 3, 3));
        assert!(transport(&games, &[(1, 2), (2, 2), (0, 2)], 3, 3, 3));
        assert!(!transport(&games, &[(1, 2), (2, 2), (0, 3)], 3, 3, 3));
    }
}
