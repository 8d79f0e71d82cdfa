//! Charts drawn on the server as SVG text: no script, no library, readable
//! by a screen reader through their title and description (each chart also
//! has its figures in a table beside it). Every piece of text that goes into
//! a chart is escaped here. No chart writes a colour: its text and axes are
//! `currentColor`, its marks carry classes (`c-*`, `g-*`) that the
//! stylesheet fills from the palette, so a chart follows the theme.

use std::fmt::{self, Write};

/// A finished chart, already escaped: the only markup the templates print
/// unescaped (`|safe`), and it holds no text that was not escaped by
/// [`esc`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Svg(String);

impl fmt::Display for Svg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Svg {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Escape text for SVG (XML) content and attribute values.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A series' colour, named, never written: each mark carries the class of
/// its tone and the stylesheet (`style.css`, "Charts") fills it from the
/// design system's variables (`--ussr`, `--won`, …), so a chart follows
/// the reader's theme, light or dark, with the contrast the palette keeps
/// (marks at least 3:1 against the paper, text at least 4.5:1; issue 17
/// §3). Text and axes are `currentColor`, the page's ink.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Ussr,
    Us,
    Tie,
    Won,
    Lost,
}

impl Tone {
    /// The mark's class in the stylesheet.
    pub fn class(self) -> &'static str {
        match self {
            Tone::Ussr => "c-ussr",
            Tone::Us => "c-us",
            Tone::Tie => "c-tie",
            Tone::Won => "c-won",
            Tone::Lost => "c-lost",
        }
    }
}

pub const USSR: Tone = Tone::Ussr;
pub const US: Tone = Tone::Us;
pub const TIE: Tone = Tone::Tie;
/// A player's won and lost games (apart from the sides' colours).
pub const WON: Tone = Tone::Won;
pub const LOST: Tone = Tone::Lost;

/// One point of a line chart.
#[derive(Debug, Clone)]
pub struct Point {
    /// Under the x axis (shown when there is room).
    pub label: String,
    pub y: i64,
    pub colour: Tone,
    /// The point's tooltip.
    pub tip: String,
}

fn open(out: &mut String, id: &str, width: u32, height: u32, title: &str, desc: &str) {
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="chart-svg" viewBox="0 0 {width} {height}" role="img" aria-labelledby="{id}-t {id}-d" font-family="system-ui, sans-serif" font-size="12" fill="currentColor"><title id="{id}-t">{}</title><desc id="{id}-d">{}</desc>"#,
        esc(title),
        esc(desc)
    );
}

/// Up to about `want` round tick values covering `lo..=hi`.
fn ticks(lo: i64, hi: i64, want: i64) -> Vec<i64> {
    let span = (hi - lo).max(1);
    let mut step = 1;
    for s in [
        1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000,
    ] {
        step = s;
        if span / s <= want {
            break;
        }
    }
    let first = lo.div_euclid(step) * step;
    let mut out = Vec::new();
    let mut t = first;
    while t <= hi {
        if t >= lo {
            out.push(t);
        }
        t += step;
    }
    out
}

