//! What the pages that change things share: the problem page of a refused
//! form, the notice of what an action did, the redirects, the door of the
//! pages for a competition's owner and moderators, and the form token
//! before logging in.
//!
//! Every form posts (no GET changes anything) with the CSRF token of the
//! session, or of the `arbiter_csrf` cookie before logging in, and an
//! idempotency key made when the form was shown, so a double click or a
//! reload of the answer stores nothing twice. A form that acts on a
//! competition carries the version it was shown at: if someone else
//! changed the competition meanwhile, the action is refused (409) and
//! nothing is overwritten. The same actions as the API ([`crate::actions`]
//! and each format's) decide who may do what.

use std::time::Duration;

use askama::Template;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};

use super::Chrome;
use crate::AppState;
use crate::auth::{self, Caller, PRE_CSRF_COOKIE};
use crate::error::ApiError;

/// A failed action or form, shown as a page with the reason and a way back.
#[derive(Debug, Template)]
#[template(path = "problem.html")]
struct ProblemPage {
    chrome: Chrome,
    heading: String,
    message: String,
    field: Option<String>,
    clause: Option<String>,
    back: String,
}

/// What an action did, when it is more than a fixed sentence.
#[derive(Debug, Template)]
#[template(path = "notice.html")]
pub(crate) struct NoticePage {
    pub chrome: Chrome,
    pub heading: String,
    pub message: String,
    pub details: Vec<String>,
    pub back: String,
}

/// Render an API error as a page (its status kept).
pub(crate) fn problem(e: ApiError, back: &str) -> Response {
    if e.status.is_server_error() {
        tracing::error!(message = %e.detail.message, "an action failed");
    }
    let heading = match e.status {
        StatusCode::UNAUTHORIZED => "Please log in",
        StatusCode::FORBIDDEN => "Not allowed",
        StatusCode::CONFLICT => "Someone else changed it first",
        StatusCode::TOO_MANY_REQUESTS => "Too many attempts",
        StatusCode::UNPROCESSABLE_ENTITY => "The rules refuse this",
        s if s.is_server_error() => "Something went wrong",
        _ => "Please check the form",
    };
    let message = if e.status == StatusCode::CONFLICT {
        format!(
            "{} Nothing was changed: reload the page to see the latest state, then try again.",
            e.detail.message
        )
    } else {
        e.detail.message.clone()
    };
    let page = ProblemPage {
        chrome: Chrome::new(heading),
        heading: heading.into(),
        message,
        field: e.detail.field.clone(),
        clause: e.detail.clause.clone(),
        back: back.into(),
    };
    match page.render() {
        Ok(body) => (e.status, axum::response::Html(body)).into_response(),
        Err(_) => e.into_response(),
    }
}

/// See other: after a form that changed something.
pub(crate) fn see_other(to: &str) -> Response {
    Redirect::to(to).into_response()
}

/// The caller's form token, making a pre-login one (and its cookie) when
/// there is none.
pub(crate) fn form_token(
    state: &AppState,
    caller: &Caller,
) -> Result<(String, Option<HeaderValue>), ApiError> {
    if let Some(t) = caller.csrf_token() {
        return Ok((t.to_string(), None));
    }
    let token = auth::random_token()?;
    let cookie = auth::set_cookie(
        &state.auth,
        PRE_CSRF_COOKIE,
        &token,
        Duration::from_secs(3600),
    );
    Ok((token, Some(cookie)))
}

pub(crate) fn with_cookie(mut response: Response, cookie: Option<HeaderValue>) -> Response {
    if let Some(c) = cookie {
        response.headers_mut().append(header::SET_COOKIE, c);
    }
    response
}

/// Redirect to the login page, coming back to `here`.
pub(crate) fn to_login(here: &str) -> Response {
    see_other(&format!("/login?next={}", urlencode(here)))
}

/// The door of a competition's page for its owner and moderators alone
/// (`GET /c/{id}/time-zone`, `/webhooks`, `/calendars`, `/results-import`):
/// an anonymous visitor is sent to log in, coming back to `here`; for an
/// account, `may` decides: the API's own check of the same thing
/// ([`Caller::must_moderate`](crate::auth::Caller::must_moderate), or a stricter one such as
/// [`crate::api::results_import::may_import`]), or a page that begins with
/// it. Its refusal (404 for no such competition, 403 for an account that
/// does not moderate it) is the problem page with its status; `Ok` holds
/// what `may` answered.
pub(crate) async fn for_moderators<T>(
    caller: &Caller,
    here: &str,
    may: impl Future<Output = Result<T, ApiError>>,
) -> Result<T, Response> {
    if caller.account.is_none() {
        return Err(to_login(here));
    }
    may.await.map_err(|e| problem(e, "/"))
}

/// Percent-encode a local path for a query value.
pub(crate) fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
