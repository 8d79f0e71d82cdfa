//! The ladder's rules as a form of named settings (issue 17 §2),
//! `/c/{id}/rules`: each setting with the document's sentence, a preview
//! that lists what changes and from which round, saving through the desk's
//! `change-rules`, a value the rules refuse named next to its field with
//! the input kept, and only the owner's.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use axum::http::StatusCode;
use common::ladder::{LADDER, World};
use common::{PASSWORD, get_with_cookie, hidden, login_session, post_form};

fn enc(s: &str) -> String {
    common::enc(s)
}

/// An attribute's text as the browser sends it back.
fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&#34;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// Every field of the settings form as shown, with `set` changed.
fn settings_form(html: &str, set: &[(&str, &str)], reason: &str) -> String {
    let csrf = hidden(html, "_csrf");
    let mut fields = vec![format!("_csrf={}", enc(&csrf))];
    let form = &html[html.find(r#"action="/c/test-ladder/rules""#).unwrap()..];
    for part in form.split("name=\"s.").skip(1) {
        let key = &part[..part.find('"').unwrap()];
        let tag = &part[..part.find('>').unwrap()];
        let value = match set.iter().find(|(k, _)| *k == key) {
            Some((_, v)) => Some((*v).to_string()),
            None if tag.contains("type=\"checkbox\"") => {
                tag.contains(" checked").then(|| "true".to_string())
            }
            None => tag
                .split("value=\"")
                .nth(1)
                .map(|v| unescape(&v[..v.find('"').unwrap()])),
        };
        if let Some(v) = value {
            fields.push(format!("s.{key}={}", enc(&v)));
        }
    }
    fields.push("from_round=2".into());
    fields.push(format!("reason={}", enc(reason)));
    fields.join("&")
}

#[tokio::test]
async fn the_owner_changes_a_setting_after_seeing_what_it_changes() {
    let w = World::new().await;
    let olga = login_session(&w.app, "olga", PASSWORD).await;
    let url = format!("/c/{LADDER}/rules");
    let page = get_with_cookie(&w.app, &url, &olga).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text());
    let html = page.text();
    for key in [
        "deadline_months",
        "tie_advances",
        "consecutive_skips_for_loss",
        "missed_rounds_for_inactive",
        "bid.influence",
        "bid.side",
    ] {
        assert!(html.contains(&format!("name=\"s.{key}\"")), "{key}: {html}");
    }
    assert!(
        html.contains("Ladder games will have a strict time limit of not more than 3 months"),
        "each setting quotes the document"
    );

    // A value that is not one: named next to its field, the input kept.
    let body = settings_form(&html, &[("deadline_months", "three")], "shorter rounds");
    let bad = post_form(&w.app, &url, &olga, body).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    let bad = bad.text();
    assert!(
        bad.contains(r#"id="e-deadline_months" role="alert">a whole number"#),
        "{bad}"
    );
    assert!(bad.contains(r#"value="three""#), "the input is kept");
    assert!(
        bad.contains("value=\"shorter rounds\""),
        "the reason is kept"
    );

    // A value the rules refuse: the rules' own words, next to the field.
    let body = settings_form(&html, &[("deadline_months", "0")], "shorter rounds");
    let refused = post_form(&w.app, &url, &olga, body).await;
    assert_eq!(
        refused.status,
        StatusCode::BAD_REQUEST,
        "{}",
        refused.text()
    );
    assert!(
        refused.text().contains(r#"id="e-deadline_months""#),
        "{}",
        refused.text()
    );

    // The preview: what changes, from which round; nothing stored.
    let before = w.version().await;
    let body = settings_form(&html, &[("deadline_months", "2")], "shorter rounds");
    let preview = post_form(&w.app, &url, &olga, body).await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.text());
    let preview = preview.text();
    assert!(
        preview.contains("From round 2, 1 setting changes"),
        "{preview}"
    );
    assert!(
        preview.contains("<code>deadline_months</code>: 3 → <strong>2</strong>"),
        "{preview}"
    );
    assert_eq!(w.version().await, before, "a preview stores nothing");

    // Saved through the desk's change-rules.
    let save: Vec<String> = [
        "_csrf",
        "_key",
        "_version",
        "action",
        "rules",
        "from_round",
        "reason",
    ]
    .iter()
    .map(|f| format!("{f}={}", enc(&unescape(&hidden(&preview, f)))))
    .collect();
    let saved = post_form(&w.app, &format!("/c/{LADDER}/act"), &olga, save.join("&")).await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER, "{}", saved.text());
    assert_ne!(w.version().await, before);
    let again = get_with_cookie(&w.app, &url, &olga).await.text();
    assert!(
        again.contains(r#"name="s.deadline_months" value="2""#),
        "round 2's rules have the new value: {again}"
    );
}

#[tokio::test]
async fn only_the_owner_changes_the_rules() {
    let w = World::new().await;
    let url = format!("/c/{LADDER}/rules");
    let anonymous = get_with_cookie(&w.app, &url, "").await;
    assert_eq!(anonymous.status, StatusCode::SEE_OTHER);
    assert!(anonymous.location().starts_with("/login"));
    let mona = login_session(&w.app, "mona", PASSWORD).await;
    let page = get_with_cookie(&w.app, &url, &mona).await;
    assert_eq!(page.status, StatusCode::FORBIDDEN, "{}", page.text());
    let before = w.version().await;
    let csrf = hidden(
        &get_with_cookie(&w.app, "/account", &mona).await.text(),
        "_csrf",
    );
    let post = post_form(
        &w.app,
        &url,
        &mona,
        format!(
            "_csrf={}&s.deadline_months=2&from_round=2&reason=x",
            enc(&csrf)
        ),
    )
    .await;
    assert_eq!(post.status, StatusCode::FORBIDDEN);
    assert_eq!(w.version().await, before);
    // Not a ladder: no such page.
    let none = get_with_cookie(&w.app, "/c/no-such-thing/rules", &mona).await;
    assert_eq!(none.status, StatusCode::NOT_FOUND);
}
