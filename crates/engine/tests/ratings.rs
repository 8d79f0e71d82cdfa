//! Ratings (ARB-R46): AREA, Elo and Glicko-2 against worked figures, the
//! fold's properties, and the Twilight Struggle ladder's rated games and
//! AREA report (RATING OF GAMES, TWS-R11).
//!
//! Sources:
//!
//! - AREA: "How AREA ratings are calculated", Glenn E. L. Petroski, A.R.E.A.
//!   administrator, <http://wolff.to/area/calcexp.html>. A win moves
//!   `@round((loser - winner) x 0.05, 0) + 100` points, at least 1 and at
//!   most 200; a tie moves `@round(difference x 0.05, 0)`, at most 200, from
//!   the higher rated player to the lower. Everyone starts at 5000
//!   (<http://wolff.to/area/areacode.html>). The stored copy of the page has
//!   no worked example with figures: the AREA figures below are worked by
//!   hand from the formula, each step in the comment.
//! - AREA report: Ron Jacobsen, the Twilight Struggle AREA representative,
//!   "AREA Rated Games", <https://www.boardgamegeek.com/thread/1192223/area-rated-games>:
//!   "Winner and Loser", "AREA ID for each player, if you know it".
//! - Glicko-2: Mark E. Glickman, "Example of the Glicko-2 system"
//!   (<http://www.glicko.net/glicko/glicko2.pdf>), the worked example: a
//!   player rated 1500, RD 200, volatility 0.06 beats a 1400 (RD 30) and
//!   loses to a 1550 (RD 100) and a 1700 (RD 300), τ = 0.5: 1464.06, RD
//!   151.52, volatility 0.05999.
//! - Elo: Wikipedia's "Elo rating system" example as quoted in
//!   <https://stats.stackexchange.com/q/287256>: a player rated 1613 against
//!   one rated 1609 has an expected score of 1 / (1 + 10^((1609 - 1613)/400))
//!   ~ 0.51; with K = 32 a loss costs him 32 x 0.51.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_engine::draw::{self, Seed};
use arbiter_engine::model::{Adjudication, EndTag, GameStatus, Outcome, PlayerId, Side, Time};
use arbiter_engine::ratings::area::{self, ReportPlayer};
use arbiter_engine::ratings::{
    Area, Elo, Glicko2, Glicko2Rating, PlayerKey, RatedGame, RatedOutcome, Rating, Ratings, System,
    rate,
};
use arbiter_engine::tws::{Command, Ladder, LadderRules, PairingPlan, ResultInput, ratings};
use chrono::{Duration, TimeZone, Utc};
use proptest::prelude::*;

fn day(d: i64) -> Time {
    Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap() + Duration::days(d)
}

fn game(a: u32, b: u32, outcome: RatedOutcome, period: u32, at: i64) -> RatedGame {
    RatedGame {
        a: PlayerKey(a),
        b: PlayerKey(b),
        outcome,
        period,
        at: day(at),
    }
}

fn area_of(r: &Ratings, p: u32) -> i32 {
    match r.get(PlayerKey(p)).unwrap().rating {
        Rating::Area(v) => v,
        other => panic!("not an AREA rating: {other:?}"),
    }
}

// ---------------------------------------------------------------- AREA

#[test]
fn area_win_between_equals_moves_100() {
    // round((5000 - 5000) x 0.05) + 100 = 0 + 100 = 100.
    let s = Area::default();
    assert_eq!(s.win_points(5000, 5000), 100);
    assert_eq!(s.update(5000, 5000, RatedOutcome::AWins), (5100, 4900));
    assert_eq!(s.update(5000, 5000, RatedOutcome::BWins), (4900, 5100));
}

#[test]
fn area_favourite_and_upset() {
    let s = Area::default();
    // The higher rated player wins: round((5000 - 5400) x 0.05) + 100
    // = round(-20) + 100 = 80.
    assert_eq!(s.win_points(5400, 5000), 80);
    assert_eq!(s.update(5400, 5000, RatedOutcome::AWins), (5480, 4920));
    // The lower rated player wins: round((5400 - 5000) x 0.05) + 100
    // = 20 + 100 = 120.
    assert_eq!(s.win_points(5000, 5400), 120);
    assert_eq!(s.update(5400, 5000, RatedOutcome::BWins), (5280, 5120));
    // In words: 5612 - 5388 = 224; x 0.05 = 11.2; rounded 11; the higher
    // rated won: 100 - 11 = 89; the lower rated won: 100 + 11 = 111.
    assert_eq!(s.win_points(5612, 5388), 89);
    assert_eq!(s.win_points(5388, 5612), 111);
}

