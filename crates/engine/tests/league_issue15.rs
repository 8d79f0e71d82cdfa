//! XMadn league, issue 15 §4: results by the pawns brought home per allied
//! colour (ARB-R65), faces of real dice entered by a moderator (ARB-R64),
//! the document's game numbers with the league-wide id as alias (ARB-R63).

use arbiter_engine::draw;
use arbiter_engine::model::{GameId, PlayerId};
use arbiter_engine::xmadn::league::{self, Command, Entry, Event, League, Phase};
use arbiter_engine::xmadn::{Home, LeagueRules, RuleSet};

const A: PlayerId = PlayerId(1);
const B: PlayerId = PlayerId(2);
const C: PlayerId = PlayerId(3);

fn t() -> arbiter_engine::model::Time {
    chrono::DateTime::parse_from_rfc3339("2026-03-01T19:00:00Z")
        .expect("ok")
        .with_timezone(&chrono::Utc)
}

fn league(rule_set: RuleSet, drrs: u32) -> League {
    let rules = LeagueRules {
        rule_set,
        double_round_robins: drrs,
        ..LeagueRules::default()
    };
    let l = League::default();
    let ev = l
        .decide(Command::Create {
            name: "i15".into(),
            rules,
            players: vec!["Ames".into(), "Baker".into(), "Clark".into()],
            seed_hash: draw::commitment(&[1; 32]),
        })
        .expect("ok");
    League::fold(&ev)
}

fn run(l: &mut League, c: Command) -> Result<Vec<Event>, arbiter_engine::RuleError> {
    let before = l.clone();
    let r = l.decide(c);
    match &r {
        Ok(ev) => {
            for e in ev {
                l.try_apply(e).expect("a decided event fits");
            }
        }
        Err(_) => assert_eq!(*l, before, "a refusal changes nothing"),
    }
    r
}

fn enter(
    l: &mut League,
    rounds: &[&[(PlayerId, u8)]],
) -> Result<Vec<Event>, arbiter_engine::RuleError> {
    run(
        l,
        Command::EnterRoll {
            rounds: rounds.iter().map(|r| r.to_vec()).collect(),
            by: "alice".into(),
            at: t(),
        },
    )
}

fn home(v: u8, r: u8) -> Home {
    Home {
        vanguard: v,
        rearguard: r,
    }
}

/// "Prior to each DRR, the players' positions (#1, #2, #3) on the schedule
/// shall be determined by round of die-roll with the highest yield being
/// #1 ... Ties must be broken by additional round(s) of die-roll."
/// (XMadn League: Double-round robins; XM-R1, ARB-R64): entered faces.
#[test]
fn entered_faces_decide_the_positions_and_say_who_entered_them() {
    let mut l = league(RuleSet::Championship, 2);
    // Out of range, a missing player, a stranger to the tie, a missing re-roll.
    let e = enter(&mut l, &[&[(A, 7), (B, 2), (C, 6)]]).expect_err("refused");
    assert!(e.message.contains("not 1 to 6"), "{e}");
    assert_eq!(e.field.as_deref(), Some("faces"));
    let e = enter(&mut l, &[&[(A, 5), (B, 2)]]).expect_err("refused");
    assert!(e.message.contains("no face for Clark"), "{e}");
    let e = enter(&mut l, &[&[(A, 5), (B, 5), (C, 2)]]).expect_err("refused");
    assert!(e.message.contains("Ames and Baker are tied"), "{e}");
    let e = enter(&mut l, &[&[(A, 5), (B, 5), (C, 2)], &[(A, 6), (C, 3)]]).expect_err("refused");
    assert!(e.message.contains("Clark, who does not roll"), "{e}");
    let e = enter(&mut l, &[&[(A, 5), (B, 2), (C, 6)], &[(A, 1), (B, 2)]]).expect_err("refused");
    assert!(e.message.contains("one too many"), "{e}");
    let seed_hash = l.seed_hash;
    // Ames and Baker tie on 5 and re-roll: Baker 6 beats Ames 3.
    let ev = enter(&mut l, &[&[(A, 5), (B, 5), (C, 2)], &[(B, 6), (A, 3)]]).expect("ok");
    assert!(
        matches!(&ev[..], [Event::PositionsEntered { positions, by, .. }] if *positions == [B, A, C] && by == "alice")
    );
    // The committed seed is still the one to be revealed next.
    assert_eq!(l.seed_hash, seed_hash);
    let why = l.explain_positions(1).expect("ok");
    assert!(
        why.text
            .contains("faces entered by alice at 2026-03-01 19:00 UTC"),
        "{}",
        why.text
    );
    assert!(why.text.contains("not a committed draw"));
    let checks = l.verify_rolls();
    assert_eq!(checks.len(), 1);
    assert_eq!(checks[0].entered_by.as_deref(), Some("alice"));
    assert!(checks[0].faces_ok && checks[0].commitment_ok);
    // A tampered record does not verify.
    let mut bad = l.clone();
    bad.rolls[0].rounds[0][0].1 = 9;
    assert!(!bad.verify_rolls()[0].faces_ok);
}

