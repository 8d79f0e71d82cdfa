//! The round-robin league's pages: the table with every place explained,
//! the rounds and their games, the lots drawn; and each player's page.

use arbiter_engine::model::{PlayerId, Time};
use arbiter_engine::roundrobin::{RoundRobin, Score, Seat};
use arbiter_service::roundrobin::{RoundRobinView, round_robin_view};
use askama::Template;
use axum::response::Response;

use crate::AppState;
use crate::auth::Caller;
use crate::pages::picture::{Placed, Podium};
use crate::pages::players::{
    self, GameLine, PlayerHome, PlayerLinks, Standing, ordinal, player_id,
};
use crate::pages::svg::{self, Outcome, Svg};
use crate::pages::{Chrome, Kind, PageError, render};

use crate::pages::time::When;

#[derive(Debug, Template)]
#[template(path = "roundrobin.html")]
struct RoundRobinPage {
    chrome: Chrome,
    v: RoundRobinView,
    links: PlayerLinks,
    /// The leaders, first on the page (issue 17 §3); `None` before a game
    /// counts.
    podium: Option<Podium>,
    /// The crosstable at a glance, beside the podium.
    glance: Option<Svg>,
    /// Each round's deadline in the league's zone with its countdown
    /// (ARB-R82), by round number; no countdown once its games are played.
    due: Vec<(u32, When)>,
}

impl RoundRobinPage {
    /// The deadline of round `number`, if it has one.
    fn due(&self, number: &u32) -> Option<&When> {
        self.due.iter().find(|(n, _)| n == number).map(|(_, w)| w)
    }
}

/// Each round's deadline as the pages show it (ARB-R82).
fn round_deadlines(rr: &RoundRobin, now: Time) -> Vec<(u32, When)> {
    rr.rounds
        .iter()
        .filter_map(|round| {
            let played = round
                .games
                .iter()
                .filter_map(|g| rr.game(*g))
                .all(|g| rr.counted_score(g).is_some());
            round.deadline.map(|t| {
                (
                    round.number,
                    When::deadline(t, rr.zone, now).settled_if(played),
                )
            })
        })
        .collect()
}

/// The top of the table as a podium, once a game counts.
fn table_top(v: &RoundRobinView, links: &PlayerLinks) -> Option<Podium> {
    if v.games_played == 0 {
        return None;
    }
    let caption = if v.finished {
        "The final table's top".to_string()
    } else {
        format!(
            "The top of the table after {} of {} games",
            v.games_played, v.games
        )
    };
    let placed = v.table.iter().map(|r| Placed {
        place: r.place,
        name: r.player.clone(),
        href: links.href(&r.player).map(str::to_string),
        figure: format!("{} pts", r.points),
    });
    Some(Podium::of("top", "Place", caption, placed, 5).linking("#table", "the whole table"))
}

/// Every game as a mark in a grid of the players in the table's order.
fn glance(rr: &RoundRobin) -> Option<Svg> {
    let table = rr.table();
    let order: Vec<PlayerId> = table.rows.iter().map(|r| r.line.player).collect();
    let names: Vec<String> = table.rows.iter().map(|r| r.line.name.clone()).collect();
    if order.len() < 2 || order.len() > 24 {
        return None;
    }
    let at = |p: PlayerId| order.iter().position(|q| *q == p);
    let mut cells = vec![vec![Vec::new(); order.len()]; order.len()];
    let mut games: Vec<_> = rr.games.iter().collect();
    games.sort_by_key(|g| g.round);
    for g in games {
        let (Some(h), Some(a)) = (at(g.home), at(g.away)) else {
            continue;
        };
        let (home, away) = match rr.counted_score(g).or(g.score) {
            None => (Outcome::Open, Outcome::Open),
            Some(score) => match his_result(score, Seat::Home).1 {
                o if o.starts_with("won") => (Outcome::Won, Outcome::Lost),
                o if o.starts_with("lost") => (Outcome::Lost, Outcome::Won),
                _ => (Outcome::Drawn, Outcome::Drawn),
            },
        };
        cells[h][a].push(home);
        cells[a][h].push(away);
    }
    let leader = names.first().cloned().unwrap_or_default();
    let open = cells
        .iter()
        .flatten()
        .flatten()
        .any(|o| *o == Outcome::Open);
    let open = if open { ", white to play" } else { "" };
    Some(svg::crosstable_glance(
        "glance",
        "Every game at a glance",
        &format!(
            "A grid of the players in the table's order, numbered by place (1 is {leader}); each cell holds the row player's games against the column player: green won, grey drawn, orange lost{open}."
        ),
        &names,
        &cells,
    ))
}

