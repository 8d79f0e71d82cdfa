//! The XMadn Double-Threat pages: a league (table, double round-robins,
//! playoff, rolls) and a Challengers event (standings, games, next game).

use arbiter_engine::xmadn::challengers::Challengers;
use arbiter_engine::xmadn::league::League;
use arbiter_service::xmadn::{
    ChallengersView, LeagueGameView, LeagueView, challengers_view, league_view,
};
use askama::Template;
use axum::response::Response;

use crate::AppState;
use crate::auth::Caller;
use crate::pages::picture::{EmptyRound, Entrant, Placed, Podium, Road, Seat};
use crate::pages::players::{
    self, GameLine, PendingReport, PlayerHome, PlayerLinks, ReportForm, Reports, Standing, ordinal,
    player_id,
};
use crate::pages::{Chrome, Kind, PageError, render};
use arbiter_engine::model::PlayerId;
use arbiter_engine::xmadn::format_time;
use arbiter_engine::xmadn::{Playoff, Series};

/// The league's phase in words, without the CLI command it suggests.
pub(crate) fn phase_for_the_web(phase: &str) -> String {
    phase.replace(" (`league roll`)", "")
}

#[derive(Debug, Template)]
#[template(path = "league.html")]
struct LeaguePage {
    chrome: Chrome,
    v: LeagueView,
    links: PlayerLinks,
    /// The table's top, first on the page until the playoff's bracket
    /// takes its place (issue 17 §3); `None` before a game is played.
    podium: Option<Podium>,
    /// Before the first game, in the podium's place: the field, the
    /// playoff's empty bracket as the rules fix it, the title still open.
    road: Option<Road>,
}

/// A table's place in words: "1st of the table".
fn of_the_table(place: usize) -> Seat {
    Seat {
        place: Some(place),
        words: format!("{} of the table", ordinal(place)),
    }
}

/// The road to the title before a game is played: the three entrants
/// play the double round-robins, the table's places take the playoff's
/// seats (XMadn League: Playoff), the last round's winner (or the table's
/// first, without a playoff) is champion. `None` once a game counts or
/// the playoff has started: the podium or the bracket show the real thing.
fn road(v: &LeagueView, playoff: Playoff, head_start: bool, links: &PlayerLinks) -> Option<Road> {
    if !v.playoffs.is_empty() || v.table.iter().any(|r| r.played > 0) {
        return None;
    }
    let n = v.double_round_robins;
    let field_words = format!(
        "{n} double round-robin{}, {} games",
        if n == 1 { "" } else { "s" },
        6 * n
    );
    let round =
        |title: &'static str, series: Series, final_round: bool, seats: [Seat; 2]| EmptyRound {
            title,
            code: series.code(final_round),
            wins_needed: series.wins_needed(),
            head_start: head_start && series != Series::Game,
            seats,
        };
    let (rounds, champion_words) = match playoff {
        Playoff::None => (Vec::new(), "the table's 1st".to_string()),
        Playoff::TopTwo { final_round } => (
            vec![round(
                "Final",
                final_round,
                true,
                [of_the_table(1), of_the_table(2)],
            )],
            format!("the winner of {}", final_round.code(true)),
        ),
        Playoff::AllThree {
            qualifying,
            final_round,
        } => (
            vec![
                round(
                    "Qualifying",
                    qualifying,
                    false,
                    [of_the_table(2), of_the_table(3)],
                ),
                round(
                    "Final",
                    final_round,
                    true,
                    [
                        of_the_table(1),
                        Seat {
                            place: None,
                            words: format!("the winner of {}", qualifying.code(false)),
                        },
                    ],
                ),
            ],
            format!("the winner of {}", final_round.code(true)),
        ),
    };
    let caption = if rounds.is_empty() {
        "The road to the title: no game played yet; the table decides, its 1st is champion"
            .to_string()
    } else {
        "The road to the title: no game played yet; the table's places take the playoff's seats (XMadn League: Playoff), the last round's winner is champion"
            .to_string()
    };
    Some(Road {
        field: v
            .players
            .iter()
            .map(|p| Entrant {
                name: p.clone(),
                href: links.href(p).map(str::to_string),
            })
            .collect(),
        field_words,
        rounds,
        champion_words,
        caption,
    })
}

