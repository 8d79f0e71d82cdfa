//! The Sunjang league format: every event round-trips (hand-built samples
//! frozen as snapshots, and random events); malformed records give errors
//! naming what is wrong; the rules file and its preset.

#![allow(clippy::unwrap_used)]

mod common;

use arbiter_engine::model::PlayerId;
use arbiter_engine::report::Confirmer;
use arbiter_engine::sunjang::carry::{
    CarriedGame, CarriedPlayer, CarriedResult, CarriedSeason, SeasonCarryOver,
};
use arbiter_engine::sunjang::group::Outcome;
use arbiter_engine::sunjang::layout::Moved;
use arbiter_engine::sunjang::planner::PreviousDivision;
use arbiter_engine::sunjang::rules::{GroupCount, MOST_WIN_HALVES};
use arbiter_engine::sunjang::season::{
    Event, Note, OrganizerLayout, PlacedPlayer, SeasonClose, SeasonPlan,
};
use arbiter_engine::sunjang::{GroupId, PlayerInfo, Rank, Restriction, Restrictions, SunjangRules};
use arbiter_record::{
    FORMAT_VERSION, PRESETS, RecordError, RulesFileError, SUNJANG_LEAGUE_PRESET, decode,
    decode_challengers, decode_league, decode_sunjang, encode, encode_league, encode_sunjang,
    parse_sunjang_rules, preset, sunjang_rules_to_toml,
};
use common::{file_error, malformed, p, player, says, t, text, time};
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;

fn group(division: u32, number: u32) -> GroupId {
    GroupId::new(division, number)
}

fn note(clause: &str, rulings: &[&str], text: &str) -> Note {
    Note {
        clause: clause.into(),
        rulings: rulings.iter().map(|r| (*r).to_string()).collect(),
        text: text.into(),
    }
}

fn row(strongest: Rank, weakest: Rank, highest: u32, lowest: u32) -> Restriction {
    Restriction {
        strongest,
        weakest,
        highest,
        lowest,
    }
}

/// The preset's restrictions: the shape of the document's example.
fn example_restrictions() -> Restrictions {
    Restrictions {
        rows: vec![
            row(Rank::Dan(9), Rank::Dan(1), 0, 0),
            row(Rank::Kyu(1), Rank::Kyu(5), 0, 1),
            row(Rank::Kyu(6), Rank::Kyu(10), 0, 2),
            row(Rank::Kyu(11), Rank::Kyu(15), 1, 2),
            row(Rank::Kyu(16), Rank::Kyu(20), 1, 2),
            row(Rank::Kyu(21), Rank::Kyu(30), 2, 2),
        ],
    }
}

fn info(name: &str, rank: Rank, rating: i32) -> PlayerInfo {
    PlayerInfo {
        name: name.into(),
        rank,
        provisional: false,
        rating,
        corr_rank: None,
        corr_rating: None,
    }
}

