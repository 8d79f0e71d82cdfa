//! An organizer's own layout of a Sunjang season (ARB-R55): moves between
//! the groups of the automatic plan, or the whole layout, checked against
//! section A before anything is stored. Every rule a layout breaks is named
//! with its clause and figures (A.i.1, A.i.2, A.i.3, A.i.4, footnotes 1 and
//! 3); a layout that breaks none is planned, and the season's record says
//! which placements were moved, from where, and why.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_engine::model::PlayerId;
use arbiter_engine::sunjang::layout::{Moved, Proposal, REASON_MAX};
use arbiter_engine::sunjang::season::{Command, Event, League};
use arbiter_engine::sunjang::{GroupId, PlayerInfo, Rank, Restrictions, SunjangRules};
use proptest::prelude::*;

fn at() -> arbiter_engine::model::Time {
    chrono::DateTime::<chrono::Utc>::UNIX_EPOCH
}

fn run(l: &mut League, c: Command) {
    for e in l.decide(c).expect("accepted") {
        l.apply(&e);
    }
}

/// A league of `n` players, Player 1 the strongest (so the plan seeds them
/// in registration order).
fn league(n: usize) -> League {
    let mut l = League::default();
    run(
        &mut l,
        Command::Create {
            name: "Test league".into(),
            rules: SunjangRules::default(),
            restrictions: Restrictions::default(),
        },
    );
    for i in 0..n {
        run(
            &mut l,
            Command::Register {
                info: PlayerInfo {
                    name: format!("Player {}", i + 1),
                    rank: if i < 9 {
                        Rank::Dan(9 - i as u8)
                    } else {
                        Rank::Kyu((i - 8).min(30) as u8)
                    },
                    provisional: false,
                    rating: 2500 - i as i32,
                    corr_rank: None,
                    corr_rating: None,
                },
            },
        );
    }
    l
}

fn p(i: u32) -> PlayerId {
    PlayerId(i)
}

fn g(division: u32, number: u32) -> GroupId {
    GroupId::new(division, number)
}

fn texts(l: &League, proposal: &Proposal) -> Vec<String> {
    let (_, violations) = l.layout_plan(proposal, "a reason", at()).expect("a layout");
    violations.into_iter().map(|v| v.text).collect()
}

/// The automatic plan of 30 players in a first season: A 14 in 2 groups of
/// 7, B 16 in 2 groups of 8 (ARB-R31, SJ-R2).
fn plan_groups(l: &League) -> Vec<Vec<Vec<PlayerId>>> {
    match l.preview_plan().unwrap() {
        arbiter_engine::sunjang::planner::PlanOutcome::Planned(p) => {
            p.divisions.into_iter().map(|d| d.groups).collect()
        }
        other => panic!("{other:?}"),
    }
}

fn group_of(groups: &[Vec<Vec<PlayerId>>], who: PlayerId) -> GroupId {
    for (d, gs) in groups.iter().enumerate() {
        for (k, members) in gs.iter().enumerate() {
            if members.contains(&who) {
                return g(d as u32, k as u32 + 1);
            }
        }
    }
    panic!("{who} placed nowhere")
}

#[test]
fn the_automatic_plan_of_thirty_is_two_divisions_of_two_groups() {
    let l = league(30);
    let sizes: Vec<Vec<usize>> = plan_groups(&l)
        .iter()
        .map(|d| d.iter().map(Vec::len).collect())
        .collect();
    assert_eq!(sizes, vec![vec![7, 7], vec![8, 8]]);
}

/// Footnote 3: "Any two groups in the same division shall differ in size by
/// no more than one player."
#[test]
fn one_move_between_groups_of_eight_breaks_footnote_3() {
    let l = league(30);
    let groups = plan_groups(&l);
    let who = groups[1][0][0];
    let v = texts(&l, &Proposal::Moves(vec![(who, g(1, 2))]));
    assert_eq!(
        v,
        vec![
            "footnote 3: the groups of division B would differ by 2 players (B1 7, B2 9); any two groups in the same division differ in size by no more than one player"
        ]
    );
    // Refused by the command, naming the clause; nothing to apply.
    let e = l
        .decide(Command::PlanLayout {
            proposal: Proposal::Moves(vec![(who, g(1, 2))]),
            reason: "he asked".into(),
            at: at(),
        })
        .expect_err("refused");
    assert_eq!(e.clause, "Sunjang A.i.3; footnote 3");
    assert!(e.message.contains("B1 7, B2 9"), "{e}");
    assert_eq!(e.field.as_deref(), Some("layout"));
}

