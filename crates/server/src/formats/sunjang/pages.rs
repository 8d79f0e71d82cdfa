//! The Sunjang league's pages: the league with its current season (the
//! pyramid, each group's table and crosstable, placements), and any season
//! on its own page.

use arbiter_engine::sunjang::season::League;
use arbiter_service::sunjang::{SeasonView, SunjangPlayerView, season_view, sunjang_view};
use askama::Template;
use axum::extract::{Path, State};
use axum::response::Response;

use crate::AppState;
use crate::pages::{Chrome, Kind, PageError, not_found_page, number, render};

/// A season in the list of seasons.
#[derive(Debug)]
struct SeasonLink {
    number: u32,
    status: &'static str,
    champion: Option<String>,
}

fn season_links(seasons: &[SeasonView]) -> Vec<SeasonLink> {
    seasons
        .iter()
        .rev()
        .map(|v| SeasonLink {
            number: v.number,
            status: v.status,
            champion: v.final_round.as_ref().and_then(|f| f.champion.clone()),
        })
        .collect()
}

#[derive(Debug, Template)]
#[template(path = "sunjang.html")]
struct SunjangPage {
    chrome: Chrome,
    id: String,
    name: String,
    version: u64,
    defending_champion: Option<String>,
    season: Option<SeasonView>,
    seasons: Vec<SeasonLink>,
    players: Vec<SunjangPlayerView>,
}

/// `GET /c/{id}` for a Sunjang league.
pub(crate) async fn page(state: &AppState, id: &str) -> Result<Response, PageError> {
    let page = state
        .service
        .read_as::<League, _>(id, |l, version| {
            let mut v = sunjang_view(l, id, version);
            let seasons = season_links(&v.seasons);
            SunjangPage {
                chrome: Chrome::competition(
                    l.name.clone(),
                    id,
                    &l.name,
                    Kind::SunjangLeague,
                    &format!("/c/{id}"),
                ),
                id: id.to_string(),
                name: l.name.clone(),
                version,
                defending_champion: v.defending_champion,
                season: v.seasons.pop(),
                seasons,
                players: v.players,
            }
        })
        .await?;
    render(&page)
}

#[derive(Debug, Template)]
#[template(path = "season.html")]
struct SeasonPage {
    chrome: Chrome,
    id: String,
    name: String,
    season: SeasonView,
    last: u32,
}

/// `GET /c/{id}/seasons/{n}`: one season of a Sunjang league, as it was
/// planned and played.
pub(crate) async fn season(
    State(state): State<AppState>,
    Path((id, n)): Path<(String, String)>,
) -> Result<Response, PageError> {
    if crate::pages::kind_of(&state, &id).await? != Kind::SunjangLeague {
        return Err(not_found_page());
    }
    let n = number(&n)?;
    let page = state
        .service
        .read_as::<League, _>(&id, |l, _| {
            let s = l.seasons.get(n as usize - 1)?;
            Some(SeasonPage {
                chrome: Chrome::competition(
                    format!("Season {n} of {}", l.name),
                    &id,
                    &l.name,
                    Kind::SunjangLeague,
                    "",
                ),
                id: id.clone(),
                name: l.name.clone(),
                season: season_view(l, s),
                last: l.seasons.len() as u32,
            })
        })
        .await?
        .ok_or_else(not_found_page)?;
    render(&page)
}
