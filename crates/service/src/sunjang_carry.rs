//! A Sunjang league carried over from its last season's records (issue 18
//! §1; rulings ARB-R77..ARB-R79): `arbiter sunjang carry-over FILE.csv
//! --season N`.
//!
//! The file is CSV (the shared reader's conventions, [`crate::csv`]): one
//! row a player of the season carried over,
//!
//! ```csv
//! name,rank,rating,group,place,gamepoints,sodos,beat,jigo,withdrawn,champion
//! Lee Chang,3d,2410,A1,1,4,7½,Kim Ha;Park Jun,,,yes
//! ```
//!
//! with his figures now (`rank`, `provisional`, `rating`, `corr_rank`,
//! `corr_rating`, as in the player file), his `group` (A1, B2, or the
//! letter alone for the only group of a division), his `gamepoints` won in
//! group play without the starting gamepoints (3, 3.5, 3½) and `sodos`
//! (12, 12.25, 12¼), optionally his `place` in the group's final table
//! (checked against section D), the results the records give him among his
//! group (`beat`, `jigo`, `both_forfeit`: names separated by `;`; the
//! results among players level on gamepoints and SODOS are required, since
//! the third main criterion reads them), `withdrawn` (he has left the
//! tournament, B.4) and `champion` (the defending champion, one row).
//!
//! The whole file becomes one `sunjang-carried-over` event into a league
//! with nobody registered and no season, all or nothing; a refusal names
//! the line and column. A dry run decides it on a copy and shows the
//! tables and the season the next plan would make.

use arbiter_engine::sunjang::division_letter;
use arbiter_engine::sunjang::season::{Command, League};
use arbiter_store::{EventStore, Seq};
use serde::Serialize;

use crate::csv::{MAX_BYTES, SunjangCarriedRows, parse_sunjang_carry_over};
use crate::format::CompetitionFormat;
use crate::views::ExplanationView;
use crate::{Context, Service, ServiceError};

/// What the command line adds to the file.
#[derive(Debug, Clone, Default)]
pub struct SunjangCarryOptions {
    /// The number of the season carried over (`--season`).
    pub season: Option<u32>,
    /// Where the records come from (`--source`; default: the file's name).
    pub source: Option<String>,
    /// Decide on a copy and store nothing.
    pub dry_run: bool,
}

/// A player's row of a carried group's final table.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct CarriedRowView {
    pub place: usize,
    pub player: String,
    pub rank: String,
    /// Gamepoints won in group play, "3½".
    pub gamepoints: String,
    /// With the starting gamepoints (SJ-R4).
    pub total: String,
    pub sodos: String,
    pub withdrawn: bool,
}

/// A carried group's final table by section D on the carried figures.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct CarriedGroupView {
    pub id: String,
    pub rows: Vec<CarriedRowView>,
    pub explanations: Vec<ExplanationView>,
}

/// A division of the carried season: its groups and merged ranking.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct CarriedDivisionView {
    pub letter: String,
    pub groups: Vec<CarriedGroupView>,
    /// The merged ranking of the division (SJ-R5), best first.
    pub ranking: Vec<String>,
}

/// The season carried over, as its records give it.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct CarriedSeasonView {
    pub season: u32,
    pub source: String,
    pub by: String,
    /// When the records were entered (RFC 3339), and its date.
    pub at: String,
    pub date: String,
    pub divisions: Vec<CarriedDivisionView>,
    pub withdrawn: Vec<String>,
    pub champion: Option<String>,
    /// The rules of section A its layout breaks: said, not refused
    /// (ARB-R77).
    pub layout_notes: Vec<ExplanationView>,
}

/// What a carry-over did (or, in a dry run, would do).
#[derive(Debug, Clone, Serialize)]
pub struct SunjangCarriedOverView {
    pub carried: CarriedSeasonView,
    /// The number the next season planned gets.
    pub next_season: u32,
    pub dry_run: bool,
    /// The events stored (none in a dry run).
    pub first: Option<Seq>,
    pub last: Option<Seq>,
    pub replayed: bool,
}

/// The carried season of `l`, if it has one.
pub fn carried_view(l: &League) -> Option<CarriedSeasonView> {
    let c = l.carried.as_deref()?;
    let r = &c.records;
    let (perf, games) = l.carried_figures()?;
    let data = l.data(&perf, &games);
    let tables = r.group_tables(&data);
    let rankings = r.rankings(&data);
    let per_point = l.rules.sodos_per_point();
    let name = |p: arbiter_engine::sunjang::PlayerId| l.name_of(p);
    let divisions = rankings
        .iter()
        .map(|ranking| CarriedDivisionView {
            letter: division_letter(ranking.division),
            groups: tables
                .iter()
                .filter(|t| t.group.division == ranking.division)
                .map(|t| CarriedGroupView {
                    id: t.group.to_string(),
                    rows: t
                        .rows
                        .iter()
                        .map(|row| CarriedRowView {
                            place: row.place,
                            player: name(row.player),
                            rank: l
                                .info(row.player)
                                .map_or_else(String::new, |i| i.rank.to_string()),
                            gamepoints: arbiter_engine::sunjang::format_points(row.gamepoints),
                            total: arbiter_engine::sunjang::format_points(row.total()),
                            sodos: arbiter_engine::sunjang::format_sodos(row.sodos, per_point),
                            withdrawn: r
                                .players
                                .get(row.player.index())
                                .is_some_and(|p| p.withdrawn),
                        })
                        .collect(),
                    explanations: t.explanations.iter().cloned().map(Into::into).collect(),
                })
                .collect(),
            ranking: ranking.order.iter().map(|&p| name(p)).collect(),
        })
        .collect();
    Some(CarriedSeasonView {
        season: r.season,
        source: c.source.clone(),
        by: c.by.clone(),
        at: c.at.to_rfc3339(),
        date: c.at.format("%Y-%m-%d").to_string(),
        divisions,
        withdrawn: r
            .players
            .iter()
            .filter(|p| p.withdrawn)
            .map(|p| p.info.name.clone())
            .collect(),
        champion: r.champion.map(name),
        layout_notes: r
            .layout_notes(&l.rules)
            .into_iter()
            .map(Into::into)
            .collect(),
    })
}