/// A swap breaks nothing: planned, the moves and the reason recorded, each
/// moved placement saying where the plan had put him.
#[test]
fn a_swap_is_planned_with_its_moves_and_reason_recorded() {
    let mut l = league(30);
    let groups = plan_groups(&l);
    let (a, b) = (groups[1][0][0], groups[1][1][0]);
    let events = l
        .decide(Command::PlanLayout {
            proposal: Proposal::Moves(vec![(a, g(1, 2)), (b, g(1, 1))]),
            reason: "  they share a club and asked not to meet  ".into(),
            at: at(),
        })
        .expect("accepted");
    let [Event::SeasonPlanned(plan)] = events.as_slice() else {
        panic!("{events:?}")
    };
    let layout = plan.layout.as_ref().expect("recorded");
    assert_eq!(layout.reason, "they share a club and asked not to meet");
    assert_eq!(
        layout.moves,
        vec![
            Moved {
                player: a.min(b),
                planned: Some(group_of(&groups, a.min(b))),
                placed: if a < b { g(1, 2) } else { g(1, 1) },
            },
            Moved {
                player: a.max(b),
                planned: Some(group_of(&groups, a.max(b))),
                placed: if a < b { g(1, 1) } else { g(1, 2) },
            },
        ]
    );
    let moved = plan.placements.iter().find(|x| x.player == a).unwrap();
    assert_eq!(moved.group, g(1, 2));
    assert!(moved.explanation.rulings.contains(&"ARB-R55".to_string()));
    assert!(
        moved
            .explanation
            .text
            .contains("moved by the organizer from B1 to B2")
            && moved.explanation.text.contains("they share a club"),
        "{}",
        moved.explanation.text
    );
    // Every entrant placed once; seeds 1..n in each division (A.ii.2).
    assert_eq!(plan.placements.len(), 30);
    for d in 0..2 {
        let mut seeds: Vec<u32> = plan
            .placements
            .iter()
            .filter(|x| x.group.division == d)
            .map(|x| x.seed)
            .collect();
        seeds.sort_unstable();
        assert_eq!(seeds, (1..=seeds.len() as u32).collect::<Vec<_>>());
    }
    // Division A untouched keeps the automatic plan's groups exactly.
    assert_eq!(plan.divisions[0], groups[0]);
    for e in &events {
        l.apply(e);
    }
    let s = l.current().unwrap();
    assert_eq!(s.group_of(a), Some(g(1, 2)));
    assert_eq!(s.group_of(b), Some(g(1, 1)));
    assert!(s.group(g(1, 2)).unwrap().players.contains(&a));
}

/// A.i.3 ("no group shall contain fewer than 5", and within the deviation
/// of 2 from the ideal 7: A.i.4 precludes groups of 10) and footnote 3.
#[test]
fn three_players_up_into_a2_break_a_i_3_and_footnote_3() {
    let l = league(30);
    let groups = plan_groups(&l);
    let moves: Vec<(PlayerId, GroupId)> = groups[1][0][..3].iter().map(|&x| (x, g(0, 2))).collect();
    let v = texts(&l, &Proposal::Moves(moves));
    assert_eq!(
        v,
        vec![
            "A.i.3: group A2 would have 10 players; at most 9 (the ideal 7 within a deviation of 2; A.i.4 precludes groups of 10)".to_string(),
            "footnote 3: the groups of division A would differ by 3 players (A1 7, A2 10); any two groups in the same division differ in size by no more than one player".to_string(),
            "footnote 3: the groups of division B would differ by 3 players (B1 5, B2 8); any two groups in the same division differ in size by no more than one player".to_string(),
        ]
    );
}

/// A.i.1: "There shall be two groups on the main division".
#[test]
fn a_third_group_in_a_breaks_a_i_1() {
    let l = league(30);
    let groups = plan_groups(&l);
    let v = texts(&l, &Proposal::Moves(vec![(groups[1][0][0], g(0, 3))]));
    assert_eq!(
        v[0],
        "A.i.1: division A would have 3 groups; there shall be 2 groups on the main division (30 players play, footnote 1 is for fewer than 10)"
    );
    assert!(
        v.iter()
            .any(|x| x == "A.i.3: group A3 would have 1 player; at least 5"),
        "{v:?}"
    );
}

