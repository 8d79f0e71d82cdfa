//! Ratings (ARB-R46) and Monte-Carlo projections (ARB-R48) of a
//! competition, read side. A projection runs on a blocking thread and is
//! kept per competition version and request ([`ProjectionCache`]): a view
//! has no clock, so the same request at the same version has the same
//! answer.

use std::ops::ControlFlow;

use chrono::DurationRound;
use std::sync::{Arc, Mutex};

use arbiter_service::insight::{
    AreaReportView, DEFAULT_SEASONS, ProjectionRequest, ProjectionView, RatingScope, RatingSystem,
    RatingsView,
};
use arbiter_service::what_if::AnyWhatIfView;
use std::collections::BTreeMap;

use axum::extract::State;
use serde::Deserialize;
use utoipa::ToSchema;

use super::{ApiPath, ApiQuery, Versioned};
use crate::auth::Caller;
use crate::error::{ApiError, ErrorBody};
use crate::{AppState, heavy};

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

/// Run (or find) the projection of competition `id` for `caller`, through
/// the heavy-work limiter ([`crate::heavy`]): kept per competition version
/// and request, and stopped if the caller goes away (issue 14, item 3).
/// `request` has been checked against the caller's caps.
pub async fn projection_of(
    state: &AppState,
    caller: &Caller,
    id: &str,
    request: ProjectionRequest,
) -> Result<Arc<ProjectionView>, ApiError> {
    let loaded = state.service.projection_input(id).await?;
    let key = format!(
        "{id}\0{}\0{:?}\0{:?}\0{:?}\0{:?}",
        loaded.version, request.seasons, request.seed, request.rounds, request.system
    );
    if let Some(v) = state.projections.get(&key) {
        return Ok(v);
    }
    let view = state
        .heavy
        .run(caller.address, move |token| {
            loaded.project_until(&request, &mut |_, _| {
                if token.is_cancelled() {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })
        })
        .await??;
    let view = Arc::new(view);
    state.projections.put(key, view.clone());
    Ok(view)
}

/// The longest seed text a projection takes (it is hashed; a longer one
/// would only cost memory and hashing).
pub const MAX_SEED: usize = 256;

/// A projection request with the caller's defaults, checked against his
/// caps ([`crate::heavy::HeavyLimits::caps`]): 400 naming the field and its
/// limit above them (issue 14, item 3). `default_seasons` applies when the
/// request names none, lowered to the cap.
pub fn checked_request(
    state: &AppState,
    caller: &Caller,
    mut request: ProjectionRequest,
    default_seasons: u32,
) -> Result<ProjectionRequest, ApiError> {
    let caps = state.config.heavy.caps(caller);
    let anonymous = caller.account.is_none();
    let seasons = request
        .seasons
        .unwrap_or_else(|| default_seasons.min(caps.seasons));
    if seasons == 0 {
        return Err(ApiError::bad_request(format!(
            "seasons must be from 1 to {}, not 0",
            caps.seasons
        ))
        .with_field("seasons"));
    }
    heavy::check_cap("seasons", seasons, caps.seasons, anonymous)?;
    let rounds = request
        .rounds
        .unwrap_or(arbiter_service::insight::DEFAULT_ROUNDS);
    heavy::check_cap("rounds", rounds, caps.rounds, anonymous)?;
    if let Some(seed) = &request.seed
        && seed.len() > MAX_SEED
    {
        return Err(ApiError::bad_request(format!(
            "seed must be at most {MAX_SEED} bytes, not {}",
            seed.len()
        ))
        .with_field("seed"));
    }
    request.seasons = Some(seasons);
    request.rounds = Some(rounds);
    Ok(request)
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
    /// Simulated seasons, 1 to the caller's cap (by default 2000 without an
    /// account, 20000 logged in); default 10000, or the cap if lower.
    pub seasons: Option<u32>,
    /// The seed: 64 hexadecimal digits, or any text (its SHA-256). Default:
    /// derived from the competition's id and version.
    pub seed: Option<String>,
    /// A ladder's rounds after the running one (default 1; at most 3
    /// without an account, 20 logged in, by default).
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
        ("seasons" = Option<u32>, Query, description = "Simulated seasons, 1 to the caller's cap (by default 2000 without an account, 20000 logged in); default 10000, or the cap if lower"),
        ("seed" = Option<String>, Query, description = "64 hexadecimal digits, or any text of at most 256 bytes (its SHA-256); default: derived from the competition's id and version"),
        ("rounds" = Option<u32>, Query, description = "A ladder's rounds after the running one (default 1; at most 3 without an account, 20 logged in, by default)"),
        ("system" = Option<RatingSystem>, Query, description = "A ladder's rating system for the odds (default `area`)"),
    ),
    responses(
        (status = 200, description = "Each player's outcomes counted over the simulated seasons (ARB-R48); the same seed gives the same counts", body = ProjectionView,
            headers(("ETag" = String, description = "The competition's version, `\"v42\"`"))),
        (status = 400, description = "Seasons, rounds or seed out of bounds (`field` names it, the message its limit), or a format without projections", body = ErrorBody),
        (status = 404, description = "No such competition", body = ErrorBody),
        (status = 422, description = "The rules cannot play the competition out (not created, no running season)", body = ErrorBody),
        (status = 429, description = "The server is busy with other heavy reads, or this address asked for too many; `Retry-After` says when to try again", body = ErrorBody),
        (status = 500, description = "The database failed", body = ErrorBody),
    )
)]
pub async fn projection(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<ProjectionQuery>,
) -> Result<Versioned<ProjectionView>, ApiError> {
    let request = checked_request(&state, &caller, q.into(), DEFAULT_SEASONS)?;
    let v = projection_of(&state, &caller, &id, request).await?;
    Ok(Versioned(v.version, (*v).clone()))
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
    /// `{"Kim-Lee": "black"}`; a round-robin league, a game's number or
    /// `HOME-AWAY` → the score in the order of the names (`2-1`, `1-0`,
    /// `½-½`, `+:-`): `{"G5": "2-4", "Spain-Germany": "1-1"}`, a game
    /// already played imagined with another result. Or a list of `KEY=VALUE` texts, as the CLI's
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
        (status = 200, description = "Computed on a copy, nothing stored. One of: a TWS ladder after its running round closes with these results (`close`, `ladder`), or, with games of the round still undecided, each player's best and worst rung at the close over every outcome of them (`possible`); an XMadn league's table with its cascade explanations after them (`format`: `xmadn-league`, `league`); a Sunjang league's running season after them and, when every group game has a result, the next season's plan after its close (`format`: `sunjang-league`, `season`, `next_season` or `no_plan`); a round-robin league's table with each place explained after them (`format`: `round-robin`, `league`)", body = AnyWhatIfView,
            headers(("ETag" = String, description = "The version the copy was taken at, `\"v42\"`"))),
        (status = 400, description = "An unknown game, player or result, no running round or season, or a format without what-if (XMadn Challengers)", body = ErrorBody),
        (status = 404, description = "No such competition", body = ErrorBody),
        (status = 422, description = "The rules refuse a result or the close (e.g. games past their deadline left without a result)", body = ErrorBody),
        (status = 429, description = "The server is busy with other heavy reads, or this address asked for too many; `Retry-After` says when to try again", body = ErrorBody),
        (status = 500, description = "The database failed", body = ErrorBody),
    )
)]
pub async fn what_if(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<String>,
    // The API's JSON extractor: a malformed body is a 400 naming `body`, an
    // oversized one 413.
    crate::api::write::ApiJson(request): crate::api::write::ApiJson<WhatIfRequest>,
) -> Result<Versioned<AnyWhatIfView>, ApiError> {
    let results = request.results.pairs()?;
    // A result the competition cannot take (no such game or player) is a
    // mistake in `results`.
    let v = what_if_of(&state, &caller, &id, results, state.now())
        .await
        .map_err(|e| {
            if e.status == axum::http::StatusCode::BAD_REQUEST && e.detail.field.is_none() {
                e.with_field("results")
            } else {
                e
            }
        })?;
    Ok(Versioned(v.version(), (*v).clone()))
}

