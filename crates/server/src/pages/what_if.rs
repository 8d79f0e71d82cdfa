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

use arbiter_engine::roundrobin::RoundRobin;
use arbiter_engine::sunjang::season::League as SunjangLeague;
use arbiter_engine::tws::Ladder;
use arbiter_engine::xmadn::league::League as XmadnLeague;
use arbiter_engine::xmadn::parse_time;
use arbiter_service::insight::{PossibleView, WhatIfView};
use arbiter_service::roundrobin::RoundRobinView;
use arbiter_service::sunjang::season_view;
use arbiter_service::views::{self, CloseView, ExplanationView};
use arbiter_service::what_if::{AnyWhatIfView, SunjangWhatIfView};
use arbiter_service::xmadn::LeagueView;
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
struct Choice {
    value: String,
    label: String,
    selected: bool,
}

/// A small input beside a game's select (XMadn: the loser's pawns, the
/// game's time).
#[derive(Debug, Clone)]
struct Extra {
    name: String,
    label: String,
    value: String,
    /// `number` or `text`.
    kind: &'static str,
    max: u8,
}

/// One game of the form.
#[derive(Debug, Clone)]
struct FormGame {
    /// What the game is: "G49", "DRR 1 Game 4 (G4)", "Round 3".
    game: String,
    /// Its players, in words.
    players: String,
    /// The select's name: the key sent to the service (a game's label or
    /// `BLACK-WHITE`), or, for XMadn, `G4.winner`.
    field: String,
    choices: Vec<Choice>,
    extras: Vec<Extra>,
    /// XMadn: the game's label and its players, to build `PAWNS@TIME`.
    label: String,
}

/// The games of the form under one heading (a round, a DRR, a group).
#[derive(Debug, Clone)]
struct FormPart {
    title: String,
    /// A Sunjang group's id ("B6"); empty for the other formats.
    group: String,
    games: Vec<FormGame>,
}

/// A move of the ladder's close, in the order of the ladder after it.
#[derive(Debug, Clone)]
struct MoveRow {
    to: u32,
    name: String,
    from: u32,
    change: String,
    explanation: ExplanationView,
}

/// What the ladder's what-if shows: the close, or, with games still
/// undecided, the rungs still possible (issue 15, item 5).
#[derive(Debug)]
struct LadderAfter {
    close: Option<CloseView>,
    moves: Vec<MoveRow>,
    possible: Option<PossibleView>,
}

impl WhatIfPage {
    /// Whether a Sunjang group had games left before the hypothetical
    /// results: only those groups' tables are shown after them.
    fn open_group(&self, id: &str) -> bool {
        self.parts.iter().any(|p| p.group == id)
    }
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
    ladder: Option<LadderAfter>,
    league: Option<LeagueView>,
    sunjang: Option<SunjangWhatIfView>,
    roundrobin: Option<RoundRobinView>,
}

/// The form of competition `id` and the version it was read at.
struct Form {
    name: String,
    version: u64,
    parts: Vec<FormPart>,
    nothing: Option<String>,
    /// XMadn: the winning count of counted pawns (XM-R9).
    winning_pawns: u8,
}

fn choice(value: &str, label: String) -> Choice {
    Choice {
        value: value.to_string(),
        label,
        selected: false,
    }
}

fn no_result() -> Choice {
    choice("", "— no result —".into())
}

const INTRO_LADDER: &str = "Choose an outcome for any undecided game of the running round: the round is closed on a copy of the ladder with those results, through the ladder's own rules, and the ladder after the close is shown with each move's rule. Games left without a result stay undecided: the round cannot close then, and each player's best and worst rung at the close is shown instead, over every outcome of those games. Nothing is stored.";
const INTRO_LEAGUE: &str = "Choose a winner for any game still to be played, with the loser's counted pawns and the game's time: the results are recorded on a copy of the league, in the schedule's order, and the table is shown with every split and tie of its cascade explained. Only games whose positions have been rolled can be entered. Nothing is stored.";
const INTRO_ROUND_ROBIN: &str = "Choose a winner or a draw for any game still to be played and, where results carry scores, the score in the order of the game's players (a win counts 1-0 and a draw 0-0 when no score is given; a score alone is enough): the results are recorded on a copy of the league and the table is shown with each place explained by its criterion. Nothing is stored.";
const INTRO_SUNJANG: &str = "Choose an outcome for any group game of the running season without a result: the results are recorded on a copy of the league and the group tables are shown; when every group game has a result, the season is closed on the copy and the next season is planned. Nothing is stored.";

