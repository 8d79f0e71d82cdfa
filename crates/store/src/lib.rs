//! The event store: one append-only log per competition, keyed by
//! (competition, sequence), with optimistic concurrency and idempotency keys.
//!
//! The store knows nothing of the rules: a payload is an opaque, versioned
//! JSON document produced by `arbiter-record`. Every backend implements
//! [`EventStore`] and must pass [`conformance`].

pub mod accounts;
pub mod conformance;
pub mod webhooks;

pub use accounts::{
    Account, AccountStore, ApiToken, CalendarFeed, FeedOwner, Grant, Role, Session,
    check_account_import,
};
pub use webhooks::{
    Delivery, MAX_TOPIC, OutboxItem, OutboxKey, Webhook, WebhookKind, WebhookStore,
};

use async_trait::async_trait;

/// Sequence number of an event inside its competition; the first event is 1.
/// A competition's *version* is the sequence of its last event (0 when empty).
pub type Seq = u64;

/// An event to be appended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewEvent {
    /// Short machine name of the event kind (for listings without decoding).
    pub kind: String,
    /// The serialized, versioned payload (JSON text).
    pub payload: String,
    /// Who caused the event (a moderator, a player, `system`).
    pub actor: String,
    /// When it was recorded, RFC 3339 UTC (supplied by the caller so the
    /// engine and replays stay deterministic).
    pub recorded_at: String,
}

/// An event as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredEvent {
    pub competition: String,
    pub seq: Seq,
    pub kind: String,
    pub payload: String,
    pub actor: String,
    pub recorded_at: String,
    /// The idempotency key of the command that produced the event, if any.
    pub idempotency_key: Option<String>,
}

/// The idempotency of an append: the key the client chose for its request,
/// and a fingerprint of the request itself (e.g. a hash of the command, its
/// time left out), so that the key reused for a different request is told
/// apart from a retry (as Stripe's API does).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Idempotency<'a> {
    pub key: &'a str,
    /// Opaque to the store, compared for equality. Never empty: a stored
    /// empty fingerprint means "unknown" (a key recorded before fingerprints
    /// were kept) and matches any request.
    pub fingerprint: &'a str,
}

/// An idempotency key already used: what its command appended, and the
/// fingerprint of that command's request (empty if unknown: recorded before
/// fingerprints were kept).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyUse {
    /// The command's range, with `replayed = true`.
    pub appended: Appended,
    pub fingerprint: String,
}

impl KeyUse {
    /// Whether a request with `fingerprint` is a retry of this one (an
    /// unknown stored fingerprint matches any request).
    pub fn matches(&self, fingerprint: &str) -> bool {
        self.fingerprint.is_empty() || self.fingerprint == fingerprint
    }
}

/// What an append did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Appended {
    /// Sequence numbers of the events (first..=last). When `events` was
    /// empty, the empty range `version + 1 ..= version`.
    pub first: Seq,
    pub last: Seq,
    /// True when the idempotency key had been seen: nothing was written and
    /// `first..=last` are the events the original command appended.
    pub replayed: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Someone else appended first. Nothing was written.
    #[error(
        "competition {competition} is at version {actual}, not the expected {expected}: reload and try again"
    )]
    Conflict {
        competition: String,
        expected: Seq,
        actual: Seq,
    },
    /// The idempotency key was used before for a different request: another
    /// command in the same competition, or any command in another one.
    /// Nothing was written.
    #[error(
        "idempotency key {key:?} was already used for a different request; use a new key for a new command"
    )]
    KeyReused { key: String },
    /// An account with this username exists. Nothing was written.
    #[error("the username {0:?} is taken")]
    AccountExists(String),
    /// An import would overwrite something the store already has: the
    /// string says what, e.g. `competition "ladder" (it has 12 events)`,
    /// `idempotency key "k1" (used in competition "ladder")`,
    /// `API token "ab12…"`. Nothing was written.
    #[error("cannot import: {0} already exists; nothing was imported")]
    Exists(String),
    /// An import that is not a consistent set of competitions (see
    /// [`check_import`] and [`check_account_import`]): the string names the
    /// competition, key, sequence or account at fault. Nothing was written.
    #[error("cannot import: {0}; nothing was imported")]
    Invalid(String),
    #[error("storage failure: {0}")]
    Backend(String),
}

/// An idempotency key as the store keeps it: the command that used it
/// appended `first..=last` (never empty: an append of no events records no
/// key) and its request had `fingerprint` (empty when unknown, see
/// [`Idempotency::fingerprint`]). The events of that range carry the key in
/// [`StoredEvent::idempotency_key`], and no other event does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRecord {
    pub key: String,
    pub first: Seq,
    pub last: Seq,
    pub fingerprint: String,
}

