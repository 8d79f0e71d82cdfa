//! What the server's integration tests share: answers read whole, requests
//! sent in process (`tower::ServiceExt::oneshot`) with a token, a session
//! cookie and its CSRF token, or nothing; accounts and tokens; a session
//! logged in through the login form; versions read from `ETag`s; form
//! bodies.

// Each test file uses its own subset of these helpers.
#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::OnceLock;

use arbiter_server::{AppState, auth};
use arbiter_store::{Account, AccountStore, Grant, Role};
use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Method, Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

pub mod ladder;

/// The password of the accounts made with [`password_hash`].
pub const PASSWORD: &str = "correct horse battery staple";

/// The tests' fixed time.
pub fn now() -> arbiter_engine::model::Time {
    "2026-03-02T12:00:00Z".parse().unwrap()
}

/// One argon2 hash of [`PASSWORD`] for every account (hashing is slow on
/// purpose).
pub fn password_hash() -> &'static str {
    static HASH: OnceLock<String> = OnceLock::new();
    HASH.get_or_init(|| auth::hash_password(PASSWORD).unwrap())
}

// ----- answers -----

/// A response, read whole.
pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

impl Answer {
    /// The body as JSON (`null` if it is not).
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }

    /// The body as JSON, which it must be.
    pub fn strict_json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "not JSON ({e}): {}",
                String::from_utf8_lossy(&self.body[..self.body.len().min(500)])
            )
        })
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// A header's value, which must be there.
    pub fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .unwrap_or_else(|| panic!("no {name} header in {:?}", self.headers))
            .to_str()
            .unwrap()
    }

    /// The `Location`, or "".
    pub fn location(&self) -> &str {
        self.headers
            .get(header::LOCATION)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }

    /// The value a `Set-Cookie` of this answer gives the cookie `name`.
    pub fn sets_cookie(&self, name: &str) -> Option<String> {
        cookie_value(&self.headers, name)
    }

    /// The `ETag`, as sent.
    pub fn etag(&self) -> String {
        self.headers[header::ETAG].to_str().unwrap().to_string()
    }
}

pub async fn answer(response: axum::response::Response) -> Answer {
    let status = response.status();
    let headers = response.headers().clone();
    let body = response
        .into_body()
        .collect()
        .await
        .unwrap()
        .to_bytes()
        .to_vec();
    Answer {
        status,
        headers,
        body,
    }
}

/// Send one request to the app.
pub async fn oneshot(app: &Router, request: Request<Body>) -> Answer {
    answer(app.clone().oneshot(request).await.unwrap()).await
}

// ----- requests -----

