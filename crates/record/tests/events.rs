//! Format v1: hand-built samples of every event round-trip and are frozen as
//! snapshots; malformed records give clear errors.

#![allow(clippy::unwrap_used)]

mod common;

use arbiter_engine::model::{
    Adjudication, Counts, EndTag, GameId, GameResult, GameStatus, Outcome, Participant, Side,
};
use arbiter_engine::tws::{
    Bid, Confirmer, Event, LadderRules, Move, MoveReason, PairingMethod, PairingReason,
    ResultInput, Retirement, RoundAnnounced, RoundClosed, ScheduledGame, SideReason, Skip,
};
use arbiter_record::{FORMAT_VERSION, RecordError, decode, encode};
use common::{p, t};

fn g(n: u32) -> GameId {
    GameId(n)
}

fn ladder(player: u32, side: Side) -> Participant {
    Participant {
        player: p(player),
        side,
        counts: Counts::Ladder,
    }
}

fn game(id: u32, ussr: u32, us: u32, sides: SideReason, pairing: PairingReason) -> ScheduledGame {
    ScheduledGame {
        id: g(id),
        ussr: ladder(ussr, Side::Ussr),
        us: ladder(us, Side::Us),
        moderator: Some(0),
        sides,
        pairing,
    }
}

fn result(outcome: Outcome, ended_by: EndTag, status: GameStatus) -> GameResult {
    GameResult {
        outcome,
        ended_by,
        vp: None,
        turn: None,
        note: None,
        status,
        adjudication: None,
        at: t("2026-02-10T08:30:00Z"),
    }
}

/// One sample of every event, and of every reason, tag and status inside.
/// A carried member; `missed` is his skip streak too, except on the
/// inactive list (no skip streak there).
fn carried(
    name: &str,
    ussr: u32,
    us: u32,
    last: Option<Side>,
    (wins, losses, ties): (u32, u32, u32),
    missed: u32,
) -> arbiter_engine::tws::CarriedMember {
    let surname = name.rsplit(' ').next().map(str::to_string);
    arbiter_engine::tws::CarriedMember {
        name: name.into(),
        surname,
        ussr,
        us,
        last,
        record: arbiter_engine::tws::stats::Record { wins, losses, ties },
        skip_streak: if missed > 3 { 0 } else { missed },
        missed,
    }
}

