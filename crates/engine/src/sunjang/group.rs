//! Group play: the round robin of a group, its results, gamepoints and
//! SODOS, the group table and the merged ranking of a division.
//!
//! "Each group comprises a set of players from the same division, who must
//! face one another in a round-robin" (Definitions: Group).
//!
//! - [`round_robin`]: every pair once, by rounds (the circle method), with
//!   balanced black (ARB-R38).
//! - [`points`]: a win is 1 gamepoint, a jigo ½, a loss 0 (SJ-R4); a forfeit
//!   is a loss for the player who forfeits and a win for the other; a game
//!   both forfeit is a loss for both (ARB-R39).
//! - SODOS (SJ-R12): over each game a player won, the final gamepoints the
//!   beaten opponent won in group play, half of them over a jigo; the
//!   starting gamepoints are left out. A win by forfeit counts like any win
//!   (ARB-R39).
//! - [`group_table`]: a group ordered by section D ([`RankingData::main_cascade`]),
//!   each position explained; [`division_ranking`]: the merged ranking of a
//!   whole division (SJ-R5) and its group leaders.
//!
//! Gamepoints are counted in halves ([`HalfPoints`]); nothing compares
//! floats. Gamepoints and SODOS are the shared catalogue's
//! ([`crate::tiebreak`]: [`tiebreak::points_by_game`] and
//! [`tiebreak::sonneborn_berger_by_game`]) over the group's games seen from
//! each player's side.

use std::collections::HashMap;

use crate::cascade::{Ranking, Split, Unresolved};
use crate::explain::Explanation;
use crate::tiebreak::{self, Side};

use super::ranking::{Performance, PlayedGame, RankingData};
use super::{
    Division, GroupId, HalfPoints, PlayerId, SodosUnits, SunjangRules, division_letter,
    format_points,
};

/// The pairings and colours of a round robin .
pub const RULING_ROUND_ROBIN: &str = "ARB-R38";
/// Forfeits in group play and SODOS .
pub const RULING_FORFEIT: &str = "ARB-R39";

const CLAUSE_LEADER: &str = "Sunjang B.1 Direct Promotions";
const CLAUSE_MAIN: &str = "Sunjang D.1 Main Criteria";

/// One game of a round robin: its round (from 1) and who has black.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pairing {
    pub round: u32,
    pub black: PlayerId,
    pub white: PlayerId,
}

impl Pairing {
    /// Whether this is the game between `a` and `b` (either colour).
    pub fn is_between(&self, a: PlayerId, b: PlayerId) -> bool {
        (self.black == a && self.white == b) || (self.black == b && self.white == a)
    }

    /// The opponent of `p` in this game, if `p` plays in it.
    pub fn opponent(&self, p: PlayerId) -> Option<PlayerId> {
        if self.black == p {
            Some(self.white)
        } else if self.white == p {
            Some(self.black)
        } else {
            None
        }
    }
}

/// The players without repeats, in their first order.
fn distinct(players: &[PlayerId]) -> Vec<PlayerId> {
    let mut seen = std::collections::HashSet::with_capacity(players.len());
    players
        .iter()
        .copied()
        .filter(|p| seen.insert(*p))
        .collect()
}

