//! Monte-Carlo projections (ARB-R48): for each player, how often each
//! outcome that matters happens over many simulated seasons, every one
//! played out under the competition's full rules.
//!
//! - this module: the [`Projection`] (counts out of the number of simulated
//!   seasons), the seeded random source [`SimRng`], the [`WinModel`] that
//!   turns ratings ([`crate::ratings`]) into the odds of a game, and the
//!   simulate-N-times loop [`run`] (and [`run_with_progress`], which reports
//!   the seasons done to a caller's callback);
//! - [`sunjang`]: a Sunjang division (its groups, section B, the final
//!   round for division A);
//! - [`xmadn`]: an XMadn league (table places through the six-step cascade
//!   with its die roll, the playoff, the title);
//! - [`tws`]: a Twilight Struggle ladder (the champion and the rung bands
//!   after the running round and `k` more);
//! - [`roundrobin`]: a general round-robin league (each player's final
//!   place through the league's own cascade, with draws and scores
//!   simulated as ARB-R70 says, [`WinModel::odds`]).
//!
//! # Reproducible
//!
//! The engine has no randomness of its own: the caller gives a 32-byte
//! seed. Simulated season `i` draws from ChaCha20 seeded with the seed on
//! stream `i` ([`SimRng::season`]), so a season's draws do not depend on
//! the others, and the same seed gives the same projection on any machine.
//! Every decision compares integers: a probability is a whole number of
//! parts per million ([`PPM`]) and a draw is a uniform integer below
//! [`PPM`], drawn by rejection so that it has no bias. The probabilities
//! come from ratings through `f64` formulas (the Elo and Glicko-2 expected
//! scores) and are rounded to parts per million once, before any draw.

pub mod roundrobin;
pub mod sunjang;
pub mod tws;
pub mod xmadn;

use std::collections::BTreeMap;
use std::ops::ControlFlow;

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

use crate::draw::Seed;
use crate::model::PlayerId;
use crate::ratings::{Glicko2Rating, PlayerKey, Rating, Ratings, System};

/// The ruling that documents the model.
pub const RULING: &str = "ARB-R48";

/// Parts per million: the unit of every probability a decision reads.
pub const PPM: u32 = 1_000_000;

/// The outcome counts of a projection: for each player, in how many of the
/// `seasons` simulated seasons each outcome happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Projection<O> {
    /// Simulated seasons: the denominator of every count.
    pub seasons: u32,
    pub seed: Seed,
    /// Player → outcome → seasons in which it happened. An outcome that
    /// never happened is absent (its count is 0).
    pub per_player: BTreeMap<PlayerId, BTreeMap<O, u32>>,
}

impl<O: Ord + Copy> Projection<O> {
    /// Seasons in which `player` had `outcome`.
    pub fn count(&self, player: PlayerId, outcome: O) -> u32 {
        self.per_player
            .get(&player)
            .and_then(|m| m.get(&outcome))
            .copied()
            .unwrap_or(0)
    }

    /// The count as a fraction of the seasons: for display only (nothing
    /// decides on it).
    pub fn probability(&self, player: PlayerId, outcome: O) -> f64 {
        if self.seasons == 0 {
            return 0.0;
        }
        f64::from(self.count(player, outcome)) / f64::from(self.seasons)
    }

    /// Every player's count of `outcome`, summed: for an outcome exactly one
    /// player has each season (a place, a title) it is `seasons`.
    pub fn total(&self, outcome: O) -> u64 {
        self.per_player
            .values()
            .filter_map(|m| m.get(&outcome))
            .map(|&c| u64::from(c))
            .sum()
    }
}

/// What a simulated season reports: each player's outcomes.
#[derive(Debug)]
pub struct Tally<O> {
    counts: BTreeMap<(PlayerId, O), u32>,
}

impl<O: Ord + Copy> Tally<O> {
    fn new() -> Self {
        Tally {
            counts: BTreeMap::new(),
        }
    }

    /// `player` had `outcome` in this season (report each outcome once a
    /// season).
    pub fn add(&mut self, player: PlayerId, outcome: O) {
        *self.counts.entry((player, outcome)).or_insert(0) += 1;
    }

