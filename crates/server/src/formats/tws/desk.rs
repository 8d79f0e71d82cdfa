//! The ladder's desk (`/c/{id}/manage`) for its moderators and players:
//! moderators run the ladder here, players report and confirm their
//! results and ask to skip; the forms post to `/c/{id}/act` (see
//! [`crate::pages::desk`] for what every desk shares, [`crate::pages::forms`]
//! for how every form is sent). The same [`crate::formats::tws::actions`]
//! as the API decide who may do what.

use std::collections::BTreeMap;

use arbiter_engine::model::GameId;
use arbiter_engine::tws::{Confirmer, Event, Ladder};
use arbiter_service::views::{self, GameView, LadderView, RoundView};
use askama::Template;
use axum::body::Bytes;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use crate::AppState;
use crate::auth::{self, Caller, Roles};
use crate::error::ApiError;
use crate::formats::tws::actions::{
    self, ActionDone, LadderAction, PairOverride, ResultForm, SKIP_BOOKED,
};
use crate::pages::desk::{
    DeskHead, Notice, form_of, form_version, no_action, number, opt, refused, text,
};
use crate::pages::forms::{NoticePage, problem, see_other};
use crate::pages::players::PendingReport;
use crate::pages::queue::{Item, Queue, QueueForm, Waits};
use crate::pages::{Chrome, Kind, render};

/// One game on the desk, with what the caller may do to it.
#[derive(Debug, Clone)]
struct DeskGame {
    g: GameView,
    /// The caller plays in it.
    mine: bool,
    /// The caller's opponent in it, when he plays in it.
    opponent: String,
    /// A report waits for the caller's confirmation (he is the other
    /// player, or a moderator not in the game).
    can_confirm: bool,
    /// The caller moderates it (a moderator not in the game).
    can_moderate: bool,
    open: bool,
    /// The first finished game of the list: the fold of the finished
    /// games starts before it (issue 17 §2).
    first_finished: bool,
}

#[derive(Debug, Template)]
#[template(path = "manage.html")]
struct DeskPage {
    chrome: Chrome,
    h: DeskHead,
    v: LadderView,
    round: Option<RoundView>,
    /// The running round's games, those still open first; the finished
    /// ones fold away.
    games: Vec<DeskGame>,
    /// How many games of the round are finished.
    finished: usize,
    /// What waits for a moderator (issue 17 §2).
    queue: Queue,
    mine: Vec<DeskGame>,
    players: Vec<String>,
    can_announce: bool,
    ended_by: Vec<(&'static str, &'static str)>,
    rules: String,
    rules_versions: Vec<(u32, String)>,
    next_round: u32,
    /// The caller's player has asked to skip the next round.
    skipping: bool,
    forum: String,
    mail: bool,
}

const ENDINGS: [(&str, &str); 7] = [
    ("vp", "20 VP"),
    ("final-scoring", "Final scoring"),
    ("europe-control", "Europe control"),
    ("defcon", "DEFCON / nuclear war"),
    ("wargames", "Wargames"),
    ("concession", "Concession"),
    ("other", "Other"),
];

