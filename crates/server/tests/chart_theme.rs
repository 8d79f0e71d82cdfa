//! Issue 17 §3: the charts follow the theme, light or dark. The server
//! draws every chart (`pages/svg.rs`) with classes and `currentColor`,
//! never a colour of its own, and the stylesheet fills them from the
//! design system's variables: in the dark scheme a chart sits on the
//! page's dark paper with light ink and light marks, not on a white card.
//!
//! Two checks: every chart of the demo's pages (the ladder's player page,
//! statistics and ratings, the installation's statistics, a league
//! player's rating history, the round robin's crosstable at a glance)
//! writes no colour and only classes the stylesheet fills; and the
//! palette those classes use keeps its contrast against the paper in both
//! schemes (text at least 4.5:1, marks and axes at least 3:1, WCAG 1.4.3
//! and 1.4.11), figures written on a bar too.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeMap;

use arbiter_server::demo::install_all;
use arbiter_server::{AppState, Clock};
use arbiter_service::Service;
use arbiter_store_sqlite::SqliteStore;
use axum::Router;
use axum::http::StatusCode;

const CSS: &str = include_str!("../assets/style.css");

/// `serve --demo` on an in-memory database, with the round robin's id.
async fn served() -> (Router, String) {
    let today = arbiter_demo::reference_today();
    let store = SqliteStore::open_in_memory().await.unwrap();
    let state = AppState::new(Service::new(store)).with_clock(Clock::Fixed(today));
    let (_, round_robins, _) = install_all(&state.service, today).await.unwrap();
    (arbiter_server::app(state), round_robins.euro.0)
}

/// The `<svg …>…</svg>` of `html`.
fn svgs(html: &str) -> Vec<&str> {
    html.match_indices("<svg")
        .map(|(at, _)| {
            let end = html[at..].find("</svg>").unwrap() + "</svg>".len();
            &html[at..at + end]
        })
        .collect()
}

/// The values of `attr="…"` in `markup`.
fn attrs<'a>(markup: &'a str, attr: &str) -> Vec<&'a str> {
    let key = format!(" {attr}=\"");
    markup
        .match_indices(&key)
        .map(|(at, _)| {
            let from = at + key.len();
            &markup[from..from + markup[from..].find('"').unwrap()]
        })
        .collect()
}

#[tokio::test]
async fn every_chart_takes_its_colours_from_the_theme() {
    let (app, euro) = served().await;
    let pages = [
        "/stats".to_string(),
        "/c/tws-demo/stats".to_string(),
        "/c/tws-demo/ratings".to_string(),
        "/c/tws-demo/players/Hiro%20Tanaka".to_string(),
        "/c/tws-demo/players/Ana%20Morales".to_string(),
        "/c/xmadn-league-demo/players/1".to_string(),
        format!("/c/{euro}"),
    ];
    let mut kinds = BTreeMap::<&str, usize>::new();
    let mut classes = BTreeMap::<String, usize>::new();
    for uri in &pages {
        let a = common::get_with_cookie(&app, uri, "").await;
        assert_eq!(a.status, StatusCode::OK, "{uri}");
        let html = a.text();
        let charts = svgs(&html);
        assert!(!charts.is_empty(), "{uri} draws no chart");
        for svg in charts {
            let root = &svg[..svg.find('>').unwrap()];
            let kind = if attrs(root, "class").contains(&"chart-svg") {
                "chart"
            } else if attrs(root, "class").contains(&"glance") {
                "glance"
            } else {
                panic!("{uri}: a chart without its class: {root}")
            };
            *kinds.entry(kind).or_default() += 1;
            // No colour of its own: a fill or a stroke is the page's ink
            // or nothing, never a colour written into the chart (the
            // light palette on a dark page, a white card).
            for attr in ["fill", "stroke", "color", "stop-color"] {
                for value in attrs(svg, attr) {
                    assert!(
                        value == "currentColor" || value == "none",
                        "{uri}: {attr}=\"{value}\" in a chart: {svg}"
                    );
                }
            }
            for banned in ["#fff", "white", "style=", "rgb("] {
                assert!(
                    !svg.to_ascii_lowercase().contains(banned),
                    "{uri}: {banned:?} in a chart: {svg}"
                );
            }
            for class in attrs(svg, "class") {
                for c in class.split_whitespace() {
                    *classes.entry(c.to_string()).or_default() += 1;
                }
            }
        }
    }
    assert!(
        kinds.get("chart").copied().unwrap_or(0) >= 6 && kinds.get("glance") == Some(&1),
        "the pages' charts: {kinds:?}"
    );
    // The marks are drawn in every tone, and every class a chart uses is
    // one the stylesheet fills.
    for c in [
        "c-grid", "c-axis", "c-line", "c-mark", "c-ussr", "c-us", "c-tie", "c-won", "c-lost",
        "c-on", "g-label", "g-self", "g-won", "g-lost",
    ] {
        assert!(classes.contains_key(c), "no chart uses {c}: {classes:?}");
    }
    for c in classes.keys() {
        let selector = match c.as_str() {
            "chart-svg" | "glance" => format!(".{c}"),
            g if g.starts_with("g-") => format!(".glance .{c} {{"),
            _ => format!(".chart-svg .{c} {{"),
        };
        assert!(
            CSS.contains(&selector),
            "the stylesheet has no rule {selector:?} for the charts' class {c}"
        );
    }
    // The dark scheme changes the palette only: no rule of its own gives
    // a chart a card (the white one it had).
    let dark = &CSS[CSS.find("@media (prefers-color-scheme: dark)").unwrap()..];
    let dark = &dark[..dark.find("\n}").unwrap()];
    assert!(
        !dark.contains("svg") && !dark.contains("#ffffff"),
        "the dark scheme paints the charts a card of their own: {dark}"
    );
}

