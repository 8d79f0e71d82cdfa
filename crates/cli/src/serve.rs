//! `arbiter serve`: the web pages and the JSON API on the same database as
//! the other commands, until Ctrl-C. Other `arbiter` commands may write to
//! the database meanwhile: the server reads the competition's version on
//! every request.

use std::path::PathBuf;

use anyhow::{Context as _, Result, bail};

use crate::args::ServeArgs;
use crate::run::{db_path, open};

pub async fn run(db: Option<&PathBuf>, args: &ServeArgs) -> Result<()> {
    // With --demo and no --db, a temporary database that lives as long as
    // the server.
    let temporary = if args.demo && db.is_none() {
        Some(tempfile::tempdir().context("cannot create a temporary directory")?)
    } else {
        None
    };
    let path = match &temporary {
        Some(dir) => dir.path().join("arbiter-demo.db"),
        None => db_path(db)?,
    };
    let svc = open(&path).await?;
    if args.demo {
        let existing = svc.competitions().await?;
        if !existing.is_empty() {
            bail!(
                "--demo needs a fresh database, but {} holds {} competition(s); leave out --db (and ARBITER_DB) for a temporary one",
                path.display(),
                existing.len()
            );
        }
        let built = arbiter_demo::build(svc.store(), "tws-demo").await?;
        outln!(
            "Built the demo competitions: {}, {}, {}, {}.",
            built.ladder.0,
            built.league.0,
            built.challengers.0,
            built.sunjang.0
        );
    }
    let listener = tokio::net::TcpListener::bind(args.addr)
        .await
        .with_context(|| format!("cannot listen on {}", args.addr))?;
    let addr = listener
        .local_addr()
        .with_context(|| format!("cannot listen on {}", args.addr))?;
    outln!("Arbiter serves http://{addr}/");
    if temporary.is_some() {
        outln!(
            "Database: {} (temporary: deleted when the server stops)",
            path.display()
        );
    } else {
        outln!("Database: {}", path.display());
    }
    outln!(
        "The JSON API is under http://{addr}/api/ (described by /api/openapi.json). Ctrl-C stops."
    );
    arbiter_server::init_tracing();
    let state = arbiter_server::AppState::new(svc);
    arbiter_server::serve(listener, state, arbiter_server::shutdown_signal())
        .await
        .context("the server stopped")?;
    outln!("Stopped.");
    Ok(())
}