/// The top of a league's table as a podium, once a game is played.
fn table_top(v: &LeagueView, links: &PlayerLinks) -> Option<Podium> {
    if v.table.iter().all(|r| r.played == 0) {
        return None;
    }
    let caption = if v.provisional {
        "The top of the table, provisional while games remain (XM-R5)".to_string()
    } else {
        "The top of the table".to_string()
    };
    let placed = v.table.iter().map(|r| Placed {
        place: r.place,
        name: r.player.clone(),
        href: links.href(&r.player).map(str::to_string),
        figure: format!(
            "{}-{} · {}:{}",
            r.wins, r.losses, r.pawns_for, r.pawns_against
        ),
    });
    Some(Podium::of("top", "Place", caption, placed, 5).linking("#table", "the whole table"))
}

/// `GET /c/{id}` for an XMadn league.
pub(crate) async fn league(state: &AppState, id: &str) -> Result<Response, PageError> {
    let (mut v, playoff, head_start) = state
        .service
        .read_as::<League, _>(id, |l, version| {
            (
                league_view(l, id, version),
                l.rules.playoff,
                l.rules.head_start,
            )
        })
        .await?;
    v.phase = phase_for_the_web(&v.phase);
    let links = PlayerLinks::in_order(id, &v.players);
    render(&LeaguePage {
        podium: table_top(&v, &links),
        road: road(&v, playoff, head_start, &links),
        links,
        chrome: Chrome::competition(
            v.name.clone(),
            id,
            &v.name,
            Kind::XmadnLeague,
            &format!("/c/{id}"),
        ),
        v,
    })
}

#[derive(Debug, Template)]
#[template(path = "challengers.html")]
struct ChallengersPage {
    chrome: Chrome,
    v: ChallengersView,
    links: PlayerLinks,
}

/// `GET /c/{id}` for an XMadn Challengers event.
pub(crate) async fn challengers(state: &AppState, id: &str) -> Result<Response, PageError> {
    let v = state
        .service
        .read_as::<Challengers, _>(id, |c, version| challengers_view(c, id, version))
        .await?;
    render(&ChallengersPage {
        links: PlayerLinks::in_order(id, &v.players),
        chrome: Chrome::competition(
            v.name.clone(),
            id,
            &v.name,
            Kind::XmadnChallengers,
            &format!("/c/{id}"),
        ),
        v,
    })
}

/// The score of a game in `me`'s order: his pawns first.
fn his_score(players: &[String; 2], score: &str, me: &str) -> String {
    match score.split_once('-') {
        Some((a, b)) if players[1] == me => format!("{b}-{a}"),
        _ => score.to_string(),
    }
}

/// "won" or "lost" for `me`, from the game's winner.
fn outcome_of(winner: Option<&String>, me: &str) -> &'static str {
    match winner {
        Some(w) if w == me => "won",
        Some(_) => "lost",
        None => "",
    }
}

/// The other player of a game.
fn opponent(players: &[String; 2], me: &str) -> String {
    if players[0] == me {
        players[1].clone()
    } else {
        players[0].clone()
    }
}

/// `GET /c/{id}/players/{n}` for an XMadn league: player `n` (1 to 3, as
/// the league's creation numbered them).
pub(crate) async fn league_player(
    state: &AppState,
    caller: &Caller,
    id: &str,
    segment: &str,
) -> Result<Response, PageError> {
    let (h, reports) = state
        .service
        .read_as::<League, _>(
            id,
            |l, version| -> Result<(PlayerHome, Option<Reports>), PageError> {
                let me = player_id(segment, l.players.len())?;
                let name = l.name_of(me);
                let v = league_view(l, id, version);
                Ok((
                    league_home(id, v, me.0, name),
                    league_reports(l, caller, me, id, version),
                ))
            },
        )
        .await??;
    players::home_with_reports(state, caller, id, Kind::XmadnLeague, h, reports).await
}

