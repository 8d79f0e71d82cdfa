//! Reading competitions of every format: the list, one competition's view,
//! its history, a ladder round, a Sunjang season.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use arbiter_service::format::{CompetitionFormat, CompetitionSummary};
use arbiter_service::{Format, ServiceError};
use arbiter_store::{EventStore, StoredEvent};
use axum::Json;
use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{ApiPath, ApiQuery, Versioned, etag};
use crate::error::{ApiError, ErrorBody};
use crate::{AppState, Svc};

#[utoipa::path(
    get,
    path = "/api/competitions",
    tag = "competitions",
    responses(
        (status = 200, description = "Every competition in the database, by id", body = [CompetitionSummary]),
        (status = 500, description = "The database failed", body = ErrorBody),
    )
)]
pub async fn list(
    State(state): State<AppState>,
) -> Result<Json<Vec<CompetitionSummary>>, ApiError> {
    let svc = &state.service;
    let mut rows = Vec::new();
    for id in svc.competitions().await? {
        rows.push(svc.summary(&id).await?);
    }
    Ok(Json(rows))
}

/// [`CompetitionView`] from the registry ([`arbiter_service::formats!`]):
/// one variant per format, holding its [`crate::formats::WebFormat::ApiView`],
/// and its schema (`{"format": "<id>", "view": <the format's view>}`).
macro_rules! competition_view {
    ({} $($(#[doc = $doc:literal])* $variant:ident => $state:ty,)*) => {
        /// A competition's view, by its format (`format` says which `view`
        /// it is).
        #[derive(Debug, Clone, Serialize)]
        #[serde(tag = "format", content = "view", rename_all = "kebab-case")]
        pub(crate) enum CompetitionView {
            $($(#[doc = $doc])* $variant(crate::formats::ApiViewOf<$state>),)*
        }

        impl utoipa::PartialSchema for CompetitionView {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                let mut one_of = utoipa::openapi::schema::OneOfBuilder::new().description(Some(
                    "A competition's view, by its format (`format` says which `view` it is).",
                ));
                $(one_of = one_of.item(crate::api::tagged_variant::<crate::formats::ApiViewOf<$state>>(
                    <$state as arbiter_service::Format>::ID,
                    concat!($($doc),*).trim(),
                ));)*
                one_of.into()
            }
        }

        impl utoipa::ToSchema for CompetitionView {
            fn schemas(
                schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)>,
            ) {
                $(crate::api::collect_schema::<crate::formats::ApiViewOf<$state>>(schemas);)*
            }
        }
    };
}
arbiter_service::formats!(competition_view! {});

#[utoipa::path(
    get,
    path = "/api/competitions/{id}",
    tag = "competitions",
    params(("id" = String, Path, description = "The competition's id, e.g. `tws-demo`")),
    responses(
        (status = 200, description = "The competition's view by its format", body = CompetitionView,
            headers(("ETag" = String, description = "The competition's version, `\"v42\"`"))),
        (status = 404, description = "No such competition", body = ErrorBody),
        (status = 500, description = "The database failed", body = ErrorBody),
    )
)]
pub async fn show(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> Result<Response, ApiError> {
    let svc = &state.service;
    // The store's version (read without taking the competition's lock):
    // the body serialized at that version, if there is one, is the answer.
    let current = store_version(&state, &id).await?;
    if current > 0
        && let Some(body) = cached_view(&state, &id, current)
    {
        return Ok(view_response(current, body));
    }
    let (version, view) = arbiter_service::with_format!(svc.format_of(&id).await?, |F| {
        svc.read_as::<F, _>(&id, |c, v| {
            (v, <F as crate::formats::WebFormat>::api_view(c, &id, v))
        })
        .await?
    });
    match serde_json::to_vec(&view) {
        Ok(body) => {
            let body = Bytes::from(body);
            keep_view(&state, &id, version, body.clone());
            Ok(view_response(version, body))
        }
        // As `Json` answers a body that cannot be serialized.
        Err(_) => Ok(Versioned(version, view).into_response()),
    }
}

/// The competition whose view a path asks for: `/api/competitions/{id}`
/// (an id is written without escapes, so the path's text is the id).
fn view_path(path: &str) -> Option<&str> {
    let id = path.strip_prefix("/api/competitions/")?;
    arbiter_service::check_competition_id(id)
        .is_ok()
        .then_some(id)
}

/// Whether [`serve_kept`] may answer a request: a GET of a competition's
/// view (the others pass it by, `app`'s `Only`).
pub(crate) fn kept_view_asked(method: &Method, uri: &Uri, _: &HeaderMap) -> bool {
    *method == Method::GET && view_path(uri.path()).is_some()
}

/// Middleware in front of the router: a competition's view kept at the
/// store's version is answered as [`show`] answers it, without routing to
/// the handler; anything else (no view kept yet, a newer version, a
/// failing store) goes to [`show`].
pub(crate) async fn serve_kept(
    State(state): State<Arc<AppState>>,
    request: Request,
    next: Next,
) -> Response {
    let kept = match (request.method(), view_path(request.uri().path())) {
        (&Method::GET, Some(id)) => {
            // Only a competition with a view kept: the others' requests go
            // to the handler, which asks the version once.
            let gate = views_cache(&state)
                .get(id)
                .filter(|k| k.version > 0)
                .map(|k| Arc::clone(&k.gate));
            match gate {
                Some(gate) => match through_gate(&state, id, &gate).await {
                    Ok(current) if current > 0 => {
                        cached_view(&state, id, current).map(|body| (current, body))
                    }
                    _ => None,
                },
                None => None,
            }
        }
        _ => None,
    };
    match kept {
        Some((version, body)) => view_response(version, body),
        None => next.run(request).await,
    }
}

/// The serialized views of competitions, per service and competition, each
/// at the version it was built at. A competition's view is a function of
/// its events alone (no clock), and events are only ever appended, so a
/// body is valid as long as the store's version is the one it was built
/// at; a request answered from here costs one version query (shared with
/// the requests waiting meanwhile, see [`Gate`]) instead of the format
/// query, the version query under the competition's lock, the view and its
/// serialization. Such a request is answered in front of the router
/// ([`serve_kept`]); the version is asked of the store every time, since
/// another process may append.
/// Compression (by `Accept-Encoding`) is the compression layer's, as for
/// every response.
///
/// One per server ([`crate::AppState::views`]), by competition.
#[derive(Default)]
pub struct ViewCache(Mutex<HashMap<String, Kept>>);

impl std::fmt::Debug for ViewCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ViewCache")
    }
}

