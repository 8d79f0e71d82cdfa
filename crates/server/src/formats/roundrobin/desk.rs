//! The desk of a round-robin league (issue 16): its moderators enter
//! players until the start, start play, record and correct results, set
//! the rounds' deadlines, withdraw players, draw or enter lots, link
//! accounts, and its owner grants moderators — every form turned into the
//! same [`RoundRobinAction`] the JSON API runs
//! ([`crate::formats::roundrobin::actions::run`]), so that who may do what
//! is decided in one place (results by a moderator not playing in the
//! game, ARB-R45). Every form posts to `/c/{id}/act` with the session's
//! CSRF token, an idempotency key and the version it was shown at (see
//! [`crate::pages::desk`]).
//!
//! A league of 20 teams plays 380 games: the desk shows a result form for
//! each game still to play in the running round and the next, one form for
//! any other game by its number or its two names, and the results of each
//! round folded away with that round's correction form.

use arbiter_engine::roundrobin::{Game, RoundRobin, Tiebreak, Withdrawal};
use arbiter_service::roundrobin::{RoundRobinView, round_robin_view};
use askama::Template;
use axum::body::Bytes;
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use crate::AppState;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::formats::roundrobin::actions::{self, RoundRobinAction};
use crate::pages::desk::{
    DeskHead, Notice, done_location, done_message as shared_done, form_of, form_version, no_action,
    number, opt, text,
};
use crate::pages::queue::{Item, Queue, QueueForm, Waits};
use crate::pages::{Chrome, Kind, render};

/// The results of a game without scores (chess, Go): the value the rules
/// read, and the words of the choice (`{home}`, `{away}` are the names).
const OUTCOMES: [(&str, Side, &str); 3] = [
    ("1-0", Side::Home, "wins"),
    ("½-½", Side::Neither, "Draw"),
    ("0-1", Side::Away, "wins"),
];

/// The forfeits, as the rules read them, by who forfeits.
const FORFEITS: [(&str, Side, &str); 3] = [
    ("+:-", Side::Away, "forfeits"),
    ("-:+", Side::Home, "forfeits"),
    ("-:-", Side::Neither, "Both forfeit"),
];

/// Whose name a choice starts with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Home,
    Away,
    Neither,
}

/// One choice of a result's select: its value and its words.
#[derive(Debug, Clone)]
struct Choice {
    value: &'static str,
    words: String,
}

