//! An organizer's own layout of a season (ARB-R55): moves of players
//! between the groups of the automatic plan, or the whole layout
//! (divisions, groups and their players), checked against the size rules of
//! section A before anything is stored.
//!
//! Every rule the layout breaks is named with its figures:
//!
//! - A.i.1 and footnote 1: two groups in the main division, one when fewer
//!   than 10 play;
//! - A.i.2: a division has at least 5 players and at most thrice the
//!   division above;
//! - A.i.3: at most thrice the groups of the division above, no group under
//!   5, and none over the ideal size and its deviation (7 + 2: the natural
//!   limit of A.i.4 "precludes groups of 10 players");
//! - A.i.4: the natural limit of 6×3ⁿ players (SJ-R1);
//! - footnote 3: two groups of a division differ by at most one player.
//!
//! A division the layout leaves as the automatic plan made it keeps the
//! planner's decisions, the exceptions that E.1 and ARB-R35 allow included:
//! the rules are checked on the divisions the organizer changes (and on the
//! relation of a changed division to its neighbours). Sections B and C are
//! what the planner decided; a layout departs from them by the organizer's
//! decision, which the season's record keeps with its reason (each moved
//! placement says where the plan had put the player). A changed division is
//! seeded again by rank (A.ii.2, D.2, ARB-R36); the groups keep the
//! organizer's numbering.
//!
//! A layout that is not one (an unknown or withdrawn player, a player placed
//! twice or not at all, a group that cannot exist) is refused with an error
//! naming the field; it has no violations to list.

use std::collections::HashSet;

use crate::RuleError;
use crate::explain::Explanation;

use super::planner::{D2, Plan};
use super::ranking::RankingData;
use super::{Division, GroupId, PlayerId, SunjangRules, division_letter};

/// Ruling: an organizer's layout and what it is checked against.
pub const ARB_LAYOUT: &str = "ARB-R55";
/// The longest reason an organizer gives for his layout, in characters.
pub const REASON_MAX: usize = 500;

const CLAUSE_INPUT: &str = "Sunjang A. Divisions & Groups";

/// What an organizer proposes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Proposal {
    /// Moves of players between the groups of the automatic plan, made in
    /// order: a move may name the next group of a division (`B3` when B has
    /// two) or group 1 of the next division, which it creates.
    Moves(Vec<(PlayerId, GroupId)>),
    /// The whole layout: divisions (A first), each its groups, each its
    /// players in any order.
    Groups(Vec<Vec<Vec<PlayerId>>>),
}

/// A placement the organizer changed: where the automatic plan had the
/// player (`None` when there was no automatic plan to start from) and
/// where the layout puts him.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Moved {
    pub player: PlayerId,
    pub planned: Option<GroupId>,
    pub placed: GroupId,
}

/// A checked layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Divisions (A first), each its groups, each its players in seed
    /// order.
    pub divisions: Vec<Vec<Vec<PlayerId>>>,
    /// Each entrant's group and seed within his division, in entrant order.
    pub seats: Vec<(PlayerId, GroupId, u32)>,
    /// The placements that differ from the automatic plan, in entrant
    /// order.
    pub moved: Vec<Moved>,
    /// Whether each division differs from the automatic plan.
    pub changed: Vec<bool>,
    /// Every rule of section A the layout breaks, with its figures.
    pub violations: Vec<Explanation>,
}

fn refuse(message: String, field: impl Into<String>) -> RuleError {
    RuleError::new(CLAUSE_INPUT, format!("{message} ({ARB_LAYOUT})")).field(field)
}

/// Group `k` (0-based) of division `d`, a division of `groups` groups: the
/// only one is named by its letter ("Sunjang Definitions: Group").
fn gid(d: usize, k: usize, groups: usize) -> GroupId {
    GroupId::of(d as Division, k as u32 + 1, groups)
}

