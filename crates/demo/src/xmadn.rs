//! The XMadn part of the demo: a two-DRR 2T league with a full
//! playoff (qualifying game, first-to-3 final with the head start), and a
//! first-to-5 Challengers event. Dice come from the demo's fixed seeds, so
//! the story is the same every time; results follow the players' strength
//! with a few upsets.

use arbiter_engine::model::{PlayerId, Time};
use arbiter_engine::xmadn::challengers::{self, Challengers};
use arbiter_engine::xmadn::league::{self, League, Phase};
use arbiter_engine::xmadn::{ChallengersRules, Colours, LeagueRules};
use arbiter_service::{Context, Service, ServiceError};
use arbiter_store::EventStore;
use chrono::Duration;

use crate::Result;

const LEAGUE_PLAYERS: [&str; 3] = ["Anke Vogel", "Bruno Keller", "Carla Weiss"];
const CHALLENGERS_PLAYERS: [&str; 3] = ["Dana Roth", "Emil Brandt", "Frieda Lang"];

/// A fixed sequence of results: (does the stronger player win, loser's
/// pawns, minutes, seconds).
const SCRIPT: [(bool, u8, u32, u32); 16] = [
    (true, 2, 18, 40),
    (true, 3, 24, 5),
    (false, 1, 21, 30),
    (true, 0, 15, 55),
    (true, 2, 27, 10),
    (false, 3, 31, 45),
    (true, 1, 19, 20),
    (false, 2, 22, 0),
    (true, 3, 29, 35),
    (true, 2, 17, 50),
    (false, 0, 14, 25),
    (true, 1, 23, 15),
    (true, 3, 26, 40),
    (false, 2, 20, 5),
    (true, 2, 25, 30),
    (true, 1, 16, 45),
];

fn ctx(t: Time) -> Context {
    Context::new("demo", t)
}

/// The stronger of two players: the one listed first in the demo's players.
fn stronger(a: PlayerId, b: PlayerId) -> usize {
    usize::from(b.0 < a.0)
}

/// Pawns for a game between `players`, the winner chosen by the script.
fn script_result(players: [PlayerId; 2], step: usize) -> ([u8; 2], u32) {
    let (strong_wins, loser, m, s) = SCRIPT[step % SCRIPT.len()];
    let strong = stronger(players[0], players[1]);
    let winner = if strong_wins { strong } else { 1 - strong };
    let mut pawns = [loser, loser];
    pawns[winner] = 4;
    (pawns, m * 60 + s)
}

