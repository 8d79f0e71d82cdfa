//! The state-changing things the pages and the API do to an XMadn league
//! ([`LeagueAction`]) and an XMadn Challengers event
//! ([`ChallengersAction`]), with who may do them and the engine command
//! each becomes, like [`crate::formats::tws::actions`] for a ladder.
//!
//! Who may (per competition): the owner and the moderators run everything
//! (rolls, results, corrections, cancellations, the playoff), and nobody
//! who plays in a game records, corrects or cancels it as a moderator
//! (ARB-R45). A player (his account linked by the competition's events,
//! ARB-R50) reports the result of his own game; his opponent, or a
//! moderator who does not play in it, confirms or disputes the report
//! (ARB-R45, ARB-R81). The public reads only.
//! The owner alone adds and removes moderators; these formats keep their
//! moderators as grants only (their engine state has none), so that
//! changes no event log.

use arbiter_engine::model::{GameId, PlayerId};
use arbiter_engine::xmadn::challengers::{self, Challengers};
use arbiter_engine::xmadn::league::{self, League};
use arbiter_engine::xmadn::{Colours, Home, parse_time};
use arbiter_store::Seq;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::actions::common::{
    RECORDED_BY_A_MODERATOR, account_to_link, bad_rules, check_role, context, directory,
    grant_creator, load_for, moderator_grant, organizer, plays, required, rules_text,
};
use crate::actions::reports::{authorize_report, confirmer};
use crate::actions::{FormatDone, Who};
use crate::auth::{Caller, Roles};
use crate::error::ApiError;

/// The score of an XMadn game: the two players at the board (`a`, `b`),
/// their counted pawns in that order (`4-2`) and the game's time (`m:ss`).
#[derive(Debug, Clone, Default)]
pub struct XmScore {
    pub a: String,
    pub b: String,
    pub pawns: String,
    pub time: String,
    /// The pawns brought home per allied colour instead (`4/1,2/3`,
    /// ARB-R65).
    pub home: Option<String>,
}

fn xs(a: &str, b: &str, pawns: &str, time: &str) -> XmScore {
    XmScore {
        a: a.into(),
        b: b.into(),
        pawns: pawns.into(),
        time: time.into(),
        home: None,
    }
}

/// One state-changing request on an XMadn league.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(tag = "action", rename_all = "kebab-case", deny_unknown_fields)]
pub enum LeagueAction {
    /// Roll the dice the league needs next: the positions of the next
    /// double round-robin, or step 6 of the tiebreak (committed seeds).
    Roll,
    /// The faces of real dice rolled at the table for the round of die-roll
    /// the league needs next, recorded as entered by the caller, not as a
    /// committed draw (ARB-R64): one string per round, `Ames=5,Baker=5,Clark=2`
    /// then `Ames=6,Baker=3` (the players still tied), at most 32 rounds.
    EnterRoll { faces: Vec<String> },
    /// Record the result of the next game of the two players (or of `game`:
    /// `DRR 2 Game 4`, `2.4` or its id `G10`, ARB-R63). `a` and `b` play;
    /// `pawns` their counted pawns in that order (`4-2`), or `home` the
    /// pawns each brought home per allied colour, vanguard/rearguard
    /// (`4/1,2/3`), from which the counted pawns follow (ARB-R65); `time`
    /// the game's time (`23:05`).
    RecordResult {
        #[serde(default)]
        game: Option<String>,
        a: String,
        b: String,
        #[serde(default)]
        pawns: String,
        #[serde(default)]
        home: Option<String>,
        time: String,
    },
    CorrectResult {
        game: String,
        a: String,
        b: String,
        #[serde(default)]
        pawns: String,
        #[serde(default)]
        home: Option<String>,
        time: String,
        reason: String,
    },
    /// Cancel a remaining game by mutual consent of its players.
    CancelGame { game: String, note: String },
    /// Cancel a double round-robin not begun, by mutual consent.
    CancelDrr { drr: u32, note: String },
    /// Start the next playoff round; the higher seed chose `colours`
    /// (`red/blue`: vanguard/rearguard).
    StartPlayoff { colours: String },
    RecordPlayoffGame {
        a: String,
        b: String,
        #[serde(default)]
        pawns: String,
        #[serde(default)]
        home: Option<String>,
        time: String,
    },
    /// A player reports the result of his own game (ARB-R45, ARB-R81): a
    /// round-robin game (`game`, or his next one against the other player)
    /// or the running playoff round's next game. `a` and `b` play, `pawns`
    /// their counted pawns in that order (`4-2`), `time` the game's time.
    /// It waits for the other player or a moderator not in the game.
    ReportResult {
        #[serde(default)]
        game: Option<String>,
        a: String,
        b: String,
        pawns: String,
        time: String,
    },
    /// The other player, or a moderator not in the game, confirms the
    /// report of `game` (`G4`, `DRR 1 Game 4`; a playoff game by the id
    /// its report gave): the result is recorded.
    ConfirmResult { game: String },
    /// The other player, or a moderator not in the game, disputes the
    /// report of `game` with a reason: it is dropped, nothing is recorded.
    DisputeReport { game: String, reason: String },
    /// The owner makes an account a moderator. This format keeps its
    /// moderators as grants only (its engine state has none): nothing is
    /// appended to the event log, and the answer's `version` is the
    /// competition's version, unchanged.
    AddModerator { username: String },
    /// The owner takes an account's moderator grant away (a grant only,
    /// like `add-moderator`: the event log is unchanged).
    RemoveModerator { username: String },
    /// A moderator links an account to a player (ARB-R50).
    LinkAccount { player: String, account: String },
    /// A moderator ends the link of a player's account (ARB-R50).
    UnlinkAccount { player: String },
}

