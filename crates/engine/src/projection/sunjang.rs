//! The projection of a Sunjang division in the running season (ARB-R48).
//!
//! The unit simulated is a *division*, not a group: a group decides its own
//! table (its places and its leader, B.1), but promotions beyond the group
//! leaders, demotions (B.2, B.3, B.5) and the final round are read from the
//! merged ranking of the whole division (SJ-R5), which the other groups of
//! the division take part in. Divisions are independent of each other: how
//! many a division demotes depends on how many *groups* the division below
//! has, not on its results. So [`project_division`] simulates every
//! remaining game of the division's groups, and for division A the final
//! round too.
//!
//! Each simulated season:
//!
//! 1. every game without a result gets one from the [`WinModel`] (black is
//!    the first player): black wins, white wins or jigo at the draw rate; a
//!    game of a player who has withdrawn from the league is forfeited by
//!    him (both forfeit if both withdrew, ARB-R39); nobody else forfeits or
//!    withdraws;
//! 2. each group table is ranked by section D exactly as
//!    [`group::group_table`] ranks it ([`RankingData::main_cascade`]: D.1
//!    with the SJ-R9 restart, then D.2 with the organizer's tiebreak record
//!    so far); a tie that no criterion separates is settled as the
//!    organizer would with a live Sunjang match: in the simulation, a
//!    uniform random order among the tied players (one random key per
//!    player and season, so the group table and the merged ranking agree);
//! 3. the division's merged ranking (SJ-R5, the same cascade over all its
//!    players) and section B as the planner counts it: the group leaders,
//!    topped up from the merged ranking to at least
//!    `min_direct_promotions` (B.1, B.3), and as many demotions as the
//!    division below has direct promotions, one more per group of exactly
//!    10, never overlapping the promotions (B.2, B.5); a player who has
//!    withdrawn loses his promotion, which is not passed on (B.4);
//! 4. division A: the final round's qualification
//!    ([`final_round::qualify`], with the defending champion, A's demotions
//!    and the withdrawn players), then the final's games through
//!    [`final_round::final_state`] until it names a champion (or is void).
//!
//! Once the season is closed its recorded merged rankings are used (ARB-R43);
//! once the final is qualified, its recorded finalists and games.

use crate::RuleError;
use crate::cascade::Ranking;
use crate::draw::Seed;
use crate::sunjang::final_round::{
    self, FinalGame, FinalInput, FinalQualification, FinalState, final_state,
};
use crate::sunjang::group::{self, DivisionRanking, GroupGame, GroupInput, Outcome};
use crate::sunjang::ranking::RankingData;
use crate::sunjang::season::{League, Season};
use crate::sunjang::{Division, PlayerId, SunjangRules};

use super::{GameResult, Projection, SimRng, Tally, WinModel, run_with_progress};

const CLAUSE: &str = "Sunjang projection";

/// What can happen to a player of the division.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SunjangOutcome {
    /// His place in his group table (1-based; ties settled, so each place
    /// goes to exactly one player each season).
    GroupPlace(u32),
    /// First of his group (B.1).
    GroupWin,
    /// A direct promotion to the division above (B.1, B.3); not in A,
    /// whose direct promotions are the final round's qualifiers.
    DirectPromotion,
    /// A demotion to the division below (B.2, B.3, B.5).
    Demotion,
    /// One of the three finalists (division A).
    FinalRound,
    /// Champion (division A).
    Title,
}

/// Everything a simulated season reads, prepared once.
struct Setup<'a> {
    league: &'a League,
    division: Division,
    /// The division's groups as they stand.
    groups: Vec<GroupInput>,
    /// For each group, the positions of its games without a result.
    open: Vec<Vec<usize>>,
    /// The division's players, group by group.
    players: Vec<PlayerId>,
    withdrawn: Vec<bool>,
    /// (direct promotions, demotions) of the division (section B).
    promotions: usize,
    demotions: usize,
    /// The recorded close of the division (merged ranking, leaders).
    closed: Option<(Vec<PlayerId>, Vec<PlayerId>)>,
    /// Division A: the defending champion and A's demotions.
    champion: Option<PlayerId>,
    demotions_from_a: usize,
    unavailable: Vec<PlayerId>,
    /// The recorded final: its qualification and games so far.
    recorded_final: Option<(FinalQualification, Vec<FinalGame>)>,
}

