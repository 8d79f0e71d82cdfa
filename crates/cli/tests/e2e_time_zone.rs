//! End-to-end: a competition's time zone and the reader's (issue 17 §3,
//! ARB-R82), in a real headless Chromium on the real `arbiter serve
//! --demo` (see `common/browser.rs` for the helpers and what they need).
//!
//! `jordan`, the demo ladder's owner, sets its zone to Asia/Tokyo on
//! `/c/tws-demo/time-zone` (a misspelling first: answered next to the
//! field with his input kept). A reader whose browser is in New York then
//! sees the ladder's deadlines in Tokyo's days with their countdowns, each
//! followed by "your time: …" from `assets/time.js`; a reader in Tokyo sees
//! no such note. Screenshots go to `target/screenshots/time-zone-*.png`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::PathBuf;
use std::time::Duration;

use common::axe::set_time_zone;
use common::browser::{Browser, Driver, Server};

/// The bound of the whole browser session.
const WHOLE_TEST: Duration = Duration::from_secs(240);
const DEMO_PASSWORD: &str = "arbiter-demo";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_organizer_sets_a_zone_and_a_reader_elsewhere_sees_his_own_time_too() {
    let driver = Driver::start();
    let server = Server::start_demo().via_localhost();
    let browser = Browser::open(&driver, &server).await;
    let shots = tokio::time::timeout(WHOLE_TEST, walk(&browser))
        .await
        .unwrap_or_else(|_| panic!("the walk did not finish within {WHOLE_TEST:?}"));
    browser.close().await;
    for s in &shots {
        assert!(s.is_file(), "{} was not saved", s.display());
    }
}

async fn walk(b: &Browser) -> Vec<PathBuf> {
    let mut shots = Vec::new();
    b.log_in("jordan", DEMO_PASSWORD).await;
    b.wait_for_h1("Your account").await;
    b.goto("/c/tws-demo/time-zone").await;
    b.wait_for_h1("The time zone of Twilight Struggle Ladder (demo)")
        .await;
    assert!(b.main_text().await.contains("The time zone is UTC"));

    // A misspelling: the page again, the problem by the field, the input
    // kept.
    b.fill(None, "Time zone", "Asia/Tokio").await;
    b.click_button(None, "Set the time zone").await;
    b.wait_for_h1("The time zone of Twilight Struggle Ladder (demo)")
        .await;
    let error = b.texts(".field-error").await.join(" ");
    assert!(error.contains("did you mean Asia/Tokyo?"), "{error}");
    let kept = b
        .js("return document.getElementById('time_zone').value;")
        .await;
    assert_eq!(kept.as_str(), Some("Asia/Tokio"));
    shots.push(b.screenshot("time-zone-misspelled").await);

    b.fill(None, "Time zone", "Asia/Tokyo").await;
    b.click_button(None, "Set the time zone").await;
    b.wait_for_h1("The time zone of Twilight Struggle Ladder (demo)")
        .await;
    assert!(
        b.main_text()
            .await
            .contains("The time zone is now Asia/Tokyo"),
        "{}",
        b.main_text().await
    );

    // A reader in New York: Tokyo's times, their countdowns, and his own.
    set_time_zone(b, "America/New_York").await;
    b.goto("/c/tws-demo").await;
    let zones = b
        .js("return Array.from(document.querySelectorAll('time[data-zone]')).map(t => t.dataset.zone);")
        .await;
    let zones: Vec<&str> = zones
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|z| z.as_str())
        .collect();
    assert!(!zones.is_empty(), "the ladder page shows its deadlines");
    assert!(zones.iter().all(|z| *z == "Asia/Tokyo"), "{zones:?}");
    let countdowns = b.texts(".countdown").await;
    assert!(
        countdowns.iter().any(|c| c.starts_with("(in ")),
        "an open deadline counts down: {countdowns:?}"
    );
    let local = b.texts(".local-time").await;
    assert_eq!(local.len(), zones.len(), "one note per time: {local:?}");
    assert!(
        local.iter().all(|l| l.contains("your time:")
            && (l.contains("EST") || l.contains("EDT") || l.contains("GMT-"))),
        "{local:?}"
    );
    shots.push(b.screenshot("time-zone-reader-elsewhere").await);

    // A reader in Tokyo: nothing to add.
    set_time_zone(b, "Asia/Tokyo").await;
    b.goto("/c/tws-demo").await;
    assert!(b.texts(".local-time").await.is_empty());
    shots
}
