//! Calendar feeds in the API (issue 18 §4): an account's own
//! (`/api/calendars`) and a competition's (`/api/competitions/{id}/calendars`,
//! its owner and moderators). A feed's URL is in the answer that makes it,
//! and nowhere after: only its token's SHA-256 is kept.

use arbiter_store::{CalendarFeed, FeedOwner};
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::ApiPath;
use super::write::ApiJson;
use crate::AppState;
use crate::auth::{CSRF_HEADER, Caller};
use crate::calendar;
use crate::error::{ApiError, ErrorBody};

/// A new calendar feed.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FeedBody {
    /// 1 to 60 characters: what the feed is for ("phone").
    pub label: String,
}

/// The feed just made: its URL is shown this once.
#[derive(Debug, Serialize, ToSchema)]
pub struct FeedCreated {
    /// The private address to subscribe to (`…/calendar/<token>.ics`).
    pub url: String,
    /// What revokes it.
    pub id: String,
    pub label: String,
}

/// A calendar feed (never its URL).
#[derive(Debug, Serialize, ToSchema)]
pub struct FeedView {
    /// The first 16 hex digits of its token's SHA-256.
    pub id: String,
    pub label: String,
    /// The account that made it.
    pub created_by: String,
    /// RFC 3339.
    pub created_at: String,
}

impl FeedView {
    fn of(f: &CalendarFeed) -> Self {
        FeedView {
            id: f.id().to_string(),
            label: f.label.clone(),
            created_by: f.created_by.clone(),
            created_at: f.created_at.clone(),
        }
    }
}

fn csrf(caller: &Caller, headers: &HeaderMap) -> Result<(), ApiError> {
    caller.check_csrf(headers.get(CSRF_HEADER).and_then(|v| v.to_str().ok()))
}

fn own(caller: &Caller) -> Result<FeedOwner, ApiError> {
    Ok(FeedOwner::Account(caller.account()?.username.clone()))
}

async fn made(
    state: &AppState,
    caller: &Caller,
    owner: FeedOwner,
    label: &str,
) -> Result<Response, ApiError> {
    let by = caller.account()?.username.clone();
    let (url, feed) = calendar::create(state, owner, &by, label).await?;
    Ok((
        StatusCode::CREATED,
        Json(FeedCreated {
            url,
            id: feed.id().to_string(),
            label: feed.label,
        }),
    )
        .into_response())
}

async fn listed(state: &AppState, owner: &FeedOwner) -> Result<Json<Vec<FeedView>>, ApiError> {
    Ok(Json(
        calendar::list(state, owner)
            .await?
            .iter()
            .map(FeedView::of)
            .collect(),
    ))
}

#[utoipa::path(
    get,
    path = "/api/calendars",
    tag = "accounts",
    responses(
        (status = 200, description = "The caller's own calendar feeds (his games and deadlines in every competition where his account is linked to a player), oldest first", body = Vec<FeedView>),
        (status = 401, description = "Not logged in", body = ErrorBody),
    )
)]
pub async fn list_own(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Json<Vec<FeedView>>, ApiError> {
    listed(&state, &own(&caller)?).await
}

#[utoipa::path(
    post,
    path = "/api/calendars",
    tag = "accounts",
    request_body = FeedBody,
    params(("X-CSRF-Token" = Option<String>, Header, description = "The session's CSRF token, with a session cookie")),
    responses(
        (status = 201, description = "The feed and its private URL, shown once", body = FeedCreated),
        (status = 400, description = "The label is not valid, or the account holds the most feeds kept (`field` says which)", body = ErrorBody),
        (status = 401, description = "Not logged in", body = ErrorBody),
    )
)]
pub async fn create_own(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    ApiJson(body): ApiJson<FeedBody>,
) -> Result<Response, ApiError> {
    let owner = own(&caller)?;
    csrf(&caller, &headers)?;
    made(&state, &caller, owner, &body.label).await
}

#[utoipa::path(
    delete,
    path = "/api/calendars/{id}",
    tag = "accounts",
    params(
        ("id" = String, Path, description = "The feed's id, from `GET /api/calendars`"),
        ("X-CSRF-Token" = Option<String>, Header, description = "The session's CSRF token, with a session cookie"),
    ),
    responses(
        (status = 204, description = "Revoked: its URL answers 404 from now on"),
        (status = 401, description = "Not logged in", body = ErrorBody),
        (status = 404, description = "The caller has no feed with this id", body = ErrorBody),
    )
)]
pub async fn revoke_own(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    ApiPath(id): ApiPath<String>,
) -> Result<Response, ApiError> {
    let owner = own(&caller)?;
    csrf(&caller, &headers)?;
    calendar::revoke(&state, &owner, &id).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

#[utoipa::path(
    get,
    path = "/api/competitions/{id}/calendars",
    tag = "competitions",
    params(("id" = String, Path, description = "The competition")),
    responses(
        (status = 200, description = "The competition's calendar feeds (its rounds, seasons and deadlines), oldest first", body = Vec<FeedView>),
        (status = 401, description = "Not logged in", body = ErrorBody),
        (status = 403, description = "Not its owner or a moderator", body = ErrorBody),
        (status = 404, description = "No such competition", body = ErrorBody),
    )
)]
pub async fn list_of_competition(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<String>,
) -> Result<Json<Vec<FeedView>>, ApiError> {
    let owner = calendar::may_manage(&state, &caller, &id).await?;
    listed(&state, &owner).await
}

#[utoipa::path(
    post,
    path = "/api/competitions/{id}/calendars",
    tag = "competitions",
    request_body = FeedBody,
    params(
        ("id" = String, Path, description = "The competition"),
        ("X-CSRF-Token" = Option<String>, Header, description = "The session's CSRF token, with a session cookie"),
    ),
    responses(
        (status = 201, description = "The feed and its private URL, shown once", body = FeedCreated),
        (status = 400, description = "The label is not valid, or the competition holds the most feeds kept (`field` says which)", body = ErrorBody),
        (status = 401, description = "Not logged in", body = ErrorBody),
        (status = 403, description = "Not its owner or a moderator", body = ErrorBody),
        (status = 404, description = "No such competition", body = ErrorBody),
    )
)]
pub async fn create_for_competition(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<FeedBody>,
) -> Result<Response, ApiError> {
    let owner = calendar::may_manage(&state, &caller, &id).await?;
    csrf(&caller, &headers)?;
    made(&state, &caller, owner, &body.label).await
}

#[utoipa::path(
    delete,
    path = "/api/competitions/{id}/calendars/{feed}",
    tag = "competitions",
    params(
        ("id" = String, Path, description = "The competition"),
        ("feed" = String, Path, description = "The feed's id, from its list"),
        ("X-CSRF-Token" = Option<String>, Header, description = "The session's CSRF token, with a session cookie"),
    ),
    responses(
        (status = 204, description = "Revoked: its URL answers 404 from now on"),
        (status = 401, description = "Not logged in", body = ErrorBody),
        (status = 403, description = "Not its owner or a moderator", body = ErrorBody),
        (status = 404, description = "No such competition, or it has no feed with this id", body = ErrorBody),
    )
)]
pub async fn revoke_of_competition(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    ApiPath((id, feed)): ApiPath<(String, String)>,
) -> Result<Response, ApiError> {
    let owner = calendar::may_manage(&state, &caller, &id).await?;
    csrf(&caller, &headers)?;
    calendar::revoke(&state, &owner, &feed).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}
