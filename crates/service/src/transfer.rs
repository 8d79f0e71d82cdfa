//! Export and import: competitions (events, idempotency keys, secrets) and,
//! for a whole installation, accounts, grants and API tokens, as one JSON
//! Lines file (`arbiter export` / `arbiter import`; the format is
//! documented in `docs/export-format.md`).
//!
//! The file is deterministic: everything is sorted, no line carries the time
//! of the export, and every line's fields are written in a fixed order, so a
//! re-export of an import is byte-identical. Payloads are carried as JSON
//! strings holding the stored text, so they come back byte for byte.
//!
//! [`parse`] reads a file without ever panicking and refuses it with the
//! line (and field) at fault ([`ParseError`]). It checks the structure
//! (header, order, numbering, keys against events, counts against the
//! header) and decodes every event with its competition's format codec and
//! folds it, so a file that would give an unreadable or damaged competition
//! is refused before anything is written. [`import`] then writes it: the
//! competitions in one transaction, then the accounts in another (see its
//! documentation for the window between them).

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::io::{self, BufRead, Read as _, Write};

use arbiter_store::{
    Account, AccountStore, ApiToken, CompetitionDump, EventStore, Grant, KeyRecord, Role, Seq,
    StoreError, StoredEvent,
};
use serde::Serialize;
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::Value;

use crate::format::{CompetitionFormat, Format};
use crate::{Result as ServiceResult, ServiceError};

/// The version of the file format this program writes and reads.
pub const FORMAT_VERSION: u64 = 1;

/// The longest line [`parse`] accepts (an event of a million-player round
/// is tens of megabytes).
pub const MAX_LINE: usize = 256 << 20;

/// The largest file [`parse_reader`] reads (issue 14, item 5: an import is
/// read a line at a time and stops here, so a stream without end, such as
/// `/dev/zero` or a pipe that never closes, is refused rather than read
/// into memory). A ladder of 10,000 results exports to about 7 MB.
pub const MAX_FILE: u64 = 1 << 30;

// ------------------------------------------------------------------ model

/// The content of an export file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Export {
    /// Sorted by id, each with every event, its keys sorted by key and its
    /// secrets sorted by name.
    pub competitions: Vec<CompetitionDump>,
    /// Whether the export includes the secrets (unrevealed draw seeds).
    /// Without them, an imported competition cannot draw its next round.
    pub secrets_included: bool,
    /// Whether the export includes accounts, grants and tokens (a whole
    /// installation).
    pub accounts_included: bool,
    /// Sorted by username.
    pub accounts: Vec<Account>,
    /// Sorted by (competition, username, role).
    pub grants: Vec<Grant>,
    /// Sorted by (username, created_at, label, hash).
    pub tokens: Vec<ApiToken>,
}

/// The counts of an export, as its header states them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub competitions: u64,
    pub events: u64,
    pub keys: u64,
    pub secrets: u64,
    pub accounts: u64,
    pub grants: u64,
    pub tokens: u64,
}

impl Export {
    pub fn counts(&self) -> Counts {
        let sum = |f: fn(&CompetitionDump) -> usize| {
            self.competitions.iter().map(|c| f(c) as u64).sum::<u64>()
        };
        Counts {
            competitions: self.competitions.len() as u64,
            events: sum(|c| c.events.len()),
            keys: sum(|c| c.keys.len()),
            secrets: sum(|c| c.secrets.len()),
            accounts: self.accounts.len() as u64,
            grants: self.grants.len() as u64,
            tokens: self.tokens.len() as u64,
        }
    }
}

impl Export {
    /// Leave out the credentials (issue 14, item 8: `--without-secrets`
    /// kept them): every password hash is written empty, and such an
    /// account cannot log in (no password verifies against it) until it is
    /// given a new one; the API tokens are left out. The seeds are left out
    /// by [`ExportOptions::secrets`].
    pub fn leave_out_credentials(&mut self) {
        for a in &mut self.accounts {
            a.password_hash.clear();
        }
        self.tokens.clear();
    }

    /// Leave out the accounts' e-mail addresses (personal data that a
    /// published export must not carry).
    pub fn leave_out_emails(&mut self) {
        for a in &mut self.accounts {
            a.email = None;
        }
    }
}

impl fmt::Display for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = |count: u64, one: &str, many: &str| {
            format!("{count} {}", if count == 1 { one } else { many })
        };
        write!(
            f,
            "{} ({}, {}, {}), {}, {}, {}",
            n(self.competitions, "competition", "competitions"),
            n(self.events, "event", "events"),
            n(self.keys, "idempotency key", "idempotency keys"),
            n(self.secrets, "secret", "secrets"),
            n(self.accounts, "account", "accounts"),
            n(self.grants, "grant", "grants"),
            n(self.tokens, "API token", "API tokens"),
        )
    }
}

/// What to export.
#[derive(Debug, Clone)]
pub struct ExportOptions {
    /// One competition, or every one (`None`).
    pub competition: Option<String>,
    /// Accounts, grants and API tokens too (never sessions).
    pub accounts: bool,
    /// The secrets (unrevealed committed draw seeds).
    pub secrets: bool,
}

// ------------------------------------------------------------------ export

