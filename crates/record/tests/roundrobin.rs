//! The round-robin league's record: events round-trip through format v1,
//! hostile records are refused with the field named, and the presets read
//! to the engine's presets.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_engine::model::{PlayerId, Time};
use arbiter_engine::roundrobin::{Event, GameId, RoundRobinRules, Score, Seat};
use arbiter_record::roundrobin::{
    PRESETS, decode_round_robin, encode_round_robin, parse_round_robin_rules,
    round_robin_rules_to_toml,
};

fn at() -> Time {
    "2026-03-01T19:00:00Z".parse().unwrap()
}

fn samples() -> Vec<Event> {
    vec![
        Event::Created {
            name: "Group H".into(),
            rules: RoundRobinRules::uefa_euro(),
            players: vec!["Uruguay".into(), "South Korea".into()],
        },
        Event::PlayerAdded {
            name: "Ghana".into(),
        },
        Event::Started {
            rounds: vec![
                vec![(PlayerId(1), PlayerId(2))],
                vec![(PlayerId(3), PlayerId(1))],
            ],
            given: true,
            lot_commitment: Some([7; 32]),
            at: at(),
        },
        Event::DeadlineSet {
            round: 1,
            deadline: Some(at()),
        },
        Event::ResultRecorded {
            game: GameId(0),
            score: Score::Goals { home: 2, away: 1 },
            minutes: Some(95),
            at: at(),
        },
        Event::ResultRecorded {
            game: GameId(1),
            score: Score::Forfeit { winner: None },
            minutes: None,
            at: at(),
        },
        Event::ResultCorrected {
            game: GameId(0),
            score: Some(Score::Won(Seat::Away)),
            minutes: None,
            reason: "typo".into(),
            at: at(),
        },
        Event::ResultCorrected {
            game: GameId(0),
            score: None,
            minutes: None,
            reason: String::new(),
            at: at(),
        },
        Event::Withdrawn {
            player: PlayerId(3),
            played: 0,
            scheduled: 2,
            annulled: true,
            at: at(),
        },
        Event::LotsDrawn {
            order: vec![PlayerId(2), PlayerId(1)],
            seed: Some([9; 32]),
            how: "drawn".into(),
            at: at(),
        },
        Event::AccountLinked {
            player: PlayerId(1),
            account: "ana".into(),
        },
        Event::AccountUnlinked {
            player: PlayerId(1),
            account: "ana".into(),
        },
        Event::Reverted {
            seq: 4,
            summary: "oops".into(),
        },
    ]
}

#[test]
fn events_round_trip_with_their_kind() {
    for e in samples() {
        let json = encode_round_robin(&e);
        assert!(
            json.starts_with(&format!("{{\"v\":1,\"type\":\"{}\"", e.kind())),
            "{json}"
        );
        assert_eq!(decode_round_robin(&json), Ok(e), "{json}");
    }
}

#[test]
fn a_result_reads_as_documented() {
    let json = r#"{"v":1,"type":"round-robin-result","game":4,"score":{"goals":[2,1]},"at":"2026-03-01T19:00:00Z"}"#;
    assert_eq!(
        decode_round_robin(json),
        Ok(Event::ResultRecorded {
            game: GameId(3),
            score: Score::Goals { home: 2, away: 1 },
            minutes: None,
            at: at(),
        })
    );
}

#[test]
fn hostile_records_are_refused() {
    for bad in [
        r#"{"v":1,"type":"round-robin-result","game":0,"score":"drawn","at":"2026-03-01T19:00:00Z"}"#,
        r#"{"v":1,"type":"round-robin-result","game":1,"score":"drawn","at":"2026-03-01T19:00:00Z","extra":1}"#,
        r#"{"v":1,"type":"round-robin-result","game":1,"score":{"goals":[1]},"at":"2026-03-01T19:00:00Z"}"#,
        r#"{"v":1,"type":"round-robin-withdrawn","player":0,"played":0,"scheduled":0,"annulled":false,"at":"2026-03-01T19:00:00Z"}"#,
        r#"{"v":1,"type":"round-robin-lots","order":[1],"seed":"zz","how":"x","at":"2026-03-01T19:00:00Z"}"#,
    ] {
        assert!(decode_round_robin(bad).is_err(), "{bad}");
    }
    let mut created = encode_round_robin(&samples()[0]);
    created = created.replace("\"h2h-points\"", "\"coin-toss\"");
    let e = decode_round_robin(&created).unwrap_err().to_string();
    assert!(e.contains("coin-toss"), "{e}");
    // Another format's event says which it is.
    let league = r#"{"v":1,"type":"sunjang-player-registered","name":"x","rank":"1d"}"#;
    let e = decode_round_robin(league).unwrap_err().to_string();
    assert!(e.contains("Sunjang"), "{e}");
}

#[test]
fn presets_are_the_engine_presets_and_round_trip() {
    assert_eq!(PRESETS.len(), RoundRobinRules::PRESETS.len());
    for (name, text) in PRESETS {
        let rules = parse_round_robin_rules(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            Some(&rules),
            RoundRobinRules::preset(name).as_ref(),
            "{name}"
        );
        assert_eq!(
            parse_round_robin_rules(&round_robin_rules_to_toml(&rules)),
            Ok(rules),
            "{name}"
        );
    }
}

