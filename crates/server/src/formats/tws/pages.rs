//! The Twilight Struggle ladder's pages: the ladder with its current round,
//! a round, a player (with his charts), the statistics.

use arbiter_engine::tws::Ladder;
use arbiter_service::views::{
    self, CloseView, ExplanationView, GameView, LadderView, PlayerView, QuickLineView, RoundView,
    RungView, StatsView, TallyView,
};
use askama::Template;
use axum::extract::{Path, State};
use axum::response::Response;

use crate::AppState;
use crate::pages::picture::{Placed, Podium};
use crate::pages::svg::{self, Bar, Point, Svg};
use crate::pages::{Chrome, Kind, PageError, not_found_page, number, render};

/// Refuse a competition that is not a ladder with a 404: the page does
/// not exist for its format.
async fn check_ladder(state: &AppState, id: &str) -> Result<(), PageError> {
    if crate::pages::kind_of(state, id).await? == Kind::TwsLadder {
        Ok(())
    } else {
        Err(not_found_page())
    }
}

/// A rung with the explanation of its last move.
#[derive(Debug)]
struct RungRow {
    r: RungView,
    why_move: Option<ExplanationView>,
}

/// A round in the list of rounds.
#[derive(Debug)]
struct RoundLink {
    number: u32,
    dates: String,
    closed: bool,
}

#[derive(Debug, Template)]
#[template(path = "ladder.html")]
struct LadderPage {
    chrome: Chrome,
    id: String,
    v: LadderView,
    rows: Vec<RungRow>,
    /// The running round.
    round: Option<RoundView>,
    rounds: Vec<RoundLink>,
    rules_versions: Vec<String>,
    /// The ladder's top, first on the page (issue 17 §3).
    podium: Podium,
}

/// His move at the last close in words, after his record: " · up 2",
/// " · down 1", " · held"; nothing before the first close.
fn moved(last_move: &str) -> String {
    match last_move {
        "" => String::new(),
        "=" => " · held".to_string(),
        m => match (m.strip_prefix('+'), m.strip_prefix('-')) {
            (Some(n), _) => format!(" · up {n}"),
            (_, Some(n)) => format!(" · down {n}"),
            _ => format!(" · {m}"),
        },
    }
}

/// The ladder's top rungs as a podium, the next rungs below.
fn ladder_top(v: &LadderView, id: &str) -> Podium {
    let caption = match v.current_round {
        Some(n) => format!("The top of the ladder during round {n}"),
        None => "The top of the ladder".to_string(),
    };
    let placed = v.rungs.iter().map(|r| Placed {
        place: r.rung as usize,
        name: r.name.clone(),
        href: Some(format!(
            "/c/{id}/players/{}",
            crate::pages::path_segment(&r.name)
        )),
        figure: format!(
            "{}-{}-{}{}",
            r.ladder.wins,
            r.ladder.losses,
            r.ladder.ties,
            moved(&r.last_move)
        ),
    });
    Podium::of("top", "Rung", caption, placed, 5).linking("#ladder", "the whole ladder")
}

fn round_links(l: &Ladder) -> Vec<RoundLink> {
    l.rounds
        .iter()
        .rev()
        .map(|r| RoundLink {
            number: r.number,
            dates: match &r.closed {
                Some(c) => format!("{} to {}", l.zone.date(r.announced_at), l.zone.date(c.at)),
                None => format!(
                    "announced {}, deadline {}",
                    l.zone.date(r.announced_at),
                    l.zone.date(r.deadline)
                ),
            },
            closed: r.closed.is_some(),
        })
        .collect()
}

