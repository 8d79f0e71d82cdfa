//! Benchmarks of the XMadn league's analysis: what `league show` computes
//! on every view.
//!
//! `cargo bench -p arbiter-engine --bench league`
//!
//! - `table`: the table with its cascade after two double round-robins.
//! - `determination/<drrs>`: are the significant outcomes determined, in a
//!   league of `drrs` double round-robins after the top half of DRR 1
//!   (every later DRR still to come).
//! - `suggest/<drrs>`: the order of Games 4 to 6 that keeps them open
//!   longest, in the same league.
//! - `determination_dominant`: one player has won every game of 19 DRRs and
//!   of the top half of the 20th: the outcomes are determined, so the
//!   enumeration of the remaining results runs to its end.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_engine::draw::{self, Seed};
use arbiter_engine::model::{PlayerId, Time};
use arbiter_engine::xmadn::analysis;
use arbiter_engine::xmadn::league::{Command, League, Phase};
use arbiter_engine::xmadn::table::Table;
use arbiter_engine::xmadn::{LeagueRules, Playoff, Series};
use chrono::{TimeZone, Utc};

fn main() {
    divan::main();
}

fn seed(n: u32) -> Seed {
    let mut s = [0u8; 32];
    s[..4].copy_from_slice(&n.to_le_bytes());
    s
}

fn t0() -> Time {
    Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap()
}

fn run(l: &mut League, c: Command) {
    for e in l.decide(c).unwrap() {
        l.apply(&e);
    }
}

/// A league of `drrs` double round-robins; `winner` picks the winner of
/// each game (index into its players) from the game's number.
fn league(drrs: u32, games: usize, winner: impl Fn(usize, [PlayerId; 2]) -> usize) -> League {
    let rules = LeagueRules {
        double_round_robins: drrs,
        playoff: Playoff::AllThree {
            qualifying: Series::Game,
            final_round: Series::FirstTo(3),
        },
        ..LeagueRules::default()
    };
    let mut l = League::default();
    let mut n = 1;
    run(
        &mut l,
        Command::Create {
            name: "bench".into(),
            rules,
            players: vec!["Ames".into(), "Baker".into(), "Clark".into()],
            seed_hash: draw::commitment(&seed(n)),
        },
    );
    let mut played = 0;
    while played < games {
        match l.phase() {
            Phase::AwaitingPositions { .. } => {
                run(
                    &mut l,
                    Command::RollPositions {
                        seed: seed(n),
                        next_seed_hash: draw::commitment(&seed(n + 1)),
                        at: t0(),
                    },
                );
                n += 1;
            }
            Phase::RoundRobin { .. } => {
                let g = l.playable()[0].clone();
                let w = winner(played, g.players);
                let mut pawns = [(played % 4) as u8, (played % 3) as u8];
                pawns[w] = 4;
                run(
                    &mut l,
                    Command::RecordResult {
                        game: Some(g.id),
                        players: g.players,
                        pawns,
                        seconds: 600 + played as u32 * 7,
                        at: t0(),
                    },
                );
                played += 1;
            }
            _ => break,
        }
    }
    l
}

#[divan::bench]
fn table(bencher: divan::Bencher) {
    let l = league(2, 12, |i, _| i % 2);
    bencher.bench(|| Table::of(divan::black_box(&l)));
}

#[divan::bench(args = [1, 3, 10, 20])]
fn determination(bencher: divan::Bencher, drrs: u32) {
    let l = league(drrs, 3, |i, _| i % 2);
    bencher.bench(|| analysis::determination(divan::black_box(&l)));
}

#[divan::bench(args = [1, 3, 10, 20])]
fn suggest(bencher: divan::Bencher, drrs: u32) {
    let l = league(drrs, 3, |i, _| i % 2);
    assert!(analysis::suggest_order(&l).is_some());
    bencher.bench(|| analysis::suggest_order(divan::black_box(&l)));
}

#[divan::bench]
fn determination_dominant(bencher: divan::Bencher) {
    // Ames (player 1) wins every game he plays; the others split.
    let l = league(20, 19 * 6 + 3, |i, p| {
        if p[0] == PlayerId(1) {
            0
        } else if p[1] == PlayerId(1) {
            1
        } else {
            i % 2
        }
    });
    bencher.bench(|| analysis::determination(divan::black_box(&l)));
}
