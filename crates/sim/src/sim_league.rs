//! The deterministic simulation of an XMadn league run through the service.
//!
//! The same harness as [`crate::sim`] (the TWS ladder): from a `u64` seed
//! (ChaCha8), simulated moderators send requests to several [`Service`]
//! instances over one [`MemoryStore`] wrapped in a [`FaultyStore`] with the
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

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use arbiter_engine::RuleError;
use arbiter_engine::model::{GameId, PlayerId, Time};
use arbiter_engine::xmadn::league::{
    self, Command, Drr, Event, League, LeagueGame, PLAYERS, Phase, Stage,
};
use arbiter_engine::xmadn::table::Table;
use arbiter_engine::xmadn::{Colours, LeagueRules, Playoff, Series};
use arbiter_service::{Context, Executed, SeedSource, Service, ServiceError};
use arbiter_store::{EventStore, Seq, StoreError, StoredEvent};
use chrono::{Duration, TimeZone, Utc};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

use crate::faulty::{FaultyStore, Injected, Plan, is_injected};
use crate::memory::MemoryStore;
use crate::sim::{Ack, Config, Draws, check_log, log_hash};

/// The competition the simulation runs.
pub const COMPETITION: &str = "sim-league";
const MODERATORS: [&str; 2] = ["Mod One", "Mod Two"];
const PLAYER_NAMES: [&str; 3] = ["Anke Vogel", "Bruno Keller", "Carla Weiss"];
/// The key of the creation (retried with it until the league exists).
const CREATE_KEY: &str = "create";

thread_local! {
    static STEP: Cell<usize> = const { Cell::new(0) };
}

/// The step the simulation on this thread was at (to name it when
/// something panicked).
pub fn current_step() -> usize {
    STEP.with(Cell::get)
}

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

/// A broken invariant: the seed and step that reproduce it.
#[derive(Debug, Clone)]
pub struct Failure {
    pub seed: u64,
    pub step: usize,
    pub message: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "league simulation seed {} failed at step {}: {}\n  replay it: SIM_SEED={} cargo test -p arbiter-sim --test simulation_league replay -- --nocapture",
            self.seed, self.step, self.message, self.seed
        )
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
    STEP.with(|s| s.set(0));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .map_err(|e| Failure {
            seed,
            step: 0,
            message: format!("cannot build the runtime: {e}"),
        })?;
    let mut world = World::new(seed, config);
    world.strict_rolls = strict_rolls;
    runtime.block_on(world.run())
}

/// A request as a client sends it.
#[derive(Debug, Clone)]
struct Request {
    key: Option<String>,
    actor: String,
    what: What,
    /// The version the client pins, if it does.
    expected: Option<Seq>,
}

#[derive(Debug, Clone)]
enum What {
    Create,
    Exec(Command),
    /// `league_roll`: the positions or the tiebreak, the service drawing
    /// the seeds.
    Roll,
    Undo,
}

type Svc = Service<FaultyStore<MemoryStore>>;
type Done = Executed<Event>;

impl Draws for World {
    fn rng(&mut self) -> &mut ChaCha8Rng {
        &mut self.rng
    }
}

struct World {
    seed: u64,
    config: Config,
    rng: ChaCha8Rng,
    rules: LeagueRules,
    /// The store itself (no faults): what the checks read.
    store: MemoryStore,
    faulty: FaultyStore<MemoryStore>,
    services: Vec<Svc>,
    step: usize,
    now: Time,
    /// The log as last read, and decoded.
    log: Vec<StoredEvent>,
    decoded: Vec<(Seq, Event)>,
    /// The fold of the log.
    truth: League,
    stored_keys: BTreeMap<String, (Seq, Seq)>,
    sent: BTreeMap<String, Request>,
    acks: Vec<Ack>,
    retry: Vec<Request>,
    next_key: u64,
    /// Every game won 4-0 (8-0) in 10:00: ties through step 5, which only
    /// a round of die-roll breaks (step 6).
    uniform: bool,
    strict_rolls: bool,
    stats: Stats,
}

/// The outcome of one delivery.
struct Delivered {
    request: Request,
    result: Result<Done, ServiceError>,
}

