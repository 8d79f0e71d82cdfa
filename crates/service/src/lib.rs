//! The command path shared by every front end (the `arbiter` CLI now, the
//! server later): load a competition by folding its events from the store,
//! decide a command with the engine, encode the events, append them with
//! optimistic concurrency and an idempotency key, and keep the folded state
//! cached for the next command.
//!
//! Also here: the serializable views of a ladder (for `--json` and the API)
//! and the forum texts (BBCode, Markdown).

pub mod carry_over;
pub mod clinch;
pub mod csv;
pub mod format;
pub mod forum;
pub mod history;
pub mod insight;
pub mod installation;
pub mod notify;
pub mod roundrobin;
pub mod summary;
pub mod sunjang;
pub mod sunjang_carry;
pub mod transfer;
pub mod tws;
pub mod views;
pub mod what_if;
pub mod xmadn;
pub mod xmadn_carry;

use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use arbiter_engine::RuleError;
use arbiter_engine::draw::{self, Seed};
use arbiter_engine::model::Time;
use arbiter_engine::tws::{Command, Event, Ladder, LadderRules, PairingPlan};
use arbiter_record::RecordError;
use arbiter_store::{EventStore, Idempotency, NewEvent, Seq, StoreError};

pub use format::Format;

/// Why a command did not go through. Nothing was stored in any case.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The rules refuse the command.
    #[error(transparent)]
    Rule(#[from] RuleError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("event {seq} of {competition} cannot be read: {source}")]
    Record {
        competition: String,
        seq: Seq,
        source: RecordError,
    },
    #[error("there is no competition {0:?}; `arbiter competition list` shows the competitions")]
    NotFound(String),
    #[error("competition {0:?} already exists")]
    Exists(String),
    #[error("{0}")]
    Input(String),
}

pub type Result<T, E = ServiceError> = std::result::Result<T, E>;

/// Who does something, when, and how to recognise a retry.
#[derive(Debug, Clone)]
pub struct Context {
    pub actor: String,
    pub at: Time,
    /// Names one request. The same key with the same request (see
    /// [`fingerprint`]; its time does not count) is answered with the first
    /// outcome and stores nothing; the same key with a different request is
    /// refused with [`StoreError::KeyReused`].
    pub idempotency_key: Option<String>,
    /// The version the caller saw; `None` to take the current one.
    pub expected: Option<Seq>,
}

impl Context {
    pub fn new(actor: impl Into<String>, at: Time) -> Self {
        Self {
            actor: actor.into(),
            at,
            idempotency_key: None,
            expected: None,
        }
    }
}

/// What an executed command did.
#[derive(Debug, Clone)]
pub struct Executed<E = Event> {
    pub first: Seq,
    pub last: Seq,
    /// The events, when decided now (empty on an idempotent replay).
    pub events: Vec<E>,
    /// True when the idempotency key had been used: nothing new was stored.
    pub replayed: bool,
}

/// One entry of a competition's history.
#[derive(Debug, Clone)]
pub struct HistoryEntry<E = Event> {
    pub seq: Seq,
    pub kind: String,
    pub actor: String,
    pub recorded_at: String,
    pub event: E,
    /// Undone by a later `reverted` event.
    pub reverted: bool,
}

/// A competition's folded state (of its format) and the version it is at.
#[derive(Debug)]
struct Cached {
    version: Seq,
    state: Box<dyn Any + Send>,
}

impl Cached {
    fn new<F: Format>(version: Seq, state: F) -> Self {
        Self {
            version,
            state: Box::new(state),
        }
    }

    fn state<F: Format>(&self) -> Option<&F> {
        self.state.downcast_ref::<F>()
    }

    fn state_mut<F: Format>(&mut self) -> Option<&mut F> {
        self.state.downcast_mut::<F>()
    }
}

/// How many times a command is decided again after another writer got in
/// first (when the caller did not pin a version).
const RETRIES: usize = 12;

/// The command path over one store.
#[derive(Debug)]
pub struct Service<S> {
    store: S,
    /// Per competition: its folded state and version, behind an async lock
    /// that also serialises this process's commands on the competition.
    cache: Mutex<HashMap<String, Slot>>,
    seeds: SeedSource,
    /// How many pauses after a lost race this service has taken (their
    /// jitter is a draw numbered by the count).
    pauses: std::sync::atomic::AtomicU32,
}

type Slot = Arc<tokio::sync::Mutex<Option<Cached>>>;

/// The fingerprint of a request to [`Service::execute`], stored with its
/// idempotency key: hex of the SHA-256 of the command with its time left out
/// ([`Command::without_time`]), so that a retry at a later time is the same
/// request and another command with the same key is not.
pub fn fingerprint(command: &Command) -> String {
    request_fingerprint::<Ladder>(command)
}