/// `GET /c/{id}` for a round-robin league.
pub(crate) async fn page(state: &AppState, id: &str) -> Result<Response, PageError> {
    let now = state.now();
    let v = state
        .service
        .read_as::<RoundRobin, _>(id, |rr, version| {
            (
                round_robin_view(rr, id, version),
                glance(rr),
                round_deadlines(rr, now),
            )
        })
        .await?;
    let (v, glance, due) = v;
    let links = PlayerLinks::in_order(id, &v.players);
    let podium = table_top(&v, &links);
    render(&RoundRobinPage {
        chrome: Chrome::competition(
            v.name.clone(),
            id,
            &v.name,
            Kind::RoundRobin,
            &format!("/c/{id}"),
        ),
        glance: glance.filter(|_| podium.is_some()),
        podium,
        links,
        v,
        due,
    })
}

/// A result seen from his seat: the score in his order and the outcome.
fn his_result(score: Score, seat: Seat) -> (String, &'static str) {
    let s = match seat {
        Seat::Home => score,
        Seat::Away => score.swapped(),
    };
    let outcome = match s {
        Score::Goals { home, away } if home > away => "won",
        Score::Goals { home, away } if home < away => "lost",
        Score::Goals { .. } | Score::Drawn => "drawn",
        Score::Won(Seat::Home) => "won",
        Score::Won(Seat::Away) => "lost",
        Score::Forfeit {
            winner: Some(Seat::Home),
        } => "won by forfeit",
        Score::Forfeit { .. } => "lost by forfeit",
    };
    (s.show(), outcome)
}

/// `GET /c/{id}/players/{n}` for a round-robin league: entrant `n`, in
/// the order the league's events entered them.
pub(crate) async fn player(
    state: &AppState,
    caller: &Caller,
    id: &str,
    segment: &str,
) -> Result<Response, PageError> {
    let now = state.now();
    let h = state
        .service
        .read_as::<RoundRobin, _>(id, |rr, version| -> Result<PlayerHome, PageError> {
            let me = player_id(segment, rr.entrants.len())?;
            Ok(home(rr, id, round_robin_view(rr, id, version), me, now))
        })
        .await??;
    players::home(state, caller, id, Kind::RoundRobin, h).await
}

