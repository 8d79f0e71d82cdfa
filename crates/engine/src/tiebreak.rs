//! The tiebreak catalogue (issue 16 §2): one implementation per criterion,
//! whatever the format that lists it.
//!
//! A format describes its results in a small, format-neutral model: for
//! each player, his *sides*, every counted game seen from his seat
//! ([`Side`]: the opponent, the points he took in the format's own integer
//! units, what he scored and conceded, won, drawn, forfeit, minutes), and
//! his points ([`Results`]). Each criterion is a function of that model:
//! [`points`], [`head_to_head_points`], [`head_to_head_difference`],
//! [`head_to_head_scored`] (the games among a subset), [`difference`],
//! [`scored`], [`wins`], [`sonneborn_berger`] (Go's SODOS is the same
//! sum), [`koya`], [`buchholz`], [`quickness`] and the recorded lot or die
//! roll ([`drawn`]). The cascade ([`crate::cascade`]) evaluates them on the
//! players still tied; [`each`] gives a criterion's values on a subset as
//! the cascade reads them.
//!
//! Who uses them:
//! - the general round-robin league (`roundrobin::table::Facts::value`,
//!   ARB-R67): every criterion of its catalogue;
//! - the XMadn league table (`xmadn::table::cascade`): the overall record
//!   ([`points`], a win +1 and a loss −1, ARB-R24) and steps 1 to 6 of the
//!   document (head-to-head points, head-to-head difference, difference,
//!   scored in counted pawns, [`quickness`] of the full minutes, XM-R2,
//!   and the round of die-roll, XM-R3);
//! - Sunjang's section D (`sunjang::group`, `sunjang::ranking`): gamepoints
//!   ([`points_by_game`], in halves, SJ-R4), SODOS
//!   ([`sonneborn_berger_by_game`], in units of 1/(2 × a win), SJ-R12,
//!   ARB-R39) and gamepoints among the tied players
//!   ([`head_to_head_points`], SJ-R9, ARB-R42); a group's figures are
//!   added up game by game (the same sums as [`points`] and
//!   [`sonneborn_berger`], player by player), since a group is ranked once
//!   per simulated season.
//!
//! Units differ by format (a round robin's points per its `scale`, XMadn's
//! record, Sunjang's half gamepoints), so every function is generic over
//! them ([`Units`]); all are integers and nothing compares floats.
//!
//! Where a format's criterion differs, the difference lives in how the
//! format builds its sides, or in an argument, never in a second
//! implementation:
//! - a score that is not known (XMadn's hypothetical results, ARB-R26):
//!   the criteria that read scores wait ([`Side::score`] is `None`);
//! - quickness sums the minutes of the games won over the board, fewer
//!   first (XM-R2, ARB-R67); XMadn cuts each game's time to full minutes
//!   when it builds its sides;
//! - Sonneborn–Berger counts a draw (a jigo) at the share of a win it
//!   scored, which is a half with the usual points (SJ-R12: SODOS, "half
//!   for a jigo"); a forfeit counts with the points it gave (ARB-R39,
//!   ARB-R67); Sunjang leaves the starting gamepoints out of the
//!   opponents' points (SJ-R12) by not counting them in its sides;
//! - Koya's "half the points their games could give" is the format's
//!   figure (`most`);
//! - the recorded drawing a tie waits for: a round robin's lot names every
//!   tied player (ARB-R67), an XMadn round of die-roll exactly the tied
//!   players (XM-R3, ARB-R27).

use std::fmt::Debug;

use crate::model::PlayerId;

/// A figure a criterion sums: an integer in a format's units.
pub trait Figure: Copy + Default + Ord + Debug {
    /// The sum of two figures, as the format adds them (Sunjang's
    /// gamepoints saturate, as they always have).
    fn plus(self, other: Self) -> Self;
    /// The figure as the cascade compares it.
    fn value(self) -> i64;
}

