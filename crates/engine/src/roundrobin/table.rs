//! The table of a round-robin league: points, then the rules' tiebreaks
//! from the catalogue, each evaluated on the players still tied (ARB-R67),
//! on the shared [`Cascade`] with the head-to-head re-applied as the rules
//! say (once, XMadn's restart, or UEFA's block). Every place carries its
//! explanation: the criterion and the figures that decided it.

use std::collections::HashMap;

use crate::Explanation;
use crate::cascade::{Block, Cascade, Criterion, Origin, Ranking, Restart};
use crate::explain::ordinal;
use crate::model::PlayerId;
use crate::tiebreak::{self, Results};

use super::rules::show_units;
use super::{HeadToHead, RoundRobin, RoundRobinRules, Score, Seat, Tiebreak};

const CLAUSE: &str = "Round robin: the table";
const RULINGS: &[&str] = &["ARB-R67"];

/// One game from one player's side, as the table counts it: the shared
/// catalogue's model ([`crate::tiebreak::Side`]) in the rules' points.
pub type Side = tiebreak::Side<i64>;

/// A game's two sides as the table counts them, home first.
pub fn sides(rules: &RoundRobinRules, score: Score) -> (Outcome, Outcome) {
    let p = rules.points;
    let (fw, fl) = rules.forfeit_score.unwrap_or((0, 0));
    let (w, d, l) = (i64::from(p.win), i64::from(p.draw), i64::from(p.loss));
    let (ffw, ffl) = (i64::from(p.forfeit_win), i64::from(p.forfeit_loss));
    let o = |points, scored: u32, conceded: u32, won, drawn, forfeit| Outcome {
        points,
        scored: i64::from(scored),
        conceded: i64::from(conceded),
        won,
        drawn,
        forfeit,
    };
    match score {
        Score::Goals { home, away } if home > away => (
            o(w, home, away, true, false, false),
            o(l, away, home, false, false, false),
        ),
        Score::Goals { home, away } if home < away => (
            o(l, home, away, false, false, false),
            o(w, away, home, true, false, false),
        ),
        Score::Goals { home, away } => (
            o(d, home, away, false, true, false),
            o(d, away, home, false, true, false),
        ),
        Score::Won(Seat::Home) => (
            o(w, 0, 0, true, false, false),
            o(l, 0, 0, false, false, false),
        ),
        Score::Won(Seat::Away) => (
            o(l, 0, 0, false, false, false),
            o(w, 0, 0, true, false, false),
        ),
        Score::Drawn => (
            o(d, 0, 0, false, true, false),
            o(d, 0, 0, false, true, false),
        ),
        Score::Forfeit {
            winner: Some(Seat::Home),
        } => (
            o(ffw, fw, fl, true, false, true),
            o(ffl, fl, fw, false, false, true),
        ),
        Score::Forfeit {
            winner: Some(Seat::Away),
        } => (
            o(ffl, fl, fw, false, false, true),
            o(ffw, fw, fl, true, false, true),
        ),
        Score::Forfeit { winner: None } => (
            o(ffl, 0, 0, false, false, true),
            o(ffl, 0, 0, false, false, true),
        ),
    }
}

/// What one side of a game counts for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    pub points: i64,
    pub scored: i64,
    pub conceded: i64,
    pub won: bool,
    pub drawn: bool,
    pub forfeit: bool,
}

/// A player's line of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub player: PlayerId,
    pub name: String,
    /// Games decided (forfeits included).
    pub played: u32,
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
    /// Of those, forfeits (won or lost).
    pub forfeits: u32,
    pub scored: i64,
    pub conceded: i64,
    /// In the rules' units (`points.scale` per point).
    pub points: i64,
    /// Games that count for him, decided or not.
    pub scheduled: u32,
    pub withdrawn: bool,
}

