//! Running the real `arbiter` binary against a database of its own.
//!
//! Every test gets a fresh temporary directory with its SQLite file, runs the
//! binary with `--db` and `--actor tester`, makes the side draws reproducible
//! with `ARBITER_DETERMINISTIC_SEEDS=test`, and clears the environment
//! variables that would pick another competition, database or actor.

// Each test file uses its own subset of these helpers.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use tempfile::TempDir;

pub mod axe;
pub mod browser;

/// The workspace root: examples are run from here, as a user would.
/// A CSV cell, quoted when it must be.
pub fn csv_cell(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// `text` is the fixture at `path`: `UPDATE_FIXTURES=1` writes it first.
#[track_caller]
pub fn assert_fixture(path: &Path, text: &str, what: &str) {
    if std::env::var_os("UPDATE_FIXTURES").is_some() {
        std::fs::write(path, text).unwrap();
    }
    assert_eq!(
        std::fs::read_to_string(path).unwrap(),
        text,
        "the fixture is {what} (UPDATE_FIXTURES=1 writes it)"
    );
}

pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// What one run of the binary did.
#[derive(Debug, Clone)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    pub args: Vec<String>,
}

impl Run {
    /// Panics (with the whole output) unless the command succeeded.
    #[track_caller]
    pub fn success(self) -> Self {
        assert_eq!(
            self.code,
            0,
            "`arbiter {}` failed\nstdout:\n{}\nstderr:\n{}",
            self.args.join(" "),
            self.stdout,
            self.stderr
        );
        self
    }

    /// Panics unless the command failed with `code`.
    #[track_caller]
    pub fn fails_with(self, code: i32) -> Self {
        assert_eq!(
            self.code,
            code,
            "`arbiter {}` should exit with {code}\nstdout:\n{}\nstderr:\n{}",
            self.args.join(" "),
            self.stdout,
            self.stderr
        );
        self
    }

    /// Panics unless stderr contains every one of `words` (case-insensitive).
    #[track_caller]
    pub fn stderr_names(self, words: &[&str]) -> Self {
        let lower = self.stderr.to_lowercase();
        for w in words {
            assert!(
                lower.contains(&w.to_lowercase()),
                "`arbiter {}`: stderr should mention {w:?}, but is:\n{}",
                self.args.join(" "),
                self.stderr
            );
        }
        self
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "`arbiter {}` did not print JSON ({e}):\n{}",
                self.args.join(" "),
                self.stdout
            )
        })
    }
}

/// Everything stored about the competitions, as the CLI shows it: compared
/// before and after a refused command to prove nothing changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    pub competitions: String,
    pub history: Vec<String>,
    pub ladders: Vec<String>,
}

/// A temporary database and the way to run `arbiter` on it.
#[derive(Debug)]
pub struct Arbiter {
    dir: TempDir,
    pub db: PathBuf,
}

/// The day tests whose output is compared tell the demo on: the demo
/// crate's `reference_today` (checked in tests/demo.rs). Without `--at`,
/// `arbiter demo` tells it as of today.
#[allow(dead_code)]
pub const DEMO_DAY: &str = "2025-09-28T09:00:00Z";

impl Arbiter {
    /// `arbiter demo` told on [`DEMO_DAY`], so its output is the same on
    /// every date.
    #[allow(dead_code)]
    pub fn demo(&self) -> String {
        self.ok(&["--at", DEMO_DAY, "demo"])
    }

    /// A fresh, empty database (made with `--create`: read commands no
    /// longer make a missing one, issue 14, item 6).
    pub fn new() -> Self {
        let a = Self::without_db();
        a.run(&["--create", "competition", "list"]).success();
        a
    }

    /// A temporary directory whose database does not exist yet.
    pub fn without_db() -> Self {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let db = dir.path().join("arbiter.db");
        Self { dir, db }
    }

    pub fn db(&self) -> &Path {
        &self.db
    }

