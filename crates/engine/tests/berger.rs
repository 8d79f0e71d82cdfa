//! The FIDE Berger tables (C.05 Annex 1): golden rounds from a published
//! table (`tests/golden-berger/berger-tables.txt`, its source in the file),
//! and the invariants of every schedule: each pair meets once per cycle,
//! nobody plays twice in a round, a bye per round for odd numbers (each
//! player's once per cycle), colours balanced.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;

use arbiter_engine::berger::{Round, schedule};
use proptest::prelude::*;

fn games_text(r: &Round) -> String {
    r.games
        .iter()
        .map(|g| format!("{}-{}", g.white, g.black))
        .collect::<Vec<_>>()
        .join(", ")
}

#[test]
fn the_published_tables_agree_round_by_round() {
    let text = include_str!("golden-berger/berger-tables.txt");
    let mut checked = 0;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (head, want) = line
            .split_once(": ")
            .unwrap_or_else(|| panic!("line {}: no ': '", i + 1));
        let (n, r) = head.split_once(' ').unwrap();
        let (n, r): (usize, usize) = (n.parse().unwrap(), r.parse().unwrap());
        let s = schedule(n, 1).unwrap();
        assert_eq!(
            games_text(&s[r - 1]),
            want,
            "berger-tables.txt line {}: {n} players, round {r}",
            i + 1
        );
        // The odd number below plays the same table, seat n a bye.
        let odd = schedule(n - 1, 1).unwrap();
        let without: Vec<String> = want
            .split(", ")
            .filter(|g| !g.split('-').any(|x| x == n.to_string()))
            .map(str::to_string)
            .collect();
        assert_eq!(
            games_text(&odd[r - 1]),
            without.join(", "),
            "line {}: {} players",
            i + 1,
            n - 1
        );
        checked += 1;
    }
    assert_eq!(checked, 41);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_pair_meets_once_per_cycle_and_colours_balance(n in 2usize..=64, cycles in 1u32..=4) {
        let s = schedule(n, cycles).unwrap();
        let m = n + n % 2;
        prop_assert_eq!(s.len(), (m - 1) * cycles as usize);
        let mut met: HashMap<(usize, usize), u32> = HashMap::new();
        let mut whites: HashMap<(usize, usize), u32> = HashMap::new();
        let mut byes: HashMap<usize, u32> = HashMap::new();
        let mut colours: Vec<Vec<bool>> = vec![Vec::new(); n + 1];
        for r in &s {
            let mut seen = vec![false; n + 1];
            for g in &r.games {
                prop_assert!(g.white != g.black && g.white <= n && g.black <= n);
                prop_assert!(!seen[g.white] && !seen[g.black], "round {}", r.number);
                seen[g.white] = true;
                seen[g.black] = true;
                *met.entry((g.white.min(g.black), g.white.max(g.black))).or_default() += 1;
                *whites.entry((g.white, g.black)).or_default() += 1;
                colours[g.white].push(true);
                colours[g.black].push(false);
            }
            if let Some(b) = r.bye {
                prop_assert!(!seen[b]);
                *byes.entry(b).or_default() += 1;
            }
            // Everyone plays or has the bye.
            prop_assert_eq!(seen.iter().filter(|&&x| x).count() + usize::from(r.bye.is_some()), n);
        }
        prop_assert_eq!(met.len(), n * (n - 1) / 2);
        prop_assert!(met.values().all(|&k| k == cycles));
        if n % 2 == 1 {
            prop_assert_eq!(byes.len(), n);
            prop_assert!(byes.values().all(|&k| k == cycles));
        } else {
            prop_assert!(byes.is_empty());
        }
        for (i, seat) in colours.iter().enumerate().skip(1) {
            let w = seat.iter().filter(|&&c| c).count();
            let games = seat.len();
            // Whites and blacks differ by at most one per cycle played.
            prop_assert!(w.abs_diff(games - w) <= cycles as usize, "seat {i}: {w} whites of {games}");
        }
        // In a double round robin each pair has white once each.
        if cycles == 2 {
            for &(a, b) in met.keys() {
                prop_assert_eq!(whites.get(&(a, b)).copied().unwrap_or(0), 1);
                prop_assert_eq!(whites.get(&(b, a)).copied().unwrap_or(0), 1);
            }
        }
    }
}

/// The longest run of one colour of each seat, games in round order (a bye
/// neither breaks nor extends it).
fn longest_runs(n: usize, cycles: u32) -> Vec<usize> {
    let s = schedule(n, cycles).unwrap();
    (1..=n)
        .map(|i| {
            let mut best = 0;
            let mut run = 0;
            let mut last = None;
            for r in &s {
                let Some(white) = r.games.iter().find_map(|g| {
                    (g.white == i)
                        .then_some(true)
                        .or((g.black == i).then_some(false))
                }) else {
                    continue;
                };
                run = if last == Some(white) { run + 1 } else { 1 };
                last = Some(white);
                best = usize::max(best, run);
            }
            best
        })
        .collect()
}

/// C.05 Annex 1: with the last two rounds of the first cycle exchanged, no
/// player of a double round robin has the same colour three games running
/// (an even number of players; the one-round table of 2 players aside).
#[test]
fn no_three_games_running_with_one_colour_in_a_double_round_robin() {
    for n in (4..=64).step_by(2) {
        let runs = longest_runs(n, 2);
        assert!(runs.iter().all(|&r| r <= 2), "{n} players: {runs:?}");
    }
    // A single table alternates too.
    let single = longest_runs(6, 1);
    assert!(single.iter().all(|&r| r <= 2), "{single:?}");
}