/// One row: the place (tied players share one), the line, each
/// criterion's value as the cascade evaluated it on the whole table
/// (shown in the columns), and the explanation of the place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub place: usize,
    pub line: Line,
    /// The tiebreaks' values over the whole table, in the rules' order,
    /// shown as users read them ("" where a criterion waits).
    pub columns: Vec<String>,
    pub explanation: Explanation,
}

/// The table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    pub rows: Vec<Row>,
    pub ranking: Ranking<PlayerId>,
    /// The criteria in cascade order: points first, then the tiebreaks.
    pub criteria: Vec<Option<Tiebreak>>,
}

/// The facts every criterion reads, computed once per table.
#[derive(Debug)]
pub struct Facts<'a> {
    pub league: &'a RoundRobin,
    pub players: Vec<PlayerId>,
    /// By slot ([`slot`]): the line of each player in the table, `None`
    /// for an entrant who is not. Vectors rather than maps: the
    /// projection builds facts once per simulated season (ARB-R70).
    lines: Vec<Option<Line>>,
    /// Every counted game from each side, by slot.
    games: Vec<Vec<Side>>,
}

/// Where a player is in the per-entrant vectors of [`Facts`] (past their
/// end for an id that names nobody, 0 included).
fn slot(p: PlayerId) -> usize {
    (p.0 as usize).wrapping_sub(1)
}

impl<'a> Facts<'a> {
    pub fn new(league: &'a RoundRobin) -> Self {
        let players = league.in_table();
        let mut lines: Vec<Option<Line>> = vec![None; league.entrants.len()];
        for &p in &players {
            if let Some(l) = lines.get_mut(slot(p)) {
                *l = Some(Line {
                    player: p,
                    name: league.name_of(p),
                    played: 0,
                    won: 0,
                    drawn: 0,
                    lost: 0,
                    forfeits: 0,
                    scored: 0,
                    conceded: 0,
                    points: 0,
                    scheduled: 0,
                    withdrawn: league.entrants[p.index()].withdrawal.is_some(),
                });
            }
        }
        // Each player's sides sized once for a full round robin (every
        // other player met `cycles` times): the projection builds facts
        // once per simulated season (ARB-R70).
        let each = players
            .len()
            .saturating_sub(1)
            .saturating_mul(league.rules.cycles as usize);
        let mut games: Vec<Vec<Side>> = lines
            .iter()
            .map(|l| {
                if l.is_some() {
                    Vec::with_capacity(each)
                } else {
                    Vec::new()
                }
            })
            .collect();
        for g in &league.games {
            if !league.counts(g.home) || !league.counts(g.away) {
                continue;
            }
            for p in [g.home, g.away] {
                if let Some(Some(l)) = lines.get_mut(slot(p)) {
                    l.scheduled += 1;
                }
            }
            let Some(score) = league.counted_score(g) else {
                continue;
            };
            let (home, away) = sides(&league.rules, score);
            for (p, o, opp) in [(g.home, home, g.away), (g.away, away, g.home)] {
                if let Some(Some(l)) = lines.get_mut(slot(p)) {
                    l.played += 1;
                    l.won += u32::from(o.won);
                    l.drawn += u32::from(o.drawn);
                    l.lost += u32::from(!o.won && !o.drawn);
                    l.forfeits += u32::from(o.forfeit);
                    l.scored += o.scored;
                    l.conceded += o.conceded;
                    l.points += o.points;
                }
                if let Some(Some(_)) = lines.get(slot(p))
                    && let Some(v) = games.get_mut(slot(p))
                {
                    v.push(Side {
                        opponent: opp,
                        points: o.points,
                        score: Some(tiebreak::Score {
                            scored: o.scored,
                            conceded: o.conceded,
                        }),
                        won: o.won,
                        drawn: o.drawn,
                        forfeit: o.forfeit,
                        minutes: if score.is_played() { g.minutes } else { None },
                    });
                }
            }
        }
        Facts {
            league,
            players,
            lines,
            games,
        }
    }

