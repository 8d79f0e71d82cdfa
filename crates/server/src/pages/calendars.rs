//! The calendar feeds' pages (issue 18 §4): the account's own feeds, a
//! section of the account page (`POST /account/calendars`,
//! `POST /account/calendars/{id}/revoke`), and a competition's feeds,
//! reached from its desk by its owner and moderators (`GET /c/{id}/calendars`,
//! `POST /c/{id}/calendars`, `POST /c/{id}/calendars/{feed}/revoke`). Every
//! form carries the session's CSRF token; nothing here touches a
//! competition's log, so no version is sent.

use arbiter_store::{CalendarFeed, FeedOwner};
use askama::Template;
use axum::Form;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::accounts::account_page_with;
use super::forms::{for_moderators, problem, to_login, urlencode};
use super::{Chrome, render};
use crate::AppState;
use crate::auth::Caller;
use crate::calendar;
use crate::error::ApiError;

/// The feeds of an account or a competition as a page lists them, and
/// what the last form did.
#[derive(Debug, Default)]
pub(crate) struct FeedsSection {
    pub feeds: Vec<FeedLine>,
    /// The URL of the feed just made: shown this once.
    pub new_url: Option<String>,
    /// The label of the feed just revoked.
    pub revoked: Option<String>,
    pub max_label: usize,
}

#[derive(Debug)]
pub(crate) struct FeedLine {
    pub id: String,
    pub label: String,
    pub created: String,
    pub created_by: String,
}

impl FeedsSection {
    /// The feeds of `owner`, with the notices.
    pub(crate) async fn of(
        state: &AppState,
        owner: &FeedOwner,
        new_url: Option<String>,
        revoked: Option<String>,
    ) -> Result<Self, ApiError> {
        Ok(Self {
            feeds: calendar::list(state, owner)
                .await?
                .iter()
                .map(|f: &CalendarFeed| FeedLine {
                    id: f.id().to_string(),
                    label: f.label.clone(),
                    created: f.created_at.chars().take(10).collect(),
                    created_by: f.created_by.clone(),
                })
                .collect(),
            new_url,
            revoked,
            max_label: calendar::MAX_LABEL,
        })
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct FeedForm {
    label: String,
    #[serde(rename = "_csrf")]
    csrf: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct CsrfOnly {
    #[serde(rename = "_csrf")]
    csrf: Option<String>,
}

fn own(caller: &Caller) -> Result<FeedOwner, ApiError> {
    Ok(FeedOwner::Account(caller.account()?.username.clone()))
}

/// `POST /account/calendars`: a new feed of the account's games; its URL
/// is shown once.
pub(crate) async fn create_own(
    State(state): State<AppState>,
    caller: Caller,
    Form(form): Form<FeedForm>,
) -> Response {
    if caller.account.is_none() {
        return to_login("/account");
    }
    let result = async {
        let owner = own(&caller)?;
        caller.check_csrf(form.csrf.as_deref())?;
        let by = caller.account()?.username.clone();
        calendar::create(&state, owner, &by, &form.label).await
    }
    .await;
    match result {
        Ok((url, _)) => account_page_with(&state, &caller, None, None, Some(url), None).await,
        Err(e) => problem(e, "/account#calendars"),
    }
}

/// `POST /account/calendars/{id}/revoke`: its URL answers 404 from now on.
pub(crate) async fn revoke_own(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Form(form): Form<CsrfOnly>,
) -> Response {
    if caller.account.is_none() {
        return to_login("/account");
    }
    let result = async {
        let owner = own(&caller)?;
        caller.check_csrf(form.csrf.as_deref())?;
        calendar::revoke(&state, &owner, &id).await
    }
    .await;
    match result {
        Ok(feed) => account_page_with(&state, &caller, None, None, None, Some(feed.label)).await,
        Err(e) => problem(e, "/account#calendars"),
    }
}

#[derive(Debug, Template)]
#[template(path = "calendars.html")]
struct CompetitionFeedsPage {
    chrome: Chrome,
    id: String,
    name: String,
    csrf: String,
    calendars: FeedsSection,
}

async fn competition_page(
    state: &AppState,
    caller: &Caller,
    id: &str,
    new_url: Option<String>,
    revoked: Option<String>,
) -> Result<Response, ApiError> {
    let owner = calendar::may_manage(state, caller, id).await?;
    let name = state.service.summary(id).await?.name;
    let page = CompetitionFeedsPage {
        chrome: Chrome::new(format!("Calendar feeds of {name}")),
        id: id.to_string(),
        name,
        csrf: caller.csrf_token().unwrap_or_default().to_string(),
        calendars: FeedsSection::of(state, &owner, new_url, revoked).await?,
    };
    Ok(render(&page).into_response())
}

/// `GET /c/{id}/calendars`: the competition's feeds, for its owner and
/// moderators.
pub(crate) async fn page(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Response {
    // The page begins with the check (`calendar::may_manage`).
    let here = format!("/c/{}/calendars", urlencode(&id));
    match for_moderators(
        &caller,
        &here,
        competition_page(&state, &caller, &id, None, None),
    )
    .await
    {
        Ok(page) | Err(page) => page,
    }
}

/// `POST /c/{id}/calendars`: a new feed of the competition; its URL is
/// shown once.
pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Form(form): Form<FeedForm>,
) -> Response {
    let result = async {
        let owner = calendar::may_manage(&state, &caller, &id).await?;
        caller.check_csrf(form.csrf.as_deref())?;
        let by = caller.account()?.username.clone();
        let (url, _) = calendar::create(&state, owner, &by, &form.label).await?;
        competition_page(&state, &caller, &id, Some(url), None).await
    }
    .await;
    result.unwrap_or_else(|e| problem(e, "/"))
}

/// `POST /c/{id}/calendars/{feed}/revoke`.
pub(crate) async fn revoke(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, feed)): Path<(String, String)>,
    Form(form): Form<CsrfOnly>,
) -> Response {
    let result = async {
        let owner = calendar::may_manage(&state, &caller, &id).await?;
        caller.check_csrf(form.csrf.as_deref())?;
        let gone = calendar::revoke(&state, &owner, &feed).await?;
        competition_page(&state, &caller, &id, None, Some(gone.label)).await
    }
    .await;
    result.unwrap_or_else(|e| problem(e, "/"))
}
