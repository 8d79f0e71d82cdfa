//! `arbiter account`: the accounts that log in to `arbiter serve`, and
//! their roles per competition. The password is read from the first line
//! of standard input (or `ARBITER_PASSWORD`), never from an argument, so
//! it stays out of the shell's history and the process list.

use std::io::BufRead;

use anyhow::{Context as _, Result, anyhow, bail};
use arbiter_store::{AccountStore, Grant, Role};

use crate::args::AccountCmd;
use crate::run::{Globals, Svc, print_json};

fn read_password() -> Result<String> {
    if let Ok(p) = std::env::var("ARBITER_PASSWORD")
        && !p.is_empty()
    {
        return Ok(p);
    }
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .context("cannot read the password from standard input")?;
    let password = line.trim_end_matches(['\r', '\n']).to_string();
    if password.is_empty() {
        bail!(
            "give the password on standard input (`printf '%s\\n' PASSWORD | arbiter account …`) or in ARBITER_PASSWORD"
        );
    }
    Ok(password)
}

fn api(e: arbiter_server::ApiError) -> anyhow::Error {
    match e.detail.field {
        Some(f) => anyhow!("{} (field: {f})", e.detail.message),
        None => anyhow!("{}", e.detail.message),
    }
}

pub async fn run(svc: &Svc, g: &Globals, cmd: &AccountCmd) -> Result<()> {
    let store = svc.store();
    match cmd {
        AccountCmd::Add {
            username,
            name,
            email,
            organizer,
        } => {
            let password = read_password()?;
            let account = arbiter_server::auth::create_account(
                store,
                g.now(),
                username,
                name,
                email.as_deref(),
                &password,
                *organizer,
            )
            .await
            .map_err(api)?;
            if g.json {
                print_json(
                    &serde_json::json!({"username": account.username, "organizer": account.organizer}),
                )?;
            } else {
                outln!(
                    "Account {} ({}) created{}.",
                    account.username,
                    account.display_name,
                    if account.organizer {
                        ", an organizer: may create competitions"
                    } else {
                        ""
                    }
                );
            }
        }
        AccountCmd::Password { username } => {
            let password = read_password()?;
            let username = username.trim().to_lowercase();
            let Some(account) = store.account(&username).await? else {
                bail!("there is no account {username:?} (`arbiter account list`)");
            };
            arbiter_server::auth::check_new_password(
                &password,
                &[&account.username, &account.display_name],
            )
            .map_err(api)?;
            let hash = arbiter_server::auth::hash_password(&password).map_err(api)?;
            if !store.set_password(&username, &hash).await? {
                bail!("there is no account {username:?} (`arbiter account list`)");
            }
            // A new password ends everything that acted with the old one:
            // sessions and API tokens (issue 14 item 2).
            let (tokens, sessions) = arbiter_server::auth::end_access(store, &username).await?;
            if g.json {
                print_json(&serde_json::json!({
                    "username": username,
                    "sessions_ended": sessions,
                    "tokens_revoked": tokens,
                }))?;
            } else {
                outln!(
                    "Password of {username} changed; {sessions} session(s) ended, {tokens} API token(s) revoked."
                );
            }
        }
        AccountCmd::Tokens { username } => {
            let username = username.trim().to_lowercase();
            if store.account(&username).await?.is_none() {
                bail!("there is no account {username:?} (`arbiter account list`)");
            }
            let now = g.now();
            let tokens = store.tokens_of(&username).await?;
            let views: Vec<arbiter_server::api::write::TokenView> = tokens
                .iter()
                .map(|t| arbiter_server::api::write::TokenView::of(t, now))
                .collect();
            if g.json {
                return print_json(&views);
            }
            if views.is_empty() {
                outln!("{username} has no API token.");
            }
            for t in &views {
                outln!(
                    "{}  {}  created {}  last used {}  expires {}{}",
                    t.id,
                    t.label,
                    t.created_at,
                    t.last_used.as_deref().unwrap_or("never"),
                    t.expires_at.as_deref().unwrap_or("never"),
                    if t.expired { " (expired)" } else { "" }
                );
            }
        }
        AccountCmd::RevokeToken { username, id } => {
            let username = username.trim().to_lowercase();
            if store.account(&username).await?.is_none() {
                bail!("there is no account {username:?} (`arbiter account list`)");
            }
            let token = arbiter_server::auth::revoke_token(store, &username, id.trim())
                .await
                .map_err(api)?;
            outln!(
                "API token {} ({}) of {username} revoked.",
                token.id(),
                token.label
            );
        }
        AccountCmd::Remove { username } => {
            let username = username.trim().to_lowercase();
            if !store.delete_account(&username).await? {
                bail!("there is no account {username:?} (`arbiter account list`)");
            }
            outln!(
                "Account {username} removed, with its roles, sessions and API tokens; the history keeps it as the actor of what it did."
            );
        }
        AccountCmd::List => {
            let accounts = store.accounts().await?;
            let mut rows = Vec::new();
            for a in &accounts {
                let grants = store.grants_of(&a.username).await?;
                rows.push(serde_json::json!({
                    "username": a.username,
                    "name": a.display_name,
                    "email": a.email,
                    "organizer": a.organizer,
                    "roles": grants.iter().map(|gr| serde_json::json!({
                        "competition": gr.competition,
                        "role": gr.role.as_str(),
                        "player": gr.player,
                    })).collect::<Vec<_>>(),
                }));
            }
            if g.json {
                return print_json(&rows);
            }
            if accounts.is_empty() {
                outln!(
                    "No accounts yet: `arbiter account add USERNAME --name NAME --organizer` makes the first organizer."
                );
            }
            for a in &accounts {
                let grants = store.grants_of(&a.username).await?;
                let roles: Vec<String> = grants
                    .iter()
                    .map(|gr| match &gr.player {
                        Some(p) => format!("{} of {} as {p}", gr.role.as_str(), gr.competition),
                        None => format!("{} of {}", gr.role.as_str(), gr.competition),
                    })
                    .collect();
                outln!(
                    "{}  {}{}{}",
                    a.username,
                    a.display_name,
                    if a.organizer { "  [organizer]" } else { "" },
                    if roles.is_empty() {
                        String::new()
                    } else {
                        format!("  — {}", roles.join("; "))
                    }
                );
            }
        }
        AccountCmd::Grant {
            username,
            competition,
            role,
            player,
        } => {
            let username = username.trim().to_lowercase();
            let role = Role::parse(role)
                .ok_or_else(|| anyhow!("--role is owner, moderator or player, not {role:?}"))?;
            if store.account(&username).await?.is_none() {
                bail!("there is no account {username:?} (`arbiter account list`)");
            }
            svc.format_of(competition).await?;
            if role == Role::Player && player.is_none() {
                bail!(
                    "a player's role needs --player NAME: the name he plays under in {competition}"
                );
            }
            // A player's role is the link the competition's events record
            // (ARB-R50): the player's exact name is resolved to his id here,
            // by the moderator, and the grant beside it is a directory entry.
            if role == Role::Player
                && let Some(name) = player
            {
                svc.link_account(competition, name.trim(), &username, &g.ctx())
                    .await?;
            }
            store
                .grant(&Grant {
                    competition: competition.clone(),
                    username: username.clone(),
                    role,
                    player: player.clone(),
                })
                .await?;
            outln!("{username} is now {} of {competition}.", role.as_str());
        }
        AccountCmd::Revoke {
            username,
            competition,
            role,
        } => {
            let role = Role::parse(role)
                .ok_or_else(|| anyhow!("--role is owner, moderator or player, not {role:?}"))?;
            let username = username.trim().to_lowercase();
            // A player's role ends with the competition's own unlink event
            // (ARB-R50); the directory grant goes with it.
            let unlinked = role == Role::Player
                && svc
                    .unlink_account(competition, &username, &g.ctx())
                    .await?
                    .is_some();
            if store.revoke(competition, &username, role).await? || unlinked {
                outln!(
                    "{username} is no longer {} of {competition}.",
                    role.as_str()
                );
            } else {
                bail!("{username} was not {} of {competition}", role.as_str());
            }
        }
    }
    Ok(())
}
