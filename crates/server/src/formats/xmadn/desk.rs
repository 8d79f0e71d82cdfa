//! The desks of an XMadn league and of an XMadn Challengers event: the
//! moderators roll the dice, record, correct and cancel games and run the
//! playoff here, with the same [`crate::formats::xmadn::actions`] as the API. Every
//! form posts to `/c/{id}/act` with the session's CSRF token, an
//! idempotency key and the version it was shown at.

use arbiter_engine::model::{GameId, PlayerId};
use arbiter_engine::report::Confirmer;
use arbiter_engine::xmadn::challengers::{Challengers, Event as ChallengersEvent};
use arbiter_engine::xmadn::league::{Event as LeagueEvent, League, Phase};
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
use crate::pages::queue::{Item, Queue, QueueForm, Waits, events_of};
use crate::pages::{Chrome, Kind, render};

/// A league game on the desk.
#[derive(Debug, Clone)]
struct DeskLeagueGame {
    g: LeagueGameView,
    /// A moderator who is not in it.
    can_moderate: bool,
    /// The first finished game of the list: the fold of the finished
    /// games starts before it (issue 17 §2).
    first_finished: bool,
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
    /// How many of `games` are finished (played or cancelled).
    finished: usize,
    /// What waits for a moderator (issue 17 §2).
    queue: Queue,
}

fn desk_games(h: &DeskHead, list: &[LeagueGameView]) -> Vec<DeskLeagueGame> {
    list.iter()
        .map(|g| DeskLeagueGame {
            can_moderate: h.roles.moderates() && !h.plays(&g.players),
            first_finished: false,
            g: g.clone(),
        })
        .collect()
}

/// The league's games still to play first, the finished ones after, the
/// first of them marked: they fold away on the desk. How many finished.
fn fold_finished(games: &mut [DeskLeagueGame]) -> usize {
    games.sort_by_key(|g| g.g.status != "scheduled");
    let finished = games.iter().filter(|g| g.g.status != "scheduled").count();
    if let Some(first) = games.iter_mut().find(|g| g.g.status != "scheduled") {
        first.first_finished = true;
    }
    finished
}

