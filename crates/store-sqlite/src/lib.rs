//! The SQLite backend of Arbiter's event store.
//!
//! One file holds every competition: the `events` table, keyed by
//! (competition, seq) and kept append-only and gapless by triggers, the
//! `idempotency` table (which command, by key and request fingerprint,
//! appended which range), and `secrets`. Beside them, and not append-only,
//! the tables of [`AccountStore`](arbiter_store::AccountStore): `accounts`,
//! `grants`, `sessions` and `api_tokens` (in `accounts`).
//! The schema is in `migrations/`, embedded in the binary and applied on open.
//!
//! Durability: the database runs in WAL mode with `synchronous=FULL`, so an
//! append that returned `Ok` has been synced to disk and survives a crash or
//! a power cut.
//!
//! Concurrency: appends go through one writer connection, behind an async
//! mutex (fair: writers queue instead of polling SQLite's busy handler), each
//! in a `BEGIN IMMEDIATE` transaction, which also serializes them with
//! writers in other processes (the CLI beside a running server); those wait
//! up to the busy timeout. Reads use a few other connections and, thanks to
//! WAL, never wait for the writer.
//!
//! Speed: every statement sent to SQLite through sqlx is a round trip to the
//! connection's worker thread (tens of µs on a small VM), so the append of a
//! command of up to [`CHUNK`] events is a single multi-statement batch
//! (begin, checks, conditional inserts, commit) and reads skip sqlx's pool,
//! which pings every connection it takes back.

mod accounts;
mod import;
mod quick;
mod webhooks;

use std::fmt::Write as _;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use arbiter_store::{
    Appended, CompetitionDump, EventStore, Idempotency, KeyRecord, KeyUse, NewEvent, Seq,
    StoreError, StoredEvent,
};
use async_trait::async_trait;
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqliteSynchronous};
use sqlx::{ConnectOptions, Connection};
use tokio::sync::{Mutex, MutexGuard, OwnedMutexGuard};

/// The schema, embedded at build time.
static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// How long a writer waits for another process's write transaction.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Read connections of a file database.
const READERS: usize = 4;

/// Most events inserted by one statement. An append of more events takes one
/// more round trip per chunk, inside the same transaction.
pub const CHUNK: usize = 64;

pub use import::IMPORT_CHUNK;

/// Prepared statements kept per connection: the `2 * CHUNK + 2` batch
/// shapes of the writer and the few other statements.
const STATEMENT_CACHE: usize = 2 * CHUNK + 32;

/// An [`EventStore`] and [`AccountStore`](arbiter_store::AccountStore) in a
/// SQLite database. Cheap to clone: clones share the connections.
#[derive(Debug, Clone)]
pub struct SqliteStore {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    /// What the store was opened on, for error messages.
    name: String,
    /// Shared so that a cancelled append can hand it to a task that rolls
    /// back (see [`WriterGuard`]).
    writer: Arc<Mutex<Slot>>,
    /// Empty for an in-memory database, whose only connection is the writer.
    readers: Vec<Mutex<Slot>>,
    next_reader: AtomicUsize,
    /// The version read on the caller's thread ([`quick`]).
    quick: quick::QuickReaders,
}

/// A connection, `None` once the store is closed.
#[derive(Debug)]
struct Slot {
    conn: Option<SqliteConnection>,
    /// A transaction was begun and not known to be finished: an append
    /// failed or was cancelled mid-way. Rolled back before the next use.
    in_doubt: bool,
}

impl Slot {
    fn new(conn: SqliteConnection) -> Mutex<Self> {
        Mutex::new(Self {
            conn: Some(conn),
            in_doubt: false,
        })
    }

    /// The connection, once any transaction left in doubt is rolled back.
    async fn conn(&mut self, name: &str) -> Result<&mut SqliteConnection, StoreError> {
        self.settle().await;
        self.conn
            .as_mut()
            .ok_or_else(|| StoreError::Backend(format!("the store {name} is closed")))
    }

    /// Roll back a transaction left in doubt.
    async fn settle(&mut self) {
        if self.in_doubt
            && let Some(conn) = self.conn.as_mut()
        {
            // The transaction may have been committed after all (the batch
            // ran to its end but its caller went away); then there is
            // nothing to roll back and the error says so. Either way, the
            // connection is out of any transaction afterwards.
            let _ = sqlx::query("ROLLBACK").execute(conn).await;
        }
        self.in_doubt = false;
    }
}

