//! Properties of the general round-robin league (issue 16, §3): every pair
//! meets the scheduled number of times, the table is a permutation of the
//! players, points are conserved, the order does not depend on the order
//! players entered in, and block and restart agree when points alone or a
//! single criterion separates everyone.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_engine::model::{PlayerId, Time};
use arbiter_engine::roundrobin::{Command, HeadToHead, RoundRobin, RoundRobinRules, Score, Seat};
use proptest::prelude::*;

fn at() -> Time {
    "2026-01-01T12:00:00Z".parse().unwrap()
}

fn run(l: &mut RoundRobin, c: Command) {
    for e in l.decide(c).unwrap() {
        l.try_apply(&e).unwrap();
    }
}

fn league(rules: RoundRobinRules, names: &[String]) -> RoundRobin {
    let mut l = RoundRobin::default();
    run(
        &mut l,
        Command::Create {
            name: "p".into(),
            rules,
            players: names.to_vec(),
        },
    );
    run(
        &mut l,
        Command::Start {
            schedule: None,
            seed: None,
            at: at(),
        },
    );
    l
}

/// A result from a number, for the rules' kind of result.
fn score(rules: &RoundRobinRules, k: u32) -> Score {
    match (rules.scores, k % 11) {
        (_, 10) => Score::Forfeit {
            winner: Some(Seat::Away),
        },
        (true, k) => Score::Goals {
            home: k % 4,
            away: (k / 4) % 3,
        },
        (false, k) => match k % 3 {
            0 => Score::Won(Seat::Home),
            1 => Score::Drawn,
            _ => Score::Won(Seat::Away),
        },
    }
}

/// Results by the names of the two players, home first.
fn play(l: &mut RoundRobin, results: &[u32]) -> Vec<(String, String, Score)> {
    let rules = l.rules.clone();
    let mut out = Vec::new();
    for (i, g) in l.games.clone().iter().enumerate() {
        let s = score(&rules, results[i % results.len()]);
        run(
            l,
            Command::Record {
                game: g.id,
                score: s,
                minutes: None,
                at: at(),
            },
        );
        out.push((l.name_of(g.home), l.name_of(g.away), s));
    }
    out
}

fn names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("Player {i}")).collect()
}

#[test]
fn every_pair_meets_the_scheduled_number_of_times() {
    for n in 2..=64 {
        for cycles in [1u32, 2, 3] {
            if n > 20 && cycles > 1 && n % 7 != 0 {
                continue;
            }
            let mut rules = RoundRobinRules::chess();
            rules.cycles = cycles;
            let l = league(rules, &names(n));
            let mut met = vec![0u32; n * n];
            for r in &l.rounds {
                let mut busy = Vec::new();
                for g in &r.games {
                    let g = l.game(*g).unwrap();
                    assert!(!busy.contains(&g.home) && !busy.contains(&g.away));
                    busy.extend([g.home, g.away]);
                    let (a, b) = (
                        g.home.index().min(g.away.index()),
                        g.home.index().max(g.away.index()),
                    );
                    met[a * n + b] += 1;
                }
                assert_eq!(r.byes.len(), n % 2, "n={n} round {}", r.number);
            }
            for a in 0..n {
                for b in a + 1..n {
                    assert_eq!(met[a * n + b], cycles, "n={n} {a}-{b}");
                }
            }
        }
    }
}