/// "Baker reported …: Ames 4-2 Baker in 12:30 (2026-03-01 19:00 UTC)", `at`
/// written in the competition's zone (ARB-R82).
pub(crate) fn reported_words(
    by: &str,
    what: &str,
    names: [String; 2],
    score: &arbiter_engine::xmadn::Score,
    at: String,
) -> String {
    format!(
        "{by} reported {what}: {} {}-{} {} in {} ({at}).",
        names[0],
        score.pawns[0],
        score.pawns[1],
        names[1],
        format_time(score.seconds),
    )
}

/// The report forms of player `me`'s page, for his own account (ARB-R45,
/// ARB-R81): his games that may be played now (the running double
/// round-robin's, or the playoff's next game), and the reports of his
/// games waiting.
fn league_reports(
    l: &League,
    caller: &Caller,
    me: PlayerId,
    id: &str,
    version: u64,
) -> Option<Reports> {
    let linked = caller
        .account()
        .ok()
        .and_then(|a| l.links.player_of(&a.username));
    let mut r = Reports::for_viewer(caller, linked, me, id, version)?;
    for (g, rep) in &l.reports {
        let Some(players) = l.reportable_players(*g).filter(|p| p.contains(&me)) else {
            continue;
        };
        let mine = rep.by == me;
        let mut text = reported_words(
            &l.name_of(rep.by),
            &l.report_ref(*g),
            players.map(|p| l.name_of(p)),
            &rep.result,
            l.zone.minute(rep.at),
        );
        text.push_str(if mine {
            " It waits for your opponent or a moderator."
        } else {
            " Confirm it, or dispute it with what is wrong."
        });
        r.pending.push(PendingReport {
            id: g.0.to_string(),
            text,
            mine,
            confirm: "confirm-result",
            dispute: "dispute-report",
            hidden: vec![("game".into(), g.to_string())],
        });
    }
    let mut games: Vec<(arbiter_engine::model::GameId, [PlayerId; 2])> = l
        .playable()
        .into_iter()
        .filter(|g| g.has(me))
        .map(|g| (g.id, g.players))
        .collect();
    let next = arbiter_engine::model::GameId(l.games.len() as u32 + 1);
    if let Some(players) = l.reportable_players(next).filter(|p| p.contains(&me)) {
        games.push((next, players));
    }
    for (g, players) in games {
        // His opponent's report waits: he confirms or disputes it above.
        if l.reports.get(&g).is_some_and(|rep| rep.by != me) {
            continue;
        }
        let other = if players[0] == me {
            players[1]
        } else {
            players[0]
        };
        let (mine, theirs) = (l.name_of(me), l.name_of(other));
        r.forms.push(ReportForm {
            id: g.0.to_string(),
            title: format!("{} against {theirs}", l.report_ref(g)),
            action: "report-result",
            hidden: vec![
                ("game".into(), g.to_string()),
                ("a".into(), mine.clone()),
                ("b".into(), theirs.clone()),
            ],
            pawns_label: Some(format!("Counted pawns, yours first then {theirs}'s (4-2)")),
            outcomes: Vec::new(),
        });
    }
    Some(r)
}

