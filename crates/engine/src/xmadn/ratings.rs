//! An XMadn league's results as [`RatedGame`]s for
//! [`crate::ratings::rate`] (ARB-R49).
//!
//! An XMadn Double-Threat game is a two-player game: each player moves two
//! allied colours against the other's two, and the game has one winner
//! (XM-R9: the winner has every counted pawn home, the loser fewer; a game
//! is never drawn). So a league's game is rated as what it is, a win and a
//! loss between its two players, under the same systems as a ladder's
//! games (AREA, Elo, Glicko-2; ARB-R46). The three players of a league are
//! the league's, not the game's: no multiplayer treatment is needed.
//!
//! - Rated: every game played to a result, round robin and playoff alike
//!   ("all games", as ARB-R46 reads RATING OF GAMES). The margin (counted
//!   pawns) and the time are not rated: the systems rate outcomes, and the
//!   cascade already uses pawns and minutes.
//! - Not rated: games cancelled by mutual consent (XM-R6; they count for
//!   nothing), games not played, and the playoff's head start (a win the
//!   higher seed is given, not one he played for, XM-R7).
//! - Periods (Glicko-2): double round-robin `d` is period `d`; the playoff
//!   rounds follow, the qualifying round then the final, as periods after
//!   the last double round-robin the rules schedule. Elo and AREA rate game
//!   by game in the order of (period, time of the result, game).
//! - Player `a` is the game's first player in the schedule, `b` the second.

use super::league::{GameStatus, League, LeagueGame, PlayoffStage, Stage};
use crate::ratings::{RatedGame, RatedOutcome};

/// The rating period of a game (see the module's text).
pub fn period(league: &League, game: &LeagueGame) -> u32 {
    let drrs = league.rules.double_round_robins;
    match game.stage {
        Stage::RoundRobin { drr, .. } => drr,
        Stage::Playoff {
            round: PlayoffStage::Qualifying,
            ..
        } => drrs + 1,
        Stage::Playoff {
            round: PlayoffStage::Final,
            ..
        } => drrs + 2,
    }
}

/// One game for the ratings, if it is rated.
pub fn rated_game(league: &League, game: &LeagueGame) -> Option<RatedGame> {
    let GameStatus::Played { score, at, .. } = &game.status else {
        return None;
    };
    let outcome = if score.winner_index() == 0 {
        RatedOutcome::AWins
    } else {
        RatedOutcome::BWins
    };
    Some(RatedGame {
        a: game.players[0].into(),
        b: game.players[1].into(),
        outcome,
        period: period(league, game),
        at: *at,
    })
}

