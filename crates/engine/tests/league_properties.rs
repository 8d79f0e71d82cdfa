//! Property tests of the XMadn double-threat league (xmadn-double-threat.txt,
//! League (L); XM-R1..R9, ARB-R24..R27), on random leagues driven through
//! `decide` and `apply` like the service drives them:
//!
//! - the table is a total order once the step-6 rolls are recorded: after
//!   all double round-robins and every round of die-roll the phase asks
//!   for, the places are 1, 2, 3 and no tie is left (XM-R3, ARB-R27);
//! - the table does not depend on the order in which the games were
//!   entered: any permutation of the decided games gives the same ranking,
//!   splits and ties; a league whose bottom-half games were entered in
//!   another order has the same table;
//! - `analysis::decide_places` never claims too much: when it says the
//!   significant outcomes (ARB-R26) are determined, every completion of the
//!   remaining games (every winner assignment, with loser pawns and times
//!   from a small set, ranked with `Table::compute` on full scores) puts the
//!   same players at the significant places, each place decided; and every
//!   player who holds a significant place in some completion is among its
//!   candidates. The same holds when some remaining games are cancelled
//!   instead (XM-R6: they count for nothing), so cancelling once determined
//!   never changes the significant outcomes;
//! - the suggested order of the bottom half is at least as good as the
//!   document's (`worst >= document_worst`), its figures are the ones a
//!   brute force over the results finds, and no order does better in the
//!   worst case (ARB-R26);
//! - the fold of the event log equals the applied state; every roll
//!   verifies against its seed and commitment;
//! - `decide` never panics and a refused command changes nothing, for
//!   random (mostly invalid) commands.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_engine::draw::{self, Seed};
use arbiter_engine::model::{GameId, PlayerId, Time};
use arbiter_engine::xmadn::analysis::{self, decide_places, significant_places};
use arbiter_engine::xmadn::league::{Command, Event, League, PLAYERS, Phase};
use arbiter_engine::xmadn::table::{self, Fact, Table};
use arbiter_engine::xmadn::{Colours, LeagueRules, Playoff, RuleSet, Score, Series};
use chrono::{Duration, TimeZone, Utc};
use proptest::prelude::*;

fn seed_of(n: u32) -> Seed {
    let mut s = [0u8; 32];
    s[..4].copy_from_slice(&n.to_le_bytes());
    s[4] = 0x5A;
    s
}

fn time(minutes: i64) -> Time {
    Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap() + Duration::minutes(minutes)
}

/// One game's result as generated: whether the first-listed player wins,
/// the loser's counted pawns (reduced below the winner's) and the time.
#[derive(Debug, Clone, Copy)]
struct Spec {
    first_wins: bool,
    loser: u8,
    seconds: u32,
}

fn spec() -> impl Strategy<Value = Spec> {
    (any::<bool>(), 0u8..8, 1u32..5400).prop_map(|(first_wins, loser, seconds)| Spec {
        first_wins,
        loser,
        seconds,
    })
}

fn playoff() -> impl Strategy<Value = Playoff> {
    prop_oneof![
        Just(Playoff::None),
        Just(Playoff::TopTwo {
            final_round: Series::Game
        }),
        Just(Playoff::TopTwo {
            final_round: Series::FirstTo(3)
        }),
        Just(Playoff::AllThree {
            qualifying: Series::Game,
            final_round: Series::FirstTo(3)
        }),
    ]
}

fn rules(drrs: u32, rule_set: RuleSet, playoff: Playoff, faces: u8) -> LeagueRules {
    LeagueRules {
        rule_set,
        double_round_robins: drrs,
        playoff,
        die_faces: faces,
        ..LeagueRules::default()
    }
}

/// A league driven through decide and apply.
struct Driver {
    league: League,
    log: Vec<Event>,
    rolls: u32,
    clock: i64,
    /// A player who wins every game he plays (to make leagues whose
    /// outcomes are determined early), if any.
    dominant: Option<PlayerId>,
}