/// One state-changing request on an XMadn Challengers event.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(tag = "action", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ChallengersAction {
    /// Game 0, the three-player qualifier: the finishing order, the colours
    /// the winner chose (`red/blue`), optionally the three players' Game 0
    /// colours (`red,yellow,blue`, in the order of `finishing`) and time.
    RecordQualifier {
        finishing: Vec<String>,
        chosen: String,
        #[serde(default)]
        colours: Option<String>,
        #[serde(default)]
        time: Option<String>,
    },
    /// A counted game between the two players at the board: `pawns` the
    /// counted pawns, a's first (`4-2`), or `home` the pawns each brought
    /// home per allied colour (`4/1,2/3`, ARB-R65).
    RecordGame {
        a: String,
        b: String,
        #[serde(default)]
        pawns: String,
        #[serde(default)]
        home: Option<String>,
        time: String,
    },
    /// A player at the board reports the next counted game (ARB-R45,
    /// ARB-R81): `a` and `b` play, `pawns` their counted pawns in that
    /// order (`4-2`), `time` the game's time. It waits for the other player
    /// or a moderator not in the game.
    ReportGame {
        a: String,
        b: String,
        pawns: String,
        time: String,
    },
    /// The other player at the board, or a moderator not in the game,
    /// confirms the report of the next game: it is recorded.
    ConfirmGame,
    /// The other player at the board, or a moderator not in the game,
    /// disputes the report of the next game with a reason.
    DisputeReport { reason: String },
    /// The owner makes an account a moderator. This format keeps its
    /// moderators as grants only (its engine state has none): nothing is
    /// appended to the event log, and the answer's `version` is the
    /// competition's version, unchanged.
    AddModerator { username: String },
    /// The owner takes an account's moderator grant away (a grant only,
    /// like `add-moderator`: the event log is unchanged).
    RemoveModerator { username: String },
    /// A moderator links an account to a player (ARB-R50).
    LinkAccount { player: String, account: String },
    /// A moderator ends the link of a player's account (ARB-R50).
    UnlinkAccount { player: String },
}

/// A player whose name is `name` under the one normalization of names
/// (ARB-R62), never a prefix.
fn exact(players: &[String], name: &str) -> Option<PlayerId> {
    arbiter_engine::model::find_name(players.iter().map(String::as_str), name)
        .map(|i| PlayerId(i as u32 + 1))
}

/// `4-2` → [4, 2].
pub fn parse_pawns(s: &str) -> Result<[u8; 2], ApiError> {
    let bad = || {
        ApiError::bad_request(format!(
            "pawns {s:?}: give both players' counted pawns like 4-2"
        ))
        .with_field("pawns")
    };
    let (a, b) = s.trim().split_once('-').ok_or_else(bad)?;
    Ok([
        a.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    ])
}

/// `23:05` → seconds.
pub fn parse_game_time(s: &str) -> Result<u32, ApiError> {
    parse_time(s).ok_or_else(|| {
        ApiError::bad_request(format!(
            "time {s:?}: give the game's time as m:ss, e.g. 23:05"
        ))
        .with_field("time")
    })
}

/// `red/blue` → vanguard red, rearguard blue.
pub fn parse_colours(s: &str, field: &str) -> Result<Colours, ApiError> {
    let bad = || {
        ApiError::bad_request(format!(
            "colours {s:?}: give the vanguard and rearguard colours like red/blue"
        ))
        .with_field(field)
    };
    let (v, r) = s.split_once('/').ok_or_else(bad)?;
    if r.contains('/') || v.trim().is_empty() || r.trim().is_empty() {
        return Err(bad());
    }
    Ok(Colours {
        vanguard: v.trim().to_lowercase(),
        rearguard: r.trim().to_lowercase(),
    })
}

