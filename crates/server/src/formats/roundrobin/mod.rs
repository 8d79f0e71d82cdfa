//! The general round-robin league (issue 16): its page ([`pages`]), its
//! desk ([`desk`]) and its actions ([`actions`]), reached through the
//! registry ([`WebFormat`]).

pub mod actions;
pub(crate) mod desk;
pub(crate) mod pages;
pub(crate) mod what_if;

use arbiter_engine::model::PlayerId;
use arbiter_engine::roundrobin::RoundRobin;
use axum::body::Bytes;
use axum::response::Response;

use crate::AppState;
use crate::actions::common::Named;
use crate::api::competitions::CompetitionView;
use crate::api::write::{ActionAnswer, need_version, parse_action};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::formats::{Creation, NewPage, WebFormat};
use crate::pages::desk::{Notice, refused};
use crate::pages::{Kind, PageError};

impl Named for RoundRobin {
    fn player_name(&self, player: PlayerId) -> String {
        self.name_of(player)
    }
}

impl WebFormat for RoundRobin {
    type ApiView = arbiter_service::roundrobin::RoundRobinView;
    type Action = actions::RoundRobinAction;
    const WORDS: &'static str = "Round-robin league";
    const RATED: &'static str = "the league's games played over the board to a result, a score or a win, draw or loss between its two players; forfeits are not rated, nor margins (ARB-R70)";
    const NEW: NewPage = NewPage {
        title: "round-robin league",
        noun: "league",
        about: "A round robin of 2 to 64 players or teams: single, double or k-fold from the Berger tables, scores or win/draw/loss, points and tiebreaks as settings, each place explained.",
        players: Some((
            "The players or teams, one name per line (more can be added until the start)",
            false,
        )),
        first_to: false,
    };

    fn presets() -> Vec<(&'static str, &'static str)> {
        arbiter_record::roundrobin::PRESETS.to_vec()
    }

    async fn create(
        state: &AppState,
        caller: &Caller,
        c: &Creation,
    ) -> Result<arbiter_store::Seq, ApiError> {
        c.takes::<Self>(&["preset", "players"])?;
        actions::create(state, caller, c).await
    }

    async fn player_page(
        state: &AppState,
        caller: &Caller,
        id: &str,
        player: &str,
    ) -> Result<Response, PageError> {
        pages::player(state, caller, id, player).await
    }
    fn player_links(&self, id: &str) -> crate::pages::players::PlayerLinks {
        crate::pages::players::PlayerLinks::from_hrefs(self.search_players(id))
    }
    fn player_index(&self, id: &str) -> Vec<crate::pages::players_index::IndexLine> {
        pages::index(self, id)
    }
    fn search_players(&self, id: &str) -> Vec<(String, String)> {
        // Each entrant's page, by the number his entry gave him.
        self.entrants
            .iter()
            .enumerate()
            .map(|(i, e)| (e.name.clone(), format!("/c/{id}/players/{}", i + 1)))
            .collect()
    }
    fn list_line(&self) -> (usize, String) {
        let played = self
            .games
            .iter()
            .filter(|g| self.counted_score(g).is_some())
            .count();
        let status = match self.started {
            None => "not started".to_string(),
            Some(_) if self.is_finished() => "finished".to_string(),
            Some(_) => format!("{played} of {} games played", self.games.len()),
        };
        (self.entrants.len(), status)
    }
    fn leader(&self) -> Option<(&'static str, String)> {
        self.started?;
        let table = self.table();
        let first = table.rows.first()?;
        let word = if self.is_finished() {
            "Winner"
        } else {
            "Leads"
        };
        Some((word, first.line.name.clone()))
    }
    fn api_view(&self, id: &str, version: u64) -> CompetitionView {
        CompetitionView::RoundRobin(arbiter_service::roundrobin::round_robin_view(
            self, id, version,
        ))
    }
    async fn page(state: &AppState, id: &str) -> Result<Response, PageError> {
        pages::page(state, id).await
    }
    async fn desk(
        state: &AppState,
        caller: &Caller,
        id: &str,
        done: Option<&str>,
        stale: Option<Notice>,
    ) -> Result<Response, ApiError> {
        desk::desk(state, caller, id, done, stale).await
    }
    async fn desk_act(state: &AppState, caller: &Caller, id: &str, body: &Bytes) -> Response {
        match desk::act(state, caller, id, body).await {
            Ok(r) => r,
            Err(e) => refused(state, caller, id, Kind::RoundRobin, body, e).await,
        }
    }
    async fn act(
        state: &AppState,
        caller: &Caller,
        id: &str,
        body: &[u8],
        expected: Option<u64>,
        key: Option<String>,
    ) -> Result<ActionAnswer, ApiError> {
        let action: Self::Action = parse_action(body)?;
        need_version(expected, false)?;
        Ok(ActionAnswer::Other(Box::new(
            actions::run(state, caller, id, action, expected, key).await?,
        )))
    }
}
