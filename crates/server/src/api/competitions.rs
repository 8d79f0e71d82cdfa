//! Reading competitions of every format: the list, one competition's view,
//! its history, a ladder round, a Sunjang season.

use arbiter_engine::sunjang::season::League as SunjangLeague;
use arbiter_engine::tws::Ladder;
use arbiter_engine::xmadn::challengers::Challengers;
use arbiter_engine::xmadn::league::League;
use arbiter_service::sunjang::{SeasonView, SunjangView, season_view, sunjang_view};
use arbiter_service::views::{self, LadderView, RoundView};
use arbiter_service::xmadn::{ChallengersView, LeagueView, challengers_view, league_view};
use arbiter_service::{Format, ServiceError};
use arbiter_store::{EventStore, StoredEvent};
use axum::Json;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{ApiPath, ApiQuery, Versioned};
use crate::error::{ApiError, ErrorBody};
use crate::{AppState, Svc};

/// The format of a competition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CompetitionFormat {
    /// A Twilight Struggle ladder.
    TwsLadder,
    /// An XMadn Double-Threat league.
    XmadnLeague,
    /// An XMadn Challengers event (winner stays, first to x).
    XmadnChallengers,
    /// A Sunjang Baduk league.
    SunjangLeague,
}

impl CompetitionFormat {
    /// The format a competition's first event creates.
    fn of_kind(kind: &str) -> Option<Self> {
        Some(match kind {
            k if k == Ladder::CREATED => Self::TwsLadder,
            k if k == League::CREATED => Self::XmadnLeague,
            k if k == Challengers::CREATED => Self::XmadnChallengers,
            k if k == SunjangLeague::CREATED => Self::SunjangLeague,
            _ => return None,
        })
    }

    /// The format of competition `id` (404 when there is none).
    async fn of(svc: &Svc, id: &str) -> Result<Self, ApiError> {
        let kind = svc.kind_of(id).await?;
        Self::of_kind(&kind).ok_or_else(|| {
            ApiError::from(ServiceError::Input(format!(
                "competition {id:?} begins with a {kind:?} event, of no format this server knows; the log is damaged"
            )))
        })
    }

    /// Words for users, with the article.
    fn words(self) -> &'static str {
        match self {
            Self::TwsLadder => "a TWS ladder",
            Self::XmadnLeague => "an XMadn league",
            Self::XmadnChallengers => "an XMadn Challengers event",
            Self::SunjangLeague => "a Sunjang league",
        }
    }
}

/// A line of the list of competitions (as `arbiter competition list --json`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CompetitionSummary {
    pub id: String,
    pub name: String,
    pub format: CompetitionFormat,
    /// Ladder members, league or Challengers players, Sunjang entrants.
    pub members: usize,
    /// Ladder rounds, league double round-robins, Challengers games,
    /// Sunjang seasons.
    pub rounds: usize,
    /// The number of events: what `If-Match` names on writes.
    pub version: u64,
}

async fn summary(svc: &Svc, id: &str) -> Result<CompetitionSummary, ApiError> {
    let format = CompetitionFormat::of(svc, id).await?;
    let row = |name: &str, members: usize, rounds: usize, version: u64| CompetitionSummary {
        id: id.to_string(),
        name: name.to_string(),
        format,
        members,
        rounds,
        version,
    };
    Ok(match format {
        CompetitionFormat::TwsLadder => {
            svc.read(id, |l, v| row(&l.name, l.order.len(), l.rounds.len(), v))
                .await?
        }
        CompetitionFormat::XmadnLeague => {
            svc.read_as::<League, _>(id, |l, v| row(&l.name, l.players.len(), l.drrs.len(), v))
                .await?
        }
        CompetitionFormat::XmadnChallengers => {
            svc.read_as::<Challengers, _>(id, |c, v| {
                row(&c.name, c.players.len(), c.games().len(), v)
            })
            .await?
        }
        CompetitionFormat::SunjangLeague => {
            svc.read_as::<SunjangLeague, _>(id, |l, v| {
                row(&l.name, l.entrants().len(), l.seasons.len(), v)
            })
            .await?
        }
    })
}

#[utoipa::path(
    get,
    path = "/api/competitions",
    tag = "competitions",
    responses(
        (status = 200, description = "Every competition in the database, by id", body = [CompetitionSummary]),
        (status = 500, description = "The database failed", body = ErrorBody),
    )
)]
pub async fn list(
    State(state): State<AppState>,
) -> Result<Json<Vec<CompetitionSummary>>, ApiError> {
    let svc = &state.service;
    let mut rows = Vec::new();
    for id in svc.competitions().await? {
        rows.push(summary(svc, &id).await?);
    }
    Ok(Json(rows))
}

