//! A Sunjang league carried over from its last season's records plans the
//! next season as the league that played it would (issue 18 §1; rulings
//! ARB-R77, ARB-R78):
//!
//! - a league of 10 to 60 players plays a season (the planner's own plan,
//!   random results of every kind, some players withdrawn after it) and
//!   plans the next;
//! - a new league takes the closed season's records: each player's group,
//!   gamepoints, SODOS and place, only the results among players level on
//!   gamepoints and SODOS in a group (what the third main criterion of D.1
//!   reads), the withdrawals;
//! - its next season is the same season: the same number, divisions,
//!   groups, seeds and placements (or the same refusal), and every
//!   placement that reads the previous season cites the carried records.
//!
//! And the records are checked: a wrong figure, a missing deciding result,
//! a place section D does not give, are refused naming the record's field.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_engine::model::{PlayerId, Time};
use arbiter_engine::sunjang::carry::{CarriedGame, CarriedPlayer, CarriedResult, CarriedSeason};
use arbiter_engine::sunjang::group::Outcome;
use arbiter_engine::sunjang::season::{Command, Event, League};
use arbiter_engine::sunjang::{PlayerInfo, Rank, Restrictions, SunjangRules};
use proptest::prelude::*;

const OUTCOMES: [Outcome; 6] = [
    Outcome::BlackWins,
    Outcome::WhiteWins,
    Outcome::Jigo,
    Outcome::BlackForfeits,
    Outcome::WhiteForfeits,
    Outcome::BothForfeit,
];

fn at() -> Time {
    "2026-03-01T12:00:00Z".parse().unwrap()
}

fn run(l: &mut League, c: Command) -> Result<Vec<Event>, arbiter_engine::RuleError> {
    let events = l.decide(c)?;
    for e in &events {
        l.try_apply(e).expect("applies");
    }
    Ok(events)
}

fn created() -> League {
    let mut l = League::default();
    run(
        &mut l,
        Command::Create {
            name: "Carried".into(),
            rules: SunjangRules::default(),
            restrictions: Restrictions::default(),
        },
    )
    .unwrap();
    l
}

fn info(i: usize, rank: u8, rating: i32) -> PlayerInfo {
    PlayerInfo {
        name: format!("Player {}", i + 1),
        rank: if rank < 3 {
            Rank::Dan(u8::max(rank, 1))
        } else {
            Rank::Kyu(rank % 20 + 1)
        },
        provisional: false,
        rating: 1500 + rating,
        corr_rank: None,
        corr_rating: None,
    }
}

/// A league that played one season with `picks` as its results, closed
/// it, and lost the players `leave` marks.
fn played(players: &[(u8, i32)], picks: &[usize], leave: &[bool]) -> Option<League> {
    let mut l = created();
    for (i, &(rank, rating)) in players.iter().enumerate() {
        run(
            &mut l,
            Command::Register {
                info: info(i, rank, rating),
            },
        )
        .unwrap();
    }
    run(&mut l, Command::PlanSeason { at: at() }).ok()?;
    let s = l.current()?;
    s.plan.cancelled.is_none().then_some(())?;
    let games: Vec<_> = s
        .divisions
        .iter()
        .flatten()
        .flat_map(|g| g.games.iter().map(|x| (x.pairing.black, x.pairing.white)))
        .collect();
    for (k, (black, white)) in games.into_iter().enumerate() {
        let outcome = OUTCOMES[picks.get(k).copied().unwrap_or(0) % OUTCOMES.len()];
        run(
            &mut l,
            Command::RecordResult {
                black,
                white,
                outcome,
                at: at(),
            },
        )
        .unwrap();
    }
    run(&mut l, Command::CloseSeason { at: at() }).unwrap();
    for (i, &w) in leave.iter().enumerate().take(players.len()) {
        if w {
            run(
                &mut l,
                Command::Withdraw {
                    player: PlayerId(i as u32 + 1),
                    reason: "moved away".into(),
                },
            )
            .unwrap();
        }
    }
    Some(l)
}

