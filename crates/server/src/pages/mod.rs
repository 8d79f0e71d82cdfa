//! The public pages: server-rendered HTML (askama templates in
//! `crates/server/templates`), readable without JavaScript, one layout for
//! every page. Read-only: every route here is a GET that changes nothing.
//!
//! - `/` the competitions; `/stats` the statistics of every TWS ladder;
//! - `/c/{id}` a competition by its format (TWS ladder, XMadn league or
//!   Challengers, Sunjang league);
//! - `/c/{id}/history` its events;
//! - `/c/{id}/players` every player of a competition, each linked to his
//!   page, with where he stands and his record ([`players_index`], with a
//!   `?q=` filter by part of a name);
//! - `/c/{id}/players/{player}` a player's page in every format ([`players`]:
//!   a ladder's by his name, the others' by his id);
//! - `/c/{id}/rounds/{n}`, `/c/{id}/stats` for a TWS ladder;
//! - `/c/{id}/seasons/{n}` for a Sunjang league;
//! - `/c/{id}/ratings` for a TWS ladder (ARB-R46) or an XMadn league
//!   (ARB-R49) and `/c/{id}/projection`
//!   for a ladder, an XMadn league or a Sunjang league (ARB-R48);
//! - `/c/{id}/clinch` for an XMadn league or a Sunjang league: what is
//!   still possible (ARB-R47);
//! - `/c/{id}/what-if` for a ladder, an XMadn league or a Sunjang league:
//!   hypothetical results and what would follow, computed on a copy (a GET
//!   form that stores nothing);
//! - `/search?q=` players and competitions by name ([`search`]);
//! - `/assets/{file}` the stylesheet and the vendored htmx.
//!
//! Every decision shown carries its explanation one click away, in a
//! `<details>` element (no script needed). User text is escaped by askama;
//! the only unescaped output is the server-drawn SVG of [`svg`], whose text
//! is escaped when it is drawn.

use arbiter_service::ServiceError;
use askama::Template;
use axum::Router;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};

use crate::AppState;

mod accounts;
mod api_docs;
pub mod assets;
pub mod cache;
mod calendars;
mod clinch;
pub(crate) mod desk;
mod exports;
pub(crate) mod forms;
mod history;
mod insight;
mod installation;
mod list;
mod new;
pub(crate) mod picture;
pub(crate) mod players;
pub(crate) mod players_index;
pub(crate) mod queue;
mod results_import;
mod search;
pub mod svg;
pub(crate) mod time;
mod time_zone;
pub(crate) mod viewer;
mod webhooks;
pub(crate) mod what_if;

use crate::formats::{sunjang, tws};

/// The page routes, merged into the app beside the API.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(list::index))
        .route("/c/{id}", get(competition))
        .route("/c/{id}/history", get(history::page))
        .route("/c/{id}/rounds/{n}", get(tws::pages::round))
        .route("/c/{id}/players", get(players_index::page))
        .route("/c/{id}/players/{player}", get(players::page))
        .route("/c/{id}/stats", get(tws::pages::stats))
        .route(
            "/c/{id}/rules",
            get(tws::rules::page).post(tws::rules::preview),
        )
        .route("/stats", get(installation::stats))
        .route("/docs/api", get(api_docs::page))
        .route("/search", get(search::page))
        .route("/c/{id}/ratings", get(insight::ratings))
        .route("/c/{id}/projection", get(insight::projection))
        .route("/c/{id}/clinch", get(clinch::page))
        .route("/c/{id}/what-if", get(what_if::page))
        .route("/c/{id}/seasons/{n}", get(sunjang::pages::season))
        .route("/assets/{file}", get(assets::asset))
        .route("/login", get(accounts::login_page).post(accounts::login))
        .route("/logout", post(accounts::logout))
        .route(
            "/register",
            get(accounts::register_page).post(accounts::register),
        )
        .route("/account", get(accounts::account))
        .route("/account/tokens", post(accounts::create_token))
        .route("/account/tokens/{id}/revoke", post(accounts::revoke_token))
        .route("/account/calendars", post(calendars::create_own))
        .route(
            "/account/calendars/{id}/revoke",
            post(calendars::revoke_own),
        )
        .route(
            "/c/{id}/calendars",
            get(calendars::page).post(calendars::create),
        )
        .route("/c/{id}/calendars/{feed}/revoke", post(calendars::revoke))
        // The private feed itself (iCalendar text, not a page).
        .route("/calendar/{file}", get(crate::calendar::feed))
        .route("/new", get(new::new_page).post(new::create))
        .route("/c/{id}/manage", get(desk::page))
        .route(
            "/c/{id}/results-import",
            get(results_import::page).post(results_import::act),
        )
        .route(
            "/c/{id}/webhooks",
            get(webhooks::page).post(webhooks::create),
        )
        .route("/c/{id}/webhooks/{hook}/{what}", post(webhooks::change))
        .route(
            "/c/{id}/time-zone",
            get(time_zone::page).post(time_zone::set),
        )
        .route("/c/{id}/standings.csv", get(exports::standings))
        .route("/c/{id}/results.csv", get(exports::results))
        .route("/c/{id}/forum.txt", get(exports::forum))
        .route("/c/{id}/act", post(desk::act))
        // Any other address outside the API (which answers its own 404s in
        // JSON) is a page that does not exist.
        .fallback(not_found)
}