/// A competition's serialized view, and how its requests ask the version.
struct Kept {
    version: u64,
    body: Bytes,
    gate: Arc<Gate>,
}

/// The version queries of a kept competition's requests, one at a time: a
/// request takes the answer of a query that began after it arrived (it
/// waited for the lock meanwhile), else asks itself. Concurrent requests
/// then share one query to SQLite (a round trip to sqlx's worker thread)
/// instead of one each, and none is answered with a version read before it
/// arrived. (The SQLite store reads the version on the calling thread and
/// answers at once, so its requests rarely wait here; a PostgreSQL query is
/// a network round trip, which the gate shares.)
#[derive(Default)]
struct Gate {
    /// How many queries began.
    started: AtomicU64,
    /// The number of the last query answered, and its version.
    last: tokio::sync::Mutex<(u64, u64)>,
}

/// The store's version of `id`, through its gate when it has one.
async fn store_version(state: &AppState, id: &str) -> Result<u64, ApiError> {
    let gate = views_cache(state).get(id).map(|k| Arc::clone(&k.gate));
    match gate {
        Some(gate) => through_gate(state, id, &gate).await,
        None => Ok(state
            .service
            .store()
            .version(id)
            .await
            .map_err(ServiceError::from)?),
    }
}

/// The store's version of `id`, asked through its gate.
async fn through_gate(state: &AppState, id: &str, gate: &Gate) -> Result<u64, ApiError> {
    let svc = &state.service;
    let arrived = gate.started.load(Ordering::SeqCst);
    let mut last = gate.last.lock().await;
    if last.0 > arrived {
        return Ok(last.1);
    }
    let n = gate.started.fetch_add(1, Ordering::SeqCst) + 1;
    let version = svc.store().version(id).await.map_err(ServiceError::from)?;
    *last = (n, version);
    Ok(version)
}

