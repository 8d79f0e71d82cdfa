//! Export and import (`arbiter_service::transfer`): a round trip through two
//! SQLite stores is exact, refusals store nothing, and each kind of damage to
//! a file is refused naming its line and field.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter_engine::model::Side;
use arbiter_service::transfer::{self, Export, ExportOptions};
use arbiter_service::{Context, ServiceError};
use arbiter_store::{
    Account, AccountStore, ApiToken, EventStore, Grant, Role, Session, StoreError,
};
use arbiter_store_sqlite::SqliteStore;
use common::*;

fn account(username: &str) -> Account {
    Account {
        username: username.to_owned(),
        display_name: format!("Display {username} ünï \"q\""),
        email: (username != "bob").then(|| format!("{username}@example.org")),
        password_hash: format!("$argon2id$v=19$m=19456,t=2,p=1$salt-{username}$hash"),
        organizer: username == "alice",
        created_at: "2026-01-01T00:00:00Z".to_owned(),
    }
}

/// A ladder with keyed and unkeyed commands, an undo, two rounds, and the
/// accounts of an installation (with a session, which is never exported).
async fn installation() -> SqliteStore {
    let store = SqliteStore::open_in_memory().await.unwrap();
    let svc = service(store.clone());
    create_with_members(&svc, 8).await;
    announce(&svc, day(1)).await;
    let (ladder, _) = svc.load(COMP, None).await.unwrap();
    for (i, g) in open_games(&ladder).into_iter().enumerate() {
        let side = if i % 2 == 0 { Side::Ussr } else { Side::Us };
        let key = format!("result-{i}");
        let ctx: Context = if i % 3 == 0 {
            ctx(day(2))
        } else {
            keyed(day(2), &key)
        };
        svc.execute(COMP, win(g, side, day(2)), &ctx).await.unwrap();
    }
    svc.execute(COMP, join(9), &keyed(day(3), "join-9"))
        .await
        .unwrap();
    svc.undo(COMP, &keyed(day(3), "undo-join-9")).await.unwrap();
    announce(&svc, day(8)).await;

    for name in ["carol", "alice", "bob"] {
        store.create_account(&account(name)).await.unwrap();
    }
    for (username, role, player) in [
        ("alice", Role::Owner, None),
        ("bob", Role::Moderator, None),
        ("carol", Role::Player, Some("Player 3")),
    ] {
        store
            .grant(&Grant {
                competition: COMP.to_owned(),
                username: username.to_owned(),
                role,
                player: player.map(str::to_owned),
            })
            .await
            .unwrap();
    }
    for (hash, label) in [("ff00", "laptop"), ("00ff", "ci")] {
        store
            .put_token(&ApiToken {
                hash: hash.to_owned(),
                username: "alice".to_owned(),
                label: label.to_owned(),
                created_at: "2026-01-02T00:00:00Z".to_owned(),
                // Issue 14 item 2: an expiry is exported and read back.
                expires_at: (label == "ci").then(|| "2026-06-01T00:00:00Z".to_owned()),
                // The last use is not exported.
                last_used: Some("2026-01-03T00:00:00Z".to_owned()),
            })
            .await
            .unwrap();
    }
    store
        .put_session(&Session {
            id_hash: "session".to_owned(),
            username: "alice".to_owned(),
            csrf: "csrf".to_owned(),
            created_at: 1,
            expires_at: i64::MAX,
        })
        .await
        .unwrap();
    store
}

fn all() -> ExportOptions {
    ExportOptions {
        competition: None,
        accounts: true,
        secrets: true,
    }
}

async fn export_bytes<S: EventStore + AccountStore>(store: &S, options: &ExportOptions) -> Vec<u8> {
    transfer::to_bytes(&transfer::export(store, options).await.unwrap())
}

