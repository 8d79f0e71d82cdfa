//! Ratings and Monte-Carlo projections as serializable views, for every
//! front end (the CLI's `ratings` and `project`, the API, the pages).
//!
//! # Ratings (ARB-R46)
//!
//! Ratings are a fold over the rated games of the Twilight Struggle ladder
//! ([`arbiter_engine::tws::ratings`]) or of an XMadn league
//! ([`arbiter_engine::xmadn::ratings`], ARB-R49: each game a win and a loss
//! between its two players; over the league's own games only). Two scopes
//! for a ladder:
//!
//! - [`RatingScope::Competition`]: the games of one ladder, its players as
//!   they are registered there;
//! - [`RatingScope::Installation`]: every TWS ladder in the store, rated
//!   together ("all games of one game in an installation"). Players are
//!   matched across ladders **by name**, compared case-insensitively with
//!   surrounding spaces trimmed: the same name on two ladders is one player,
//!   and a player who changes his name is two. A game's rating period is
//!   its round in its own ladder, so round 3 of two ladders is one period
//!   (Glicko-2 rates a period's games together); within a period games are
//!   rated in the order of their results.
//!
//! # Projections (ARB-R48)
//!
//! [`project`] runs the engine's projection of the competition's format:
//!
//! - a TWS ladder: the running round finished and `rounds` more; odds from
//!   the ladder's own ratings (the system asked for, AREA by default, as
//!   RATING OF GAMES names it) and its tie rate so far;
//! - an XMadn league: odds from the league's own ratings (ARB-R49; the
//!   system asked for, AREA by default, as for a ladder), never drawn;
//! - a Sunjang league: every division of the running season; odds from the
//!   overall ratings the league lists for its players, read as Elo, and
//!   the league's jigo rate so far;
//! - an XMadn Challengers event has no projection.
//!
//! Seasons: [`DEFAULT_SEASONS`] unless asked, at most [`MAX_SEASONS`]. Seed:
//! the text given, as 32 bytes when it is 64 hexadecimal digits and
//! otherwise its SHA-256; without one, the SHA-256 of
//! `arbiter-projection`, the competition id and its version, each followed
//! by a zero byte, so that a page of a competition shows the same figures
//! until the competition changes, and a given seed gives the same figures
//! on every machine.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;

use arbiter_engine::draw::Seed;
use arbiter_engine::model::PlayerId;
use arbiter_engine::projection::sunjang::{SunjangOutcome, jigo_rate, listed_ratings};
use arbiter_engine::projection::tws::{LadderOutcome, tie_rate};
use arbiter_engine::projection::xmadn::XmadnOutcome;
use arbiter_engine::projection::{self, Projection, WinModel};
use arbiter_engine::ratings::{self, PlayerKey, RatedGame, Rating, System};
use arbiter_engine::sunjang::division_letter;
use arbiter_engine::tws::{self, Ladder};
use arbiter_engine::xmadn::{
    self,
    league::{League, PLAYERS},
};
use arbiter_store::EventStore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::format::CompetitionFormat;
use crate::{Result, Service, ServiceError};

/// Simulated seasons when none are asked for.
pub const DEFAULT_SEASONS: u32 = 10_000;
/// The most simulated seasons one projection may ask for.
pub const MAX_SEASONS: u32 = 100_000;
/// Rounds after the running one a ladder projection plays when none are
/// asked for.
pub const DEFAULT_ROUNDS: u32 = 1;
/// The most rounds after the running one a ladder projection may play.
pub const MAX_ROUNDS: u32 = 20;

// ----- ratings -----

/// A rating system (ARB-R46).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum RatingSystem {
    /// AREA, the system RATING OF GAMES names.
    #[default]
    Area,
    Elo,
    Glicko2,
}

impl RatingSystem {
    pub fn system(self) -> System {
        match self {
            RatingSystem::Area => System::Area(ratings::Area::default()),
            RatingSystem::Elo => System::Elo(ratings::Elo::default()),
            RatingSystem::Glicko2 => System::Glicko2(ratings::Glicko2::default()),
        }
    }

    /// "area", "elo", "glicko2".
    pub fn key(self) -> &'static str {
        match self {
            RatingSystem::Area => "area",
            RatingSystem::Elo => "elo",
            RatingSystem::Glicko2 => "glicko2",
        }
    }
}

impl fmt::Display for RatingSystem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

impl FromStr for RatingSystem {
    type Err = ServiceError;

    fn from_str(s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "area" => Ok(RatingSystem::Area),
            "elo" => Ok(RatingSystem::Elo),
            "glicko2" | "glicko-2" => Ok(RatingSystem::Glicko2),
            other => Err(ServiceError::Input(format!(
                "unknown rating system {other:?}: area, elo or glicko2"
            ))),
        }
    }
}

