//! A round-robin league's results as [`RatedGame`]s for
//! [`crate::ratings::rate`] (ARB-R70, after ARB-R46 and ARB-R49).
//!
//! A game of the league is a game between its two players (or teams), rated
//! as what it is under the systems every format shares (AREA, Elo,
//! Glicko-2; ARB-R46): a win and a loss, or a draw.
//!
//! - Rated: every game played over the board to a result — a score (more
//!   wins, equal is a draw: ARB-R67) or a win, draw or loss. The margin is
//!   not rated (the systems rate outcomes; the cascade reads scores).
//! - Not rated: forfeits, single or double, and the games a withdrawn
//!   player will not play, which the table counts as forfeits (ARB-R68):
//!   nobody played, and a rating measures play (ARB-R46). Games not
//!   decided are not rated.
//! - A game played by a player whose results were annulled by his
//!   withdrawal (ARB-R68, `annul-under-half`) is still rated: the annulment
//!   is a rule of the table, and the game was played.
//! - Periods (Glicko-2): round `r` of the schedule is period `r`, as a
//!   ladder's round is (ARB-R46): each player plays at most once a round.
//!   Elo and AREA rate game by game in the order of (round, time of the
//!   result, game).
//! - Player `a` is the game's first player (home, or white), `b` the
//!   second; the seat is not rated.

use super::{Game, RoundRobin, Score, Seat};
use crate::model::Time;
use crate::ratings::{self, RatedGame, RatedOutcome, Ratings, System};

/// The ruling this module follows.
pub const RULING: &str = "ARB-R70";

/// A game's outcome for the ratings, if it is rated: played over the
/// board to a result.
pub fn rated_outcome(game: &Game) -> Option<RatedOutcome> {
    Some(match game.score? {
        Score::Goals { home, away } if home > away => RatedOutcome::AWins,
        Score::Goals { home, away } if home < away => RatedOutcome::BWins,
        Score::Goals { .. } | Score::Drawn => RatedOutcome::Draw,
        Score::Won(Seat::Home) => RatedOutcome::AWins,
        Score::Won(Seat::Away) => RatedOutcome::BWins,
        // ARB-R46: a forfeit is not play.
        Score::Forfeit { .. } => return None,
    })
}

/// The rating period of a game: its round.
pub fn period(game: &Game) -> u32 {
    game.round
}

/// One game for the ratings, if it is rated.
pub fn rated_game(game: &Game) -> Option<RatedGame> {
    let outcome = rated_outcome(game)?;
    Some(RatedGame {
        a: game.home.into(),
        b: game.away.into(),
        outcome,
        period: period(game),
        // A recorded result always has its time; the epoch only guards.
        at: game.at.unwrap_or(Time::UNIX_EPOCH),
    })
}

/// Every rated game of the league, in schedule order.
pub fn rated_games(league: &RoundRobin) -> Vec<RatedGame> {
    league.games.iter().filter_map(rated_game).collect()
}

