//! RATING OF GAMES (tws-ladder.txt): "All games will be submitted to the
//! AREA rating system at the conclusion of each round." The ladder's results
//! as [`RatedGame`]s for [`crate::ratings::rate`], and the AREA report of a
//! round.
//!
//! Which games are rated (ARB-R46):
//!
//! - "All games": ladder games, eliminator games and quick-round games alike.
//! - A tie is a tie for ratings, although the US player advances on the
//!   ladder (PLAY BALANCE: "though not for AREA rating purposes"; TWS-R11).
//! - Games played, agreed after the deadline and adjudicated are rated as
//!   their outcome: adjudication decides the game (CONDUCT OF GAMES:
//!   "Decisions will be final").
//! - Forfeits are not rated: nobody played, and a rating measures play. The
//!   forfeit still counts for the ladder.
//! - Cancelled games count for nobody, and games not yet decided are not
//!   rated.
//!
//! The rating period of a game (ARB-R46) is the round it counts in: its own
//! round, or the next one when it was carried over (ARB-R21); a quick-round
//! game belongs to the round that was running when it was scheduled (0
//! before the first round). Player `a` is the USSR player, `b` the US player.

use super::{Game, Ladder};
use crate::model::{EndTag, GameStatus, Outcome, Side};
use crate::ratings::area::{self, ReportPlayer};
use crate::ratings::{PlayerKey, RatedGame, RatedOutcome};

/// Whether a game is rated (ARB-R46), and its outcome for ratings.
pub fn rated_outcome(game: &Game) -> Option<RatedOutcome> {
    let result = game.result.as_ref()?;
    match game.status {
        GameStatus::Played | GameStatus::Agreed | GameStatus::Adjudicated => {}
        GameStatus::Forfeited | GameStatus::Cancelled | GameStatus::Scheduled => return None,
    }
    if result.ended_by == EndTag::Forfeit {
        return None;
    }
    Some(match result.outcome {
        Outcome::Win(Side::Ussr) => RatedOutcome::AWins,
        Outcome::Win(Side::Us) => RatedOutcome::BWins,
        // TWS-R11: the US advances on the ladder, but a tie is a tie here.
        Outcome::Tie => RatedOutcome::Draw,
    })
}

/// The rating period of a game: the round it counts in, or for a quick-round
/// game the round running when it was scheduled.
pub fn period(ladder: &Ladder, game: &Game) -> u32 {
    match game.counts_in.or(game.round) {
        Some(r) => r,
        None => {
            let running = ladder
                .rounds
                .partition_point(|r| r.announced_at <= game.scheduled_at);
            ladder
                .rounds
                .get(running.wrapping_sub(1))
                .map_or(0, |r| r.number)
        }
    }
}

/// Every rated game of the ladder, in the order of the games.
pub fn rated_games(ladder: &Ladder) -> Vec<RatedGame> {
    ladder
        .games
        .iter()
        .filter_map(|g| rated_game(ladder, g))
        .collect()
}

/// One game for the ratings, if it is rated.
pub fn rated_game(ladder: &Ladder, game: &Game) -> Option<RatedGame> {
    let outcome = rated_outcome(game)?;
    let at = game.result.as_ref()?.at;
    Some(RatedGame {
        a: game.ussr.player.into(),
        b: game.us.player.into(),
        outcome,
        period: period(ladder, game),
        at,
    })
}

/// The rated games of one rating period (a round and the quick-round games
/// started while it ran): what is submitted to AREA at its conclusion.
pub fn round_games(ladder: &Ladder, round: u32) -> Vec<RatedGame> {
    ladder
        .games
        .iter()
        .filter_map(|g| rated_game(ladder, g))
        .filter(|g| g.period == round)
        .collect()
}

/// The AREA report of a round (RATING OF GAMES), in the form the Twilight
/// Struggle AREA keeper asks for (see [`crate::ratings::area`]). `area_id`
/// gives a player's AREA ID when it is known.
pub fn area_report(
    ladder: &Ladder,
    round: u32,
    area_id: impl Fn(PlayerKey) -> Option<String>,
) -> String {
    let games = round_games(ladder, round);
    let heading = if ladder.name.is_empty() {
        format!("Ladder round {round}")
    } else {
        format!("{}, round {round}", ladder.name)
    };
    area::report("Twilight Struggle", &heading, &games, |k| ReportPlayer {
        name: ladder.name_of(crate::model::PlayerId(k.0)),
        area_id: area_id(k),
    })
}
