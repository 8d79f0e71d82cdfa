//! ARB-R58: logs written before the fixed vocabulary of endings still read.
//! A free-text ending (`{"other": "..."}`) decodes as it was written; the
//! statistics count it under the ending its spelling names exactly
//! (`nuclear` is DEFCON), and anything else under "other", so old typos and
//! new results group by the same fixed endings.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_engine::draw;
use arbiter_engine::model::{EndTag, Time};
use arbiter_engine::tws::{Command, Ladder, LadderRules, PairingPlan};
use arbiter_record::{decode, encode};

fn at(s: &str) -> Time {
    chrono::DateTime::parse_from_rfc3339(s).unwrap().to_utc()
}

fn run(l: &mut Ladder, c: Command) {
    for e in l.decide(c).unwrap() {
        l.apply(&e);
    }
}

#[test]
fn old_free_text_endings_read_and_count_under_the_fixed_endings() {
    let mut l = Ladder::default();
    run(
        &mut l,
        Command::Create {
            name: "old".into(),
            rules: LadderRules::default(),
            seed_hash: draw::commitment(&[1; 32]),
        },
    );
    run(&mut l, Command::AddModerator { name: "Mod".into() });
    for n in [
        "Ames", "Baker", "Clark", "Dunn", "Evans", "Fox", "Gray", "Hill",
    ] {
        run(
            &mut l,
            Command::Join {
                name: n.into(),
                surname: None,
            },
        );
    }
    run(
        &mut l,
        Command::AnnounceRound {
            at: at("2026-01-01T00:00:00Z"),
            deadline: None,
            plan: PairingPlan::Default { eliminator: None },
            seed: [1; 32],
            next_seed_hash: draw::commitment(&[2; 32]),
        },
    );
    // As an older version stored them: free text for the endings.
    for (game, words) in [
        (1, "nuclear"),
        (2, "Europe Control"),
        (3, "timeout"),
        (4, "europ"),
    ] {
        let line = format!(
            r#"{{"v":1,"type":"result-recorded","game":{game},"result":{{"outcome":"ussr-win","ended_by":{{"other":"{words}"}},"status":"played","at":"2026-01-20T00:00:00Z"}}}}"#
        );
        let e = decode(&line).expect("an old log still reads");
        // Read as written: the record is never rewritten.
        assert_eq!(encode(&e), line);
        l.check(&e).unwrap();
        l.apply(&e);
    }
    let g3 = l.game(arbiter_engine::model::GameId(3)).unwrap();
    assert_eq!(
        g3.result.as_ref().unwrap().ended_by.describe(),
        "timeout",
        "an unknown old ending keeps its words"
    );
    let s = l.statistics();
    let count = |t: EndTag| s.by_end.get(&t).map_or(0, |t| t.ussr_wins);
    assert_eq!(count(EndTag::Defcon), 1, "{:?}", s.by_end);
    assert_eq!(count(EndTag::EuropeControl), 1, "{:?}", s.by_end);
    // "timeout" and the old typo "europ" are both "other": no ending of
    // their own.
    assert_eq!(count(EndTag::Other(String::new())), 2, "{:?}", s.by_end);
    assert_eq!(s.by_end.len(), 3, "{:?}", s.by_end);
}
