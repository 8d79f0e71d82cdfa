//! A running TWS ladder carried over from earlier records (issue 18 §1;
//! rulings ARB-R72..ARB-R76): `arbiter ladder carry-over FILE`.
//!
//! The file is CSV ([`crate::csv::parse_carry_over`], by its `.csv` name)
//! or JSON (a `.json` name, or a file whose first character is `{`):
//!
//! ```json
//! {"round": 38, "source": "BGG forum table of 2026-02-28", "champion_streak": 3,
//!  "ladder": [{"name": "Ana Morales", "ussr_games": 12, "us_games": 11, "last_side": "US",
//!              "wins": 15, "losses": 8, "ties": 0, "skip_streak": 0, "missed_rounds": 0}],
//!  "inactive": [{"name": "Tom Reilly", "ussr_games": 4, "us_games": 5, "last_side": "USSR",
//!                "wins": 3, "losses": 6, "missed_rounds": 3}]}
//! ```
//!
//! `ladder` is rung 1 first; `surname`, the counts, `last_side` (with no
//! game), `champion_streak` and `inactive` may be left out; unknown fields
//! are refused. The round to continue from and the source may come from
//! the command line instead (`--round`, `--source`), which wins; a CSV file
//! takes them only from there (the source defaults to the file's name).
//!
//! Every record is checked by the rules of the events it stands for
//! (`CarriedLadder::check` in the engine) and the whole file becomes one
//! `carried-over` event, all or nothing; a refusal names the line (CSV) or
//! the record's path (JSON, `ladder[3].last_side`) and the field. A dry run
//! decides it on a copy and shows the ladder it would make.

use arbiter_engine::model::Side;
use arbiter_engine::tws::stats::Record;
use arbiter_engine::tws::{CarriedLadder, CarriedMember, Command, Ladder};
use arbiter_store::{EventStore, Seq};
use serde::Deserialize;

use crate::csv::{CarriedRows, MAX_BYTES, parse_carry_over};
use crate::format::CompetitionFormat;
use crate::views::{LadderView, ladder_view};
use crate::{Context, Service, ServiceError};

/// What the command line adds to the file.
#[derive(Debug, Clone, Default)]
pub struct CarryOptions {
    /// The round to continue from (`--round`).
    pub round: Option<u32>,
    /// Where the records come from (`--source`); the file's name if
    /// neither this nor the file gives one.
    pub source: Option<String>,
    /// Decide on a copy and store nothing.
    pub dry_run: bool,
}

