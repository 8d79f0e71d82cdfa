//! What the season planner's tests share (`golden_sunjang_plan.rs` and
//! `sunjang_plan_properties.rs`): a scenario (players, restrictions, the
//! previous season, the entrants), the invariants every plan must keep,
//! checked from the rule text rather than from the planner's code, and the
//! seeded random-season generator.

#![allow(dead_code)]

use std::collections::{HashMap, HashSet};

use arbiter_engine::RuleError;
use arbiter_engine::sunjang::planner::{
    self, PlacementReason, PlanInput, PlanOutcome, PreviousDivision, PreviousSeason, group_count,
    group_sizes, zigzag,
};
use arbiter_engine::sunjang::ranking::{RankingData, Tiebreaks};
use arbiter_engine::sunjang::rules::GroupCount;
use arbiter_engine::sunjang::{
    Division, PlayerId, PlayerInfo, Rank, Restriction, Restrictions, SunjangRules, division_letter,
};

/// Everything the planner reads, owned.
#[derive(Debug, Clone, Default)]
pub struct Scenario {
    pub rules: SunjangRules,
    pub restrictions: Restrictions,
    pub info: Vec<PlayerInfo>,
    pub tiebreaks: Tiebreaks,
    pub previous: Option<PreviousSeason>,
    pub entrants: Vec<PlayerId>,
}

impl Scenario {
    pub fn input(&self) -> PlanInput<'_> {
        PlanInput {
            rules: &self.rules,
            restrictions: &self.restrictions,
            data: RankingData {
                info: &self.info,
                performance: &[],
                games: &[],
                tiebreaks: &self.tiebreaks,
                rules: &self.rules,
            },
            previous: self.previous.as_ref(),
            entrants: &self.entrants,
        }
    }

    pub fn plan(&self) -> Result<PlanOutcome, RuleError> {
        planner::plan(&self.input())
    }

    /// Register a player; his id.
    pub fn register(&mut self, name: &str, rank: Rank, rating: i32, provisional: bool) -> PlayerId {
        self.info.push(PlayerInfo {
            name: name.to_string(),
            rank,
            provisional,
            rating,
            corr_rank: None,
            corr_rating: None,
        });
        PlayerId(self.info.len() as u32)
    }

    fn name(&self, p: PlayerId) -> &str {
        &self.info[p.index()].name
    }
}

fn is_assured(r: PlacementReason) -> bool {
    matches!(
        r,
        PlacementReason::DirectPromotion { .. }
            | PlacementReason::Middle { .. }
            | PlacementReason::Demotion { .. }
            | PlacementReason::SizeOverride { .. }
    )
}

