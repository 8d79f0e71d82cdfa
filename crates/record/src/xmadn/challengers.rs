//! Format v1 of the XMadn Challengers events.

use arbiter_engine::xmadn::challengers::Event;
use serde::{Deserialize, Serialize};

use super::dto::{
    Arr, ChallengersRulesDto, ColoursDto, HomesDto, ScoreDto, homes, homes_dto, pids, players,
};
use crate::envelope::event_dto;
use crate::v1::{ConfirmerDto, Pid, PlayerAccountDto, RevertedDto, Stamp, ZoneDto};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CreatedDto {
    name: String,
    rules: ChallengersRulesDto,
    players: Vec<String>,
}

/// Game 0 (3TQ).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct QualifierPlayedDto {
    /// 1st, 2nd and 3rd place.
    finishing: Arr<Pid, 3>,
    /// Each player's one colour, in player-id order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    colours: Option<Arr<String, 3>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seconds: Option<u32>,
    chosen: ColoursDto,
    at: Stamp,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GamePlayedDto {
    number: u32,
    players: Arr<Pid, 2>,
    /// Pawns in the order of `players`.
    score: ScoreDto,
    /// The pawns brought home per allied colour, when the game was entered
    /// so (ARB-R65); absent in older logs and otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    home: HomesDto,
    at: Stamp,
}

/// `challengers-result-reported` (ARB-R45, ARB-R81): a player's report of
/// counted game `number`, pawns in the board's order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResultReportedDto {
    number: u32,
    score: ScoreDto,
    by: Pid,
    at: Stamp,
}

/// `challengers-result-confirmed`: followed by `challengers-game-played`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResultConfirmedDto {
    number: u32,
    by: ConfirmerDto,
    at: Stamp,
}

/// `challengers-report-disputed`: the report dropped, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReportDisputedDto {
    number: u32,
    by: ConfirmerDto,
    reason: String,
    at: Stamp,
}

// Each `type` is `Event::kind()` of the variant (checked by the tests).
event_dto! {
    EventDto {
        Created(CreatedDto) = "challengers-created",
        QualifierPlayed(QualifierPlayedDto) = "challengers-qualifier-played",
        GamePlayed(GamePlayedDto) = "challengers-game-played",
        ResultReported(ResultReportedDto) = "challengers-result-reported",
        ResultConfirmed(ResultConfirmedDto) = "challengers-result-confirmed",
        ReportDisputed(ReportDisputedDto) = "challengers-report-disputed",
        AccountLinked(PlayerAccountDto) = "challengers-account-linked",
        AccountUnlinked(PlayerAccountDto) = "challengers-account-unlinked",
        TimeZoneSet(ZoneDto) = "challengers-time-zone-set",
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
            } => EventDto::Created(CreatedDto {
                name: name.clone(),
                rules: rules.into(),
                players: players.clone(),
            }),
            Event::QualifierPlayed {
                finishing,
                colours,
                seconds,
                chosen,
                at,
            } => EventDto::QualifierPlayed(QualifierPlayedDto {
                finishing: pids(finishing),
                colours: colours.clone().map(Arr),
                seconds: *seconds,
                chosen: chosen.into(),
                at: Stamp(*at),
            }),
            Event::GamePlayed {
                number,
                players,
                score,
                home,
                at,
            } => EventDto::GamePlayed(GamePlayedDto {
                number: *number,
                players: pids(players),
                score: (*score).into(),
                home: homes_dto(home),
                at: Stamp(*at),
            }),
            Event::ResultReported {
                number,
                score,
                by,
                at,
            } => EventDto::ResultReported(ResultReportedDto {
                number: *number,
                score: (*score).into(),
                by: Pid(*by),
                at: Stamp(*at),
            }),
            Event::ResultConfirmed { number, by, at } => {
                EventDto::ResultConfirmed(ResultConfirmedDto {
                    number: *number,
                    by: by.into(),
                    at: Stamp(*at),
                })
            }
            Event::ReportDisputed {
                number,
                by,
                reason,
                at,
            } => EventDto::ReportDisputed(ReportDisputedDto {
                number: *number,
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
            },
            EventDto::QualifierPlayed(d) => Event::QualifierPlayed {
                finishing: players(d.finishing),
                colours: d.colours.map(|c| c.0),
                seconds: d.seconds,
                chosen: d.chosen.into(),
                at: d.at.0,
            },
            EventDto::GamePlayed(d) => Event::GamePlayed {
                number: d.number,
                players: players(d.players),
                score: d.score.into(),
                home: homes(d.home),
                at: d.at.0,
            },
            EventDto::ResultReported(d) => Event::ResultReported {
                number: d.number,
                score: d.score.into(),
                by: d.by.0,
                at: d.at.0,
            },
            EventDto::ResultConfirmed(d) => Event::ResultConfirmed {
                number: d.number,
                by: d.by.into(),
                at: d.at.0,
            },
            EventDto::ReportDisputed(d) => Event::ReportDisputed {
                number: d.number,
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
