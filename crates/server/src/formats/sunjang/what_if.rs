//! The Sunjang league's what-if form (`/c/{id}/what-if`): each group game
//! of the running season without a result with a choice of outcome; the
//! group tables and, when every game has a result, the next season's plan.

use arbiter_engine::model::Time;
use arbiter_engine::sunjang::season::League as SunjangLeague;
use arbiter_service::sunjang::season_view;

use crate::pages::what_if::{Form, FormGame, FormPart, WhatIfForm, choice, no_result};
use askama::Template;

use crate::pages::PageError;

impl WhatIfForm for SunjangLeague {
    const INTRO: &'static str = "Choose an outcome for any group game of the running season without a result: the results are recorded on a copy of the league and the group tables are shown; when every group game has a result, the season is closed on the copy and the next season is planned. Nothing is stored.";
    fn form(&self, _id: &str, version: u64, _now: Time) -> Form {
        sunjang_form(self, version)
    }
    /// The tables of the groups that had games left, and the next
    /// season's plan when every game has a result.
    fn outcome(
        view: &arbiter_service::what_if::SunjangWhatIfView,
        parts: &[FormPart],
        links: &crate::pages::players::PlayerLinks,
    ) -> Result<String, PageError> {
        Ok(Outcome {
            s: view.clone(),
            open: parts.iter().map(|p| p.group.clone()).collect(),
            links: links.clone(),
        }
        .render()?)
    }
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

#[derive(Debug, Template)]
#[template(path = "what_if_sunjang.html")]
struct Outcome {
    s: arbiter_service::what_if::SunjangWhatIfView,
    /// The groups that had games left before the hypothetical results:
    /// only their tables are shown after them.
    open: Vec<String>,
    /// Every player's page.
    links: crate::pages::players::PlayerLinks,
}

impl Outcome {
    fn open_group(&self, id: &str) -> bool {
        self.open.iter().any(|g| g == id)
    }
}
