//! The projection of a general round-robin league (ARB-R48, ARB-R70): each
//! player's final place.
//!
//! Each simulated season:
//!
//! 1. every game that counts and has no result yet — neither recorded nor
//!    decided by a withdrawal (ARB-R68) — gets one from the [`WinModel`]'s
//!    [`WinModel::odds`] (ARB-R70: the first player's expected score from
//!    the ratings kept, draws at the model's draw rate between equal
//!    players, fewer as the players differ); nobody else forfeits or
//!    withdraws (ARB-R48);
//! 2. in a league whose results are scores (`rules.scores`) the score is
//!    drawn from the fixed tables of [`LOSER_SCORED`], [`MARGIN`] and
//!    [`DRAW_SCORED`], so that the score difference, the goals scored and
//!    their head-to-head forms vary; in a league that lists quickness of
//!    victory the minutes of each simulated game are drawn uniformly from
//!    the minutes of the league's games played with minutes, or from 20 to
//!    60 when none has them;
//! 3. the table is ranked by the league's own cascade — [`Facts::value`]
//!    for every criterion and [`cascade`] for the head-to-head once, the
//!    restart or the block, exactly as [`RoundRobin::table`] ranks it — and
//!    a tie the cascade leaves (every criterion level, or a lot not drawn
//!    yet, or minutes that are missing from a game already played) is
//!    ordered uniformly at random from the season's stream, as a drawing
//!    of lots would. A lot the league has recorded for the tied players
//!    is the league's own criterion and is read as it is.
//!
//! Each player's outcome is his final place, 1-based: one player per place
//! and season, so the title is place 1, a top `k` the places up to `k` and
//! a bottom `k` the last `k`.
//!
//! The simulation does not fold events: the league is cloned once, and each
//! season writes its results into the clone's open games before ranking it.

use crate::RuleError;
use crate::draw::Seed;
use crate::model::PlayerId;
use crate::roundrobin::table::{Facts, cascade};
use crate::roundrobin::{RoundRobin, Score, Seat, Tiebreak};

use super::{GameResult, Odds, PPM, Projection, SimRng, Tally, WinModel, run_with_progress};

const CLAUSE: &str = "Round-robin projection";

/// The ruling of the model.
pub const RULING: &str = "ARB-R70";

/// A final place, 1-based.
pub type Place = usize;

/// The goals (or points of a match) of the loser of a simulated game that
/// has a winner, parts per million (ARB-R70). A model, not a measurement:
/// the rounded shape of association football's results (most losers score
/// none or one).
pub const LOSER_SCORED: [(u32, u32); 4] = [(0, 560_000), (1, 320_000), (2, 95_000), (3, 25_000)];

/// The winner's margin over the loser, parts per million (ARB-R70): most
/// games are won by one.
pub const MARGIN: [(u32, u32); 5] = [
    (1, 560_000),
    (2, 270_000),
    (3, 110_000),
    (4, 45_000),
    (5, 15_000),
];

/// What each side scores in a simulated draw, parts per million (ARB-R70).
pub const DRAW_SCORED: [(u32, u32); 4] = [(0, 320_000), (1, 460_000), (2, 180_000), (3, 40_000)];

/// Minutes of a simulated game when the league has none recorded.
const MINUTES: (u32, u32) = (20, 60);

/// A value from a table of (value, parts per million) whose parts sum to
/// [`PPM`]: one uniform draw.
fn pick(rng: &mut SimRng, table: &[(u32, u32)]) -> u32 {
    let mut u = rng.below(PPM);
    for &(value, ppm) in table {
        if u < ppm {
            return value;
        }
        u -= ppm;
    }
    table.last().map_or(0, |t| t.0)
}

/// The score of a simulated game with this result, home first.
fn score_of(result: GameResult, rng: &mut SimRng) -> Score {
    match result {
        GameResult::Draw => {
            let g = pick(rng, &DRAW_SCORED);
            Score::Goals { home: g, away: g }
        }
        GameResult::FirstWins | GameResult::SecondWins => {
            let loser = pick(rng, &LOSER_SCORED);
            let winner = loser + pick(rng, &MARGIN);
            if result == GameResult::FirstWins {
                Score::Goals {
                    home: winner,
                    away: loser,
                }
            } else {
                Score::Goals {
                    home: loser,
                    away: winner,
                }
            }
        }
    }
}

/// A game to simulate: its index in the schedule and its odds.
#[derive(Debug, Clone, Copy)]
struct Open {
    index: usize,
    odds: Odds,
}

/// Everything a simulated season reads, prepared once.
#[derive(Debug)]
struct Setup {
    open: Vec<Open>,
    players: Vec<PlayerId>,
    scores: bool,
    /// When the rules list quickness: the minutes to draw from (empty:
    /// [`MINUTES`]).
    minutes: Option<Vec<u32>>,
}

impl Setup {
    fn new(league: &RoundRobin, model: &WinModel) -> Result<Setup, RuleError> {
        if !league.created {
            return Err(RuleError::new(CLAUSE, "there is no round-robin league"));
        }
        if league.started.is_none() {
            return Err(RuleError::new(
                CLAUSE,
                "the league has not started: there is no schedule to play out",
            ));
        }
        let open = league
            .games
            .iter()
            .enumerate()
            .filter(|(_, g)| {
                league.counts(g.home) && league.counts(g.away) && league.counted_score(g).is_none()
            })
            .map(|(index, g)| Open {
                index,
                odds: model.odds(g.home, g.away),
            })
            .collect();
        let minutes = league
            .rules
            .tiebreaks
            .contains(&Tiebreak::Quickness)
            .then(|| {
                league
                    .games
                    .iter()
                    .filter(|g| g.score.is_some_and(Score::is_played))
                    .filter_map(|g| g.minutes)
                    .collect()
            });
        Ok(Setup {
            open,
            players: league.in_table(),
            scores: league.rules.scores,
            minutes,
        })
    }

