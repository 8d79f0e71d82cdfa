//! The rungs still possible at the close of a running round (issue 15,
//! item 5; CHANGE OF LADDER STANDINGS, TWS-R1, TWS-R11): the exact ranges
//! are those of every completion closed through the real commands, and the
//! bound used for large rounds always contains them.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_engine::draw;
use arbiter_engine::model::{EndTag, GameId, GameStatus, Outcome, PlayerId, Side, Time};
use arbiter_engine::tws::{Command, Ladder, LadderRules, PairingPlan, ResultInput};
use proptest::prelude::*;

fn day(d: u32) -> Time {
    chrono::DateTime::from_timestamp(1_767_225_600 + i64::from(d) * 86_400, 0).unwrap()
}

fn run(l: &mut Ladder, c: Command) {
    for e in l.decide(c).unwrap() {
        l.apply(&e);
    }
}

fn announce(l: &mut Ladder, n: u8, at: Time) {
    run(
        l,
        Command::AnnounceRound {
            at,
            deadline: None,
            plan: PairingPlan::Default { eliminator: None },
            seed: [n; 32],
            next_seed_hash: draw::commitment(&[n + 1; 32]),
        },
    );
}

fn result(l: &mut Ladder, g: GameId, side: Side, at: Time) {
    run(
        l,
        Command::RecordResult {
            game: g,
            result: ResultInput {
                outcome: Outcome::Win(side),
                ended_by: EndTag::Concession,
                vp: None,
                turn: None,
                note: None,
            },
            agreed: false,
            at,
        },
    );
}

/// A ladder of `n` members in round 2, whose `skips` skip it, with the
/// games of round 2 flagged in `decided` given the result in `usssr`.
fn ladder(n: usize, round1: &[bool], skips: &[bool], decided: &[bool], ussr: &[bool]) -> Ladder {
    let mut l = Ladder::default();
    run(
        &mut l,
        Command::Create {
            name: "t".into(),
            rules: LadderRules::default(),
            seed_hash: draw::commitment(&[1; 32]),
        },
    );
    run(&mut l, Command::AddModerator { name: "Mod".into() });
    for i in 0..n {
        run(
            &mut l,
            Command::Join {
                name: format!("Player {}", char::from(b'A' + i as u8)),
                surname: None,
            },
        );
    }
    announce(&mut l, 1, day(0));
    let games: Vec<GameId> = l.open_round().unwrap().games.clone();
    for (i, g) in games.iter().enumerate() {
        let side = if round1.get(i).copied().unwrap_or(true) {
            Side::Ussr
        } else {
            Side::Us
        };
        result(&mut l, *g, side, day(1));
    }
    run(&mut l, Command::CloseRound { at: day(2) });
    let mut active = n;
    for (i, s) in skips.iter().enumerate().take(n) {
        // Two players at least are left to play.
        if *s && active > 2 {
            active -= 1;
            run(
                &mut l,
                Command::RequestSkip {
                    player: PlayerId(i as u32 + 1),
                    round: None,
                },
            );
        }
    }
    announce(&mut l, 2, day(3));
    let games: Vec<GameId> = l.open_round().unwrap().games.clone();
    for (i, g) in games.iter().enumerate() {
        if decided.get(i).copied().unwrap_or(false) {
            let side = if ussr.get(i).copied().unwrap_or(true) {
                Side::Ussr
            } else {
                Side::Us
            };
            result(&mut l, *g, side, day(4));
        }
    }
    l
}

