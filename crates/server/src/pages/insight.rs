//! A ladder's or an XMadn league's ratings with each player's history
//! drawn as a line chart (ARB-R46, ARB-R49), and any competition's
//! Monte-Carlo projection (ARB-R48).

use arbiter_service::insight::{
    ProjectionRequest, ProjectionView, RatingScope, RatingSystem, RatingsView,
};
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::svg::{self, Point, Svg};
use super::{Chrome, PageError, not_found_page, render};
use crate::AppState;
use crate::api::insight::checked_request;
use crate::auth::Caller;

#[derive(Debug, Deserialize)]
pub(super) struct RatingsQuery {
    system: Option<String>,
}

/// A player's history chart.
#[derive(Debug)]
struct HistoryChart {
    player: String,
    anchor: String,
    chart: Svg,
}

#[derive(Debug, Template)]
#[template(path = "ratings.html")]
struct RatingsPage {
    chrome: Chrome,
    id: String,
    name: String,
    v: RatingsView,
    systems: Vec<(&'static str, &'static str, bool)>,
    /// Which games are rated, in words, with the ruling.
    rated: &'static str,
    glicko: bool,
    charts: Vec<HistoryChart>,
}

fn shown(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

/// `GET /c/{id}/ratings[?system=area|elo|glicko2]`: the ratings of a
/// competition whose format offers them, described by the format.
pub(super) async fn ratings(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<RatingsQuery>,
) -> Result<Response, PageError> {
    let kind = crate::pages::kind_of(&state, &id).await?;
    if !kind.offers().ratings {
        return Err(not_found_page());
    }
    let (rated, period) = arbiter_service::with_format!(kind, |F| (
        <F as crate::formats::WebFormat>::RATED,
        <F as crate::formats::WebFormat>::PERIOD
    ));
    let system = match q.system.as_deref() {
        None => RatingSystem::Area,
        Some(s) => s.parse().map_err(|_| {
            PageError::NotFound(format!(
                "There is no rating system “{s}”: area, elo or glicko2."
            ))
        })?,
    };
    let name = state.service.summary(&id).await?.name;
    let v = state
        .service
        .ratings(&id, system, RatingScope::Competition)
        .await?;
    let charts = v
        .players
        .iter()
        .filter(|p| !p.history.is_empty())
        .map(|p| {
            let anchor = format!("h{}", p.rank);
            let points: Vec<Point> = p
                .history
                .iter()
                .map(|h| Point {
                    label: h.game.clone().unwrap_or_else(|| format!("R{}", h.period)),
                    y: h.rating.round() as i64,
                    colour: svg::WON,
                    tip: format!(
                        "{} {period} {}: {}",
                        h.game.as_deref().unwrap_or("period"),
                        h.period,
                        shown(h.rating)
                    ),
                })
                .collect();
            let chart = svg::line_chart(
                &anchor,
                &format!("{} rating of {}", v.system_name, p.player),
                &format!(
                    "{}'s {} rating after each of {} rated games; now {}.",
                    p.player,
                    v.system_name,
                    p.games,
                    shown(p.rating)
                ),
                "rating",
                &points,
                false,
            );
            HistoryChart {
                player: p.player.clone(),
                anchor,
                chart,
            }
        })
        .collect();
    let systems = [("area", "AREA"), ("elo", "Elo"), ("glicko2", "Glicko-2")]
        .into_iter()
        .map(|(k, l)| (k, l, k == system.key()))
        .collect();
    render(&RatingsPage {
        chrome: Chrome::competition(
            format!("Ratings of {name}"),
            &id,
            &name,
            kind,
            &format!("/c/{id}/ratings"),
        ),
        rated,
        id,
        name,
        glicko: system == RatingSystem::Glicko2,
        v,
        systems,
        charts,
    })
}

#[derive(Debug, Deserialize)]
pub(super) struct ProjectionQuery {
    seasons: Option<String>,
    seed: Option<String>,
    rounds: Option<String>,
}

/// A table cell: the probability as a percentage.
fn percent(count: u32, seasons: u32) -> String {
    if count == 0 {
        return "–".into();
    }
    let p = f64::from(count) * 100.0 / f64::from(seasons.max(1));
    if p < 0.05 {
        "<0.1%".into()
    } else {
        format!("{p:.1}%")
    }
}

#[derive(Debug, Template)]
#[template(path = "projection.html")]
struct ProjectionPage {
    chrome: Chrome,
    id: String,
    name: String,
    ladder: bool,
    seasons: u32,
    seed: String,
    rounds: u32,
    /// The caller's caps, for the form's bounds.
    caps: crate::heavy::Caps,
    v: Option<ProjectionView>,
    refused: Option<String>,
    /// Every player's page.
    links: crate::pages::players::PlayerLinks,
}

impl ProjectionPage {
    fn cell(&self, count: &u32) -> String {
        percent(*count, self.v.as_ref().map_or(1, |v| v.seasons))
    }
}

/// A number of the form, or `None` when left empty; 400 naming the field
/// when it is not one (issue 14, item 3: the page said 404).
fn number_in(text: Option<&str>, field: &str) -> Result<Option<u32>, String> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(None),
        Some(t) => t
            .parse()
            .map(Some)
            .map_err(|_| format!("Field “{field}”: “{t}” is not a whole number.")),
    }
}

