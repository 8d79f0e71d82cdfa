//! Properties of the export format's parser (`arbiter_service::transfer`):
//! 10,000 mutations per run of a valid export (truncations, flipped and
//! inserted bytes, lines dropped, duplicated and swapped, values of the wrong
//! type) never panic and are either refused naming a line within the file, or
//! accepted and then written back to what parses the same; and any export
//! (generated, with arbitrary strings) round-trips byte for byte.
//!
//! `PROPTEST_CASES` raises or lowers the number of cases.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use arbiter_engine::model::Side;
use arbiter_service::transfer::{self, Export, ExportOptions};
use arbiter_store::{
    Account, AccountStore, ApiToken, CompetitionDump, Grant, KeyRecord, Role, StoredEvent,
};
use arbiter_store_sqlite::SqliteStore;
use common::*;
use proptest::prelude::*;

fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A valid export: a ladder over two rounds with keyed commands and an undo,
/// two accounts with grants and a token.
fn base() -> &'static [u8] {
    static BASE: OnceLock<Vec<u8>> = OnceLock::new();
    BASE.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(async {
            let store = SqliteStore::open_in_memory().await.unwrap();
            let svc = service(store.clone());
            create_with_members(&svc, 6).await;
            announce(&svc, day(1)).await;
            let (ladder, _) = svc.load(COMP, None).await.unwrap();
            for (i, g) in open_games(&ladder).into_iter().enumerate() {
                let side = if i % 2 == 0 { Side::Ussr } else { Side::Us };
                svc.execute(COMP, win(g, side, day(2)), &keyed(day(2), &format!("r{i}")))
                    .await
                    .unwrap();
            }
            svc.execute(COMP, join(7), &keyed(day(3), "join"))
                .await
                .unwrap();
            svc.undo(COMP, &ctx(day(3))).await.unwrap();
            announce(&svc, day(8)).await;
            for name in ["alice", "bob"] {
                store
                    .create_account(&Account {
                        username: name.to_owned(),
                        display_name: format!("{name} ü"),
                        email: None,
                        password_hash: "$argon2id$x".to_owned(),
                        organizer: name == "alice",
                        created_at: "2026-01-01T00:00:00Z".to_owned(),
                    })
                    .await
                    .unwrap();
                store
                    .grant(&Grant {
                        competition: COMP.to_owned(),
                        username: name.to_owned(),
                        role: Role::Moderator,
                        player: None,
                    })
                    .await
                    .unwrap();
            }
            store
                .put_token(&ApiToken {
                    hash: "abc".to_owned(),
                    username: "bob".to_owned(),
                    label: "ci".to_owned(),
                    created_at: "2026-01-01T00:00:00Z".to_owned(),
                    expires_at: None,
                    last_used: None,
                })
                .await
                .unwrap();
            let options = ExportOptions {
                competition: None,
                accounts: true,
                secrets: true,
            };
            transfer::to_bytes(&transfer::export(&store, &options).await.unwrap())
        })
    })
}

#[derive(Debug, Clone)]
enum Mutation {
    Truncate(usize),
    Flip(usize, u8),
    Insert(usize, Vec<u8>),
    DropLine(usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    /// Replace the `n`-th JSON scalar value (number, string, literal) of a
    /// line with another of a wrong or odd type.
    Retype(usize, usize, &'static str),
    /// Replace a digit with another.
    Digit(usize, u8),
}

const ODD_VALUES: [&str; 12] = [
    "null",
    "true",
    "\"\"",
    "\"5\"",
    "-1",
    "1.5",
    "18446744073709551616",
    "[]",
    "{}",
    "\"\\u0000\"",
    "\"\\ud800\"",
    "0",
];

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<prop::sample::Index>().prop_map(|i| Mutation::Truncate(i.index(usize::MAX))),
        (any::<usize>(), 1u8..=255).prop_map(|(i, x)| Mutation::Flip(i, x)),
        (
            any::<usize>(),
            prop_oneof![
                prop::collection::vec(any::<u8>(), 1..8),
                Just(b"\n".to_vec()),
                Just(b"\r\n".to_vec()),
                Just(b"\"".to_vec()),
                Just(b"\\".to_vec()),
                Just(b"\xEF\xBB\xBF".to_vec()),
                Just(b"\xE9".to_vec()),
            ]
        )
            .prop_map(|(i, b)| Mutation::Insert(i, b)),
        any::<usize>().prop_map(Mutation::DropLine),
        any::<usize>().prop_map(Mutation::DuplicateLine),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        (
            any::<usize>(),
            any::<usize>(),
            prop::sample::select(&ODD_VALUES[..])
        )
            .prop_map(|(l, n, v)| Mutation::Retype(l, n, v)),
        (any::<usize>(), b'0'..=b'9').prop_map(|(i, d)| Mutation::Digit(i, d)),
    ]
}

