//! A reproducible scan of the Sunjang clinch analysis (ARB-R47) on
//! 9-player groups: 100 seeded groups per case, the count of analyses that
//! keep an `Undetermined` verdict, and the worst, median and mean times.
//!
//! `cargo run --release -p arbiter-engine --example clinch_scan [groups]`
//!
//! - `CLINCH_LIST=1`: name each group that keeps an `Undetermined`, as the
//!   `one` command that reruns it (`clinch_scan one <played> <favourite>
//!   <seed>`, which prints its verdicts);
//! - `CLINCH_SLOW=ms`: name each group slower than that;
//! - `CLINCH_DUMP=1`: print every verdict of every group, to compare two
//!   builds (no verdict both determine may differ);
//! - `CLINCH_BUDGET=units`: another search budget, to see what a group out
//!   of the default one comes to;
//! - `CLINCH_LEVEL=1`: every player of one rank and rating (the benches'
//!   `level` group), so that D.2 separates nobody and ties are left to the
//!   organizer's record.
//!
//! Cases (the group of `benches/clinch.rs`: the only group of division B,
//! a division below, zones: group win, two promotions, three demotions):
//! - half left, random results (18 of 36 games played);
//! - half left, the better-ranked player winning 80% of the games played;
//! - two thirds left (12 played), favourites likewise.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use arbiter_engine::clinch::{Analysis, Verdict};
use arbiter_engine::model::PlayerId;
use arbiter_engine::sunjang::clinch::{Budget, GroupSetting, analyse, group_zones};
use arbiter_engine::sunjang::group::{GroupGame, Outcome, points, round_robin};
use arbiter_engine::sunjang::ranking::{RankingData, Tiebreaks};
use arbiter_engine::sunjang::{PlayerInfo, Rank, SunjangRules};

// The allocator the `arbiter` binary uses (see crates/cli/src/main.rs).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// The group of `benches/clinch.rs` with its first `played` games played.
fn group(
    seed: u64,
    played: usize,
    favourite: bool,
) -> (Vec<PlayerId>, Vec<GroupGame>, Vec<PlayerInfo>) {
    let mut r = Lcg(seed);
    let players: Vec<PlayerId> = (1..=9).map(PlayerId).collect();
    // `CLINCH_LEVEL=1`: every player of one rank and rating, as the
    // benches' `level` groups, so that D.2 separates nobody.
    let level = std::env::var_os("CLINCH_LEVEL").is_some();
    let infos = (0..9u8)
        .map(|i| PlayerInfo {
            name: format!("Player {}", i + 1),
            rank: Rank::Kyu(if level { 5 } else { 1 + i / 2 }),
            provisional: false,
            rating: if level {
                1600
            } else {
                1800 - 25 * i32::from(i)
            },
            corr_rank: None,
            corr_rating: None,
        })
        .collect();
    let games = round_robin(&players)
        .into_iter()
        .enumerate()
        .map(|(i, pairing)| GroupGame {
            pairing,
            outcome: (i < played).then(|| {
                let x = r.below(20);
                if favourite {
                    let black_better = pairing.black.0 < pairing.white.0;
                    match (x, black_better) {
                        (0..=15, true) | (16..=18, false) => Outcome::BlackWins,
                        (0..=18, _) => Outcome::WhiteWins,
                        _ => Outcome::Jigo,
                    }
                } else {
                    match x {
                        0..=8 => Outcome::BlackWins,
                        9..=16 => Outcome::WhiteWins,
                        17 | 18 => Outcome::Jigo,
                        _ => Outcome::WhiteForfeits,
                    }
                }
            }),
        })
        .collect();
    (players, games, infos)
}

fn run(seed: u64, played: usize, favourite: bool) -> Analysis<PlayerId> {
    let rules = SunjangRules::default();
    let (players, games, infos) = group(seed, played, favourite);
    let tiebreaks = Tiebreaks::default();
    let data = RankingData {
        info: &infos,
        performance: &[],
        games: &[],
        tiebreaks: &tiebreaks,
        rules: &rules,
    };
    let zones = group_zones(
        &GroupSetting {
            size: 9,
            division: 1,
            groups: 1,
            division_size: 9,
            tens: 0,
            below: Some((3, 21)),
        },
        &rules,
    );
    // `CLINCH_BUDGET=units`: another budget (per player and zone, and in
    // all), to see what a search out of the default one would prove.
    let budget = std::env::var("CLINCH_BUDGET")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .map_or(Budget::default(), |u| Budget { nodes: u, total: u });
    analyse(&players, &games, &data, &zones, budget)
}

