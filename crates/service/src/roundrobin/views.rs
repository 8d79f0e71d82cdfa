//! The views of a round-robin league (`--json`, the API, the pages): the
//! table with each place explained by its criterion and figures
//! (ARB-R67), the rounds and their games, the lots drawn; and its CSV
//! tables and forum text.

use arbiter_engine::roundrobin::{RoundRobin, Tiebreak};
use serde::Serialize;

use crate::csv::{Cell, Table as CsvTable};
use crate::forum::{Markup, escape};
use crate::views::ExplanationView;

/// A tiebreak's value for one row.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct CriterionValueView {
    /// The criterion's id in the rules file ("h2h-points").
    pub criterion: String,
    /// As users read it ("" where the criterion waits for results).
    pub value: String,
}

/// One line of the table.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct RoundRobinRowView {
    /// Tied players share a place.
    pub place: usize,
    pub player: String,
    pub played: u32,
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
    pub forfeits: u32,
    pub scored: i64,
    pub conceded: i64,
    pub difference: i64,
    /// As users read them ("5½").
    pub points: String,
    pub tiebreaks: Vec<CriterionValueView>,
    pub withdrawn: bool,
    pub explanation: ExplanationView,
}

/// A game of the schedule.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct RoundRobinGameView {
    /// "G1": what input accepts.
    pub label: String,
    pub round: u32,
    /// Home team, or White.
    pub home: String,
    pub away: String,
    /// "2-1", "½-½", "+:-"; absent until played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minutes: Option<u32>,
    /// The result counts as a forfeit because a player withdrew (ARB-R68).
    pub forfeited_by_withdrawal: bool,
}

/// A round.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct RoundRobinRoundView {
    pub number: u32,
    /// RFC 3339, when set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deadline: Option<String>,
    pub games: Vec<RoundRobinGameView>,
    /// Who sits the round out (an odd number of players).
    pub byes: Vec<String>,
}

/// A drawing of lots.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct RoundRobinLotView {
    /// Best first.
    pub order: Vec<String>,
    /// "drawn from the seed committed at the start (…)" or the organizer's words.
    pub how: String,
    /// The revealed seed (hex), when drawn from it: anyone can check it
    /// against the start's commitment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
}

/// A round-robin league.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct RoundRobinView {
    pub competition: String,
    pub version: u64,
    pub format: String,
    pub name: String,
    /// What the rules reproduce ("FIFA World Cup Qatar 2022 Regulations …").
    pub regulation: String,
    /// "3 for a win, 1 for a draw, 0 for a loss".
    pub points: String,
    /// The criteria after points, in order (their ids).
    pub tiebreaks: Vec<String>,
    /// How head-to-head is re-applied: once, restart or block.
    pub head_to_head: String,
    /// 1 single, 2 double round robin …
    pub cycles: u32,
    /// Results carry scores (goals); otherwise win/draw/loss.
    pub scores: bool,
    pub players: Vec<String>,
    pub started: bool,
    pub finished: bool,
    pub games_played: usize,
    pub games: usize,
    pub table: Vec<RoundRobinRowView>,
    pub rounds: Vec<RoundRobinRoundView>,
    pub lots: Vec<RoundRobinLotView>,
    /// How the games ended, goals, records, each player's form and runs.
    pub statistics: super::stats::RoundRobinStatsView,
    /// Where the rules come from, for every explanation.
    pub ruling: String,
}

/// "3 for a win, 1 for a draw, 0 for a loss".
pub fn points_words(rr: &RoundRobin) -> String {
    let p = rr.rules.points;
    let show = |u: u32| p.show(i64::from(u));
    let mut s = format!(
        "{} for a win, {} for a draw, {} for a loss",
        show(p.win),
        show(p.draw),
        show(p.loss)
    );
    if p.forfeit_win != p.win || p.forfeit_loss != p.loss {
        s.push_str(&format!(
            "; a forfeit {} to the winner, {} to the loser",
            show(p.forfeit_win),
            show(p.forfeit_loss)
        ));
    }
    s
}

/// The view of a league at `version`.
pub fn round_robin_view(rr: &RoundRobin, competition: &str, version: u64) -> RoundRobinView {
    let table = rr.table();
    let criteria: Vec<Tiebreak> = rr.rules.tiebreaks.clone();
    let rows = table
        .rows
        .iter()
        .map(|r| {
            let l = &r.line;
            RoundRobinRowView {
                place: r.place,
                player: l.name.clone(),
                played: l.played,
                won: l.won,
                drawn: l.drawn,
                lost: l.lost,
                forfeits: l.forfeits,
                scored: l.scored,
                conceded: l.conceded,
                difference: l.scored - l.conceded,
                points: rr.rules.points.show(l.points),
                tiebreaks: criteria
                    .iter()
                    .zip(&r.columns)
                    .map(|(c, v)| CriterionValueView {
                        criterion: c.id().to_string(),
                        value: v.clone(),
                    })
                    .collect(),
                withdrawn: l.withdrawn,
                explanation: r.explanation.clone().into(),
            }
        })
        .collect();
    let rounds = rr
        .rounds
        .iter()
        .map(|round| RoundRobinRoundView {
            number: round.number,
            deadline: round.deadline.map(|d| d.to_rfc3339()),
            games: round
                .games
                .iter()
                .filter_map(|id| rr.game(*id))
                .map(|g| {
                    let counted = rr.counted_score(g);
                    RoundRobinGameView {
                        label: format!("G{}", g.id),
                        round: g.round,
                        home: rr.name_of(g.home),
                        away: rr.name_of(g.away),
                        score: counted.map(|s| s.show()),
                        minutes: g.minutes,
                        forfeited_by_withdrawal: g.score.is_none() && counted.is_some(),
                    }
                })
                .collect(),
            byes: round.byes.iter().map(|p| rr.name_of(*p)).collect(),
        })
        .collect();
    let games_played = rr
        .games
        .iter()
        .filter(|g| rr.counted_score(g).is_some())
        .count();
    RoundRobinView {
        competition: competition.to_string(),
        version,
        format: "round-robin".to_string(),
        name: rr.name.clone(),
        regulation: rr.rules.regulation.clone(),
        points: points_words(rr),
        tiebreaks: criteria.iter().map(|c| c.id().to_string()).collect(),
        head_to_head: rr.rules.head_to_head.id().to_string(),
        cycles: rr.rules.cycles,
        scores: rr.rules.scores,
        players: rr.entrants.iter().map(|e| e.name.clone()).collect(),
        started: rr.started.is_some(),
        finished: rr.started.is_some() && rr.is_finished(),
        games_played,
        games: rr.games.len(),
        table: rows,
        rounds,
        lots: rr
            .lots
            .iter()
            .map(|l| RoundRobinLotView {
                order: l.order.iter().map(|p| rr.name_of(*p)).collect(),
                how: l.how.clone(),
                seed: l.seed.map(hex::encode),
            })
            .collect(),
        statistics: super::stats::round_robin_stats(rr),
        ruling: "ARB-R67".to_string(),
    }
}

