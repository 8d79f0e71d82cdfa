//! The generator of `scripts/bench-transfer.sh`: a TWS ladder with 10,000
//! recorded results (200 players, 100 rounds of 100 games), built through
//! the service on an in-memory store and written as an export file; and the
//! in-process timings of export, parse and import.
//!
//! Ignored by default (it takes a while in a debug build):
//! `ARBITER_BENCH_EXPORT=/tmp/ladder-10k.jsonl cargo test --release -p arbiter-service --test transfer_bench -- --ignored --nocapture`.
//! `ARBITER_BENCH_PLAYERS` and `ARBITER_BENCH_ROUNDS` change the size.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::time::Instant;

use arbiter_service::transfer::{self, ExportOptions};
use arbiter_store::EventStore;
use arbiter_store_sqlite::SqliteStore;
use common::*;

fn setting(name: &str, default: u32) -> u32 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a generator and benchmark: run with --ignored (see the file's doc)"]
async fn ladder_with_10_000_results() {
    let players = setting("ARBITER_BENCH_PLAYERS", 200);
    let rounds = setting("ARBITER_BENCH_ROUNDS", 100);
    let started = Instant::now();
    let store = SqliteStore::open_in_memory().await.unwrap();
    let svc = service(store.clone());
    create_with_members(&svc, players).await;
    for round in 0..i64::from(rounds) {
        announce(&svc, day(round * 7)).await;
        finish_round(&svc, day(round * 7 + 1)).await;
    }
    let (ladder, version) = svc.load(COMP, None).await.unwrap();
    let results = ladder
        .games
        .iter()
        .filter(|g| g.status.is_resolved())
        .count();
    eprintln!(
        "built {COMP}: {results} results, {version} events, in {:.1?}",
        started.elapsed()
    );
    assert!(results >= (players / 2 * rounds) as usize);

    let options = ExportOptions {
        competition: None,
        accounts: true,
        secrets: true,
    };
    let t = Instant::now();
    let export = transfer::export(&store, &options).await.unwrap();
    let bytes = transfer::to_bytes(&export);
    eprintln!(
        "export (read + write): {:.1?}, {} bytes, {} lines",
        t.elapsed(),
        bytes.len(),
        bytes.iter().filter(|&&b| b == b'\n').count()
    );
    let t = Instant::now();
    let parsed = transfer::parse(&bytes).unwrap();
    eprintln!("parse (with decode and fold): {:.1?}", t.elapsed());
    let dir = tempfile::tempdir().unwrap();
    let target = SqliteStore::open(&dir.path().join("import.db"))
        .await
        .unwrap();
    let t = Instant::now();
    transfer::import(&target, &parsed).await.unwrap();
    eprintln!(
        "import into a SQLite file (one transaction): {:.1?}",
        t.elapsed()
    );
    assert_eq!(target.version(COMP).await.unwrap(), version);
    let t = Instant::now();
    let again = transfer::to_bytes(&transfer::export(&target, &options).await.unwrap());
    eprintln!("re-export from the file: {:.1?}", t.elapsed());
    assert!(again == bytes, "the re-export is byte-identical");

    if let Ok(path) = std::env::var("ARBITER_BENCH_EXPORT") {
        std::fs::write(&path, &bytes).unwrap();
        eprintln!("wrote {path}");
    }
}
