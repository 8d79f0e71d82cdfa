//! The deterministic simulation of an XMadn league (see
//! `arbiter_sim::sim_league`): many seeds, each a league (its rules drawn
//! from the seed) run by simulated moderators through services over one
//! in-memory store with faults, every invariant checked after every
//! delivery.
//!
//! - `SIM_LEAGUE_SEEDS=<n>` sets how many seeds `many_seeds` runs (default
//!   2,000), `SIM_FIRST=<n>` the first seed (default 0), `SIM_STEPS=<n>` the
//!   steps of each run.
//! - A roll refused by the rules where a replay of its key or a conflict
//!   with its pinned version was due is a failure (`league_roll` looks at
//!   both before it decides; it did not until this simulation found it).
//!   `SIM_LEAGUE_STRICT_ROLLS=0` only counts them (`rolls_checked_late`).
//! - `SIM_SEED=<n> cargo test -p arbiter-sim --test simulation_league replay
//!   -- --nocapture` replays one seed exactly (what a failure prints).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use arbiter_sim::sim::Config;
use arbiter_sim::sim_league::{Stats, current_step, default_config, run_seed_with};

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

fn config() -> Config {
    let mut config = default_config();
    if let Some(steps) = env_u64("SIM_STEPS") {
        config.steps = steps as usize;
    }
    config
}

/// One seed; a panic inside (the engine's, the service's) is reported with
/// the seed and step like a broken invariant.
fn one(seed: u64, config: Config) -> Result<Stats, String> {
    match catch_unwind(AssertUnwindSafe(|| {
        run_seed_with(seed, config, env_u64("SIM_LEAGUE_STRICT_ROLLS") != Some(0))
    })) {
        Ok(Ok(stats)) => Ok(stats),
        Ok(Err(failure)) => Err(failure.to_string()),
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default();
            Err(format!(
                "league simulation seed {seed} panicked at step {}: {what}\n  replay it: SIM_SEED={seed} cargo test -p arbiter-sim --test simulation_league replay -- --nocapture",
                current_step()
            ))
        }
    }
}

#[test]
fn many_seeds() {
    let seeds = env_u64("SIM_LEAGUE_SEEDS").unwrap_or(3_000);
    let first = env_u64("SIM_FIRST").unwrap_or(0);
    let config = config();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()) as u64;
    let next = AtomicU64::new(first);
    let total = Mutex::new(Stats::default());
    let failures = Mutex::new(Vec::new());
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut mine = Stats::default();
                loop {
                    let seed = next.fetch_add(1, Ordering::Relaxed);
                    if seed >= first + seeds || !failures.lock().unwrap().is_empty() {
                        break;
                    }
                    match one(seed, config) {
                        Ok(stats) => mine.add(&stats),
                        Err(message) => failures.lock().unwrap().push((seed, message)),
                    }
                }
                total.lock().unwrap().add(&mine);
            });
        }
    });
    let total = total.into_inner().unwrap();
    eprintln!(
        "league simulation: {} seeds ({first}..) in {:.1?} on {threads} threads: {total:?}",
        total.seeds,
        started.elapsed()
    );
    let mut failures = failures.into_inner().unwrap();
    failures.sort();
    if let Some((_, message)) = failures.first() {
        panic!("{message}");
    }
    assert_eq!(total.seeds, seeds, "every seed ran");
}

/// `SIM_SEED=<n>`: run that one seed (seed 0 without it), twice, and check
/// the two runs agree: the simulation is deterministic.
#[test]
fn replay() {
    let seed = env_u64("SIM_SEED").unwrap_or(0);
    let config = config();
    let first = one(seed, config).unwrap_or_else(|m| panic!("{m}"));
    let second = one(seed, config).unwrap_or_else(|m| panic!("{m}"));
    eprintln!("league simulation seed {seed}: {first:?}");
    assert_eq!(first, second, "seed {seed} ran differently twice");
}
