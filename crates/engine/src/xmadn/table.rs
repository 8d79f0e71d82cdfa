//! The league table: overall win-loss records, then the six tiebreaking
//! steps with the restart rule (XMadn League: Table; XM-R2..R5), built on
//! the reusable [`crate::cascade`].
//!
//! The table is computed from [`Fact`]s: the round-robin games with a
//! result. A fact may know only its winner (a hypothetical result in the
//! clinch analysis, [`super::analysis`]); a criterion that needs pawns or
//! times it does not have cannot be evaluated (the tie stays open).
//!
//! Every criterion is the shared catalogue's ([`crate::tiebreak`]) over the
//! facts seen from each player's side ([`Fact::side`]): the record is the
//! points of a win +1 and a loss −1 (ARB-R24), steps 1 and 2 the
//! head-to-head points and difference among the players tied, steps 3 and
//! 4 the difference and scored in counted pawns, step 5 the quickness of
//! the full minutes (XM-R2), step 6 the round of die-roll among exactly the
//! players tied (XM-R3).

use crate::cascade::{Cascade, Criterion, Origin, Ranking, Restart, Split, Unresolved};
use crate::explain::Explanation;
use crate::model::PlayerId;
use crate::tiebreak::{self, Results, Side, each};

use super::Score;
use super::league::{GameStatus, League, LeagueGame, PLAYERS, RollPurpose};

const CLAUSE: &str = "XMadn League: Table";

/// One decided round-robin game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fact {
    pub players: [PlayerId; 2],
    /// Index into `players` of the winner.
    pub winner: usize,
    /// The score, when known.
    pub score: Option<Score>,
}

impl Fact {
    /// The game from `p`'s side, `None` if he did not play it: a win is
    /// +1 point and a loss −1, so that points are the win-loss record
    /// (ARB-R24); the counted pawns for and against (XM-R9) and the time
    /// cut to full minutes (XM-R2) when the score is known.
    #[inline]
    pub fn side(&self, p: PlayerId) -> Option<Side<i64>> {
        let i = self.players.iter().position(|&x| x == p)?;
        let won = self.winner == i;
        Some(Side {
            opponent: self.players[1 - i],
            points: if won { 1 } else { -1 },
            score: self.score.map(|s| tiebreak::Score {
                scored: i64::from(s.pawns[i]),
                conceded: i64::from(s.pawns[1 - i]),
            }),
            won,
            drawn: false,
            forfeit: false,
            minutes: self.score.map(|s| s.full_minutes()),
        })
    }
}

/// The facts as the shared catalogue reads them.
#[derive(Debug, Clone, Copy)]
struct Games<'a>(&'a [Fact]);

impl Results for Games<'_> {
    type Player = PlayerId;
    type Units = i64;

    fn sides(&self, p: PlayerId) -> impl Iterator<Item = Side<i64>> + '_ {
        self.0.iter().filter_map(move |f| f.side(p))
    }
}

/// A player's line in the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub player: PlayerId,
    pub place: usize,
    pub played: u32,
    pub wins: u32,
    pub losses: u32,
    pub pawns_for: u32,
    pub pawns_against: u32,
    /// Full minutes of all victorious games (XM-R2).
    pub win_minutes: u32,
}

impl Row {
    /// The overall win-loss record as one figure: wins minus losses
    /// (ARB-R24: games cancelled by consent count for nothing, XM-R6, so
    /// players may have played different numbers of games).
    pub fn record(&self) -> i64 {
        i64::from(self.wins) - i64::from(self.losses)
    }
}

/// The criteria in order: index 0 is the overall win-loss record, 1..=6 the
/// document's tiebreaking steps.
pub const STEPS: [(&str, &str); 7] = [
    ("", "overall win-loss record"),
    ("1", "head-to-head win-loss record"),
    ("2", "head-to-head counted-pawns difference"),
    ("3", "overall counted-pawns difference"),
    ("4", "overall counted pawns scored"),
    (
        "5",
        "quickness of victory (victorious game times, full minutes)",
    ),
    ("6", "round of die-roll"),
];

