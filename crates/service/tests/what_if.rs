//! What-if for an XMadn league and statistics across an installation:
//! a what-if stores nothing (the version is unchanged) and gives what
//! recording the same results for real gives (on a copy of the store built
//! the same way); the installation's statistics add up every ladder's and
//! match players by name.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter_engine::xmadn::LeagueRules;
use arbiter_engine::xmadn::league::{self, League};
use arbiter_service::installation::installation_stats;
use arbiter_service::views::stats_view;
use arbiter_service::xmadn::league_view;
use arbiter_service::{Context, Service};
use arbiter_store::EventStore;
use arbiter_store_sqlite::SqliteStore;
use common::{COMP, announce, create_with_members, day, finish_round, memory_db, service};

const LEAGUE: &str = "xl";

fn players() -> Vec<String> {
    ["Ames", "Baker", "Jean-Luc"]
        .iter()
        .map(|s| (*s).to_string())
        .collect()
}

/// A league created and rolled, the same in every store.
async fn league() -> (Service<SqliteStore>, common::Db) {
    let db = memory_db().await;
    let svc = service(db.store.clone());
    let ctx = Context::new("mod", day(0));
    svc.create_league(
        LEAGUE,
        "Test League",
        LeagueRules::default(),
        &players(),
        &ctx,
    )
    .await
    .unwrap();
    svc.league_roll(LEAGUE, &Context::new("mod", day(1)))
        .await
        .unwrap();
    (svc, db)
}

/// The next `n` playable games, each won 4-1 in 20:00 by its first player,
/// as `A-B` → `4-1@20:00` (found on a copy, so that each is playable after
/// the ones before).
fn results(l: &League, n: usize) -> Vec<(String, String)> {
    let mut copy = l.clone();
    let mut out = Vec::new();
    for _ in 0..n {
        let v = league_view(&copy, LEAGUE, 0);
        let g = v
            .drrs
            .iter()
            .flat_map(|d| &d.games)
            .find(|g| g.playable)
            .cloned()
            .expect("a playable game");
        let a = copy.find(&g.players[0]).unwrap();
        let b = copy.find(&g.players[1]).unwrap();
        for e in copy
            .decide(league::Command::RecordResult {
                game: None,
                players: [a, b],
                pawns: [4, 1],
                seconds: 1200,
                at: day(2),
            })
            .unwrap()
        {
            copy.apply(&e);
        }
        out.push((
            format!("{}-{}", g.players[0], g.players[1]),
            "4-1@20:00".to_string(),
        ));
    }
    out
}

#[tokio::test]
async fn an_xmadn_what_if_stores_nothing_and_matches_the_real_results() {
    let (svc, db) = league().await;
    let (copy_svc, _copy_db) = league().await;
    let (l, before) = svc.load_as::<League>(LEAGUE, None).await.unwrap();
    let wanted = results(&l, 3);
    let v = svc.what_if_any(LEAGUE, &wanted, day(2)).await.unwrap();
    let Some(v) = v.view::<League>().cloned() else {
        panic!("not a league what-if")
    };
    assert_eq!(v.format, "xmadn-league");
    assert_eq!(v.version, before);
    assert_eq!(v.results.len(), 3);
    assert!(v.results[0].contains("4 – 1"), "{:?}", v.results);
    // Nothing stored.
    assert_eq!(db.store.version(LEAGUE).await.unwrap(), before);
    assert_eq!(svc.load_as::<League>(LEAGUE, None).await.unwrap().1, before);
    // The same results recorded for real on the copy.
    for (key, _) in &wanted {
        // Split where both sides are players ("Jean-Luc-Ames").
        let (c, _) = copy_svc.load_as::<League>(LEAGUE, None).await.unwrap();
        let (a, b) = key
            .match_indices('-')
            .map(|(i, _)| (&key[..i], &key[i + 1..]))
            .find(|(a, b)| c.find(a).is_some() && c.find(b).is_some())
            .unwrap();
        let (c, _) = copy_svc.load_as::<League>(LEAGUE, None).await.unwrap();
        copy_svc
            .execute_as::<League>(
                LEAGUE,
                league::Command::RecordResult {
                    game: None,
                    players: [c.find(a).unwrap(), c.find(b).unwrap()],
                    pawns: [4, 1],
                    seconds: 1200,
                    at: day(2),
                },
                &Context::new("mod", day(2)),
            )
            .await
            .unwrap();
    }
    let (real, _) = copy_svc.load_as::<League>(LEAGUE, None).await.unwrap();
    let real = league_view(&real, LEAGUE, before);
    assert_eq!(
        serde_json::to_value(&v.league).unwrap(),
        serde_json::to_value(&real).unwrap()
    );
    assert!(!real.table_explanations.is_empty() || real.table.len() == 3);
}

#[tokio::test]
async fn xmadn_what_if_refusals() {
    let (svc, db) = league().await;
    let (_, before) = svc.load_as::<League>(LEAGUE, None).await.unwrap();
    for (k, v) in [
        ("Ames-Nobody", "4-1@20:00"),
        ("Ames-Baker", "4-1"),
        ("Ames-Baker", "x@20:00"),
        ("Ames", "4-1@20:00"),
    ] {
        let r = svc
            .what_if_any(LEAGUE, &[(k.to_string(), v.to_string())], day(2))
            .await;
        assert!(r.is_err(), "{k}={v}");
    }
    assert_eq!(db.store.version(LEAGUE).await.unwrap(), before);
}

#[tokio::test]
async fn installation_statistics_add_up_and_match_players_by_name() {
    let db = memory_db().await;
    let svc = service(db.store.clone());
    create_with_members(&svc, 6).await;
    announce(&svc, day(1)).await;
    finish_round(&svc, day(2)).await;
    let (ladder, v) = svc.load(COMP, None).await.unwrap();
    let one = stats_view(&ladder);
    assert!(!one.by_turn.is_empty(), "the results give turn 6");
    assert_eq!(one.by_turn[0].label, "turn 6");
    assert_eq!(one.by_turn[0].tally.games, one.all_games.games);
    // The store's one ladder.
    let all = svc.installation_stats().await.unwrap();
    assert_eq!(all.competitions.len(), 1);
    assert_eq!(all.all_games, one.all_games);
    assert_eq!(all.by_end, one.by_end);
    assert_eq!(all.by_turn, one.by_turn);
    // The same ladder twice under two ids: every figure doubles and each
    // player is one, on both ladders.
    let twice = installation_stats(&[
        ("a".to_string(), ladder.clone(), v),
        ("b".to_string(), ladder.clone(), v),
    ]);
    assert_eq!(twice.all_games.games, 2 * one.all_games.games);
    assert_eq!(twice.by_turn[0].tally.games, 2 * one.by_turn[0].tally.games);
    let played: Vec<_> = one
        .players
        .iter()
        .filter(|p| p.ladder.wins + p.ladder.losses + p.ladder.ties > 0)
        .collect();
    assert_eq!(twice.players.len(), played.len());
    for p in &twice.players {
        assert_eq!(p.competitions, ["a", "b"]);
        let single = one.players.iter().find(|q| q.name == p.name).unwrap();
        assert_eq!(p.ladder.wins, 2 * single.ladder.wins);
        assert_eq!(p.ladder.losses, 2 * single.ladder.losses);
    }
    // A what-if of a ladder goes to the ladder's own, and stores nothing.
    let any = svc.what_if_any(COMP, &[], day(3)).await.unwrap();
    assert!(any.view::<arbiter_engine::tws::Ladder>().is_some());
    assert_eq!(db.store.version(COMP).await.unwrap(), v);
}
