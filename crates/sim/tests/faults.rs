//! Faults: a store that fails the k-th storage call, for k = 1, 2, … until
//! the operation goes through without one, in each mode (once, persistently,
//! after the commit), for append (commands through the service: a result on
//! a warm cache and on a stale one, a round announcement, a creation, an
//! undo), import (`transfer::import` of a whole installation) and replay
//! (loading a competition: a cold fold, a warm catch-up, its history).
//!
//! After each fault: no panic; the caller got the injected error (or, when
//! the service got over it by reading again, the right answer); the store is
//! consistent (sequences without gaps, keys stored once with their events, a
//! fresh service's state and the failed service's equal to the fold of the
//! log); and a retry with the same idempotency key after a crash after
//! commit is answered with the first outcome, storing nothing twice.
//!
//! Each suite is generic over the store: memory, SQLite (in memory), and
//! PostgreSQL (`ARBITER_TEST_PG_URL`, a fresh database from
//! `arbiter_store_postgres::testing`; like the PostgreSQL crate's own
//! tests, these fail without it). Another backend is one more `#[test]`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Mutex;

use arbiter_engine::model::{EndTag, GameId, Outcome, Side, Time};
use arbiter_engine::tws::{self, Command, Ladder, LadderRules, PairingPlan, ResultInput};
use arbiter_service::transfer::{self, ExportOptions};
use arbiter_service::{Context, Executed, SeedSource, Service, ServiceError};
use arbiter_sim::faulty::{Injected, is_injected};
use arbiter_sim::{FaultyStore, MemoryStore, Mode, Plan};
use arbiter_store::{Account, AccountStore, ApiToken, EventStore, Grant, Role, Seq, StoreError};
use arbiter_store_postgres::PostgresStore;
use arbiter_store_postgres::testing::{self as pg, TestDatabase};
use arbiter_store_sqlite::SqliteStore;
use chrono::{Duration, TimeZone, Utc};

const MODES: [Mode; 3] = [Mode::Once, Mode::Persistent, Mode::AfterCommit];
const MODERATORS: [&str; 2] = ["Mod One", "Mod Two"];
/// No operation here makes this many storage calls.
const MAX_K: u64 = 200;

fn at(hours: i64) -> Time {
    Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap() + Duration::hours(hours)
}

fn ctx(key: Option<&str>, hours: i64) -> Context {
    Context {
        idempotency_key: key.map(str::to_owned),
        ..Context::new(MODERATORS[0], at(hours))
    }
}

fn service<S: EventStore>(store: S) -> Service<S> {
    Service::new(store).with_seeds(SeedSource::Deterministic("faults".into()))
}

fn win(game: u32, side: Side, hours: i64) -> Command {
    Command::RecordResult {
        game: GameId(game),
        result: ResultInput {
            outcome: Outcome::Win(side),
            ended_by: EndTag::Vp,
            vp: Some(if side == Side::Ussr { -20 } else { 20 }),
            turn: Some(6),
            note: None,
        },
        agreed: false,
        at: at(hours),
    }
}

/// Create a ladder with four players and announce round 1 (games 1 and 2).
async fn ladder<S: EventStore>(svc: &Service<S>, comp: &str) {
    let mods: Vec<String> = MODERATORS.iter().map(|m| (*m).to_owned()).collect();
    svc.create_ladder(comp, "Faults", LadderRules::default(), &mods, &ctx(None, 0))
        .await
        .unwrap();
    for i in 1..=4 {
        let join = Command::Join {
            name: format!("Player {i}"),
            surname: None,
        };
        svc.execute(comp, join, &ctx(None, 0)).await.unwrap();
    }
    svc.announce_round(
        comp,
        None,
        PairingPlan::Default { eliminator: None },
        false,
        &ctx(None, 1),
    )
    .await
    .unwrap();
}

