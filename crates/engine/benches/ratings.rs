//! Benchmarks of the ratings fold (ARB-R46).
//!
//! `cargo bench -p arbiter-engine --bench ratings`
//!
//! - `glicko2_1m`: Glicko-2 over 1,000,000 games among 10,000 players, in
//!   200 rating periods (ladder rounds) of 5,000 games, each player in one
//!   game a period, with each player's history. Target: under 0.5 s.
//! - `elo_1m` and `area_1m`: the same games under Elo and AREA.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_engine::model::Time;
use arbiter_engine::ratings::{
    Area, Elo, Glicko2, PlayerKey, RatedGame, RatedOutcome, System, rate,
};
use chrono::{Duration, TimeZone, Utc};
use divan::Bencher;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

const PLAYERS: u32 = 10_000;
const GAMES: u32 = 1_000_000;

fn t0() -> Time {
    Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap()
}

/// A fixed xorshift stream: the same games every run.
fn games() -> Vec<RatedGame> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let per_period = PLAYERS / 2;
    let mut out = Vec::with_capacity(GAMES as usize);
    let mut players: Vec<u32> = (1..=PLAYERS).collect();
    for period in 1..=GAMES / per_period {
        // A fresh pairing each period: shuffle, then adjacent pairs.
        for i in (1..players.len()).rev() {
            let j = (next() % (i as u64 + 1)) as usize;
            players.swap(i, j);
        }
        for (k, pair) in players.chunks_exact(2).enumerate() {
            let outcome = match next() % 10 {
                0 => RatedOutcome::Draw,
                1..=5 => RatedOutcome::AWins,
                _ => RatedOutcome::BWins,
            };
            out.push(RatedGame {
                a: PlayerKey(pair[0]),
                b: PlayerKey(pair[1]),
                outcome,
                period,
                at: t0() + Duration::days(i64::from(period) * 30) + Duration::seconds(k as i64),
            });
        }
    }
    out
}

#[divan::bench(sample_count = 10)]
fn glicko2_1m(bencher: Bencher) {
    let games = games();
    let system = System::Glicko2(Glicko2::default());
    bencher.bench_local(|| rate(divan::black_box(&games), &system));
}

#[divan::bench(sample_count = 10)]
fn elo_1m(bencher: Bencher) {
    let games = games();
    let system = System::Elo(Elo::default());
    bencher.bench_local(|| rate(divan::black_box(&games), &system));
}

#[divan::bench(sample_count = 10)]
fn area_1m(bencher: Bencher) {
    let games = games();
    let system = System::Area(Area::default());
    bencher.bench_local(|| rate(divan::black_box(&games), &system));
}