/// The invariants of a plan, from the rule text:
///
/// - cancelled exactly under 5 entrants (footnote 2);
/// - a refusal names a rule (the only refusal of a well-formed input is
///   A.i.4 against C.3);
/// - every entrant placed exactly once, nobody else; placements in entrant
///   order, consistent with the groups and seeds;
/// - sizes: each division at least 5, A at least 10 when 10 or more play
///   (A.i.1, footnote 1), at most thrice the division above (A.i.2); A has
///   two groups, or one under 10 players; groups even (footnote 3), smallest
///   first, at least 5, at most thrice the groups above (A.i.3); without an
///   E.1 override anywhere, every division within its limit 6×3ⁿ (A.i.4,
///   SJ-R1) and groups of at most 9;
/// - seeding: a zig-zag (SJ-R3) of the division in D.2 order (checked
///   against the cascade for divisions up to `cascade_limit` players);
/// - restrictions: nobody below his lowest division (C.3), nobody above his
///   highest division but by an assured spot or E.1;
/// - section B: previous group leaders (below A) at least one division up,
///   every returning player at most one division down;
/// - A.i.5: a division that took promotions by rank has not grown beyond its
///   previous size (or its minimum) unless E.1 added players.
pub fn check(
    s: &Scenario,
    outcome: &Result<PlanOutcome, RuleError>,
    cascade_limit: usize,
) -> Result<(), String> {
    let rules = &s.rules;
    let n = s.entrants.len();
    let plan = match outcome {
        Err(e) => {
            if e.clause.is_empty() || e.message.is_empty() {
                return Err(format!("a refusal that names no rule: {e}"));
            }
            if !(e.clause.contains("A.i.4") && e.clause.contains("C.3")) {
                return Err(format!("an unexpected refusal: {e}"));
            }
            if !e.message.contains("Revise the division restrictions") {
                return Err(format!("the refusal does not say what to change: {e}"));
            }
            return Ok(());
        }
        Ok(PlanOutcome::Cancelled { players, .. }) => {
            if *players != n || n >= rules.min_season_players as usize {
                return Err(format!("cancelled with {n} entrants"));
            }
            return Ok(());
        }
        Ok(PlanOutcome::Planned(plan)) => plan,
    };
    if n < rules.min_season_players as usize {
        return Err(format!("planned with {n} entrants (footnote 2)"));
    }
    // Every entrant exactly once.
    if plan.placements.len() != n {
        return Err(format!(
            "{} placements for {n} entrants",
            plan.placements.len()
        ));
    }
    let mut where_: HashMap<PlayerId, (usize, usize, usize)> = HashMap::new();
    for (d, div) in plan.divisions.iter().enumerate() {
        for (g, group) in div.groups.iter().enumerate() {
            for (i, &p) in group.iter().enumerate() {
                if where_.insert(p, (d, g, i)).is_some() {
                    return Err(format!("{} placed twice", s.name(p)));
                }
            }
        }
    }
    if where_.len() != n {
        return Err(format!(
            "{} players in the groups, {n} entrants",
            where_.len()
        ));
    }
    for (i, pl) in plan.placements.iter().enumerate() {
        if pl.player != s.entrants[i] {
            return Err(format!("placement {i} is not entrant {i}"));
        }
        let Some(&(d, g, _)) = where_.get(&pl.player) else {
            return Err(format!("{} is not in a group", s.name(pl.player)));
        };
        if pl.group.division as usize != d || pl.group.number as usize != g + 1 {
            return Err(format!(
                "{}: placement {} but in group {g} of {d}",
                s.name(pl.player),
                pl.group
            ));
        }
        if !pl.explanation.text.contains(s.name(pl.player)) {
            return Err(format!(
                "the explanation of {} does not name him: {}",
                s.name(pl.player),
                pl.explanation
            ));
        }
    }
    let overridden = plan
        .placements
        .iter()
        .any(|p| matches!(p.reason, PlacementReason::SizeOverride { .. }));
    // Sizes.
    let sizes: Vec<usize> = plan.divisions.iter().map(|d| d.size()).collect();
    for (d, div) in plan.divisions.iter().enumerate() {
        let l = division_letter(d as Division);
        let size = sizes[d];
        let min = if d == 0 && n >= rules.single_group_below as usize {
            10
        } else {
            5
        };
        if size < min {
            return Err(format!(
                "{l} has {size} players, fewer than {min} (A.i.1/A.i.2): {sizes:?}"
            ));
        }
        if d > 0 && size > 3 * sizes[d - 1] {
            return Err(format!(
                "{l} has {size} players, more than thrice {} (A.i.2): {sizes:?}",
                sizes[d - 1]
            ));
        }
        let gs: Vec<usize> = div.groups.iter().map(Vec::len).collect();
        if d == 0 {
            let want = if size < rules.single_group_below as usize {
                1
            } else {
                2
            };
            if gs.len() != want {
                return Err(format!(
                    "A has {} groups with {size} players (A.i.1, footnote 1)",
                    gs.len()
                ));
            }
        } else if gs.len() > 3 * plan.divisions[d - 1].groups.len() {
            return Err(format!(
                "{l} has {} groups, more than thrice those above (A.i.3)",
                gs.len()
            ));
        }
        if gs.iter().any(|&g| g < 5) {
            return Err(format!("{l} has a group under 5: {gs:?}"));
        }
        if gs.windows(2).any(|w| w[0] > w[1]) || gs.last().unwrap() - gs[0] > 1 {
            return Err(format!("{l}'s groups are not even, smallest first: {gs:?}"));
        }
        if !overridden {
            let cap = rules.cap(d as Division) as usize;
            if size > cap {
                return Err(format!(
                    "{l} has {size} players, over its limit {cap} (A.i.4)"
                ));
            }
            if gs.iter().any(|&g| g > 9) {
                return Err(format!(
                    "{l} has a group over 9 without an override: {gs:?}"
                ));
            }
            if d > 0 && rules.group_count == GroupCount::NearestIdeal {
                let want = group_count(
                    rules,
                    size as u32,
                    Some(plan.divisions[d - 1].groups.len() as u32),
                    false,
                );
                if want != Some(gs.len() as u32) {
                    return Err(format!("{l}: {} groups, SJ-R2 gives {want:?}", gs.len()));
                }
            }
        }
        // Seeding.
        let mut seeded: Vec<(u32, PlayerId)> = plan
            .placements
            .iter()
            .filter(|p| p.group.division as usize == d)
            .map(|p| (p.seed, p.player))
            .collect();
        seeded.sort();
        if seeded
            .iter()
            .enumerate()
            .any(|(i, x)| x.0 as usize != i + 1)
        {
            return Err(format!("{l}'s seeds are not 1..{size}"));
        }
        let order: Vec<PlayerId> = seeded.iter().map(|x| x.1).collect();
        let gsz: Vec<u32> = gs.iter().map(|&g| g as u32).collect();
        if zigzag(&order, &gsz) != div.groups {
            return Err(format!("{l} is not seeded in a zig-zag (SJ-R3)"));
        }
        if gsz != group_sizes(size as u32, gs.len() as u32) {
            return Err(format!("{l}'s group sizes {gsz:?}"));
        }
        if size <= cascade_limit {
            // Registration order of the division, then D.2.
            let pos: HashMap<PlayerId, usize> = s
                .entrants
                .iter()
                .enumerate()
                .map(|(i, p)| (*p, i))
                .collect();
            let mut listing = order.clone();
            listing.sort_by_key(|p| pos[p]);
            let input = s.input();
            let r = input.data.secondary_cascade().rank(&listing);
            let mut want = r.order.clone();
            for u in &r.unresolved {
                let start = want.iter().position(|p| u.players.contains(p)).unwrap();
                let mut block = u.players.clone();
                block.sort_by_key(|p| pos[p]);
                want[start..start + block.len()].copy_from_slice(&block);
            }
            if want != order {
                return Err(format!("{l} is not seeded by D.2 (A.ii.2)"));
            }
        }
    }
    // Restrictions.
    for pl in &plan.placements {
        let info = &s.info[pl.player.index()];
        if info.provisional && !rules.provisional_promotable {
            continue;
        }
        let Some((high, low)) = s.restrictions.limits(info.rank) else {
            continue;
        };
        let d = pl.group.division;
        if d > low {
            return Err(format!(
                "{} ({}) in {} below his lowest division {} (C.3): {}",
                info.name,
                info.rank,
                division_letter(d),
                division_letter(low),
                pl.explanation
            ));
        }
        if d < high && !is_assured(pl.reason) {
            return Err(format!(
                "{} ({}) in {} above his highest division {} (C.4): {}",
                info.name,
                info.rank,
                division_letter(d),
                division_letter(high),
                pl.explanation
            ));
        }
    }
    // Section B.
    if let Some(prev) = &s.previous {
        let placed: HashMap<PlayerId, Division> = plan
            .placements
            .iter()
            .map(|p| (p.player, p.group.division))
            .collect();
        for (d, div) in prev.divisions.iter().enumerate() {
            let d = d as Division;
            for p in &div.ranking {
                if let Some(&to) = placed.get(p)
                    && to > d + 1
                {
                    return Err(format!(
                        "{} fell from {} to {}",
                        s.name(*p),
                        division_letter(d),
                        division_letter(to)
                    ));
                }
            }
            if d > 0 {
                for p in &div.group_leaders {
                    if let Some(&to) = placed.get(p)
                        && to >= d
                    {
                        return Err(format!(
                            "the leader {} of {} is in {} (B.1)",
                            s.name(*p),
                            division_letter(d),
                            division_letter(to)
                        ));
                    }
                }
            }
        }
        // A.i.5 for the divisions that took promotions by rank.
        for (d, &size) in sizes.iter().enumerate() {
            let Some(pd) = prev.divisions.get(d) else {
                continue;
            };
            let into = |f: &dyn Fn(PlacementReason) -> bool| {
                plan.placements
                    .iter()
                    .any(|p| p.group.division as usize == d && f(p.reason))
            };
            let by_rank = into(&|r| matches!(r, PlacementReason::PromotionByRank { .. }));
            let e1 = into(&|r| matches!(r, PlacementReason::SizeOverride { .. }));
            let min = if d == 0 && n >= 10 { 10 } else { 5 };
            if by_rank && !e1 && size > pd.ranking.len().max(min) {
                return Err(format!(
                    "{} took promotions by rank and grew from {} to {size} (A.i.5)",
                    division_letter(d as Division),
                    pd.ranking.len()
                ));
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------
// The random season generator.

/// SplitMix64.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        if hi <= lo {
            return lo;
        }
        lo + self.next() % (hi - lo + 1)
    }

    /// True with probability `p` percent.
    pub fn chance(&mut self, p: u64) -> bool {
        self.next() % 100 < p
    }

    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.range(0, i as u64) as usize;
            v.swap(i, j);
        }
    }
}

