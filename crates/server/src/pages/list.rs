//! `GET /`: every competition, with its format, members and version.

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
        let kind = crate::pages::kind_of(&state, &id).await?;
        let (name, members, version, status) = arbiter_service::with_format!(kind, |F| {
            svc.read_as::<F, _>(&id, |c, v| {
                let (members, status) = <F as crate::formats::WebFormat>::list_line(c);
                (c.title().to_string(), members, v, status)
            })
            .await?
        });
        rows.push(Row {
            id,
            name,
            format: crate::pages::kind_words(kind),
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
