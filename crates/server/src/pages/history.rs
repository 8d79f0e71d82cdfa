//! `GET /c/{id}/history[?player=&round=&page=]`: every event of a
//! competition in words, newest first — the sentence the CLI's `history`
//! prints ([`arbiter_service::history`], which every format feeds through
//! `Format::describe` and `Format::concerns`), with its version number,
//! time and actor, and the stored record itself one click away. A GET form
//! filters by player and by round (no script needed); a long log is cut
//! into pages. Undone events are marked, and the undo names what it undid.
//!
//! A filter the page cannot read (too long, not a number, a player no
//! event names, a round the history does not have) is answered 400 with
//! the form, its input kept, and a sentence naming the field.

use arbiter_engine::zone::TimeZone;
use std::collections::HashMap;

use arbiter_service::Format;
use arbiter_service::history::{HistoryFilter, HistoryLine, players_named, rounds_named};
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use super::forms::urlencode;
use super::{Chrome, Kind, PageError, render};
use crate::AppState;

/// Events on one page.
const PER_PAGE: usize = 100;
/// The longest player filter read, in characters (a name is far shorter).
const MAX_PLAYER: usize = 200;
/// The longest round or page number read, in characters.
const MAX_NUMBER: usize = 10;
/// The most names a misspelled player filter suggests.
const SUGGESTIONS: usize = 5;

/// One event.
#[derive(Debug)]
struct EventRow {
    seq: u64,
    /// When it was stored, for the `datetime` attribute (RFC 3339).
    recorded_at: String,
    /// The same, for the reader, in the competition's zone ("2025-01-02
    /// 10:00 CET", ARB-R82).
    when: String,
    /// The competition's zone (`data-zone`, for the reader's-zone script).
    zone: &'static str,
    actor: String,
    /// The actor is an account of this server (issue 14 item 7: the
    /// history tells an account from a CLI actor). Events keep only the
    /// name; the server writes its accounts' usernames, the command line,
    /// scripts and the demo other names, and registration refuses the
    /// names the program itself acts under (`auth::RESERVED_USERNAMES`).
    by_account: bool,
    kind: String,
    /// The event in words, as the CLI's `history` says it.
    sentence: String,
    /// The stored record, pretty-printed.
    payload: String,
    reverted: bool,
    /// The event this one undoes.
    undoes: Option<u64>,
}

impl EventRow {
    fn new(line: HistoryLine, zone: TimeZone) -> Self {
        let payload = serde_json::from_str::<Value>(&line.record)
            .ok()
            .and_then(|v| serde_json::to_string_pretty(&v).ok())
            .unwrap_or(line.record);
        Self {
            seq: line.seq,
            when: readable_time(&line.recorded_at, zone),
            zone: zone.name(),
            recorded_at: line.recorded_at,
            actor: line.actor,
            by_account: false,
            kind: line.kind,
            sentence: line.sentence,
            payload,
            reverted: line.reverted,
            undoes: line.undoes,
        }
    }
}

/// "2025-01-02T09:00:00Z" as "2025-01-02 09:00 UTC" (in `zone`: "2025-01-02
/// 10:00 CET"); a time it cannot read as it is.
fn readable_time(rfc3339: &str, zone: TimeZone) -> String {
    chrono::DateTime::parse_from_rfc3339(rfc3339).map_or_else(
        |_| rfc3339.to_string(),
        |t| zone.minute(t.with_timezone(&chrono::Utc)),
    )
}

/// A page of the history, linked from the pager with the filters kept.
#[derive(Debug)]
struct PageLink {
    label: String,
    href: String,
}

#[derive(Debug, Template)]
#[template(path = "history.html")]
struct HistoryPage {
    chrome: Chrome,
    id: String,
    name: String,
    /// Every event of the competition.
    total: usize,
    /// The events the filters admit.
    shown: usize,
    /// The filters in words ("naming Ana Morales, in round 3"), empty
    /// without one.
    filtered: String,
    /// The format's word for a round ("round", "season").
    round_word: &'static str,
    /// The form as the reader filled it in.
    player: String,
    round: String,
    /// The choices of the form.
    players: Vec<String>,
    rounds: Vec<u32>,
    page: usize,
    pages: usize,
    previous: Option<PageLink>,
    next: Option<PageLink>,
    /// Why the filters could not be read, naming the field.
    problem: Option<String>,
    rows: Vec<EventRow>,
}

/// The history of competition `id` in words, oldest first, with its name
/// and its format's word for a round.
async fn lines_of(
    state: &AppState,
    id: &str,
    kind: Kind,
) -> Result<(String, Vec<HistoryLine>, &'static str), PageError> {
    Ok(arbiter_service::with_format!(kind, |F| {
        let (name, lines) = state.service.history_lines::<F>(id).await?;
        (name, lines, <F as Format>::ROUND)
    }))
}

