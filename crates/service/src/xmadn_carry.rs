//! An XMadn league carried over from its records (issue 18 §1; ruling
//! ARB-R80): `arbiter league carry-over FILE.csv [--dry-run] [--source
//! TEXT]`, into a league created with its three players and nothing
//! rolled yet.
//!
//! The file is CSV (the shared reader's conventions, [`crate::csv`]): one
//! row a game of a double round-robin already played, as a forum thread
//! lists them,
//!
//! ```csv
//! drr,game,player_1,player_2,pawns_1,pawns_2,time,cancelled,at
//! 1,1,Ames,Baker,4,2,23:05,,2026-01-10
//! ```
//!
//! `drr` (1, 2, …) and `game` (1 to 6, the document's schedule), the two
//! players in the schedule's order ("Game 1: player #1 vs player #2"; the
//! positions of a double round-robin are read from its game 1, so every
//! double round-robin lists its game 1), the counted pawns of each and the
//! game's `time` (`m:ss`, XM-R9), or `cancelled` with the players' note
//! (XM-R6); an optional date `at`. A game with neither is still to play
//! (only in the last double round-robin). The whole file becomes one
//! `league-carried-over` event, checked by replaying every game by the
//! league's rules; a refusal names the line and column.

use std::collections::BTreeMap;

use arbiter_engine::model::{PlayerId, find_name};
use arbiter_engine::xmadn::carry::{CarriedDrr, CarriedGame};
use arbiter_engine::xmadn::league::{Command, League, PLAYERS, schedule};
use arbiter_engine::xmadn::{Score, parse_time};
use arbiter_store::{EventStore, Seq};
use serde::Serialize;

use crate::csv::{CsvError, MAX_BYTES};
use crate::format::CompetitionFormat;
use crate::{Context, Service, ServiceError};

/// The columns of the file.
pub const COLUMNS: &[&str] = &[
    "drr",
    "game",
    "player_1",
    "player_2",
    "pawns_1",
    "pawns_2",
    "time",
    "cancelled",
    "at",
];

/// What the command line adds to the file.
#[derive(Debug, Clone, Default)]
pub struct LeagueCarryOptions {
    /// Where the records come from (`--source`; default: the file's name).
    pub source: Option<String>,
    /// Decide on a copy and store nothing.
    pub dry_run: bool,
}

/// What a carry-over did (or, in a dry run, would do).
#[derive(Debug, Clone, Serialize)]
pub struct LeagueCarriedOverView {
    /// The double round-robins carried over.
    pub drrs: usize,
    /// Their games played, cancelled and still to play.
    pub played: usize,
    pub cancelled: usize,
    pub to_play: usize,
    pub source: String,
    pub by: String,
    /// The league as it stands after it.
    pub league: crate::xmadn::LeagueView,
    pub dry_run: bool,
    pub first: Option<Seq>,
    pub last: Option<Seq>,
    pub replayed: bool,
}

/// The rows read: the records and the line and column of each game.
struct Read {
    drrs: Vec<CarriedDrr>,
    /// `(drr index, game index)` → line.
    lines: BTreeMap<(usize, usize), u64>,
}

fn at(file: &str, line: u64, column: &str, m: impl Into<String>) -> CsvError {
    CsvError::at(file, line, Some(column), m)
}