impl Driver {
    fn new(rules: LeagueRules) -> Driver {
        let mut d = Driver {
            league: League::default(),
            log: Vec::new(),
            rolls: 0,
            clock: 0,
            dominant: None,
        };
        d.exec(Command::Create {
            name: "prop".into(),
            rules,
            players: vec!["Ames".into(), "Baker".into(), "Clark".into()],
            seed_hash: draw::commitment(&seed_of(1)),
        })
        .expect("create");
        d
    }

    fn at(&mut self) -> Time {
        self.clock += 1;
        time(self.clock)
    }

    fn exec(&mut self, c: Command) -> Result<(), arbiter_engine::RuleError> {
        let before = self.league.clone();
        let result = self.league.decide(c);
        assert_eq!(before, self.league, "decide changed the state");
        for e in result? {
            if matches!(
                e,
                Event::PositionsRolled { .. } | Event::TiebreakRolled { .. }
            ) {
                self.rolls += 1;
            }
            self.league
                .try_apply(&e)
                .expect("the decider's event fits the state");
            self.log.push(e);
        }
        Ok(())
    }

    /// The round of die-roll the phase asks for.
    fn roll(&mut self) {
        let seed = seed_of(self.rolls + 1);
        let next_seed_hash = draw::commitment(&seed_of(self.rolls + 2));
        let at = self.at();
        let c = if matches!(self.league.phase(), Phase::AwaitingTiebreak { .. }) {
            Command::RollTiebreak {
                seed,
                next_seed_hash,
                at,
            }
        } else {
            Command::RollPositions {
                seed,
                next_seed_hash,
                at,
            }
        };
        self.exec(c).expect("a roll with the committed seed");
    }

    /// Record game number `k` (0-based) of double round-robin `drr`.
    fn play(&mut self, drr: u32, k: usize, s: Spec) {
        let g = self.league.drr_games(drr)[k].clone();
        let w = self.league.rules.rule_set.winning_pawns();
        let l = s.loser % w;
        let first_wins = match self.dominant {
            Some(p) if g.has(p) => g.players[0] == p,
            _ => s.first_wins,
        };
        let pawns = if first_wins { [w, l] } else { [l, w] };
        let at = self.at();
        self.exec(Command::RecordResult {
            game: Some(g.id),
            players: g.players,
            pawns,
            seconds: s.seconds,
            at,
        })
        .expect("a valid result");
    }

    /// Play double round-robin `drr` (positions rolled already): the top
    /// half in order, then the bottom half in the order `bottom`, up to
    /// `limit` games.
    fn play_drr(&mut self, drr: u32, specs: &[Spec], bottom: [usize; 3], limit: usize) {
        let order = [0, 1, 2, bottom[0], bottom[1], bottom[2]];
        for &k in order.iter().take(limit) {
            self.play(drr, k, specs[k]);
        }
    }

    /// Every step-6 roll the phase asks for (bounded).
    fn settle_ties(&mut self) {
        for _ in 0..8 {
            if matches!(self.league.phase(), Phase::AwaitingTiebreak { .. }) {
                self.roll();
            } else {
                return;
            }
        }
        panic!("step 6 kept asking for rolls");
    }
}

const BOTTOM: [[usize; 3]; 6] = [
    [3, 4, 5],
    [3, 5, 4],
    [4, 3, 5],
    [4, 5, 3],
    [5, 3, 4],
    [5, 4, 3],
];

/// A complete league: `drrs` double round-robins with these results.
fn complete(drrs: u32, rule_set: RuleSet, faces: u8, specs: &[Spec], bottoms: &[usize]) -> Driver {
    let mut d = Driver::new(rules(drrs, rule_set, Playoff::None, faces));
    for drr in 1..=drrs {
        d.roll();
        let i = (drr - 1) as usize;
        d.play_drr(drr, &specs[i * 6..i * 6 + 6], BOTTOM[bottoms[i] % 6], 6);
    }
    d
}