/// Check `proposal` against section A (see the module documentation).
/// `auto` is the automatic plan (`None` when the planner refused one: only
/// a whole layout can then be proposed, and every division counts as
/// changed).
pub fn check(
    auto: Option<&Plan>,
    proposal: &Proposal,
    entrants: &[PlayerId],
    data: &RankingData,
    rules: &SunjangRules,
) -> Result<Layout, RuleError> {
    let info = data.info;
    let name = |p: PlayerId| {
        p.0.checked_sub(1)
            .and_then(|i| info.get(i as usize))
            .map_or_else(|| p.to_string(), |i| i.name.clone())
    };
    let entering: HashSet<PlayerId> = entrants.iter().copied().collect();
    let playing = |p: PlayerId, field: &str| -> Result<(), RuleError> {
        if p.0 == 0 || p.index() >= info.len() {
            return Err(refuse(format!("there is no player {p}"), field));
        }
        if !entering.contains(&p) {
            return Err(refuse(
                format!(
                    "{} does not play next season (withdrawn): a layout places the players who enter",
                    name(p)
                ),
                field,
            ));
        }
        Ok(())
    };
    let mut divisions: Vec<Vec<Vec<PlayerId>>> = match proposal {
        Proposal::Moves(moves) => {
            let Some(plan) = auto else {
                return Err(refuse(
                    "there is no automatic plan to move players in: propose the whole layout"
                        .into(),
                    "moves",
                ));
            };
            let mut divs: Vec<Vec<Vec<PlayerId>>> =
                plan.divisions.iter().map(|d| d.groups.clone()).collect();
            let mut moved = HashSet::new();
            for (i, &(p, to)) in moves.iter().enumerate() {
                let field = format!("moves[{i}]");
                playing(p, &field)?;
                if !moved.insert(p) {
                    return Err(refuse(
                        format!("{} is moved twice: move each player once", name(p)),
                        field,
                    ));
                }
                let d = to.division as usize;
                let groups_there = divs.get(d).map_or(0, Vec::len);
                let fits = match d.cmp(&divs.len()) {
                    std::cmp::Ordering::Less => {
                        to.number >= 1 && to.number as usize <= groups_there + 1
                    }
                    std::cmp::Ordering::Equal => to.number == 1,
                    std::cmp::Ordering::Greater => false,
                };
                if !fits {
                    let hint = if d < divs.len() {
                        format!(
                            "division {} has {groups_there} group(s): name one of them, or {} for a new one",
                            division_letter(to.division),
                            gid(d, groups_there, groups_there + 1)
                        )
                    } else {
                        format!(
                            "the plan has divisions A to {}: a new division is {}",
                            division_letter(divs.len() as Division - 1),
                            gid(divs.len(), 0, 1)
                        )
                    };
                    return Err(refuse(format!("there is no group {to}: {hint}"), field));
                }
                let from = divs
                    .iter()
                    .enumerate()
                    .find_map(|(dd, gs)| gs.iter().position(|g| g.contains(&p)).map(|k| (dd, k)));
                let Some((fd, fk)) = from else {
                    return Err(refuse(
                        format!("{} is in no group of the plan", name(p)),
                        field,
                    ));
                };
                let here = gid(fd, fk, divs[fd].len());
                if here == to {
                    return Err(refuse(format!("{} is already in {here}", name(p)), field));
                }
                divs[fd][fk].retain(|&x| x != p);
                if d == divs.len() {
                    divs.push(Vec::new());
                }
                if to.number as usize > divs[d].len() {
                    divs[d].push(Vec::new());
                }
                divs[d][to.number as usize - 1].push(p);
            }
            divs
        }
        Proposal::Groups(divs) => {
            if divs.is_empty() {
                return Err(refuse("the layout has no divisions".into(), "layout"));
            }
            let groups: usize = divs.iter().map(Vec::len).sum();
            if groups > entrants.len().max(1) {
                return Err(refuse(
                    format!(
                        "the layout has {groups} groups for {} players",
                        entrants.len()
                    ),
                    "layout",
                ));
            }
            let mut seen = HashSet::new();
            for (d, gs) in divs.iter().enumerate() {
                if gs.is_empty() {
                    return Err(refuse(
                        format!(
                            "division {} has no groups: the divisions are A, B, C, ... in order, none left out",
                            division_letter(d as Division)
                        ),
                        format!("layout.{}", division_letter(d as Division)),
                    ));
                }
                for (k, g) in gs.iter().enumerate() {
                    for &p in g {
                        let field = format!("layout.{}", gid(d, k, gs.len()));
                        playing(p, &field)?;
                        if !seen.insert(p) {
                            return Err(refuse(
                                format!("{} is placed twice: each player is in one group", name(p)),
                                field,
                            ));
                        }
                    }
                }
            }
            let missing: Vec<String> = entrants
                .iter()
                .filter(|p| !seen.contains(p))
                .map(|&p| name(p))
                .collect();
            if !missing.is_empty() {
                let shown = missing
                    .iter()
                    .take(8)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ");
                let more = missing.len().saturating_sub(8);
                return Err(refuse(
                    format!(
                        "{} player(s) who enter are not placed: {shown}{}",
                        missing.len(),
                        if more > 0 {
                            format!(" and {more} more")
                        } else {
                            String::new()
                        }
                    ),
                    "layout",
                ));
            }
            divs.clone()
        }
    };

    // Which divisions differ from the automatic plan (as sets of groups).
    let same_as_plan = |d: usize, gs: &[Vec<PlayerId>]| -> bool {
        let Some(plan) = auto else { return false };
        let Some(pd) = plan.divisions.get(d) else {
            return false;
        };
        pd.groups.len() == gs.len()
            && pd.groups.iter().zip(gs).all(|(a, b)| {
                a.len() == b.len() && {
                    let set: HashSet<&PlayerId> = a.iter().collect();
                    b.iter().all(|p| set.contains(p))
                }
            })
    };
    let changed: Vec<bool> = divisions
        .iter()
        .enumerate()
        .map(|(d, gs)| !same_as_plan(d, gs))
        .collect();

    // Seeds: an unchanged division keeps the plan's; a changed one is
    // seeded by rank again (A.ii.2, D.2, ARB-R36).
    let position: std::collections::HashMap<PlayerId, u32> = entrants
        .iter()
        .enumerate()
        .map(|(i, &p)| (p, i as u32))
        .collect();
    let d2 = D2::new(data);
    let mut seat: std::collections::HashMap<PlayerId, (GroupId, u32)> =
        std::collections::HashMap::new();
    for (d, gs) in divisions.iter_mut().enumerate() {
        let order: Vec<PlayerId> = match auto {
            Some(plan) if !changed[d] => {
                let mut seeded: Vec<(u32, PlayerId)> = plan
                    .placements
                    .iter()
                    .filter(|pl| pl.group.division as usize == d)
                    .map(|pl| (pl.seed, pl.player))
                    .collect();
                seeded.sort_unstable();
                seeded.into_iter().map(|s| s.1).collect()
            }
            _ => {
                let mut items: Vec<(u32, PlayerId)> = gs
                    .iter()
                    .flatten()
                    .map(|&p| (position.get(&p).copied().unwrap_or(u32::MAX), p))
                    .collect();
                items.sort_unstable();
                d2.rank(items).order.into_iter().map(|t| t.1).collect()
            }
        };
        let seed_of: std::collections::HashMap<PlayerId, u32> = order
            .iter()
            .enumerate()
            .map(|(i, &p)| (p, i as u32 + 1))
            .collect();
        let n_groups = gs.len();
        for (k, g) in gs.iter_mut().enumerate() {
            g.sort_by_key(|p| seed_of.get(p).copied().unwrap_or(u32::MAX));
            for &p in g.iter() {
                seat.insert(
                    p,
                    (gid(d, k, n_groups), seed_of.get(&p).copied().unwrap_or(0)),
                );
            }
        }
    }
    let seats: Vec<(PlayerId, GroupId, u32)> = entrants
        .iter()
        .filter_map(|&p| seat.get(&p).map(|&(g, s)| (p, g, s)))
        .collect();
    let moved = seats
        .iter()
        .filter_map(|&(p, g, _)| {
            let planned = auto.and_then(|plan| {
                plan.placements
                    .iter()
                    .find(|pl| pl.player == p)
                    .map(|pl| pl.group)
            });
            (planned != Some(g)).then_some(Moved {
                player: p,
                planned,
                placed: g,
            })
        })
        .collect();
    let violations = violations(&divisions, &changed, entrants.len(), rules);
    Ok(Layout {
        divisions,
        seats,
        moved,
        changed,
        violations,
    })
}

