//! The rules of an XMadn league or Challengers event: every number of
//! xmadn-double-threat.txt is a named setting.

use crate::RuleError;

use super::RuleSet;

/// A playoff round's length.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Series {
    /// One game: the Final Game (FG) or Qualifying Game (QG).
    Game,
    /// "first-to-x-wins" series (FSx, QSx), x at least 2.
    FirstTo(u32),
}

impl Series {
    /// Wins needed to take the round.
    pub fn wins_needed(self) -> u32 {
        match self {
            Series::Game => 1,
            Series::FirstTo(x) => x,
        }
    }

    /// The document's abbreviation for a final (FG / FSx) or a qualifying
    /// round (QG / QSx).
    pub fn code(self, final_round: bool) -> String {
        match (self, final_round) {
            (Series::Game, true) => "FG".into(),
            (Series::Game, false) => "QG".into(),
            (Series::FirstTo(x), true) => format!("FS{x}"),
            (Series::FirstTo(x), false) => format!("QS{x}"),
        }
    }
}

/// The playoff format, "determined individually" for each league.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Playoff {
    /// No playoff: the table's first place takes the title.
    None,
    /// "only the top two players on the table ... qualify directly for the
    /// Final Game (FG) or first-to-x-wins Final Series (FSx)".
    TopTwo { final_round: Series },
    /// "all three players": 2nd and 3rd play a QG or QSx, its winner takes
    /// on the 1st in the final.
    AllThree {
        qualifying: Series,
        final_round: Series,
    },
}

/// The rules of one league (XMadn "League (L)").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeagueRules {
    /// 2T or 2T+.
    pub rule_set: RuleSet,
    /// "scheduled for a number of double round-robins (DRR)": 1 to 20.
    pub double_round_robins: u32,
    /// The playoff format.
    pub playoff: Playoff,
    /// "the higher seeded player may be awarded a one-win head start (1-0)
    /// into a first-to-x-wins series" (XM-R7: an organizer option; only
    /// with a strictly better overall win-loss record).
    pub head_start: bool,
    /// Faces of the die used for positions and step 6 (6).
    pub die_faces: u8,
    /// The restart rule applies to ties of more than this many players
    /// minus one: "a tie involving more than two players" (3; XM-R4).
    pub restart_min_tie: u32,
    /// The colours of the double-threat board, in board order (ARB-R25).
    pub board_colours: Vec<String>,
}

impl Default for LeagueRules {
    fn default() -> Self {
        Self {
            rule_set: RuleSet::Championship,
            double_round_robins: 2,
            playoff: Playoff::AllThree {
                qualifying: Series::Game,
                final_round: Series::FirstTo(3),
            },
            head_start: true,
            die_faces: 6,
            restart_min_tie: 3,
            board_colours: default_board(),
        }
    }
}

/// The four colours of the double-threat board, in board order.
pub fn default_board() -> Vec<String> {
    ["red", "blue", "green", "yellow"]
        .into_iter()
        .map(String::from)
        .collect()
}

/// The six colours of the board Game 0 (3TQ) is played on, in board order.
pub fn default_star_board() -> Vec<String> {
    ["red", "orange", "yellow", "green", "blue", "purple"]
        .into_iter()
        .map(String::from)
        .collect()
}

fn check_board(board: &[String], len: usize, field: &str) -> Result<(), RuleError> {
    let distinct = board
        .iter()
        .enumerate()
        .all(|(i, c)| !c.trim().is_empty() && !board[..i].contains(c));
    if board.len() != len || !distinct {
        return Err(RuleError::new(
            "XMadn Double-Threat",
            format!(
                "the board has {len} different colours; got {}",
                board.join(", ")
            ),
        )
        .field(field));
    }
    Ok(())
}

fn check_series(s: Series, field: &str) -> Result<(), RuleError> {
    if let Series::FirstTo(x) = s
        && !(2..=99).contains(&x)
    {
        return Err(RuleError::new(
            "XMadn League: Playoff",
            format!(
                "a first-to-x-wins series needs x from 2 to 99 (a single game is `game`); got {x}"
            ),
        )
        .field(field));
    }
    Ok(())
}

impl LeagueRules {
    /// Refuse settings the document cannot mean.
    pub fn check(&self) -> Result<(), RuleError> {
        if !(1..=20).contains(&self.double_round_robins) {
            return Err(RuleError::new(
                "XMadn League: Double-round robins",
                format!(
                    "a league has 1 to 20 double round-robins; got {}",
                    self.double_round_robins
                ),
            )
            .field("double_round_robins"));
        }
        if !(2..=100).contains(&self.die_faces) {
            return Err(RuleError::new(
                "XMadn League: Double-round robins",
                format!("a die has 2 to 100 faces; got {}", self.die_faces),
            )
            .field("die_faces"));
        }
        if self.restart_min_tie != 3 {
            return Err(RuleError::new(
                "XMadn League: Table; XM-R4",
                "the restart applies to \"a tie involving more than two players\": restart_min_tie is 3",
            )
            .field("restart_min_tie"));
        }
        match self.playoff {
            Playoff::None => {}
            Playoff::TopTwo { final_round } => check_series(final_round, "playoff.final")?,
            Playoff::AllThree {
                qualifying,
                final_round,
            } => {
                check_series(qualifying, "playoff.qualifying")?;
                check_series(final_round, "playoff.final")?;
            }
        }
        check_board(&self.board_colours, 4, "board_colours")
    }
}

/// The rules of one Challengers event (XMadn "Challengers (C)").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengersRules {
    /// 2T or 2T+ for the counted games.
    pub rule_set: RuleSet,
    /// "first-to-x wins (counted games only)"; "The minimum distance shall
    /// be first-to-4".
    pub first_to: u32,
    /// The minimum distance (4).
    pub min_first_to: u32,
    /// The colours of the double-threat board, in board order (ARB-R25).
    pub board_colours: Vec<String>,
    /// The six colours of the board Game 0 (3TQ) is played on.
    pub star_colours: Vec<String>,
}

impl Default for ChallengersRules {
    fn default() -> Self {
        Self {
            rule_set: RuleSet::Championship,
            first_to: 5,
            min_first_to: 4,
            board_colours: default_board(),
            star_colours: default_star_board(),
        }
    }
}

impl ChallengersRules {
    pub fn check(&self) -> Result<(), RuleError> {
        if self.min_first_to < 4 {
            return Err(RuleError::new(
                "XMadn Challengers",
                format!(
                    "\"The minimum distance shall be first-to-4\": min_first_to cannot be {}",
                    self.min_first_to
                ),
            )
            .field("min_first_to"));
        }
        if self.first_to < self.min_first_to || self.first_to > 99 {
            return Err(RuleError::new(
                "XMadn Challengers",
                format!(
                    "first-to-{} is refused: the distance is from {} to 99 (\"The minimum distance shall be first-to-{}, thus making sure that each player will have at least two at-boards\")",
                    self.first_to, self.min_first_to, self.min_first_to
                ),
            )
            .field("first_to"));
        }
        check_board(&self.board_colours, 4, "board_colours")?;
        check_board(&self.star_colours, 6, "star_colours")
    }
}
