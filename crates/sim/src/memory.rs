//! [`MemoryStore`]: the event store (and account store) kept in memory, for
//! the simulation and for tests that need a store without a database. It
//! keeps every promise of the traits and passes the conformance suites.
//!
//! Everything is behind one mutex, taken and released inside each call
//! (never across an await): an append is atomic, and clones share the data
//! (several services on one store, as several processes on one database).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use arbiter_store::webhooks::check_topic;
use arbiter_store::{
    Account, AccountStore, ApiToken, Appended, CalendarFeed, CompetitionDump, EventStore,
    FeedOwner, Grant, Idempotency, KeyRecord, KeyUse, NewEvent, Role, Seq, Session, StoreError,
    StoredEvent, check_account_import, check_import,
};
use arbiter_store::{Delivery, OutboxItem, OutboxKey, Webhook, WebhookStore};
use async_trait::async_trait;

/// An in-memory [`EventStore`] and [`AccountStore`]. Cheap to clone: clones
/// share the data. Nothing survives the last clone.
#[derive(Debug, Clone, Default)]
pub struct MemoryStore {
    data: Arc<Mutex<Data>>,
}

#[derive(Debug, Default)]
struct Data {
    /// Each competition's log, seq `i + 1` at index `i`. Only competitions
    /// with at least one event are present.
    events: BTreeMap<String, Vec<StoredEvent>>,
    /// Idempotency keys (unique across competitions): key → (competition,
    /// record).
    keys: BTreeMap<String, (String, KeyRecord)>,
    /// competition → name → value.
    secrets: BTreeMap<String, BTreeMap<String, String>>,
    accounts: BTreeMap<String, Account>,
    /// (competition, username, role) → grant.
    grants: BTreeMap<(String, String, Role), Grant>,
    sessions: BTreeMap<String, Session>,
    tokens: BTreeMap<String, ApiToken>,
    feeds: BTreeMap<String, CalendarFeed>,
    webhooks: BTreeMap<String, Webhook>,
    /// Notifications still to deliver → (attempts, next_at).
    outbox: BTreeMap<OutboxKey, (u32, i64)>,
    /// The notices made, once each: (competition, topic) → seq.
    notices: BTreeMap<(String, String), Seq>,
    /// The delivery log, oldest first, each with its number.
    deliveries: Vec<(u64, Delivery)>,
    next_delivery: u64,
}

impl Data {
    /// The outbox rows of events `seqs` of `competition`: one per active
    /// webhook, as the SQL backends' trigger writes them (issue 18 §3).
    fn enqueue(&mut self, competition: &str, seqs: impl Iterator<Item = Seq> + Clone) {
        let active: Vec<String> = self
            .webhooks
            .values()
            .filter(|w| w.competition == competition && w.disabled.is_none())
            .map(|w| w.id.clone())
            .collect();
        for seq in seqs {
            for webhook in &active {
                self.outbox
                    .insert(OutboxKey::event(competition, seq, webhook), (0, 0));
            }
        }
    }

    fn version(&self, competition: &str) -> Seq {
        self.events.get(competition).map_or(0, |e| e.len() as Seq)
    }

    /// The idempotency checks of an append: `Some` answers it (a replay or
    /// a refusal), `None` lets it go on.
    fn check_key(
        &self,
        competition: &str,
        idempotency: Option<Idempotency<'_>>,
    ) -> Option<Result<Appended, StoreError>> {
        let idem = idempotency?;
        let (used_in, record) = self.keys.get(idem.key)?;
        let matches = record.fingerprint.is_empty() || record.fingerprint == idem.fingerprint;
        Some(if used_in == competition && matches {
            Ok(Appended {
                first: record.first,
                last: record.last,
                replayed: true,
            })
        } else {
            Err(StoreError::KeyReused {
                key: idem.key.to_owned(),
            })
        })
    }
}

impl MemoryStore {
    pub fn new() -> Self {
        Self::default()
    }

    /// Look at a competition's log in place, without copying it (for the
    /// checks of the simulation); empty for an unknown competition.
    pub fn inspect<T>(
        &self,
        competition: &str,
        f: impl FnOnce(&[StoredEvent]) -> T,
    ) -> Result<T, StoreError> {
        let data = self.data()?;
        Ok(f(data
            .events
            .get(competition)
            .map_or(&[][..], Vec::as_slice)))
    }

    fn data(&self) -> Result<MutexGuard<'_, Data>, StoreError> {
        self.data
            .lock()
            .map_err(|_| StoreError::Backend("the memory store was poisoned by a panic".to_owned()))
    }
}

