//! Benchmarks of the general round-robin league (issue 16, §3).
//!
//! `cargo bench -p arbiter-engine --bench roundrobin`
//!
//! - `table_64_double/<preset>`: the table of a 64-player double round
//!   robin (4,032 games, all played) with the full cascade of the preset
//!   and every place explained (`RoundRobin::table`). The results are
//!   seeded and made to tie: eight classes of eight players, a higher class
//!   always beating a lower one by one goal (or a win), so that players of
//!   one class differ only by their 14 games among themselves, half of
//!   them drawn — many ties on points, which the tiebreaks (head-to-head
//!   once for FIFA, UEFA's block, chess's direct encounter and
//!   Sonneborn-Berger, XMadn's restart and quickness) then work on.
//! - `league_20_double`: 10,000 simulated seasons (ARB-R48, ARB-R70) of a
//!   20-team double round robin (380 games) from the start, FIFA's
//!   criteria, Elo ratings 1400 to 1780, draws at 25% between equals.
//! - `group_9/<preset>`: 10,000 simulated seasons of a 9-player single
//!   round robin with all 36 games left, ranked by the preset's full
//!   cascade. Target under 0.5 s.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_engine::draw::Seed;
use arbiter_engine::model::{PlayerId, Time};
use arbiter_engine::projection::roundrobin::project_round_robin;
use arbiter_engine::projection::{SimRng, WinModel};
use arbiter_engine::roundrobin::{Command, RoundRobin, RoundRobinRules, Score, Seat};
use chrono::{TimeZone, Utc};

// The allocator the `arbiter` binary uses (see crates/cli/src/main.rs).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

const SEASONS: u32 = 10_000;
const PRESETS: [&str; 4] = ["fifa-world-cup", "uefa-euro", "chess", "xmadn"];

fn seed(n: u8) -> Seed {
    [n; 32]
}

fn time() -> Time {
    Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap()
}

fn exec(l: &mut RoundRobin, c: Command) {
    for e in l.decide(c).unwrap() {
        l.try_apply(&e).unwrap();
    }
}

/// A league of `n` players under `preset`, played `cycles` times, started
/// on the Berger tables.
fn league(preset: &str, n: usize, cycles: u32) -> RoundRobin {
    let mut rules = RoundRobinRules::preset(preset).unwrap();
    rules.cycles = cycles;
    let mut l = RoundRobin::default();
    exec(
        &mut l,
        Command::Create {
            name: "bench".into(),
            rules,
            players: (1..=n).map(|i| format!("Player {i}")).collect(),
        },
    );
    exec(
        &mut l,
        Command::Start {
            schedule: None,
            seed: None,
            at: time(),
        },
    );
    l
}

/// Every game played: see the module's text.
fn play_all(l: &mut RoundRobin) {
    let mut rng = SimRng::season(&seed(7), 0);
    let scores = l.rules.scores;
    let class = |p: PlayerId| p.index() / 8;
    for g in l.games.clone() {
        let (h, a) = (class(g.home), class(g.away));
        // 0: home wins, 1: drawn, 2: away wins.
        let r = if h != a {
            if h < a { 0 } else { 2 }
        } else {
            match rng.below(4) {
                0 => 0,
                1 => 2,
                _ => 1,
            }
        };
        let goals = rng.below(2);
        let score = match (scores, r) {
            (true, 0) => Score::Goals {
                home: goals + 1,
                away: goals,
            },
            (true, 2) => Score::Goals {
                home: goals,
                away: goals + 1,
            },
            (true, _) => Score::Goals {
                home: goals,
                away: goals,
            },
            (false, 0) => Score::Won(Seat::Home),
            (false, 2) => Score::Won(Seat::Away),
            (false, _) => Score::Drawn,
        };
        exec(
            l,
            Command::Record {
                game: g.id,
                score,
                minutes: Some(20 + rng.below(41)),
                at: time(),
            },
        );
    }
}

#[divan::bench(args = PRESETS, sample_count = 10)]
fn table_64_double(bencher: divan::Bencher, preset: &str) {
    let mut l = league(preset, 64, 2);
    play_all(&mut l);
    assert_eq!(l.games.len(), 4032);
    assert!(l.is_finished());
    // The cascade works: of the 63 splits, 15 (FIFA, UEFA) to 31 (XMadn)
    // are made by a tiebreak, down to UEFA's goals scored in all matches.
    let t = l.table();
    let by_tiebreak = t.ranking.splits.iter().filter(|s| s.step > 0).count();
    assert!(by_tiebreak >= 15, "{preset}: {by_tiebreak}");
    bencher.bench(|| l.table());
}

/// Elo ratings 1400, 1420, … for players 1 to `n`.
fn model(n: u32) -> WinModel {
    WinModel::elo(
        (1..=n).map(|i| (PlayerId(i), 1380.0 + 20.0 * f64::from(i))),
        250_000,
    )
}

#[divan::bench(sample_count = 5)]
fn league_20_double(bencher: divan::Bencher) {
    let l = league("fifa-world-cup", 20, 2);
    assert_eq!(l.games.len(), 380);
    let m = model(20);
    bencher.bench(|| project_round_robin(&l, &m, SEASONS, seed(1)).unwrap());
}

#[divan::bench(args = PRESETS, sample_count = 10)]
fn group_9(bencher: divan::Bencher, preset: &str) {
    let l = league(preset, 9, 1);
    assert_eq!(l.games.len(), 36);
    let m = model(9);
    bencher.bench(|| project_round_robin(&l, &m, SEASONS, seed(2)).unwrap());
}
