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
//! Two shortcuts keep this fast for long leagues (up to 20 DRR, 41^3
//! distributions at the start) without changing any answer: a completion
//! whose significant places are held by players whose win-loss record
//! nobody shares is settled from the records alone (the cascade would
//! order them by record and go no further), and the enumeration stops once
//! the answer cannot change (open with every player a candidate for every
//! place; or open at all, when only the verdict is wanted, as for the
//! suggestion). `league_properties.rs` checks both against the plain
//! enumeration.

use crate::explain::Explanation;
use crate::model::{GameId, PlayerId};

use super::league::{League, LeagueGame, PLAYERS, Phase};
use super::rules::Playoff;
use super::table::{Fact, Table, TieRoll};

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

/// "1st", "2nd", "3rd".
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

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

/// The index in [`PLAYERS`] of `p`.
fn slot(p: PlayerId) -> Option<usize> {
    PLAYERS.iter().position(|&x| x == p)
}

fn enumerate(
    known: &[Fact],
    open: &[[PlayerId; 2]],
    significant: &[usize],
    rolls: &[TieRoll],
    verdict_only: bool,
) -> Determination {
    // Count the open games per unordered pair; a completion is how many of
    // each pair's games the lower id wins.
    const PAIRS: [[usize; 2]; 3] = [[0, 1], [0, 2], [1, 2]];
    let pairs = PAIRS.map(|[x, y]| [PLAYERS[x], PLAYERS[y]]);
    let counts: Vec<usize> = pairs
        .iter()
        .map(|pair| {
            open.iter()
                .filter(|o| {
                    (o[0] == pair[0] && o[1] == pair[1]) || (o[0] == pair[1] && o[1] == pair[0])
                })
                .count()
        })
        .collect();
    // The overall win-loss records (wins minus losses, ARB-R24) of the known
    // games. When a completion leaves the records at the significant places
    // unshared, the cascade orders them by record alone and the table need
    // not be built: most completions of a long league take this way.
    let mut base = [0i64; 3];
    let mut fast = true;
    for f in known {
        let w = f.winner.min(1);
        match (slot(f.players[w]), slot(f.players[1 - w])) {
            (Some(w), Some(l)) => {
                base[w] += 1;
                base[l] -= 1;
            }
            _ => fast = false,
        }
    }
    let mut candidates: Vec<Vec<PlayerId>> = vec![Vec::new(); significant.len()];
    let mut fixed = true;
    let mut first: Option<Vec<PlayerId>> = None;
    let mut facts: Vec<Fact> = Vec::with_capacity(known.len() + open.len());
    'all: for a in 0..=counts[0] {
        for b in 0..=counts[1] {
            for c in 0..=counts[2] {
                let wins = [a, b, c];
                let mut record = base;
                for (k, [lo, hi]) in PAIRS.iter().enumerate() {
                    // Both counts are at most a few hundred games.
                    let (n, w) = (counts[k] as i64, wins[k] as i64);
                    record[*lo] += 2 * w - n;
                    record[*hi] += n - 2 * w;
                }
                // For each significant place: who may hold it, and whether
                // that player holds it alone and for certain. A place held
                // by a player whose record nobody shares is his whatever
                // the tiebreaking steps say about the others.
                let mut order = [0usize, 1, 2];
                order.sort_by_key(|&i| std::cmp::Reverse(record[i]));
                let by_record: Option<Vec<(Vec<PlayerId>, bool)>> = if fast {
                    significant
                        .iter()
                        .map(|&place| {
                            let i = *order.get(place.checked_sub(1)?)?;
                            let alone = record.iter().filter(|&&r| r == record[i]).count() == 1;
                            alone.then(|| (vec![PLAYERS[i]], true))
                        })
                        .collect()
                } else {
                    None
                };
                let places: Vec<(Vec<PlayerId>, bool)> = if let Some(places) = by_record {
                    places
                } else {
                    facts.clear();
                    facts.extend_from_slice(known);
                    for (k, &w) in wins.iter().enumerate() {
                        for i in 0..counts[k] {
                            facts.push(Fact {
                                players: pairs[k],
                                winner: usize::from(i >= w),
                                score: None,
                            });
                        }
                    }
                    let table = Table::compute(facts.clone(), rolls.to_vec(), false);
                    let r = &table.ranking;
                    significant
                        .iter()
                        .map(|&place| {
                            // Everyone who might end at `place`: the
                            // players of a tied block spanning it.
                            let holders: Vec<PlayerId> = (0..r.order.len())
                                .filter(|&i| {
                                    let block = r.tie_of(r.order[i]).map_or(1, |u| u.players.len());
                                    r.places[i] <= place && place < r.places[i] + block
                                })
                                .map(|i| r.order[i])
                                .collect();
                            let decided = holders.len() == 1 && r.is_decided(place);
                            (holders, decided)
                        })
                        .collect()
                };
                let mut here = Vec::with_capacity(significant.len());
                for (k, (holders, decided)) in places.iter().enumerate() {
                    for h in holders {
                        if !candidates[k].contains(h) {
                            candidates[k].push(*h);
                        }
                    }
                    match holders.as_slice() {
                        [one] if *decided => here.push(*one),
                        _ => fixed = false,
                    }
                }
                match &first {
                    None if fixed => first = Some(here),
                    Some(f) if *f != here => fixed = false,
                    _ => {}
                }
                // Open, and every place may go to anyone: no completion can
                // tell more.
                let saturated = candidates.iter().all(|c| c.len() == PLAYERS.len());
                if !fixed && (verdict_only || saturated) {
                    break 'all;
                }
            }
        }
    }
    for c in &mut candidates {
        c.sort_unstable();
    }
    Determination {
        determined: fixed,
        places: significant.iter().copied().zip(candidates).collect(),
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
