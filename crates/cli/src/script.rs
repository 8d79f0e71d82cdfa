//! Script mode: a file of arbiter commands, one per line, so a whole
//! competition can be replayed. Every line is parsed before any runs: a
//! malformed line stops the script before anything is stored.

use std::path::Path;

use anyhow::{Context as _, Result};
use arbiter_store::{AccountStore, CompetitionDump, EventStore, StoreError};
use arbiter_store_any::{AnyStore, StoreSpec};
use clap::Parser;

use crate::args::{Cli, Noun};
use crate::run::{Globals, Svc, execute};

/// One parsed line.
#[derive(Debug)]
pub struct Line {
    pub number: usize,
    pub text: String,
    pub cli: Cli,
}

/// A line as errors quote it: at most 200 characters (a hostile script's
/// megabyte line must not flood the terminal), control characters escaped
/// (a NUL is shown as `\0`, not written to the terminal).
fn shown(line: &str) -> std::borrow::Cow<'_, str> {
    let count = line.chars().count();
    if count <= 200 && !line.chars().any(char::is_control) {
        return line.into();
    }
    let mut out = arbiter_service::csv::escaped_prefix(line, 200);
    if count > 200 {
        out.push_str(&format!("… ({count} characters)"));
    }
    out.into()
}

/// Parse a script; the error names the line.
pub fn parse(name: &str, text: &str) -> Result<Vec<Line>> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        let line = raw.trim().trim_start_matches('\u{feff}');
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words = shlex::split(line).ok_or_else(|| {
            anyhow::Error::new(crate::run::Usage(format!(
                "{name}, line {number}: unbalanced quotes in `{}`",
                shown(line)
            )))
        })?;
        let words: Vec<String> = match words.first().map(String::as_str) {
            Some("arbiter") => words.into_iter().skip(1).collect(),
            _ => words,
        };
        let cli = Cli::try_parse_from(
            std::iter::once("arbiter".to_string()).chain(words.iter().cloned()),
        )
        .map_err(|e| {
            let msg = e.to_string();
            let first = msg
                .lines()
                .next()
                .unwrap_or("")
                .trim_start_matches("error: ")
                .to_string();
            anyhow::Error::new(crate::run::Usage(format!(
                "{name}, line {number}: {first}\n  in: {}",
                shown(line)
            )))
        })?;
        if matches!(
            cli.command,
            Noun::Script(_) | Noun::Demo(_) | Noun::Serve(_) | Noun::Account(_)
        ) {
            return Err(crate::run::Usage(format!(
                "{name}, line {number}: a script cannot run `script`, `demo`, `serve` or `account`"
            ))
            .into());
        }
        crate::run::precheck(&cli).map_err(|e| {
            anyhow::Error::new(crate::run::Usage(format!(
                "{name}, line {number}: {e}\n  in: {}",
                shown(line)
            )))
        })?;
        // `--db` on the line itself (ARBITER_DB in the environment also fills
        // `cli.db`, and is the script's own database).
        if words.iter().any(|w| w == "--db" || w.starts_with("--db=")) {
            return Err(crate::run::Usage(format!(
                "{name}, line {number}: a script line cannot switch the database (--db)"
            ))
            .into());
        }
        out.push(Line {
            number,
            text: line.to_string(),
            cli,
        });
    }
    Ok(out)
}

/// Run the parsed lines, stopping at the first refusal.
async fn run_lines(svc: &Svc, g: &Globals, name: &str, lines: &[Line]) -> Result<()> {
    for line in lines {
        if !g.json {
            outln!("» {}", line.text);
        }
        let globals = g
            .merged(&line.cli)
            .with_context(|| format!("{name}, line {}", line.number))?;
        execute(svc, &globals, &line.cli.command)
            .await
            .with_context(|| format!("{name}, line {}: `{}`", line.number, shown(&line.text)))?;
    }
    Ok(())
}

