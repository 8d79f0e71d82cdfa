//! Issue 14 item 1 (ARB-R50): a display name never stands for a player.
//! On the code before ARB-R50, an account named `P2` that joined the ladder
//! acted as player 2 (its grant held the name "P2", which the server read as
//! the id P2): it confirmed player 2's game, withdrew him and asked skips in
//! his name, through the API, a token and the desk's forms. Here each step
//! is refused, nothing is stored, and the property test shows that no
//! generated display name gives an account a right that no link gives it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter_server::auth;
use arbiter_store::{Account, AccountStore};
use axum::http::{Method, StatusCode};
use common::ladder::{LADDER, World};
use common::{As, PASSWORD, form_body, login_session, now, password_hash, post_form, send};
use proptest::prelude::*;
use serde_json::json;

/// An account made straight in the store, as one made before the name
/// check existed (or imported) would be, with its API token.
async fn legacy_account(w: &World, username: &str, name: &str) -> String {
    w.state
        .service
        .store()
        .create_account(&Account {
            username: username.into(),
            display_name: name.into(),
            email: None,
            password_hash: password_hash().into(),
            organizer: false,
            created_at: now().to_rfc3339(),
        })
        .await
        .unwrap();
    auth::create_token(&w.state, username, "tests")
        .await
        .unwrap()
}

/// Bob Brown, the opponent in the game Alice reported: players are
/// numbered in the order they are added (Alice P1, Bob P2, …).
const BOB: &str = "P2";

/// `mallory` registers with the name shown `name`.
async fn register(w: &World, name: &str) -> common::Answer {
    send(
        &w.app,
        Method::POST,
        "/api/accounts",
        As::Nobody,
        &[],
        Some(&json!({"username": "mallory", "name": name, "password": PASSWORD})),
    )
    .await
}

#[tokio::test]
async fn names_of_the_form_of_an_id_are_refused_at_registration() {
    let w = World::new().await;
    for name in ["P2", "p16", "G5", "#3", "2", " P 2 ", "+7"] {
        let a = register(&w, name).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{name:?}: {}", a.text());
        assert_eq!(a.json()["error"]["field"], "name", "{}", a.text());
        assert!(a.text().contains("ARB-R50"), "{}", a.text());
    }
    // Invisible and direction characters are refused as in player names.
    for name in ["Bob\u{202E}nworB", "Bob\u{200B}Brown"] {
        let a = register(&w, name).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{name:?}: {}", a.text());
    }
}

#[tokio::test]
async fn an_account_named_like_a_player_id_acts_as_nobody() {
    let w = World::new().await;
    let bob = BOB;
    // The exact sequence of the report, with the account's name set to
    // Bob's id (an account from before the check: registration refuses it).
    let mallory = legacy_account(&w, "mallory", bob).await;
    let before = w.version().await;
    let join = w.act(As::Token(&mallory), &json!({"action": "join"})).await;
    assert_eq!(
        join.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        join.text()
    );
    assert!(join.text().contains("ARB-R50"), "{}", join.text());
    let x = w.x.clone();
    for body in [
        json!({"action": "confirm-result", "game": x}),
        json!({"action": "reject-report", "game": x, "reason": "mine"}),
        json!({"action": "withdraw", "player": bob, "reason": "mallory says so"}),
        json!({"action": "request-skip", "player": bob}),
        json!({"action": "request-skip"}),
    ] {
        let a = w.act(As::Token(&mallory), &body).await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{body}: {}", a.text());
    }
    assert_eq!(w.version().await, before, "nothing is stored");

    // The same through the desk's form, logged in with a session.
    let session = login_session(&w.app, "mallory", PASSWORD).await;
    let desk = common::get_with_cookie(&w.app, &format!("/c/{LADDER}/manage"), &session).await;
    let csrf = common::hidden(&desk.text(), "_csrf");
    let version = common::version(&w.app, LADDER).await.to_string();
    let posted = post_form(
        &w.app,
        &format!("/c/{LADDER}/act"),
        &session,
        form_body(&[
            ("_csrf", &csrf),
            ("_version", &version),
            ("action", "confirm-result"),
            ("game", &x),
        ]),
    )
    .await;
    assert_eq!(posted.status, StatusCode::FORBIDDEN, "{}", posted.text());
    assert_eq!(w.version().await, before, "nothing is stored");
}

