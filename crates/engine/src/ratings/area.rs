//! The A.R.E.A. rating system (Avalon Reliability, Experience and Ability
//! player rating service, started by the Avalon Hill Game Company in 1974),
//! hand-written: no crate implements it.
//!
//! # Source
//!
//! "How AREA ratings are calculated", Glenn E. L. Petroski, A.R.E.A.
//! administrator, 25 September 2001, updated 1 May 2002, at
//! <http://wolff.to/area/calcexp.html> (page last updated 23 April 2008).
//! Its two-player (TWO) formula, in its own spreadsheet notation:
//!
//! - A win: `@round(((defeated player rating - victor's rating)x0.05),0)+100`,
//!   "minimum of one point, maximum of 200 points"; the winner gains it and
//!   the loser loses it.
//! - A tie: `@round(((lower player rating - higher player rating)x0.05),0)`,
//!   "no 100-point baseline", "no minimum points", "the maximum 200 points
//!   still applies"; the higher rated player loses it and the lower rated
//!   player gains it. The page then says it in words: "Subtract the lower
//!   player rating from the higher. Multiply the difference by 5% (.05).
//!   Round this figure to the nearest whole number." As printed, the tie
//!   formula is negative (lower minus higher) and would move points toward
//!   the higher rated player; the words, the sense of "the higher rated
//!   player ... minus", and every use of the system move them from the higher
//!   to the lower: that is what is implemented.
//!
//! `@round` is the spreadsheet's rounding, half away from zero, so the win
//! formula is the same as the words (round the difference, then add it to
//! 100 for an upset or subtract it from 100): a 5010 beating a 5000 gains
//! `100 - round(0.5) = 99`.
//!
//! "All players begin with a 5000 rating": "AREA codes explained",
//! <http://wolff.to/area/areacode.html>.
//!
//! The stored copy of the page the search found holds the formula and its
//! wording but no worked example with figures; the figures in the tests are
//! worked by hand from the formula, step by step, in their comments.
//!
//! # The report
//!
//! The TWS ladder submits its games "to the AREA rating system at the
//! conclusion of each round" (RATING OF GAMES). What the Twilight Struggle
//! AREA keeper asks for: Ron Jacobsen, "the AREA representative responsible
//! for rating games of Twilight Struggle", in the BoardGameGeek thread
//! "AREA Rated Games" (Twilight Struggle » Forums » Organized Play,
//! <https://www.boardgamegeek.com/thread/1192223/area-rated-games>): any
//! one person of the game (a player or the moderator) may report it, by
//! e-mail, and "When you report a game, include the following information":
//! "Winner and Loser", "AREA ID for each player, if you know it", and a third
//! item at which the stored copy breaks off (it begins "Whet..."). So
//! [`report`] gives what is known to be asked for, one game a line: the date,
//! the winner and the loser (or both players of a tie, which AREA rates as a
//! tie), each with his AREA ID when known.

use std::fmt::Write;

use super::{PlayerKey, RatedGame, RatedOutcome};

/// The AREA settings, with the published values as defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Area {
    /// A new player's rating: 5000.
    pub initial: i32,
    /// Points for a win between equals: 100.
    pub base: i32,
    /// The share of the rating difference, in percent: 5.
    pub percent: i32,
    /// The least a win moves: 1.
    pub minimum: i32,
    /// The most any game moves: 200.
    pub maximum: i32,
}

impl Default for Area {
    fn default() -> Self {
        Area {
            initial: 5000,
            base: 100,
            percent: 5,
            minimum: 1,
            maximum: 200,
        }
    }
}

impl Area {
    /// `@round(x * percent / 100, 0)`: to the nearest integer, halves away
    /// from zero, in integers.
    fn share(&self, x: i64) -> i64 {
        let n = x * i64::from(self.percent);
        let q = (n.abs() + 50) / 100;
        if n < 0 { -q } else { q }
    }

    /// The points a win moves from the loser to the winner.
    pub fn win_points(&self, winner: i32, loser: i32) -> i32 {
        let p = self.share(i64::from(loser) - i64::from(winner)) + i64::from(self.base);
        clamp(p, self.minimum, self.maximum)
    }

    /// The points a tie moves from the higher rated player to the lower (0
    /// between equals).
    pub fn tie_points(&self, one: i32, other: i32) -> i32 {
        let p = self.share((i64::from(one) - i64::from(other)).abs());
        clamp(p, 0, self.maximum)
    }

    /// Both players' ratings after a game.
    pub fn update(&self, a: i32, b: i32, outcome: RatedOutcome) -> (i32, i32) {
        match outcome {
            RatedOutcome::AWins => {
                let p = self.win_points(a, b);
                (a.saturating_add(p), b.saturating_sub(p))
            }
            RatedOutcome::BWins => {
                let p = self.win_points(b, a);
                (a.saturating_sub(p), b.saturating_add(p))
            }
            RatedOutcome::Draw => {
                let p = self.tie_points(a, b);
                if a >= b {
                    (a.saturating_sub(p), b.saturating_add(p))
                } else {
                    (a.saturating_add(p), b.saturating_sub(p))
                }
            }
        }
    }
}

fn clamp(p: i64, lo: i32, hi: i32) -> i32 {
    let c = p.clamp(i64::from(lo), i64::from(hi.max(lo)));
    i32::try_from(c).unwrap_or(hi)
}

/// A player as the AREA report names him.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportPlayer {
    pub name: String,
    /// His A.R.E.A. identification number, when known.
    pub area_id: Option<String>,
}

impl ReportPlayer {
    fn render(&self) -> String {
        match &self.area_id {
            Some(id) => format!("{} (AREA ID {id})", self.name),
            None => format!("{} (AREA ID not known)", self.name),
        }
    }
}

/// The AREA report of a set of games (a ladder round), as the text of the
/// e-mail to the game's AREA keeper: the title, a heading, then one line per
/// game in rating order (period, time of the result): its date, the winner
/// and the loser, or the two players of a tie, each with his AREA ID when
/// known. `player` names a player.
pub fn report(
    title: &str,
    heading: &str,
    games: &[RatedGame],
    player: impl Fn(PlayerKey) -> ReportPlayer,
) -> String {
    let order = super::order(games);
    let mut out = String::new();
    let _ = writeln!(out, "AREA report: {title}");
    let _ = writeln!(out, "{heading}");
    let _ = writeln!(
        out,
        "{} game{} for rating.",
        order.len(),
        if order.len() == 1 { "" } else { "s" }
    );
    for (n, &i) in order.iter().enumerate() {
        let g = &games[i as usize];
        let date = g.at.format("%Y-%m-%d");
        let (a, b) = (player(g.a).render(), player(g.b).render());
        let _ = match g.outcome {
            RatedOutcome::AWins => writeln!(out, "{}. {date}  Winner: {a}  Loser: {b}", n + 1),
            RatedOutcome::BWins => writeln!(out, "{}. {date}  Winner: {b}  Loser: {a}", n + 1),
            RatedOutcome::Draw => writeln!(out, "{}. {date}  Tie: {a} and {b}", n + 1),
        };
    }
    out
}
