//! Players report their own results in the XMadn league, XMadn Challengers
//! and the Sunjang league as on the ladder (ARB-R45, ARB-R81): only the
//! game's two players report; the reporter never confirms his own report;
//! the other player or a moderator who does not play in the game confirms
//! (exactly the format's result event follows) or disputes (nothing is
//! recorded); the other player's identical report confirms it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_engine::model::{GameId, PlayerId, Time};
use arbiter_engine::report::Confirmer;
use arbiter_engine::xmadn::Score;

fn at() -> Time {
    "2026-03-01T19:00:00Z".parse().unwrap()
}

fn later() -> Time {
    "2026-03-02T19:00:00Z".parse().unwrap()
}

const P1: PlayerId = PlayerId(1);
const P2: PlayerId = PlayerId(2);
const P3: PlayerId = PlayerId(3);

fn moderator(account: &str) -> Confirmer {
    Confirmer::Moderator(account.into())
}

mod league {
    use super::*;
    use arbiter_engine::xmadn::LeagueRules;
    use arbiter_engine::xmadn::league::{Command, Event, League};

    fn run(l: &mut League, c: Command) -> Vec<Event> {
        let events = l.decide(c).expect("accepted");
        for e in &events {
            l.try_apply(e).expect("applies");
        }
        events
    }

    /// Ames (1), Baker (2), Clark (3) at positions #1, #2, #3: Game 1 (G1)
    /// is Ames v Baker. Baker's account "baker" and Clark's "clark" are
    /// linked.
    fn league() -> League {
        let mut l = League::default();
        run(
            &mut l,
            Command::Create {
                name: "L".into(),
                rules: LeagueRules::default(),
                players: vec!["Ames".into(), "Baker".into(), "Clark".into()],
                seed_hash: [0; 32],
            },
        );
        run(
            &mut l,
            Command::EnterRoll {
                rounds: vec![vec![(P1, 6), (P2, 4), (P3, 2)]],
                by: "mod".into(),
                at: at(),
            },
        );
        for (player, account) in [(P2, "baker"), (P3, "clark")] {
            run(
                &mut l,
                Command::LinkAccount {
                    player,
                    account: account.into(),
                },
            );
        }
        l
    }

    fn report(by: PlayerId, pawns: [u8; 2]) -> Command {
        Command::ReportResult {
            game: None,
            players: [P1, P2],
            pawns,
            seconds: 750,
            by,
            at: at(),
        }
    }

    #[test]
    fn a_confirmed_report_records_exactly_the_result_event() {
        let mut l = league();
        let reported = run(&mut l, report(P1, [4, 2]));
        assert_eq!(
            reported,
            vec![Event::ResultReported {
                game: GameId(1),
                score: Score {
                    pawns: [4, 2],
                    seconds: 750
                },
                by: P1,
                at: at(),
            }]
        );
        assert!(l.game(GameId(1)).unwrap().score().is_none(), "not yet");
        let direct = league()
            .decide(Command::RecordResult {
                game: Some(GameId(1)),
                players: [P1, P2],
                pawns: [4, 2],
                seconds: 750,
                at: at(),
            })
            .unwrap();
        let confirmed = run(
            &mut l,
            Command::ConfirmResult {
                game: GameId(1),
                by: Confirmer::Player(P2),
                at: later(),
            },
        );
        assert_eq!(
            confirmed[0],
            Event::ResultConfirmed {
                game: GameId(1),
                by: Confirmer::Player(P2),
                at: later()
            }
        );
        assert_eq!(confirmed[1..], direct[..], "the moderator's own event");
        assert!(l.reports.is_empty());
        assert_eq!(l.game(GameId(1)).unwrap().winner(), Some(P1));
    }

