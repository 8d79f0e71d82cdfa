//! The store's hottest read, a competition's version, which a server asks
//! on every request it answers from what it keeps (a rendered page, a
//! serialized view).
//!
//! `cargo bench -p arbiter-store-sqlite --bench version`
//!
//! - `version`: `EventStore::version` on a file database of one
//!   competition of 1,000 events, as the server calls it: read on the
//!   calling thread by the store's own connection (`version_now`).
//! - `through_sqlx`: the same query on an sqlx connection to the same file,
//!   as `version` read it before (each statement a round trip to the
//!   connection's worker thread): the anchor.
//!
//! Both run on a multi-threaded Tokio runtime of two workers, as the
//! server does, one call at a time.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_store::{EventStore, NewEvent};
use arbiter_store_sqlite::SqliteStore;
use divan::Bencher;
use sqlx::ConnectOptions;

fn main() {
    divan::main();
}

struct Fixture {
    runtime: tokio::runtime::Runtime,
    store: SqliteStore,
    conn: tokio::sync::Mutex<sqlx::SqliteConnection>,
    _dir: tempfile::TempDir,
}

fn fixture() -> Fixture {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bench.db");
    let (store, conn) = runtime.block_on(async {
        let store = SqliteStore::open(&path).await.unwrap();
        let events: Vec<NewEvent> = (0..1000)
            .map(|i| NewEvent {
                kind: "result_recorded".to_owned(),
                payload: format!(r#"{{"v":1,"game":{i}}}"#),
                actor: "moderator:alice".to_owned(),
                recorded_at: "2024-05-01T12:00:00Z".to_owned(),
            })
            .collect();
        store.append("c", 0, &events, None).await.unwrap();
        let conn = sqlx::sqlite::SqliteConnectOptions::new()
            .filename(&path)
            .connect()
            .await
            .unwrap();
        (store, conn)
    });
    Fixture {
        runtime,
        store,
        conn: tokio::sync::Mutex::new(conn),
        _dir: dir,
    }
}

#[divan::bench]
fn version(bencher: Bencher) {
    let f = fixture();
    assert!(f.store.version_now("c").is_some());
    bencher.bench_local(|| {
        f.runtime.block_on(async {
            tokio::spawn({
                let store = f.store.clone();
                async move { store.version("c").await.unwrap() }
            })
            .await
            .unwrap()
        })
    });
}

#[divan::bench]
fn through_sqlx(bencher: Bencher) {
    let f = fixture();
    let conn = std::sync::Arc::new(f.conn);
    bencher.bench_local(|| {
        f.runtime.block_on(async {
            tokio::spawn({
                let conn = std::sync::Arc::clone(&conn);
                async move {
                    let mut conn = conn.lock().await;
                    let v: i64 = sqlx::query_scalar(
                        "SELECT COALESCE(MAX(seq), 0) FROM events WHERE competition = ?1",
                    )
                    .bind("c")
                    .fetch_one(&mut *conn)
                    .await
                    .unwrap();
                    v
                }
            })
            .await
            .unwrap()
        })
    });
}
