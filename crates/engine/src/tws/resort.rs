//! CHANGE OF LADDER STANDINGS and SKIPPING ROUNDS: the re-sort at the close
//! of a round (TWS-R1..R5, TWS-R10, ARB-R3).

use super::{Ladder, Move, MoveReason, Retirement, Round, RoundClosed};
use crate::model::{Counts, GameStatus, PlayerId, Time};

/// How a member comes out of a round, before placement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// Not seen in the round (left untouched: keeps his rung).
    Idle,
    Winner(MoveReason),
    Loser(MoveReason),
    /// Keeps his rung number (skip, bye, cancelled game).
    Keeper(MoveReason),
}

impl Ladder {
    /// Compute the close of `round` (which must be the open round, all its
    /// games resolved).
    /// Also returns the time of the round's latest result (for the check
    /// that a round does not close before it, ARB-R19): one pass over the
    /// round's games serves both.
    pub(crate) fn resort(
        &self,
        round: &Round,
        at: Time,
        early: Option<String>,
    ) -> (RoundClosed, Option<Time>) {
        let rules = self.rules_for(round.number);
        let tie_side = rules.tie_advances;
        let mut class = vec![Class::Idle; self.players.len()];
        let mut carried = Vec::new();
        let mut last_result: Option<Time> = None;

        for s in &round.skips {
            class[s.player.index()] = if s.as_loss {
                // TWS-R2: sorted among the round's losers by previous position.
                Class::Loser(MoveReason::SkipLoss {
                    consecutive: s.consecutive,
                })
            } else {
                Class::Keeper(MoveReason::Skipped)
            };
        }
        for (p, _) in &round.byes {
            class[p.index()] = Class::Keeper(MoveReason::Bye);
        }
        for gid in &round.games {
            let Some(game) = self.game(*gid) else {
                continue;
            };
            if let Some(r) = &game.result {
                last_result = Some(last_result.map_or(r.at, |t: Time| t.max(r.at)));
            }
            let tie = matches!(
                game.result.as_ref().map(|r| r.outcome),
                Some(crate::model::Outcome::Tie)
            );
            let advancing = game.advancing_side(tie_side);
            for part in game.participants() {
                // An eliminator's game does not bear on his ladder position.
                if part.counts != Counts::Ladder {
                    continue;
                }
                class[part.player.index()] = match (game.status, advancing) {
                    // ARB-R21: still being played when the round closed early.
                    (GameStatus::Scheduled, _) => {
                        carried.push(game.id);
                        Class::Keeper(MoveReason::CarriedOver { game: game.id })
                    }
                    (GameStatus::Cancelled, _) | (_, None) => {
                        Class::Keeper(MoveReason::NoResult { game: game.id })
                    }
                    (_, Some(side)) if side == part.side => {
                        Class::Winner(MoveReason::Won { game: game.id, tie })
                    }
                    (_, Some(_)) => Class::Loser(MoveReason::Lost { game: game.id, tie }),
                };
            }
        }

        // Partition the ladder (TWS-R1), collecting keepers with their
        // previous rungs (TWS-R3) and entrants (TWS-R4, TWS-R5).
        let n = self.order.len();
        let mut winners = Vec::with_capacity(n);
        let mut losers = Vec::with_capacity(n / 2 + 1);
        let mut keepers: Vec<(PlayerId, u32, MoveReason)> = Vec::new();
        let mut entrants: Vec<PlayerId> = Vec::new();
        let mut from = vec![0u32; self.players.len()];
        let mut reason_of = vec![MoveReason::Entered; self.players.len()];
        for (i, &p) in self.order.iter().enumerate() {
            let rung = i as u32 + 1;
            from[p.index()] = rung;
            match class[p.index()] {
                Class::Winner(r) => {
                    reason_of[p.index()] = r;
                    winners.push(p);
                }
                Class::Loser(r) => {
                    reason_of[p.index()] = r;
                    losers.push(p);
                }
                Class::Keeper(r) => keepers.push((p, rung, r)),
                Class::Idle => {
                    let joined_now = self
                        .player(p)
                        .is_some_and(|r| r.joined_during == Some(round.number));
                    if joined_now {
                        entrants.push(p);
                    } else {
                        keepers.push((p, rung, MoveReason::Bye));
                    }
                }
            }
        }

        // Reinsert keepers in ascending order of previous rung, each at his
        // previous rung number; rung 1 goes to rung 2 (TWS-R3). Targets
        // strictly increase so keepers keep their relative order.
        let mut targets = Vec::with_capacity(keepers.len());
        let mut last_target = 0u32;
        for &(p, rung, reason) in &keepers {
            // TWS-R3: "each round will always generate a Ladder Champion from
            // the contestants active in that round": rung 1 goes to rung 2
            // whatever kept him out of the round (ARB-R3).
            let (mut target, reason) = match (rung, reason) {
                (1, MoveReason::Skipped) => (2, MoveReason::SkippedTop),
                (1, other) => (2, other),
                (r, other) => (r.max(1), other),
            };
            target = target.max(last_target + 1);
            last_target = target;
            reason_of[p.index()] = reason;
            targets.push((p, target));
        }
        let mut order = Vec::with_capacity(n);
        let mut contestants = winners.into_iter().chain(losers);
        let mut keep_iter = targets.into_iter().peekable();
        loop {
            let pos = order.len() as u32 + 1;
            match keep_iter.peek() {
                Some(&(p, t)) if t <= pos => {
                    order.push(p);
                    keep_iter.next();
                }
                _ => match contestants.next() {
                    Some(p) => order.push(p),
                    None => {
                        order.extend(keep_iter.by_ref().map(|(p, _)| p));
                        break;
                    }
                },
            }
        }

        // TWS-R4: remove the bottom player while he has missed at least
        // `missed_rounds_for_inactive` consecutive rounds (this one included).
        let missed_after = |p: PlayerId| -> u32 {
            let before = self.player(p).map_or(0, |r| r.missed_streak);
            match reason_of[p.index()] {
                MoveReason::Skipped | MoveReason::SkippedTop | MoveReason::SkipLoss { .. } => {
                    before + 1
                }
                // ARB-R13: a round he was in without playing (a bye, a
                // cancelled or carried game) breaks the run, as it breaks
                // the run of skips: one reading of "consecutive" for both.
                MoveReason::Bye
                | MoveReason::NoResult { .. }
                | MoveReason::CarriedOver { .. }
                | MoveReason::Won { .. }
                | MoveReason::Lost { .. }
                | MoveReason::Entered => 0,
            }
        };
        let mut inactive = Vec::new();
        while let Some(&bottom) = order.last() {
            let missed = missed_after(bottom);
            if missed >= rules.missed_rounds_for_inactive {
                inactive.push(Retirement {
                    player: bottom,
                    rung: order.len() as u32,
                    missed,
                });
                order.pop();
            } else {
                break;
            }
        }

        // Then new entrants, in order of entry.
        entrants.sort_by_key(|p| self.player(*p).map_or(0, |r| r.entry));
        order.extend(entrants.iter().copied());

        let moves = order
            .iter()
            .enumerate()
            .map(|(i, &p)| Move {
                player: p,
                from: from[p.index()],
                to: i as u32 + 1,
                reason: reason_of[p.index()],
            })
            .collect();

        // The champion and his streak of consecutive rounds at the top.
        let champion = order.first().copied();
        let streak = match champion {
            // ARB-R7: the streak grows by a round he played and won from rung 1.
            Some(c)
                if Some(c) == self.champion
                    && from[c.index()] == 1
                    && matches!(reason_of[c.index()], MoveReason::Won { .. }) =>
            {
                self.streak + 1
            }
            // Nobody played (every game carried over or called off): the
            // title stays where it was.
            Some(c) if Some(c) == self.champion && from[c.index()] == 1 => self.streak,
            Some(_) => 1,
            None => 0,
        };
        let closed = RoundClosed {
            round: round.number,
            at,
            order,
            moves,
            inactive,
            champion,
            streak,
            carried: {
                carried.dedup();
                carried
            },
            early,
        };
        (closed, last_result)
    }
}