/// One sample of every event, and of every outcome, rank form and optional
/// value inside.
fn samples() -> Vec<(&'static str, Event)> {
    let at = t("2026-03-01T19:00:00Z");
    vec![
        (
            "sunjang-created",
            Event::Created {
                name: "Sunjang Baduk 2026".into(),
                rules: SunjangRules::default(),
                restrictions: example_restrictions(),
            },
        ),
        (
            "sunjang-created-other-rules",
            Event::Created {
                name: "Sunjang \"small\"".into(),
                rules: SunjangRules {
                    ideal_group_size: 6,
                    deviation: 1,
                    group_count: GroupCount::Fewest,
                    win_points: 4,
                    jigo_points: 1,
                    start_points_per_division: 3,
                    provisional_promotable: true,
                    final_round_min_place: 3,
                    ..SunjangRules::default()
                },
                restrictions: Restrictions::default(),
            },
        ),
        (
            "sunjang-player-registered",
            Event::PlayerRegistered {
                player: p(1),
                info: PlayerInfo {
                    name: "Hikaru".into(),
                    rank: Rank::Dan(3),
                    provisional: false,
                    rating: 2010,
                    corr_rank: Some(Rank::Dan(2)),
                    corr_rating: Some(1950),
                },
            },
        ),
        (
            "sunjang-player-registered-bare",
            Event::PlayerRegistered {
                player: p(2),
                info: PlayerInfo {
                    provisional: true,
                    ..info("Akari", Rank::Kyu(25), 650)
                },
            },
        ),
        (
            "sunjang-player-updated",
            Event::PlayerUpdated {
                player: p(2),
                info: PlayerInfo {
                    corr_rank: Some(Rank::Kyu(30)),
                    ..info("Akari", Rank::Kyu(12), -15)
                },
            },
        ),
        (
            "sunjang-player-withdrawn",
            Event::PlayerWithdrawn {
                player: p(7),
                reason: "moved abroad".into(),
            },
        ),
        (
            "sunjang-player-returned",
            Event::PlayerReturned { player: p(7) },
        ),
        (
            "sunjang-restrictions-changed",
            Event::RestrictionsChanged {
                restrictions: Restrictions {
                    rows: vec![
                        row(Rank::Dan(9), Rank::Kyu(3), 0, 1),
                        row(Rank::Kyu(4), Rank::Kyu(30), 1, 27),
                    ],
                },
                reason: "C.3: A would pass its cap".into(),
            },
        ),
        (
            "sunjang-season-planned",
            Event::SeasonPlanned(Box::new(SeasonPlan {
                season: 2,
                divisions: vec![
                    vec![vec![p(1), p(4)], vec![p(2), p(3)]],
                    vec![vec![p(5), p(6), p(7)]],
                ],
                placements: vec![
                    PlacedPlayer {
                        player: p(1),
                        group: group(0, 1),
                        seed: 1,
                        explanation: note(
                            "Sunjang B.1",
                            &["SJ-R5"],
                            "direct promotion B to A, leader of B2",
                        ),
                    },
                    PlacedPlayer {
                        player: p(5),
                        group: group(1, 1),
                        seed: 1,
                        explanation: note("Sunjang C.3", &[], "promoted by rank (3d)"),
                    },
                ],
                notes: vec![note(
                    "Sunjang A.i.3",
                    &["SJ-R2", "SJ-R3"],
                    "A: 4 players in 2 groups (2, 2)",
                )],
                cancelled: None,
                layout: None,
                at,
            })),
        ),
        (
            "sunjang-season-planned-layout",
            Event::SeasonPlanned(Box::new(SeasonPlan {
                season: 3,
                divisions: vec![vec![vec![p(1), p(2), p(3), p(4), p(5)]]],
                placements: vec![PlacedPlayer {
                    player: p(4),
                    group: group(0, 1),
                    seed: 4,
                    explanation: note(
                        "Sunjang A. Divisions & Groups",
                        &["ARB-R55"],
                        "Dee: moved by the organizer from B1 to A1: travels",
                    ),
                }],
                notes: Vec::new(),
                cancelled: None,
                layout: Some(OrganizerLayout {
                    reason: "travels in spring".into(),
                    moves: vec![
                        Moved {
                            player: p(4),
                            planned: Some(group(1, 1)),
                            placed: group(0, 1),
                        },
                        Moved {
                            player: p(5),
                            planned: None,
                            placed: group(0, 1),
                        },
                    ],
                }),
                at: t("2026-01-01T00:00:00Z"),
            })),
        ),
        (
            "sunjang-season-planned-cancelled",
            Event::SeasonPlanned(Box::new(SeasonPlan {
                season: 1,
                divisions: Vec::new(),
                placements: Vec::new(),
                notes: Vec::new(),
                cancelled: Some(note(
                    "Sunjang footnote 2",
                    &[],
                    "4 players: fewer than 5, the season is cancelled",
                )),
                layout: None,
                at: t("2026-01-01T00:00:00.25Z"),
            })),
        ),
        (
            "sunjang-result-recorded",
            Event::ResultRecorded {
                season: 2,
                group: group(1, 2),
                black: p(7),
                white: p(12),
                outcome: Outcome::Jigo,
                at,
            },
        ),
        (
            "sunjang-result-recorded-black-wins",
            Event::ResultRecorded {
                season: 1,
                group: group(0, 1),
                black: p(1),
                white: p(2),
                outcome: Outcome::BlackWins,
                at,
            },
        ),
        (
            // The only group of B, named by its letter ("the division
            // letter plus a number (if necessary)", Sunjang Definitions:
            // Group); older samples say "B1" and read as written.
            "sunjang-result-recorded-only-group",
            Event::ResultRecorded {
                season: 3,
                group: GroupId::only(1),
                black: p(5),
                white: p(6),
                outcome: Outcome::BlackWins,
                at,
            },
        ),
        (
            "sunjang-result-recorded-white-forfeits",
            Event::ResultRecorded {
                season: 1,
                group: group(26, 10),
                black: p(3),
                white: p(4),
                outcome: Outcome::WhiteForfeits,
                at,
            },
        ),
        (
            "sunjang-result-corrected",
            Event::ResultCorrected {
                season: 2,
                group: group(1, 2),
                black: p(7),
                white: p(12),
                outcome: Outcome::WhiteWins,
                reason: "the jigo was a half-point win".into(),
                at,
            },
        ),
        (
            "sunjang-result-corrected-forfeits",
            Event::ResultCorrected {
                season: 2,
                group: group(2, 1),
                black: p(8),
                white: p(9),
                outcome: Outcome::BothForfeit,
                reason: "neither played".into(),
                at,
            },
        ),
        (
            "sunjang-result-corrected-black-forfeits",
            Event::ResultCorrected {
                season: 2,
                group: group(2, 1),
                black: p(8),
                white: p(10),
                outcome: Outcome::BlackForfeits,
                reason: "timed out before move 1".into(),
                at,
            },
        ),
        ("sunjang-gave-way", Event::GaveWay { player: p(4) }),
        (
            "sunjang-live-match-won",
            Event::LiveMatchWon {
                winner: p(3),
                loser: p(8),
            },
        ),
        (
            "sunjang-season-closed",
            Event::SeasonClosed(Box::new(SeasonClose {
                season: 2,
                divisions: vec![
                    PreviousDivision {
                        ranking: vec![p(1), p(3), p(2), p(4)],
                        group_leaders: vec![p(1), p(3)],
                        groups: vec![2, 2],
                    },
                    PreviousDivision {
                        ranking: vec![p(6), p(5), p(7)],
                        group_leaders: vec![p(6)],
                        groups: vec![3],
                    },
                ],
                at,
            })),
        ),
        (
            "sunjang-carried-over",
            Event::SeasonCarriedOver(Box::new(SeasonCarryOver {
                records: CarriedSeason {
                    season: 4,
                    players: vec![
                        CarriedPlayer {
                            info: info("Lee Chang", Rank::Dan(3), 2410),
                            group: GroupId::only(0),
                            gamepoints: 3,
                            sodos: 2,
                            place: Some(1),
                            withdrawn: false,
                        },
                        CarriedPlayer {
                            info: info("Kim Ha", Rank::Kyu(2), 1980),
                            group: GroupId::only(0),
                            gamepoints: 1,
                            sodos: 3,
                            place: None,
                            withdrawn: true,
                        },
                    ],
                    games: vec![
                        CarriedGame {
                            players: [p(1), p(2)],
                            result: CarriedResult::FirstWon,
                        },
                        CarriedGame {
                            players: [p(2), p(1)],
                            result: CarriedResult::Jigo,
                        },
                        CarriedGame {
                            players: [p(1), p(2)],
                            result: CarriedResult::BothForfeit,
                        },
                    ],
                    champion: Some(p(1)),
                },
                source: "OGS tournament 4 final tables".into(),
                by: "Jordan Park".into(),
                at,
            })),
        ),
        (
            "sunjang-final-qualified",
            Event::FinalQualified {
                season: 2,
                players: vec![p(1), p(3), p(2)],
                advantaged: vec![p(3)],
                void: false,
                at,
            },
        ),
        (
            "sunjang-final-qualified-void",
            Event::FinalQualified {
                season: 3,
                players: Vec::new(),
                advantaged: Vec::new(),
                void: true,
                at,
            },
        ),
        (
            "sunjang-final-game-played",
            Event::FinalGamePlayed {
                season: 2,
                black: p(3),
                white: p(1),
                outcome: Outcome::BlackWins,
                at,
            },
        ),
        (
            "sunjang-final-withdrawn",
            Event::FinalWithdrawn {
                season: 2,
                player: p(2),
                at,
            },
        ),
        (
            "sunjang-result-reported",
            Event::ResultReported {
                season: 2,
                group: group(1, 2),
                black: p(7),
                white: p(12),
                outcome: Outcome::Jigo,
                by: p(12),
                at,
            },
        ),
        (
            "sunjang-result-confirmed",
            Event::ResultConfirmed {
                season: 2,
                group: group(1, 2),
                black: p(7),
                white: p(12),
                by: Confirmer::Player(p(7)),
                at,
            },
        ),
        (
            "sunjang-report-disputed",
            Event::ReportDisputed {
                season: 2,
                group: group(1, 2),
                black: p(7),
                white: p(12),
                by: Confirmer::Moderator("mod".into()),
                reason: "white resigned".into(),
                at,
            },
        ),
        (
            "sunjang-reverted",
            Event::Reverted {
                seq: 41,
                summary: "undo: result of B2 7-12".into(),
            },
        ),
    ]
}

fn sample(name: &str) -> Event {
    samples()
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, e)| e)
        .unwrap()
}

// ---------------------------------------------------------------------------
// Samples.

#[test]
fn every_sample_round_trips() {
    for (name, event) in samples() {
        let json = encode_sunjang(&event);
        assert!(!json.contains('\n'), "{name}: one line");
        assert_eq!(decode_sunjang(&json), Ok(event), "{name}: {json}");
    }
}

#[test]
fn samples_cover_every_event_kind() {
    let kinds: std::collections::BTreeSet<&str> = samples().iter().map(|(_, e)| e.kind()).collect();
    assert_eq!(kinds.len(), 20, "{kinds:?}");
}

#[test]
fn type_is_the_event_kind_and_v_comes_first() {
    for (name, event) in samples() {
        let json = encode_sunjang(&event);
        let prefix = format!("{{\"v\":{FORMAT_VERSION},\"type\":\"{}\"", event.kind());
        assert!(json.starts_with(&prefix), "{name}: {json}");
    }
}

#[test]
fn sunjang_v1_json_is_frozen() {
    for (name, event) in samples() {
        insta::assert_snapshot!(name, encode_sunjang(&event));
    }
}