/// The byte ranges of the scalar values of a JSON line (roughly: after a
/// `:` up to the next `,` or `}` outside strings).
fn scalar_ranges(line: &[u8]) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    let mut i = 0;
    let mut in_string = false;
    let mut start = None;
    while i < line.len() {
        let b = line[i];
        if in_string {
            if b == b'\\' {
                i += 1;
            } else if b == b'"' {
                in_string = false;
            }
        } else if b == b'"' {
            in_string = true;
        } else if b == b':' {
            start = Some(i + 1);
        } else if (b == b',' || b == b'}')
            && let Some(s) = start.take()
        {
            ranges.push((s, i));
        }
        i += 1;
    }
    ranges
}

fn apply(base: &[u8], m: &Mutation) -> Vec<u8> {
    let mut bytes = base.to_vec();
    let mut lines: Vec<Vec<u8>> = base
        .strip_suffix(b"\n")
        .unwrap_or(base)
        .split(|&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect();
    let joined = |lines: Vec<Vec<u8>>| {
        let mut out = lines.join(&b'\n');
        out.push(b'\n');
        out
    };
    let n = lines.len();
    match m {
        Mutation::Truncate(i) => {
            bytes.truncate(i % (bytes.len() + 1));
            bytes
        }
        Mutation::Flip(i, x) => {
            let i = i % bytes.len();
            bytes[i] ^= x;
            bytes
        }
        Mutation::Insert(i, b) => {
            let i = i % (bytes.len() + 1);
            bytes.splice(i..i, b.iter().copied());
            bytes
        }
        Mutation::DropLine(i) => {
            lines.remove(i % n);
            joined(lines)
        }
        Mutation::DuplicateLine(i) => {
            let line = lines[i % n].clone();
            lines.insert(i % n, line);
            joined(lines)
        }
        Mutation::SwapLines(a, b) => {
            lines.swap(a % n, b % n);
            joined(lines)
        }
        Mutation::Retype(l, k, v) => {
            let line = &mut lines[l % n];
            let ranges = scalar_ranges(line);
            if !ranges.is_empty() {
                let (s, e) = ranges[k % ranges.len()];
                line.splice(s..e, v.bytes());
            }
            joined(lines)
        }
        Mutation::Digit(i, d) => {
            let digits: Vec<usize> = (0..bytes.len())
                .filter(|&j| bytes[j].is_ascii_digit())
                .collect();
            if !digits.is_empty() {
                bytes[digits[i % digits.len()]] = *d;
            }
            bytes
        }
    }
}

fn line_count(bytes: &[u8]) -> usize {
    bytes
        .strip_suffix(b"\n")
        .unwrap_or(bytes)
        .split(|&b| b == b'\n')
        .count()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(10_000),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// A damaged export is refused naming a line of the file (or the line
    /// after its end), or it is still a valid export, which then writes
    /// back to bytes that parse to the same.
    #[test]
    fn mutations_never_panic_and_name_a_line(ms in prop::collection::vec(mutation(), 1..4)) {
        let mut bytes = base().to_vec();
        for m in &ms {
            bytes = apply(&bytes, m);
        }
        match transfer::parse(&bytes) {
            Err(e) => {
                let last = line_count(&bytes) + 1;
                prop_assert!(e.line >= 1 && e.line <= last, "{e} (the file has {} lines)", last - 1);
                let text = e.to_string();
                prop_assert!(text.starts_with(&format!("line {}", e.line)), "{text}");
                if let Some(field) = &e.field {
                    prop_assert!(text.contains(&format!("field `{field}`")), "{text}");
                }
            }
            Ok(export) => {
                let written = transfer::to_bytes(&export);
                prop_assert_eq!(transfer::parse(&written).ok(), Some(export));
            }
        }
    }
}

// -------------------------------------------------------------- round trip

/// Text without NUL (which the format refuses).
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z0-9 ]{0,12}",
        any::<String>().prop_map(|s| s.replace('\0', "")),
        Just("\"quoted\" \\ back\\slash\n\t\r \u{2028} ünïcödé 🎲".to_owned()),
    ]
}

fn id() -> impl Strategy<Value = String> {
    "[a-z0-9][a-z0-9-]{0,10}"
}

const CREATED: [&str; 4] = [
    "created",
    "league-created",
    "challengers-created",
    "sunjang-created",
];

