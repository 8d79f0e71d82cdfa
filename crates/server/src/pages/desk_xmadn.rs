//! The desks of an XMadn league and of an XMadn Challengers event: the
//! moderators roll the dice, record, correct and cancel games and run the
//! playoff here, with the same [`crate::actions_xmadn`] as the API. Every
//! form posts to `/c/{id}/act` with the session's CSRF token, an
//! idempotency key and the version it was shown at.

use arbiter_engine::xmadn::challengers::Challengers;
use arbiter_engine::xmadn::league::{League, Phase};
use arbiter_service::xmadn::{
    ChallengersView, LeagueGameView, LeagueView, challengers_view, league_view,
};
use arbiter_store::{AccountStore, Role};
use askama::Template;
use axum::Form;
use axum::body::{Body, Bytes};
use axum::extract::FromRequest;
use axum::http::{Request, header};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::{Chrome, Kind, render};
use crate::AppState;
use crate::actions_xmadn::{self, ChallengersAction, LeagueAction};
use crate::auth::{self, Caller, Roles};
use crate::error::ApiError;

/// Parse a posted form body as `T`; the error names the problem.
pub(super) async fn form_of<T: DeserializeOwned>(body: &Bytes) -> Result<T, ApiError> {
    let request = Request::builder()
        .method("POST")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(body.clone()))
        .map_err(ApiError::internal)?;
    Form::<T>::from_request(request, &())
        .await
        .map(|Form(t)| t)
        .map_err(|e| ApiError::bad_request(e.body_text()).with_field("form"))
}

/// What every desk shows: who the caller is, and the form's tokens.
#[derive(Debug)]
pub(super) struct DeskHead {
    pub id: String,
    pub csrf: String,
    pub key: String,
    pub version: u64,
    pub roles: Roles,
    pub username: String,
    /// The account's own name: he plays under it even unlinked (ARB-R2).
    pub display_name: String,
    pub done: Option<String>,
    /// For the owner: the accounts with a moderator grant here (these
    /// formats keep their moderators as grants only).
    pub moderator_accounts: Vec<String>,
}

impl DeskHead {
    pub(super) async fn of(
        state: &AppState,
        caller: &Caller,
        id: &str,
        version: u64,
        done: Option<&str>,
    ) -> Result<Self, ApiError> {
        let account = caller.account()?;
        let roles = caller.roles(state, id).await?;
        let moderator_accounts = if roles.owner {
            state
                .service
                .store()
                .grants_in(id)
                .await
                .map_err(ApiError::from_store)?
                .into_iter()
                .filter(|g| g.role == Role::Moderator)
                .map(|g| g.username)
                .collect()
        } else {
            Vec::new()
        };
        Ok(Self {
            id: id.to_string(),
            csrf: caller.csrf_token().unwrap_or_default().to_string(),
            key: auth::random_token()?,
            version,
            roles,
            username: account.username.clone(),
            display_name: account.display_name.clone(),
            done: done.and_then(done_message).map(str::to_string),
            moderator_accounts,
        })
    }

    /// The caller plays under one of these names.
    pub(super) fn plays(&self, names: &[String]) -> bool {
        [
            self.roles.player.as_deref(),
            Some(self.display_name.as_str()),
        ]
        .into_iter()
        .flatten()
        .any(|me| {
            names
                .iter()
                .any(|n| n.trim().eq_ignore_ascii_case(me.trim()))
        })
    }
}

/// The sentence after a form that worked (fixed texts: nothing from the
/// address is echoed).
pub(super) fn done_message(action: &str) -> Option<&'static str> {
    Some(match action {
        "roll" => "The dice were rolled.",
        "record-result" => "The result was recorded.",
        "correct-result" => "The result was corrected.",
        "cancel-game" => "The game was cancelled.",
        "cancel-drr" => "The double round-robin was cancelled.",
        "start-playoff" => "The playoff round started.",
        "record-playoff-game" => "The playoff game was recorded.",
        "record-qualifier" => "Game 0 was recorded.",
        "record-game" => "The game was recorded.",
        "add-player" => "The player is registered.",
        "update-player" => "The player's rank and rating were updated.",
        "withdraw-player" => "The player was withdrawn.",
        "return-player" => "The player returned.",
        "change-restrictions" => "The restrictions were changed.",
        "plan-season" => "The season was planned.",
        "give-way" => "The tiebreak decision was recorded.",
        "record-live-match" => "The live match was recorded.",
        "close-season" => "The season was closed.",
        "qualify-final" => "The final round was qualified.",
        "record-final-game" => "The final game was recorded.",
        "withdraw-from-final" => "The withdrawal from the final round was recorded.",
        "add-moderator" => "The moderator was added.",
        "remove-moderator" => "The moderator was removed.",
        "remove-moderator-none" => "That account was not a moderator here: nothing changed.",
        _ => return None,
    })
}

