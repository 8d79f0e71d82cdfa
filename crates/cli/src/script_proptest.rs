//! Hostile scripts: 10,000 generated scripts per run through
//! [`crate::script::parse`] (the binary has no library, so this property
//! test lives beside the parser as a unit test module:
//! `cargo test -p arbiter-cli --bin arbiter script_proptest`). No panic, and
//! every refusal names the script and one of its lines.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use proptest::prelude::*;

const CASES: u32 = 10_000;

/// Words a script line is made of: real commands and options, and hostile
/// tokens (unbalanced quotes, NUL, a byte-order mark, options that a script
/// refuses, out-of-range numbers and times, very long words).
const WORDS: &[&str] = &[
    "arbiter",
    "player",
    "add",
    "import",
    "players.csv",
    "\"Ana Morales\"",
    "'Dmitri Volkov'",
    "--surname",
    "result",
    "record",
    "G1",
    "G0",
    "G99999999999",
    "--winner",
    "--by",
    "vp",
    "--vp",
    "-20",
    "99999999999",
    "--turn",
    "300",
    "round",
    "announce",
    "close",
    "--early",
    "--reason",
    "--deadline",
    "2026-02-30",
    "--at",
    "2026-01-01",
    "1969-12-31",
    "99999-01-01",
    "not-a-time",
    "--format",
    "bbcode",
    "html",
    "export",
    "sunjang",
    "--rank",
    "5k",
    "31k",
    "12x",
    "--rating",
    "league",
    "--pawns",
    "4-2",
    "9-9-9",
    "--time",
    "23:05",
    "99:99",
    "-c",
    "--db",
    "--db=x.db",
    "script",
    "demo",
    "serve",
    "account",
    "--json",
    "standings",
    "--csv",
    "results",
    "what-if",
    "--result",
    "G1=ussr",
    "#",
    "\"unbalanced",
    "'unbalanced",
    "\\",
    "\u{0}",
    "\u{feff}",
    "=cmd|' /C calc'!A0",
    "@SUM(1)",
    "ключ",
    "😀",
    "--",
    "-",
    "--help",
    "--version",
    "help",
];

fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => prop::collection::vec(0..WORDS.len(), 0..8)
            .prop_map(|ws| ws.iter().map(|w| WORDS[*w]).collect::<Vec<_>>().join(" ")),
        1 => "\\PC{0,40}",
        1 => (0..WORDS.len(), 1..200usize).prop_map(|(w, n)| WORDS[w].repeat(n)),
    ]
}

fn script() -> impl Strategy<Value = (String, usize)> {
    (
        prop::collection::vec(line(), 0..6),
        prop_oneof![Just("\n"), Just("\r\n"), Just("\r")],
        any::<bool>(),
    )
        .prop_map(|(lines, end, bom)| {
            let count = lines.len();
            let mut text = lines.join(end);
            if bom {
                text.insert(0, '\u{feff}');
            }
            (text, count)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: CASES, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn generated_scripts_never_panic_and_errors_name_a_line((text, _count) in script()) {
        match crate::script::parse("s.arb", &text) {
            Ok(lines) => {
                for l in &lines {
                    prop_assert!(l.number >= 1);
                    prop_assert!(l.number <= text.lines().count());
                }
            }
            Err(e) => {
                let msg = format!("{e:#}");
                prop_assert!(
                    msg.starts_with("s.arb, line "),
                    "the error does not name the line: {msg}\n--- script ---\n{text:?}"
                );
                let n: usize = msg["s.arb, line ".len()..]
                    .split(|c: char| !c.is_ascii_digit())
                    .next()
                    .and_then(|d| d.parse().ok())
                    .unwrap_or(0);
                prop_assert!(n >= 1 && n <= text.lines().count().max(1), "line {n} of {msg}");
            }
        }
    }
}