/// The ladder's desk (see [`crate::pages::desk::page`]).
pub(crate) async fn ladder_desk(
    state: &AppState,
    caller: &Caller,
    id: &str,
    done: Option<&str>,
    stale: Option<Notice>,
) -> Result<Response, ApiError> {
    let (ladder, version) = state.service.load(id, None).await?;
    let h = DeskHead::of(
        state,
        caller,
        id,
        version,
        done.and_then(done_message),
        stale,
    )
    .await?
    .linked(&ladder);
    let id = id.to_string();
    let here = format!("/c/{id}/manage");
    let now = state.now();
    let round = ladder
        .open_round()
        .map(|r| views::round_view(&ladder, &id, r, now));
    // The player the account acts as (ARB-R50).
    let me = ladder.account_player(&h.username);
    let mut games: Vec<DeskGame> = round
        .as_ref()
        .map(|r| {
            r.games
                .iter()
                .map(|g| desk_game(&ladder, g, me, &h.roles))
                .collect()
        })
        .unwrap_or_default();
    let mine = games.iter().filter(|g| g.mine).cloned().collect();
    // The open games first; the finished ones fold away (issue 17 §2).
    games.sort_by_key(|g| !g.open);
    let finished = games.iter().filter(|g| !g.open).count();
    if let Some(first) = games.iter_mut().find(|g| !g.open) {
        first.first_finished = true;
    }
    let can_announce = ladder.open_round().is_none_or(|r| {
        r.games
            .iter()
            .all(|g| ladder.game(*g).is_some_and(|g| g.status.is_resolved()))
    });
    let forum = round
        .as_ref()
        .map(|r| arbiter_service::forum::announcement(arbiter_service::forum::Markup::BbCode, r))
        .unwrap_or_default();
    let page = DeskPage {
        chrome: Chrome::competition(
            format!("Desk · {}", ladder.name),
            &id,
            &ladder.name,
            Kind::TwsLadder,
            &here,
        ),
        v: views::ladder_view(&ladder, &id, version),
        queue: if h.roles.moderates() {
            queue(state, &ladder, &id, &games, now).await
        } else {
            Queue::default()
        },
        round,
        games,
        finished,
        mine,
        players: ladder
            .players
            .iter()
            .map(|p| p.player.name.clone())
            .collect(),
        can_announce,
        ended_by: ENDINGS.to_vec(),
        rules: arbiter_record::rules_to_toml(ladder.rules_for(ladder.next_round_number())),
        rules_versions: ladder
            .rules
            .iter()
            .map(|r| (r.from_round, r.reason.clone()))
            .collect(),
        next_round: ladder.next_round_number(),
        skipping: me.is_some_and(|p| {
            ladder
                .skip_requests
                .get(&ladder.next_round_number())
                .is_some_and(|list| list.contains(&p))
        }),
        forum,
        mail: state.mailer.is_some(),
        h,
    };
    Ok(render(&page).into_response())
}

fn desk_game(
    ladder: &Ladder,
    g: &GameView,
    me: Option<arbiter_engine::model::PlayerId>,
    roles: &Roles,
) -> DeskGame {
    let id = actions::game(ladder, &g.id).ok();
    let game = id.and_then(|id| ladder.game(id));
    let mine = me.is_some_and(|p| game.is_some_and(|gm| gm.has_player(p)));
    let opponent = if mine {
        me.and_then(|p| {
            game.map(|gm| {
                if gm.ussr.player == p {
                    gm.us.player
                } else {
                    gm.ussr.player
                }
            })
        })
        .map(|p| ladder.name_of(p))
        .unwrap_or_default()
    } else {
        String::new()
    };
    let open = game.is_some_and(|gm| !gm.status.is_resolved());
    let reported_by_me = g
        .report
        .as_ref()
        .is_some_and(|r| me.is_some_and(|p| ladder.name_of(p) == r.by));
    DeskGame {
        mine,
        opponent,
        can_confirm: g.report.is_some() && !reported_by_me && (mine || roles.moderates()),
        can_moderate: roles.moderates() && !mine,
        open,
        first_finished: false,
        g: g.clone(),
    }
}

