//! Rendered public pages, kept per competition version (issue 17 §4).
//!
//! A competition's public pages (`/c/{id}` and its history, rounds,
//! players, statistics, seasons, ratings and "what is still possible") are
//! functions of its events, the clock and the reader. Events are only ever
//! appended, so a page rendered at the store's version `v` is valid while
//! the version is `v`; the clock enters through deadlines and countdowns,
//! so a page is kept for the minute it was rendered in; and the reader
//! enters only when he is logged in or sends a token, so such a request is
//! never answered from here nor kept (an anonymous reader's page is the
//! same for every anonymous reader).
//!
//! A hit costs the version query (shared by concurrent requests through the
//! API's gate, [`crate::api::competitions::version_of`]) and a map lookup,
//! instead of loading the competition, building its view and rendering the
//! template. The version is asked of the store on every request, never
//! kept in memory: another process (the CLI, a second server on the same
//! PostgreSQL database) may append, and a request answered from a version
//! read before it arrived could show a page from before a change it came
//! after (`tests/page_cache.rs` writes through a second server). A page
//! rendered while a write lands may show a newer state than the version it
//! is kept under, never an older one; the next request reads the new
//! version and renders again.
//!
//! The middleware sits in front of the router, inside every layer of
//! `app` (request id, tracing, security headers, compression, the
//! cross-site refusal, the timeout, the body limit), so that a page it
//! answers is sent as any other; only the requests it may answer go
//! through it (anonymous GETs of kept pages, [`consulted`]), the others
//! pass it by. A kept page also keeps its body as the compression layer
//! encodes it for each `Accept-Encoding` a request brought (at most
//! [`ENCODINGS`] of them, made once by the layer itself), so that a browser
//! asking for gzip is not compressed for on every hit.
//!
//! Only a 200 HTML answer without `Set-Cookie` is kept, at most
//! [`MOST_PAGES`] per competition (query strings make many) and none over
//! [`LARGEST_PAGE`] bytes; a competition that does not exist keeps nothing.
//! Answers say `x-arbiter-page-cache: hit` or `miss` (nothing when the
//! cache was not consulted).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::AppState;

/// Pages kept per competition at most (each path with its query is one).
pub const MOST_PAGES: usize = 256;
/// The largest page kept, in bytes.
pub const LARGEST_PAGE: usize = 4 << 20;
/// The header that says whether the cache answered.
pub const CACHE_HEADER: &str = "x-arbiter-page-cache";

/// The path segments after `/c/{id}/` whose pages are kept; the others
/// (the desk, its forms, what-if and the projection, which keep their own
/// results, calendars) are always rendered.
const KEPT: &[&str] = &[
    "history", "rounds", "players", "stats", "seasons", "ratings", "clinch",
];

/// The kept pages, by competition (one per server, [`AppState::pages`]).
#[derive(Default)]
pub struct PageCache(Mutex<HashMap<String, Kept>>);

impl std::fmt::Debug for PageCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PageCache")
    }
}

/// One competition's pages at one version and minute.
struct Kept {
    version: u64,
    minute: i64,
    /// By path and query.
    pages: HashMap<String, Arc<Page>>,
}

struct Page {
    content_type: HeaderValue,
    body: Bytes,
    /// The page as the compression layer encodes it, by the exact
    /// `Accept-Encoding` of the requests that asked (a browser sends the
    /// same every time), at most [`ENCODINGS`] of them: `None` when the
    /// layer would not encode it. Made at the first request that asks.
    encoded: Mutex<Vec<(HeaderValue, Option<Encoded>)>>,
}

/// A page's body encoded, and its encoding.
#[derive(Clone)]
struct Encoded {
    content_encoding: HeaderValue,
    body: Bytes,
}

/// The `Accept-Encoding` values a kept page keeps its encoded body for; a
/// request with another is compressed by the layer, as any answer is.
const ENCODINGS: usize = 4;

impl Page {
    fn new(content_type: HeaderValue, body: Bytes) -> Self {
        Self {
            content_type,
            body,
            encoded: Mutex::new(Vec::new()),
        }
    }