/// The round-robin pairings of a group: every pair of players exactly once,
/// by rounds (the circle method), rounds numbered from 1, the games of a
/// round in board order. A repeated player is taken once.
///
/// With `n` players there are `n - 1` rounds (`n` even) or `n` rounds (`n`
/// odd: each player has one round off). The last player of an even group is
/// the fixed point of the circle; the others turn.
///
/// Colours (ARB-R38), guaranteed for every `n`:
/// - each player has black in `floor((n-1)/2)` or `ceil((n-1)/2)` of his
///   games (exactly `(n-1)/2` when `n` is odd);
/// - each player's colours alternate from one of his games to the next
///   (a round off skipped), except, when `n` is even, at most once two
///   games in a row with the same colour: no one has the same colour three
///   times in a row. (With `n - 1` odd games each, one repeat is
///   unavoidable for all but one player of an even group.)
pub fn round_robin(players: &[PlayerId]) -> Vec<Pairing> {
    let ps = distinct(players);
    let n = ps.len();
    if n < 2 {
        return Vec::new();
    }
    // The ring has an odd number `m` of places; in round `r` (from 0) the
    // players `j` and `k` of the ring with `j + k ≡ r (mod m)` meet, and the
    // one with `2j ≡ r` meets the fixed player (or has the round off).
    let m = if n.is_multiple_of(2) { n - 1 } else { n };
    let fixed = if n.is_multiple_of(2) {
        ps.get(m).copied()
    } else {
        None
    };
    // The inverse of 2 modulo the odd m.
    let half = m.div_ceil(2);
    let mut out = Vec::with_capacity(n * (n - 1) / 2);
    for r in 0..m {
        let round = u32::try_from(r + 1).unwrap_or(u32::MAX);
        let j0 = (r * half) % m;
        if let Some(f) = fixed {
            // The fixed player alternates: black in odd-numbered rounds.
            let (black, white) = if r % 2 == 0 { (f, ps[j0]) } else { (ps[j0], f) };
            out.push(Pairing {
                round,
                black,
                white,
            });
        }
        for j in 0..m {
            let k = (r + m - j) % m;
            if j < k {
                // `d = k - j` grows by one each round for `j`, so colours by
                // its parity alternate for `j` except where `d` wraps round
                // (past the game against the fixed player).
                let d = (k + m - j) % m;
                let (black, white) = if d % 2 == 0 {
                    (ps[j], ps[k])
                } else {
                    (ps[k], ps[j])
                };
                out.push(Pairing {
                    round,
                    black,
                    white,
                });
            }
        }
    }
    out
}

/// The result of a group game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    BlackWins,
    WhiteWins,
    Jigo,
    /// Black forfeits: a loss for black, a win for white (ARB-R39).
    BlackForfeits,
    /// White forfeits: a loss for white, a win for black (ARB-R39).
    WhiteForfeits,
    /// Both forfeit: a loss for both, no gamepoints (ARB-R39).
    BothForfeit,
}

/// A player's result in one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Res {
    Win,
    Jigo,
    Loss,
}

impl Outcome {
    /// The result of black (`side` 0) or white (`side` 1), and whether that
    /// player forfeited.
    fn of(self, side: usize) -> (Res, bool) {
        let black = side == 0;
        match self {
            Outcome::Jigo => (Res::Jigo, false),
            Outcome::BlackWins => (if black { Res::Win } else { Res::Loss }, false),
            Outcome::WhiteWins => (if black { Res::Loss } else { Res::Win }, false),
            Outcome::BlackForfeits => {
                if black {
                    (Res::Loss, true)
                } else {
                    (Res::Win, false)
                }
            }
            Outcome::WhiteForfeits => {
                if black {
                    (Res::Win, false)
                } else {
                    (Res::Loss, true)
                }
            }
            Outcome::BothForfeit => (Res::Loss, true),
        }
    }

    /// Whether a player forfeited this game.
    pub fn is_forfeit(self) -> bool {
        matches!(
            self,
            Outcome::BlackForfeits | Outcome::WhiteForfeits | Outcome::BothForfeit
        )
    }

    /// In words, for explanations: "black wins", "jigo", ...
    pub fn describe(self) -> &'static str {
        match self {
            Outcome::BlackWins => "black wins",
            Outcome::WhiteWins => "white wins",
            Outcome::Jigo => "jigo",
            Outcome::BlackForfeits => "black forfeits",
            Outcome::WhiteForfeits => "white forfeits",
            Outcome::BothForfeit => "both forfeit",
        }
    }
}

/// The gamepoints (halves) black and white win with `outcome`: a win
/// `win_points`, a jigo `jigo_points`, a loss nothing (SJ-R4); a forfeit is
/// a loss for the player who forfeits and a win for the other, a game both
/// forfeit nothing for either (ARB-R39).
pub fn points(outcome: Outcome, rules: &SunjangRules) -> [HalfPoints; 2] {
    let (w, j) = (rules.win_points, rules.jigo_points);
    match outcome {
        Outcome::BlackWins | Outcome::WhiteForfeits => [w, 0],
        Outcome::WhiteWins | Outcome::BlackForfeits => [0, w],
        Outcome::Jigo => [j, j],
        Outcome::BothForfeit => [0, 0],
    }
}

/// The gamepoints each player starts the season with: `start_points_per_division`
/// for every division below his own (footnote 4; SJ-R4). `divisions` is
/// how many divisions the season has; A is division 0.
pub fn start_points(division: Division, divisions: u32, rules: &SunjangRules) -> HalfPoints {
    let below = divisions.saturating_sub(division.saturating_add(1));
    rules.start_points_per_division.saturating_mul(below)
}

