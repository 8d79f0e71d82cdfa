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
