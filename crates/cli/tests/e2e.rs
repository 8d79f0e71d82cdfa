//! End-to-end: the real `arbiter serve --demo` in a real headless Chromium,
//! driven through chromedriver (Debian's `chromium` and `chromium-driver`,
//! which `scripts/test.sh` installs when they are missing).
//!
//! The test clicks through the public pages as a visitor would, checks what
//! they show, saves a screenshot of each main page into
//! `target/screenshots/`, and checks the ladder at a phone's width.
//!
//! It fails (it never skips) when Chromium or chromedriver is missing. Every
//! wait is bounded, and every process it starts (chromedriver, with the
//! browser it launches, and `arbiter serve`) is killed when the test ends,
//! passed or failed.
//!
//! The `Browser`, `Driver` and `Server` helpers are in `common/browser.rs`;
//! `e2e_desk.rs` uses them to click through logins and writes.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::PathBuf;
use std::time::Instant;

use common::browser::{Browser, DESKTOP, Driver, PHONE, Server, WHOLE_TEST, within};
use fantoccini::Locator;

// ---------------------------------------------------------------------------
// The test

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_visitor_clicks_through_the_public_pages_in_chromium() {
    let started = Instant::now();
    // Processes first: they are killed when these guards drop, whatever
    // happens below.
    let driver = Driver::start();
    let server = Server::start_demo();
    let browser = Browser::open(&driver, &server).await;
    let shots = tokio::time::timeout(WHOLE_TEST, visit(&browser))
        .await
        .unwrap_or_else(|_| panic!("the visit did not finish within {WHOLE_TEST:?}"));
    browser.close().await;
    for s in &shots {
        assert!(s.is_file(), "{} was not saved", s.display());
    }
    println!(
        "end-to-end visit of {} in {:.1} s",
        server.url("/"),
        started.elapsed().as_secs_f64()
    );
}