    pub fn line(&self, p: PlayerId) -> Option<&Line> {
        self.lines.get(slot(p)).and_then(Option::as_ref)
    }

    fn points(&self, p: PlayerId) -> i64 {
        self.line(p).map_or(0, |l| l.points)
    }

    fn sides_of(&self, p: PlayerId) -> &[Side] {
        self.games.get(slot(p)).map_or(&[], Vec::as_slice)
    }

    /// One criterion on a tied subset (higher ranks higher), or `None`
    /// while it cannot be evaluated: the shared catalogue's implementation
    /// of each ([`crate::tiebreak`]), whatever the format that lists it.
    pub fn value(&self, criterion: Option<Tiebreak>, subset: &[PlayerId]) -> Option<Vec<i64>> {
        use tiebreak::each;
        match criterion {
            None => each(subset, |p| Some(tiebreak::points(self, p))),
            Some(Tiebreak::HeadToHeadPoints) => each(subset, |p| {
                Some(tiebreak::head_to_head_points(self, p, subset))
            }),
            Some(Tiebreak::HeadToHeadDifference) => each(subset, |p| {
                tiebreak::head_to_head_difference(self, p, subset)
            }),
            Some(Tiebreak::HeadToHeadScored) => {
                each(subset, |p| tiebreak::head_to_head_scored(self, p, subset))
            }
            Some(Tiebreak::Difference) => each(subset, |p| tiebreak::difference(self, p)),
            Some(Tiebreak::Scored) => each(subset, |p| tiebreak::scored(self, p)),
            Some(Tiebreak::Wins) => each(subset, |p| Some(tiebreak::wins(self, p))),
            Some(Tiebreak::SonnebornBerger | Tiebreak::Sodos) => {
                each(subset, |p| Some(tiebreak::sonneborn_berger(self, p)))
            }
            Some(Tiebreak::Koya) => {
                // Half the points his games could give: a win's points for
                // every game scheduled (ARB-R67).
                let win = i64::from(self.league.rules.points.win);
                let most = |o: PlayerId| self.line(o).map(|l| win * i64::from(l.scheduled));
                each(subset, |p| Some(tiebreak::koya(self, p, most)))
            }
            Some(Tiebreak::Buchholz) => each(subset, |p| Some(tiebreak::buchholz(self, p))),
            Some(Tiebreak::Quickness) => each(subset, |p| tiebreak::quickness_value(self, p)),
            // The latest lot that names every tied player (ARB-R67), the
            // first drawn ranking highest.
            Some(Tiebreak::Lot) => tiebreak::drawn(
                self.league.lots.iter(),
                |l| subset.iter().all(|p| l.order.contains(p)),
                |l, p| Some(-(l.order.iter().position(|q| *q == p).unwrap_or(0) as i64)),
                subset,
            ),
        }
    }

    /// A criterion's value as users read it.
    pub fn show(&self, criterion: Option<Tiebreak>, value: i64) -> String {
        let p = self.league.rules.points;
        let scale = i64::from(p.scale.max(1));
        match criterion {
            None | Some(Tiebreak::HeadToHeadPoints | Tiebreak::Koya | Tiebreak::Buchholz) => {
                show_units(value, scale)
            }
            Some(Tiebreak::HeadToHeadDifference | Tiebreak::Difference) => {
                if value > 0 {
                    format!("+{value}")
                } else {
                    value.to_string()
                }
            }
            Some(Tiebreak::HeadToHeadScored | Tiebreak::Scored | Tiebreak::Wins) => {
                value.to_string()
            }
            Some(Tiebreak::SonnebornBerger | Tiebreak::Sodos) => {
                show_units(value, i64::from(p.win.max(1)) * scale)
            }
            Some(Tiebreak::Quickness) => format!("{} min", -value),
            Some(Tiebreak::Lot) => format!("drawn {}", ordinal((1 - value) as usize)),
        }
    }
}

