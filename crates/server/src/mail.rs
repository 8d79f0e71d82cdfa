//! E-mail: round announcements and deadline reminders, sent through a
//! configured SMTP server ("Notifications of assignments for each round will
//! generally be made by e-mail, and posted on this thread"; the forum text is
//! [`arbiter_service::forum::announcement`]).
//!
//! Composing is pure ([`round_announcement`], [`deadline_reminders`]: a view
//! and the players' addresses in, [`OutgoingMail`]s out); sending is
//! [`Mailer::send_all`], plain-text UTF-8 over SMTP (plain for a local relay,
//! STARTTLS or SMTPS with rustls otherwise). Names and subjects come from
//! users: control characters (CR, LF, …) are replaced by spaces before they
//! reach a header, and lettre encodes every header value, so a name cannot
//! add a header or a recipient.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use arbiter_engine::model::Time;
use arbiter_service::forum::{self, Markup};
use arbiter_service::views::{GameView, RoundView};
use arbiter_store::{AccountStore, StoreError};
use lettre::message::header::ContentType;
use lettre::message::{Mailbox, Message};
use lettre::transport::smtp::PoolConfig;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::{Address, AsyncSmtpTransport, AsyncTransport, Tokio1Executor};

/// How long one SMTP command may take before the message counts as failed.
const SMTP_TIMEOUT: Duration = Duration::from_secs(30);

/// The e-mail settings of `arbiter serve`, as given (flags or environment).
#[derive(Clone, PartialEq, Eq)]
pub struct MailConfig {
    /// `smtp://host[:port]` for a plain local relay (no TLS, no
    /// credentials; port 25 by default),
    /// `smtp+starttls://user:pass@host[:port]` (port 587 by default) or
    /// `smtps://user:pass@host[:port]` (TLS from the start, port 465 by
    /// default). Credentials are optional with TLS; percent-encode `@`, `:`
    /// and `%` in them.
    pub smtp: String,
    /// The sender, e.g. `Arbiter <arbiter@example.org>`.
    pub from: String,
}

impl fmt::Debug for MailConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The URL may hold a password.
        let smtp = match SmtpUrl::parse(&self.smtp) {
            Ok(url) => url.to_string(),
            Err(_) => "(invalid)".to_string(),
        };
        f.debug_struct("MailConfig")
            .field("smtp", &smtp)
            .field("from", &self.from)
            .finish()
    }
}

impl MailConfig {
    /// Check both settings: the parsed SMTP URL and sender.
    pub fn parse(&self) -> Result<(SmtpUrl, Mailbox), MailConfigError> {
        let url = SmtpUrl::parse(&self.smtp)?;
        let from = parse_from(&self.from)?;
        Ok((url, from))
    }
}

/// What is wrong with a [`MailConfig`]. The message never repeats a password.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MailConfigError {
    /// The SMTP URL.
    Smtp(String),
    /// The sender address.
    From(String),
}

impl fmt::Display for MailConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MailConfigError::Smtp(m) => write!(f, "SMTP URL: {m}"),
            MailConfigError::From(m) => write!(f, "sender address: {m}"),
        }
    }
}

impl std::error::Error for MailConfigError {}

/// How the connection to the SMTP server is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Security {
    /// `smtp://`: none (a local relay).
    Plain,
    /// `smtp+starttls://`: STARTTLS, required (no fallback to plain text).
    StartTls,
    /// `smtps://`: TLS from the first byte.
    Tls,
}

impl Security {
    fn scheme(self) -> &'static str {
        match self {
            Security::Plain => "smtp",
            Security::StartTls => "smtp+starttls",
            Security::Tls => "smtps",
        }
    }

    fn default_port(self) -> u16 {
        match self {
            Security::Plain => 25,
            Security::StartTls => 587,
            Security::Tls => 465,
        }
    }
}

/// A parsed SMTP URL. `Debug` and `Display` leave the password out.
#[derive(Clone, PartialEq, Eq)]
pub struct SmtpUrl {
    pub security: Security,
    /// A name, an IPv4 address, or an IPv6 address without its brackets.
    pub host: String,
    pub port: u16,
    pub username: Option<String>,
    pub password: Option<String>,
}

