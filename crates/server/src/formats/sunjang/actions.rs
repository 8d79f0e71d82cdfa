//! The state-changing things the pages and the API do to a Sunjang league
//! ([`SunjangAction`]), with who may do them and the engine command each
//! becomes, like [`crate::formats::tws::actions`] for a ladder.
//!
//! Who may (per competition): the owner and the moderators register and
//! update players, plan seasons (with a preview that stores nothing),
//! record and correct results, record tiebreak decisions, close seasons
//! and run the final round; the owner alone changes the division
//! restrictions and adds and removes moderators (grants only: the league
//! keeps no moderators in its engine state, so that changes no event log).
//! Nobody who plays in a game records or corrects it as a moderator
//! (ARB-R45). A player (his account linked by the league's events,
//! ARB-R50) reports the outcome of his own group game; his opponent, or a
//! moderator who does not play in it, confirms or disputes the report
//! (ARB-R45, ARB-R81).

use arbiter_engine::model::PlayerId;
use arbiter_engine::sunjang::group::Outcome;
use arbiter_engine::sunjang::layout::Proposal;
use arbiter_engine::sunjang::season::{self, League};
use arbiter_engine::sunjang::{PlayerInfo, Rank};
use arbiter_service::ServiceError;
use arbiter_service::sunjang::{
    layout_moves, parse_outcome, parse_rank_range, parse_restriction_row, season_view,
};
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

/// One state-changing request on a Sunjang league.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(tag = "action", rename_all = "kebab-case", deny_unknown_fields)]
pub enum SunjangAction {
    /// Register a player (optionally linking an account to him).
    AddPlayer {
        name: String,
        /// `5k`, `2d`; a trailing `?` marks it provisional.
        rank: String,
        rating: i32,
        #[serde(default)]
        provisional: bool,
        #[serde(default)]
        corr_rank: Option<String>,
        #[serde(default)]
        corr_rating: Option<i32>,
        #[serde(default)]
        account: Option<String>,
    },
    /// New rank and rating for a registered player.
    UpdatePlayer {
        player: String,
        rank: String,
        rating: i32,
        #[serde(default)]
        provisional: bool,
        #[serde(default)]
        corr_rank: Option<String>,
        #[serde(default)]
        corr_rating: Option<i32>,
    },
    WithdrawPlayer {
        player: String,
        reason: String,
    },
    ReturnPlayer {
        player: String,
    },
    /// The owner changes the division restrictions (a Sunjang rules file,
    /// TOML, of which the restrictions are read).
    ChangeRestrictions {
        rules: String,
        reason: String,
    },
    /// Plan the next season. With `preview`, nothing is stored and the
    /// plan is returned (pyramid, groups, every placement explained).
    /// With `moves` (`NAME:GROUP`, such as `Ann:B2`) and a `reason`, the
    /// organizer's moves of the automatic plan's placements, checked
    /// against section A: a preview lists every rule they break
    /// (`violations`), and a plan that breaks any is refused (ARB-R55).
    PlanSeason {
        #[serde(default)]
        preview: bool,
        #[serde(default)]
        moves: Vec<String>,
        #[serde(default)]
        reason: Option<String>,
    },
    /// The owner sets one row of the division restrictions (ARB-R56):
    /// `ranks` weakest first (`10k-1k`, or one rank), `divisions` highest
    /// first (`A-B`, or one division). It replaces the row of exactly
    /// those ranks, or is added.
    SetRestriction {
        ranks: String,
        divisions: String,
        reason: String,
    },
    /// The owner removes the row of exactly `ranks` (ARB-R56).
    RemoveRestriction {
        ranks: String,
        reason: String,
    },
    /// `outcome`: black, white, jigo, black-forfeits, white-forfeits,
    /// both-forfeit.
    RecordResult {
        black: String,
        white: String,
        outcome: String,
    },
    CorrectResult {
        black: String,
        white: String,
        outcome: String,
        reason: String,
    },
    /// The player gives way in ties (D.2).
    GiveWay {
        player: String,
    },
    /// A live Sunjang match decided a tie.
    RecordLiveMatch {
        winner: String,
        loser: String,
    },
    CloseSeason,
    /// Qualify the final round of the last closed season.
    QualifyFinal,
    RecordFinalGame {
        black: String,
        white: String,
        outcome: String,
    },
    WithdrawFromFinal {
        player: String,
    },
    /// The owner makes an account a moderator. This format keeps its
    /// moderators as grants only (its engine state has none): nothing is
    /// appended to the event log, and the answer's `version` is the
    /// competition's version, unchanged.
    AddModerator {
        username: String,
    },
    /// The owner takes an account's moderator grant away (a grant only,
    /// like `add-moderator`: the event log is unchanged).
    RemoveModerator {
        username: String,
    },
    /// A player reports the outcome of his own group game (ARB-R45,
    /// ARB-R81): `outcome` black, white or jigo (forfeits are a
    /// moderator's). It waits for the other player or a moderator not in
    /// the game.
    ReportResult {
        black: String,
        white: String,
        outcome: String,
    },
    /// The other player, or a moderator not in the game, confirms the
    /// report of `black` v `white`: the result is recorded.
    ConfirmResult {
        black: String,
        white: String,
    },
    /// The other player, or a moderator not in the game, disputes the
    /// report of `black` v `white` with a reason: nothing is recorded.
    DisputeReport {
        black: String,
        white: String,
        reason: String,
    },
    /// A moderator links an account to a player (ARB-R50).
    LinkAccount {
        player: String,
        account: String,
    },
    /// A moderator ends the link of a player's account (ARB-R50).
    UnlinkAccount {
        player: String,
    },
}

