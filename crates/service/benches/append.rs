//! Whole-command-path benchmarks of the service on SQLite.
//!
//! `cargo bench -p arbiter-service --bench append`
//!
//! Every bench uses a file database in a temporary directory (under
//! `$TMPDIR`, `/tmp` by default: keep it on a real disk, not a tmpfs, or the
//! fsyncs cost nothing) opened with `SqliteStore::open`, i.e. the production
//! pragmas (WAL, `synchronous=FULL`). Competitions are prepared outside the
//! timed part, mostly by appending engine-decided events straight to the
//! store in large batches.
//!
//! - `record_result` (by ladder size): one result per iteration through
//!   `Service::execute` on a ladder of 1,000 or 20,000 members with round 1
//!   running (500 or 10,000 open games): decide on the cached state (not
//!   re-read: the append's version check would catch a stale one), encode,
//!   append with fsync, apply to the cache.
//!   Reported as results/s; target at least 5,000/s (PRODUCT.md, "durable
//!   append of one result, SQLite, whole command path"). When a competition
//!   runs out of open games, the input generator prepares a fresh one
//!   (untimed; its first load is warmed untimed too).
//! - `store_append_only`: the store's share of `record_result`: one append
//!   of an encoded result event straight to `SqliteStore` (checks, insert,
//!   commit with fsync), no service. (Appending the same result again and
//!   again: the store does not read payloads.)
//! - `announce_1000`: `Service::announce_round` on a 1,000-member ladder
//!   whose round 1 has all its results: close the round (re-sort), reveal the
//!   committed seed, make and keep the next one (a secret write), decide the
//!   announcement of round 2 (pairings, sides from the play history) and
//!   append close and announcement in one durable append. Each iteration gets
//!   its own prepared competition, with the service's cache warm.
//! - `replay_100k`: `Service::load` by a fresh service (no cache) of a
//!   competition of exactly 100,000 stored events (1,000 members, ~196
//!   rounds of announcements, results and closes): read from SQLite, decode
//!   each JSON record, check each event against the state before it and
//!   apply it. Reported as events/s; the fold alone has a
//!   target of 2,000,000 events/s (see `arbiter-engine`'s `ladder` bench).
//! - `replay_100k_parts::{read, decode, check_and_apply}`: the same replay
//!   taken apart, each over the same 100,000 events, reported as events/s:
//!   `EventStore::read` of every row, `arbiter_record::decode` of every
//!   payload already in memory, and `Ladder::check` + `Ladder::apply` of
//!   every decoded event from an empty ladder.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::cell::RefCell;

use arbiter_engine::draw::{self, Seed};
use arbiter_engine::model::{EndTag, GameId, Outcome, Side, Time};
use arbiter_engine::tws::{Command, Event, Ladder, LadderRules, PairingPlan, ResultInput};
use arbiter_service::{Context, Service};
use arbiter_store::{EventStore, NewEvent};
use arbiter_store_sqlite::SqliteStore;
use chrono::{Duration, TimeZone, Utc};
use divan::Bencher;
use divan::counter::ItemsCount;
use tokio::runtime::Runtime;

// The allocator of the `arbiter` binary (crates/cli/src/main.rs).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

fn runtime() -> Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn t0() -> Time {
    Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap()
}

fn day(n: i64) -> Time {
    t0() + Duration::days(n)
}

fn seed(n: u32) -> Seed {
    let mut s = [0u8; 32];
    s[..4].copy_from_slice(&n.to_le_bytes());
    s[31] = 0xa5;
    s
}

fn ctx(at: Time) -> Context {
    Context::new("Mod One", at)
}

/// A file database with the production pragmas, and its directory.
fn open_store(rt: &Runtime) -> (SqliteStore, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let store = rt
        .block_on(SqliteStore::open(&dir.path().join("bench.db")))
        .unwrap();
    (store, dir)
}

fn result(game: GameId, at: Time) -> Command {
    let side = if game.0 % 2 == 1 {
        Side::Ussr
    } else {
        Side::Us
    };
    Command::RecordResult {
        game,
        result: ResultInput {
            outcome: Outcome::Win(side),
            ended_by: EndTag::Vp,
            vp: Some(if side == Side::Ussr { -20 } else { 20 }),
            turn: Some(7),
            note: None,
        },
        agreed: false,
        at,
    }
}

/// Events decided by the engine on a ladder kept up to date.
struct Builder {
    ladder: Ladder,
    events: Vec<Event>,
}

impl Builder {
    fn new() -> Self {
        Self {
            ladder: Ladder::default(),
            events: Vec::new(),
        }
    }

    /// Continue from a state already stored.
    fn after(ladder: Ladder) -> Self {
        Self {
            ladder,
            events: Vec::new(),
        }
    }

    fn run(&mut self, command: Command) {
        for e in self.ladder.decide(command).unwrap() {
            self.ladder.apply(&e);
            self.events.push(e);
        }
    }

    /// Created (committing `seed(1)`), two moderators, `members` players.
    fn ladder(&mut self, members: u32) {
        self.run(Command::Create {
            name: "Bench ladder".into(),
            rules: LadderRules::default(),
            seed_hash: draw::commitment(&seed(1)),
        });
        self.moderators();
        self.members(members);
    }