/// `GET /c/{id}/projection[?seasons=&seed=&rounds=]`: each player's
/// chances, played out under the competition's rules. A field out of the
/// caller's caps is answered 400 with the form and the field's limit; a
/// busy server 429 with `Retry-After` (issue 14, item 3).
pub(super) async fn projection(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Query(q): Query<ProjectionQuery>,
) -> Result<Response, PageError> {
    let kind = crate::pages::kind_of(&state, &id).await?;
    if !kind.offers().projection {
        return Err(not_found_page());
    }
    let name = state.service.summary(&id).await?.name;
    let seed = q.seed.clone().filter(|s| !s.trim().is_empty());
    let asked = number_in(q.seasons.as_deref(), "seasons").and_then(|seasons| {
        number_in(q.rounds.as_deref(), "rounds").map(|rounds| (seasons, rounds))
    });
    let mut page = ProjectionPage {
        chrome: Chrome::competition(
            format!("Projection of {name}"),
            &id,
            &name,
            kind,
            &format!("/c/{id}/projection"),
        ),
        id: id.clone(),
        name,
        ladder: arbiter_service::with_format!(kind, |F| {
            <F as crate::formats::WebFormat>::PROJECTS_ROUNDS
        }),
        seasons: state.config.page_seasons,
        seed: seed.clone().unwrap_or_default(),
        rounds: arbiter_service::insight::DEFAULT_ROUNDS,
        caps: state.config.heavy.caps(&caller),
        v: None,
        refused: None,
        links: crate::pages::players::PlayerLinks::of(&state, &id, kind).await?,
    };
    let (seasons, rounds) = match asked {
        Ok(x) => x,
        Err(m) => return page.answer(StatusCode::BAD_REQUEST, m, None),
    };
    let request = ProjectionRequest {
        seasons,
        seed,
        rounds,
        system: None,
    };
    let request = match checked_request(&state, &caller, request, state.config.page_seasons) {
        Ok(r) => r,
        Err(e) => {
            let field = e.detail.field.clone().unwrap_or_default();
            page.seasons = seasons.unwrap_or(page.seasons);
            page.rounds = rounds.unwrap_or(page.rounds);
            let m = format!("Field “{field}”: {}.", e.detail.message);
            return page.answer(StatusCode::BAD_REQUEST, m, None);
        }
    };
    page.seasons = request.seasons.unwrap_or(page.seasons);
    page.rounds = request.rounds.unwrap_or(page.rounds);
    match crate::api::insight::projection_of(&state, &caller, &id, request).await {
        Ok(v) => page.v = Some((*v).clone()),
        Err(e) if e.status == StatusCode::TOO_MANY_REQUESTS => {
            let m = format!("{}.", e.detail.message);
            return page.answer(StatusCode::TOO_MANY_REQUESTS, m, e.retry_after);
        }
        // The rules cannot play it out, or the format has none: the page
        // says why, as before.
        Err(e) if e.status.is_client_error() => page.refused = Some(e.detail.message),
        Err(e) => return Err(PageError::Internal(e.detail.message)),
    }
    render(&page)
}

impl ProjectionPage {
    /// The form again with `problem`, at `status` (and `Retry-After`).
    fn answer(
        mut self,
        status: StatusCode,
        problem: String,
        retry_after: Option<u64>,
    ) -> Result<Response, PageError> {
        self.refused = Some(problem);
        let mut response = (status, render(&self)?).into_response();
        if let Some(seconds) = retry_after {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        Ok(response)
    }
}