/// Everything the store keeps of one competition, for export and import:
/// its events (all of them, in order), its idempotency keys (sorted by key)
/// and its secrets (name, value; sorted by name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompetitionDump {
    pub id: String,
    pub events: Vec<StoredEvent>,
    pub keys: Vec<KeyRecord>,
    pub secrets: Vec<(String, String)>,
}

/// The checks of [`EventStore::import`] that need no store: every backend
/// calls it first, so that they refuse the same imports with the same
/// messages ([`StoreError::Invalid`], nothing written). An import is
/// consistent when:
/// - no competition id appears twice, and none is empty;
/// - each competition has at least one event (a competition is its log),
///   numbered 1, 2, 3 … n in order, each naming that competition;
/// - each key's range `first..=last` is non-empty and inside `1..=n`, the
///   events of that range carry the key, and every event that carries a key
///   lies in that key's range of the same competition;
/// - no key appears twice in the import (in one competition or two), and no
///   secret name twice in one competition.
pub fn check_import(competitions: &[CompetitionDump]) -> Result<(), StoreError> {
    use std::collections::{HashMap, HashSet};
    let invalid = |message: String| Err(StoreError::Invalid(message));
    let mut ids = HashSet::new();
    let mut all_keys: HashMap<&str, &str> = HashMap::new();
    for dump in competitions {
        let id = dump.id.as_str();
        if id.is_empty() {
            return invalid("a competition has an empty id".to_owned());
        }
        if !ids.insert(id) {
            return invalid(format!("competition {id:?} appears twice"));
        }
        if dump.events.is_empty() {
            return invalid(format!("competition {id:?} has no events"));
        }
        for (event, expected) in dump.events.iter().zip(1..) {
            if event.competition != id {
                return invalid(format!(
                    "event {} of competition {id:?} names competition {:?}",
                    event.seq, event.competition
                ));
            }
            if event.seq != expected {
                return invalid(format!(
                    "competition {id:?}: event {expected} has sequence number {} (events are numbered 1, 2, 3 … in order)",
                    event.seq
                ));
            }
        }
        let n = dump.events.len() as Seq;
        let mut ranges: HashMap<&str, (Seq, Seq)> = HashMap::new();
        for key in &dump.keys {
            if let Some(other) = all_keys.insert(&key.key, id) {
                return invalid(format!(
                    "idempotency key {:?} appears twice (in competition {other:?} and {id:?})",
                    key.key
                ));
            }
            if key.first == 0 || key.first > key.last || key.last > n {
                return invalid(format!(
                    "idempotency key {:?} of competition {id:?} covers events {}..={}, outside its events 1..={n}",
                    key.key, key.first, key.last
                ));
            }
            ranges.insert(&key.key, (key.first, key.last));
        }
        for event in &dump.events {
            let in_range = event.idempotency_key.as_deref().and_then(|k| {
                ranges
                    .get(k)
                    .map(|&(first, last)| (first..=last).contains(&event.seq))
            });
            match (&event.idempotency_key, in_range) {
                (None, _) | (Some(_), Some(true)) => {}
                (Some(k), None) => {
                    return invalid(format!(
                        "event {} of competition {id:?} carries the idempotency key {k:?}, which the competition's keys do not list",
                        event.seq
                    ));
                }
                (Some(k), Some(false)) => {
                    return invalid(format!(
                        "event {} of competition {id:?} carries the idempotency key {k:?} but lies outside its range",
                        event.seq
                    ));
                }
            }
        }
        for key in &dump.keys {
            // In range (checked above), so the index is valid.
            for seq in key.first..=key.last {
                let event = dump.events.get((seq - 1) as usize);
                if event.and_then(|e| e.idempotency_key.as_deref()) != Some(key.key.as_str()) {
                    return invalid(format!(
                        "event {seq} of competition {id:?} lies in the range of the idempotency key {:?} but does not carry it",
                        key.key
                    ));
                }
            }
        }
        let mut names = HashSet::new();
        for (name, _) in &dump.secrets {
            if !names.insert(name.as_str()) {
                return invalid(format!(
                    "secret {name:?} of competition {id:?} appears twice"
                ));
            }
        }
    }
    Ok(())
}

