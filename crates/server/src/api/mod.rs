//! The JSON API under `/api`, and its OpenAPI document (generated at
//! compile time by utoipa from the handlers and the view types).

pub mod calendars;
pub mod clinch;
pub mod competitions;
pub mod insight;
pub mod installation;
pub mod results_import;
pub mod time_zone;
pub mod write;

use axum::extract::{FromRequestParts, Path, Query, State};
use axum::http::request::Parts;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, delete, get, post};
use axum::{Json, Router};
use serde::Serialize;
use serde::de::DeserializeOwned;
use utoipa::{OpenApi, ToSchema};

use arbiter_service::format::CompetitionFormat;

use crate::AppState;
use crate::error::{ApiError, ErrorBody};

/// The API's routes (to merge into the application).
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/health", get(health))
        .route("/api/openapi.json", get(openapi_json))
        .route(
            "/api/competitions",
            get(competitions::list).post(write::create),
        )
        .route("/api/competitions/{id}/actions", post(write::act))
        .route(
            "/api/competitions/{id}/results/import",
            post(results_import::import_results),
        )
        .route("/api/session", post(write::login).delete(write::logout))
        .route("/api/me", get(write::me))
        .route("/api/accounts", post(write::register))
        .route(
            "/api/tokens",
            get(write::list_tokens).post(write::create_token),
        )
        .route("/api/tokens/{id}", delete(write::revoke_token))
        .route(
            "/api/calendars",
            get(calendars::list_own).post(calendars::create_own),
        )
        .route("/api/calendars/{id}", delete(calendars::revoke_own))
        .route(
            "/api/competitions/{id}/calendars",
            get(calendars::list_of_competition).post(calendars::create_for_competition),
        )
        .route(
            "/api/competitions/{id}/time-zone",
            get(time_zone::get_zone).put(time_zone::put_zone),
        )
        .route(
            "/api/competitions/{id}/calendars/{feed}",
            delete(calendars::revoke_of_competition),
        )
        .route("/api/competitions/{id}", get(competitions::show))
        .route("/api/competitions/{id}/history", get(competitions::history))
        .route("/api/competitions/{id}/ratings", get(insight::ratings))
        .route(
            "/api/competitions/{id}/area-report",
            get(insight::area_report),
        )
        .route(
            "/api/competitions/{id}/projection",
            get(insight::projection),
        )
        .route("/api/competitions/{id}/what-if", post(insight::what_if))
        .route("/api/competitions/{id}/clinch", get(clinch::clinch))
        .route("/api/stats", get(installation::stats))
        .route("/api", any(not_found))
        .route("/api/", any(not_found))
        .route("/api/{*rest}", any(not_found))
        .merge(format_routes())
}

/// Each format's own routes ([`crate::formats::WebFormat::api_routes`]),
/// through the registry.
fn format_routes() -> Router<AppState> {
    CompetitionFormat::ALL
        .iter()
        .fold(Router::new(), |router, f| {
            router.merge(arbiter_service::with_format!(*f, |F| {
                <F as crate::formats::WebFormat>::api_routes()
            }))
        })
}

/// The OpenAPI 3.1 document of the API: the shared routes' ([`SharedDoc`])
/// and each format's own ([`crate::formats::WebFormat::api_doc`]).
#[derive(Debug)]
pub struct ApiDoc;

impl OpenApi for ApiDoc {
    fn openapi() -> utoipa::openapi::OpenApi {
        let mut doc = SharedDoc::openapi();
        for f in CompetitionFormat::ALL {
            doc.merge(arbiter_service::with_format!(*f, |F| {
                <F as crate::formats::WebFormat>::api_doc()
            }));
        }
        doc
    }
}