/// A game of the league by the document's numbering (`DRR 2 Game 4`,
/// `2.4`, `Game 4` of the running DRR) or its league-wide id `G10`
/// (ARB-R63).
fn game_id(l: &League, s: &str) -> Result<GameId, ApiError> {
    l.parse_game(s).ok_or_else(|| {
        ApiError::bad_request(format!(
            "{s:?} is not a game of this league: give DRR 2 Game 4 (or 2.4) or its id G10"
        ))
        .with_field("game")
    })
}

/// `4/1,2/3`: the pawns each player brought home per allied colour,
/// vanguard/rearguard (ARB-R65).
pub fn parse_home(s: &str) -> Result<[Home; 2], ApiError> {
    let bad = || {
        ApiError::bad_request(format!(
            "home {s:?}: give the pawns each player brought home per allied colour, vanguard/rearguard, like 4/1,2/3"
        ))
        .with_field("home")
    };
    if s.len() > 40 {
        return Err(bad());
    }
    let one = |t: &str| -> Result<Home, ApiError> {
        let (v, r) = t.trim().split_once('/').ok_or_else(bad)?;
        Ok(Home {
            vanguard: v.trim().parse().map_err(|_| bad())?,
            rearguard: r.trim().parse().map_err(|_| bad())?,
        })
    };
    let (a, b) = s.split_once(',').ok_or_else(bad)?;
    Ok([one(a)?, one(b)?])
}

/// `Ames=5,Baker=2,Clark=6` per round: faces of real dice rolled at the
/// table (ARB-R64).
fn parse_faces(l: &League, faces: &[String]) -> Result<Vec<Vec<(PlayerId, u8)>>, ApiError> {
    if faces.is_empty() || faces.len() > league::MAX_ENTERED_ROUNDS {
        return Err(ApiError::bad_request(format!(
            "faces: give 1 to {} rounds of faces, like Ames=5,Baker=2,Clark=6",
            league::MAX_ENTERED_ROUNDS
        ))
        .with_field("faces"));
    }
    faces
        .iter()
        .map(|round| {
            let bad = || {
                ApiError::bad_request(format!(
                    "faces {round:?}: give each rolling player's face like Ames=5,Baker=2,Clark=6"
                ))
                .with_field("faces")
            };
            let parts: Vec<&str> = round.split(',').collect();
            if round.len() > 400 || parts.len() > 3 {
                return Err(bad());
            }
            parts
                .into_iter()
                .map(|part| {
                    let (name, face) = part.rsplit_once('=').ok_or_else(bad)?;
                    let face: u8 = face.trim().parse().map_err(|_| bad())?;
                    Ok((league_player(l, name.trim(), "faces")?, face))
                })
                .collect()
        })
        .collect()
}

/// A reported league game (ARB-R45, ARB-R81): a round-robin game by the
/// document's numbering or its id, or the playoff game a report names by
/// the id it will have (`G19`).
fn report_game_id(l: &League, s: &str) -> Result<GameId, ApiError> {
    if let Some(g) = l.parse_game(s) {
        return Ok(g);
    }
    let t = s.trim();
    t.strip_prefix(['G', 'g'])
        .filter(|n| n.len() <= 9 && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|n| n.parse::<u32>().ok())
        .map(GameId)
        .filter(|g| l.reports.contains_key(g) || l.reportable_players(*g).is_some())
        .ok_or_else(|| {
            ApiError::bad_request(format!(
                "{:?} is not a game of this league that takes a report: give DRR 2 Game 4 (or 2.4) or its id G10",
                t.chars().take(40).collect::<String>()
            ))
            .with_field("game")
        })
}

fn unknown(name: &str, field: &str, players: &[String]) -> ApiError {
    // The suggestion for a misspelled name (issue 17 §2), else the list.
    let hint = arbiter_engine::model::did_you_mean(players.iter().map(String::as_str), name);
    let rest = if hint.is_empty() {
        format!("; the players are {}", players.join(", "))
    } else {
        hint
    };
    ApiError::bad_request(format!(
        "there is no player named {name:?} in this competition{rest}"
    ))
    .with_field(field)
}

fn league_player(l: &League, name: &str, field: &str) -> Result<PlayerId, ApiError> {
    l.find(name).ok_or_else(|| unknown(name, field, &l.players))
}

fn challengers_player(c: &Challengers, name: &str, field: &str) -> Result<PlayerId, ApiError> {
    c.find(name).ok_or_else(|| unknown(name, field, &c.players))
}

