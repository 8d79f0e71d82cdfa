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
            .contains("Password of eve changed; 0 session(s) ended.")
    );
    let (code, _, err) = with_stdin(&a, &["account", "password", "mallory"], "a long password\n");
    assert_ne!(code, 0);
    assert!(err.contains("no account"), "{err}");
}
