//! The application: the API and the pages behind the layers every request
//! goes through.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::Router;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tower::ServiceBuilder;
use tower::util::future::EitherResponseFuture;
use tower_http::compression::CompressionLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::request_id::{
    MakeRequestId, PropagateRequestIdLayer, RequestId, SetRequestIdLayer,
};
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::{DefaultOnResponse, TraceLayer};

use crate::{AppState, api, error, pages};

/// Scripts and styles from this server only; no inline script or style, no
/// plugin, no framing, forms post only here. Images may be inline `data:`
/// (charts are inline SVG elements, which need nothing).
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/// The whole application over `state`.
///
/// Layers, outermost first: a request id (`x-request-id`, kept when the
/// client sends one, echoed on the response), tracing with that id, the
/// security headers, gzip compression, the API's error shape (requests
/// under `/api`), the refusal of cross-site writes (requests that may
/// change something), the timeout, the body limit, the competitions' JSON
/// views kept at their version (`GET /api/competitions/{id}`), the page
/// cache (the anonymous GETs of kept pages, [`pages::cache`]); then the
/// routes.
pub fn app(state: AppState) -> Router {
    let config = state.config;
    // What the middlewares share: axum clones a middleware's state for
    // every request, and an `Arc` costs one count.
    let shared = Arc::new(state.clone());
    // (The extractors are named: `Only` leaves them to infer.)
    let same_site = axum::middleware::from_fn_with_state::<_, _, (State<Arc<AppState>>, Request)>(
        Arc::clone(&shared),
        refuse_cross_site,
    );
    let x_request_id = HeaderName::from_static("x-request-id");
    let layers = ServiceBuilder::new()
        .layer(SetRequestIdLayer::new(x_request_id.clone(), RequestIds))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|request: &Request| {
                    let id = request
                        .headers()
                        .get("x-request-id")
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or("-");
                    tracing::info_span!(
                        "request",
                        method = %request.method(),
                        uri = %request.uri(),
                        request_id = %id,
                    )
                })
                // One line per answered request at the default level.
                .on_response(DefaultOnResponse::new().level(tracing::Level::INFO)),
        )
        .layer(PropagateRequestIdLayer::new(x_request_id))
        .map_response(security_headers)
        .layer(compression())
        .layer(Only::new(
            axum::middleware::from_fn::<_, (Request,)>(error::shape_api_errors),
            |_, uri, _| error::is_api_path(uri.path()),
        ))
        .layer(Only::new(same_site, |method, _, _| !is_read(method)))
        // Each middleware above and below takes a `Body` and answers one.
        .map_response(IntoResponse::into_response)
        .layer(TimeoutLayer::with_status_code(
            StatusCode::SERVICE_UNAVAILABLE,
            config.timeout,
        ))
        .layer(RequestBodyLimitLayer::new(config.body_limit))
        .map_request(|request: axum::http::Request<_>| request.map(axum::body::Body::new))
        .layer(Only::new(
            axum::middleware::from_fn_with_state::<_, _, (State<Arc<AppState>>, Request)>(
                Arc::clone(&shared),
                api::competitions::serve_kept,
            ),
            api::competitions::kept_view_asked,
        ))
        .layer(Only::new(
            axum::middleware::from_fn_with_state::<_, _, (State<Arc<AppState>>, Request)>(
                Arc::clone(&shared),
                pages::cache::serve,
            ),
            pages::cache::consulted,
        ));
    // Inside the cache: a page answered from it (anonymous readers only)
    // needs no reader; a request with a session gets his header.
    let viewer = axum::middleware::from_fn_with_state(shared, pages::viewer::layer);
    let routes = Router::new()
        .merge(api::routes())
        .merge(pages::routes().layer(viewer))
        .with_state(state);
    // The layers wrap the routes once, as one service, rather than each
    // route (`Router::layer` on the routes would stack them on every route,
    // and axum clones a route's whole stack, every state in it, for each
    // request it serves). A page the cache answers goes through every layer
    // above it like any other answer.
    Router::new().fallback_service(layers.service(routes))
}

