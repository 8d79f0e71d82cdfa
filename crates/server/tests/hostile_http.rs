//! Oversized bodies: every POST route of the API answers 413 with the API's
//! error shape (`{"error": {"code": "payload-too-large", ...}}`) to a body
//! over `Config::body_limit`, whether the request says its length honestly,
//! lies about it (a small `Content-Length` before a large body), or sends
//! it chunked with no length at all; and nothing is stored. The page forms
//! answer 413 too.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use common::ladder::{LADDER, World};
use common::{Answer, As, oneshot, send};

/// The default limit of `arbiter_server::Config` (1 MiB).
const LIMIT: usize = 1024 * 1024;

/// The API's POST routes.
fn api_routes() -> Vec<String> {
    vec![
        "/api/competitions".into(),
        format!("/api/competitions/{LADDER}/actions"),
        "/api/session".into(),
        "/api/accounts".into(),
        "/api/tokens".into(),
        format!("/api/competitions/{LADDER}/what-if"),
    ]
}

/// The page forms that take a POST.
fn page_routes() -> Vec<String> {
    vec![
        "/login".into(),
        "/logout".into(),
        "/account/tokens".into(),
        "/new".into(),
        format!("/c/{LADDER}/act"),
    ]
}

/// A JSON body of `size` bytes: one long string.
fn big_json(size: usize) -> Vec<u8> {
    let head = br#"{"name": ""#;
    let tail = br#""}"#;
    let mut body = head.to_vec();
    body.resize(size - tail.len(), b'x');
    body.extend_from_slice(tail);
    body
}

#[derive(Debug, Clone, Copy)]
enum Length {
    /// `Content-Length` is the body's length.
    Honest,
    /// `Content-Length: 100`, then the whole body.
    Lying,
    /// No length: a stream of 64 KiB chunks.
    Chunked,
}

fn request(uri: &str, token: &str, body: Vec<u8>, length: Length, json: bool) -> Request<Body> {
    let mut r = Request::builder()
        .method(Method::POST)
        .uri(uri)
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .header("If-Match", "\"v1\"")
        .header(
            header::CONTENT_TYPE,
            if json {
                "application/json"
            } else {
                "application/x-www-form-urlencoded"
            },
        );
    let body = match length {
        Length::Honest => {
            r = r.header(header::CONTENT_LENGTH, body.len());
            Body::from(body)
        }
        Length::Lying => {
            r = r.header(header::CONTENT_LENGTH, 100);
            Body::from(body)
        }
        Length::Chunked => {
            // A body of unknown length: what a chunked request gives.
            Body::from_stream(Body::from(body).into_data_stream())
        }
    };
    r.body(body).unwrap()
}

/// What the API shows of the stored data: the competitions and the
/// ladder's history.
async fn stored(w: &World) -> (String, String) {
    let list = send(
        &w.app,
        Method::GET,
        "/api/competitions",
        As::Nobody,
        &[],
        None,
    )
    .await;
    let history = send(
        &w.app,
        Method::GET,
        &format!("/api/competitions/{LADDER}/history"),
        As::Nobody,
        &[],
        None,
    )
    .await;
    assert_eq!(list.status, StatusCode::OK);
    assert_eq!(history.status, StatusCode::OK);
    (list.text(), history.text())
}

#[track_caller]
fn is_413_shaped(a: &Answer, what: &str) {
    assert_eq!(
        a.status,
        StatusCode::PAYLOAD_TOO_LARGE,
        "{what}: {}",
        a.text().chars().take(300).collect::<String>()
    );
    let body = a.strict_json();
    assert_eq!(body["error"]["code"], "payload-too-large", "{what}: {body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("larger")),
        "{what}: {body}"
    );
}

#[tokio::test]
async fn oversized_api_bodies_are_413_in_the_error_shape_and_store_nothing() {
    let w = World::new().await;
    let token = w.tokens["olga"].clone();
    let before = stored(&w).await;
    for uri in api_routes() {
        for length in [Length::Honest, Length::Lying, Length::Chunked] {
            let a = oneshot(
                &w.app,
                request(&uri, &token, big_json(LIMIT + 1), length, true),
            )
            .await;
            is_413_shaped(&a, &format!("POST {uri} ({length:?})"));
        }
        // A lot over the limit, chunked: still 413, not read whole.
        let a = oneshot(
            &w.app,
            request(&uri, &token, big_json(8 * LIMIT), Length::Chunked, true),
        )
        .await;
        is_413_shaped(&a, &format!("POST {uri} (8 MiB chunked)"));
    }
    assert_eq!(
        stored(&w).await,
        before,
        "an oversized body stored something"
    );
}

#[tokio::test]
async fn a_body_at_the_limit_is_read() {
    // Exactly the limit is not too large: the handler answers (here: the
    // body is not an account, so 400 naming the body), not the layer.
    let w = World::new().await;
    let token = w.tokens["olga"].clone();
    let a = oneshot(
        &w.app,
        request(
            "/api/accounts",
            &token,
            big_json(LIMIT),
            Length::Honest,
            true,
        ),
    )
    .await;
    assert_ne!(a.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", a.text());
    assert!(a.status.is_client_error(), "{}", a.status);
}

#[tokio::test]
async fn oversized_form_posts_are_413() {
    let w = World::new().await;
    let token = w.tokens["olga"].clone();
    let before = stored(&w).await;
    for uri in page_routes() {
        for length in [Length::Honest, Length::Lying, Length::Chunked] {
            let mut form = b"name=".to_vec();
            form.resize(LIMIT + 1, b'x');
            let a = oneshot(&w.app, request(&uri, &token, form, length, false)).await;
            assert_eq!(
                a.status,
                StatusCode::PAYLOAD_TOO_LARGE,
                "POST {uri} ({length:?}): {}",
                a.text().chars().take(300).collect::<String>()
            );
        }
    }
    assert_eq!(stored(&w).await, before);
}
