//! The Sunjang league: its pages ([`pages`]: the league and its seasons),
//! its desk ([`desk`]) and its actions ([`actions`]).

pub mod actions;
mod api;
pub(crate) mod desk;
pub(crate) mod pages;
pub(crate) mod what_if;

use axum::response::Response;

use crate::AppState;
use crate::api::competitions::CompetitionView;
use crate::api::write::{ActionAnswer, need_version, parse_action};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::formats::{Creation, NewPage, WebFormat};
use crate::pages::desk::{DeskFilter, Notice, refused};
use crate::pages::{Kind, PageError};
use axum::body::Bytes;

use arbiter_engine::sunjang::season::League;

impl WebFormat for League {
    type ApiView = arbiter_service::sunjang::SunjangView;
    type Action = actions::SunjangAction;
    const WORDS: &'static str = "Sunjang league";
    const NEW: NewPage = NewPage {
        title: "Sunjang league",
        noun: "league",
        about: "A Sunjang Baduk league: players register with rank and rating; seasons are planned into divisions and groups.",
        players: None,
        first_to: false,
    };

    async fn create(
        state: &AppState,
        caller: &Caller,
        c: &Creation,
    ) -> Result<arbiter_store::Seq, ApiError> {
        c.takes::<Self>(&[])?;
        actions::create_sunjang(
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
        // His opponent's reports of his group games, which he confirms or
        // disputes (ARB-R45, ARB-R81), on his own page.
        self.reports
            .iter()
            .filter(|((b, w), r)| r.by != me && (*b == me || *w == me))
            .map(|((b, w), r)| crate::pages::viewer::Waiting {
                kind: crate::pages::viewer::WaitingKind::Report,
                text: format!(
                    "{} reported {} ({}): confirm or dispute it",
                    self.name_of(r.by),
                    self.report_ref(*b, *w),
                    self.name
                ),
                short: "1 report to confirm".to_string(),
                href: format!("/c/{id}/players/{}#reports", me.0),
                competition: self.name.clone(),
                act: Some(crate::pages::viewer::WaitingAct {
                    competition: id.to_string(),
                    version: 0,
                    confirm: "confirm-result",
                    dispute: "dispute-report",
                    hidden: vec![
                        ("black".into(), self.name_of(*b)),
                        ("white".into(), self.name_of(*w)),
                    ],
                    back: format!("/c/{id}/players/{}", me.0),
                }),
            })
            .collect()
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
        // Withdrawn players too: their seasons are still on the pages.
        // Each player's page, by the number his registration gave him.
        self.players
            .iter()
            .enumerate()
            .map(|(i, p)| (p.name.clone(), format!("/c/{id}/players/{}", i + 1)))
            .collect()
    }
    fn list_line(&self) -> (usize, String) {
        let members = self.withdrawn.iter().filter(|w| !**w).count();
        let status = match self.current() {
            Some(s) if s.close.is_some() => format!("season {} closed", s.number()),
            Some(s) => format!("season {} running", s.number()),
            None => "no season yet".to_string(),
        };
        (members, status)
    }
    fn leader(&self) -> Option<(&'static str, String)> {
        self.defending_champion()
            .map(|p| ("Defending champion", self.name_of(p)))
    }
    fn api_view(&self, id: &str, version: u64) -> CompetitionView {
        CompetitionView::SunjangLeague(arbiter_service::sunjang::sunjang_view(self, id, version))
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
        desk::desk(state, caller, id, done, stale, &DeskFilter::default()).await
    }
    async fn desk_filtered(
        state: &AppState,
        caller: &Caller,
        id: &str,
        done: Option<&str>,
        notice: Option<Notice>,
        filter: &DeskFilter,
    ) -> Result<Response, ApiError> {
        desk::desk(state, caller, id, done, notice, filter).await
    }
    async fn desk_act(state: &AppState, caller: &Caller, id: &str, body: &Bytes) -> Response {
        match desk::act(state, caller, id, body).await {
            Ok(r) => r,
            Err(e) => refused(state, caller, id, Kind::SunjangLeague, body, e).await,
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
        need_version(expected, action.is_preview())?;
        Ok(ActionAnswer::Other(Box::new(
            actions::run_sunjang(state, caller, id, action, expected, key).await?,
        )))
    }
    fn api_routes() -> axum::Router<AppState> {
        api::routes()
    }
    fn api_doc() -> utoipa::openapi::OpenApi {
        <api::Doc as utoipa::OpenApi>::openapi()
    }
}
