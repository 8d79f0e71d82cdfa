//! E-mail end to end: round announcements of the demo ladder sent through
//! `Mailer` to a local SMTP catcher written here (a tokio listener on
//! 127.0.0.1 speaking enough SMTP, collecting what it is sent), deadline
//! reminders at fixed times, the recipients from an account store, and the
//! configuration's errors.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use arbiter_engine::model::Time;
use arbiter_server::mail::{
    self, MailConfig, MailConfigError, Mailer, OutgoingMail, Security, SmtpUrl,
};
use arbiter_service::Service;
use arbiter_service::views::{self, RoundView};
use arbiter_store::{
    Account, AccountStore, ApiToken, CalendarFeed, FeedOwner, Grant, Role, Session, StoreError,
};
use arbiter_store_sqlite::SqliteStore;
use async_trait::async_trait;
use chrono::{Duration, TimeZone, Utc};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};

const BASE: &str = "https://arbiter.test";

// ---------------------------------------------------------------- the catcher

/// One message the catcher accepted.
#[derive(Debug, Clone)]
struct Caught {
    from: String,
    rcpt: Vec<String>,
    data: String,
}

struct Catcher {
    addr: SocketAddr,
    caught: Arc<Mutex<Vec<Caught>>>,
    connections: Arc<Mutex<u32>>,
}

impl Catcher {
    /// Listen on 127.0.0.1, refusing `RCPT TO` for the addresses in
    /// `reject` (550).
    async fn start(reject: &[&str]) -> Catcher {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let caught = Arc::new(Mutex::new(Vec::new()));
        let connections = Arc::new(Mutex::new(0));
        let reject: Arc<Vec<String>> = Arc::new(reject.iter().map(|s| s.to_string()).collect());
        let (c, n) = (caught.clone(), connections.clone());
        tokio::spawn(async move {
            while let Ok((sock, _)) = listener.accept().await {
                *n.lock().unwrap() += 1;
                let (c, reject) = (c.clone(), reject.clone());
                tokio::spawn(async move {
                    let _ = session(sock, c, reject).await;
                });
            }
        });
        Catcher {
            addr,
            caught,
            connections,
        }
    }

    fn url(&self) -> String {
        format!("smtp://{}", self.addr)
    }

    fn mailer(&self) -> Mailer {
        Mailer::new(&MailConfig {
            smtp: self.url(),
            from: "Arbiter <arbiter@example.org>".into(),
        })
        .unwrap()
    }

    fn caught(&self) -> Vec<Caught> {
        self.caught.lock().unwrap().clone()
    }
}

/// `<addr>` of `MAIL FROM:<addr>` or `RCPT TO:<addr> …`.
fn angle(arg: &str) -> String {
    let start = arg.find('<').map_or(0, |i| i + 1);
    let end = arg[start..].find('>').map_or(arg.len(), |i| start + i);
    arg[start..end].to_string()
}