    #[test]
    fn the_reporter_never_confirms_and_only_the_games_players_report() {
        let mut l = league();
        let e = l.decide(report(P3, [4, 2])).unwrap_err();
        assert!(e.to_string().contains("Clark does not play in"), "{e}");
        run(&mut l, report(P1, [4, 2]));
        let e = l
            .decide(Command::ConfirmResult {
                game: GameId(1),
                by: Confirmer::Player(P1),
                at: at(),
            })
            .unwrap_err();
        assert!(e.to_string().contains("nobody confirms his own"), "{e}");
        let e = l
            .decide(Command::ConfirmResult {
                game: GameId(1),
                by: Confirmer::Player(P3),
                at: at(),
            })
            .unwrap_err();
        assert!(e.to_string().contains("Clark does not play in"), "{e}");
        // A moderator whose account plays in the game as Baker cannot.
        let e = l
            .decide(Command::ConfirmResult {
                game: GameId(1),
                by: moderator("baker"),
                at: at(),
            })
            .unwrap_err();
        assert!(e.to_string().contains("No participant"), "{e}");
        // The same report again is refused; any moderator not in the game
        // (Clark's account is not in Game 1) confirms.
        let e = l.decide(report(P1, [4, 2])).unwrap_err();
        assert!(e.to_string().contains("already reported"), "{e}");
        let events = run(
            &mut l,
            Command::ConfirmResult {
                game: GameId(1),
                by: moderator("clark"),
                at: at(),
            },
        );
        assert!(matches!(events[1], Event::ResultRecorded { .. }));
    }

    #[test]
    fn a_disputed_report_records_nothing_and_the_same_report_confirms() {
        let mut l = league();
        run(&mut l, report(P1, [4, 2]));
        let e = l
            .decide(Command::DisputeReport {
                game: GameId(1),
                by: Confirmer::Player(P2),
                reason: "  ".into(),
                at: at(),
            })
            .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("reason"), "{e}");
        let events = run(
            &mut l,
            Command::DisputeReport {
                game: GameId(1),
                by: Confirmer::Player(P2),
                reason: "I won".into(),
                at: at(),
            },
        );
        assert_eq!(events.len(), 1);
        assert!(l.reports.is_empty());
        assert!(l.game(GameId(1)).unwrap().score().is_none());
        // Baker reports 2-4 (he won); Ames reports the same: confirmed.
        run(&mut l, report(P2, [2, 4]));
        let events = run(&mut l, report(P1, [2, 4]));
        assert!(matches!(
            events[0],
            Event::ResultConfirmed {
                by: Confirmer::Player(P1),
                ..
            }
        ));
        assert_eq!(l.game(GameId(1)).unwrap().winner(), Some(P2));
    }

    #[test]
    fn a_different_report_replaces_and_a_recorded_result_settles() {
        let mut l = league();
        run(&mut l, report(P1, [4, 2]));
        run(&mut l, report(P2, [2, 4]));
        assert_eq!(l.reports.get(&GameId(1)).unwrap().by, P2);
        run(
            &mut l,
            Command::RecordResult {
                game: Some(GameId(1)),
                players: [P1, P2],
                pawns: [4, 1],
                seconds: 600,
                at: at(),
            },
        );
        assert!(l.reports.is_empty());
        let e = l
            .decide(Command::ConfirmResult {
                game: GameId(1),
                by: Confirmer::Player(P1),
                at: at(),
            })
            .unwrap_err();
        assert!(e.to_string().contains("no result of"), "{e}");
        // An impossible score is refused as a result is.
        let e = l
            .decide(Command::ReportResult {
                game: None,
                players: [P3, P1],
                pawns: [9, 9],
                seconds: 600,
                by: P3,
                at: at(),
            })
            .unwrap_err();
        assert!(!e.to_string().is_empty());
    }
}

mod challengers {
    use super::*;
    use arbiter_engine::xmadn::challengers::{Challengers, Command, Event};
    use arbiter_engine::xmadn::{ChallengersRules, Colours};

    fn run(c: &mut Challengers, cmd: Command) -> Vec<Event> {
        let events = c.decide(cmd).expect("accepted");
        for e in &events {
            c.try_apply(e).expect("applies");
        }
        events
    }

