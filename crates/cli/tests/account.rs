//! `arbiter account`: accounts for `arbiter serve`, their passwords (from
//! standard input or ARBITER_PASSWORD, never an argument) and roles.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::io::Write as _;
use std::process::Stdio;

use common::Arbiter;

/// Run `arbiter ARGS` with `stdin` as its standard input.
fn with_stdin(a: &Arbiter, args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = a
        .command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn an_organizer_is_made_from_stdin_and_listed_with_roles() {
    let a = Arbiter::new();
    let (code, out, err) = with_stdin(
        &a,
        &[
            "account",
            "add",
            "Olga",
            "--name",
            "Olga Ivanova",
            "--email",
            "olga@example.org",
            "--organizer",
        ],
        "a long password\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Account olga (Olga Ivanova) created, an organizer"),
        "{out}"
    );
    a.ok(&[
        "competition",
        "create",
        "tws",
        "--name",
        "TWS",
        "--moderator",
        "Olga Ivanova",
    ]);
    let (code, _, err) = with_stdin(
        &a,
        &["account", "add", "ana", "--name", "Ana Morales"],
        "another long one\n",
    );
    assert_eq!(code, 0, "{err}");
    // A player's role is the link of an existing player (ARB-R50).
    a.run(&[
        "account",
        "grant",
        "ana",
        "tws",
        "--role",
        "player",
        "--player",
        "Ana Morales",
    ])
    .fails_with(1)
    .stderr_names(&["no player named \"Ana Morales\"", "ARB-R50"]);
    a.ok(&["player", "add", "Ana Morales"]);
    a.ok(&[
        "account",
        "grant",
        "ana",
        "tws",
        "--role",
        "player",
        "--player",
        "Ana Morales",
    ]);
    a.ok(&["account", "grant", "olga", "tws", "--role", "owner"]);
    let list = a.ok(&["account", "list"]);
    assert!(
        list.contains("olga  Olga Ivanova  [organizer]  — owner of tws"),
        "{list}"
    );
    assert!(
        list.contains("ana  Ana Morales  — player of tws as Ana Morales"),
        "{list}"
    );
    let json = a.ok_json(&["--json", "account", "list"]);
    assert_eq!(json[0]["username"], "ana");
    assert_eq!(json[1]["roles"][0]["role"], "owner");
    // No password hash is ever printed.
    assert!(!list.contains("argon2") && !json.to_string().contains("argon2"));
    a.ok(&["account", "revoke", "ana", "tws", "--role", "player"]);
    assert!(!a.ok(&["account", "list"]).contains("player of tws"));
}

#[test]
fn bad_accounts_are_refused_naming_the_field_and_nothing_is_stored() {
    let a = Arbiter::new();
    for (args, stdin, words) in [
        (
            vec!["account", "add", "x", "--name", "X"],
            "a long password\n",
            "username",
        ),
        (
            vec!["account", "add", "bob", "--name", "Bob"],
            "short\n",
            "at least 10 characters",
        ),
        (
            vec!["account", "add", "bob", "--name", "Bob"],
            "\n",
            "standard input",
        ),
        // Issue 14 item 7: long enough, but easy to guess; reserved names.
        (
            vec!["account", "add", "bob", "--name", "Bob"],
            "password12\n",
            "too easy to guess",
        ),
        (
            vec!["account", "add", "bob", "--name", "Bob"],
            "1234567890\n",
            "too easy to guess",
        ),
        (
            vec!["account", "add", "bob", "--name", "Bob"],
            "          \n",
            "too easy to guess",
        ),
        (
            vec!["account", "add", "admin", "--name", "Admin"],
            "a long password\n",
            "reserved",
        ),
        (
            vec!["account", "add", "demo", "--name", "Demo"],
            "a long password\n",
            "reserved",
        ),
        (
            vec![
                "account",
                "add",
                "bob",
                "--name",
                "Bob",
                "--email",
                "not-an-address",
            ],
            "a long password\n",
            "e-mail",
        ),
    ] {
        let (code, _, err) = with_stdin(&a, &args, stdin);
        assert_ne!(code, 0, "{args:?} should fail");
        assert!(err.contains(words), "{args:?}: {err}");
    }
    assert!(a.ok(&["account", "list"]).contains("No accounts yet"));
    let (code, _, _) = with_stdin(
        &a,
        &["account", "add", "bob", "--name", "Bob"],
        "a long password\n",
    );
    assert_eq!(code, 0);
    let (code, _, err) = with_stdin(
        &a,
        &["account", "add", "BOB", "--name", "Bobby"],
        "a long password\n",
    );
    assert_ne!(code, 0);
    assert!(err.contains("taken"), "{err}");
    a.run(&["account", "grant", "bob", "nowhere", "--role", "moderator"])
        .fails_with(1)
        .stderr_names(&["no competition"]);
    a.ok(&[
        "competition",
        "create",
        "tws",
        "--name",
        "TWS",
        "--moderator",
        "M",
    ]);
    a.run(&["account", "grant", "bob", "tws", "--role", "boss"])
        .fails_with(1)
        .stderr_names(&["owner, moderator or player"]);
    a.run(&["account", "grant", "bob", "tws", "--role", "player"])
        .fails_with(1)
        .stderr_names(&["--player"]);
    a.run(&["account", "grant", "nobody", "tws", "--role", "moderator"])
        .fails_with(1)
        .stderr_names(&["no account"]);
}