    fn encodings(&self) -> std::sync::MutexGuard<'_, Vec<(HeaderValue, Option<Encoded>)>> {
        // Consistent after any panic (plain pushes).
        self.encoded
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The body for a request that accepts `accept`: the kept encoding when
    /// there is one, else made by the very compression layer every answer
    /// goes through (`crate::app::compression`), so that the bytes and
    /// headers are what the layer would have sent; `None`: the body as it
    /// is (the layer then does what it always does).
    async fn encoded_for(&self, accept: &HeaderValue) -> Option<Encoded> {
        if let Some((_, kept)) = self.encodings().iter().find(|(a, _)| a == accept) {
            return kept.clone();
        }
        if self.encodings().len() >= ENCODINGS {
            return None;
        }
        let encoded = encode(&self.content_type, &self.body, accept).await;
        let mut encodings = self.encodings();
        if encodings.len() < ENCODINGS && !encodings.iter().any(|(a, _)| a == accept) {
            encodings.push((accept.clone(), encoded.clone()));
        }
        encoded
    }
}

/// `body` as the compression layer answers a request with `accept`, if it
/// encodes it.
async fn encode(content_type: &HeaderValue, body: &Bytes, accept: &HeaderValue) -> Option<Encoded> {
    use tower::{Layer as _, ServiceExt as _};
    let page = {
        let (content_type, body) = (content_type.clone(), body.clone());
        tower::service_fn(move |_: Request| {
            let response =
                ([(header::CONTENT_TYPE, content_type.clone())], body.clone()).into_response();
            std::future::ready(Ok::<_, std::convert::Infallible>(response))
        })
    };
    let mut request = Request::new(Body::empty());
    request
        .headers_mut()
        .insert(header::ACCEPT_ENCODING, accept.clone());
    let response = crate::app::compression()
        .layer(page)
        .oneshot(request)
        .await
        .ok()?;
    if response.status() != StatusCode::OK {
        return None;
    }
    let content_encoding = response.headers().get(header::CONTENT_ENCODING)?.clone();
    let body = axum::body::to_bytes(Body::new(response.into_body()), LARGEST_PAGE)
        .await
        .ok()?;
    Some(Encoded {
        content_encoding,
        body,
    })
}

impl PageCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Kept>> {
        // The map is consistent after any panic (plain inserts).
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// How many pages are kept, over every competition.
    pub fn len(&self) -> usize {
        self.lock().values().map(|k| k.pages.len()).sum()
    }

    /// Whether no page is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn get(&self, id: &str, version: u64, minute: i64, key: &str) -> Option<Arc<Page>> {
        let kept = self.lock();
        let k = kept.get(id)?;
        if k.version != version || k.minute != minute {
            return None;
        }
        k.pages.get(key).cloned()
    }

    fn put(&self, id: &str, version: u64, minute: i64, key: String, page: Arc<Page>) {
        let mut kept = self.lock();
        let k = kept.entry(id.to_string()).or_insert_with(|| Kept {
            version,
            minute,
            pages: HashMap::new(),
        });
        if (version, minute) > (k.version, k.minute) {
            k.version = version;
            k.minute = minute;
            k.pages.clear();
        }
        if (version, minute) == (k.version, k.minute)
            && (k.pages.len() < MOST_PAGES || k.pages.contains_key(&key))
        {
            k.pages.insert(key, page);
        }
    }
}

/// The competition of a kept page's path: `/c/{id}` or
/// `/c/{id}/{one of KEPT}[/…]`.
fn kept_competition(path: &str) -> Option<&str> {
    let rest = path.strip_prefix("/c/")?;
    let (id, tail) = match rest.split_once('/') {
        Some((id, tail)) => (id, Some(tail)),
        None => (rest, None),
    };
    if arbiter_service::check_competition_id(id).is_err() {
        return None;
    }
    match tail {
        None => Some(id),
        Some(tail) => {
            let first = tail.split('/').next().unwrap_or_default();
            KEPT.contains(&first).then_some(id)
        }
    }
}

/// Whether the cache answers or keeps a request: an anonymous GET of a
/// kept page (the others pass by it, `app`'s `Only`).
pub(crate) fn consulted(method: &Method, uri: &Uri, headers: &HeaderMap) -> bool {
    *method == Method::GET && !identified(headers) && kept_competition(uri.path()).is_some()
}

/// Whether the request says who reads (a session or a token): such a
/// reader may see his own page.
fn identified(headers: &HeaderMap) -> bool {
    if headers.contains_key(header::AUTHORIZATION) {
        return true;
    }
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .any(|c| {
            c.trim()
                .strip_prefix(crate::auth::SESSION_COOKIE)
                .is_some_and(|v| v.starts_with('='))
        })
}

fn marked(mut response: Response, how: &'static str) -> Response {
    response
        .headers_mut()
        .insert(CACHE_HEADER, HeaderValue::from_static(how));
    response
}

