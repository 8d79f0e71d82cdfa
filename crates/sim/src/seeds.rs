//! Running a simulation over many seeds, for the tests `simulation` (the
//! ladder's [`crate::sim`]) and `simulation_league` ([`crate::sim_league`]):
//! seeds shared out over threads, a panic inside a seed reported with the
//! seed, the step and the command that replays it, like a broken invariant.

use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// What runs did, summed over seeds.
pub trait Tally: Default + fmt::Debug + Send {
    /// Add another run's (or thread's) figures.
    fn add(&mut self, other: &Self);
    /// How many seeds ran.
    fn seeds(&self) -> u64;
}

impl Tally for crate::sim::Stats {
    fn add(&mut self, other: &Self) {
        crate::sim::Stats::add(self, other);
    }
    fn seeds(&self) -> u64 {
        self.seeds
    }
}

impl Tally for crate::sim_league::Stats {
    fn add(&mut self, other: &Self) {
        crate::sim_league::Stats::add(self, other);
    }
    fn seeds(&self) -> u64 {
        self.seeds
    }
}

/// A number from the environment (`SIM_SEEDS`, `SIM_STEPS`, ...).
pub fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

/// Which simulation, as its reports name it.
#[derive(Debug, Clone, Copy)]
pub struct Named {
    /// "simulation", "league simulation".
    pub name: &'static str,
    /// The test target that replays a seed: "simulation".
    pub test: &'static str,
}

/// One seed; a panic inside (the engine's, the service's) is reported with
/// the seed, the step `step` says it had reached, and the replay command.
pub fn catch<S, F: fmt::Display>(
    named: Named,
    seed: u64,
    step: fn() -> usize,
    run: impl FnOnce() -> Result<S, F>,
) -> Result<S, String> {
    match catch_unwind(AssertUnwindSafe(run)) {
        Ok(Ok(stats)) => Ok(stats),
        Ok(Err(failure)) => Err(failure.to_string()),
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default();
            Err(format!(
                "{} seed {seed} panicked at step {}: {what}\n  replay it: SIM_SEED={seed} cargo test -p arbiter-sim --test {} replay -- --nocapture",
                named.name,
                step(),
                named.test,
            ))
        }
    }
}

/// Run seeds `first..first + seeds` with `one` on every core, stopping at
/// the first failure; prints the totals, and panics with the failure of
/// the lowest seed that failed.
///
/// # Panics
/// On a failure, or when a seed did not run.
pub fn many<S: Tally>(
    named: Named,
    seeds: u64,
    first: u64,
    one: impl Fn(u64) -> Result<S, String> + Sync,
) -> S {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()) as u64;
    let next = AtomicU64::new(first);
    let total = Mutex::new(S::default());
    let failures: Mutex<Vec<(u64, String)>> = Mutex::new(Vec::new());
    let failed = || failures.lock().map_or(true, |f| !f.is_empty());
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut mine = S::default();
                loop {
                    let seed = next.fetch_add(1, Ordering::Relaxed);
                    if seed >= first + seeds || failed() {
                        break;
                    }
                    match one(seed) {
                        Ok(stats) => mine.add(&stats),
                        Err(message) => {
                            if let Ok(mut f) = failures.lock() {
                                f.push((seed, message));
                            }
                        }
                    }
                }
                if let Ok(mut t) = total.lock() {
                    t.add(&mine);
                }
            });
        }
    });
    let total = total.into_inner().unwrap_or_else(|e| e.into_inner());
    eprintln!(
        "{}: {} seeds ({first}..) in {:.1?} on {threads} threads: {total:?}",
        named.name,
        total.seeds(),
        started.elapsed()
    );
    let mut failures = failures.into_inner().unwrap_or_else(|e| e.into_inner());
    failures.sort();
    if let Some((_, message)) = failures.first() {
        panic!("{message}");
    }
    assert_eq!(total.seeds(), seeds, "every seed ran");
    total
}
