//! Every state-changing thing the pages and the API do to a ladder, in one
//! place: what it asks for ([`LadderAction`]), who may do it
//! ([`LadderAction::who`], checked by [`run_ladder`] before anything is
//! decided), and how it becomes an engine command.
//!
//! The pages post flat forms ([`ActionForm`]) that become the same actions,
//! so a page and the API can never disagree on who may do what.
//!
//! Who may (per competition):
//! - the owner: everything, and alone adds or removes moderators and changes
//!   the rules;
//! - a moderator: players, rounds, results, adjudication, closing, mail;
//! - a player: joins, reports the result of his own game, confirms or
//!   disputes the report of his opponent, asks to skip a round, withdraws;
//! - the public: nothing (reading only).
//!
//! Nobody moderates, confirms or adjudicates his own game: a moderator who
//! plays in a game acts on it only as its player (ARB-R45).

use arbiter_engine::model::{Adjudication, EndTag, GameId, Outcome, PlayerId, Side, Time};
use arbiter_engine::tws::{
    Command, Confirmer, Event, Ladder, Membership, PairingPlan, ResultInput,
};
use arbiter_service::{Executed, views};
use arbiter_store::{AccountStore, Role, Seq};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::actions::Who;
use crate::actions::common::{self, required};
use crate::auth::{Caller, Roles};
use crate::error::ApiError;

/// The result of a game as a form gives it.
#[derive(Debug, Clone, Default, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResultForm {
    /// The winner's name; absent or empty for a tie.
    #[serde(default)]
    pub winner: Option<String>,
    /// How the game ended: `vp`, `defcon`, `europe-control`,
    /// `final-scoring`, `wargames`, `concession`, or other words.
    #[serde(default)]
    pub ended_by: Option<String>,
    #[serde(default)]
    pub vp: Option<i32>,
    #[serde(default)]
    pub turn: Option<u8>,
    #[serde(default)]
    pub note: Option<String>,
}

/// A pairing the moderator sets instead of the default (TWS Pairings), with
/// its reason.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PairOverride {
    pub a: String,
    pub b: String,
}

/// One state-changing request on a Twilight Struggle ladder.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(tag = "action", rename_all = "kebab-case", deny_unknown_fields)]
pub enum LadderAction {
    /// The caller asks to join under the name on his account (TWS Joining
    /// the Ladder); a moderator approves.
    Join,
    /// A moderator adds a player, optionally linking an account to him.
    AddPlayer {
        name: String,
        #[serde(default)]
        account: Option<String>,
    },
    Approve {
        player: String,
    },
    Decline {
        player: String,
        reason: String,
    },
    /// A moderator links an account to a player (ARB-R50): the account
    /// acts as that player from then on.
    LinkAccount {
        player: String,
        account: String,
    },
    /// A moderator ends the link of a player's account (ARB-R50).
    UnlinkAccount {
        player: String,
    },
    /// A moderator withdraws a player, or a player himself.
    Withdraw {
        player: String,
        reason: String,
    },
    /// The owner makes an account a moderator.
    AddModerator {
        username: String,
    },
    RemoveModerator {
        username: String,
    },
    /// The owner changes the rules (a TOML rules file) from a round
    /// (default: the next to be announced).
    ChangeRules {
        rules: String,
        #[serde(default)]
        from_round: Option<u32>,
        reason: String,
    },
    /// Announce the next round (closing the last when it is complete).
    /// With `preview`, nothing is stored and the round is returned.
    AnnounceRound {
        /// `YYYY-MM-DD`, earlier than the rules' limit.
        #[serde(default)]
        deadline: Option<String>,
        /// Pairings instead of the default; they need a `reason`.
        #[serde(default)]
        pairs: Vec<PairOverride>,
        #[serde(default)]
        byes: Vec<String>,
        #[serde(default)]
        reason: Option<String>,
        #[serde(default)]
        eliminator: Option<String>,
        #[serde(default)]
        preview: bool,
    },
    /// A moderator records a result; `agreed` after the deadline.
    RecordResult {
        game: String,
        result: ResultForm,
        #[serde(default)]
        agreed: bool,
    },
    /// A player reports the result of his own game.
    ReportResult {
        game: String,
        result: ResultForm,
    },
    /// The opponent (or a moderator not in the game) confirms a report.
    ConfirmResult {
        game: String,
    },
    /// The opponent (or a moderator not in the game) disputes a report.
    RejectReport {
        game: String,
        reason: String,
    },
    Forfeit {
        game: String,
        absent: String,
        #[serde(default)]
        note: Option<String>,
    },
    /// The moderator's decision on an overdue game, with the final state
    /// and both players' statements (TWS Conduct of Games).
    Adjudicate {
        game: String,
        /// The winner's name; absent for a tie.
        #[serde(default)]
        winner: Option<String>,
        #[serde(default)]
        vp: Option<i32>,
        #[serde(default)]
        turn: Option<u8>,
        final_state: String,
        #[serde(default)]
        ussr_statement: Option<String>,
        #[serde(default)]
        us_statement: Option<String>,
        decision: String,
    },
    CorrectResult {
        game: String,
        result: ResultForm,
        reason: String,
    },
    CancelGame {
        game: String,
        reason: String,
    },
    /// Skip a round (default: the next); a moderator may name the player.
    RequestSkip {
        #[serde(default)]
        player: Option<String>,
        #[serde(default)]
        round: Option<u32>,
    },
    CancelSkip {
        #[serde(default)]
        player: Option<String>,
        #[serde(default)]
        round: Option<u32>,
    },
    /// Close the running round; `early_reason` closes it before its last
    /// games are decided (ARB-R21). With `preview`, nothing is stored.
    CloseRound {
        #[serde(default)]
        early_reason: Option<String>,
        #[serde(default)]
        preview: bool,
    },
}