/// A tiebreak die roll among a set of players: the faces of its last
/// (separating) round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TieRoll {
    pub players: Vec<PlayerId>,
    pub faces: Vec<(PlayerId, u8)>,
}

/// The table and how it was ordered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// In ranking order.
    pub rows: Vec<Row>,
    pub ranking: Ranking<PlayerId>,
    /// Games remain: the table is provisional (XM-R5).
    pub provisional: bool,
    facts: Vec<Fact>,
    rolls: Vec<TieRoll>,
}

/// The decided round-robin games of a league.
pub fn facts(league: &League) -> Vec<Fact> {
    league
        .round_robin_games()
        .filter_map(|g: &LeagueGame| match &g.status {
            GameStatus::Played { score, .. } => Some(Fact {
                players: g.players,
                winner: score.winner_index(),
                score: Some(*score),
            }),
            _ => None,
        })
        .collect()
}

/// The tiebreak rolls of a league.
pub fn tie_rolls(league: &League) -> Vec<TieRoll> {
    league
        .rolls
        .iter()
        .filter(|r| r.purpose == RollPurpose::Tiebreak)
        .filter_map(|r| {
            Some(TieRoll {
                players: r.players.clone(),
                faces: r.rounds.last()?.clone(),
            })
        })
        .collect()
}

fn same_set(a: &[PlayerId], b: &[PlayerId]) -> bool {
    a.len() == b.len() && a.iter().all(|p| b.contains(p))
}

/// A player's line: his games, wins, losses, counted pawns and the full
/// minutes of his wins, over the facts (the figures of a game whose score is
/// not known count 0).
fn tally(games: Games<'_>, p: PlayerId) -> Row {
    let mut r = Row {
        player: p,
        place: 0,
        played: 0,
        wins: 0,
        losses: 0,
        pawns_for: 0,
        pawns_against: 0,
        win_minutes: 0,
    };
    for s in games.sides(p) {
        r.played += 1;
        if s.won {
            r.wins += 1;
            r.win_minutes += s.minutes.unwrap_or(0);
        } else {
            r.losses += 1;
        }
        let (a, b) = s.score.map_or((0, 0), |x| (x.scored, x.conceded));
        r.pawns_for += a as u32;
        r.pawns_against += b as u32;
    }
    r
}

/// The cascade over `facts` and `rolls` (XM-R4: restart at step 1 when a
/// player is separated from a tie of three or more).
pub fn cascade<'a>(facts: &'a [Fact], rolls: &'a [TieRoll]) -> Cascade<'a, PlayerId> {
    let g = Games(facts);
    let criteria: Vec<Criterion<'a, PlayerId>> = vec![
        // The overall win-loss record (ARB-R24).
        criterion(0, move |set| each(set, |p| Some(tiebreak::points(&g, p)))),
        criterion(1, move |set| {
            each(set, |p| Some(tiebreak::head_to_head_points(&g, p, set)))
        }),
        // Steps 2 to 5 wait for the pawns or times of games whose score is
        // not known (ARB-R26).
        criterion(2, move |set| {
            each(set, |p| tiebreak::head_to_head_difference(&g, p, set))
        }),
        criterion(3, move |set| each(set, |p| tiebreak::difference(&g, p))),
        criterion(4, move |set| each(set, |p| tiebreak::scored(&g, p))),
        // XM-R2: the lower total of full minutes ranks higher.
        criterion(5, move |set| {
            each(set, |p| tiebreak::quickness_value(&g, p))
        }),
        criterion(6, move |set| {
            // XM-R3: the highest roll ranks higher; a roll is made among
            // exactly the players tied at this step.
            tiebreak::drawn(
                rolls.iter(),
                |r| same_set(&r.players, set),
                |r, p| r.faces.iter().find(|f| f.0 == p).map(|f| i64::from(f.1)),
                set,
            )
        }),
    ];
    Cascade {
        criteria,
        restart: Some(Restart { to: 1, min_tie: 3 }),
        block: None,
    }
}

fn criterion<'a>(
    step: usize,
    eval: impl Fn(&[PlayerId]) -> Option<Vec<i64>> + 'a,
) -> Criterion<'a, PlayerId> {
    Criterion {
        label: STEPS[step].0,
        name: STEPS[step].1,
        eval: Box::new(eval),
        tolerance: 0,
    }
}

