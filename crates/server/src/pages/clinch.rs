//! "What is still possible" (ARB-R47): for a competition whose format
//! offers it (an XMadn league, each group with games left of a Sunjang
//! league's running season, a round-robin league), every player
//! against every zone (title or group win, playoff places, promotion,
//! demotion, final round), each verdict explained one click away with its
//! ruling and the zone's clause.

use arbiter_service::clinch::ClinchView;
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::response::Response;
use serde::Deserialize;

use super::{Chrome, PageError, not_found_page, render};
use crate::AppState;
use crate::auth::Caller;

#[derive(Debug, Deserialize)]
pub(super) struct ClinchQuery {
    group: Option<String>,
}

#[derive(Debug, Template)]
#[template(path = "clinch.html")]
struct ClinchPage {
    chrome: Chrome,
    name: String,
    v: ClinchView,
    /// Every player's page.
    links: super::players::PlayerLinks,
}

/// `GET /c/{id}/clinch[?group=B2]`: what is still possible.
pub(super) async fn page(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Query(q): Query<ClinchQuery>,
) -> Result<Response, PageError> {
    let kind = crate::pages::kind_of(&state, &id).await?;
    if !kind.offers().clinch {
        return Err(not_found_page());
    }
    let group = q.group.filter(|g| !g.trim().is_empty());
    let name = state.service.summary(&id).await?.name;
    let links = super::players::PlayerLinks::of(&state, &id, kind).await?;
    let v = crate::api::clinch::clinch_of(&state, &caller, &id, group)
        .await
        .map_err(PageError::from_heavy)?;
    render(&ClinchPage {
        chrome: Chrome::competition(
            format!("What is still possible in {name}"),
            &id,
            &name,
            kind,
            &format!("/c/{id}/clinch"),
        ),
        name,
        v: (*v).clone(),
        links,
    })
}