/// A game of a group and its result (`None`: not played yet).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroupGame {
    pub pairing: Pairing,
    pub outcome: Option<Outcome>,
}

/// One row of a group table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupRow {
    pub player: PlayerId,
    /// Place (1-based); players left tied share the place of the first.
    pub place: usize,
    /// Games with a result, forfeits included.
    pub played: u32,
    /// Wins, wins by the opponent's forfeit included.
    pub wins: u32,
    pub jigo: u32,
    /// Losses, the games this player forfeited included.
    pub losses: u32,
    /// Games this player forfeited (counted among the losses too).
    pub forfeits: u32,
    /// Gamepoints won in group play (halves), without the start.
    pub gamepoints: HalfPoints,
    /// Starting gamepoints (SJ-R4): the player's total is
    /// `start + gamepoints`.
    pub start: HalfPoints,
    /// SODOS (SJ-R12), exact, in units of
    /// [`SunjangRules::sodos_per_point`].
    pub sodos: SodosUnits,
}

impl GroupRow {
    /// Gamepoints with the start (SJ-R4).
    pub fn total(&self) -> HalfPoints {
        self.start.saturating_add(self.gamepoints)
    }
}

/// The table of one group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupTable {
    pub group: GroupId,
    /// In ranking order.
    pub rows: Vec<GroupRow>,
    pub ranking: Ranking<PlayerId>,
    /// Every game of every pair has a result (otherwise the table is
    /// provisional).
    pub complete: bool,
    /// One per row, in the same order: why the player stands there.
    /// The first names the group leader ("Lee leads B2 ...").
    pub explanations: Vec<Explanation>,
}

impl GroupTable {
    /// The group leader: the first of the table (shared if
    /// [`GroupTable::lead_is_tied`]).
    pub fn leader(&self) -> Option<PlayerId> {
        self.rows.first().map(|r| r.player)
    }

    /// Whether no criterion of section D separates the first from the
    /// second: the organizer settles the lead (D.2's last criteria).
    pub fn lead_is_tied(&self) -> bool {
        self.rows.get(1).is_some_and(|r| r.place == 1)
    }

    pub fn row(&self, p: PlayerId) -> Option<&GroupRow> {
        self.rows.iter().find(|r| r.player == p)
    }
}

/// What one group's games give each of its players.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Tally {
    played: u32,
    wins: u32,
    jigo: u32,
    losses: u32,
    forfeits: u32,
    gamepoints: HalfPoints,
    sodos: SodosUnits,
}

/// A group's games with a result between two different players of the
/// group, as (black position, white position, outcome).
fn decided(players: &[PlayerId], games: &[GroupGame]) -> Vec<(usize, usize, Outcome)> {
    let pos = |p: PlayerId| players.iter().position(|&x| x == p);
    games
        .iter()
        .filter_map(|g| {
            let o = g.outcome?;
            let b = pos(g.pairing.black)?;
            let w = pos(g.pairing.white)?;
            (b != w).then_some((b, w, o))
        })
        .collect()
}

/// Game `(b, w, o)` from the side of black and of white, as the shared
/// catalogue reads it: the gamepoints each won (SJ-R4), won (a win by
/// forfeit too), a jigo, decided by a forfeit (ARB-R39). Sunjang keeps no
/// score or minutes.
#[inline]
fn game_sides(
    (b, w, o): (usize, usize, Outcome),
    rules: &SunjangRules,
) -> [Side<HalfPoints, usize>; 2] {
    let pts = points(o, rules);
    let forfeit = o.is_forfeit();
    let side = |i: usize, opponent: usize| {
        let (res, _) = o.of(i);
        Side {
            opponent,
            points: pts[i],
            score: None,
            won: res == Res::Win,
            drawn: res == Res::Jigo,
            forfeit,
            minutes: None,
        }
    };
    [side(0, w), side(1, b)]
}

