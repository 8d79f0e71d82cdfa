//! Golden examples of the clinch analysis (ARB-R47), each verdict checked
//! by hand in the comments.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_engine::clinch::{Verdict, Zone, ZoneKind};
use arbiter_engine::model::PlayerId;
use arbiter_engine::sunjang::clinch::{Budget, analyse};
use arbiter_engine::sunjang::group::{GroupGame, Outcome, Pairing};
use arbiter_engine::sunjang::ranking::{RankingData, Tiebreaks};
use arbiter_engine::sunjang::{PlayerInfo, Rank, SunjangRules};
use arbiter_engine::xmadn::Score;
use arbiter_engine::xmadn::analysis::decide_places;
use arbiter_engine::xmadn::clinch as xclinch;
use arbiter_engine::xmadn::league::PLAYERS;
use arbiter_engine::xmadn::rules::{Playoff, Series};
use arbiter_engine::xmadn::table::Fact;

use Verdict::{Clinched, ClinchedUnlessDie, Eliminated, EliminatedUnlessDie, Open};

fn info(name: &str, kyu: u8, rating: i32) -> PlayerInfo {
    PlayerInfo {
        name: name.into(),
        rank: Rank::Kyu(kyu),
        provisional: false,
        rating,
        corr_rank: None,
        corr_rating: None,
    }
}

fn game(black: u32, white: u32, outcome: Option<Outcome>) -> GroupGame {
    GroupGame {
        pairing: Pairing {
            round: 1,
            black: PlayerId(black),
            white: PlayerId(white),
        },
        outcome,
    }
}

/// A group of four in a division below A with one group: "Each group
/// leader shall directly promote. There shall be at least two direct
/// promotions per division" (B.1): places 1 and 2; and, as an example
/// zone at the bottom, the last place as the demotion.
fn zones4() -> Vec<Zone> {
    vec![
        Zone::new(ZoneKind::Title, 1, 1),
        Zone::new(ZoneKind::Promotion, 1, 2),
        Zone::new(ZoneKind::Demotion, 4, 4),
    ]
}

fn run(infos: &[PlayerInfo], games: &[GroupGame]) -> Vec<Vec<Verdict>> {
    let rules = SunjangRules::default();
    let tb = Tiebreaks::default();
    let data = RankingData {
        info: infos,
        performance: &[],
        games: &[],
        tiebreaks: &tb,
        rules: &rules,
    };
    let players: Vec<PlayerId> = (1..=infos.len() as u32).map(PlayerId).collect();
    let a = analyse(&players, games, &data, &zones4(), Budget::default());
    assert!(a.exact);
    a.verdicts
}

#[test]
fn sunjang_points_sodos_and_rank() {
    // A (1k), B (2k), C (3k), D (4k), ratings far apart. Played: A beat B,
    // A beat C, B beat C, D beat C. Left: A v D, B v D.
    // Gamepoints: A 2, B 1, C 0, D 1.
    let infos = [
        info("A", 1, 1900),
        info("B", 2, 1800),
        info("C", 3, 1700),
        info("D", 4, 1600),
    ];
    let games = [
        game(1, 2, Some(Outcome::BlackWins)),
        game(3, 1, Some(Outcome::WhiteWins)),
        game(2, 3, Some(Outcome::BlackWins)),
        game(4, 3, Some(Outcome::BlackWins)),
        game(1, 4, None),
        game(4, 2, None),
    ];
    let v = run(&infos, &games);
    // A: the title is open (beating D makes 3, alone first; losing to a D
    // who also beats B leaves D first with 3). A never drops to 3rd: B and
    // D both above him needs D to beat A and B to beat D, a three-way tie
    // at 2 with SODOS 2 each and 1 point each among them, which D.2's
    // first criterion ("higher overall rank", A 1k) wins for A; any other
    // tie with B at 2 has A's SODOS (B's 2) above B's. Promotion clinched.
    assert_eq!(v[0], vec![Open, Clinched, Eliminated]);
    // B: at most 2, and A has 2 at least: level only in the ties above,
    // which A wins; B can be 2nd (D loses both) or 3rd (D wins both).
    assert_eq!(v[1], vec![Eliminated, Open, Eliminated]);
    // C: no game left, 0 against at least 1 for everyone else.
    assert_eq!(v[2], vec![Eliminated, Eliminated, Clinched]);
    // D: 3 with two wins (alone first), 1 with two losses (3rd).
    assert_eq!(v[3], vec![Open, Open, Eliminated]);
}

#[test]
fn sunjang_a_tie_only_the_organizer_settles() {
    // X and Y have the same rank and rating: D.2 cannot separate them, so
    // a tie of theirs waits for "voluntary or implicit forfeiture by the
    // other players and the winner of a live Sunjang match" (D.2, ARB-R44):
    // the die of ARB-R47. Played: X beat Z, Y beat Z, X v Y jigo, Y beat W,
    // Z v W jigo. Left: X v W. Gamepoints: X 1½, Y 2½, Z ½, W ½.
    let infos = [
        info("X", 3, 1600),
        info("Y", 3, 1600),
        info("Z", 5, 1500),
        info("W", 6, 1400),
    ];
    let games = [
        game(1, 3, Some(Outcome::BlackWins)),
        game(2, 3, Some(Outcome::BlackWins)),
        game(1, 2, Some(Outcome::Jigo)),
        game(2, 4, Some(Outcome::BlackWins)),
        game(3, 4, Some(Outcome::Jigo)),
        game(1, 4, None),
    ];
    let v = run(&infos, &games);
    // X beating W: X and Y level at 2½, SODOS 2¼ each (Z's ½, W's ½ and
    // half of the other's 2½), ½ each between them, every D.2 figure
    // equal: a tie across 1st that only the organizer settles. Any other
    // result leaves X below Y's 2½.
    // Title: X eliminated unless the tie; Y clinched unless the tie.
    assert_eq!(v[0][0], EliminatedUnlessDie);
    assert_eq!(v[1][0], ClinchedUnlessDie);
    // Y is in the top two whatever happens (X, Z, W cannot all pass him).
    assert_eq!(v[1][1], Clinched);
    // W beating X: W and X level at 1½, SODOS 1¾ each, and W's win over X
    // (head to head, D.1's third criterion) puts W 2nd, X 3rd; so X's
    // promotion and W's are open.
    assert_eq!(v[0][1], Open);
    assert_eq!(v[3][1], Open);
    // X never ends 4th: Z has ½ and no game left.
    assert_eq!(v[0][2], Eliminated);
    // Z and W: W losing (or both forfeiting) leaves them level at ½, SODOS
    // ¼ each, ½ each between them: Z's higher rank (5k over 6k) puts W
    // 4th; W taking anything from X puts Z 4th.
    assert_eq!(v[2][2], Open);
    assert_eq!(v[3][2], Open);
    assert_eq!(v[2][0], Eliminated);
    assert_eq!(v[2][1], Eliminated);
}

