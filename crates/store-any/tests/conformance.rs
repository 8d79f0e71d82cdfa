//! `AnyStore` delegates every call: the conformance suites through it, on
//! SQLite (a file) and on PostgreSQL (`ARBITER_TEST_PG_URL`, required).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use arbiter_store_any::AnyStore;
use arbiter_store_postgres::testing::{self, TestDatabase};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_through_any_store() {
    let dir = tempfile::tempdir().unwrap();
    let n = AtomicUsize::new(0);
    let open = || {
        let path = dir
            .path()
            .join(format!("s{}.db", n.fetch_add(1, Ordering::Relaxed)));
        async move { AnyStore::open(path.to_str().unwrap()).await.unwrap() }
    };
    arbiter_store::conformance::run_all(open).await;
    arbiter_store::conformance::accounts::run_all(open).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_through_any_store() {
    let dbs: Mutex<Vec<TestDatabase>> = Mutex::new(Vec::new());
    let open = || async {
        let db = testing::fresh_database(&testing::server_url())
            .await
            .unwrap();
        let store = AnyStore::open(db.url()).await.unwrap();
        assert_eq!(store.backend_name(), "PostgreSQL");
        dbs.lock().unwrap().push(db);
        store
    };
    arbiter_store::conformance::run_all(open).await;
    arbiter_store::conformance::accounts::run_all(open).await;
}
