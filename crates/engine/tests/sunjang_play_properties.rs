//! Property tests of Sunjang group play and the final round
//! (sunjang-league.txt, Definitions: Group, D, Final Round; SJ-R4, SJ-R5,
//! SJ-R8, SJ-R12, ARB-R38..R43):
//!
//! - a round robin of 2 to 20 players (any distinct ids) pairs every pair
//!   exactly once, each player at most once a round, in `n - 1` rounds (`n`
//!   even) or `n` (`n` odd); each player has black `floor((n-1)/2)` or
//!   `ceil((n-1)/2)` times, never the same colour three games in a row,
//!   and with `n` odd strictly alternating colours (ARB-R38);
//! - a group table is a permutation of the group, its places are those of
//!   its ranking, and it does not depend on the order the games are listed
//!   in; its rows agree with `performances`;
//! - the gamepoints of a complete group add up to (n choose 2) × a win's
//!   points, less a win's points for every game both players forfeited
//!   (SJ-R4, ARB-R39);
//! - SODOS never exceeds the gamepoints of the other players of the group
//!   (SJ-R12);
//! - the merged ranking of a division is a permutation of its players, with
//!   one leader from each group (SJ-R5);
//! - a final of three decided games without jigo or forfeit ends with a
//!   champion, or with a deciding game between the two advantaged players
//!   (SJ-R8).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_engine::model::PlayerId;
use arbiter_engine::sunjang::final_round::{
    FinalGame, FinalQualification, FinalState, final_state,
};
use arbiter_engine::sunjang::group::{
    GroupGame, GroupInput, Outcome, division_ranking, group_table, performances, points,
    round_robin,
};
use arbiter_engine::sunjang::ranking::{RankingData, Tiebreaks};
use arbiter_engine::sunjang::{GroupId, PlayerInfo, Rank, SunjangRules};
use proptest::prelude::*;

const OUTCOMES: [Outcome; 6] = [
    Outcome::BlackWins,
    Outcome::WhiteWins,
    Outcome::Jigo,
    Outcome::BlackForfeits,
    Outcome::WhiteForfeits,
    Outcome::BothForfeit,
];

fn infos(n: usize, ranks: &[u8], ratings: &[i32]) -> Vec<PlayerInfo> {
    (0..n)
        .map(|i| PlayerInfo {
            name: format!("Player {}", i + 1),
            rank: Rank::Kyu(1 + ranks.get(i).copied().unwrap_or(0) % 3),
            provisional: false,
            rating: 1500 + ratings.get(i).copied().unwrap_or(0),
            corr_rank: None,
            corr_rating: None,
        })
        .collect()
}

fn group_id(number: u32) -> GroupId {
    GroupId::new(0, number)
}

