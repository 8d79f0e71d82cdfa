//! The command path over SQLite (a file database and an in-memory one):
//! what is stored, the state as the fold of it, refusals, undo, history and
//! "as of" loads.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter_engine::model::{GameId, GameStatus, Outcome, PlayerId, Side};
use arbiter_engine::tws::{Command, Event, Membership, ResultInput};
use arbiter_service::ServiceError;
use arbiter_store::EventStore;
use common::{
    COMP, announce, assert_consistent, both, create_with_members, ctx, day, file_db, finish_round,
    join, service, stored_fold, t0, win,
};

#[tokio::test]
async fn commands_are_stored_and_the_state_is_the_fold_of_the_log() {
    for db in both().await {
        let svc = service(db.store.clone());
        let v = create_with_members(&svc, 6).await;
        // Created + 2 moderators, then 2 events per join.
        assert_eq!(v, 3 + 6 * 2, "{}", db.kind);
        assert_consistent(&svc, COMP).await;

        let history = svc.history(COMP, None).await.unwrap();
        let kinds: Vec<&str> = history.iter().take(5).map(|h| h.kind.as_str()).collect();
        assert_eq!(
            kinds,
            [
                "created",
                "moderator-added",
                "moderator-added",
                "player-applied",
                "player-approved"
            ]
        );
        assert!(history.iter().all(|h| h.actor == "Mod One"));
        assert!(
            history
                .iter()
                .all(|h| h.recorded_at == "2026-01-01T00:00:00Z")
        );
        assert!(history.iter().all(|h| !h.reverted));

        let announced = announce(&svc, day(0)).await;
        assert_eq!((announced.first, announced.last), (v + 1, v + 1));
        assert!(!announced.replayed);
        assert!(matches!(
            announced.events.as_slice(),
            [Event::RoundAnnounced(_)]
        ));
        assert_consistent(&svc, COMP).await;

        let mut version = v + 1;
        for (g, side) in [(1, Side::Ussr), (2, Side::Us), (3, Side::Ussr)] {
            let done = svc
                .execute(COMP, win(GameId(g), side, day(2)), &ctx(day(2)))
                .await
                .unwrap();
            version += 1;
            assert_eq!((done.first, done.last), (version, version));
            assert!(matches!(
                done.events.as_slice(),
                [Event::ResultRecorded { game, .. }] if *game == GameId(g)
            ));
            // After every command: the cached state is the fold of the log.
            assert_consistent(&svc, COMP).await;
        }
        let (ladder, _) = svc.load(COMP, None).await.unwrap();
        assert_eq!(ladder.order.len(), 6);
        assert_eq!(ladder.game(GameId(2)).unwrap().status, GameStatus::Played);
        assert_eq!(
            ladder
                .game(GameId(2))
                .unwrap()
                .result
                .as_ref()
                .unwrap()
                .outcome,
            Outcome::Win(Side::Us)
        );

        // Another service (another process) over the same database sees the
        // same state.
        let fresh = service(db.store.clone());
        let (again, v2) = fresh.load(COMP, None).await.unwrap();
        assert_eq!(v2, version);
        assert!(again == ladder);
        assert_eq!(svc.competitions().await.unwrap(), vec![COMP.to_string()]);
    }
}

#[tokio::test]
async fn competitions_are_named_and_created_once() {
    let db = file_db().await;
    let svc = service(db.store.clone());
    let rules = arbiter_engine::tws::LadderRules::default();
    for bad in ["", "Tws", "tws ladder", "-tws", &"x".repeat(65)] {
        let err = svc
            .create_ladder(bad, "Bad", rules.clone(), &[], &ctx(t0()))
            .await
            .unwrap_err();
        assert!(matches!(err, ServiceError::Input(_)), "{bad:?}: {err}");
    }
    assert!(svc.competitions().await.unwrap().is_empty());

    create_with_members(&svc, 0).await;
    let err = svc
        .create_ladder(COMP, "Again", rules, &[], &ctx(t0()))
        .await
        .unwrap_err();
    assert!(
        matches!(err, ServiceError::Exists(ref c) if c == COMP),
        "{err}"
    );
    assert_eq!(db.store.version(COMP).await.unwrap(), 3);

    let err = svc
        .execute("missing", join(1), &ctx(t0()))
        .await
        .unwrap_err();
    assert!(matches!(err, ServiceError::NotFound(_)), "{err}");
    assert!(matches!(
        svc.load("missing", None).await.unwrap_err(),
        ServiceError::NotFound(_)
    ));
    assert!(matches!(
        svc.undo("missing", &ctx(t0())).await.unwrap_err(),
        ServiceError::NotFound(_)
    ));
    assert_eq!(svc.competitions().await.unwrap(), vec![COMP.to_string()]);
}

