//! The projection of a general round-robin league (issue 16; ARB-R48,
//! ARB-R70): reproducible from its seed, one player per place and season,
//! a finished league's own table with certainty, ratings that matter, ties
//! the cascade leaves drawn uniformly (or by the league's recorded lot),
//! and a stop from the progress callback that counts only the seasons
//! done.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::ops::ControlFlow;

use arbiter_engine::draw::Seed;
use arbiter_engine::model::{PlayerId, Time};
use arbiter_engine::projection::roundrobin::{
    Place, draw_rate, project_round_robin, project_round_robin_with_progress,
};
use arbiter_engine::projection::{PPM, Projection, WinModel};
use arbiter_engine::ratings::{Elo, System};
use arbiter_engine::roundrobin::{self, Command, GameId, RoundRobin, RoundRobinRules, Score, Seat};

fn at() -> Time {
    "2026-02-01T12:00:00Z".parse().unwrap()
}

fn seed(n: u8) -> Seed {
    [n; 32]
}

fn exec(l: &mut RoundRobin, c: Command) {
    for e in l.decide(c).unwrap() {
        l.try_apply(&e).unwrap();
    }
}

fn league(rules: RoundRobinRules, n: usize) -> RoundRobin {
    let mut l = RoundRobin::default();
    exec(
        &mut l,
        Command::Create {
            name: "projection".into(),
            rules,
            players: (1..=n).map(|i| format!("Player {i}")).collect(),
        },
    );
    exec(
        &mut l,
        Command::Start {
            schedule: None,
            seed: None,
            at: at(),
        },
    );
    l
}

fn record(l: &mut RoundRobin, game: GameId, score: Score) {
    exec(
        l,
        Command::Record {
            game,
            score,
            minutes: None,
            at: at(),
        },
    );
}

/// Every place is held by one player each season, and every player has
/// one place each season.
fn assert_places_add_up(p: &Projection<Place>, players: usize) {
    for place in 1..=players {
        assert_eq!(p.total(place), u64::from(p.seasons), "place {place}");
    }
    assert_eq!(p.per_player.len(), players);
    for (player, m) in &p.per_player {
        assert_eq!(m.values().sum::<u32>(), p.seasons, "{player:?}");
        assert!(m.keys().all(|&k| (1..=players).contains(&k)));
    }
}

fn elo(ratings: &[f64], draw_ppm: u32) -> WinModel {
    WinModel::elo(
        ratings
            .iter()
            .enumerate()
            .map(|(i, &r)| (PlayerId(i as u32 + 1), r)),
        draw_ppm,
    )
}

#[test]
fn the_same_seed_gives_the_same_projection() {
    for preset in RoundRobinRules::PRESETS {
        let mut l = league(RoundRobinRules::preset(preset).unwrap(), 6);
        // A few results, so that some games are decided and some open.
        let scores = l.rules.scores;
        for g in l.games.clone().into_iter().step_by(3) {
            let s = if scores {
                Score::Goals { home: 2, away: 1 }
            } else {
                Score::Drawn
            };
            record(&mut l, g.id, s);
        }
        let m = elo(&[1500.0, 1550.0, 1600.0, 1450.0, 1500.0, 1700.0], 250_000);
        let a = project_round_robin(&l, &m, 500, seed(1)).unwrap();
        let b = project_round_robin(&l, &m, 500, seed(1)).unwrap();
        assert_eq!(a, b, "{preset}");
        assert_places_add_up(&a, 6);
        let c = project_round_robin(&l, &m, 500, seed(2)).unwrap();
        assert_ne!(a.per_player, c.per_player, "{preset}: another seed");
    }
}

#[test]
fn a_finished_league_projects_its_own_table_with_certainty() {
    // Chess, 5 players: the lower-numbered player beats the higher, except
    // that 2 beats 1 and 5 beats 2. 1 and 2 end level on 3 points, and so
    // do 4 and 5 on 1: the direct encounter puts 2 above 1 and 4 above 5.
    let mut l = league(RoundRobinRules::chess(), 5);
    for g in l.games.clone() {
        let (h, a) = (g.home.0, g.away.0);
        let home_wins = match (h.min(a), h.max(a)) {
            (1, 2) => h == 2,
            (2, 5) => h == 5,
            _ => h < a,
        };
        let s = Score::Won(if home_wins { Seat::Home } else { Seat::Away });
        record(&mut l, g.id, s);
    }
    assert!(l.is_finished());
    let table = l.table();
    let order: Vec<PlayerId> = table.rows.iter().map(|r| r.line.player).collect();
    assert_eq!(
        order,
        [2, 1, 3, 4, 5].map(PlayerId),
        "the table as the cascade ranks it"
    );
    assert_eq!(table.rows[0].line.points, table.rows[1].line.points);
    assert_eq!(table.rows[3].line.points, table.rows[4].line.points);
    let m = elo(&[1500.0, 2400.0, 1500.0, 1500.0, 2800.0], 300_000);
    let p = project_round_robin(&l, &m, 300, seed(3)).unwrap();
    for (i, player) in order.iter().enumerate() {
        assert_eq!(p.count(*player, i + 1), 300, "{player:?}");
    }
    assert_places_add_up(&p, 5);
}

