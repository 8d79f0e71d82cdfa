//! Elo, through the `skillratings` crate: one update per game, the expected
//! score `1 / (1 + 10^((Rb - Ra) / 400))`, the new rating
//! `Ra + K (Sa - Ea)`.

use skillratings::elo::{EloConfig, EloRating, elo};

use super::RatedOutcome;
use super::glicko2::outcome;

/// The Elo settings, with `skillratings`' defaults: K = 32, a new player at
/// 1000.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Elo {
    pub initial: f64,
    pub k: f64,
}

impl Default for Elo {
    fn default() -> Self {
        Elo {
            initial: EloRating::new().rating,
            k: EloConfig::new().k,
        }
    }
}

impl Elo {
    /// Both players' ratings after a game.
    pub fn update(&self, a: f64, b: f64, result: RatedOutcome) -> (f64, f64) {
        let (a, b) = elo(
            &EloRating { rating: a },
            &EloRating { rating: b },
            &outcome(result),
            &EloConfig { k: self.k },
        );
        (a.rating, b.rating)
    }
}
