//! Ratings over all rated games of one game title: a fold over results.
//!
//! The input is game-agnostic: a [`RatedGame`] says who played whom, who won
//! (or that it was a draw), the rating period it belongs to and when its
//! result was recorded. A format turns its results into rated games (the
//! Twilight Struggle ladder: [`crate::tws::ratings`]); [`rate`] folds them
//! under one [`System`] into [`Ratings`]: each player's current rating and
//! his history.
//!
//! The systems:
//!
//! - [`Area`]: the A.R.E.A. two-player formula, hand-written from its
//!   published description (see [`area`] for the source and the formula);
//!   integer ratings from 5000, one update per game.
//! - [`Elo`]: the Elo system through the `skillratings` crate, one update
//!   per game.
//! - [`Glicko2`]: Glickman's Glicko-2 through the `skillratings` crate, one
//!   update per rating period.
//!
//! # Rating periods (ARB-R46)
//!
//! Glicko-2 is defined over rating periods: every game of a period is rated
//! against the opponents' ratings at the start of the period, and a player
//! who plays nobody in a period has his deviation widened once for it
//! (Glickman's step 6). A ladder plays one round after another and each
//! member plays one ladder game a round, so a period is a *round*: the
//! games of round N (and the quick-round games started while round N ran)
//! are period N. A period per game would make Glicko-2 a sequential system
//! and widen the deviation of every player who was not in that one game;
//! a period per calendar month would mix rounds that the ladder keeps
//! apart. Glickman suggests periods of 10 to 15 games per player; a round
//! has one or two, which makes the deviations fall more slowly, as they
//! should for so few games.
//!
//! Periods count in the order of their numbers; a period in which nobody
//! played is not a period (the numbers need not be consecutive): the widening
//! is per period *played*, which makes a round without rated games (every
//! game forfeited or cancelled) leave deviations alone.
//!
//! Elo and AREA rate each game on its own, in the order of (period, time of
//! the result, position in the input): within a period the order matters to
//! them. Glicko-2 does not depend on the order of the games within a period:
//! each player's results in a period are put in a canonical order before they
//! are summed, so the figures are the same to the last bit whatever the input
//! order.
//!
//! A game of a player against himself is not rated.
//!
//! Ratings are floats for Elo and Glicko-2: they are shown, never compared
//! by a ranking or a tiebreak (no cascade reads them).

pub mod area;
pub mod elo;
pub mod glicko2;

use std::collections::HashMap;

pub use area::Area;
pub use elo::Elo;
pub use glicko2::{Glicko2, Glicko2Rating};

use crate::model::{PlayerId, Time};

/// A player as the ratings know him: a format's player id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayerKey(pub u32);

impl From<PlayerId> for PlayerKey {
    fn from(p: PlayerId) -> Self {
        PlayerKey(p.0)
    }
}

/// The outcome of a rated game, from the point of view of its player `a`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RatedOutcome {
    AWins,
    BWins,
    Draw,
}

impl RatedOutcome {
    /// The same outcome seen from `b`.
    pub fn swapped(self) -> RatedOutcome {
        match self {
            RatedOutcome::AWins => RatedOutcome::BWins,
            RatedOutcome::BWins => RatedOutcome::AWins,
            RatedOutcome::Draw => RatedOutcome::Draw,
        }
    }
}

/// One game as the ratings see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RatedGame {
    pub a: PlayerKey,
    pub b: PlayerKey,
    pub outcome: RatedOutcome,
    /// The rating period (for a ladder, the round; ARB-R46).
    pub period: u32,
    /// When the result was recorded: the order of games within a period for
    /// the systems that rate game by game.
    pub at: Time,
}

/// A rating system with its settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum System {
    Area(Area),
    Elo(Elo),
    Glicko2(Glicko2),
}

impl System {
    pub fn name(&self) -> &'static str {
        match self {
            System::Area(_) => "AREA",
            System::Elo(_) => "Elo",
            System::Glicko2(_) => "Glicko-2",
        }
    }

    fn initial(&self) -> Rating {
        match self {
            System::Area(s) => Rating::Area(s.initial),
            System::Elo(s) => Rating::Elo(s.initial),
            System::Glicko2(s) => Rating::Glicko2(s.initial()),
        }
    }
}

/// A rating in one of the systems.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rating {
    Area(i32),
    Elo(f64),
    Glicko2(Glicko2Rating),
}

impl Rating {
    /// The number shown for the rating.
    pub fn value(self) -> f64 {
        match self {
            Rating::Area(r) => f64::from(r),
            Rating::Elo(r) => r,
            Rating::Glicko2(r) => r.rating,
        }
    }
}

/// One step of a player's rating history: his rating after a game (Elo,
/// AREA) or after a rating period he played in (Glicko-2).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HistoryEntry {
    pub period: u32,
    /// The game, as its index in the slice given to [`rate`]; `None` for a
    /// Glicko-2 period (its games are those of the period).
    pub game: Option<u32>,
    pub rating: Rating,
}

/// A player's rating and how it came to be.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerRating {
    pub player: PlayerKey,
    /// The current rating (Glicko-2: with the deviation widened for the
    /// periods played since his last game, ARB-R46).
    pub rating: Rating,
    /// Rated games played.
    pub games: u32,
    pub history: Vec<HistoryEntry>,
}

/// The fold's result: every rated player's rating and history.
#[derive(Debug, Clone, PartialEq)]
pub struct Ratings {
    pub system: System,
    /// In order of each player's first rated game.
    players: Vec<PlayerRating>,
    index: HashMap<PlayerKey, usize>,
}