/// Read what `options` asks for from `store`. Consistent per competition
/// even while others append: a key is exported only with all its events.
pub async fn export<S: EventStore + AccountStore>(
    store: &S,
    options: &ExportOptions,
) -> ServiceResult<Export> {
    let ids = match &options.competition {
        Some(id) => {
            if store.version(id).await? == 0 {
                return Err(ServiceError::NotFound(id.clone()));
            }
            vec![id.clone()]
        }
        None => store.competitions().await?,
    };
    let mut competitions = Vec::with_capacity(ids.len());
    for id in ids {
        let events = store.read(&id, 1, None).await?;
        let n = events.len() as Seq;
        // Read after the events: keys of events appended since are left out
        // (a key and its events are appended together).
        let mut keys = store.keys(&id).await?;
        keys.retain(|k| k.last <= n);
        keys.sort_by(|a, b| a.key.cmp(&b.key));
        let mut secrets = if options.secrets {
            store.secrets(&id).await?
        } else {
            Vec::new()
        };
        secrets.sort();
        competitions.push(CompetitionDump {
            id,
            events,
            keys,
            secrets,
        });
    }
    let (mut accounts, mut grants, mut tokens) = (Vec::new(), Vec::new(), Vec::new());
    if options.accounts {
        accounts = store.accounts().await?;
        accounts.sort_by(|a, b| a.username.cmp(&b.username));
        for account in &accounts {
            grants.extend(store.grants_of(&account.username).await?);
            tokens.extend(store.tokens_of(&account.username).await?);
        }
        grants.sort_by(|a, b| grant_order(a).cmp(&grant_order(b)));
        tokens.sort_by(|a, b| token_order(a).cmp(&token_order(b)));
    }
    Ok(Export {
        competitions,
        secrets_included: options.secrets,
        accounts_included: options.accounts,
        accounts,
        grants,
        tokens,
    })
}

fn grant_order(g: &Grant) -> (&str, &str, Role) {
    (&g.competition, &g.username, g.role)
}

fn token_order(t: &ApiToken) -> (&str, &str, &str, &str) {
    (&t.username, &t.created_at, &t.label, &t.hash)
}

#[derive(Serialize)]
struct HeaderLine {
    arbiter: &'static str,
    version: u64,
    secrets_included: bool,
    accounts_included: bool,
    #[serde(flatten)]
    counts: Counts,
}

#[derive(Serialize)]
struct CompetitionLine<'a> {
    #[serde(rename = "type")]
    ty: &'static str,
    id: &'a str,
    format: &'a str,
    events: u64,
}

#[derive(Serialize)]
struct EventLine<'a> {
    #[serde(rename = "type")]
    ty: &'static str,
    competition: &'a str,
    seq: Seq,
    kind: &'a str,
    actor: &'a str,
    recorded_at: &'a str,
    idempotency_key: Option<&'a str>,
    payload: &'a str,
}

#[derive(Serialize)]
struct KeyLine<'a> {
    #[serde(rename = "type")]
    ty: &'static str,
    competition: &'a str,
    key: &'a str,
    first: Seq,
    last: Seq,
    fingerprint: &'a str,
}

#[derive(Serialize)]
struct SecretLine<'a> {
    #[serde(rename = "type")]
    ty: &'static str,
    competition: &'a str,
    name: &'a str,
    value: &'a str,
}

#[derive(Serialize)]
struct AccountLine<'a> {
    #[serde(rename = "type")]
    ty: &'static str,
    username: &'a str,
    display_name: &'a str,
    email: Option<&'a str>,
    password_hash: &'a str,
    organizer: bool,
    created_at: &'a str,
}

#[derive(Serialize)]
struct GrantLine<'a> {
    #[serde(rename = "type")]
    ty: &'static str,
    competition: &'a str,
    username: &'a str,
    role: &'a str,
    player: Option<&'a str>,
}

#[derive(Serialize)]
struct TokenLine<'a> {
    #[serde(rename = "type")]
    ty: &'static str,
    username: &'a str,
    label: &'a str,
    created_at: &'a str,
    hash: &'a str,
    /// Absent when the token never expires, so that files written before
    /// tokens could expire read and write back byte for byte (issue 14
    /// item 2). The last use is not exported: like a session, it is a trace
    /// of use, not part of the token.
    #[serde(skip_serializing_if = "Option::is_none")]
    expires_at: Option<&'a str>,
}

fn line<W: Write, T: Serialize>(out: &mut W, value: &T) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value).map_err(io::Error::other)?;
    out.write_all(b"\n")
}

