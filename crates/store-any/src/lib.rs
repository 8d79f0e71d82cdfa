//! The store the front ends open: SQLite or PostgreSQL, chosen at run time
//! from what the user gave (`--db`, `ARBITER_DB`).
//!
//! [`AnyStore::open`] takes a `postgres://` or `postgresql://` URL for
//! PostgreSQL and anything else as the path of a SQLite file; every call is
//! delegated to the store inside, so both keep their own guarantees.

use std::path::{Path, PathBuf};

use arbiter_store::{
    Account, AccountStore, ApiToken, Appended, CalendarFeed, CompetitionDump, EventStore,
    FeedOwner, Grant, Idempotency, KeyRecord, KeyUse, NewEvent, Role, Seq, Session, StoreError,
    StoredEvent,
};
use arbiter_store::{Delivery, OutboxItem, OutboxKey, Webhook, WebhookStore};
use arbiter_store_postgres::PostgresStore;
use arbiter_store_sqlite::SqliteStore;
use async_trait::async_trait;

pub use arbiter_store_postgres;
pub use arbiter_store_sqlite;

/// Where a store is: what `--db` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreSpec {
    /// A SQLite database file.
    Sqlite(PathBuf),
    /// A PostgreSQL URL.
    Postgres(String),
}

impl StoreSpec {
    /// A `postgres://` or `postgresql://` URL is PostgreSQL; anything else
    /// is the path of a SQLite file.
    pub fn parse(spec: &str) -> Self {
        if is_postgres_url(spec) {
            StoreSpec::Postgres(spec.to_owned())
        } else {
            StoreSpec::Sqlite(PathBuf::from(spec))
        }
    }
}

impl std::fmt::Display for StoreSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreSpec::Sqlite(path) => write!(f, "{}", path.display()),
            // Never the password.
            StoreSpec::Postgres(url) => f.write_str(&redact(url)),
        }
    }
}

/// Whether `spec` is a PostgreSQL URL (by its scheme, case-insensitively).
pub fn is_postgres_url(spec: &str) -> bool {
    let lower = spec.get(..13).unwrap_or(spec).to_ascii_lowercase();
    lower.starts_with("postgres://") || lower.starts_with("postgresql://")
}

fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let (authority, tail) = match rest.find(['/', '?']) {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    match authority.rsplit_once('@') {
        Some((user, host)) if user.contains(':') => {
            let user = user.split_once(':').map_or(user, |(u, _)| u);
            format!("{scheme}://{user}:***@{host}{tail}")
        }
        _ => url.to_owned(),
    }
}

/// A SQLite or a PostgreSQL store. Cheap to clone (both are).
#[derive(Debug, Clone)]
pub enum AnyStore {
    Sqlite(SqliteStore),
    Postgres(PostgresStore),
}

impl AnyStore {
    /// Open what `spec` names: a `postgres://`/`postgresql://` URL, else a
    /// SQLite file path (created with its parent directories if missing).
    pub async fn open(spec: &str) -> Result<Self, StoreError> {
        Self::open_spec(&StoreSpec::parse(spec)).await
    }

    pub async fn open_spec(spec: &StoreSpec) -> Result<Self, StoreError> {
        match spec {
            StoreSpec::Sqlite(path) => Self::open_sqlite(path).await,
            StoreSpec::Postgres(url) => Ok(AnyStore::Postgres(PostgresStore::open(url).await?)),
        }
    }

    /// Open what `spec` names if it exists: a SQLite file is neither created
    /// nor its directory made (issue 14, item 6; only commands that create
    /// use [`AnyStore::open_spec`]). A PostgreSQL database is always made by
    /// its server's administrator; opening it brings its schema up to date.
    pub async fn open_existing(spec: &StoreSpec) -> Result<Self, StoreError> {
        match spec {
            StoreSpec::Sqlite(path) => {
                Ok(AnyStore::Sqlite(SqliteStore::open_existing(path).await?))
            }
            StoreSpec::Postgres(url) => Ok(AnyStore::Postgres(PostgresStore::open(url).await?)),
        }
    }

    /// Open the SQLite file at `path` (created with its parent directories
    /// if missing).
    pub async fn open_sqlite(path: &Path) -> Result<Self, StoreError> {
        Ok(AnyStore::Sqlite(SqliteStore::open(path).await?))
    }

    /// A fresh, private SQLite database in memory (for tests and rehearsals).
    pub async fn open_in_memory() -> Result<Self, StoreError> {
        Ok(AnyStore::Sqlite(SqliteStore::open_in_memory().await?))
    }

    /// Close every connection (of every clone); later calls fail.
    pub async fn close(&self) {
        match self {
            AnyStore::Sqlite(s) => s.close().await,
            AnyStore::Postgres(s) => s.close().await,
        }
    }

    /// "SQLite" or "PostgreSQL".
    pub fn backend_name(&self) -> &'static str {
        match self {
            AnyStore::Sqlite(_) => "SQLite",
            AnyStore::Postgres(_) => "PostgreSQL",
        }
    }
}