/// The events of competition `id` after version `after`, oldest first, one
/// line each in the words of the history page (version, kind, actor,
/// time, sentence): what a desk says changed since a stale form was shown
/// (issue 14, item 4).
pub(crate) async fn since(
    state: &AppState,
    id: &str,
    kind: Kind,
    after: u64,
) -> Result<Vec<String>, PageError> {
    Ok(between(state, id, kind, after.saturating_add(1), u64::MAX)
        .await?
        .into_iter()
        .map(|l| {
            let mut line = format!(
                "#{} {} by {} at {}: {}",
                l.seq, l.kind, l.actor, l.recorded_at, l.sentence
            );
            if let Some(u) = l.undoes {
                line.push_str(&format!(" (undoes #{u})"));
            }
            if l.reverted {
                line.push_str(" (undone since)");
            }
            line
        })
        .collect())
}

/// The events `first` to `last` of competition `id` (what one request
/// stored), in the history's words: what a desk says a form sent again
/// did the first time (issue 17 §2). Empty when the log has none of them.
pub(crate) async fn between(
    state: &AppState,
    id: &str,
    kind: Kind,
    first: u64,
    last: u64,
) -> Result<Vec<HistoryLine>, PageError> {
    let (_, all, _) = lines_of(state, id, kind).await?;
    Ok(all
        .into_iter()
        .filter(|l| (first..=last).contains(&l.seq))
        .collect())
}

/// The filters of the query, read against the history's players and
/// rounds: the filter, or a sentence naming the field it cannot read.
fn read_filter(
    query: &HashMap<String, String>,
    players: &[String],
    rounds: &[u32],
    round_word: &str,
) -> Result<HistoryFilter, String> {
    let mut filter = HistoryFilter::default();
    if let Some(p) = query
        .get("player")
        .map(|p| p.trim())
        .filter(|p| !p.is_empty())
    {
        let length = p.chars().count();
        if length > MAX_PLAYER {
            return Err(format!(
                "Field “player”: a name has at most {MAX_PLAYER} characters; this one has {length}."
            ));
        }
        let wanted = p.to_lowercase();
        match players.iter().find(|n| n.to_lowercase() == wanted) {
            Some(name) => filter.player = Some(name.clone()),
            None => {
                let close: Vec<&str> = players
                    .iter()
                    .filter(|n| n.to_lowercase().contains(&wanted))
                    .take(SUGGESTIONS)
                    .map(String::as_str)
                    .collect();
                let mut m = format!("Field “player”: no event names a player called “{p}”.");
                if !close.is_empty() {
                    m.push_str(&format!(" Did you mean {}?", close.join(", ")));
                }
                return Err(m);
            }
        }
    }
    if let Some(r) = query
        .get("round")
        .map(|r| r.trim())
        .filter(|r| !r.is_empty())
    {
        let known = match (rounds.first(), rounds.last()) {
            (Some(first), Some(last)) if first == last => {
                format!("the only {round_word} in this history is {first}")
            }
            (Some(first), Some(last)) => {
                format!("the {round_word}s in this history run from {first} to {last}")
            }
            _ => format!("no event of this history belongs to a {round_word}"),
        };
        let number = (r.chars().count() <= MAX_NUMBER)
            .then(|| r.parse::<u32>().ok())
            .flatten()
            .ok_or_else(|| {
                let shown: String = r.chars().take(20).collect();
                let more = if r.chars().count() > 20 { "…" } else { "" };
                format!(
                    "Field “round”: “{shown}{more}” is not the number of a {round_word}; {known}."
                )
            })?;
        if !rounds.contains(&number) {
            return Err(format!(
                "Field “round”: no event belongs to {round_word} {number}; {known}."
            ));
        }
        filter.round = Some(number);
    }
    Ok(filter)
}

/// The page asked for: 1 when none; `Err` when it is not a number.
fn read_page(query: &HashMap<String, String>) -> Result<Option<usize>, String> {
    match query
        .get("page")
        .map(|p| p.trim())
        .filter(|p| !p.is_empty())
    {
        None => Ok(None),
        Some(p) => (p.chars().count() <= MAX_NUMBER)
            .then(|| p.parse::<usize>().ok())
            .flatten()
            .map(Some)
            .ok_or_else(|| {
                let shown: String = p.chars().take(20).collect();
                format!("Field “page”: “{shown}” is not a page number.")
            }),
    }
}

/// The address of page `page` of the history with `filter`.
fn href(id: &str, filter: &HistoryFilter, page: usize) -> String {
    let mut q = Vec::new();
    if let Some(p) = &filter.player {
        q.push(format!("player={}", urlencode(p)));
    }
    if let Some(r) = filter.round {
        q.push(format!("round={r}"));
    }
    if page > 1 {
        q.push(format!("page={page}"));
    }
    if q.is_empty() {
        format!("/c/{id}/history")
    } else {
        format!("/c/{id}/history?{}", q.join("&"))
    }
}

