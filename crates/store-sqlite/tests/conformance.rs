//! The SQLite store against the conformance suites (events and accounts),
//! and what only SQLite can be asked: the triggers, and the file surviving a
//! reopen.

#![allow(clippy::unwrap_used)]

use std::path::Path;

use arbiter_store::{EventStore, Idempotency, NewEvent};
use arbiter_store_sqlite::SqliteStore;
use sqlx::sqlite::SqliteConnection;
use sqlx::{ConnectOptions, Connection};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conformance_file() {
    let dir = tempfile::tempdir().unwrap();
    let counter = std::sync::atomic::AtomicUsize::new(0);
    arbiter_store::conformance::run_all(|| {
        let n = counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        // A missing parent directory is created too.
        let path = dir.path().join(format!("store-{n}")).join("arbiter.db");
        async move { SqliteStore::open(&path).await.unwrap() }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conformance_in_memory() {
    arbiter_store::conformance::run_all(|| async { SqliteStore::open_in_memory().await.unwrap() })
        .await;
}

#[tokio::test]
async fn accounts_conformance_file() {
    let dir = tempfile::tempdir().unwrap();
    let counter = std::sync::atomic::AtomicUsize::new(0);
    arbiter_store::conformance::accounts::run_all(|| {
        let n = counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = dir.path().join(format!("accounts-{n}")).join("arbiter.db");
        async move { SqliteStore::open(&path).await.unwrap() }
    })
    .await;
}

#[tokio::test]
async fn accounts_conformance_in_memory() {
    arbiter_store::conformance::accounts::run_all(|| async {
        SqliteStore::open_in_memory().await.unwrap()
    })
    .await;
}

#[tokio::test]
async fn webhooks_conformance_file() {
    let dir = tempfile::tempdir().unwrap();
    let counter = std::sync::atomic::AtomicUsize::new(0);
    arbiter_store::conformance::webhooks::run_all(|| {
        let n = counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = dir.path().join(format!("webhooks-{n}")).join("arbiter.db");
        async move { SqliteStore::open(&path).await.unwrap() }
    })
    .await;
}

#[tokio::test]
async fn webhooks_conformance_in_memory() {
    arbiter_store::conformance::webhooks::run_all(|| async {
        SqliteStore::open_in_memory().await.unwrap()
    })
    .await;
}

fn event(i: usize) -> NewEvent {
    NewEvent {
        kind: "result_recorded".to_owned(),
        payload: format!(r#"{{"v":1,"game":{i}}}"#),
        actor: "moderator:alice".to_owned(),
        recorded_at: "2024-05-01T12:00:00Z".to_owned(),
    }
}

/// The key `key` for one request.
fn keyed(key: &str) -> Option<Idempotency<'_>> {
    Some(Idempotency {
        key,
        fingerprint: "fp",
    })
}

async fn raw(path: &Path) -> SqliteConnection {
    SqliteConnection::connect(&format!("sqlite://{}", path.display()))
        .await
        .unwrap()
}

#[tokio::test]
async fn events_are_append_only() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("arbiter.db");
    let store = SqliteStore::open(&path).await.unwrap();
    store
        .append("c", 0, &[event(1), event(2)], keyed("k"))
        .await
        .unwrap();

    let mut conn = raw(&path).await;
    for sql in [
        "UPDATE events SET payload = 'forged' WHERE seq = 1",
        "UPDATE events SET seq = 7",
        "DELETE FROM events WHERE seq = 2",
        "DELETE FROM events",
    ] {
        let err = sqlx::query(sql).execute(&mut conn).await.unwrap_err();
        assert!(
            err.to_string().contains("append-only"),
            "{sql} must be refused by a trigger, got: {err}"
        );
    }
    for sql in [
        // REPLACE deletes the old row without firing the delete trigger.
        "INSERT OR REPLACE INTO events (competition, seq, kind, payload, actor, recorded_at) \
         VALUES ('c', 1, 'k', 'forged', 'a', 't')",
        // A gap.
        "INSERT INTO events (competition, seq, kind, payload, actor, recorded_at) \
         VALUES ('c', 4, 'k', 'forged', 'a', 't')",
        "INSERT INTO events (competition, seq, kind, payload, actor, recorded_at) \
         VALUES ('d', 2, 'k', 'forged', 'a', 't')",
    ] {
        let err = sqlx::query(sql).execute(&mut conn).await.unwrap_err();
        assert!(
            err.to_string().contains("append-only"),
            "{sql} must be refused by a trigger, got: {err}"
        );
    }
    // The next sequence is accepted (what the store itself does).
    sqlx::query(
        "INSERT INTO events (competition, seq, kind, payload, actor, recorded_at) \
         VALUES ('c', 3, 'k', 'p', 'a', 't')",
    )
    .execute(&mut conn)
    .await
    .unwrap();
    let events = store.read("c", 1, None).await.unwrap();
    assert_eq!(events.len(), 3);
    assert_eq!(events[0].payload, event(1).payload);
    assert_eq!(events[1].payload, event(2).payload);
    conn.close().await.unwrap();
}

#[tokio::test]
async fn reopening_keeps_every_event_and_migrations_are_idempotent() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested").join("arbiter.db");

    let store = SqliteStore::open(&path).await.unwrap();
    for i in 0..20u64 {
        store
            .append("c", i, &[event(i as usize)], keyed(&format!("k{i}")))
            .await
            .unwrap();
    }
    store.put_secret("c", "seed", "s3cret").await.unwrap();
    let before = store.read("c", 1, None).await.unwrap();
    store.close().await;
    drop(store);

    for round in 0..3 {
        let store = SqliteStore::open(&path).await.unwrap();
        assert_eq!(
            store.read("c", 1, None).await.unwrap(),
            before,
            "round {round}"
        );
        assert_eq!(store.version("c").await.unwrap(), 20);
        assert_eq!(store.competitions().await.unwrap(), vec!["c".to_owned()]);
        assert_eq!(
            store.secret("c", "seed").await.unwrap().as_deref(),
            Some("s3cret")
        );
        // Idempotency keys survive too.
        let replay = store
            .append("c", 0, &[event(0)], keyed("k3"))
            .await
            .unwrap();
        assert!(replay.replayed && replay.first == 4 && replay.last == 4);
        store.close().await;
    }

    let mut conn = raw(&path).await;
    let migrations: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    let files = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations"))
        .unwrap()
        .count();
    assert_eq!(migrations as usize, files, "each migration applied once");
    let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(mode, "wal");
    conn.close().await.unwrap();
}

#[tokio::test]
async fn open_names_the_path_it_cannot_open() {
    let dir = tempfile::tempdir().unwrap();
    // A directory where the file should be.
    let path = dir.path().join("is-a-dir");
    std::fs::create_dir(&path).unwrap();
    let err = SqliteStore::open(&path).await.unwrap_err().to_string();
    assert!(
        err.contains("cannot open database at") && err.contains("is-a-dir"),
        "{err}"
    );
}

/// Appends around the batch size of the SQLite store (it inserts up to
/// `CHUNK` events per statement), refused ones included.
#[tokio::test]
async fn appends_across_chunk_boundaries() {
    use arbiter_store_sqlite::CHUNK;
    let store = SqliteStore::open_in_memory().await.unwrap();
    let mut version = 0u64;
    for (i, n) in [
        1,
        CHUNK - 1,
        CHUNK,
        CHUNK + 1,
        2 * CHUNK,
        2 * CHUNK + 1,
        3 * CHUNK + 7,
    ]
    .into_iter()
    .enumerate()
    {
        let c = format!("c{i}");
        let evs: Vec<NewEvent> = (0..n).map(event).collect();
        let key = format!("k{i}");
        // Refused first: a conflict and a key used elsewhere write nothing.
        let err = store.append(&c, 1, &evs, keyed(&key)).await.unwrap_err();
        assert!(
            matches!(err, arbiter_store::StoreError::Conflict { actual: 0, .. }),
            "{err}"
        );
        let got = store.append(&c, 0, &evs, keyed(&key)).await.unwrap();
        assert_eq!(
            (got.first, got.last, got.replayed),
            (1, n as u64, false),
            "n = {n}"
        );
        let got = store.append(&c, 0, &evs, keyed(&key)).await.unwrap();
        assert_eq!(
            (got.first, got.last, got.replayed),
            (1, n as u64, true),
            "n = {n}"
        );
        let err = store
            .append("other", 0, &evs, keyed(&key))
            .await
            .unwrap_err();
        assert!(
            matches!(err, arbiter_store::StoreError::KeyReused { .. }),
            "{err}"
        );
        // The key for another request: refused on the first chunk, whatever
        // the number of chunks.
        let other = Some(Idempotency {
            key: &key,
            fingerprint: "another request",
        });
        let err = store.append(&c, n as u64, &evs, other).await.unwrap_err();
        assert!(
            matches!(err, arbiter_store::StoreError::KeyReused { .. }),
            "{err}"
        );
        let read = store.read(&c, 1, None).await.unwrap();
        assert_eq!(read.len(), n);
        for (e, seq) in read.iter().zip(1..) {
            assert_eq!(e.seq, seq);
            assert_eq!(e.payload, event(seq as usize - 1).payload);
            assert_eq!(e.idempotency_key.as_deref(), Some(key.as_str()));
        }
        version += n as u64;
    }
    assert_eq!(store.version("other").await.unwrap(), 0);
    let total: usize = {
        let mut t = 0;
        for c in store.competitions().await.unwrap() {
            t += store.read(&c, 1, None).await.unwrap().len();
        }
        t
    };
    assert_eq!(total as u64, version);
}

/// An append dropped part-way (its caller timed out, its task was aborted)
/// is all or nothing, and the store goes on working.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelled_appends_are_all_or_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for store in [
        SqliteStore::open(&dir.path().join("cancel.db"))
            .await
            .unwrap(),
        SqliteStore::open_in_memory().await.unwrap(),
    ] {
        let big: Vec<NewEvent> = (0..1000).map(event).collect();
        for round in 0..30u64 {
            let c = format!("c{round}");
            let delay = std::time::Duration::from_micros(round * round * 50);
            let attempt = tokio::time::timeout(delay, store.append(&c, 0, &big, keyed(&c))).await;
            let version = store.version(&c).await.unwrap();
            match attempt {
                Ok(result) => {
                    result.unwrap();
                    assert_eq!(version, 1000);
                }
                Err(_elapsed) => assert!(
                    version == 0 || version == 1000,
                    "a cancelled append left {version} events"
                ),
            }
            // The store goes on: the command, retried, is appended or replayed.
            let got = store.append(&c, 0, &big, keyed(&c)).await.unwrap();
            assert_eq!((got.first, got.last), (1, 1000));
            let got = store.append(&c, 1000, &[event(0)], None).await.unwrap();
            assert_eq!((got.first, got.last, got.replayed), (1001, 1001, false));
            assert_eq!(store.read(&c, 1, None).await.unwrap().len(), 1001);
        }
    }
}