/// What waits for the ladder's moderators (issue 17 §2), from the
/// ladder's state: its open round's overdue games (TWS Conduct of Games)
/// and reports (ARB-R45), the reports disputed since
/// (`report-rejected`) whose game is still open, the applications to
/// approve (TWS Joining the Ladder), and the round to close (when the
/// decider takes `CloseRound` now: every game decided) or to announce (no
/// round open: "The next round will start as soon as the current round is
/// completed").
async fn queue(
    state: &AppState,
    ladder: &Ladder,
    id: &str,
    games: &[DeskGame],
    now: arbiter_engine::model::Time,
) -> Queue {
    let mut q = Queue::default();
    let plays = "You play in this game: another moderator records, confirms or adjudicates it (TWS Conduct of Games; ARB-R45).";
    for dg in games.iter().filter(|g| g.open) {
        let g = &dg.g;
        let title = format!("{}: {} (USSR) v. {} (US)", g.id, g.ussr, g.us);
        if g.overdue {
            let mut item = Item::new(
                Waits::Overdue,
                format!("q-late-{}", g.id),
                format!(
                    "{title}, past its deadline{} without a result: record the outcome both players agree, a forfeit, or adjudicate it (TWS Conduct of Games).",
                    g.deadline
                        .as_deref()
                        .map(|d| format!(" of {d}"))
                        .unwrap_or_default()
                ),
            );
            item = if dg.can_moderate {
                item.link(format!("#g-{}", g.id), format!("To the forms of {}", g.id))
            } else {
                item.note(plays)
            };
            q.push(item);
        }
        if let Some(rep) = &g.report {
            let outcome = match &rep.winner {
                Some(w) => format!("{w} won"),
                None => "a tie".to_string(),
            };
            q.push(Item::report(&PendingReport {
                id: g.id.clone(),
                text: format!(
                    "{} reported {title}: {outcome} ({}); awaiting {}.",
                    rep.by, rep.ended_by, rep.awaiting
                ),
                mine: !dg.can_moderate,
                confirm: "confirm-result",
                dispute: "reject-report",
                hidden: vec![("game".into(), g.id.clone())],
            }));
        }
    }
    // Disputes: the state forgets a rejected report; its event says who
    // disputed it and why. A game still open without a new report waits
    // for a moderator's decision.
    let mut disputed: Vec<(GameId, String)> = Vec::new();
    for e in crate::pages::queue::events_of::<Ladder>(state, id, &["report-rejected"]).await {
        if let Event::ReportRejected {
            game, by, reason, ..
        } = e
        {
            let who = match by {
                Confirmer::Player(p) => ladder.name_of(p),
                Confirmer::Moderator(m) => m,
            };
            disputed.retain(|(g, _)| *g != game);
            disputed.push((game, format!("{who} disputed its report: “{reason}”")));
        }
    }
    for (game, why) in disputed {
        let Some(g) = ladder.game(game) else { continue };
        if g.status.is_resolved() || g.report.is_some() {
            continue;
        }
        let label = format!("G{}", game.0);
        let dg = games.iter().find(|d| d.g.id == label);
        let title = match dg {
            Some(d) => format!("{} (USSR) v. {} (US)", d.g.ussr, d.g.us),
            None => ladder.game_name(g),
        };
        let mut item = Item::new(
            Waits::Dispute,
            format!("q-dispute-{label}"),
            format!("{label}: {title}: {why}. The players report again, or a moderator decides."),
        );
        item = match dg {
            Some(d) if d.can_moderate => {
                item.link(format!("#g-{label}"), format!("To the forms of {label}"))
            }
            Some(_) => item.note(plays),
            None => item,
        };
        q.push(item);
    }
    for a in ladder
        .players
        .iter()
        .filter(|p| p.status == arbiter_engine::tws::Membership::Applicant)
    {
        let name = a.player.name.clone();
        q.push(
            Item::new(
                Waits::Application,
                format!("q-apply-{}", a.player.id.0),
                format!("{name} asked to join the ladder; approved, he enters at the bottom (TWS Joining the Ladder)."),
            )
            .form(QueueForm::button("approve", format!("Approve {name}")).with("player", &name))
            .form(
                QueueForm::button("decline", "Decline")
                    .with("player", &name)
                    .asking("reason", "Reason", format!("Decline {name}")),
            ),
        );
    }
    match ladder.open_round() {
        Some(r)
            if ladder
                .decide(arbiter_engine::tws::Command::CloseRound { at: now })
                .is_ok() =>
        {
            q.push(
                    Item::new(
                        Waits::Due,
                        "q-close",
                        format!(
                            "Round {}: every game is decided; close it to re-sort the ladder (TWS Change of Ladder Standings).",
                            r.number
                        ),
                    )
                    // The one button is the section's own form, which can
                    // give a reason to close early too (issue 17 §2).
                    .link("#form-close", format!("Preview the close of round {} below", r.number)),
                );
        }
        Some(_) => {}
        None if ladder.order.len() >= 2 => {
            let n = ladder.next_round_number();
            q.push(
                Item::new(
                    Waits::Due,
                    "q-announce",
                    format!("No round is running: round {n} can be announced (TWS Conduct of Games: the next round starts as soon as the current one is completed)."),
                )
                // The one button is the section's own form, with the
                // round's deadline, eliminator and pairings (issue 17 §2).
                .link(
                    "#form-announce",
                    format!("Preview round {n} below, with its deadline, eliminator or pairings"),
                ),
            );
        }
        None => {}
    }
    q.sorted()
}