#[test]
fn a_new_password_comes_from_the_environment_too() {
    let a = Arbiter::new();
    let (code, _, _) = with_stdin(
        &a,
        &["account", "add", "eve", "--name", "Eve"],
        "first password!\n",
    );
    assert_eq!(code, 0);
    let out = a
        .command()
        .env("ARBITER_PASSWORD", "second password!")
        .args(["account", "password", "eve"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("Password of eve changed; 0 session(s) ended, 0 API token(s) revoked.")
    );
    let (code, _, err) = with_stdin(&a, &["account", "password", "mallory"], "a long password\n");
    assert_ne!(code, 0);
    assert!(err.contains("no account"), "{err}");
}

/// A token of `username` put straight into the database (the CLI makes
/// none: the account page and `POST /api/tokens` do), with its hash.
fn put_token(a: &Arbiter, username: &str, hash: &str, label: &str) {
    use arbiter_store::{AccountStore, ApiToken};
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let store = arbiter_store_sqlite::SqliteStore::open(a.db())
            .await
            .unwrap();
        store
            .put_token(&ApiToken {
                hash: hash.to_owned(),
                username: username.to_owned(),
                label: label.to_owned(),
                created_at: "2026-01-01T00:00:00+00:00".to_owned(),
                expires_at: Some("2026-02-01T00:00:00+00:00".to_owned()),
                last_used: None,
            })
            .await
            .unwrap();
        store.close().await;
    });
}

/// Issue 14 item 2: `arbiter account tokens` lists an account's tokens,
/// `revoke-token` revokes one by id, a new password revokes the rest, and
/// `remove` takes the account away with everything of it.
#[test]
fn tokens_are_listed_revoked_and_ended_by_a_new_password_and_a_removal() {
    let a = Arbiter::new();
    for user in ["vera", "otto"] {
        let (code, _, err) = with_stdin(
            &a,
            &["account", "add", user, "--name", user],
            "correct horse battery staple\n",
        );
        assert_eq!(code, 0, "{err}");
    }
    let h1 = format!("{}{}", "a1".repeat(8), "0".repeat(48));
    let h2 = format!("{}{}", "b2".repeat(8), "0".repeat(48));
    let h3 = format!("{}{}", "c3".repeat(8), "0".repeat(48));
    put_token(&a, "vera", &h1, "laptop");
    put_token(&a, "vera", &h2, "ci");
    put_token(&a, "otto", &h3, "otto's");
    let list = a.ok(&["--at", "2026-03-01", "account", "tokens", "vera"]);
    assert!(list.contains("a1a1a1a1a1a1a1a1  laptop  created 2026-01-01T00:00:00+00:00  last used never  expires 2026-02-01T00:00:00+00:00 (expired)"), "{list}");
    assert!(list.contains("b2b2b2b2b2b2b2b2  ci"), "{list}");
    assert!(!list.contains("otto's"), "{list}");
    let json = a.ok_json(&["--json", "account", "tokens", "vera"]);
    assert_eq!(json.as_array().unwrap().len(), 2, "{json}");
    // Sorted by creation, then label.
    assert_eq!(json[0]["id"], "b2b2b2b2b2b2b2b2", "{json}");
    assert_eq!(json[1]["label"], "laptop", "{json}");

    // Revoking by id, only among the account's own tokens.
    let out = a.ok(&["account", "revoke-token", "vera", "a1a1a1a1a1a1a1a1"]);
    assert!(
        out.contains("API token a1a1a1a1a1a1a1a1 (laptop) of vera revoked."),
        "{out}"
    );
    let (code, _, err) = with_stdin(
        &a,
        &["account", "revoke-token", "vera", "c3c3c3c3c3c3c3c3"],
        "",
    );
    assert_ne!(code, 0);
    assert!(err.contains("no API token"), "{err}");
    let (code, _, err) = with_stdin(&a, &["account", "revoke-token", "vera", "not hex"], "");
    assert_ne!(code, 0);
    assert!(err.contains("field: id"), "{err}");
    assert!(!a.ok(&["account", "tokens", "vera"]).contains("laptop"));

    // A new password revokes the tokens that are left.
    let (code, out, err) = with_stdin(
        &a,
        &["account", "password", "vera"],
        "another correct horse battery\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("0 session(s) ended, 1 API token(s) revoked."),
        "{out}"
    );
    assert!(
        a.ok(&["account", "tokens", "vera"])
            .contains("vera has no API token.")
    );
    assert!(
        a.ok(&["account", "tokens", "otto"]).contains("otto's"),
        "otto keeps his"
    );

    // A removal takes otto's tokens with him.
    let out = a.ok(&["account", "remove", "otto"]);
    assert!(out.contains("Account otto removed"), "{out}");
    assert!(!a.ok(&["account", "list"]).contains("otto"));
    let (code, _, err) = with_stdin(&a, &["account", "tokens", "otto"], "");
    assert_ne!(code, 0);
    assert!(err.contains("no account"), "{err}");
    let (code, _, err) = with_stdin(&a, &["account", "remove", "otto"], "");
    assert_ne!(code, 0);
    assert!(err.contains("no account"), "{err}");
}