impl SunjangAction {
    pub fn name(&self) -> &'static str {
        match self {
            SunjangAction::AddPlayer { .. } => "add-player",
            SunjangAction::UpdatePlayer { .. } => "update-player",
            SunjangAction::WithdrawPlayer { .. } => "withdraw-player",
            SunjangAction::ReturnPlayer { .. } => "return-player",
            SunjangAction::ChangeRestrictions { .. } => "change-restrictions",
            SunjangAction::SetRestriction { .. } => "set-restriction",
            SunjangAction::RemoveRestriction { .. } => "remove-restriction",
            SunjangAction::PlanSeason { .. } => "plan-season",
            SunjangAction::RecordResult { .. } => "record-result",
            SunjangAction::ReportResult { .. } => "report-result",
            SunjangAction::ConfirmResult { .. } => "confirm-result",
            SunjangAction::DisputeReport { .. } => "dispute-report",
            SunjangAction::CorrectResult { .. } => "correct-result",
            SunjangAction::GiveWay { .. } => "give-way",
            SunjangAction::RecordLiveMatch { .. } => "record-live-match",
            SunjangAction::CloseSeason => "close-season",
            SunjangAction::QualifyFinal => "qualify-final",
            SunjangAction::RecordFinalGame { .. } => "record-final-game",
            SunjangAction::WithdrawFromFinal { .. } => "withdraw-from-final",
            SunjangAction::AddModerator { .. } => "add-moderator",
            SunjangAction::RemoveModerator { .. } => "remove-moderator",
            SunjangAction::LinkAccount { .. } => "link-account",
            SunjangAction::UnlinkAccount { .. } => "unlink-account",
        }
    }

    /// Who may carry it out.
    pub fn who(&self) -> Who {
        match self {
            SunjangAction::ChangeRestrictions { .. }
            | SunjangAction::SetRestriction { .. }
            | SunjangAction::RemoveRestriction { .. }
            | SunjangAction::AddModerator { .. }
            | SunjangAction::RemoveModerator { .. } => Who::Owner,
            SunjangAction::RecordResult { .. }
            | SunjangAction::CorrectResult { .. }
            | SunjangAction::RecordLiveMatch { .. }
            | SunjangAction::RecordFinalGame { .. } => Who::ModeratorNotInGame,
            SunjangAction::ReportResult { .. } => Who::GamePlayer,
            SunjangAction::ConfirmResult { .. } | SunjangAction::DisputeReport { .. } => {
                Who::GamePlayerOrModerator
            }
            _ => Who::Moderator,
        }
    }

    /// Whether nothing is stored.
    pub fn is_preview(&self) -> bool {
        matches!(self, SunjangAction::PlanSeason { preview: true, .. })
    }

    /// The players of the game the action is about.
    fn game_players(&self, l: &League) -> Vec<PlayerId> {
        let names = match self {
            SunjangAction::RecordResult { black, white, .. }
            | SunjangAction::CorrectResult { black, white, .. }
            | SunjangAction::RecordFinalGame { black, white, .. }
            | SunjangAction::ReportResult { black, white, .. }
            | SunjangAction::ConfirmResult { black, white }
            | SunjangAction::DisputeReport { black, white, .. } => vec![black, white],
            SunjangAction::RecordLiveMatch { winner, loser } => vec![winner, loser],
            _ => Vec::new(),
        };
        names.into_iter().filter_map(|n| l.find(n)).collect()
    }
}