fn league_home(id: &str, v: LeagueView, number: u32, me: String) -> PlayerHome {
    let mut to_play = Vec::new();
    let mut results = Vec::new();
    let mut line = |g: &LeagueGameView, side: String| {
        if !g.players.contains(&me) {
            return;
        }
        let mut x = GameLine {
            game: g.alias.clone(),
            stage: g.stage.clone(),
            opponent: opponent(&g.players, &me),
            side,
            ..GameLine::default()
        };
        match (g.status, &g.score) {
            ("played", Some(score)) => {
                x.status = his_score(&g.players, score, &me);
                x.outcome = outcome_of(g.winner.as_ref(), &me);
                x.note = g.time.as_ref().map(|t| format!("time {t}"));
                results.push(x);
            }
            ("cancelled", _) => {
                x.status = "cancelled".into();
                x.note = g.note.clone();
                results.push(x);
            }
            _ => {
                x.status = if g.playable {
                    "may be played now".into()
                } else {
                    "scheduled, after the games before it".into()
                };
                to_play.push(x);
            }
        }
    };
    for d in &v.drrs {
        let side = d
            .positions
            .iter()
            .position(|p| *p == me)
            .map(|i| format!("#{} of DRR {}", i + 1, d.number))
            .unwrap_or_default();
        for g in &d.games {
            line(g, side.clone());
        }
    }
    for p in &v.playoffs {
        let side = if p.higher == me {
            format!("{} (higher seed)", p.higher_colours)
        } else {
            p.lower_colours.clone()
        };
        for g in &p.games {
            line(g, side.clone());
        }
    }
    // A playoff round still running whose next game is not scheduled yet.
    for p in &v.playoffs {
        let mine = p.higher == me || p.lower == me;
        let pending = p.games.iter().any(|g| g.status == "scheduled");
        if mine && p.winner.is_none() && !pending {
            let (side, other, wins) = if p.higher == me {
                (
                    format!("{} (higher seed)", p.higher_colours),
                    p.lower.clone(),
                    (p.wins[0], p.wins[1]),
                )
            } else {
                (
                    p.lower_colours.clone(),
                    p.higher.clone(),
                    (p.wins[1], p.wins[0]),
                )
            };
            to_play.push(GameLine {
                game: p.code.clone(),
                stage: format!("{} playoff, next game", p.stage),
                opponent: other,
                side,
                status: format!(
                    "series {}-{}, {} win{} needed",
                    wins.0,
                    wins.1,
                    p.wins_needed,
                    if p.wins_needed == 1 { "" } else { "s" }
                ),
                ..GameLine::default()
            });
        }
    }
    let count = v.table.len();
    let standings: Vec<Standing> = v
        .table
        .iter()
        .filter(|r| r.player == me)
        .map(|r| Standing {
            table: if v.provisional {
                "league table (provisional while games remain, XM-R5)".into()
            } else {
                "league table".into()
            },
            href: format!("/c/{id}#table"),
            place: format!("{} of {count}", ordinal(r.place)),
            figures: vec![
                ("Played".into(), r.played.to_string()),
                ("Won-lost".into(), format!("{}-{}", r.wins, r.losses)),
                (
                    "Pawns".into(),
                    format!(
                        "{}:{} (difference {})",
                        r.pawns_for, r.pawns_against, r.pawn_difference
                    ),
                ),
                ("Win minutes".into(), r.win_minutes.to_string()),
            ],
            explanations: r.explanations.clone(),
            note: None,
        })
        .collect();
    let place = standings.first().map(|s| s.place.clone());
    let mut lede = format!("XMadn league · player {number}");
    if let Some(p) = &place {
        lede.push_str(&format!(" · {p}"));
    }
    if v.champion.as_ref() == Some(&me) {
        lede.push_str(" · champion");
    }
    PlayerHome {
        competition: v.name.clone(),
        lede,
        facts: vec![("Where the league stands".into(), phase_for_the_web(&v.phase))],
        to_play,
        to_play_note: "The league records no dates and no moderators for its games: each is played in the schedule's order (XMadn league).".into(),
        deadlines: false,
        moderators: false,
        results,
        standings,
        no_standing: None,
        clinch_group: None,
        more: Vec::new(),
        links: PlayerLinks::in_order(id, &v.players),
        name: me,
    }
}

