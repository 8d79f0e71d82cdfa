//! What the actions of every format share: who may carry out an action
//! ([`Who`]), what an action on a league, Challengers event or Sunjang
//! league answers ([`FormatDone`]), and the checks and helpers of
//! [`common`]. Each format's own actions live with it: the ladder's in
//! [`crate::formats::tws::actions`], the XMadn league's and Challengers'
//! in [`crate::formats::xmadn::actions`], the Sunjang league's in
//! [`crate::formats::sunjang::actions`].

use arbiter_service::Executed;
use arbiter_service::sunjang::SeasonView;
use arbiter_store::Seq;
use serde::Serialize;
use utoipa::ToSchema;

pub(crate) mod common;
pub(crate) mod reports;

use self::common::{message, sentence};

/// Who may carry out an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Who {
    /// Any logged-in account.
    Account,
    /// A player of the competition (the action is about himself).
    Player,
    /// A player of the named game, or a moderator who is not in it.
    GamePlayerOrModerator,
    /// A player of the named game only.
    GamePlayer,
    /// A moderator who is not in the named game.
    ModeratorNotInGame,
    /// A moderator, or the player the action names.
    ModeratorOrSelf,
    Moderator,
    Owner,
}

/// What an action on a league, Challengers event or Sunjang league did.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FormatDone {
    pub action: String,
    /// The competition's version after it (before it, for a preview).
    pub version: Seq,
    /// Nothing was stored: a preview, or a retry (same idempotency key).
    pub stored: bool,
    pub replayed: bool,
    /// What happened, in words.
    pub message: String,
    /// For a Sunjang season planned or previewed: the season, with every
    /// placement explained.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub season: Option<SeasonView>,
    /// For a Sunjang layout previewed: every rule of section A it breaks,
    /// with its figures (ARB-R55).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(value_type = Vec<Object>)]
    pub violations: Vec<arbiter_service::views::ExplanationView>,
}

impl FormatDone {
    /// The answer to an executed action: its events in words, each
    /// summary (`arbiter_service::summary`) made a sentence.
    pub(crate) fn of<E>(
        action: &str,
        executed: &Executed<E>,
        summarize: impl Fn(&E) -> String,
    ) -> Self {
        FormatDone {
            action: action.to_string(),
            version: executed.last,
            stored: !executed.replayed,
            replayed: executed.replayed,
            message: message(executed, |e| sentence(&summarize(e))),
            season: None,
            violations: Vec::new(),
        }
    }
}