#[async_trait]
impl EventStore for MemoryStore {
    async fn append(
        &self,
        competition: &str,
        expected: Seq,
        events: &[NewEvent],
        idempotency: Option<Idempotency<'_>>,
    ) -> Result<Appended, StoreError> {
        let mut data = self.data()?;
        if let Some(answer) = data.check_key(competition, idempotency) {
            return answer;
        }
        let actual = data.version(competition);
        if actual != expected {
            return Err(StoreError::Conflict {
                competition: competition.to_owned(),
                expected,
                actual,
            });
        }
        let Some(last) = expected.checked_add(events.len() as Seq) else {
            return Err(StoreError::Backend(
                "too many events: sequence numbers would overflow".to_owned(),
            ));
        };
        let first = expected + 1;
        if events.is_empty() {
            return Ok(Appended {
                first,
                last,
                replayed: false,
            });
        }
        let key = idempotency.map(|i| i.key.to_owned());
        let log = data.events.entry(competition.to_owned()).or_default();
        log.extend(events.iter().zip(first..).map(|(e, seq)| StoredEvent {
            competition: competition.to_owned(),
            seq,
            kind: e.kind.clone(),
            payload: e.payload.clone(),
            actor: e.actor.clone(),
            recorded_at: e.recorded_at.clone(),
            idempotency_key: key.clone(),
        }));
        data.enqueue(competition, first..=last);
        if let Some(idem) = idempotency {
            data.keys.insert(
                idem.key.to_owned(),
                (
                    competition.to_owned(),
                    KeyRecord {
                        key: idem.key.to_owned(),
                        first,
                        last,
                        fingerprint: idem.fingerprint.to_owned(),
                    },
                ),
            );
        }
        Ok(Appended {
            first,
            last,
            replayed: false,
        })
    }

    async fn read(
        &self,
        competition: &str,
        from: Seq,
        to: Option<Seq>,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        let data = self.data()?;
        let Some(log) = data.events.get(competition) else {
            return Ok(Vec::new());
        };
        let len = log.len() as Seq;
        let start = from.max(1) - 1;
        let end = to.map_or(len, |to| to.min(len));
        if start >= end {
            return Ok(Vec::new());
        }
        Ok(log[start as usize..end as usize].to_vec())
    }

    async fn version(&self, competition: &str) -> Result<Seq, StoreError> {
        Ok(self.data()?.version(competition))
    }

    async fn competitions(&self) -> Result<Vec<String>, StoreError> {
        Ok(self.data()?.events.keys().cloned().collect())
    }

    async fn idempotent(&self, competition: &str, key: &str) -> Result<Option<KeyUse>, StoreError> {
        let data = self.data()?;
        Ok(data
            .keys
            .get(key)
            .filter(|(used_in, _)| used_in == competition)
            .map(|(_, record)| KeyUse {
                appended: Appended {
                    first: record.first,
                    last: record.last,
                    replayed: true,
                },
                fingerprint: record.fingerprint.clone(),
            }))
    }

    async fn put_secret(
        &self,
        competition: &str,
        name: &str,
        value: &str,
    ) -> Result<(), StoreError> {
        self.data()?
            .secrets
            .entry(competition.to_owned())
            .or_default()
            .insert(name.to_owned(), value.to_owned());
        Ok(())
    }

    async fn secret(&self, competition: &str, name: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .data()?
            .secrets
            .get(competition)
            .and_then(|s| s.get(name))
            .cloned())
    }

    async fn keys(&self, competition: &str) -> Result<Vec<KeyRecord>, StoreError> {
        // The map is sorted by key.
        Ok(self
            .data()?
            .keys
            .values()
            .filter(|(used_in, _)| used_in == competition)
            .map(|(_, record)| record.clone())
            .collect())
    }

    async fn secrets(&self, competition: &str) -> Result<Vec<(String, String)>, StoreError> {
        Ok(self
            .data()?
            .secrets
            .get(competition)
            .map(|s| s.iter().map(|(n, v)| (n.clone(), v.clone())).collect())
            .unwrap_or_default())
    }

    async fn import(&self, competitions: &[CompetitionDump]) -> Result<(), StoreError> {
        check_import(competitions)?;
        let mut data = self.data()?;
        for dump in competitions {
            let n = data.version(&dump.id);
            if n > 0 {
                return Err(StoreError::Exists(format!(
                    "competition {:?} (it has {n} events)",
                    dump.id
                )));
            }
        }
        for dump in competitions {
            for key in &dump.keys {
                if let Some((used_in, _)) = data.keys.get(&key.key) {
                    return Err(StoreError::Exists(format!(
                        "idempotency key {:?} (used in competition {used_in:?})",
                        key.key
                    )));
                }
            }
        }
        for dump in competitions {
            data.events.insert(dump.id.clone(), dump.events.clone());
            data.enqueue(&dump.id, dump.events.iter().map(|e| e.seq));
            for key in &dump.keys {
                data.keys
                    .insert(key.key.clone(), (dump.id.clone(), key.clone()));
            }
            let secrets = data.secrets.entry(dump.id.clone()).or_default();
            for (name, value) in &dump.secrets {
                secrets.insert(name.clone(), value.clone());
            }
        }
        Ok(())
    }
}

