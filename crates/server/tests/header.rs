//! The shared header for a logged-in reader (issue 17 §1): it names the
//! account and counts what waits for it — a report of his opponent's to
//! confirm, his games due within seven days or overdue — read from the
//! competitions where a link event makes the account a player; the
//! account page lists them first, each with a link to act. Anonymous
//! readers, bad session cookies and API tokens get the plain header, and
//! a per-reader header is never kept by the page cache.
//!
//! On the ladder of `tests/roles.rs` (`common::ladder`): Alice (`alice`)
//! reported game X against Bob (`bob`), so Bob has a report to confirm;
//! Carol (`carol`) plays game Y; `otto` plays nothing.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter_engine::model::Time;
use arbiter_server::Clock;
use axum::Router;
use axum::http::StatusCode;
use common::ladder::{LADDER, World};
use common::{Answer, PASSWORD, get_with_cookie, login_session};

/// The header of a page (up to the end of the site's navigation).
fn header(html: &str) -> &str {
    let start = html.find("<header class=\"site-header\">").unwrap();
    let end = html[start..].find("</header>").unwrap();
    &html[start..start + end]
}

async fn page(app: &Router, uri: &str, cookie: &str) -> Answer {
    let a = get_with_cookie(app, uri, cookie).await;
    assert_eq!(a.status, StatusCode::OK, "{uri}: {}", a.text());
    a
}

/// The running round's deadline, from the ladder's state.
async fn deadline(w: &World) -> Time {
    let (ladder, _) = w.state.service.load(LADDER, None).await.unwrap();
    ladder.open_round().unwrap().deadline
}

/// The same server at another time.
fn at(w: &World, now: Time) -> Router {
    arbiter_server::app(w.state.clone().with_clock(Clock::Fixed(now)))
}