impl SqliteStore {
    /// Open (creating it and its parent directories if missing) the database
    /// at `path`, and bring its schema up to date.
    pub async fn open(path: &Path) -> Result<Self, StoreError> {
        if let Some(parent) = path.parent()
            && !parent.as_os_str().is_empty()
        {
            std::fs::create_dir_all(parent).map_err(|e| {
                StoreError::Backend(format!(
                    "cannot create the directory {} for the database: {e}",
                    parent.display()
                ))
            })?;
        }
        Self::connect(path, true).await
    }

    /// Open the database at `path` only if it exists, creating neither it
    /// nor a directory (issue 14, item 6: a mistyped `--db` of a read
    /// command made a directory and an empty database and answered as if
    /// all was well). Its schema is brought up to date.
    pub async fn open_existing(path: &Path) -> Result<Self, StoreError> {
        // SQLite would report only "unable to open database file".
        if !path.is_file() {
            return Err(StoreError::Backend(format!(
                "there is no database at {}{}",
                path.display(),
                if path.exists() {
                    " (it is not a file)"
                } else {
                    ""
                }
            )));
        }
        Self::connect(path, false).await
    }

    async fn connect(path: &Path, create: bool) -> Result<Self, StoreError> {
        let name = path.display().to_string();
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(create)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(BUSY_TIMEOUT)
            // Room for every batch shape of the writer (see `batches`).
            .statement_cache_capacity(STATEMENT_CACHE);
        let cannot_open =
            |e: sqlx::Error| StoreError::Backend(format!("cannot open database at {name}: {e}"));
        let mut writer = options.connect().await.map_err(cannot_open)?;
        migrate(&mut writer, &name).await?;
        let mut readers = Vec::with_capacity(READERS);
        for _ in 0..READERS {
            readers.push(Slot::new(options.connect().await.map_err(cannot_open)?));
        }
        let quick = quick::QuickReaders::open(path);
        Ok(Self::new(name, writer, readers, quick))
    }

    /// A fresh, private database in memory, lost when the store (and every
    /// clone of it) is dropped. For tests.
    pub async fn open_in_memory() -> Result<Self, StoreError> {
        let name = ":memory:".to_owned();
        // An in-memory database lives and dies with its connection: the
        // writer is the only one, and reads share it.
        let mut conn = SqliteConnectOptions::new()
            .in_memory(true)
            .foreign_keys(true)
            .statement_cache_capacity(STATEMENT_CACHE)
            .connect()
            .await
            .map_err(|e| StoreError::Backend(format!("cannot open an in-memory database: {e}")))?;
        migrate(&mut conn, &name).await?;
        Ok(Self::new(
            name,
            conn,
            Vec::new(),
            quick::QuickReaders::default(),
        ))
    }

    fn new(
        name: String,
        writer: SqliteConnection,
        readers: Vec<Mutex<Slot>>,
        quick: quick::QuickReaders,
    ) -> Self {
        Self {
            inner: Arc::new(Inner {
                name,
                writer: Arc::new(Slot::new(writer)),
                readers,
                next_reader: AtomicUsize::new(0),
                quick,
            }),
        }
    }

    /// Close every connection (of every clone), waiting for those in use;
    /// later calls fail. Dropping the store is enough for durability: this
    /// makes the close deterministic, e.g. before reopening the same file.
    pub async fn close(&self) {
        self.inner.quick.close();
        for slot in self.inner.readers.iter().chain([&*self.inner.writer]) {
            let mut slot = slot.lock().await;
            // Rolls back what an append left in doubt.
            let _ = slot.conn(&self.inner.name).await;
            if let Some(conn) = slot.conn.take() {
                let _ = conn.close().await;
            }
        }
    }

    /// The version of `competition` read on the calling thread without
    /// waiting, when one of the store's own connections for it is free and
    /// reads it at once (`None`: in memory, every one in use, closed, or a
    /// lock or error in the way; [`EventStore::version`] then reads it
    /// through sqlx). What [`EventStore::version`] tries first.
    pub fn version_now(&self, competition: &str) -> Option<Result<Seq, StoreError>> {
        self.inner.quick.version(competition).map(seq_from_db)
    }