/// The units a format counts points in.
pub trait Units: Figure {
    /// Points times points: Sonneborn–Berger's units, exact.
    type Product: Figure;
    fn times(self, other: Self) -> Self::Product;
}

impl Figure for i64 {
    fn plus(self, other: Self) -> Self {
        self + other
    }
    fn value(self) -> i64 {
        self
    }
}

impl Units for i64 {
    type Product = i64;
    fn times(self, other: Self) -> i64 {
        self * other
    }
}

/// Sunjang's half gamepoints (`sunjang::HalfPoints`).
impl Figure for u32 {
    fn plus(self, other: Self) -> Self {
        self.saturating_add(other)
    }
    fn value(self) -> i64 {
        i64::from(self)
    }
}

impl Units for u32 {
    type Product = u64;
    fn times(self, other: Self) -> u64 {
        u64::from(self) * u64::from(other)
    }
}

/// Sunjang's SODOS units (`sunjang::SodosUnits`).
impl Figure for u64 {
    fn plus(self, other: Self) -> Self {
        self + other
    }
    fn value(self) -> i64 {
        i64::try_from(self).unwrap_or(i64::MAX)
    }
}

/// What a player scored and conceded in one game (goals, counted pawns).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Score {
    pub scored: i64,
    pub conceded: i64,
}

/// One counted game from one player's side. `P` names the opponent: a
/// [`PlayerId`], or a position in a group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Side<U, P = PlayerId> {
    pub opponent: P,
    /// The points he took from the game, in the format's units.
    pub points: U,
    /// What he scored and conceded; `None` when the game's score is not
    /// known (a result assumed by an analysis, ARB-R26) or the format keeps
    /// none: the criteria that read it wait.
    pub score: Option<Score>,
    /// Won, forfeit wins included (ARB-R39, ARB-R67).
    pub won: bool,
    pub drawn: bool,
    /// Decided by a forfeit (either side's, or both's).
    pub forfeit: bool,
    /// The game's minutes, when known.
    pub minutes: Option<u32>,
}

/// A format's results as the criteria read them.
///
/// Only [`Results::sides`] is required. The sums over all of a player's
/// sides ([`Results::points`], [`Results::score`], [`Results::wins`]) are
/// defined here, once; a format that keeps them (a round robin's line, a
/// group's gamepoints) answers with what it keeps, which must be the same
/// figures (`tests/tiebreak_catalogue.rs` checks it).
pub trait Results {
    type Player: Copy + PartialEq;
    type Units: Units;

    /// Every counted game of `p`, from his side.
    fn sides(&self, p: Self::Player) -> impl Iterator<Item = Side<Self::Units, Self::Player>> + '_;

    /// His points: [`sum_points`] of his sides.
    fn points(&self, p: Self::Player) -> Self::Units {
        sum_points(self.sides(p))
    }

    /// What he scored and conceded over all his games: [`sum_score`] of
    /// his sides, `None` while one score is not known.
    fn score(&self, p: Self::Player) -> Option<Score> {
        sum_score(self.sides(p))
    }

    /// His games won, forfeit wins included: [`count_wins`] of his sides.
    fn wins(&self, p: Self::Player) -> i64 {
        count_wins(self.sides(p))
    }
}

/// The points of some sides.
pub fn sum_points<U: Units, P>(sides: impl Iterator<Item = Side<U, P>>) -> U {
    sides.fold(U::default(), |a, s| a.plus(s.points))
}

/// What some sides scored and conceded; `None` while one score is not
/// known.
pub fn sum_score<U, P>(mut sides: impl Iterator<Item = Side<U, P>>) -> Option<Score> {
    sides.try_fold(
        Score {
            scored: 0,
            conceded: 0,
        },
        |a, s| {
            s.score.map(|x| Score {
                scored: a.scored + x.scored,
                conceded: a.conceded + x.conceded,
            })
        },
    )
}