/// A cancelled append does not keep SQLite's write lock from other
/// processes until the store's next append.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_append_releases_the_write_lock() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lock.db");
    let store = SqliteStore::open(&path).await.unwrap();
    let big: Vec<NewEvent> = (0..5000).map(event).collect();
    for round in 0..5u64 {
        let delay = std::time::Duration::from_millis(1 + round * 3);
        let _ = tokio::time::timeout(delay, store.append("c", 0, &big, None)).await;
        // Another process's writer, with a short busy timeout.
        let mut other = sqlx::sqlite::SqliteConnectOptions::new()
            .filename(&path)
            .busy_timeout(std::time::Duration::from_secs(2))
            .connect()
            .await
            .unwrap();
        sqlx::query("BEGIN IMMEDIATE")
            .execute(&mut other)
            .await
            .unwrap_or_else(|e| panic!("round {round}: the write lock is still held: {e}"));
        sqlx::query("ROLLBACK").execute(&mut other).await.unwrap();
        other.close().await.unwrap();
        let v = store.version("c").await.unwrap();
        assert!(v == 0 || v == 5000, "{v}");
        if v == 5000 {
            break;
        }
    }
}

/// A database made before request fingerprints were kept (migration 0001
/// only) is brought up to date on open: its keys get the unknown
/// fingerprint and are replayed for any request, as they were; keys
/// recorded afterwards refuse another request.
#[tokio::test]
async fn keys_recorded_before_fingerprints_still_replay() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");

    // The schema of migration 0001 alone, as an older Arbiter left it, and a
    // keyed command appended by that version.
    let old_migrations = dir.path().join("migrations");
    std::fs::create_dir(&old_migrations).unwrap();
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/migrations/0001_events.sql"),
        old_migrations.join("0001_events.sql"),
    )
    .unwrap();
    let mut conn = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(&path)
        .create_if_missing(true)
        .connect()
        .await
        .unwrap();
    sqlx::migrate::Migrator::new(old_migrations.as_path())
        .await
        .unwrap()
        .run(&mut conn)
        .await
        .unwrap();
    for (seq, key) in [(1, "old-key"), (2, "old-key")] {
        sqlx::query(
            "INSERT INTO events (competition, seq, kind, payload, actor, recorded_at, idempotency_key) \
             VALUES ('c', ?1, 'k', 'p', 'a', 't', ?2)",
        )
        .bind(seq)
        .bind(key)
        .execute(&mut conn)
        .await
        .unwrap();
    }
    sqlx::query(
        "INSERT INTO idempotency (key, competition, first_seq, last_seq) VALUES ('old-key', 'c', 1, 2)",
    )
    .execute(&mut conn)
    .await
    .unwrap();
    conn.close().await.unwrap();

    let store = SqliteStore::open(&path).await.unwrap();
    let found = store.idempotent("c", "old-key").await.unwrap().unwrap();
    assert_eq!((found.appended.first, found.appended.last), (1, 2));
    assert_eq!(found.fingerprint, "", "an old key's fingerprint is unknown");
    assert!(found.matches("anything"));
    for fingerprint in ["fp", "another request"] {
        let got = store
            .append(
                "c",
                0,
                &[event(9)],
                Some(Idempotency {
                    key: "old-key",
                    fingerprint,
                }),
            )
            .await
            .unwrap();
        assert_eq!((got.first, got.last, got.replayed), (1, 2, true));
    }
    // The old key in another competition is still refused.
    let err = store
        .append("d", 0, &[event(9)], keyed("old-key"))
        .await
        .unwrap_err();
    assert!(
        matches!(err, arbiter_store::StoreError::KeyReused { .. }),
        "{err}"
    );
    // New keys keep their fingerprint.
    store
        .append("c", 2, &[event(3)], keyed("new-key"))
        .await
        .unwrap();
    let err = store
        .append(
            "c",
            3,
            &[event(4)],
            Some(Idempotency {
                key: "new-key",
                fingerprint: "another request",
            }),
        )
        .await
        .unwrap_err();
    assert!(
        matches!(err, arbiter_store::StoreError::KeyReused { ref key } if key == "new-key"),
        "{err}"
    );
    assert_eq!(store.version("c").await.unwrap(), 3);
    store.close().await;
}

