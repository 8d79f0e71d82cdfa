//! A ladder carried over from its records behaves as the ladder whose
//! events made them (issue 18 §1, ARB-R72, ARB-R73): random ladders are
//! played for some rounds, their state is written down as the records a
//! moderator would keep (order, side counts and last sides, records, skip
//! streaks, missed rounds, the champion's streak, the inactive list, the
//! next round), carried over into a fresh ladder, and the next round is
//! announced, played and closed in both: the same pairs, the same sides
//! (but for a side drawn by lot, whose stream is keyed by the players'
//! ids, ARB-R8), the same skips and byes, the same ladder, inactive list,
//! champion and streak after the close.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_engine::draw::{self, Seed};
use arbiter_engine::model::{EndTag, Outcome, PlayerId, Time};
use arbiter_engine::tws::{
    CarriedLadder, CarriedMember, Command, Ladder, LadderRules, PairingPlan, ResultInput,
    SideReason,
};
use chrono::{Duration, TimeZone, Utc};
use proptest::prelude::*;

fn seed_of(n: u32) -> Seed {
    let mut s = [0u8; 32];
    s[..4].copy_from_slice(&n.to_le_bytes());
    s
}

fn day(d: i64) -> Time {
    Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap() + Duration::days(d)
}

fn exec(l: &mut Ladder, c: Command) {
    let shown = format!("{c:?}");
    let events = l
        .decide(c)
        .unwrap_or_else(|e| panic!("refused: {e}\n{shown}"));
    for e in &events {
        l.try_apply(e).unwrap();
    }
}

fn created(next_round: u32) -> Ladder {
    let mut l = Ladder::default();
    exec(
        &mut l,
        Command::Create {
            name: "carry".into(),
            rules: LadderRules::default(),
            seed_hash: draw::commitment(&seed_of(next_round)),
        },
    );
    exec(
        &mut l,
        Command::AddModerator {
            name: "Jordan Reyes".into(),
        },
    );
    l
}

/// The next round announced, the named players skipping it.
fn announce(l: &mut Ladder, skippers: &[String], t: i64) {
    let round = l.next_round_number();
    for name in skippers {
        let player = l.find(name).unwrap();
        exec(
            l,
            Command::RequestSkip {
                player,
                round: None,
            },
        );
    }
    exec(
        l,
        Command::AnnounceRound {
            at: day(t),
            deadline: None,
            plan: PairingPlan::Default { eliminator: None },
            seed: seed_of(round),
            next_seed_hash: draw::commitment(&seed_of(round + 1)),
        },
    );
}

/// The running round played, each game to the higher rung or the lower
/// one by `bits`, and closed.
fn finish(l: &mut Ladder, bits: &[bool], t: i64) {
    let games = l.open_round().unwrap().games.clone();
    for (k, g) in games.iter().enumerate() {
        let game = l.game(*g).unwrap();
        let (a, b) = (game.ussr.player, game.us.player);
        let higher = if l.rung_of(a) < l.rung_of(b) { a } else { b };
        let winner = match (bits.get(k).copied().unwrap_or(true), higher == a) {
            (true, _) => higher,
            (false, true) => b,
            (false, false) => a,
        };
        let side = game.side_of(winner).unwrap();
        exec(
            l,
            Command::RecordResult {
                game: *g,
                result: ResultInput {
                    outcome: Outcome::Win(side),
                    ended_by: EndTag::Concession,
                    vp: None,
                    turn: None,
                    note: None,
                },
                agreed: false,
                at: day(t + 1),
            },
        );
    }
    exec(l, Command::CloseRound { at: day(t + 2) });
}

/// The records a moderator keeps of `l`.
fn records_of(l: &Ladder) -> CarriedLadder {
    let stats = l.statistics();
    let member = |p: PlayerId| {
        let h = l.side_history(p, false);
        let rec = l.player(p).unwrap();
        CarriedMember {
            name: rec.player.name.clone(),
            surname: Some(rec.player.surname.clone()),
            ussr: h.ussr,
            us: h.us,
            last: h.last,
            record: stats.players[p.index()].ladder,
            skip_streak: rec.skip_streak,
            missed: rec.missed_streak,
        }
    };
    CarriedLadder {
        members: l.order.iter().map(|p| member(*p)).collect(),
        inactive: l.inactive.iter().map(|p| member(*p)).collect(),
        next_round: l.next_round_number(),
        champion_streak: l.streak,
    }
}

type Game = (String, String, bool);

/// The running round: each game's USSR and US players by name and whether
/// its sides were drawn; the skippers and the byes by name.
fn round_of(l: &Ladder) -> (Vec<Game>, Vec<String>, Vec<String>) {
    let r = l.open_round().unwrap();
    let games = r
        .games
        .iter()
        .map(|g| {
            let g = l.game(*g).unwrap();
            (
                l.name_of(g.ussr.player),
                l.name_of(g.us.player),
                matches!(g.sides, SideReason::Drawn { .. }),
            )
        })
        .collect();
    let skips = r.skips.iter().map(|s| l.name_of(s.player)).collect();
    let byes = r.byes.iter().map(|(p, _)| l.name_of(*p)).collect();
    (games, skips, byes)
}