fn samples() -> Vec<(&'static str, Event)> {
    let rules = LadderRules::default();
    let changed = LadderRules {
        deadline_months: 2,
        bid: Bid {
            influence: 2,
            side: Side::Ussr,
        },
        tie_advances: Side::Ussr,
        consecutive_skips_for_loss: 3,
        missed_rounds_for_inactive: 4,
        sides_count_quick_rounds: true,
        platform: "Vassal \"league\" server".into(),
        game_name_prefix: "Ladder Round".into(),
        quick_round_prefix: "Quick\nRound".into(),
    };
    let announced = RoundAnnounced {
        round: 3,
        at: t("2026-01-31T12:00:00Z"),
        deadline: t("2026-04-30T12:00:00Z"),
        bid: rules.bid,
        pairing: PairingMethod::Adjacent,
        games: vec![
            game(
                21,
                1,
                2,
                SideReason::ChampionSwitch {
                    champion: p(1),
                    last: Side::Us,
                    game: None,
                },
                PairingReason::Adjacent { rungs: (1, 2) },
            ),
            game(
                22,
                3,
                4,
                SideReason::BothSwitch { games: None },
                PairingReason::Adjacent { rungs: (3, 4) },
            ),
            game(
                23,
                5,
                6,
                SideReason::NewcomerFlexible {
                    newcomer: p(6),
                    other: p(5),
                    last: Side::Us,
                    game: None,
                },
                PairingReason::Adjacent { rungs: (5, 6) },
            ),
            game(
                24,
                7,
                8,
                SideReason::MostUnbalanced {
                    player: p(8),
                    ussr: 5,
                    us: 2,
                    other_ussr: 3,
                    other_us: 3,
                },
                PairingReason::Adjacent { rungs: (7, 8) },
            ),
            game(
                25,
                9,
                10,
                SideReason::HigherRungLeastPlayed {
                    player: p(9),
                    ussr: 1,
                    us: 3,
                },
                PairingReason::Adjacent { rungs: (9, 10) },
            ),
            game(
                26,
                11,
                12,
                SideReason::HigherRungSwitch {
                    player: p(12),
                    last: Side::Ussr,
                    game: None,
                },
                PairingReason::Adjacent { rungs: (11, 12) },
            ),
            game(
                27,
                13,
                14,
                SideReason::Drawn {
                    higher: p(13),
                    side: Side::Ussr,
                    draw_index: 0,
                },
                PairingReason::Override {
                    reason: "schedules: \"weekends only\"".into(),
                },
            ),
            ScheduledGame {
                id: g(28),
                ussr: ladder(15, Side::Ussr),
                us: Participant {
                    player: p(40),
                    side: Side::Us,
                    counts: Counts::QuickRound,
                },
                moderator: None,
                sides: SideReason::EliminatorSwitch {
                    player: p(15),
                    last: Side::Us,
                    game: None,
                },
                pairing: PairingReason::Eliminator { rung: 15 },
            },
        ],
        skips: vec![
            Skip {
                player: p(16),
                rung: 16,
                consecutive: 1,
                as_loss: false,
            },
            Skip {
                player: p(17),
                rung: 17,
                consecutive: 2,
                as_loss: true,
            },
        ],
        byes: vec![(p(18), 18)],
        seed: [0xab; 32],
        next_seed_hash: std::array::from_fn(|i| i as u8),
    };
    let closed = RoundClosed {
        round: 3,
        at: t("2026-04-30T12:00:00.250Z"),
        order: vec![p(2), p(1), p(3), p(4), p(5), p(6), p(7), p(8), p(9), p(10)],
        moves: vec![
            Move {
                player: p(2),
                from: 2,
                to: 1,
                reason: MoveReason::Won {
                    game: g(21),
                    tie: false,
                },
            },
            Move {
                player: p(1),
                from: 1,
                to: 2,
                reason: MoveReason::SkippedTop,
            },
            Move {
                player: p(3),
                from: 4,
                to: 3,
                reason: MoveReason::Won {
                    game: g(22),
                    tie: true,
                },
            },
            Move {
                player: p(4),
                from: 3,
                to: 4,
                reason: MoveReason::Lost {
                    game: g(22),
                    tie: true,
                },
            },
            Move {
                player: p(5),
                from: 5,
                to: 5,
                reason: MoveReason::Skipped,
            },
            Move {
                player: p(6),
                from: 5,
                to: 6,
                reason: MoveReason::Lost {
                    game: g(21),
                    tie: false,
                },
            },
            Move {
                player: p(7),
                from: 6,
                to: 7,
                reason: MoveReason::SkipLoss { consecutive: 2 },
            },
            Move {
                player: p(8),
                from: 8,
                to: 8,
                reason: MoveReason::Bye,
            },
            Move {
                player: p(9),
                from: 9,
                to: 9,
                reason: MoveReason::NoResult { game: g(24) },
            },
            Move {
                player: p(10),
                from: 11,
                to: 10,
                reason: MoveReason::Entered,
            },
        ],
        inactive: vec![Retirement {
            player: p(11),
            rung: 11,
            missed: 3,
        }],
        carried: vec![],
        early: None,
        champion: Some(p(2)),
        streak: 1,
    };
    let full_result = GameResult {
        outcome: Outcome::Win(Side::Us),
        ended_by: EndTag::Vp,
        vp: Some(20),
        turn: Some(7),
        note: Some("ACTS log: https://acts.example/game?id=1&x=\"y\"".into()),
        status: GameStatus::Played,
        adjudication: None,
        at: t("2026-02-10T08:30:00Z"),
    };
    let adjudicated = GameResult {
        outcome: Outcome::Win(Side::Ussr),
        ended_by: EndTag::Adjudication,
        vp: Some(-7),
        turn: Some(9),
        note: None,
        status: GameStatus::Adjudicated,
        adjudication: Some(Adjudication {
            final_state: "Turn 9 AR3, VP -7, DEFCON 3".into(),
            ussr_statement: Some("Europe is mine.\nAsia too.".into()),
            us_statement: None,
            third_party: Some("USSR clearly ahead".into()),
            decision: "USSR win".into(),
        }),
        at: t("2026-05-01T00:00:00Z"),
    };
    vec![
        (
            "created",
            Event::Created {
                name: "TWS Ladder".into(),
                rules: rules.clone(),
                seed_hash: [0x5a; 32],
            },
        ),
        (
            "rules-changed",
            Event::RulesChanged {
                from_round: 4,
                rules: changed,
                reason: "play balance review".into(),
            },
        ),
        (
            "moderator-added",
            Event::ModeratorAdded {
                name: "Ann Moderator".into(),
            },
        ),
        (
            "moderator-removed",
            Event::ModeratorRemoved {
                name: "Ann Moderator".into(),
            },
        ),
        (
            "player-applied",
            Event::PlayerApplied {
                player: p(1),
                name: "José Ñúñez".into(),
                surname: "Ñúñez".into(),
            },
        ),
        ("player-approved", Event::PlayerApproved { player: p(1) }),
        (
            "player-declined",
            Event::PlayerDeclined {
                player: p(2),
                reason: "duplicate account".into(),
            },
        ),
        (
            "guest-registered",
            Event::GuestRegistered {
                player: p(40),
                name: "Eli Minator".into(),
                surname: "Minator".into(),
            },
        ),
        ("player-reentered", Event::PlayerReentered { player: p(11) }),
        (
            "player-withdrawn",
            Event::PlayerWithdrawn {
                player: p(12),
                reason: "moved away".into(),
            },
        ),
        (
            "eliminator-volunteered",
            Event::EliminatorVolunteered { player: p(40) },
        ),
        (
            "eliminator-stood-down",
            Event::EliminatorStoodDown { player: p(40) },
        ),
        (
            "skip-requested",
            Event::SkipRequested {
                player: p(16),
                round: 3,
            },
        ),
        (
            "skip-cancelled",
            Event::SkipCancelled {
                player: p(16),
                round: 3,
            },
        ),
        (
            "round-announced",
            Event::RoundAnnounced(Box::new(announced)),
        ),
        (
            "round-announced-override",
            Event::RoundAnnounced(Box::new(RoundAnnounced {
                round: 4,
                at: t("2026-05-01T00:00:00Z"),
                deadline: t("2026-06-01T00:00:00Z"),
                bid: Bid {
                    influence: 2,
                    side: Side::Ussr,
                },
                pairing: PairingMethod::Override {
                    reason: "start before round 3 is complete".into(),
                },
                games: vec![],
                skips: vec![],
                byes: vec![],
                seed: [0; 32],
                next_seed_hash: [0xff; 32],
            })),
        ),
        (
            "game-added",
            Event::GameAdded {
                round: 3,
                at: t("2026-02-01T09:00:00Z"),
                game: ScheduledGame {
                    id: g(29),
                    ussr: Participant {
                        player: p(40),
                        side: Side::Ussr,
                        counts: Counts::QuickRound,
                    },
                    us: ladder(19, Side::Us),
                    moderator: Some(1),
                    sides: SideReason::EliminatorDrawn {
                        player: p(19),
                        side: Side::Us,
                        draw_index: 7,
                    },
                    pairing: PairingReason::Late {
                        reason: "joined during round 3 (TWS-R5)".into(),
                    },
                },
            },
        ),
        (
            "quick-game-scheduled",
            Event::QuickGameScheduled {
                at: t("2026-02-11T10:00:00Z"),
                game: ScheduledGame {
                    id: g(30),
                    ussr: Participant {
                        player: p(2),
                        side: Side::Ussr,
                        counts: Counts::QuickRound,
                    },
                    us: Participant {
                        player: p(3),
                        side: Side::Us,
                        counts: Counts::QuickRound,
                    },
                    moderator: None,
                    sides: SideReason::Chosen,
                    pairing: PairingReason::QuickRound,
                },
            },
        ),
        (
            "result-recorded",
            Event::ResultRecorded {
                game: g(21),
                result: full_result,
            },
        ),
        (
            "result-recorded-defcon",
            Event::ResultRecorded {
                game: g(22),
                result: result(Outcome::Tie, EndTag::Defcon, GameStatus::Played),
            },
        ),
        (
            "result-recorded-europe",
            Event::ResultRecorded {
                game: g(23),
                result: result(
                    Outcome::Win(Side::Ussr),
                    EndTag::EuropeControl,
                    GameStatus::Agreed,
                ),
            },
        ),
        (
            "result-recorded-final-scoring",
            Event::ResultRecorded {
                game: g(24),
                result: result(
                    Outcome::Win(Side::Us),
                    EndTag::FinalScoring,
                    GameStatus::Played,
                ),
            },
        ),
        (
            "result-recorded-wargames",
            Event::ResultRecorded {
                game: g(25),
                result: result(
                    Outcome::Win(Side::Ussr),
                    EndTag::Wargames,
                    GameStatus::Played,
                ),
            },
        ),
        (
            "result-recorded-concession",
            Event::ResultRecorded {
                game: g(26),
                result: result(
                    Outcome::Win(Side::Us),
                    EndTag::Concession,
                    GameStatus::Played,
                ),
            },
        ),
        (
            "result-recorded-forfeit",
            Event::ResultRecorded {
                game: g(27),
                result: result(
                    Outcome::Win(Side::Ussr),
                    EndTag::Forfeit,
                    GameStatus::Forfeited,
                ),
            },
        ),
        (
            "result-recorded-other",
            Event::ResultRecorded {
                game: g(28),
                result: result(
                    Outcome::Win(Side::Us),
                    EndTag::Other("vp".into()),
                    GameStatus::Scheduled,
                ),
            },
        ),
        (
            "result-corrected",
            Event::ResultCorrected {
                game: g(24),
                result: adjudicated,
                reason: "adjudicated after the deadline".into(),
            },
        ),
        (
            "result-corrected-cancelled",
            Event::ResultCorrected {
                game: g(25),
                result: result(
                    Outcome::Tie,
                    EndTag::Other("timeout".into()),
                    GameStatus::Cancelled,
                ),
                reason: "mistake".into(),
            },
        ),
        (
            "game-cancelled",
            Event::GameCancelled {
                game: g(26),
                at: t("2026-03-01T00:00:00Z"),
                reason: "both players withdrew".into(),
            },
        ),
        ("round-closed", Event::RoundClosed(Box::new(closed))),
        (
            "round-closed-empty",
            Event::RoundClosed(Box::new(RoundClosed {
                round: 1,
                at: t("2026-01-01T00:00:00Z"),
                order: vec![],
                moves: vec![],
                inactive: vec![],
                champion: None,
                streak: 0,
                carried: vec![],
                early: None,
            })),
        ),
        (
            "round-closed-early",
            Event::RoundClosed(Box::new(RoundClosed {
                round: 4,
                at: t("2026-05-01T00:00:00Z"),
                order: vec![p(1), p(2), p(3), p(4)],
                moves: vec![
                    Move {
                        player: p(1),
                        from: 2,
                        to: 1,
                        reason: MoveReason::Won {
                            game: g(30),
                            tie: false,
                        },
                    },
                    Move {
                        player: p(2),
                        from: 1,
                        to: 2,
                        reason: MoveReason::Lost {
                            game: g(30),
                            tie: false,
                        },
                    },
                    Move {
                        player: p(3),
                        from: 3,
                        to: 3,
                        reason: MoveReason::CarriedOver { game: g(31) },
                    },
                    Move {
                        player: p(4),
                        from: 4,
                        to: 4,
                        reason: MoveReason::CarriedOver { game: g(31) },
                    },
                ],
                inactive: vec![],
                champion: Some(p(1)),
                streak: 1,
                carried: vec![g(31)],
                early: Some("start round 5 while one game finishes".into()),
            })),
        ),
        (
            "result-reported",
            Event::ResultReported {
                game: g(21),
                result: ResultInput {
                    outcome: Outcome::Win(Side::Us),
                    ended_by: EndTag::FinalScoring,
                    vp: Some(7),
                    turn: Some(10),
                    note: Some("Ana's report".into()),
                },
                by: p(2),
                at: t("2026-02-09T21:15:00Z"),
            },
        ),
        (
            "result-reported-minimal",
            Event::ResultReported {
                game: g(22),
                result: ResultInput {
                    outcome: Outcome::Tie,
                    ended_by: EndTag::Other("timeout".into()),
                    vp: None,
                    turn: None,
                    note: None,
                },
                by: p(1),
                at: t("2026-02-09T21:15:00Z"),
            },
        ),
        (
            "result-confirmed",
            Event::ResultConfirmed {
                game: g(21),
                by: Confirmer::Player(p(1)),
                at: t("2026-02-10T08:30:00Z"),
            },
        ),
        (
            "result-confirmed-moderator",
            Event::ResultConfirmed {
                game: g(21),
                by: Confirmer::Moderator("Mod One".into()),
                at: t("2026-02-10T08:30:00Z"),
            },
        ),
        (
            "report-rejected",
            Event::ReportRejected {
                game: g(22),
                by: Confirmer::Player(p(2)),
                reason: "it was not a tie: I won on turn 8".into(),
                at: t("2026-02-10T09:00:00Z"),
            },
        ),
        (
            "carried-over",
            Event::CarriedOver(Box::new(arbiter_engine::tws::CarryOver {
                records: arbiter_engine::tws::CarriedLadder {
                    members: vec![
                        carried("Ana Morales", 15, 14, Some(Side::Us), (22, 7, 0), 0),
                        carried("Pieter van Dijk", 13, 13, Some(Side::Ussr), (16, 10, 0), 1),
                    ],
                    inactive: vec![carried("Astrid Berg", 0, 0, None, (0, 0, 0), 4)],
                    next_round: 38,
                    champion_streak: 3,
                },
                source: "BGG forum ladder table, 2026-02-28".into(),
                by: "Jordan Reyes".into(),
                at: t("2026-03-01T09:00:00Z"),
            })),
        ),
        (
            "reverted",
            Event::Reverted {
                seq: u64::MAX,
                summary: "undo: result of G21".into(),
            },
        ),
    ]
}