/// Every completion through the real commands: (best, worst, retired) per
/// player id.
fn brute(l: &Ladder) -> Vec<(u32, u32, bool)> {
    let open: Vec<GameId> = l
        .open_round()
        .unwrap()
        .games
        .iter()
        .copied()
        .filter(|g| l.game(*g).unwrap().status == GameStatus::Scheduled)
        .collect();
    let mut out = vec![(u32::MAX, 0, false); l.players.len()];
    for mask in 0..(1u64 << open.len()) {
        let mut c = l.clone();
        for (i, g) in open.iter().enumerate() {
            let side = if mask >> i & 1 == 1 {
                Side::Ussr
            } else {
                Side::Us
            };
            result(&mut c, *g, side, day(5));
        }
        run(&mut c, Command::CloseRound { at: day(6) });
        for (i, p) in c.order.iter().enumerate() {
            let r = i as u32 + 1;
            let o = &mut out[p.index()];
            o.0 = o.0.min(r);
            o.1 = o.1.max(r);
        }
        for p in &c.inactive {
            out[p.index()].2 = true;
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn exact_ranges_are_every_completion_and_the_bound_contains_them(
        n in 3usize..11,
        round1 in proptest::collection::vec(any::<bool>(), 6),
        skips in proptest::collection::vec(prop_oneof![4 => Just(false), 1 => Just(true)], 11),
        decided in proptest::collection::vec(any::<bool>(), 6),
        ussr in proptest::collection::vec(any::<bool>(), 6),
    ) {
        let l = ladder(n, &round1, &skips, &decided, &ussr);
        let want = brute(&l);
        let exact = l.possible_rungs(day(6), 1 << 16).unwrap();
        prop_assert!(exact.exact);
        let bound = l.possible_rungs(day(6), 0).unwrap();
        prop_assert!(!bound.exact || exact.undecided.is_empty());
        for (e, b) in exact.ranges.iter().zip(&bound.ranges) {
            let w = want[e.player.index()];
            let (best, worst) = ((w.0 != u32::MAX).then_some(w.0), (w.1 != 0).then_some(w.1));
            prop_assert_eq!((e.best, e.worst, e.may_retire), (best, worst, w.2), "exact {:?}", e);
            prop_assert_eq!(e.player, b.player);
            // Sound: the bound contains every rung a completion gives.
            if let (Some(eb), Some(bb)) = (e.best, b.best) {
                prop_assert!(bb <= eb, "bound {:?} exact {:?}", b, e);
            }
            if let (Some(ew), Some(bw)) = (e.worst, b.worst) {
                prop_assert!(bw >= ew, "bound {:?} exact {:?}", b, e);
            }
            prop_assert!(!e.may_retire || b.may_retire, "bound {:?} exact {:?}", b, e);
        }
    }
}

/// 13 games still being played: 8,192 completions, enumerated exactly;
/// a player who won his game is sure of a better rung than one who lost.
#[test]
fn a_round_of_thirteen_open_games_is_enumerated() {
    let l = ladder(28, &[true; 14], &[false; 28], &[true], &[true]);
    let p = l.possible_rungs(day(6), 1 << 14).unwrap();
    assert_eq!(p.undecided.len(), 13);
    assert_eq!(p.completions, 8192);
    assert!(p.exact);
    // G1 (rungs 1 and 2) is decided: its winner is first of the winners,
    // its loser first of the losers (TWS-R1), whatever the other games.
    let games = &l.open_round().unwrap().games;
    let g1 = l.game(games[0]).unwrap();
    let winner = p
        .ranges
        .iter()
        .find(|r| r.player == g1.ussr.player)
        .unwrap();
    let loser = p.ranges.iter().find(|r| r.player == g1.us.player).unwrap();
    assert_eq!(
        (winner.best, winner.worst),
        (Some(1), Some(1)),
        "{winner:?}"
    );
    assert_eq!((loser.best, loser.worst), (Some(15), Some(15)), "{loser:?}");
    // The seventh game (rungs 13 and 14) is open: six winners are above
    // a winner of it; fourteen winners and six losers above a loser.
    let g7 = l.game(games[6]).unwrap();
    for p7 in [g7.ussr.player, g7.us.player] {
        let r = p.ranges.iter().find(|r| r.player == p7).unwrap();
        assert_eq!(
            (r.now, r.best, r.worst),
            (r.now, Some(7), Some(21)),
            "{r:?}"
        );
    }
    // Above the limit, the bound says so and gives the same ranges here.
    let b = l.possible_rungs(day(6), 1 << 12).unwrap();
    assert!(!b.exact);
    assert_eq!(b.completions, 0);
    assert_eq!(b.ranges, p.ranges);
}
