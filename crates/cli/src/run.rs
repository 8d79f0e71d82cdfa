//! Carrying out one command line.

use std::path::PathBuf;

use anyhow::{Context as _, Result, anyhow, bail};
use arbiter_engine::model::{Adjudication, EndTag, GameId, Outcome, PlayerId, Time};
use arbiter_engine::tws::{Command, Event, Ladder, PairingPlan, ResultInput};
use arbiter_service::format::CompetitionFormat;
use arbiter_service::forum::{self, Markup};
use arbiter_service::views;
use arbiter_service::{Context, Service, ServiceError};
use arbiter_store::StoreError;
use arbiter_store_any::{AnyStore, StoreSpec};
use chrono::{NaiveDate, NaiveDateTime, TimeZone, Utc};

use crate::args::*;
use crate::formats::CliFormat;
use crate::render;

/// The service over the database `--db` names: a SQLite file or PostgreSQL.
pub type Svc = Service<AnyStore>;

/// A mistake on the command line or in a script line, found before
/// anything runs (exit code 2, like clap's own usage errors).
#[derive(Debug)]
pub struct Usage(pub String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// The exit code for an error: 1 refused, 2 usage, 3 conflict, 4 storage.
pub fn exit_code(e: &anyhow::Error) -> u8 {
    if e.downcast_ref::<Usage>().is_some() || e.downcast_ref::<crate::input::TooLarge>().is_some() {
        return 2;
    }
    if matches!(e.downcast_ref::<StoreError>(), Some(StoreError::Backend(_))) {
        return 4;
    }
    match e.downcast_ref::<ServiceError>() {
        Some(ServiceError::Store(StoreError::Conflict { .. })) => 3,
        // A database that cannot be read back is a storage failure.
        Some(ServiceError::Store(StoreError::Backend(_)) | ServiceError::Record { .. }) => 4,
        Some(ServiceError::Input(m)) if m.contains("the log is damaged") => 4,
        _ => 1,
    }
}

/// The default database: `<data dir>/arbiter/arbiter.db`.
pub fn default_db() -> Result<PathBuf> {
    let dir = dirs::data_dir()
        .ok_or_else(|| anyhow!("no data directory for this user: give --db PATH or ARBITER_DB"))?;
    Ok(dir.join("arbiter").join("arbiter.db"))
}

/// The database: `--db`, `ARBITER_DB` (a SQLite file or a `postgres://`
/// URL), or the default file.
pub fn db_spec(db: Option<&str>) -> Result<StoreSpec> {
    match db {
        Some(spec) if !spec.is_empty() => Ok(StoreSpec::parse(spec)),
        _ => Ok(StoreSpec::Sqlite(default_db()?)),
    }
}

/// Open the database `spec` names and the service over it; with `create`,
/// a SQLite file that does not exist is made (with its directory), else it
/// is refused naming the path (issue 14, item 6).
pub async fn open(spec: &StoreSpec, create: bool) -> Result<Svc> {
    let store = if create {
        AnyStore::open_spec(spec).await
    } else {
        AnyStore::open_existing(spec).await
    }
    .with_context(|| {
        if create {
            format!("cannot open the database {spec}")
        } else {
            format!(
                "cannot open the database {spec} (only `competition create`, `import`, `demo`, `account add` and the other commands that create make a new one; give --create to make it)"
            )
        }
    })?;
    Ok(service(store))
}

/// `arbiter rules preset NAME`: the preset's text; it needs no database.
fn print_preset(g: &Globals, name: &str) -> Result<()> {
    let text = arbiter_record::preset(name).ok_or_else(|| {
        anyhow!(
            "there is no preset {name:?}; presets: {}",
            arbiter_record::PRESETS.join(", ")
        )
    })?;
    if g.json {
        return print_json(&toml_as_json(text)?);
    }
    out!("{text}");
    Ok(())
}

/// Whether `command` creates a competition (or, `import`, brings some in;
/// `account add`, the first account of a server's installation), and so
/// may make the database it names (issue 14, item 6).
pub fn creates(command: &Noun) -> bool {
    matches!(
        command,
        Noun::Competition(CompetitionCmd::Create { .. })
            | Noun::Account(AccountCmd::Add { .. })
            | Noun::Import(_)
            | Noun::Demo(_)
    ) || matches!(command, Noun::Format(f) if f.creates())
}

/// The service over `store`.
pub fn service(store: AnyStore) -> Svc {
    let svc = Service::new(store);
    // Reproducible draws for tests and examples only: anyone who knows the
    // base can predict every draw.
    match std::env::var("ARBITER_DETERMINISTIC_SEEDS") {
        Ok(base) if !base.is_empty() => {
            svc.with_seeds(arbiter_service::SeedSource::Deterministic(base))
        }
        _ => svc,
    }
}

pub async fn main(cli: Cli) -> Result<()> {
    if let Noun::Serve(s) = &cli.command {
        // Chooses its own database with --demo.
        return crate::serve::run(cli.db.as_deref(), s).await;
    }
    let spec = db_spec(cli.db.as_deref())?;
    let globals = Globals::from_cli(&cli)?;
    if let Noun::Script(s) = &cli.command {
        // Read and parse the script before the database is opened: a file
        // that is too large or malformed is refused as such, and the script
        // may make the database only if one of its lines creates.
        let (name, lines) = crate::script::read(&s.file)?;
        let create = cli.create || lines.iter().any(|l| creates(&l.cli.command));
        let svc = open(&spec, create).await?;
        return crate::script::run_lines_of(&svc, &globals, &name, &lines, &spec, !s.no_rehearsal)
            .await;
    }
    // The commands that need no database open none.
    match &cli.command {
        Noun::Rules(RulesCmd::Preset { name }) => return print_preset(&globals, name),
        Noun::Roll(cmd @ RollCmd::Recompute { .. }) => {
            return crate::xmadn::roll_recompute(&globals, cmd);
        }
        _ => {}
    }
    if let Noun::Import(a) = &cli.command {
        // Checked whole before the database is opened (and made).
        let (name, export) = crate::transfer::read(a)?;
        let svc = open(&spec, true).await?;
        return crate::transfer::import(&svc, &globals, &name, &export).await;
    }
    let svc = open(&spec, cli.create || creates(&cli.command)).await?;
    match &cli.command {
        Noun::Script(_) => unreachable_noun(),
        Noun::Demo(d) => crate::demo::run(&svc, &globals, &d.id).await,
        Noun::Account(a) => crate::account::run(&svc, &globals, a).await,
        Noun::Export(a) => crate::transfer::export(&svc, &globals, a).await,
        Noun::Import(_) => unreachable_noun(),
        other => execute(&svc, &globals, other).await,
    }
}

/// The options that apply to every command.
#[derive(Debug, Clone)]
pub struct Globals {
    pub competition: Option<String>,
    pub json: bool,
    pub actor: String,
    pub at: Option<Time>,
    pub idempotency_key: Option<String>,
}

impl Globals {
    pub fn from_cli(cli: &Cli) -> Result<Self> {
        precheck(cli)?;
        let at = cli.at.as_deref().map(parse_time).transpose()?;
        Ok(Self {
            competition: cli.competition.clone(),
            json: cli.json,
            actor: cli
                .actor
                .clone()
                .or_else(|| std::env::var("USER").ok())
                .unwrap_or_else(|| "moderator".into()),
            at,
            idempotency_key: cli.idempotency_key.clone(),
        })
    }

    /// Options of a script line override the script's own.
    pub fn merged(&self, line: &Cli) -> Result<Self> {
        let mine = Self::from_cli(line)?;
        Ok(Self {
            competition: mine.competition.or_else(|| self.competition.clone()),
            json: mine.json || self.json,
            actor: line.actor.clone().unwrap_or_else(|| self.actor.clone()),
            at: mine.at.or(self.at),
            idempotency_key: mine.idempotency_key,
        })
    }

    pub fn now(&self) -> Time {
        self.at.unwrap_or_else(Utc::now)
    }

    pub fn ctx(&self) -> Context {
        Context {
            actor: self.actor.clone(),
            at: self.now(),
            idempotency_key: self.idempotency_key.clone(),
            expected: None,
        }
    }
}

/// Check the values clap leaves as text (times, formats) before anything
/// runs, so a script with a bad line stores nothing.
pub fn precheck(cli: &Cli) -> Result<()> {
    let usage = |flag: &str, e: anyhow::Error| anyhow::Error::new(Usage(format!("{flag}: {e}")));
    if let Some(at) = &cli.at {
        parse_time(at).map_err(|e| usage("--at", e))?;
    }
    match &cli.command {
        Noun::Round(RoundCmd::Announce(a)) => {
            if let Some(d) = &a.deadline {
                // The form only: the day is read in the zone when it runs.
                parse_deadline(d, arbiter_engine::zone::TimeZone::UTC)
                    .map_err(|e| usage("--deadline", e))?;
            }
        }
        Noun::Format(f) => f.precheck()?,
        Noun::Round(RoundCmd::Export { format, .. }) if Markup::parse(format).is_none() => {
            return Err(Usage(format!(
                "--format must be bbcode or markdown, not {format:?}"
            ))
            .into());
        }
        _ => {}
    }
    Ok(())
}

/// `2026-01-31`, `2026-01-31T12:00`, or RFC 3339.
pub fn parse_time(s: &str) -> Result<Time> {
    let t = parse_time_any(s)?;
    use chrono::Datelike;
    if !(1970..=9998).contains(&t.year()) {
        bail!("{s:?} is outside the years 1970 to 9998 that Arbiter records");
    }
    Ok(t)
}

fn parse_time_any(s: &str) -> Result<Time> {
    let s = s.trim();
    if let Ok(t) = chrono::DateTime::parse_from_rfc3339(s) {
        return Ok(t.with_timezone(&Utc));
    }
    for f in ["%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"] {
        if let Ok(t) = NaiveDateTime::parse_from_str(s, f) {
            return Ok(Utc.from_utc_datetime(&t));
        }
    }
    if let Ok(d) = NaiveDate::parse_from_str(s, "%Y-%m-%d")
        && let Some(t) = d.and_hms_opt(0, 0, 0)
    {
        return Ok(Utc.from_utc_datetime(&t));
    }
    bail!("{s:?} is not a time: use YYYY-MM-DD, YYYY-MM-DDTHH:MM or RFC 3339")
}

/// A deadline given as a date means the end of that day in the
/// competition's time zone `zone` (ARB-R82).
pub fn parse_deadline(s: &str, zone: arbiter_engine::zone::TimeZone) -> Result<Time> {
    if let Ok(d) = NaiveDate::parse_from_str(s.trim(), "%Y-%m-%d") {
        return Ok(zone.end_of_day(d));
    }
    parse_time(s)
}

pub async fn competition(svc: &Svc, g: &Globals) -> Result<String> {
    if let Some(c) = &g.competition {
        return Ok(c.clone());
    }
    let all = svc.competitions().await?;
    match all.as_slice() {
        [one] => Ok(one.clone()),
        [] => bail!(
            "there is no competition yet: create one with `arbiter competition create ID --name NAME`"
        ),
        many => bail!(
            "there are {} competitions ({}): choose one with -c ID",
            many.len(),
            many.join(", ")
        ),
    }
}

/// A player by name (case-insensitive) or id (`P12`).
pub fn player(ladder: &Ladder, name: &str) -> Result<PlayerId> {
    if let Some(id) = ladder.find(name) {
        return Ok(id);
    }
    if let Some(n) = name
        .strip_prefix(['P', 'p'])
        .and_then(|n| n.parse::<u32>().ok())
        && ladder.player(PlayerId(n)).is_some()
    {
        return Ok(PlayerId(n));
    }
    let lower = name.trim().to_lowercase();
    // A unique surname or given name is enough: "Volkov" for "Dmitri Volkov".
    let by_part: Vec<PlayerId> = ladder
        .players
        .iter()
        .filter(|p| {
            p.player.surname.to_lowercase() == lower
                || p.player
                    .name
                    .to_lowercase()
                    .split_whitespace()
                    .any(|w| w == lower)
        })
        .map(|p| p.player.id)
        .collect();
    if let [one] = by_part.as_slice() {
        return Ok(*one);
    }
    if by_part.len() > 1 {
        let names: Vec<String> = by_part.iter().map(|p| ladder.name_of(*p)).collect();
        bail!(
            "{name:?} could be {}: give the full name",
            names.join(" or ")
        );
    }
    let similar = arbiter_engine::model::similar_names(
        ladder.players.iter().map(|p| p.player.name.as_str()),
        name,
    );
    if similar.is_empty() {
        bail!(
            "there is no player named {name:?} in this competition (`arbiter player list` shows everyone)"
        )
    } else {
        bail!(
            "there is no player named {name:?}; did you mean {}?",
            similar.join(" or ")
        )
    }
}

/// A game by id (`G12`, `12`) or by a player's name (his game in the
/// running round, unresolved first).
pub fn game(ladder: &Ladder, s: &str) -> Result<GameId> {
    let digits = s.strip_prefix(['G', 'g']).unwrap_or(s);
    if let Ok(n) = digits.parse::<u32>() {
        if n >= 1 && ladder.game(GameId(n)).is_some() {
            return Ok(GameId(n));
        }
        bail!("there is no game {s} (`arbiter game list` shows the games)");
    }
    let p =
        player(ladder, s).with_context(|| format!("{s:?} is neither a game id nor a player"))?;
    let round = ladder
        .open_round()
        .ok_or_else(|| anyhow!("no round is running: name the game by its id (G12)"))?;
    let mine: Vec<GameId> = round
        .games
        .iter()
        .copied()
        .filter(|g| ladder.game(*g).is_some_and(|g| g.has_player(p)))
        .collect();
    let open = mine
        .iter()
        .copied()
        .find(|g| ladder.game(*g).is_some_and(|g| !g.status.is_resolved()));
    open.or_else(|| mine.last().copied()).ok_or_else(|| {
        anyhow!(
            "{} has no game in round {}: name the game by its id",
            ladder.name_of(p),
            round.number
        )
    })
}

fn outcome(ladder: &Ladder, g: GameId, winner: Option<&str>, tie: bool) -> Result<Outcome> {
    if tie {
        return Ok(Outcome::Tie);
    }
    let Some(w) = winner else {
        bail!("say who won with --winner NAME, or --tie");
    };
    let w = player(ladder, w)?;
    let game = ladder
        .game(g)
        .ok_or_else(|| anyhow!("there is no game {g}"))?;
    let side = game.side_of(w).ok_or_else(|| {
        anyhow!(
            "{} does not play in \"{}\" ({} v. {})",
            ladder.name_of(w),
            ladder.game_name(game),
            ladder.name_of(game.ussr.player),
            ladder.name_of(game.us.player)
        )
    })?;
    Ok(Outcome::Win(side))
}

fn result_input(ladder: &Ladder, g: GameId, o: &OutcomeArgs) -> Result<ResultInput> {
    Ok(ResultInput {
        outcome: outcome(ladder, g, o.winner.as_deref(), o.tie)?,
        ended_by: EndTag::parse(&o.ended_by).map_err(|e| anyhow!("--by: {e}"))?,
        vp: o.vp,
        turn: o.turn,
        note: o.note.clone(),
    })
}

/// A rules file as JSON (the same keys as the TOML).
fn toml_as_json(text: &str) -> Result<serde_json::Value> {
    let value: toml::Value = toml::from_str(text).context("the rules do not read back")?;
    Ok(serde_json::to_value(value)?)
}

/// A list, one item a line, or as a JSON array.
fn print_lines<T: AsRef<str> + serde::Serialize>(g: &Globals, items: &[T]) -> Result<()> {
    if g.json {
        return print_json(&items);
    }
    for item in items {
        outln!("{}", item.as_ref());
    }
    Ok(())
}

/// What a retried command with a used idempotency key says: it stored
/// nothing new.
pub fn say_replayed(first: u64, last: u64) {
    outln!("Already done (same idempotency key): events {first}..{last}.");
}

pub fn print_json<T: serde::Serialize>(value: &T) -> Result<()> {
    outln!("{}", serde_json::to_string_pretty(value)?);
    Ok(())
}

fn read_rules_file(path: &std::path::Path) -> Result<arbiter_engine::tws::LadderRules> {
    let text = crate::input::read_rules(path)?;
    arbiter_record::parse_rules(&text).map_err(|e| anyhow!("{}: {e}", path.display()))
}

/// Carry out one command (everything but `script` and `demo`).
pub async fn execute(svc: &Svc, g: &Globals, noun: &Noun) -> Result<()> {
    match noun {
        Noun::Competition(CompetitionCmd::Create {
            id,
            name,
            preset,
            rules,
            moderators,
        }) => {
            if rules.is_none() && preset.starts_with("xmadn-") {
                let noun = preset.trim_start_matches("xmadn-");
                bail!(
                    "{preset} is an XMadn format with three named players: use `arbiter {noun} create {id} --name {name:?} --player A --player B --player C`"
                );
            }
            let rules = match rules {
                Some(path) => read_rules_file(path)?,
                None => {
                    let text = arbiter_record::preset(preset).ok_or_else(|| {
                        anyhow!("there is no preset {preset:?}; presets: tws-ladder")
                    })?;
                    arbiter_record::parse_rules(text)
                        .map_err(|e| anyhow!("preset {preset}: {e}"))?
                }
            };
            let done = svc
                .create_ladder(id, name, rules, moderators, &g.ctx())
                .await?;
            if g.json {
                print_json(&serde_json::json!({"competition": id, "version": done.last}))?;
            } else {
                outln!("Created {id} ({name}), version {}.", done.last);
                if moderators.is_empty() {
                    outln!(
                        "Next: `arbiter -c {id} moderator add NAME` (every ladder game is moderated), then add players."
                    );
                }
            }
            Ok(())
        }
        Noun::Rules(RulesCmd::Preset { name }) => print_preset(g, name),
        Noun::Format(f) => f.run(svc, g).await,
        Noun::Roll(cmd) => crate::xmadn::roll(svc, g, cmd).await,
        Noun::Ratings(a) => crate::insight::ratings(svc, g, a).await,
        Noun::Project(a) => crate::insight::project(svc, g, a).await,
        Noun::WhatIf(a) => crate::what_if::run(svc, g, a).await,
        Noun::Clinch(a) => crate::clinch::clinch(svc, g, a).await,
        Noun::Calendar(a) => crate::calendar::calendar(svc, g, a).await,
        Noun::Stats(a) if a.all => crate::installation::stats(svc, g, a).await,
        Noun::Player(PlayerCmd::Import { file }) => crate::csv::import(svc, g, file).await,
        Noun::Ladder(LadderCmd::CarryOver {
            file,
            dry_run,
            round,
            source,
        }) => crate::carry_over::run(svc, g, file, *dry_run, *round, source.clone()).await,
        Noun::Standings(a) => crate::csv::export(svc, g, crate::csv::Export::Standings, a).await,
        Noun::Results(ResultsArgs {
            command: Some(ResultsCmd::Import { file, dry_run }),
            ..
        }) => crate::csv::import_results(svc, g, file, *dry_run).await,
        Noun::Results(a) => crate::csv::export(svc, g, crate::csv::Export::Results, &a.table).await,
        Noun::Competition(CompetitionCmd::List) => {
            let ids = svc.competitions().await?;
            let mut rows = Vec::new();
            for id in &ids {
                rows.push(serde_json::to_value(svc.summary(id).await?)?);
            }
            if g.json {
                return print_json(&rows);
            }
            if rows.is_empty() {
                outln!("No competitions yet. Try `arbiter demo`.");
            }
            out!("{}", render::competitions(&rows));
            Ok(())
        }
        Noun::Competition(CompetitionCmd::TimeZone { zone }) => {
            let comp = competition(svc, g).await?;
            time_zone(svc, g, &comp, zone.as_deref()).await
        }
        other => {
            let comp = competition(svc, g).await?;
            let format = svc.format_of(&comp).await?;
            if arbiter_service::with_format!(format, |F| <F as CliFormat>::NOUN.is_some()) {
                return execute_other(svc, g, &comp, format, other).await;
            }
            execute_in(svc, g, &comp, other).await
        }
    }
}

/// `competition time-zone [ZONE]`, in every format (ARB-R82): show the
/// competition's zone, or set it by the format's own event.
async fn time_zone(svc: &Svc, g: &Globals, comp: &str, zone: Option<&str>) -> Result<()> {
    let now = g.now();
    let shown = match zone {
        None => svc.time_zone(comp).await?,
        Some(zone) => {
            let last = svc.set_time_zone(comp, zone, &g.ctx()).await?;
            let set = svc.time_zone(comp).await?;
            if !g.json {
                outln!(
                    "Event {last}: the time zone of {comp} is now {set}; it is {} there now.",
                    set.minute(now)
                );
            }
            set
        }
    };
    if g.json {
        return print_json(&serde_json::json!({
            "competition": comp,
            "time_zone": shown.name(),
            "now": shown.minute(now),
        }));
    }
    if zone.is_none() {
        outln!(
            "The time zone of {comp} is {shown}; it is {} there now.",
            shown.minute(now)
        );
    }
    Ok(())
}

/// The commands every format shares, on an XMadn competition; the ladder's
/// own commands are refused with what to use instead.
async fn execute_other(
    svc: &Svc,
    g: &Globals,
    comp: &str,
    format: CompetitionFormat,
    noun: &Noun,
) -> Result<()> {
    match noun {
        Noun::History(a) => {
            let rows = arbiter_service::with_format!(format, |F| {
                let (state, _) = svc.load_as::<F>(comp, None).await?;
                let h = svc.history_of::<F>(comp, None).await?;
                history_json::<F>(&h, |e| state.describe(e))
            });
            let skip = a.limit.map_or(0, |n| rows.len().saturating_sub(n));
            let rows: Vec<serde_json::Value> = rows.into_iter().skip(skip).collect();
            if g.json {
                return print_json(&rows);
            }
            out!("{}", render::history(&rows));
            Ok(())
        }
        Noun::Undo => {
            let ctx = g.ctx();
            let (seq, event, summary, last) = arbiter_service::with_format!(format, |F| {
                let (before, _) = svc.load_as::<F>(comp, None).await?;
                let (done, target) = svc.undo_as::<F>(comp, &ctx).await?;
                (
                    target.seq,
                    target.kind,
                    before.describe(&target.event),
                    done.last,
                )
            });
            if g.json {
                return print_json(
                    &serde_json::json!({"undone": seq, "event": event, "version": last}),
                );
            }
            outln!("Undid event {seq} ({event}: {summary}) by event {last}.");
            Ok(())
        }
        Noun::Competition(CompetitionCmd::Show) => {
            arbiter_service::with_format!(format, |F| <F as CliFormat>::show(svc, g).await)
        }
        _ => bail!(
            "{comp} is {}: this command is for TWS ladders; see `arbiter {} --help`",
            format.words(),
            arbiter_service::with_format!(format, |F| <F as CliFormat>::NOUN).unwrap_or("help")
        ),
    }
}

impl CliFormat for Ladder {
    const NOUN: Option<&'static str> = None;
    async fn show(svc: &Svc, g: &Globals) -> Result<()> {
        let comp = competition(svc, g).await?;
        execute_in(svc, g, &comp, &Noun::Competition(CompetitionCmd::Show)).await
    }
    /// The ladder's own what-if: games by label, outcomes by side.
    async fn what_if_command(svc: &Svc, g: &Globals, a: &WhatIfArgs) -> Result<()> {
        crate::insight::what_if(svc, g, a).await
    }
    type Noun = crate::formats::NoNoun;
    async fn run(noun: &crate::formats::NoNoun, _svc: &Svc, _g: &Globals) -> Result<()> {
        match *noun {}
    }
    fn creates(noun: &crate::formats::NoNoun) -> bool {
        match *noun {}
    }
}

async fn execute_in(svc: &Svc, g: &Globals, comp: &str, noun: &Noun) -> Result<()> {
    let (ladder, version) = svc.load(comp, None).await?;
    let now = g.now();
    let ctx = g.ctx();
    // A command decided by the engine, then a line saying what it did.
    macro_rules! exec {
        ($cmd:expr) => {{
            let done = svc.execute(comp, $cmd, &ctx).await?;
            report(svc, comp, g, &done).await?;
            done
        }};
    }
    match noun {
        Noun::Competition(CompetitionCmd::Show) => {
            let view = views::ladder_view(&ladder, comp, version);
            if g.json {
                return print_json(&view);
            }
            out!("{}", render::summary(&view, &ladder));
        }
        Noun::Competition(_) => unreachable_noun()?,
        Noun::Rules(cmd) => match cmd {
            RulesCmd::Show { round } => {
                let rules = match round {
                    Some(r) => ladder.rules_for(*r),
                    None => ladder.current_rules(),
                };
                let text = arbiter_record::rules_to_toml(rules);
                if g.json {
                    return print_json(&toml_as_json(&text)?);
                }
                out!("{text}");
            }
            RulesCmd::Versions => {
                let rows: Vec<serde_json::Value> = ladder
                    .rules
                    .iter()
                    .map(|v| serde_json::json!({"from_round": v.from_round, "reason": v.reason, "bid": v.rules.bid.to_string(), "deadline_months": v.rules.deadline_months}))
                    .collect();
                if g.json {
                    return print_json(&rows);
                }
                for v in &ladder.rules {
                    outln!(
                        "from round {}: bid {}, time limit {} months — {}",
                        v.from_round,
                        v.rules.bid,
                        v.rules.deadline_months,
                        v.reason
                    );
                }
            }
            RulesCmd::Change {
                file,
                from_round,
                reason,
            } => {
                let rules = read_rules_file(file)?;
                exec!(Command::ChangeRules {
                    rules,
                    from_round: *from_round,
                    reason: reason.clone()
                });
            }
            RulesCmd::Preset { .. } => unreachable_noun()?,
        },
        Noun::Moderator(cmd) => match cmd {
            ModeratorCmd::Add { name } => {
                exec!(Command::AddModerator { name: name.clone() });
            }
            ModeratorCmd::Remove { name } => {
                exec!(Command::RemoveModerator { name: name.clone() });
            }
            ModeratorCmd::List => {
                let names: Vec<&str> = ladder
                    .moderators
                    .iter()
                    .filter(|m| m.active)
                    .map(|m| m.name.as_str())
                    .collect();
                print_lines(g, &names)?;
            }
        },
        Noun::Player(cmd) => match cmd {
            PlayerCmd::Apply { name, surname } => {
                exec!(Command::Apply {
                    name: name.clone(),
                    surname: surname.clone()
                });
            }
            PlayerCmd::Add { name, surname } => {
                exec!(Command::Join {
                    name: name.clone(),
                    surname: surname.clone()
                });
            }
            PlayerCmd::Guest { name, surname } => {
                exec!(Command::RegisterGuest {
                    name: name.clone(),
                    surname: surname.clone()
                });
            }
            PlayerCmd::Approve { name } => {
                exec!(Command::Approve {
                    player: player(&ladder, name)?
                });
            }
            PlayerCmd::Decline { name, reason } => {
                exec!(Command::Decline {
                    player: player(&ladder, name)?,
                    reason: reason.clone()
                });
            }
            PlayerCmd::Reenter { name } => {
                exec!(Command::Reenter {
                    player: player(&ladder, name)?
                });
            }
            PlayerCmd::Withdraw { name, reason } => {
                exec!(Command::Withdraw {
                    player: player(&ladder, name)?,
                    reason: reason.clone()
                });
            }
            PlayerCmd::List => {
                let rows: Vec<serde_json::Value> = ladder
                    .players
                    .iter()
                    .map(|p| {
                        serde_json::json!({
                            "id": p.player.id.0,
                            "name": p.player.name,
                            "surname": p.player.surname,
                            "status": p.status.name(),
                            "rung": ladder.rung_of(p.player.id),
                            "eliminator": p.eliminator,
                        })
                    })
                    .collect();
                if g.json {
                    return print_json(&rows);
                }
                out!("{}", render::players(&rows));
            }
            PlayerCmd::Import { .. } => unreachable_noun()?,
            PlayerCmd::Show { name } => {
                let p = player(&ladder, name)?;
                let view = views::player_view(&ladder, p, now)
                    .ok_or_else(|| anyhow!("there is no player {name:?}"))?;
                if g.json {
                    return print_json(&view);
                }
                out!("{}", render::player(&view));
            }
        },
        Noun::Eliminator(cmd) => match cmd {
            EliminatorCmd::Volunteer { name } => {
                exec!(Command::VolunteerEliminator {
                    player: player(&ladder, name)?
                });
            }
            EliminatorCmd::StandDown { name } => {
                exec!(Command::StandDownEliminator {
                    player: player(&ladder, name)?
                });
            }
            EliminatorCmd::List => {
                let names: Vec<String> = ladder
                    .players
                    .iter()
                    .filter(|p| p.eliminator)
                    .map(|p| format!("{} ({})", p.player.name, p.status.name()))
                    .collect();
                print_lines(g, &names)?;
            }
        },
        Noun::Skip(cmd) => match cmd {
            SkipCmd::Request { name, round } => {
                exec!(Command::RequestSkip {
                    player: player(&ladder, name)?,
                    round: *round
                });
                // ARB-R4: a skip is asked before its round is announced, so
                // while a round runs the default is the next one: say so.
                if let (None, Some(open), false) = (round, ladder.open_round(), g.json) {
                    outln!(
                        "Booked for round {}, because round {} is running (a skip is asked before its round is announced, ARB-R4).",
                        ladder.next_round_number(),
                        open.number
                    );
                }
            }
            SkipCmd::Cancel { name, round } => {
                exec!(Command::CancelSkip {
                    player: player(&ladder, name)?,
                    round: *round
                });
            }
            SkipCmd::List => {
                let mut rows: Vec<serde_json::Value> = Vec::new();
                for (r, ps) in &ladder.skip_requests {
                    for p in ps {
                        rows.push(serde_json::json!({"round": r, "name": ladder.name_of(*p)}));
                    }
                }
                if g.json {
                    return print_json(&rows);
                }
                for r in &rows {
                    outln!("round {}: {}", r["round"], r["name"].as_str().unwrap_or(""));
                }
            }
        },
        Noun::Round(cmd) => round_cmd(svc, g, comp, &ladder, cmd).await?,
        Noun::Result(cmd) => match cmd {
            ResultCmd::Record { outcome: o, agreed } => {
                let gid = game(&ladder, &o.game)?;
                exec!(Command::RecordResult {
                    game: gid,
                    result: result_input(&ladder, gid, o)?,
                    agreed: *agreed,
                    at: now
                });
            }
            ResultCmd::Forfeit {
                game: gs,
                absent,
                note,
            } => {
                let gid = game(&ladder, gs)?;
                exec!(Command::Forfeit {
                    game: gid,
                    absent: player(&ladder, absent)?,
                    note: note.clone(),
                    at: now
                });
            }
            ResultCmd::Adjudicate {
                game: gs,
                winner,
                tie,
                final_state,
                ussr_statement,
                us_statement,
                third_party,
                decision,
                vp,
                turn,
            } => {
                let gid = game(&ladder, gs)?;
                exec!(Command::Adjudicate {
                    game: gid,
                    outcome: outcome(&ladder, gid, winner.as_deref(), *tie)?,
                    vp: *vp,
                    turn: *turn,
                    record: Adjudication {
                        final_state: final_state.clone(),
                        ussr_statement: ussr_statement.clone(),
                        us_statement: us_statement.clone(),
                        third_party: third_party.clone(),
                        decision: decision.clone(),
                    },
                    at: now
                });
            }
            ResultCmd::Correct { outcome: o, reason } => {
                let gid = game(&ladder, &o.game)?;
                exec!(Command::CorrectResult {
                    game: gid,
                    result: result_input(&ladder, gid, o)?,
                    reason: reason.clone(),
                    at: now
                });
            }
        },
        Noun::Game(cmd) => match cmd {
            GameCmd::Show { game: gs } => {
                let gid = game(&ladder, gs)?;
                let gm = ladder
                    .game(gid)
                    .ok_or_else(|| anyhow!("there is no game {gs}"))?;
                let view = views::game_view(&ladder, gm, now);
                if g.json {
                    return print_json(&view);
                }
                out!("{}", render::game(&view));
            }
            GameCmd::Cancel { game: gs, reason } => {
                let gid = game(&ladder, gs)?;
                exec!(Command::CancelGame {
                    game: gid,
                    reason: reason.clone(),
                    at: now
                });
            }
            GameCmd::List { round } => {
                let games: Vec<views::GameView> = ladder
                    .games
                    .iter()
                    .filter(|gm| round.is_none() || gm.round == *round)
                    .map(|gm| views::game_view(&ladder, gm, now))
                    .collect();
                if g.json {
                    return print_json(&games);
                }
                out!("{}", render::games(&games));
            }
        },
        Noun::Quick(cmd) => match cmd {
            QuickCmd::Add { ussr, us } => {
                exec!(Command::ScheduleQuickGame {
                    ussr: player(&ladder, ussr)?,
                    us: player(&ladder, us)?,
                    at: now
                });
            }
            QuickCmd::Leaderboard => {
                let lines = views::quick_view(&ladder);
                if g.json {
                    return print_json(&lines);
                }
                out!("{}", render::quick(&lines));
            }
        },
        Noun::Ladder(cmd) => match cmd {
            LadderCmd::Show { as_of } => {
                let (l, v) = match as_of {
                    Some(seq) if *seq == 0 || *seq > version => bail!(
                        "--as-of {seq}: {comp} has events 1 to {version}; `arbiter history` lists them"
                    ),
                    Some(seq) => svc.load(comp, Some(*seq)).await?,
                    None => (ladder.clone(), version),
                };
                let view = views::ladder_view(&l, comp, v);
                if g.json {
                    return print_json(&view);
                }
                out!("{}", render::ladder(&view));
            }
            LadderCmd::CarryOver { .. } => unreachable_noun()?,
            LadderCmd::Explain { name } => {
                let p = player(&ladder, name)?;
                let view = views::player_view(&ladder, p, now)
                    .ok_or_else(|| anyhow!("there is no player {name:?}"))?;
                if g.json {
                    return print_json(&view.moves);
                }
                out!("{}", render::moves_of(&view));
            }
        },
        Noun::Stats(a) => {
            let view = views::stats_view(&ladder);
            if let Some(name) = &a.player {
                let p = player(&ladder, name)?;
                let pname = ladder.name_of(p);
                let row = view.players.iter().find(|r| r.name == pname).cloned();
                if g.json {
                    return print_json(&row);
                }
                match row {
                    Some(r) => out!("{}", render::player_stats(&r)),
                    None => outln!("{pname} has no decided game yet."),
                }
                return Ok(());
            }
            if g.json {
                return print_json(&view);
            }
            out!("{}", render::stats(&view));
        }
        Noun::History(a) => {
            let history = svc.history(comp, None).await?;
            let skip = a.limit.map_or(0, |n| history.len().saturating_sub(n));
            let rows = history_json::<Ladder>(&history[skip..], |e| render::summarize(&ladder, e));
            if g.json {
                return print_json(&rows);
            }
            out!("{}", render::history(&rows));
        }
        Noun::Undo => {
            let (done, target) = svc.undo(comp, &ctx).await?;
            if g.json {
                return print_json(
                    &serde_json::json!({"undone": target.seq, "event": target.kind, "version": done.last}),
                );
            }
            outln!(
                "Undid event {} ({}: {}) by event {}.",
                target.seq,
                target.kind,
                render::summarize(&ladder, &target.event),
                done.last
            );
        }
        Noun::Draw(DrawCmd::Verify { round }) => {
            let number = round
                .or_else(|| ladder.last_round().map(|r| r.number))
                .ok_or_else(|| anyhow!("no round has been announced"))?;
            let checks = svc.verify_draws(comp, number).await?;
            let commitment = svc.seed_commitment_ok(comp, number).await?;
            if g.json {
                return print_json(
                    &serde_json::json!({"round": number, "seed_matches_commitment": commitment, "draws": checks}),
                );
            }
            outln!(
                "Round {number}: the revealed seed {} the commitment published before the round.",
                if commitment {
                    "matches"
                } else {
                    "DOES NOT match"
                }
            );
            if checks.is_empty() {
                outln!("No side was drawn in round {number}.");
            }
            for c in &checks {
                // ARB-R8 (issue 14, item 8): a pair's draw, a ladder
                // player's own draw against an eliminator, or, in a round
                // announced before, draw k by position.
                let draw = match c.keyed_by.as_str() {
                    "position" => format!("draw {}", c.draw_index),
                    "player" => format!("own draw (stream {})", c.draw_index),
                    _ => format!("pair's draw (stream {})", c.draw_index),
                };
                outln!(
                    "{} {draw}: {} recorded {}, recomputed {} — {}",
                    c.game,
                    c.player,
                    c.recorded,
                    c.recomputed,
                    if c.matches { "ok" } else { "MISMATCH" }
                );
            }
            if !commitment || checks.iter().any(|c| !c.matches) {
                bail!("round {number}'s draws do not verify");
            }
        }
        Noun::Script(_) | Noun::Demo(_) | Noun::Serve(_) | Noun::Account(_) => unreachable_noun()?,
        Noun::Export(_) | Noun::Import(_) => unreachable_noun()?,
        Noun::Format(_)
        | Noun::Roll(_)
        | Noun::Ratings(_)
        | Noun::Project(_)
        | Noun::WhatIf(_)
        | Noun::Standings(_)
        | Noun::Results(_)
        | Noun::Clinch(_)
        | Noun::Calendar(_) => unreachable_noun()?,
    }
    Ok(())
}

fn unreachable_noun() -> Result<()> {
    bail!("this command cannot run here (scripts cannot run scripts, the demo or the server)")
}

/// Print what a write did.
async fn report(
    svc: &Svc,
    comp: &str,
    g: &Globals,
    done: &arbiter_service::Executed,
) -> Result<()> {
    if g.json || done.replayed {
        return report_written::<Ladder>(g, done, |_| String::new());
    }
    let (after, _) = svc.load(comp, None).await?;
    report_written::<Ladder>(g, done, |e| render::summarize(&after, e))
}

/// History entries as the rows `history` prints (and `--json` gives):
/// sequence, kind, actor, time, a summary in words, undo mark, the stored
/// event.
pub fn history_json<F: arbiter_service::Format>(
    history: &[arbiter_service::HistoryEntry<F::Event>],
    describe: impl Fn(&F::Event) -> String,
) -> Vec<serde_json::Value> {
    history
        .iter()
        .map(|h| {
            serde_json::json!({
                "seq": h.seq,
                "event": h.kind,
                "actor": h.actor,
                "time": h.recorded_at,
                "summary": describe(&h.event),
                "undone": h.reverted,
                "payload": serde_json::from_str::<serde_json::Value>(&F::encode(&h.event))
                    .unwrap_or(serde_json::Value::Null),
            })
        })
        .collect()
}

/// Print what a write did: its events' kinds as JSON, or one line per
/// event in words (`describe`), or that an idempotent retry stored nothing.
pub fn report_written<F: arbiter_service::Format>(
    g: &Globals,
    done: &arbiter_service::Executed<F::Event>,
    describe: impl Fn(&F::Event) -> String,
) -> Result<()> {
    if g.json {
        return print_json(&serde_json::json!({
            "first": done.first,
            "last": done.last,
            "replayed": done.replayed,
            "events": done.events.iter().map(F::kind).collect::<Vec<_>>(),
        }));
    }
    if done.replayed {
        say_replayed(done.first, done.last);
        return Ok(());
    }
    for (i, e) in done.events.iter().enumerate() {
        outln!("Event {}: {}.", done.first + i as u64, describe(e));
    }
    Ok(())
}

async fn round_cmd(
    svc: &Svc,
    g: &Globals,
    comp: &str,
    ladder: &Ladder,
    cmd: &RoundCmd,
) -> Result<()> {
    let now = g.now();
    let ctx = g.ctx();
    match cmd {
        RoundCmd::Announce(a) => {
            let deadline = a
                .deadline
                .as_deref()
                .map(|d| parse_deadline(d, ladder.zone))
                .transpose()?;
            let plan = if a.pairs.is_empty() {
                if !a.bye.is_empty() {
                    bail!(
                        "--bye goes with --pair (a pairing exception); the default pairing gives the odd last player a bye when there is no eliminator"
                    );
                }
                PairingPlan::Default {
                    eliminator: a
                        .eliminator
                        .as_deref()
                        .map(|e| player(ladder, e))
                        .transpose()?,
                }
            } else {
                let reason = a
                    .reason
                    .clone()
                    .ok_or_else(|| anyhow!("a pairing exception needs --reason (TWS Pairings)"))?;
                let mut pairs = Vec::new();
                for (i, p) in a.pairs.iter().enumerate() {
                    let (x, y) = p
                        .split_once(':')
                        .ok_or_else(|| anyhow!("--pair number {} ({p:?}) must be `A:B`", i + 1))?;
                    pairs.push((player(ladder, x.trim())?, player(ladder, y.trim())?));
                }
                let byes = a
                    .bye
                    .iter()
                    .map(|b| player(ladder, b))
                    .collect::<Result<Vec<_>>>()?;
                PairingPlan::Override {
                    pairs,
                    byes,
                    reason,
                }
            };
            let (state, done) = svc
                .announce_round(comp, deadline, plan, a.preview, &ctx)
                .await?;
            let round = state
                .open_round()
                .ok_or_else(|| anyhow!("the round was not announced"))?;
            let view = views::round_view(&state, comp, round, now);
            if g.json {
                return print_json(
                    &serde_json::json!({"preview": a.preview, "version": done.last, "round": view}),
                );
            }
            if let Some(closed) = done.events.iter().find_map(|e| match e {
                Event::RoundClosed(c) => Some(c),
                _ => None,
            }) {
                outln!(
                    "Round {} {} first (all its games were resolved): champion {}, streak {}.",
                    closed.round,
                    if a.preview { "would close" } else { "closed" },
                    closed.champion.map_or("-".into(), |p| state.name_of(p)),
                    closed.streak
                );
            }
            if a.preview {
                outln!("PREVIEW — nothing stored. Without --preview this announces:");
            } else {
                outln!("Round {} announced (version {}).", view.number, done.last);
            }
            out!("{}", render::round(&view));
        }
        RoundCmd::AddGame {
            name,
            opponent,
            reason,
        } => {
            let done = svc
                .execute(
                    comp,
                    Command::AddRoundGame {
                        player: player(ladder, name)?,
                        opponent: player(ladder, opponent)?,
                        reason: reason.clone(),
                        at: now,
                    },
                    &ctx,
                )
                .await?;
            report(svc, comp, g, &done).await?;
            if !g.json {
                let (state, _) = svc.load(comp, None).await?;
                if let Some(Event::GameAdded { game, .. }) = done.events.first()
                    && let Some(gm) = state.game(game.id)
                {
                    out!("{}", render::game(&views::game_view(&state, gm, now)));
                }
            }
        }
        RoundCmd::Show { number } => {
            let r = match number {
                Some(n) => ladder.rounds.iter().find(|r| r.number == *n),
                None => ladder.last_round(),
            }
            .ok_or_else(|| anyhow!("that round has not been announced"))?;
            let view = views::round_view(ladder, comp, r, now);
            if g.json {
                return print_json(&view);
            }
            out!("{}", render::round(&view));
        }
        RoundCmd::Close {
            preview,
            early,
            reason,
        } => {
            let command = match (early, reason) {
                (true, Some(reason)) => Command::CloseRoundEarly {
                    at: now,
                    reason: reason.clone(),
                },
                _ => Command::CloseRound { at: now },
            };
            if *preview {
                let events = ladder.decide(command)?;
                let mut state = ladder.clone();
                for e in &events {
                    state.apply(e);
                }
                if let Some(Event::RoundClosed(c)) = events.first() {
                    let view = views::close_view(&state, c);
                    if g.json {
                        return print_json(&view);
                    }
                    outln!("PREVIEW — nothing stored.");
                    out!("{}", render::close(&view));
                }
                return Ok(());
            }
            let done = svc.execute(comp, command, &ctx).await?;
            let (state, _) = svc.load(comp, None).await?;
            if let Some(Event::RoundClosed(c)) = done.events.first() {
                let view = views::close_view(&state, c);
                if g.json {
                    return print_json(&view);
                }
                outln!("Round {} closed (version {}).", c.round, done.last);
                out!("{}", render::close(&view));
            } else {
                report(svc, comp, g, &done).await?;
            }
        }
        RoundCmd::Explain { number } => {
            let r = match number {
                Some(n) => ladder.rounds.iter().find(|r| r.number == *n),
                None => ladder.rounds.iter().rev().find(|r| r.closed.is_some()),
            }
            .ok_or_else(|| anyhow!("no such round"))?;
            let c = r
                .closed
                .as_ref()
                .ok_or_else(|| anyhow!("round {} is not closed yet", r.number))?;
            let view = views::close_view(ladder, c);
            if g.json {
                return print_json(&view);
            }
            out!("{}", render::close(&view));
        }
        RoundCmd::Export { number, format } => {
            let markup = Markup::parse(format)
                .ok_or_else(|| anyhow!("--format must be bbcode or markdown, not {format:?}"))?;
            let r = match number {
                Some(n) => ladder.rounds.iter().find(|r| r.number == *n),
                None => ladder.last_round(),
            }
            .ok_or_else(|| anyhow!("that round has not been announced"))?;
            let view = views::round_view(ladder, comp, r, now);
            let text = forum::announcement(markup, &view);
            if g.json {
                return print_json(
                    &serde_json::json!({"round": r.number, "format": format, "text": text}),
                );
            }
            out!("{text}");
        }
    }
    Ok(())
}