/// The 404 page, for the app's fallback (a page that does not exist).
pub async fn not_found() -> Response {
    not_found_page().into_response()
}

pub(crate) fn not_found_page() -> PageError {
    PageError::NotFound("There is no page at this address.".into())
}

/// `GET /c/{id}`: the competition's page for its format.
async fn competition(
    state: axum::extract::State<AppState>,
    axum::extract::Path(id): axum::extract::Path<String>,
) -> Result<Response, PageError> {
    let kind = kind_of(&state, &id).await?;
    arbiter_service::with_format!(kind, |F| {
        <F as crate::formats::WebFormat>::page(&state, &id).await
    })
}

/// The formats the pages know: the service's registry
/// ([`arbiter_service::with_format!`]), each format's pages in
/// [`crate::formats`].
pub(crate) use arbiter_service::format::CompetitionFormat as Kind;

/// The format of competition `id`; 404 for an id that is not one.
pub(crate) async fn kind_of(state: &AppState, id: &str) -> Result<Kind, PageError> {
    if arbiter_service::check_competition_id(id).is_err() {
        return Err(PageError::no_competition(id));
    }
    Ok(state.service.format_of(id).await?)
}

/// The format in words, for a list ("Twilight Struggle ladder").
pub(crate) fn kind_words(kind: Kind) -> &'static str {
    arbiter_service::with_format!(kind, |F| <F as crate::formats::WebFormat>::WORDS)
}

/// Why a page cannot be shown.
#[derive(Debug)]
pub(crate) enum PageError {
    /// 404, with a sentence for the reader.
    NotFound(String),
    /// 500; the details go to the log, not to the page.
    Internal(String),
    /// 429 with `Retry-After` (seconds): the server is busy with heavy
    /// reads, or the address asked for too many (issue 14, item 3).
    Busy(String, u64),
}

impl PageError {
    /// A heavy read's refusal as a page: 429 stays 429 (with its wait), a
    /// refusal of the request a 404 with its words as today, the rest 500.
    pub(crate) fn from_heavy(e: crate::error::ApiError) -> Self {
        if e.status == StatusCode::TOO_MANY_REQUESTS {
            PageError::Busy(format!("{}.", e.detail.message), e.retry_after.unwrap_or(1))
        } else if e.status.is_client_error() {
            PageError::NotFound(format!("{}.", e.detail.message))
        } else {
            PageError::Internal(e.detail.message)
        }
    }
}

impl PageError {
    pub(crate) fn no_competition(id: &str) -> Self {
        PageError::NotFound(format!("There is no competition “{id}”."))
    }
}

impl From<ServiceError> for PageError {
    fn from(e: ServiceError) -> Self {
        match e {
            ServiceError::NotFound(id) => PageError::no_competition(&id),
            other => PageError::Internal(other.to_string()),
        }
    }
}

impl From<askama::Error> for PageError {
    fn from(e: askama::Error) -> Self {
        PageError::Internal(format!("a template failed: {e}"))
    }
}