/// Build the demo league; returns it with its version.
pub async fn league<S: EventStore>(svc: &Service<S>, id: &str, t0: Time) -> Result<(League, u64)> {
    let players: Vec<String> = LEAGUE_PLAYERS.iter().map(|s| (*s).to_string()).collect();
    svc.create_league(
        id,
        "XMadn 2T League (demo)",
        LeagueRules::default(),
        &players,
        &ctx(t0),
    )
    .await?;
    let mut t = t0;
    let mut step = 0;
    // Stop with the final running: one game left to play in the final.
    for _ in 0..64 {
        t += Duration::hours(20);
        let (l, _) = svc.load_as::<League>(id, None).await?;
        match l.phase() {
            Phase::AwaitingPositions { .. } | Phase::AwaitingTiebreak { .. } => {
                svc.league_roll(id, &ctx(t)).await?;
            }
            Phase::RoundRobin { .. } => {
                // Follow Arbiter's suggestion for the bottom half.
                let next = analysis_first(&l)
                    .or_else(|| l.playable().first().map(|g| g.id))
                    .ok_or_else(|| {
                        ServiceError::Input("the demo league has no playable game".into())
                    })?;
                let game = l
                    .game(next)
                    .ok_or_else(|| ServiceError::Input("the demo league lost a game".into()))?;
                // Each pair splits its four games 2-2: a three-way tie on
                // records that the cascade has to break (XM-R4).
                let met = l
                    .round_robin_games()
                    .filter(|g| g.is_resolved() && g.has(game.players[0]) && g.has(game.players[1]))
                    .count();
                let (mut pawns, seconds) = script_result(game.players, step);
                let lower_wins = met % 2 == usize::from(game.players[0].0 + game.players[1].0 == 4);
                let winner = usize::from(lower_wins == (game.players[1].0 < game.players[0].0));
                if pawns[winner] != 4 {
                    pawns.swap(0, 1);
                }
                step += 1;
                svc.execute_as::<League>(
                    id,
                    league::Command::RecordResult {
                        game: Some(next),
                        players: game.players,
                        pawns,
                        seconds,
                        at: t,
                    },
                    &ctx(t),
                )
                .await?;
            }
            Phase::AwaitingPlayoff { .. } => {
                let colours = if l.playoff.is_empty() {
                    Colours {
                        vanguard: "green".into(),
                        rearguard: "yellow".into(),
                    }
                } else {
                    Colours {
                        vanguard: "red".into(),
                        rearguard: "blue".into(),
                    }
                };
                svc.execute_as::<League>(
                    id,
                    league::Command::StartPlayoff { colours, at: t },
                    &ctx(t),
                )
                .await?;
            }
            Phase::Playoff { .. } => {
                let round = l
                    .playoff
                    .last()
                    .ok_or_else(|| ServiceError::Input("the demo playoff has no round".into()))?;
                let need = round.series.wins_needed();
                if round.stage == league::PlayoffStage::Final
                    && round.wins[0] + 1 >= need
                    && round.wins[1] + 1 >= need
                {
                    break; // leave the decider of the final to be played
                }
                let players = [round.higher, round.lower];
                let (pawns, seconds) = script_result(players, step);
                step += 1;
                svc.execute_as::<League>(
                    id,
                    league::Command::RecordPlayoffGame {
                        players,
                        pawns,
                        seconds,
                        at: t,
                    },
                    &ctx(t),
                )
                .await?;
            }
            Phase::Finished { .. } => break,
        }
    }
    svc.load_as::<League>(id, None).await
}

fn analysis_first(l: &League) -> Option<arbiter_engine::model::GameId> {
    arbiter_engine::xmadn::analysis::suggest_order(l).and_then(|s| s.order.first().copied())
}

/// Build the demo Challengers event, first to 5, played to its end.
pub async fn challengers<S: EventStore>(
    svc: &Service<S>,
    id: &str,
    t0: Time,
) -> Result<(Challengers, u64)> {
    let players: Vec<String> = CHALLENGERS_PLAYERS
        .iter()
        .map(|s| (*s).to_string())
        .collect();
    svc.create_challengers(
        id,
        "XMadn 2T Challengers (demo)",
        ChallengersRules::default(),
        &players,
        &ctx(t0),
    )
    .await?;
    let mut t = t0 + Duration::hours(1);
    svc.execute_as::<Challengers>(
        id,
        challengers::Command::RecordQualifier {
            finishing: [PlayerId(2), PlayerId(1), PlayerId(3)],
            colours: Some(["red".into(), "yellow".into(), "blue".into()]),
            seconds: Some(11 * 60 + 20),
            chosen: Colours {
                vanguard: "blue".into(),
                rearguard: "green".into(),
            },
            at: t,
        },
        &ctx(t),
    )
    .await?;
    for step in 3..43 {
        let (c, _) = svc.load_as::<Challengers>(id, None).await?;
        let Some(next) = c.next_game() else { break };
        t += Duration::minutes(40);
        let (pawns, seconds) = script_result(next.players, step);
        svc.execute_as::<Challengers>(
            id,
            challengers::Command::RecordGame {
                players: next.players,
                pawns,
                seconds,
                at: t,
            },
            &ctx(t),
        )
        .await?;
    }
    svc.load_as::<Challengers>(id, None).await
}