/// Project `division` (0 is A) of the league's current season over
/// `seasons` simulated seasons from `seed`, with the odds of `model`.
/// Refused when the league has no running season or no such division.
pub fn project_division(
    league: &League,
    division: Division,
    model: &WinModel,
    seasons: u32,
    seed: Seed,
) -> Result<Projection<SunjangOutcome>, RuleError> {
    project_division_with_progress(league, division, model, seasons, seed, &mut super::go_on)
}

/// [`project_division`], reporting the seasons simulated so far to
/// `progress` (see [`super::run_with_progress`]); the same counts.
pub fn project_division_with_progress(
    league: &League,
    division: Division,
    model: &WinModel,
    seasons: u32,
    seed: Seed,
    progress: super::Progress<'_>,
) -> Result<Projection<SunjangOutcome>, RuleError> {
    let setup = Setup::new(league, division)?;
    let players = setup.players.clone();
    let mut work = Work::new(&setup);
    Ok(run_with_progress(
        seasons,
        seed,
        &players,
        |rng, tally| {
            work.season(&setup, model, rng, tally);
        },
        progress,
    ))
}

fn refuse(message: String) -> RuleError {
    RuleError::new(CLAUSE, message)
}

/// A model from the overall ratings the league lists for its players
/// ([`crate::sunjang::PlayerInfo::rating`]), read as Elo ratings, with a
/// draw rate of `draw_ppm`: for a league without a rating fold of its own.
pub fn listed_ratings(league: &League, draw_ppm: u32) -> WinModel {
    WinModel::elo(
        league
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| (PlayerId(i as u32 + 1), f64::from(p.rating))),
        draw_ppm,
    )
}

/// The league's jigo rate so far, parts per million: jigos among every
/// group and final game played to a result (forfeits left out), over all
/// seasons; 0 before any game. A [`WinModel`]'s draw rate from history.
pub fn jigo_rate(league: &League) -> u32 {
    let outcomes = league.seasons.iter().flat_map(|s| {
        let group = s
            .divisions
            .iter()
            .flatten()
            .flat_map(|g| g.games.iter().filter_map(|x| x.outcome));
        let finals = s
            .final_round
            .iter()
            .flat_map(|f| f.games.iter().filter_map(|x| x.outcome));
        group.chain(finals)
    });
    let (mut jigo, mut games) = (0u64, 0u64);
    for o in outcomes.filter(|o| !o.is_forfeit()) {
        games += 1;
        jigo += u64::from(o == Outcome::Jigo);
    }
    super::draw_rate(jigo, games)
}