/// How many of some sides were won.
pub fn count_wins<U, P>(sides: impl Iterator<Item = Side<U, P>>) -> i64 {
    sides.filter(|s| s.won).count() as i64
}

/// His sides in the games among `among` (himself one of them).
fn sides_among<'r, R: Results + ?Sized>(
    r: &'r R,
    p: R::Player,
    among: &'r [R::Player],
) -> impl Iterator<Item = Side<R::Units, R::Player>> + 'r {
    r.sides(p).filter(move |s| among.contains(&s.opponent))
}

/// Points: the first criterion of every table.
pub fn points<R: Results + ?Sized>(r: &R, p: R::Player) -> R::Units {
    r.points(p)
}

/// Head-to-head points: his points in the games among `among` (the tied
/// players, himself one of them).
pub fn head_to_head_points<R: Results + ?Sized>(
    r: &R,
    p: R::Player,
    among: &[R::Player],
) -> R::Units {
    sum_points(sides_among(r, p, among))
}

/// Head-to-head difference: scored minus conceded in the games among
/// `among`; `None` while one of their scores is not known.
pub fn head_to_head_difference<R: Results + ?Sized>(
    r: &R,
    p: R::Player,
    among: &[R::Player],
) -> Option<i64> {
    sum_score(sides_among(r, p, among)).map(|x| x.scored - x.conceded)
}

/// Head-to-head scored: scored in the games among `among`; `None` while
/// one of their scores is not known.
pub fn head_to_head_scored<R: Results + ?Sized>(
    r: &R,
    p: R::Player,
    among: &[R::Player],
) -> Option<i64> {
    sum_score(sides_among(r, p, among)).map(|x| x.scored)
}

/// Difference: scored minus conceded over all his games; `None` while one
/// of their scores is not known.
pub fn difference<R: Results + ?Sized>(r: &R, p: R::Player) -> Option<i64> {
    r.score(p).map(|x| x.scored - x.conceded)
}

/// Scored over all his games; `None` while one of their scores is not
/// known.
pub fn scored<R: Results + ?Sized>(r: &R, p: R::Player) -> Option<i64> {
    r.score(p).map(|x| x.scored)
}

/// Games won, forfeit wins included (FIDE C.07 counts them, ARB-R67).
pub fn wins<R: Results + ?Sized>(r: &R, p: R::Player) -> i64 {
    r.wins(p)
}

/// Sonneborn–Berger: over his games, the opponent's points times the
/// points he took from the game, in units of (a win) × (a point): a win
/// counts the opponent's points whole, a draw or a jigo at its share of a
/// win (a half with the usual points), a loss nothing. SODOS is Go's name
/// for the same sum (ARB-R67; SJ-R12, whose units are 1/(2 × a win)
/// gamepoint because its points are halves).
pub fn sonneborn_berger<R: Results + ?Sized>(r: &R, p: R::Player) -> <R::Units as Units>::Product {
    r.sides(p).fold(Default::default(), |a, s| {
        a.plus(sonneborn_berger_term(&s, r.points(s.opponent)))
    })
}

/// [`points`] of every player at once, players by position (`0..n`), from
/// each game's two sides (the owner of one side is the other's opponent):
/// the same sums as [`sum_points`], added game by game.
#[inline]
pub fn points_by_game<U: Units>(
    n: usize,
    games: impl Iterator<Item = [Side<U, usize>; 2]>,
) -> Vec<U> {
    let mut out = vec![U::default(); n];
    for [a, b] in games {
        out[b.opponent] = out[b.opponent].plus(a.points);
        out[a.opponent] = out[a.opponent].plus(b.points);
    }
    out
}