impl fmt::Display for SmtpUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://", self.security.scheme())?;
        if let Some(u) = &self.username {
            write!(f, "{u}")?;
            if self.password.is_some() {
                write!(f, ":***")?;
            }
            write!(f, "@")?;
        }
        if self.host.contains(':') {
            write!(f, "[{}]:{}", self.host, self.port)
        } else {
            write!(f, "{}:{}", self.host, self.port)
        }
    }
}

impl fmt::Debug for SmtpUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SmtpUrl({self})")
    }
}

impl SmtpUrl {
    pub fn parse(s: &str) -> Result<SmtpUrl, MailConfigError> {
        let err = |m: String| MailConfigError::Smtp(m);
        let s = s.trim();
        if s.is_empty() {
            return Err(err(
                "empty; expected smtp://host:port, smtp+starttls://user:pass@host:587 or smtps://user:pass@host:465".into(),
            ));
        }
        let Some((scheme, rest)) = s.split_once("://") else {
            return Err(err(
                "no scheme; expected smtp://, smtp+starttls:// or smtps:// before the host".into(),
            ));
        };
        let security = match scheme.to_ascii_lowercase().as_str() {
            "smtp" => Security::Plain,
            "smtp+starttls" => Security::StartTls,
            "smtps" => Security::Tls,
            other => {
                return Err(err(format!(
                    "unknown scheme `{other}`; use smtp:// (plain local relay), smtp+starttls:// or smtps://"
                )));
            }
        };
        // Tolerate one trailing slash; anything else after the authority is
        // a mistake (lettre's own URL form, `?tls=…`, is not this one).
        let rest = rest.strip_suffix('/').unwrap_or(rest);
        if rest.contains(['/', '?', '#']) {
            return Err(err(
                "unexpected path, query or fragment after the host; give only [user:pass@]host[:port]"
                    .into(),
            ));
        }
        let (userinfo, hostport) = match rest.rsplit_once('@') {
            Some((u, h)) => (Some(u), h),
            None => (None, rest),
        };
        let (username, password) = match userinfo {
            None => (None, None),
            Some(u) => {
                let (user, pass) = match u.split_once(':') {
                    Some((user, pass)) => (user, Some(pass)),
                    None => (u, None),
                };
                let user = percent_decode(user).map_err(|m| err(format!("user name: {m}")))?;
                if user.is_empty() {
                    return Err(err("empty user name before `@`".into()));
                }
                let pass = pass
                    .map(percent_decode)
                    .transpose()
                    .map_err(|m| err(format!("password: {m}")))?;
                (Some(user), pass)
            }
        };
        if security == Security::Plain && username.is_some() {
            return Err(err(
                "credentials over smtp:// would cross the network unencrypted; use smtp+starttls:// or smtps://"
                    .into(),
            ));
        }
        let (host, port) = if let Some(v6) = hostport.strip_prefix('[') {
            let Some((host, after)) = v6.split_once(']') else {
                return Err(err("unclosed `[` in the IPv6 host".into()));
            };
            let port = match after {
                "" => None,
                p => Some(p.strip_prefix(':').ok_or_else(|| {
                    err(format!(
                        "unexpected `{p}` after the IPv6 host; expected :port"
                    ))
                })?),
            };
            (host, port)
        } else {
            match hostport.split_once(':') {
                Some((h, p)) => (h, Some(p)),
                None => (hostport, None),
            }
        };
        if host.is_empty() {
            return Err(err("no host".into()));
        }
        if !host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | ':'))
        {
            return Err(err(format!("invalid host `{host}`")));
        }
        let port = match port {
            None => security.default_port(),
            Some(p) => match p.parse::<u16>() {
                Ok(n) if n > 0 => n,
                _ => return Err(err(format!("invalid port `{p}` (expected 1-65535)"))),
            },
        };
        Ok(SmtpUrl {
            security,
            host: host.to_string(),
            port,
            username,
            password,
        })
    }
}

/// `%XX` escapes of a URL's user or password, decoded as UTF-8.
fn percent_decode(s: &str) -> Result<String, String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or("a `%` not followed by two hex digits (write `%25` for `%`)")?;
            out.push(hex);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| "percent escapes that are not UTF-8".to_string())
}

