//! The application: the API and the pages behind the layers every request
//! goes through.

use std::net::SocketAddr;

use axum::Router;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tower::ServiceBuilder;
use tower_http::compression::CompressionLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::set_header::SetResponseHeaderLayer;
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
/// security headers, gzip compression, the API's error shape, the refusal
/// of cross-site writes, the timeout, the body limit.
pub fn app(state: AppState) -> Router {
    let config = state.config;
    let same_site = axum::middleware::from_fn_with_state(state.clone(), refuse_cross_site);
    let x_request_id = HeaderName::from_static("x-request-id");
    let layers = ServiceBuilder::new()
        .layer(SetRequestIdLayer::new(
            x_request_id.clone(),
            MakeRequestUuid,
        ))
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
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
        .layer(CompressionLayer::new())
        .layer(axum::middleware::from_fn(error::shape_api_errors))
        .layer(same_site)
        .layer(TimeoutLayer::with_status_code(
            StatusCode::SERVICE_UNAVAILABLE,
            config.timeout,
        ))
        .layer(RequestBodyLimitLayer::new(config.body_limit));
    let page_cache = axum::middleware::from_fn_with_state(state.clone(), pages::cache::serve);
    // Inside the cache: a page answered from it (anonymous readers only)
    // needs no reader; a request with a session gets his header.
    let viewer = axum::middleware::from_fn_with_state(state.clone(), pages::viewer::layer);
    Router::new()
        .merge(api::routes())
        .merge(pages::routes().layer(viewer).layer(page_cache))
        .with_state(state)
        .layer(layers)
}

/// Middleware, a second line behind the CSRF token (issue 14 item 7): a
/// state-changing request (any method but GET, HEAD and OPTIONS) that a
/// browser says comes from another site is refused with 403 before any
/// handler runs. A browser says so with `Sec-Fetch-Site: cross-site`, or
/// with an `Origin` that is not this server's. Programs (curl, scripts
/// with an API token) send neither and pass.
async fn refuse_cross_site(
    State(state): State<AppState>,
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
