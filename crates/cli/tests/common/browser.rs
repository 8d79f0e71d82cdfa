//! End-to-end helpers: the real `arbiter serve` in a real headless Chromium,
//! driven through chromedriver (Debian's `chromium` and `chromium-driver`,
//! which `scripts/test.sh` installs when they are missing).
//!
//! [`Driver`] starts chromedriver, [`Server`] starts `arbiter serve` (the
//! demo, or on a database the test prepared), and [`Browser`] is a headless
//! Chromium session on that server with bounded waits: every wait ends
//! within [`WAIT`], with a panic that says what was awaited. Every process
//! is started through [`Killed`], so it is killed with what it started when
//! the test ends, passed or failed. The tests fail (they never skip) when
//! Chromium or chromedriver is missing.

// Each test binary uses its own subset of these helpers.
#![allow(dead_code)]

use std::future::Future;
use std::io::{BufRead, BufReader, Read, Write as _};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use fantoccini::elements::Element;
use fantoccini::wd::TimeoutConfiguration;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

use super::Arbiter;

/// The bound of every single wait: a process starting, a page loading, an
/// element appearing.
pub const WAIT: Duration = Duration::from_secs(30);
/// The bound of a whole browser session.
pub const WHOLE_TEST: Duration = Duration::from_secs(240);
/// The desktop window, and a phone's.
pub const DESKTOP: (u32, u32) = (1280, 900);
pub const PHONE: (u32, u32) = (390, 844);
/// Full-page screenshots are cut at this height.
pub const MAX_SCREENSHOT_HEIGHT: u32 = 6000;

// ---------------------------------------------------------------------------
// Processes

/// A child process killed (with its whole process group) when dropped.
#[derive(Debug)]
pub struct Killed {
    pub child: Child,
}

