//! Script mode: a file of arbiter commands, one per line, so a whole
//! competition can be replayed. Every line is parsed before any runs: a
//! malformed line stops the script before anything is stored.

use std::path::Path;

use anyhow::{Context as _, Result};
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
                "{name}, line {number}: unbalanced quotes in `{line}`"
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
                "{name}, line {number}: {first}\n  in: {line}"
            )))
        })?;
        if matches!(cli.command, Noun::Script(_) | Noun::Demo(_)) {
            return Err(crate::run::Usage(format!(
                "{name}, line {number}: a script cannot run `script` or `demo`"
            ))
            .into());
        }
        crate::run::precheck(&cli).map_err(|e| {
            anyhow::Error::new(crate::run::Usage(format!(
                "{name}, line {number}: {e}\n  in: {line}"
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

pub async fn run_text(svc: &Svc, g: &Globals, name: &str, text: &str) -> Result<()> {
    let lines = parse(name, text)?;
    for line in &lines {
        if !g.json {
            outln!("» {}", line.text);
        }
        let globals = g
            .merged(&line.cli)
            .with_context(|| format!("{name}, line {}", line.number))?;
        execute(svc, &globals, &line.cli.command)
            .await
            .with_context(|| format!("{name}, line {}: `{}`", line.number, line.text))?;
    }
    Ok(())
}

pub async fn run_file(svc: &Svc, g: &Globals, path: &Path) -> Result<()> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the script {}", path.display()))?;
    run_text(svc, g, &path.display().to_string(), &text).await
}