#[test]
fn area_rounds_halves_away_from_zero() {
    let s = Area::default();
    // 5010 - 5000 = 10; x 0.05 = 0.5; @round gives 1: 100 - 1 = 99 for the
    // favourite, 100 + 1 = 101 for the upset.
    assert_eq!(s.win_points(5010, 5000), 99);
    assert_eq!(s.win_points(5000, 5010), 101);
    // 5009 - 5000 = 9; x 0.05 = 0.45; rounded 0: 100 either way.
    assert_eq!(s.win_points(5009, 5000), 100);
    assert_eq!(s.win_points(5000, 5009), 100);
}

#[test]
fn area_minimum_and_maximum() {
    let s = Area::default();
    // round((5000 - 7000) x 0.05) + 100 = -100 + 100 = 0: the minimum, 1.
    assert_eq!(s.win_points(7000, 5000), 1);
    assert_eq!(s.update(7000, 5000, RatedOutcome::AWins), (7001, 4999));
    // 6989 - 5000 = 1989; x 0.05 = 99.45, rounded 99: 100 - 99 = 1.
    assert_eq!(s.win_points(6989, 5000), 1);
    // round((6000 - 3000) x 0.05) + 100 = 150 + 100 = 250: the maximum, 200.
    assert_eq!(s.win_points(3000, 6000), 200);
    assert_eq!(s.update(3000, 6000, RatedOutcome::AWins), (3200, 5800));
}

#[test]
fn area_ties() {
    let s = Area::default();
    // Equals: round(0 x 0.05) = 0, no baseline, no minimum: no change.
    assert_eq!(s.update(5000, 5000, RatedOutcome::Draw), (5000, 5000));
    // 5400 and 5000: round(400 x 0.05) = 20, from the higher to the lower.
    assert_eq!(s.update(5400, 5000, RatedOutcome::Draw), (5380, 5020));
    assert_eq!(s.update(5000, 5400, RatedOutcome::Draw), (5020, 5380));
    // 5010 and 5000: round(0.5) = 1.
    assert_eq!(s.update(5010, 5000, RatedOutcome::Draw), (5009, 5001));
    // 9000 and 5000: round(4000 x 0.05) = 200, the maximum still applies;
    // 9100 and 5000: 205, capped at 200.
    assert_eq!(s.update(9000, 5000, RatedOutcome::Draw), (8800, 5200));
    assert_eq!(s.update(9100, 5000, RatedOutcome::Draw), (8900, 5200));
}

#[test]
fn area_fold_rates_game_by_game_from_5000() {
    // Period 1: P1 beats P2 (5000 v 5000: 100) -> P1 5100, P2 4900.
    // Then P3 beats P1 (5000 v 5100: round(100 x 0.05) + 100 = 105)
    //   -> P3 5105, P1 4995.
    // Period 2: P2 and P3 tie (4900 v 5105: round(205 x 0.05) = round(10.25)
    //   = 10 from P3 to P2) -> P2 4910, P3 5095.
    let games = [
        game(2, 3, RatedOutcome::Draw, 2, 10),
        game(3, 1, RatedOutcome::AWins, 1, 2),
        game(1, 2, RatedOutcome::AWins, 1, 1),
    ];
    let r = rate(&games, &System::Area(Area::default()));
    assert_eq!(area_of(&r, 1), 4995);
    assert_eq!(area_of(&r, 2), 4910);
    assert_eq!(area_of(&r, 3), 5095);
    let h: Vec<(u32, Option<u32>, Rating)> = r
        .get(PlayerKey(1))
        .unwrap()
        .history
        .iter()
        .map(|e| (e.period, e.game, e.rating))
        .collect();
    assert_eq!(
        h,
        vec![
            (1, Some(2), Rating::Area(5100)),
            (1, Some(1), Rating::Area(4995))
        ]
    );
    assert_eq!(r.get(PlayerKey(3)).unwrap().games, 2);
    let list: Vec<u32> = r.by_rating().iter().map(|p| p.player.0).collect();
    assert_eq!(list, vec![3, 1, 2]);
}

