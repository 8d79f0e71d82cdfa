//! Announcing rounds through the service: the close of the finished round in
//! the same append, refusals, previews that store nothing, and the committed
//! draw seeds (committed before use, revealed by the announcement, never in
//! the log before then, draws recomputable).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter_engine::draw;
use arbiter_engine::model::{GameId, Side};
use arbiter_engine::tws::{Event, PairingPlan, RoundAnnounced};
use arbiter_service::{SeedSource, Service, ServiceError};
use arbiter_store::EventStore;
use common::spy::Spy;
use common::{
    COMP, announce, assert_consistent, both, create_with_members, ctx, day, file_db, finish_round,
    keyed, service, stored_events, win,
};

fn default_plan() -> PairingPlan {
    PairingPlan::Default { eliminator: None }
}

fn announcement(events: &[Event]) -> &RoundAnnounced {
    events
        .iter()
        .find_map(|e| match e {
            Event::RoundAnnounced(a) => Some(&**a),
            _ => None,
        })
        .expect("an announcement")
}

#[tokio::test]
async fn announce_closes_the_finished_round_in_the_same_append() {
    for db in both().await {
        let svc = service(db.store.clone());
        create_with_members(&svc, 6).await;
        let first = announce(&svc, day(0)).await;
        assert_eq!(first.events.len(), 1, "nothing to close before round 1");
        finish_round(&svc, day(1)).await;
        let before = db.store.version(COMP).await.unwrap();

        let (state, done) = svc
            .announce_round(
                COMP,
                None,
                default_plan(),
                false,
                &keyed(day(30), "round-2"),
            )
            .await
            .unwrap();
        let kinds: Vec<&str> = done.events.iter().map(Event::kind).collect();
        assert_eq!(kinds, ["round-closed", "round-announced"], "{}", db.kind);
        assert_eq!((done.first, done.last), (before + 1, before + 2));
        assert_eq!(db.store.version(COMP).await.unwrap(), before + 2);
        // One append: the key covers both events.
        let appended = db.store.idempotent(COMP, "round-2").await.unwrap().unwrap();
        let appended = appended.appended;
        assert_eq!((appended.first, appended.last), (before + 1, before + 2));
        let history = svc.history(COMP, None).await.unwrap();
        let tail: Vec<(u64, &str)> = history
            .iter()
            .skip(before as usize)
            .map(|h| (h.seq, h.kind.as_str()))
            .collect();
        assert_eq!(
            tail,
            [
                (before + 1, "round-closed"),
                (before + 2, "round-announced")
            ]
        );

        // The returned state is what the store now folds to.
        assert!(state.rounds[0].closed.is_some());
        assert_eq!(state.open_round().map(|r| r.number), Some(2));
        let (loaded, _) = svc.load(COMP, None).await.unwrap();
        assert!(loaded == state);
        assert_consistent(&svc, COMP).await;
    }
}

#[tokio::test]
async fn announce_is_refused_while_games_are_open_and_stores_nothing() {
    let db = file_db().await;
    let svc = service(Spy::new(db.store.clone()));
    create_with_members(&svc, 6).await;
    announce(&svc, day(0)).await;
    // Two of three games get a result; the third is still being played.
    for g in 1..=2 {
        svc.execute(COMP, win(GameId(g), Side::Us, day(1)), &ctx(day(1)))
            .await
            .unwrap();
    }
    let version = db.store.version(COMP).await.unwrap();
    let (appends, secrets) = (svc.store().appends(), svc.store().secrets_put());
    for preview in [false, true] {
        let err = svc
            .announce_round(COMP, None, default_plan(), preview, &ctx(day(30)))
            .await
            .unwrap_err();
        match err {
            ServiceError::Rule(e) => assert!(e.message.contains("cannot close"), "{e}"),
            other => panic!("expected a rule, got {other}"),
        }
    }
    assert_eq!(db.store.version(COMP).await.unwrap(), version);
    assert_eq!(svc.store().appends(), appends);
    assert_eq!(
        svc.store().secrets_put(),
        secrets,
        "no seed made for a refusal"
    );

    // Once the last game has its result, the same announcement goes through.
    svc.execute(COMP, win(GameId(3), Side::Ussr, day(2)), &ctx(day(2)))
        .await
        .unwrap();
    let done = announce(&svc, day(30)).await;
    assert_eq!(done.events.len(), 2);
    assert_consistent(&svc, COMP).await;
}