/// The closed season's records, as a moderator would copy them from its
/// tables: the deciding results only.
fn records(l: &League) -> CarriedSeason {
    let s = l.current().unwrap();
    let perf = l.performances(s);
    let tables = l.group_tables(s);
    let players = l
        .players
        .iter()
        .enumerate()
        .map(|(i, info)| {
            let p = PlayerId(i as u32 + 1);
            let f = perf[i].unwrap();
            let table = tables.iter().find(|t| t.row(p).is_some()).unwrap();
            let row = table.row(p).unwrap();
            CarriedPlayer {
                info: info.clone(),
                group: s.group_of(p).unwrap(),
                gamepoints: f.gamepoints,
                sodos: f.sodos,
                place: Some(row.place as u32),
                withdrawn: l.withdrawn[i],
            }
        })
        .collect::<Vec<_>>();
    let level = |a: PlayerId, b: PlayerId| {
        let (x, y) = (&players[a.index()], &players[b.index()]);
        x.gamepoints == y.gamepoints && x.sodos == y.sodos
    };
    let games = s
        .divisions
        .iter()
        .flatten()
        .flat_map(|g| g.games.iter())
        .filter(|g| level(g.pairing.black, g.pairing.white))
        .map(|g| {
            let (b, w) = (g.pairing.black, g.pairing.white);
            match g.outcome.unwrap() {
                Outcome::BlackWins | Outcome::WhiteForfeits => CarriedGame {
                    players: [b, w],
                    result: CarriedResult::FirstWon,
                },
                Outcome::WhiteWins | Outcome::BlackForfeits => CarriedGame {
                    players: [w, b],
                    result: CarriedResult::FirstWon,
                },
                Outcome::Jigo => CarriedGame {
                    players: [b, w],
                    result: CarriedResult::Jigo,
                },
                Outcome::BothForfeit => CarriedGame {
                    players: [b, w],
                    result: CarriedResult::BothForfeit,
                },
            }
        })
        .collect();
    CarriedSeason {
        season: 7,
        players,
        games,
        champion: None,
    }
}

fn carry(records: CarriedSeason) -> Result<League, arbiter_engine::RuleError> {
    let mut l = created();
    run(
        &mut l,
        Command::CarryOver {
            records,
            source: "the forum's final tables".into(),
            by: "Jordan Park".into(),
            at: at(),
        },
    )?;
    Ok(l)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn a_carried_season_plans_the_next_as_the_played_one(
        players in prop::collection::vec((0u8..25, 0i32..900), 10..60),
        picks in prop::collection::vec(0usize..6, 0..2000),
        leave in prop::collection::vec(prop::bool::weighted(0.1), 60),
    ) {
        let Some(original) = played(&players, &picks, &leave) else {
            return Ok(());
        };
        let copy = carry(records(&original)).expect("the records of a played season are accepted");
        let want = original.preview_plan();
        let got = copy.preview_plan();
        match (&want, &got) {
            (Ok(arbiter_engine::sunjang::planner::PlanOutcome::Planned(a)),
             Ok(arbiter_engine::sunjang::planner::PlanOutcome::Planned(b))) => {
                prop_assert_eq!(&a.divisions, &b.divisions);
                prop_assert_eq!(a.placements.len(), b.placements.len());
                for (x, y) in a.placements.iter().zip(&b.placements) {
                    prop_assert_eq!((x.player, x.group, x.seed, x.reason), (y.player, y.group, y.seed, y.reason));
                    if y.reason.reads_previous_season() {
                        prop_assert!(y.explanation.text.contains("season 7, carried over on 2026-03-01 (source: the forum's final tables; entered by Jordan Park)"), "{}", y.explanation.text);
                        prop_assert!(y.explanation.rulings.contains(&"ARB-R77"));
                    }
                }
            }
            (Err(a), Err(b)) => prop_assert_eq!(&a.message, &b.message),
            (a, b) => prop_assert_eq!(a.is_ok(), b.is_ok(), "{:?} / {:?}", a, b),
        }
        // The stored plan gets the number after the carried season.
        let mut copy = copy;
        if run(&mut copy, Command::PlanSeason { at: at() }).is_ok() {
            prop_assert_eq!(copy.current().unwrap().number(), 8);
            prop_assert!(copy.season(8).is_some());
        }
    }
}

fn sample() -> CarriedSeason {
    let players = (0..8)
        .map(|i| (u8::try_from(i % 5 + 3).unwrap(), 800 - 60 * i))
        .collect::<Vec<_>>();
    let picks: Vec<usize> = (0..100).map(|k| (k * 7 + 3) % 3).collect();
    records(&played(&players, &picks, &[]).unwrap())
}

fn refusal(r: CarriedSeason) -> arbiter_engine::RuleError {
    carry(r).expect_err("refused")
}

