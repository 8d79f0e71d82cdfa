//! A competition's time zone (issue 17 §3, ARB-R82), for its owner and
//! moderators: `GET /c/{id}/time-zone` shows the zone and a form to change
//! it; `POST /c/{id}/time-zone` sets it through the format's own
//! `…time-zone-set` event, so that it is in the log, the history, exports
//! and imports, and can be undone. A name that is not a zone is answered
//! on the same page next to the field, with the input kept and the zones
//! it may have meant. Sending the zone the competition already has (Back,
//! then send again) says so and stores nothing.

use arbiter_engine::zone::{MAX_ZONE, TimeZone};
use askama::Template;
use axum::Form;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::forms::{for_moderators, problem, urlencode};
use super::{Chrome, render};
use crate::AppState;
use crate::auth::Caller;
use crate::error::ApiError;

#[derive(Debug, Template)]
#[template(path = "time_zone.html")]
struct TimeZonePage {
    chrome: Chrome,
    id: String,
    name: String,
    csrf: String,
    /// The competition's zone now.
    zone: &'static str,
    /// Now in that zone ("2026-12-05 11:40 CET").
    now: String,
    /// The value in the field: the zone, or what was typed.
    value: String,
    /// What is wrong with the value, next to the field.
    error: Option<String>,
    /// What the form did.
    done: Option<String>,
    zones: Vec<&'static str>,
    max_zone: usize,
}

async fn may_manage(state: &AppState, caller: &Caller, competition: &str) -> Result<(), ApiError> {
    caller
        .must_moderate(state, competition, "set its time zone")
        .await
}

async fn render_page(
    state: &AppState,
    caller: &Caller,
    id: &str,
    typed: Option<String>,
    error: Option<String>,
    done: Option<String>,
) -> Result<Response, ApiError> {
    let name = state.service.summary(id).await?.name;
    let zone = state.service.time_zone(id).await?;
    let status = if error.is_some() {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::OK
    };
    let page = TimeZonePage {
        chrome: Chrome::new(format!("Time zone of {name}")),
        id: id.to_string(),
        name,
        csrf: caller.csrf_token().unwrap_or_default().to_string(),
        zone: zone.name(),
        now: zone.minute(state.now()),
        value: typed.unwrap_or_else(|| zone.name().to_string()),
        error,
        done,
        zones: TimeZone::names().collect(),
        max_zone: MAX_ZONE,
    };
    let response = render(&page).map_err(|e| ApiError::internal(format!("{e:?}")))?;
    Ok((status, response).into_response())
}

/// `GET /c/{id}/time-zone`.
pub(crate) async fn page(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Response {
    let here = format!("/c/{}/time-zone", urlencode(&id));
    if let Err(refused) = for_moderators(&caller, &here, may_manage(&state, &caller, &id)).await {
        return refused;
    }
    render_page(&state, &caller, &id, None, None, None)
        .await
        .unwrap_or_else(|e| problem(e, "/"))
}

#[derive(Debug, Deserialize)]
pub(crate) struct ZoneForm {
    #[serde(default)]
    time_zone: String,
    #[serde(rename = "_csrf")]
    csrf: Option<String>,
}

/// `POST /c/{id}/time-zone`.
pub(crate) async fn set(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Form(form): Form<ZoneForm>,
) -> Response {
    let result = async {
        may_manage(&state, &caller, &id).await?;
        caller.check_csrf(form.csrf.as_deref())?;
        // What was typed, kept for the field (bounded: a form may send
        // anything).
        let typed: String = form.time_zone.chars().take(MAX_ZONE * 2).collect();
        let zone = match TimeZone::parse(&typed) {
            Ok(zone) => zone,
            Err(e) => {
                return render_page(&state, &caller, &id, Some(typed), Some(e.message), None)
                    .await;
            }
        };
        if zone == state.service.time_zone(&id).await? {
            let done = format!("The time zone already was {zone}: nothing changed.");
            return render_page(&state, &caller, &id, None, None, Some(done)).await;
        }
        let account = caller.account()?;
        let ctx = crate::actions::common::context(account, state.now(), None, None);
        state.service.set_time_zone(&id, zone.name(), &ctx).await?;
        let done = format!(
            "The time zone is now {zone}: the competition's times are shown in it, and a deadline given as a day ends at 23:59:59 there."
        );
        render_page(&state, &caller, &id, None, None, Some(done)).await
    }
    .await;
    result.unwrap_or_else(|e| problem(e, &format!("/c/{}/time-zone", urlencode(&id))))
}