#[tokio::test]
async fn a_round_trip_is_exact_and_the_imported_installation_works() {
    let source = installation().await;
    let bytes = export_bytes(&source, &all()).await;
    let text = String::from_utf8(bytes.clone()).unwrap();
    assert!(
        text.starts_with(r#"{"arbiter":"export","version":1,"#),
        "{text}"
    );
    assert!(!text.contains("csrf"), "sessions are never exported");
    let export = transfer::parse(&bytes).unwrap();
    assert_eq!(export.competitions.len(), 1);
    assert!(!export.competitions[0].keys.is_empty());
    assert!(!export.competitions[0].secrets.is_empty());
    assert_eq!(export.accounts.len(), 3);
    assert_eq!(export.grants.len(), 3);
    assert_eq!(export.tokens.len(), 2);
    assert!(
        text.contains(r#""expires_at":"2026-06-01T00:00:00Z""#),
        "{text}"
    );
    assert!(
        !text.contains("last_used"),
        "a token's last use is not exported"
    );
    assert_eq!(
        export
            .tokens
            .iter()
            .filter(|t| t.expires_at.is_some())
            .count(),
        1,
        "only the token with an expiry has one"
    );
    assert_eq!(
        transfer::to_bytes(&export),
        bytes,
        "parse then write is identity"
    );

    let target = SqliteStore::open_in_memory().await.unwrap();
    let imported = transfer::import(&target, &export).await.unwrap();
    assert_eq!(imported.competitions, vec![COMP.to_owned()]);
    assert_eq!(imported.counts, export.counts());
    assert_eq!(
        export_bytes(&target, &all()).await,
        bytes,
        "a re-export is byte-identical"
    );
    assert_eq!(target.session("session", 0).await.unwrap(), None);

    // The imported ladder is the original, and goes on: its keys replay,
    // its committed seed draws the same next round.
    let (a, b) = (service(source.clone()), service(target.clone()));
    let (la, va) = a.load(COMP, None).await.unwrap();
    let (lb, vb) = b.load(COMP, None).await.unwrap();
    assert_eq!(va, vb);
    assert!(la == lb, "the imported ladder folds to the original");
    assert_consistent(&b, COMP).await;
    let replay = b
        .execute(COMP, join(9), &keyed(day(3), "join-9"))
        .await
        .unwrap();
    assert!(replay.replayed, "an imported key replays its command");
    finish_round(&a, day(9)).await;
    finish_round(&b, day(9)).await;
    let next_a = announce(&a, day(15)).await;
    let next_b = announce(&b, day(15)).await;
    assert_eq!((next_a.first, next_a.last), (next_b.first, next_b.last));
    assert_eq!(
        source.read(COMP, 1, None).await.unwrap(),
        target.read(COMP, 1, None).await.unwrap(),
        "the same draws from the imported seeds"
    );
}

#[tokio::test]
async fn an_import_over_existing_data_stores_nothing() {
    let source = installation().await;
    let export = transfer::parse(&export_bytes(&source, &all()).await).unwrap();

    // The competition exists.
    let target = SqliteStore::open_in_memory().await.unwrap();
    transfer::import(&target, &export).await.unwrap();
    let before = export_bytes(&target, &all()).await;
    let err = transfer::import(&target, &export).await.unwrap_err();
    assert!(
        matches!(err, ServiceError::Exists(ref id) if id == COMP),
        "{err}"
    );
    assert_eq!(export_bytes(&target, &all()).await, before);

    // Only a username is taken: the competition is not imported either.
    let target = SqliteStore::open_in_memory().await.unwrap();
    target.create_account(&account("bob")).await.unwrap();
    let err = transfer::import(&target, &export).await.unwrap_err();
    assert!(
        matches!(err, ServiceError::Store(StoreError::AccountExists(ref u)) if u == "bob"),
        "{err}"
    );
    assert!(target.competitions().await.unwrap().is_empty());
    assert_eq!(target.accounts().await.unwrap(), vec![account("bob")]);
}

#[tokio::test]
async fn one_competition_and_without_secrets() {
    let source = installation().await;
    let svc = service(source.clone());
    svc.create_ladder(
        "second",
        "Second",
        Default::default(),
        &["M".to_owned()],
        &ctx(t0()),
    )
    .await
    .unwrap();
    let one = ExportOptions {
        competition: Some("second".to_owned()),
        accounts: false,
        secrets: false,
    };
    let export = transfer::export(&source, &one).await.unwrap();
    assert_eq!(export.competitions.len(), 1);
    assert!(export.accounts.is_empty() && export.competitions[0].secrets.is_empty());
    let bytes = transfer::to_bytes(&export);
    let text = String::from_utf8(bytes.clone()).unwrap();
    assert!(text.contains(r#""secrets_included":false,"accounts_included":false"#));
    let parsed = transfer::parse(&bytes).unwrap();
    assert_eq!(parsed, export);
    let target = SqliteStore::open_in_memory().await.unwrap();
    let imported = transfer::import(&target, &parsed).await.unwrap();
    assert!(!imported.secrets_included);
    assert_eq!(
        target.competitions().await.unwrap(),
        vec!["second".to_owned()]
    );
    assert!(target.secrets("second").await.unwrap().is_empty());

    let missing = ExportOptions {
        competition: Some("missing".to_owned()),
        ..one
    };
    assert!(matches!(
        transfer::export(&source, &missing).await,
        Err(ServiceError::NotFound(_))
    ));
}

/// The lines of a valid export, to damage one at a time.
async fn lines() -> Vec<String> {
    let source = installation().await;
    String::from_utf8(export_bytes(&source, &all()).await)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

fn join_lines(lines: &[String]) -> Vec<u8> {
    let mut text = lines.join("\n");
    text.push('\n');
    text.into_bytes()
}

fn refused(bytes: &[u8]) -> String {
    match transfer::parse(bytes) {
        Ok(_) => panic!("accepted:\n{}", String::from_utf8_lossy(bytes)),
        Err(e) => e.to_string(),
    }
}

/// The line of the first event with `"seq":n`.
fn event_line(lines: &[String], n: u64) -> usize {
    lines
        .iter()
        .position(|l| l.contains(r#""type":"event""#) && l.contains(&format!(r#""seq":{n},"#)))
        .unwrap()
}

#[tokio::test]
async fn every_kind_of_damage_is_refused_naming_its_line_and_field() {
    let good = lines().await;
    let mut cases: Vec<(&str, Vec<u8>, String)> = Vec::new();
    let mut edit = |what: &'static str, f: &dyn Fn(&mut Vec<String>), expect: String| {
        let mut l = good.clone();
        f(&mut l);
        cases.push((what, join_lines(&l), expect));
    };
    let e5 = event_line(&good, 5);
    let token = good
        .iter()
        .position(|l| l.contains(r#""type":"token""#) && l.contains(r#""expires_at""#))
        .unwrap();
    edit(
        "a token's expiry that is no time",
        &|l| l[token] = l[token].replace("2026-06-01T00:00:00Z", "soon"),
        format!(
            "line {}, field `expires_at`: \"soon\" is not an RFC 3339 time",
            token + 1
        ),
    );
    edit(
        "a gap in the sequence",
        &|l| {
            l.remove(e5);
        },
        format!("line {}, field `seq`: expected 5 after 4, found 6", e5 + 1),
    );
    edit(
        "two events swapped",
        &|l| l.swap(e5, e5 + 1),
        format!("line {}, field `seq`: expected 5 after 4, found 6", e5 + 1),
    );
    edit(
        "an event twice",
        &|l| {
            let dup = l[e5].clone();
            l.insert(e5, dup);
        },
        format!("line {}, field `seq`: expected 6 after 5, found 5", e5 + 2),
    );
    edit(
        "an undecodable payload",
        &|l| l[e5] = l[e5].replace(r#""payload":"{"#, r#""payload":"{\"junk\":1,"#),
        format!(
            "line {}, field `payload`: event 5 of {COMP} cannot be read",
            e5 + 1
        ),
    );
    edit(
        "a payload of another kind",
        &|l| {
            let kind = l[e5].split(r#""kind":""#).nth(1).unwrap();
            let kind = kind.split('"').next().unwrap().to_owned();
            l[e5] = l[e5].replacen(&format!(r#""kind":"{kind}""#), r#""kind":"player-left""#, 1);
        },
        format!(
            "line {}, field `kind`: \"player-left\", but the payload is a",
            e5 + 1
        ),
    );
    edit(
        "a number as a string",
        &|l| l[e5] = l[e5].replace(r#""seq":5,"#, r#""seq":"5","#),
        format!(
            "line {}, field `seq`: expected a whole number, found a string",
            e5 + 1
        ),
    );
    edit(
        "an unknown field",
        &|l| l[e5] = l[e5].replacen('{', r#"{"colour":"red","#, 1),
        format!("line {}, field `colour`: unknown field", e5 + 1),
    );
    edit(
        "a field twice",
        &|l| l[e5] = l[e5].replacen('{', r#"{"seq":5,"#, 1),
        format!("line {}, field `seq`: appears twice", e5 + 1),
    );
    edit(
        "a missing field",
        &|l| l[e5] = l[e5].replace(r#""actor":"Mod One","#, ""),
        format!("line {}, field `actor`: missing", e5 + 1),
    );
    edit(
        "a bad time",
        &|l| l[e5] = l[e5].replace(r#""recorded_at":"2026-01-0"#, r#""recorded_at":"2026-13-0"#),
        format!("line {}, field `recorded_at`", e5 + 1),
    );
    edit(
        "version 2",
        &|l| l[0] = l[0].replace(r#""version":1"#, r#""version":2"#),
        "line 1, field `version`: version 2 of the export format is not supported".to_owned(),
    );
    edit(
        "no header",
        &|l| {
            l.remove(0);
        },
        "line 1: expected the header".to_owned(),
    );
    edit(
        "the last line cut off",
        &|l| {
            l.pop();
        },
        format!(
            "line {}: the end of the file: the header (line 1) announces 2 tokens, the file has 1",
            good.len()
        ),
    );
    edit(
        "an event of another competition",
        &|l| {
            l[e5] = l[e5].replace(
                r#""competition":"tws-ladder""#,
                r#""competition":"elsewhere""#,
            )
        },
        format!(
            "line {}, field `competition`: \"elsewhere\" is not the competition being read",
            e5 + 1
        ),
    );
    let key = good
        .iter()
        .position(|l| l.contains(r#""type":"key""#))
        .unwrap();
    edit(
        "a key outside its events",
        &|l| {
            let first = l[key]
                .split(r#""first":"#)
                .nth(1)
                .unwrap()
                .split(',')
                .next()
                .unwrap()
                .to_owned();
            l[key] = l[key].replace(&format!(r#""first":{first},"#), r#""first":9999,"#);
        },
        format!("line {}, field `first`", key + 1),
    );
    edit(
        "a key line missing",
        &|l| {
            l.remove(key);
        },
        "field `idempotency_key`: the key".to_owned(),
    );
    edit(
        "a grant of an unknown account",
        &|l| {
            let g = l
                .iter()
                .position(|x| x.contains(r#""type":"grant""#))
                .unwrap();
            l[g] = l[g].replace(r#""username":"alice""#, r#""username":"zed""#);
        },
        "field `username`: a grant of \"zed\", who has no `account` line".to_owned(),
    );
    edit(
        "a NUL character",
        &|l| l[e5] = l[e5].replace(r#""actor":"Mod One""#, r#""actor":"Mod\u0000One""#),
        format!("line {}, field `actor`: contains a NUL character", e5 + 1),
    );
    edit(
        "two exports joined",
        &|l| {
            let header = l[0].clone();
            l.push(header);
        },
        format!("line {}, field `arbiter`: a second header", good.len() + 1),
    );
    for (what, bytes, expect) in cases {
        let message = refused(&bytes);
        assert!(
            message.starts_with(&expect) || message.contains(&expect),
            "{what}: expected {expect:?}\n got {message:?}"
        );
    }

    // Bytes rather than lines.
    let text = join_lines(&good);
    let mut latin1 = text.clone();
    let at = latin1
        .iter()
        .position(|&b| b == b'\xC3')
        .unwrap_or(latin1.len() / 2);
    latin1[at] = 0xE9;
    let line = latin1[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    let message = refused(&latin1);
    assert!(
        message.starts_with(&format!("line {line}: not UTF-8")),
        "{message}"
    );
    assert!(message.contains("not UTF-8"), "{message}");
    assert!(refused(b"").starts_with("line 1: the file is empty"));
    let cut = &text[..text.len() / 2];
    assert!(refused(cut).starts_with("line "), "{}", refused(cut));
}

#[tokio::test]
async fn a_byte_order_mark_crlf_blank_lines_and_no_final_newline_are_accepted() {
    let good = lines().await;
    let expected = transfer::parse(&join_lines(&good)).unwrap();
    let mut crlf = b"\xEF\xBB\xBF".to_vec();
    crlf.extend(good.join("\r\n\r\n").into_bytes());
    let parsed: Export = transfer::parse(&crlf).unwrap();
    assert_eq!(parsed, expected);
}

/// Issue 14, item 8: the export flags leave out what they name. Without
/// credentials no password or token hash is written (the hashes empty, no
/// `token` line); without e-mail addresses none is; the file still reads,
/// imports, and its accounts cannot log in with any password.
#[tokio::test]
async fn credentials_and_emails_are_left_out_when_asked() {
    let source = installation().await;
    let mut export = transfer::export(&source, &all()).await.unwrap();
    assert!(export.accounts.iter().any(|a| !a.password_hash.is_empty()));
    assert!(export.accounts.iter().any(|a| a.email.is_some()));
    export.leave_out_credentials();
    export.leave_out_emails();
    let bytes = transfer::to_bytes(&export);
    let text = String::from_utf8(bytes.clone()).unwrap();
    for account in source.accounts().await.unwrap() {
        assert!(!text.contains(&account.password_hash), "{text}");
        if let Some(email) = account.email {
            assert!(!text.contains(&email), "{text}");
        }
    }
    assert!(!text.contains(r#""type":"token""#), "{text}");
    let parsed = transfer::parse(&bytes).unwrap();
    assert_eq!(parsed, export);
    let target = SqliteStore::open_in_memory().await.unwrap();
    transfer::import(&target, &parsed).await.unwrap();
    for account in target.accounts().await.unwrap() {
        assert_eq!(account.password_hash, "");
        assert_eq!(account.email, None);
    }
}
