//! Issue 16 §1: moving every format behind the registry must not change
//! what the seed formats store. The demo's TWS ladder, XMadn league,
//! Challengers event and Sunjang league, built for one fixed day, export
//! to exactly these bytes; the digests were taken from the main of before
//! the registry (5bfed3f) and again after it, and were equal. A change
//! that alters a seed format's stored events or their encoding fails here,
//! and must say why in its commit before the digests change.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::Arbiter;
use sha2::{Digest, Sha256};

const DAY: &str = "2026-06-01";

const DIGESTS: &[(&str, &str)] = &[
    (
        "tws-demo",
        "3a0c881a95ede527670ce1f2f190f19ae78051480bd5142a68a367acfd16c2c4",
    ),
    (
        "xmadn-league-demo",
        "9261524ac0fa8487870973c77a1021c37e83206a0d1381bddf5155118ac29b18",
    ),
    (
        "xmadn-challengers-demo",
        "b9122cd9764685f7da4e0ac03f1be20ff6cfee60e35777888adfab98760df289",
    ),
    (
        "sunjang-demo",
        "bc47cccb3579fbe4f922085dededc9282ac105362cdb2b752efe134855fa7bfb",
    ),
];

#[test]
fn the_seed_formats_demo_exports_are_byte_identical_to_before_the_registry() {
    let a = Arbiter::new();
    a.ok(&["--at", DAY, "demo"]);
    for (competition, digest) in DIGESTS {
        let file = a.db().with_file_name(format!("{competition}.jsonl"));
        let path = file.to_str().unwrap();
        a.ok(&["export", "-c", competition, "-o", path]);
        let bytes = std::fs::read(&file).unwrap();
        assert_eq!(
            hex::encode(Sha256::digest(&bytes)),
            *digest,
            "the export of {competition} built for {DAY} changed"
        );
    }
}
