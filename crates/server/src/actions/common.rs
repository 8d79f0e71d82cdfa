//! What the actions of every format share: the role check and its
//! refusals, the moderator grants of the formats that keep their moderators
//! as grants only, linking an account to a player, the message after an
//! action, and creating a competition for an organizer.

use arbiter_engine::model::{Linked, PlayerId, Time};
use arbiter_service::{Context, Executed, Format, ServiceError};
use arbiter_store::{Account, AccountStore, Grant, Role, Seq, StoreError};

use super::Who;
use crate::AppState;
use crate::actions::FormatDone;
use crate::auth::{Caller, Roles};
use crate::error::ApiError;

/// How a format's refusals read.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Refusals {
    /// The rules a moderator's refusal to act on his own game cites.
    pub own_game: &'static str,
    /// What the general refusal adds after the action's name.
    pub otherwise: &'static str,
}

/// The ladder: players report and confirm their own results.
pub(crate) const LADDER: Refusals = Refusals {
    own_game: "TWS Conduct of Games; ARB-R45",
    otherwise: "",
};

/// The XMadn league and Challengers and the Sunjang league.
pub(crate) const RECORDED_BY_A_MODERATOR: Refusals = Refusals {
    own_game: "ARB-R45",
    otherwise: ": results here are recorded by a moderator",
};

/// Check the roles the owner, moderator and account checks need:
/// `in_game` says whether the caller plays in the game the action is about
/// (asked only of a moderator, for [`Who::ModeratorNotInGame`]). Any other
/// [`Who`] is refused here.
pub(crate) fn check_role(
    caller: &Caller,
    roles: &Roles,
    who: Who,
    name: &str,
    in_game: impl FnOnce() -> Result<bool, ApiError>,
    refusals: Refusals,
) -> Result<(), ApiError> {
    let account = caller.account()?;
    let refuse = |why: String| Err(ApiError::forbidden(why));
    match who {
        Who::Account => Ok(()),
        Who::Owner if roles.owner => Ok(()),
        Who::Owner => refuse(format!(
            "only the competition's owner may {name} ({} is {} here)",
            account.username,
            roles.describe()
        )),
        Who::Moderator | Who::ModeratorOrSelf if roles.moderates() => Ok(()),
        Who::ModeratorNotInGame if roles.moderates() && in_game()? => refuse(format!(
            "nobody moderates his own game: another moderator must {name} ({})",
            refusals.own_game
        )),
        Who::ModeratorNotInGame if roles.moderates() => Ok(()),
        _ => refuse(format!(
            "{} is {} in this competition and may not {name}{}",
            account.username,
            roles.describe(),
            refusals.otherwise
        )),
    }
}

/// Who asks, and what about: the caller's account and roles in
/// `competition`, and its state (of format `F`) with its version.
/// The caller's player is the one his account is linked to by the
/// competition's own events (ARB-R50).
pub(crate) async fn load_for<F: Format + Linked>(
    state: &AppState,
    caller: &Caller,
    competition: &str,
) -> Result<(Account, Roles, F, Seq), ApiError> {
    let account = caller.account()?.clone();
    let mut roles = caller.roles(state, competition).await?;
    let (current, version) = state.service.load_as::<F>(competition, None).await?;
    roles.player = current.account_player(&account.username);
    Ok((account, roles, current, version))
}

/// Whether the caller's player is one of `players`: `me` holds his linked
/// player and the player of his account's own name, for he plays under it
/// even when no account is linked to it (ARB-R2).
pub(crate) fn plays(me: &[Option<PlayerId>], players: &[PlayerId]) -> bool {
    me.iter().flatten().any(|m| players.contains(m))
}

pub(crate) fn required(value: &str, field: &str) -> Result<String, ApiError> {
    let v = value.trim();
    if v.is_empty() {
        Err(ApiError::bad_request(format!("{field} is required")).with_field(field))
    } else {
        Ok(v.to_string())
    }
}

/// The context of a write by `account`.
pub(crate) fn context(
    account: &Account,
    at: Time,
    idempotency_key: Option<String>,
    expected: Option<Seq>,
) -> Context {
    Context {
        actor: account.username.clone(),
        at,
        idempotency_key,
        expected,
    }
}

/// A grant in `competition`.
pub(crate) fn grant(
    competition: &str,
    username: String,
    role: Role,
    player: Option<String>,
) -> Grant {
    Grant {
        competition: competition.to_string(),
        username,
        role,
        player,
    }
}

/// The account `username` (looked up as given), or 400 naming `shown`.
pub(crate) async fn existing_account(
    state: &AppState,
    username: &str,
    shown: &str,
) -> Result<Account, ApiError> {
    state
        .service
        .store()
        .account(username)
        .await
        .map_err(ApiError::from_store)?
        .ok_or_else(|| {
            ApiError::bad_request(format!("there is no account {shown:?}")).with_field("username")
        })
}

/// The username of an existing account to link to a player (ARB-R50), or
/// 400 naming the field `account`: checked before anything is stored.
pub(crate) async fn account_to_link(state: &AppState, username: &str) -> Result<String, ApiError> {
    let username = required(username, "account")?.to_lowercase();
    match state
        .service
        .store()
        .account(&username)
        .await
        .map_err(ApiError::from_store)?
    {
        Some(a) => Ok(a.username),
        None => Err(
            ApiError::bad_request(format!("there is no account {username:?} to link"))
                .with_field("account"),
        ),
    }
}