/// The sentence after a form that worked (fixed texts: nothing from the
/// address is echoed).
fn done_message(action: &str) -> Option<&'static str> {
    Some(match action {
        "join" => "You asked to join; a moderator will approve you.",
        "add-player" => "The player is on the ladder.",
        "approve" => "Approved: the player enters at the bottom of the ladder.",
        "decline" => "The application was declined.",
        "withdraw" => "The player was withdrawn.",
        "link-account" => "The account was linked to the player.",
        "unlink-account" => "The account was unlinked from the player.",
        "add-moderator" => "The moderator was added.",
        "remove-moderator" => "The moderator was removed.",
        "change-rules" => "The rules were changed.",
        "announce-round" => "The round was announced.",
        "record-result" => "The result was recorded.",
        "report-result" => "Your report was sent; your opponent or a moderator confirms it.",
        "confirm-result" => "Confirmed: the result is recorded.",
        "reject-report" => "The report was disputed and cleared; a moderator decides.",
        "forfeit" => "The forfeit was recorded.",
        "adjudicate" => "The adjudication was recorded.",
        "correct-result" => "The result was corrected.",
        "cancel-game" => "The game was cancelled.",
        "request-skip" => "The skip was recorded.",
        "request-skip-booked" => {
            "The skip was booked for the next round: a round is running, and a skip is asked before its round is announced (ARB-R4)."
        }
        "cancel-skip" => "The skip was cancelled.",
        "close-round" => "The round was closed.",
        _ => return None,
    })
}

/// Every field any desk form may send; the `action` field says which
/// action they make.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct ActionForm {
    action: String,
    #[serde(rename = "_csrf")]
    csrf: Option<String>,
    #[serde(rename = "_key")]
    key: Option<String>,
    #[serde(rename = "_version")]
    version: Option<String>,
    game: Option<String>,
    player: Option<String>,
    name: Option<String>,
    account: Option<String>,
    username: Option<String>,
    reason: Option<String>,
    winner: Option<String>,
    ended_by: Option<String>,
    vp: Option<String>,
    turn: Option<String>,
    note: Option<String>,
    agreed: Option<String>,
    absent: Option<String>,
    deadline: Option<String>,
    pairs: Option<String>,
    byes: Option<String>,
    eliminator: Option<String>,
    preview: Option<String>,
    early_reason: Option<String>,
    final_state: Option<String>,
    ussr_statement: Option<String>,
    us_statement: Option<String>,
    decision: Option<String>,
    rules: Option<String>,
    from_round: Option<String>,
    round: Option<String>,
}

impl ActionForm {
    fn result(&self) -> Result<ResultForm, ApiError> {
        Ok(ResultForm {
            winner: opt(&self.winner).filter(|w| w != "tie"),
            ended_by: opt(&self.ended_by),
            vp: number(&self.vp, "vp")?,
            turn: number(&self.turn, "turn")?,
            note: opt(&self.note),
        })
    }

