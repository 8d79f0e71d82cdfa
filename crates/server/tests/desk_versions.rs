//! Desk forms name the version they were filled in on (issue 14, item 4):
//! a form of any desk without `_version`, or with an empty one, is refused
//! with the field named and nothing stored (it was stored); a stale one
//! answers with the desk as it is now, the events appended since in the
//! history's words and what the form held, never "409 conflict" jargon.
//! A form sent again (Back, then send; issue 17 §2) answers what its first
//! sending did and when, or, with other values, that nothing was changed
//! and why, never "idempotency key … was already used".
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

/// What the history page says event `seq` of `id` did (its sentence).
async fn sentence_of(w: &World, id: &str, seq: u64) -> String {
    let html = get_with_cookie(&w.app, &format!("/c/{id}/history"), "")
        .await
        .text();
    let at = html
        .find(&format!("<tr id=\"e{seq}\""))
        .unwrap_or_else(|| panic!("no event {seq} in {html}"));
    let row = &html[at..at + html[at..].find("</tr>").unwrap()];
    let open = "<span class=\"sentence\">";
    let text = &row[row.find(open).unwrap() + open.len()..];
    text[..text.find("</span>").unwrap()].to_string()
}

#[tokio::test]
async fn a_desk_form_sent_again_says_what_it_already_did_and_when() {
    // Issue 17 §2: going Back and sending a form again answers what
    // happened, on the ladder's desk and the shared one of the other
    // formats, never "idempotency key … was already used".
    let w = world().await;
    // Each desk's form, and the same form with another value: the
    // ladder's own desk code, and the Sunjang league's, which goes
    // through what the other desks share (`done_location`).
    type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], (&'a str, &'a str));
    let cases: [Case; 2] = [
        (
            "tws-demo",
            &[("action", "add-player"), ("name", "Nova Newcomer")],
            ("name", "Someone Else"),
        ),
        (
            "sunjang-demo",
            &[
                ("action", "add-player"),
                ("name", "Nova Newcomer"),
                ("rank", "5k"),
                ("rating", "1500"),
            ],
            ("name", "Someone Else"),
        ),
    ];
    for (id, fields, (changed, to)) in cases {
        let (_, csrf, shown) = w.desk(id).await;
        let key = format!("k-back-{id}");
        let shown_text = shown.to_string();
        let mut form: Vec<(&str, &str)> =
            vec![("_csrf", &csrf), ("_key", &key), ("_version", &shown_text)];
        form.extend_from_slice(fields);
        let first = w.post(id, &form).await;
        assert_eq!(
            first.status,
            StatusCode::SEE_OTHER,
            "{id}: {}",
            first.text()
        );
        assert!(
            first.location().contains("?done="),
            "{id}: {}",
            first.location()
        );
        let after = w.version(id).await;
        assert!(after > shown, "{id}");

        // Back, then send: the same form, its version now old.
        let again = w.post(id, &form).await;
        assert_eq!(
            again.status,
            StatusCode::SEE_OTHER,
            "{id}: {}",
            again.text()
        );
        assert_eq!(
            again.location(),
            format!("/c/{id}/manage?already={}-{after}#done", shown + 1),
            "{id}"
        );
        assert_eq!(w.version(id).await, after, "{id}: nothing more stored");
        let page = get_with_cookie(&w.app, again.location(), &w.cookie).await;
        assert_eq!(page.status, StatusCode::OK, "{id}");
        let html = page.text();
        assert!(html.contains("This was already done at "), "{id}: {html}");
        // The minute in the competition's zone (UTC here, ARB-R82).
        assert!(html.contains(" UTC (by you)"), "{id}: {html}");
        assert!(html.contains("(by you):"), "{id}: {html}");
        let did = sentence_of(&w, id, shown + 1).await;
        assert!(
            html.contains(&format!("<li>{did}</li>")),
            "{id}: no “{did}” in {html}"
        );
        assert!(html.contains("nothing more was changed"), "{id}");
        assert!(!html.contains("id=\"stale\""), "{id}: not a stale form");
        assert!(!html.to_lowercase().contains("idempotency"), "{id}: {html}");

        // The same form sent again with another value: nothing is
        // changed, and the desk says what the form did the first time and
        // what it holds now.
        let other: Vec<(&str, &str)> = form
            .iter()
            .map(|&(k, v)| if k == changed { (k, to) } else { (k, v) })
            .collect();
        let refused = w.post(id, &other).await;
        let html = refused.text();
        assert_eq!(refused.status, StatusCode::CONFLICT, "{id}: {html}");
        assert_eq!(w.version(id).await, after, "{id}: nothing stored");
        assert!(html.contains("<h1>Desk of "), "{id}: the desk itself");
        assert!(html.contains("Nothing was changed."), "{id}: {html}");
        assert!(
            html.contains("This form was already sent once, at "),
            "{id}: {html}"
        );
        assert!(html.contains(&format!("<li>{did}</li>")), "{id}: {html}");
        assert!(
            html.contains(&format!("<dt>{changed}</dt><dd>{to}</dd>")),
            "{id}: what the form held"
        );
        assert!(html.contains("Back button"), "{id}: {html}");
        assert!(!html.to_lowercase().contains("idempotency"), "{id}: {html}");
        // A fresh form from the desk as it is now.
        assert_eq!(hidden(&html, "_version"), after.to_string(), "{id}");
    }
}

#[tokio::test]
async fn a_made_up_already_address_shows_the_desk_without_a_notice() {
    let w = world().await;
    for q in [
        "0-0",
        "9-3",
        "1-999",
        "x-y",
        "99999-99999",
        "-",
        "1-18446744073709551616",
    ] {
        let a = get_with_cookie(
            &w.app,
            &format!("/c/tws-demo/manage?already={q}"),
            &w.cookie,
        )
        .await;
        assert_eq!(a.status, StatusCode::OK, "{q}");
        assert!(!a.text().contains("This was already done"), "{q}");
    }
}