#[test]
fn a_much_stronger_player_wins_most_titles() {
    for preset in RoundRobinRules::PRESETS {
        let l = league(RoundRobinRules::preset(preset).unwrap(), 8);
        let m = elo(
            &[
                1500.0, 1500.0, 1500.0, 2300.0, 1500.0, 1500.0, 1500.0, 1500.0,
            ],
            250_000,
        );
        let p = project_round_robin(&l, &m, 2000, seed(4)).unwrap();
        assert_places_add_up(&p, 8);
        let strong = PlayerId(4);
        assert!(
            p.count(strong, 1) > 1800,
            "{preset}: {} titles of 2000",
            p.count(strong, 1)
        );
        // And he is almost never last.
        assert!(p.count(strong, 8) < 10, "{preset}");
        // Even players share the rest: none of them above a third.
        for q in (1..=8).map(PlayerId).filter(|&q| q != strong) {
            assert!(p.count(q, 1) < 2000 / 3, "{preset}: {q:?}");
        }
    }
}

/// Equal players: each place about equally often (the ranking itself,
/// ties included, is fair to nobody in particular).
#[test]
fn equal_players_share_the_places() {
    let l = league(RoundRobinRules::fifa_world_cup(), 4);
    let p = project_round_robin(&l, &WinModel::even(250_000), 4000, seed(5)).unwrap();
    assert_places_add_up(&p, 4);
    for q in (1..=4).map(PlayerId) {
        for place in 1..=4 {
            let c = p.count(q, place);
            assert!((850..1150).contains(&c), "{q:?} place {place}: {c}");
        }
    }
}

/// Two players level on every criterion with no lot recorded: the lot is
/// drawn uniformly each season; once the league records a lot, its order
/// is the league's own criterion.
#[test]
fn a_tie_left_to_the_lot_is_drawn_uniformly_unless_one_is_recorded() {
    let mut l = league(RoundRobinRules::chess(), 2);
    let g = l.games[0].id;
    record(&mut l, g, Score::Drawn);
    assert!(l.is_finished());
    let p = project_round_robin(&l, &WinModel::even(0), 2000, seed(6)).unwrap();
    assert_places_add_up(&p, 2);
    let first = p.count(PlayerId(1), 1);
    assert!((900..1100).contains(&first), "{first}");
    exec(
        &mut l,
        Command::EnterLots {
            order: vec![PlayerId(2), PlayerId(1)],
            how: "drawn from a hat".into(),
            at: at(),
        },
    );
    let p = project_round_robin(&l, &WinModel::even(0), 2000, seed(6)).unwrap();
    assert_eq!(p.count(PlayerId(2), 1), 2000);
}

/// The cascade decides within the simulation: a FIFA group where only the
/// last game is left, between the two leaders; a win puts its winner first
/// whatever the score, a draw leaves them level on points with the
/// difference of all their games deciding.
#[test]
fn the_last_game_decides_through_the_cascade() {
    // 3 teams, organizer's schedule: 1-3, 2-3, then 1-2.
    let mut l = RoundRobin::default();
    exec(
        &mut l,
        Command::Create {
            name: "group".into(),
            rules: RoundRobinRules::fifa_world_cup(),
            players: vec!["A".into(), "B".into(), "C".into()],
        },
    );
    let (a, b, c) = (PlayerId(1), PlayerId(2), PlayerId(3));
    exec(
        &mut l,
        Command::Start {
            schedule: Some(vec![vec![(a, c)], vec![(b, c)], vec![(a, b)]]),
            seed: None,
            at: at(),
        },
    );
    // A beat C 5-0, B beat C 1-0: A leads B on difference by 4.
    record(&mut l, GameId(0), Score::Goals { home: 5, away: 0 });
    record(&mut l, GameId(1), Score::Goals { home: 1, away: 0 });
    // Equals who always draw (ARB-R70: the draw rate between equals is
    // the model's): A and B end on 4 points, and A is first on the
    // difference of all games, whatever the simulated draw's score.
    let m = WinModel::even(PPM);
    assert_eq!(m.odds(a, b).draw, PPM);
    let p = project_round_robin(&l, &m, 1000, seed(7)).unwrap();
    assert_eq!(p.count(a, 1), 1000);
    assert_eq!(p.count(c, 3), 1000);
    // B much stronger: he wins the last game and is first on points.
    let m = WinModel::elo([(a, 1000.0), (b, 3000.0)], 0);
    let p = project_round_robin(&l, &m, 1000, seed(7)).unwrap();
    assert_eq!(p.count(b, 1), 1000);
}

