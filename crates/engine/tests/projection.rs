//! Monte-Carlo projections (ARB-R48): reproducible from their seed, every
//! exclusive outcome distributed exactly once per simulated season, certain
//! outcomes certain, extreme rating gaps near-certain, the XMadn die roll
//! splitting a tie, a ladder without games left keeping its champion.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_engine::draw::{self, Seed};
use arbiter_engine::model::{EndTag, GameStatus, Outcome as TwsOutcome, PlayerId, Side, Time};
use arbiter_engine::projection::sunjang::{
    SunjangOutcome, jigo_rate, listed_ratings, project_division,
};
use arbiter_engine::projection::tws::{LadderOutcome, project_ladder, tie_rate};
use arbiter_engine::projection::xmadn::{XmadnOutcome, project_league};
use arbiter_engine::projection::{PPM, WinModel, draw_rate, to_ppm};
use arbiter_engine::ratings::{self, Elo, RatedGame, RatedOutcome, System};
use arbiter_engine::sunjang::group::Outcome;
use arbiter_engine::sunjang::season::{Command as SjCommand, League as SjLeague};
use arbiter_engine::sunjang::{PlayerInfo, Rank, Restrictions, SunjangRules};
use arbiter_engine::tws::{Command as TwsCommand, Ladder, PairingPlan, ResultInput};
use arbiter_engine::xmadn::league::{Command as XmCommand, League as XmLeague};
use arbiter_engine::xmadn::{LeagueRules, Playoff, Series};
use chrono::{Duration, TimeZone, Utc};

fn seed(n: u8) -> Seed {
    [n; 32]
}

fn time(minutes: i64) -> Time {
    Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap() + Duration::minutes(minutes)
}

// ---------------------------------------------------------------------
// Sunjang.

fn sunjang(n: u32) -> SjLeague {
    let mut l = SjLeague::default();
    let exec = |l: &mut SjLeague, c: SjCommand| {
        for e in l.decide(c).expect("command") {
            l.apply(&e);
        }
    };
    exec(
        &mut l,
        SjCommand::Create {
            name: "projection".into(),
            rules: SunjangRules::default(),
            restrictions: Restrictions::default(),
        },
    );
    for i in 0..n {
        exec(
            &mut l,
            SjCommand::Register {
                info: PlayerInfo {
                    name: format!("Player {}", i + 1),
                    rank: Rank::Kyu(5),
                    provisional: false,
                    rating: 1500 + i as i32 * 20,
                    corr_rank: None,
                    corr_rating: None,
                },
            },
        );
    }
    exec(&mut l, SjCommand::PlanSeason { at: time(0) });
    l
}

/// Record `outcome_of(black, white)` for every game `pick` selects.
fn record(l: &mut SjLeague, mut pick: impl FnMut(PlayerId, PlayerId) -> Option<Outcome>) -> usize {
    let games: Vec<(PlayerId, PlayerId)> = l
        .current()
        .unwrap()
        .divisions
        .iter()
        .flatten()
        .flat_map(|g| g.games.iter().map(|x| (x.pairing.black, x.pairing.white)))
        .collect();
    let mut n = 0;
    for (k, (b, w)) in games.into_iter().enumerate() {
        if let Some(outcome) = pick(b, w) {
            for e in l
                .decide(SjCommand::RecordResult {
                    black: b,
                    white: w,
                    outcome,
                    at: time(k as i64 + 1),
                })
                .unwrap()
            {
                l.apply(&e);
            }
            n += 1;
        }
    }
    n
}

fn graded_elo(n: u32, step: f64) -> WinModel {
    WinModel::elo(
        (1..=n).map(|i| (PlayerId(i), 1500.0 + step * f64::from(i))),
        50_000,
    )
}

#[test]
fn sunjang_same_seed_same_projection() {
    let mut l = sunjang(9);
    // Half the games played: black wins the even ones.
    let mut k = 0;
    record(&mut l, |_, _| {
        k += 1;
        (k % 2 == 0).then_some(Outcome::BlackWins)
    });
    let m = graded_elo(9, 30.0);
    // The listed ratings (1500 + 20 a player) make the same kind of model.
    let listed = listed_ratings(&l, 0);
    assert!(listed.win_ppm(PlayerId(9), PlayerId(1)) > 700_000);
    let a = project_division(&l, 0, &m, 2000, seed(1)).unwrap();
    let b = project_division(&l, 0, &m, 2000, seed(1)).unwrap();
    let c = project_division(&l, 0, &m, 2000, seed(2)).unwrap();
    assert_eq!(a, b);
    assert_ne!(a.per_player, c.per_player);
    assert_eq!(a.seasons, 2000);
}