/// Try the script on a copy of the database, quietly: if a rule refuses a
/// line there, the real database is never touched.
///
/// A SQLite database is copied as files (with its write-ahead log). A
/// PostgreSQL database is copied into a private in-memory SQLite store
/// through the store's own export and import (`read`, `keys`, `secrets`,
/// then `import`, and the accounts with their grants and tokens): every
/// competition, since a line may read any of them; the database itself is
/// only read. (A transaction on the real database could not be used: the
/// service commits each append on its own.)
async fn rehearse(
    db: &StoreSpec,
    real: &AnyStore,
    seeds: &arbiter_service::SeedSource,
    g: &Globals,
    name: &str,
    lines: &[Line],
) -> Result<()> {
    let dir = tempfile::tempdir().context("no temporary directory for the script's rehearsal")?;
    let store = match db {
        StoreSpec::Sqlite(db) => {
            let copy = dir.path().join("rehearsal.db");
            // The database with its write-ahead log: nothing writes while we copy.
            for suffix in ["", "-wal", "-shm"] {
                let from = std::path::PathBuf::from(format!("{}{suffix}", db.display()));
                if from.exists() {
                    let to = std::path::PathBuf::from(format!("{}{suffix}", copy.display()));
                    std::fs::copy(&from, &to).with_context(|| {
                        format!("cannot copy {} for the script's rehearsal", from.display())
                    })?;
                }
            }
            AnyStore::open_sqlite(&copy)
                .await
                .context("cannot open the copy of the database for the script's rehearsal")?
        }
        StoreSpec::Postgres(_) => copy_in_memory(real)
            .await
            .context("cannot copy the database for the script's rehearsal")?,
    };
    let svc = crate::run::service(store).with_seeds(seeds.clone());
    crate::out::quiet(true);
    let tried = run_lines(&svc, g, name, lines).await;
    crate::out::quiet(false);
    svc.store().close().await;
    tried.context(
        "the script was tried on a copy of the database first and stopped there: nothing was stored",
    )
}

/// Everything `store` keeps (competitions with their keys and secrets,
/// accounts with their grants and tokens; not sessions) in a new in-memory
/// SQLite store.
async fn copy_in_memory(store: &AnyStore) -> Result<AnyStore, StoreError> {
    let mut dumps = Vec::new();
    for id in store.competitions().await? {
        dumps.push(CompetitionDump {
            events: store.read(&id, 1, None).await?,
            keys: store.keys(&id).await?,
            secrets: store.secrets(&id).await?,
            id,
        });
    }
    let accounts = store.accounts().await?;
    let (mut grants, mut tokens) = (Vec::new(), Vec::new());
    for account in &accounts {
        grants.extend(store.grants_of(&account.username).await?);
        tokens.extend(store.tokens_of(&account.username).await?);
    }
    let copy = AnyStore::open_in_memory().await?;
    copy.import(&dumps).await?;
    copy.import_accounts(&accounts, &grants, &tokens).await?;
    Ok(copy)
}

/// The script at `path` read (at most `input::MAX_SCRIPT` bytes) and
/// parsed, with its name for messages. Every refusal is a usage mistake
/// (exit 2) except a file that cannot be opened at all.
pub fn read(path: &Path) -> Result<(String, Vec<Line>)> {
    let text = crate::input::read_utf8(path, "the script", crate::input::MAX_SCRIPT)?;
    let name = path.display().to_string();
    let lines = parse(&name, &text)?;
    Ok((name, lines))
}

/// Run the parsed `lines` of the script `name`: tried on a copy of the
/// database first unless `rehearsal` is false.
pub async fn run_lines_of(
    svc: &Svc,
    g: &Globals,
    name: &str,
    lines: &[Line],
    db: &StoreSpec,
    rehearsal: bool,
) -> Result<()> {
    if !rehearsal {
        return run_lines(svc, g, name, lines).await;
    }
    // The rehearsal and the real run must draw the same sides, or a result
    // that depends on a side (a win "by VP" at -20) could pass in one and
    // not the other: both take their seeds from one fresh random base (or
    // the configured deterministic one), which is never stored.
    let seeds = match svc.seeds() {
        arbiter_service::SeedSource::Os => {
            let mut base = [0u8; 32];
            getrandom::fill(&mut base)
                .map_err(|e| anyhow::anyhow!("the system has no randomness: {e}"))?;
            arbiter_service::SeedSource::Deterministic(hex::encode(base))
        }
        other => other.clone(),
    };
    rehearse(db, svc.store(), &seeds, g, name, lines).await?;
    let real = arbiter_service::Service::new(svc.store().clone()).with_seeds(seeds);
    run_lines(&real, g, name, lines).await
}