/// `GET /c/{id}/players/{n}` for an XMadn Challengers event: player `n`,
/// as the event's creation numbered its players.
pub(crate) async fn challengers_player(
    state: &AppState,
    caller: &Caller,
    id: &str,
    segment: &str,
) -> Result<Response, PageError> {
    let (h, reports) = state
        .service
        .read_as::<Challengers, _>(
            id,
            |c, version| -> Result<(PlayerHome, Option<Reports>), PageError> {
                let me = player_id(segment, c.players.len())?;
                let name = c.name_of(me);
                let v = challengers_view(c, id, version);
                Ok((
                    challengers_home(id, v, me.0, name),
                    challengers_reports(c, caller, me, id, version),
                ))
            },
        )
        .await??;
    players::home_with_reports(state, caller, id, Kind::XmadnChallengers, h, reports).await
}

/// The report form of player `me`'s page for his own account when he is at
/// the board, or the report of the next game waiting (ARB-R45, ARB-R81).
fn challengers_reports(
    c: &Challengers,
    caller: &Caller,
    me: PlayerId,
    id: &str,
    version: u64,
) -> Option<Reports> {
    let linked = caller
        .account()
        .ok()
        .and_then(|a| c.links.player_of(&a.username));
    let mut r = Reports::for_viewer(caller, linked, me, id, version)?;
    let Some(next) = c.next_game().filter(|n| n.players.contains(&me)) else {
        return Some(r);
    };
    let other = if next.players[0] == me {
        next.players[1]
    } else {
        next.players[0]
    };
    let what = format!("Game {}", next.number);
    if let Some((_, rep)) = c.pending_report() {
        let mine = rep.by == me;
        let mut text = reported_words(
            &c.name_of(rep.by),
            &what,
            next.players.map(|p| c.name_of(p)),
            &rep.result,
            c.zone.minute(rep.at),
        );
        text.push_str(if mine {
            " It waits for your opponent or a moderator."
        } else {
            " Confirm it, or dispute it with what is wrong."
        });
        r.pending.push(PendingReport {
            id: next.number.to_string(),
            text,
            mine,
            confirm: "confirm-game",
            dispute: "dispute-report",
            hidden: Vec::new(),
        });
        if !mine {
            return Some(r);
        }
    }
    let (mine, theirs) = (c.name_of(me), c.name_of(other));
    r.forms.push(ReportForm {
        id: next.number.to_string(),
        title: format!("{what} against {theirs}"),
        action: "report-game",
        hidden: vec![("a".into(), mine), ("b".into(), theirs.clone())],
        pawns_label: Some(format!("Counted pawns, yours first then {theirs}'s (4-2)")),
        outcomes: Vec::new(),
    });
    Some(r)
}