impl From<SqliteStore> for AnyStore {
    fn from(store: SqliteStore) -> Self {
        AnyStore::Sqlite(store)
    }
}

impl From<PostgresStore> for AnyStore {
    fn from(store: PostgresStore) -> Self {
        AnyStore::Postgres(store)
    }
}

/// Call `$call` on the store inside.
macro_rules! delegate {
    ($self:ident, $s:ident => $call:expr) => {
        match $self {
            AnyStore::Sqlite($s) => $call.await,
            AnyStore::Postgres($s) => $call.await,
        }
    };
}

#[async_trait]
impl EventStore for AnyStore {
    async fn append(
        &self,
        competition: &str,
        expected: Seq,
        events: &[NewEvent],
        idempotency: Option<Idempotency<'_>>,
    ) -> Result<Appended, StoreError> {
        delegate!(self, s => s.append(competition, expected, events, idempotency))
    }

    async fn read(
        &self,
        competition: &str,
        from: Seq,
        to: Option<Seq>,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        delegate!(self, s => s.read(competition, from, to))
    }

    async fn version(&self, competition: &str) -> Result<Seq, StoreError> {
        delegate!(self, s => s.version(competition))
    }

    async fn competitions(&self) -> Result<Vec<String>, StoreError> {
        delegate!(self, s => s.competitions())
    }

    async fn idempotent(&self, competition: &str, key: &str) -> Result<Option<KeyUse>, StoreError> {
        delegate!(self, s => s.idempotent(competition, key))
    }

    async fn put_secret(
        &self,
        competition: &str,
        name: &str,
        value: &str,
    ) -> Result<(), StoreError> {
        delegate!(self, s => s.put_secret(competition, name, value))
    }

    async fn secret(&self, competition: &str, name: &str) -> Result<Option<String>, StoreError> {
        delegate!(self, s => s.secret(competition, name))
    }

    async fn keys(&self, competition: &str) -> Result<Vec<KeyRecord>, StoreError> {
        delegate!(self, s => s.keys(competition))
    }

    async fn secrets(&self, competition: &str) -> Result<Vec<(String, String)>, StoreError> {
        delegate!(self, s => s.secrets(competition))
    }

    async fn import(&self, competitions: &[CompetitionDump]) -> Result<(), StoreError> {
        delegate!(self, s => s.import(competitions))
    }
}

#[async_trait]
impl AccountStore for AnyStore {
    async fn create_account(&self, account: &Account) -> Result<(), StoreError> {
        delegate!(self, s => s.create_account(account))
    }

    async fn account(&self, username: &str) -> Result<Option<Account>, StoreError> {
        delegate!(self, s => s.account(username))
    }

    async fn accounts(&self) -> Result<Vec<Account>, StoreError> {
        delegate!(self, s => s.accounts())
    }

    async fn set_password(&self, username: &str, password_hash: &str) -> Result<bool, StoreError> {
        delegate!(self, s => s.set_password(username, password_hash))
    }

    async fn grant(&self, grant: &Grant) -> Result<(), StoreError> {
        delegate!(self, s => s.grant(grant))
    }

    async fn revoke(
        &self,
        competition: &str,
        username: &str,
        role: Role,
    ) -> Result<bool, StoreError> {
        delegate!(self, s => s.revoke(competition, username, role))
    }

    async fn grants_in(&self, competition: &str) -> Result<Vec<Grant>, StoreError> {
        delegate!(self, s => s.grants_in(competition))
    }

    async fn grants_of(&self, username: &str) -> Result<Vec<Grant>, StoreError> {
        delegate!(self, s => s.grants_of(username))
    }

    async fn put_session(&self, session: &Session) -> Result<(), StoreError> {
        delegate!(self, s => s.put_session(session))
    }

    async fn session(&self, id_hash: &str, now: i64) -> Result<Option<Session>, StoreError> {
        delegate!(self, s => s.session(id_hash, now))
    }

    async fn delete_session(&self, id_hash: &str) -> Result<bool, StoreError> {
        delegate!(self, s => s.delete_session(id_hash))
    }

    async fn delete_sessions_of(&self, username: &str) -> Result<u64, StoreError> {
        delegate!(self, s => s.delete_sessions_of(username))
    }

    async fn purge_sessions(&self, now: i64) -> Result<u64, StoreError> {
        delegate!(self, s => s.purge_sessions(now))
    }

    async fn put_token(&self, token: &ApiToken) -> Result<(), StoreError> {
        delegate!(self, s => s.put_token(token))
    }

    async fn token(&self, hash: &str) -> Result<Option<ApiToken>, StoreError> {
        delegate!(self, s => s.token(hash))
    }

    async fn tokens_of(&self, username: &str) -> Result<Vec<ApiToken>, StoreError> {
        delegate!(self, s => s.tokens_of(username))
    }