impl LeagueAction {
    pub fn name(&self) -> &'static str {
        match self {
            LeagueAction::Roll => "roll",
            LeagueAction::EnterRoll { .. } => "enter-roll",
            LeagueAction::RecordResult { .. } => "record-result",
            LeagueAction::CorrectResult { .. } => "correct-result",
            LeagueAction::CancelGame { .. } => "cancel-game",
            LeagueAction::CancelDrr { .. } => "cancel-drr",
            LeagueAction::StartPlayoff { .. } => "start-playoff",
            LeagueAction::RecordPlayoffGame { .. } => "record-playoff-game",
            LeagueAction::ReportResult { .. } => "report-result",
            LeagueAction::ConfirmResult { .. } => "confirm-result",
            LeagueAction::DisputeReport { .. } => "dispute-report",
            LeagueAction::AddModerator { .. } => "add-moderator",
            LeagueAction::RemoveModerator { .. } => "remove-moderator",
            LeagueAction::LinkAccount { .. } => "link-account",
            LeagueAction::UnlinkAccount { .. } => "unlink-account",
        }
    }

    /// Who may carry it out.
    pub fn who(&self) -> Who {
        match self {
            LeagueAction::Roll
            | LeagueAction::EnterRoll { .. }
            | LeagueAction::LinkAccount { .. }
            | LeagueAction::UnlinkAccount { .. }
            | LeagueAction::CancelDrr { .. }
            | LeagueAction::StartPlayoff { .. } => Who::Moderator,
            LeagueAction::RecordResult { .. }
            | LeagueAction::CorrectResult { .. }
            | LeagueAction::CancelGame { .. }
            | LeagueAction::RecordPlayoffGame { .. } => Who::ModeratorNotInGame,
            LeagueAction::AddModerator { .. } | LeagueAction::RemoveModerator { .. } => Who::Owner,
            LeagueAction::ReportResult { .. } => Who::GamePlayer,
            LeagueAction::ConfirmResult { .. } | LeagueAction::DisputeReport { .. } => {
                Who::GamePlayerOrModerator
            }
        }
    }

    /// Nothing here is a preview.
    pub fn is_preview(&self) -> bool {
        false
    }

    /// The players of the game the action is about (those it names, and
    /// those of the game it names).
    /// The score the action gives, if any.
    fn score(&self) -> Option<XmScore> {
        match self {
            LeagueAction::RecordResult {
                a,
                b,
                pawns,
                time,
                home,
                ..
            }
            | LeagueAction::CorrectResult {
                a,
                b,
                pawns,
                time,
                home,
                ..
            }
            | LeagueAction::RecordPlayoffGame {
                a,
                b,
                pawns,
                time,
                home,
            } => Some(XmScore {
                home: home.clone().filter(|h| !h.trim().is_empty()),
                ..xs(a, b, pawns, time)
            }),
            LeagueAction::ReportResult {
                a, b, pawns, time, ..
            } => Some(xs(a, b, pawns, time)),
            _ => None,
        }
    }

    fn players(&self, l: &League) -> Vec<PlayerId> {
        let mut out = Vec::new();
        if let Some(s) = self.score() {
            out.extend(l.find(&s.a));
            out.extend(l.find(&s.b));
        }
        if let LeagueAction::CorrectResult { game, .. }
        | LeagueAction::CancelGame { game, .. }
        | LeagueAction::RecordResult {
            game: Some(game), ..
        }
        | LeagueAction::ReportResult {
            game: Some(game), ..
        } = self
            && let Ok(g) = game_id(l, game)
            && let Some(g) = l.game(g)
        {
            out.extend(g.players);
        }
        // A report's game: its two players, the playoff game's included.
        if let LeagueAction::ConfirmResult { game } | LeagueAction::DisputeReport { game, .. } =
            self
            && let Ok(g) = report_game_id(l, game)
        {
            out.extend(l.reportable_players(g).into_iter().flatten());
        }
        out
    }
}

/// Check that `caller` may carry out `action` on league `l`.
pub fn authorize_league(
    l: &League,
    caller: &Caller,
    roles: &Roles,
    action: &LeagueAction,
) -> Result<(), ApiError> {
    let me = [
        roles.player,
        exact(&l.players, &caller.account()?.display_name),
    ];
    if let Some(answer) =
        authorize_report(roles, action.who(), action.name(), &me, &action.players(l))
    {
        caller.account()?;
        return answer;
    }
    check_role(
        caller,
        roles,
        action.who(),
        action.name(),
        || Ok(plays(&me, &action.players(l))),
        RECORDED_BY_A_MODERATOR,
    )
}