    fn moderators(&mut self) {
        for name in ["Mod One", "Mod Two"] {
            self.run(Command::AddModerator { name: name.into() });
        }
    }

    fn members(&mut self, members: u32) {
        for i in 1..=members {
            self.run(Command::Join {
                name: format!("Player {i}"),
                surname: None,
            });
        }
    }

    /// Announce round `round` (closing the previous one) at day 30 × round,
    /// with the seeds `seed(round)` and `seed(round + 1)`.
    fn announce(&mut self, round: u32) {
        let at = day(30 * i64::from(round));
        if self.ladder.open_round().is_some() {
            self.run(Command::CloseRound { at });
        }
        self.run(Command::AnnounceRound {
            at,
            deadline: None,
            plan: PairingPlan::Default { eliminator: None },
            seed: seed(round),
            next_seed_hash: draw::commitment(&seed(round + 1)),
        });
    }

    /// Results for the open games of the running round, while `keep_going`.
    fn results(&mut self, mut keep_going: impl FnMut(usize) -> bool) {
        let Some(round) = self.ladder.open_round() else {
            return;
        };
        let at = round.announced_at + Duration::days(1);
        let games = round.games.clone();
        for g in games {
            if !keep_going(self.events.len()) {
                return;
            }
            self.run(result(g, at));
        }
    }

    /// Append the events to `competition` in large batches.
    fn store(self, rt: &Runtime, store: &SqliteStore, competition: &str) -> Ladder {
        let at = t0().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        rt.block_on(async {
            for batch in self.events.chunks(5_000) {
                let new: Vec<NewEvent> = batch
                    .iter()
                    .map(|e| NewEvent {
                        kind: e.kind().to_string(),
                        payload: arbiter_record::encode(e),
                        actor: "bench".into(),
                        recorded_at: at.clone(),
                    })
                    .collect();
                let version = store.version(competition).await.unwrap();
                store
                    .append(competition, version, &new, None)
                    .await
                    .unwrap();
            }
        });
        self.ladder
    }
}

/// Competitions with round 1 running, their games handed out one by one.
struct Pool {
    members: u32,
    made: u32,
    competition: String,
    games: Vec<GameId>,
    next: usize,
}

impl Pool {
    /// The next open game, preparing a fresh competition when the current
    /// one has none left (and loading it into the service's cache).
    fn next_game(&mut self, rt: &Runtime, svc: &Service<SqliteStore>) -> (String, GameId) {
        if self.next == self.games.len() {
            self.made += 1;
            self.competition = format!("bench-{}-{}", self.members, self.made);
            let mut b = Builder::new();
            b.ladder(self.members);
            b.announce(1);
            let ladder = b.store(rt, svc.store(), &self.competition);
            self.games = ladder.open_round().unwrap().games.clone();
            self.next = 0;
            rt.block_on(svc.load(&self.competition, None)).unwrap();
        }
        self.next += 1;
        (self.competition.clone(), self.games[self.next - 1])
    }
}

#[divan::bench(args = [1_000, 20_000], sample_count = 100, sample_size = 20)]
fn record_result(bencher: Bencher, members: u32) {
    let rt = runtime();
    let (store, _dir) = open_store(&rt);
    let svc = Service::new(store);
    let pool = RefCell::new(Pool {
        members,
        made: 0,
        competition: String::new(),
        games: Vec::new(),
        next: 0,
    });
    let at = day(31);
    bencher
        .counter(ItemsCount::new(1usize))
        .with_inputs(|| pool.borrow_mut().next_game(&rt, &svc))
        .bench_local_values(|(competition, game)| {
            let done = rt
                .block_on(svc.execute(&competition, result(game, at), &ctx(at)))
                .unwrap();
            assert_eq!(done.events.len(), 1);
            done
        });
}

/// The store's share of `record_result`: the append (with its fsync) of one
/// encoded result event, straight to `SqliteStore`, without the service.
#[divan::bench(sample_count = 100, sample_size = 20)]
fn store_append_only(bencher: Bencher) {
    let rt = runtime();
    let (store, _dir) = open_store(&rt);
    let mut b = Builder::new();
    b.ladder(2);
    b.announce(1);
    let mut r = Builder::after(b.ladder.clone());
    r.run(result(GameId(1), day(31)));
    let event = arbiter_record::encode(&r.events[0]);
    b.store(&rt, &store, "raw");
    let version = std::cell::Cell::new(rt.block_on(store.version("raw")).unwrap());
    let new = [NewEvent {
        kind: "result-recorded".into(),
        payload: event,
        actor: "Mod One".into(),
        recorded_at: "2026-02-01T00:00:00Z".into(),
    }];
    bencher.counter(ItemsCount::new(1usize)).bench_local(|| {
        let done = rt
            .block_on(store.append("raw", version.get(), &new, None))
            .unwrap();
        version.set(done.last);
        done
    });
}