/// The store's version of `id` for a reader that keeps something by
/// version (the rendered pages, [`crate::pages::cache`]): through the
/// competition's gate, which an existing competition gets here if it had
/// none (a competition that does not exist gets nothing).
pub(crate) async fn version_of(state: &AppState, id: &str) -> Result<u64, ApiError> {
    // One lookup once the competition has its gate (every request but the
    // first).
    let gate = views_cache(state).get(id).map(|k| Arc::clone(&k.gate));
    if let Some(gate) = gate {
        return through_gate(state, id, &gate).await;
    }
    let version = store_version(state, id).await?;
    if version > 0 {
        let mut kept = views_cache(state);
        if !kept.contains_key(id) {
            kept.insert(
                id.to_string(),
                Kept {
                    // No view kept yet: version 0 is never a competition's.
                    version: 0,
                    body: Bytes::new(),
                    gate: Arc::default(),
                },
            );
        }
    }
    Ok(version)
}

fn views_cache(state: &AppState) -> std::sync::MutexGuard<'_, HashMap<String, Kept>> {
    // The map is consistent after any panic (plain inserts and removes).
    state
        .views
        .0
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The body of `id`'s view at `version`, if it was kept.
fn cached_view(state: &AppState, id: &str, version: u64) -> Option<Bytes> {
    match views_cache(state).get(id) {
        Some(kept) if kept.version == version => Some(kept.body.clone()),
        _ => None,
    }
}

/// Keep the body of `id`'s view at `version` (replacing an older one).
fn keep_view(state: &AppState, id: &str, version: u64, body: Bytes) {
    let mut bodies = views_cache(state);
    match bodies.get_mut(id) {
        Some(kept) if kept.version >= version => {}
        Some(kept) => {
            kept.version = version;
            kept.body = body;
        }
        None => {
            bodies.insert(
                id.to_string(),
                Kept {
                    version,
                    body,
                    gate: Arc::default(),
                },
            );
        }
    }
}

/// A serialized view as `Versioned` answers it: JSON, the version as `ETag`.
fn view_response(version: u64, body: Bytes) -> Response {
    let mut response = (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response();
    if let Ok(tag) = HeaderValue::from_str(&etag(version)) {
        response.headers_mut().insert(header::ETAG, tag);
    }
    response
}

/// Which events of the history.
#[derive(Debug, Deserialize)]
pub struct HistoryQuery {
    /// Only the last `limit` events.
    pub limit: Option<usize>,
}

/// One event of a competition's history.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HistoryEvent {
    /// 1, 2, 3 … without gaps.
    pub seq: u64,
    /// The event's kind, e.g. `result-recorded`.
    pub kind: String,
    /// Who did it.
    pub actor: String,
    /// When it was recorded (RFC 3339, UTC).
    pub time: String,
    /// Undone by a later `reverted` event.
    pub undone: bool,
    /// The event as stored: the permanent record's JSON (versioned, `"v": 1`).
    pub payload: serde_json::Value,
}

/// The history rows of stored events of format `F`: each payload as
/// stored, and which events a later undo reverted.
fn history_rows<F: Format>(
    id: &str,
    stored: Vec<StoredEvent>,
) -> Result<Vec<HistoryEvent>, ApiError> {
    let mut reverted = std::collections::HashSet::new();
    for s in &stored {
        let event = F::decode(&s.payload).map_err(|source| ServiceError::Record {
            competition: id.to_string(),
            seq: s.seq,
            source,
        })?;
        reverted.extend(F::reverted(&event));
    }
    stored
        .into_iter()
        .map(|s| {
            let payload = serde_json::from_str(&s.payload).map_err(|e| {
                ApiError::from(ServiceError::Input(format!(
                    "event {} of {id} is not JSON ({e}); the log is damaged",
                    s.seq
                )))
            })?;
            Ok(HistoryEvent {
                undone: reverted.contains(&s.seq),
                seq: s.seq,
                kind: s.kind,
                actor: s.actor,
                time: s.recorded_at,
                payload,
            })
        })
        .collect()
}

