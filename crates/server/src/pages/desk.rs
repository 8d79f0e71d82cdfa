//! What every desk shares: who the caller is and the form's tokens
//! ([`DeskHead`]), the parsing of a posted form and its fields, and where a
//! form that worked goes, with its fixed sentence; and the desk's routes
//! (`GET /c/{id}/manage`, [`page`], and `POST /c/{id}/act`, [`act`]), which
//! hand the competition to its format's desk, and a stale form's answer
//! ([`refused`]).

use arbiter_store::{AccountStore, Grant, Role};
use axum::Form;
use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Path, Query, State};
use axum::http::{Request, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::Kind;
use super::forms::{problem, to_login};
use crate::AppState;
use crate::actions::FormatDone;
use crate::auth::{self, Caller, Roles};
use crate::error::{ApiError, ErrorCode};

/// Parse a posted form body as `T`; the error names the problem.
pub(crate) async fn form_of<T: DeserializeOwned>(body: &Bytes) -> Result<T, ApiError> {
    let request = Request::builder()
        .method("POST")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(body.clone()))
        .map_err(ApiError::internal)?;
    Form::<T>::from_request(request, &())
        .await
        .map(|Form(t)| t)
        .map_err(|e| ApiError::bad_request(e.body_text()).with_field("form"))
}

/// What every desk shows: who the caller is, and the form's tokens.
#[derive(Debug)]
pub(crate) struct DeskHead {
    pub id: String,
    pub csrf: String,
    pub key: String,
    pub version: u64,
    pub roles: Roles,
    pub username: String,
    /// The account's own name: he plays under it even unlinked (ARB-R2).
    pub display_name: String,
    /// The fixed sentence of what the last form did.
    pub done: Option<String>,
    /// The name of the player the account is linked to (ARB-R50), once
    /// the desk has read the competition ([`DeskHead::linked`]).
    pub player_name: Option<String>,
    /// A form sent from an older version of this desk: what changed since.
    pub stale: Option<Stale>,
    /// For the owner: the accounts with a moderator grant here.
    pub moderator_accounts: Vec<String>,
}

impl DeskHead {
    /// The head of desk `id` at `version`, with the sentence `done` or the
    /// notice of a stale form.
    pub(crate) async fn of(
        state: &AppState,
        caller: &Caller,
        id: &str,
        version: u64,
        done: Option<&'static str>,
        stale: Option<Stale>,
    ) -> Result<Self, ApiError> {
        let account = caller.account()?;
        let roles = caller.roles(state, id).await?;
        let moderator_accounts = if roles.owner {
            moderator_accounts(
                state
                    .service
                    .store()
                    .grants_in(id)
                    .await
                    .map_err(ApiError::from_store)?,
            )
        } else {
            Vec::new()
        };
        Ok(Self {
            id: id.to_string(),
            csrf: caller.csrf_token().unwrap_or_default().to_string(),
            key: auth::random_token()?,
            version,
            roles,
            username: account.username.clone(),
            display_name: account.display_name.clone(),
            done: done.map(str::to_string),
            player_name: None,
            stale,
            moderator_accounts,
        })
    }

    /// The head with the caller's player in `competition` (ARB-R50).
    pub(crate) fn linked<S>(mut self, competition: &S) -> Self
    where
        S: arbiter_engine::model::Linked + crate::actions::common::Named,
    {
        self.roles.player = competition.account_player(&self.username);
        self.player_name = self.roles.player.map(|p| competition.player_name(p));
        self
    }

    /// The caller plays under one of these names: his linked player's, or
    /// his account's own (ARB-R2); this only hides moderators' forms.
    pub(crate) fn plays(&self, names: &[String]) -> bool {
        [
            self.player_name.as_deref(),
            Some(self.display_name.as_str()),
        ]
        .into_iter()
        .flatten()
        .any(|me| {
            names
                .iter()
                .any(|n| arbiter_engine::model::same_name(n, me))
        })
    }
}