#[test]
fn area_report_lists_winner_loser_and_ids() {
    let games = [
        game(2, 1, RatedOutcome::BWins, 4, 3),
        game(3, 4, RatedOutcome::Draw, 4, 5),
        game(1, 3, RatedOutcome::AWins, 4, 1),
    ];
    let names = ["", "Ada Lovelace", "Ben Carter", "Carl Doe", "Dan Roe"];
    let text = area::report("Twilight Struggle", "TWS Ladder, round 4", &games, |k| {
        ReportPlayer {
            name: names[k.0 as usize].to_string(),
            area_id: (k.0 % 2 == 1).then(|| format!("{}", 1000 + k.0)),
        }
    });
    assert_eq!(
        text,
        "AREA report: Twilight Struggle\n\
         TWS Ladder, round 4\n\
         3 games for rating.\n\
         1. 2026-03-02  Winner: Ada Lovelace (AREA ID 1001)  Loser: Carl Doe (AREA ID 1003)\n\
         2. 2026-03-04  Winner: Ada Lovelace (AREA ID 1001)  Loser: Ben Carter (AREA ID not known)\n\
         3. 2026-03-06  Tie: Carl Doe (AREA ID 1003) and Dan Roe (AREA ID not known)\n"
    );
}

// ---------------------------------------------------------------- Elo

#[test]
fn elo_worked_example() {
    // A 1613 against a 1609: E = 1 / (1 + 10^(-4/400)) = 0.5058 (the example
    // gives 0.51); a loss costs 32 x 0.5058 = 16.18: 1596.82.
    let (a, b) = Elo::default().update(1613.0, 1609.0, RatedOutcome::BWins);
    assert!((a - 1596.82).abs() < 0.005, "{a}");
    assert!((b - 1625.18).abs() < 0.005, "{b}");
    // Within the example's own rounding of E to 0.51.
    assert!((a - (1613.0 - 32.0 * 0.51)).abs() < 0.2, "{a}");
}

#[test]
fn elo_defaults_and_fold() {
    let s = Elo::default();
    assert_eq!((s.initial, s.k), (1000.0, 32.0));
    // Equals: E = 0.5, K = 32: 16 points.
    let r = rate(
        &[game(1, 2, RatedOutcome::AWins, 1, 0)],
        &System::Elo(Elo::default()),
    );
    assert_eq!(r.get(PlayerKey(1)).unwrap().rating, Rating::Elo(1016.0));
    assert_eq!(r.get(PlayerKey(2)).unwrap().rating, Rating::Elo(984.0));
}

// ---------------------------------------------------------------- Glicko-2

fn g2(rating: f64, deviation: f64) -> Glicko2Rating {
    Glicko2Rating {
        rating,
        deviation,
        volatility: 0.06,
    }
}

#[test]
fn glicko2_glickman_example() {
    let s = Glicko2::default();
    assert_eq!(
        (s.rating, s.deviation, s.volatility, s.tau),
        (1500.0, 350.0, 0.06, 0.5)
    );
    let new = s.period(
        g2(1500.0, 200.0),
        &[
            (g2(1400.0, 30.0), RatedOutcome::AWins),
            (g2(1550.0, 100.0), RatedOutcome::BWins),
            (g2(1700.0, 300.0), RatedOutcome::BWins),
        ],
    );
    // The paper rounds its intermediate figures (μ, φ, v, Δ to four places):
    // computed without rounding the rating is 1464.0507, within 0.01 of its
    // 1464.06.
    assert!((new.rating - 1464.06).abs() < 0.01, "{new:?}");
    assert!((new.deviation - 151.52).abs() < 0.01, "{new:?}");
    assert!((new.volatility - 0.05999).abs() < 0.000_01, "{new:?}");
}

