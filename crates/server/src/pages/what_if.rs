//! What-if on the web: hypothetical results for the games still to be
//! played, and what they would make of the competition, computed on a copy
//! by `arbiter_service::what_if` (nothing is stored).
//!
//! - a TWS ladder: each undecided game of the running round with a choice
//!   of outcome; the ladder after the round closes, each move with its rule;
//! - an XMadn league: each scheduled game of the double round-robins with
//!   a winner, the loser's counted pawns and the game's time; the table
//!   with its cascade explanations;
//! - a round-robin league: each game without a result with a winner or a
//!   draw and, where results carry scores, the score (a win counts 1-0 and
//!   a draw 0-0 when none is given); the table with each place explained;
//! - a Sunjang league: each group game of the running season without a
//!   result with a choice of outcome; the group tables and, when every
//!   game has a result, the next season's plan.
//!
//! The form is a GET (it stores nothing, like the projection's form), so a
//! what-if is a link anyone can share. A field the form does not have or a
//! value it does not offer is answered 400 with the field named; a result
//! or a close the rules refuse is answered 422 with the rule's words; the
//! form is shown again with the reader's choices either way.

use arbiter_engine::model::Time;
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::{Chrome, Kind, PageError, not_found_page, render};
use crate::AppState;
use crate::api::insight::what_if_of;
use crate::auth::Caller;

/// An option of a select.
#[derive(Debug, Clone)]
pub(crate) struct Choice {
    pub(crate) value: String,
    pub(crate) label: String,
    pub(crate) selected: bool,
}

/// A small input beside a game's select (XMadn: the loser's pawns, the
/// game's time).
#[derive(Debug, Clone)]
pub(crate) struct Extra {
    pub(crate) name: String,
    pub(crate) label: String,
    pub(crate) value: String,
    /// `number` or `text`.
    pub(crate) kind: &'static str,
    pub(crate) max: u8,
}

/// One game of the form.
#[derive(Debug, Clone)]
pub(crate) struct FormGame {
    /// What the game is: "G49", "DRR 1 Game 4 (G4)", "Round 3".
    pub(crate) game: String,
    /// Its players, in words.
    pub(crate) players: String,
    /// The select's name: the key sent to the service (a game's label or
    /// `BLACK-WHITE`), or, for XMadn, `G4.winner`.
    pub(crate) field: String,
    pub(crate) choices: Vec<Choice>,
    pub(crate) extras: Vec<Extra>,
    /// XMadn: the game's label and its players, to build `PAWNS@TIME`.
    pub(crate) label: String,
}

/// The games of the form under one heading (a round, a DRR, a group).
#[derive(Debug, Clone)]
pub(crate) struct FormPart {
    pub(crate) title: String,
    /// A Sunjang group's id ("B6"); empty for the other formats.
    pub(crate) group: String,
    pub(crate) games: Vec<FormGame>,
}

#[derive(Debug, Template)]
#[template(path = "what_if.html")]
struct WhatIfPage {
    chrome: Chrome,
    id: String,
    name: String,
    version: u64,
    /// What the form's choices mean for this format.
    intro: &'static str,
    /// Why there is no form (no running round or season, no game left).
    nothing: Option<String>,
    parts: Vec<FormPart>,
    /// The reader's bad field or the rules' refusal.
    problem: Option<String>,
    /// The hypothetical results as recorded on the copy.
    results: Vec<String>,
    /// What would follow, in the format's own words and tables
    /// ([`WhatIfForm::outcome`]).
    outcome: Option<String>,
}

/// The form of competition `id` and the version it was read at.
#[derive(Debug, Clone)]
pub(crate) struct Form {
    pub(crate) name: String,
    pub(crate) version: u64,
    pub(crate) parts: Vec<FormPart>,
    pub(crate) nothing: Option<String>,
    /// XMadn: the winning count of counted pawns (XM-R9).
    pub(crate) winning_pawns: u8,
}

pub(crate) fn choice(value: &str, label: String) -> Choice {
    Choice {
        value: value.to_string(),
        label,
        selected: false,
    }
}

pub(crate) fn no_result() -> Choice {
    choice("", "— no result —".into())
}