    async fn delete_token(&self, hash: &str) -> Result<bool, StoreError> {
        delegate!(self, s => s.delete_token(hash))
    }

    async fn touch_token(&self, hash: &str, at: &str) -> Result<bool, StoreError> {
        delegate!(self, s => s.touch_token(hash, at))
    }

    async fn delete_tokens_of(&self, username: &str) -> Result<u64, StoreError> {
        delegate!(self, s => s.delete_tokens_of(username))
    }

    async fn delete_account(&self, username: &str) -> Result<bool, StoreError> {
        delegate!(self, s => s.delete_account(username))
    }

    async fn put_feed(&self, feed: &CalendarFeed) -> Result<(), StoreError> {
        delegate!(self, s => s.put_feed(feed))
    }

    async fn feed(&self, hash: &str) -> Result<Option<CalendarFeed>, StoreError> {
        delegate!(self, s => s.feed(hash))
    }

    async fn feeds_of(&self, owner: &FeedOwner) -> Result<Vec<CalendarFeed>, StoreError> {
        delegate!(self, s => s.feeds_of(owner))
    }

    async fn delete_feed(&self, hash: &str) -> Result<bool, StoreError> {
        delegate!(self, s => s.delete_feed(hash))
    }

    async fn import_accounts(
        &self,
        accounts: &[Account],
        grants: &[Grant],
        tokens: &[ApiToken],
    ) -> Result<(), StoreError> {
        delegate!(self, s => s.import_accounts(accounts, grants, tokens))
    }
}

#[async_trait]
impl WebhookStore for AnyStore {
    async fn add_webhook(&self, hook: &Webhook) -> Result<(), StoreError> {
        delegate!(self, s => s.add_webhook(hook))
    }

    async fn webhook(&self, id: &str) -> Result<Option<Webhook>, StoreError> {
        delegate!(self, s => s.webhook(id))
    }

    async fn webhooks(&self, competition: &str) -> Result<Vec<Webhook>, StoreError> {
        delegate!(self, s => s.webhooks(competition))
    }

    async fn set_webhook_state(
        &self,
        id: &str,
        failures: u32,
        disabled: Option<&str>,
    ) -> Result<bool, StoreError> {
        delegate!(self, s => s.set_webhook_state(id, failures, disabled))
    }

    async fn delete_webhook(&self, id: &str) -> Result<bool, StoreError> {
        delegate!(self, s => s.delete_webhook(id))
    }

    async fn claim_outbox(
        &self,
        now: i64,
        lease_until: i64,
        limit: u32,
    ) -> Result<Vec<OutboxItem>, StoreError> {
        delegate!(self, s => s.claim_outbox(now, lease_until, limit))
    }

    async fn finish_outbox(&self, key: &OutboxKey) -> Result<bool, StoreError> {
        delegate!(self, s => s.finish_outbox(key))
    }

    async fn retry_outbox(
        &self,
        key: &OutboxKey,
        attempts: u32,
        next_at: i64,
    ) -> Result<bool, StoreError> {
        delegate!(self, s => s.retry_outbox(key, attempts, next_at))
    }

    async fn outbox(&self, competition: &str) -> Result<Vec<OutboxItem>, StoreError> {
        delegate!(self, s => s.outbox(competition))
    }

    async fn enqueue_outbox(&self, key: &OutboxKey) -> Result<bool, StoreError> {
        delegate!(self, s => s.enqueue_outbox(key))
    }

    async fn enqueue_notice(
        &self,
        competition: &str,
        seq: Seq,
        topic: &str,
    ) -> Result<bool, StoreError> {
        delegate!(self, s => s.enqueue_notice(competition, seq, topic))
    }

    async fn log_delivery(&self, delivery: &Delivery, keep: u32) -> Result<(), StoreError> {
        delegate!(self, s => s.log_delivery(delivery, keep))
    }

    async fn deliveries(&self, webhook: &str, limit: u32) -> Result<Vec<Delivery>, StoreError> {
        delegate!(self, s => s.deliveries(webhook, limit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs() {
        assert_eq!(
            StoreSpec::parse("postgres://u@h/db"),
            StoreSpec::Postgres("postgres://u@h/db".to_owned())
        );
        assert_eq!(
            StoreSpec::parse("PostgreSQL://u@h/db"),
            StoreSpec::Postgres("PostgreSQL://u@h/db".to_owned())
        );
        assert_eq!(
            StoreSpec::parse("data/arbiter.db"),
            StoreSpec::Sqlite(PathBuf::from("data/arbiter.db"))
        );
        assert_eq!(
            StoreSpec::parse("postgres"),
            StoreSpec::Sqlite(PathBuf::from("postgres"))
        );
        assert_eq!(
            StoreSpec::parse("postgres://u:secret@h:5/db?sslmode=disable").to_string(),
            "postgres://u:***@h:5/db?sslmode=disable"
        );
    }
}
