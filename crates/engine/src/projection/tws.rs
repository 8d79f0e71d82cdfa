//! The projection of a Twilight Struggle ladder (ARB-R48): the champion and
//! the rung bands after the running round and `k` more.
//!
//! Each simulated season plays the ladder on a copy of its state through the
//! ladder's own `decide` and `apply`:
//!
//! 1. every round game without a result (the running round's, and games
//!    carried over into it, ARB-R21) gets one from the [`WinModel`]: a tie
//!    at the draw rate, otherwise a win of the USSR or the US player by his
//!    expected score (the side itself is not rated: ARB-R48); a result after
//!    the game's deadline is recorded as agreed by the players;
//! 2. the running round is closed (`CloseRound`: CHANGE OF LADDER STANDINGS,
//!    SKIPPING ROUNDS, the champion);
//! 3. `k` more rounds are announced (`AnnounceRound` with the default
//!    pairing plan: adjacent pairs, the odd player against a volunteer
//!    eliminator or a bye, sides by ASSIGNMENT OF SIDES, drawn with a seed
//!    the simulation draws and commits on its copy), played as in 1 and
//!    closed as in 2.
//!
//! Skips: only those already requested are taken (their rounds' re-sorts
//! apply them); nobody else asks to skip, joins, withdraws, forfeits or
//! volunteers. Quick-round games do not move the ladder and are left alone.
//!
//! The bands, after the last simulated close: the champion (rung 1), the top
//! 3 and the top 10 rungs, the upper half of the ladder (rung at most half
//! the ladder's length, rounded up), and whether the player stands higher
//! or lower than he does now. A player no longer on the ladder (inactive
//! after skipping) is in no band.

use chrono::{DateTime, Duration, Utc};

use crate::RuleError;
use crate::draw::{self, Seed};
use crate::model::{EndTag, GameStatus, Outcome, PlayerId, Side, Time};
use crate::tws::{Command, Ladder, PairingPlan, ResultInput};

use super::{GameResult, Projection, SimRng, Tally, WinModel, run_with_progress};

const CLAUSE: &str = "TWS ladder projection";

/// A band of rungs after the simulated rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LadderOutcome {
    /// Rung 1: the champion.
    Champion,
    /// Rungs 1 to 3.
    Top3,
    /// Rungs 1 to 10.
    Top10,
    /// The upper half of the ladder (rung ≤ ⌈length / 2⌉).
    UpperHalf,
    /// A higher rung than now.
    Climbs,
    /// A lower rung than now, or off the ladder.
    Falls,
}

/// Project the ladder: finish the running round (if any) and play `rounds`
/// more, `seasons` times from `seed`, with the odds of `model`. Refused when
/// a simulated command is refused (a ladder not created, a round that
/// cannot close).
pub fn project_ladder(
    ladder: &Ladder,
    rounds: u32,
    model: &WinModel,
    seasons: u32,
    seed: Seed,
) -> Result<Projection<LadderOutcome>, RuleError> {
    project_ladder_with_progress(ladder, rounds, model, seasons, seed, &mut super::go_on)
}

/// [`project_ladder`], reporting the seasons simulated so far to
/// `progress` (see [`super::run_with_progress`]); the same counts.
pub fn project_ladder_with_progress(
    ladder: &Ladder,
    rounds: u32,
    model: &WinModel,
    seasons: u32,
    seed: Seed,
    progress: super::Progress<'_>,
) -> Result<Projection<LadderOutcome>, RuleError> {
    if !ladder.created {
        return Err(RuleError::new(CLAUSE, "the ladder has not been created"));
    }
    let start = latest_time(ladder);
    let before: Vec<PlayerId> = ladder.order.clone();
    let mut failure: Option<RuleError> = None;
    let projection = run_with_progress(
        seasons,
        seed,
        &before,
        |rng, tally| {
            if failure.is_some() {
                return;
            }
            match season(ladder, rounds, start, model, rng) {
                Ok(l) => report(&before, &l, tally),
                Err(e) => failure = Some(e),
            }
        },
        progress,
    );
    match failure {
        Some(e) => Err(e),
        None => Ok(projection),
    }
}

/// The ladder's tie rate so far, parts per million: ties among the ladder
/// and quick-round games played to a result (played or agreed; forfeits,
/// adjudications and cancellations left out); 0 before any game. A
/// [`WinModel`]'s draw rate from history.
pub fn tie_rate(ladder: &Ladder) -> u32 {
    let (mut ties, mut games) = (0u64, 0u64);
    for g in &ladder.games {
        if !matches!(g.status, GameStatus::Played | GameStatus::Agreed) {
            continue;
        }
        if let Some(r) = &g.result {
            games += 1;
            ties += u64::from(r.outcome == Outcome::Tie);
        }
    }
    super::draw_rate(ties, games)
}

