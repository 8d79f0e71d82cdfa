//! The deterministic simulation (see `arbiter_sim::sim`): many seeds, each
//! a ladder run by simulated organizers and players through services over
//! one in-memory store with faults, every invariant checked after every
//! step.
//!
//! - `SIM_SEEDS=<n>` sets how many seeds `many_seeds` runs (default 10,000),
//!   `SIM_FIRST=<n>` the first seed (default 0), `SIM_STEPS=<n>` the steps
//!   of each run.
//! - `SIM_SEED=<n> cargo test -p arbiter-sim --test simulation replay --
//!   --nocapture` replays one seed exactly (what a failure prints).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_sim::seeds::{Named, catch, env_u64, many};
use arbiter_sim::sim::Config;
use arbiter_sim::sim::{Stats, current_step, run_seed};

const NAMED: Named = Named {
    name: "simulation",
    test: "simulation",
};

fn config() -> Config {
    let mut config = Config::default();
    if let Some(steps) = env_u64("SIM_STEPS") {
        config.steps = steps as usize;
    }
    config
}

/// One seed; a panic inside (the engine's, the service's) is reported with
/// the seed and step like a broken invariant.
fn one(seed: u64, config: Config) -> Result<Stats, String> {
    catch(NAMED, seed, current_step, || run_seed(seed, config))
}

#[test]
fn many_seeds() {
    let seeds = env_u64("SIM_SEEDS").unwrap_or(10_000);
    let first = env_u64("SIM_FIRST").unwrap_or(0);
    let config = config();
    many(NAMED, seeds, first, |seed| one(seed, config));
}

/// `SIM_SEED=<n>`: run that one seed (seed 0 without it), twice, and check
/// the two runs agree: the simulation is deterministic.
#[test]
fn replay() {
    let seed = env_u64("SIM_SEED").unwrap_or(0);
    let config = config();
    let first = one(seed, config).unwrap_or_else(|m| panic!("{m}"));
    let second = one(seed, config).unwrap_or_else(|m| panic!("{m}"));
    eprintln!("simulation seed {seed}: {first:?}");
    assert_eq!(first, second, "seed {seed} ran differently twice");
}