/// A.i.2, A.i.3, A.i.4 on a whole layout.
#[test]
fn a_whole_layout_names_every_rule_it_breaks() {
    let l = league(45);
    let ids: Vec<PlayerId> = (1..=45).map(p).collect();
    // A: 20 in 2 groups of 10; B: 25 in 5 groups of 5.
    let layout = vec![
        vec![ids[0..10].to_vec(), ids[10..20].to_vec()],
        ids[20..45].chunks(5).map(<[PlayerId]>::to_vec).collect(),
    ];
    assert_eq!(
        texts(&l, &Proposal::Groups(layout)),
        vec![
            "A.i.4: division A would have 20 players; at most 18 (6×3^1)",
            "A.i.3: group A1 would have 10 players; at most 9 (the ideal 7 within a deviation of 2; A.i.4 precludes groups of 10)",
            "A.i.3: group A2 would have 10 players; at most 9 (the ideal 7 within a deviation of 2; A.i.4 precludes groups of 10)",
        ]
    );
    // A: 10 in 2 groups of 5; B: 35 in 7 groups of 5 (more than thrice A's
    // players and groups).
    let layout = vec![
        vec![ids[0..5].to_vec(), ids[5..10].to_vec()],
        ids[10..45].chunks(5).map(<[PlayerId]>::to_vec).collect(),
    ];
    assert_eq!(
        texts(&l, &Proposal::Groups(layout)),
        vec![
            "A.i.2: division B would have 35 players, more than thrice the 10 of division A (at most 30)",
            "A.i.3: division B would have 7 groups, more than thrice the 2 groups of division A (at most 6)",
        ]
    );
    // A: 10 in 2 groups, B: 31, C: 4 (A.i.2's minimum of 5).
    let layout = vec![
        vec![ids[0..5].to_vec(), ids[5..10].to_vec()],
        ids[10..41].chunks(8).map(<[PlayerId]>::to_vec).collect(),
        vec![ids[41..45].to_vec()],
    ];
    let v = texts(&l, &Proposal::Groups(layout));
    assert!(
        v.contains(&"A.i.2: division C would have 4 players; at least 5".to_string()),
        "{v:?}"
    );
    // C's only group is named C ("the division letter plus a number (if
    // necessary)", Sunjang Definitions: Group).
    assert!(
        v.contains(&"A.i.3: group C would have 4 players; at least 5".to_string()),
        "{v:?}"
    );
    assert!(v.contains(&"A.i.2: division B would have 31 players, more than thrice the 10 of division A (at most 30)".to_string()), "{v:?}");
}

/// Footnote 1: fewer than 10 players, one group in the main division.
#[test]
fn fewer_than_ten_players_keep_one_group_in_a() {
    let l = league(9);
    let ids: Vec<PlayerId> = (1..=9).map(p).collect();
    let v = texts(
        &l,
        &Proposal::Groups(vec![vec![ids[0..5].to_vec(), ids[5..9].to_vec()]]),
    );
    assert_eq!(
        v[0],
        "footnote 1: division A would have 2 groups; with fewer than 10 players in the tournament (9) the main division has one group"
    );
}

