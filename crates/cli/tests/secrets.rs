//! Issue 14, item 8: secrets stay secret. The moderators' preview of a round
//! must not show the seed the round will reveal (whoever knows it before the
//! announcement can predict every draw of the round).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::registered;

/// The preview of round 1 (through `--json`, what the server's desk and
/// API return too) holds no seed; the announcement then reveals one, and
/// that seed appears nowhere in the preview.
#[test]
fn the_preview_of_a_round_does_not_show_its_seed() {
    let a = registered();
    let preview = a.run(&[
        "round",
        "announce",
        "--preview",
        "--json",
        "--at",
        "2026-01-10",
    ]);
    let preview = preview.success().stdout;
    let view: serde_json::Value = serde_json::from_str(&preview).unwrap();
    assert_eq!(view["preview"], true);
    assert_eq!(view["round"]["seed"], "", "{preview}");

    let announced = a.ok_json(&["round", "announce", "--json", "--at", "2026-01-10"]);
    let seed = announced["round"]["seed"].as_str().unwrap().to_owned();
    assert_eq!(
        seed.len(),
        64,
        "the announcement reveals the seed: {announced}"
    );
    assert!(
        !preview.contains(&seed),
        "the preview showed the seed {seed}:\n{preview}"
    );
    // The preview drew the same sides the announcement did: only the seed
    // was kept back.
    assert_eq!(view["round"]["games"], announced["round"]["games"]);
}
