//! One module per format, named after it, each with its pages, its desk and
//! its actions: [`tws`] (the Twilight Struggle ladder), [`xmadn`] (the XMadn
//! league and the Challengers event), [`sunjang`] (the Sunjang league) and
//! [`roundrobin`] (the general round-robin league). What the formats share
//! stays beside them: the page shell in [`crate::pages`] (with the desks'
//! shared code in `pages/desk`) and the shared action code in
//! [`crate::actions`].
//!
//! [`WebFormat`] is what the server asks of a format, answered in the
//! format's own module; the shared code reaches it through the service's
//! registry ([`arbiter_service::with_format!`]), never by matching on the
//! format.

use std::future::Future;

use arbiter_service::Format;
use axum::response::Response;

use crate::AppState;
use crate::api::competitions::CompetitionView;
use crate::api::write::ActionAnswer;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::pages::PageError;
use crate::pages::viewer::Waiting;

pub mod roundrobin;
pub mod sunjang;
pub mod tws;
pub mod xmadn;

/// What creating a competition is given, by `POST /api/competitions` or
/// the form of `/new`; each format takes the settings it has and refuses
/// the others by name ([`Creation::takes`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct Creation {
    pub id: String,
    pub name: String,
    /// A rules file (TOML); empty or absent: the preset's.
    pub rules: Option<String>,
    /// The preset to start from where a format has several (round robin).
    pub preset: Option<String>,
    /// The players named at creation.
    pub players: Option<Vec<String>>,
    /// XMadn Challengers: the wins needed.
    pub first_to: Option<u32>,
    /// The Idempotency-Key.
    pub key: Option<String>,
}

impl Creation {
    /// Refuse every setting given that is not among `taken`, naming it.
    pub(crate) fn takes<F: Format>(&self, taken: &[&str]) -> Result<(), ApiError> {
        let given = [
            ("preset", self.preset.is_some()),
            ("players", self.players.is_some()),
            ("first_to", self.first_to.is_some()),
        ];
        match given
            .iter()
            .find(|(field, set)| *set && !taken.contains(field))
        {
            Some((field, _)) => Err(ApiError::bad_request(format!(
                "{field} is not a setting of format {:?}",
                F::ID
            ))
            .with_field(*field)),
            None => Ok(()),
        }
    }

    /// The players given, trimmed, blank lines left out.
    pub(crate) fn player_names(&self) -> Vec<String> {
        self.players
            .iter()
            .flatten()
            .map(|p| p.trim().to_string())
            .filter(|p| !p.is_empty())
            .collect()
    }
}

/// How `/new` shows a format.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NewPage {
    /// What the page calls it ("XMadn league").
    pub title: &'static str,
    /// The noun of its button ("league").
    pub noun: &'static str,
    /// A sentence about it.
    pub about: &'static str,
    /// How its players are named at creation, if they are: the label of
    /// the field, and whether it is required.
    pub players: Option<(&'static str, bool)>,
    /// Whether it has the first-to field (XMadn Challengers).
    pub first_to: bool,
}

/// The API's view of format `F` (a variant of [`CompetitionView`]).
pub(crate) type ApiViewOf<F> = <F as WebFormat>::ApiView;
/// The action body of format `F` (a variant of
/// [`crate::api::write::AnyAction`]).
pub(crate) type ActionOf<F> = <F as WebFormat>::Action;

