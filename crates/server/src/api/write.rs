//! The write side of the API: accounts, sessions, tokens, creating a
//! competition, and the actions on a ladder. Every write checks the CSRF
//! token of a browser session (`X-CSRF-Token`; none with an API token),
//! the caller's role in the competition ([`crate::actions`]), and takes the
//! expected version as `If-Match` (`"v42"`; a mismatch answers 409 with
//! `current_version`) and an `Idempotency-Key` (a retry answers the first
//! outcome and stores nothing).

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::actions::FormatDone;
use crate::api::{ApiPath, etag};
use crate::auth::{self, CSRF_HEADER, Caller};
use crate::error::{ApiError, ErrorBody, ErrorCode};
use crate::formats::tws::actions::ActionDone;
use arbiter_store::{AccountStore, Grant};

/// A JSON body whose rejection is the API's error, naming the field.
#[derive(Debug)]
pub struct ApiJson<T>(pub T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> axum::extract::FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(t)) => Ok(Self(t)),
            // A body over the limit whose length was not announced (chunked,
            // or a lying Content-Length) is found while it is read: 413,
            // like the one the body limit layer answers, not 400.
            Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                ErrorCode::PayloadTooLarge,
                "the request body is larger than the server accepts",
            )),
            Err(e) => Err(ApiError::bad_request(e.body_text()).with_field("body")),
        }
    }
}

/// The CSRF token of a request with a session: the `X-CSRF-Token` header.
fn csrf_header(headers: &HeaderMap) -> Option<&str> {
    headers.get(CSRF_HEADER).and_then(|v| v.to_str().ok())
}

/// `If-Match: "v42"`: the version the write expects, exactly as the
/// server's `ETag` gives it. Only that strong tag is taken (issue 14, item
/// 4): a weak tag (`W/"v42"`), an unquoted `v42` or `42`, `*` or a list
/// says nothing exact about the version the write was decided on, and is
/// refused with 400 naming `If-Match`.
pub fn if_match(headers: &HeaderMap) -> Result<Option<u64>, ApiError> {
    let Some(v) = headers.get(header::IF_MATCH) else {
        return Ok(None);
    };
    let text = v.to_str().unwrap_or("").trim();
    text.strip_prefix("\"v")
        .and_then(|t| t.strip_suffix('"'))
        // Digits as the server writes them: no sign, no leading zero.
        .filter(|digits| {
            !digits.is_empty()
                && digits.bytes().all(|b| b.is_ascii_digit())
                && (*digits == "0" || !digits.starts_with('0'))
        })
        .and_then(|digits| digits.parse::<u64>().ok())
        .map(Some)
        .ok_or_else(|| {
            ApiError::bad_request(format!(
                "If-Match must be the competition's ETag exactly, a strong tag such as \"v42\" (not a weak W/ tag, an unquoted version, * or a list), not {text:?}"
            ))
            .with_field("If-Match")
        })
}

/// `Idempotency-Key`: 1 to 200 visible characters.
pub fn idempotency_key(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let Some(v) = headers.get("idempotency-key") else {
        return Ok(None);
    };
    match v.to_str() {
        Ok(k) if !k.trim().is_empty() && k.len() <= 200 => Ok(Some(k.trim().to_string())),
        _ => Err(
            ApiError::bad_request("Idempotency-Key must be 1 to 200 visible characters")
                .with_field("Idempotency-Key"),
        ),
    }
}

/// Logging in.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LoginBody {
    pub username: String,
    pub password: String,
}

/// The caller's account, with the CSRF token to send as `X-CSRF-Token` on
/// writes made with the session cookie.
#[derive(Debug, Serialize, ToSchema)]
pub struct Me {
    pub username: String,
    pub name: String,
    pub organizer: bool,
    /// Send it as `X-CSRF-Token` with the session cookie (absent with an
    /// API token, which needs none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub csrf_token: Option<String>,
    pub roles: Vec<RoleView>,
}

/// A role in one competition.
#[derive(Debug, Serialize, ToSchema)]
pub struct RoleView {
    pub competition: String,
    /// `owner`, `moderator` or `player`.
    pub role: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
}

