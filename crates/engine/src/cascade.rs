//! The tiebreak cascade: an ordered list of criteria, each evaluated only on
//! the players still tied, with an optional restart rule.
//!
//! XMadn's table (win-loss record, then six tiebreak steps, XM-R4) and
//! Sunjang's section D (main criteria with SJ-R9, then secondary criteria)
//! are both cascades. A criterion gives each player of the tied subset a
//! value, higher ranking higher; a criterion that cannot be evaluated yet
//! (a die roll not yet rolled, a game not yet played in a provisional table)
//! answers `None` and leaves the tie unresolved, shown as a shared place.
//!
//! The restart rule (XM-R4, SJ-R9): when a criterion at or after
//! `restart.to` separates at least one player from a tie of at least
//! `restart.min_tie` players, the players still tied start again at
//! criterion `restart.to`, among themselves only, instead of going on with
//! the next criterion.
//!
//! Every separation is recorded ([`Split`]) with the step, the values and
//! the tie it was made in, so each position can be explained.

use std::collections::HashMap;
use std::sync::Arc;

/// How one criterion is evaluated on a tied subset: one value per player of
/// the subset, in the subset's order (higher ranks higher), or `None` when
/// the criterion cannot be evaluated for this subset yet.
pub type Eval<'a, P> = Box<dyn Fn(&[P]) -> Option<Vec<i64>> + 'a>;

/// One criterion of a cascade.
pub struct Criterion<'a, P> {
    /// The step as users know it ("1" for head-to-head in XMadn; "" for a
    /// primary criterion that is not a numbered tiebreak step).
    pub label: &'static str,
    /// What it measures, in words ("head-to-head counted-pawns difference").
    pub name: &'static str,
    pub eval: Eval<'a, P>,
    /// Values within this distance count as tied (a "virtual tie",
    /// SJ-R13); 0 for exact comparison. Ties do not chain (ARB-R51): a
    /// tie is anchored at its best value and holds the players within the
    /// tolerance of it, so any two players of one tie are within the
    /// tolerance of each other; the next player starts the next tie.
    pub tolerance: i64,
}

impl<P> std::fmt::Debug for Criterion<'_, P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Criterion")
            .field("label", &self.label)
            .field("name", &self.name)
            .field("tolerance", &self.tolerance)
            .finish_non_exhaustive()
    }
}

/// The restart rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Restart {
    /// The criterion (index) the players still tied start again at.
    pub to: usize,
    /// The smallest tie a separation restarts ("a tie involving more than
    /// two players": 3).
    pub min_tie: usize,
}

/// The block method of head-to-head (UEFA's): the criteria `from..until`
/// are evaluated on the players tied when the block began ("the matches
/// among the teams in question"), whatever an earlier criterion of the
/// block separated; players still tied after the whole block, fewer than
/// began it, go through the block again on their own; those the block
/// leaves as they came go on to criterion `until`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    pub from: usize,
    pub until: usize,
}

/// A cascade: criteria in order, and the restart rule or the block method
/// if any (a cascade with a block ignores its restart).
#[derive(Debug)]
pub struct Cascade<'a, P> {
    pub criteria: Vec<Criterion<'a, P>>,
    pub restart: Option<Restart>,
    pub block: Option<Block>,
}

/// How a tie was entered: what the subset being ordered is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin<P> {
    /// All the players being ranked.
    All,
    /// Tied after criterion `step` (index), going on to the next one.
    Continued { step: usize },
    /// The players still tied after criterion `step` separated another
    /// player from their larger tie `from`: restarted (XM-R4).
    Restarted { step: usize, from: Arc<[P]> },
}

/// One separation: `upper` ranks directly above `lower` because criterion
/// `step` gave them different values inside the tie `among`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split<P> {
    pub upper: P,
    pub lower: P,
    /// Index of the deciding criterion.
    pub step: usize,
    pub upper_value: i64,
    pub lower_value: i64,
    /// The players the criterion was evaluated on, in ranking order
    /// (shared by every split made in it): the tied subset, or inside a
    /// [`Block`] everyone tied when the block began.
    pub among: Arc<[P]>,
    /// How that subset came to be tied.
    pub origin: Origin<P>,
}

/// Players no criterion could separate: they share a place. `pending` is
/// the criterion (index) that could not be evaluated yet, or `None` when
/// every criterion was equal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unresolved<P> {
    pub players: Vec<P>,
    pub pending: Option<usize>,
    pub origin: Origin<P>,
}

/// A ranking: players best first, the place of each (tied players share
/// the place of the first of them), the splits between adjacent players,
/// and the ties left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ranking<P> {
    pub order: Vec<P>,
    /// Place (1-based) of `order[i]`.
    pub places: Vec<usize>,
    /// For each adjacent pair `order[i]`, `order[i + 1]` that is separated:
    /// the split between them.
    pub splits: Vec<Split<P>>,
    pub unresolved: Vec<Unresolved<P>>,
}

