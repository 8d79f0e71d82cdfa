//! "What is still possible" (ARB-R47) in process: the page and the API on
//! the demo (a running Sunjang season, a finished XMadn league) and on a
//! running XMadn league whose players' names are HTML. Every page answers
//! 200 with one h1 and escapes names; the API's body has exactly the
//! fields its documented schema names; formats without a table answer 404
//! (pages) and 400 (API).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_engine::xmadn::LeagueRules;
use arbiter_server::{AppState, Clock};
use arbiter_service::{Context, SeedSource, Service};
use arbiter_store_sqlite::SqliteStore;
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use chrono::Duration;
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

const EVIL: &str = "<script>alert(1)</script>";

struct World {
    app: Router,
    _dir: tempfile::TempDir,
}

async fn world() -> World {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(&dir.path().join("clinch.db"))
        .await
        .unwrap();
    let built = arbiter_demo::build(&store, "tws-demo").await.unwrap();
    let svc = Service::new(store).with_seeds(SeedSource::Deterministic("clinch".into()));
    let t0 = built.now - Duration::days(3);
    let players = [EVIL, "O'Neill & Sons", "Zed \"Z\""].map(String::from);
    svc.create_league(
        "xss",
        "<b>League</b>",
        LeagueRules::default(),
        &players,
        &Context::new("mod", t0),
    )
    .await
    .unwrap();
    svc.league_roll("xss", &Context::new("mod", t0 + Duration::hours(1)))
        .await
        .unwrap();
    let app = arbiter_server::app(AppState::new(svc).with_clock(Clock::Fixed(built.now)));
    World { app, _dir: dir }
}

async fn get(app: &Router, uri: &str) -> (StatusCode, String, Option<String>) {
    let response = app
        .clone()
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let etag = response
        .headers()
        .get("etag")
        .map(|v| v.to_str().unwrap().to_string());
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8(body.to_vec()).unwrap(), etag)
}

async fn page(app: &Router, uri: &str) -> String {
    let (status, body, _) = get(app, uri).await;
    assert_eq!(status, StatusCode::OK, "{uri}:\n{body}");
    assert_eq!(body.matches("<h1").count(), 1, "{uri}");
    assert!(!body.contains("<script>alert"), "{uri} does not escape");
    body
}