impl LadderAction {
    pub fn name(&self) -> &'static str {
        match self {
            LadderAction::Join => "join",
            LadderAction::AddPlayer { .. } => "add-player",
            LadderAction::Approve { .. } => "approve",
            LadderAction::Decline { .. } => "decline",
            LadderAction::Withdraw { .. } => "withdraw",
            LadderAction::LinkAccount { .. } => "link-account",
            LadderAction::UnlinkAccount { .. } => "unlink-account",
            LadderAction::AddModerator { .. } => "add-moderator",
            LadderAction::RemoveModerator { .. } => "remove-moderator",
            LadderAction::ChangeRules { .. } => "change-rules",
            LadderAction::AnnounceRound { .. } => "announce-round",
            LadderAction::RecordResult { .. } => "record-result",
            LadderAction::ReportResult { .. } => "report-result",
            LadderAction::ConfirmResult { .. } => "confirm-result",
            LadderAction::RejectReport { .. } => "reject-report",
            LadderAction::Forfeit { .. } => "forfeit",
            LadderAction::Adjudicate { .. } => "adjudicate",
            LadderAction::CorrectResult { .. } => "correct-result",
            LadderAction::CancelGame { .. } => "cancel-game",
            LadderAction::RequestSkip { .. } => "request-skip",
            LadderAction::CancelSkip { .. } => "cancel-skip",
            LadderAction::CloseRound { .. } => "close-round",
        }
    }

    /// Who may carry it out.
    pub fn who(&self) -> Who {
        match self {
            LadderAction::Join => Who::Account,
            LadderAction::AddPlayer { .. }
            | LadderAction::Approve { .. }
            | LadderAction::Decline { .. }
            | LadderAction::LinkAccount { .. }
            | LadderAction::UnlinkAccount { .. }
            | LadderAction::AnnounceRound { .. }
            | LadderAction::CloseRound { .. } => Who::Moderator,
            LadderAction::Withdraw { .. }
            | LadderAction::RequestSkip { .. }
            | LadderAction::CancelSkip { .. } => Who::ModeratorOrSelf,
            LadderAction::AddModerator { .. }
            | LadderAction::RemoveModerator { .. }
            | LadderAction::ChangeRules { .. } => Who::Owner,
            LadderAction::RecordResult { .. }
            | LadderAction::Forfeit { .. }
            | LadderAction::Adjudicate { .. }
            | LadderAction::CorrectResult { .. }
            | LadderAction::CancelGame { .. } => Who::ModeratorNotInGame,
            LadderAction::ReportResult { .. } => Who::GamePlayer,
            LadderAction::ConfirmResult { .. } | LadderAction::RejectReport { .. } => {
                Who::GamePlayerOrModerator
            }
        }
    }

    /// The game the action is about, if any.
    fn game(&self) -> Option<&str> {
        match self {
            LadderAction::RecordResult { game, .. }
            | LadderAction::ReportResult { game, .. }
            | LadderAction::ConfirmResult { game }
            | LadderAction::RejectReport { game, .. }
            | LadderAction::Forfeit { game, .. }
            | LadderAction::Adjudicate { game, .. }
            | LadderAction::CorrectResult { game, .. }
            | LadderAction::CancelGame { game, .. } => Some(game),
            _ => None,
        }
    }

    /// Whether nothing is stored.
    pub fn is_preview(&self) -> bool {
        matches!(
            self,
            LadderAction::AnnounceRound { preview: true, .. }
                | LadderAction::CloseRound { preview: true, .. }
        )
    }
}

