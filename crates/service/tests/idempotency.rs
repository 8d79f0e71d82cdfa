//! Idempotency keys name one request: the same key with the same request
//! (whatever its time) replays the first outcome; the same key with a
//! different request is refused with `KeyReused`, before anything is decided,
//! and stores nothing. Also for the store's own check, when the key was used
//! by another process after the service looked it up.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::future::Future;
use std::pin::Pin;

use arbiter_engine::model::{GameId, GameStatus, PlayerId, Side};
use arbiter_engine::tws::{Command, LadderRules, PairingPlan};
use arbiter_service::{Service, ServiceError, fingerprint};
use arbiter_store::{
    Appended, EventStore, Idempotency, KeyUse, NewEvent, Seq, StoreError, StoredEvent,
};
use arbiter_store_sqlite::SqliteStore;
use common::{
    COMP, announce, assert_consistent, both, create_with_members, ctx, day, file_db, join, keyed,
    pinned, service, t0, win,
};

fn is_key_reused(err: &ServiceError, key: &str) -> bool {
    matches!(err, ServiceError::Store(StoreError::KeyReused { key: k }) if k == key)
}

/// A ladder of four members with round 1 (games 1 and 2) running.
async fn running<S: EventStore>(svc: &Service<S>) -> Seq {
    create_with_members(svc, 4).await;
    announce(svc, day(0)).await;
    svc.store().version(COMP).await.unwrap()
}