pub(super) async fn page(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, PageError> {
    let kind = crate::pages::kind_of(&state, &id).await?;
    let (name, all, round_word) = lines_of(&state, &id, kind).await?;
    let zone = state.service.time_zone(&id).await?;
    let total = all.len();
    let players = players_named(&all);
    let rounds = rounds_named(&all);
    let mut page = HistoryPage {
        chrome: Chrome::competition(
            format!("History of {name}"),
            &id,
            &name,
            kind,
            &format!("/c/{id}/history"),
        ),
        id: id.clone(),
        name,
        total,
        shown: 0,
        filtered: String::new(),
        round_word,
        player: query
            .get("player")
            .map(|p| p.chars().take(MAX_PLAYER).collect())
            .unwrap_or_default(),
        round: query
            .get("round")
            .map(|r| r.chars().take(MAX_NUMBER).collect())
            .unwrap_or_default(),
        players,
        rounds,
        page: 1,
        pages: 1,
        previous: None,
        next: None,
        problem: None,
        rows: Vec::new(),
    };
    let read = read_filter(&query, &page.players, &page.rounds, round_word)
        .and_then(|f| read_page(&query).map(|p| (f, p)));
    let (filter, asked) = match read {
        Ok(x) => x,
        Err(problem) => {
            page.problem = Some(problem);
            return Ok((StatusCode::BAD_REQUEST, render(&page)?).into_response());
        }
    };
    let mut words = Vec::new();
    if let Some(p) = &filter.player {
        page.player = p.clone();
        words.push(format!("naming {p}"));
    }
    if let Some(r) = filter.round {
        page.round = r.to_string();
        words.push(format!("in {round_word} {r}"));
    }
    page.filtered = words.join(", ");
    // Newest first.
    let admitted: Vec<HistoryLine> = all.into_iter().rev().filter(|l| filter.admits(l)).collect();
    page.shown = admitted.len();
    page.pages = admitted.len().div_ceil(PER_PAGE).max(1);
    page.page = match asked {
        None => 1,
        Some(p) if (1..=page.pages).contains(&p) => p,
        Some(_) => return Err(super::not_found_page()),
    };
    if page.page > 1 {
        page.previous = Some(PageLink {
            label: "Newer events".into(),
            href: href(&id, &filter, page.page - 1),
        });
    }
    if page.page < page.pages {
        page.next = Some(PageLink {
            label: "Older events".into(),
            href: href(&id, &filter, page.page + 1),
        });
    }
    page.rows = admitted
        .into_iter()
        .skip((page.page - 1) * PER_PAGE)
        .take(PER_PAGE)
        .map(|line| EventRow::new(line, zone))
        .collect();
    mark_accounts(&state, &mut page.rows).await?;
    render(&page)
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
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn query(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect()
    }

    #[test]
    fn a_time_reads_in_minutes_and_a_strange_one_as_it_is() {
        assert_eq!(
            readable_time("2025-01-02T09:00:00Z", TimeZone::UTC),
            "2025-01-02 09:00 UTC"
        );
        let berlin = TimeZone::parse("Europe/Berlin").unwrap();
        assert_eq!(
            readable_time("2025-01-02T09:00:00Z", berlin),
            "2025-01-02 10:00 CET"
        );
        assert_eq!(readable_time("yesterday", berlin), "yesterday");
    }

    #[test]
    fn a_filter_names_the_field_it_cannot_read() {
        let players = vec!["Ana Morales".to_string(), "Ben Carter".to_string()];
        let rounds = vec![1, 2, 3];
        let f = read_filter(
            &query(&[("player", "ana morales")]),
            &players,
            &rounds,
            "round",
        );
        assert_eq!(f.map(|f| f.player), Ok(Some("Ana Morales".to_string())));
        let e = read_filter(&query(&[("player", "Mor")]), &players, &rounds, "round");
        assert_eq!(
            e,
            Err(
                "Field “player”: no event names a player called “Mor”. Did you mean Ana Morales?"
                    .into()
            )
        );
        let long = "x".repeat(MAX_PLAYER + 1);
        let e = read_filter(&query(&[("player", &long)]), &players, &rounds, "round");
        assert!(e.is_err_and(|m| m.starts_with("Field “player”: a name has at most 200")));
        let e = read_filter(&query(&[("round", "-1")]), &players, &rounds, "season");
        assert_eq!(
            e,
            Err("Field “round”: “-1” is not the number of a season; the seasons in this history run from 1 to 3.".into())
        );
        let e = read_filter(&query(&[("round", "4")]), &players, &rounds, "round");
        assert!(e.is_err_and(|m| m.starts_with("Field “round”: no event belongs to round 4")));
        let e = read_page(&query(&[("page", "two")]));
        assert_eq!(e, Err("Field “page”: “two” is not a page number.".into()));
    }
}
