//! The accessibility audit of the browser tests (issue 17 §3): axe-core,
//! run in the real Chromium on the page the [`Browser`] shows.
//!
//! axe-core is not part of the repository: `scripts/test.sh` installs the
//! pinned [`AXE_VERSION`] from the npm registry into `target/axe/` (a
//! throwaway folder) and exports its script's path as `ARBITER_AXE_JS`.
//! Without that variable the script is looked for at
//! `target/axe/node_modules/axe-core/axe.min.js`. When it is missing
//! [`Axe::load`] fails, and when it is another version the first audit
//! does, with the command that installs it (the audit never skips).
//!
//! Every rule axe runs by default is run (WCAG 2.x A and AA, and its best
//! practices), with every `<details>` of the page opened and every empty
//! text field given a text, so that what is folded and what is typed are
//! audited too; a page fails on each violation whose impact is serious or
//! critical, reported with its rule, impact, the page, the failing
//! elements' selectors, axe's own words on each, and its help text.

// Each test binary uses its own subset of these helpers.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use fantoccini::wd::WebDriverCompatibleCommand;
use serde_json::{Value, json};

use super::browser::{Browser, within};

/// The axe-core version the audit runs; `scripts/test.sh` installs the same.
pub const AXE_VERSION: &str = "4.14.1";

/// The impacts that fail a page.
pub const FAILING: [&str; 2] = ["serious", "critical"];

/// At most this many failing elements are listed per rule and page (the
/// count of the rest follows).
const NODES_SHOWN: usize = 8;

/// The colour scheme a page is audited in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    Light,
    Dark,
}

impl Scheme {
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Light => "light",
            Scheme::Dark => "dark",
        }
    }
}

/// axe-core's script, read once.
#[derive(Debug)]
pub struct Axe {
    source: String,
    path: PathBuf,
}

/// The command that installs axe-core where the audit looks for it.
pub fn install_command() -> String {
    format!(
        "npm install --prefix target/axe --no-save --no-package-lock axe-core@{AXE_VERSION}, from the repository's root \
         (or run `bash scripts/test.sh`, which installs it and exports ARBITER_AXE_JS)"
    )
}

impl Axe {
    /// The script named by `ARBITER_AXE_JS`, or the one in
    /// `TARGET/axe/node_modules/axe-core/axe.min.js` (`target` being the
    /// folder of the binaries under test); panics with the command that
    /// installs it when it is missing.
    pub fn load() -> Self {
        let path = match std::env::var_os("ARBITER_AXE_JS") {
            Some(p) if !p.is_empty() => PathBuf::from(p),
            _ => target_dir().join("axe/node_modules/axe-core/axe.min.js"),
        };
        let source = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "axe-core is missing ({}: {e}): the accessibility audit of the browser tests runs axe-core {AXE_VERSION}. Install it with: {}",
                path.display(),
                install_command()
            )
        });
        assert!(
            source.contains("axe") && source.len() > 100_000,
            "{} is not axe-core's script; install it with: {}",
            path.display(),
            install_command()
        );
        Self { source, path }
    }

    /// Audit the page the browser shows, in the colour scheme it shows it
    /// in, every `<details>` opened and every empty text field filled (see
    /// [`RUN`]): a sentence for each serious or critical violation, naming
    /// `what` (the page, its width and scheme); and one for each lesser
    /// (moderate or minor) violation, which fails nothing.
    pub async fn audit(&self, b: &Browser, what: &str) -> Found {
        // Injected once per document: a scheme changed later keeps it.
        let loaded = b
            .js("return typeof window.axe === 'object' && window.axe.version || '';")
            .await;
        if loaded.as_str().unwrap_or("").is_empty() {
            let version = within(
                &format!("inject axe-core ({})", self.path.display()),
                b.client.execute(
                    &format!("{}\n;return window.axe.version;", self.source),
                    Vec::new(),
                ),
            )
            .await;
            assert_eq!(
                version.as_str(),
                Some(AXE_VERSION),
                "{} is axe-core {version}, the audit pins {AXE_VERSION}: install it with {}",
                self.path.display(),
                install_command()
            );
        }
        let found = within(
            &format!("run axe-core on {what}"),
            b.client.execute_async(RUN, Vec::new()),
        )
        .await;
        if let Some(e) = found.get("error") {
            panic!("axe-core failed on {what}: {e}");
        }
        let mut out = Found::default();
        for v in found.as_array().into_iter().flatten() {
            let failing = FAILING.contains(&v["impact"].as_str().unwrap_or(""));
            let said = sentence(v, what);
            if failing {
                out.failing.push(said);
            } else {
                out.lesser.push(said);
            }
        }
        out
    }
}

