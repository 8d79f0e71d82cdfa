//! Clinch and elimination: for a league or group with games left, whether
//! each player is sure to end in a zone of the table (a title, a playoff
//! place, a direct promotion, a demotion, the final round), sure not to, or
//! still open, under the competition's own tiebreak cascade (ARB-R47).
//!
//! This module is the part every format shares: zones as ranges of places,
//! the [`Verdict`]s, and the [`Evidence`] a completion of the remaining
//! games gives about one player and one zone. The formats enumerate their
//! completions: [`crate::sunjang::clinch`] (a group's round robin, exact
//! search with pruning), [`crate::xmadn::clinch`] (the league table,
//! every distribution of wins) and [`crate::roundrobin::clinch`] (the
//! general round-robin league, exact search with pruning and a budget,
//! ARB-R69).
//!
//! A completion ranks the players with the full cascade. A player left in a
//! tie that spans a zone's edge is neither in nor out: the tie is settled by
//! something other than the results (a round of die-roll, XM-R3; the
//! organizer's tiebreak record, Sunjang D.2's last criteria, ARB-R44). That
//! is what tells [`Verdict::Clinched`] (in the zone whatever happens) from
//! [`Verdict::ClinchedUnlessDie`] (in it in every completion except those
//! where such a tie decides, and out of it in none).
//!
//! Verdicts are never false: `Clinched` and `Eliminated` (and their
//! "unless" forms) are said only when every completion has been accounted
//! for, `Open` only when completions have been found on both sides. What
//! the search could not prove within its budget is
//! [`Verdict::Undetermined`].

/// What a zone is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ZoneKind {
    /// The title, or the group win (a group leader, Sunjang B.1).
    Title,
    /// A playoff place (XMadn League: Playoff).
    Playoff,
    /// A direct promotion (Sunjang B.1, B.3).
    Promotion,
    /// A demotion (Sunjang B.2, B.3).
    Demotion,
    /// Automatic qualification for the Sunjang final round (division A).
    FinalRound,
    /// One table place that seeds a playoff (XMadn: 1st goes straight to
    /// the final with three in the playoff; the higher seed chooses
    /// colours).
    Place(usize),
    /// The top `k` places of a round-robin league: those that qualify or
    /// are promoted (`RoundRobinRules::top`; the two teams of a FIFA World
    /// Cup or UEFA EURO group that advance).
    Top(usize),
    /// The bottom `k` places of a round-robin league: those relegated
    /// (`RoundRobinRules::bottom`).
    Bottom(usize),
}

/// A zone: the places `first..=last` (1-based) of a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Zone {
    pub kind: ZoneKind,
    pub first: usize,
    pub last: usize,
}

/// Where a player's block of places lies against a zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Membership {
    /// Every place of the block is in the zone.
    In,
    /// No place of the block is in the zone.
    Out,
    /// The block spans the zone's edge: the players of the tie are not
    /// separated by the results.
    Straddles,
}

impl Zone {
    pub fn new(kind: ZoneKind, first: usize, last: usize) -> Zone {
        Zone { kind, first, last }
    }

    /// Where the block of places `lo..=hi` lies (a player alone at place
    /// `k` has the block `k..=k`; players left tied share a block).
    pub fn classify(&self, lo: usize, hi: usize) -> Membership {
        if self.first <= lo && hi <= self.last {
            Membership::In
        } else if hi < self.first || lo > self.last {
            Membership::Out
        } else {
            Membership::Straddles
        }
    }

    /// "1st", "1st to 2nd", "8th to 9th": the places in words.
    pub fn places_text(&self) -> String {
        if self.first == self.last {
            crate::xmadn::analysis::ordinal(self.first)
        } else {
            format!(
                "{} to {}",
                crate::xmadn::analysis::ordinal(self.first),
                crate::xmadn::analysis::ordinal(self.last)
            )
        }
    }

    /// "title", "direct promotion", ...
    pub fn name(&self) -> String {
        match self.kind {
            ZoneKind::Title => "title".into(),
            ZoneKind::Playoff => "playoff place".into(),
            ZoneKind::Promotion => "direct promotion".into(),
            ZoneKind::Demotion => "demotion".into(),
            ZoneKind::FinalRound => "final round".into(),
            ZoneKind::Place(k) => format!("{} place", crate::xmadn::analysis::ordinal(k)),
            ZoneKind::Top(k) => format!("qualification (top {k})"),
            ZoneKind::Bottom(k) => format!("relegation (bottom {k})"),
        }
    }
}