#[tokio::test]
async fn a_refused_command_stores_nothing_and_changes_nothing() {
    for db in both().await {
        let svc = service(db.store.clone());
        create_with_members(&svc, 4).await;
        announce(&svc, day(0)).await;
        svc.execute(COMP, win(GameId(1), Side::Ussr, day(1)), &ctx(day(1)))
            .await
            .unwrap();
        let (before, version) = svc.load(COMP, None).await.unwrap();

        let bad_vp = Command::RecordResult {
            game: GameId(2),
            result: ResultInput {
                outcome: Outcome::Win(Side::Us),
                ended_by: arbiter_engine::model::EndTag::Vp,
                vp: Some(25),
                turn: Some(4),
                note: None,
            },
            agreed: false,
            at: day(1),
        };
        let refused = [
            ("unknown game", win(GameId(99), Side::Us, day(1))),
            ("second result", win(GameId(1), Side::Us, day(1))),
            ("before it was scheduled", win(GameId(2), Side::Us, day(-1))),
            ("after the deadline", win(GameId(2), Side::Us, day(200))),
            ("VP off the track", bad_vp),
            (
                "approve a member",
                Command::Approve {
                    player: PlayerId(1),
                },
            ),
            ("close with a game open", Command::CloseRound { at: day(2) }),
            (
                "empty name",
                Command::Join {
                    name: "  ".into(),
                    surname: None,
                },
            ),
        ];
        for (what, command) in refused {
            let err = svc.execute(COMP, command, &ctx(day(1))).await.unwrap_err();
            assert!(matches!(err, ServiceError::Rule(_)), "{what}: {err}");
            assert_eq!(db.store.version(COMP).await.unwrap(), version, "{what}");
            let (after, v) = svc.load(COMP, None).await.unwrap();
            assert_eq!(v, version);
            assert!(after == before, "{what} changed the state");
        }
        // An announcement while the round runs is refused the same way.
        let err = svc
            .announce_round(
                COMP,
                None,
                arbiter_engine::tws::PairingPlan::Default { eliminator: None },
                false,
                &ctx(day(2)),
            )
            .await
            .unwrap_err();
        assert!(matches!(err, ServiceError::Rule(_)), "{err}");
        assert_eq!(db.store.version(COMP).await.unwrap(), version);
        assert!(stored_fold(&db.store, COMP, None).await == before);
        assert_consistent(&svc, COMP).await;
    }
}

#[tokio::test]
async fn undo_walks_back_one_event_at_a_time_down_to_the_creation() {
    for db in both().await {
        let svc = service(db.store.clone());
        // 1 created, 2-3 moderators, 4-7 two joins, 8 round, 9 result.
        create_with_members(&svc, 2).await;
        announce(&svc, day(0)).await;
        svc.execute(COMP, win(GameId(1), Side::Us, day(1)), &ctx(day(1)))
            .await
            .unwrap();
        assert_eq!(db.store.version(COMP).await.unwrap(), 9);

        let expected_kinds = [
            (9, "result-recorded"),
            (8, "round-announced"),
            (7, "player-approved"),
            (6, "player-applied"),
            (5, "player-approved"),
            (4, "player-applied"),
            (3, "moderator-added"),
            (2, "moderator-added"),
        ];
        let mut version = 9;
        for (seq, kind) in expected_kinds {
            let (done, target) = svc.undo(COMP, &ctx(day(3))).await.unwrap();
            version += 1;
            assert_eq!((done.first, done.last), (version, version));
            assert!(matches!(
                done.events.as_slice(),
                [Event::Reverted { seq: s, .. }] if *s == seq
            ));
            assert_eq!((target.seq, target.kind.as_str()), (seq, kind));
            assert_consistent(&svc, COMP).await;
            let ladder = stored_fold(&db.store, COMP, None).await;
            match seq {
                9 => {
                    let g = ladder.game(GameId(1)).unwrap();
                    assert_eq!(g.status, GameStatus::Scheduled);
                    assert!(g.result.is_none());
                }
                8 => {
                    assert!(ladder.rounds.is_empty());
                    assert!(ladder.games.is_empty());
                }
                7 => assert_eq!(
                    ladder.player(PlayerId(2)).unwrap().status,
                    Membership::Applicant
                ),
                6 => assert_eq!(ladder.players.len(), 1),
                _ => {}
            }
        }
        let (empty, _) = svc.load(COMP, None).await.unwrap();
        assert!(empty.created);
        assert!(empty.players.is_empty() && empty.moderators.is_empty());

        // The creation stays.
        let err = svc.undo(COMP, &ctx(day(3))).await.unwrap_err();
        assert!(matches!(err, ServiceError::Input(_)), "{err}");
        assert_eq!(db.store.version(COMP).await.unwrap(), version);

        // History marks exactly the undone events.
        let history = svc.history(COMP, None).await.unwrap();
        for h in &history {
            let undone = (2..=9).contains(&h.seq);
            assert_eq!(h.reverted, undone, "event {} ({})", h.seq, h.kind);
            if h.seq > 9 {
                assert_eq!(h.kind, "reverted");
            }
        }
    }
}

