//! The final round's demotion line is the planner's (footnote 8: the
//! defending champion "must ... not have fallen below demotion line"; B.2:
//! "there shall be one additional demotion (on the same division) for every
//! group of 10 players"; SJ-R6, SJ-R7, ARB-R40).
//!
//! The scenario: division A split 9/10 (a group of 10, as after an E.1
//! override), division B six groups of 9. B promotes 6, so A demotes 6 + 1
//! for its group of 10 = 7: places 13 to 19 of A's merged ranking. The
//! defending champion ends 13th of 19. The plan demotes him; the final round
//! must not draw him (before, it counted 6 demotions and drew him).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_engine::model::Time;
use arbiter_engine::sunjang::group::Outcome;
use arbiter_engine::sunjang::planner::PlanOutcome;
use arbiter_engine::sunjang::season::{Command, Event, League, SeasonPlan};
use arbiter_engine::sunjang::{PlayerId, PlayerInfo, Rank, Restrictions, SunjangRules};

fn at() -> Time {
    "2026-03-01T12:00:00Z".parse().unwrap()
}

fn run(l: &mut League, c: Command) {
    let events = l.decide(c).expect("accepted");
    for e in &events {
        l.try_apply(e).expect("applies");
    }
}

fn apply(l: &mut League, e: Event) {
    l.try_apply(&e).expect("applies");
}

/// Players 1..=73; ratings 20 apart (no virtual ties), all 5k.
fn league() -> League {
    let mut l = League::default();
    run(
        &mut l,
        Command::Create {
            name: "Scenario".into(),
            rules: SunjangRules::default(),
            restrictions: Restrictions::default(),
        },
    );
    for i in 1..=73 {
        run(
            &mut l,
            Command::Register {
                info: PlayerInfo {
                    name: format!("Player {i}"),
                    rank: Rank::Kyu(5),
                    provisional: false,
                    rating: 3000 - 20 * i,
                    corr_rank: None,
                    corr_rating: None,
                },
            },
        );
    }
    l
}

/// A: A1 = P1..P9, A2 = P10..P19; B: six groups of 9 (P20..P73).
fn layout() -> Vec<Vec<Vec<PlayerId>>> {
    let ids = |a: u32, b: u32| (a..=b).map(PlayerId).collect::<Vec<_>>();
    let a = vec![ids(1, 9), ids(10, 19)];
    let b = (0..6).map(|g| ids(20 + 9 * g, 28 + 9 * g)).collect();
    vec![a, b]
}

/// Plan a season with [`layout`], every game won by the lower number, and
/// close it.
fn play_season(l: &mut League) {
    apply(
        l,
        Event::SeasonPlanned(Box::new(SeasonPlan {
            season: l.seasons.len() as u32 + 1,
            divisions: layout(),
            placements: Vec::new(),
            notes: Vec::new(),
            cancelled: None,
            layout: None,
            at: at(),
        })),
    );
    let games: Vec<(PlayerId, PlayerId)> = l
        .current()
        .unwrap()
        .divisions
        .iter()
        .flatten()
        .flat_map(|g| g.games.iter().map(|x| (x.pairing.black, x.pairing.white)))
        .collect();
    for (black, white) in games {
        let outcome = if black.0 < white.0 {
            Outcome::BlackWins
        } else {
            Outcome::WhiteWins
        };
        run(
            l,
            Command::RecordResult {
                black,
                white,
                outcome,
                at: at(),
            },
        );
    }
    run(l, Command::CloseSeason { at: at() });
}

#[test]
fn the_champion_below_the_planners_demotion_line_is_not_drawn() {
    let mut l = league();
    // Season 1: P16 wins the final (the events as recorded).
    play_season(&mut l);
    let (c, a, b) = (PlayerId(16), PlayerId(10), PlayerId(1));
    apply(
        &mut l,
        Event::FinalQualified {
            season: 1,
            players: vec![a, b, c],
            advantaged: vec![a, b],
            void: false,
            at: at(),
        },
    );
    for other in [a, b] {
        apply(
            &mut l,
            Event::FinalGamePlayed {
                season: 1,
                black: c,
                white: other,
                outcome: Outcome::BlackWins,
                at: at(),
            },
        );
    }
    assert_eq!(l.defending_champion(), Some(c));

    // Season 2, the same: A's merged ranking by gamepoints is P10 (9),
    // P1 and P11 (8), ..., P6 and P16 (3, SODOS 3 each, P6 higher rated):
    // P16 is 13th of 19.
    play_season(&mut l);
    let s = l.current().unwrap();
    let close = s.close.as_ref().unwrap();
    assert_eq!(close.divisions[0].ranking.len(), 19);
    assert_eq!(close.divisions[0].ranking[12], c, "the champion is 13th");

    // The planner: 7 demotions from A (6 for B's promotions, 1 for the
    // group of 10), and the champion is one of them.
    let plan = match l.preview_plan().expect("a plan") {
        PlanOutcome::Planned(p) => p,
        PlanOutcome::Cancelled { explanation, .. } => panic!("cancelled: {explanation}"),
    };
    let note = plan
        .notes
        .iter()
        .find(|n| n.text.starts_with("A (previous season"))
        .expect("the note on A");
    assert!(
        note.text
            .contains("7 demotion(s) to B: as many as the 6 direct promotion(s) of B (B.2), plus 1 for 1 group(s) of 10 players (B.2)"),
        "{}",
        note.text
    );
    let placed = plan
        .placements
        .iter()
        .find(|p| p.player == c)
        .expect("P16 placed");
    assert_eq!(placed.group.division, 1, "the plan demotes P16 to B");

    // The final round: the same line. P16 is not drawn.
    let q = l.qualify(s, &[]).expect("qualification");
    assert!(!q.players.contains(&c), "{:?}", q.players);
    assert!(
        q.explanations
            .iter()
            .any(|e| e.text == "Player 16, the defending champion, is not available: he fell below the demotion line"),
        "{:#?}",
        q.explanations
    );
    let events = l.decide(Command::QualifyFinal { at: at() }).unwrap();
    match &events[..] {
        [Event::FinalQualified { players, .. }] => assert!(!players.contains(&c), "{players:?}"),
        other => panic!("{other:?}"),
    }
}
