//! XMadn Double-Threat (xmadn-double-threat.txt): the game and its two
//! competition formats, the league ([`league`]: double round-robins with a
//! die-rolled schedule, the restarting tiebreak cascade, playoffs) and
//! Challengers ([`challengers`]: winner stays, first to x wins).
//!
//! What both formats share is here: the rule sets (2T, 2T+), allied
//! colours, a game's score in counted pawns with its time, and their
//! validation.

pub mod analysis;
pub mod carry;
pub mod challengers;
pub mod clinch;
pub mod league;
pub mod ratings;
pub mod rules;
pub mod table;

use std::fmt;

use crate::RuleError;

pub use rules::{ChallengersRules, LeagueRules, Playoff, Series};

/// A player of a three-player XMadn event: 1, 2 or 3 in order of entry.
pub use crate::model::PlayerId;

/// The set of rules a double-threat game is played under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// Championship (2T): "the first player to bring home all pawns of one
    /// allied colour" wins; the best one allied colour is counted.
    Championship,
    /// Masters (2T+): "the first player to bring home all pawns of both
    /// allied colours" wins; both allied colours are counted.
    Masters,
}

impl RuleSet {
    /// The winner's counted pawns (XM-R9: 4 in 2T, 8 in 2T+).
    pub fn winning_pawns(self) -> u8 {
        match self {
            RuleSet::Championship => 4,
            RuleSet::Masters => 8,
        }
    }

    /// "2T" or "2T+".
    pub fn code(self) -> &'static str {
        match self {
            RuleSet::Championship => "2T",
            RuleSet::Masters => "2T+",
        }
    }

    /// "Championship" or "Masters".
    pub fn title(self) -> &'static str {
        match self {
            RuleSet::Championship => "Championship",
            RuleSet::Masters => "Masters",
        }
    }

    /// Parse "2T" / "2T+" (or the names).
    pub fn parse(s: &str) -> Option<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "2t" | "championship" => Some(RuleSet::Championship),
            "2t+" | "masters" => Some(RuleSet::Masters),
            _ => None,
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.title(), self.code())
    }
}

/// A player's two allied colours: "Allied colours line up side-by-side as
/// vanguard and rearguard".
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Colours {
    pub vanguard: String,
    pub rearguard: String,
}

impl fmt::Display for Colours {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.vanguard, self.rearguard)
    }
}

impl Colours {
    /// Check a choice of colours against the board's colours (ARB-R25): two
    /// different colours of the board.
    pub fn check(&self, board: &[String], field: &str) -> Result<(), RuleError> {
        for c in [&self.vanguard, &self.rearguard] {
            if !board.iter().any(|b| b == c) {
                return Err(RuleError::new(
                    "XMadn Double-Threat",
                    format!(
                        "{c:?} is not a colour of the board; the colours are {}",
                        board.join(", ")
                    ),
                )
                .field(field));
            }
        }
        if self.vanguard == self.rearguard {
            return Err(RuleError::new(
                "XMadn Double-Threat",
                "vanguard and rearguard must be two different allied colours",
            )
            .field(field));
        }
        Ok(())
    }

    /// The opponent's allied colours: the two board colours this choice
    /// leaves, in the board's order (vanguard first; ARB-R25).
    pub fn opposite(&self, board: &[String]) -> Colours {
        let mut rest = board
            .iter()
            .filter(|c| **c != self.vanguard && **c != self.rearguard);
        Colours {
            vanguard: rest.next().cloned().unwrap_or_default(),
            rearguard: rest.next().cloned().unwrap_or_default(),
        }
    }
}

/// The pawns a player of 4 pawns per colour can bring home in one allied
/// colour.
pub const PAWNS_PER_COLOUR: u8 = 4;

/// The pawns one player brought home in a game, per allied colour
/// ("Allied colours line up side-by-side as vanguard and rearguard").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Home {
    pub vanguard: u8,
    pub rearguard: u8,
}

impl Home {
    /// Each colour has 0 to [`PAWNS_PER_COLOUR`] pawns home.
    pub fn check(&self, who: &str) -> Result<(), RuleError> {
        for (colour, n) in [("vanguard", self.vanguard), ("rearguard", self.rearguard)] {
            if n > PAWNS_PER_COLOUR {
                return Err(RuleError::new(
                    "XMadn League: Game results",
                    format!(
                        "{who} brought home {n} pawns of the {colour}: a colour has {PAWNS_PER_COLOUR} pawns"
                    ),
                )
                .field("home"));
            }
        }
        Ok(())
    }
}

impl fmt::Display for Home {
    /// "4/1": vanguard, then rearguard.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.vanguard, self.rearguard)
    }
}

impl RuleSet {
    /// The counted pawns of what a player brought home: "the pawns of the
    /// respective players' best one allied colour (2T) or both allied
    /// colours (2T+)" (XMadn League: Game results).
    pub fn counted(self, home: Home) -> u8 {
        match self {
            RuleSet::Championship => home.vanguard.max(home.rearguard),
            RuleSet::Masters => home.vanguard + home.rearguard,
        }
    }

    /// The counted pawns of two players from what each brought home per
    /// allied colour (ARB-R65), each figure checked first (`names` for the
    /// refusal).
    pub fn counted_pair(self, home: &[Home; 2], names: [&str; 2]) -> Result<[u8; 2], RuleError> {
        for (h, name) in home.iter().zip(names) {
            h.check(name)?;
        }
        Ok(home.map(|h| self.counted(h)))
    }