/// The log of `comp` is 1, 2, 3 … without gaps, each key's events are one
/// run and are the store's record of the key, and a fresh service and
/// `svc` both see the fold of the log.
async fn assert_consistent<S: EventStore>(
    store: &FaultyStore<S>,
    svc: &Service<FaultyStore<S>>,
    comp: &str,
    what: &str,
) -> Ladder {
    assert!(store.plan().is_none(), "{what}: checks run without faults");
    let events = store.read(comp, 1, None).await.unwrap();
    let version = store.version(comp).await.unwrap();
    let seqs: Vec<Seq> = events.iter().map(|e| e.seq).collect();
    assert_eq!(
        seqs,
        (1..=version).collect::<Vec<_>>(),
        "{what}: the log has gaps"
    );
    let mut runs: BTreeMap<String, (Seq, Seq)> = BTreeMap::new();
    for e in &events {
        if let Some(key) = &e.idempotency_key {
            let run = runs.entry(key.clone()).or_insert((e.seq, e.seq - 1));
            assert_eq!(run.1 + 1, e.seq, "{what}: key {key} stored twice");
            run.1 = e.seq;
        }
    }
    let records: BTreeMap<String, (Seq, Seq)> = store
        .keys(comp)
        .await
        .unwrap()
        .into_iter()
        .map(|k| (k.key, (k.first, k.last)))
        .collect();
    assert_eq!(
        records, runs,
        "{what}: the key records are not the events' keys"
    );
    let decoded: Vec<(Seq, tws::Event)> = events
        .iter()
        .map(|e| (e.seq, arbiter_record::decode(&e.payload).unwrap()))
        .collect();
    let fold = tws::fold(decoded.iter().map(|(s, e)| (*s, e)));
    for (who, svc) in [
        ("a fresh service", &service(store.clone())),
        ("the service", svc),
    ] {
        match svc.load(comp, None).await {
            Ok((ladder, v)) => {
                assert_eq!(v, version, "{what}: {who} is at another version");
                assert!(
                    ladder == fold,
                    "{what}: {who}'s state is not the fold of the log"
                );
            }
            Err(ServiceError::NotFound(_)) if version == 0 => {}
            Err(e) => panic!("{what}: {who} cannot load the competition: {e}"),
        }
    }
    fold
}

// ------------------------------------------------------------------ append

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    /// A result on a service whose cache is current.
    Record,
    /// A result on a service whose cache is behind another service's write
    /// (the append conflicts, the service catches up and decides again).
    RecordStale,
    /// Close round 1 and announce round 2 (reads the committed seed, keeps
    /// the next one as a secret, appends both events at once).
    Announce,
    /// Create a ladder (a secret, then the creation's events).
    Create,
    /// Undo the last event.
    Undo,
}

const OPS: [Op; 5] = [
    Op::Record,
    Op::RecordStale,
    Op::Announce,
    Op::Create,
    Op::Undo,
];

async fn prepare<S: EventStore>(svc: &Service<S>, other: &Service<S>, comp: &str, op: Op) {
    if op == Op::Create {
        return;
    }
    ladder(svc, comp).await;
    match op {
        Op::Announce => {
            for (g, side) in [(1, Side::Ussr), (2, Side::Us)] {
                svc.execute(comp, win(g, side, 2), &ctx(None, 2))
                    .await
                    .unwrap();
            }
        }
        Op::RecordStale => {
            svc.load(comp, None).await.unwrap();
            let join = Command::Join {
                name: "Player 5".into(),
                surname: None,
            };
            other.execute(comp, join, &ctx(None, 1)).await.unwrap();
        }
        _ => {
            svc.load(comp, None).await.unwrap();
        }
    }
}

async fn run_op<S: EventStore>(
    svc: &Service<S>,
    comp: &str,
    op: Op,
    key: &str,
) -> Result<Executed, ServiceError> {
    let ctx = ctx(Some(key), 3);
    match op {
        Op::Record | Op::RecordStale => svc.execute(comp, win(1, Side::Us, 3), &ctx).await,
        Op::Announce => svc
            .announce_round(
                comp,
                None,
                PairingPlan::Default { eliminator: None },
                false,
                &ctx,
            )
            .await
            .map(|(_, e)| e),
        Op::Create => {
            let mods: Vec<String> = MODERATORS.iter().map(|m| (*m).to_owned()).collect();
            svc.create_ladder(comp, "Faults", LadderRules::default(), &mods, &ctx)
                .await
        }
        Op::Undo => svc.undo(comp, &ctx).await.map(|(e, _)| e),
    }
}

