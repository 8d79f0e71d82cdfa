//! The desks of an XMadn league and of an XMadn Challengers event: the
//! moderators roll the dice, record, correct and cancel games and run the
//! playoff here, with the same [`crate::formats::xmadn::actions`] as the API. Every
//! form posts to `/c/{id}/act` with the session's CSRF token, an
//! idempotency key and the version it was shown at.

use arbiter_engine::xmadn::challengers::Challengers;
use arbiter_engine::xmadn::league::{League, Phase};
use arbiter_service::xmadn::{
    ChallengersView, LeagueGameView, LeagueView, challengers_view, league_view,
};
use askama::Template;
use axum::body::Bytes;
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use crate::AppState;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::formats::xmadn::actions::{self as actions_xmadn, ChallengersAction, LeagueAction};
use crate::formats::xmadn::pages::reported_words;
use crate::pages::desk::{
    DeskHead, Notice, done_location, done_message, form_of, form_version, no_action, number, opt,
    text,
};
use crate::pages::players::PendingReport;
use crate::pages::{Chrome, Kind, render};

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
    /// The reports waiting for a confirmation (ARB-R45, ARB-R81).
    reports: Vec<PendingReport>,
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
pub(crate) async fn league_desk(
    state: &AppState,
    caller: &Caller,
    id: &str,
    done: Option<&str>,
    stale: Option<Notice>,
) -> Result<Response, ApiError> {
    let (l, version) = state.service.load_as::<League>(id, None).await?;
    let h = DeskHead::of(
        state,
        caller,
        id,
        version,
        done.and_then(done_message),
        stale,
    )
    .await?
    .linked(&l);
    let mut v = league_view(&l, id, version);
    v.phase = crate::formats::xmadn::pages::phase_for_the_web(&v.phase);
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
    let reports = l
        .reports
        .iter()
        .filter_map(|(g, r)| {
            let players = l.reportable_players(*g)?;
            let names = players.map(|p| l.name_of(p));
            Some(PendingReport {
                id: g.0.to_string(),
                text: reported_words(
                    &l.name_of(r.by),
                    &l.report_ref(*g),
                    names.clone(),
                    &r.result,
                    r.at,
                ),
                mine: h.plays(&names),
                confirm: "confirm-result",
                dispute: "dispute-report",
                hidden: vec![("game".into(), g.to_string())],
            })
        })
        .collect();
    let page = LeagueDesk {
        reports,
        chrome: Chrome::competition(
            format!("Desk · {}", l.name),
            id,
            &l.name,
            Kind::XmadnLeague,
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
    /// The report of the next game waiting (ARB-R45, ARB-R81).
    reports: Vec<PendingReport>,
}

/// `GET /c/{id}/manage` for an XMadn Challengers event.
pub(crate) async fn challengers_desk(
    state: &AppState,
    caller: &Caller,
    id: &str,
    done: Option<&str>,
    stale: Option<Notice>,
) -> Result<Response, ApiError> {
    let (c, version) = state.service.load_as::<Challengers>(id, None).await?;
    let h = DeskHead::of(
        state,
        caller,
        id,
        version,
        done.and_then(done_message),
        stale,
    )
    .await?
    .linked(&c);
    let v = challengers_view(&c, id, version);
    let at_board: Vec<String> = match &v.next {
        Some(n) => n.players.to_vec(),
        None => v.players.clone(),
    };
    let reports = match (c.pending_report(), c.board()) {
        (Some((n, r)), Some(b)) => {
            let names = b.players.map(|p| c.name_of(p));
            vec![PendingReport {
                id: n.to_string(),
                text: reported_words(
                    &c.name_of(r.by),
                    &format!("Game {n}"),
                    names.clone(),
                    &r.result,
                    r.at,
                ),
                mine: h.plays(&names),
                confirm: "confirm-game",
                dispute: "dispute-report",
                hidden: Vec::new(),
            }]
        }
        _ => Vec::new(),
    };
    let page = ChallengersDesk {
        reports,
        chrome: Chrome::competition(
            format!("Desk · {}", c.name),
            id,
            &c.name,
            Kind::XmadnChallengers,
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
pub(crate) struct XmForm {
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
    /// The pawns brought home per allied colour (ARB-R65): a's vanguard
    /// and rearguard, b's.
    home_av: Option<String>,
    home_ar: Option<String>,
    home_bv: Option<String>,
    home_br: Option<String>,
    /// Faces of dice rolled at the table (ARB-R64): rounds separated by
    /// `;`, each `Ames=5,Baker=2,Clark=6`.
    faces: Option<String>,
}

impl XmForm {
    /// `4/1,2/3` from the four boxes, when any is filled (ARB-R65).
    fn home(&self) -> Option<String> {
        let boxes = [&self.home_av, &self.home_ar, &self.home_bv, &self.home_br].map(text);
        boxes
            .iter()
            .any(|b| !b.is_empty())
            .then(|| format!("{}/{},{}/{}", boxes[0], boxes[1], boxes[2], boxes[3]))
    }

    fn league(&self) -> Result<LeagueAction, ApiError> {
        let (a, b, pawns, time, home) = (
            text(&self.a),
            text(&self.b),
            text(&self.pawns),
            text(&self.time),
            self.home(),
        );
        Ok(match self.action.as_str() {
            "roll" => LeagueAction::Roll,
            "enter-roll" => LeagueAction::EnterRoll {
                faces: text(&self.faces)
                    .split(';')
                    .map(|r| r.trim().to_string())
                    .filter(|r| !r.is_empty())
                    .collect(),
            },
            "record-result" => LeagueAction::RecordResult {
                game: opt(&self.game),
                a,
                b,
                pawns,
                home,
                time,
            },
            "correct-result" => LeagueAction::CorrectResult {
                game: text(&self.game),
                a,
                b,
                pawns,
                home,
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
            "record-playoff-game" => LeagueAction::RecordPlayoffGame {
                a,
                b,
                pawns,
                home,
                time,
            },
            "report-result" => LeagueAction::ReportResult {
                game: opt(&self.game),
                a,
                b,
                pawns,
                time,
            },
            "confirm-result" => LeagueAction::ConfirmResult {
                game: text(&self.game),
            },
            "dispute-report" => LeagueAction::DisputeReport {
                game: text(&self.game),
                reason: text(&self.reason),
            },
            "add-moderator" => LeagueAction::AddModerator {
                username: text(&self.username),
            },
            "remove-moderator" => LeagueAction::RemoveModerator {
                username: text(&self.username),
            },
            other => return Err(no_action(other)),
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
                home: self.home(),
                time: text(&self.time),
            },
            "report-game" => ChallengersAction::ReportGame {
                a: text(&self.a),
                b: text(&self.b),
                pawns: text(&self.pawns),
                time: text(&self.time),
            },
            "confirm-game" => ChallengersAction::ConfirmGame,
            "dispute-report" => ChallengersAction::DisputeReport {
                reason: text(&self.reason),
            },
            "add-moderator" => ChallengersAction::AddModerator {
                username: text(&self.username),
            },
            "remove-moderator" => ChallengersAction::RemoveModerator {
                username: text(&self.username),
            },
            other => return Err(no_action(other)),
        })
    }
}

/// `POST /c/{id}/act` for an XMadn league or Challengers event.
pub(crate) async fn act(
    state: &AppState,
    caller: &Caller,
    id: &str,
    kind: Kind,
    body: &Bytes,
) -> Result<Response, ApiError> {
    let form: XmForm = form_of(body).await?;
    caller.check_csrf(form.csrf.as_deref())?;
    let key = opt(&form.key);
    let done = if kind == Kind::XmadnLeague {
        let action = form.league()?;
        let expected = form_version(&form.version, action.is_preview())?;
        actions_xmadn::run_league(state, caller, id, action, expected, key).await?
    } else {
        let action = form.challengers()?;
        let expected = form_version(&form.version, action.is_preview())?;
        actions_xmadn::run_challengers(state, caller, id, action, expected, key).await?
    };
    Ok(Redirect::to(&done_location(state, id, &done, body).await).into_response())
}