    /// A read connection: a free one if any, else the next in turn.
    async fn reader(&self) -> MutexGuard<'_, Slot> {
        let inner = &*self.inner;
        if inner.readers.is_empty() {
            return inner.writer.lock().await;
        }
        let start = inner.next_reader.fetch_add(1, Ordering::Relaxed);
        let n = inner.readers.len();
        for i in 0..n {
            if let Ok(slot) = inner.readers[(start + i) % n].try_lock() {
                return slot;
            }
        }
        inner.readers[start % n].lock().await
    }

    /// Run the checks of an append (nothing is written): the state the key
    /// and version decide on.
    async fn checks(
        &self,
        competition: &str,
        expected: Seq,
        key: Option<&str>,
    ) -> Result<Checks, StoreError> {
        let mut slot = self.reader().await;
        let conn = slot.conn(&self.inner.name).await?;
        let row: ChecksRow = sqlx::query_as(CHECKS_SQL)
            .bind(competition)
            .bind(seq_to_db(expected).unwrap_or(i64::MAX))
            .bind(key)
            .fetch_one(conn)
            .await
            .map_err(backend("cannot check the version and the idempotency key"))?;
        Checks::from_row(row)
    }
}

async fn migrate(conn: &mut SqliteConnection, name: &str) -> Result<(), StoreError> {
    MIGRATOR.run(conn).await.map_err(|e| {
        StoreError::Backend(format!("cannot bring the schema of {name} up to date: {e}"))
    })
}

// -------------------------------------------------------------- the append

/// The current version of competition `?1` and what idempotency key `?3`
/// did, if it was used: its competition, range and request fingerprint
/// (`?2`, the expected version, is for the inserts).
const CHECKS_SQL: &str = "SELECT \
     (SELECT COALESCE(MAX(seq), 0) FROM events WHERE competition = ?1), \
     i.competition, i.first_seq, i.last_seq, i.fingerprint \
     FROM (SELECT 1) LEFT JOIN idempotency AS i ON i.key = ?3";

type ChecksRow = (
    i64,
    Option<String>,
    Option<i64>,
    Option<i64>,
    Option<String>,
);

/// An earlier command with the same key.
struct KeyUsed {
    competition: String,
    first: Seq,
    last: Seq,
    /// '' when unknown (recorded before fingerprints were kept).
    fingerprint: String,
}

/// What an append's checks found.
struct Checks {
    version: Seq,
    key_used: Option<KeyUsed>,
}

impl Checks {
    fn from_row(
        (version, competition, first, last, fingerprint): ChecksRow,
    ) -> Result<Self, StoreError> {
        let key_used = match (competition, first, last) {
            (Some(competition), Some(first), Some(last)) => Some(KeyUsed {
                competition,
                first: seq_from_db(first)?,
                last: seq_from_db(last)?,
                fingerprint: fingerprint.unwrap_or_default(),
            }),
            _ => None,
        };
        Ok(Self {
            version: seq_from_db(version)?,
            key_used,
        })
    }

    /// The answer to an append that must write nothing, if it must.
    fn refusal(
        self,
        competition: &str,
        expected: Seq,
        idempotency: Option<Idempotency<'_>>,
    ) -> Option<Result<Appended, StoreError>> {
        if let Some(used) = self.key_used {
            let same_request = idempotency.is_some_and(|i| {
                used.competition == competition
                    && (used.fingerprint.is_empty() || used.fingerprint == i.fingerprint)
            });
            return Some(if same_request {
                Ok(Appended {
                    first: used.first,
                    last: used.last,
                    replayed: true,
                })
            } else {
                Err(StoreError::KeyReused {
                    key: idempotency.map(|i| i.key).unwrap_or_default().to_owned(),
                })
            });
        }
        (self.version != expected).then(|| {
            Err(StoreError::Conflict {
                competition: competition.to_owned(),
                expected,
                actual: self.version,
            })
        })
    }
}

