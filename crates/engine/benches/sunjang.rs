//! Benchmarks of the Sunjang league's season planner.
//!
//! `cargo bench -p arbiter-engine --bench sunjang`
//!
//! - `plan_100k`: plan the season after one of 100,000 players in a full
//!   pyramid (A to I at their ideal sizes 14, 42, ..., 30,618, the rest in
//!   I), ranks weakening down the pyramid, division restrictions per rank,
//!   5% withdrawals and 5,000 new players (who open a new division J):
//!   section B, the restrictions, promotions by rank into the freed space,
//!   E.1, the seeding of every division and every explanation. Target under
//!   1 s.
//! - `first_season_100k`: a first season of 100,000 registrations with the
//!   same restrictions.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_engine::sunjang::planner::{
    self, PlanInput, PlanOutcome, PreviousDivision, PreviousSeason, group_count, group_sizes,
};
use arbiter_engine::sunjang::ranking::{RankingData, Tiebreaks};
use arbiter_engine::sunjang::{
    PlayerId, PlayerInfo, Rank, Restriction, Restrictions, SunjangRules,
};

// The allocator the `arbiter` binary uses (see crates/cli/src/main.rs).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn rank_of(strength: i64) -> Rank {
    let s = strength.clamp(1, 39);
    if s > 30 {
        Rank::Dan((s - 30) as u8)
    } else {
        Rank::Kyu((31 - s) as u8)
    }
}

struct Season {
    rules: SunjangRules,
    restrictions: Restrictions,
    info: Vec<PlayerInfo>,
    tiebreaks: Tiebreaks,
    previous: Option<PreviousSeason>,
    entrants: Vec<PlayerId>,
}

impl Season {
    fn input(&self) -> PlanInput<'_> {
        PlanInput {
            rules: &self.rules,
            restrictions: &self.restrictions,
            data: RankingData {
                info: &self.info,
                performance: &[],
                games: &[],
                tiebreaks: &self.tiebreaks,
                rules: &self.rules,
            },
            previous: self.previous.as_ref(),
            entrants: &self.entrants,
        }
    }
}

/// Bands of three strengths (39-37 = 9d-7d, 36-34, ...): band k may play
/// from division k-3 down to division k+1.
fn restrictions() -> Restrictions {
    let mut rows = Vec::new();
    for k in 0..13i64 {
        let strongest = 39 - 3 * k;
        let weakest = (37 - 3 * k).max(1);
        rows.push(Restriction {
            strongest: rank_of(strongest),
            weakest: rank_of(weakest),
            highest: (k - 3).max(0) as u32,
            lowest: (k + 1) as u32,
        });
    }
    Restrictions { rows }
}

/// A player of division `d`'s level: strength 36 - 3d, give or take 2.
fn player(rng: &mut Lcg, n: usize, d: usize) -> PlayerInfo {
    let strength = 36 - 3 * d as i64 + rng.below(5) as i64 - 2;
    PlayerInfo {
        name: format!("P{n}"),
        rank: rank_of(strength),
        provisional: rng.below(100) == 0,
        rating: (600 + 50 * strength + rng.below(60) as i64) as i32,
        corr_rank: None,
        corr_rating: None,
    }
}

const IDEAL: [usize; 8] = [14, 42, 126, 378, 1134, 3402, 10206, 30618];

fn season_100k() -> Season {
    let mut rng = Lcg(2026);
    let rules = SunjangRules::default();
    let mut sizes = IDEAL.to_vec();
    sizes.push(100_000 - IDEAL.iter().sum::<usize>());
    let mut info = Vec::new();
    let mut prev = PreviousSeason::default();
    let mut above: Option<u32> = None;
    for (d, &size) in sizes.iter().enumerate() {
        let first = info.len();
        for _ in 0..size {
            let p = player(&mut rng, info.len() + 1, d);
            info.push(p);
        }
        let mut ranking: Vec<PlayerId> = (first + 1..=first + size)
            .map(|i| PlayerId(i as u32))
            .collect();
        for i in (1..ranking.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            ranking.swap(i, j);
        }
        let g = group_count(&rules, size as u32, above, d == 0).unwrap();
        let third = (size / 3).max(g as usize);
        let mut pool = ranking[..third].to_vec();
        for i in (1..pool.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            pool.swap(i, j);
        }
        prev.divisions.push(PreviousDivision {
            group_leaders: pool[..g as usize].to_vec(),
            groups: group_sizes(size as u32, g),
            ranking,
        });
        above = Some(g);
    }
    // 5% withdraw; 5,000 new players at the level of a division drawn by
    // size.
    let mut entrants: Vec<PlayerId> = (1..=info.len() as u32)
        .map(PlayerId)
        .filter(|_| rng.below(20) != 0)
        .collect();
    for _ in 0..5_000 {
        let mut x = rng.below(100_000) as usize;
        let mut d = 0;
        while x >= sizes[d] {
            x -= sizes[d];
            d += 1;
        }
        let p = player(&mut rng, info.len() + 1, d);
        info.push(p);
        entrants.push(PlayerId(info.len() as u32));
    }
    Season {
        rules,
        restrictions: restrictions(),
        info,
        tiebreaks: Tiebreaks::default(),
        previous: Some(prev),
        entrants,
    }
}

fn first_season_100k() -> Season {
    let mut s = season_100k();
    s.previous = None;
    s.entrants = (1..=100_000u32).map(PlayerId).collect();
    s
}

/// The plan's sizes and its E.1 notes, printed once.
fn report(what: &str, outcome: &PlanOutcome) {
    if let PlanOutcome::Planned(p) = outcome {
        let e1 = p.notes.iter().filter(|n| n.text.starts_with("E.1")).count();
        eprintln!("{what}: divisions {:?}, {e1} E.1 note(s)", sizes(outcome));
        for n in p.notes.iter().filter(|n| n.text.starts_with("E.1")).take(3) {
            eprintln!("  {n}");
        }
    }
}

fn sizes(outcome: &PlanOutcome) -> Vec<usize> {
    match outcome {
        PlanOutcome::Planned(p) => p.divisions.iter().map(|d| d.size()).collect(),
        PlanOutcome::Cancelled { .. } => Vec::new(),
    }
}

#[divan::bench(sample_count = 10)]
fn plan_100k(bencher: divan::Bencher) {
    let s = season_100k();
    let outcome = planner::plan(&s.input()).unwrap();
    report("plan_100k", &outcome);
    assert!(sizes(&outcome).len() >= 9, "{:?}", sizes(&outcome));
    bencher.bench_local(|| planner::plan(&s.input()).unwrap());
}

#[divan::bench(sample_count = 10)]
fn first_season_100k_bench(bencher: divan::Bencher) {
    let s = first_season_100k();
    let outcome = planner::plan(&s.input()).unwrap();
    report("first_season_100k", &outcome);
    assert!(sizes(&outcome).len() >= 9, "{:?}", sizes(&outcome));
    bencher.bench_local(|| planner::plan(&s.input()).unwrap());
}