impl Table {
    /// The table of a league: final once every double round-robin is
    /// concluded, provisional before (XM-R5).
    pub fn of(league: &League) -> Table {
        Table::compute(
            facts(league),
            tie_rolls(league),
            !league.round_robins_concluded(),
        )
    }

    /// The table from facts and rolls.
    pub fn compute(facts: Vec<Fact>, rolls: Vec<TieRoll>, provisional: bool) -> Table {
        let ranking = cascade(&facts, &rolls).rank(&PLAYERS);
        let rows = ranking
            .order
            .iter()
            .zip(&ranking.places)
            .map(|(&p, &place)| Row {
                place,
                ..tally(Games(&facts), p)
            })
            .collect();
        Table {
            rows,
            ranking,
            provisional,
            facts,
            rolls,
        }
    }

    pub fn row(&self, p: PlayerId) -> Option<&Row> {
        self.rows.iter().find(|r| r.player == p)
    }

    /// The tie that needs a round of die-roll (step 6) now: only in a final
    /// table ("once all DRR have been concluded").
    pub fn pending_roll(&self) -> Option<Vec<PlayerId>> {
        if self.provisional {
            return None;
        }
        self.ranking
            .unresolved
            .iter()
            .find(|u| u.pending == Some(6))
            .map(|u| u.players.clone())
    }

    /// A player's figure at a step among a set, in words: "5-3", "+3",
    /// "41 min", "rolled 5".
    fn figure(&self, step: usize, p: PlayerId, among: &[PlayerId]) -> String {
        let g = Games(&self.facts);
        let record = |among: Option<&[PlayerId]>| {
            let (w, l) = g
                .sides(p)
                .filter(|s| among.is_none_or(|a| a.contains(&s.opponent)))
                .fold(
                    (0u32, 0u32),
                    |(w, l), s| {
                        if s.won { (w + 1, l) } else { (w, l + 1) }
                    },
                );
            format!("{w}-{l}")
        };
        let signed = |x: i64| {
            if x > 0 {
                format!("+{x}")
            } else {
                x.to_string()
            }
        };
        // A split at steps 2 to 5 was made on known scores, so these are
        // the figures the cascade compared.
        match step {
            0 => record(None),
            1 => record(Some(among)),
            2 => signed(tiebreak::head_to_head_difference(&g, p, among).unwrap_or(0)),
            3 => signed(tiebreak::difference(&g, p).unwrap_or(0)),
            4 => tiebreak::scored(&g, p).unwrap_or(0).to_string(),
            5 => format!("{} min", tiebreak::quickness(&g, p).unwrap_or(0)),
            _ => self
                .rolls
                .iter()
                .rev()
                .find(|r| same_set(&r.players, among))
                .and_then(|r| r.faces.iter().find(|f| f.0 == p))
                .map_or_else(|| "not rolled".to_string(), |f| format!("rolled {}", f.1)),
        }
    }

    fn names(league: &League, set: &[PlayerId]) -> String {
        let names: Vec<String> = set.iter().map(|p| league.name_of(*p)).collect();
        match names.as_slice() {
            [] => String::new(),
            [one] => one.clone(),
            [init @ .., last] => format!("{} and {last}", init.join(", ")),
        }
    }

    fn origin_words(league: &League, origin: &Origin<PlayerId>, among: &[PlayerId]) -> String {
        match origin {
            Origin::All | Origin::Continued { step: 0 } => String::new(),
            Origin::Continued { step } => format!(
                ", still tied after step {} among {}",
                STEPS[*step].0,
                Table::names(league, among)
            ),
            Origin::Restarted { step, from } => format!(
                ", after the restart at step 1 between {} (separated from the tie of {} at {}; XM-R4)",
                Table::names(league, among),
                Table::names(league, from),
                step_words(*step)
            ),
        }
    }