#[async_trait]
impl AccountStore for MemoryStore {
    async fn create_account(&self, account: &Account) -> Result<(), StoreError> {
        let mut data = self.data()?;
        if data.accounts.contains_key(&account.username) {
            return Err(StoreError::AccountExists(account.username.clone()));
        }
        data.accounts
            .insert(account.username.clone(), account.clone());
        Ok(())
    }

    async fn account(&self, username: &str) -> Result<Option<Account>, StoreError> {
        Ok(self.data()?.accounts.get(username).cloned())
    }

    async fn accounts(&self) -> Result<Vec<Account>, StoreError> {
        Ok(self.data()?.accounts.values().cloned().collect())
    }

    async fn set_password(&self, username: &str, password_hash: &str) -> Result<bool, StoreError> {
        Ok(match self.data()?.accounts.get_mut(username) {
            Some(account) => {
                password_hash.clone_into(&mut account.password_hash);
                true
            }
            None => false,
        })
    }

    async fn grant(&self, grant: &Grant) -> Result<(), StoreError> {
        self.data()?.grants.insert(
            (
                grant.competition.clone(),
                grant.username.clone(),
                grant.role,
            ),
            grant.clone(),
        );
        Ok(())
    }

    async fn revoke(
        &self,
        competition: &str,
        username: &str,
        role: Role,
    ) -> Result<bool, StoreError> {
        Ok(self
            .data()?
            .grants
            .remove(&(competition.to_owned(), username.to_owned(), role))
            .is_some())
    }

    async fn grants_in(&self, competition: &str) -> Result<Vec<Grant>, StoreError> {
        // Keyed by (competition, username, role): already in order.
        Ok(self
            .data()?
            .grants
            .values()
            .filter(|g| g.competition == competition)
            .cloned()
            .collect())
    }

    async fn grants_of(&self, username: &str) -> Result<Vec<Grant>, StoreError> {
        // (competition, role) order among one username's grants.
        Ok(self
            .data()?
            .grants
            .values()
            .filter(|g| g.username == username)
            .cloned()
            .collect())
    }

    async fn put_session(&self, session: &Session) -> Result<(), StoreError> {
        self.data()?
            .sessions
            .insert(session.id_hash.clone(), session.clone());
        Ok(())
    }

    async fn session(&self, id_hash: &str, now: i64) -> Result<Option<Session>, StoreError> {
        Ok(self
            .data()?
            .sessions
            .get(id_hash)
            .filter(|s| now < s.expires_at)
            .cloned())
    }

    async fn delete_session(&self, id_hash: &str) -> Result<bool, StoreError> {
        Ok(self.data()?.sessions.remove(id_hash).is_some())
    }

    async fn delete_sessions_of(&self, username: &str) -> Result<u64, StoreError> {
        let mut data = self.data()?;
        let before = data.sessions.len();
        data.sessions.retain(|_, s| s.username != username);
        Ok((before - data.sessions.len()) as u64)
    }

    async fn purge_sessions(&self, now: i64) -> Result<u64, StoreError> {
        let mut data = self.data()?;
        let before = data.sessions.len();
        data.sessions.retain(|_, s| s.expires_at > now);
        Ok((before - data.sessions.len()) as u64)
    }

    async fn put_token(&self, token: &ApiToken) -> Result<(), StoreError> {
        self.data()?
            .tokens
            .insert(token.hash.clone(), token.clone());
        Ok(())
    }

    async fn token(&self, hash: &str) -> Result<Option<ApiToken>, StoreError> {
        Ok(self.data()?.tokens.get(hash).cloned())
    }

    async fn tokens_of(&self, username: &str) -> Result<Vec<ApiToken>, StoreError> {
        let mut tokens: Vec<ApiToken> = self
            .data()?
            .tokens
            .values()
            .filter(|t| t.username == username)
            .cloned()
            .collect();
        tokens.sort_by(|a, b| {
            (&a.created_at, &a.label, &a.hash).cmp(&(&b.created_at, &b.label, &b.hash))
        });
        Ok(tokens)
    }