    /// Game 0 won by Ames, Baker 2nd: Game 1 is Ames v Baker, Clark out.
    fn event() -> Challengers {
        let mut c = Challengers::default();
        run(
            &mut c,
            Command::Create {
                name: "C".into(),
                rules: ChallengersRules::default(),
                players: vec!["Ames".into(), "Baker".into(), "Clark".into()],
            },
        );
        run(
            &mut c,
            Command::RecordQualifier {
                finishing: [P1, P2, P3],
                colours: None,
                seconds: None,
                chosen: Colours {
                    vanguard: "red".into(),
                    rearguard: "blue".into(),
                },
                at: at(),
            },
        );
        run(
            &mut c,
            Command::LinkAccount {
                player: P1,
                account: "ames".into(),
            },
        );
        c
    }

    fn report(by: PlayerId) -> Command {
        Command::ReportGame {
            players: [P2, P1],
            pawns: [2, 4],
            seconds: 900,
            by,
            at: at(),
        }
    }

    #[test]
    fn a_confirmed_report_records_exactly_the_game() {
        let mut c = event();
        let direct = event()
            .decide(Command::RecordGame {
                players: [P2, P1],
                pawns: [2, 4],
                seconds: 900,
                at: at(),
            })
            .unwrap();
        run(&mut c, report(P2));
        assert!(c.games().is_empty());
        assert_eq!(c.pending_report().unwrap().0, 1);
        let e = c
            .decide(Command::ConfirmGame {
                by: Confirmer::Player(P2),
                at: at(),
            })
            .unwrap_err();
        assert!(e.to_string().contains("nobody confirms his own"), "{e}");
        let e = c
            .decide(Command::ConfirmGame {
                by: Confirmer::Player(P3),
                at: at(),
            })
            .unwrap_err();
        assert!(e.to_string().contains("Clark does not play in"), "{e}");
        let e = c
            .decide(Command::ConfirmGame {
                by: moderator("ames"),
                at: at(),
            })
            .unwrap_err();
        assert!(e.to_string().contains("No participant"), "{e}");
        let events = run(
            &mut c,
            Command::ConfirmGame {
                by: Confirmer::Player(P1),
                at: at(),
            },
        );
        assert_eq!(events[1..], direct[..]);
        assert_eq!(c.games().len(), 1);
        assert!(c.pending_report().is_none());
    }

    #[test]
    fn only_the_board_reports_and_a_dispute_records_nothing() {
        let mut c = event();
        let e = c.decide(report(P3)).unwrap_err();
        assert!(e.to_string().contains("Clark does not play in"), "{e}");
        run(&mut c, report(P1));
        run(
            &mut c,
            Command::DisputeReport {
                by: moderator("mod"),
                reason: "not played".into(),
                at: at(),
            },
        );
        assert!(c.pending_report().is_none());
        assert!(c.games().is_empty());
        // The other player's identical report confirms.
        run(&mut c, report(P1));
        let events = run(&mut c, report(P2));
        assert!(matches!(events[0], Event::ResultConfirmed { .. }));
        assert_eq!(c.games().len(), 1);
    }
}

mod sunjang {
    use super::*;
    use arbiter_engine::sunjang::group::Outcome;
    use arbiter_engine::sunjang::season::{Command, Event, League, SeasonPlan};
    use arbiter_engine::sunjang::{PlayerInfo, Rank, Restrictions, SunjangRules};

    fn run(l: &mut League, c: Command) -> Vec<Event> {
        let events = l.decide(c).expect("accepted");
        for e in &events {
            l.try_apply(e).expect("applies");
        }
        events
    }

