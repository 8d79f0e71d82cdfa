//! Who is asking: accounts, sessions, API tokens, CSRF tokens, roles and
//! login throttling.
//!
//! - Passwords are stored as argon2id PHC strings.
//! - A session is a random 256-bit id in an `HttpOnly`, `SameSite=Lax`
//!   (and, unless configured otherwise, `Secure`) cookie; the database keeps
//!   only its SHA-256, so a copy of the database logs nobody in. Logging in
//!   always makes a new session (a fresh id: no fixation); logging out
//!   deletes it.
//! - Every state-changing request carries a CSRF token: a form's hidden
//!   `_csrf` field or an `X-CSRF-Token` header, equal to the session's token
//!   (or, before logging in, to the `arbiter_csrf` cookie: a double-submit
//!   token for the login and registration forms). A request with an API
//!   token (`Authorization: Bearer …`) needs none: no browser sends that
//!   header by itself. No GET changes anything.
//! - Roles are per competition (owner, moderator, player; public is none),
//!   checked by [`crate::actions`] for every command.
//! - Failed logins are throttled per username and per client address.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use arbiter_store::{Account, AccountStore, ApiToken, Grant, Role, Session};
use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, header};
use sha2::{Digest, Sha256};

use crate::AppState;
use crate::error::{ApiError, ErrorCode};

/// The session cookie.
pub const SESSION_COOKIE: &str = "arbiter_session";
/// The double-submit CSRF cookie of forms shown before logging in.
pub const PRE_CSRF_COOKIE: &str = "arbiter_csrf";
/// The header that carries the CSRF token of a script's request.
pub const CSRF_HEADER: &str = "x-csrf-token";
/// The form field that carries it.
pub const CSRF_FIELD: &str = "_csrf";

/// How sessions and logins behave.
#[derive(Debug, Clone, Copy)]
pub struct AuthConfig {
    /// Mark cookies `Secure` (sent over HTTPS only; browsers also send them
    /// to `http://localhost`). Off only for plain HTTP on a private network.
    pub secure_cookies: bool,
    /// How long a session lasts after logging in.
    pub session_ttl: Duration,
    /// Failed logins allowed per username within [`AuthConfig::throttle_window`].
    pub max_failures_per_user: u32,
    /// Failed logins allowed per client address within the window.
    pub max_failures_per_address: u32,
    pub throttle_window: Duration,
}

impl Default for AuthConfig {
    fn default() -> Self {
        Self {
            secure_cookies: true,
            session_ttl: Duration::from_secs(14 * 24 * 3600),
            max_failures_per_user: 5,
            max_failures_per_address: 20,
            throttle_window: Duration::from_secs(15 * 60),
        }
    }
}

/// A fresh random token: 256 bits as 64 hex digits.
pub fn random_token() -> Result<String, ApiError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| ApiError::internal(format!("no randomness: {e}")))?;
    Ok(hex::encode(bytes))
}

/// The hex SHA-256 of a secret: what the database keeps of a session id or
/// an API token.
pub fn digest(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// Compare two secrets in time that does not depend on where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// An argon2id PHC string of `password`, with a fresh salt.
pub fn hash_password(password: &str) -> Result<String, ApiError> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| ApiError::internal(format!("the password could not be hashed: {e}")))
}

/// Whether `password` matches the stored PHC string (false for a damaged
/// one).
pub fn verify_password(stored: &str, password: &str) -> bool {
    match PasswordHash::new(stored) {
        Ok(parsed) => Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok(),
        Err(_) => false,
    }
}

/// The shortest password accepted.
pub const MIN_PASSWORD: usize = 10;

/// Check a new password; the error names the field.
pub fn check_new_password(password: &str) -> Result<(), ApiError> {
    if password.chars().count() < MIN_PASSWORD {
        return Err(ApiError::bad_request(format!(
            "the password must be at least {MIN_PASSWORD} characters long"
        ))
        .with_field("password"));
    }
    if password.len() > 1024 {
        return Err(
            ApiError::bad_request("the password is longer than 1024 bytes").with_field("password"),
        );
    }
    Ok(())
}