#[utoipa::path(
    get,
    path = "/api/competitions/{id}/history",
    tag = "competitions",
    params(
        ("id" = String, Path, description = "The competition's id"),
        ("limit" = Option<usize>, Query, description = "Only the last `limit` events"),
    ),
    responses(
        (status = 200, description = "The competition's events, oldest first", body = [HistoryEvent],
            headers(("ETag" = String, description = "The competition's version, `\"v42\"`"))),
        (status = 400, description = "A malformed `limit`", body = ErrorBody),
        (status = 404, description = "No such competition", body = ErrorBody),
        (status = 500, description = "The database failed", body = ErrorBody),
    )
)]
pub async fn history(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    ApiQuery(query): ApiQuery<HistoryQuery>,
) -> Result<Versioned<Vec<HistoryEvent>>, ApiError> {
    let svc = &state.service;
    let format = svc.format_of(&id).await?;
    let stored = svc
        .store()
        .read(&id, 1, None)
        .await
        .map_err(ServiceError::from)?;
    let version = stored.last().map_or(0, |s| s.seq);
    let rows = arbiter_service::with_format!(format, |F| history_rows::<F>(&id, stored)?);
    let skip = query.limit.map_or(0, |n| rows.len().saturating_sub(n));
    Ok(Versioned(version, rows.into_iter().skip(skip).collect()))
}

/// 404 unless competition `id` is of `format`, naming what it is.
pub(crate) async fn expect_format(
    svc: &Svc,
    id: &str,
    format: CompetitionFormat,
    what: &str,
) -> Result<(), ApiError> {
    let actual = svc.format_of(id).await?;
    if actual == format {
        return Ok(());
    }
    Err(ApiError::not_found(format!(
        "competition {id:?} is {}: it has no {what} (those are for {})",
        actual.words(),
        format.words()
    )))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use arbiter_service::{Context, Service};
    use arbiter_store_sqlite::SqliteStore;
    use http_body_util::BodyExt;

    use super::*;

    async fn demo() -> (AppState, arbiter_engine::model::Time) {
        let store = SqliteStore::open_in_memory().await.unwrap();
        let built = arbiter_demo::build(&store, "tws-demo").await.unwrap();
        (AppState::new(Service::new(store)), built.now)
    }

    /// The view's `ETag` and body.
    async fn view(state: &AppState) -> (String, Bytes) {
        let response = show(State(state.clone()), ApiPath("tws-demo".to_string()))
            .await
            .unwrap();
        assert_eq!(response.headers()[header::CONTENT_TYPE], "application/json");
        let tag = response.headers()[header::ETAG]
            .to_str()
            .unwrap()
            .to_string();
        let body = response.into_body().collect().await.unwrap().to_bytes();
        (tag, body)
    }

    #[tokio::test]
    async fn a_kept_view_is_answered_until_the_version_changes() {
        let (state, now) = demo().await;
        let (tag, body) = view(&state).await;
        let version: u64 = tag.trim_matches(['"', 'v']).parse().unwrap();
        let value: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(value["view"]["version"], version);
        assert_eq!(
            cached_view(&state, "tws-demo", version).as_deref(),
            Some(&body[..])
        );
        assert_eq!(view(&state).await, (tag.clone(), body.clone()));
        // Concurrent requests share version queries and get the same answer.
        let mut requests = tokio::task::JoinSet::new();
        for _ in 0..32 {
            let state = state.clone();
            requests.spawn(async move { view(&state).await });
        }
        while let Some(answer) = requests.join_next().await {
            assert_eq!(answer.unwrap(), (tag.clone(), body.clone()));
        }

        // Another writer on the same database (as the CLI beside the
        // server): the next answer is the new version's.
        let other = Service::new(state.service.store().clone());
        other
            .undo("tws-demo", &Context::new("test", now))
            .await
            .unwrap();
        let (tag2, body2) = view(&state).await;
        assert_eq!(tag2, etag(version + 1));
        let value2: serde_json::Value = serde_json::from_slice(&body2).unwrap();
        assert_eq!(value2["view"]["version"], version + 1);
        assert_ne!(body2, body);

        // Another server's database, with the same competition at the old
        // version, has views of its own.
        let (second, _) = demo().await;
        assert_eq!(view(&second).await, (tag, body));
        assert_eq!(view(&state).await, (tag2, body2));
    }
}
