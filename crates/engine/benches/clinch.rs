//! Benchmarks of the clinch analysis (ARB-R47).
//!
//! `cargo bench -p arbiter-engine --bench clinch`
//!
//! - `sunjang_half_left`: a 9-player Sunjang group (the only group of
//!   division B, a division below it) with the first half of its round
//!   robin played (18 of 36 games, seeded random results: wins, some jigos
//!   and forfeits) and 18 games left; every player against every zone the
//!   group decides (group win, the two direct promotions, the three
//!   demotions). Target under 1 s.
//! - `sunjang_three_quarters_left`: the same group with only its first 9
//!   games played (27 left).
//! - `sunjang_half_left_level`: the half-played group with every player of
//!   the same rank and rating, so that ties D.2 cannot separate (left to
//!   the organizer's record) are possible everywhere: the hardest case for
//!   telling `Clinched` from `ClinchedUnlessDie`.
//! - `sunjang_half_left_favourites`: the half-played group where the
//!   better-ranked player wins 80% of the games played: leaders pull away,
//!   so clinches and eliminations need proofs.
//! - `sunjang_quarter_left_favourites`: the same with 27 games played (9
//!   left).
//! - `sunjang_half_left_favourites_hard`: seed 714 of the favourites case,
//!   the slowest of its 3,000 seeded groups in `examples/clinch_scan.rs` (a
//!   player at the bottom who can only tie for a top place). Target under
//!   1 s.
//! - `sunjang_half_left_hard`: seed 1738 of the random case, the slowest
//!   of its 3,000 seeded groups (a player who can reach the two promotion
//!   places only at his most gamepoints, level with two players who have
//!   them already, one of whom may pass them: every completion must be
//!   ranked down to head-to-head and D.2 among those level with him).
//!   Target under 1 s.
//! - `sunjang_half_left_level_hard`: seed 1438 of the level random case
//!   (`CLINCH_LEVEL=1` in `examples/clinch_scan.rs`), the slowest of its
//!   3,000 seeded groups. Target under 1 s.
//! - `sunjang_two_thirds_left_favourites`: 12 games played (24 left),
//!   favourites winning 80%.
//! - `xmadn_league_20_drrs`: the XMadn clinch analysis of a 20-DRR league
//!   after the top half of DRR 1.
//! - `roundrobin_ten_two_rounds_left`: a 10-player single round robin
//!   (chess preset, top 3 and bottom 2 as zones) with its last two rounds
//!   (10 games) left, the better-placed player in the schedule winning 80%
//!   of the games played (leaders pull away: proofs are needed); every
//!   player against the title, the top 3 and the bottom 2 (ARB-R69).
//!   Target well under 1 s.
//! - `roundrobin_ten_three_rounds_left_hard`: seed 13 of the same with
//!   three rounds (15 games) left, the slowest of 300 seeded leagues
//!   (a player in the middle who can only reach the bottom two level with
//!   others, ranked by the tiebreaks).
//! - `roundrobin_uefa_ten_three_rounds_left`: the UEFA EURO preset (the
//!   head-to-head block, margins left open) with three rounds left, seed
//!   127, the slowest of its 300.
//! - `roundrobin_fresh_ten`: a 10-player FIFA league before any game (45
//!   left): everything open, found by the first completions tried.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_engine::clinch::Analysis;
use arbiter_engine::model::{PlayerId, Time};
use arbiter_engine::roundrobin::clinch as rrclinch;
use arbiter_engine::roundrobin::{Command, RoundRobin, RoundRobinRules, Score, Seat};
use arbiter_engine::sunjang::clinch::{Budget, GroupSetting, analyse, group_zones};
use arbiter_engine::sunjang::group::{GroupGame, Outcome, round_robin};
use arbiter_engine::sunjang::ranking::{RankingData, Tiebreaks};
use arbiter_engine::sunjang::{PlayerInfo, Rank, SunjangRules};
use arbiter_engine::xmadn::clinch as xclinch;
use arbiter_engine::xmadn::league::PLAYERS;
use arbiter_engine::xmadn::table::Fact;
use arbiter_engine::xmadn::{Playoff, Series};

// The allocator the `arbiter` binary uses (see crates/cli/src/main.rs).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

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