/// The tallies of a group's players (in the order of `players`).
fn tally(players: &[PlayerId], games: &[GroupGame], rules: &SunjangRules) -> Vec<Tally> {
    let decided = decided(players, games);
    let n = players.len();
    let mut t = vec![Tally::default(); n];
    for &g in &decided {
        for (s, i) in game_sides(g, rules).into_iter().zip([g.0, g.1]) {
            let x = &mut t[i];
            x.played += 1;
            if s.won {
                x.wins += 1;
            } else if s.drawn {
                x.jigo += 1;
            } else {
                x.losses += 1;
            }
            // He forfeited: a forfeit he did not win (ARB-R39).
            x.forfeits += u32::from(s.forfeit && !s.won);
        }
    }
    // Gamepoints (SJ-R4): the points of his sides.
    let gamepoints = tiebreak::points_by_game(n, decided.iter().map(|&g| game_sides(g, rules)));
    // SODOS (SJ-R12) is Sonneborn-Berger: the opponent's final gamepoints,
    // in the proportion of the points this player took from the game: all
    // over a win (a win by forfeit too, ARB-R39), half over a jigo, none
    // over a loss, and nothing from a game both forfeit. Summed before the
    // division so that two jigos against 3½ make 3½. The sum of half points
    // times the points taken is the SODOS in units of 1 / (2 × win)
    // gamepoint: exact for every setting (a jigo against 4 with a win 3 and
    // a jigo 1 is 1⅓). The starting gamepoints are not in the sides, so
    // they are left out (SJ-R12).
    let sodos =
        tiebreak::sonneborn_berger_by_game(n, decided.iter().map(|&g| game_sides(g, rules)), |i| {
            gamepoints[i]
        });
    for ((x, g), s) in t.iter_mut().zip(gamepoints.iter()).zip(sodos) {
        x.gamepoints = *g;
        x.sodos = s;
    }
    t
}

/// SODOS of every player of a group, exact, in units of
/// [`SunjangRules::sodos_per_point`]: a jigo against an opponent with 3½
/// gamepoints is worth 1¾, as in [`Performance`].
pub fn sodos_units(
    players: &[PlayerId],
    games: &[GroupGame],
    rules: &SunjangRules,
) -> Vec<(PlayerId, u64)> {
    let players = distinct(players);
    let t = tally(&players, games, rules);
    players.into_iter().zip(t.iter().map(|x| x.sodos)).collect()
}

/// Whether every pair of the group has a game with a result.
fn is_complete(players: &[PlayerId], games: &[GroupGame]) -> bool {
    let n = players.len();
    let mut met = vec![false; n * n];
    for (b, w, _) in decided(players, games) {
        met[b * n + w] = true;
        met[w * n + b] = true;
    }
    (0..n).all(|i| (0..n).all(|j| i == j || met[i * n + j]))
}

/// One group's input: its id, players and games.
pub type GroupInput = (GroupId, Vec<PlayerId>, Vec<GroupGame>);

fn slot(p: PlayerId) -> Option<usize> {
    p.0.checked_sub(1).map(|i| i as usize)
}

/// Performances (gamepoints, SODOS, group) of every player of the given
/// groups, for [`RankingData::performance`]: indexed by
/// [`PlayerId::index`], of length `n` (the number of registered players;
/// longer if a group names a player beyond it). Players in no group are
/// `None`.
pub fn performances(
    n: usize,
    groups: &[GroupInput],
    rules: &SunjangRules,
) -> Vec<Option<Performance>> {
    let mut out: Vec<Option<Performance>> = vec![None; n];
    for (group, players, games) in groups {
        let players = distinct(players);
        for (p, t) in players.iter().zip(tally(&players, games, rules)) {
            let Some(i) = slot(*p) else { continue };
            if out.len() <= i {
                out.resize(i + 1, None);
            }
            out[i] = Some(Performance {
                gamepoints: t.gamepoints,
                sodos: t.sodos,
                group: *group,
            });
        }
    }
    out
}

/// The games with a result of the given groups, with the gamepoints each
/// player won, for [`RankingData::games`] (the third main criterion).
pub fn played_games(groups: &[GroupInput], rules: &SunjangRules) -> Vec<PlayedGame> {
    let mut out = Vec::new();
    for (group, players, games) in groups {
        let players = distinct(players);
        for (b, w, o) in decided(&players, games) {
            out.push(PlayedGame {
                players: [players[b], players[w]],
                points: points(o, rules),
                group: *group,
            });
        }
    }
    out
}

fn name_of(data: &RankingData<'_>, p: PlayerId) -> String {
    slot(p)
        .and_then(|i| data.info.get(i))
        .map_or_else(|| p.to_string(), |i| i.name.clone())
}

