//! The pages that change things: logging in and out, registering, the
//! account (roles, API tokens), creating a ladder, and a ladder's desk for
//! its moderators and players.
//!
//! Every form posts (no GET changes anything) with the CSRF token of the
//! session, or of the `arbiter_csrf` cookie before logging in, and an
//! idempotency key made when the form was shown, so a double click or a
//! reload of the answer stores nothing twice. A form that acts on a
//! competition carries the version it was shown at: if someone else
//! changed the competition meanwhile, the action is refused (409) and
//! nothing is overwritten. The same [`crate::actions`] as the API decide
//! who may do what.

use std::collections::BTreeMap;
use std::time::Duration;

use arbiter_engine::tws::Ladder;
use arbiter_service::views::{self, GameView, LadderView, RoundView};
use arbiter_store::{AccountStore, Grant};
use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use super::desk::{DeskHead, Stale, form_of, form_version, no_action, number, opt, text};
use super::{Chrome, Kind, render};
use crate::AppState;
use crate::actions::{self, ActionDone, LadderAction, PairOverride, ResultForm, SKIP_BOOKED};
use crate::auth::{self, Caller, PRE_CSRF_COOKIE, Roles};
use crate::error::ApiError;

/// A failed action or form, shown as a page with the reason and a way back.
#[derive(Debug, Template)]
#[template(path = "problem.html")]
struct ProblemPage {
    chrome: Chrome,
    heading: String,
    message: String,
    field: Option<String>,
    clause: Option<String>,
    back: String,
}

/// What an action did, when it is more than a fixed sentence.
#[derive(Debug, Template)]
#[template(path = "notice.html")]
struct NoticePage {
    chrome: Chrome,
    heading: String,
    message: String,
    details: Vec<String>,
    back: String,
}

/// Render an API error as a page (its status kept).
fn problem(e: ApiError, back: &str) -> Response {
    if e.status.is_server_error() {
        tracing::error!(message = %e.detail.message, "an action failed");
    }
    let heading = match e.status {
        StatusCode::UNAUTHORIZED => "Please log in",
        StatusCode::FORBIDDEN => "Not allowed",
        StatusCode::CONFLICT => "Someone else changed it first",
        StatusCode::TOO_MANY_REQUESTS => "Too many attempts",
        StatusCode::UNPROCESSABLE_ENTITY => "The rules refuse this",
        s if s.is_server_error() => "Something went wrong",
        _ => "Please check the form",
    };
    let message = if e.status == StatusCode::CONFLICT {
        format!(
            "{} Nothing was changed: reload the page to see the latest state, then try again.",
            e.detail.message
        )
    } else {
        e.detail.message.clone()
    };
    let page = ProblemPage {
        chrome: Chrome::new(heading),
        heading: heading.into(),
        message,
        field: e.detail.field.clone(),
        clause: e.detail.clause.clone(),
        back: back.into(),
    };
    match page.render() {
        Ok(body) => (e.status, axum::response::Html(body)).into_response(),
        Err(_) => e.into_response(),
    }
}

/// A local address to go back to after logging in (never another site).
fn safe_next(next: Option<&str>) -> String {
    match next {
        Some(n) if n.starts_with('/') && !n.starts_with("//") && !n.contains('\\') => n.into(),
        _ => "/account".into(),
    }
}

/// See other: after a form that changed something.
fn see_other(to: &str) -> Response {
    Redirect::to(to).into_response()
}

/// The caller's form token, making a pre-login one (and its cookie) when
/// there is none.
fn form_token(
    state: &AppState,
    caller: &Caller,
) -> Result<(String, Option<HeaderValue>), ApiError> {
    if let Some(t) = caller.csrf_token() {
        return Ok((t.to_string(), None));
    }
    let token = auth::random_token()?;
    let cookie = auth::set_cookie(
        &state.auth,
        PRE_CSRF_COOKIE,
        &token,
        Duration::from_secs(3600),
    );
    Ok((token, Some(cookie)))
}

fn with_cookie(mut response: Response, cookie: Option<HeaderValue>) -> Response {
    if let Some(c) = cookie {
        response.headers_mut().append(header::SET_COOKIE, c);
    }
    response
}

#[derive(Debug, Deserialize)]
pub(crate) struct NextQuery {
    next: Option<String>,
}

#[derive(Debug, Template)]
#[template(path = "login.html")]
struct LoginPage {
    chrome: Chrome,
    csrf: String,
    next: String,
    logged_in: Option<String>,
}

/// `GET /login`.
pub(crate) async fn login_page(
    State(state): State<AppState>,
    caller: Caller,
    Query(q): Query<NextQuery>,
) -> Response {
    let (csrf, cookie) = match form_token(&state, &caller) {
        Ok(t) => t,
        Err(e) => return problem(e, "/"),
    };
    let page = LoginPage {
        chrome: Chrome::new("Log in"),
        csrf,
        next: safe_next(q.next.as_deref()),
        logged_in: caller.username().map(str::to_string),
    };
    with_cookie(render(&page).into_response(), cookie)
}