fn rules_of(k: usize) -> RoundRobinRules {
    let name = RoundRobinRules::PRESETS[k % RoundRobinRules::PRESETS.len()];
    RoundRobinRules::preset(name).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_table_is_a_permutation_and_points_are_conserved(
        n in 2usize..12,
        preset in 0usize..5,
        results in prop::collection::vec(0u32..1000, 1..40),
    ) {
        let rules = rules_of(preset);
        let mut l = league(rules.clone(), &names(n));
        let played = play(&mut l, &results);
        let table = l.table();
        let mut seen: Vec<PlayerId> = table.rows.iter().map(|r| r.line.player).collect();
        seen.sort();
        prop_assert_eq!(seen, l.in_table());
        prop_assert_eq!(table.rows[0].place, 1);
        for w in table.rows.windows(2) {
            prop_assert!(w[0].place <= w[1].place);
            prop_assert!(w[0].line.points >= w[1].line.points);
        }
        let p = rules.points;
        let expected: i64 = played.iter().map(|(_, _, s)| i64::from(match s {
            Score::Forfeit { winner: Some(_) } => p.forfeit_win + p.forfeit_loss,
            Score::Forfeit { winner: None } => 2 * p.forfeit_loss,
            Score::Drawn => 2 * p.draw,
            Score::Goals { home, away } if home == away => 2 * p.draw,
            _ => p.win + p.loss,
        })).sum();
        prop_assert_eq!(table.rows.iter().map(|r| r.line.points).sum::<i64>(), expected);
        let difference: i64 = table.rows.iter().map(|r| r.line.scored - r.line.conceded).sum();
        prop_assert_eq!(difference, 0);
        for r in &table.rows {
            prop_assert!(!r.explanation.text.is_empty());
        }
    }

    #[test]
    fn the_order_does_not_depend_on_the_entry_order(
        n in 2usize..9,
        preset in 0usize..5,
        results in prop::collection::vec(0u32..1000, 1..30),
        rotate in 0usize..8,
    ) {
        let rules = rules_of(preset);
        let mut a = league(rules.clone(), &names(n));
        let played = play(&mut a, &results);
        let mut shuffled = names(n);
        shuffled.rotate_left(rotate % n);
        shuffled.reverse();
        let mut b = league(rules, &shuffled);
        for (home, away, s) in &played {
            let (h, w) = (b.find(home).unwrap(), b.find(away).unwrap());
            let game = b.find_game(h, w, None).unwrap();
            let g = b.game(game).unwrap();
            let s = if g.home == h { *s } else { s.swapped() };
            run(&mut b, Command::Record { game, score: s, minutes: None, at: at() });
        }
        let by_place = |l: &RoundRobin| {
            let t = l.table();
            let mut v: Vec<(usize, String)> =
                t.rows.iter().map(|r| (r.place, r.line.name.clone())).collect();
            v.sort();
            v
        };
        prop_assert_eq!(by_place(&a), by_place(&b));
    }

    #[test]
    fn block_and_restart_agree_when_one_step_separates_everyone(
        n in 2usize..9,
        results in prop::collection::vec(0u32..1000, 1..30),
    ) {
        let mut l = league(RoundRobinRules::uefa_euro(), &names(n));
        play(&mut l, &results);
        let block = l.table();
        // Every tie on points split by one criterion into single players:
        // then no method can differ.
        let one_step = block.ranking.splits.iter().all(|s| {
            s.step == 0
                || block.ranking.splits.iter().filter(|t| t.among == s.among).all(|t| t.step == s.step)
                    && s.among.len() == block.ranking.splits.iter().filter(|t| t.among == s.among).count() + 1
        }) && block.ranking.unresolved.is_empty();
        let mut r = l.clone();
        r.rules.head_to_head = HeadToHead::Restart;
        let restart = r.table();
        if one_step {
            let order = |t: &arbiter_engine::roundrobin::table::Table| {
                t.rows.iter().map(|r| r.line.player).collect::<Vec<_>>()
            };
            prop_assert_eq!(order(&block), order(&restart));
        }
    }
}