/// A format as the server serves it.
pub(crate) trait WebFormat: Format {
    /// The API's view of a competition (`GET /api/competitions/{id}`), its
    /// variant of [`CompetitionView`] (generated from the registry).
    type ApiView: serde::Serialize + utoipa::ToSchema + Clone + std::fmt::Debug;
    /// The body of `POST /api/competitions/{id}/actions`, its variant of
    /// [`crate::api::write::AnyAction`] (generated from the registry).
    type Action: serde::de::DeserializeOwned + utoipa::ToSchema;
    /// The format in the list of competitions ("Twilight Struggle ladder").
    const WORDS: &'static str;
    /// How `/new` offers it.
    const NEW: NewPage;
    /// What the ratings page says is rated, with its ruling (a format
    /// with [`arbiter_service::format::Offers::ratings`]).
    const RATED: &'static str = "";
    /// The ratings page's word for a rating period ("round").
    const PERIOD: &'static str = "round";
    /// Whether its projection simulates a number of rounds the reader
    /// chooses (the ladder's `rounds` field) rather than the rest of a
    /// season.
    const PROJECTS_ROUNDS: bool = false;
    /// The presets it starts from: name and rules file; the first is the
    /// default.
    fn presets() -> Vec<(&'static str, &'static str)> {
        arbiter_record::preset(Self::ID)
            .map(|text| (Self::ID, text))
            .into_iter()
            .collect()
    }
    /// Create a competition for an organizer, its owner and first
    /// moderator: `POST /api/competitions` and `POST /new`.
    fn create(
        state: &AppState,
        caller: &Caller,
        creation: &Creation,
    ) -> impl Future<Output = Result<arbiter_store::Seq, ApiError>> + Send;
    /// Its members and where it stands, for the list of competitions.
    fn list_line(&self) -> (usize, String);
    /// Who leads it, for its card in the list of competitions: what he is
    /// ("Champion", "On rung 1", "Leads") and his name; `None` while no
    /// one does.
    fn leader(&self) -> Option<(&'static str, String)> {
        None
    }
    /// Its players as the search finds them (`/search`, issue 17 §1):
    /// each name with the address of his page
    /// ([`WebFormat::player_page`]).
    fn search_players(&self, id: &str) -> Vec<(String, String)>;
    /// What waits for player `me` here beyond his games' deadlines (which
    /// every format's calendar gives, [`crate::pages::viewer`]): a ladder
    /// report of his opponent's to confirm. Nothing by default.
    fn waiting_for(&self, id: &str, me: arbiter_engine::model::PlayerId) -> Vec<Waiting> {
        let _ = (id, me);
        Vec::new()
    }
    /// `GET /c/{id}/players/{player}`: the page of one player (issue 17
    /// §1), named by the segment as the format names its players' pages
    /// (the ladder: his name; the others: the id his registering event
    /// gave him, never a name), usually through
    /// [`crate::pages::players::home`]; a 404 page for anyone else. None by
    /// default.
    fn player_page(
        state: &AppState,
        caller: &Caller,
        id: &str,
        player: &str,
    ) -> impl Future<Output = Result<Response, PageError>> + Send {
        let _ = (state, caller, id, player);
        async { Err(crate::pages::not_found_page()) }
    }
    /// Every player's name with the address of his page
    /// ([`WebFormat::player_page`]), for the pages every format shares
    /// (what is still possible, the projection) to link him. None by
    /// default.
    fn player_links(&self, id: &str) -> crate::pages::players::PlayerLinks {
        let _ = id;
        crate::pages::players::PlayerLinks::default()
    }
    /// `GET /c/{id}/players`: every player with the address of his page
    /// and, where the format has them cheaply, where he stands, his record
    /// and a word more ([`crate::pages::players_index`]), in the order the
    /// format lists them (its table's, where it has one). By default the
    /// players [`WebFormat::search_players`] finds, with nothing more.
    fn player_index(&self, id: &str) -> Vec<crate::pages::players_index::IndexLine> {
        self.search_players(id)
            .into_iter()
            .map(|(name, href)| crate::pages::players_index::IndexLine::named(name, href))
            .collect()
    }
    /// Its own API routes beside the shared ones (the ladder's rounds, a
    /// Sunjang league's seasons), merged by [`crate::api::routes`].
    fn api_routes() -> axum::Router<AppState> {
        axum::Router::new()
    }
    /// The OpenAPI paths of [`WebFormat::api_routes`], merged into
    /// [`crate::api::ApiDoc`].
    fn api_doc() -> utoipa::openapi::OpenApi {
        utoipa::openapi::OpenApiBuilder::new().build()
    }
    /// The API's view (`GET /api/competitions/{id}`).
    fn api_view(&self, id: &str, version: u64) -> CompetitionView;
    /// `GET /c/{id}`.
    fn page(state: &AppState, id: &str)
    -> impl Future<Output = Result<Response, PageError>> + Send;
    /// `GET /c/{id}/manage`: the desk, with the sentence of what the last
    /// form did or the notice of a stale form. A format without a desk
    /// says where its actions are.
    fn desk(
        state: &AppState,
        caller: &Caller,
        id: &str,
        done: Option<&str>,
        stale: Option<crate::pages::desk::Notice>,
    ) -> impl Future<Output = Result<Response, ApiError>> + Send {
        let _ = (state, caller, done, stale);
        let message = format!(
            "{} has no desk page yet: its actions are taken through the JSON API, POST /api/competitions/{id}/actions (see /api/docs)",
            Self::NAME
        );
        async move { Err(ApiError::not_found(message)) }
    }
    /// The desk ([`WebFormat::desk`]) showing what the filter of its
    /// address or of the form it answers asks for (issue 17 §2: a Sunjang
    /// season's correction forms by player or group). A format whose desk
    /// has no filter shows its desk as it is.
    fn desk_filtered(
        state: &AppState,
        caller: &Caller,
        id: &str,
        done: Option<&str>,
        notice: Option<crate::pages::desk::Notice>,
        filter: &crate::pages::desk::DeskFilter,
    ) -> impl Future<Output = Result<Response, ApiError>> + Send {
        let _ = filter;
        Self::desk(state, caller, id, done, notice)
    }
    /// `POST /c/{id}/act`: one desk form.
    fn desk_act(
        state: &AppState,
        caller: &Caller,
        id: &str,
        body: &axum::body::Bytes,
    ) -> impl Future<Output = Response> + Send {
        let _ = (state, caller, body);
        let back = format!("/c/{id}/manage");
        let e = ApiError::not_found(format!("{} has no desk forms yet", Self::NAME));
        async move { crate::pages::forms::problem(e, &back) }
    }
    /// `POST /api/competitions/{id}/actions`: the body parsed as the
    /// format's action and run (`expected`: If-Match; `key`:
    /// Idempotency-Key).
    fn act(
        state: &AppState,
        caller: &Caller,
        id: &str,
        body: &[u8],
        expected: Option<u64>,
        key: Option<String>,
    ) -> impl Future<Output = Result<ActionAnswer, ApiError>> + Send;
}