/// The compression of every answer by the request's `Accept-Encoding`
/// (gzip); the page cache keeps what it makes of a kept page
/// ([`pages::cache`]).
pub(crate) fn compression() -> CompressionLayer {
    CompressionLayer::new()
}

/// The headers every answer carries unless its handler set its own: no
/// sniffing, the Content-Security-Policy, no referrer, no framing.
fn security_headers<B>(mut response: Response<B>) -> Response<B> {
    let headers = response.headers_mut();
    for (name, value) in [
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::X_FRAME_OPTIONS, "DENY"),
    ] {
        if let header::Entry::Vacant(slot) = headers.entry(name) {
            slot.insert(HeaderValue::from_static(value));
        }
    }
    response
}

/// Whether a request only reads (GET, HEAD, OPTIONS): a cross-site one is
/// harmless and passes.
fn is_read(method: &Method) -> bool {
    matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// Which requests a middleware in [`Only`] handles, from the request's
/// method, address and headers.
type Applies = fn(&Method, &Uri, &HeaderMap) -> bool;

/// A middleware that only the requests `applies` picks go through; the
/// others go straight to the service inside, without the middleware's
/// costs (a boxed future, a clone of the stack below it). For middlewares
/// that pass the other requests on unchanged anyway: the API's error shape
/// (only `/api`), the cross-site refusal (only writes), the page cache
/// (only the pages it keeps). `L` makes an axum `from_fn` middleware, which
/// is always ready.
#[derive(Clone)]
struct Only<L> {
    layer: L,
    applies: Applies,
}

impl<L> Only<L> {
    fn new(layer: L, applies: Applies) -> Self {
        Self { layer, applies }
    }
}

impl<L: Clone, S> tower::Layer<S> for Only<L> {
    type Service = OnlyService<L, S>;

    fn layer(&self, inner: S) -> Self::Service {
        OnlyService {
            layer: self.layer.clone(),
            applies: self.applies,
            inner,
        }
    }
}

#[derive(Clone)]
struct OnlyService<L, S> {
    layer: L,
    applies: Applies,
    inner: S,
}

impl<L, S, B> tower::Service<axum::http::Request<B>> for OnlyService<L, S>
where
    L: tower::Layer<S>,
    L::Service: tower::Service<axum::http::Request<B>, Response = S::Response, Error = S::Error>,
    S: tower::Service<axum::http::Request<B>> + Clone,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = EitherResponseFuture<
        <L::Service as tower::Service<axum::http::Request<B>>>::Future,
        S::Future,
    >;

    fn poll_ready(
        &mut self,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: axum::http::Request<B>) -> Self::Future {
        if (self.applies)(request.method(), request.uri(), request.headers()) {
            // The service made ready goes to the middleware (as axum's
            // `from_fn` does it), a clone of it stays here.
            let clone = self.inner.clone();
            let ready = std::mem::replace(&mut self.inner, clone);
            tower::util::Either::<L::Service, &mut S>::Left(self.layer.layer(ready)).call(request)
        } else {
            tower::util::Either::<L::Service, &mut S>::Right(&mut self.inner).call(request)
        }
    }
}

/// The request ids of the requests that bring none: a UUID (version 4 in
/// form) from a counter mixed with two keys drawn once per process, so
/// that no request asks the kernel for randomness (`MakeRequestUuid` did,
/// one `getrandom` call per request). Ids are unique within a process (see
/// [`request_id`]) and, with 128 random key bits, unlikely to repeat
/// across processes; they correlate log lines and are no secret.
#[derive(Debug, Clone, Copy)]
struct RequestIds;

/// The keys of this process's request ids.
fn request_id_keys() -> (u64, u64) {
    static KEYS: std::sync::OnceLock<(u64, u64)> = std::sync::OnceLock::new();
    *KEYS.get_or_init(|| {
        let mut bytes = [0u8; 16];
        // Without the kernel's randomness (it does not fail on Linux), the
        // clock: ids stay unique within the process either way.
        if getrandom::fill(&mut bytes).is_err() {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos());
            bytes = (nanos ^ u128::from(std::process::id()) << 64).to_le_bytes();
        }
        let (a, b) = bytes.split_at(8);
        let word = |s: &[u8]| u64::from_le_bytes(s.try_into().unwrap_or_default());
        (word(a), word(b))
    })
}

