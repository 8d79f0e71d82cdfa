//! Who is reading, for the shared header (issue 17 §1): logged in, every
//! page's header names the account (a link to `/account`) and counts what
//! is waiting for it — a ladder report of his opponent's to confirm, his
//! games due within [`SOON_DAYS`] days or overdue without a result — and
//! the account page lists those first, each with a link to act.
//!
//! What is waiting is read from the competitions where the account is
//! linked to a player by the competition's own events
//! (`model::Linked::account_player`, ARB-R50), never from a name: each
//! format's games to play with their deadlines through its calendar
//! (`views::calendar::CalendarSource`, the formats that date their games:
//! the ladder and the round robin), and what else waits through the
//! format's hook [`crate::formats::WebFormat::waiting_for`] (a ladder
//! report to confirm).
//!
//! How a page gets it: [`layer`], a middleware over the page routes inside
//! the page cache, reads the session of a request that carries one, works
//! out its [`Viewer`] and runs the handler inside a task-local scope;
//! [`super::Chrome::new`] reads it there. So no handler passes the caller
//! to its layout, and a page built outside the scope (none today) would
//! show the anonymous header. The page cache never answers nor keeps a
//! request with a session cookie (`pages/cache.rs`), so a per-viewer
//! header is never served to anyone else. API routes and assets are not
//! under this layer.

use std::sync::Arc;

use arbiter_engine::model::{Linked as _, Time};
use arbiter_service::views::calendar::{CalendarSource, Status, When};
use axum::extract::{FromRequestParts, Request, State};
use axum::middleware::Next;
use axum::response::Response;

use crate::AppState;
use crate::auth::{self, Caller};

/// A game due within this many days (or overdue) is waiting.
pub(crate) const SOON_DAYS: i64 = 7;

/// Something waiting for the reader, with where to act on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Waiting {
    pub kind: WaitingKind,
    /// In words: "Round 3 of TWS: Ana Morales reported G51 …".
    pub text: String,
    /// Short, for the header: "your game G51 is due in 3 days".
    pub short: String,
    /// Where to act (the desk of the competition).
    pub href: String,
    /// The competition's name.
    pub competition: String,
    /// The forms that act on it in place (a report's confirm and dispute,
    /// ARB-R81), for the account page; `None`: only the link.
    pub act: Option<WaitingAct>,
}

/// The confirm and dispute forms of a report waiting (ARB-R45, ARB-R81),
/// posted to `/c/{competition}/act` like a desk's and sent back to `back`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct WaitingAct {
    pub competition: String,
    /// The competition's version the forms are shown at ([`waiting`] sets
    /// it).
    pub version: u64,
    pub confirm: &'static str,
    pub dispute: &'static str,
    /// The fields naming the game.
    pub hidden: Vec<(String, String)>,
    /// The player's page, where the forms come back to.
    pub back: String,
}

/// What kind of thing waits (the header counts each kind).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum WaitingKind {
    /// A result his opponent reported, for him to confirm or dispute.
    Report,
    /// A game of his past its deadline without a result.
    Overdue,
    /// A game of his due within [`SOON_DAYS`] days.
    Due,
}

/// The reader of a page: his account and what waits for him.
#[derive(Debug, Clone)]
pub(crate) struct Viewer {
    pub username: String,
    pub name: String,
    pub waiting: Vec<Waiting>,
}

impl Viewer {
    /// The header's words for what waits: the one thing itself, or a count
    /// of each kind ("1 report to confirm, 2 games due"); empty when
    /// nothing waits.
    pub(crate) fn summary(&self) -> String {
        match self.waiting.as_slice() {
            [] => String::new(),
            [one] => one.short.clone(),
            all => {
                let count = |k: WaitingKind| all.iter().filter(|w| w.kind == k).count();
                let mut parts = Vec::new();
                let reports = count(WaitingKind::Report);
                if reports > 0 {
                    parts.push(super::plural(reports, "report", "reports") + " to confirm");
                }
                let overdue = count(WaitingKind::Overdue);
                if overdue > 0 {
                    parts.push(super::plural(overdue, "game", "games") + " overdue");
                }
                let due = count(WaitingKind::Due);
                if due > 0 {
                    parts.push(super::plural(due, "game", "games") + " due soon");
                }
                parts.join(", ")
            }
        }
    }
}