/// `GET /c/{id}` for a ladder.
pub(crate) async fn page(state: &AppState, id: &str) -> Result<Response, PageError> {
    // A game past its deadline and not played is overdue at this time.
    let now = state.now();
    let page = state
        .service
        .read_as::<Ladder, _>(id, |l, version| {
            let v = views::ladder_view(l, id, version);
            let last_close = l.rounds.iter().rev().find_map(|r| r.closed.as_deref());
            let rows = v
                .rungs
                .iter()
                .map(|r| RungRow {
                    why_move: last_close.and_then(|c| {
                        c.moves
                            .iter()
                            .find(|m| m.player.0 == r.player)
                            .map(|m| l.explain_move(m).into())
                    }),
                    r: r.clone(),
                })
                .collect();
            let round = l.open_round().map(|r| views::round_view(l, id, r, now));
            let rules_versions = l
                .rules
                .iter()
                .map(|rv| {
                    if rv.reason.is_empty() {
                        format!("from round {}", rv.from_round)
                    } else {
                        format!("from round {}: {}", rv.from_round, rv.reason)
                    }
                })
                .collect();
            LadderPage {
                chrome: Chrome::competition(
                    v.name.clone(),
                    id,
                    &v.name,
                    Kind::TwsLadder,
                    &format!("/c/{id}"),
                ),
                id: id.to_string(),
                rows,
                round,
                rounds: round_links(l),
                rules_versions,
                podium: ladder_top(&v, id),
                v,
            }
        })
        .await?;
    render(&page)
}

#[derive(Debug, Template)]
#[template(path = "round.html")]
struct RoundPage {
    chrome: Chrome,
    id: String,
    ladder: String,
    r: RoundView,
    close: Option<CloseView>,
    previous: Option<u32>,
    next: Option<u32>,
}

/// `GET /c/{id}/rounds/{n}`: a round of a ladder, its games and why, and
/// its close with every move explained.
pub(crate) async fn round(
    State(state): State<AppState>,
    Path((id, n)): Path<(String, String)>,
) -> Result<Response, PageError> {
    check_ladder(&state, &id).await?;
    let n = number(&n)?;
    // A game past its deadline and not played is overdue at this time.
    let now = state.now();
    let page = state
        .service
        .read_as::<Ladder, _>(&id, |l, _| {
            let r = l.rounds.iter().find(|r| r.number == n)?;
            let view = views::round_view(l, &id, r, now);
            let title = format!("Round {n} of {}", l.name);
            Some(RoundPage {
                chrome: Chrome::competition(title, &id, &l.name, Kind::TwsLadder, ""),
                id: id.clone(),
                ladder: l.name.clone(),
                close: r.closed.as_deref().map(|c| views::close_view(l, c)),
                previous: l.rounds.iter().any(|x| x.number + 1 == n).then(|| n - 1),
                next: l.rounds.iter().any(|x| x.number == n + 1).then_some(n + 1),
                r: view,
            })
        })
        .await?
        .ok_or_else(not_found_page)?;
    render(&page)
}

/// A game in a player's results over time.
#[derive(Debug)]
struct ResultLine {
    game: String,
    name: String,
    date: String,
    side: &'static str,
    /// "won", "lost", "tie".
    outcome: &'static str,
    /// Wins minus losses after this game.
    balance: i64,
}

#[derive(Debug, Template)]
#[template(path = "player.html")]
struct PlayerPage {
    chrome: Chrome,
    id: String,
    ladder: String,
    p: PlayerView,
    results: Vec<ResultLine>,
    results_chart: Option<Svg>,
    rung_chart: Option<Svg>,
    sides_chart: Svg,
}

/// His results in the order they were recorded, with the running balance.
fn results_of(p: &PlayerView) -> Vec<ResultLine> {
    let mut games: Vec<&GameView> = p.games.iter().filter(|g| g.result.is_some()).collect();
    games.sort_by(|a, b| {
        let at = |g: &GameView| g.result.as_ref().map(|r| r.recorded.clone());
        at(a).cmp(&at(b))
    });
    let mut balance = 0i64;
    games
        .into_iter()
        .filter_map(|g| {
            let r = g.result.as_ref()?;
            let outcome = match &r.winner {
                None => "tie",
                Some(w) if *w == p.name => "won",
                Some(_) => "lost",
            };
            balance += match outcome {
                "won" => 1,
                "lost" => -1,
                _ => 0,
            };
            Some(ResultLine {
                game: g.id.clone(),
                name: g.name.clone(),
                date: r.recorded.get(..10).unwrap_or(&r.recorded).to_string(),
                side: if g.ussr == p.name { "USSR" } else { "US" },
                outcome,
                balance,
            })
        })
        .collect()
}

