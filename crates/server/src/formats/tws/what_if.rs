//! The ladder's what-if form (`/c/{id}/what-if`): each undecided game of
//! the running round with a choice of outcome; the ladder after the round
//! closes, each move with its rule (`arbiter_service::insight`).

use arbiter_engine::model::Time;
use arbiter_engine::tws::Ladder;
use arbiter_service::views;

use crate::pages::what_if::{Form, FormGame, FormPart, WhatIfForm, choice, no_result};
use arbiter_service::insight::{PossibleView, WhatIfView};
use arbiter_service::views::{CloseView, ExplanationView};
use askama::Template;

use crate::pages::PageError;

impl WhatIfForm for Ladder {
    const INTRO: &'static str = "Choose an outcome for any undecided game of the running round: the round is closed on a copy of the ladder with those results, through the ladder's own rules, and the ladder after the close is shown with each move's rule. Games left without a result stay undecided: the round cannot close then, and each player's best and worst rung at the close is shown instead, over every outcome of those games. Nothing is stored.";
    fn form(&self, id: &str, version: u64, now: Time) -> Form {
        ladder_form(self, id, version, now)
    }
    /// The ladder after the close, each move with its rule; or, with games
    /// still undecided, the rungs still possible (issue 15, item 5).
    fn outcome(
        view: &WhatIfView,
        _parts: &[FormPart],
        _links: &crate::pages::players::PlayerLinks,
    ) -> Result<String, PageError> {
        Ok(Outcome {
            a: ladder_after(view.clone()),
        }
        .render()?)
    }
}

fn ladder_form(l: &Ladder, id: &str, version: u64, now: Time) -> Form {
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

#[derive(Debug, Template)]
#[template(path = "what_if_ladder.html")]
struct Outcome {
    a: LadderAfter,
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
