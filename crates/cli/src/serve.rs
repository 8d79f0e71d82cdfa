//! `arbiter serve`: the web pages and the JSON API on the same database as
//! the other commands, until Ctrl-C. Other `arbiter` commands may write to
//! the database meanwhile: the server reads the competition's version on
//! every request.

use anyhow::{Context as _, Result, bail};
use arbiter_store_any::StoreSpec;

use crate::args::ServeArgs;
use crate::run::{db_spec, open};

pub async fn run(db: Option<&str>, args: &ServeArgs) -> Result<()> {
    // With --demo and no --db, a temporary database that lives as long as
    // the server.
    let temporary = if args.demo && db.is_none() {
        Some(tempfile::tempdir().context("cannot create a temporary directory")?)
    } else {
        None
    };
    let path = match &temporary {
        Some(dir) => StoreSpec::Sqlite(dir.path().join("arbiter-demo.db")),
        None => db_spec(db)?,
    };
    let svc = open(&path, args.demo).await?;
    let mut demo_accounts = None;
    if args.demo {
        let existing = svc.competitions().await?;
        if !existing.is_empty() {
            bail!(
                "--demo needs a fresh database, but {} holds {} competition(s); leave out --db (and ARBITER_DB) for a temporary one",
                path,
                existing.len()
            );
        }
        // Told as of today, so the running round is weeks from its deadline.
        let (built, round_robins, made) =
            arbiter_server::demo::install_all(&svc, chrono::Utc::now())
                .await
                .map_err(|e| anyhow::anyhow!("the demo: {}", e.detail.message))?;
        outln!(
            "Built the demo competitions: {}, {}, {}, {}.",
            built.ladder.0,
            built.league.0,
            built.challengers.0,
            built.sunjang.0
        );
        outln!(
            "And the round-robin leagues (issue 16): {}, {}.",
            round_robins.euro.0,
            round_robins.chess.0
        );
        outln!(
            "And, for players to report their own results (ARB-R81): {}, {}.",
            arbiter_server::demo::OPEN_LEAGUE_ID,
            arbiter_server::demo::OPEN_CHALLENGERS_ID
        );
        demo_accounts = Some((made, built.ladder.0.clone()));
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
            path
        );
    } else {
        outln!("Database: {}", path);
    }
    outln!(
        "The JSON API is under http://{addr}/api/ (described by /api/openapi.json). Ctrl-C stops."
    );
    if let Some((made, ladder)) = &demo_accounts {
        let first = |role: &str| {
            made.iter()
                .filter(|a| a.role.starts_with(role))
                .map(|a| a.username.as_str())
                .collect::<Vec<_>>()
        };
        let players = first("player");
        outln!(
            "Log in at http://{addr}/login with password {:?}: {} organizes (owns every demo competition, moderates {ladder}), {} moderates; each ladder player by his first name ({}, …).",
            arbiter_server::demo::DEMO_PASSWORD,
            first("organizer").join(", "),
            first("moderator").join(", "),
            players
                .iter()
                .take(4)
                .copied()
                .collect::<Vec<_>>()
                .join(", "),
        );
        // The players of the other formats, who report their own games
        // on their pages (ARB-R81).
        let others: Vec<String> = made
            .iter()
            .filter(|a| a.role.ends_with(" player"))
            .map(|a| format!("{} ({}, {})", a.username, a.name, a.role))
            .collect();
        if !others.is_empty() {
            outln!(
                "They report their own results on their pages: {}.",
                others.join(", ")
            );
        }
    }
    arbiter_server::init_tracing();
    let mailer = match (&args.smtp, &args.mail_from) {
        (Some(smtp), Some(from)) => {
            let config = arbiter_server::mail::MailConfig {
                smtp: smtp.clone(),
                from: from.clone(),
            };
            let mailer = arbiter_server::mail::Mailer::new(&config)
                .map_err(|e| anyhow::anyhow!("--smtp / --mail-from: {e}"))?;
            outln!("E-mail goes out through {smtp}.");
            Some(mailer)
        }
        _ => None,
    };
    let base_url = args
        .base_url
        .clone()
        .unwrap_or_else(|| format!("http://{addr}"));
    let auth = arbiter_server::auth::AuthConfig {
        secure_cookies: !args.insecure_cookies,
        trusted_proxies: args.trusted_proxies.clone(),
        ..arbiter_server::auth::AuthConfig::default()
    };
    let config = arbiter_server::Config {
        webhooks: arbiter_server::webhooks::WebhookConfig {
            allow_private: args.webhooks_to_private,
            timeout: std::time::Duration::from_secs(args.webhook_timeout),
            deadline_lead: std::time::Duration::from_secs(args.deadline_notice_hours * 3600),
            ..arbiter_server::webhooks::WebhookConfig::default()
        },
        ..arbiter_server::Config::default()
    };
    let state = arbiter_server::AppState::new(svc)
        .with_auth(auth)
        .with_config(config)
        .with_mailer(mailer, base_url);
    arbiter_server::serve(listener, state, arbiter_server::shutdown_signal())
        .await
        .context("the server stopped")?;
    outln!("Stopped.");
    Ok(())
}