/// Check that `caller` may carry out `action` on league `l`.
pub fn authorize(
    l: &League,
    caller: &Caller,
    roles: &Roles,
    action: &SunjangAction,
) -> Result<(), ApiError> {
    // His linked player, or the player of his account's own name even when
    // no account is linked to it (ARB-R2).
    let me = [roles.player, l.find(&caller.account()?.display_name)];
    if let Some(answer) = authorize_report(
        roles,
        action.who(),
        action.name(),
        &me,
        &action.game_players(l),
    ) {
        return answer;
    }
    check_role(
        caller,
        roles,
        action.who(),
        action.name(),
        || Ok(plays(&me, &action.game_players(l))),
        RECORDED_BY_A_MODERATOR,
    )
}

fn player(l: &League, name: &str, field: &str) -> Result<PlayerId, ApiError> {
    l.find(name).ok_or_else(|| {
        let hint =
            arbiter_engine::model::did_you_mean(l.players.iter().map(|p| p.name.as_str()), name);
        ApiError::bad_request(format!(
            "there is no player named {name:?} in this league{hint}"
        ))
        .with_field(field)
    })
}

fn outcome(s: &str) -> Result<Outcome, ApiError> {
    parse_outcome(s).ok_or_else(|| {
        ApiError::bad_request(format!(
            "outcome {s:?}: use black, white, jigo, black-forfeits, white-forfeits or both-forfeit"
        ))
        .with_field("outcome")
    })
}

fn rank(s: &str, field: &str) -> Result<(Rank, bool), ApiError> {
    Rank::parse(s)
        .map_err(|e| ApiError::bad_request(format!("{field}: {}", e.message)).with_field(field))
}

fn info(
    name: &str,
    rank_text: &str,
    rating: i32,
    provisional: bool,
    corr_rank: Option<&str>,
    corr_rating: Option<i32>,
) -> Result<PlayerInfo, ApiError> {
    let (r, marked) = rank(rank_text, "rank")?;
    Ok(PlayerInfo {
        name: required(name, "name")?,
        rank: r,
        provisional: provisional || marked,
        rating,
        corr_rank: corr_rank
            .filter(|c| !c.trim().is_empty())
            .map(|c| rank(c, "corr_rank").map(|x| x.0))
            .transpose()?,
        corr_rating,
    })
}