/// [`sonneborn_berger`] of every player at once, players by position
/// (`0..n`), from each game's two sides (the owner of one side is the
/// other's opponent) and each position's `points`: the same terms, summed
/// game by game rather than player by player (a Sunjang group is ranked
/// once per simulated season).
#[inline]
pub fn sonneborn_berger_by_game<U: Units>(
    n: usize,
    games: impl Iterator<Item = [Side<U, usize>; 2]>,
    points: impl Fn(usize) -> U,
) -> Vec<U::Product> {
    let mut out = vec![U::Product::default(); n];
    for [a, b] in games {
        // `a` is the side of `b.opponent`, and the other way round.
        out[b.opponent] = out[b.opponent].plus(sonneborn_berger_term(&a, points(a.opponent)));
        out[a.opponent] = out[a.opponent].plus(sonneborn_berger_term(&b, points(b.opponent)));
    }
    out
}

/// One game's Sonneborn–Berger term: the opponent's points times the
/// points taken from the game.
#[inline]
fn sonneborn_berger_term<U: Units, P>(side: &Side<U, P>, opponent_points: U) -> U::Product {
    side.points.times(opponent_points)
}

/// Koya: his points against the opponents who made at least half the
/// points their games could give (`most`, the format's figure: a win's
/// points times the games scheduled; `None` for an opponent outside the
/// table, who never counts).
pub fn koya<R: Results + ?Sized>(
    r: &R,
    p: R::Player,
    most: impl Fn(R::Player) -> Option<R::Units>,
) -> R::Units {
    sum_points(r.sides(p).filter(|s| {
        most(s.opponent).is_some_and(|m| {
            let o = r.points(s.opponent);
            o.plus(o) >= m
        })
    }))
}

/// Buchholz (SOS in Go): the opponents' points, once per game.
pub fn buchholz<R: Results + ?Sized>(r: &R, p: R::Player) -> R::Units {
    r.sides(p)
        .fold(R::Units::default(), |a, s| a.plus(r.points(s.opponent)))
}

/// Quickness of victory: the minutes of the games he won over the board
/// (forfeits have none), fewer ranking higher (XMadn step 5, XM-R2;
/// ARB-R67); `None` while one of them has no minutes. The figure is the
/// total; the cascade compares its negation ([`quickness_value`]).
pub fn quickness<R: Results + ?Sized>(r: &R, p: R::Player) -> Option<i64> {
    r.sides(p)
        .filter(|s| s.won && !s.forfeit)
        .try_fold(0i64, |a, s| s.minutes.map(|m| a + i64::from(m)))
}

/// [`quickness`] as the cascade compares it: the lower total ranks
/// higher.
pub fn quickness_value<R: Results + ?Sized>(r: &R, p: R::Player) -> Option<i64> {
    quickness(r, p).map(|m| -m)
}

/// A recorded lot or round of die-roll: the latest drawing in `draws`
/// (oldest first) that `applies` to the tied players, each player's value
/// in it `read` (higher ranking higher). `None` (the tie waits) while no
/// drawing applies or one of them has no value in it. Which drawing
/// applies is the format's: a round robin's lot names every tied player
/// (ARB-R67); an XMadn round of die-roll was rolled among exactly them
/// (XM-R3, ARB-R27).
pub fn drawn<'d, D: 'd, P: Copy>(
    draws: impl DoubleEndedIterator<Item = &'d D>,
    applies: impl Fn(&D) -> bool,
    read: impl Fn(&D, P) -> Option<i64>,
    subset: &[P],
) -> Option<Vec<i64>> {
    let draw = draws.rev().find(|d| applies(d))?;
    subset.iter().map(|&p| read(draw, p)).collect()
}

/// A criterion's values on a tied subset, in its order, as the cascade
/// reads them: `None` while one of them cannot be evaluated.
pub fn each<P: Copy>(subset: &[P], mut f: impl FnMut(P) -> Option<i64>) -> Option<Vec<i64>> {
    let mut out = Vec::with_capacity(subset.len());
    for &p in subset {
        out.push(f(p)?);
    }
    Some(out)
}
