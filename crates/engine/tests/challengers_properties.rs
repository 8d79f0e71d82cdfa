//! Property tests of XMadn Challengers (xmadn-double-threat.txt
//! "Challengers (C)", XM-R8, XM-R9, ARB-R25): random Game 0 finishing
//! orders, colour choices, distances, rule sets and game winners, checked
//! after every counted game against oracles written from the rule text:
//!
//! - (a) exactly two players are at the board and the third sits out;
//! - (b) nobody sits out two consecutive counted games ("sit out one single
//!   counted game before returning to the board");
//! - (c) the winner of each game plays the next one with the same allied
//!   colours ("The winner will stay at the board and keep their allied
//!   colours"), the loser sits out, and the player who sat out returns with
//!   the colours the loser left (XM-R8);
//! - (d) the four board colours are always all in use;
//! - (e) Game 1 is 1st v 2nd of Game 0, 1st with the chosen colours, 2nd
//!   with the two left in board order (ARB-R25);
//! - (f) the event ends exactly when a player reaches x wins: nothing is
//!   accepted after it, and it does end within 3x - 2 games;
//! - (g) every player has at least two at-boards when x >= 4 ("thus making
//!   sure that each player will have at least two at-boards");
//! - (h) records add up: wins = losses = games; at-boards + sat out = games
//!   for each player; pawns follow XM-R9;
//! - (i) the fold of the log equals the applied state, and every event
//!   passes `check` when folded from scratch;
//! - (j) decide never panics on random commands, and a refused command
//!   leaves the state unchanged.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;

use arbiter_engine::model::{PlayerId, Time};
use arbiter_engine::xmadn::challengers::{Challengers, Command, Event};
use arbiter_engine::xmadn::{ChallengersRules, Colours, RuleSet};
use proptest::prelude::*;

const PERMS: [[u32; 3]; 6] = [
    [1, 2, 3],
    [1, 3, 2],
    [2, 1, 3],
    [2, 3, 1],
    [3, 1, 2],
    [3, 2, 1],
];

fn at() -> Time {
    Time::UNIX_EPOCH
}

struct Sim {
    state: Challengers,
    log: Vec<Event>,
}

impl Sim {
    fn run(&mut self, command: Command) -> Result<(), arbiter_engine::RuleError> {
        let before = self.state.clone();
        match self.state.decide(command) {
            Ok(events) => {
                for e in events {
                    self.state.try_apply(&e).expect("a decided event fits");
                    self.log.push(e);
                }
                Ok(())
            }
            Err(e) => {
                assert_eq!(self.state, before, "decide changed the state");
                Err(e)
            }
        }
    }
}

fn board_set(rules: &ChallengersRules) -> BTreeSet<String> {
    rules.board_colours.iter().cloned().collect()
}

fn colours_set(cs: &[Colours; 2]) -> BTreeSet<String> {
    cs.iter()
        .flat_map(|c| [c.vanguard.clone(), c.rearguard.clone()])
        .collect()
}

#[derive(Debug, Clone)]
struct Scenario {
    finishing: [u32; 3],
    chosen: (usize, usize),
    masters: bool,
    first_to: u32,
    games: Vec<Step>,
}

/// A random `RecordGame`: two player ids (0 to 4) and two pawn counts.
type RandomGame = (u32, u32, u8, u8);

/// One counted game of a scenario.
#[derive(Debug, Clone)]
struct Step {
    /// Whether the player who stays wins (else the one who returns).
    stayer_wins: bool,
    /// The loser's pawns (modulo the winning count).
    loser_pawns: u8,
    /// Whether the command names the players in reverse board order.
    reversed: bool,
    /// A random (maybe invalid) command tried first.
    random: Option<RandomGame>,
}

fn scenario() -> impl Strategy<Value = Scenario> {
    (
        0usize..6,
        (0usize..4, 0usize..3),
        any::<bool>(),
        4u32..=9,
        prop::collection::vec(
            (
                any::<bool>(),
                any::<u8>(),
                any::<bool>(),
                prop::option::weighted(0.3, (0u32..5, 0u32..5, 0u8..10, 0u8..10)),
            )
                .prop_map(|(stayer_wins, loser_pawns, reversed, random)| Step {
                    stayer_wins,
                    loser_pawns,
                    reversed,
                    random,
                }),
            25, // 3 * 9 - 2 games end any first-to-9
        ),
    )
        .prop_map(|(perm, (v, r), masters, first_to, games)| Scenario {
            finishing: PERMS[perm],
            // Two different indices 0..4.
            chosen: (v, if r >= v { r + 1 } else { r }),
            masters,
            first_to,
            games,
        })
}

