//! End-to-end: no page scrolls sideways (issue 17 §3, "readable
//! everywhere"). The real `arbiter serve --demo` in a real headless
//! Chromium, driven through chromedriver (see `common/browser.rs`), visits
//! every page type — the list, every competition of every format with each
//! page of its menu (its players, statistics, ratings, projection, what is
//! still possible, what if, history), a player of every competition (each
//! format's player page, issue 17 §1), the players index filtered and a
//! refused filter, a round and a season, the
//! statistics of every ladder, a filtered history and a refused filter,
//! the search's results and a refused search, the error page, the login
//! and registration forms and a refused login's page, a what-if with an
//! outcome; logged in as the organizer `jordan` the account page, `/new`,
//! every competition's desk and its results import, the Sunjang desk's
//! corrections filtered (a match, none, a refused filter), the ladder's
//! calendar feeds, webhooks and rules form and the preview of its round's
//! close; and
//! logged in as the ladder player `oscar` his account, his ladder and his
//! desk — at a phone's width (390 px) and a desktop's (1280 px), and checks
//! that `document.documentElement.scrollWidth <= window.innerWidth`, less
//! the vertical scroll bar headless Chromium draws (a phone overlays it):
//! a wide table may scroll inside its own box, the page itself never. At
//! both widths each table's row headers (the player, the team, the game)
//! must be in view without scrolling their table.
//!
//! A page that overflows is reported with its width and the widest
//! elements that stick out of the viewport without being inside a box that
//! scrolls or clips, so the fix is where the message points. Every page's
//! screenshot at both widths goes to `target/e2e-screenshots/` (printed at
//! the end).
//!
//! The same visit audits the page's accessibility (issue 17 §3): axe-core
//! (`common/axe.rs`, installed by `scripts/test.sh`) runs in the page at
//! both widths, every `<details>` opened, in the light colour scheme and
//! again in the dark one (`prefers-color-scheme` emulated through
//! Chromium's DevTools protocol, the page restyled in place), with every
//! rule axe runs by default, and every serious or critical violation
//! is listed: its rule, impact, page, width and scheme, the failing
//! elements' selectors with axe's words on each, and its help text.
//! `ARBITER_E2E_AXE=0` leaves the audit out (the overflow check alone).
//!
//! It fails (it never skips) when Chromium, chromedriver or axe-core is
//! missing; every wait is bounded, and every process it starts is killed
//! when it ends.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::axe::{Axe, Scheme, set_scheme};
use common::browser::{Browser, DESKTOP, Driver, PHONE, Server};

/// The demo organizer (`arbiter_server::demo`), and the demo's password.
const ORGANIZER: &str = "jordan";
const PASSWORD: &str = "arbiter-demo";
/// A demo ladder player with a game to play in the running round, and his
/// ladder.
const PLAYER: &str = "oscar";
const LADDER: &str = "/c/tws-demo";
/// Not an address: the page a refused login leads to (a form's problem).
const REFUSED_LOGIN: &str = "POST /login";
/// Not an address: the page the ladder desk's "Preview the close" leads to
/// (what closing the running round early would do, nothing stored).
const PREVIEW_CLOSE: &str = "POST /c/tws-demo/act (Preview the close)";