#[test]
fn every_sample_round_trips() {
    for (name, event) in samples() {
        let json = encode(&event);
        assert_eq!(decode(&json), Ok(event), "{name}: {json}");
    }
}

#[test]
fn samples_cover_every_event_kind() {
    let kinds: std::collections::BTreeSet<&str> = samples().iter().map(|(_, e)| e.kind()).collect();
    assert_eq!(kinds.len(), 26, "{kinds:?}");
}

#[test]
fn type_is_the_event_kind_and_v_comes_first() {
    for (name, event) in samples() {
        let json = encode(&event);
        let prefix = format!("{{\"v\":{FORMAT_VERSION},\"type\":\"{}\"", event.kind());
        assert!(json.starts_with(&prefix), "{name}: {json}");
    }
}

#[test]
fn v1_json_is_frozen() {
    for (name, event) in samples() {
        insta::assert_snapshot!(name, encode(&event));
    }
}

#[test]
fn keys_in_any_order_are_read() {
    let json = r#"{"player":3,"type":"player-approved","v":1}"#;
    assert_eq!(decode(json), Ok(Event::PlayerApproved { player: p(3) }));
    let json = r#"{"type":"skip-requested","player":3,"v":1,"round":2}"#;
    assert_eq!(
        decode(json),
        Ok(Event::SkipRequested {
            player: p(3),
            round: 2
        })
    );
    let json = r#"{"type":"reverted","v":1,"seq":5,"summary":"x"}"#;
    assert_eq!(
        decode(json),
        Ok(Event::Reverted {
            seq: 5,
            summary: "x".into()
        })
    );
}