#[tokio::test]
async fn the_pages_answer_with_one_h1_and_explain_each_verdict() {
    let w = world().await;
    let sunjang = page(&w.app, "/c/sunjang-demo/clinch").await;
    assert!(sunjang.contains("What is still possible in"));
    assert!(sunjang.contains("Season 3"));
    assert!(sunjang.contains("<details class=\"why\">"));
    assert!(sunjang.contains("ARB-R47"));
    assert!(sunjang.contains("Sunjang B.1"));
    assert!(sunjang.contains("<caption>"));
    assert!(sunjang.contains(r#"href="/c/sunjang-demo/clinch" aria-current="page""#));
    let xmadn = page(&w.app, "/c/xmadn-league-demo/clinch").await;
    assert!(xmadn.contains("the table is final"));
    let one = page(&w.app, "/c/sunjang-demo/clinch?group=b6").await;
    assert!(one.contains("Group B6"));
    // The navigation links the page for the formats it judges, only.
    for id in ["sunjang-demo", "xmadn-league-demo", "xss"] {
        let overview = page(&w.app, &format!("/c/{id}")).await;
        assert!(
            overview.contains(&format!(r#"href="/c/{id}/clinch""#)),
            "{id}"
        );
    }
    for id in ["tws-demo", "xmadn-challengers-demo"] {
        let overview = page(&w.app, &format!("/c/{id}")).await;
        assert!(!overview.contains("/clinch\""), "{id}");
    }
}

#[tokio::test]
async fn hostile_names_are_escaped() {
    let w = world().await;
    let html = page(&w.app, "/c/xss/clinch").await;
    assert!(
        html.contains("&#60;script&#62;alert(1)&#60;/script&#62;")
            || html.contains("&lt;script&gt;alert(1)&lt;/script&gt;")
    );
    assert!(html.contains("&#60;b&#62;League&#60;/b&#62;") || html.contains("&lt;b&gt;League"));
    assert!(!html.contains("<b>League</b>"));
    assert!(html.contains("playoff place"));
    let (status, body, _) = get(&w.app, "/api/competitions/xss/clinch").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    let players: Vec<&str> = v["groups"][0]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["player"].as_str().unwrap())
        .collect();
    assert!(players.contains(&EVIL));
}

#[tokio::test]
async fn what_cannot_be_judged_answers_404_or_400() {
    let w = world().await;
    for uri in [
        "/c/tws-demo/clinch",
        "/c/xmadn-challengers-demo/clinch",
        "/c/nobody/clinch",
        "/c/sunjang-demo/clinch?group=Z9",
    ] {
        let (status, body, _) = get(&w.app, uri).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}");
        assert_eq!(body.matches("<h1").count(), 1, "{uri}");
    }
    for (uri, status) in [
        ("/api/competitions/tws-demo/clinch", StatusCode::BAD_REQUEST),
        (
            "/api/competitions/sunjang-demo/clinch?group=Z9",
            StatusCode::BAD_REQUEST,
        ),
        ("/api/competitions/nobody/clinch", StatusCode::NOT_FOUND),
    ] {
        let (s, body, _) = get(&w.app, uri).await;
        assert_eq!(s, status, "{uri}: {body}");
        let e: Value = serde_json::from_str(&body).unwrap();
        assert!(e["error"]["message"].is_string(), "{body}");
    }
}

/// The schema `name` of the OpenAPI document, references followed.
fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(r) => resolve(
            doc,
            &doc["components"]["schemas"][r.trim_start_matches("#/components/schemas/")],
        ),
        None => schema,
    }
}

/// Every object of `v` has its schema's required fields and no other
/// than those the schema names.
fn fields(doc: &Value, schema: &Value, v: &Value, at: &str) {
    let schema = resolve(doc, schema);
    match v {
        Value::Object(o) => {
            let props = schema["properties"]
                .as_object()
                .unwrap_or_else(|| panic!("{at}: no properties in {schema}"));
            for k in o.keys() {
                assert!(props.contains_key(k), "{at}.{k} is not documented");
            }
            for r in schema["required"].as_array().into_iter().flatten() {
                assert!(o.contains_key(r.as_str().unwrap()), "{at}.{r} is missing");
            }
            for (k, x) in o {
                fields(doc, &props[k], x, &format!("{at}.{k}"));
            }
        }
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                fields(doc, &schema["items"], x, &format!("{at}[{i}]"));
            }
        }
        _ => {}
    }
}

#[tokio::test]
async fn the_api_body_has_the_documented_fields() {
    let w = world().await;
    let doc =
        serde_json::to_value(<arbiter_server::api::ApiDoc as utoipa::OpenApi>::openapi()).unwrap();
    let schema = &doc["paths"]["/api/competitions/{id}/clinch"]["get"]["responses"]["200"]["content"]
        ["application/json"]["schema"];
    assert!(!schema.is_null());
    for id in ["sunjang-demo", "xmadn-league-demo", "xss"] {
        let (status, body, etag) = get(&w.app, &format!("/api/competitions/{id}/clinch")).await;
        assert_eq!(status, StatusCode::OK, "{id}: {body}");
        assert!(etag.unwrap().starts_with("\"v"));
        let v: Value = serde_json::from_str(&body).unwrap();
        fields(&doc, schema, &v, "$");
        assert_eq!(v["ruling"], "ARB-R47");
    }
    let (_, body, _) = get(&w.app, "/api/competitions/sunjang-demo/clinch").await;
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["season"], 3);
    let g = &v["groups"][0];
    assert_eq!(g["zones"][0]["key"], "group-win");
    let p = &g["players"][0];
    assert_eq!(
        p["verdicts"].as_array().unwrap().len(),
        g["zones"].as_array().unwrap().len()
    );
}
