//! The one JSON shape of every error the API answers:
//! `{"error": {"code", "message", "clause"?, "field"?, "current_version"?}}`,
//! mapped from the service's typed errors, and from the plain responses of
//! the layers and the router (413, 404, 405, timeouts) by [`shape_api_errors`].

use arbiter_service::ServiceError;
use arbiter_store::StoreError;
use axum::Json;
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

/// The field a refusal of a reused idempotency key names: the API's
/// header, which the desks' forms carry as `_key`.
pub(crate) const KEY_FIELD: &str = "Idempotency-Key";

/// What went wrong, for programs: one word per kind of failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorCode {
    /// 404: no such competition, round, season or route.
    NotFound,
    /// 400: the request itself is malformed (a path or query value).
    BadRequest,
    /// 409: the competition is not at the version the request expected
    /// (`current_version` says where it is), or it already exists.
    Conflict,
    /// 422: the rules refuse the command (`clause` names the rule, `field`
    /// the offending input), or an idempotency key was reused for another
    /// request.
    Refused,
    /// 500: the database could not be read or written.
    Storage,
    /// 413: the request body is larger than the server accepts.
    PayloadTooLarge,
    /// 405: the route exists but not for this method.
    MethodNotAllowed,
    /// 503: the request took longer than the server allows.
    Timeout,
    /// 401: the route needs an account (a session cookie or an API token),
    /// or the credentials are wrong.
    Unauthorized,
    /// 403: the caller's role in the competition does not allow this (or
    /// the CSRF token is missing or wrong: `field` is `_csrf`).
    Forbidden,
    /// 429: too many failed logins, or too many heavy reads (projections,
    /// analyses, previews: the server is busy, or the address asked too
    /// often); `Retry-After` says when to try again.
    Throttled,
    /// 428: a write must say which version it expects (`If-Match`).
    PreconditionRequired,
}

/// The body of every error response.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

/// One error: a code for programs, a message for people, and what the
/// code needs (the rule's clause, the field, the current version).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ErrorDetail {
    pub code: ErrorCode,
    /// Words a moderator understands.
    pub message: String,
    /// The rule that refused the command, e.g. `TWS-R10` (with `refused`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clause: Option<String>,
    /// The input that broke the rule, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// The competition's version now (with `conflict`): reload, then send
    /// it as `If-Match` again.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_version: Option<u64>,
}

/// An error answered by the API.
#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: StatusCode,
    pub detail: ErrorDetail,
    pub retry_after: Option<u64>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            status,
            detail: ErrorDetail {
                code,
                message: message.into(),
                clause: None,
                field: None,
                current_version: None,
            },
            retry_after: None,
        }
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, ErrorCode::NotFound, message)
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, ErrorCode::BadRequest, message)
    }

    #[must_use]
    pub fn with_field(mut self, field: impl Into<String>) -> Self {
        self.detail.field = Some(field.into());
        self
    }

    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, ErrorCode::Forbidden, message)
    }

    /// 500 with the details in the log only.
    pub fn internal(detail: impl std::fmt::Display) -> Self {
        Self::storage(&detail)
    }

    /// A store error outside the command path (accounts, sessions).
    pub fn from_store(e: StoreError) -> Self {
        ServiceError::Store(e).into()
    }

    /// Ask the client to wait `seconds` (sent as `Retry-After`).
    #[must_use]
    pub fn with_retry_after(mut self, seconds: u64) -> Self {
        self.retry_after = Some(seconds);
        self
    }

    fn storage(detail: &dyn std::fmt::Display) -> Self {
        // The details (paths, SQL) go to the log, not to the client.
        tracing::error!(error = %detail, "storage failure");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            ErrorCode::Storage,
            "the database could not be read or written; the server log has the details",
        )
    }
}