/// The storage of competitions' event logs.
///
/// Invariants every backend keeps (checked by [`conformance`]):
/// - sequences of a competition are 1, 2, 3 … without gaps;
/// - an append is all-or-nothing and durable when it returns `Ok`;
/// - an append whose `expected` version is not the current version writes
///   nothing and returns [`StoreError::Conflict`] with the current version;
/// - an append whose idempotency key was already used for the same
///   competition with the same fingerprint writes nothing and returns the
///   original sequence range with `replayed = true` (checked before the
///   version, so a retried command succeeds even after later appends); with
///   another fingerprint, or in another competition, it writes nothing and
///   returns [`StoreError::KeyReused`];
/// - the key and its fingerprint are recorded with the events, atomically;
/// - small secrets (draw seeds committed by hash, revealed later) are kept
///   per competition and never appear in the event log.
#[async_trait]
pub trait EventStore: Send + Sync {
    /// Append `events` to `competition`, expecting its current version to be
    /// `expected`, and return their sequence range.
    ///
    /// The idempotency key is checked first: one already used for this
    /// competition with the same fingerprint (or with an unknown, empty one)
    /// gives the original range with `replayed = true`; one used with
    /// another fingerprint, or for another competition, gives
    /// [`StoreError::KeyReused`]; both write nothing. Then the version: if it is not `expected`, nothing is written
    /// and the result is [`StoreError::Conflict`]. The key of an append that
    /// fails is not recorded, so the command can be retried with it.
    ///
    /// An empty `events` writes nothing, records no key, and returns the empty
    /// range `Appended { first: expected + 1, last: expected, replayed: false }`
    /// (after the same key and version checks).
    async fn append(
        &self,
        competition: &str,
        expected: Seq,
        events: &[NewEvent],
        idempotency: Option<Idempotency<'_>>,
    ) -> Result<Appended, StoreError>;

    /// Events of `competition` with `seq >= from` and, when `to` is given,
    /// `seq <= to`, in sequence order. An unknown competition has none.
    async fn read(
        &self,
        competition: &str,
        from: Seq,
        to: Option<Seq>,
    ) -> Result<Vec<StoredEvent>, StoreError>;

    /// The current version of `competition` (0 if it has no events).
    async fn version(&self, competition: &str) -> Result<Seq, StoreError>;

    /// Every competition that has at least one event, sorted by id.
    async fn competitions(&self) -> Result<Vec<String>, StoreError>;

    /// The events an idempotency key produced in `competition` and the
    /// fingerprint of the request, if the key was used there: lets a retried
    /// command be answered with its first outcome even when deciding it
    /// again would now be refused, and a different request with the same key
    /// be refused before it is decided ([`KeyUse::matches`]). A key used in
    /// another competition only is `None` here (its append is refused).
    async fn idempotent(&self, competition: &str, key: &str) -> Result<Option<KeyUse>, StoreError>;

    /// Keep a secret under (competition, name), replacing an earlier value.
    async fn put_secret(
        &self,
        competition: &str,
        name: &str,
        value: &str,
    ) -> Result<(), StoreError>;

    /// Read a secret, if kept.
    async fn secret(&self, competition: &str, name: &str) -> Result<Option<String>, StoreError>;

    /// Every idempotency key used in `competition`, sorted by key (byte
    /// order of the UTF-8, Rust's `String` order). An unknown competition
    /// has none.
    async fn keys(&self, competition: &str) -> Result<Vec<KeyRecord>, StoreError>;

    /// Every secret kept for `competition` as (name, value), sorted by name
    /// (byte order). An unknown competition has none.
    async fn secrets(&self, competition: &str) -> Result<Vec<(String, String)>, StoreError>;

    /// Write whole competitions, as [`CompetitionDump`]s (an export of this
    /// or another store): their events exactly as given (sequence, kind,
    /// payload, actor, time, key), their idempotency keys and their secrets.
    ///
    /// All of them in one transaction: all or nothing, durable when it
    /// returns `Ok`. Refused, with nothing written:
    /// - [`StoreError::Invalid`] when [`check_import`] refuses them (called
    ///   first, before the store is looked at);
    /// - [`StoreError::Exists`] when one of the competitions already has
    ///   events (`competition "x" (it has n events)`), or one of the keys
    ///   is already used, in any competition (`idempotency key "k" (used in
    ///   competition "y")`).
    ///
    /// Secrets kept for a competition that has no events (left by a creation
    /// that failed) are replaced by the imported ones of the same name.
    /// Appends to other competitions may run meanwhile; an append to an
    /// imported competition either precedes the import (which is then
    /// refused) or follows it (and sees the imported version).
    /// An empty slice writes nothing and succeeds.
    async fn import(&self, competitions: &[CompetitionDump]) -> Result<(), StoreError>;
}