/// Write `export` as an export file (use a buffered writer). The format of
/// a competition whose first event no format creates is written as
/// `unknown` (such a file is refused by [`parse`]).
pub fn write<W: Write>(export: &Export, out: &mut W) -> io::Result<()> {
    line(
        out,
        &HeaderLine {
            arbiter: "export",
            version: FORMAT_VERSION,
            secrets_included: export.secrets_included,
            accounts_included: export.accounts_included,
            counts: export.counts(),
        },
    )?;
    for c in &export.competitions {
        let format = c
            .events
            .first()
            .and_then(|e| CompetitionFormat::of_kind(&e.kind))
            .map_or("unknown", CompetitionFormat::id);
        line(
            out,
            &CompetitionLine {
                ty: "competition",
                id: &c.id,
                format,
                events: c.events.len() as u64,
            },
        )?;
        for e in &c.events {
            line(
                out,
                &EventLine {
                    ty: "event",
                    competition: &c.id,
                    seq: e.seq,
                    kind: &e.kind,
                    actor: &e.actor,
                    recorded_at: &e.recorded_at,
                    idempotency_key: e.idempotency_key.as_deref(),
                    payload: &e.payload,
                },
            )?;
        }
        for k in &c.keys {
            line(
                out,
                &KeyLine {
                    ty: "key",
                    competition: &c.id,
                    key: &k.key,
                    first: k.first,
                    last: k.last,
                    fingerprint: &k.fingerprint,
                },
            )?;
        }
        for (name, value) in &c.secrets {
            line(
                out,
                &SecretLine {
                    ty: "secret",
                    competition: &c.id,
                    name,
                    value,
                },
            )?;
        }
    }
    for a in &export.accounts {
        line(
            out,
            &AccountLine {
                ty: "account",
                username: &a.username,
                display_name: &a.display_name,
                email: a.email.as_deref(),
                password_hash: &a.password_hash,
                organizer: a.organizer,
                created_at: &a.created_at,
            },
        )?;
    }
    for g in &export.grants {
        line(
            out,
            &GrantLine {
                ty: "grant",
                competition: &g.competition,
                username: &g.username,
                role: g.role.as_str(),
                player: g.player.as_deref(),
            },
        )?;
    }
    for t in &export.tokens {
        line(
            out,
            &TokenLine {
                ty: "token",
                username: &t.username,
                label: &t.label,
                created_at: &t.created_at,
                hash: &t.hash,
                expires_at: t.expires_at.as_deref(),
            },
        )?;
    }
    Ok(())
}

/// [`write`] into a byte vector.
pub fn to_bytes(export: &Export) -> Vec<u8> {
    let mut out = Vec::new();
    // Writing to a Vec cannot fail.
    let _ = write(export, &mut out);
    out
}

// ------------------------------------------------------------------- parse

/// Why a file was refused: the line (1-based; the line after the last for
/// what is missing at the end) and, when one is at fault, the field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub field: Option<String>,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.field {
            Some(field) => write!(f, "line {}, field `{field}`: {}", self.line, self.message),
            None => write!(f, "line {}: {}", self.line, self.message),
        }
    }
}

impl std::error::Error for ParseError {}

type Parsed<T> = Result<T, ParseError>;

fn at_line(line: usize, message: impl Into<String>) -> ParseError {
    ParseError {
        line,
        field: None,
        message: message.into(),
    }
}

fn at_field(line: usize, field: &str, message: impl Into<String>) -> ParseError {
    ParseError {
        line,
        field: Some(field.to_owned()),
        message: message.into(),
    }
}

/// A JSON object's fields in the order written, duplicates kept (so that
/// they can be refused).
struct Fields(Vec<(String, Value)>);

impl<'de> Deserialize<'de> for Fields {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct FieldsVisitor;
        impl<'de> Visitor<'de> for FieldsVisitor {
            type Value = Fields;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields, A::Error> {
                let mut fields = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    let value: Value = map.next_value()?;
                    fields.push((key, value));
                }
                Ok(Fields(fields))
            }
        }
        deserializer.deserialize_map(FieldsVisitor)
    }
}

/// One line's object, its fields taken one by one; what is left over is an
/// unknown field.
struct Obj {
    line: usize,
    fields: Vec<(String, Value)>,
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl Obj {
    fn parse(line: usize, text: &str) -> Parsed<Self> {
        let Fields(fields) = serde_json::from_str(text).map_err(|e| {
            let message = e.to_string();
            // serde_json appends " at line 1 column N": say it our way.
            let message = message
                .rsplit_once(" at line ")
                .map_or(message.as_str(), |(m, _)| m);
            at_line(
                line,
                format!(
                    "not a JSON object on one line: {message}, at column {}",
                    e.column().max(1)
                ),
            )
        })?;
        let mut seen = HashSet::new();
        for (name, _) in &fields {
            if !seen.insert(name.as_str()) {
                return Err(at_field(line, name, "appears twice"));
            }
        }
        Ok(Self { line, fields })
    }

    fn has(&self, name: &str) -> bool {
        self.fields.iter().any(|(n, _)| n == name)
    }

    fn take(&mut self, name: &str) -> Option<Value> {
        let i = self.fields.iter().position(|(n, _)| n == name)?;
        Some(self.fields.remove(i).1)
    }

    fn err(&self, field: &str, message: impl Into<String>) -> ParseError {
        at_field(self.line, field, message)
    }

    fn required(&mut self, name: &str) -> Parsed<Value> {
        self.take(name).ok_or_else(|| self.err(name, "missing"))
    }

    /// A string, without NUL characters (which PostgreSQL cannot store).
    fn string(&mut self, name: &str) -> Parsed<String> {
        match self.required(name)? {
            Value::String(s) if s.contains('\0') => {
                Err(self.err(name, "contains a NUL character (\\u0000)"))
            }
            Value::String(s) => Ok(s),
            other => Err(self.err(
                name,
                format!("expected a string, found {}", json_type(&other)),
            )),
        }
    }

    fn non_empty(&mut self, name: &str) -> Parsed<String> {
        let s = self.string(name)?;
        if s.is_empty() {
            return Err(self.err(name, "is empty"));
        }
        Ok(s)
    }

    /// A string or null; absent means null.
    fn optional(&mut self, name: &str) -> Parsed<Option<String>> {
        match self.take(name) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => {
                self.fields.push((name.to_owned(), value));
                self.string(name).map(Some)
            }
        }
    }

