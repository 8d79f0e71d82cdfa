//! Section D, "Priority Criteria & Tie-breakers", on the reusable cascade.
//!
//! - D.1, the main criteria, for players who took part in the previous
//!   season: more gamepoints, higher SODOS (SJ-R12), more gamepoints in the
//!   games among the tied players when they were in the same group, re-applied
//!   to the players still tied (SJ-R9, the restart of XM-R4).
//! - D.2, the secondary criteria, as the tie-breaker of D.1 or alone for
//!   players who did not play: higher overall rank, higher overall rating
//!   (within 10 points a virtual tie, SJ-R13), higher correspondence rank,
//!   higher correspondence rating (the same), forfeiture by the other
//!   players, the winner of a live Sunjang match.
//!
//! The last two are the organizer's record ([`Tiebreaks`]); a tie that
//! nothing separates is left open for the organizer to settle.
//!
//! D.1's criteria are the shared catalogue's ([`crate::tiebreak`]):
//! gamepoints ([`tiebreak::points_by_game`]) and SODOS
//! ([`tiebreak::sonneborn_berger_by_game`]) over a group's games, computed
//! with the group ([`super::group::performances`]), and the gamepoints
//! among the tied players ([`tiebreak::head_to_head_points`]) over
//! [`PlayedGame`]s.

use crate::cascade::{Cascade, Criterion, Restart, Split, Unresolved};
use crate::explain::Explanation;
use crate::tiebreak::{self, Figure, Results, Side};

use super::{
    GroupId, HalfPoints, PlayerId, PlayerInfo, SodosUnits, SunjangRules, format_points,
    format_sodos,
};

/// A player's season in group play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Performance {
    /// Gamepoints won in group play (halves), without the starting
    /// gamepoints (the same for everyone of a division, SJ-R4).
    pub gamepoints: HalfPoints,
    /// SODOS (SJ-R12), exact, in units of
    /// [`SunjangRules::sodos_per_point`].
    pub sodos: SodosUnits,
    pub group: GroupId,
}

/// A decided group game: the two players and the gamepoints each won.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayedGame {
    pub players: [PlayerId; 2],
    pub points: [HalfPoints; 2],
    pub group: GroupId,
}

impl PlayedGame {
    /// The game from `p`'s side (`None` if he did not play it): the
    /// gamepoints he won, in halves (SJ-R4), all that the third main
    /// criterion reads. A played game keeps no outcome, score or minutes:
    /// won and drawn are read from the points (more, or equal and not
    /// both nothing), and no forfeit is known.
    #[inline]
    fn side(&self, p: PlayerId) -> Option<Side<HalfPoints>> {
        let i = self.players.iter().position(|&x| x == p)?;
        Some(Side {
            opponent: self.players[1 - i],
            points: self.points[i],
            score: None,
            won: self.points[i] > self.points[1 - i],
            drawn: self.points[i] == self.points[1 - i] && self.points[i] > 0,
            forfeit: false,
            minutes: None,
        })
    }
}

/// Played games as the shared catalogue reads them.
#[derive(Debug, Clone, Copy)]
struct Games<'a>(&'a [PlayedGame]);

impl Results for Games<'_> {
    type Player = PlayerId;
    type Units = HalfPoints;

    fn sides(&self, p: PlayerId) -> impl Iterator<Item = Side<HalfPoints>> + '_ {
        self.0.iter().filter_map(move |g| g.side(p))
    }
}

/// The organizer's record for the last criteria of D.2.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tiebreaks {
    /// Players who gave way ("voluntary or implicit forfeiture"): they rank
    /// below the players tied with them.
    pub gave_way: Vec<PlayerId>,
    /// Live Sunjang matches (15 min. + 3×25 s byo-yomi): (winner, loser).
    pub live_matches: Vec<(PlayerId, PlayerId)>,
}

/// What the criteria read. `info` and `performance` are indexed by
/// [`PlayerId::index`].
#[derive(Debug, Clone, Copy)]
pub struct RankingData<'a> {
    pub info: &'a [PlayerInfo],
    /// The previous (or current) season's performance, for D.1.
    pub performance: &'a [Option<Performance>],
    pub games: &'a [PlayedGame],
    pub tiebreaks: &'a Tiebreaks,
    pub rules: &'a SunjangRules,
}

/// The criteria of section D in order: the first three are D.1, the rest
/// D.2. The labels are what users see.
pub const CRITERIA: [(&str, &str); 9] = [
    ("D.1", "gamepoints"),
    ("D.1", "SODOS"),
    ("D.1", "gamepoints in the games among the tied players"),
    ("D.2", "overall rank"),
    ("D.2", "overall rating"),
    ("D.2", "correspondence rank"),
    ("D.2", "correspondence rating"),
    ("D.2", "forfeiture by the other players"),
    ("D.2", "a live Sunjang match"),
];

