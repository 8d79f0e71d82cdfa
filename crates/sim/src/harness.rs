//! The harness both simulations share: the world of a run (one
//! [`MemoryStore`] behind a [`FaultyStore`], several [`Service`]s over it,
//! the log as last read and its fold), the driver of a run (the creation,
//! the steps and their kinds: requests in order, shuffled, at once,
//! duplicated, retried, with a reused key or a stale pin; the last
//! retries), the delivery of requests alone or at once with a fault plan
//! armed, and the checks of every answer and of the whole state.
//!
//! A simulation ([`crate::sim`], the TWS ladder; [`crate::sim_league`], the
//! XMadn league) brings what differs, through `Sim`: its competition
//! format (state, commands, events and their codec), how a request reaches
//! the service, what the engine decides for it on the fold, its own
//! invariants, and the league's rolls, whose seeds only the service knows.
//! It says what its clients want next (`intention_commands`), when a
//! request is the same as a key's first (for a reused key), whether its
//! clock jumps ahead, and sums its own figures into its `Stats`.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::fmt;

use arbiter_engine::RuleError;
use arbiter_engine::model::Time;
use arbiter_service::{Context, Executed, Format, SeedSource, Service, ServiceError};
use arbiter_store::{EventStore, Seq, StoreError, StoredEvent};
use chrono::{Duration, TimeZone, Utc};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

use crate::faulty::{Call, FaultyStore, Injected, Mode, Plan, is_injected};
use crate::memory::MemoryStore;
use crate::seeds::Named;

pub(crate) const MODERATORS: [&str; 2] = ["Mod One", "Mod Two"];
/// The key of the creation (retried with it until the competition exists).
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

/// A broken invariant: the seed and step that reproduce it.
#[derive(Debug, Clone)]
pub struct Failure {
    /// Which simulation failed, as its report and replay command name it.
    pub named: Named,
    pub seed: u64,
    pub step: usize,
    pub message: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} seed {} failed at step {}: {}\n  replay it: SIM_SEED={} cargo test -p arbiter-sim --test {} replay -- --nocapture",
            self.named.name, self.seed, self.step, self.message, self.seed, self.named.test
        )
    }
}

/// A fresh current-thread runtime with a paused clock, for one seed (the
/// step this thread reports set back to 0).
pub(crate) fn runtime(named: Named, seed: u64) -> Result<tokio::runtime::Runtime, Failure> {
    STEP.with(|s| s.set(0));
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .map_err(|e| Failure {
            named,
            seed,
            step: 0,
            message: format!("cannot build the runtime: {e}"),
        })
}

/// A request as a client sends it; `W` is what it asks for, in the
/// simulation's terms.
#[derive(Debug, Clone)]
pub(crate) struct Request<W> {
    pub(crate) key: Option<String>,
    pub(crate) actor: String,
    pub(crate) what: W,
    /// The version the client pins, if it does.
    pub(crate) expected: Option<Seq>,
}

impl<W> Request<W> {
    /// The request's context as the service takes it, sent at `at`.
    pub(crate) fn context(&self, at: Time) -> Context {
        Context {
            actor: self.actor.clone(),
            at,
            idempotency_key: self.key.clone(),
            expected: self.expected,
        }
    }
}

/// An acknowledged command: its events must stay in the log.
#[derive(Debug)]
pub(crate) struct Ack {
    pub(crate) first: Seq,
    pub(crate) last: Seq,
    pub(crate) key: Option<String>,
    pub(crate) payloads: Vec<String>,
}

pub(crate) type Svc = Service<FaultyStore<MemoryStore>>;
/// The events of a simulation's format.
pub(crate) type Event<S> = <<S as Sim>::Format as Format>::Event;
/// A service's answer to a simulation's command.
pub(crate) type Done<S> = Executed<Event<S>>;
/// What the engine decides for a command on the fold of the log.
pub(crate) type Oracle<S> = Result<Vec<Event<S>>, RuleError>;

/// What one simulation brings to the harness: its competition, how its
/// requests reach the service, and what the engine says of them.
pub(crate) trait Sim: Sized {
    /// The competition's state, commands and events, and their codec.
    type Format: Format<Event: PartialEq> + PartialEq;
    /// What a request asks for.
    type What: Clone + fmt::Debug;
    /// The figures of a run.
    type Stats;
    /// The competition the simulation runs.
    const COMPETITION: &'static str;
    /// How failures name the competition ("ladder").
    const NOUN: &'static str;
    /// How reports name the simulation, and the test that replays a seed.
    const NAMED: Named;
    /// The creation, sent with [`CREATE_KEY`] until the competition exists.
    const CREATE: Self::What;
    /// Whether the clock jumps ahead now and then (25 to 60 days before a
    /// step), so that deadlines pass: the ladder's.
    const SKIPS_DAYS: bool;

