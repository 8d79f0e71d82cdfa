//! The XMadn league and the XMadn Challengers event: their pages
//! ([`pages`]), their desks ([`desk`]) and their actions ([`actions`]).

pub mod actions;
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
use crate::pages::desk::{Notice, refused};
use crate::pages::{Kind, PageError};
use axum::body::Bytes;

use arbiter_engine::xmadn::challengers::Challengers;
use arbiter_engine::xmadn::league::League;

impl WebFormat for League {
    type ApiView = arbiter_service::xmadn::LeagueView;
    type Action = actions::LeagueAction;
    const WORDS: &'static str = "XMadn league";
    const RATED: &'static str = "the league's games played to a result, round robin and playoff; each a win and a loss between its two players, margins and times not rated (ARB-R49)";
    // ARB-R49: a league's rating period is its double round-robin or
    // playoff round.
    const PERIOD: &'static str = "period";
    const NEW: NewPage = NewPage {
        title: "XMadn league",
        noun: "league",
        about: "An XMadn Double-Threat league of three players: double round-robins with rolled positions, then the playoff.",
        players: Some(("The three players, one name per line", true)),
        first_to: false,
    };

    async fn create(
        state: &AppState,
        caller: &Caller,
        c: &Creation,
    ) -> Result<arbiter_store::Seq, ApiError> {
        c.takes::<Self>(&["players"])?;
        actions::create_league(
            state,
            caller,
            &c.id,
            &c.name,
            &c.player_names(),
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
        // His opponent's reports, which he confirms or disputes (ARB-R45,
        // ARB-R81), on his own page.
        self.reports
            .iter()
            .filter(|(g, r)| {
                r.by != me
                    && self
                        .reportable_players(**g)
                        .is_some_and(|p| p.contains(&me))
            })
            .map(|(g, r)| crate::pages::viewer::Waiting {
                kind: crate::pages::viewer::WaitingKind::Report,
                text: format!(
                    "{} reported the result of {} ({}): confirm or dispute it",
                    self.name_of(r.by),
                    self.report_ref(*g),
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
                    hidden: vec![("game".into(), g.to_string())],
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
        pages::league_player(state, caller, id, player).await
    }
    fn player_links(&self, id: &str) -> crate::pages::players::PlayerLinks {
        crate::pages::players::PlayerLinks::from_hrefs(self.search_players(id))
    }
    fn player_index(&self, id: &str) -> Vec<crate::pages::players_index::IndexLine> {
        pages::league_index(self, id)
    }
    fn search_players(&self, id: &str) -> Vec<(String, String)> {
        // Each player's page, by the number his creation gave him.
        self.players
            .iter()
            .enumerate()
            .map(|(i, name)| (name.clone(), format!("/c/{id}/players/{}", i + 1)))
            .collect()
    }
    fn list_line(&self) -> (usize, String) {
        (
            self.players.len(),
            pages::phase_for_the_web(&arbiter_service::xmadn::phase_words(self)),
        )
    }
    fn leader(&self) -> Option<(&'static str, String)> {
        if let Some(p) = self.champion() {
            return Some(("Champion", self.name_of(p)));
        }
        if self.games.iter().all(|g| !g.is_resolved()) {
            return None;
        }
        let table = arbiter_engine::xmadn::table::Table::of(self);
        let first = *table.ranking.order.first()?;
        Some(("Leads the table", self.name_of(first)))
    }
    fn api_view(&self, id: &str, version: u64) -> CompetitionView {
        CompetitionView::XmadnLeague(arbiter_service::xmadn::league_view(self, id, version))
    }
    async fn page(state: &AppState, id: &str) -> Result<Response, PageError> {
        pages::league(state, id).await
    }
    async fn desk(
        state: &AppState,
        caller: &Caller,
        id: &str,
        done: Option<&str>,
        stale: Option<Notice>,
    ) -> Result<Response, ApiError> {
        desk::league_desk(state, caller, id, done, stale).await
    }
    async fn desk_act(state: &AppState, caller: &Caller, id: &str, body: &Bytes) -> Response {
        match desk::act(state, caller, id, Kind::XmadnLeague, body).await {
            Ok(r) => r,
            Err(e) => refused(state, caller, id, Kind::XmadnLeague, body, e).await,
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
            actions::run_league(state, caller, id, action, expected, key).await?,
        )))
    }
}

impl WebFormat for Challengers {
    type ApiView = arbiter_service::xmadn::ChallengersView;
    type Action = actions::ChallengersAction;
    const WORDS: &'static str = "XMadn Challengers";
    const NEW: NewPage = NewPage {
        title: "XMadn Challengers event",
        noun: "event",
        about: "An XMadn Challengers event: Game 0 for three players, then winner stays, first to x wins.",
        players: Some(("The players, one name per line", true)),
        first_to: true,
    };

    async fn create(
        state: &AppState,
        caller: &Caller,
        c: &Creation,
    ) -> Result<arbiter_store::Seq, ApiError> {
        c.takes::<Self>(&["players", "first_to"])?;
        actions::create_challengers(
            state,
            caller,
            &c.id,
            &c.name,
            &c.player_names(),
            c.first_to,
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
        // His opponent's report of the game at the board (ARB-R45,
        // ARB-R81), on his own page.
        let at_board = self.board().is_some_and(|b| b.has(me));
        self.pending_report()
            .filter(|(_, r)| r.by != me && at_board)
            .map(|(n, r)| crate::pages::viewer::Waiting {
                kind: crate::pages::viewer::WaitingKind::Report,
                text: format!(
                    "{} reported Game {n} ({}): confirm or dispute it",
                    self.name_of(r.by),
                    self.name
                ),
                short: "1 report to confirm".to_string(),
                href: format!("/c/{id}/players/{}#reports", me.0),
                competition: self.name.clone(),
                act: Some(crate::pages::viewer::WaitingAct {
                    competition: id.to_string(),
                    version: 0,
                    confirm: "confirm-game",
                    dispute: "dispute-report",
                    hidden: Vec::new(),
                    back: format!("/c/{id}/players/{}", me.0),
                }),
            })
            .into_iter()
            .collect()
    }
    async fn player_page(
        state: &AppState,
        caller: &Caller,
        id: &str,
        player: &str,
    ) -> Result<Response, PageError> {
        pages::challengers_player(state, caller, id, player).await
    }
    fn player_links(&self, id: &str) -> crate::pages::players::PlayerLinks {
        crate::pages::players::PlayerLinks::from_hrefs(self.search_players(id))
    }
    fn player_index(&self, id: &str) -> Vec<crate::pages::players_index::IndexLine> {
        pages::challengers_index(self, id)
    }
    fn search_players(&self, id: &str) -> Vec<(String, String)> {
        // Each player's page, by the number his creation gave him.
        self.players
            .iter()
            .enumerate()
            .map(|(i, name)| (name.clone(), format!("/c/{id}/players/{}", i + 1)))
            .collect()
    }
    fn list_line(&self) -> (usize, String) {
        let status = match self.champion() {
            Some(p) => format!("finished: {} is champion", self.name_of(p)),
            None => format!(
                "{} played",
                crate::pages::plural(self.games().len(), "game", "games")
            ),
        };
        (self.players.len(), status)
    }
    fn leader(&self) -> Option<(&'static str, String)> {
        if let Some(p) = self.champion() {
            return Some(("Champion", self.name_of(p)));
        }
        if self.games().is_empty() {
            return None;
        }
        let first = self.standings().into_iter().next()?;
        Some(("Leads", self.name_of(first.player)))
    }
    fn api_view(&self, id: &str, version: u64) -> CompetitionView {
        CompetitionView::XmadnChallengers(arbiter_service::xmadn::challengers_view(
            self, id, version,
        ))
    }
    async fn page(state: &AppState, id: &str) -> Result<Response, PageError> {
        pages::challengers(state, id).await
    }
    async fn desk(
        state: &AppState,
        caller: &Caller,
        id: &str,
        done: Option<&str>,
        stale: Option<Notice>,
    ) -> Result<Response, ApiError> {
        desk::challengers_desk(state, caller, id, done, stale).await
    }
    async fn desk_act(state: &AppState, caller: &Caller, id: &str, body: &Bytes) -> Response {
        match desk::act(state, caller, id, Kind::XmadnChallengers, body).await {
            Ok(r) => r,
            Err(e) => refused(state, caller, id, Kind::XmadnChallengers, body, e).await,
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
            actions::run_challengers(state, caller, id, action, expected, key).await?,
        )))
    }
}