/// The OpenAPI document of the routes every format shares.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Arbiter",
        description = "Competitions run the way a moderator would: every decision names its rule. \
Read a competition of any format (TWS ladder, XMadn league or Challengers, Sunjang league), \
its rounds or seasons, and its event history; run every format (ladder, XMadn league and \
Challengers, Sunjang league) with `POST /api/competitions/{id}/actions`: players, rounds and \
seasons, results and corrections, reports and confirmations, adjudication, closing, moderators.\n\n\
Writes need an account: log in with `POST /api/session` (a session cookie; send the returned \
`csrf_token` as `X-CSRF-Token` on every write), or send an API token as `Authorization: Bearer <token>`. \
Every write carries the expected version as `If-Match` and may carry an `Idempotency-Key`.\n\n\
Every error has one shape: `{\"error\": {\"code\", \"message\", \"clause\"?, \"field\"?, \"current_version\"?}}`. \
A competition's responses carry its version as `ETag` (`\"v42\"`), to send back as `If-Match` on writes.",
        license(name = "MIT OR Apache-2.0"),
    ),
    paths(
        health,
        openapi_json,
        competitions::list,
        competitions::show,
        competitions::history,
        insight::ratings,
        insight::area_report,
        insight::projection,
        insight::what_if,
        clinch::clinch,
        installation::stats,
        write::create,
        write::act,
        results_import::import_results,
        write::login,
        write::logout,
        write::me,
        write::register,
        write::create_token,
        write::list_tokens,
        write::revoke_token,
        calendars::list_own,
        calendars::create_own,
        calendars::revoke_own,
        calendars::list_of_competition,
        calendars::create_for_competition,
        calendars::revoke_of_competition,
        time_zone::get_zone,
        time_zone::put_zone,
    ),
    tags(
        (name = "competitions", description = "Competitions of every format, read side"),
        (name = "server", description = "The server itself"),
        (name = "accounts", description = "Accounts, sessions, API tokens and calendar feeds"),
    )
)]
#[derive(Debug)]
pub struct SharedDoc;

/// The server is up and its database answers.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// Always `ok` (a failing database answers 500 `storage`).
    pub status: &'static str,
    /// How many competitions the database holds.
    pub competitions: usize,
}

#[utoipa::path(
    get,
    path = "/api/health",
    tag = "server",
    responses(
        (status = 200, description = "The server and its database answer", body = Health),
        (status = 500, description = "The database does not answer", body = ErrorBody),
    )
)]
pub async fn health(State(state): State<AppState>) -> Result<Json<Health>, ApiError> {
    let competitions = state.service.competitions().await?.len();
    Ok(Json(Health {
        status: "ok",
        competitions,
    }))
}

#[utoipa::path(
    get,
    path = "/api/openapi.json",
    tag = "server",
    responses((status = 200, description = "This document (OpenAPI 3.1)", content_type = "application/json"))
)]
pub async fn openapi_json() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}

/// Any other path under `/api`.
async fn not_found() -> ApiError {
    ApiError::not_found("there is no such API route; /api/openapi.json lists the routes")
}

/// A JSON body with the competition's version as its `ETag` (`"v42"`).
#[derive(Debug)]
pub struct Versioned<T>(pub u64, pub T);

impl<T: Serialize> IntoResponse for Versioned<T> {
    fn into_response(self) -> Response {
        let mut response = Json(self.1).into_response();
        if let Ok(tag) = HeaderValue::from_str(&etag(self.0)) {
            response.headers_mut().insert(header::ETAG, tag);
        }
        response
    }
}

/// The entity tag of a competition at `version`.
pub fn etag(version: u64) -> String {
    format!("\"v{version}\"")
}

/// `Path` whose rejection is the API's error (400 `bad-request`).
#[derive(Debug)]
pub struct ApiPath<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for ApiPath<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match Path::<T>::from_request_parts(parts, state).await {
            Ok(Path(t)) => Ok(Self(t)),
            Err(e) => Err(ApiError::bad_request(e.body_text())),
        }
    }
}

/// `Query` whose rejection is the API's error (400 `bad-request`).
#[derive(Debug)]
pub struct ApiQuery<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(t)) => Ok(Self(t)),
            Err(e) => Err(ApiError::bad_request(e.body_text())),
        }
    }
}

/// The schema of one format's variant of an enum tagged by `format`
/// (`{"format": "<id>", "view": <T>}`), as serde's adjacent tagging
/// writes it: what the registry's enums ([`competitions::CompetitionView`])
/// are made of.
pub(crate) fn tagged_variant<T: ToSchema>(
    id: &str,
    description: &str,
) -> utoipa::openapi::schema::Schema {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    ObjectBuilder::new()
        .description(Some(description))
        .property(
            "format",
            ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some([id])),
        )
        .property(
            "view",
            utoipa::openapi::schema::RefBuilder::new()
                .ref_location_from_schema_name(T::name())
                .description(Some(description)),
        )
        .required("view")
        .required("format")
        .into()
}

/// Collect `T`'s schema and the schemas it refers to, as a derived
/// `ToSchema` does for its fields.
pub(crate) fn collect_schema<T: ToSchema>(
    schemas: &mut Vec<(
        String,
        utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
    )>,
) {
    schemas.push((T::name().into_owned(), T::schema()));
    T::schemas(schemas);
}