/// The index of the first D.2 criterion.
pub const SECONDARY: usize = 3;

impl<'a> RankingData<'a> {
    fn info(&self, p: PlayerId) -> Option<&'a PlayerInfo> {
        self.info.get(p.index())
    }

    fn perf(&self, p: PlayerId) -> Option<Performance> {
        self.performance.get(p.index()).copied().flatten()
    }

    /// Gamepoints of `p` in the games among `set` (himself one of them).
    fn among(&self, p: PlayerId, set: &[PlayerId]) -> HalfPoints {
        tiebreak::head_to_head_points(&Games(self.games), p, set)
    }

    fn value(&self, k: usize, p: PlayerId, set: &[PlayerId]) -> i64 {
        let info = self.info(p);
        match k {
            // No season: below every figure a season gives.
            0 => self.perf(p).map_or(-1, |x| x.gamepoints.value()),
            1 => self.perf(p).map_or(-1, |x| x.sodos.value()),
            2 => self.among(p, set).value(),
            3 => info.map_or(0, |i| i.rank.strength()),
            4 => info.map_or(i64::MIN / 4, |i| i64::from(i.rating)),
            5 => info.and_then(|i| i.corr_rank).map_or(0, |r| r.strength()),
            6 => info
                .and_then(|i| i.corr_rating)
                .map_or(i64::MIN / 4, i64::from),
            7 => i64::from(!self.tiebreaks.gave_way.contains(&p)),
            _ => self
                .tiebreaks
                .live_matches
                .iter()
                .filter(|(w, l)| *w == p && set.contains(l))
                .count() as i64,
        }
    }

    fn criterion(self, k: usize) -> Criterion<'a, PlayerId> {
        let tolerance = if k == 4 || k == 6 {
            i64::from(self.rules.virtual_tie_rating)
        } else {
            0
        };
        Criterion {
            label: CRITERIA[k].0,
            name: CRITERIA[k].1,
            eval: Box::new(move |set: &[PlayerId]| {
                if k == 2 {
                    // Only among players of one group ("if they were in the
                    // same group"); otherwise this criterion separates no one
                    // (ARB-R42).
                    let groups: Vec<Option<GroupId>> =
                        set.iter().map(|p| self.perf(*p).map(|x| x.group)).collect();
                    if groups.iter().any(|g| g.is_none() || *g != groups[0]) {
                        return Some(vec![0; set.len()]);
                    }
                }
                Some(set.iter().map(|&p| self.value(k, p, set)).collect())
            }),
            tolerance,
        }
    }

    /// D.1 then D.2, with the restart of SJ-R9 at the third main criterion.
    pub fn main_cascade(self) -> Cascade<'a, PlayerId> {
        Cascade {
            criteria: (0..CRITERIA.len()).map(|k| self.criterion(k)).collect(),
            restart: Some(Restart { to: 2, min_tie: 3 }),
            block: None,
        }
    }

    /// D.2 alone: for players who did not take part in the previous season,
    /// for promotions by rank (C.5) and forced promotions (E.1).
    pub fn secondary_cascade(self) -> Cascade<'a, PlayerId> {
        Cascade {
            criteria: (SECONDARY..CRITERIA.len())
                .map(|k| self.criterion(k))
                .collect(),
            restart: None,
            block: None,
        }
    }

    /// A player's figure on criterion `k` (index into [`CRITERIA`]).
    pub fn figure(&self, k: usize, p: PlayerId, set: &[PlayerId]) -> String {
        let info = self.info(p);
        match k {
            0 => self
                .perf(p)
                .map_or("no season".into(), |x| format_points(x.gamepoints)),
            1 => self.perf(p).map_or("no season".into(), |x| {
                format_sodos(x.sodos, self.rules.sodos_per_point())
            }),
            2 => format_points(self.among(p, set)),
            3 => info.map_or("?".into(), |i| i.rank.to_string()),
            4 => info.map_or("?".into(), |i| i.rating.to_string()),
            5 => info
                .and_then(|i| i.corr_rank)
                .map_or("none".into(), |r| r.to_string()),
            6 => info
                .and_then(|i| i.corr_rating)
                .map_or("none".into(), |r| r.to_string()),
            7 => {
                if self.tiebreaks.gave_way.contains(&p) {
                    "gave way".into()
                } else {
                    "did not give way".into()
                }
            }
            _ => format!("{} live win(s)", self.value(8, p, set)),
        }
    }

    /// "Lee above Kim: D.1 SODOS, 12 to 9½". `offset` is the index of the
    /// cascade's first criterion in [`CRITERIA`] (0 for the main cascade,
    /// [`SECONDARY`] for the secondary one).
    pub fn explain_split(
        &self,
        s: &Split<PlayerId>,
        offset: usize,
        name: &dyn Fn(PlayerId) -> String,
    ) -> Explanation {
        let k = s.step + offset;
        let mut rulings = Vec::new();
        match k {
            1 => rulings.push("SJ-R12"),
            2 => rulings.push("SJ-R9"),
            4 | 6 => rulings.extend(["SJ-R13", "ARB-R51"]),
            _ => {}
        }
        if matches!(s.origin, crate::cascade::Origin::Restarted { .. }) && k != 2 {
            rulings.push("SJ-R9");
        }
        let tol = i64::from(self.rules.virtual_tie_rating);
        let virtual_tie = if (k == 4 || k == 6) && tol > 0 {
            let (u, l) = (
                self.value(k, s.upper, &s.among),
                self.value(k, s.lower, &s.among),
            );
            match self.tie_anchor(k, s.upper, &s.among) {
                // Within the tolerance of each other, but the tie of the
                // upper player is opened by a better rated player more
                // than the tolerance above the lower one (ARB-R51).
                Some(top) if u - l <= tol && top != s.upper => format!(
                    " (within {tol} points of each other, but {} is more than {tol} below {}'s {}, who opens the virtual tie: a virtual tie does not chain)",
                    name(s.lower),
                    name(top),
                    self.figure(k, top, &s.among)
                ),
                _ => format!(" (more than {tol} points apart; closer is a virtual tie)"),
            }
        } else {
            String::new()
        };
        let among = if (s.among.len() > 2 && k > 0) || k == 2 {
            format!(
                ", among {}",
                s.among
                    .iter()
                    .map(|p| name(*p))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        } else {
            String::new()
        };
        Explanation {
            clause: if k < SECONDARY {
                "Sunjang D.1 Main Criteria"
            } else {
                "Sunjang D.2 Secondary Criteria"
            },
            rulings,
            text: format!(
                "{} above {}: {} {}, {} to {}{virtual_tie}{among}",
                name(s.upper),
                name(s.lower),
                CRITERIA[k].0,
                CRITERIA[k].1,
                self.figure(k, s.upper, &s.among),
                self.figure(k, s.lower, &s.among),
            ),
        }
    }

    /// The best rated player of the virtual tie `p` falls in among `set` on
    /// criterion `k` (ARB-R51: a tie holds the players within the tolerance
    /// of its best, the best of the rest opens the next), as the cascade
    /// cuts it.
    fn tie_anchor(&self, k: usize, p: PlayerId, set: &[PlayerId]) -> Option<PlayerId> {
        let tol = i64::from(self.rules.virtual_tie_rating);
        let mut scored: Vec<(PlayerId, i64)> =
            set.iter().map(|&x| (x, self.value(k, x, set))).collect();
        scored.sort_by_key(|x| std::cmp::Reverse(x.1));
        let mut top: Option<(PlayerId, i64)> = None;
        for (x, v) in scored {
            if top.is_none_or(|t| t.1.saturating_sub(v) > tol) {
                top = Some((x, v));
            }
            if x == p {
                return top.map(|t| t.0);
            }
        }
        None
    }

    /// The explanation of a tie nothing separated.
    pub fn explain_tie(
        &self,
        u: &Unresolved<PlayerId>,
        name: &dyn Fn(PlayerId) -> String,
    ) -> Explanation {
        Explanation::new(
            "Sunjang D.2 Secondary Criteria",
            &[],
            format!(
                "{} are tied on every criterion of section D: the organizer records who gives way or the winner of a live Sunjang match",
                u.players
                    .iter()
                    .map(|p| name(*p))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sunjang::Rank;

    fn info(name: &str, rank: Rank, rating: i32) -> PlayerInfo {
        PlayerInfo {
            name: name.into(),
            rank,
            provisional: false,
            rating,
            corr_rank: None,
            corr_rating: None,
        }
    }

    #[test]
    fn secondary_criteria_use_rank_then_rating_with_a_virtual_tie() {
        let infos = vec![
            info("A", Rank::Kyu(3), 1500),
            info("B", Rank::Kyu(2), 1400),
            info("C", Rank::Kyu(3), 1508),
        ];
        let rules = SunjangRules::default();
        let tb = Tiebreaks {
            gave_way: vec![],
            live_matches: vec![(PlayerId(1), PlayerId(3))],
        };
        let data = RankingData {
            info: &infos,
            performance: &[],
            games: &[],
            tiebreaks: &tb,
            rules: &rules,
        };
        let r = data
            .secondary_cascade()
            .rank(&[PlayerId(1), PlayerId(2), PlayerId(3)]);
        // B has the best rank; A and C are within 10 rating points, so the
        // live match decides.
        assert_eq!(r.order, vec![PlayerId(2), PlayerId(1), PlayerId(3)]);
        let s = r.split_above(PlayerId(3)).expect("a split");
        assert_eq!(CRITERIA[s.step + SECONDARY].1, "a live Sunjang match");
    }
}
