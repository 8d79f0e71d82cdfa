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
//! The `Browser` and `Server` helpers are meant to be reused by the tests
//! that click through writes and logins (an organizer creates a ladder,
//! players report their results).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::future::Future;
use std::io::{BufRead, BufReader, Read};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::Arbiter;
use fantoccini::elements::Element;
use fantoccini::wd::TimeoutConfiguration;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

/// The bound of every single wait: a process starting, a page loading, an
/// element appearing.
const WAIT: Duration = Duration::from_secs(30);
/// The bound of the whole browser session.
const WHOLE_TEST: Duration = Duration::from_secs(240);
/// The desktop window, and a phone's.
const DESKTOP: (u32, u32) = (1280, 900);
const PHONE: (u32, u32) = (390, 844);
/// Full-page screenshots are cut at this height.
const MAX_SCREENSHOT_HEIGHT: u32 = 6000;

// ---------------------------------------------------------------------------
// Processes

/// A child process killed (with its whole process group) when dropped.
#[derive(Debug)]
struct Killed {
    child: Child,
}

impl Killed {
    /// Start `cmd` in a process group of its own, so that what it starts in
    /// turn (chromedriver starts Chromium) is killed with it.
    fn spawn(mut cmd: Command, what: &'static str) -> Self {
        cmd.process_group(0);
        let child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {what}: {e}"));
        Self { child }
    }
}

impl Drop for Killed {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            // The process group first (its id is the leader's), then the
            // leader itself in case the group signal could not be sent.
            kill_group(self.child.id());
            let _ = self.child.kill();
            let _ = self.child.wait();
        } else {
            // The leader is gone: still end whatever it left in its group.
            kill_group(self.child.id());
        }
    }
}

/// SIGKILL to the process group `pgid` (the id of its leader).
fn kill_group(pgid: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{pgid}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// Read the lines of `out` on a thread of its own: the lines come through a
/// channel, so that waiting for one can be bounded.
fn lines_of(out: impl Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            // Once the receiver is gone the rest is read and dropped, so
            // the pipe never fills.
            let _ = tx.send(line);
        }
    });
    rx
}

/// A running `arbiter serve --demo`, killed when dropped.
#[derive(Debug)]
struct Server {
    /// `http://127.0.0.1:PORT`, without a closing slash.
    base: String,
    _process: Killed,
    _arbiter: Arbiter,
}