fn league_command(
    l: &League,
    action: &LeagueAction,
    at: arbiter_engine::model::Time,
) -> Result<league::Command, ApiError> {
    let score = || -> Result<([PlayerId; 2], [u8; 2], u32), ApiError> {
        let s = action.score().unwrap_or_default();
        Ok((
            [league_player(l, &s.a, "a")?, league_player(l, &s.b, "b")?],
            parse_pawns(&s.pawns)?,
            parse_game_time(&s.time)?,
        ))
    };
    // A result given by the pawns brought home per colour (ARB-R65).
    let by_colour = |entry: league::Entry| -> Result<Option<league::Command>, ApiError> {
        let s = action.score().unwrap_or_default();
        let Some(home) = s.home.as_deref() else {
            return Ok(None);
        };
        Ok(Some(league::Command::ByColour {
            entry,
            players: [league_player(l, &s.a, "a")?, league_player(l, &s.b, "b")?],
            home: parse_home(home)?,
            seconds: parse_game_time(&s.time)?,
            at,
        }))
    };
    Ok(match action {
        LeagueAction::Roll => {
            return Err(ApiError::internal(
                "a roll goes through the service's league_roll",
            ));
        }
        LeagueAction::AddModerator { .. } | LeagueAction::RemoveModerator { .. } => {
            return Err(ApiError::internal(
                "a league's moderators are grants, not commands",
            ));
        }
        LeagueAction::ReportResult { .. } | LeagueAction::ConfirmResult { .. } => {
            return Err(ApiError::internal(
                "a report goes through run_league with the caller's player",
            ));
        }
        LeagueAction::DisputeReport { .. } => {
            return Err(ApiError::internal(
                "a dispute goes through run_league with the caller",
            ));
        }
        LeagueAction::LinkAccount { player, account } => league::Command::LinkAccount {
            player: league_player(l, player, "player")?,
            account: account.clone(),
        },
        LeagueAction::UnlinkAccount { player } => league::Command::UnlinkAccount {
            player: league_player(l, player, "player")?,
        },
        LeagueAction::EnterRoll { .. } => {
            return Err(ApiError::internal(
                "entered faces go through run_league with the caller's name",
            ));
        }
        LeagueAction::RecordResult { game, .. } => {
            let game = game
                .as_deref()
                .filter(|g| !g.trim().is_empty())
                .map(|g| game_id(l, g))
                .transpose()?;
            if let Some(c) = by_colour(league::Entry::Result { game })? {
                return Ok(c);
            }
            let (players, pawns, seconds) = score()?;
            league::Command::RecordResult {
                game,
                players,
                pawns,
                seconds,
                at,
            }
        }
        LeagueAction::CorrectResult { game, reason, .. } => {
            let game = game_id(l, game)?;
            let reason = required(reason, "reason")?;
            if let Some(c) = by_colour(league::Entry::Correction {
                game,
                reason: reason.clone(),
            })? {
                return Ok(c);
            }
            let (players, pawns, seconds) = score()?;
            league::Command::CorrectResult {
                game,
                players,
                pawns,
                seconds,
                reason,
                at,
            }
        }
        LeagueAction::CancelGame { game, note } => league::Command::CancelGame {
            game: game_id(l, game)?,
            note: required(note, "note")?,
            at,
        },
        LeagueAction::CancelDrr { drr, note } => league::Command::CancelDrr {
            drr: *drr,
            note: required(note, "note")?,
            at,
        },
        LeagueAction::StartPlayoff { colours } => league::Command::StartPlayoff {
            colours: parse_colours(colours, "colours")?,
            at,
        },
        LeagueAction::RecordPlayoffGame { .. } => {
            if let Some(c) = by_colour(league::Entry::Playoff)? {
                return Ok(c);
            }
            let (players, pawns, seconds) = score()?;
            league::Command::RecordPlayoffGame {
                players,
                pawns,
                seconds,
                at,
            }
        }
    })
}