/// The batch appending one chunk of `n` events, as one round trip.
///
/// Binds: `?1` competition, `?2` the version before this chunk, `?3` the
/// idempotency key (or NULL), `?4`/`?5` the first and last sequence of the
/// whole append, `?6` the request's fingerprint (or NULL), then kind,
/// payload, actor, recorded_at of each event.
///
/// It returns the checks' row (taken before its inserts), and inserts only
/// when they pass, so the caller decides from that row what happened. The
/// first chunk begins the transaction, the last records the key with its
/// fingerprint and commits:
/// a refused append commits an empty transaction, which writes nothing.
fn chunk_sql(n: usize, first: bool, last: bool) -> String {
    let mut sql = String::with_capacity(600 + 40 * n);
    if first {
        sql.push_str("BEGIN IMMEDIATE;\n");
    }
    sql.push_str(CHECKS_SQL);
    sql.push_str(
        ";\nINSERT INTO events \
         (competition, seq, kind, payload, actor, recorded_at, idempotency_key) \
         SELECT ?1, ?2 + v.column1, v.column2, v.column3, v.column4, v.column5, ?3 \
         FROM (VALUES ",
    );
    for i in 0..n {
        let b = 7 + 4 * i;
        let sep = if i == 0 { "" } else { ", " };
        let _ = write!(
            sql,
            "{sep}({}, ?{b}, ?{}, ?{}, ?{})",
            i + 1,
            b + 1,
            b + 2,
            b + 3
        );
    }
    sql.push_str(
        ") AS v \
         WHERE NOT EXISTS (SELECT 1 FROM idempotency WHERE key = ?3) \
         AND (SELECT COALESCE(MAX(seq), 0) FROM events WHERE competition = ?1) = ?2 \
         ORDER BY v.column1;\n",
    );
    if last {
        // `changes()`: the rows the event insert just made, none if refused.
        sql.push_str(
            "INSERT INTO idempotency (key, competition, first_seq, last_seq, fingerprint) \
             SELECT ?3, ?1, ?4, ?5, ?6 WHERE ?3 IS NOT NULL AND changes() > 0;\n\
             COMMIT;",
        );
    }
    sql
}

/// The batch of each chunk shape, built once. Single-chunk appends (the
/// usual command) use `single[n - 1]`.
struct Batches {
    single: Vec<String>,
    first: String,
    middle: String,
    last: Vec<String>,
}

fn batches() -> &'static Batches {
    static BATCHES: OnceLock<Batches> = OnceLock::new();
    BATCHES.get_or_init(|| Batches {
        single: (1..=CHUNK).map(|n| chunk_sql(n, true, true)).collect(),
        first: chunk_sql(CHUNK, true, false),
        middle: chunk_sql(CHUNK, false, false),
        last: (1..=CHUNK).map(|n| chunk_sql(n, false, true)).collect(),
    })
}

/// The writer, held by an append. If the append is cancelled (its future
/// dropped) while its transaction is in doubt, a task rolls it back at once,
/// so that the write lock is not kept from other processes until the next
/// append.
struct WriterGuard(OwnedMutexGuard<Slot>);

impl Drop for WriterGuard {
    fn drop(&mut self) {
        if self.0.in_doubt
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            // Whoever locks the writer first rolls back: this task, or the
            // next use of the writer. Without a runtime, the next use does.
            let writer = Arc::clone(OwnedMutexGuard::mutex(&self.0));
            runtime.spawn(async move { writer.lock().await.settle().await });
        }
    }
}

/// Append, on the writer connection, events already known to be non-empty.
async fn append_on(
    slot: &mut Slot,
    name: &str,
    competition: &str,
    expected: Seq,
    events: &[NewEvent],
    idempotency: Option<Idempotency<'_>>,
) -> Result<Appended, StoreError> {
    let (first, last) = new_range(expected, events.len())?;
    let (key, fingerprint) = (
        idempotency.map(|i| i.key),
        idempotency.map(|i| i.fingerprint),
    );
    let (first_db, last_db) = (seq_to_db(first)?, seq_to_db(last)?);

    let chunks = events.len().div_ceil(CHUNK);
    // Rolls back what an earlier append left in doubt.
    slot.conn(name).await?;
    let Some(conn) = slot.conn.as_mut() else {
        return Err(StoreError::Backend(format!("the store {name} is closed")));
    };
    // From here until the outcome is known, the transaction is in doubt: an
    // error or a cancellation leaves it to be rolled back.
    slot.in_doubt = true;
    for (i, chunk) in events.chunks(CHUNK).enumerate() {
        let (is_first, is_last) = (i == 0, i + 1 == chunks);
        let b = batches();
        let sql: &str = match (is_first, is_last) {
            (true, true) => &b.single[chunk.len() - 1],
            (true, false) => &b.first,
            (false, false) => &b.middle,
            (false, true) => &b.last[chunk.len() - 1],
        };
        let before = expected + (i * CHUNK) as Seq;
        let mut query = sqlx::query_as::<_, ChecksRow>(sql)
            .bind(competition)
            .bind(seq_to_db(before)?)
            .bind(key)
            .bind(first_db)
            .bind(last_db)
            .bind(fingerprint);
        for event in chunk {
            query = query
                .bind(&event.kind)
                .bind(&event.payload)
                .bind(&event.actor)
                .bind(&event.recorded_at);
        }
        // `fetch_all`, not `fetch_one`: the batch must run to its end.
        let rows = query
            .fetch_all(&mut *conn)
            .await
            .map_err(backend("cannot append the events"))?;
        let [row] = <[ChecksRow; 1]>::try_from(rows).map_err(|rows| {
            StoreError::Backend(format!(
                "the append batch returned {} rows instead of 1",
                rows.len()
            ))
        })?;
        if let Some(refusal) = Checks::from_row(row)?.refusal(competition, before, idempotency) {
            if is_first {
                if is_last {
                    // Committed, empty.
                    slot.in_doubt = false;
                    return refusal;
                }
                sqlx::query("ROLLBACK")
                    .execute(&mut *conn)
                    .await
                    .map_err(backend("cannot roll back the refused append"))?;
                slot.in_doubt = false;
                return refusal;
            }
            // Impossible while this transaction holds the write lock.
            return Err(StoreError::Backend(format!(
                "the events of {competition} changed inside an append's transaction"
            )));
        }
    }
    slot.in_doubt = false;
    Ok(Appended {
        first,
        last,
        replayed: false,
    })
}