async fn session(
    sock: TcpStream,
    caught: Arc<Mutex<Vec<Caught>>>,
    reject: Arc<Vec<String>>,
) -> std::io::Result<()> {
    let (r, mut w) = sock.into_split();
    let mut r = BufReader::new(r);
    w.write_all(b"220 catcher.test ESMTP ready\r\n").await?;
    let mut from = String::new();
    let mut rcpt: Vec<String> = Vec::new();
    loop {
        let mut buf = Vec::new();
        if r.read_until(b'\n', &mut buf).await? == 0 {
            return Ok(());
        }
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim_end_matches(['\r', '\n']);
        let verb = line
            .split([' ', ':'])
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        let reply: &[u8] = match verb.as_str() {
            "EHLO" => b"250-catcher.test\r\n250-8BITMIME\r\n250 SIZE 10000000\r\n",
            "HELO" => b"250 catcher.test\r\n",
            "MAIL" => {
                from = angle(line);
                rcpt.clear();
                b"250 OK\r\n"
            }
            "RCPT" => {
                let to = angle(line);
                if reject.contains(&to) {
                    b"550 5.1.1 no such user\r\n"
                } else {
                    rcpt.push(to);
                    b"250 OK\r\n"
                }
            }
            "DATA" => {
                w.write_all(b"354 end with <CRLF>.<CRLF>\r\n").await?;
                let mut data = Vec::new();
                loop {
                    let mut l = Vec::new();
                    if r.read_until(b'\n', &mut l).await? == 0 {
                        return Ok(());
                    }
                    if l == b".\r\n" {
                        break;
                    }
                    // Dot-unstuffing.
                    let l = l.strip_prefix(b".").unwrap_or(&l);
                    data.extend_from_slice(l);
                }
                caught.lock().unwrap().push(Caught {
                    from: std::mem::take(&mut from),
                    rcpt: std::mem::take(&mut rcpt),
                    data: String::from_utf8(data).expect("the message is 7-bit clean"),
                });
                b"250 OK queued\r\n"
            }
            "RSET" => {
                from.clear();
                rcpt.clear();
                b"250 OK\r\n"
            }
            "NOOP" => b"250 OK\r\n",
            "QUIT" => {
                w.write_all(b"221 bye\r\n").await?;
                return Ok(());
            }
            _ => b"502 command not implemented\r\n",
        };
        w.write_all(reply).await?;
    }
}

// ---------------------------------------------- reading what was caught

/// A caught message's unfolded headers (name lower-cased, in order) and
/// decoded body.
struct Parsed {
    headers: Vec<(String, String)>,
    body: String,
}

impl Parsed {
    fn header(&self, name: &str) -> String {
        let found: Vec<&String> = self
            .headers
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v)
            .collect();
        assert_eq!(found.len(), 1, "one {name} header in {:?}", self.headers);
        decode_words(found[0])
    }
}

fn parse(raw: &str) -> Parsed {
    let (head, body) = raw.split_once("\r\n\r\n").expect("headers end");
    let mut headers: Vec<(String, String)> = Vec::new();
    for line in head.split("\r\n") {
        if line.starts_with([' ', '\t']) {
            let last = headers.last_mut().expect("a continuation after a header");
            last.1.push_str(line);
        } else {
            let (n, v) = line.split_once(':').expect("name: value");
            headers.push((n.to_ascii_lowercase(), v.trim_start().to_string()));
        }
    }
    let encoding = headers
        .iter()
        .find(|(n, _)| n == "content-transfer-encoding")
        .map(|(_, v)| v.to_ascii_lowercase())
        .unwrap_or_else(|| "7bit".into());
    let bytes = match encoding.as_str() {
        "7bit" | "8bit" => body.as_bytes().to_vec(),
        "quoted-printable" => quoted_printable(body),
        "base64" => base64(body),
        other => panic!("unexpected encoding {other}"),
    };
    Parsed {
        headers,
        body: String::from_utf8(bytes)
            .expect("a UTF-8 body")
            .replace("\r\n", "\n"),
    }
}

