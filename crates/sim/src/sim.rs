//! The deterministic simulation of a TWS ladder run through the service.
//!
//! From a `u64` seed (ChaCha8), simulated organizers and players send
//! requests to several [`Service`] instances (processes) over one
//! [`MemoryStore`] wrapped in a [`FaultyStore`], whose fault model is:
//! - a crash before commit (a failed call: the append, or a read before it);
//! - a crash after commit (the append lands, the client is told it failed),
//!   after which the client retries with the same idempotency key;
//! - a store gone for good from some call on (persistent faults);
//! - conflicts: two or three requests run concurrently on one task, with
//!   the store yielding between calls in an order the seed decides, and a
//!   service whose cache is behind another's writes;
//! - duplicated requests (the same key again, later or concurrently),
//!   reordered requests (a batch delivered shuffled), a key reused for
//!   another request, and requests pinned to a version that is gone.
//!
//! After every delivery the log is read back and checked; after every step
//! everything is: sequences without gaps, every acknowledged command's
//! events in the log (no acknowledged command lost), each idempotency key's
//! events stored once, refused commands stored nothing (the log grows by
//! exactly what was acknowledged plus what landed before a crash), every
//! service's cached state equal to the fold of the log, a fresh service's
//! too, the engine's own invariants of the ladder, and for each request
//! decided on a known state the service's answer equal to the engine's
//! `decide` on the fold (same events, or the same refusal).
//!
//! Nothing depends on the wall clock or on hash order: times are derived
//! from the step, the runtime is current-thread with a paused clock (the
//! service's back-off sleeps in virtual time), and maps are `BTreeMap`s.

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use arbiter_engine::RuleError;
use arbiter_engine::model::{EndTag, GameId, GameStatus, Outcome, PlayerId, Side, Time};
use arbiter_engine::tws::{
    self, Command, Confirmer, Event, Ladder, LadderRules, Membership, PairingPlan, ResultInput,
};
use arbiter_service::{Context, Executed, SeedSource, Service, ServiceError};
use arbiter_store::{EventStore, Seq, StoreError, StoredEvent};
use chrono::{Duration, TimeZone, Utc};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

use crate::faulty::{Call, FaultyStore, Injected, Mode, Plan, is_injected};
use crate::memory::MemoryStore;

/// The competition the simulation runs.
pub const COMPETITION: &str = "sim-ladder";
const MODERATORS: [&str; 2] = ["Mod One", "Mod Two"];
/// The key of the creation (retried with it until the ladder exists).
const CREATE_KEY: &str = "create";

thread_local! {
    static STEP: Cell<usize> = const { Cell::new(0) };
}

/// The step the simulation on this thread was at (to name it when
/// something panicked).
pub fn current_step() -> usize {
    STEP.with(Cell::get)
}

/// How long and how wide a run is.
#[derive(Debug, Clone, Copy)]
pub struct Config {
    /// Steps after the creation.
    pub steps: usize,
    /// Service instances (processes) over the one store.
    pub services: usize,
    /// A fresh service folds the whole log every this many steps (and at
    /// the end).
    pub fresh_every: usize,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            steps: 48,
            services: 3,
            fresh_every: 8,
        }
    }
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
    /// Faults the service got over without failing the request (a read
    /// tried again), its answer checked as if there had been none.
    pub faults_absorbed: u64,
    /// Appends that landed before a crash that the client saw.
    pub landed_after_commit: u64,
    /// Requests retried with their key after a failure.
    pub retries: u64,
    /// Groups of requests run concurrently.
    pub concurrent_groups: u64,
    /// Stored events at the end of the runs.
    pub events: u64,
    /// Rounds announced by the end of the runs.
    pub rounds: u64,
    /// Games decided after their deadline (agreed or adjudicated) by the
    /// end of the runs.
    pub late_results: u64,
    /// FNV-1a of every run's final log (sequence, key, payload), summed:
    /// two runs of the same seeds must agree on it.
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
        self.rounds += o.rounds;
        self.late_results += o.late_results;
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
            "simulation seed {} failed at step {}: {}\n  replay it: SIM_SEED={} cargo test -p arbiter-sim --test simulation replay -- --nocapture",
            self.seed, self.step, self.message, self.seed
        )
    }
}