/// A line through `points`, left to right. With `invert`, smaller values
/// are drawn higher (a rung: 1 is the top). `id` makes the chart's ids
/// unique in its page.
pub fn line_chart(
    id: &str,
    title: &str,
    desc: &str,
    y_label: &str,
    points: &[Point],
    invert: bool,
) -> Svg {
    const W: u32 = 640;
    const H: u32 = 260;
    const LEFT: f64 = 52.0;
    const RIGHT: f64 = 16.0;
    const TOP: f64 = 16.0;
    const BOTTOM: f64 = 44.0;
    let mut out = String::new();
    open(&mut out, id, W, H, title, desc);
    let plot_w = f64::from(W) - LEFT - RIGHT;
    let plot_h = f64::from(H) - TOP - BOTTOM;
    let (mut lo, mut hi) = points.iter().fold((i64::MAX, i64::MIN), |(lo, hi), p| {
        (lo.min(p.y), hi.max(p.y))
    });
    if points.is_empty() {
        lo = 0;
        hi = 1;
    }
    if lo == hi {
        lo -= 1;
        hi += 1;
    }
    let y_of = |v: i64| -> f64 {
        let frac = (v - lo) as f64 / (hi - lo) as f64;
        if invert {
            TOP + frac * plot_h
        } else {
            TOP + plot_h - frac * plot_h
        }
    };
    let n = points.len();
    let x_of = |i: usize| -> f64 {
        if n <= 1 {
            LEFT + plot_w / 2.0
        } else {
            LEFT + plot_w * i as f64 / (n - 1) as f64
        }
    };
    // Grid and y axis labels: round values, and the extremes when they are
    // not too close to one of them (a rung chart shows rung 1).
    let mut marks = ticks(lo, hi, 5);
    for end in [lo, hi] {
        let far = marks.iter().all(|t| (y_of(*t) - y_of(end)).abs() >= 14.0);
        if far && !marks.contains(&end) {
            marks.push(end);
        }
    }
    for t in marks {
        let y = y_of(t);
        let _ = write!(
            out,
            r#"<line class="c-grid" x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="currentColor" stroke-opacity="0.25" stroke-width="1"/><text x="{:.1}" y="{:.1}" text-anchor="end">{t}</text>"#,
            LEFT + plot_w,
            LEFT - 6.0,
            y + 4.0
        );
    }
    let _ = write!(
        out,
        r#"<text x="12" y="{:.1}" transform="rotate(-90 12 {:.1})" text-anchor="middle">{}</text>"#,
        TOP + plot_h / 2.0,
        TOP + plot_h / 2.0,
        esc(y_label)
    );
    // The axis.
    let _ = write!(
        out,
        r#"<line class="c-axis" x1="{LEFT}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="currentColor" stroke-width="1"/>"#,
        TOP + plot_h,
        LEFT + plot_w,
        TOP + plot_h
    );
    if n > 1 {
        let path: Vec<String> = points
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{:.1},{:.1}", x_of(i), y_of(p.y)))
            .collect();
        let _ = write!(
            out,
            r#"<polyline class="c-line" points="{}" fill="none" stroke="currentColor" stroke-width="2"/>"#,
            path.join(" ")
        );
    }
    // Label at most about ten points under the axis.
    let every = n.div_ceil(10).max(1);
    for (i, p) in points.iter().enumerate() {
        let (x, y) = (x_of(i), y_of(p.y));
        let _ = write!(
            out,
            r#"<circle class="c-mark {}" cx="{x:.1}" cy="{y:.1}" r="5" stroke-width="1.5"><title>{}</title></circle>"#,
            p.colour.class(),
            esc(&p.tip)
        );
        if i % every == 0 || i + 1 == n {
            let _ = write!(
                out,
                r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
                TOP + plot_h + 18.0,
                esc(&p.label)
            );
        }
    }
    out.push_str("</svg>");
    Svg(out)
}

/// One bar of a stacked bar chart: its label and its segments (value,
/// tone, name).
#[derive(Debug, Clone)]
pub struct Bar {
    pub label: String,
    pub segments: Vec<(u32, Tone, &'static str)>,
}

/// Horizontal stacked bars, each scaled to the largest total, with the
/// figures written inside the segments that have room.
pub fn bar_chart(id: &str, title: &str, desc: &str, bars: &[Bar]) -> Svg {
    const W: u32 = 640;
    const LABEL: f64 = 200.0;
    const ROW: f64 = 30.0;
    const RIGHT: f64 = 48.0;
    let height = (bars.len().max(1) as f64 * ROW + 12.0) as u32;
    let mut out = String::new();
    open(&mut out, id, W, height, title, desc);
    let max = bars
        .iter()
        .map(|b| b.segments.iter().map(|s| s.0).sum::<u32>())
        .max()
        .unwrap_or(0)
        .max(1);
    let plot_w = f64::from(W) - LABEL - RIGHT;
    for (i, b) in bars.iter().enumerate() {
        let y = 6.0 + i as f64 * ROW;
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
            LABEL - 8.0,
            y + 17.0,
            esc(&shorten(&b.label, 30))
        );
        let mut x = LABEL;
        let total: u32 = b.segments.iter().map(|s| s.0).sum();
        for (value, tone, name) in &b.segments {
            if *value == 0 {
                continue;
            }
            let w = plot_w * f64::from(*value) / f64::from(max);
            let _ = write!(
                out,
                r#"<rect class="{}" x="{x:.1}" y="{y:.1}" width="{w:.1}" height="22"><title>{}: {} {value}</title></rect>"#,
                tone.class(),
                esc(&b.label),
                esc(name)
            );
            if w >= 22.0 {
                let _ = write!(
                    out,
                    r#"<text class="c-on" x="{:.1}" y="{:.1}" text-anchor="middle">{value}</text>"#,
                    x + w / 2.0,
                    y + 15.5
                );
            }
            x += w;
        }
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{:.1}">{total}</text>"#,
            x + 6.0,
            y + 15.5
        );
    }
    out.push_str("</svg>");
    Svg(out)
}