fn command(
    l: &League,
    action: &SunjangAction,
    at: arbiter_engine::model::Time,
) -> Result<season::Command, ApiError> {
    use season::Command as C;
    Ok(match action {
        SunjangAction::AddPlayer {
            name,
            rank,
            rating,
            provisional,
            corr_rank,
            corr_rating,
            ..
        } => C::Register {
            info: info(
                name,
                rank,
                *rating,
                *provisional,
                corr_rank.as_deref(),
                *corr_rating,
            )?,
        },
        SunjangAction::UpdatePlayer {
            player: p,
            rank,
            rating,
            provisional,
            corr_rank,
            corr_rating,
        } => {
            let id = player(l, p, "player")?;
            C::Update {
                player: id,
                info: info(
                    &l.name_of(id),
                    rank,
                    *rating,
                    *provisional,
                    corr_rank.as_deref(),
                    *corr_rating,
                )?,
            }
        }
        SunjangAction::WithdrawPlayer { player: p, reason } => C::Withdraw {
            player: player(l, p, "player")?,
            reason: required(reason, "reason")?,
        },
        SunjangAction::ReturnPlayer { player: p } => C::Return {
            player: player(l, p, "player")?,
        },
        SunjangAction::LinkAccount { player: p, account } => C::LinkAccount {
            player: player(l, p, "player")?,
            account: account.clone(),
        },
        SunjangAction::UnlinkAccount { player: p } => C::UnlinkAccount {
            player: player(l, p, "player")?,
        },
        SunjangAction::ChangeRestrictions { rules, reason } => {
            let (_, restrictions) =
                arbiter_record::parse_sunjang_rules(rules).map_err(bad_rules)?;
            C::ChangeRestrictions {
                restrictions,
                reason: required(reason, "reason")?,
            }
        }
        SunjangAction::PlanSeason { moves, reason, .. } if !moves.is_empty() => C::PlanLayout {
            proposal: Proposal::Moves(layout_moves(l, moves).map_err(ServiceError::Rule)?),
            reason: reason
                .as_deref()
                .filter(|r| !r.trim().is_empty())
                .ok_or_else(|| {
                    ApiError::bad_request(
                        "moves need the reason for them: the season's record says why players were moved (ARB-R55)",
                    )
                    .with_field("reason")
                })?
                .to_string(),
            at,
        },
        SunjangAction::PlanSeason { .. } => C::PlanSeason { at },
        SunjangAction::SetRestriction {
            ranks,
            divisions,
            reason,
        } => {
            let row = parse_restriction_row(ranks, divisions).map_err(|e| {
                ApiError::bad_request(e.message)
                    .with_field(e.field.unwrap_or_else(|| "ranks".into()))
            })?;
            C::ChangeRestrictions {
                restrictions: l.restrictions.with_row(row),
                reason: required(reason, "reason")?,
            }
        }
        SunjangAction::RemoveRestriction { ranks, reason } => {
            let (weakest, strongest) = parse_rank_range(ranks).map_err(|e| {
                ApiError::bad_request(e.message).with_field("ranks")
            })?;
            C::ChangeRestrictions {
                restrictions: l
                    .restrictions
                    .without_row(weakest, strongest)
                    .map_err(ServiceError::Rule)?,
                reason: required(reason, "reason")?,
            }
        }
        SunjangAction::ReportResult { .. }
        | SunjangAction::ConfirmResult { .. }
        | SunjangAction::DisputeReport { .. } => {
            return Err(ApiError::internal(
                "a report goes through run_sunjang with the caller",
            ));
        }
        SunjangAction::RecordResult {
            black,
            white,
            outcome: o,
        } => C::RecordResult {
            black: player(l, black, "black")?,
            white: player(l, white, "white")?,
            outcome: outcome(o)?,
            at,
        },
        SunjangAction::CorrectResult {
            black,
            white,
            outcome: o,
            reason,
        } => C::CorrectResult {
            black: player(l, black, "black")?,
            white: player(l, white, "white")?,
            outcome: outcome(o)?,
            reason: required(reason, "reason")?,
            at,
        },
        SunjangAction::GiveWay { player: p } => C::GiveWay {
            player: player(l, p, "player")?,
        },
        SunjangAction::RecordLiveMatch { winner, loser } => C::RecordLiveMatch {
            winner: player(l, winner, "winner")?,
            loser: player(l, loser, "loser")?,
        },
        SunjangAction::CloseSeason => C::CloseSeason { at },
        SunjangAction::QualifyFinal => C::QualifyFinal { at },
        SunjangAction::RecordFinalGame {
            black,
            white,
            outcome: o,
        } => C::RecordFinalGame {
            black: player(l, black, "black")?,
            white: player(l, white, "white")?,
            outcome: outcome(o)?,
            at,
        },
        SunjangAction::WithdrawFromFinal { player: p } => C::WithdrawFromFinal {
            player: player(l, p, "player")?,
            at,
        },
        SunjangAction::AddModerator { .. } | SunjangAction::RemoveModerator { .. } => {
            return Err(ApiError::internal(
                "a Sunjang league's moderators are grants, not commands",
            ));
        }
    })
}

