//! The desk of a Sunjang league: the moderators register and update
//! players, preview and plan the next season (the preview shows the
//! pyramid, the groups and every placement with its reason, and stores
//! nothing until confirmed), record and correct group results (the
//! corrections by group, or found by player or group with the filter of
//! the desk's address, [`Corrections`]), record
//! tiebreak decisions, close the season and run the final round, with the
//! same [`crate::formats::sunjang::actions`] as the API.

use arbiter_engine::model::PlayerId;
use arbiter_engine::report::Confirmer;
use arbiter_engine::sunjang::final_round::FinalState;
use arbiter_engine::sunjang::season::{Command, Event, League};
use arbiter_service::sunjang::{SeasonView, SunjangPlayerView, sunjang_view};
use arbiter_service::views::ExplanationView;
use askama::Template;
use axum::body::Bytes;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use crate::AppState;
use crate::actions::FormatDone;
use crate::auth::{self, Caller};
use crate::error::ApiError;
use crate::formats::sunjang::actions::{self as actions_sunjang, SunjangAction};
use crate::pages::desk::{
    DeskFilter, DeskHead, Notice, done_location, done_message, form_of, form_version, no_action,
    number, opt, text,
};
use crate::pages::queue::{Item, Queue, QueueForm, Waits, events_of};
use crate::pages::{Chrome, Kind, render};

const OUTCOMES: [(&str, &str); 6] = [
    ("black", "Black wins"),
    ("white", "White wins"),
    ("jigo", "Jigo"),
    ("black-forfeits", "Black forfeits"),
    ("white-forfeits", "White forfeits"),
    ("both-forfeit", "Both forfeit"),
];

/// A group game on the desk.
#[derive(Debug, Clone)]
struct DeskPairing {
    n: usize,
    group: String,
    round: u32,
    black: String,
    white: String,
    result: Option<&'static str>,
    /// A moderator who is not in it.
    can_moderate: bool,
}

/// Games by their group, in the order they come.
fn by_group(games: &[DeskPairing]) -> Vec<(String, Vec<DeskPairing>)> {
    let mut out: Vec<(String, Vec<DeskPairing>)> = Vec::new();
    for g in games {
        match out.last_mut() {
            Some((group, list)) if *group == g.group => list.push(g.clone()),
            _ => out.push((g.group.clone(), vec![g.clone()])),
        }
    }
    out
}

/// The longest player filter read, in characters (a name is far shorter).
const MAX_FILTER_PLAYER: usize = DeskFilter::LONGEST;
/// The longest group filter read, in characters (a group is "B12").
const MAX_FILTER_GROUP: usize = 20;
/// The characters of a filter the desk cannot read that it says again.
const ECHOED: usize = 40;

/// The correction forms the desk lists, and the filter that chose them
/// (issue 17 §2: "a season's 200 correction forms are behind a filter by
/// group or player"). Without a filter, every recorded result is listed
/// in a closed section of its group; with one, only the games it matches,
/// open, each with its group. The filter changes what is listed, never who
/// may act: each form is still only for a moderator who is not in its
/// game (ARB-R45).
#[derive(Debug, Default)]
struct Corrections {
    /// The filter's fields as the reader filled them in (cut to their
    /// limits), for its form.
    player: String,
    group: String,
    /// The groups with a recorded result: the choices of the group filter.
    groups: Vec<String>,
    /// A filter is on and was read: one open list of what it matches.
    on: bool,
    /// The sections listed: each group's games without a filter; one of
    /// the games matched with one (and the game of a refused correction
    /// form, which is always shown).
    sections: Vec<(String, Vec<DeskPairing>)>,
    /// What the filter matched in words: "3 of 200 recorded results match
    /// “Ana”", "No recorded result matches “Anna”".
    sentence: String,
    /// A player filter that matched nothing: the close names among the
    /// players of the results it looked through, each with the desk's
    /// address filtered by it ("did you mean Ana Morales?").
    suggestions: Vec<(String, String)>,
    /// A player filter that matched nothing in its group: the other groups
    /// where it matches, each with the desk's address filtered by it.
    elsewhere: Vec<(String, String)>,
    /// A filter the desk cannot read: why, naming its field; the list is
    /// then every recorded result, as without a filter.
    problem: Option<String>,
    /// The field of `problem` (`cor_player` or `cor_group`).
    problem_field: &'static str,
    /// The filter as read, which the listed correction forms carry back
    /// (`_cor_player`, `_cor_group`) so that the desk answering them keeps
    /// it.
    kept: DeskFilter,
}

