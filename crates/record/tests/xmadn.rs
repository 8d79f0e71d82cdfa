//! The XMadn formats: every league and Challengers event round-trips
//! (hand-built samples frozen as snapshots, and random events); malformed
//! records give errors naming what is wrong; the rules files and presets.

#![allow(clippy::unwrap_used)]

mod common;

use arbiter_engine::model::{GameId, PlayerId};
use arbiter_engine::report::Confirmer;
use arbiter_engine::xmadn::carry::{CarriedDrr, CarriedGame, LeagueCarryOver};
use arbiter_engine::xmadn::challengers::Event as CEvent;
use arbiter_engine::xmadn::league::{Event as LEvent, PlayoffStage};
use arbiter_engine::xmadn::{
    ChallengersRules, Colours, LeagueRules, Playoff, RuleSet, Score, Series,
};
use arbiter_record::{
    FORMAT_VERSION, PRESETS, RecordError, RulesFileError, XMADN_CHALLENGERS_PRESET,
    XMADN_LEAGUE_PRESET, challengers_rules_to_toml, decode, decode_challengers, decode_league,
    encode, encode_challengers, encode_league, league_rules_to_toml, parse_challengers_rules,
    parse_league_rules, preset,
};
use common::{file_error, game_id, malformed, p, player, says, t, text, time};
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;

fn colours(vanguard: &str, rearguard: &str) -> Colours {
    Colours {
        vanguard: vanguard.into(),
        rearguard: rearguard.into(),
    }
}

fn score(a: u8, b: u8, seconds: u32) -> Score {
    Score {
        pawns: [a, b],
        seconds,
    }
}

fn names() -> Vec<String> {
    vec!["Anna".into(), "Bernd".into(), "Chiara \"Chi\"".into()]
}

/// One sample of every league event, and of every playoff, series and
/// stage inside.
fn league_samples() -> Vec<(&'static str, LEvent)> {
    let at = t("2026-03-01T19:00:00Z");
    vec![
        (
            "league-created",
            LEvent::Created {
                name: "XMadn League 2026".into(),
                rules: LeagueRules::default(),
                players: names(),
                seed_hash: [0x5a; 32],
            },
        ),
        (
            "league-created-top-two",
            LEvent::Created {
                name: "Masters League".into(),
                rules: LeagueRules {
                    rule_set: RuleSet::Masters,
                    double_round_robins: 1,
                    playoff: Playoff::TopTwo {
                        final_round: Series::Game,
                    },
                    head_start: false,
                    die_faces: 20,
                    restart_min_tie: 3,
                    board_colours: ["black", "white", "red", "blue"].map(String::from).to_vec(),
                },
                players: names(),
                seed_hash: [0x01; 32],
            },
        ),
        (
            "league-created-no-playoff",
            LEvent::Created {
                name: "Short League".into(),
                rules: LeagueRules {
                    playoff: Playoff::None,
                    ..LeagueRules::default()
                },
                players: names(),
                seed_hash: [0xff; 32],
            },
        ),
        (
            "league-positions-rolled",
            LEvent::PositionsRolled {
                drr: 1,
                seed: [0x11; 32],
                next_seed_hash: [0x22; 32],
                rounds: vec![
                    vec![(p(1), 4), (p(2), 6), (p(3), 4)],
                    vec![(p(1), 2), (p(3), 5)],
                ],
                positions: [p(2), p(3), p(1)],
                at,
            },
        ),
        (
            "league-result-recorded",
            LEvent::ResultRecorded {
                game: GameId(4),
                score: score(4, 2, 750),
                home: None,
                at,
            },
        ),
        (
            "league-result-corrected",
            LEvent::ResultCorrected {
                game: GameId(4),
                score: score(3, 4, 1385),
                home: None,
                reason: "pawns were swapped".into(),
                at: t("2026-03-02T08:15:30.5Z"),
            },
        ),
        (
            "league-game-cancelled",
            LEvent::GameCancelled {
                game: GameId(12),
                note: "both agree: the table is decided".into(),
                at,
            },
        ),
        (
            "league-carried-over",
            LEvent::DrrsCarriedOver(Box::new(LeagueCarryOver {
                drrs: vec![CarriedDrr {
                    positions: [p(2), p(3), p(1)],
                    games: [
                        CarriedGame::Played {
                            score: Score {
                                pawns: [4, 2],
                                seconds: 1420,
                            },
                            at,
                        },
                        CarriedGame::Played {
                            score: Score {
                                pawns: [3, 4],
                                seconds: 1865,
                            },
                            at,
                        },
                        CarriedGame::Cancelled {
                            note: "both agree".into(),
                            at,
                        },
                        CarriedGame::ToPlay,
                        CarriedGame::ToPlay,
                        CarriedGame::ToPlay,
                    ],
                }],
                source: "the forum thread".into(),
                by: "Jordan Park".into(),
                at,
            })),
        ),
        (
            "league-drr-cancelled",
            LEvent::DrrCancelled {
                drr: 2,
                note: "mutual consent".into(),
                at,
            },
        ),
        (
            "league-tiebreak-rolled",
            LEvent::TiebreakRolled {
                players: vec![p(1), p(3)],
                seed: [0x33; 32],
                next_seed_hash: [0x44; 32],
                rounds: vec![vec![(p(1), 3), (p(3), 3)], vec![(p(1), 1), (p(3), 6)]],
                at,
            },
        ),
        (
            "league-playoff-started",
            LEvent::PlayoffStarted {
                stage: PlayoffStage::Qualifying,
                higher: p(2),
                lower: p(3),
                series: Series::Game,
                head_start: false,
                colours: colours("red", "blue"),
                at,
            },
        ),
        (
            "league-playoff-started-final",
            LEvent::PlayoffStarted {
                stage: PlayoffStage::Final,
                higher: p(1),
                lower: p(2),
                series: Series::FirstTo(3),
                head_start: true,
                colours: colours("green", "yellow"),
                at,
            },
        ),
        (
            "league-playoff-game-played",
            LEvent::PlayoffGamePlayed {
                stage: PlayoffStage::Final,
                score: score(2, 4, 1800),
                home: None,
                at,
            },
        ),
        (
            "league-result-reported",
            LEvent::ResultReported {
                game: GameId(4),
                score: score(4, 2, 750),
                by: p(2),
                at,
            },
        ),
        (
            "league-result-confirmed",
            LEvent::ResultConfirmed {
                game: GameId(4),
                by: Confirmer::Player(p(1)),
                at,
            },
        ),
        (
            "league-result-confirmed-moderator",
            LEvent::ResultConfirmed {
                game: GameId(19),
                by: Confirmer::Moderator("mod".into()),
                at,
            },
        ),
        (
            "league-report-disputed",
            LEvent::ReportDisputed {
                game: GameId(4),
                by: Confirmer::Player(p(1)),
                reason: "I won 4-3 \"in 12:30\"".into(),
                at,
            },
        ),
        (
            "league-reverted",
            LEvent::Reverted {
                seq: 7,
                summary: "undo: result of game 4".into(),
            },
        ),
    ]
}