    /// Send `request` to `svc`, at `at`.
    async fn deliver(
        &self,
        svc: &Svc,
        request: &Request<Self::What>,
        at: Time,
    ) -> Result<Done<Self>, ServiceError>;

    /// What the engine decides for `what` on the fold `truth`, where it
    /// can be known (the service answered `result`); asked only of a
    /// request decided on a known state: neither its key stored, nor its
    /// version gone, nor its key reused.
    fn oracle(
        &self,
        truth: &Self::Format,
        what: &Self::What,
        result: &Result<Done<Self>, ServiceError>,
        at: Time,
    ) -> Option<Oracle<Self>>;

    /// Whether `what` undoes the last event (which names no event, so a
    /// conflict may reach it unpinned).
    fn is_undo(what: &Self::What) -> bool;

    /// Whether `what`, refused where a replay of its key or a conflict with
    /// its pinned version was due, is tolerated and counted
    /// (`rolls_checked_late`): the league's rolls, unless strict.
    fn checked_late(&self, what: &Self::What) -> bool;

    /// The fold of the decoded log, as the service folds it.
    fn fold(decoded: &[(Seq, Event<Self>)]) -> Self::Format;

    /// The competition's own invariants.
    fn check(truth: &Self::Format) -> Result<(), String>;

    /// The first field where two states differ, for a readable failure.
    fn diff(got: &Self::Format, want: &Self::Format) -> String;

    /// Whether the state is created (the creation is sent until it is).
    fn created(truth: &Self::Format) -> bool;

    /// Whether `what` is not to be sent with a stored key whose first
    /// request asked for `first`: the service would take it for that
    /// request (a retry, which replays), or it is never sent reused (the
    /// league's rolls).
    fn same_request(what: &Self::What, first: Option<&Self::What>) -> bool;

    /// What a client wants next, from the state as it is, before the driver
    /// draws keys and pins for it: one request, or two that belong together
    /// (which a shuffle may reorder). Never the creation: the driver sends
    /// that alone, with [`CREATE_KEY`], until the competition exists, so
    /// no reused key or stale pin ever carries it.
    fn intention_commands(world: &mut World<Self>) -> Vec<Request<Self::What>>;

    /// The run's figures, at its end (see [`with_counts`]).
    fn stats(world: &World<Self>) -> Self::Stats;
}

/// What the harness counts of every run; a simulation's `Stats` takes them
/// (see [`with_counts`]) with its own figures.
#[derive(Debug, Clone, Default)]
pub(crate) struct Counts {
    pub(crate) seeds: u64,
    pub(crate) steps: u64,
    /// Requests delivered to a service (retries and duplicates included).
    pub(crate) deliveries: u64,
    /// Answered with new events.
    pub(crate) acknowledged: u64,
    /// Answered with the first outcome of their key.
    pub(crate) replayed: u64,
    /// Refused by the rules or by a check of the service (nothing stored).
    pub(crate) refused: u64,
    /// Refused because another writer got in first (pinned version).
    pub(crate) conflicts: u64,
    /// Refused because the key was used for another request.
    pub(crate) keys_reused: u64,
    /// Faults injected.
    pub(crate) faults: u64,
    /// Faults the service got over without failing the request.
    pub(crate) faults_absorbed: u64,
    /// Appends that landed before a crash that the client saw.
    pub(crate) landed_after_commit: u64,
    /// Requests retried with their key after a failure.
    pub(crate) retries: u64,
    /// Groups of requests run concurrently.
    pub(crate) concurrent_groups: u64,
    /// Refusals tolerated by [`Sim::checked_late`] (the league's).
    pub(crate) rolls_checked_late: u64,
}