impl<S: EventStore> Service<S> {
    /// Carry a Sunjang league's last season over from a CSV file (see the
    /// module's documentation): one `sunjang-carried-over` event by
    /// `ctx.actor`, or, with `dry_run`, what it would make and nothing
    /// stored.
    pub async fn carry_over_sunjang(
        &self,
        competition: &str,
        file: &str,
        bytes: &[u8],
        opts: &SunjangCarryOptions,
        ctx: &Context,
    ) -> crate::Result<SunjangCarriedOverView> {
        let format = self.format_of(competition).await?;
        if format != CompetitionFormat::SunjangLeague {
            return Err(ServiceError::Input(format!(
                "{competition} is not a Sunjang league: only a Sunjang league is carried over from a Sunjang season's file"
            )));
        }
        if bytes.len() > MAX_BYTES {
            return Err(ServiceError::Input(format!(
                "{file}: larger than {} MiB, the limit for a carry-over file; nothing was carried over",
                MAX_BYTES / (1024 * 1024)
            )));
        }
        let season = opts.season.ok_or_else(|| {
            ServiceError::Input(format!(
                "{file}: the number of the season carried over is missing: give --season N (the next season planned is N + 1); nothing was carried over"
            ))
        })?;
        let (mut league, _) = self.load_as::<League>(competition, None).await?;
        let rows = parse_sunjang_carry_over(file, bytes, season, league.rules.sodos_per_point())
            .map_err(|e| ServiceError::Input(format!("{e}; nothing was carried over")))?;
        let command = Command::CarryOver {
            records: rows.records.clone(),
            source: opts.source.clone().unwrap_or_else(|| file.to_string()),
            by: ctx.actor.clone(),
            at: ctx.at,
        };
        let events = league
            .decide(command.clone())
            .map_err(|e| refusal(file, &rows, e))?;
        if opts.dry_run {
            for e in &events {
                league.apply(e);
            }
            return view(&league, true, None);
        }
        let done = self
            .execute_as::<League>(competition, command, ctx)
            .await
            .map_err(|e| match e {
                ServiceError::Rule(r) => refusal(file, &rows, r),
                other => other,
            })?;
        let (league, _) = self.load_as::<League>(competition, None).await?;
        view(&league, false, Some((done.first, done.last, done.replayed)))
    }
}

fn view(
    l: &League,
    dry_run: bool,
    stored: Option<(Seq, Seq, bool)>,
) -> crate::Result<SunjangCarriedOverView> {
    let carried = carried_view(l)
        .ok_or_else(|| ServiceError::Input("the league has no season carried over".to_string()))?;
    Ok(SunjangCarriedOverView {
        carried,
        next_season: l.next_season_number(),
        dry_run,
        first: stored.map(|s| s.0),
        last: stored.map(|s| s.1),
        replayed: stored.is_some_and(|s| s.2),
    })
}

/// A refusal of the decider, naming the line and column of the record it
/// is about: `players[3].sodos` is the fourth row's `sodos`, `games[2]`
/// the row and column that gave the third result.
fn refusal(file: &str, rows: &SunjangCarriedRows, e: arbiter_engine::RuleError) -> ServiceError {
    let place = match e.field.as_deref() {
        Some("season") => format!("{file}: --season"),
        Some("source") => format!("{file}: --source"),
        Some("champion") => format!("{file}: column `champion`"),
        Some(f) => match parse_field(f) {
            Some(("players", i, field)) => {
                let line = rows.lines.get(i).copied().unwrap_or(1);
                format!("{file} line {line}, column `{field}`")
            }
            Some(("games", k, _)) => match rows.game_lines.get(k) {
                Some((line, column)) => format!("{file} line {line}, column `{column}`"),
                None => file.to_string(),
            },
            _ => format!("{file}: `{f}`"),
        },
        None => file.to_string(),
    };
    ServiceError::Input(format!(
        "{place}: {} [{}]; nothing was carried over",
        e.message, e.clause
    ))
}

/// A refusal's field naming a record: `players[3].sodos` → ("players", 3,
/// "sodos"); `games[2]` → ("games", 2, ""). Every carry-over reads it.
pub(crate) fn parse_field(f: &str) -> Option<(&str, usize, &str)> {
    let (list, rest) = f.split_once('[')?;
    let (i, field) = rest.split_once(']')?;
    Some((
        list,
        i.parse().ok()?,
        field.strip_prefix('.').unwrap_or(field),
    ))
}
