//! `GET /`: every competition as a card, with its format, where it
//! stands, who leads it, its members and version.

use askama::Template;
use axum::extract::State;
use axum::response::Response;

use super::{Chrome, PageError, render};
use crate::AppState;

/// A line of the list.
#[derive(Debug)]
struct Row {
    id: String,
    name: String,
    format: &'static str,
    /// The format's id, for the card's colour ("tws-ladder").
    format_id: &'static str,
    members: usize,
    version: u64,
    /// Where it stands, in words.
    status: String,
    /// Who leads it: what he is and his name, with his page.
    leader: Option<Leader>,
}

/// The leader on a card.
#[derive(Debug)]
struct Leader {
    what: &'static str,
    name: String,
    href: Option<String>,
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
        let kind = crate::pages::kind_of(&state, &id).await?;
        let (name, format_id, members, version, status, leader) =
            arbiter_service::with_format!(kind, |F| {
                svc.read_as::<F, _>(&id, |c, v| {
                    use crate::formats::WebFormat;
                    let (members, status) = <F as WebFormat>::list_line(c);
                    let leader = <F as WebFormat>::leader(c).map(|(what, name)| Leader {
                        what,
                        href: <F as WebFormat>::player_links(c, &id)
                            .href(&name)
                            .map(str::to_string),
                        name,
                    });
                    (
                        c.title().to_string(),
                        <F as arbiter_service::Format>::ID,
                        members,
                        v,
                        status,
                        leader,
                    )
                })
                .await?
            });
        rows.push(Row {
            id,
            name,
            format: crate::pages::kind_words(kind),
            format_id,
            members,
            version,
            status,
            leader,
        });
    }
    render(&IndexPage {
        chrome: Chrome::new("Competitions"),
        rows,
    })
}
