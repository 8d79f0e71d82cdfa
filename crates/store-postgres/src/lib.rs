//! The PostgreSQL backend of Arbiter's event store, ready for Citus.
//!
//! The schema (`migrations/`, embedded and applied on open) mirrors the
//! SQLite store's: `events` keyed by (competition, seq), append-only and
//! gapless by triggers; `idempotency` (which command, by key and request
//! fingerprint, appended which range) with `idempotency_keys`, the claim that
//! makes a key unique across competitions; `secrets`; `streams`, one row per
//! competition holding its version, which appends lock; and the tables of
//! [`AccountStore`](arbiter_store::AccountStore) (`accounts`, `grants`,
//! `sessions`, `api_tokens`, in [`accounts`](crate::accounts)). Every table of
//! a competition's data is keyed by `competition` first, so that on Citus it
//! is distributed by `competition` and colocated (see `citus.sql` and
//! ARCHITECTURE.md).
//!
//! An append is one call of the SQL function `arbiter_append` (one round
//! trip, its own transaction): it checks the key, claims it, locks the
//! competition's `streams` row (`FOR UPDATE`: writers of one competition
//! queue, in any number of processes), checks the version, inserts every
//! event by one `INSERT … SELECT FROM unnest(…)` and records the key. Commits
//! are durable on `Ok`: every connection runs with `synchronous_commit = on`.
//!
//! Errors never panic: they become [`StoreError::Backend`] naming what failed.

mod accounts;
mod import;
pub mod testing;
mod webhooks;

use std::str::FromStr;
use std::time::Duration;

use arbiter_store::{
    Appended, CompetitionDump, EventStore, Idempotency, KeyRecord, KeyUse, NewEvent, Seq,
    StoreError, StoredEvent,
};
use async_trait::async_trait;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};

/// The schema, embedded at build time.
static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// Connections of a store's pool, unless the caller says otherwise.
pub const DEFAULT_CONNECTIONS: u32 = 16;

/// How long a caller waits for a free connection of the pool.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(30);

/// How many times an append asks again when the claim of its key was seen
/// before the range it goes with (only on Citus, whose reads of two shards
/// are not one snapshot).
const RETRIES: usize = 20;

/// An [`EventStore`] and [`AccountStore`](arbiter_store::AccountStore) in a
/// PostgreSQL database. Cheap to clone: clones share the connection pool.
#[derive(Debug, Clone)]
pub struct PostgresStore {
    pool: PgPool,
    /// host:port/database, for error messages (never the password).
    name: String,
}

impl PostgresStore {
    /// Connect to the database at `url` (`postgres://user[:password]@host[:port]/database`,
    /// with the query parameters of libpq's URLs that sqlx knows, e.g.
    /// `sslmode=disable`; no TLS is compiled in, so `sslmode=require` is
    /// refused) and bring its schema up to date.
    pub async fn open(url: &str) -> Result<Self, StoreError> {
        Self::open_with(url, DEFAULT_CONNECTIONS).await
    }

    /// [`Self::open`] with at most `connections` connections.
    pub async fn open_with(url: &str, connections: u32) -> Result<Self, StoreError> {
        let options = PgConnectOptions::from_str(url).map_err(|e| {
            StoreError::Backend(format!(
                "cannot read the PostgreSQL URL {}: {e}",
                redact(url)
            ))
        })?;
        let name = format!(
            "{}:{}/{}",
            options.get_host(),
            options.get_port(),
            options.get_database().unwrap_or("")
        );
        // An append that returned Ok is on disk, whatever the server's default.
        let options = options
            .options([("synchronous_commit", "on")])
            .application_name("arbiter");
        let pool = PgPoolOptions::new()
            .max_connections(connections.max(1))
            .acquire_timeout(ACQUIRE_TIMEOUT)
            // No ping before each use: one round trip less per call; a
            // broken connection fails its call, which reports the error.
            .test_before_acquire(false)
            .connect_with(options)
            .await
            .map_err(|e| {
                StoreError::Backend(format!("cannot connect to PostgreSQL at {name}: {e}"))
            })?;
        MIGRATOR.run(&pool).await.map_err(|e| {
            StoreError::Backend(format!(
                "cannot bring the schema of PostgreSQL at {name} up to date: {e}"
            ))
        })?;
        Ok(Self { pool, name })
    }

    /// What the store is connected to: host:port/database.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The connection pool, for tests and tools that need plain SQL.
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// Close every connection (of every clone), waiting for those in use;
    /// later calls fail.
    pub async fn close(&self) {
        self.pool.close().await;
    }

