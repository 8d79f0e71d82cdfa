//! The Sunjang league's own API routes:
//! `GET /api/competitions/{id}/seasons/{n}`
//! ([`crate::formats::WebFormat::api_routes`], its OpenAPI paths in
//! [`Doc`]).

use arbiter_engine::sunjang::season::League as SunjangLeague;
use arbiter_service::sunjang::{SeasonView, season_view};
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
    Router::new().route("/api/competitions/{id}/seasons/{n}", get(season))
}

/// Their OpenAPI paths.
#[derive(OpenApi)]
#[openapi(paths(season))]
pub(crate) struct Doc;

#[utoipa::path(
    get,
    path = "/api/competitions/{id}/seasons/{n}",
    tag = "competitions",
    params(
        ("id" = String, Path, description = "The id of a Sunjang league"),
        ("n" = u32, Path, description = "The season's number, from 1"),
    ),
    responses(
        (status = 200, description = "The season: divisions, groups with crosstables, every placement with its reason, the final round", body = SeasonView,
            headers(("ETag" = String, description = "The competition's version, `\"v42\"`"))),
        (status = 400, description = "A season number that is not a number", body = ErrorBody),
        (status = 404, description = "No such competition or season, or not a Sunjang league", body = ErrorBody),
        (status = 500, description = "The database failed", body = ErrorBody),
    )
)]
pub async fn season(
    State(state): State<AppState>,
    ApiPath((id, n)): ApiPath<(String, u32)>,
) -> Result<Versioned<SeasonView>, ApiError> {
    let svc = &state.service;
    expect_format(
        svc,
        &id,
        <SunjangLeague as arbiter_service::Format>::FORMAT,
        "seasons",
    )
    .await?;
    let (version, view) = svc
        .read_as::<SunjangLeague, _>(&id, |l, v| {
            let view = l
                .seasons
                .iter()
                .find(|s| s.number() == n)
                .map(|s| season_view(l, s));
            (v, view)
        })
        .await?;
    match view {
        Some(view) => Ok(Versioned(version, view)),
        None => Err(ApiError::not_found(format!("{id} has no season {n}"))),
    }
}