#[test]
fn sunjang_every_place_goes_to_exactly_one_player_a_season() {
    let l = sunjang(9);
    let p = project_division(&l, 0, &WinModel::even(100_000), 3000, seed(3)).unwrap();
    for place in 1..=9 {
        assert_eq!(p.total(SunjangOutcome::GroupPlace(place)), 3000, "{place}");
    }
    assert_eq!(p.total(SunjangOutcome::GroupWin), 3000);
    assert_eq!(p.total(SunjangOutcome::FinalRound), 3 * 3000);
    assert_eq!(p.total(SunjangOutcome::Title), 3000);
    assert_eq!(
        p.total(SunjangOutcome::Demotion),
        0,
        "A is the only division"
    );
    for (player, outcomes) in &p.per_player {
        let places: u32 = (1..=9)
            .map(|k| {
                outcomes
                    .get(&SunjangOutcome::GroupPlace(k))
                    .copied()
                    .unwrap_or(0)
            })
            .sum();
        assert_eq!(places, 3000, "{player}: one place a season");
        assert_eq!(
            outcomes.get(&SunjangOutcome::GroupWin),
            outcomes.get(&SunjangOutcome::GroupPlace(1))
        );
    }
    // Even odds: everyone wins the group sometimes.
    for i in 1..=9 {
        let w = p.probability(PlayerId(i), SunjangOutcome::GroupWin);
        assert!(w > 0.03 && w < 0.3, "P{i}: {w}");
    }
}

#[test]
fn sunjang_a_clinched_group_win_is_certain() {
    let mut l = sunjang(9);
    // P1 wins all eight games; nobody else can reach 8 wins.
    record(&mut l, |b, w| match (b.0, w.0) {
        (1, _) => Some(Outcome::BlackWins),
        (_, 1) => Some(Outcome::WhiteWins),
        _ => None,
    });
    let p = project_division(&l, 0, &graded_elo(9, 40.0), 2000, seed(4)).unwrap();
    assert_eq!(p.count(PlayerId(1), SunjangOutcome::GroupWin), 2000);
    assert_eq!(p.count(PlayerId(1), SunjangOutcome::FinalRound), 2000);
    assert_eq!(
        p.probability(PlayerId(1), SunjangOutcome::GroupPlace(1)),
        1.0
    );
    for i in 2..=9 {
        assert_eq!(p.count(PlayerId(i), SunjangOutcome::GroupWin), 0);
    }
}

#[test]
fn sunjang_a_finished_season_is_certain_and_ties_are_settled() {
    let mut l = sunjang(5);
    // Every game a jigo: all tied on D.1; D.2 separates by rating (20
    // apart, beyond the virtual tie of 10).
    let n = record(&mut l, |_, _| Some(Outcome::Jigo));
    assert_eq!(n, 10);
    assert_eq!(jigo_rate(&l), PPM, "every game a jigo");
    let p = project_division(&l, 0, &WinModel::even(0), 500, seed(5)).unwrap();
    // The highest rated (P5) leads.
    assert_eq!(p.count(PlayerId(5), SunjangOutcome::GroupWin), 500);
    assert_eq!(p.count(PlayerId(1), SunjangOutcome::GroupPlace(5)), 500);
}

#[test]
fn sunjang_extreme_rating_gap_is_near_certain() {
    let l = sunjang(9);
    let m = WinModel::elo(
        (1..=9).map(|i| (PlayerId(i), if i == 3 { 3000.0 } else { 1000.0 })),
        0,
    );
    let p = project_division(&l, 0, &m, 2000, seed(6)).unwrap();
    assert!(p.count(PlayerId(3), SunjangOutcome::GroupWin) >= 1995);
    assert!(p.count(PlayerId(3), SunjangOutcome::FinalRound) >= 1995);
    // In the final the two others are no match either.
    assert!(p.count(PlayerId(3), SunjangOutcome::Title) >= 1990);
}