#[tokio::test]
async fn an_undone_result_can_be_recorded_again_and_new_events_are_undone_first() {
    let db = file_db().await;
    let svc = service(db.store.clone());
    create_with_members(&svc, 4).await;
    announce(&svc, day(0)).await;
    let first = svc
        .execute(COMP, win(GameId(1), Side::Ussr, day(1)), &ctx(day(1)))
        .await
        .unwrap();
    let (_, target) = svc.undo(COMP, &ctx(day(2))).await.unwrap();
    assert_eq!(target.seq, first.first);

    // The game takes a result again; the new one stands.
    let second = svc
        .execute(COMP, win(GameId(1), Side::Us, day(2)), &ctx(day(2)))
        .await
        .unwrap();
    let (ladder, _) = svc.load(COMP, None).await.unwrap();
    assert_eq!(
        ladder
            .game(GameId(1))
            .unwrap()
            .result
            .as_ref()
            .unwrap()
            .outcome,
        Outcome::Win(Side::Us)
    );
    assert_consistent(&svc, COMP).await;

    // The next undo takes the newest event in force, not the older one.
    let (_, target) = svc.undo(COMP, &ctx(day(3))).await.unwrap();
    assert_eq!(target.seq, second.first);
    let history = svc.history(COMP, None).await.unwrap();
    let marked: Vec<u64> = history
        .iter()
        .filter(|h| h.reverted)
        .map(|h| h.seq)
        .collect();
    assert_eq!(marked, vec![first.first, second.first]);
    let (ladder, _) = svc.load(COMP, None).await.unwrap();
    assert_eq!(
        ladder.game(GameId(1)).unwrap().status,
        GameStatus::Scheduled
    );
    assert_consistent(&svc, COMP).await;
}

#[tokio::test]
async fn undoing_an_announcement_keeps_the_close_and_the_round_can_be_announced_again() {
    let db = file_db().await;
    let svc = service(db.store.clone());
    create_with_members(&svc, 4).await;
    announce(&svc, day(0)).await;
    finish_round(&svc, day(1)).await;
    let both_events = announce(&svc, day(30)).await;
    let undone_seed = match &both_events.events[1] {
        Event::RoundAnnounced(a) => a.seed,
        other => panic!("expected the announcement, got {}", other.kind()),
    };

    // The close and the announcement were one append, but undo takes one
    // event: the announcement.
    let (_, target) = svc.undo(COMP, &ctx(day(31))).await.unwrap();
    assert_eq!(target.seq, both_events.last);
    assert_eq!(target.kind, "round-announced");
    let (ladder, _) = svc.load(COMP, None).await.unwrap();
    assert_eq!(ladder.rounds.len(), 1);
    assert!(ladder.rounds[0].closed.is_some());
    assert!(ladder.open_round().is_none());
    assert_consistent(&svc, COMP).await;

    // Announcing again reveals the same committed seed; the undone
    // announcement does not count for the commitment chain.
    let again = announce(&svc, day(31)).await;
    assert_eq!(again.events.len(), 1, "the round was already closed");
    match &again.events[0] {
        Event::RoundAnnounced(a) => {
            assert_eq!(a.round, 2);
            assert_eq!(a.seed, undone_seed);
        }
        other => panic!("expected the announcement, got {}", other.kind()),
    }
    assert!(svc.seed_commitment_ok(COMP, 2).await.unwrap());
    assert_consistent(&svc, COMP).await;
}

#[tokio::test]
async fn load_as_of_every_prefix_is_the_fold_of_that_prefix() {
    for db in both().await {
        let svc = service(db.store.clone());
        create_with_members(&svc, 6).await;
        announce(&svc, day(0)).await;
        svc.execute(COMP, win(GameId(1), Side::Ussr, day(1)), &ctx(day(1)))
            .await
            .unwrap();
        svc.undo(COMP, &ctx(day(1))).await.unwrap();
        finish_round(&svc, day(2)).await;
        svc.execute(COMP, join(7), &ctx(day(3))).await.unwrap();
        announce(&svc, day(30)).await;
        svc.execute(COMP, win(GameId(4), Side::Us, day(31)), &ctx(day(31)))
            .await
            .unwrap();
        svc.undo(COMP, &ctx(day(32))).await.unwrap();
        let (now, version) = svc.load(COMP, None).await.unwrap();
        assert!(version > 25, "{version}");

        let fresh = service(db.store.clone());
        for p in 1..=version {
            let reference = stored_fold(&db.store, COMP, Some(p)).await;
            for s in [&svc, &fresh] {
                let (ladder, v) = s.load(COMP, Some(p)).await.unwrap();
                assert_eq!(v, p);
                assert!(ladder == reference, "as of {p} ({})", db.kind);
            }
            let history = svc.history(COMP, Some(p)).await.unwrap();
            assert_eq!(history.len() as u64, p);
            // An undo later than `p` does not mark anything as of `p`.
            for h in &history {
                let undone_by_then = history
                    .iter()
                    .any(|r| matches!(r.event, Event::Reverted { seq, .. } if seq == h.seq));
                assert_eq!(h.reverted, undone_by_then, "event {} as of {p}", h.seq);
            }
        }
        // Loading the past leaves the current state (and its cache) alone.
        let (again, v) = svc.load(COMP, None).await.unwrap();
        assert_eq!(v, version);
        assert!(again == now);
        assert_consistent(&svc, COMP).await;
    }
}
