//! Crashes: `kill -9` of `arbiter serve` while it appends results, and of
//! `arbiter import` while it writes a 10,000-result competition, on SQLite
//! and on PostgreSQL (issue 7, part 3; the figures are in
//! docs/reliability.md).
//!
//! After every kill the server is started again on the same database and the
//! test checks: every result the client was told was stored (a 200) is
//! there, the competition's sequence numbers run 1, 2, 3 … without a gap,
//! and the state the restarted server shows is the fold of the log (the
//! same round as a fresh `arbiter` process folds from the same events). An
//! import is all or nothing: after the kill the competition is either
//! absent or whole, byte for byte the file that was imported.
//!
//! `CRASH_KILLS` sets how many kills (default 200 for the appends, 50 for
//! the import); `CRASH_SEED` the seed of the kill times.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use arbiter_store_postgres::testing;
use serde_json::{Value, json};

const PASSWORD: &str = "crash-test-password";
const COMP: &str = "crash";
/// Players on the ladder: 200 games per round.
const PLAYERS: usize = 400;

/// Where the database is: a SQLite file or a PostgreSQL URL, as `--db` takes it.
struct Db {
    spec: String,
    kind: &'static str,
    _dir: tempfile::TempDir,
    /// The PostgreSQL database, dropped with this.
    _pg: Option<testing::TestDatabase>,
}

impl Db {
    fn sqlite() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let spec = dir.path().join("arbiter.db").to_string_lossy().into_owned();
        Self {
            spec,
            kind: "sqlite",
            _dir: dir,
            _pg: None,
        }
    }

    fn postgres() -> Self {
        let pg = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(testing::fresh_database(&testing::server_url()))
            .unwrap();
        Self {
            spec: pg.url().to_string(),
            kind: "postgres",
            _dir: tempfile::tempdir().unwrap(),
            _pg: Some(pg),
        }
    }

    fn dir(&self) -> PathBuf {
        self._dir.path().to_path_buf()
    }

    fn command(&self) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_arbiter"));
        cmd.env("ARBITER_DETERMINISTIC_SEEDS", "test")
            .env_remove("ARBITER_COMPETITION")
            .env_remove("ARBITER_DB")
            .env_remove("ARBITER_ACTOR")
            .env_remove("ARBITER_PASSWORD")
            .args(["--db", &self.spec, "--actor", "tester"])
            .current_dir(common::workspace_root())
            .stdin(Stdio::null());
        cmd
    }

    /// `arbiter ARGS`, which must succeed: its standard output.
    #[track_caller]
    fn ok(&self, args: &[&str]) -> String {
        let out = self.command().args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{}: `arbiter {}` failed\n{}{}",
            self.kind,
            args.join(" "),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    fn ok_json(&self, args: &[&str]) -> Value {
        serde_json::from_str(&self.ok(args)).unwrap()
    }
}

/// A small deterministic generator for the kill times (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// An HTTP answer.
#[derive(Debug)]
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {} {}", self.status, self.body))
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// One HTTP/1.1 request on its own connection. An error when the server
/// died before it answered in full.
fn request(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, String)],
    body: Option<&Value>,
) -> std::io::Result<Answer> {
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(30)))?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    if !body.is_empty() {
        head.push_str("Content-Type: application/json\r\n");
    }
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes())?;
    s.write_all(body.as_bytes())?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw)?;
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let Some((head, body)) = raw.split_once("\r\n\r\n") else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::UnexpectedEof,
            "the connection closed before the answer's head",
        ));
    };
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| std::io::Error::other("no status line"))?;
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect::<Vec<_>>();
    let chunked = headers.iter().any(|(n, v)| {
        n.eq_ignore_ascii_case("transfer-encoding") && v.eq_ignore_ascii_case("chunked")
    });
    let body = if chunked {
        dechunk(body)?
    } else {
        body.to_string()
    };
    Ok(Answer {
        status,
        headers,
        body,
    })
}