#[tokio::test]
async fn an_applicant_has_no_player_rights_until_approved() {
    let w = World::new().await;
    // Zed applied with his account; he may not act as a player yet.
    let zed = w.token("zed").to_string();
    let before = w.version().await;
    let skip = w
        .act(As::Token(&zed), &json!({"action": "request-skip"}))
        .await;
    assert_eq!(skip.status, StatusCode::FORBIDDEN, "{}", skip.text());
    assert_eq!(w.version().await, before);
    // Approved, the link his application recorded takes effect.
    let olga = w.token("olga").to_string();
    w.act_ok(
        As::Token(&olga),
        &json!({"action": "approve", "player": "Zed Zane"}),
    )
    .await;
    w.act_ok(As::Token(&zed), &json!({"action": "request-skip"}))
        .await;
    // Unlinked by a moderator, he acts as nobody again.
    w.act_ok(
        As::Token(&olga),
        &json!({"action": "unlink-account", "player": "Zed Zane"}),
    )
    .await;
    let cancel = w
        .act(As::Token(&zed), &json!({"action": "cancel-skip"}))
        .await;
    assert_eq!(cancel.status, StatusCode::FORBIDDEN, "{}", cancel.text());
}

#[tokio::test]
async fn add_player_with_an_unknown_account_stores_nothing() {
    let w = World::new().await;
    let olga = w.token("olga").to_string();
    let before = w.version().await;
    let a = w
        .act(
            As::Token(&olga),
            &json!({"action": "add-player", "name": "Linked Ghost", "account": "ghostplayer"}),
        )
        .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text());
    assert_eq!(a.json()["error"]["field"], "account");
    assert_eq!(w.version().await, before, "an error stores nothing");
}

/// Display names an attacker might pick: ids of every form, and the names
/// of the world's players in other cases and spacing.
fn hostile_name() -> impl Strategy<Value = String> {
    let players = [
        "Alice Adams",
        "Bob Brown",
        "Carol Clark",
        "Dan Dunn",
        "Pete Moder",
        "Eve Evans",
    ];
    prop_oneof![
        (
            0u32..40,
            prop::sample::select(vec!["P", "p", "G", "g", "#", "", "P ", "#P"])
        )
            .prop_map(|(n, prefix)| format!("{prefix}{n}")),
        (
            prop::sample::select(players.to_vec()),
            any::<bool>(),
            prop::sample::select(vec!["", " ", "  "])
        )
            .prop_map(|(name, upper, pad)| {
                let n = if upper {
                    name.to_uppercase()
                } else {
                    name.to_lowercase()
                };
                format!("{pad}{}{pad}", n.replace(' ', "  "))
            }),
        "[A-Za-z#0-9 ]{1,12}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Whatever its name, an account with no link and no grant gets no
    /// right: every player's and moderator's action is refused and nothing
    /// but its own application is stored (TWS ladder).
    #[test]
    fn no_display_name_gives_a_right_on_a_ladder(name in hostile_name()) {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            let w = World::new().await;
            let token = legacy_account(&w, "mallory", &name).await;
            let _ = w.act(As::Token(&token), &json!({"action": "join"})).await;
            let before = w.version().await;
            let (x, y) = (w.x.clone(), w.y.clone());
            for body in [
                json!({"action": "confirm-result", "game": x}),
                json!({"action": "reject-report", "game": x, "reason": "no"}),
                json!({"action": "report-result", "game": y, "result": common::ladder::result("Dan Dunn")}),
                json!({"action": "withdraw", "player": "P2", "reason": "no"}),
                json!({"action": "withdraw", "player": "Bob Brown", "reason": "no"}),
                json!({"action": "request-skip", "player": "P3"}),
                json!({"action": "request-skip"}),
                json!({"action": "record-result", "game": y, "result": common::ladder::result("Dan Dunn")}),
                json!({"action": "link-account", "player": "Dan Dunn", "account": "mallory"}),
            ] {
                let a = w.act(As::Token(&token), &body).await;
                prop_assert_eq!(a.status, StatusCode::FORBIDDEN, "{:?} {}: {}", name, body, a.text());
            }
            prop_assert_eq!(w.version().await, before);
            Ok(())
        })?;
    }
}

#[tokio::test]
async fn a_moderator_links_an_account_from_the_desk_and_only_then_it_acts() {
    let w = World::new().await;
    let otto = w.token("otto").to_string();
    let y = w.y.clone();
    let report = json!({"action": "report-result", "game": y,
        "result": common::ladder::result("Dan Dunn")});
    let refused = w.act(As::Token(&otto), &report).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text());
    // Olga links otto to Dan Dunn with the desk's form (ARB-R50).
    let session = login_session(&w.app, "olga", PASSWORD).await;
    let desk = common::get_with_cookie(&w.app, &format!("/c/{LADDER}/manage"), &session).await;
    assert!(
        desk.text().contains("Link an account to a player"),
        "{}",
        desk.text()
    );
    let csrf = common::hidden(&desk.text(), "_csrf");
    let version = common::version(&w.app, LADDER).await.to_string();
    let posted = post_form(
        &w.app,
        &format!("/c/{LADDER}/act"),
        &session,
        form_body(&[
            ("_csrf", &csrf),
            ("_version", &version),
            ("action", "link-account"),
            ("player", "Dan Dunn"),
            ("account", "otto"),
        ]),
    )
    .await;
    assert_eq!(posted.status, StatusCode::SEE_OTHER, "{}", posted.text());
    w.act_ok(As::Token(&otto), &report).await;
}
