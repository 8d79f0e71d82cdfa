//! `GET /search?q=…`: the search box of every page's header (issue 17 §1),
//! a GET form that needs no script. It finds competitions by id or name
//! and players by name in every competition of every format (each
//! format's [`crate::formats::WebFormat::search_players`]: ladder members,
//! league and Challengers players, Sunjang entrants, round-robin players),
//! each linked to his page ([`crate::pages::players`]).
//!
//! Matching is case- and accent-insensitive ([`fold`]: compatibility
//! decomposition, combining marks left out, lower case), on a substring,
//! ranked exact, then prefix, then substring; at most [`MAX_RESULTS`]
//! results, with a note when there are more. The query is trimmed and has
//! at most [`MAX_QUERY`] characters and no control character; anything
//! else is answered 400 with the form, the input kept and the field `q`
//! named. An empty query shows the form.
//!
//! Cost: every competition's state is read through the service's cache
//! (one version query each, a fold only when the cache is behind), which
//! suits an installation of tens of competitions; a larger one would want
//! an index kept beside the logs.

use std::collections::HashMap;

use askama::Template;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

use super::{Chrome, PageError};
use crate::AppState;

/// The longest query, in characters (after trimming).
pub(crate) const MAX_QUERY: usize = 100;
/// The most results shown.
pub(crate) const MAX_RESULTS: usize = 50;
/// The most characters of a refused query kept in the form.
const KEPT: usize = 1000;

/// How well a text matches: the lower, the better.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Rank {
    Exact,
    Prefix,
    Substring,
}

impl Rank {
    fn words(self) -> &'static str {
        match self {
            Rank::Exact => "exact",
            Rank::Prefix => "begins with it",
            Rank::Substring => "contains it",
        }
    }
}