fn parse_from(s: &str) -> Result<Mailbox, MailConfigError> {
    let s = s.trim();
    if s.is_empty() {
        return Err(MailConfigError::From(
            "empty; expected e.g. `Arbiter <arbiter@example.org>`".into(),
        ));
    }
    if s.chars().any(char::is_control) {
        return Err(MailConfigError::From("contains a control character".into()));
    }
    s.parse::<Mailbox>().map_err(|e| {
        MailConfigError::From(format!(
            "`{s}` is not an address ({e}); expected e.g. `Arbiter <arbiter@example.org>` or `arbiter@example.org`"
        ))
    })
}

/// One e-mail to one player, ready to send: plain text, UTF-8.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingMail {
    /// The player's name in the competition (the recipient's display name).
    pub player: String,
    /// His address.
    pub to: String,
    pub subject: String,
    pub body: String,
}

/// The players' addresses in one competition, from its grants and the
/// accounts' e-mail addresses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Recipients {
    /// Player name in the competition → e-mail address.
    pub addresses: HashMap<String, String>,
    /// Players (with an account) whose account has no e-mail address,
    /// sorted: "3 players have no e-mail address".
    pub without_email: Vec<String>,
    /// Players whose account's address is not a valid address: (player,
    /// address), sorted.
    pub invalid_email: Vec<(String, String)>,
}

/// The addresses of the players of a competition: each (player's name,
/// account) its events link (ARB-R50), and the account's e-mail address.
pub async fn recipients(
    accounts: &dyn AccountStore,
    links: &[(String, String)],
) -> Result<Recipients, StoreError> {
    let mut out = Recipients::default();
    let mut missing = Vec::new();
    let mut invalid = Vec::new();
    for (player, username) in links.iter().cloned() {
        let email = accounts
            .account(&username)
            .await?
            .and_then(|a| a.email)
            .map(|e| e.trim().to_string())
            .filter(|e| !e.is_empty());
        match email {
            None => missing.push(player),
            Some(email) if email.parse::<Address>().is_err() => invalid.push((player, email)),
            Some(email) => {
                out.addresses.entry(player).or_insert(email);
            }
        }
    }
    missing.retain(|p| !out.addresses.contains_key(p));
    missing.sort();
    missing.dedup();
    invalid.retain(|(p, _)| !out.addresses.contains_key(p));
    invalid.sort();
    invalid.dedup();
    out.without_email = missing;
    out.invalid_email = invalid;
    Ok(out)
}

/// The players who take part in the round (a game, a skip, a bye, or
/// unpaired) and have no address in `addresses`, sorted: they get no mail.
pub fn unreachable(view: &RoundView, addresses: &HashMap<String, String>) -> Vec<String> {
    let mut out: Vec<String> = round_players(view)
        .into_iter()
        .filter(|p| !addresses.contains_key(p))
        .collect();
    out.sort();
    out
}

/// Everyone with a part in the round, in the order of the announcement,
/// each once.
fn round_players(view: &RoundView) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |p: &str| {
        if !out.iter().any(|q| q == p) {
            out.push(p.to_string());
        }
    };
    for g in &view.games {
        add(&g.ussr);
        add(&g.us);
    }
    for s in &view.skips {
        add(&s.name);
    }
    for b in &view.byes {
        add(b);
    }
    for u in &view.unpaired {
        add(u);
    }
    out
}

/// A user's text made fit for a header: control characters (CR, LF, tab,
/// …) become spaces, runs of spaces one, and the ends are trimmed.
pub fn header_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.chars() {
        if c.is_control() || c.is_whitespace() {
            space = true;
        } else {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.push(c);
        }
    }
    out
}

/// The competition's page.
fn page_link(base_url: &str, competition: &str) -> String {
    format!("{}/c/{competition}", base_url.trim_end_matches('/'))
}

/// A game as one player sees it: his side, his opponent, and how it counts.
struct Seat<'a> {
    game: &'a GameView,
    side: &'static str,
    opponent: &'a str,
    counts: &'a str,
}