/// Carry out `action` on Sunjang league `competition` for `caller`: check
/// the role, decide, store (unless a preview), and link an account to a
/// player added with one.
pub async fn run_sunjang(
    state: &AppState,
    caller: &Caller,
    competition: &str,
    action: SunjangAction,
    expected: Option<Seq>,
    idempotency_key: Option<String>,
) -> Result<FormatDone, ApiError> {
    let svc = &state.service;
    let (account, roles, l, version) = load_for::<League>(state, caller, competition).await?;
    authorize(&l, caller, &roles, &action)?;
    if let SunjangAction::AddModerator { username } | SunjangAction::RemoveModerator { username } =
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
    let mut command = match &action {
        SunjangAction::ReportResult {
            black,
            white,
            outcome: o,
        } => season::Command::ReportResult {
            black: player(&l, black, "black")?,
            white: player(&l, white, "white")?,
            outcome: outcome(o)?,
            by: roles
                .player
                .ok_or_else(|| ApiError::forbidden("you do not play in this league"))?,
            at: now,
        },
        SunjangAction::ConfirmResult { black, white }
        | SunjangAction::DisputeReport { black, white, .. } => {
            let (black, white) = (player(&l, black, "black")?, player(&l, white, "white")?);
            let by = confirmer(&roles, &[black, white], &account.username);
            match &action {
                SunjangAction::DisputeReport { reason, .. } => season::Command::DisputeReport {
                    black,
                    white,
                    by,
                    reason: required(reason, "reason")?,
                    at: now,
                },
                _ => season::Command::ConfirmResult {
                    black,
                    white,
                    by,
                    at: now,
                },
            }
        }
        _ => command(&l, &action, now)?,
    };
    // An account to link is checked before anything is stored, and linked
    // in the same append as the player it names (ARB-R50).
    match (&mut command, &action) {
        (season::Command::LinkAccount { account, .. }, _) => {
            *account = account_to_link(state, account).await?;
        }
        (
            season::Command::Register { .. },
            SunjangAction::AddPlayer {
                account: Some(username),
                ..
            },
        ) if !username.trim().is_empty() => {
            command = season::Command::Linked {
                account: account_to_link(state, username).await?,
                command: Box::new(command),
            };
        }
        _ => {}
    }
    if action.is_preview()
        && let season::Command::PlanLayout {
            proposal,
            reason,
            at,
        } = &command
    {
        let (plan, violations) = l
            .layout_plan(proposal, reason, *at)
            .map_err(ServiceError::Rule)?;
        let moved = plan.layout.as_ref().map_or(0, |x| x.moves.len());
        let mut after = l.clone();
        after.apply(&season::Event::SeasonPlanned(Box::new(plan)));
        let number = l.next_season_number();
        let verdict = if violations.is_empty() {
            "it breaks no rule of section A; nothing is stored until you plan it".to_string()
        } else {
            format!(
                "it breaks {} rule(s) of section A and cannot be planned as it is; nothing is stored",
                violations.len()
            )
        };
        return Ok(FormatDone {
            action: action.name().into(),
            version,
            stored: false,
            replayed: false,
            message: format!(
                "Preview of season {number} with {moved} placement(s) moved by the organizer: {verdict}."
            ),
            season: after.current().map(|s| season_view(&after, s)),
            violations: violations.into_iter().map(Into::into).collect(),
        });
    }
    if action.is_preview() {
        let events = l.decide(command).map_err(ServiceError::Rule)?;
        let mut after = l.clone();
        for e in &events {
            after.apply(e);
        }
        let season = after
            .current()
            .filter(|_| after.seasons.len() > l.seasons.len())
            .map(|s| season_view(&after, s));
        let number = l.next_season_number();
        return Ok(FormatDone {
            action: action.name().into(),
            version,
            stored: false,
            replayed: false,
            message: format!("Preview of season {number}: nothing is stored until you plan it."),
            season,
            violations: Vec::new(),
        });
    }
    let ctx = context(&account, now, idempotency_key, expected);
    let executed = svc.execute_as::<League>(competition, command, &ctx).await?;
    let (after, _) = svc.load_as::<League>(competition, None).await?;
    let mut done = FormatDone::of(action.name(), &executed, |e| {
        arbiter_service::summary::sunjang(&after, e)
    });
    if !executed.replayed {
        let accounts: Vec<String> = executed
            .events
            .iter()
            .filter_map(|e| match e {
                season::Event::AccountLinked { account, .. }
                | season::Event::AccountUnlinked { account, .. } => Some(account.clone()),
                _ => None,
            })
            .collect();
        directory(state, competition, &after, accounts).await?;
    }
    if matches!(action, SunjangAction::PlanSeason { .. }) && !executed.replayed {
        done.season = after.current().map(|s| season_view(&after, s));
    }
    Ok(done)
}

/// Create a Sunjang league from the `sunjang-league` preset (or a rules
/// file) for an organizer, its owner and first moderator.
pub async fn create_sunjang(
    state: &AppState,
    caller: &Caller,
    id: &str,
    name: &str,
    rules: Option<&str>,
    idempotency_key: Option<String>,
) -> Result<Seq, ApiError> {
    let account = organizer(caller)?;
    let name = required(name, "name")?;
    let (rules, restrictions) =
        arbiter_record::parse_sunjang_rules(&rules_text(rules, "sunjang-league")?)
            .map_err(bad_rules)?;
    let ctx = context(&account, state.now(), idempotency_key, Some(0));
    let executed = state
        .service
        .create_sunjang(id, &name, rules, restrictions, &ctx)
        .await?;
    grant_creator(state, id, &account).await?;
    Ok(executed.last)
}
