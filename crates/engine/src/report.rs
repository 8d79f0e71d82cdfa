//! A player's report of his own game's result, waiting for confirmation
//! (ARB-R45), as the XMadn league, XMadn Challengers and the Sunjang league
//! take it beside the ladder (ARB-R81): who may report, who may confirm or
//! dispute, and the texts of the refusals. Each format keeps its pending
//! reports, its events and its result shape in its own folder; only these
//! checks are shared.

use crate::RuleError;
use crate::model::{Links, PlayerId, Time};

/// Who confirms or disputes a report: the game's other player, or a
/// moderator who does not play in the game. The ladder's type, shared.
pub use crate::tws::Confirmer;

/// A report as the state keeps it until it is confirmed, disputed or
/// overtaken by a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pending<R> {
    pub result: R,
    pub by: PlayerId,
    pub at: Time,
}

/// The longest reason for a dispute (ARB-R23).
pub const MAX_REASON: usize = 4000;

/// ARB-R45: a result is reported by one of the game's two players.
pub fn check_reporter(
    clause: &str,
    players: [PlayerId; 2],
    by: PlayerId,
    game: &str,
    name_of: &dyn Fn(PlayerId) -> String,
) -> Result<(), RuleError> {
    if players.contains(&by) {
        return Ok(());
    }
    Err(RuleError::new(
        clause,
        format!(
            "{} does not play in {game}: a result is reported by one of its players ({} or {}), or recorded by a moderator (ARB-R45)",
            name_of(by),
            name_of(players[0]),
            name_of(players[1]),
        ),
    )
    .field("by"))
}

/// ARB-R45, ARB-R81: a report is confirmed or disputed by the game's other
/// player, or by a moderator (whose grant the caller checked: these formats
/// keep their moderators outside the event log) whose account is not linked
/// to one of the game's players. Nobody confirms his own report.
#[allow(clippy::too_many_arguments)]
pub fn check_confirmer(
    clause: &str,
    players: [PlayerId; 2],
    report: (PlayerId, Time),
    by: &Confirmer,
    at: Time,
    links: &Links,
    game: &str,
    name_of: &dyn Fn(PlayerId) -> String,
    verb: &str,
) -> Result<(), RuleError> {
    let (reporter, reported) = report;
    let other = if players[0] == reporter {
        players[1]
    } else {
        players[0]
    };
    match by {
        Confirmer::Player(p) if *p == reporter => {
            return Err(RuleError::new(
                clause,
                format!(
                    "nobody confirms his own game's report: {} reported the result of {game}, so {} or a moderator who does not play in it {verb} it (ARB-R45)",
                    name_of(*p),
                    name_of(other),
                ),
            )
            .field("by"));
        }
        Confirmer::Player(p) if !players.contains(p) => {
            return Err(RuleError::new(
                clause,
                format!(
                    "{} does not play in {game}: {} or a moderator who does not play in it {verb} the report (ARB-R45)",
                    name_of(*p),
                    name_of(other),
                ),
            )
            .field("by"));
        }
        Confirmer::Player(_) => {}
        Confirmer::Moderator(account) => {
            if let Some(p) = links.player_of(account).filter(|p| players.contains(p)) {
                return Err(RuleError::new(
                    clause,
                    format!(
                        "\"No participant in a game may moderate his own game\": {account} plays in {game} as {} and {verb} its report only as its player (ARB-R45)",
                        name_of(p),
                    ),
                )
                .field("by"));
            }
        }
    }
    if at < reported {
        return Err(RuleError::new(
            clause,
            format!(
                "the result of {game} was reported on {}; it cannot be {} on {}",
                reported.format("%Y-%m-%d"),
                if verb == "confirms" {
                    "confirmed"
                } else {
                    "disputed"
                },
                at.format("%Y-%m-%d"),
            ),
        )
        .field("at"));
    }
    Ok(())
}

/// The dispute's reason, trimmed: required, at most [`MAX_REASON`]
/// characters (ARB-R23).
pub fn dispute_reason(clause: &str, reason: &str) -> Result<String, RuleError> {
    let r = reason.trim();
    if r.is_empty() {
        return Err(RuleError::new(
            clause,
            "a dispute needs its reason: what is wrong with the report (ARB-R45)",
        )
        .field("reason"));
    }
    if r.chars().count() > MAX_REASON {
        return Err(RuleError::new(
            clause,
            format!("the reason is at most {MAX_REASON} characters (ARB-R23)"),
        )
        .field("reason"));
    }
    Ok(r.to_string())
}

/// The refusal of a report identical to the pending one by the same player.
pub fn already_reported(clause: &str, by: &str, game: &str, other: &str) -> RuleError {
    RuleError::new(
        clause,
        format!(
            "{by} already reported exactly this result of {game}: it awaits the confirmation of {other} or a moderator (ARB-R45)"
        ),
    )
}

/// The refusal of a confirmation or dispute with nothing reported.
pub fn nothing_reported(clause: &str, game: &str) -> RuleError {
    RuleError::new(
        clause,
        format!(
            "no result of {game} is reported: a player reports it first, or a moderator records it (ARB-R45)"
        ),
    )
    .field("game")
}
