//! Ratings (ARB-R46) and Monte-Carlo projections (ARB-R48) of a
//! competition, read side. A projection runs on a blocking thread and is
//! kept per competition version and request ([`ProjectionCache`]): a view
//! has no clock, so the same request at the same version has the same
//! answer.

use std::sync::{Arc, Mutex};

use arbiter_service::insight::{
    AreaReportView, ProjectionRequest, ProjectionView, RatingScope, RatingSystem, RatingsView,
};
use arbiter_service::what_if::AnyWhatIfView;
use std::collections::BTreeMap;

use axum::extract::State;
use serde::Deserialize;
use utoipa::ToSchema;

use super::{ApiPath, ApiQuery, Versioned};
use crate::AppState;
use crate::error::{ApiError, ErrorBody};

/// How many views a [`Kept`] holds; the oldest half goes when it is full.
const KEPT: usize = 64;

/// Views that cost CPU to make (projections, clinch analyses), kept by
/// competition, version and request: a competition's events are only
/// appended, so a view made at a version stays true for it.
pub struct Kept<T>(Mutex<Vec<(String, Arc<T>)>>);

impl<T> Default for Kept<T> {
    fn default() -> Self {
        Self(Mutex::new(Vec::new()))
    }
}

impl<T> std::fmt::Debug for Kept<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Kept")
    }
}

impl<T> Kept<T> {
    pub(crate) fn get(&self, key: &str) -> Option<Arc<T>> {
        let kept = self.0.lock().ok()?;
        kept.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone())
    }

    pub(crate) fn put(&self, key: String, view: Arc<T>) {
        if let Ok(mut kept) = self.0.lock() {
            if kept.len() >= KEPT {
                kept.drain(..KEPT / 2);
            }
            kept.push((key, view));
        }
    }
}

/// Projections already run.
pub type ProjectionCache = Kept<ProjectionView>;

/// Run (or find) the projection of competition `id`. The service's
/// defaults apply to what `request` leaves out.
pub async fn projection_of(
    state: &AppState,
    id: &str,
    request: ProjectionRequest,
) -> Result<Arc<ProjectionView>, arbiter_service::ServiceError> {
    let loaded = state.service.projection_input(id).await?;
    let key = format!(
        "{id}\0{}\0{:?}\0{:?}\0{:?}\0{:?}",
        loaded.version, request.seasons, request.seed, request.rounds, request.system
    );
    if let Some(v) = state.projections.get(&key) {
        return Ok(v);
    }
    let view = tokio::task::spawn_blocking(move || loaded.project(&request))
        .await
        .map_err(|e| {
            arbiter_service::ServiceError::Input(format!("the projection failed: {e}"))
        })??;
    let view = Arc::new(view);
    state.projections.put(key, view.clone());
    Ok(view)
}

#[derive(Debug, Deserialize)]
pub struct RatingsQuery {
    /// `area` (default), `elo` or `glicko2`.
    pub system: Option<RatingSystem>,
    /// `competition` (default): this ladder's games; `installation`: every
    /// TWS ladder of the server rated together, players matched by name.
    pub scope: Option<RatingScope>,
}

#[utoipa::path(
    get,
    path = "/api/competitions/{id}/ratings",
    tag = "competitions",
    params(
        ("id" = String, Path, description = "The competition's id (a TWS ladder or an XMadn league, ARB-R49)"),
        ("system" = Option<RatingSystem>, Query, description = "`area` (default), `elo` or `glicko2`"),
        ("scope" = Option<RatingScope>, Query, description = "`competition` (default): this ladder's games; `installation`: every TWS ladder of the server rated together, players matched by name"),
    ),
    responses(
        (status = 200, description = "Every rated player, highest first, with his rating history (ARB-R46)", body = RatingsView,
            headers(("ETag" = String, description = "The competition's version, `\"v42\"`"))),
        (status = 400, description = "An unknown system or scope, or a competition without ratings", body = ErrorBody),
        (status = 404, description = "No such competition", body = ErrorBody),
        (status = 500, description = "The database failed", body = ErrorBody),
    )
)]
pub async fn ratings(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<RatingsQuery>,
) -> Result<Versioned<RatingsView>, ApiError> {
    let v = state
        .service
        .ratings(
            &id,
            q.system.unwrap_or_default(),
            q.scope.unwrap_or_default(),
        )
        .await?;
    Ok(Versioned(v.version, v))
}

