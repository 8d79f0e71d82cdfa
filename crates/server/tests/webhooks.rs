//! Webhooks end to end (issue 18 §3): a local receiver on a loopback port
//! gets a round's announcement with a valid HMAC-SHA256 signature (and a
//! Discord-shaped body for a Discord webhook); a failing receiver makes the
//! worker retry and then disable the webhook with the reason, its rows kept
//! and no more requests sent; a deadline approaching is notified once per
//! game and deadline, however often the worker scans and after a restart;
//! a new leader is notified, a result that leaves the leader is not.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use arbiter_server::webhooks::{self, WebhookConfig};
use arbiter_server::{AppState, Clock, Config};
use arbiter_service::Service;
use arbiter_store::{EventStore, Webhook, WebhookKind, WebhookStore};
use arbiter_store_sqlite::SqliteStore;
use axum::Router;
use axum::http::{HeaderMap, Method, StatusCode};
use common::{As, accounts_with_tokens, etag, now, send};
use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::Sha256;

const ID: &str = "hooked";

/// What the receiver got: headers and body of each request.
type Received = Arc<Mutex<Vec<(HeaderMap, String)>>>;

/// A receiver on 127.0.0.1:0 answering `status` to every POST; its URL.
async fn receiver(status: StatusCode) -> (String, Received) {
    let got: Received = Arc::default();
    let kept = Arc::clone(&got);
    let app = Router::new().route(
        "/hook",
        axum::routing::post(move |headers: HeaderMap, body: String| {
            let kept = Arc::clone(&kept);
            async move {
                kept.lock().unwrap().push((headers, body));
                status
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{addr}/hook"), got)
}

fn config(max_failures: u32) -> Config {
    Config {
        webhooks: WebhookConfig {
            allow_private: true,
            max_failures,
            backoff: Duration::ZERO,
            ..WebhookConfig::default()
        },
        ..Config::default()
    }
}

/// A ladder of four players by `olga`, its round not yet announced.
async fn ladder(max_failures: u32) -> (Router, AppState, String) {
    let store = SqliteStore::open_in_memory().await.unwrap();
    let state = AppState::new(Service::new(store))
        .with_clock(Clock::Fixed(now()))
        .with_config(config(max_failures));
    let tokens = accounts_with_tokens(&state, &[("olga", "Olga Owens", true)]).await;
    let olga = tokens["olga"].clone();
    let app = arbiter_server::app(state.clone());
    let created = send(
        &app,
        Method::POST,
        "/api/competitions",
        As::Token(&olga),
        &[],
        Some(&json!({"format": "tws-ladder", "id": ID, "name": "Hooked Ladder"})),
    )
    .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
    for name in ["Alice Adams", "Bob Brown", "Carol Clark", "Dan Dunn"] {
        act(&app, &olga, &json!({"action": "add-player", "name": name})).await;
    }
    (app, state, olga)
}

async fn act(app: &Router, token: &str, body: &Value) {
    act_on(app, ID, token, body).await;
}

async fn act_on(app: &Router, id: &str, token: &str, body: &Value) {
    let version = etag(app, id).await;
    let a = send(
        app,
        Method::POST,
        &format!("/api/competitions/{id}/actions"),
        As::Token(token),
        &[("if-match", version)],
        Some(body),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{body}: {}", a.text());
}

fn hook(id: &str, kind: WebhookKind, url: &str) -> Webhook {
    Webhook {
        id: id.to_owned(),
        competition: ID.to_owned(),
        kind,
        url: url.to_owned(),
        secret: if kind == WebhookKind::Generic {
            "s3cret".to_owned()
        } else {
            String::new()
        },
        label: format!("{id} hook"),
        created_by: "olga".to_owned(),
        created_at: "2026-03-02T12:00:00Z".to_owned(),
        disabled: None,
        failures: 0,
    }
}

/// Check `header` (`t=…,v1=…`) against `body` as a receiver would.
fn verify(secret: &str, header: &str, body: &str) -> bool {
    let mut t = None;
    let mut v1 = None;
    for part in header.split(',') {
        match part.split_once('=') {
            Some(("t", x)) => t = Some(x.to_owned()),
            Some(("v1", x)) => v1 = Some(x.to_owned()),
            _ => {}
        }
    }
    let (Some(t), Some(v1)) = (t, v1) else {
        return false;
    };
    let Ok(t) = t.parse::<i64>() else {
        return false;
    };
    if (chrono::Utc::now().timestamp() - t).abs() > 300 {
        return false;
    }
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(format!("{t}.{body}").as_bytes());
    let Ok(sig) = hex::decode(v1) else {
        return false;
    };
    mac.verify_slice(&sig).is_ok()
}

/// Run the worker's rounds until `done` holds or 5 s pass.
async fn deliver_until(state: &AppState, done: impl Fn() -> bool) {
    for _ in 0..100 {
        webhooks::deliver_due(state).await.unwrap();
        if done() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Announce round 1 with set pairings.
async fn announce(app: &Router, olga: &str) {
    let pairs: Value = serde_json::from_str(PAIRS).unwrap();
    let body = json!({"action": "announce-round", "reason": "set for the test", "pairs": pairs});
    act(app, olga, &body).await;
}

const PAIRS: &str =
    r#"[{"a": "Alice Adams", "b": "Bob Brown"}, {"a": "Carol Clark", "b": "Dan Dunn"}]"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_announced_reaches_the_receiver_signed_and_in_discords_shape() {
    let (app, state, olga) = ladder(5).await;
    let (url, got) = receiver(StatusCode::NO_CONTENT).await;
    let store = state.service.store();
    store
        .add_webhook(&hook("gen", WebhookKind::Generic, &url))
        .await
        .unwrap();
    store
        .add_webhook(&hook("dis", WebhookKind::Discord, &url))
        .await
        .unwrap();
    announce(&app, &olga).await;
    let version = store.version(ID).await.unwrap();
    assert!(
        !store.outbox(ID).await.unwrap().is_empty(),
        "the announcement's rows are in the outbox before any delivery"
    );
    deliver_until(&state, || got.lock().unwrap().len() >= 2).await;
    let got = got.lock().unwrap().clone();
    assert_eq!(got.len(), 2, "one request per webhook: {got:?}");
    let (generic_headers, generic) = got
        .iter()
        .find(|(h, _)| h.contains_key("x-arbiter-signature"))
        .expect("the generic webhook's request is signed");
    let signature = generic_headers["x-arbiter-signature"].to_str().unwrap();
    assert!(
        verify("s3cret", signature, generic),
        "{signature} for {generic}"
    );
    assert!(!verify("wrong", signature, generic));
    assert!(!verify("s3cret", signature, &format!("{generic} ")));
    let body: Value = serde_json::from_str(generic).unwrap();
    assert_eq!(body["kind"], "round-announced");
    assert_eq!(body["competition"], ID);
    assert_eq!(body["name"], "Hooked Ladder");
    assert_eq!(body["version"], version);
    assert_eq!(body["id"], format!("{ID}:{version}:gen"));
    assert_eq!(body["url"], format!("http://localhost:8080/c/{ID}"));
    let text = body["text"].as_str().unwrap();
    assert!(
        text.starts_with("round 1 announced: 2 games, deadline"),
        "{text}"
    );
    // The pairings, sides and deadlines of the round, a line per game.
    let games: Vec<&str> = body["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g.as_str().unwrap())
        .collect();
    assert_eq!(games.len(), 2, "{games:?}");
    for name in ["Alice Adams", "Bob Brown", "Carol Clark", "Dan Dunn"] {
        assert!(
            games.iter().any(|g| g.contains(name)),
            "{name} in {games:?}"
        );
    }
    assert!(
        games
            .iter()
            .all(|g| g.contains("(USSR) v.") && g.contains("deadline 2026-")),
        "{games:?}"
    );
    assert_eq!(
        generic_headers["x-arbiter-delivery"].to_str().unwrap(),
        format!("{ID}:{version}:gen")
    );
    let (discord_headers, discord) = got
        .iter()
        .find(|(h, _)| !h.contains_key("x-arbiter-signature"))
        .unwrap();
    assert_eq!(
        discord_headers["x-arbiter-delivery"].to_str().unwrap(),
        format!("{ID}:{version}:dis")
    );
    let discord: Value = serde_json::from_str(discord).unwrap();
    assert!(
        discord["content"]
            .as_str()
            .unwrap()
            .contains("Hooked Ladder")
    );
    let description = discord["embeds"][0]["description"].as_str().unwrap();
    assert!(description.starts_with(text), "{description}");
    assert!(
        description.contains("\n• "),
        "a line per game: {description}"
    );
    assert_eq!(
        discord["embeds"][0]["url"],
        format!("http://localhost:8080/c/{ID}")
    );
    assert_eq!(
        store.outbox(ID).await.unwrap(),
        vec![],
        "delivered rows are gone"
    );
    let log = store.deliveries("gen", 10).await.unwrap();
    assert!(log.iter().all(|d| d.ok), "{log:?}");
    assert!(
        log.iter()
            .any(|d| d.seq == version && d.status == Some(204))
    );
    // Nothing is sent twice.
    webhooks::deliver_due(&state).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_receiver_is_retried_then_disabled_with_the_reason() {
    let (app, state, olga) = ladder(3).await;
    let (url, got) = receiver(StatusCode::INTERNAL_SERVER_ERROR).await;
    let store = state.service.store();
    store
        .add_webhook(&hook("bad", WebhookKind::Generic, &url))
        .await
        .unwrap();
    announce(&app, &olga).await;
    deliver_until(&state, || got.lock().unwrap().len() >= 3).await;
    // The worker has stopped: more rounds send nothing.
    for _ in 0..5 {
        webhooks::deliver_due(&state).await.unwrap();
    }
    let requests = got.lock().unwrap().len();
    assert_eq!(requests, 3, "three attempts, then disabled");
    let bad = store.webhook("bad").await.unwrap().unwrap();
    assert_eq!(bad.failures, 3);
    let reason = bad.disabled.expect("disabled after three failures");
    assert!(
        reason.contains("3 failed deliveries in a row") && reason.contains("500"),
        "{reason}"
    );
    let log = store.deliveries("bad", 10).await.unwrap();
    assert_eq!(
        log.iter()
            .map(|d| (d.attempt, d.ok, d.status))
            .collect::<Vec<_>>(),
        vec![
            (3, false, Some(500)),
            (2, false, Some(500)),
            (1, false, Some(500))
        ]
    );
    let rows = store.outbox(ID).await.unwrap();
    assert_eq!(
        rows.len(),
        1,
        "the notification is kept for a re-enabled webhook"
    );
    assert_eq!(rows[0].attempts, 3);
    // A disabled webhook gets no new rows.
    act(
        &app,
        &olga,
        &json!({"action": "add-player", "name": "Eve Evans"}),
    )
    .await;
    assert_eq!(store.outbox(ID).await.unwrap().len(), 1);
    // The desk's webhooks page shows the reason and the attempts.
    let page = send(
        &app,
        Method::GET,
        &format!("/c/{ID}/webhooks"),
        As::Token(&olga),
        &[],
        None,
    )
    .await;
    assert_eq!(page.status, StatusCode::OK);
    let html = page.text();
    assert!(
        html.contains("<strong>Disabled</strong>: disabled at"),
        "{html}"
    );
    assert!(
        html.contains("3 failed deliveries in a row; the last: HTTP 500"),
        "{html}"
    );
    assert!(html.contains("failed: HTTP 500"), "{html}");
    // Enabled again from the page, it is retried at once (without backoff
    // here), and disabled again after three more failures.
    let enabled = form(&app, &olga, &format!("/c/{ID}/webhooks/bad/enable"), &[]).await;
    assert_eq!(enabled.status, StatusCode::OK, "{}", enabled.text());
    webhooks::deliver_due(&state).await.unwrap();
    assert_eq!(got.lock().unwrap().len(), 6);
    let bad = store.webhook("bad").await.unwrap().unwrap();
    assert!(bad.disabled.is_some() && bad.failures == 3, "{bad:?}");
}

async fn form(app: &Router, token: &str, path: &str, fields: &[(&str, &str)]) -> common::Answer {
    common::send_raw(
        app,
        Method::POST,
        path,
        As::Token(token),
        &[("content-type", "application/x-www-form-urlencoded".into())],
        common::form_body(fields).into_bytes(),
    )
    .await
}

#[tokio::test]
async fn the_desk_registers_webhooks_and_refuses_hostile_ones_naming_the_field() {
    let (app, state, olga) = ladder(5).await;
    let path = format!("/c/{ID}/webhooks");
    // Loopback is refused here: this server does not allow private targets.
    let mut strict = state.clone();
    strict.config.webhooks.allow_private = false;
    let strict_app = arbiter_server::app(strict);
    let long_url = format!("https://example.org/{}", "a".repeat(3000));
    let long_label = "L".repeat(101);
    for (fields, field, words) in [
        (
            vec![("kind", "generic"), ("url", "ftp://example.org/")],
            "url",
            "only http and https",
        ),
        (
            vec![("kind", "generic"), ("url", "http://127.0.0.1:9/")],
            "url",
            "loopback",
        ),
        (
            vec![("kind", "generic"), ("url", "http://192.168.1.1/")],
            "url",
            "private",
        ),
        (
            vec![("kind", "generic"), ("url", "http://u:p@example.org/")],
            "url",
            "user name",
        ),
        (
            vec![("kind", "generic"), ("url", long_url.as_str())],
            "url",
            "at most 2048",
        ),
        (
            vec![("kind", "slack"), ("url", "https://example.org/")],
            "kind",
            "generic or discord",
        ),
        (
            vec![
                ("kind", "discord"),
                ("url", "https://example.org/"),
                ("label", long_label.as_str()),
            ],
            "label",
            "at most 100",
        ),
    ] {
        let a = form(&strict_app, &olga, &path, &fields).await;
        assert_eq!(
            a.status,
            StatusCode::BAD_REQUEST,
            "{fields:?}: {}",
            a.text()
        );
        let html = a.text();
        assert!(
            html.contains(&format!("Field “{field}”")) && html.contains(words),
            "{fields:?}: {html}"
        );
    }
    assert!(
        state.service.store().webhooks(ID).await.unwrap().is_empty(),
        "nothing registered"
    );
    let made = form(
        &app,
        &olga,
        &path,
        &[
            ("kind", "generic"),
            ("url", "https://example.org/in"),
            ("label", "<b>bot</b>"),
        ],
    )
    .await;
    assert_eq!(made.status, StatusCode::OK, "{}", made.text());
    let html = made.text();
    let hooks = state.service.store().webhooks(ID).await.unwrap();
    assert_eq!(hooks.len(), 1);
    assert!(html.contains(&hooks[0].secret), "the secret is shown once");
    assert!(
        html.contains("bot") && !html.contains("<b>bot</b>"),
        "the label is escaped"
    );
    let again = send(&app, Method::GET, &path, As::Token(&olga), &[], None)
        .await
        .text();
    assert!(!again.contains(&hooks[0].secret), "and never again");
    assert!(again.contains("No delivery yet."));
    let gone = form(&app, &olga, &format!("{path}/{}/delete", hooks[0].id), &[]).await;
    assert_eq!(gone.status, StatusCode::OK);
    assert!(state.service.store().webhooks(ID).await.unwrap().is_empty());
    let unknown = form(&app, &olga, &format!("{path}/nope/disable"), &[]).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    for n in 0..10 {
        let url = format!("https://example.org/{n}");
        let a = form(&app, &olga, &path, &[("kind", "discord"), ("url", &url)]).await;
        assert_eq!(a.status, StatusCode::OK);
    }
    let eleventh = form(
        &app,
        &olga,
        &path,
        &[("kind", "discord"), ("url", "https://example.org/x")],
    )
    .await;
    assert_eq!(eleventh.status, StatusCode::BAD_REQUEST);
    assert!(eleventh.text().contains("at most 10 webhooks"));
}

#[tokio::test]
async fn private_targets_are_refused_unless_allowed() {
    let (url, got) = receiver(StatusCode::OK).await;
    let refused = webhooks::post(&url, "{}".into(), &[], &WebhookConfig::default()).await;
    let detail = refused.err().map(|f| f.detail).unwrap_or_default();
    assert!(detail.contains("loopback"), "{detail}");
    assert!(
        got.lock().unwrap().is_empty(),
        "nothing reached the loopback receiver"
    );
    let allowed = WebhookConfig {
        allow_private: true,
        ..WebhookConfig::default()
    };
    assert_eq!(
        webhooks::post(&url, "{}".into(), &[], &allowed).await.ok(),
        Some(200)
    );
}

/// The generic bodies the receiver got, of kind `kind`.
fn bodies(got: &Received, kind: &str) -> Vec<Value> {
    got.lock()
        .unwrap()
        .iter()
        .filter(|(h, _)| h.contains_key("x-arbiter-signature"))
        .filter_map(|(_, b)| serde_json::from_str::<Value>(b).ok())
        .filter(|b| b["kind"] == kind)
        .collect()
}

/// Every delivery id the receiver got (generic and Discord).
fn ids(got: &Received) -> Vec<String> {
    got.lock()
        .unwrap()
        .iter()
        .map(|(h, _)| h["x-arbiter-delivery"].to_str().unwrap().to_owned())
        .collect()
}

/// Deliver until the outbox of `competition` is empty (or 5 s pass).
async fn drain(state: &AppState, competition: &str) {
    for _ in 0..100 {
        webhooks::deliver_due(state).await.unwrap();
        if state
            .service
            .store()
            .outbox(competition)
            .await
            .unwrap()
            .is_empty()
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the outbox of {competition} did not empty");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deadline_approaching_is_notified_once_even_when_the_worker_runs_twice_or_restarts() {
    let (app, state, olga) = ladder(5).await;
    let (url, got) = receiver(StatusCode::NO_CONTENT).await;
    let store = state.service.store();
    store
        .add_webhook(&hook("gen", WebhookKind::Generic, &url))
        .await
        .unwrap();
    store
        .add_webhook(&hook("dis", WebhookKind::Discord, &url))
        .await
        .unwrap();
    announce(&app, &olga).await;
    drain(&state, ID).await;
    got.lock().unwrap().clear();
    let games: Vec<(String, String, String, chrono::DateTime<chrono::Utc>)> = state
        .service
        .read(ID, |l, _| {
            l.games
                .iter()
                .map(|g| {
                    (
                        g.id.to_string(),
                        l.name_of(g.ussr.player),
                        l.name_of(g.us.player),
                        g.deadline.unwrap(),
                    )
                })
                .collect()
        })
        .await
        .unwrap();
    assert_eq!(games.len(), 2);
    let deadline = games[0].3;
    assert!(
        games.iter().all(|g| g.3 == deadline),
        "one round, one deadline"
    );
    let hours = chrono::Duration::hours;
    // Two days before the deadline, with the default lead of a day: not yet.
    assert_eq!(
        webhooks::enqueue_deadlines(&state, deadline - hours(48))
            .await
            .unwrap(),
        0
    );
    assert!(store.outbox(ID).await.unwrap().is_empty());
    // Half a day before: each game once, for each webhook.
    let at = deadline - hours(12);
    assert_eq!(webhooks::enqueue_deadlines(&state, at).await.unwrap(), 2);
    assert_eq!(
        webhooks::enqueue_deadlines(&state, at).await.unwrap(),
        0,
        "the worker's next scan makes nothing"
    );
    // A restart: another server on the same database, its caches empty,
    // scans an hour later and makes nothing either.
    let restarted = AppState::new(Service::new(store.clone()))
        .with_clock(Clock::Fixed(at + hours(1)))
        .with_config(config(5));
    assert_eq!(
        webhooks::enqueue_deadlines(&restarted, at + hours(1))
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        store.outbox(ID).await.unwrap().len(),
        4,
        "2 games × 2 webhooks"
    );
    // Both servers deliver and scan again: four requests in all.
    drain(&restarted, ID).await;
    for s in [&state, &restarted] {
        assert_eq!(
            webhooks::enqueue_deadlines(s, at + hours(2)).await.unwrap(),
            0,
            "a delivered notice is not made again"
        );
        webhooks::deliver_due(s).await.unwrap();
    }
    assert_eq!(got.lock().unwrap().len(), 4, "{:?}", ids(&got));
    let mut delivered = ids(&got);
    delivered.sort();
    delivered.dedup();
    assert_eq!(
        delivered.len(),
        4,
        "each notice once per webhook: {delivered:?}"
    );
    let version = store.version(ID).await.unwrap();
    let generic = bodies(&got, "deadline-approaching");
    assert_eq!(generic.len(), 2);
    for (game, ussr, us, d) in &games {
        let topic = format!("deadline:{game}:{}", d.timestamp());
        let body = generic
            .iter()
            .find(|b| b["id"] == format!("{ID}:{version}:gen:{topic}"))
            .unwrap_or_else(|| panic!("{topic} in {generic:?}"));
        let text = body["text"].as_str().unwrap();
        let when = d.format("%Y-%m-%d %H:%M UTC").to_string();
        assert!(
            text.starts_with(&format!("{game}, {ussr} v. {us}, is due by {when}")),
            "{text}"
        );
        assert_eq!(
            body["deadline"],
            d.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
        );
        assert_eq!(body["version"], version);
        assert_eq!(body["games"].as_array().unwrap().len(), 1);
        assert!(
            body["games"][0].as_str().unwrap().contains("moderator"),
            "{body}"
        );
    }
    let discord: Vec<Value> = got
        .lock()
        .unwrap()
        .iter()
        .filter(|(h, _)| !h.contains_key("x-arbiter-signature"))
        .map(|(_, b)| serde_json::from_str(b).unwrap())
        .collect();
    assert_eq!(discord.len(), 2);
    assert!(
        discord
            .iter()
            .all(|d| d["content"] == "**Hooked Ladder**: Deadline approaching"),
        "{discord:?}"
    );
    // The desk's log says what each delivery was.
    let page = send(
        &app,
        Method::GET,
        &format!("/c/{ID}/webhooks"),
        As::Token(&olga),
        &[],
        None,
    )
    .await
    .text();
    for (game, ..) in &games {
        assert!(
            page.contains(&format!("<td>{version} (deadline of {game})</td>")),
            "{page}"
        );
    }
    // After the deadline, nothing more.
    assert_eq!(
        webhooks::enqueue_deadlines(&state, deadline + hours(1))
            .await
            .unwrap(),
        0
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ladder_result_leaves_its_champion_and_the_close_that_re_sorts_it_notifies() {
    let (app, state, olga) = ladder(5).await;
    let (url, got) = receiver(StatusCode::NO_CONTENT).await;
    state
        .service
        .store()
        .add_webhook(&hook("gen", WebhookKind::Generic, &url))
        .await
        .unwrap();
    announce(&app, &olga).await;
    let games: Vec<(String, String, String)> = state
        .service
        .read(ID, |l, _| {
            l.games
                .iter()
                .map(|g| {
                    (
                        g.id.to_string(),
                        l.name_of(g.ussr.player),
                        l.name_of(g.us.player),
                    )
                })
                .collect()
        })
        .await
        .unwrap();
    // Bob Brown beats the champion at the top rung, Carol Clark beats Dan.
    for (game, a, b) in &games {
        let winner = if a == "Bob Brown" || b == "Bob Brown" {
            "Bob Brown"
        } else {
            "Carol Clark"
        };
        let result = json!({"winner": winner, "ended_by": "final-scoring", "turn": 10});
        act(
            &app,
            &olga,
            &json!({"action": "record-result", "game": game, "result": result}),
        )
        .await;
    }
    drain(&state, ID).await;
    assert_eq!(bodies(&got, "result-recorded").len(), 2);
    assert!(
        bodies(&got, "standings-changed").is_empty(),
        "a result leaves the ladder as it is until the round closes"
    );
    act(&app, &olga, &json!({"action": "close-round"})).await;
    drain(&state, ID).await;
    let version = state.service.store().version(ID).await.unwrap();
    let changed = bodies(&got, "standings-changed");
    assert_eq!(changed.len(), 1, "{changed:?}");
    let body = &changed[0];
    let text = body["text"].as_str().unwrap();
    assert!(
        text.starts_with("Bob Brown now leads, ahead of ")
            && text.ends_with("; before, Alice Adams led."),
        "{text}"
    );
    assert_eq!(body["top"][0], "1. Bob Brown");
    assert_eq!(body["top"].as_array().unwrap().len(), 3);
    assert_eq!(body["version"], version);
    assert_eq!(body["id"], format!("{ID}:{version}:gen:standings"));
    assert_eq!(bodies(&got, "round-closed").len(), 1);
    let log = state.service.store().deliveries("gen", 10).await.unwrap();
    assert!(
        log.iter()
            .any(|d| d.seq == version && d.topic == "standings" && d.ok),
        "{log:?}"
    );
    // Delivered once: the worker's next rounds send nothing.
    let before = got.lock().unwrap().len();
    webhooks::deliver_due(&state).await.unwrap();
    assert_eq!(got.lock().unwrap().len(), before);
}

const RR: &str = "hooked-rr";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_result_that_changes_the_leader_notifies_one_that_does_not_does_not() {
    let (app, state, olga) = ladder(5).await;
    let created = send(
        &app,
        Method::POST,
        "/api/competitions",
        As::Token(&olga),
        &[],
        Some(
            &json!({"format": "round-robin", "id": RR, "name": "Hooked League",
            "preset": "chess",
            "players": ["Ana Morales", "Ben Li", "Cy Dodd", "Di Ng"]}),
        ),
    )
    .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
    act_on(&app, RR, &olga, &json!({"action": "start"})).await;
    let (url, got) = receiver(StatusCode::NO_CONTENT).await;
    let mut h = hook("rr", WebhookKind::Generic, &url);
    h.competition = RR.to_owned();
    state.service.store().add_webhook(&h).await.unwrap();
    let view = common::view(&app, RR).await;
    let round = |n: usize| -> Vec<(String, String, String)> {
        view["rounds"][n]["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                (
                    g["label"].as_str().unwrap().to_owned(),
                    g["home"].as_str().unwrap().to_owned(),
                    g["away"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    };
    let (first, second) = (round(0), round(1));
    let record =
        |game: &str, score: &str| json!({"action": "record-result", "game": game, "score": score});
    // The first result: its winner is the first leader.
    let (g1, leader, _) = first[0].clone();
    act_on(&app, RR, &olga, &record(&g1, "1-0")).await;
    drain(&state, RR).await;
    let changed = bodies(&got, "standings-changed");
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert!(
        changed[0]["text"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{leader} now leads")),
        "{}",
        changed[0]["text"]
    );
    // A draw behind him: he still leads alone, nothing is said.
    let (g2, drew_home, drew_away) = first[1].clone();
    act_on(&app, RR, &olga, &record(&g2, "½-½")).await;
    drain(&state, RR).await;
    assert_eq!(bodies(&got, "result-recorded").len(), 2);
    assert_eq!(
        bodies(&got, "standings-changed").len(),
        1,
        "the leader did not change"
    );
    // In round 2 the leader meets one who drew, and loses: 1½ to 1, a new
    // leader.
    let (g3, home, away) = second
        .iter()
        .find(|(_, h, a)| h == &leader || a == &leader)
        .cloned()
        .unwrap();
    let (score, winner) = if home == leader {
        ("0-1", away.clone())
    } else {
        ("1-0", home.clone())
    };
    assert!(winner == drew_home || winner == drew_away, "{winner}");
    act_on(&app, RR, &olga, &record(&g3, score)).await;
    drain(&state, RR).await;
    let changed = bodies(&got, "standings-changed");
    assert_eq!(changed.len(), 2, "{changed:?}");
    let text = changed[1]["text"].as_str().unwrap();
    assert!(
        text.starts_with(&format!("{winner} now leads, ahead of "))
            && text.ends_with(&format!("; before, {leader} led.")),
        "{text}"
    );
    assert_eq!(changed[1]["top"][0], format!("1. {winner}"));
    // Undone, the result gives the lead back: the log is folded again.
    state
        .service
        .undo_as::<arbiter_engine::roundrobin::RoundRobin>(
            RR,
            &arbiter_service::Context::new("olga", now()),
        )
        .await
        .unwrap();
    drain(&state, RR).await;
    let changed = bodies(&got, "standings-changed");
    assert_eq!(changed.len(), 3, "{changed:?}");
    let text = changed[2]["text"].as_str().unwrap();
    assert!(
        text.starts_with(&format!("{leader} now leads"))
            && text.ends_with(&format!("; before, {winner} led.")),
        "{text}"
    );
    // A round's deadline: notified a day ahead, and again when it moves.
    act_on(
        &app,
        RR,
        &olga,
        &json!({"action": "set-deadline", "round": 3, "deadline": "2026-03-05"}),
    )
    .await;
    drain(&state, RR).await;
    let on = |d: &str| -> chrono::DateTime<chrono::Utc> { d.parse().unwrap() };
    assert_eq!(
        webhooks::enqueue_deadlines(&state, on("2026-03-03T00:00:00Z"))
            .await
            .unwrap(),
        0,
        "more than a day ahead"
    );
    assert_eq!(
        webhooks::enqueue_deadlines(&state, on("2026-03-05T08:00:00Z"))
            .await
            .unwrap(),
        2,
        "round 3's two games"
    );
    act_on(
        &app,
        RR,
        &olga,
        &json!({"action": "set-deadline", "round": 3, "deadline": "2026-03-06"}),
    )
    .await;
    assert_eq!(
        webhooks::enqueue_deadlines(&state, on("2026-03-05T08:00:00Z"))
            .await
            .unwrap(),
        0,
        "the new deadline is not near yet"
    );
    assert_eq!(
        webhooks::enqueue_deadlines(&state, on("2026-03-06T08:00:00Z"))
            .await
            .unwrap(),
        2,
        "the moved deadline notifies again"
    );
    drain(&state, RR).await;
    let due = bodies(&got, "deadline-approaching");
    // The first two notices were made for the old deadline, which moved
    // before they were delivered: they are dropped, not sent stale.
    assert_eq!(due.len(), 2, "{due:?}");
    assert!(
        due.iter().all(|b| b["deadline"] == "2026-03-06T23:59:59Z"),
        "{due:?}"
    );
}

/// Every format's standings view, through the registry: each event of the
/// demo competitions' histories that may move the standings (the worker's
/// follow-ups), with its "standings changed" notification as the worker
/// builds it. Each history names new leaders, in the words of
/// docs/webhooks.md, and also deadlines: only the formats that record them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_formats_demo_history_names_its_new_leaders() {
    let store = SqliteStore::open_in_memory().await.unwrap();
    let built = arbiter_demo::build(&store, "tws-demo").await.unwrap();
    let rrs = arbiter_demo::roundrobin::build(&store).await.unwrap();
    let service = Service::new(store.clone());
    for (id, sunjang) in [
        (&built.ladder.0, false),
        (&built.league.0, false),
        (&built.challengers.0, false),
        (&built.sunjang.0, true),
        (&rrs.euro.0, false),
        (&rrs.chess.0, false),
    ] {
        let version = store.version(id).await.unwrap();
        let mut said = Vec::new();
        for seq in 2..=version {
            // Only the events whose rows the worker follows up.
            if service.follow_ups(id, seq).await.unwrap().is_empty() {
                continue;
            }
            if let Some(n) = service
                .notification(id, seq, "standings", "x", "http://h")
                .await
                .unwrap()
            {
                assert_eq!(n.kind.as_str(), "standings-changed");
                assert!(!n.top.is_empty(), "{id} {seq}: {n:?}");
                said.push(n.text);
            }
        }
        assert!(!said.is_empty(), "{id}: no new leader in {version} events");
        for text in &said {
            assert!(
                text.contains(" now leads") || text.contains(" now share the lead"),
                "{id}: {text}"
            );
            assert_eq!(text.starts_with("Season "), sunjang, "{id}: {text}");
        }
    }
    // Deadlines: the ladder's running round has them; XMadn and Sunjang
    // record none.
    let year = chrono::Duration::days(365);
    for (id, has) in [
        (&built.ladder.0, true),
        (&built.league.0, false),
        (&built.challengers.0, false),
        (&built.sunjang.0, false),
    ] {
        let (_, topics) = service
            .approaching_deadlines(id, built.now, year)
            .await
            .unwrap();
        assert_eq!(!topics.is_empty(), has, "{id}: {topics:?}");
        assert!(
            topics.iter().all(|t| t.starts_with("deadline:G")),
            "{topics:?}"
        );
    }
}