impl Server {
    fn start_demo() -> Self {
        let arbiter = Arbiter::new();
        let mut cmd = arbiter.command();
        cmd.args(["serve", "--demo", "--addr", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut process = Killed::spawn(cmd, "arbiter serve --demo");
        let lines = lines_of(process.child.stdout.take().unwrap());
        let deadline = Instant::now() + WAIT;
        let mut seen = Vec::new();
        let base = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match lines.recv_timeout(left) {
                Ok(line) => {
                    if let Some(rest) = line.strip_prefix("Arbiter serves ") {
                        break rest.trim_end_matches('/').to_string();
                    }
                    seen.push(line);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    panic!(
                        "arbiter serve --demo did not serve within {WAIT:?}; it printed {seen:?}"
                    )
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    panic!("arbiter serve --demo stopped before serving; it printed {seen:?}")
                }
            }
        };
        Self {
            base,
            _process: process,
            _arbiter: arbiter,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }
}

/// The first of `candidates` that is an executable file, or the one found on
/// the `PATH` under `name`.
fn find_program(name: &str, candidates: &[&str]) -> Option<PathBuf> {
    for c in candidates {
        let p = Path::new(c);
        if p.is_file() {
            return Some(p.to_path_buf());
        }
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

fn require(name: &str, candidates: &[&str], package: &str) -> PathBuf {
    find_program(name, candidates).unwrap_or_else(|| {
        panic!(
            "{name} is missing: the end-to-end browser tests need Debian's `{package}`. \
             Run `bash scripts/test.sh` (it installs chromium and chromium-driver when they are missing), \
             or `apt-get install chromium chromium-driver`."
        )
    })
}

/// A loopback port nobody listens on (for chromedriver, which takes a port
/// number rather than reporting the one it got).
fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

/// A running chromedriver, killed with the browsers it started when dropped.
#[derive(Debug)]
struct Driver {
    url: String,
    chromium: PathBuf,
    _process: Killed,
}

impl Driver {
    fn start() -> Self {
        let chromium = require("chromium", &["/usr/bin/chromium"], "chromium");
        let chromedriver = require(
            "chromedriver",
            &["/usr/bin/chromedriver"],
            "chromium-driver",
        );
        let port = free_port();
        let mut cmd = Command::new(&chromedriver);
        cmd.arg(format!("--port={port}"))
            .arg("--allowed-ips=127.0.0.1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let process = Killed::spawn(cmd, "chromedriver");
        let deadline = Instant::now() + WAIT;
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "chromedriver ({}) did not listen on port {port} within {WAIT:?}",
                chromedriver.display()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Self {
            url: format!("http://127.0.0.1:{port}"),
            chromium,
            _process: process,
        }
    }
}

// ---------------------------------------------------------------------------
// The browser

/// Await `fut` for at most [`WAIT`]; panic naming `what` otherwise.
async fn within<T, E: std::fmt::Debug>(what: &str, fut: impl Future<Output = Result<T, E>>) -> T {
    match tokio::time::timeout(WAIT, fut).await {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => panic!("{what}: {e:?}"),
        Err(_) => panic!("{what}: no answer within {WAIT:?}"),
    }
}

/// A headless Chromium session on a [`Server`].
#[derive(Debug)]
struct Browser {
    client: Client,
    base: String,
    shots: PathBuf,
}

impl Browser {
    async fn open(driver: &Driver, server: &Server) -> Self {
        let mut caps = serde_json::Map::new();
        caps.insert("browserName".into(), json!("chrome"));
        caps.insert(
            "goog:chromeOptions".into(),
            json!({
                "binary": driver.chromium,
                "args": [
                    "--headless=new",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-dev-shm-usage",
                    "--no-first-run",
                    format!("--window-size={},{}", DESKTOP.0, DESKTOP.1),
                ],
            }),
        );
        let client = within(
            "start a headless Chromium session through chromedriver",
            ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
                .capabilities(caps)
                .connect(&driver.url),
        )
        .await;
        within(
            "set the WebDriver timeouts",
            client.update_timeouts(TimeoutConfiguration::new(
                Some(WAIT),
                Some(WAIT),
                Some(Duration::ZERO),
            )),
        )
        .await;
        let shots = screenshot_dir();
        Self {
            client,
            base: server.base.clone(),
            shots,
        }
    }

    async fn goto(&self, path: &str) {
        let url = format!("{}{path}", self.base);
        within(&format!("open {url}"), self.client.goto(&url)).await;
    }

    async fn path(&self) -> String {
        let url = within("read the current URL", self.client.current_url()).await;
        url.path().to_string()
    }

    async fn find(&self, css: &str) -> Element {
        within(
            &format!("find `{css}` on {}", self.path().await),
            self.client.find(Locator::Css(css)),
        )
        .await
    }

    async fn find_all(&self, css: &str) -> Vec<Element> {
        within(
            &format!("find every `{css}`"),
            self.client.find_all(Locator::Css(css)),
        )
        .await
    }

    async fn text(&self, el: &Element) -> String {
        within("read an element's text", el.text()).await
    }

    async fn texts(&self, css: &str) -> Vec<String> {
        let mut out = Vec::new();
        for el in self.find_all(css).await {
            out.push(self.text(&el).await);
        }
        out
    }

    async fn js(&self, script: &str) -> serde_json::Value {
        within(
            &format!("run `{script}`"),
            self.client.execute(script, Vec::new()),
        )
        .await
    }

    /// Click the link whose text is exactly `text`, and wait for the page it
    /// leads to, whose `<h1>` must be `h1`.
    async fn follow(&self, text: &str, h1: &str) {
        let from = self.path().await;
        let link = within(
            &format!("find the link {text:?} on {from}"),
            self.client.find(Locator::LinkText(text)),
        )
        .await;
        within(&format!("click the link {text:?} on {from}"), link.click()).await;
        self.wait_for_h1(h1).await;
    }

    /// Wait until the page's one `<h1>` reads `expected`.
    async fn wait_for_h1(&self, expected: &str) {
        let deadline = Instant::now() + WAIT;
        let mut last = Vec::new();
        loop {
            if let Ok(Ok(h1s)) =
                tokio::time::timeout(WAIT, self.client.find_all(Locator::Css("h1"))).await
            {
                last.clear();
                for h in &h1s {
                    last.push(h.text().await.unwrap_or_default());
                }
                if last.len() == 1 && last[0] == expected {
                    return;
                }
            }
            assert!(
                Instant::now() < deadline,
                "the page's <h1> should read {expected:?} within {WAIT:?}, but the headings are {last:?} on {}",
                self.path().await
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The captions of the page's tables.
    async fn captions(&self) -> Vec<String> {
        self.texts("table > caption").await
    }

    /// Save a screenshot of the whole page (cut at
    /// [`MAX_SCREENSHOT_HEIGHT`]) as `target/screenshots/NAME.png`, at the
    /// window's current width; the window's size is restored after.
    async fn screenshot(&self, name: &str) -> PathBuf {
        let (width, height) = self.window_size().await;
        let sizes = self
            .js("return [Math.ceil(document.documentElement.scrollHeight), window.innerHeight];")
            .await;
        let full = sizes[0].as_u64().unwrap_or(u64::from(height));
        let inner = sizes[1].as_u64().unwrap_or(u64::from(height));
        // The window is taller than its viewport by the browser's frame.
        let frame = u64::from(height).saturating_sub(inner);
        let tall = u32::try_from(full + frame)
            .unwrap_or(MAX_SCREENSHOT_HEIGHT)
            .clamp(height, MAX_SCREENSHOT_HEIGHT);
        if tall != height {
            self.set_window_size(width, tall).await;
        }
        let png = within(
            &format!("take the screenshot {name}"),
            self.client.screenshot(),
        )
        .await;
        if tall != height {
            self.set_window_size(width, height).await;
        }
        assert!(
            png.starts_with(b"\x89PNG\r\n\x1a\n"),
            "the screenshot {name} is not a PNG"
        );
        let path = self.shots.join(format!("{name}.png"));
        std::fs::write(&path, &png)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        println!("screenshot: {} ({} bytes)", path.display(), png.len());
        path
    }

    async fn window_size(&self) -> (u32, u32) {
        let (_, _, w, h) = within("read the window size", self.client.get_window_rect()).await;
        (w as u32, h as u32)
    }

    async fn set_window_size(&self, width: u32, height: u32) {
        within(
            &format!("resize the window to {width}×{height}"),
            self.client.set_window_size(width, height),
        )
        .await;
    }

    /// End the session: Chromium quits. (If the test panics before, the
    /// process group of chromedriver is killed instead.)
    async fn close(self) {
        within("close the browser", self.client.close()).await;
    }
}

/// `target/screenshots/`, next to the binaries under test, created.
fn screenshot_dir() -> PathBuf {
    let exe = Path::new(env!("CARGO_BIN_EXE_arbiter"));
    let target = exe
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| common::workspace_root().join("target"));
    let dir = target.join("screenshots");
    std::fs::create_dir_all(&dir)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

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
    let names = b.texts("main table tbody th[scope=row] a").await;
    assert_eq!(
        names,
        [
            "Sunjang Baduk League (demo)",
            "Twilight Struggle Ladder (demo)",
            "XMadn 2T Challengers (demo)",
            "XMadn 2T League (demo)",
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
    let champion = b.text(&b.find("#champion + p").await).await;
    assert_eq!(
        champion,
        "Hiro Tanaka is on rung 1, at the top for 1 consecutive round."
    );
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
            ("2".to_string(), "Dmitri Volkov".to_string()),
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

    // A player: the link from the champion's line, and the charts.
    let link = b.find("#champion + p a").await;
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

    shots
}