    fn finish(self, seasons: u32, seed: Seed, players: &[PlayerId]) -> Projection<O> {
        let mut per_player: BTreeMap<PlayerId, BTreeMap<O, u32>> =
            players.iter().map(|&p| (p, BTreeMap::new())).collect();
        for ((p, o), c) in self.counts {
            per_player.entry(p).or_default().insert(o, c);
        }
        Projection {
            seasons,
            seed,
            per_player,
        }
    }
}

/// Simulate `seasons` seasons: season `i` gets [`SimRng::season`]`(seed,
/// i)` and reports its outcomes to the tally. `players` are listed in the
/// projection even when nothing happens to them.
pub fn run<O: Ord + Copy>(
    seasons: u32,
    seed: Seed,
    players: &[PlayerId],
    season: impl FnMut(&mut SimRng, &mut Tally<O>),
) -> Projection<O> {
    run_with_progress(seasons, seed, players, season, &mut go_on)
}

/// Seasons between two calls of a progress callback.
pub const PROGRESS_EVERY: u32 = 64;

/// What a progress callback answers: go on, or stop the simulation.
pub type Progress<'a> = &'a mut dyn FnMut(u32) -> ControlFlow<()>;

/// A progress callback that only goes on.
pub fn go_on(_done: u32) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

/// [`run`], calling `progress` with the number of seasons simulated so far
/// every [`PROGRESS_EVERY`] seasons and once at the end. The callback sees
/// nothing of the seasons: the counts are those of [`run`].
///
/// A callback that answers `Break` stops the simulation there (a server
/// whose caller went away, issue 14): the projection then counts only the
/// seasons simulated so far, its `seasons` says how many, and it is the
/// projection of that many seasons from the same seed. The caller compares
/// `seasons` with what it asked for.
pub fn run_with_progress<O: Ord + Copy>(
    seasons: u32,
    seed: Seed,
    players: &[PlayerId],
    mut season: impl FnMut(&mut SimRng, &mut Tally<O>),
    progress: Progress<'_>,
) -> Projection<O> {
    let mut tally = Tally::new();
    for i in 0..seasons {
        let mut rng = SimRng::season(&seed, u64::from(i));
        season(&mut rng, &mut tally);
        let done = i + 1;
        if done % PROGRESS_EVERY == 0 && done < seasons && progress(done).is_break() {
            return tally.finish(done, seed, players);
        }
    }
    // The last call cannot stop anything: every season is simulated.
    let _ = progress(seasons);
    tally.finish(seasons, seed, players)
}

/// The random source of a simulated season: ChaCha20 on the caller's seed.
#[derive(Debug, Clone)]
pub struct SimRng(ChaCha20Rng);

impl SimRng {
    /// The source of season `index`: ChaCha20 seeded with `seed`, stream
    /// `index`.
    pub fn season(seed: &Seed, index: u64) -> Self {
        let mut rng = ChaCha20Rng::from_seed(*seed);
        rng.set_stream(index);
        SimRng(rng)
    }

    /// A uniform integer in `0..n` (`n` at least 1), without bias: words at
    /// or above the largest multiple of `n` are drawn again.
    pub fn below(&mut self, n: u32) -> u32 {
        let n = n.max(1);
        let limit = u32::MAX - u32::MAX % n;
        loop {
            let w = self.0.next_u32();
            if w < limit {
                return w % n;
            }
        }
    }

    /// True with probability `ppm` parts per million.
    pub fn chance(&mut self, ppm: u32) -> bool {
        self.below(PPM) < ppm
    }

    /// A uniform integer in `lo..=hi`.
    pub fn between(&mut self, lo: u32, hi: u32) -> u32 {
        if hi <= lo {
            return lo;
        }
        lo + self.below(hi - lo + 1)
    }

    /// A 32-byte seed for a draw the simulated season makes through the
    /// engine (a die roll, a round's draw).
    pub fn seed(&mut self) -> Seed {
        let mut s = [0u8; 32];
        self.0.fill_bytes(&mut s);
        s
    }

    /// Shuffle `v` uniformly (Fisher-Yates).
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(u32::try_from(i + 1).unwrap_or(u32::MAX)) as usize;
            v.swap(i, j);
        }
    }
}

/// The result of a simulated game between a first and a second player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    FirstWins,
    SecondWins,
    Draw,
}

/// A player's strength as the model reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Strength {
    Elo(f64),
    Area(i32),
    Glicko2(Glicko2Rating),
}