/// The league's ratings under `system`: the fold of ARB-R46 over its rated
/// games. Keys are the league's player ids ([`crate::ratings::PlayerKey`]
/// from [`crate::model::PlayerId`]).
pub fn ratings(league: &RoundRobin, system: &System) -> Ratings {
    ratings::rate(&rated_games(league), system)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use chrono::{Duration, TimeZone, Utc};

    use super::*;
    use crate::model::PlayerId;
    use crate::ratings::{Area, Elo, Glicko2, PlayerKey, Rating};
    use crate::roundrobin::{Command, GameId, RoundRobinRules};

    fn time(minutes: i64) -> Time {
        Utc.with_ymd_and_hms(2026, 3, 1, 0, 0, 0).unwrap() + Duration::minutes(minutes)
    }

    fn exec(l: &mut RoundRobin, c: Command) {
        for e in l.decide(c).unwrap() {
            l.try_apply(&e).unwrap();
        }
    }

    const P1: PlayerId = PlayerId(1);
    const P2: PlayerId = PlayerId(2);
    const P3: PlayerId = PlayerId(3);

    /// Three players on the organizer's schedule: round 1 P1-P2, round 2
    /// P3-P1, round 3 P2-P3 (first named at home or with white).
    fn league(rules: RoundRobinRules) -> RoundRobin {
        let mut l = RoundRobin::default();
        exec(
            &mut l,
            Command::Create {
                name: "ratings".into(),
                rules,
                players: vec!["Ames".into(), "Baker".into(), "Clark".into()],
            },
        );
        exec(
            &mut l,
            Command::Start {
                schedule: Some(vec![vec![(P1, P2)], vec![(P3, P1)], vec![(P2, P3)]]),
                seed: None,
                at: time(0),
            },
        );
        l
    }

    fn record(l: &mut RoundRobin, game: u32, score: Score, minute: i64) {
        exec(
            l,
            Command::Record {
                game: GameId(game),
                score,
                minutes: None,
                at: time(minute),
            },
        );
    }

    fn rating(r: &Ratings, p: PlayerId) -> Rating {
        r.get(PlayerKey::from(p)).unwrap().rating
    }

    /// Golden figures by hand (Elo, 1000 to start, K = 32). Round 1: Ames
    /// beats Baker: 1016 and 984. Round 2: Clark (1000) draws with Ames
    /// (1016): Clark's expected score is 1 / (1 + 10^(16/400)) =
    /// 0.476990…, so he gains 32 × 0.023009… = 0.73632…: Clark 1000.7363,
    /// Ames 1015.2637. Round 3 is a forfeit: not rated (ARB-R46), so Baker
    /// keeps 984 with one game.
    #[test]
    fn three_games_rated_by_hand() {
        let mut l = league(RoundRobinRules::chess());
        record(&mut l, 0, Score::Won(Seat::Home), 10);
        record(&mut l, 1, Score::Drawn, 20);
        record(
            &mut l,
            2,
            Score::Forfeit {
                winner: Some(Seat::Home),
            },
            30,
        );
        let games = rated_games(&l);
        assert_eq!(games.len(), 2, "the forfeit is not rated");
        assert_eq!(
            games
                .iter()
                .map(|g| (g.a, g.b, g.outcome, g.period))
                .collect::<Vec<_>>(),
            vec![
                (PlayerKey(1), PlayerKey(2), RatedOutcome::AWins, 1),
                (PlayerKey(3), PlayerKey(1), RatedOutcome::Draw, 2),
            ]
        );
        let elo = ratings(&l, &System::Elo(Elo::default()));
        let close = |x: Rating, want: f64| (x.value() - want).abs() < 1e-4;
        assert!(close(rating(&elo, P1), 1015.2637), "{:?}", rating(&elo, P1));
        assert!(close(rating(&elo, P2), 984.0), "{:?}", rating(&elo, P2));
        assert!(close(rating(&elo, P3), 1000.7363), "{:?}", rating(&elo, P3));
        assert_eq!(elo.get(PlayerKey::from(P1)).unwrap().games, 2);
        assert_eq!(elo.get(PlayerKey::from(P2)).unwrap().games, 1);
        // AREA: the win between equals moves 100; the tie moves
        // round(100 × 0.05) = 5 from Ames (5100) to Clark (5000).
        let area = ratings(&l, &System::Area(Area::default()));
        assert_eq!(rating(&area, P1), Rating::Area(5095));
        assert_eq!(rating(&area, P2), Rating::Area(4900));
        assert_eq!(rating(&area, P3), Rating::Area(5005));
    }

    /// Scores: more wins, equal is a draw, whichever side is home.
    #[test]
    fn scores_are_rated_by_their_outcome() {
        let mut l = league(RoundRobinRules::fifa_world_cup());
        record(&mut l, 0, Score::Goals { home: 0, away: 2 }, 1);
        record(&mut l, 1, Score::Goals { home: 2, away: 2 }, 2);
        record(&mut l, 2, Score::Goals { home: 3, away: 1 }, 3);
        let outcomes: Vec<RatedOutcome> = rated_games(&l).iter().map(|g| g.outcome).collect();
        assert_eq!(
            outcomes,
            vec![RatedOutcome::BWins, RatedOutcome::Draw, RatedOutcome::AWins]
        );
        let mut l = league(RoundRobinRules::fifa_world_cup());
        record(&mut l, 0, Score::Forfeit { winner: None }, 1);
        assert!(rated_games(&l).is_empty(), "a double forfeit is not play");
    }

    /// One Glicko-2 period per round: each player's history has an entry
    /// for each round he played in.
    #[test]
    fn a_round_is_a_glicko2_period() {
        let mut l = league(RoundRobinRules::chess());
        record(&mut l, 0, Score::Won(Seat::Away), 5);
        record(&mut l, 2, Score::Drawn, 6);
        record(&mut l, 1, Score::Won(Seat::Home), 7);
        let g = ratings(&l, &System::Glicko2(Glicko2::default()));
        let periods = |p: PlayerId| -> Vec<u32> {
            g.get(PlayerKey::from(p))
                .unwrap()
                .history
                .iter()
                .map(|h| h.period)
                .collect()
        };
        assert_eq!(periods(P1), vec![1, 2]);
        assert_eq!(periods(P2), vec![1, 3]);
        assert_eq!(periods(P3), vec![2, 3]);
    }

    /// A player who withdraws: his games played stay rated, even when the
    /// table annuls them (ARB-R68); the games he will not play count as
    /// forfeits in the table (or not at all) and are not rated.
    #[test]
    fn a_withdrawal_rates_only_the_games_played() {
        let mut rules = RoundRobinRules::chess();
        rules.cycles = 2;
        let mut l = RoundRobin::default();
        exec(
            &mut l,
            Command::Create {
                name: "ratings".into(),
                rules,
                players: vec!["Ames".into(), "Baker".into(), "Clark".into()],
            },
        );
        let schedule = [(P1, P2), (P3, P1), (P2, P3), (P2, P1), (P1, P3), (P3, P2)];
        exec(
            &mut l,
            Command::Start {
                schedule: Some(schedule.iter().map(|&g| vec![g]).collect()),
                seed: None,
                at: time(0),
            },
        );
        record(&mut l, 0, Score::Won(Seat::Home), 1);
        exec(
            &mut l,
            Command::Withdraw {
                player: P2,
                at: time(2),
            },
        );
        let w = l.entrants[P2.index()].withdrawal.unwrap();
        assert!(w.annulled, "one of four games: annulled under half");
        assert!(!l.counts(P2));
        record(&mut l, 1, Score::Won(Seat::Away), 3);
        let games = rated_games(&l);
        assert_eq!(games.len(), 2, "{games:?}");
        assert_eq!((games[0].a, games[0].b), (PlayerKey(1), PlayerKey(2)));
        assert_eq!(games[1].outcome, RatedOutcome::BWins);
        let elo = ratings(&l, &System::Elo(Elo::default()));
        assert_eq!(elo.get(PlayerKey::from(P2)).unwrap().games, 1);
    }
}