pub fn rank_of(strength: i64) -> Rank {
    let s = strength.clamp(1, 39);
    if s > 30 {
        Rank::Dan((s - 30) as u8)
    } else {
        Rank::Kyu((31 - s) as u8)
    }
}

/// Random monotone restrictions over `divisions` divisions (and one more):
/// the ranks cut into 2 to 6 bands, strongest first, whose highest and
/// lowest divisions never rise as the ranks weaken (the weakest band mostly
/// reaching the bottom); a band is sometimes left out (unrestricted ranks).
pub fn random_restrictions(rng: &mut Rng, divisions: u32) -> Restrictions {
    let bands = rng.range(2, 6) as usize;
    let mut cuts: Vec<i64> = (0..bands - 1).map(|_| rng.range(2, 38) as i64).collect();
    cuts.sort_unstable();
    cuts.dedup();
    let bottoms: Vec<i64> = cuts
        .iter()
        .rev()
        .map(|c| c + 1)
        .chain(std::iter::once(1))
        .collect();
    let last = bottoms.len() - 1;
    let mut rows = Vec::new();
    let mut top = 39i64;
    let (mut high, mut low) = (0u32, rng.range(0, 1) as u32);
    for (i, &bottom) in bottoms.iter().enumerate() {
        if i > 0 {
            high = (high + rng.range(0, 1) as u32).min(divisions);
            low = (low + rng.range(0, 2) as u32).min(divisions + 1);
        }
        if i == last && rng.chance(80) {
            low = low.max(divisions.saturating_sub(1) + rng.range(0, 1) as u32);
        }
        low = low.max(high);
        if !rng.chance(12) {
            rows.push(Restriction {
                strongest: rank_of(top),
                weakest: rank_of(bottom),
                highest: high,
                lowest: low,
            });
        }
        top = bottom - 1;
    }
    Restrictions { rows }
}