/// What a page sticks out with, measured in the browser: the document's
/// width, the viewport's, and the widest elements that end beyond the
/// viewport outside any box that scrolls or clips them, and the texts
/// that run out of their element (a description, its right edge and its
/// width), the furthest out first.
const MEASURE: &str = r#"
// The width the page has to fit: the viewport, less a scroll bar where
// the browser draws one (a phone's overlays it).
const vw = Math.min(window.innerWidth, document.documentElement.clientWidth);
const sw = document.documentElement.scrollWidth;
// Inside a box that scrolls or clips it: an ancestor with overflow-x set,
// which for an absolutely positioned element must be positioned itself
// (or lie beyond its containing block) to hold it.
const contained = (el) => {
  const own = getComputedStyle(el).position;
  if (own === 'fixed') return false;
  let escaping = own === 'absolute';
  for (let p = el.parentElement; p && p !== document.body && p !== document.documentElement; p = p.parentElement) {
    const s = getComputedStyle(p);
    const o = s.overflowX;
    const clips = o === 'auto' || o === 'scroll' || o === 'hidden' || o === 'clip';
    const positioned = s.position !== 'static';
    if (clips && (!escaping || positioned)) return true;
    if (positioned) {
      if (s.position === 'fixed') return false;
      escaping = s.position === 'absolute';
    }
  }
  return false;
};
const describe = (el) => {
  let d = el.tagName.toLowerCase();
  if (el.id) d += '#' + el.id;
  if (typeof el.className === 'string' && el.className.trim()) d += '.' + el.className.trim().split(/\s+/).join('.');
  const path = [];
  for (let p = el.parentElement; p && p !== document.body && path.length < 4; p = p.parentElement) {
    let s = p.tagName.toLowerCase();
    if (p.id) s += '#' + p.id;
    if (typeof p.className === 'string' && p.className.trim()) s += '.' + p.className.trim().split(/\s+/).join('.');
    path.unshift(s);
  }
  const text = (el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 60);
  return path.join(' > ') + ' > ' + d + (text ? ' "' + text + '"' : '');
};
const out = [];
for (const el of document.body.querySelectorAll('*')) {
  const r = el.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) continue;
  if (r.right > vw + 0.5 && !contained(el)) out.push([describe(el), Math.round(r.right), Math.round(r.width)]);
}
// Text that runs out of its element (a word too long to break).
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
const range = document.createRange();
for (let t = walker.nextNode(); t; t = walker.nextNode()) {
  if (!t.textContent.trim() || !t.parentElement) continue;
  range.selectNodeContents(t);
  const r = range.getBoundingClientRect();
  if (r.right > vw + 0.5 && !contained(t.parentElement) && getComputedStyle(t.parentElement).position !== 'absolute') {
    out.push(['the text of ' + describe(t.parentElement), Math.round(r.right), Math.round(r.width)]);
  }
}
out.sort((a, b) => b[1] - a[1]);
// Each row's header (the player, the team, the game) in view without
// scrolling its table.
const rows = [];
for (const th of document.querySelectorAll('main table tbody th[scope=row]')) {
  const r = th.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) continue;
  if (r.left < -0.5 || r.right > vw + 0.5) rows.push([describe(th), Math.round(r.left), Math.round(r.right)]);
}
return [sw, vw, out.slice(0, 5), document.querySelectorAll('h1').length ? document.querySelector('h1').textContent.trim() : '', rows.slice(0, 5), rows.length];
"#;

/// The accessibility audit and what it found and cost.
#[derive(Debug)]
struct Audit {
    axe: Axe,
    violations: Vec<String>,
    /// Moderate and minor violations: printed, failing nothing.
    lesser: Vec<String>,
    runs: usize,
    time: Duration,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_page_scrolls_sideways_or_fails_the_accessibility_audit() {
    // axe-core first: missing, the test fails before anything starts.
    let mut audit = (std::env::var("ARBITER_E2E_AXE").as_deref() != Ok("0")).then(|| Audit {
        axe: Axe::load(),
        violations: Vec::new(),
        lesser: Vec::new(),
        runs: 0,
        time: Duration::ZERO,
    });
    // Processes first: they are killed when these guards drop, whatever
    // happens below. Through `localhost`, so that the session's `Secure`
    // cookie is sent over plain HTTP.
    let driver = Driver::start();
    let server = Server::start_demo().via_localhost();
    let b = Browser::open(&driver, &server).await;
    let dir = shots_dir();
    let started = Instant::now();
    if audit.is_some() {
        set_scheme(&b, Scheme::Light).await;
    }

    let (comps, mut public) = public_pages(&b).await;
    public.push(REFUSED_LOGIN.to_string());
    let mut problems = Vec::new();
    let mut checked = 0;
    for path in &public {
        problems.extend(check(&b, path, "", &dir, audit.as_mut()).await);
        checked += 1;
    }

    // Logged in as the organizer: his account, `/new`, every desk, and the
    // ladder's calendar feeds and webhooks.
    b.set_window_size(DESKTOP.0, DESKTOP.1).await;
    b.goto("/login").await;
    b.log_in(ORGANIZER, PASSWORD).await;
    let mut private = vec!["/account".to_string(), "/new".to_string()];
    for c in &comps {
        private.push(format!("{c}/manage"));
        private.push(format!("{c}/results-import"));
    }
    private.push(format!("{LADDER}/calendars"));
    private.push(format!("{LADDER}/webhooks"));
    private.push(format!("{LADDER}/time-zone"));
    // The ladder's rules as named settings (issue 17 §2), its owner's.
    private.push(format!("{LADDER}/rules"));
    // The Sunjang desk's corrections found by player (open), a name that
    // matches nothing (its suggestion) and a group it cannot read (issue 17
    // §2).
    for query in ["cor_player=kim", "cor_player=Kim+Min-jn", "cor_group=Z9"] {
        private.push(format!("/c/sunjang-demo/manage?{query}"));
    }
    private.push(PREVIEW_CLOSE.to_string());
    for path in &private {
        problems.extend(check(&b, path, "", &dir, audit.as_mut()).await);
        checked += 1;
    }

    // Logged in as a ladder player: his account, his ladder (with his game)
    // and his desk (the form that reports his result).
    b.set_window_size(DESKTOP.0, DESKTOP.1).await;
    b.log_out().await;
    b.log_in(PLAYER, PASSWORD).await;
    for path in [
        "/account".to_string(),
        LADDER.to_string(),
        format!("{LADDER}/manage"),
    ] {
        problems.extend(check(&b, &path, PLAYER, &dir, audit.as_mut()).await);
        checked += 1;
    }
    b.close().await;

    println!(
        "{checked} pages checked at {} and {} px in {:.1} s; screenshots in {}",
        PHONE.0,
        DESKTOP.0,
        started.elapsed().as_secs_f64(),
        dir.display()
    );
    assert!(
        checked >= 40,
        "only {checked} pages were found to check: {public:?}"
    );
    if audit.is_none() {
        println!("accessibility audit left out (ARBITER_E2E_AXE=0)");
    }
    let violations = audit.map(|a| {
        println!(
            "accessibility audit: axe-core {} run {} times (every page at both widths, light and dark) in {:.1} s; {} serious or critical violation(s), {} moderate or minor",
            common::axe::AXE_VERSION,
            a.runs,
            a.time.as_secs_f64(),
            a.violations.len(),
            a.lesser.len()
        );
        for v in &a.lesser {
            println!("accessibility, not failing: {v}");
        }
        a.violations
    });
    let violations = violations.unwrap_or_default();
    let mut failures = Vec::new();
    if !problems.is_empty() {
        failures.push(format!(
            "{} page(s) scroll sideways:\n- {}",
            problems.len(),
            problems.join("\n- ")
        ));
    }
    if !violations.is_empty() {
        failures.push(format!(
            "{} serious or critical accessibility violation(s) found by axe-core:\n- {}",
            violations.len(),
            violations.join("\n- ")
        ));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// `target/e2e-screenshots/`, beside the binaries under test, created.
fn shots_dir() -> PathBuf {
    let exe = Path::new(env!("CARGO_BIN_EXE_arbiter"));
    let target = exe
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| common::workspace_root().join("target"));
    let dir = target.join("e2e-screenshots");
    std::fs::create_dir_all(&dir)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

/// The hrefs of the elements matching `css`, as paths with their query.
async fn hrefs(b: &Browser, css: &str) -> Vec<String> {
    let v = b
        .js(&format!(
            "return Array.from(document.querySelectorAll({css:?})).map(a => a.getAttribute('href'));"
        ))
        .await;
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|h| h.as_str())
                .map(|h| h.split('#').next().unwrap_or("").to_string())
                .filter(|h| h.starts_with('/'))
                .collect()
        })
        .unwrap_or_default()
}

