//! What the running round can still do to each rung (issue 15, item 5; ARB-R61):
//! the games not decided yet stay undecided, and each player's best and
//! worst rung at the close is taken over every outcome of them.
//!
//! Outcomes per game: for the re-sort a tie is a win for the side ties
//! advance (TWS-R11), so the two "advances" outcomes give every rung a tie
//! could give. Up to a limit of completions (2 per game) every completion
//! is closed by the re-sort itself (`resort`, CHANGE OF LADDER STANDINGS);
//! above it a sound bound is computed from the stable partition of TWS-R1
//! (winners first, each side in its previous order), which places a
//! contestant by the number of players ahead of him, a sum over the games
//! of what each game can add.

use super::{Ladder, MoveReason, Round};
use crate::model::{EndTag, GameId, GameResult, GameStatus, Outcome, PlayerId, Side, Time};

/// One player's rungs still possible when the round closes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RungRange {
    pub player: PlayerId,
    /// His rung now.
    pub now: u32,
    /// The best (lowest) rung he can have after the close, `None` when he
    /// leaves for the inactive list in every completion.
    pub best: Option<u32>,
    /// The worst rung he can have while still on the ladder.
    pub worst: Option<u32>,
    /// He may leave for the inactive list (TWS-R4).
    pub may_retire: bool,
}

/// The rungs still possible at the close of the running round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PossibleRungs {
    pub round: u32,
    /// The round's games without a result.
    pub undecided: Vec<GameId>,
    /// Completions examined (2 per undecided game), or 0 when bounded.
    pub completions: u64,
    /// Every completion was closed (`true`), or the ranges are a sound
    /// bound: the true best and worst lie within them (`false`).
    pub exact: bool,
    /// Every player on the ladder or entering it, by rung now (entrants
    /// after, in order of entry).
    pub ranges: Vec<RungRange>,
}

impl Ladder {
    /// The rungs still possible when the running round closes, over every
    /// outcome of its undecided games (`None` without a running round).
    /// At most `limit` completions are closed one by one; a round with
    /// more is bounded instead (see the module's text).
    pub fn possible_rungs(&self, at: Time, limit: u64) -> Option<PossibleRungs> {
        let round = self.open_round()?.clone();
        let undecided: Vec<GameId> = round
            .games
            .iter()
            .copied()
            .filter(|g| {
                self.game(*g)
                    .is_some_and(|g| g.status == GameStatus::Scheduled)
            })
            .collect();
        let k = undecided.len();
        let completions = 1u64.checked_shl(k as u32).filter(|n| *n <= limit);
        let ranges = match completions {
            Some(n) => self.enumerate(&round, &undecided, n, at),
            None => self.bound(&round, &undecided, at),
        };
        Some(PossibleRungs {
            round: round.number,
            undecided,
            completions: completions.unwrap_or(0),
            exact: completions.is_some(),
            ranges,
        })
    }

    /// A copy of the ladder with each game of `games` decided: bit i of
    /// `mask` set means the USSR of game i advances.
    fn complete(&self, copy: &mut Ladder, games: &[GameId], mask: u64, at: Time) {
        for (i, g) in games.iter().enumerate() {
            let bit = mask.checked_shr(i as u32).unwrap_or(0) & 1;
            let side = if bit == 1 { Side::Ussr } else { Side::Us };
            if let Some(game) = copy.game_mut(*g) {
                game.status = GameStatus::Played;
                game.result = Some(GameResult {
                    outcome: Outcome::Win(side),
                    ended_by: EndTag::Concession,
                    vp: None,
                    turn: None,
                    note: None,
                    status: GameStatus::Played,
                    adjudication: None,
                    at,
                });
            }
        }
    }

    /// Every player on the ladder with his rung now (members who joined
    /// during the round are at the bottom, TWS-R5): the players the ranges
    /// are given for.
    fn players_now(&self) -> Vec<(PlayerId, u32)> {
        self.order
            .iter()
            .enumerate()
            .map(|(i, p)| (*p, i as u32 + 1))
            .collect()
    }