#[derive(Debug, Deserialize)]
pub(crate) struct LoginForm {
    username: String,
    password: String,
    #[serde(rename = "_csrf")]
    csrf: Option<String>,
    next: Option<String>,
}

/// `POST /login`: a fresh session, then back where the reader was going.
pub(crate) async fn login(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    Form(form): Form<LoginForm>,
) -> Response {
    let next = safe_next(form.next.as_deref());
    let back = format!("/login?next={}", urlencode(&next));
    let result = async {
        caller.check_csrf(form.csrf.as_deref())?;
        let account = auth::login(&state, &caller, &form.username, &form.password).await?;
        // A session the browser brought is ended: the new one has a fresh id.
        if caller.session.is_some() {
            auth::end_session(&state, &headers).await?;
        }
        auth::start_session(&state, &account.username).await
    }
    .await;
    match result {
        Ok(cookie) => with_cookie(see_other(&next), Some(cookie)),
        Err(e) => problem(e, &back),
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct CsrfForm {
    #[serde(rename = "_csrf")]
    csrf: Option<String>,
}

/// `POST /logout`: the session is deleted on the server.
pub(crate) async fn logout(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    Form(form): Form<CsrfForm>,
) -> Response {
    if caller.session.is_some()
        && let Err(e) = caller.check_csrf(form.csrf.as_deref())
    {
        return problem(e, "/account");
    }
    match auth::end_session(&state, &headers).await {
        Ok(cookie) => with_cookie(see_other("/"), Some(cookie)),
        Err(e) => problem(e, "/account"),
    }
}

#[derive(Debug, Template)]
#[template(path = "register.html")]
struct RegisterPage {
    chrome: Chrome,
    csrf: String,
    min_password: usize,
}

/// `GET /register`.
pub(crate) async fn register_page(State(state): State<AppState>, caller: Caller) -> Response {
    let (csrf, cookie) = match form_token(&state, &caller) {
        Ok(t) => t,
        Err(e) => return problem(e, "/"),
    };
    let page = RegisterPage {
        chrome: Chrome::new("Create an account"),
        csrf,
        min_password: auth::MIN_PASSWORD,
    };
    with_cookie(render(&page).into_response(), cookie)
}

#[derive(Debug, Deserialize)]
pub(crate) struct RegisterForm {
    username: String,
    name: String,
    email: Option<String>,
    password: String,
    #[serde(rename = "_csrf")]
    csrf: Option<String>,
}

/// `POST /register`: the account, logged in.
pub(crate) async fn register(
    State(state): State<AppState>,
    caller: Caller,
    Form(form): Form<RegisterForm>,
) -> Response {
    let result = async {
        caller.check_csrf(form.csrf.as_deref())?;
        let account = auth::register(
            &state,
            &caller,
            &form.username,
            &form.name,
            form.email.as_deref(),
            &form.password,
        )
        .await?;
        auth::start_session(&state, &account.username).await
    }
    .await;
    match result {
        Ok(cookie) => with_cookie(see_other("/account"), Some(cookie)),
        Err(e) => problem(e, "/register"),
    }
}

#[derive(Debug, Template)]
#[template(path = "account.html")]
struct AccountPage {
    chrome: Chrome,
    csrf: String,
    username: String,
    name: String,
    email: String,
    organizer: bool,
    roles: Vec<(String, String, String)>,
    tokens: Vec<TokenRow>,
    new_token: Option<String>,
    /// What was just revoked, by label.
    revoked: Option<String>,
    max_token_days: u32,
}

/// One API token in the account's list (issue 14 item 2).
#[derive(Debug)]
struct TokenRow {
    id: String,
    label: String,
    created: String,
    /// "never", or the time to the minute.
    last_used: String,
    /// "never", or the date; with "(expired)" when past.
    expires: String,
}

/// An RFC 3339 time as the list shows it: `2026-01-02 13:04` (UTC).
fn minute(rfc3339: &str) -> String {
    chrono::DateTime::parse_from_rfc3339(rfc3339).map_or_else(
        |_| rfc3339.to_string(),
        |t| {
            t.with_timezone(&chrono::Utc)
                .format("%Y-%m-%d %H:%M")
                .to_string()
        },
    )
}

/// Redirect to the login page, coming back to `here`.
fn to_login(here: &str) -> Response {
    see_other(&format!("/login?next={}", urlencode(here)))
}

async fn account_page_for(
    state: &AppState,
    caller: &Caller,
    new_token: Option<String>,
    revoked: Option<String>,
) -> Response {
    let Some(account) = &caller.account else {
        return to_login("/account");
    };
    let store = state.service.store();
    let result = async {
        let grants = store
            .grants_of(&account.username)
            .await
            .map_err(ApiError::from_store)?;
        let tokens = store
            .tokens_of(&account.username)
            .await
            .map_err(ApiError::from_store)?;
        Ok::<_, ApiError>((grants, tokens))
    }
    .await;
    let (grants, tokens) = match result {
        Ok(x) => x,
        Err(e) => return problem(e, "/"),
    };
    let page = AccountPage {
        chrome: Chrome::new("Your account"),
        csrf: caller.csrf_token().unwrap_or_default().to_string(),
        username: account.username.clone(),
        name: account.display_name.clone(),
        email: account.email.clone().unwrap_or_default(),
        organizer: account.organizer,
        roles: grants
            .into_iter()
            .map(|g: Grant| {
                (
                    g.competition,
                    g.role.as_str().to_string(),
                    g.player.unwrap_or_default(),
                )
            })
            .collect(),
        tokens: tokens
            .iter()
            .map(|t| TokenRow {
                id: t.id().to_string(),
                label: t.label.clone(),
                created: t.created_at.chars().take(10).collect(),
                last_used: t
                    .last_used
                    .as_deref()
                    .map_or_else(|| "never".into(), minute),
                expires: match &t.expires_at {
                    None => "never".into(),
                    Some(at) if auth::token_expired(t, state.now()) => {
                        format!("{} (expired)", minute(at))
                    }
                    Some(at) => minute(at),
                },
            })
            .collect(),
        new_token,
        revoked,
        max_token_days: auth::MAX_TOKEN_DAYS,
    };
    render(&page).into_response()
}

/// `GET /account`.
pub(crate) async fn account(State(state): State<AppState>, caller: Caller) -> Response {
    account_page_for(&state, &caller, None, None).await
}

#[derive(Debug, Deserialize)]
pub(crate) struct TokenForm {
    label: String,
    /// Empty: the token never expires.
    #[serde(default)]
    expires_in_days: Option<String>,
    #[serde(rename = "_csrf")]
    csrf: Option<String>,
}

/// `POST /account/tokens`: a new API token, shown once.
pub(crate) async fn create_token(
    State(state): State<AppState>,
    caller: Caller,
    Form(form): Form<TokenForm>,
) -> Response {
    if caller.account.is_none() {
        return to_login("/account");
    }
    let result = async {
        let account = caller.account()?;
        caller.check_csrf(form.csrf.as_deref())?;
        let days = match form.expires_in_days.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(text) => Some(text.parse::<u32>().map_err(|_| {
                ApiError::bad_request(format!(
                    "the days until the token expires are a whole number from 1 to {}, not {:?}",
                    auth::MAX_TOKEN_DAYS,
                    text.chars().take(20).collect::<String>()
                ))
                .with_field("expires_in_days")
            })?),
        };
        auth::create_expiring_token(&state, &account.username, &form.label, days).await
    }
    .await;
    match result {
        Ok((token, _)) => account_page_for(&state, &caller, Some(token), None).await,
        Err(e) => problem(e, "/account"),
    }
}

/// `POST /account/tokens/{id}/revoke`: the token answers 401 from now on.
pub(crate) async fn revoke_token(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Form(form): Form<CsrfForm>,
) -> Response {
    if caller.account.is_none() {
        return to_login("/account");
    }
    let result = async {
        let account = caller.account()?;
        caller.check_csrf(form.csrf.as_deref())?;
        auth::revoke_token(state.service.store(), &account.username, &id).await
    }
    .await;
    match result {
        Ok(token) => account_page_for(&state, &caller, None, Some(token.label)).await,
        Err(e) => problem(e, "/account#tokens"),
    }
}

/// The formats `/new` creates: value, what the page calls it, the noun of
/// its button, a sentence about it.
const NEW_FORMATS: [(&str, &str, &str, &str); 4] = [
    (
        "tws-ladder",
        "ladder",
        "ladder",
        "A Twilight Struggle ladder: players join and are approved; rounds pair neighbours on the ladder.",
    ),
    (
        "xmadn-league",
        "XMadn league",
        "league",
        "An XMadn Double-Threat league of three players: double round-robins with rolled positions, then the playoff.",
    ),
    (
        "xmadn-challengers",
        "XMadn Challengers event",
        "event",
        "An XMadn Challengers event: Game 0 for three players, then winner stays, first to x wins.",
    ),
    (
        "sunjang-league",
        "Sunjang league",
        "league",
        "A Sunjang Baduk league: players register with rank and rating; seasons are planned into divisions and groups.",
    ),
];

#[derive(Debug, Template)]
#[template(path = "new.html")]
struct NewPage {
    chrome: Chrome,
    csrf: String,
    key: String,
    /// The chosen format's value, its name, its button's noun, about it.
    format: &'static str,
    title: &'static str,
    noun: &'static str,
    about: &'static str,
    preset: String,
    /// Every format: value, name, chosen.
    formats: Vec<(&'static str, &'static str, bool)>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct NewQuery {
    format: Option<String>,
}

/// `GET /new` (`?format=…`): create a competition from its format's
/// preset; a ladder unless another format is chosen.
pub(crate) async fn new_page(caller: Caller, Query(q): Query<NewQuery>) -> Response {
    let Some(account) = &caller.account else {
        return to_login("/new");
    };
    if !account.organizer {
        return problem(
            ApiError::forbidden(
                "only an organizer's account may create competitions; an organizer makes one with `arbiter account add --organizer`",
            ),
            "/account",
        );
    }
    let wanted = q.format.as_deref().unwrap_or("tws-ladder");
    let Some(&(format, title, noun, about)) = NEW_FORMATS.iter().find(|f| f.0 == wanted) else {
        return problem(
            ApiError::bad_request(format!(
                "there is no format {wanted:?}; formats: tws-ladder, xmadn-league, xmadn-challengers, sunjang-league"
            ))
            .with_field("format"),
            "/new",
        );
    };
    let page = NewPage {
        chrome: Chrome::new(format!("New {title}")),
        csrf: caller.csrf_token().unwrap_or_default().to_string(),
        key: auth::random_token().unwrap_or_default(),
        format,
        title,
        noun,
        about,
        preset: arbiter_record::preset(format)
            .unwrap_or_default()
            .to_string(),
        formats: NEW_FORMATS
            .iter()
            .map(|f| (f.0, f.1, f.0 == format))
            .collect(),
    };
    render(&page).into_response()
}

#[derive(Debug, Deserialize)]
pub(crate) struct NewForm {
    #[serde(default)]
    format: Option<String>,
    id: String,
    name: String,
    rules: Option<String>,
    /// One name per line (XMadn).
    #[serde(default)]
    players: Option<String>,
    #[serde(default)]
    first_to: Option<String>,
    #[serde(rename = "_csrf")]
    csrf: Option<String>,
    #[serde(rename = "_key")]
    key: Option<String>,
}

/// `POST /new`.
pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    Form(form): Form<NewForm>,
) -> Response {
    if caller.account.is_none() {
        return to_login("/new");
    }
    let id = form.id.trim().to_string();
    let result = async {
        caller.account()?;
        caller.check_csrf(form.csrf.as_deref())?;
        arbiter_service::check_competition_id(&id)
            .map_err(|e| ApiError::from(e).with_field("id"))?;
        let players: Vec<String> = form
            .players
            .as_deref()
            .unwrap_or("")
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect();
        let rules = form.rules.as_deref();
        let key = form.key.clone();
        match form.format.as_deref().unwrap_or("tws-ladder") {
            "tws-ladder" => {
                actions::create_ladder(&state, &caller, &id, &form.name, rules, key).await
            }
            "xmadn-league" => {
                crate::actions_xmadn::create_league(
                    &state, &caller, &id, &form.name, &players, rules, key,
                )
                .await
            }
            "xmadn-challengers" => {
                let first_to = number::<u32>(&form.first_to, "first_to")?;
                crate::actions_xmadn::create_challengers(
                    &state, &caller, &id, &form.name, &players, first_to, rules, key,
                )
                .await
            }
            "sunjang-league" => {
                crate::actions_sunjang::create_sunjang(&state, &caller, &id, &form.name, rules, key)
                    .await
            }
            other => Err(
                ApiError::bad_request(format!("there is no format {other:?}")).with_field("format"),
            ),
        }
    }
    .await;
    match result {
        Ok(_) => see_other(&format!("/c/{id}/manage")),
        Err(e) => problem(
            e,
            &format!(
                "/new?format={}",
                urlencode(form.format.as_deref().unwrap_or("tws-ladder"))
            ),
        ),
    }
}

/// One game on the desk, with what the caller may do to it.
#[derive(Debug, Clone)]
struct DeskGame {
    g: GameView,
    /// The caller plays in it.
    mine: bool,
    /// The caller's opponent in it, when he plays in it.
    opponent: String,
    /// A report waits for the caller's confirmation (he is the other
    /// player, or a moderator not in the game).
    can_confirm: bool,
    /// The caller moderates it (a moderator not in the game).
    can_moderate: bool,
    open: bool,
}

#[derive(Debug, Template)]
#[template(path = "manage.html")]
struct DeskPage {
    chrome: Chrome,
    h: DeskHead,
    v: LadderView,
    round: Option<RoundView>,
    games: Vec<DeskGame>,
    mine: Vec<DeskGame>,
    players: Vec<String>,
    can_announce: bool,
    ended_by: Vec<(&'static str, &'static str)>,
    rules: String,
    rules_versions: Vec<(u32, String)>,
    next_round: u32,
    /// The caller's player has asked to skip the next round.
    skipping: bool,
    forum: String,
    mail: bool,
}

const ENDINGS: [(&str, &str); 7] = [
    ("vp", "20 VP"),
    ("final-scoring", "Final scoring"),
    ("europe-control", "Europe control"),
    ("defcon", "DEFCON / nuclear war"),
    ("wargames", "Wargames"),
    ("concession", "Concession"),
    ("other", "Other"),
];

#[derive(Debug, Deserialize)]
pub(crate) struct DeskQuery {
    done: Option<String>,
}

/// `GET /c/{id}/manage`: the ladder's desk. Moderators run the competition
/// here; players report and confirm their results and ask to skip.
pub(crate) async fn desk(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Query(q): Query<DeskQuery>,
) -> Response {
    let here = format!("/c/{id}/manage");
    let kind = match Kind::of(&state, &id).await {
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
    let shown = match kind {
        Kind::Ladder => ladder_desk(state, caller, id, done, stale).await,
        Kind::League => super::desk_xmadn::league_desk(state, caller, id, done, stale).await,
        Kind::Challengers => {
            super::desk_xmadn::challengers_desk(state, caller, id, done, stale).await
        }
        Kind::Sunjang => super::desk_sunjang::desk(state, caller, id, done, stale).await,
    };
    shown.unwrap_or_else(|e| problem(e, &format!("/c/{id}")))
}

/// A refused desk form. A stale version (someone changed the competition
/// after the form was shown) answers with the desk as it is now, what
/// changed since in the history's words, and what the form held; nothing
/// was stored (issue 14, item 4: it answered "409 conflict"). Any other
/// refusal is its problem page.
async fn refused(
    state: &AppState,
    caller: &Caller,
    id: &str,
    kind: Kind,
    body: &axum::body::Bytes,
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

/// The ladder's desk (see [`desk`]).
async fn ladder_desk(
    state: &AppState,
    caller: &Caller,
    id: &str,
    done: Option<&str>,
    stale: Option<Stale>,
) -> Result<Response, ApiError> {
    let (ladder, version) = state.service.load(id, None).await?;
    let h = DeskHead::of(
        state,
        caller,
        id,
        version,
        done.and_then(done_message),
        stale,
    )
    .await?
    .linked(&ladder);
    let id = id.to_string();
    let here = format!("/c/{id}/manage");
    let now = state.now();
    let round = ladder
        .open_round()
        .map(|r| views::round_view(&ladder, &id, r, now));
    // The player the account acts as (ARB-R50).
    let me = ladder.account_player(&h.username);
    let games: Vec<DeskGame> = round
        .as_ref()
        .map(|r| {
            r.games
                .iter()
                .map(|g| desk_game(&ladder, g, me, &h.roles))
                .collect()
        })
        .unwrap_or_default();
    let mine = games.iter().filter(|g| g.mine).cloned().collect();
    let can_announce = ladder.open_round().is_none_or(|r| {
        r.games
            .iter()
            .all(|g| ladder.game(*g).is_some_and(|g| g.status.is_resolved()))
    });
    let forum = round
        .as_ref()
        .map(|r| arbiter_service::forum::announcement(arbiter_service::forum::Markup::BbCode, r))
        .unwrap_or_default();
    let page = DeskPage {
        chrome: Chrome::competition(
            format!("Desk · {}", ladder.name),
            &id,
            &ladder.name,
            Kind::Ladder,
            &here,
        ),
        v: views::ladder_view(&ladder, &id, version),
        round,
        games,
        mine,
        players: ladder
            .players
            .iter()
            .map(|p| p.player.name.clone())
            .collect(),
        can_announce,
        ended_by: ENDINGS.to_vec(),
        rules: arbiter_record::rules_to_toml(ladder.rules_for(ladder.next_round_number())),
        rules_versions: ladder
            .rules
            .iter()
            .map(|r| (r.from_round, r.reason.clone()))
            .collect(),
        next_round: ladder.next_round_number(),
        skipping: me.is_some_and(|p| {
            ladder
                .skip_requests
                .get(&ladder.next_round_number())
                .is_some_and(|list| list.contains(&p))
        }),
        forum,
        mail: state.mailer.is_some(),
        h,
    };
    Ok(render(&page).into_response())
}

fn desk_game(
    ladder: &Ladder,
    g: &GameView,
    me: Option<arbiter_engine::model::PlayerId>,
    roles: &Roles,
) -> DeskGame {
    let id = actions::game(ladder, &g.id).ok();
    let game = id.and_then(|id| ladder.game(id));
    let mine = me.is_some_and(|p| game.is_some_and(|gm| gm.has_player(p)));
    let opponent = if mine {
        me.and_then(|p| {
            game.map(|gm| {
                if gm.ussr.player == p {
                    gm.us.player
                } else {
                    gm.ussr.player
                }
            })
        })
        .map(|p| ladder.name_of(p))
        .unwrap_or_default()
    } else {
        String::new()
    };
    let open = game.is_some_and(|gm| !gm.status.is_resolved());
    let reported_by_me = g
        .report
        .as_ref()
        .is_some_and(|r| me.is_some_and(|p| ladder.name_of(p) == r.by));
    DeskGame {
        mine,
        opponent,
        can_confirm: g.report.is_some() && !reported_by_me && (mine || roles.moderates()),
        can_moderate: roles.moderates() && !mine,
        open,
        g: g.clone(),
    }
}

/// The sentence after a form that worked (fixed texts: nothing from the
/// address is echoed).
fn done_message(action: &str) -> Option<&'static str> {
    Some(match action {
        "join" => "You asked to join; a moderator will approve you.",
        "add-player" => "The player is on the ladder.",
        "approve" => "Approved: the player enters at the bottom of the ladder.",
        "decline" => "The application was declined.",
        "withdraw" => "The player was withdrawn.",
        "link-account" => "The account was linked to the player.",
        "unlink-account" => "The account was unlinked from the player.",
        "add-moderator" => "The moderator was added.",
        "remove-moderator" => "The moderator was removed.",
        "change-rules" => "The rules were changed.",
        "announce-round" => "The round was announced.",
        "record-result" => "The result was recorded.",
        "report-result" => "Your report was sent; your opponent or a moderator confirms it.",
        "confirm-result" => "Confirmed: the result is recorded.",
        "reject-report" => "The report was disputed and cleared; a moderator decides.",
        "forfeit" => "The forfeit was recorded.",
        "adjudicate" => "The adjudication was recorded.",
        "correct-result" => "The result was corrected.",
        "cancel-game" => "The game was cancelled.",
        "request-skip" => "The skip was recorded.",
        "request-skip-booked" => {
            "The skip was booked for the next round: a round is running, and a skip is asked before its round is announced (ARB-R4)."
        }
        "cancel-skip" => "The skip was cancelled.",
        "close-round" => "The round was closed.",
        _ => return None,
    })
}

/// Every field any desk form may send; the `action` field says which
/// action they make.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct ActionForm {
    action: String,
    #[serde(rename = "_csrf")]
    csrf: Option<String>,
    #[serde(rename = "_key")]
    key: Option<String>,
    #[serde(rename = "_version")]
    version: Option<String>,
    game: Option<String>,
    player: Option<String>,
    name: Option<String>,
    account: Option<String>,
    username: Option<String>,
    reason: Option<String>,
    winner: Option<String>,
    ended_by: Option<String>,
    vp: Option<String>,
    turn: Option<String>,
    note: Option<String>,
    agreed: Option<String>,
    absent: Option<String>,
    deadline: Option<String>,
    pairs: Option<String>,
    byes: Option<String>,
    eliminator: Option<String>,
    preview: Option<String>,
    early_reason: Option<String>,
    final_state: Option<String>,
    ussr_statement: Option<String>,
    us_statement: Option<String>,
    decision: Option<String>,
    rules: Option<String>,
    from_round: Option<String>,
    round: Option<String>,
}

impl ActionForm {
    fn result(&self) -> Result<ResultForm, ApiError> {
        Ok(ResultForm {
            winner: opt(&self.winner).filter(|w| w != "tie"),
            ended_by: opt(&self.ended_by),
            vp: number(&self.vp, "vp")?,
            turn: number(&self.turn, "turn")?,
            note: opt(&self.note),
        })
    }

    /// The action the form asks for; the error names the field.
    fn action(&self) -> Result<LadderAction, ApiError> {
        let game = || text(&self.game);
        Ok(match self.action.as_str() {
            "join" => LadderAction::Join,
            "add-player" => LadderAction::AddPlayer {
                name: text(&self.name),
                account: opt(&self.account),
            },
            "approve" => LadderAction::Approve {
                player: text(&self.player),
            },
            "decline" => LadderAction::Decline {
                player: text(&self.player),
                reason: text(&self.reason),
            },
            "withdraw" => LadderAction::Withdraw {
                player: text(&self.player),
                reason: text(&self.reason),
            },
            "link-account" => LadderAction::LinkAccount {
                player: text(&self.player),
                account: text(&self.account),
            },
            "unlink-account" => LadderAction::UnlinkAccount {
                player: text(&self.player),
            },
            "add-moderator" => LadderAction::AddModerator {
                username: text(&self.username),
            },
            "remove-moderator" => LadderAction::RemoveModerator {
                username: text(&self.username),
            },
            "change-rules" => LadderAction::ChangeRules {
                rules: text(&self.rules),
                from_round: number(&self.from_round, "from_round")?,
                reason: text(&self.reason),
            },
            "announce-round" => {
                let mut pairs = Vec::new();
                for (i, line) in text(&self.pairs).lines().enumerate() {
                    let line = line.trim();
                    if line.is_empty() {
                        continue;
                    }
                    let (a, b) = line.split_once(':').ok_or_else(|| {
                        ApiError::bad_request(format!(
                            "pairing line {} ({line:?}) must be `Player A : Player B`",
                            i + 1
                        ))
                        .with_field("pairs")
                    })?;
                    pairs.push(PairOverride {
                        a: a.trim().into(),
                        b: b.trim().into(),
                    });
                }
                LadderAction::AnnounceRound {
                    deadline: opt(&self.deadline),
                    pairs,
                    byes: text(&self.byes)
                        .lines()
                        .map(str::trim)
                        .filter(|l| !l.is_empty())
                        .map(str::to_string)
                        .collect(),
                    reason: opt(&self.reason),
                    eliminator: opt(&self.eliminator),
                    preview: self.preview.as_deref() == Some("true"),
                }
            }
            "record-result" => LadderAction::RecordResult {
                game: game(),
                result: self.result()?,
                agreed: self.agreed.is_some(),
            },
            "report-result" => LadderAction::ReportResult {
                game: game(),
                result: self.result()?,
            },
            "confirm-result" => LadderAction::ConfirmResult { game: game() },
            "reject-report" => LadderAction::RejectReport {
                game: game(),
                reason: text(&self.reason),
            },
            "forfeit" => LadderAction::Forfeit {
                game: game(),
                absent: text(&self.absent),
                note: opt(&self.note),
            },
            "adjudicate" => LadderAction::Adjudicate {
                game: game(),
                winner: opt(&self.winner).filter(|w| w != "tie"),
                vp: number(&self.vp, "vp")?,
                turn: number(&self.turn, "turn")?,
                final_state: text(&self.final_state),
                ussr_statement: opt(&self.ussr_statement),
                us_statement: opt(&self.us_statement),
                decision: text(&self.decision),
            },
            "correct-result" => LadderAction::CorrectResult {
                game: game(),
                result: self.result()?,
                reason: text(&self.reason),
            },
            "cancel-game" => LadderAction::CancelGame {
                game: game(),
                reason: text(&self.reason),
            },
            "request-skip" => LadderAction::RequestSkip {
                player: opt(&self.player),
                round: number(&self.round, "round")?,
            },
            "cancel-skip" => LadderAction::CancelSkip {
                player: opt(&self.player),
                round: number(&self.round, "round")?,
            },
            "close-round" => LadderAction::CloseRound {
                early_reason: opt(&self.early_reason),
                preview: self.preview.as_deref() == Some("true"),
            },
            other => return Err(no_action(other)),
        })
    }
}

#[derive(Debug, Template)]
#[template(path = "preview.html")]
struct PreviewPage {
    chrome: Chrome,
    id: String,
    done: ActionDone,
    csrf: String,
    key: String,
    version: u64,
    /// The form's fields again, to carry out what was previewed.
    fields: BTreeMap<&'static str, String>,
}

/// `POST /c/{id}/act`: one action from a desk form.
pub(crate) async fn act(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    body: axum::body::Bytes,
) -> Response {
    let back = format!("/c/{id}/manage");
    if caller.account.is_none() {
        return to_login(&back);
    }
    let kind = match Kind::of(&state, &id).await {
        Ok(kind) => kind,
        Err(e) => return e.into_response(),
    };
    let form: ActionForm = match kind {
        Kind::Ladder => match form_of(&body).await {
            Ok(form) => form,
            Err(e) => return problem(e, &back),
        },
        Kind::League | Kind::Challengers => {
            return match super::desk_xmadn::act(&state, &caller, &id, kind, &body).await {
                Ok(r) => r,
                Err(e) => refused(&state, &caller, &id, kind, &body, e).await,
            };
        }
        Kind::Sunjang => {
            return match super::desk_sunjang::act(&state, &caller, &id, &body).await {
                Ok(r) => r,
                Err(e) => refused(&state, &caller, &id, kind, &body, e).await,
            };
        }
    };
    if let Err(e) = caller.check_csrf(form.csrf.as_deref()) {
        return problem(e, &back);
    }
    if form.action.starts_with("mail-") {
        return mail(&state, &caller, &id, &form.action)
            .await
            .unwrap_or_else(|e| problem(e, &back));
    }
    let result = async {
        crate::api::competitions::expect_ladder(&state, &id).await?;
        let action = form.action()?;
        let preview = action.is_preview();
        let expected = form_version(&form.version, preview)?;
        let done = actions::run_ladder(
            &state,
            &caller,
            &id,
            action,
            expected,
            if preview { None } else { opt(&form.key) },
        )
        .await?;
        Ok::<_, ApiError>((preview, done))
    }
    .await;
    match result {
        Ok((true, done)) => {
            let mut fields = BTreeMap::new();
            for (k, v) in [
                ("action", Some(form.action.clone())),
                ("deadline", form.deadline.clone()),
                ("pairs", form.pairs.clone()),
                ("byes", form.byes.clone()),
                ("reason", form.reason.clone()),
                ("eliminator", form.eliminator.clone()),
                ("early_reason", form.early_reason.clone()),
            ] {
                if let Some(v) = v {
                    fields.insert(k, v);
                }
            }
            let name = state
                .service
                .read(&id, |l, _| l.name.clone())
                .await
                .unwrap_or_else(|_| id.clone());
            let title = match (&done.round, &done.close) {
                (Some(r), _) => format!("Preview of round {}", r.number),
                (None, Some(c)) => format!("Preview of the close of round {}", c.round),
                _ => "Preview".into(),
            };
            let page = PreviewPage {
                chrome: Chrome::competition(
                    format!("{title} · {name}"),
                    &id,
                    &name,
                    Kind::Ladder,
                    "",
                ),
                csrf: caller.csrf_token().unwrap_or_default().to_string(),
                key: auth::random_token().unwrap_or_default(),
                version: done.version,
                id,
                done,
                fields,
            };
            render(&page).into_response()
        }
        Ok((false, done)) => {
            // A skip booked for the next round says so on the desk (ARB-R4).
            let what = if done.action == "request-skip" && done.message.contains(SKIP_BOOKED) {
                "request-skip-booked"
            } else {
                done.action.as_str()
            };
            see_other(&format!("/c/{id}/manage?done={what}#done"))
        }
        Err(e) => refused(&state, &caller, &id, kind, &body, e).await,
    }
}

/// The field name of the version a form was shown at.
const CSRF_FIELD_VERSION: &str = "_version";

/// Send the running round's announcement, or the deadline reminders, by
/// e-mail (moderators).
async fn mail(
    state: &AppState,
    caller: &Caller,
    id: &str,
    what: &str,
) -> Result<Response, ApiError> {
    let roles = caller.roles(state, id).await?;
    if !roles.moderates() {
        return Err(ApiError::forbidden(
            "only a moderator sends the competition's e-mail",
        ));
    }
    let mailer = state.mailer.clone().ok_or_else(|| {
        ApiError::bad_request(
            "no SMTP server is configured (`arbiter serve --smtp URL --mail-from ADDRESS`)",
        )
    })?;
    let (ladder, _) = state.service.load(id, None).await?;
    let now = state.now();
    let round = ladder
        .open_round()
        .map(|r| views::round_view(&ladder, id, r, now))
        .ok_or_else(|| ApiError::bad_request("no round is running"))?;
    let links: Vec<(String, String)> = ladder
        .links
        .iter()
        .filter(|(account, _)| ladder.account_player(account).is_some())
        .map(|(account, p)| (ladder.name_of(p), account.to_string()))
        .collect();
    let found = crate::mail::recipients(state.service.store(), &links)
        .await
        .map_err(ApiError::from_store)?;
    let recipients = &found.addresses;
    let (mails, what_sent) = if what == "mail-announcement" {
        (
            crate::mail::round_announcement(&ladder.name, &round, recipients, &state.base_url),
            format!("round {}'s announcement", round.number),
        )
    } else {
        (
            crate::mail::deadline_reminders(
                &ladder.name,
                &round,
                now,
                chrono::Duration::days(REMINDER_DAYS),
                recipients,
                &state.base_url,
            ),
            format!("deadline reminders (games overdue or due within {REMINDER_DAYS} days)"),
        )
    };
    let report = mailer.send_all(&mails).await;
    let mut details = Vec::new();
    let unreachable = crate::mail::unreachable(&round, recipients);
    if !unreachable.is_empty() {
        details.push(format!(
            "No e-mail address for {} player(s), who get nothing: {}.",
            unreachable.len(),
            unreachable.join(", ")
        ));
    }
    for (player, address) in &found.invalid_email {
        details.push(format!("{player}'s address {address:?} is not valid."));
    }
    for f in &report.failures {
        details.push(format!("Not sent to {} <{}>: {}", f.player, f.to, f.error));
    }
    let page = NoticePage {
        chrome: Chrome::new("E-mail sent"),
        heading: "E-mail".into(),
        message: format!(
            "{}: {} message(s) sent, {} failed.",
            what_sent,
            report.sent,
            report.failures.len()
        ),
        details,
        back: format!("/c/{id}/manage"),
    };
    Ok(render(&page).into_response())
}

/// Reminders go to games overdue or due within this many days.
const REMINDER_DAYS: i64 = 3;

/// Percent-encode a local path for a query value.
fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    #[test]
    fn next_stays_on_this_site() {
        assert_eq!(safe_next(Some("/c/x/manage")), "/c/x/manage");
        for bad in [
            "//evil.example",
            "https://evil.example",
            "/\\evil",
            "javascript:x",
        ] {
            assert_eq!(safe_next(Some(bad)), "/account", "{bad}");
        }
        assert_eq!(safe_next(None), "/account");
    }

    #[test]
    fn forms_become_actions_and_name_bad_fields() {
        let f = ActionForm {
            action: "report-result".into(),
            game: Some("G3".into()),
            winner: Some("tie".into()),
            vp: Some("x".into()),
            ..ActionForm::default()
        };
        let e = f.action().unwrap_err();
        assert_eq!(e.detail.field.as_deref(), Some("vp"));
        let f = ActionForm {
            action: "announce-round".into(),
            pairs: Some("Ann : Bob\n\nCid:Dee".into()),
            preview: Some("true".into()),
            ..ActionForm::default()
        };
        match f.action().unwrap() {
            LadderAction::AnnounceRound { pairs, preview, .. } => {
                assert_eq!(pairs.len(), 2);
                assert_eq!(pairs[0].a, "Ann");
                assert!(preview);
            }
            other => panic!("{other:?}"),
        }
        let e = ActionForm {
            action: "nope".into(),
            ..ActionForm::default()
        }
        .action()
        .unwrap_err();
        assert_eq!(e.detail.field.as_deref(), Some("action"));
    }

    #[test]
    fn every_action_has_a_done_message() {
        for a in [
            "join",
            "add-player",
            "approve",
            "decline",
            "withdraw",
            "add-moderator",
            "remove-moderator",
            "change-rules",
            "announce-round",
            "record-result",
            "report-result",
            "confirm-result",
            "reject-report",
            "forfeit",
            "adjudicate",
            "correct-result",
            "cancel-game",
            "request-skip",
            "cancel-skip",
            "close-round",
        ] {
            assert!(done_message(a).is_some(), "{a}");
        }
        assert!(done_message("<script>").is_none());
    }
}
