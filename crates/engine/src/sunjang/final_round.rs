//! The Final Round: three players of division A, "where the one to win two
//! games is crowned champion", with advantaged positions as the tie
//! breaker (footnote 7).
//!
//! - [`qualify`]: "Players from the A division qualify to this final round
//!   as if they were direct promotions": the two group leaders, then the
//!   defending champion if available (footnote 8), else another player by
//!   section B who has at least the champion's gamepoints or finished 4th
//!   or better in the merged ranking of A (SJ-R7). Advantaged positions:
//!   the champion alone if he is a group leader, otherwise both leaders.
//!   Withdrawals are replaced by the same rules; with nobody eligible the
//!   title is void (ARB-R40 for what the document leaves open).
//! - [`final_state`]: the three-game round robin; two wins make the
//!   champion; otherwise the advantage point decides, and a tie left
//!   between two players is played off in one deciding game (SJ-R8;
//!   ARB-R41 for jigo and forfeits).

use crate::explain::Explanation;
use crate::explain::ordinal;

use super::group::{DivisionRanking, Outcome, gamepoints_text, points, round_robin};
use super::ranking::Performance;
use super::{HalfPoints, PlayerId, PlayerInfo, SunjangRules, format_points};

/// Who qualifies for the final when the document leaves it open
/// : a single group in A, more than two groups, a
/// withdrawn leader's replacement and its advantage, the champion's
/// gamepoints as the bar, demoted players, too few players.
pub const RULING_QUALIFICATION: &str = "ARB-R40";
/// The games of the final: jigo, forfeits, ties the advantage leaves
/// .
pub const RULING_GAMES: &str = "ARB-R41";

const CLAUSE: &str = "Sunjang Final Round";

/// What the qualification reads.
#[derive(Debug, Clone, Copy)]
pub struct FinalInput<'a> {
    /// Division A's merged ranking (SJ-R5) with its group leaders
    /// ([`super::group::division_ranking`] of division 0).
    pub division: &'a DivisionRanking,
    /// The season's performances, indexed by [`PlayerId::index`]
    /// ([`super::group::performances`]): the gamepoints compared with the
    /// champion's.
    pub performance: &'a [Option<Performance>],
    /// The defending champion (last season's), if there is one.
    pub champion: Option<PlayerId>,
    /// How many players division A demotes this season: the last this many
    /// of the merged ranking (group leaders aside, B.5) have "fallen below
    /// demotion line".
    pub demotions: usize,
    /// Players who withdrew from the tournament or from the final round, or
    /// are not willing to play it.
    pub unavailable: &'a [PlayerId],
    /// Names, indexed by [`PlayerId::index`].
    pub info: &'a [PlayerInfo],
    pub rules: &'a SunjangRules,
}

/// The three finalists and their advantaged positions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinalQualification {
    /// The three (fewer when void), in the order of division A's merged
    /// ranking.
    pub players: Vec<PlayerId>,
    /// Their names, in the same order.
    pub names: Vec<String>,
    /// Who has an advantaged position (1 extra gamepoint, footnote 7).
    pub advantaged: Vec<PlayerId>,
    /// Why each qualified, who was passed over and why, and the
    /// advantaged positions.
    pub explanations: Vec<Explanation>,
    /// A place that rests on a tie no criterion of section D separates
    /// (a shared group lead, or players tied where the third place is
    /// drawn): the organizer settles it (D.2's last criteria) before the
    /// final.
    pub pending: Option<Explanation>,
    /// The title is declared void for the year: no eligible player to
    /// complete the three.
    pub void: Option<Explanation>,
}

impl FinalQualification {
    fn name(&self, p: PlayerId) -> String {
        self.players
            .iter()
            .position(|&x| x == p)
            .and_then(|i| self.names.get(i).cloned())
            .unwrap_or_else(|| p.to_string())
    }
}

fn slot(p: PlayerId) -> Option<usize> {
    p.0.checked_sub(1).map(|i| i as usize)
}

/// At most three of a list of players passed over, then how many more.
fn passed_list(passed: &[String]) -> String {
    const SHOWN: usize = 3;
    if passed.len() <= SHOWN {
        passed.join("; ")
    } else {
        format!(
            "{}; and {} more",
            passed[..SHOWN].join("; "),
            passed.len() - SHOWN
        )
    }
}

