//! A round-robin league's statistics (issue 16 §2: "everything the seed
//! formats have"): how its games ended at home and away (or with white
//! and black), the goals (or game points) where results carry scores, the
//! biggest wins and highest-scoring games, and each player's form and runs
//! in the order of the rounds. Counts are integers; an average is shown
//! rounded to two decimals for reading only (nothing decides on it).
//! Forfeits are counted apart and never as play (as ratings leave them
//! out, ARB-R46, ARB-R70).

use arbiter_engine::model::PlayerId;
use arbiter_engine::roundrobin::{Game, RoundRobin, Score, Seat};
use serde::Serialize;

/// A game shown in a list of the league's records.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct NotableGameView {
    /// "G12".
    pub label: String,
    pub round: u32,
    pub home: String,
    pub away: String,
    /// "7-0".
    pub score: String,
}

/// One player's form and runs.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct PlayerStatsView {
    pub player: String,
    /// His last five results, oldest first: W, D, L (a forfeit: + or -).
    pub form: String,
    /// Games without a defeat at the end of his results so far.
    pub unbeaten_now: u32,
    /// His longest run without a defeat.
    pub longest_unbeaten: u32,
    /// His longest run of wins.
    pub longest_winning: u32,
    /// Games in which he conceded nothing (with scores).
    pub clean_sheets: u32,
}

/// The statistics of a round-robin league.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct RoundRobinStatsView {
    /// Games decided over the board.
    pub played: u32,
    /// Games decided by a forfeit (a withdrawal's included).
    pub forfeits: u32,
    /// Games still to be played.
    pub left: u32,
    /// Won by the first-named side (home, or white).
    pub home_wins: u32,
    pub draws: u32,
    /// Won by the second-named side (away, or black).
    pub away_wins: u32,
    /// With scores: what both sides scored in the games played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goals: Option<u64>,
    /// With scores: goals per game played, to two decimals ("2.75").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goals_per_game: Option<String>,
    /// The wins by the largest margin (with scores), every game of that
    /// margin.
    pub biggest_wins: Vec<NotableGameView>,
    /// The games with the most goals (with scores).
    pub most_goals: Vec<NotableGameView>,
    /// Each player in the table's order.
    pub players: Vec<PlayerStatsView>,
}

/// What one result was for one of its players, in the order of his games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    Won,
    Drawn,
    Lost,
    ForfeitWon,
    ForfeitLost,
}

impl Mark {
    fn letter(self) -> char {
        match self {
            Mark::Won => 'W',
            Mark::Drawn => 'D',
            Mark::Lost => 'L',
            Mark::ForfeitWon => '+',
            Mark::ForfeitLost => '-',
        }
    }
    fn lost(self) -> bool {
        matches!(self, Mark::Lost | Mark::ForfeitLost)
    }
    fn won(self) -> bool {
        matches!(self, Mark::Won | Mark::ForfeitWon)
    }
}

/// The mark of a counted result for `p`, and whether he kept a clean sheet.
fn mark(g: &Game, score: Score, p: PlayerId) -> (Mark, bool) {
    let home = g.home == p;
    let seat = if home { Seat::Home } else { Seat::Away };
    match score {
        Score::Goals { home: h, away: a } => {
            let (mine, theirs) = if home { (h, a) } else { (a, h) };
            let m = match mine.cmp(&theirs) {
                std::cmp::Ordering::Greater => Mark::Won,
                std::cmp::Ordering::Equal => Mark::Drawn,
                std::cmp::Ordering::Less => Mark::Lost,
            };
            (m, theirs == 0)
        }
        Score::Won(s) if s == seat => (Mark::Won, false),
        Score::Won(_) => (Mark::Lost, false),
        Score::Drawn => (Mark::Drawn, false),
        Score::Forfeit { winner: Some(s) } if s == seat => (Mark::ForfeitWon, false),
        Score::Forfeit { .. } => (Mark::ForfeitLost, false),
    }
}

fn notable(rr: &RoundRobin, g: &Game, score: Score) -> NotableGameView {
    NotableGameView {
        label: format!("G{}", g.id),
        round: g.round,
        home: rr.name_of(g.home),
        away: rr.name_of(g.away),
        score: score.show(),
    }
}

