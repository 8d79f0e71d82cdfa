//! When do the remaining round-robin games still matter?
//!
//! "The order of the at-boards of the bottom half (Games 4 to 6) shall
//! remain flexible in aiming to determine the significant outcomes on the
//! table as late as possible. Once they have been determined, remaining
//! round-robin games may be cancelled by mutual consent of the respective
//! players."
//!
//! The significant outcomes are the table places that decide the title,
//! playoff qualification and seeding (ARB-R26): 1st without a playoff,
//! 1st and 2nd (and so 3rd) with one. They are *determined* when the same
//! players hold them whatever the remaining results. The check enumerates
//! every distribution of wins over the remaining games (only how many
//! games each player wins against each other counts for the win-loss
//! steps) and ranks each with the league's own cascade; steps that need
//! pawns or times of games not yet played cannot be evaluated, and a tie
//! that reaches them, or the die, counts as open. So "determined" is never
//! wrong: it may only come later than a cleverer proof would allow.
//!
//! The enumeration is the clinch analysis's ([`super::clinch`], ARB-R47):
//! each significant place is a zone of one place, determined when some
//! player has clinched it (not even the die deciding), and its candidates
//! are the players some completion puts in it or in a tie across it. Two
//! shortcuts keep this fast for long leagues (up to 20 DRR, 41^3
//! distributions at the start) without changing any answer: a player whose
//! whole group of equal win-loss records lies inside or outside a place is
//! settled from the records alone (the cascade would order the groups by
//! record first), and the enumeration stops once the answer cannot change
//! (open with every player a candidate for every place; or open at all,
//! when only the verdict is wanted, as for the suggestion).
//! `league_properties.rs` and `clinch_properties.rs` check both against the
//! plain enumeration.

use crate::clinch::{Evidence, Verdict, Zone, ZoneKind};
use crate::explain::Explanation;
use crate::model::{GameId, PlayerId};

use super::league::{League, LeagueGame, PLAYERS, Phase};
use super::rules::Playoff;
use super::table::{Fact, TieRoll};

const CLAUSE: &str = "XMadn League: Double-round robins";

/// The significant places of a league (ARB-R26).
pub fn significant_places(playoff: Playoff) -> Vec<usize> {
    match playoff {
        Playoff::None => vec![1],
        Playoff::TopTwo { .. } | Playoff::AllThree { .. } => vec![1, 2],
    }
}

/// Whether the significant outcomes are determined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Determination {
    pub determined: bool,
    /// For each significant place, the players who can still hold it.
    pub places: Vec<(usize, Vec<PlayerId>)>,
    /// Round-robin games left (including double round-robins to come).
    pub remaining: usize,
}

impl Determination {
    /// "1st Ames, 2nd Baker whatever the remaining 4 games" or "1st: Ames or
    /// Baker; 2nd: Ames, Baker or Clark (5 games left)".
    pub fn summary(&self, league: &League) -> String {
        let names = |ps: &[PlayerId]| -> String {
            let n: Vec<String> = ps.iter().map(|p| league.name_of(*p)).collect();
            match n.as_slice() {
                [] => "nobody".into(),
                [one] => one.clone(),
                [init @ .., last] => format!("{} or {last}", init.join(", ")),
            }
        };
        let games = match self.remaining {
            // Every game is played: only a round of die-roll (step 6) can
            // still be missing.
            0 => "no games left, until the round of die-roll (step 6)".to_string(),
            1 => "the remaining game".to_string(),
            n => format!("the remaining {n} games"),
        };
        if self.determined {
            let held: Vec<String> = self
                .places
                .iter()
                .map(|(place, ps)| format!("{} {}", ordinal(*place), names(ps)))
                .collect();
            if self.remaining == 0 {
                held.join(", ")
            } else {
                format!("{} whatever {games}", held.join(", "))
            }
        } else {
            let open: Vec<String> = self
                .places
                .iter()
                .map(|(place, ps)| format!("{}: {}", ordinal(*place), names(ps)))
                .collect();
            format!("still open with {games}: {}", open.join("; "))
        }
    }

