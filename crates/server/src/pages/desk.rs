//! What every desk shares: who the caller is and the form's tokens
//! ([`DeskHead`]), the parsing of a posted form and its fields, and where a
//! form that worked goes, with its fixed sentence; and the desk's routes
//! (`GET /c/{id}/manage`, [`page`], and `POST /c/{id}/act`, [`act`]), which
//! hand the competition to its format's desk, and a stale form's answer
//! ([`refused`]).

use arbiter_store::{AccountStore, EventStore, Grant, Role};
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
    /// A form sent again (Back, then send): what its first sending did.
    pub already: Option<Already>,
    /// For the owner: the accounts with a moderator grant here.
    pub moderator_accounts: Vec<String>,
    /// A form this desk refused: its problem, shown next to its field with
    /// what was typed kept (issue 17 §2).
    pub refusal: Option<Refusal>,
}

impl DeskHead {
    /// The head of desk `id` at `version`, with the sentence `done` or the
    /// notice of a stale form or of a form sent again.
    pub(crate) async fn of(
        state: &AppState,
        caller: &Caller,
        id: &str,
        version: u64,
        done: Option<&'static str>,
        notice: Option<Notice>,
    ) -> Result<Self, ApiError> {
        let (stale, already, refusal) = match notice {
            None => (None, None, None),
            Some(Notice::Stale(s)) => (Some(s), None, None),
            Some(Notice::Already(a)) => (None, Some(a), None),
            Some(Notice::Refused(r)) => (None, None, Some(r)),
        };
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
            player_name: None,
            // A form sent again says what it did instead of the fixed
            // sentence.
            done: if already.is_some() {
                None
            } else {
                done.map(str::to_string)
            },
            stale,
            already,
            moderator_accounts,
            refusal,
        })
    }

    /// The refused form `form` (its `_form`), if the desk shows one.
    fn refused_form(&self, form: &str) -> Option<&Refusal> {
        self.refusal
            .as_ref()
            .filter(|r| r.form.as_deref() == Some(form))
    }

    /// The form `form` was refused: a `<details>` around it opens.
    pub(crate) fn refused(&self, form: impl AsRef<str>) -> bool {
        self.refused_form(form.as_ref()).is_some()
    }

    /// Why field `field` of form `form` was refused, when it was.
    pub(crate) fn error_at(&self, form: impl AsRef<str>, field: impl AsRef<str>) -> Option<&str> {
        self.refused_form(form.as_ref())
            .filter(|r| r.field.as_deref() == Some(field.as_ref()))
            .map(|r| r.message.as_str())
    }

    /// What was typed in field `field` of the refused form `form` (empty
    /// for any other form): the value a field shows again.
    pub(crate) fn kept(&self, form: impl AsRef<str>, field: impl AsRef<str>) -> &str {
        self.refused_form(form.as_ref())
            .and_then(|r| r.values.iter().find(|(k, _)| k == field.as_ref()))
            .map_or("", |(_, v)| v.as_str())
    }

    /// The refused form `form` chose `value` in field `field` (a select's
    /// option, a checkbox).
    pub(crate) fn picked(
        &self,
        form: impl AsRef<str>,
        field: impl AsRef<str>,
        value: impl AsRef<str>,
    ) -> bool {
        self.refused(form.as_ref()) && self.kept(form, field) == value.as_ref()
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

/// A desk form refused for what it held (issue 17 §2): the desk is shown
/// again with the problem next to the field it names and every value typed
/// kept, instead of a problem page the reader must go Back from.
#[derive(Debug, Clone)]
pub(crate) struct Refusal {
    /// The form's own name on the desk (its hidden `_form`), when it has
    /// one: its fields show the problem and the values.
    pub form: Option<String>,
    /// The field the refusal names (the API's `field`).
    pub field: Option<String>,
    /// The refusal in words, with its suggestion for a misspelled name
    /// ("did you mean Ana Morales?", `model::did_you_mean`).
    pub message: String,
    /// The rule that refused it, if one did.
    pub clause: Option<String>,
    /// What the form held, without its tokens.
    pub values: Vec<(String, String)>,
}

impl Refusal {
    /// The refusal `e` of the form `body`.
    async fn of(e: &ApiError, body: &Bytes) -> Self {
        let pairs: Vec<(String, String)> = form_of(body).await.unwrap_or_default();
        let form = pairs
            .iter()
            .find(|(k, _)| k == FORM_FIELD)
            .map(|(_, v)| v.trim().to_string())
            .filter(|v| !v.is_empty() && v.len() <= 80 && v.chars().all(form_name_char));
        Self {
            form,
            field: e.detail.field.clone(),
            message: e.detail.message.clone(),
            clause: e.detail.clause.clone(),
            values: pairs
                .into_iter()
                .filter(|(k, v)| !k.starts_with('_') && k != "action" && !v.is_empty())
                .take(SENT_FIELDS)
                .map(|(k, v)| (k, v.chars().take(KEPT_CHARS).collect()))
                .collect(),
        }
    }

    /// The anchor of the refused form (or of the desk's notice).
    pub(crate) fn anchor(&self) -> String {
        match &self.form {
            Some(f) => format!("form-{f}"),
            None => "refused".to_string(),
        }
    }
}

/// The hidden field that names a desk form on its desk.
pub(crate) const FORM_FIELD: &str = "_form";
/// The longest value a refused form shows again.
const KEPT_CHARS: usize = 4000;

fn form_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
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
        "report-result" | "report-game" => {
            "Your report was sent; your opponent or a moderator who does not play in the game confirms it (ARB-R45)."
        }
        "confirm-result" | "confirm-game" => "The report was confirmed and the result recorded.",
        "dispute-report" => {
            "The report was disputed and dropped; the players report again or a moderator decides."
        }
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
/// of what was done, or, for a form sent again ([`replayed_location`]),
/// with what its first sending did.
pub(crate) async fn done_location(
    state: &AppState,
    id: &str,
    done: &FormatDone,
    body: &Bytes,
) -> String {
    if done.replayed
        && let Some(to) = replayed_location(state, id, body).await
    {
        return to;
    }
    let what = if done.action == "remove-moderator" && !done.stored {
        "remove-moderator-none"
    } else {
        done.action.as_str()
    };
    // A form of a player's page goes back to it (ARB-R45, ARB-R81): only
    // `/c/{id}/players/{number}` of this competition is taken.
    if let Ok(b) = form_of::<BackOnly>(body).await
        && let Some(back) = b.back
        && let Some(n) = back.strip_prefix(&format!("/c/{id}/players/"))
        && !n.is_empty()
        && n.len() <= 10
        && n.bytes().all(|c| c.is_ascii_digit())
    {
        return format!("/c/{id}/players/{n}?done={what}#reports");
    }
    format!("/c/{id}/manage?done={what}#done")
}

/// Where a form of a player's page goes back to.
#[derive(Debug, Deserialize)]
struct BackOnly {
    #[serde(rename = "_back")]
    back: Option<String>,
}

/// The idempotency key of any desk form.
#[derive(Debug, Deserialize)]
struct KeyOnly {
    #[serde(rename = "_key")]
    key: Option<String>,
}

/// The events a desk form's key stored the first time it was sent: `None`
/// for a form without a key or whose key stored nothing here.
async fn first_sending(state: &AppState, id: &str, body: &Bytes) -> Option<(u64, u64)> {
    let key = form_of::<KeyOnly>(body).await.ok()?.key?;
    let key = key.trim();
    if key.is_empty() || key.len() > 200 {
        return None;
    }
    let used = state.service.store().idempotent(id, key).await.ok()??;
    Some((used.appended.first, used.appended.last))
}

/// Where a desk form sent again goes (its key already used for this very
/// request: the reader went Back and sent it again, or reloaded the answer
/// to it): the desk with the notice of what the first sending did and
/// when, never an error (issue 17 §2). `None` when the key's events cannot
/// be found.
pub(crate) async fn replayed_location(state: &AppState, id: &str, body: &Bytes) -> Option<String> {
    let (first, last) = first_sending(state, id, body).await?;
    Some(format!("/c/{id}/manage?already={first}-{last}#done"))
}

/// The most events one notice of a form sent again tells.
const ALREADY_LINES: u64 = 20;

/// The notice of what events `first` to `last` did, for `caller`: when,
/// by whom, in the history's sentences. `None` when the log does not have
/// them.
pub(crate) async fn already_done(
    state: &AppState,
    caller: &Caller,
    id: &str,
    kind: Kind,
    (first, last): (u64, u64),
) -> Option<Already> {
    if first == 0 || last < first || last - first >= ALREADY_LINES {
        return None;
    }
    let lines = super::history::between(state, id, kind, first, last)
        .await
        .ok()?;
    let first_line = lines.first()?;
    // In the competition's zone (ARB-R82): "at 2026-03-01 19:17 CET".
    let zone = state.service.time_zone(id).await.unwrap_or_default();
    let when = chrono::DateTime::parse_from_rfc3339(&first_line.recorded_at)
        .map(|t| zone.minute(t.with_timezone(&chrono::Utc)))
        .unwrap_or_else(|_| first_line.recorded_at.clone());
    let by = if caller.username() == Some(first_line.actor.as_str()) {
        "you".to_string()
    } else {
        first_line.actor.clone()
    };
    Some(Already {
        when,
        by,
        did: lines.iter().map(|l| l.sentence.clone()).collect(),
        other: false,
        sent: Vec::new(),
    })
}

/// `?already=FIRST-LAST` of the desk's address.
fn read_range(v: &str) -> Option<(u64, u64)> {
    let (a, b) = v.split_once('-')?;
    if a.len() > 20 || b.len() > 20 {
        return None;
    }
    Some((a.parse().ok()?, b.parse().ok()?))
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

/// What a desk shows above itself about the form it was sent: one sent
/// from an older version ([`Stale`]), or one sent again ([`Already`]).
#[derive(Debug, Clone)]
pub(crate) enum Notice {
    Stale(Stale),
    Already(Already),
    /// A form refused for what it held (issue 17 §2).
    Refused(Refusal),
}

/// A desk form sent again (the reader went Back and sent it, or reloaded
/// the answer): what its first sending did, in the history's words, and
/// when (issue 17 §2: "this result was already recorded at 19:17", never
/// "idempotency key … was already used").
#[derive(Debug, Clone)]
pub(crate) struct Already {
    /// When it was done ("19:17 UTC on 2026-12-05").
    pub when: String,
    /// Who did it: an account's username, or "you".
    pub by: String,
    /// What it did, one sentence per event.
    pub did: Vec<String>,
    /// The form sent again asks for something else than the first time
    /// (other values under the same form): nothing was changed.
    pub other: bool,
    /// What the form held, for `other`.
    pub sent: Vec<(String, String)>,
}

/// Events listed at most above a desk.
pub(crate) const STALE_LINES: usize = 20;
/// Fields of a form shown again at most, and their length.
const SENT_FIELDS: usize = 40;
const SENT_CHARS: usize = 300;

/// The fields of a desk form as sent, without its tokens and its action,
/// each cut to [`SENT_CHARS`]: what a refused form held, shown again so
/// that nothing typed is lost.
async fn sent_fields(body: &Bytes) -> Vec<(String, String)> {
    // The body parsed as the desk parsed it (none if it does not).
    let pairs: Vec<(String, String)> = form_of(body).await.unwrap_or_default();
    pairs
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
        .collect()
}

impl Stale {
    /// The notice for a form sent at `since` while the competition is at
    /// `now`, with the history's lines after `since` and the form `body`.
    pub(crate) async fn new(since: u64, now: u64, mut changes: Vec<String>, body: &Bytes) -> Self {
        let more = changes.len().saturating_sub(STALE_LINES);
        changes.truncate(STALE_LINES);
        let sent = sent_fields(body).await;
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
    /// `FIRST-LAST`: the events a form sent again stored the first time.
    already: Option<String>,
    /// The filter of a Sunjang season's correction forms ([`DeskFilter`]).
    cor_player: Option<String>,
    cor_group: Option<String>,
}

/// Which of a season's correction forms a desk shows (issue 17 §2: "a
/// season's 200 correction forms are behind a filter by group or
/// player"): as the desk's address gives it (`?cor_player=&cor_group=`,
/// a GET form, no script), or as a correction form sent from the
/// filtered desk carries it back (`_cor_player`, `_cor_group`), so that
/// the desk that answers it, refused or done, keeps it. Raw as sent: the
/// format's desk reads it and says what it cannot read
/// ([`crate::formats::WebFormat::desk_filtered`]). It changes what is
/// shown, never who may act.
#[derive(Debug, Default, Clone, Deserialize)]
pub(crate) struct DeskFilter {
    #[serde(rename = "_cor_player")]
    pub player: Option<String>,
    #[serde(rename = "_cor_group")]
    pub group: Option<String>,
}

impl DeskFilter {
    /// The longest filter value a desk reads, in characters.
    pub(crate) const LONGEST: usize = 200;

    /// The filter a desk form `body` carries back (none when it does not
    /// parse).
    pub(crate) async fn sent(body: &Bytes) -> Self {
        form_of::<Self>(body).await.unwrap_or_default()
    }

    /// The desk's query for this filter (`cor_player=…&cor_group=…`),
    /// empty without one; a value longer than any filter the desk reads
    /// ([`DeskFilter::LONGEST`]) is left out.
    pub(crate) fn query(&self) -> String {
        [("cor_player", &self.player), ("cor_group", &self.group)]
            .into_iter()
            .filter_map(|(k, v)| {
                v.as_deref()
                    .map(str::trim)
                    .filter(|v| !v.is_empty() && v.chars().count() <= Self::LONGEST)
                    .map(|v| format!("{k}={}", super::forms::urlencode(v)))
            })
            .collect::<Vec<_>>()
            .join("&")
    }
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
    let notice = match q.already.as_deref().and_then(read_range) {
        Some(range) => already_done(&state, &caller, &id, kind, range)
            .await
            .map(Notice::Already),
        None => None,
    };
    let filter = DeskFilter {
        player: q.cor_player,
        group: q.cor_group,
    };
    show_desk(
        &state,
        &caller,
        &id,
        kind,
        q.done.as_deref(),
        notice,
        &filter,
    )
    .await
}

/// The desk of competition `id` (of format `kind`) in its current state,
/// with the sentence of what the last form did, or the notice of a form
/// sent from an older version, showing what `filter` asks for.
async fn show_desk(
    state: &AppState,
    caller: &Caller,
    id: &str,
    kind: Kind,
    done: Option<&str>,
    notice: Option<Notice>,
    filter: &DeskFilter,
) -> Response {
    let shown = arbiter_service::with_format!(kind, |F| {
        <F as crate::formats::WebFormat>::desk_filtered(state, caller, id, done, notice, filter)
            .await
    });
    shown.unwrap_or_else(|e| problem(e, &format!("/c/{id}")))
}

/// A refused desk form. A stale version (someone changed the competition
/// after the form was shown) answers with the desk as it is now, what
/// changed since in the history's words, and what the form held; nothing
/// was stored (issue 14, item 4: it answered "409 conflict"). A form sent
/// again with other values than the first time (its idempotency key
/// already used for another request) answers the same way with what the
/// first sending did (issue 17 §2). Any other refusal is its problem
/// page.
pub(crate) async fn refused(
    state: &AppState,
    caller: &Caller,
    id: &str,
    kind: Kind,
    body: &Bytes,
    e: ApiError,
) -> Response {
    let back = format!("/c/{id}/manage");
    // The desk that answers keeps the filter the form was sent under.
    let filter = DeskFilter::sent(body).await;
    if e.detail.field.as_deref() == Some(crate::error::KEY_FIELD)
        && e.status == StatusCode::UNPROCESSABLE_ENTITY
        && let Some(range) = first_sending(state, id, body).await
        && let Some(mut already) = already_done(state, caller, id, kind, range).await
    {
        already.other = true;
        already.sent = sent_fields(body).await;
        let mut response = show_desk(
            state,
            caller,
            id,
            kind,
            None,
            Some(Notice::Already(already)),
            &filter,
        )
        .await;
        if response.status() == StatusCode::OK {
            *response.status_mut() = StatusCode::CONFLICT;
        }
        return response;
    }
    // A form refused for what it held: the desk again, the problem next
    // to its field, everything typed kept (issue 17 §2). A form of a
    // player's page (`_back`) keeps its problem page.
    if matches!(
        e.status,
        StatusCode::BAD_REQUEST | StatusCode::UNPROCESSABLE_ENTITY
    ) && form_of::<BackOnly>(body)
        .await
        .map_or(true, |b| b.back.is_none())
    {
        let refusal = Refusal::of(&e, body).await;
        let shown = arbiter_service::with_format!(kind, |F| {
            <F as crate::formats::WebFormat>::desk_filtered(
                state,
                caller,
                id,
                None,
                Some(Notice::Refused(refusal)),
                &filter,
            )
            .await
        });
        return match shown {
            Ok(mut response) => {
                if response.status() == StatusCode::OK {
                    // Refused: the status says so to programs.
                    *response.status_mut() = e.status;
                }
                response
            }
            Err(_) => problem(e, &back),
        };
    }
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
    let mut response = show_desk(
        state,
        caller,
        id,
        kind,
        None,
        Some(Notice::Stale(stale)),
        &filter,
    )
    .await;
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
    // A player's form (from his page or his account page, `_back`) sent
    // again: what its first sending did (issue 17 §2), before the role
    // check, which reads the game as it is now: a confirmed report is no
    // longer there to confirm, and its players would be told "only the
    // game's other player may confirm". Desk forms answer the same through
    // their format (`done_location`, `refused`), which also tells a form
    // sent again with other values.
    if caller.account.is_some()
        && form_of::<BackOnly>(&body)
            .await
            .is_ok_and(|b| b.back.is_some())
        && let Some(to) = replayed_location(&state, &id, &body).await
    {
        return axum::response::Redirect::to(&to).into_response();
    }
    arbiter_service::with_format!(kind, |F| {
        <F as crate::formats::WebFormat>::desk_act(&state, &caller, &id, &body).await
    })
}

/// The field name of the version a form was shown at.
const CSRF_FIELD_VERSION: &str = "_version";
