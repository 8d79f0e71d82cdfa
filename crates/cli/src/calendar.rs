//! `arbiter calendar [--player NAME | --account USER]`: a calendar feed
//! (iCalendar, RFC 5545) on standard output, as `arbiter serve` answers it
//! at a private feed URL (issue 18 §4): the competition's rounds, seasons
//! and deadlines, one player's games and deadlines, or an account's games
//! in every competition where it is linked to a player. `--json` prints the
//! entries instead.

use anyhow::{Result, bail};
use arbiter_service::views::calendar::{Calendar, When};
use arbiter_store::AccountStore as _;
use serde_json::json;

use crate::args::CalendarArgs;
use crate::run::{Globals, Svc, competition, print_json};

pub async fn calendar(svc: &Svc, g: &Globals, a: &CalendarArgs) -> Result<()> {
    let calendar = match (&a.player, &a.account) {
        (Some(_), Some(_)) => bail!("--player and --account: one or the other"),
        (None, Some(username)) => {
            let Some(account) = svc.store().account(&username.to_lowercase()).await? else {
                bail!("--account: there is no account {username:?} (`arbiter account list`)");
            };
            svc.account_calendar(&account.username, &account.display_name)
                .await?
        }
        (player, None) => {
            let id = competition(svc, g).await?;
            match player {
                Some(name) => svc.player_calendar(&id, name).await?,
                None => svc.competition_calendar(&id).await?,
            }
        }
    };
    if g.json {
        return print_json(&entries(&calendar, &a.base_url));
    }
    let now = g.at.unwrap_or_else(chrono::Utc::now);
    out!("{}", calendar.to_ics(a.base_url.trim_end_matches('/'), now));
    Ok(())
}

/// The calendar's entries as `--json` prints them.
fn entries(c: &Calendar, base: &str) -> serde_json::Value {
    let base = base.trim_end_matches('/');
    json!({
        "name": c.name,
        "entries": c.items.iter().map(|i| json!({
            "uid": i.uid(),
            "competition": i.competition,
            "at": match i.entry.when {
                When::At(t) => Some(t.to_rfc3339()),
                When::Undated => None,
            },
            "summary": i.entry.summary,
            "description": i.entry.description,
            "url": format!("{base}{}", i.entry.page),
            "status": format!("{:?}", i.entry.status).to_lowercase(),
        })).collect::<Vec<_>>(),
    })
}