/// Who sends a request.
#[derive(Debug, Clone, Copy)]
pub enum As<'a> {
    Nobody,
    Token(&'a str),
    /// A session cookie and the CSRF token sent with it.
    Cookie(&'a str, &'a str),
    /// A session cookie without a CSRF token.
    CookieOnly(&'a str),
}

impl<'a> As<'a> {
    /// A token, or nobody.
    pub fn token(token: Option<&'a str>) -> As<'a> {
        token.map_or(As::Nobody, As::Token)
    }
}

/// A request with `who`'s credentials, `headers` and a JSON `body`.
pub async fn send(
    app: &Router,
    method: Method,
    uri: &str,
    who: As<'_>,
    headers: &[(&str, String)],
    body: Option<&Value>,
) -> Answer {
    let mut headers = headers.to_vec();
    let bytes = match body {
        Some(b) => {
            headers.push(("content-type", "application/json".to_string()));
            serde_json::to_vec(b).unwrap()
        }
        None => Vec::new(),
    };
    send_raw(app, method, uri, who, &headers, bytes).await
}

/// A GET with the cookies `cookie` (none if empty).
pub async fn get_with_cookie(app: &Router, uri: &str, cookie: &str) -> Answer {
    let mut request = Request::builder().uri(uri);
    if !cookie.is_empty() {
        request = request.header(header::COOKIE, cookie);
    }
    oneshot(app, request.body(Body::empty()).unwrap()).await
}

/// A form POST with the cookies `cookie` (none if empty).
pub async fn post_form(app: &Router, uri: &str, cookie: &str, body: String) -> Answer {
    let mut request = Request::builder()
        .method(Method::POST)
        .uri(uri)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
    if !cookie.is_empty() {
        request = request.header(header::COOKIE, cookie);
    }
    oneshot(app, request.body(Body::from(body)).unwrap()).await
}

// ----- versions -----

/// The number of a version `ETag` (`"v12"`).
pub fn version_number(etag: &str) -> u64 {
    etag.trim_matches('"')
        .trim_start_matches('v')
        .parse()
        .unwrap()
}

/// A competition's GET, which must answer 200.
pub async fn competition(app: &Router, id: &str) -> Answer {
    let a = send(
        app,
        Method::GET,
        &format!("/api/competitions/{id}"),
        As::Nobody,
        &[],
        None,
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{id}: {}", a.text());
    a
}

/// A competition's version, its `ETag` as sent.
pub async fn etag(app: &Router, id: &str) -> String {
    competition(app, id).await.etag()
}

/// A competition's version number, from its `ETag`.
pub async fn version(app: &Router, id: &str) -> u64 {
    version_number(&etag(app, id).await)
}

/// A competition's view.
pub async fn view(app: &Router, id: &str) -> Value {
    competition(app, id).await.json()["view"].clone()
}

// ----- accounts, tokens, grants, sessions -----

/// Accounts `(username, name shown, organizer)` with the password
/// [`PASSWORD`], and an API token for each.
pub async fn accounts_with_tokens(
    state: &AppState,
    accounts: &[(&'static str, &str, bool)],
) -> HashMap<&'static str, String> {
    let mut tokens = HashMap::new();
    for (username, name, organizer) in accounts {
        state
            .service
            .store()
            .create_account(&Account {
                username: (*username).into(),
                display_name: (*name).into(),
                email: None,
                password_hash: password_hash().into(),
                organizer: *organizer,
                created_at: now().to_rfc3339(),
            })
            .await
            .unwrap();
        let token = auth::create_token(state, username, "tests").await.unwrap();
        tokens.insert(*username, token);
    }
    tokens
}

/// Grant `role` in competition `id` to `user`. A player's role is the
/// link of the competition's events (ARB-R50), made as a moderator makes
/// it; the grant beside it is only the account's directory entry.
pub async fn grant(state: &AppState, id: &str, user: &str, role: Role, player: Option<&str>) {
    if role == Role::Player
        && let Some(name) = player
    {
        let ctx = arbiter_service::Context {
            actor: "tests".into(),
            at: state.now(),
            idempotency_key: None,
            expected: None,
        };
        state
            .service
            .link_account(id, name, user, &ctx)
            .await
            .unwrap();
    }
    state
        .service
        .store()
        .grant(&Grant {
            competition: id.into(),
            username: user.into(),
            role,
            player: player.map(str::to_string),
        })
        .await
        .unwrap();
}

/// The grants of competition `id`, sorted, as `user:role:player`.
pub async fn grants_in(state: &AppState, id: &str) -> Vec<String> {
    let mut grants: Vec<String> = state
        .service
        .store()
        .grants_in(id)
        .await
        .unwrap()
        .into_iter()
        .map(|g| {
            format!(
                "{}:{}:{}",
                g.username,
                g.role.as_str(),
                g.player.unwrap_or_default()
            )
        })
        .collect();
    grants.sort();
    grants
}

/// The pre-login CSRF token the login page sets.
pub async fn pre_login_csrf(app: &Router) -> String {
    let page = get_with_cookie(app, "/login", "").await;
    assert_eq!(page.status, StatusCode::OK);
    page.sets_cookie(auth::PRE_CSRF_COOKIE)
        .expect("a pre-login CSRF cookie")
}

/// A session cookie (`name=id`) for `user`, logged in through the login
/// form with the pre-login CSRF cookie.
pub async fn login_session(app: &Router, user: &str, password: &str) -> String {
    let pre = pre_login_csrf(app).await;
    let body = format!("username={user}&password={password}&_csrf={pre}&next=%2Faccount");
    let a = post_form(
        app,
        "/login",
        &format!("{}={pre}", auth::PRE_CSRF_COOKIE),
        body,
    )
    .await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.text());
    let id = a
        .sets_cookie(auth::SESSION_COOKIE)
        .expect("a session cookie");
    format!("{}={id}", auth::SESSION_COOKIE)
}

// ----- cookies and forms -----

/// The value `Set-Cookie` gives the cookie `name` (not a removal).
pub fn cookie_value(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| v.split(';').next())
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, v)| *k == name && !v.is_empty())
        .map(|(_, v)| v.to_string())
}

/// Percent-encode a form or path value.
pub fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A urlencoded form body.
pub fn form_body(fields: &[(&str, &str)]) -> String {
    fields
        .iter()
        .map(|(k, v)| format!("{k}={}", enc(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// The value of the first hidden input named `name` in `html`.
pub fn hidden(html: &str, name: &str) -> String {
    let at = html
        .find(&format!("name=\"{name}\" value=\""))
        .unwrap_or_else(|| panic!("no field {name} in {html}"));
    let rest = &html[at + name.len() + 15..];
    rest[..rest.find('"').unwrap()].to_string()
}

/// A page with its assets' content hashes (`?v=…`) replaced by `HASH`, so
/// that a snapshot does not change with the stylesheet.
pub fn stable(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(i) = rest.find("?v=") {
        out.push_str(&rest[..i]);
        out.push_str("?v=HASH");
        rest = &rest[i + 3..];
        let end = rest
            .find(|c: char| !c.is_ascii_hexdigit())
            .unwrap_or(rest.len());
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// A request with `who`'s credentials, `headers` and a raw `body` (a CSV
/// file, say).
#[allow(dead_code)]
pub async fn send_raw(
    app: &Router,
    method: Method,
    uri: &str,
    who: As<'_>,
    headers: &[(&str, String)],
    body: Vec<u8>,
) -> Answer {
    let mut request = Request::builder().method(method).uri(uri);
    match who {
        As::Nobody => {}
        As::Token(t) => request = request.header(header::AUTHORIZATION, format!("Bearer {t}")),
        As::Cookie(id, csrf) => {
            request = request
                .header(header::COOKIE, format!("{}={id}", auth::SESSION_COOKIE))
                .header(auth::CSRF_HEADER, csrf);
        }
        As::CookieOnly(id) => {
            request = request.header(header::COOKIE, format!("{}={id}", auth::SESSION_COOKIE));
        }
    }
    for (k, v) in headers {
        request = request.header(*k, v);
    }
    oneshot(app, request.body(Body::from(body)).unwrap()).await
}
