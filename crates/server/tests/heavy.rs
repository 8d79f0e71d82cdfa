//! Heavy reads cannot tie up the server (issue 14, item 3): projections,
//! clinch analyses and what-if previews are capped per caller (400 naming
//! the field and its limit), kept per competition version and request,
//! limited per address, run a few at a time with a short queue (429 with
//! `Retry-After` past it, never a 503 or a timeout), and a projection whose
//! caller went away stops. In process, on the demo, through the real router.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use arbiter_server::heavy::{Caps, HeavyLimits};
use arbiter_server::{AppState, Clock, Config};
use arbiter_service::Service;
use arbiter_store_sqlite::SqliteStore;
use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode, header};
use common::{Answer, oneshot};

async fn demo_state(config: Config) -> AppState {
    let store = SqliteStore::open_in_memory().await.unwrap();
    let built = arbiter_demo::build(&store, "tws-demo").await.unwrap();
    AppState::new(Service::new(store))
        .with_clock(Clock::Fixed(built.now))
        .with_config(config)
}

/// A GET from `address` (the client's address, as `serve` gives it), with
/// an optional API token.
async fn get_from(app: &Router, uri: &str, address: [u8; 4], token: Option<&str>) -> Answer {
    let mut request = Request::get(uri);
    if let Some(t) = token {
        request = request.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    let mut request = request.body(Body::empty()).unwrap();
    request
        .extensions_mut()
        .insert(ConnectInfo(SocketAddr::from((address, 40_000))));
    oneshot(app, request).await
}

fn field(a: &Answer) -> String {
    a.json()["error"]["field"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn six_concurrent_anonymous_projections_at_the_cap_answer_200_or_429_within_2_s_each() {
    let config = Config::default();
    let cap = config.heavy.anonymous;
    let app = arbiter_server::app(demo_state(config).await);
    let started = Instant::now();
    let calls: Vec<_> = (0..6)
        .map(|i| {
            let app = app.clone();
            tokio::spawn(async move {
                let t = Instant::now();
                // A new seed each: nothing is found in the cache.
                let uri = format!(
                    "/api/competitions/tws-demo/projection?seasons={}&rounds={}&seed=new-{i}",
                    cap.seasons, cap.rounds
                );
                let a = get_from(&app, &uri, [198, 51, 100, 7], None).await;
                (a, t.elapsed())
            })
        })
        .collect();
    let mut ok = 0;
    for call in calls {
        let (a, took) = call.await.unwrap();
        assert!(
            a.status == StatusCode::OK || a.status == StatusCode::TOO_MANY_REQUESTS,
            "{}: {}",
            a.status,
            a.text()
        );
        eprintln!("{} after {took:?}", a.status);
        assert!(
            took < Duration::from_secs(2),
            "answered {} after {took:?}",
            a.status
        );
        if a.status == StatusCode::OK {
            ok += 1;
            assert_eq!(a.json()["seasons"], cap.seasons);
        } else {
            let wait: u64 = a.header("retry-after").parse().unwrap();
            assert!(wait >= 1, "{wait}");
            assert_eq!(a.json()["error"]["code"], "throttled");
        }
    }
    assert!(ok >= 1, "at least the first ones run");
    eprintln!(
        "six projections at the cap: {ok} answered 200, the rest 429, all within {:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn above_the_caps_the_answer_is_400_naming_the_field_and_its_limit() {
    let config = Config::default();
    let (anon, member) = (config.heavy.anonymous, config.heavy.logged_in);
    let state = demo_state(config).await;
    let tokens = common::accounts_with_tokens(&state, &[("reader", "Reader", false)]).await;
    let app = arbiter_server::app(state);
    let ip = [198, 51, 100, 8];
    for (query, name, limit) in [
        (
            format!("seasons={}", anon.seasons + 1),
            "seasons",
            anon.seasons,
        ),
        (format!("rounds={}", anon.rounds + 1), "rounds", anon.rounds),
        ("seasons=100000".to_string(), "seasons", anon.seasons),
    ] {
        let a = get_from(
            &app,
            &format!("/api/competitions/tws-demo/projection?{query}"),
            ip,
            None,
        )
        .await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{query}: {}", a.text());
        assert_eq!(field(&a), name);
        let message = a.json()["error"]["message"].as_str().unwrap().to_string();
        assert!(message.contains(&format!("at most {limit}")), "{message}");
        // The page says the same, with its form, and 400 (it said 404).
        let page = get_from(&app, &format!("/c/tws-demo/projection?{query}"), ip, None).await;
        assert_eq!(page.status, StatusCode::BAD_REQUEST, "{query}");
        let html = page.text();
        assert!(html.contains(&format!("Field “{name}”")), "{html}");
        assert!(html.contains(&format!("at most {limit}")));
        assert!(
            html.contains(r#"name="seasons""#),
            "the form is shown again"
        );
    }
    // A seed text has a limit too; a number that is not one names its field.
    let long = "x".repeat(257);
    let a = get_from(
        &app,
        &format!("/api/competitions/tws-demo/projection?seasons=10&seed={long}"),
        ip,
        None,
    )
    .await;
    assert_eq!(
        (a.status, field(&a)),
        (StatusCode::BAD_REQUEST, "seed".into())
    );
    let page = get_from(&app, "/c/tws-demo/projection?rounds=lots", ip, None).await;
    assert_eq!(page.status, StatusCode::BAD_REQUEST);
    assert!(page.text().contains("Field “rounds”"));
    // Without seasons, an anonymous caller gets his cap, not the API's 10,000.
    let a = get_from(
        &app,
        "/api/competitions/xmadn-league-demo/projection",
        ip,
        None,
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    assert_eq!(a.json()["seasons"], anon.seasons);
    // Logged in, more is allowed, up to the logged-in caps.
    let token = tokens["reader"].as_str();
    let more = anon.seasons + 1;
    let a = get_from(
        &app,
        &format!("/api/competitions/xmadn-league-demo/projection?seasons={more}"),
        ip,
        Some(token),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    assert_eq!(a.json()["seasons"], more);
    let a = get_from(
        &app,
        &format!(
            "/api/competitions/tws-demo/projection?seasons={}",
            member.seasons + 1
        ),
        ip,
        Some(token),
    )
    .await;
    assert_eq!(
        (a.status, field(&a)),
        (StatusCode::BAD_REQUEST, "seasons".into())
    );
    assert!(
        !a.json()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("logged-in callers may")
    );
}

/// Limits whose queue holds nobody and whose one slot is easy to fill.
fn one_slot(per_address_per_minute: u32) -> Config {
    Config {
        heavy: HeavyLimits {
            concurrent: 1,
            queue: 0,
            wait: Duration::from_millis(200),
            per_address_per_minute,
            anonymous: Caps {
                seasons: 100_000,
                rounds: 20,
            },
            ..HeavyLimits::default()
        },
        ..Config::default()
    }
}

#[tokio::test]
async fn an_address_is_limited_per_minute_and_answers_from_the_cache_are_not_counted() {
    let app = arbiter_server::app(demo_state(one_slot(3)).await);
    let (a, b) = ([203, 0, 113, 1], [203, 0, 113, 2]);
    let uri = |seed: u32| {
        format!("/api/competitions/xmadn-league-demo/projection?seasons=20&seed={seed}")
    };
    for seed in 0..3 {
        assert_eq!(
            get_from(&app, &uri(seed), a, None).await.status,
            StatusCode::OK
        );
    }
    let refused = get_from(&app, &uri(3), a, None).await;
    assert_eq!(
        refused.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        refused.text()
    );
    // Three a minute: the next comes within 20 s.
    let wait: u64 = refused.header("retry-after").parse().unwrap();
    assert!((1..=20).contains(&wait), "{wait}");
    assert!(
        refused.json()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("this address")
    );
    // The same request again is answered from the cache; another address
    // has its own allowance; the clinch analysis and the what-if count too.
    assert_eq!(
        get_from(&app, &uri(0), a, None).await.status,
        StatusCode::OK
    );
    assert_eq!(
        get_from(&app, &uri(3), b, None).await.status,
        StatusCode::OK
    );
    let clinch = get_from(&app, "/api/competitions/xmadn-league-demo/clinch", a, None).await;
    assert_eq!(clinch.status, StatusCode::TOO_MANY_REQUESTS);
    let page = get_from(&app, "/c/xmadn-league-demo/clinch", a, None).await;
    assert_eq!(page.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(page.headers.contains_key(header::RETRY_AFTER));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_projection_whose_caller_went_away_stops_and_a_busy_server_answers_429() {
    let state = demo_state(one_slot(1000)).await;
    let heavy = state.heavy.clone();
    let app = arbiter_server::app(state);
    // Unoptimised, 100,000 seasons of 20 rounds take minutes.
    let long = {
        let app = app.clone();
        tokio::spawn(async move {
            get_from(
                &app,
                "/api/competitions/tws-demo/projection?seasons=100000&rounds=20&seed=long",
                [192, 0, 2, 9],
                None,
            )
            .await
        })
    };
    let t = Instant::now();
    while heavy.running() == 0 {
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "the projection never started"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // Meanwhile every heavy read is answered 429 at once, with the wait.
    let from = [192, 0, 2, 10];
    let t = Instant::now();
    let busy = [
        get_from(
            &app,
            "/api/competitions/tws-demo/projection?seasons=10&seed=other",
            from,
            None,
        )
        .await,
        get_from(
            &app,
            "/api/competitions/xmadn-league-demo/clinch",
            from,
            None,
        )
        .await,
        get_from(
            &app,
            "/c/tws-demo/projection?seasons=10&seed=other",
            from,
            None,
        )
        .await,
        get_from(&app, "/c/tws-demo/what-if?G49=ussr", from, None).await,
        oneshot(
            &app,
            Request::post("/api/competitions/tws-demo/what-if")
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(r#"{"results": {"G49": "ussr"}}"#))
                .unwrap(),
        )
        .await,
    ];
    for a in &busy {
        assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.text());
        assert!(a.headers.contains_key(header::RETRY_AFTER));
    }
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    // The caller goes away: the computation stops and frees its slot.
    long.abort();
    let t = Instant::now();
    while heavy.running() > 0 {
        assert!(
            t.elapsed() < Duration::from_secs(3),
            "the projection went on without its caller"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let a = get_from(
        &app,
        "/api/competitions/tws-demo/projection?seasons=10&seed=other",
        from,
        None,
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
}