/// The body of a chunked answer; an error when it was cut short.
fn dechunk(mut rest: &str) -> std::io::Result<String> {
    let mut out = String::new();
    loop {
        let Some((size, after)) = rest.split_once("\r\n") else {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "a chunked body cut short",
            ));
        };
        let size = usize::from_str_radix(size.trim(), 16)
            .map_err(|_| std::io::Error::other("a bad chunk size"))?;
        if size == 0 {
            return Ok(out);
        }
        if after.len() < size + 2 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "a chunk cut short",
            ));
        }
        out.push_str(&after[..size]);
        rest = &after[size + 2..];
    }
}

/// A running `arbiter serve`; `kill` is `kill -9`.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(db: &Db) -> Self {
        let mut child = db
            .command()
            .args(["serve", "--addr", "127.0.0.1:0", "--insecure-cookies"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let addr = loop {
            let mut line = String::new();
            if out.read_line(&mut line).unwrap() == 0 {
                panic!("{}: arbiter serve stopped before serving", db.kind);
            }
            if let Some(rest) = line.trim_end().strip_prefix("Arbiter serves http://") {
                break rest.trim_end_matches('/').to_string();
            }
        };
        std::thread::spawn(move || {
            let mut rest = String::new();
            let _ = out.read_to_string(&mut rest);
        });
        Self { child, addr }
    }

    /// SIGKILL: no destructor, no flush, no graceful shutdown.
    fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    fn get(&self, path: &str) -> Value {
        let a = request(&self.addr, "GET", path, &[], None).unwrap();
        assert_eq!(a.status, 200, "GET {path}: {}", a.body);
        a.json()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A logged-in moderator: the session cookie and its CSRF token.
#[derive(Clone)]
struct Login {
    cookie: String,
    csrf: String,
}

fn login(server: &Server) -> Login {
    let a = request(
        &server.addr,
        "POST",
        "/api/session",
        &[],
        Some(&json!({"username": "jordan", "password": PASSWORD})),
    )
    .unwrap();
    assert_eq!(a.status, 200, "login: {}", a.body);
    let cookie = a
        .headers
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case("set-cookie"))
        .find_map(|(_, v)| {
            v.strip_prefix("arbiter_session=")
                .map(|c| c.split(';').next().unwrap_or_default().to_string())
        })
        .expect("a session cookie");
    let csrf = a.json()["csrf_token"].as_str().unwrap().to_string();
    Login { cookie, csrf }
}

/// POST an action with `If-Match: version` and an idempotency key.
fn act(addr: &str, who: &Login, version: u64, key: &str, body: &Value) -> std::io::Result<Answer> {
    request(
        addr,
        "POST",
        &format!("/api/competitions/{COMP}/actions"),
        &[
            ("Cookie", format!("arbiter_session={}", who.cookie)),
            ("X-CSRF-Token", who.csrf.clone()),
            ("If-Match", format!("\"v{version}\"")),
            ("Idempotency-Key", key.to_string()),
        ],
        Some(body),
    )
}

/// The competition's version, from its ETag.
fn version(server: &Server) -> u64 {
    let a = request(
        &server.addr,
        "GET",
        &format!("/api/competitions/{COMP}"),
        &[],
        None,
    )
    .unwrap();
    assert_eq!(a.status, 200, "{}", a.body);
    let tag = a.header("etag").expect("an ETag");
    tag.trim_matches('"')
        .trim_start_matches('v')
        .parse()
        .unwrap()
}

/// The ladder with its players, an account `jordan` owning it, round 1 announced.
fn prepare(db: &Db) {
    let mut script = format!(
        "competition create {COMP} --name \"Crash Ladder\" --preset tws-ladder --moderator Jordan\n"
    );
    for i in 0..PLAYERS {
        script.push_str(&format!("player add \"Player {i:03}\"\n"));
    }
    script.push_str("round announce\n");
    let path = db.dir().join("setup.txt");
    std::fs::write(&path, script).unwrap();
    db.ok(&["script", &path.to_string_lossy()]);
    let mut add = db
        .command()
        .args([
            "account",
            "add",
            "jordan",
            "--name",
            "Jordan",
            "--organizer",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    writeln!(add.stdin.take().unwrap(), "{PASSWORD}").unwrap();
    assert!(add.wait().unwrap().success());
    db.ok(&["account", "grant", "jordan", COMP, "--role", "owner"]);
}

/// The running round: its number and its undecided games (id, the two players).
fn running_round(server: &Server) -> (u64, Vec<(String, String, String)>) {
    let comp = server.get(&format!("/api/competitions/{COMP}"));
    let n = comp["view"]["current_round"]
        .as_u64()
        .expect("a running round");
    let round = server.get(&format!("/api/competitions/{COMP}/rounds/{n}"));
    let open = round["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["result"].is_null())
        .map(|g| {
            (
                g["id"].as_str().unwrap().to_string(),
                g["ussr"].as_str().unwrap().to_string(),
                g["us"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    (n, open)
}

/// Check the log after a restart: gapless, holding every acknowledged
/// result, and the server's state equal to a fresh process's fold.
fn check(db: &Db, server: &Server, acked: &BTreeMap<(u64, String), String>, kill: u64) {
    let history = db.ok_json(&["-c", COMP, "history", "--json"]);
    let seqs: Vec<u64> = history
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["seq"].as_u64().unwrap())
        .collect();
    let expected: Vec<u64> = (1..=seqs.len() as u64).collect();
    assert_eq!(seqs, expected, "{} kill {kill}: a gap in the log", db.kind);
    assert_eq!(
        version(server),
        seqs.len() as u64,
        "{} kill {kill}: the server's version is not the log's",
        db.kind
    );
    let mut rounds: BTreeMap<u64, Value> = BTreeMap::new();
    for ((round, game), winner) in acked {
        let r = rounds
            .entry(*round)
            .or_insert_with(|| server.get(&format!("/api/competitions/{COMP}/rounds/{round}")));
        let g = r["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == game.as_str())
            .unwrap();
        assert!(
            !g["result"].is_null() && g.to_string().contains(winner.as_str()),
            "{} kill {kill}: the acknowledged result of {game} (round {round}, {winner}) is lost: {g}",
            db.kind
        );
    }
    // The restarted server's round is the fold a fresh process makes.
    let (n, _) = running_round(server);
    let served = server.get(&format!("/api/competitions/{COMP}/rounds/{n}"));
    let folded = db.ok_json(&["-c", COMP, "round", "show", &n.to_string(), "--json"]);
    assert_eq!(
        served["games"], folded["games"],
        "{} kill {kill}: the server's round {n} is not the fold of the log",
        db.kind
    );
}

fn result_body(game: &str, winner: &str) -> Value {
    json!({"action": "record-result", "game": game,
           "result": {"winner": winner, "ended_by": "concession"}})
}

/// The kill test of single-result appends on one backend; returns (kills,
/// kills with a request in flight, acknowledged results).
fn kill_during_appends(db: &Db) -> (u64, u64, usize) {
    prepare(db);
    let kills = env_number("CRASH_KILLS", 200);
    let mut rng = Rng(env_number("CRASH_SEED", 7));
    let mut acked: BTreeMap<(u64, String), String> = BTreeMap::new();
    let mut in_flight_kills = 0;
    for kill in 0..kills {
        let server = Server::start(db);
        check(db, &server, &acked, kill);
        let who = login(&server);
        let (mut round, mut open) = running_round(&server);
        if open.len() < 20 {
            // Finish the round and announce the next, outside the kill window.
            let mut v = version(&server);
            for (game, ussr, _) in &open {
                let a = act(
                    &server.addr,
                    &who,
                    v,
                    &format!("finish-{round}-{game}"),
                    &result_body(game, ussr),
                )
                .unwrap();
                assert_eq!(a.status, 200, "{}", a.body);
                v = a.json()["version"].as_u64().unwrap();
                acked.insert((round, game.clone()), ussr.clone());
            }
            let a = act(
                &server.addr,
                &who,
                v,
                &format!("announce-{}", round + 1),
                &json!({"action": "announce-round"}),
            )
            .unwrap();
            assert_eq!(a.status, 200, "{}", a.body);
            (round, open) = running_round(&server);
        }
        let start_version = version(&server);
        let addr = server.addr.clone();
        let done: Arc<Mutex<Vec<(String, String)>>> = Arc::default();
        let flying = Arc::new(Mutex::new(false));
        let client = {
            let done = Arc::clone(&done);
            let flying = Arc::clone(&flying);
            let who = who.clone();
            std::thread::spawn(move || {
                let mut v = start_version;
                for (i, (game, ussr, us)) in open.into_iter().enumerate() {
                    let winner = if i % 2 == 0 { ussr } else { us };
                    *flying.lock().unwrap() = true;
                    let answer = act(
                        &addr,
                        &who,
                        v,
                        &format!("r{round}-{game}"),
                        &result_body(&game, &winner),
                    );
                    match answer {
                        Ok(a) if a.status == 200 => {
                            v = a.json()["version"].as_u64().unwrap();
                            done.lock().unwrap().push((game, winner));
                            *flying.lock().unwrap() = false;
                        }
                        Ok(a) => panic!("record {game}: {} {}", a.status, a.body),
                        Err(_) => return,
                    }
                }
            })
        };
        // Kill at a random moment while the client appends.
        std::thread::sleep(Duration::from_micros(500 + rng.below(60_000)));
        let was_flying = *flying.lock().unwrap();
        server.kill();
        client.join().expect("the client thread");
        if was_flying {
            in_flight_kills += 1;
        }
        for (game, winner) in done.lock().unwrap().drain(..) {
            acked.insert((round, game), winner);
        }
    }
    let server = Server::start(db);
    check(db, &server, &acked, kills);
    (kills, in_flight_kills, acked.len())
}

#[test]
fn kill_9_during_result_appends_on_sqlite() {
    let started = Instant::now();
    let db = Db::sqlite();
    let (kills, flying, acked) = kill_during_appends(&db);
    eprintln!(
        "sqlite: {kills} kills ({flying} with a request in flight), {acked} acknowledged results, 0 lost, in {:.1?}",
        started.elapsed()
    );
}

#[test]
fn kill_9_during_result_appends_on_postgres() {
    let started = Instant::now();
    let db = Db::postgres();
    let (kills, flying, acked) = kill_during_appends(&db);
    eprintln!(
        "postgres: {kills} kills ({flying} with a request in flight), {acked} acknowledged results, 0 lost, in {:.1?}",
        started.elapsed()
    );
}

/// Results in the competition the import test writes.
const IMPORT_RESULTS: usize = 10_000;

/// An export file of a ladder with 10,000 results (200 players, 100
/// rounds of 100 games), built once through the service and `arbiter
/// export`, shared by both backends' tests.
fn big_export() -> &'static PathBuf {
    static FILE: std::sync::OnceLock<(tempfile::TempDir, PathBuf)> = std::sync::OnceLock::new();
    &FILE
        .get_or_init(|| {
            use arbiter_engine::model::{EndTag, GameStatus, Outcome, Side};
            use arbiter_engine::tws::{Command, LadderRules, PairingPlan, ResultInput};
            use arbiter_service::{Context, SeedSource, Service};
            use chrono::{TimeZone, Utc};

            let db = Db::sqlite();
            let path = db.dir().join("big.db");
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async {
                let store = arbiter_store_sqlite::SqliteStore::open(&path)
                    .await
                    .unwrap();
                let svc = Service::new(store.clone())
                    .with_seeds(SeedSource::Deterministic("crash-import".into()));
                let t0 = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
                let at = |days: i64| t0 + chrono::Duration::days(days);
                let ctx = |days: i64| Context::new("Mod", at(days));
                svc.create_ladder(
                    "big",
                    "Big Ladder",
                    LadderRules::default(),
                    &["Mod".to_string()],
                    &ctx(0),
                )
                .await
                .unwrap();
                for i in 0..200 {
                    svc.execute(
                        "big",
                        Command::Join {
                            name: format!("Player {i:03}"),
                            surname: None,
                        },
                        &ctx(0),
                    )
                    .await
                    .unwrap();
                }
                let mut results = 0;
                let mut round = 0;
                while results < IMPORT_RESULTS {
                    let day = 1 + 2 * round;
                    svc.announce_round(
                        "big",
                        None,
                        PairingPlan::Default { eliminator: None },
                        false,
                        &ctx(day),
                    )
                    .await
                    .unwrap();
                    let (ladder, _) = svc.load("big", None).await.unwrap();
                    let games: Vec<_> = ladder
                        .open_round()
                        .map(|r| r.games.clone())
                        .unwrap_or_default()
                        .into_iter()
                        .filter(|g| {
                            ladder
                                .game(*g)
                                .is_some_and(|g| g.status == GameStatus::Scheduled)
                        })
                        .collect();
                    for g in games {
                        let side = if (g.0 + round as u32).is_multiple_of(3) {
                            Side::Us
                        } else {
                            Side::Ussr
                        };
                        let command = Command::RecordResult {
                            game: g,
                            result: ResultInput {
                                outcome: Outcome::Win(side),
                                ended_by: EndTag::Concession,
                                vp: None,
                                turn: None,
                                note: None,
                            },
                            agreed: false,
                            at: at(day + 1),
                        };
                        svc.execute("big", command, &ctx(day + 1)).await.unwrap();
                        results += 1;
                    }
                    round += 1;
                }
                store.close().await;
            });
            let spec = path.to_string_lossy().into_owned();
            let file = db.dir().join("big.jsonl");
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
                .args(["--db", &spec, "export", "-c", "big", "-o"])
                .arg(&file)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            (db._dir, file)
        })
        .1
}

/// `arbiter export -c big` of `db`, or `None` when it has no competition `big`.
fn export_of(db: &Db) -> Option<Vec<u8>> {
    // An import killed while its file was still being read never opened the
    // database, so made none (issue 14, item 6).
    if db.kind == "sqlite" && !std::path::Path::new(&db.spec).exists() {
        return None;
    }
    let list = db.ok_json(&["competition", "list", "--json"]);
    let present = list.as_array().unwrap().iter().any(|c| c["id"] == "big");
    if !present {
        return None;
    }
    let out = db.command().args(["-c", "big", "export"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(out.stdout)
}

/// `kill -9` of `arbiter import` at random moments, on databases made by
/// `make` (a new one after each import that got through); returns (kills,
/// kills that left nothing, kills after which it was whole).
fn kill_during_import(make: fn() -> Db) -> (u64, u64, u64, Duration) {
    let file = big_export();
    let original = std::fs::read(file).unwrap();
    let kills = env_number("CRASH_IMPORT_KILLS", 50);
    let mut rng = Rng(env_number("CRASH_SEED", 7) ^ 0x1111);
    let mut db = make();
    // How long a whole import takes here, to spread the kills over it.
    let started = Instant::now();
    let timing = make();
    timing.ok(&["import", &file.to_string_lossy()]);
    let whole = started.elapsed().as_micros() as u64;
    assert_eq!(
        export_of(&timing).as_deref(),
        Some(&original[..]),
        "{}: the import is not the file",
        db.kind
    );
    drop(timing);
    let (mut none, mut complete) = (0, 0);
    for kill in 0..kills {
        let mut child = db
            .command()
            .args(["import", &file.to_string_lossy()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Between a fifth of the way (past the start and the parse) and a
        // little after the end.
        let whole = whole.max(1_000);
        std::thread::sleep(Duration::from_micros(whole / 5 + rng.below(whole * 9 / 10)));
        let _ = child.kill();
        let _ = child.wait();
        match export_of(&db) {
            None => none += 1,
            Some(bytes) => {
                assert!(
                    bytes == original,
                    "{} kill {kill}: a partial import ({} bytes of {})",
                    db.kind,
                    bytes.len(),
                    original.len()
                );
                complete += 1;
                db = make();
            }
        }
    }
    (kills, none, complete, Duration::from_micros(whole))
}

#[test]
fn kill_9_during_a_10000_result_import_on_sqlite() {
    let started = Instant::now();
    let (kills, none, whole, import) = kill_during_import(Db::sqlite);
    eprintln!(
        "sqlite: {kills} kills during a {IMPORT_RESULTS}-result import ({import:.1?} whole): {none} left nothing, {whole} left it whole, 0 partial, in {:.1?}",
        started.elapsed()
    );
}

#[test]
fn kill_9_during_a_10000_result_import_on_postgres() {
    let started = Instant::now();
    let (kills, none, whole, import) = kill_during_import(Db::postgres);
    eprintln!(
        "postgres: {kills} kills during a {IMPORT_RESULTS}-result import ({import:.1?} whole): {none} left nothing, {whole} left it whole, 0 partial, in {:.1?}",
        started.elapsed()
    );
}