/// Carry out `action` on league `competition` for `caller`.
pub async fn run_league(
    state: &AppState,
    caller: &Caller,
    competition: &str,
    action: LeagueAction,
    expected: Option<Seq>,
    idempotency_key: Option<String>,
) -> Result<FormatDone, ApiError> {
    let svc = &state.service;
    let (account, roles, l, version) = load_for::<League>(state, caller, competition).await?;
    authorize_league(&l, caller, &roles, &action)?;
    if let LeagueAction::AddModerator { username } | LeagueAction::RemoveModerator { username } =
        &action
    {
        return moderator_grant(
            state,
            competition,
            action.name(),
            username,
            (version, expected),
        )
        .await;
    }
    let now = state.now();
    let ctx = context(&account, now, idempotency_key, expected);
    let executed = match &action {
        LeagueAction::Roll => svc.league_roll(competition, &ctx).await?,
        LeagueAction::EnterRoll { faces } => {
            // Recorded as entered by the caller's account (ARB-R64).
            let command = league::Command::EnterRoll {
                rounds: parse_faces(&l, faces)?,
                by: ctx.actor.clone(),
                at: now,
            };
            svc.execute_as::<League>(competition, command, &ctx).await?
        }
        LeagueAction::ReportResult {
            game,
            a,
            b,
            pawns,
            time,
        } => {
            let command = league::Command::ReportResult {
                game: game
                    .as_deref()
                    .filter(|g| !g.trim().is_empty())
                    .map(|g| report_game_id(&l, g))
                    .transpose()?,
                players: [league_player(&l, a, "a")?, league_player(&l, b, "b")?],
                pawns: parse_pawns(pawns)?,
                seconds: parse_game_time(time)?,
                by: roles
                    .player
                    .ok_or_else(|| ApiError::forbidden("you do not play in this league"))?,
                at: now,
            };
            svc.execute_as::<League>(competition, command, &ctx).await?
        }
        LeagueAction::ConfirmResult { game } | LeagueAction::DisputeReport { game, .. } => {
            let g = report_game_id(&l, game)?;
            let by = confirmer(&roles, &action.players(&l), &account.username);
            let command = match &action {
                LeagueAction::DisputeReport { reason, .. } => league::Command::DisputeReport {
                    game: g,
                    by,
                    reason: required(reason, "reason")?,
                    at: now,
                },
                _ => league::Command::ConfirmResult {
                    game: g,
                    by,
                    at: now,
                },
            };
            svc.execute_as::<League>(competition, command, &ctx).await?
        }
        other => {
            let mut command = league_command(&l, other, now)?;
            if let league::Command::LinkAccount { account, .. } = &mut command {
                *account = account_to_link(state, account).await?;
            }
            svc.execute_as::<League>(competition, command, &ctx).await?
        }
    };
    let (after, _) = svc.load_as::<League>(competition, None).await?;
    if !executed.replayed {
        let accounts: Vec<String> = executed
            .events
            .iter()
            .filter_map(|e| match e {
                league::Event::AccountLinked { account, .. }
                | league::Event::AccountUnlinked { account, .. } => Some(account.clone()),
                _ => None,
            })
            .collect();
        directory(state, competition, &after, accounts).await?;
    }
    Ok(FormatDone::of(action.name(), &executed, |e| {
        arbiter_service::summary::league(&after, e)
    }))
}

impl ChallengersAction {
    pub fn name(&self) -> &'static str {
        match self {
            ChallengersAction::RecordQualifier { .. } => "record-qualifier",
            ChallengersAction::RecordGame { .. } => "record-game",
            ChallengersAction::ReportGame { .. } => "report-game",
            ChallengersAction::ConfirmGame => "confirm-game",
            ChallengersAction::DisputeReport { .. } => "dispute-report",
            ChallengersAction::AddModerator { .. } => "add-moderator",
            ChallengersAction::RemoveModerator { .. } => "remove-moderator",
            ChallengersAction::LinkAccount { .. } => "link-account",
            ChallengersAction::UnlinkAccount { .. } => "unlink-account",
        }
    }

    pub fn who(&self) -> Who {
        match self {
            ChallengersAction::RecordQualifier { .. } | ChallengersAction::RecordGame { .. } => {
                Who::ModeratorNotInGame
            }
            ChallengersAction::AddModerator { .. } | ChallengersAction::RemoveModerator { .. } => {
                Who::Owner
            }
            ChallengersAction::LinkAccount { .. } | ChallengersAction::UnlinkAccount { .. } => {
                Who::Moderator
            }
            ChallengersAction::ReportGame { .. } => Who::GamePlayer,
            ChallengersAction::ConfirmGame | ChallengersAction::DisputeReport { .. } => {
                Who::GamePlayerOrModerator
            }
        }
    }

    pub fn is_preview(&self) -> bool {
        false
    }

    fn players(&self, c: &Challengers) -> Vec<PlayerId> {
        match self {
            ChallengersAction::RecordQualifier { finishing, .. } => {
                finishing.iter().filter_map(|n| c.find(n)).collect()
            }
            ChallengersAction::RecordGame { a, b, .. }
            | ChallengersAction::ReportGame { a, b, .. } => {
                [a, b].iter().filter_map(|n| c.find(n)).collect()
            }
            // The report is of the game at the board.
            ChallengersAction::ConfirmGame | ChallengersAction::DisputeReport { .. } => {
                c.board().map(|b| b.players.to_vec()).unwrap_or_default()
            }
            ChallengersAction::AddModerator { .. }
            | ChallengersAction::RemoveModerator { .. }
            | ChallengersAction::LinkAccount { .. }
            | ChallengersAction::UnlinkAccount { .. } => Vec::new(),
        }
    }
}

