//! A player's home in every format (issue 17 §1): `GET
//! /c/{id}/players/{player}`, the page of one player, answered by his
//! format ([`crate::formats::WebFormat::player_page`]). The ladder names a
//! player by his name (its page came first); every other format by the id
//! his registering event gave him (`/c/league/players/2`), never by a
//! name read from the address.
//!
//! A format fills a [`PlayerHome`] from its own views (his games to play
//! and his results, his standing with the table's own explanation) and
//! [`home`] adds what the registry says the format offers: what is still
//! possible for him (the clinch analysis of his table, through the heavy
//! work limiter and its cache), his rating history (AREA) and a link to
//! the projection (a Monte-Carlo run, too heavy to start for every page
//! view). [`PlayerLinks`] is how a format's tables link every player's name
//! to his page.

use std::collections::HashMap;

pub(crate) use arbiter_engine::explain::ordinal;
use arbiter_engine::model::PlayerId;
use arbiter_service::clinch::{ClinchPlayerView, ClinchZoneView};
use arbiter_service::insight::{RatingScope, RatingSystem};
use arbiter_service::views::ExplanationView;
use askama::Template;
use axum::extract::{Path, State};
use axum::response::Response;

use super::svg::{self, Point, Svg};
use super::{Chrome, Kind, PageError, kind_of, render};
use crate::AppState;
use crate::auth::Caller;

/// `GET /c/{id}/players/{player}`: the player's page for the
/// competition's format; 404 where the format has none or the player is
/// not one of its players.
pub(super) async fn page(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, player)): Path<(String, String)>,
) -> Result<Response, PageError> {
    let kind = kind_of(&state, &id).await?;
    arbiter_service::with_format!(kind, |F| {
        <F as crate::formats::WebFormat>::player_page(&state, &caller, &id, &player).await
    })
}

/// The player an address names by his id (`/c/{id}/players/3`): a number
/// from 1 to `count`; anything else (a name, a huge number, a sign) is a
/// page that does not exist.
pub(crate) fn player_id(segment: &str, count: usize) -> Result<PlayerId, PageError> {
    let unknown = || {
        let shown: String = segment.chars().take(40).collect();
        PageError::NotFound(format!(
            "There is no player “{shown}” in this competition: a player's page is at his number, from 1 to {count}."
        ))
    };
    if segment.is_empty() || segment.len() > 10 || !segment.bytes().all(|b| b.is_ascii_digit()) {
        return Err(unknown());
    }
    match segment.parse::<u32>() {
        Ok(n) if n >= 1 && n as usize <= count => Ok(PlayerId(n)),
        _ => Err(unknown()),
    }
}

/// Every player's name of a competition with the address of his page, for
/// the tables that name him (names are unique in a competition: the one
/// normalization of ARB-R62 refuses a second).
#[derive(Debug, Clone, Default)]
pub(crate) struct PlayerLinks {
    by_name: HashMap<String, String>,
}

impl PlayerLinks {
    /// The players of competition `id`, each by his id.
    pub(crate) fn by_id(id: &str, players: impl IntoIterator<Item = (String, PlayerId)>) -> Self {
        Self {
            by_name: players
                .into_iter()
                .map(|(name, p)| (name, format!("/c/{id}/players/{}", p.0)))
                .collect(),
        }
    }

    /// The players `1..` in the order of `names` (the formats whose
    /// player ids are their place in the list of players).
    pub(crate) fn in_order<'a>(id: &str, names: impl IntoIterator<Item = &'a String>) -> Self {
        Self::by_id(
            id,
            names
                .into_iter()
                .enumerate()
                .map(|(i, n)| (n.clone(), PlayerId(i as u32 + 1))),
        )
    }

    /// Names with the address of each one's page (the ladder's, by name).
    pub(crate) fn from_hrefs(players: impl IntoIterator<Item = (String, String)>) -> Self {
        Self {
            by_name: players.into_iter().collect(),
        }
    }

    /// The players' pages of competition `id` of format `kind`
    /// ([`crate::formats::WebFormat::player_links`]).
    pub(crate) async fn of(state: &AppState, id: &str, kind: Kind) -> Result<Self, PageError> {
        Ok(arbiter_service::with_format!(kind, |F| {
            state
                .service
                .read_as::<F, _>(id, |c, _| {
                    <F as crate::formats::WebFormat>::player_links(c, id)
                })
                .await?
        }))
    }

    /// The address of the page of the player of this name, if he is one.
    pub(crate) fn href(&self, name: impl AsRef<str>) -> Option<&str> {
        self.by_name.get(name.as_ref()).map(String::as_str)
    }
}

