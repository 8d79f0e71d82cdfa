//! Format v1 of the XMadn league's events.

use arbiter_engine::xmadn::carry::{CarriedDrr, CarriedGame, LeagueCarryOver};
use arbiter_engine::xmadn::league::Event;
use serde::{Deserialize, Serialize};

use super::dto::{
    Arr, ColoursDto, HomesDto, LeagueRulesDto, RoundsDto, ScoreDto, SeriesDto, StageDto, homes,
    homes_dto, pids, players, rounds, rounds_dto,
};
use crate::envelope::event_dto;
use crate::v1::{ConfirmerDto, Gid, Hex32, Pid, PlayerAccountDto, RevertedDto, Stamp, ZoneDto};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CreatedDto {
    name: String,
    rules: LeagueRulesDto,
    players: Vec<String>,
    seed_hash: Hex32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PositionsRolledDto {
    drr: u32,
    seed: Hex32,
    next_seed_hash: Hex32,
    rounds: RoundsDto,
    /// Players #1, #2, #3.
    positions: Arr<Pid, 3>,
    at: Stamp,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResultRecordedDto {
    game: Gid,
    score: ScoreDto,
    /// The pawns brought home per allied colour, when the result was
    /// entered so (ARB-R65); absent in older logs and otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    home: HomesDto,
    at: Stamp,
}

/// Positions of a double round-robin by real dice at the table, the faces
/// entered by moderator `by` (ARB-R64).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PositionsEnteredDto {
    drr: u32,
    rounds: RoundsDto,
    positions: Arr<Pid, 3>,
    by: String,
    at: Stamp,
}

/// Step 6 by real dice at the table (ARB-R64).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TiebreakEnteredDto {
    players: Vec<Pid>,
    rounds: RoundsDto,
    by: String,
    at: Stamp,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResultCorrectedDto {
    game: Gid,
    score: ScoreDto,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    home: HomesDto,
    reason: String,
    at: Stamp,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GameCancelledDto {
    game: Gid,
    note: String,
    at: Stamp,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DrrCancelledDto {
    drr: u32,
    note: String,
    at: Stamp,
}

/// `league-carried-over` (ARB-R80): the double round-robins already
/// played, each its positions and games 1 to 6 (`{"played": {score},
/// "at"}`, `{"cancelled": note, "at"}`, or `"to-play"`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CarriedOverDto {
    drrs: Vec<CarriedDrrDto>,
    source: String,
    by: String,
    at: Stamp,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CarriedDrrDto {
    positions: [Pid; 3],
    games: [CarriedGameDto; 6],
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub(crate) enum CarriedGameDto {
    ToPlay,
    Played { score: ScoreDto, at: Stamp },
    Cancelled { note: String, at: Stamp },
}

impl From<&LeagueCarryOver> for CarriedOverDto {
    fn from(c: &LeagueCarryOver) -> Self {
        CarriedOverDto {
            drrs: c
                .drrs
                .iter()
                .map(|d| CarriedDrrDto {
                    positions: d.positions.map(Pid),
                    games: d.games.clone().map(|g| match g {
                        CarriedGame::ToPlay => CarriedGameDto::ToPlay,
                        CarriedGame::Played { score, at } => CarriedGameDto::Played {
                            score: score.into(),
                            at: Stamp(at),
                        },
                        CarriedGame::Cancelled { note, at } => CarriedGameDto::Cancelled {
                            note,
                            at: Stamp(at),
                        },
                    }),
                })
                .collect(),
            source: c.source.clone(),
            by: c.by.clone(),
            at: Stamp(c.at),
        }
    }
}

impl From<CarriedOverDto> for LeagueCarryOver {
    fn from(d: CarriedOverDto) -> Self {
        LeagueCarryOver {
            drrs: d
                .drrs
                .into_iter()
                .map(|x| CarriedDrr {
                    positions: x.positions.map(|p| p.0),
                    games: x.games.map(|g| match g {
                        CarriedGameDto::ToPlay => CarriedGame::ToPlay,
                        CarriedGameDto::Played { score, at } => CarriedGame::Played {
                            score: score.into(),
                            at: at.0,
                        },
                        CarriedGameDto::Cancelled { note, at } => {
                            CarriedGame::Cancelled { note, at: at.0 }
                        }
                    }),
                })
                .collect(),
            source: d.source,
            by: d.by,
            at: d.at.0,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TiebreakRolledDto {
    players: Vec<Pid>,
    seed: Hex32,
    next_seed_hash: Hex32,
    rounds: RoundsDto,
    at: Stamp,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayoffStartedDto {
    stage: StageDto,
    higher: Pid,
    lower: Pid,
    series: SeriesDto,
    head_start: bool,
    /// The higher seed's choice.
    colours: ColoursDto,
    at: Stamp,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayoffGamePlayedDto {
    stage: StageDto,
    /// Pawns in the order higher seed, lower seed.
    score: ScoreDto,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    home: HomesDto,
    at: Stamp,
}

/// `league-result-reported` (ARB-R45, ARB-R81): a player's report, the
/// score in the game's player order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResultReportedDto {
    game: Gid,
    score: ScoreDto,
    by: Pid,
    at: Stamp,
}

/// `league-result-confirmed`: followed by the result's own event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResultConfirmedDto {
    game: Gid,
    by: ConfirmerDto,
    at: Stamp,
}

/// `league-report-disputed`: the report dropped, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReportDisputedDto {
    game: Gid,
    by: ConfirmerDto,
    reason: String,
    at: Stamp,
}

// Each `type` is `Event::kind()` of the variant (checked by the tests).
event_dto! {
    EventDto {
        Created(CreatedDto) = "league-created",
        PositionsRolled(PositionsRolledDto) = "league-positions-rolled",
        PositionsEntered(PositionsEnteredDto) = "league-positions-entered",
        TiebreakEntered(TiebreakEnteredDto) = "league-tiebreak-entered",
        ResultRecorded(ResultRecordedDto) = "league-result-recorded",
        ResultCorrected(ResultCorrectedDto) = "league-result-corrected",
        GameCancelled(GameCancelledDto) = "league-game-cancelled",
        DrrCancelled(DrrCancelledDto) = "league-drr-cancelled",
        CarriedOver(CarriedOverDto) = "league-carried-over",
        TiebreakRolled(TiebreakRolledDto) = "league-tiebreak-rolled",
        PlayoffStarted(PlayoffStartedDto) = "league-playoff-started",
        PlayoffGamePlayed(PlayoffGamePlayedDto) = "league-playoff-game-played",
        ResultReported(ResultReportedDto) = "league-result-reported",
        ResultConfirmed(ResultConfirmedDto) = "league-result-confirmed",
        ReportDisputed(ReportDisputedDto) = "league-report-disputed",
        AccountLinked(PlayerAccountDto) = "league-account-linked",
        AccountUnlinked(PlayerAccountDto) = "league-account-unlinked",
        TimeZoneSet(ZoneDto) = "league-time-zone-set",
        Reverted(RevertedDto) = "reverted",
    }
}

impl From<&Event> for EventDto {
    fn from(e: &Event) -> Self {
        match e {
            Event::Created {
                name,
                rules,
                players,
                seed_hash,
            } => EventDto::Created(CreatedDto {
                name: name.clone(),
                rules: rules.into(),
                players: players.clone(),
                seed_hash: Hex32(*seed_hash),
            }),
            Event::PositionsRolled {
                drr,
                seed,
                next_seed_hash,
                rounds,
                positions,
                at,
            } => EventDto::PositionsRolled(PositionsRolledDto {
                drr: *drr,
                seed: Hex32(*seed),
                next_seed_hash: Hex32(*next_seed_hash),
                rounds: rounds_dto(rounds),
                positions: pids(positions),
                at: Stamp(*at),
            }),
            Event::PositionsEntered {
                drr,
                rounds,
                positions,
                by,
                at,
            } => EventDto::PositionsEntered(PositionsEnteredDto {
                drr: *drr,
                rounds: rounds_dto(rounds),
                positions: pids(positions),
                by: by.clone(),
                at: Stamp(*at),
            }),
            Event::TiebreakEntered {
                players,
                rounds,
                by,
                at,
            } => EventDto::TiebreakEntered(TiebreakEnteredDto {
                players: players.iter().copied().map(Pid).collect(),
                rounds: rounds_dto(rounds),
                by: by.clone(),
                at: Stamp(*at),
            }),
            Event::ResultRecorded {
                game,
                score,
                home,
                at,
            } => EventDto::ResultRecorded(ResultRecordedDto {
                game: Gid(*game),
                score: (*score).into(),
                home: homes_dto(home),
                at: Stamp(*at),
            }),
            Event::ResultCorrected {
                game,
                score,
                home,
                reason,
                at,
            } => EventDto::ResultCorrected(ResultCorrectedDto {
                game: Gid(*game),
                score: (*score).into(),
                home: homes_dto(home),
                reason: reason.clone(),
                at: Stamp(*at),
            }),
            Event::GameCancelled { game, note, at } => EventDto::GameCancelled(GameCancelledDto {
                game: Gid(*game),
                note: note.clone(),
                at: Stamp(*at),
            }),
            Event::DrrCancelled { drr, note, at } => EventDto::DrrCancelled(DrrCancelledDto {
                drr: *drr,
                note: note.clone(),
                at: Stamp(*at),
            }),
            Event::DrrsCarriedOver(c) => EventDto::CarriedOver(c.as_ref().into()),
            Event::TiebreakRolled {
                players,
                seed,
                next_seed_hash,
                rounds,
                at,
            } => EventDto::TiebreakRolled(TiebreakRolledDto {
                players: players.iter().copied().map(Pid).collect(),
                seed: Hex32(*seed),
                next_seed_hash: Hex32(*next_seed_hash),
                rounds: rounds_dto(rounds),
                at: Stamp(*at),
            }),
            Event::PlayoffStarted {
                stage,
                higher,
                lower,
                series,
                head_start,
                colours,
                at,
            } => EventDto::PlayoffStarted(PlayoffStartedDto {
                stage: (*stage).into(),
                higher: Pid(*higher),
                lower: Pid(*lower),
                series: (*series).into(),
                head_start: *head_start,
                colours: colours.into(),
                at: Stamp(*at),
            }),
            Event::PlayoffGamePlayed {
                stage,
                score,
                home,
                at,
            } => EventDto::PlayoffGamePlayed(PlayoffGamePlayedDto {
                stage: (*stage).into(),
                score: (*score).into(),
                home: homes_dto(home),
                at: Stamp(*at),
            }),
            Event::ResultReported {
                game,
                score,
                by,
                at,
            } => EventDto::ResultReported(ResultReportedDto {
                game: Gid(*game),
                score: (*score).into(),
                by: Pid(*by),
                at: Stamp(*at),
            }),
            Event::ResultConfirmed { game, by, at } => {
                EventDto::ResultConfirmed(ResultConfirmedDto {
                    game: Gid(*game),
                    by: by.into(),
                    at: Stamp(*at),
                })
            }
            Event::ReportDisputed {
                game,
                by,
                reason,
                at,
            } => EventDto::ReportDisputed(ReportDisputedDto {
                game: Gid(*game),
                by: by.into(),
                reason: reason.clone(),
                at: Stamp(*at),
            }),
            Event::AccountLinked { player, account } => {
                EventDto::AccountLinked(PlayerAccountDto::new(*player, account))
            }
            Event::AccountUnlinked { player, account } => {
                EventDto::AccountUnlinked(PlayerAccountDto::new(*player, account))
            }
            Event::TimeZoneSet { zone } => EventDto::TimeZoneSet(ZoneDto::new(*zone)),
            Event::Reverted { seq, summary } => EventDto::Reverted(RevertedDto::new(*seq, summary)),
        }
    }
}

impl From<EventDto> for Event {
    fn from(e: EventDto) -> Self {
        match e {
            EventDto::Created(d) => Event::Created {
                name: d.name,
                rules: d.rules.into(),
                players: d.players,
                seed_hash: d.seed_hash.0,
            },
            EventDto::PositionsRolled(d) => Event::PositionsRolled {
                drr: d.drr,
                seed: d.seed.0,
                next_seed_hash: d.next_seed_hash.0,
                rounds: rounds(d.rounds),
                positions: players(d.positions),
                at: d.at.0,
            },
            EventDto::PositionsEntered(d) => Event::PositionsEntered {
                drr: d.drr,
                rounds: rounds(d.rounds),
                positions: players(d.positions),
                by: d.by,
                at: d.at.0,
            },
            EventDto::TiebreakEntered(d) => Event::TiebreakEntered {
                players: d.players.into_iter().map(|p| p.0).collect(),
                rounds: rounds(d.rounds),
                by: d.by,
                at: d.at.0,
            },
            EventDto::ResultRecorded(d) => Event::ResultRecorded {
                game: d.game.0,
                score: d.score.into(),
                home: homes(d.home),
                at: d.at.0,
            },
            EventDto::ResultCorrected(d) => Event::ResultCorrected {
                game: d.game.0,
                score: d.score.into(),
                home: homes(d.home),
                reason: d.reason,
                at: d.at.0,
            },
            EventDto::GameCancelled(d) => Event::GameCancelled {
                game: d.game.0,
                note: d.note,
                at: d.at.0,
            },
            EventDto::DrrCancelled(d) => Event::DrrCancelled {
                drr: d.drr,
                note: d.note,
                at: d.at.0,
            },
            EventDto::CarriedOver(d) => Event::DrrsCarriedOver(Box::new(d.into())),
            EventDto::TiebreakRolled(d) => Event::TiebreakRolled {
                players: d.players.into_iter().map(|p| p.0).collect(),
                seed: d.seed.0,
                next_seed_hash: d.next_seed_hash.0,
                rounds: rounds(d.rounds),
                at: d.at.0,
            },
            EventDto::PlayoffStarted(d) => Event::PlayoffStarted {
                stage: d.stage.into(),
                higher: d.higher.0,
                lower: d.lower.0,
                series: d.series.into(),
                head_start: d.head_start,
                colours: d.colours.into(),
                at: d.at.0,
            },
            EventDto::PlayoffGamePlayed(d) => Event::PlayoffGamePlayed {
                stage: d.stage.into(),
                score: d.score.into(),
                home: homes(d.home),
                at: d.at.0,
            },
            EventDto::ResultReported(d) => Event::ResultReported {
                game: d.game.0,
                score: d.score.into(),
                by: d.by.0,
                at: d.at.0,
            },
            EventDto::ResultConfirmed(d) => Event::ResultConfirmed {
                game: d.game.0,
                by: d.by.into(),
                at: d.at.0,
            },
            EventDto::ReportDisputed(d) => Event::ReportDisputed {
                game: d.game.0,
                by: d.by.into(),
                reason: d.reason,
                at: d.at.0,
            },
            EventDto::AccountLinked(d) => Event::AccountLinked {
                player: d.player(),
                account: d.into_account(),
            },
            EventDto::AccountUnlinked(d) => Event::AccountUnlinked {
                player: d.player(),
                account: d.into_account(),
            },
            EventDto::TimeZoneSet(z) => Event::TimeZoneSet { zone: z.zone() },
            EventDto::Reverted(d) => Event::Reverted {
                seq: d.seq,
                summary: d.summary,
            },
        }
    }
}