impl From<ServiceError> for ApiError {
    fn from(e: ServiceError) -> Self {
        match e {
            ServiceError::Rule(rule) => Self {
                retry_after: None,
                status: StatusCode::UNPROCESSABLE_ENTITY,
                detail: ErrorDetail {
                    code: ErrorCode::Refused,
                    message: rule.message,
                    clause: Some(rule.clause),
                    field: rule.field,
                    current_version: None,
                },
            },
            ServiceError::Store(StoreError::Conflict { actual, .. }) => {
                let mut err = Self::new(
                    StatusCode::CONFLICT,
                    ErrorCode::Conflict,
                    format!(
                        "the competition is at version {actual}, not the version this request expected: reload and try again"
                    ),
                );
                err.detail.current_version = Some(actual);
                err
            }
            // The code and field stay what clients read; the words say
            // what happened (issue 17 §2).
            ServiceError::Store(StoreError::KeyReused { .. }) => Self::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                ErrorCode::Refused,
                "this request's Idempotency-Key was already used for another request (another action, other values or another competition), so nothing was changed: a retry of the same request answers what it first did, and a new request needs a new key",
            )
            .with_field(KEY_FIELD),
            ServiceError::Store(e @ StoreError::AccountExists(_)) => {
                Self::new(StatusCode::CONFLICT, ErrorCode::Conflict, e.to_string())
                    .with_field("username")
            }
            // An import refused as a whole (the server does not import
            // today; kept exhaustive so a new route cannot map it to 500).
            ServiceError::Store(e @ StoreError::Exists(_)) => {
                Self::new(StatusCode::CONFLICT, ErrorCode::Conflict, e.to_string())
            }
            ServiceError::Store(e @ StoreError::Invalid(_)) => Self::bad_request(e.to_string()),
            ServiceError::Store(e @ StoreError::Backend(_)) => Self::storage(&e),
            e @ ServiceError::Record { .. } => Self::storage(&e),
            ServiceError::NotFound(id) => {
                Self::not_found(format!("there is no competition {id:?}"))
            }
            e @ ServiceError::Exists(_) => {
                Self::new(StatusCode::CONFLICT, ErrorCode::Conflict, e.to_string())
            }
            // A log that does not fold is a storage failure, as in the CLI
            // (exit code 4).
            ServiceError::Input(m) if m.contains("the log is damaged") => Self::storage(&m),
            ServiceError::Input(m) => Self::bad_request(m),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(ErrorBody { error: self.detail })).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

/// The code and a default message for a status answered without a JSON
/// body (by a layer or the router).
fn code_for(status: StatusCode) -> (ErrorCode, &'static str) {
    match status {
        StatusCode::NOT_FOUND => (ErrorCode::NotFound, "there is no such API route"),
        StatusCode::METHOD_NOT_ALLOWED => (
            ErrorCode::MethodNotAllowed,
            "this route does not answer this method",
        ),
        StatusCode::PAYLOAD_TOO_LARGE => (
            ErrorCode::PayloadTooLarge,
            "the request body is larger than the server accepts",
        ),
        StatusCode::SERVICE_UNAVAILABLE | StatusCode::REQUEST_TIMEOUT => (
            ErrorCode::Timeout,
            "the request took longer than the server allows",
        ),
        StatusCode::UNPROCESSABLE_ENTITY => (ErrorCode::Refused, "the request was refused"),
        StatusCode::CONFLICT => (ErrorCode::Conflict, "the request conflicts with the data"),
        StatusCode::UNAUTHORIZED => (ErrorCode::Unauthorized, "log in first"),
        StatusCode::FORBIDDEN => (ErrorCode::Forbidden, "this is not allowed to you"),
        StatusCode::TOO_MANY_REQUESTS => (ErrorCode::Throttled, "too many requests"),
        s if s.is_server_error() => (ErrorCode::Storage, "the server failed"),
        _ => (ErrorCode::BadRequest, "the request is malformed"),
    }
}

/// Whether a request is for the API (its errors are JSON).
pub fn is_api_path(path: &str) -> bool {
    path == "/api" || path.starts_with("/api/")
}

/// Middleware: an error answered under `/api` without a JSON body (by the
/// body limit, the timeout, the router's 404 and 405, or an extractor's
/// plain-text rejection) gets the API's error shape, keeping its status.
/// A plain-text body becomes the message.
pub async fn shape_api_errors(request: Request, next: Next) -> Response {
    let api = is_api_path(request.uri().path());
    let response = next.run(request).await;
    let status = response.status();
    if !api || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let content_type = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if content_type.starts_with("application/json") {
        return response;
    }
    let plain = content_type.starts_with("text/plain");
    let (parts, body) = response.into_parts();
    let (code, default) = code_for(status);
    let text = if plain {
        axum::body::to_bytes(body, 4096)
            .await
            .ok()
            .and_then(|b| String::from_utf8(b.to_vec()).ok())
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
    } else {
        None
    };
    let message = match (code, text) {
        // Say what the limit is rather than the layer's terse words.
        (ErrorCode::PayloadTooLarge, _) | (_, None) => default.to_string(),
        (_, Some(t)) => t,
    };
    let mut out = ApiError::new(status, code, message).into_response();
    // Keep the headers the layers set (request id, Allow on a 405, …).
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            out.headers_mut().append(name.clone(), value.clone());
        }
    }
    out.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    out
}