/// What an action did.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ActionDone {
    pub action: String,
    /// The competition's version after it (before it, for a preview).
    pub version: Seq,
    /// Nothing was stored: a preview, or a retry of a request already done
    /// (same idempotency key).
    pub stored: bool,
    pub replayed: bool,
    /// What happened, in words.
    pub message: String,
    /// For a round announced or previewed: the round.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub round: Option<views::RoundView>,
    /// For a round closed or previewed: the close with every move
    /// explained.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub close: Option<views::CloseView>,
}

/// Check that `caller` (with `roles` in the competition) may carry out
/// `action` on `ladder`; the error says why not.
pub fn authorize(
    ladder: &Ladder,
    caller: &Caller,
    roles: &Roles,
    action: &LadderAction,
) -> Result<(), ApiError> {
    let account = caller.account()?;
    // The player the account acts as: linked by an event and approved
    // (ARB-R50), never found from a name.
    let linked = roles.player;
    // A moderator is the player of his name even when no account is linked
    // to that player (ARB-R2): he does not moderate that player's game. This
    // only ever refuses; the name is matched exactly, never read as an id.
    let by_name = ladder.find(&account.display_name);
    let in_game = |me: &[Option<PlayerId>]| -> Result<bool, ApiError> {
        let Some(g) = action.game() else {
            return Ok(false);
        };
        let g = game(ladder, g)?;
        Ok(ladder
            .game(g)
            .is_some_and(|g| me.iter().flatten().any(|p| g.has_player(*p))))
    };
    let refuse = |why: String| Err(ApiError::forbidden(why));
    match action.who() {
        Who::ModeratorOrSelf if !roles.moderates() => {
            let named = match action {
                LadderAction::Withdraw { player, .. } => Some(player.as_str()),
                LadderAction::RequestSkip { player, .. }
                | LadderAction::CancelSkip { player, .. } => player.as_deref(),
                _ => None,
            };
            match (roles.player, named) {
                (Some(_), None) => Ok(()),
                (Some(me), Some(n)) if me == player_id(ladder, n)? => Ok(()),
                _ => refuse(format!(
                    "only a moderator, or the player himself, may {}",
                    action.name()
                )),
            }
        }
        Who::Player if roles.player.is_some() => Ok(()),
        Who::GamePlayer if in_game(&[linked])? => Ok(()),
        Who::GamePlayer => refuse(format!(
            "only a player of the game may {} (ARB-R45)",
            action.name()
        )),
        Who::GamePlayerOrModerator if in_game(&[linked])? || roles.moderates() => Ok(()),
        who => common::check_role(
            caller,
            roles,
            who,
            action.name(),
            || in_game(&[linked, by_name]),
            common::LADDER,
        ),
    }
}

/// A player by name (case-insensitive) or id (`P3`).
pub fn player_id(ladder: &Ladder, name: &str) -> Result<PlayerId, ApiError> {
    let name = name.trim();
    if let Some(n) = name
        .strip_prefix(['P', 'p'])
        .and_then(|n| n.parse::<u32>().ok())
        && ladder.player(PlayerId(n)).is_some()
    {
        return Ok(PlayerId(n));
    }
    // ARB-R62: the one normalization of names.
    ladder.find(name).ok_or_else(|| {
        let hint = arbiter_engine::model::did_you_mean(
            ladder.players.iter().map(|p| p.player.name.as_str()),
            name,
        );
        ApiError::bad_request(format!(
            "there is no player named {name:?} in this competition{hint}"
        ))
        .with_field("player")
    })
}

