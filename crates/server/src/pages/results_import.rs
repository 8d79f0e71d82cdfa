//! `GET /c/{id}/results-import` and `POST /c/{id}/results-import` (issue 18
//! §2): the desk's import of a results file, for the owner and the
//! moderators. The moderator pastes the spreadsheet (CSV, as `arbiter
//! results import` takes it), previews what would be recorded, then
//! imports it, all or nothing; a refusal is shown on the same page with
//! the text kept, naming the line and column. The form carries the
//! session's CSRF token and the version it was shown at, so that an import
//! on a stale page is refused.

use arbiter_service::csv::ImportedResults;
use askama::Template;
use axum::Form;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::forms::{for_moderators, problem, to_login, urlencode};
use super::{Chrome, render};
use crate::AppState;
use crate::api::results_import::{ImportRequest, import, may_import};
use crate::auth::Caller;
use crate::error::ApiError;

#[derive(Debug, Template)]
#[template(path = "results_import.html")]
struct ImportPage {
    chrome: Chrome,
    id: String,
    name: String,
    csrf: String,
    version: u64,
    /// The text in the box (kept after a preview or a refusal).
    csv: String,
    /// What the last form did: a preview or an import.
    done: Option<ImportedResults>,
    /// Why the last form was refused.
    problem: Option<String>,
    /// The format's own columns, for the help text.
    columns: String,
}

#[derive(Debug, Deserialize)]
pub(crate) struct ImportForm {
    #[serde(default)]
    csv: String,
    /// `preview` or `import`.
    #[serde(default)]
    action: String,
    version: Option<u64>,
    #[serde(rename = "_csrf")]
    csrf: Option<String>,
}

async fn page_with(
    state: &AppState,
    caller: &Caller,
    id: &str,
    csv: String,
    done: Option<ImportedResults>,
    problem: Option<String>,
) -> Result<ImportPage, ApiError> {
    may_import(state, caller, id).await?;
    let summary = state.service.summary(id).await?;
    let columns = arbiter_service::with_format!(summary.format, |F| F::RESULT_COLUMNS.join(", "));
    Ok(ImportPage {
        chrome: Chrome::new(format!("Import results into {}", summary.name)),
        id: id.to_string(),
        name: summary.name,
        csrf: caller.csrf_token().unwrap_or_default().to_string(),
        version: summary.version,
        csv,
        done,
        problem,
        columns,
    })
}

/// `GET /c/{id}/results-import`.
pub(crate) async fn page(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Response {
    // The page begins with the check (`may_import`).
    let here = format!("/c/{}/results-import", urlencode(&id));
    match for_moderators(
        &caller,
        &here,
        page_with(&state, &caller, &id, String::new(), None, None),
    )
    .await
    {
        Ok(p) => render(&p).into_response(),
        Err(refused) => refused,
    }
}

/// `POST /c/{id}/results-import`: preview or import the pasted file.
pub(crate) async fn act(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Form(form): Form<ImportForm>,
) -> Response {
    let here = format!("/c/{}/results-import", urlencode(&id));
    if caller.account.is_none() {
        return to_login(&here);
    }
    if let Err(e) = caller.check_csrf(form.csrf.as_deref()) {
        return problem(e, &here);
    }
    let dry_run = match form.action.as_str() {
        "preview" => true,
        "import" => false,
        other => {
            let e = ApiError::bad_request(format!(
                "action: {:?} is neither preview nor import",
                other.chars().take(40).collect::<String>()
            ))
            .with_field("action");
            return problem(e, &here);
        }
    };
    let outcome = import(
        &state,
        &caller,
        &id,
        ImportRequest {
            file: "the pasted file",
            csv: form.csv.as_bytes(),
            dry_run,
            expected: if dry_run { None } else { form.version },
            key: None,
        },
    )
    .await;
    let (status, page) = match outcome {
        Ok(done) => (
            StatusCode::OK,
            page_with(&state, &caller, &id, form.csv, Some(done), None).await,
        ),
        Err(e) if e.status == StatusCode::FORBIDDEN || e.status == StatusCode::NOT_FOUND => {
            return problem(e, "/");
        }
        Err(e) => {
            let message = match e.status {
                StatusCode::CONFLICT => format!(
                    "{} Preview it again and import what the competition holds now.",
                    e.detail.message
                ),
                _ => e.detail.message.clone(),
            };
            (
                e.status,
                page_with(&state, &caller, &id, form.csv, None, Some(message)).await,
            )
        }
    };
    match page {
        Ok(p) => match render(&p) {
            Ok(r) => (status, r).into_response(),
            Err(e) => e.into_response(),
        },
        Err(e) => problem(e, "/"),
    }
}