#[derive(Debug, Deserialize)]
pub struct AreaReportQuery {
    /// The round.
    pub round: u32,
}

#[utoipa::path(
    get,
    path = "/api/competitions/{id}/area-report",
    tag = "competitions",
    params(
        ("id" = String, Path, description = "The competition's id (a TWS ladder)"),
        ("round" = u32, Query, description = "The round"),
    ),
    responses(
        (status = 200, description = "The AREA report of the round (RATING OF GAMES)", body = AreaReportView,
            headers(("ETag" = String, description = "The competition's version, `\"v42\"`"))),
        (status = 400, description = "No such round, or a competition without ratings", body = ErrorBody),
        (status = 404, description = "No such competition", body = ErrorBody),
        (status = 500, description = "The database failed", body = ErrorBody),
    )
)]
pub async fn area_report(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<AreaReportQuery>,
) -> Result<Versioned<AreaReportView>, ApiError> {
    let v = state.service.area_report(&id, q.round).await?;
    Ok(Versioned(v.version, v))
}

#[derive(Debug, Deserialize)]
pub struct ProjectionQuery {
    /// Simulated seasons, 1 to 20000 on this server by default (default 10000).
    pub seasons: Option<u32>,
    /// The seed: 64 hexadecimal digits, or any text (its SHA-256). Default:
    /// derived from the competition's id and version.
    pub seed: Option<String>,
    /// A ladder's rounds after the running one (default 1, at most 20).
    pub rounds: Option<u32>,
    /// A ladder's rating system for the odds (default `area`).
    pub system: Option<RatingSystem>,
}

impl From<ProjectionQuery> for ProjectionRequest {
    fn from(q: ProjectionQuery) -> Self {
        ProjectionRequest {
            seasons: q.seasons,
            seed: q.seed,
            rounds: q.rounds,
            system: q.system,
        }
    }
}

#[utoipa::path(
    get,
    path = "/api/competitions/{id}/projection",
    tag = "competitions",
    params(
        ("id" = String, Path, description = "The competition's id (a TWS ladder, an XMadn league or a Sunjang league)"),
        ("seasons" = Option<u32>, Query, description = "Simulated seasons, 1 to the server's limit (20000 by default; default 10000)"),
        ("seed" = Option<String>, Query, description = "64 hexadecimal digits, or any text (its SHA-256); default: derived from the competition's id and version"),
        ("rounds" = Option<u32>, Query, description = "A ladder's rounds after the running one (default 1, at most 20)"),
        ("system" = Option<RatingSystem>, Query, description = "A ladder's rating system for the odds (default `area`)"),
    ),
    responses(
        (status = 200, description = "Each player's outcomes counted over the simulated seasons (ARB-R48); the same seed gives the same counts", body = ProjectionView,
            headers(("ETag" = String, description = "The competition's version, `\"v42\"`"))),
        (status = 400, description = "Seasons or rounds out of bounds, or a format without projections", body = ErrorBody),
        (status = 404, description = "No such competition", body = ErrorBody),
        (status = 422, description = "The rules cannot play the competition out (not created, no running season)", body = ErrorBody),
        (status = 500, description = "The database failed", body = ErrorBody),
    )
)]
pub async fn projection(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<ProjectionQuery>,
) -> Result<Versioned<ProjectionView>, ApiError> {
    check_seasons(&state, q.seasons)?;
    let v = projection_of(&state, &id, q.into()).await?;
    Ok(Versioned(v.version, (*v).clone()))
}

/// Refuse more simulated seasons than the server allows one request.
pub(crate) fn check_seasons(state: &AppState, seasons: Option<u32>) -> Result<(), ApiError> {
    let max = state.config.max_seasons;
    match seasons {
        Some(n) if n > max => Err(ApiError::bad_request(format!(
            "this server simulates at most {max} seasons per request, not {n} (the CLI's `arbiter project` has no such limit below 100000)"
        ))
        .with_field("seasons")),
        _ => Ok(()),
    }
}