#[test]
fn the_shapes_are_the_documented_ones() {
    assert_eq!(
        encode_sunjang(&sample("sunjang-result-recorded")),
        r#"{"v":1,"type":"sunjang-result-recorded","season":2,"group":"B2","black":7,"white":12,"outcome":"jigo","at":"2026-03-01T19:00:00Z"}"#
    );
    assert_eq!(
        encode_sunjang(&sample("sunjang-live-match-won")),
        r#"{"v":1,"type":"sunjang-live-match-won","winner":3,"loser":8}"#
    );
    let json = encode_sunjang(&sample("sunjang-created"));
    assert!(
        json.contains(
            r#""win_half_points":2,"jigo_half_points":1,"start_half_points_per_division":20"#
        ),
        "{json}"
    );
    assert!(json.contains(r#""group_count":"nearest-ideal""#), "{json}");
    assert!(
        json.contains(r#"{"strongest":"1k","weakest":"5k","highest":"A","lowest":"B"}"#),
        "{json}"
    );
    let json = encode_sunjang(&sample("sunjang-player-registered-bare"));
    assert!(
        !json.contains("corr_"),
        "optional values are left out: {json}"
    );
    let json = encode_sunjang(&sample("sunjang-season-planned"));
    assert!(
        json.contains(r#""divisions":[[[1,4],[2,3]],[[5,6,7]]]"#),
        "{json}"
    );
    assert!(
        json.contains(r#"{"player":1,"group":"A1","seed":1,"explanation":{"clause":"Sunjang B.1","rulings":["SJ-R5"],"text":"direct promotion B to A, leader of B2"}}"#),
        "{json}"
    );
    assert!(!json.contains("cancelled"), "{json}");
    let json = encode_sunjang(&sample("sunjang-result-recorded-white-forfeits"));
    assert!(json.contains(r#""group":"AA10""#), "{json}");
    assert!(json.contains(r#""outcome":"white-forfeits""#), "{json}");
    let json = encode_sunjang(&sample("sunjang-result-corrected-forfeits"));
    assert!(json.contains(r#""outcome":"both-forfeit""#), "{json}");
}

#[test]
fn keys_in_any_order_are_read() {
    let json = r#"{"outcome":"black-forfeits","white":2,"black":1,"group":"C3","type":"sunjang-final-game-played","season":4,"at":"2026-03-01T20:00:00+01:00","v":1}"#;
    let m = error(json);
    assert!(m.contains("unknown field `group`"), "{m}");
    let json = r#"{"outcome":"black-forfeits","white":2,"black":1,"type":"sunjang-final-game-played","season":4,"at":"2026-03-01T20:00:00+01:00","v":1}"#;
    assert_eq!(
        decode_sunjang(json),
        Ok(Event::FinalGamePlayed {
            season: 4,
            black: p(1),
            white: p(2),
            outcome: Outcome::BlackForfeits,
            at: t("2026-03-01T19:00:00Z"),
        })
    );
}

#[test]
fn reverted_reads_the_same_in_every_format() {
    let tws = encode(&arbiter_engine::tws::Event::Reverted {
        seq: 9,
        summary: "undo".into(),
    });
    let reverted = Event::Reverted {
        seq: 9,
        summary: "undo".into(),
    };
    assert_eq!(encode_sunjang(&reverted), tws);
    assert_eq!(decode_sunjang(&tws), Ok(reverted.clone()));
    assert!(decode_league(&encode_sunjang(&reverted)).is_ok());
    assert!(decode_challengers(&encode_sunjang(&reverted)).is_ok());
}

// ---------------------------------------------------------------------------
// Malformed records.

#[track_caller]
fn error(json: &str) -> String {
    malformed(decode_sunjang(json), json)
}

const AT: &str = "2026-03-01T19:00:00Z";

fn recorded(fields: &str) -> String {
    format!(r#"{{"v":1,"type":"sunjang-result-recorded","at":"{AT}",{fields}}}"#)
}

#[test]
fn another_version_is_refused_before_its_body_is_read() {
    let json = r#"{"v":2,"type":"sunjang-result-recorded","group":"B0","future":[1]}"#;
    assert_eq!(
        decode_sunjang(json),
        Err(RecordError::Version {
            found: 2,
            supported: 1
        })
    );
}

#[test]
fn an_unknown_field_is_named_with_the_event_type() {
    let m = error(&recorded(
        r#""season":1,"group":"A1","black":1,"white":2,"outcome":"jigo","komi":6.5"#,
    ));
    assert!(m.starts_with("`sunjang-result-recorded` event: "), "{m}");
    assert!(m.contains("unknown field `komi`"), "{m}");
    assert!(m.contains("line 1 column"), "{m}");
    let created = encode_sunjang(&sample("sunjang-created"));
    let m = error(&created.replace(r#""lowest":"B"}"#, r#""lowest":"B","note":"x"}"#));
    assert!(m.contains("unknown field `note`"), "{m}");
    let m = error(&created.replace("\"win_half_points\"", "\"win_points\""));
    assert!(m.contains("unknown field `win_points`"), "{m}");
    let planned = encode_sunjang(&sample("sunjang-season-planned"));
    let m = error(&planned.replace(r#""text":"A: 4"#, r#""why":"","text":"A: 4"#));
    assert!(m.contains("unknown field `why`"), "{m}");
    let m = error(
        &encode_sunjang(&sample("sunjang-player-registered"))
            .replace(r#""rating":2010"#, r#""rating":2010,"country":"JP""#),
    );
    assert!(m.contains("unknown field `country`"), "{m}");
}

#[test]
fn a_missing_field_is_named() {
    let m = error(&recorded(r#""season":1,"group":"A1","black":1,"white":2"#));
    assert!(m.contains("missing field `outcome`"), "{m}");
    let m = error(r#"{"v":1,"type":"sunjang-live-match-won","winner":3}"#);
    assert!(m.contains("missing field `loser`"), "{m}");
    let created = encode_sunjang(&sample("sunjang-created"));
    let m = error(&created.replace(r#""provisional_promotable":false,"#, ""));
    assert!(m.contains("missing field `provisional_promotable`"), "{m}");
    let m = error(
        &encode_sunjang(&sample("sunjang-season-planned"))
            .replace(r#""notes":[{"#, r#""notez":[{"#),
    );
    assert!(m.contains("notez"), "{m}");
}

#[test]
fn an_unknown_type_is_named_with_the_known_ones() {
    let m = error(r#"{"v":1,"type":"sunjang-teleported","player":3}"#);
    assert!(m.contains("unknown variant `sunjang-teleported`"), "{m}");
    assert!(m.contains("`sunjang-result-recorded`"), "{m}");
}

#[test]
fn an_event_of_another_format_says_which() {
    let tws = encode(&arbiter_engine::tws::Event::PlayerApproved { player: p(3) });
    let m = error(&tws);
    assert!(
        m.starts_with(
            "`player-approved` is a Twilight Struggle ladder event, not a Sunjang league event"
        ),
        "{m}"
    );
    assert!(m.contains("sunjang-result-recorded"), "{m}");
    let league = encode_league(&arbiter_engine::xmadn::league::Event::DrrCancelled {
        drr: 1,
        note: "n".into(),
        at: t(AT),
    });
    let m = error(&league);
    assert!(
        m.starts_with(
            "`league-drr-cancelled` is an XMadn league event, not a Sunjang league event"
        ),
        "{m}"
    );
    // And the other decoders refuse Sunjang events.
    let json = encode_sunjang(&sample("sunjang-result-recorded"));
    assert!(decode(&json).is_err());
    assert!(decode_league(&json).is_err());
    assert!(decode_challengers(&json).is_err());
}

#[test]
fn ids_and_seasons_start_at_1() {
    let m = error(&recorded(
        r#""season":1,"group":"A1","black":0,"white":2,"outcome":"jigo""#,
    ));
    assert!(m.contains("expected a player id (ids start at 1)"), "{m}");
    let m = error(&recorded(
        r#""season":0,"group":"A1","black":1,"white":2,"outcome":"jigo""#,
    ));
    assert!(
        m.contains("expected a season number (seasons count from 1)"),
        "{m}"
    );
    let closed = encode_sunjang(&sample("sunjang-season-closed"));
    let m = error(&closed.replace(r#""group_leaders":[6]"#, r#""group_leaders":[0]"#));
    assert!(m.contains("ids start at 1"), "{m}");
    let planned = encode_sunjang(&sample("sunjang-season-planned"));
    let m = error(&planned.replace("[[5,6,7]]", "[[5,0,7]]"));
    assert!(m.contains("ids start at 1"), "{m}");
}

/// "They are denoted by the division letter plus a number (if necessary)"
/// (Sunjang Definitions: Group). A log written before the only group of a
/// division was named by its letter says "B1" for it: it still loads, the
/// league names that group "B", results recorded in "B1" land in it, and
/// the stored events are not rewritten.
#[test]
fn an_old_log_naming_the_only_group_of_b_b1_loads_and_reads_b() {
    use arbiter_engine::sunjang::season::League;
    let registered = |id: u32, name: &str| {
        format!(
            r#"{{"v":1,"type":"sunjang-player-registered","player":{id},"info":{{"name":"{name}","rank":"1k","provisional":false,"rating":1800}}}}"#
        )
    };
    let planned = r#"{"v":1,"type":"sunjang-season-planned","season":1,"divisions":[[[1,4],[2,3]],[[5,6,7]]],"placements":[{"player":1,"group":"A1","seed":1,"explanation":{"clause":"Sunjang B.1","rulings":[],"text":"Ann: first season"}},{"player":5,"group":"B1","seed":1,"explanation":{"clause":"Sunjang C.3","rulings":[],"text":"Eve: first season"}}],"notes":[],"layout":{"reason":"travels","moves":[{"player":5,"planned":"A2","placed":"B1"}]},"at":"2026-03-01T19:00:00Z"}"#;
    let mut log = vec![encode_sunjang(&sample("sunjang-created"))];
    for (i, n) in ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
        .iter()
        .enumerate()
    {
        log.push(registered(i as u32 + 1, n));
    }
    log.push(planned.to_string());
    let mut league = League::default();
    for line in &log {
        let e = decode_sunjang(line).unwrap();
        // Stored data is read as stored: encoding it again gives its bytes.
        assert_eq!(&encode_sunjang(&e), line);
        league.try_apply(&e).unwrap();
    }
    let s = league.current().unwrap();
    let names: Vec<Vec<String>> = s
        .divisions
        .iter()
        .map(|d| d.iter().map(|g| g.id.to_string()).collect())
        .collect();
    assert_eq!(names, vec![vec!["A1", "A2"], vec!["B"]]);
    let shown: Vec<String> = s
        .plan
        .placements
        .iter()
        .map(|p| p.group.to_string())
        .collect();
    assert_eq!(shown, vec!["A1", "B"]);
    let moved = &s.plan.layout.as_ref().unwrap().moves[0];
    assert_eq!(moved.placed.to_string(), "B");
    assert_eq!(moved.planned.map(|g| g.to_string()).as_deref(), Some("A2"));
    assert_eq!(league.group_named(1, group(1, 1)).to_string(), "B");
    assert_eq!(
        s.group_of(p(6)).map(|g| g.to_string()).as_deref(),
        Some("B")
    );
    // A result an old log recorded in "B1" is a result of B.
    let game = s.divisions[1][0]
        .games
        .iter()
        .find(|g| g.pairing.is_between(p(5), p(6)))
        .unwrap()
        .pairing;
    let result = format!(
        r#"{{"v":1,"type":"sunjang-result-recorded","season":1,"group":"B1","black":{},"white":{},"outcome":"jigo","at":"2026-03-02T19:00:00Z"}}"#,
        game.black.0, game.white.0
    );
    let e = decode_sunjang(&result).unwrap();
    assert_eq!(encode_sunjang(&e), result);
    league.try_apply(&e).unwrap();
    let s = league.current().unwrap();
    assert!(
        s.divisions[1][0]
            .games
            .iter()
            .any(|g| g.pairing.is_between(p(5), p(6)) && g.outcome == Some(Outcome::Jigo))
    );
    // A new log names the group "B", and reads it back so.
    let new = encode_sunjang(&Event::ResultRecorded {
        season: 1,
        group: s.divisions[1][0].id,
        black: game.black,
        white: game.white,
        outcome: Outcome::Jigo,
        at: t("2026-03-02T19:00:00Z"),
    });
    assert!(new.contains(r#""group":"B","#), "{new}");
    assert_eq!(
        decode_sunjang(&new).map(|e| encode_sunjang(&e)).as_deref(),
        Ok(new.as_str())
    );
}

#[test]
fn bad_ranks_are_refused() {
    let registered = encode_sunjang(&sample("sunjang-player-registered"));
    for bad in ["5p", "31k", "10d", "0k", "05k", "5K", "5 kyu", "3d?", ""] {
        let m = error(&registered.replace(r#""rank":"3d""#, &format!(r#""rank":"{bad}""#)));
        assert!(
            m.contains(&format!("invalid rank {bad:?}: expected a rank such as \"5k\" or \"3d\" (30k to 1k, then 1d to 9d)")),
            "{bad}: {m}"
        );
        assert!(m.contains("line 1 column"), "{m}");
    }
    let m = error(&registered.replace(r#""rank":"3d""#, r#""rank":3"#));
    assert!(m.contains("invalid type: integer `3`"), "{m}");
    let m = error(&registered.replace(r#""corr_rank":"2d""#, r#""corr_rank":"2p""#));
    assert!(m.contains("invalid rank \"2p\""), "{m}");
    let created = encode_sunjang(&sample("sunjang-created"));
    let m = error(&created.replace(r#""weakest":"30k""#, r#""weakest":"31k""#));
    assert!(m.contains("invalid rank \"31k\""), "{m}");
}

#[test]
fn bad_groups_and_divisions_are_refused() {
    for bad in [
        "B0",
        "B02",
        "b2",
        "b",
        "",
        "2",
        "B-2",
        "B2 ",
        "B ",
        "B99999999999",
    ] {
        let m = error(&recorded(&format!(
            r#""season":1,"group":"{bad}","black":1,"white":2,"outcome":"jigo""#
        )));
        assert!(
            m.contains(&format!("invalid group {bad:?}: expected a group: its division letter and its number from 1, such as \"A1\" or \"B2\", or the letter alone for the only group of its division, such as \"B\"")),
            "{bad}: {m}"
        );
    }
    let m = error(&recorded(
        r#""season":1,"group":{"division":1,"number":2},"black":1,"white":2,"outcome":"jigo""#,
    ));
    assert!(m.contains("invalid type: map"), "{m}");
    let created = encode_sunjang(&sample("sunjang-created"));
    let m = error(&created.replace(r#""lowest":"B""#, r#""lowest":"b""#));
    assert!(
        m.contains("invalid division \"b\": expected a division letter"),
        "{m}"
    );
    let m = error(&created.replace(r#""lowest":"B""#, r#""lowest":1"#));
    assert!(m.contains("invalid type: integer `1`"), "{m}");
}

#[test]
fn bad_values_are_refused() {
    let m = error(&recorded(
        r#""season":1,"group":"A1","black":1,"white":2,"outcome":"black-win""#,
    ));
    assert!(m.contains("unknown variant `black-win`"), "{m}");
    assert!(m.contains("`both-forfeit`"), "{m}");
    let created = encode_sunjang(&sample("sunjang-created"));
    let m = error(&created.replace("\"nearest-ideal\"", "\"nearest\""));
    assert!(m.contains("unknown variant `nearest`"), "{m}");
    let m = error(&created.replace(r#""jigo_half_points":1"#, r#""jigo_half_points":0.5"#));
    assert!(m.contains("invalid type: floating point `0.5`"), "{m}");
    let m = error(&encode_sunjang(&sample("sunjang-final-withdrawn")).replace(AT, "tomorrow"));
    assert!(m.contains("invalid time \"tomorrow\""), "{m}");
    let m = error(
        &encode_sunjang(&sample("sunjang-final-qualified")).replace("\"void\":false", "\"void\":0"),
    );
    assert!(
        m.contains("invalid type: integer `0`, expected a boolean"),
        "{m}"
    );
    let m = error(
        &encode_sunjang(&sample("sunjang-season-planned"))
            .replace(r#""rulings":["SJ-R5"]"#, r#""rulings":"SJ-R5""#),
    );
    assert!(
        m.contains("invalid type: string \"SJ-R5\", expected a sequence"),
        "{m}"
    );
}

#[test]
fn not_an_event_at_all() {
    for json in [
        "",
        "null",
        "[]",
        "3",
        "\"sunjang-created\"",
        "{",
        "{\"v\":1,",
    ] {
        assert!(!error(json).is_empty(), "{json}");
    }
    let m = error(r#"{"type":"sunjang-gave-way","player":1}"#);
    assert!(m.contains("missing field `v`"), "{m}");
}

#[test]
fn every_truncation_of_every_sample_is_an_error_not_a_panic() {
    for (name, event) in samples() {
        let json = encode_sunjang(&event);
        for end in 0..json.len() {
            if json.is_char_boundary(end) {
                assert!(decode_sunjang(&json[..end]).is_err(), "{name} cut at {end}");
            }
        }
    }
}

#[test]
fn a_truncated_record_says_where() {
    let json = encode_sunjang(&sample("sunjang-season-closed"));
    let m = error(&json[..json.len() - 10]);
    assert!(m.contains("EOF while parsing"), "{m}");
    assert!(m.contains("line 1 column"), "{m}");
}

// ---------------------------------------------------------------------------
// Random events.

fn rank() -> impl Strategy<Value = Rank> {
    prop_oneof![
        (1..=30u8).prop_map(Rank::Kyu),
        (1..=9u8).prop_map(Rank::Dan)
    ]
}

fn division() -> impl Strategy<Value = u32> {
    prop_oneof![0..4u32, any::<u32>()]
}

/// A group named with its number ("B2"), or by its letter alone as the
/// only group of its division ("B", Sunjang Definitions: Group).
fn any_group() -> impl Strategy<Value = GroupId> {
    prop_oneof![
        (division(), prop_oneof![1..=5u32, 1..=u32::MAX])
            .prop_map(|(division, number)| GroupId::new(division, number)),
        division().prop_map(GroupId::only),
    ]
}

fn outcome() -> impl Strategy<Value = Outcome> {
    prop_oneof![
        Just(Outcome::BlackWins),
        Just(Outcome::WhiteWins),
        Just(Outcome::Jigo),
        Just(Outcome::BlackForfeits),
        Just(Outcome::WhiteForfeits),
        Just(Outcome::BothForfeit),
    ]
}

fn any_note() -> impl Strategy<Value = Note> {
    (text(), vec(text(), 0..3), text()).prop_map(|(clause, rulings, text)| Note {
        clause,
        rulings,
        text,
    })
}

fn any_info() -> impl Strategy<Value = PlayerInfo> {
    (
        text(),
        rank(),
        any::<bool>(),
        any::<i32>(),
        option::of(rank()),
        option::of(any::<i32>()),
    )
        .prop_map(
            |(name, rank, provisional, rating, corr_rank, corr_rating)| PlayerInfo {
                name,
                rank,
                provisional,
                rating,
                corr_rank,
                corr_rating,
            },
        )
}

/// Any rules, valid or not: the record keeps what it is given.
fn any_rules() -> impl Strategy<Value = SunjangRules> {
    (
        any::<[u32; 9]>(),
        prop_oneof![Just(GroupCount::NearestIdeal), Just(GroupCount::Fewest)],
        any::<[u32; 5]>(),
        any::<bool>(),
        any::<u32>(),
    )
        .prop_map(
            |(sizes, group_count, points, provisional, place)| SunjangRules {
                ideal_group_size: sizes[0],
                deviation: sizes[1],
                min_group_size: sizes[2],
                main_division_groups: sizes[3],
                single_group_below: sizes[4],
                min_division_size: sizes[5],
                growth_factor: sizes[6],
                cap_base: sizes[7],
                min_season_players: sizes[8],
                group_count,
                win_points: points[0],
                jigo_points: points[1],
                start_points_per_division: points[2],
                min_direct_promotions: points[3],
                virtual_tie_rating: points[4],
                provisional_promotable: provisional,
                final_round_min_place: place,
            },
        )
}

/// Any restrictions, monotone or not.
fn any_restrictions() -> impl Strategy<Value = Restrictions> {
    vec(
        (rank(), rank(), division(), division()).prop_map(|(s, w, h, l)| row(s, w, h, l)),
        0..5,
    )
    .prop_map(|rows| Restrictions { rows })
}

fn pids(n: usize) -> impl Strategy<Value = Vec<PlayerId>> {
    vec(player(20), 0..n)
}

fn any_plan() -> impl Strategy<Value = SeasonPlan> {
    (
        1..=u32::MAX,
        vec(vec(pids(5), 0..3), 0..3),
        vec(
            (player(20), any_group(), any::<u32>(), any_note()).prop_map(
                |(player, group, seed, explanation)| PlacedPlayer {
                    player,
                    group,
                    seed,
                    explanation,
                },
            ),
            0..4,
        ),
        vec(any_note(), 0..3),
        option::of(any_note()),
        option::of(
            (
                "[a-z ]{0,20}",
                vec(
                    (player(20), option::of(any_group()), any_group()).prop_map(
                        |(player, planned, placed)| Moved {
                            player,
                            planned,
                            placed,
                        },
                    ),
                    0..3,
                ),
            )
                .prop_map(|(reason, moves)| OrganizerLayout { reason, moves }),
        ),
        time(),
    )
        .prop_map(
            |(season, divisions, placements, notes, cancelled, layout, at)| SeasonPlan {
                season,
                divisions,
                placements,
                notes,
                cancelled,
                layout,
                at,
            },
        )
}

fn any_close() -> impl Strategy<Value = SeasonClose> {
    (
        1..=u32::MAX,
        vec(
            (pids(6), pids(3), vec(any::<u32>(), 0..3)).prop_map(
                |(ranking, group_leaders, groups)| PreviousDivision {
                    ranking,
                    group_leaders,
                    groups,
                },
            ),
            0..3,
        ),
        time(),
    )
        .prop_map(|(season, divisions, at)| SeasonClose {
            season,
            divisions,
            at,
        })
}

fn season() -> impl Strategy<Value = u32> {
    prop_oneof![1..=5u32, 1..=u32::MAX]
}

/// Who confirmed or disputed a report (ARB-R45, ARB-R81).
fn confirmer() -> impl Strategy<Value = Confirmer> {
    prop_oneof![
        player(20).prop_map(Confirmer::Player),
        text().prop_map(Confirmer::Moderator)
    ]
}

fn event() -> impl Strategy<Value = Event> {
    prop_oneof![
        (text(), any_rules(), any_restrictions()).prop_map(|(name, rules, restrictions)| {
            Event::Created {
                name,
                rules,
                restrictions,
            }
        }),
        (player(20), any_info())
            .prop_map(|(player, info)| Event::PlayerRegistered { player, info }),
        (player(20), any_info()).prop_map(|(player, info)| Event::PlayerUpdated { player, info }),
        (player(20), text()).prop_map(|(player, reason)| Event::PlayerWithdrawn { player, reason }),
        player(20).prop_map(|player| Event::PlayerReturned { player }),
        (any_restrictions(), text()).prop_map(|(restrictions, reason)| {
            Event::RestrictionsChanged {
                restrictions,
                reason,
            }
        }),
        any_plan().prop_map(|plan| Event::SeasonPlanned(Box::new(plan))),
        (
            season(),
            any_group(),
            player(20),
            player(20),
            outcome(),
            time()
        )
            .prop_map(
                |(season, group, black, white, outcome, at)| Event::ResultRecorded {
                    season,
                    group,
                    black,
                    white,
                    outcome,
                    at,
                }
            ),
        (
            (season(), any_group(), player(20), player(20)),
            outcome(),
            player(20),
            time()
        )
            .prop_map(|((season, group, black, white), outcome, by, at)| {
                Event::ResultReported {
                    season,
                    group,
                    black,
                    white,
                    outcome,
                    by,
                    at,
                }
            }),
        (
            (season(), any_group(), player(20), player(20)),
            confirmer(),
            time()
        )
            .prop_map(|((season, group, black, white), by, at)| {
                Event::ResultConfirmed {
                    season,
                    group,
                    black,
                    white,
                    by,
                    at,
                }
            }),
        (
            (season(), any_group(), player(20), player(20)),
            confirmer(),
            text(),
            time()
        )
            .prop_map(|((season, group, black, white), by, reason, at)| {
                Event::ReportDisputed {
                    season,
                    group,
                    black,
                    white,
                    by,
                    reason,
                    at,
                }
            }),
        (
            season(),
            any_group(),
            player(20),
            player(20),
            outcome(),
            text(),
            time()
        )
            .prop_map(|(season, group, black, white, outcome, reason, at)| {
                Event::ResultCorrected {
                    season,
                    group,
                    black,
                    white,
                    outcome,
                    reason,
                    at,
                }
            }),
        player(20).prop_map(|player| Event::GaveWay { player }),
        (player(20), player(20)).prop_map(|(winner, loser)| Event::LiveMatchWon { winner, loser }),
        any_close().prop_map(|close| Event::SeasonClosed(Box::new(close))),
        (season(), pids(4), pids(3), any::<bool>(), time()).prop_map(
            |(season, players, advantaged, void, at)| Event::FinalQualified {
                season,
                players,
                advantaged,
                void,
                at,
            }
        ),
        (season(), player(20), player(20), outcome(), time()).prop_map(
            |(season, black, white, outcome, at)| Event::FinalGamePlayed {
                season,
                black,
                white,
                outcome,
                at,
            }
        ),
        (season(), player(20), time()).prop_map(|(season, player, at)| Event::FinalWithdrawn {
            season,
            player,
            at
        }),
        (any::<u64>(), text()).prop_map(|(seq, summary)| Event::Reverted { seq, summary }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_events_round_trip(event in event()) {
        let json = encode_sunjang(&event);
        prop_assert!(!json.contains('\n'), "one line: {}", json);
        let prefix = format!("{{\"v\":1,\"type\":\"{}\"", event.kind());
        prop_assert!(json.starts_with(&prefix), "{}", json);
        prop_assert_eq!(decode_sunjang(&json), Ok(event), "{}", json);
        // Equal events may name a group "B" or "B1": the name is kept too.
        let again = decode_sunjang(&json).map(|e| encode_sunjang(&e));
        prop_assert_eq!(again.as_deref(), Ok(json.as_str()));
    }

    #[test]
    fn random_bytes_never_panic(bytes in vec(any::<u8>(), 0..200)) {
        let _ = decode_sunjang(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn random_values_in_a_record_never_panic(
        group in "[A-Za-z0-9 é-]{0,12}",
        rank in "[0-9a-zA-Z ?é]{0,5}",
    ) {
        let _ = decode_sunjang(&recorded(&format!(
            r#""season":1,"group":{group:?},"black":1,"white":2,"outcome":"jigo""#
        )));
        let registered = encode_sunjang(&sample("sunjang-player-registered"));
        let _ = decode_sunjang(&registered.replace(r#""rank":"3d""#, &format!(r#""rank":{rank:?}"#)));
    }
}

// ---------------------------------------------------------------------------
// Rules file.

#[track_caller]
fn file_err(text: &str) -> RulesFileError {
    file_error(parse_sunjang_rules(text), text)
}

#[test]
fn the_preset_is_the_defaults_with_the_example_restrictions() {
    let (rules, restrictions) = parse_sunjang_rules(SUNJANG_LEAGUE_PRESET).unwrap();
    assert_eq!(rules, SunjangRules::default());
    assert_eq!(restrictions, example_restrictions());
    assert_eq!(restrictions.check(), Ok(()));
    assert_eq!(preset("sunjang-league"), Some(SUNJANG_LEAGUE_PRESET));
    assert_eq!(
        PRESETS,
        [
            "tws-ladder",
            "xmadn-league",
            "xmadn-challengers",
            "sunjang-league"
        ]
    );
    assert!(SUNJANG_LEAGUE_PRESET.contains("\nformat = \"sunjang-league\"\n"));
    // The other formats' presets are refused as such, and this one by them.
    for name in ["tws-ladder", "xmadn-league", "xmadn-challengers"] {
        let e = file_err(preset(name).unwrap());
        assert_eq!(e.field.as_deref(), Some("format"), "{name}");
        says(
            &e,
            &format!(
                "format \"{name}\" is not a Sunjang league: this file must say format = \"sunjang-league\""
            ),
        );
    }
    let e = arbiter_record::parse_rules(SUNJANG_LEAGUE_PRESET).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("format"));
    let e = arbiter_record::parse_league_rules(SUNJANG_LEAGUE_PRESET).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("format"));
}

#[test]
fn the_preset_sets_every_setting_under_a_comment() {
    let written = sunjang_rules_to_toml(&SunjangRules::default(), &Restrictions::default());
    for line in written.lines() {
        if let Some((key, _)) = line.split_once(" = ") {
            let lines: Vec<&str> = SUNJANG_LEAGUE_PRESET.lines().collect();
            let Some(at) = lines
                .iter()
                .position(|l| l.starts_with(&format!("{key} = ")))
            else {
                panic!("the preset does not set {key}");
            };
            assert!(lines[at - 1].starts_with('#'), "no comment above {key}");
        }
    }
}

#[test]
fn the_preset_quotes_the_document() {
    for sentence in [
        "with an ideal\n# group size of 7 players",
        "within a deviation of 2 players",
        "no group shall contain fewer than 5\n# players",
        "There shall be two groups on the main division",
        "Unless there is fewer than 10 players to play the\n# tournament",
        "Each division shall be no shorter than 5 players",
        "no larger than thrice the size of the division directly\n# above",
        "natural limit of 6×3ⁿ players",
        "Should there be fewer than 5 players to participate",
        "each player receives ten points for\n# every division below their own",
        "There shall be at least two\n# direct promotions per division",
        "Two players within 10 rating points\n# difference may be considered to be in a virtual tie",
        "Applicability to provisional players is left at the\n# discretion of the organizers",
        "ended up in 4th place or better",
        "Both limits for\n# superior ranks cannot be any lower than the limits for inferior ranks",
    ] {
        assert!(SUNJANG_LEAGUE_PRESET.contains(sentence), "{sentence}");
    }
}

#[test]
fn rules_to_toml_of_the_preset_is_frozen() {
    insta::assert_snapshot!(
        "sunjang_rules_to_toml",
        sunjang_rules_to_toml(&SunjangRules::default(), &example_restrictions())
    );
}

/// Issue 14, item 6: an empty file is refused, not taken as the defaults;
/// the `format` line alone gives them, without restrictions.
#[test]
fn an_empty_file_is_refused_and_the_format_line_alone_gives_the_defaults() {
    let defaults = (SunjangRules::default(), Restrictions::default());
    for text in ["", "\n", "# only a comment\n"] {
        let e = parse_sunjang_rules(text).unwrap_err();
        assert!(e.message.contains("holds no setting"), "{text:?}: {e}");
    }
    assert_eq!(
        parse_sunjang_rules("format = \"sunjang-league\"\n"),
        Ok(defaults)
    );
}

#[test]
fn gamepoints_are_whole_or_half_numbers_kept_in_halves() {
    let (rules, _) =
        parse_sunjang_rules("win_points = 2\njigo_points = 1.0\nstart_points_per_division = 2.5\n")
            .unwrap();
    assert_eq!(
        (
            rules.win_points,
            rules.jigo_points,
            rules.start_points_per_division
        ),
        (4, 2, 5)
    );
    let (rules, _) = parse_sunjang_rules("jigo_points = 0\nwin_points = 0.5\n").unwrap();
    assert_eq!((rules.win_points, rules.jigo_points), (1, 0));
    let (rules, _) = parse_sunjang_rules("start_points_per_division = 2147483647.5\n").unwrap();
    assert_eq!(rules.start_points_per_division, u32::MAX);
}

#[test]
fn a_win_and_a_jigo_of_3_and_1_are_accepted_and_a_win_above_1000_is_refused() {
    // SODOS stays exact for every accepted setting (ARB-R39): 3/1/0 counts
    // in twelfths of a gamepoint.
    let (rules, _) = parse_sunjang_rules("win_points = 3\njigo_points = 1\n").unwrap();
    assert_eq!((rules.win_points, rules.jigo_points), (6, 2));
    assert_eq!(rules.sodos_per_point(), 12);
    let (rules, _) = parse_sunjang_rules("win_points = 1000\n").unwrap();
    assert_eq!(rules.win_points, 2000);
    let e = file_err("win_points = 1000.5\n");
    assert_eq!(e.field.as_deref(), Some("win_points"));
    says(&e, "a win is worth at most 1000 gamepoints");
}

#[test]
fn a_point_that_is_not_a_half_is_refused() {
    let e = file_err("format = \"sunjang-league\"\njigo_points = 0.3\n");
    assert_eq!(e.field.as_deref(), Some("jigo_points"));
    assert_eq!((e.line, e.column), (Some(2), Some(15)));
    says(
        &e,
        "0.3 is not a whole or half gamepoint: gamepoints count in halves (a jigo is 0.5), such as 1, 0.5 or 2.5",
    );
    assert!(
        e.to_string()
            .starts_with("rules file, line 2, column 15, field `jigo_points`: 0.3 is not"),
        "{e}"
    );
    let e = file_err("win_points = -1\n");
    assert_eq!(e.field.as_deref(), Some("win_points"));
    says(&e, "gamepoints cannot be negative, got -1");
    let e = file_err("win_points = -0.5\n");
    says(&e, "gamepoints cannot be negative");
    let e = file_err("start_points_per_division = 2147483648\n");
    assert_eq!(e.field.as_deref(), Some("start_points_per_division"));
    says(
        &e,
        "2147483648 gamepoints is too many: at most 2147483647.5",
    );
    let e = file_err("start_points_per_division = 1e10\n");
    says(&e, "too many");
    let e = file_err("win_points = nan\n");
    says(&e, "gamepoints are a number, not NaN");
    let e = file_err("win_points = \"1\"\n");
    assert_eq!(e.field.as_deref(), Some("win_points"));
    says(&e, "gamepoints: a whole or half number");
}

#[test]
fn non_monotone_restrictions_are_refused_with_the_engines_words() {
    let text = SUNJANG_LEAGUE_PRESET.replace(
        "strongest = \"11k\"\nweakest = \"15k\"\nhighest = \"B\"\nlowest = \"C\"",
        "strongest = \"11k\"\nweakest = \"15k\"\nhighest = \"A\"\nlowest = \"C\"",
    );
    assert_ne!(text, SUNJANG_LEAGUE_PRESET);
    // 11-15k may now reach A; 16-20k (B-C) does not go lower, so this is
    // still monotone...
    assert!(parse_sunjang_rules(&text).is_ok());
    // ...but dan players limited to B..C are below 1-5k's A..B.
    let text = SUNJANG_LEAGUE_PRESET.replacen(
        "weakest = \"1d\"\nhighest = \"A\"\nlowest = \"A\"",
        "weakest = \"1d\"\nhighest = \"B\"\nlowest = \"C\"",
        1,
    );
    assert_ne!(text, SUNJANG_LEAGUE_PRESET);
    let e = file_err(&text);
    assert_eq!(e.field.as_deref(), Some("restriction[1]"));
    let header = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with("[[restriction]]"))
        .nth(1)
        .map(|(i, _)| i + 1)
        .unwrap();
    assert!(
        e.line.is_some_and(|l| l == header || l == header + 1),
        "{e} (header on line {header})"
    );
    says(
        &e,
        "would have a lower limit than the row for 5k–1k (divisions A to B): \"Both limits for superior ranks cannot be any lower than the limits for inferior ranks.\"",
    );
    assert!(
        e.message
            .ends_with("[Sunjang Definitions: Division restrictions per rank]"),
        "{}",
        e.message
    );
}

#[test]
fn other_bad_restrictions_are_refused_by_the_engine() {
    let rows = |rows: &[(&str, &str, &str, &str)]| {
        rows.iter()
            .map(|(s, w, h, l)| {
                format!(
                    "[[restriction]]\nstrongest = \"{s}\"\nweakest = \"{w}\"\nhighest = \"{h}\"\nlowest = \"{l}\"\n"
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let e = file_err(&rows(&[("5k", "1k", "A", "B")]));
    assert_eq!(e.field.as_deref(), Some("restriction[0]"));
    says(&e, "upside down");
    let e = file_err(&rows(&[("1k", "5k", "B", "A")]));
    assert_eq!(e.field.as_deref(), Some("restriction[0]"));
    says(&e, "the highest division B is below the lowest division A");
    let e = file_err(&rows(&[("1d", "5k", "A", "B"), ("3k", "9k", "B", "C")]));
    assert_eq!(e.field.as_deref(), Some("restriction[1]"));
    assert_eq!(e.line, Some(7));
    says(&e, "overlap");
}

#[test]
fn an_unknown_rank_is_named_with_its_row_and_line() {
    let text = "format = \"sunjang-league\"\n\n[[restriction]]\nstrongest = \"1d\"\nweakest = \"9d\"\nhighest = \"A\"\nlowest = \"A\"\n\n[[restriction]]\nstrongest = \"1k\"\nweakest = \"5p\"\nhighest = \"A\"\nlowest = \"B\"\n";
    let e = file_err(text);
    assert_eq!(e.field.as_deref(), Some("restriction[1].weakest"));
    assert_eq!((e.line, e.column), (Some(11), Some(11)));
    says(
        &e,
        "unknown rank \"5p\": expected a rank from 30k to 1k or 1d to 9d, such as \"5k\" or \"3d\"",
    );
    assert!(
        e.to_string().starts_with(
            "rules file, line 11, column 11, field `restriction[1].weakest`: unknown rank"
        ),
        "{e}"
    );
    let e = file_err(
        "[[restriction]]\nstrongest = \"31k\"\nweakest = \"31k\"\nhighest = \"A\"\nlowest = \"A\"\n",
    );
    assert_eq!(e.field.as_deref(), Some("restriction[0].strongest"));
    assert_eq!(e.line, Some(2));
    let e = file_err(
        "[[restriction]]\nstrongest = \"1k?\"\nweakest = \"5k\"\nhighest = \"A\"\nlowest = \"A\"\n",
    );
    says(&e, "not provisional ones");
    // People's spellings of ranks are read.
    let (_, r) = parse_sunjang_rules(
        "[[restriction]]\nstrongest = \"1 Dan\"\nweakest = \"12 kyu\"\nhighest = \"A\"\nlowest = \"B\"\n",
    )
    .unwrap();
    assert_eq!(r.rows, [row(Rank::Dan(1), Rank::Kyu(12), 0, 1)]);
}

#[test]
fn bad_rows_are_named() {
    let e = file_err(
        "[[restriction]]\nstrongest = \"1k\"\nweakest = \"5k\"\nhighest = \"a\"\nlowest = \"B\"\n",
    );
    assert_eq!(e.field.as_deref(), Some("restriction[0].highest"));
    assert_eq!((e.line, e.column), (Some(4), Some(11)));
    says(&e, "invalid division \"a\": expected a division letter");
    let e = file_err("[[restriction]]\nstrongest = \"1k\"\nweakest = \"5k\"\nhighest = \"A\"\n");
    assert_eq!(e.field.as_deref(), Some("restriction[0]"));
    says(&e, "missing field `lowest`");
    let e = file_err("[[restriction]]\nranks = \"1k-5k\"\nhighest = \"A\"\nlowest = \"B\"\n");
    assert_eq!(e.field.as_deref(), Some("restriction[0].ranks"));
    assert_eq!(e.line, Some(2));
    says(&e, "unknown field `ranks`, expected one of");
    let e = file_err("restriction = \"A\"\n");
    assert_eq!(e.field.as_deref(), Some("restriction"));
    // A document that does not parse still names the row.
    let e = file_err("[[restriction]]\nstrongest = \"1k\"\n\n[[restriction]]\nweakest = \n");
    assert_eq!(e.line, Some(5));
    assert_eq!(e.field.as_deref(), Some("restriction[1].weakest"));
}

#[test]
fn unknown_and_bad_settings_are_named() {
    let e = file_err("format = \"sunjang-league\"\nideal_group = 7\n");
    assert_eq!((e.line, e.column), (Some(2), Some(1)));
    assert_eq!(e.field.as_deref(), Some("ideal_group"));
    says(&e, "unknown field `ideal_group`, expected one of");
    says(&e, "`ideal_group_size`");
    let e = file_err("group_count = \"most\"\n");
    assert_eq!(e.field.as_deref(), Some("group_count"));
    says(
        &e,
        "unknown variant `most`, expected `nearest-ideal` or `fewest`",
    );
    let e = file_err("provisional_promotable = \"no\"\n");
    assert_eq!(e.field.as_deref(), Some("provisional_promotable"));
    let e = file_err("cap_base = -6\n");
    assert_eq!(e.field.as_deref(), Some("cap_base"));
    let e = file_err("deviation = \n");
    assert_eq!(e.line, Some(1));
    assert_eq!(e.field.as_deref(), Some("deviation"));
}

#[test]
fn values_the_rules_refuse_are_named() {
    let e = file_err("ideal_group_size = 1\n");
    assert_eq!(e.field.as_deref(), Some("ideal_group_size"));
    assert_eq!((e.line, e.column), (Some(1), Some(20)));
    says(&e, "the ideal group size is 2 to 50, not 1");
    assert!(
        e.message.ends_with("[Sunjang A. Divisions & Groups]"),
        "{}",
        e.message
    );
    let e = file_err("deviation = 7\n");
    assert_eq!(e.field.as_deref(), Some("deviation"));
    let e = file_err("growth_factor = 1\n");
    assert_eq!(e.field.as_deref(), Some("growth_factor"));
    let e = file_err("win_points = 0.5\njigo_points = 1\n");
    assert_eq!(e.field.as_deref(), Some("win_points"));
    assert_eq!(e.line, Some(1));
    says(&e, "a win is worth more than nothing and at least a jigo");
}

/// Valid restrictions: rows from the strongest ranks down, disjoint, with
/// limits that never rise as the ranks weaken.
fn valid_restrictions() -> impl Strategy<Value = Restrictions> {
    vec((0..3i64, 0..6i64, 0..2u32, 0..2u32), 0..6).prop_map(|steps| {
        let mut rows = Vec::new();
        let mut strength = 39i64; // 9d
        let (mut highest, mut lowest) = (0u32, 0u32);
        for (gap, len, up_high, up_low) in steps {
            let strongest = strength - gap;
            let weakest = strongest - len;
            if weakest < 1 {
                break;
            }
            highest += up_high;
            lowest = (lowest + up_low).max(highest);
            let rank = |s: i64| {
                if s > 30 {
                    Rank::Dan((s - 30) as u8)
                } else {
                    Rank::Kyu((31 - s) as u8)
                }
            };
            rows.push(row(rank(strongest), rank(weakest), highest, lowest));
            strength = weakest - 1;
        }
        Restrictions { rows }
    })
}

fn valid_rules() -> impl Strategy<Value = SunjangRules> {
    (2..=50u32)
        .prop_flat_map(|ideal| (Just(ideal), 0..ideal, 2..=ideal))
        .prop_flat_map(|(ideal, deviation, min_group)| {
            (
                Just((ideal, deviation, min_group)),
                (1..=u32::MAX, any::<u32>(), 1..=u32::MAX, 2..=u32::MAX),
                (1..=u32::MAX, 1..=u32::MAX),
                prop_oneof![Just(GroupCount::NearestIdeal), Just(GroupCount::Fewest)],
                (1..=MOST_WIN_HALVES).prop_flat_map(|win| (Just(win), 0..=win)),
                any::<u32>(),
                (any::<u32>(), any::<u32>(), any::<bool>(), any::<u32>()),
            )
        })
        .prop_map(
            |(
                (ideal, deviation, min_group),
                (main_groups, single_below, min_division, growth),
                (cap_base, min_season),
                group_count,
                (win, jigo),
                start,
                (promotions, tie, provisional, place),
            )| SunjangRules {
                ideal_group_size: ideal,
                deviation,
                min_group_size: min_group,
                main_division_groups: main_groups,
                single_group_below: single_below,
                min_division_size: min_division,
                growth_factor: growth,
                cap_base,
                min_season_players: min_season,
                group_count,
                win_points: win,
                jigo_points: jigo,
                start_points_per_division: start,
                min_direct_promotions: promotions,
                virtual_tie_rating: tie,
                provisional_promotable: provisional,
                final_round_min_place: place,
            },
        )
}

proptest! {
    #[test]
    fn rules_to_toml_round_trips(rules in valid_rules(), restrictions in valid_restrictions()) {
        prop_assert_eq!(rules.check(), Ok(()));
        prop_assert_eq!(restrictions.check(), Ok(()));
        let text = sunjang_rules_to_toml(&rules, &restrictions);
        prop_assert_eq!(parse_sunjang_rules(&text), Ok((rules, restrictions)), "{}", text);
    }

    #[test]
    fn rules_files_never_panic(text in "[a-z_=\"\\[\\]0-9 .+\n-]{0,80}") {
        let _ = parse_sunjang_rules(&text);
    }
}