/// What a tie that spans a zone's edge waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TieKind {
    /// A random step or the organizer's record: XMadn step 6 (a round of
    /// die-roll), Sunjang D.2's last criteria (who gives way, a live
    /// match). Either side of the edge is possible.
    Die,
    /// Margins of games not played yet (XMadn pawns and times, which a
    /// completion by winners does not fix): counted as open (ARB-R26).
    Margin,
}

/// What the completions examined so far showed about one player and one
/// zone.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Evidence {
    /// A completion puts him in the zone.
    pub inside: bool,
    /// A completion puts him out of it.
    pub outside: bool,
    /// A completion leaves him in a tie across the zone's edge that only a
    /// die (or the organizer's record) settles.
    pub die: bool,
}

impl Evidence {
    /// Record one completion.
    pub fn record(&mut self, m: Membership, tie: TieKind) {
        match m {
            Membership::In => self.inside = true,
            Membership::Out => self.outside = true,
            Membership::Straddles => match tie {
                TieKind::Die => self.die = true,
                // ARB-R26: a tie that needs margins not yet known counts
                // as open: either side.
                TieKind::Margin => {
                    self.inside = true;
                    self.outside = true;
                }
            },
        }
    }

    /// Nothing more can change the verdict: completions on both sides.
    pub fn settled(&self) -> bool {
        self.inside && self.outside
    }

    /// Some completion may put him in the zone (in, or by the die).
    pub fn possible(&self) -> bool {
        self.inside || self.die
    }

    /// The verdict once every completion has been accounted for
    /// (`complete`), or what is proven so far.
    pub fn verdict(&self, complete: bool) -> Verdict {
        match (self.inside, self.outside, self.die) {
            (true, true, _) => Verdict::Open,
            _ if !complete => Verdict::Undetermined,
            (true, false, false) => Verdict::Clinched,
            (true, false, true) => Verdict::ClinchedUnlessDie,
            (false, true, false) => Verdict::Eliminated,
            (false, true, true) => Verdict::EliminatedUnlessDie,
            // Only ties the die settles (either way), or no completion at
            // all (cannot happen: there is always one).
            (false, false, _) => Verdict::Open,
        }
    }
}

/// One player's standing against one zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// In the zone in every completion of the remaining games.
    Clinched,
    /// In the zone in every completion except those where a tie across the
    /// zone's edge is left to a die roll (or the organizer's tiebreak
    /// record); out of it in none.
    ClinchedUnlessDie,
    /// Out of the zone in every completion.
    Eliminated,
    /// Out of the zone in every completion except those where such a tie
    /// decides; in it in none.
    EliminatedUnlessDie,
    /// Completions exist on both sides (or only the die decides).
    Open,
    /// Not proven within the search's budget.
    Undetermined,
}

impl Verdict {
    /// In words, for views and explanations.
    pub fn describe(self) -> &'static str {
        match self {
            Verdict::Clinched => "clinched",
            Verdict::ClinchedUnlessDie => "clinched unless a tie is left to the die",
            Verdict::Eliminated => "eliminated",
            Verdict::EliminatedUnlessDie => "eliminated unless a tie is left to the die",
            Verdict::Open => "open",
            Verdict::Undetermined => "undetermined",
        }
    }

    /// Whether this is a proof (not open, not undetermined).
    pub fn is_decided(self) -> bool {
        !matches!(self, Verdict::Open | Verdict::Undetermined)
    }
}

/// The analysis of a table with games left: one verdict per player and
/// zone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis<P> {
    pub zones: Vec<Zone>,
    /// The players, in the order of `verdicts`.
    pub players: Vec<P>,
    /// `verdicts[i][z]`: player `players[i]` against `zones[z]`.
    pub verdicts: Vec<Vec<Verdict>>,
    /// The evidence behind each verdict, in the same layout.
    pub evidence: Vec<Vec<Evidence>>,
    /// Every verdict is exact (no [`Verdict::Undetermined`]).
    pub exact: bool,
    /// Completions ranked with the cascade (leaves of the search).
    pub completions: u64,
    /// Games left.
    pub remaining: usize,
}