/// What a carry-over did (or, in a dry run, would do).
#[derive(Debug, Clone, serde::Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct CarriedOverView {
    /// The ladder it makes, with the carried records in each rung.
    pub ladder: LadderView,
    pub source: String,
    pub by: String,
    /// The round the ladder continues from.
    pub next_round: u32,
    pub dry_run: bool,
    /// The events stored (none in a dry run).
    pub first: Option<Seq>,
    pub last: Option<Seq>,
    pub replayed: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonFile {
    round: Option<u32>,
    source: Option<String>,
    #[serde(default)]
    champion_streak: u32,
    ladder: Vec<JsonMember>,
    #[serde(default)]
    inactive: Vec<JsonMember>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonMember {
    name: String,
    surname: Option<String>,
    #[serde(default)]
    ussr_games: u32,
    #[serde(default)]
    us_games: u32,
    last_side: Option<String>,
    #[serde(default)]
    wins: u32,
    #[serde(default)]
    losses: u32,
    #[serde(default)]
    ties: u32,
    #[serde(default)]
    skip_streak: u32,
    #[serde(default)]
    missed_rounds: u32,
}

/// Where a refusal points: a CSV line or a JSON path.
enum Places {
    Lines(Vec<u64>),
    Json { members: usize },
}

impl Places {
    /// "file line 7, column `last_side`" or "file: ladder[3].last_side".
    fn name(&self, file: &str, index: Option<usize>, field: &str) -> String {
        match (self, index) {
            (Places::Lines(lines), Some(i)) => {
                let line = lines.get(i).copied().unwrap_or(1);
                format!("{file} line {line}, column `{field}`")
            }
            (Places::Lines(_), None) if field == "round" => format!("{file}: --round"),
            (Places::Lines(_), None) => format!("{file}: `{field}`"),
            (Places::Json { members }, Some(i)) if i < *members => {
                format!("{file}: ladder[{i}].{field}")
            }
            (Places::Json { members }, Some(i)) => {
                format!("{file}: inactive[{}].{field}", i - members)
            }
            (Places::Json { .. }, None) => format!("{file}: {field}"),
        }
    }
}

fn is_json(file: &str, bytes: &[u8]) -> bool {
    let lower = file.to_ascii_lowercase();
    if lower.ends_with(".json") {
        return true;
    }
    if lower.ends_with(".csv") {
        return false;
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

fn parse_json(
    file: &str,
    bytes: &[u8],
    opts: &CarryOptions,
) -> Result<(CarriedLadder, Option<String>), ServiceError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let doc: JsonFile = serde_json::from_slice(bytes).map_err(|e| {
        // serde_json ends its message with the place, which comes first here.
        let text = e.to_string();
        let what = text.split(" at line ").next().unwrap_or(&text);
        ServiceError::Input(format!(
            "{file} line {}, column {}: {what}; nothing was carried over",
            e.line(),
            e.column()
        ))
    })?;
    let members = doc.ladder.len();
    let side = |i: usize, s: Option<String>| -> Result<Option<Side>, ServiceError> {
        match s.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            None => Ok(None),
            Some(t) => Side::parse(t).map(Some).ok_or_else(|| {
                ServiceError::Input(format!(
                    "{}: {:?} is not a side: USSR or US (left out with no game); nothing was carried over",
                    Places::Json { members }.name(file, Some(i), "last_side"),
                    crate::csv::escaped_prefix(t, 40)
                ))
            }),
        }
    };
    let mut all = Vec::with_capacity(members + doc.inactive.len());
    for (i, m) in doc.ladder.into_iter().chain(doc.inactive).enumerate() {
        all.push(CarriedMember {
            name: m.name,
            surname: m.surname,
            ussr: m.ussr_games,
            us: m.us_games,
            last: side(i, m.last_side)?,
            record: Record {
                wins: m.wins,
                losses: m.losses,
                ties: m.ties,
            },
            skip_streak: m.skip_streak,
            missed: m.missed_rounds,
        });
    }
    let inactive = all.split_off(members);
    let round = opts.round.or(doc.round).ok_or_else(|| {
        ServiceError::Input(format!(
            "{file}: round: the round to continue from is missing (give `\"round\": N` in the file or --round N); nothing was carried over"
        ))
    })?;
    Ok((
        CarriedLadder {
            members: all,
            inactive,
            next_round: round,
            champion_streak: doc.champion_streak,
        },
        doc.source,
    ))
}

impl<S: EventStore> Service<S> {
    /// Carry a running TWS ladder over from a CSV or JSON file (see the
    /// module's documentation): one `carried-over` event by `ctx.actor`, or,
    /// with `dry_run`, the ladder it would make and nothing stored.
    pub async fn carry_over_ladder(
        &self,
        competition: &str,
        file: &str,
        bytes: &[u8],
        opts: &CarryOptions,
        ctx: &Context,
    ) -> crate::Result<CarriedOverView> {
        let format = self.format_of(competition).await?;
        if format != CompetitionFormat::TwsLadder {
            return Err(ServiceError::Input(format!(
                "{competition} is not a TWS ladder: only a ladder is carried over from a ladder file"
            )));
        }
        if bytes.len() > MAX_BYTES {
            return Err(ServiceError::Input(format!(
                "{file}: larger than {} MiB, the limit for a carry-over file; nothing was carried over",
                MAX_BYTES / (1024 * 1024)
            )));
        }
        let (records, places, file_source) = if is_json(file, bytes) {
            let (records, source) = parse_json(file, bytes, opts)?;
            let members = records.members.len();
            (records, Places::Json { members }, source)
        } else {
            let round = opts.round.ok_or_else(|| {
                ServiceError::Input(format!(
                    "{file}: the round to continue from is missing: give --round N (the next round to announce); nothing was carried over"
                ))
            })?;
            let CarriedRows { records, lines } = parse_carry_over(file, bytes, round)
                .map_err(|e| ServiceError::Input(format!("{e}; nothing was carried over")))?;
            (records, Places::Lines(lines), None)
        };
        let source = opts
            .source
            .clone()
            .or(file_source)
            .unwrap_or_else(|| file.to_string());
        let command = Command::CarryOver {
            records,
            source,
            by: ctx.actor.clone(),
            at: ctx.at,
        };
        let (mut ladder, version) = self.load(competition, None).await?;
        let events = ladder
            .decide(command.clone())
            .map_err(|e| refusal(file, &places, &command, e))?;
        if opts.dry_run {
            for e in &events {
                ladder.apply(e);
            }
            return Ok(view(competition, &ladder, version, true, None));
        }
        let done = self
            .execute(competition, command.clone(), ctx)
            .await
            .map_err(|e| match e {
                ServiceError::Rule(r) => refusal(file, &places, &command, r),
                other => other,
            })?;
        let (ladder, version) = self.load(competition, None).await?;
        Ok(view(
            competition,
            &ladder,
            version,
            false,
            Some((done.first, done.last, done.replayed)),
        ))
    }
}

/// A refusal of the decider, naming the line (or path) and field of the
/// record it is about.
fn refusal(
    file: &str,
    places: &Places,
    command: &Command,
    e: arbiter_engine::RuleError,
) -> ServiceError {
    let Command::CarryOver { records, .. } = command else {
        return ServiceError::Rule(e);
    };
    let members = records.members.len();
    let (index, field) = match e.field.as_deref() {
        Some(f) => match crate::sunjang_carry::parse_field(f) {
            Some((list, i, field)) => {
                let i = if list == "inactive" { members + i } else { i };
                (Some(i), field.to_string())
            }
            None => (None, f.to_string()),
        },
        None => (None, String::new()),
    };
    let place = if field.is_empty() {
        file.to_string()
    } else {
        places.name(file, index, &field)
    };
    ServiceError::Input(format!(
        "{place}: {} [{}]; nothing was carried over",
        e.message, e.clause
    ))
}

fn view(
    competition: &str,
    ladder: &Ladder,
    version: Seq,
    dry_run: bool,
    stored: Option<(Seq, Seq, bool)>,
) -> CarriedOverView {
    let carried = ladder.carried_over.as_deref();
    CarriedOverView {
        ladder: ladder_view(ladder, competition, version),
        source: carried.map_or_else(String::new, |c| c.source.clone()),
        by: carried.map_or_else(String::new, |c| c.by.clone()),
        next_round: ladder.next_round_number(),
        dry_run,
        first: stored.map(|s| s.0),
        last: stored.map(|s| s.1),
        replayed: stored.is_some_and(|s| s.2),
    }
}