fn join(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The qualification for the final round (SJ-R7; ARB-R40):
///
/// 1. The automatic qualifiers, "as if they were direct promotions": the
///    two group leaders of A. With a single group in A (footnote 1), its top
///    two (B.1's two direct promotions); with more than two groups, the two
///    best leaders of the merged ranking.
/// 2. The remaining place (or places, when an automatic qualifier is
///    unavailable: "Withdrawals from the final round are handled by drawing
///    another player, following the same rules") go first to the defending
///    champion if available: he played in A this season, did not fall
///    below the demotion line and did not withdraw (footnote 8). Then to the
///    next players of the merged ranking (section B's order, SJ-R5) who are
///    available, not demoted (B.5: promotions and demotions do not overlap)
///    and "either scored no fewer gamepoints than the defending champion, or
///    ended up in 4th place or better". The champion's gamepoints are the
///    bar whenever he played in A this season, available or not; without
///    them (no champion, or he did not play in A) only the place counts.
/// 3. Advantaged positions: "Should one of the two group leaders be the
///    defending champion, that player is given an advantaged position;
///    otherwise, both group leaders are given advantaged positions." A
///    player drawn in place of a withdrawn leader does not take his
///    advantage; if no automatic qualifier plays, the best finalist of the
///    merged ranking has the advantaged position, so that a three-way tie
///    can still be broken.
/// 4. Fewer than three players: "the title is declared void for the year".
pub fn qualify(input: &FinalInput<'_>) -> FinalQualification {
    let div = input.division;
    let order = &div.order;
    let name = |p: PlayerId| {
        slot(p)
            .and_then(|i| input.info.get(i))
            .map_or_else(|| p.to_string(), |i| i.name.clone())
    };
    let pos = |p: PlayerId| order.iter().position(|&x| x == p).unwrap_or(usize::MAX);
    let place = |p: PlayerId| div.place_of(p).unwrap_or(usize::MAX);
    let gamepoints = |p: PlayerId| {
        slot(p)
            .and_then(|i| input.performance.get(i).copied().flatten())
            .map(|x| x.gamepoints)
    };
    let group_of = |p: PlayerId| {
        slot(p)
            .and_then(|i| input.performance.get(i).copied().flatten())
            .map(|x| x.group.to_string())
    };
    let unavailable = |p: PlayerId| input.unavailable.contains(&p);
    let mut explanations = Vec::new();
    let mut pending: Option<Explanation> = None;

    // 1. The automatic qualifiers.
    let mut leaders = div.group_leaders.clone();
    leaders.sort_by_key(|&p| pos(p));
    let single = leaders.len() < 2;
    let mut auto: Vec<PlayerId> = leaders.iter().copied().take(2).collect();
    for &p in order {
        if auto.len() >= 2 {
            break;
        }
        if !auto.contains(&p) {
            auto.push(p);
        }
    }
    if !div.tied_leads.is_empty() {
        pending = Some(Explanation::new(
            "Sunjang D.2 Secondary Criteria",
            &[],
            format!(
                "the lead of {} is shared: the organizer settles it (forfeiture by the other players or a live Sunjang match) before the final",
                div.tied_leads
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    // Demoted: the last `demotions` of the merged ranking, group leaders
    // aside (B.5).
    let demoted: Vec<PlayerId> = order
        .iter()
        .rev()
        .filter(|p| !div.group_leaders.contains(p))
        .take(input.demotions)
        .copied()
        .collect();

    let mut finalists: Vec<PlayerId> = Vec::new();
    // The places to fill beyond the automatic qualifiers, in order: the
    // third place, then the place of each withdrawn qualifier.
    let mut slots: std::collections::VecDeque<String> =
        std::iter::once("the third place".to_string()).collect();
    for (k, &p) in auto.iter().enumerate() {
        let what = if single {
            if k == 0 {
                format!(
                    "{} leads {}, the single group of division A",
                    name(p),
                    group_of(p).unwrap_or_else(|| "A".into())
                )
            } else {
                format!(
                    "{} is 2nd of the single group of division A: with one group its top two qualify as the two group leaders would",
                    name(p)
                )
            }
        } else {
            format!(
                "{} leads {}",
                name(p),
                group_of(p).unwrap_or_else(|| "a group".into())
            )
        };
        let rulings: &[&'static str] = if single || div.group_leaders.len() > 2 {
            &[RULING_QUALIFICATION]
        } else {
            &[]
        };
        if unavailable(p) {
            slots.push_back(format!("the place of {}, who withdrew", name(p)));
            explanations.push(Explanation::new(
                CLAUSE,
                &[RULING_QUALIFICATION],
                format!(
                    "{what} but withdrew: another player is drawn in his place by the same rules"
                ),
            ));
        } else {
            finalists.push(p);
            explanations.push(Explanation::new(
                CLAUSE,
                rulings,
                format!("{what}: qualifies for the final"),
            ));
        }
    }

    // 2. The defending champion, then the next eligible players.
    let champion_played = input.champion.filter(|c| order.contains(c));
    let bar = champion_played.and_then(gamepoints);
    let mut champion_available = false;
    if let Some(c) = input.champion {
        if finalists.contains(&c) {
            champion_available = true;
        } else if finalists.len() < 3 {
            let why_not = if !order.contains(&c) {
                Some("did not play in division A this season")
            } else if unavailable(c) {
                Some("withdrew, and loses the possibility to defend the title")
            } else if demoted.contains(&c) {
                Some("fell below the demotion line")
            } else {
                None
            };
            match why_not {
                None => {
                    champion_available = true;
                    finalists.push(c);
                    let slot = slots.pop_front().unwrap_or_default();
                    explanations.push(Explanation::new(
                        CLAUSE,
                        &["SJ-R7"],
                        format!(
                            "{}, the defending champion, is available (played this season in division A, not below the demotion line) and takes {slot}",
                            name(c)
                        ),
                    ));
                }
                Some(why) => explanations.push(Explanation::new(
                    CLAUSE,
                    &["SJ-R7"],
                    format!(
                        "{}, the defending champion, is not available: he {why}",
                        name(c)
                    ),
                )),
            }
        }
    }
    let min_place = usize::try_from(input.rules.final_round_min_place).unwrap_or(usize::MAX);
    let eligible = |p: PlayerId| {
        place(p) <= min_place || bar.is_some_and(|b| gamepoints(p).is_some_and(|g| g >= b))
    };
    let champion_name = input.champion.map(name);
    let mut passed: Vec<String> = Vec::new();
    for &p in order {
        if finalists.len() >= 3 {
            break;
        }
        if finalists.contains(&p) || Some(p) == input.champion {
            continue;
        }
        let pl = place(p);
        let gp = gamepoints(p).map_or_else(|| "no gamepoints".into(), gamepoints_text);
        if unavailable(p) {
            passed.push(format!("{} ({}, withdrew)", name(p), ordinal(pl)));
            continue;
        }
        if demoted.contains(&p) {
            passed.push(format!(
                "{} ({}, below the demotion line: B.5)",
                name(p),
                ordinal(pl)
            ));
            continue;
        }
        if !eligible(p) {
            let than = match (bar, &champion_name) {
                (Some(b), Some(c)) => {
                    format!("fewer than {c}'s {} and ", format_points(b))
                }
                _ => String::new(),
            };
            passed.push(format!(
                "{} ({}, {gp}: {than}below {} place)",
                name(p),
                ordinal(pl),
                ordinal(min_place)
            ));
            continue;
        }
        let reason = if pl <= min_place {
            format!(
                "{} in the merged ranking of division A, {} or better",
                ordinal(pl),
                ordinal(min_place)
            )
        } else {
            format!(
                "{gp}, no fewer than the defending champion {}'s {}",
                champion_name.clone().unwrap_or_default(),
                bar.map_or_else(String::new, format_points)
            )
        };
        let passed_text = if passed.is_empty() {
            String::new()
        } else {
            format!(" (passed over: {})", passed_list(&passed))
        };
        let slot = slots.pop_front().unwrap_or_else(|| "a place".into());
        let why = if slot != "the third place" {
            ""
        } else {
            match input.champion {
                None => " (there is no defending champion)",
                Some(_) if !champion_available => " (the defending champion is not available)",
                Some(_) => " (the defending champion is a group leader)",
            }
        };
        explanations.push(Explanation::new(
            CLAUSE,
            &["SJ-R7"],
            format!("{} takes {slot}{why}: {reason}{passed_text}", name(p)),
        ));
        // The draw rests on a tie nothing separates?
        if let Some(t) = div.ranking.tie_of(p)
            && t.players.iter().any(|&o| {
                o != p && !finalists.contains(&o) && !unavailable(o) && !demoted.contains(&o)
            })
        {
            pending = Some(Explanation::new(
                "Sunjang D.2 Secondary Criteria",
                &["SJ-R7"],
                format!(
                    "{} is drawn ahead of {} only by the listing: they are tied on every criterion of section D; the organizer settles it (forfeiture by the other players or a live Sunjang match)",
                    name(p),
                    join(
                        &t.players
                            .iter()
                            .filter(|&&o| o != p && !finalists.contains(&o))
                            .map(|&o| name(o))
                            .collect::<Vec<_>>()
                    )
                ),
            ));
        }
        finalists.push(p);
        passed.clear();
    }

    finalists.sort_by_key(|&p| pos(p));
    let names: Vec<String> = finalists.iter().map(|&p| name(p)).collect();

    // 4. Too few players: void.
    if finalists.len() < 3 {
        let who = if names.is_empty() {
            "No player is".to_string()
        } else {
            format!(
                "Only {} {}",
                join(&names),
                if names.len() == 1 { "is" } else { "are" }
            )
        };
        let passed_text = if passed.is_empty() {
            String::new()
        } else {
            format!(" (not eligible: {})", passed_list(&passed))
        };
        let void = Explanation::new(
            CLAUSE,
            &["SJ-R7", RULING_QUALIFICATION],
            format!(
                "{who} eligible and willing to play the final{passed_text}: the title is declared void for the year"
            ),
        );
        return FinalQualification {
            players: finalists,
            names,
            advantaged: Vec::new(),
            explanations,
            pending,
            void: Some(void),
        };
    }

    // 3. Advantaged positions.
    let auto_in: Vec<PlayerId> = auto
        .iter()
        .copied()
        .filter(|p| finalists.contains(p))
        .collect();
    let (advantaged, text, rulings): (Vec<PlayerId>, String, &[&'static str]) = match input
        .champion
        .filter(|c| auto_in.contains(c))
    {
        Some(c) => (
            vec![c],
            format!(
                "{} is a group leader and the defending champion: he alone has an advantaged position",
                name(c)
            ),
            &[],
        ),
        None => match auto_in.as_slice() {
            [a, b] => (
                vec![*a, *b],
                format!(
                    "neither group leader is the defending champion: both {} and {} have advantaged positions",
                    name(*a),
                    name(*b)
                ),
                if single { &[RULING_QUALIFICATION] } else { &[] },
            ),
            [a] => (
                vec![*a],
                format!(
                    "{} is the only group leader in the final: he alone has an advantaged position (a player drawn in place of a leader does not take his advantage)",
                    name(*a)
                ),
                &[RULING_QUALIFICATION],
            ),
            _ => {
                let best = finalists[0];
                (
                    vec![best],
                    format!(
                        "no group leader plays the final: {}, the best finalist of division A's merged ranking, has the advantaged position",
                        name(best)
                    ),
                    &[RULING_QUALIFICATION],
                )
            }
        },
    };
    explanations.push(Explanation::new(
        "Sunjang Final Round; footnote 7",
        rulings,
        text,
    ));
    FinalQualification {
        players: finalists,
        names,
        advantaged,
        explanations,
        pending,
        void: None,
    }
}

/// A game of the final: the round-robin games, then any deciding game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FinalGame {
    pub black: PlayerId,
    pub white: PlayerId,
    /// `None`: not played yet.
    pub outcome: Option<Outcome>,
}

/// Where the final stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FinalState {
    /// Round-robin games remain: (black, white) of each, by round.
    Playing {
        next: Vec<(PlayerId, PlayerId)>,
    },
    Champion {
        player: PlayerId,
        explanation: Explanation,
    },
    /// The round robin left two players tied: one deciding game (SJ-R8).
    Playoff {
        players: [PlayerId; 2],
        explanation: Explanation,
    },
    Void {
        explanation: Explanation,
    },
}

/// The state of the final (SJ-R8; ARB-R41):
///
/// - the three finalists play a round robin ([`round_robin`] of
///   `q.players`: each has black once), one game per pair: the first game
///   with a result between two finalists is their round-robin game;
/// - a player who wins two games is champion, as soon as he has them (a
///   win by the opponent's forfeit counts);
/// - otherwise, once the three games are played, each player scores his
///   gamepoints (SJ-R4: a win 1, a jigo ½; a forfeit is a loss, a game
///   both forfeit a loss for both) plus 1 extra gamepoint (a win's worth,
///   `win_points`) for an advantaged position (footnote 7); the highest
///   score is champion;
/// - two players tied at the top play one deciding game (SJ-R8, whether or
///   not both are advantaged): the later games between them; a jigo there
///   decides nothing and the game is replayed, a forfeit loses it, a game
///   both forfeit voids the title (neither is willing to play);
/// - three tied at the top (possible only when a game was forfeited by
///   both): division A's merged ranking decides (the order of
///   `q.players`).
///
/// Games not between two finalists are left out.
pub fn final_state(
    q: &FinalQualification,
    games: &[FinalGame],
    rules: &SunjangRules,
) -> FinalState {
    if let Some(v) = &q.void {
        return FinalState::Void {
            explanation: v.clone(),
        };
    }
    if q.players.len() != 3 {
        return FinalState::Void {
            explanation: Explanation::new(
                CLAUSE,
                &[RULING_GAMES],
                format!(
                    "the final is a 3 player match, and {} qualified: the title is declared void",
                    q.players.len()
                ),
            ),
        };
    }
    let name = |p: PlayerId| q.name(p);
    let pairings = round_robin(&q.players);
    // The round-robin game of each pairing, and the later games, in the
    // order they are listed (played).
    let mut rr: Vec<Option<FinalGame>> = vec![None; pairings.len()];
    let mut played: Vec<FinalGame> = Vec::new();
    let mut later: Vec<FinalGame> = Vec::new();
    for g in games {
        if g.outcome.is_none() || g.black == g.white {
            continue;
        }
        let Some(i) = pairings.iter().position(|p| p.is_between(g.black, g.white)) else {
            continue;
        };
        match rr[i] {
            None => {
                rr[i] = Some(*g);
                played.push(*g);
            }
            Some(_) => later.push(*g),
        }
    }
    let idx = |p: PlayerId| q.players.iter().position(|&x| x == p).unwrap_or(0);
    let mut wins = [0u32; 3];
    let mut score = [0 as HalfPoints; 3];
    let mut beaten: [Vec<PlayerId>; 3] = Default::default();
    for g in &played {
        let Some(o) = g.outcome else { continue };
        let pts = points(o, rules);
        let sides = [g.black, g.white];
        for s in 0..2 {
            let i = idx(sides[s]);
            score[i] += pts[s];
            let won = matches!(
                (o, s),
                (Outcome::BlackWins | Outcome::WhiteForfeits, 0)
                    | (Outcome::WhiteWins | Outcome::BlackForfeits, 1)
            );
            if won {
                wins[i] += 1;
                beaten[i].push(sides[1 - s]);
            }
        }
    }
    if let Some(i) = (0..3).find(|&i| wins[i] >= 2) {
        let p = q.players[i];
        return FinalState::Champion {
            player: p,
            explanation: Explanation::new(
                CLAUSE,
                &["SJ-R8"],
                format!(
                    "{} won two games ({}): he is crowned champion",
                    name(p),
                    join(&beaten[i].iter().map(|&x| name(x)).collect::<Vec<_>>())
                ),
            ),
        };
    }
    if rr.iter().any(Option::is_none) {
        return FinalState::Playing {
            next: pairings
                .iter()
                .zip(&rr)
                .filter(|(_, g)| g.is_none())
                .map(|(p, _)| (p.black, p.white))
                .collect(),
        };
    }
    let advantage = rules.win_points;
    let total: Vec<HalfPoints> = (0..3)
        .map(|i| {
            score[i]
                + if q.advantaged.contains(&q.players[i]) {
                    advantage
                } else {
                    0
                }
        })
        .collect();
    let figures = (0..3)
        .map(|i| {
            let adv = if q.advantaged.contains(&q.players[i]) {
                format!(" ({} + 1 advantage)", format_points(score[i]))
            } else {
                String::new()
            };
            format!("{} {}{adv}", name(q.players[i]), format_points(total[i]))
        })
        .collect::<Vec<_>>()
        .join(", ");
    let best = total.iter().copied().max().unwrap_or(0);
    let top: Vec<usize> = (0..3).filter(|&i| total[i] == best).collect();
    let how = if wins == [1, 1, 1] {
        "each finalist won one game"
    } else {
        "no one won two games"
    };
    let jigo_or_forfeit = rr
        .iter()
        .flatten()
        .any(|g| matches!(g.outcome, Some(o) if o == Outcome::Jigo || o.is_forfeit()));
    let mut rulings: Vec<&'static str> = vec!["SJ-R8"];
    if jigo_or_forfeit {
        rulings.push(RULING_GAMES);
    }
    match top.as_slice() {
        [i] => {
            let p = q.players[*i];
            FinalState::Champion {
                player: p,
                explanation: Explanation {
                    clause: "Sunjang Final Round; footnote 7",
                    rulings,
                    text: format!(
                        "{how}; with 1 extra gamepoint for an advantaged position: {figures}. {} is champion",
                        name(p)
                    ),
                },
            }
        }
        [i, j] => {
            let (a, b) = (q.players[*i], q.players[*j]);
            let both_adv = q.advantaged.contains(&a) && q.advantaged.contains(&b);
            if !both_adv && !rulings.contains(&RULING_GAMES) {
                rulings.push(RULING_GAMES);
            }
            let mut replays = 0;
            for g in later
                .iter()
                .filter(|g| (g.black == a && g.white == b) || (g.black == b && g.white == a))
            {
                let Some(o) = g.outcome else { continue };
                let winner = match o {
                    Outcome::BlackWins | Outcome::WhiteForfeits => Some(g.black),
                    Outcome::WhiteWins | Outcome::BlackForfeits => Some(g.white),
                    Outcome::Jigo => None,
                    Outcome::BothForfeit => {
                        return FinalState::Void {
                            explanation: Explanation::new(
                                CLAUSE,
                                &["SJ-R8", RULING_GAMES],
                                format!(
                                    "{} and {} both forfeited the deciding game: no one is willing to play it, the title is declared void for the year",
                                    name(a),
                                    name(b)
                                ),
                            ),
                        };
                    }
                };
                match winner {
                    Some(w) => {
                        let by = if o.is_forfeit() { " by forfeit" } else { "" };
                        let mut rulings = vec!["SJ-R8"];
                        if o.is_forfeit() || replays > 0 {
                            rulings.push(RULING_GAMES);
                        }
                        return FinalState::Champion {
                            player: w,
                            explanation: Explanation {
                                clause: CLAUSE,
                                rulings,
                                text: format!(
                                    "{} and {} were tied after the round robin ({figures}); {} won the deciding game{by}: he is champion",
                                    name(a),
                                    name(b),
                                    name(w)
                                ),
                            },
                        };
                    }
                    None => replays += 1,
                }
            }
            let replay = if replays > 0 {
                " (the deciding game ended in jigo and is replayed)"
            } else {
                ""
            };
            let adv = if both_adv {
                "both advantaged"
            } else {
                "tied at the top"
            };
            FinalState::Playoff {
                players: [a, b],
                explanation: Explanation {
                    clause: CLAUSE,
                    rulings,
                    text: format!(
                        "{how}; with 1 extra gamepoint for an advantaged position: {figures}. {} and {} are {adv}: one deciding game{replay}",
                        name(a),
                        name(b)
                    ),
                },
            }
        }
        _ => {
            let p = q.players[0];
            if !rulings.contains(&RULING_GAMES) {
                rulings.push(RULING_GAMES);
            }
            FinalState::Champion {
                player: p,
                explanation: Explanation {
                    clause: CLAUSE,
                    rulings,
                    text: format!(
                        "{how}; with 1 extra gamepoint for an advantaged position: {figures}, a tie of three: division A's merged ranking decides, {} is champion",
                        name(p)
                    ),
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cascade::Ranking;
    use crate::sunjang::GroupId;

    fn q(advantaged: &[u32]) -> FinalQualification {
        FinalQualification {
            players: vec![PlayerId(1), PlayerId(2), PlayerId(3)],
            names: vec!["Ann".into(), "Bob".into(), "Cat".into()],
            advantaged: advantaged.iter().map(|&i| PlayerId(i)).collect(),
            explanations: Vec::new(),
            pending: None,
            void: None,
        }
    }

    fn game(b: u32, w: u32, o: Outcome) -> FinalGame {
        FinalGame {
            black: PlayerId(b),
            white: PlayerId(w),
            outcome: Some(o),
        }
    }

    #[test]
    fn both_forfeiting_the_deciding_game_voids_the_title() {
        let rules = SunjangRules::default();
        // A cycle: Ann and Bob advantaged, tied at 2.
        let mut games = vec![
            game(1, 2, Outcome::BlackWins),
            game(2, 3, Outcome::BlackWins),
            game(3, 1, Outcome::BlackWins),
        ];
        assert!(matches!(
            final_state(&q(&[1, 2]), &games, &rules),
            FinalState::Playoff { .. }
        ));
        // A game between the others after the round robin is not a
        // deciding game.
        games.push(game(1, 3, Outcome::BlackWins));
        assert!(matches!(
            final_state(&q(&[1, 2]), &games, &rules),
            FinalState::Playoff { .. }
        ));
        games.push(game(2, 1, Outcome::BothForfeit));
        let FinalState::Void { explanation } = final_state(&q(&[1, 2]), &games, &rules) else {
            panic!("void expected");
        };
        assert!(
            explanation
                .text
                .contains("both forfeited the deciding game")
        );
    }

    #[test]
    fn a_tie_of_three_goes_to_the_merged_ranking() {
        let rules = SunjangRules::default();
        // Bob and Cat beat Ann; Bob and Cat both forfeit: 1, 1 and Ann's
        // advantage 1.
        let games = vec![
            game(2, 1, Outcome::BlackWins),
            game(3, 1, Outcome::BlackWins),
            game(2, 3, Outcome::BothForfeit),
        ];
        let FinalState::Champion {
            player,
            explanation,
        } = final_state(&q(&[1]), &games, &rules)
        else {
            panic!("a champion expected");
        };
        assert_eq!(player, PlayerId(1));
        assert!(explanation.text.contains("a tie of three"), "{explanation}");
    }

    fn division(order: &[u32], leaders: &[u32]) -> DivisionRanking {
        let order: Vec<PlayerId> = order.iter().map(|&i| PlayerId(i)).collect();
        DivisionRanking {
            division: 0,
            order: order.clone(),
            group_leaders: leaders.iter().map(|&i| PlayerId(i)).collect(),
            tied_leads: Vec::new(),
            ranking: Ranking {
                places: (1..=order.len()).collect(),
                order,
                splits: Vec::new(),
                unresolved: Vec::new(),
            },
            complete: true,
            explanations: Vec::new(),
            leader_explanations: Vec::new(),
        }
    }

    #[test]
    fn without_a_leader_in_the_final_the_best_finalist_is_advantaged() {
        let rules = SunjangRules::default();
        let div = division(&[1, 2, 3, 4, 5], &[1, 2]);
        let perf: Vec<Option<Performance>> = (0..5)
            .map(|i| {
                Some(Performance {
                    gamepoints: 8 - 2 * i,
                    sodos: 0,
                    group: GroupId::of(0, 1 + i % 2, 2),
                })
            })
            .collect();
        let unavailable = [PlayerId(1), PlayerId(2)];
        let q = qualify(&FinalInput {
            division: &div,
            performance: &perf,
            champion: None,
            demotions: 0,
            unavailable: &unavailable,
            info: &[],
            rules: &rules,
        });
        // Only 3rd and 4th are "4th place or better": void.
        assert!(q.void.is_some());
        assert_eq!(q.players, vec![PlayerId(3), PlayerId(4)]);
        let q = qualify(&FinalInput {
            unavailable: &unavailable[..1],
            ..FinalInput {
                division: &div,
                performance: &perf,
                champion: Some(PlayerId(5)),
                demotions: 0,
                unavailable: &[],
                info: &[],
                rules: &rules,
            }
        });
        // The champion, 5th, is available and takes a place.
        assert_eq!(q.players, vec![PlayerId(2), PlayerId(3), PlayerId(5)]);
        assert_eq!(q.advantaged, vec![PlayerId(2)]);
        // Both leaders out, champion in: the best finalist is advantaged.
        let q = qualify(&FinalInput {
            division: &div,
            performance: &perf,
            champion: Some(PlayerId(5)),
            demotions: 0,
            unavailable: &unavailable,
            info: &[],
            rules: &rules,
        });
        assert_eq!(q.players, vec![PlayerId(3), PlayerId(4), PlayerId(5)]);
        assert_eq!(q.advantaged, vec![PlayerId(3)]);
        assert!(q.void.is_none());
    }

    #[test]
    fn an_empty_division_voids_the_title() {
        let rules = SunjangRules::default();
        let div = division(&[], &[]);
        let q = qualify(&FinalInput {
            division: &div,
            performance: &[],
            champion: Some(PlayerId(1)),
            demotions: 0,
            unavailable: &[],
            info: &[],
            rules: &rules,
        });
        assert!(q.void.is_some());
        assert!(matches!(
            final_state(&q, &[], &rules),
            FinalState::Void { .. }
        ));
    }
}
