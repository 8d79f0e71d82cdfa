//! The round-robin part of the demo (issue 16): two leagues of the general
//! round-robin format, built through the service like the rest of the
//! demo, told relative to the day they are built for and never after it.
//!
//! - A real football group entered from its published results: UEFA EURO
//!   2024 Group E under the `uefa-euro` preset, complete. All four teams end
//!   on 4 points; the block method of head-to-head (ARB-R67, the preset's
//!   `head_to_head = "block"`) ranks Romania above Belgium on goals scored
//!   among the four, although Belgium beat Romania 2-0.
//! - A club's ten-player chess round robin under the `chess` preset, six
//!   of its nine rounds played and the seventh running, every round with a
//!   deadline a week after the one before, results from a fixed generator
//!   (a forfeit and a corrected result among them): a provisional table
//!   with the last rounds still to decide it.
//!
//! This is a builder of its own beside [`crate::build_on`], which it leaves
//! as it was: the seed formats' demo competitions, and every output made
//! from them, are the same with or without it. `arbiter serve --demo`
//! (`arbiter_server::demo::install_all`) and `arbiter demo` call both.

use arbiter_engine::model::{PlayerId, Time};
use arbiter_engine::roundrobin::{Command, GameId, RoundRobin, RoundRobinRules, Score, Seat};
use arbiter_service::{Context, SeedSource, Service, ServiceError};
use arbiter_store::EventStore;
use chrono::{Duration, NaiveTime, SubsecRound};

use crate::{Dice, Result};

/// The id the EURO group is built under (or `-2`, … when taken).
pub const EURO_ID: &str = "euro-2024-group-e-demo";
/// The id the chess round robin is built under (or `-2`, … when taken).
pub const CHESS_ID: &str = "chess-round-robin-demo";

/// How many days before "today" the EURO group's first matchday was.
pub const EURO_AGE_DAYS: i64 = 120;
/// How many days before "today" the chess round robin's first round began:
/// its seventh round (of nine) is running on that day, each round a week.
pub const CHESS_AGE_DAYS: i64 = 45;

/// What [`build_on`] made: each league's id, state and version.
#[derive(Debug, Clone)]
pub struct RoundRobins {
    pub euro: (String, RoundRobin, u64),
    pub chess: (String, RoundRobin, u64),
    /// The day they were built for; no event of either lies after it.
    pub now: Time,
}

/// [`build_on`] the fixed [`crate::reference_today`], for compared output.
pub async fn build<S: EventStore + Clone>(store: &S) -> Result<RoundRobins> {
    build_on(store, crate::reference_today()).await
}

/// Build the two demo round robins in `store` as of `today`, each under a
/// fresh id ([`EURO_ID`], [`CHESS_ID`], or `-2`, … when taken).
pub async fn build_on<S: EventStore + Clone>(store: &S, today: Time) -> Result<RoundRobins> {
    // The same fixed seed base as the rest of the demo (never for a real
    // competition: its lots would be predictable).
    let svc =
        Service::new(store.clone()).with_seeds(SeedSource::Deterministic("arbiter demo".into()));
    let existing = svc.competitions().await?;
    let euro_id = crate::fresh(&existing, EURO_ID);
    let chess_id = crate::fresh(&existing, CHESS_ID);
    let today = today.trunc_subsecs(0);
    // Midnight (UTC) of the day: the story's times are whole hours of the
    // days before it.
    let midnight = today
        .date_naive()
        .and_time(NaiveTime::MIN)
        .and_utc()
        .min(today);
    let euro = euro(&svc, &euro_id, midnight - Duration::days(EURO_AGE_DAYS)).await?;
    let chess = chess(
        &svc,
        &chess_id,
        midnight - Duration::days(CHESS_AGE_DAYS),
        today,
    )
    .await?;
    Ok(RoundRobins {
        euro: (euro_id, euro.0, euro.1),
        chess: (chess_id, chess.0, chess.1),
        now: today,
    })
}

fn ctx(t: Time) -> Context {
    Context::new("demo", t)
}

fn at(day0: Time, days: i64, hours: i64) -> Time {
    day0 + Duration::days(days) + Duration::hours(hours)
}

fn rules(preset: &str) -> Result<RoundRobinRules> {
    let text = arbiter_record::roundrobin::round_robin_preset(preset).ok_or_else(|| {
        ServiceError::Input(format!("the round-robin preset {preset:?} is missing"))
    })?;
    arbiter_record::roundrobin::parse_round_robin_rules(text)
        .map_err(|e| ServiceError::Input(format!("the round-robin preset {preset:?}: {e}")))
}