fn facts_with(open: &[[PlayerId; 2]], winners: u32, pattern: u32, rule_set: RuleSet) -> Vec<Fact> {
    let w = rule_set.winning_pawns();
    open.iter()
        .enumerate()
        .map(|(i, pair)| {
            let winner = ((winners >> i) & 1) as usize;
            // Loser pawns 0 or w-1, times 1:59 or 59:00, by pattern.
            let bit =
                |k: u32| (pattern.wrapping_mul(2_654_435_761) >> ((i as u32 * 2 + k) % 31)) & 1;
            let loser = if (pattern + i as u32).is_multiple_of(4) || bit(0) == 1 {
                w - 1
            } else {
                0
            };
            let seconds = if bit(1) == 1 { 119 } else { 3540 };
            let mut pawns = [loser; 2];
            pawns[winner] = w;
            Fact {
                players: *pair,
                winner,
                score: Some(Score { pawns, seconds }),
            }
        })
        .collect()
}

/// The holder of `place` in a table, if exactly one player holds it and
/// the place is decided.
fn holder(t: &Table, place: usize) -> Option<PlayerId> {
    let r = &t.ranking;
    r.is_decided(place)
        .then(|| {
            r.places
                .iter()
                .position(|&p| p == place)
                .map(|i| r.order[i])
        })
        .flatten()
}

/// Everyone who may end at `place`: the players of the block spanning it.
fn holders(t: &Table, place: usize) -> Vec<PlayerId> {
    let r = &t.ranking;
    (0..r.order.len())
        .filter(|&i| {
            let block = r.tie_of(r.order[i]).map_or(1, |u| u.players.len());
            r.places[i] <= place && place < r.places[i] + block
        })
        .map(|i| r.order[i])
        .collect()
}

/// The determination as the plain definition computes it: every
/// distribution of wins over the open games, ranked with the whole cascade
/// (no shortcut), pawns and times unknown.
fn reference_determination(
    known: &[Fact],
    open: &[[PlayerId; 2]],
    significant: &[usize],
) -> (bool, Vec<Vec<PlayerId>>) {
    let mut candidates = vec![Vec::new(); significant.len()];
    let mut seen: Option<Vec<Option<PlayerId>>> = None;
    let mut determined = true;
    for winners in 0..(1u32 << open.len()) {
        let mut facts = known.to_vec();
        for (i, pair) in open.iter().enumerate() {
            facts.push(Fact {
                players: *pair,
                winner: ((winners >> i) & 1) as usize,
                score: None,
            });
        }
        let t = Table::compute(facts, Vec::new(), false);
        let here: Vec<Option<PlayerId>> = significant.iter().map(|&p| holder(&t, p)).collect();
        for (k, &place) in significant.iter().enumerate() {
            for h in holders(&t, place) {
                if !candidates[k].contains(&h) {
                    candidates[k].push(h);
                }
            }
        }
        if here.iter().any(Option::is_none) || seen.as_ref().is_some_and(|s| *s != here) {
            determined = false;
        }
        seen.get_or_insert(here);
    }
    for c in &mut candidates {
        c.sort_unstable();
    }
    (determined, candidates)
}

