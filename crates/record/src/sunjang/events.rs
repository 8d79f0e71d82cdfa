//! Format v1 of the Sunjang league's events.

use arbiter_engine::sunjang::carry::{
    CarriedGame, CarriedPlayer, CarriedResult, CarriedSeason, SeasonCarryOver,
};
use arbiter_engine::sunjang::layout::Moved;
use arbiter_engine::sunjang::season::{Event, OrganizerLayout, SeasonClose, SeasonPlan};
use serde::{Deserialize, Serialize};

use super::dto::{
    ClosedDivisionDto, GroupDto, NoteDto, OutcomeDto, PlacedDto, PlayerInfoDto, RestrictionsDto,
    RulesDto, SeasonNo, pids, players, restrictions, restrictions_dto,
};
use crate::envelope::event_dto;
use crate::v1::{ConfirmerDto, Pid, PlayerAccountDto, RevertedDto, Stamp, ZoneDto};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CreatedDto {
    name: String,
    rules: RulesDto,
    restrictions: RestrictionsDto,
}

/// `sunjang-player-registered` and `sunjang-player-updated`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayerInfoEventDto {
    player: Pid,
    info: PlayerInfoDto,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayerWithdrawnDto {
    player: Pid,
    reason: String,
}

/// `sunjang-player-returned` and `sunjang-gave-way`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayerDto {
    player: Pid,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RestrictionsChangedDto {
    restrictions: RestrictionsDto,
    reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SeasonPlannedDto {
    season: SeasonNo,
    /// Divisions (A first), each its groups, each its players in seed
    /// order.
    divisions: Vec<Vec<Vec<Pid>>>,
    placements: Vec<PlacedDto>,
    notes: Vec<NoteDto>,
    /// Present when the season is cancelled (footnote 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cancelled: Option<NoteDto>,
    /// Present when the organizer moved placements of the automatic plan
    /// (ARB-R55).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    layout: Option<LayoutDto>,
    at: Stamp,
}

/// The organizer's layout of a season: `{"reason": ..., "moves":
/// [{"player": 3, "planned": "B1", "placed": "B2"}]}` (ARB-R55).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LayoutDto {
    reason: String,
    moves: Vec<MoveDto>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MoveDto {
    player: Pid,
    /// Absent when the planner made no plan to move from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    planned: Option<GroupDto>,
    placed: GroupDto,
}

impl From<&OrganizerLayout> for LayoutDto {
    fn from(l: &OrganizerLayout) -> Self {
        LayoutDto {
            reason: l.reason.clone(),
            moves: l
                .moves
                .iter()
                .map(|m| MoveDto {
                    player: Pid(m.player),
                    planned: m.planned.map(GroupDto),
                    placed: GroupDto(m.placed),
                })
                .collect(),
        }
    }
}

impl From<LayoutDto> for OrganizerLayout {
    fn from(l: LayoutDto) -> Self {
        OrganizerLayout {
            reason: l.reason,
            moves: l
                .moves
                .into_iter()
                .map(|m| Moved {
                    player: m.player.0,
                    planned: m.planned.map(|g| g.0),
                    placed: m.placed.0,
                })
                .collect(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResultRecordedDto {
    season: SeasonNo,
    group: GroupDto,
    black: Pid,
    white: Pid,
    outcome: OutcomeDto,
    at: Stamp,
}

/// `sunjang-result-reported` (ARB-R45, ARB-R81): a player's report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResultReportedDto {
    season: SeasonNo,
    group: GroupDto,
    black: Pid,
    white: Pid,
    outcome: OutcomeDto,
    by: Pid,
    at: Stamp,
}

/// `sunjang-result-confirmed`: followed by `sunjang-result-recorded`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResultConfirmedDto {
    season: SeasonNo,
    group: GroupDto,
    black: Pid,
    white: Pid,
    by: ConfirmerDto,
    at: Stamp,
}

/// `sunjang-report-disputed`: the report dropped, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReportDisputedDto {
    season: SeasonNo,
    group: GroupDto,
    black: Pid,
    white: Pid,
    by: ConfirmerDto,
    reason: String,
    at: Stamp,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResultCorrectedDto {
    season: SeasonNo,
    group: GroupDto,
    black: Pid,
    white: Pid,
    outcome: OutcomeDto,
    reason: String,
    at: Stamp,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LiveMatchWonDto {
    winner: Pid,
    loser: Pid,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SeasonClosedDto {
    season: SeasonNo,
    /// Divisions, A first.
    divisions: Vec<ClosedDivisionDto>,
    at: Stamp,
}

/// `sunjang-carried-over` (ARB-R77): the last season as the league's
/// records give it. Gamepoints are in halves (a win 2, SJ-R4) and SODOS in
/// units of 1/(2 × a win's halves) gamepoint, as the engine counts them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CarriedOverDto {
    season: SeasonNo,
    /// Ids 1, 2, … in this order.
    players: Vec<CarriedPlayerDto>,
    games: Vec<CarriedGameDto>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    champion: Option<Pid>,
    source: String,
    by: String,
    at: Stamp,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CarriedPlayerDto {
    info: PlayerInfoDto,
    group: GroupDto,
    gamepoint_halves: u32,
    sodos_units: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    place: Option<u32>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    withdrawn: bool,
}

/// A result among two players of a group: `"won"` (the first won),
/// `"jigo"` or `"both-forfeit"`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CarriedGameDto {
    players: [Pid; 2],
    result: CarriedResultDto,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum CarriedResultDto {
    Won,
    Jigo,
    BothForfeit,
}

impl From<&SeasonCarryOver> for CarriedOverDto {
    fn from(c: &SeasonCarryOver) -> Self {
        let r = &c.records;
        CarriedOverDto {
            season: SeasonNo(r.season),
            players: r
                .players
                .iter()
                .map(|p| CarriedPlayerDto {
                    info: (&p.info).into(),
                    group: GroupDto(p.group),
                    gamepoint_halves: p.gamepoints,
                    sodos_units: p.sodos,
                    place: p.place,
                    withdrawn: p.withdrawn,
                })
                .collect(),
            games: r
                .games
                .iter()
                .map(|g| CarriedGameDto {
                    players: [Pid(g.players[0]), Pid(g.players[1])],
                    result: match g.result {
                        CarriedResult::FirstWon => CarriedResultDto::Won,
                        CarriedResult::Jigo => CarriedResultDto::Jigo,
                        CarriedResult::BothForfeit => CarriedResultDto::BothForfeit,
                    },
                })
                .collect(),
            champion: r.champion.map(Pid),
            source: c.source.clone(),
            by: c.by.clone(),
            at: Stamp(c.at),
        }
    }
}

impl From<CarriedOverDto> for SeasonCarryOver {
    fn from(d: CarriedOverDto) -> Self {
        SeasonCarryOver {
            records: CarriedSeason {
                season: d.season.0,
                players: d
                    .players
                    .into_iter()
                    .map(|p| CarriedPlayer {
                        info: p.info.into(),
                        group: p.group.0,
                        gamepoints: p.gamepoint_halves,
                        sodos: p.sodos_units,
                        place: p.place,
                        withdrawn: p.withdrawn,
                    })
                    .collect(),
                games: d
                    .games
                    .into_iter()
                    .map(|g| CarriedGame {
                        players: [g.players[0].0, g.players[1].0],
                        result: match g.result {
                            CarriedResultDto::Won => CarriedResult::FirstWon,
                            CarriedResultDto::Jigo => CarriedResult::Jigo,
                            CarriedResultDto::BothForfeit => CarriedResult::BothForfeit,
                        },
                    })
                    .collect(),
                champion: d.champion.map(|p| p.0),
            },
            source: d.source,
            by: d.by,
            at: d.at.0,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FinalQualifiedDto {
    season: SeasonNo,
    players: Vec<Pid>,
    advantaged: Vec<Pid>,
    void: bool,
    at: Stamp,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FinalGamePlayedDto {
    season: SeasonNo,
    black: Pid,
    white: Pid,
    outcome: OutcomeDto,
    at: Stamp,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FinalWithdrawnDto {
    season: SeasonNo,
    player: Pid,
    at: Stamp,
}

// Each `type` is `Event::kind()` of the variant (checked by the tests).
event_dto! {
    EventDto {
        Created(CreatedDto) = "sunjang-created",
        PlayerRegistered(PlayerInfoEventDto) = "sunjang-player-registered",
        PlayerUpdated(PlayerInfoEventDto) = "sunjang-player-updated",
        PlayerWithdrawn(PlayerWithdrawnDto) = "sunjang-player-withdrawn",
        PlayerReturned(PlayerDto) = "sunjang-player-returned",
        RestrictionsChanged(RestrictionsChangedDto) = "sunjang-restrictions-changed",
        SeasonPlanned(SeasonPlannedDto) = "sunjang-season-planned",
        ResultRecorded(ResultRecordedDto) = "sunjang-result-recorded",
        ResultCorrected(ResultCorrectedDto) = "sunjang-result-corrected",
        ResultReported(ResultReportedDto) = "sunjang-result-reported",
        ResultConfirmed(ResultConfirmedDto) = "sunjang-result-confirmed",
        ReportDisputed(ReportDisputedDto) = "sunjang-report-disputed",
        GaveWay(PlayerDto) = "sunjang-gave-way",
        LiveMatchWon(LiveMatchWonDto) = "sunjang-live-match-won",
        SeasonClosed(SeasonClosedDto) = "sunjang-season-closed",
        CarriedOver(CarriedOverDto) = "sunjang-carried-over",
        FinalQualified(FinalQualifiedDto) = "sunjang-final-qualified",
        FinalGamePlayed(FinalGamePlayedDto) = "sunjang-final-game-played",
        FinalWithdrawn(FinalWithdrawnDto) = "sunjang-final-withdrawn",
        AccountLinked(PlayerAccountDto) = "sunjang-account-linked",
        AccountUnlinked(PlayerAccountDto) = "sunjang-account-unlinked",
        TimeZoneSet(ZoneDto) = "sunjang-time-zone-set",
        Reverted(RevertedDto) = "reverted",
    }
}

fn plan_dto(p: &SeasonPlan) -> SeasonPlannedDto {
    SeasonPlannedDto {
        season: SeasonNo(p.season),
        divisions: p
            .divisions
            .iter()
            .map(|groups| groups.iter().map(|g| pids(g)).collect())
            .collect(),
        placements: p.placements.iter().map(Into::into).collect(),
        notes: p.notes.iter().map(Into::into).collect(),
        cancelled: p.cancelled.as_ref().map(Into::into),
        layout: p.layout.as_ref().map(Into::into),
        at: Stamp(p.at),
    }
}

fn plan(d: SeasonPlannedDto) -> SeasonPlan {
    SeasonPlan {
        season: d.season.0,
        divisions: d
            .divisions
            .into_iter()
            .map(|groups| groups.into_iter().map(players).collect())
            .collect(),
        placements: d.placements.into_iter().map(Into::into).collect(),
        notes: d.notes.into_iter().map(Into::into).collect(),
        cancelled: d.cancelled.map(Into::into),
        layout: d.layout.map(Into::into),
        at: d.at.0,
    }
}

impl From<&Event> for EventDto {
    fn from(e: &Event) -> Self {
        match e {
            Event::Created {
                name,
                rules,
                restrictions,
            } => EventDto::Created(CreatedDto {
                name: name.clone(),
                rules: rules.into(),
                restrictions: restrictions_dto(restrictions),
            }),
            Event::PlayerRegistered { player, info } => {
                EventDto::PlayerRegistered(PlayerInfoEventDto {
                    player: Pid(*player),
                    info: info.into(),
                })
            }
            Event::PlayerUpdated { player, info } => EventDto::PlayerUpdated(PlayerInfoEventDto {
                player: Pid(*player),
                info: info.into(),
            }),
            Event::PlayerWithdrawn { player, reason } => {
                EventDto::PlayerWithdrawn(PlayerWithdrawnDto {
                    player: Pid(*player),
                    reason: reason.clone(),
                })
            }
            Event::PlayerReturned { player } => EventDto::PlayerReturned(PlayerDto {
                player: Pid(*player),
            }),
            Event::RestrictionsChanged {
                restrictions,
                reason,
            } => EventDto::RestrictionsChanged(RestrictionsChangedDto {
                restrictions: restrictions_dto(restrictions),
                reason: reason.clone(),
            }),
            Event::SeasonPlanned(p) => EventDto::SeasonPlanned(plan_dto(p)),
            Event::ResultRecorded {
                season,
                group,
                black,
                white,
                outcome,
                at,
            } => EventDto::ResultRecorded(ResultRecordedDto {
                season: SeasonNo(*season),
                group: GroupDto(*group),
                black: Pid(*black),
                white: Pid(*white),
                outcome: (*outcome).into(),
                at: Stamp(*at),
            }),
            Event::ResultReported {
                season,
                group,
                black,
                white,
                outcome,
                by,
                at,
            } => EventDto::ResultReported(ResultReportedDto {
                season: SeasonNo(*season),
                group: GroupDto(*group),
                black: Pid(*black),
                white: Pid(*white),
                outcome: (*outcome).into(),
                by: Pid(*by),
                at: Stamp(*at),
            }),
            Event::ResultConfirmed {
                season,
                group,
                black,
                white,
                by,
                at,
            } => EventDto::ResultConfirmed(ResultConfirmedDto {
                season: SeasonNo(*season),
                group: GroupDto(*group),
                black: Pid(*black),
                white: Pid(*white),
                by: by.into(),
                at: Stamp(*at),
            }),
            Event::ReportDisputed {
                season,
                group,
                black,
                white,
                by,
                reason,
                at,
            } => EventDto::ReportDisputed(ReportDisputedDto {
                season: SeasonNo(*season),
                group: GroupDto(*group),
                black: Pid(*black),
                white: Pid(*white),
                by: by.into(),
                reason: reason.clone(),
                at: Stamp(*at),
            }),
            Event::ResultCorrected {
                season,
                group,
                black,
                white,
                outcome,
                reason,
                at,
            } => EventDto::ResultCorrected(ResultCorrectedDto {
                season: SeasonNo(*season),
                group: GroupDto(*group),
                black: Pid(*black),
                white: Pid(*white),
                outcome: (*outcome).into(),
                reason: reason.clone(),
                at: Stamp(*at),
            }),
            Event::GaveWay { player } => EventDto::GaveWay(PlayerDto {
                player: Pid(*player),
            }),
            Event::LiveMatchWon { winner, loser } => EventDto::LiveMatchWon(LiveMatchWonDto {
                winner: Pid(*winner),
                loser: Pid(*loser),
            }),
            Event::SeasonClosed(c) => EventDto::SeasonClosed(SeasonClosedDto {
                season: SeasonNo(c.season),
                divisions: c.divisions.iter().map(Into::into).collect(),
                at: Stamp(c.at),
            }),
            Event::SeasonCarriedOver(c) => EventDto::CarriedOver(c.as_ref().into()),
            Event::FinalQualified {
                season,
                players,
                advantaged,
                void,
                at,
            } => EventDto::FinalQualified(FinalQualifiedDto {
                season: SeasonNo(*season),
                players: pids(players),
                advantaged: pids(advantaged),
                void: *void,
                at: Stamp(*at),
            }),
            Event::FinalGamePlayed {
                season,
                black,
                white,
                outcome,
                at,
            } => EventDto::FinalGamePlayed(FinalGamePlayedDto {
                season: SeasonNo(*season),
                black: Pid(*black),
                white: Pid(*white),
                outcome: (*outcome).into(),
                at: Stamp(*at),
            }),
            Event::FinalWithdrawn { season, player, at } => {
                EventDto::FinalWithdrawn(FinalWithdrawnDto {
                    season: SeasonNo(*season),
                    player: Pid(*player),
                    at: Stamp(*at),
                })
            }
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
                restrictions: restrictions(d.restrictions),
            },
            EventDto::PlayerRegistered(d) => Event::PlayerRegistered {
                player: d.player.0,
                info: d.info.into(),
            },
            EventDto::PlayerUpdated(d) => Event::PlayerUpdated {
                player: d.player.0,
                info: d.info.into(),
            },
            EventDto::PlayerWithdrawn(d) => Event::PlayerWithdrawn {
                player: d.player.0,
                reason: d.reason,
            },
            EventDto::PlayerReturned(d) => Event::PlayerReturned { player: d.player.0 },
            EventDto::RestrictionsChanged(d) => Event::RestrictionsChanged {
                restrictions: restrictions(d.restrictions),
                reason: d.reason,
            },
            EventDto::SeasonPlanned(d) => Event::SeasonPlanned(Box::new(plan(d))),
            EventDto::ResultRecorded(d) => Event::ResultRecorded {
                season: d.season.0,
                group: d.group.0,
                black: d.black.0,
                white: d.white.0,
                outcome: d.outcome.into(),
                at: d.at.0,
            },
            EventDto::ResultReported(d) => Event::ResultReported {
                season: d.season.0,
                group: d.group.0,
                black: d.black.0,
                white: d.white.0,
                outcome: d.outcome.into(),
                by: d.by.0,
                at: d.at.0,
            },
            EventDto::ResultConfirmed(d) => Event::ResultConfirmed {
                season: d.season.0,
                group: d.group.0,
                black: d.black.0,
                white: d.white.0,
                by: d.by.into(),
                at: d.at.0,
            },
            EventDto::ReportDisputed(d) => Event::ReportDisputed {
                season: d.season.0,
                group: d.group.0,
                black: d.black.0,
                white: d.white.0,
                by: d.by.into(),
                reason: d.reason,
                at: d.at.0,
            },
            EventDto::ResultCorrected(d) => Event::ResultCorrected {
                season: d.season.0,
                group: d.group.0,
                black: d.black.0,
                white: d.white.0,
                outcome: d.outcome.into(),
                reason: d.reason,
                at: d.at.0,
            },
            EventDto::GaveWay(d) => Event::GaveWay { player: d.player.0 },
            EventDto::LiveMatchWon(d) => Event::LiveMatchWon {
                winner: d.winner.0,
                loser: d.loser.0,
            },
            EventDto::SeasonClosed(d) => Event::SeasonClosed(Box::new(SeasonClose {
                season: d.season.0,
                divisions: d.divisions.into_iter().map(Into::into).collect(),
                at: d.at.0,
            })),
            EventDto::CarriedOver(d) => Event::SeasonCarriedOver(Box::new(d.into())),
            EventDto::FinalQualified(d) => Event::FinalQualified {
                season: d.season.0,
                players: players(d.players),
                advantaged: players(d.advantaged),
                void: d.void,
                at: d.at.0,
            },
            EventDto::FinalGamePlayed(d) => Event::FinalGamePlayed {
                season: d.season.0,
                black: d.black.0,
                white: d.white.0,
                outcome: d.outcome.into(),
                at: d.at.0,
            },
            EventDto::FinalWithdrawn(d) => Event::FinalWithdrawn {
                season: d.season.0,
                player: d.player.0,
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