/// A game by id (`G12` or `12`).
pub fn game(ladder: &Ladder, s: &str) -> Result<GameId, ApiError> {
    let digits = s.trim().strip_prefix(['G', 'g']).unwrap_or(s.trim());
    digits
        .parse::<u32>()
        .ok()
        .filter(|n| *n >= 1 && ladder.game(GameId(*n)).is_some())
        .map(GameId)
        .ok_or_else(|| ApiError::bad_request(format!("there is no game {s:?}")).with_field("game"))
}

fn outcome(ladder: &Ladder, g: GameId, winner: Option<&str>) -> Result<Outcome, ApiError> {
    let Some(w) = winner.map(str::trim).filter(|w| !w.is_empty()) else {
        return Ok(Outcome::Tie);
    };
    let w = player_id(ladder, w).map_err(|e| e.with_field("winner"))?;
    let game = ladder
        .game(g)
        .ok_or_else(|| ApiError::bad_request(format!("there is no game {g}")).with_field("game"))?;
    let side: Side = game.side_of(w).ok_or_else(|| {
        ApiError::bad_request(format!(
            "{} does not play in \"{}\"",
            ladder.name_of(w),
            ladder.game_name(game)
        ))
        .with_field("winner")
    })?;
    Ok(Outcome::Win(side))
}

fn result_input(ladder: &Ladder, g: GameId, r: &ResultForm) -> Result<ResultInput, ApiError> {
    Ok(ResultInput {
        outcome: outcome(ladder, g, r.winner.as_deref())?,
        ended_by: EndTag::parse(r.ended_by.as_deref().unwrap_or("vp"))
            .map_err(|e| ApiError::bad_request(e.message.clone()).with_field("ended_by"))?,
        vp: r.vp,
        turn: r.turn,
        note: r.note.clone().filter(|n| !n.trim().is_empty()),
    })
}

/// `YYYY-MM-DD` (the end of that day in the competition's time zone
/// `zone`, ARB-R82) or an RFC 3339 time.
pub fn parse_deadline(s: &str, zone: arbiter_engine::zone::TimeZone) -> Result<Time, ApiError> {
    let s = s.trim();
    if let Ok(t) = chrono::DateTime::parse_from_rfc3339(s) {
        return Ok(t.with_timezone(&chrono::Utc));
    }
    chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d")
        .ok()
        .map(|d| zone.end_of_day(d))
        .ok_or_else(|| {
            ApiError::bad_request(format!("{s:?} is not a date (YYYY-MM-DD)"))
                .with_field("deadline")
        })
}