    /// The explanation of one split: "Baker above Clark: step 2,
    /// head-to-head counted-pawns difference +3 to -3, after the restart at
    /// step 1 between Baker and Clark".
    pub fn explain_split(&self, league: &League, s: &Split<PlayerId>) -> Explanation {
        let mut rulings = vec![];
        match s.step {
            5 => rulings.push("XM-R2"),
            6 => rulings.push("XM-R3"),
            _ => {}
        }
        if matches!(s.origin, Origin::Restarted { .. }) {
            rulings.push("XM-R4");
        }
        if self.provisional {
            rulings.push("XM-R5");
        }
        // A step-6 roll of real dice at the table says so (ARB-R64).
        let entered =
            (s.step == 6)
                .then(|| {
                    league.rolls.iter().rev().find(|r| {
                        r.purpose == RollPurpose::Tiebreak && same_set(&r.players, &s.among)
                    })
                })
                .flatten()
                .and_then(|r| {
                    r.entered_by
                        .as_deref()
                        .map(|by| super::league::entered_words(by, r.at))
                });
        if entered.is_some() {
            rulings.push("ARB-R64");
        }
        let text = format!(
            "{} above {}: {}, {} to {}{}{}{}",
            league.name_of(s.upper),
            league.name_of(s.lower),
            step_words(s.step),
            self.figure(s.step, s.upper, &s.among),
            self.figure(s.step, s.lower, &s.among),
            match s.origin {
                Origin::All | Origin::Continued { step: 0 } if s.step > 0 => format!(
                    ", among {} (level on every step before)",
                    Table::names(league, &s.among)
                ),
                _ => Table::origin_words(league, &s.origin, &s.among),
            },
            entered.map_or(String::new(), |e| format!(" ({e})")),
            if self.provisional {
                " (provisional)"
            } else {
                ""
            },
        );
        Explanation {
            clause: CLAUSE,
            rulings,
            text,
        }
    }

    /// The explanation of a tie left open.
    pub fn explain_tie(&self, league: &League, u: &Unresolved<PlayerId>) -> Explanation {
        let who = Table::names(league, &u.players);
        let origin = Table::origin_words(league, &u.origin, &u.players);
        let text = match u.pending {
            Some(6) if self.provisional => format!(
                "{who} are tied through step 5{origin}; if they are still tied when all DRR are concluded, a round of die-roll decides (step 6)"
            ),
            Some(6) => format!(
                "{who} are tied through step 5{origin}: a round of die-roll among them decides (step 6; `league roll`)"
            ),
            Some(step) => format!(
                "{who} are tied{origin}; {} cannot be compared until their remaining games are played",
                step_words(step)
            ),
            None => format!("{who} are tied on every step{origin}"),
        };
        let mut rulings = vec!["XM-R4"];
        if self.provisional {
            rulings.push("XM-R5");
        }
        Explanation {
            clause: CLAUSE,
            rulings,
            text,
        }
    }

    /// Every explanation of the table, top to bottom.
    pub fn explain(&self, league: &League) -> Vec<Explanation> {
        let mut out = Vec::new();
        for (i, &p) in self.ranking.order.iter().enumerate() {
            if let Some(s) = self.ranking.split_above(p) {
                out.push(self.explain_split(league, s));
            }
            if let Some(u) = self.ranking.tie_of(p)
                && u.players.first() == Some(&p)
                && i < self.ranking.order.len()
            {
                out.push(self.explain_tie(league, u));
            }
        }
        out
    }

    /// The explanations that concern `p`: the split above and below him,
    /// and his tie.
    pub fn explain_player(&self, league: &League, p: PlayerId) -> Vec<Explanation> {
        let mut out = Vec::new();
        for s in &self.ranking.splits {
            if s.upper == p || s.lower == p {
                out.push(self.explain_split(league, s));
            }
        }
        if let Some(u) = self.ranking.tie_of(p) {
            out.push(self.explain_tie(league, u));
        }
        out
    }
}

/// "step 2, head-to-head counted-pawns difference" or "win-loss record".
pub fn step_words(step: usize) -> String {
    match STEPS.get(step) {
        Some(("", name)) => (*name).to_string(),
        Some((label, name)) => format!("step {label}, {name}"),
        None => format!("step {step}"),
    }
}
