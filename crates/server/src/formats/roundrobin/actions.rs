//! The round-robin league's actions through the API's one endpoint: every
//! input is named by its field, and the rules decide (ARB-R67, ARB-R68).
//! Results are recorded by a moderator who does not play in the game
//! (ARB-R45), lots and withdrawals by a moderator, moderators granted by
//! the owner.

use arbiter_engine::model::PlayerId;
use arbiter_engine::roundrobin::{Command, RoundRobin};
use arbiter_service::roundrobin::{describe, find_game, find_player, parse_score, read_score};
use arbiter_store::Seq;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::actions::common::{
    RECORDED_BY_A_MODERATOR, account_to_link, bad_rules, check_role, context, directory,
    grant_creator, load_for, moderator_grant, organizer, plays, required,
};
use crate::actions::{FormatDone, Who};
use crate::auth::Caller;
use crate::error::ApiError;

/// The longest text a field takes (names, games, scores, reasons).
const MOST_TEXT: usize = 200;
/// The most players a drawing of lots names.
const MOST_LOT: usize = 64;

/// One state-changing request on a round-robin league.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(tag = "action", rename_all = "kebab-case", deny_unknown_fields)]
pub enum RoundRobinAction {
    /// A player or team enters, before play starts (ARB-R68).
    AddPlayer {
        name: String,
    },
    /// Fix the schedule from the Berger tables and begin; the seed of any
    /// drawing of lots is committed now.
    Start,
    /// Record a result: `game` is its number (`G3`) or `HOME-AWAY`;
    /// `score` `2-1` (with scores), `1-0`, `½-½`, `0-1`, or a forfeit
    /// `+:-`, `-:+`, `-:-`.
    RecordResult {
        game: String,
        score: String,
        #[serde(default)]
        minutes: Option<u32>,
        #[serde(default)]
        round: Option<u32>,
    },
    /// Correct a recorded result (`score` absent: clear it).
    CorrectResult {
        game: String,
        #[serde(default)]
        score: Option<String>,
        #[serde(default)]
        minutes: Option<u32>,
        #[serde(default)]
        round: Option<u32>,
        reason: String,
    },
    /// Set a round's deadline: `YYYY-MM-DD` (the end of that day in the
    /// league's time zone, ARB-R82)
    /// or an RFC 3339 time; absent or empty clears it.
    SetDeadline {
        round: u32,
        #[serde(default)]
        deadline: Option<String>,
    },
    /// A player withdraws (ARB-R68).
    Withdraw {
        player: String,
    },
    /// Draw lots among tied players from the committed seed.
    DrawLots {
        players: Vec<String>,
    },
    /// Enter the order of a lot drawn by hand, best first.
    EnterLots {
        order: Vec<String>,
        how: String,
    },
    LinkAccount {
        player: String,
        username: String,
    },
    UnlinkAccount {
        username: String,
    },
    AddModerator {
        username: String,
    },
    RemoveModerator {
        username: String,
    },
}

