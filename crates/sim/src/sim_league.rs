//! The deterministic simulation of an XMadn league run through the service.
//!
//! The same harness as [`crate::sim`] (the TWS ladder), [`crate::harness`]:
//! from a `u64` seed (ChaCha8), simulated moderators send requests to
//! several [`Service`](arbiter_service::Service) instances over one
//! [`MemoryStore`](crate::MemoryStore) wrapped in a
//! [`FaultyStore`](crate::FaultyStore) with the
//! same fault model (crashes before and after commit, persistent faults,
//! concurrent requests, stale caches, duplicated and reordered requests,
//! keys reused for another request, requests pinned to a version that is
//! gone). The commands are the league's: rolls of the positions and of the
//! tiebreak (through `league_roll`, with committed seeds), results (by
//! game, or "their next game"), corrections, cancellations of games and of
//! double round-robins, playoff rounds and their games, undo, and nonsense.
//!
//! After every delivery the log is read back and checked; after every step
//! everything is: sequences without gaps, acknowledged commands' events in
//! the log, each key's events stored once, every service's cached league
//! equal to the fold of the log (a fresh service's too), the league's own
//! invariants (schedule, table records summing to the games played, each
//! player's games, playoff wins, the rolls against their commitments), and
//! each answer equal to the engine's `decide` on the fold.

use std::collections::BTreeSet;

use arbiter_engine::model::{GameId, PlayerId, Time};
use arbiter_engine::xmadn::league::{
    self, Command, Drr, Event, League, LeagueGame, PLAYERS, Phase, Stage,
};
use arbiter_engine::xmadn::table::Table;
use arbiter_engine::xmadn::{Colours, LeagueRules, Playoff, Series};
use arbiter_service::ServiceError;
use arbiter_store::Seq;
use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;

use crate::harness::{self, Done, Draws, Oracle, Sim, Svc, with_counts};
use crate::seeds::Named;

pub use crate::harness::{Config, Failure, current_step};

/// The competition the simulation runs.
pub const COMPETITION: &str = "sim-league";
const PLAYER_NAMES: [&str; 3] = ["Anke Vogel", "Bruno Keller", "Carla Weiss"];

/// What runs did, summed over seeds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    pub seeds: u64,
    pub steps: u64,
    /// Requests delivered to a service (retries and duplicates included).
    pub deliveries: u64,
    /// Answered with new events.
    pub acknowledged: u64,
    /// Answered with the first outcome of their key.
    pub replayed: u64,
    /// Refused by the rules or by a check of the service (nothing stored).
    pub refused: u64,
    /// Refused because another writer got in first (pinned version).
    pub conflicts: u64,
    /// Refused because the key was used for another request.
    pub keys_reused: u64,
    /// Faults injected.
    pub faults: u64,
    /// Faults the service got over without failing the request.
    pub faults_absorbed: u64,
    /// Appends that landed before a crash that the client saw.
    pub landed_after_commit: u64,
    /// Requests retried with their key after a failure.
    pub retries: u64,
    /// Groups of requests run concurrently.
    pub concurrent_groups: u64,
    /// Stored events at the end of the runs.
    pub events: u64,
    /// Rolls (positions and tiebreaks) in force at the end of the runs.
    pub rolls: u64,
    /// Step-6 tiebreak rolls among them.
    pub tiebreak_rolls: u64,
    /// Round-robin games played at the end of the runs.
    pub games_played: u64,
    /// Games and double round-robins cancelled by consent.
    pub cancelled: u64,
    /// Playoff rounds started.
    pub playoff_rounds: u64,
    /// Leagues finished (a champion) at the end of the runs.
    pub finished: u64,
    /// Rolls refused by the rules where a replay (their key was stored) or
    /// a conflict (pinned to a version that is gone) was due: `league_roll`
    /// decides before the key and version checks.
    pub rolls_checked_late: u64,
    /// FNV-1a of every run's final log, summed.
    pub log_hash: u64,
}