    fn number(&mut self, name: &str) -> Parsed<u64> {
        let value = self.required(name)?;
        value.as_u64().ok_or_else(|| {
            self.err(
                name,
                match value {
                    Value::Number(n) => format!("expected a whole number from 0, found {n}"),
                    other => format!("expected a whole number, found {}", json_type(&other)),
                },
            )
        })
    }

    fn boolean(&mut self, name: &str) -> Parsed<bool> {
        match self.required(name)? {
            Value::Bool(b) => Ok(b),
            other => Err(self.err(
                name,
                format!("expected true or false, found {}", json_type(&other)),
            )),
        }
    }

    /// The value of `type`, checked to be `expected`.
    fn finish(self) -> Parsed<()> {
        match self.fields.first() {
            Some((name, _)) => Err(at_field(
                self.line,
                name,
                "unknown field (this program reads version 1 of the export format)",
            )),
            None => Ok(()),
        }
    }
}

/// The header's content.
struct Header {
    line: usize,
    secrets_included: bool,
    accounts_included: bool,
    counts: Counts,
}

fn parse_header(mut obj: Obj) -> Parsed<Header> {
    let line = obj.line;
    match obj.take("arbiter") {
        Some(Value::String(s)) if s == "export" => {}
        Some(_) => {
            return Err(obj.err(
                "arbiter",
                "expected \"export\": this is not an Arbiter export",
            ));
        }
        None => {
            return Err(at_line(
                line,
                "expected the header {\"arbiter\":\"export\",\"version\":1,…}: this is not an Arbiter export",
            ));
        }
    }
    let version = obj.number("version")?;
    if version != FORMAT_VERSION {
        return Err(obj.err(
            "version",
            format!(
                "version {version} of the export format is not supported: this program reads version {FORMAT_VERSION}"
            ),
        ));
    }
    let secrets_included = obj.boolean("secrets_included")?;
    let accounts_included = obj.boolean("accounts_included")?;
    let counts = Counts {
        competitions: obj.number("competitions")?,
        events: obj.number("events")?,
        keys: obj.number("keys")?,
        secrets: obj.number("secrets")?,
        accounts: obj.number("accounts")?,
        grants: obj.number("grants")?,
        tokens: obj.number("tokens")?,
    };
    obj.finish()?;
    if !secrets_included && counts.secrets > 0 {
        return Err(at_field(
            line,
            "secrets",
            "secrets are counted but `secrets_included` is false",
        ));
    }
    if !accounts_included && counts.accounts + counts.grants + counts.tokens > 0 {
        return Err(at_field(
            line,
            "accounts",
            "accounts, grants or tokens are counted but `accounts_included` is false",
        ));
    }
    Ok(Header {
        line,
        secrets_included,
        accounts_included,
        counts,
    })
}

/// A competition being read, with the line of each of its records.
struct Current {
    dump: CompetitionDump,
    format: CompetitionFormat,
    /// The line of its `competition` line.
    line: usize,
    /// Its announced number of events.
    announced: u64,
    event_lines: Vec<usize>,
    key_lines: Vec<usize>,
    /// Events, then keys, then secrets.
    stage: Stage,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    Events,
    Keys,
    Secrets,
}

/// Where the reader is: the sections come in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Section {
    Competitions,
    Accounts,
    Grants,
    Tokens,
}

impl Section {
    fn of(ty: &str) -> Option<Self> {
        Some(match ty {
            "competition" | "event" | "key" | "secret" => Self::Competitions,
            "account" => Self::Accounts,
            "grant" => Self::Grants,
            "token" => Self::Tokens,
            _ => return None,
        })
    }
}

struct Reader {
    header: Header,
    export: Export,
    current: Option<Current>,
    section: Section,
    /// Every key read so far, with its competition (keys are unique in a
    /// store).
    keys: HashMap<String, String>,
    usernames: HashSet<String>,
    /// Whether payloads are decoded and folded with their format.
    check_payloads: bool,
}

/// Read an export file and check it entirely: the structure, and every event
/// decoded with its competition's format and folded (see the module's
/// documentation). Never panics; a refusal names the line and field.
///
/// Lenient where it is safe: a UTF-8 byte order mark at the start, CRLF line
/// ends, blank lines and a missing final newline are accepted.
pub fn parse(input: &[u8]) -> Parsed<Export> {
    read(input, true)
}

/// [`parse`] from a reader, a line at a time: at most [`MAX_LINE`] bytes of
/// the file are held at once besides what was read from it, and reading
/// stops past [`MAX_FILE`] bytes (issue 14, item 5). A read error is refused
/// at the line it happened on.
pub fn parse_reader<R: BufRead>(input: R) -> Parsed<Export> {
    read(input, true)
}

/// [`parse`] without decoding the payloads: the structure only (for tests
/// of the format itself, whose payloads are not real events).
pub fn parse_structure(input: &[u8]) -> Parsed<Export> {
    read(input, false)
}

