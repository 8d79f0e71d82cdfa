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

use arbiter_sim::seeds::{Named, catch, env_u64, many};
use arbiter_sim::sim::Config;
use arbiter_sim::sim_league::{Stats, current_step, default_config, run_seed_with};

const NAMED: Named = Named {
    name: "league simulation",
    test: "simulation_league",
};

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
    catch(NAMED, seed, current_step, || {
        run_seed_with(seed, config, env_u64("SIM_LEAGUE_STRICT_ROLLS") != Some(0))
    })
}

#[test]
fn many_seeds() {
    let seeds = env_u64("SIM_LEAGUE_SEEDS").unwrap_or(3_000);
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
    eprintln!("league simulation seed {seed}: {first:?}");
    assert_eq!(first, second, "seed {seed} ran differently twice");
}