impl<P: Copy + Eq> Ranking<P> {
    /// The place of `p`.
    pub fn place_of(&self, p: P) -> Option<usize> {
        self.order
            .iter()
            .position(|&x| x == p)
            .map(|i| self.places[i])
    }

    /// The split directly above `p` (between the player above and `p`).
    pub fn split_above(&self, p: P) -> Option<&Split<P>> {
        self.splits.iter().find(|s| s.lower == p)
    }

    /// The tie `p` is left in, if any.
    pub fn tie_of(&self, p: P) -> Option<&Unresolved<P>> {
        self.unresolved.iter().find(|u| u.players.contains(&p))
    }

    /// Whether place `place` (1-based) is held by exactly one player.
    pub fn is_decided(&self, place: usize) -> bool {
        self.places.iter().filter(|&&x| x == place).count() == 1
            && self
                .places
                .iter()
                .position(|&x| x == place)
                .is_some_and(|i| self.tie_of(self.order[i]).is_none())
    }
}

/// Where each split and open tie starts in the order, kept while ranking
/// so that the final sort and the places take linear time.
struct Work<P> {
    out: Ranking<P>,
    split_at: Vec<usize>,
    tie_at: Vec<usize>,
}

impl<P: Copy + Eq + std::hash::Hash> Cascade<'_, P> {
    /// Rank `players` (their order is the order ties are listed in).
    pub fn rank(&self, players: &[P]) -> Ranking<P> {
        let out = Ranking {
            order: Vec::with_capacity(players.len()),
            places: Vec::with_capacity(players.len()),
            splits: Vec::new(),
            unresolved: Vec::new(),
        };
        let mut work = Work {
            out,
            split_at: Vec::new(),
            tie_at: Vec::new(),
        };
        self.rank_into(players.to_vec(), 0, Origin::All, None, &mut work);
        let Work {
            mut out,
            split_at,
            tie_at,
        } = work;
        // Splits in the order of the players they separate.
        let mut splits: Vec<(usize, Split<P>)> =
            split_at.into_iter().zip(out.splits.drain(..)).collect();
        splits.sort_by_key(|(at, _)| *at);
        out.splits = splits.into_iter().map(|(_, s)| s).collect();
        // Places: a tied block shares the place of its first player.
        let mut block_len = vec![1usize; out.order.len()];
        for (at, u) in tie_at.iter().zip(&out.unresolved) {
            if let Some(b) = block_len.get_mut(*at) {
                *b = u.players.len().max(1);
            }
        }
        let mut i = 0;
        while i < out.order.len() {
            let block = block_len[i];
            for _ in 0..block {
                out.places.push(i + 1);
            }
            i += block;
        }
        out.places.truncate(out.order.len());
        out
    }

    /// Rank `tied` from criterion `from`. `anchor`: inside a block, the
    /// players tied when it began, whom its criteria are evaluated on.
    fn rank_into(
        &self,
        tied: Vec<P>,
        from: usize,
        origin: Origin<P>,
        anchor: Option<Arc<[P]>>,
        work: &mut Work<P>,
    ) {
        if tied.len() < 2 {
            work.out.order.extend(tied);
            return;
        }
        let mut anchor = anchor;
        for step in from..self.criteria.len() {
            if let Some(b) = self.block {
                if step == b.from && anchor.is_none() {
                    anchor = Some(tied.iter().copied().collect());
                }
                if step == b.until
                    && let Some(a) = anchor.take()
                    && tied.len() < a.len()
                {
                    // Still tied after the block, fewer than began it: the
                    // block again, on their own.
                    let origin = Origin::Restarted {
                        step: b.until - 1,
                        from: a,
                    };
                    return self.rank_into(tied, b.from, origin, None, work);
                }
            }
            let criterion = &self.criteria[step];
            let evaluated = match &anchor {
                Some(a) if a.len() > tied.len() => (criterion.eval)(a).map(|v| {
                    let of: HashMap<P, i64> = a.iter().copied().zip(v).collect();
                    tied.iter()
                        .map(|p| of.get(p).copied().unwrap_or(0))
                        .collect()
                }),
                _ => (criterion.eval)(&tied),
            };
            let Some(values) = evaluated else {
                {
                    work.tie_at.push(work.out.order.len());
                    work.out.unresolved.push(Unresolved {
                        players: tied.clone(),
                        pending: Some(step),
                        origin,
                    });
                }
                work.out.order.extend(tied);
                return;
            };
            let mut scored: Vec<(P, i64)> = tied.iter().copied().zip(values).collect();
            // Stable: equal values keep the listing order.
            scored.sort_by_key(|b| std::cmp::Reverse(b.1));
            let blocks = blocks(&scored, criterion.tolerance);
            if blocks.len() == 1 {
                continue;
            }
            // The players the criterion was evaluated on: inside a block,
            // everyone tied when it began (UEFA: "the matches among the
            // teams in question"), though only `tied` are split here.
            let among: Arc<[P]> = match &anchor {
                Some(a) if a.len() > tied.len() => Arc::clone(a),
                _ => scored.iter().map(|s| s.0).collect(),
            };
            let restart = self
                .restart
                .filter(|r| self.block.is_none() && step >= r.to && tied.len() >= r.min_tie);
            let in_block = self
                .block
                .is_some_and(|b| (b.from..b.until).contains(&step));
            let values: HashMap<P, i64> = scored.iter().copied().collect();
            let value_of = |p: P| values.get(&p).copied().unwrap_or(0);
            for (k, block) in blocks.iter().enumerate() {
                let members: Vec<P> = block.iter().map(|s| s.0).collect();
                let start = work.out.order.len();
                let (next, next_origin) = match restart {
                    Some(r) if members.len() > 1 => (
                        r.to,
                        Origin::Restarted {
                            step,
                            from: Arc::clone(&among),
                        },
                    ),
                    _ => (step + 1, Origin::Continued { step }),
                };
                let keep = if in_block { anchor.clone() } else { None };
                self.rank_into(members, next, next_origin, keep, work);
                // The split lies between the bottom of the block above and
                // the top of this one, as each came out of its own tie.
                if k > 0 && start > 0 && start < work.out.order.len() {
                    let (upper, lower) = (work.out.order[start - 1], work.out.order[start]);
                    work.split_at.push(start - 1);
                    work.out.splits.push(Split {
                        upper,
                        lower,
                        step,
                        upper_value: value_of(upper),
                        lower_value: value_of(lower),
                        among: Arc::clone(&among),
                        origin: origin.clone(),
                    });
                }
            }
            return;
        }
        // A block that ends the cascade: the players it left tied, fewer
        // than began it, go through it again.
        if let (Some(b), Some(a)) = (self.block, anchor)
            && b.until >= self.criteria.len()
            && tied.len() < a.len()
        {
            let origin = Origin::Restarted {
                step: b.until.saturating_sub(1),
                from: a,
            };
            return self.rank_into(tied, b.from, origin, None, work);
        }
        {
            work.tie_at.push(work.out.order.len());
            work.out.unresolved.push(Unresolved {
                players: tied.clone(),
                pending: None,
                origin,
            });
        }
        work.out.order.extend(tied);
    }
}