async fn exec<S: EventStore>(svc: &Service<S>, id: &str, t: Time, c: Command) -> Result<()> {
    svc.execute_as::<RoundRobin>(id, c, &ctx(t)).await?;
    Ok(())
}

// ----- UEFA EURO 2024, Group E ---------------------------------------------

/// The teams in the order of the draw (E1 to E4).
const EURO_TEAMS: [&str; 4] = ["Belgium", "Slovakia", "Romania", "Ukraine"];

/// The six matches of Group E as published, home team first, by matchday:
/// (matchday, days after the first matchday, kick-off hour UTC, home,
/// away, home goals, away goals). Source:
/// https://en.wikipedia.org/wiki/UEFA_Euro_2024_Group_E (the same results
/// as the engine's golden case `tests/golden-roundrobin/uefa-euro-2024-group-e.case`):
/// 17 June 2024 Romania 3-0 Ukraine (Munich) and Belgium 0-1 Slovakia
/// (Frankfurt); 21 June Slovakia 1-2 Ukraine (Düsseldorf); 22 June Belgium
/// 2-0 Romania (Cologne); 26 June Slovakia 1-1 Romania (Frankfurt) and
/// Ukraine 0-0 Belgium (Stuttgart). The demo keeps the matchdays' spacing
/// and kick-off hours, told relative to the day it is built for.
const EURO_MATCHES: [(u32, i64, i64, &str, &str, u32, u32); 6] = [
    (1, 0, 13, "Romania", "Ukraine", 3, 0),
    (1, 0, 16, "Belgium", "Slovakia", 0, 1),
    (2, 4, 13, "Slovakia", "Ukraine", 1, 2),
    (2, 5, 19, "Belgium", "Romania", 2, 0),
    (3, 9, 16, "Slovakia", "Romania", 1, 1),
    (3, 9, 16, "Ukraine", "Belgium", 0, 0),
];

/// The EURO group: its teams, the schedule as UEFA published it (the
/// organizer's schedule, checked pair by pair), the six results, each
/// entered two hours after its kick-off.
async fn euro<S: EventStore>(svc: &Service<S>, id: &str, day0: Time) -> Result<(RoundRobin, u64)> {
    let teams: Vec<String> = EURO_TEAMS.iter().map(|t| (*t).to_string()).collect();
    svc.create_round_robin(
        id,
        "UEFA EURO 2024 Group E (demo)",
        rules("uefa-euro")?,
        &teams,
        &ctx(at(day0, -30, 10)),
    )
    .await?;
    let team = |name: &str| -> Result<PlayerId> {
        EURO_TEAMS
            .iter()
            .position(|t| *t == name)
            .map(|i| PlayerId(i as u32 + 1))
            .ok_or_else(|| ServiceError::Input(format!("no team {name} in the demo group")))
    };
    let mut schedule: Vec<Vec<(PlayerId, PlayerId)>> = vec![Vec::new(); 3];
    for (matchday, _, _, home, away, _, _) in EURO_MATCHES {
        schedule[matchday as usize - 1].push((team(home)?, team(away)?));
    }
    svc.start_round_robin(id, Some(schedule), &ctx(at(day0, -7, 10)))
        .await?;
    for (i, (_, days, hour, _, _, home, away)) in EURO_MATCHES.into_iter().enumerate() {
        let t = at(day0, days, hour + 2);
        exec(
            svc,
            id,
            t,
            Command::Record {
                game: GameId(i as u32),
                score: Score::Goals { home, away },
                minutes: None,
                at: t,
            },
        )
        .await?;
    }
    svc.load_as::<RoundRobin>(id, None).await
}

// ----- a club's chess round robin ------------------------------------------

/// Ten club players and their ratings: eight entered when the league was
/// created, two late entries before the start.
const CHESS_PLAYERS: [(&str, i32); 10] = [
    ("Alexei Sokolov", 2215),
    ("Beatriz Santos", 2170),
    ("Conor Walsh", 2120),
    ("Daria Kuznetsova", 2085),
    ("Elif Yilmaz", 2040),
    ("Felix Wagner", 1990),
    ("Greta Holm", 1945),
    ("Hamid Karimi", 1890),
    ("Irene Papadopoulos", 2060),
    ("Jakub Novák", 1930),
];