/// Check that `caller` may carry out `action` on Challengers event `c`.
pub fn authorize_challengers(
    c: &Challengers,
    caller: &Caller,
    roles: &Roles,
    action: &ChallengersAction,
) -> Result<(), ApiError> {
    let me = [roles.player, c.find(&caller.account()?.display_name)];
    if let Some(answer) =
        authorize_report(roles, action.who(), action.name(), &me, &action.players(c))
    {
        return answer;
    }
    check_role(
        caller,
        roles,
        action.who(),
        action.name(),
        || Ok(plays(&me, &action.players(c))),
        RECORDED_BY_A_MODERATOR,
    )
}

/// Game 0's colours in the order of `finishing`, as the event keeps them:
/// in player-id order.
fn star_colours(s: &str, finishing: [PlayerId; 3]) -> Result<[String; 3], ApiError> {
    let parts: Vec<String> = s.split(',').map(|c| c.trim().to_lowercase()).collect();
    let [a, b, c] = parts.as_slice() else {
        return Err(ApiError::bad_request(format!(
            "colours {s:?}: give the three players' Game 0 colours like red,yellow,blue"
        ))
        .with_field("colours"));
    };
    let mut out: [String; 3] = Default::default();
    for (p, colour) in finishing.iter().zip([a, b, c]) {
        if let Some(slot) = out.get_mut(p.0.wrapping_sub(1) as usize) {
            slot.clone_from(colour);
        }
    }
    Ok(out)
}

fn challengers_command(
    c: &Challengers,
    action: &ChallengersAction,
    at: arbiter_engine::model::Time,
) -> Result<challengers::Command, ApiError> {
    Ok(match action {
        ChallengersAction::RecordQualifier {
            finishing,
            chosen,
            colours,
            time,
        } => {
            let [a, b, d] = finishing.as_slice() else {
                return Err(ApiError::bad_request(
                    "finishing: name the three players in their finishing order",
                )
                .with_field("finishing"));
            };
            let finishing = [
                challengers_player(c, a, "finishing")?,
                challengers_player(c, b, "finishing")?,
                challengers_player(c, d, "finishing")?,
            ];
            challengers::Command::RecordQualifier {
                finishing,
                colours: colours
                    .as_deref()
                    .filter(|s| !s.trim().is_empty())
                    .map(|s| star_colours(s, finishing))
                    .transpose()?,
                seconds: time
                    .as_deref()
                    .filter(|s| !s.trim().is_empty())
                    .map(parse_game_time)
                    .transpose()?,
                chosen: parse_colours(chosen, "chosen")?,
                at,
            }
        }
        ChallengersAction::RecordGame {
            a,
            b,
            pawns,
            home,
            time,
        } => {
            let players = [
                challengers_player(c, a, "a")?,
                challengers_player(c, b, "b")?,
            ];
            let seconds = parse_game_time(time)?;
            match home.as_deref().map(str::trim).filter(|h| !h.is_empty()) {
                Some(home) => challengers::Command::RecordGameByColour {
                    players,
                    home: parse_home(home)?,
                    seconds,
                    at,
                },
                None if pawns.trim().is_empty() => {
                    return Err(ApiError::bad_request(
                        "give pawns (the counted pawns, 4-2) or home (the pawns each brought home per allied colour, 4/1,2/3)",
                    )
                    .with_field("pawns"));
                }
                None => challengers::Command::RecordGame {
                    players,
                    pawns: parse_pawns(pawns)?,
                    seconds,
                    at,
                },
            }
        }
        ChallengersAction::AddModerator { .. } | ChallengersAction::RemoveModerator { .. } => {
            return Err(ApiError::internal(
                "a Challengers event's moderators are grants, not commands",
            ));
        }
        ChallengersAction::ReportGame { .. }
        | ChallengersAction::ConfirmGame
        | ChallengersAction::DisputeReport { .. } => {
            return Err(ApiError::internal(
                "a report goes through run_challengers with the caller",
            ));
        }
        ChallengersAction::LinkAccount { player, account } => challengers::Command::LinkAccount {
            player: challengers_player(c, player, "player")?,
            account: account.clone(),
        },
        ChallengersAction::UnlinkAccount { player } => challengers::Command::UnlinkAccount {
            player: challengers_player(c, player, "player")?,
        },
    })
}