/// The fingerprint of a command of format `F` (see [`fingerprint`]).
pub fn request_fingerprint<F: Format>(command: &F::Command) -> String {
    sha256_hex(&F::request(command))
}

/// The fingerprint of a request to [`Service::announce_round`]: its deadline
/// and pairing plan (the seeds are drawn by the service, the time is when).
fn announce_fingerprint(deadline: Option<Time>, plan: &PairingPlan) -> String {
    sha256_hex(&format!("announce {deadline:?} {plan:?}"))
}

/// The fingerprint of a request to [`Service::create_ladder`].
fn create_fingerprint(name: &str, rules: &LadderRules, moderators: &[String]) -> String {
    sha256_hex(&format!("create {name:?} {rules:?} {moderators:?}"))
}

/// The fingerprint of a request to [`Service::undo`], which names no event:
/// "undo the last event", whichever it is when the request first runs.
const UNDO_FINGERPRINT: &str = "undo";

fn sha256_hex(text: &str) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(text.as_bytes()))
}

fn seed_secret_name(hash: &[u8; 32]) -> String {
    format!("draw-seed:{}", hex::encode(hash))
}

/// Where draw seeds come from.
#[derive(Debug, Clone)]
pub enum SeedSource {
    /// The operating system's randomness: the default, and the only choice
    /// for real competitions.
    Os,
    /// SHA-256 of (base, competition, seed number): reproducible draws for
    /// tests and examples. Anyone who knows the base can predict the draws.
    Deterministic(String),
}

impl SeedSource {
    /// The seed numbered `n` (1 at creation, round + 1 after round `round`).
    fn seed(&self, competition: &str, n: u32) -> Result<Seed> {
        match self {
            SeedSource::Os => {
                let mut seed = [0u8; 32];
                getrandom::fill(&mut seed).map_err(|e| {
                    ServiceError::Input(format!(
                        "the system has no randomness for a draw seed: {e}"
                    ))
                })?;
                Ok(seed)
            }
            SeedSource::Deterministic(base) => {
                use sha2::Digest;
                let mut h = sha2::Sha256::new();
                h.update(base.as_bytes());
                h.update([0]);
                h.update(competition.as_bytes());
                h.update(n.to_le_bytes());
                Ok(h.finalize().into())
            }
        }
    }
}

/// The pause before deciding again after losing a race for the `attempt`-th
/// time: 1, 2, 4 … ms (at most 64), plus up to as much again of jitter, so
/// that writers that collided do not collide again in step. The jitter is
/// a draw of the service's [`SeedSource`], numbered by `n`, the count of
/// the service's pauses so far: fresh randomness, or with deterministic
/// seeds the same draws on every run (none if the system has no
/// randomness: the pause is then the base alone), so that a simulation on a paused
/// clock replays exactly (the clock's nanoseconds, used before, changed
/// which racing writer woke first from one run to the next). Its name is
/// no competition id (those are lowercase), so it is never a draw's.
fn pause(seeds: &SeedSource, attempt: usize, n: u32) -> std::time::Duration {
    let limit = 1000u64 << attempt.min(6);
    let jitter = seeds.seed("Backoff", n).map_or(0, |seed| {
        let mut first = [0u8; 8];
        first.copy_from_slice(&seed[..8]);
        u64::from_le_bytes(first)
    }) % limit;
    std::time::Duration::from_micros(limit + jitter)
}

/// Decode a stored event, naming it when it cannot be read.
fn decode_stored<F: Format>(
    competition: &str,
    stored: &arbiter_store::StoredEvent,
) -> Result<F::Event> {
    F::decode(&stored.payload).map_err(|source| ServiceError::Record {
        competition: competition.to_string(),
        seq: stored.seq,
        source,
    })
}

/// Fold one stored event into `ladder`, checked once: an event that does not
/// fit the events before it means the log is damaged.
fn apply_stored<F: Format>(
    competition: &str,
    state: &mut F,
    seq: Seq,
    event: &F::Event,
) -> Result<()> {
    state.try_apply(event).map_err(|e| {
        ServiceError::Input(format!(
            "event {seq} of {competition} does not fit the events before it ({}); the log is damaged",
            e.message
        ))
    })
}

/// Refuse when the caller pinned a version that is not the current one.
fn check_expected(ctx: &Context, competition: &str, version: Seq) -> Result<()> {
    match ctx.expected {
        Some(expected) if expected != version => Err(StoreError::Conflict {
            competition: competition.to_string(),
            expected,
            actual: version,
        }
        .into()),
        _ => Ok(()),
    }
}

/// A competition id: lowercase letters, digits and dashes, 1 to 64.
pub fn check_competition_id(id: &str) -> Result<()> {
    let ok = !id.is_empty()
        && id.len() <= 64
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !id.starts_with('-');
    if ok {
        Ok(())
    } else {
        Err(ServiceError::Input(format!(
            "competition id {id:?} must be 1 to 64 lowercase letters, digits and dashes, like `tws-ladder`"
        )))
    }
}