/// A simulation's `Stats` from the harness's [`Counts`], the final log and
/// the simulation's own fields: both `Stats` have the counts as fields of
/// their own (flat, so that a summary prints on one line), and this names
/// them once.
macro_rules! with_counts {
    ($stats:ident { $($field:ident: $value:expr),* $(,)? }, $counts:expr, $log:expr) => {{
        let c: &$crate::harness::Counts = $counts;
        let log: &[arbiter_store::StoredEvent] = $log;
        $stats {
            seeds: c.seeds,
            steps: c.steps,
            deliveries: c.deliveries,
            acknowledged: c.acknowledged,
            replayed: c.replayed,
            refused: c.refused,
            conflicts: c.conflicts,
            keys_reused: c.keys_reused,
            faults: c.faults,
            faults_absorbed: c.faults_absorbed,
            landed_after_commit: c.landed_after_commit,
            retries: c.retries,
            concurrent_groups: c.concurrent_groups,
            events: log.len() as u64,
            log_hash: $crate::harness::log_hash(log),
            $($field: $value,)*
        }
    }};
}
pub(crate) use with_counts;

/// The seeded choices of a simulated world: every draw comes from its
/// ChaCha stream, in the order asked, so a seed replays exactly.
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

impl<S: Sim> Draws for World<S> {
    fn rng(&mut self) -> &mut ChaCha8Rng {
        &mut self.rng
    }
}

/// The world of one run; `sim` is what the simulation adds to it.
pub(crate) struct World<S: Sim> {
    pub(crate) seed: u64,
    pub(crate) config: Config,
    pub(crate) rng: ChaCha8Rng,
    pub(crate) sim: S,
    /// The store itself (no faults): what the checks read.
    pub(crate) store: MemoryStore,
    pub(crate) faulty: FaultyStore<MemoryStore>,
    pub(crate) services: Vec<Svc>,
    pub(crate) step: usize,
    pub(crate) now: Time,
    /// Days the clock jumped ahead (the ladder's deadlines pass: agreed
    /// results, adjudications, refusals of late results).
    pub(crate) skipped_days: i64,
    /// The log as last read, and decoded.
    pub(crate) log: Vec<StoredEvent>,
    pub(crate) decoded: Vec<(Seq, Event<S>)>,
    /// The fold of the log.
    pub(crate) truth: S::Format,
    /// Keys known to be in the store (acknowledged, or landed before a
    /// crash), with their events.
    pub(crate) stored_keys: BTreeMap<String, (Seq, Seq)>,
    /// Every keyed request sent, by key (the first request of the key).
    pub(crate) sent: BTreeMap<String, Request<S::What>>,
    pub(crate) acks: Vec<Ack>,
    /// Requests that failed on a fault, to be retried with their key.
    pub(crate) retry: Vec<Request<S::What>>,
    pub(crate) next_key: u64,
    pub(crate) counts: Counts,
}

/// The outcome of one delivery of a group.
pub(crate) struct Delivered<S: Sim> {
    request: Request<S::What>,
    result: Result<Done<S>, ServiceError>,
}

/// A delivery (or a group) as a failure names it, formatted only then.
pub(crate) enum Shown<'a, S: Sim> {
    One(&'a Request<S::What>, &'a Result<Done<S>, ServiceError>),
    AtOnce(&'a [Delivered<S>]),
}

impl<S: Sim> fmt::Display for Shown<'_, S> {
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