/// A competition's view, by its format (`format` says which `view` it is).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(tag = "format", content = "view", rename_all = "kebab-case")]
pub enum CompetitionView {
    /// The ladder: rungs, champion and streak, the current round's number,
    /// inactive players, applicants, eliminators, moderators.
    TwsLadder(LadderView),
    /// The league: table with its explanations, double round-robins,
    /// playoff, die rolls.
    XmadnLeague(LeagueView),
    /// The Challengers event: games, standings, the next game, champion.
    XmadnChallengers(ChallengersView),
    /// The Sunjang league: players and every season (divisions, groups,
    /// crosstables, placements with their reasons, final round).
    SunjangLeague(SunjangView),
}

#[utoipa::path(
    get,
    path = "/api/competitions/{id}",
    tag = "competitions",
    params(("id" = String, Path, description = "The competition's id, e.g. `tws-demo`")),
    responses(
        (status = 200, description = "The competition's view by its format", body = CompetitionView,
            headers(("ETag" = String, description = "The competition's version, `\"v42\"`"))),
        (status = 404, description = "No such competition", body = ErrorBody),
        (status = 500, description = "The database failed", body = ErrorBody),
    )
)]
pub async fn show(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> Result<Versioned<CompetitionView>, ApiError> {
    let svc = &state.service;
    let (version, view) = match CompetitionFormat::of(svc, &id).await? {
        CompetitionFormat::TwsLadder => {
            svc.read(&id, |l, v| {
                (v, CompetitionView::TwsLadder(views::ladder_view(l, &id, v)))
            })
            .await?
        }
        CompetitionFormat::XmadnLeague => {
            svc.read_as::<League, _>(&id, |l, v| {
                (v, CompetitionView::XmadnLeague(league_view(l, &id, v)))
            })
            .await?
        }
        CompetitionFormat::XmadnChallengers => {
            svc.read_as::<Challengers, _>(&id, |c, v| {
                (
                    v,
                    CompetitionView::XmadnChallengers(challengers_view(c, &id, v)),
                )
            })
            .await?
        }
        CompetitionFormat::SunjangLeague => {
            svc.read_as::<SunjangLeague, _>(&id, |l, v| {
                (v, CompetitionView::SunjangLeague(sunjang_view(l, &id, v)))
            })
            .await?
        }
    };
    Ok(Versioned(version, view))
}

/// Which events of the history.
#[derive(Debug, Deserialize)]
pub struct HistoryQuery {
    /// Only the last `limit` events.
    pub limit: Option<usize>,
}

/// One event of a competition's history.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HistoryEvent {
    /// 1, 2, 3 … without gaps.
    pub seq: u64,
    /// The event's kind, e.g. `result-recorded`.
    pub kind: String,
    /// Who did it.
    pub actor: String,
    /// When it was recorded (RFC 3339, UTC).
    pub time: String,
    /// Undone by a later `reverted` event.
    pub undone: bool,
    /// The event as stored: the permanent record's JSON (versioned, `"v": 1`).
    pub payload: serde_json::Value,
}

/// The history rows of stored events of format `F`: each payload as
/// stored, and which events a later undo reverted.
fn history_rows<F: Format>(
    id: &str,
    stored: Vec<StoredEvent>,
) -> Result<Vec<HistoryEvent>, ApiError> {
    let mut reverted = std::collections::HashSet::new();
    for s in &stored {
        let event = F::decode(&s.payload).map_err(|source| ServiceError::Record {
            competition: id.to_string(),
            seq: s.seq,
            source,
        })?;
        reverted.extend(F::reverted(&event));
    }
    stored
        .into_iter()
        .map(|s| {
            let payload = serde_json::from_str(&s.payload).map_err(|e| {
                ApiError::from(ServiceError::Input(format!(
                    "event {} of {id} is not JSON ({e}); the log is damaged",
                    s.seq
                )))
            })?;
            Ok(HistoryEvent {
                undone: reverted.contains(&s.seq),
                seq: s.seq,
                kind: s.kind,
                actor: s.actor,
                time: s.recorded_at,
                payload,
            })
        })
        .collect()
}

