//! End-to-end: a player of the XMadn league reports his own game and his
//! opponent confirms it (issue 17 §1, ARB-R45, ARB-R81), clicked through in
//! a real headless Chromium on the real `arbiter serve --demo` (see
//! `common/browser.rs` for the helpers and what they need).
//!
//! Ilse Vogt (`ilse`) logs in, finds her next game on her page (DRR 1 Game
//! 1 of `xmadn-league-open-demo`, against Greta Hahn) and reports it with
//! the form there; Greta (`greta`) logs in, the header says a report waits
//! for her, she confirms it on her page, and the league's table shows the
//! result. Screenshots go to `target/screenshots/reports-*.png`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::browser::{Browser, Driver, Server};

/// The bound of the whole browser session.
const WHOLE_TEST: Duration = Duration::from_secs(240);

const DEMO_PASSWORD: &str = "arbiter-demo";
const LEAGUE: &str = "/c/xmadn-league-open-demo";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_league_player_reports_and_his_opponent_confirms_in_chromium() {
    let started = Instant::now();
    // Processes first: they are killed when these guards drop, whatever
    // happens below. The session cookie is Secure: through localhost.
    let driver = Driver::start();
    let server = Server::start_demo().via_localhost();
    let browser = Browser::open(&driver, &server).await;
    let shots = tokio::time::timeout(WHOLE_TEST, report_and_confirm(&browser))
        .await
        .unwrap_or_else(|_| panic!("the click-through did not finish within {WHOLE_TEST:?}"));
    browser.close().await;
    for s in &shots {
        assert!(s.is_file(), "{} was not saved", s.display());
    }
    println!(
        "end-to-end report on {} in {:.1} s",
        server.url(LEAGUE),
        started.elapsed().as_secs_f64()
    );
}

async fn report_and_confirm(b: &Browser) -> Vec<PathBuf> {
    let mut shots = Vec::new();

    // Ilse finds her game on her page and reports it.
    b.log_in("ilse", DEMO_PASSWORD).await;
    b.wait_for_h1("Your account").await;
    b.goto(&format!("{LEAGUE}/players/3")).await;
    b.wait_for_h1("Ilse Vogt").await;
    let form = b
        .open_details(None, "Report DRR 1 Game 1 (G1) against Greta Hahn")
        .await;
    b.fill(
        Some(&form),
        "Counted pawns, yours first then Greta Hahn's (4-2)",
        "4-2",
    )
    .await;
    b.fill(Some(&form), "Time (m:ss)", "21:40").await;
    shots.push(b.screenshot("reports-form").await);
    b.click_button(Some(&form), "Report").await;
    assert_eq!(b.path().await, format!("{LEAGUE}/players/3"));
    let text = b.main_text().await;
    assert!(
        text.contains("Ilse Vogt reported DRR 1 Game 1 (G1): Ilse Vogt 4-2 Greta Hahn in 21:40")
            && text.contains("It waits for your opponent"),
        "Ilse's report waits: {text}"
    );
    assert!(
        b.buttons(None, "Confirm the report").await.is_empty(),
        "Ilse cannot confirm her own report"
    );
    b.log_out().await;

    // Greta: the header counts the report; she confirms it on her page.
    b.log_in("greta", DEMO_PASSWORD).await;
    b.wait_for_h1("Your account").await;
    let header = b
        .js("return document.body.innerText;")
        .await
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        header.contains("1 report to confirm"),
        "Greta's header: {header}"
    );
    b.goto(&format!("{LEAGUE}/players/1")).await;
    b.wait_for_h1("Greta Hahn").await;
    shots.push(b.screenshot("reports-confirm").await);
    b.click_button(None, "Confirm the report").await;
    assert_eq!(b.path().await, format!("{LEAGUE}/players/1"));

    // The table has it.
    b.goto(LEAGUE).await;
    b.wait_for_h1("XMadn 2T League, open for reports (demo)")
        .await;
    let text = b.main_text().await;
    assert!(text.contains("4-2"), "the league's page: {text}");
    shots.push(b.screenshot("reports-table").await);
    shots
}
