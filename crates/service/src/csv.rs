//! CSV: players in, standings and results out.
//!
//! **Import** (`arbiter player import FILE.csv`): a header row names the
//! columns, in any order (case and surrounding spaces ignored). A TWS ladder
//! takes `name` and an optional `surname`; a Sunjang league `name`, `rank`
//! (30k..1k, 1d..9d, a trailing `?` marks it provisional), `rating`, and the
//! optional `provisional` (yes/no), `corr_rank` and `corr_rating`. An XMadn
//! league or Challengers event names its three players when it is created,
//! so it takes no import. Every row is read and checked, then every row is
//! decided by the rules one after the other on a copy of the competition,
//! and only then are all their events appended in one append: a refused row
//! stores nothing (all or nothing). Errors name the file, the line and the
//! column: `players.csv line 7, column `rank`: "12x" is not a rank ...`.
//!
//! The file must be UTF-8 (a byte-order mark is skipped; CRLF and LF line
//! ends both work); a cell in another encoding (Latin-1 from an old
//! spreadsheet) is refused with its line and column. At most
//! [`MAX_BYTES`] bytes and [`MAX_ROWS`] rows: a larger file is refused with
//! the line where the limit was passed (split it).
//!
//! **Export** (`arbiter standings --csv`, `arbiter results --csv`): one
//! header row, then one row per player or game, RFC 4180 with CRLF line
//! ends. Protection from formula injection (OWASP "CSV Injection"): a text
//! cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return
//! gets a leading single quote (`'`), so a spreadsheet shows it as text and
//! never runs it as a formula. Numbers we compute are written as numbers.

use std::collections::HashMap;

use arbiter_engine::sunjang::season::League as Sunjang;
use arbiter_engine::sunjang::{PlayerInfo, Rank};
use arbiter_engine::tws::Ladder;
use arbiter_engine::xmadn::challengers::Challengers;
use arbiter_engine::xmadn::league::League;
use arbiter_store::{EventStore, Seq, StoreError};

use crate::{
    Context, Executed, Format, RETRIES, Service, ServiceError, check_expected, sha256_hex,
};

/// The largest CSV file imported: 8 MiB (a player list is a few kilobytes;
/// anything bigger is a mistake or an attack).
pub const MAX_BYTES: usize = 8 * 1024 * 1024;
/// The most rows (players) one import takes.
pub const MAX_ROWS: usize = 20_000;
/// The longest cell, in characters.
pub const MAX_CELL: usize = 200;

/// A CSV file that cannot be imported: the file, the line (1 is the
/// header) and, when one is at fault, the column.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file} line {line}{}: {message}", column.as_ref().map(|c| format!(", column `{c}`")).unwrap_or_default())]
pub struct CsvError {
    pub file: String,
    pub line: u64,
    pub column: Option<String>,
    pub message: String,
}

impl CsvError {
    pub(crate) fn at(
        file: &str,
        line: u64,
        column: Option<&str>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            file: file.to_string(),
            line,
            column: column.map(str::to_string),
            message: message.into(),
        }
    }
}

impl From<CsvError> for ServiceError {
    fn from(e: CsvError) -> Self {
        ServiceError::Input(e.to_string())
    }
}

/// A row read: its line in the file and its cells by column.
#[derive(Debug, Clone)]
pub(crate) struct Row {
    pub(crate) line: u64,
    cells: HashMap<&'static str, String>,
}

impl Row {
    pub(crate) fn get(&self, column: &str) -> Option<&str> {
        self.cells
            .get(column)
            .map(String::as_str)
            .filter(|s| !s.is_empty())
    }
}