async fn me_of(
    state: &AppState,
    account: &arbiter_store::Account,
    csrf: Option<String>,
) -> Result<Me, ApiError> {
    let grants: Vec<Grant> = state
        .service
        .store()
        .grants_of(&account.username)
        .await
        .map_err(ApiError::from_store)?;
    Ok(Me {
        username: account.username.clone(),
        name: account.display_name.clone(),
        organizer: account.organizer,
        csrf_token: csrf,
        roles: grants
            .into_iter()
            .map(|g| RoleView {
                competition: g.competition,
                role: g.role.as_str().into(),
                player: g.player,
            })
            .collect(),
    })
}

#[utoipa::path(
    post,
    path = "/api/session",
    tag = "accounts",
    request_body = LoginBody,
    responses(
        (status = 200, description = "Logged in: a fresh session cookie (`arbiter_session`, HttpOnly, Secure, SameSite=Lax) is set", body = Me),
        (status = 401, description = "Wrong username or password", body = ErrorBody),
        (status = 429, description = "Too many failed logins; `Retry-After` says when to try again", body = ErrorBody),
    )
)]
pub async fn login(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    ApiJson(body): ApiJson<LoginBody>,
) -> Result<Response, ApiError> {
    let account = auth::login(&state, &caller, &body.username, &body.password).await?;
    // A session the client brought is ended: the new one has a fresh id.
    if caller.session.is_some() {
        auth::end_session(&state, &headers).await?;
    }
    let cookie = auth::start_session(&state, &account.username).await?;
    // The new session's CSRF token.
    let session = session_csrf(&state, &cookie).await?;
    let me = me_of(&state, &account, session).await?;
    let mut response = Json(me).into_response();
    response.headers_mut().append(header::SET_COOKIE, cookie);
    Ok(response)
}

/// The CSRF token of the session a `Set-Cookie` value starts.
async fn session_csrf(state: &AppState, cookie: &HeaderValue) -> Result<Option<String>, ApiError> {
    let id = cookie
        .to_str()
        .ok()
        .and_then(|c| c.split(';').next())
        .and_then(|kv| kv.split_once('='))
        .map(|(_, v)| v.to_string())
        .unwrap_or_default();
    Ok(state
        .service
        .store()
        .session(&auth::digest(&id), state.now().timestamp())
        .await
        .map_err(ApiError::from_store)?
        .map(|s| s.csrf))
}

#[utoipa::path(
    delete,
    path = "/api/session",
    tag = "accounts",
    params(("X-CSRF-Token" = String, Header, description = "The session's CSRF token")),
    responses(
        (status = 204, description = "Logged out: the session is deleted on the server and the cookie cleared"),
        (status = 403, description = "CSRF token missing or wrong", body = ErrorBody),
    )
)]
pub async fn logout(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if caller.session.is_some() {
        caller.check_csrf(csrf_header(&headers))?;
    }
    let cookie = auth::end_session(&state, &headers).await?;
    let mut response = StatusCode::NO_CONTENT.into_response();
    response.headers_mut().append(header::SET_COOKIE, cookie);
    Ok(response)
}

#[utoipa::path(
    get,
    path = "/api/me",
    tag = "accounts",
    responses(
        (status = 200, description = "The caller's account and roles", body = Me),
        (status = 401, description = "Not logged in", body = ErrorBody),
    )
)]
pub async fn me(State(state): State<AppState>, caller: Caller) -> Result<Json<Me>, ApiError> {
    let account = caller.account()?;
    let csrf = caller.session.as_ref().map(|s| s.csrf.clone());
    Ok(Json(me_of(&state, account, csrf).await?))
}

/// Registering an account.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RegisterBody {
    pub username: String,
    /// The name shown, and played under.
    pub name: String,
    #[serde(default)]
    pub email: Option<String>,
    /// At least 10 characters, and not easy to guess (the zxcvbn estimator
    /// must score it 3 of 4 at least; the refusal says why).
    pub password: String,
}