fn fact(a: usize, b: usize, loser_pawns: u8) -> Fact {
    Fact {
        players: [PLAYERS[a], PLAYERS[b]],
        winner: 0,
        score: Some(Score {
            pawns: [4, loser_pawns],
            seconds: 1800,
        }),
    }
}

#[test]
fn xmadn_title_and_playoff_places() {
    // 1 beat 2 and 3 twice each, 2 beat 3 once; 2 v 3 is left.
    // Records (wins minus losses, ARB-R24): 1 +4, 2 -1, 3 -3.
    let known = [
        fact(0, 1, 1),
        fact(0, 1, 2),
        fact(0, 2, 0),
        fact(0, 2, 3),
        fact(1, 2, 2),
    ];
    let open = [[PLAYERS[1], PLAYERS[2]]];
    // No playoff: "Table rankings ... are determined by the players'
    // overall win-loss records": 1 keeps the best record whatever happens.
    let zones = xclinch::zones(Playoff::None);
    let a = xclinch::analyse(&known, &open, &[], &zones);
    assert_eq!(
        a.verdicts,
        vec![vec![Clinched], vec![Eliminated], vec![Eliminated]]
    );
    // Top two in the playoff: 1 is in; if 3 wins, 2 and 3 are level at -2
    // and 1-1 head to head, and step 2 (head-to-head counted-pawns
    // difference) needs the pawns of the game not played: open (ARB-R26).
    let s = Series::FirstTo(2);
    let zones = xclinch::zones(Playoff::TopTwo { final_round: s });
    let a = xclinch::analyse(&known, &open, &[], &zones);
    let playoff = 0;
    assert_eq!(a.verdicts[0][playoff], Clinched);
    assert_eq!(a.verdicts[1][playoff], Open);
    assert_eq!(a.verdicts[2][playoff], Open);
    // The significant outcomes (1st and 2nd) are not determined: 2nd is
    // open between 2 and 3.
    let d = decide_places(&known, &open, &[1, 2]);
    assert!(!d.determined);
    assert_eq!(d.places[0].1, vec![PLAYERS[0]]);
    assert_eq!(d.places[1].1, vec![PLAYERS[1], PLAYERS[2]]);
}

#[test]
fn a_season_in_play_gets_its_groups_zones() {
    use arbiter_engine::sunjang::Restrictions;
    use arbiter_engine::sunjang::clinch::{analyse_group, setting_of};
    use arbiter_engine::sunjang::season::{Command, League};
    use chrono::{TimeZone, Utc};
    let at = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
    let mut l = League::default();
    let exec = |l: &mut League, c: Command| {
        for e in l.decide(c).expect("command") {
            l.apply(&e);
        }
    };
    exec(
        &mut l,
        Command::Create {
            name: "clinch".into(),
            rules: SunjangRules::default(),
            restrictions: Restrictions::default(),
        },
    );
    for i in 0..12u32 {
        exec(
            &mut l,
            Command::Register {
                info: info(
                    &format!("Player {}", i + 1),
                    1 + (i / 3) as u8,
                    2000 - 20 * i as i32,
                ),
            },
        );
    }
    exec(&mut l, Command::PlanSeason { at });
    let season = l.current().expect("a season").clone();
    // Record every game of the first group but the last two: the better
    // ranked (lower id) player wins.
    let first = season.divisions[0][0].clone();
    let n_games = first.games.len();
    for g in &first.games[..n_games - 2] {
        let p = g.pairing;
        let outcome = if p.black.0 < p.white.0 {
            Outcome::BlackWins
        } else {
            Outcome::WhiteWins
        };
        exec(
            &mut l,
            Command::RecordResult {
                black: p.black,
                white: p.white,
                outcome,
                at,
            },
        );
    }
    let season = l.current().expect("a season");
    let setting = setting_of(season, first.id).expect("the group");
    let a = analyse_group(&l, season, first.id, Budget::default()).expect("the group");
    assert!(a.exact);
    assert_eq!(a.remaining, 2);
    assert_eq!(a.zones[0], Zone::new(ZoneKind::Title, 1, 1));
    if setting.division == 0 && setting.groups == 2 {
        // Division A of two groups: each leader is a finalist (ARB-R40).
        assert_eq!(a.zones[1], Zone::new(ZoneKind::FinalRound, 1, 1));
    }
    // With two games left someone is still decided: the last player of
    // the group, beaten by everyone, cannot win it.
    let title = a.verdicts.iter().filter(|v| v[0] == Eliminated).count();
    assert!(title >= 1, "{:?}", a.verdicts);
}