/// One sample of every Challengers event (Game 0 with and without its
/// optional values).
fn challengers_samples() -> Vec<(&'static str, CEvent)> {
    let at = t("2026-03-01T19:00:00Z");
    vec![
        (
            "challengers-created",
            CEvent::Created {
                name: "Challengers March".into(),
                rules: ChallengersRules::default(),
                players: names(),
            },
        ),
        (
            "challengers-qualifier-played",
            CEvent::QualifierPlayed {
                finishing: [p(3), p(1), p(2)],
                colours: Some(["red", "green", "purple"].map(String::from)),
                seconds: Some(1520),
                chosen: colours("blue", "red"),
                at,
            },
        ),
        (
            "challengers-qualifier-played-bare",
            CEvent::QualifierPlayed {
                finishing: [p(1), p(2), p(3)],
                colours: None,
                seconds: None,
                chosen: colours("red", "blue"),
                at,
            },
        ),
        (
            "challengers-game-played",
            CEvent::GamePlayed {
                number: 3,
                players: [p(2), p(1)],
                score: score(1, 4, 1385),
                home: None,
                at,
            },
        ),
        (
            "challengers-result-reported",
            CEvent::ResultReported {
                number: 3,
                score: score(1, 4, 1385),
                by: p(1),
                at,
            },
        ),
        (
            "challengers-result-confirmed",
            CEvent::ResultConfirmed {
                number: 3,
                by: Confirmer::Moderator("mod".into()),
                at,
            },
        ),
        (
            "challengers-report-disputed",
            CEvent::ReportDisputed {
                number: 3,
                by: Confirmer::Player(p(2)),
                reason: "not played yet".into(),
                at,
            },
        ),
        (
            "challengers-reverted",
            CEvent::Reverted {
                seq: u64::MAX,
                summary: "undo: Game 3".into(),
            },
        ),
    ]
}

// ---------------------------------------------------------------------------
// Samples.

#[test]
fn every_sample_round_trips() {
    for (name, event) in league_samples() {
        let json = encode_league(&event);
        assert_eq!(decode_league(&json), Ok(event), "{name}: {json}");
    }
    for (name, event) in challengers_samples() {
        let json = encode_challengers(&event);
        assert_eq!(decode_challengers(&json), Ok(event), "{name}: {json}");
    }
}

#[test]
fn samples_cover_every_event_kind() {
    let kinds: std::collections::BTreeSet<&str> =
        league_samples().iter().map(|(_, e)| e.kind()).collect();
    assert_eq!(kinds.len(), 14, "{kinds:?}");
    let kinds: std::collections::BTreeSet<&str> = challengers_samples()
        .iter()
        .map(|(_, e)| e.kind())
        .collect();
    assert_eq!(kinds.len(), 7, "{kinds:?}");
}

#[test]
fn type_is_the_event_kind_and_v_comes_first() {
    for (name, event) in league_samples() {
        let json = encode_league(&event);
        let prefix = format!("{{\"v\":{FORMAT_VERSION},\"type\":\"{}\"", event.kind());
        assert!(json.starts_with(&prefix), "{name}: {json}");
    }
    for (name, event) in challengers_samples() {
        let json = encode_challengers(&event);
        let prefix = format!("{{\"v\":{FORMAT_VERSION},\"type\":\"{}\"", event.kind());
        assert!(json.starts_with(&prefix), "{name}: {json}");
    }
}

#[test]
fn xmadn_v1_json_is_frozen() {
    for (name, event) in league_samples() {
        insta::assert_snapshot!(name, encode_league(&event));
    }
    for (name, event) in challengers_samples() {
        insta::assert_snapshot!(name, encode_challengers(&event));
    }
}