/// What the what-if page asks of a format with what-if
/// ([`arbiter_service::format::Offers::what_if`]), answered in the
/// format's own folder (`formats/<format>/what_if.rs`).
pub(crate) trait WhatIfForm: arbiter_service::Format {
    /// What the form's choices mean for this format.
    const INTRO: &'static str = "";
    /// The form: the games still to be played, each with its choices.
    fn form(&self, id: &str, version: u64, now: Time) -> Form {
        let _ = (id, now);
        Form {
            name: self.title().to_string(),
            version,
            parts: Vec::new(),
            nothing: Some(format!("There is no what-if for {}.", Self::NAME)),
            winning_pawns: 0,
        }
    }
    /// One game's hypothetical result as the service reads it, from the
    /// reader's choice (already one of the game's) and the form's other
    /// fields (`value`): `None` when the game is left without one. By
    /// default the select's field and value.
    fn result(
        form: &Form,
        game: &FormGame,
        chosen: &str,
        value: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Option<(String, String)>, String> {
        let _ = (form, value);
        Ok((!chosen.is_empty()).then(|| (game.field.clone(), chosen.to_string())))
    }
    /// What would follow from the results, as HTML: the format's own
    /// template (`what_if_<format>.html`), given the form's parts (the
    /// games that had no result before) and every player's page
    /// ([`crate::formats::WebFormat::player_links`]). Nothing for a format
    /// without what-if.
    fn outcome(
        view: &Self::WhatIf,
        parts: &[FormPart],
        links: &crate::pages::players::PlayerLinks,
    ) -> Result<String, PageError> {
        let _ = (view, parts, links);
        Ok(String::new())
    }
}

/// A field the reader sent that the form cannot take.
pub(crate) fn bad(field: &str, why: &str) -> String {
    format!("Field “{field}”: {why}.")
}

/// The reader's choices as the service's (key, value) results, in the
/// form's order, and the form with those choices selected.
fn results_of(
    kind: Kind,
    form: &mut Form,
    params: &[(String, String)],
) -> Result<Vec<(String, String)>, String> {
    // Every field must be one of the form's.
    for (k, _) in params {
        let known = form
            .parts
            .iter()
            .flat_map(|p| &p.games)
            .any(|g| g.field == *k || g.extras.iter().any(|x| x.name == *k));
        if !known {
            return Err(bad(
                k,
                "this form has no such field (a game that has a result already, or is not of the running round or season)",
            ));
        }
    }
    let value = |name: &str| {
        params
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.trim().to_string())
    };
    let mut results = Vec::new();
    let whole = form.clone();
    for g in form.parts.iter_mut().flat_map(|p| &mut p.games) {
        for x in &mut g.extras {
            if let Some(v) = value(&x.name) {
                x.value = v;
            }
        }
        // Every select offers "no result" (the empty value) and the
        // format's outcomes; nothing else is a choice.
        let chosen = value(&g.field).unwrap_or_default();
        let Some(c) = g.choices.iter_mut().find(|c| c.value == chosen) else {
            let offered: Vec<&str> = g
                .choices
                .iter()
                .map(|c| c.value.as_str())
                .filter(|v| !v.is_empty())
                .collect();
            return Err(bad(
                &g.field,
                &format!("“{chosen}” is not a choice; choose {}", offered.join(", ")),
            ));
        };
        // "No result" is what a select shows unchosen: not marked.
        c.selected = !chosen.is_empty();
        let g: &FormGame = g;
        let result = arbiter_service::with_format!(kind, |F| {
            <F as WhatIfForm>::result(&whole, g, &chosen, &value)
        })?;
        results.extend(result);
    }
    Ok(results)
}

/// `GET /c/{id}/what-if[?KEY=VALUE…]`: the form and, when it was sent,
/// what the chosen results would make of the competition.
pub(super) async fn page(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Query(params): Query<Vec<(String, String)>>,
) -> Result<Response, PageError> {
    let kind = crate::pages::kind_of(&state, &id).await?;
    let now = state.now();
    if !kind.offers().what_if {
        return Err(not_found_page());
    }
    let (mut form, intro) = arbiter_service::with_format!(kind, |F| {
        state
            .service
            .read_as::<F, _>(&id, |c, v| {
                (<F as WhatIfForm>::form(c, &id, v, now), F::INTRO)
            })
            .await?
    });
    let mut page = WhatIfPage {
        chrome: Chrome::competition(
            format!("What if, in {}", form.name),
            &id,
            &form.name,
            kind,
            &format!("/c/{id}/what-if"),
        ),
        id: id.clone(),
        name: form.name.clone(),
        version: form.version,
        intro,
        nothing: form.nothing.take(),
        parts: Vec::new(),
        problem: None,
        results: Vec::new(),
        outcome: None,
    };
    let mut status = StatusCode::OK;
    let mut retry_after = None;
    if !params.is_empty() {
        match results_of(kind, &mut form, &params) {
            Err(m) => {
                status = StatusCode::BAD_REQUEST;
                page.problem = Some(m);
            }
            Ok(results) => match what_if_of(&state, &caller, &id, results, now).await {
                Ok(v) => {
                    page.version = v.version();
                    page.results = v.results().to_vec();
                    let links = crate::pages::players::PlayerLinks::of(&state, &id, kind).await?;
                    let outcome = arbiter_service::with_format!(kind, |F| {
                        match v.view::<F>() {
                            Some(view) => <F as WhatIfForm>::outcome(view, &form.parts, &links)?,
                            None => {
                                return Err(PageError::Internal(format!(
                                    "the what-if of {id} is not {}'s",
                                    F::NAME
                                )));
                            }
                        }
                    });
                    page.outcome = Some(outcome);
                }
                Err(e) if e.status == StatusCode::TOO_MANY_REQUESTS => {
                    status = e.status;
                    retry_after = e.retry_after;
                    page.problem = Some(format!("{}.", e.detail.message));
                }
                Err(e) if e.status == StatusCode::UNPROCESSABLE_ENTITY => {
                    status = e.status;
                    let clause = e.detail.clause.as_deref().unwrap_or("the rules");
                    page.problem = Some(format!(
                        "The rules refuse this what-if: {} [{clause}]",
                        e.detail.message
                    ));
                }
                Err(e) if e.status.is_client_error() => {
                    status = StatusCode::BAD_REQUEST;
                    page.problem = Some(format!("{}.", e.detail.message));
                }
                Err(e) => return Err(PageError::Internal(e.detail.message)),
            },
        }
    }
    page.parts = form.parts;
    let response = render(&page)?;
    let mut response = (status, response).into_response();
    if let Some(seconds) = retry_after {
        response
            .headers_mut()
            .insert(axum::http::header::RETRY_AFTER, seconds.into());
    }
    Ok(response)
}