/// Run the simulation of `seed` on a fresh current-thread runtime.
pub fn run_seed(seed: u64, config: Config) -> Result<Stats, Failure> {
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
    runtime.block_on(World::new(seed, config).run())
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
    Announce,
    Undo,
}

/// An acknowledged command: its events must stay in the log.
#[derive(Debug)]
pub(crate) struct Ack {
    pub(crate) first: Seq,
    pub(crate) last: Seq,
    pub(crate) key: Option<String>,
    pub(crate) payloads: Vec<String>,
}

type Svc = Service<FaultyStore<MemoryStore>>;

/// The seeded choices of a simulated world (the ladder's and the
/// league's): every draw comes from its ChaCha stream, in the order asked,
/// so a seed replays exactly.
pub(crate) trait Draws {
    fn rng(&mut self) -> &mut ChaCha8Rng;

    fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.rng().next_u64() % n }
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn pick<T: Clone>(&mut self, items: &[T]) -> Option<T> {
        if items.is_empty() {
            return None;
        }
        let i = self.below(items.len() as u64) as usize;
        items.get(i).cloned()
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// A fault plan for one delivery, or none.
    fn random_plan(&mut self) -> Option<Plan> {
        let k = 1 + self.below(6);
        match self.below(100) {
            0..55 => None,
            55..70 => Some(Plan::new(Mode::Once, k)),
            70..80 => Some(Plan::new(Mode::Once, 1).only(Call::Append)),
            80..92 => Some(Plan::new(Mode::AfterCommit, 1).only(Call::Append)),
            92..96 => Some(Plan::new(Mode::AfterCommit, k)),
            _ => Some(Plan::new(Mode::Persistent, k)),
        }
    }
}

impl Draws for World {
    fn rng(&mut self) -> &mut ChaCha8Rng {
        &mut self.rng
    }
}

struct World {
    seed: u64,
    config: Config,
    rng: ChaCha8Rng,
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
    truth: Ladder,
    /// Keys known to be in the store (acknowledged, or landed before a
    /// crash), with their events.
    stored_keys: BTreeMap<String, (Seq, Seq)>,
    /// Every keyed request sent, by key (the first request of the key).
    sent: BTreeMap<String, Request>,
    acks: Vec<Ack>,
    /// Requests that failed on a fault, to be retried with their key.
    retry: Vec<Request>,
    next_key: u64,
    next_name: u32,
    /// Days the clock jumped ahead (deadlines pass: agreed results,
    /// adjudications, refusals of late results).
    skipped_days: i64,
    stats: Stats,
}

/// The outcome of one delivery, and what was known before it.
struct Delivered {
    request: Request,
    result: Result<Executed, ServiceError>,
}

async fn deliver(svc: &Svc, request: &Request, at: Time) -> Result<Executed, ServiceError> {
    let ctx = Context {
        actor: request.actor.clone(),
        at,
        idempotency_key: request.key.clone(),
        expected: request.expected,
    };
    match &request.what {
        What::Create => {
            let mods: Vec<String> = MODERATORS.iter().map(|m| (*m).to_owned()).collect();
            svc.create_ladder(
                COMPETITION,
                "Simulated ladder",
                LadderRules::default(),
                &mods,
                &ctx,
            )
            .await
        }
        What::Exec(command) => svc.execute(COMPETITION, command.clone(), &ctx).await,
        What::Announce => svc
            .announce_round(
                COMPETITION,
                None,
                PairingPlan::Default { eliminator: None },
                false,
                &ctx,
            )
            .await
            .map(|(_, executed)| executed),
        What::Undo => svc.undo(COMPETITION, &ctx).await.map(|(e, _)| e),
    }
}

fn result_input(outcome: Outcome) -> ResultInput {
    match outcome {
        Outcome::Win(side) => ResultInput {
            outcome,
            ended_by: EndTag::Vp,
            vp: Some(if side == Side::Ussr { -20 } else { 20 }),
            turn: Some(6),
            note: None,
        },
        Outcome::Tie => ResultInput {
            outcome,
            ended_by: EndTag::FinalScoring,
            vp: None,
            turn: None,
            note: None,
        },
    }
}

/// A delivery (or a group) as a failure names it, formatted only then.
enum Shown<'a> {
    One(&'a Request, &'a Result<Executed, ServiceError>),
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

