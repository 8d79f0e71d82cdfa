//! `kill -9` of `arbiter serve` between the append of an event and the
//! delivery of its webhook notification (issue 18 §3): the notification is
//! neither lost nor delivered twice beyond at-least-once — a receiver that
//! deduplicates by the `X-Arbiter-Delivery` id counts it exactly once.
//!
//! The receiver (a plain TCP listener on a loopback port, in this test)
//! first takes the request and never answers, so the server is killed
//! while its delivery is in flight; started again on the same database,
//! the server delivers the notification again with the same id once the
//! dead worker's lease ran out, and this time the receiver answers 204.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use arbiter_store::{EventStore, Webhook, WebhookKind, WebhookStore};
use arbiter_store_sqlite::SqliteStore;

const COMP: &str = "hooked";

fn arbiter(db: &str) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    cmd.env("ARBITER_DETERMINISTIC_SEEDS", "test")
        .env_remove("ARBITER_COMPETITION")
        .env_remove("ARBITER_DB")
        .env_remove("ARBITER_ACTOR")
        .args(["--db", db, "--actor", "tester"])
        .current_dir(common::workspace_root())
        .stdin(Stdio::null());
    cmd
}

#[track_caller]
fn ok(db: &str, args: &[&str]) {
    let out = arbiter(db).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "`arbiter {}` failed\n{}{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Each request the receiver got: its delivery id and body.
type Got = Arc<Mutex<Vec<(String, String)>>>;

/// A receiver on 127.0.0.1:0: records each request, then answers 204 when
/// `answer` is set, or holds the connection open without a word.
fn receiver(answer: Arc<AtomicBool>) -> (u16, Got) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let got: Got = Arc::default();
    let kept = Arc::clone(&got);
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let Some((id, body)) = read_request(&stream) else {
                continue;
            };
            kept.lock().unwrap().push((id, body));
            if answer.load(Ordering::SeqCst) {
                let _ = stream.write_all(b"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n");
            } else {
                held.push(stream);
            }
        }
    });
    (port, got)
}

fn read_request(stream: &TcpStream) -> Option<(String, String)> {
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut length = 0;
    let mut id = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            match name.trim().to_ascii_lowercase().as_str() {
                "content-length" => length = value.trim().parse().ok()?,
                "x-arbiter-delivery" => id = value.trim().to_string(),
                _ => {}
            }
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some((id, String::from_utf8_lossy(&body).into_owned()))
}

fn serve(db: &str) -> Child {
    let mut child = arbiter(db)
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--webhooks-to-private",
            "--webhook-timeout",
            "1",
            "--base-url",
            "https://arbiter.example",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    loop {
        let mut line = String::new();
        assert!(
            out.read_line(&mut line).unwrap() > 0,
            "arbiter serve stopped"
        );
        if line.starts_with("Arbiter serves http://") {
            break;
        }
    }
    std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = out.read_to_string(&mut rest);
    });
    child
}

fn wait_for(what: &str, limit: Duration, done: impl Fn() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "waited {limit:?} for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn kill_9_between_the_append_and_the_delivery_loses_no_notification() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("arbiter.db").to_string_lossy().into_owned();
    let script = dir.path().join("setup.txt");
    std::fs::write(
        &script,
        format!(
            "competition create {COMP} --name \"Hooked\" --preset tws-ladder --moderator Jordan\n\
             player add \"Alice Adams\"\nplayer add \"Bob Brown\"\n\
             player add \"Carol Clark\"\nplayer add \"Dan Dunn\"\n"
        ),
    )
    .unwrap();
    ok(&db, &["script", &script.to_string_lossy()]);
    let answer = Arc::new(AtomicBool::new(false));
    let (port, got) = receiver(Arc::clone(&answer));
    let rt = runtime();
    rt.block_on(async {
        let store = SqliteStore::open(std::path::Path::new(&db)).await.unwrap();
        store
            .add_webhook(&Webhook {
                id: "w1".into(),
                competition: COMP.into(),
                kind: WebhookKind::Generic,
                url: format!("http://127.0.0.1:{port}/hook"),
                secret: "s3cret".into(),
                label: "crash".into(),
                created_by: "tester".into(),
                created_at: "2026-12-05T00:00:00Z".into(),
                disabled: None,
                failures: 0,
            })
            .await
            .unwrap();
        store.close().await;
    });

    // The append, with the server running: its worker takes the row and
    // posts it; the receiver holds the request, and the server dies.
    let mut server = serve(&db);
    ok(&db, &["round", "announce"]);
    wait_for("the first attempt", Duration::from_secs(20), || {
        !got.lock().unwrap().is_empty()
    });
    server.kill().unwrap();
    server.wait().unwrap();
    let version = rt.block_on(async {
        let store = SqliteStore::open(std::path::Path::new(&db)).await.unwrap();
        let version = store.version(COMP).await.unwrap();
        let rows = store.outbox(COMP).await.unwrap();
        assert_eq!(
            rows.len(),
            1,
            "the notification survived the kill: {rows:?}"
        );
        assert_eq!(rows[0].key.seq, version);
        store.close().await;
        version
    });
    let id = format!("{COMP}:{version}:w1");

    // Restarted: the row is delivered again, and answered this time.
    answer.store(true, Ordering::SeqCst);
    let mut server = serve(&db);
    wait_for(
        "the delivery after the restart",
        Duration::from_secs(30),
        || got.lock().unwrap().len() >= 2,
    );
    let store_empty = || {
        rt.block_on(async {
            let store = SqliteStore::open(std::path::Path::new(&db)).await.unwrap();
            let empty = store.outbox(COMP).await.unwrap().is_empty();
            store.close().await;
            empty
        })
    };
    wait_for("the outbox to empty", Duration::from_secs(10), store_empty);
    // A few more polls send nothing more.
    std::thread::sleep(Duration::from_millis(1500));
    server.kill().unwrap();
    server.wait().unwrap();
    let got = got.lock().unwrap().clone();
    assert_eq!(
        got.len(),
        2,
        "one attempt cut by the kill, one answered: {got:?}"
    );
    assert!(
        got.iter().all(|(i, _)| *i == id),
        "one idempotency id: {got:?}"
    );
    assert_eq!(got[0].1, got[1].1, "the same notification both times");
    let mut ids: Vec<&str> = got.iter().map(|(i, _)| i.as_str()).collect();
    ids.dedup();
    assert_eq!(
        ids,
        vec![id.as_str()],
        "deduplicated by its id, it arrived once"
    );
    let body: serde_json::Value = serde_json::from_str(&got[1].1).unwrap();
    assert_eq!(body["kind"], "round-announced");
    assert_eq!(body["version"], version);
    assert_eq!(body["url"], format!("https://arbiter.example/c/{COMP}"));
}
