//! `GET /`: every competition, with its format, members and version.

use arbiter_engine::sunjang::season::League as SunjangLeague;
use arbiter_engine::tws::Ladder;
use arbiter_engine::xmadn::challengers::Challengers;
use arbiter_engine::xmadn::league::League;
use askama::Template;
use axum::extract::State;
use axum::response::Response;

use super::{Chrome, Kind, PageError, render};
use crate::AppState;

/// A line of the list.
#[derive(Debug)]
struct Row {
    id: String,
    name: String,
    format: &'static str,
    members: usize,
    version: u64,
    /// Where it stands, in words.
    status: String,
}

#[derive(Debug, Template)]
#[template(path = "index.html")]
struct IndexPage {
    chrome: Chrome,
    rows: Vec<Row>,
}

pub(super) async fn index(State(state): State<AppState>) -> Result<Response, PageError> {
    let svc = &state.service;
    let mut rows = Vec::new();
    for id in svc.competitions().await? {
        let kind = Kind::of(&state, &id).await?;
        let (name, members, version, status) = match kind {
            Kind::Ladder => {
                svc.read_as::<Ladder, _>(&id, |l, v| {
                    let status = match (l.open_round(), l.last_round()) {
                        (Some(r), _) => format!("round {} running", r.number),
                        (None, Some(r)) => format!("round {} closed", r.number),
                        (None, None) => "no round yet".to_string(),
                    };
                    (l.name.clone(), l.order.len(), v, status)
                })
                .await?
            }
            Kind::League => {
                svc.read_as::<League, _>(&id, |l, v| {
                    (
                        l.name.clone(),
                        l.players.len(),
                        v,
                        crate::formats::xmadn::pages::phase_for_the_web(
                            &arbiter_service::xmadn::phase_words(l),
                        ),
                    )
                })
                .await?
            }
            Kind::Challengers => {
                svc.read_as::<Challengers, _>(&id, |c, v| {
                    let status = match c.champion() {
                        Some(p) => format!("finished: {} is champion", c.name_of(p)),
                        None => {
                            format!("{} played", super::plural(c.games().len(), "game", "games"))
                        }
                    };
                    (c.name.clone(), c.players.len(), v, status)
                })
                .await?
            }
            Kind::Sunjang => {
                svc.read_as::<SunjangLeague, _>(&id, |l, v| {
                    let members = l.withdrawn.iter().filter(|w| !**w).count();
                    let status = match l.current() {
                        Some(s) if s.close.is_some() => format!("season {} closed", s.number()),
                        Some(s) => format!("season {} running", s.number()),
                        None => "no season yet".to_string(),
                    };
                    (l.name.clone(), members, v, status)
                })
                .await?
            }
        };
        rows.push(Row {
            id,
            name,
            format: kind.words(),
            members,
            version,
            status,
        });
    }
    render(&IndexPage {
        chrome: Chrome::new("Competitions"),
        rows,
    })
}