/// The visit itself: the screenshots it saved.
async fn visit(b: &Browser) -> Vec<PathBuf> {
    let mut shots = Vec::new();

    // The list of competitions.
    b.goto("/").await;
    b.wait_for_h1("Competitions").await;
    // A card each (issue 17 §3), named by its heading's link.
    let names = b.texts("main .comp-card h2 a").await;
    assert_eq!(
        names,
        [
            "Riverside Chess Club Round Robin (demo)",
            "UEFA EURO 2024 Group E (demo)",
            "Sunjang Baduk League (demo)",
            "Twilight Struggle Ladder (demo)",
            "XMadn 2T Challengers (demo)",
            "XMadn Challengers, open for reports (demo)",
            "XMadn 2T League (demo)",
            "XMadn 2T League, open for reports (demo)",
        ],
        "the competition list"
    );
    let title = within("read the title", b.client.title()).await;
    assert_eq!(title, "Competitions · Arbiter");
    shots.push(b.screenshot("list").await);

    // The TWS ladder: its champion and its rungs.
    b.follow(
        "Twilight Struggle Ladder (demo)",
        "Twilight Struggle Ladder (demo)",
    )
    .await;
    assert_eq!(b.path().await, "/c/tws-demo");
    // Why he is champion, with its rule, then who: the podium's top step
    // names him, once (issue 17 §3).
    let why = b.text(&b.find("#champion + p").await).await;
    assert_eq!(
        why,
        "The Ladder Champion is the player on rung 1 (TWS Significance of Ladder Standings); the present champion has held it for 1 consecutive round."
    );
    let champion = b
        .text(
            &b.find("#champion ~ .podium-picture .step-1 .step-name")
                .await,
        )
        .await;
    assert_eq!(champion, "Hiro Tanaka");
    let ladder = b.find("#ladder + .scroll table").await;
    let caption = b
        .text(
            &within(
                "find the ladder's caption",
                ladder.find(Locator::Css("caption")),
            )
            .await,
        )
        .await;
    assert!(
        caption.starts_with("Rungs during round 4"),
        "the ladder's caption: {caption:?}"
    );
    let rows = within(
        "find the ladder's rows",
        ladder.find_all(Locator::Css("tbody tr")),
    )
    .await;
    assert!(rows.len() >= 20, "the ladder has {} rows", rows.len());
    let mut rungs = Vec::new();
    for row in &rows {
        let rung = b
            .text(&within("find a rung", row.find(Locator::Css("td.num"))).await)
            .await;
        let player = b
            .text(&within("find a player", row.find(Locator::Css("th a"))).await)
            .await;
        rungs.push((rung, player));
    }
    assert_eq!(
        rungs[..3],
        [
            ("1".to_string(), "Hiro Tanaka".to_string()),
            ("2".to_string(), "Chloé Dubois".to_string()),
            ("3".to_string(), "Stefan Kowalski".to_string()),
        ],
        "the top of the ladder"
    );
    for (i, (rung, player)) in rungs.iter().enumerate() {
        assert_eq!(rung, &(i + 1).to_string(), "the rung of {player}");
    }

    // An explanation: closed, its reason is not rendered; a click on its
    // summary opens it, and it names the rule clause.
    let details = b.find("#ladder + .scroll table tbody tr details.why").await;
    let rule = within(
        "find the explanation's rule",
        details.find(Locator::Css("p.rule")),
    )
    .await;
    assert_eq!(
        b.text(&rule).await,
        "",
        "a closed explanation shows nothing"
    );
    let summary = within(
        "find the explanation's summary",
        details.find(Locator::Css("summary")),
    )
    .await;
    assert_eq!(b.text(&summary).await, "+1");
    within("click the explanation's summary", summary.click()).await;
    let open = within("read the explanation's open property", details.prop("open")).await;
    assert_eq!(open.as_deref(), Some("true"), "the explanation opened");
    let explained = b.text(&details).await;
    assert!(
        explained.contains("Hiro Tanaka won") && explained.contains("moves from rung 2 to rung 1"),
        "the explanation: {explained:?}"
    );
    let rule = b.text(&rule).await;
    assert_eq!(rule, "Rule: TWS Change of Ladder Standings; TWS-R1");
    shots.push(b.screenshot("ladder").await);

    // The ladder at a phone's width: the body does not scroll sideways (a
    // table may, inside its own wrapper).
    let desktop = b.window_size().await;
    b.set_window_size(PHONE.0, PHONE.1).await;
    b.goto("/c/tws-demo").await;
    b.wait_for_h1("Twilight Struggle Ladder (demo)").await;
    let widths = b
        .js("return [document.documentElement.scrollWidth, window.innerWidth];")
        .await;
    let scroll = widths[0].as_u64().unwrap();
    let inner = widths[1].as_u64().unwrap();
    assert!(
        inner <= u64::from(PHONE.0),
        "the phone's viewport should be at most {} px wide, but is {inner} px",
        PHONE.0
    );
    assert!(
        scroll <= inner + 1,
        "at a phone's width ({inner} px) the page is {scroll} px wide: the body scrolls sideways"
    );
    shots.push(b.screenshot("ladder-phone").await);
    b.set_window_size(desktop.0, desktop.1).await;

    // A player: the link from the champion's step, and the charts.
    let link = b
        .find("#champion ~ .podium-picture .step-1 .step-name a")
        .await;
    within("click the champion's link", link.click()).await;
    b.wait_for_h1("Hiro Tanaka").await;
    assert_eq!(b.path().await, "/c/tws-demo/players/Hiro%20Tanaka");
    let charts = b.find_all(".chart > svg").await;
    assert!(
        charts.len() >= 2,
        "the player page has {} charts",
        charts.len()
    );
    let chart = b
        .js(
            "const s = document.querySelector('#results + .chart > svg'); \
             const r = s.getBoundingClientRect(); \
             return [s.getAttribute('role'), s.querySelector('title').textContent, r.width, r.height];",
        )
        .await;
    assert_eq!(chart[0], "img", "the chart's role");
    assert_eq!(
        chart[1], "Results of Hiro Tanaka over time",
        "the chart's title"
    );
    assert!(
        chart[2].as_f64().unwrap() > 100.0 && chart[3].as_f64().unwrap() > 20.0,
        "the chart is drawn: {chart}"
    );
    shots.push(b.screenshot("player").await);

    // The XMadn league.
    b.goto("/").await;
    b.wait_for_h1("Competitions").await;
    b.follow("XMadn 2T League (demo)", "XMadn 2T League (demo)")
        .await;
    assert_eq!(b.path().await, "/c/xmadn-league-demo");
    let captions = b.captions().await;
    assert!(
        captions
            .iter()
            .any(|c| c == "Table: overall record, then the tiebreak steps"),
        "the league's tables: {captions:?}"
    );
    let rows = b.find_all("#table ~ .scroll table tbody tr").await;
    assert!(!rows.is_empty(), "the league table has rows");
    shots.push(b.screenshot("league").await);

    // The XMadn Challengers.
    b.goto("/").await;
    b.wait_for_h1("Competitions").await;
    b.follow("XMadn 2T Challengers (demo)", "XMadn 2T Challengers (demo)")
        .await;
    assert_eq!(b.path().await, "/c/xmadn-challengers-demo");
    let captions = b.captions().await;
    assert!(
        captions.iter().any(|c| c == "Standings"),
        "the Challengers' tables: {captions:?}"
    );
    shots.push(b.screenshot("challengers").await);

    // The Sunjang league, then its closed season 2.
    b.goto("/").await;
    b.wait_for_h1("Competitions").await;
    b.follow("Sunjang Baduk League (demo)", "Sunjang Baduk League (demo)")
        .await;
    b.follow("Season 2", "Season 2 of Sunjang Baduk League (demo)")
        .await;
    assert_eq!(b.path().await, "/c/sunjang-demo/seasons/2");
    let headings = b.texts("main h2").await;
    assert!(
        headings.starts_with(&["The pyramid".to_string(), "Final round".to_string()]),
        "the season's headings: {headings:?}"
    );
    let captions = b.captions().await;
    assert!(
        captions.iter().any(|c| c == "Table of group A1"),
        "the season's tables: {captions:?}"
    );
    shots.push(b.screenshot("sunjang-season").await);

    // What if: a hypothetical result for a game of the running season,
    // sent with the page's GET form; the group's table after it.
    b.goto("/c/sunjang-demo").await;
    b.wait_for_h1("Sunjang Baduk League (demo)").await;
    b.follow("What if", "What if, in Sunjang Baduk League (demo)")
        .await;
    assert_eq!(b.path().await, "/c/sunjang-demo/what-if");
    let select = b.find("main form select").await;
    within("choose a result", select.select_by_value("black")).await;
    b.click_button(None, "Show what would follow").await;
    b.wait_for_h1("What if, in Sunjang Baduk League (demo)")
        .await;
    assert!(
        b.path_and_query()
            .await
            .starts_with("/c/sunjang-demo/what-if?"),
        "the form is a GET"
    );
    let headings = b.texts("main h2").await;
    assert!(
        headings.iter().any(|h| h == "What would follow"),
        "the what-if's headings: {headings:?}"
    );
    let captions = b.captions().await;
    assert!(
        captions
            .iter()
            .any(|c| c.starts_with("Table of group") && c.contains("after these results")),
        "the what-if's tables: {captions:?}"
    );
    shots.push(b.screenshot("what-if").await);

    shots.extend(round_robins(b).await);
    shots
}