impl<'a> Setup<'a> {
    fn new(league: &'a League, division: Division) -> Result<Setup<'a>, RuleError> {
        let s = league
            .current()
            .ok_or_else(|| refuse("the league has no season to project".into()))?;
        if s.plan.cancelled.is_some() {
            return Err(refuse(format!("season {} is cancelled", s.number())));
        }
        let d = division as usize;
        let groups = s.division_groups(d);
        if groups.is_empty() {
            return Err(refuse(format!(
                "season {} has no division {}",
                s.number(),
                crate::sunjang::division_letter(division)
            )));
        }
        let rules = &league.rules;
        let open = groups
            .iter()
            .map(|g| {
                g.2.iter()
                    .enumerate()
                    .filter(|(_, x)| x.outcome.is_none())
                    .map(|(i, _)| i)
                    .collect()
            })
            .collect();
        let players: Vec<PlayerId> = groups.iter().flat_map(|g| g.1.iter().copied()).collect();
        let withdrawn = league.withdrawn.clone();
        let size_of = |k: usize| {
            s.divisions
                .get(k)
                .map_or(0, |gs| gs.iter().map(|g| g.players.len()).sum::<usize>())
        };
        let groups_of = |k: usize| s.divisions.get(k).map_or(0, Vec::len);
        let promotions =
            crate::sunjang::planner::direct_promotions(groups_of(d), size_of(d), rules);
        // The planner's one count (B.2 with SJ-R6, B.5).
        let sizes_of = |k: usize| -> Vec<usize> {
            s.divisions
                .get(k)
                .map(|gs| gs.iter().map(|g| g.players.len()).collect())
                .unwrap_or_default()
        };
        let below_of =
            |k: usize| (k + 1 < s.divisions.len()).then(|| (groups_of(k + 1), size_of(k + 1)));
        let demotions =
            crate::sunjang::planner::demotion_count(&sizes_of(d), promotions, below_of(d), rules)
                .count;
        let closed = s.close.as_ref().and_then(|c| {
            c.divisions
                .get(d)
                .map(|x| (x.ranking.clone(), x.group_leaders.clone()))
        });
        let champion = champion_before(league, s);
        let demotions_from_a = crate::sunjang::planner::demotion_count(
            &sizes_of(0),
            crate::sunjang::planner::direct_promotions(groups_of(0), size_of(0), rules),
            below_of(0),
            rules,
        )
        .count;
        let unavailable = (0..league.players.len())
            .filter(|&i| withdrawn.get(i).copied().unwrap_or(false))
            .map(|i| PlayerId(i as u32 + 1))
            .collect();
        let recorded_final = s.final_round.as_ref().filter(|_| d == 0).map(|f| {
            let q = FinalQualification {
                players: f.players.clone(),
                names: f.players.iter().map(|p| league.name_of(*p)).collect(),
                advantaged: f.advantaged.clone(),
                explanations: Vec::new(),
                pending: None,
                void: f.void.then(|| {
                    crate::explain::Explanation::new(
                        "Sunjang Final Round",
                        &["SJ-R7"],
                        "the title is declared void for the year",
                    )
                }),
            };
            (q, f.games.clone())
        });
        Ok(Setup {
            league,
            division,
            groups,
            open,
            players,
            withdrawn,
            promotions,
            demotions,
            closed,
            champion,
            demotions_from_a,
            unavailable,
            recorded_final,
        })
    }

    fn is_withdrawn(&self, p: PlayerId) -> bool {
        self.withdrawn.get(p.index()).copied().unwrap_or(false)
    }
}

/// The champion of the last season before `s` whose final was decided.
fn champion_before(league: &League, s: &Season) -> Option<PlayerId> {
    league
        .seasons
        .iter()
        .take_while(|x| x.number() < s.number())
        .filter_map(|x| match league.final_state(x) {
            Some(FinalState::Champion { player, .. }) => Some(player),
            _ => None,
        })
        .last()
}

/// The buffers a simulated season reuses.
struct Work {
    groups: Vec<GroupInput>,
    /// The random key that settles ties nothing separates, by player index.
    lottery: Vec<u32>,
}

impl Work {
    fn new(setup: &Setup<'_>) -> Work {
        Work {
            groups: setup.groups.clone(),
            lottery: vec![0; setup.league.players.len()],
        }
    }

