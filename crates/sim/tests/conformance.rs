//! The in-memory store against the conformance suites of the event store
//! and the account store.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_sim::MemoryStore;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conformance() {
    arbiter_store::conformance::run_all(|| async { MemoryStore::new() }).await;
}

#[tokio::test]
async fn accounts_conformance() {
    arbiter_store::conformance::accounts::run_all(|| async { MemoryStore::new() }).await;
}

#[tokio::test]
async fn webhooks_conformance() {
    arbiter_store::conformance::webhooks::run_all(|| async { MemoryStore::new() }).await;
}