    /// The action the form asks for; the error names the field.
    fn action(&self) -> Result<LadderAction, ApiError> {
        let game = || text(&self.game);
        Ok(match self.action.as_str() {
            "join" => LadderAction::Join,
            "add-player" => LadderAction::AddPlayer {
                name: text(&self.name),
                account: opt(&self.account),
            },
            "approve" => LadderAction::Approve {
                player: text(&self.player),
            },
            "decline" => LadderAction::Decline {
                player: text(&self.player),
                reason: text(&self.reason),
            },
            "withdraw" => LadderAction::Withdraw {
                player: text(&self.player),
                reason: text(&self.reason),
            },
            "link-account" => LadderAction::LinkAccount {
                player: text(&self.player),
                account: text(&self.account),
            },
            "unlink-account" => LadderAction::UnlinkAccount {
                player: text(&self.player),
            },
            "add-moderator" => LadderAction::AddModerator {
                username: text(&self.username),
            },
            "remove-moderator" => LadderAction::RemoveModerator {
                username: text(&self.username),
            },
            "change-rules" => LadderAction::ChangeRules {
                rules: text(&self.rules),
                from_round: number(&self.from_round, "from_round")?,
                reason: text(&self.reason),
            },
            "announce-round" => {
                let mut pairs = Vec::new();
                for (i, line) in text(&self.pairs).lines().enumerate() {
                    let line = line.trim();
                    if line.is_empty() {
                        continue;
                    }
                    let (a, b) = line.split_once(':').ok_or_else(|| {
                        ApiError::bad_request(format!(
                            "pairing line {} ({line:?}) must be `Player A : Player B`",
                            i + 1
                        ))
                        .with_field("pairs")
                    })?;
                    pairs.push(PairOverride {
                        a: a.trim().into(),
                        b: b.trim().into(),
                    });
                }
                LadderAction::AnnounceRound {
                    deadline: opt(&self.deadline),
                    pairs,
                    byes: text(&self.byes)
                        .lines()
                        .map(str::trim)
                        .filter(|l| !l.is_empty())
                        .map(str::to_string)
                        .collect(),
                    reason: opt(&self.reason),
                    eliminator: opt(&self.eliminator),
                    preview: self.preview.as_deref() == Some("true"),
                }
            }
            "record-result" => LadderAction::RecordResult {
                game: game(),
                result: self.result()?,
                agreed: self.agreed.is_some(),
            },
            "report-result" => LadderAction::ReportResult {
                game: game(),
                result: self.result()?,
            },
            "confirm-result" => LadderAction::ConfirmResult { game: game() },
            "reject-report" => LadderAction::RejectReport {
                game: game(),
                reason: text(&self.reason),
            },
            "forfeit" => LadderAction::Forfeit {
                game: game(),
                absent: text(&self.absent),
                note: opt(&self.note),
            },
            "adjudicate" => LadderAction::Adjudicate {
                game: game(),
                winner: opt(&self.winner).filter(|w| w != "tie"),
                vp: number(&self.vp, "vp")?,
                turn: number(&self.turn, "turn")?,
                final_state: text(&self.final_state),
                ussr_statement: opt(&self.ussr_statement),
                us_statement: opt(&self.us_statement),
                decision: text(&self.decision),
            },
            "correct-result" => LadderAction::CorrectResult {
                game: game(),
                result: self.result()?,
                reason: text(&self.reason),
            },
            "cancel-game" => LadderAction::CancelGame {
                game: game(),
                reason: text(&self.reason),
            },
            "request-skip" => LadderAction::RequestSkip {
                player: opt(&self.player),
                round: number(&self.round, "round")?,
            },
            "cancel-skip" => LadderAction::CancelSkip {
                player: opt(&self.player),
                round: number(&self.round, "round")?,
            },
            "close-round" => LadderAction::CloseRound {
                early_reason: opt(&self.early_reason),
                preview: self.preview.as_deref() == Some("true"),
            },
            other => return Err(no_action(other)),
        })
    }
}