/// Hypothetical results one what-if may hold at most (a running round, a
/// league's schedule or a season's groups have fewer games).
pub const MAX_WHAT_IF_RESULTS: usize = 2_000;
/// The longest key or value of a hypothetical result.
pub const MAX_WHAT_IF_TEXT: usize = 200;

/// Run (or find) the what-if of competition `id` with `results` at `at`
/// for `caller`, through the heavy-work limiter ([`crate::heavy`], issue
/// 14, item 3). Kept per competition version, results and minute: the
/// preview is computed at the start of the minute of `at`, since deadlines
/// make the time one of its parameters.
pub async fn what_if_of(
    state: &AppState,
    caller: &Caller,
    id: &str,
    results: Vec<(String, String)>,
    at: arbiter_engine::model::Time,
) -> Result<Arc<AnyWhatIfView>, ApiError> {
    if results.len() > MAX_WHAT_IF_RESULTS {
        return Err(ApiError::bad_request(format!(
            "results: at most {MAX_WHAT_IF_RESULTS} hypothetical results, not {}",
            results.len()
        ))
        .with_field("results"));
    }
    if let Some((k, v)) = results
        .iter()
        .find(|(k, v)| k.len() > MAX_WHAT_IF_TEXT || v.len() > MAX_WHAT_IF_TEXT)
    {
        let long = if k.len() > MAX_WHAT_IF_TEXT { k } else { v };
        return Err(ApiError::bad_request(format!(
            "results: a key or value is at most {MAX_WHAT_IF_TEXT} bytes, not {}",
            long.len()
        ))
        .with_field("results"));
    }
    let at = at
        .duration_trunc(chrono::TimeDelta::minutes(1))
        .unwrap_or(at);
    let input = state.service.what_if_input(id).await?;
    let key = format!("{id}\0{}\0{}\0{results:?}", input.version, at.timestamp());
    if let Some(v) = state.what_ifs.get(&key) {
        return Ok(v);
    }
    let view = state
        .heavy
        .run(caller.address, move |_| input.run(&results, at))
        .await??;
    let view = Arc::new(view);
    state.what_ifs.put(key, view.clone());
    Ok(view)
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