/// How strengths become the odds of a game (ARB-R48):
///
/// - a game is drawn (a Sunjang jigo, a TWS tie) with the fixed probability
///   `draw_ppm`, whoever plays; XMadn games are never drawn;
/// - otherwise the first player wins with his expected score against the
///   second: Elo's `1 / (1 + 10^((Rb - Ra) / 400))`; Glicko-2's expected
///   score with both deviations, `E = 1 / (1 + exp(-g(√(φa² + φb²)) (μa -
///   μb)))`, `g(φ) = 1 / √(1 + 3φ²/π²)` (`skillratings`'
///   `expected_score`); AREA's break-even score, the one at which a
///   player's rating does not move on average: a win gains `100 - 5% d`
///   and a loss costs `100 + 5% d` for a lead of `d` points, so `p = 1/2 +
///   d / 4000` (with the published 100 and 5%), kept within 1% to 99%;
/// - the probability is rounded to parts per million ([`PPM`]) before any
///   draw compares with it.
///
/// A player the ratings do not know plays at the system's initial rating.
#[derive(Debug, Clone)]
pub struct WinModel {
    /// By [`PlayerId::index`].
    strengths: Vec<Option<Strength>>,
    initial: Strength,
    system: Option<System>,
    draw_ppm: u32,
}

impl WinModel {
    /// The model of `ratings` (a fold of [`crate::ratings::rate`] over the
    /// format's games, keyed by [`PlayerKey::from`] the player's id) with a
    /// draw rate of `draw_ppm`.
    pub fn from_ratings(ratings: &Ratings, draw_ppm: u32) -> WinModel {
        let initial = match ratings.system {
            System::Area(s) => Strength::Area(s.initial),
            System::Elo(s) => Strength::Elo(s.initial),
            System::Glicko2(s) => Strength::Glicko2(s.initial()),
        };
        let mut m = WinModel {
            strengths: Vec::new(),
            initial,
            system: Some(ratings.system),
            draw_ppm: draw_ppm.min(PPM),
        };
        for r in ratings.players() {
            let s = match r.rating {
                Rating::Area(x) => Strength::Area(x),
                Rating::Elo(x) => Strength::Elo(x),
                Rating::Glicko2(x) => Strength::Glicko2(x),
            };
            m.set(PlayerId(r.player.0), s);
        }
        m
    }

    /// An Elo model from ratings given directly (a player not listed plays
    /// at 1500).
    pub fn elo(ratings: impl IntoIterator<Item = (PlayerId, f64)>, draw_ppm: u32) -> WinModel {
        let mut m = WinModel {
            strengths: Vec::new(),
            initial: Strength::Elo(1500.0),
            system: None,
            draw_ppm: draw_ppm.min(PPM),
        };
        for (p, r) in ratings {
            m.set(p, Strength::Elo(r));
        }
        m
    }

    /// Every game even (each player wins half of the games not drawn).
    pub fn even(draw_ppm: u32) -> WinModel {
        WinModel::elo([], draw_ppm)
    }

    fn set(&mut self, p: PlayerId, s: Strength) {
        let Some(i) = p.0.checked_sub(1).map(|i| i as usize) else {
            return;
        };
        if self.strengths.len() <= i {
            self.strengths.resize(i + 1, None);
        }
        self.strengths[i] = Some(s);
    }

    fn strength(&self, p: PlayerId) -> Strength {
        p.0.checked_sub(1)
            .and_then(|i| self.strengths.get(i as usize).copied().flatten())
            .unwrap_or(self.initial)
    }

    /// The draw rate, parts per million.
    pub fn draw_ppm(&self) -> u32 {
        self.draw_ppm
    }

    /// The probability that `a` beats `b` in a game that is not drawn,
    /// parts per million.
    pub fn win_ppm(&self, a: PlayerId, b: PlayerId) -> u32 {
        let p = match (self.strength(a), self.strength(b)) {
            (Strength::Elo(x), Strength::Elo(y)) => {
                skillratings::elo::expected_score(
                    &skillratings::elo::EloRating { rating: x },
                    &skillratings::elo::EloRating { rating: y },
                )
                .0
            }
            (Strength::Glicko2(x), Strength::Glicko2(y)) => {
                skillratings::glicko2::expected_score(&x.into(), &y.into()).0
            }
            (Strength::Area(x), Strength::Area(y)) => {
                let (base, percent) = match self.system {
                    Some(System::Area(s)) => (s.base, s.percent),
                    _ => (100, 5),
                };
                // p = 1/2 + percent·d / (2·100·base), in ppm, integers.
                let d = i64::from(x) - i64::from(y);
                let num = i64::from(percent) * d * i64::from(PPM);
                let den = 200 * i64::from(base.max(1));
                let p = i64::from(PPM / 2) + num / den;
                return u32::try_from(p.clamp(10_000, 990_000)).unwrap_or(PPM / 2);
            }
            _ => 0.5,
        };
        to_ppm(p)
    }