#[derive(Debug, Template)]
#[template(path = "preview.html")]
struct PreviewPage {
    chrome: Chrome,
    id: String,
    done: ActionDone,
    csrf: String,
    key: String,
    version: u64,
    /// The form's fields again, to carry out what was previewed.
    fields: BTreeMap<&'static str, String>,
}

/// `POST /c/{id}/act` for a ladder: one action from the desk's form (see
/// [`crate::pages::desk::act`]).
pub(crate) async fn act(state: &AppState, caller: &Caller, id: &str, body: &Bytes) -> Response {
    let back = format!("/c/{id}/manage");
    let form: ActionForm = match form_of(body).await {
        Ok(form) => form,
        Err(e) => return problem(e, &back),
    };
    if let Err(e) = caller.check_csrf(form.csrf.as_deref()) {
        return problem(e, &back);
    }
    if form.action.starts_with("mail-") {
        return mail(state, caller, id, &form.action)
            .await
            .unwrap_or_else(|e| problem(e, &back));
    }
    let result = async {
        super::api::expect_ladder(state, id).await?;
        let action = form.action()?;
        let preview = action.is_preview();
        let expected = form_version(&form.version, preview)?;
        let done = actions::run_ladder(
            state,
            caller,
            id,
            action,
            expected,
            if preview { None } else { opt(&form.key) },
        )
        .await?;
        Ok::<_, ApiError>((preview, done))
    }
    .await;
    match result {
        Ok((true, done)) => {
            let mut fields = BTreeMap::new();
            for (k, v) in [
                ("action", Some(form.action.clone())),
                ("deadline", form.deadline.clone()),
                ("pairs", form.pairs.clone()),
                ("byes", form.byes.clone()),
                ("reason", form.reason.clone()),
                ("eliminator", form.eliminator.clone()),
                ("early_reason", form.early_reason.clone()),
            ] {
                if let Some(v) = v {
                    fields.insert(k, v);
                }
            }
            let name = state
                .service
                .read(id, |l, _| l.name.clone())
                .await
                .unwrap_or_else(|_| id.to_string());
            let title = match (&done.round, &done.close) {
                (Some(r), _) => format!("Preview of round {}", r.number),
                (None, Some(c)) => format!("Preview of the close of round {}", c.round),
                _ => "Preview".into(),
            };
            let page = PreviewPage {
                chrome: Chrome::competition(
                    format!("{title} · {name}"),
                    id,
                    &name,
                    Kind::TwsLadder,
                    "",
                ),
                csrf: caller.csrf_token().unwrap_or_default().to_string(),
                key: auth::random_token().unwrap_or_default(),
                version: done.version,
                id: id.to_string(),
                done,
                fields,
            };
            render(&page).into_response()
        }
        Ok((false, done)) => {
            // A form sent again says what its first sending did.
            if done.replayed
                && let Some(to) = crate::pages::desk::replayed_location(state, id, body).await
            {
                return see_other(&to);
            }
            // A skip booked for the next round says so on the desk (ARB-R4).
            let what = if done.action == "request-skip" && done.message.contains(SKIP_BOOKED) {
                "request-skip-booked"
            } else {
                done.action.as_str()
            };
            see_other(&format!("/c/{id}/manage?done={what}#done"))
        }
        Err(e) => refused(state, caller, id, Kind::TwsLadder, body, e).await,
    }
}