/// What one audit found: the violations that fail the page (serious or
/// critical) and the lesser ones.
#[derive(Debug, Default)]
pub struct Found {
    pub failing: Vec<String>,
    pub lesser: Vec<String>,
}

/// axe.run on the whole document, every `<details>` opened first (an
/// explanation, a desk's form: what is folded is audited too) and every
/// empty text field given a text (axe measures the contrast of what is
/// typed only where there is some), violations only, each with its
/// failing elements.
const RUN: &str = r#"
const done = arguments[arguments.length - 1];
for (const d of document.querySelectorAll('details')) d.open = true;
const typed = 'input:is([type=text], [type=search], [type=email], [type=url], [type=password], [type=tel], :not([type])), textarea';
for (const f of document.querySelectorAll(typed)) if (!f.value) f.value = 'Ab';
window.axe.run(document, { resultTypes: ['violations'] }).then((r) => {
  done(r.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    helpUrl: v.helpUrl,
    nodes: v.nodes.map((n) => ({
      target: n.target.map((t) => Array.isArray(t) ? t.join(' >>> ') : t).join(' '),
      summary: (n.failureSummary || '').replace(/\s+/g, ' ').trim(),
    })),
  })));
}).catch((e) => done({ error: String(e && e.stack || e) }));
"#;

/// One violation in words: "RULE (IMPACT) on WHAT: HELP (URL); N element(s):
/// SELECTOR — what axe says; …".
fn sentence(v: &Value, what: &str) -> String {
    let nodes = v["nodes"].as_array().cloned().unwrap_or_default();
    let shown: Vec<String> = nodes
        .iter()
        .take(NODES_SHOWN)
        .map(|n| {
            format!(
                "`{}` — {}",
                n["target"].as_str().unwrap_or("?"),
                n["summary"].as_str().unwrap_or("")
            )
        })
        .collect();
    let more = if nodes.len() > NODES_SHOWN {
        format!("; and {} more", nodes.len() - NODES_SHOWN)
    } else {
        String::new()
    };
    format!(
        "{} ({}) on {what}: {} ({}); {} element(s): {}{more}",
        v["id"].as_str().unwrap_or("?"),
        v["impact"].as_str().unwrap_or("?"),
        v["help"].as_str().unwrap_or(""),
        v["helpUrl"].as_str().unwrap_or(""),
        nodes.len(),
        shown.join("; "),
    )
}

/// Show the pages in `scheme` from now on (the CSS media feature
/// `prefers-color-scheme`, through Chromium's DevTools protocol as
/// chromedriver relays it); the page shown is restyled in place.
pub async fn set_scheme(b: &Browser, scheme: Scheme) {
    within(
        &format!("emulate prefers-color-scheme: {}", scheme.name()),
        b.client.issue_cmd(Cdp {
            cmd: "Emulation.setEmulatedMedia",
            params: json!({
                "features": [{ "name": "prefers-color-scheme", "value": scheme.name() }],
            }),
        }),
    )
    .await;
    let shown = b
        .js("return matchMedia('(prefers-color-scheme: dark)').matches;")
        .await;
    assert_eq!(
        shown.as_bool(),
        Some(scheme == Scheme::Dark),
        "Chromium did not take prefers-color-scheme: {}",
        scheme.name()
    );
}

/// Run the browser in time zone `zone` from now on (an IANA name: what
/// `Intl.DateTimeFormat().resolvedOptions().timeZone` answers), through
/// Chromium's DevTools protocol as chromedriver relays it.
pub async fn set_time_zone(b: &Browser, zone: &str) {
    within(
        &format!("emulate the time zone {zone}"),
        b.client.issue_cmd(Cdp {
            cmd: "Emulation.setTimezoneOverride",
            params: json!({ "timezoneId": zone }),
        }),
    )
    .await;
    let shown = b
        .js("return Intl.DateTimeFormat().resolvedOptions().timeZone;")
        .await;
    assert_eq!(
        shown.as_str(),
        Some(zone),
        "Chromium did not take the zone {zone}"
    );
}

/// A command of Chromium's DevTools protocol, sent through chromedriver's
/// `goog/cdp/execute`.
#[derive(Debug)]
struct Cdp {
    cmd: &'static str,
    params: Value,
}

impl WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url
            .join("session/")?
            .join(&format!("{}/", session_id.unwrap_or_default()))?
            .join("goog/cdp/execute")
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (http::Method, Option<String>) {
        let body = json!({ "cmd": self.cmd, "params": self.params });
        (http::Method::POST, Some(body.to_string()))
    }
}

/// The folder of the binaries under test's `target/` (`target/debug/..`).
fn target_dir() -> PathBuf {
    let exe = Path::new(env!("CARGO_BIN_EXE_arbiter"));
    exe.parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| super::workspace_root().join("target"))
}