#[test]
fn the_shapes_are_the_documented_ones() {
    let json = encode_league(&LEvent::ResultRecorded {
        game: GameId(4),
        score: score(4, 2, 750),
        home: None,
        at: t("2026-03-01T19:00:00Z"),
    });
    assert_eq!(
        json,
        r#"{"v":1,"type":"league-result-recorded","game":4,"score":{"pawns":[4,2],"seconds":750},"at":"2026-03-01T19:00:00Z"}"#
    );
    let (_, created) = &league_samples()[0];
    let json = encode_league(created);
    assert!(
        json.contains(r#""rule_set":"2T","double_round_robins":2,"playoff":{"kind":"all-three","qualifying":"game","final":{"first_to":3}}"#),
        "{json}"
    );
    assert!(
        json.contains(r#""board_colours":["red","blue","green","yellow"]"#),
        "{json}"
    );
    let json = encode_challengers(&challengers_samples()[2].1);
    assert!(
        !json.contains("seconds"),
        "optional values are left out: {json}"
    );
    assert!(!json.contains("\"colours\""), "{json}");
}

#[test]
fn keys_in_any_order_are_read() {
    let json = r#"{"score":{"seconds":60,"pawns":[0,8]},"type":"league-playoff-game-played","at":"2026-03-01T20:00:00+01:00","stage":"qualifying","v":1}"#;
    assert_eq!(
        decode_league(json),
        Ok(LEvent::PlayoffGamePlayed {
            stage: PlayoffStage::Qualifying,
            score: score(0, 8, 60),
            home: None,
            at: t("2026-03-01T19:00:00Z"),
        })
    );
    let json = r#"{"summary":"x","seq":5,"v":1,"type":"reverted"}"#;
    assert_eq!(
        decode_challengers(json),
        Ok(CEvent::Reverted {
            seq: 5,
            summary: "x".into()
        })
    );
}

#[test]
fn reverted_reads_the_same_in_every_format() {
    let tws = encode(&arbiter_engine::tws::Event::Reverted {
        seq: 9,
        summary: "undo".into(),
    });
    let league = LEvent::Reverted {
        seq: 9,
        summary: "undo".into(),
    };
    assert_eq!(encode_league(&league), tws);
    assert_eq!(decode_league(&tws), Ok(league));
    assert!(decode_challengers(&tws).is_ok());
}

// ---------------------------------------------------------------------------
// Malformed records.

#[track_caller]
fn league_error(json: &str) -> String {
    malformed(decode_league(json), json)
}

#[track_caller]
fn challengers_error(json: &str) -> String {
    malformed(decode_challengers(json), json)
}

const AT: &str = "2026-03-01T19:00:00Z";

fn rolled(fields: &str) -> String {
    format!(
        r#"{{"v":1,"type":"league-positions-rolled","drr":1,"seed":"{s}","next_seed_hash":"{s}","at":"{AT}",{fields}}}"#,
        s = "ab".repeat(32)
    )
}

#[test]
fn another_version_is_refused_before_its_body_is_read() {
    let version = RecordError::Version {
        found: 2,
        supported: 1,
    };
    let json = r#"{"v":2,"type":"league-result-recorded","game":0,"future":{"x":[1]}}"#;
    assert_eq!(decode_league(json), Err(version.clone()));
    let json = r#"{"type":"challengers-teleported","where":"moon","v":2}"#;
    assert_eq!(decode_challengers(json), Err(version));
}

#[test]
fn an_unknown_field_is_named_with_the_event_type() {
    let m = league_error(&format!(
        r#"{{"v":1,"type":"league-result-recorded","game":4,"score":{{"pawns":[4,2],"seconds":750}},"at":"{AT}","winner":1}}"#
    ));
    assert!(m.starts_with("`league-result-recorded` event: "), "{m}");
    assert!(m.contains("unknown field `winner`"), "{m}");
    assert!(m.contains("line 1 column"), "{m}");
    let m = league_error(&format!(
        r#"{{"v":1,"type":"league-result-recorded","game":4,"score":{{"pawns":[4,2],"secs":750}},"at":"{AT}"}}"#
    ));
    assert!(m.contains("unknown field `secs`"), "{m}");
    let m = challengers_error(&format!(
        r#"{{"v":1,"type":"challengers-qualifier-played","finishing":[1,2,3],"chosen":{{"vanguard":"red","rearguard":"blue","flank":"green"}},"at":"{AT}"}}"#
    ));
    assert!(m.contains("unknown field `flank`"), "{m}");
    let m = league_error(
        r#"{"v":1,"type":"league-created","name":"L","players":[],"seed_hash":"0000000000000000000000000000000000000000000000000000000000000000","rules":{"rule_set":"2T","double_round_robins":2,"playoff":{"kind":"none","final":"game"},"head_start":true,"die_faces":6,"restart_min_tie":3,"board_colours":[]}}"#,
    );
    assert!(m.contains("unknown field `final`"), "{m}");
}

#[test]
fn a_missing_field_is_named() {
    let m = league_error(r#"{"v":1,"type":"league-game-cancelled","game":3,"note":"n"}"#);
    assert!(m.contains("missing field `at`"), "{m}");
    let m = challengers_error(&format!(
        r#"{{"v":1,"type":"challengers-game-played","number":1,"players":[1,2],"at":"{AT}"}}"#
    ));
    assert!(m.contains("missing field `score`"), "{m}");
}

#[test]
fn an_unknown_type_is_named_with_the_known_ones() {
    let m = league_error(r#"{"v":1,"type":"league-teleported","player":3}"#);
    assert!(m.contains("unknown variant `league-teleported`"), "{m}");
    assert!(m.contains("`league-result-recorded`"), "{m}");
    let m = challengers_error(r#"{"v":1,"type":"challengers-forfeited"}"#);
    assert!(m.contains("unknown variant `challengers-forfeited`"), "{m}");
    assert!(m.contains("`challengers-game-played`"), "{m}");
}

#[test]
fn an_event_of_another_format_says_which() {
    let tws = encode(&arbiter_engine::tws::Event::PlayerApproved { player: p(3) });
    let m = league_error(&tws);
    assert!(
        m.starts_with(
            "`player-approved` is a Twilight Struggle ladder event, not an XMadn league event"
        ),
        "{m}"
    );
    assert!(m.contains("league-result-recorded"), "{m}");
    let m = challengers_error(&tws);
    assert!(
        m.starts_with(
            "`player-approved` is a Twilight Struggle ladder event, not an XMadn Challengers event"
        ),
        "{m}"
    );
    let m = challengers_error(&encode_league(&league_samples()[4].1));
    assert!(
        m.starts_with(
            "`league-result-recorded` is an XMadn league event, not an XMadn Challengers event"
        ),
        "{m}"
    );
    let m = league_error(&encode_challengers(&challengers_samples()[3].1));
    assert!(
        m.starts_with(
            "`challengers-game-played` is an XMadn Challengers event, not an XMadn league event"
        ),
        "{m}"
    );
    // And the TWS decoder refuses XMadn events.
    assert!(decode(&encode_league(&league_samples()[4].1)).is_err());
}

#[test]
fn id_zero_is_refused() {
    let m = league_error(&format!(
        r#"{{"v":1,"type":"league-game-cancelled","game":0,"note":"n","at":"{AT}"}}"#
    ));
    assert!(m.contains("expected a game id (ids start at 1)"), "{m}");
    let m = league_error(&rolled(r#""rounds":[],"positions":[1,0,2]"#));
    assert!(m.contains("expected a player id (ids start at 1)"), "{m}");
    let m = league_error(&rolled(r#""rounds":[[[0,3]]],"positions":[1,2,3]"#));
    assert!(m.contains("ids start at 1"), "{m}");
    let m = challengers_error(&format!(
        r#"{{"v":1,"type":"challengers-game-played","number":1,"players":[0,2],"score":{{"pawns":[4,0],"seconds":1}},"at":"{AT}"}}"#
    ));
    assert!(m.contains("expected a player id (ids start at 1)"), "{m}");
}

#[test]
fn bad_hex_is_refused() {
    let event = &league_samples()[0].1;
    let json = encode_league(event).replace(&"5a".repeat(32), &"5a".repeat(31));
    let m = league_error(&json);
    assert!(m.contains("64 hex digits, found 62"), "{m}");
    let json = encode_league(event).replace(&"5a".repeat(32), &format!("zz{}", "5a".repeat(31)));
    let m = league_error(&json);
    assert!(m.contains("invalid hex digit 'z' at position 0"), "{m}");
    let json = encode_league(event).replace(&"5a".repeat(32), &"5a".repeat(33));
    let m = league_error(&json);
    assert!(m.contains("64 hex digits, found 66"), "{m}");
    let json = encode_league(event).replace(&"5a".repeat(32), &"5A".repeat(32));
    assert_eq!(decode_league(&json).as_ref(), Ok(event));
}

#[test]
fn fixed_size_arrays_have_their_size() {
    let m = league_error(&rolled(r#""rounds":[],"positions":[1,2]"#));
    assert!(
        m.contains("invalid length 2, expected an array of exactly 3 values"),
        "{m}"
    );
    let m = league_error(&rolled(r#""rounds":[],"positions":[1,2,3,1]"#));
    assert!(
        m.contains("invalid length 4, expected an array of exactly 3 values"),
        "{m}"
    );
    let m = league_error(&format!(
        r#"{{"v":1,"type":"league-result-recorded","game":4,"score":{{"pawns":[4],"seconds":750}},"at":"{AT}"}}"#
    ));
    assert!(
        m.contains("invalid length 1, expected an array of exactly 2 values"),
        "{m}"
    );
    let m = challengers_error(&format!(
        r#"{{"v":1,"type":"challengers-qualifier-played","finishing":[1,2,3],"colours":["red","green"],"chosen":{{"vanguard":"red","rearguard":"blue"}},"at":"{AT}"}}"#
    ));
    assert!(m.contains("invalid length 2"), "{m}");
    let m = challengers_error(&format!(
        r#"{{"v":1,"type":"challengers-game-played","number":1,"players":[1,2,3],"score":{{"pawns":[4,0],"seconds":1}},"at":"{AT}"}}"#
    ));
    assert!(m.contains("invalid length 3"), "{m}");
    // The same when the body comes before `v` and `type` (read buffered).
    let m = league_error(r#"{"positions":[1,2],"v":1,"type":"league-positions-rolled"}"#);
    assert!(
        m.contains("invalid length 2, expected an array of exactly 3 values"),
        "{m}"
    );
}

#[test]
fn bad_rolls_are_refused() {
    let m = league_error(&rolled(r#""rounds":[[[1,0]]],"positions":[1,2,3]"#));
    assert!(m.contains("a face of the die (faces start at 1)"), "{m}");
    let m = league_error(&rolled(r#""rounds":[[[1]]],"positions":[1,2,3]"#));
    assert!(m.contains("a roll of the die [player, face]"), "{m}");
    let m = league_error(&rolled(r#""rounds":[[[1,2,3]]],"positions":[1,2,3]"#));
    assert!(
        m.contains("invalid length 3, expected a roll of the die [player, face]"),
        "{m}"
    );
    let m = league_error(&rolled(r#""rounds":[[[1,256]]],"positions":[1,2,3]"#));
    assert!(m.contains("256"), "{m}");
    let m = league_error(&rolled(r#""rounds":[[1,2]],"positions":[1,2,3]"#));
    assert!(m.contains("invalid type: integer"), "{m}");
}

#[test]
fn bad_values_are_refused() {
    let created = encode_league(&league_samples()[0].1);
    let m = league_error(&created.replace(r#""2T""#, r#""3T""#));
    assert!(m.contains("unknown variant `3T`"), "{m}");
    let m = league_error(&created.replace(r#""all-three""#, r#""everyone""#));
    assert!(m.contains("unknown variant `everyone`"), "{m}");
    let m = league_error(&created.replace(r#"{"first_to":3}"#, r#""first-to-3""#));
    assert!(m.contains("unknown variant `first-to-3`"), "{m}");
    let m = league_error(&created.replace(r#"{"first_to":3}"#, r#"{"first_to":-3}"#));
    assert!(m.contains("-3"), "{m}");
    let started = encode_league(
        &league_samples()
            .into_iter()
            .find(|(n, _)| *n == "league-playoff-started")
            .unwrap()
            .1,
    );
    let m = league_error(&started.replace(r#""qualifying""#, r#""semi-final""#));
    assert!(m.contains("unknown variant `semi-final`"), "{m}");
    let m = league_error(&started.replace(AT, "yesterday"));
    assert!(m.contains("invalid time \"yesterday\""), "{m}");
    let played = encode_challengers(&challengers_samples()[3].1);
    let m = challengers_error(&played.replace("[1,4]", "[1,400]"));
    assert!(m.contains("400"), "{m}");
}

#[test]
fn not_an_event_at_all() {
    for json in [
        "",
        "null",
        "[]",
        "3",
        "\"league-created\"",
        "{",
        "{\"v\":1,",
    ] {
        assert!(!league_error(json).is_empty(), "{json}");
        assert!(!challengers_error(json).is_empty(), "{json}");
    }
}

#[test]
fn every_truncation_of_every_sample_is_an_error_not_a_panic() {
    for (name, event) in league_samples() {
        let json = encode_league(&event);
        for end in 0..json.len() {
            assert!(decode_league(&json[..end]).is_err(), "{name} cut at {end}");
        }
    }
    for (name, event) in challengers_samples() {
        let json = encode_challengers(&event);
        for end in 0..json.len() {
            assert!(
                decode_challengers(&json[..end]).is_err(),
                "{name} cut at {end}"
            );
        }
    }
}

#[test]
fn a_truncated_record_says_where() {
    let json = encode_league(&league_samples()[4].1);
    let m = league_error(&json[..json.len() - 10]);
    assert!(m.contains("EOF while parsing"), "{m}");
    assert!(m.contains("line 1 column"), "{m}");
}

// ---------------------------------------------------------------------------
// Random events.

fn rule_set() -> impl Strategy<Value = RuleSet> {
    prop_oneof![Just(RuleSet::Championship), Just(RuleSet::Masters)]
}

fn series() -> impl Strategy<Value = Series> {
    prop_oneof![Just(Series::Game), any::<u32>().prop_map(Series::FirstTo)]
}

fn playoff() -> impl Strategy<Value = Playoff> {
    prop_oneof![
        Just(Playoff::None),
        series().prop_map(|final_round| Playoff::TopTwo { final_round }),
        (series(), series()).prop_map(|(qualifying, final_round)| Playoff::AllThree {
            qualifying,
            final_round
        }),
    ]
}

/// Any league rules, valid or not: the record keeps what it is given.
fn any_league_rules() -> impl Strategy<Value = LeagueRules> {
    (
        rule_set(),
        any::<u32>(),
        playoff(),
        any::<bool>(),
        any::<u8>(),
        any::<u32>(),
        vec(text(), 0..6),
    )
        .prop_map(
            |(rule_set, drr, playoff, head_start, die_faces, restart, board)| LeagueRules {
                rule_set,
                double_round_robins: drr,
                playoff,
                head_start,
                die_faces,
                restart_min_tie: restart,
                board_colours: board,
            },
        )
}

fn any_challengers_rules() -> impl Strategy<Value = ChallengersRules> {
    (
        rule_set(),
        any::<u32>(),
        any::<u32>(),
        vec(text(), 0..6),
        vec(text(), 0..8),
    )
        .prop_map(
            |(rule_set, first_to, min_first_to, board, star)| ChallengersRules {
                rule_set,
                first_to,
                min_first_to,
                board_colours: board,
                star_colours: star,
            },
        )
}

fn hash() -> impl Strategy<Value = [u8; 32]> {
    any::<[u8; 32]>()
}

fn any_colours() -> impl Strategy<Value = Colours> {
    (text(), text()).prop_map(|(vanguard, rearguard)| Colours {
        vanguard,
        rearguard,
    })
}

fn any_score() -> impl Strategy<Value = Score> {
    (any::<[u8; 2]>(), any::<u32>()).prop_map(|(pawns, seconds)| Score { pawns, seconds })
}

fn roll_rounds() -> impl Strategy<Value = Vec<Vec<(PlayerId, u8)>>> {
    vec(vec((player(3), 1..=u8::MAX), 0..4), 0..4)
}

fn stage() -> impl Strategy<Value = PlayoffStage> {
    prop_oneof![Just(PlayoffStage::Qualifying), Just(PlayoffStage::Final)]
}

fn league_event() -> impl Strategy<Value = LEvent> {
    prop_oneof![
        (any_league_rules(), text(), vec(text(), 0..5), hash()).prop_map(
            |(rules, name, players, seed_hash)| LEvent::Created {
                name,
                rules,
                players,
                seed_hash
            }
        ),
        (
            any::<u32>(),
            hash(),
            hash(),
            roll_rounds(),
            [player(3), player(3), player(3)],
            time()
        )
            .prop_map(|(drr, seed, next_seed_hash, rounds, positions, at)| {
                LEvent::PositionsRolled {
                    drr,
                    seed,
                    next_seed_hash,
                    rounds,
                    positions,
                    at,
                }
            }),
        (game_id(30), any_score(), time()).prop_map(|(game, score, at)| LEvent::ResultRecorded {
            game,
            score,
            home: None,
            at
        }),
        (game_id(30), any_score(), text(), time()).prop_map(|(game, score, reason, at)| {
            LEvent::ResultCorrected {
                game,
                score,
                home: None,
                reason,
                at,
            }
        }),
        (game_id(30), text(), time()).prop_map(|(game, note, at)| LEvent::GameCancelled {
            game,
            note,
            at
        }),
        (any::<u32>(), text(), time()).prop_map(|(drr, note, at)| LEvent::DrrCancelled {
            drr,
            note,
            at
        }),
        (vec(player(3), 0..4), hash(), hash(), roll_rounds(), time()).prop_map(
            |(players, seed, next_seed_hash, rounds, at)| LEvent::TiebreakRolled {
                players,
                seed,
                next_seed_hash,
                rounds,
                at,
            }
        ),
        (
            stage(),
            player(3),
            player(3),
            series(),
            any::<bool>(),
            any_colours(),
            time()
        )
            .prop_map(|(stage, higher, lower, series, head_start, colours, at)| {
                LEvent::PlayoffStarted {
                    stage,
                    higher,
                    lower,
                    series,
                    head_start,
                    colours,
                    at,
                }
            }),
        (stage(), any_score(), time()).prop_map(|(stage, score, at)| LEvent::PlayoffGamePlayed {
            stage,
            score,
            home: None,
            at
        }),
        (game_id(18), any_score(), player(3), time()).prop_map(|(game, score, by, at)| {
            LEvent::ResultReported {
                game,
                score,
                by,
                at,
            }
        }),
        (game_id(18), confirmer(), time()).prop_map(|(game, by, at)| LEvent::ResultConfirmed {
            game,
            by,
            at
        }),
        (game_id(18), confirmer(), text(), time()).prop_map(|(game, by, reason, at)| {
            LEvent::ReportDisputed {
                game,
                by,
                reason,
                at,
            }
        }),
        (any::<u64>(), text()).prop_map(|(seq, summary)| LEvent::Reverted { seq, summary }),
    ]
}

/// Who confirmed or disputed a report (ARB-R45, ARB-R81).
fn confirmer() -> impl Strategy<Value = Confirmer> {
    prop_oneof![
        player(3).prop_map(Confirmer::Player),
        text().prop_map(Confirmer::Moderator)
    ]
}

fn challengers_event() -> impl Strategy<Value = CEvent> {
    prop_oneof![
        (any_challengers_rules(), text(), vec(text(), 0..5)).prop_map(|(rules, name, players)| {
            CEvent::Created {
                name,
                rules,
                players,
            }
        }),
        (
            [player(3), player(3), player(3)],
            option::of([text(), text(), text()]),
            option::of(any::<u32>()),
            any_colours(),
            time()
        )
            .prop_map(|(finishing, colours, seconds, chosen, at)| {
                CEvent::QualifierPlayed {
                    finishing,
                    colours,
                    seconds,
                    chosen,
                    at,
                }
            }),
        (any::<u32>(), [player(3), player(3)], any_score(), time()).prop_map(
            |(number, players, score, at)| CEvent::GamePlayed {
                number,
                players,
                score,
                home: None,
                at
            }
        ),
        (any::<u32>(), any_score(), player(3), time()).prop_map(|(number, score, by, at)| {
            CEvent::ResultReported {
                number,
                score,
                by,
                at,
            }
        }),
        (any::<u32>(), confirmer(), time()).prop_map(|(number, by, at)| CEvent::ResultConfirmed {
            number,
            by,
            at
        }),
        (any::<u32>(), confirmer(), text(), time()).prop_map(|(number, by, reason, at)| {
            CEvent::ReportDisputed {
                number,
                by,
                reason,
                at,
            }
        }),
        (any::<u64>(), text()).prop_map(|(seq, summary)| CEvent::Reverted { seq, summary }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_league_events_round_trip(event in league_event()) {
        let json = encode_league(&event);
        prop_assert!(!json.contains('\n'), "one line: {}", json);
        prop_assert_eq!(decode_league(&json), Ok(event), "{}", json);
    }

    #[test]
    fn random_challengers_events_round_trip(event in challengers_event()) {
        let json = encode_challengers(&event);
        prop_assert!(!json.contains('\n'), "one line: {}", json);
        prop_assert_eq!(decode_challengers(&json), Ok(event), "{}", json);
    }

    #[test]
    fn random_bytes_never_panic(bytes in vec(any::<u8>(), 0..200)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = decode_league(&text);
        let _ = decode_challengers(&text);
    }
}

// ---------------------------------------------------------------------------
// Rules files.

#[track_caller]
fn league_file_error(text: &str) -> RulesFileError {
    file_error(parse_league_rules(text), text)
}

#[track_caller]
fn challengers_file_error(text: &str) -> RulesFileError {
    file_error(parse_challengers_rules(text), text)
}

#[test]
fn the_presets_are_the_defaults() {
    assert_eq!(
        parse_league_rules(XMADN_LEAGUE_PRESET),
        Ok(LeagueRules::default())
    );
    assert_eq!(
        parse_challengers_rules(XMADN_CHALLENGERS_PRESET),
        Ok(ChallengersRules::default())
    );
    assert_eq!(preset("xmadn-league"), Some(XMADN_LEAGUE_PRESET));
    assert_eq!(preset("xmadn-challengers"), Some(XMADN_CHALLENGERS_PRESET));
    assert_eq!(
        PRESETS,
        [
            "tws-ladder",
            "xmadn-league",
            "xmadn-challengers",
            "sunjang-league"
        ]
    );
    // Each preset names its format, which the other readers refuse.
    for name in PRESETS {
        let text = preset(name).unwrap();
        assert!(text.contains(&format!("\nformat = \"{name}\"\n")), "{name}");
    }
    let e = league_file_error(XMADN_CHALLENGERS_PRESET);
    assert_eq!(e.field.as_deref(), Some("format"));
    says(
        &e,
        "format \"xmadn-challengers\" is not an XMadn league: this file must say format = \"xmadn-league\"",
    );
    let e = challengers_file_error(XMADN_LEAGUE_PRESET);
    assert_eq!(e.field.as_deref(), Some("format"));
    let e = arbiter_record::parse_rules(XMADN_LEAGUE_PRESET).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("format"));
    says(
        &e,
        "format \"xmadn-league\" is not a Twilight Struggle ladder",
    );
    let e = league_file_error(arbiter_record::TWS_LADDER_PRESET);
    assert_eq!(e.field.as_deref(), Some("format"));
}

/// Every setting `to_toml` writes is set in `preset`, under a comment.
fn sets_every_setting(written: &str, preset: &str) {
    let mut table = String::new();
    for line in written.lines() {
        if line.starts_with('[') {
            table = line
                .split('#')
                .next()
                .unwrap_or_default()
                .trim()
                .to_string();
            assert!(preset.contains(&format!("\n{table}\n")), "{table}");
        }
        if let Some((key, _)) = line.split_once(" = ") {
            let at = preset
                .lines()
                .position(|l| l.starts_with(&format!("{key} = ")));
            let Some(at) = at else {
                panic!("the preset does not set {key} ({table})");
            };
            let above = preset.lines().nth(at - 1).unwrap_or_default();
            assert!(
                above.starts_with('#') || above.starts_with('['),
                "no comment above {key}"
            );
        }
    }
}

#[test]
fn the_presets_set_every_setting() {
    sets_every_setting(
        &league_rules_to_toml(&LeagueRules::default()),
        XMADN_LEAGUE_PRESET,
    );
    sets_every_setting(
        &challengers_rules_to_toml(&ChallengersRules::default()),
        XMADN_CHALLENGERS_PRESET,
    );
}

#[test]
fn the_presets_quote_the_document() {
    for sentence in [
        "scheduled for a number of double",
        "positions (#1, #2, #3) on the schedule shall be determined by round of\n# die-roll",
        "a tie involving more\n# than two players",
        "the higher seeded player may be awarded a one-win head start (1-0)",
        "Qualifying Game (QG)",
    ] {
        assert!(XMADN_LEAGUE_PRESET.contains(sentence), "{sentence}");
    }
    for sentence in [
        "The minimum distance shall be \"first-to-4\"",
        "lining up in star formation",
    ] {
        assert!(XMADN_CHALLENGERS_PRESET.contains(sentence), "{sentence}");
    }
}

#[test]
fn rules_to_toml_of_the_defaults_is_frozen() {
    insta::assert_snapshot!(
        "league_rules_to_toml",
        league_rules_to_toml(&LeagueRules::default())
    );
    insta::assert_snapshot!(
        "challengers_rules_to_toml",
        challengers_rules_to_toml(&ChallengersRules::default())
    );
}

/// Issue 14, item 6: an empty file is refused, not taken as the defaults.
#[test]
fn an_empty_file_is_refused_and_the_format_line_alone_gives_the_defaults() {
    for text in ["", "\n", "# only a comment\n"] {
        let e = parse_league_rules(text).unwrap_err();
        assert!(e.message.contains("holds no setting"), "{text:?}: {e}");
        let e = parse_challengers_rules(text).unwrap_err();
        assert!(e.message.contains("holds no setting"), "{text:?}: {e}");
    }
    assert_eq!(
        parse_league_rules("format = \"xmadn-league\"\n"),
        Ok(LeagueRules::default())
    );
    assert_eq!(
        parse_challengers_rules("format = \"xmadn-challengers\"\n"),
        Ok(ChallengersRules::default())
    );
}

#[test]
fn settings_override_the_defaults() {
    let rules = parse_league_rules(
        "rule_set = \"2T+\"\ndouble_round_robins = 4\nhead_start = false\n\n[playoff]\nformat = \"top-two\"\nfinal = \"first-to-5\"\n",
    )
    .unwrap();
    assert_eq!(
        rules,
        LeagueRules {
            rule_set: RuleSet::Masters,
            double_round_robins: 4,
            head_start: false,
            playoff: Playoff::TopTwo {
                final_round: Series::FirstTo(5)
            },
            ..LeagueRules::default()
        }
    );
    // A playoff setting left out takes the default's.
    let rules = parse_league_rules("playoff = { final = \"game\" }\n").unwrap();
    assert_eq!(
        rules.playoff,
        Playoff::AllThree {
            qualifying: Series::Game,
            final_round: Series::Game
        }
    );
    let rules = parse_league_rules("[playoff]\nformat = \"top-two\"\n").unwrap();
    assert_eq!(
        rules.playoff,
        Playoff::TopTwo {
            final_round: Series::FirstTo(3)
        }
    );
    let rules = parse_league_rules("[playoff]\nformat = \"none\"\n").unwrap();
    assert_eq!(rules.playoff, Playoff::None);
    let rules = parse_challengers_rules("first_to = 7\nrule_set = \"2T+\"\n").unwrap();
    assert_eq!(
        rules,
        ChallengersRules {
            first_to: 7,
            rule_set: RuleSet::Masters,
            ..ChallengersRules::default()
        }
    );
}

#[test]
fn first_to_3_is_refused_with_the_documents_words() {
    let e = challengers_file_error("format = \"xmadn-challengers\"\nfirst_to = 3\n");
    assert_eq!(e.field.as_deref(), Some("first_to"));
    assert_eq!((e.line, e.column), (Some(2), Some(12)));
    says(
        &e,
        "first-to-3 is refused: the distance is from 4 to 99 (\"The minimum distance shall be first-to-4, thus making sure that each player will have at least two at-boards\")",
    );
    assert!(e.message.ends_with("[XMadn Challengers]"), "{}", e.message);
    assert!(
        e.to_string()
            .starts_with("rules file, line 2, column 12, field `first_to`: first-to-3 is refused"),
        "{e}"
    );
    let e = challengers_file_error("min_first_to = 3\n");
    assert_eq!(e.field.as_deref(), Some("min_first_to"));
    says(&e, "The minimum distance shall be first-to-4");
}

#[test]
fn an_unknown_setting_is_named_with_its_line() {
    let e = league_file_error("format = \"xmadn-league\"\ndouble_round_robin = 3\n");
    assert_eq!((e.line, e.column), (Some(2), Some(1)));
    assert_eq!(e.field.as_deref(), Some("double_round_robin"));
    assert!(
        e.message
            .starts_with("unknown field `double_round_robin`, expected one of"),
        "{}",
        e.message
    );
    says(&e, "`double_round_robins`");
    let e = league_file_error("[playoff]\nformat = \"top-two\"\nsemi_final = \"game\"\n");
    assert_eq!((e.line, e.column), (Some(3), Some(1)));
    assert_eq!(e.field.as_deref(), Some("playoff.semi_final"));
    let e = challengers_file_error("first_to = 5\nstar_colors = []\n");
    assert_eq!(e.line, Some(2));
    assert_eq!(e.field.as_deref(), Some("star_colors"));
    says(&e, "`star_colours`");
}

#[test]
fn colour_lists_with_duplicates_are_refused() {
    let e = league_file_error("board_colours = [\"red\", \"blue\", \"red\", \"yellow\"]\n");
    assert_eq!(e.field.as_deref(), Some("board_colours"));
    assert_eq!((e.line, e.column), (Some(1), Some(17)));
    says(
        &e,
        "the board has 4 different colours; got red, blue, red, yellow",
    );
    let e = challengers_file_error(
        "star_colours = [\"red\", \"orange\", \"yellow\", \"green\", \"blue\", \"blue\"]\n",
    );
    assert_eq!(e.field.as_deref(), Some("star_colours"));
    says(&e, "6 different colours");
    let e = challengers_file_error("board_colours = [\"red\", \"blue\", \"green\"]\n");
    assert_eq!(e.field.as_deref(), Some("board_colours"));
}

#[test]
fn values_the_rules_refuse_are_named() {
    let e = league_file_error("double_round_robins = 0\n");
    assert_eq!(e.field.as_deref(), Some("double_round_robins"));
    assert_eq!((e.line, e.column), (Some(1), Some(23)));
    says(&e, "1 to 20 double round-robins");
    let e = league_file_error("die_faces = 1\n");
    assert_eq!(e.field.as_deref(), Some("die_faces"));
    let e = league_file_error("restart_min_tie = 2\n");
    assert_eq!(e.field.as_deref(), Some("restart_min_tie"));
    says(&e, "a tie involving more than two players");
    let e = league_file_error("[playoff]\nfinal = \"first-to-1\"\n");
    assert_eq!(e.field.as_deref(), Some("playoff.final"));
    assert_eq!((e.line, e.column), (Some(2), Some(9)));
    says(&e, "x from 2 to 99");
}

#[test]
fn bad_values_in_rules_files_are_named() {
    let e = league_file_error("rule_set = \"3T\"\n");
    assert_eq!(e.field.as_deref(), Some("rule_set"));
    assert_eq!((e.line, e.column), (Some(1), Some(12)));
    says(
        &e,
        "unknown rule set \"3T\": expected \"2T\" (Championship) or \"2T+\" (Masters)",
    );
    let e = league_file_error("[playoff]\nformat = \"everyone\"\n");
    assert_eq!(e.field.as_deref(), Some("playoff.format"));
    says(&e, "`all-three`");
    let e = league_file_error("[playoff]\nqualifying = \"first to 3\"\n");
    assert_eq!(e.field.as_deref(), Some("playoff.qualifying"));
    says(&e, "\"first-to-N\"");
    let e = league_file_error("die_faces = 300\n");
    assert_eq!(e.field.as_deref(), Some("die_faces"));
    let e = league_file_error("head_start = \"yes\"\n");
    assert_eq!(e.field.as_deref(), Some("head_start"));
    let e = league_file_error("playoff = \"top-two\"\n");
    assert_eq!(e.field.as_deref(), Some("playoff"));
    says(&e, "a table such as [playoff]");
    let e = challengers_file_error("board_colours = \"red\"\n");
    assert_eq!(e.field.as_deref(), Some("board_colours"));
}

#[test]
fn playoff_settings_its_format_does_not_have_are_refused() {
    let e = league_file_error("[playoff]\nformat = \"none\"\nfinal = \"game\"\n");
    assert_eq!(e.field.as_deref(), Some("playoff.final"));
    assert_eq!((e.line, e.column), (Some(3), Some(9)));
    says(&e, "no final");
    let e = league_file_error("[playoff]\nformat = \"top-two\"\nqualifying = \"game\"\n");
    assert_eq!(e.field.as_deref(), Some("playoff.qualifying"));
    assert_eq!(e.line, Some(3));
    says(&e, "all three players");
}

#[test]
fn invalid_toml_is_placed() {
    let e = league_file_error("rule_set = \"2T\"\ndie_faces = \n");
    assert_eq!(e.line, Some(2));
    assert_eq!(e.field.as_deref(), Some("die_faces"));
}

fn colour() -> impl Strategy<Value = String> {
    text().prop_filter("a colour is not blank", |c| !c.trim().is_empty())
}

fn distinct(n: usize) -> impl Strategy<Value = Vec<String>> {
    vec(colour(), n).prop_filter("the colours differ", |v| {
        v.iter().enumerate().all(|(i, c)| !v[..i].contains(c))
    })
}

fn valid_series() -> impl Strategy<Value = Series> {
    prop_oneof![Just(Series::Game), (2..=99u32).prop_map(Series::FirstTo)]
}

fn valid_league_rules() -> impl Strategy<Value = LeagueRules> {
    (
        rule_set(),
        1..=20u32,
        prop_oneof![
            Just(Playoff::None),
            valid_series().prop_map(|final_round| Playoff::TopTwo { final_round }),
            (valid_series(), valid_series()).prop_map(|(qualifying, final_round)| {
                Playoff::AllThree {
                    qualifying,
                    final_round,
                }
            }),
        ],
        any::<bool>(),
        2..=100u8,
        distinct(4),
    )
        .prop_map(
            |(rule_set, drr, playoff, head_start, die_faces, board)| LeagueRules {
                rule_set,
                double_round_robins: drr,
                playoff,
                head_start,
                die_faces,
                restart_min_tie: 3,
                board_colours: board,
            },
        )
}

fn valid_challengers_rules() -> impl Strategy<Value = ChallengersRules> {
    (rule_set(), 4..=99u32, distinct(4), distinct(6)).prop_flat_map(
        |(rule_set, min, board, star)| {
            (min..=99u32).prop_map(move |first_to| ChallengersRules {
                rule_set,
                first_to,
                min_first_to: min,
                board_colours: board.clone(),
                star_colours: star.clone(),
            })
        },
    )
}

proptest! {
    #[test]
    fn league_rules_to_toml_round_trips(rules in valid_league_rules()) {
        let text = league_rules_to_toml(&rules);
        prop_assert_eq!(parse_league_rules(&text), Ok(rules), "{}", text);
    }

    #[test]
    fn challengers_rules_to_toml_round_trips(rules in valid_challengers_rules()) {
        let text = challengers_rules_to_toml(&rules);
        prop_assert_eq!(parse_challengers_rules(&text), Ok(rules), "{}", text);
    }

    #[test]
    fn rules_files_never_panic(text in "[a-z_=\"\\[\\]0-9 +\n-]{0,80}") {
        let _ = parse_league_rules(&text);
        let _ = parse_challengers_rules(&text);
    }
}

#[test]
fn a_sunjang_record_is_refused_naming_its_format() {
    let line = r#"{"v":1,"type":"sunjang-gave-way","player":4}"#;
    for e in [
        decode_league(line).map(drop),
        decode_challengers(line).map(drop),
    ] {
        let e = e.expect_err("another format");
        assert!(e.to_string().contains("a Sunjang league event"), "{e}");
    }
}

/// ARB-R65: a result entered by the pawns brought home keeps them in an
/// optional field; a result of an older log (without it) reads as before.
/// ARB-R64: entered faces are their own events.
#[test]
fn pawns_brought_home_and_entered_faces_round_trip() {
    use arbiter_engine::xmadn::Home;
    let with = LEvent::ResultRecorded {
        game: GameId(4),
        score: score(4, 3, 750),
        home: Some([
            Home {
                vanguard: 4,
                rearguard: 1,
            },
            Home {
                vanguard: 2,
                rearguard: 3,
            },
        ]),
        at: t("2026-03-01T19:00:00Z"),
    };
    let json = encode_league(&with);
    assert!(
        json.contains(r#""home":[{"vanguard":4,"rearguard":1},{"vanguard":2,"rearguard":3}]"#),
        "{json}"
    );
    assert_eq!(decode_league(&json), Ok(with));
    let old = r#"{"v":1,"type":"league-result-recorded","game":4,"score":{"pawns":[4,2],"seconds":750},"at":"2026-03-01T19:00:00Z"}"#;
    let LEvent::ResultRecorded { home, .. } = decode_league(old).expect("an old result reads")
    else {
        panic!()
    };
    assert_eq!(home, None);
    for e in [
        LEvent::PositionsEntered {
            drr: 1,
            rounds: vec![vec![(PlayerId(1), 5), (PlayerId(2), 2), (PlayerId(3), 6)]],
            positions: [PlayerId(3), PlayerId(1), PlayerId(2)],
            by: "alice".into(),
            at: t("2026-03-01T19:00:00Z"),
        },
        LEvent::TiebreakEntered {
            players: vec![PlayerId(1), PlayerId(2)],
            rounds: vec![
                vec![(PlayerId(1), 3), (PlayerId(2), 3)],
                vec![(PlayerId(1), 1), (PlayerId(2), 4)],
            ],
            by: "alice".into(),
            at: t("2026-03-01T19:00:00Z"),
        },
    ] {
        let json = encode_league(&e);
        assert!(json.contains(r#""by":"alice""#), "{json}");
        assert_eq!(decode_league(&json), Ok(e));
    }
    // A Challengers game keeps them too; an older one reads without.
    let game = CEvent::GamePlayed {
        number: 1,
        players: [PlayerId(1), PlayerId(2)],
        score: score(3, 4, 600),
        home: Some([
            Home {
                vanguard: 2,
                rearguard: 3,
            },
            Home {
                vanguard: 4,
                rearguard: 1,
            },
        ]),
        at: t("2026-03-01T19:00:00Z"),
    };
    let json = encode_challengers(&game);
    assert!(
        json.contains(r#""home":[{"vanguard":2,"rearguard":3},{"vanguard":4,"rearguard":1}]"#),
        "{json}"
    );
    assert_eq!(decode_challengers(&json), Ok(game));
    let old = r#"{"v":1,"type":"challengers-game-played","number":1,"players":[1,2],"score":{"pawns":[3,4],"seconds":600},"at":"2026-03-01T19:00:00Z"}"#;
    let CEvent::GamePlayed { home, .. } = decode_challengers(old).expect("an old game reads")
    else {
        panic!()
    };
    assert_eq!(home, None);
}