/// `GET /c/{id}/players/{name}`: a player of a ladder, by his name (the
/// ladder's pages came first; its tables link them so).
pub(crate) async fn player(
    state: AppState,
    id: String,
    name: String,
) -> Result<Response, PageError> {
    // A game past its deadline and not played is overdue at this time.
    let now = state.now();
    let found = state
        .service
        .read_as::<Ladder, _>(&id, |l, _| {
            let p = l.find(&name)?;
            Some((l.name.clone(), views::player_view(l, p, now)?))
        })
        .await?;
    let Some((ladder, p)) = found else {
        return Err(PageError::NotFound(format!(
            "There is no player “{name}” in this ladder."
        )));
    };
    let results = results_of(&p);
    let results_chart = (!results.is_empty()).then(|| {
        let points: Vec<Point> = results
            .iter()
            .map(|r| Point {
                label: r.game.clone(),
                y: r.balance,
                colour: match r.outcome {
                    "won" => svg::WON,
                    "lost" => svg::LOST,
                    _ => svg::TIE,
                },
                tip: format!(
                    "{} {} ({}, {}): {}, balance {}",
                    r.game, r.name, r.side, r.date, r.outcome, r.balance
                ),
            })
            .collect();
        svg::line_chart(
            "results",
            &format!("Results of {} over time", p.name),
            &format!(
                "Wins minus losses after each of {}'s {} games with a result, in the order they were recorded; the last balance is {}.",
                p.name,
                results.len(),
                results.last().map_or(0, |r| r.balance)
            ),
            "wins − losses",
            &points,
            false,
        )
    });
    // The first point is where the player stood going into his first
    // round's close (where he entered the ladder, in order of entry: TWS
    // Change of Ladder Standings), so that "after round 1: rung 1" reads as
    // "stayed on rung 1", not as a jump to the top (issue 17).
    let start = p
        .moves
        .first()
        .filter(|m| m.to > 0 && m.from > 0)
        .map(|m| Point {
            label: "start".into(),
            y: i64::from(m.from),
            colour: svg::TIE,
            tip: format!(
                "start, before the close of round {}: rung {}",
                m.round, m.from
            ),
        });
    let after_rounds = p.moves.iter().filter(|m| m.to > 0).map(|m| Point {
        label: format!("R{}", m.round),
        y: i64::from(m.to),
        colour: svg::TIE,
        tip: format!("after round {}: rung {} ({})", m.round, m.to, m.change),
    });
    let on_ladder: Vec<Point> = start.into_iter().chain(after_rounds).collect();
    let rung_chart = (!on_ladder.is_empty()).then(|| {
        let first_round = p.moves.first().map_or(1, |m| m.round);
        svg::line_chart(
            "rungs",
            &format!("Rung of {} after each round", p.name),
            &format!(
                "The first point, start, is the rung {name} held going into the close of round {first_round}, \
                 the first round on the ladder; each later point, R and a round's number, is the rung {name} held after the close of that round; \
                 rung 1 is at the top.",
                name = p.name
            ),
            "rung",
            &on_ladder,
            true,
        )
    });
    let sides_chart = svg::bar_chart(
        "sides",
        &format!("Sides {} played in ladder games", p.name),
        &format!(
            "{} ladder games as the USSR and {} as the US.",
            p.ladder_ussr, p.ladder_us
        ),
        &[Bar {
            label: "Ladder games".into(),
            segments: vec![
                (p.ladder_ussr, svg::USSR, "as the USSR"),
                (p.ladder_us, svg::US, "as the US"),
            ],
        }],
    );
    render(&PlayerPage {
        chrome: Chrome::competition(p.name.clone(), &id, &ladder, Kind::TwsLadder, ""),
        id,
        ladder,
        p,
        results,
        results_chart,
        rung_chart,
        sides_chart,
    })
}

/// A line of a results table and its bar.
#[derive(Debug)]
struct TallyLine {
    label: String,
    t: TallyView,
}

#[derive(Debug, Template)]
#[template(path = "stats.html")]
struct StatsPage {
    chrome: Chrome,
    id: String,
    name: String,
    s: StatsView,
    quick: Vec<QuickLineView>,
    sides: Vec<TallyLine>,
    sides_chart: Svg,
    bid_chart: Svg,
    end_chart: Svg,
    turn_chart: Svg,
}

fn tally_bar(label: &str, t: &TallyView) -> Bar {
    Bar {
        label: label.to_string(),
        segments: vec![
            (t.ussr_wins, svg::USSR, "USSR wins"),
            (t.us_wins, svg::US, "US wins"),
            (t.ties, svg::TIE, "ties"),
        ],
    }
}

