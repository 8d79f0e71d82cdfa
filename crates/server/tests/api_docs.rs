//! `GET /docs/api` (issue 17 §3): the JSON API's reference, rendered on the
//! server from the OpenAPI document, offline: every operation of
//! `/api/openapi.json` has its section, every schema its own, every link
//! inside the page reaches a section of it, and the page loads nothing but
//! this server's stylesheet (no script, nothing from elsewhere).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeSet;

use arbiter_server::AppState;
use arbiter_service::Service;
use arbiter_store_sqlite::SqliteStore;
use axum::body::Body;
use axum::http::{Request, StatusCode};

async fn app() -> axum::Router {
    let store = SqliteStore::open_in_memory().await.unwrap();
    arbiter_server::app(AppState::new(Service::new(store)))
}

fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

/// The values of attribute `name` in `html`.
fn attributes<'a>(html: &'a str, name: &str) -> Vec<&'a str> {
    let key = format!(" {name}=\"");
    html.match_indices(&key)
        .filter_map(|(i, _)| {
            let rest = &html[i + key.len()..];
            rest.find('"').map(|end| &rest[..end])
        })
        .collect()
}

#[tokio::test]
async fn every_operation_and_schema_of_the_document_has_its_section() {
    let app = app().await;
    let doc = common::oneshot(
        &app,
        Request::get("/api/openapi.json")
            .body(Body::empty())
            .unwrap(),
    )
    .await
    .json();
    let page = common::oneshot(&app, Request::get("/docs/api").body(Body::empty()).unwrap()).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.header("content-type").starts_with("text/html"));
    let html = String::from_utf8(page.body).unwrap();
    let ids: BTreeSet<&str> = attributes(&html, "id").into_iter().collect();
    let mut operations = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, _) in item.as_object().unwrap() {
            if !["get", "post", "put", "patch", "delete"].contains(&method.as_str()) {
                continue;
            }
            operations += 1;
            let anchor = format!("{method}-{}", slug(path));
            assert!(
                ids.contains(anchor.as_str()),
                "no section {anchor} for {method} {path}"
            );
            assert!(
                html.contains(&format!("<code>{} {}</code>", method.to_uppercase(), path)),
                "{method} {path} is not named"
            );
        }
    }
    assert!(operations >= 25, "{operations} operations");
    assert!(html.contains(&format!("{operations} operations")));
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    for name in schemas.keys() {
        let anchor = format!("schema-{}", name.to_lowercase());
        assert!(
            ids.contains(anchor.as_str()),
            "no section for schema {name}"
        );
    }
    // Every link inside the page reaches a section of it.
    for href in attributes(&html, "href") {
        if let Some(target) = href.strip_prefix('#') {
            assert!(
                ids.contains(target),
                "a link to #{target}, which the page lacks"
            );
        }
    }
    // A field of a schema and its type, linked: the competition view's
    // one-of names each format's view.
    assert!(
        html.contains(r##"<a href="#schema-competitionview"><code>CompetitionView</code></a>"##),
        "{html}"
    );
    // Offline: no script, and nothing loaded from elsewhere.
    let start = html.find("<main").unwrap_or(0);
    assert!(
        !html[start..].contains("<script"),
        "the reference needs no script"
    );
    for src in attributes(&html, "src") {
        assert!(src.starts_with('/'), "{src} is not this server's");
    }
    for tag in html.split("<link ").skip(1) {
        let tag = format!(" {tag}");
        let href = attributes(&tag, "href").first().copied().unwrap_or("");
        assert!(href.starts_with('/'), "a stylesheet from elsewhere: {href}");
    }
}
