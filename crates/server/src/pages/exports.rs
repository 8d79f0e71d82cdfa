//! A competition's exports, as the CLI makes them (issue 17 §2: "every desk
//! has the forum exports and CSV downloads the CLI has"), public as its
//! pages are and linked from its desk and its page:
//!
//! - `GET /c/{id}/standings.csv` and `GET /c/{id}/results.csv`: `arbiter
//!   standings|results --csv`, cells safe from formula injection
//!   (`arbiter_service::csv`);
//! - `GET /c/{id}/forum.txt?markup=bbcode|markdown`: the forum post of the
//!   competition as it stands (`Format::forum_post`: a ladder's last round
//!   announced, an XMadn league's table, a Sunjang season, a round robin's
//!   table).
//!
//! Each answer carries the competition's version as its `ETag`.

use arbiter_service::csv::Export;
use arbiter_service::forum::Markup;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use crate::AppState;
use crate::api::etag;
use crate::error::ApiError;

#[derive(Debug, Deserialize)]
pub(crate) struct ForumQuery {
    markup: Option<String>,
}

fn competition_id(id: &str) -> Result<(), ApiError> {
    arbiter_service::check_competition_id(id)
        .map_err(|_| ApiError::not_found(format!("there is no competition {id:?}")))
}

/// A text answer with its type, version and (for a download) file name.
fn text(content_type: &'static str, version: u64, file: Option<String>, body: String) -> Response {
    let mut response = ([(header::CONTENT_TYPE, content_type)], body).into_response();
    let headers = response.headers_mut();
    if let Ok(tag) = HeaderValue::from_str(&etag(version)) {
        headers.insert(header::ETAG, tag);
    }
    if let Some(name) = file
        && let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{name}\""))
    {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    response
}

async fn table(state: &AppState, id: &str, what: Export, name: &str) -> Result<Response, ApiError> {
    competition_id(id)?;
    let table = state.service.export_table(id, what, state.now()).await?;
    let version = state.service.summary(id).await?.version;
    let csv = table.to_csv()?;
    // A competition id is [a-z0-9-] (check_competition_id): safe in a
    // header's quoted file name.
    Ok(text(
        "text/csv; charset=utf-8",
        version,
        Some(format!("{id}-{name}.csv")),
        csv,
    ))
}

/// `GET /c/{id}/standings.csv`.
pub(crate) async fn standings(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    table(&state, &id, Export::Standings, "standings").await
}

/// `GET /c/{id}/results.csv`.
pub(crate) async fn results(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    table(&state, &id, Export::Results, "results").await
}

/// `GET /c/{id}/forum.txt?markup=bbcode|markdown` (BBCode by default).
pub(crate) async fn forum(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<ForumQuery>,
) -> Result<Response, ApiError> {
    competition_id(&id)?;
    let markup = match query.markup.as_deref() {
        None | Some("") => Markup::BbCode,
        Some(m) => Markup::parse(m).ok_or_else(|| {
            ApiError::bad_request(format!(
                "markup: {:?} is neither bbcode nor markdown",
                m.chars().take(40).collect::<String>()
            ))
            .with_field("markup")
        })?,
    };
    let (version, post) = state.service.forum_post(&id, markup, state.now()).await?;
    let post = post.ok_or_else(|| {
        ApiError::not_found(format!(
            "{id} has nothing to post yet (no round announced or season planned)"
        ))
    })?;
    Ok(text("text/plain; charset=utf-8", version, None, post))
}