/// The standings as a CSV table: one row per player, each tiebreak a
/// column named by its id.
pub fn standings_table(v: &RoundRobinView) -> CsvTable {
    let mut header: Vec<&'static str> = vec![
        "place",
        "player",
        "played",
        "won",
        "drawn",
        "lost",
        "forfeits",
        "scored",
        "conceded",
        "difference",
        "points",
    ];
    // A tiebreak already a column of its own (difference, scored, wins)
    // is not repeated.
    let shown: Vec<bool> = v
        .tiebreaks
        .iter()
        .map(|t| !header.contains(&t.as_str()) && t != "wins")
        .collect();
    let ids: Vec<&'static str> = v
        .tiebreaks
        .iter()
        .zip(&shown)
        .filter(|(_, s)| **s)
        .filter_map(|(t, _)| Tiebreak::parse(t).map(Tiebreak::id))
        .collect();
    header.extend(ids.iter().copied());
    header.extend(["withdrawn", "explanation"]);
    let mut t = CsvTable::new(&header);
    for r in &v.table {
        let mut cells: Vec<Cell> = vec![
            r.place.into(),
            (&r.player).into(),
            r.played.into(),
            r.won.into(),
            r.drawn.into(),
            r.lost.into(),
            r.forfeits.into(),
            r.scored.into(),
            r.conceded.into(),
            r.difference.into(),
            (&r.points).into(),
        ];
        cells.extend(
            r.tiebreaks
                .iter()
                .zip(&shown)
                .filter(|(_, s)| **s)
                .map(|(c, _)| Cell::from(&c.value)),
        );
        cells.push(r.withdrawn.into());
        cells.push(r.explanation.line().into());
        t.push(cells);
    }
    t
}

/// Every game as a CSV table, in schedule order.
pub fn results_table(v: &RoundRobinView) -> CsvTable {
    let mut t = CsvTable::new(&["game", "round", "home", "away", "score", "minutes"]);
    for g in v.rounds.iter().flat_map(|r| r.games.iter()) {
        t.push(vec![
            (&g.label).into(),
            g.round.into(),
            (&g.home).into(),
            (&g.away).into(),
            g.score.clone().into(),
            g.minutes.into(),
        ]);
    }
    t
}

/// The table for a forum post (BBCode or Markdown): the places, the
/// points and the reason of every place decided by a tiebreak.
pub fn forum_table(markup: Markup, v: &RoundRobinView) -> String {
    let mut out = String::new();
    let bold = |s: &str| match markup {
        Markup::BbCode => format!("[b]{s}[/b]"),
        Markup::Markdown => format!("**{s}**"),
    };
    out.push_str(&bold(&escape(markup, &v.name)));
    out.push('\n');
    out.push_str(&format!(
        "{} of {} games played. Points: {}.\n\n",
        v.games_played, v.games, v.points
    ));
    let header = ["#", "Player", "P", "W", "D", "L", "+", "-", "Pts"];
    let lines: Vec<[String; 9]> = v
        .table
        .iter()
        .map(|r| {
            [
                r.place.to_string(),
                escape(markup, &r.player),
                r.played.to_string(),
                r.won.to_string(),
                r.drawn.to_string(),
                r.lost.to_string(),
                r.scored.to_string(),
                r.conceded.to_string(),
                r.points.clone(),
            ]
        })
        .collect();
    match markup {
        Markup::Markdown => {
            out.push_str(&format!("| {} |\n", header.join(" | ")));
            out.push_str(&format!("|{}\n", "---|".repeat(header.len())));
            for l in &lines {
                out.push_str(&format!("| {} |\n", l.join(" | ")));
            }
        }
        Markup::BbCode => {
            out.push_str("[table]\n");
            out.push_str(&format!(
                "[tr]{}[/tr]\n",
                header.map(|h| format!("[th]{h}[/th]")).concat()
            ));
            for l in &lines {
                let cells: String = l.iter().map(|c| format!("[td]{c}[/td]")).collect();
                out.push_str(&format!("[tr]{cells}[/tr]\n"));
            }
            out.push_str("[/table]\n");
        }
    }
    out.push('\n');
    for r in &v.table {
        out.push_str(&format!("{}\n", escape(markup, &r.explanation.text)));
    }
    out
}