/// A layout that is not one is refused, naming the field; nothing else.
#[test]
fn layouts_that_are_not_layouts_are_refused_naming_the_field() {
    let mut l = league(30);
    let groups = plan_groups(&l);
    let who = groups[1][0][0];
    let err = |l: &League, proposal: Proposal, reason: &str| {
        l.layout_plan(&proposal, reason, at()).expect_err("refused")
    };
    let e = err(&l, Proposal::Moves(vec![(p(31), g(1, 1))]), "r");
    assert!(e.message.contains("there is no player P31"), "{e}");
    assert_eq!(e.field.as_deref(), Some("moves[0]"));
    let e = err(
        &l,
        Proposal::Moves(vec![(who, g(1, 2)), (who, g(1, 1))]),
        "r",
    );
    assert!(e.message.contains("moved twice"), "{e}");
    assert_eq!(e.field.as_deref(), Some("moves[1]"));
    let e = err(&l, Proposal::Moves(vec![(who, g(1, 4))]), "r");
    assert!(
        e.message.contains(
            "there is no group B4: division B has 2 group(s): name one of them, or B3 for a new one"
        ),
        "{e}"
    );
    let e = err(&l, Proposal::Moves(vec![(who, g(3, 1))]), "r");
    // A new division has one group, named by its letter (Sunjang
    // Definitions: Group).
    assert!(e.message.contains("a new division is C (ARB-R55)"), "{e}");
    let e = err(
        &l,
        Proposal::Moves(vec![(who, group_of(&groups, who))]),
        "r",
    );
    assert!(e.message.contains("is already in B1"), "{e}");
    // Reasons: required, one line, at most REASON_MAX characters.
    for bad in ["", "   ", "two\nlines"] {
        let e = err(&l, Proposal::Moves(vec![(who, g(1, 2))]), bad);
        assert_eq!(e.field.as_deref(), Some("reason"), "{bad:?}");
    }
    let long = "é".repeat(REASON_MAX + 1);
    let e = err(&l, Proposal::Moves(vec![(who, g(1, 2))]), &long);
    assert_eq!(e.field.as_deref(), Some("reason"));
    assert!(
        l.layout_plan(
            &Proposal::Moves(vec![(who, g(1, 2))]),
            &"é".repeat(REASON_MAX),
            at()
        )
        .is_ok()
    );
    // Whole layouts: every entrant once, nobody else.
    let ids: Vec<PlayerId> = (1..=30).map(p).collect();
    let e = err(
        &l,
        Proposal::Groups(vec![vec![ids[0..7].to_vec(), ids[7..14].to_vec()]]),
        "r",
    );
    assert!(
        e.message
            .contains("16 player(s) who enter are not placed: Player 15, Player 16"),
        "{e}"
    );
    let mut twice = vec![
        vec![ids[0..7].to_vec(), ids[6..14].to_vec()],
        vec![ids[14..30].to_vec()],
    ];
    let e = err(&l, Proposal::Groups(twice.clone()), "r");
    assert!(e.message.contains("Player 7 is placed twice"), "{e}");
    assert_eq!(e.field.as_deref(), Some("layout.A2"));
    twice[0][1].remove(0);
    twice.insert(1, Vec::new());
    let e = err(&l, Proposal::Groups(twice), "r");
    assert!(e.message.contains("division B has no groups"), "{e}");
    // A withdrawn player cannot be placed.
    run(
        &mut l,
        Command::Withdraw {
            player: p(30),
            reason: "moved away".into(),
        },
    );
    let e = err(&l, Proposal::Moves(vec![(p(30), g(1, 1))]), "r");
    assert!(
        e.message.contains("Player 30 does not play next season"),
        "{e}"
    );
    // Moving nobody is the automatic plan: planned without a layout.
    let e = l
        .decide(Command::PlanLayout {
            proposal: Proposal::Groups(plan_groups(&l)),
            reason: "same".into(),
            at: at(),
        })
        .expect_err("refused");
    assert!(e.message.contains("moves nobody"), "{e}");
}

