//! Several writers on one store: optimistic concurrency (a pinned version
//! conflicts, an unpinned command is decided again on the new state),
//! idempotency keys, a writer racing the service between its load and its
//! append, and eight concurrent writers on one file database.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeSet;
use std::sync::Arc;

use arbiter_engine::model::{GameId, GameStatus, Outcome, PlayerId, Side, Time};
use arbiter_engine::tws::{Command, PairingPlan};
use arbiter_service::{Context, Service, ServiceError};
use arbiter_store::{EventStore, Seq, StoreError};
use arbiter_store_sqlite::SqliteStore;
use common::spy::Spy;
use common::{
    COMP, announce, assert_consistent, both, create_with_members, ctx, day, encode_all, file_db,
    join, keyed, pinned, service, stored_events, t0, win,
};

fn is_conflict(err: &ServiceError, expected: Seq, actual: Seq) -> bool {
    matches!(
        err,
        ServiceError::Store(StoreError::Conflict { competition, expected: e, actual: a })
            if competition == COMP && *e == expected && *a == actual
    )
}

/// Two services (two processes) over clones of one store, on a ladder of
/// four members with round 1 (games 1 and 2) running. Returns the version.
async fn two_writers(store: &SqliteStore) -> (Service<SqliteStore>, Service<SqliteStore>, Seq) {
    let a = service(store.clone());
    let b = service(store.clone());
    create_with_members(&a, 4).await;
    announce(&a, day(0)).await;
    let (_, va) = a.load(COMP, None).await.unwrap();
    let (_, vb) = b.load(COMP, None).await.unwrap();
    assert_eq!(va, vb);
    (a, b, va)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stale_pinned_version_conflicts_and_stores_nothing() {
    for db in both().await {
        let (a, b, v) = two_writers(&db.store).await;
        a.execute(COMP, win(GameId(1), Side::Ussr, day(1)), &ctx(day(1)))
            .await
            .unwrap();

        // B saw version v and pins it: refused with the current version.
        let err = b
            .execute(COMP, win(GameId(2), Side::Us, day(1)), &pinned(day(1), v))
            .await
            .unwrap_err();
        assert!(is_conflict(&err, v, v + 1), "{}: {err}", db.kind);
        assert_eq!(db.store.version(COMP).await.unwrap(), v + 1);
        let (ladder, _) = b.load(COMP, None).await.unwrap();
        assert_eq!(
            ladder.game(GameId(2)).unwrap().status,
            GameStatus::Scheduled
        );

        // Pinning the current version goes through.
        let done = b
            .execute(
                COMP,
                win(GameId(2), Side::Us, day(1)),
                &pinned(day(1), v + 1),
            )
            .await
            .unwrap();
        assert_eq!(done.first, v + 2);

        // The same holds for an announcement.
        let err = a
            .announce_round(
                COMP,
                None,
                PairingPlan::Default { eliminator: None },
                false,
                &pinned(day(30), v + 1),
            )
            .await
            .unwrap_err();
        assert!(is_conflict(&err, v + 1, v + 2), "{err}");
        assert_eq!(db.store.version(COMP).await.unwrap(), v + 2);
        assert_consistent(&a, COMP).await;
        assert_consistent(&b, COMP).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unpinned_command_is_decided_again_on_the_new_state() {
    for db in both().await {
        let (a, b, v) = two_writers(&db.store).await;
        a.execute(COMP, win(GameId(1), Side::Ussr, day(1)), &ctx(day(1)))
            .await
            .unwrap();

        // B's cache is stale; without a pinned version its command is
        // decided on the state with A's result, and both stand.
        let done = b
            .execute(COMP, win(GameId(2), Side::Us, day(1)), &ctx(day(1)))
            .await
            .unwrap();
        assert_eq!((done.first, done.last), (v + 2, v + 2));
        let (ladder, _) = b.load(COMP, None).await.unwrap();
        assert_eq!(ladder.game(GameId(1)).unwrap().status, GameStatus::Played);
        assert_eq!(ladder.game(GameId(2)).unwrap().status, GameStatus::Played);

        // A second result for the game A decided is refused by the rules on
        // the new state, and stores nothing.
        let err = b
            .execute(COMP, win(GameId(1), Side::Us, day(1)), &ctx(day(1)))
            .await
            .unwrap_err();
        assert!(matches!(err, ServiceError::Rule(_)), "{err}");
        assert_eq!(db.store.version(COMP).await.unwrap(), v + 2);
        let (ladder, _) = a.load(COMP, None).await.unwrap();
        assert_eq!(
            ladder
                .game(GameId(1))
                .unwrap()
                .result
                .as_ref()
                .unwrap()
                .outcome,
            Outcome::Win(Side::Ussr)
        );

        // A command the rules would refuse on B's stale state (the player
        // is unknown there) is decided on the new one.
        let applied = a
            .execute(
                COMP,
                Command::Apply {
                    name: "Late Joiner".into(),
                    surname: None,
                },
                &ctx(day(1)),
            )
            .await
            .unwrap();
        assert_eq!(applied.first, v + 3);
        let approved = b
            .execute(
                COMP,
                Command::Approve {
                    player: PlayerId(5),
                },
                &ctx(day(1)),
            )
            .await
            .unwrap();
        assert_eq!(approved.first, v + 4);
        assert_consistent(&a, COMP).await;
        assert_consistent(&b, COMP).await;
    }
}

/// A service over a spy that can slip another writer's events in between
/// the service's load and its append. Round 1 (games 1 and 2) is running.
async fn raced() -> (common::Db, Service<Spy>, Seq) {
    let db = file_db().await;
    let svc = service(Spy::new(db.store.clone()));
    create_with_members(&svc, 4).await;
    announce(&svc, day(0)).await;
    let (_, v) = svc.load(COMP, None).await.unwrap();
    (db, svc, v)
}

/// Arm the spy with `command` decided by "Mod Two" on the current state.
async fn intrude(svc: &Service<Spy>, command: Command, at: Time) {
    let (ladder, _) = svc.load(COMP, None).await.unwrap();
    let events = ladder.decide(command).unwrap();
    svc.store()
        .intrude(COMP, encode_all(&events, "Mod Two", at));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_conflict_inside_the_append_is_retried_on_the_new_state() {
    let (db, svc, v) = raced().await;
    intrude(&svc, win(GameId(1), Side::Ussr, day(1)), day(1)).await;
    let appends = svc.store().appends();
    let done = svc
        .execute(COMP, win(GameId(2), Side::Us, day(1)), &ctx(day(1)))
        .await
        .unwrap();
    assert_eq!(svc.store().armed(), 0);
    assert_eq!(
        svc.store().appends(),
        appends + 2,
        "refused once, then retried"
    );
    assert_eq!((done.first, done.last), (v + 2, v + 2));
    let stored = db.store.read(COMP, v + 1, None).await.unwrap();
    let who: Vec<(Seq, &str, &str)> = stored
        .iter()
        .map(|s| (s.seq, s.kind.as_str(), s.actor.as_str()))
        .collect();
    assert_eq!(
        who,
        [
            (v + 1, "result-recorded", "Mod Two"),
            (v + 2, "result-recorded", "Mod One")
        ]
    );
    assert_consistent(&svc, COMP).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_retry_refused_by_the_new_state_stores_nothing() {
    let (db, svc, v) = raced().await;
    intrude(&svc, win(GameId(1), Side::Ussr, day(1)), day(1)).await;
    let err = svc
        .execute(COMP, win(GameId(1), Side::Us, day(1)), &ctx(day(1)))
        .await
        .unwrap_err();
    assert!(matches!(err, ServiceError::Rule(_)), "{err}");
    assert_eq!(
        db.store.version(COMP).await.unwrap(),
        v + 1,
        "only the other writer's"
    );
    let (ladder, _) = svc.load(COMP, None).await.unwrap();
    assert_eq!(
        ladder
            .game(GameId(1))
            .unwrap()
            .result
            .as_ref()
            .unwrap()
            .outcome,
        Outcome::Win(Side::Ussr)
    );
    assert_consistent(&svc, COMP).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_pinned_command_that_loses_the_race_in_the_store_conflicts() {
    let (db, svc, v) = raced().await;
    intrude(&svc, win(GameId(1), Side::Ussr, day(1)), day(1)).await;
    let appends = svc.store().appends();
    // The version check in the service passes (v is current when it loads);
    // the store's own check catches the other writer.
    let err = svc
        .execute(COMP, win(GameId(2), Side::Us, day(1)), &pinned(day(1), v))
        .await
        .unwrap_err();
    assert!(is_conflict(&err, v, v + 1), "{err}");
    assert_eq!(svc.store().appends(), appends + 1, "no retry when pinned");
    assert_eq!(db.store.version(COMP).await.unwrap(), v + 1);
    assert_consistent(&svc, COMP).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_announcement_that_loses_the_race_is_decided_again() {
    let (db, svc, v) = {
        let db = file_db().await;
        let svc = service(Spy::new(db.store.clone()));
        create_with_members(&svc, 4).await;
        let (_, v) = svc.load(COMP, None).await.unwrap();
        (db, svc, v)
    };
    // A fifth player joins between the service's load and its append.
    intrude(&svc, join(5), t0()).await;
    let secrets = svc.store().secrets_put();
    let (state, done) = svc
        .announce_round(
            COMP,
            None,
            PairingPlan::Default { eliminator: None },
            false,
            &ctx(day(0)),
        )
        .await
        .unwrap();
    assert_eq!((done.first, done.last), (v + 3, v + 3));
    assert_eq!(
        svc.store().secrets_put(),
        secrets + 2,
        "one next seed per attempt"
    );
    // The retried announcement knows the new player: odd one out, a bye.
    let round = state.open_round().unwrap();
    assert_eq!(round.games.len(), 2);
    assert_eq!(round.byes, vec![(PlayerId(5), 5)]);
    assert!(svc.seed_commitment_ok(COMP, 1).await.unwrap());
    assert!(
        svc.verify_draws(COMP, 1)
            .await
            .unwrap()
            .iter()
            .all(|c| c.matches)
    );
    assert_eq!(db.store.version(COMP).await.unwrap(), v + 3);
    assert_consistent(&svc, COMP).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_undo_that_loses_the_race_conflicts_instead_of_undoing_the_other_writer() {
    let (db, svc, v) = raced().await;
    intrude(&svc, win(GameId(1), Side::Ussr, day(1)), day(1)).await;
    let err = svc.undo(COMP, &ctx(day(1))).await.unwrap_err();
    assert!(is_conflict(&err, v, v + 1), "{err}");
    assert_eq!(db.store.version(COMP).await.unwrap(), v + 1);
    let history = svc.history(COMP, None).await.unwrap();
    assert!(history.iter().all(|h| !h.reverted));
    assert_consistent(&svc, COMP).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_undo_pinned_to_a_stale_version_conflicts() {
    let db = file_db().await;
    let (a, b, v) = two_writers(&db.store).await;
    // B saw version v (the announcement) and asks to undo it; meanwhile A
    // records a result.
    a.execute(COMP, win(GameId(1), Side::Ussr, day(1)), &ctx(day(1)))
        .await
        .unwrap();
    let result = b.undo(COMP, &pinned(day(1), v)).await;
    assert_eq!(
        db.store.version(COMP).await.unwrap(),
        v + 1,
        "nothing undone"
    );
    let err = result.unwrap_err();
    assert!(is_conflict(&err, v, v + 1), "{err}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_same_key_twice_stores_once() {
    for db in both().await {
        let (a, b, v) = two_writers(&db.store).await;
        let command = win(GameId(1), Side::Ussr, day(1));
        let first = a
            .execute(COMP, command.clone(), &keyed(day(1), "result-g1"))
            .await
            .unwrap();
        assert!(!first.replayed);
        assert_eq!((first.first, first.last), (v + 1, v + 1));

        // The retry: deciding it again would be refused (the game has its
        // result), and the answer is the first outcome.
        let again = a
            .execute(COMP, command.clone(), &keyed(day(1), "result-g1"))
            .await
            .unwrap();
        assert!(again.replayed, "{}", db.kind);
        assert!(again.events.is_empty());
        assert_eq!((again.first, again.last), (v + 1, v + 1));
        assert_eq!(db.store.version(COMP).await.unwrap(), v + 1);

        // Later, after other writes, from another process, still the same.
        b.execute(COMP, win(GameId(2), Side::Us, day(1)), &ctx(day(1)))
            .await
            .unwrap();
        let later = b
            .execute(COMP, command, &keyed(day(1), "result-g1"))
            .await
            .unwrap();
        assert!(later.replayed);
        assert_eq!((later.first, later.last), (v + 1, v + 1));
        assert_eq!(db.store.version(COMP).await.unwrap(), v + 2);

        // A command that would be decided again successfully (a quick game
        // gets a new game each time) is stored once too: the store answers
        // the key.
        let quick = Command::ScheduleQuickGame {
            ussr: PlayerId(1),
            us: PlayerId(3),
            at: day(2),
        };
        let scheduled = a
            .execute(COMP, quick.clone(), &keyed(day(2), "quick-1"))
            .await
            .unwrap();
        assert_eq!((scheduled.first, scheduled.last), (v + 3, v + 3));
        for s in [&a, &b] {
            let retried = s
                .execute(COMP, quick.clone(), &keyed(day(2), "quick-1"))
                .await
                .unwrap();
            assert!(retried.replayed);
            assert!(retried.events.is_empty());
            assert_eq!((retried.first, retried.last), (v + 3, v + 3));
        }
        assert_eq!(db.store.version(COMP).await.unwrap(), v + 3);
        let (ladder, _) = a.load(COMP, None).await.unwrap();
        assert_eq!(ladder.games.len(), 3, "two round games and one quick game");
        assert_consistent(&a, COMP).await;
        assert_consistent(&b, COMP).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refused_command_does_not_use_up_its_key_and_keys_belong_to_one_competition() {
    let db = file_db().await;
    let (a, _b, v) = two_writers(&db.store).await;
    let err = a
        .execute(COMP, win(GameId(9), Side::Us, day(1)), &keyed(day(1), "k"))
        .await
        .unwrap_err();
    assert!(matches!(err, ServiceError::Rule(_)), "{err}");
    let done = a
        .execute(COMP, win(GameId(1), Side::Us, day(1)), &keyed(day(1), "k"))
        .await
        .unwrap();
    assert!(!done.replayed);
    assert_eq!(done.first, v + 1);

    // The key, used again in another competition.
    let other = service(db.store.clone());
    other
        .create_ladder(
            "other",
            "Other",
            arbiter_engine::tws::LadderRules::default(),
            &[],
            &ctx(t0()),
        )
        .await
        .unwrap();
    let err = other
        .execute("other", join(1), &keyed(t0(), "k"))
        .await
        .unwrap_err();
    assert!(
        matches!(err, ServiceError::Store(StoreError::KeyReused { ref key }) if key == "k"),
        "{err}"
    );
    assert_eq!(db.store.version("other").await.unwrap(), 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_retry_with_a_pinned_version_and_a_key_is_replayed() {
    let db = file_db().await;
    let (a, _b, v) = two_writers(&db.store).await;
    let ctx = Context {
        idempotency_key: Some("g1".into()),
        ..pinned(day(1), v)
    };
    let command = win(GameId(1), Side::Ussr, day(1));
    let first = a.execute(COMP, command.clone(), &ctx).await.unwrap();
    assert!(!first.replayed);
    // The answer was lost; the client sends the very same request again.
    let again = a.execute(COMP, command, &ctx).await.unwrap();
    assert!(again.replayed);
    assert_eq!((again.first, again.last), (first.first, first.last));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_retried_announcement_with_its_key_is_replayed() {
    let db = file_db().await;
    let svc = service(db.store.clone());
    create_with_members(&svc, 4).await;
    let plan = PairingPlan::Default { eliminator: None };
    let ctx = keyed(day(0), "announce-1");
    let (_, first) = svc
        .announce_round(COMP, None, plan.clone(), false, &ctx)
        .await
        .unwrap();
    let version = db.store.version(COMP).await.unwrap();
    let again = svc.announce_round(COMP, None, plan, false, &ctx).await;
    assert_eq!(db.store.version(COMP).await.unwrap(), version);
    let (_, again) = again.unwrap();
    assert!(again.replayed);
    assert_eq!((again.first, again.last), (first.first, first.last));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_retried_creation_with_its_key_is_replayed() {
    let db = file_db().await;
    let svc = service(db.store.clone());
    let mods = vec!["Mod One".to_string()];
    let rules = arbiter_engine::tws::LadderRules::default();
    let ctx = keyed(t0(), "create");
    let first = svc
        .create_ladder(COMP, "Ladder", rules.clone(), &mods, &ctx)
        .await
        .unwrap();
    let again = svc.create_ladder(COMP, "Ladder", rules, &mods, &ctx).await;
    assert_eq!(db.store.version(COMP).await.unwrap(), first.last);
    let again = again.unwrap();
    assert!(again.replayed);
    assert_eq!((again.first, again.last), (first.first, first.last));
}

/// What one writer did.
#[derive(Debug, Default)]
struct Outcomes {
    /// Ranges it appended.
    ranges: Vec<(Seq, Seq)>,
    /// Games of the shared pool it got the result of.
    won_races: Vec<u32>,
    /// Commands the rules refused (results another writer recorded first).
    refused: usize,
    /// Commands the service gave up on after its own retries (a conflict
    /// although no version was pinned), sent again by the writer.
    gave_up: usize,
}

const WRITERS: u32 = 8;
const OWN_GAMES: u32 = 3;
const JOINS: u32 = 2;
/// Games every writer tries to record: one result each gets in.
const SHARED: std::ops::RangeInclusive<u32> = 25..=32;

#[tokio::test(flavor = "multi_thread")]
async fn eight_writers_on_one_file_store_keep_a_gap_free_log_and_a_consistent_fold() {
    let db = file_db().await;
    let setup = service(db.store.clone());
    create_with_members(&setup, 64).await;
    announce(&setup, day(0)).await;
    let (_, base) = setup.load(COMP, None).await.unwrap();
    assert_eq!(*SHARED.end(), 32, "64 members, 32 games");

    let store = Arc::new(db.store.clone());
    let mut tasks = Vec::new();
    for w in 0..WRITERS {
        let store = Arc::clone(&store);
        tasks.push(tokio::spawn(async move {
            // Each writer is its own process: its own service and cache.
            let svc = service((*store).clone());
            let at = day(1);
            let mut out = Outcomes::default();
            let mut commands = Vec::new();
            for j in 0..OWN_GAMES {
                commands.push((None, win(GameId(w * OWN_GAMES + j + 1), Side::Us, at)));
            }
            for j in 0..JOINS {
                commands.push((
                    None,
                    Command::Join {
                        name: format!("Writer {w} #{j}"),
                        surname: None,
                    },
                ));
            }
            let shared: Vec<u32> = SHARED.collect();
            for k in 0..shared.len() {
                let g = shared[(k + w as usize) % shared.len()];
                commands.push((Some(g), win(GameId(g), Side::Ussr, at)));
            }
            for (shared_game, command) in commands {
                // A client sends a command again when the service gives up
                // on it (the service retries only a few times).
                let mut tries = 0;
                let result = loop {
                    tries += 1;
                    match svc.execute(COMP, command.clone(), &ctx(at)).await {
                        Err(ServiceError::Store(StoreError::Conflict { .. })) if tries < 50 => {
                            out.gave_up += 1;
                        }
                        other => break other,
                    }
                };
                match result {
                    Ok(done) => {
                        assert!(!done.replayed);
                        out.ranges.push((done.first, done.last));
                        out.won_races.extend(shared_game);
                    }
                    Err(ServiceError::Rule(_)) if shared_game.is_some() => out.refused += 1,
                    Err(e) => panic!("writer {w}: {e}"),
                }
            }
            out
        }));
    }
    let mut outcomes = Vec::new();
    for t in tasks {
        outcomes.push(t.await.unwrap());
    }

    let gave_up: usize = outcomes.iter().map(|o| o.gave_up).sum();
    eprintln!("commands the service gave up on (conflict without a pinned version): {gave_up}");

    let shared_games = SHARED.count() as u32;
    let expected = base + u64::from(WRITERS * (OWN_GAMES + 2 * JOINS) + shared_games);
    assert_eq!(db.store.version(COMP).await.unwrap(), expected);

    // Every shared game was won by exactly one writer; the others were
    // refused by the rules.
    let mut won: Vec<u32> = outcomes.iter().flat_map(|o| o.won_races.clone()).collect();
    won.sort_unstable();
    assert_eq!(won, SHARED.collect::<Vec<_>>());
    let refused: usize = outcomes.iter().map(|o| o.refused).sum();
    assert_eq!(refused as u32, (WRITERS - 1) * shared_games);

    // The writers' ranges are disjoint and cover everything after the base.
    let mut seqs = BTreeSet::new();
    for (first, last) in outcomes.iter().flat_map(|o| o.ranges.clone()) {
        for s in first..=last {
            assert!(seqs.insert(s), "event {s} acknowledged twice");
        }
    }
    assert_eq!(seqs, (base + 1..=expected).collect());

    // Gap-free log, and every service's state is its fold.
    assert_consistent(&setup, COMP).await;
    let fresh = service(db.store.clone());
    assert_consistent(&fresh, COMP).await;
    let (ladder, _) = fresh.load(COMP, None).await.unwrap();
    assert!(ladder.open_round().unwrap().games.iter().all(|g| {
        ladder
            .game(*g)
            .is_some_and(|g| g.status == GameStatus::Played)
    }));
    assert_eq!(ladder.players.len() as u32, 64 + WRITERS * JOINS);
    let events = stored_events(&db.store, COMP).await;
    let results = events
        .iter()
        .filter(|(_, e)| matches!(e, arbiter_engine::tws::Event::ResultRecorded { .. }))
        .count();
    assert_eq!(results, 32, "one result per game");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unpinned_command_is_retried_a_few_times_then_given_up_storing_nothing() {
    let (db, svc, v) = raced().await;
    // A new moderator by another writer before each of the next appends.
    let intrusions = |n: u32, from: u32| {
        for i in from..from + n {
            let e = arbiter_engine::tws::Event::ModeratorAdded {
                name: format!("Extra {i}"),
            };
            svc.store()
                .intrude(COMP, encode_all(&[e], "Mod Two", day(1)));
        }
    };
    // Four writers in a row get in first: the fifth attempt goes through.
    intrusions(4, 0);
    let done = svc
        .execute(COMP, win(GameId(1), Side::Us, day(1)), &ctx(day(1)))
        .await
        .unwrap();
    assert_eq!(done.first, v + 5);
    assert_eq!(svc.store().armed(), 0);
    assert_consistent(&svc, COMP).await;

    // An endless stream of writers: the service gives up, without storing.
    intrusions(100, 4);
    let err = svc
        .execute(COMP, win(GameId(2), Side::Us, day(1)), &ctx(day(1)))
        .await
        .unwrap_err();
    let raced_by = 100 - svc.store().armed() as u64;
    svc.store().disarm();
    assert!(
        matches!(
            err,
            ServiceError::Store(StoreError::Conflict { .. }) | ServiceError::Input(_)
        ),
        "{err}"
    );
    assert!((2..100).contains(&raced_by), "{raced_by}");
    let version = db.store.version(COMP).await.unwrap();
    assert_eq!(version, v + 5 + raced_by, "only the other writers' events");
    let (ladder, _) = svc.load(COMP, None).await.unwrap();
    assert_eq!(
        ladder.game(GameId(2)).unwrap().status,
        GameStatus::Scheduled
    );
    assert_consistent(&svc, COMP).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_undo_by_another_process_is_seen_by_a_cached_service() {
    for db in both().await {
        let (a, b, v) = two_writers(&db.store).await;
        b.execute(COMP, win(GameId(1), Side::Ussr, day(1)), &ctx(day(1)))
            .await
            .unwrap();
        // A undoes B's result; B's cache still has it.
        let (_, target) = a.undo(COMP, &ctx(day(2))).await.unwrap();
        assert_eq!(target.seq, v + 1);
        // B records the game again: refused on its stale state, decided on
        // the current one.
        let again = b
            .execute(COMP, win(GameId(1), Side::Us, day(2)), &ctx(day(2)))
            .await
            .unwrap();
        assert_eq!(again.first, v + 3);
        let (ladder, version) = b.load(COMP, None).await.unwrap();
        assert_eq!(version, v + 3);
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
        assert_consistent(&a, COMP).await;
        assert_consistent(&b, COMP).await;
    }
}