    async fn delete_token(&self, hash: &str) -> Result<bool, StoreError> {
        Ok(self.data()?.tokens.remove(hash).is_some())
    }

    async fn touch_token(&self, hash: &str, at: &str) -> Result<bool, StoreError> {
        Ok(match self.data()?.tokens.get_mut(hash) {
            Some(token) => {
                token.last_used = Some(at.to_owned());
                true
            }
            None => false,
        })
    }

    async fn delete_tokens_of(&self, username: &str) -> Result<u64, StoreError> {
        let mut data = self.data()?;
        let before = data.tokens.len();
        data.tokens.retain(|_, t| t.username != username);
        Ok((before - data.tokens.len()) as u64)
    }

    async fn delete_account(&self, username: &str) -> Result<bool, StoreError> {
        // One lock: all at once.
        let mut data = self.data()?;
        data.tokens.retain(|_, t| t.username != username);
        let owner = FeedOwner::Account(username.to_owned());
        data.feeds.retain(|_, f| f.owner != owner);
        data.sessions.retain(|_, s| s.username != username);
        data.grants.retain(|_, g| g.username != username);
        Ok(data.accounts.remove(username).is_some())
    }

    async fn put_feed(&self, feed: &CalendarFeed) -> Result<(), StoreError> {
        self.data()?.feeds.insert(feed.hash.clone(), feed.clone());
        Ok(())
    }

    async fn feed(&self, hash: &str) -> Result<Option<CalendarFeed>, StoreError> {
        Ok(self.data()?.feeds.get(hash).cloned())
    }

    async fn feeds_of(&self, owner: &FeedOwner) -> Result<Vec<CalendarFeed>, StoreError> {
        let mut feeds: Vec<CalendarFeed> = self
            .data()?
            .feeds
            .values()
            .filter(|f| &f.owner == owner)
            .cloned()
            .collect();
        feeds.sort_by(|a, b| {
            (&a.created_at, &a.label, &a.hash).cmp(&(&b.created_at, &b.label, &b.hash))
        });
        Ok(feeds)
    }

    async fn delete_feed(&self, hash: &str) -> Result<bool, StoreError> {
        Ok(self.data()?.feeds.remove(hash).is_some())
    }

    async fn import_accounts(
        &self,
        accounts: &[Account],
        grants: &[Grant],
        tokens: &[ApiToken],
    ) -> Result<(), StoreError> {
        check_account_import(accounts, grants, tokens)?;
        let mut data = self.data()?;
        for account in accounts {
            if data.accounts.contains_key(&account.username) {
                return Err(StoreError::AccountExists(account.username.clone()));
            }
        }
        for token in tokens {
            if data.tokens.contains_key(&token.hash) {
                return Err(StoreError::Exists(format!(
                    "API token {:?} of {:?}",
                    token.label, token.username
                )));
            }
        }
        for account in accounts {
            data.accounts
                .insert(account.username.clone(), account.clone());
        }
        for grant in grants {
            data.grants.insert(
                (
                    grant.competition.clone(),
                    grant.username.clone(),
                    grant.role,
                ),
                grant.clone(),
            );
        }
        for token in tokens {
            data.tokens.insert(token.hash.clone(), token.clone());
        }
        Ok(())
    }
}

#[async_trait]
impl WebhookStore for MemoryStore {
    async fn add_webhook(&self, hook: &Webhook) -> Result<(), StoreError> {
        let mut data = self.data()?;
        if data.webhooks.contains_key(&hook.id) {
            return Err(StoreError::Exists(format!("webhook {:?}", hook.id)));
        }
        data.webhooks.insert(hook.id.clone(), hook.clone());
        Ok(())
    }

    async fn webhook(&self, id: &str) -> Result<Option<Webhook>, StoreError> {
        Ok(self.data()?.webhooks.get(id).cloned())
    }

    async fn webhooks(&self, competition: &str) -> Result<Vec<Webhook>, StoreError> {
        let mut hooks: Vec<Webhook> = self
            .data()?
            .webhooks
            .values()
            .filter(|w| w.competition == competition)
            .cloned()
            .collect();
        hooks.sort_by(|a, b| (&a.created_at, &a.id).cmp(&(&b.created_at, &b.id)));
        Ok(hooks)
    }

    async fn set_webhook_state(
        &self,
        id: &str,
        failures: u32,
        disabled: Option<&str>,
    ) -> Result<bool, StoreError> {
        let mut data = self.data()?;
        Ok(match data.webhooks.get_mut(id) {
            Some(hook) => {
                hook.failures = failures;
                hook.disabled = disabled.map(str::to_owned);
                true
            }
            None => false,
        })
    }