    /// The explanation shown with the table.
    pub fn explain(&self, league: &League) -> Explanation {
        let text = if self.determined && self.remaining == 0 {
            format!("No round-robin games remain: {}", self.summary(league))
        } else if self.determined {
            format!(
                "The significant outcomes are determined: {}. The remaining round-robin games may be cancelled by mutual consent of their players (they count for nothing)",
                self.summary(league)
            )
        } else {
            format!("The significant outcomes are {}", self.summary(league))
        };
        Explanation::new(CLAUSE, &["XM-R6", "ARB-R26"], text)
    }
}

pub use crate::explain::ordinal;

/// The pairs of the remaining round-robin games: unplayed games of rolled
/// double round-robins, and six games (each pair twice) for each one to come.
pub fn remaining_pairs(league: &League) -> Vec<[PlayerId; 2]> {
    let mut out: Vec<[PlayerId; 2]> = league
        .round_robin_games()
        .filter(|g| !g.is_resolved())
        .map(|g| g.players)
        .collect();
    for _ in 0..league.drrs_to_come() {
        for pair in [
            [PLAYERS[0], PLAYERS[1]],
            [PLAYERS[0], PLAYERS[2]],
            [PLAYERS[1], PLAYERS[2]],
        ] {
            out.push(pair);
            out.push(pair);
        }
    }
    out
}

/// The players at the significant places in every completion of `known`
/// by results of `open`, or the candidates per place when not fixed.
pub fn decide_places(
    known: &[Fact],
    open: &[[PlayerId; 2]],
    significant: &[usize],
) -> Determination {
    decide_places_with(known, open, significant, &[])
}

/// [`decide_places`] with the step-6 die rolls already recorded (they
/// decide a tie among exactly their players).
pub fn decide_places_with(
    known: &[Fact],
    open: &[[PlayerId; 2]],
    significant: &[usize],
    rolls: &[TieRoll],
) -> Determination {
    enumerate(known, open, significant, rolls, false)
}

/// Only the verdict of [`decide_places_with`]: the enumeration stops at the
/// first completion that shows the outcomes open (the candidates are not
/// wanted), which is what the suggestion asks hundreds of times.
fn is_determined(
    known: &[Fact],
    open: &[[PlayerId; 2]],
    significant: &[usize],
    rolls: &[TieRoll],
) -> bool {
    enumerate(known, open, significant, rolls, true).determined
}

fn enumerate(
    known: &[Fact],
    open: &[[PlayerId; 2]],
    significant: &[usize],
    rolls: &[TieRoll],
    verdict_only: bool,
) -> Determination {
    // Each significant place is a zone of one place (ARB-R47): it is
    // determined when a player has clinched it, not even a die deciding.
    let zones: Vec<Zone> = significant
        .iter()
        .map(|&k| Zone::new(ZoneKind::Place(k), k, k))
        .collect();
    let z = zones.len();
    let n = PLAYERS.len();
    // Nobody can still clinch place `zi`: every player has been out of
    // it, or in a tie across it.
    let lost =
        |ev: &[Evidence], zi: usize| (0..n).all(|i| ev[i * z + zi].outside || ev[i * z + zi].die);
    let (ev, _) = super::clinch::evidence(known, open, rolls, &zones, |ev| {
        // Open, and every place may go to anyone: no completion can tell
        // more; or, when only the verdict is wanted, open at all.
        let saturated = ev.iter().all(Evidence::possible);
        let undetermined = (0..z).any(|zi| lost(ev, zi));
        undetermined && (verdict_only || saturated)
    });
    let determined =
        (0..z).all(|zi| (0..n).any(|i| ev[i * z + zi].verdict(true) == Verdict::Clinched));
    let places = significant
        .iter()
        .enumerate()
        .map(|(zi, &place)| {
            let mut c: Vec<PlayerId> = (0..n)
                .filter(|&i| ev[i * z + zi].possible())
                .map(|i| PLAYERS[i])
                .collect();
            c.sort_unstable();
            (place, c)
        })
        .collect();
    Determination {
        determined,
        places,
        remaining: open.len(),
    }
}

/// Whether the league's significant outcomes are determined now.
pub fn determination(league: &League) -> Determination {
    decide_places_with(
        &super::table::facts(league),
        &remaining_pairs(league),
        &significant_places(league.rules.playoff),
        &super::table::tie_rolls(league),
    )
}