/// The sentence after a form on the desk of an XMadn league or Challengers
/// event or a Sunjang league that worked (fixed texts: nothing from the
/// address is echoed).
pub(crate) fn done_message(action: &str) -> Option<&'static str> {
    Some(match action {
        "roll" => "The dice were rolled.",
        "record-result" => "The result was recorded.",
        "correct-result" => "The result was corrected.",
        "cancel-game" => "The game was cancelled.",
        "cancel-drr" => "The double round-robin was cancelled.",
        "start-playoff" => "The playoff round started.",
        "record-playoff-game" => "The playoff game was recorded.",
        "record-qualifier" => "Game 0 was recorded.",
        "record-game" => "The game was recorded.",
        "add-player" => "The player is registered.",
        "update-player" => "The player's rank and rating were updated.",
        "withdraw-player" => "The player was withdrawn.",
        "return-player" => "The player returned.",
        "change-restrictions" => "The restrictions were changed.",
        "plan-season" => "The season was planned.",
        "give-way" => "The tiebreak decision was recorded.",
        "record-live-match" => "The live match was recorded.",
        "close-season" => "The season was closed.",
        "qualify-final" => "The final round was qualified.",
        "record-final-game" => "The final game was recorded.",
        "withdraw-from-final" => "The withdrawal from the final round was recorded.",
        "add-moderator" => "The moderator was added.",
        "remove-moderator" => "The moderator was removed.",
        "remove-moderator-none" => "That account was not a moderator here: nothing changed.",
        _ => return None,
    })
}

pub(crate) fn text(v: &Option<String>) -> String {
    v.as_deref().unwrap_or("").trim().to_string()
}