fn competition(id: String) -> impl Strategy<Value = CompetitionDump> {
    (
        prop::sample::select(&CREATED[..]),
        prop::collection::vec(
            (
                text(),
                text(),
                text(),
                prop::option::of(1usize..4),
                "[a-z-]{1,10}",
            ),
            1..12,
        ),
        prop::collection::btree_map(text(), text(), 0..3),
        any::<bool>(),
    )
        .prop_map(move |(created, raw, secrets, unknown_fp)| {
            let mut events = Vec::new();
            let mut keys = Vec::new();
            let mut seq = 0u64;
            for (i, (payload, actor, fingerprint, keyed, kind)) in raw.into_iter().enumerate() {
                let first = seq + 1;
                // A keyed command of 1 to 3 events, or one unkeyed event.
                let count = keyed.unwrap_or(1) as u64;
                let key = keyed.map(|_| format!("{id}/key-{i:02} {fingerprint}"));
                for j in 0..count {
                    seq += 1;
                    events.push(StoredEvent {
                        competition: id.clone(),
                        seq,
                        kind: if seq == 1 {
                            created.to_owned()
                        } else {
                            kind.clone()
                        },
                        payload: format!("{payload}{j}"),
                        actor: actor.clone(),
                        recorded_at: "2026-01-01T12:00:00+01:00".to_owned(),
                        idempotency_key: key.clone(),
                    });
                }
                if let Some(key) = key {
                    keys.push(KeyRecord {
                        key,
                        first,
                        last: seq,
                        fingerprint: if unknown_fp {
                            String::new()
                        } else {
                            fingerprint
                        },
                    });
                }
            }
            keys.sort_by(|a, b| a.key.cmp(&b.key));
            CompetitionDump {
                id: id.clone(),
                events,
                keys,
                secrets: secrets.into_iter().collect(),
            }
        })
}

fn export() -> impl Strategy<Value = Export> {
    (
        prop::collection::btree_set(id(), 0..4),
        prop::collection::btree_map(
            "[a-z]{1,6}",
            (text(), prop::option::of(text()), any::<bool>()),
            0..4,
        ),
        prop::collection::vec((id(), 0usize..8, 0usize..3, prop::option::of(text())), 0..6),
        prop::collection::vec((0usize..8, text(), text(), "[0-9a-f]{4}"), 0..4),
        any::<bool>(),
    )
        .prop_flat_map(|(ids, accounts, grants, tokens, secrets_included)| {
            let comps: Vec<_> = ids.into_iter().map(competition).collect();
            (
                comps,
                Just(accounts),
                Just(grants),
                Just(tokens),
                Just(secrets_included),
            )
        })
        .prop_map(
            |(mut competitions, accounts, grants, tokens, secrets_included)| {
                if !secrets_included {
                    for c in &mut competitions {
                        c.secrets.clear();
                    }
                }
                let usernames: Vec<String> = accounts.keys().cloned().collect();
                let accounts: Vec<Account> = accounts
                    .into_iter()
                    .map(|(username, (display_name, email, organizer))| Account {
                        username,
                        display_name,
                        email,
                        password_hash: "$argon2id$hash".to_owned(),
                        organizer,
                        created_at: "2026-01-01T00:00:00Z".to_owned(),
                    })
                    .collect();
                let mut grant_set = BTreeMap::new();
                let mut token_list = Vec::new();
                if !usernames.is_empty() {
                    for (competition, u, r, player) in grants {
                        let role = [Role::Owner, Role::Moderator, Role::Player][r];
                        let username = usernames[u % usernames.len()].clone();
                        grant_set.insert(
                            (competition.clone(), username.clone(), role),
                            Grant {
                                competition,
                                username,
                                role,
                                player,
                            },
                        );
                    }
                    let mut hashes = BTreeSet::new();
                    for (u, label, created_at, hash) in tokens {
                        if hashes.insert(hash.clone()) {
                            token_list.push(ApiToken {
                                hash,
                                username: usernames[u % usernames.len()].clone(),
                                label,
                                created_at,
                                expires_at: None,
                                last_used: None,
                            });
                        }
                    }
                }
                token_list.sort_by(|a, b| {
                    (&a.username, &a.created_at, &a.label, &a.hash).cmp(&(
                        &b.username,
                        &b.created_at,
                        &b.label,
                        &b.hash,
                    ))
                });
                let accounts_included = !accounts.is_empty() || !grant_set.is_empty();
                Export {
                    competitions,
                    secrets_included,
                    accounts_included,
                    accounts,
                    grants: grant_set.into_values().collect(),
                    tokens: token_list,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(2_000),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Any export writes to bytes that read back to it and write again to
    /// the same bytes.
    #[test]
    fn exports_round_trip_byte_for_byte(export in export()) {
        let bytes = transfer::to_bytes(&export);
        let parsed = transfer::parse_structure(&bytes);
        prop_assert_eq!(parsed.as_ref().map_err(ToString::to_string), Ok(&export));
        if let Ok(parsed) = parsed {
            prop_assert_eq!(transfer::to_bytes(&parsed), bytes);
        }
    }
}