/// A suggested order for the rest of the bottom half.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestion {
    pub order: Vec<GameId>,
    /// Whatever the results, the significant outcomes stay open for at
    /// least this many of these games.
    pub worst: usize,
    /// The same figure for the document's order (Games 4, 5, 6).
    pub document_worst: usize,
    pub explanation: Explanation,
}

/// The order of the remaining bottom-half games (Games 4 to 6) of the
/// running double round-robin that keeps the significant outcomes
/// undetermined longest: it maximises the number of games played before
/// they can be determined in the worst case, then on average over the
/// results, then keeps the document's order (ARB-R26). `None` when fewer
/// than two bottom-half games remain or the top half is not finished.
pub fn suggest_order(league: &League) -> Option<Suggestion> {
    let Phase::RoundRobin { drr } = league.phase() else {
        return None;
    };
    let games = league.drr_games(drr);
    if games[..3].iter().any(|g| !g.is_resolved()) {
        return None;
    }
    let open: Vec<&LeagueGame> = games[3..]
        .iter()
        .filter(|g| !g.is_resolved())
        .copied()
        .collect();
    if open.len() < 2 {
        return None;
    }
    let significant = significant_places(league.rules.playoff);
    let known = super::table::facts(league);
    let rolls = super::table::tie_rolls(league);
    let later: Vec<[PlayerId; 2]> = remaining_pairs(league)
        .into_iter()
        .skip(open.len())
        .collect();
    let n = open.len();
    let mut best: Option<(usize, usize, Vec<usize>)> = None;
    let mut document = 0;
    for perm in permutations(n) {
        let mut worst = usize::MAX;
        let mut total = 0;
        for outcome in 0..(1u32 << n) {
            let mut facts = known.clone();
            let mut t = n;
            for j in 0..=n {
                let rest: Vec<[PlayerId; 2]> = perm[j..]
                    .iter()
                    .map(|&k| open[k].players)
                    .chain(later.iter().copied())
                    .collect();
                if is_determined(&facts, &rest, &significant, &rolls) {
                    t = j;
                    break;
                }
                if j < n {
                    let g = open[perm[j]];
                    facts.push(Fact {
                        players: g.players,
                        winner: ((outcome >> j) & 1) as usize,
                        score: None,
                    });
                }
            }
            worst = worst.min(t);
            total += t;
        }
        if perm.iter().enumerate().all(|(i, &k)| i == k) {
            document = worst;
        }
        let better = match &best {
            None => true,
            Some((w, t, _)) => (worst, total) > (*w, *t),
        };
        if better {
            best = Some((worst, total, perm));
        }
    }
    let (worst, _, perm) = best?;
    let order: Vec<GameId> = perm.iter().map(|&k| open[k].id).collect();
    let described: Vec<String> = perm
        .iter()
        .map(|&k| league.describe_game(open[k]))
        .collect();
    let kept = if perm.iter().enumerate().all(|(i, &k)| i == k) {
        "; no order keeps them open longer, so the document's order stands"
    } else {
        ""
    };
    let text = if worst == 0 {
        format!(
            "The significant outcomes are already determined; the remaining games may be cancelled by mutual consent. In play order: {}",
            described.join(", ")
        )
    } else {
        format!(
            "Suggested order: {}. Whatever the results, the places that decide the title, playoff qualification and seeding stay open for at least {worst} of these {n} games (the document's order: {document}){kept}",
            described.join(", ")
        )
    };
    Some(Suggestion {
        order,
        worst,
        document_worst: document,
        explanation: Explanation::new("XMadn League: Double-round robins", &["ARB-R26"], text),
    })
}

/// All permutations of 0..n in lexicographic order (n is at most 3 here).
fn permutations(n: usize) -> Vec<Vec<usize>> {
    fn go(prefix: &mut Vec<usize>, n: usize, out: &mut Vec<Vec<usize>>) {
        if prefix.len() == n {
            out.push(prefix.clone());
            return;
        }
        for k in 0..n {
            if !prefix.contains(&k) {
                prefix.push(k);
                go(prefix, n, out);
                prefix.pop();
            }
        }
    }
    let mut out = Vec::new();
    go(&mut Vec::new(), n, &mut out);
    out
}