fn check_scenario(sc: &Scenario) {
    let rules = ChallengersRules {
        rule_set: if sc.masters {
            RuleSet::Masters
        } else {
            RuleSet::Championship
        },
        first_to: sc.first_to,
        ..ChallengersRules::default()
    };
    let board_colours = rules.board_colours.clone();
    let win = rules.rule_set.winning_pawns();
    let mut sim = Sim {
        state: Challengers::default(),
        log: Vec::new(),
    };
    sim.run(Command::Create {
        name: "prop".into(),
        rules: rules.clone(),
        players: vec!["Ames".into(), "Baker".into(), "Clark".into()],
    })
    .unwrap();
    let finishing = sc.finishing.map(PlayerId);
    let chosen = Colours {
        vanguard: board_colours[sc.chosen.0].clone(),
        rearguard: board_colours[sc.chosen.1].clone(),
    };
    // No counted game before Game 0.
    assert!(
        sim.run(Command::RecordGame {
            players: [finishing[0], finishing[1]],
            pawns: [win, 0],
            seconds: 60,
            at: at(),
        })
        .is_err()
    );
    sim.run(Command::RecordQualifier {
        finishing,
        colours: None,
        seconds: Some(200),
        chosen: chosen.clone(),
        at: at(),
    })
    .unwrap();

    // (e) Game 1.
    let first = sim.state.next_game().expect("Game 1 after Game 0");
    assert_eq!(first.number, 1);
    assert_eq!(first.players, [finishing[0], finishing[1]]);
    assert_eq!(first.out, finishing[2]);
    assert_eq!(first.colours[0], chosen);
    let rest: Vec<&String> = board_colours
        .iter()
        .filter(|c| **c != chosen.vanguard && **c != chosen.rearguard)
        .collect();
    assert_eq!(first.colours[1].vanguard, *rest[0]);
    assert_eq!(first.colours[1].rearguard, *rest[1]);

    let mut played = 0u32;
    let mut pawns_for = [0u32; 3];
    for step in &sc.games {
        if sim.state.champion().is_some() {
            break;
        }
        let next = sim.state.next_game().expect("a next game until the end");
        // (a)
        let [p, q] = next.players;
        assert!(p != q && p != next.out && q != next.out);
        for id in [p, q, next.out] {
            assert!((1..=3).contains(&id.0));
        }
        // (d)
        assert_eq!(colours_set(&next.colours), board_set(&rules));
        assert_eq!(next.number, played + 1);

        // (j) a random command: refused without change, or a valid game.
        if let Some((a, b, pa, pb)) = step.random {
            let before = sim.state.clone();
            let command = Command::RecordGame {
                players: [PlayerId(a), PlayerId(b)],
                pawns: [pa, pb],
                seconds: 60,
                at: at(),
            };
            let ok_players = a != b
                && next.players.contains(&PlayerId(a))
                && next.players.contains(&PlayerId(b));
            let ok_pawns = (pa == win && pb < win) || (pb == win && pa < win);
            match sim.state.decide(command) {
                Ok(_) => {
                    assert!(ok_players && ok_pawns, "accepted {a} {b} {pa}-{pb}");
                    assert_eq!(sim.state, before, "decide changed the state");
                }
                Err(_) => {
                    assert!(!(ok_players && ok_pawns), "refused {a} {b} {pa}-{pb}");
                    assert_eq!(sim.state, before);
                }
            }
        }
        // The player sitting out cannot play.
        assert!(
            sim.state
                .decide(Command::RecordGame {
                    players: [next.out, p],
                    pawns: [win, 0],
                    seconds: 60,
                    at: at(),
                })
                .is_err()
        );

        let (winner, loser) = if step.stayer_wins { (p, q) } else { (q, p) };
        let lp = step.loser_pawns % win;
        let (players, pawns) = if step.reversed {
            ([loser, winner], [lp, win])
        } else {
            ([winner, loser], [win, lp])
        };
        sim.run(Command::RecordGame {
            players,
            pawns,
            seconds: 600,
            at: at(),
        })
        .unwrap();
        played += 1;
        pawns_for[winner.0 as usize - 1] += u32::from(win);
        pawns_for[loser.0 as usize - 1] += u32::from(lp);

        let game = sim.state.games().last().unwrap().clone();
        assert_eq!(game.number, played);
        assert_eq!(game.winner(), winner);
        assert_eq!(game.loser(), loser);
        assert_eq!(game.out, next.out);
        let winner_colours = next.colours[usize::from(winner != p)].clone();
        let loser_colours = next.colours[usize::from(loser != p)].clone();
        assert_eq!(game.colours_of(winner), Some(&winner_colours));

        // (f)
        let wins = sim.state.record(winner).unwrap().wins;
        let max_wins = sim
            .state
            .player_ids()
            .map(|id| sim.state.record(id).unwrap().wins)
            .max()
            .unwrap();
        assert!(max_wins <= sc.first_to);
        if wins == sc.first_to {
            assert_eq!(sim.state.champion(), Some(winner));
            assert!(sim.state.next_game().is_none());
        } else {
            assert_eq!(sim.state.champion(), None);
            assert!(max_wins < sc.first_to);
            // (b), (c)
            let after = sim.state.next_game().unwrap();
            assert_eq!(after.players[0], winner);
            assert_eq!(after.colours[0], winner_colours);
            assert_eq!(after.players[1], next.out, "the player who sat out returns");
            assert_eq!(after.colours[1], loser_colours, "XM-R8");
            assert_eq!(after.out, loser);
            assert_ne!(after.out, next.out, "nobody sits out two games running");
        }
    }

    // (f) it ends within 3x - 2 games, and nothing is accepted after.
    let champion = sim.state.champion().expect("the event ended");
    assert!(played <= 3 * sc.first_to - 2);
    assert_eq!(sim.state.record(champion).unwrap().wins, sc.first_to);
    for a in 1..=3 {
        for b in 1..=3 {
            assert!(
                sim.run(Command::RecordGame {
                    players: [PlayerId(a), PlayerId(b)],
                    pawns: [win, 0],
                    seconds: 60,
                    at: at(),
                })
                .is_err()
            );
        }
    }
    assert!(
        sim.run(Command::RecordQualifier {
            finishing,
            colours: None,
            seconds: None,
            chosen,
            at: at(),
        })
        .is_err()
    );

    // (g), (h)
    let games = sim.state.games();
    for w in games.windows(2) {
        assert_ne!(w[0].out, w[1].out, "nobody sits out two games running");
    }
    let mut total_wins = 0;
    let mut total_losses = 0;
    for id in sim.state.player_ids() {
        let r = *sim.state.record(id).unwrap();
        assert!(r.at_boards >= 2, "{id} has {} at-boards", r.at_boards);
        assert_eq!(r.at_boards + r.sat_out, played);
        assert_eq!(r.wins + r.losses, r.at_boards);
        assert_eq!(r.pawns_for, pawns_for[id.0 as usize - 1]);
        total_wins += r.wins;
        total_losses += r.losses;
    }
    assert_eq!((total_wins, total_losses), (played, played));
    let standings = sim.state.standings();
    assert_eq!(standings[0].player, champion);
    assert!(standings.windows(2).all(|w| w[0].wins >= w[1].wins));

    // (i)
    assert_eq!(Challengers::fold(&sim.log), sim.state);
    let mut fresh = Challengers::default();
    for e in &sim.log {
        fresh.try_apply(e).expect("the log folds cleanly");
    }
    assert_eq!(fresh, sim.state);
    // Every game is explained.
    for n in 1..=played {
        assert!(sim.state.explain_game(n).is_some(), "game {n} explained");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn winner_stays_loser_sits_out(sc in scenario()) {
        check_scenario(&sc);
    }

    /// Distances below first-to-4 are refused.
    #[test]
    fn short_distances_are_refused(first_to in 0u32..4) {
        let s = Challengers::default();
        let e = s
            .decide(Command::Create {
                name: "p".into(),
                rules: ChallengersRules { first_to, ..ChallengersRules::default() },
                players: vec!["A".into(), "B".into(), "C".into()],
            })
            .unwrap_err();
        prop_assert_eq!(e.field.as_deref(), Some("first_to"));
    }

    /// Random events never make apply panic; those that do not fit are
    /// ignored.
    #[test]
    fn apply_never_panics(events in prop::collection::vec(
        (0u8..3, 0u32..5, 0u32..5, 0u32..5, 0u8..10, 0u8..10, 0u32..6),
        0..30,
    )) {
        let mut s = Challengers::default();
        s.apply(&Event::Created {
            name: "p".into(),
            rules: ChallengersRules::default(),
            players: vec!["A".into(), "B".into(), "C".into()],
        });
        for (kind, a, b, c, pa, pb, number) in events {
            let e = match kind {
                0 => Event::QualifierPlayed {
                    finishing: [PlayerId(a), PlayerId(b), PlayerId(c)],
                    colours: None,
                    seconds: None,
                    chosen: Colours { vanguard: "red".into(), rearguard: "blue".into() },
                    at: at(),
                },
                1 => Event::GamePlayed {
                    home: None,
                    number,
                    players: [PlayerId(a), PlayerId(b)],
                    score: arbiter_engine::xmadn::Score { pawns: [pa, pb], seconds: 60 },
                    at: at(),
                },
                _ => Event::Reverted { seq: u64::from(a), summary: String::new() },
            };
            let before = s.clone();
            let fits = s.check(&e).is_ok();
            s.apply(&e);
            if !fits {
                prop_assert_eq!(&s, &before);
            }
            let _ = s.next_game();
            let _ = s.standings();
            for n in 0..8 {
                let _ = s.explain_game(n);
            }
        }
    }
}