/// Keep the directory of where accounts play in step with the events
/// just stored, for each account they touch (`accounts`): a
/// [`Role::Player`] grant naming the player the account acts as now, which
/// the account page lists, or none. The directory gives no right: the
/// player an account acts as is read from the competition's events alone
/// (ARB-R50).
pub(crate) async fn directory<S: Linked + Named>(
    state: &AppState,
    competition: &str,
    after: &S,
    accounts: impl IntoIterator<Item = String>,
) -> Result<(), ApiError> {
    let store = state.service.store();
    for account in accounts {
        let result = match after.account_player(&account) {
            Some(player) => {
                store
                    .grant(&grant(
                        competition,
                        account,
                        Role::Player,
                        Some(after.player_name(player)),
                    ))
                    .await
            }
            None => store
                .revoke(competition, &account, Role::Player)
                .await
                .map(|_| ()),
        };
        result.map_err(ApiError::from_store)?;
    }
    Ok(())
}

/// A competition that names its players.
pub(crate) trait Named {
    fn player_name(&self, player: PlayerId) -> String;
}

impl Named for arbiter_engine::tws::Ladder {
    fn player_name(&self, player: PlayerId) -> String {
        self.name_of(player)
    }
}

impl Named for arbiter_engine::xmadn::league::League {
    fn player_name(&self, player: PlayerId) -> String {
        self.name_of(player)
    }
}

impl Named for arbiter_engine::xmadn::challengers::Challengers {
    fn player_name(&self, player: PlayerId) -> String {
        self.name_of(player)
    }
}

impl Named for arbiter_engine::sunjang::season::League {
    fn player_name(&self, player: PlayerId) -> String {
        self.name_of(player)
    }
}

/// Add (for `add-moderator`) or remove `username`'s moderator grant in
/// `competition`. The XMadn league, Challengers and the Sunjang league
/// keep their moderators as grants only (their engine state has none):
/// nothing is appended to the event log, and the answer carries `version`,
/// the competition's version, unchanged. As for every write, a stale
/// expected version is refused (409); an unknown account is refused (400,
/// `username`).
pub(crate) async fn moderator_grant(
    state: &AppState,
    competition: &str,
    action: &str,
    username: &str,
    (version, expected): (Seq, Option<Seq>),
) -> Result<FormatDone, ApiError> {
    if let Some(expected) = expected.filter(|e| *e != version) {
        return Err(ServiceError::Store(StoreError::Conflict {
            competition: competition.to_string(),
            expected,
            actual: version,
        })
        .into());
    }
    let store = state.service.store();
    let username = required(username, "username")?.to_lowercase();
    let target = existing_account(state, &username, &username).await?;
    let who = format!("{} ({})", target.display_name, target.username);
    let (stored, message) = if action == "add-moderator" {
        store
            .grant(&grant(
                competition,
                target.username.clone(),
                Role::Moderator,
                None,
            ))
            .await
            .map_err(ApiError::from_store)?;
        (true, format!("{who} is a moderator here."))
    } else if store
        .revoke(competition, &target.username, Role::Moderator)
        .await
        .map_err(ApiError::from_store)?
    {
        (true, format!("{who} is no longer a moderator here."))
    } else {
        (
            false,
            format!("{who} was not a moderator here; nothing changed."),
        )
    };
    Ok(FormatDone {
        action: action.to_string(),
        version,
        stored,
        replayed: false,
        message,
        season: None,
        violations: Vec::new(),
    })
}

/// What an executed action did, in words: each event in a sentence
/// (`describe`), or that it was a retry, or "Done." when it did nothing
/// to tell.
pub(crate) fn message<E>(executed: &Executed<E>, describe: impl Fn(&E) -> String) -> String {
    if executed.replayed {
        return "Already done (the same request was received before); nothing new was stored."
            .into();
    }
    let message = executed
        .events
        .iter()
        .map(describe)
        .collect::<Vec<_>>()
        .join(" ");
    if message.is_empty() {
        "Done.".into()
    } else {
        message
    }
}

/// A one-line summary as a sentence: the first letter upper-cased, a full
/// stop (unless it already ends with one).
pub(crate) fn sentence(line: &str) -> String {
    let line = line.trim_end();
    let mut chars = line.chars();
    match chars.next() {
        Some(first) => {
            let stop = if line.ends_with(['.', '!', '?']) {
                ""
            } else {
                "."
            };
            format!("{}{}{stop}", first.to_uppercase(), chars.as_str())
        }
        None => String::new(),
    }
}

/// The organizer's account, or 403.
pub(crate) fn organizer(caller: &Caller) -> Result<Account, ApiError> {
    let account = caller.account()?.clone();
    if !account.organizer {
        return Err(ApiError::forbidden(
            "only an organizer's account may create competitions (`arbiter account add --organizer`)",
        ));
    }
    Ok(account)
}

/// The creator becomes owner and first moderator.
pub(crate) async fn grant_creator(
    state: &AppState,
    id: &str,
    account: &Account,
) -> Result<(), ApiError> {
    let store = state.service.store();
    for role in [Role::Owner, Role::Moderator] {
        store
            .grant(&grant(id, account.username.clone(), role, None))
            .await
            .map_err(ApiError::from_store)?;
    }
    Ok(())
}

/// A preset's text, or the rules given.
pub(crate) fn rules_text(rules: Option<&str>, preset: &str) -> Result<String, ApiError> {
    match rules.map(str::trim).filter(|r| !r.is_empty()) {
        Some(text) => Ok(text.to_string()),
        None => arbiter_record::preset(preset)
            .map(str::to_string)
            .ok_or_else(|| ApiError::internal(format!("the {preset} preset is missing"))),
    }
}

/// The rules given as a bad request naming the `rules` field.
pub(crate) fn bad_rules(e: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request(format!("the rules: {e}")).with_field("rules")
}
