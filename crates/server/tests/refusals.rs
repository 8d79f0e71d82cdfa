//! Issue 14 item 6: a request the server refuses stores nothing, and an
//! empty rules text is refused, not taken as the preset.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use axum::http::StatusCode;
use common::As;
use common::ladder::World;
use serde_json::json;

#[tokio::test]
async fn an_empty_rules_text_is_refused_and_stores_nothing() {
    let w = World::new().await;
    let olga = w.token("olga").to_string();
    for rules in ["", "   \n", "# only a comment\n"] {
        let before = w.version().await;
        let a = w
            .act(
                As::Token(&olga),
                &json!({"action": "change-rules", "rules": rules, "reason": "empty", "from_round": 2}),
            )
            .await;
        assert!(
            a.status == StatusCode::BAD_REQUEST || a.status == StatusCode::UNPROCESSABLE_ENTITY,
            "{rules:?}: {} {}",
            a.status,
            a.text()
        );
        assert_eq!(a.json()["error"]["field"], "rules", "{}", a.text());
        assert_eq!(w.version().await, before, "nothing is stored");
    }
}

/// Issue 17 §2: a misspelled name is refused naming the field, with the
/// name it was meant for ("did you mean Alice Adams?"), and nothing stored.
#[tokio::test]
async fn a_misspelled_player_is_refused_with_the_name_it_was_meant_for() {
    let w = World::new().await;
    let olga = w.token("olga").to_string();
    let before = w.version().await;
    let a = w
        .act(
            As::Token(&olga),
            &json!({"action": "withdraw", "player": "Alcie Adams", "reason": "moved away"}),
        )
        .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text());
    assert_eq!(a.json()["error"]["field"], "player", "{}", a.text());
    let message = a.json()["error"]["message"].as_str().unwrap().to_string();
    assert!(
        message.ends_with("in this competition; did you mean Alice Adams?"),
        "{message}"
    );
    // Nothing close: no guess.
    let a = w
        .act(
            As::Token(&olga),
            &json!({"action": "withdraw", "player": "Xavier Quist", "reason": "moved away"}),
        )
        .await;
    let message = a.json()["error"]["message"].as_str().unwrap().to_string();
    assert!(!message.contains("did you mean"), "{message}");
    assert_eq!(w.version().await, before, "nothing is stored");
}