impl RoundRobinAction {
    pub fn name(&self) -> &'static str {
        match self {
            RoundRobinAction::AddPlayer { .. } => "add-player",
            RoundRobinAction::Start => "start",
            RoundRobinAction::RecordResult { .. } => "record-result",
            RoundRobinAction::CorrectResult { .. } => "correct-result",
            RoundRobinAction::SetDeadline { .. } => "set-deadline",
            RoundRobinAction::Withdraw { .. } => "withdraw",
            RoundRobinAction::DrawLots { .. } => "draw-lots",
            RoundRobinAction::EnterLots { .. } => "enter-lots",
            RoundRobinAction::LinkAccount { .. } => "link-account",
            RoundRobinAction::UnlinkAccount { .. } => "unlink-account",
            RoundRobinAction::AddModerator { .. } => "add-moderator",
            RoundRobinAction::RemoveModerator { .. } => "remove-moderator",
        }
    }

    pub fn who(&self) -> Who {
        match self {
            RoundRobinAction::RecordResult { .. } | RoundRobinAction::CorrectResult { .. } => {
                Who::ModeratorNotInGame
            }
            RoundRobinAction::AddModerator { .. } | RoundRobinAction::RemoveModerator { .. } => {
                Who::Owner
            }
            _ => Who::Moderator,
        }
    }

    /// Every text field with its name, for the size limits.
    fn texts(&self) -> Vec<(&'static str, &str)> {
        match self {
            RoundRobinAction::AddPlayer { name } => vec![("name", name)],
            RoundRobinAction::Start => vec![],
            RoundRobinAction::RecordResult { game, score, .. } => {
                vec![("game", game), ("score", score)]
            }
            RoundRobinAction::CorrectResult {
                game,
                score,
                reason,
                ..
            } => {
                let mut v = vec![("game", game.as_str()), ("reason", reason.as_str())];
                if let Some(s) = score {
                    v.push(("score", s));
                }
                v
            }
            RoundRobinAction::SetDeadline { deadline, .. } => {
                deadline.iter().map(|d| ("deadline", d.as_str())).collect()
            }
            RoundRobinAction::Withdraw { player } => vec![("player", player)],
            RoundRobinAction::DrawLots { players } => {
                players.iter().map(|p| ("players", p.as_str())).collect()
            }
            RoundRobinAction::EnterLots { order, how } => {
                let mut v: Vec<(&str, &str)> =
                    order.iter().map(|p| ("order", p.as_str())).collect();
                v.push(("how", how));
                v
            }
            RoundRobinAction::LinkAccount { player, username } => {
                vec![("player", player), ("username", username)]
            }
            RoundRobinAction::UnlinkAccount { username }
            | RoundRobinAction::AddModerator { username }
            | RoundRobinAction::RemoveModerator { username } => vec![("username", username)],
        }
    }

    /// Refuse oversized input, naming the field.
    fn check_sizes(&self) -> Result<(), ApiError> {
        for (field, text) in self.texts() {
            if text.chars().count() > MOST_TEXT {
                return Err(ApiError::bad_request(format!(
                    "{field} is longer than {MOST_TEXT} characters"
                ))
                .with_field(field));
            }
        }
        let lot = match self {
            RoundRobinAction::DrawLots { players } => Some(("players", players.len())),
            RoundRobinAction::EnterLots { order, .. } => Some(("order", order.len())),
            _ => None,
        };
        if let Some((field, n)) = lot
            && n > MOST_LOT
        {
            return Err(ApiError::bad_request(format!(
                "{field} names {n} players; a lot is among at most {MOST_LOT}"
            ))
            .with_field(field));
        }
        Ok(())
    }

    /// The players of the game the action is about (for ARB-R45).
    fn players(&self, rr: &RoundRobin) -> Vec<PlayerId> {
        let game = match self {
            RoundRobinAction::RecordResult { game, round, .. }
            | RoundRobinAction::CorrectResult { game, round, .. } => {
                find_game(rr, game, *round).ok().map(|(g, _)| g)
            }
            _ => None,
        };
        game.and_then(|g| rr.game(g))
            .map(|g| vec![g.home, g.away])
            .unwrap_or_default()
    }
}

fn players(rr: &RoundRobin, names: &[String], field: &str) -> Result<Vec<PlayerId>, ApiError> {
    names
        .iter()
        .map(|n| find_player(rr, n, field).map_err(ApiError::from))
        .collect()
}

