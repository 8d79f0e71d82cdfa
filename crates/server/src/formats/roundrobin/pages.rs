//! The round-robin league's page: the table with every place explained,
//! the rounds and their games, the lots drawn.

use arbiter_engine::roundrobin::RoundRobin;
use arbiter_service::roundrobin::{RoundRobinView, round_robin_view};
use askama::Template;
use axum::response::Response;

use crate::AppState;
use crate::pages::{Chrome, Kind, PageError, render};

#[derive(Debug, Template)]
#[template(path = "roundrobin.html")]
struct RoundRobinPage {
    chrome: Chrome,
    v: RoundRobinView,
}

/// `GET /c/{id}` for a round-robin league.
pub(crate) async fn page(state: &AppState, id: &str) -> Result<Response, PageError> {
    let v = state
        .service
        .read_as::<RoundRobin, _>(id, |rr, version| round_robin_view(rr, id, version))
        .await?;
    render(&RoundRobinPage {
        chrome: Chrome::competition(
            v.name.clone(),
            id,
            &v.name,
            Kind::RoundRobin,
            &format!("/c/{id}"),
        ),
        v,
    })
}