fn seats<'a>(view: &'a RoundView, player: &str) -> Vec<Seat<'a>> {
    let mut out = Vec::new();
    for g in &view.games {
        if g.ussr == player {
            out.push(Seat {
                game: g,
                side: "USSR",
                opponent: &g.us,
                counts: &g.ussr_counts,
            });
        }
        if g.us == player {
            out.push(Seat {
                game: g,
                side: "US",
                opponent: &g.ussr,
                counts: &g.us_counts,
            });
        }
    }
    out
}

/// The deadline of a game: its own, else the round's.
fn game_deadline<'a>(view: &'a RoundView, g: &'a GameView) -> &'a str {
    g.deadline.as_deref().unwrap_or(&view.deadline)
}

/// The lines describing one of the player's games.
fn seat_lines(view: &RoundView, seat: &Seat<'_>, out: &mut String) {
    let g = seat.game;
    out.push_str(&format!("  Game:      {}\n", g.name));
    out.push_str(&format!("  Opponent:  {}\n", seat.opponent));
    out.push_str(&format!("  Your side: {}\n", seat.side));
    out.push_str(&format!(
        "  Deadline:  {} (strict)\n",
        game_deadline(view, g)
    ));
    out.push_str(&format!(
        "  Moderator: {}\n",
        g.moderator.as_deref().unwrap_or("-")
    ));
    if seat.counts != "ladder" {
        out.push_str(&format!(
            "  Counts as: a {} game for you\n",
            seat.counts.replace('-', " ")
        ));
    }
    out.push_str(&format!("  Sides:     {}\n", g.sides.line()));
}

/// The announcement of round `view` to each player of it who has an
/// address: his own part first (his games with opponent, side, deadline,
/// game name and moderator; or his skip, bye, or that he is unpaired), then
/// the full announcement (the forum's Markdown text) and a link to the
/// competition's page at `base_url` (e.g. `https://arbiter.example.org`).
/// Players without an address get nothing (see [`unreachable`]); accounts
/// who play no part in the round (inactive players, applicants) neither.
pub fn round_announcement(
    competition_name: &str,
    view: &RoundView,
    recipients: &HashMap<String, String>,
    base_url: &str,
) -> Vec<OutgoingMail> {
    let full = forum::announcement(Markup::Markdown, view);
    let link = page_link(base_url, &view.competition);
    let mut out = Vec::new();
    for player in round_players(view) {
        let Some(to) = recipients.get(&player) else {
            continue;
        };
        let mut body = format!(
            "Hello {player},\n\nRound {} of {competition_name} has been announced (deadline {}, strict).\n\n",
            view.number, view.deadline
        );
        let seats = seats(view, &player);
        if seats.is_empty() {
            if let Some(s) = view.skips.iter().find(|s| s.name == player) {
                body.push_str(&format!("You do not play this round: {}.\n", s.describe()));
            } else if view.byes.contains(&player) {
                body.push_str(
                    "You have a bye this round (odd last player, no eliminator) and keep your rung number.\n",
                );
            } else {
                body.push_str("You are not paired this round.\n");
            }
        } else {
            body.push_str(if seats.len() == 1 {
                "Your game:\n\n"
            } else {
                "Your games:\n\n"
            });
            for (i, seat) in seats.iter().enumerate() {
                if i > 0 {
                    body.push('\n');
                }
                seat_lines(view, seat, &mut body);
            }
            body.push_str(&format!(
                "\nName your game exactly as above. Games are played on {}; automatic bid: {}.\n",
                view.platform, view.bid
            ));
        }
        body.push_str("\n--- The announcement ---\n\n");
        body.push_str(&full);
        body.push_str(&format!("\nThe competition: {link}\n"));
        out.push(OutgoingMail {
            subject: format!("{competition_name}: Round {} announced", view.number),
            player,
            to: to.clone(),
            body,
        });
    }
    out
}

/// The end (23:59:59 UTC) of a `YYYY-MM-DD` deadline day, as the rules
/// read "by the deadline".
fn end_of_day(date: &str) -> Option<Time> {
    let day = chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").ok()?;
    Some(day.and_hms_opt(23, 59, 59)?.and_utc())
}