/// A game in a crosstable's glance, from the row player's seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Won,
    Drawn,
    Lost,
    /// Not played yet.
    Open,
}

impl Outcome {
    /// The mark's class: its colour comes from the stylesheet, in both
    /// themes.
    fn class(self) -> &'static str {
        match self {
            Outcome::Won => "g-won",
            Outcome::Drawn => "g-drawn",
            Outcome::Lost => "g-lost",
            Outcome::Open => "g-open",
        }
    }

    fn word(self) -> &'static str {
        match self {
            Outcome::Won => "won",
            Outcome::Drawn => "drawn",
            Outcome::Lost => "lost",
            Outcome::Open => "to play",
        }
    }
}

/// A crosstable at a glance: one row and one column a player, in the
/// table's order, numbered by place; each cell his games against that
/// opponent as coloured marks (a double round robin splits the cell in
/// two). `cells[i][j]` are row `i`'s games against column `j`. The
/// figures are in the tables beside it; this is their picture.
pub fn crosstable_glance(
    id: &str,
    title: &str,
    desc: &str,
    names: &[String],
    cells: &[Vec<Vec<Outcome>>],
) -> Svg {
    const GAP: f64 = 3.0;
    const HEAD: f64 = 26.0;
    let n = names.len();
    // Larger cells for a small group, so that it reads as well as a big
    // one; at most about 310 units across, a phone's width.
    let cell = (280.0 / n.max(1) as f64).clamp(26.0, 44.0).floor();
    let size = HEAD + n as f64 * (cell + GAP);
    let side = size.ceil() as u32;
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="glance" viewBox="0 0 {side} {side}" width="{side}" height="{side}" role="img" aria-labelledby="{id}-t {id}-d" font-family="system-ui, sans-serif" font-size="12" fill="currentColor"><title id="{id}-t">{}</title><desc id="{id}-d">{}</desc>"#,
        esc(title),
        esc(desc)
    );
    for (i, name) in names.iter().enumerate() {
        let at = HEAD + i as f64 * (cell + GAP) + cell / 2.0;
        let _ = write!(
            out,
            r#"<text class="g-label" x="{at:.1}" y="17" text-anchor="middle">{}<title>{}</title></text><text class="g-label" x="{:.1}" y="{:.1}" text-anchor="middle">{}<title>{}</title></text>"#,
            i + 1,
            esc(name),
            HEAD / 2.0 - 2.0,
            at + 4.0,
            i + 1,
            esc(name)
        );
    }
    for (i, row) in cells.iter().enumerate().take(n) {
        let y = HEAD + i as f64 * (cell + GAP);
        for (j, games) in row.iter().enumerate().take(n) {
            let x = HEAD + j as f64 * (cell + GAP);
            if i == j {
                let _ = write!(
                    out,
                    r#"<rect class="g-self" x="{x:.1}" y="{y:.1}" width="{cell}" height="{cell}" rx="3" fill-opacity="0.25"/>"#
                );
                continue;
            }
            let k = games.len().max(1) as f64;
            let h = cell / k;
            for (g, o) in games.iter().enumerate() {
                let _ = write!(
                    out,
                    r#"<rect class="{}" x="{x:.1}" y="{:.1}" width="{cell}" height="{:.1}" rx="3"><title>{} v {}: {}</title></rect>"#,
                    o.class(),
                    y + g as f64 * h,
                    h - if g + 1 < games.len() { 1.0 } else { 0.0 },
                    esc(&names[i]),
                    esc(&names[j]),
                    o.word()
                );
            }
        }
    }
    out.push_str("</svg>");
    Svg(out)
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(max - 1).collect();
        s.push('…');
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_in_charts_is_escaped() {
        let p = Point {
            label: "<b>".into(),
            y: 3,
            colour: USSR,
            tip: "\"<script>alert(1)</script>".into(),
        };
        let svg = line_chart("c", "<t>", "d&d", "rung", &[p], true);
        assert!(!svg.as_str().contains("<script>"));
        assert!(svg.as_str().contains("&lt;script&gt;"));
        assert!(svg.as_str().contains("&lt;t&gt;"));
        assert!(svg.as_str().contains("d&amp;d"));
        let bars = bar_chart(
            "b",
            "t",
            "d",
            &[Bar {
                label: "<i>x</i>".into(),
                segments: vec![(2, USSR, "USSR wins")],
            }],
        );
        assert!(!bars.as_str().contains("<i>"));
    }

    #[test]
    fn a_glance_draws_each_game_and_escapes_names() {
        let names = vec!["<A>".to_string(), "B".to_string()];
        let cells = vec![
            vec![vec![], vec![Outcome::Won, Outcome::Open]],
            vec![vec![Outcome::Lost, Outcome::Open], vec![]],
        ];
        let svg = crosstable_glance("g", "t", "d", &names, &cells);
        let s = svg.as_str();
        assert!(!s.contains("<A>") && s.contains("&lt;A&gt; v B: won"));
        assert_eq!(s.matches("class=\"g-open\"").count(), 2);
        assert_eq!(s.matches("class=\"g-self\"").count(), 2);
    }

    #[test]
    fn a_chart_writes_classes_never_a_colour() {
        let points: Vec<Point> = [WON, LOST, TIE]
            .into_iter()
            .enumerate()
            .map(|(i, colour)| Point {
                label: format!("R{i}"),
                y: i as i64,
                colour,
                tip: String::new(),
            })
            .collect();
        let line = line_chart("l", "t", "d", "rung", &points, true);
        let bars = bar_chart(
            "b",
            "t",
            "d",
            &[Bar {
                label: "x".into(),
                segments: vec![(5, USSR, "a"), (4, US, "b"), (3, TIE, "c")],
            }],
        );
        let glance = crosstable_glance(
            "g",
            "t",
            "d",
            &["A".to_string(), "B".to_string()],
            &[
                vec![vec![], vec![Outcome::Drawn]],
                vec![vec![Outcome::Drawn], vec![]],
            ],
        );
        for svg in [&line, &bars, &glance] {
            let s = svg.as_str();
            assert!(!s.contains('#') && !s.contains("white"), "{s}");
        }
        let (l, b) = (line.as_str(), bars.as_str());
        for class in ["c-won", "c-lost", "c-tie", "c-line", "c-axis", "c-grid"] {
            assert!(l.contains(class), "{class}: {l}");
        }
        for class in ["c-ussr", "c-us", "c-tie", "c-on"] {
            assert!(b.contains(class), "{class}: {b}");
        }
        assert!(glance.as_str().contains(r#"class="g-drawn""#));
    }

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(ticks(1, 5, 5), vec![1, 2, 3, 4, 5]);
        assert_eq!(ticks(0, 30, 5), vec![0, 10, 20, 30]);
        assert_eq!(ticks(-3, 4, 5), vec![-2, 0, 2, 4]);
    }

    #[test]
    fn empty_and_single_point_charts_draw() {
        let svg = line_chart("e", "t", "d", "y", &[], false);
        assert!(svg.as_str().ends_with("</svg>"));
        let one = Point {
            label: "R1".into(),
            y: 1,
            colour: TIE,
            tip: "x".into(),
        };
        let svg = line_chart("o", "t", "d", "y", &[one], true);
        assert!(svg.as_str().contains("<circle"));
    }
}
