//! Results in bulk over HTTP (issue 18 §2): `POST
//! /api/competitions/{id}/results/import` (text/csv, `?dry_run=true`) and
//! the desk's page `/c/{id}/results-import`, on the ladder of
//! `common::ladder`: a dry run stores nothing and needs no version, an
//! import needs `If-Match` and stores every row in one append, a refused
//! file names its line and column and stores nothing; who may import is in
//! the authorization matrix (`tests/roles.rs`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use axum::http::{Method, StatusCode};
use common::ladder::{LADDER, World};
use common::{Answer, As, form_body, get_with_cookie, hidden, login_session, post_form, send_raw};

const IMPORT: &str = "/api/competitions/test-ladder/results/import";

async fn import(w: &World, who: As<'_>, query: &str, csv: &str, if_match: bool) -> Answer {
    let mut headers = vec![("content-type", "text/csv".to_string())];
    if if_match {
        headers.push(("if-match", w.version().await));
    }
    send_raw(
        &w.app,
        Method::POST,
        &format!("{IMPORT}{query}"),
        who,
        &headers,
        csv.as_bytes().to_vec(),
    )
    .await
}

#[tokio::test]
async fn a_moderator_previews_then_imports_a_round_in_one_append() {
    let w = World::new().await;
    let mona = As::Token(w.token("mona"));
    let csv = format!(
        "game,result,by,vp,turn\n{},Carol Clark,concession,,6\n{},Bob Brown,concession,,4\n",
        w.y, w.x
    );
    let before = w.version().await;

    // A dry run: no version needed, nothing stored.
    let dry = import(&w, mona, "?dry_run=true", &csv, false).await;
    assert_eq!(dry.status, StatusCode::OK, "{}", dry.text());
    let body = dry.json();
    assert_eq!(body["dry_run"], true);
    assert_eq!(body["recorded"], 2);
    assert!(
        body["rows"][0]
            .as_str()
            .unwrap()
            .starts_with(&format!("line 2: {}: Carol Clark", w.y)),
        "{body}"
    );
    assert_eq!(w.version().await, before);

    // An import without If-Match: 428, nothing stored.
    let unversioned = import(&w, mona, "", &csv, false).await;
    assert_eq!(unversioned.status, StatusCode::PRECONDITION_REQUIRED);
    assert_eq!(w.version().await, before);

    // With it: both results in one append, the new version as ETag.
    let done = import(&w, mona, "", &csv, true).await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text());
    let body = done.json();
    assert_eq!(body["recorded"], 2);
    assert_eq!(body["dry_run"], false);
    let after = w.version().await;
    assert_eq!(done.etag(), after);
    assert_eq!(
        common::version_number(&after),
        common::version_number(&before) + 2,
        "one event per result, appended together"
    );

    // The same file again: already recorded, nothing stored.
    let again = import(&w, mona, "", &csv, true).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text());
    assert_eq!(again.json()["unchanged"], 2);
    assert_eq!(w.version().await, after);
}