fn challengers_home(id: &str, v: ChallengersView, number: u32, me: String) -> PlayerHome {
    let mut to_play = Vec::new();
    let mut facts = Vec::new();
    if let Some(n) = &v.next {
        if n.players.contains(&me) {
            let i = usize::from(n.players[1] == me);
            to_play.push(GameLine {
                game: format!("Game {}", n.number),
                stage: "the next game".into(),
                opponent: opponent(&n.players, &me),
                side: n.colours[i].clone(),
                status: "next to play".into(),
                note: Some(n.explanation.text.clone()),
                ..GameLine::default()
            });
        } else if n.sits_out == me {
            facts.push((
                "Next game".into(),
                format!(
                    "sits out Game {}: {} v {}",
                    n.number, n.players[0], n.players[1]
                ),
            ));
        }
    } else if v.champion.is_none() && v.qualifier.is_empty() {
        to_play.push(GameLine {
            game: "Game 0".into(),
            stage: "the three-player qualifier".into(),
            opponent: v
                .players
                .iter()
                .filter(|p| **p != me)
                .take(2)
                .cloned()
                .collect::<Vec<_>>()
                .join(" and "),
            status: "to play first".into(),
            ..GameLine::default()
        });
    }
    if let Some(q) = v.qualifier.iter().position(|p| *p == me) {
        facts.push(("Game 0".into(), format!("{} of 3", ordinal(q + 1))));
    }
    let results = v
        .games
        .iter()
        .filter(|g| g.players.contains(&me))
        .map(|g| {
            let i = usize::from(g.players[1] == me);
            GameLine {
                game: format!("Game {}", g.number),
                stage: format!("{} sat out", g.sat_out),
                opponent: opponent(&g.players, &me),
                side: g.colours[i].clone(),
                status: his_score(&g.players, &g.score, &me),
                outcome: outcome_of(Some(&g.winner), &me),
                note: Some(format!("time {}", g.time)),
                ..GameLine::default()
            }
        })
        .collect();
    let count = v.standings.len();
    let standings: Vec<Standing> = v
        .standings
        .iter()
        .filter(|s| s.player == me)
        .map(|s| {
            let mut figures = vec![
                ("Won-lost".into(), format!("{}-{}", s.wins, s.losses)),
                ("At the boards".into(), s.at_boards.to_string()),
                ("Sat out".into(), s.sat_out.to_string()),
                (
                    "Pawns".into(),
                    format!("{}:{}", s.pawns_for, s.pawns_against),
                ),
            ];
            if let Some(q) = s.qualifier_place {
                figures.push(("Game 0 place".into(), q.to_string()));
            }
            Standing {
                table: "standings".into(),
                href: format!("/c/{id}#standings"),
                place: format!("{} of {count}", ordinal(s.place as usize)),
                figures,
                explanations: if s.champion {
                    v.champion_explanation.iter().cloned().collect()
                } else {
                    Vec::new()
                },
                note: Some(format!(
                    "The standings put the most wins first, then the fewest losses, then the better place in Game 0, then the order of entry; the champion, the only player with {} wins, is first (XMadn Challengers).",
                    v.first_to
                )),
            }
        })
        .collect();
    let mut lede = format!(
        "XMadn Challengers · player {number} · first to {}",
        v.first_to
    );
    if let Some(s) = standings.first() {
        lede.push_str(&format!(" · {}", s.place));
    }
    if v.champion.as_ref() == Some(&me) {
        lede.push_str(" · champion");
    }
    PlayerHome {
        competition: v.name.clone(),
        lede,
        facts,
        to_play,
        to_play_note: "Winner stays: the next game is decided by the last one, and the event sets no dates and no moderators.".into(),
        deadlines: false,
        moderators: false,
        results,
        standings,
        no_standing: None,
        clinch_group: None,
        more: Vec::new(),
        links: PlayerLinks::in_order(id, &v.players),
        name: me,
    }
}

/// The players index of a league (`/c/{id}/players`): the players in the
/// table's order, with their place and won-lost record; the champion said.
pub(crate) fn league_index(l: &League, id: &str) -> Vec<crate::pages::players_index::IndexLine> {
    use crate::pages::players_index::{in_table_order, record};
    let v = league_view(l, id, 0);
    let count = v.table.len();
    in_table_order(
        crate::formats::WebFormat::search_players(l, id),
        &v.table,
        |r| &r.player,
        |r, line| {
            line.standing = format!(
                "{} of {count}{}",
                ordinal(r.place),
                if v.provisional { " (provisional)" } else { "" }
            );
            line.record = record(&[("won", r.wins), ("lost", r.losses)]);
            if v.champion.as_ref() == Some(&r.player) {
                line.note = "champion".into();
            }
        },
    )
}

/// The players index of a Challengers event (`/c/{id}/players`): the
/// standings' order, with the place and won-lost record; the champion said.
pub(crate) fn challengers_index(
    c: &Challengers,
    id: &str,
) -> Vec<crate::pages::players_index::IndexLine> {
    use crate::pages::players_index::{in_table_order, record};
    let v = challengers_view(c, id, 0);
    let count = v.standings.len();
    in_table_order(
        crate::formats::WebFormat::search_players(c, id),
        &v.standings,
        |s| &s.player,
        |s, line| {
            line.standing = format!("{} of {count}", ordinal(s.place as usize));
            line.record = record(&[("won", s.wins), ("lost", s.losses)]);
            if s.champion {
                line.note = "champion".into();
            }
        },
    )
}