/// No layout while a season is running (the same refusal as a plan).
#[test]
fn no_layout_while_a_season_runs() {
    let mut l = league(30);
    run(&mut l, Command::PlanSeason { at: at() });
    let e = l
        .layout_plan(&Proposal::Moves(vec![(p(1), g(0, 2))]), "r", at())
        .expect_err("refused");
    assert!(e.message.contains("unfinished game"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever moves an organizer makes, a layout the check accepts (no
    /// violation) places every entrant exactly once, in groups of 5 to 9
    /// that differ by at most one within a division, two in A; and what the
    /// command stores is that layout.
    #[test]
    fn an_accepted_layout_keeps_section_a(
        n in 24usize..60,
        picks in proptest::collection::vec((0usize..60, 0u32..3, 1u32..4), 0..6),
    ) {
        let l = league(n);
        let groups = plan_groups(&l);
        let divisions = groups.len() as u32;
        let moves: Vec<(PlayerId, GroupId)> = picks
            .iter()
            .map(|&(who, d, k)| (p((who % n) as u32 + 1), g(d % (divisions + 1), k)))
            .collect();
        let Ok((plan, violations)) = l.layout_plan(&Proposal::Moves(moves.clone()), "r", at()) else {
            return Ok(());
        };
        let decided = l.decide(Command::PlanLayout {
            proposal: Proposal::Moves(moves),
            reason: "r".into(),
            at: at(),
        });
        if !violations.is_empty() {
            prop_assert!(decided.is_err());
            return Ok(());
        }
        let mut seen: Vec<PlayerId> = plan.divisions.iter().flatten().flatten().copied().collect();
        seen.sort_unstable();
        prop_assert_eq!(seen, (1..=n as u32).map(p).collect::<Vec<_>>());
        prop_assert_eq!(plan.divisions[0].len(), 2);
        for d in &plan.divisions {
            let sizes: Vec<usize> = d.iter().map(Vec::len).collect();
            prop_assert!(sizes.iter().all(|&s| (5..=9).contains(&s)), "{:?}", sizes);
            prop_assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1);
        }
        match decided {
            Ok(events) => match events.as_slice() {
                [Event::SeasonPlanned(stored)] => prop_assert_eq!(&**stored, &plan),
                other => prop_assert!(false, "{:?}", other),
            },
            // Moves that come back to the plan's groups move nobody.
            Err(e) => prop_assert!(e.message.contains("moves nobody"), "{}", e),
        }
    }
}

/// "They are denoted by the division letter plus a number (if necessary)"
/// (Sunjang Definitions: Group; ARB-R66): a layout names the only group of
/// a division by its letter, and a division the layout gives a second group
/// names both with their numbers.
#[test]
fn a_layout_names_the_only_group_of_a_division_by_its_letter() {
    let mut l = league(20);
    let groups = plan_groups(&l);
    let sizes: Vec<Vec<usize>> = groups
        .iter()
        .map(|d| d.iter().map(Vec::len).collect())
        .collect();
    assert_eq!(sizes, vec![vec![7, 7], vec![6]]);
    // A move into B, written B or B1: the record says B.
    let who = groups[0][0][6];
    for to in [GroupId::only(1), g(1, 1)] {
        let (plan, violations) = l
            .layout_plan(&Proposal::Moves(vec![(who, to)]), "travels", at())
            .expect("a layout");
        assert!(
            violations.iter().all(|v| !v.text.contains(" B1")),
            "{violations:?}"
        );
        let moved = plan.placements.iter().find(|x| x.player == who).unwrap();
        assert_eq!(moved.group.to_string(), "B");
        assert!(
            moved
                .explanation
                .text
                .contains("moved by the organizer from A1 to B: travels"),
            "{}",
            moved.explanation.text
        );
        let m = &plan.layout.as_ref().unwrap().moves;
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].placed.to_string(), "B");
        assert_eq!(m[0].planned.map(|g| g.to_string()).as_deref(), Some("A1"));
    }
    // The whole layout with B in two groups: B1 and B2.
    let mut split = groups.clone();
    let mut b2: Vec<PlayerId> = split[1][0].drain(3..).collect();
    let from_a1: Vec<PlayerId> = split[0][0].drain(5..).collect();
    b2.extend(split[0][1].drain(5..));
    split[1][0].extend(from_a1);
    split[1].push(b2);
    let (plan, _) = l
        .layout_plan(&Proposal::Groups(split), "two groups in B", at())
        .expect("a layout");
    let names: std::collections::BTreeSet<String> = plan
        .placements
        .iter()
        .map(|x| x.group.to_string())
        .collect();
    assert_eq!(
        names.into_iter().collect::<Vec<_>>(),
        vec!["A1", "A2", "B1", "B2"]
    );
    // Stored and folded, the season's groups are named alike.
    run(
        &mut l,
        Command::PlanLayout {
            proposal: Proposal::Moves(vec![(who, GroupId::only(1))]),
            reason: "travels".into(),
            at: at(),
        },
    );
    let s = l.current().unwrap();
    let ids: Vec<String> = s
        .divisions
        .iter()
        .flatten()
        .map(|g| g.id.to_string())
        .collect();
    assert_eq!(ids, vec!["A1", "A2", "B"]);
    assert_eq!(s.group_of(who).map(|g| g.to_string()).as_deref(), Some("B"));
}
