//! Durable single-event appends per second on a file database.
//!
//! `cargo run --release -p arbiter-store-sqlite --example append_rate [N]`
//! (N defaults to 5000). Each append is one event with its own idempotency
//! key, committed with `synchronous=FULL`, one after the other. The figure
//! is bounded by the disk's fsync latency: compare it with a quiet machine.

use std::time::{Duration, Instant};

use arbiter_store::{EventStore, Idempotency, NewEvent};
use arbiter_store_sqlite::SqliteStore;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: u64 = match std::env::args().nth(1) {
        Some(arg) => arg.parse()?,
        None => 5000,
    };
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("append_rate.db");
    let opening = Instant::now();
    let store = SqliteStore::open(&path).await?;
    let opened = opening.elapsed();

    let mut latencies = Vec::with_capacity(usize::try_from(n)?);
    let start = Instant::now();
    for i in 0..n {
        let event = NewEvent {
            kind: "result_recorded".to_owned(),
            payload: format!(
                r#"{{"v":1,"round":{},"white":"p{i}","black":"q{i}","score":[2,0]}}"#,
                i / 100
            ),
            actor: "moderator:alice".to_owned(),
            recorded_at: "2024-05-01T12:00:00Z".to_owned(),
        };
        let key = format!("cmd-{i}");
        // As long as the service's (hex of a SHA-256).
        let fingerprint = format!("{i:064x}");
        let idempotency = Idempotency {
            key: &key,
            fingerprint: &fingerprint,
        };
        let t = Instant::now();
        store
            .append("bench", i, &[event], Some(idempotency))
            .await?;
        latencies.push(t.elapsed());
    }
    let elapsed = start.elapsed();
    assert_eq!(store.version("bench").await?, n);
    store.close().await;

    latencies.sort();
    let at = |q: f64| -> Duration {
        latencies
            .get(((latencies.len() as f64 - 1.0) * q) as usize)
            .copied()
            .unwrap_or_default()
    };
    println!("created and opened the database in {opened:?}");
    println!(
        "{n} durable appends in {:.3} s: {:.0} appends/s; latency p50 {:?}, p99 {:?}, max {:?}",
        elapsed.as_secs_f64(),
        n as f64 / elapsed.as_secs_f64(),
        at(0.5),
        at(0.99),
        at(1.0),
    );
    Ok(())
}
