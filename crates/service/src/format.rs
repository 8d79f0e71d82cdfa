//! The competition formats the command path serves. Each format is an
//! engine state with its decider, and the record crate's codec for its
//! events; the service's load, execute, undo and history are written once
//! for all of them.

use std::fmt::Debug;

use arbiter_engine::RuleError;
use arbiter_engine::tws;
use arbiter_record::RecordError;

/// A competition format: its state (a fold of its events), commands and
/// events, and how its events are stored.
pub trait Format: Default + Clone + Debug + Send + Sync + 'static {
    type Event: Clone + Debug + Send + Sync + 'static;
    type Command: Clone + Debug + Send + Sync + 'static;

    /// The format's name for users, with its article ("a TWS ladder").
    const NAME: &'static str;
    /// The stored kind of the event that creates a competition of this
    /// format: how the service tells formats apart.
    const CREATED: &'static str;

    fn decide(&self, command: Self::Command) -> Result<Vec<Self::Event>, RuleError>;
    fn apply(&mut self, event: &Self::Event);
    fn try_apply(&mut self, event: &Self::Event) -> Result<(), RuleError>;
    fn encode(event: &Self::Event) -> String;
    fn decode(payload: &str) -> Result<Self::Event, RecordError>;
    fn kind(event: &Self::Event) -> &'static str;
    /// The event an undo appends.
    fn revert(seq: u64, summary: String) -> Self::Event;
    /// The sequence an undo event undoes.
    fn reverted(event: &Self::Event) -> Option<u64>;
    /// The command with its time (and drawn seeds) left out: what
    /// identifies a request for idempotency.
    fn request(command: &Self::Command) -> String;
}

impl Format for tws::Ladder {
    type Event = tws::Event;
    type Command = tws::Command;
    const NAME: &'static str = "a TWS ladder";
    const CREATED: &'static str = "created";

    fn decide(&self, command: tws::Command) -> Result<Vec<tws::Event>, RuleError> {
        tws::Ladder::decide(self, command)
    }
    fn apply(&mut self, event: &tws::Event) {
        tws::Ladder::apply(self, event);
    }
    fn try_apply(&mut self, event: &tws::Event) -> Result<(), RuleError> {
        tws::Ladder::try_apply(self, event)
    }
    fn encode(event: &tws::Event) -> String {
        arbiter_record::encode(event)
    }
    fn decode(payload: &str) -> Result<tws::Event, RecordError> {
        arbiter_record::decode(payload)
    }
    fn kind(event: &tws::Event) -> &'static str {
        event.kind()
    }
    fn revert(seq: u64, summary: String) -> tws::Event {
        tws::Event::Reverted { seq, summary }
    }
    fn reverted(event: &tws::Event) -> Option<u64> {
        match event {
            tws::Event::Reverted { seq, .. } => Some(*seq),
            _ => None,
        }
    }
    fn request(command: &tws::Command) -> String {
        format!("{:?}", command.without_time())
    }
}

/// The format of a competition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum CompetitionFormat {
    /// A Twilight Struggle ladder.
    TwsLadder,
    /// An XMadn Double-Threat league.
    XmadnLeague,
    /// An XMadn Challengers event (winner stays, first to x).
    XmadnChallengers,
    /// A Sunjang Baduk league.
    SunjangLeague,
}

impl CompetitionFormat {
    /// The format whose creating event has this stored kind.
    pub fn of_kind(kind: &str) -> Option<Self> {
        use arbiter_engine::sunjang::season::League as Sunjang;
        use arbiter_engine::xmadn::{challengers::Challengers, league::League};
        Some(match kind {
            k if k == tws::Ladder::CREATED => Self::TwsLadder,
            k if k == League::CREATED => Self::XmadnLeague,
            k if k == Challengers::CREATED => Self::XmadnChallengers,
            k if k == Sunjang::CREATED => Self::SunjangLeague,
            _ => return None,
        })
    }

    /// Words for users, with the article.
    pub fn words(self) -> &'static str {
        match self {
            Self::TwsLadder => "a TWS ladder",
            Self::XmadnLeague => "an XMadn league",
            Self::XmadnChallengers => "an XMadn Challengers event",
            Self::SunjangLeague => "a Sunjang league",
        }
    }
}

/// A line of the list of competitions (as `arbiter competition list --json`).
#[derive(Debug, Clone, serde::Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct CompetitionSummary {
    pub id: String,
    pub name: String,
    pub format: CompetitionFormat,
    /// Ladder members, league or Challengers players, Sunjang entrants.
    pub members: usize,
    /// Ladder rounds, league double round-robins, Challengers games,
    /// Sunjang seasons.
    pub rounds: usize,
    /// The number of events: what `If-Match` names on writes.
    pub version: u64,
}