/// A 9-player group with its first `played` games (in round order) played.
/// With `favourite`, the better-ranked player of a game wins it 80% of the
/// time; otherwise black and white win alike.
pub fn group(
    seed: u64,
    played: usize,
    level: bool,
    favourite: bool,
) -> (Vec<PlayerId>, Vec<GroupGame>, Vec<PlayerInfo>) {
    let mut r = Lcg(seed);
    let players: Vec<PlayerId> = (1..=9).map(PlayerId).collect();
    let infos = (0..9u8)
        .map(|i| PlayerInfo {
            name: format!("Player {}", i + 1),
            rank: if level {
                Rank::Kyu(5)
            } else {
                Rank::Kyu(1 + i / 2)
            },
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

pub fn run(seed: u64, played: usize, level: bool, favourite: bool) -> Analysis<PlayerId> {
    let rules = SunjangRules::default();
    let (players, games, infos) = group(seed, played, level, favourite);
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
    analyse(&players, &games, &data, &zones, Budget::default())
}

#[divan::bench(sample_count = 10)]
fn sunjang_half_left() -> Analysis<PlayerId> {
    run(7, divan::black_box(18), false, false)
}

#[divan::bench(sample_count = 10)]
fn sunjang_three_quarters_left() -> Analysis<PlayerId> {
    run(7, divan::black_box(9), false, false)
}

#[divan::bench(sample_count = 10)]
fn sunjang_half_left_level() -> Analysis<PlayerId> {
    run(7, divan::black_box(18), true, false)
}

#[divan::bench(sample_count = 10)]
fn sunjang_half_left_favourites() -> Analysis<PlayerId> {
    run(7, divan::black_box(18), false, true)
}

#[divan::bench(sample_count = 10)]
fn sunjang_half_left_favourites_hard() -> Analysis<PlayerId> {
    run(714, divan::black_box(18), false, true)
}

#[divan::bench(sample_count = 10)]
fn sunjang_half_left_hard() -> Analysis<PlayerId> {
    run(1738, divan::black_box(18), false, false)
}

#[divan::bench(sample_count = 10)]
fn sunjang_half_left_level_hard() -> Analysis<PlayerId> {
    run(1438, divan::black_box(18), true, false)
}

#[divan::bench(sample_count = 10)]
fn sunjang_two_thirds_left_favourites() -> Analysis<PlayerId> {
    run(7, divan::black_box(12), false, true)
}

#[divan::bench(sample_count = 10)]
fn sunjang_quarter_left_favourites() -> Analysis<PlayerId> {
    run(7, divan::black_box(27), false, true)
}

#[divan::bench(sample_count = 10)]
fn xmadn_league_20_drrs() -> Analysis<PlayerId> {
    let known = vec![
        Fact {
            players: [PLAYERS[0], PLAYERS[1]],
            winner: 0,
            score: None,
        },
        Fact {
            players: [PLAYERS[2], PLAYERS[0]],
            winner: 1,
            score: None,
        },
        Fact {
            players: [PLAYERS[1], PLAYERS[2]],
            winner: 0,
            score: None,
        },
    ];
    let mut open = Vec::new();
    for _ in 0..(19 * 2 + 1) {
        open.push([PLAYERS[0], PLAYERS[1]]);
        open.push([PLAYERS[0], PLAYERS[2]]);
        open.push([PLAYERS[1], PLAYERS[2]]);
    }
    let series = Series::FirstTo(3);
    let zones = xclinch::zones(Playoff::AllThree {
        qualifying: series,
        final_round: series,
    });
    xclinch::analyse(divan::black_box(&known), &open, &[], &zones)
}

/// A 10-player single round robin under `preset` (zones top 3, bottom 2)
/// with its last `rounds_left` rounds left; of the games played, the
/// player listed first in the pair wins 80% of the time when `favourite`
/// (as `Lcg(seed * 7919 + 1)` draws).
pub fn league_of_ten(preset: &str, seed: u64, rounds_left: u32, favourite: bool) -> RoundRobin {
    let at: Time = "2026-01-01T12:00:00Z".parse().unwrap();
    let mut rng = Lcg(seed * 7919 + 1);
    let mut rules = RoundRobinRules::preset(preset).unwrap();
    rules.top = 3;
    rules.bottom = 2;
    let mut l = RoundRobin::default();
    let run = |l: &mut RoundRobin, c: Command| {
        for e in l.decide(c).unwrap() {
            l.apply(&e);
        }
    };
    run(
        &mut l,
        Command::Create {
            name: "bench".into(),
            rules,
            players: (0..10).map(|i| format!("Player {}", i + 1)).collect(),
        },
    );
    run(
        &mut l,
        Command::Start {
            schedule: None,
            seed: None,
            at,
        },
    );
    let last = l.rounds.len() as u32;
    let scores = l.rules.scores;
    for g in l.games.clone() {
        if g.round + rounds_left > last {
            continue;
        }
        let k = if favourite {
            if rng.below(10) < 8 {
                if g.home < g.away { 0 } else { 2 }
            } else {
                rng.below(3)
            }
        } else {
            rng.below(3)
        };
        let score = if scores {
            match k {
                0 => Score::Goals {
                    home: 1 + rng.below(3) as u32,
                    away: rng.below(1) as u32,
                },
                1 => {
                    let x = rng.below(3) as u32;
                    Score::Goals { home: x, away: x }
                }
                _ => Score::Goals {
                    home: 0,
                    away: 1 + rng.below(3) as u32,
                },
            }
        } else {
            [Score::Won(Seat::Home), Score::Drawn, Score::Won(Seat::Away)][k as usize]
        };
        run(
            &mut l,
            Command::Record {
                game: g.id,
                score,
                minutes: None,
                at,
            },
        );
    }
    l
}

#[divan::bench(sample_count = 10)]
fn roundrobin_ten_two_rounds_left(bencher: divan::Bencher) {
    let l = league_of_ten("chess", 7, 2, true);
    bencher.bench(|| rrclinch::analyse_league(divan::black_box(&l), rrclinch::Budget::default()));
}

#[divan::bench(sample_count = 10)]
fn roundrobin_ten_three_rounds_left_hard(bencher: divan::Bencher) {
    let l = league_of_ten("chess", 13, 3, true);
    bencher.bench(|| rrclinch::analyse_league(divan::black_box(&l), rrclinch::Budget::default()));
}

#[divan::bench(sample_count = 10)]
fn roundrobin_uefa_ten_three_rounds_left(bencher: divan::Bencher) {
    let l = league_of_ten("uefa-euro", 127, 3, true);
    bencher.bench(|| rrclinch::analyse_league(divan::black_box(&l), rrclinch::Budget::default()));
}

#[divan::bench(sample_count = 10)]
fn roundrobin_fresh_ten(bencher: divan::Bencher) {
    let l = league_of_ten("fifa-world-cup", 1, 9, false);
    bencher.bench(|| rrclinch::analyse_league(divan::black_box(&l), rrclinch::Budget::default()));
}