#[utoipa::path(
    post,
    path = "/api/accounts",
    tag = "accounts",
    request_body = RegisterBody,
    responses(
        (status = 201, description = "The account exists (a player's; organizers are made with `arbiter account add --organizer`)", body = Me),
        (status = 400, description = "A field is not valid (`field` names it): a reserved username, a weak password with the reason", body = ErrorBody),
        (status = 409, description = "The username is taken", body = ErrorBody),
        (status = 429, description = "Too many registrations from this address; `Retry-After` says when to try again", body = ErrorBody),
    )
)]
pub async fn register(
    State(state): State<AppState>,
    caller: Caller,
    ApiJson(body): ApiJson<RegisterBody>,
) -> Result<Response, ApiError> {
    let account = auth::register(
        &state,
        &caller,
        &body.username,
        &body.name,
        body.email.as_deref(),
        &body.password,
    )
    .await?;
    let me = me_of(&state, &account, None).await?;
    Ok((StatusCode::CREATED, Json(me)).into_response())
}

/// A new API token.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenBody {
    pub label: String,
    /// The token stops working this many days from now (1 to 3650);
    /// without it, it works until revoked.
    #[serde(default)]
    pub expires_in_days: Option<u32>,
}

/// The token, shown this once: only its SHA-256 is kept.
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenCreated {
    pub token: String,
    /// What `DELETE /api/tokens/{id}` revokes it by.
    pub id: String,
    pub label: String,
    /// RFC 3339, when it stops working; absent: never.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
}

/// One of the caller's API tokens (never the token itself).
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenView {
    /// Its name in `DELETE /api/tokens/{id}`: the first 16 hex digits of
    /// its SHA-256.
    pub id: String,
    pub label: String,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339, to the second, noted at most once a minute; absent: never
    /// used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_used: Option<String>,
    /// RFC 3339; absent: never expires.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
    /// Past its expiry: refused with 401.
    pub expired: bool,
}

impl TokenView {
    pub fn of(token: &arbiter_store::ApiToken, now: arbiter_engine::model::Time) -> Self {
        TokenView {
            id: token.id().to_string(),
            label: token.label.clone(),
            created_at: token.created_at.clone(),
            last_used: token.last_used.clone(),
            expires_at: token.expires_at.clone(),
            expired: auth::token_expired(token, now),
        }
    }
}

#[utoipa::path(
    post,
    path = "/api/tokens",
    tag = "accounts",
    request_body = TokenBody,
    params(("X-CSRF-Token" = Option<String>, Header, description = "The session's CSRF token, with a session cookie")),
    responses(
        (status = 201, description = "The token: send it as `Authorization: Bearer <token>`", body = TokenCreated),
        (status = 400, description = "The label or the expiry is not valid (`field` names it)", body = ErrorBody),
        (status = 401, description = "Not logged in", body = ErrorBody),
    )
)]
pub async fn create_token(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    ApiJson(body): ApiJson<TokenBody>,
) -> Result<Response, ApiError> {
    let account = caller.account()?;
    caller.check_csrf(csrf_header(&headers))?;
    let (token, record) =
        auth::create_expiring_token(&state, &account.username, &body.label, body.expires_in_days)
            .await?;
    Ok((
        StatusCode::CREATED,
        Json(TokenCreated {
            token,
            id: record.id().to_string(),
            label: record.label,
            expires_at: record.expires_at,
        }),
    )
        .into_response())
}