#[test]
fn glicko2_fold_is_the_period_formula() {
    // Period 1: P1 beats P2, P1 draws P3, P2 beats P3: all start at
    // 1500/350/0.06 and are rated against each other's starting ratings.
    let s = Glicko2::default();
    let games = [
        game(1, 2, RatedOutcome::AWins, 1, 0),
        game(3, 1, RatedOutcome::Draw, 1, 1),
        game(2, 3, RatedOutcome::AWins, 1, 2),
    ];
    let r = rate(&games, &System::Glicko2(s));
    let new = s.initial();
    let p1 = s.period(
        new,
        &[(new, RatedOutcome::AWins), (new, RatedOutcome::Draw)],
    );
    assert_eq!(r.get(PlayerKey(1)).unwrap().rating, Rating::Glicko2(p1));
    assert_eq!(r.get(PlayerKey(1)).unwrap().games, 2);
    assert_eq!(r.get(PlayerKey(1)).unwrap().history.len(), 1);
}

#[test]
fn glicko2_widens_the_deviation_of_a_period_missed() {
    // P3 plays in period 1 only; P1 and P2 play in periods 1 and 5 (periods
    // 2 to 4 have no games and are no periods): P3 missed one period.
    let s = Glicko2::default();
    let games = [
        game(1, 3, RatedOutcome::AWins, 1, 0),
        game(1, 2, RatedOutcome::AWins, 5, 1),
    ];
    let r = rate(&games, &System::Glicko2(s));
    let p3 = r.get(PlayerKey(3)).unwrap();
    let after1 = p3.history[0].rating;
    let Rating::Glicko2(after1) = after1 else {
        panic!()
    };
    assert_eq!(p3.rating, Rating::Glicko2(s.widen(after1, 1)));
    let Rating::Glicko2(now) = p3.rating else {
        panic!()
    };
    assert!(now.deviation > after1.deviation);
    assert_eq!(now.rating, after1.rating);
    // P2 first plays in period 5: a newcomer, nothing to widen.
    let p2 = r.get(PlayerKey(2)).unwrap();
    assert_eq!(p2.history.len(), 1);
    assert_eq!(p2.history[0].period, 5);
}

// ---------------------------------------------------------------- properties

fn arb_games() -> impl Strategy<Value = Vec<RatedGame>> {
    prop::collection::vec((1u32..9, 1u32..9, 0u8..3, 1u32..5, 0i64..10_000), 0..60).prop_map(|v| {
        v.into_iter()
            .enumerate()
            .map(|(i, (a, b, o, period, _))| RatedGame {
                a: PlayerKey(a),
                b: PlayerKey(b),
                outcome: [RatedOutcome::AWins, RatedOutcome::BWins, RatedOutcome::Draw][o as usize],
                period,
                // Distinct times: the order within a period is the times'.
                at: day(0) + Duration::seconds(i as i64),
            })
            .collect()
    })
}