fn describe<E>(result: &Result<Executed<E>, ServiceError>) -> String {
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

impl<S: Sim> World<S> {
    /// A world before the creation; `sim` makes the simulation's own part,
    /// drawing from the seed's stream first if it draws at all.
    pub(crate) fn new(seed: u64, config: Config, sim: impl FnOnce(&mut ChaCha8Rng) -> S) -> Self {
        let store = MemoryStore::new();
        let faulty = FaultyStore::new(store.clone());
        let services = (0..config.services.max(1))
            .map(|_| {
                Service::new(faulty.clone())
                    .with_seeds(SeedSource::Deterministic(format!("sim-{seed}")))
            })
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let sim = sim(&mut rng);
        Self {
            seed,
            config,
            rng,
            sim,
            store,
            faulty,
            services,
            step: 0,
            now: start(),
            skipped_days: 0,
            log: Vec::new(),
            decoded: Vec::new(),
            truth: S::Format::default(),
            stored_keys: BTreeMap::new(),
            sent: BTreeMap::new(),
            acks: Vec::new(),
            retry: Vec::new(),
            next_key: 0,
            counts: Counts {
                seeds: 1,
                ..Counts::default()
            },
        }
    }

    /// Times are derived from the step (an hour each) and the days skipped.
    pub(crate) fn set_step(&mut self, step: usize) {
        self.step = step;
        STEP.with(|s| s.set(step));
        self.now = start() + Duration::hours(step as i64) + Duration::days(self.skipped_days);
    }

    pub(crate) fn fail(&self, message: String) -> Failure {
        Failure {
            named: S::NAMED,
            seed: self.seed,
            step: self.step,
            message,
        }
    }

    pub(crate) fn fresh_key(&mut self) -> String {
        self.next_key += 1;
        format!("k{}", self.next_key)
    }

    pub(crate) fn moderator(&mut self) -> String {
        MODERATORS[self.below(2) as usize].to_owned()
    }

    /// Deliver one request alone (with `plan` armed) and check its answer.
    pub(crate) async fn deliver_one(
        &mut self,
        svc: usize,
        request: Request<S::What>,
        plan: Option<Plan>,
        reuse: bool,
    ) -> Result<(), String> {
        let before = self.log.len() as Seq;
        let known = request
            .key
            .as_ref()
            .and_then(|k| self.stored_keys.get(k).copied());
        let pinned_stale = request.expected.is_some_and(|e| e != before);
        let mark = self.faulty.injected_count();
        if let Some(plan) = plan {
            self.faulty.arm(plan);
        }
        let Some(service) = self.services.get(svc) else {
            return Err(format!("no service {svc}"));
        };
        let result = self.sim.deliver(service, &request, self.now).await;
        // The engine's decision on the fold, for a request decided on a
        // known state (the league's rolls are decided again with the seeds
        // the service revealed and committed).
        let oracle = if known.is_none() && !pinned_stale && !reuse {
            self.sim
                .oracle(&self.truth, &request.what, &result, self.now)
        } else {
            None
        };
        self.faulty.disarm();
        let faults = self.faulty.injected_since(mark);
        self.counts.deliveries += 1;
        self.counts.faults += faults.len() as u64;
        let after = self.version().await?;
        let what = Shown::<S>::One(&request, &result);
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
            self.counts.faults_absorbed += faults.len() as u64;
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
                self.counts.replayed += 1;
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
                self.counts.keys_reused += 1;
            }
            // `league_roll` decides on the current league before it looks
            // at the key: a retry of a roll that was stored is refused by
            // the rules instead of replayed (reported, counted).
            // (Or, when the league now needs the other kind of roll, as
            // a key reused for another request.)
            (
                Err(ServiceError::Rule(_) | ServiceError::Store(StoreError::KeyReused { .. })),
                Some(_),
            ) if self.sim.checked_late(&request.what) => {
                if growth != 0 {
                    return Err(format!("{what}: a refused roll stored {growth} events"));
                }
                self.counts.rolls_checked_late += 1;
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
                        self.counts.conflicts += 1;
                    }
                    ServiceError::Store(_) | ServiceError::Record { .. } => {
                        return Err(format!("{what}: a storage error without a fault"));
                    }
                    ServiceError::Rule(rule) => {
                        if pinned_stale && self.sim.checked_late(&request.what) {
                            // The same: the rules before the pinned version.
                            self.counts.rolls_checked_late += 1;
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
                        self.counts.refused += 1;
                    }
                    ServiceError::Input(_)
                    | ServiceError::NotFound(_)
                    | ServiceError::Exists(_) => {
                        if let Some(Ok(_)) = &oracle {
                            return Err(format!(
                                "{what}: refused, but the engine accepts it on the fold of the log"
                            ));
                        }
                        self.counts.refused += 1;
                    }
                }
            }
        }
        self.refresh().await
    }

    /// Keys of appends that landed before a crash are now in the store.
    /// Returns how many events landed.
    fn take_landed(&mut self, faults: &[Injected], what: &Shown<'_, S>) -> Result<Seq, String> {
        let mut landed = 0;
        for f in faults {
            let Some(a) = &f.landed else { continue };
            landed += a.last - a.first + 1;
            self.counts.landed_after_commit += 1;
            // The key of the landed append: read from the events.
            let key = self
                .store
                .inspect(S::COMPETITION, |log| {
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

    fn acknowledge(&mut self, request: &Request<S::What>, done: &Done<S>) -> Result<(), String> {
        self.counts.acknowledged += 1;
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
            payloads: done.events.iter().map(S::Format::encode).collect(),
        });
        Ok(())
    }

    /// Deliver two or three requests at once on one task, the store
    /// yielding between calls, and check what they did together.
    pub(crate) async fn deliver_concurrently(
        &mut self,
        items: Vec<(usize, Request<S::What>)>,
        plan: Option<Plan>,
    ) -> Result<(), String> {
        self.counts.concurrent_groups += 1;
        let before = self.log.len() as Seq;
        let mark = self.faulty.injected_count();
        let yield_seed = self.rng.next_u64();
        self.faulty.set_yields(yield_seed, 400);
        if let Some(plan) = plan {
            self.faulty.arm(plan);
        }
        let now = self.now;
        let sim = &self.sim;
        let svc = |i: usize| &self.services[i % self.services.len()];
        let results: Vec<Result<Done<S>, ServiceError>> = match items.as_slice() {
            [a, b] => {
                let (x, y) = tokio::join!(
                    sim.deliver(svc(a.0), &a.1, now),
                    sim.deliver(svc(b.0), &b.1, now)
                );
                vec![x, y]
            }
            [a, b, c] => {
                let (x, y, z) = tokio::join!(
                    sim.deliver(svc(a.0), &a.1, now),
                    sim.deliver(svc(b.0), &b.1, now),
                    sim.deliver(svc(c.0), &c.1, now)
                );
                vec![x, y, z]
            }
            _ => {
                let mut out = Vec::new();
                for (i, r) in &items {
                    out.push(sim.deliver(svc(*i), r, now).await);
                }
                out
            }
        };
        self.faulty.disarm();
        self.faulty.set_yields(0, 0);
        let faults = self.faulty.injected_since(mark);
        self.counts.deliveries += items.len() as u64;
        self.counts.faults += faults.len() as u64;
        let after = self.version().await?;
        let delivered: Vec<Delivered<S>> = items
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
                self.counts.faults_absorbed += 1;
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
                    if d.request.expected.is_none() && !S::is_undo(&d.request.what) {
                        return Err(format!(
                            "{what}: a conflict reached a caller who did not pin a version"
                        ));
                    }
                    self.counts.conflicts += 1;
                }
                // A roll whose key is stored, sent again: `league_roll`
                // decided the other kind of roll first (see `deliver_one`).
                Err(ServiceError::Store(StoreError::KeyReused { .. }))
                    if self.sim.checked_late(&d.request.what)
                        && d.request
                            .key
                            .as_ref()
                            .is_some_and(|k| self.stored_keys.contains_key(k)) =>
                {
                    self.counts.rolls_checked_late += 1;
                }
                Err(ServiceError::Store(_) | ServiceError::Record { .. }) => {
                    return Err(format!("{what}: a storage error without a fault"));
                }
                Err(_) => self.counts.refused += 1,
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
                self.counts.replayed += 1;
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
            .version(S::COMPETITION)
            .await
            .map_err(|e| format!("the memory store failed: {e}"))
    }

    /// Read the new events, check they follow without a gap, and fold them.
    async fn refresh(&mut self) -> Result<(), String> {
        let known = self.log.len() as Seq;
        let version = self.version().await?;
        let new = self
            .store
            .read(S::COMPETITION, known + 1, None)
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
            if e.seq != seq || e.competition != S::COMPETITION {
                return Err(format!(
                    "event {} of {} where {seq} was due",
                    e.seq, e.competition
                ));
            }
            let event = S::Format::decode(&e.payload)
                .map_err(|err| format!("event {seq} cannot be decoded: {err}"))?;
            if e.kind != S::Format::kind(&event) {
                return Err(format!(
                    "event {seq} is stored as {} but is {}",
                    e.kind,
                    S::Format::kind(&event)
                ));
            }
            if S::Format::reverted(&event).is_some() {
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
            self.truth = S::fold(&self.decoded);
        }
        S::check(&self.truth)
    }

    /// Everything: the log unchanged and gapless, acknowledged commands in
    /// it, keys stored once, every service's state equal to the fold (and a
    /// fresh service's, when `fresh`).
    pub(crate) async fn check_all(&mut self, fresh: bool) -> Result<(), String> {
        self.refresh().await?;
        let (log, acks) = (&self.log, &self.acks);
        let runs = self
            .store
            .inspect(S::COMPETITION, |full| check_log(full, log, acks))
            .map_err(|e| format!("the memory store failed: {e}"))??;
        if runs != self.stored_keys {
            return Err(format!(
                "the keys in the log {runs:?} are not those acknowledged or landed {:?}",
                self.stored_keys
            ));
        }
        let records = self
            .store
            .keys(S::COMPETITION)
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
                match svc.load_as::<S::Format>(S::COMPETITION, None).await {
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
                .read_as::<S::Format, _>(S::COMPETITION, |state, v| {
                    (
                        v,
                        (state != &self.truth).then(|| S::diff(state, &self.truth)),
                    )
                })
                .await
                .map_err(|e| format!("service {i} cannot read the {}: {e}", S::NOUN))?;
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
            let (state, v) = svc
                .load_as::<S::Format>(S::COMPETITION, None)
                .await
                .map_err(|e| format!("a fresh service cannot load the {}: {e}", S::NOUN))?;
            if v != version || state != self.truth {
                return Err(format!(
                    "a fresh service's fold is not the simulation's (version {v}): {}",
                    S::diff(&state, &self.truth)
                ));
            }
            let folded = S::fold(&self.decoded);
            if folded != self.truth {
                return Err(format!(
                    "the engine's fold differs from the incremental one: {}",
                    S::diff(&folded, &self.truth)
                ));
            }
        }
        Ok(())
    }
}