impl<S: EventStore> Service<S> {
    pub fn new(store: S) -> Self {
        Self {
            store,
            cache: Mutex::new(HashMap::new()),
            seeds: SeedSource::Os,
            pauses: std::sync::atomic::AtomicU32::new(0),
        }
    }

    /// A pause before deciding again after losing a race (see [`pause`]).
    async fn backoff(&self, attempt: usize) {
        let n = self
            .pauses
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        tokio::time::sleep(pause(&self.seeds, attempt, n)).await;
    }

    /// Use another source of draw seeds (see [`SeedSource`]).
    #[must_use]
    pub fn with_seeds(mut self, seeds: SeedSource) -> Self {
        self.seeds = seeds;
        self
    }

    /// Where this service's draw seeds come from.
    pub fn seeds(&self) -> &SeedSource {
        &self.seeds
    }

    pub fn store(&self) -> &S {
        &self.store
    }

    pub async fn competitions(&self) -> Result<Vec<String>> {
        Ok(self.store.competitions().await?)
    }

    /// The events of a ladder (up to `as_of`), decoded, with undo marks.
    pub async fn history(
        &self,
        competition: &str,
        as_of: Option<Seq>,
    ) -> Result<Vec<HistoryEntry>> {
        self.history_of::<Ladder>(competition, as_of).await
    }

    /// The format of a competition: the kind of its first event (see
    /// [`Format::CREATED`]).
    pub async fn kind_of(&self, competition: &str) -> Result<String> {
        let first = self.store.read(competition, 1, Some(1)).await?;
        first
            .into_iter()
            .next()
            .map(|e| e.kind)
            .ok_or_else(|| ServiceError::NotFound(competition.to_string()))
    }

    /// The format of a competition.
    pub async fn format_of(&self, competition: &str) -> Result<format::CompetitionFormat> {
        let kind = self.kind_of(competition).await?;
        format::CompetitionFormat::of_kind(&kind).ok_or_else(|| {
            ServiceError::Input(format!(
                "competition {competition:?} begins with a {kind:?} event, of no format this program knows; the log is damaged"
            ))
        })
    }

    /// A competition's line in the list of competitions.
    pub async fn summary(&self, id: &str) -> Result<format::CompetitionSummary> {
        let format = self.format_of(id).await?;
        with_format!(format, |F| {
            self.read_as::<F, _>(id, |c, version| format::CompetitionSummary {
                id: id.to_string(),
                name: c.title().to_string(),
                format,
                members: c.members(),
                rounds: c.rounds(),
                version,
                time_zone: arbiter_engine::zone::Zoned::zone(c).name().to_string(),
            })
            .await
        })
    }

    /// A competition of whatever format it is, loaded (see
    /// [`format::AnyCompetition`]), with its version.
    pub async fn load_any(
        &self,
        competition: &str,
    ) -> Result<(Arc<dyn format::AnyCompetition>, Seq)> {
        with_format!(self.format_of(competition).await?, |F| {
            let (state, version) = self.load_as::<F>(competition, None).await?;
            let state: Arc<dyn format::AnyCompetition> = Arc::new(state);
            Ok((state, version))
        })
    }

    /// Refuse a competition of another format than `F`, naming both.
    async fn check_format<F: Format>(&self, competition: &str) -> Result<()> {
        let kind = self.kind_of(competition).await?;
        if kind == F::CREATED {
            return Ok(());
        }
        let what = format::CompetitionFormat::of_kind(&kind)
            .map_or("of an unknown format", format::CompetitionFormat::words);
        Err(ServiceError::Input(format!(
            "competition {competition:?} is {what}, not {}",
            F::NAME
        )))
    }

    /// The events of a competition of format `F` (up to `as_of`), decoded,
    /// with undo marks.
    pub async fn history_of<F: Format>(
        &self,
        competition: &str,
        as_of: Option<Seq>,
    ) -> Result<Vec<HistoryEntry<F::Event>>> {
        let stored = self.store.read(competition, 1, as_of).await?;
        let Some(first) = stored.first() else {
            return Err(ServiceError::NotFound(competition.to_string()));
        };
        if first.kind != F::CREATED {
            self.check_format::<F>(competition).await?;
        }
        let mut out = Vec::with_capacity(stored.len());
        for s in stored {
            let event = decode_stored::<F>(competition, &s)?;
            out.push(HistoryEntry {
                seq: s.seq,
                kind: s.kind,
                actor: s.actor,
                recorded_at: s.recorded_at,
                event,
                reverted: false,
            });
        }
        let reverted: std::collections::HashSet<Seq> =
            out.iter().filter_map(|h| F::reverted(&h.event)).collect();
        for h in &mut out {
            if reverted.contains(&h.seq) {
                h.reverted = true;
            }
        }
        Ok(out)
    }