#[test]
fn the_sample_is_accepted_and_its_tables_are_the_played_ones() {
    let players = (0..8)
        .map(|i| (u8::try_from(i % 5 + 3).unwrap(), 800 - 60 * i))
        .collect::<Vec<_>>();
    let picks: Vec<usize> = (0..100).map(|k| (k * 7 + 3) % 3).collect();
    let original = played(&players, &picks, &[]).unwrap();
    let copy = carry(records(&original)).unwrap();
    let s = original.current().unwrap();
    let a: Vec<_> = original
        .group_tables(s)
        .iter()
        .map(|t| {
            t.rows
                .iter()
                .map(|r| (r.player, r.place, r.gamepoints, r.sodos))
                .collect::<Vec<_>>()
        })
        .collect();
    let b: Vec<_> = copy
        .carried_tables()
        .iter()
        .map(|t| {
            t.rows
                .iter()
                .map(|r| (r.player, r.place, r.gamepoints, r.sodos))
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(a, b);
    assert_eq!(copy.next_season_number(), 8);
}

#[test]
fn wrong_records_are_refused_naming_the_field() {
    // Gamepoints beyond what the games can give.
    let mut r = sample();
    r.players[0].gamepoints = 99;
    let e = refusal(r);
    assert_eq!(e.field.as_deref(), Some("players[0].gamepoints"), "{e}");
    assert!(e.message.contains("ARB-R78"), "{e}");

    // A SODOS above what a player's points allow.
    let mut r = sample();
    r.players[2].sodos = 10_000;
    assert_eq!(
        refusal(r).field.as_deref(),
        Some("players[2].sodos"),
        "SODOS bound"
    );

    // A place section D does not give.
    let mut r = sample();
    let first = r.players.iter().position(|p| p.place == Some(1)).unwrap();
    r.players[first].place = Some(2);
    let e = refusal(r);
    assert_eq!(e.field, Some(format!("players[{first}].place")), "{e}");
    assert!(e.message.contains("section D places him 1st"), "{e}");

    // Two players level on gamepoints and SODOS without their game.
    let mut r = sample();
    r.games.clear();
    let (a, b) = (0..r.players.len())
        .flat_map(|a| (a + 1..r.players.len()).map(move |b| (a, b)))
        .find(|&(a, b)| {
            let (x, y) = (&r.players[a], &r.players[b]);
            x.group == y.group && x.gamepoints == y.gamepoints && x.sodos == y.sodos
        })
        .unwrap_or((0, 1));
    r.players[b].gamepoints = r.players[a].gamepoints;
    r.players[b].sodos = r.players[a].sodos;
    r.players[b].group = r.players[a].group;
    let e = refusal(r);
    assert!(
        e.message.contains("third main criterion") || e.field.is_some(),
        "{e}"
    );

    // A group with a gap, a player alone, a player named twice.
    let mut r = sample();
    r.players[0].group = arbiter_engine::sunjang::GroupId::new(0, 5);
    assert_eq!(refusal(r).field.as_deref(), Some("players[0].group"));
    let mut r = sample();
    r.players[1].info.name = r.players[0].info.name.to_uppercase();
    assert_eq!(refusal(r).field.as_deref(), Some("players[1].name"));

    // The season number and the champion.
    let mut r = sample();
    r.season = 0;
    assert_eq!(refusal(r).field.as_deref(), Some("season"));
    let mut r = sample();
    r.champion = Some(PlayerId(99));
    assert_eq!(refusal(r).field.as_deref(), Some("champion"));
}

#[test]
fn a_league_is_carried_over_once_before_anything_else() {
    let mut l = carry(sample()).unwrap();
    let again = run(
        &mut l,
        Command::CarryOver {
            records: sample(),
            source: "again".into(),
            by: "Jordan Park".into(),
            at: at(),
        },
    )
    .unwrap_err();
    assert!(again.message.contains("already carried over"), "{again}");
    let played = played(&[(3, 1), (4, 2), (5, 3), (6, 4), (7, 5)], &[], &[]).unwrap();
    let mut p = played;
    let e = run(
        &mut p,
        Command::CarryOver {
            records: sample(),
            source: "late".into(),
            by: "Jordan Park".into(),
            at: at(),
        },
    )
    .unwrap_err();
    assert!(e.message.contains("before anyone is registered"), "{e}");
}

#[test]
fn the_carried_champion_defends_the_title() {
    let mut r = sample();
    r.champion = Some(PlayerId(3));
    let l = carry(r).unwrap();
    assert_eq!(l.defending_champion(), Some(PlayerId(3)));
}
