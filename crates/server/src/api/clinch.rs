//! What is still possible (ARB-R47): clinch and elimination of an XMadn
//! league or of each group with games left of a Sunjang league's running
//! season. The analysis runs on a blocking thread (a Sunjang group's
//! search may take a second).

use std::sync::Arc;

use arbiter_service::clinch::ClinchView;
use axum::extract::State;
use serde::Deserialize;

use super::{ApiPath, ApiQuery, Versioned};
use crate::AppState;
use crate::auth::Caller;
use crate::error::{ApiError, ErrorBody};

/// Analyse competition `id` (every table with games left, or one Sunjang
/// group) on a blocking thread through the heavy-work limiter
/// ([`crate::heavy`], issue 14, item 3), or find the analysis already made
/// at its version. (A search has its own budget, so it ends on its own; it
/// is not stopped when the caller goes away.)
pub async fn clinch_of(
    state: &AppState,
    caller: &Caller,
    id: &str,
    group: Option<String>,
) -> Result<Arc<ClinchView>, ApiError> {
    if let Some(g) = &group
        && g.len() > MAX_GROUP
    {
        return Err(ApiError::bad_request(format!(
            "group must be at most {MAX_GROUP} bytes (a group's label, such as B2), not {}",
            g.len()
        ))
        .with_field("group"));
    }
    let input = state.service.clinch_input(id).await?;
    let key = format!("{id}\0{}\0{group:?}", input.version);
    if let Some(v) = state.clinches.get(&key) {
        return Ok(v);
    }
    let view = state
        .heavy
        .run(caller.address, move |_| input.analyse(group.as_deref()))
        .await??;
    let view = Arc::new(view);
    state.clinches.put(key, view.clone());
    Ok(view)
}

/// The longest group label a request may name.
const MAX_GROUP: usize = 16;

#[derive(Debug, Deserialize)]
pub struct ClinchQuery {
    /// A Sunjang group ("B2"); default: every group with games left.
    pub group: Option<String>,
}

#[utoipa::path(
    get,
    path = "/api/competitions/{id}/clinch",
    tag = "competitions",
    params(
        ("id" = String, Path, description = "The competition's id (an XMadn league or a Sunjang league)"),
        ("group" = Option<String>, Query, description = "A Sunjang group (`B2`); default: every group of the running season with games left"),
    ),
    responses(
        (status = 200, description = "For each player and zone: clinched, clinched unless the die, eliminated (likewise), open or undetermined, with the reason (ARB-R47)", body = ClinchView,
            headers(("ETag" = String, description = "The competition's version, `\"v42\"`"))),
        (status = 400, description = "No such group, or a format without a table to judge (a TWS ladder, XMadn Challengers)", body = ErrorBody),
        (status = 404, description = "No such competition", body = ErrorBody),
        (status = 429, description = "The server is busy with other heavy reads, or this address asked for too many; `Retry-After` says when to try again", body = ErrorBody),
        (status = 500, description = "The database failed", body = ErrorBody),
    )
)]
pub async fn clinch(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<ClinchQuery>,
) -> Result<Versioned<ClinchView>, ApiError> {
    let v = clinch_of(&state, &caller, &id, q.group).await?;
    Ok(Versioned(v.version, (*v).clone()))
}