#[test]
fn times_in_other_offsets_are_read_as_utc() {
    let json =
        r#"{"v":1,"type":"game-cancelled","game":4,"at":"2026-01-31T13:00:00+01:00","reason":"r"}"#;
    assert_eq!(
        decode(json),
        Ok(Event::GameCancelled {
            game: g(4),
            at: t("2026-01-31T12:00:00Z"),
            reason: "r".into()
        })
    );
}

#[track_caller]
fn malformed(json: &str) -> String {
    common::malformed(decode(json), json)
}

#[test]
fn another_version_is_refused_before_its_body_is_read() {
    let json = r#"{"v":2,"type":"player-teleported","where":"moon"}"#;
    assert_eq!(
        decode(json),
        Err(RecordError::Version {
            found: 2,
            supported: 1
        })
    );
    let json = r#"{"type":"created","future":[1,2,{"x":null}],"v":7}"#;
    assert_eq!(
        decode(json),
        Err(RecordError::Version {
            found: 7,
            supported: 1
        })
    );
    let message = decode(r#"{"v":0,"type":"created"}"#)
        .unwrap_err()
        .to_string();
    assert_eq!(
        message,
        "event format version 0 is not supported: this program reads version 1"
    );
}

#[test]
fn missing_envelope_fields_are_named() {
    let m = malformed(r#"{"type":"player-approved","player":3}"#);
    assert!(m.contains("missing field `v`"), "{m}");
    let m = malformed(r#"{"v":1,"player":3}"#);
    assert!(m.contains("missing field `type`"), "{m}");
    let m = malformed(r#"{"v":"1","type":"player-approved","player":3}"#);
    assert!(m.contains("invalid type: string \"1\""), "{m}");
}

#[test]
fn a_missing_field_is_named_with_the_event_type() {
    let m = malformed(r#"{"v":1,"type":"result-recorded","game":12}"#);
    assert!(m.starts_with("`result-recorded` event: "), "{m}");
    assert!(m.contains("missing field `result`"), "{m}");
    assert!(m.contains("line 1 column"), "{m}");
    let m = malformed(
        r#"{"v":1,"type":"result-recorded","game":12,"result":{"outcome":"tie","status":"played","at":"2026-01-31T12:00:00Z"}}"#,
    );
    assert!(m.contains("missing field `ended_by`"), "{m}");
}

#[test]
fn an_unknown_type_lists_the_known_ones() {
    let m = malformed(r#"{"v":1,"type":"player-teleported","player":3}"#);
    assert!(m.contains("unknown variant `player-teleported`"), "{m}");
    assert!(m.contains("`result-recorded`"), "{m}");
}

#[test]
fn unknown_fields_are_refused() {
    let m = malformed(r#"{"v":1,"type":"player-approved","player":3,"plyer":4}"#);
    assert!(m.contains("unknown field `plyer`"), "{m}");
    let m = malformed(r#"{"v":1,"type":"player-approved","player":3,"v":1}"#);
    assert!(m.contains("unknown field `v`"), "{m}");
}

#[test]
fn bad_hex_is_refused() {
    let Some((_, event)) = samples().into_iter().find(|(n, _)| *n == "created") else {
        panic!("no created sample");
    };
    let json = encode(&event).replace(&"5a".repeat(32), &"5a".repeat(31));
    let m = malformed(&json);
    assert!(m.contains("64 hex digits, found 62"), "{m}");
    let json = encode(&event).replace(&"5a".repeat(32), &format!("zz{}", "5a".repeat(31)));
    let m = malformed(&json);
    assert!(m.contains("invalid hex digit 'z' at position 0"), "{m}");
    // Upper case is accepted.
    let json = encode(&event).replace(&"5a".repeat(32), &"5A".repeat(32));
    assert_eq!(decode(&json), Ok(event));
}

#[test]
fn id_zero_is_refused() {
    let m = malformed(r#"{"v":1,"type":"player-approved","player":0}"#);
    assert!(m.contains("expected a player id (ids start at 1)"), "{m}");
    let m = malformed(
        r#"{"v":1,"type":"game-cancelled","game":0,"at":"2026-01-31T12:00:00Z","reason":"r"}"#,
    );
    assert!(m.contains("expected a game id (ids start at 1)"), "{m}");
    let m = malformed(
        r#"{"v":1,"type":"round-closed","round":1,"at":"2026-01-31T12:00:00Z","order":[1,0],"moves":[],"inactive":[],"streak":0}"#,
    );
    assert!(m.contains("ids start at 1"), "{m}");
    let m = malformed(
        r#"{"v":1,"type":"round-closed","round":1,"at":"2026-01-31T12:00:00Z","order":[1],"moves":[[1,1,1,"won",0]],"inactive":[],"streak":0}"#,
    );
    assert!(m.contains("expected a game id (ids start at 1)"), "{m}");
    let m = malformed(r#"{"v":1,"type":"player-approved","player":-1}"#);
    assert!(m.contains("invalid value: integer `-1`"), "{m}");
    let m = malformed(r#"{"v":1,"type":"player-approved","player":4294967296}"#);
    assert!(m.contains("4294967296"), "{m}");
}

#[test]
fn bad_moves_are_refused() {
    let closed = |moves: &str| {
        format!(
            r#"{{"v":1,"type":"round-closed","round":1,"at":"2026-01-31T12:00:00Z","order":[1],"moves":[{moves}],"inactive":[],"streak":0}}"#
        )
    };
    let m = malformed(&closed(r#"[1,1,1,"won"]"#));
    assert!(m.contains("a game id after this move's reason"), "{m}");
    let m = malformed(&closed(r#"[1,1,1,"bye",3]"#));
    assert!(m.contains("too many elements"), "{m}");
    let m = malformed(&closed(r#"[1,1,1,"promoted"]"#));
    assert!(m.contains("unknown variant `promoted`"), "{m}");
    let m = malformed(&closed(r#"[1,1]"#));
    assert!(m.contains("invalid length 2"), "{m}");
    let m = malformed(&closed(r#"{"player":1}"#));
    assert!(m.contains("invalid type: map"), "{m}");
    let m = malformed(&closed(r#"[1,1,1,"skip-loss"]"#));
    assert!(m.contains("consecutive skips"), "{m}");
}

#[test]
fn bad_values_are_refused() {
    let m = malformed(r#"{"v":1,"type":"game-cancelled","game":1,"at":"yesterday","reason":"r"}"#);
    assert!(m.contains("invalid time \"yesterday\""), "{m}");
    let m = malformed(
        r#"{"v":1,"type":"result-recorded","game":12,"result":{"outcome":"ussr","ended_by":"vp","status":"played","at":"2026-01-31T12:00:00Z"}}"#,
    );
    assert!(m.contains("unknown variant `ussr`"), "{m}");
    let m = malformed(
        r#"{"v":1,"type":"result-recorded","game":12,"result":{"outcome":"tie","ended_by":"nuclear","status":"played","at":"2026-01-31T12:00:00Z"}}"#,
    );
    assert!(m.contains("invalid value: string \"nuclear\""), "{m}");
    let m = malformed(
        r#"{"v":1,"type":"result-recorded","game":12,"result":{"outcome":"tie","ended_by":{"another":"x"},"status":"played","at":"2026-01-31T12:00:00Z"}}"#,
    );
    assert!(m.contains("unknown field `another`"), "{m}");
}

#[test]
fn not_an_event_at_all() {
    for json in ["", "null", "[]", "3", "\"created\"", "{", "{\"v\":1,"] {
        let m = malformed(json);
        assert!(!m.is_empty(), "{json}");
    }
    let m = malformed("[]");
    assert!(m.contains("an Arbiter event"), "{m}");
}

#[test]
fn every_truncation_of_every_sample_is_an_error_not_a_panic() {
    for (name, event) in samples() {
        let json = encode(&event);
        for end in 0..json.len() {
            if json.is_char_boundary(end) {
                assert!(decode(&json[..end]).is_err(), "{name} cut at {end}");
            }
        }
    }
}

#[test]
fn a_reason_without_fields_refuses_unknown_keys() {
    let ok = r#"{"v":1,"type":"quick-game-scheduled","at":"2026-02-11T10:00:00Z","game":{"id":30,"ussr":{"player":2,"side":"USSR","counts":"quick-round"},"us":{"player":3,"side":"US","counts":"quick-round"},"sides":{"kind":"chosen"},"pairing":{"kind":"quick-round"}}}"#;
    assert!(decode(ok).is_ok());
    for (from, to) in [
        (r#"{"kind":"chosen"}"#, r#"{"kind":"chosen","sneaky":true}"#),
        (
            r#"{"kind":"quick-round"}"#,
            r#"{"kind":"quick-round","sneaky":1}"#,
        ),
    ] {
        let bad = ok.replace(from, to);
        let err = decode(&bad).expect_err("an unknown key is refused");
        assert!(err.to_string().contains("sneaky"), "{err}");
    }
}

#[test]
fn reports_and_confirmers_are_checked() {
    // A report has no status, adjudication or time inside its result.
    let m = malformed(
        r#"{"v":1,"type":"result-reported","game":2,"result":{"outcome":"tie","ended_by":"final-scoring","status":"played"},"by":1,"at":"2026-01-31T12:00:00Z"}"#,
    );
    assert!(m.contains("unknown field `status`"), "{m}");
    let m = malformed(
        r#"{"v":1,"type":"result-reported","game":2,"result":{"outcome":"tie","ended_by":"final-scoring"},"by":0,"at":"2026-01-31T12:00:00Z"}"#,
    );
    assert!(!m.is_empty(), "{m}");
    let m = malformed(
        r#"{"v":1,"type":"result-confirmed","game":2,"by":{"referee":"x"},"at":"2026-01-31T12:00:00Z"}"#,
    );
    assert!(m.contains("unknown variant `referee`"), "{m}");
    let m = malformed(
        r#"{"v":1,"type":"result-confirmed","game":2,"by":{"player":1,"moderator":"x"},"at":"2026-01-31T12:00:00Z"}"#,
    );
    assert!(!m.is_empty(), "{m}");
    let m = malformed(
        r#"{"v":1,"type":"report-rejected","game":2,"by":{"player":1},"at":"2026-01-31T12:00:00Z"}"#,
    );
    assert!(m.contains("missing field `reason`"), "{m}");
    let json = r#"{"v":1,"type":"result-confirmed","game":2,"by":{"moderator":"Mod One"},"at":"2026-01-31T12:00:00Z"}"#;
    assert_eq!(
        decode(json),
        Ok(Event::ResultConfirmed {
            game: g(2),
            by: Confirmer::Moderator("Mod One".into()),
            at: t("2026-01-31T12:00:00Z"),
        })
    );
}