    fn backend(&self, what: &'static str) -> impl FnOnce(sqlx::Error) -> StoreError + '_ {
        move |e| StoreError::Backend(format!("{what} (PostgreSQL at {}): {e}", self.name))
    }
}

/// `url` without its password, for messages.
fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let (authority, tail) = match rest.find(['/', '?']) {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    match authority.rsplit_once('@') {
        Some((user, host)) => {
            let user = user.split_once(':').map_or(user, |(u, _)| u);
            format!("{scheme}://{user}:***@{host}{tail}")
        }
        None => url.to_owned(),
    }
}

/// A sequence as PostgreSQL keeps it.
fn seq_to_db(seq: Seq) -> Result<i64, StoreError> {
    i64::try_from(seq).map_err(|_| {
        StoreError::Backend(format!(
            "sequence {seq} is past what PostgreSQL can hold (2^63 - 1)"
        ))
    })
}

fn seq_from_db(seq: i64) -> Result<Seq, StoreError> {
    Seq::try_from(seq)
        .map_err(|_| StoreError::Backend(format!("the database holds a negative sequence {seq}")))
}

/// o_outcome, o_actual, o_first, o_last of `arbiter_append`.
type AppendRow = (String, i64, Option<i64>, Option<i64>);

/// seq, kind, payload, actor, recorded_at, idempotency_key.
type EventRow = (i64, String, String, String, String, Option<String>);

fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

#[async_trait]
impl EventStore for PostgresStore {
    async fn append(
        &self,
        competition: &str,
        expected: Seq,
        events: &[NewEvent],
        idempotency: Option<Idempotency<'_>>,
    ) -> Result<Appended, StoreError> {
        // A version PostgreSQL cannot hold, or one past which the events
        // would not fit, is no version the competition can be at: -1, which
        // the function answers with a conflict (after the key's check).
        let count = i64::try_from(events.len()).ok();
        let expected_db = i64::try_from(expected)
            .ok()
            .filter(|e| count.is_some_and(|n| e.checked_add(n).is_some()))
            .unwrap_or(-1);
        let kinds: Vec<&str> = events.iter().map(|e| e.kind.as_str()).collect();
        let payloads: Vec<&str> = events.iter().map(|e| e.payload.as_str()).collect();
        let actors: Vec<&str> = events.iter().map(|e| e.actor.as_str()).collect();
        let times: Vec<&str> = events.iter().map(|e| e.recorded_at.as_str()).collect();
        let key = idempotency.map(|i| i.key);
        let fingerprint = idempotency.map(|i| i.fingerprint);

        for _ in 0..RETRIES {
            let row: Result<AppendRow, sqlx::Error> = sqlx::query_as(
                "SELECT o_outcome, o_actual, o_first, o_last \
                 FROM arbiter_append($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(competition)
            .bind(expected_db)
            .bind(key)
            .bind(fingerprint)
            .bind(&kinds)
            .bind(&payloads)
            .bind(&actors)
            .bind(&times)
            .fetch_one(&self.pool)
            .await;
            let (outcome, actual, first, last) = match row {
                Ok(row) => row,
                // Cannot happen while appends lock the stream; if a writer
                // bypassing it got in first, this append lost the race.
                Err(e) if is_unique_violation(&e) => {
                    return Err(StoreError::Conflict {
                        competition: competition.to_owned(),
                        expected,
                        actual: self.version(competition).await?,
                    });
                }
                Err(e) => return Err(self.backend("cannot append the events")(e)),
            };
            let range = |replayed| -> Result<Appended, StoreError> {
                match (first, last) {
                    (Some(first), Some(last)) => Ok(Appended {
                        first: seq_from_db(first)?,
                        last: seq_from_db(last)?,
                        replayed,
                    }),
                    _ => Err(StoreError::Backend(
                        "arbiter_append returned no range".to_owned(),
                    )),
                }
            };
            return match outcome.as_str() {
                "appended" => range(false),
                "replayed" => range(true),
                "conflict" => Err(StoreError::Conflict {
                    competition: competition.to_owned(),
                    expected,
                    actual: seq_from_db(actual)?,
                }),
                "reused" => Err(StoreError::KeyReused {
                    key: key.unwrap_or_default().to_owned(),
                }),
                "retry" => {
                    tokio::time::sleep(Duration::from_millis(5)).await;
                    continue;
                }
                other => Err(StoreError::Backend(format!(
                    "arbiter_append answered {other:?}"
                ))),
            };
        }
        Err(StoreError::Backend(format!(
            "the idempotency key {:?} is claimed but its range cannot be read",
            key.unwrap_or_default()
        )))
    }

    async fn read(
        &self,
        competition: &str,
        from: Seq,
        to: Option<Seq>,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        // Sequences past i64::MAX cannot exist: clamp the bounds.
        let Ok(from) = i64::try_from(from) else {
            return Ok(Vec::new());
        };
        let to = to.map_or(i64::MAX, |to| i64::try_from(to).unwrap_or(i64::MAX));
        let rows: Vec<EventRow> = sqlx::query_as(
            "SELECT seq, kind, payload, actor, recorded_at, idempotency_key FROM events \
             WHERE competition = $1 AND seq >= $2 AND seq <= $3 ORDER BY seq",
        )
        .bind(competition)
        .bind(from)
        .bind(to)
        .fetch_all(&self.pool)
        .await
        .map_err(self.backend("cannot read events"))?;
        rows.into_iter()
            .map(
                |(seq, kind, payload, actor, recorded_at, idempotency_key)| {
                    Ok(StoredEvent {
                        competition: competition.to_owned(),
                        seq: seq_from_db(seq)?,
                        kind,
                        payload,
                        actor,
                        recorded_at,
                        idempotency_key,
                    })
                },
            )
            .collect()
    }

    async fn version(&self, competition: &str) -> Result<Seq, StoreError> {
        let version: Option<i64> =
            sqlx::query_scalar("SELECT version FROM streams WHERE competition = $1")
                .bind(competition)
                .fetch_optional(&self.pool)
                .await
                .map_err(self.backend("cannot read the version"))?;
        seq_from_db(version.unwrap_or(0))
    }

    async fn competitions(&self) -> Result<Vec<String>, StoreError> {
        // `competition` is COLLATE "C": byte order, that of Rust's `String`.
        sqlx::query_scalar("SELECT competition FROM streams WHERE version > 0 ORDER BY competition")
            .fetch_all(&self.pool)
            .await
            .map_err(self.backend("cannot list competitions"))
    }

    async fn idempotent(&self, competition: &str, key: &str) -> Result<Option<KeyUse>, StoreError> {
        let row: Option<(i64, i64, String)> = sqlx::query_as(
            "SELECT first_seq, last_seq, fingerprint FROM idempotency \
             WHERE competition = $1 AND key = $2",
        )
        .bind(competition)
        .bind(key)
        .fetch_optional(&self.pool)
        .await
        .map_err(self.backend("cannot read an idempotency key"))?;
        row.map(|(first, last, fingerprint)| {
            Ok(KeyUse {
                appended: Appended {
                    first: seq_from_db(first)?,
                    last: seq_from_db(last)?,
                    replayed: true,
                },
                fingerprint,
            })
        })
        .transpose()
    }

    async fn put_secret(
        &self,
        competition: &str,
        name: &str,
        value: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO secrets (competition, name, value) VALUES ($1, $2, $3) \
             ON CONFLICT (competition, name) DO UPDATE SET value = excluded.value",
        )
        .bind(competition)
        .bind(name)
        .bind(value)
        .execute(&self.pool)
        .await
        .map_err(self.backend("cannot keep the secret"))?;
        Ok(())
    }