#[tokio::test]
async fn the_header_names_the_reader_and_counts_what_waits_for_him() {
    let w = World::new().await;
    // Three days before the round's deadline.
    let app = at(&w, deadline(&w).await - chrono::Duration::days(3));

    // Bob: Alice's report to confirm, and game X due.
    let bob = login_session(&app, "bob", PASSWORD).await;
    let html = page(&app, "/", &bob).await.text();
    let head = header(&html);
    assert!(
        head.contains(r#"<a href="/account"><span class="vh">Your account: </span>Bob Brown</a>"#),
        "{head}"
    );
    assert!(
        head.contains(
            r#"<a class="waiting" href="/account#waiting">1 report to confirm, 1 game due soon</a>"#
        ),
        "{head}"
    );
    // On every page: a competition's, its desk, the search, a 404.
    for uri in [
        format!("/c/{LADDER}"),
        format!("/c/{LADDER}/history"),
        format!("/c/{LADDER}/manage"),
        "/search?q=bob".to_string(),
    ] {
        let html = page(&app, &uri, &bob).await.text();
        assert!(header(&html).contains("1 report to confirm"), "{uri}");
    }
    let missing = get_with_cookie(&app, "/no/such/page", &bob).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert!(header(&missing.text()).contains("Bob Brown"));

    // The account page lists it first, each with a link to act.
    let html = page(&app, "/account", &bob).await.text();
    let main = &html[html.find("<main").unwrap()..];
    let waiting = main
        .find("<h2 id=\"waiting\">Waiting for you</h2>")
        .unwrap();
    assert!(waiting < main.find("<h2 id=\"roles\">").unwrap());
    let list = &main[waiting..main.find("</section>").unwrap()];
    let items: Vec<&str> = list.split("<li>").skip(1).collect();
    assert_eq!(items.len(), 2, "{list}");
    assert!(
        items[0].contains("Alice Adams reported the result of")
            && items[0].contains("confirm or dispute it"),
        "{}",
        items[0]
    );
    assert!(
        items[0].contains(&format!(
            r#"<a href="/c/{LADDER}/manage">confirm or dispute it on the desk</a>"#
        )),
        "{}",
        items[0]
    );
    assert!(
        items[1].contains("Alice Adams")
            && items[1].contains("Bob Brown")
            && items[1].contains("is due in 3 days"),
        "{}",
        items[1]
    );
    assert!(items[1].contains(&format!(r#"<a href="/c/{LADDER}/manage">its desk</a>"#)));

    // Carol: only her game, in the header's words.
    let carol = login_session(&app, "carol", PASSWORD).await;
    let head = page(&app, "/", &carol).await.text();
    let head = header(&head);
    assert!(head.contains("Carol Clark</a>"), "{head}");
    let short = head
        .split("class=\"waiting\" href=\"/account#waiting\">")
        .nth(1)
        .unwrap();
    assert!(
        short.starts_with("your game G") && short.contains(" is due in 3 days</a>"),
        "{head}"
    );

    // Alice reported her game: nothing of hers to confirm, her game due.
    let alice = login_session(&app, "alice", PASSWORD).await;
    let head = page(&app, "/", &alice).await.text();
    assert!(!header(&head).contains("report to confirm"), "{head}");

    // Otto plays nowhere: his name, nothing waiting.
    let otto = login_session(&app, "otto", PASSWORD).await;
    let html = page(&app, "/", &otto).await.text();
    let head = header(&html);
    assert!(head.contains("Otto Outis</a>"), "{head}");
    assert!(!head.contains("class=\"waiting\""), "{head}");
    let html = page(&app, "/account", &otto).await.text();
    assert!(html.contains("Nothing is waiting for you"), "{html}");
}

#[tokio::test]
async fn an_overdue_game_is_counted_and_a_far_one_is_not() {
    let w = World::new().await;
    let due = deadline(&w).await;
    // Two days past the deadline: overdue.
    let app = at(&w, due + chrono::Duration::days(2));
    let carol = login_session(&app, "carol", PASSWORD).await;
    let html = page(&app, "/account", &carol).await.text();
    assert!(
        header(&html).contains(" is overdue by 2 days</a>"),
        "{}",
        header(&html)
    );
    assert!(html.contains("is overdue by 2 days: deadline "), "{html}");
    // Ten days before: not yet.
    let app = at(&w, due - chrono::Duration::days(10));
    let carol = login_session(&app, "carol", PASSWORD).await;
    let html = page(&app, "/", &carol).await.text();
    assert!(
        !header(&html).contains("class=\"waiting\""),
        "{}",
        header(&html)
    );
}

#[tokio::test]
async fn anonymous_readers_bad_cookies_and_tokens_get_the_plain_header_and_the_cache_keeps_no_reader()
 {
    let w = World::new().await;
    let app = at(&w, deadline(&w).await - chrono::Duration::days(3));
    let plain = r#"<li><a href="/account">Account</a></li>"#;
    let uri = format!("/c/{LADDER}");
    // A reader's page first, then the same page for nobody: the cache
    // neither answered the first nor kept it.
    let bob = login_session(&app, "bob", PASSWORD).await;
    let first = page(&app, &uri, &bob).await;
    assert!(header(&first.text()).contains("Bob Brown</a>"));
    assert_ne!(
        first
            .headers
            .get("x-arbiter-page-cache")
            .map(|v| v.to_str().unwrap()),
        Some("hit")
    );
    for _ in 0..2 {
        let anon = page(&app, &uri, "").await.text();
        assert!(header(&anon).contains(plain), "{}", header(&anon));
        assert!(!header(&anon).contains("Your account: "));
        assert!(!header(&anon).contains("class=\"waiting\""));
    }
    // A session cookie that is no session, or garbage: the plain header.
    for cookie in [
        "arbiter_session=0000000000000000000000000000000000000000000000000000000000000000"
            .to_string(),
        "arbiter_session=%3Cscript%3E".to_string(),
        format!("arbiter_session={}", "x".repeat(5000)),
        "arbiter_session=".to_string(),
    ] {
        let a = page(&app, "/", &cookie).await.text();
        assert!(header(&a).contains(plain), "{cookie}");
    }
    // An API token is a program's, not a reader's: the plain header.
    let a = common::send(
        &app,
        axum::http::Method::GET,
        "/",
        common::As::Token(w.token("bob")),
        &[],
        None,
    )
    .await;
    assert_eq!(a.status, StatusCode::OK);
    assert!(header(&a.text()).contains(plain));
}

#[tokio::test]
async fn a_round_robin_game_due_waits_too() {
    // The round robin dates its games by their round's deadline: read
    // through its calendar, as the ladder's.
    use arbiter_engine::roundrobin::{Command, RoundRobin};
    let today: Time = "2026-12-05T12:00:00Z".parse().unwrap();
    let store = arbiter_store_sqlite::SqliteStore::open_in_memory()
        .await
        .unwrap();
    let state = arbiter_server::AppState::new(arbiter_service::Service::new(store))
        .with_clock(Clock::Fixed(today));
    let (_, rr, _) = arbiter_server::demo::install_all(&state.service, today)
        .await
        .unwrap();
    let chess = rr.chess.0.clone();
    common::accounts_with_tokens(&state, &[("rita", "Rita Rook", false)]).await;
    let (c, _) = state
        .service
        .load_as::<RoundRobin>(&chess, None)
        .await
        .unwrap();
    // The first round with a game still to play, and a player of it.
    let (player, deadline) = c
        .rounds
        .iter()
        .find_map(|r| {
            let d = r.deadline?;
            r.games
                .iter()
                .filter_map(|g| c.game(*g))
                .find(|g| c.counted_score(g).is_none())
                .map(|g| (g.home, d))
        })
        .unwrap();
    let name = c.entrants[player.index()].name.clone();
    state
        .service
        .execute_as::<RoundRobin>(
            &chess,
            Command::LinkAccount {
                player,
                account: "rita".into(),
            },
            &arbiter_service::Context::new("jordan", today),
        )
        .await
        .unwrap();
    let app = arbiter_server::app(
        state
            .clone()
            .with_clock(Clock::Fixed(deadline - chrono::Duration::days(2))),
    );
    let rita = login_session(&app, "rita", PASSWORD).await;
    let html = page(&app, "/account", &rita).await.text();
    let head = header(&html);
    let short = head
        .split("class=\"waiting\" href=\"/account#waiting\">")
        .nth(1)
        .unwrap_or_else(|| panic!("nothing waits: {head}"));
    assert!(
        short.starts_with("your game ") && short.contains(" is due in 2 days</a>"),
        "{head}"
    );
    assert!(html.contains(&name), "{name}");
    assert!(
        html.contains(&format!(r#"<a href="/c/{chess}/manage">its desk</a>"#)),
        "{html}"
    );
}
