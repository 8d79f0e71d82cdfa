//! Races (issue 7, part 4), on SQLite and on PostgreSQL: 16 concurrent
//! writers × 1,000 commands on one competition, each writer its own
//! service (its own cache, as a separate process would be) and each command
//! pinned to the version the writer last saw (the API's `If-Match`); and 5
//! concurrent copies of each submission with one idempotency key.
//!
//! Checked: 0 lost updates (every acknowledged command's events are in the
//! log, and the ladder has every player), 0 duplicate events, every refused
//! writer told the current version (a conflict names a version later than
//! the one expected and no later than the log's, and a retry pinned to it
//! either lands or is told a later one), and the log gapless.
//!
//! `RACE_COMMANDS` sets the commands per writer (default 1,000).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Instant;

use arbiter_engine::tws::Command;
use arbiter_service::{Context, Service, ServiceError};
use arbiter_store::{EventStore, Seq, StoreError};
use arbiter_store_postgres::{PostgresStore, testing};
use common::{COMP, assert_consistent, create_with_members, ctx, day, file_db, service};

const WRITERS: u32 = 16;
const COPIES: usize = 5;
const SUBMISSIONS: u32 = 200;

fn commands_per_writer() -> u32 {
    std::env::var("RACE_COMMANDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000)
}

fn apply(name: String) -> Command {
    Command::Apply {
        name,
        surname: None,
    }
}

/// What one writer saw.
#[derive(Debug, Default)]
struct Seen {
    /// The sequence ranges of its acknowledged commands.
    ranges: Vec<(Seq, Seq)>,
    /// Conflicts it was told of.
    refusals: u64,
}

async fn sixteen_writers<S: EventStore + Clone + 'static>(store: S, kind: &str) {
    let started = Instant::now();
    let setup = service(store.clone());
    let base = create_with_members(&setup, 4).await;
    let per_writer = commands_per_writer();
    let mut tasks = Vec::new();
    for w in 0..WRITERS {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let svc = service(store.clone());
            let at = day(1);
            let mut seen = Seen::default();
            let (_, mut version) = svc.load(COMP, None).await.unwrap();
            for i in 0..per_writer {
                let name = format!("Writer {w} applicant {i}");
                loop {
                    let pinned = Context {
                        expected: Some(version),
                        ..ctx(at)
                    };
                    match svc.execute(COMP, apply(name.clone()), &pinned).await {
                        Ok(done) => {
                            assert!(!done.replayed);
                            assert_eq!(
                                done.first,
                                version + 1,
                                "writer {w}: not after its version"
                            );
                            seen.ranges.push((done.first, done.last));
                            version = done.last;
                            break;
                        }
                        Err(ServiceError::Store(StoreError::Conflict {
                            expected, actual, ..
                        })) => {
                            // Told the current version: later than what it
                            // expected, and not beyond the log.
                            assert_eq!(expected, version);
                            assert!(
                                actual > expected,
                                "writer {w}: told {actual} after {expected}"
                            );
                            let now = store.version(COMP).await.unwrap();
                            assert!(
                                actual <= now,
                                "writer {w}: told {actual}, the log is at {now}"
                            );
                            seen.refusals += 1;
                            version = actual;
                        }
                        Err(e) => panic!("writer {w}, command {i}: {e}"),
                    }
                }
            }
            seen
        }));
    }
    let mut seen = Vec::new();
    for t in tasks {
        seen.push(t.await.unwrap());
    }
    let total = u64::from(WRITERS * per_writer);
    let refusals: u64 = seen.iter().map(|s| s.refusals).sum();

    // Every acknowledged command is one event of its own: no loss, no duplicate.
    let mut seqs = BTreeSet::new();
    for &(first, last) in seen.iter().flat_map(|s| &s.ranges) {
        assert_eq!(first, last, "{kind}: one event per application");
        assert!(
            seqs.insert(first),
            "{kind}: event {first} acknowledged twice"
        );
    }
    assert_eq!(seqs.len() as u64, total, "{kind}");
    assert_eq!(seqs, (base + 1..=base + total).collect(), "{kind}");
    assert_eq!(store.version(COMP).await.unwrap(), base + total, "{kind}");
    let fresh = service(store.clone());
    assert_consistent(&fresh, COMP).await;
    let (ladder, _) = fresh.load(COMP, None).await.unwrap();
    let names: BTreeSet<String> = ladder
        .players
        .iter()
        .map(|p| p.player.name.clone())
        .collect();
    for w in 0..WRITERS {
        for i in 0..per_writer {
            assert!(
                names.contains(&format!("Writer {w} applicant {i}")),
                "{kind}: writer {w}'s application {i} is lost"
            );
        }
    }
    eprintln!(
        "{kind}: {WRITERS} writers x {per_writer} commands: {total} stored, 0 lost, 0 duplicated, {refusals} refusals each told the current version, in {:.1?}",
        started.elapsed()
    );
}

async fn one_key_five_copies<S: EventStore + Clone + 'static>(store: S, kind: &str) {
    let started = Instant::now();
    let setup = service(store.clone());
    let base = create_with_members(&setup, 4).await;
    // Five "processes", each with its own service and cache.
    let services: Vec<Arc<Service<S>>> = (0..COPIES)
        .map(|_| Arc::new(service(store.clone())))
        .collect();
    for n in 0..SUBMISSIONS {
        let key = format!("submission-{n}");
        let mut tasks = Vec::new();
        for svc in &services {
            let svc = Arc::clone(svc);
            let key = key.clone();
            tasks.push(tokio::spawn(async move {
                let keyed = Context {
                    idempotency_key: Some(key),
                    ..ctx(day(1))
                };
                svc.execute(COMP, apply(format!("Submitted {n}")), &keyed)
                    .await
            }));
        }
        let mut firsts = 0;
        let mut ranges = BTreeSet::new();
        for t in tasks {
            let done = t
                .await
                .unwrap()
                .unwrap_or_else(|e| panic!("{kind}: a copy of submission {n} failed: {e}"));
            if !done.replayed {
                firsts += 1;
            }
            ranges.insert((done.first, done.last));
        }
        assert_eq!(firsts, 1, "{kind}: submission {n} stored {firsts} times");
        assert_eq!(
            ranges.len(),
            1,
            "{kind}: copies of {n} told different outcomes: {ranges:?}"
        );
        let expected = base + u64::from(n) + 1;
        assert_eq!(ranges.first(), Some(&(expected, expected)), "{kind}");
    }
    assert_eq!(
        store.version(COMP).await.unwrap(),
        base + u64::from(SUBMISSIONS),
        "{kind}: duplicate events"
    );
    let fresh = service(store.clone());
    assert_consistent(&fresh, COMP).await;
    eprintln!(
        "{kind}: {SUBMISSIONS} submissions x {COPIES} concurrent copies with one key: each stored once, in {:.1?}",
        started.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sixteen_writers_on_sqlite() {
    let db = file_db().await;
    sixteen_writers(db.store.clone(), "sqlite").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn five_copies_with_one_key_on_sqlite() {
    let db = file_db().await;
    one_key_five_copies(db.store.clone(), "sqlite").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sixteen_writers_on_postgres() {
    let db = testing::fresh_database(&testing::server_url())
        .await
        .unwrap();
    let store = PostgresStore::open(db.url()).await.unwrap();
    sixteen_writers(store.clone(), "postgres").await;
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn five_copies_with_one_key_on_postgres() {
    let db = testing::fresh_database(&testing::server_url())
        .await
        .unwrap();
    let store = PostgresStore::open(db.url()).await.unwrap();
    one_key_five_copies(store.clone(), "postgres").await;
    store.close().await;
}