/// Accounts, grants, sessions and tokens survive a reopen, and their tables,
/// unlike `events`, take UPDATE and DELETE.
#[tokio::test]
async fn accounts_survive_a_reopen_and_are_not_append_only() {
    use arbiter_store::{Account, AccountStore, ApiToken, Grant, Role, Session};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("arbiter.db");
    let alice = Account {
        username: "alice".to_owned(),
        display_name: "Alice".to_owned(),
        email: None,
        password_hash: "$argon2id$hash".to_owned(),
        organizer: true,
        created_at: "2024-05-01T12:00:00Z".to_owned(),
    };
    let grant = Grant {
        competition: "c".to_owned(),
        username: "alice".to_owned(),
        role: Role::Owner,
        player: None,
    };
    let session = Session {
        id_hash: "s".to_owned(),
        username: "alice".to_owned(),
        csrf: "csrf".to_owned(),
        created_at: 1,
        expires_at: 100,
    };
    let token = ApiToken {
        hash: "t".to_owned(),
        username: "alice".to_owned(),
        label: "ci".to_owned(),
        created_at: "2024-05-01T12:00:00Z".to_owned(),
        expires_at: None,
        last_used: None,
    };
    let store = SqliteStore::open(&path).await.unwrap();
    store.create_account(&alice).await.unwrap();
    store.grant(&grant).await.unwrap();
    store.put_session(&session).await.unwrap();
    store.put_token(&token).await.unwrap();
    store.close().await;
    drop(store);

    let store = SqliteStore::open(&path).await.unwrap();
    assert_eq!(store.account("alice").await.unwrap(), Some(alice));
    assert_eq!(store.grants_of("alice").await.unwrap(), vec![grant]);
    assert_eq!(store.session("s", 50).await.unwrap(), Some(session));
    assert_eq!(store.token("t").await.unwrap(), Some(token));
    store.close().await;

    let mut conn = raw(&path).await;
    for sql in [
        "UPDATE accounts SET display_name = 'A.'",
        "DELETE FROM grants",
        "DELETE FROM sessions",
        "DELETE FROM api_tokens",
        "DELETE FROM accounts",
    ] {
        sqlx::query(sql).execute(&mut conn).await.unwrap();
    }
    conn.close().await.unwrap();
}