/// Which games are rated together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum RatingScope {
    /// The games of one competition.
    #[default]
    Competition,
    /// Every TWS ladder of the installation, players matched by name.
    Installation,
}

impl FromStr for RatingScope {
    type Err = ServiceError;

    fn from_str(s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "competition" => Ok(RatingScope::Competition),
            "installation" | "all" => Ok(RatingScope::Installation),
            other => Err(ServiceError::Input(format!(
                "unknown rating scope {other:?}: competition or installation"
            ))),
        }
    }
}

/// One point of a player's rating history: his rating after a game (or,
/// in Glicko-2, after a rating period).
#[derive(Debug, Clone, Serialize, PartialEq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct RatingPointView {
    /// The rating period: the round the game counts in (ARB-R46).
    pub period: u32,
    /// The game ("G12"), absent for a Glicko-2 period.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// The competition of the game, in the installation scope.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub competition: Option<String>,
    pub rating: f64,
}

/// A player's rating.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct PlayerRatingView {
    /// 1 for the highest rating.
    pub rank: usize,
    pub player: String,
    /// AREA ratings are whole points; Elo and Glicko-2 are rounded to one
    /// decimal.
    pub rating: f64,
    /// Rated games.
    pub games: u32,
    /// Glicko-2 only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deviation: Option<f64>,
    /// Glicko-2 only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub volatility: Option<f64>,
    /// Oldest first: the rating after each game (or period).
    pub history: Vec<RatingPointView>,
}

/// The ratings of a competition, or of every ladder of the installation.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct RatingsView {
    pub competition: String,
    pub version: u64,
    pub system: RatingSystem,
    /// "AREA", "Elo", "Glicko-2".
    pub system_name: String,
    pub scope: RatingScope,
    /// The competitions whose games are rated.
    pub competitions: Vec<String>,
    /// Rated games in all.
    pub games: usize,
    /// Highest rating first.
    pub players: Vec<PlayerRatingView>,
    /// Which games are rated (ARB-R46).
    pub ruling: String,
}

impl RatingsView {
    /// A player by name, case-insensitive.
    pub fn find(&self, name: &str) -> Option<&PlayerRatingView> {
        let n = name_key(name);
        self.players.iter().find(|p| name_key(&p.player) == n)
    }
}

/// The AREA report of a ladder round (RATING OF GAMES).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct AreaReportView {
    pub competition: String,
    pub version: u64,
    pub round: u32,
    /// The text of the report, one line per game.
    pub text: String,
}

/// Players of several ladders are matched by name under the one
/// normalization of names (ARB-R62).
fn name_key(name: &str) -> String {
    arbiter_engine::model::name_key(name)
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn value(r: Rating) -> f64 {
    match r {
        Rating::Area(a) => f64::from(a),
        other => round1(other.value()),
    }
}

/// A rated game and where it comes from.
struct Source {
    competition: usize,
    game: String,
}

/// Rate `ladders` together (players matched by name when there are
/// several) and build the view.
pub(crate) fn ratings_view(
    competition: &str,
    version: u64,
    system: RatingSystem,
    scope: RatingScope,
    ladders: &[(String, Ladder)],
) -> RatingsView {
    let mut keys: HashMap<String, u32> = HashMap::new();
    let mut names: Vec<String> = Vec::new();
    let mut games: Vec<RatedGame> = Vec::new();
    let mut sources: Vec<Source> = Vec::new();
    for (c, (_, ladder)) in ladders.iter().enumerate() {
        let mut key = |id: PlayerId| -> PlayerKey {
            let name = ladder.name_of(id);
            let next = u32::try_from(names.len()).unwrap_or(u32::MAX);
            let k = *keys.entry(name_key(&name)).or_insert_with(|| {
                names.push(name.clone());
                next
            });
            PlayerKey(k)
        };
        for g in &ladder.games {
            if let Some(mut r) = tws::ratings::rated_game(ladder, g) {
                r.a = key(g.ussr.player);
                r.b = key(g.us.player);
                games.push(r);
                sources.push(Source {
                    competition: c,
                    game: g.id.to_string(),
                });
            }
        }
    }
    let rated = ratings::rate(&games, &system.system());
    let several = ladders.len() > 1 || scope == RatingScope::Installation;
    let players = rated
        .by_rating()
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            let (deviation, volatility) = match p.rating {
                Rating::Glicko2(g) => (Some(round1(g.deviation)), Some(g.volatility)),
                _ => (None, None),
            };
            PlayerRatingView {
                rank: i + 1,
                player: names.get(p.player.0 as usize).cloned().unwrap_or_default(),
                rating: value(p.rating),
                games: p.games,
                deviation,
                volatility,
                history: p
                    .history
                    .iter()
                    .map(|h| {
                        let source = h.game.and_then(|i| sources.get(i as usize));
                        RatingPointView {
                            period: h.period,
                            game: source.map(|s| s.game.clone()),
                            competition: source
                                .filter(|_| several)
                                .and_then(|s| ladders.get(s.competition))
                                .map(|(id, _)| id.clone()),
                            rating: value(h.rating),
                        }
                    })
                    .collect(),
            }
        })
        .collect();
    RatingsView {
        competition: competition.to_string(),
        version,
        system,
        system_name: system.system().name().to_string(),
        scope,
        competitions: ladders.iter().map(|(id, _)| id.clone()).collect(),
        games: games.len(),
        players,
        ruling: "ARB-R46".to_string(),
    }
}

