//! CSV in and out: `arbiter player import FILE.csv` (all or nothing, every
//! error naming the line and column) and `arbiter standings|results
//! [--csv]`. The reading, checking and writing are
//! `arbiter_service::csv`'s; this is the terminal's glue.

use std::path::Path;

use anyhow::Result;
use arbiter_service::csv::{MAX_BYTES, Table};

pub use arbiter_service::csv::Export;

use crate::args::TableArgs;
use crate::run::{Globals, Svc, competition, print_json};

/// Read at most one byte more than the service takes: a huge file is
/// refused without being read whole.
fn read_limited(path: &Path) -> Result<Vec<u8>> {
    crate::input::read_at_most(path, "the CSV file", MAX_BYTES as u64 + 1)
}

pub async fn import(svc: &Svc, g: &Globals, path: &Path) -> Result<()> {
    let comp = competition(svc, g).await?;
    let bytes = read_limited(path)?;
    let name = path.display().to_string();
    let done = svc
        .import_players_csv(&comp, &name, &bytes, &g.ctx())
        .await?;
    if g.json {
        return print_json(&serde_json::json!({
            "players": done.players,
            "first": done.first,
            "last": done.last,
            "replayed": done.replayed,
        }));
    }
    if done.replayed {
        crate::run::say_replayed(done.first, done.last);
        return Ok(());
    }
    outln!(
        "Imported {} player{} from {name} (events {}..{}).",
        done.players.len(),
        if done.players.len() == 1 { "" } else { "s" },
        done.first,
        done.last
    );
    Ok(())
}

/// `arbiter results import FILE [--dry-run]` (issue 18 §2).
pub async fn import_results(svc: &Svc, g: &Globals, path: &Path, dry_run: bool) -> Result<()> {
    let comp = competition(svc, g).await?;
    let bytes = read_limited(path)?;
    let name = path.display().to_string();
    let done = svc
        .import_results_csv(&comp, &name, &bytes, dry_run, &g.ctx())
        .await?;
    if g.json {
        return print_json(&done);
    }
    if done.replayed {
        crate::run::say_replayed(done.first, done.last);
        return Ok(());
    }
    for row in &done.rows {
        outln!("{row}");
    }
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let unchanged = if done.unchanged > 0 {
        format!(
            "; {} row{} already recorded as the file says",
            done.unchanged,
            plural(done.unchanged)
        )
    } else {
        String::new()
    };
    if dry_run {
        outln!(
            "Dry run: {} result{} would be recorded from {name}{unchanged}; nothing was stored.",
            done.recorded,
            plural(done.recorded)
        );
    } else if done.recorded == 0 {
        outln!("Nothing to record from {name}{unchanged}.");
    } else {
        outln!(
            "Recorded {} result{} from {name} (events {}..{}){unchanged}.",
            done.recorded,
            plural(done.recorded),
            done.first,
            done.last
        );
    }
    Ok(())
}

pub async fn export(svc: &Svc, g: &Globals, what: Export, a: &TableArgs) -> Result<()> {
    let comp = competition(svc, g).await?;
    let table = svc.export_table(&comp, what, g.now()).await?;
    if a.csv {
        out!("{}", table.to_csv()?);
        return Ok(());
    }
    if g.json {
        return print_json(&as_objects(&table));
    }
    if table.rows.is_empty() {
        outln!(
            "{}",
            match what {
                Export::Standings => "No standings yet.",
                Export::Results => "No games yet.",
            }
        );
        return Ok(());
    }
    let mut t = crate::render::table(&table.header);
    for r in &table.rows {
        t.add_row(r.clone());
    }
    outln!("{t}");
    Ok(())
}

/// The rows as JSON objects keyed by the header.
fn as_objects(t: &Table) -> Vec<serde_json::Value> {
    t.rows
        .iter()
        .map(|r| {
            serde_json::Value::Object(
                t.header
                    .iter()
                    .zip(r)
                    .map(|(h, c)| ((*h).to_string(), serde_json::Value::String(c.clone())))
                    .collect(),
            )
        })
        .collect()
}

/// Where rules came from, for an error: the file, or the preset.
pub fn source(file: Option<&Path>, preset: &str) -> String {
    file.map_or_else(|| format!("preset {preset}"), |p| p.display().to_string())
}
