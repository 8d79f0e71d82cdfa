//! Benchmarks of the Monte-Carlo projections (ARB-R48).
//!
//! `cargo bench -p arbiter-engine --bench projection`
//!
//! - `sunjang_group_9/<left>`: 10,000 simulated seasons of division A, a
//!   single group of 9 players, with half (`18`) or all (`36`) of its 36
//!   games left: every season plays the games, ranks the group by the full
//!   section D cascade, counts section B and qualifies and plays the final
//!   round. Target under 0.5 s.
//! - `xmadn_league`: 10,000 simulated seasons of an XMadn league of two
//!   double round-robins from the start, with the default playoff, through
//!   the league's own `decide` and `apply`.
//! - `tws_ladder_20`: 1,000 simulated seasons of a 20-player ladder, its
//!   next two rounds announced, played and closed through the ladder's
//!   `decide` and `apply`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_engine::draw::{self, Seed};
use arbiter_engine::model::{PlayerId, Time};
use arbiter_engine::projection::WinModel;
use arbiter_engine::projection::sunjang::project_division;
use arbiter_engine::projection::tws::project_ladder;
use arbiter_engine::projection::xmadn::project_league;
use arbiter_engine::sunjang::group::Outcome;
use arbiter_engine::sunjang::season::{Command as SjCommand, League as SjLeague};
use arbiter_engine::sunjang::{PlayerInfo, Rank, Restrictions, SunjangRules};
use arbiter_engine::tws::{Command as TwsCommand, Ladder};
use arbiter_engine::xmadn::LeagueRules;
use arbiter_engine::xmadn::league::{Command as XmCommand, League as XmLeague};
use chrono::{Duration, TimeZone, Utc};

// The allocator the `arbiter` binary uses (see crates/cli/src/main.rs).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

const SEASONS: u32 = 10_000;

fn seed(n: u8) -> Seed {
    [n; 32]
}

fn time(minutes: i64) -> Time {
    Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap() + Duration::minutes(minutes)
}

/// Division A of 9 players, the first `36 - left` games played.
fn sunjang_group(left: usize) -> SjLeague {
    let mut l = SjLeague::default();
    let exec = |l: &mut SjLeague, c: SjCommand| {
        for e in l.decide(c).unwrap() {
            l.apply(&e);
        }
    };
    exec(
        &mut l,
        SjCommand::Create {
            name: "bench".into(),
            rules: SunjangRules::default(),
            restrictions: Restrictions::default(),
        },
    );
    for i in 0..9 {
        exec(
            &mut l,
            SjCommand::Register {
                info: PlayerInfo {
                    name: format!("Player {}", i + 1),
                    rank: Rank::Kyu(3 + i % 3),
                    provisional: false,
                    rating: 1500 + i as i32 * 7,
                    corr_rank: None,
                    corr_rating: None,
                },
            },
        );
    }
    exec(&mut l, SjCommand::PlanSeason { at: time(0) });
    let games: Vec<_> = l.current().unwrap().divisions[0][0]
        .games
        .iter()
        .map(|g| (g.pairing.black, g.pairing.white))
        .collect();
    let played = games.len() - left;
    for (k, (black, white)) in games.into_iter().take(played).enumerate() {
        let outcome = match k % 5 {
            0 | 3 => Outcome::BlackWins,
            4 => Outcome::Jigo,
            _ => Outcome::WhiteWins,
        };
        exec(
            &mut l,
            SjCommand::RecordResult {
                black,
                white,
                outcome,
                at: time(k as i64 + 1),
            },
        );
    }
    l
}

fn model(n: u32) -> WinModel {
    WinModel::elo(
        (1..=n).map(|i| (PlayerId(i), 1450.0 + 25.0 * f64::from(i))),
        20_000,
    )
}

#[divan::bench(args = [18, 36], sample_count = 10)]
fn sunjang_group_9(bencher: divan::Bencher, left: usize) {
    let l = sunjang_group(left);
    let m = model(9);
    bencher.bench(|| project_division(&l, 0, &m, SEASONS, seed(1)).unwrap());
}

#[divan::bench(sample_count = 5)]
fn xmadn_league(bencher: divan::Bencher) {
    let mut l = XmLeague::default();
    for e in l
        .decide(XmCommand::Create {
            name: "bench".into(),
            rules: LeagueRules::default(),
            players: vec!["Ames".into(), "Baker".into(), "Clark".into()],
            seed_hash: draw::commitment(&seed(2)),
        })
        .unwrap()
    {
        l.apply(&e);
    }
    let m = model(3);
    bencher.bench(|| project_league(&l, &m, SEASONS, seed(3)).unwrap());
}

#[divan::bench(sample_count = 5)]
fn tws_ladder_20(bencher: divan::Bencher) {
    let mut l = Ladder::default();
    let mut exec = |c: TwsCommand| {
        for e in l.decide(c).unwrap() {
            l.apply(&e);
        }
    };
    exec(TwsCommand::Create {
        name: "bench".into(),
        rules: Default::default(),
        seed_hash: draw::commitment(&seed(4)),
    });
    exec(TwsCommand::AddModerator {
        name: "Morgan Reed".into(),
    });
    for i in 0..20u8 {
        exec(TwsCommand::Join {
            name: format!("Player {}{}", (b'A' + i) as char, (b'a' + i) as char),
            surname: None,
        });
    }
    let m = model(20);
    bencher.bench(|| project_ladder(&l, 2, &m, 1_000, seed(5)).unwrap());
}