fn ladder_form(l: &Ladder, id: &str, version: u64, now: arbiter_engine::model::Time) -> Form {
    let mut form = Form {
        name: l.name.clone(),
        version,
        parts: Vec::new(),
        nothing: None,
        winning_pawns: 0,
    };
    let Some(r) = l.open_round() else {
        form.nothing = Some("No round is running: there is no round to close.".into());
        return form;
    };
    let round = views::round_view(l, id, r, now);
    let games: Vec<FormGame> = round
        .games
        .iter()
        .filter(|g| g.status == "scheduled")
        .map(|g| FormGame {
            game: g.id.clone(),
            players: format!("{} (USSR) v {} (US)", g.ussr, g.us),
            field: g.id.clone(),
            choices: vec![
                no_result(),
                choice("ussr", format!("{} (USSR) wins", g.ussr)),
                choice("us", format!("{} (US) wins", g.us)),
                choice("tie", "Tie (the US advances, TWS-R11)".into()),
            ],
            extras: Vec::new(),
            label: g.id.clone(),
        })
        .collect();
    if games.is_empty() {
        form.nothing = Some(format!(
            "Every game of round {} has a result: the what-if has nothing to choose.",
            r.number
        ));
    } else {
        form.parts.push(FormPart {
            title: format!("Round {}", r.number),
            group: String::new(),
            games,
        });
    }
    form
}

fn league_form(l: &XmadnLeague, id: &str, version: u64) -> Form {
    let v = arbiter_service::xmadn::league_view(l, id, version);
    let winning_pawns = l.rules.rule_set.winning_pawns();
    let mut form = Form {
        name: l.name.clone(),
        version,
        parts: Vec::new(),
        nothing: None,
        winning_pawns,
    };
    for d in &v.drrs {
        let games: Vec<FormGame> = d
            .games
            .iter()
            .filter(|g| g.status == "scheduled")
            .map(|g| FormGame {
                // Fields are named by the league-wide id (`G10`): the
                // document's "Game 4" repeats in every DRR (ARB-R63).
                game: format!("{} ({})", g.stage, g.alias),
                players: format!("{} v {}", g.players[0], g.players[1]),
                field: format!("{}.winner", g.alias),
                choices: vec![
                    no_result(),
                    choice("1", format!("{} wins", g.players[0])),
                    choice("2", format!("{} wins", g.players[1])),
                ],
                extras: vec![
                    Extra {
                        name: format!("{}.pawns", g.alias),
                        label: "Loser's counted pawns".into(),
                        value: "0".into(),
                        kind: "number",
                        max: winning_pawns.saturating_sub(1),
                    },
                    Extra {
                        name: format!("{}.time", g.alias),
                        label: "Time (m:ss)".into(),
                        value: "30:00".into(),
                        kind: "text",
                        max: 0,
                    },
                ],
                label: g.alias.clone(),
            })
            .collect();
        if !games.is_empty() {
            form.parts.push(FormPart {
                title: format!("DRR {}", d.number),
                group: String::new(),
                games,
            });
        }
    }
    if form.parts.is_empty() {
        form.nothing = Some(
            "No game of a double round-robin is waiting for a result (the league is finished, or the next positions have not been rolled)."
                .into(),
        );
    }
    form
}