/// Normalise and check a username: 2 to 32 of `a-z 0-9 . _ -`, starting
/// with a letter or digit; compared lower-cased.
pub fn check_username(raw: &str) -> Result<String, ApiError> {
    let name = raw.trim().to_lowercase();
    let ok = (2..=32).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._-".contains(c))
        && name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric());
    if ok {
        Ok(name)
    } else {
        Err(ApiError::bad_request(
            "a username is 2 to 32 letters, digits, dots, dashes or underscores, starting with a letter or digit",
        )
        .with_field("username"))
    }
}

/// The value of cookie `name` in the request's `Cookie` headers.
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.trim_matches('"'))
}

/// A `Set-Cookie` value: `HttpOnly`, `SameSite=Lax`, `Path=/`, `Secure`
/// when configured, expiring after `max_age` (0 deletes it).
pub fn set_cookie(config: &AuthConfig, name: &str, value: &str, max_age: Duration) -> HeaderValue {
    let secure = if config.secure_cookies {
        "; Secure"
    } else {
        ""
    };
    let text = format!(
        "{name}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{secure}",
        max_age.as_secs()
    );
    // Names are constants and values hex: always a valid header value.
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static("invalid=; Max-Age=0"))
}

/// The caller of a request: an account (by session or API token) or
/// nobody.
#[derive(Debug, Clone, Default)]
pub struct Caller {
    pub account: Option<Account>,
    /// The browser session, when logged in by cookie.
    pub session: Option<Session>,
    /// Logged in with an API token (no CSRF token needed).
    pub by_token: bool,
    /// The `arbiter_csrf` cookie, for forms before logging in.
    pub pre_csrf: Option<String>,
    /// The client's address, for throttling.
    pub address: Option<IpAddr>,
}

impl Caller {
    pub fn username(&self) -> Option<&str> {
        self.account.as_ref().map(|a| a.username.as_str())
    }

    /// The account, or 401.
    pub fn account(&self) -> Result<&Account, ApiError> {
        self.account.as_ref().ok_or_else(|| {
            ApiError::new(
                axum::http::StatusCode::UNAUTHORIZED,
                ErrorCode::Unauthorized,
                "log in first (a session cookie or an API token)",
            )
        })
    }

    /// The CSRF token a form shown to this caller must carry.
    pub fn csrf_token(&self) -> Option<&str> {
        match &self.session {
            Some(s) => Some(&s.csrf),
            None => self.pre_csrf.as_deref(),
        }
    }

    /// Check the CSRF token of a state-changing request: the submitted one
    /// must equal the session's (or, with no session, the pre-login
    /// cookie's). A caller by API token needs none.
    pub fn check_csrf(&self, submitted: Option<&str>) -> Result<(), ApiError> {
        if self.by_token {
            return Ok(());
        }
        match (self.csrf_token(), submitted) {
            (Some(expected), Some(got)) if same_secret(expected, got) => Ok(()),
            _ => Err(ApiError::new(
                axum::http::StatusCode::FORBIDDEN,
                ErrorCode::Forbidden,
                "the form is out of date or did not come from this site (CSRF token missing or wrong): reload the page and try again",
            )
            .with_field(CSRF_FIELD)),
        }
    }

    /// The caller's roles in `competition`.
    pub async fn roles(&self, state: &AppState, competition: &str) -> Result<Roles, ApiError> {
        let Some(account) = &self.account else {
            return Ok(Roles::default());
        };
        let grants = state
            .service
            .store()
            .grants_of(&account.username)
            .await
            .map_err(ApiError::from_store)?;
        Ok(Roles::from_grants(
            grants.iter().filter(|g| g.competition == competition),
        ))
    }
}

/// What an account is in one competition.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Roles {
    pub owner: bool,
    pub moderator: bool,
    /// The player the account acts as: linked by the competition's own
    /// events (ARB-R50), filled in once its state is loaded; grants never
    /// give it.
    pub player: Option<arbiter_engine::model::PlayerId>,
}

