//! [`FaultyStore`]: a wrapper around any store that fails a chosen storage
//! call, to see what the layers above do with a failure.
//!
//! Calls of the trait methods are numbered 1, 2, 3 … from the moment a
//! [`Plan`] is armed (all methods, or only one [`Call`] kind). The plan
//! fails the k-th:
//! - [`Mode::Once`]: that call alone fails, without reaching the inner store;
//! - [`Mode::Persistent`]: that call and every later one fail (a disk gone);
//! - [`Mode::AfterCommit`]: that call is made on the inner store and then
//!   reported as failed (a crash, or a lost connection, after the commit:
//!   the client does not know its append landed).
//!
//! The error is always `StoreError::Backend("injected fault at call k")`,
//! and every injected fault is recorded ([`FaultyStore::injected`]) with
//! what the inner store did, when it was called.
//!
//! The wrapper can also yield to the runtime before calls
//! ([`FaultyStore::set_yields`]), so that commands run concurrently on one
//! task (`tokio::join!`) interleave between their storage calls, in an order
//! its seed decides.

use std::sync::{Arc, Mutex, MutexGuard};

use arbiter_store::{
    Account, AccountStore, ApiToken, Appended, CalendarFeed, CompetitionDump, EventStore,
    FeedOwner, Grant, Idempotency, KeyRecord, KeyUse, NewEvent, Role, Seq, Session, StoreError,
    StoredEvent,
};
use arbiter_store::{Delivery, OutboxItem, OutboxKey, Webhook, WebhookStore};
use async_trait::async_trait;
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// Which trait method a call is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Call {
    Append,
    Read,
    Version,
    Competitions,
    Idempotent,
    PutSecret,
    Secret,
    Keys,
    Secrets,
    Import,
    /// Any method of [`AccountStore`].
    Accounts,
    /// Any method of [`WebhookStore`].
    Webhooks,
    ImportAccounts,
}

/// How a planned fault fails (see the module's documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    Once,
    Persistent,
    AfterCommit,
}

/// A fault to inject: the `at`-th call (1-based) counted among the calls of
/// kind `only` (all calls when `None`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    pub mode: Mode,
    pub at: u64,
    pub only: Option<Call>,
}

impl Plan {
    pub fn new(mode: Mode, at: u64) -> Self {
        Self {
            mode,
            at,
            only: None,
        }
    }

    /// Count only calls of kind `call`.
    #[must_use]
    pub fn only(mut self, call: Call) -> Self {
        self.only = Some(call);
        self
    }
}

/// A fault that was injected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Injected {
    /// The call's number, as counted by the plan (and in the message).
    pub call: u64,
    pub method: Call,
    pub mode: Mode,
    /// For [`Mode::AfterCommit`]: what the inner store answered, as text,
    /// before the answer was replaced by the fault.
    pub inner: Option<Result<String, String>>,
    /// For an append in [`Mode::AfterCommit`]: the events it wrote, when it
    /// wrote some (not a replay, not a refusal).
    pub landed: Option<Appended>,
    /// For an import in [`Mode::AfterCommit`]: whether it was written.
    pub imported: bool,
}

impl Injected {
    /// The error the fault gave.
    pub fn error(&self) -> StoreError {
        fault(self.call)
    }

    /// The message of [`Injected::error`].
    pub fn message(&self) -> String {
        fault(self.call).to_string()
    }