#[test]
fn the_fingerprint_leaves_the_time_out_and_nothing_else() {
    let g1 = win(GameId(1), Side::Ussr, day(1));
    let fp = fingerprint(&g1);
    assert_eq!(fp.len(), 64, "hex of a SHA-256: {fp}");
    assert!(fp.chars().all(|c| c.is_ascii_hexdigit()), "{fp}");
    assert_eq!(
        fp,
        fingerprint(&win(GameId(1), Side::Ussr, day(5))),
        "a retry later is the same request"
    );
    assert_eq!(
        g1.without_time(),
        win(GameId(1), Side::Ussr, day(9)).without_time()
    );
    assert_ne!(
        fp,
        fingerprint(&win(GameId(2), Side::Ussr, day(1))),
        "another game"
    );
    assert_ne!(
        fp,
        fingerprint(&win(GameId(1), Side::Us, day(1))),
        "another winner"
    );
    assert_ne!(fingerprint(&join(1)), fingerprint(&join(2)));
    let close = |at| Command::CloseRound { at };
    assert_eq!(fingerprint(&close(day(1))), fingerprint(&close(day(2))));
    let quick = |at| Command::ScheduleQuickGame {
        ussr: PlayerId(1),
        us: PlayerId(2),
        at,
    };
    assert_eq!(fingerprint(&quick(day(1))), fingerprint(&quick(day(3))));
    assert_ne!(fingerprint(&quick(day(1))), fingerprint(&close(day(1))));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_key_reused_for_another_result_is_refused_and_stores_nothing() {
    for db in both().await {
        let svc = service(db.store.clone());
        let v = running(&svc).await;
        let first = svc
            .execute(
                COMP,
                win(GameId(1), Side::Ussr, day(1)),
                &keyed(day(1), "k"),
            )
            .await
            .unwrap();
        assert!(!first.replayed);
        assert_eq!((first.first, first.last), (v + 1, v + 1));

        // Another game with the same key: refused, game 2 stays scheduled.
        let err = svc
            .execute(COMP, win(GameId(2), Side::Us, day(2)), &keyed(day(2), "k"))
            .await
            .unwrap_err();
        assert!(is_key_reused(&err, "k"), "{}: {err}", db.kind);
        assert!(err.to_string().contains("\"k\""), "names the key: {err}");
        assert_eq!(db.store.version(COMP).await.unwrap(), v + 1);
        let (ladder, _) = svc.load(COMP, None).await.unwrap();
        assert_eq!(
            ladder.game(GameId(2)).unwrap().status,
            GameStatus::Scheduled
        );

        // The same game, another winner: another request too.
        let err = svc
            .execute(COMP, win(GameId(1), Side::Us, day(1)), &keyed(day(1), "k"))
            .await
            .unwrap_err();
        assert!(is_key_reused(&err, "k"), "{err}");

        // The first request, later: replayed.
        let again = svc
            .execute(
                COMP,
                win(GameId(1), Side::Ussr, day(3)),
                &keyed(day(3), "k"),
            )
            .await
            .unwrap();
        assert!(again.replayed);
        assert!(again.events.is_empty());
        assert_eq!((again.first, again.last), (v + 1, v + 1));

        // Game 2 with a key of its own goes through.
        svc.execute(COMP, win(GameId(2), Side::Us, day(2)), &keyed(day(2), "k2"))
            .await
            .unwrap();
        assert_eq!(db.store.version(COMP).await.unwrap(), v + 2);
        assert_consistent(&svc, COMP).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_key_is_checked_before_the_version_and_the_rules() {
    let db = file_db().await;
    let svc = service(db.store.clone());
    let v = running(&svc).await;
    svc.execute(
        COMP,
        win(GameId(1), Side::Ussr, day(1)),
        &keyed(day(1), "k"),
    )
    .await
    .unwrap();
    // A stale pinned version: the key answers first, both ways.
    let stale = |key: &str| arbiter_service::Context {
        idempotency_key: Some(key.to_string()),
        ..pinned(day(1), v)
    };
    let again = svc
        .execute(COMP, win(GameId(1), Side::Ussr, day(1)), &stale("k"))
        .await
        .unwrap();
    assert!(again.replayed);
    let err = svc
        .execute(COMP, win(GameId(2), Side::Us, day(1)), &stale("k"))
        .await
        .unwrap_err();
    assert!(is_key_reused(&err, "k"), "{err}");
    // A different request the rules would refuse (an unknown game): the key
    // is what is wrong.
    let err = svc
        .execute(COMP, win(GameId(99), Side::Us, day(1)), &keyed(day(1), "k"))
        .await
        .unwrap_err();
    assert!(is_key_reused(&err, "k"), "{err}");
    assert_eq!(db.store.version(COMP).await.unwrap(), v + 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn creation_announcement_and_undo_fingerprint_their_requests() {
    let db = file_db().await;
    let svc = service(db.store.clone());
    let mods = vec!["Mod One".to_string()];
    let rules = LadderRules::default();

    // Creation: the same request replays; another name is another request.
    let created = svc
        .create_ladder(COMP, "Ladder", rules.clone(), &mods, &keyed(t0(), "create"))
        .await
        .unwrap();
    let again = svc
        .create_ladder(
            COMP,
            "Ladder",
            rules.clone(),
            &mods,
            &keyed(day(1), "create"),
        )
        .await
        .unwrap();
    assert!(again.replayed);
    assert_eq!((again.first, again.last), (created.first, created.last));
    let err = svc
        .create_ladder(COMP, "Other name", rules, &mods, &keyed(t0(), "create"))
        .await
        .unwrap_err();
    assert!(is_key_reused(&err, "create"), "{err}");
    // The creation's key for a command.
    let err = svc
        .execute(COMP, join(1), &keyed(t0(), "create"))
        .await
        .unwrap_err();
    assert!(is_key_reused(&err, "create"), "{err}");
    for i in 1..=4 {
        svc.execute(COMP, join(i), &ctx(t0())).await.unwrap();
    }

    // Announcement: the same plan and deadline replay; another plan or
    // deadline is another request.
    let plan = PairingPlan::Default { eliminator: None };
    let ctx1 = keyed(day(1), "announce-1");
    let (_, first) = svc
        .announce_round(COMP, None, plan.clone(), false, &ctx1)
        .await
        .unwrap();
    let v = db.store.version(COMP).await.unwrap();
    let (state, again) = svc
        .announce_round(
            COMP,
            None,
            plan.clone(),
            false,
            &keyed(day(2), "announce-1"),
        )
        .await
        .unwrap();
    assert!(again.replayed);
    assert_eq!((again.first, again.last), (first.first, first.last));
    assert_eq!(state.open_round().map(|r| r.number), Some(1));
    let other_plan = PairingPlan::Default {
        eliminator: Some(PlayerId(4)),
    };
    let err = svc
        .announce_round(COMP, None, other_plan, false, &ctx1)
        .await
        .unwrap_err();
    assert!(is_key_reused(&err, "announce-1"), "{err}");
    let err = svc
        .announce_round(COMP, Some(day(20)), plan.clone(), false, &ctx1)
        .await
        .unwrap_err();
    assert!(is_key_reused(&err, "announce-1"), "{err}");
    assert_eq!(db.store.version(COMP).await.unwrap(), v);

    // Undo: a retry replays the first undo (and names the event it undid)
    // instead of undoing one more; the key of an undo is not a command's.
    svc.execute(COMP, win(GameId(1), Side::Ussr, day(3)), &ctx(day(3)))
        .await
        .unwrap();
    let (undone, target) = svc.undo(COMP, &keyed(day(4), "undo-1")).await.unwrap();
    assert!(!undone.replayed);
    assert_eq!(target.seq, v + 1);
    let (again, again_target) = svc.undo(COMP, &keyed(day(5), "undo-1")).await.unwrap();
    assert!(again.replayed);
    assert_eq!((again.first, again.last), (undone.first, undone.last));
    assert_eq!(again_target.seq, target.seq);
    assert_eq!(db.store.version(COMP).await.unwrap(), v + 2);
    let err = svc
        .execute(
            COMP,
            win(GameId(2), Side::Us, day(5)),
            &keyed(day(5), "undo-1"),
        )
        .await
        .unwrap_err();
    assert!(is_key_reused(&err, "undo-1"), "{err}");
    // A command's key for an undo.
    let err = svc.undo(COMP, &keyed(day(5), "create")).await.unwrap_err();
    assert!(is_key_reused(&err, "create"), "{err}");
    // Without a key, every undo undoes.
    svc.execute(COMP, win(GameId(1), Side::Us, day(6)), &ctx(day(6)))
        .await
        .unwrap();
    let (_, t1) = svc.undo(COMP, &ctx(day(6))).await.unwrap();
    assert_eq!(db.store.version(COMP).await.unwrap(), v + 4);
    assert_eq!(t1.seq, v + 3);
    let (_, t2) = svc.undo(COMP, &ctx(day(6))).await.unwrap();
    assert_eq!(t2.seq, v, "the announcement");
    assert_consistent(&svc, COMP).await;
}

/// A store whose key lookups find nothing: as if another process used the
/// key between the service's lookup and its append, which the append's own
/// check then catches.
#[derive(Debug)]
struct LateLookup(SqliteStore);

type Fut<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

// `async-trait` is not a dependency of this crate: the signatures the macro
// gives the trait's methods.
impl EventStore for LateLookup {
    fn append<'life0, 'life1, 'life2, 'life3, 'async_trait>(
        &'life0 self,
        competition: &'life1 str,
        expected: Seq,
        events: &'life2 [NewEvent],
        idempotency: Option<Idempotency<'life3>>,
    ) -> Fut<'async_trait, Appended>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        'life2: 'async_trait,
        'life3: 'async_trait,
        Self: 'async_trait,
    {
        self.0.append(competition, expected, events, idempotency)
    }

    fn read<'life0, 'life1, 'async_trait>(
        &'life0 self,
        competition: &'life1 str,
        from: Seq,
        to: Option<Seq>,
    ) -> Fut<'async_trait, Vec<StoredEvent>>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        Self: 'async_trait,
    {
        self.0.read(competition, from, to)
    }

    fn version<'life0, 'life1, 'async_trait>(
        &'life0 self,
        competition: &'life1 str,
    ) -> Fut<'async_trait, Seq>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        Self: 'async_trait,
    {
        self.0.version(competition)
    }

    fn competitions<'life0, 'async_trait>(&'life0 self) -> Fut<'async_trait, Vec<String>>
    where
        'life0: 'async_trait,
        Self: 'async_trait,
    {
        self.0.competitions()
    }

    fn idempotent<'life0, 'life1, 'life2, 'async_trait>(
        &'life0 self,
        _competition: &'life1 str,
        _key: &'life2 str,
    ) -> Fut<'async_trait, Option<KeyUse>>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        'life2: 'async_trait,
        Self: 'async_trait,
    {
        Box::pin(async { Ok(None) })
    }

    fn put_secret<'life0, 'life1, 'life2, 'life3, 'async_trait>(
        &'life0 self,
        competition: &'life1 str,
        name: &'life2 str,
        value: &'life3 str,
    ) -> Fut<'async_trait, ()>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        'life2: 'async_trait,
        'life3: 'async_trait,
        Self: 'async_trait,
    {
        self.0.put_secret(competition, name, value)
    }

    fn secret<'life0, 'life1, 'life2, 'async_trait>(
        &'life0 self,
        competition: &'life1 str,
        name: &'life2 str,
    ) -> Fut<'async_trait, Option<String>>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        'life2: 'async_trait,
        Self: 'async_trait,
    {
        self.0.secret(competition, name)
    }

    fn keys<'life0, 'life1, 'async_trait>(
        &'life0 self,
        competition: &'life1 str,
    ) -> Fut<'async_trait, Vec<arbiter_store::KeyRecord>>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        Self: 'async_trait,
    {
        self.0.keys(competition)
    }

    fn secrets<'life0, 'life1, 'async_trait>(
        &'life0 self,
        competition: &'life1 str,
    ) -> Fut<'async_trait, Vec<(String, String)>>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        Self: 'async_trait,
    {
        self.0.secrets(competition)
    }

    fn import<'life0, 'life1, 'async_trait>(
        &'life0 self,
        competitions: &'life1 [arbiter_store::CompetitionDump],
    ) -> Fut<'async_trait, ()>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        Self: 'async_trait,
    {
        self.0.import(competitions)
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_append_refuses_a_key_the_lookup_did_not_see() {
    let db = file_db().await;
    let svc = service(LateLookup(db.store.clone()));
    let v = running(&svc).await;
    let quick = |at| Command::ScheduleQuickGame {
        ussr: PlayerId(1),
        us: PlayerId(3),
        at,
    };
    svc.execute(COMP, quick(day(1)), &keyed(day(1), "q"))
        .await
        .unwrap();
    // Decided again successfully (a new quick game), then answered by the
    // store: the same request replays...
    let again = svc
        .execute(COMP, quick(day(2)), &keyed(day(2), "q"))
        .await
        .unwrap();
    assert!(again.replayed);
    assert_eq!((again.first, again.last), (v + 1, v + 1));
    // ...and a different one is refused.
    let err = svc
        .execute(COMP, win(GameId(1), Side::Us, day(2)), &keyed(day(2), "q"))
        .await
        .unwrap_err();
    assert!(is_key_reused(&err, "q"), "{err}");
    assert_eq!(db.store.version(COMP).await.unwrap(), v + 1);
    let (ladder, _) = svc.load(COMP, None).await.unwrap();
    assert_eq!(
        ladder.game(GameId(1)).unwrap().status,
        GameStatus::Scheduled
    );
    assert_consistent(&svc, COMP).await;
}