/// Run `action` on round-robin league `competition`.
pub async fn run(
    state: &AppState,
    caller: &Caller,
    competition: &str,
    action: RoundRobinAction,
    expected: Option<Seq>,
    idempotency_key: Option<String>,
) -> Result<FormatDone, ApiError> {
    action.check_sizes()?;
    let svc = &state.service;
    let (account, roles, rr, version) = load_for::<RoundRobin>(state, caller, competition).await?;
    let me = [roles.player, rr.find(&caller.account()?.display_name)];
    check_role(
        caller,
        &roles,
        action.who(),
        action.name(),
        || Ok(plays(&me, &action.players(&rr))),
        RECORDED_BY_A_MODERATOR,
    )?;
    if let RoundRobinAction::AddModerator { username }
    | RoundRobinAction::RemoveModerator { username } = &action
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
    let execute = |c: Command| svc.execute_as::<RoundRobin>(competition, c, &ctx);
    let executed = match &action {
        RoundRobinAction::AddPlayer { name } => {
            execute(Command::AddPlayer {
                name: required(name, "name")?,
            })
            .await?
        }
        RoundRobinAction::Start => svc.start_round_robin(competition, None, &ctx).await?,
        RoundRobinAction::RecordResult {
            game,
            score,
            minutes,
            round,
        } => {
            let (game, score) = read_score(&rr, game, score, *round)?;
            execute(Command::Record {
                game,
                score,
                minutes: *minutes,
                at: now,
            })
            .await?
        }
        RoundRobinAction::CorrectResult {
            game,
            score,
            minutes,
            round,
            reason,
        } => {
            let (game, reversed) = find_game(&rr, game, *round)?;
            let score = score
                .as_deref()
                .map(|s| parse_score(&rr, s))
                .transpose()?
                .map(|s| if reversed { s.swapped() } else { s });
            execute(Command::Correct {
                game,
                score,
                minutes: *minutes,
                reason: required(reason, "reason")?,
                at: now,
            })
            .await?
        }
        RoundRobinAction::SetDeadline { round, deadline } => {
            let deadline = deadline
                .as_deref()
                .map(str::trim)
                .filter(|d| !d.is_empty())
                .map(|d| crate::formats::tws::actions::parse_deadline(d, rr.zone))
                .transpose()?;
            execute(Command::SetDeadline {
                round: *round,
                deadline,
            })
            .await?
        }
        RoundRobinAction::Withdraw { player } => {
            let player = find_player(&rr, player, "player")?;
            execute(Command::Withdraw { player, at: now }).await?
        }
        RoundRobinAction::DrawLots { players: names } => {
            let ids = players(&rr, names, "players")?;
            svc.draw_round_robin_lots(competition, ids, &ctx).await?
        }
        RoundRobinAction::EnterLots { order, how } => {
            let order = players(&rr, order, "order")?;
            execute(Command::EnterLots {
                order,
                how: required(how, "how")?,
                at: now,
            })
            .await?
        }
        RoundRobinAction::LinkAccount { player, username } => {
            let player = find_player(&rr, player, "player")?;
            let account = account_to_link(state, username).await?;
            execute(Command::LinkAccount { player, account }).await?
        }
        RoundRobinAction::UnlinkAccount { username } => {
            let name = required(username, "username")?.to_lowercase();
            let player = arbiter_engine::model::Linked::links(&rr)
                .player_of(&name)
                .ok_or_else(|| {
                    ApiError::bad_request(format!(
                        "the account {name:?} is linked to no player of this league"
                    ))
                    .with_field("username")
                })?;
            execute(Command::UnlinkAccount { player }).await?
        }
        RoundRobinAction::AddModerator { .. } | RoundRobinAction::RemoveModerator { .. } => {
            return Err(ApiError::bad_request(
                "moderators are granted above".to_string(),
            ));
        }
    };
    let (after, _) = svc.load_as::<RoundRobin>(competition, None).await?;
    if !executed.replayed {
        let accounts: Vec<String> = executed
            .events
            .iter()
            .filter_map(|e| match e {
                arbiter_engine::roundrobin::Event::AccountLinked { account, .. }
                | arbiter_engine::roundrobin::Event::AccountUnlinked { account, .. } => {
                    Some(account.clone())
                }
                _ => None,
            })
            .collect();
        directory(state, competition, &after, accounts).await?;
    }
    Ok(FormatDone::of(action.name(), &executed, |e| {
        describe(&after, e)
    }))
}

/// Create a round-robin league for an organizer, its owner and first
/// moderator: from `rules` (a rules file) or else the named preset (the
/// first, `fifa-world-cup`, when none is named), with the players given
/// (more are added until the start).
pub(crate) async fn create(
    state: &AppState,
    caller: &Caller,
    c: &crate::formats::Creation,
) -> Result<Seq, ApiError> {
    let account = organizer(caller)?;
    let name = required(&c.name, "name")?;
    let players = c.player_names();
    let most = *arbiter_engine::berger::PLAYERS.end();
    if players.len() > most {
        return Err(ApiError::bad_request(format!(
            "players: a round robin has at most {most} players (got {})",
            players.len()
        ))
        .with_field("players"));
    }
    let text = match c.rules.as_deref().map(str::trim).filter(|r| !r.is_empty()) {
        Some(text) => text,
        None => {
            let preset = c
                .preset
                .as_deref()
                .unwrap_or(arbiter_record::roundrobin::PRESETS[0].0);
            arbiter_record::roundrobin::round_robin_preset(preset).ok_or_else(|| {
                ApiError::bad_request(format!(
                    "there is no round-robin preset {preset:?}; presets: {}",
                    arbiter_record::roundrobin::PRESETS
                        .iter()
                        .map(|(n, _)| *n)
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
                .with_field("preset")
            })?
        }
    };
    let rules = arbiter_record::roundrobin::parse_round_robin_rules(text).map_err(bad_rules)?;
    let ctx = context(&account, state.now(), c.key.clone(), Some(0));
    let executed = state
        .service
        .create_round_robin(&c.id, &name, rules, &players, &ctx)
        .await?;
    grant_creator(state, &c.id, &account).await?;
    Ok(executed.last)
}