impl Stats {
    pub fn add(&mut self, o: &Stats) {
        self.seeds += o.seeds;
        self.steps += o.steps;
        self.deliveries += o.deliveries;
        self.acknowledged += o.acknowledged;
        self.replayed += o.replayed;
        self.refused += o.refused;
        self.conflicts += o.conflicts;
        self.keys_reused += o.keys_reused;
        self.faults += o.faults;
        self.faults_absorbed += o.faults_absorbed;
        self.landed_after_commit += o.landed_after_commit;
        self.retries += o.retries;
        self.concurrent_groups += o.concurrent_groups;
        self.events += o.events;
        self.rolls += o.rolls;
        self.tiebreak_rolls += o.tiebreak_rolls;
        self.games_played += o.games_played;
        self.cancelled += o.cancelled;
        self.playoff_rounds += o.playoff_rounds;
        self.finished += o.finished;
        self.rolls_checked_late += o.rolls_checked_late;
        self.log_hash = self.log_hash.wrapping_add(o.log_hash);
    }
}

/// The default configuration of the league simulation: a league is short
/// (at most 3 double round-robins of 6 games and a playoff), so fewer
/// steps than the ladder's.
pub fn default_config() -> Config {
    Config {
        steps: 40,
        services: 3,
        fresh_every: 8,
    }
}

/// Run the league simulation of `seed` on a fresh current-thread runtime.
/// A roll refused by the rules where a replay or a conflict was due is a
/// failure: `league_roll` looks at the key and the pinned version before it
/// decides (it did not, until the simulation found it: seeds 4, 23, 136).
pub fn run_seed(seed: u64, config: Config) -> Result<Stats, Failure> {
    run_seed_with(seed, config, true)
}

/// [`run_seed`]; with `strict_rolls` false, such a roll is tolerated and
/// counted (`Stats::rolls_checked_late`), as it was for a service that
/// decided a roll before looking at its key.
pub fn run_seed_with(seed: u64, config: Config, strict_rolls: bool) -> Result<Stats, Failure> {
    let runtime = harness::runtime(XMadn::NAMED, seed)?;
    let world = World::new(seed, config, |rng| XMadn::draw(rng, strict_rolls));
    runtime.block_on(world.run())
}

type Request = harness::Request<What>;
type World = harness::World<XMadn>;

#[derive(Debug, Clone)]
enum What {
    Create,
    Exec(Command),
    /// `league_roll`: the positions or the tiebreak, the service drawing
    /// the seeds.
    Roll,
    Undo,
}

/// What the league's simulation adds to the harness.
struct XMadn {
    rules: LeagueRules,
    /// Every game won 4-0 (8-0) in 10:00: ties through step 5, which only
    /// a round of die-roll breaks (step 6).
    uniform: bool,
    strict_rolls: bool,
}

impl XMadn {
    /// The organizer's rules, from the seed (its first draws).
    fn draw(rng: &mut ChaCha8Rng, strict_rolls: bool) -> Self {
        let mut rules = LeagueRules {
            double_round_robins: 1 + (rng.next_u64() % 3) as u32,
            head_start: rng.next_u64().is_multiple_of(2),
            ..LeagueRules::default()
        };
        rules.playoff = match rng.next_u64() % 4 {
            0 => Playoff::None,
            1 => Playoff::TopTwo {
                final_round: random_series(rng.next_u64()),
            },
            _ => Playoff::AllThree {
                qualifying: random_series(rng.next_u64()),
                final_round: random_series(rng.next_u64()),
            },
        };
        let uniform = rng.next_u64().is_multiple_of(3);
        Self {
            rules,
            uniform,
            strict_rolls,
        }
    }
}

impl Sim for XMadn {
    type Format = League;
    type What = What;
    type Stats = Stats;
    const COMPETITION: &'static str = COMPETITION;
    const NOUN: &'static str = "league";
    const NAMED: Named = Named {
        name: "league simulation",
        test: "simulation_league",
    };
    const CREATE: What = What::Create;
    const SKIPS_DAYS: bool = false;

    async fn deliver(
        &self,
        svc: &Svc,
        request: &Request,
        at: Time,
    ) -> Result<Done<Self>, ServiceError> {
        let ctx = request.context(at);
        match &request.what {
            What::Create => {
                let players: Vec<String> = PLAYER_NAMES.iter().map(|m| (*m).to_owned()).collect();
                svc.create_league(
                    COMPETITION,
                    "Simulated league",
                    self.rules.clone(),
                    &players,
                    &ctx,
                )
                .await
            }
            What::Exec(command) => {
                svc.execute_as::<League>(COMPETITION, command.clone(), &ctx)
                    .await
            }
            What::Roll => svc.league_roll(COMPETITION, &ctx).await,
            What::Undo => svc
                .undo_as::<League>(COMPETITION, &ctx)
                .await
                .map(|(e, _)| e),
        }
    }

