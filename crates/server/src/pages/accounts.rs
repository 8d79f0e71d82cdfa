//! The account pages: logging in and out, registering, and the account
//! (its roles and API tokens).

use arbiter_store::{AccountStore, Grant};
use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::forms::{form_token, problem, see_other, to_login, urlencode, with_cookie};
use super::{Chrome, render};
use crate::AppState;
use crate::auth::{self, Caller};
use crate::error::ApiError;

/// A local address to go back to after logging in (never another site).
fn safe_next(next: Option<&str>) -> String {
    match next {
        Some(n) if n.starts_with('/') && !n.starts_with("//") && !n.contains('\\') => n.into(),
        _ => "/account".into(),
    }
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
    /// The account's calendar feeds (issue 18 §4).
    calendars: super::calendars::FeedsSection,
    /// What waits for him, most urgent first (issue 17 §1).
    waiting: Vec<super::viewer::Waiting>,
    soon_days: i64,
    /// The idempotency key of this page's confirm and dispute forms, each
    /// made its own by its place (`{key}-confirm-3`): one sent again
    /// (Back, then send) answers what its first sending did, never an
    /// error (issue 17 §2).
    key: String,
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

async fn account_page_for(
    state: &AppState,
    caller: &Caller,
    new_token: Option<String>,
    revoked: Option<String>,
) -> Response {
    account_page_with(state, caller, new_token, revoked, None, None).await
}

/// The account page with the notices of its forms: an API token just
/// made or revoked, a calendar feed's URL just made, a feed just revoked.
pub(crate) async fn account_page_with(
    state: &AppState,
    caller: &Caller,
    new_token: Option<String>,
    revoked: Option<String>,
    new_feed: Option<String>,
    revoked_feed: Option<String>,
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
        let calendars = super::calendars::FeedsSection::of(
            state,
            &arbiter_store::FeedOwner::Account(account.username.clone()),
            new_feed,
            revoked_feed,
        )
        .await?;
        Ok::<_, ApiError>((grants, tokens, calendars, auth::random_token()?))
    }
    .await;
    let (grants, tokens, calendars, key) = match result {
        Ok(x) => x,
        Err(e) => return problem(e, "/"),
    };
    // The header's reader has it already; a page built without one (a
    // caller by API token) works it out.
    let waiting = match super::viewer::current() {
        Some(v) if v.username == account.username => v.waiting,
        _ => super::viewer::waiting(state, &account.username).await,
    };
    let page = AccountPage {
        chrome: Chrome::new("Your account"),
        csrf: caller.csrf_token().unwrap_or_default().to_string(),
        key,
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
        calendars,
        waiting,
        soon_days: super::viewer::SOON_DAYS,
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
}