/// Reminders of round `view` at `now`: one message to each player (with an
/// address) with an undecided game that is overdue ("your game is
/// overdue") or whose deadline ends within `within` of `now`. A closed
/// round has none. A deadline is the instant the view gives (a day given as
/// a deadline ends at 23:59:59 in the competition's zone, ARB-R82); whether
/// a game is overdue is the view's own `overdue`.
pub fn deadline_reminders(
    competition_name: &str,
    view: &RoundView,
    now: Time,
    within: chrono::Duration,
    recipients: &HashMap<String, String>,
    base_url: &str,
) -> Vec<OutgoingMail> {
    if view.closed {
        return Vec::new();
    }
    let link = page_link(base_url, &view.competition);
    let due = |g: &GameView| -> bool {
        if g.status != "scheduled" {
            return false;
        }
        if g.overdue {
            return true;
        }
        // The deadline's instant (its day read in the competition's zone,
        // ARB-R82); a view without one, the end of its day in UTC.
        let end = g
            .deadline_at
            .as_ref()
            .or(view.deadline_at.as_ref())
            .and_then(|w| chrono::DateTime::parse_from_rfc3339(&w.iso).ok())
            .map(|t| t.with_timezone(&chrono::Utc))
            .or_else(|| end_of_day(game_deadline(view, g)));
        end.is_some_and(|end| end >= now && end - now <= within)
    };
    let mut out = Vec::new();
    for player in round_players(view) {
        let Some(to) = recipients.get(&player) else {
            continue;
        };
        let seats: Vec<Seat<'_>> = seats(view, &player)
            .into_iter()
            .filter(|s| due(s.game))
            .collect();
        if seats.is_empty() {
            continue;
        }
        let overdue = seats.iter().any(|s| s.game.overdue);
        let mut body = format!("Hello {player},\n\n");
        let subject = if overdue {
            body.push_str(&format!(
                "Round {} of {competition_name}: your game is overdue. Report its result now; otherwise it goes to agreement, then adjudication. If you and your opponent agree on how it ends, tell the moderator.\n\n",
                view.number
            ));
            format!(
                "{competition_name}: Round {}, your game is overdue",
                view.number
            )
        } else {
            let deadline = game_deadline(view, seats[0].game);
            body.push_str(&format!(
                "Round {} of {competition_name}: your game must be finished by {deadline} (end of day, UTC; strict). Games not completed by then go to agreement, then adjudication.\n\n",
                view.number
            ));
            format!(
                "{competition_name}: Round {}, deadline {deadline}",
                view.number
            )
        };
        for (i, seat) in seats.iter().enumerate() {
            if i > 0 {
                body.push('\n');
            }
            seat_lines(view, seat, &mut body);
            if seat.game.overdue {
                body.push_str("  Status:    OVERDUE\n");
            }
        }
        body.push_str(&format!("\nThe competition: {link}\n"));
        out.push(OutgoingMail {
            player,
            to: to.clone(),
            subject,
            body,
        });
    }
    out
}

/// What [`Mailer::send_all`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MailReport {
    pub sent: usize,
    pub failures: Vec<MailFailure>,
}

/// A message that was not sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailFailure {
    pub player: String,
    pub to: String,
    pub error: String,
}

/// Sends [`OutgoingMail`]s through the configured SMTP server.
#[derive(Debug, Clone)]
pub struct Mailer {
    smtp: SmtpUrl,
    from: Mailbox,
}

/// Makes Message-IDs unique within the process.
static MESSAGE_COUNTER: AtomicU64 = AtomicU64::new(0);

impl Mailer {
    /// Check the configuration; nothing connects yet.
    pub fn new(config: &MailConfig) -> Result<Mailer, MailConfigError> {
        let (smtp, from) = config.parse()?;
        Ok(Mailer { smtp, from })
    }

    pub fn smtp(&self) -> &SmtpUrl {
        &self.smtp
    }

    pub fn sender(&self) -> &Mailbox {
        &self.from
    }