/// Split players sorted by value (descending) into tied blocks: a player
/// within `tolerance` of the first (best) of the block above him is tied
/// with him (ARB-R51: pairwise, not chained; the blocks are a strict weak
/// order, each of them a set of players pairwise within the tolerance).
fn blocks<P: Copy>(scored: &[(P, i64)], tolerance: i64) -> Vec<Vec<(P, i64)>> {
    let mut out: Vec<Vec<(P, i64)>> = Vec::new();
    for &s in scored {
        match out.last_mut() {
            Some(block)
                if block
                    .first()
                    .is_some_and(|top| top.1.saturating_sub(s.1) <= tolerance) =>
            {
                block.push(s);
            }
            _ => out.push(vec![s]),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn by(values: &'static [(u32, [i64; 3])]) -> Vec<Criterion<'static, u32>> {
        (0..3)
            .map(|k| Criterion {
                label: "",
                name: "test",
                eval: Box::new(move |ps: &[u32]| {
                    Some(
                        ps.iter()
                            .map(|p| values.iter().find(|v| v.0 == *p).map_or(0, |v| v.1[k]))
                            .collect(),
                    )
                }),
                tolerance: 0,
            })
            .collect()
    }

    #[test]
    fn separates_step_by_step_and_records_splits() {
        static V: [(u32, [i64; 3]); 3] = [(1, [1, 0, 0]), (2, [2, 0, 0]), (3, [1, 5, 0])];
        let c = Cascade {
            criteria: by(&V),
            restart: None,
            block: None,
        };
        let r = c.rank(&[1, 2, 3]);
        assert_eq!(r.order, vec![2, 3, 1]);
        assert_eq!(r.places, vec![1, 2, 3]);
        assert_eq!(r.splits.len(), 2);
        assert_eq!(r.split_above(1).map(|s| s.step), Some(1));
    }

    /// A head-to-head criterion: a player's value among a group is the sum
    /// of `m[p][q]` over the others of the group.
    fn h2h(name: &'static str, m: [[i64; 4]; 4]) -> Criterion<'static, u32> {
        Criterion {
            label: "",
            name,
            eval: Box::new(move |ps: &[u32]| {
                Some(
                    ps.iter()
                        .map(|&p| {
                            ps.iter()
                                .filter(|&&q| q != p)
                                .map(|&q| m[p as usize][q as usize])
                                .sum()
                        })
                        .collect(),
                )
            }),
            tolerance: 0,
        }
    }

    /// Four teams level on points: A (0) beat the three others; B (1) beat
    /// C 3-0, C (2) beat D 1-0, D (3) beat B 1-0; A beat B 1-0, C 1-0, D
    /// 5-0. Among the three the points are level, and the goal difference
    /// among them is B +2, D 0, C -2; among all four it is B +1, C -3,
    /// D -5. XMadn's restart (XM-R4) starts the three again among
    /// themselves: B, D, C. UEFA's block keeps the four teams' matches for
    /// the goal difference: B, C, D; the three go through the block again
    /// only if still level after it.
    #[test]
    fn the_block_method_keeps_the_group_the_block_began_with() {
        let points = [[0, 3, 3, 3], [0, 0, 3, 0], [0, 0, 0, 3], [0, 3, 0, 0]];
        let gd = [[0, 1, 1, 5], [-1, 0, 3, -1], [-1, -3, 0, 1], [-5, 1, -1, 0]];
        let cascade = |restart, block| Cascade {
            criteria: vec![
                h2h("points among", points),
                h2h("goal difference among", gd),
            ],
            restart,
            block,
        };
        let restart = cascade(Some(Restart { to: 0, min_tie: 3 }), None).rank(&[0, 1, 2, 3]);
        assert_eq!(restart.order, vec![0, 1, 3, 2]);
        let block = cascade(None, Some(Block { from: 0, until: 2 })).rank(&[0, 1, 2, 3]);
        assert_eq!(block.order, vec![0, 1, 2, 3]);
        assert_eq!(block.places, vec![1, 2, 3, 4]);
        // The goal difference that split C from D was among all four.
        let s = block.split_above(3).unwrap();
        assert_eq!((s.step, s.upper_value, s.lower_value), (1, -3, -5));
    }

    /// Still level after the block, fewer than began it: the block again
    /// among them only. A beat everyone (3-0 B, 3-1 C, 3-2 D); B, C, D drew
    /// each other (B-C 2-2, B-D 1-1, C-D 0-0). Among the four, B, C and D
    /// have 2 points and 3 goals each; among the three, B scored 3, C 2,
    /// D 1.
    #[test]
    fn players_left_level_by_the_block_go_through_it_again_alone() {
        let points = [[0, 3, 3, 3], [0, 0, 1, 1], [0, 1, 0, 1], [0, 1, 1, 0]];
        let goals = [[0, 3, 3, 3], [0, 0, 2, 1], [1, 2, 0, 0], [2, 1, 0, 0]];
        let c = Cascade {
            criteria: vec![h2h("points among", points), h2h("goals among", goals)],
            restart: None,
            block: Some(Block { from: 0, until: 2 }),
        };
        let r = c.rank(&[3, 2, 1, 0]);
        assert_eq!(r.order, vec![0, 1, 2, 3], "{r:?}");
        let s = r.split_above(2).unwrap();
        assert_eq!((s.step, s.upper_value, s.lower_value), (1, 3, 2));
        assert!(matches!(s.origin, Origin::Restarted { .. }), "{s:?}");
        assert_eq!(s.among.len(), 3);
    }

    #[test]
    fn unresolved_ties_share_a_place() {
        static V: [(u32, [i64; 3]); 3] = [(1, [1, 0, 0]), (2, [2, 0, 0]), (3, [1, 0, 0])];
        let c = Cascade {
            criteria: by(&V),
            restart: None,
            block: None,
        };
        let r = c.rank(&[1, 2, 3]);
        assert_eq!(r.order, vec![2, 1, 3]);
        assert_eq!(r.places, vec![1, 2, 2]);
        assert!(r.is_decided(1));
        assert!(!r.is_decided(2));
    }

    #[test]
    fn tolerance_makes_virtual_ties() {
        let c = Cascade {
            criteria: vec![
                Criterion {
                    label: "",
                    name: "rating",
                    eval: Box::new(|ps: &[u32]| {
                        Some(ps.iter().map(|&p| [1500, 1508, 1530][p as usize]).collect())
                    }),
                    tolerance: 10,
                },
                Criterion {
                    label: "",
                    name: "id",
                    eval: Box::new(|ps: &[u32]| Some(ps.iter().map(|&p| i64::from(p)).collect())),
                    tolerance: 0,
                },
            ],
            restart: None,
            block: None,
        };
        let r = c.rank(&[0, 1, 2]);
        assert_eq!(r.order, vec![2, 1, 0]);
        assert_eq!(r.splits[1].step, 1, "1500 and 1508 are a virtual tie");
    }
}