/// The ratings of one ladder, its own players.
pub fn ladder_ratings(
    ladder: &Ladder,
    competition: &str,
    version: u64,
    system: RatingSystem,
) -> RatingsView {
    ratings_view(
        competition,
        version,
        system,
        RatingScope::Competition,
        &[(competition.to_string(), ladder.clone())],
    )
}

/// The ratings of an XMadn league over its own games (ARB-R49): each game
/// a win and a loss between its two players.
pub fn league_ratings(
    league: &League,
    competition: &str,
    version: u64,
    system: RatingSystem,
) -> RatingsView {
    let games = xmadn::ratings::rated_games(league);
    let labels: Vec<String> = league
        .games
        .iter()
        .filter(|g| xmadn::ratings::rated_game(league, g).is_some())
        .map(|g| g.id.to_string())
        .collect();
    rated_view(
        &games,
        &labels,
        |p| league.name_of(p),
        competition,
        version,
        system,
        "ARB-R49",
    )
}

/// The view of one competition's own ratings: `games` rated under
/// `system`, each game named by its label in `labels` (same order), each
/// player by `name_of`.
pub(crate) fn rated_view(
    games: &[RatedGame],
    labels: &[String],
    name_of: impl Fn(PlayerId) -> String,
    competition: &str,
    version: u64,
    system: RatingSystem,
    ruling: &str,
) -> RatingsView {
    let rated = ratings::rate(games, &system.system());
    let players = rated
        .by_rating()
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            let (deviation, volatility) = match p.rating {
                Rating::Glicko2(g) => (Some(round1(g.deviation)), Some(g.volatility)),
                _ => (None, None),
            };
            PlayerRatingView {
                rank: i + 1,
                player: name_of(PlayerId(p.player.0)),
                rating: value(p.rating),
                games: p.games,
                deviation,
                volatility,
                history: p
                    .history
                    .iter()
                    .map(|h| RatingPointView {
                        period: h.period,
                        game: h.game.and_then(|i| labels.get(i as usize).cloned()),
                        competition: None,
                        rating: value(h.rating),
                    })
                    .collect(),
            }
        })
        .collect();
    RatingsView {
        competition: competition.to_string(),
        version,
        system,
        system_name: system.system().name().to_string(),
        scope: RatingScope::Competition,
        competitions: vec![competition.to_string()],
        games: games.len(),
        players,
        ruling: ruling.to_string(),
    }
}

/// The AREA report of round `round` of a ladder.
pub fn area_report_view(
    ladder: &Ladder,
    competition: &str,
    version: u64,
    round: u32,
) -> Result<AreaReportView> {
    if !ladder.rounds.iter().any(|r| r.number == round) {
        return Err(ServiceError::Input(format!(
            "the ladder has no round {round}"
        )));
    }
    Ok(AreaReportView {
        competition: competition.to_string(),
        version,
        round,
        text: tws::ratings::area_report(ladder, round, |_| None),
    })
}

fn no_ratings(format: CompetitionFormat) -> ServiceError {
    ServiceError::Input(format!(
        "ratings are kept for {} (ARB-R46, ARB-R49); this competition is {}",
        CompetitionFormat::those_offering(|o| o.ratings),
        format.words()
    ))
}

fn no_area_report(format: CompetitionFormat) -> ServiceError {
    ServiceError::Input(format!(
        "the AREA report is of a Twilight Struggle ladder's round (ARB-R46); this competition is {}",
        format.words()
    ))
}