#[utoipa::path(
    get,
    path = "/api/tokens",
    tag = "accounts",
    responses(
        (status = 200, description = "The caller's API tokens, oldest first", body = Vec<TokenView>),
        (status = 401, description = "Not logged in", body = ErrorBody),
    )
)]
pub async fn list_tokens(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Json<Vec<TokenView>>, ApiError> {
    let account = caller.account()?;
    let tokens = state
        .service
        .store()
        .tokens_of(&account.username)
        .await
        .map_err(ApiError::from_store)?;
    let now = state.now();
    Ok(Json(tokens.iter().map(|t| TokenView::of(t, now)).collect()))
}

#[utoipa::path(
    delete,
    path = "/api/tokens/{id}",
    tag = "accounts",
    params(
        ("id" = String, Path, description = "The token's id, from `GET /api/tokens`"),
        ("X-CSRF-Token" = Option<String>, Header, description = "The session's CSRF token, with a session cookie"),
    ),
    responses(
        (status = 204, description = "Revoked: the token answers 401 from now on"),
        (status = 401, description = "Not logged in", body = ErrorBody),
        (status = 403, description = "CSRF token missing or wrong", body = ErrorBody),
        (status = 404, description = "The caller has no token with this id", body = ErrorBody),
    )
)]
pub async fn revoke_token(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    ApiPath(id): ApiPath<String>,
) -> Result<Response, ApiError> {
    let account = caller.account()?;
    caller.check_csrf(csrf_header(&headers))?;
    auth::revoke_token(state.service.store(), &account.username, &id).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// Creating a competition.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateBody {
    /// `tws-ladder`, `xmadn-league`, `xmadn-challengers`,
    /// `sunjang-league` or `round-robin`.
    pub format: String,
    /// Letters, digits and dashes: the competition's address.
    pub id: String,
    pub name: String,
    /// A rules file (TOML); the format's preset when absent.
    #[serde(default)]
    pub rules: Option<String>,
    /// `round-robin`: the preset to start from when no rules are given
    /// (`fifa-world-cup`, `uefa-euro`, `chess`, `go`, `xmadn`; the first
    /// when absent).
    #[serde(default)]
    pub preset: Option<String>,
    /// The players named at creation: exactly three for `xmadn-league`,
    /// the players of `xmadn-challengers`.
    #[serde(default)]
    pub players: Option<Vec<String>>,
    /// `xmadn-challengers`: the wins needed (first to x), instead of the
    /// rules'.
    #[serde(default)]
    pub first_to: Option<u32>,
}

/// A competition just created.
#[derive(Debug, Serialize, ToSchema)]
pub struct Created {
    pub id: String,
    pub version: u64,
}

#[utoipa::path(
    post,
    path = "/api/competitions",
    tag = "competitions",
    request_body = CreateBody,
    params(
        ("X-CSRF-Token" = Option<String>, Header, description = "The session's CSRF token, with a session cookie"),
        ("Idempotency-Key" = Option<String>, Header, description = "Names the request: a retry answers the first outcome"),
    ),
    responses(
        (status = 201, description = "Created; the caller is its owner and first moderator", body = Created),
        (status = 400, description = "A field is not valid", body = ErrorBody),
        (status = 401, description = "Not logged in", body = ErrorBody),
        (status = 403, description = "Not an organizer's account, or the CSRF token is wrong", body = ErrorBody),
        (status = 409, description = "The id is taken", body = ErrorBody),
    )
)]
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    ApiJson(body): ApiJson<CreateBody>,
) -> Result<Response, ApiError> {
    caller.account()?;
    caller.check_csrf(csrf_header(&headers))?;
    let key = idempotency_key(&headers)?;
    // The id first, so that its refusal names the field.
    arbiter_service::check_competition_id(&body.id)
        .map_err(|e| ApiError::from(e).with_field("id"))?;
    let format =
        arbiter_service::format::CompetitionFormat::of_id(&body.format).ok_or_else(|| {
            ApiError::bad_request(format!(
                "there is no format {:?}; formats: {}",
                body.format,
                arbiter_service::format::CompetitionFormat::ids_in_words()
            ))
            .with_field("format")
        })?;
    let creation = crate::formats::Creation {
        id: body.id.clone(),
        name: body.name.clone(),
        rules: body.rules.clone(),
        preset: body.preset.clone(),
        players: body.players.clone(),
        first_to: body.first_to,
        key,
    };
    let version = arbiter_service::with_format!(format, |F| {
        <F as crate::formats::WebFormat>::create(&state, &caller, &creation).await?
    });
    let mut response = (
        StatusCode::CREATED,
        Json(Created {
            id: body.id.clone(),
            version,
        }),
    )
        .into_response();
    if let Ok(tag) = HeaderValue::from_str(&etag(version)) {
        response.headers_mut().insert(header::ETAG, tag);
    }
    Ok(response)
}

