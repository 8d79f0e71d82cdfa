//! STATISTICS (tws-ladder.txt): outcomes by side, by bid, by how games
//! ended and by game length (turns), for ladder games, quick rounds and
//! both; per-player records and side balance; the quick-round leaderboard.

use std::collections::BTreeMap;

use super::{Bid, Game, Ladder};
use crate::model::{Counts, EndTag, Outcome, PlayerId, Side};

/// Wins by side and ties.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SideTally {
    pub ussr_wins: u32,
    pub us_wins: u32,
    pub ties: u32,
}

impl SideTally {
    pub fn games(&self) -> u32 {
        self.ussr_wins + self.us_wins + self.ties
    }

    fn add(&mut self, o: Outcome) {
        match o {
            Outcome::Win(Side::Ussr) => self.ussr_wins += 1,
            Outcome::Win(Side::Us) => self.us_wins += 1,
            Outcome::Tie => self.ties += 1,
        }
    }
}

/// A player's record.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Record {
    pub wins: u32,
    pub losses: u32,
    pub ties: u32,
}

impl Record {
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.ties
    }
}

/// One player's statistics.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlayerStats {
    pub player: Option<PlayerId>,
    /// Games that counted as ladder games for him.
    pub ladder: Record,
    /// Quick-round games (including those he played as eliminator).
    pub quick: Record,
    /// Sides of his ladder games.
    pub ladder_ussr: u32,
    pub ladder_us: u32,
    /// Sides of all his games.
    pub all_ussr: u32,
    pub all_us: u32,
}

/// The statistics of a ladder.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Statistics {
    /// Games of ladder rounds (eliminator games included).
    pub ladder: SideTally,
    /// Quick-round games.
    pub quick: SideTally,
    pub all: SideTally,
    pub by_bid: BTreeMap<(u32, &'static str), SideTally>,
    pub by_end: BTreeMap<EndTag, SideTally>,
    /// Game lengths: played-out games (not forfeits) whose result gives
    /// the turn they ended in, by that turn.
    pub by_turn: BTreeMap<u8, SideTally>,
    pub players: Vec<PlayerStats>,
}

/// A line of the quick-round leaderboard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuickLine {
    pub player: PlayerId,
    pub record: Record,
}

fn bid_key(b: Bid) -> (u32, &'static str) {
    (b.influence, b.side.name())
}

impl Ladder {
    fn decided_games(&self) -> impl Iterator<Item = (&Game, Outcome)> {
        self.games
            .iter()
            .filter_map(|g| g.result.as_ref().map(|r| (g, r.outcome)))
            .filter(|(g, _)| g.status != crate::model::GameStatus::Cancelled)
    }

    /// Statistics over every decided game. Ties are ties here (TWS-R11: the
    /// US advances, but a tie is recorded as a tie).
    pub fn statistics(&self) -> Statistics {
        let mut s = Statistics {
            players: (0..self.players.len())
                .map(|i| PlayerStats {
                    player: Some(PlayerId(i as u32 + 1)),
                    ..PlayerStats::default()
                })
                .collect(),
            ..Statistics::default()
        };
        // A ladder carried over starts each member's record and sides from
        // his carried figures (ARB-R75); the play balance of the ladder
        // (by side, bid, ending, turn) counts only games recorded here.
        for (i, ps) in s.players.iter_mut().enumerate() {
            if let Some(m) = self.carried_of(PlayerId(i as u32 + 1)) {
                ps.ladder = m.record;
                ps.ladder_ussr = m.ussr;
                ps.ladder_us = m.us;
                ps.all_ussr = m.ussr;
                ps.all_us = m.us;
            }
        }
        for (g, outcome) in self.decided_games() {
            // Play balance (by side, by bid) counts games that were played
            // out; a forfeit is an ending, and counts in the records
            // (ARB-R10), not in the balance of the sides.
            if g.status != crate::model::GameStatus::Forfeited {
                if g.round.is_some() {
                    s.ladder.add(outcome);
                } else {
                    s.quick.add(outcome);
                }
                s.all.add(outcome);
                s.by_bid.entry(bid_key(g.bid)).or_default().add(outcome);
                if let Some(turn) = g.result.as_ref().and_then(|r| r.turn) {
                    s.by_turn.entry(turn).or_default().add(outcome);
                }
            }
            if let Some(r) = &g.result {
                // ARB-R58: by the fixed endings; an old free text under the
                // ending it spells, else under "other".
                s.by_end
                    .entry(r.ended_by.counted())
                    .or_default()
                    .add(outcome);
            }
            for p in g.participants() {
                let Some(ps) = s.players.get_mut(p.player.index()) else {
                    continue;
                };
                let rec = match p.counts {
                    Counts::Ladder => &mut ps.ladder,
                    Counts::QuickRound => &mut ps.quick,
                };
                match outcome {
                    Outcome::Tie => rec.ties += 1,
                    Outcome::Win(w) if w == p.side => rec.wins += 1,
                    Outcome::Win(_) => rec.losses += 1,
                }
                match (p.side, p.counts) {
                    (Side::Ussr, Counts::Ladder) => ps.ladder_ussr += 1,
                    (Side::Us, Counts::Ladder) => ps.ladder_us += 1,
                    _ => {}
                }
                match p.side {
                    Side::Ussr => ps.all_ussr += 1,
                    Side::Us => ps.all_us += 1,
                }
            }
        }
        s
    }

    /// The quick-round leaderboard: most wins first, then fewest losses,
    /// then most ties, then name.
    pub fn quick_leaderboard(&self) -> Vec<QuickLine> {
        let stats = self.statistics();
        let mut lines: Vec<QuickLine> = stats
            .players
            .iter()
            .filter(|p| p.quick.games() > 0)
            .filter_map(|p| {
                p.player.map(|player| QuickLine {
                    player,
                    record: p.quick,
                })
            })
            .collect();
        lines.sort_by(|a, b| {
            b.record
                .wins
                .cmp(&a.record.wins)
                .then(a.record.losses.cmp(&b.record.losses))
                .then(b.record.ties.cmp(&a.record.ties))
                .then_with(|| self.name_of(a.player).cmp(&self.name_of(b.player)))
        });
        lines
    }
}