/// Every rated game of the league, in the order of the games.
pub fn rated_games(league: &League) -> Vec<RatedGame> {
    league
        .games
        .iter()
        .filter_map(|g| rated_game(league, g))
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use chrono::{Duration, TimeZone, Utc};

    use super::*;
    use crate::draw::{self, Seed};
    use crate::model::{PlayerId, Time};
    use crate::projection::xmadn::{XmadnOutcome, project_league};
    use crate::projection::{PPM, WinModel};
    use crate::ratings::{self, Area, Elo, PlayerKey, Rating, System};
    use crate::xmadn::LeagueRules;
    use crate::xmadn::league::Command;

    fn seed(n: u8) -> Seed {
        [n; 32]
    }

    fn time(minutes: i64) -> Time {
        Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap() + Duration::minutes(minutes)
    }

    fn exec(l: &mut League, c: Command) {
        for e in l.decide(c).unwrap() {
            l.apply(&e);
        }
    }

    /// A league (two double round-robins, the default playoff) with the
    /// positions of DRR 1 rolled.
    fn league() -> League {
        let mut l = League::default();
        exec(
            &mut l,
            Command::Create {
                name: "ratings".into(),
                rules: LeagueRules::default(),
                players: vec!["Ames".into(), "Baker".into(), "Clark".into()],
                seed_hash: draw::commitment(&seed(9)),
            },
        );
        exec(
            &mut l,
            Command::RollPositions {
                seed: seed(9),
                next_seed_hash: draw::commitment(&seed(10)),
                at: time(0),
            },
        );
        l
    }

    /// Record the next playable game, won by `winner` (4-1 in 30:00).
    fn play(l: &mut League, winner: impl Fn([PlayerId; 2]) -> usize, minute: i64) -> [PlayerId; 2] {
        let players = l.playable()[0].players;
        let pawns = if winner(players) == 0 { [4, 1] } else { [1, 4] };
        exec(
            l,
            Command::RecordResult {
                game: None,
                players,
                pawns,
                seconds: 1800,
                at: time(minute),
            },
        );
        players
    }

    /// Golden figures, by hand. DRR 1's Game 1 is #1 v #2 and Game 2 is
    /// #3 v #1 (the document's schedule); #1 wins Game 1, #3 wins Game 2.
    ///
    /// AREA (5000 to start; a win moves round((loser − winner) × 0.05) +
    /// 100): Game 1 between equals moves 100: #1 5100, #2 4900. Game 2:
    /// #3 (5000) beats #1 (5100): round(100 × 0.05) + 100 = 105: #3 5105,
    /// #1 4995.
    ///
    /// Elo (1000 to start, K = 32): Game 1: #1 1016, #2 984. Game 2: #3's
    /// expected score against 1016 is 1 / (1 + 10^(16/400)) = 0.476990…,
    /// so #3 gains 32 × 0.523009… = 16.7363…: #3 1016.7363, #1 999.2637.
    #[test]
    fn two_games_rated_by_hand() {
        let mut l = league();
        let g1 = play(&mut l, |_| 0, 1);
        let g2 = play(&mut l, |_| 0, 2);
        let (p1, p2, p3) = (g1[0], g1[1], g2[0]);
        assert_eq!(g2[1], p1, "Game 2 is #3 v #1");
        let games = rated_games(&l);
        assert_eq!(games.len(), 2);
        assert!(
            games
                .iter()
                .all(|g| g.period == 1 && g.outcome == RatedOutcome::AWins)
        );
        let area = ratings::rate(&games, &System::Area(Area::default()));
        let r =
            |rated: &ratings::Ratings, p: PlayerId| rated.get(PlayerKey::from(p)).unwrap().rating;
        assert_eq!(r(&area, p1), Rating::Area(4995));
        assert_eq!(r(&area, p2), Rating::Area(4900));
        assert_eq!(r(&area, p3), Rating::Area(5105));
        let elo = ratings::rate(&games, &System::Elo(Elo::default()));
        let close = |x: Rating, want: f64| (x.value() - want).abs() < 1e-4;
        assert!(close(r(&elo, p1), 999.2637), "{:?}", r(&elo, p1));
        assert!(close(r(&elo, p2), 984.0), "{:?}", r(&elo, p2));
        assert!(close(r(&elo, p3), 1016.7363), "{:?}", r(&elo, p3));
        assert_eq!(area.get(PlayerKey::from(p1)).unwrap().games, 2);
    }

    /// Unplayed and cancelled games are not rated; playoff periods follow
    /// the double round-robins.
    #[test]
    fn what_is_rated() {
        let mut l = league();
        assert!(rated_games(&l).is_empty());
        for k in 0..6 {
            play(&mut l, |_| 0, k + 1);
        }
        assert_eq!(rated_games(&l).len(), 6);
        let drrs = l.rules.double_round_robins;
        for g in &l.games {
            let p = period(&l, g);
            match g.stage {
                Stage::RoundRobin { drr, .. } => assert_eq!(p, drr),
                Stage::Playoff { .. } => assert!(p > drrs),
            }
        }
    }

    /// Once games are played, the projection's odds are the ratings': a
    /// player who won all his games is favoured over the even odds.
    #[test]
    fn a_strong_player_s_title_chances_rise() {
        let mut l = league();
        // DRR 1: the player at #1 wins each of his four games; the other
        // two games go to the first player of the schedule.
        let strong = l.playable()[0].players[0];
        for k in 0..6 {
            play(&mut l, |p| usize::from(p[1] == strong), k + 1);
        }
        let rated = ratings::rate(&rated_games(&l), &System::Area(Area::default()));
        let model = WinModel::from_ratings(&rated, 0);
        let weaker = PlayerId(if strong.0 == 1 { 2 } else { 1 });
        assert!(model.win_ppm(strong, weaker) > PPM / 2);
        let even = project_league(&l, &WinModel::even(0), 4000, seed(5)).unwrap();
        let rated = project_league(&l, &model, 4000, seed(5)).unwrap();
        let title = |p: &crate::projection::Projection<XmadnOutcome>| {
            p.probability(strong, XmadnOutcome::Title)
        };
        assert!(
            title(&rated) > title(&even) + 0.02,
            "rated {} v even {}",
            title(&rated),
            title(&even)
        );
    }
}