/// Where each player of a ranking stands: the split directly above him and
/// the tie he is left in, looked up by player (a division may have tens of
/// thousands).
struct Positions<'r> {
    split_above: HashMap<PlayerId, &'r Split<PlayerId>>,
    tie: HashMap<PlayerId, &'r Unresolved<PlayerId>>,
}

impl<'r> Positions<'r> {
    fn new(ranking: &'r Ranking<PlayerId>) -> Self {
        Positions {
            split_above: ranking.splits.iter().map(|s| (s.lower, s)).collect(),
            tie: ranking
                .unresolved
                .iter()
                .flat_map(|u| u.players.iter().map(move |&p| (p, u)))
                .collect(),
        }
    }

    /// The explanation of `p`'s position (below the first): the split
    /// above him, or the tie he is left in.
    fn explain(
        &self,
        data: &RankingData<'_>,
        p: PlayerId,
        name: &dyn Fn(PlayerId) -> String,
    ) -> Option<Explanation> {
        let tie = self.tie.get(&p).copied();
        if let Some(t) = tie
            && t.players.first() != Some(&p)
        {
            return Some(data.explain_tie(t, name));
        }
        self.split_above
            .get(&p)
            .map(|s| data.explain_split(s, 0, name))
            .or_else(|| tie.map(|t| data.explain_tie(t, name)))
    }
}

/// The table of one group, ordered by section D ([`RankingData::main_cascade`]:
/// gamepoints, SODOS, gamepoints among the tied players with the restart
/// of SJ-R9, then D.2), each position explained.
///
/// `data` gives the players' information, the organizer's tiebreaks and the
/// rules; its `performance` and `games` are not read: the table computes
/// them from `games` (the group's own), so that it always agrees with its
/// rows. Games between players not of the group, or without a result, are
/// left out. `start` is the group's starting gamepoints ([`start_points`]).
pub fn group_table(
    group: GroupId,
    players: &[PlayerId],
    games: &[GroupGame],
    start: HalfPoints,
    data: &RankingData<'_>,
) -> GroupTable {
    let players = distinct(players);
    let input = [(group, players.clone(), games.to_vec())];
    let size = players
        .iter()
        .filter_map(|&p| slot(p))
        .max()
        .map_or(0, |m| m + 1);
    let performance = performances(size, &input, data.rules);
    let played = played_games(&input, data.rules);
    let local = RankingData {
        performance: &performance,
        games: &played,
        ..*data
    };
    let tallies = tally(&players, games, data.rules);
    let complete = is_complete(&players, games);
    table_from(group, &players, &tallies, start, complete, &local, data)
}

/// The table of one group of a season carried over from records (issue 18
/// §1, ARB-R77): ordered by section D as [`group_table`] orders a played
/// group, but on the carried figures (`data.performance`, the gamepoints
/// and SODOS the records give) and the games the records give (those the
/// third main criterion reads, `games`, which also give the rows' counts).
/// The season is over: the table is complete.
pub fn carried_group_table(
    group: GroupId,
    players: &[PlayerId],
    games: &[GroupGame],
    start: HalfPoints,
    data: &RankingData<'_>,
) -> GroupTable {
    let players = distinct(players);
    let mut tallies = tally(&players, games, data.rules);
    for (t, &p) in tallies.iter_mut().zip(&players) {
        let carried = slot(p).and_then(|i| data.performance.get(i).copied().flatten());
        t.gamepoints = carried.map_or(0, |c| c.gamepoints);
        t.sodos = carried.map_or(0, |c| c.sodos);
    }
    let played = played_games(&[(group, players.clone(), games.to_vec())], data.rules);
    let local = RankingData {
        games: &played,
        ..*data
    };
    table_from(group, &players, &tallies, start, true, &local, data)
}