#[test]
fn sunjang_ratings_from_the_rating_fold() {
    let l = sunjang(9);
    // P9 beat everyone ten times: Elo from `rate`.
    let games: Vec<RatedGame> = (0..10)
        .flat_map(|r| {
            (1..=8).map(move |i| RatedGame {
                a: PlayerId(9).into(),
                b: PlayerId(i).into(),
                outcome: RatedOutcome::AWins,
                period: r,
                at: time(i64::from(r) * 10 + i64::from(i)),
            })
        })
        .collect();
    let r = ratings::rate(&games, &System::Elo(Elo::default()));
    let m = WinModel::from_ratings(&r, 0);
    assert!(m.win_ppm(PlayerId(9), PlayerId(1)) > 900_000);
    assert_eq!(
        m.win_ppm(PlayerId(9), PlayerId(1)) + m.win_ppm(PlayerId(1), PlayerId(9)),
        PPM
    );
    let p = project_division(&l, 0, &m, 1000, seed(7)).unwrap();
    assert!(p.probability(PlayerId(9), SunjangOutcome::GroupWin) > 0.5);
}

#[test]
fn win_model_figures() {
    let m = WinModel::elo([(PlayerId(1), 1900.0), (PlayerId(2), 1500.0)], 0);
    // 1 / (1 + 10^(-1)) = 0.909090...
    assert_eq!(m.win_ppm(PlayerId(1), PlayerId(2)), 909_091);
    assert_eq!(m.win_ppm(PlayerId(2), PlayerId(2)), 500_000);
    assert_eq!(to_ppm(0.25), 250_000);
    assert_eq!(draw_rate(1, 8), 125_000);
    assert_eq!(draw_rate(0, 0), 0);
}

// ---------------------------------------------------------------------
// XMadn.

fn xmadn(rules: LeagueRules) -> XmLeague {
    let mut l = XmLeague::default();
    for e in l
        .decide(XmCommand::Create {
            name: "projection".into(),
            rules,
            players: vec!["Ames".into(), "Baker".into(), "Clark".into()],
            seed_hash: draw::commitment(&seed(9)),
        })
        .unwrap()
    {
        l.apply(&e);
    }
    l
}

fn xm_exec(l: &mut XmLeague, c: XmCommand) {
    for e in l.decide(c).unwrap() {
        l.apply(&e);
    }
}

/// A league of one double round-robin in which every pair split its two
/// games 4-0 in 30 minutes: tied through step 5.
fn xmadn_tied() -> XmLeague {
    let mut l = xmadn(LeagueRules {
        double_round_robins: 1,
        ..LeagueRules::default()
    });
    xm_exec(
        &mut l,
        XmCommand::RollPositions {
            seed: seed(9),
            next_seed_hash: draw::commitment(&seed(10)),
            at: time(0),
        },
    );
    for k in 0..6 {
        let players = l.playable()[0].players;
        xm_exec(
            &mut l,
            XmCommand::RecordResult {
                game: None,
                players,
                pawns: [4, 0],
                seconds: 1800,
                at: time(k + 1),
            },
        );
    }
    l
}

#[test]
fn xmadn_same_seed_same_projection_and_places_once() {
    let l = xmadn(LeagueRules::default());
    let m = WinModel::elo([(PlayerId(1), 1600.0)], 0);
    let a = project_league(&l, &m, 500, seed(11)).unwrap();
    let b = project_league(&l, &m, 500, seed(11)).unwrap();
    assert_eq!(a, b);
    for place in 1..=3 {
        assert_eq!(a.total(XmadnOutcome::Place(place)), 500);
    }
    assert_eq!(a.total(XmadnOutcome::Title), 500);
    // Default playoff: all three play it, two play the final.
    assert_eq!(a.total(XmadnOutcome::Playoff), 3 * 500);
    assert_eq!(a.total(XmadnOutcome::Final), 2 * 500);
    assert!(
        a.probability(PlayerId(1), XmadnOutcome::Title)
            > a.probability(PlayerId(2), XmadnOutcome::Title)
    );
}