pub(crate) fn opt(v: &Option<String>) -> Option<String> {
    v.as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

pub(crate) fn number<T: std::str::FromStr>(
    v: &Option<String>,
    field: &str,
) -> Result<Option<T>, ApiError> {
    match opt(v) {
        None => Ok(None),
        Some(s) => s.parse::<T>().map(Some).map_err(|_| {
            ApiError::bad_request(format!("{field} must be a whole number, not {s:?}"))
                .with_field(field)
        }),
    }
}

/// The refusal of a form's unknown `action`.
pub(crate) fn no_action(action: &str) -> ApiError {
    ApiError::bad_request(format!("there is no action {action:?}")).with_field("action")
}

/// The accounts with a moderator grant among `grants`.
pub(crate) fn moderator_accounts(grants: impl IntoIterator<Item = Grant>) -> Vec<String> {
    grants
        .into_iter()
        .filter(|g| g.role == Role::Moderator)
        .map(|g| g.username)
        .collect()
}

/// Where a desk form that worked goes: the desk, with the fixed sentence
/// of what was done.
pub(crate) fn done_location(id: &str, done: &FormatDone) -> String {
    let what = if done.action == "remove-moderator" && !done.stored {
        "remove-moderator-none"
    } else {
        done.action.as_str()
    };
    format!("/c/{id}/manage?done={what}#done")
}

/// The version a desk form was shown at (`_version`): every form that
/// changes something must send it, so that a write is always decided on
/// the state its sender saw (issue 14, item 4: a form without it, or with
/// an empty one, was stored). A preview changes nothing and may leave it
/// out, as the API's `If-Match`.
pub(crate) fn form_version(v: &Option<String>, preview: bool) -> Result<Option<u64>, ApiError> {
    match number::<u64>(v, "_version")? {
        None if !preview => Err(ApiError::new(
            StatusCode::PRECONDITION_REQUIRED,
            ErrorCode::PreconditionRequired,
            "the form did not say which version of the competition it was filled in on (its _version field is missing or empty); nothing was changed: reload the desk and send the form again",
        )
        .with_field("_version")),
        v => Ok(v),
    }
}

/// What a desk shows above itself when a form was sent from an older
/// version: the events appended since, in words as the history shows
/// them, and what the form held, so that nothing typed is lost.
#[derive(Debug, Clone)]
pub(crate) struct Stale {
    /// The version the form was shown at.
    pub since: u64,
    /// The version the competition is at.
    pub now: u64,
    /// The events after `since`, one line each, oldest first.
    pub changes: Vec<String>,
    /// Events after `since` not listed (past [`STALE_LINES`]).
    pub more: usize,
    /// The form's fields as sent, without its tokens.
    pub sent: Vec<(String, String)>,
}

/// Events listed at most above a desk.
pub(crate) const STALE_LINES: usize = 20;
/// Fields of a form shown again at most, and their length.
const SENT_FIELDS: usize = 40;
const SENT_CHARS: usize = 300;

impl Stale {
    /// The notice for a form sent at `since` while the competition is at
    /// `now`, with the history's lines after `since` and the form `body`.
    pub(crate) async fn new(since: u64, now: u64, mut changes: Vec<String>, body: &Bytes) -> Self {
        let more = changes.len().saturating_sub(STALE_LINES);
        changes.truncate(STALE_LINES);
        // The body parsed as the desk parsed it (none if it does not).
        let pairs: Vec<(String, String)> = form_of(body).await.unwrap_or_default();
        let sent = pairs
            .into_iter()
            .filter(|(k, v)| !k.starts_with('_') && k != "action" && !v.trim().is_empty())
            .take(SENT_FIELDS)
            .map(|(k, v)| {
                let v = if v.chars().count() > SENT_CHARS {
                    v.chars().take(SENT_CHARS).chain(['…']).collect()
                } else {
                    v
                };
                (k, v)
            })
            .collect();
        Self {
            since,
            now,
            changes,
            more,
            sent,
        }
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct DeskQuery {
    done: Option<String>,
}

/// `GET /c/{id}/manage`: the competition's desk for its format. Moderators
/// run the competition here; on a ladder, players report and confirm their
/// results and ask to skip.
pub(crate) async fn page(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Query(q): Query<DeskQuery>,
) -> Response {
    let here = format!("/c/{id}/manage");
    let kind = match crate::pages::kind_of(&state, &id).await {
        Ok(kind) => kind,
        Err(e) => return e.into_response(),
    };
    if caller.account.is_none() {
        return to_login(&here);
    }
    show_desk(&state, &caller, &id, kind, q.done.as_deref(), None).await
}

/// The desk of competition `id` (of format `kind`) in its current state,
/// with the sentence of what the last form did, or the notice of a form
/// sent from an older version.
async fn show_desk(
    state: &AppState,
    caller: &Caller,
    id: &str,
    kind: Kind,
    done: Option<&str>,
    stale: Option<Stale>,
) -> Response {
    let shown = arbiter_service::with_format!(kind, |F| {
        <F as crate::formats::WebFormat>::desk(state, caller, id, done, stale).await
    });
    shown.unwrap_or_else(|e| problem(e, &format!("/c/{id}")))
}

/// A refused desk form. A stale version (someone changed the competition
/// after the form was shown) answers with the desk as it is now, what
/// changed since in the history's words, and what the form held; nothing
/// was stored (issue 14, item 4: it answered "409 conflict"). Any other
/// refusal is its problem page.
pub(crate) async fn refused(
    state: &AppState,
    caller: &Caller,
    id: &str,
    kind: Kind,
    body: &Bytes,
    e: ApiError,
) -> Response {
    let back = format!("/c/{id}/manage");
    let (StatusCode::CONFLICT, Some(now)) = (e.status, e.detail.current_version) else {
        return problem(e, &back);
    };
    let since = match form_of::<VersionOnly>(body).await {
        Ok(f) => number::<u64>(&f.version, CSRF_FIELD_VERSION).ok().flatten(),
        Err(_) => None,
    };
    let Some(since) = since else {
        return problem(e, &back);
    };
    let changes = match super::history::since(state, id, kind, since).await {
        Ok(c) => c,
        Err(_) => return problem(e, &back),
    };
    let stale = Stale::new(since, now, changes, body).await;
    let mut response = show_desk(state, caller, id, kind, None, Some(stale)).await;
    if response.status() == StatusCode::OK {
        // Refused, not done: the status says so to programs; the page
        // says it in words.
        *response.status_mut() = StatusCode::CONFLICT;
    }
    response
}

/// The version field of any desk form.
#[derive(Debug, Deserialize)]
struct VersionOnly {
    #[serde(rename = "_version")]
    version: Option<String>,
}

/// `POST /c/{id}/act`: one action from a desk form, carried out by its
/// format's desk.
pub(crate) async fn act(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    let back = format!("/c/{id}/manage");
    if caller.account.is_none() {
        return to_login(&back);
    }
    let kind = match crate::pages::kind_of(&state, &id).await {
        Ok(kind) => kind,
        Err(e) => return e.into_response(),
    };
    arbiter_service::with_format!(kind, |F| {
        <F as crate::formats::WebFormat>::desk_act(&state, &caller, &id, &body).await
    })
}

/// The field name of the version a form was shown at.
const CSRF_FIELD_VERSION: &str = "_version";