fn choices(list: &[(&'static str, Side, &str)], home: &str, away: &str) -> Vec<Choice> {
    list.iter()
        .map(|(value, side, words)| Choice {
            value,
            words: match side {
                Side::Home => format!("{home} {words}"),
                Side::Away => format!("{away} {words}"),
                Side::Neither => (*words).to_string(),
            },
        })
        .collect()
}

/// A game on the desk.
#[derive(Debug, Clone)]
struct DeskGame {
    /// "G3": what the forms send.
    label: String,
    round: u32,
    home: String,
    away: String,
    /// "2-1", once decided.
    score: Option<String>,
    /// A player of it withdrew: the withdrawal decides it (a forfeit, or
    /// annulled; ARB-R68), no form does.
    withdrawn: bool,
    /// A moderator not in the game (ARB-R45).
    can_moderate: bool,
    /// The choices of its result without scores, or its forfeits with them.
    results: Vec<Choice>,
    forfeits: Vec<Choice>,
}

/// A round whose results are recorded, folded away on the desk.
#[derive(Debug, Clone)]
struct PlayedRound {
    number: u32,
    games: Vec<DeskGame>,
    /// Its games still to play.
    open: usize,
    /// The games the caller may correct (recorded, no player withdrawn,
    /// not his own).
    correctable: Vec<DeskGame>,
}

/// Players the table leaves level on every criterion before the drawing
/// of lots.
#[derive(Debug, Clone)]
struct LotTie {
    n: usize,
    names: Vec<String>,
    /// The names one a line, as the forms send them.
    lines: String,
    /// Games of theirs still to play: the lot waits for them.
    waiting: usize,
}

#[derive(Debug, Template)]
#[template(path = "desk_roundrobin.html")]
struct RoundRobinDesk {
    chrome: Chrome,
    h: DeskHead,
    v: RoundRobinView,
    /// Games to record now: the running round's and the next's.
    to_record: Vec<DeskGame>,
    /// The rounds `to_record` covers, in words ("rounds 3 and 4").
    record_rounds: String,
    /// The deadlines of those rounds, in words ("round 3 by 2026-04-01
    /// 23:59 UTC").
    record_due: Vec<String>,
    /// Games still to play outside those rounds.
    later: usize,
    played_rounds: Vec<PlayedRound>,
    /// Results without scores: the choices of the generic forms.
    generic_results: Vec<Choice>,
    generic_forfeits: Vec<Choice>,
    /// The rules count quickness of victory: the forms ask the minutes.
    quickness: bool,
    /// Players not withdrawn.
    active: Vec<String>,
    /// Every player's name, for linking accounts.
    everyone: Vec<String>,
    /// (player, account) of every link.
    links: Vec<(String, String)>,
    ties: Vec<LotTie>,
    /// The rounds play will have, once started.
    rounds_at_start: usize,
    /// What a withdrawal does under these rules, in words.
    withdrawal_words: &'static str,
    /// The league committed a seed for lots at its start.
    has_seed: bool,
    /// The order a lot entered by hand would start from.
    lot_lines: String,
    /// Every round with its deadline, when set ("2026-04-01 23:59 UTC").
    deadlines: Vec<(u32, Option<String>)>,
    /// How many rounds have a deadline.
    deadlines_set: usize,
    /// The league's time zone, in which a day given as a deadline ends
    /// (ARB-R82).
    zone: &'static str,
    /// What waits for a moderator (issue 17 §2).
    queue: Queue,
}

/// A deadline as the desk shows it, in the league's zone (ARB-R82):
/// "2026-04-01 23:59 UTC", "2026-04-01 23:59 CEST".
fn when(rr: &RoundRobin, t: arbiter_engine::model::Time) -> String {
    rr.zone.minute(t)
}

/// `GET /c/{id}/manage` for a round-robin league.
pub(crate) async fn desk(
    state: &AppState,
    caller: &Caller,
    id: &str,
    done: Option<&str>,
    stale: Option<Notice>,
) -> Result<Response, ApiError> {
    let (rr, version) = state.service.load_as::<RoundRobin>(id, None).await?;
    let h = DeskHead::of(
        state,
        caller,
        id,
        version,
        done.and_then(done_message),
        stale,
    )
    .await?
    .linked(&rr);
    let v = round_robin_view(&rr, id, version);
    let scores = rr.rules.scores;
    let desk_game = |g: &Game| {
        let (home, away) = (rr.name_of(g.home), rr.name_of(g.away));
        let counted = rr.counted_score(g);
        let withdrawn = [g.home, g.away].iter().any(|p| {
            rr.entrants
                .get(p.index())
                .is_some_and(|e| e.withdrawal.is_some())
        });
        DeskGame {
            label: format!("G{}", g.id),
            round: g.round,
            can_moderate: h.roles.moderates() && !h.plays(&[home.clone(), away.clone()]),
            score: counted.map(|s| s.show()),
            withdrawn,
            results: if scores {
                Vec::new()
            } else {
                choices(&OUTCOMES, &home, &away)
            },
            forfeits: choices(&FORFEITS, &home, &away),
            home,
            away,
        }
    };
    // The running round: the last in which half the games or more have
    // their result (the first before any), so that a game played early
    // does not move it. Forms for what is left of it and of every round
    // before (postponed games), and for the next round; any other game
    // through the form that names it.
    let running = rr
        .rounds
        .iter()
        .filter(|r| {
            let decided = r
                .games
                .iter()
                .filter_map(|id| rr.game(*id))
                .filter(|g| g.score.is_some())
                .count();
            decided > 0 && 2 * decided >= r.games.len()
        })
        .map(|r| r.number)
        .max()
        .unwrap_or(1);
    let mut to_record = Vec::new();
    let mut later = 0;
    let mut played_rounds = Vec::new();
    for r in &rr.rounds {
        let games: Vec<DeskGame> = r
            .games
            .iter()
            .filter_map(|id| rr.game(*id))
            .map(desk_game)
            .collect();
        for g in games.iter().filter(|g| g.score.is_none() && !g.withdrawn) {
            if r.number <= running + 1 {
                to_record.push(g.clone());
            } else {
                later += 1;
            }
        }
        let open = games.iter().filter(|g| g.score.is_none()).count();
        if open < games.len() {
            played_rounds.push(PlayedRound {
                number: r.number,
                correctable: games
                    .iter()
                    .filter(|g| g.score.is_some() && !g.withdrawn && g.can_moderate)
                    .cloned()
                    .collect(),
                games,
                open,
            });
        }
    }
    let mut covered: Vec<u32> = to_record.iter().map(|g| g.round).collect();
    covered.dedup();
    let record_rounds = match covered.as_slice() {
        [] => String::new(),
        [one] => format!("round {one}"),
        [first @ .., last] => format!(
            "rounds {} and {last}",
            first
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let deadlines: Vec<(u32, Option<String>)> = rr
        .rounds
        .iter()
        .map(|r| (r.number, r.deadline.map(|t| when(&rr, t))))
        .collect();
    let record_due = covered
        .iter()
        .filter_map(|n| {
            deadlines
                .iter()
                .find(|(r, _)| r == n)
                .and_then(|(r, d)| d.as_ref().map(|d| format!("round {r} by {d}")))
        })
        .collect();
    let ties = lot_ties(&rr, &v);
    let queue = if h.roles.moderates() {
        queue(&rr, &v, &to_record, &ties, state.now())
    } else {
        Queue::default()
    };
    let lot_lines = ties.first().map(|t| t.lines.clone()).unwrap_or_default();
    let page = RoundRobinDesk {
        chrome: Chrome::competition(
            format!("Desk · {}", rr.name),
            id,
            &rr.name,
            Kind::RoundRobin,
            &format!("/c/{id}/manage"),
        ),
        record_rounds,
        record_due,
        deadlines_set: deadlines.iter().filter(|(_, d)| d.is_some()).count(),
        deadlines,
        zone: rr.zone.name(),
        to_record,
        later,
        played_rounds,
        generic_results: if scores {
            Vec::new()
        } else {
            choices(&OUTCOMES, "Home (White)", "Away (Black)")
        },
        generic_forfeits: choices(&FORFEITS, "Home (White)", "Away (Black)"),
        quickness: rr.rules.tiebreaks.contains(&Tiebreak::Quickness),
        active: rr
            .entrants
            .iter()
            .filter(|e| e.withdrawal.is_none())
            .map(|e| e.name.clone())
            .collect(),
        everyone: rr.entrants.iter().map(|e| e.name.clone()).collect(),
        links: arbiter_engine::model::Linked::links(&rr)
            .iter()
            .map(|(account, p)| (rr.name_of(p), account.to_string()))
            .collect(),
        ties,
        rounds_at_start: {
            let seats = rr
                .entrants
                .iter()
                .filter(|e| e.withdrawal.is_none())
                .count();
            let per_cycle = if seats % 2 == 0 {
                seats.saturating_sub(1)
            } else {
                seats
            };
            per_cycle * rr.rules.cycles as usize
        },
        withdrawal_words: match rr.rules.withdrawal {
            Withdrawal::KeepResults => {
                "his results stand and the games he has left count as forfeits won by his opponents"
            }
            Withdrawal::AnnulUnderHalf => {
                "if he played at least half his games, his results stand and the games he has left count as forfeits won by his opponents; otherwise all his games are annulled"
            }
        },
        has_seed: rr.lot_commitment().is_some(),
        lot_lines,
        queue,
        v,
        h,
    };
    Ok(render(&page).into_response())
}

/// What waits for the league's moderators (issue 17 §2): its games past
/// their round's deadline without a result (a game decided by a
/// withdrawal waits for nothing, ARB-R68), the lots the table waits for
/// once the tied players' games are played (ARB-R67), the round whose
/// games are all played while the next has no deadline, and before the
/// start, the start.
fn queue(
    rr: &RoundRobin,
    v: &RoundRobinView,
    to_record: &[DeskGame],
    ties: &[LotTie],
    now: arbiter_engine::model::Time,
) -> Queue {
    let mut q = Queue::default();
    if !v.started {
        if rr
            .entrants
            .iter()
            .filter(|e| e.withdrawal.is_none())
            .count()
            >= 2
        {
            q.push(
                Item::new(
                    Waits::Due,
                    "q-start",
                    "Play has not begun: once every player or team has entered, start play to fix the schedule (late entries are refused after it, ARB-R68).",
                )
                .link("#start", "To the start"),
            );
        }
        return q;
    }
    for r in &rr.rounds {
        let Some(deadline) = r.deadline.filter(|d| *d < now) else {
            continue;
        };
        for g in r.games.iter().filter_map(|id| rr.game(*id)) {
            if rr.counted_score(g).is_some() || !(rr.counts(g.home) && rr.counts(g.away)) {
                continue;
            }
            let label = format!("G{}", g.id);
            let item = Item::new(
                Waits::Overdue,
                format!("q-late-{label}"),
                format!(
                    "{label}, round {}: {} v {}, past the round's deadline of {} without a result.",
                    r.number,
                    rr.name_of(g.home),
                    rr.name_of(g.away),
                    when(rr, deadline)
                ),
            );
            q.push(match to_record.iter().find(|d| d.label == label) {
                Some(d) if d.can_moderate => {
                    item.link(format!("#rec-{label}"), format!("To the form of {label}"))
                }
                Some(_) => {
                    item.note("You play in this game: another moderator records it (ARB-R45).")
                }
                None => item.link("#form-any", "To the form for any game"),
            });
        }
    }
    for t in ties.iter().filter(|t| t.waiting == 0) {
        let names = t.names.join(", ");
        let item = Item::new(
            Waits::Due,
            format!("q-lot-{}", t.n),
            format!(
                "{names}: level on every criterion before the drawing of lots, and their games are played (ARB-R67)."
            ),
        );
        q.push(if rr.lot_commitment().is_some() {
            item.form(
                QueueForm::button("draw-lots", format!("Draw lots among {names}"))
                    .with("players", t.lines.clone()),
            )
            .link("#lots", "Or enter a lot drawn by hand")
        } else {
            item.link("#lots", "To the lot drawn by hand")
        });
    }
    // The last round whose games are all played, when the next one has no
    // deadline yet.
    let complete = |r: &arbiter_engine::roundrobin::Round| {
        r.games
            .iter()
            .filter_map(|id| rr.game(*id))
            .all(|g| rr.counted_score(g).is_some() || !(rr.counts(g.home) && rr.counts(g.away)))
    };
    if let Some(i) = rr.rounds.iter().rposition(&complete)
        && let Some(next) = rr.rounds.get(i + 1)
        && next.deadline.is_none()
        && !complete(next)
    {
        q.push(
            Item::new(
                Waits::Due,
                format!("q-round-{}", rr.rounds[i].number),
                format!(
                    "Round {}: every game is played. Round {} has no deadline yet.",
                    rr.rounds[i].number, next.number
                ),
            )
            .link("#form-dl", format!("Set round {}'s deadline", next.number)),
        );
    }
    q.sorted()
}

/// The ties the table leaves for the drawing of lots, with the games of
/// the tied players still to play.
fn lot_ties(rr: &RoundRobin, v: &RoundRobinView) -> Vec<LotTie> {
    if v.games_played == 0 {
        // Before any result everyone is level: no lot is due.
        return Vec::new();
    }
    let table = rr.table();
    table
        .ranking
        .unresolved
        .iter()
        .filter(|t| {
            t.pending
                .and_then(|i| table.criteria.get(i).copied().flatten())
                == Some(Tiebreak::Lot)
        })
        .enumerate()
        .map(|(i, t)| {
            let names: Vec<String> = t.players.iter().map(|p| rr.name_of(*p)).collect();
            let waiting = rr
                .games
                .iter()
                .filter(|g| t.players.iter().any(|p| g.has(*p)))
                .filter(|g| rr.counts(g.home) && rr.counts(g.away))
                .filter(|g| rr.counted_score(g).is_none())
                .count();
            LotTie {
                n: i + 1,
                lines: names.join("\n"),
                names,
                waiting,
            }
        })
        .collect()
}

/// The sentence after a form that worked (fixed texts: nothing from the
/// address is echoed).
fn done_message(action: &str) -> Option<&'static str> {
    Some(match action {
        "add-player" => "The player or team entered.",
        "start" => "Play began: the schedule is fixed.",
        "record-result" => "The result was recorded.",
        "correct-result" => "The result was corrected.",
        "set-deadline" => "The round's deadline was changed.",
        "withdraw" => "The withdrawal was recorded.",
        "draw-lots" => "The lots were drawn.",
        "enter-lots" => "The lot drawn by hand was recorded.",
        "link-account" => "The account was linked to the player.",
        "unlink-account" => "The account was unlinked from the player.",
        other => return shared_done(other),
    })
}

/// Every field a round-robin desk form may send; `action` says which.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct RrForm {
    action: String,
    #[serde(rename = "_csrf")]
    csrf: Option<String>,
    #[serde(rename = "_key")]
    key: Option<String>,
    #[serde(rename = "_version")]
    version: Option<String>,
    name: Option<String>,
    game: Option<String>,
    score: Option<String>,
    /// With scores: a forfeit instead of the score (`+:-`, `-:+`, `-:-`).
    forfeit: Option<String>,
    /// A correction that clears the result.
    clear: Option<String>,
    minutes: Option<String>,
    reason: Option<String>,
    round: Option<String>,
    deadline: Option<String>,
    player: Option<String>,
    /// The players of a lot, one a line.
    players: Option<String>,
    /// The order of a lot drawn by hand, best first, one a line.
    order: Option<String>,
    how: Option<String>,
    username: Option<String>,
}

/// The names of a textarea, one a line, blank lines left out.
fn lines(v: &Option<String>) -> Vec<String> {
    v.as_deref()
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

impl RrForm {
    /// The result the form gives: the score, or the forfeit chosen
    /// instead (never both); `None` when neither.
    fn result(&self) -> Result<Option<String>, ApiError> {
        let forfeit = match opt(&self.forfeit) {
            None => None,
            Some(f) => Some(
                FORFEITS
                    .iter()
                    .map(|(value, ..)| *value)
                    .find(|value| *value == f)
                    .ok_or_else(|| {
                        ApiError::bad_request(format!(
                            "forfeit must be one of +:- (home wins), -:+ (away wins) or -:- (both forfeit), not {f:?}"
                        ))
                        .with_field("forfeit")
                    })?,
            ),
        };
        match (opt(&self.score), forfeit) {
            (Some(_), Some(_)) => Err(ApiError::bad_request(
                "give the score or choose a forfeit, not both",
            )
            .with_field("forfeit")),
            (Some(s), None) => Ok(Some(s)),
            (None, Some(f)) => Ok(Some(f.to_string())),
            (None, None) => Ok(None),
        }
    }

    fn action(&self) -> Result<RoundRobinAction, ApiError> {
        Ok(match self.action.as_str() {
            "add-player" => RoundRobinAction::AddPlayer {
                name: text(&self.name),
            },
            "start" => RoundRobinAction::Start,
            "record-result" => RoundRobinAction::RecordResult {
                game: text(&self.game),
                score: self.result()?.ok_or_else(|| {
                    ApiError::bad_request("give the result (a score such as 2-1, or a forfeit)")
                        .with_field("score")
                })?,
                minutes: number(&self.minutes, "minutes")?,
                round: None,
            },
            "correct-result" => {
                let score = self.result()?;
                let clear = self.clear.is_some();
                if clear == score.is_some() {
                    return Err(ApiError::bad_request(if clear {
                        "a correction either clears the result or gives the new one, not both"
                    } else {
                        "give the corrected result, or tick \"clear the result\""
                    })
                    .with_field("score"));
                }
                RoundRobinAction::CorrectResult {
                    game: text(&self.game),
                    score,
                    minutes: number(&self.minutes, "minutes")?,
                    round: None,
                    reason: text(&self.reason),
                }
            }
            "set-deadline" => RoundRobinAction::SetDeadline {
                round: number(&self.round, "round")?.ok_or_else(|| {
                    ApiError::bad_request("round is required").with_field("round")
                })?,
                deadline: opt(&self.deadline),
            },
            "withdraw" => RoundRobinAction::Withdraw {
                player: text(&self.player),
            },
            "draw-lots" => RoundRobinAction::DrawLots {
                players: lines(&self.players),
            },
            "enter-lots" => RoundRobinAction::EnterLots {
                order: lines(&self.order),
                how: text(&self.how),
            },
            "link-account" => RoundRobinAction::LinkAccount {
                player: text(&self.player),
                username: text(&self.username),
            },
            "unlink-account" => RoundRobinAction::UnlinkAccount {
                username: text(&self.username),
            },
            "add-moderator" => RoundRobinAction::AddModerator {
                username: text(&self.username),
            },
            "remove-moderator" => RoundRobinAction::RemoveModerator {
                username: text(&self.username),
            },
            other => return Err(no_action(other)),
        })
    }
}

/// `POST /c/{id}/act` for a round-robin league: the form as the API's
/// action, run by [`actions::run`].
pub(crate) async fn act(
    state: &AppState,
    caller: &Caller,
    id: &str,
    body: &Bytes,
) -> Result<Response, ApiError> {
    let form: RrForm = form_of(body).await?;
    caller.check_csrf(form.csrf.as_deref())?;
    let action = form.action()?;
    let expected = form_version(&form.version, false)?;
    let done = actions::run(state, caller, id, action, expected, opt(&form.key)).await?;
    Ok(Redirect::to(&done_location(state, id, &done, body).await).into_response())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    fn form(action: &str) -> RrForm {
        RrForm {
            action: action.into(),
            ..RrForm::default()
        }
    }

    #[test]
    fn a_result_is_a_score_or_a_forfeit_never_both() {
        let mut f = form("record-result");
        f.game = Some("G1".into());
        f.score = Some("2-1".into());
        match f.action().unwrap() {
            RoundRobinAction::RecordResult { game, score, .. } => {
                assert_eq!((game.as_str(), score.as_str()), ("G1", "2-1"));
            }
            other => panic!("{other:?}"),
        }
        f.forfeit = Some("-:+".into());
        assert_eq!(
            f.action().unwrap_err().detail.field.as_deref(),
            Some("forfeit")
        );
        f.score = None;
        match f.action().unwrap() {
            RoundRobinAction::RecordResult { score, .. } => assert_eq!(score, "-:+"),
            other => panic!("{other:?}"),
        }
        f.forfeit = Some("<script>".into());
        let e = f.action().unwrap_err();
        assert_eq!(e.detail.field.as_deref(), Some("forfeit"));
        f.forfeit = None;
        assert_eq!(
            f.action().unwrap_err().detail.field.as_deref(),
            Some("score")
        );
        f.score = Some("1-0".into());
        f.minutes = Some("ten".into());
        assert_eq!(
            f.action().unwrap_err().detail.field.as_deref(),
            Some("minutes")
        );
    }

    #[test]
    fn a_correction_gives_a_result_or_clears_it() {
        let mut f = form("correct-result");
        f.game = Some("G2".into());
        f.reason = Some("typo".into());
        assert_eq!(
            f.action().unwrap_err().detail.field.as_deref(),
            Some("score")
        );
        f.clear = Some("yes".into());
        match f.action().unwrap() {
            RoundRobinAction::CorrectResult { score, reason, .. } => {
                assert_eq!(score, None);
                assert_eq!(reason, "typo");
            }
            other => panic!("{other:?}"),
        }
        f.score = Some("1-1".into());
        assert_eq!(
            f.action().unwrap_err().detail.field.as_deref(),
            Some("score")
        );
    }

    #[test]
    fn lots_and_deadlines_read_their_fields() {
        let mut f = form("draw-lots");
        f.players = Some("Spain\r\n\r\n Germany \n".into());
        match f.action().unwrap() {
            RoundRobinAction::DrawLots { players } => assert_eq!(players, ["Spain", "Germany"]),
            other => panic!("{other:?}"),
        }
        let mut f = form("set-deadline");
        f.deadline = Some("2026-04-01".into());
        assert_eq!(
            f.action().unwrap_err().detail.field.as_deref(),
            Some("round")
        );
        f.round = Some("x".into());
        assert_eq!(
            f.action().unwrap_err().detail.field.as_deref(),
            Some("round")
        );
        f.round = Some("3".into());
        match f.action().unwrap() {
            RoundRobinAction::SetDeadline { round, deadline } => {
                assert_eq!((round, deadline.as_deref()), (3, Some("2026-04-01")));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            form("nope").action().unwrap_err().detail.field.as_deref(),
            Some("action")
        );
    }

    #[test]
    fn every_action_has_a_done_message() {
        let s = String::new;
        let all = [
            RoundRobinAction::AddPlayer { name: s() },
            RoundRobinAction::Start,
            RoundRobinAction::RecordResult {
                game: s(),
                score: s(),
                minutes: None,
                round: None,
            },
            RoundRobinAction::CorrectResult {
                game: s(),
                score: None,
                minutes: None,
                round: None,
                reason: s(),
            },
            RoundRobinAction::SetDeadline {
                round: 1,
                deadline: None,
            },
            RoundRobinAction::Withdraw { player: s() },
            RoundRobinAction::DrawLots { players: vec![] },
            RoundRobinAction::EnterLots {
                order: vec![],
                how: s(),
            },
            RoundRobinAction::LinkAccount {
                player: s(),
                username: s(),
            },
            RoundRobinAction::UnlinkAccount { username: s() },
            RoundRobinAction::AddModerator { username: s() },
            RoundRobinAction::RemoveModerator { username: s() },
        ];
        for a in &all {
            // A new action is added here, its sentence in `done_message`
            // and its form in `RrForm::action`.
            match a {
                RoundRobinAction::AddPlayer { .. }
                | RoundRobinAction::Start
                | RoundRobinAction::RecordResult { .. }
                | RoundRobinAction::CorrectResult { .. }
                | RoundRobinAction::SetDeadline { .. }
                | RoundRobinAction::Withdraw { .. }
                | RoundRobinAction::DrawLots { .. }
                | RoundRobinAction::EnterLots { .. }
                | RoundRobinAction::LinkAccount { .. }
                | RoundRobinAction::UnlinkAccount { .. }
                | RoundRobinAction::AddModerator { .. }
                | RoundRobinAction::RemoveModerator { .. } => {}
            }
            assert!(done_message(a.name()).is_some(), "{}", a.name());
            // The desk's form of that name makes that action.
            let made = form(a.name()).action();
            assert!(
                made.as_ref().map_or_else(
                    |e| e.detail.field.as_deref() != Some("action"),
                    |m| m.name() == a.name()
                ),
                "{}: {made:?}",
                a.name()
            );
        }
        assert!(done_message("remove-moderator-none").is_some());
        assert!(done_message("<script>").is_none());
    }
}