    /// Write one simulated result into every open game of `work`.
    fn play(&self, work: &mut RoundRobin, rng: &mut SimRng) {
        for o in &self.open {
            let result = o.odds.play(rng);
            let score = if self.scores {
                score_of(result, rng)
            } else {
                match result {
                    GameResult::FirstWins => Score::Won(Seat::Home),
                    GameResult::SecondWins => Score::Won(Seat::Away),
                    GameResult::Draw => Score::Drawn,
                }
            };
            let minutes = self.minutes.as_ref().map(|pool| {
                if pool.is_empty() {
                    rng.between(MINUTES.0, MINUTES.1)
                } else {
                    let n = u32::try_from(pool.len()).unwrap_or(u32::MAX);
                    pool[rng.below(n) as usize]
                }
            });
            if let Some(g) = work.games.get_mut(o.index) {
                g.score = Some(score);
                g.minutes = minutes;
            }
        }
    }
}

/// The final order of a league whose games are all decided: its own
/// cascade, then a uniform order within each tie it leaves.
fn final_order(work: &RoundRobin, rng: &mut SimRng) -> Vec<PlayerId> {
    let facts = Facts::new(work);
    let (cascade, _) = cascade(&facts);
    let ranking = cascade.rank(&facts.players);
    let mut order = ranking.order;
    let places = ranking.places;
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && places[end] == places[start] {
            end += 1;
        }
        if end - start > 1 {
            rng.shuffle(&mut order[start..end]);
        }
        start = end;
    }
    order
}

/// Project the league over `seasons` simulated seasons from `seed` with the
/// odds of `model` (ARB-R70): each player's final place. Refused when the
/// league has not started.
pub fn project_round_robin(
    league: &RoundRobin,
    model: &WinModel,
    seasons: u32,
    seed: Seed,
) -> Result<Projection<Place>, RuleError> {
    project_round_robin_with_progress(league, model, seasons, seed, &mut super::go_on)
}

/// [`project_round_robin`], reporting the seasons simulated so far to
/// `progress` (see [`super::run_with_progress`]): a callback that answers
/// `Break` stops it, and the projection counts the seasons done.
pub fn project_round_robin_with_progress(
    league: &RoundRobin,
    model: &WinModel,
    seasons: u32,
    seed: Seed,
    progress: super::Progress<'_>,
) -> Result<Projection<Place>, RuleError> {
    let setup = Setup::new(league, model)?;
    let mut work = league.clone();
    Ok(run_with_progress(
        seasons,
        seed,
        &setup.players,
        |rng, tally: &mut Tally<Place>| {
            setup.play(&mut work, rng);
            for (i, p) in final_order(&work, rng).into_iter().enumerate() {
                tally.add(p, i + 1);
            }
        },
        progress,
    ))
}

/// The league's draw rate so far, parts per million: draws among the games
/// played over the board (forfeits left out; ARB-R48), 0 before any. Read
/// by the model as the rate between equal players (ARB-R70).
pub fn draw_rate(league: &RoundRobin) -> u32 {
    let (mut draws, mut games) = (0u64, 0u64);
    for s in league.games.iter().filter_map(|g| g.score) {
        match s {
            Score::Forfeit { .. } => {}
            Score::Drawn => {
                draws += 1;
                games += 1;
            }
            Score::Goals { home, away } => {
                draws += u64::from(home == away);
                games += 1;
            }
            Score::Won(_) => games += 1,
        }
    }
    super::draw_rate(draws, games)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn the_tables_are_distributions() {
        for t in [&LOSER_SCORED[..], &MARGIN[..], &DRAW_SCORED[..]] {
            assert_eq!(t.iter().map(|x| x.1).sum::<u32>(), PPM);
        }
        assert!(MARGIN.iter().all(|m| m.0 >= 1), "a winner scores more");
    }

    #[test]
    fn a_simulated_score_agrees_with_its_result() {
        let mut rng = SimRng::season(&[3; 32], 0);
        for _ in 0..2000 {
            match score_of(GameResult::FirstWins, &mut rng) {
                Score::Goals { home, away } => assert!(home > away && home <= 8),
                s => panic!("{s:?}"),
            }
            match score_of(GameResult::SecondWins, &mut rng) {
                Score::Goals { home, away } => assert!(home < away),
                s => panic!("{s:?}"),
            }
            match score_of(GameResult::Draw, &mut rng) {
                Score::Goals { home, away } => assert!(home == away && home <= 3),
                s => panic!("{s:?}"),
            }
        }
    }

    /// `pick` follows the table: over 100,000 draws each value comes out
    /// within half a percent of its share.
    #[test]
    fn pick_follows_its_table() {
        let mut rng = SimRng::season(&[4; 32], 0);
        let mut seen = [0u32; 6];
        for _ in 0..100_000 {
            seen[pick(&mut rng, &MARGIN) as usize] += 1;
        }
        for (value, ppm) in MARGIN {
            let share = seen[value as usize] * 10;
            assert!(share.abs_diff(ppm) < 5_000, "{value}: {share} v {ppm}");
        }
        assert_eq!(seen[0], 0);
    }
}