/// The custom properties of the first `:root { … }` block at or after
/// `from`.
fn root_block(from: &str) -> BTreeMap<String, String> {
    let at = from.find(":root {").unwrap();
    let body = &from[at + ":root {".len()..];
    let body = &body[..body.find('}').unwrap()];
    body.split(';')
        .filter_map(|decl| {
            let decl = decl.trim();
            let decl = decl.rsplit("*/").next().unwrap().trim();
            let (name, value) = decl.split_once(':')?;
            name.trim()
                .starts_with("--")
                .then(|| (name.trim().to_string(), value.trim().to_string()))
        })
        .collect()
}

/// The light palette and the dark one (the light one with the dark
/// scheme's overrides).
fn palettes() -> [(&'static str, BTreeMap<String, String>); 2] {
    let light = root_block(CSS);
    let dark_at = CSS.find("@media (prefers-color-scheme: dark)").unwrap();
    let mut dark = light.clone();
    dark.extend(root_block(&CSS[dark_at..]));
    [("light", light), ("dark", dark)]
}

/// WCAG's relative luminance of `#rrggbb`.
fn luminance(hex: &str) -> f64 {
    let h = hex.trim_start_matches('#');
    assert_eq!(h.len(), 6, "a colour as #rrggbb: {hex}");
    let channel = |i: usize| {
        let c = f64::from(u8::from_str_radix(&h[i..i + 2], 16).unwrap()) / 255.0;
        if c <= 0.039_28 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4)
}

fn contrast(a: &str, b: &str) -> f64 {
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

#[test]
fn the_charts_palette_keeps_its_contrast_in_both_schemes() {
    // The chart's text (labels, figures) and its marks (axis, line,
    // bars, points, the glance's open games' outline) on the paper, and
    // a figure written on a bar: the paper's colour on the mark's.
    let text = ["--ink", "--muted"];
    let marks = [
        "--ink",
        "--accent",
        "--ussr",
        "--us",
        "--tie",
        "--won",
        "--lost",
        "--field-line",
    ];
    let bars = ["--ussr", "--us", "--tie", "--won", "--lost"];
    let mut seen = Vec::new();
    for (scheme, p) in palettes() {
        let get = |name: &str| {
            p.get(name)
                .unwrap_or_else(|| panic!("{scheme}: no {name}"))
                .as_str()
        };
        let paper = get("--paper");
        for (names, least, what) in [(&text[..], 4.5, "text"), (&marks[..], 3.0, "a mark")] {
            for n in names {
                let c = contrast(get(n), paper);
                assert!(
                    c >= least,
                    "{scheme}: {what} in {n} ({}) on the paper ({paper}) is {c:.2}:1, less than {least}:1",
                    get(n)
                );
            }
        }
        for n in bars {
            let c = contrast(paper, get(n));
            assert!(
                c >= 4.5,
                "{scheme}: a figure on a bar in {n} ({}) is {c:.2}:1",
                get(n)
            );
        }
        seen.push(paper.to_string());
    }
    // The two palettes differ: the dark scheme's paper is dark.
    assert!(
        luminance(&seen[0]) > 0.5 && luminance(&seen[1]) < 0.05,
        "{seen:?}"
    );
}