/// [`AnyAction`] from the registry ([`arbiter_service::formats!`]): its
/// schema is one of the formats' [`crate::formats::WebFormat::Action`].
macro_rules! any_action {
    ({} $($(#[doc = $doc:literal])* $variant:ident => $state:ty,)*) => {
        /// The body of an action, in the OpenAPI document: its `action`
        /// field names it, and the competition's format says which of the
        /// formats' actions it is ([`crate::formats::WebFormat::act`]
        /// parses it as its own).
        pub(crate) struct AnyAction;

        impl utoipa::PartialSchema for AnyAction {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                let mut one_of = utoipa::openapi::schema::OneOfBuilder::new().description(Some(
                    "The body of an action: its `action` field names it, and the\ncompetition's format says which of these it is.",
                ));
                $(one_of = one_of.item(utoipa::openapi::Ref::from_schema_name(
                    <crate::formats::ActionOf<$state> as utoipa::ToSchema>::name(),
                ));)*
                one_of.into()
            }
        }

        impl utoipa::ToSchema for AnyAction {
            fn schemas(
                schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)>,
            ) {
                $(crate::api::collect_schema::<crate::formats::ActionOf<$state>>(schemas);)*
            }
        }
    };
}
arbiter_service::formats!(any_action! {});

/// What an action did: a ladder's answer, or another format's.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum ActionAnswer {
    Ladder(Box<ActionDone>),
    Other(Box<FormatDone>),
}

impl ActionAnswer {
    fn version(&self) -> u64 {
        match self {
            ActionAnswer::Ladder(d) => d.version,
            ActionAnswer::Other(d) => d.version,
        }
    }
}

/// 428 for a write (not a preview) that does not say which version it
/// expects.
pub(crate) fn need_version(expected: Option<u64>, preview: bool) -> Result<(), ApiError> {
    if expected.is_none() && !preview {
        return Err(ApiError::new(
            StatusCode::PRECONDITION_REQUIRED,
            ErrorCode::PreconditionRequired,
            "a write must say which version it expects: send the competition's ETag as If-Match",
        )
        .with_field("If-Match"));
    }
    Ok(())
}

/// Parse an action body as the format's action; the error names the field.
pub(crate) fn parse_action<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| {
        ApiError::bad_request(format!(
            "Failed to deserialize the JSON body into the target type: {e}"
        ))
        .with_field("body")
    })
}

#[utoipa::path(
    post,
    path = "/api/competitions/{id}/actions",
    tag = "competitions",
    request_body(
        content = AnyAction,
        description = "One action, by the competition's format: `LadderAction` (TWS ladder), `LeagueAction` (XMadn league), `ChallengersAction` (XMadn Challengers), `SunjangAction` (Sunjang league) or `RoundRobinAction` (round-robin league)"
    ),
    params(
        ("id" = String, Path, description = "The competition (any format)"),
        ("If-Match" = String, Header, description = "The version the write expects (the ETag, `\"v42\"`); required except for a preview"),
        ("Idempotency-Key" = Option<String>, Header, description = "Names the request: a retry answers the first outcome and stores nothing"),
        ("X-CSRF-Token" = Option<String>, Header, description = "The session's CSRF token, with a session cookie"),
    ),
    responses(
        (status = 200, description = "Done (or previewed); `ETag` is the new version", body = ActionAnswer),
        (status = 400, description = "A field is not valid (`field` names it)", body = ErrorBody),
        (status = 401, description = "Not logged in", body = ErrorBody),
        (status = 403, description = "The caller's role does not allow it, or the CSRF token is wrong", body = ErrorBody),
        (status = 404, description = "No such competition", body = ErrorBody),
        (status = 409, description = "The competition is not at the expected version (`current_version`)", body = ErrorBody),
        (status = 422, description = "The rules refuse it (`clause` names the rule)", body = ErrorBody),
        (status = 428, description = "If-Match is missing", body = ErrorBody),
    )
)]
pub async fn act(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Response, ApiError> {
    caller.account()?;
    caller.check_csrf(csrf_header(&headers))?;
    if arbiter_service::check_competition_id(&id).is_err() {
        return Err(ApiError::not_found(format!(
            "there is no competition {id:?}"
        )));
    }
    let format = state.service.format_of(&id).await?;
    let expected = if_match(&headers)?;
    let key = idempotency_key(&headers)?;
    let done = arbiter_service::with_format!(format, |F| {
        <F as crate::formats::WebFormat>::act(&state, &caller, &id, &body, expected, key).await?
    });
    let mut response = Json(&done).into_response();
    if let Ok(tag) = HeaderValue::from_str(&etag(done.version())) {
        response.headers_mut().insert(header::ETAG, tag);
    }
    Ok(response)
}