    /// The ladder as of event `as_of` (or now), with its version.
    pub async fn load(&self, competition: &str, as_of: Option<Seq>) -> Result<(Ladder, Seq)> {
        self.load_as::<Ladder>(competition, as_of).await
    }

    /// The state of a competition of format `F` as of event `as_of` (or
    /// now), with its version.
    pub async fn load_as<F: Format>(
        &self,
        competition: &str,
        as_of: Option<Seq>,
    ) -> Result<(F, Seq)> {
        if as_of.is_some() {
            let (state, version) = self.fold_from_store::<F>(competition, as_of).await?;
            return Ok((state, version));
        }
        self.read_as::<F, _>(competition, |l, v| (l.clone(), v))
            .await
    }

    /// Look at the current ladder without copying it.
    pub async fn read<T>(&self, competition: &str, f: impl FnOnce(&Ladder, Seq) -> T) -> Result<T> {
        self.read_as::<Ladder, T>(competition, f).await
    }

    /// Look at the current state without copying it. The cached state is
    /// checked against the store's version first (another process may have
    /// written since).
    pub async fn read_as<F: Format, T>(
        &self,
        competition: &str,
        f: impl FnOnce(&F, Seq) -> T,
    ) -> Result<T> {
        let slot = self.slot(competition);
        let mut guard = slot.lock().await;
        let current = self.store.version(competition).await?;
        // Behind another process: apply only what it appended.
        if let Some(cached) = guard.as_mut()
            && cached.version < current
            && cached.state::<F>().is_some()
            && self.catch_up::<F>(competition, cached).await.is_err()
        {
            *guard = None;
        }
        if guard
            .as_ref()
            .is_none_or(|c| c.version != current || c.state::<F>().is_none())
        {
            let (state, version) = self.fold_from_store::<F>(competition, None).await?;
            *guard = Some(Cached::new(version, state));
        }
        match guard
            .as_ref()
            .and_then(|c| Some((c.state::<F>()?, c.version)))
        {
            Some((state, version)) => Ok(f(state, version)),
            None => Err(ServiceError::NotFound(competition.to_string())),
        }
    }

    /// Fold the stored log, checking every event against the state before it.
    async fn fold_from_store<F: Format>(
        &self,
        competition: &str,
        as_of: Option<Seq>,
    ) -> Result<(F, Seq)> {
        let history = self.history_of::<F>(competition, as_of).await?;
        let version = history.last().map_or(0, |h| h.seq);
        let mut state = F::default();
        for h in history.iter().filter(|h| !h.reverted) {
            apply_stored(competition, &mut state, h.seq, &h.event)?;
        }
        Ok((state, version))
    }

    /// Bring a cached state up to the store's version by applying only the
    /// events appended since (a full fold again if one of them is an undo).
    async fn catch_up<F: Format>(&self, competition: &str, cached: &mut Cached) -> Result<()> {
        let newer = self
            .store
            .read(competition, cached.version + 1, None)
            .await?;
        let mut events = Vec::with_capacity(newer.len());
        for stored in &newer {
            let event = decode_stored::<F>(competition, stored)?;
            if F::reverted(&event).is_some() || cached.state::<F>().is_none() {
                let (state, version) = self.fold_from_store::<F>(competition, None).await?;
                *cached = Cached::new(version, state);
                return Ok(());
            }
            events.push((stored.seq, event));
        }
        for (seq, event) in &events {
            if let Some(state) = cached.state_mut::<F>() {
                apply_stored(competition, state, *seq, event)?;
            }
            cached.version = *seq;
        }
        Ok(())
    }

    fn slot(&self, competition: &str) -> Slot {
        match self.cache.lock() {
            Ok(mut c) => Arc::clone(c.entry(competition.to_string()).or_default()),
            // A poisoned map only means another thread panicked while
            // holding it; work without the cache.
            Err(_) => Slot::default(),
        }
    }

    /// Create a ladder. Commits the first draw seed (kept secret until the
    /// first round reveals it).
    pub async fn create_ladder(
        &self,
        competition: &str,
        name: &str,
        rules: LadderRules,
        moderators: &[String],
        ctx: &Context,
    ) -> Result<Executed> {
        check_competition_id(competition)?;
        let fingerprint = create_fingerprint(name, &rules, moderators);
        if let Some(done) = self.replay(competition, ctx, &fingerprint).await? {
            return Ok(done);
        }
        if self.store.version(competition).await? > 0 {
            return Err(ServiceError::Exists(competition.to_string()));
        }
        let seed = self.seeds.seed(competition, 1)?;
        let hash = draw::commitment(&seed);
        self.store
            .put_secret(competition, &seed_secret_name(&hash), &hex::encode(seed))
            .await?;
        let ladder = Ladder::default();
        let mut events = ladder.decide(Command::Create {
            name: name.to_string(),
            rules,
            seed_hash: hash,
        })?;
        let mut state = ladder;
        for e in &events {
            state.apply(e);
        }
        for m in moderators {
            let more = state.decide(Command::AddModerator { name: m.clone() })?;
            for e in &more {
                state.apply(e);
            }
            events.extend(more);
        }
        self.append::<Ladder>(competition, 0, events, ctx, &fingerprint, state)
            .await
    }