impl Ratings {
    pub fn get(&self, player: PlayerKey) -> Option<&PlayerRating> {
        self.index.get(&player).map(|&i| &self.players[i])
    }

    /// Every rated player, in order of his first rated game.
    pub fn players(&self) -> &[PlayerRating] {
        &self.players
    }

    /// The players by rating, highest first, then by key: the order of a
    /// rating list for display. It decides nothing.
    pub fn by_rating(&self) -> Vec<&PlayerRating> {
        let mut v: Vec<&PlayerRating> = self.players.iter().collect();
        v.sort_by(|x, y| {
            y.rating
                .value()
                .total_cmp(&x.rating.value())
                .then(x.player.cmp(&y.player))
        });
        v
    }
}

/// The players being rated, by slot (order of first rated game), with each
/// rated game's two slots in rating order.
struct Table {
    players: Vec<PlayerRating>,
    /// The slots of `a` and `b` of the k-th game in rating order.
    slots: Vec<(u32, u32)>,
}

/// Where a key's slot is found: a vector when the keys are small (a
/// format's dense player ids), a map otherwise.
enum Index {
    Dense(Vec<u32>),
    Map(HashMap<PlayerKey, u32>),
}

impl Table {
    /// Give every player of the games a slot, in rating order, with room for
    /// his history.
    fn new(games: &[RatedGame], order: &[u32], initial: Rating) -> Self {
        let max = games.iter().map(|g| g.a.0.max(g.b.0)).max().unwrap_or(0) as usize;
        let mut index = if max <= 2 * games.len() + 1024 {
            Index::Dense(vec![u32::MAX; max + 1])
        } else {
            Index::Map(HashMap::new())
        };
        let mut players: Vec<PlayerRating> = Vec::new();
        let mut counts: Vec<u32> = Vec::new();
        let mut slots = Vec::with_capacity(order.len());
        let mut slot = |key: PlayerKey, players: &mut Vec<PlayerRating>| -> u32 {
            let next = u32::try_from(players.len()).unwrap_or(u32::MAX);
            let found = match &mut index {
                Index::Dense(v) => {
                    let s = &mut v[key.0 as usize];
                    if *s == u32::MAX {
                        *s = next;
                    }
                    *s
                }
                Index::Map(m) => *m.entry(key).or_insert(next),
            };
            if found == next {
                players.push(PlayerRating {
                    player: key,
                    rating: initial,
                    games: 0,
                    history: Vec::new(),
                });
                counts.push(0);
            }
            counts[found as usize] += 1;
            found
        };
        for &i in order {
            let g = &games[i as usize];
            let a = slot(g.a, &mut players);
            let b = slot(g.b, &mut players);
            slots.push((a, b));
        }
        for (p, n) in players.iter_mut().zip(counts) {
            p.history.reserve_exact(n as usize);
        }
        Table { players, slots }
    }

    fn finish(self, system: System) -> Ratings {
        let index = self
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| (p.player, i))
            .collect();
        Ratings {
            system,
            players: self.players,
            index,
        }
    }
}

/// The order in which games are rated: by period, then by the time of the
/// result, then by position in the input. Games of a player against himself
/// are left out.
fn order(games: &[RatedGame]) -> Vec<u32> {
    let mut idx: Vec<u32> = (0..games.len())
        .filter(|&i| games[i].a != games[i].b)
        .filter_map(|i| u32::try_from(i).ok())
        .collect();
    let key = |&i: &u32| {
        let g = &games[i as usize];
        (g.period, g.at)
    };
    // A format gives its games in order, mostly: no sort then.
    if !idx.is_sorted_by_key(key) {
        idx.sort_by_key(key);
    }
    idx
}

/// Rate `games` under `system`: the fold of ARB-R46.
pub fn rate(games: &[RatedGame], system: &System) -> Ratings {
    let order = order(games);
    let mut table = Table::new(games, &order, system.initial());
    match system {
        System::Area(s) => per_game(games, &order, &mut table, |ra, rb, o| match (ra, rb) {
            (Rating::Area(a), Rating::Area(b)) => {
                let (a, b) = s.update(a, b, o);
                (Rating::Area(a), Rating::Area(b))
            }
            other => other,
        }),
        System::Elo(s) => per_game(games, &order, &mut table, |ra, rb, o| match (ra, rb) {
            (Rating::Elo(a), Rating::Elo(b)) => {
                let (a, b) = s.update(a, b, o);
                (Rating::Elo(a), Rating::Elo(b))
            }
            other => other,
        }),
        System::Glicko2(s) => glicko2::fold(s, games, &order, &mut table),
    }
    table.finish(*system)
}

/// The sequential fold of the systems that rate game by game.
fn per_game(
    games: &[RatedGame],
    order: &[u32],
    table: &mut Table,
    update: impl Fn(Rating, Rating, RatedOutcome) -> (Rating, Rating),
) {
    for (k, &i) in order.iter().enumerate() {
        let g = &games[i as usize];
        let (a, b) = table.slots[k];
        let (ra, rb) = update(
            table.players[a as usize].rating,
            table.players[b as usize].rating,
            g.outcome,
        );
        for (slot, rating) in [(a, ra), (b, rb)] {
            let p = &mut table.players[slot as usize];
            p.rating = rating;
            p.games += 1;
            p.history.push(HistoryEntry {
                period: g.period,
                game: Some(i),
                rating,
            });
        }
    }
}