impl Killed {
    /// Start `cmd` in a process group of its own, so that what it starts in
    /// turn (chromedriver starts Chromium) is killed with it.
    pub fn spawn(mut cmd: Command, what: &str) -> Self {
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

/// `arbiter account add USERNAME --name NAME [--organizer]` on `arbiter`'s
/// database, the password on standard input as a person would type it.
#[track_caller]
pub fn add_account(arbiter: &Arbiter, username: &str, name: &str, password: &str, organizer: bool) {
    let mut cmd = arbiter.command();
    cmd.args(["account", "add", username, "--name", name])
        .env_remove("ARBITER_PASSWORD")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if organizer {
        cmd.arg("--organizer");
    }
    let mut child = cmd.spawn().expect("run `arbiter account add`");
    let mut stdin = child.stdin.take().expect("the standard input of `arbiter`");
    writeln!(stdin, "{password}").expect("write the password");
    drop(stdin);
    let out = child
        .wait_with_output()
        .expect("wait for `arbiter account add`");
    assert!(
        out.status.success(),
        "`arbiter account add {username}` failed\nstdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A running `arbiter serve`, killed when dropped.
#[derive(Debug)]
pub struct Server {
    /// `http://HOST:PORT`, without a closing slash.
    pub base: String,
    _process: Killed,
    arbiter: Arbiter,
}

impl Server {
    /// `arbiter serve --demo` on a fresh database.
    pub fn start_demo() -> Self {
        Self::start(Arbiter::new(), &["--demo"])
    }

    /// `arbiter serve` on `arbiter`'s database, as the test prepared it
    /// (accounts made with [`add_account`], say).
    pub fn start_on(arbiter: Arbiter) -> Self {
        Self::start(arbiter, &[])
    }

    /// `arbiter serve EXTRA --addr 127.0.0.1:0` on `arbiter`'s database;
    /// it is serving when this returns.
    pub fn start(arbiter: Arbiter, extra: &[&str]) -> Self {
        let mut cmd = arbiter.command();
        cmd.arg("serve")
            .args(extra)
            .args(["--addr", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let what = format!("arbiter serve {}", extra.join(" "));
        let mut process = Killed::spawn(cmd, &what);
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
                    panic!("{what} did not serve within {WAIT:?}; it printed {seen:?}")
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    panic!("{what} stopped before serving; it printed {seen:?}")
                }
            }
        };
        Self {
            base,
            _process: process,
            arbiter,
        }
    }

    /// The same server, browsed as `http://localhost:PORT`: browsers send
    /// `Secure` cookies (the session's) to `localhost` over plain HTTP.
    pub fn via_localhost(mut self) -> Self {
        self.base = self.base.replacen("://127.0.0.1:", "://localhost:", 1);
        self
    }

    /// The database the server runs on.
    pub fn arbiter(&self) -> &Arbiter {
        &self.arbiter
    }

    pub fn url(&self, path: &str) -> String {
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
pub struct Driver {
    url: String,
    chromium: PathBuf,
    _process: Killed,
}

impl Driver {
    pub fn start() -> Self {
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
pub async fn within<T, E: std::fmt::Debug>(
    what: &str,
    fut: impl Future<Output = Result<T, E>>,
) -> T {
    match tokio::time::timeout(WAIT, fut).await {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => panic!("{what}: {e:?}"),
        Err(_) => panic!("{what}: no answer within {WAIT:?}"),
    }
}

/// `text` as an XPath string literal, whatever quotes it holds.
pub fn xpath_literal(text: &str) -> String {
    if !text.contains('\'') {
        format!("'{text}'")
    } else if !text.contains('"') {
        format!("\"{text}\"")
    } else {
        let parts: Vec<String> = text.split('\'').map(|p| format!("'{p}'")).collect();
        format!("concat({})", parts.join(", \"'\", "))
    }
}

/// A headless Chromium session on a [`Server`].
#[derive(Debug)]
pub struct Browser {
    pub client: Client,
    pub base: String,
    shots: PathBuf,
}

impl Browser {
    pub async fn open(driver: &Driver, server: &Server) -> Self {
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

    pub async fn goto(&self, path: &str) {
        let url = format!("{}{path}", self.base);
        within(&format!("open {url}"), self.client.goto(&url)).await;
    }

    pub async fn path(&self) -> String {
        let url = within("read the current URL", self.client.current_url()).await;
        url.path().to_string()
    }

    /// The path with its query, e.g. `/login?next=/account`.
    pub async fn path_and_query(&self) -> String {
        let url = within("read the current URL", self.client.current_url()).await;
        match url.query() {
            Some(q) => format!("{}?{q}", url.path()),
            None => url.path().to_string(),
        }
    }

    pub async fn find(&self, css: &str) -> Element {
        within(
            &format!("find `{css}` on {}", self.path().await),
            self.client.find(Locator::Css(css)),
        )
        .await
    }

    pub async fn find_all(&self, css: &str) -> Vec<Element> {
        within(
            &format!("find every `{css}`"),
            self.client.find_all(Locator::Css(css)),
        )
        .await
    }

    pub async fn text(&self, el: &Element) -> String {
        within("read an element's text", el.text()).await
    }

    pub async fn texts(&self, css: &str) -> Vec<String> {
        let mut out = Vec::new();
        for el in self.find_all(css).await {
            out.push(self.text(&el).await);
        }
        out
    }

    /// The text of the page's `<main>`, as shown.
    pub async fn main_text(&self) -> String {
        let main = self.find("main").await;
        self.text(&main).await
    }

    pub async fn js(&self, script: &str) -> serde_json::Value {
        within(
            &format!("run `{script}`"),
            self.client.execute(script, Vec::new()),
        )
        .await
    }

    /// Click the link whose text is exactly `text`, and wait for the page it
    /// leads to, whose `<h1>` must be `h1`.
    pub async fn follow(&self, text: &str, h1: &str) {
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
    pub async fn wait_for_h1(&self, expected: &str) {
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
    pub async fn captions(&self) -> Vec<String> {
        self.texts("table > caption").await
    }

    // -- Forms ---------------------------------------------------------------

    /// The elements that match `xpath` under `scope` (the whole page when
    /// `None`); none is not an error.
    pub async fn xpath_all(&self, scope: Option<&Element>, xpath: &str) -> Vec<Element> {
        let what = format!("find every `{xpath}`");
        match scope {
            Some(s) => within(&what, s.find_all(Locator::XPath(xpath))).await,
            None => within(&what, self.client.find_all(Locator::XPath(xpath))).await,
        }
    }

    /// The one element that matches `xpath` under `scope`; panics when there
    /// is none or more than one.
    pub async fn xpath_one(&self, scope: Option<&Element>, xpath: &str, what: &str) -> Element {
        let mut found = self.xpath_all(scope, xpath).await;
        assert!(
            found.len() == 1,
            "{what}: `{xpath}` should match one element on {}, but matches {}",
            self.path().await,
            found.len()
        );
        found.remove(0)
    }

    /// The buttons under `scope` whose text is exactly `text`.
    pub async fn buttons(&self, scope: Option<&Element>, text: &str) -> Vec<Element> {
        let xpath = format!(".//button[normalize-space()={}]", xpath_literal(text));
        self.xpath_all(scope, &xpath).await
    }

    /// The one button under `scope` whose text is exactly `text`.
    pub async fn button(&self, scope: Option<&Element>, text: &str) -> Element {
        let xpath = format!(".//button[normalize-space()={}]", xpath_literal(text));
        self.xpath_one(scope, &xpath, &format!("the button {text:?}"))
            .await
    }

    /// The form control labelled `label` under `scope`: found through its
    /// `<label for>`, as a screen reader would (so the label must be tied
    /// to the control).
    pub async fn field(&self, scope: Option<&Element>, label: &str) -> Element {
        let xpath = format!(".//label[normalize-space()={}]", xpath_literal(label));
        let el = self
            .xpath_one(scope, &xpath, &format!("the label {label:?}"))
            .await;
        let id = within("read a label's `for`", el.attr("for"))
            .await
            .unwrap_or_else(|| panic!("the label {label:?} has no `for`"));
        let control = within(
            &format!("find the control #{id} of the label {label:?}"),
            self.client.find(Locator::Id(&id)),
        )
        .await;
        let labels = self
            .js(&format!(
                "return Array.from(document.getElementById({id:?}).labels || []).map(l => l.textContent.trim());"
            ))
            .await;
        assert!(
            labels
                .as_array()
                .is_some_and(|ls| ls.iter().any(|l| l.as_str() == Some(label))),
            "the control #{id} is not labelled {label:?} (its labels: {labels})"
        );
        control
    }

    /// Type `text` into the field labelled `label` under `scope`, after
    /// clearing it.
    pub async fn fill(&self, scope: Option<&Element>, label: &str, text: &str) {
        let el = self.field(scope, label).await;
        within(&format!("clear the field {label:?}"), el.clear()).await;
        within(
            &format!("type into the field {label:?}"),
            el.send_keys(text),
        )
        .await;
    }

    /// Choose the option whose value is `value` in the list labelled
    /// `label` under `scope`.
    pub async fn choose(&self, scope: Option<&Element>, label: &str, value: &str) {
        let el = self.field(scope, label).await;
        within(
            &format!("choose {value:?} in {label:?}"),
            el.select_by_value(value),
        )
        .await;
    }

    /// Click `button` (a submit button, or a link) and wait until the page
    /// it leads to is loaded: a new document, not the one clicked in.
    pub async fn submit_with(&self, button: &Element, what: &str) {
        self.js("document.documentElement.dataset.e2eOld = 'yes'; return true;")
            .await;
        within(&format!("click {what}"), button.click()).await;
        let deadline = Instant::now() + WAIT;
        loop {
            let state = tokio::time::timeout(
                WAIT,
                self.client.execute(
                    "return [document.readyState, document.documentElement.dataset.e2eOld || ''];",
                    Vec::new(),
                ),
            )
            .await;
            if let Ok(Ok(v)) = state
                && v[0] == "complete"
                && v[1] == ""
            {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{what}: no new page within {WAIT:?} (still on {})",
                self.path().await
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Click the one button under `scope` whose text is `text`, and wait
    /// for the page it leads to.
    pub async fn click_button(&self, scope: Option<&Element>, text: &str) {
        let b = self.button(scope, text).await;
        self.submit_with(&b, &format!("the button {text:?}")).await;
    }

    /// Open the `<details>` under `scope` whose summary reads `summary`, so
    /// its form can be filled; the `<details>` element.
    pub async fn open_details(&self, scope: Option<&Element>, summary: &str) -> Element {
        let xpath = format!(
            ".//details[summary[normalize-space()={}]]",
            xpath_literal(summary)
        );
        let details = self
            .xpath_one(scope, &xpath, &format!("the section {summary:?}"))
            .await;
        let open = within("read whether it is open", details.prop("open")).await;
        if open.as_deref() != Some("true") {
            let s = within(
                &format!("find the summary {summary:?}"),
                details.find(Locator::Css("summary")),
            )
            .await;
            within(&format!("open {summary:?}"), s.click()).await;
        }
        details
    }

    // -- Arbiter's pages ------------------------------------------------------

    /// The rungs of a ladder's public page: `(rung, player)` from the top.
    pub async fn rungs(&self) -> Vec<(String, String)> {
        let rows = self.find_all("#ladder + .scroll table tbody tr").await;
        let mut rungs = Vec::new();
        for row in &rows {
            let rung = self
                .text(&within("find a rung", row.find(Locator::Css("td.num"))).await)
                .await;
            let player = self
                .text(&within("find a player", row.find(Locator::Css("th a"))).await)
                .await;
            rungs.push((rung, player));
        }
        rungs
    }

    /// Log in through the form of `/login` (the page must be open, or is
    /// opened), then wait for the page it leads to.
    pub async fn log_in(&self, username: &str, password: &str) {
        if self.path().await != "/login" {
            self.goto("/login").await;
        }
        self.wait_for_h1("Log in").await;
        self.fill(None, "Username", username).await;
        self.fill(None, "Password", password).await;
        self.click_button(None, "Log in").await;
    }

    /// Log out with the button of the Account page (reached through the
    /// site's menu, whose link to it names the reader once logged in);
    /// the browser lands on the list of competitions.
    pub async fn log_out(&self) {
        let account = self
            .xpath_one(
                None,
                "//nav[@aria-label='Site']//a[@href='/account']",
                "the Account link of the site's menu",
            )
            .await;
        self.submit_with(&account, "the Account link").await;
        self.wait_for_h1("Your account").await;
        self.click_button(None, "Log out").await;
        self.wait_for_h1("Competitions").await;
    }

    // -- Screenshots ----------------------------------------------------------

    /// Save a screenshot of the whole page (cut at
    /// [`MAX_SCREENSHOT_HEIGHT`]) as `target/screenshots/NAME.png`, at the
    /// window's current width; the window's size is restored after.
    pub async fn screenshot(&self, name: &str) -> PathBuf {
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

    pub async fn window_size(&self) -> (u32, u32) {
        let (_, _, w, h) = within("read the window size", self.client.get_window_rect()).await;
        (w as u32, h as u32)
    }

    pub async fn set_window_size(&self, width: u32, height: u32) {
        within(
            &format!("resize the window to {width}×{height}"),
            self.client.set_window_size(width, height),
        )
        .await;
    }

    /// End the session: Chromium quits. (If the test panics before, the
    /// process group of chromedriver is killed instead.)
    pub async fn close(self) {
        within("close the browser", self.client.close()).await;
    }
}

/// `target/screenshots/`, next to the binaries under test, created.
pub fn screenshot_dir() -> PathBuf {
    let exe = Path::new(env!("CARGO_BIN_EXE_arbiter"));
    let target = exe
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| super::workspace_root().join("target"));
    let dir = target.join("screenshots");
    std::fs::create_dir_all(&dir)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}