fn main() {
    // `clinch_scan one <played> <favourite 0|1> <seed>`: a single group,
    // for profiling.
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("one") {
        let num = |i: usize| args.get(i).and_then(|s| s.parse::<u64>().ok()).unwrap_or(0);
        let (_, games, _) = group(num(4), num(2) as usize, num(3) == 1);
        // The position: each player's gamepoints, the games played and
        // those left, so that a group out of its budget can be reasoned
        // about by hand.
        let rules = SunjangRules::default();
        let mut gp = [0; 9];
        for g in &games {
            if let Some(o) = g.outcome {
                let [b, w] = points(o, &rules);
                gp[g.pairing.black.0 as usize - 1] += b;
                gp[g.pairing.white.0 as usize - 1] += w;
            }
        }
        println!("gamepoints: {gp:?}");
        for g in &games {
            let (b, w) = (g.pairing.black.0, g.pairing.white.0);
            match g.outcome {
                Some(o) => println!("  P{b}-P{w}: {o:?}"),
                None => println!("  P{b}-P{w}: left"),
            }
        }
        let t = Instant::now();
        let a = run(num(4), num(2) as usize, num(3) == 1);
        println!(
            "exact {} completions {} in {:.1} ms",
            a.exact,
            a.completions,
            t.elapsed().as_secs_f64() * 1e3
        );
        for (p, row) in a.verdicts.iter().enumerate() {
            let shown: Vec<String> = row
                .iter()
                .zip(&a.zones)
                .map(|(v, z)| format!("{:?} {:?}", z.kind, v))
                .collect();
            println!("P{}: {}", p + 1, shown.join(", "));
        }
        return;
    }
    let groups: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    let cases = [
        ("half left, random", 18, false),
        ("half left, favourites 80%", 18, true),
        ("two thirds left, favourites 80%", 12, true),
    ];
    for (name, played, favourite) in cases {
        let mut undetermined = 0usize;
        let mut verdicts = 0usize;
        let mut worst = (Duration::ZERO, 0u64);
        let mut sum = Duration::ZERO;
        let mut times = Vec::new();
        for seed in 0..groups {
            let t = Instant::now();
            let a = run(seed, played, favourite);
            let e = t.elapsed();
            sum += e;
            times.push(e);
            if e > worst.0 {
                worst = (e, seed);
            }
            if let Some(ms) = std::env::var("CLINCH_SLOW")
                .ok()
                .and_then(|s| s.parse::<f64>().ok())
                && e.as_secs_f64() * 1e3 > ms
            {
                println!(
                    "  slow: one {played} {} {seed}: {:.1} ms, exact {}",
                    u8::from(favourite),
                    e.as_secs_f64() * 1e3,
                    a.exact
                );
            }
            if std::env::var_os("CLINCH_DUMP").is_some() {
                // Every verdict, to compare two builds line by line.
                println!("{played} {} {seed}: {:?}", u8::from(favourite), a.verdicts);
            }
            if !a.exact {
                undetermined += 1;
                if std::env::var_os("CLINCH_LIST").is_some() {
                    println!(
                        "  undetermined: one {played} {} {seed}",
                        u8::from(favourite)
                    );
                }
            }
            verdicts += a
                .verdicts
                .iter()
                .flatten()
                .filter(|&&v| v == Verdict::Undetermined)
                .count();
        }
        times.sort();
        let median = times.get(times.len() / 2).copied().unwrap_or_default();
        println!(
            "{name}: {groups} groups, {undetermined} with an Undetermined ({verdicts} verdicts); \
             mean {:.1} ms, median {:.1} ms, worst {:.1} ms (seed {})",
            sum.as_secs_f64() * 1e3 / groups.max(1) as f64,
            median.as_secs_f64() * 1e3,
            worst.0.as_secs_f64() * 1e3,
            worst.1,
        );
    }
}