fn read(
    file: &str,
    bytes: &[u8],
    l: &League,
    default_at: arbiter_engine::model::Time,
) -> Result<Read, CsvError> {
    let rows = crate::csv::rows(
        file,
        bytes,
        COLUMNS,
        &["drr", "game", "player_1", "player_2"],
    )?;
    let player = |line: u64, column: &str, name: &str| -> Result<PlayerId, CsvError> {
        find_name(l.players.iter().map(String::as_str), name)
            .map(|i| PLAYERS[i])
            .ok_or_else(|| {
                at(
                    file,
                    line,
                    column,
                    format!(
                        "{:?} is not one of the league's players ({})",
                        crate::csv::escaped_prefix(name, 40),
                        l.players.join(", ")
                    ),
                )
            })
    };
    let number = |line: u64, column: &str, t: Option<&str>, most: u32| -> Result<u32, CsvError> {
        t.and_then(|t| t.parse::<u32>().ok())
            .filter(|n| (1..=most).contains(n))
            .ok_or_else(|| at(file, line, column, format!("a number from 1 to {most}")))
    };
    // Every game row by double round-robin and game.
    let mut games: BTreeMap<(usize, usize), (u64, [PlayerId; 2], CarriedGame)> = BTreeMap::new();
    for r in &rows {
        let line = r.line;
        let drr = number(
            line,
            "drr",
            r.get("drr"),
            l.rules.double_round_robins.max(1),
        )? as usize;
        let k = number(line, "game", r.get("game"), 6)? as usize;
        let a = player(line, "player_1", r.get("player_1").unwrap_or_default())?;
        let b = player(line, "player_2", r.get("player_2").unwrap_or_default())?;
        if a == b {
            return Err(at(
                file,
                line,
                "player_2",
                "a game has two different players",
            ));
        }
        let when = match r.get("at") {
            None => default_at,
            Some(t) => crate::csv::parse_time(t).map_err(|e| at(file, line, "at", e))?,
        };
        let pawns = |column: &str| -> Result<Option<u8>, CsvError> {
            r.get(column)
                .map(|t| {
                    t.parse::<u8>().map_err(|_| {
                        at(
                            file,
                            line,
                            column,
                            format!(
                                "{:?} is not a number of counted pawns",
                                crate::csv::escaped_prefix(t, 20)
                            ),
                        )
                    })
                })
                .transpose()
        };
        let game = match (pawns("pawns_1")?, pawns("pawns_2")?, r.get("cancelled")) {
            (None, None, None) => CarriedGame::ToPlay,
            (Some(x), Some(y), None) => {
                let t = r.get("time").ok_or_else(|| {
                    at(
                        file,
                        line,
                        "time",
                        "empty: a played game has its time (m:ss, XM-R9)",
                    )
                })?;
                let seconds = parse_time(t).ok_or_else(|| {
                    at(
                        file,
                        line,
                        "time",
                        format!(
                            "{:?} is not a game time: m:ss, h:mm:ss or 23m05s",
                            crate::csv::escaped_prefix(t, 20)
                        ),
                    )
                })?;
                CarriedGame::Played {
                    score: Score {
                        pawns: [x, y],
                        seconds,
                    },
                    at: when,
                }
            }
            (None, None, Some(note)) => CarriedGame::Cancelled {
                note: note.to_string(),
                at: when,
            },
            (_, _, Some(_)) => {
                return Err(at(
                    file,
                    line,
                    "cancelled",
                    "a cancelled game has no pawns: leave pawns_1 and pawns_2 empty",
                ));
            }
            (Some(_), None, _) => {
                return Err(at(file, line, "pawns_2", "empty: give both players' pawns"));
            }
            (None, Some(_), _) => {
                return Err(at(file, line, "pawns_1", "empty: give both players' pawns"));
            }
        };
        if let Some((first, ..)) = games.get(&(drr - 1, k - 1)) {
            return Err(at(
                file,
                line,
                "game",
                format!("game {k} of DRR {drr} is already on line {first}"),
            ));
        }
        games.insert((drr - 1, k - 1), (line, [a, b], game));
    }
    let count = games.keys().map(|(d, _)| d + 1).max().unwrap_or(0);
    let mut drrs = Vec::with_capacity(count);
    let mut lines = BTreeMap::new();
    for d in 0..count {
        let Some((_, [p1, p2], _)) = games.get(&(d, 0)) else {
            let line = games
                .iter()
                .find(|((x, _), _)| *x == d)
                .map_or(1, |(_, v)| v.0);
            return Err(at(
                file,
                line,
                "game",
                format!(
                    "DRR {} has no game 1: its positions are read from game 1 (player #1 v player #2), so list it (with empty pawns if it is still to play)",
                    d + 1
                ),
            ));
        };
        let p3 = PLAYERS
            .into_iter()
            .find(|p| p != p1 && p != p2)
            .unwrap_or(PLAYERS[2]);
        let positions = [*p1, *p2, p3];
        let order = schedule(positions);
        let mut carried: [CarriedGame; 6] = std::array::from_fn(|_| CarriedGame::ToPlay);
        for (k, pair) in order.iter().enumerate() {
            if let Some((line, players, game)) = games.get(&(d, k)) {
                if players != pair {
                    let name = |p: PlayerId| l.players.get(p.index()).cloned().unwrap_or_default();
                    return Err(at(
                        file,
                        *line,
                        "player_1",
                        format!(
                            "game {} of DRR {} is {} v {} by the schedule (the positions of its game 1: #1 {}, #2 {}, #3 {}), not {} v {}",
                            k + 1,
                            d + 1,
                            name(pair[0]),
                            name(pair[1]),
                            name(positions[0]),
                            name(positions[1]),
                            name(positions[2]),
                            name(players[0]),
                            name(players[1])
                        ),
                    ));
                }
                carried[k] = game.clone();
                lines.insert((d, k), *line);
            }
        }
        drrs.push(CarriedDrr {
            positions,
            games: carried,
        });
    }
    Ok(Read { drrs, lines })
}