/// Every operation in every mode, k = 1, 2, … until it goes through; each
/// run on a competition of its own. Returns, per (op, mode), the k at which
/// the operation first went through, and the faults injected.
async fn append_faults<S: EventStore + 'static>(backend: &str, store: S) {
    let faulty = FaultyStore::new(store);
    let mut figures = Vec::new();
    let mut injected_total = 0;
    for op in OPS {
        for mode in MODES {
            let mut k = 1;
            loop {
                assert!(k < MAX_K, "{backend} {op:?} {mode:?}: never went through");
                let comp = format!("{op:?}-{mode:?}-{k}").to_lowercase();
                let what = format!("{backend}: {op:?}, {mode:?} fault at call {k}");
                let svc = service(faulty.clone());
                let other = service(faulty.clone());
                prepare(&svc, &other, &comp, op).await;
                let before = faulty.inner().version(&comp).await.unwrap();
                let mark = faulty.injected_count();
                let key = format!("key-{comp}");
                faulty.arm(Plan::new(mode, k));
                let result = run_op(&svc, &comp, op, &key).await;
                faulty.disarm();
                let faults = faulty.injected_since(mark);
                injected_total += faults.len();
                let after = faulty.inner().version(&comp).await.unwrap();
                if faults.is_empty() {
                    let done = result.unwrap_or_else(|e| panic!("{what}: no fault, yet {e}"));
                    assert!(!done.replayed, "{what}");
                    assert_eq!(after - before, done.events.len() as Seq, "{what}");
                    assert_consistent(&faulty, &svc, &comp, &what).await;
                    figures.push(format!("{op:?}/{mode:?} k={k}"));
                    break;
                }
                let landed: Vec<_> = faults.iter().filter_map(|f| f.landed.clone()).collect();
                let landed_events: Seq = landed.iter().map(|a| a.last + 1 - a.first).sum();
                match &result {
                    Err(ServiceError::Store(e)) if is_injected(e) => {
                        assert!(
                            faults.iter().any(|f| f.message() == e.to_string()),
                            "{what}: told of a fault not injected now: {e}"
                        );
                        assert_eq!(
                            after - before,
                            landed_events,
                            "{what}: the log grew by more than what landed before the crash"
                        );
                    }
                    Ok(done) => {
                        // The service got over the fault (it read again):
                        // possible for a failed read only, never for a
                        // persistent fault or a lost commit.
                        assert!(
                            mode != Mode::Persistent && landed.is_empty(),
                            "{what}: faults ({}) but the caller was told {done:?}",
                            Injected::describe_all(&faults)
                        );
                        assert_eq!(after - before, done.events.len() as Seq, "{what}");
                    }
                    Err(e) => panic!(
                        "{what}: faults ({}) but the caller got another error: {e}",
                        Injected::describe_all(&faults)
                    ),
                }
                assert_consistent(&faulty, &svc, &comp, &what).await;

                // The client retries with its key, and the store is healthy.
                let retry = run_op(&svc, &comp, op, &key)
                    .await
                    .unwrap_or_else(|e| panic!("{what}: the retry failed: {e}"));
                let end = faulty.inner().version(&comp).await.unwrap();
                if let Some(first) = landed.first() {
                    assert!(
                        retry.replayed && (retry.first, retry.last) == (first.first, first.last),
                        "{what}: the append landed at {first:?}; the retry must replay it, got {retry:?}"
                    );
                    assert_eq!(end, after, "{what}: the retry stored something");
                } else if result.is_err() {
                    assert!(!retry.replayed, "{what}: nothing landed, yet {retry:?}");
                    assert_eq!(end - after, retry.events.len() as Seq, "{what}");
                } else {
                    assert!(retry.replayed, "{what}: done once, the retry must replay");
                }
                let keyed = faulty
                    .inner()
                    .read(&comp, 1, None)
                    .await
                    .unwrap()
                    .iter()
                    .filter(|e| e.idempotency_key.as_deref() == Some(key.as_str()))
                    .count() as Seq;
                let expected = if landed.is_empty() && result.is_err() {
                    retry.events.len() as Seq
                } else {
                    retry.last + 1 - retry.first
                };
                assert_eq!(keyed, expected, "{what}: the key's events are stored once");
                assert_consistent(&faulty, &svc, &comp, &format!("{what}, retried")).await;
                k += 1;
            }
        }
    }
    eprintln!(
        "{backend}: append faults: {injected_total} injected; went through at {}",
        figures.join(", ")
    );
}

#[tokio::test]
async fn append_faults_memory() {
    append_faults("memory", MemoryStore::new()).await;
}

#[tokio::test]
async fn append_faults_sqlite() {
    append_faults("sqlite", SqliteStore::open_in_memory().await.unwrap()).await;
}

#[tokio::test]
async fn append_faults_postgres() {
    let db = pg::fresh_database(&pg::server_url()).await.unwrap();
    let store = PostgresStore::open(db.url()).await.unwrap();
    append_faults("postgres", store.clone()).await;
    store.close().await;
    db.drop_database().await.unwrap();
}