/// Check a determination against every completion of `open` (winners,
/// pawn/time patterns and, with `cancel`, cancellations).
fn check_determination(
    known: &[Fact],
    open: &[[PlayerId; 2]],
    playoff: Playoff,
    rule_set: RuleSet,
    cancel: bool,
) -> Result<(), TestCaseError> {
    let significant = significant_places(playoff);
    let det = decide_places(known, open, &significant);
    let n = open.len();
    let mut first: Option<Vec<Option<PlayerId>>> = None;
    let masks: u32 = if cancel { 1 << n } else { 1 };
    for cancelled in 0..masks {
        for winners in 0..(1u32 << n) {
            // Cancelled games are dropped; their winner bit must not vary.
            if winners & cancelled != 0 {
                continue;
            }
            for pattern in 0..4 {
                let mut facts = known.to_vec();
                facts.extend(
                    facts_with(open, winners, pattern, rule_set)
                        .into_iter()
                        .enumerate()
                        .filter(|(i, _)| cancelled >> i & 1 == 0)
                        .map(|(_, f)| f),
                );
                let t = Table::compute(facts, Vec::new(), false);
                let here: Vec<Option<PlayerId>> =
                    significant.iter().map(|&p| holder(&t, p)).collect();
                for (k, &place) in significant.iter().enumerate() {
                    if !cancel || cancelled == 0 {
                        for h in holders(&t, place) {
                            prop_assert!(
                                det.places[k].1.contains(&h),
                                "{h} can hold place {place} but is not a candidate: {det:?}"
                            );
                        }
                    }
                }
                if det.determined {
                    prop_assert!(
                        here.iter().all(Option::is_some),
                        "determined, but a completion leaves a significant place open \
                         (cancelled {cancelled:b}, winners {winners:b}, pattern {pattern}): {:?} {det:?}",
                        t.ranking
                    );
                    match &first {
                        None => first = Some(here.clone()),
                        Some(f) => prop_assert_eq!(
                            f,
                            &here,
                            "determined, but completions differ (cancelled {:b}, winners {:b})",
                            cancelled,
                            winners
                        ),
                    }
                    for (k, h) in here.iter().enumerate() {
                        prop_assert_eq!(&det.places[k].1, &vec![h.unwrap()]);
                    }
                }
            }
        }
    }
    Ok(())
}

/// A league partly played, `left` round-robin games (at most) from the end.
fn partial(
    drrs: u32,
    rule_set: RuleSet,
    playoff: Playoff,
    specs: &[Spec],
    bottoms: &[usize],
    played: usize,
    dominant: u32,
) -> Driver {
    let mut d = Driver::new(rules(drrs, rule_set, playoff, 6));
    d.dominant = PLAYERS.get(dominant as usize).copied();
    let mut left = played;
    for drr in 1..=drrs {
        if left == 0 {
            break;
        }
        d.roll();
        let i = (drr - 1) as usize;
        let n = left.min(6);
        d.play_drr(drr, &specs[i * 6..i * 6 + 6], BOTTOM[bottoms[i] % 6], n);
        left -= n;
    }
    d
}

/// The number of games of `order` played before the significant outcomes
/// are determined, in the worst case over the results.
fn worst_for(
    known: &[Fact],
    order: &[[PlayerId; 2]],
    later: &[[PlayerId; 2]],
    significant: &[usize],
) -> usize {
    let n = order.len();
    let mut worst = usize::MAX;
    for outcome in 0..(1u32 << n) {
        let mut facts = known.to_vec();
        let mut t = n;
        for j in 0..=n {
            let rest: Vec<[PlayerId; 2]> = order[j..].iter().chain(later).copied().collect();
            if decide_places(&facts, &rest, significant).determined {
                t = j;
                break;
            }
            if j < n {
                facts.push(Fact {
                    players: order[j],
                    winner: ((outcome >> j) & 1) as usize,
                    score: None,
                });
            }
        }
        worst = worst.min(t);
    }
    worst
}

#[derive(Debug, Clone)]
enum Cmd {
    Roll(bool),
    Result(u32, u32, u32, u8, u8, u32),
    Correct(u32, u32, u32, u8, u8),
    Cancel(u32),
    CancelDrr(u32),
    Playoff(u8, u8),
    PlayoffGame(u32, u32, u8, u8),
}

fn cmd() -> impl Strategy<Value = Cmd> {
    prop_oneof![
        any::<bool>().prop_map(Cmd::Roll),
        (0u32..14, 0u32..5, 0u32..5, 0u8..10, 0u8..10, 0u32..4000)
            .prop_map(|(g, a, b, x, y, s)| Cmd::Result(g, a, b, x, y, s)),
        (0u32..14, 0u32..5, 0u32..5, 0u8..10, 0u8..10)
            .prop_map(|(g, a, b, x, y)| Cmd::Correct(g, a, b, x, y)),
        (0u32..14).prop_map(Cmd::Cancel),
        (0u32..4).prop_map(Cmd::CancelDrr),
        (0u8..5, 0u8..5).prop_map(|(a, b)| Cmd::Playoff(a, b)),
        (0u32..5, 0u32..5, 0u8..10, 0u8..10).prop_map(|(a, b, x, y)| Cmd::PlayoffGame(a, b, x, y)),
    ]
}