/// A random season from `seed` (printed first, so that a failure can be
/// replayed): a previous season of 1 to `max_divisions` divisions whose sizes
/// keep the rules (A at least 10 with two groups when there is a B, each
/// division 5 to thrice the one above and within its limit, the group
/// counts of SJ-R2), random merged rankings and group leaders, ranks that
/// weaken down the pyramid, withdrawals, new players, provisional ranks,
/// random monotone restrictions; one season in ten is a first season.
pub fn random_season(seed: u64, max_divisions: u32, max_size: usize) -> Scenario {
    println!("seed = {seed}");
    let mut rng = Rng::new(seed);
    let mut s = Scenario::default();
    if rng.chance(15) {
        s.rules.provisional_promotable = true;
    }
    if rng.chance(10) {
        s.rules.group_count = GroupCount::Fewest;
    }
    let level_spread = rng.range(2, 8) as i64;
    let mut next_name = 0usize;
    let mut make = |s: &mut Scenario, rng: &mut Rng, strength: i64| -> PlayerId {
        next_name += 1;
        let st = strength.clamp(1, 39);
        let rating = 600 + 50 * st as i32 + rng.range(0, 60) as i32;
        let provisional = rng.chance(4);
        s.register(&format!("P{next_name}"), rank_of(st), rating, provisional)
    };
    let mut divisions = 0u32;
    if rng.chance(90) {
        let k = rng.range(1, u64::from(max_divisions)) as usize;
        let mut prev = PreviousSeason::default();
        let mut above: Option<(usize, u32)> = None;
        for d in 0..k {
            let size = match above {
                None if k == 1 => rng.range(5, 18) as usize,
                None => rng.range(10, 18) as usize,
                Some((a, _)) => {
                    let hi = (3 * a).min(s.rules.cap(d as u32) as usize).min(max_size);
                    rng.range(5, hi as u64) as usize
                }
            };
            let g = group_count(&s.rules, size as u32, above.map(|a| a.1), d == 0).unwrap_or(1);
            let base = 36 - 5 * d as i64;
            let mut ranking: Vec<PlayerId> = (0..size)
                .map(|_| {
                    let st = base - rng.range(0, level_spread as u64) as i64;
                    make(&mut s, &mut rng, st)
                })
                .collect();
            rng.shuffle(&mut ranking);
            let groups = group_sizes(size as u32, g);
            let mut pool: Vec<PlayerId> = ranking[..(size / 2).max(g as usize)].to_vec();
            rng.shuffle(&mut pool);
            let leaders = pool[..g as usize].to_vec();
            prev.divisions.push(PreviousDivision {
                ranking,
                group_leaders: leaders,
                groups,
            });
            above = Some((size, g));
        }
        divisions = k as u32;
        s.previous = Some(prev);
    }
    let withdraw = rng.range(0, 30);
    let returning: Vec<PlayerId> = (1..=s.info.len() as u32)
        .map(PlayerId)
        .filter(|_| !rng.chance(withdraw))
        .collect();
    let news = if s.previous.is_none() {
        rng.range(0, 90) as usize
    } else {
        rng.range(0, (s.info.len() / 3 + 3) as u64) as usize
    };
    let mut entrants = returning;
    for _ in 0..news {
        let st = rng.range(1, 39) as i64;
        entrants.push(make(&mut s, &mut rng, st));
    }
    if rng.chance(85) {
        s.restrictions = random_restrictions(&mut rng, divisions.max(2));
    }
    if rng.chance(10) && !entrants.is_empty() {
        let p = entrants[rng.range(0, entrants.len() as u64 - 1) as usize];
        s.tiebreaks.gave_way.push(p);
    }
    s.entrants = entrants;
    s
}

/// The number of distinct divisions the plan's placements use, by reason.
pub fn reasons(outcome: &PlanOutcome) -> HashSet<&'static str> {
    let mut out = HashSet::new();
    if let PlanOutcome::Planned(plan) = outcome {
        for p in &plan.placements {
            out.insert(match p.reason {
                PlacementReason::DirectPromotion { .. } => "direct",
                PlacementReason::Demotion { .. } => "demotion",
                PlacementReason::Middle { .. } => "middle",
                PlacementReason::PromotionByRank { .. } => "rank",
                PlacementReason::ForcedPromotion { .. } => "forced",
                PlacementReason::SizeOverride { .. } => "override",
                PlacementReason::NewPlayer => "new",
                PlacementReason::FirstSeason => "first",
            });
        }
    }
    out
}