impl Roles {
    pub fn from_grants<'a>(grants: impl IntoIterator<Item = &'a Grant>) -> Self {
        let mut roles = Roles::default();
        for g in grants {
            match g.role {
                Role::Owner => roles.owner = true,
                Role::Moderator => roles.moderator = true,
                // A directory entry only (ARB-R50): no right comes from it.
                Role::Player => {}
            }
        }
        roles
    }

    /// Owner or moderator.
    pub fn moderates(&self) -> bool {
        self.owner || self.moderator
    }

    /// The strongest role, in words.
    pub fn describe(&self) -> &'static str {
        if self.owner {
            "owner"
        } else if self.moderator {
            "moderator"
        } else if self.player.is_some() {
            "player"
        } else {
            "public"
        }
    }
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let store = state.service.store();
        let address = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip());
        let pre_csrf = cookie(&parts.headers, PRE_CSRF_COOKIE)
            .filter(|v| v.len() == 64 && v.bytes().all(|b| b.is_ascii_hexdigit()))
            .map(str::to_string);
        let mut caller = Caller {
            pre_csrf,
            address,
            ..Caller::default()
        };
        if let Some(auth) = parts.headers.get(header::AUTHORIZATION) {
            let token = auth
                .to_str()
                .ok()
                .and_then(|v| v.strip_prefix("Bearer "))
                .map(str::trim)
                .ok_or_else(|| unauthorized("the Authorization header must be `Bearer <token>`"))?;
            let found: Option<ApiToken> = store
                .token(&digest(token))
                .await
                .map_err(ApiError::from_store)?;
            let token = found
                .ok_or_else(|| unauthorized("the API token is not valid (revoked, or mistyped)"))?;
            caller.account = store
                .account(&token.username)
                .await
                .map_err(ApiError::from_store)?;
            if caller.account.is_none() {
                return Err(unauthorized("the API token's account no longer exists"));
            }
            caller.by_token = true;
            return Ok(caller);
        }
        if let Some(id) = cookie(&parts.headers, SESSION_COOKIE) {
            let now = state.now().timestamp();
            if let Some(session) = store
                .session(&digest(id), now)
                .await
                .map_err(ApiError::from_store)?
            {
                caller.account = store
                    .account(&session.username)
                    .await
                    .map_err(ApiError::from_store)?;
                if caller.account.is_some() {
                    caller.session = Some(session);
                }
            }
        }
        Ok(caller)
    }
}

fn unauthorized(message: &str) -> ApiError {
    ApiError::new(
        axum::http::StatusCode::UNAUTHORIZED,
        ErrorCode::Unauthorized,
        message,
    )
}

/// Start a session for `username`: a fresh id (never one the browser
/// brought), its digest stored with a fresh CSRF token. Returns the cookie
/// to set.
pub async fn start_session(state: &AppState, username: &str) -> Result<HeaderValue, ApiError> {
    let id = random_token()?;
    let now = state.now().timestamp();
    let ttl = state.auth.session_ttl;
    let session = Session {
        id_hash: digest(&id),
        username: username.to_string(),
        csrf: random_token()?,
        created_at: now,
        expires_at: now.saturating_add(i64::try_from(ttl.as_secs()).unwrap_or(i64::MAX)),
    };
    let store = state.service.store();
    store
        .put_session(&session)
        .await
        .map_err(ApiError::from_store)?;
    // Expired sessions go when someone logs in: no timer needed.
    store
        .purge_sessions(now)
        .await
        .map_err(ApiError::from_store)?;
    Ok(set_cookie(&state.auth, SESSION_COOKIE, &id, ttl))
}

/// End the caller's session; the cookie that deletes it.
pub async fn end_session(state: &AppState, headers: &HeaderMap) -> Result<HeaderValue, ApiError> {
    if let Some(id) = cookie(headers, SESSION_COOKIE) {
        state
            .service
            .store()
            .delete_session(&digest(id))
            .await
            .map_err(ApiError::from_store)?;
    }
    Ok(set_cookie(&state.auth, SESSION_COOKIE, "", Duration::ZERO))
}

/// Failed logins in a sliding window, per username and per address.
#[derive(Debug, Default)]
pub struct Throttle {
    failures: Mutex<HashMap<String, (u32, Instant)>>,
}

impl Throttle {
    fn keys(username: &str, address: Option<IpAddr>) -> [Option<String>; 2] {
        [
            Some(format!("user:{username}")),
            address.map(|a| format!("addr:{a}")),
        ]
    }