    /// The message as it goes out: headers from the sender and
    /// `mail` (display name and subject through [`header_text`]), a
    /// plain-text UTF-8 body.
    pub fn message(&self, mail: &OutgoingMail) -> Result<Message, String> {
        let address: Address = mail
            .to
            .trim()
            .parse()
            .map_err(|e| format!("invalid address `{}`: {e}", header_text(&mail.to)))?;
        let name = header_text(&mail.player);
        let to = Mailbox::new((!name.is_empty()).then_some(name), address);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let id = format!(
            "<arbiter.{nanos:x}.{}.{}@{}>",
            std::process::id(),
            MESSAGE_COUNTER.fetch_add(1, Ordering::Relaxed),
            self.from.email.domain()
        );
        Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(header_text(&mail.subject))
            .message_id(Some(id))
            .header(ContentType::TEXT_PLAIN)
            .body(mail.body.clone())
            .map_err(|e| e.to_string())
    }

    /// The transport of one batch: a pool, so the batch reuses one
    /// connection (lettre's pool runs a task: this needs the runtime,
    /// which an async fn has).
    fn transport(&self) -> Result<AsyncSmtpTransport<Tokio1Executor>, String> {
        let url = &self.smtp;
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&url.host)
            .port(url.port)
            .timeout(Some(SMTP_TIMEOUT))
            .pool_config(PoolConfig::new().max_size(1));
        builder = match url.security {
            Security::Plain => builder.tls(Tls::None),
            Security::StartTls => builder.tls(Tls::Required(
                TlsParameters::new(url.host.clone()).map_err(|e| format!("TLS: {e}"))?,
            )),
            Security::Tls => builder.tls(Tls::Wrapper(
                TlsParameters::new(url.host.clone()).map_err(|e| format!("TLS: {e}"))?,
            )),
        };
        if let Some(user) = &url.username {
            builder = builder.credentials(Credentials::new(
                user.clone(),
                url.password.clone().unwrap_or_default(),
            ));
        }
        Ok(builder.build())
    }

    /// Send each message in turn; a failure for one (a bad address, a
    /// rejected recipient, a lost connection) is reported and the others
    /// are still sent.
    pub async fn send_all(&self, mails: &[OutgoingMail]) -> MailReport {
        let mut report = MailReport::default();
        let fail = |mail: &OutgoingMail, error: String| MailFailure {
            player: mail.player.clone(),
            to: mail.to.clone(),
            error,
        };
        let transport = match self.transport() {
            Ok(t) => t,
            Err(e) => {
                report.failures = mails.iter().map(|m| fail(m, e.clone())).collect();
                return report;
            }
        };
        for mail in mails {
            let result = match self.message(mail) {
                Ok(message) => transport
                    .send(message)
                    .await
                    .map(|_| ())
                    .map_err(|e| format!("{} ({}): {e}", self.smtp.host, self.smtp.port)),
                Err(e) => Err(e),
            };
            // lettre gives the connection back to its pool from a task of
            // its own: let it run, so the next message reuses it.
            tokio::task::yield_now().await;
            match result {
                Ok(()) => report.sent += 1,
                Err(e) => {
                    tracing::warn!(to = %mail.to, error = %e, "mail not sent");
                    report.failures.push(fail(mail, e));
                }
            }
        }
        transport.shutdown().await;
        report
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    #[test]
    fn urls() {
        let u = SmtpUrl::parse("smtp://127.0.0.1:2525").unwrap();
        assert_eq!(
            (u.security, u.host.as_str(), u.port, u.username, u.password),
            (Security::Plain, "127.0.0.1", 2525, None, None)
        );
        let u = SmtpUrl::parse("smtp+starttls://me%40x.org:p%3Ass@mail.example.org").unwrap();
        assert_eq!(u.security, Security::StartTls);
        assert_eq!(u.port, 587);
        assert_eq!(u.username.as_deref(), Some("me@x.org"));
        assert_eq!(u.password.as_deref(), Some("p:ss"));
        assert_eq!(
            u.to_string(),
            "smtp+starttls://me@x.org:***@mail.example.org:587"
        );
        assert!(!format!("{u:?}").contains("p:ss"));
        let u = SmtpUrl::parse("SMTPS://u:p@[::1]/").unwrap();
        assert_eq!(
            (u.security, u.host.as_str(), u.port),
            (Security::Tls, "::1", 465)
        );
        assert_eq!(SmtpUrl::parse("smtp://localhost").unwrap().port, 25);
    }

    #[test]
    fn url_errors_say_what_is_wrong_and_hide_the_password() {
        let e = |s: &str| SmtpUrl::parse(s).unwrap_err().to_string();
        assert!(e("").contains("empty"));
        assert!(e("mail.example.org:25").contains("no scheme"));
        assert!(e("http://x").contains("unknown scheme `http`"));
        assert!(e("smtp://").contains("no host"));
        assert!(e("smtp://host:0").contains("invalid port `0`"));
        assert!(e("smtp://host:abc").contains("invalid port `abc`"));
        assert!(e("smtp://host:70000").contains("invalid port"));
        assert!(e("smtp://u:secret@host").contains("unencrypted"));
        assert!(!e("smtp://u:secret@host").contains("secret"));
        assert!(e("smtps://u:secret@host/x?tls=required").contains("path, query"));
        assert!(e("smtps://u:bad%zz@host").contains("password"));
        assert!(!e("smtps://u:bad%zz@host").contains("bad"));
        assert!(e("smtps://:p@host").contains("empty user name"));
        assert!(e("smtps://[::1").contains("unclosed"));
        assert!(e("smtp://ho st").contains("invalid host"));
    }

    #[test]
    fn sender() {
        let from = parse_from("Arbiter <arbiter@example.org>").unwrap();
        assert_eq!(from.email.to_string(), "arbiter@example.org");
        assert!(parse_from("arbiter@example.org").is_ok());
        let e = |s: &str| parse_from(s).unwrap_err().to_string();
        assert!(e("").starts_with("sender address: empty"));
        assert!(e("not an address").contains("`not an address` is not an address"));
        assert!(e("A <a@x.org>\r\nBcc: evil@x").contains("control character"));
        let config = MailConfig {
            smtp: "smtps://u:hunter2@mail.example.org".into(),
            from: "nope".into(),
        };
        assert!(matches!(
            Mailer::new(&config),
            Err(MailConfigError::From(_))
        ));
        assert!(!format!("{config:?}").contains("hunter2"));
    }

    #[test]
    fn header_text_drops_control_characters() {
        assert_eq!(header_text("Evil\r\nBcc: evil@x"), "Evil Bcc: evil@x");
        assert_eq!(header_text("  a\t\tb \u{7}c  "), "a b c");
        assert_eq!(header_text("Chloé Dubois"), "Chloé Dubois");
    }

    #[test]
    fn message_headers_cannot_be_injected() {
        let mailer = Mailer::new(&MailConfig {
            smtp: "smtp://127.0.0.1:2525".into(),
            from: "Arbiter <arbiter@example.org>".into(),
        })
        .unwrap();
        let mail = OutgoingMail {
            player: "Eve\r\nBcc: evil@x".into(),
            to: "eve@example.org".into(),
            subject: "Ladder\r\nBcc: evil@x: Round 1 announced".into(),
            body: "Hello\r\nBcc: evil@x\n".into(),
        };
        let raw = String::from_utf8(mailer.message(&mail).unwrap().formatted()).unwrap();
        let (head, _) = raw.split_once("\r\n\r\n").unwrap();
        assert!(
            !head
                .lines()
                .any(|l| l.to_ascii_lowercase().starts_with("bcc")),
            "{head}"
        );
        let bad = OutgoingMail {
            to: "eve@example.org\r\nBcc: evil@x".into(),
            ..mail
        };
        assert!(mailer.message(&bad).is_err());
    }

    #[test]
    fn deadline_is_end_of_day() {
        assert_eq!(
            end_of_day("2026-03-01").unwrap().to_rfc3339(),
            "2026-03-01T23:59:59+00:00"
        );
        assert_eq!(end_of_day("soon"), None);
    }

    #[test]
    fn links() {
        assert_eq!(
            page_link("https://a.example/", "tws-demo"),
            "https://a.example/c/tws-demo"
        );
    }
}