/// Carry out `action` on Challengers event `competition` for `caller`.
pub async fn run_challengers(
    state: &AppState,
    caller: &Caller,
    competition: &str,
    action: ChallengersAction,
    expected: Option<Seq>,
    idempotency_key: Option<String>,
) -> Result<FormatDone, ApiError> {
    let svc = &state.service;
    let (account, roles, c, version) = load_for::<Challengers>(state, caller, competition).await?;
    authorize_challengers(&c, caller, &roles, &action)?;
    if let ChallengersAction::AddModerator { username }
    | ChallengersAction::RemoveModerator { username } = &action
    {
        return moderator_grant(
            state,
            competition,
            action.name(),
            username,
            (version, expected),
        )
        .await;
    }
    let now = state.now();
    let ctx = context(&account, now, idempotency_key, expected);
    let players = action.players(&c);
    let mut command = match &action {
        ChallengersAction::ReportGame { a, b, pawns, time } => challengers::Command::ReportGame {
            players: [
                challengers_player(&c, a, "a")?,
                challengers_player(&c, b, "b")?,
            ],
            pawns: parse_pawns(pawns)?,
            seconds: parse_game_time(time)?,
            by: roles
                .player
                .ok_or_else(|| ApiError::forbidden("you do not play in this event"))?,
            at: now,
        },
        ChallengersAction::ConfirmGame => challengers::Command::ConfirmGame {
            by: confirmer(&roles, &players, &account.username),
            at: now,
        },
        ChallengersAction::DisputeReport { reason } => challengers::Command::DisputeReport {
            by: confirmer(&roles, &players, &account.username),
            reason: required(reason, "reason")?,
            at: now,
        },
        other => challengers_command(&c, other, now)?,
    };
    if let challengers::Command::LinkAccount { account, .. } = &mut command {
        *account = account_to_link(state, account).await?;
    }
    let executed = svc
        .execute_as::<Challengers>(competition, command, &ctx)
        .await?;
    let (after, _) = svc.load_as::<Challengers>(competition, None).await?;
    if !executed.replayed {
        let accounts: Vec<String> = executed
            .events
            .iter()
            .filter_map(|e| match e {
                challengers::Event::AccountLinked { account, .. }
                | challengers::Event::AccountUnlinked { account, .. } => Some(account.clone()),
                _ => None,
            })
            .collect();
        directory(state, competition, &after, accounts).await?;
    }
    Ok(FormatDone::of(action.name(), &executed, |e| {
        arbiter_service::summary::challengers(&after, e)
    }))
}

fn names(players: &[String], count: Option<usize>) -> Result<Vec<String>, ApiError> {
    let players: Vec<String> = players
        .iter()
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect();
    if let Some(n) = count
        && players.len() != n
    {
        return Err(ApiError::bad_request(format!(
            "players: name exactly {n} players (got {})",
            players.len()
        ))
        .with_field("players"));
    }
    Ok(players)
}

/// Create an XMadn league of three players from the `xmadn-league` preset
/// (or a rules file) for an organizer, its owner and first moderator.
pub async fn create_league(
    state: &AppState,
    caller: &Caller,
    id: &str,
    name: &str,
    players: &[String],
    rules: Option<&str>,
    idempotency_key: Option<String>,
) -> Result<Seq, ApiError> {
    let account = organizer(caller)?;
    let name = required(name, "name")?;
    let players = names(players, Some(3))?;
    let rules = arbiter_record::parse_league_rules(&rules_text(rules, "xmadn-league")?)
        .map_err(bad_rules)?;
    let ctx = context(&account, state.now(), idempotency_key, Some(0));
    let executed = state
        .service
        .create_league(id, &name, rules, &players, &ctx)
        .await?;
    grant_creator(state, id, &account).await?;
    Ok(executed.last)
}

/// Create an XMadn Challengers event from the `xmadn-challengers` preset
/// (or a rules file), first to `first_to` when given.
#[allow(clippy::too_many_arguments)]
pub async fn create_challengers(
    state: &AppState,
    caller: &Caller,
    id: &str,
    name: &str,
    players: &[String],
    first_to: Option<u32>,
    rules: Option<&str>,
    idempotency_key: Option<String>,
) -> Result<Seq, ApiError> {
    let account = organizer(caller)?;
    let name = required(name, "name")?;
    let players = names(players, None)?;
    let mut rules =
        arbiter_record::parse_challengers_rules(&rules_text(rules, "xmadn-challengers")?)
            .map_err(bad_rules)?;
    if let Some(x) = first_to {
        rules.first_to = x;
    }
    let ctx = context(&account, state.now(), idempotency_key, Some(0));
    let executed = state
        .service
        .create_challengers(id, &name, rules, &players, &ctx)
        .await?;
    grant_creator(state, id, &account).await?;
    Ok(executed.last)
}