#[tokio::test]
async fn a_preview_stores_nothing_and_consumes_no_seed() {
    for seeds in [SeedSource::Os, SeedSource::Deterministic("preview".into())] {
        let db = file_db().await;
        let svc = Service::new(Spy::new(db.store.clone())).with_seeds(seeds.clone());
        create_with_members(&svc, 6).await;
        assert_eq!(svc.store().secrets_put(), 1, "the first seed, committed");

        for round in 1..=2u32 {
            let at = day(30 * i64::from(round));
            let (before, version) = svc.load(COMP, None).await.unwrap();
            let (appends, secrets) = (svc.store().appends(), svc.store().secrets_put());
            let (previewed, preview) = svc
                .announce_round(COMP, None, default_plan(), true, &ctx(at))
                .await
                .unwrap();
            let closes = usize::from(round > 1);
            assert_eq!(preview.events.len(), 1 + closes, "{seeds:?}");
            assert_eq!(preview.first, version + 1);
            assert_eq!(preview.last, version + 1 + closes as u64);
            assert!(!preview.replayed);
            assert_eq!(previewed.open_round().map(|r| r.number), Some(round));

            // Nothing stored, no seed kept, the state as it was.
            assert_eq!(db.store.version(COMP).await.unwrap(), version);
            assert_eq!(svc.store().appends(), appends);
            assert_eq!(svc.store().secrets_put(), secrets);
            let (after, v) = svc.load(COMP, None).await.unwrap();
            assert_eq!(v, version);
            assert!(after == before);
            assert_consistent(&svc, COMP).await;

            // The real announcement reveals the same committed seed and so
            // makes the same draws as the preview.
            let (_, done) = svc
                .announce_round(COMP, None, default_plan(), false, &ctx(at))
                .await
                .unwrap();
            assert_eq!(svc.store().secrets_put(), secrets + 1, "the next seed");
            let (p, r) = (announcement(&preview.events), announcement(&done.events));
            // The preview shows no seed (issue 14 item 8): the announcement
            // reveals it.
            assert_eq!(p.seed, arbiter_service::UNREVEALED_SEED, "{seeds:?}");
            assert_ne!(r.seed, arbiter_service::UNREVEALED_SEED, "{seeds:?}");
            assert_eq!(p.games, r.games);
            assert_eq!((&p.skips, &p.byes), (&r.skips, &r.byes));
            assert!(svc.seed_commitment_ok(COMP, round).await.unwrap());
            finish_round(&svc, at + chrono::Duration::days(1)).await;
        }
    }
}

#[tokio::test]
async fn draw_seeds_are_committed_before_use_and_draws_verify() {
    let db = file_db().await;
    let svc = service(db.store.clone());
    create_with_members(&svc, 8).await;
    for round in 0..4 {
        announce(&svc, day(30 * round)).await;
        finish_round(&svc, day(30 * round + 1)).await;
    }
    for round in 1..=4 {
        assert!(
            svc.seed_commitment_ok(COMP, round).await.unwrap(),
            "round {round}"
        );
        let checks = svc.verify_draws(COMP, round).await.unwrap();
        assert!(
            checks.iter().all(|c| c.matches),
            "round {round}: {checks:?}"
        );
        if round == 1 {
            // Nobody has a ladder game yet: every game's sides are drawn,
            // each keyed by its pair (ARB-R8; issue 14, item 8).
            assert_eq!(checks.len(), 4);
            assert!(checks.iter().all(|c| c.keyed_by == "pair"), "{checks:?}");
        }
    }
    assert!(matches!(
        svc.seed_commitment_ok(COMP, 5).await.unwrap_err(),
        ServiceError::Input(_)
    ));

    // The chain, read from the log: each revealed seed hashes to the
    // commitment published before it, and was nowhere in the log until its
    // announcement.
    let stored = db.store.read(COMP, 1, None).await.unwrap();
    let events = stored_events(&db.store, COMP).await;
    let mut committed = None;
    let mut seeds = Vec::new();
    for (seq, event) in &events {
        match event {
            Event::Created { seed_hash, .. } => committed = Some(*seed_hash),
            Event::RoundAnnounced(a) => {
                let hash = committed.expect("a commitment before the first round");
                assert_eq!(draw::commitment(&a.seed), hash, "round {}", a.round);
                let hex_seed = hex::encode(a.seed);
                assert!(
                    stored
                        .iter()
                        .filter(|s| s.seq < *seq)
                        .all(|s| !s.payload.contains(&hex_seed)),
                    "the seed of round {} was in the log before its announcement",
                    a.round
                );
                assert_ne!(a.next_seed_hash, hash);
                committed = Some(a.next_seed_hash);
                seeds.push(a.seed);
            }
            _ => {}
        }
    }
    assert_eq!(seeds.len(), 4);
    let mut distinct = seeds.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 4, "every round has its own seed");
}

#[tokio::test]
async fn deterministic_seeds_reproduce_draws_and_differ_by_base() {
    async fn first_round(base: &str) -> RoundAnnounced {
        let db = common::memory_db().await;
        let svc = Service::new(db.store.clone()).with_seeds(SeedSource::Deterministic(base.into()));
        create_with_members(&svc, 10).await;
        let done = announce(&svc, day(0)).await;
        announcement(&done.events).clone()
    }
    let a = first_round("base-a").await;
    let again = first_round("base-a").await;
    let b = first_round("base-b").await;
    assert_eq!(a, again, "same base, same draws");
    assert_ne!(a.seed, b.seed);
    assert_ne!(a.next_seed_hash, b.next_seed_hash);
}