tokio::task_local! {
    /// The reader of the page being built (set by [`layer`]).
    static VIEWER: Option<Viewer>;
}

/// The reader of the page being built, if a logged-in one.
pub(crate) fn current() -> Option<Viewer> {
    VIEWER.try_with(Clone::clone).ok().flatten()
}

/// Middleware over the page routes: a request with a session cookie gets
/// its [`Viewer`] for the page's header; any other request passes as it
/// is.
pub(crate) async fn layer(
    State(state): State<Arc<AppState>>,
    request: Request,
    next: Next,
) -> Response {
    if auth::cookie(request.headers(), auth::SESSION_COOKIE).is_none() {
        return next.run(request).await;
    }
    let (mut parts, body) = request.into_parts();
    let caller = Caller::from_request_parts(&mut parts, &*state).await.ok();
    let request = Request::from_parts(parts, body);
    let viewer = match caller.as_ref().and_then(|c| c.account.as_ref()) {
        Some(account) if caller.as_ref().is_some_and(|c| c.session.is_some()) => Some(Viewer {
            username: account.username.clone(),
            name: account.display_name.clone(),
            waiting: waiting(&state, &account.username).await,
        }),
        _ => None,
    };
    VIEWER.scope(viewer, next.run(request)).await
}

/// Everything waiting for `account` in every competition where a link
/// event makes it a player, most urgent first.
pub(crate) async fn waiting(state: &AppState, account: &str) -> Vec<Waiting> {
    let svc = &state.service;
    let now = state.now();
    let Ok(ids) = svc.competitions().await else {
        return Vec::new();
    };
    let mut all = Vec::new();
    for id in ids {
        let Ok(kind) = svc.format_of(&id).await else {
            continue;
        };
        let found = arbiter_service::with_format!(kind, |F| {
            svc.read_as::<F, _>(&id, |c, version| {
                let Some(me) = c.account_player(account) else {
                    return Vec::new();
                };
                let mut found = <F as crate::formats::WebFormat>::waiting_for(c, &id, me);
                for a in found.iter_mut().filter_map(|w| w.act.as_mut()) {
                    a.version = version;
                }
                found.extend(due(
                    c.title(),
                    &id,
                    CalendarSource::entries(c, &id, Some(me)),
                    arbiter_engine::zone::Zoned::zone(c),
                    now,
                ));
                found
            })
            .await
        });
        match found {
            Ok(found) => all.extend(found),
            Err(e) => {
                tracing::warn!(competition = %id, error = %e, "waiting skipped a competition")
            }
        }
    }
    all.sort_by(|a, b| (a.kind, &a.competition).cmp(&(b.kind, &b.competition)));
    all
}

/// His games still to play with a deadline within [`SOON_DAYS`] days or
/// past, from his calendar entries; the deadline in the competition's
/// zone (ARB-R82).
fn due(
    title: &str,
    id: &str,
    entries: Vec<arbiter_service::views::calendar::Entry>,
    zone: arbiter_engine::zone::TimeZone,
    now: Time,
) -> Vec<Waiting> {
    entries
        .into_iter()
        .filter(|e| e.status == Status::Open && e.key.starts_with("game-"))
        .filter_map(|e| {
            let When::At(deadline) = e.when else {
                return None;
            };
            let left = deadline - now;
            if left > chrono::Duration::days(SOON_DAYS) {
                return None;
            }
            let game = e.summary.trim_end_matches(" (deadline)").to_string();
            let label = game.split(':').next().unwrap_or(&game).to_string();
            let (kind, when) = if left < chrono::Duration::zero() {
                let days = (-left).num_days();
                let when = if days == 0 {
                    "overdue since today".to_string()
                } else {
                    format!("overdue by {}", super::plural(days as usize, "day", "days"))
                };
                (WaitingKind::Overdue, when)
            } else {
                let days = left.num_days();
                let when = if days == 0 {
                    "due within a day".to_string()
                } else {
                    format!("due in {}", super::plural(days as usize, "day", "days"))
                };
                (WaitingKind::Due, when)
            };
            Some(Waiting {
                kind,
                text: format!(
                    "{game} ({title}) is {when}: deadline {}",
                    zone.minute(deadline)
                ),
                short: format!("your game {label} is {when}"),
                href: format!("/c/{id}/manage"),
                competition: title.to_string(),
                act: None,
            })
        })
        .collect()
}
