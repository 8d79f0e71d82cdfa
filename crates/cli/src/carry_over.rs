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
    // One byte more than the service takes: a huge file is refused
    // without being read whole.
    let bytes = crate::input::read_at_most(path, "the carry-over file", MAX_BYTES as u64 + 1)?;
    let name = path.display().to_string();
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
    if done.replayed {
        if let (Some(first), Some(last)) = (done.first, done.last) {
            crate::run::say_replayed(first, last);
        }
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
    match (done.dry_run, done.first) {
        (true, _) | (false, None) => {
            outln!("Dry run: would carry over {what}; nothing was stored.")
        }
        (false, Some(first)) => outln!("Carried over {what} (event {first})."),
    }
    Ok(())
}