impl<P: Copy + Eq> Analysis<P> {
    /// The analysis a search ends with: `evidence[i * zones.len() + z]` is
    /// what the completions showed about `players[i]` and `zones[z]`, and
    /// `complete[i][z]` whether the search accounted for every completion
    /// of that question (an unsettled question not accounted for is
    /// [`Verdict::Undetermined`]).
    pub fn assemble(
        zones: &[Zone],
        players: Vec<P>,
        evidence: &[Evidence],
        complete: &[Vec<bool>],
        completions: u64,
        remaining: usize,
    ) -> Analysis<P> {
        let z = zones.len();
        let mut verdicts = Vec::with_capacity(players.len());
        let mut rows = Vec::with_capacity(players.len());
        let mut exact = true;
        for (i, done) in complete.iter().enumerate() {
            let ev: Vec<Evidence> = evidence[i * z..(i + 1) * z].to_vec();
            let v: Vec<Verdict> = ev
                .iter()
                .zip(done)
                .map(|(e, &c)| e.verdict(c || e.settled()))
                .collect();
            exact &= !v.contains(&Verdict::Undetermined);
            verdicts.push(v);
            rows.push(ev);
        }
        Analysis {
            zones: zones.to_vec(),
            players,
            verdicts,
            evidence: rows,
            exact,
            completions,
            remaining,
        }
    }

    /// The verdict of `p` for zone `z` (index into `zones`).
    pub fn verdict(&self, p: P, z: usize) -> Option<Verdict> {
        let i = self.players.iter().position(|&x| x == p)?;
        self.verdicts.get(i)?.get(z).copied()
    }

    /// The verdict of `p` for the first zone of kind `kind`.
    pub fn verdict_of(&self, p: P, kind: ZoneKind) -> Option<Verdict> {
        let z = self.zones.iter().position(|z| z.kind == kind)?;
        self.verdict(p, z)
    }
}

/// A player's place block in a ranking: `(lo, hi)`, 1-based, for each
/// position of `order`, from the places and the tie sizes.
pub fn blocks<P: Copy + Eq>(r: &crate::cascade::Ranking<P>) -> Vec<(usize, usize)> {
    (0..r.order.len())
        .map(|i| {
            let lo = r.places[i];
            let len = r.tie_of(r.order[i]).map_or(1, |u| u.players.len().max(1));
            (lo, lo + len - 1)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classify_blocks() {
        let z = Zone::new(ZoneKind::Promotion, 1, 2);
        assert_eq!(z.classify(1, 1), Membership::In);
        assert_eq!(z.classify(1, 2), Membership::In);
        assert_eq!(z.classify(2, 3), Membership::Straddles);
        assert_eq!(z.classify(3, 5), Membership::Out);
    }

    #[test]
    fn verdicts_from_evidence() {
        let mut e = Evidence::default();
        assert_eq!(e.verdict(false), Verdict::Undetermined);
        e.record(Membership::In, TieKind::Die);
        assert_eq!(e.verdict(true), Verdict::Clinched);
        assert_eq!(e.verdict(false), Verdict::Undetermined);
        e.record(Membership::Straddles, TieKind::Die);
        assert_eq!(e.verdict(true), Verdict::ClinchedUnlessDie);
        e.record(Membership::Out, TieKind::Die);
        assert_eq!(e.verdict(false), Verdict::Open);
        let mut m = Evidence::default();
        m.record(Membership::Straddles, TieKind::Margin);
        assert_eq!(m.verdict(false), Verdict::Open);
    }
}

/// Step `chosen` (indices, increasing, of `chosen.len()` among `0..k`) to
/// the next combination in lexicographic order; `false` after the last.
/// What the exact searches use to try each choice of the players who must
/// gain (`sunjang::clinch`, `roundrobin::clinch`).
pub(crate) fn next_combination(chosen: &mut [usize], k: usize) -> bool {
    let want = chosen.len();
    let mut i = want;
    loop {
        if i == 0 {
            return false;
        }
        i -= 1;
        if chosen[i] < k - want + i {
            break;
        }
    }
    chosen[i] += 1;
    for j in i + 1..want {
        chosen[j] = chosen[j - 1] + 1;
    }
    true
}

#[cfg(test)]
mod combination_tests {
    use super::next_combination;

    #[test]
    fn every_combination_once_in_order() {
        for k in 0..7 {
            for want in 0..=k {
                let mut chosen: Vec<usize> = (0..want).collect();
                let mut seen = vec![chosen.clone()];
                while next_combination(&mut chosen, k) {
                    assert!(chosen.windows(2).all(|w| w[0] < w[1]));
                    assert!(chosen.iter().all(|&c| c < k));
                    assert!(seen.last().is_some_and(|last| *last < chosen));
                    seen.push(chosen.clone());
                }
                // k choose want
                let expected = (0..want).fold(1usize, |acc, i| acc * (k - i) / (i + 1));
                assert_eq!(seen.len(), expected, "{want} of {k}");
            }
        }
    }
}
