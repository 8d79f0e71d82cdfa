//! What-if for a round-robin league (issue 16 §2): hypothetical results,
//! each a game (`G3`, or `HOME-AWAY` as `round-robin result` takes it) and
//! a score in the order of the names given (`2-1`, `1-0`, `½-½`, `+:-`),
//! recorded on a copy through the engine's own `decide`/`apply`; the table
//! after them with every place explained (ARB-R67). A game that already
//! has a result is corrected on the copy ("what if that game had ended
//! otherwise"). Nothing is stored.

use arbiter_engine::model::Time;
use arbiter_engine::roundrobin::{Command, RoundRobin};
use serde::Serialize;

use super::{RoundRobinView, read_score, round_robin_view};
use crate::{Result, ServiceError};

/// The most hypothetical results one what-if takes (a 64-player double
/// round robin has 4,032 games).
pub const MOST_RESULTS: usize = 4_032;

/// A round-robin league after hypothetical results, on a copy.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct RoundRobinWhatIfView {
    /// Always `round-robin`.
    pub format: String,
    pub competition: String,
    /// The version the copy was taken at.
    pub version: u64,
    /// The hypothetical results as recorded on the copy ("G3 Spain v
    /// Germany: 1-1").
    pub results: Vec<String>,
    /// The league after them: its table, each place explained.
    pub league: RoundRobinView,
}

impl crate::what_if::WhatIfOutcome for RoundRobinWhatIfView {
    fn version(&self) -> u64 {
        self.version
    }
    fn results(&self) -> &[String] {
        &self.results
    }
}

/// The league `rr` after `results` at `at`, on a copy.
pub fn round_robin_what_if(
    rr: &RoundRobin,
    competition: &str,
    version: u64,
    results: &[(String, String)],
    at: Time,
) -> Result<RoundRobinWhatIfView> {
    if results.len() > MOST_RESULTS {
        return Err(ServiceError::Input(format!(
            "results: at most {MOST_RESULTS} hypothetical results, not {}",
            results.len()
        )));
    }
    if rr.started.is_none() {
        return Err(ServiceError::Input(format!(
            "{} has not started: there is no game to imagine a result for",
            rr.name
        )));
    }
    let mut copy = rr.clone();
    let mut shown = Vec::with_capacity(results.len());
    for (game, score) in results {
        let (id, score) = read_score(&copy, game, score, None)?;
        let recorded = copy.game(id).and_then(|g| g.score).is_some();
        let command = if recorded {
            Command::Correct {
                game: id,
                score: Some(score),
                minutes: None,
                reason: "what-if".into(),
                at,
            }
        } else {
            Command::Record {
                game: id,
                score,
                minutes: None,
                at,
            }
        };
        let events = copy.decide(command)?;
        for e in &events {
            copy.apply(e);
        }
        if let Some(g) = copy.game(id) {
            shown.push(format!(
                "G{} {} v {}: {}",
                g.id,
                copy.name_of(g.home),
                copy.name_of(g.away),
                score.show()
            ));
        }
    }
    Ok(RoundRobinWhatIfView {
        format: "round-robin".into(),
        competition: competition.to_string(),
        version,
        results: shown,
        league: round_robin_view(&copy, competition, version),
    })
}