/// The error page, in the site's layout.
#[derive(Debug, Template)]
#[template(path = "error.html")]
struct ErrorPage {
    chrome: Chrome,
    heading: String,
    message: String,
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        let mut retry_after = None;
        let (status, heading, message) = match self {
            PageError::NotFound(message) => (StatusCode::NOT_FOUND, "Page not found", message),
            PageError::Busy(message, seconds) => {
                retry_after = Some(seconds);
                (StatusCode::TOO_MANY_REQUESTS, "Busy: please wait", message)
            }
            PageError::Internal(detail) => {
                tracing::error!(%detail, "a page failed");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "Something went wrong",
                    "This page could not be shown. The error has been logged; please try again later."
                        .to_string(),
                )
            }
        };
        let page = ErrorPage {
            chrome: Chrome::new(heading),
            heading: heading.to_string(),
            message,
        };
        let mut response = match page.render() {
            Ok(body) => (status, Html(body)).into_response(),
            Err(e) => {
                tracing::error!(error = %e, "the error page failed");
                (status, heading).into_response()
            }
        };
        if let Some(seconds) = retry_after {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

/// Render a page as `text/html; charset=utf-8`.
pub(crate) fn render<T: Template>(page: &T) -> Result<Response, PageError> {
    Ok(Html(page.render()?).into_response())
}

/// What the layout needs: the page's title and, on a competition's pages,
/// the competition's navigation.
#[derive(Debug, Clone)]
pub(crate) struct Chrome {
    pub title: String,
    pub comp: Option<CompNav>,
    pub style: String,
    pub htmx: String,
    /// The script that adds the reader's own zone to times ([`time`]).
    pub time_js: String,
    /// The logged-in reader and what waits for him ([`viewer`]), read from
    /// the request's scope: the header names him and counts it.
    pub viewer: Option<viewer::Viewer>,
}

impl Chrome {
    pub(crate) fn new(title: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            comp: None,
            style: assets::style_url(),
            htmx: assets::htmx_url(),
            time_js: assets::time_url(),
            viewer: viewer::current(),
        }
    }

    /// A page of competition `id`; `current` is the page's own address in
    /// the competition's navigation, if it is there.
    pub(crate) fn competition(
        title: impl Into<String>,
        id: &str,
        name: &str,
        kind: Kind,
        current: &str,
    ) -> Self {
        let mut chrome = Self::new(title);
        chrome.comp = Some(CompNav::new(id, name, kind, current));
        chrome
    }
}

/// A competition's own navigation.
#[derive(Debug, Clone)]
pub(crate) struct CompNav {
    pub name: String,
    pub links: Vec<NavLink>,
}

#[derive(Debug, Clone)]
pub(crate) struct NavLink {
    pub href: String,
    pub label: &'static str,
    pub current: bool,
}

impl CompNav {
    fn new(id: &str, name: &str, kind: Kind, current: &str) -> Self {
        let offers = kind.offers();
        let mut links = vec![
            (format!("/c/{id}"), "Overview"),
            (format!("/c/{id}/players"), "Players"),
        ];
        if offers.installation_ratings {
            // The statistics pages are the ladder's (ARB-R46's games).
            links.push((format!("/c/{id}/stats"), "Statistics"));
        }
        if offers.ratings {
            links.push((format!("/c/{id}/ratings"), "Ratings"));
        }
        if offers.projection {
            links.push((format!("/c/{id}/projection"), "Projection"));
        }
        if offers.clinch {
            links.push((format!("/c/{id}/clinch"), "What is still possible"));
        }
        if offers.what_if {
            links.push((format!("/c/{id}/what-if"), "What if"));
        }
        links.push((format!("/c/{id}/history"), "History"));
        links.push((format!("/c/{id}/manage"), "Desk"));
        Self {
            name: name.to_string(),
            links: links
                .into_iter()
                .map(|(href, label)| NavLink {
                    current: href == current,
                    href,
                    label,
                })
                .collect(),
        }
    }
}

/// Parse a number from a path segment; anything else is a page that does
/// not exist (404, not a 400 about the URL's syntax).
pub(crate) fn number(segment: &str) -> Result<u32, PageError> {
    segment
        .parse::<u32>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(not_found_page)
}

/// A name as one segment of a path (`/c/{id}/players/{name}`): every byte
/// but the unreserved ones percent-encoded, `/` included.
pub(crate) fn path_segment(name: &str) -> String {
    forms::urlencode(name).replace('/', "%2F")
}

/// "1 game", "2 games".
pub(crate) fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}
