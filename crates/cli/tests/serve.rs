//! `arbiter serve`: the real binary serving the demo on a loopback port,
//! another `arbiter` process writing to the same database meanwhile, and
//! Ctrl-C (SIGINT) stopping it gracefully.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::time::Duration;

use common::Arbiter;

/// A running `arbiter serve`, stopped (SIGINT, then killed) when dropped.
struct Server {
    child: Child,
    addr: String,
    lines: Vec<String>,
}

impl Server {
    fn start(a: &Arbiter, args: &[&str]) -> Self {
        let mut child = a
            .command()
            .args(["serve", "--addr", "127.0.0.1:0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start arbiter serve");
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut lines = Vec::new();
        let addr = loop {
            let mut line = String::new();
            if out.read_line(&mut line).unwrap() == 0 {
                panic!("arbiter serve stopped before serving: {lines:?}");
            }
            let line = line.trim_end().to_string();
            lines.push(line.clone());
            if let Some(rest) = line.strip_prefix("Arbiter serves http://") {
                break rest.trim_end_matches('/').to_string();
            }
        };
        // Keep reading the rest of the output, so the pipe never fills.
        std::thread::spawn(move || {
            let mut rest = String::new();
            let _ = out.read_to_string(&mut rest);
        });
        Self { child, addr, lines }
    }

    /// GET `path`: the status and the body.
    fn get(&self, path: &str) -> (u16, String) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.addr
        )
        .unwrap();
        let mut response = String::new();
        s.read_to_string(&mut response).unwrap();
        let status = response
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        let body = response
            .split_once("\r\n\r\n")
            .map(|(_, b)| b.to_string())
            .unwrap_or_default();
        (status, body)
    }

    fn json(&self, path: &str) -> serde_json::Value {
        let (status, body) = self.get(path);
        assert_eq!(status, 200, "{path}: {body}");
        serde_json::from_str(&body).unwrap()
    }

    /// SIGINT (Ctrl-C), then wait for the exit.
    fn interrupt(&mut self) -> std::process::ExitStatus {
        let pid = self.child.id().to_string();
        let sent = std::process::Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .unwrap();
        assert!(sent.success());
        for _ in 0..200 {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("arbiter serve did not stop on Ctrl-C");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[test]
fn serve_demo_serves_the_demo_and_sees_another_process_write() {
    let a = Arbiter::new();
    // --db names a file that does not exist yet: the demo is built there.
    let mut server = Server::start(&a, &["--demo"]);
    assert_eq!(
        server.lines[0],
        "Built the demo competitions: tws-demo, xmadn-league-demo, xmadn-challengers-demo, sunjang-demo."
    );
    // The seed formats' four, the two demo round robins (issue 16) and the
    // two XMadn competitions open for players' reports (ARB-R81).
    let health = server.json("/api/health");
    assert_eq!(health["competitions"], 8);
    let list = server.json("/api/competitions");
    let formats: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["format"].as_str().unwrap())
        .collect();
    assert_eq!(
        formats,
        [
            "round-robin",
            "round-robin",
            "sunjang-league",
            "tws-ladder",
            "xmadn-challengers",
            "xmadn-challengers",
            "xmadn-league",
            "xmadn-league"
        ]
    );
    let before = server.json("/api/competitions/tws-demo")["view"]["version"]
        .as_u64()
        .unwrap();
    // The CLI writes to the same database while the server runs.
    a.ok(&["-c", "tws-demo", "player", "apply", "Nora Quist"]);
    let after = server.json("/api/competitions/tws-demo");
    assert_eq!(after["view"]["version"], before + 1);
    assert_eq!(after["view"]["applicants"][0], "Nora Quist");
    let (status, body) = server.get("/api/competitions/nope");
    assert_eq!(status, 404, "{body}");
    assert!(body.contains("\"code\":\"not-found\""), "{body}");
    // Ctrl-C: a graceful stop, exit code 0.
    let status = server.interrupt();
    assert!(status.success(), "{status:?}");
    assert_eq!(
        a.ok_json(&["competition", "list", "--json"]),
        list_after(&list)
    );
}

/// The list as the CLI prints it after one more event in the ladder.
fn list_after(list: &serde_json::Value) -> serde_json::Value {
    let mut list = list.clone();
    for c in list.as_array_mut().unwrap() {
        if c["id"] == "tws-demo" {
            c["version"] = (c["version"].as_u64().unwrap() + 1).into();
        }
    }
    list
}

#[test]
fn serve_demo_refuses_a_database_that_holds_competitions() {
    let a = Arbiter::new();
    a.ok(&[
        "competition",
        "create",
        "club",
        "--name",
        "Club",
        "--preset",
        "tws-ladder",
    ]);
    a.run(&["serve", "--demo", "--addr", "127.0.0.1:0"])
        .fails_with(1)
        .stderr_names(&["--demo needs a fresh database", "holds 1 competition"]);
}

#[test]
fn serve_says_when_it_cannot_listen() {
    let a = Arbiter::new();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    a.run(&["serve", "--addr", &addr])
        .fails_with(1)
        .stderr_names(&["cannot listen on", &addr]);
}

#[test]
fn a_script_cannot_serve() {
    let a = Arbiter::new();
    a.script("s.txt", "serve\n")
        .fails_with(2)
        .stderr_names(&["a script cannot run `script`, `demo`, `serve` or `account`"]);
    a.script("t.txt", "account list\n")
        .fails_with(2)
        .stderr_names(&["a script cannot run"]);
}