/// The facts as the shared catalogue reads them: each player's sides, and
/// the sums over them kept in his line (added up from the same outcomes in
/// [`Facts::new`]).
impl Results for Facts<'_> {
    type Player = PlayerId;
    type Units = i64;

    fn sides(&self, p: PlayerId) -> impl Iterator<Item = Side> + '_ {
        self.sides_of(p).iter().copied()
    }

    fn points(&self, p: PlayerId) -> i64 {
        Facts::points(self, p)
    }

    fn score(&self, p: PlayerId) -> Option<tiebreak::Score> {
        Some(self.line(p).map_or(
            tiebreak::Score {
                scored: 0,
                conceded: 0,
            },
            |l| tiebreak::Score {
                scored: l.scored,
                conceded: l.conceded,
            },
        ))
    }

    fn wins(&self, p: PlayerId) -> i64 {
        self.line(p).map_or(0, |l| i64::from(l.won))
    }
}

fn criterion_name(c: Option<Tiebreak>) -> &'static str {
    c.map_or("points", Tiebreak::name)
}

impl RoundRobin {
    /// The table as it stands.
    pub fn table(&self) -> Table {
        let facts = Facts::new(self);
        table_of(&facts)
    }
}

/// The cascade the rules give: points, then the tiebreaks.
pub fn cascade<'f>(facts: &'f Facts<'f>) -> (Cascade<'f, PlayerId>, Vec<Option<Tiebreak>>) {
    let rules = &facts.league.rules;
    let mut kinds: Vec<Option<Tiebreak>> = vec![None];
    kinds.extend(rules.tiebreaks.iter().copied().map(Some));
    let criteria = kinds
        .iter()
        .map(|&k| Criterion {
            label: k.map_or("", Tiebreak::id),
            name: criterion_name(k),
            eval: Box::new(move |subset: &[PlayerId]| facts.value(k, subset)),
            tolerance: 0,
        })
        .collect();
    let h2h: Vec<usize> = (0..kinds.len())
        .filter(|&i| kinds[i].is_some_and(Tiebreak::is_head_to_head))
        .collect();
    let (restart, block) = match (rules.head_to_head, h2h.first(), h2h.last()) {
        (HeadToHead::Restart, Some(&from), _) => (
            Some(Restart {
                to: from,
                min_tie: 3,
            }),
            None,
        ),
        (HeadToHead::Block, Some(&from), Some(&last)) => (
            None,
            Some(Block {
                from,
                until: last + 1,
            }),
        ),
        _ => (None, None),
    };
    (
        Cascade {
            criteria,
            restart,
            block,
        },
        kinds,
    )
}

fn table_of(facts: &Facts<'_>) -> Table {
    let (cascade, kinds) = cascade(facts);
    let ranking = cascade.rank(&facts.players);
    let whole: HashMap<PlayerId, Vec<String>> = {
        let mut out: HashMap<PlayerId, Vec<String>> =
            facts.players.iter().map(|&p| (p, Vec::new())).collect();
        for &k in &kinds[1..] {
            let values = if k.is_some_and(Tiebreak::is_head_to_head) || k == Some(Tiebreak::Lot) {
                None
            } else {
                facts.value(k, &facts.players)
            };
            for (i, p) in facts.players.iter().enumerate() {
                let shown = values
                    .as_ref()
                    .map_or_else(String::new, |v| facts.show(k, v[i]));
                if let Some(c) = out.get_mut(p) {
                    c.push(shown);
                }
            }
        }
        out
    };
    let rows = ranking
        .order
        .iter()
        .zip(&ranking.places)
        .filter_map(|(&p, &place)| {
            let line = facts.line(p)?.clone();
            Some(Row {
                place,
                explanation: explain(facts, &ranking, &kinds, p, place),
                columns: whole.get(&p).cloned().unwrap_or_default(),
                line,
            })
        })
        .collect();
    Table {
        rows,
        ranking,
        criteria: kinds,
    }
}