    async fn secret(&self, competition: &str, name: &str) -> Result<Option<String>, StoreError> {
        sqlx::query_scalar("SELECT value FROM secrets WHERE competition = $1 AND name = $2")
            .bind(competition)
            .bind(name)
            .fetch_optional(&self.pool)
            .await
            .map_err(self.backend("cannot read the secret"))
    }

    async fn keys(&self, competition: &str) -> Result<Vec<KeyRecord>, StoreError> {
        let rows: Vec<(String, i64, i64, String)> = sqlx::query_as(
            "SELECT key, first_seq, last_seq, fingerprint FROM idempotency \
             WHERE competition = $1 ORDER BY key",
        )
        .bind(competition)
        .fetch_all(&self.pool)
        .await
        .map_err(self.backend("cannot read the idempotency keys"))?;
        rows.into_iter()
            .map(|(key, first, last, fingerprint)| {
                Ok(KeyRecord {
                    key,
                    first: seq_from_db(first)?,
                    last: seq_from_db(last)?,
                    fingerprint,
                })
            })
            .collect()
    }

    async fn secrets(&self, competition: &str) -> Result<Vec<(String, String)>, StoreError> {
        sqlx::query_as("SELECT name, value FROM secrets WHERE competition = $1 ORDER BY name")
            .bind(competition)
            .fetch_all(&self.pool)
            .await
            .map_err(self.backend("cannot read the secrets"))
    }

    async fn import(&self, competitions: &[CompetitionDump]) -> Result<(), StoreError> {
        arbiter_store::check_import(competitions)?;
        if competitions.is_empty() {
            return Ok(());
        }
        import::competitions(self, competitions).await
    }
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn urls_lose_their_password() {
        assert_eq!(
            redact("postgres://u:secret@h:5432/db?sslmode=disable"),
            "postgres://u:***@h:5432/db?sslmode=disable"
        );
        assert_eq!(redact("postgres://u@h/db"), "postgres://u:***@h/db");
        assert_eq!(redact("postgres://h/db"), "postgres://h/db");
        assert_eq!(redact("not a url"), "not a url");
    }
}