#[test]
fn stopping_counts_only_the_seasons_done() {
    let l = league(RoundRobinRules::uefa_euro(), 6);
    let m = WinModel::even(250_000);
    let mut calls = Vec::new();
    let p = project_round_robin_with_progress(&l, &m, 10_000, seed(8), &mut |done| {
        calls.push(done);
        if calls.len() == 3 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .unwrap();
    assert_eq!(calls, vec![64, 128, 192]);
    assert_eq!(p.seasons, 192);
    assert_places_add_up(&p, 6);
    assert_eq!(p, project_round_robin(&l, &m, 192, seed(8)).unwrap());
}

/// A player who withdrew keeping his results has his remaining games as
/// forfeits, which are not simulated; one whose games are annulled is not
/// in the table, nor in the projection.
#[test]
fn withdrawals_are_taken_as_the_table_takes_them() {
    let mut l = league(RoundRobinRules::chess(), 5);
    exec(
        &mut l,
        Command::Withdraw {
            player: PlayerId(5),
            at: at(),
        },
    );
    assert!(l.entrants[4].withdrawal.unwrap().annulled);
    let p = project_round_robin(&l, &WinModel::even(300_000), 400, seed(9)).unwrap();
    assert!(!p.per_player.contains_key(&PlayerId(5)));
    assert_places_add_up(&p, 4);

    let mut l = league(RoundRobinRules::fifa_world_cup(), 4);
    exec(
        &mut l,
        Command::Withdraw {
            player: PlayerId(1),
            at: at(),
        },
    );
    // Keep results: his three games are forfeits he lost, so he is last.
    let p = project_round_robin(&l, &WinModel::even(250_000), 400, seed(9)).unwrap();
    assert_places_add_up(&p, 4);
    assert_eq!(p.count(PlayerId(1), 4), 400);
}

#[test]
fn refused_before_the_start() {
    let mut l = RoundRobin::default();
    assert!(project_round_robin(&l, &WinModel::even(0), 10, seed(1)).is_err());
    exec(
        &mut l,
        Command::Create {
            name: "x".into(),
            rules: RoundRobinRules::chess(),
            players: vec!["A".into(), "B".into()],
        },
    );
    let e = project_round_robin(&l, &WinModel::even(0), 10, seed(1)).unwrap_err();
    assert!(e.to_string().contains("not started"), "{e}");
}

/// The draw rate from history: draws among the games played over the
/// board; the league's ratings feed the model (ARB-R70).
#[test]
fn history_gives_the_draw_rate_and_the_ratings() {
    let mut l = league(RoundRobinRules::fifa_world_cup(), 4);
    assert_eq!(draw_rate(&l), 0);
    let ids: Vec<GameId> = l.games.iter().map(|g| g.id).collect();
    record(&mut l, ids[0], Score::Goals { home: 1, away: 1 });
    record(&mut l, ids[1], Score::Goals { home: 2, away: 0 });
    record(&mut l, ids[2], Score::Goals { home: 0, away: 1 });
    record(
        &mut l,
        ids[3],
        Score::Forfeit {
            winner: Some(Seat::Home),
        },
    );
    assert_eq!(
        draw_rate(&l),
        PPM / 3,
        "1 draw of 3 played; the forfeit left out"
    );
    let rated = roundrobin::ratings::ratings(&l, &System::Elo(Elo::default()));
    let m = WinModel::from_ratings(&rated, draw_rate(&l));
    let p = project_round_robin(&l, &m, 300, seed(10)).unwrap();
    assert_places_add_up(&p, 4);
}
