//! The PostgreSQL store against the conformance suites (events and
//! accounts), each check on a database of its own, and what only PostgreSQL
//! can be asked: the triggers, reopening, concurrent opens.
//!
//! Needs `ARBITER_TEST_PG_URL` (`bash scripts/test.sh` sets it; or
//! `eval "$(bash scripts/pg.sh start)"`): without it these tests fail.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Mutex;

use arbiter_store::{EventStore, Idempotency, NewEvent, StoreError};
use arbiter_store_postgres::PostgresStore;
use arbiter_store_postgres::testing::{self, TestDatabase};

/// A store on a fresh database; the database is kept in `dbs` and dropped at
/// the end of the test.
async fn fresh(dbs: &Mutex<Vec<TestDatabase>>) -> PostgresStore {
    let db = testing::fresh_database(&testing::server_url())
        .await
        .unwrap();
    let store = PostgresStore::open(db.url()).await.unwrap();
    dbs.lock().unwrap().push(db);
    store
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conformance() {
    let dbs = Mutex::new(Vec::new());
    arbiter_store::conformance::run_all(|| fresh(&dbs)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accounts_conformance() {
    let dbs = Mutex::new(Vec::new());
    arbiter_store::conformance::accounts::run_all(|| fresh(&dbs)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhooks_conformance() {
    let dbs = Mutex::new(Vec::new());
    arbiter_store::conformance::webhooks::run_all(|| fresh(&dbs)).await;
}

fn event(i: usize) -> NewEvent {
    NewEvent {
        kind: "result_recorded".to_owned(),
        payload: format!(r#"{{"v":1,"game":{i}}}"#),
        actor: "moderator:alice".to_owned(),
        recorded_at: "2024-05-01T12:00:00Z".to_owned(),
    }
}

fn keyed(key: &str) -> Option<Idempotency<'_>> {
    Some(Idempotency {
        key,
        fingerprint: "fp",
    })
}

#[tokio::test]
async fn events_are_append_only() {
    let db = testing::fresh_database(&testing::server_url())
        .await
        .unwrap();
    let store = PostgresStore::open(db.url()).await.unwrap();
    store
        .append("c", 0, &[event(1), event(2)], None)
        .await
        .unwrap();
    for sql in [
        "UPDATE events SET payload = 'forged'",
        "DELETE FROM events",
        "TRUNCATE events",
        "INSERT INTO events (competition, seq, kind, payload, actor, recorded_at) \
         VALUES ('c', 4, 'k', 'forged', 'a', 't')",
        "INSERT INTO events (competition, seq, kind, payload, actor, recorded_at) \
         VALUES ('d', 2, 'k', 'forged', 'a', 't')",
    ] {
        let err = sqlx::query(sql).execute(store.pool()).await.unwrap_err();
        assert!(
            err.to_string().contains("append-only"),
            "{sql} must be refused by a trigger, got: {err}"
        );
    }
    let err = sqlx::query(
        "INSERT INTO events (competition, seq, kind, payload, actor, recorded_at) \
         VALUES ('c', 2, 'k', 'forged', 'a', 't')",
    )
    .execute(store.pool())
    .await
    .unwrap_err();
    assert!(err.to_string().contains("append-only"), "{err}");
    assert_eq!(store.read("c", 1, None).await.unwrap().len(), 2);
    store.close().await;
    db.drop_database().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reopening_and_concurrent_opens_keep_everything() {
    let db = testing::fresh_database(&testing::server_url())
        .await
        .unwrap();
    // Several processes opening one new database at once: the migrations
    // run once (sqlx takes an advisory lock).
    let opens: Vec<_> = (0..4)
        .map(|_| {
            let url = db.url().to_owned();
            tokio::spawn(async move { PostgresStore::open(&url).await })
        })
        .collect();
    let mut stores = Vec::new();
    for open in opens {
        stores.push(open.await.unwrap().unwrap());
    }
    let store = &stores[0];
    for i in 0..20u64 {
        store
            .append("c", i, &[event(i as usize)], keyed(&format!("k{i}")))
            .await
            .unwrap();
    }
    store.put_secret("c", "seed", "s3cret").await.unwrap();
    let before = store.read("c", 1, None).await.unwrap();
    for s in &stores {
        s.close().await;
    }
    for round in 0..2 {
        let store = PostgresStore::open(db.url()).await.unwrap();
        assert_eq!(
            store.read("c", 1, None).await.unwrap(),
            before,
            "round {round}"
        );
        assert_eq!(store.version("c").await.unwrap(), 20);
        let replay = store
            .append("c", 0, &[event(0)], keyed("k3"))
            .await
            .unwrap();
        assert!(replay.replayed && replay.first == 4 && replay.last == 4);
        let migrations: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations")
            .fetch_one(store.pool())
            .await
            .unwrap();
        let files = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations"))
            .unwrap()
            .count();
        assert_eq!(migrations as usize, files, "each migration applied once");
        store.close().await;
    }
    db.drop_database().await.unwrap();
}

#[tokio::test]
async fn errors_name_the_server_and_do_not_panic() {
    // Nothing listens on port 1.
    let err = PostgresStore::open("postgres://nobody:pw@127.0.0.1:1/none")
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(
        matches!(err, StoreError::Backend(_)) && text.contains("127.0.0.1:1/none"),
        "{text}"
    );
    assert!(
        !text.contains("pw"),
        "the password stays out of messages: {text}"
    );
    let err = PostgresStore::open("postgres://h:notaport/db")
        .await
        .unwrap_err();
    assert!(err.to_string().contains("URL"), "{err}");

    // A payload PostgreSQL's TEXT cannot hold (NUL) is a backend error.
    let db = testing::fresh_database(&testing::server_url())
        .await
        .unwrap();
    let store = PostgresStore::open(db.url()).await.unwrap();
    let mut bad = event(0);
    bad.payload = "nul \0 inside".to_owned();
    let err = store.append("c", 0, &[bad], keyed("k")).await.unwrap_err();
    assert!(matches!(err, StoreError::Backend(_)), "{err:?}");
    assert_eq!(store.version("c").await.unwrap(), 0);
    // The key of the failed append was not recorded.
    let ok = store.append("c", 0, &[event(1)], keyed("k")).await.unwrap();
    assert!(!ok.replayed);
    store.close().await;
    // Closed: calls fail, without panicking.
    assert!(store.version("c").await.is_err());
    db.drop_database().await.unwrap();
}

/// An append dropped part-way (its caller timed out) is all or nothing, and
/// the store goes on working: the statement runs to its end or not at all
/// on the server, and the connection is drained before its next use.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelled_appends_are_all_or_nothing() {
    let db = testing::fresh_database(&testing::server_url())
        .await
        .unwrap();
    let store = PostgresStore::open(db.url()).await.unwrap();
    let big: Vec<NewEvent> = (0..2000).map(event).collect();
    for round in 0..20u64 {
        let c = format!("c{round}");
        let delay = std::time::Duration::from_micros(round * round * 100);
        let attempt = tokio::time::timeout(delay, store.append(&c, 0, &big, keyed(&c))).await;
        // The server may still be running the statement: wait for its end.
        let mut version = store.version(&c).await.unwrap();
        for _ in 0..50 {
            if version != 0 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            version = store.version(&c).await.unwrap();
        }
        match attempt {
            Ok(result) => {
                result.unwrap();
                assert_eq!(version, 2000);
            }
            Err(_elapsed) => assert!(
                version == 0 || version == 2000,
                "a cancelled append left {version} events"
            ),
        }
        // The command, retried, is appended or replayed.
        let got = store.append(&c, 0, &big, keyed(&c)).await.unwrap();
        assert_eq!((got.first, got.last), (1, 2000));
        let got = store.append(&c, 2000, &[event(0)], None).await.unwrap();
        assert_eq!((got.first, got.last, got.replayed), (2001, 2001, false));
        assert_eq!(store.read(&c, 1, None).await.unwrap().len(), 2001);
    }
    store.close().await;
    db.drop_database().await.unwrap();
}

/// Writers in separate stores (separate pools, as separate processes would
/// have) racing on one competition: every command once, no gap.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writers_of_separate_stores_lose_nothing() {
    const STORES: usize = 4;
    const TASKS: usize = 4;
    const APPENDS: usize = 25;
    let db = testing::fresh_database(&testing::server_url())
        .await
        .unwrap();
    let mut stores = Vec::new();
    for _ in 0..STORES {
        stores.push(PostgresStore::open_with(db.url(), 4).await.unwrap());
    }
    let mut tasks = Vec::new();
    for (s, store) in stores.iter().enumerate() {
        for t in 0..TASKS {
            let store = store.clone();
            tasks.push(tokio::spawn(async move {
                for i in 0..APPENDS {
                    let key = format!("s{s}-t{t}-{i}");
                    // Two attempts per command with the same key: the second
                    // is a replay, never a second event.
                    for attempt in 0..2 {
                        loop {
                            let expected = store.version("race").await.unwrap();
                            match store
                                .append("race", expected, &[event(i)], keyed(&key))
                                .await
                            {
                                Ok(done) => {
                                    assert_eq!(done.replayed, attempt == 1);
                                    break;
                                }
                                Err(StoreError::Conflict { actual, .. }) => {
                                    assert!(actual > expected);
                                }
                                Err(e) => panic!("{e}"),
                            }
                        }
                    }
                }
            }));
        }
    }
    for t in tasks {
        t.await.unwrap();
    }
    let log = stores[0].read("race", 1, None).await.unwrap();
    let n = (STORES * TASKS * APPENDS) as u64;
    assert_eq!(
        log.iter().map(|e| e.seq).collect::<Vec<_>>(),
        (1..=n).collect::<Vec<_>>()
    );
    let keys: std::collections::HashSet<_> =
        log.iter().map(|e| e.idempotency_key.clone()).collect();
    assert_eq!(keys.len() as u64, n, "each command once");
    for s in &stores {
        s.close().await;
    }
    db.drop_database().await.unwrap();
}