    /// One group of four, players 1 to 4; player 4's account "dan".
    fn league() -> League {
        let mut l = League::default();
        run(
            &mut l,
            Command::Create {
                name: "S".into(),
                rules: SunjangRules::default(),
                restrictions: Restrictions::default(),
            },
        );
        for i in 1..=4 {
            run(
                &mut l,
                Command::Register {
                    info: PlayerInfo {
                        name: ["Ana", "Ben", "Cho", "Dan"][i - 1].into(),
                        rank: Rank::Kyu(5),
                        provisional: false,
                        rating: 2000 - 20 * i as i32,
                        corr_rank: None,
                        corr_rating: None,
                    },
                },
            );
        }
        l.try_apply(&Event::SeasonPlanned(Box::new(SeasonPlan {
            season: 1,
            divisions: vec![vec![(1..=4).map(PlayerId).collect()]],
            placements: Vec::new(),
            notes: Vec::new(),
            cancelled: None,
            layout: None,
            at: at(),
        })))
        .unwrap();
        run(
            &mut l,
            Command::LinkAccount {
                player: PlayerId(4),
                account: "dan".into(),
            },
        );
        l
    }

    /// The first game of the group, black first, and a fourth player.
    fn first_game(l: &League) -> (PlayerId, PlayerId, PlayerId) {
        let g = &l.current().unwrap().divisions[0][0].games[0];
        let (b, w) = (g.pairing.black, g.pairing.white);
        let other = (1..=4).map(PlayerId).find(|p| *p != b && *p != w).unwrap();
        (b, w, other)
    }

    #[test]
    fn a_confirmed_report_records_exactly_the_result_event() {
        let mut l = league();
        let (b, w, other) = first_game(&l);
        let direct = league()
            .decide(Command::RecordResult {
                black: b,
                white: w,
                outcome: Outcome::Jigo,
                at: at(),
            })
            .unwrap();
        let e = l
            .decide(Command::ReportResult {
                black: b,
                white: w,
                outcome: Outcome::Jigo,
                by: other,
                at: at(),
            })
            .unwrap_err();
        assert!(e.to_string().contains("does not play in"), "{e}");
        let e = l
            .decide(Command::ReportResult {
                black: b,
                white: w,
                outcome: Outcome::WhiteForfeits,
                by: b,
                at: at(),
            })
            .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("outcome"), "{e}");
        run(
            &mut l,
            Command::ReportResult {
                black: b,
                white: w,
                outcome: Outcome::Jigo,
                by: b,
                at: at(),
            },
        );
        let e = l
            .decide(Command::ConfirmResult {
                black: b,
                white: w,
                by: Confirmer::Player(b),
                at: at(),
            })
            .unwrap_err();
        assert!(e.to_string().contains("nobody confirms his own"), "{e}");
        let e = l
            .decide(Command::ConfirmResult {
                black: b,
                white: w,
                by: Confirmer::Player(other),
                at: at(),
            })
            .unwrap_err();
        assert!(e.to_string().contains("does not play in"), "{e}");
        let events = run(
            &mut l,
            Command::ConfirmResult {
                black: b,
                white: w,
                by: Confirmer::Player(w),
                at: later(),
            },
        );
        assert_eq!(events[1..], direct[..]);
        assert!(l.reports.is_empty());
        assert_eq!(
            l.current().unwrap().divisions[0][0].games[0].outcome,
            Some(Outcome::Jigo)
        );
    }

    #[test]
    fn a_disputed_report_records_nothing() {
        let mut l = league();
        let (b, w, _) = first_game(&l);
        run(
            &mut l,
            Command::ReportResult {
                black: b,
                white: w,
                outcome: Outcome::BlackWins,
                by: b,
                at: at(),
            },
        );
        let events = run(
            &mut l,
            Command::DisputeReport {
                black: b,
                white: w,
                by: moderator("mod"),
                reason: "white won by 3.5".into(),
                at: at(),
            },
        );
        assert_eq!(events.len(), 1);
        assert!(l.reports.is_empty());
        assert_eq!(l.current().unwrap().divisions[0][0].games[0].outcome, None);
    }
}