/// A group's table from its players' tallies (in the order of `players`):
/// ranked by `local`'s figures, each position explained.
fn table_from(
    group: GroupId,
    players: &[PlayerId],
    tallies: &[Tally],
    start: HalfPoints,
    complete: bool,
    local: &RankingData<'_>,
    data: &RankingData<'_>,
) -> GroupTable {
    let ranking = local.main_cascade().rank(players);
    let name = |p: PlayerId| name_of(data, p);
    let positions = Positions::new(&ranking);
    let mut rows = Vec::with_capacity(players.len());
    let mut explanations = Vec::with_capacity(players.len());
    for (i, &p) in ranking.order.iter().enumerate() {
        let t = players
            .iter()
            .position(|&x| x == p)
            .map(|k| tallies[k])
            .unwrap_or_default();
        rows.push(GroupRow {
            player: p,
            place: ranking.places[i],
            played: t.played,
            wins: t.wins,
            jigo: t.jigo,
            losses: t.losses,
            forfeits: t.forfeits,
            gamepoints: t.gamepoints,
            start,
            sodos: t.sodos,
        });
        let e = if i == 0 {
            leader_line(local, &ranking, group, p, t.gamepoints, complete, &name)
        } else {
            positions.explain(local, p, &name).unwrap_or_else(|| {
                Explanation::new(CLAUSE_MAIN, &[], format!("{} is below the others", name(p)))
            })
        };
        explanations.push(e);
    }
    GroupTable {
        group,
        rows,
        ranking,
        complete,
        explanations,
    }
}

/// "Lee leads B2 with 5 gamepoints", or the tie for the lead.
fn leader_line(
    data: &RankingData<'_>,
    ranking: &Ranking<PlayerId>,
    group: GroupId,
    p: PlayerId,
    gamepoints: HalfPoints,
    complete: bool,
    name: &dyn Fn(PlayerId) -> String,
) -> Explanation {
    let provisional = if complete {
        ""
    } else {
        " (provisional: games remain to be played)"
    };
    match ranking.tie_of(p) {
        Some(t) => {
            let tie = data.explain_tie(t, name);
            Explanation {
                clause: tie.clause,
                rulings: tie.rulings,
                text: format!(
                    "{} share the lead of {group} with {}{provisional}: {}",
                    t.players
                        .iter()
                        .map(|&x| name(x))
                        .collect::<Vec<_>>()
                        .join(", "),
                    gamepoints_text(gamepoints),
                    tie.text
                ),
            }
        }
        None => Explanation::new(
            CLAUSE_LEADER,
            &[],
            format!(
                "{} leads {group} with {}{provisional}",
                name(p),
                gamepoints_text(gamepoints)
            ),
        ),
    }
}

/// The merged ranking of a division by section D (SJ-R5) and its group
/// leaders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DivisionRanking {
    pub division: Division,
    /// The whole division, best first, by section D.
    pub order: Vec<PlayerId>,
    /// The first of each group table, by group number.
    pub group_leaders: Vec<PlayerId>,
    /// The groups whose lead is shared (no criterion separates their first
    /// two): their leader is not settled yet.
    pub tied_leads: Vec<GroupId>,
    pub ranking: Ranking<PlayerId>,
    /// Every group of the division is complete.
    pub complete: bool,
    /// One per player of `order`, in the same order: why he stands there.
    pub explanations: Vec<Explanation>,
    /// One per group leader, in the same order: "Lee leads A1 ...".
    pub leader_explanations: Vec<Explanation>,
}

impl DivisionRanking {
    /// The place (1-based) of `p` in the merged ranking.
    pub fn place_of(&self, p: PlayerId) -> Option<usize> {
        self.ranking.place_of(p)
    }
}

/// The merged ranking of a whole division by section D (SJ-R5): every
/// player of the division's groups (the groups of other divisions in
/// `groups` are left out) in one cascade. The third main criterion applies
/// only among tied players of one group ("if they were in the same
/// group"). The group leaders are the first of each group table
/// ([`group_table`]), which may differ from the group's first in the merged
/// ranking when a tie crosses groups.
///
/// As for [`group_table`], `data.performance` and `data.games` are not read:
/// they are computed from `groups`.
pub fn division_ranking(
    division: Division,
    groups: &[GroupInput],
    data: &RankingData<'_>,
) -> DivisionRanking {
    let (mine, all) = division_groups(division, groups);
    let size = all
        .iter()
        .filter_map(|&p| slot(p))
        .max()
        .map_or(0, |m| m + 1);
    let performance = performances(size, &mine, data.rules);
    let played = played_games(&mine, data.rules);
    let local = RankingData {
        performance: &performance,
        games: &played,
        ..*data
    };
    division_from(division, &mine, &all, &local, data, |(id, ps, gs)| {
        group_table(*id, ps, gs, 0, data)
    })
}