fn home(rr: &RoundRobin, id: &str, v: RoundRobinView, me: PlayerId, now: Time) -> PlayerHome {
    let name = rr.name_of(me);
    let (home_word, away_word) = if v.scores {
        ("home", "away")
    } else {
        ("White", "Black")
    };
    let mut to_play = Vec::new();
    let mut results = Vec::new();
    let mut byes = Vec::new();
    for round in &rr.rounds {
        if round.byes.contains(&me) {
            byes.push(round.number.to_string());
        }
        for g in round.games.iter().filter_map(|g| rr.game(*g)) {
            if !g.has(me) {
                continue;
            }
            let (seat, other) = if g.home == me {
                (Seat::Home, g.away)
            } else {
                (Seat::Away, g.home)
            };
            let mut line = GameLine {
                game: format!("G{}", g.id),
                stage: format!("round {}", round.number),
                opponent: rr.name_of(other),
                side: match seat {
                    Seat::Home => home_word.to_string(),
                    Seat::Away => away_word.to_string(),
                },
                deadline: round.deadline.map(|t| When::deadline(t, rr.zone, now)),
                ..GameLine::default()
            };
            match rr.counted_score(g) {
                Some(score) => {
                    let (shown, outcome) = his_result(score, seat);
                    line.status = shown;
                    line.outcome = outcome;
                    if g.score.is_none() {
                        line.note =
                            Some("counted as a forfeit: a player withdrew (ARB-R68)".into());
                    } else if let Some(m) = g.minutes {
                        line.note = Some(format!("{m} minutes"));
                    }
                    results.push(line);
                }
                None => {
                    line.status = match round.deadline {
                        Some(d) if d < now => "overdue".into(),
                        _ => "to play".into(),
                    };
                    to_play.push(line);
                }
            }
        }
    }
    let count = v.table.len();
    let standings: Vec<Standing> = v
        .table
        .iter()
        .filter(|r| r.player == name)
        .map(|r| {
            let mut figures = vec![
                ("Points".into(), r.points.clone()),
                (
                    "Played".into(),
                    format!(
                        "{} (won {}, drawn {}, lost {}{})",
                        r.played,
                        r.won,
                        r.drawn,
                        r.lost,
                        if r.forfeits > 0 {
                            format!(", {} forfeits", r.forfeits)
                        } else {
                            String::new()
                        }
                    ),
                ),
            ];
            if v.scores {
                figures.push((
                    "Scored and conceded".into(),
                    format!("{}:{} ({:+})", r.scored, r.conceded, r.difference),
                ));
            }
            figures.extend(r.tiebreaks.iter().filter(|c| !c.value.is_empty()).map(|c| {
                let label = arbiter_engine::roundrobin::Tiebreak::parse(&c.criterion)
                    .map_or_else(|| c.criterion.clone(), |t| t.name().to_string());
                // "games won" → "Games won", as the other labels.
                let mut chars = label.chars();
                let label: String = chars
                    .next()
                    .map_or_else(String::new, |f| f.to_uppercase().chain(chars).collect());
                (label, c.value.clone())
            }));
            Standing {
                table: if v.finished {
                    "table (final)".into()
                } else {
                    "table".into()
                },
                href: format!("/c/{id}#table"),
                place: format!(
                    "{} of {count}{}",
                    ordinal(r.place),
                    if r.withdrawn { ", withdrawn" } else { "" }
                ),
                figures,
                explanations: vec![r.explanation.clone()],
                note: None,
            }
        })
        .collect();
    let mut lede = format!(
        "{} · {} {}",
        v.name,
        if v.scores { "team" } else { "player" },
        me.0
    );
    if let Some(s) = standings.first() {
        lede.push_str(&format!(" · {}", s.place));
    }
    let mut facts = vec![("Points".into(), v.points.clone())];
    if !byes.is_empty() {
        facts.push(("Byes".into(), format!("round {}", byes.join(", round "))));
    }
    PlayerHome {
        competition: v.name.clone(),
        lede,
        facts,
        to_play,
        to_play_note:
            "Each round's deadline is the organizer's; the league names no moderator for a game."
                .into(),
        deadlines: true,
        moderators: false,
        results,
        no_standing: (!v.started)
            .then(|| "The league has not started: the table begins with the schedule.".to_string()),
        standings: if v.started { standings } else { Vec::new() },
        clinch_group: None,
        more: Vec::new(),
        links: PlayerLinks::in_order(id, &v.players),
        name,
    }
}

/// The players index (`/c/{id}/players`): the table's order, with the
/// place, the record and the points; a withdrawal said.
pub(crate) fn index(rr: &RoundRobin, id: &str) -> Vec<crate::pages::players_index::IndexLine> {
    use crate::pages::players_index::{in_table_order, record};
    let v = round_robin_view(rr, id, 0);
    let count = v.table.len();
    in_table_order(
        crate::formats::WebFormat::search_players(rr, id),
        &v.table,
        |r| &r.player,
        |r, line| {
            if v.started {
                line.standing = format!("{} of {count}", ordinal(r.place));
            }
            line.record = record(&[("won", r.won), ("drawn", r.drawn), ("lost", r.lost)]);
            if !line.record.is_empty() {
                line.record.push_str(&format!("; {} points", r.points));
            }
            if r.withdrawn {
                line.note = "withdrawn".into();
            }
        },
    )
}