/// The games of a group's round robin, with results from `picks` (an index
/// into `OUTCOMES`, or beyond it for a game not played).
fn games(players: &[PlayerId], picks: &[usize]) -> Vec<GroupGame> {
    round_robin(players)
        .into_iter()
        .enumerate()
        .map(|(i, pairing)| GroupGame {
            pairing,
            outcome: picks.get(i).and_then(|&k| OUTCOMES.get(k).copied()),
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn round_robins_pair_everyone_once_with_balanced_black(
        n in 2usize..=20,
        offset in 1u32..1000,
        stride in 1u32..7,
    ) {
        let players: Vec<PlayerId> = (0..n as u32).map(|i| PlayerId(offset + i * stride)).collect();
        let rr = round_robin(&players);
        prop_assert_eq!(rr.len(), n * (n - 1) / 2);
        let rounds = if n % 2 == 0 { n - 1 } else { n };
        prop_assert_eq!(rr.iter().map(|p| p.round as usize).max(), Some(rounds));
        for r in 1..=rounds as u32 {
            let mut seen = Vec::new();
            for p in rr.iter().filter(|p| p.round == r) {
                prop_assert!(!seen.contains(&p.black) && !seen.contains(&p.white));
                seen.push(p.black);
                seen.push(p.white);
            }
            prop_assert_eq!(seen.len(), n / 2 * 2);
        }
        for (i, &a) in players.iter().enumerate() {
            for &b in &players[i + 1..] {
                prop_assert_eq!(rr.iter().filter(|p| p.is_between(a, b)).count(), 1);
            }
            let blacks = rr.iter().filter(|p| p.black == a).count();
            prop_assert!(blacks == (n - 1) / 2 || blacks == n / 2, "{a}: {blacks} blacks of {}", n - 1);
            let colours: Vec<bool> = rr.iter().filter(|p| p.opponent(a).is_some()).map(|p| p.black == a).collect();
            prop_assert_eq!(colours.len(), n - 1);
            prop_assert!(!colours.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]), "{a}: {colours:?}");
            let repeats = colours.windows(2).filter(|w| w[0] == w[1]).count();
            if n % 2 == 1 {
                prop_assert_eq!(repeats, 0, "{}: {:?}", a, colours);
            } else {
                prop_assert!(repeats <= 1, "{a}: {colours:?}");
            }
        }
        // Rounds are in order.
        prop_assert!(rr.windows(2).all(|w| w[0].round <= w[1].round));
    }

    #[test]
    fn group_tables_are_permutations_independent_of_the_listing(
        n in 2usize..=9,
        picks in proptest::collection::vec(0usize..8, 36),
        ranks in proptest::collection::vec(any::<u8>(), 9),
        ratings in proptest::collection::vec(0i32..40, 9),
        order in Just((0..36usize).collect::<Vec<_>>()).prop_shuffle(),
        gave_way in proptest::option::of(0u32..9),
    ) {
        let players: Vec<PlayerId> = (1..=n as u32).map(PlayerId).collect();
        let info = infos(n, &ranks, &ratings);
        let rules = SunjangRules::default();
        let tiebreaks = Tiebreaks {
            gave_way: gave_way.map(|g| PlayerId(g + 1)).into_iter().collect(),
            live_matches: Vec::new(),
        };
        let data = RankingData { info: &info, performance: &[], games: &[], tiebreaks: &tiebreaks, rules: &rules };
        let gs = games(&players, &picks);
        let shuffled: Vec<GroupGame> = order.iter().filter_map(|&i| gs.get(i).copied()).collect();
        prop_assert_eq!(shuffled.len(), gs.len());
        let id = group_id(1);
        let table = group_table(id, &players, &gs, 20, &data);
        let again = group_table(id, &players, &shuffled, 20, &data);
        prop_assert_eq!(&table, &again);
        let mut listed: Vec<PlayerId> = table.rows.iter().map(|r| r.player).collect();
        listed.sort();
        prop_assert_eq!(&listed, &players);
        prop_assert_eq!(table.explanations.len(), n);
        for (i, r) in table.rows.iter().enumerate() {
            prop_assert_eq!(r.place, table.ranking.places[i]);
            prop_assert!(r.place <= i + 1);
            prop_assert_eq!(r.played, r.wins + r.jigo + r.losses);
            prop_assert!(r.forfeits <= r.losses);
            prop_assert_eq!(r.start, 20);
        }
        prop_assert!(table.rows.windows(2).all(|w| w[0].gamepoints >= w[1].gamepoints));
        let complete = gs.iter().all(|g| g.outcome.is_some());
        prop_assert_eq!(table.complete, complete);
        // The rows agree with the performances the planner reads.
        let perf = performances(n, &[(id, players.clone(), gs.clone())], &rules);
        for r in &table.rows {
            let p = perf[r.player.index()].expect("a performance");
            prop_assert_eq!((p.gamepoints, p.sodos, p.group), (r.gamepoints, r.sodos, id));
        }
        // SODOS counts at most all the other players' gamepoints.
        let total: u32 = table.rows.iter().map(|r| r.gamepoints).sum();
        for r in &table.rows {
            // In units of 1 / (2 × win) gamepoint: win units per half.
            prop_assert!(r.sodos <= u64::from(rules.win_points) * u64::from(total - r.gamepoints));
        }
    }

    #[test]
    fn a_complete_group_shares_its_games_points(
        n in 2usize..=10,
        picks in proptest::collection::vec(0usize..6, 45),
    ) {
        let players: Vec<PlayerId> = (1..=n as u32).map(PlayerId).collect();
        let rules = SunjangRules::default();
        let gs = games(&players, &picks);
        let perf = performances(n, &[(group_id(1), players.clone(), gs.clone())], &rules);
        let total: u32 = perf.iter().flatten().map(|p| p.gamepoints).sum();
        let both = gs.iter().filter(|g| g.outcome == Some(Outcome::BothForfeit)).count() as u32;
        let pairs = (n * (n - 1) / 2) as u32;
        prop_assert_eq!(total, pairs * rules.win_points - both * rules.win_points);
        for g in &gs {
            let [b, w] = points(g.outcome.expect("complete"), &rules);
            prop_assert!(b + w == rules.win_points || g.outcome == Some(Outcome::BothForfeit));
        }
    }

    #[test]
    fn the_merged_ranking_is_a_permutation_with_one_leader_a_group(
        sizes in proptest::collection::vec(2usize..=6, 1..=3),
        picks in proptest::collection::vec(0usize..7, 45),
        ranks in proptest::collection::vec(any::<u8>(), 18),
    ) {
        let mut groups: Vec<GroupInput> = Vec::new();
        let mut next = 1u32;
        for (g, &size) in sizes.iter().enumerate() {
            let players: Vec<PlayerId> = (next..next + size as u32).map(PlayerId).collect();
            next += size as u32;
            let gs = games(&players, &picks[g * 15..]);
            groups.push((group_id(g as u32 + 1), players, gs));
        }
        // A group of another division is left out.
        groups.push((GroupId::only(1), vec![PlayerId(next), PlayerId(next + 1)], Vec::new()));
        let info = infos(next as usize + 1, &ranks, &[]);
        let rules = SunjangRules::default();
        let tiebreaks = Tiebreaks::default();
        let data = RankingData { info: &info, performance: &[], games: &[], tiebreaks: &tiebreaks, rules: &rules };
        let d = division_ranking(0, &groups, &data);
        let mut all: Vec<PlayerId> = d.order.clone();
        all.sort();
        prop_assert_eq!(all, (1..next).map(PlayerId).collect::<Vec<_>>());
        prop_assert_eq!(d.explanations.len(), d.order.len());
        prop_assert_eq!(d.group_leaders.len(), sizes.len());
        for (k, l) in d.group_leaders.iter().enumerate() {
            prop_assert!(groups[k].1.contains(l));
        }
    }

    #[test]
    fn a_final_without_jigo_ends_with_a_champion_or_a_deciding_game(
        wins in proptest::collection::vec(any::<bool>(), 3),
        advantaged in 1usize..=2,
        order in Just(vec![0usize, 1, 2]).prop_shuffle(),
    ) {
        let players = vec![PlayerId(1), PlayerId(2), PlayerId(3)];
        let q = FinalQualification {
            players: players.clone(),
            names: vec!["A".into(), "B".into(), "C".into()],
            advantaged: players[..advantaged].to_vec(),
            explanations: Vec::new(),
            pending: None,
            void: None,
        };
        let rules = SunjangRules::default();
        let rr = round_robin(&players);
        let played: Vec<FinalGame> = order
            .iter()
            .map(|&i| FinalGame {
                black: rr[i].black,
                white: rr[i].white,
                outcome: Some(if wins[i] { Outcome::BlackWins } else { Outcome::WhiteWins }),
            })
            .collect();
        match final_state(&q, &played, &rules) {
            FinalState::Champion { player, .. } => {
                let won = played.iter().filter(|g| {
                    (g.black == player && g.outcome == Some(Outcome::BlackWins))
                        || (g.white == player && g.outcome == Some(Outcome::WhiteWins))
                }).count();
                prop_assert!(won == 2 || (won == 1 && advantaged == 1 && player == players[0]));
            }
            FinalState::Playoff { players: pair, .. } => {
                prop_assert_eq!(advantaged, 2);
                prop_assert_eq!(pair, [players[0], players[1]]);
            }
            other => prop_assert!(false, "{:?}", other),
        }
        // Two games in, the state is the third game or a champion.
        match final_state(&q, &played[..2], &rules) {
            FinalState::Playing { next } => prop_assert_eq!(next.len(), 1),
            FinalState::Champion { .. } => {}
            other => prop_assert!(false, "{:?}", other),
        }
    }
}
