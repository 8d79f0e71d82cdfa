//! The XMadn Double-Threat pages: a league (table, double round-robins,
//! playoff, rolls) and a Challengers event (standings, games, next game).

use arbiter_engine::xmadn::challengers::Challengers;
use arbiter_engine::xmadn::league::League;
use arbiter_service::xmadn::{ChallengersView, LeagueView, challengers_view, league_view};
use askama::Template;
use axum::response::Response;

use crate::AppState;
use crate::pages::{Chrome, Kind, PageError, render};

/// The league's phase in words, without the CLI command it suggests.
pub(crate) fn phase_for_the_web(phase: &str) -> String {
    phase.replace(" (`league roll`)", "")
}

#[derive(Debug, Template)]
#[template(path = "league.html")]
struct LeaguePage {
    chrome: Chrome,
    v: LeagueView,
}

/// `GET /c/{id}` for an XMadn league.
pub(crate) async fn league(state: &AppState, id: &str) -> Result<Response, PageError> {
    let mut v = state
        .service
        .read_as::<League, _>(id, |l, version| league_view(l, id, version))
        .await?;
    v.phase = phase_for_the_web(&v.phase);
    render(&LeaguePage {
        chrome: Chrome::competition(
            v.name.clone(),
            id,
            &v.name,
            Kind::XmadnLeague,
            &format!("/c/{id}"),
        ),
        v,
    })
}

#[derive(Debug, Template)]
#[template(path = "challengers.html")]
struct ChallengersPage {
    chrome: Chrome,
    v: ChallengersView,
}

/// `GET /c/{id}` for an XMadn Challengers event.
pub(crate) async fn challengers(state: &AppState, id: &str) -> Result<Response, PageError> {
    let v = state
        .service
        .read_as::<Challengers, _>(id, |c, version| challengers_view(c, id, version))
        .await?;
    render(&ChallengersPage {
        chrome: Chrome::competition(
            v.name.clone(),
            id,
            &v.name,
            Kind::XmadnChallengers,
            &format!("/c/{id}"),
        ),
        v,
    })
}