/// Every public page type, found as a reader finds them: the list, each
/// competition, the pages of its menu (the desk aside), the first player,
/// round and season it links to; then the pages no menu links to. The
/// competitions' addresses, and every page.
async fn public_pages(b: &Browser) -> (Vec<String>, Vec<String>) {
    b.set_window_size(DESKTOP.0, DESKTOP.1).await;
    b.goto("/").await;
    b.wait_for_h1("Competitions").await;
    let mut comps: Vec<String> = hrefs(b, "main a[href^='/c/']")
        .await
        .into_iter()
        .filter(|h| h.matches('/').count() == 2)
        .collect();
    comps.sort();
    comps.dedup();
    assert!(comps.len() >= 6, "the demo's competitions: {comps:?}");
    let mut pages = vec!["/".to_string(), "/stats".to_string()];
    let mut seen: BTreeSet<String> = pages.iter().cloned().collect();
    for c in &comps {
        b.goto(c).await;
        let mut found = vec![c.clone()];
        found.extend(
            hrefs(b, "nav.comp-nav a")
                .await
                .into_iter()
                .filter(|h| !h.ends_with("/manage")),
        );
        for kind in ["players", "rounds", "seasons"] {
            let css = format!("main a[href^='{c}/{kind}/']");
            if let Some(first) = hrefs(b, &css).await.into_iter().next() {
                found.push(first);
            }
        }
        // Every format's players have a page of their own (issue 17 §1),
        // linked from the competition's tables.
        assert!(
            found
                .iter()
                .any(|p| p.starts_with(&format!("{c}/players/"))),
            "{c} links no player's page"
        );
        for p in found {
            if seen.insert(p.clone()) {
                pages.push(p);
            }
        }
    }
    // A filtered history, a history filter refused (400), the search with
    // its results (more than it shows) and refused (400), the error page
    // (404), and the forms of a visitor.
    pages.extend(
        [
            "/c/tws-demo/history?player=Hiro+Tanaka&round=2",
            "/c/sunjang-demo/history?round=99999",
            // The players index filtered (the longest list, Sunjang's).
            "/c/sunjang-demo/players?q=a",
            "/search?q=e",
            "/search?q=Chlo%C3%A9+Dubois",
            "/search?q=Ana%00",
            "/c/no-such-competition",
            "/login",
            "/register",
            // The JSON API's reference (issue 17 §3).
            "/docs/api",
            // A what-if with an outcome to show (G49 is a game of the
            // running round).
            "/c/tws-demo/what-if?G49=ussr",
        ]
        .map(str::to_string),
    );
    // The players index's filter refused (400: over 200 characters).
    pages.push(format!("/c/tws-demo/players?q={}", "a".repeat(201)));
    (comps, pages)
}

