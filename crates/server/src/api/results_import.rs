//! `POST /api/competitions/{id}/results/import` (issue 18 §2): a CSV file
//! of results, every format, as `arbiter results import` takes it
//! (`arbiter_service::csv::parse_results`): each row decided by the rules
//! in order on a copy, all stored in one append, or, with
//! `?dry_run=true`, nothing; the first refusal names the line and column.
//! For the owner and the moderators of the competition who do not play in
//! it (a file may hold any game, and nobody moderates his own, ARB-R45).

use arbiter_engine::model::Linked;
use arbiter_service::csv::ImportedResults;
use axum::extract::State;
use axum::http::HeaderMap;
use serde::Deserialize;

use super::write::{idempotency_key, if_match, need_version};
use super::{ApiPath, ApiQuery, Versioned};
use crate::AppState;
use crate::auth::Caller;
use crate::error::{ApiError, ErrorBody};

/// The query of an import.
#[derive(Debug, Deserialize)]
pub struct ImportQuery {
    /// `true`: say what would be recorded and store nothing.
    #[serde(default)]
    pub dry_run: bool,
}

/// Whether `caller` may import results into `competition`: its owner and
/// its moderators, who record results.
pub(crate) async fn may_import(
    state: &AppState,
    caller: &Caller,
    competition: &str,
) -> Result<(), ApiError> {
    caller.account()?;
    if arbiter_service::check_competition_id(competition).is_err() {
        return Err(ApiError::not_found(format!(
            "there is no competition {competition:?}"
        )));
    }
    let format = state.service.format_of(competition).await?;
    let account = caller.account()?;
    if !caller.roles(state, competition).await?.moderates() {
        return Err(ApiError::forbidden(format!(
            "only the owner and the moderators of {competition} import its results"
        )));
    }
    // A file may hold any game, and nobody moderates his own (ARB-R45): a
    // moderator who plays here (his account linked to a player, or a
    // player of his name, ARB-R2) leaves the import to another.
    let plays = arbiter_service::with_format!(format, |F| {
        state
            .service
            .read_as::<F, _>(competition, |c, _| {
                c.account_player(&account.username).is_some()
                    || c.player_named(&account.display_name).is_some()
            })
            .await?
    });
    if plays {
        return Err(ApiError::forbidden(format!(
            "{} plays in {competition}: a results file may hold his own games, and nobody moderates his own game (ARB-R45); another moderator imports it",
            account.username
        )));
    }
    Ok(())
}

/// A results file to import, and how.
pub(crate) struct ImportRequest<'a> {
    /// What errors call the file ("the request body").
    pub file: &'a str,
    pub csv: &'a [u8],
    pub dry_run: bool,
    /// The version the import expects (required unless a dry run).
    pub expected: Option<u64>,
    pub key: Option<String>,
}

/// Import a file into `competition` for `caller` (the API's and the desk's
/// one path).
pub(crate) async fn import(
    state: &AppState,
    caller: &Caller,
    competition: &str,
    request: ImportRequest<'_>,
) -> Result<ImportedResults, ApiError> {
    may_import(state, caller, competition).await?;
    need_version(request.expected, request.dry_run)?;
    let ctx = crate::actions::common::context(
        caller.account()?,
        state.now(),
        request.key,
        request.expected,
    );
    let done = state
        .service
        .import_results_csv(
            competition,
            request.file,
            request.csv,
            request.dry_run,
            &ctx,
        )
        .await
        .map_err(|e| ApiError::from(e).with_field("body"))?;
    Ok(done)
}

#[utoipa::path(
    post,
    path = "/api/competitions/{id}/results/import",
    tag = "competitions",
    params(
        ("id" = String, Path, description = "The competition (any format)"),
        ("dry_run" = Option<bool>, Query, description = "`true`: say what would be recorded and store nothing"),
        ("If-Match" = Option<String>, Header, description = "The version the import expects (the ETag, `\"v42\"`); required except for a dry run"),
        ("Idempotency-Key" = Option<String>, Header, description = "Names the request: a retry answers the first outcome and stores nothing"),
        ("X-CSRF-Token" = Option<String>, Header, description = "The session's CSRF token, with a session cookie"),
    ),
    request_body(
        content = String,
        content_type = "text/csv",
        description = "UTF-8 CSV, at most the server's body limit (1 MiB by default). The header names the columns in any order: the game (`game`: its id, or its two players as `A-B`; or `home` and `away`, `black` and `white`, `player_a` and `player_b`), the result (`result` or `score`, as what-if reads it), `at`, and the format's own (a ladder's `by`, `vp`, `turn`, `note`; a round robin's `minutes`)"
    ),
    responses(
        (status = 200, description = "Recorded (or, dry run, what would be): each row in words with its line; `ETag` is the competition's version after it", body = ImportedResults),
        (status = 400, description = "A row the rules or the file's shape refuse: the message names the file's line and column, and nothing was stored", body = ErrorBody),
        (status = 401, description = "Not logged in", body = ErrorBody),
        (status = 403, description = "Not the competition's owner or a moderator, or the CSRF token is wrong", body = ErrorBody),
        (status = 404, description = "No such competition", body = ErrorBody),
        (status = 409, description = "The competition is not at the expected version", body = ErrorBody),
        (status = 413, description = "Larger than the server's body limit", body = ErrorBody),
        (status = 428, description = "If-Match is missing (not a dry run)", body = ErrorBody),
    )
)]
pub async fn import_results(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<String>,
    ApiQuery(query): ApiQuery<ImportQuery>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Versioned<ImportedResults>, ApiError> {
    caller.account()?;
    caller.check_csrf(
        headers
            .get(crate::auth::CSRF_HEADER)
            .and_then(|v| v.to_str().ok()),
    )?;
    let expected = if_match(&headers)?;
    let key = idempotency_key(&headers)?;
    let done = import(
        &state,
        &caller,
        &id,
        ImportRequest {
            file: "the request body",
            csv: &body,
            dry_run: query.dry_run,
            expected,
            key,
        },
    )
    .await?;
    let version = if done.last > 0 {
        done.last
    } else {
        state.service.summary(&id).await?.version
    };
    Ok(Versioned(version, done))
}