/// The merged ranking of a division of a season carried over from records
/// (issue 18 §1, ARB-R77), as [`division_ranking`] ranks a played one but
/// on the carried figures: `data.performance` is read (the gamepoints and
/// SODOS the records give), and `groups`' games are the results the records
/// give (those the third main criterion reads).
pub fn carried_division_ranking(
    division: Division,
    groups: &[GroupInput],
    data: &RankingData<'_>,
) -> DivisionRanking {
    let (mine, all) = division_groups(division, groups);
    let played = played_games(&mine, data.rules);
    let local = RankingData {
        games: &played,
        ..*data
    };
    division_from(division, &mine, &all, &local, data, |(id, ps, gs)| {
        carried_group_table(*id, ps, gs, 0, data)
    })
}

/// The merged ranking of `all` (the players of `mine`, a division's groups
/// in order) by `local`'s figures, with each group's table from `table`.
fn division_from(
    division: Division,
    mine: &[GroupInput],
    all: &[PlayerId],
    local: &RankingData<'_>,
    data: &RankingData<'_>,
    table: impl Fn(&GroupInput) -> GroupTable,
) -> DivisionRanking {
    let performance = local.performance;
    let ranking = local.main_cascade().rank(all);
    let name = |p: PlayerId| name_of(data, p);
    let mut group_leaders = Vec::new();
    let mut leader_explanations = Vec::new();
    let mut tied_leads = Vec::new();
    let mut complete = true;
    for g in mine {
        let table = table(g);
        complete &= table.complete;
        if table.lead_is_tied() {
            tied_leads.push(g.0);
        }
        if let (Some(l), Some(e)) = (table.leader(), table.explanations.first()) {
            group_leaders.push(l);
            leader_explanations.push(e.clone());
        }
    }
    let positions = Positions::new(&ranking);
    let mut explanations = Vec::with_capacity(all.len());
    for (i, &p) in ranking.order.iter().enumerate() {
        let e = if i == 0 && !positions.tie.contains_key(&p) {
            let gp = slot(p)
                .and_then(|k| performance.get(k).copied().flatten())
                .map_or(0, |x| x.gamepoints);
            Explanation::new(
                CLAUSE_MAIN,
                &["SJ-R5"],
                format!(
                    "{} is 1st of division {} with {} (one merged ranking of the division)",
                    name(p),
                    division_letter(division),
                    gamepoints_text(gp)
                ),
            )
        } else {
            positions.explain(local, p, &name).unwrap_or_else(|| {
                Explanation::new(CLAUSE_MAIN, &["SJ-R5"], format!("{} is ranked", name(p)))
            })
        };
        explanations.push(e);
    }
    DivisionRanking {
        division,
        order: ranking.order.clone(),
        group_leaders,
        tied_leads,
        ranking,
        complete,
        explanations,
        leader_explanations,
    }
}

/// The groups of `division` among `groups`, by number, each with its
/// players once, and all their players once.
fn division_groups(division: Division, groups: &[GroupInput]) -> (Vec<GroupInput>, Vec<PlayerId>) {
    let mut mine: Vec<GroupInput> = groups
        .iter()
        .filter(|g| g.0.division == division)
        .map(|(id, ps, gs)| (*id, distinct(ps), gs.clone()))
        .collect();
    mine.sort_by_key(|g| g.0.number);
    let all = distinct(
        &mine
            .iter()
            .flat_map(|g| g.1.iter().copied())
            .collect::<Vec<_>>(),
    );
    (mine, all)
}

/// "1 gamepoint", "3½ gamepoints".
pub fn gamepoints_text(h: HalfPoints) -> String {
    if h == 2 {
        "1 gamepoint".into()
    } else {
        format!("{} gamepoints", format_points(h))
    }
}