/// The version read on the caller's thread (`version_now`, the first try
/// of `version`) sees every append committed before it, by this store or
/// another process's, and agrees with the read through sqlx; a write
/// transaction in progress elsewhere neither blocks it nor shows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_version_read_now_sees_every_committed_append() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("quick.db");
    let here = SqliteStore::open(&path).await.unwrap();
    // Another process: its own store on the same file.
    let there = SqliteStore::open(&path).await.unwrap();
    assert_eq!(here.version_now("c").unwrap().unwrap(), 0);
    for n in 1..=50u64 {
        let (writer, reader) = if n % 2 == 0 {
            (&here, &there)
        } else {
            (&there, &here)
        };
        writer
            .append("c", n - 1, &[event(n as usize)], None)
            .await
            .unwrap();
        assert_eq!(reader.version_now("c").unwrap().unwrap(), n, "append {n}");
        assert_eq!(reader.version("c").await.unwrap(), n);
    }
    assert_eq!(here.version_now("other").unwrap().unwrap(), 0);

    // An uncommitted write elsewhere: the committed version, at once.
    let mut other = raw(&path).await;
    sqlx::query("BEGIN IMMEDIATE")
        .execute(&mut other)
        .await
        .unwrap();
    sqlx::query(
        "INSERT INTO events (competition, seq, kind, payload, actor, recorded_at) \
         SELECT competition, seq + 1, kind, payload, actor, recorded_at FROM events \
         WHERE competition = 'c' AND seq = 50",
    )
    .execute(&mut other)
    .await
    .unwrap();
    assert_eq!(here.version_now("c").unwrap().unwrap(), 50);
    sqlx::query("COMMIT").execute(&mut other).await.unwrap();
    assert_eq!(here.version_now("c").unwrap().unwrap(), 51);
    other.close().await.unwrap();

    // Closed: nothing now, and `version` says the store is closed.
    here.close().await;
    assert!(here.version_now("c").is_none());
    let closed = here.version("c").await.unwrap_err().to_string();
    assert!(closed.contains("closed"), "{closed}");
    there.close().await;
}

/// An in-memory database has no other connection to read it on.
#[tokio::test]
async fn an_in_memory_store_reads_its_version_through_sqlx() {
    let store = SqliteStore::open_in_memory().await.unwrap();
    assert!(store.version_now("c").is_none());
    store.append("c", 0, &[event(1)], None).await.unwrap();
    assert_eq!(store.version("c").await.unwrap(), 1);
}
