//! Round-robin schedules from the FIDE Berger tables (FIDE Handbook C.05,
//! Annex 1), shared by every format that plays all-play-all (issue 16, §2:
//! the general league's schedule).
//!
//! Players are numbered by seat from 1. With an odd number of players, the
//! table of the next even number is used and the highest seat is a bye: the
//! player drawn against it sits the round out. In round `r` of a table of
//! `m` seats (`m` even), seat `m` meets seat `p`, with `p = (r + 1) / 2`
//! when `r` is odd and `p = (r + m) / 2` when it is even; seat `m` has
//! white (plays at home) in the even rounds. Board `k + 1` pairs seat
//! `p + k` (white) with seat `p - k` (black), both counted round the
//! seats `1..m - 1`. That gives, for six players:
//!
//! ```text
//! 1. 1-6, 2-5, 3-4
//! 2. 6-4, 5-3, 1-2
//! 3. 2-6, 3-1, 4-5
//! 4. 6-5, 1-4, 2-3
//! 5. 3-6, 4-2, 5-1
//! ```
//!
//! A k-fold round robin plays the table k times, the colours reversed in
//! every second cycle. As C.05 Annex 1 recommends for a double round robin,
//! the last two rounds of a cycle followed by a reversed one are exchanged,
//! so that nobody plays the same colour three games running across the
//! turn of the cycle.

use crate::RuleError;

/// The fewest and the most players a round robin has here.
pub const PLAYERS: std::ops::RangeInclusive<usize> = 2..=64;
/// The most cycles (a k-fold round robin).
pub const MOST_CYCLES: u32 = 10;

const CLAUSE: &str = "FIDE C.05 Annex 1: Berger Tables";

/// One game: seats, the first with white (or at home).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Game {
    pub white: usize,
    pub black: usize,
}

/// One round: its games in board order, and the seat that sits it out
/// (odd numbers of players).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Round {
    /// From 1, over all cycles.
    pub number: u32,
    /// From 1.
    pub cycle: u32,
    pub games: Vec<Game>,
    pub bye: Option<usize>,
}

/// Round `round` (from 1) of the Berger table of `m` seats (`m` even, at
/// least 2): its games in board order, seat `m`'s first.
fn table_round(m: usize, round: usize) -> Vec<Game> {
    let rounds = m - 1;
    // Seats 1..m-1 counted round: 0 is m - 1, m is 1, and so on.
    let wrap = |x: isize| -> usize { (x - 1).rem_euclid(rounds as isize) as usize + 1 };
    let p = if round % 2 == 1 {
        round.div_ceil(2)
    } else {
        (round + m) / 2
    };
    let mut games = Vec::with_capacity(m / 2);
    games.push(if round % 2 == 1 {
        Game { white: p, black: m }
    } else {
        Game { white: m, black: p }
    });
    for k in 1..m / 2 {
        let (k, p) = (k as isize, p as isize);
        games.push(Game {
            white: wrap(p + k),
            black: wrap(p - k),
        });
    }
    games
}

/// The schedule of a `cycles`-fold round robin of `players` players (seats
/// 1 to `players`): every pair meets once per cycle.
pub fn schedule(players: usize, cycles: u32) -> Result<Vec<Round>, RuleError> {
    if !PLAYERS.contains(&players) {
        return Err(RuleError::new(
            CLAUSE,
            format!(
                "a round robin has {} to {} players, not {players}",
                PLAYERS.start(),
                PLAYERS.end()
            ),
        )
        .field("players"));
    }
    if !(1..=MOST_CYCLES).contains(&cycles) {
        return Err(RuleError::new(
            CLAUSE,
            format!("a round robin is played 1 to {MOST_CYCLES} times (cycles), not {cycles}"),
        )
        .field("cycles"));
    }
    let m = players + players % 2;
    let per_cycle = m - 1;
    let mut out = Vec::with_capacity(per_cycle * cycles as usize);
    for cycle in 0..cycles {
        let reversed = cycle % 2 == 1;
        let mut order: Vec<usize> = (1..=per_cycle).collect();
        // C.05 Annex 1: the last two rounds of a cycle that a reversed one
        // follows are exchanged.
        if cycle + 1 < cycles && !reversed && per_cycle >= 2 {
            order.swap(per_cycle - 2, per_cycle - 1);
        }
        for r in order {
            let mut games = Vec::with_capacity(m / 2);
            let mut bye = None;
            for g in table_round(m, r) {
                let g = if reversed {
                    Game {
                        white: g.black,
                        black: g.white,
                    }
                } else {
                    g
                };
                if g.white > players {
                    bye = Some(g.black);
                } else if g.black > players {
                    bye = Some(g.white);
                } else {
                    games.push(g);
                }
            }
            out.push(Round {
                number: out.len() as u32 + 1,
                cycle: cycle + 1,
                games,
                bye,
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn text(players: usize, cycles: u32) -> Vec<String> {
        schedule(players, cycles)
            .unwrap()
            .iter()
            .map(|r| {
                r.games
                    .iter()
                    .map(|g| format!("{}-{}", g.white, g.black))
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .collect()
    }

    #[test]
    fn four_players_as_the_table() {
        assert_eq!(text(4, 1), ["1-4, 2-3", "4-3, 1-2", "2-4, 3-1"]);
    }

    #[test]
    fn five_players_give_a_bye_to_whoever_meets_seat_six() {
        let s = schedule(5, 1).unwrap();
        let byes: Vec<Option<usize>> = s.iter().map(|r| r.bye).collect();
        assert_eq!(byes, [Some(1), Some(4), Some(2), Some(5), Some(3)]);
        assert_eq!(text(5, 1)[1], "5-3, 1-2");
    }

    #[test]
    fn a_double_round_robin_exchanges_the_last_two_rounds_and_reverses() {
        let t = text(4, 2);
        assert_eq!(
            t,
            [
                "1-4, 2-3", "2-4, 3-1", "4-3, 1-2", "4-1, 3-2", "3-4, 2-1", "4-2, 1-3"
            ]
        );
    }

    #[test]
    fn out_of_range_is_refused_naming_the_field() {
        assert_eq!(
            schedule(1, 1).unwrap_err().field.as_deref(),
            Some("players")
        );
        assert_eq!(
            schedule(65, 1).unwrap_err().field.as_deref(),
            Some("players")
        );
        assert_eq!(schedule(6, 0).unwrap_err().field.as_deref(), Some("cycles"));
        assert_eq!(
            schedule(6, 11).unwrap_err().field.as_deref(),
            Some("cycles")
        );
    }
}