/// A league game on the desk.
#[derive(Debug, Clone)]
struct DeskLeagueGame {
    g: LeagueGameView,
    /// A moderator who is not in it.
    can_moderate: bool,
}

#[derive(Debug, Template)]
#[template(path = "desk_league.html")]
struct LeagueDesk {
    chrome: Chrome,
    h: DeskHead,
    v: LeagueView,
    games: Vec<DeskLeagueGame>,
    playoff_games: Vec<DeskLeagueGame>,
    can_roll: bool,
    roll_what: String,
    can_start_playoff: bool,
    in_playoff: bool,
    drrs_to_come: Vec<u32>,
}

fn desk_games(h: &DeskHead, list: &[LeagueGameView]) -> Vec<DeskLeagueGame> {
    list.iter()
        .map(|g| DeskLeagueGame {
            can_moderate: h.roles.moderates() && !h.plays(&g.players),
            g: g.clone(),
        })
        .collect()
}

/// `GET /c/{id}/manage` for an XMadn league.
pub(super) async fn league_desk(
    state: &AppState,
    caller: &Caller,
    id: &str,
    done: Option<&str>,
) -> Result<Response, ApiError> {
    let (l, version) = state.service.load_as::<League>(id, None).await?;
    let h = DeskHead::of(state, caller, id, version, done).await?;
    let mut v = league_view(&l, id, version);
    v.phase = super::xmadn::phase_for_the_web(&v.phase);
    let games = desk_games(
        &h,
        &v.drrs
            .iter()
            .flat_map(|d| d.games.clone())
            .collect::<Vec<_>>(),
    );
    let playoff_games = desk_games(
        &h,
        &v.playoffs
            .iter()
            .flat_map(|p| p.games.clone())
            .collect::<Vec<_>>(),
    );
    let phase = l.phase();
    let page = LeagueDesk {
        chrome: Chrome::competition(
            format!("Desk · {}", l.name),
            id,
            &l.name,
            Kind::League,
            &format!("/c/{id}/manage"),
        ),
        can_roll: matches!(
            phase,
            Phase::AwaitingPositions { .. } | Phase::AwaitingTiebreak { .. }
        ),
        roll_what: match phase {
            Phase::AwaitingPositions { drr } => format!("the positions of DRR {drr}"),
            Phase::AwaitingTiebreak { .. } => "step 6 of the tiebreak".into(),
            _ => String::new(),
        },
        can_start_playoff: matches!(phase, Phase::AwaitingPlayoff { .. }),
        in_playoff: matches!(phase, Phase::Playoff { .. }),
        drrs_to_come: v
            .drrs
            .iter()
            .filter(|d| d.status == "to-come")
            .map(|d| d.number)
            .collect(),
        games,
        playoff_games,
        v,
        h,
    };
    Ok(render(&page).into_response())
}

#[derive(Debug, Template)]
#[template(path = "desk_challengers.html")]
struct ChallengersDesk {
    chrome: Chrome,
    h: DeskHead,
    v: ChallengersView,
    /// The caller moderates the next game (or Game 0).
    can_record: bool,
}

/// `GET /c/{id}/manage` for an XMadn Challengers event.
pub(super) async fn challengers_desk(
    state: &AppState,
    caller: &Caller,
    id: &str,
    done: Option<&str>,
) -> Result<Response, ApiError> {
    let (c, version) = state.service.load_as::<Challengers>(id, None).await?;
    let h = DeskHead::of(state, caller, id, version, done).await?;
    let v = challengers_view(&c, id, version);
    let at_board: Vec<String> = match &v.next {
        Some(n) => n.players.to_vec(),
        None => v.players.clone(),
    };
    let page = ChallengersDesk {
        chrome: Chrome::competition(
            format!("Desk · {}", c.name),
            id,
            &c.name,
            Kind::Challengers,
            &format!("/c/{id}/manage"),
        ),
        can_record: h.roles.moderates() && !h.plays(&at_board),
        v,
        h,
    };
    Ok(render(&page).into_response())
}