/// A 1,000-member ladder whose round 1 (announced through the service, so
/// that the committed seeds are in the store) has every result.
fn finished_round(rt: &Runtime, svc: &Service<SqliteStore>, competition: &str) {
    let mods = vec!["Mod One".to_string(), "Mod Two".to_string()];
    rt.block_on(svc.create_ladder(
        competition,
        "Bench ladder",
        LadderRules::default(),
        &mods,
        &ctx(t0()),
    ))
    .unwrap();
    let (ladder, _) = rt.block_on(svc.load(competition, None)).unwrap();
    let mut b = Builder::after(ladder);
    b.members(1_000);
    b.store(rt, svc.store(), competition);
    rt.block_on(svc.announce_round(
        competition,
        None,
        PairingPlan::Default { eliminator: None },
        false,
        &ctx(day(0)),
    ))
    .unwrap();
    let (ladder, _) = rt.block_on(svc.load(competition, None)).unwrap();
    let mut b = Builder::after(ladder);
    b.results(|_| true);
    b.store(rt, svc.store(), competition);
    // Warm the cache as a running server would have it.
    rt.block_on(svc.load(competition, None)).unwrap();
}

#[divan::bench(sample_count = 30, sample_size = 1)]
fn announce_1000(bencher: Bencher) {
    let rt = runtime();
    let (store, _dir) = open_store(&rt);
    let svc = Service::new(store);
    let made = RefCell::new(0u32);
    bencher
        .with_inputs(|| {
            let mut n = made.borrow_mut();
            *n += 1;
            let competition = format!("announce-{n}");
            finished_round(&rt, &svc, &competition);
            competition
        })
        .bench_local_values(|competition| {
            let (ladder, done) = rt
                .block_on(svc.announce_round(
                    &competition,
                    None,
                    PairingPlan::Default { eliminator: None },
                    false,
                    &ctx(day(30)),
                ))
                .unwrap();
            assert_eq!(done.events.len(), 2);
            ladder
        });
}

const REPLAY_EVENTS: usize = 100_000;

/// A store holding "replay": exactly [`REPLAY_EVENTS`] events of a
/// 1,000-member ladder (rounds announced, played and closed).
fn replay_store(rt: &Runtime) -> (SqliteStore, tempfile::TempDir) {
    let (store, dir) = open_store(rt);
    let mut b = Builder::new();
    b.ladder(1_000);
    let mut round = 0;
    while b.events.len() < REPLAY_EVENTS {
        round += 1;
        b.announce(round);
        b.results(|n| n < REPLAY_EVENTS);
    }
    assert_eq!(b.events.len(), REPLAY_EVENTS);
    b.store(rt, &store, "replay");
    assert_eq!(
        rt.block_on(store.version("replay")).unwrap(),
        REPLAY_EVENTS as u64
    );
    (store, dir)
}

#[divan::bench(sample_count = 20, sample_size = 1)]
fn replay_100k(bencher: Bencher) {
    let rt = runtime();
    let (store, _dir) = replay_store(&rt);
    bencher
        .counter(ItemsCount::new(REPLAY_EVENTS))
        .with_inputs(|| Service::new(store.clone()))
        .bench_local_values(|svc| {
            let (ladder, version) = rt.block_on(svc.load("replay", None)).unwrap();
            assert_eq!(version, REPLAY_EVENTS as u64);
            (svc, ladder)
        });
}

/// The parts of `replay_100k`, each over the same 100,000 events: reading
/// the rows from SQLite, decoding the JSON records, and checking and
/// applying the decoded events (what `Service::load` does with them).
mod replay_100k_parts {
    use super::*;

    #[divan::bench(sample_count = 20, sample_size = 1)]
    fn read(bencher: Bencher) {
        let rt = runtime();
        let (store, _dir) = replay_store(&rt);
        bencher
            .counter(ItemsCount::new(REPLAY_EVENTS))
            .bench_local(|| rt.block_on(store.read("replay", 1, None)).unwrap());
    }

    #[divan::bench(sample_count = 20, sample_size = 1)]
    fn decode(bencher: Bencher) {
        let rt = runtime();
        let (store, _dir) = replay_store(&rt);
        let payloads: Vec<String> = rt
            .block_on(store.read("replay", 1, None))
            .unwrap()
            .into_iter()
            .map(|s| s.payload)
            .collect();
        bencher
            .counter(ItemsCount::new(REPLAY_EVENTS))
            .bench_local(|| {
                payloads
                    .iter()
                    .map(|p| arbiter_record::decode(p).unwrap())
                    .collect::<Vec<Event>>()
            });
    }

    #[divan::bench(sample_count = 20, sample_size = 1)]
    fn check_and_apply(bencher: Bencher) {
        let rt = runtime();
        let (store, _dir) = replay_store(&rt);
        let events: Vec<Event> = rt
            .block_on(store.read("replay", 1, None))
            .unwrap()
            .iter()
            .map(|s| arbiter_record::decode(&s.payload).unwrap())
            .collect();
        bencher
            .counter(ItemsCount::new(REPLAY_EVENTS))
            .bench_local(|| {
                let mut ladder = Ladder::default();
                for e in &events {
                    ladder.check(e).unwrap();
                    ladder.apply(e);
                }
                ladder
            });
    }
}
