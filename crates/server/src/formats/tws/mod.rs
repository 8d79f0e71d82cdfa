//! The Twilight Struggle ladder: its pages ([`pages`]: the ladder, a
//! round, a player, the statistics), its desk ([`desk`]: `/c/{id}/manage`
//! and the forms it posts to `/c/{id}/act`) and its actions ([`actions`]).

pub mod actions;
mod api;
pub(crate) mod desk;
pub(crate) mod pages;
pub(crate) mod rules;
pub(crate) mod what_if;

use axum::response::Response;

use crate::AppState;
use crate::api::competitions::CompetitionView;
use crate::api::write::{ActionAnswer, need_version, parse_action};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::formats::{Creation, NewPage, WebFormat};
use crate::pages::PageError;
use crate::pages::desk::Notice;
use axum::body::Bytes;

use arbiter_engine::tws::Ladder;

impl WebFormat for Ladder {
    type ApiView = arbiter_service::views::LadderView;
    type Action = actions::LadderAction;
    const WORDS: &'static str = "Twilight Struggle ladder";
    const PROJECTS_ROUNDS: bool = true;
    const RATED: &'static str = "ladder, eliminator and quick-round games with a result; forfeits are not rated and a tie is a tie (ARB-R46)";
    const NEW: NewPage = NewPage {
        title: "ladder",
        noun: "ladder",
        about: "A Twilight Struggle ladder: players join and are approved; rounds pair neighbours on the ladder.",
        players: None,
        first_to: false,
    };

    async fn create(
        state: &AppState,
        caller: &Caller,
        c: &Creation,
    ) -> Result<arbiter_store::Seq, ApiError> {
        c.takes::<Self>(&[])?;
        actions::create_ladder(
            state,
            caller,
            &c.id,
            &c.name,
            c.rules.as_deref(),
            c.key.clone(),
        )
        .await
    }

    fn waiting_for(
        &self,
        id: &str,
        me: arbiter_engine::model::PlayerId,
    ) -> Vec<crate::pages::viewer::Waiting> {
        // His opponent's reports, which he confirms or disputes (ARB-R45).
        self.games
            .iter()
            .filter(|g| g.has_player(me))
            .filter_map(|g| {
                let report = g.report.as_ref().filter(|r| r.by != me)?;
                let game = g.id.to_string();
                Some(crate::pages::viewer::Waiting {
                    kind: crate::pages::viewer::WaitingKind::Report,
                    text: format!(
                        "{} reported the result of {game} ({}, {}): confirm or dispute it",
                        self.name_of(report.by),
                        self.game_name(g),
                        self.name
                    ),
                    short: "1 report to confirm".to_string(),
                    href: format!("/c/{id}/manage"),
                    competition: self.name.clone(),
                    act: None,
                })
            })
            .collect()
    }
    async fn player_page(
        state: &AppState,
        _caller: &Caller,
        id: &str,
        player: &str,
    ) -> Result<Response, PageError> {
        pages::player(state.clone(), id.to_string(), player.to_string()).await
    }
    fn player_links(&self, id: &str) -> crate::pages::players::PlayerLinks {
        crate::pages::players::PlayerLinks::from_hrefs(self.search_players(id))
    }
    fn player_index(&self, id: &str) -> Vec<crate::pages::players_index::IndexLine> {
        pages::index(self, id)
    }
    fn search_players(&self, id: &str) -> Vec<(String, String)> {
        // Every player the ladder has known (members, the inactive list,
        // applicants) has his own page.
        self.players
            .iter()
            .map(|p| {
                let name = p.player.name.clone();
                let href = format!("/c/{id}/players/{}", crate::pages::path_segment(&name));
                (name, href)
            })
            .collect()
    }
    fn list_line(&self) -> (usize, String) {
        let status = match (self.open_round(), self.last_round()) {
            (Some(r), _) => format!("round {} running", r.number),
            (None, Some(r)) => format!("round {} closed", r.number),
            (None, None) => "no round yet".to_string(),
        };
        (self.order.len(), status)
    }
    fn leader(&self) -> Option<(&'static str, String)> {
        self.order.first().map(|p| ("On rung 1", self.name_of(*p)))
    }
    fn api_view(&self, id: &str, version: u64) -> CompetitionView {
        CompetitionView::TwsLadder(arbiter_service::views::ladder_view(self, id, version))
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
        desk::ladder_desk(state, caller, id, done, stale).await
    }
    async fn desk_act(state: &AppState, caller: &Caller, id: &str, body: &Bytes) -> Response {
        desk::act(state, caller, id, body).await
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
        need_version(expected, action.is_preview())?;
        Ok(ActionAnswer::Ladder(Box::new(
            actions::run_ladder(state, caller, id, action, expected, key).await?,
        )))
    }
    fn api_routes() -> axum::Router<AppState> {
        api::routes()
    }
    fn api_doc() -> utoipa::openapi::OpenApi {
        <api::Doc as utoipa::OpenApi>::openapi()
    }
}