    /// A roll's seeds are the service's: its command is decided again on
    /// the fold, with the seeds it revealed and committed.
    fn oracle(
        &self,
        truth: &League,
        what: &What,
        result: &Result<Done<Self>, ServiceError>,
        at: Time,
    ) -> Option<Oracle<Self>> {
        match (what, result) {
            (What::Exec(command), _) => Some(truth.decide(command.clone())),
            (What::Roll, Ok(done)) => {
                roll_command(done.events.first(), at).map(|command| truth.decide(command))
            }
            (What::Roll, Err(ServiceError::Rule(_))) if !rolling(truth) => {
                Some(truth.decide(Command::RollPositions {
                    seed: [0; 32],
                    next_seed_hash: [0; 32],
                    at,
                }))
            }
            _ => None,
        }
    }

    fn is_undo(what: &What) -> bool {
        matches!(what, What::Undo)
    }

    fn checked_late(&self, what: &What) -> bool {
        matches!(what, What::Roll) && !self.strict_rolls
    }

    fn fold(decoded: &[(Seq, Event)]) -> League {
        fold_log(decoded)
    }

    fn check(truth: &League) -> Result<(), String> {
        check_league(truth)
    }

    fn diff(got: &League, want: &League) -> String {
        league_diff(got, want)
    }

    fn created(truth: &League) -> bool {
        truth.created
    }

    /// A command is the same as the key's when their fingerprints are
    /// (what the service compares); the other requests name no command.
    fn same_request(what: &What, first: Option<&What>) -> bool {
        match (what, first) {
            (What::Exec(a), Some(What::Exec(b))) => {
                arbiter_service::request_fingerprint::<League>(a)
                    == arbiter_service::request_fingerprint::<League>(b)
            }
            // A roll decides before it looks at its key (see the report of
            // `league_roll`): not sent reused.
            (What::Roll, _) => true,
            (What::Undo, Some(What::Undo)) => true,
            _ => false,
        }
    }

    fn intention_commands(world: &mut World) -> Vec<Request> {
        world.intention_commands()
    }

    fn stats(world: &World) -> Stats {
        let truth = &world.truth;
        with_counts!(
            Stats {
                rolls: truth.rolls.len() as u64,
                tiebreak_rolls: truth
                    .rolls
                    .iter()
                    .filter(|r| matches!(r.purpose, league::RollPurpose::Tiebreak))
                    .count() as u64,
                games_played: truth
                    .round_robin_games()
                    .filter(|g| g.score().is_some())
                    .count() as u64,
                cancelled: truth
                    .games
                    .iter()
                    .filter(|g| matches!(g.status, league::GameStatus::Cancelled { .. }))
                    .count() as u64
                    + truth
                        .drrs
                        .iter()
                        .filter(|d| matches!(d, Drr::Cancelled { .. }))
                        .count() as u64,
                playoff_rounds: truth.playoff.len() as u64,
                finished: u64::from(truth.champion().is_some()),
                rolls_checked_late: world.counts.rolls_checked_late,
            },
            &world.counts,
            &world.log
        )
    }
}

/// The fold of a decoded log as the service folds it: events reverted by a
/// later `reverted` event are skipped.
fn fold_log(decoded: &[(Seq, Event)]) -> League {
    let reverted: BTreeSet<Seq> = decoded
        .iter()
        .filter_map(|(_, e)| match e {
            Event::Reverted { seq, .. } => Some(*seq),
            _ => None,
        })
        .collect();
    League::fold(
        decoded
            .iter()
            .filter(|(s, _)| !reverted.contains(s))
            .map(|(_, e)| e),
    )
}