/// `text` as the search compares it: compatibility-decomposed, combining
/// marks (accents) left out, lower case ("Ébène" and "ebene" alike).
pub(crate) fn fold(text: &str) -> String {
    text.nfkd()
        .filter(|c| !is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

/// How `text` matches the folded query `wanted`, if it does.
fn rank(text: &str, wanted: &str) -> Option<Rank> {
    let text = fold(text);
    if text == wanted {
        Some(Rank::Exact)
    } else if text.starts_with(wanted) {
        Some(Rank::Prefix)
    } else if text.contains(wanted) {
        Some(Rank::Substring)
    } else {
        None
    }
}

/// One result.
#[derive(Debug)]
struct Hit {
    rank: Rank,
    /// A competition before a player of the same rank.
    player: bool,
    name: String,
    href: String,
    /// What it is, in words ("player in Twilight Struggle Ladder, a
    /// Twilight Struggle ladder").
    what: String,
    /// How it matched, in words.
    how: &'static str,
}

#[derive(Debug, Template)]
#[template(path = "search.html")]
struct SearchPage {
    chrome: Chrome,
    /// The query as the reader typed it (trimmed), for the form.
    q: String,
    /// The query was read and searched.
    searched: bool,
    /// Why the query could not be read, naming the field.
    problem: Option<String>,
    hits: Vec<Hit>,
    /// Every match, of which at most [`MAX_RESULTS`] are shown.
    total: usize,
    competitions: usize,
    max_query: usize,
    max_results: usize,
}

/// The query read: trimmed, checked. `Err` names the field and keeps what
/// it can of the input for the form.
fn read_query(raw: Option<&str>) -> Result<String, (String, String)> {
    read_q(
        raw,
        &QField {
            noun: "a search",
            max: MAX_QUERY,
            too_long: "Search for part of a name.",
            control: "type the name as it is written.",
        },
    )
}

/// What a `q` field of part of a name is, for its refusals.
pub(super) struct QField {
    /// "a search", "a filter".
    pub noun: &'static str,
    /// The most characters it may have.
    pub max: usize,
    /// What to do when it is longer.
    pub too_long: &'static str,
    /// What to do when it holds a control character.
    pub control: &'static str,
}

/// A `q` field read: trimmed, at most `field.max` characters and no control
/// character. `Err` names the field and keeps what it can of the input for
/// the form (the first [`KEPT`] characters, control characters replaced so
/// that the page stays well-formed).
pub(super) fn read_q(raw: Option<&str>, field: &QField) -> Result<String, (String, String)> {
    let q = raw.unwrap_or_default().trim();
    let kept = || -> String {
        q.chars()
            .take(KEPT)
            .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
            .collect()
    };
    let QField {
        noun,
        max,
        too_long,
        control,
    } = field;
    let length = q.chars().count();
    if length > *max {
        return Err((
            kept(),
            format!(
                "Field “q”: {noun} has at most {max} characters; this one has {length}. {too_long}"
            ),
        ));
    }
    if q.chars().any(char::is_control) {
        return Err((
            kept(),
            format!(
                "Field “q”: {noun} cannot hold control characters (a tab, a line break, an invisible code); {control}"
            ),
        ));
    }
    Ok(q.to_string())
}

/// Every competition and player matching the folded query `wanted`,
/// best first, and the number of competitions searched.
async fn find(state: &AppState, wanted: &str) -> Result<(Vec<Hit>, usize), PageError> {
    let svc = &state.service;
    let ids = svc.competitions().await?;
    let mut hits = Vec::new();
    for id in &ids {
        let kind = match svc.format_of(id).await {
            Ok(kind) => kind,
            Err(e) => {
                // One damaged competition does not hide the others.
                tracing::warn!(competition = %id, error = %e, "search skipped a competition");
                continue;
            }
        };
        let words = super::kind_words(kind);
        let read = arbiter_service::with_format!(kind, |F| {
            svc.read_as::<F, _>(id, |c, _| {
                (
                    c.title().to_string(),
                    <F as crate::formats::WebFormat>::search_players(c, id),
                )
            })
            .await
        });
        let (title, players) = match read {
            Ok(found) => found,
            Err(e) => {
                tracing::warn!(competition = %id, error = %e, "search skipped a competition");
                continue;
            }
        };
        let by_id = rank(id, wanted);
        let by_name = rank(&title, wanted);
        if let Some(r) = by_id.into_iter().chain(by_name).min() {
            hits.push(Hit {
                rank: r,
                player: false,
                name: title.clone(),
                href: format!("/c/{id}"),
                what: format!("competition {id}, a {words}"),
                how: r.words(),
            });
        }
        for (name, href) in players {
            if let Some(r) = rank(&name, wanted) {
                hits.push(Hit {
                    rank: r,
                    player: true,
                    name,
                    href,
                    what: format!("player in {title} ({id})"),
                    how: r.words(),
                });
            }
        }
    }
    hits.sort_by(|a, b| {
        (a.rank, a.player, fold(&a.name), &a.name, &a.what).cmp(&(
            b.rank,
            b.player,
            fold(&b.name),
            &b.name,
            &b.what,
        ))
    });
    Ok((hits, ids.len()))
}

/// `GET /search?q=…`.
pub(super) async fn page(
    State(state): State<AppState>,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Result<Response, PageError> {
    let mut page = SearchPage {
        chrome: Chrome::new("Search"),
        q: String::new(),
        searched: false,
        problem: None,
        hits: Vec::new(),
        total: 0,
        competitions: 0,
        max_query: MAX_QUERY,
        max_results: MAX_RESULTS,
    };
    let query = match query {
        Ok(Query(query)) => query,
        Err(_) => {
            page.problem = Some(
                "Field “q”: the address holds a search that cannot be read (it is not valid text); type it again in the box."
                    .to_string(),
            );
            return refused(&page);
        }
    };
    match read_query(query.get("q").map(String::as_str)) {
        Err((kept, problem)) => {
            page.q = kept;
            page.problem = Some(problem);
            refused(&page)
        }
        Ok(q) if q.is_empty() => super::render(&page),
        Ok(q) => {
            let (mut hits, competitions) = find(&state, &fold(&q)).await?;
            page.chrome = Chrome::new(format!("Search: {q}"));
            page.q = q;
            page.searched = true;
            page.total = hits.len();
            page.competitions = competitions;
            hits.truncate(MAX_RESULTS);
            page.hits = hits;
            super::render(&page)
        }
    }
}

/// The form with its problem, 400.
fn refused(page: &SearchPage) -> Result<Response, PageError> {
    Ok((StatusCode::BAD_REQUEST, Html(page.render()?)).into_response())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn folding_ignores_case_and_accents() {
        assert_eq!(fold("Ébène Müller"), "ebene muller");
        assert_eq!(fold("ÅSA"), "asa");
        assert_eq!(rank("Ana Morales", &fold("ana morales")), Some(Rank::Exact));
        assert_eq!(rank("Ana Morales", &fold("ANA")), Some(Rank::Prefix));
        assert_eq!(rank("Ana Morales", &fold("morá")), Some(Rank::Substring));
        assert_eq!(rank("Ana Morales", &fold("zed")), None);
    }

    #[test]
    fn queries_are_checked() {
        assert_eq!(read_query(Some("  Ana  ")), Ok("Ana".to_string()));
        assert_eq!(read_query(None), Ok(String::new()));
        let long = "x".repeat(MAX_QUERY + 1);
        let (kept, why) = read_query(Some(&long)).unwrap_err();
        assert_eq!(kept, long);
        assert!(why.starts_with("Field “q”"), "{why}");
        assert!(read_query(Some(&"x".repeat(MAX_QUERY))).is_ok());
        let (kept, why) = read_query(Some("A\u{0}na")).unwrap_err();
        assert_eq!(kept, "A\u{FFFD}na");
        assert!(why.contains("control"), "{why}");
    }
}
