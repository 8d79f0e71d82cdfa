//! `arbiter ladder carry-over FILE [--dry-run] [--round N] [--source TEXT]`
//! (issue 18 §1): the reading, checking and storing are
//! `arbiter_service::carry_over`'s; this is the terminal's glue.

use std::path::Path;

use anyhow::Result;
use arbiter_service::carry_over::CarryOptions;
use arbiter_service::csv::MAX_BYTES;

use crate::run::{Globals, Svc, competition, print_json};

pub async fn run(
    svc: &Svc,
    g: &Globals,
    path: &Path,
    dry_run: bool,
    round: Option<u32>,
    source: Option<String>,
) -> Result<()> {
    let comp = competition(svc, g).await?;
    let (bytes, name) = read(path)?;
    let opts = CarryOptions {
        round,
        source,
        dry_run,
    };
    let done = svc
        .carry_over_ladder(&comp, &name, &bytes, &opts, &g.ctx())
        .await?;
    if g.json {
        return print_json(&done);
    }
    if replayed(done.replayed, done.first, done.last) {
        return Ok(());
    }
    out!("{}", crate::render::ladder(&done.ladder));
    let v = &done.ladder;
    let what = format!(
        "{} members and {} inactive from {name} (source: {}), entered by {}; the ladder continues from round {}",
        v.rungs.len(),
        v.inactive.len(),
        done.source,
        done.by,
        done.next_round
    );
    say_carried(done.dry_run, done.first, &what);
    Ok(())
}

/// A carry-over file (`path`) and the name it is called by: one byte more
/// than the service takes is read, so a huge file is refused without being
/// read whole.
pub fn read(path: &Path) -> Result<(Vec<u8>, String)> {
    let bytes = crate::input::read_at_most(path, "the carry-over file", MAX_BYTES as u64 + 1)?;
    Ok((bytes, path.display().to_string()))
}

/// Says so when the carry-over was already stored (a replayed request):
/// then nothing else is printed.
pub fn replayed(replayed: bool, first: Option<u64>, last: Option<u64>) -> bool {
    if replayed && let (Some(first), Some(last)) = (first, last) {
        crate::run::say_replayed(first, last);
    }
    replayed
}

/// The last line of a carry-over: what it would do (a dry run) or did.
pub fn say_carried(dry_run: bool, first: Option<u64>, what: &str) {
    match (dry_run, first) {
        (true, _) | (false, None) => {
            outln!("Dry run: would carry over {what}; nothing was stored.")
        }
        (false, Some(first)) => outln!("Carried over {what} (event {first})."),
    }
}