/// The same ladder, inactive list, champion and streak, by name.
fn same_ladders(original: &Ladder, carried: &Ladder) {
    assert_eq!(
        names(carried, &carried.order),
        names(original, &original.order)
    );
    assert_eq!(
        names(carried, &carried.inactive),
        names(original, &original.inactive)
    );
    assert_eq!(
        carried.champion.map(|p| carried.name_of(p)),
        original.champion.map(|p| original.name_of(p))
    );
    assert_eq!(carried.streak, original.streak);
}

fn names(l: &Ladder, ids: &[PlayerId]) -> Vec<String> {
    ids.iter().map(|p| l.name_of(*p)).collect()
}

#[derive(Debug, Clone)]
struct Scenario {
    members: usize,
    /// Per round, who asks to skip (by index among the members) and the
    /// games' winners (true: the higher rung).
    rounds: Vec<(Vec<bool>, Vec<bool>)>,
    /// The round after the carry-over.
    next: (Vec<bool>, Vec<bool>),
}

fn plan() -> impl Strategy<Value = (Vec<bool>, Vec<bool>)> {
    (
        prop::collection::vec(prop::bool::weighted(0.2), 40),
        prop::collection::vec(any::<bool>(), 20),
    )
}

fn scenario() -> impl Strategy<Value = Scenario> {
    (2usize..=40, prop::collection::vec(plan(), 1..=6), plan()).prop_map(
        |(members, rounds, next)| Scenario {
            members,
            rounds,
            next,
        },
    )
}

/// The members asking to skip: those `skips` marks, unless that leaves
/// fewer than two to play (a round needs a game).
fn skippers(l: &Ladder, skips: &[bool]) -> Vec<String> {
    let who: Vec<String> = l
        .order
        .iter()
        .enumerate()
        .filter(|(i, _)| skips.get(*i).copied().unwrap_or(false))
        .map(|(_, p)| l.name_of(*p))
        .collect();
    if l.order.len() < who.len() + 2 {
        Vec::new()
    } else {
        who
    }
}

fn run(s: &Scenario) {
    let mut original = created(1);
    for i in 0..s.members {
        exec(
            &mut original,
            Command::Join {
                name: format!("Member {}", i + 1),
                surname: None,
            },
        );
    }
    let mut t = 0;
    for (skips, bits) in &s.rounds {
        if original.order.len() < 2 {
            return;
        }
        let who = skippers(&original, skips);
        announce(&mut original, &who, t);
        finish(&mut original, bits, t);
        t += 10;
    }
    if original.order.len() < 2 {
        return;
    }
    let records = records_of(&original);
    let mut carried = created(records.next_round);
    exec(
        &mut carried,
        Command::CarryOver {
            records: records.clone(),
            source: "the original's state".into(),
            by: "Jordan Reyes".into(),
            at: day(t),
        },
    );
    assert_eq!(carried.next_round_number(), original.next_round_number());
    same_ladders(&original, &carried);
    // The records of the carried ladder are the records it was given.
    let again = records_of(&carried);
    assert_eq!(again.members, records.members);
    assert_eq!(again.inactive, records.inactive);

    // The next round in both.
    let (skips, bits) = &s.next;
    let who = skippers(&original, skips);
    for l in [&mut original, &mut carried] {
        announce(l, &who, t + 1);
    }
    let (a, b) = (round_of(&original), round_of(&carried));
    assert_eq!(a.1, b.1, "the skips");
    assert_eq!(a.2, b.2, "the byes");
    assert_eq!(a.0.len(), b.0.len());
    for (x, y) in a.0.iter().zip(&b.0) {
        if x.2 || y.2 {
            // Drawn by lot (TWS-R7), keyed by the players' ids: the same
            // pair, either way round.
            let (mut p, mut q) = ([&x.0, &x.1], [&y.0, &y.1]);
            p.sort();
            q.sort();
            assert_eq!(p, q);
        } else {
            assert_eq!((&x.0, &x.1), (&y.0, &y.1), "the same sides");
        }
    }
    // Each side a carried player plays is his carried history's: the
    // champion switches (rule 1).
    if let Some(c) = carried.champion {
        let g = carried
            .games_of(c)
            .find(|g| g.round == Some(carried.next_round_number() - 1));
        if let (Some(g), Some(last)) = (g, carried.side_history(c, false).last) {
            assert_eq!(g.side_of(c), Some(last.other()));
        }
    }
    // Every side decided from a history cites the carried records
    // (ARB-R74): the first round after the carry-over reads nothing else.
    for g in &carried.open_round().unwrap().games {
        let game = carried.game(*g).unwrap();
        if !matches!(game.sides, SideReason::Drawn { .. }) {
            let why = carried.explain_sides(game).text;
            assert!(why.contains("the records carried over on 2026-"), "{why}");
        }
    }
    // Played alike (winners by rung), closed: the same ladder after.
    for l in [&mut original, &mut carried] {
        finish(l, bits, t + 2);
    }
    same_ladders(&original, &carried);
    let after = records_of(&carried);
    let expected = records_of(&original);
    // Side counts may differ only where a side was drawn by lot.
    for (x, y) in after.members.iter().zip(&expected.members) {
        assert_eq!(
            (x.skip_streak, x.missed),
            (y.skip_streak, y.missed),
            "{}",
            x.name
        );
        assert_eq!(x.record, y.record, "{}", x.name);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn a_carried_ladder_goes_on_as_the_ladder_it_was_carried_from(s in scenario()) {
        run(&s);
    }
}