    /// A refusal of the counted pawns derived from `home` (ARB-R65): says
    /// where they came from and names the field `home`; any other refusal
    /// as it is.
    pub fn home_refusal(self, e: RuleError, home: &[Home; 2]) -> RuleError {
        if e.field.as_deref() == Some("pawns") {
            let message = format!(
                "{} (counted from the pawns brought home, {} v {}: {})",
                e.message,
                home[0],
                home[1],
                self.counted_words()
            );
            RuleError { message, ..e }.field("home")
        } else {
            e
        }
    }

    /// Which of the pawns brought home count, in words.
    pub fn counted_words(self) -> &'static str {
        match self {
            RuleSet::Championship => "the best one allied colour (2T)",
            RuleSet::Masters => "both allied colours (2T+)",
        }
    }
}

/// The score of a two-player counted game: each player's counted pawns
/// (in the game's player order) and the game's time in seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Score {
    pub pawns: [u8; 2],
    pub seconds: u32,
}

impl Score {
    /// Which of the two players won: the one with the winning count.
    /// Valid only for a checked score.
    pub fn winner_index(&self) -> usize {
        usize::from(self.pawns[1] > self.pawns[0])
    }

    /// Check the counted pawns against the rule set (XM-R9): the winner has
    /// all counted pawns (4 in 2T, 8 in 2T+), the loser fewer.
    pub fn check(&self, rule_set: RuleSet) -> Result<(), RuleError> {
        let w = rule_set.winning_pawns();
        let [a, b] = self.pawns;
        let ok = (a == w && b < w) || (b == w && a < w);
        if !ok {
            return Err(RuleError::new(
                "XMadn League: Game results; XM-R9",
                format!(
                    "{a}-{b} is not a {} result: the winner has {w} counted pawns and the loser 0 to {}",
                    rule_set.code(),
                    w - 1
                ),
            )
            .field("pawns"));
        }
        if self.seconds == 0 {
            return Err(RuleError::new(
                "XMadn League: Table, step 5",
                "a game's time must be more than 0:00",
            )
            .field("time"));
        }
        Ok(())
    }

    /// Full minutes of the game's time (XM-R2: "full minutes only").
    pub fn full_minutes(&self) -> u32 {
        self.seconds / 60
    }
}

/// A time in seconds as `m:ss`.
pub fn format_time(seconds: u32) -> String {
    format!("{}:{:02}", seconds / 60, seconds % 60)
}

/// Parse a game time: `m:ss` (`23:05`), `h:mm:ss`, or `23m05s`.
pub fn parse_time(s: &str) -> Option<u32> {
    let s = s.trim();
    if let Some(rest) = s.strip_suffix('s') {
        let (m, sec) = rest.split_once('m')?;
        let m: u32 = m.parse().ok()?;
        let sec: u32 = sec.parse().ok()?;
        return (sec < 60)
            .then(|| m.checked_mul(60)?.checked_add(sec))
            .flatten();
    }
    let parts: Vec<&str> = s.split(':').collect();
    let nums: Option<Vec<u32>> = parts
        .iter()
        .map(|p| {
            (!p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
                .then(|| p.parse().ok())
                .flatten()
        })
        .collect();
    match nums?.as_slice() {
        [m, sec] if *sec < 60 && parts[1].len() == 2 => m.checked_mul(60)?.checked_add(*sec),
        [h, m, sec] if *m < 60 && *sec < 60 && parts[2].len() == 2 => {
            h.checked_mul(3600)?.checked_add(m * 60 + sec)
        }
        _ => None,
    }
}

/// Check three distinct, non-empty player names.
pub fn check_players(names: &[String]) -> Result<(), RuleError> {
    if names.len() != 3 {
        return Err(RuleError::new(
            "XM-R8",
            format!(
                "a double-threat league or Challengers event has three players, not {}",
                names.len()
            ),
        )
        .field("players"));
    }
    player_names(names).map(drop)
}

/// The three players' names as they are stored (ARB-R62: NFC, single
/// spaces), each passing the one name check of every format, no two the
/// same name under its normalization.
pub fn player_names(names: &[String]) -> Result<Vec<String>, RuleError> {
    let mut out: Vec<String> = Vec::with_capacity(names.len());
    for n in names {
        // The one name check of every format (ARB-R22, ARB-R50, ARB-R62).
        let name = crate::model::person_name(n, 64).map_err(|why| {
            RuleError::new("ARB-R22", format!("player name {n:?} {why}")).field("players")
        })?;
        if let Some(existing) = out.iter().find(|m| crate::model::same_name(m, &name)) {
            return Err(RuleError::new(
                "ARB-R62",
                format!(
                    "{name:?} is the same name as {existing:?}, already a player: names are compared without regard to case, accents' composition or spacing"
                ),
            )
            .field("players"));
        }
        out.push(name);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_follow_the_rule_set() {
        let ok = Score {
            pawns: [4, 3],
            seconds: 60,
        };
        assert!(ok.check(RuleSet::Championship).is_ok());
        assert!(ok.check(RuleSet::Masters).is_err());
        assert!(
            Score {
                pawns: [5, 8],
                seconds: 60
            }
            .check(RuleSet::Masters)
            .is_ok()
        );
        assert!(
            Score {
                pawns: [4, 4],
                seconds: 60
            }
            .check(RuleSet::Championship)
            .is_err()
        );
        assert_eq!(
            Score {
                pawns: [2, 4],
                seconds: 1
            }
            .winner_index(),
            1
        );
    }

    #[test]
    fn times_parse() {
        assert_eq!(parse_time("23:05"), Some(23 * 60 + 5));
        assert_eq!(parse_time("1:02:03"), Some(3723));
        assert_eq!(parse_time("23m5s"), Some(23 * 60 + 5));
        assert_eq!(parse_time("23:5"), None);
        assert_eq!(parse_time("23:60"), None);
        assert_eq!(parse_time("x"), None);
        assert_eq!(format_time(23 * 60 + 5), "23:05");
    }
}
