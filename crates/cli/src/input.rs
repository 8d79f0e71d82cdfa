//! Files the CLI reads, each with a size limit (issue 14, item 5: `arbiter
//! script /dev/zero` read until it held 10.6 GB). A file is read through
//! `take(limit + 1)`, so a stream without end (`/dev/zero`, a pipe that
//! never closes) costs at most the limit before it is refused; an export
//! being imported is read a line at a time by
//! `arbiter_service::transfer::parse_reader`, and CSV up to the service's
//! `csv::MAX_BYTES`.

use std::io::Read as _;
use std::path::Path;

use anyhow::{Context as _, Result};

/// The largest rules file read (the presets are 2 to 5 KB).
pub const MAX_RULES_FILE: u64 = 1 << 20;

/// The largest script read (a script of 200,000 lines is under 9 MB).
pub const MAX_SCRIPT: u64 = 16 << 20;

/// A file over its limit: a mistake in what the command line names, so
/// `arbiter` exits with 2 (`run::exit_code`).
#[derive(Debug)]
pub struct TooLarge {
    pub path: String,
    pub what: String,
    /// The limit in words: "1 MiB".
    pub limit: String,
}

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} is larger than the {} {} may be; nothing was read past it",
            self.path, self.limit, self.what
        )
    }
}

impl std::error::Error for TooLarge {}

/// At most `limit` bytes of the file at `path`: the caller decides what
/// reaching the limit means.
pub fn read_at_most(path: &Path, what: &str, limit: u64) -> Result<Vec<u8>> {
    let cannot = || format!("cannot read {what} {}", path.display());
    let file = std::fs::File::open(path).with_context(cannot)?;
    // Reserved whole (only the pages written become resident): growing by
    // doubling would copy the buffer and hold up to twice the limit.
    let mut bytes = Vec::with_capacity(usize::try_from(limit).unwrap_or(usize::MAX));
    file.take(limit)
        .read_to_end(&mut bytes)
        .with_context(cannot)?;
    Ok(bytes)
}

/// The file at `path`, refused with [`TooLarge`] past `limit` bytes.
pub fn read_bounded(path: &Path, what: &str, limit: u64) -> Result<Vec<u8>> {
    let bytes = read_at_most(path, what, limit + 1)?;
    if bytes.len() as u64 > limit {
        return Err(TooLarge {
            path: path.display().to_string(),
            what: what.to_owned(),
            limit: mib(limit),
        }
        .into());
    }
    Ok(bytes)
}

fn mib(bytes: u64) -> String {
    format!("{} MiB", bytes >> 20)
}

/// A text file (a rules file, a script) of at most `limit` bytes read as
/// UTF-8: a file in another encoding (Latin-1 from an old editor) is refused
/// naming the line and column of the first byte that is not UTF-8, rather
/// than with the bare "stream did not contain valid UTF-8".
pub fn read_utf8(path: &Path, what: &str, limit: u64) -> Result<String> {
    let bytes = read_bounded(path, what, limit)?;
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let at = e.utf8_error().valid_up_to();
        let before = &bytes[..at];
        let line = before.iter().filter(|b| **b == b'\n').count() + 1;
        let start = before
            .iter()
            .rposition(|b| *b == b'\n')
            .map_or(0, |i| i + 1);
        let column = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
        anyhow::anyhow!(
            "{}, line {line}, column {column}: not UTF-8 (byte 0x{:02X}; Latin-1 or Windows-1252?): save {what} as UTF-8",
            path.display(),
            bytes.get(at).copied().unwrap_or(0)
        )
    })
}

/// A rules file, at most [`MAX_RULES_FILE`] bytes.
pub fn read_rules(path: &Path) -> Result<String> {
    read_utf8(path, "the rules file", MAX_RULES_FILE)
}