    /// A file in the test's temporary directory.
    pub fn file(&self, name: &str, contents: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, contents).expect("write a test file");
        path
    }

    /// The command with the test environment, not yet run.
    pub fn command(&self) -> Command {
        Self::command_on(&self.db)
    }

    /// The command with the test environment on the database `db`.
    pub fn command_on(db: &Path) -> Command {
        Self::command_as(db, "tester")
    }

    /// [`Arbiter::command_on`], acting as `actor`.
    pub fn command_as(db: &Path, actor: &str) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_arbiter"));
        cmd.env("ARBITER_DETERMINISTIC_SEEDS", "test")
            .env_remove("ARBITER_COMPETITION")
            .env_remove("ARBITER_DB")
            .env_remove("ARBITER_ACTOR")
            .arg("--db")
            .arg(db)
            .arg("--actor")
            .arg(actor)
            .stdin(Stdio::null());
        cmd
    }

    /// Run `arbiter ARGS` from the workspace root.
    pub fn run(&self, args: &[&str]) -> Run {
        self.run_on(&self.db, args)
    }

    /// Run `arbiter ARGS` from the workspace root on the database `db`.
    pub fn run_on(&self, db: &Path, args: &[&str]) -> Run {
        self.run_as_on(db, "tester", args)
    }

    /// Run `arbiter ARGS` from the workspace root, acting as `actor`.
    #[allow(dead_code)]
    pub fn run_as(&self, actor: &str, args: &[&str]) -> Run {
        self.run_as_on(&self.db, actor, args)
    }

    fn run_as_on(&self, db: &Path, actor: &str, args: &[&str]) -> Run {
        let out = Self::command_as(db, actor)
            .current_dir(workspace_root())
            .args(args)
            .output()
            .expect("run the arbiter binary");
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            args: args.iter().map(|a| (*a).to_string()).collect(),
        }
    }

    /// Run and insist on success; the standard output.
    #[track_caller]
    pub fn ok(&self, args: &[&str]) -> String {
        self.run(args).success().stdout
    }

    /// Run and insist on success; the standard output, read as JSON.
    #[track_caller]
    pub fn ok_json(&self, args: &[&str]) -> serde_json::Value {
        self.run(args).success().json()
    }

    /// Write `text` to a script file and run it.
    pub fn script(&self, name: &str, text: &str) -> Run {
        let path = self.file(name, text);
        let path = path.to_string_lossy().into_owned();
        self.run(&["script", &path])
    }

    /// What is stored, for every competition in the database.
    #[track_caller]
    pub fn stored(&self) -> Stored {
        let competitions = self.ok(&["competition", "list", "--json"]);
        let ids: Vec<String> = serde_json::from_str::<serde_json::Value>(&competitions)
            .expect("competition list --json")
            .as_array()
            .expect("a list of competitions")
            .iter()
            .map(|c| c["id"].as_str().expect("an id").to_string())
            .collect();
        let mut history = Vec::new();
        let mut ladders = Vec::new();
        for id in &ids {
            history.push(self.ok(&["-c", id, "history", "--json"]));
            ladders.push(self.ok(&["-c", id, "ladder", "show", "--json"]));
        }
        Stored {
            competitions,
            history,
            ladders,
        }
    }

    /// Run `args`, which must be refused with `code`, and check that nothing
    /// stored changed.
    #[track_caller]
    pub fn refused(&self, code: i32, args: &[&str]) -> Run {
        let before = self.stored();
        let run = self.run(args).fails_with(code);
        let after = self.stored();
        assert_unchanged(&before, &after, &format!("`arbiter {}`", args.join(" ")));
        run
    }
}

impl Arbiter {
    /// What is stored, for every competition in the database whatever its
    /// format: the competition list, each history, and each competition's
    /// own view (`ladder show`, `league show` or `challengers show`, all
    /// `--json`; the view carries the version). [`Stored::ladders`] holds
    /// those views.
    #[track_caller]
    pub fn stored_any(&self) -> Stored {
        let competitions = self.ok(&["competition", "list", "--json"]);
        let rows: Vec<(String, String)> = serde_json::from_str::<serde_json::Value>(&competitions)
            .expect("competition list --json")
            .as_array()
            .expect("a list of competitions")
            .iter()
            .map(|c| {
                (
                    c["id"].as_str().expect("an id").to_string(),
                    c["format"].as_str().expect("a format").to_string(),
                )
            })
            .collect();
        let mut history = Vec::new();
        let mut views = Vec::new();
        for (id, format) in &rows {
            let noun = match format.as_str() {
                "xmadn-league" => "league",
                "xmadn-challengers" => "challengers",
                _ => "ladder",
            };
            history.push(self.ok(&["-c", id, "history", "--json"]));
            views.push(self.ok(&["-c", id, noun, "show", "--json"]));
        }
        Stored {
            competitions,
            history,
            ladders: views,
        }
    }

    /// [`Arbiter::refused`] for a database holding competitions of any
    /// format (see [`Arbiter::stored_any`]).
    #[track_caller]
    pub fn refused_any(&self, code: i32, args: &[&str]) -> Run {
        let before = self.stored_any();
        let run = self.run(args).fails_with(code);
        let after = self.stored_any();
        assert_unchanged(&before, &after, &format!("`arbiter {}`", args.join(" ")));
        run
    }
}