    /// `Err(seconds to wait)` when `username` or `address` has failed too
    /// often within the window.
    pub fn check(
        &self,
        config: &AuthConfig,
        username: &str,
        address: Option<IpAddr>,
    ) -> Result<(), u64> {
        let Ok(map) = self.failures.lock() else {
            return Ok(());
        };
        let [user, addr] = Self::keys(username, address);
        for (key, limit) in [
            (user, config.max_failures_per_user),
            (addr, config.max_failures_per_address),
        ] {
            let Some(key) = key else { continue };
            if let Some((count, since)) = map.get(&key) {
                let age = since.elapsed();
                if age < config.throttle_window && *count >= limit {
                    return Err((config.throttle_window - age).as_secs().max(1));
                }
            }
        }
        Ok(())
    }

    pub fn failed(&self, config: &AuthConfig, username: &str, address: Option<IpAddr>) {
        let Ok(mut map) = self.failures.lock() else {
            return;
        };
        // Keep the map small: forget windows that are over.
        if map.len() > 10_000 {
            map.retain(|_, (_, since)| since.elapsed() < config.throttle_window);
        }
        for key in Self::keys(username, address).into_iter().flatten() {
            let entry = map.entry(key).or_insert((0, Instant::now()));
            if entry.1.elapsed() >= config.throttle_window {
                *entry = (0, Instant::now());
            }
            entry.0 += 1;
        }
    }

    /// A successful login clears the username's failures (not the
    /// address's).
    pub fn succeeded(&self, username: &str) {
        if let Ok(mut map) = self.failures.lock() {
            map.remove(&format!("user:{username}"));
        }
    }
}

/// Check a login: the account when the password matches. Throttled; the
/// same answer for an unknown username and a wrong password.
pub async fn login(
    state: &AppState,
    caller: &Caller,
    username: &str,
    password: &str,
) -> Result<Account, ApiError> {
    let username = username.trim().to_lowercase();
    if let Err(wait) = state.throttle.check(&state.auth, &username, caller.address) {
        tracing::warn!(%username, address = ?caller.address, "login refused: throttled");
        return Err(ApiError::new(
            axum::http::StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::Throttled,
            format!(
                "too many failed logins; try again in {} minutes",
                wait.div_ceil(60)
            ),
        )
        .with_retry_after(wait));
    }
    let account = state
        .service
        .store()
        .account(&username)
        .await
        .map_err(ApiError::from_store)?;
    // Hash even for an unknown username, so timing does not tell which
    // usernames exist.
    let stored = account
        .as_ref()
        .map(|a| a.password_hash.clone())
        .unwrap_or_else(|| DUMMY_HASH.to_string());
    let password = password.to_string();
    let ok = tokio::task::spawn_blocking(move || verify_password(&stored, &password))
        .await
        .unwrap_or(false);
    match account {
        Some(account) if ok => {
            state.throttle.succeeded(&username);
            Ok(account)
        }
        _ => {
            // For whoever watches the log: repeated failures are an attack.
            tracing::warn!(%username, address = ?caller.address, "failed login");
            state
                .throttle
                .failed(&state.auth, &username, caller.address);
            Err(unauthorized("the username or the password is wrong"))
        }
    }
}

/// A valid argon2id hash of a random password, checked against when the
/// username does not exist.
const DUMMY_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$3BkUKZAamW5WYhVNzNuh2+jdwQmeOCqyWhjm4gk+X5M";

/// Create an account (hashing the password off the async threads).
pub async fn create_account(
    store: &(impl AccountStore + ?Sized),
    at: arbiter_engine::model::Time,
    username: &str,
    display_name: &str,
    email: Option<&str>,
    password: &str,
    organizer: bool,
) -> Result<Account, ApiError> {
    let username = check_username(username)?;
    // The one name check of every format (ARB-R22, ARB-R50): no invisible
    // or direction characters, and nothing of the form of an id.
    let display_name = arbiter_engine::model::person_name(display_name, 60)
        .map_err(|why| ApiError::bad_request(format!("the name shown {why}")).with_field("name"))?;
    let display_name = display_name.as_str();
    let email = email.map(str::trim).filter(|e| !e.is_empty());
    if let Some(e) = email
        && (!e.contains('@')
            || e.len() > 254
            || e.chars().any(|c| c.is_whitespace() || c.is_control()))
    {
        return Err(ApiError::bad_request("the e-mail address is not valid").with_field("email"));
    }
    check_new_password(password)?;
    let password = password.to_string();
    let hash = tokio::task::spawn_blocking(move || hash_password(&password))
        .await
        .map_err(|e| ApiError::internal(format!("hashing failed: {e}")))??;
    let account = Account {
        username,
        display_name: display_name.to_string(),
        email: email.map(str::to_string),
        password_hash: hash,
        organizer,
        created_at: at.to_rfc3339(),
    };
    store
        .create_account(&account)
        .await
        .map_err(ApiError::from_store)?;
    Ok(account)
}