    /// Play a game between `first` and `second`.
    pub fn play(&self, rng: &mut SimRng, first: PlayerId, second: PlayerId) -> GameResult {
        if self.draw_ppm > 0 && rng.chance(self.draw_ppm) {
            return GameResult::Draw;
        }
        if self.decisive(rng, first, second) {
            GameResult::FirstWins
        } else {
            GameResult::SecondWins
        }
    }

    /// Play a game that cannot be drawn: whether `first` wins.
    pub fn decisive(&self, rng: &mut SimRng, first: PlayerId, second: PlayerId) -> bool {
        rng.chance(self.win_ppm(first, second))
    }

    /// The odds of a game that keep each player's expected score (ARB-R70;
    /// the round-robin league's model). `E` is the first player's expected
    /// score ([`WinModel::win_ppm`]); the game is drawn with probability
    /// `d = draw_ppm × 4E(1 − E)`: the model's draw rate between equal
    /// players, fewer draws as the expected score moves away from ½ (none
    /// when the result is certain), and never more than `2 min(E, 1 − E)`
    /// so that no probability is negative; `d` is rounded down to an even
    /// number of parts per million. The first player then wins with `E −
    /// d/2` and the second with `1 − E − d/2`, so that a win and half the
    /// draws give each player his expected score, as the ratings define it.
    /// Integers throughout, parts per million.
    pub fn odds(&self, first: PlayerId, second: PlayerId) -> Odds {
        let ppm = u64::from(PPM);
        let e = u64::from(self.win_ppm(first, second).min(PPM));
        let closeness = 4 * e * (ppm - e) / ppm;
        let mut d = u64::from(self.draw_ppm) * closeness / ppm;
        d = d.min(2 * e.min(ppm - e)) & !1;
        let first = e - d / 2;
        let draw = d;
        let second = ppm - first - draw;
        // Each is at most PPM.
        let to = |x: u64| u32::try_from(x).unwrap_or(PPM);
        Odds {
            first: to(first),
            draw: to(draw),
            second: to(second),
        }
    }
}

/// The odds of one game, parts per million, summing to [`PPM`]
/// ([`WinModel::odds`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Odds {
    pub first: u32,
    pub draw: u32,
    pub second: u32,
}

impl Odds {
    /// Play the game: one uniform draw below [`PPM`] (`first`, then
    /// `draw`, then `second` in that order of the range).
    pub fn play(self, rng: &mut SimRng) -> GameResult {
        let u = rng.below(PPM);
        if u < self.first {
            GameResult::FirstWins
        } else if u - self.first < self.draw {
            GameResult::Draw
        } else {
            GameResult::SecondWins
        }
    }
}

/// A probability in parts per million, rounded, within 0 to [`PPM`].
pub fn to_ppm(p: f64) -> u32 {
    if p.is_nan() {
        return PPM / 2;
    }
    let x = (p.clamp(0.0, 1.0) * f64::from(PPM)).round();
    // In 0..=PPM after the clamp.
    x as u32
}

/// A draw rate from a competition's history: `draws` of `games` decided
/// games, parts per million (0 without games).
pub fn draw_rate(draws: u64, games: u64) -> u32 {
    if games == 0 {
        return 0;
    }
    let r = draws.min(games) * u64::from(PPM) / games;
    u32::try_from(r).unwrap_or(PPM)
}

/// The rating key of a player id, for [`Ratings::get`].
pub fn key(p: PlayerId) -> PlayerKey {
    PlayerKey::from(p)
}

#[cfg(test)]
mod progress_tests {
    use super::*;

    #[test]
    fn progress_is_reported_without_changing_the_counts() {
        let players = [PlayerId(1), PlayerId(2)];
        let season = |rng: &mut SimRng, tally: &mut Tally<u8>| {
            let p = players[rng.below(2) as usize];
            tally.add(p, 0);
        };
        let plain = run(200, [7; 32], &players, season);
        let mut seen = Vec::new();
        let with = run_with_progress(200, [7; 32], &players, season, &mut |d| {
            seen.push(d);
            ControlFlow::Continue(())
        });
        assert_eq!(plain, with);
        assert_eq!(seen, [64, 128, 192, 200]);
    }