#[utoipa::path(
    get,
    path = "/api/competitions/{id}/history",
    tag = "competitions",
    params(
        ("id" = String, Path, description = "The competition's id"),
        ("limit" = Option<usize>, Query, description = "Only the last `limit` events"),
    ),
    responses(
        (status = 200, description = "The competition's events, oldest first", body = [HistoryEvent],
            headers(("ETag" = String, description = "The competition's version, `\"v42\"`"))),
        (status = 400, description = "A malformed `limit`", body = ErrorBody),
        (status = 404, description = "No such competition", body = ErrorBody),
        (status = 500, description = "The database failed", body = ErrorBody),
    )
)]
pub async fn history(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    ApiQuery(query): ApiQuery<HistoryQuery>,
) -> Result<Versioned<Vec<HistoryEvent>>, ApiError> {
    let svc = &state.service;
    let format = CompetitionFormat::of(svc, &id).await?;
    let stored = svc
        .store()
        .read(&id, 1, None)
        .await
        .map_err(ServiceError::from)?;
    let version = stored.last().map_or(0, |s| s.seq);
    let rows = match format {
        CompetitionFormat::TwsLadder => history_rows::<Ladder>(&id, stored)?,
        CompetitionFormat::XmadnLeague => history_rows::<League>(&id, stored)?,
        CompetitionFormat::XmadnChallengers => history_rows::<Challengers>(&id, stored)?,
        CompetitionFormat::SunjangLeague => history_rows::<SunjangLeague>(&id, stored)?,
    };
    let skip = query.limit.map_or(0, |n| rows.len().saturating_sub(n));
    Ok(Versioned(version, rows.into_iter().skip(skip).collect()))
}

/// 404 unless competition `id` is of `format`, naming what it is.
async fn expect_format(
    svc: &Svc,
    id: &str,
    format: CompetitionFormat,
    what: &str,
) -> Result<(), ApiError> {
    let actual = CompetitionFormat::of(svc, id).await?;
    if actual == format {
        return Ok(());
    }
    Err(ApiError::not_found(format!(
        "competition {id:?} is {}: it has no {what} (those are for {})",
        actual.words(),
        format.words()
    )))
}

#[utoipa::path(
    get,
    path = "/api/competitions/{id}/rounds/{n}",
    tag = "competitions",
    params(
        ("id" = String, Path, description = "The id of a TWS ladder"),
        ("n" = u32, Path, description = "The round's number, from 1"),
    ),
    responses(
        (status = 200, description = "The ladder round: games with sides and their reasons, skips, byes, deadline, overdue games, the revealed seed", body = RoundView,
            headers(("ETag" = String, description = "The competition's version, `\"v42\"`"))),
        (status = 400, description = "A round number that is not a number", body = ErrorBody),
        (status = 404, description = "No such competition or round, or not a ladder", body = ErrorBody),
        (status = 500, description = "The database failed", body = ErrorBody),
    )
)]
pub async fn round(
    State(state): State<AppState>,
    ApiPath((id, n)): ApiPath<(String, u32)>,
) -> Result<Versioned<RoundView>, ApiError> {
    let svc = &state.service;
    expect_format(svc, &id, CompetitionFormat::TwsLadder, "ladder rounds").await?;
    let now = state.now();
    let (version, view) = svc
        .read(&id, |l, v| {
            let view = l
                .rounds
                .iter()
                .find(|r| r.number == n)
                .map(|r| views::round_view(l, &id, r, now));
            (v, view)
        })
        .await?;
    match view {
        Some(view) => Ok(Versioned(version, view)),
        None => Err(ApiError::not_found(format!("{id} has no round {n}"))),
    }
}

#[utoipa::path(
    get,
    path = "/api/competitions/{id}/seasons/{n}",
    tag = "competitions",
    params(
        ("id" = String, Path, description = "The id of a Sunjang league"),
        ("n" = u32, Path, description = "The season's number, from 1"),
    ),
    responses(
        (status = 200, description = "The season: divisions, groups with crosstables, every placement with its reason, the final round", body = SeasonView,
            headers(("ETag" = String, description = "The competition's version, `\"v42\"`"))),
        (status = 400, description = "A season number that is not a number", body = ErrorBody),
        (status = 404, description = "No such competition or season, or not a Sunjang league", body = ErrorBody),
        (status = 500, description = "The database failed", body = ErrorBody),
    )
)]
pub async fn season(
    State(state): State<AppState>,
    ApiPath((id, n)): ApiPath<(String, u32)>,
) -> Result<Versioned<SeasonView>, ApiError> {
    let svc = &state.service;
    expect_format(svc, &id, CompetitionFormat::SunjangLeague, "seasons").await?;
    let (version, view) = svc
        .read_as::<SunjangLeague, _>(&id, |l, v| {
            let view = l
                .seasons
                .iter()
                .find(|s| s.number() == n)
                .map(|s| season_view(l, s));
            (v, view)
        })
        .await?;
    match view {
        Some(view) => Ok(Versioned(version, view)),
        None => Err(ApiError::not_found(format!("{id} has no season {n}"))),
    }
}