/// Read the rows of `bytes` with the columns `known` (of which `required`
/// must be there), checking encoding, size, shape and text cells.
pub(crate) fn rows(
    file: &str,
    bytes: &[u8],
    known: &[&'static str],
    required: &[&'static str],
) -> Result<Vec<Row>, CsvError> {
    if bytes.len() > MAX_BYTES {
        let line = bytes[..MAX_BYTES].iter().filter(|b| **b == b'\n').count() as u64 + 1;
        return Err(CsvError::at(
            file,
            line,
            None,
            format!(
                "the file is larger than {} MiB, the limit for a CSV import (it passes it on this line); split it",
                MAX_BYTES / (1024 * 1024)
            ),
        ));
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let columns = known.join(", ");
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(CsvError::at(
            file,
            1,
            None,
            format!("the file is empty: its first line must name the columns ({columns})"),
        ));
    }
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes);
    let mut header: Vec<Option<&'static str>> = Vec::new();
    let mut out = Vec::new();
    let mut record = csv::ByteRecord::new();
    let mut first = true;
    let mut lines = Lines::new(bytes);
    let mut last_line = 1;
    loop {
        let more = match reader.read_byte_record(&mut record) {
            Ok(more) => more,
            Err(e) => {
                let line = lines.line_at(e.position().map_or(0, csv::Position::byte));
                return Err(CsvError::at(
                    file,
                    line,
                    None,
                    format!("not readable as CSV: {e}"),
                ));
            }
        };
        if !more {
            break;
        }
        let line = lines.line_at(record.position().map_or(0, csv::Position::byte));
        last_line = line;
        if first {
            first = false;
            header = read_header(file, line, &record, known, required)?;
            continue;
        }
        if record.iter().all(|c| c.iter().all(u8::is_ascii_whitespace)) {
            // A blank line (or one of empty cells) is skipped.
            continue;
        }
        if out.len() >= MAX_ROWS {
            return Err(CsvError::at(
                file,
                line,
                None,
                format!("more than {MAX_ROWS} rows, the limit for one import; split the file"),
            ));
        }
        if record.len() != header.len() {
            return Err(CsvError::at(
                file,
                line,
                None,
                format!(
                    "{} cells, but the header names {} columns ({})",
                    record.len(),
                    header.len(),
                    header
                        .iter()
                        .flatten()
                        .copied()
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        let mut cells = HashMap::new();
        for (column, raw) in header.iter().zip(record.iter()) {
            let Some(column) = column else { continue };
            cells.insert(*column, text_cell(file, line, column, raw)?);
        }
        out.push(Row { line, cells });
    }
    // A quote never closed (a file cut short) runs to the end of the file,
    // which the reader takes as the last cell: refuse it, at the line where
    // the last record began. Quotes inside a quoted cell are doubled, so a
    // file whose quotes balance has an even number of them.
    if bytes.iter().filter(|b| **b == b'"').count() % 2 == 1 {
        return Err(CsvError::at(
            file,
            last_line,
            None,
            "a quote opened on this line is never closed (is the file cut short?)",
        ));
    }
    if header.is_empty() {
        return Err(CsvError::at(
            file,
            1,
            None,
            format!("the file is empty: its first line must name the columns ({columns})"),
        ));
    }
    if out.is_empty() {
        return Err(CsvError::at(
            file,
            2,
            None,
            "no rows after the header: nothing to import",
        ));
    }
    Ok(out)
}

/// The line of a byte offset, counted forward (the reader's offsets only
/// grow): LF, CRLF and a lone CR each end a line, as they end a record.
/// (The csv crate's own line numbers do not count the blank lines it skips.)
#[derive(Debug)]
struct Lines<'a> {
    bytes: &'a [u8],
    at: usize,
    line: u64,
}

impl<'a> Lines<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Self {
            bytes,
            at: 0,
            line: 1,
        }
    }

    fn line_at(&mut self, offset: u64) -> u64 {
        let mut offset = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(self.bytes.len());
        // The reader's offset is where the previous record ended: the line
        // ends and blank lines it skipped come first.
        while matches!(self.bytes.get(offset), Some(b'\r' | b'\n')) {
            offset += 1;
        }
        while self.at < offset {
            match self.bytes[self.at] {
                b'\n' => self.line += 1,
                b'\r' if self.bytes.get(self.at + 1) != Some(&b'\n') => self.line += 1,
                _ => {}
            }
            self.at += 1;
        }
        self.line
    }
}

fn read_header(
    file: &str,
    line: u64,
    record: &csv::ByteRecord,
    known: &[&'static str],
    required: &[&'static str],
) -> Result<Vec<Option<&'static str>>, CsvError> {
    let columns = known.join(", ");
    let mut header = Vec::new();
    for (i, raw) in record.iter().enumerate() {
        let name = std::str::from_utf8(raw).map_err(|_| {
            CsvError::at(
                file,
                line,
                None,
                format!(
                    "header cell {} is not UTF-8; save the file as UTF-8 (CSV UTF-8 in a spreadsheet)",
                    i + 1
                ),
            )
        })?;
        let name = name.trim().to_ascii_lowercase().replace([' ', '-'], "_");
        let Some(column) = known.iter().copied().find(|k| *k == name) else {
            if name.is_empty() {
                return Err(CsvError::at(
                    file,
                    line,
                    None,
                    format!("header cell {} is empty; the columns are {columns}", i + 1),
                ));
            }
            return Err(CsvError::at(
                file,
                line,
                Some(&shorten(&name)),
                format!("unknown column; the columns are {columns}"),
            ));
        };
        if header.contains(&Some(column)) {
            return Err(CsvError::at(
                file,
                line,
                Some(column),
                "the column is named twice",
            ));
        }
        header.push(Some(column));
    }
    for r in required {
        if !header.contains(&Some(*r)) {
            return Err(CsvError::at(
                file,
                line,
                Some(r),
                format!("missing column (the header names {})", {
                    let named: Vec<&str> = header.iter().flatten().copied().collect();
                    if named.is_empty() {
                        "none".to_string()
                    } else {
                        named.join(", ")
                    }
                }),
            ));
        }
    }
    Ok(header)
}

/// A cell as trimmed text: UTF-8, no control characters, not too long.
fn text_cell(file: &str, line: u64, column: &str, raw: &[u8]) -> Result<String, CsvError> {
    let text = std::str::from_utf8(raw).map_err(|e| {
        CsvError::at(
            file,
            line,
            Some(column),
            format!(
                "not UTF-8 (byte 0x{:02X}; Latin-1 or Windows-1252?): save the file as UTF-8",
                raw.get(e.valid_up_to()).copied().unwrap_or(0)
            ),
        )
    })?;
    let text = text.trim();
    if text.contains(['\n', '\r']) {
        return Err(CsvError::at(
            file,
            line,
            Some(column),
            "a line break inside the cell: a quote opened here is not closed where it should be",
        ));
    }
    if let Some(c) = text.chars().find(|c| c.is_control()) {
        return Err(CsvError::at(
            file,
            line,
            Some(column),
            format!("contains the control character U+{:04X}", u32::from(c)),
        ));
    }
    if text.chars().count() > MAX_CELL {
        return Err(CsvError::at(
            file,
            line,
            Some(column),
            format!("longer than {MAX_CELL} characters"),
        ));
    }
    Ok(text.to_string())
}

/// Text quoted in an error: at most 40 characters, control characters
/// escaped (never written raw to the terminal).
fn shorten(s: &str) -> String {
    let mut out = escaped_prefix(s, 40);
    if s.chars().count() > 40 {
        out.push('…');
    }
    out
}

/// The first `max` characters of `s` as an error may quote them: control
/// characters escaped (a NUL shows as `\0`), never written raw to the
/// terminal. The CSV import's errors and the CLI's script errors use it.
pub fn escaped_prefix(s: &str, max: usize) -> String {
    s.chars()
        .take(max)
        .map(|c| {
            if c.is_control() {
                c.escape_debug().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// A name: not empty, and not something a spreadsheet would run.
fn name_cell(file: &str, row: &Row) -> Result<String, CsvError> {
    let name = row.get("name").ok_or_else(|| {
        CsvError::at(
            file,
            row.line,
            Some("name"),
            "empty: every player needs a name",
        )
    })?;
    if let Some(c) = name.chars().next().filter(|c| FORMULA_STARTS.contains(c)) {
        return Err(CsvError::at(
            file,
            row.line,
            Some("name"),
            format!(
                "{:?} starts with `{c}`, which a spreadsheet would run as a formula; a name cannot",
                shorten(name)
            ),
        ));
    }
    Ok(name.to_string())
}

/// Names repeated in the file (case and spaces ignored), naming both lines.
fn check_duplicates<'a>(
    file: &str,
    names: impl Iterator<Item = (u64, &'a str)>,
) -> Result<(), CsvError> {
    let mut seen: HashMap<String, u64> = HashMap::new();
    for (line, name) in names {
        let key = name
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase();
        if let Some(first) = seen.insert(key, line) {
            return Err(CsvError::at(
                file,
                line,
                Some("name"),
                format!("{name:?} is already on line {first}"),
            ));
        }
    }
    Ok(())
}

/// A ladder player to add: `name`, `surname`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LadderPlayer {
    pub line: u64,
    pub name: String,
    pub surname: Option<String>,
}

/// The columns of a ladder's player file.
pub const LADDER_COLUMNS: &[&str] = &["name", "surname"];
/// The columns of a Sunjang league's player file.
pub const SUNJANG_COLUMNS: &[&str] = &[
    "name",
    "rank",
    "provisional",
    "rating",
    "corr_rank",
    "corr_rating",
];

/// Read a ladder's player file (see the module's documentation).
pub fn parse_ladder_players(file: &str, bytes: &[u8]) -> Result<Vec<LadderPlayer>, CsvError> {
    let rows = rows(file, bytes, LADDER_COLUMNS, &["name"])?;
    let players = rows
        .iter()
        .map(|r| {
            let name = name_cell(file, r)?;
            let surname = surname_cell(file, r)?;
            Ok(LadderPlayer {
                line: r.line,
                name,
                surname,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    check_duplicates(file, players.iter().map(|p| (p.line, p.name.as_str())))?;
    Ok(players)
}

/// A Sunjang player to register, with the line it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SunjangPlayer {
    pub line: u64,
    pub info: PlayerInfo,
}

fn rank_cell(file: &str, row: &Row, column: &str) -> Result<Option<(Rank, bool)>, CsvError> {
    row.get(column)
        .map(|s| {
            Rank::parse(s).map_err(|_| {
                CsvError::at(
                    file,
                    row.line,
                    Some(column),
                    format!(
                        "{:?} is not a rank (30k..1k, 1d..9d; a trailing ? marks it provisional)",
                        shorten(s)
                    ),
                )
            })
        })
        .transpose()
}

fn rating_cell(file: &str, row: &Row, column: &str) -> Result<Option<i32>, CsvError> {
    row.get(column)
        .map(|s| {
            s.parse::<i32>()
                .ok()
                .filter(|r| (-10_000..=10_000).contains(r))
                .ok_or_else(|| {
                    CsvError::at(
                        file,
                        row.line,
                        Some(column),
                        format!("{:?} is not a rating (a whole number)", shorten(s)),
                    )
                })
        })
        .transpose()
}

/// A Sunjang player's figures from a row: `name`, `rank` (a trailing `?`
/// marks it provisional), `provisional`, `rating`, `corr_rank`,
/// `corr_rating`.
fn sunjang_info(file: &str, r: &Row) -> Result<PlayerInfo, CsvError> {
    let name = name_cell(file, r)?;
    let (rank, marked) = rank_cell(file, r, "rank")?.ok_or_else(|| {
        CsvError::at(
            file,
            r.line,
            Some("rank"),
            "empty: every player needs a rank",
        )
    })?;
    let rating = rating_cell(file, r, "rating")?.ok_or_else(|| {
        CsvError::at(
            file,
            r.line,
            Some("rating"),
            "empty: every player needs a rating",
        )
    })?;
    Ok(PlayerInfo {
        name,
        rank,
        provisional: yes_no(file, r, "provisional")? || marked,
        rating,
        corr_rank: rank_cell(file, r, "corr_rank")?.map(|x| x.0),
        corr_rating: rating_cell(file, r, "corr_rating")?,
    })
}

/// A yes/no cell (empty is no).
fn yes_no(file: &str, r: &Row, column: &str) -> Result<bool, CsvError> {
    match r.get(column).map(str::to_ascii_lowercase).as_deref() {
        None | Some("no" | "false" | "0" | "n") => Ok(false),
        Some("yes" | "true" | "1" | "y") => Ok(true),
        Some(other) => Err(CsvError::at(
            file,
            r.line,
            Some(column),
            format!("{:?} is not yes or no", shorten(other)),
        )),
    }
}

/// Read a Sunjang league's player file (see the module's documentation).
pub fn parse_sunjang_players(file: &str, bytes: &[u8]) -> Result<Vec<SunjangPlayer>, CsvError> {
    let rows = rows(file, bytes, SUNJANG_COLUMNS, &["name", "rank", "rating"])?;
    let players = rows
        .iter()
        .map(|r| {
            Ok(SunjangPlayer {
                line: r.line,
                info: sunjang_info(file, r)?,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    check_duplicates(file, players.iter().map(|p| (p.line, p.info.name.as_str())))?;
    Ok(players)
}

/// What an import stored.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The players added, in the file's order.
    pub players: Vec<String>,
    pub first: Seq,
    pub last: Seq,
    /// True when the idempotency key had been used: nothing new was stored.
    pub replayed: bool,
}

impl<S: EventStore> Service<S> {
    /// Import the players of a CSV file into a competition, all or nothing
    /// (see the module's documentation). `file` names the file in errors.
    pub async fn import_players_csv(
        &self,
        competition: &str,
        file: &str,
        bytes: &[u8],
        ctx: &Context,
    ) -> crate::Result<Imported> {
        crate::with_format!(self.format_of(competition).await?, |F| {
            let rows = F::import_players(competition, file, bytes)?;
            let names = rows.iter().map(|(_, name, _)| name.clone()).collect();
            let commands = rows.into_iter().map(|(line, _, c)| (line, c)).collect();
            let done = self
                .execute_all::<F>(competition, file, commands, ctx)
                .await?;
            Ok(imported(names, &done))
        })
    }

    /// Decide every command in order on a copy of the state (a refusal
    /// names the file's line and stores nothing), then append all their
    /// events in one append.
    async fn execute_all<F: Format>(
        &self,
        competition: &str,
        file: &str,
        commands: Vec<(u64, F::Command)>,
        ctx: &Context,
    ) -> crate::Result<Executed<F::Event>> {
        let request: Vec<String> = commands.iter().map(|(_, c)| F::request(c)).collect();
        let fingerprint = sha256_hex(&format!("import {}", request.join("\n")));
        if let Some(done) = self.replay(competition, ctx, &fingerprint).await? {
            return Ok(done);
        }
        for attempt in 0..RETRIES {
            let (mut state, version) = self.load_as::<F>(competition, None).await?;
            check_expected(ctx, competition, version)?;
            let mut events = Vec::new();
            for (line, command) in &commands {
                let more = state.decide(command.clone()).map_err(|e| {
                    ServiceError::Input(format!("{file} line {line}: {e}; nothing was imported"))
                })?;
                for e in &more {
                    state.apply(e);
                }
                events.extend(more);
            }
            match self
                .append::<F>(competition, version, events, ctx, &fingerprint, state)
                .await
            {
                Err(ServiceError::Store(StoreError::Conflict { .. }))
                    if ctx.expected.is_none() && attempt + 1 < RETRIES => {}
                other => return other,
            }
        }
        Err(ServiceError::Input(
            "too many concurrent writers; try again".into(),
        ))
    }
}

fn imported<E>(players: Vec<String>, done: &Executed<E>) -> Imported {
    Imported {
        players,
        first: done.first,
        last: done.last,
        replayed: done.replayed,
    }
}

// ---------------------------------------------------------------- results

/// The columns every results file may have (issue 18 §2), beside the
/// format's own ([`Format::RESULT_COLUMNS`]): the game (`game`: its label,
/// `G5`, or its two players as `A-B`; or its players in two columns,
/// `home` and `away`, `black` and `white`, or `player_a` and `player_b`),
/// the result (`result` or `score`, as the format's what-if reads it) and
/// when it was played (`at`: `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM` or RFC 3339;
/// the time of the import when empty).
pub const RESULT_COLUMNS: &[&str] = &[
    "game", "home", "away", "black", "white", "player_a", "player_b", "result", "score", "at",
];

/// The pairs of columns that name a game's two players, in the key's
/// order.
const PLAYER_COLUMNS: &[(&str, &str)] = &[
    ("home", "away"),
    ("black", "white"),
    ("player_a", "player_b"),
];

/// One row of a results file: its game, its result, when, and the
/// format's own columns.
#[derive(Debug, Clone)]
pub struct ResultRow {
    pub line: u64,
    /// The game as the format's what-if names it: a label (`G5`) or two
    /// players, `A-B`.
    pub game: String,
    /// The column (or columns) the game came from, for errors.
    pub game_column: &'static str,
    /// The result as the format's what-if reads it.
    pub result: String,
    /// The column the result came from, for errors.
    pub result_column: &'static str,
    /// When the game was played, if the row says.
    pub at: Option<arbiter_engine::model::Time>,
    row: Row,
}

impl ResultRow {
    /// A cell of the format's own columns, `None` when empty.
    pub fn get(&self, column: &str) -> Option<&str> {
        self.row.get(column)
    }
}

/// A time as the files and the command line give it: `YYYY-MM-DD`
/// (midnight UTC), `YYYY-MM-DDTHH:MM[:SS]`, `YYYY-MM-DD HH:MM` (UTC) or
/// RFC 3339, in the years 1970 to 9998.
pub fn parse_time(s: &str) -> Result<arbiter_engine::model::Time, String> {
    use chrono::{Datelike, NaiveDate, NaiveDateTime, TimeZone, Utc};
    let s = s.trim();
    let t = if let Ok(t) = chrono::DateTime::parse_from_rfc3339(s) {
        Some(t.with_timezone(&Utc))
    } else {
        ["%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"]
            .iter()
            .find_map(|f| NaiveDateTime::parse_from_str(s, f).ok())
            .or_else(|| {
                NaiveDate::parse_from_str(s, "%Y-%m-%d")
                    .ok()
                    .and_then(|d| d.and_hms_opt(0, 0, 0))
            })
            .map(|t| Utc.from_utc_datetime(&t))
    };
    let Some(t) = t else {
        return Err(format!(
            "{:?} is not a time: use YYYY-MM-DD, YYYY-MM-DDTHH:MM or RFC 3339",
            escaped_prefix(s, 40)
        ));
    };
    if !(1970..=9998).contains(&t.year()) {
        return Err(format!(
            "{:?} is outside the years 1970 to 9998 that Arbiter records",
            escaped_prefix(s, 40)
        ));
    }
    Ok(t)
}

/// Read a results file with the shared columns and `own` (see
/// [`RESULT_COLUMNS`]): every row names its game and its result.
pub fn parse_results(
    file: &str,
    bytes: &[u8],
    own: &[&'static str],
) -> Result<Vec<ResultRow>, CsvError> {
    let known: Vec<&'static str> = RESULT_COLUMNS.iter().chain(own).copied().collect();
    let rows = rows(file, bytes, &known, &[])?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let (game, game_column) = match row.get("game") {
            Some(g) => (g.to_string(), "game"),
            None => {
                let pair = PLAYER_COLUMNS
                    .iter()
                    .find_map(|&(a, b)| Some((row.get(a)?, row.get(b)?, a, b)));
                let Some((x, y, a, b)) = pair else {
                    return Err(CsvError::at(
                        file,
                        row.line,
                        Some("game"),
                        "no game: name it in `game` (G5, or A-B), or its two players in `home` and `away`, `black` and `white`, or `player_a` and `player_b`",
                    ));
                };
                let column = match (a, b) {
                    ("home", _) => "home, away",
                    ("black", _) => "black, white",
                    _ => "player_a, player_b",
                };
                (format!("{x}-{y}"), column)
            }
        };
        let (result, result_column) = match (row.get("result"), row.get("score")) {
            (Some(r), _) => (r.to_string(), "result"),
            (None, Some(s)) => (s.to_string(), "score"),
            (None, None) => {
                return Err(CsvError::at(
                    file,
                    row.line,
                    Some("result"),
                    "empty: every row needs its result (or score)",
                ));
            }
        };
        let at = row
            .get("at")
            .map(|t| parse_time(t).map_err(|e| CsvError::at(file, row.line, Some("at"), e)))
            .transpose()?;
        out.push(ResultRow {
            line: row.line,
            game,
            game_column,
            result,
            result_column,
            at,
            row,
        });
    }
    Ok(out)
}

/// What a results import did, or would do (a dry run).
#[derive(Debug, Clone, serde::Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct ImportedResults {
    /// Each row in words, in the file's order, with its line
    /// ("line 2: G3 Spain v Germany: 1-1"); a row whose result was already
    /// recorded says so.
    pub rows: Vec<String>,
    /// How many rows recorded something new.
    pub recorded: usize,
    /// How many rows were already recorded as they are in the file.
    pub unchanged: usize,
    /// True for a dry run: nothing was stored.
    pub dry_run: bool,
    /// The first and last event stored (0 for a dry run, or when every row
    /// was already recorded).
    pub first: Seq,
    pub last: Seq,
    /// True when the idempotency key had been used: nothing new was stored.
    pub replayed: bool,
}

/// A service error about a row of a results file as
/// [`Format::result_row`] answers it: a refusal naming the score or the
/// result is the result column's, any other the game's.
pub fn row_error(row: &ResultRow, e: ServiceError) -> (Option<&'static str>, String) {
    let column = match &e {
        ServiceError::Rule(r)
            if matches!(
                r.field.as_deref(),
                Some("score" | "result" | "outcome" | "winner")
            ) =>
        {
            Some(row.result_column)
        }
        _ => None,
    };
    let message = match e {
        ServiceError::Rule(r) => format!("{} [{}]", r.message, r.clause),
        e => e.to_string(),
    };
    (column, message)
}

/// What [`Format::result_row`] answers: the row's outcome, or the column
/// at fault (`None`: the game's) and why.
pub type RowResult<C> = Result<RowOutcome<C>, (Option<&'static str>, String)>;

/// What a format makes of one row of a results file on its state as the
/// rows before it left it.
#[derive(Debug, Clone)]
pub enum RowOutcome<C> {
    /// Record this, described so.
    Record(C, String),
    /// The result is already recorded as the row gives it: nothing to do.
    Unchanged(String),
}

impl<S: EventStore> Service<S> {
    /// Import the results of a CSV file into a competition (issue 18 §2):
    /// every row is decided by the rules in order on a copy, as the
    /// format reads it ([`Format::result_row`]); a refused row names its
    /// line and column and stores nothing; then all the events are stored
    /// in one append, or, with `dry_run`, nothing is and the rows say what
    /// would be.
    pub async fn import_results_csv(
        &self,
        competition: &str,
        file: &str,
        bytes: &[u8],
        dry_run: bool,
        ctx: &Context,
    ) -> crate::Result<ImportedResults> {
        crate::with_format!(self.format_of(competition).await?, |F| {
            self.import_results::<F>(competition, file, bytes, dry_run, ctx)
                .await
        })
    }

    async fn import_results<F: Format>(
        &self,
        competition: &str,
        file: &str,
        bytes: &[u8],
        dry_run: bool,
        ctx: &Context,
    ) -> crate::Result<ImportedResults> {
        if !F::OFFERS_RESULT_IMPORT {
            return Err(ServiceError::Input(format!(
                "{competition} is {}, which takes no results file",
                F::NAME
            )));
        }
        let rows = parse_results(file, bytes, F::RESULT_COLUMNS)?;
        let fingerprint = sha256_hex(&format!(
            "import results {}",
            sha256_hex(&String::from_utf8_lossy(bytes))
        ));
        if !dry_run
            && let Some(done) = self
                .replay::<F::Event>(competition, ctx, &fingerprint)
                .await?
        {
            return Ok(ImportedResults {
                rows: Vec::new(),
                recorded: 0,
                unchanged: 0,
                dry_run,
                first: done.first,
                last: done.last,
                replayed: true,
            });
        }
        for attempt in 0..RETRIES {
            let (mut state, version) = self.load_as::<F>(competition, None).await?;
            check_expected(ctx, competition, version)?;
            let mut events = Vec::new();
            let mut said = Vec::with_capacity(rows.len());
            let (mut recorded, mut unchanged) = (0, 0);
            for row in &rows {
                let at = row.at.unwrap_or(ctx.at);
                let outcome = state.result_row(row, at).map_err(|(column, message)| {
                    let column = column.unwrap_or(row.game_column);
                    ServiceError::Input(format!(
                        "{}; nothing was imported",
                        CsvError::at(file, row.line, Some(column), message)
                    ))
                })?;
                match outcome {
                    RowOutcome::Unchanged(text) => {
                        unchanged += 1;
                        said.push(format!("line {}: {text} (already recorded)", row.line));
                    }
                    RowOutcome::Record(command, text) => {
                        let more = state.decide(command).map_err(|e| {
                            ServiceError::Input(format!(
                                "{file} line {}: {e}; nothing was imported",
                                row.line
                            ))
                        })?;
                        for e in &more {
                            state.apply(e);
                        }
                        events.extend(more);
                        recorded += 1;
                        said.push(format!("line {}: {text}", row.line));
                    }
                }
            }
            let answer = |first, last, replayed| ImportedResults {
                rows: said.clone(),
                recorded,
                unchanged,
                dry_run,
                first,
                last,
                replayed,
            };
            if dry_run || events.is_empty() {
                return Ok(answer(0, 0, false));
            }
            match self
                .append::<F>(competition, version, events, ctx, &fingerprint, state)
                .await
            {
                Err(ServiceError::Store(StoreError::Conflict { .. }))
                    if ctx.expected.is_none() && attempt + 1 < RETRIES => {}
                Err(e) => return Err(e),
                Ok(done) => return Ok(answer(done.first, done.last, done.replayed)),
            }
        }
        Err(ServiceError::Input(
            "too many concurrent writers; try again".into(),
        ))
    }
}

// ---------------------------------------------------------------- export

/// The characters that make a spreadsheet read a cell as a formula (OWASP
/// CSV Injection): such a text cell is written with a leading `'`.
pub const FORMULA_STARTS: &[char] = &['=', '+', '-', '@', '\t', '\r'];

/// A text cell made safe from formula injection: a leading `'` when it
/// starts with `=`, `+`, `-`, `@`, a tab or a carriage return.
pub fn safe_cell(text: &str) -> std::borrow::Cow<'_, str> {
    if text.starts_with(FORMULA_STARTS) {
        std::borrow::Cow::Owned(format!("'{text}"))
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// A cell of an exported row: text (made safe) or a number we computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cell {
    Text(String),
    Number(i64),
    Empty,
}

impl From<&str> for Cell {
    fn from(s: &str) -> Self {
        Cell::Text(s.to_string())
    }
}
impl From<String> for Cell {
    fn from(s: String) -> Self {
        Cell::Text(s)
    }
}
impl From<&String> for Cell {
    fn from(s: &String) -> Self {
        Cell::Text(s.clone())
    }
}
impl<T: Into<Cell>> From<Option<T>> for Cell {
    fn from(v: Option<T>) -> Self {
        v.map_or(Cell::Empty, Into::into)
    }
}
macro_rules! number_cell {
    ($($t:ty),*) => {$(
        impl From<$t> for Cell {
            fn from(n: $t) -> Self {
                i64::try_from(n).map_or_else(|_| Cell::Text(n.to_string()), Cell::Number)
            }
        }
    )*};
}
number_cell!(u8, u32, u64, usize, i32, i64);
impl From<bool> for Cell {
    fn from(b: bool) -> Self {
        Cell::Text(if b { "yes" } else { "no" }.into())
    }
}

/// A table to export: a header and rows of cells.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Table {
    pub header: Vec<&'static str>,
    /// The rows as they are written (text cells already made safe).
    pub rows: Vec<Vec<String>>,
}

impl Table {
    pub(crate) fn new(header: &[&'static str]) -> Self {
        Self {
            header: header.to_vec(),
            rows: Vec::new(),
        }
    }

    pub(crate) fn push(&mut self, cells: Vec<Cell>) {
        self.rows.push(
            cells
                .into_iter()
                .map(|c| match c {
                    Cell::Text(t) => safe_cell(&t).into_owned(),
                    Cell::Number(n) => n.to_string(),
                    Cell::Empty => String::new(),
                })
                .collect(),
        );
    }

    /// The table as CSV text (RFC 4180, CRLF line ends).
    pub fn to_csv(&self) -> crate::Result<String> {
        let mut w = csv::WriterBuilder::new()
            .terminator(csv::Terminator::CRLF)
            .from_writer(Vec::new());
        let fail = |e: csv::Error| ServiceError::Input(format!("cannot write CSV: {e}"));
        w.write_record(&self.header).map_err(fail)?;
        for r in &self.rows {
            w.write_record(r).map_err(fail)?;
        }
        let bytes = w
            .into_inner()
            .map_err(|e| ServiceError::Input(format!("cannot write CSV: {e}")))?;
        String::from_utf8(bytes).map_err(|e| ServiceError::Input(format!("cannot write CSV: {e}")))
    }
}

/// A ladder's standings: one row per rung.
pub fn ladder_standings(ladder: &Ladder, competition: &str, version: u64) -> Table {
    let v = crate::views::ladder_view(ladder, competition, version);
    let mut t = Table::new(&[
        "rung",
        "player",
        "wins",
        "losses",
        "ties",
        "ussr",
        "us",
        "last_move",
        "round_status",
    ]);
    for r in &v.rungs {
        t.push(vec![
            r.rung.into(),
            (&r.name).into(),
            r.ladder.wins.into(),
            r.ladder.losses.into(),
            r.ladder.ties.into(),
            r.ussr.into(),
            r.us.into(),
            (&r.last_move).into(),
            (&r.round_status).into(),
        ]);
    }
    t
}

/// A ladder's games with their results.
pub fn ladder_results(ladder: &Ladder, now: arbiter_engine::model::Time) -> Table {
    let mut t = Table::new(&[
        "game", "round", "ussr", "us", "status", "outcome", "winner", "ended_by", "vp", "turn",
        "note",
    ]);
    for g in &ladder.games {
        let v = crate::views::game_view(ladder, g, now);
        let r = v.result.as_ref();
        t.push(vec![
            (&v.id).into(),
            v.round.into(),
            (&v.ussr).into(),
            (&v.us).into(),
            (&v.status).into(),
            r.map(|r| r.outcome.clone()).into(),
            r.and_then(|r| r.winner.clone()).into(),
            r.map(|r| r.ended_by.clone()).into(),
            r.and_then(|r| r.vp).into(),
            r.and_then(|r| r.turn).into(),
            r.and_then(|r| r.note.clone()).into(),
        ]);
    }
    t
}

/// An XMadn league's table.
pub fn league_standings(l: &League, competition: &str, version: u64) -> Table {
    let v = crate::xmadn::league_view(l, competition, version);
    let mut t = Table::new(&[
        "place",
        "player",
        "played",
        "wins",
        "losses",
        "pawns_for",
        "pawns_against",
        "pawn_difference",
        "win_minutes",
    ]);
    for r in &v.table {
        t.push(vec![
            r.place.into(),
            (&r.player).into(),
            r.played.into(),
            r.wins.into(),
            r.losses.into(),
            r.pawns_for.into(),
            r.pawns_against.into(),
            r.pawn_difference.into(),
            r.win_minutes.into(),
        ]);
    }
    t
}

/// An XMadn league's games: the double round-robins, then the playoffs.
pub fn league_results(l: &League, competition: &str, version: u64) -> Table {
    let v = crate::xmadn::league_view(l, competition, version);
    let mut t = Table::new(&[
        "game", "stage", "player_a", "player_b", "status", "score", "winner", "time", "note",
    ]);
    let games = v
        .drrs
        .iter()
        .flat_map(|d| d.games.iter())
        .chain(v.playoffs.iter().flat_map(|p| p.games.iter()));
    for g in games {
        t.push(vec![
            (&g.label).into(),
            (&g.stage).into(),
            (&g.players[0]).into(),
            (&g.players[1]).into(),
            g.status.into(),
            g.score.clone().into(),
            g.winner.clone().into(),
            g.time.clone().into(),
            g.note.clone().into(),
        ]);
    }
    t
}

/// A Challengers event's standings.
pub fn challengers_standings(c: &Challengers, competition: &str, version: u64) -> Table {
    let v = crate::xmadn::challengers_view(c, competition, version);
    let mut t = Table::new(&[
        "place",
        "player",
        "wins",
        "losses",
        "at_boards",
        "sat_out",
        "pawns_for",
        "pawns_against",
        "champion",
    ]);
    for r in &v.standings {
        t.push(vec![
            r.place.into(),
            (&r.player).into(),
            r.wins.into(),
            r.losses.into(),
            r.at_boards.into(),
            r.sat_out.into(),
            r.pawns_for.into(),
            r.pawns_against.into(),
            r.champion.into(),
        ]);
    }
    t
}

/// A Challengers event's counted games.
pub fn challengers_results(c: &Challengers, competition: &str, version: u64) -> Table {
    let v = crate::xmadn::challengers_view(c, competition, version);
    let mut t = Table::new(&[
        "game",
        "player_a",
        "player_b",
        "colours_a",
        "colours_b",
        "score",
        "winner",
        "time",
        "sat_out",
    ]);
    for g in &v.games {
        t.push(vec![
            g.number.into(),
            (&g.players[0]).into(),
            (&g.players[1]).into(),
            (&g.colours[0]).into(),
            (&g.colours[1]).into(),
            (&g.score).into(),
            (&g.winner).into(),
            (&g.time).into(),
            (&g.sat_out).into(),
        ]);
    }
    t
}

/// A Sunjang league's group tables, every season.
pub fn sunjang_standings(l: &Sunjang) -> Table {
    let mut t = Table::new(&[
        "season",
        "division",
        "group",
        "place",
        "player",
        "rank",
        "rating",
        "played",
        "wins",
        "jigo",
        "losses",
        "gamepoints",
        "total",
        "sodos",
    ]);
    for s in &l.seasons {
        let v = crate::sunjang::season_view(l, s);
        for d in &v.divisions {
            for g in &d.groups {
                for p in &g.players {
                    t.push(vec![
                        v.number.into(),
                        (&d.letter).into(),
                        (&g.id).into(),
                        p.place.into(),
                        (&p.player).into(),
                        (&p.rank).into(),
                        p.rating.into(),
                        p.played.into(),
                        p.wins.into(),
                        p.jigo.into(),
                        p.losses.into(),
                        (&p.gamepoints).into(),
                        (&p.total).into(),
                        (&p.sodos).into(),
                    ]);
                }
            }
        }
    }
    t
}

/// A Sunjang league's group games, every season.
pub fn sunjang_results(l: &Sunjang) -> Table {
    let mut t = Table::new(&["season", "group", "round", "black", "white", "result"]);
    for s in &l.seasons {
        let v = crate::sunjang::season_view(l, s);
        for d in &v.divisions {
            for g in &d.groups {
                for p in &g.pairings {
                    t.push(vec![
                        v.number.into(),
                        (&g.id).into(),
                        p.round.into(),
                        (&p.black).into(),
                        (&p.white).into(),
                        p.result.into(),
                    ]);
                }
            }
        }
    }
    t
}

/// Which table to export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Export {
    Standings,
    Results,
}

impl<S: EventStore> Service<S> {
    /// A competition's standings or results as a table, whatever its format.
    /// The competition's forum post as it stands ([`Format::forum_post`]),
    /// with the version it was made at.
    pub async fn forum_post(
        &self,
        competition: &str,
        markup: crate::forum::Markup,
        now: arbiter_engine::model::Time,
    ) -> crate::Result<(u64, Option<String>)> {
        crate::with_format!(self.format_of(competition).await?, |F| {
            self.read_as::<F, _>(competition, |state, version| {
                (version, state.forum_post(competition, version, markup, now))
            })
            .await
        })
    }

    pub async fn export_table(
        &self,
        competition: &str,
        what: Export,
        now: arbiter_engine::model::Time,
    ) -> crate::Result<Table> {
        crate::with_format!(self.format_of(competition).await?, |F| {
            self.read_as::<F, _>(competition, |state, version| {
                state.csv_table(what, competition, version, now)
            })
            .await
        })
    }
}

// ------------------------------------------------------- ladder carry-over

/// The columns of a TWS ladder carried over from earlier records (issue 18
/// §1; see [`crate::carry_over`]): one row per member, `rung` a number or
/// the word `inactive` for a player on the inactive list (in order of
/// removal). `rung`, `name`, `ussr_games`, `us_games` and `last_side` are
/// required; an empty count is 0. `champion_streak` is given on rung 1's
/// row only.
pub const CARRY_OVER_COLUMNS: &[&str] = &[
    "rung",
    "name",
    "surname",
    "ussr_games",
    "us_games",
    "last_side",
    "wins",
    "losses",
    "ties",
    "skip_streak",
    "missed_rounds",
    "champion_streak",
];

/// The optional `surname` of a ladder's row: not something a spreadsheet
/// would run.
fn surname_cell(file: &str, row: &Row) -> Result<Option<String>, CsvError> {
    let surname = row.get("surname").map(str::to_string);
    if let Some(s) = &surname
        && s.starts_with(FORMULA_STARTS)
    {
        return Err(CsvError::at(
            file,
            row.line,
            Some("surname"),
            format!("{:?} starts with a formula character", shorten(s)),
        ));
    }
    Ok(surname)
}

/// A carry-over file read: the records, and for each record (members
/// first, then the inactive list) the line it came from.
#[derive(Debug, Clone)]
pub struct CarriedRows {
    pub records: arbiter_engine::tws::CarriedLadder,
    pub lines: Vec<u64>,
}

/// Read a ladder carry-over CSV file. `next_round` is the round to
/// continue from (the CLI's `--round`); the ladder is a permutation of
/// rungs 1..n, each given once.
pub fn parse_carry_over(
    file: &str,
    bytes: &[u8],
    next_round: u32,
) -> Result<CarriedRows, CsvError> {
    use arbiter_engine::model::Side;
    use arbiter_engine::tws::CarriedMember;
    use arbiter_engine::tws::stats::Record;
    let rows = rows(
        file,
        bytes,
        CARRY_OVER_COLUMNS,
        &["rung", "name", "ussr_games", "us_games", "last_side"],
    )?;
    let count = |r: &Row, column: &'static str| -> Result<u32, CsvError> {
        match r.get(column) {
            None => Ok(0),
            Some(t) => t.parse::<u32>().map_err(|_| {
                CsvError::at(
                    file,
                    r.line,
                    Some(column),
                    format!(
                        "{:?} is not a count: a whole number from 0 (negative counts cannot be)",
                        shorten(t)
                    ),
                )
            }),
        }
    };
    let mut members: Vec<(u32, u64, CarriedMember)> = Vec::new();
    let mut inactive: Vec<(u64, CarriedMember)> = Vec::new();
    let mut streak: Option<(u64, u32)> = None;
    for r in &rows {
        let name = name_cell(file, r)?;
        let surname = surname_cell(file, r)?;
        let last = match r.get("last_side") {
            None => None,
            Some(t) => Some(Side::parse(t).ok_or_else(|| {
                CsvError::at(
                    file,
                    r.line,
                    Some("last_side"),
                    format!(
                        "{:?} is not a side: USSR or US (empty with no game)",
                        shorten(t)
                    ),
                )
            })?),
        };
        let member = CarriedMember {
            name,
            surname,
            ussr: count(r, "ussr_games")?,
            us: count(r, "us_games")?,
            last,
            record: Record {
                wins: count(r, "wins")?,
                losses: count(r, "losses")?,
                ties: count(r, "ties")?,
            },
            skip_streak: count(r, "skip_streak")?,
            missed: count(r, "missed_rounds")?,
        };
        let champion = count(r, "champion_streak")?;
        let rung = r.get("rung").ok_or_else(|| {
            CsvError::at(
                file,
                r.line,
                Some("rung"),
                "empty: the member's rung (1 is the top), or `inactive`",
            )
        })?;
        if rung.eq_ignore_ascii_case("inactive") {
            if champion > 0 {
                return Err(CsvError::at(
                    file,
                    r.line,
                    Some("champion_streak"),
                    "only the member on rung 1 has a champion's streak",
                ));
            }
            inactive.push((r.line, member));
            continue;
        }
        let rung = rung
            .parse::<u32>()
            .ok()
            .filter(|n| *n >= 1 && (*n as usize) <= rows.len())
            .ok_or_else(|| {
                CsvError::at(
                    file,
                    r.line,
                    Some("rung"),
                    format!(
                        "{:?} is not a rung: a number from 1 to the number of members, or `inactive`",
                        shorten(rung)
                    ),
                )
            })?;
        if champion > 0 {
            if rung != 1 {
                return Err(CsvError::at(
                    file,
                    r.line,
                    Some("champion_streak"),
                    format!(
                        "only the member on rung 1 has a champion's streak; this row is rung {rung}"
                    ),
                ));
            }
            streak = Some((r.line, champion));
        }
        if let Some((_, first, _)) = members.iter().find(|(k, _, _)| *k == rung) {
            return Err(CsvError::at(
                file,
                r.line,
                Some("rung"),
                format!(
                    "rung {rung} is already given on line {first}: the ladder is a permutation, each rung once"
                ),
            ));
        }
        members.push((rung, r.line, member));
    }
    check_duplicates(
        file,
        members
            .iter()
            .map(|(_, l, m)| (*l, m.name.as_str()))
            .chain(inactive.iter().map(|(l, m)| (*l, m.name.as_str()))),
    )?;
    members.sort_by_key(|(rung, _, _)| *rung);
    if let Some(k) = members
        .iter()
        .enumerate()
        .find(|(i, (rung, _, _))| *rung as usize != i + 1)
        .map(|(i, _)| i + 1)
    {
        let (top, line) = members.last().map_or((0, 2), |(t, l, _)| (*t, *l));
        return Err(CsvError::at(
            file,
            line,
            Some("rung"),
            format!(
                "no row has rung {k}, but this one has rung {top}: the ladder is a permutation of rungs 1 to {}, each given once",
                members.len()
            ),
        ));
    }
    let mut lines: Vec<u64> = members.iter().map(|(_, l, _)| *l).collect();
    lines.extend(inactive.iter().map(|(l, _)| *l));
    Ok(CarriedRows {
        records: arbiter_engine::tws::CarriedLadder {
            members: members.into_iter().map(|(_, _, m)| m).collect(),
            inactive: inactive.into_iter().map(|(_, m)| m).collect(),
            next_round,
            champion_streak: streak.map_or(0, |(_, s)| s),
        },
        lines,
    })
}

/// The columns of a Sunjang carry-over file (ARB-R79): the player's
/// figures as in the player file, then his season.
pub const SUNJANG_CARRY_COLUMNS: &[&str] = &[
    "name",
    "rank",
    "provisional",
    "rating",
    "corr_rank",
    "corr_rating",
    "group",
    "place",
    "gamepoints",
    "sodos",
    "beat",
    "jigo",
    "both_forfeit",
    "withdrawn",
    "champion",
];

/// A Sunjang season read from a carry-over file, with the line each
/// player and each result came from (and the column of the result).
#[derive(Debug, Clone)]
pub struct SunjangCarriedRows {
    pub records: arbiter_engine::sunjang::carry::CarriedSeason,
    pub lines: Vec<u64>,
    pub game_lines: Vec<(u64, &'static str)>,
}

/// "3", "3.5", "3½", "3,5", "3 1/4", "3¼": a non-negative amount as a
/// fraction (numerator, denominator).
fn fraction(s: &str) -> Option<(u64, u64)> {
    let t = s.trim().replace(',', ".");
    let glyphs = [
        ('½', 1, 2),
        ('¼', 1, 4),
        ('¾', 3, 4),
        ('⅓', 1, 3),
        ('⅔', 2, 3),
        ('⅛', 1, 8),
        ('⅜', 3, 8),
        ('⅝', 5, 8),
        ('⅞', 7, 8),
    ];
    let whole = |w: &str| -> Option<u64> {
        let w = w.trim();
        if w.is_empty() {
            Some(0)
        } else if w.len() <= 9 && w.bytes().all(|b| b.is_ascii_digit()) {
            w.parse().ok()
        } else {
            None
        }
    };
    if let Some(&(g, n, d)) = glyphs.iter().find(|g| t.ends_with(g.0)) {
        let w = whole(&t[..t.len() - g.len_utf8()])?;
        return Some((w * d + n, d));
    }
    if let Some((w, f)) = t.split_once(' ')
        && let Some((n, d)) = f.split_once('/')
    {
        let (w, n, d) = (whole(w)?, whole(n)?, whole(d)?);
        return (d > 0 && n < d).then_some((w * d + n, d));
    }
    if let Some((w, f)) = t.split_once('.') {
        if f.is_empty() || f.len() > 4 || !f.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let d = 10u64.pow(f.len() as u32);
        return Some((whole(w)? * d + f.parse::<u64>().ok()?, d));
    }
    whole(&t).filter(|_| !t.is_empty()).map(|w| (w, 1))
}

/// An amount in `per` units of one (`None` if it is not a whole number of
/// them).
fn in_units((n, d): (u64, u64), per: u64) -> Option<u64> {
    let scaled = n.checked_mul(per)?;
    (scaled % d == 0).then_some(scaled / d)
}

/// Read a Sunjang carry-over file (ARB-R79): one row a player of the
/// season carried over. `per_point` is the league's SODOS units per
/// gamepoint ([`arbiter_engine::sunjang::SunjangRules::sodos_per_point`]).
pub fn parse_sunjang_carry_over(
    file: &str,
    bytes: &[u8],
    season: u32,
    per_point: u64,
) -> Result<SunjangCarriedRows, CsvError> {
    use arbiter_engine::model::{PlayerId, find_name};
    use arbiter_engine::sunjang::GroupId;
    use arbiter_engine::sunjang::carry::{
        CarriedGame, CarriedPlayer, CarriedResult, CarriedSeason,
    };
    let rows = rows(
        file,
        bytes,
        SUNJANG_CARRY_COLUMNS,
        &["name", "rank", "rating", "group", "gamepoints", "sodos"],
    )?;
    let mut players = Vec::with_capacity(rows.len());
    let mut champion: Option<(u64, PlayerId)> = None;
    for (i, r) in rows.iter().enumerate() {
        let info = sunjang_info(file, r)?;
        let at = |column: &'static str, m: String| CsvError::at(file, r.line, Some(column), m);
        let group = r.get("group").unwrap_or_default();
        let group = GroupId::parse(group).ok_or_else(|| {
            at(
                "group",
                format!(
                    "{:?} is not a group: a division letter and a number (A1, B2), or the letter alone for the only group of a division",
                    shorten(group)
                ),
            )
        })?;
        let gamepoints = r.get("gamepoints").unwrap_or_default();
        let halves = fraction(gamepoints)
            .and_then(|f| in_units(f, 2))
            .and_then(|h| u32::try_from(h).ok())
            .ok_or_else(|| {
                at(
                    "gamepoints",
                    format!(
                        "{:?} is not a number of gamepoints: a whole or half number (3, 3.5 or 3½), without the starting gamepoints",
                        shorten(gamepoints)
                    ),
                )
            })?;
        let sodos = r.get("sodos").unwrap_or_default();
        let units = fraction(sodos)
            .and_then(|f| in_units(f, per_point))
            .ok_or_else(|| {
                at(
                    "sodos",
                    format!(
                        "{:?} is not a SODOS: a number of gamepoints in steps of 1/{per_point} (12, 12.25, 12¼ or 12 1/4)",
                        shorten(sodos)
                    ),
                )
            })?;
        let place = match r.get("place") {
            None => None,
            Some(t) => Some(t.parse::<u32>().ok().filter(|&p| p >= 1).ok_or_else(|| {
                at(
                    "place",
                    format!(
                        "{:?} is not a place: 1 for the first of the group",
                        shorten(t)
                    ),
                )
            })?),
        };
        if yes_no(file, r, "champion")? {
            if let Some((line, _)) = champion {
                return Err(at(
                    "champion",
                    format!("the defending champion is already the player on line {line}"),
                ));
            }
            champion = Some((r.line, PlayerId(i as u32 + 1)));
        }
        players.push(CarriedPlayer {
            info,
            group,
            gamepoints: halves,
            sodos: units,
            place,
            withdrawn: yes_no(file, r, "withdrawn")?,
        });
    }
    check_duplicates(
        file,
        rows.iter()
            .zip(&players)
            .map(|(r, p)| (r.line, p.info.name.as_str())),
    )?;
    // The results: each name in `beat`, `jigo`, `both_forfeit`, separated
    // by `;`, a player of the file. A jigo or a double forfeit may be
    // listed from both sides; it is one game.
    let mut games: Vec<CarriedGame> = Vec::new();
    let mut game_lines = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        for (column, result) in [
            ("beat", CarriedResult::FirstWon),
            ("jigo", CarriedResult::Jigo),
            ("both_forfeit", CarriedResult::BothForfeit),
        ] {
            let Some(cell) = r.get(column) else { continue };
            for name in cell.split(';').map(str::trim).filter(|s| !s.is_empty()) {
                let j = find_name(players.iter().map(|p| p.info.name.as_str()), name).ok_or_else(
                    || {
                        CsvError::at(
                            file,
                            r.line,
                            Some(column),
                            format!(
                                "{:?} is not a player of the file (names are separated by `;`)",
                                shorten(name)
                            ),
                        )
                    },
                )?;
                let (a, b) = (PlayerId(i as u32 + 1), PlayerId(j as u32 + 1));
                let same = games.iter().any(|g| {
                    g.result == result && result != CarriedResult::FirstWon && g.players == [b, a]
                });
                if same {
                    continue;
                }
                games.push(CarriedGame {
                    players: [a, b],
                    result,
                });
                game_lines.push((r.line, column));
            }
        }
    }
    Ok(SunjangCarriedRows {
        records: CarriedSeason {
            season,
            players,
            games,
            champion: champion.map(|c| c.1),
        },
        lines: rows.iter().map(|r| r.line).collect(),
        game_lines,
    })
}

#[cfg(test)]
mod carry_tests {
    use super::{fraction, in_units};

    #[test]
    fn amounts_are_read_exactly() {
        assert_eq!(fraction("3"), Some((3, 1)));
        assert_eq!(fraction("3.5").and_then(|f| in_units(f, 2)), Some(7));
        assert_eq!(fraction("3½").and_then(|f| in_units(f, 2)), Some(7));
        assert_eq!(fraction("3,5").and_then(|f| in_units(f, 2)), Some(7));
        assert_eq!(fraction("12¼").and_then(|f| in_units(f, 4)), Some(49));
        assert_eq!(fraction("12 1/4").and_then(|f| in_units(f, 4)), Some(49));
        assert_eq!(fraction("12.25").and_then(|f| in_units(f, 4)), Some(49));
        assert_eq!(fraction("½").and_then(|f| in_units(f, 2)), Some(1));
        assert_eq!(fraction("3.3").and_then(|f| in_units(f, 2)), None);
        for bad in ["", "-1", "x", "1.2.3", "1e5", "3 5/4", "99999999999"] {
            assert_eq!(fraction(bad), None, "{bad}");
        }
    }
}
