//! The projection of an XMadn league (ARB-R48): each table place, the
//! playoff, the final and the title.
//!
//! Each simulated season plays the league out on a copy of its state,
//! through the league's own `decide` and `apply`, so that every rule applies
//! as it would to the real league: the positions of each double round-robin
//! not yet begun are rolled, Games 1 to 3 are played in order and Games 4 to
//! 6 in their listed order, the final table is ranked by the cascade
//! (overall record, then steps 1 to 6 with the XM-R4 restart), a tie left
//! after step 5 is settled by the league's round of die-roll (step 6, XM-R3,
//! rolled with a seed drawn from the simulation), the playoff rounds are
//! started with the head start of XM-R7 and played until a champion.
//!
//! A simulated game's result: the winner by the [`WinModel`] (an XMadn game
//! is never drawn); the loser's counted pawns uniform from 0 to one less
//! than the winning count (4 in 2T, 8 in 2T+), so that steps 2 to 4 vary;
//! the time drawn uniformly from the times of the league's recorded games
//! (round robin and playoff), or from 20:00 to 60:00 when none is recorded,
//! so that step 5 (full minutes of victorious games) varies. No game or
//! double round-robin is cancelled by consent (XM-R6) in a simulation.
//!
//! Rolls need a seed committed before them: a simulation commits each seed
//! it draws on its copy of the state just before the roll (the real
//! league's commitment is not involved).

use chrono::{DateTime, Utc};

use crate::RuleError;
use crate::draw::{self, Seed};
use crate::model::{PlayerId, Time};
use crate::xmadn::league::{Command, League, PLAYERS, Phase, PlayoffStage};
use crate::xmadn::table::Table;
use crate::xmadn::{Colours, Playoff};

use super::{Projection, SimRng, Tally, WinModel, run_with_progress};

/// What can happen to a player of the league.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum XmadnOutcome {
    /// His place in the final table (1 to 3), the die roll of step 6
    /// included.
    Place(u32),
    /// His place rested on a round of die-roll (step 6) this season.
    DieRoll,
    /// He plays in the playoff (any round).
    Playoff,
    /// He plays in the final round of the playoff (or tops the table when
    /// there is no playoff).
    Final,
    /// Champion.
    Title,
}

fn epoch() -> Time {
    DateTime::<Utc>::UNIX_EPOCH
}

/// Project the league over `seasons` simulated seasons from `seed`.
/// Refused when a simulated command is refused (a league not created).
pub fn project_league(
    league: &League,
    model: &WinModel,
    seasons: u32,
    seed: Seed,
) -> Result<Projection<XmadnOutcome>, RuleError> {
    project_league_with_progress(league, model, seasons, seed, &mut super::go_on)
}

/// [`project_league`], reporting the seasons simulated so far to
/// `progress` (see [`super::run_with_progress`]); the same counts.
pub fn project_league_with_progress(
    league: &League,
    model: &WinModel,
    seasons: u32,
    seed: Seed,
    progress: super::Progress<'_>,
) -> Result<Projection<XmadnOutcome>, RuleError> {
    if !league.created {
        return Err(RuleError::new(
            "XMadn League",
            "the league has not been created",
        ));
    }
    let times: Vec<u32> = league
        .games
        .iter()
        .filter_map(|g| g.score().map(|s| s.seconds))
        .collect();
    let mut failure: Option<RuleError> = None;
    let projection = run_with_progress(
        seasons,
        seed,
        &PLAYERS,
        |rng, tally| {
            if failure.is_none()
                && let Err(e) = season(league, &times, model, rng, tally)
            {
                failure = Some(e);
            }
        },
        progress,
    );
    match failure {
        Some(e) => Err(e),
        None => Ok(projection),
    }
}

