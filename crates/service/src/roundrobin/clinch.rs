//! What is still possible in a round-robin league (issue 16 §2; ARB-R47,
//! ARB-R69): each player against the zones its rules give (the title, the
//! top and bottom places of `top` and `bottom`), through the engine's
//! exact search ([`arbiter_engine::roundrobin::clinch`]), each verdict
//! with its reason in points where the points alone prove it.

use arbiter_engine::clinch::Analysis;
use arbiter_engine::model::PlayerId;
use arbiter_engine::roundrobin::RoundRobin;
use arbiter_engine::roundrobin::clinch::{Budget, analyse_league};

use crate::clinch::{ClinchView, Counting, RULING, Score, TitleWords, group_view};

/// The clinch view of a round-robin league, searched within `budget`.
pub fn round_robin_clinch(
    rr: &RoundRobin,
    competition: &str,
    version: u64,
    budget: Budget,
) -> ClinchView {
    let mut view = ClinchView {
        competition: competition.to_string(),
        version,
        format: "round-robin".to_string(),
        season: None,
        ruling: RULING.to_string(),
        groups: Vec::new(),
        note: None,
    };
    if rr.started.is_none() {
        view.note = Some("Play has not started: every place is open.".to_string());
        return view;
    }
    if rr.is_finished() {
        view.note = Some("Every game has a result: the table is final.".to_string());
        return view;
    }
    let analysis: Analysis<PlayerId> = analyse_league(rr, budget);
    let points = &rr.rules.points;
    let facts = arbiter_engine::roundrobin::table::Facts::new(rr);
    // Points now, and the most and least a player's games left can add: a
    // game left is won or lost over the board or by forfeit.
    let best_game = i64::from(points.win.max(points.draw).max(points.forfeit_win));
    let worst_game = i64::from(points.loss.min(points.draw).min(points.forfeit_loss));
    let scores: Vec<Score> = analysis
        .players
        .iter()
        .map(|&p| {
            let now = facts.line(p).map_or(0, |l| l.points);
            let left = rr
                .games_of(p)
                .filter(|g| rr.counted_score(g).is_none())
                .count();
            Score {
                now,
                best: now + best_game * left as i64,
                worst: now + worst_game * left as i64,
                left,
            }
        })
        .collect();
    let shown: Vec<String> = scores.iter().map(|s| points.show(s.now)).collect();
    let unit = *points;
    let counting = Counting {
        scores,
        say: Some(Box::new(move |u: i64| {
            let text = unit.show(u);
            if text == "1" {
                "1 point".to_string()
            } else {
                format!("{text} points")
            }
        })),
        die: "a drawing of lots",
    };
    let title = TitleWords {
        key: "title",
        name: None,
        clause: &rr.rules.regulation,
    };
    let now_text = |i: usize| shown.get(i).cloned().unwrap_or_default();
    let name = |p: PlayerId| rr.name_of(p);
    view.groups.push(group_view(
        "league".to_string(),
        rr.name.clone(),
        &analysis,
        &counting,
        &now_text,
        &name,
        &title,
    ));
    view
}