    fn enumerate(&self, round: &Round, games: &[GameId], n: u64, at: Time) -> Vec<RungRange> {
        let now = self.players_now();
        let mut best = vec![u32::MAX; self.players.len()];
        let mut worst = vec![0u32; self.players.len()];
        let mut retired = vec![false; self.players.len()];
        let mut copy = self.clone();
        for mask in 0..n {
            self.complete(&mut copy, games, mask, at);
            let (closed, _) = copy.resort(round, at, None);
            for (i, p) in closed.order.iter().enumerate() {
                let r = i as u32 + 1;
                if let (Some(b), Some(w)) = (best.get_mut(p.index()), worst.get_mut(p.index())) {
                    *b = (*b).min(r);
                    *w = (*w).max(r);
                }
            }
            for r in &closed.inactive {
                if let Some(slot) = retired.get_mut(r.player.index()) {
                    *slot = true;
                }
            }
        }
        now.into_iter()
            .map(|(p, rung)| RungRange {
                player: p,
                now: rung,
                best: (best[p.index()] != u32::MAX).then_some(best[p.index()]),
                worst: (worst[p.index()] != 0).then_some(worst[p.index()]),
                may_retire: retired[p.index()],
            })
            .collect()
    }

    /// The sound bound for rounds with too many completions to close one
    /// by one. One completion (every USSR advancing) gives the places the
    /// re-sort keeps for keepers and the rung of the k-th contestant
    /// (winners then losers, TWS-R1), which no outcome changes: only which
    /// contestant is k-th does. A contestant's k is 1 + the players ahead of
    /// him, a sum over the games of what each can add, so its least and
    /// greatest are the sums of each game's least and greatest. The
    /// inactive check (TWS-R4) removes players from the bottom only, so
    /// the rungs of everyone who stays are unchanged by it; who may leave
    /// (a skipper whose skip is a loss, a keeper) is flagged, and entrants,
    /// appended after it, are bounded by how many may leave.
    fn bound(&self, round: &Round, games: &[GameId], at: Time) -> Vec<RungRange> {
        let rules = self.rules_for(round.number);
        let now = self.players_now();
        let mut copy = self.clone();
        self.complete(&mut copy, games, u64::MAX, at);
        let (c0, _) = copy.resort(round, at, None);
        let n = self.players.len();
        // Each player's rung in c0 before any removal, and his class there.
        let mut rung0 = vec![0u32; n];
        let mut contestant = vec![false; n];
        let mut keeper = vec![false; n];
        let mut entrant = vec![false; n];
        for m in &c0.moves {
            rung0[m.player.index()] = m.to;
            match m.reason {
                MoveReason::Won { .. } | MoveReason::Lost { .. } | MoveReason::SkipLoss { .. } => {
                    contestant[m.player.index()] = true;
                }
                MoveReason::Entered => entrant[m.player.index()] = true,
                _ => keeper[m.player.index()] = true,
            }
        }
        let skip_loss: Vec<PlayerId> = round
            .skips
            .iter()
            .filter(|s| s.as_loss)
            .map(|s| s.player)
            .collect();
        for r in &c0.inactive {
            rung0[r.player.index()] = r.rung;
            // Only skippers and keepers can be retired (a player who played
            // has missed no round).
            if skip_loss.contains(&r.player) {
                contestant[r.player.index()] = true;
            } else {
                keeper[r.player.index()] = true;
            }
        }
        // F: the rung of the k-th contestant, the same in every completion.
        let mut f: Vec<u32> = (0..n)
            .filter(|i| contestant[*i])
            .map(|i| rung0[i])
            .collect();
        f.sort_unstable();
        // Who may leave: enough missed rounds with this one (TWS-R4).
        let missed = |p: PlayerId| self.player(p).map_or(0, |r| r.missed_streak) + 1;
        let may_leave = |p: PlayerId| {
            let i = p.index();
            (keeper[i] && round.skips.iter().any(|s| s.player == p) || skip_loss.contains(&p))
                && missed(p) >= rules.missed_rounds_for_inactive
        };
        let leaving = now.iter().filter(|(p, _)| may_leave(*p)).count() as u32;

        // The previous order among contestants, and each contestant's
        // class: fixed (decided, or a skip counted as a loss) or his game's.
        let pos = |p: PlayerId| self.rung_of(p).unwrap_or(u32::MAX);
        let tie_side = rules.tie_advances;
        // (winner ids, loser ids) of each decided game's ladder players.
        let mut fixed_win: Vec<PlayerId> = Vec::new();
        let mut fixed_lose: Vec<PlayerId> = skip_loss.clone();
        let mut open: Vec<[(PlayerId, Side); 2]> = Vec::new();
        let mut open_len: Vec<usize> = Vec::new();
        for g in round.games.iter().filter_map(|g| self.game(*g)) {
            let parts: Vec<(PlayerId, Side)> = g
                .participants()
                .iter()
                .filter(|p| {
                    p.counts == crate::model::Counts::Ladder && contestant[p.player.index()]
                })
                .map(|p| (p.player, p.side))
                .collect();
            if parts.is_empty() {
                continue;
            }
            if games.contains(&g.id) {
                let mut pair = [parts[0]; 2];
                if let Some(second) = parts.get(1) {
                    pair[1] = *second;
                }
                open.push(pair);
                open_len.push(parts.len());
            } else if let Some(adv) = g.advancing_side(tie_side) {
                for (p, side) in parts {
                    if side == adv {
                        fixed_win.push(p);
                    } else {
                        fixed_lose.push(p);
                    }
                }
            }
        }
        // Players of game j that advance / fall with outcome `adv`.
        let split = |j: usize, adv: Side| -> (Vec<PlayerId>, Vec<PlayerId>) {
            let mut w = Vec::new();
            let mut l = Vec::new();
            for (p, side) in open[j].iter().take(open_len[j]) {
                if *side == adv {
                    w.push(*p);
                } else {
                    l.push(*p);
                }
            }
            (w, l)
        };
        // k of `p` if he wins (`won`) or loses, over the other games.
        let k_range = |p: PlayerId, won: bool, own: Option<usize>| -> (u32, u32) {
            let before = |q: &PlayerId| pos(*q) < pos(p);
            let count = |w: &[PlayerId], l: &[PlayerId]| -> u32 {
                if won {
                    w.iter().filter(|q| before(q)).count() as u32
                } else {
                    (w.len() + l.iter().filter(|q| before(q)).count()) as u32
                }
            };
            let mut lo = 1 + count(&fixed_win, &fixed_lose);
            let mut hi = lo;
            for j in 0..open.len() {
                let options: Vec<u32> = [Side::Ussr, Side::Us]
                    .into_iter()
                    .filter_map(|adv| {
                        let (w, l) = split(j, adv);
                        let p_wins = w.contains(&p);
                        let p_in = p_wins || l.contains(&p);
                        match (own == Some(j), p_in) {
                            (true, true) if p_wins != won => None,
                            _ => {
                                let w: Vec<PlayerId> = w.into_iter().filter(|q| *q != p).collect();
                                let l: Vec<PlayerId> = l.into_iter().filter(|q| *q != p).collect();
                                Some(count(&w, &l))
                            }
                        }
                    })
                    .collect();
                lo += options.iter().copied().min().unwrap_or(0);
                hi += options.iter().copied().max().unwrap_or(0);
            }
            (lo, hi)
        };
        let f_of = |k: u32| f.get(k.saturating_sub(1) as usize).copied();
        let removed0 = c0.inactive.len() as u32;
        let base = (now.len() - now.iter().filter(|(p, _)| entrant[p.index()]).count()) as u32;
        now.into_iter()
            .map(|(p, rung)| {
                let i = p.index();
                let (best, worst) = if contestant[i] {
                    let own = open.iter().position(|g| g.iter().any(|(q, _)| *q == p));
                    let mut outcomes = Vec::new();
                    if own.is_some() {
                        outcomes.push(k_range(p, true, own));
                        outcomes.push(k_range(p, false, own));
                    } else {
                        outcomes.push(k_range(p, fixed_win.contains(&p), None));
                    }
                    let lo = outcomes.iter().map(|r| r.0).min().unwrap_or(1);
                    let hi = outcomes.iter().map(|r| r.1).max().unwrap_or(1);
                    (f_of(lo), f_of(hi))
                } else if entrant[i] {
                    // Appended in order of entry after the players who stay.
                    let idx = rung0[i].saturating_sub(base.saturating_sub(removed0));
                    (
                        Some((base.saturating_sub(leaving) + idx).max(1)),
                        Some(base + idx),
                    )
                } else {
                    (Some(rung0[i]), Some(rung0[i]))
                };
                RungRange {
                    player: p,
                    now: rung,
                    best,
                    worst,
                    may_retire: may_leave(p),
                }
            })
            .collect()
    }
}