/// The demo round robins (issue 16): the EURO group from the list, in
/// UEFA's order, and the running chess round robin, each at a desktop's
/// and at a phone's width without the page scrolling sideways.
async fn round_robins(b: &Browser) -> Vec<PathBuf> {
    let mut shots = Vec::new();
    let desktop = b.window_size().await;
    assert_eq!(desktop.0, DESKTOP.0, "the desktop's width");
    b.goto("/").await;
    b.wait_for_h1("Competitions").await;
    b.follow(
        "UEFA EURO 2024 Group E (demo)",
        "UEFA EURO 2024 Group E (demo)",
    )
    .await;
    assert_eq!(b.path().await, "/c/euro-2024-group-e-demo");
    let teams = b.texts("#table + .scroll table tbody th[scope=row]").await;
    assert_eq!(
        teams,
        ["Romania", "Belgium", "Slovakia", "Ukraine"],
        "the published order of Group E (the block of head-to-head, ARB-R67)"
    );
    let captions = b.captions().await;
    assert!(
        captions
            .iter()
            .any(|c| c == "Table: points, then the tiebreaks in the rules' order"),
        "the group's tables: {captions:?}"
    );
    // Romania's place opens in place and names its criterion and rule.
    let first = b.find("#table + .scroll table tbody tr").await;
    let why = b.open_details(Some(&first), "Why").await;
    let explained = b.text(&why).await;
    assert!(
        explained.contains("Romania is 1st with 4 points.")
            && explained.contains("head-to-head scored")
            && explained.contains("ARB-R67"),
        "Romania's place: {explained:?}"
    );
    fits(b, "the EURO group").await;
    shots.push(b.screenshot("round-robin-euro").await);

    b.goto("/c/chess-round-robin-demo").await;
    b.wait_for_h1("Riverside Chess Club Round Robin (demo)")
        .await;
    let players = b.texts("#table + .scroll table tbody th[scope=row]").await;
    assert_eq!(players.len(), 10, "the chess table: {players:?}");
    let left = b.texts("#rounds ~ .scroll td .muted").await;
    assert_eq!(
        left.iter().filter(|t| *t == "to play").count(),
        12,
        "round 7's last two games and rounds 8 and 9 are to play: {left:?}"
    );
    fits(b, "the chess round robin").await;
    shots.push(b.screenshot("round-robin-chess").await);

    b.set_window_size(PHONE.0, PHONE.1).await;
    for (path, h1, name) in [
        (
            "/c/euro-2024-group-e-demo",
            "UEFA EURO 2024 Group E (demo)",
            "round-robin-euro-phone",
        ),
        (
            "/c/chess-round-robin-demo",
            "Riverside Chess Club Round Robin (demo)",
            "round-robin-chess-phone",
        ),
    ] {
        b.goto(path).await;
        b.wait_for_h1(h1).await;
        fits(b, path).await;
        // A round's games fit the phone without scrolling their box (a
        // pixel of rounding aside, as for the ladder above).
        let rounds = b
            .js(
                "return Array.from(document.querySelectorAll('table.games')).map(t => \
                 [t.parentElement.scrollWidth, t.parentElement.clientWidth]);",
            )
            .await;
        let rounds = rounds.as_array().unwrap();
        assert!(!rounds.is_empty(), "{path}: no round");
        for (i, w) in rounds.iter().enumerate() {
            assert!(
                w[0].as_u64().unwrap() <= w[1].as_u64().unwrap() + 1,
                "{path}: round {} is {} px wide in a box of {} px",
                i + 1,
                w[0],
                w[1]
            );
        }
        shots.push(b.screenshot(name).await);
    }
    b.set_window_size(desktop.0, desktop.1).await;
    shots
}

/// The page does not scroll sideways at the window's width (a table may,
/// inside its own scrolling box).
async fn fits(b: &Browser, what: &str) {
    let widths = b
        .js("return [document.scrollingElement.scrollWidth, window.innerWidth];")
        .await;
    let scroll = widths[0].as_u64().unwrap();
    let inner = widths[1].as_u64().unwrap();
    assert!(
        scroll <= inner,
        "{what}: the page is {scroll} px wide in a window {inner} px wide: it scrolls sideways"
    );
}