// ------------------------------------------------------------------ import

/// An installation to export: a ladder past its first round, a second
/// competition, accounts with grants and a token.
async fn installation() -> transfer::Export {
    let source = MemoryStore::new();
    let svc = service(source.clone());
    ladder(&svc, "ladder").await;
    for (g, side) in [(1, Side::Ussr), (2, Side::Us)] {
        svc.execute("ladder", win(g, side, 2), &ctx(Some(&format!("r{g}")), 2))
            .await
            .unwrap();
    }
    ladder(&svc, "second").await;
    for name in ["alice", "bob"] {
        source
            .create_account(&Account {
                username: name.into(),
                display_name: name.to_uppercase(),
                email: None,
                password_hash: format!("$argon2id$hash-{name}"),
                organizer: name == "alice",
                created_at: "2026-01-01T00:00:00Z".into(),
            })
            .await
            .unwrap();
    }
    source
        .grant(&Grant {
            competition: "ladder".into(),
            username: "alice".into(),
            role: Role::Owner,
            player: None,
        })
        .await
        .unwrap();
    source
        .put_token(&ApiToken {
            hash: "ab12".into(),
            username: "bob".into(),
            label: "ci".into(),
            created_at: "2026-01-01T00:00:00Z".into(),
            expires_at: None,
            last_used: None,
        })
        .await
        .unwrap();
    transfer::export(
        &source,
        &ExportOptions {
            competition: None,
            accounts: true,
            secrets: true,
        },
    )
    .await
    .unwrap()
}

async fn export_all<S: EventStore + AccountStore>(store: &S) -> transfer::Export {
    let options = ExportOptions {
        competition: None,
        accounts: true,
        secrets: true,
    };
    transfer::export(store, &options).await.unwrap()
}

/// Import the installation into a fresh store made by `make`, failing the
/// k-th call, for k = 1, 2, … in each mode. Each transaction is all or
/// nothing; a retry completes it (or, when the competitions went in before
/// the fault, is refused without writing anything).
async fn import_faults<S, F, Fut>(backend: &str, make: F)
where
    S: EventStore + AccountStore + 'static,
    F: Fn() -> Fut,
    Fut: Future<Output = S>,
{
    let export = installation().await;
    let bytes = transfer::to_bytes(&export);
    let mut figures = Vec::new();
    for mode in MODES {
        let mut k = 1;
        loop {
            assert!(k < MAX_K, "{backend} import {mode:?}: never went through");
            let what = format!("{backend}: import, {mode:?} fault at call {k}");
            let faulty = FaultyStore::new(make().await);
            faulty.arm(Plan::new(mode, k));
            let result = transfer::import(&faulty, &export).await;
            faulty.disarm();
            let faults = faulty.injected();
            let now = export_all(&faulty).await;
            if faults.is_empty() {
                result.unwrap_or_else(|e| panic!("{what}: no fault, yet {e}"));
                assert_eq!(
                    transfer::to_bytes(&now),
                    bytes,
                    "{what}: not what was exported"
                );
                figures.push(format!("{mode:?} k={k}"));
                break;
            }
            let err = match result {
                Ok(done) => panic!(
                    "{what}: faults ({}) but {done:?}",
                    Injected::describe_all(&faults)
                ),
                Err(e) => e.to_string(),
            };
            assert!(
                faults.iter().any(|f| err.contains(&f.message())),
                "{what}: faults ({}) but the caller got {err}",
                Injected::describe_all(&faults)
            );
            // All or nothing, per transaction.
            let competitions_in = !now.competitions.is_empty();
            if competitions_in {
                assert_eq!(
                    now.competitions, export.competitions,
                    "{what}: part of the competitions"
                );
            }
            assert!(
                now.accounts.is_empty() || (competitions_in && now.accounts == export.accounts),
                "{what}: accounts without their competitions, or part of them"
            );
            if now.accounts.is_empty() {
                assert!(
                    now.grants.is_empty() && now.tokens.is_empty(),
                    "{what}: grants or tokens without accounts"
                );
            }
            // The store is healthy: a retry completes the import, or is
            // refused whole when the competitions are already in.
            let retry = transfer::import(&faulty, &export).await;
            let again = export_all(&faulty).await;
            if competitions_in {
                assert!(
                    matches!(retry, Err(ServiceError::Exists(_))),
                    "{what}: the competitions are in; a retry must be refused, got {retry:?}"
                );
                assert_eq!(
                    transfer::to_bytes(&again),
                    transfer::to_bytes(&now),
                    "{what}: the refused retry wrote"
                );
            } else {
                retry.unwrap_or_else(|e| panic!("{what}: the retry failed: {e}"));
                assert_eq!(transfer::to_bytes(&again), bytes, "{what}: the retry");
            }
            if competitions_in || again.competitions == export.competitions {
                let svc = service(faulty.clone());
                let fold = assert_consistent(&faulty, &svc, "ladder", &what).await;
                assert_eq!(fold.rounds.len(), 1, "{what}");
            }
            k += 1;
        }
    }
    eprintln!(
        "{backend}: import faults: went through at {}",
        figures.join(", ")
    );
}

