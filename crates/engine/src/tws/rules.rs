//! The ladder's rules configuration: every number of tws-ladder.txt is a
//! named setting.

use crate::model::Side;

/// The automatic bid (TWS Play Balance): influence given to one side,
/// placed after initial influence and before the first headline phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bid {
    pub influence: u32,
    pub side: Side,
}

impl std::fmt::Display for Bid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} influence to the {}", self.influence, self.side)
    }
}

/// The latest deadline of a round announced at `at`: the end (23:59:59 UTC)
/// of the day `months` months after the day of the announcement ("not more
/// than 3 months from the date the Round is announced").
pub fn deadline_limit(at: crate::model::Time, months: u32) -> crate::model::Time {
    use chrono::TimeZone;
    let day = at.date_naive();
    let day = day
        .checked_add_months(chrono::Months::new(months))
        .unwrap_or(day);
    day.and_hms_opt(23, 59, 59)
        .map(|t| chrono::Utc.from_utc_datetime(&t))
        .unwrap_or(at)
}

/// The rules of one ladder. Defaults are the document's numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LadderRules {
    /// "not more than 3 months from the date the Round is announced"
    /// (TWS Conduct of Games). A round's deadline may be shorter, never longer.
    pub deadline_months: u32,
    /// "The current automatic bid is 3 influence, given to the US player"
    /// (TWS Play Balance).
    pub bid: Bid,
    /// "the US is considered to win all tied games for Ladder advancement
    /// purposes" (TWS Play Balance; TWS-R11).
    pub tie_advances: Side,
    /// "If a competitor skips 2 consecutive rounds, he will be considered to
    /// have earned a loss in the second round" (TWS Skipping Rounds; TWS-R2).
    pub consecutive_skips_for_loss: u32,
    /// "Anyone who has missed at least 3 consecutive rounds and is occupying
    /// the bottom rung ... will be removed ... to a list of inactive players"
    /// (TWS Skipping Rounds; TWS-R4).
    pub missed_rounds_for_inactive: u32,
    /// Whether Quick Round games count in the play history used to assign
    /// sides (TWS-R6: no by default).
    pub sides_count_quick_rounds: bool,
    /// Where games are played ("Ladder games should be contested on ACTS").
    pub platform: String,
    /// The first words of a game's name ("Ladder Round N USSRPlayer v.
    /// USPlayer").
    pub game_name_prefix: String,
    /// The name of quick-round games.
    pub quick_round_prefix: String,
}

impl Default for LadderRules {
    fn default() -> Self {
        Self {
            deadline_months: 3,
            bid: Bid {
                influence: 3,
                side: Side::Us,
            },
            tie_advances: Side::Us,
            consecutive_skips_for_loss: 2,
            missed_rounds_for_inactive: 3,
            sides_count_quick_rounds: false,
            platform: "ACTS".to_string(),
            game_name_prefix: "Ladder Round".to_string(),
            quick_round_prefix: "Quick Round".to_string(),
        }
    }
}

impl LadderRules {
    /// Check the settings make sense together; the error names the setting.
    pub fn validate(&self) -> Result<(), crate::RuleError> {
        use crate::RuleError;
        if self.deadline_months == 0 || self.deadline_months > 24 {
            return Err(RuleError::new(
                "TWS Conduct of Games",
                format!(
                    "the round time limit must be between 1 and 24 months, not {}",
                    self.deadline_months
                ),
            )
            .field("deadline_months"));
        }
        if self.bid.influence > 10 {
            return Err(RuleError::new(
                "TWS Play Balance",
                format!(
                    "an automatic bid of {} influence is not a plausible bid (at most 10)",
                    self.bid.influence
                ),
            )
            .field("bid.influence"));
        }
        if self.consecutive_skips_for_loss < 2 {
            return Err(RuleError::new(
                "TWS Skipping Rounds",
                "a member may skip one round: consecutive_skips_for_loss must be at least 2",
            )
            .field("consecutive_skips_for_loss"));
        }
        if self.missed_rounds_for_inactive < 1 {
            return Err(RuleError::new(
                "TWS Skipping Rounds",
                "missed_rounds_for_inactive must be at least 1",
            )
            .field("missed_rounds_for_inactive"));
        }
        if self.game_name_prefix.trim().is_empty() {
            return Err(RuleError::new(
                "TWS Conduct of Games",
                "game names need a prefix such as \"Ladder Round\"",
            )
            .field("game_name_prefix"));
        }
        Ok(())
    }
}