fn names(facts: &Facts<'_>, players: &[PlayerId]) -> String {
    let names: Vec<String> = players.iter().map(|&p| facts.league.name_of(p)).collect();
    match names.len() {
        0 => String::new(),
        1 => names[0].clone(),
        n => format!("{} and {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

/// Why `p` holds `place`: his points, and the criterion that put him
/// below the player above and above the player below, with their figures
/// and the tie they were evaluated in.
fn explain(
    facts: &Facts<'_>,
    ranking: &Ranking<PlayerId>,
    kinds: &[Option<Tiebreak>],
    p: PlayerId,
    place: usize,
) -> Explanation {
    let league = facts.league;
    let me = league.name_of(p);
    let points = facts.points(p);
    let mut text = format!(
        "{me} is {} with {} point{}",
        ordinal(place),
        facts.show(None, points),
        if points == i64::from(league.rules.points.scale) {
            ""
        } else {
            "s"
        }
    );
    if let Some(w) = league.entrants[p.index()].withdrawal {
        text.push_str(&format!(
            " (withdrew after {} of {} games; his remaining games count as forfeits, ARB-R68)",
            w.played, w.scheduled
        ));
    }
    text.push('.');
    let mut say = |upper: bool, s: &crate::cascade::Split<PlayerId>| {
        let k = kinds.get(s.step).copied().flatten();
        let other = league.name_of(if upper { s.upper } else { s.lower });
        let (mine, theirs) = if upper {
            (s.lower_value, s.upper_value)
        } else {
            (s.upper_value, s.lower_value)
        };
        let side = if upper { "Behind" } else { "Ahead of" };
        if s.step == 0 {
            text.push_str(&format!(
                " {side} {other} on points ({} against {}).",
                facts.show(None, mine),
                facts.show(None, theirs)
            ));
            return;
        }
        let tied_on = facts.show(None, facts.points(p));
        let among = if k.is_some_and(Tiebreak::is_head_to_head) {
            format!(" in the games among {}", names(facts, &s.among))
        } else if s.among.len() > 2 {
            format!(" among {}", names(facts, &s.among))
        } else {
            String::new()
        };
        let restarted = match &s.origin {
            Origin::Restarted { from, .. } if from.len() > s.among.len() => format!(
                " (the criteria applied again to the players still level, after {} was separated)",
                names(
                    facts,
                    &from
                        .iter()
                        .copied()
                        .filter(|x| !s.among.contains(x))
                        .collect::<Vec<_>>()
                )
            ),
            _ => String::new(),
        };
        text.push_str(&format!(
            " {side} {other} on {}{among}: {} against {}, level on points ({tied_on}){restarted}.",
            criterion_name(k),
            facts.show(k, mine),
            facts.show(k, theirs),
        ));
    };
    if let Some(s) = ranking.split_above(p) {
        say(true, s);
    }
    if let Some(s) = ranking.splits.iter().find(|s| s.upper == p) {
        say(false, s);
    }
    if let Some(t) = ranking.tie_of(p) {
        let others: Vec<PlayerId> = t.players.iter().copied().filter(|&q| q != p).collect();
        match t.pending.and_then(|i| kinds.get(i).copied().flatten()) {
            Some(Tiebreak::Lot) => text.push_str(&format!(
                " Level with {} on every criterion before the drawing of lots, which is due.",
                names(facts, &others)
            )),
            Some(Tiebreak::Quickness) => text.push_str(&format!(
                " Level with {}; quickness of victory waits for the minutes of every game won.",
                names(facts, &others)
            )),
            _ => text.push_str(&format!(
                " Level with {} on every criterion: they share the place.",
                names(facts, &others)
            )),
        }
    }
    text.push_str(&format!(" ({})", league.rules.regulation));
    Explanation::new(CLAUSE, RULINGS, text)
}