    /// Announce the next round: closes the previous round first when all
    /// its games are resolved ("The next round will start as soon as the
    /// current round is completed"), reveals the committed seed and commits
    /// the next one. With `preview`, nothing is stored.
    pub async fn announce_round(
        &self,
        competition: &str,
        deadline: Option<Time>,
        plan: PairingPlan,
        preview: bool,
        ctx: &Context,
    ) -> Result<(Ladder, Executed)> {
        let fingerprint = announce_fingerprint(deadline, &plan);
        if !preview && let Some(done) = self.replay(competition, ctx, &fingerprint).await? {
            let (state, _) = self.load(competition, None).await?;
            return Ok((state, done));
        }
        for attempt in 0..RETRIES {
            let (mut state, version) = self.load(competition, None).await?;
            check_expected(ctx, competition, version)?;
            let mut events = Vec::new();
            if state.open_round().is_some() {
                let closed = state.decide(Command::CloseRound { at: ctx.at })?;
                for e in &closed {
                    state.apply(e);
                }
                events.extend(closed);
            }
            let seed = self.committed_seed(competition, &state.seed_hash).await?;
            let next = if preview {
                [0u8; 32]
            } else {
                self.seeds
                    .seed(competition, state.next_round_number() + 1)?
            };
            let next_hash = draw::commitment(&next);
            let announced = state.decide(Command::AnnounceRound {
                at: ctx.at,
                deadline,
                plan: plan.clone(),
                seed,
                next_seed_hash: next_hash,
            })?;
            for e in &announced {
                state.apply(e);
            }
            events.extend(announced);
            if preview {
                // Issue 14, item 8: the preview used to carry the seed it
                // drew with, before the announcement revealed it; it carries
                // UNREVEALED_SEED instead, in its state and its events, so no
                // front end can show it.
                for e in &mut events {
                    if let Event::RoundAnnounced(a) = e {
                        a.seed = UNREVEALED_SEED;
                    }
                }
                if let Some(round) = state.rounds.last_mut() {
                    round.seed = UNREVEALED_SEED;
                }
                return Ok((
                    state,
                    Executed {
                        first: version + 1,
                        last: version + events.len() as Seq,
                        events,
                        replayed: false,
                    },
                ));
            }
            self.store
                .put_secret(
                    competition,
                    &seed_secret_name(&next_hash),
                    &hex::encode(next),
                )
                .await?;
            match self
                .append::<Ladder>(
                    competition,
                    version,
                    events,
                    ctx,
                    &fingerprint,
                    state.clone(),
                )
                .await
            {
                Err(ServiceError::Store(StoreError::Conflict { .. }))
                    if ctx.expected.is_none() && attempt + 1 < RETRIES => {}
                other => return other.map(|x| (state, x)),
            }
        }
        Err(ServiceError::Input(
            "too many concurrent writers; try again".into(),
        ))
    }

    /// The secret seed whose commitment is `hash`, to be revealed now.
    async fn committed_seed(&self, competition: &str, hash: &[u8; 32]) -> Result<Seed> {
        let secret = self
            .store
            .secret(competition, &seed_secret_name(hash))
            .await?
            .ok_or_else(|| {
                ServiceError::Input(
                    "the committed draw seed is not in this database; it cannot be revealed".into(),
                )
            })?;
        let bytes = hex::decode(secret.trim())
            .map_err(|e| ServiceError::Input(format!("the stored draw seed is not hex: {e}")))?;
        <[u8; 32]>::try_from(bytes.as_slice())
            .map_err(|_| ServiceError::Input("the stored draw seed is not 32 bytes".into()))
    }

    /// Link `account` to the player named `player` (his exact name, never
    /// read as an id) in competition `competition` of any format, by the
    /// format's own `LinkAccount` event (ARB-R50): what a moderator's
    /// explicit link does. The account's existence is the caller's to check.
    pub async fn link_account(
        &self,
        competition: &str,
        player: &str,
        account: &str,
        ctx: &Context,
    ) -> Result<u64> {
        let account = account.to_string();
        let linked = with_format!(self.format_of(competition).await?, |F| {
            self.on_player::<F>(
                competition,
                ctx,
                |c| c.player_named(player),
                |player| F::link(player, account),
            )
            .await?
        });
        linked.ok_or_else(|| {
            ServiceError::Rule(
                RuleError::new(
                    "ARB-R50",
                    format!("there is no player named {player:?} in {competition}"),
                )
                .field("player"),
            )
        })
    }