impl<S: EventStore> Service<S> {
    /// The ratings of a TWS ladder in `system`, over its own games or over
    /// every TWS ladder of the installation (see the module's text); of an
    /// XMadn league, over its own games (ARB-R49).
    pub async fn ratings(
        &self,
        competition: &str,
        system: RatingSystem,
        scope: RatingScope,
    ) -> Result<RatingsView> {
        let format = self.format_of(competition).await?;
        let offers = format.offers();
        if !offers.ratings {
            return Err(no_ratings(format));
        }
        if scope == RatingScope::Installation && !offers.installation_ratings {
            return Err(ServiceError::Input(format!(
                "the installation's ratings are those of {}; {} is rated over its own games (ARB-R49)",
                CompetitionFormat::those_offering(|o| o.installation_ratings),
                format.words()
            )));
        }
        crate::with_format!(format, |F| {
            let (own, version) = self.load_as::<F>(competition, None).await?;
            let mut rated = Vec::new();
            match scope {
                RatingScope::Competition => rated.push((competition.to_string(), own)),
                RatingScope::Installation => {
                    let mut own = Some(own);
                    for id in self.competitions().await? {
                        if id == competition {
                            if let Some(own) = own.take() {
                                rated.push((id, own));
                            }
                        } else if self.format_of(&id).await? == format {
                            let (other, _) = self.load_as::<F>(&id, None).await?;
                            rated.push((id, other));
                        }
                    }
                }
            }
            F::ratings(&rated, competition, version, system, scope)
        })
    }

    /// The AREA report of round `round` of a TWS ladder.
    pub async fn area_report(&self, competition: &str, round: u32) -> Result<AreaReportView> {
        let format = self.format_of(competition).await?;
        if format != <Ladder as crate::Format>::FORMAT {
            return Err(no_area_report(format));
        }
        self.read(competition, |l, v| {
            area_report_view(l, competition, v, round)
        })
        .await?
    }
}

// ----- projections -----

/// What a projection is asked for; every field has a default.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProjectionRequest {
    /// Simulated seasons ([`DEFAULT_SEASONS`], at most [`MAX_SEASONS`]).
    pub seasons: Option<u32>,
    /// The seed's text (see the module's text).
    pub seed: Option<String>,
    /// Ladder rounds after the running one ([`DEFAULT_ROUNDS`]).
    pub rounds: Option<u32>,
    /// The ladder's rating system for the odds (AREA).
    pub system: Option<RatingSystem>,
}

/// An outcome a projection counts.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct OutcomeView {
    /// "champion", "top3", "place-1", "group-win", ...
    pub key: String,
    /// "Champion", "Top 3", "1st place", ...
    pub label: String,
}

/// How often one outcome happened to one player.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct OutcomeCountView {
    pub outcome: String,
    /// Simulated seasons in which it happened.
    pub count: u32,
    /// `count / seasons`, for display.
    pub probability: f64,
}

/// A player's line: one count per outcome of the group, in its order.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct ProjectedPlayerView {
    pub player: String,
    pub outcomes: Vec<OutcomeCountView>,
}

/// The players projected together (the ladder, the league, a Sunjang
/// division) and the outcomes counted for them.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct ProjectionGroupView {
    /// "Ladder", "League", "Division A".
    pub title: String,
    pub outcomes: Vec<OutcomeView>,
    pub players: Vec<ProjectedPlayerView>,
}

/// A Monte-Carlo projection (ARB-R48).
#[derive(Debug, Clone, Serialize, PartialEq)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct ProjectionView {
    pub competition: String,
    pub version: u64,
    /// `tws-ladder`, `xmadn-league`, `sunjang-league`.
    pub format: String,
    pub seasons: u32,
    /// The seed, 64 hexadecimal digits: the same seed gives the same counts.
    pub seed: String,
    /// Ladder rounds simulated after the running one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
    /// The odds: where the strengths come from, the draw rate.
    pub model: String,
    /// Draws per million games not forfeited.
    pub draw_ppm: u32,
    pub ruling: String,
    pub groups: Vec<ProjectionGroupView>,
}

pub(crate) fn seed_of(text: Option<&str>, competition: &str, version: u64) -> Seed {
    if let Some(t) = text {
        let t = t.trim();
        let mut raw = [0u8; 32];
        if t.len() == 64 && hex::decode_to_slice(t, &mut raw).is_ok() {
            return raw;
        }
        return Sha256::digest(t.as_bytes()).into();
    }
    let mut h = Sha256::new();
    for part in ["arbiter-projection", competition, &version.to_string()] {
        h.update(part.as_bytes());
        h.update([0u8]);
    }
    h.finalize().into()
}

pub(crate) fn seasons_of(asked: Option<u32>) -> Result<u32> {
    let n = asked.unwrap_or(DEFAULT_SEASONS);
    if n == 0 || n > MAX_SEASONS {
        return Err(ServiceError::Input(format!(
            "seasons must be from 1 to {MAX_SEASONS}, not {n}"
        )));
    }
    Ok(n)
}

fn per_million(ppm: u32) -> String {
    format!("{:.1}%", f64::from(ppm) / 10_000.0)
}

