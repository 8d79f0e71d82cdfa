//! `GET /stats`: the statistics of every TWS ladder of the installation
//! together, with the same charts as a ladder's own statistics page.

use arbiter_service::installation::InstallationStatsView;
use arbiter_service::views::{LabelledTally, TallyView};
use askama::Template;
use axum::extract::State;
use axum::response::Response;

use super::svg::{self, Bar, Svg};
use super::{Chrome, PageError, render};
use crate::AppState;

/// A line of the results-by-side table.
#[derive(Debug)]
struct TallyLine {
    label: String,
    t: TallyView,
}

/// One section of labelled tallies (by bid, by ending, by length).
#[derive(Debug)]
struct Section {
    id: &'static str,
    title: &'static str,
    head: &'static str,
    rows: Vec<LabelledTally>,
    chart: Svg,
}

#[derive(Debug, Template)]
#[template(path = "installation_stats.html")]
struct InstallationStatsPage {
    chrome: Chrome,
    s: InstallationStatsView,
    sides: Vec<TallyLine>,
    sides_chart: Svg,
    sections: Vec<Section>,
}

fn tally_bar(label: &str, t: &TallyView) -> Bar {
    Bar {
        label: label.to_string(),
        segments: vec![
            (t.ussr_wins, svg::USSR, "USSR wins"),
            (t.us_wins, svg::US, "US wins"),
            (t.ties, svg::TIE, "ties"),
        ],
    }
}

fn section(
    id: &'static str,
    title: &'static str,
    head: &'static str,
    desc: &str,
    rows: Vec<LabelledTally>,
) -> Section {
    let chart = svg::bar_chart(
        id,
        title,
        desc,
        &rows
            .iter()
            .map(|l| tally_bar(&l.label, &l.tally))
            .collect::<Vec<_>>(),
    );
    Section {
        id,
        title,
        head,
        rows,
        chart,
    }
}

/// `GET /stats`: results by side, by bid, by how games ended and by game
/// length, and every player's record, over every ladder.
pub(super) async fn stats(State(state): State<AppState>) -> Result<Response, PageError> {
    let s = state.service.installation_stats().await?;
    let sides = vec![
        TallyLine {
            label: "Ladder games".into(),
            t: s.ladder_games.clone(),
        },
        TallyLine {
            label: "Quick-round games".into(),
            t: s.quick_round_games.clone(),
        },
        TallyLine {
            label: "All games".into(),
            t: s.all_games.clone(),
        },
    ];
    let sides_chart = svg::bar_chart(
        "by-side",
        "Results by side",
        &format!(
            "Of {} games with a result on every ladder, the USSR won {}, the US won {} and {} were ties.",
            s.all_games.games, s.all_games.ussr_wins, s.all_games.us_wins, s.all_games.ties
        ),
        &sides
            .iter()
            .map(|l| tally_bar(&l.label, &l.t))
            .collect::<Vec<_>>(),
    );
    let sections = vec![
        section(
            "by-bid",
            "Results by bid",
            "Bid",
            "Wins of each side and ties for each bid played.",
            s.by_bid.clone(),
        ),
        section(
            "by-end",
            "How games ended",
            "Ended by",
            "Wins of each side and ties for each way a game ended.",
            s.by_end.clone(),
        ),
        section(
            "by-turn",
            "Game lengths",
            "Ended in",
            "Wins of each side and ties by the turn a game ended in, for the games whose result gives it.",
            s.by_turn.clone(),
        ),
    ];
    render(&InstallationStatsPage {
        chrome: Chrome::new("Statistics of every ladder"),
        s,
        sides,
        sides_chart,
        sections,
    })
}