    fn season(
        &mut self,
        setup: &Setup<'_>,
        model: &WinModel,
        rng: &mut SimRng,
        tally: &mut Tally<SunjangOutcome>,
    ) {
        let league = setup.league;
        let rules = &league.rules;
        // 1. The remaining games.
        for (k, open) in setup.open.iter().enumerate() {
            let games: &mut Vec<GroupGame> = &mut self.groups[k].2;
            for &i in open {
                let (b, w) = (games[i].pairing.black, games[i].pairing.white);
                let outcome = match (setup.is_withdrawn(b), setup.is_withdrawn(w)) {
                    (true, true) => Outcome::BothForfeit,
                    (true, false) => Outcome::BlackForfeits,
                    (false, true) => Outcome::WhiteForfeits,
                    (false, false) => match model.play(rng, b, w) {
                        GameResult::FirstWins => Outcome::BlackWins,
                        GameResult::SecondWins => Outcome::WhiteWins,
                        GameResult::Draw => Outcome::Jigo,
                    },
                };
                games[i].outcome = Some(outcome);
            }
        }
        for &p in &setup.players {
            if let Some(x) = self.lottery.get_mut(p.index()) {
                *x = rng.below(u32::MAX);
            }
        }
        // 2. The group tables.
        let performance = group::performances(league.players.len(), &self.groups, rules);
        let played = group::played_games(&self.groups, rules);
        let data = RankingData {
            info: &league.players,
            performance: &performance,
            games: &played,
            tiebreaks: &league.tiebreaks,
            rules,
        };
        let cascade = data.main_cascade();
        let mut leaders = Vec::with_capacity(self.groups.len());
        let mut single_order = Vec::new();
        for (_, players, _) in &self.groups {
            let order = settle(&cascade.rank(players), &self.lottery);
            for (i, &p) in order.iter().enumerate() {
                tally.add(p, SunjangOutcome::GroupPlace(i as u32 + 1));
            }
            if let Some(&first) = order.first() {
                tally.add(first, SunjangOutcome::GroupWin);
                leaders.push(first);
            }
            single_order = order;
        }
        // 3. The merged ranking and section B.
        let (merged, leaders) = match &setup.closed {
            Some((ranking, recorded_leaders)) => (ranking.clone(), recorded_leaders.clone()),
            None if self.groups.len() == 1 => (single_order, leaders),
            None => (
                settle(&cascade.rank(&setup.players), &self.lottery),
                leaders,
            ),
        };
        let pos = |p: PlayerId| merged.iter().position(|&x| x == p).unwrap_or(usize::MAX);
        let mut promoted: Vec<PlayerId> = leaders.clone();
        promoted.sort_by_key(|&p| pos(p));
        for &p in &merged {
            if promoted.len() >= setup.promotions {
                break;
            }
            if !promoted.contains(&p) {
                promoted.push(p);
            }
        }
        if setup.division > 0 {
            for &p in &promoted {
                if !setup.is_withdrawn(p) {
                    tally.add(p, SunjangOutcome::DirectPromotion);
                }
            }
        }
        for &p in merged
            .iter()
            .rev()
            .filter(|p| !promoted.contains(p))
            .take(setup.demotions)
        {
            tally.add(p, SunjangOutcome::Demotion);
        }
        // 4. Division A: the final round.
        if setup.division == 0 {
            let (q, games) = match &setup.recorded_final {
                Some((q, games)) => (q.clone(), games.clone()),
                None => {
                    let n = merged.len();
                    let division = DivisionRanking {
                        division: 0,
                        order: merged.clone(),
                        group_leaders: leaders,
                        tied_leads: Vec::new(),
                        ranking: Ranking {
                            order: merged,
                            places: (1..=n).collect(),
                            splits: Vec::new(),
                            unresolved: Vec::new(),
                        },
                        complete: true,
                        explanations: Vec::new(),
                        leader_explanations: Vec::new(),
                    };
                    let q = final_round::qualify(&FinalInput {
                        division: &division,
                        performance: &performance,
                        champion: setup.champion,
                        demotions: setup.demotions_from_a,
                        unavailable: &setup.unavailable,
                        info: &league.players,
                        rules,
                    });
                    (q, Vec::new())
                }
            };
            if q.void.is_none() && q.players.len() == 3 {
                for &p in &q.players {
                    tally.add(p, SunjangOutcome::FinalRound);
                }
            }
            if let Some(champion) = play_final(&q, games, model, rng, rules) {
                tally.add(champion, SunjangOutcome::Title);
            }
        }
        // Back to the games as they stand for the next season.
        for (k, open) in setup.open.iter().enumerate() {
            for &i in open {
                self.groups[k].2[i].outcome = None;
            }
        }
    }
}

/// The order of a ranking with every tie nothing separated settled by the
/// players' random keys (a simulated live Sunjang match).
fn settle(ranking: &Ranking<PlayerId>, lottery: &[u32]) -> Vec<PlayerId> {
    let mut order = ranking.order.clone();
    let mut i = 0;
    while i < order.len() {
        let mut j = i + 1;
        while j < order.len() && ranking.places.get(j) == ranking.places.get(i) {
            j += 1;
        }
        if j - i > 1 {
            order[i..j].sort_by_key(|p| (lottery.get(p.index()).copied().unwrap_or(0), p.0));
        }
        i = j;
    }
    order
}

/// Play the final out from `games`: the champion, or `None` when void.
fn play_final(
    q: &FinalQualification,
    mut games: Vec<FinalGame>,
    model: &WinModel,
    rng: &mut SimRng,
    rules: &SunjangRules,
) -> Option<PlayerId> {
    // Three round-robin games and deciding games replayed after a jigo: a
    // bound keeps a model that draws every game from looping.
    for _ in 0..64 {
        let (black, white) = match final_state(q, &games, rules) {
            FinalState::Champion { player, .. } => return Some(player),
            FinalState::Void { .. } => return None,
            FinalState::Playing { next } => *next.first()?,
            FinalState::Playoff { players, .. } => (players[0], players[1]),
        };
        let outcome = match model.play(rng, black, white) {
            GameResult::FirstWins => Outcome::BlackWins,
            GameResult::SecondWins => Outcome::WhiteWins,
            GameResult::Draw => Outcome::Jigo,
        };
        games.push(FinalGame {
            black,
            white,
            outcome: Some(outcome),
        });
    }
    None
}
