//! Footnote 6 (SJ-R13): "Two players within 10 rating points difference
//! may be considered to be in a virtual tie" — pairwise, not chained
//! (ARB-R51). The edges: exactly 10 apart tie, 11 apart do not; 1916, 1908
//! and 1900 are not one tie (1916 and 1908 tie, 1900 ranks below both).
//! Then the ranking stays a strict weak order (transitive) for any ratings:
//! a property test over random ratings and live matches.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_engine::sunjang::ranking::{CRITERIA, RankingData, SECONDARY, Tiebreaks};
use arbiter_engine::sunjang::{PlayerId, PlayerInfo, Rank, SunjangRules};
use proptest::prelude::*;

fn player(name: &str, rating: i32) -> PlayerInfo {
    PlayerInfo {
        name: name.into(),
        rank: Rank::Kyu(5),
        provisional: false,
        rating,
        corr_rank: None,
        corr_rating: None,
    }
}

/// The D.2 order of players 1..=n (same rank), with live matches
/// `(winner, loser)` by player number.
fn order(ratings: &[i32], live: &[(u32, u32)]) -> (Vec<u32>, Vec<usize>, Vec<String>) {
    let infos: Vec<PlayerInfo> = ratings
        .iter()
        .enumerate()
        .map(|(i, &r)| player(&format!("P{}", i + 1), r))
        .collect();
    let rules = SunjangRules::default();
    let tb = Tiebreaks {
        gave_way: vec![],
        live_matches: live
            .iter()
            .map(|&(w, l)| (PlayerId(w), PlayerId(l)))
            .collect(),
    };
    let data = RankingData {
        info: &infos,
        performance: &[],
        games: &[],
        tiebreaks: &tb,
        rules: &rules,
    };
    let ids: Vec<PlayerId> = (1..=ratings.len() as u32).map(PlayerId).collect();
    let r = data.secondary_cascade().rank(&ids);
    let splits = r
        .order
        .iter()
        .skip(1)
        .map(|p| {
            r.split_above(*p).map_or("tie".to_string(), |s| {
                CRITERIA[s.step + SECONDARY].1.to_string()
            })
        })
        .collect();
    (r.order.iter().map(|p| p.0).collect(), r.places, splits)
}

#[test]
fn exactly_ten_points_apart_is_a_virtual_tie() {
    // P1 1510, P2 1500: tied on rating, P2's live win decides.
    let (o, _, s) = order(&[1510, 1500], &[(2, 1)]);
    assert_eq!(o, vec![2, 1]);
    assert_eq!(s, vec!["a live Sunjang match"]);
}

#[test]
fn eleven_points_apart_is_not() {
    // P1 1511, P2 1500: the rating separates them, the live match is not read.
    let (o, _, s) = order(&[1511, 1500], &[(2, 1)]);
    assert_eq!(o, vec![1, 2]);
    assert_eq!(s, vec!["overall rating"]);
}

#[test]
fn a_virtual_tie_does_not_chain() {
    // 1916, 1908, 1900: 1916-1908 and 1908-1900 are within 10, 1916-1900
    // is not. The chain made them one tie, and 1900's two live wins put him
    // first, above a player 16 points higher (ARB-R51 refuses that). Now
    // 1916 opens a tie with 1908; 1900 ranks below both by rating; the
    // live match orders 1908 above 1916 within their tie.
    let (o, places, s) = order(&[1916, 1908, 1900], &[(3, 1), (3, 2), (2, 1)]);
    assert_eq!(o, vec![2, 1, 3]);
    assert_eq!(places, vec![1, 2, 3]);
    assert_eq!(s, vec!["a live Sunjang match", "overall rating"]);
}

#[test]
fn the_explanation_names_the_rating_and_the_ruling() {
    let infos = vec![player("Hi", 1916), player("Mid", 1908), player("Lo", 1900)];
    let rules = SunjangRules::default();
    let tb = Tiebreaks {
        gave_way: vec![],
        live_matches: vec![(PlayerId(3), PlayerId(1))],
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
    let s = r.split_above(PlayerId(3)).expect("split above Lo");
    let names = |p: PlayerId| infos[p.index()].name.clone();
    let e = data.explain_split(s, SECONDARY, &names);
    // Mid (1908) is within 10 of Lo (1900), but Lo is more than 10 below
    // Hi (1916), whose tie Mid is in.
    assert!(
        e.text.starts_with("Mid above Lo: D.2 overall rating, 1908 to 1900 (within 10 points of each other, but Lo is more than 10 below Hi's 1916, who opens the virtual tie"),
        "{}",
        e.text
    );
    assert!(e.text.contains("overall rating"), "{}", e.text);
    assert!(e.rulings.contains(&"SJ-R13"), "{:?}", e.rulings);
    assert!(e.rulings.contains(&"ARB-R51"), "{:?}", e.rulings);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Whatever the ratings, the order is a strict weak order whose ties
    /// (players sharing a place) are pairwise within 10 points, and no one
    /// ranks below a player more than 10 points lower.
    #[test]
    fn ties_are_pairwise_and_never_invert_more_than_ten(
        ratings in proptest::collection::vec(1880i32..1940, 2..9),
        live in proptest::collection::vec((1u32..9, 1u32..9), 0..8),
    ) {
        let n = ratings.len() as u32;
        let live: Vec<(u32, u32)> = live
            .into_iter()
            .filter(|&(w, l)| w != l && w <= n && l <= n)
            .collect();
        let (o, places, _) = order(&ratings, &live);
        let r = |p: u32| ratings[(p - 1) as usize];
        for i in 0..o.len() {
            for j in i + 1..o.len() {
                // Above by more than 10 points lower: never.
                prop_assert!(r(o[j]) - r(o[i]) <= 10, "{o:?} {ratings:?}");
                if places[i] == places[j] {
                    prop_assert!((r(o[i]) - r(o[j])).abs() <= 10);
                }
            }
        }
        // Places are a weak order: non-decreasing, shared only by runs.
        prop_assert!(places.windows(2).all(|w| w[0] <= w[1]));
    }
}