/// Send the running round's announcement, or the deadline reminders, by
/// e-mail (moderators).
async fn mail(
    state: &AppState,
    caller: &Caller,
    id: &str,
    what: &str,
) -> Result<Response, ApiError> {
    let roles = caller.roles(state, id).await?;
    if !roles.moderates() {
        return Err(ApiError::forbidden(
            "only a moderator sends the competition's e-mail",
        ));
    }
    let mailer = state.mailer.clone().ok_or_else(|| {
        ApiError::bad_request(
            "no SMTP server is configured (`arbiter serve --smtp URL --mail-from ADDRESS`)",
        )
    })?;
    let (ladder, _) = state.service.load(id, None).await?;
    let now = state.now();
    let round = ladder
        .open_round()
        .map(|r| views::round_view(&ladder, id, r, now))
        .ok_or_else(|| ApiError::bad_request("no round is running"))?;
    let links: Vec<(String, String)> = ladder
        .links
        .iter()
        .filter(|(account, _)| ladder.account_player(account).is_some())
        .map(|(account, p)| (ladder.name_of(p), account.to_string()))
        .collect();
    let found = crate::mail::recipients(state.service.store(), &links)
        .await
        .map_err(ApiError::from_store)?;
    let recipients = &found.addresses;
    let (mails, what_sent) = if what == "mail-announcement" {
        (
            crate::mail::round_announcement(&ladder.name, &round, recipients, &state.base_url),
            format!("round {}'s announcement", round.number),
        )
    } else {
        (
            crate::mail::deadline_reminders(
                &ladder.name,
                &round,
                now,
                chrono::Duration::days(REMINDER_DAYS),
                recipients,
                &state.base_url,
            ),
            format!("deadline reminders (games overdue or due within {REMINDER_DAYS} days)"),
        )
    };
    let report = mailer.send_all(&mails).await;
    let mut details = Vec::new();
    let unreachable = crate::mail::unreachable(&round, recipients);
    if !unreachable.is_empty() {
        details.push(format!(
            "No e-mail address for {} player(s), who get nothing: {}.",
            unreachable.len(),
            unreachable.join(", ")
        ));
    }
    for (player, address) in &found.invalid_email {
        details.push(format!("{player}'s address {address:?} is not valid."));
    }
    for f in &report.failures {
        details.push(format!("Not sent to {} <{}>: {}", f.player, f.to, f.error));
    }
    let page = NoticePage {
        chrome: Chrome::new("E-mail sent"),
        heading: "E-mail".into(),
        message: format!(
            "{}: {} message(s) sent, {} failed.",
            what_sent,
            report.sent,
            report.failures.len()
        ),
        details,
        back: format!("/c/{id}/manage"),
    };
    Ok(render(&page).into_response())
}

/// Reminders go to games overdue or due within this many days.
const REMINDER_DAYS: i64 = 3;

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    #[test]
    fn forms_become_actions_and_name_bad_fields() {
        let f = ActionForm {
            action: "report-result".into(),
            game: Some("G3".into()),
            winner: Some("tie".into()),
            vp: Some("x".into()),
            ..ActionForm::default()
        };
        let e = f.action().unwrap_err();
        assert_eq!(e.detail.field.as_deref(), Some("vp"));
        let f = ActionForm {
            action: "announce-round".into(),
            pairs: Some("Ann : Bob\n\nCid:Dee".into()),
            preview: Some("true".into()),
            ..ActionForm::default()
        };
        match f.action().unwrap() {
            LadderAction::AnnounceRound { pairs, preview, .. } => {
                assert_eq!(pairs.len(), 2);
                assert_eq!(pairs[0].a, "Ann");
                assert!(preview);
            }
            other => panic!("{other:?}"),
        }
        let e = ActionForm {
            action: "nope".into(),
            ..ActionForm::default()
        }
        .action()
        .unwrap_err();
        assert_eq!(e.detail.field.as_deref(), Some("action"));
    }

    #[test]
    fn every_action_has_a_done_message() {
        for a in [
            "join",
            "add-player",
            "approve",
            "decline",
            "withdraw",
            "add-moderator",
            "remove-moderator",
            "change-rules",
            "announce-round",
            "record-result",
            "report-result",
            "confirm-result",
            "reject-report",
            "forfeit",
            "adjudicate",
            "correct-result",
            "cancel-game",
            "request-skip",
            "cancel-skip",
            "close-round",
        ] {
            assert!(done_message(a).is_some(), "{a}");
        }
        assert!(done_message("<script>").is_none());
    }
}
