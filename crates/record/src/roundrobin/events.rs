//! Format v1 of the round-robin league's events.

use arbiter_engine::model::PlayerId;
use arbiter_engine::roundrobin::{
    Event, GameId, HeadToHead, Points, RoundRobinRules, Score, Seat, Tiebreak, Withdrawal,
};
use serde::{Deserialize, Serialize};

use crate::RecordError;
use crate::envelope::event_dto;
use crate::v1::{Hex32, Pid, PlayerAccountDto, RevertedDto, Stamp, ZoneDto};

/// A game number, from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "u32", into = "u32")]
pub(crate) struct GameNo(GameId);

impl TryFrom<u32> for GameNo {
    type Error = String;
    fn try_from(n: u32) -> Result<Self, String> {
        n.checked_sub(1)
            .map(|i| GameNo(GameId(i)))
            .ok_or_else(|| "game numbers start at 1".to_string())
    }
}

impl From<GameNo> for u32 {
    fn from(g: GameNo) -> u32 {
        g.0.0 + 1
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum SeatDto {
    Home,
    Away,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum ForfeitDto {
    Home,
    Away,
    Both,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub(crate) enum ScoreDto {
    Goals([u32; 2]),
    Won(SeatDto),
    Drawn,
    Forfeit(ForfeitDto),
}

fn seat(s: SeatDto) -> Seat {
    match s {
        SeatDto::Home => Seat::Home,
        SeatDto::Away => Seat::Away,
    }
}

fn seat_dto(s: Seat) -> SeatDto {
    match s {
        Seat::Home => SeatDto::Home,
        Seat::Away => SeatDto::Away,
    }
}

impl From<Score> for ScoreDto {
    fn from(s: Score) -> Self {
        match s {
            Score::Goals { home, away } => ScoreDto::Goals([home, away]),
            Score::Won(x) => ScoreDto::Won(seat_dto(x)),
            Score::Drawn => ScoreDto::Drawn,
            Score::Forfeit { winner: Some(x) } => ScoreDto::Forfeit(match x {
                Seat::Home => ForfeitDto::Home,
                Seat::Away => ForfeitDto::Away,
            }),
            Score::Forfeit { winner: None } => ScoreDto::Forfeit(ForfeitDto::Both),
        }
    }
}

impl From<ScoreDto> for Score {
    fn from(s: ScoreDto) -> Self {
        match s {
            ScoreDto::Goals([home, away]) => Score::Goals { home, away },
            ScoreDto::Won(x) => Score::Won(seat(x)),
            ScoreDto::Drawn => Score::Drawn,
            ScoreDto::Forfeit(f) => Score::Forfeit {
                winner: match f {
                    ForfeitDto::Home => Some(Seat::Home),
                    ForfeitDto::Away => Some(Seat::Away),
                    ForfeitDto::Both => None,
                },
            },
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PointsDto {
    win: u32,
    draw: u32,
    loss: u32,
    forfeit_win: u32,
    forfeit_loss: u32,
    scale: u32,
}

/// The rules as stored in the created event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RulesDto {
    regulation: String,
    cycles: u32,
    points: PointsDto,
    scores: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    forfeit_score: Option<[u32; 2]>,
    tiebreaks: Vec<String>,
    head_to_head: String,
    withdrawal: String,
    /// The zones of the clinch analysis (ARB-R69), added after the first
    /// events were stored: left out when 0, and 0 when left out, so that a
    /// stored event without them reads and writes back byte for byte.
    #[serde(default, skip_serializing_if = "is_zero")]
    top: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    bottom: u32,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference.
fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl From<&RoundRobinRules> for RulesDto {
    fn from(r: &RoundRobinRules) -> Self {
        let p = r.points;
        RulesDto {
            regulation: r.regulation.clone(),
            cycles: r.cycles,
            points: PointsDto {
                win: p.win,
                draw: p.draw,
                loss: p.loss,
                forfeit_win: p.forfeit_win,
                forfeit_loss: p.forfeit_loss,
                scale: p.scale,
            },
            scores: r.scores,
            forfeit_score: r.forfeit_score.map(|(w, l)| [w, l]),
            tiebreaks: r.tiebreaks.iter().map(|t| t.id().to_string()).collect(),
            head_to_head: r.head_to_head.id().into(),
            withdrawal: r.withdrawal.id().into(),
            top: r.top,
            bottom: r.bottom,
        }
    }
}

impl TryFrom<RulesDto> for RoundRobinRules {
    type Error = String;
    fn try_from(d: RulesDto) -> Result<Self, String> {
        let tiebreaks = d
            .tiebreaks
            .iter()
            .map(|t| Tiebreak::parse(t).ok_or_else(|| format!("unknown tiebreak `{t}`")))
            .collect::<Result<_, _>>()?;
        Ok(RoundRobinRules {
            regulation: d.regulation,
            cycles: d.cycles,
            points: Points {
                win: d.points.win,
                draw: d.points.draw,
                loss: d.points.loss,
                forfeit_win: d.points.forfeit_win,
                forfeit_loss: d.points.forfeit_loss,
                scale: d.points.scale,
            },
            scores: d.scores,
            forfeit_score: d.forfeit_score.map(|[w, l]| (w, l)),
            tiebreaks,
            head_to_head: HeadToHead::parse(&d.head_to_head)
                .ok_or_else(|| format!("unknown head_to_head `{}`", d.head_to_head))?,
            withdrawal: Withdrawal::parse(&d.withdrawal)
                .ok_or_else(|| format!("unknown withdrawal `{}`", d.withdrawal))?,
            top: d.top,
            bottom: d.bottom,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CreatedDto {
    name: String,
    rules: RulesDto,
    players: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NameDto {
    name: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StartedDto {
    rounds: Vec<Vec<[Pid; 2]>>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    given: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    lot_commitment: Option<Hex32>,
    at: Stamp,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DeadlineDto {
    round: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    deadline: Option<Stamp>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResultDto {
    game: GameNo,
    score: ScoreDto,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    minutes: Option<u32>,
    at: Stamp,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CorrectedDto {
    game: GameNo,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    score: Option<ScoreDto>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    minutes: Option<u32>,
    reason: String,
    at: Stamp,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WithdrawnDto {
    player: Pid,
    played: u32,
    scheduled: u32,
    annulled: bool,
    at: Stamp,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LotsDto {
    order: Vec<Pid>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seed: Option<Hex32>,
    how: String,
    at: Stamp,
}

// Each `type` is `Event::kind()` of the variant (checked by the tests).
event_dto! {
    EventDto {
        Created(CreatedDto) = "round-robin-created",
        PlayerAdded(NameDto) = "round-robin-player-added",
        Started(StartedDto) = "round-robin-started",
        DeadlineSet(DeadlineDto) = "round-robin-deadline-set",
        ResultRecorded(ResultDto) = "round-robin-result",
        ResultCorrected(CorrectedDto) = "round-robin-result-corrected",
        Withdrawn(WithdrawnDto) = "round-robin-withdrawn",
        LotsDrawn(LotsDto) = "round-robin-lots",
        AccountLinked(PlayerAccountDto) = "round-robin-account-linked",
        AccountUnlinked(PlayerAccountDto) = "round-robin-account-unlinked",
        TimeZoneSet(ZoneDto) = "round-robin-time-zone-set",
        Reverted(RevertedDto) = "reverted",
    }
}

fn pids(ps: &[PlayerId]) -> Vec<Pid> {
    ps.iter().copied().map(Pid).collect()
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
            Event::PlayerAdded { name } => EventDto::PlayerAdded(NameDto { name: name.clone() }),
            Event::Started {
                rounds,
                given,
                lot_commitment,
                at,
            } => EventDto::Started(StartedDto {
                rounds: rounds
                    .iter()
                    .map(|r| r.iter().map(|&(h, a)| [Pid(h), Pid(a)]).collect())
                    .collect(),
                given: *given,
                lot_commitment: lot_commitment.map(Hex32),
                at: Stamp(*at),
            }),
            Event::DeadlineSet { round, deadline } => EventDto::DeadlineSet(DeadlineDto {
                round: *round,
                deadline: deadline.map(Stamp),
            }),
            Event::ResultRecorded {
                game,
                score,
                minutes,
                at,
            } => EventDto::ResultRecorded(ResultDto {
                game: GameNo(*game),
                score: (*score).into(),
                minutes: *minutes,
                at: Stamp(*at),
            }),
            Event::ResultCorrected {
                game,
                score,
                minutes,
                reason,
                at,
            } => EventDto::ResultCorrected(CorrectedDto {
                game: GameNo(*game),
                score: score.map(Into::into),
                minutes: *minutes,
                reason: reason.clone(),
                at: Stamp(*at),
            }),
            Event::Withdrawn {
                player,
                played,
                scheduled,
                annulled,
                at,
            } => EventDto::Withdrawn(WithdrawnDto {
                player: Pid(*player),
                played: *played,
                scheduled: *scheduled,
                annulled: *annulled,
                at: Stamp(*at),
            }),
            Event::LotsDrawn {
                order,
                seed,
                how,
                at,
            } => EventDto::LotsDrawn(LotsDto {
                order: pids(order),
                seed: seed.map(Hex32),
                how: how.clone(),
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

impl TryFrom<EventDto> for Event {
    type Error = String;
    fn try_from(d: EventDto) -> Result<Self, String> {
        Ok(match d {
            EventDto::Created(c) => Event::Created {
                name: c.name,
                rules: c.rules.try_into()?,
                players: c.players,
            },
            EventDto::PlayerAdded(n) => Event::PlayerAdded { name: n.name },
            EventDto::Started(s) => Event::Started {
                rounds: s
                    .rounds
                    .into_iter()
                    .map(|r| r.into_iter().map(|[h, a]| (h.0, a.0)).collect())
                    .collect(),
                given: s.given,
                lot_commitment: s.lot_commitment.map(|h| h.0),
                at: s.at.0,
            },
            EventDto::DeadlineSet(d) => Event::DeadlineSet {
                round: d.round,
                deadline: d.deadline.map(|s| s.0),
            },
            EventDto::ResultRecorded(r) => Event::ResultRecorded {
                game: r.game.0,
                score: r.score.into(),
                minutes: r.minutes,
                at: r.at.0,
            },
            EventDto::ResultCorrected(r) => Event::ResultCorrected {
                game: r.game.0,
                score: r.score.map(Into::into),
                minutes: r.minutes,
                reason: r.reason,
                at: r.at.0,
            },
            EventDto::Withdrawn(w) => Event::Withdrawn {
                player: w.player.0,
                played: w.played,
                scheduled: w.scheduled,
                annulled: w.annulled,
                at: w.at.0,
            },
            EventDto::LotsDrawn(l) => Event::LotsDrawn {
                order: l.order.into_iter().map(|p| p.0).collect(),
                seed: l.seed.map(|h| h.0),
                how: l.how,
                at: l.at.0,
            },
            EventDto::AccountLinked(a) => Event::AccountLinked {
                player: a.player(),
                account: a.into_account(),
            },
            EventDto::AccountUnlinked(a) => Event::AccountUnlinked {
                player: a.player(),
                account: a.into_account(),
            },
            EventDto::TimeZoneSet(z) => Event::TimeZoneSet { zone: z.zone() },
            EventDto::Reverted(r) => Event::Reverted {
                seq: r.seq,
                summary: r.summary,
            },
        })
    }
}

const ROUND_ROBIN: &str = "a round-robin league event";

/// Encode a round-robin league event as format v1 JSON (one line).
pub fn encode_round_robin(e: &Event) -> String {
    crate::encode_dto(&EventDto::from(e), e.kind())
}

/// Decode a format v1 round-robin league event.
///
/// # Errors
///
/// As [`crate::decode`]; an event of another format is refused naming it.
pub fn decode_round_robin(payload: &str) -> Result<Event, RecordError> {
    let dto = crate::xmadn::decode_as::<EventDto>(payload, KINDS, ROUND_ROBIN)?;
    Event::try_from(dto).map_err(|message| RecordError::Malformed { message })
}
