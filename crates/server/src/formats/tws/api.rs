//! The ladder's own API routes: `GET /api/competitions/{id}/rounds/{n}`
//! ([`crate::formats::WebFormat::api_routes`], its OpenAPI paths in
//! [`Doc`]).

use arbiter_engine::tws::Ladder;
use arbiter_service::views::{self, RoundView};
use axum::Router;
use axum::extract::State;
use axum::routing::get;
use utoipa::OpenApi;

use crate::AppState;
use crate::api::competitions::expect_format;
use crate::api::{ApiPath, Versioned};
use crate::error::{ApiError, ErrorBody};

/// The routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/api/competitions/{id}/rounds/{n}", get(round))
}

/// 404 unless competition `id` is a TWS ladder (the format whose actions the
/// API takes).
pub(crate) async fn expect_ladder(state: &AppState, id: &str) -> Result<(), ApiError> {
    if arbiter_service::check_competition_id(id).is_err() {
        return Err(ApiError::not_found(format!(
            "there is no competition {id:?}"
        )));
    }
    expect_format(
        &state.service,
        id,
        <Ladder as arbiter_service::Format>::FORMAT,
        "ladder actions",
    )
    .await
}

/// Their OpenAPI paths.
#[derive(OpenApi)]
#[openapi(paths(round))]
pub(crate) struct Doc;

#[utoipa::path(
    get,
    path = "/api/competitions/{id}/rounds/{n}",
    tag = "competitions",
    params(
        ("id" = String, Path, description = "The id of a TWS ladder"),
        ("n" = u32, Path, description = "The round's number, from 1"),
    ),
    responses(
        (status = 200, description = "The ladder round: games with sides and their reasons, skips, byes, deadline, overdue games, the revealed seed", body = RoundView,
            headers(("ETag" = String, description = "The competition's version, `\"v42\"`"))),
        (status = 400, description = "A round number that is not a number", body = ErrorBody),
        (status = 404, description = "No such competition or round, or not a ladder", body = ErrorBody),
        (status = 500, description = "The database failed", body = ErrorBody),
    )
)]
pub async fn round(
    State(state): State<AppState>,
    ApiPath((id, n)): ApiPath<(String, u32)>,
) -> Result<Versioned<RoundView>, ApiError> {
    let svc = &state.service;
    expect_format(
        svc,
        &id,
        <Ladder as arbiter_service::Format>::FORMAT,
        "ladder rounds",
    )
    .await?;
    let now = state.now();
    let (version, view) = svc
        .read(&id, |l, v| {
            let view = l
                .rounds
                .iter()
                .find(|r| r.number == n)
                .map(|r| views::round_view(l, &id, r, now));
            (v, view)
        })
        .await?;
    match view {
        Some(view) => Ok(Versioned(version, view)),
        None => Err(ApiError::not_found(format!("{id} has no round {n}"))),
    }
}