/// Carry out `action` on ladder `competition` for `caller`: check the
/// role, decide, store (unless a preview), and update the grants the
/// action implies (a player added with an account, a moderator added).
pub async fn run_ladder(
    state: &AppState,
    caller: &Caller,
    competition: &str,
    action: LadderAction,
    expected: Option<Seq>,
    idempotency_key: Option<String>,
) -> Result<ActionDone, ApiError> {
    let svc = &state.service;
    let (account, roles, ladder, version) =
        common::load_for::<Ladder>(state, caller, competition).await?;
    authorize(&ladder, caller, &roles, &action)?;
    let now = state.now();
    let ctx = common::context(&account, now, idempotency_key, expected);
    let name = action.name().to_string();
    let done = |version: Seq, executed: &Executed, message: String| ActionDone {
        action: name.clone(),
        version,
        stored: !executed.replayed,
        replayed: executed.replayed,
        message,
        round: None,
        close: None,
    };
    let command = match &action {
        LadderAction::AnnounceRound {
            deadline,
            pairs,
            byes,
            reason,
            eliminator,
            preview,
        } => {
            let deadline = deadline
                .as_deref()
                .filter(|d| !d.trim().is_empty())
                .map(|d| parse_deadline(d, ladder.zone))
                .transpose()?;
            let plan = if pairs.is_empty() {
                PairingPlan::Default {
                    eliminator: eliminator
                        .as_deref()
                        .filter(|e| !e.trim().is_empty())
                        .map(|e| player_id(&ladder, e))
                        .transpose()?,
                }
            } else {
                let reason = reason
                    .clone()
                    .filter(|r| !r.trim().is_empty())
                    .ok_or_else(|| {
                        ApiError::bad_request("a pairing exception needs a reason (TWS Pairings)")
                            .with_field("reason")
                    })?;
                PairingPlan::Override {
                    pairs: pairs
                        .iter()
                        .map(|p| Ok((player_id(&ladder, &p.a)?, player_id(&ladder, &p.b)?)))
                        .collect::<Result<_, ApiError>>()?,
                    byes: byes
                        .iter()
                        .map(|b| player_id(&ladder, b))
                        .collect::<Result<_, _>>()?,
                    reason,
                }
            };
            let (after, executed) = svc
                .announce_round(competition, deadline, plan, *preview, &ctx)
                .await?;
            let round = after
                .open_round()
                .map(|r| views::round_view(&after, competition, r, now));
            let number = round.as_ref().map_or(0, |r| r.number);
            let message = if *preview {
                format!("Preview of round {number}: nothing is stored until you announce it.")
            } else {
                format!("Round {number} announced.")
            };
            let mut out = done(
                if *preview { version } else { executed.last },
                &executed,
                message,
            );
            out.stored = !preview && !executed.replayed;
            out.round = round;
            return Ok(out);
        }
        LadderAction::CloseRound {
            early_reason,
            preview,
        } => {
            let command = match early_reason
                .as_deref()
                .map(str::trim)
                .filter(|r| !r.is_empty())
            {
                Some(reason) => Command::CloseRoundEarly {
                    at: now,
                    reason: reason.to_string(),
                },
                None => Command::CloseRound { at: now },
            };
            if *preview {
                let events = ladder
                    .decide(command)
                    .map_err(arbiter_service::ServiceError::Rule)?;
                let mut after = ladder.clone();
                for e in &events {
                    after.apply(e);
                }
                let close = events.iter().find_map(|e| match e {
                    Event::RoundClosed(c) => Some(views::close_view(&after, c)),
                    _ => None,
                });
                return Ok(ActionDone {
                    action: name,
                    version,
                    stored: false,
                    replayed: false,
                    message: "Preview of the close: nothing is stored until you close the round."
                        .into(),
                    round: None,
                    close,
                });
            }
            let executed = svc.execute(competition, command, &ctx).await?;
            let (after, v) = svc.load(competition, None).await?;
            let close = executed.events.iter().find_map(|e| match e {
                Event::RoundClosed(c) => Some(views::close_view(&after, c)),
                _ => None,
            });
            let mut out = done(v, &executed, "Round closed.".into());
            out.close = close;
            return Ok(out);
        }
        LadderAction::Join => {
            // One application per account: his link stays while he is an
            // applicant, a member or a guest (ARB-R50).
            let current = ladder
                .links
                .player_of(&account.username)
                .and_then(|p| ladder.player(p))
                .is_some_and(|p| !matches!(p.status, Membership::Declined | Membership::Withdrawn));
            if current {
                return Err(ApiError::bad_request(
                    "you already play in this competition, or your application is waiting for a moderator",
                ));
            }
            // The application records the account it comes from; the
            // account acts as the player only once a moderator approves.
            Command::Linked {
                account: account.username.clone(),
                command: Box::new(Command::Apply {
                    name: account.display_name.clone(),
                    surname: None,
                }),
            }
        }
        LadderAction::AddPlayer {
            name,
            account: linked,
        } => {
            let join = Command::Join {
                name: required(name, "name")?,
                surname: None,
            };
            // The account is checked before anything is stored, and linked
            // in the same append as the player (all or nothing).
            match linked.as_deref().map(str::trim).filter(|a| !a.is_empty()) {
                Some(username) => Command::Linked {
                    account: common::account_to_link(state, username).await?,
                    command: Box::new(join),
                },
                None => join,
            }
        }
        LadderAction::LinkAccount {
            player,
            account: username,
        } => Command::LinkAccount {
            player: player_id(&ladder, player)?,
            account: common::account_to_link(state, username).await?,
        },
        LadderAction::UnlinkAccount { player } => Command::UnlinkAccount {
            player: player_id(&ladder, player)?,
        },
        LadderAction::Approve { player } => Command::Approve {
            player: player_id(&ladder, player)?,
        },
        LadderAction::Decline { player, reason } => Command::Decline {
            player: player_id(&ladder, player)?,
            reason: required(reason, "reason")?,
        },
        LadderAction::Withdraw { player, reason } => Command::Withdraw {
            player: player_id(&ladder, player)?,
            reason: required(reason, "reason")?,
        },
        LadderAction::AddModerator { username } | LadderAction::RemoveModerator { username } => {
            let target =
                common::existing_account(state, &username.trim().to_lowercase(), username).await?;
            if matches!(action, LadderAction::AddModerator { .. }) {
                Command::AddModerator {
                    name: target.display_name,
                }
            } else {
                Command::RemoveModerator {
                    name: target.display_name,
                }
            }
        }
        LadderAction::ChangeRules {
            rules,
            from_round,
            reason,
        } => Command::ChangeRules {
            rules: arbiter_record::parse_rules(rules).map_err(common::bad_rules)?,
            from_round: *from_round,
            reason: required(reason, "reason")?,
        },
        LadderAction::RecordResult {
            game: g,
            result,
            agreed,
        } => {
            let g = game(&ladder, g)?;
            Command::RecordResult {
                game: g,
                result: result_input(&ladder, g, result)?,
                agreed: *agreed,
                at: now,
            }
        }
        LadderAction::ReportResult { game: g, result } => {
            let g = game(&ladder, g)?;
            Command::ReportResult {
                game: g,
                result: result_input(&ladder, g, result)?,
                by: my_player(&roles)?,
                at: now,
            }
        }
        LadderAction::ConfirmResult { game: g } => {
            let g = game(&ladder, g)?;
            Command::ConfirmResult {
                game: g,
                by: confirmer(&ladder, g, &roles, &account.display_name)?,
                at: now,
            }
        }
        LadderAction::RejectReport { game: g, reason } => {
            let g = game(&ladder, g)?;
            Command::RejectReport {
                game: g,
                by: confirmer(&ladder, g, &roles, &account.display_name)?,
                reason: required(reason, "reason")?,
                at: now,
            }
        }
        LadderAction::Forfeit {
            game: g,
            absent,
            note,
        } => Command::Forfeit {
            game: game(&ladder, g)?,
            absent: player_id(&ladder, absent).map_err(|e| e.with_field("absent"))?,
            note: note.clone().filter(|n| !n.trim().is_empty()),
            at: now,
        },
        LadderAction::Adjudicate {
            game: g,
            winner,
            vp,
            turn,
            final_state,
            ussr_statement,
            us_statement,
            decision,
        } => {
            let g = game(&ladder, g)?;
            Command::Adjudicate {
                game: g,
                outcome: outcome(&ladder, g, winner.as_deref())?,
                vp: *vp,
                turn: *turn,
                record: Adjudication {
                    final_state: required(final_state, "final_state")?,
                    ussr_statement: ussr_statement.clone().filter(|s| !s.trim().is_empty()),
                    us_statement: us_statement.clone().filter(|s| !s.trim().is_empty()),
                    third_party: None,
                    decision: required(decision, "decision")?,
                },
                at: now,
            }
        }
        LadderAction::CorrectResult {
            game: g,
            result,
            reason,
        } => {
            let g = game(&ladder, g)?;
            Command::CorrectResult {
                game: g,
                result: result_input(&ladder, g, result)?,
                reason: required(reason, "reason")?,
                at: now,
            }
        }
        LadderAction::CancelGame { game: g, reason } => Command::CancelGame {
            game: game(&ladder, g)?,
            reason: required(reason, "reason")?,
            at: now,
        },
        LadderAction::RequestSkip { player, round }
        | LadderAction::CancelSkip { player, round } => {
            let who = match player.as_deref().filter(|p| !p.trim().is_empty()) {
                Some(p) => player_id(&ladder, p)?,
                None => my_player(&roles)?,
            };
            if matches!(action, LadderAction::RequestSkip { .. }) {
                Command::RequestSkip {
                    player: who,
                    round: *round,
                }
            } else {
                Command::CancelSkip {
                    player: who,
                    round: *round,
                }
            }
        }
    };
    // ARB-R4: a skip is asked before its round is announced, so while a
    // round runs one asked without a round books the next: say so.
    let booked = match (&action, ladder.open_round()) {
        (LadderAction::RequestSkip { round: None, .. }, Some(open)) => {
            Some((ladder.next_round_number(), open.number))
        }
        _ => None,
    };
    let executed = svc.execute(competition, command, &ctx).await?;
    let (after, v) = svc.load(competition, None).await?;
    grants_after(state, competition, &action, &after, &executed).await?;
    let mut message = common::message(&executed, |e| describe(&after, e));
    if let Some((next, open)) = booked.filter(|_| !executed.replayed) {
        message.push_str(&format!(
            " {SKIP_BOOKED} {next}, because round {open} is running (a skip is asked before its round is announced, ARB-R4)."
        ));
    }
    Ok(done(v, &executed, message))
}