#[test]
fn withdrawals_annul_under_half_or_give_forfeits() {
    let mut l = league(RoundRobinRules::chess(), &names(6));
    let first = l.games[0].clone();
    run(
        &mut l,
        Command::Record {
            game: first.id,
            score: Score::Won(Seat::Home),
            minutes: None,
            at: at(),
        },
    );
    let gone = first.away;
    run(
        &mut l,
        Command::Withdraw {
            player: gone,
            at: at(),
        },
    );
    let t = l.table();
    assert!(
        t.rows.iter().all(|r| r.line.player != gone),
        "annulled: out of the table"
    );
    assert_eq!(t.rows.iter().map(|r| r.line.points).sum::<i64>(), 0);

    let mut l = league(RoundRobinRules::fifa_world_cup(), &names(4));
    let gone = PlayerId(2);
    run(
        &mut l,
        Command::Withdraw {
            player: gone,
            at: at(),
        },
    );
    let t = l.table();
    let row = t.rows.iter().find(|r| r.line.player == gone).unwrap();
    assert_eq!(
        (row.line.points, row.line.lost, row.line.forfeits),
        (0, 3, 3)
    );
    for r in t.rows.iter().filter(|r| r.line.player != gone) {
        assert_eq!((r.line.points, r.line.scored), (3, 3), "{}", r.line.name);
    }
    assert!(
        l.decide(Command::AddPlayer {
            name: "Late".into()
        })
        .unwrap_err()
        .message
        .contains("late entries")
    );
}

#[test]
fn hostile_commands_are_refused_naming_the_field() {
    let l = league(RoundRobinRules::chess(), &names(4));
    for p in [PlayerId(0), PlayerId(99), PlayerId(u32::MAX)] {
        let e = l
            .decide(Command::Withdraw {
                player: p,
                at: at(),
            })
            .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("player"));
    }
    let g = l.games[0].id;
    let e = l
        .decide(Command::Record {
            game: g,
            score: Score::Goals { home: 1, away: 0 },
            minutes: None,
            at: at(),
        })
        .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("score"));
    let e = l
        .decide(Command::Record {
            game: arbiter_engine::roundrobin::GameId(u32::MAX),
            score: Score::Drawn,
            minutes: None,
            at: at(),
        })
        .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("game"));
    let mut twice = l.clone();
    run(
        &mut twice,
        Command::Record {
            game: g,
            score: Score::Drawn,
            minutes: None,
            at: at(),
        },
    );
    assert!(
        twice
            .decide(Command::Record {
                game: g,
                score: Score::Drawn,
                minutes: None,
                at: at()
            })
            .is_err()
    );
    let mut fresh = RoundRobin::default();
    run(
        &mut fresh,
        Command::Create {
            name: "x".into(),
            rules: RoundRobinRules::chess(),
            players: names(3),
        },
    );
    let (a, b, c) = (PlayerId(1), PlayerId(2), PlayerId(3));
    for schedule in [
        vec![vec![(a, b)], vec![(a, b)], vec![(b, c)]],
        vec![vec![(a, b), (a, c)], vec![(b, c)]],
        vec![vec![(a, PlayerId(0))]],
    ] {
        let e = fresh
            .decide(Command::Start {
                schedule: Some(schedule),
                seed: None,
                at: at(),
            })
            .unwrap_err();
        assert!(e.field.is_some(), "{e}");
    }
    run(
        &mut fresh,
        Command::Start {
            schedule: Some(vec![vec![(a, b)], vec![(b, c)], vec![(c, a)]]),
            seed: None,
            at: at(),
        },
    );
    assert_eq!(fresh.games.len(), 3);
}

#[test]
fn lots_drawn_from_the_committed_seed_ignore_the_naming_order() {
    let mut l = RoundRobin::default();
    run(
        &mut l,
        Command::Create {
            name: "x".into(),
            rules: RoundRobinRules::fifa_world_cup(),
            players: names(4),
        },
    );
    let seed = [42u8; 32];
    run(
        &mut l,
        Command::Start {
            schedule: None,
            seed: Some(seed),
            at: at(),
        },
    );
    let ps = [PlayerId(1), PlayerId(3), PlayerId(4)];
    let rev: Vec<PlayerId> = ps.iter().rev().copied().collect();
    let a = l
        .decide(Command::DrawLots {
            players: ps.to_vec(),
            seed,
            at: at(),
        })
        .unwrap();
    let b = l
        .decide(Command::DrawLots {
            players: rev,
            seed,
            at: at(),
        })
        .unwrap();
    assert_eq!(a, b);
    assert!(
        l.decide(Command::DrawLots {
            players: ps.to_vec(),
            seed: [1; 32],
            at: at()
        })
        .is_err()
    );
}
