//! Clinch and elimination in the XMadn league table (ARB-R47): for each of
//! the three players and each zone the rules' playoff form gives, whether
//! every completion of the remaining round-robin games puts him in it.
//!
//! Zones ([`zones`]): without a playoff, the title (1st: "Table rankings
//! and playoff seeds are determined by the players' overall win-loss
//! records"); with the top two in the playoff, the playoff places (1st and
//! 2nd), and each of 1st and 2nd as a seed (the higher seed chooses
//! colours and may have the head start); with all three, the same (1st
//! waits in the final, 2nd is the higher seed of the qualifying round).
//!
//! A completion is a distribution of wins over the remaining games,
//! double round-robins to come included (ARB-R26): only how many of each
//! pair's games each player wins matters to the win-loss steps. Each is
//! ranked with the league's own cascade ([`super::table::cascade`], the
//! restart of XM-R4 included). A tie that reaches a step needing pawns or
//! times of games not played yet counts as open, either side of the
//! zone's edge (ARB-R26); a tie left to the round of die-roll (step 6) is
//! the die of [`Verdict::ClinchedUnlessDie`]. Every completion is
//! examined (a completion whose records alone place everyone is not
//! ranked further), so the verdicts are exact: never
//! [`Verdict::Undetermined`].

use crate::clinch::{Analysis, Evidence, Membership, TieKind, Verdict, Zone, ZoneKind, blocks};
use crate::model::PlayerId;

use super::league::{League, PLAYERS};
use super::rules::Playoff;
use super::table::{Fact, Table, TieRoll};

/// The zones of a league by its playoff form.
pub fn zones(playoff: Playoff) -> Vec<Zone> {
    match playoff {
        Playoff::None => vec![Zone::new(ZoneKind::Title, 1, 1)],
        Playoff::TopTwo { .. } => vec![
            Zone::new(ZoneKind::Playoff, 1, 2),
            Zone::new(ZoneKind::Place(1), 1, 1),
            Zone::new(ZoneKind::Place(2), 2, 2),
        ],
        Playoff::AllThree { .. } => vec![
            Zone::new(ZoneKind::Playoff, 1, 3),
            Zone::new(ZoneKind::Place(1), 1, 1),
            Zone::new(ZoneKind::Place(2), 2, 2),
        ],
    }
}

/// The analysis of a league now: its decided games, the remaining ones and
/// its recorded tiebreak rolls.
pub fn analyse_league(league: &League) -> Analysis<PlayerId> {
    analyse(
        &super::table::facts(league),
        &super::analysis::remaining_pairs(league),
        &super::table::tie_rolls(league),
        &zones(league.rules.playoff),
    )
}

/// The analysis of the table of `known` games completed by results of the
/// `open` pairs, with the step-6 `rolls` already made.
pub fn analyse(
    known: &[Fact],
    open: &[[PlayerId; 2]],
    rolls: &[TieRoll],
    zones: &[Zone],
) -> Analysis<PlayerId> {
    let (evidence, completions) = evidence(known, open, rolls, zones, |_| false);
    let z = zones.len();
    let per_player: Vec<Vec<Evidence>> = (0..PLAYERS.len())
        .map(|i| evidence[i * z..(i + 1) * z].to_vec())
        .collect();
    let verdicts: Vec<Vec<Verdict>> = per_player
        .iter()
        .map(|ev| ev.iter().map(|e| e.verdict(true)).collect())
        .collect();
    Analysis {
        zones: zones.to_vec(),
        players: PLAYERS.to_vec(),
        verdicts,
        evidence: per_player,
        exact: true,
        completions,
        remaining: open.len(),
    }
}

/// The evidence of every completion, player by player (in [`PLAYERS`]
/// order) and zone by zone (`evidence[i * zones.len() + z]`), and the
/// number of completions examined. The enumeration ends early when `stop`
/// says the evidence so far is enough.
pub(crate) fn evidence(
    known: &[Fact],
    open: &[[PlayerId; 2]],
    rolls: &[TieRoll],
    zones: &[Zone],
    stop: impl Fn(&[Evidence]) -> bool,
) -> (Vec<Evidence>, u64) {
    const PAIRS: [[usize; 2]; 3] = [[0, 1], [0, 2], [1, 2]];
    let n = PLAYERS.len();
    let z = zones.len();
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
    let slot = |p: PlayerId| PLAYERS.iter().position(|&x| x == p);
    // The win-loss records (ARB-R24) of the known games: a completion
    // whose records place a player's whole record group inside or outside
    // a zone needs no further step for him.
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
    let mut ev = vec![Evidence::default(); n * z];
    let mut completions = 0u64;
    let mut facts: Vec<Fact> = Vec::with_capacity(known.len() + open.len());
    for a in 0..=counts[0] {
        for b in 0..=counts[1] {
            for c in 0..=counts[2] {
                completions += 1;
                let wins = [a, b, c];
                let mut record = base;
                for (k, [lo, hi]) in PAIRS.iter().enumerate() {
                    let (m, w) = (counts[k] as i64, wins[k] as i64);
                    record[*lo] += 2 * w - m;
                    record[*hi] += m - 2 * w;
                }
                // Each player's range of places by record alone.
                let mut pending: Vec<(usize, usize)> = Vec::new();
                for i in 0..n {
                    let above = record.iter().filter(|&&r| r > record[i]).count();
                    let same = record.iter().filter(|&&r| r == record[i]).count();
                    let (lo, hi) = (above + 1, above + same);
                    for (zi, zone) in zones.iter().enumerate() {
                        match zone.classify(lo, hi) {
                            m @ (Membership::In | Membership::Out) if fast => {
                                ev[i * z + zi].record(m, TieKind::Die);
                            }
                            _ => pending.push((i, zi)),
                        }
                    }
                }
                if !pending.is_empty() {
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
                    let bl = blocks(r);
                    for (i, zi) in pending {
                        let Some(at) = r.order.iter().position(|&x| x == PLAYERS[i]) else {
                            continue;
                        };
                        let (lo, hi) = bl[at];
                        // Step 6 (the die), or every step equal: the die;
                        // steps 2 to 5 of games without margins: open.
                        let tie = match r.tie_of(PLAYERS[i]).and_then(|u| u.pending) {
                            Some(step) if step < 6 => TieKind::Margin,
                            _ => TieKind::Die,
                        };
                        ev[i * z + zi].record(zones[zi].classify(lo, hi), tie);
                    }
                }
                if ev.iter().all(Evidence::settled) || stop(&ev) {
                    return (ev, completions);
                }
            }
        }
    }
    (ev, completions)
}