/// A simulated game's score, pawns in the order of `players`.
fn score(
    league: &League,
    times: &[u32],
    model: &WinModel,
    rng: &mut SimRng,
    players: [PlayerId; 2],
) -> ([u8; 2], u32) {
    let w = league.rules.rule_set.winning_pawns();
    let loser = u8::try_from(rng.below(u32::from(w))).unwrap_or(0);
    let pawns = if model.decisive(rng, players[0], players[1]) {
        [w, loser]
    } else {
        [loser, w]
    };
    let seconds = if times.is_empty() {
        rng.between(20 * 60, 60 * 60)
    } else {
        let n = u32::try_from(times.len()).unwrap_or(u32::MAX);
        times[rng.below(n) as usize].max(1)
    };
    (pawns, seconds)
}

fn season(
    league: &League,
    times: &[u32],
    model: &WinModel,
    rng: &mut SimRng,
    tally: &mut Tally<XmadnOutcome>,
) -> Result<(), RuleError> {
    let mut l = league.clone();
    let mut rolled = false;
    // A league of 20 double round-robins and first-to-x playoffs ends in
    // a few hundred commands; the bound only guards against a loop.
    for _ in 0..10_000 {
        let command = match l.phase() {
            Phase::AwaitingPositions { .. } => {
                let seed = rng.seed();
                l.seed_hash = draw::commitment(&seed);
                Command::RollPositions {
                    seed,
                    next_seed_hash: [0; 32],
                    at: epoch(),
                }
            }
            Phase::RoundRobin { .. } => {
                let Some(players) = l.playable().first().map(|g| g.players) else {
                    break;
                };
                let (pawns, seconds) = score(&l, times, model, rng, players);
                Command::RecordResult {
                    game: None,
                    players,
                    pawns,
                    seconds,
                    at: epoch(),
                }
            }
            Phase::AwaitingTiebreak { players } => {
                if !rolled {
                    for &p in &players {
                        tally.add(p, XmadnOutcome::DieRoll);
                    }
                    rolled = true;
                }
                let seed = rng.seed();
                l.seed_hash = draw::commitment(&seed);
                Command::RollTiebreak {
                    seed,
                    next_seed_hash: [0; 32],
                    at: epoch(),
                }
            }
            Phase::AwaitingPlayoff { .. } => {
                let board = &l.rules.board_colours;
                Command::StartPlayoff {
                    colours: Colours {
                        vanguard: board.first().cloned().unwrap_or_default(),
                        rearguard: board.get(1).cloned().unwrap_or_default(),
                    },
                    at: epoch(),
                }
            }
            Phase::Playoff { .. } => {
                let Some(round) = l.playoff.last() else { break };
                let players = [round.higher, round.lower];
                let (pawns, seconds) = score(&l, times, model, rng, players);
                Command::RecordPlayoffGame {
                    players,
                    pawns,
                    seconds,
                    at: epoch(),
                }
            }
            Phase::Finished { champion } => {
                finish(&l, champion, tally);
                return Ok(());
            }
        };
        for e in l.decide(command)? {
            l.apply(&e);
        }
    }
    Err(RuleError::new(
        "XMadn League",
        "a simulated league did not finish",
    ))
}

/// Report a finished simulated league.
fn finish(l: &League, champion: PlayerId, tally: &mut Tally<XmadnOutcome>) {
    let table = Table::of(l);
    // The table is final: every tie of step 6 was rolled, so the places
    // are distinct.
    for (i, &p) in table.ranking.order.iter().enumerate() {
        tally.add(p, XmadnOutcome::Place(i as u32 + 1));
    }
    let mut playoff: Vec<PlayerId> = Vec::new();
    for r in &l.playoff {
        for p in [r.higher, r.lower] {
            if !playoff.contains(&p) {
                playoff.push(p);
            }
        }
        if r.stage == PlayoffStage::Final {
            tally.add(r.higher, XmadnOutcome::Final);
            tally.add(r.lower, XmadnOutcome::Final);
        }
    }
    for p in playoff {
        tally.add(p, XmadnOutcome::Playoff);
    }
    if l.rules.playoff == Playoff::None
        && let Some(&first) = table.ranking.order.first()
    {
        tally.add(first, XmadnOutcome::Final);
    }
    tally.add(champion, XmadnOutcome::Title);
}
