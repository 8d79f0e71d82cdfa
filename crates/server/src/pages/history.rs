//! `GET /c/{id}/history`: every event of a competition, with its sequence,
//! time, actor and kind, a short summary, and the stored record itself one
//! click away. Undone events are marked, and the undo names what it undid.

use std::collections::HashMap;

use arbiter_service::Format;
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::response::Response;
use serde_json::Value;

use super::{Chrome, Kind, PageError, render};
use crate::AppState;

/// Events on one page.
const PER_PAGE: usize = 200;

/// One event.
#[derive(Debug)]
struct EventRow {
    seq: u64,
    recorded_at: String,
    actor: String,
    /// The actor is an account of this server (issue 14 item 7: the
    /// history tells an account from a CLI actor). Events keep only the
    /// name; the server writes its accounts' usernames, the command line,
    /// scripts and the demo other names, and registration refuses the
    /// names the program itself acts under (`auth::RESERVED_USERNAMES`).
    by_account: bool,
    kind: String,
    summary: String,
    /// The stored record, pretty-printed.
    payload: String,
    reverted: bool,
    /// The event this one undoes.
    undoes: Option<u64>,
}

#[derive(Debug, Template)]
#[template(path = "history.html")]
struct HistoryPage {
    chrome: Chrome,
    id: String,
    name: String,
    total: usize,
    page: usize,
    pages: usize,
    first_seq: u64,
    last_seq: u64,
    rows: Vec<EventRow>,
}

/// The top-level fields of a record, "key: value", without its format
/// version, its type, and long hashes and seeds.
fn summary(payload: &Value) -> String {
    let Some(fields) = payload.as_object() else {
        return String::new();
    };
    let mut parts = Vec::new();
    for (key, value) in fields {
        if matches!(key.as_str(), "v" | "type")
            || key.contains("seed")
            || key.contains("hash")
            || key.contains("commit")
        {
            continue;
        }
        let text = match value {
            Value::Null => continue,
            Value::String(s) => s.clone(),
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => n.to_string(),
            Value::Array(a) if a.is_empty() => continue,
            Value::Array(a) if a.iter().all(|x| x.is_string() || x.is_number()) && a.len() <= 4 => {
                a.iter()
                    .map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_string))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
            Value::Array(a) => super::plural(a.len(), "item", "items"),
            Value::Object(_) => continue,
        };
        parts.push(format!("{}: {}", key.replace('_', " "), shorten(&text, 60)));
        if parts.len() == 4 {
            break;
        }
    }
    parts.join("; ")
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(max - 1).collect();
        s.push('…');
        s
    }
}

/// The events of a competition of format `F`, with its name.
async fn rows<F: Format>(
    state: &AppState,
    id: &str,
    name: impl FnOnce(&F) -> String,
) -> Result<(String, Vec<EventRow>), PageError> {
    let svc = &state.service;
    let name = svc.read_as::<F, _>(id, |s, _| name(s)).await?;
    let history = svc.history_of::<F>(id, None).await?;
    let rows = history
        .into_iter()
        .map(|h| {
            let stored = F::encode(&h.event);
            let value: Value = serde_json::from_str(&stored).unwrap_or(Value::Null);
            EventRow {
                seq: h.seq,
                recorded_at: h.recorded_at,
                actor: h.actor,
                by_account: false,
                kind: h.kind,
                summary: summary(&value),
                payload: serde_json::to_string_pretty(&value).unwrap_or(stored),
                reverted: h.reverted,
                undoes: F::reverted(&h.event),
            }
        })
        .collect();
    Ok((name, rows))
}

/// The events of competition `id` after version `after`, oldest first, one
/// line each in the words of the history page (sequence, kind, actor,
/// time, summary): what a desk says changed since a stale form was shown
/// (issue 14, item 4).
pub(crate) async fn since(
    state: &AppState,
    id: &str,
    kind: Kind,
    after: u64,
) -> Result<Vec<String>, PageError> {
    let (_, all) =
        arbiter_service::with_format!(kind, |F| rows::<F>(state, id, |_| String::new()).await?);
    Ok(all
        .into_iter()
        .filter(|r| r.seq > after)
        .map(|r| {
            let mut line = format!("#{} {} by {} at {}", r.seq, r.kind, r.actor, r.recorded_at);
            if !r.summary.is_empty() {
                line.push_str(": ");
                line.push_str(&r.summary);
            }
            if let Some(u) = r.undoes {
                line.push_str(&format!(" (undoes #{u})"));
            }
            if r.reverted {
                line.push_str(" (undone since)");
            }
            line
        })
        .collect())
}

pub(super) async fn page(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, PageError> {
    let kind = crate::pages::kind_of(&state, &id).await?;
    let (name, all) = arbiter_service::with_format!(kind, |F| {
        rows::<F>(&state, &id, |c| c.title().to_string()).await?
    });
    let total = all.len();
    let pages = total.div_ceil(PER_PAGE).max(1);
    let page = match query.get("page") {
        None => 1,
        Some(p) => p
            .parse::<usize>()
            .ok()
            .filter(|p| (1..=pages).contains(p))
            .ok_or_else(super::not_found_page)?,
    };
    let mut rows: Vec<EventRow> = all
        .into_iter()
        .skip((page - 1) * PER_PAGE)
        .take(PER_PAGE)
        .collect();
    mark_accounts(&state, &mut rows).await?;
    render(&HistoryPage {
        chrome: Chrome::competition(
            format!("History of {name}"),
            &id,
            &name,
            kind,
            &format!("/c/{id}/history"),
        ),
        id,
        name,
        total,
        page,
        pages,
        first_seq: rows.first().map_or(0, |r| r.seq),
        last_seq: rows.last().map_or(0, |r| r.seq),
        rows,
    })
}

/// Mark the rows whose actor is an account, looking each distinct actor up
/// once.
async fn mark_accounts(state: &AppState, rows: &mut [EventRow]) -> Result<(), PageError> {
    use arbiter_store::AccountStore;
    let mut known: HashMap<String, bool> = HashMap::new();
    for row in rows.iter_mut() {
        if let Some(&is) = known.get(&row.actor) {
            row.by_account = is;
            continue;
        }
        let is = state
            .service
            .store()
            .account(&row.actor)
            .await
            .map_err(|e| PageError::Internal(format!("cannot look up the actor: {e}")))?
            .is_some();
        known.insert(row.actor.clone(), is);
        row.by_account = is;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_names_the_fields_but_not_the_noise() {
        let v: Value = serde_json::from_str(
            r#"{"v":1,"type":"joined","name":"Ana","seed_hash":"ab","player":3,"extra":{"a":1},"list":[1,2]}"#,
        )
        .unwrap_or(Value::Null);
        assert_eq!(summary(&v), "list: 1, 2; name: Ana; player: 3");
    }
}