    /// End the link of `account` to its player in `competition` (ARB-R50),
    /// by the format's own `UnlinkAccount` event: `None` when the account
    /// is linked to no player there.
    pub async fn unlink_account(
        &self,
        competition: &str,
        account: &str,
        ctx: &Context,
    ) -> Result<Option<u64>> {
        use arbiter_engine::model::Linked;
        with_format!(self.format_of(competition).await?, |F| {
            self.on_player::<F>(
                competition,
                ctx,
                |c| c.links().player_of(account),
                F::unlink,
            )
            .await
        })
    }

    /// The time zone of `competition` (ARB-R82): UTC until one is set.
    pub async fn time_zone(&self, competition: &str) -> Result<arbiter_engine::zone::TimeZone> {
        use arbiter_engine::zone::Zoned;
        with_format!(self.format_of(competition).await?, |F| {
            self.read_as::<F, _>(competition, |c, _| c.zone()).await
        })
    }

    /// Set the time zone of `competition`, of any format, to the IANA
    /// zone `zone` by the format's own `SetTimeZone` command (ARB-R82):
    /// the last sequence stored. A name that is not a zone, or the zone
    /// already set, is refused naming field `time_zone`.
    pub async fn set_time_zone(&self, competition: &str, zone: &str, ctx: &Context) -> Result<u64> {
        let zone = zone.to_string();
        Ok(with_format!(self.format_of(competition).await?, |F| {
            self.execute_as::<F>(competition, F::set_time_zone(zone), ctx)
                .await?
                .last
        }))
    }

    /// Load `competition` as `F`, find a player in it with `find`, and
    /// append the command `command` makes for him: the last sequence
    /// stored, or `None` when `find` finds nobody (and nothing is stored).
    async fn on_player<F: Format>(
        &self,
        competition: &str,
        ctx: &Context,
        find: impl FnOnce(&F) -> Option<arbiter_engine::model::PlayerId>,
        command: impl FnOnce(arbiter_engine::model::PlayerId) -> F::Command,
    ) -> Result<Option<u64>> {
        let (state, _) = self.load_as::<F>(competition, None).await?;
        match find(&state) {
            Some(player) => Ok(Some(
                self.execute_as::<F>(competition, command(player), ctx)
                    .await?
                    .last,
            )),
            None => Ok(None),
        }
    }

    /// Decide a ladder `command` and append its events (see
    /// [`Service::execute_as`]).
    pub async fn execute(
        &self,
        competition: &str,
        command: Command,
        ctx: &Context,
    ) -> Result<Executed> {
        self.execute_as::<Ladder>(competition, command, ctx).await
    }

    /// Decide `command` on the current state and append its events. When the
    /// caller did not pin a version, a conflict with another writer makes the
    /// command be decided again on the new state.
    ///
    /// With an idempotency key, the key is looked up first, before the
    /// version and the rules: used for the same request ([`fingerprint`]),
    /// the first outcome is returned (`replayed`) and nothing is decided;
    /// used for a different one, [`StoreError::KeyReused`].
    pub async fn execute_as<F: Format>(
        &self,
        competition: &str,
        command: F::Command,
        ctx: &Context,
    ) -> Result<Executed<F::Event>> {
        let fingerprint = request_fingerprint::<F>(&command);
        let slot = self.slot(competition);
        let mut guard = slot.lock().await;
        if let Some(done) = self.replay(competition, ctx, &fingerprint).await? {
            return Ok(done);
        }
        let mut reloaded = false;
        for attempt in 0..RETRIES {
            if guard.as_ref().is_none_or(|c| c.state::<F>().is_none()) {
                let (state, version) = self.fold_from_store::<F>(competition, None).await?;
                *guard = Some(Cached::new(version, state));
                reloaded = true;
            }
            let Some(cached) = guard.as_mut() else {
                continue;
            };
            if let Some(expected) = ctx.expected
                && expected != cached.version
            {
                // The cache may be behind another process: catch up (only
                // the events appended since) before refusing.
                if !reloaded {
                    if let Err(e) = self.catch_up::<F>(competition, cached).await {
                        *guard = None;
                        return Err(e);
                    }
                    reloaded = true;
                    continue;
                }
                check_expected(ctx, competition, cached.version)?;
            }
            let Some(state) = cached.state::<F>() else {
                *guard = None;
                continue;
            };
            let events = match state.decide(command.clone()) {
                Ok(events) => events,
                Err(rule) => {
                    // A retried command whose first try succeeded meanwhile
                    // (in another process): answer with the original events.
                    if let Some(done) = self.replay(competition, ctx, &fingerprint).await? {
                        return Ok(done);
                    }
                    // Refused on a state that may be behind another
                    // process: decide again only if the log moved.
                    if reloaded || self.store.version(competition).await? == cached.version {
                        return Err(rule.into());
                    }
                    *guard = None;
                    continue;
                }
            };
            match self
                .append_raw::<F>(competition, cached.version, &events, ctx, &fingerprint)
                .await
            {
                Ok(done) if !done.replayed => {
                    if let Some(state) = cached.state_mut::<F>() {
                        for e in &events {
                            state.apply(e);
                        }
                    }
                    cached.version = done.last;
                    return Ok(done);
                }
                Ok(done) => {
                    *guard = None;
                    return Ok(done);
                }
                Err(ServiceError::Store(StoreError::Conflict { .. }))
                    if ctx.expected.is_none() && attempt + 1 < RETRIES =>
                {
                    // Another writer got in first: read only what it
                    // appended, then decide again (after a short pause that
                    // grows, so racing writers spread out).
                    self.catch_up::<F>(competition, cached).await?;
                    reloaded = true;
                    self.backoff(attempt).await;
                }
                Err(e @ ServiceError::Store(StoreError::Conflict { .. })) => {
                    // Nothing was written: the cache is still the state at
                    // its version, and the next command catches up from
                    // there instead of folding the whole log again.
                    return Err(e);
                }
                Err(e) => {
                    // Whatever happened, the next command reads the store.
                    *guard = None;
                    return Err(e);
                }
            }
        }
        Err(ServiceError::Input(
            "too many concurrent writers; try again".into(),
        ))
    }