/// "Lee (black) v Kim (white), round 2": a pairing in words, for explanations.
pub fn describe_pairing(p: &Pairing, name: &dyn Fn(PlayerId) -> String) -> String {
    format!(
        "{} (black) v {} (white), round {}",
        name(p.black),
        name(p.white),
        p.round
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game of round 1 with its outcome.
    fn g(b: u32, w: u32, o: Outcome) -> GroupGame {
        GroupGame {
            pairing: Pairing {
                round: 1,
                black: PlayerId(b),
                white: PlayerId(w),
            },
            outcome: Some(o),
        }
    }

    fn ids(n: u32) -> Vec<PlayerId> {
        (1..=n).map(PlayerId).collect()
    }

    #[test]
    fn round_robin_of_four() {
        let r = round_robin(&ids(4));
        assert_eq!(r.len(), 6);
        assert_eq!(r.iter().map(|p| p.round).max(), Some(3));
        for a in 1..=4 {
            for b in (a + 1)..=4 {
                let c = r
                    .iter()
                    .filter(|p| p.is_between(PlayerId(a), PlayerId(b)))
                    .count();
                assert_eq!(c, 1, "{a} v {b}");
            }
        }
    }

    #[test]
    fn round_robin_colours_hold_up_to_forty() {
        for n in 2..=40u32 {
            let ps = ids(n);
            let r = round_robin(&ps);
            assert_eq!(r.len(), (n * (n - 1) / 2) as usize);
            for &p in &ps {
                let colours: Vec<bool> = r
                    .iter()
                    .filter(|g| g.opponent(p).is_some())
                    .map(|g| g.black == p)
                    .collect();
                let blacks = colours.iter().filter(|&&b| b).count() as u32;
                assert!(blacks == (n - 1) / 2 || blacks == n / 2, "n={n} {p}");
                let repeats = colours.windows(2).filter(|w| w[0] == w[1]).count();
                assert!(repeats <= usize::from(n % 2 == 0), "n={n} {p}: {colours:?}");
            }
        }
    }

    #[test]
    fn round_robin_of_one_or_none_is_empty() {
        assert!(round_robin(&[]).is_empty());
        assert!(round_robin(&[PlayerId(1)]).is_empty());
        assert_eq!(
            round_robin(&[PlayerId(1), PlayerId(1), PlayerId(2)]).len(),
            1
        );
    }

    #[test]
    fn points_follow_sj_r4() {
        let r = SunjangRules::default();
        assert_eq!(points(Outcome::BlackWins, &r), [2, 0]);
        assert_eq!(points(Outcome::Jigo, &r), [1, 1]);
        assert_eq!(points(Outcome::BlackForfeits, &r), [0, 2]);
        assert_eq!(points(Outcome::BothForfeit, &r), [0, 0]);
        assert_eq!(start_points(0, 3, &r), 40);
        assert_eq!(start_points(2, 3, &r), 0);
    }

    #[test]
    fn sodos_over_a_jigo_against_an_odd_score_keeps_the_quarter() {
        // 1 beats 2 and draws 3... 3 draws 1 and beats 2: 3 has 1½, 1 has
        // 1½; 1's SODOS = 2's 0 + half of 3's 1½ = ¾.
        let rules = SunjangRules::default();
        let games = vec![
            g(1, 2, Outcome::BlackWins),
            g(1, 3, Outcome::Jigo),
            g(3, 2, Outcome::BlackWins),
        ];
        let q = sodos_units(&ids(3), &games, &rules);
        assert_eq!(q[0], (PlayerId(1), 3));
        let perf = performances(3, &[(GroupId::only(0), ids(3), games)], &rules);
        assert_eq!(perf[0].map(|p| p.sodos), Some(3), "exact: ¾");
    }

    #[test]
    fn sodos_is_exact_with_a_win_3_and_a_jigo_1() {
        // SJ-R12 with the rules file's `win_points = 3`, `jigo_points = 1`
        // (ARB-R39): 1 and 2 draw, 2 beats 3, 3 beats 1. Gamepoints: 1 has
        // 1, 2 has 4, 3 has 3. 1's SODOS is a third of 2's 4 (a jigo takes
        // 1 of a win's 3): 1⅓, not the 1¼ of quarter points; 2's is a
        // third of 1's 1 and all of 3's 3: 3⅓.
        let rules = SunjangRules {
            win_points: 6,
            jigo_points: 2,
            ..SunjangRules::default()
        };
        assert_eq!(rules.sodos_per_point(), 12);
        let games = vec![
            g(1, 2, Outcome::Jigo),
            g(2, 3, Outcome::BlackWins),
            g(3, 1, Outcome::BlackWins),
        ];
        let per = rules.sodos_per_point();
        let shown: Vec<String> = sodos_units(&ids(3), &games, &rules)
            .into_iter()
            .map(|(_, u)| crate::sunjang::format_sodos(u, per))
            .collect();
        assert_eq!(shown, ["1⅓", "3⅓", "1"]);
    }
}