/// `GET /c/{id}/stats`: results by side, by bid and by how games ended,
/// and every player's record.
pub(crate) async fn stats(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, PageError> {
    check_ladder(&state, &id).await?;
    let (name, s, quick) = state
        .service
        .read_as::<Ladder, _>(&id, |l, _| {
            (l.name.clone(), views::stats_view(l), views::quick_view(l))
        })
        .await?;
    let sides = vec![
        TallyLine {
            label: "Ladder games".into(),
            t: s.ladder_games.clone(),
        },
        TallyLine {
            label: "Quick-round games".into(),
            t: s.quick_round_games.clone(),
        },
        TallyLine {
            label: "All games".into(),
            t: s.all_games.clone(),
        },
    ];
    let sides_chart = svg::bar_chart(
        "by-side",
        "Results by side",
        &format!(
            "Of {} games with a result, the USSR won {}, the US won {} and {} were ties.",
            s.all_games.games, s.all_games.ussr_wins, s.all_games.us_wins, s.all_games.ties
        ),
        &sides
            .iter()
            .map(|l| tally_bar(&l.label, &l.t))
            .collect::<Vec<_>>(),
    );
    let bid_chart = svg::bar_chart(
        "by-bid",
        "Results by bid",
        "Wins of each side and ties for each bid played.",
        &s.by_bid
            .iter()
            .map(|l| tally_bar(&l.label, &l.tally))
            .collect::<Vec<_>>(),
    );
    let end_chart = svg::bar_chart(
        "by-end",
        "How games ended",
        "Wins of each side and ties for each way a game ended.",
        &s.by_end
            .iter()
            .map(|l| tally_bar(&l.label, &l.tally))
            .collect::<Vec<_>>(),
    );
    let turn_chart = svg::bar_chart(
        "by-turn",
        "Game lengths",
        "Wins of each side and ties by the turn a game ended in, for the games whose result gives it.",
        &s.by_turn
            .iter()
            .map(|l| tally_bar(&l.label, &l.tally))
            .collect::<Vec<_>>(),
    );
    render(&StatsPage {
        chrome: Chrome::competition(
            format!("Statistics of {name}"),
            &id,
            &name,
            Kind::TwsLadder,
            &format!("/c/{id}/stats"),
        ),
        id,
        name,
        s,
        quick,
        sides,
        sides_chart,
        bid_chart,
        end_chart,
        turn_chart,
    })
}

/// The players index (`/c/{id}/players`): the members by rung, with their
/// ladder record and what they do in the running round, then the inactive
/// list, the applicants and everyone else the ladder has known.
pub(crate) fn index(ladder: &Ladder, id: &str) -> Vec<crate::pages::players_index::IndexLine> {
    use crate::pages::players_index::{IndexLine, record};
    let v = views::ladder_view(ladder, id, 0);
    let mut by_name: std::collections::HashMap<String, String> =
        crate::formats::WebFormat::search_players(ladder, id)
            .into_iter()
            .collect();
    let all: Vec<String> = ladder
        .players
        .iter()
        .map(|p| p.player.name.clone())
        .collect();
    let mut take = |name: &str| {
        by_name
            .remove(name)
            .map(|href| IndexLine::named(name.to_string(), href))
    };
    let mut lines = Vec::new();
    for r in &v.rungs {
        if let Some(mut l) = take(&r.name) {
            l.standing = format!("rung {}", r.rung);
            l.record = record(&[
                ("won", r.ladder.wins),
                ("lost", r.ladder.losses),
                ("tied", r.ladder.ties),
            ]);
            l.note = r.round_status.clone();
            lines.push(l);
        }
    }
    for (names, word) in [(&v.inactive, "inactive list"), (&v.applicants, "applicant")] {
        for name in names {
            if let Some(mut l) = take(name) {
                l.note = word.to_string();
                lines.push(l);
            }
        }
    }
    for name in &all {
        if let Some(l) = take(name) {
            lines.push(l);
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::moved;

    #[test]
    fn a_move_reads_in_words_on_the_podium() {
        assert_eq!(moved("+2"), " · up 2");
        assert_eq!(moved("-1"), " · down 1");
        assert_eq!(moved("="), " · held");
        assert_eq!(moved("new"), " · new");
        assert_eq!(moved(""), "");
    }
}