/// The next line of `input` into `buf` (without its `\n`), at most
/// [`MAX_LINE`] bytes (with a CR): `Ok(false)` at the end of the input.
fn next_line<R: BufRead>(input: &mut R, buf: &mut Vec<u8>, number: usize) -> Parsed<bool> {
    buf.clear();
    // One byte more than a line may have, and its newline: a longer line is
    // refused after reading no more than that.
    let limit = MAX_LINE as u64 + 2;
    let n = input
        .by_ref()
        .take(limit)
        .read_until(b'\n', buf)
        .map_err(|e| at_line(number, format!("cannot read the line: {e}")))?;
    if n == 0 {
        return Ok(false);
    }
    let ended = buf.last() == Some(&b'\n');
    if ended {
        buf.pop();
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    if buf.len() > MAX_LINE || (!ended && n as u64 == limit) {
        return Err(at_line(
            number,
            format!(
                "the line is longer than the {} MiB a line may have",
                MAX_LINE >> 20
            ),
        ));
    }
    Ok(true)
}

fn read<R: BufRead>(mut input: R, check_payloads: bool) -> Parsed<Export> {
    let mut reader: Option<Reader> = None;
    let mut last_line = 0;
    let mut total: u64 = 0;
    let mut buf = Vec::new();
    loop {
        let number = last_line + 1;
        if !next_line(&mut input, &mut buf, number)? {
            break;
        }
        last_line = number;
        total += buf.len() as u64 + 1;
        if total > MAX_FILE {
            return Err(at_line(
                number,
                format!(
                    "the file is larger than the {} GiB an import may be",
                    MAX_FILE >> 30
                ),
            ));
        }
        let raw = if number == 1 {
            buf.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&buf)
        } else {
            &buf
        };
        let text = std::str::from_utf8(raw).map_err(|e| {
            at_line(
                number,
                format!(
                    "not UTF-8: byte 0x{:02X} at column {} (export files are UTF-8; was it saved as Latin-1?)",
                    raw.get(e.valid_up_to()).copied().unwrap_or(0),
                    e.valid_up_to() + 1
                ),
            )
        })?;
        if text.trim().is_empty() {
            continue;
        }
        let obj = Obj::parse(number, text)?;
        match reader.as_mut() {
            None => {
                let header = parse_header(obj)?;
                reader = Some(Reader {
                    export: Export {
                        secrets_included: header.secrets_included,
                        accounts_included: header.accounts_included,
                        ..Export::default()
                    },
                    header,
                    current: None,
                    section: Section::Competitions,
                    keys: HashMap::new(),
                    usernames: HashSet::new(),
                    check_payloads,
                });
            }
            Some(reader) => reader.record(obj)?,
        }
    }
    let end = last_line + 1;
    let Some(mut reader) = reader else {
        return Err(at_line(
            1,
            "the file is empty: expected the header {\"arbiter\":\"export\",\"version\":1,…}",
        ));
    };
    reader.close_competition(end)?;
    let found = reader.export.counts();
    let announced = reader.header.counts;
    let pairs = [
        ("competitions", announced.competitions, found.competitions),
        ("events", announced.events, found.events),
        ("keys", announced.keys, found.keys),
        ("secrets", announced.secrets, found.secrets),
        ("accounts", announced.accounts, found.accounts),
        ("grants", announced.grants, found.grants),
        ("tokens", announced.tokens, found.tokens),
    ];
    for (what, announced, found) in pairs {
        if announced != found {
            return Err(at_line(
                end,
                format!(
                    "the end of the file: the header (line {}) announces {announced} {what}, the file has {found}: it is truncated or was edited",
                    reader.header.line
                ),
            ));
        }
    }
    Ok(reader.export)
}

impl Reader {
    fn record(&mut self, mut obj: Obj) -> Parsed<()> {
        let line = obj.line;
        if obj.has("arbiter") {
            return Err(at_field(
                line,
                "arbiter",
                format!(
                    "a second header (the first is line {}): two exports joined?",
                    self.header.line
                ),
            ));
        }
        let ty = obj.string("type")?;
        let section = Section::of(&ty).ok_or_else(|| {
            at_field(
                line,
                "type",
                format!(
                    "unknown record type {ty:?} (expected competition, event, key, secret, account, grant or token)"
                ),
            )
        })?;
        if section < self.section {
            return Err(at_field(
                line,
                "type",
                format!(
                    "a {ty} line after the {} section: the order is competitions (each with its events, keys and secrets), accounts, grants, tokens",
                    match self.section {
                        Section::Competitions => "competitions",
                        Section::Accounts => "accounts",
                        Section::Grants => "grants",
                        Section::Tokens => "tokens",
                    }
                ),
            ));
        }
        if section > Section::Competitions && !self.export.accounts_included {
            return Err(at_field(
                line,
                "type",
                format!("a {ty} line, but the header says `accounts_included`: false"),
            ));
        }
        if section > self.section {
            self.close_competition(line)?;
            self.section = section;
        }
        match ty.as_str() {
            "competition" => self.competition(obj),
            "event" => self.event(obj),
            "key" => self.key(obj),
            "secret" => self.secret(obj),
            "account" => self.account(obj),
            "grant" => self.grant(obj),
            _ => self.token(obj),
        }
    }