/// Panics, showing the first line that differs, if `after` is not `before`.
#[track_caller]
pub fn assert_unchanged(before: &Stored, after: &Stored, what: &str) {
    if before == after {
        return;
    }
    let flat = |s: &Stored| {
        let mut all = vec![s.competitions.clone()];
        all.extend(s.history.iter().cloned());
        all.extend(s.ladders.iter().cloned());
        all.join("\n")
            .lines()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let (b, a) = (flat(before), flat(after));
    let at = b
        .iter()
        .zip(&a)
        .position(|(x, y)| x != y)
        .unwrap_or(b.len().min(a.len()));
    panic!(
        "{what} changed what is stored; first difference at line {}:\n  before: {}\n  after:  {}\n({} lines before, {} after)",
        at + 1,
        b.get(at).map_or("<end>", String::as_str),
        a.get(at).map_or("<end>", String::as_str),
        b.len(),
        a.len()
    );
}

/// Six members and a guest eliminator, no round yet (competition `tws`).
pub const REGISTERED: &str = r#"# Six members and a volunteer eliminator.
competition create tws --name "TWS Test" --moderator "Jordan Reyes" --moderator "Sam Whitfield" --at 2026-01-05
player add "Ana Morales" --at 2026-01-05
player add "Ben Carter" --at 2026-01-05
player add "Chloé Dubois" --at 2026-01-05
player add "Dmitri Volkov" --at 2026-01-05
player add "Emma Lindgren" --at 2026-01-05
player add "Farid Haddad" --at 2026-01-05
player guest "Mika Lindqvist" --at 2026-01-06
eliminator volunteer "Mika Lindqvist" --at 2026-01-06
"#;

/// [`REGISTERED`], then round 1 (G1 Morales v. Carter, G2 Dubois v. Volkov,
/// G3 Lindgren v. Haddad) played and closed, and round 2 announced on
/// 2026-03-01 with its deadline 2026-06-01: G4 Volkov v. Morales decided,
/// G5 Carter v. Lindgren and G6 Haddad v. Dubois still open.
pub const RUNNING: &str = r#"round announce --at 2026-01-10
result record G1 --winner "Ana Morales" --by concession --turn 4 --at 2026-02-01
result record G2 --winner "Dmitri Volkov" --by concession --turn 5 --at 2026-02-02
result record G3 --winner "Emma Lindgren" --by concession --turn 6 --at 2026-02-03
round announce --at 2026-03-01
result record G4 --winner "Ana Morales" --by concession --turn 4 --at 2026-03-10
"#;

/// A database with [`REGISTERED`].
pub fn registered() -> Arbiter {
    let a = Arbiter::new();
    a.script("registered.arbiter", REGISTERED).success();
    a
}

/// A database with [`REGISTERED`] and [`RUNNING`]: round 2 is running.
pub fn running() -> Arbiter {
    let a = Arbiter::new();
    a.script("running.arbiter", &format!("{REGISTERED}{RUNNING}"))
        .success();
    a
}

impl Arbiter {
    /// [`Arbiter::stored_any`], and Sunjang leagues too: for a
    /// `sunjang-league` the view is its player list and every season
    /// (`sunjang player list --json`, then `sunjang season show N --json`
    /// for each season, final round included); the history holds every
    /// event with its payload.
    #[track_caller]
    pub fn stored_every(&self) -> Stored {
        let competitions = self.ok(&["competition", "list", "--json"]);
        let rows: Vec<(String, String, u64)> =
            serde_json::from_str::<serde_json::Value>(&competitions)
                .expect("competition list --json")
                .as_array()
                .expect("a list of competitions")
                .iter()
                .map(|c| {
                    (
                        c["id"].as_str().expect("an id").to_string(),
                        c["format"].as_str().expect("a format").to_string(),
                        c["rounds"].as_u64().unwrap_or(0),
                    )
                })
                .collect();
        let mut history = Vec::new();
        let mut views = Vec::new();
        for (id, format, rounds) in &rows {
            history.push(self.ok(&["-c", id, "history", "--json"]));
            match format.as_str() {
                "sunjang-league" => {
                    let mut view = self.ok(&["-c", id, "sunjang", "player", "list", "--json"]);
                    for n in 1..=*rounds {
                        let n = n.to_string();
                        view.push_str(
                            &self.ok(&["-c", id, "sunjang", "season", "show", &n, "--json"]),
                        );
                    }
                    views.push(view);
                }
                "xmadn-league" => views.push(self.ok(&["-c", id, "league", "show", "--json"])),
                "xmadn-challengers" => {
                    views.push(self.ok(&["-c", id, "challengers", "show", "--json"]));
                }
                _ => views.push(self.ok(&["-c", id, "ladder", "show", "--json"])),
            }
        }
        Stored {
            competitions,
            history,
            ladders: views,
        }
    }

    /// [`Arbiter::refused`] for a database holding competitions of any
    /// format, Sunjang leagues included (see [`Arbiter::stored_every`]).
    #[track_caller]
    pub fn refused_every(&self, code: i32, args: &[&str]) -> Run {
        let before = self.stored_every();
        let run = self.run(args).fails_with(code);
        let after = self.stored_every();
        assert_unchanged(&before, &after, &format!("`arbiter {}`", args.join(" ")));
        run
    }
}
