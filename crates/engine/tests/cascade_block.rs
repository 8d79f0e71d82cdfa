//! Issue 16 §3: the block method of head-to-head (UEFA's) and the restart
//! (XMadn's XM-R4) agree whenever one step separates everyone; and the
//! block method's order does not depend on the order the players are
//! listed in when it separates them all.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_engine::cascade::{Block, Cascade, Criterion, Restart};
use proptest::prelude::*;

const MOST: usize = 8;

/// A head-to-head criterion: a player's value among a group is the sum of
/// `m[p][q]` over the others of the group.
fn h2h(m: Vec<Vec<i64>>) -> Criterion<'static, usize> {
    Criterion {
        label: "",
        name: "among",
        eval: Box::new(move |ps: &[usize]| {
            Some(
                ps.iter()
                    .map(|&p| ps.iter().filter(|&&q| q != p).map(|&q| m[p][q]).sum())
                    .collect(),
            )
        }),
        tolerance: 0,
    }
}

/// An overall criterion: one fixed value per player.
fn overall(v: Vec<i64>) -> Criterion<'static, usize> {
    Criterion {
        label: "",
        name: "overall",
        eval: Box::new(move |ps: &[usize]| Some(ps.iter().map(|&p| v[p]).collect())),
        tolerance: 0,
    }
}

fn matrix() -> impl Strategy<Value = Vec<Vec<i64>>> {
    prop::collection::vec(prop::collection::vec(0i64..4, MOST), MOST)
}

fn cascade(
    a: &[Vec<i64>],
    b: &[Vec<i64>],
    o: &[i64],
    restart: Option<Restart>,
    block: Option<Block>,
) -> Cascade<'static, usize> {
    Cascade {
        criteria: vec![h2h(a.to_vec()), h2h(b.to_vec()), overall(o.to_vec())],
        restart,
        block,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn block_and_restart_agree_when_one_step_separates_everyone(
        n in 2usize..=MOST,
        a in matrix(),
        b in matrix(),
        o in prop::collection::vec(-5i64..5, MOST),
    ) {
        let players: Vec<usize> = (0..n).collect();
        let restart = cascade(&a, &b, &o, Some(Restart { to: 0, min_tie: 3 }), None).rank(&players);
        let block = cascade(&a, &b, &o, None, Some(Block { from: 0, until: 2 })).rank(&players);
        let none = cascade(&a, &b, &o, None, None).rank(&players);
        // The first head-to-head criterion among all of them separates
        // everyone: every method gives its order.
        let first = (cascade(&a, &b, &o, None, None).criteria[0].eval)(&players).unwrap();
        let mut distinct = first.clone();
        distinct.sort_unstable();
        distinct.dedup();
        if distinct.len() == n {
            prop_assert_eq!(&restart.order, &block.order);
            prop_assert_eq!(&none.order, &block.order);
        }
        // Whatever happens, each is a permutation of the players.
        for r in [&restart, &block, &none] {
            let mut o = r.order.clone();
            o.sort_unstable();
            prop_assert_eq!(&o, &players);
        }
        // Listed in reverse, the block method gives the same order when it
        // leaves no tie.
        if block.unresolved.is_empty() {
            let reversed: Vec<usize> = players.iter().rev().copied().collect();
            let again = cascade(&a, &b, &o, None, Some(Block { from: 0, until: 2 })).rank(&reversed);
            prop_assert_eq!(&again.order, &block.order);
        }
    }
}