/// Hypothetical results, by the competition's format (nothing is stored).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WhatIfRequest {
    /// Key → value, by the competition's format:
    /// a TWS ladder, game label → winner (the winner's name, `ussr`, `us`
    /// or `tie`): `{"G49": "ussr", "G52": "Bianca Costa"}`;
    /// an XMadn league, `A-B` → `PAWNS@TIME` (each player's counted pawns
    /// in the key's order and the game's time): `{"Ames-Baker": "4-2@20:10"}`,
    /// or a game's label for that exact game: `{"G5": "4-2@20:10"}`;
    /// a Sunjang league, `BLACK-WHITE` → `black`, `white`, `jigo`,
    /// `black-forfeits`, `white-forfeits` or `both-forfeit`:
    /// `{"Kim-Lee": "black"}`. Or a list of `KEY=VALUE` texts, as the CLI's
    /// `--result` takes them, where a key may repeat (two players who meet
    /// twice): `["Ames-Baker=4-2@20:10", "Ames-Baker=1-3@25:00"]`.
    pub results: WhatIfResults,
}

/// The hypothetical results: a map, or a list of `KEY=VALUE` texts.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum WhatIfResults {
    /// Key → value.
    Map(BTreeMap<String, String>),
    /// `KEY=VALUE` texts, in the order to record them.
    List(Vec<String>),
}

impl WhatIfResults {
    fn pairs(self) -> Result<Vec<(String, String)>, ApiError> {
        match self {
            WhatIfResults::Map(m) => Ok(m.into_iter().collect()),
            WhatIfResults::List(l) => l
                .into_iter()
                .map(|r| {
                    r.split_once('=')
                        .map(|(k, v)| (k.to_string(), v.to_string()))
                        .ok_or_else(|| {
                            ApiError::bad_request(format!("results: {r:?} is not KEY=VALUE"))
                                .with_field("results")
                        })
                })
                .collect(),
        }
    }
}

#[utoipa::path(
    post,
    path = "/api/competitions/{id}/what-if",
    tag = "competitions",
    params(("id" = String, Path, description = "The competition's id (a TWS ladder, an XMadn league or a Sunjang league)")),
    request_body = WhatIfRequest,
    responses(
        (status = 200, description = "Computed on a copy, nothing stored. One of: a TWS ladder after its running round closes with these results (`close`, `ladder`); an XMadn league's table with its cascade explanations after them (`format`: `xmadn-league`, `league`); a Sunjang league's running season after them and, when every group game has a result, the next season's plan after its close (`format`: `sunjang-league`, `season`, `next_season` or `no_plan`)", body = AnyWhatIfView,
            headers(("ETag" = String, description = "The version the copy was taken at, `\"v42\"`"))),
        (status = 400, description = "An unknown game, player or result, no running round or season, or a format without what-if (XMadn Challengers)", body = ErrorBody),
        (status = 404, description = "No such competition", body = ErrorBody),
        (status = 422, description = "The rules refuse a result or the close (e.g. games past their deadline left without a result)", body = ErrorBody),
        (status = 500, description = "The database failed", body = ErrorBody),
    )
)]
pub async fn what_if(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    // The API's JSON extractor: a malformed body is a 400 naming `body`, an
    // oversized one 413.
    crate::api::write::ApiJson(request): crate::api::write::ApiJson<WhatIfRequest>,
) -> Result<Versioned<AnyWhatIfView>, ApiError> {
    let results = request.results.pairs()?;
    // A result the competition cannot take (no such game or player) is a
    // mistake in `results`.
    let v = state
        .service
        .what_if_any(&id, &results, state.now())
        .await
        .map_err(|e| {
            let e = ApiError::from(e);
            if e.status == axum::http::StatusCode::BAD_REQUEST && e.detail.field.is_none() {
                e.with_field("results")
            } else {
                e
            }
        })?;
    Ok(Versioned(v.version(), v))
}

#[cfg(test)]
mod kept_tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    #[test]
    fn kept_views_are_found_by_key_and_the_oldest_half_goes_when_full() {
        let kept: Kept<u32> = Kept::default();
        for i in 0..KEPT as u32 {
            kept.put(format!("k{i}"), Arc::new(i));
        }
        assert_eq!(kept.get("k0").as_deref(), Some(&0));
        kept.put("new".into(), Arc::new(99));
        assert!(kept.get("k0").is_none(), "the oldest half went");
        assert!(kept.get(&format!("k{}", KEPT / 2 - 1)).is_none());
        assert_eq!(
            kept.get(&format!("k{}", KEPT / 2)).as_deref(),
            Some(&(KEPT as u32 / 2))
        );
        assert_eq!(kept.get("new").as_deref(), Some(&99));
        assert!(kept.get("missing").is_none());
    }
}