/// The low 62 bits of `z`, mixed as SplitMix64's finalizer mixes (shifts
/// and odd multipliers within 62 bits): a bijection of those 62 bits.
fn mix62(z: u64) -> u64 {
    const LOW: u64 = (1 << 62) - 1;
    let mut z = z & LOW;
    z = ((z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9)) & LOW;
    z = ((z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb)) & LOW;
    z ^ (z >> 31)
}

/// The `n`th request id of a process with `keys`, as a hyphenated UUID:
/// its last 62 bits a bijection of `n` (so unique for the first 2^62
/// requests), its first 60 keyed noise.
fn request_id(keys: (u64, u64), n: u64) -> [u8; 36] {
    let hi = mix62(n ^ keys.0) ^ keys.1.rotate_left(17);
    let lo = mix62(n.wrapping_add(keys.1));
    // Version 4, variant RFC 4122, as a random UUID reads.
    let hi = (hi & !0xf000) | 0x4000;
    let lo = lo | (0b10 << 62);
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut text = [b'-'; 36];
    let mut at = 0;
    for (i, byte) in hi
        .to_be_bytes()
        .into_iter()
        .chain(lo.to_be_bytes())
        .enumerate()
    {
        if matches!(i, 4 | 6 | 8 | 10) {
            at += 1;
        }
        text[at] = HEX[usize::from(byte >> 4)];
        text[at + 1] = HEX[usize::from(byte & 0xf)];
        at += 2;
    }
    text
}

impl MakeRequestId for RequestIds {
    fn make_request_id<B>(&mut self, _: &Request<B>) -> Option<RequestId> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        HeaderValue::from_bytes(&request_id(request_id_keys(), n))
            .ok()
            .map(RequestId::new)
    }
}

/// Middleware, a second line behind the CSRF token (issue 14 item 7): a
/// state-changing request (any method but GET, HEAD and OPTIONS) that a
/// browser says comes from another site is refused with 403 before any
/// handler runs. A browser says so with `Sec-Fetch-Site: cross-site`, or
/// with an `Origin` that is not this server's. Programs (curl, scripts
/// with an API token) send neither and pass.
async fn refuse_cross_site(
    State(state): State<Arc<AppState>>,
    request: Request,
    next: Next,
) -> Response {
    if matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    ) {
        return next.run(request).await;
    }
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip().to_canonical());
    let from_proxy = peer.is_some_and(|p| state.auth.trusted_proxies.contains(&p));
    match cross_site(request.headers(), &state.base_url, from_proxy) {
        None => next.run(request).await,
        Some(reason) => {
            tracing::warn!(%reason, uri = %request.uri(), "cross-site write refused");
            error::ApiError::forbidden(format!(
                "{reason}: a change can only be sent from this site's own pages"
            ))
            .with_field("Origin")
            .into_response()
        }
    }
}