/// Both kinds verify side by side, and a committed roll after an entered one
/// still reveals the seed committed at creation.
#[test]
fn committed_and_entered_rolls_verify_together() {
    let mut l = league(RuleSet::Championship, 2);
    enter(&mut l, &[&[(A, 5), (B, 2), (C, 6)]]).expect("ok");
    for g in l.drr_games(1).iter().map(|g| g.players).collect::<Vec<_>>() {
        run(
            &mut l,
            Command::RecordResult {
                game: None,
                players: g,
                pawns: [4, 1],
                seconds: 600,
                at: t(),
            },
        )
        .expect("ok");
    }
    assert_eq!(l.phase(), Phase::AwaitingPositions { drr: 2 });
    run(
        &mut l,
        Command::RollPositions {
            seed: [1; 32],
            next_seed_hash: draw::commitment(&[2; 32]),
            at: t(),
        },
    )
    .expect("ok");
    let checks = l.verify_rolls();
    assert!(checks.iter().all(|c| c.commitment_ok && c.faces_ok));
    assert_eq!(checks[0].entered_by.as_deref(), Some("alice"));
    assert_eq!(checks[1].entered_by, None);
}

/// "Game results reflect the “counted pawns” saved which, depending on the
/// set of rules applied, are either the pawns of the respective players’
/// best one allied colour (2T) or both allied colours (2T+)." (XMadn
/// League: Game results; ARB-R65)
#[test]
fn counted_pawns_follow_from_the_pawns_brought_home() {
    for (rule_set, winner, loser, counted) in [
        (RuleSet::Championship, home(4, 1), home(2, 3), [4, 3]),
        (RuleSet::Masters, home(4, 4), home(2, 3), [8, 5]),
    ] {
        let mut l = league(rule_set, 1);
        enter(&mut l, &[&[(A, 6), (B, 4), (C, 2)]]).expect("ok");
        // Game 1: Ames v Baker; entered Baker first, the figures follow.
        let ev = run(
            &mut l,
            Command::ByColour {
                entry: Entry::Result { game: None },
                players: [B, A],
                home: [loser, winner],
                seconds: 700,
                at: t(),
            },
        )
        .expect("ok");
        let [Event::ResultRecorded { score, home: h, .. }] = &ev[..] else {
            panic!("{ev:?}")
        };
        assert_eq!(score.pawns, counted, "{rule_set:?}");
        assert_eq!(*h, Some([winner, loser]));
        assert_eq!(l.game(GameId(1)).expect("ok").winner(), Some(A));
    }
    // A colour has four pawns; a loser cannot have a whole colour home in 2T.
    let mut l = league(RuleSet::Championship, 1);
    enter(&mut l, &[&[(A, 6), (B, 4), (C, 2)]]).expect("ok");
    let by = |h: [Home; 2]| Command::ByColour {
        entry: Entry::Result { game: None },
        players: [A, B],
        home: h,
        seconds: 700,
        at: t(),
    };
    let e = run(&mut l, by([home(5, 0), home(1, 1)])).expect_err("refused");
    assert_eq!(e.field.as_deref(), Some("home"), "{e}");
    let e = run(&mut l, by([home(4, 0), home(4, 1)])).expect_err("refused");
    assert!(e.message.contains("best one allied colour (2T)"), "{e}");
    assert_eq!(e.field.as_deref(), Some("home"));
}

/// "Game 1: player #1 vs player #2 ... Game 6: player #3 vs player #2"
/// (XMadn League: Double-round robins; ARB-R63): each DRR's games are Games
/// 1 to 6, by which they are named and found; the league-wide id is an alias.
#[test]
fn games_are_named_and_found_by_the_document_numbers() {
    let mut l = league(RuleSet::Championship, 2);
    enter(&mut l, &[&[(A, 6), (B, 4), (C, 2)]]).expect("ok");
    for g in l.drr_games(1).iter().map(|g| g.players).collect::<Vec<_>>() {
        run(
            &mut l,
            Command::RecordResult {
                game: None,
                players: g,
                pawns: [4, 1],
                seconds: 600,
                at: t(),
            },
        )
        .expect("ok");
    }
    enter(&mut l, &[&[(A, 6), (B, 4), (C, 2)]]).expect("ok");
    for text in [
        "DRR 2 Game 1",
        "drr2 game1",
        "D2G1",
        "2.1",
        "Game 1",
        "G7",
        "7",
    ] {
        assert_eq!(l.parse_game(text), Some(GameId(7)), "{text:?}");
    }
    assert_eq!(l.parse_game("DRR 1 Game 4"), Some(GameId(4)));
    for text in ["DRR 3 Game 1", "2.7", "G13", "Game 0", "", "x"] {
        assert_eq!(l.parse_game(text), None, "{text:?}");
    }
    assert_eq!(l.game_ref(GameId(7)), "DRR 2 Game 1 (G7)");
    let e = run(
        &mut l,
        Command::RecordResult {
            game: Some(GameId(1)),
            players: [A, B],
            pawns: [4, 1],
            seconds: 600,
            at: t(),
        },
    )
    .expect_err("refused");
    assert!(
        e.message.contains("DRR 1 Game 1 (G1) already has a result"),
        "{e}"
    );
    assert_eq!(
        league::stage_words(l.game(GameId(12)).expect("ok").stage),
        "DRR 2 Game 6"
    );
}