/// Every field an XMadn desk form may send; `action` says which action.
#[derive(Debug, Default, Deserialize)]
pub(super) struct XmForm {
    action: String,
    #[serde(rename = "_csrf")]
    csrf: Option<String>,
    #[serde(rename = "_key")]
    key: Option<String>,
    #[serde(rename = "_version")]
    version: Option<String>,
    game: Option<String>,
    a: Option<String>,
    b: Option<String>,
    pawns: Option<String>,
    time: Option<String>,
    reason: Option<String>,
    note: Option<String>,
    drr: Option<String>,
    colours: Option<String>,
    chosen: Option<String>,
    first: Option<String>,
    second: Option<String>,
    third: Option<String>,
    username: Option<String>,
}

pub(super) fn text(v: &Option<String>) -> String {
    v.as_deref().unwrap_or("").trim().to_string()
}

pub(super) fn opt(v: &Option<String>) -> Option<String> {
    v.as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

pub(super) fn number<T: std::str::FromStr>(
    v: &Option<String>,
    field: &str,
) -> Result<Option<T>, ApiError> {
    match opt(v) {
        None => Ok(None),
        Some(s) => s.parse::<T>().map(Some).map_err(|_| {
            ApiError::bad_request(format!("{field} must be a whole number, not {s:?}"))
                .with_field(field)
        }),
    }
}

impl XmForm {
    fn league(&self) -> Result<LeagueAction, ApiError> {
        let (a, b, pawns, time) = (
            text(&self.a),
            text(&self.b),
            text(&self.pawns),
            text(&self.time),
        );
        Ok(match self.action.as_str() {
            "roll" => LeagueAction::Roll,
            "record-result" => LeagueAction::RecordResult {
                game: opt(&self.game),
                a,
                b,
                pawns,
                time,
            },
            "correct-result" => LeagueAction::CorrectResult {
                game: text(&self.game),
                a,
                b,
                pawns,
                time,
                reason: text(&self.reason),
            },
            "cancel-game" => LeagueAction::CancelGame {
                game: text(&self.game),
                note: text(&self.note),
            },
            "cancel-drr" => LeagueAction::CancelDrr {
                drr: number(&self.drr, "drr")?
                    .ok_or_else(|| ApiError::bad_request("drr is required").with_field("drr"))?,
                note: text(&self.note),
            },
            "start-playoff" => LeagueAction::StartPlayoff {
                colours: text(&self.colours),
            },
            "record-playoff-game" => LeagueAction::RecordPlayoffGame { a, b, pawns, time },
            "add-moderator" => LeagueAction::AddModerator {
                username: text(&self.username),
            },
            "remove-moderator" => LeagueAction::RemoveModerator {
                username: text(&self.username),
            },
            other => {
                return Err(
                    ApiError::bad_request(format!("there is no action {other:?}"))
                        .with_field("action"),
                );
            }
        })
    }

    fn challengers(&self) -> Result<ChallengersAction, ApiError> {
        Ok(match self.action.as_str() {
            "record-qualifier" => ChallengersAction::RecordQualifier {
                finishing: vec![text(&self.first), text(&self.second), text(&self.third)],
                chosen: text(&self.chosen),
                colours: opt(&self.colours),
                time: opt(&self.time),
            },
            "record-game" => ChallengersAction::RecordGame {
                a: text(&self.a),
                b: text(&self.b),
                pawns: text(&self.pawns),
                time: text(&self.time),
            },
            "add-moderator" => ChallengersAction::AddModerator {
                username: text(&self.username),
            },
            "remove-moderator" => ChallengersAction::RemoveModerator {
                username: text(&self.username),
            },
            other => {
                return Err(
                    ApiError::bad_request(format!("there is no action {other:?}"))
                        .with_field("action"),
                );
            }
        })
    }
}

/// `POST /c/{id}/act` for an XMadn league or Challengers event.
pub(super) async fn act(
    state: &AppState,
    caller: &Caller,
    id: &str,
    kind: Kind,
    body: &Bytes,
) -> Result<Response, ApiError> {
    let form: XmForm = form_of(body).await?;
    caller.check_csrf(form.csrf.as_deref())?;
    let expected = number::<u64>(&form.version, "_version")?;
    let key = opt(&form.key);
    let done = if kind == Kind::League {
        actions_xmadn::run_league(state, caller, id, form.league()?, expected, key).await?
    } else {
        actions_xmadn::run_challengers(state, caller, id, form.challengers()?, expected, key)
            .await?
    };
    Ok(Redirect::to(&done_location(id, &done)).into_response())
}

/// Where a desk form that worked goes: the desk, with the fixed sentence
/// of what was done.
pub(super) fn done_location(id: &str, done: &actions_xmadn::FormatDone) -> String {
    let what = if done.action == "remove-moderator" && !done.stored {
        "remove-moderator-none"
    } else {
        done.action.as_str()
    };
    format!("/c/{id}/manage?done={what}#done")
}