/// Who confirmed or disputed, in words.
fn confirmer(by: Confirmer, name_of: impl Fn(PlayerId) -> String) -> String {
    match by {
        Confirmer::Player(p) => name_of(p),
        Confirmer::Moderator(m) => m,
    }
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
    let mut games = desk_games(
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
    let finished = fold_finished(&mut games);
    let phase = l.phase();
    let reports: Vec<PendingReport> = l
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
                    l.zone.minute(r.at),
                ),
                mine: h.plays(&names),
                confirm: "confirm-result",
                dispute: "dispute-report",
                hidden: vec![("game".into(), g.to_string())],
            })
        })
        .collect();
    let mut queue = Queue::default();
    for r in &reports {
        queue.push(Item::report(r));
    }
    if h.roles.moderates() {
        // A disputed report drops; the game takes a report or a result
        // again (ARB-R81), which a moderator records if the players do not.
        let mut disputed: Vec<(GameId, String)> = Vec::new();
        for e in events_of::<League>(state, id, &["league-report-disputed"]).await {
            if let LeagueEvent::ReportDisputed {
                game, by, reason, ..
            } = e
            {
                disputed.retain(|(g, _)| *g != game);
                disputed.push((
                    game,
                    format!(
                        "{} disputed its report: “{reason}”",
                        confirmer(by, |p| l.name_of(p))
                    ),
                ));
            }
        }
        for (game, why) in disputed {
            let Some(players) = l.reportable_players(game) else {
                continue;
            };
            if l.reports.contains_key(&game) {
                continue;
            }
            let names = players.map(|p| l.name_of(p));
            let item = Item::new(
                Waits::Dispute,
                format!("q-dispute-{}", game.0),
                format!(
                    "{} ({} v {}): {why}. The players report it again, or a moderator records it.",
                    l.report_ref(game),
                    names[0],
                    names[1]
                ),
            );
            queue.push(if h.plays(&names) {
                item.note("You play in this game: another moderator records it (ARB-R45).")
            } else if l.game(game).is_some() {
                item.link(format!("#g-{game}"), "To its form")
            } else {
                item.link("#playoff", "To the playoff's form")
            });
        }
        // What the league waits for, by its phase: the positions of a
        // double round-robin and step 6 are rolled (XM-R1, XM-R3); the
        // playoff round starts with the higher seed's colours.
        match &phase {
            Phase::AwaitingPositions { drr } => queue.push(
                Item::new(
                    Waits::Due,
                    "q-roll",
                    format!(
                        "Double round-robin {drr} waits for its positions to be rolled (XMadn League: Double-round robins; ties roll again, XM-R1)."
                    ),
                )
                .form(QueueForm::button(
                    "roll",
                    format!("Roll the positions of DRR {drr}"),
                ))
                .link("#roll", "Or enter the faces of real dice"),
            ),
            Phase::AwaitingTiebreak { players } => queue.push(
                Item::new(
                    Waits::Due,
                    "q-roll",
                    format!(
                        "The table waits for the die of step 6 among {} (XM-R3; ties roll again, XM-R1).",
                        players
                            .iter()
                            .map(|p| l.name_of(*p))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
                .form(QueueForm::button("roll", "Roll step 6 of the tiebreak"))
                .link("#roll", "Or enter the faces of real dice"),
            ),
            Phase::AwaitingPlayoff { stage } => queue.push(
                Item::new(
                    Waits::Due,
                    "q-playoff",
                    format!(
                        "The {} playoff round can start: the higher seed chooses his colours (XMadn League: Playoff).",
                        stage.name()
                    ),
                )
                .link("#playoff", "To the form that starts it"),
            ),
            _ => {}
        }
    }
    let page = LeagueDesk {
        queue: queue.sorted(),
        finished,
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
    /// What waits for a moderator (issue 17 §2).
    queue: Queue,
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
    let can_record = h.roles.moderates() && !h.plays(&at_board);
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
                    c.zone.minute(r.at),
                ),
                mine: h.plays(&names),
                confirm: "confirm-game",
                dispute: "dispute-report",
                hidden: Vec::new(),
            }]
        }
        _ => Vec::new(),
    };
    let mut queue = Queue::default();
    for r in &reports {
        queue.push(Item::report(r));
    }
    if h.roles.moderates() && c.champion().is_none() {
        let next = c.games().len() as u32 + 1;
        let disputed = events_of::<Challengers>(state, id, &["challengers-report-disputed"])
            .await
            .into_iter()
            .filter_map(|e| match e {
                ChallengersEvent::ReportDisputed {
                    number, by, reason, ..
                } if number == next => Some(format!(
                    "{} disputed its report: “{reason}”",
                    confirmer(by, |p| c.name_of(p))
                )),
                _ => None,
            })
            .next_back();
        if reports.is_empty() {
            // The event's next stage: Game 0, or the next counted game,
            // each played at the board (winner stays, first to x).
            let (what, anchor) = if c.qualifier().is_none() {
                (
                    "Game 0, the three-player qualifier, waits for its result.".to_string(),
                    "#qualifier",
                )
            } else {
                let names = c.board().map(|b| b.players.map(|p| c.name_of(p)));
                (
                    match names {
                        Some([a, b]) => format!("Game {next} ({a} v {b}) waits for its result."),
                        None => format!("Game {next} waits for its result."),
                    },
                    "#next",
                )
            };
            let item = match disputed {
                Some(why) => Item::new(
                    Waits::Dispute,
                    "q-dispute",
                    format!(
                        "Game {next}: {why}. The players report it again, or a moderator records it."
                    ),
                ),
                None => Item::new(Waits::Due, "q-next", what),
            };
            queue.push(if can_record {
                item.link(anchor, "To its form")
            } else {
                item.note("You play in this game: another moderator records it (ARB-R45).")
            });
        }
    }
    let page = ChallengersDesk {
        queue: queue.sorted(),
        chrome: Chrome::competition(
            format!("Desk · {}", c.name),
            id,
            &c.name,
            Kind::XmadnChallengers,
            &format!("/c/{id}/manage"),
        ),
        can_record,
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