/// The driver both simulations share: the creation, the steps and the last
/// retries, and the kinds of step (requests in order, shuffled, at once,
/// duplicated, retried, with a reused key or a stale pin); the requests
/// themselves are the simulation's ([`Sim::intention_commands`]).
impl<S: Sim> World<S> {
    /// Run the simulation: a broken invariant becomes a [`Failure`] that
    /// names the seed and the step.
    pub(crate) async fn run(mut self) -> Result<S::Stats, Failure> {
        match self.run_inner().await {
            Ok(()) => Ok(S::stats(&self)),
            Err(message) => Err(self.fail(message)),
        }
    }

    async fn run_inner(&mut self) -> Result<(), String> {
        // Creation, retried with its key until the competition exists.
        let mut step = 0;
        while !S::created(&self.truth) {
            self.set_step(step);
            step += 1;
            if step > 50 {
                return Err(format!("the {} was not created in 50 attempts", S::NOUN));
            }
            let request = Request {
                key: Some(CREATE_KEY.to_owned()),
                actor: MODERATORS[0].to_owned(),
                what: S::CREATE,
                expected: None,
            };
            let svc = self.below(self.services.len() as u64) as usize;
            let plan = self.random_plan();
            self.deliver_one(svc, request, plan, false).await?;
            self.retry.clear();
            self.check_all(false).await?;
        }
        for s in 0..self.config.steps {
            // Only a simulation whose clock jumps draws for it: the
            // league's stream has no such draw.
            if S::SKIPS_DAYS && self.chance(8) {
                self.skipped_days += 25 + self.below(36) as i64;
            }
            self.set_step(step + s);
            self.counts.steps += 1;
            self.one_step().await?;
            let fresh = (s + 1) % self.config.fresh_every.max(1) == 0;
            self.check_all(fresh).await?;
        }
        // The clients retry whatever is still in doubt, without faults.
        self.set_step(step + self.config.steps);
        let pending = std::mem::take(&mut self.retry);
        for request in pending {
            self.counts.retries += 1;
            let svc = self.below(self.services.len() as u64) as usize;
            self.deliver_one(svc, request, None, false).await?;
        }
        self.check_all(true).await
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
                let mut group: Vec<Request<S::What>> = Vec::new();
                let n = 2 + self.below(2) as usize;
                while group.len() < n {
                    group.extend(self.intention());
                }
                group.truncate(n);
                let items: Vec<(usize, Request<S::What>)> = group
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
                    self.counts.retries += 1;
                    let svc = self.below(services) as usize;
                    let plan = self.random_plan();
                    self.deliver_one(svc, request, plan, false).await?;
                }
            }
            // A stored key reused for another request (not for one the
            // service would take for the key's own: that is a duplicate).
            95..98 => {
                let keys: Vec<String> = self.stored_keys.keys().cloned().collect();
                if let Some(key) = self.pick(&keys) {
                    let mut request = self.intention().remove(0);
                    let first = self.sent.get(&key).map(|r| &r.what);
                    let same = S::same_request(&request.what, first);
                    if !same {
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
                if version > 0 {
                    request.expected = Some(version - 1 - self.below(version.min(3)));
                    request.key = Some(self.fresh_key());
                    let svc = self.below(services) as usize;
                    self.deliver_one(svc, request, None, false).await?;
                }
            }
        }
        Ok(())
    }

    /// What a client wants next, from the competition as it is: the
    /// simulation's requests, most of them with a fresh key, a few pinned
    /// to the version as it is.
    fn intention(&mut self) -> Vec<Request<S::What>> {
        let mut out = S::intention_commands(self);
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
}

/// The simulated clock at step 0.
fn start() -> Time {
    Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0)
        .single()
        .unwrap_or_default()
}

/// The stored log `full` against the log read before and the acknowledged
/// commands; each key's events as one run (first, last).
fn check_log(
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