#[test]
fn xmadn_a_die_roll_splits_a_tie() {
    let l = xmadn_tied();
    let p = project_league(&l, &WinModel::even(0), 3000, seed(12)).unwrap();
    for i in 1..=3 {
        let id = PlayerId(i);
        assert_eq!(p.count(id, XmadnOutcome::DieRoll), 3000, "{id}");
        let first = p.probability(id, XmadnOutcome::Place(1));
        assert!(first > 0.28 && first < 0.39, "{id}: {first}");
    }
    for place in 1..=3 {
        assert_eq!(p.total(XmadnOutcome::Place(place)), 3000);
    }
}

#[test]
fn xmadn_extreme_rating_gap_is_near_certain() {
    let l = xmadn(LeagueRules {
        playoff: Playoff::TopTwo {
            final_round: Series::FirstTo(2),
        },
        ..LeagueRules::default()
    });
    let m = WinModel::elo(
        [
            (PlayerId(1), 1000.0),
            (PlayerId(2), 3200.0),
            (PlayerId(3), 1000.0),
        ],
        0,
    );
    let p = project_league(&l, &m, 1000, seed(13)).unwrap();
    assert!(p.count(PlayerId(2), XmadnOutcome::Place(1)) >= 998);
    assert!(p.count(PlayerId(2), XmadnOutcome::Title) >= 998);
    assert_eq!(p.total(XmadnOutcome::Playoff), 2 * 1000);
}

// ---------------------------------------------------------------------
// TWS ladder.

fn tws_exec(l: &mut Ladder, c: TwsCommand) {
    for e in l.decide(c).unwrap() {
        l.apply(&e);
    }
}

/// A ladder of `n` players with one round played (the higher rung of each
/// game wins) and closed.
fn ladder(n: u32) -> Ladder {
    let mut l = Ladder::default();
    tws_exec(
        &mut l,
        TwsCommand::Create {
            name: "projection".into(),
            rules: Default::default(),
            seed_hash: draw::commitment(&seed(20)),
        },
    );
    tws_exec(
        &mut l,
        TwsCommand::AddModerator {
            name: "Morgan Reed".into(),
        },
    );
    for i in 0..n {
        tws_exec(
            &mut l,
            TwsCommand::Join {
                name: format!("Player {}", (b'A' + i as u8) as char),
                surname: None,
            },
        );
    }
    tws_exec(
        &mut l,
        TwsCommand::AnnounceRound {
            at: time(0),
            deadline: None,
            plan: PairingPlan::Default { eliminator: None },
            seed: seed(20),
            next_seed_hash: draw::commitment(&seed(21)),
        },
    );
    let games: Vec<_> = l
        .games
        .iter()
        .filter(|g| g.status == GameStatus::Scheduled)
        .map(|g| (g.id, g.ussr.player, g.us.player))
        .collect();
    for (k, (id, ussr, us)) in games.into_iter().enumerate() {
        let winner = if l.rung_of(ussr) < l.rung_of(us) {
            Side::Ussr
        } else {
            Side::Us
        };
        tws_exec(
            &mut l,
            TwsCommand::RecordResult {
                game: id,
                result: ResultInput {
                    outcome: TwsOutcome::Win(winner),
                    ended_by: EndTag::Vp,
                    vp: None,
                    turn: None,
                    note: None,
                },
                agreed: false,
                at: time(k as i64 + 1),
            },
        );
    }
    tws_exec(&mut l, TwsCommand::CloseRound { at: time(100) });
    l
}

#[test]
fn tws_no_games_left_keeps_the_champion() {
    let l = ladder(8);
    let champion = l.champion.expect("a champion after the first round");
    assert_eq!(tie_rate(&l), 0, "no ties in the first round");
    let p = project_ladder(&l, 0, &WinModel::even(0), 200, seed(22)).unwrap();
    assert_eq!(p.count(champion, LadderOutcome::Champion), 200);
    assert_eq!(p.total(LadderOutcome::Champion), 200);
    assert_eq!(p.total(LadderOutcome::Climbs), 0);
}

#[test]
fn tws_rounds_ahead_are_reproducible_and_bands_add_up() {
    let l = ladder(8);
    let m = graded_elo(8, -50.0);
    let a = project_ladder(&l, 2, &m, 300, seed(23)).unwrap();
    let b = project_ladder(&l, 2, &m, 300, seed(23)).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.total(LadderOutcome::Champion), 300);
    assert_eq!(a.total(LadderOutcome::Top3), 3 * 300);
    assert_eq!(a.total(LadderOutcome::Top10), 8 * 300);
    assert_eq!(a.total(LadderOutcome::UpperHalf), 4 * 300);
    assert!(a.total(LadderOutcome::Climbs) > 0);
}

