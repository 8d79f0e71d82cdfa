//! `GET /c/{id}/players?q=…`: every player of a competition, each linked to
//! his page ([`crate::pages::players`]), with where he stands and his
//! record as his format tells them
//! ([`crate::formats::WebFormat::player_index`], one generic page for
//! every format).
//!
//! The filter is a GET form that needs no script: `q`, part of a name,
//! matched whatever the case and the accents ([`super::search::fold`]). It
//! has at most [`MAX_FILTER`] characters and no control character; anything
//! else is answered 400 with the form, the input kept (shortened) and the
//! field `q` named. An empty filter lists everyone.

use std::collections::HashMap;

use askama::Template;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};

use super::search::{QField, fold, read_q};
use super::{Chrome, PageError, kind_of};
use crate::AppState;

/// The longest filter, in characters (after trimming).
pub(crate) const MAX_FILTER: usize = 200;

/// One player on the index: his name, his page, and what his format says
/// of him in a few words.
#[derive(Debug, Clone, Default)]
pub(crate) struct IndexLine {
    pub name: String,
    /// The address of his page ([`crate::formats::WebFormat::player_page`]).
    pub href: String,
    /// Where he stands now ("rung 3", "2nd of 6", "group A1 of season 3:
    /// 2nd of 6"); empty where he stands nowhere.
    pub standing: String,
    /// His record in words ("3 won, 1 lost"); empty where he has none.
    pub record: String,
    /// Anything else worth a word ("withdrawn", "inactive", "champion").
    pub note: String,
}

impl IndexLine {
    /// A player with his page and nothing more said of him.
    pub(crate) fn named(name: String, href: String) -> Self {
        Self {
            name,
            href,
            ..Self::default()
        }
    }
}

/// The index of a format whose players stand in one table: a line per row
/// of `rows`, in its order, for each player `everyone` (the format's
/// [`crate::formats::WebFormat::search_players`]: names and pages) holds,
/// filled in by `fill`; then everyone the table does not list, with his
/// page alone.
pub(crate) fn in_table_order<R>(
    everyone: Vec<(String, String)>,
    rows: &[R],
    name: impl Fn(&R) -> &str,
    fill: impl Fn(&R, &mut IndexLine),
) -> Vec<IndexLine> {
    let pages: HashMap<&str, &str> = everyone
        .iter()
        .map(|(n, h)| (n.as_str(), h.as_str()))
        .collect();
    let mut lines: Vec<IndexLine> = rows
        .iter()
        .filter_map(|r| {
            let href = pages.get(name(r))?;
            let mut line = IndexLine::named(name(r).to_string(), (*href).to_string());
            fill(r, &mut line);
            Some(line)
        })
        .collect();
    let listed: std::collections::HashSet<&str> = lines.iter().map(|l| l.name.as_str()).collect();
    let rest: Vec<IndexLine> = everyone
        .iter()
        .filter(|(n, _)| !listed.contains(n.as_str()))
        .map(|(n, h)| IndexLine::named(n.clone(), h.clone()))
        .collect();
    lines.extend(rest);
    lines
}

/// A record in words, each count with its word ("won 3, lost 1");
/// empty while every count is 0 (no game counted yet).
pub(crate) fn record(counts: &[(&str, u32)]) -> String {
    if counts.iter().all(|(_, n)| *n == 0) {
        return String::new();
    }
    counts
        .iter()
        .map(|(word, n)| format!("{word} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[derive(Debug, Template)]
#[template(path = "players_index.html")]
struct PlayersIndexPage {
    chrome: Chrome,
    id: String,
    name: String,
    /// The filter as the reader typed it (trimmed), for the form.
    q: String,
    /// Why the filter could not be read, naming the field.
    problem: Option<String>,
    lines: Vec<IndexLine>,
    /// Every player of the competition, of whom `lines` are shown.
    total: usize,
    max_filter: usize,
}

/// The filter read: trimmed, checked. `Err` names the field and keeps what
/// it can of the input for the form.
fn read_filter(raw: Option<&str>) -> Result<String, (String, String)> {
    read_q(
        raw,
        &QField {
            noun: "a filter",
            max: MAX_FILTER,
            too_long: "Type part of a name.",
            control: "type part of a name as it is written.",
        },
    )
}

/// `GET /c/{id}/players`.
pub(super) async fn page(
    State(state): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Result<Response, PageError> {
    let kind = kind_of(&state, &id).await?;
    let (name, mut lines) = arbiter_service::with_format!(kind, |F| {
        state
            .service
            .read_as::<F, _>(&id, |c, _| {
                (
                    c.title().to_string(),
                    <F as crate::formats::WebFormat>::player_index(c, &id),
                )
            })
            .await?
    });
    let total = lines.len();
    let mut page = PlayersIndexPage {
        chrome: Chrome::competition(
            format!("Players of {name}"),
            &id,
            &name,
            kind,
            &format!("/c/{id}/players"),
        ),
        id: id.clone(),
        name,
        q: String::new(),
        problem: None,
        lines: Vec::new(),
        total,
        max_filter: MAX_FILTER,
    };
    let filter = match query {
        Ok(Query(query)) => read_filter(query.get("q").map(String::as_str)),
        Err(_) => Err((
            String::new(),
            "Field “q”: the address holds a filter that cannot be read (it is not valid text); type it again in the box."
                .to_string(),
        )),
    };
    match filter {
        Err((kept, problem)) => {
            page.q = kept;
            page.problem = Some(problem);
            let body = page.render()?;
            Ok((StatusCode::BAD_REQUEST, Html(body)).into_response())
        }
        Ok(q) => {
            if !q.is_empty() {
                let wanted = fold(&q);
                lines.retain(|l| fold(&l.name).contains(&wanted));
            }
            page.q = q;
            page.lines = lines;
            super::render(&page)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_in_words() {
        assert_eq!(record(&[("won", 0), ("lost", 0)]), "");
        assert_eq!(record(&[("won", 3), ("lost", 0)]), "won 3, lost 0");
    }

    #[test]
    fn filters_are_checked() {
        assert_eq!(read_filter(None), Ok(String::new()));
        assert_eq!(read_filter(Some("  Ann ")), Ok("Ann".to_string()));
        assert!(read_filter(Some(&"a".repeat(MAX_FILTER))).is_ok());
        let Err((kept, problem)) = read_filter(Some(&"a".repeat(MAX_FILTER + 1))) else {
            panic!("an over-long filter is refused");
        };
        assert_eq!(kept.len(), MAX_FILTER + 1);
        assert!(problem.contains("Field “q”"), "{problem}");
        let Err((kept, _)) = read_filter(Some("a\u{0}b")) else {
            panic!("a control character is refused");
        };
        assert_eq!(kept, "a\u{FFFD}b");
    }
}