fn round_robin_form(rr: &RoundRobin, version: u64) -> Form {
    let mut form = Form {
        name: rr.name.clone(),
        version,
        parts: Vec::new(),
        nothing: None,
        winning_pawns: 0,
    };
    for round in &rr.rounds {
        let games: Vec<FormGame> = round
            .games
            .iter()
            .filter_map(|id| rr.game(*id))
            .filter(|g| rr.counted_score(g).is_none())
            .map(|g| {
                let (home, away) = (rr.name_of(g.home), rr.name_of(g.away));
                let label = format!("G{}", g.id);
                FormGame {
                    game: label.clone(),
                    players: format!("{home} v {away}"),
                    field: format!("{label}.result"),
                    choices: vec![
                        no_result(),
                        choice("home", format!("{home} wins")),
                        choice("draw", "Draw".into()),
                        choice("away", format!("{away} wins")),
                    ],
                    extras: if rr.rules.scores {
                        vec![Extra {
                            name: format!("{label}.score"),
                            label: "Score".into(),
                            value: String::new(),
                            kind: "text",
                            max: 0,
                        }]
                    } else {
                        Vec::new()
                    },
                    label,
                }
            })
            .collect();
        if !games.is_empty() {
            form.parts.push(FormPart {
                title: format!("Round {}", round.number),
                group: String::new(),
                games,
            });
        }
    }
    if form.parts.is_empty() {
        form.nothing = Some(if rr.started.is_none() {
            "Play has not started: the schedule is fixed at the start.".into()
        } else {
            "Every game has a result.".into()
        });
    }
    form
}

/// A round-robin game's hypothetical result from its select and its
/// score box: the score as the service reads it, home first.
fn round_robin_result(
    g: &FormGame,
    chosen: &str,
    score: Option<String>,
) -> Result<Option<String>, String> {
    let score = score.filter(|s| !s.is_empty());
    if let Some(s) = score {
        if s.chars().count() > 16 {
            return Err(bad(&format!("{}.score", g.label), "at most 16 characters"));
        }
        return Ok(Some(s));
    }
    let scored = !g.extras.is_empty();
    Ok(match (chosen, scored) {
        ("", _) => None,
        ("home", true) => Some("1-0".into()),
        ("draw", true) => Some("0-0".into()),
        ("away", true) => Some("0-1".into()),
        ("home", false) => Some("1-0".into()),
        ("draw", false) => Some("½-½".into()),
        _ => Some("0-1".into()),
    })
}

fn sunjang_form(l: &SunjangLeague, version: u64) -> Form {
    let mut form = Form {
        name: l.name.clone(),
        version,
        parts: Vec::new(),
        nothing: None,
        winning_pawns: 0,
    };
    let Some(current) = l.current().filter(|s| s.close.is_none()) else {
        form.nothing = Some("No season is running.".into());
        return form;
    };
    let season = season_view(l, current);
    for d in &season.divisions {
        for g in &d.groups {
            let games: Vec<FormGame> = g
                .pairings
                .iter()
                .filter(|p| p.result.is_none())
                .map(|p| FormGame {
                    game: format!("Round {}", p.round),
                    players: format!("{} (black) v {} (white)", p.black, p.white),
                    field: format!("{}-{}", p.black, p.white),
                    choices: vec![
                        no_result(),
                        choice("black", format!("{} (black) wins", p.black)),
                        choice("white", format!("{} (white) wins", p.white)),
                        choice("jigo", "Jigo".into()),
                        choice("black-forfeits", format!("{} forfeits", p.black)),
                        choice("white-forfeits", format!("{} forfeits", p.white)),
                        choice("both-forfeit", "Both forfeit".into()),
                    ],
                    extras: Vec::new(),
                    label: String::new(),
                })
                .collect();
            if !games.is_empty() {
                form.parts.push(FormPart {
                    title: format!("Season {}, group {}", season.number, g.id),
                    group: g.id.clone(),
                    games,
                });
            }
        }
    }
    if form.parts.is_empty() {
        form.nothing = Some(format!(
            "Every group game of season {} has a result.",
            season.number
        ));
    }
    form
}