#[tokio::test]
async fn import_faults_memory() {
    import_faults("memory", || async { MemoryStore::new() }).await;
}

#[tokio::test]
async fn import_faults_sqlite() {
    import_faults("sqlite", || async {
        SqliteStore::open_in_memory().await.unwrap()
    })
    .await;
}

#[tokio::test]
async fn import_faults_postgres() {
    let dbs: Mutex<Vec<TestDatabase>> = Mutex::new(Vec::new());
    let server = pg::server_url();
    import_faults("postgres", || async {
        let db = pg::fresh_database(&server).await.unwrap();
        let store = PostgresStore::open(db.url()).await.unwrap();
        dbs.lock().unwrap().push(db);
        store
    })
    .await;
    for db in dbs.into_inner().unwrap() {
        db.drop_database().await.unwrap();
    }
}

// ------------------------------------------------------------------ replay

/// Load a competition through a service while the k-th call fails: cold (a
/// fresh service folds the log), warm (a service catches up with another's
/// appends), and its history. The caller gets the fault or the right state,
/// and the next load is right.
async fn replay_faults<S: EventStore + 'static>(backend: &str, store: S) {
    let faulty = FaultyStore::new(store);
    let writer = service(faulty.clone());
    ladder(&writer, "replayed").await;
    for (g, side) in [(1, Side::Ussr), (2, Side::Us)] {
        writer
            .execute("replayed", win(g, side, 2), &ctx(None, 2))
            .await
            .unwrap();
    }
    let mut figures = Vec::new();
    for kind in ["cold", "warm", "history"] {
        for mode in MODES {
            let mut k = 1;
            loop {
                assert!(
                    k < MAX_K,
                    "{backend} replay {kind} {mode:?}: never went through"
                );
                let what = format!("{backend}: {kind} replay, {mode:?} fault at call {k}");
                let svc = service(faulty.clone());
                if kind == "warm" {
                    svc.load("replayed", None).await.unwrap();
                    let join = Command::Join {
                        name: format!("Late {kind} {mode:?} {k}"),
                        surname: None,
                    };
                    writer
                        .execute("replayed", join, &ctx(None, 3))
                        .await
                        .unwrap();
                }
                let expected = assert_consistent(&faulty, &writer, "replayed", &what).await;
                let version = faulty.inner().version("replayed").await.unwrap();
                let mark = faulty.injected_count();
                faulty.arm(Plan::new(mode, k));
                let result = if kind == "history" {
                    svc.history("replayed", None)
                        .await
                        .map(|h| (None, h.last().map_or(0, |e| e.seq)))
                } else {
                    svc.load("replayed", None).await.map(|(l, v)| (Some(l), v))
                };
                faulty.disarm();
                let faults = faulty.injected_since(mark);
                assert_eq!(
                    faulty.inner().version("replayed").await.unwrap(),
                    version,
                    "{what}: a read wrote"
                );
                match result {
                    Ok((ladder, v)) => {
                        assert!(
                            faults.is_empty() || mode == Mode::Once || mode == Mode::AfterCommit,
                            "{what}: a persistent fault, yet an answer"
                        );
                        assert_eq!(v, version, "{what}");
                        if let Some(ladder) = ladder {
                            assert!(ladder == expected, "{what}: not the fold of the log");
                        }
                    }
                    Err(ServiceError::Store(e)) if is_injected(&e) => {
                        assert!(
                            faults.iter().any(|f| f.message() == e.to_string()),
                            "{what}: told of a fault not injected now: {e}"
                        );
                    }
                    Err(e) => panic!(
                        "{what}: faults ({}) but the caller got another error: {e}",
                        Injected::describe_all(&faults)
                    ),
                }
                // The failed load left nothing wrong behind.
                assert_consistent(&faulty, &svc, "replayed", &what).await;
                if faults.is_empty() {
                    figures.push(format!("{kind}/{mode:?} k={k}"));
                    break;
                }
                k += 1;
            }
        }
    }
    eprintln!(
        "{backend}: replay faults: went through at {}",
        figures.join(", ")
    );
}