    /// The competition being read, for a line of `ty` at `stage`.
    fn current<'a>(
        slot: &'a mut Option<Current>,
        obj: &mut Obj,
        ty: &str,
        stage: Stage,
    ) -> Parsed<&'a mut Current> {
        let line = obj.line;
        let competition = obj.string("competition")?;
        let Some(current) = slot.as_mut() else {
            return Err(at_field(
                line,
                "competition",
                format!(
                    "a {ty} of competition {competition:?} before any `competition` line introduces it"
                ),
            ));
        };
        if competition != current.dump.id {
            return Err(at_field(
                line,
                "competition",
                format!(
                    "{competition:?} is not the competition being read ({:?}, line {}): each competition's events, keys and secrets follow its `competition` line",
                    current.dump.id, current.line
                ),
            ));
        }
        if stage < current.stage {
            return Err(at_field(
                line,
                "type",
                format!(
                    "a {ty} after the competition's {}: its events come first, then its keys, then its secrets",
                    match current.stage {
                        Stage::Events => "events",
                        Stage::Keys => "keys",
                        Stage::Secrets => "secrets",
                    }
                ),
            ));
        }
        current.stage = stage;
        Ok(current)
    }

    fn competition(&mut self, mut obj: Obj) -> Parsed<()> {
        let line = obj.line;
        let id = obj.string("id")?;
        crate::check_competition_id(&id).map_err(|e| at_field(line, "id", e.to_string()))?;
        let format_text = obj.string("format")?;
        let format = CompetitionFormat::of_id(&format_text).ok_or_else(|| {
            at_field(
                line,
                "format",
                format!(
                    "unknown format {format_text:?} (expected {})",
                    CompetitionFormat::ids_in_words()
                ),
            )
        })?;
        let announced = obj.number("events")?;
        obj.finish()?;
        if announced == 0 {
            return Err(at_field(
                line,
                "events",
                "a competition has at least one event",
            ));
        }
        self.close_competition(line)?;
        if let Some(previous) = self.export.competitions.last()
            && previous.id >= id
        {
            return Err(at_field(
                line,
                "id",
                format!(
                    "{id:?} comes after {:?}: competitions are listed sorted by id, each once",
                    previous.id
                ),
            ));
        }
        self.current = Some(Current {
            dump: CompetitionDump {
                id,
                events: Vec::new(),
                keys: Vec::new(),
                secrets: Vec::new(),
            },
            format,
            line,
            announced,
            event_lines: Vec::new(),
            key_lines: Vec::new(),
            stage: Stage::Events,
        });
        Ok(())
    }

    fn event(&mut self, mut obj: Obj) -> Parsed<()> {
        let line = obj.line;
        let current = Self::current(&mut self.current, &mut obj, "event", Stage::Events)?;
        let seq = obj.number("seq")?;
        let expected = current.dump.events.len() as u64 + 1;
        if seq != expected {
            return Err(at_field(
                line,
                "seq",
                if expected == 1 {
                    format!(
                        "expected 1 (a competition's events are numbered 1, 2, 3 …), found {seq}"
                    )
                } else {
                    format!("expected {expected} after {}, found {seq}", expected - 1)
                },
            ));
        }
        if seq > current.announced {
            return Err(at_field(
                line,
                "seq",
                format!(
                    "event {seq}, but the competition's line (line {}) announces {} events",
                    current.line, current.announced
                ),
            ));
        }
        let kind = obj.non_empty("kind")?;
        let actor = obj.string("actor")?;
        let recorded_at = obj.string("recorded_at")?;
        if chrono::DateTime::parse_from_rfc3339(&recorded_at).is_err() {
            return Err(at_field(
                line,
                "recorded_at",
                format!("{recorded_at:?} is not an RFC 3339 time like 2025-01-02T09:00:00Z"),
            ));
        }
        let idempotency_key = obj.optional("idempotency_key")?;
        let payload = obj.string("payload")?;
        obj.finish()?;
        let competition = current.dump.id.clone();
        current.dump.events.push(StoredEvent {
            competition,
            seq,
            kind,
            payload,
            actor,
            recorded_at,
            idempotency_key,
        });
        current.event_lines.push(line);
        Ok(())
    }

    fn key(&mut self, mut obj: Obj) -> Parsed<()> {
        let line = obj.line;
        let current = Self::current(&mut self.current, &mut obj, "key", Stage::Keys)?;
        let key = obj.string("key")?;
        let first = obj.number("first")?;
        let last = obj.number("last")?;
        let fingerprint = obj.string("fingerprint")?;
        obj.finish()?;
        if let Some(previous) = current.dump.keys.last()
            && previous.key >= key
        {
            return Err(at_field(
                line,
                "key",
                format!(
                    "{key:?} comes after {:?}: a competition's keys are listed sorted, each once",
                    previous.key
                ),
            ));
        }
        let n = current.dump.events.len() as u64;
        if first == 0 || first > last || last > n {
            return Err(at_field(
                line,
                if first == 0 || first > n {
                    "first"
                } else {
                    "last"
                },
                format!(
                    "the key {key:?} covers events {first} to {last}, outside the competition's events 1 to {n} (or empty)"
                ),
            ));
        }
        if let Some(other) = self.keys.get(&key) {
            return Err(at_field(
                line,
                "key",
                format!("the key {key:?} is already listed for competition {other:?}"),
            ));
        }
        self.keys.insert(key.clone(), current.dump.id.clone());
        current.dump.keys.push(KeyRecord {
            key,
            first,
            last,
            fingerprint,
        });
        current.key_lines.push(line);
        Ok(())
    }

    fn secret(&mut self, mut obj: Obj) -> Parsed<()> {
        let line = obj.line;
        if !self.export.secrets_included {
            return Err(at_field(
                line,
                "type",
                "a secret, but the header says `secrets_included`: false",
            ));
        }
        let current = Self::current(&mut self.current, &mut obj, "secret", Stage::Secrets)?;
        let name = obj.string("name")?;
        let value = obj.string("value")?;
        obj.finish()?;
        if let Some((previous, _)) = current.dump.secrets.last()
            && *previous >= name
        {
            return Err(at_field(
                line,
                "name",
                format!(
                    "{name:?} comes after {previous:?}: a competition's secrets are listed sorted by name, each once"
                ),
            ));
        }
        current.dump.secrets.push((name, value));
        Ok(())
    }

    fn account(&mut self, mut obj: Obj) -> Parsed<()> {
        let line = obj.line;
        let username = obj.non_empty("username")?;
        let display_name = obj.string("display_name")?;
        let email = obj.optional("email")?;
        let password_hash = obj.string("password_hash")?;
        let organizer = obj.boolean("organizer")?;
        let created_at = obj.string("created_at")?;
        obj.finish()?;
        if let Some(previous) = self.export.accounts.last()
            && previous.username >= username
        {
            return Err(at_field(
                line,
                "username",
                format!(
                    "{username:?} comes after {:?}: accounts are listed sorted by username, each once",
                    previous.username
                ),
            ));
        }
        self.usernames.insert(username.clone());
        self.export.accounts.push(Account {
            username,
            display_name,
            email,
            password_hash,
            organizer,
            created_at,
        });
        Ok(())
    }

    fn known_user(&self, line: usize, username: &str, what: &str) -> Parsed<()> {
        if self.usernames.contains(username) {
            Ok(())
        } else {
            Err(at_field(
                line,
                "username",
                format!("{what} of {username:?}, who has no `account` line in this file"),
            ))
        }
    }

    fn grant(&mut self, mut obj: Obj) -> Parsed<()> {
        let line = obj.line;
        let competition = obj.non_empty("competition")?;
        let username = obj.non_empty("username")?;
        let role_text = obj.string("role")?;
        let role = Role::parse(&role_text).ok_or_else(|| {
            at_field(
                line,
                "role",
                format!("unknown role {role_text:?} (expected owner, moderator or player)"),
            )
        })?;
        let player = obj.optional("player")?;
        obj.finish()?;
        self.known_user(line, &username, "a grant")?;
        let grant = Grant {
            competition,
            username,
            role,
            player,
        };
        if let Some(previous) = self.export.grants.last()
            && grant_order(previous) >= grant_order(&grant)
        {
            return Err(at_line(
                line,
                "grants are listed sorted by competition, username and role (owner, moderator, player), each once",
            ));
        }
        self.export.grants.push(grant);
        Ok(())
    }

    fn token(&mut self, mut obj: Obj) -> Parsed<()> {
        let line = obj.line;
        let username = obj.non_empty("username")?;
        let label = obj.string("label")?;
        let created_at = obj.string("created_at")?;
        let hash = obj.non_empty("hash")?;
        let expires_at = obj.optional("expires_at")?;
        obj.finish()?;
        if let Some(at) = &expires_at
            && chrono::DateTime::parse_from_rfc3339(at).is_err()
        {
            return Err(at_field(
                line,
                "expires_at",
                format!("{at:?} is not an RFC 3339 time such as \"2026-01-01T00:00:00Z\""),
            ));
        }
        self.known_user(line, &username, "an API token")?;
        let token = ApiToken {
            hash,
            username,
            label,
            created_at,
            expires_at,
            last_used: None,
        };
        if let Some(previous) = self.export.tokens.last()
            && token_order(previous) >= token_order(&token)
        {
            return Err(at_line(
                line,
                "API tokens are listed sorted by username, creation time, label and hash, each once",
            ));
        }
        if self.export.tokens.iter().any(|t| t.hash == token.hash) {
            return Err(at_field(line, "hash", "the same token hash appears twice"));
        }
        self.export.tokens.push(token);
        Ok(())
    }

    /// Check the competition being read as a whole and keep it. `line` is
    /// where the next thing begins (for what is missing).
    fn close_competition(&mut self, line: usize) -> Parsed<()> {
        let Some(current) = self.current.take() else {
            return Ok(());
        };
        let n = current.dump.events.len() as u64;
        if n != current.announced {
            return Err(at_field(
                current.line,
                "events",
                format!(
                    "competition {:?} announces {} events, the file has {n} before line {line}",
                    current.dump.id, current.announced
                ),
            ));
        }
        check_keys(&current)?;
        if self.check_payloads {
            check_payloads(&current)?;
        }
        self.export.competitions.push(current.dump);
        Ok(())
    }
}

