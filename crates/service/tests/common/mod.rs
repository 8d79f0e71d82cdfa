//! Helpers shared by the service's integration tests: stores (a file
//! database in a temporary directory, and an in-memory one), a ladder built
//! through the service, and the reference state: `tws::fold` of what the
//! store holds.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

pub mod spy;

use arbiter_engine::model::{EndTag, GameId, GameStatus, Outcome, Side, Time};
use arbiter_engine::tws::{self, Command, Event, Ladder, LadderRules, PairingPlan, ResultInput};
use arbiter_service::{Context, Executed, SeedSource, Service};
use arbiter_store::{EventStore, NewEvent, Seq};
use arbiter_store_sqlite::SqliteStore;
use chrono::{Duration, TimeZone, Utc};

/// The competition most tests use.
pub const COMP: &str = "tws-ladder";

pub const MODERATORS: [&str; 2] = ["Mod One", "Mod Two"];

pub fn t0() -> Time {
    Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap()
}

/// `n` days after [`t0`].
pub fn day(n: i64) -> Time {
    t0() + Duration::days(n)
}

/// A moderator acting at `at`, without key or pinned version.
pub fn ctx(at: Time) -> Context {
    Context::new(MODERATORS[0], at)
}

/// With an idempotency key.
pub fn keyed(at: Time, key: &str) -> Context {
    Context {
        idempotency_key: Some(key.to_string()),
        ..ctx(at)
    }
}

/// With the version the caller saw.
pub fn pinned(at: Time, version: Seq) -> Context {
    Context {
        expected: Some(version),
        ..ctx(at)
    }
}

/// A SQLite store, and the directory holding its file (if any) kept alive
/// as long as the store.
#[derive(Debug)]
pub struct Db {
    pub store: SqliteStore,
    pub kind: &'static str,
    _dir: Option<tempfile::TempDir>,
}

/// A file database (production pragmas) in a fresh temporary directory.
pub async fn file_db() -> Db {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(&dir.path().join("arbiter.db"))
        .await
        .unwrap();
    Db {
        store,
        kind: "file",
        _dir: Some(dir),
    }
}

pub async fn memory_db() -> Db {
    Db {
        store: SqliteStore::open_in_memory().await.unwrap(),
        kind: "memory",
        _dir: None,
    }
}

/// One store of each kind, for tests that run on both.
pub async fn both() -> Vec<Db> {
    vec![file_db().await, memory_db().await]
}

/// A service with reproducible draw seeds.
pub fn service<S: EventStore>(store: S) -> Service<S> {
    Service::new(store).with_seeds(SeedSource::Deterministic("service-tests".into()))
}

/// Create [`COMP`] with the two moderators and `members` players
/// ("Player 1" … joined in order, so player `i` has id `i`). Returns the
/// version.
pub async fn create_with_members<S: EventStore>(svc: &Service<S>, members: u32) -> Seq {
    let mods: Vec<String> = MODERATORS.iter().map(|m| (*m).to_string()).collect();
    let created = svc
        .create_ladder(
            COMP,
            "Test ladder",
            LadderRules::default(),
            &mods,
            &ctx(t0()),
        )
        .await
        .unwrap();
    assert_eq!((created.first, created.last), (1, 3));
    for i in 1..=members {
        svc.execute(COMP, join(i), &ctx(t0())).await.unwrap();
    }
    svc.store().version(COMP).await.unwrap()
}

pub fn join(i: u32) -> Command {
    Command::Join {
        name: format!("Player {i}"),
        surname: None,
    }
}

/// A result for `game`: `side` wins on 20 VP at `at`.
pub fn win(game: GameId, side: Side, at: Time) -> Command {
    Command::RecordResult {
        game,
        result: ResultInput {
            outcome: Outcome::Win(side),
            ended_by: EndTag::Vp,
            vp: Some(if side == Side::Ussr { -20 } else { 20 }),
            turn: Some(6),
            note: None,
        },
        agreed: false,
        at,
    }
}

/// Announce the next round with the default pairing at `at`.
pub async fn announce<S: EventStore>(svc: &Service<S>, at: Time) -> Executed {
    let (_, executed) = svc
        .announce_round(
            COMP,
            None,
            PairingPlan::Default { eliminator: None },
            false,
            &ctx(at),
        )
        .await
        .unwrap();
    executed
}

/// The games of the open round still waiting for a result.
pub fn open_games(ladder: &Ladder) -> Vec<GameId> {
    ladder.open_round().map_or_else(Vec::new, |r| {
        r.games
            .iter()
            .copied()
            .filter(|g| {
                ladder
                    .game(*g)
                    .is_some_and(|g| g.status == GameStatus::Scheduled)
            })
            .collect()
    })
}

/// Record a result for every open game of the running round (the USSR
/// wins odd games, the US even ones), at `at`.
pub async fn finish_round<S: EventStore>(svc: &Service<S>, at: Time) {
    let (ladder, _) = svc.load(COMP, None).await.unwrap();
    for g in open_games(&ladder) {
        let side = if g.0 % 2 == 1 { Side::Ussr } else { Side::Us };
        svc.execute(COMP, win(g, side, at), &ctx(at)).await.unwrap();
    }
}

/// Every stored event of `competition`, decoded, with its sequence.
pub async fn stored_events<S: EventStore>(store: &S, competition: &str) -> Vec<(Seq, Event)> {
    store
        .read(competition, 1, None)
        .await
        .unwrap()
        .into_iter()
        .map(|s| (s.seq, arbiter_record::decode(&s.payload).unwrap()))
        .collect()
}

/// The reference state: the fold of the first `upto` stored events (all
/// when `None`).
pub async fn stored_fold<S: EventStore>(store: &S, competition: &str, upto: Option<Seq>) -> Ladder {
    let events = stored_events(store, competition).await;
    tws::fold(
        events
            .iter()
            .filter(|(seq, _)| upto.is_none_or(|u| *seq <= u))
            .map(|(seq, e)| (*seq, e)),
    )
}

/// The log is 1, 2, 3 … without gaps, ends at the store's version, and the
/// service's state (cached or not) is the fold of it.
pub async fn assert_consistent<S: EventStore>(svc: &Service<S>, competition: &str) {
    let store = svc.store();
    let version = store.version(competition).await.unwrap();
    let seqs: Vec<Seq> = store
        .read(competition, 1, None)
        .await
        .unwrap()
        .iter()
        .map(|s| s.seq)
        .collect();
    let expected: Vec<Seq> = (1..=version).collect();
    assert_eq!(seqs, expected, "the log of {competition} has gaps");
    let reference = stored_fold(store, competition, None).await;
    let (ladder, v) = svc.load(competition, None).await.unwrap();
    assert_eq!(v, version);
    assert!(
        ladder == reference,
        "the service's state is not the fold of the log"
    );
}

/// Encode events as the service does, to append them behind its back.
pub fn encode_all(events: &[Event], actor: &str, at: Time) -> Vec<NewEvent> {
    let at = at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    events
        .iter()
        .map(|e| NewEvent {
            kind: e.kind().to_string(),
            payload: arbiter_record::encode(e),
            actor: actor.to_string(),
            recorded_at: at.clone(),
        })
        .collect()
}