fn quoted_printable(s: &str) -> Vec<u8> {
    let s = s.replace("=\r\n", "");
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'=' {
            out.push(u8::from_str_radix(&s[i + 1..i + 3], 16).expect("=XX"));
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

fn base64(s: &str) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in s.bytes().filter(|c| !c.is_ascii_whitespace() && *c != b'=') {
        let v = ALPHABET.iter().position(|a| *a == c).expect("base64") as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

/// RFC 2047 encoded words (`=?utf-8?b?…?=`, `=?utf-8?q?…?=`) decoded;
/// whitespace between two encoded words dropped.
fn decode_words(v: &str) -> String {
    let mut out = String::new();
    let mut rest = v;
    let mut last_was_word = false;
    while let Some(start) = rest.find("=?") {
        let before = &rest[..start];
        let after = &rest[start + 2..];
        let parts: Vec<&str> = after.splitn(3, '?').collect();
        let Some(end) = parts.get(2).and_then(|p| p.find("?=")) else {
            break;
        };
        if !(last_was_word && before.trim().is_empty()) {
            out.push_str(before);
        }
        let text = &parts[2][..end];
        let bytes = match parts[1].to_ascii_lowercase().as_str() {
            "b" => base64(text),
            "q" => quoted_printable(&text.replace('_', " ")),
            other => panic!("encoding {other}"),
        };
        out.push_str(&String::from_utf8(bytes).expect("UTF-8 word"));
        rest = &parts[2][end + 2..];
        last_was_word = true;
    }
    out.push_str(rest);
    out
}

// ------------------------------------------------------------ the demo

struct Demo {
    svc: Service<SqliteStore>,
    id: String,
    now: Time,
}

async fn demo() -> Demo {
    let store = SqliteStore::open_in_memory().await.unwrap();
    let built = arbiter_demo::build(&store, "tws-demo").await.unwrap();
    Demo {
        svc: Service::new(store),
        id: built.ladder.0,
        now: built.now,
    }
}

impl Demo {
    /// The running round, as shown at `now`.
    async fn round(&self, now: Time) -> RoundView {
        let id = self.id.clone();
        self.svc
            .read(&self.id, |l, _| {
                l.open_round()
                    .map(|r| views::round_view(l, &id, r, now))
                    .expect("the demo ladder has a running round")
            })
            .await
            .unwrap()
    }
}

/// An address for every player of the round but `except`.
fn addresses(view: &RoundView, except: &[&str]) -> HashMap<String, String> {
    let mut players: Vec<&String> = view.games.iter().flat_map(|g| [&g.ussr, &g.us]).collect();
    players.extend(view.skips.iter().map(|s| &s.name));
    players.extend(view.byes.iter());
    players
        .into_iter()
        .filter(|p| !except.contains(&p.as_str()))
        .enumerate()
        .map(|(i, p)| (p.clone(), format!("player{i}@example.org")))
        .collect()
}

// ------------------------------------------------------------ the tests

#[tokio::test]
async fn round_announcement_reaches_each_player_with_his_pairing() {
    let demo = demo().await;
    let view = demo.round(demo.now).await;
    // One player is left without an address; the others include a
    // non-ASCII name, whichever sides the pairs' draws gave (ARB-R8).
    let left_out = view
        .games
        .iter()
        .flat_map(|g| [g.ussr.clone(), g.us.clone()])
        .find(|n| n.is_ascii())
        .unwrap();
    let recipients = addresses(&view, &[&left_out]);
    assert!(
        recipients.keys().any(|p| !p.is_ascii()),
        "the demo round has a player with a non-ASCII name"
    );
    let mails = mail::round_announcement("TWS Demo Ladder", &view, &recipients, BASE);
    assert_eq!(mails.len(), recipients.len());
    assert_eq!(
        mail::unreachable(&view, &recipients),
        vec![left_out.clone()]
    );

    let catcher = Catcher::start(&[]).await;
    let report = catcher.mailer().send_all(&mails).await;
    assert_eq!(report.failures, vec![], "{report:?}");
    assert_eq!(report.sent, recipients.len());
    let caught = catcher.caught();
    assert_eq!(caught.len(), recipients.len());
    // One batch, one connection (lettre returns a connection to its pool
    // from a task of its own: allow for a race or two).
    let connections = *catcher.connections.lock().unwrap();
    assert!(connections <= 2, "{connections} connections");

    let by_address: HashMap<&String, &String> = recipients.iter().map(|(p, a)| (a, p)).collect();
    let mut seen_utf8 = false;
    for c in &caught {
        assert_eq!(c.from, "arbiter@example.org");
        assert_eq!(c.rcpt.len(), 1, "{c:?}");
        let player = by_address[&c.rcpt[0]];
        let m = parse(&c.data);
        let to = m.header("to");
        assert!(to.contains(player.as_str()), "{to} names {player}");
        assert!(to.contains(&format!("<{}>", c.rcpt[0])), "{to}");
        seen_utf8 |= !player.is_ascii();
        assert!(
            m.header("from").contains("<arbiter@example.org>"),
            "{:?}",
            m.headers
        );
        let subject = m.header("subject");
        assert!(subject.contains("TWS Demo Ladder"), "{subject}");
        assert!(
            subject.contains(&format!("Round {}", view.number)),
            "{subject}"
        );
        assert!(
            m.header("content-type")
                .starts_with("text/plain; charset=utf-8")
        );
        assert!(
            m.body.starts_with(&format!("Hello {player},")),
            "{}",
            m.body
        );
        // His own pairing first, then the whole announcement and the link.
        let own = m.body.find("--- The announcement ---").unwrap();
        if let Some(g) = view
            .games
            .iter()
            .find(|g| &g.ussr == player || &g.us == player)
        {
            let (side, opponent) = if &g.ussr == player {
                ("USSR", &g.us)
            } else {
                ("US", &g.ussr)
            };
            let deadline = g.deadline.as_deref().unwrap_or(&view.deadline);
            for line in [
                format!("  Game:      {}\n", g.name),
                format!("  Opponent:  {opponent}\n"),
                format!("  Your side: {side}\n"),
                format!("  Deadline:  {deadline} (strict)\n"),
                format!("  Moderator: {}\n", g.moderator.as_deref().unwrap_or("-")),
            ] {
                let at = m
                    .body
                    .find(&line)
                    .unwrap_or_else(|| panic!("{line:?} in the mail to {player}:\n{}", m.body));
                assert!(at < own, "his pairing comes first");
            }
        } else {
            assert!(m.body[..own].contains("this round"), "{}", m.body);
        }
        assert!(m.body.contains(&format!("— Round {}", view.number)));
        assert!(
            m.body
                .contains(&format!("The competition: {BASE}/c/{}\n", demo.id))
        );
    }
    assert!(seen_utf8);

    // Players who do not play this round are told so.
    let mut view = view;
    view.byes.push("Zed Bye".into());
    view.unpaired.push("Una Paired".into());
    let recipients: HashMap<String, String> = [
        ("Zed Bye".to_string(), "zed@example.org".to_string()),
        ("Una Paired".to_string(), "una@example.org".to_string()),
    ]
    .into();
    let mails = mail::round_announcement("TWS Demo Ladder", &view, &recipients, BASE);
    assert_eq!(mails.len(), 2);
    assert!(
        mails[0].body.contains("You have a bye this round"),
        "{}",
        mails[0].body
    );
    assert!(
        mails[1].body.contains("You are not paired this round"),
        "{}",
        mails[1].body
    );
    // The one without an address got nothing.
    assert!(
        caught
            .iter()
            .all(|c| !c.data.contains(&format!("Hello {left_out}")))
    );
}

#[tokio::test]
async fn a_name_cannot_inject_a_header_or_a_recipient() {
    let demo = demo().await;
    let mut view = demo.round(demo.now).await;
    let evil = "Mallory\r\nBcc: evil@x";
    let victim = view.games[0].ussr.clone();
    view.games[0].ussr = evil.to_string();
    let mut recipients = HashMap::new();
    recipients.insert(evil.to_string(), "mallory@example.org".to_string());
    recipients.insert(view.games[0].us.clone(), "opponent@example.org".to_string());
    let mails = mail::round_announcement(
        "Ladder\r\nBcc: evil@x\r\nX-Evil: 1",
        &view,
        &recipients,
        BASE,
    );
    assert_eq!(mails.len(), 2);
    assert!(mails.iter().all(|m| m.to != victim));

    let catcher = Catcher::start(&[]).await;
    let report = catcher.mailer().send_all(&mails).await;
    assert_eq!((report.sent, report.failures.len()), (2, 0), "{report:?}");
    let caught = catcher.caught();
    assert_eq!(caught.len(), 2);
    for c in &caught {
        assert_eq!(c.rcpt.len(), 1);
        assert!(!c.rcpt.iter().any(|r| r.contains("evil")), "{c:?}");
        let m = parse(&c.data);
        let names: Vec<&str> = m.headers.iter().map(|(n, _)| n.as_str()).collect();
        assert!(
            !names.contains(&"bcc") && !names.contains(&"x-evil"),
            "{names:?}"
        );
        assert!(!names.iter().any(|n| n.contains(' ')), "{names:?}");
        let subject = m.header("subject");
        assert_eq!(
            subject,
            format!(
                "Ladder Bcc: evil@x X-Evil: 1: Round {} announced",
                view.number
            )
        );
    }
    let to_mallory = caught
        .iter()
        .find(|c| c.rcpt == ["mallory@example.org"])
        .unwrap();
    let to = parse(&to_mallory.data).header("to");
    assert!(to.contains("Mallory Bcc: evil@x"), "{to}");
    assert!(to.ends_with("<mallory@example.org>"), "{to}");
}

#[tokio::test]
async fn one_failure_does_not_stop_the_others() {
    let mail = |player: &str, to: &str| OutgoingMail {
        player: player.into(),
        to: to.into(),
        subject: "Ladder: Round 1 announced".into(),
        body: "Hello\n.\n..and a dot line\n".into(),
    };
    let mails = [
        mail("Ana", "ana@example.org"),
        mail("Ben", "gone@example.org"),
        mail("Chloé", "not an address"),
        mail("Dmitri", "dmitri@example.org"),
    ];
    let catcher = Catcher::start(&["gone@example.org"]).await;
    let report = catcher.mailer().send_all(&mails).await;
    assert_eq!(report.sent, 2, "{report:?}");
    let failed: Vec<(&str, &str)> = report
        .failures
        .iter()
        .map(|f| (f.player.as_str(), f.to.as_str()))
        .collect();
    assert_eq!(
        failed,
        [("Ben", "gone@example.org"), ("Chloé", "not an address")]
    );
    assert!(
        report.failures[0].error.contains("no such user"),
        "{report:?}"
    );
    assert!(
        report.failures[1].error.contains("invalid address"),
        "{report:?}"
    );
    let caught = catcher.caught();
    let to: Vec<&str> = caught.iter().map(|c| c.rcpt[0].as_str()).collect();
    assert_eq!(to, ["ana@example.org", "dmitri@example.org"]);
    // Dot-stuffing survived the trip.
    let body = parse(&caught[0].data).body;
    assert_eq!(
        body.trim_end(),
        "Hello\n.\n..and a dot line",
        "{:?}",
        caught[0].data
    );

    // No server at all: every message fails, with the reason.
    let port = {
        let l = TcpListener::bind("127.0.0.1:0").await.unwrap();
        l.local_addr().unwrap().port()
    };
    let nobody = Mailer::new(&MailConfig {
        smtp: format!("smtp://127.0.0.1:{port}"),
        from: "arbiter@example.org".into(),
    })
    .unwrap();
    let report = nobody.send_all(&mails[..2]).await;
    assert_eq!(report.sent, 0);
    assert_eq!(report.failures.len(), 2);
}

#[tokio::test]
async fn deadline_reminders_at_fixed_times() {
    let demo = demo().await;
    let view = demo.round(demo.now).await;
    let scheduled: Vec<_> = view
        .games
        .iter()
        .filter(|g| g.status == "scheduled")
        .collect();
    assert!(
        !scheduled.is_empty(),
        "the demo's running round has undecided games"
    );
    assert!(
        view.games.iter().any(|g| g.status != "scheduled"),
        "and decided ones"
    );
    let day = |d: &str| {
        Utc.from_utc_datetime(
            &chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d")
                .unwrap()
                .and_hms_opt(12, 0, 0)
                .unwrap(),
        )
    };
    let recipients = addresses(&view, &[]);
    let players_of = |games: &[&views::GameView]| {
        let mut p: Vec<String> = games
            .iter()
            .flat_map(|g| [g.ussr.clone(), g.us.clone()])
            .collect();
        p.sort();
        p.dedup();
        p
    };
    let to_players = |mails: &[OutgoingMail]| {
        let mut p: Vec<String> = mails.iter().map(|m| m.player.clone()).collect();
        p.sort();
        p
    };

    // Three days before the round's deadline, at noon.
    let deadline = &view.deadline;
    let before = day(deadline) - Duration::days(3);
    let view = demo.round(before).await;
    assert!(view.games.iter().all(|g| !g.overdue));
    let due_in_week: Vec<&views::GameView> = view
        .games
        .iter()
        .filter(|g| g.status == "scheduled")
        .filter(|g| g.deadline.as_deref().unwrap_or(deadline) == deadline)
        .collect();
    let mails = mail::deadline_reminders(
        "TWS Demo",
        &view,
        before,
        Duration::days(7),
        &recipients,
        BASE,
    );
    assert_eq!(to_players(&mails), players_of(&due_in_week));
    for m in &mails {
        assert_eq!(
            m.subject,
            format!("TWS Demo: Round {}, deadline {deadline}", view.number)
        );
        assert!(m.body.contains("must be finished by"), "{}", m.body);
        assert!(!m.body.contains("OVERDUE"));
        assert_eq!(&recipients[&m.player], &m.to);
        let g = due_in_week
            .iter()
            .find(|g| g.ussr == m.player || g.us == m.player)
            .unwrap();
        assert!(m.body.contains(&format!("  Game:      {}\n", g.name)));
    }
    // Three days left is not within two.
    let mails = mail::deadline_reminders(
        "TWS Demo",
        &view,
        before,
        Duration::days(2),
        &recipients,
        BASE,
    );
    assert_eq!(mails, vec![]);
    // The last hours of the deadline day count as within.
    let last_hours = day(deadline) + Duration::hours(6);
    let view_late = demo.round(last_hours).await;
    let mails = mail::deadline_reminders(
        "TWS Demo",
        &view_late,
        last_hours,
        Duration::hours(12),
        &recipients,
        BASE,
    );
    assert_eq!(to_players(&mails), players_of(&due_in_week));

    // The day after: overdue.
    let after = day(deadline) + Duration::days(1);
    let view = demo.round(after).await;
    let overdue: Vec<&views::GameView> = view.games.iter().filter(|g| g.overdue).collect();
    assert!(!overdue.is_empty());
    let mails = mail::deadline_reminders(
        "TWS Demo",
        &view,
        after,
        Duration::days(1),
        &recipients,
        BASE,
    );
    assert_eq!(to_players(&mails), players_of(&overdue));
    for m in &mails {
        assert_eq!(
            m.subject,
            format!("TWS Demo: Round {}, your game is overdue", view.number)
        );
        assert!(m.body.contains("your game is overdue"), "{}", m.body);
        assert!(m.body.contains("  Status:    OVERDUE\n"), "{}", m.body);
        assert!(m.body.contains(&format!("{BASE}/c/{}", demo.id)));
    }
    // Players without an address are left out.
    let one = overdue[0].ussr.clone();
    let fewer = addresses(&view, &[&one]);
    let mails = mail::deadline_reminders("TWS Demo", &view, after, Duration::days(1), &fewer, BASE);
    assert!(mails.iter().all(|m| m.player != one));

    // Decided games get no reminder.
    for m in &mails {
        assert!(
            view.games
                .iter()
                .any(|g| g.status == "scheduled" && (g.ussr == m.player || g.us == m.player))
        );
    }
}

#[test]
fn config_errors_name_what_is_wrong() {
    let parse = |smtp: &str, from: &str| {
        MailConfig {
            smtp: smtp.into(),
            from: from.into(),
        }
        .parse()
    };
    let ok = parse("smtps://me:pw@mail.example.org", "Arbiter <a@example.org>").unwrap();
    assert_eq!(ok.0.security, Security::Tls);
    assert_eq!(ok.0.port, 465);
    assert_eq!(ok.1.email.to_string(), "a@example.org");
    let starttls = SmtpUrl::parse("smtp+starttls://me:pw@mail.example.org").unwrap();
    assert_eq!(
        (starttls.security, starttls.port),
        (Security::StartTls, 587)
    );

    let cases = [
        ("ftp://x", "a@x.org", "SMTP URL: unknown scheme `ftp`"),
        ("mail.example.org", "a@x.org", "SMTP URL: no scheme"),
        (
            "smtp://host:port",
            "a@x.org",
            "SMTP URL: invalid port `port`",
        ),
        (
            "smtp://u:pw@host",
            "a@x.org",
            "SMTP URL: credentials over smtp://",
        ),
        ("smtps://", "a@x.org", "SMTP URL: no host"),
        ("smtp://host", "", "sender address: empty"),
        (
            "smtp://host",
            "Arbiter",
            "sender address: `Arbiter` is not an address",
        ),
    ];
    for (smtp, from, message) in cases {
        let e = parse(smtp, from).unwrap_err();
        assert!(e.to_string().starts_with(message), "{smtp} {from}: {e}");
        assert!(!e.to_string().contains("pw"), "{e}");
    }
    assert!(matches!(
        parse("smtp://host", "x").unwrap_err(),
        MailConfigError::From(_)
    ));
}

// ------------------------------------------------- recipients from accounts

/// Accounts and grants in memory: only what `recipients` reads.
#[derive(Default)]
struct FakeAccounts {
    accounts: Vec<Account>,
    grants: Vec<Grant>,
}

#[async_trait]
impl AccountStore for FakeAccounts {
    async fn create_account(&self, _: &Account) -> Result<(), StoreError> {
        Ok(())
    }
    async fn account(&self, username: &str) -> Result<Option<Account>, StoreError> {
        Ok(self
            .accounts
            .iter()
            .find(|a| a.username == username)
            .cloned())
    }
    async fn accounts(&self) -> Result<Vec<Account>, StoreError> {
        Ok(self.accounts.clone())
    }
    async fn set_password(&self, _: &str, _: &str) -> Result<bool, StoreError> {
        Ok(false)
    }
    async fn grant(&self, _: &Grant) -> Result<(), StoreError> {
        Ok(())
    }
    async fn revoke(&self, _: &str, _: &str, _: Role) -> Result<bool, StoreError> {
        Ok(false)
    }
    async fn grants_in(&self, competition: &str) -> Result<Vec<Grant>, StoreError> {
        Ok(self
            .grants
            .iter()
            .filter(|g| g.competition == competition)
            .cloned()
            .collect())
    }
    async fn grants_of(&self, username: &str) -> Result<Vec<Grant>, StoreError> {
        Ok(self
            .grants
            .iter()
            .filter(|g| g.username == username)
            .cloned()
            .collect())
    }
    async fn put_session(&self, _: &Session) -> Result<(), StoreError> {
        Ok(())
    }
    async fn session(&self, _: &str, _: i64) -> Result<Option<Session>, StoreError> {
        Ok(None)
    }
    async fn delete_session(&self, _: &str) -> Result<bool, StoreError> {
        Ok(false)
    }
    async fn delete_sessions_of(&self, _: &str) -> Result<u64, StoreError> {
        Ok(0)
    }
    async fn purge_sessions(&self, _: i64) -> Result<u64, StoreError> {
        Ok(0)
    }
    async fn put_token(&self, _: &ApiToken) -> Result<(), StoreError> {
        Ok(())
    }
    async fn token(&self, _: &str) -> Result<Option<ApiToken>, StoreError> {
        Ok(None)
    }
    async fn tokens_of(&self, _: &str) -> Result<Vec<ApiToken>, StoreError> {
        Ok(Vec::new())
    }
    async fn delete_token(&self, _: &str) -> Result<bool, StoreError> {
        Ok(false)
    }
    async fn touch_token(&self, _: &str, _: &str) -> Result<bool, StoreError> {
        Ok(false)
    }
    async fn delete_tokens_of(&self, _: &str) -> Result<u64, StoreError> {
        Ok(0)
    }
    async fn delete_account(&self, _: &str) -> Result<bool, StoreError> {
        Ok(false)
    }
    async fn put_feed(&self, _: &CalendarFeed) -> Result<(), StoreError> {
        Ok(())
    }
    async fn feed(&self, _: &str) -> Result<Option<CalendarFeed>, StoreError> {
        Ok(None)
    }
    async fn feeds_of(&self, _: &FeedOwner) -> Result<Vec<CalendarFeed>, StoreError> {
        Ok(Vec::new())
    }
    async fn delete_feed(&self, _: &str) -> Result<bool, StoreError> {
        Ok(false)
    }
    async fn import_accounts(
        &self,
        _: &[Account],
        _: &[Grant],
        _: &[ApiToken],
    ) -> Result<(), StoreError> {
        Ok(())
    }
}

#[tokio::test]
async fn recipients_come_from_player_grants_and_account_addresses() {
    let account = |username: &str, email: Option<&str>| Account {
        username: username.into(),
        display_name: username.into(),
        email: email.map(str::to_string),
        password_hash: "$argon2id$…".into(),
        organizer: false,
        created_at: "2026-01-01T00:00:00Z".into(),
    };
    let grant = |competition: &str, username: &str, role: Role, player: Option<&str>| Grant {
        competition: competition.into(),
        username: username.into(),
        role,
        player: player.map(str::to_string),
    };
    let store = FakeAccounts {
        accounts: vec![
            account("ana", Some("ana@example.org")),
            account("ben", None),
            account("chloe", Some(" chloe@example.org ")),
            account("dmitri", Some("")),
            account("eve", Some("not an address")),
            account("mod", Some("mod@example.org")),
        ],
        grants: vec![
            grant("tws", "ana", Role::Player, Some("Ana Morales")),
            grant("tws", "ben", Role::Player, Some("Ben Carter")),
            grant("tws", "chloe", Role::Player, Some("Chloé Dubois")),
            grant("tws", "dmitri", Role::Player, Some("Dmitri Volkov")),
            grant("tws", "eve", Role::Player, Some("Eve")),
            grant("tws", "mod", Role::Moderator, None),
            grant("tws", "ghost", Role::Player, Some("Ghost")),
            grant(
                "other",
                "mod",
                Role::Player,
                Some("Moderator Playing Elsewhere"),
            ),
        ],
    };
    // The players the competition's events link to accounts (ARB-R50); the
    // grants above are only a directory and give no address.
    let links: Vec<(String, String)> = [
        ("Ana Morales", "ana"),
        ("Ben Carter", "ben"),
        ("Chloé Dubois", "chloe"),
        ("Dmitri Volkov", "dmitri"),
        ("Eve", "eve"),
        ("Ghost", "ghost"),
    ]
    .iter()
    .map(|(p, a)| (p.to_string(), a.to_string()))
    .collect();
    let r = mail::recipients(&store, &links).await.unwrap();
    let mut addresses: Vec<(&str, &str)> = r
        .addresses
        .iter()
        .map(|(p, a)| (p.as_str(), a.as_str()))
        .collect();
    addresses.sort();
    assert_eq!(
        addresses,
        [
            ("Ana Morales", "ana@example.org"),
            ("Chloé Dubois", "chloe@example.org")
        ]
    );
    // An account that does not exist has no address either.
    assert_eq!(r.without_email, ["Ben Carter", "Dmitri Volkov", "Ghost"]);
    assert_eq!(
        r.invalid_email,
        [("Eve".to_string(), "not an address".to_string())]
    );
    let none = mail::recipients(&store, &[]).await.unwrap();
    assert_eq!(none, mail::Recipients::default());
}