/// The same ratings and histories; a history's game is compared as the
/// game itself, since its index is a position in the input.
fn same(x: &Ratings, xs: &[RatedGame], y: &Ratings, ys: &[RatedGame]) {
    assert_eq!(x.players().len(), y.players().len());
    for p in x.players() {
        let q = y.get(p.player).expect("the same players");
        assert_eq!(p.rating, q.rating, "player {:?}", p.player);
        assert_eq!(p.games, q.games, "player {:?}", p.player);
        let hx: Vec<_> = p
            .history
            .iter()
            .map(|e| (e.period, e.rating, e.game.map(|i| xs[i as usize])))
            .collect();
        let hy: Vec<_> = q
            .history
            .iter()
            .map(|e| (e.period, e.rating, e.game.map(|i| ys[i as usize])))
            .collect();
        assert_eq!(hx, hy, "player {:?}", p.player);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Glicko-2 does not depend on the order of the games in a period (nor
    /// on the order of the input): shuffle the input and reassign the times
    /// at random, the figures stay the same to the last bit.
    #[test]
    fn glicko2_independent_of_order_within_a_period(
        (games, shuffled) in arb_games().prop_flat_map(|g| {
            let n = g.len();
            (Just(g.clone()), Just(g).prop_shuffle(), prop::collection::vec(0i64..5, n))
                .prop_map(|(g, mut s, t)| {
                    for (x, dt) in s.iter_mut().zip(t) {
                        x.at = day(dt);
                    }
                    (g, s)
                })
        })
    ) {
        let s = System::Glicko2(Glicko2::default());
        same(&rate(&games, &s), &games, &rate(&shuffled, &s), &shuffled);
    }

    /// Elo and AREA rate in the order of (period, time): the input order does
    /// not matter.
    #[test]
    fn sequential_systems_follow_period_and_time(
        (games, shuffled) in arb_games().prop_flat_map(|g| (Just(g.clone()), Just(g).prop_shuffle()))
    ) {
        for s in [System::Elo(Elo::default()), System::Area(Area::default())] {
            same(&rate(&games, &s), &games, &rate(&shuffled, &s), &shuffled);
        }
    }

    /// AREA moves points from one player to the other: the sum of the
    /// ratings is 5000 a player; a win moves 1 to 200, a tie 0 to 200 from
    /// the higher to the lower.
    #[test]
    fn area_conserves_points(games in arb_games(), a in 0i32..10_000, b in 0i32..10_000) {
        let r = rate(&games, &System::Area(Area::default()));
        let total: i64 = r.players().iter().map(|p| i64::from(area_of(&r, p.player.0))).sum();
        prop_assert_eq!(total, 5000 * r.players().len() as i64);
        let s = Area::default();
        let w = s.win_points(a, b);
        prop_assert!((1..=200).contains(&w));
        let (x, y) = s.update(a, b, RatedOutcome::Draw);
        prop_assert_eq!(x + y, a + b);
        prop_assert!((a - x).abs() <= 200);
        // The tie never reverses the order of the two.
        prop_assert!((a >= b) == (x >= y) || x == y);
        // An upset is worth at least as much as the favourite's win.
        prop_assert!(s.win_points(a.min(b), a.max(b)) >= s.win_points(a.max(b), a.min(b)));
    }

    /// A draw between equals changes nothing in Elo; a game moves as many
    /// points to one as it takes from the other.
    #[test]
    fn elo_draw_between_equals(r in 0.0f64..3000.0, o in 0.0f64..3000.0) {
        let s = Elo::default();
        prop_assert_eq!(s.update(r, r, RatedOutcome::Draw), (r, r));
        let (x, y) = s.update(r, o, RatedOutcome::AWins);
        prop_assert!((x + y - r - o).abs() < 1e-9);
        prop_assert!(x >= r && y <= o);
    }

    /// Every rated player's history has one entry a game (Elo, AREA) and
    /// ends at his current rating.
    #[test]
    fn history_ends_at_the_rating(games in arb_games()) {
        for s in [System::Elo(Elo::default()), System::Area(Area::default())] {
            let r = rate(&games, &s);
            for p in r.players() {
                prop_assert_eq!(p.history.len() as u32, p.games);
                prop_assert_eq!(p.history.last().map(|e| e.rating), Some(p.rating));
            }
        }
    }
}

// ---------------------------------------------------------------- the ladder

fn seed_of(n: u32) -> Seed {
    let mut s = [0u8; 32];
    s[..4].copy_from_slice(&n.to_le_bytes());
    s
}

fn run(l: &mut Ladder, c: Command) {
    let shown = format!("{c:?}");
    let events = l
        .decide(c)
        .unwrap_or_else(|e| panic!("refused: {e}\n{shown}"));
    for e in &events {
        l.apply(e);
    }
}

fn result(outcome: Outcome, ended_by: EndTag) -> ResultInput {
    ResultInput {
        outcome,
        ended_by,
        vp: None,
        turn: Some(10),
        note: None,
    }
}

#[test]
fn ladder_games_for_ratings() {
    let mut l = Ladder::default();
    run(
        &mut l,
        Command::Create {
            name: "TWS Ladder".into(),
            rules: LadderRules::default(),
            seed_hash: draw::commitment(&seed_of(1)),
        },
    );
    run(
        &mut l,
        Command::AddModerator {
            name: "Moe Moderator".into(),
        },
    );
    for n in [
        "Ada Able",
        "Ben Baker",
        "Carl Cole",
        "Dan Drake",
        "Eve Eady",
        "Fay Finn",
    ] {
        run(
            &mut l,
            Command::Join {
                name: n.into(),
                surname: None,
            },
        );
    }
    run(
        &mut l,
        Command::AnnounceRound {
            at: day(0),
            deadline: Some(day(30)),
            plan: PairingPlan::Default { eliminator: None },
            seed: seed_of(1),
            next_seed_hash: draw::commitment(&seed_of(2)),
        },
    );
    let ids: Vec<_> = l.games.iter().map(|g| g.id).collect();
    assert_eq!(ids.len(), 3);
    // G1: a tie (the US advances; a tie for ratings, TWS-R11).
    run(
        &mut l,
        Command::RecordResult {
            game: ids[0],
            result: result(Outcome::Tie, EndTag::FinalScoring),
            agreed: false,
            at: day(5),
        },
    );
    // G2: a forfeit: not rated.
    let absent = l.games[1].us.player;
    run(
        &mut l,
        Command::Forfeit {
            game: ids[1],
            absent,
            note: None,
            at: day(31),
        },
    );
    // G3: adjudicated for the USSR: rated as its outcome.
    run(
        &mut l,
        Command::Adjudicate {
            game: ids[2],
            outcome: Outcome::Win(Side::Ussr),
            vp: None,
            turn: Some(7),
            record: Adjudication {
                final_state: "turn 7".into(),
                decision: "USSR ahead".into(),
                ..Adjudication::default()
            },
            at: day(32),
        },
    );
    // A quick-round game during round 1, won by the US, and one cancelled.
    let (p1, p2) = (PlayerId(1), PlayerId(2));
    run(
        &mut l,
        Command::ScheduleQuickGame {
            ussr: p1,
            us: p2,
            at: day(6),
        },
    );
    let quick = l.games.last().unwrap().id;
    run(
        &mut l,
        Command::RecordResult {
            game: quick,
            result: result(Outcome::Win(Side::Us), EndTag::Vp),
            agreed: false,
            at: day(9),
        },
    );
    run(
        &mut l,
        Command::ScheduleQuickGame {
            ussr: p2,
            us: p1,
            at: day(10),
        },
    );
    let cancelled = l.games.last().unwrap().id;
    run(
        &mut l,
        Command::CancelGame {
            game: cancelled,
            reason: "no time".into(),
            at: day(11),
        },
    );
    assert_eq!(l.game(ids[1]).unwrap().status, GameStatus::Forfeited);
    assert_eq!(l.game(cancelled).unwrap().status, GameStatus::Cancelled);

    let rated = ratings::rated_games(&l);
    let g1 = l.game(ids[0]).unwrap();
    let g3 = l.game(ids[2]).unwrap();
    assert_eq!(
        rated,
        vec![
            RatedGame {
                a: g1.ussr.player.into(),
                b: g1.us.player.into(),
                outcome: RatedOutcome::Draw,
                period: 1,
                at: day(5),
            },
            RatedGame {
                a: g3.ussr.player.into(),
                b: g3.us.player.into(),
                outcome: RatedOutcome::AWins,
                period: 1,
                at: day(32),
            },
            RatedGame {
                a: p1.into(),
                b: p2.into(),
                outcome: RatedOutcome::BWins,
                period: 1,
                at: day(9),
            },
        ]
    );
    assert_eq!(ratings::round_games(&l, 1), rated);
    assert!(ratings::round_games(&l, 2).is_empty());

    // The tie is a tie under AREA: between two newcomers, no change (their
    // first game; the US player did not advance in the ratings).
    let r = rate(&rated, &System::Area(Area::default()));
    for p in [g1.ussr.player, g1.us.player] {
        let h = &r.get(p.into()).unwrap().history[0];
        assert_eq!((h.game, h.rating), (Some(0), Rating::Area(5000)));
    }

    // The report of round 1, in the order of the results.
    let text = ratings::area_report(&l, 1, |k| (k.0 == 1).then(|| "4711".to_string()));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "AREA report: Twilight Struggle");
    assert_eq!(lines[1], "TWS Ladder, round 1");
    assert_eq!(lines[2], "3 games for rating.");
    assert!(lines[3].starts_with("1. 2026-03-06  Tie: "), "{text}");
    assert_eq!(
        lines[4],
        "2. 2026-03-10  Winner: Ben Baker (AREA ID not known)  Loser: Ada Able (AREA ID 4711)"
    );
    assert!(lines[5].starts_with("3. 2026-04-02  Winner: "), "{text}");
    assert_eq!(lines.len(), 6);
}