fn v(clause: &'static str, text: String) -> Explanation {
    Explanation::new(clause, &[ARB_LAYOUT], text)
}

fn players(n: usize) -> String {
    if n == 1 {
        "1 player".into()
    } else {
        format!("{n} players")
    }
}

fn groups_word(n: usize) -> String {
    if n == 1 {
        "1 group".into()
    } else {
        format!("{n} groups")
    }
}

/// Every rule of section A that a whole layout breaks (`total` players in
/// the tournament): what a season carried over from records is told
/// (ARB-R77).
pub fn section_a_violations(
    divisions: &[Vec<Vec<PlayerId>>],
    total: usize,
    rules: &SunjangRules,
) -> Vec<Explanation> {
    violations(divisions, &vec![true; divisions.len()], total, rules)
}

/// Every rule of section A that `divisions` breaks, on the divisions that
/// `changed` marks and their relation to the division above.
fn violations(
    divisions: &[Vec<Vec<PlayerId>>],
    changed: &[bool],
    total: usize,
    rules: &SunjangRules,
) -> Vec<Explanation> {
    let mut out = Vec::new();
    let size = |d: usize| divisions[d].iter().map(Vec::len).sum::<usize>();
    let growth = rules.growth_factor as usize;
    for d in 0..divisions.len() {
        let here = changed.get(d).copied().unwrap_or(true);
        let above = d > 0 && changed.get(d - 1).copied().unwrap_or(true);
        if !here && !above {
            continue;
        }
        let l = division_letter(d as Division);
        let n = size(d);
        let gs = &divisions[d];
        if here {
            if d == 0 {
                let single = total < rules.single_group_below as usize;
                let want = if single {
                    1
                } else {
                    rules.main_division_groups as usize
                };
                if gs.len() != want {
                    out.push(if single {
                        v(
                            "Sunjang A.i.1; footnote 1",
                            format!(
                                "footnote 1: division A would have {}; with fewer than {} players in the tournament ({total}) the main division has one group",
                                groups_word(gs.len()),
                                rules.single_group_below
                            ),
                        )
                    } else {
                        v(
                            "Sunjang A.i.1",
                            format!(
                                "A.i.1: division A would have {}; there shall be {want} groups on the main division ({total} players play, footnote 1 is for fewer than {})",
                                groups_word(gs.len()),
                                rules.single_group_below
                            ),
                        )
                    });
                }
            }
            if n < rules.min_division_size as usize {
                out.push(v(
                    "Sunjang A.i.2",
                    format!(
                        "A.i.2: division {l} would have {}; at least {}",
                        players(n),
                        rules.min_division_size
                    ),
                ));
            }
            let cap = rules.cap(d as Division);
            if n as u64 > cap {
                out.push(v(
                    "Sunjang A.i.4",
                    format!(
                        "A.i.4: division {l} would have {}; at most {cap} (6×3^{})",
                        players(n),
                        d + 1
                    ),
                ));
            }
            for (k, g) in gs.iter().enumerate() {
                let id = gid(d, k, gs.len());
                if g.len() < rules.min_group_size as usize {
                    out.push(v(
                        "Sunjang A.i.3",
                        format!(
                            "A.i.3: group {id} would have {}; at least {}",
                            players(g.len()),
                            rules.min_group_size
                        ),
                    ));
                }
                if g.len() > rules.max_group_size() as usize {
                    out.push(v(
                        "Sunjang A.i.3; A.i.4",
                        format!(
                            "A.i.3: group {id} would have {}; at most {} (the ideal {} within a deviation of {}; A.i.4 precludes groups of {})",
                            players(g.len()),
                            rules.max_group_size(),
                            rules.ideal_group_size,
                            rules.deviation,
                            rules.max_group_size() + 1
                        ),
                    ));
                }
            }
            let (lo, hi) = (
                gs.iter().map(Vec::len).min().unwrap_or(0),
                gs.iter().map(Vec::len).max().unwrap_or(0),
            );
            if hi > lo + 1 {
                let sizes = gs
                    .iter()
                    .enumerate()
                    .map(|(k, g)| format!("{} {}", gid(d, k, gs.len()), g.len()))
                    .collect::<Vec<_>>()
                    .join(", ");
                out.push(v(
                    "Sunjang A.i.3; footnote 3",
                    format!(
                        "footnote 3: the groups of division {l} would differ by {} players ({sizes}); any two groups in the same division differ in size by no more than one player",
                        hi - lo
                    ),
                ));
            }
        }
        if d > 0 {
            let (la, na, ga) = (
                division_letter(d as Division - 1),
                size(d - 1),
                divisions[d - 1].len(),
            );
            if n > growth * na {
                out.push(v(
                    "Sunjang A.i.2",
                    format!(
                        "A.i.2: division {l} would have {}, more than thrice the {na} of division {la} (at most {})",
                        players(n),
                        growth * na
                    ),
                ));
            }
            if gs.len() > growth * ga {
                out.push(v(
                    "Sunjang A.i.3",
                    format!(
                        "A.i.3: division {l} would have {}, more than thrice the {} of division {la} (at most {})",
                        groups_word(gs.len()),
                        groups_word(ga),
                        growth * ga
                    ),
                ));
            }
        }
    }
    out
}