/// Why a write's headers show it comes from another site, if they do.
/// The origins of this server: its `Host` (or, from a trusted proxy, its
/// `X-Forwarded-Host`) with either scheme, and the origin of `base_url`
/// (the address it is configured to be reached at).
pub fn cross_site(headers: &HeaderMap, base_url: &str, from_proxy: bool) -> Option<String> {
    let text = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::trim)
    };
    // Fetch metadata is set by the browser, never by a page, so it decides
    // when present: a form posted from our own page under our
    // `Referrer-Policy: no-referrer` carries `Origin: null` in Chromium,
    // but `Sec-Fetch-Site: same-origin`.
    match text("sec-fetch-site") {
        Some(v) if v.eq_ignore_ascii_case("cross-site") => {
            return Some("the browser marked the request cross-site (Sec-Fetch-Site)".into());
        }
        Some(v) if v.eq_ignore_ascii_case("same-origin") => return None,
        _ => {}
    }
    let origin = text("origin")?;
    let refused = || {
        Some(format!(
            "the request comes from {:?}, another site (Origin)",
            origin.chars().take(100).collect::<String>()
        ))
    };
    // "null": a sandboxed frame, a file, a redirect across sites.
    let Some((scheme, host)) = origin.split_once("://") else {
        return refused();
    };
    if !matches!(scheme, "http" | "https") || host.contains('/') {
        return refused();
    }
    let same = |authority: &str| authority.trim().eq_ignore_ascii_case(host);
    let base = base_url
        .split_once("://")
        .map(|(_, rest)| rest.split('/').next().unwrap_or(""));
    let mut ours = vec![text("host"), base];
    if from_proxy {
        ours.push(text("x-forwarded-host").map(|h| h.split(',').next().unwrap_or("")));
    }
    if ours.into_iter().flatten().any(same) {
        None
    } else {
        refused()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn request_ids_read_as_uuids_and_do_not_repeat() {
        let keys = (0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210);
        let mut seen = std::collections::HashSet::new();
        for n in (0..20_000).chain([(1 << 62) - 2, (1 << 62) - 1]) {
            let id = String::from_utf8(request_id(keys, n).to_vec()).unwrap();
            let groups: Vec<&str> = id.split('-').collect();
            assert_eq!(
                groups.iter().map(|g| g.len()).collect::<Vec<_>>(),
                [8, 4, 4, 4, 12],
                "{id}"
            );
            assert!(
                id.bytes()
                    .all(|b| b == b'-' || b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
            );
            assert!(groups[2].starts_with('4'), "version 4: {id}");
            assert!(
                matches!(&groups[3][..1], "8" | "9" | "a" | "b"),
                "variant: {id}"
            );
            assert!(seen.insert(id), "repeated at {n}");
        }
    }

    #[test]
    fn cross_site_writes_are_told_apart() {
        let base = "https://arbiter.example";
        // No browser headers: a program.
        assert_eq!(cross_site(&headers(&[]), base, false), None);
        for same in [
            &[
                ("origin", "http://localhost:8080"),
                ("host", "localhost:8080"),
            ][..],
            &[
                ("origin", "https://arbiter.example"),
                ("host", "10.0.0.5:8080"),
            ],
            &[
                ("sec-fetch-site", "same-origin"),
                ("origin", "https://LOCALHOST"),
                ("host", "localhost"),
            ],
            // Chromium's form post under `Referrer-Policy: no-referrer`.
            &[
                ("sec-fetch-site", "same-origin"),
                ("origin", "null"),
                ("host", "localhost:8080"),
            ],
        ] {
            assert_eq!(cross_site(&headers(same), base, false), None, "{same:?}");
        }
        for other in [
            &[("sec-fetch-site", "cross-site")][..],
            &[
                ("origin", "https://evil.example"),
                ("host", "localhost:8080"),
            ],
            &[("origin", "null"), ("host", "localhost:8080")],
            &[
                ("sec-fetch-site", "same-site"),
                ("origin", "https://other.localhost:8080"),
                ("host", "localhost:8080"),
            ],
            &[
                ("origin", "https://localhost:8080.evil.example"),
                ("host", "localhost:8080"),
            ],
            &[
                ("origin", "https://evil.example"),
                ("host", "localhost"),
                ("x-forwarded-host", "evil.example"),
            ],
        ] {
            assert!(
                cross_site(&headers(other), base, false).is_some(),
                "{other:?}"
            );
        }
        // X-Forwarded-Host counts only from a trusted proxy.
        let proxied = headers(&[
            ("origin", "https://tt.example"),
            ("host", "127.0.0.1:8080"),
            ("x-forwarded-host", "tt.example"),
        ]);
        assert_eq!(cross_site(&proxied, base, true), None);
        assert!(cross_site(&proxied, base, false).is_some());
    }
}