/// A field the reader sent that the form cannot take.
fn bad(field: &str, why: &str) -> String {
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
    let winning = form.winning_pawns;
    for g in form.parts.iter_mut().flat_map(|p| &mut p.games) {
        for x in &mut g.extras {
            if let Some(v) = value(&x.name) {
                x.value = v;
            }
        }
        let chosen = value(&g.field).unwrap_or_default();
        if kind == Kind::RoundRobin && !g.choices.iter().any(|c| c.value == chosen) {
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
        }
        if kind == Kind::RoundRobin {
            if let Some(c) = g.choices.iter_mut().find(|c| c.value == chosen) {
                c.selected = true;
            }
            if let Some(r) = round_robin_result(g, &chosen, value(&format!("{}.score", g.label)))? {
                results.push((g.label.clone(), r));
            }
            continue;
        }
        if chosen.is_empty() {
            continue;
        }
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
        c.selected = true;
        if kind != Kind::XmadnLeague {
            results.push((g.field.clone(), chosen));
            continue;
        }
        let pawns_field = format!("{}.pawns", g.label);
        let time_field = format!("{}.time", g.label);
        let pawns_text = value(&pawns_field).unwrap_or_default();
        let loser = pawns_text
            .parse::<u8>()
            .ok()
            .filter(|p| *p < winning)
            .ok_or_else(|| {
                bad(
                    &pawns_field,
                    &format!(
                        "give the loser's counted pawns, 0 to {} (XM-R9)",
                        winning.saturating_sub(1)
                    ),
                )
            })?;
        let time = value(&time_field).unwrap_or_default();
        if parse_time(&time).is_none_or(|s| s == 0) {
            return Err(bad(
                &time_field,
                "give the game's time as minutes and seconds, e.g. 31:20",
            ));
        }
        let pawns = if chosen == "1" {
            format!("{winning}-{loser}")
        } else {
            format!("{loser}-{winning}")
        };
        results.push((g.label.clone(), format!("{pawns}@{time}")));
    }
    Ok(results)
}

fn ladder_after(v: WhatIfView) -> LadderAfter {
    let mut moves: Vec<MoveRow> = v
        .close
        .iter()
        .flat_map(|c| c.moves.iter())
        .map(|m| MoveRow {
            to: m.to,
            name: m.name.clone(),
            from: m.from,
            change: m.change.clone(),
            explanation: m.explanation.clone(),
        })
        .collect();
    // The ladder after the close, top to bottom; the inactive list last.
    moves.sort_by_key(|m| (m.to == 0, m.to));
    LadderAfter {
        close: v.close,
        moves,
        possible: v.possible,
    }
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
    let mut form = match kind {
        Kind::TwsLadder => {
            state
                .service
                .read_as::<Ladder, _>(&id, |l, v| ladder_form(l, &id, v, now))
                .await?
        }
        Kind::XmadnLeague => {
            state
                .service
                .read_as::<XmadnLeague, _>(&id, |l, v| league_form(l, &id, v))
                .await?
        }
        Kind::SunjangLeague => {
            state
                .service
                .read_as::<SunjangLeague, _>(&id, sunjang_form)
                .await?
        }
        Kind::RoundRobin => {
            state
                .service
                .read_as::<RoundRobin, _>(&id, round_robin_form)
                .await?
        }
        // A format without what-if (`Offers::what_if`) has no page.
        _ => return Err(not_found_page()),
    };
    let intro = match kind {
        Kind::TwsLadder => INTRO_LADDER,
        Kind::XmadnLeague => INTRO_LEAGUE,
        Kind::RoundRobin => INTRO_ROUND_ROBIN,
        _ => INTRO_SUNJANG,
    };
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
        ladder: None,
        league: None,
        sunjang: None,
        roundrobin: None,
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
                    match (*v).clone() {
                        AnyWhatIfView::Ladder(v) => {
                            page.results = v.results.clone();
                            page.ladder = Some(ladder_after(*v));
                        }
                        AnyWhatIfView::League(v) => {
                            page.results = v.results.clone();
                            let mut league = v.league;
                            league.phase =
                                crate::formats::xmadn::pages::phase_for_the_web(&league.phase);
                            page.league = Some(league);
                        }
                        AnyWhatIfView::Sunjang(v) => {
                            page.results = v.results.clone();
                            page.sunjang = Some(*v);
                        }
                        AnyWhatIfView::RoundRobin(v) => {
                            page.results = v.results.clone();
                            page.roundrobin = Some(v.league);
                        }
                    }
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