/// The longest run of marks that satisfy `keep`.
fn longest(marks: &[Mark], keep: impl Fn(Mark) -> bool) -> u32 {
    let (mut best, mut run) = (0u32, 0u32);
    for &m in marks {
        run = if keep(m) { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// The statistics of `rr` as it stands.
pub fn round_robin_stats(rr: &RoundRobin) -> RoundRobinStatsView {
    let mut v = RoundRobinStatsView {
        played: 0,
        forfeits: 0,
        left: 0,
        home_wins: 0,
        draws: 0,
        away_wins: 0,
        goals: rr.rules.scores.then_some(0),
        goals_per_game: None,
        biggest_wins: Vec::new(),
        most_goals: Vec::new(),
        players: Vec::new(),
    };
    // Games in the order they were scheduled: rounds, then their games.
    let mut games: Vec<&Game> = rr.games.iter().collect();
    games.sort_by_key(|g| (g.round, g.id));
    let (mut widest, mut highest) = (0u32, 0u32);
    for g in &games {
        let Some(score) = rr.counted_score(g) else {
            v.left += 1;
            continue;
        };
        match score {
            Score::Forfeit { .. } => v.forfeits += 1,
            Score::Goals { home, away } => {
                v.played += 1;
                match home.cmp(&away) {
                    std::cmp::Ordering::Greater => v.home_wins += 1,
                    std::cmp::Ordering::Equal => v.draws += 1,
                    std::cmp::Ordering::Less => v.away_wins += 1,
                }
                let total = home.saturating_add(away);
                if let Some(goals) = v.goals.as_mut() {
                    *goals += u64::from(total);
                }
                let margin = home.abs_diff(away);
                if margin > 0 && margin >= widest {
                    if margin > widest {
                        v.biggest_wins.clear();
                        widest = margin;
                    }
                    v.biggest_wins.push(notable(rr, g, score));
                }
                if total > 0 && total >= highest {
                    if total > highest {
                        v.most_goals.clear();
                        highest = total;
                    }
                    v.most_goals.push(notable(rr, g, score));
                }
            }
            Score::Won(Seat::Home) => {
                v.played += 1;
                v.home_wins += 1;
            }
            Score::Won(Seat::Away) => {
                v.played += 1;
                v.away_wins += 1;
            }
            Score::Drawn => {
                v.played += 1;
                v.draws += 1;
            }
        }
    }
    if let Some(goals) = v.goals
        && v.played > 0
    {
        // Hundredths, rounded half up, in integers.
        let hundredths = (goals * 200 + u64::from(v.played)) / (2 * u64::from(v.played));
        v.goals_per_game = Some(format!("{}.{:02}", hundredths / 100, hundredths % 100));
    }
    let table = rr.table();
    for row in &table.rows {
        let p = row.line.player;
        let mut marks = Vec::new();
        let mut clean = 0u32;
        for g in games.iter().filter(|g| g.has(p)) {
            if let Some(score) = rr.counted_score(g) {
                let (m, kept) = mark(g, score, p);
                marks.push(m);
                clean += u32::from(kept);
            }
        }
        let form: String = marks
            .iter()
            .skip(marks.len().saturating_sub(5))
            .map(|m| m.letter())
            .collect();
        let unbeaten_now = marks.iter().rev().take_while(|m| !m.lost()).count() as u32;
        v.players.push(PlayerStatsView {
            player: row.line.name.clone(),
            form,
            unbeaten_now,
            longest_unbeaten: longest(&marks, |m| !m.lost()),
            longest_winning: longest(&marks, Mark::won),
            clean_sheets: clean,
        });
    }
    v
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use arbiter_engine::roundrobin::{Command, RoundRobinRules};
    use chrono::{TimeZone, Utc};

    /// FIFA World Cup 2022 Group E as played
    /// (https://en.wikipedia.org/wiki/2022_FIFA_World_Cup_Group_E): 6 games,
    /// 22 goals (3.67 a game), Spain's 7-0 both the biggest win and the
    /// game with most goals (7, before Costa Rica 2-4 Germany's 6).
    fn group_e() -> RoundRobin {
        let at = Utc.with_ymd_and_hms(2022, 12, 1, 20, 0, 0).unwrap();
        let mut rr = RoundRobin::default();
        let teams: Vec<String> = ["Spain", "Costa Rica", "Germany", "Japan"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        for c in [
            Command::Create {
                name: "E".into(),
                rules: RoundRobinRules::fifa_world_cup(),
                players: teams,
            },
            Command::Start {
                schedule: None,
                seed: None,
                at,
            },
        ] {
            for e in rr.decide(c).unwrap() {
                rr.apply(&e);
            }
        }
        for (pair, score) in [
            ("Germany-Japan", "1-2"),
            ("Spain-Costa Rica", "7-0"),
            ("Japan-Costa Rica", "0-1"),
            ("Spain-Germany", "1-1"),
            ("Japan-Spain", "2-1"),
            ("Costa Rica-Germany", "2-4"),
        ] {
            let (game, score) = crate::roundrobin::read_score(&rr, pair, score, None).unwrap();
            let c = Command::Record {
                game,
                score,
                minutes: None,
                at,
            };
            for e in rr.decide(c).unwrap() {
                rr.apply(&e);
            }
        }
        rr
    }

    #[test]
    fn group_e_in_figures() {
        let v = round_robin_stats(&group_e());
        assert_eq!((v.played, v.forfeits, v.left), (6, 0, 0));
        assert_eq!(v.goals, Some(22));
        assert_eq!(v.goals_per_game.as_deref(), Some("3.67"));
        assert_eq!(v.home_wins + v.draws + v.away_wins, 6);
        assert_eq!(v.draws, 1);
        assert_eq!(v.biggest_wins.len(), 1);
        assert_eq!(v.biggest_wins[0].score, "7-0");
        assert_eq!(v.most_goals.len(), 1, "7-0 has 7 goals, 2-4 has 6");
        // In the order of the league's own (Berger) rounds: Japan beat Spain
        // in round 1 and Germany in round 2, then lost to Costa Rica.
        let japan = &v.players[0];
        assert_eq!(japan.player, "Japan");
        assert_eq!(japan.form, "WWL");
        assert_eq!(japan.longest_winning, 2);
        assert_eq!(japan.unbeaten_now, 0);
        let spain = v.players.iter().find(|p| p.player == "Spain").unwrap();
        assert_eq!(spain.form, "LWD");
        assert_eq!(spain.clean_sheets, 1);
        assert_eq!(spain.unbeaten_now, 2);
        assert_eq!(spain.longest_unbeaten, 2);
        assert_eq!(spain.longest_winning, 1);
    }
}