const COLOURS: [&str; 5] = ["red", "blue", "green", "yellow", "purple"];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn the_final_table_is_a_total_order_once_rolled(
        drrs in 1u32..=3,
        masters in any::<bool>(),
        faces in prop_oneof![Just(2u8), Just(6u8)],
        specs in prop::collection::vec(spec(), 18),
        bottoms in prop::collection::vec(0usize..6, 3),
        tie_prone in any::<bool>(),
    ) {
        let rule_set = if masters { RuleSet::Masters } else { RuleSet::Championship };
        // Ties are rare with random figures: half the leagues use one score
        // and one time for every game, so that steps 2 to 5 tie often.
        let specs: Vec<Spec> = if tie_prone {
            specs.iter().map(|s| Spec { loser: 1, seconds: 600, ..*s }).collect()
        } else {
            specs
        };
        let mut d = complete(drrs, rule_set, faces, &specs, &bottoms);
        d.settle_ties();
        let t = Table::of(&d.league);
        prop_assert!(!t.provisional);
        prop_assert_eq!(&t.ranking.places, &vec![1, 2, 3]);
        prop_assert!(t.ranking.unresolved.is_empty());
        prop_assert_eq!(t.ranking.splits.len(), 2);
        let mut sorted = t.ranking.order.clone();
        sorted.sort_unstable();
        prop_assert_eq!(sorted, PLAYERS.to_vec());
        let finished = matches!(d.league.phase(), Phase::Finished { .. });
        prop_assert!(finished, "{:?}", d.league.phase());
        // Every split is explained with its step.
        prop_assert_eq!(t.explain(&d.league).len(), 2);
        prop_assert_eq!(League::fold(&d.log), d.league.clone());
        prop_assert!(d.league.verify_rolls().iter().all(|c| c.commitment_ok && c.faces_ok));
    }

    #[test]
    fn the_table_does_not_depend_on_the_order_of_entry(
        drrs in 1u32..=2,
        specs in prop::collection::vec(spec(), 12),
        bottoms in prop::collection::vec(0usize..6, 2),
        other in prop::collection::vec(0usize..6, 2),
        shuffle in prop::collection::vec(any::<u32>(), 12),
        tie_prone in any::<bool>(),
    ) {
        let specs: Vec<Spec> = if tie_prone {
            specs.iter().map(|s| Spec { loser: 2, seconds: 900, ..*s }).collect()
        } else {
            specs
        };
        let mut d = complete(drrs, RuleSet::Championship, 6, &specs, &bottoms);
        d.settle_ties();
        let t = Table::of(&d.league);
        // Any permutation of the facts.
        let mut facts = table::facts(&d.league);
        let mut keyed: Vec<(u32, Fact)> = shuffle.iter().copied().zip(facts.drain(..)).collect();
        keyed.sort_by_key(|k| k.0);
        let permuted: Vec<Fact> = keyed.into_iter().map(|k| k.1).collect();
        let t2 = Table::compute(permuted, table::tie_rolls(&d.league), false);
        prop_assert_eq!(&t.ranking, &t2.ranking);
        prop_assert_eq!(&t.rows, &t2.rows);
        // The same league with its bottom halves entered in another order
        // (the same positions: the same seeds are rolled).
        let mut e = complete(drrs, RuleSet::Championship, 6, &specs, &other);
        e.settle_ties();
        let t3 = Table::of(&e.league);
        prop_assert_eq!(&t.ranking, &t3.ranking);
        prop_assert_eq!(&t.rows, &t3.rows);
    }

    #[test]
    fn determined_never_contradicts_the_remaining_results(
        drrs in 1u32..=2,
        masters in any::<bool>(),
        playoff in playoff(),
        specs in prop::collection::vec(spec(), 12),
        bottoms in prop::collection::vec(0usize..6, 2),
        left in 0usize..=6,
        dominant in 0u32..6,
    ) {
        let rule_set = if masters { RuleSet::Masters } else { RuleSet::Championship };
        let total = 6 * drrs as usize;
        let played = total.saturating_sub(left);
        let d = partial(drrs, rule_set, playoff, &specs, &bottoms, played, dominant);
        let known = table::facts(&d.league);
        let open = analysis::remaining_pairs(&d.league);
        prop_assert_eq!(open.len(), total - played);
        check_determination(&known, &open, playoff, rule_set, false)?;
        // The enumeration's shortcuts change nothing.
        let significant = significant_places(playoff);
        let det = decide_places(&known, &open, &significant);
        let (determined, candidates) = reference_determination(&known, &open, &significant);
        prop_assert_eq!(det.determined, determined);
        let got: Vec<Vec<PlayerId>> = det.places.iter().map(|p| p.1.clone()).collect();
        prop_assert_eq!(got, candidates);
        // The league's own verdict is the same.
        let det = analysis::determination(&d.league);
        prop_assert_eq!(det, decide_places(&known, &open, &significant_places(playoff)));
    }

    #[test]
    fn cancelling_once_determined_changes_no_significant_outcome(
        drrs in 1u32..=2,
        playoff in playoff(),
        specs in prop::collection::vec(spec(), 12),
        bottoms in prop::collection::vec(0usize..6, 2),
        left in 1usize..=5,
        dominant in 0u32..6,
    ) {
        let total = 6 * drrs as usize;
        let played = total.saturating_sub(left);
        let d = partial(drrs, RuleSet::Championship, playoff, &specs, &bottoms, played, dominant);
        let known = table::facts(&d.league);
        let open = analysis::remaining_pairs(&d.league);
        check_determination(&known, &open, playoff, RuleSet::Championship, true)?;
    }

    #[test]
    fn the_suggestion_is_no_worse_than_the_document_order(
        drrs in 1u32..=2,
        current in 1u32..=2,
        playoff in playoff(),
        specs in prop::collection::vec(spec(), 12),
        bottoms in prop::collection::vec(0usize..6, 2),
        extra in 0usize..=1,
        dominant in 0u32..6,
    ) {
        let current = current.min(drrs);
        let played = 6 * (current as usize - 1) + 3 + extra;
        let d = partial(drrs, RuleSet::Championship, playoff, &specs, &bottoms, played, dominant);
        let s = analysis::suggest_order(&d.league);
        let Some(s) = s else {
            prop_assert!(false, "a suggestion with {} bottom-half games open", 3 - extra);
            unreachable!()
        };
        prop_assert!(s.worst >= s.document_worst, "{s:?}");
        let league = &d.league;
        let known = table::facts(league);
        let significant = significant_places(playoff);
        let open: Vec<_> = league.playable().iter().map(|g| (g.id, g.players)).collect();
        let later: Vec<[PlayerId; 2]> =
            analysis::remaining_pairs(league).into_iter().skip(open.len()).collect();
        let pairs_of = |ids: &[GameId]| -> Vec<[PlayerId; 2]> {
            ids.iter()
                .map(|id| open.iter().find(|o| o.0 == *id).map(|o| o.1).unwrap())
                .collect()
        };
        let document: Vec<GameId> = open.iter().map(|o| o.0).collect();
        prop_assert_eq!(
            worst_for(&known, &pairs_of(&document), &later, &significant),
            s.document_worst
        );
        prop_assert_eq!(worst_for(&known, &pairs_of(&s.order), &later, &significant), s.worst);
        // No order is better in the worst case.
        let mut ids = document.clone();
        let orders: Vec<Vec<GameId>> = if ids.len() == 2 {
            vec![ids.clone(), { ids.reverse(); ids.clone() }]
        } else {
            BOTTOM.iter().map(|b| b.iter().map(|&k| document[k - 3]).collect()).collect()
        };
        for o in orders {
            prop_assert!(worst_for(&known, &pairs_of(&o), &later, &significant) <= s.worst);
        }
    }

    #[test]
    fn decide_never_panics_and_refusals_change_nothing(
        drrs in 1u32..=2,
        playoff in playoff(),
        cmds in prop::collection::vec(cmd(), 1..120),
    ) {
        let mut d = Driver::new(rules(drrs, RuleSet::Championship, playoff, 6));
        for c in cmds {
            let at = d.at();
            let command = match c {
                Cmd::Roll(good) => {
                    let seed = if good { seed_of(d.rolls + 1) } else { seed_of(d.rolls + 7) };
                    let next_seed_hash = draw::commitment(&seed_of(d.rolls + 2));
                    if matches!(d.league.phase(), Phase::AwaitingTiebreak { .. }) {
                        Command::RollTiebreak { seed, next_seed_hash, at }
                    } else {
                        Command::RollPositions { seed, next_seed_hash, at }
                    }
                }
                Cmd::Result(g, a, b, x, y, s) => Command::RecordResult {
                    game: (g > 0 && g % 3 != 0).then_some(GameId(g)),
                    players: [PlayerId(a), PlayerId(b)],
                    pawns: [x, y],
                    seconds: s,
                    at,
                },
                Cmd::Correct(g, a, b, x, y) => Command::CorrectResult {
                    game: GameId(g),
                    players: [PlayerId(a), PlayerId(b)],
                    pawns: [x, y],
                    seconds: 600,
                    reason: "r".into(),
                    at,
                },
                Cmd::Cancel(g) => Command::CancelGame { game: GameId(g), note: String::new(), at },
                Cmd::CancelDrr(n) => Command::CancelDrr { drr: n, note: String::new(), at },
                Cmd::Playoff(a, b) => Command::StartPlayoff {
                    colours: Colours {
                        vanguard: COLOURS[usize::from(a)].into(),
                        rearguard: COLOURS[usize::from(b)].into(),
                    },
                    at,
                },
                Cmd::PlayoffGame(a, b, x, y) => Command::RecordPlayoffGame {
                    players: [PlayerId(a), PlayerId(b)],
                    pawns: [x, y],
                    seconds: 300,
                    at,
                },
            };
            let before = d.league.clone();
            if d.exec(command).is_err() {
                prop_assert_eq!(&before, &d.league);
            }
            // Views never panic either.
            let _ = Table::of(&d.league).explain(&d.league);
            let _ = d.league.phase();
        }
        prop_assert_eq!(League::fold(&d.log), d.league.clone());
        prop_assert!(d.league.verify_rolls().iter().all(|c| c.commitment_ok && c.faces_ok));
    }
}

