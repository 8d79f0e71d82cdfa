//! What the report actions of the XMadn league, XMadn Challengers and the
//! Sunjang league share (ARB-R45, ARB-R81): who may report, confirm or
//! dispute, and who a confirmation is recorded as. The ladder keeps its own
//! in [`crate::formats::tws::actions`].

use arbiter_engine::model::PlayerId;
use arbiter_engine::report::Confirmer;

use super::Who;
use super::common::plays;
use crate::auth::Roles;
use crate::error::ApiError;

/// Who confirms or disputes: the caller as a player of the game (his
/// linked player, ARB-R50), else as a moderator under his account.
pub(crate) fn confirmer(roles: &Roles, players: &[PlayerId], username: &str) -> Confirmer {
    match roles.player {
        Some(me) if players.contains(&me) => Confirmer::Player(me),
        _ => Confirmer::Moderator(username.to_string()),
    }
}

/// The report actions' role check (ARB-R45): a report is made by a player
/// of the game (his linked player); a confirmation or dispute by a player
/// of the game, or by a moderator who does not play in it (by his link or
/// under his own name, ARB-R2). `None`: not a report action.
pub(crate) fn authorize_report(
    roles: &Roles,
    who: Who,
    name: &str,
    me: &[Option<PlayerId>],
    players: &[PlayerId],
) -> Option<Result<(), ApiError>> {
    let linked_in_game = roles.player.is_some_and(|p| players.contains(&p));
    Some(match who {
        Who::GamePlayer if linked_in_game => Ok(()),
        Who::GamePlayer => Err(ApiError::forbidden(format!(
            "only a player of the game, logged in with the account linked to him, may {name} (ARB-R45, ARB-R50)"
        ))),
        Who::GamePlayerOrModerator if linked_in_game => Ok(()),
        Who::GamePlayerOrModerator if roles.moderates() && !plays(me, players) => Ok(()),
        Who::GamePlayerOrModerator if roles.moderates() => Err(ApiError::forbidden(format!(
            "nobody moderates his own game: you play in it, so you {name} only as its player, or another moderator does (ARB-R45)"
        ))),
        Who::GamePlayerOrModerator => Err(ApiError::forbidden(format!(
            "only the game's other player or a moderator who does not play in it may {name} (ARB-R45)"
        ))),
        _ => return None,
    })
}