    #[test]
    fn a_callback_that_stops_ends_the_run_with_the_seasons_done_so_far() {
        let players = [PlayerId(1), PlayerId(2)];
        let season = |rng: &mut SimRng, tally: &mut Tally<u8>| {
            let p = players[rng.below(2) as usize];
            tally.add(p, 0);
        };
        let mut calls = 0;
        let stopped = run_with_progress(10_000, [7; 32], &players, season, &mut |_| {
            calls += 1;
            if calls == 2 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        assert_eq!(calls, 2, "no call after the stop");
        assert_eq!(stopped.seasons, 128);
        // The same as a run of that many seasons from the same seed.
        assert_eq!(stopped, run(128, [7; 32], &players, season));
    }
}

#[cfg(test)]
mod odds_tests {
    use super::*;

    /// ARB-R70: between equals the draw rate is the model's, and each
    /// player wins half of the rest.
    #[test]
    fn equals_draw_at_the_model_s_rate() {
        let m = WinModel::even(300_000);
        let o = m.odds(PlayerId(1), PlayerId(2));
        assert_eq!(
            o,
            Odds {
                first: 350_000,
                draw: 300_000,
                second: 350_000
            }
        );
    }

    /// The expected score is kept, and fewer games are drawn as the
    /// players differ: Elo 1700 against 1500 expects 0.759747.
    #[test]
    fn the_expected_score_is_kept() {
        let m = WinModel::elo([(PlayerId(1), 1700.0), (PlayerId(2), 1500.0)], 300_000);
        let e = m.win_ppm(PlayerId(1), PlayerId(2));
        assert_eq!(e, 759_747);
        let o = m.odds(PlayerId(1), PlayerId(2));
        // 4 × 0.759747 × 0.240253 = 0.730125…, times 30%: 219,037, even.
        assert_eq!(o.draw, 219_036);
        assert_eq!(o.first + o.draw / 2, e);
        assert_eq!(o.first + o.draw + o.second, PPM);
        let back = m.odds(PlayerId(2), PlayerId(1));
        assert_eq!(
            (back.first, back.draw, back.second),
            (o.second, o.draw, o.first)
        );
        let none = WinModel::elo([(PlayerId(1), 1700.0)], 0).odds(PlayerId(1), PlayerId(2));
        assert_eq!((none.first, none.draw), (e, 0));
    }

    /// A draw rate too high for the gap is capped so that no probability
    /// is negative: at E = 0.9 and every equal game drawn, 20% draws.
    #[test]
    fn draws_never_make_a_probability_negative() {
        let m = WinModel::elo([(PlayerId(1), 1881.7), (PlayerId(2), 1500.0)], PPM);
        let o = m.odds(PlayerId(1), PlayerId(2));
        let e = m.win_ppm(PlayerId(1), PlayerId(2));
        assert!((899_000..901_000).contains(&e), "{e}");
        assert_eq!(o.second, 0);
        assert_eq!(o.draw, 2 * (PPM - e));
        for r in [0.0, 800.0, 1499.0, 1500.0, 2600.0, 4000.0] {
            let m = WinModel::elo([(PlayerId(1), r)], PPM);
            let o = m.odds(PlayerId(1), PlayerId(2));
            assert_eq!(
                u64::from(o.first) + u64::from(o.draw) + u64::from(o.second),
                1_000_000
            );
        }
    }

    /// Playing the odds gives their frequencies.
    #[test]
    fn odds_play_as_their_frequencies() {
        let o = Odds {
            first: 500_000,
            draw: 200_000,
            second: 300_000,
        };
        let mut rng = SimRng::season(&[9; 32], 1);
        let mut seen = [0u32; 3];
        for _ in 0..100_000 {
            seen[match o.play(&mut rng) {
                GameResult::FirstWins => 0,
                GameResult::Draw => 1,
                GameResult::SecondWins => 2,
            }] += 1;
        }
        for (k, want) in [50_000u32, 20_000, 30_000].into_iter().enumerate() {
            assert!(seen[k].abs_diff(want) < 700, "{seen:?}");
        }
    }
}