    async fn delete_webhook(&self, id: &str) -> Result<bool, StoreError> {
        let mut data = self.data()?;
        data.outbox.retain(|k, _| k.webhook != id);
        data.deliveries.retain(|(_, d)| d.webhook != id);
        Ok(data.webhooks.remove(id).is_some())
    }

    async fn claim_outbox(
        &self,
        now: i64,
        lease_until: i64,
        limit: u32,
    ) -> Result<Vec<OutboxItem>, StoreError> {
        let mut data = self.data()?;
        let mut due: Vec<(i64, OutboxKey)> = data
            .outbox
            .iter()
            .filter(|(k, (_, next_at))| {
                *next_at <= now
                    && data
                        .webhooks
                        .get(&k.webhook)
                        .is_some_and(|w| w.disabled.is_none())
            })
            .map(|(k, (_, next_at))| (*next_at, k.clone()))
            .collect();
        due.sort();
        due.truncate(limit as usize);
        let mut items = Vec::with_capacity(due.len());
        for (_, key) in due {
            if let Some(row) = data.outbox.get_mut(&key) {
                row.1 = lease_until;
                items.push(OutboxItem {
                    key,
                    attempts: row.0,
                    next_at: lease_until,
                });
            }
        }
        items.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(items)
    }

    async fn finish_outbox(&self, key: &OutboxKey) -> Result<bool, StoreError> {
        Ok(self.data()?.outbox.remove(key).is_some())
    }

    async fn retry_outbox(
        &self,
        key: &OutboxKey,
        attempts: u32,
        next_at: i64,
    ) -> Result<bool, StoreError> {
        let mut data = self.data()?;
        Ok(match data.outbox.get_mut(key) {
            Some(row) => {
                *row = (attempts, next_at);
                true
            }
            None => false,
        })
    }

    async fn outbox(&self, competition: &str) -> Result<Vec<OutboxItem>, StoreError> {
        Ok(self
            .data()?
            .outbox
            .iter()
            .filter(|(k, _)| k.competition == competition)
            .map(|(k, &(attempts, next_at))| OutboxItem {
                key: k.clone(),
                attempts,
                next_at,
            })
            .collect())
    }

    async fn enqueue_outbox(&self, key: &OutboxKey) -> Result<bool, StoreError> {
        check_topic(&key.topic)?;
        let mut data = self.data()?;
        let active = data
            .webhooks
            .get(&key.webhook)
            .is_some_and(|w| w.disabled.is_none());
        if !active || data.outbox.contains_key(key) {
            return Ok(false);
        }
        data.outbox.insert(key.clone(), (0, 0));
        Ok(true)
    }

    async fn enqueue_notice(
        &self,
        competition: &str,
        seq: Seq,
        topic: &str,
    ) -> Result<bool, StoreError> {
        check_topic(topic)?;
        let mut data = self.data()?;
        let notice = (competition.to_owned(), topic.to_owned());
        if data.notices.contains_key(&notice) {
            return Ok(false);
        }
        data.notices.insert(notice, seq);
        let active: Vec<String> = data
            .webhooks
            .values()
            .filter(|w| w.competition == competition && w.disabled.is_none())
            .map(|w| w.id.clone())
            .collect();
        for webhook in active {
            let mut key = OutboxKey::event(competition, seq, &webhook);
            key.topic = topic.to_owned();
            data.outbox.entry(key).or_insert((0, 0));
        }
        Ok(true)
    }

    async fn log_delivery(&self, delivery: &Delivery, keep: u32) -> Result<(), StoreError> {
        let mut data = self.data()?;
        data.next_delivery += 1;
        let n = data.next_delivery;
        data.deliveries.push((n, delivery.clone()));
        let mut kept = 0;
        let mut drop = std::collections::HashSet::new();
        for (n, d) in data.deliveries.iter().rev() {
            if d.webhook == delivery.webhook {
                kept += 1;
                if kept > keep {
                    drop.insert(*n);
                }
            }
        }
        data.deliveries.retain(|(n, _)| !drop.contains(n));
        Ok(())
    }

    async fn deliveries(&self, webhook: &str, limit: u32) -> Result<Vec<Delivery>, StoreError> {
        Ok(self
            .data()?
            .deliveries
            .iter()
            .rev()
            .filter(|(_, d)| d.webhook == webhook)
            .take(limit as usize)
            .map(|(_, d)| d.clone())
            .collect())
    }
}
