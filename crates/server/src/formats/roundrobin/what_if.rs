//! The round-robin league's what-if form (`/c/{id}/what-if`, issue 16):
//! each game without a result with a winner or a draw and, where results
//! carry scores, the score (a win counts 1-0 and a draw 0-0 when none is
//! given); the table with each place explained (ARB-R67).

use arbiter_engine::model::Time;
use arbiter_engine::roundrobin::RoundRobin;

use crate::pages::what_if::{Extra, Form, FormGame, FormPart, WhatIfForm, bad, choice, no_result};
use askama::Template;

use crate::pages::PageError;

impl WhatIfForm for RoundRobin {
    const INTRO: &'static str = "Choose a winner or a draw for any game still to be played and, where results carry scores, the score in the order of the game's players (a win counts 1-0 and a draw 0-0 when no score is given; a score alone is enough): the results are recorded on a copy of the league and the table is shown with each place explained by its criterion. Nothing is stored.";
    fn form(&self, _id: &str, version: u64, _now: Time) -> Form {
        round_robin_form(self, version)
    }
    /// The score box's text when given, else the choice's canonical score.
    fn result(
        _form: &Form,
        g: &FormGame,
        chosen: &str,
        value: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Option<(String, String)>, String> {
        let score = value(&format!("{}.score", g.label));
        Ok(round_robin_result(g, chosen, score)?.map(|r| (g.label.clone(), r)))
    }
    /// The table after the results, each place explained.
    fn outcome(
        view: &arbiter_service::roundrobin::what_if::RoundRobinWhatIfView,
        _parts: &[FormPart],
        links: &crate::pages::players::PlayerLinks,
    ) -> Result<String, PageError> {
        Ok(Outcome {
            links: links.clone(),
            v: view.league.clone(),
        }
        .render()?)
    }
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

#[derive(Debug, Template)]
#[template(path = "what_if_roundrobin.html")]
struct Outcome {
    v: arbiter_service::roundrobin::RoundRobinView,
    links: crate::pages::players::PlayerLinks,
}
