//! Desk forms name the version they were filled in on (issue 14, item 4):
//! a form of any desk without `_version`, or with an empty one, is refused
//! with the field named and nothing stored (it was stored); a stale one
//! answers with the desk as it is now, the events appended since in the
//! history's words and what the form held, never "409 conflict" jargon.
//! In process, on the demo's competitions, as their owner's session.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter_server::{AppState, Clock, auth};
use arbiter_service::Service;
use arbiter_store::Role;
use arbiter_store_sqlite::SqliteStore;
use axum::Router;
use axum::http::StatusCode;
use common::{Answer, form_body, get_with_cookie, hidden, login_session, post_form};

const PASSWORD: &str = "a-long-password";

struct World {
    app: Router,
    cookie: String,
}

async fn world() -> World {
    let store = SqliteStore::open_in_memory().await.unwrap();
    let built = arbiter_demo::build(&store, "tws-demo").await.unwrap();
    let state = AppState::new(Service::new(store)).with_clock(Clock::Fixed(built.now));
    auth::create_account(
        state.service.store(),
        built.now,
        "org",
        "Org",
        None,
        PASSWORD,
        true,
    )
    .await
    .unwrap();
    for id in [
        "tws-demo",
        "xmadn-league-demo",
        "xmadn-challengers-demo",
        "sunjang-demo",
    ] {
        common::grant(&state, id, "org", Role::Owner, None).await;
    }
    let app = arbiter_server::app(state);
    let cookie = login_session(&app, "org", PASSWORD).await;
    World { app, cookie }
}

impl World {
    /// The desk's page, its CSRF token and the version it shows.
    async fn desk(&self, id: &str) -> (String, String, u64) {
        let a = get_with_cookie(&self.app, &format!("/c/{id}/manage"), &self.cookie).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text());
        let html = a.text();
        let csrf = hidden(&html, "_csrf");
        let version = hidden(&html, "_version").parse().unwrap();
        (html, csrf, version)
    }

    async fn post(&self, id: &str, fields: &[(&str, &str)]) -> Answer {
        post_form(
            &self.app,
            &format!("/c/{id}/act"),
            &self.cookie,
            form_body(fields),
        )
        .await
    }

    async fn version(&self, id: &str) -> u64 {
        common::version(&self.app, id).await
    }
}

/// One form of each desk that changes the competition.
const FORMS: [(&str, &[(&str, &str)]); 4] = [
    (
        "tws-demo",
        &[("action", "add-player"), ("name", "Nova Newcomer")],
    ),
    (
        "xmadn-league-demo",
        &[("action", "cancel-drr"), ("drr", "1"), ("note", "agreed")],
    ),
    (
        "xmadn-challengers-demo",
        &[
            ("action", "record-game"),
            ("a", "Dana Roth"),
            ("b", "Emil Brandt"),
            ("pawns", "4-2"),
            ("time", "20:00"),
        ],
    ),
    (
        "sunjang-demo",
        &[
            ("action", "add-player"),
            ("name", "Nova Newcomer"),
            ("rank", "5k"),
            ("rating", "1500"),
        ],
    ),
];

#[tokio::test]
async fn a_desk_form_without_its_version_or_with_an_empty_one_is_refused_and_stores_nothing() {
    let w = world().await;
    for (id, fields) in FORMS {
        let (_, csrf, _) = w.desk(id).await;
        let before = w.version(id).await;
        for version in [None, Some(""), Some("  ")] {
            let mut form: Vec<(&str, &str)> = vec![("_csrf", &csrf), ("_key", "k-no-version")];
            form.extend_from_slice(fields);
            if let Some(v) = version {
                form.push(("_version", v));
            }
            let a = w.post(id, &form).await;
            assert_eq!(
                a.status,
                StatusCode::PRECONDITION_REQUIRED,
                "{id} {version:?}: {}",
                a.text()
            );
            let html = a.text();
            assert!(
                html.contains("_version"),
                "{id}: the field is named: {html}"
            );
            assert!(html.contains("nothing was changed"), "{id}: {html}");
            assert_eq!(
                w.version(id).await,
                before,
                "{id} {version:?}: nothing stored"
            );
        }
    }
}

#[tokio::test]
async fn a_stale_desk_form_answers_with_the_desk_now_and_what_changed_since() {
    let w = world().await;
    let id = "tws-demo";
    let (_, csrf, shown) = w.desk(id).await;
    // Someone else adds a player from the same desk first.
    let first = w
        .post(
            id,
            &[
                ("_csrf", &csrf),
                ("_key", "k-first"),
                ("_version", &shown.to_string()),
                ("action", "add-player"),
                ("name", "First Comer"),
            ],
        )
        .await;
    assert_eq!(first.status, StatusCode::SEE_OTHER, "{}", first.text());
    let now = w.version(id).await;
    assert!(now > shown);
    // The form filled in on the older desk.
    let a = w
        .post(
            id,
            &[
                ("_csrf", &csrf),
                ("_key", "k-second"),
                ("_version", &shown.to_string()),
                ("action", "add-player"),
                ("name", "Second Comer"),
            ],
        )
        .await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.text());
    assert_eq!(w.version(id).await, now, "nothing stored");
    let html = a.text();
    // The desk itself, at the current version, with its forms.
    assert!(html.contains("<h1>Desk of "), "{html}");
    assert_eq!(hidden(&html, "_version"), now.to_string());
    // In words: nothing was changed, from which version to which, what
    // happened meanwhile as the history shows it, and what the form held.
    assert!(html.contains("Nothing was changed."), "{html}");
    assert!(html.contains(&format!(
        "as it was at version {shown}; the competition is now at version {now}"
    )));
    let line = html
        .lines()
        .find(|l| l.starts_with(&format!("<li>#{} ", shown + 1)))
        .unwrap_or_else(|| panic!("no line for event {}: {html}", shown + 1));
    assert!(
        line.contains("by org") && line.contains("First Comer"),
        "{line}"
    );
    assert!(
        html.contains("<dt>name</dt><dd>Second Comer</dd>"),
        "{html}"
    );
    assert!(
        !html.to_lowercase().contains("conflict"),
        "no jargon: {html}"
    );
    // Sent again from the desk as it is now, it works.
    let again = w
        .post(
            id,
            &[
                ("_csrf", &csrf),
                ("_key", "k-third"),
                ("_version", &now.to_string()),
                ("action", "add-player"),
                ("name", "Second Comer"),
            ],
        )
        .await;
    assert_eq!(again.status, StatusCode::SEE_OTHER, "{}", again.text());
    assert!(w.version(id).await > now);
}

#[tokio::test]
async fn every_desk_answers_a_stale_form_with_itself() {
    let w = world().await;
    for (id, fields) in FORMS {
        let (_, csrf, shown) = w.desk(id).await;
        let stale = (shown - 1).to_string();
        let mut form: Vec<(&str, &str)> =
            vec![("_csrf", &csrf), ("_key", "k-stale"), ("_version", &stale)];
        form.extend_from_slice(fields);
        let a = w.post(id, &form).await;
        assert_eq!(a.status, StatusCode::CONFLICT, "{id}: {}", a.text());
        let html = a.text();
        assert!(html.contains("<h1>Desk of "), "{id}: {html}");
        assert!(html.contains("Nothing was changed."), "{id}");
        assert!(
            html.contains(&format!("<li>#{shown} ")),
            "{id}: the last event is listed"
        );
        assert_eq!(w.version(id).await, shown, "{id}: nothing stored");
    }
}