async fn deliver(
    svc: &Svc,
    request: &Request,
    rules: &LeagueRules,
    at: Time,
) -> Result<Done, ServiceError> {
    let ctx = Context {
        actor: request.actor.clone(),
        at,
        idempotency_key: request.key.clone(),
        expected: request.expected,
    };
    match &request.what {
        What::Create => {
            let players: Vec<String> = PLAYER_NAMES.iter().map(|m| (*m).to_owned()).collect();
            svc.create_league(
                COMPETITION,
                "Simulated league",
                rules.clone(),
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

/// A delivery (or a group) as a failure names it, formatted only then.
enum Shown<'a> {
    One(&'a Request, &'a Result<Done, ServiceError>),
    AtOnce(&'a [Delivered]),
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shown::One(request, result) => write!(f, "{request:?} → {}", describe(result)),
            Shown::AtOnce(delivered) => {
                write!(f, "at once:")?;
                for d in *delivered {
                    write!(f, " {:?} → {};", d.request, describe(&d.result))?;
                }
                Ok(())
            }
        }
    }
}

fn describe(result: &Result<Done, ServiceError>) -> String {
    match result {
        Ok(e) => format!(
            "Ok({}..={}, replayed {}, {} events)",
            e.first,
            e.last,
            e.replayed,
            e.events.len()
        ),
        Err(e) => format!("Err({e})"),
    }
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
    fn new(seed: u64, config: Config) -> Self {
        let store = MemoryStore::new();
        let faulty = FaultyStore::new(store.clone());
        let services = (0..config.services.max(1))
            .map(|_| {
                Service::new(faulty.clone())
                    .with_seeds(SeedSource::Deterministic(format!("sim-{seed}")))
            })
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // The organizer's rules, from the seed.
        let mut rules = LeagueRules {
            double_round_robins: 1 + (rng.next_u64() % 3) as u32,
            head_start: rng.next_u64() % 2 == 0,
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
        let uniform = rng.next_u64() % 3 == 0;
        Self {
            seed,
            config,
            rng,
            rules,
            store,
            faulty,
            services,
            step: 0,
            now: Utc
                .with_ymd_and_hms(2026, 1, 1, 0, 0, 0)
                .single()
                .unwrap_or_default(),
            log: Vec::new(),
            decoded: Vec::new(),
            truth: League::default(),
            stored_keys: BTreeMap::new(),
            sent: BTreeMap::new(),
            acks: Vec::new(),
            retry: Vec::new(),
            next_key: 0,
            uniform,
            strict_rolls: false,
            stats: Stats {
                seeds: 1,
                ..Stats::default()
            },
        }
    }

    fn set_step(&mut self, step: usize) {
        self.step = step;
        STEP.with(|s| s.set(step));
        self.now = Utc
            .with_ymd_and_hms(2026, 1, 1, 0, 0, 0)
            .single()
            .unwrap_or_default()
            + Duration::hours(step as i64);
    }

    fn fail(&self, message: String) -> Failure {
        Failure {
            seed: self.seed,
            step: self.step,
            message,
        }
    }

    async fn run(mut self) -> Result<Stats, Failure> {
        match self.run_inner().await {
            Ok(()) => Ok(self.stats),
            Err(message) => Err(self.fail(message)),
        }
    }

    async fn run_inner(&mut self) -> Result<(), String> {
        // Creation, retried with its key until the league exists.
        let mut step = 0;
        while !self.truth.created {
            self.set_step(step);
            step += 1;
            if step > 50 {
                return Err("the league was not created in 50 attempts".into());
            }
            let request = Request {
                key: Some(CREATE_KEY.to_owned()),
                actor: MODERATORS[0].to_owned(),
                what: What::Create,
                expected: None,
            };
            let svc = self.below(self.services.len() as u64) as usize;
            let plan = self.random_plan();
            self.deliver_one(svc, request, plan, false).await?;
            self.retry.clear();
            self.check_all(false).await?;
        }
        for s in 0..self.config.steps {
            self.set_step(step + s);
            self.stats.steps += 1;
            self.one_step().await?;
            let fresh = (s + 1) % self.config.fresh_every.max(1) == 0;
            self.check_all(fresh).await?;
        }
        // The clients retry whatever is still in doubt, without faults.
        self.set_step(step + self.config.steps);
        let pending = std::mem::take(&mut self.retry);
        for request in pending {
            self.stats.retries += 1;
            let svc = self.below(self.services.len() as u64) as usize;
            self.deliver_one(svc, request, None, false).await?;
        }
        self.check_all(true).await?;
        self.stats.events += self.log.len() as u64;
        self.stats.log_hash = log_hash(&self.log);
        self.stats.rolls += self.truth.rolls.len() as u64;
        self.stats.tiebreak_rolls += self
            .truth
            .rolls
            .iter()
            .filter(|r| matches!(r.purpose, league::RollPurpose::Tiebreak))
            .count() as u64;
        self.stats.games_played += self
            .truth
            .round_robin_games()
            .filter(|g| g.score().is_some())
            .count() as u64;
        self.stats.cancelled += self
            .truth
            .games
            .iter()
            .filter(|g| matches!(g.status, league::GameStatus::Cancelled { .. }))
            .count() as u64
            + self
                .truth
                .drrs
                .iter()
                .filter(|d| matches!(d, Drr::Cancelled { .. }))
                .count() as u64;
        self.stats.playoff_rounds += self.truth.playoff.len() as u64;
        self.stats.finished += u64::from(self.truth.champion().is_some());
        Ok(())
    }

    async fn one_step(&mut self) -> Result<(), String> {
        let services = self.services.len() as u64;
        match self.below(100) {
            // One intention (one or two requests), in order.
            0..40 => {
                for request in self.intention() {
                    let svc = self.below(services) as usize;
                    let plan = self.random_plan();
                    self.deliver_one(svc, request, plan, false).await?;
                }
            }
            // A batch of intentions, delivered shuffled.
            40..60 => {
                let mut batch = Vec::new();
                for _ in 0..2 + self.below(2) {
                    batch.extend(self.intention());
                }
                self.shuffle(&mut batch);
                for request in batch {
                    let svc = self.below(services) as usize;
                    let plan = self.random_plan();
                    self.deliver_one(svc, request, plan, false).await?;
                }
            }
            // Two or three requests at once, on any services.
            60..75 => {
                let mut group: Vec<Request> = Vec::new();
                let n = 2 + self.below(2) as usize;
                while group.len() < n {
                    group.extend(self.intention());
                }
                group.truncate(n);
                let items: Vec<(usize, Request)> = group
                    .into_iter()
                    .map(|r| (self.below(services) as usize, r))
                    .collect();
                let plan = if self.chance(40) {
                    self.random_plan()
                } else {
                    None
                };
                self.deliver_concurrently(items, plan).await?;
            }
            // A duplicate of an earlier request (same key), alone or twice
            // at once.
            75..85 => {
                let keys: Vec<String> = self.sent.keys().cloned().collect();
                if let Some(key) = self.pick(&keys)
                    && let Some(request) = self.sent.get(&key).cloned()
                {
                    if self.chance(30) {
                        let items = vec![
                            (self.below(services) as usize, request.clone()),
                            (self.below(services) as usize, request),
                        ];
                        self.deliver_concurrently(items, None).await?;
                    } else {
                        let svc = self.below(services) as usize;
                        let plan = self.random_plan();
                        self.deliver_one(svc, request, plan, false).await?;
                    }
                }
            }
            // A client retries a request that failed.
            85..95 => {
                if !self.retry.is_empty() {
                    let i = self.below(self.retry.len() as u64) as usize;
                    let request = self.retry.swap_remove(i);
                    self.stats.retries += 1;
                    let svc = self.below(services) as usize;
                    let plan = self.random_plan();
                    self.deliver_one(svc, request, plan, false).await?;
                }
            }
            // A stored key reused for another request.
            95..98 => {
                let keys: Vec<String> = self.stored_keys.keys().cloned().collect();
                if let Some(key) = self.pick(&keys) {
                    let mut request = self.intention().remove(0);
                    let same = match (&request.what, self.sent.get(&key).map(|r| &r.what)) {
                        (What::Exec(a), Some(What::Exec(b))) => {
                            arbiter_service::request_fingerprint::<League>(a)
                                == arbiter_service::request_fingerprint::<League>(b)
                        }
                        // A roll decides before it looks at its key (see
                        // the report of `league_roll`): not sent reused.
                        (What::Roll, _) => true,
                        (What::Undo, Some(What::Undo)) | (What::Create, Some(What::Create)) => true,
                        _ => false,
                    };
                    if !same && !matches!(request.what, What::Create) {
                        request.key = Some(key);
                        let svc = self.below(services) as usize;
                        self.deliver_one(svc, request, None, true).await?;
                    }
                }
            }
            // A request pinned to a version that is gone.
            _ => {
                let mut request = self.intention().remove(0);
                let version = self.log.len() as Seq;
                if version > 0 && !matches!(request.what, What::Create) {
                    request.expected = Some(version - 1 - self.below(version.min(3)));
                    request.key = Some(self.fresh_key());
                    let svc = self.below(services) as usize;
                    self.deliver_one(svc, request, None, false).await?;
                }
            }
        }
        Ok(())
    }

    fn fresh_key(&mut self) -> String {
        self.next_key += 1;
        format!("k{}", self.next_key)
    }

    fn moderator(&mut self) -> String {
        MODERATORS[self.below(2) as usize].to_owned()
    }

    /// What a client wants next, from the league as it is: one request, or
    /// two (a result and a correction of it) which a shuffle may reorder.
    fn intention(&mut self) -> Vec<Request> {
        let mut out = self.intention_commands();
        for request in &mut out {
            if self.chance(85) {
                request.key = Some(self.fresh_key());
            }
            if self.chance(10) {
                request.expected = Some(self.log.len() as Seq);
            }
        }
        out
    }

    /// Valid pawns for a game won by the player at `winner`.
    fn pawns(&mut self, winner: usize) -> [u8; 2] {
        let w = self.truth.rules.rule_set.winning_pawns();
        let loser = if self.uniform {
            0
        } else {
            self.below(u64::from(w)) as u8
        };
        let mut pawns = [loser, loser];
        pawns[winner.min(1)] = w;
        pawns
    }

    fn seconds(&mut self) -> u32 {
        if self.uniform {
            return 600;
        }
        60 + self.below(2400) as u32
    }

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

    /// Deliver one request alone (with `plan` armed) and check its answer.
    async fn deliver_one(
        &mut self,
        svc: usize,
        request: Request,
        plan: Option<Plan>,
        reuse: bool,
    ) -> Result<(), String> {
        let before = self.log.len() as Seq;
        let known = request
            .key
            .as_ref()
            .and_then(|k| self.stored_keys.get(k).copied());
        let pinned_stale = request.expected.is_some_and(|e| e != before);
        let oracle: Option<Result<Vec<Event>, RuleError>> = match &request.what {
            What::Exec(command) if known.is_none() && !pinned_stale && !reuse => {
                Some(self.truth.decide(command.clone()))
            }
            _ => None,
        };
        let mark = self.faulty.injected_count();
        if let Some(plan) = plan {
            self.faulty.arm(plan);
        }
        let Some(service) = self.services.get(svc) else {
            return Err(format!("no service {svc}"));
        };
        let result = deliver(service, &request, &self.rules, self.now).await;
        // A roll's seeds are the service's: decide its command again on
        // the fold, with the seeds it revealed and committed.
        let oracle = match (&request.what, &result) {
            (What::Roll, Ok(done)) if known.is_none() && !pinned_stale && !reuse => {
                roll_command(done.events.first(), self.now)
                    .map(|command| self.truth.decide(command))
            }
            (What::Roll, Err(ServiceError::Rule(_)))
                if known.is_none() && !pinned_stale && !reuse && !rolling(&self.truth) =>
            {
                Some(self.truth.decide(Command::RollPositions {
                    seed: [0; 32],
                    next_seed_hash: [0; 32],
                    at: self.now,
                }))
            }
            _ => oracle,
        };
        self.faulty.disarm();
        let faults = self.faulty.injected_since(mark);
        self.stats.deliveries += 1;
        self.stats.faults += faults.len() as u64;
        let after = self.version().await?;
        let what = Shown::One(&request, &result);
        let growth = after
            .checked_sub(before)
            .ok_or_else(|| format!("{what}: the log shrank from {before} to {after}"))?;
        if !reuse
            && let Some(key) = &request.key
            && !self.sent.contains_key(key)
        {
            self.sent.insert(key.clone(), request.clone());
        }

        let landed = self.take_landed(&faults, &what)?;
        if let Err(ServiceError::Store(e)) = &result
            && is_injected(e)
        {
            if !faults.iter().any(|f| f.message() == e.to_string()) {
                return Err(format!(
                    "{what}: the caller was told of a fault that was not injected now ({})",
                    Injected::describe_all(&faults)
                ));
            }
            if growth != landed {
                return Err(format!(
                    "{what}: the log grew by {growth}, but only {landed} events landed before the crash"
                ));
            }
            if request.key.is_some() {
                self.retry.push(request);
            }
            return self.refresh().await;
        }
        if !faults.is_empty() {
            // The service got over the faults (read again after a failed
            // read): its answer must be the one it gives without them.
            self.stats.faults_absorbed += faults.len() as u64;
            if landed > 0 {
                return Err(format!(
                    "{what}: an append landed before a crash ({}), yet the caller was not told",
                    Injected::describe_all(&faults)
                ));
            }
        }
        match (&result, known) {
            (Ok(done), Some((first, last))) if !reuse => {
                if !done.replayed || (done.first, done.last) != (first, last) || growth != 0 {
                    return Err(format!(
                        "{what}: the key's first outcome was {first}..={last}, stored; a retry must replay it and store nothing (grew by {growth})"
                    ));
                }
                self.stats.replayed += 1;
            }
            (Ok(_), Some(_)) => {
                return Err(format!(
                    "{what}: the key was used for another request, which must be refused"
                ));
            }
            (Err(ServiceError::Store(StoreError::KeyReused { .. })), Some(_)) if reuse => {
                if growth != 0 {
                    return Err(format!("{what}: a reused key stored {growth} events"));
                }
                self.stats.keys_reused += 1;
            }
            // `league_roll` decides on the current league before it looks
            // at the key: a retry of a roll that was stored is refused by
            // the rules instead of replayed (reported, counted).
            // (Or, when the league now needs the other kind of roll, as
            // a key reused for another request.)
            (
                Err(ServiceError::Rule(_) | ServiceError::Store(StoreError::KeyReused { .. })),
                Some(_),
            ) if matches!(request.what, What::Roll) && !self.strict_rolls => {
                if growth != 0 {
                    return Err(format!("{what}: a refused roll stored {growth} events"));
                }
                self.stats.rolls_checked_late += 1;
            }
            (Err(_), Some(_)) => {
                return Err(format!(
                    "{what}: the key was stored before: a retry must replay, a reuse be refused as such"
                ));
            }
            (Ok(done), None) => {
                if done.replayed {
                    return Err(format!("{what}: replayed a key that was never stored"));
                }
                if pinned_stale {
                    return Err(format!(
                        "{what}: pinned to a version that is gone (at {before}), yet done"
                    ));
                }
                let n = done.events.len() as Seq;
                if growth != n || done.first != before + 1 || done.last != before + n {
                    return Err(format!(
                        "{what}: acknowledged {} events at {}..={}, but the log went from {before} to {after}",
                        n, done.first, done.last
                    ));
                }
                match &oracle {
                    Some(Err(rule)) => {
                        return Err(format!(
                            "{what}: the engine refuses this command on the fold of the log: {rule:?}"
                        ));
                    }
                    Some(Ok(expected)) if expected != &done.events => {
                        return Err(format!(
                            "{what}: decided {:?}, but the engine decides {expected:?} on the fold of the log",
                            done.events
                        ));
                    }
                    _ => {}
                }
                self.acknowledge(&request, done)?;
            }
            (Err(e), None) => {
                if growth != 0 {
                    return Err(format!(
                        "{what}: refused, yet the log grew by {growth}: a refused command must store nothing"
                    ));
                }
                match e {
                    ServiceError::Store(StoreError::Conflict { actual, .. }) => {
                        if !pinned_stale || *actual != before {
                            return Err(format!(
                                "{what}: a conflict the request did not cause (log at {before})"
                            ));
                        }
                        self.stats.conflicts += 1;
                    }
                    ServiceError::Store(_) | ServiceError::Record { .. } => {
                        return Err(format!("{what}: a storage error without a fault"));
                    }
                    ServiceError::Rule(rule) => {
                        if pinned_stale && matches!(request.what, What::Roll) && !self.strict_rolls
                        {
                            // The same: the rules before the pinned version.
                            self.stats.rolls_checked_late += 1;
                        } else if pinned_stale {
                            return Err(format!(
                                "{what}: pinned to a version that is gone, but refused otherwise"
                            ));
                        }
                        if let Some(oracle) = &oracle {
                            match oracle {
                                Ok(events) => {
                                    return Err(format!(
                                        "{what}: refused, but the engine accepts it on the fold of the log: {events:?}"
                                    ));
                                }
                                Err(expected) if expected != rule => {
                                    return Err(format!(
                                        "{what}: refused with {rule:?}, but the engine refuses with {expected:?}"
                                    ));
                                }
                                Err(_) => {}
                            }
                        }
                        self.stats.refused += 1;
                    }
                    ServiceError::Input(_)
                    | ServiceError::NotFound(_)
                    | ServiceError::Exists(_) => {
                        if let Some(Ok(_)) = &oracle {
                            return Err(format!(
                                "{what}: refused, but the engine accepts it on the fold of the log"
                            ));
                        }
                        self.stats.refused += 1;
                    }
                }
            }
        }
        self.refresh().await
    }

    /// Keys of appends that landed before a crash are now in the store.
    /// Returns how many events landed.
    fn take_landed(&mut self, faults: &[Injected], what: &Shown<'_>) -> Result<Seq, String> {
        let mut landed = 0;
        for f in faults {
            let Some(a) = &f.landed else { continue };
            landed += a.last - a.first + 1;
            self.stats.landed_after_commit += 1;
            // The key of the landed append: read from the events.
            let key = self
                .store
                .inspect(COMPETITION, |log| {
                    log.get(a.first as usize - 1)
                        .and_then(|e| e.idempotency_key.clone())
                })
                .map_err(|e| format!("the memory store failed: {e}"))?;
            if let Some(key) = key
                && self
                    .stored_keys
                    .insert(key.clone(), (a.first, a.last))
                    .is_some()
            {
                return Err(format!(
                    "{what}: key {key} was stored twice (again at {}..={})",
                    a.first, a.last
                ));
            }
        }
        Ok(landed)
    }

    fn acknowledge(&mut self, request: &Request, done: &Done) -> Result<(), String> {
        self.stats.acknowledged += 1;
        if done.events.is_empty() {
            return Ok(());
        }
        if let Some(key) = &request.key
            && let Some(range) = self
                .stored_keys
                .insert(key.clone(), (done.first, done.last))
        {
            return Err(format!(
                "{request:?}: key {key} was already stored at {range:?}, and its command appended again at {}..={}",
                done.first, done.last
            ));
        }
        self.acks.push(Ack {
            first: done.first,
            last: done.last,
            key: request.key.clone(),
            payloads: done
                .events
                .iter()
                .map(arbiter_record::xmadn::encode_league)
                .collect(),
        });
        Ok(())
    }

    /// Deliver two or three requests at once on one task, the store
    /// yielding between calls, and check what they did together.
    async fn deliver_concurrently(
        &mut self,
        items: Vec<(usize, Request)>,
        plan: Option<Plan>,
    ) -> Result<(), String> {
        self.stats.concurrent_groups += 1;
        let before = self.log.len() as Seq;
        let mark = self.faulty.injected_count();
        let yield_seed = self.rng.next_u64();
        self.faulty.set_yields(yield_seed, 400);
        if let Some(plan) = plan {
            self.faulty.arm(plan);
        }
        let now = self.now;
        let rules = &self.rules;
        let svc = |i: usize| &self.services[i % self.services.len()];
        let results: Vec<Result<Done, ServiceError>> = match items.as_slice() {
            [a, b] => {
                let (x, y) = tokio::join!(
                    deliver(svc(a.0), &a.1, rules, now),
                    deliver(svc(b.0), &b.1, rules, now)
                );
                vec![x, y]
            }
            [a, b, c] => {
                let (x, y, z) = tokio::join!(
                    deliver(svc(a.0), &a.1, rules, now),
                    deliver(svc(b.0), &b.1, rules, now),
                    deliver(svc(c.0), &c.1, rules, now)
                );
                vec![x, y, z]
            }
            _ => {
                let mut out = Vec::new();
                for (i, r) in &items {
                    out.push(deliver(svc(*i), r, rules, now).await);
                }
                out
            }
        };
        self.faulty.disarm();
        self.faulty.set_yields(0, 0);
        let faults = self.faulty.injected_since(mark);
        self.stats.deliveries += items.len() as u64;
        self.stats.faults += faults.len() as u64;
        let after = self.version().await?;
        let delivered: Vec<Delivered> = items
            .into_iter()
            .zip(results)
            .map(|((_, request), result)| Delivered { request, result })
            .collect();
        let what = Shown::AtOnce(&delivered);
        for d in &delivered {
            if let Some(key) = &d.request.key
                && !self.sent.contains_key(key)
            {
                self.sent.insert(key.clone(), d.request.clone());
            }
        }

        // Every fault reaches exactly one caller; no other storage error.
        for f in &faults {
            let told = delivered
                .iter()
                .filter(|d| {
                    matches!(&d.result, Err(ServiceError::Store(e)) if e.to_string() == f.message())
                })
                .count();
            if told > 1 || (told == 0 && f.landed.is_some()) {
                return Err(format!(
                    "{what}: the fault {:?} reached {told} callers instead of one",
                    f.message()
                ));
            }
            if told == 0 {
                self.stats.faults_absorbed += 1;
            }
        }
        let landed = self.take_landed(&faults, &what)?;
        let mut grown = landed;
        // New events first (their keys may be what a sibling replays).
        let mut ranges: Vec<(Seq, Seq)> = Vec::new();
        for d in &delivered {
            match &d.result {
                Ok(done) if !done.replayed => {
                    if d.request.key.as_ref().is_some_and(|k| {
                        self.stored_keys.contains_key(k) && !done.events.is_empty()
                    }) {
                        return Err(format!("{what}: a stored key's command was appended again"));
                    }
                    let n = done.events.len() as Seq;
                    if n > 0 {
                        if done.first <= before
                            || done.last > after
                            || done.last + 1 - done.first != n
                        {
                            return Err(format!(
                                "{what}: acknowledged {}..={} outside the new events {}..={after}",
                                done.first,
                                done.last,
                                before + 1
                            ));
                        }
                        ranges.push((done.first, done.last));
                    }
                    grown += n;
                    self.acknowledge(&d.request, done)?;
                }
                Ok(_) => {}
                Err(ServiceError::Store(e)) if is_injected(e) => {
                    if d.request.key.is_some() {
                        self.retry.push(d.request.clone());
                    }
                }
                Err(ServiceError::Store(StoreError::Conflict { .. })) => {
                    // An undo names no event: "the last one", which another
                    // writer changed; it is refused rather than decided
                    // again on an event its moderator did not see.
                    if d.request.expected.is_none() && !matches!(d.request.what, What::Undo) {
                        return Err(format!(
                            "{what}: a conflict reached a caller who did not pin a version"
                        ));
                    }
                    self.stats.conflicts += 1;
                }
                // A roll whose key is stored, sent again: `league_roll`
                // decided the other kind of roll first (see `deliver_one`).
                Err(ServiceError::Store(StoreError::KeyReused { .. }))
                    if matches!(d.request.what, What::Roll)
                        && !self.strict_rolls
                        && d.request
                            .key
                            .as_ref()
                            .is_some_and(|k| self.stored_keys.contains_key(k)) =>
                {
                    self.stats.rolls_checked_late += 1;
                }
                Err(ServiceError::Store(_) | ServiceError::Record { .. }) => {
                    return Err(format!("{what}: a storage error without a fault"));
                }
                Err(_) => self.stats.refused += 1,
            }
        }
        ranges.sort_unstable();
        if ranges.windows(2).any(|w| w[0].1 >= w[1].0) {
            return Err(format!("{what}: two commands acknowledged the same events"));
        }
        for d in &delivered {
            if let Ok(done) = &d.result
                && done.replayed
            {
                let known = d
                    .request
                    .key
                    .as_ref()
                    .and_then(|k| self.stored_keys.get(k).copied());
                if known != Some((done.first, done.last)) {
                    return Err(format!(
                        "{what}: replayed {}..={}, but the key's events are {known:?}",
                        done.first, done.last
                    ));
                }
                self.stats.replayed += 1;
            }
        }
        if after - before != grown {
            return Err(format!(
                "{what}: the log grew by {} but {grown} events were acknowledged or landed: a refused command stored something",
                after - before
            ));
        }
        self.refresh().await
    }

    async fn version(&self) -> Result<Seq, String> {
        self.store
            .version(COMPETITION)
            .await
            .map_err(|e| format!("the memory store failed: {e}"))
    }

    /// Read the new events, check they follow without a gap, and fold them.
    async fn refresh(&mut self) -> Result<(), String> {
        let known = self.log.len() as Seq;
        let version = self.version().await?;
        let new = self
            .store
            .read(COMPETITION, known + 1, None)
            .await
            .map_err(|e| format!("the memory store failed: {e}"))?;
        if new.len() as Seq != version - known {
            return Err(format!(
                "version {version} but {} events after {known}",
                new.len()
            ));
        }
        let mut refold = false;
        for (e, seq) in new.into_iter().zip(known + 1..) {
            if e.seq != seq || e.competition != COMPETITION {
                return Err(format!(
                    "event {} of {} where {seq} was due",
                    e.seq, e.competition
                ));
            }
            let event = arbiter_record::xmadn::decode_league(&e.payload)
                .map_err(|err| format!("event {seq} cannot be decoded: {err}"))?;
            if e.kind != event.kind() {
                return Err(format!(
                    "event {seq} is stored as {} but is {}",
                    e.kind,
                    event.kind()
                ));
            }
            if matches!(event, Event::Reverted { .. }) {
                refold = true;
            } else if !refold {
                self.truth.try_apply(&event).map_err(|err| {
                    format!(
                        "event {seq} does not fit the log before it: {}",
                        err.message
                    )
                })?;
            }
            self.decoded.push((seq, event));
            self.log.push(e);
        }
        if refold {
            self.truth = fold_log(&self.decoded);
        }
        check_league(&self.truth)
    }

    /// Everything: the log unchanged and gapless, acknowledged commands in
    /// it, keys stored once, every service's state equal to the fold (and a
    /// fresh service's, when `fresh`).
    async fn check_all(&mut self, fresh: bool) -> Result<(), String> {
        self.refresh().await?;
        let (log, acks) = (&self.log, &self.acks);
        let runs = self
            .store
            .inspect(COMPETITION, |full| check_log(full, log, acks))
            .map_err(|e| format!("the memory store failed: {e}"))??;
        if runs != self.stored_keys {
            return Err(format!(
                "the keys in the log {runs:?} are not those acknowledged or landed {:?}",
                self.stored_keys
            ));
        }
        let records = self
            .store
            .keys(COMPETITION)
            .await
            .map_err(|e| format!("the memory store failed: {e}"))?;
        let recorded: BTreeMap<String, (Seq, Seq)> = records
            .into_iter()
            .map(|r| (r.key, (r.first, r.last)))
            .collect();
        if recorded != runs {
            return Err(format!(
                "the store's key records {recorded:?} are not the keys of its events {runs:?}"
            ));
        }
        let version = self.log.len() as Seq;
        if version == 0 {
            // Not created yet: every service must say so.
            for (i, svc) in self.services.iter().enumerate() {
                match svc.load_as::<League>(COMPETITION, None).await {
                    Err(ServiceError::NotFound(_)) => {}
                    other => {
                        return Err(format!(
                            "service {i} loads a competition with no events: {:?}",
                            other.map(|(_, v)| v)
                        ));
                    }
                }
            }
            return Ok(());
        }
        for (i, svc) in self.services.iter().enumerate() {
            let (v, diff) = svc
                .read_as::<League, _>(COMPETITION, |l, v| {
                    (v, (l != &self.truth).then(|| league_diff(l, &self.truth)))
                })
                .await
                .map_err(|e| format!("service {i} cannot read the league: {e}"))?;
            if v != version {
                return Err(format!(
                    "service {i} is at version {v}, the log at {version}"
                ));
            }
            if let Some(diff) = diff {
                return Err(format!(
                    "service {i}'s state is not the fold of the log: {diff}"
                ));
            }
        }
        if fresh {
            let svc = Service::new(self.store.clone());
            let (ladder, v) = svc
                .load_as::<League>(COMPETITION, None)
                .await
                .map_err(|e| format!("a fresh service cannot load the league: {e}"))?;
            if v != version || ladder != self.truth {
                return Err(format!(
                    "a fresh service's fold is not the simulation's (version {v}): {}",
                    league_diff(&ladder, &self.truth)
                ));
            }
            let folded = fold_log(&self.decoded);
            if folded != self.truth {
                return Err(format!(
                    "the engine's fold differs from the incremental one: {}",
                    league_diff(&folded, &self.truth)
                ));
            }
        }
        Ok(())
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