#[tokio::test]
async fn a_refused_file_names_its_line_and_column_and_stores_nothing() {
    let w = World::new().await;
    let olga = As::Token(w.token("olga"));
    let before = w.version().await;
    let cases: Vec<(String, &[&str])> = vec![
        (
            format!(
                "game,result,by\n{},Carol Clark,vp\n{},Nobody Atall,vp\n",
                w.y, w.x
            ),
            &["line 3, column `result`", "does not play in"],
        ),
        (
            format!("game,result\n{},Carol Clark\n", w.y),
            &["line 2, column `by`", "say how the game ended"],
        ),
        (
            "game,result,by\nG999,Carol Clark,vp\n".into(),
            &["line 2, column `game`"],
        ),
        (
            "game,result,colour\nG1,us,red\n".into(),
            &["line 1, column `colour`"],
        ),
        (
            format!("game,result,by,vp\n{},Carol Clark,vp,lots\n", w.y),
            &["line 2, column `vp`"],
        ),
        ("".into(), &["empty"]),
        ("\u{0}\u{1}\u{2}".into(), &["line 1"]),
    ];
    for (csv, words) in &cases {
        let a = import(&w, olga, "", csv, true).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{csv:?}: {}", a.text());
        let body = a.json();
        let message = body["error"]["message"].as_str().unwrap();
        for word in *words {
            assert!(message.contains(word), "{csv:?}: {message}");
        }
        assert_eq!(body["error"]["field"], "body", "{body}");
        assert_eq!(w.version().await, before, "{csv:?} stored something");
    }
    // Bytes that are not UTF-8.
    let latin1 = send_raw(
        &w.app,
        Method::POST,
        IMPORT,
        olga,
        &[("if-match", before.clone())],
        b"game,result\nG1,M\xfcller\n".to_vec(),
    )
    .await;
    assert_eq!(latin1.status, StatusCode::BAD_REQUEST, "{}", latin1.text());
    assert!(latin1.text().contains("UTF-8"), "{}", latin1.text());
    // Larger than the server takes: 413 before anything is read.
    let huge = "game,result\n".to_string() + &"G1,us\n".repeat(300_000);
    let big = import(&w, olga, "", &huge, true).await;
    assert_eq!(big.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", big.text());
    // Another format's result syntax on a ladder.
    let wrong = import(
        &w,
        olga,
        "",
        "home,away,score\nCarol Clark,Dan Dunn,1-0\n",
        true,
    )
    .await;
    assert_eq!(wrong.status, StatusCode::BAD_REQUEST, "{}", wrong.text());
    assert_eq!(w.version().await, before);
}

#[tokio::test]
async fn the_desk_page_previews_keeps_the_text_and_imports() {
    let w = World::new().await;
    let cookie = login_session(&w.app, "mona", common::PASSWORD).await;
    let page_uri = format!("/c/{LADDER}/results-import");
    let page = get_with_cookie(&w.app, &page_uri, &cookie).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text());
    let html = page.text();
    assert!(html.contains("<textarea id=\"csv\" name=\"csv\""), "{html}");
    let csrf = hidden(&html, "_csrf");
    let version = hidden(&html, "version");
    let csv = format!("game,result,by\n{},Carol Clark,vp\n", w.y);
    let before = w.version().await;
    // The page's form, sent with the page's token and version.
    let send = |csv: String, action: &'static str| {
        let body = form_body(&[
            ("_csrf", &csrf),
            ("version", &version),
            ("csv", &csv),
            ("action", action),
        ]);
        post_form(&w.app, &page_uri, &cookie, body)
    };

    // Preview: what would be recorded, the text kept, nothing stored.
    let preview = send(csv.clone(), "preview").await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.text());
    let html = preview.text();
    assert!(html.contains("What would be recorded"), "{html}");
    assert!(html.contains(&format!("{}: Carol Clark", w.y)), "{html}");
    assert!(html.contains("Carol Clark,vp"), "the text is kept: {html}");
    assert_eq!(w.version().await, before);

    // A refused file: the page again, the line named, the text kept.
    let refused = send("game,result,by\nG999,us,vp\n".to_string(), "import").await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    let html = refused.text();
    assert!(html.contains("line 2"), "{html}");
    assert!(html.contains("G999,us,vp"), "{html}");
    assert_eq!(w.version().await, before);

    // Import.
    let done = send(csv.clone(), "import").await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text());
    assert!(done.text().contains("1 result recorded"), "{}", done.text());
    assert_ne!(w.version().await, before);

    // The same form again on the page as it was (a stale version): 409,
    // said in words.
    let stale = send(csv.clone(), "import").await;
    assert_eq!(stale.status, StatusCode::CONFLICT, "{}", stale.text());
    assert!(
        stale.text().contains("Preview it again"),
        "{}",
        stale.text()
    );

    // Without the CSRF token, or with an action it does not know: refused.
    let no_csrf = post_form(
        &w.app,
        &page_uri,
        &cookie,
        form_body(&[("version", &version), ("csv", &csv), ("action", "preview")]),
    )
    .await;
    assert_eq!(no_csrf.status, StatusCode::FORBIDDEN);
    let odd = post_form(
        &w.app,
        &page_uri,
        &cookie,
        form_body(&[
            ("_csrf", &csrf),
            ("version", &version),
            ("csv", &csv),
            ("action", "x".repeat(500).as_str()),
        ]),
    )
    .await;
    assert_eq!(odd.status, StatusCode::BAD_REQUEST);
    assert!(odd.text().contains("action"), "{}", odd.text());
}

#[tokio::test]
async fn players_and_strangers_are_sent_away_from_the_page() {
    let w = World::new().await;
    let page_uri = format!("/c/{LADDER}/results-import");
    // Not logged in: to the login page.
    let anonymous = get_with_cookie(&w.app, &page_uri, "").await;
    assert_eq!(anonymous.status, StatusCode::SEE_OTHER);
    assert!(
        anonymous.location().starts_with("/login"),
        "{}",
        anonymous.location()
    );
    // A player, and a moderator who plays here: 403.
    for user in ["alice", "pete"] {
        let cookie = login_session(&w.app, user, common::PASSWORD).await;
        let page = get_with_cookie(&w.app, &page_uri, &cookie).await;
        assert_eq!(
            page.status,
            StatusCode::FORBIDDEN,
            "{user}: {}",
            page.text()
        );
    }
    // No such competition.
    let cookie = login_session(&w.app, "olga", common::PASSWORD).await;
    let missing = get_with_cookie(&w.app, "/c/no-such/results-import", &cookie).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}