#[test]
fn tws_extreme_rating_gap_is_near_certain() {
    let l = ladder(6);
    // The last rung is far stronger: he climbs; two rounds cannot take
    // him from rung 6 to the top, but he climbs every time.
    let last = *l.order.last().unwrap();
    let m = WinModel::elo([(last, 4000.0)], 0);
    let p = project_ladder(&l, 2, &m, 300, seed(24)).unwrap();
    assert_eq!(p.count(last, LadderOutcome::Climbs), 300);
    assert_eq!(p.count(last, LadderOutcome::Falls), 0);
}

#[test]
fn sunjang_two_divisions_promote_and_demote() {
    let l = sunjang(30);
    let s = l.current().unwrap();
    let sizes: Vec<Vec<usize>> = s
        .divisions
        .iter()
        .map(|d| d.iter().map(|g| g.players.len()).collect())
        .collect();
    assert!(sizes.len() >= 2, "{sizes:?}");
    let m = WinModel::even(50_000);
    let a = project_division(&l, 0, &m, 500, seed(30)).unwrap();
    let b = project_division(&l, 1, &m, 500, seed(30)).unwrap();
    let b_promotions = sizes[1].len().max(2) as u64;
    assert_eq!(b.total(SunjangOutcome::DirectPromotion), b_promotions * 500);
    assert_eq!(a.total(SunjangOutcome::Demotion), b_promotions * 500);
    assert_eq!(a.total(SunjangOutcome::DirectPromotion), 0);
    assert_eq!(a.total(SunjangOutcome::Title), 500);
    assert_eq!(b.total(SunjangOutcome::Title), 0);
    assert_eq!(
        b.total(SunjangOutcome::GroupWin),
        sizes[1].len() as u64 * 500
    );
    // Nobody is both promoted and demoted.
    for (p, o) in &b.per_player {
        let up = o
            .get(&SunjangOutcome::DirectPromotion)
            .copied()
            .unwrap_or(0);
        let down = o.get(&SunjangOutcome::Demotion).copied().unwrap_or(0);
        assert!(up + down <= 500, "{p}");
    }
}

#[test]
fn tws_the_running_round_is_finished_and_closed() {
    let mut l = ladder(7);
    tws_exec(
        &mut l,
        TwsCommand::AnnounceRound {
            at: time(200),
            deadline: None,
            plan: PairingPlan::Default { eliminator: None },
            seed: seed(21),
            next_seed_hash: draw::commitment(&seed(22)),
        },
    );
    assert!(l.open_round().is_some());
    let m = WinModel::even(100_000);
    let p = project_ladder(&l, 0, &m, 400, seed(25)).unwrap();
    assert_eq!(p.total(LadderOutcome::Champion), 400);
    assert_eq!(p.total(LadderOutcome::Top3), 3 * 400);
    // With even odds the re-sort moves somebody up in some seasons.
    assert!(p.total(LadderOutcome::Climbs) > 0);
    // Every game decided but the round not closed: the close is certain.
    let open: Vec<_> = l
        .games
        .iter()
        .filter(|g| g.status == GameStatus::Scheduled)
        .map(|g| g.id)
        .collect();
    for (k, id) in open.into_iter().enumerate() {
        tws_exec(
            &mut l,
            TwsCommand::RecordResult {
                game: id,
                result: ResultInput {
                    outcome: TwsOutcome::Win(Side::Us),
                    ended_by: EndTag::Vp,
                    vp: None,
                    turn: None,
                    note: None,
                },
                agreed: false,
                at: time(300 + k as i64),
            },
        );
    }
    let p = project_ladder(&l, 0, &m, 50, seed(26)).unwrap();
    let mut closed = l.clone();
    tws_exec(&mut closed, TwsCommand::CloseRound { at: time(400) });
    for (i, &player) in closed.order.iter().enumerate() {
        assert_eq!(
            p.count(player, LadderOutcome::Top3),
            if i < 3 { 50 } else { 0 }
        );
    }
    assert_eq!(
        p.count(closed.champion.unwrap(), LadderOutcome::Champion),
        50
    );
}
