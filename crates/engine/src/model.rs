//! The model shared by every format: players, sides, games and results.

use std::fmt;

use chrono::{DateTime, Utc};

/// A moment, always UTC. Commands carry their time so the engine stays pure.
pub type Time = DateTime<Utc>;

/// A player's id inside one competition. Ids are dense, from 1, in order of
/// registration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayerId(pub u32);

impl PlayerId {
    /// Index into dense per-player vectors.
    pub fn index(self) -> usize {
        self.0 as usize - 1
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "P{}", self.0)
    }
}

/// A game's id inside one competition, dense from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(pub u32);

impl GameId {
    pub fn index(self) -> usize {
        self.0 as usize - 1
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "G{}", self.0)
    }
}

/// A player as registered: the display name and the surname used in game
/// names ("Ladder Round N USSRSurname v. USSurname").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    pub id: PlayerId,
    pub name: String,
    pub surname: String,
}

/// A side (Twilight Struggle) or colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    Ussr,
    Us,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Ussr => Side::Us,
            Side::Us => Side::Ussr,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::Ussr => "USSR",
            Side::Us => "US",
        }
    }

    pub fn parse(s: &str) -> Option<Side> {
        match s.to_ascii_lowercase().as_str() {
            "ussr" | "soviet" | "su" => Some(Side::Ussr),
            "us" | "usa" => Some(Side::Us),
            _ => None,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a game counts as for one of its participants: an eliminator's game
/// is a ladder game for his opponent and a quick-round game for himself
/// (TWS Pairings, TWS Quick Rounds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Counts {
    Ladder,
    QuickRound,
}

impl Counts {
    pub fn name(self) -> &'static str {
        match self {
            Counts::Ladder => "ladder",
            Counts::QuickRound => "quick round",
        }
    }
}

/// One player in one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Participant {
    pub player: PlayerId,
    pub side: Side,
    pub counts: Counts,
}

/// The outcome of a two-sided game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Side),
    Tie,
}

impl Outcome {
    pub fn describe(self) -> &'static str {
        match self {
            Outcome::Win(Side::Ussr) => "USSR win",
            Outcome::Win(Side::Us) => "US win",
            Outcome::Tie => "tie",
        }
    }
}

/// How a game ended (Twilight Struggle's victory conditions and the ways a
/// game ends off the board).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EndTag {
    /// A side reached 20 victory points.
    Vp,
    /// Nuclear war: DEFCON 1 on a player's action.
    Defcon,
    /// Europe control scored.
    EuropeControl,
    /// Final scoring after turn 10.
    FinalScoring,
    /// The Wargames event.
    Wargames,
    /// A player conceded.
    Concession,
    /// A player did not play (forfeit).
    Forfeit,
    /// Decided by the moderator after the deadline.
    Adjudication,
    /// Anything else, named by the moderator.
    Other(String),
}

impl EndTag {
    pub const KNOWN: [(&'static str, EndTag); 8] = [
        ("vp", EndTag::Vp),
        ("defcon", EndTag::Defcon),
        ("europe", EndTag::EuropeControl),
        ("final-scoring", EndTag::FinalScoring),
        ("wargames", EndTag::Wargames),
        ("concession", EndTag::Concession),
        ("forfeit", EndTag::Forfeit),
        ("adjudication", EndTag::Adjudication),
    ];

    /// The short tag used in files and on the command line.
    pub fn tag(&self) -> &str {
        match self {
            EndTag::Vp => "vp",
            EndTag::Defcon => "defcon",
            EndTag::EuropeControl => "europe",
            EndTag::FinalScoring => "final-scoring",
            EndTag::Wargames => "wargames",
            EndTag::Concession => "concession",
            EndTag::Forfeit => "forfeit",
            EndTag::Adjudication => "adjudication",
            EndTag::Other(s) => s,
        }
    }

    /// Parse a tag; unknown words become [`EndTag::Other`]. Aliases accepted:
    /// `20vp`, `nuclear`, `europe-control`, `final`, `resign`.
    pub fn parse(s: &str) -> EndTag {
        let l = s.trim().to_ascii_lowercase().replace([' ', '_'], "-");
        match l.as_str() {
            "vp" | "20vp" | "victory-points" => EndTag::Vp,
            "defcon" | "nuclear" | "nuclear-war" => EndTag::Defcon,
            "europe" | "europe-control" => EndTag::EuropeControl,
            "final-scoring" | "final" | "turn-10" => EndTag::FinalScoring,
            "wargames" => EndTag::Wargames,
            "concession" | "resign" | "resignation" | "concede" => EndTag::Concession,
            "forfeit" => EndTag::Forfeit,
            "adjudication" | "adjudicated" => EndTag::Adjudication,
            _ => EndTag::Other(s.trim().to_string()),
        }
    }

    pub fn describe(&self) -> &str {
        match self {
            EndTag::Vp => "20 VP",
            EndTag::Defcon => "DEFCON",
            EndTag::EuropeControl => "Europe control",
            EndTag::FinalScoring => "final scoring",
            EndTag::Wargames => "Wargames",
            EndTag::Concession => "concession",
            EndTag::Forfeit => "forfeit",
            EndTag::Adjudication => "adjudication",
            EndTag::Other(s) => s,
        }
    }
}

/// Where a game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameStatus {
    /// Paired, not yet decided.
    Scheduled,
    /// Played to its end before the deadline.
    Played,
    /// The players agreed on an outcome after the deadline.
    Agreed,
    /// Decided by the moderator after the deadline.
    Adjudicated,
    /// One player did not play; the other wins.
    Forfeited,
    /// Called off: counts for nobody.
    Cancelled,
}

impl GameStatus {
    pub fn name(self) -> &'static str {
        match self {
            GameStatus::Scheduled => "scheduled",
            GameStatus::Played => "played",
            GameStatus::Agreed => "agreed",
            GameStatus::Adjudicated => "adjudicated",
            GameStatus::Forfeited => "forfeited",
            GameStatus::Cancelled => "cancelled",
        }
    }

    /// Whether the game needs nothing more before its round can close.
    pub fn is_resolved(self) -> bool {
        !matches!(self, GameStatus::Scheduled)
    }
}

/// The record of an adjudication (TWS Conduct of Games): the final game
/// state, both players' statements, the third-party opinion and the
/// moderator's decision.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Adjudication {
    pub final_state: String,
    pub ussr_statement: Option<String>,
    pub us_statement: Option<String>,
    pub third_party: Option<String>,
    pub decision: String,
}

/// A game's decided result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameResult {
    pub outcome: Outcome,
    pub ended_by: EndTag,
    /// Final VP marker (positive toward the US, negative toward the USSR).
    pub vp: Option<i32>,
    /// The turn the game ended in.
    pub turn: Option<u8>,
    /// Free text (for example a link to the ACTS log).
    pub note: Option<String>,
    /// `Played`, `Agreed`, `Adjudicated` or `Forfeited`.
    pub status: GameStatus,
    pub adjudication: Option<Adjudication>,
    pub at: Time,
}