    /// Undo the last event of a ladder (see [`Service::undo_as`]).
    pub async fn undo(&self, competition: &str, ctx: &Context) -> Result<(Executed, HistoryEntry)> {
        self.undo_as::<Ladder>(competition, ctx).await
    }

    /// Undo the last event still in force, by appending a `reverted` event.
    ///
    /// With an idempotency key already used for an undo, the first outcome
    /// is returned (`replayed`, with the event it undid) and nothing more is
    /// undone.
    pub async fn undo_as<F: Format>(
        &self,
        competition: &str,
        ctx: &Context,
    ) -> Result<(Executed<F::Event>, HistoryEntry<F::Event>)> {
        let history = self.history_of::<F>(competition, None).await?;
        if let Some(done) = self.replay(competition, ctx, UNDO_FINGERPRINT).await? {
            // The history above may predate the first try's append (a retry
            // running beside it): read it again.
            let history = self.history_of::<F>(competition, None).await?;
            // The event the first try undid.
            let undone = history
                .iter()
                .find(|h| h.seq == done.first)
                .and_then(|h| F::reverted(&h.event))
                .and_then(|seq| history.iter().find(|t| t.seq == seq));
            return match undone {
                Some(target) => Ok((done, target.clone())),
                // A key recorded without its request (before fingerprints
                // were kept) whose events were not an undo.
                None => Err(StoreError::KeyReused {
                    key: ctx.idempotency_key.clone().unwrap_or_default(),
                }
                .into()),
            };
        }
        let target = history
            .iter()
            .rev()
            .find(|h| !h.reverted && F::reverted(&h.event).is_none())
            .cloned()
            .ok_or_else(|| ServiceError::Input("there is nothing to undo".into()))?;
        if target.kind == F::CREATED {
            return Err(ServiceError::Input(
                "the creation of the competition cannot be undone".into(),
            ));
        }
        let version = history.last().map_or(0, |h| h.seq);
        // A moderator who saw another version would undo someone else's event.
        check_expected(ctx, competition, version)?;
        // The target is the last event in force (checked above), which the
        // engine cannot see from a state: the revert is built here.
        let events = vec![F::revert(target.seq, target.kind.clone())];
        let slot = self.slot(competition);
        let mut guard = slot.lock().await;
        *guard = None;
        let executed = self
            .append_raw::<F>(competition, version, &events, ctx, UNDO_FINGERPRINT)
            .await?;
        Ok((executed, target))
    }

    /// Append events decided outside [`Service::execute_as`] (creation,
    /// announcements with drawn seeds), caching `state_after` on success.
    async fn append<F: Format>(
        &self,
        competition: &str,
        version: Seq,
        events: Vec<F::Event>,
        ctx: &Context,
        fingerprint: &str,
        state_after: F,
    ) -> Result<Executed<F::Event>> {
        let slot = self.slot(competition);
        let mut guard = slot.lock().await;
        let executed = self
            .append_raw::<F>(competition, version, &events, ctx, fingerprint)
            .await;
        *guard = match &executed {
            Ok(done) if !done.replayed => Some(Cached::new(done.last, state_after)),
            _ => None,
        };
        executed
    }