#[test]
fn a_file_changes_a_preset_and_errors_name_the_setting() {
    let r = parse_round_robin_rules(
        "format = \"round-robin\"\npreset = \"chess\"\ncycles = 2\ntiebreaks = [\"sonneborn-berger\", \"sos\"]\n",
    )
    .unwrap();
    assert_eq!(r.cycles, 2);
    assert_eq!(r.points, RoundRobinRules::chess().points);
    assert_eq!(r.tiebreaks.len(), 2);

    let e = parse_round_robin_rules("format = \"round-robin\"\ncycles = 11\n").unwrap_err();
    assert_eq!((e.line, e.field.as_deref()), (Some(2), Some("cycles")));
    let e = parse_round_robin_rules("format = \"round-robin\"\ncolour = 1\n").unwrap_err();
    assert_eq!(e.line, Some(2));
    let e = parse_round_robin_rules("format = \"round-robin\"\n[points]\ndraw = 5\n").unwrap_err();
    assert_eq!(e.field.as_deref(), Some("points"));
    let e =
        parse_round_robin_rules("format = \"round-robin\"\npreset = \"cricket\"\n").unwrap_err();
    assert_eq!((e.line, e.field.as_deref()), (Some(2), Some("preset")));
    let e = parse_round_robin_rules("format = \"round-robin\"\nscores = false\n").unwrap_err();
    assert!(e.message.contains("forfeit score"), "{}", e.message);
    let e = parse_round_robin_rules("format = \"xmadn-league\"\n").unwrap_err();
    assert_eq!(e.field.as_deref(), Some("format"));
    assert!(parse_round_robin_rules("").is_err());
}

/// A created event as stored before the zones were settings (ARB-R69): it
/// reads with no zone and writes back byte for byte.
const CREATED_BEFORE_ZONES: &str = r#"{"v":1,"type":"round-robin-created","name":"Group F","rules":{"regulation":"UEFA EURO 2020 Regulations, equality of points in the group stage","cycles":1,"points":{"win":3,"draw":1,"loss":0,"forfeit_win":3,"forfeit_loss":0,"scale":1},"scores":true,"forfeit_score":[3,0],"tiebreaks":["h2h-points","h2h-difference","h2h-scored","difference","scored","wins","lot"],"head_to_head":"block","withdrawal":"keep-results"},"players":["Hungary","Portugal"]}"#;

#[test]
fn a_created_event_stored_before_the_zones_reads_and_writes_back_unchanged() {
    let e = decode_round_robin(CREATED_BEFORE_ZONES).unwrap();
    let Event::Created { rules, .. } = &e else {
        panic!("{e:?}");
    };
    assert_eq!((rules.top, rules.bottom), (0, 0));
    let mut euro = RoundRobinRules::uefa_euro();
    euro.top = 0;
    assert_eq!(rules, &euro);
    assert_eq!(encode_round_robin(&e), CREATED_BEFORE_ZONES);
}

#[test]
fn zones_are_stored_when_set() {
    let mut rules = RoundRobinRules::chess();
    rules.top = 3;
    rules.bottom = 2;
    let e = Event::Created {
        name: "Division 2".into(),
        rules,
        players: vec!["Ana".into(), "Ben".into()],
    };
    let json = encode_round_robin(&e);
    assert!(json.contains(r#""top":3,"bottom":2"#), "{json}");
    assert_eq!(decode_round_robin(&json), Ok(e));
    // A preset with a zone stores it; one without leaves both out.
    let fifa = encode_round_robin(&Event::Created {
        name: "Group H".into(),
        rules: RoundRobinRules::fifa_world_cup(),
        players: vec!["Uruguay".into(), "Ghana".into()],
    });
    assert!(
        fifa.contains(r#""top":2"#) && !fifa.contains("bottom"),
        "{fifa}"
    );
    let hostile = json.replace(r#""top":3"#, r#""top":-1"#);
    assert!(decode_round_robin(&hostile).is_err());
}

#[test]
fn the_rules_file_sets_the_zones_or_keeps_the_preset_s() {
    let r = parse_round_robin_rules("format = \"round-robin\"\npreset = \"uefa-euro\"\n").unwrap();
    assert_eq!((r.top, r.bottom), (2, 0));
    let r = parse_round_robin_rules("format = \"round-robin\"\npreset = \"chess\"\nbottom = 2\n")
        .unwrap();
    assert_eq!((r.top, r.bottom), (0, 2));
    let r = parse_round_robin_rules("format = \"round-robin\"\ntop = 4\nbottom = 3\n").unwrap();
    assert_eq!((r.top, r.bottom), (4, 3));
    assert_eq!(
        parse_round_robin_rules(&round_robin_rules_to_toml(&r)),
        Ok(r)
    );
    let e = parse_round_robin_rules("format = \"round-robin\"\ntop = 65\n").unwrap_err();
    assert_eq!((e.line, e.field.as_deref()), (Some(2), Some("top")));
    let e =
        parse_round_robin_rules("format = \"round-robin\"\ntop = 40\nbottom = 30\n").unwrap_err();
    assert_eq!((e.line, e.field.as_deref()), (Some(3), Some("bottom")));
    let e = parse_round_robin_rules("format = \"round-robin\"\ntop = -2\n").unwrap_err();
    assert_eq!(e.line, Some(2));
    let e = parse_round_robin_rules("format = \"round-robin\"\ntop = \"two\"\n").unwrap_err();
    assert_eq!(e.line, Some(2));
}
