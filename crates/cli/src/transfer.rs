//! `arbiter export` and `arbiter import`: competitions (and, with `--all`,
//! accounts, grants and API tokens) as one JSON Lines file, read and written
//! by `arbiter_service::transfer` (format: docs/export-format.md).

use std::io::Write;
use std::path::Path;

use anyhow::{Context as _, Result, anyhow, bail};
use arbiter_service::ServiceError;
use arbiter_service::transfer::{self, ExportOptions};

use crate::args::{ExportArgs, ImportArgs};
use crate::run::{Globals, Svc, print_json};

pub async fn export(svc: &Svc, g: &Globals, a: &ExportArgs) -> Result<()> {
    if a.without_secrets {
        // Issue 14, item 8: the old name promised more than it did.
        return Err(crate::run::Usage(
            "--without-secrets is gone: it left out only the draw seeds and kept the password and token hashes; give --without-seeds, --without-credentials, or --public for an export safe to publish".into(),
        )
        .into());
    }
    let competition = if a.all {
        None
    } else {
        match &g.competition {
            Some(id) => Some(id.clone()),
            None => {
                let ids = svc.competitions().await?;
                match ids.as_slice() {
                    [only] => Some(only.clone()),
                    [] => bail!("there is no competition to export"),
                    _ => bail!(
                        "there are {} competitions: give -c ID for one, or --all for the whole installation",
                        ids.len()
                    ),
                }
            }
        }
    };
    let options = ExportOptions {
        competition,
        accounts: a.all,
        secrets: !(a.without_seeds || a.public),
    };
    let mut export = transfer::export(svc.store(), &options).await?;
    let credentials = !(a.without_credentials || a.public);
    if !credentials {
        export.leave_out_credentials();
    }
    if a.public {
        export.leave_out_emails();
    }
    match &a.output {
        None => {
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
            let written = transfer::write(&export, &mut out).and_then(|()| out.flush());
            if let Err(e) = written {
                if e.kind() == std::io::ErrorKind::BrokenPipe {
                    return Ok(());
                }
                return Err(anyhow!(e).context("cannot write the export to standard output"));
            }
        }
        Some(path) => {
            write_file(path, &export)?;
            let counts = export.counts();
            if g.json {
                print_json(&serde_json::json!({
                    "file": path.display().to_string(),
                    "counts": counts,
                    "secrets_included": export.secrets_included,
                    "credentials_included": credentials,
                    "emails_included": !a.public,
                }))?;
            } else {
                outln!("Exported {counts} to {}.", path.display());
            }
        }
    }
    Ok(())
}

/// Write the export beside `path` and rename it into place, so that a
/// failure never leaves half a file under the name asked for.
fn write_file(path: &Path, export: &transfer::Export) -> Result<()> {
    let name = path
        .file_name()
        .ok_or_else(|| anyhow!("-o {}: not a file name", path.display()))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let result = (|| -> std::io::Result<()> {
        let file = std::fs::File::create(&tmp)?;
        let mut out = std::io::BufWriter::with_capacity(1 << 16, file);
        transfer::write(export, &mut out)?;
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(anyhow!(e).context(format!("cannot write the export to {}", path.display())));
    }
    Ok(())
}

/// The export file `a` names (or standard input) read and checked, with its
/// name for messages. Read a line at a time, never whole (issue 14, item 5):
/// the parser stops at `transfer::MAX_FILE` bytes and a line at `MAX_LINE`.
/// The database is opened only after (`run::main`), so a refused file makes
/// no database either.
pub fn read(a: &ImportArgs) -> Result<(String, transfer::Export)> {
    let (name, parsed) = if a.file.as_os_str() == "-" {
        let stdin = std::io::stdin();
        let parsed = transfer::parse_reader(stdin.lock());
        ("standard input".to_owned(), parsed)
    } else {
        let file = std::fs::File::open(&a.file)
            .with_context(|| format!("cannot read the export file {}", a.file.display()))?;
        let parsed = transfer::parse_reader(std::io::BufReader::with_capacity(1 << 16, file));
        (a.file.display().to_string(), parsed)
    };
    let export = parsed.map_err(|e| anyhow!("{name}: {e}; nothing was imported"))?;
    Ok((name, export))
}

/// Import `export`, read from `name` by [`read`].
pub async fn import(svc: &Svc, g: &Globals, name: &str, export: &transfer::Export) -> Result<()> {
    let imported = match transfer::import(svc.store(), export).await {
        Ok(imported) => imported,
        // Only a refusal of the accounts after the competitions went in
        // (a username registered meanwhile) is partial, and says so.
        Err(e @ ServiceError::Input(_)) => return Err(e.into()),
        Err(e) => {
            return Err(anyhow!(e).context(format!("cannot import {name}: nothing was imported")));
        }
    };
    if g.json {
        return print_json(&imported);
    }
    outln!("Imported {} from {name}.", imported.counts);
    if !imported.competitions.is_empty() {
        outln!("Competitions: {}.", imported.competitions.join(", "));
    }
    if !imported.secrets_included {
        eprintln!(
            "warning: the export was made without its seeds (--without-seeds or --public): the imported competitions cannot draw or roll with the seeds they committed to"
        );
    }
    Ok(())
}