/// Rounds played to the end, of nine; the next is running.
const CHESS_ROUNDS_PLAYED: u32 = 6;
/// Games of the running round with a result so far.
const CHESS_RUNNING_DONE: usize = 3;

/// A result from the ratings: White scores a little more often, and a gap
/// of 200 points makes the stronger player win about half his games.
fn chess_score(dice: &mut Dice, white: i32, black: i32) -> Score {
    let edge = ((white - black + 35) / 20).clamp(-25, 25) as i64;
    let roll = dice.below(100) as i64;
    if roll < 35 + edge {
        Score::Won(Seat::Home)
    } else if roll < 68 + edge / 2 {
        Score::Drawn
    } else {
        Score::Won(Seat::Away)
    }
}

/// The chess round robin: created with eight players, two late entries,
/// the Berger schedule at the start with a deadline for every round (a
/// week each, due at 22:00 UTC), the results of rounds 1 to 6 and part of
/// round 7 each within its week; a forfeit in round 4 and a result of
/// round 2 corrected.
async fn chess<S: EventStore>(
    svc: &Service<S>,
    id: &str,
    day0: Time,
    today: Time,
) -> Result<(RoundRobin, u64)> {
    let first: Vec<String> = CHESS_PLAYERS[..8]
        .iter()
        .map(|(n, _)| (*n).to_string())
        .collect();
    svc.create_round_robin(
        id,
        "Riverside Chess Club Round Robin (demo)",
        rules("chess")?,
        &first,
        &ctx(at(day0, -21, 18)),
    )
    .await?;
    for (k, (name, _)) in CHESS_PLAYERS[8..].iter().enumerate() {
        exec(
            svc,
            id,
            at(day0, -10 + k as i64, 20),
            Command::AddPlayer {
                name: (*name).into(),
            },
        )
        .await?;
    }
    let start = at(day0, -1, 18);
    svc.start_round_robin(id, None, &ctx(start)).await?;
    let (rr, _) = svc.load_as::<RoundRobin>(id, None).await?;
    for round in 1..=rr.rounds.len() as u32 {
        exec(
            svc,
            id,
            start,
            Command::SetDeadline {
                round,
                deadline: Some(at(day0, 7 * i64::from(round), 22)),
            },
        )
        .await?;
    }
    let rating = |p: PlayerId| CHESS_PLAYERS.get(p.index()).map_or(2000, |(_, r)| *r);
    let mut dice = Dice(0xc4e5_5b0a_2d19);
    let mut corrected = false;
    for round in rr.rounds.iter().take(CHESS_ROUNDS_PLAYED as usize + 1) {
        let running = round.number > CHESS_ROUNDS_PLAYED;
        let week = 7 * i64::from(round.number - 1);
        let games = if running {
            &round.games[..CHESS_RUNNING_DONE.min(round.games.len())]
        } else {
            &round.games[..]
        };
        for (i, gid) in games.iter().enumerate() {
            let Some(g) = rr.game(*gid) else { continue };
            // Played one board an evening through the week (the running
            // round's on its first two days), entered that night: the log
            // is in the order of time.
            let day = if running {
                1 + i as i64 / 2
            } else {
                1 + i as i64
            };
            let t = at(day0, week + day, 21).min(today);
            let score = if round.number == 4 && i == 4 {
                // Black did not come to the board: a win by forfeit
                // (ARB-R67: the preset's forfeit scores nothing).
                Score::Forfeit {
                    winner: Some(Seat::Home),
                }
            } else {
                chess_score(&mut dice, rating(g.home), rating(g.away))
            };
            exec(
                svc,
                id,
                t,
                Command::Record {
                    game: *gid,
                    score,
                    minutes: None,
                    at: t,
                },
            )
            .await?;
            if round.number == 2 && !corrected && matches!(score, Score::Won(_)) {
                // Round 2's first decisive game was reported the wrong way
                // round, and corrected the next day, before that evening's
                // game.
                corrected = true;
                let t = t + Duration::hours(21);
                exec(
                    svc,
                    id,
                    t,
                    Command::Correct {
                        game: *gid,
                        score: Some(score.swapped()),
                        minutes: None,
                        reason: "the players reported the result the wrong way round".into(),
                        at: t,
                    },
                )
                .await?;
            }
        }
    }
    svc.load_as::<RoundRobin>(id, None).await
}