/// A game on a player's page: one to play, or one with its result.
#[derive(Debug, Clone, Default)]
pub(crate) struct GameLine {
    /// "G4", "Game 12".
    pub game: String,
    /// Where it is played: "DRR 1 Game 4", "round 3", "group A1, round 2".
    pub stage: String,
    pub opponent: String,
    /// His side or colour in it: "Black", "home", "#1 of the pairing".
    pub side: String,
    /// In the competition's zone, with its countdown (ARB-R82).
    pub deadline: Option<crate::pages::time::When>,
    pub moderator: Option<String>,
    /// "may be played now", "to play"; for a result, the score in his
    /// order ("4-2").
    pub status: String,
    /// For a result: "won", "lost", "drawn" (empty for a game to play).
    pub outcome: &'static str,
    /// Anything else the format says of it (a game's time, a note).
    pub note: Option<String>,
}

/// His standing in one table, with the table's own explanation.
#[derive(Debug, Clone, Default)]
pub(crate) struct Standing {
    /// "League table", "Group A1 of season 3".
    pub table: String,
    /// Where the table is: "/c/x#table".
    pub href: String,
    /// "2nd of 3".
    pub place: String,
    /// His figures, each a label and a value.
    pub figures: Vec<(String, String)>,
    /// Why he is where he is.
    pub explanations: Vec<ExplanationView>,
    /// What orders the table, where it gives no explanation of its own.
    pub note: Option<String>,
}

/// What a format gives of one player.
#[derive(Debug, Clone, Default)]
pub(crate) struct PlayerHome {
    /// The competition's name.
    pub competition: String,
    pub name: String,
    /// One line under the name: "XMadn league · 2nd of 3".
    pub lede: String,
    /// Facts about him, a label and a value each.
    pub facts: Vec<(String, String)>,
    /// His current and next games.
    pub to_play: Vec<GameLine>,
    /// What the format records of games to come ("The league sets no
    /// dates and no moderators.").
    pub to_play_note: String,
    /// Whether his games have deadlines, moderators: the columns shown.
    pub deadlines: bool,
    pub moderators: bool,
    pub results: Vec<GameLine>,
    /// Results may end drawn (the column's word).
    pub standings: Vec<Standing>,
    /// Why there is no standing, when there is none.
    pub no_standing: Option<String>,
    /// The clinch analysis's table to judge (a Sunjang group's label);
    /// `None`: the competition's.
    pub clinch_group: Option<String>,
    /// Other sections of the format's own: a heading and its lines.
    pub more: Vec<(String, Vec<String>)>,
    /// The address of every player's page, for the opponents.
    pub links: PlayerLinks,
}

/// The report forms of a player's page (ARB-R45, ARB-R81), shown only to
/// the account linked to him (ARB-R50): a form for each game he may report,
/// and his opponents' reports waiting for his confirmation or dispute.
/// Every form posts to `/c/{id}/act` with the session's CSRF token, an
/// idempotency key and the version it was shown at, and comes back here.
#[derive(Debug, Clone, Default)]
pub(crate) struct Reports {
    pub csrf: String,
    pub key: String,
    pub version: u64,
    /// This page, where the forms come back to.
    pub back: String,
    pub forms: Vec<ReportForm>,
    pub pending: Vec<PendingReport>,
}

/// A form to report one of his games.
#[derive(Debug, Clone, Default)]
pub(crate) struct ReportForm {
    /// Unique on the page, for the fields' ids.
    pub id: String,
    /// "DRR 1 Game 1 (G1) against Baker".
    pub title: String,
    pub action: &'static str,
    /// The game's fields the form sends as they are.
    pub hidden: Vec<(String, String)>,
    /// XMadn: the label of the counted pawns (his first); with the time.
    pub pawns_label: Option<String>,
    /// Sunjang: the outcomes to choose from, value and label.
    pub outcomes: Vec<(String, String)>,
}

/// A report waiting: his own (for his opponent) or his opponent's (for
/// him to confirm or dispute).
#[derive(Debug, Clone, Default)]
pub(crate) struct PendingReport {
    pub id: String,
    /// What was reported, by whom, when.
    pub text: String,
    /// His own report: nothing for him to do.
    pub mine: bool,
    pub confirm: &'static str,
    pub dispute: &'static str,
    /// The fields naming the game.
    pub hidden: Vec<(String, String)>,
}