/// The first field where two leagues differ, for a readable failure.
fn league_diff(got: &League, want: &League) -> String {
    macro_rules! field {
        ($f:ident) => {
            if got.$f != want.$f {
                return format!(
                    "{} differs: {:?} instead of {:?}",
                    stringify!($f),
                    got.$f,
                    want.$f
                );
            }
        };
    }
    field!(created);
    field!(name);
    field!(rules);
    field!(players);
    field!(seed_hash);
    field!(drrs);
    field!(games);
    field!(rolls);
    field!(playoff);
    let (a, b) = (Table::of(got), Table::of(want));
    if a != b {
        return format!("the table differs: {a:?} instead of {b:?}");
    }
    "the leagues differ in no field".to_owned()
}

/// The league's own invariants.
fn check_league(l: &League) -> Result<(), String> {
    if !l.created {
        return Ok(());
    }
    if l.players.len() != 3 {
        return Err(format!("{} players", l.players.len()));
    }
    if l.drrs.len() as u32 > l.rules.double_round_robins {
        return Err(format!(
            "{} double round-robins of {}",
            l.drrs.len(),
            l.rules.double_round_robins
        ));
    }
    for (i, g) in l.games.iter().enumerate() {
        if g.id.0 as usize != i + 1 {
            return Err(format!("game {} is at index {i}", g.id.0));
        }
        if g.players[0] == g.players[1] || !g.players.iter().all(|p| PLAYERS.contains(p)) {
            return Err(format!("game {} is between {:?}", g.id.0, g.players));
        }
        if let Some(s) = g.score()
            && s.check(l.rules.rule_set).is_err()
        {
            return Err(format!("game {} has the invalid score {s:?}", g.id.0));
        }
    }
    // The schedule of every double round-robin, exactly as the document.
    let mut scheduled_games = BTreeSet::new();
    let mut positions_rolled = 0;
    for (i, d) in l.drrs.iter().enumerate() {
        let drr = i as u32 + 1;
        let Drr::Scheduled { positions, games } = d else {
            continue;
        };
        positions_rolled += 1;
        let pairs = league::schedule(*positions);
        for (k, (id, pair)) in games.iter().zip(pairs).enumerate() {
            let Some(g) = l.game(*id) else {
                return Err(format!("DRR {drr} lists unknown game {}", id.0));
            };
            if !scheduled_games.insert(id.0) {
                return Err(format!("game {} is in two DRRs", id.0));
            }
            let stage = Stage::RoundRobin {
                drr,
                number: k as u8 + 1,
            };
            if g.stage != stage || g.players != pair {
                return Err(format!(
                    "DRR {drr} game {} is {:?} {:?}, the schedule says {stage:?} {pair:?}",
                    k + 1,
                    g.stage,
                    g.players
                ));
            }
        }
    }
    let rr: Vec<&LeagueGame> = l.round_robin_games().collect();
    if rr.len() != scheduled_games.len() {
        return Err(format!(
            "{} round-robin games, {} in the schedules",
            rr.len(),
            scheduled_games.len()
        ));
    }
    // The table: records sum to the games played; each player's games.
    let played: Vec<&LeagueGame> = rr.iter().copied().filter(|g| g.score().is_some()).collect();
    let table = Table::of(l);
    if table.rows.len() != 3 {
        return Err(format!("the table has {} rows", table.rows.len()));
    }
    let mut seen = BTreeSet::new();
    let (mut wins, mut losses, mut pf, mut pa, mut games) = (0u32, 0u32, 0u32, 0u32, 0u32);
    for row in &table.rows {
        if !seen.insert(row.player.0) || !PLAYERS.contains(&row.player) {
            return Err(format!("the table lists {:?} wrongly", row.player));
        }
        let mine: Vec<&&LeagueGame> = played.iter().filter(|g| g.has(row.player)).collect();
        let won = mine
            .iter()
            .filter(|g| g.winner() == Some(row.player))
            .count() as u32;
        let pawns_for: u32 = mine
            .iter()
            .filter_map(|g| g.pawns_of(row.player))
            .map(u32::from)
            .sum();
        if row.played != mine.len() as u32
            || row.wins != won
            || row.wins + row.losses != row.played
            || row.pawns_for != pawns_for
        {
            return Err(format!(
                "row {row:?} of the table, but the player played {} games, won {won}, scored {pawns_for} pawns",
                mine.len()
            ));
        }
        wins += row.wins;
        losses += row.losses;
        pf += row.pawns_for;
        pa += row.pawns_against;
        games += row.played;
    }
    let n = played.len() as u32;
    if wins != n || losses != n || games != 2 * n || pf != pa {
        return Err(format!(
            "the table's records do not sum to the {n} games played: {wins} wins, {losses} losses, {games} games, pawns {pf} for and {pa} against"
        ));
    }
    if table.provisional == l.round_robins_concluded() {
        return Err(format!(
            "the table is provisional: {} with the round-robins concluded: {}",
            table.provisional,
            l.round_robins_concluded()
        ));
    }
    // Rolls: positions once per scheduled DRR, every one against its
    // commitment and faces.
    let position_rolls = l
        .rolls
        .iter()
        .filter(|r| matches!(r.purpose, league::RollPurpose::Positions { .. }))
        .count();
    if position_rolls != positions_rolled {
        return Err(format!(
            "{position_rolls} rolls of positions for {positions_rolled} scheduled DRRs"
        ));
    }
    for check in l.verify_rolls() {
        if !check.commitment_ok || !check.faces_ok {
            return Err(format!("roll {check:?} does not verify"));
        }
    }
    // The playoff.
    let playoff_games: Vec<&LeagueGame> = l
        .games
        .iter()
        .filter(|g| matches!(g.stage, Stage::Playoff { .. }))
        .collect();
    let mut listed = 0;
    for (i, r) in l.playoff.iter().enumerate() {
        if r.winner().is_none() && i + 1 != l.playoff.len() {
            return Err(format!("playoff round {i} undecided but not the last"));
        }
        if !l.round_robins_concluded() {
            return Err("a playoff before the round-robins concluded".into());
        }
        let need = r.series.wins_needed();
        let wins = r.wins[0] + r.wins[1];
        if r.wins[0] > need || r.wins[1] > need || (r.wins[0] == need && r.wins[1] == need) {
            return Err(format!("playoff round {r:?} has impossible wins"));
        }
        if wins != r.games.len() as u32 + u32::from(r.head_start) {
            return Err(format!(
                "playoff round {:?}: {wins} wins from {} games and head start {}",
                r.stage,
                r.games.len(),
                r.head_start
            ));
        }
        let mut counted = [u32::from(r.head_start), 0];
        for id in &r.games {
            listed += 1;
            let Some(g) = l.game(*id) else {
                return Err(format!("playoff lists unknown game {}", id.0));
            };
            if !matches!(g.stage, Stage::Playoff { round, .. } if round == r.stage)
                || !g.has(r.higher)
                || !g.has(r.lower)
            {
                return Err(format!("playoff round {:?} lists game {g:?}", r.stage));
            }
            match g.winner() {
                Some(w) if w == r.higher => counted[0] += 1,
                Some(w) if w == r.lower => counted[1] += 1,
                _ => return Err(format!("playoff game {g:?} has no winner")),
            }
        }
        if counted != r.wins {
            return Err(format!(
                "playoff round {:?} counts {:?} wins, its games give {counted:?}",
                r.stage, r.wins
            ));
        }
    }
    if listed != playoff_games.len() {
        return Err(format!(
            "{} playoff games, {listed} in playoff rounds",
            playoff_games.len()
        ));
    }
    // The phase and the playable games agree.
    let playable = l.playable();
    match l.phase() {
        Phase::RoundRobin { drr } if playable.is_empty() => {
            return Err(format!("DRR {drr} is running with no playable game"));
        }
        Phase::Finished { champion } if !PLAYERS.contains(&champion) => {
            return Err(format!("the champion is {champion:?}"));
        }
        _ => {}
    }
    if playable.iter().any(|g| g.is_resolved()) {
        return Err("a resolved game is playable".into());
    }
    Ok(())
}

