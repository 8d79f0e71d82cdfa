//! Whole-procedure benchmarks of the ladder engine.
//!
//! `cargo bench -p arbiter-engine --bench ladder`
//!
//! - `close_round_1m`: close a round of a 1,000,000-player ladder and announce
//!   the next (re-sort, skips, pairings, sides): target under 100 ms.
//! - `fold_1m_events`: replay 1,000,000 events of a 1,000-player ladder
//!   (announcements, results, closes): target at least 2,000,000 events/s.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_engine::draw::{self, Seed};
use arbiter_engine::model::{EndTag, GameResult, GameStatus, Outcome, PlayerId, Side, Time};
use arbiter_engine::tws::{self, Command, Event, Ladder, LadderRules, PairingPlan};
use chrono::{Duration, TimeZone, Utc};

// The allocator the `arbiter` binary uses (see crates/cli/src/main.rs): a
// round of a million players allocates tens of megabytes, and glibc's
// malloc hands them back to the kernel and refaults them.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

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

/// A ladder of `n` members with `moderators` moderators, as events.
fn members(n: u32) -> (Ladder, Vec<Event>) {
    let mut l = Ladder::default();
    let mut events = Vec::with_capacity(n as usize * 2 + 3);
    let mut push = |l: &mut Ladder, e: Event| {
        l.apply(&e);
        events.push(e);
    };
    push(
        &mut l,
        Event::Created {
            name: "bench".into(),
            rules: LadderRules::default(),
            seed_hash: draw::commitment(&seed(1)),
        },
    );
    push(
        &mut l,
        Event::ModeratorAdded {
            name: "Mod One".into(),
        },
    );
    push(
        &mut l,
        Event::ModeratorAdded {
            name: "Mod Two".into(),
        },
    );
    for i in 1..=n {
        let player = PlayerId(i);
        push(
            &mut l,
            Event::PlayerApplied {
                player,
                name: format!("Player {i}"),
                surname: format!("P{i}"),
            },
        );
        push(&mut l, Event::PlayerApproved { player });
    }
    (l, events)
}

/// Announce the next round (with `skips` players skipping) and decide
/// every game; returns the events.
fn play_round(l: &mut Ladder, round: u32, skip_every: usize) -> Vec<Event> {
    let mut out = Vec::new();
    let at = t0() + Duration::days(i64::from(round) * 30);
    if skip_every > 0 {
        for (i, p) in l.order.clone().into_iter().enumerate() {
            if i % skip_every == 3 {
                let e = Event::SkipRequested { player: p, round };
                l.apply(&e);
                out.push(e);
            }
        }
    }
    let events = l
        .decide(Command::AnnounceRound {
            at,
            deadline: None,
            plan: PairingPlan::Default { eliminator: None },
            seed: seed(round),
            next_seed_hash: draw::commitment(&seed(round + 1)),
        })
        .expect("announce");
    for e in &events {
        l.apply(e);
    }
    out.extend(events);
    let games = l.open_round().unwrap().games.clone();
    for (i, g) in games.into_iter().enumerate() {
        let outcome = match i % 7 {
            0 | 2 | 4 => Outcome::Win(Side::Ussr),
            6 => Outcome::Tie,
            _ => Outcome::Win(Side::Us),
        };
        let e = Event::ResultRecorded {
            game: g,
            result: GameResult {
                outcome,
                ended_by: if outcome == Outcome::Tie {
                    EndTag::FinalScoring
                } else {
                    EndTag::Vp
                },
                vp: None,
                turn: Some(8),
                note: None,
                status: GameStatus::Played,
                adjudication: None,
                at: at + Duration::days(10),
            },
        };
        l.apply(&e);
        out.push(e);
    }
    out
}

fn close(l: &mut Ladder, round: u32) -> Vec<Event> {
    let at = t0() + Duration::days(i64::from(round) * 30 + 29);
    let events = l.decide(Command::CloseRound { at }).expect("close");
    for e in &events {
        l.apply(e);
    }
    events
}

#[divan::bench(sample_count = 10, sample_size = 1)]
fn close_round_1m(bencher: divan::Bencher) {
    let (mut l, _) = members(1_000_000);
    play_round(&mut l, 1, 0);
    close(&mut l, 1);
    // Round 2 with 1 in 50 skipping, all games decided.
    play_round(&mut l, 2, 50);
    bencher
        .with_inputs(|| l.clone())
        .bench_local_values(|mut l| {
            // Close round 2 (re-sort, skips, champion), then announce round 3
            // (pairings, sides, moderators, deadline).
            let at = t0() + Duration::days(95);
            let closed = l.decide(Command::CloseRound { at }).expect("close");
            for e in &closed {
                l.apply(e);
            }
            let announced = l
                .decide(Command::AnnounceRound {
                    at,
                    deadline: None,
                    plan: PairingPlan::Default { eliminator: None },
                    seed: seed(3),
                    next_seed_hash: draw::commitment(&seed(4)),
                })
                .expect("announce");
            (closed, announced, l)
        });
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn fold_1m_events(bencher: divan::Bencher) {
    let (mut l, mut events) = members(1_000);
    let mut round = 1;
    while events.len() < 1_000_000 {
        events.extend(play_round(&mut l, round, 40));
        events.extend(close(&mut l, round));
        round += 1;
    }
    events.truncate(1_000_000);
    let n = events.len();
    bencher
        .counter(divan::counter::ItemsCount::new(n))
        .bench_local(|| tws::fold(events.iter().enumerate().map(|(i, e)| (i as u64 + 1, e))));
}

/// The phases of `close_round_1m`, measured apart.
mod phases {
    use super::*;

    fn ready() -> Ladder {
        let (mut l, _) = members(1_000_000);
        play_round(&mut l, 1, 0);
        close(&mut l, 1);
        play_round(&mut l, 2, 50);
        l
    }

    #[divan::bench(sample_count = 5, sample_size = 1)]
    fn decide_close(bencher: divan::Bencher) {
        let l = ready();
        let at = t0() + Duration::days(95);
        bencher.bench_local(|| l.decide(Command::CloseRound { at }).expect("close"));
    }

    #[divan::bench(sample_count = 5, sample_size = 1)]
    fn apply_close(bencher: divan::Bencher) {
        let l = ready();
        let at = t0() + Duration::days(95);
        let closed = l.decide(Command::CloseRound { at }).expect("close");
        bencher
            .with_inputs(|| l.clone())
            .bench_local_values(|mut l| {
                l.apply(&closed[0]);
                l
            });
    }

    #[divan::bench(sample_count = 5, sample_size = 1)]
    fn decide_announce(bencher: divan::Bencher) {
        let mut l = ready();
        let at = t0() + Duration::days(95);
        close(&mut l, 2);
        bencher.bench_local(|| {
            l.decide(Command::AnnounceRound {
                at,
                deadline: None,
                plan: PairingPlan::Default { eliminator: None },
                seed: seed(3),
                next_seed_hash: draw::commitment(&seed(4)),
            })
            .expect("announce")
        });
    }
}