/// Visit `path` ([`REFUSED_LOGIN`]: log in with a wrong password;
/// [`PREVIEW_CLOSE`]: preview the close on the ladder's desk) at the
/// phone's width and at the desktop's; a screenshot of each (its name
/// prefixed by `viewer`, the account logged in when it matters), and a
/// sentence for each width at which the page is wider than the window.
/// With `audit`, axe-core audits the page at each width in the light
/// scheme, then in the dark one.
async fn check(
    b: &Browser,
    path: &str,
    viewer: &str,
    dir: &Path,
    mut audit: Option<&mut Audit>,
) -> Vec<String> {
    let mut problems = Vec::new();
    let slug: String = path
        .trim_start_matches('/')
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let slug = if slug.is_empty() {
        "index".into()
    } else {
        slug
    };
    let slug = if viewer.is_empty() {
        slug
    } else {
        format!("{viewer}-{slug}")
    };
    for (width, height) in [PHONE, DESKTOP] {
        b.set_window_size(width, height).await;
        if path == REFUSED_LOGIN {
            b.goto("/login").await;
            b.log_in("nobody", "not the password").await;
            assert_eq!(b.path().await, "/login", "a refused login stays on /login");
        } else if path == PREVIEW_CLOSE {
            b.goto(&format!("{LADDER}/manage")).await;
            b.js(
                "for (const d of document.querySelectorAll('details')) d.open = true; return true;",
            )
            .await;
            // Its games still open, the round closes early only with a
            // reason (they carry over).
            b.fill(None, "Reason to close early", "the audit's preview")
                .await;
            b.click_button(None, "Preview the close").await;
        } else {
            b.goto(path).await;
        }
        let m = b.js(MEASURE).await;
        let scroll = m[0].as_f64().unwrap_or(0.0);
        let inner = m[1].as_f64().unwrap_or(0.0);
        let h1 = m[3].as_str().unwrap_or("").to_string();
        assert!(
            !h1.is_empty(),
            "{path} at {width} px: the page has no heading"
        );
        // The window really is that wide (a viewport wider than asked
        // would hide an overflow).
        assert!(
            inner > 0.0 && inner <= f64::from(width),
            "{path}: the viewport is {inner} px wide in a window of {width} px"
        );
        if scroll > inner {
            let widest = listed(&m[2], "right edge", "px, width");
            problems.push(format!(
                "{path} (“{h1}”) at {width} px: the page is {scroll} px wide in a viewport {inner} px wide (scroll bar aside); sticking out: {}",
                if widest.is_empty() {
                    "nothing measurable".to_string()
                } else {
                    widest.join("; ")
                }
            ));
        }
        let rows = m[5].as_u64().unwrap_or(0);
        if rows > 0 {
            let some = listed(&m[4], "from", "px to");
            problems.push(format!(
                "{path} (“{h1}”) at {width} px: {rows} row header(s) of a table are out of view without scrolling it: {}",
                some.join("; ")
            ));
        }
        let name = format!("{slug}-{width}");
        let shot = b.screenshot(&format!("overflow-{name}")).await;
        let to = dir.join(format!("{name}.png"));
        std::fs::rename(&shot, &to)
            .or_else(|_| std::fs::copy(&shot, &to).map(|_| ()))
            .unwrap_or_else(|e| panic!("cannot move {} to {}: {e}", shot.display(), to.display()));
        if let Some(a) = audit.as_deref_mut() {
            let t = Instant::now();
            for scheme in [Scheme::Light, Scheme::Dark] {
                if scheme == Scheme::Dark {
                    set_scheme(b, scheme).await;
                }
                let what = format!("{path} (“{h1}”) at {width} px, {}", scheme.name());
                let found = a.axe.audit(b, &what).await;
                a.violations.extend(found.failing);
                a.lesser.extend(found.lesser);
                a.runs += 1;
            }
            set_scheme(b, Scheme::Light).await;
            a.time += t.elapsed();
        }
    }
    problems
}

/// The measured elements `[description, a, b]` in words: "description
/// (FIRST a SECOND b px)".
fn listed(measured: &serde_json::Value, first: &str, second: &str) -> Vec<String> {
    measured
        .as_array()
        .map(|a| {
            a.iter()
                .map(|e| {
                    format!(
                        "{} ({first} {} {second} {} px)",
                        e[0].as_str().unwrap_or(""),
                        e[1],
                        e[2]
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}