pub(crate) fn group<O: Ord + Copy>(
    title: String,
    columns: &[(O, String, String)],
    projection: &Projection<O>,
    players: &[PlayerId],
    name: impl Fn(PlayerId) -> String,
) -> ProjectionGroupView {
    ProjectionGroupView {
        title,
        outcomes: columns
            .iter()
            .map(|(_, key, label)| OutcomeView {
                key: key.clone(),
                label: label.clone(),
            })
            .collect(),
        players: players
            .iter()
            .map(|&p| ProjectedPlayerView {
                player: name(p),
                outcomes: columns
                    .iter()
                    .map(|(o, key, _)| OutcomeCountView {
                        outcome: key.clone(),
                        count: projection.count(p, *o),
                        probability: projection.probability(p, *o),
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// What a projection reports as it runs: simulated seasons done, out of
/// how many in all (every division's seasons for a Sunjang league). It is
/// called every [`projection::PROGRESS_EVERY`] seasons and at the end, and
/// answers whether to go on: `Break` stops the projection, which is then
/// refused as stopped (a server whose caller went away, issue 14).
pub type Progress<'a> = &'a mut dyn FnMut(u64, u64) -> ControlFlow<()>;

/// The refusal of a projection its progress callback stopped.
fn stopped() -> ServiceError {
    ServiceError::Input("the projection was stopped before it finished".to_string())
}

/// `Err` when the engine's projection counts fewer seasons than asked: its
/// callback stopped it.
pub(crate) fn finished<O>(p: Projection<O>, asked: u32) -> Result<Projection<O>> {
    if p.seasons < asked {
        Err(stopped())
    } else {
        Ok(p)
    }
}

/// The projection of a ladder.
pub fn ladder_projection(
    ladder: &Ladder,
    competition: &str,
    version: u64,
    request: &ProjectionRequest,
    progress: Progress<'_>,
) -> Result<ProjectionView> {
    let seasons = seasons_of(request.seasons)?;
    let rounds = request.rounds.unwrap_or(DEFAULT_ROUNDS);
    if rounds > MAX_ROUNDS {
        return Err(ServiceError::Input(format!(
            "rounds must be at most {MAX_ROUNDS}, not {rounds}"
        )));
    }
    let system = request.system.unwrap_or_default();
    let seed = seed_of(request.seed.as_deref(), competition, version);
    let draw = tie_rate(ladder);
    let rated = ratings::rate(&tws::ratings::rated_games(ladder), &system.system());
    let model = WinModel::from_ratings(&rated, draw);
    let total = u64::from(seasons);
    let p = projection::tws::project_ladder_with_progress(
        ladder,
        rounds,
        &model,
        seasons,
        seed,
        &mut |done| progress(u64::from(done), total),
    )?;
    let p = finished(p, seasons)?;
    use LadderOutcome as L;
    let columns: Vec<(L, String, String)> = [
        (L::Champion, "champion", "Champion"),
        (L::Top3, "top3", "Top 3"),
        (L::Top10, "top10", "Top 10"),
        (L::UpperHalf, "upper-half", "Upper half"),
        (L::Climbs, "climbs", "Climbs"),
        (L::Falls, "falls", "Falls"),
    ]
    .into_iter()
    .map(|(o, k, l)| (o, k.to_string(), l.to_string()))
    .collect();
    let players: Vec<PlayerId> = p.per_player.keys().copied().collect();
    let order: Vec<PlayerId> = ladder
        .order
        .iter()
        .copied()
        .chain(players.into_iter().filter(|x| !ladder.order.contains(x)))
        .collect();
    Ok(ProjectionView {
        competition: competition.to_string(),
        version,
        format: "tws-ladder".to_string(),
        seasons,
        seed: hex::encode(seed),
        rounds: Some(rounds),
        model: format!(
            "{} ratings of the ladder's rated games; ties at the ladder's rate so far, {}",
            rated.system.name(),
            per_million(draw)
        ),
        draw_ppm: draw,
        ruling: projection::RULING.to_string(),
        groups: vec![group("Ladder".to_string(), &columns, &p, &order, |id| {
            ladder.name_of(id)
        })],
    })
}

/// The projection of an XMadn league.
pub fn league_projection(
    league: &League,
    competition: &str,
    version: u64,
    request: &ProjectionRequest,
    progress: Progress<'_>,
) -> Result<ProjectionView> {
    let seasons = seasons_of(request.seasons)?;
    let seed = seed_of(request.seed.as_deref(), competition, version);
    // ARB-R49: the league's own games rated as a ladder's are (the system
    // asked for, AREA by default); never drawn.
    let system = request.system.unwrap_or_default();
    let rated = ratings::rate(&xmadn::ratings::rated_games(league), &system.system());
    let model = WinModel::from_ratings(&rated, 0);
    let total = u64::from(seasons);
    let p = projection::xmadn::project_league_with_progress(
        league,
        &model,
        seasons,
        seed,
        &mut |done| progress(u64::from(done), total),
    )?;
    let p = finished(p, seasons)?;
    use XmadnOutcome as X;
    let columns: Vec<(X, String, String)> = vec![
        (X::Place(1), "place-1".into(), "1st place".into()),
        (X::Place(2), "place-2".into(), "2nd place".into()),
        (X::Place(3), "place-3".into(), "3rd place".into()),
        (X::DieRoll, "die-roll".into(), "Die roll".into()),
        (X::Playoff, "playoff".into(), "Playoff".into()),
        (X::Final, "final".into(), "Final".into()),
        (X::Title, "title".into(), "Title".into()),
    ];
    Ok(ProjectionView {
        competition: competition.to_string(),
        version,
        format: "xmadn-league".to_string(),
        seasons,
        seed: hex::encode(seed),
        rounds: None,
        model: format!(
            "{} ratings of the league's games (ARB-R49); no draws",
            rated.system.name()
        ),
        draw_ppm: 0,
        ruling: projection::RULING.to_string(),
        groups: vec![group("League".to_string(), &columns, &p, &PLAYERS, |id| {
            league.name_of(id)
        })],
    })
}

fn ordinal(n: u32) -> String {
    arbiter_engine::explain::ordinal(n as usize)
}

/// The projection of every division of a Sunjang league's running season.
pub fn sunjang_projection(
    league: &arbiter_engine::sunjang::season::League,
    competition: &str,
    version: u64,
    request: &ProjectionRequest,
    progress: Progress<'_>,
) -> Result<ProjectionView> {
    let seasons = seasons_of(request.seasons)?;
    let seed = seed_of(request.seed.as_deref(), competition, version);
    let season = league
        .current()
        .ok_or_else(|| ServiceError::Input("the league has no season to project".to_string()))?;
    let draw = jigo_rate(league);
    let model = listed_ratings(league, draw);
    let name = |id: PlayerId| {
        id.0.checked_sub(1)
            .and_then(|i| league.players.get(i as usize))
            .map_or_else(|| id.0.to_string(), |p| p.name.clone())
    };
    let last = season.divisions.len().saturating_sub(1);
    let mut groups = Vec::new();
    for (d, division) in season.divisions.iter().enumerate() {
        let d32 = u32::try_from(d).unwrap_or(u32::MAX);
        let (before, total) = (
            u64::from(seasons) * d as u64,
            u64::from(seasons) * season.divisions.len() as u64,
        );
        let p = projection::sunjang::project_division_with_progress(
            league,
            d32,
            &model,
            seasons,
            seed,
            &mut |done| progress(before + u64::from(done), total),
        )?;
        let p = finished(p, seasons)?;
        use SunjangOutcome as J;
        let largest = division.iter().map(|g| g.players.len()).max().unwrap_or(0);
        let mut wanted: BTreeSet<J> = (1..=u32::try_from(largest).unwrap_or(0))
            .map(J::GroupPlace)
            .collect();
        wanted.insert(J::GroupWin);
        if d == 0 {
            wanted.insert(J::FinalRound);
            wanted.insert(J::Title);
        } else {
            wanted.insert(J::DirectPromotion);
        }
        if d < last {
            wanted.insert(J::Demotion);
        }
        let seen: BTreeMap<J, ()> = p
            .per_player
            .values()
            .flat_map(|m| m.keys().map(|&o| (o, ())))
            .collect();
        wanted.extend(seen.into_keys());
        let columns: Vec<(J, String, String)> = wanted
            .into_iter()
            .map(|o| match o {
                J::GroupPlace(n) => (o, format!("group-place-{n}"), ordinal(n)),
                J::GroupWin => (o, "group-win".into(), "Group win".into()),
                J::DirectPromotion => (o, "promotion".into(), "Promotion".into()),
                J::Demotion => (o, "demotion".into(), "Demotion".into()),
                J::FinalRound => (o, "final-round".into(), "Final round".into()),
                J::Title => (o, "title".into(), "Title".into()),
            })
            .collect();
        let players: Vec<PlayerId> = division.iter().flat_map(|g| g.players.clone()).collect();
        groups.push(group(
            format!("Division {}", division_letter(d32)),
            &columns,
            &p,
            &players,
            name,
        ));
    }
    Ok(ProjectionView {
        competition: competition.to_string(),
        version,
        format: "sunjang-league".to_string(),
        seasons,
        seed: hex::encode(seed),
        rounds: None,
        model: format!(
            "the overall ratings the league lists, read as Elo; jigo at the league's rate so far, {}",
            per_million(draw)
        ),
        draw_ppm: draw,
        ruling: projection::RULING.to_string(),
        groups,
    })
}

/// A loaded competition for [`Loaded::project`]: it needs no store and no
/// runtime, so a server can run it on a blocking thread.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub competition: String,
    pub version: u64,
    pub state: std::sync::Arc<dyn crate::format::AnyCompetition>,
}

impl Loaded {
    /// Run the projection (CPU-bound: many simulated seasons).
    pub fn project(&self, request: &ProjectionRequest) -> Result<ProjectionView> {
        self.project_until(request, &mut |_, _| ControlFlow::Continue(()))
    }

    /// [`Loaded::project`], reporting the seasons simulated so far to
    /// `progress` (for a progress bar); the same figures.
    pub fn project_with_progress(
        &self,
        request: &ProjectionRequest,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<ProjectionView> {
        self.project_until(request, &mut |done, total| {
            progress(done, total);
            ControlFlow::Continue(())
        })
    }

    /// [`Loaded::project_with_progress`] whose callback may stop the
    /// projection (`Break`): it is then refused as stopped, with nothing
    /// counted.
    pub fn project_until(
        &self,
        request: &ProjectionRequest,
        progress: Progress<'_>,
    ) -> Result<ProjectionView> {
        self.state
            .project(&self.competition, self.version, request, progress)
    }
}

impl<S: EventStore> Service<S> {
    /// Load a competition for a projection; refused for a format without
    /// one (XMadn Challengers).
    pub async fn projection_input(&self, competition: &str) -> Result<Loaded> {
        let format = self.format_of(competition).await?;
        if !format.offers().projection {
            return Err(ServiceError::Input(format!(
                "there is no projection for {}",
                format.words()
            )));
        }
        let (state, version) = self.load_any(competition).await?;
        Ok(Loaded {
            competition: competition.to_string(),
            version,
            state,
        })
    }

    /// The projection of a competition (see the module's text), on the
    /// caller's thread.
    pub async fn projection(
        &self,
        competition: &str,
        request: &ProjectionRequest,
    ) -> Result<ProjectionView> {
        self.projection_input(competition).await?.project(request)
    }
}

// ----- what-if -----

/// A ladder after its running round's close with hypothetical results:
/// computed on a copy, nothing stored.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct WhatIfView {
    pub competition: String,
    /// The version the copy was taken at.
    pub version: u64,
    /// The hypothetical results, as recorded on the copy ("G12: Hiro Tanaka
    /// (USSR) wins").
    pub results: Vec<String>,
    /// The close of the running round on the copy, when every game of it
    /// then has a result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub close: Option<crate::views::CloseView>,
    /// The ladder after that close.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ladder: Option<crate::views::LadderView>,
    /// When games of the round are still undecided: each player's best
    /// and worst rung at the close, over every outcome of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub possible: Option<PossibleView>,
}

/// The rungs still possible when the running round closes (issue 15,
/// item 5): the games not decided stay undecided.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct PossibleView {
    pub round: u32,
    /// The games still undecided ("G7 \"Ladder Round 2 Ames v. Baker\"").
    pub undecided: Vec<String>,
    /// Completions examined (two outcomes per undecided game), 0 when the
    /// ranges are a bound.
    pub completions: u64,
    /// Every completion was examined; otherwise the ranges are a sound
    /// bound (the true best and worst lie within them).
    pub exact: bool,
    /// How the ranges were found, in words.
    pub how: String,
    pub players: Vec<PossibleRungView>,
}

/// One player's rungs still possible.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct PossibleRungView {
    pub name: String,
    /// His rung now.
    pub now: u32,
    /// The best rung he can have after the close (none if he leaves the
    /// ladder in every outcome).
    pub best: Option<u32>,
    /// The worst rung he can have while on the ladder.
    pub worst: Option<u32>,
    /// He may leave for the list of inactive players (TWS-R4).
    pub may_retire: bool,
}

/// The most completions of a round's undecided games a what-if closes one
/// by one (2 per game: 14 games); beyond, the ranges are bounded.
pub const WHAT_IF_COMPLETIONS: u64 = 1 << 14;

fn possible_view(l: &Ladder, at: arbiter_engine::model::Time) -> Option<PossibleView> {
    let p = l.possible_rungs(at, WHAT_IF_COMPLETIONS)?;
    let tie = l.rules_for(p.round).tie_advances;
    let how = if p.exact {
        format!(
            "every outcome of the {} undecided game(s) examined ({} completions); a tie counts as a win for the {tie} on the ladder (TWS-R11), so it gives no other rung",
            p.undecided.len(),
            p.completions
        )
    } else {
        format!(
            "{} undecided games are too many to examine every outcome (more than {WHAT_IF_COMPLETIONS}): the ranges are a sound bound from the re-sort (winners above losers, each in their previous order, TWS-R1); the true best and worst lie within them",
            p.undecided.len()
        )
    };
    Some(PossibleView {
        round: p.round,
        undecided: p
            .undecided
            .iter()
            .filter_map(|g| l.game(*g))
            .map(|g| format!("{} \"{}\"", g.id, l.game_name(g)))
            .collect(),
        completions: p.completions,
        exact: p.exact,
        how,
        players: p
            .ranges
            .iter()
            .map(|r| PossibleRungView {
                name: l.name_of(r.player),
                now: r.now,
                best: r.best,
                worst: r.worst,
                may_retire: r.may_retire,
            })
            .collect(),
    })
}

/// The ladder after its running round closes with the hypothetical
/// `results` (game label → `ussr`, `us`, `tie` or a player's name), at
/// `at`. Games of the round left without a result stay undecided: the
/// view then gives, instead of the close, each player's best and worst
/// rung over every outcome of them ([`PossibleView`]; forfeits and
/// carry-overs are not simulated). A result after the game's deadline is
/// recorded as agreed by the players.
pub fn ladder_what_if(
    ladder: &Ladder,
    competition: &str,
    version: u64,
    results: &[(String, String)],
    at: arbiter_engine::model::Time,
) -> Result<WhatIfView> {
    use arbiter_engine::model::{EndTag, Outcome};
    use arbiter_engine::tws::{Command, ResultInput};
    let mut l = ladder.clone();
    if l.open_round().is_none() {
        return Err(ServiceError::Input(
            "there is no running round to close".to_string(),
        ));
    }
    let mut done = Vec::new();
    for (label, who) in results {
        let game = l
            .games
            .iter()
            .find(|g| g.id.to_string().eq_ignore_ascii_case(label.trim()))
            .ok_or_else(|| ServiceError::Input(format!("there is no game {label:?}")))?;
        let outcome = crate::tws::outcome_of(&l, game, who).map_err(ServiceError::Input)?;
        let agreed = game.deadline.is_some_and(|d| at > d);
        let command = Command::RecordResult {
            game: game.id,
            result: ResultInput {
                outcome,
                // A tie comes only from final scoring; a win by
                // concession needs no VP or turn.
                ended_by: if outcome == Outcome::Tie {
                    EndTag::FinalScoring
                } else {
                    EndTag::Concession
                },
                vp: None,
                turn: None,
                note: None,
            },
            agreed,
            at,
        };
        let text = crate::tws::outcome_text(&l, game, outcome);
        for e in l.decide(command)? {
            l.apply(&e);
        }
        done.push(text);
    }
    let undecided = l.open_round().is_some_and(|r| {
        r.games
            .iter()
            .any(|g| l.game(*g).is_some_and(|g| !g.status.is_resolved()))
    });
    if undecided {
        // Undecided games stay undecided: what the decided results do is
        // the range of rungs left to each player.
        return Ok(WhatIfView {
            competition: competition.to_string(),
            version,
            results: done,
            close: None,
            ladder: None,
            possible: possible_view(&l, at),
        });
    }
    for e in l.decide(Command::CloseRound { at })? {
        l.apply(&e);
    }
    let close = l
        .rounds
        .iter()
        .rev()
        .find_map(|r| r.closed.as_deref())
        .map(|c| crate::views::close_view(&l, c))
        .ok_or_else(|| ServiceError::Input("the round did not close".to_string()))?;
    Ok(WhatIfView {
        competition: competition.to_string(),
        version,
        results: done,
        close: Some(close),
        ladder: Some(crate::views::ladder_view(&l, competition, version)),
        possible: None,
    })
}

impl<S: EventStore> Service<S> {
    /// [`ladder_what_if`] on the current ladder: nothing is stored.
    pub async fn what_if(
        &self,
        competition: &str,
        results: &[(String, String)],
        at: arbiter_engine::model::Time,
    ) -> Result<WhatIfView> {
        let format = self.format_of(competition).await?;
        if format != <Ladder as crate::Format>::FORMAT {
            return Err(ServiceError::Input(format!(
                "what-if is for Twilight Struggle ladders; this competition is {}",
                format.words()
            )));
        }
        self.read(competition, |l, v| {
            ladder_what_if(l, competition, v, results, at)
        })
        .await?
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds() {
        let a = seed_of(None, "ladder", 3);
        assert_eq!(a, seed_of(None, "ladder", 3));
        assert_ne!(a, seed_of(None, "ladder", 4));
        let raw = "00".repeat(31) + "01";
        assert_eq!(seed_of(Some(&raw), "x", 1)[31], 1);
        assert_eq!(seed_of(Some("42"), "x", 1), seed_of(Some(" 42 "), "y", 2));
    }

    #[test]
    fn bounds() {
        assert!(seasons_of(Some(0)).is_err());
        assert!(seasons_of(Some(MAX_SEASONS + 1)).is_err());
        assert_eq!(seasons_of(None).ok(), Some(DEFAULT_SEASONS));
        assert_eq!(
            "Glicko-2".parse::<RatingSystem>().ok(),
            Some(RatingSystem::Glicko2)
        );
    }

    #[test]
    fn ordinals() {
        assert_eq!(ordinal(1), "1st");
        assert_eq!(ordinal(12), "12th");
        assert_eq!(ordinal(22), "22nd");
    }
}