impl Reports {
    /// The forms of player `me`'s page for `caller`, if the caller's
    /// account is the one linked to him; the caller and version say which
    /// tokens the forms carry.
    pub(crate) fn for_viewer(
        caller: &Caller,
        linked: Option<PlayerId>,
        me: PlayerId,
        id: &str,
        version: u64,
    ) -> Option<Reports> {
        caller.account().ok()?;
        if linked != Some(me) {
            return None;
        }
        Some(Reports {
            csrf: caller.csrf_token().unwrap_or_default().to_string(),
            key: crate::auth::random_token().ok()?,
            version,
            back: format!("/c/{id}/players/{}", me.0),
            forms: Vec::new(),
            pending: Vec::new(),
        })
    }
}

/// What is still possible for him in his table (ARB-R47).
#[derive(Debug, Clone)]
struct ClinchPart {
    title: String,
    zones: Vec<ClinchZoneView>,
    me: ClinchPlayerView,
}

/// His rating history.
#[derive(Debug)]
struct RatingPart {
    system: String,
    rating: String,
    games: u32,
    chart: Option<Svg>,
}

#[derive(Debug, Template)]
#[template(path = "player_home.html")]
struct PlayerHomePage {
    chrome: Chrome,
    id: String,
    h: PlayerHome,
    clinch_offered: bool,
    clinch: Option<ClinchPart>,
    /// Why no clinch line is shown, where the format offers it.
    clinch_note: Option<String>,
    projection: bool,
    ratings: bool,
    rating: Option<RatingPart>,
    /// His report forms, for his own account only (ARB-R45, ARB-R81).
    reports: Option<Reports>,
}

fn shown(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

/// Render player `h`'s page of competition `id`, adding what the format
/// offers: his clinch line, his rating history, the projection's link.
pub(crate) async fn home(
    state: &AppState,
    caller: &Caller,
    id: &str,
    kind: Kind,
    h: PlayerHome,
) -> Result<Response, PageError> {
    home_with_reports(state, caller, id, kind, h, None).await
}

/// [`home`] with the report forms of the player's own account (ARB-R45,
/// ARB-R81).
pub(crate) async fn home_with_reports(
    state: &AppState,
    caller: &Caller,
    id: &str,
    kind: Kind,
    h: PlayerHome,
    reports: Option<Reports>,
) -> Result<Response, PageError> {
    let offers = kind.offers();
    let (mut clinch, mut clinch_note) = (None, None);
    if offers.clinch {
        match crate::api::clinch::clinch_of(state, caller, id, h.clinch_group.clone()).await {
            Ok(v) => {
                clinch = v.groups.iter().find_map(|g| {
                    g.players
                        .iter()
                        .find(|p| p.player == h.name)
                        .map(|me| ClinchPart {
                            title: g.title.clone(),
                            zones: g.zones.clone(),
                            me: me.clone(),
                        })
                });
                if clinch.is_none() {
                    clinch_note = Some(v.note.clone().unwrap_or_else(|| {
                        format!(
                            "{} has no games left in a table still to be decided.",
                            h.name
                        )
                    }));
                }
            }
            Err(e) => {
                clinch_note = Some(format!(
                    "Not worked out for this page: {}.",
                    e.detail.message.trim_end_matches('.')
                ))
            }
        }
    }
    let mut rating = None;
    if offers.ratings {
        let v = state
            .service
            .ratings(id, RatingSystem::Area, RatingScope::Competition)
            .await?;
        rating = v.players.iter().find(|p| p.player == h.name).map(|p| {
            let points: Vec<Point> = p
                .history
                .iter()
                .map(|x| Point {
                    label: x.game.clone().unwrap_or_else(|| format!("R{}", x.period)),
                    y: x.rating.round() as i64,
                    colour: svg::WON,
                    tip: format!(
                        "{}: {}",
                        x.game.as_deref().unwrap_or("period"),
                        shown(x.rating)
                    ),
                })
                .collect();
            RatingPart {
                system: v.system_name.clone(),
                rating: shown(p.rating),
                games: p.games,
                chart: (!points.is_empty()).then(|| {
                    svg::line_chart(
                        "rating",
                        &format!("{} rating of {}", v.system_name, p.player),
                        &format!(
                            "{}'s {} rating after each of {} rated games; now {}.",
                            p.player,
                            v.system_name,
                            p.games,
                            shown(p.rating)
                        ),
                        "rating",
                        &points,
                        false,
                    )
                }),
            }
        });
    }
    render(&PlayerHomePage {
        chrome: Chrome::competition(h.name.clone(), id, &h.competition, kind, ""),
        id: id.to_string(),
        clinch_offered: offers.clinch,
        clinch,
        clinch_note,
        projection: offers.projection,
        ratings: offers.ratings,
        rating,
        reports,
        h,
    })
}