impl Corrections {
    /// Every recorded result `played`, by group, without a filter.
    fn all(played: &[DeskPairing]) -> Self {
        let sections = by_group(played);
        Self {
            groups: sections.iter().map(|(g, _)| g.clone()).collect(),
            sections,
            ..Self::default()
        }
    }

    /// The recorded results `played` that `filter` asks for, on the desk
    /// of competition `id`; `refused(n)`: the correction form of game `n`
    /// was refused, and is shown whatever the filter.
    fn read(
        id: &str,
        filter: &DeskFilter,
        played: &[DeskPairing],
        refused: impl Fn(usize) -> bool,
    ) -> Self {
        let mut c = Self::all(played);
        let player = filter
            .player
            .as_deref()
            .map(str::trim)
            .filter(|p| !p.is_empty());
        let group = filter
            .group
            .as_deref()
            .map(str::trim)
            .filter(|g| !g.is_empty());
        c.player = player
            .map(|p| shown(p, MAX_FILTER_PLAYER))
            .unwrap_or_default();
        c.group = group
            .map(|g| shown(g, MAX_FILTER_GROUP))
            .unwrap_or_default();
        if player.is_none() && group.is_none() {
            return c;
        }
        let key = match player {
            None => None,
            Some(p) => {
                let length = p.chars().count();
                if length > MAX_FILTER_PLAYER {
                    return c.refuse(
                        "cor_player",
                        format!(
                            "Field “cor_player” (Player): a name has at most {MAX_FILTER_PLAYER} characters; this one has {length}."
                        ),
                    );
                }
                let key = arbiter_engine::model::name_key(p);
                if key.is_empty() {
                    return c.refuse(
                        "cor_player",
                        format!(
                            "Field “cor_player” (Player): “{}” is no part of a name.",
                            echoed(p)
                        ),
                    );
                }
                Some(key)
            }
        };
        let group = match group {
            None => None,
            Some(g) => match c.groups.iter().find(|k| k.eq_ignore_ascii_case(g)) {
                Some(k) => Some(k.clone()),
                None => {
                    let known = listed(&c.groups);
                    return c.refuse(
                        "cor_group",
                        format!(
                            "Field “cor_group” (Group): no group “{}” has a recorded result this season; the groups that have are {known}.",
                            echoed(g)
                        ),
                    );
                }
            },
        };
        if let Some(g) = &group {
            c.group = g.clone();
        }
        let in_group = |p: &DeskPairing| group.as_ref().is_none_or(|g| p.group == *g);
        let named = |p: &DeskPairing| {
            key.as_ref().is_none_or(|k| {
                [&p.black, &p.white]
                    .iter()
                    .any(|n| arbiter_engine::model::name_key(n).contains(k.as_str()))
            })
        };
        let matched = played.iter().filter(|p| in_group(p) && named(p)).count();
        let total = played.len();
        let what = match (player, &group) {
            (Some(_), Some(g)) => format!("“{}” in group {g}", c.player),
            (Some(_), None) => format!("“{}”", c.player),
            (None, Some(g)) => format!("group {g}"),
            (None, None) => String::new(),
        };
        c.sentence = match (matched, player.is_some()) {
            (0, _) => format!("No recorded result matches {what}"),
            (_, true) => format!(
                "{matched} of {total} recorded result{} match{} {what}",
                plural(total),
                if matched == 1 { "es" } else { "" }
            ),
            (_, false) => format!(
                "{matched} of {total} recorded result{} {} in {what}",
                plural(total),
                if matched == 1 { "is" } else { "are" }
            ),
        };
        if matched == 0
            && let Some(p) = player
        {
            // The names of the results looked through, once each.
            let mut names: Vec<&str> = Vec::new();
            for g in played.iter().filter(|g| in_group(g)) {
                for n in [g.black.as_str(), g.white.as_str()] {
                    if !names.contains(&n) {
                        names.push(n);
                    }
                }
            }
            c.suggestions = arbiter_engine::model::similar_names(names, p)
                .into_iter()
                .map(|n| {
                    let to = DeskFilter {
                        player: Some(n.to_string()),
                        group: group.clone(),
                    };
                    (n.to_string(), desk_address(id, &to))
                })
                .collect();
            if group.is_some() {
                c.elsewhere = by_group(played)
                    .into_iter()
                    .filter(|(_, games)| games.iter().any(named))
                    .map(|(g, _)| {
                        let to = DeskFilter {
                            player: Some(p.to_string()),
                            group: Some(g.clone()),
                        };
                        let href = desk_address(id, &to);
                        (g, href)
                    })
                    .collect();
            }
        }
        let shown: Vec<DeskPairing> = played
            .iter()
            .filter(|p| (in_group(p) && named(p)) || refused(p.n))
            .cloned()
            .collect();
        c.on = true;
        c.sections = vec![(String::new(), shown)];
        c.kept = DeskFilter {
            player: player.map(|_| c.player.clone()),
            group,
        };
        c
    }