fn describe(result: &Result<Executed, ServiceError>) -> String {
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

/// The first field where two ladders differ, for a readable failure.
fn ladder_diff(got: &Ladder, want: &Ladder) -> String {
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
    field!(name);
    field!(created);
    field!(order);
    field!(inactive);
    field!(champion);
    field!(streak);
    field!(moderators);
    field!(players);
    field!(games);
    field!(rounds);
    field!(skip_requests);
    field!(carried);
    field!(seed_hash);
    field!(rules);
    "a private field differs (names, entries or side histories)".to_owned()
}

/// The ladder's own invariants.
fn check_ladder(l: &Ladder) -> Result<(), String> {
    let status = |p: PlayerId| l.player(p).map(|r| r.status);
    let mut on_ladder = BTreeSet::new();
    for p in &l.order {
        if !on_ladder.insert(p.0) {
            return Err(format!("player {} is twice on the ladder", p.0));
        }
        if status(*p) != Some(Membership::Member) {
            return Err(format!(
                "player {} is on the ladder as {:?}",
                p.0,
                status(*p)
            ));
        }
    }
    let mut inactive = BTreeSet::new();
    for p in &l.inactive {
        if !inactive.insert(p.0) {
            return Err(format!("player {} is twice on the inactive list", p.0));
        }
        if status(*p) != Some(Membership::Inactive) {
            return Err(format!(
                "player {} is on the inactive list as {:?}",
                p.0,
                status(*p)
            ));
        }
    }
    for (i, rec) in l.players.iter().enumerate() {
        let id = i as u32 + 1;
        if rec.player.id.0 != id {
            return Err(format!("player {} is at index {i}", rec.player.id.0));
        }
        if rec.status == Membership::Member && !on_ladder.contains(&id) {
            return Err(format!(
                "member {id} is not on the ladder: not a permutation"
            ));
        }
        if rec.status == Membership::Inactive && !inactive.contains(&id) {
            return Err(format!("inactive player {id} is not on the inactive list"));
        }
    }
    for (i, g) in l.games.iter().enumerate() {
        if g.id.0 as usize != i + 1 {
            return Err(format!("game {} is at index {i}", g.id.0));
        }
        if g.ussr.player == g.us.player {
            return Err(format!(
                "game {} pairs player {} with himself",
                g.id.0, g.us.player.0
            ));
        }
        for p in g.participants() {
            if l.player(p.player).is_none() {
                return Err(format!(
                    "game {} names unknown player {}",
                    g.id.0, p.player.0
                ));
            }
        }
        let decided = matches!(
            g.status,
            GameStatus::Played
                | GameStatus::Agreed
                | GameStatus::Adjudicated
                | GameStatus::Forfeited
        );
        if decided != g.result.is_some() && g.status != GameStatus::Cancelled {
            return Err(format!(
                "game {} is {:?} with result {:?}",
                g.id.0, g.status, g.result
            ));
        }
        if g.report.is_some() && g.status != GameStatus::Scheduled {
            return Err(format!(
                "game {} is {:?} with a pending report",
                g.id.0, g.status
            ));
        }
    }
    for (i, r) in l.rounds.iter().enumerate() {
        if r.number as usize != i + 1 {
            return Err(format!("round {} is at index {i}", r.number));
        }
        if r.closed.is_none() && i + 1 != l.rounds.len() {
            return Err(format!("round {} is open but not the last", r.number));
        }
        let mut playing: BTreeMap<u32, &tws::Game> = BTreeMap::new();
        for id in &r.games {
            let Some(g) = l.game(*id) else {
                return Err(format!("round {} lists unknown game {}", r.number, id.0));
            };
            // A game carried over from a round closed early is listed in
            // the rounds it was carried into (ARB-R21), once or again.
            if g.round.is_none_or(|own| own > r.number) {
                return Err(format!(
                    "round {} lists game {} of round {:?}",
                    r.number, id.0, g.round
                ));
            }
            // Nobody plays two games that count for him on the ladder in
            // one round (a volunteer eliminator may serve in several: they
            // count as quick-round games for him).
            for p in g.participants() {
                if p.counts != arbiter_engine::model::Counts::Ladder {
                    continue;
                }
                if let Some(other) = playing.insert(p.player.0, g) {
                    return Err(format!(
                        "player {} plays two ladder games in round {}: {other:?} and {g:?}",
                        p.player.0, r.number
                    ));
                }
            }
        }
        if let Some(closed) = &r.closed {
            let mut seen = BTreeSet::new();
            if !closed.order.iter().all(|p| seen.insert(p.0)) {
                return Err(format!("the close of round {} repeats a player", r.number));
            }
        }
    }
    Ok(())
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
        Self {
            seed,
            config,
            rng: ChaCha8Rng::seed_from_u64(seed),
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
            truth: Ladder::default(),
            stored_keys: BTreeMap::new(),
            sent: BTreeMap::new(),
            acks: Vec::new(),
            retry: Vec::new(),
            next_key: 0,
            next_name: 1,
            skipped_days: 0,
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
            + Duration::hours(step as i64)
            + Duration::days(self.skipped_days);
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
        // Creation, retried with its key until the ladder exists.
        let mut step = 0;
        while !self.truth.created {
            self.set_step(step);
            step += 1;
            if step > 50 {
                return Err("the ladder was not created in 50 attempts".into());
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
            if self.chance(8) {
                self.skipped_days += 25 + self.below(36) as i64;
            }
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
        self.stats.rounds += self.truth.rounds.len() as u64;
        self.stats.late_results += self
            .truth
            .games
            .iter()
            .filter(|g| matches!(g.status, GameStatus::Agreed | GameStatus::Adjudicated))
            .count() as u64;
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
                            arbiter_service::fingerprint(a) == arbiter_service::fingerprint(b)
                        }
                        (What::Undo, Some(What::Undo))
                        | (What::Announce, Some(What::Announce))
                        | (What::Create, Some(What::Create)) => true,
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

    fn name_of(&self, p: PlayerId) -> String {
        self.truth.name_of(p)
    }

    /// What a client wants next, from the ladder as it is: one request, or
    /// two that belong together (a report and its confirmation, an
    /// application and its approval) which a shuffle may reorder.
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

    fn intention_commands(&mut self) -> Vec<Request> {
        let now = self.now;
        let l = &self.truth;
        let members = l.order.clone();
        let scheduled: Vec<GameId> = l
            .games
            .iter()
            .filter(|g| g.status == GameStatus::Scheduled)
            .map(|g| g.id)
            .collect();
        let applicants: Vec<PlayerId> = l
            .players
            .iter()
            .filter(|p| p.status == Membership::Applicant)
            .map(|p| p.player.id)
            .collect();
        let inactive: Vec<PlayerId> = l.inactive.clone();
        let round_open = l.open_round().is_some();
        let open_unfinished = l
            .open_round()
            .is_some_and(|r| r.games.iter().any(|g| scheduled.contains(g)));
        let players = l.players.len() as u32;

        let moderator = |m: String, command: Command| Request {
            key: None,
            actor: m,
            what: What::Exec(command),
            expected: None,
        };
        let mut weights: Vec<(u32, u32)> = vec![
            (0, if members.len() < 10 { 8 } else { 1 }),
            (1, 3),
            (2, if applicants.is_empty() { 0 } else { 5 }),
            (
                3,
                if members.len() >= 2 && !open_unfinished {
                    10
                } else {
                    1
                },
            ),
            (4, if scheduled.is_empty() { 0 } else { 16 }),
            (5, if scheduled.is_empty() { 0 } else { 5 }),
            (6, if scheduled.is_empty() { 0 } else { 1 }),
            (7, if scheduled.is_empty() { 0 } else { 1 }),
            (8, if members.is_empty() { 0 } else { 3 }),
            (9, if open_unfinished { 1 } else { 0 }),
            (10, if members.len() > 4 { 1 } else { 0 }),
            (11, if inactive.is_empty() { 0 } else { 2 }),
            (12, if members.is_empty() { 0 } else { 1 }),
            (13, 1),
            (14, 2),
            (15, if members.len() >= 2 { 1 } else { 0 }),
            (16, if scheduled.is_empty() { 0 } else { 2 }),
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
            // A moderator adds a player (now and then a name taken).
            0 => {
                let n = if self.chance(5) && self.next_name > 1 {
                    1 + self.below(u64::from(self.next_name - 1)) as u32
                } else {
                    self.next_name += 1;
                    self.next_name - 1
                };
                let m = self.moderator();
                vec![moderator(
                    m,
                    Command::Join {
                        name: format!("Player {n}"),
                        surname: None,
                    },
                )]
            }
            // A player applies, and a moderator approves him.
            1 => {
                let n = self.next_name;
                self.next_name += 1;
                let name = format!("Player {n}");
                let m = self.moderator();
                vec![
                    Request {
                        key: None,
                        actor: name.clone(),
                        what: What::Exec(Command::Apply {
                            name,
                            surname: None,
                        }),
                        expected: None,
                    },
                    moderator(
                        m,
                        Command::Approve {
                            player: PlayerId(players + 1),
                        },
                    ),
                ]
            }
            // A moderator approves (or declines) an applicant.
            2 => {
                let p = self.pick(&applicants).unwrap_or(PlayerId(1));
                let m = self.moderator();
                let command = if self.chance(80) {
                    Command::Approve { player: p }
                } else {
                    Command::Decline {
                        player: p,
                        reason: "no reply".into(),
                    }
                };
                vec![moderator(m, command)]
            }
            // A moderator announces the next round (closing the last).
            3 => {
                let m = self.moderator();
                vec![Request {
                    key: None,
                    actor: m,
                    what: What::Announce,
                    expected: None,
                }]
            }
            // A player reports his game; the other player or a moderator
            // confirms (or rejects) it.
            4 => {
                let g = self.pick(&scheduled).unwrap_or(GameId(1));
                let Some(game) = self.truth.game(g).cloned() else {
                    return Vec::new();
                };
                let outcome = match self.below(5) {
                    0 => Outcome::Tie,
                    1 | 2 => Outcome::Win(Side::Ussr),
                    _ => Outcome::Win(Side::Us),
                };
                let [a, b] = game.participants();
                let (by, other) = if self.chance(50) { (a, b) } else { (b, a) };
                let confirmer = if self.chance(60) {
                    Confirmer::Player(other.player)
                } else {
                    Confirmer::Moderator(self.moderator())
                };
                let confirmer_name = match &confirmer {
                    Confirmer::Player(p) => self.name_of(*p),
                    Confirmer::Moderator(m) => m.clone(),
                };
                let second = if self.chance(85) {
                    Command::ConfirmResult {
                        game: g,
                        by: confirmer,
                        at: now,
                    }
                } else {
                    Command::RejectReport {
                        game: g,
                        by: confirmer,
                        reason: "not what happened".into(),
                        at: now,
                    }
                };
                let confirm = Request {
                    key: None,
                    actor: confirmer_name,
                    what: What::Exec(second),
                    expected: None,
                };
                if game.report.is_some() && self.chance(70) {
                    return vec![confirm];
                }
                vec![
                    Request {
                        key: None,
                        actor: self.name_of(by.player),
                        what: What::Exec(Command::ReportResult {
                            game: g,
                            result: result_input(outcome),
                            by: by.player,
                            at: now,
                        }),
                        expected: None,
                    },
                    confirm,
                ]
            }
            // A moderator records a result.
            5 => {
                let g = self.pick(&scheduled).unwrap_or(GameId(1));
                let outcome = match self.below(5) {
                    0 => Outcome::Tie,
                    1 | 2 => Outcome::Win(Side::Ussr),
                    _ => Outcome::Win(Side::Us),
                };
                // After the deadline, the players' agreement (now and then
                // forgotten, to be refused).
                let late = self
                    .truth
                    .game(g)
                    .and_then(|game| game.deadline)
                    .is_some_and(|d| d < now);
                let agreed = late != self.chance(10);
                let m = self.moderator();
                vec![moderator(
                    m,
                    Command::RecordResult {
                        game: g,
                        result: result_input(outcome),
                        agreed,
                        at: now,
                    },
                )]
            }
            // A moderator adjudicates an overdue game (refused before its
            // deadline).
            16 => {
                let g = self.pick(&scheduled).unwrap_or(GameId(1));
                let outcome = if self.chance(50) {
                    Outcome::Win(Side::Us)
                } else {
                    Outcome::Tie
                };
                let m = self.moderator();
                vec![moderator(
                    m,
                    Command::Adjudicate {
                        game: g,
                        outcome,
                        vp: None,
                        turn: Some(7),
                        record: arbiter_engine::model::Adjudication {
                            final_state: "turn 7, US ahead on VP".into(),
                            ussr_statement: None,
                            us_statement: Some("I was winning".into()),
                            third_party: None,
                            decision: "the US was ahead".into(),
                        },
                        at: now,
                    },
                )]
            }
            // A forfeit.
            6 => {
                let g = self.pick(&scheduled).unwrap_or(GameId(1));
                let absent = self
                    .truth
                    .game(g)
                    .map_or(PlayerId(1), |game| game.us.player);
                let m = self.moderator();
                vec![moderator(
                    m,
                    Command::Forfeit {
                        game: g,
                        absent,
                        note: None,
                        at: now,
                    },
                )]
            }
            // A cancellation.
            7 => {
                let g = self.pick(&scheduled).unwrap_or(GameId(1));
                let m = self.moderator();
                vec![moderator(
                    m,
                    Command::CancelGame {
                        game: g,
                        reason: "both agreed".into(),
                        at: now,
                    },
                )]
            }
            // A player asks to skip the next round (or takes it back).
            8 => {
                let p = self.pick(&members).unwrap_or(PlayerId(1));
                let command = if self.chance(80) {
                    Command::RequestSkip {
                        player: p,
                        round: None,
                    }
                } else {
                    Command::CancelSkip {
                        player: p,
                        round: None,
                    }
                };
                vec![Request {
                    key: None,
                    actor: self.name_of(p),
                    what: What::Exec(command),
                    expected: None,
                }]
            }
            // The round closed early, its unfinished games carried over.
            9 => {
                let m = self.moderator();
                vec![moderator(
                    m,
                    Command::CloseRoundEarly {
                        at: now,
                        reason: "to keep the ladder moving".into(),
                    },
                )]
            }
            // A member withdraws.
            10 => {
                let p = self.pick(&members).unwrap_or(PlayerId(1));
                vec![Request {
                    key: None,
                    actor: self.name_of(p),
                    what: What::Exec(Command::Withdraw {
                        player: p,
                        reason: "moving house".into(),
                    }),
                    expected: None,
                }]
            }
            // An inactive player comes back.
            11 => {
                let p = self.pick(&inactive).unwrap_or(PlayerId(1));
                let m = self.moderator();
                vec![moderator(m, Command::Reenter { player: p })]
            }
            // A member volunteers as eliminator (or stands down).
            12 => {
                let p = self.pick(&members).unwrap_or(PlayerId(1));
                let command = if self.chance(70) {
                    Command::VolunteerEliminator { player: p }
                } else {
                    Command::StandDownEliminator { player: p }
                };
                vec![Request {
                    key: None,
                    actor: self.name_of(p),
                    what: What::Exec(command),
                    expected: None,
                }]
            }
            // A moderator undoes the last event.
            13 => {
                let m = self.moderator();
                vec![Request {
                    key: None,
                    actor: m,
                    what: What::Undo,
                    expected: None,
                }]
            }
            // Nonsense: games, players and reports that do not exist.
            14 => {
                let m = self.moderator();
                let games = self.truth.games.len() as u32;
                let command = match self.below(4) {
                    0 => Command::RecordResult {
                        game: GameId(games + 1 + self.below(3) as u32),
                        result: result_input(Outcome::Tie),
                        agreed: false,
                        at: now,
                    },
                    1 => Command::ConfirmResult {
                        game: GameId(1 + self.below(u64::from(games) + 1) as u32),
                        by: Confirmer::Moderator(m.clone()),
                        at: now,
                    },
                    2 => Command::Approve {
                        player: PlayerId(players + 5),
                    },
                    _ => Command::CloseRound { at: now },
                };
                vec![moderator(m, command)]
            }
            // A quick-round game between two members.
            _ => {
                let a = self.pick(&members).unwrap_or(PlayerId(1));
                let b = self.pick(&members).unwrap_or(PlayerId(2));
                let m = self.moderator();
                if round_open && self.chance(50) {
                    vec![moderator(
                        m,
                        Command::AddRoundGame {
                            player: a,
                            opponent: b,
                            reason: "joined late".into(),
                            at: now,
                        },
                    )]
                } else {
                    vec![moderator(
                        m,
                        Command::ScheduleQuickGame {
                            ussr: a,
                            us: b,
                            at: now,
                        },
                    )]
                }
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
        let result = deliver(service, &request, self.now).await;
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
                        if pinned_stale {
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

    fn acknowledge(&mut self, request: &Request, done: &Executed) -> Result<(), String> {
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
            payloads: done.events.iter().map(arbiter_record::encode).collect(),
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
        let svc = |i: usize| &self.services[i % self.services.len()];
        let results: Vec<Result<Executed, ServiceError>> = match items.as_slice() {
            [a, b] => {
                let (x, y) =
                    tokio::join!(deliver(svc(a.0), &a.1, now), deliver(svc(b.0), &b.1, now));
                vec![x, y]
            }
            [a, b, c] => {
                let (x, y, z) = tokio::join!(
                    deliver(svc(a.0), &a.1, now),
                    deliver(svc(b.0), &b.1, now),
                    deliver(svc(c.0), &c.1, now)
                );
                vec![x, y, z]
            }
            _ => {
                let mut out = Vec::new();
                for (i, r) in &items {
                    out.push(deliver(svc(*i), r, now).await);
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
            let event = arbiter_record::decode(&e.payload)
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
            self.truth = tws::fold(self.decoded.iter().map(|(s, e)| (*s, e)));
        }
        check_ladder(&self.truth)
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
                match svc.load(COMPETITION, None).await {
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
                .read(COMPETITION, |l, v| {
                    (v, (l != &self.truth).then(|| ladder_diff(l, &self.truth)))
                })
                .await
                .map_err(|e| format!("service {i} cannot read the ladder: {e}"))?;
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
                .load(COMPETITION, None)
                .await
                .map_err(|e| format!("a fresh service cannot load the ladder: {e}"))?;
            if v != version || ladder != self.truth {
                return Err(format!(
                    "a fresh service's fold is not the simulation's (version {v}): {}",
                    ladder_diff(&ladder, &self.truth)
                ));
            }
            let folded = tws::fold(self.decoded.iter().map(|(s, e)| (*s, e)));
            if folded != self.truth {
                return Err(format!(
                    "the engine's fold differs from the incremental one: {}",
                    ladder_diff(&folded, &self.truth)
                ));
            }
        }
        Ok(())
    }
}

/// The stored log `full` against the log read before and the acknowledged
/// commands; each key's events as one run (first, last).
pub(crate) fn check_log(
    full: &[StoredEvent],
    log: &[StoredEvent],
    acks: &[Ack],
) -> Result<BTreeMap<String, (Seq, Seq)>, String> {
    if full != log {
        return Err("an event already read was changed or removed".into());
    }
    for ack in acks {
        let stored = full
            .get(ack.first as usize - 1..ack.last as usize)
            .ok_or_else(|| {
                format!(
                    "acknowledged events {}..={} are not in the log: lost",
                    ack.first, ack.last
                )
            })?;
        for (e, payload) in stored.iter().zip(&ack.payloads) {
            if &e.payload != payload || e.idempotency_key != ack.key {
                return Err(format!(
                    "acknowledged event {} was replaced: {} (key {:?}) instead of {payload} (key {:?})",
                    e.seq, e.payload, e.idempotency_key, ack.key
                ));
            }
        }
    }
    // Each key's events are one run, recorded as the key's range.
    let mut runs: BTreeMap<String, (Seq, Seq)> = BTreeMap::new();
    for e in full {
        let Some(key) = &e.idempotency_key else {
            continue;
        };
        match runs.get_mut(key) {
            Some(run) if run.1 + 1 == e.seq => run.1 = e.seq,
            Some(run) => {
                return Err(format!(
                    "key {key} has events {}..={} and again {}: stored twice",
                    run.0, run.1, e.seq
                ));
            }
            None => {
                runs.insert(key.clone(), (e.seq, e.seq));
            }
        }
    }
    Ok(runs)
}

/// FNV-1a over each event's sequence, key and payload.
pub(crate) fn log_hash(log: &[StoredEvent]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for e in log {
        eat(&e.seq.to_le_bytes());
        eat(e.idempotency_key.as_deref().unwrap_or("").as_bytes());
        eat(&[0]);
        eat(e.payload.as_bytes());
        eat(e.recorded_at.as_bytes());
    }
    h
}
