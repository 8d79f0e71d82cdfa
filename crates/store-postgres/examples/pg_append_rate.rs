//! Durable single-event appends per second on PostgreSQL, from 1 and from
//! 16 concurrent tasks.
//!
//! `ARBITER_TEST_PG_URL=postgres://… cargo run --release -p arbiter-store-postgres --example pg_append_rate [N]`
//! (`eval "$(bash scripts/pg.sh start)"` starts a throwaway server). N (default
//! 2000) appends per run, each one event with its own idempotency key,
//! committed with `synchronous_commit = on`. One run appends to one
//! competition from one task; the other from 16 tasks, each on its own
//! competition (writers of one competition queue on its lock by design),
//! then 16 tasks racing on one competition, retrying on conflict. Each run
//! has a fresh database, dropped afterwards.

use std::sync::Arc;
use std::time::{Duration, Instant};

use arbiter_store::{EventStore, Idempotency, NewEvent, StoreError};
use arbiter_store_postgres::{PostgresStore, testing};

fn event(i: u64) -> NewEvent {
    NewEvent {
        kind: "result_recorded".to_owned(),
        payload: format!(
            r#"{{"v":1,"round":{},"white":"p{i}","black":"q{i}","score":[2,0]}}"#,
            i / 100
        ),
        actor: "moderator:alice".to_owned(),
        recorded_at: "2024-05-01T12:00:00Z".to_owned(),
    }
}

/// `n` appends by `tasks` tasks; `shared`: all on one competition (retrying
/// on conflict), else one competition per task. Returns the latencies and
/// the conflicts.
async fn run(
    store: &PostgresStore,
    n: u64,
    tasks: u64,
    shared: bool,
) -> Result<(Duration, Vec<Duration>, u64), Box<dyn std::error::Error>> {
    let store = Arc::new(store.clone());
    let start = Instant::now();
    let mut handles = Vec::new();
    for t in 0..tasks {
        let store = Arc::clone(&store);
        handles.push(tokio::spawn(async move {
            let competition = if shared {
                "bench".to_owned()
            } else {
                format!("bench-{t}")
            };
            let mut latencies = Vec::new();
            let mut conflicts = 0u64;
            let mut version = 0;
            for i in (t..n).step_by(tasks as usize) {
                let key = format!("cmd-{i}");
                // As long as the service's (hex of a SHA-256).
                let fingerprint = format!("{i:064x}");
                let idempotency = Idempotency {
                    key: &key,
                    fingerprint: &fingerprint,
                };
                let t0 = Instant::now();
                loop {
                    match store
                        .append(&competition, version, &[event(i)], Some(idempotency))
                        .await
                    {
                        Ok(done) => {
                            version = done.last;
                            break;
                        }
                        Err(StoreError::Conflict { actual, .. }) => {
                            conflicts += 1;
                            version = actual;
                        }
                        Err(e) => return Err(e.to_string()),
                    }
                }
                latencies.push(t0.elapsed());
            }
            Ok((latencies, conflicts))
        }));
    }
    let mut all = Vec::new();
    let mut conflicts = 0;
    for h in handles {
        let (latencies, c) = h.await??;
        all.extend(latencies);
        conflicts += c;
    }
    Ok((start.elapsed(), all, conflicts))
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: u64 = match std::env::args().nth(1) {
        Some(arg) => arg.parse()?,
        None => 2000,
    };
    let server = testing::server_url();
    for (tasks, shared, what) in [
        (1, true, "1 task, one competition"),
        (16, false, "16 tasks, one competition each"),
        (16, true, "16 tasks racing on one competition"),
    ] {
        let db = testing::fresh_database(&server).await?;
        let store = PostgresStore::open(db.url()).await?;
        let (elapsed, mut latencies, conflicts) = run(&store, n, tasks, shared).await?;
        let mut total = 0;
        for c in store.competitions().await? {
            total += store.version(&c).await?;
        }
        assert_eq!(total, n, "every append stored once");
        store.close().await;
        db.drop_database().await?;
        latencies.sort();
        let at = |q: f64| -> Duration {
            latencies
                .get(((latencies.len() as f64 - 1.0) * q) as usize)
                .copied()
                .unwrap_or_default()
        };
        println!(
            "{what}: {n} durable appends in {:.3} s: {:.0} appends/s; latency p50 {:?}, p99 {:?}, max {:?}; {conflicts} conflicts retried",
            elapsed.as_secs_f64(),
            n as f64 / elapsed.as_secs_f64(),
            at(0.5),
            at(0.99),
            at(1.0),
        );
    }
    Ok(())
}