/// The wins needed in a playoff series, for the simulation's choices.
fn random_series(n: u64) -> Series {
    match n % 3 {
        0 => Series::Game,
        1 => Series::FirstTo(2),
        _ => Series::FirstTo(3),
    }
}

impl World {
    /// Valid pawns for a game won by the player at `winner`.
    fn pawns(&mut self, winner: usize) -> [u8; 2] {
        let w = self.truth.rules.rule_set.winning_pawns();
        let loser = if self.sim.uniform {
            0
        } else {
            self.below(u64::from(w)) as u8
        };
        let mut pawns = [loser, loser];
        pawns[winner.min(1)] = w;
        pawns
    }

    fn seconds(&mut self) -> u32 {
        if self.sim.uniform {
            return 600;
        }
        60 + self.below(2400) as u32
    }

    /// What a client wants next, from the league as it is: one request, or
    /// two (a result and a correction of it) which a shuffle may reorder.
    fn intention_commands(&mut self) -> Vec<Request> {
        let now = self.now;
        let l = &self.truth;
        let phase = l.phase();
        let playable: Vec<(GameId, [PlayerId; 2])> =
            l.playable().iter().map(|g| (g.id, g.players)).collect();
        let unresolved: Vec<GameId> = l
            .round_robin_games()
            .filter(|g| !g.is_resolved())
            .map(|g| g.id)
            .collect();
        let played: Vec<(GameId, [PlayerId; 2])> = l
            .round_robin_games()
            .filter(|g| g.score().is_some())
            .map(|g| (g.id, g.players))
            .collect();
        let running = l
            .playoff
            .last()
            .filter(|r| r.winner().is_none())
            .map(|r| [r.higher, r.lower]);
        let next_drr = l.drrs.len() as u32 + 1;
        let board = l.rules.board_colours.clone();
        let games = l.games.len() as u32;
        let rolling = matches!(
            phase,
            Phase::AwaitingPositions { .. } | Phase::AwaitingTiebreak { .. }
        );
        let awaiting_playoff = matches!(phase, Phase::AwaitingPlayoff { .. });

        let m = self.moderator();
        let exec = |m: String, command: Command| Request {
            key: None,
            actor: m,
            what: What::Exec(command),
            expected: None,
        };
        let mut weights: Vec<(u32, u32)> = vec![
            (0, if rolling { 30 } else { 1 }),
            (1, if playable.is_empty() { 0 } else { 40 }),
            (2, if played.is_empty() { 0 } else { 3 }),
            (3, if unresolved.is_empty() { 0 } else { 3 }),
            (4, 2),
            (5, if awaiting_playoff { 30 } else { 1 }),
            (6, if running.is_some() { 40 } else { 1 }),
            (7, 3),
            (8, 2),
            (9, if playable.is_empty() { 0 } else { 4 }),
        ];
        weights.retain(|(_, w)| *w > 0);
        let total: u32 = weights.iter().map(|(_, w)| w).sum();
        let mut roll = self.below(u64::from(total)) as u32;
        let mut choice = 0;
        for (c, w) in &weights {
            if roll < *w {
                choice = *c;
                break;
            }
            roll -= w;
        }
        match choice {
            // A round of die-roll: positions or the tiebreak.
            0 => vec![Request {
                key: None,
                actor: m,
                what: What::Roll,
                expected: None,
            }],
            // A result of a playable game, named or "their next game", the
            // players in either order; now and then corrected at once.
            1 => {
                let (id, players) = self
                    .pick(&playable)
                    .unwrap_or((GameId(1), [PlayerId(1), PlayerId(2)]));
                let winner = self.below(2) as usize;
                let mut pawns = self.pawns(winner);
                let mut players = players;
                if self.chance(30) {
                    players.swap(0, 1);
                    pawns.swap(0, 1);
                }
                let seconds = self.seconds();
                let game = if self.chance(60) { Some(id) } else { None };
                let mut out = vec![exec(
                    m.clone(),
                    Command::RecordResult {
                        game,
                        players,
                        pawns,
                        seconds,
                        at: now,
                    },
                )];
                if self.chance(10) {
                    let pawns = self.pawns(1 - winner);
                    out.push(exec(
                        m,
                        Command::CorrectResult {
                            game: id,
                            players,
                            pawns,
                            seconds,
                            reason: "the players reported it wrong".into(),
                            at: now,
                        },
                    ));
                }
                out
            }
            // A correction of a played game.
            2 => {
                let (id, players) = self
                    .pick(&played)
                    .unwrap_or((GameId(1), [PlayerId(1), PlayerId(2)]));
                let winner = self.below(2) as usize;
                let pawns = self.pawns(winner);
                let seconds = self.seconds();
                let reason = if self.chance(90) { "a typo" } else { "" };
                vec![exec(
                    m,
                    Command::CorrectResult {
                        game: id,
                        players,
                        pawns,
                        seconds,
                        reason: reason.into(),
                        at: now,
                    },
                )]
            }
            // A game cancelled by consent (refused until determined).
            3 => {
                let id = self.pick(&unresolved).unwrap_or(GameId(1));
                vec![exec(
                    m,
                    Command::CancelGame {
                        game: id,
                        note: "both agreed".into(),
                        at: now,
                    },
                )]
            }
            // A double round-robin cancelled before it began.
            4 => {
                let drr = if self.chance(80) {
                    next_drr
                } else {
                    self.below(4) as u32
                };
                vec![exec(
                    m,
                    Command::CancelDrr {
                        drr,
                        note: "the outcomes are determined".into(),
                        at: now,
                    },
                )]
            }
            // The next playoff round, the higher seed choosing colours.
            5 => {
                let a = self.pick(&board).unwrap_or_default();
                let b = if self.chance(90) {
                    let rest: Vec<String> = board.iter().filter(|c| **c != a).cloned().collect();
                    self.pick(&rest).unwrap_or_default()
                } else {
                    a.clone()
                };
                vec![exec(
                    m,
                    Command::StartPlayoff {
                        colours: Colours {
                            vanguard: a,
                            rearguard: b,
                        },
                        at: now,
                    },
                )]
            }
            // A playoff game.
            6 => {
                let mut players = running.unwrap_or([PlayerId(1), PlayerId(2)]);
                if self.chance(20) {
                    players.swap(0, 1);
                }
                let winner = self.below(2) as usize;
                let pawns = self.pawns(winner);
                let seconds = self.seconds();
                vec![exec(
                    m,
                    Command::RecordPlayoffGame {
                        players,
                        pawns,
                        seconds,
                        at: now,
                    },
                )]
            }
            // A moderator undoes the last event.
            7 => vec![Request {
                key: None,
                actor: m,
                what: What::Undo,
                expected: None,
            }],
            // Nonsense: unknown games and players, impossible scores.
            8 => {
                let command = match self.below(4) {
                    0 => Command::RecordResult {
                        game: Some(GameId(games + 1 + self.below(3) as u32)),
                        players: [PlayerId(1), PlayerId(2)],
                        pawns: [4, 0],
                        seconds: 600,
                        at: now,
                    },
                    1 => Command::RecordResult {
                        game: None,
                        players: [PlayerId(1), PlayerId(4)],
                        pawns: [4, 0],
                        seconds: 600,
                        at: now,
                    },
                    2 => Command::CancelGame {
                        game: GameId(games + 1),
                        note: "gone".into(),
                        at: now,
                    },
                    _ => Command::RecordPlayoffGame {
                        players: [PlayerId(2), PlayerId(2)],
                        pawns: [4, 1],
                        seconds: 600,
                        at: now,
                    },
                };
                vec![exec(m, command)]
            }
            // A result with a bad score or time.
            _ => {
                let (id, players) = self
                    .pick(&playable)
                    .unwrap_or((GameId(1), [PlayerId(1), PlayerId(2)]));
                let (pawns, seconds) = match self.below(3) {
                    0 => ([4, 4], 600),
                    1 => ([3, 2], 600),
                    _ => ([4, 1], 0),
                };
                vec![exec(
                    m,
                    Command::RecordResult {
                        game: Some(id),
                        players,
                        pawns,
                        seconds,
                        at: now,
                    },
                )]
            }
        }
    }
}

/// Whether the league awaits a round of die-roll.
fn rolling(l: &League) -> bool {
    matches!(
        l.phase(),
        Phase::AwaitingPositions { .. } | Phase::AwaitingTiebreak { .. }
    )
}

/// The command a roll's first event answers (its seeds and time).
fn roll_command(event: Option<&Event>, at: Time) -> Option<Command> {
    match event? {
        Event::PositionsRolled {
            seed,
            next_seed_hash,
            ..
        } => Some(Command::RollPositions {
            seed: *seed,
            next_seed_hash: *next_seed_hash,
            at,
        }),
        Event::TiebreakRolled {
            seed,
            next_seed_hash,
            ..
        } => Some(Command::RollTiebreak {
            seed: *seed,
            next_seed_hash: *next_seed_hash,
            at,
        }),
        _ => None,
    }
}