    /// The filter cannot be read: every result is listed, and `message`
    /// says why next to `field`.
    fn refuse(mut self, field: &'static str, message: String) -> Self {
        self.problem = Some(message);
        self.problem_field = field;
        self
    }
}

/// The desk of `id` with `filter`, at its corrections.
fn desk_address(id: &str, filter: &DeskFilter) -> String {
    let query = filter.query();
    if query.is_empty() {
        format!("/c/{id}/manage#corrections")
    } else {
        format!("/c/{id}/manage?{query}#corrections")
    }
}

/// What the reader typed, as a field shows it again: at most `most`
/// characters, a control character as U+FFFD (never sent back as it is).
fn shown(s: &str, most: usize) -> String {
    s.chars()
        .take(most)
        .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
        .collect()
}

/// What the reader typed, said again in a sentence: at most [`ECHOED`]
/// characters, as [`shown`].
fn echoed(s: &str) -> String {
    let mut out = shown(s, ECHOED);
    if s.chars().count() > ECHOED {
        out.push('…');
    }
    out
}

/// "A1, B1 and B2".
fn listed(items: &[String]) -> String {
    match items {
        [] => "none".to_string(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// A final-round game the engine takes now: a round-robin game, or the
/// deciding game of two players left tied (SJ-R8, ARB-R41).
#[derive(Debug, Clone)]
struct FinalGameForm {
    n: usize,
    label: &'static str,
    black: String,
    white: String,
    can_moderate: bool,
}

#[derive(Debug, Template)]
#[template(path = "desk_sunjang.html")]
struct SunjangDesk {
    chrome: Chrome,
    h: DeskHead,
    name: String,
    players: Vec<SunjangPlayerView>,
    season: Option<SeasonView>,
    to_play: Vec<DeskPairing>,
    played: Vec<DeskPairing>,
    /// The recorded results by group, so that a season's hundreds of
    /// correction forms are behind their group, or those the filter of
    /// the desk's address matches (issue 17 §2).
    cor: Corrections,
    can_plan: bool,
    next_season: usize,
    can_close: bool,
    can_qualify: bool,
    /// The games of the final to record now (none when it is decided).
    final_games: Vec<FinalGameForm>,
    /// No final-round game recorded yet: a finalist may withdraw.
    final_withdraw: bool,
    /// The final round's state in words, when it is drawn.
    final_status: Option<String>,
    /// Why each finalist qualified (SJ-R7; ARB-R40).
    final_reasons: Vec<ExplanationView>,
    outcomes: Vec<(&'static str, &'static str)>,
    rules: String,
    /// The restriction rows: (rank range, "A to B"), ARB-R56.
    restriction_rows: Vec<(String, String)>,
    /// What waits for a moderator (issue 17 §2).
    queue: Queue,
}

/// `GET /c/{id}/manage` for a Sunjang league.
pub(crate) async fn desk(
    state: &AppState,
    caller: &Caller,
    id: &str,
    done: Option<&str>,
    stale: Option<Notice>,
    filter: &DeskFilter,
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
    let mut v = sunjang_view(&l, id, version);
    let season = v.seasons.pop();
    let status = season.as_ref().map(|s| s.status);
    let mut to_play = Vec::new();
    let mut played = Vec::new();
    if let Some(s) = season.as_ref().filter(|s| s.status == "planned") {
        for g in s.divisions.iter().flat_map(|d| &d.groups) {
            for p in &g.pairings {
                let dp = DeskPairing {
                    n: to_play.len() + played.len() + 1,
                    group: g.id.clone(),
                    round: p.round,
                    black: p.black.clone(),
                    white: p.white.clone(),
                    result: p.result,
                    can_moderate: h.roles.moderates()
                        && !h.plays(&[p.black.clone(), p.white.clone()]),
                };
                if p.result.is_some() {
                    played.push(dp);
                } else {
                    to_play.push(dp);
                }
            }
        }
    }
    let final_round = season.as_ref().and_then(|s| s.final_round.as_ref());
    // Every state of the final the engine can reach has its form here: the
    // round-robin games still to play, the deciding game of a tie (SJ-R8,
    // ARB-R41), or nothing once it is decided or void.
    let final_state = l.current().and_then(|s| l.final_state(s));
    let label = if matches!(final_state, Some(FinalState::Playoff { .. })) {
        "Deciding game (SJ-R8)"
    } else {
        "Final round game"
    };
    let pairs: Vec<(&'static str, PlayerId, PlayerId)> = l
        .current()
        .map(|s| l.final_games_to_play(s))
        .unwrap_or_default()
        .into_iter()
        .map(|(b, w)| (label, b, w))
        .collect();
    let final_games: Vec<FinalGameForm> = pairs
        .into_iter()
        .enumerate()
        .map(|(i, (label, b, w))| {
            let (black, white) = (l.name_of(b), l.name_of(w));
            FinalGameForm {
                n: i + 1,
                label,
                can_moderate: h.roles.moderates() && !h.plays(&[black.clone(), white.clone()]),
                black,
                white,
            }
        })
        .collect();
    let final_running = !final_games.is_empty();
    let final_withdraw = matches!(final_state, Some(FinalState::Playing { .. }))
        && final_round.is_some_and(|f| f.games.is_empty());
    let final_status = final_round.map(|f| {
        let e = f.explanation.as_ref().map(|e| e.line());
        match (f.state, e) {
            ("playing", _) => format!("The final round is played by {}.", f.players.join(", ")),
            (_, Some(e)) => e,
            (state, None) => state.to_string(),
        }
    });
    let reports: Vec<crate::pages::players::PendingReport> = l
        .reports
        .iter()
        .map(|((b, w), r)| {
            let names = [l.name_of(*b), l.name_of(*w)];
            crate::pages::players::PendingReport {
                id: format!("{}-{}", b.0, w.0),
                text: format!(
                    "{} reported {}: {} ({}).",
                    l.name_of(r.by),
                    l.report_ref(*b, *w),
                    r.result.describe(),
                    l.zone.minute(r.at)
                ),
                mine: h.plays(&names),
                confirm: "confirm-result",
                dispute: "dispute-report",
                hidden: vec![
                    ("black".to_string(), names[0].clone()),
                    ("white".to_string(), names[1].clone()),
                ],
            }
        })
        .collect();
    let can_plan = status != Some("planned") && !final_running;
    let can_qualify = status == Some("closed") && final_round.is_none();
    let mut queue = Queue::default();
    for r in &reports {
        queue.push(Item::report(r));
    }
    if h.roles.moderates() {
        let now = state.now();
        // A disputed report drops (ARB-R81): the game waits for a report
        // or a result again while it is still to play.
        let mut disputed: Vec<((PlayerId, PlayerId), String)> = Vec::new();
        for e in events_of::<League>(state, id, &["sunjang-report-disputed"]).await {
            if let Event::ReportDisputed {
                black,
                white,
                by,
                reason,
                ..
            } = e
            {
                let who = match by {
                    Confirmer::Player(p) => l.name_of(p),
                    Confirmer::Moderator(m) => m,
                };
                disputed.retain(|(g, _)| *g != (black, white));
                disputed.push((
                    (black, white),
                    format!("{who} disputed its report: “{reason}”"),
                ));
            }
        }
        for ((b, w), why) in disputed {
            if l.reports.contains_key(&(b, w)) {
                continue;
            }
            let (black, white) = (l.name_of(b), l.name_of(w));
            let Some(p) = to_play
                .iter()
                .find(|p| p.black == black && p.white == white)
            else {
                continue;
            };
            let item = Item::new(
                Waits::Dispute,
                format!("q-dispute-{}", p.n),
                format!(
                    "Group {}, round {}: {black} (black) v {white} (white): {why}. The players report it again, or a moderator records it.",
                    p.group, p.round
                ),
            );
            queue.push(if p.can_moderate {
                item.link(format!("#p-{}", p.n), "To its form")
            } else {
                item.note("You play in this game: another moderator records it (ARB-R45).")
            });
        }
        if let Some(s) = season.as_ref().filter(|s| s.status == "planned") {
            // The decider closes a season once every group game is decided.
            if l.decide(Command::CloseSeason { at: now }).is_ok() {
                queue.push(
                    Item::new(
                        Waits::Due,
                        "q-close",
                        format!(
                            "Season {}: every group game is decided; close it to record each division's merged ranking (SJ-R5).",
                            s.number
                        ),
                    )
                    .form(QueueForm::button("close-season", format!("Close season {}", s.number))),
                );
            }
        }
        if can_qualify {
            match l.decide(Command::QualifyFinal { at: now }) {
                Ok(_) => queue.push(
                    Item::new(
                        Waits::Due,
                        "q-final",
                        "The season is closed: its final round can be qualified (SJ-R7).",
                    )
                    .form(QueueForm::button(
                        "qualify-final",
                        "Qualify the final round",
                    )),
                ),
                Err(e) => queue.push(
                    Item::new(
                        Waits::Due,
                        "q-final",
                        format!(
                            "The final round waits for a tiebreak record: {} [{}]",
                            e.message, e.clause
                        ),
                    )
                    .link("#tiebreaks", "To the tiebreak records"),
                ),
            }
        }
        for g in &final_games {
            let item = Item::new(
                Waits::Due,
                format!("q-fg-{}", g.n),
                format!(
                    "{}: {} (black) v {} (white) waits for its result.",
                    g.label, g.black, g.white
                ),
            );
            queue.push(if g.can_moderate {
                item.link(format!("#fg-{}", g.n), "To its form")
            } else {
                item.note("You play in this game: another moderator records it (ARB-R45).")
            });
        }
        let active = v.players.iter().filter(|p| !p.withdrawn).count();
        if can_plan && !can_qualify && active > 0 {
            let n = l.next_season_number();
            queue.push(
                Item::new(
                    Waits::Due,
                    "q-plan",
                    format!(
                        "Season {n} can be planned: the planner places the {active} active players by the rules; you see the plan with every reason before it is stored."
                    ),
                )
                // The one button is the section's own form (issue 17 §2).
                .link("#form-plan", format!("Preview season {n} below")),
            );
        }
    }
    // The filter is read where the corrections are shown: on a
    // moderator's desk with a recorded result; elsewhere it asks nothing.
    let cor = if h.roles.moderates() && !played.is_empty() {
        Corrections::read(id, filter, &played, |n| h.refused(format!("cor-{n}")))
    } else {
        Corrections::all(&played)
    };
    let unreadable = cor.problem.is_some();
    let page = SunjangDesk {
        queue: queue.sorted(),
        chrome: Chrome::competition(
            format!("Desk · {}", l.name),
            id,
            &l.name,
            Kind::SunjangLeague,
            &format!("/c/{id}/manage"),
        ),
        name: l.name.clone(),
        // A final round drawn is finished before the next season is
        // planned (the engine refuses it meanwhile).
        can_plan,
        next_season: l.next_season_number() as usize,
        can_close: status == Some("planned"),
        can_qualify,
        final_games,
        final_withdraw,
        final_status,
        final_reasons: final_round
            .map(|f| f.qualification.clone())
            .unwrap_or_default(),
        players: v.players,
        season,
        to_play,
        cor,
        played,
        outcomes: OUTCOMES.to_vec(),
        restriction_rows: l
            .restrictions
            .rows
            .iter()
            .map(|r| {
                (
                    r.ranks(),
                    format!(
                        "{} to {}",
                        arbiter_engine::sunjang::division_letter(r.highest),
                        arbiter_engine::sunjang::division_letter(r.lowest)
                    ),
                )
            })
            .collect(),
        rules: arbiter_record::preset("sunjang-league")
            .unwrap_or_default()
            .to_string(),
        h,
    };
    let mut response = render(&page).into_response();
    if unreadable && response.status() == StatusCode::OK {
        // The desk, with the filter's problem next to its field: the
        // status says so to programs, as the history's filter does.
        *response.status_mut() = StatusCode::BAD_REQUEST;
    }
    Ok(response)
}

#[derive(Debug, Template)]
#[template(path = "desk_sunjang_preview.html")]
struct PreviewPage {
    chrome: Chrome,
    id: String,
    done: FormatDone,
    csrf: String,
    key: String,
    version: u64,
    /// The organizer's moves previewed, one a line (ARB-R55).
    moves: String,
    reason: String,
    players: Vec<String>,
    /// Every rule of section A the moves break, in words.
    violations: Vec<String>,
    /// Every player's page, for the season's tables.
    links: crate::pages::players::PlayerLinks,
}

/// Every field a Sunjang desk form may send; `action` says which action.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct SjForm {
    action: String,
    #[serde(rename = "_csrf")]
    csrf: Option<String>,
    #[serde(rename = "_key")]
    key: Option<String>,
    #[serde(rename = "_version")]
    version: Option<String>,
    name: Option<String>,
    player: Option<String>,
    rank: Option<String>,
    rating: Option<String>,
    provisional: Option<String>,
    corr_rank: Option<String>,
    corr_rating: Option<String>,
    account: Option<String>,
    reason: Option<String>,
    rules: Option<String>,
    preview: Option<String>,
    black: Option<String>,
    white: Option<String>,
    outcome: Option<String>,
    winner: Option<String>,
    loser: Option<String>,
    username: Option<String>,
    /// The organizer's moves so far, one `NAME:GROUP` a line (ARB-R55).
    moves: Option<String>,
    /// A move to add: the player and his new group.
    move_player: Option<String>,
    move_group: Option<String>,
    ranks: Option<String>,
    divisions: Option<String>,
}

impl SjForm {
    /// The moves of the textarea, and the one the move form adds.
    fn moves(&self) -> Result<Vec<String>, ApiError> {
        let mut out: Vec<String> = self
            .moves
            .as_deref()
            .unwrap_or_default()
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect();
        match (opt(&self.move_player), opt(&self.move_group)) {
            (Some(p), Some(g)) => out.push(format!("{}:{}", p.trim(), g.trim())),
            (None, None) => {}
            (Some(_), None) => {
                return Err(ApiError::bad_request(
                    "a move needs the group to move to (such as B2)",
                )
                .with_field("move_group"));
            }
            (None, Some(_)) => {
                return Err(ApiError::bad_request("a move needs the player to move")
                    .with_field("move_player"));
            }
        }
        Ok(out)
    }

    fn rating(&self) -> Result<i32, ApiError> {
        number::<i32>(&self.rating, "rating")?
            .ok_or_else(|| ApiError::bad_request("rating is required").with_field("rating"))
    }

    fn action(&self) -> Result<SunjangAction, ApiError> {
        Ok(match self.action.as_str() {
            "add-player" => SunjangAction::AddPlayer {
                name: text(&self.name),
                rank: text(&self.rank),
                rating: self.rating()?,
                provisional: self.provisional.is_some(),
                corr_rank: opt(&self.corr_rank),
                corr_rating: number(&self.corr_rating, "corr_rating")?,
                account: opt(&self.account),
            },
            "update-player" => SunjangAction::UpdatePlayer {
                player: text(&self.player),
                rank: text(&self.rank),
                rating: self.rating()?,
                provisional: self.provisional.is_some(),
                corr_rank: opt(&self.corr_rank),
                corr_rating: number(&self.corr_rating, "corr_rating")?,
            },
            "withdraw-player" => SunjangAction::WithdrawPlayer {
                player: text(&self.player),
                reason: text(&self.reason),
            },
            "return-player" => SunjangAction::ReturnPlayer {
                player: text(&self.player),
            },
            "change-restrictions" => SunjangAction::ChangeRestrictions {
                rules: text(&self.rules),
                reason: text(&self.reason),
            },
            "plan-season" => SunjangAction::PlanSeason {
                preview: self.preview.as_deref() == Some("true"),
                moves: self.moves()?,
                reason: opt(&self.reason),
            },
            "set-restriction" => SunjangAction::SetRestriction {
                ranks: text(&self.ranks),
                divisions: text(&self.divisions),
                reason: text(&self.reason),
            },
            "remove-restriction" => SunjangAction::RemoveRestriction {
                ranks: text(&self.ranks),
                reason: text(&self.reason),
            },
            "record-result" => SunjangAction::RecordResult {
                black: text(&self.black),
                white: text(&self.white),
                outcome: text(&self.outcome),
            },
            "report-result" => SunjangAction::ReportResult {
                black: text(&self.black),
                white: text(&self.white),
                outcome: text(&self.outcome),
            },
            "confirm-result" => SunjangAction::ConfirmResult {
                black: text(&self.black),
                white: text(&self.white),
            },
            "dispute-report" => SunjangAction::DisputeReport {
                black: text(&self.black),
                white: text(&self.white),
                reason: text(&self.reason),
            },
            "correct-result" => SunjangAction::CorrectResult {
                black: text(&self.black),
                white: text(&self.white),
                outcome: text(&self.outcome),
                reason: text(&self.reason),
            },
            "give-way" => SunjangAction::GiveWay {
                player: text(&self.player),
            },
            "record-live-match" => SunjangAction::RecordLiveMatch {
                winner: text(&self.winner),
                loser: text(&self.loser),
            },
            "close-season" => SunjangAction::CloseSeason,
            "qualify-final" => SunjangAction::QualifyFinal,
            "record-final-game" => SunjangAction::RecordFinalGame {
                black: text(&self.black),
                white: text(&self.white),
                outcome: text(&self.outcome),
            },
            "withdraw-from-final" => SunjangAction::WithdrawFromFinal {
                player: text(&self.player),
            },
            "add-moderator" => SunjangAction::AddModerator {
                username: text(&self.username),
            },
            "remove-moderator" => SunjangAction::RemoveModerator {
                username: text(&self.username),
            },
            other => return Err(no_action(other)),
        })
    }
}

/// The desk's address `to` (where a form that worked goes) with the filter
/// of the corrections the form was sent under (issue 17 §2), so that a
/// moderator correcting one player's games comes back to them; any other
/// address as it is.
fn filtered(id: &str, to: &str, filter: &DeskFilter) -> String {
    let query = filter.query();
    match to.strip_prefix(&format!("/c/{id}/manage?")) {
        Some(rest) if !query.is_empty() => {
            let (q, anchor) = rest.split_once('#').unwrap_or((rest, ""));
            let anchor = if anchor.is_empty() {
                String::new()
            } else {
                format!("#{anchor}")
            };
            format!("/c/{id}/manage?{q}&{query}{anchor}")
        }
        _ => to.to_string(),
    }
}

/// `POST /c/{id}/act` for a Sunjang league: the action, or for a season
/// plan with `preview`, the plan on a page with a button that stores it.
pub(crate) async fn act(
    state: &AppState,
    caller: &Caller,
    id: &str,
    body: &Bytes,
) -> Result<Response, ApiError> {
    let form: SjForm = form_of(body).await?;
    caller.check_csrf(form.csrf.as_deref())?;
    let action = form.action()?;
    let (moves, reason) = match &action {
        SunjangAction::PlanSeason { moves, reason, .. } => {
            (moves.join("\n"), reason.clone().unwrap_or_default())
        }
        _ => (String::new(), String::new()),
    };
    let preview = action.is_preview();
    let expected = form_version(&form.version, preview)?;
    let key = if preview { None } else { opt(&form.key) };
    let done = actions_sunjang::run_sunjang(state, caller, id, action, expected, key).await?;
    if !preview {
        let to = done_location(state, id, &done, body).await;
        return Ok(Redirect::to(&filtered(id, &to, &DeskFilter::sent(body).await)).into_response());
    }
    let (l, _) = state.service.load_as::<League>(id, None).await?;
    let page = PreviewPage {
        chrome: Chrome::competition(
            format!("Preview · {}", l.name),
            id,
            &l.name,
            Kind::SunjangLeague,
            "",
        ),
        id: id.to_string(),
        csrf: caller.csrf_token().unwrap_or_default().to_string(),
        key: auth::random_token()?,
        version: done.version,
        moves,
        reason,
        players: l.players.iter().map(|p| p.name.clone()).collect(),
        links: crate::pages::players::PlayerLinks::in_order(id, l.players.iter().map(|p| &p.name)),
        violations: done.violations.iter().map(|v| v.line()).collect(),
        done,
    };
    Ok(render(&page).into_response())
}