/// Middleware over the pages: answer a kept page, or render it and keep
/// it (see the module's text).
pub(crate) async fn serve(
    State(state): State<Arc<AppState>>,
    request: Request,
    next: Next,
) -> Response {
    if !consulted(request.method(), request.uri(), request.headers()) {
        return next.run(request).await;
    }
    let Some(id) = kept_competition(request.uri().path()) else {
        return next.run(request).await;
    };
    let version = match crate::api::competitions::version_of(&state, id).await {
        Ok(v) if v > 0 => v,
        // No such competition, or the store failed: the page says so.
        _ => return next.run(request).await,
    };
    let minute = state.now().timestamp().div_euclid(60);
    let key = request
        .uri()
        .path_and_query()
        .map_or_else(|| request.uri().path(), |p| p.as_str());
    if let Some(page) = state.pages.get(id, version, minute, key) {
        let encoded = match request.headers().get(header::ACCEPT_ENCODING) {
            Some(accept) => page.encoded_for(accept).await,
            None => None,
        };
        let response = match encoded {
            Some(encoded) => (
                StatusCode::OK,
                [
                    (header::CONTENT_TYPE, page.content_type.clone()),
                    (header::CONTENT_ENCODING, encoded.content_encoding),
                    (header::VARY, HeaderValue::from_static("accept-encoding")),
                ],
                encoded.body,
            )
                .into_response(),
            None => (
                StatusCode::OK,
                [(header::CONTENT_TYPE, page.content_type.clone())],
                page.body.clone(),
            )
                .into_response(),
        };
        return marked(response, "hit");
    }
    let (id, key) = (id.to_string(), key.to_string());
    let response = next.run(request).await;
    let keepable = response.status() == StatusCode::OK
        && !response.headers().contains_key(header::SET_COOKIE)
        && response
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|t| t.starts_with("text/html"));
    if !keepable {
        return response;
    }
    let (parts, body) = response.into_parts();
    let Ok(body) = axum::body::to_bytes(body, LARGEST_PAGE).await else {
        // Over the limit (or a failed body): rendered again next time.
        return (
            StatusCode::INTERNAL_SERVER_ERROR,
            "the page was too large to send",
        )
            .into_response();
    };
    if let Some(content_type) = parts.headers.get(header::CONTENT_TYPE).cloned() {
        state.pages.put(
            &id,
            version,
            minute,
            key,
            Arc::new(Page::new(content_type, body.clone())),
        );
    }
    marked(Response::from_parts(parts, Body::from(body)), "miss")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_paths() {
        assert_eq!(kept_competition("/c/tws-demo"), Some("tws-demo"));
        assert_eq!(kept_competition("/c/tws-demo/rounds/3"), Some("tws-demo"));
        assert_eq!(kept_competition("/c/tws-demo/history"), Some("tws-demo"));
        // The players index (its filter in the query, part of the key).
        assert_eq!(kept_competition("/c/tws-demo/players"), Some("tws-demo"));
        assert_eq!(kept_competition("/c/tws-demo/manage"), None);
        assert_eq!(kept_competition("/c/tws-demo/what-if"), None);
        assert_eq!(kept_competition("/c/tws-demo/projection"), None);
        assert_eq!(kept_competition("/c/../etc"), None);
        assert_eq!(kept_competition("/stats"), None);
        assert_eq!(kept_competition("/c/"), None);
    }

    #[test]
    fn a_newer_version_replaces_the_pages_and_the_count_is_bounded() {
        let cache = PageCache::default();
        let page = |s: &str| {
            Arc::new(Page::new(
                HeaderValue::from_static("text/html"),
                Bytes::from(s.to_string()),
            ))
        };
        cache.put("a", 3, 10, "/c/a".into(), page("v3"));
        assert!(cache.get("a", 3, 10, "/c/a").is_some());
        assert!(cache.get("a", 4, 10, "/c/a").is_none());
        assert!(cache.get("a", 3, 11, "/c/a").is_none());
        // An older render arriving late does not replace the newer pages.
        cache.put("a", 4, 10, "/c/a".into(), page("v4"));
        cache.put("a", 3, 10, "/c/a/history".into(), page("old"));
        assert_eq!(cache.len(), 1);
        assert_eq!(
            cache.get("a", 4, 10, "/c/a").map(|p| p.body.clone()),
            Some(Bytes::from("v4"))
        );
        for i in 0..2 * MOST_PAGES {
            cache.put("a", 4, 10, format!("/c/a/history?page={i}"), page("x"));
        }
        assert_eq!(cache.len(), MOST_PAGES);
    }
}
