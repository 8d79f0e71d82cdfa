//! Glicko-2 (Mark E. Glickman, "Example of the Glicko-2 system",
//! <http://www.glicko.net/glicko/glicko2.pdf>), through the `skillratings`
//! crate, over rating periods (ARB-R46: a ladder round).
//!
//! Within a period every player is rated against his opponents' ratings at
//! the start of the period (steps 2 to 8 of the paper, `skillratings`'
//! `glicko2_rating_period`). A player who played in earlier periods but not
//! in this one has his deviation widened (step 6 alone): `φ' = √(φ² + σ²)`
//! per period missed, never wider than a new player's. The widening is
//! applied when he plays again, and at the end of the fold for the periods
//! since his last game; so a period costs only its own players.

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating as SrRating, glicko2_rating_period};

use super::{HistoryEntry, RatedGame, RatedOutcome, Rating, Table};

/// The Glicko-2 scale factor between the Glicko scale and Glicko-2's
/// (step 2 of the paper).
const SCALE: f64 = 173.7178;

/// A Glicko-2 rating on the Glicko scale: rating, deviation (RD) and
/// volatility.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Glicko2Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl From<SrRating> for Glicko2Rating {
    fn from(r: SrRating) -> Self {
        Glicko2Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

impl From<Glicko2Rating> for SrRating {
    fn from(r: Glicko2Rating) -> Self {
        SrRating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

/// The Glicko-2 settings, with the paper's values as defaults: a new player
/// at 1500 with a deviation of 350 and a volatility of 0.06; τ = 0.5 (the
/// paper's example; it calls 0.3 to 1.2 reasonable); the convergence
/// tolerance ε = 0.000001.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Glicko2 {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub tau: f64,
    pub convergence_tolerance: f64,
}

impl Default for Glicko2 {
    fn default() -> Self {
        let r = SrRating::new();
        let c = Glicko2Config::new();
        Glicko2 {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
            tau: c.tau,
            convergence_tolerance: c.convergence_tolerance,
        }
    }
}

impl Glicko2 {
    /// A new player's rating.
    pub fn initial(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn config(&self) -> Glicko2Config {
        Glicko2Config {
            tau: self.tau,
            convergence_tolerance: self.convergence_tolerance,
        }
    }

    /// A player's rating after one rating period with these results (each
    /// against the opponent's rating at the start of the period, the outcome
    /// seen from the player as `a`). No results: the deviation widens.
    pub fn period(
        &self,
        player: Glicko2Rating,
        results: &[(Glicko2Rating, RatedOutcome)],
    ) -> Glicko2Rating {
        if results.is_empty() {
            return self.widen(player, 1);
        }
        let r: Vec<(SrRating, Outcomes)> = results
            .iter()
            .map(|&(o, res)| (o.into(), outcome(res)))
            .collect();
        glicko2_rating_period(&player.into(), &r, &self.config()).into()
    }

    /// The deviation after `periods` rating periods without a game (step 6
    /// of the paper, once per period), never wider than a new player's.
    pub fn widen(&self, r: Glicko2Rating, periods: u32) -> Glicko2Rating {
        if periods == 0 {
            return r;
        }
        let phi = r.deviation / SCALE;
        let widened = (phi * phi + f64::from(periods) * r.volatility * r.volatility).sqrt();
        Glicko2Rating {
            deviation: (widened * SCALE).min(self.deviation.max(r.deviation)),
            ..r
        }
    }
}

/// The `skillratings` outcome of a result seen from `a`.
pub(super) fn outcome(o: RatedOutcome) -> Outcomes {
    match o {
        RatedOutcome::AWins => Outcomes::WIN,
        RatedOutcome::BWins => Outcomes::LOSS,
        RatedOutcome::Draw => Outcomes::DRAW,
    }
}

fn as_g2(r: Rating, fallback: Glicko2Rating) -> Glicko2Rating {
    match r {
        Rating::Glicko2(g) => g,
        _ => fallback,
    }
}

/// The fold over rating periods (see the module's doc and ARB-R46).
pub(super) fn fold(s: &Glicko2, games: &[RatedGame], order: &[u32], table: &mut Table) {
    let config = s.config();
    let initial = s.initial();
    // The ordinal of the last period each player (by slot) played in.
    let mut last: Vec<u32> = Vec::new();
    // (player slot, opponent key, outcome seen from the player, opponent
    // slot), both ways.
    let mut entries: Vec<(u32, u32, RatedOutcome, u32)> = Vec::new();
    let mut buf: Vec<(SrRating, Outcomes)> = Vec::new();
    let mut updates: Vec<(u32, Glicko2Rating, u32)> = Vec::new();
    let mut ordinal: u32 = 0;
    let mut start = 0;
    while start < order.len() {
        let period = games[order[start] as usize].period;
        let end = start
            + order[start..]
                .iter()
                .take_while(|&&i| games[i as usize].period == period)
                .count();
        ordinal += 1;
        entries.clear();
        for (k, &i) in order.iter().enumerate().take(end).skip(start) {
            let g = &games[i as usize];
            let (a, b) = table.slots[k];
            entries.push((a, g.b.0, g.outcome, b));
            entries.push((b, g.a.0, g.outcome.swapped(), a));
        }
        // A new player has missed nothing.
        last.resize(table.players.len(), ordinal - 1);
        // The canonical order: a player's results are summed in the order of
        // his opponents' keys and the outcomes, whatever the order of the
        // games (ARB-R46). (Slots depend on the input order; keys do not.)
        entries.sort_unstable();

        // Bring everyone who plays up to the start of this period.
        let mut prev = u32::MAX;
        for &(p, _, _, _) in &entries {
            if p != prev {
                prev = p;
                let missed = ordinal - 1 - last[p as usize];
                if missed > 0 {
                    let pl = &mut table.players[p as usize];
                    pl.rating = Rating::Glicko2(s.widen(as_g2(pl.rating, initial), missed));
                }
            }
        }

        // Rate everyone against the ratings at the start of the period.
        updates.clear();
        for chunk in entries.chunk_by(|x, y| x.0 == y.0) {
            let p = chunk[0].0;
            buf.clear();
            buf.extend(chunk.iter().map(|&(_, _, res, o)| {
                (
                    SrRating::from(as_g2(table.players[o as usize].rating, initial)),
                    outcome(res),
                )
            }));
            let me = SrRating::from(as_g2(table.players[p as usize].rating, initial));
            let new = glicko2_rating_period(&me, &buf, &config);
            let n = u32::try_from(chunk.len()).unwrap_or(u32::MAX);
            updates.push((p, new.into(), n));
        }
        for &(p, r, n) in &updates {
            let pl = &mut table.players[p as usize];
            pl.rating = Rating::Glicko2(r);
            pl.games += n;
            pl.history.push(HistoryEntry {
                period,
                game: None,
                rating: pl.rating,
            });
            last[p as usize] = ordinal;
        }
        start = end;
    }
    // The periods since each player's last game.
    for (p, pl) in table.players.iter_mut().enumerate() {
        let missed = ordinal - last.get(p).copied().unwrap_or(ordinal);
        if missed > 0 {
            pl.rating = Rating::Glicko2(s.widen(as_g2(pl.rating, initial), missed));
        }
    }
}