/// The double round-robins `d` has played, as a league's records give
/// them (issue 18 §1, ARB-R80).
fn carried_records(d: &Driver) -> Vec<arbiter_engine::xmadn::carry::CarriedDrr> {
    use arbiter_engine::xmadn::carry::{CarriedDrr, CarriedGame};
    use arbiter_engine::xmadn::league::{Drr, GameStatus};
    d.league
        .drrs
        .iter()
        .filter_map(|x| match x {
            Drr::Scheduled { positions, games } => Some(CarriedDrr {
                positions: *positions,
                games: games.map(|id| match &d.league.game(id).unwrap().status {
                    GameStatus::Scheduled => CarriedGame::ToPlay,
                    GameStatus::Played { score, at, .. } => CarriedGame::Played {
                        score: *score,
                        at: *at,
                    },
                    GameStatus::Cancelled { note, at } => CarriedGame::Cancelled {
                        note: note.clone(),
                        at: *at,
                    },
                }),
            }),
            Drr::Cancelled { .. } => None,
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// A league carried over from the records of the double round-robins
    /// another played (all of them, or the last one in progress) has the
    /// same games, table and phase, and goes on as it would: the next roll
    /// and the same results give the same table (ARB-R80).
    #[test]
    fn a_carried_league_is_the_league_that_played(
        drrs in 1u32..=3,
        played in 1u32..=3,
        limit in 1usize..=6,
        masters in any::<bool>(),
        specs in prop::collection::vec(spec(), 18),
        bottoms in prop::collection::vec(0usize..6, 3),
    ) {
        use arbiter_engine::xmadn::carry::CarriedGame;
        let played = played.min(drrs);
        let rule_set = if masters { RuleSet::Masters } else { RuleSet::Championship };
        let mut d = Driver::new(rules(drrs, rule_set, Playoff::None, 6));
        for drr in 1..=played {
            d.roll();
            let i = (drr - 1) as usize;
            let n = if drr == played { limit } else { 6 };
            d.play_drr(drr, &specs[i * 6..i * 6 + 6], BOTTOM[bottoms[i] % 6], n);
        }
        let records = carried_records(&d);
        let mut c = Driver::new(rules(drrs, rule_set, Playoff::None, 6));
        c.exec(Command::CarryOver {
            drrs: records.clone(),
            source: "the forum thread".into(),
            by: "Jordan Park".into(),
            at: time(0),
        }).expect("a played league's records are accepted");
        prop_assert_eq!(&c.league.games, &d.league.games);
        prop_assert_eq!(&c.league.drrs, &d.league.drrs);
        prop_assert_eq!(c.league.phase(), d.league.phase());
        prop_assert_eq!(Table::of(&c.league), Table::of(&d.league));
        prop_assert_eq!(League::fold(&c.log), c.league.clone());
        prop_assert!(c.league.is_carried(GameId(1)));

        // A game turned into one the rule set forbids is refused, naming it.
        if let Some((i, k)) = records.iter().enumerate().find_map(|(i, r)| {
            r.games.iter().position(|g| matches!(g, CarriedGame::Played { .. })).map(|k| (i, k))
        }) {
            let mut bad = records.clone();
            if let CarriedGame::Played { score, .. } = &mut bad[i].games[k] {
                score.pawns = [1, 1];
            }
            let mut e = Driver::new(rules(drrs, rule_set, Playoff::None, 6));
            let err = e.exec(Command::CarryOver {
                drrs: bad,
                source: "the forum thread".into(),
                by: "Jordan Park".into(),
                at: time(0),
            }).expect_err("refused");
            prop_assert_eq!(err.field, Some(format!("drrs[{i}].games[{k}]")));
            prop_assert!(e.league.drrs.is_empty());
        }
        // Positions that are not the three players, refused.
        let mut bad = records.clone();
        bad[0].positions = [PLAYERS[0], PLAYERS[0], PLAYERS[1]];
        let mut e = Driver::new(rules(drrs, rule_set, Playoff::None, 6));
        let err = e.exec(Command::CarryOver {
            drrs: bad,
            source: "x".into(),
            by: "Jordan Park".into(),
            at: time(0),
        }).expect_err("refused");
        prop_assert_eq!(err.field.as_deref(), Some("drrs[0].positions"));

        // Both go on alike: the rest of the league played the same way.
        if played < drrs || limit < 6 {
            let i = (played - 1) as usize;
            let order = [0, 1, 2, BOTTOM[bottoms[i] % 6][0], BOTTOM[bottoms[i] % 6][1], BOTTOM[bottoms[i] % 6][2]];
            for &k in order.iter().skip(limit) {
                if played <= drrs && limit < 6 {
                    d.play(played, k, specs[i * 6 + k]);
                    c.play(played, k, specs[i * 6 + k]);
                }
            }
            prop_assert_eq!(Table::of(&c.league), Table::of(&d.league));
            prop_assert_eq!(c.league.phase(), d.league.phase());
        }
    }
}