/// The latest time the ladder has seen: simulated events come after it.
fn latest_time(l: &Ladder) -> Time {
    let mut t = DateTime::<Utc>::UNIX_EPOCH;
    for r in &l.rounds {
        t = t.max(r.announced_at);
        if let Some(c) = &r.closed {
            t = t.max(c.at);
        }
    }
    for g in &l.games {
        t = t.max(g.scheduled_at);
        if let Some(r) = &g.result {
            t = t.max(r.at);
        }
    }
    t
}

/// Run commands on a simulated ladder.
struct Sim {
    l: Ladder,
    now: Time,
}

impl Sim {
    fn tick(&mut self) -> Time {
        self.now += Duration::minutes(1);
        self.now
    }

    fn exec(&mut self, command: Command) -> Result<(), RuleError> {
        for e in self.l.decide(command)? {
            self.l.apply(&e);
        }
        Ok(())
    }

    /// Results for every round game still to be decided.
    fn play_open_games(&mut self, model: &WinModel, rng: &mut SimRng) -> Result<(), RuleError> {
        let open: Vec<(crate::model::GameId, PlayerId, PlayerId, Option<Time>)> = self
            .l
            .games
            .iter()
            .filter(|g| g.round.is_some() && g.status == GameStatus::Scheduled)
            .map(|g| (g.id, g.ussr.player, g.us.player, g.deadline))
            .collect();
        for (game, ussr, us, deadline) in open {
            let outcome = match model.play(rng, ussr, us) {
                GameResult::FirstWins => Outcome::Win(Side::Ussr),
                GameResult::SecondWins => Outcome::Win(Side::Us),
                GameResult::Draw => Outcome::Tie,
            };
            let at = self.tick();
            self.exec(Command::RecordResult {
                game,
                result: ResultInput {
                    outcome,
                    ended_by: EndTag::FinalScoring,
                    vp: None,
                    turn: None,
                    note: None,
                },
                agreed: deadline.is_some_and(|d| at > d),
                at,
            })?;
        }
        Ok(())
    }
}

fn season(
    ladder: &Ladder,
    rounds: u32,
    start: Time,
    model: &WinModel,
    rng: &mut SimRng,
) -> Result<Ladder, RuleError> {
    let mut sim = Sim {
        l: ladder.clone(),
        now: start,
    };
    if sim.l.open_round().is_some() {
        sim.play_open_games(model, rng)?;
        let at = sim.tick();
        sim.exec(Command::CloseRound { at })?;
    }
    for _ in 0..rounds {
        let seed = rng.seed();
        sim.l.seed_hash = draw::commitment(&seed);
        let at = sim.tick();
        sim.exec(Command::AnnounceRound {
            at,
            deadline: None,
            plan: PairingPlan::Default { eliminator: None },
            seed,
            next_seed_hash: [0; 32],
        })?;
        sim.play_open_games(model, rng)?;
        let at = sim.tick();
        sim.exec(Command::CloseRound { at })?;
    }
    Ok(sim.l)
}

/// Report the bands of a simulated ladder.
fn report(before: &[PlayerId], l: &Ladder, tally: &mut Tally<LadderOutcome>) {
    let n = l.order.len();
    let half = n.div_ceil(2);
    let mut rung_now = vec![0usize; l.players.len() + 1];
    for (i, p) in l.order.iter().enumerate() {
        if let Some(r) = rung_now.get_mut(p.index()) {
            *r = i + 1;
        }
    }
    let champion = l.champion.or_else(|| l.order.first().copied());
    if let Some(c) = champion {
        tally.add(c, LadderOutcome::Champion);
    }
    for (i, &p) in l.order.iter().enumerate() {
        let rung = i + 1;
        if rung <= 3 {
            tally.add(p, LadderOutcome::Top3);
        }
        if rung <= 10 {
            tally.add(p, LadderOutcome::Top10);
        }
        if rung <= half {
            tally.add(p, LadderOutcome::UpperHalf);
        }
    }
    for (i, &p) in before.iter().enumerate() {
        let was = i + 1;
        match rung_now.get(p.index()).copied().unwrap_or(0) {
            0 => tally.add(p, LadderOutcome::Falls),
            now if now < was => tally.add(p, LadderOutcome::Climbs),
            now if now > was => tally.add(p, LadderOutcome::Falls),
            _ => {}
        }
    }
}
