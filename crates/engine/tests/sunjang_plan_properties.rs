//! Property tests of the Sunjang season planner (sunjang-league.txt
//! sections A, B, C, E.1; SJ-R1..R14; ARB-R30..R37), checked against the
//! invariants of `sunjang_plan_support::check`:
//!
//! - a plan places every entrant exactly once and nobody else;
//! - every size rule holds (A.i.1 to A.i.4, footnotes 1 to 3; A.i.4 and the
//!   groups of at most 9 unless an E.1 override was needed), or the plan is
//!   refused naming the rules in conflict (A.i.4 and C.3) and what to
//!   change, or the season is cancelled under 5 players;
//! - seeding is a zig-zag of the D.2 order;
//! - nobody is placed below his lowest division, nor above his highest
//!   unless by an assured spot (direct promotion, middle position,
//!   demotion) or E.1;
//! - group leaders go up, nobody falls more than one division;
//! - A.i.5 for divisions that took promotions by rank.
//!
//! `random_seasons` runs 10,000 seasons of the seeded generator
//! (`random_season(seed)` prints `seed = N` first); a failure names its seed
//! and `SUNJANG_SEED=N cargo test -p arbiter-engine --test
//! sunjang_plan_properties replay -- --nocapture` replays it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod sunjang_plan_support;

use arbiter_engine::sunjang::PlayerId;
use arbiter_engine::sunjang::SunjangRules;
use arbiter_engine::sunjang::planner::{PlanOutcome, group_count, group_sizes, zigzag};
use proptest::prelude::*;
use sunjang_plan_support::{check, random_season, reasons};

/// Divisions up to this size are also seeded through the cascade itself.
const CASCADE_LIMIT: usize = 60;

fn run(seed: u64) -> Result<(), String> {
    let s = random_season(seed, 4, 60);
    let outcome = s.plan();
    check(&s, &outcome, CASCADE_LIMIT).map_err(|e| format!("seed = {seed}: {e}"))?;
    // Deterministic: the same input gives the same plan.
    if s.plan() != outcome {
        return Err(format!("seed = {seed}: a second run differs"));
    }
    Ok(())
}

#[test]
fn random_seasons() {
    let mut seen = std::collections::HashSet::new();
    let (mut refused, mut cancelled) = (0, 0);
    let mut failures = Vec::new();
    for seed in 0..10_000u64 {
        if let Err(e) = run(seed) {
            failures.push(e);
            if failures.len() >= 5 {
                break;
            }
        }
        let s = random_season(seed, 4, 60);
        match s.plan() {
            Ok(o @ PlanOutcome::Planned(_)) => seen.extend(reasons(&o)),
            Ok(PlanOutcome::Cancelled { .. }) => cancelled += 1,
            Err(_) => refused += 1,
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!(
        "10,000 seasons: {refused} refused, {cancelled} cancelled, placements seen: {seen:?}"
    );
    // The generator reaches every kind of placement, refusals and
    // cancellations.
    for r in [
        "direct", "demotion", "middle", "rank", "forced", "override", "new", "first",
    ] {
        assert!(seen.contains(r), "no {r} placement in 10,000 seasons");
    }
    assert!(
        refused > 0 && cancelled > 0,
        "refused {refused}, cancelled {cancelled}"
    );
}

/// `SUNJANG_SEED=N`: replay one season and print its plan.
#[test]
fn replay() {
    let Ok(seed) = std::env::var("SUNJANG_SEED") else {
        return;
    };
    let seed: u64 = seed.parse().expect("a number");
    let s = random_season(seed, 4, 60);
    let outcome = s.plan();
    match &outcome {
        Ok(PlanOutcome::Planned(plan)) => {
            for n in &plan.notes {
                println!("note: {n}");
            }
            for p in &plan.placements {
                println!("{} seed {}: {}", p.group, p.seed, p.explanation);
            }
        }
        other => println!("{other:?}"),
    }
    check(&s, &outcome, CASCADE_LIMIT).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any seed, bigger pyramids.
    #[test]
    fn plans_keep_the_invariants(seed in any::<u64>()) {
        let s = random_season(seed, 5, 120);
        let outcome = s.plan();
        prop_assert!(check(&s, &outcome, CASCADE_LIMIT).is_ok(), "seed = {seed}: {:?}", check(&s, &outcome, CASCADE_LIMIT));
    }

    /// The zig-zag deals every seed once, fills every group to its size, and
    /// gives the smaller groups the top seeds (footnote 5, SJ-R3).
    #[test]
    fn zigzag_fills_the_groups(n in 5u32..400, g in 1u32..40) {
        prop_assume!(n / g >= 1);
        let sizes = group_sizes(n, g);
        let players: Vec<PlayerId> = (1..=n).map(PlayerId).collect();
        let groups = zigzag(&players, &sizes);
        prop_assert_eq!(groups.iter().map(|x| x.len() as u32).collect::<Vec<_>>(), sizes.clone());
        let mut all: Vec<u32> = groups.iter().flatten().map(|p| p.0).collect();
        all.sort_unstable();
        prop_assert_eq!(all, (1..=n).collect::<Vec<_>>());
        // Row by row: the first g seeds go one to each group, in order.
        for (j, group) in groups.iter().enumerate().take(n.min(g) as usize) {
            prop_assert_eq!(group[0].0, j as u32 + 1);
        }
        // A group's seeds sum to no less than a group of equal size after it.
        let firsts: Vec<u32> = groups.iter().map(|x| x[0].0).collect();
        prop_assert!(firsts.windows(2).all(|w| w[0] < w[1]));
    }

    /// Group counts keep A.i.3: groups of 5 to 9, at most thrice the groups
    /// above, sizes differing by at most one; SJ-R2's count is the nearest
    /// average to 7.
    #[test]
    fn group_counts_keep_a_i_3(n in 5u32..2000, above in 1u32..300) {
        let rules = SunjangRules::default();
        if let Some(g) = group_count(&rules, n, Some(above), false) {
            let sizes = group_sizes(n, g);
            prop_assert!(g <= 3 * above);
            prop_assert!(sizes.iter().all(|&s| (5..=9).contains(&s)), "{n} in {g}: {sizes:?}");
            for h in 1..=(3 * above).min(n / 5) {
                if h == g || n.div_ceil(h) > 9 {
                    continue;
                }
                // No admissible count is nearer the ideal.
                let (dg, dh) = ((n as i64 - 7 * g as i64).abs() * h as i64, (n as i64 - 7 * h as i64).abs() * g as i64);
                prop_assert!(dg < dh || (dg == dh && g < h), "{n}: {g} groups, but {h} is as near");
            }
        } else {
            // None only when no count fits.
            prop_assert!(n.div_ceil(9) > (n / 5).min(3 * above));
        }
    }
}