/// Make an API token for `username`; the token itself is shown once and
/// only its digest is kept.
pub async fn create_token(
    state: &AppState,
    username: &str,
    label: &str,
) -> Result<String, ApiError> {
    let label = label.trim();
    if label.is_empty() || label.chars().count() > 60 || label.chars().any(char::is_control) {
        return Err(
            ApiError::bad_request("a token's label is 1 to 60 characters").with_field("label"),
        );
    }
    let token = format!("arb_{}", random_token()?);
    state
        .service
        .store()
        .put_token(&ApiToken {
            hash: digest(&token),
            username: username.to_string(),
            label: label.to_string(),
            created_at: state.now().to_rfc3339(),
        })
        .await
        .map_err(ApiError::from_store)?;
    Ok(token)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    #[test]
    fn passwords_verify_and_salts_differ() {
        let a = hash_password("correct horse battery").unwrap();
        let b = hash_password("correct horse battery").unwrap();
        assert_ne!(a, b);
        assert!(a.starts_with("$argon2id$"));
        assert!(verify_password(&a, "correct horse battery"));
        assert!(!verify_password(&a, "correct horse battery!"));
        assert!(!verify_password("not a hash", "x"));
    }

    #[test]
    fn dummy_hash_parses() {
        assert!(PasswordHash::new(DUMMY_HASH).is_ok());
        assert!(!verify_password(DUMMY_HASH, "anything"));
    }

    #[test]
    fn cookies_parse() {
        let mut h = HeaderMap::new();
        h.append(
            header::COOKIE,
            HeaderValue::from_static("a=1; arbiter_session=abc ; b=2"),
        );
        h.append(
            header::COOKIE,
            HeaderValue::from_static("arbiter_csrf=\"q\""),
        );
        assert_eq!(cookie(&h, "arbiter_session"), Some("abc"));
        assert_eq!(cookie(&h, "arbiter_csrf"), Some("q"));
        assert_eq!(cookie(&h, "c"), None);
    }

    #[test]
    fn set_cookie_has_the_attributes() {
        let c = set_cookie(
            &AuthConfig::default(),
            SESSION_COOKIE,
            "ab",
            Duration::from_secs(60),
        );
        let c = c.to_str().unwrap();
        for part in ["HttpOnly", "SameSite=Lax", "Secure", "Path=/", "Max-Age=60"] {
            assert!(c.contains(part), "{c}");
        }
    }

    #[test]
    fn usernames() {
        assert_eq!(check_username(" Alice.B ").unwrap(), "alice.b");
        for bad in ["a", "-x", "has space", "ünï", &"x".repeat(33)] {
            assert!(check_username(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn secrets_compare() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd"));
        assert!(!same_secret("abc", "ab"));
    }

    #[test]
    fn throttle_counts_per_user_and_address() {
        let config = AuthConfig {
            max_failures_per_user: 2,
            max_failures_per_address: 3,
            ..AuthConfig::default()
        };
        let t = Throttle::default();
        let ip: IpAddr = "127.0.0.1".parse().unwrap();
        t.failed(&config, "a", Some(ip));
        assert!(t.check(&config, "a", Some(ip)).is_ok());
        t.failed(&config, "a", Some(ip));
        assert!(t.check(&config, "a", Some(ip)).is_err());
        assert!(t.check(&config, "b", Some(ip)).is_ok());
        t.failed(&config, "b", Some(ip));
        // The address has failed three times: every username is refused.
        assert!(t.check(&config, "c", Some(ip)).is_err());
        assert!(t.check(&config, "c", None).is_ok());
        t.succeeded("a");
        assert!(t.check(&config, "a", None).is_ok());
    }
}