impl<S: EventStore> Service<S> {
    /// Carry an XMadn league's double round-robins over from a CSV file
    /// (see the module's documentation): one `league-carried-over` event by
    /// `ctx.actor`, or, with `dry_run`, what it would make and nothing
    /// stored.
    pub async fn carry_over_league(
        &self,
        competition: &str,
        file: &str,
        bytes: &[u8],
        opts: &LeagueCarryOptions,
        ctx: &Context,
    ) -> crate::Result<LeagueCarriedOverView> {
        let format = self.format_of(competition).await?;
        if format != CompetitionFormat::XmadnLeague {
            return Err(ServiceError::Input(format!(
                "{competition} is not an XMadn league: only an XMadn league is carried over from a file of double round-robins"
            )));
        }
        if bytes.len() > MAX_BYTES {
            return Err(ServiceError::Input(format!(
                "{file}: larger than {} MiB, the limit for a carry-over file; nothing was carried over",
                MAX_BYTES / (1024 * 1024)
            )));
        }
        let (mut l, mut version) = self.load_as::<League>(competition, None).await?;
        let read = read(file, bytes, &l, ctx.at)
            .map_err(|e| ServiceError::Input(format!("{e}; nothing was carried over")))?;
        let command = Command::CarryOver {
            drrs: read.drrs.clone(),
            source: opts.source.clone().unwrap_or_else(|| file.to_string()),
            by: ctx.actor.clone(),
            at: ctx.at,
        };
        let events = l
            .decide(command.clone())
            .map_err(|e| refusal(file, &read, e))?;
        let stored = if opts.dry_run {
            for e in &events {
                l.apply(e);
            }
            None
        } else {
            let done = self
                .execute_as::<League>(competition, command, ctx)
                .await
                .map_err(|e| match e {
                    ServiceError::Rule(r) => refusal(file, &read, r),
                    other => other,
                })?;
            (l, version) = self.load_as::<League>(competition, None).await?;
            Some((done.first, done.last, done.replayed))
        };
        let all = read.drrs.iter().flat_map(|d| d.games.iter());
        let count = |f: fn(&CarriedGame) -> bool| all.clone().filter(|g| f(g)).count();
        let carried = l.carried.as_deref();
        Ok(LeagueCarriedOverView {
            drrs: read.drrs.len(),
            played: count(|g| matches!(g, CarriedGame::Played { .. })),
            cancelled: count(|g| matches!(g, CarriedGame::Cancelled { .. })),
            to_play: count(|g| matches!(g, CarriedGame::ToPlay)),
            source: carried.map_or_else(String::new, |c| c.source.clone()),
            by: carried.map_or_else(String::new, |c| c.by.clone()),
            league: crate::xmadn::league_view(&l, competition, version),
            dry_run: opts.dry_run,
            first: stored.map(|s| s.0),
            last: stored.map(|s| s.1),
            replayed: stored.is_some_and(|s| s.2),
        })
    }
}

/// A refusal of the decider, naming the line of the game it is about.
fn refusal(file: &str, read: &Read, e: arbiter_engine::RuleError) -> ServiceError {
    let place = e
        .field
        .as_deref()
        .and_then(|f| {
            let rest = f.strip_prefix("drrs[")?;
            let (d, rest) = rest.split_once(']')?;
            let d: usize = d.parse().ok()?;
            let k = rest
                .strip_prefix(".games[")
                .and_then(|x| x.strip_suffix(']'))
                .and_then(|x| x.parse::<usize>().ok())
                .unwrap_or(0);
            read.lines
                .get(&(d, k))
                .map(|line| format!("{file} line {line}, game {} of DRR {}", k + 1, d + 1))
        })
        .unwrap_or_else(|| match e.field.as_deref() {
            Some("source") => format!("{file}: --source"),
            _ => file.to_string(),
        });
    ServiceError::Input(format!(
        "{place}: {} [{}]; nothing was carried over",
        e.message, e.clause
    ))
}