/// Every keyed event lies in its key's range, and every event of a key's
/// range carries it.
fn check_keys(current: &Current) -> Parsed<()> {
    let ranges: HashMap<&str, (u64, u64)> = current
        .dump
        .keys
        .iter()
        .map(|k| (k.key.as_str(), (k.first, k.last)))
        .collect();
    for (event, &line) in current.dump.events.iter().zip(&current.event_lines) {
        if let Some(key) = &event.idempotency_key {
            match ranges.get(key.as_str()) {
                Some(&(first, last)) if (first..=last).contains(&event.seq) => {}
                Some(&(first, last)) => {
                    return Err(at_field(
                        line,
                        "idempotency_key",
                        format!(
                            "event {} carries the key {key:?}, whose `key` line gives events {first} to {last}",
                            event.seq
                        ),
                    ));
                }
                None => {
                    return Err(at_field(
                        line,
                        "idempotency_key",
                        format!(
                            "the key {key:?} has no `key` line in competition {:?}",
                            current.dump.id
                        ),
                    ));
                }
            }
        }
    }
    for (key, &line) in current.dump.keys.iter().zip(&current.key_lines) {
        for seq in key.first..=key.last {
            let index = usize::try_from(seq - 1).unwrap_or(usize::MAX);
            let carried = current
                .dump
                .events
                .get(index)
                .and_then(|e| e.idempotency_key.as_deref());
            if carried != Some(key.key.as_str()) {
                return Err(at_field(
                    line,
                    "first",
                    format!(
                        "event {seq} (line {}) lies in the key's range but does not carry the key {:?}",
                        current.event_lines.get(index).copied().unwrap_or(0),
                        key.key
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Decode and fold every event with the competition's format.
fn check_payloads(current: &Current) -> Parsed<()> {
    let first_line = current.event_lines.first().copied().unwrap_or(current.line);
    let created = current
        .dump
        .events
        .first()
        .and_then(|e| CompetitionFormat::of_kind(&e.kind));
    if created != Some(current.format) {
        return Err(at_field(
            first_line,
            "kind",
            format!(
                "the first event of {} ({}) must be its `{}` event",
                current.format.id(),
                current.dump.id,
                crate::with_format!(current.format, |F| F::CREATED)
            ),
        ));
    }
    crate::with_format!(current.format, |F| fold::<F>(current))
}

/// Decode every event as `F`, check its stored kind, and fold the log as
/// the service does (reverted events skipped, each checked against the
/// state before it).
fn fold<F: Format>(current: &Current) -> Parsed<()> {
    let id = &current.dump.id;
    let mut decoded = Vec::with_capacity(current.dump.events.len());
    let mut reverted = HashSet::new();
    for (event, &line) in current.dump.events.iter().zip(&current.event_lines) {
        let e = F::decode(&event.payload).map_err(|err| {
            at_field(
                line,
                "payload",
                format!("event {} of {id} cannot be read: {err}", event.seq),
            )
        })?;
        if F::kind(&e) != event.kind {
            return Err(at_field(
                line,
                "kind",
                format!(
                    "{:?}, but the payload is a {:?} event",
                    event.kind,
                    F::kind(&e)
                ),
            ));
        }
        if let Some(seq) = F::reverted(&e) {
            reverted.insert(seq);
        }
        decoded.push(e);
    }
    let mut state = F::default();
    for ((event, e), &line) in current
        .dump
        .events
        .iter()
        .zip(&decoded)
        .zip(&current.event_lines)
    {
        if reverted.contains(&event.seq) {
            continue;
        }
        state.try_apply(e).map_err(|err| {
            at_field(
                line,
                "payload",
                format!(
                    "event {} of {id} does not fit the events before it: {}",
                    event.seq, err.message
                ),
            )
        })?;
    }
    Ok(())
}

// ------------------------------------------------------------------ import

/// What an import wrote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Imported {
    pub competitions: Vec<String>,
    pub counts: Counts,
    pub secrets_included: bool,
}

/// Write a parsed export into `store`. Refused, with nothing written, when
/// one of its competitions exists ([`ServiceError::Exists`]), one of its
/// usernames is taken ([`StoreError::AccountExists`]), or the store refuses
/// it ([`StoreError::Exists`], [`StoreError::Invalid`]).
///
/// The competitions go in one transaction, the accounts with their grants
/// and tokens in a second: both are checked before the first, so only an
/// account registered with one of the imported usernames in between (or a
/// storage failure) can leave the competitions imported without the
/// accounts; the error then says so.
pub async fn import<S: EventStore + AccountStore>(
    store: &S,
    export: &Export,
) -> ServiceResult<Imported> {
    for c in &export.competitions {
        if store.version(&c.id).await? > 0 {
            return Err(ServiceError::Exists(c.id.clone()));
        }
    }
    for a in &export.accounts {
        if store.account(&a.username).await?.is_some() {
            return Err(StoreError::AccountExists(a.username.clone()).into());
        }
    }
    arbiter_store::check_account_import(&export.accounts, &export.grants, &export.tokens)?;
    store.import(&export.competitions).await?;
    if let Err(e) = store
        .import_accounts(&export.accounts, &export.grants, &export.tokens)
        .await
    {
        if export.competitions.is_empty() {
            return Err(e.into());
        }
        return Err(ServiceError::Input(format!(
            "the {} competitions were imported, but not the accounts: {e}",
            export.competitions.len()
        )));
    }
    Ok(Imported {
        competitions: export.competitions.iter().map(|c| c.id.clone()).collect(),
        counts: export.counts(),
        secrets_included: export.secrets_included,
    })
}