    /// Faults as a failure report shows them: each message with its
    /// method and mode, comma-separated.
    pub fn describe_all(faults: &[Injected]) -> String {
        faults
            .iter()
            .map(|f| format!("{} ({:?} {:?})", f.message(), f.method, f.mode))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The error of an injected fault at call `k`.
pub fn fault(k: u64) -> StoreError {
    StoreError::Backend(format!("injected fault at call {k}"))
}

/// Whether `error` is an injected fault.
pub fn is_injected(error: &StoreError) -> bool {
    matches!(error, StoreError::Backend(m) if m.starts_with("injected fault at call "))
}

#[derive(Debug)]
struct State {
    plan: Option<Plan>,
    /// Calls counted by the plan since it was armed.
    counted: u64,
    /// Every call since the store was made.
    total: u64,
    injected: Vec<Injected>,
    /// Yield before a call with probability `per_mille / 1000`.
    yields: Option<(ChaCha8Rng, u32)>,
}

enum Decision {
    Pass,
    Fail(u64),
    AfterCommit(u64),
}

/// A store that fails the calls its [`Plan`] says. Clones share the plan,
/// the counters and the inner store (if `S` shares on clone).
#[derive(Debug)]
pub struct FaultyStore<S> {
    inner: Arc<S>,
    state: Arc<Mutex<State>>,
}

impl<S> Clone for FaultyStore<S> {
    fn clone(&self) -> Self {
        Self {
            inner: Arc::clone(&self.inner),
            state: Arc::clone(&self.state),
        }
    }
}

impl<S> FaultyStore<S> {
    /// A wrapper with no fault armed.
    pub fn new(inner: S) -> Self {
        Self {
            inner: Arc::new(inner),
            state: Arc::new(Mutex::new(State {
                plan: None,
                counted: 0,
                total: 0,
                injected: Vec::new(),
                yields: None,
            })),
        }
    }

    /// The store behind the faults.
    pub fn inner(&self) -> &S {
        &self.inner
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A panic while the lock was held cannot leave the counters
        // half-updated in a way that matters to a test that already failed.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Arm `plan`, counting calls from 1 again.
    pub fn arm(&self, plan: Plan) {
        let mut state = self.state();
        state.plan = Some(plan);
        state.counted = 0;
    }

    /// No more faults (those injected stay recorded).
    pub fn disarm(&self) {
        let mut state = self.state();
        state.plan = None;
        state.counted = 0;
    }

    /// The plan armed, if any.
    pub fn plan(&self) -> Option<Plan> {
        self.state().plan
    }

    /// Calls counted by the armed plan so far.
    pub fn counted(&self) -> u64 {
        self.state().counted
    }

    /// Every call made through the wrapper.
    pub fn calls(&self) -> u64 {
        self.state().total
    }

    /// Every fault injected so far, in order.
    pub fn injected(&self) -> Vec<Injected> {
        self.state().injected.clone()
    }

    /// How many faults were injected so far.
    pub fn injected_count(&self) -> usize {
        self.state().injected.len()
    }

    /// Faults injected from the `from`-th on (0-based).
    pub fn injected_since(&self, from: usize) -> Vec<Injected> {
        self.state()
            .injected
            .get(from..)
            .map(<[Injected]>::to_vec)
            .unwrap_or_default()
    }

    /// Yield to the runtime before a call with probability
    /// `per_mille / 1000`, drawn from a ChaCha generator seeded with `seed`
    /// (0 stops yielding).
    pub fn set_yields(&self, seed: u64, per_mille: u32) {
        self.state().yields =
            (per_mille > 0).then(|| (ChaCha8Rng::seed_from_u64(seed), per_mille.min(1000)));
    }

    fn decide(&self, method: Call) -> (Decision, bool) {
        let mut state = self.state();
        state.total += 1;
        let yield_now = match &mut state.yields {
            Some((rng, per_mille)) => (rng.next_u32() % 1000) < *per_mille,
            None => false,
        };
        let Some(plan) = state.plan else {
            return (Decision::Pass, yield_now);
        };
        if plan.only.is_some_and(|only| only != method) {
            return (Decision::Pass, yield_now);
        }
        state.counted += 1;
        let k = state.counted;
        let decision = match plan.mode {
            Mode::Once if k == plan.at => Decision::Fail(k),
            Mode::Persistent if k >= plan.at => Decision::Fail(k),
            Mode::AfterCommit if k == plan.at => Decision::AfterCommit(k),
            _ => Decision::Pass,
        };
        if let Decision::Fail(k) = decision {
            state.injected.push(Injected {
                call: k,
                method,
                mode: plan.mode,
                inner: None,
                landed: None,
                imported: false,
            });
        }
        (decision, yield_now)
    }

    fn record_after_commit(
        &self,
        k: u64,
        method: Call,
        inner: Result<String, String>,
        landed: Option<Appended>,
        imported: bool,
    ) {
        self.state().injected.push(Injected {
            call: k,
            method,
            mode: Mode::AfterCommit,
            inner: Some(inner),
            landed,
            imported,
        });
    }

    /// Run one call of kind `method` through the plan.
    async fn call<T, Fut>(&self, method: Call, run: impl FnOnce() -> Fut) -> Result<T, StoreError>
    where
        T: std::fmt::Debug,
        Fut: Future<Output = Result<T, StoreError>>,
    {
        let (decision, yield_now) = self.decide(method);
        if yield_now {
            tokio::task::yield_now().await;
        }
        match decision {
            Decision::Pass => run().await,
            Decision::Fail(k) => Err(fault(k)),
            Decision::AfterCommit(k) => {
                let result = run().await;
                let text = match &result {
                    Ok(v) => Ok(format!("{v:?}")),
                    Err(e) => Err(e.to_string()),
                };
                self.record_after_commit(k, method, text, None, false);
                Err(fault(k))
            }
        }
    }
}

#[async_trait]
impl<S: EventStore> EventStore for FaultyStore<S> {
    async fn append(
        &self,
        competition: &str,
        expected: Seq,
        events: &[NewEvent],
        idempotency: Option<Idempotency<'_>>,
    ) -> Result<Appended, StoreError> {
        let (decision, yield_now) = self.decide(Call::Append);
        if yield_now {
            tokio::task::yield_now().await;
        }
        match decision {
            Decision::Pass => {
                self.inner
                    .append(competition, expected, events, idempotency)
                    .await
            }
            Decision::Fail(k) => Err(fault(k)),
            Decision::AfterCommit(k) => {
                let result = self
                    .inner
                    .append(competition, expected, events, idempotency)
                    .await;
                let landed = match &result {
                    Ok(a) if !a.replayed && a.last >= a.first => Some(a.clone()),
                    _ => None,
                };
                let text = match &result {
                    Ok(v) => Ok(format!("{v:?}")),
                    Err(e) => Err(e.to_string()),
                };
                self.record_after_commit(k, Call::Append, text, landed, false);
                Err(fault(k))
            }
        }
    }

    async fn read(
        &self,
        competition: &str,
        from: Seq,
        to: Option<Seq>,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        self.call(Call::Read, || self.inner.read(competition, from, to))
            .await
    }

    async fn version(&self, competition: &str) -> Result<Seq, StoreError> {
        self.call(Call::Version, || self.inner.version(competition))
            .await
    }

    async fn competitions(&self) -> Result<Vec<String>, StoreError> {
        self.call(Call::Competitions, || self.inner.competitions())
            .await
    }

    async fn idempotent(&self, competition: &str, key: &str) -> Result<Option<KeyUse>, StoreError> {
        self.call(Call::Idempotent, || self.inner.idempotent(competition, key))
            .await
    }

    async fn put_secret(
        &self,
        competition: &str,
        name: &str,
        value: &str,
    ) -> Result<(), StoreError> {
        self.call(Call::PutSecret, || {
            self.inner.put_secret(competition, name, value)
        })
        .await
    }

    async fn secret(&self, competition: &str, name: &str) -> Result<Option<String>, StoreError> {
        self.call(Call::Secret, || self.inner.secret(competition, name))
            .await
    }

    async fn keys(&self, competition: &str) -> Result<Vec<KeyRecord>, StoreError> {
        self.call(Call::Keys, || self.inner.keys(competition)).await
    }

    async fn secrets(&self, competition: &str) -> Result<Vec<(String, String)>, StoreError> {
        self.call(Call::Secrets, || self.inner.secrets(competition))
            .await
    }

    async fn import(&self, competitions: &[CompetitionDump]) -> Result<(), StoreError> {
        let (decision, yield_now) = self.decide(Call::Import);
        if yield_now {
            tokio::task::yield_now().await;
        }
        match decision {
            Decision::Pass => self.inner.import(competitions).await,
            Decision::Fail(k) => Err(fault(k)),
            Decision::AfterCommit(k) => {
                let result = self.inner.import(competitions).await;
                let imported = result.is_ok() && !competitions.is_empty();
                let text = result
                    .map(|()| "imported".to_owned())
                    .map_err(|e| e.to_string());
                self.record_after_commit(k, Call::Import, text, None, imported);
                Err(fault(k))
            }
        }
    }
}

#[async_trait]
impl<S: AccountStore> AccountStore for FaultyStore<S> {
    async fn create_account(&self, account: &Account) -> Result<(), StoreError> {
        self.call(Call::Accounts, || self.inner.create_account(account))
            .await
    }

    async fn account(&self, username: &str) -> Result<Option<Account>, StoreError> {
        self.call(Call::Accounts, || self.inner.account(username))
            .await
    }

    async fn accounts(&self) -> Result<Vec<Account>, StoreError> {
        self.call(Call::Accounts, || self.inner.accounts()).await
    }

    async fn set_password(&self, username: &str, password_hash: &str) -> Result<bool, StoreError> {
        self.call(Call::Accounts, || {
            self.inner.set_password(username, password_hash)
        })
        .await
    }

    async fn grant(&self, grant: &Grant) -> Result<(), StoreError> {
        self.call(Call::Accounts, || self.inner.grant(grant)).await
    }

    async fn revoke(
        &self,
        competition: &str,
        username: &str,
        role: Role,
    ) -> Result<bool, StoreError> {
        self.call(Call::Accounts, || {
            self.inner.revoke(competition, username, role)
        })
        .await
    }

    async fn grants_in(&self, competition: &str) -> Result<Vec<Grant>, StoreError> {
        self.call(Call::Accounts, || self.inner.grants_in(competition))
            .await
    }

    async fn grants_of(&self, username: &str) -> Result<Vec<Grant>, StoreError> {
        self.call(Call::Accounts, || self.inner.grants_of(username))
            .await
    }

    async fn put_session(&self, session: &Session) -> Result<(), StoreError> {
        self.call(Call::Accounts, || self.inner.put_session(session))
            .await
    }

    async fn session(&self, id_hash: &str, now: i64) -> Result<Option<Session>, StoreError> {
        self.call(Call::Accounts, || self.inner.session(id_hash, now))
            .await
    }

    async fn delete_session(&self, id_hash: &str) -> Result<bool, StoreError> {
        self.call(Call::Accounts, || self.inner.delete_session(id_hash))
            .await
    }

    async fn delete_sessions_of(&self, username: &str) -> Result<u64, StoreError> {
        self.call(Call::Accounts, || self.inner.delete_sessions_of(username))
            .await
    }

    async fn purge_sessions(&self, now: i64) -> Result<u64, StoreError> {
        self.call(Call::Accounts, || self.inner.purge_sessions(now))
            .await
    }

    async fn put_token(&self, token: &ApiToken) -> Result<(), StoreError> {
        self.call(Call::Accounts, || self.inner.put_token(token))
            .await
    }

    async fn token(&self, hash: &str) -> Result<Option<ApiToken>, StoreError> {
        self.call(Call::Accounts, || self.inner.token(hash)).await
    }

    async fn tokens_of(&self, username: &str) -> Result<Vec<ApiToken>, StoreError> {
        self.call(Call::Accounts, || self.inner.tokens_of(username))
            .await
    }

    async fn delete_token(&self, hash: &str) -> Result<bool, StoreError> {
        self.call(Call::Accounts, || self.inner.delete_token(hash))
            .await
    }

    async fn touch_token(&self, hash: &str, at: &str) -> Result<bool, StoreError> {
        self.call(Call::Accounts, || self.inner.touch_token(hash, at))
            .await
    }

    async fn delete_tokens_of(&self, username: &str) -> Result<u64, StoreError> {
        self.call(Call::Accounts, || self.inner.delete_tokens_of(username))
            .await
    }

    async fn delete_account(&self, username: &str) -> Result<bool, StoreError> {
        self.call(Call::Accounts, || self.inner.delete_account(username))
            .await
    }

    async fn put_feed(&self, feed: &CalendarFeed) -> Result<(), StoreError> {
        self.call(Call::Accounts, || self.inner.put_feed(feed))
            .await
    }

    async fn feed(&self, hash: &str) -> Result<Option<CalendarFeed>, StoreError> {
        self.call(Call::Accounts, || self.inner.feed(hash)).await
    }

    async fn feeds_of(&self, owner: &FeedOwner) -> Result<Vec<CalendarFeed>, StoreError> {
        self.call(Call::Accounts, || self.inner.feeds_of(owner))
            .await
    }

    async fn delete_feed(&self, hash: &str) -> Result<bool, StoreError> {
        self.call(Call::Accounts, || self.inner.delete_feed(hash))
            .await
    }

    async fn import_accounts(
        &self,
        accounts: &[Account],
        grants: &[Grant],
        tokens: &[ApiToken],
    ) -> Result<(), StoreError> {
        self.call(Call::ImportAccounts, || {
            self.inner.import_accounts(accounts, grants, tokens)
        })
        .await
    }
}

#[async_trait]
impl<S: WebhookStore> WebhookStore for FaultyStore<S> {
    async fn add_webhook(&self, hook: &Webhook) -> Result<(), StoreError> {
        self.call(Call::Webhooks, || self.inner.add_webhook(hook))
            .await
    }

    async fn webhook(&self, id: &str) -> Result<Option<Webhook>, StoreError> {
        self.call(Call::Webhooks, || self.inner.webhook(id)).await
    }

    async fn webhooks(&self, competition: &str) -> Result<Vec<Webhook>, StoreError> {
        self.call(Call::Webhooks, || self.inner.webhooks(competition))
            .await
    }

    async fn set_webhook_state(
        &self,
        id: &str,
        failures: u32,
        disabled: Option<&str>,
    ) -> Result<bool, StoreError> {
        self.call(Call::Webhooks, || {
            self.inner.set_webhook_state(id, failures, disabled)
        })
        .await
    }

    async fn delete_webhook(&self, id: &str) -> Result<bool, StoreError> {
        self.call(Call::Webhooks, || self.inner.delete_webhook(id))
            .await
    }

    async fn claim_outbox(
        &self,
        now: i64,
        lease_until: i64,
        limit: u32,
    ) -> Result<Vec<OutboxItem>, StoreError> {
        self.call(Call::Webhooks, || {
            self.inner.claim_outbox(now, lease_until, limit)
        })
        .await
    }

    async fn finish_outbox(&self, key: &OutboxKey) -> Result<bool, StoreError> {
        self.call(Call::Webhooks, || self.inner.finish_outbox(key))
            .await
    }

    async fn retry_outbox(
        &self,
        key: &OutboxKey,
        attempts: u32,
        next_at: i64,
    ) -> Result<bool, StoreError> {
        self.call(Call::Webhooks, || {
            self.inner.retry_outbox(key, attempts, next_at)
        })
        .await
    }

    async fn outbox(&self, competition: &str) -> Result<Vec<OutboxItem>, StoreError> {
        self.call(Call::Webhooks, || self.inner.outbox(competition))
            .await
    }

    async fn enqueue_outbox(&self, key: &OutboxKey) -> Result<bool, StoreError> {
        self.call(Call::Webhooks, || self.inner.enqueue_outbox(key))
            .await
    }

    async fn enqueue_notice(
        &self,
        competition: &str,
        seq: Seq,
        topic: &str,
    ) -> Result<bool, StoreError> {
        self.call(Call::Webhooks, || {
            self.inner.enqueue_notice(competition, seq, topic)
        })
        .await
    }

    async fn log_delivery(&self, delivery: &Delivery, keep: u32) -> Result<(), StoreError> {
        self.call(Call::Webhooks, || self.inner.log_delivery(delivery, keep))
            .await
    }

    async fn deliveries(&self, webhook: &str, limit: u32) -> Result<Vec<Delivery>, StoreError> {
        self.call(Call::Webhooks, || self.inner.deliveries(webhook, limit))
            .await
    }
}