#[async_trait]
impl EventStore for SqliteStore {
    async fn append(
        &self,
        competition: &str,
        expected: Seq,
        events: &[NewEvent],
        idempotency: Option<Idempotency<'_>>,
    ) -> Result<Appended, StoreError> {
        let range = new_range(expected, events.len());
        if events.is_empty() || range.is_err() {
            // Nothing can be written: the checks alone decide, in one
            // statement. (An expected version past what SQLite can count is
            // a conflict, reported with the actual version.)
            let checks = self
                .checks(competition, expected, idempotency.map(|i| i.key))
                .await?;
            if let Some(refusal) = checks.refusal(competition, expected, idempotency) {
                return refusal;
            }
            let (first, last) = range?;
            return Ok(Appended {
                first,
                last,
                replayed: false,
            });
        }
        let mut slot = WriterGuard(Arc::clone(&self.inner.writer).lock_owned().await);
        let result = append_on(
            &mut slot.0,
            &self.inner.name,
            competition,
            expected,
            events,
            idempotency,
        )
        .await;
        if result.is_err() {
            // Roll back now rather than at the next use.
            slot.0.settle().await;
        }
        result
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
        let mut slot = self.reader().await;
        let conn = slot.conn(&self.inner.name).await?;
        let rows: Vec<EventRow> = sqlx::query_as(
            "SELECT seq, kind, payload, actor, recorded_at, idempotency_key FROM events \
             WHERE competition = ?1 AND seq >= ?2 AND seq <= ?3 ORDER BY seq",
        )
        .bind(competition)
        .bind(from)
        .bind(to)
        .fetch_all(conn)
        .await
        .map_err(backend("cannot read events"))?;
        drop(slot);
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

    async fn idempotent(&self, competition: &str, key: &str) -> Result<Option<KeyUse>, StoreError> {
        let mut slot = self.reader().await;
        let conn = slot.conn(&self.inner.name).await?;
        let row: Option<(i64, i64, String)> = sqlx::query_as(
            "SELECT first_seq, last_seq, fingerprint FROM idempotency \
             WHERE key = ?1 AND competition = ?2",
        )
        .bind(key)
        .bind(competition)
        .fetch_optional(conn)
        .await
        .map_err(backend("cannot read an idempotency key"))?;
        drop(slot);
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

    async fn version(&self, competition: &str) -> Result<Seq, StoreError> {
        // On this thread when a connection of its own is free.
        if let Some(version) = self.version_now(competition) {
            return version;
        }
        let mut slot = self.reader().await;
        let conn = slot.conn(&self.inner.name).await?;
        let version: i64 = sqlx::query_scalar(quick::VERSION)
            .bind(competition)
            .fetch_one(conn)
            .await
            .map_err(backend("cannot read the version"))?;
        seq_from_db(version)
    }

    async fn competitions(&self) -> Result<Vec<String>, StoreError> {
        let mut slot = self.reader().await;
        let conn = slot.conn(&self.inner.name).await?;
        // A skip scan over the primary key: one index seek per competition
        // instead of a scan of every event. BINARY collation compares UTF-8
        // bytes, which is the order of Rust's `String`.
        sqlx::query_scalar(
            "WITH RECURSIVE c(name) AS ( \
                 SELECT MIN(competition) FROM events \
                 UNION ALL \
                 SELECT (SELECT MIN(competition) FROM events WHERE competition > c.name) \
                 FROM c WHERE c.name IS NOT NULL \
             ) \
             SELECT name FROM c WHERE name IS NOT NULL",
        )
        .fetch_all(conn)
        .await
        .map_err(backend("cannot list competitions"))
    }

    async fn put_secret(
        &self,
        competition: &str,
        name: &str,
        value: &str,
    ) -> Result<(), StoreError> {
        let mut slot = self.inner.writer.lock().await;
        let conn = slot.conn(&self.inner.name).await?;
        sqlx::query(
            "INSERT INTO secrets (competition, name, value) VALUES (?1, ?2, ?3) \
             ON CONFLICT (competition, name) DO UPDATE SET value = excluded.value",
        )
        .bind(competition)
        .bind(name)
        .bind(value)
        .execute(conn)
        .await
        .map_err(backend("cannot keep the secret"))?;
        Ok(())
    }

    async fn secret(&self, competition: &str, name: &str) -> Result<Option<String>, StoreError> {
        let mut slot = self.reader().await;
        let conn = slot.conn(&self.inner.name).await?;
        sqlx::query_scalar("SELECT value FROM secrets WHERE competition = ?1 AND name = ?2")
            .bind(competition)
            .bind(name)
            .fetch_optional(conn)
            .await
            .map_err(backend("cannot read the secret"))
    }

    async fn keys(&self, competition: &str) -> Result<Vec<KeyRecord>, StoreError> {
        let mut slot = self.reader().await;
        let conn = slot.conn(&self.inner.name).await?;
        // `idempotency` is keyed by key alone: the competition's keys are
        // found through its events (a range of the primary key), each then
        // one seek. BINARY collation: the byte order of Rust's `String`.
        let rows: Vec<(String, i64, i64, String)> = sqlx::query_as(
            "SELECT i.key, i.first_seq, i.last_seq, i.fingerprint FROM idempotency AS i \
             WHERE i.competition = ?1 AND i.key IN \
             (SELECT idempotency_key FROM events \
              WHERE competition = ?1 AND idempotency_key IS NOT NULL) \
             ORDER BY i.key",
        )
        .bind(competition)
        .fetch_all(conn)
        .await
        .map_err(backend("cannot read the idempotency keys"))?;
        drop(slot);
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
        let mut slot = self.reader().await;
        let conn = slot.conn(&self.inner.name).await?;
        sqlx::query_as("SELECT name, value FROM secrets WHERE competition = ?1 ORDER BY name")
            .bind(competition)
            .fetch_all(conn)
            .await
            .map_err(backend("cannot read the secrets"))
    }

    async fn import(&self, competitions: &[CompetitionDump]) -> Result<(), StoreError> {
        arbiter_store::check_import(competitions)?;
        if competitions.is_empty() {
            return Ok(());
        }
        let mut slot = WriterGuard(Arc::clone(&self.inner.writer).lock_owned().await);
        let result = import::competitions(&mut slot.0, &self.inner.name, competitions).await;
        if result.is_err() {
            // Roll back now rather than at the next use.
            slot.0.settle().await;
        }
        result
    }
}

/// seq, kind, payload, actor, recorded_at, idempotency_key.
type EventRow = (i64, String, String, String, String, Option<String>);

/// Maps an sqlx error to a backend error saying what failed.
fn backend(what: &'static str) -> impl FnOnce(sqlx::Error) -> StoreError {
    move |e| StoreError::Backend(format!("{what}: {e}"))
}

fn too_many() -> StoreError {
    StoreError::Backend("too many events: sequence numbers would overflow".to_owned())
}

/// The sequences `count` events appended at version `expected` would take
/// (`expected + 1 ..= expected` for none), if SQLite can hold them.
fn new_range(expected: Seq, count: usize) -> Result<(Seq, Seq), StoreError> {
    let count = Seq::try_from(count).map_err(|_| too_many())?;
    let last = expected.checked_add(count).ok_or_else(too_many)?;
    seq_to_db(last)?;
    Ok((expected + 1, last))
}

fn seq_to_db(seq: Seq) -> Result<i64, StoreError> {
    i64::try_from(seq).map_err(|_| too_many())
}

fn seq_from_db(seq: i64) -> Result<Seq, StoreError> {
    Seq::try_from(seq).map_err(|_| {
        StoreError::Backend(format!("corrupt database: negative sequence number {seq}"))
    })
}
