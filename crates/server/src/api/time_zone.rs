//! A competition's time zone in the API (issue 17 §3, ARB-R82): `GET
//! /api/competitions/{id}/time-zone` for anyone, `PUT` for its owner and
//! moderators, through the format's own `…time-zone-set` event (the same
//! as `/c/{id}/time-zone` and `arbiter competition time-zone`).

use arbiter_engine::zone::TimeZone;
use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::ApiPath;
use super::write::ApiJson;
use crate::AppState;
use crate::auth::{CSRF_HEADER, Caller};
use crate::error::{ApiError, ErrorBody};

/// A time zone to set.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ZoneBody {
    /// An IANA name ("Europe/Berlin", "UTC"), matched without regard to
    /// case; at most 64 characters.
    pub time_zone: String,
}

/// A competition's time zone.
#[derive(Debug, Serialize, ToSchema)]
pub struct ZoneView {
    pub competition: String,
    /// Its IANA name.
    pub time_zone: String,
    /// Now in the zone, to the minute ("2026-12-05 11:40 CET").
    pub now: String,
    /// The competition's version (a set that changed it stored an event).
    pub version: u64,
    /// Whether this request stored the event (false: it was already the
    /// zone).
    pub stored: bool,
}

async fn view(state: &AppState, id: &str, stored: bool) -> Result<ZoneView, ApiError> {
    let zone = state.service.time_zone(id).await?;
    Ok(ZoneView {
        competition: id.to_string(),
        time_zone: zone.name().to_string(),
        now: zone.minute(state.now()),
        version: state.service.summary(id).await?.version,
        stored,
    })
}

#[utoipa::path(
    get,
    path = "/api/competitions/{id}/time-zone",
    tag = "competitions",
    params(("id" = String, Path, description = "The competition")),
    responses(
        (status = 200, description = "The competition's time zone (UTC until one is set, ARB-R82)", body = ZoneView),
        (status = 404, description = "No such competition", body = ErrorBody),
    )
)]
pub async fn get_zone(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> Result<Json<ZoneView>, ApiError> {
    Ok(Json(view(&state, &id, false).await?))
}

#[utoipa::path(
    put,
    path = "/api/competitions/{id}/time-zone",
    tag = "competitions",
    request_body = ZoneBody,
    params(
        ("id" = String, Path, description = "The competition"),
        ("X-CSRF-Token" = Option<String>, Header, description = "The session's CSRF token, with a session cookie"),
    ),
    responses(
        (status = 200, description = "The zone set (`stored`: false when it already was the zone: nothing stored)", body = ZoneView),
        (status = 401, description = "Not logged in", body = ErrorBody),
        (status = 403, description = "Not its owner or a moderator", body = ErrorBody),
        (status = 404, description = "No such competition", body = ErrorBody),
        (status = 422, description = "Not a time zone (`field` is `time_zone`; the message names the zones meant)", body = ErrorBody),
    )
)]
pub async fn put_zone(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<ZoneBody>,
) -> Result<Json<ZoneView>, ApiError> {
    caller
        .must_moderate(&state, &id, "set its time zone")
        .await?;
    caller.check_csrf(headers.get(CSRF_HEADER).and_then(|v| v.to_str().ok()))?;
    let zone = TimeZone::parse(&body.time_zone)
        .map_err(|e| ApiError::from(arbiter_service::ServiceError::Rule(e)))?;
    if zone == state.service.time_zone(&id).await? {
        return Ok(Json(view(&state, &id, false).await?));
    }
    let ctx = crate::actions::common::context(caller.account()?, state.now(), None, None);
    state.service.set_time_zone(&id, zone.name(), &ctx).await?;
    Ok(Json(view(&state, &id, true).await?))
}
