//! The XMadn league's what-if form (`/c/{id}/what-if`): each scheduled
//! game of the double round-robins with a winner, the loser's counted pawns
//! and the game's time (XM-R9); the table with its cascade explanations.
//! A Challengers event has no what-if.

use arbiter_engine::model::Time;
use arbiter_engine::xmadn::challengers::Challengers;
use arbiter_engine::xmadn::league::League as XmadnLeague;
use arbiter_engine::xmadn::parse_time;

use crate::pages::what_if::{Extra, Form, FormGame, FormPart, WhatIfForm, bad, choice, no_result};
use askama::Template;

use crate::pages::PageError;

impl WhatIfForm for XmadnLeague {
    const INTRO: &'static str = "Choose a winner for any game still to be played, with the loser's counted pawns and the game's time: the results are recorded on a copy of the league, in the schedule's order, and the table is shown with every split and tie of its cascade explained. Only games whose positions have been rolled can be entered. Nothing is stored.";
    fn form(&self, id: &str, version: u64, _now: Time) -> Form {
        league_form(self, id, version)
    }
    /// `PAWNS@TIME` in the order of the game's players, from the winner
    /// chosen, the loser's counted pawns and the time.
    fn result(
        form: &Form,
        g: &FormGame,
        chosen: &str,
        value: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Option<(String, String)>, String> {
        if chosen.is_empty() {
            return Ok(None);
        }
        let winning = form.winning_pawns;
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
        Ok(Some((g.label.clone(), format!("{pawns}@{time}"))))
    }
    /// The table after the results, with its cascade explanations.
    fn outcome(
        view: &arbiter_service::what_if::LeagueWhatIfView,
        _parts: &[FormPart],
        links: &crate::pages::players::PlayerLinks,
    ) -> Result<String, PageError> {
        let mut v = view.league.clone();
        v.phase = super::pages::phase_for_the_web(&v.phase);
        Ok(LeagueOutcome {
            v,
            links: links.clone(),
        }
        .render()?)
    }
}

/// A Challengers event offers no what-if (`Offers::what_if`): the page is
/// not served for it, and these defaults are never asked.
impl WhatIfForm for Challengers {}

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

#[derive(Debug, Template)]
#[template(path = "what_if_league.html")]
struct LeagueOutcome {
    v: arbiter_service::xmadn::LeagueView,
    /// Every player's page.
    links: crate::pages::players::PlayerLinks,
}