#[tokio::test]
async fn replay_faults_memory() {
    replay_faults("memory", MemoryStore::new()).await;
}

#[tokio::test]
async fn replay_faults_sqlite() {
    replay_faults("sqlite", SqliteStore::open_in_memory().await.unwrap()).await;
}

#[tokio::test]
async fn replay_faults_postgres() {
    let db = pg::fresh_database(&pg::server_url()).await.unwrap();
    let store = PostgresStore::open(db.url()).await.unwrap();
    replay_faults("postgres", store.clone()).await;
    store.close().await;
    db.drop_database().await.unwrap();
}

/// The wrapper itself: the k-th call fails once, persistently, or after the
/// inner store did it; counting only one kind of call.
#[tokio::test]
async fn the_wrapper_fails_the_kth_call() {
    use arbiter_sim::Call;
    let faulty = FaultyStore::new(MemoryStore::new());
    let event = arbiter_store::NewEvent {
        kind: "k".into(),
        payload: "{}".into(),
        actor: "a".into(),
        recorded_at: "2026-01-01T00:00:00Z".into(),
    };
    faulty.arm(Plan::new(Mode::Once, 2));
    assert_eq!(faulty.version("c").await.unwrap(), 0);
    let err = faulty.version("c").await.unwrap_err();
    assert_eq!(err.to_string(), "storage failure: injected fault at call 2");
    assert!(matches!(err, StoreError::Backend(_)));
    assert_eq!(faulty.version("c").await.unwrap(), 0);

    faulty.arm(Plan::new(Mode::Persistent, 2));
    assert!(faulty.read("c", 1, None).await.is_ok());
    for _ in 0..3 {
        assert!(faulty.read("c", 1, None).await.is_err());
    }

    faulty.arm(Plan::new(Mode::AfterCommit, 1).only(Call::Append));
    assert_eq!(faulty.version("c").await.unwrap(), 0, "not counted");
    let err = faulty
        .append("c", 0, std::slice::from_ref(&event), None)
        .await
        .unwrap_err();
    assert!(is_injected(&err));
    faulty.disarm();
    assert_eq!(faulty.version("c").await.unwrap(), 1, "the append landed");
    let last = faulty.injected().pop().unwrap();
    assert_eq!(last.mode, Mode::AfterCommit);
    assert_eq!(last.landed.map(|a| (a.first, a.last)), Some((1, 1)));
    assert_eq!(faulty.calls(), 10);
}

/// Two copies of one undo request (one idempotency key) at once, on two
/// services, interleaved between their storage calls in 200 orders: one
/// undoes, the other replays it (it used to be refused as a reused key when
/// its history was read before the first copy's append: simulation seed
/// 433).
#[tokio::test(start_paused = true)]
async fn concurrent_copies_of_one_undo() {
    for order in 0..200 {
        let faulty = FaultyStore::new(MemoryStore::new());
        let (a, b) = (service(faulty.clone()), service(faulty.clone()));
        ladder(&a, "undo").await;
        b.load("undo", None).await.unwrap();
        let before = faulty.inner().version("undo").await.unwrap();
        faulty.set_yields(order, 500);
        let ctx = ctx(Some("undo-once"), 3);
        let (x, y) = tokio::join!(a.undo("undo", &ctx), b.undo("undo", &ctx));
        faulty.set_yields(0, 0);
        let (x, y) = (
            x.unwrap_or_else(|e| panic!("order {order}: {e}")),
            y.unwrap_or_else(|e| panic!("order {order}: {e}")),
        );
        assert!(x.0.replayed != y.0.replayed, "order {order}: {x:?} {y:?}");
        assert_eq!(
            (x.0.first, x.0.last),
            (y.0.first, y.0.last),
            "order {order}"
        );
        assert_eq!(x.1.seq, y.1.seq, "order {order}: both undid the same event");
        assert_eq!(faulty.inner().version("undo").await.unwrap(), before + 1);
        assert_consistent(&faulty, &a, "undo", &format!("order {order}")).await;
    }
}