    /// Append `events` with the context's idempotency key, if any, for the
    /// request `fingerprint` (the store refuses the key used for another).
    async fn append_raw<F: Format>(
        &self,
        competition: &str,
        version: Seq,
        events: &[F::Event],
        ctx: &Context,
        fingerprint: &str,
    ) -> Result<Executed<F::Event>> {
        let at = ctx.at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        let new: Vec<NewEvent> = events
            .iter()
            .map(|e| NewEvent {
                kind: F::kind(e).to_string(),
                payload: F::encode(e),
                actor: ctx.actor.clone(),
                recorded_at: at.clone(),
            })
            .collect();
        let idempotency = ctx
            .idempotency_key
            .as_deref()
            .map(|key| Idempotency { key, fingerprint });
        let appended = self
            .store
            .append(competition, version, &new, idempotency)
            .await?;
        Ok(Executed {
            first: appended.first,
            last: appended.last,
            events: if appended.replayed {
                Vec::new()
            } else {
                events.to_vec()
            },
            replayed: appended.replayed,
        })
    }

    /// The first outcome of this request, if the context's idempotency key
    /// was used for it in `competition`: `None` without a key or for a key
    /// not used there, [`StoreError::KeyReused`] for a key used for a
    /// different request (another fingerprint).
    async fn replay<E>(
        &self,
        competition: &str,
        ctx: &Context,
        fingerprint: &str,
    ) -> Result<Option<Executed<E>>> {
        let Some(key) = &ctx.idempotency_key else {
            return Ok(None);
        };
        match self.store.idempotent(competition, key).await? {
            None => Ok(None),
            Some(used) if used.matches(fingerprint) => Ok(Some(Executed {
                first: used.appended.first,
                last: used.appended.last,
                events: Vec::new(),
                replayed: true,
            })),
            Some(_) => Err(StoreError::KeyReused { key: key.clone() }.into()),
        }
    }

    /// Whether the seed revealed by round `round` is the one whose hash was
    /// published before it (at creation or by the previous announcement).
    pub async fn seed_commitment_ok(&self, competition: &str, round: u32) -> Result<bool> {
        let history = self.history(competition, None).await?;
        let mut committed: Option<[u8; 32]> = None;
        for h in history.iter().filter(|h| !h.reverted) {
            match &h.event {
                Event::Created { seed_hash, .. } => committed = Some(*seed_hash),
                Event::RoundAnnounced(a) if a.round == round => {
                    return Ok(committed.is_some_and(|c| draw::verify(&a.seed, &c)));
                }
                Event::RoundAnnounced(a) => committed = Some(a.next_seed_hash),
                _ => {}
            }
        }
        Err(ServiceError::Input(format!(
            "round {round} has not been announced"
        )))
    }

    /// Recompute the side draws of round `round` from its revealed seed and
    /// compare them with the recorded ones.
    pub async fn verify_draws(
        &self,
        competition: &str,
        round: u32,
    ) -> Result<Vec<views::DrawCheck>> {
        let (ladder, _) = self.load(competition, None).await?;
        views::verify_draws(&ladder, round).map_err(ServiceError::Input)
    }
}

pub use arbiter_engine;

/// What a preview of an announcement carries in place of the round's seed,
/// which stays secret until the announcement reveals it (issue 14, item 8):
/// the views show no seed for it. A real seed is never all zeros (it comes
/// from the OS or from SHA-256).
pub const UNREVEALED_SEED: Seed = [0; 32];

#[cfg(test)]
mod tests {
    use super::*;

    /// With deterministic seeds the pauses after lost races are the same
    /// from one run to the next (a simulation replays exactly), each within
    /// its bounds (1, 2, 4 … ms plus less than as much again), and they
    /// vary with the count, as jitter must.
    #[test]
    fn pauses_with_deterministic_seeds_replay_and_stay_in_bounds() {
        let seeds = SeedSource::Deterministic("sim-7".into());
        let run = || {
            (0..40u32)
                .map(|n| pause(&seeds, (n % 8) as usize, n))
                .collect::<Vec<_>>()
        };
        let first = run();
        assert_eq!(first, run());
        for (n, p) in first.iter().enumerate() {
            let base = std::time::Duration::from_millis(1 << (n % 8).min(6));
            assert!(*p >= base && *p < base * 2, "pause {n}: {p:?}");
        }
        let at_first_attempt: std::collections::HashSet<_> =
            (0..40).map(|n| pause(&seeds, 0, n)).collect();
        assert!(at_first_attempt.len() > 30, "{at_first_attempt:?}");
        // Another base, other pauses.
        let other = SeedSource::Deterministic("sim-8".into());
        assert_ne!(
            first,
            (0..40u32)
                .map(|n| pause(&other, (n % 8) as usize, n))
                .collect::<Vec<_>>()
        );
    }
}