/// How the answer to a skip asked while a round runs begins its second
/// sentence: "Booked for round 5, because round 4 is running ...".
pub(crate) const SKIP_BOOKED: &str = "Booked for round";

/// The grants an action implies once its events are stored: moderators,
/// and the directory of where an account plays (ARB-R50).
async fn grants_after(
    state: &AppState,
    competition: &str,
    action: &LadderAction,
    after: &Ladder,
    executed: &Executed,
) -> Result<(), ApiError> {
    if executed.replayed {
        return Ok(());
    }
    let store = state.service.store();
    match action {
        LadderAction::AddModerator { username } => store
            .grant(&common::grant(
                competition,
                username.trim().to_lowercase(),
                Role::Moderator,
                None,
            ))
            .await
            .map_err(ApiError::from_store),
        LadderAction::RemoveModerator { username } => store
            .revoke(
                competition,
                &username.trim().to_lowercase(),
                Role::Moderator,
            )
            .await
            .map(|_| ())
            .map_err(ApiError::from_store),
        _ => {
            // The accounts whose player the events touch: linked or
            // unlinked, or their player approved, declined, withdrawn or
            // re-entered.
            let accounts: Vec<String> = executed
                .events
                .iter()
                .filter_map(|e| match e {
                    Event::AccountLinked { account, .. }
                    | Event::AccountUnlinked { account, .. } => Some(account.clone()),
                    Event::PlayerApproved { player }
                    | Event::PlayerDeclined { player, .. }
                    | Event::PlayerWithdrawn { player, .. }
                    | Event::PlayerReentered { player } => {
                        after.links.account_of(*player).map(str::to_string)
                    }
                    _ => None,
                })
                .collect();
            common::directory(state, competition, after, accounts).await
        }
    }
}

/// The caller's own player (ARB-R50).
fn my_player(roles: &Roles) -> Result<PlayerId, ApiError> {
    roles
        .player
        .ok_or_else(|| ApiError::forbidden("you do not play in this competition"))
}

/// Who confirms: the caller as a player of the game, else as a moderator.
fn confirmer(
    ladder: &Ladder,
    g: GameId,
    roles: &Roles,
    display_name: &str,
) -> Result<Confirmer, ApiError> {
    if let Some(me) = roles.player
        && ladder.game(g).is_some_and(|gm| gm.has_player(me))
    {
        return Ok(Confirmer::Player(me));
    }
    Ok(Confirmer::Moderator(display_name.to_string()))
}

/// One event in a sentence, for the message after an action.
fn describe(ladder: &Ladder, e: &Event) -> String {
    let line = arbiter_service::summary::summarize(ladder, e);
    let mut chars = line.chars();
    match chars.next() {
        Some(first) => format!("{}{}.", first.to_uppercase(), chars.as_str()),
        None => String::new(),
    }
}

/// Create a ladder from the `tws-ladder` preset (or a rules file) for an
/// organizer, who becomes its owner and first moderator.
pub async fn create_ladder(
    state: &AppState,
    caller: &Caller,
    id: &str,
    name: &str,
    rules: Option<&str>,
    idempotency_key: Option<String>,
) -> Result<Seq, ApiError> {
    let account = common::organizer(caller)?;
    let name = required(name, "name")?;
    let rules = arbiter_record::parse_rules(&common::rules_text(rules, "tws-ladder")?)
        .map_err(common::bad_rules)?;
    let ctx = common::context(&account, state.now(), idempotency_key, Some(0));
    let executed = state
        .service
        .create_ladder(
            id,
            &name,
            rules,
            std::slice::from_ref(&account.display_name),
            &ctx,
        )
        .await?;
    common::grant_creator(state, id, &account).await?;
    Ok(executed.last)
}
