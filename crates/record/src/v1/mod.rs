//! Format v1: serde mirrors of the engine's TWS ladder events.
//!
//! The engine has no serde; these private types are the permanent shape of
//! the record. Conversions from the engine clone; conversions back are
//! infallible because every check (ids from 1, 32-byte hex, RFC 3339 times,
//! known tags) happens while the JSON is read, where the error can say where.

mod scalars;

use arbiter_engine::model::{Adjudication, GameResult, Participant};
use arbiter_engine::tws::stats::Record;
use arbiter_engine::tws::{
    Bid, CarriedLadder, CarriedMember, CarryOver, Confirmer, Event, LadderRules, PairingMethod,
    PairingReason, ResultInput, Retirement, RoundAnnounced, RoundClosed, ScheduledGame, SideReason,
    Skip,
};
use serde::{Deserialize, Serialize};

pub(crate) use scalars::SideDto;
// The checked scalars are shared with the XMadn formats (`crate::xmadn`).
use scalars::{CountsDto, EndTagDto, GameStatusDto, MoveDto, OutcomeDto};
pub(crate) use scalars::{Gid, Hex32, Pid, Stamp, mirror_unit_enum};

use crate::envelope::event_dto;

// ---------------------------------------------------------------------------
// Rules and bids (inside `created` and `rules-changed`). Every field is
// required: an event states the rules in full, so a later change of the
// defaults never changes the meaning of the record.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BidDto {
    influence: u32,
    side: SideDto,
}

impl From<Bid> for BidDto {
    fn from(b: Bid) -> Self {
        BidDto {
            influence: b.influence,
            side: b.side.into(),
        }
    }
}

impl From<BidDto> for Bid {
    fn from(b: BidDto) -> Self {
        Bid {
            influence: b.influence,
            side: b.side.into(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RulesDto {
    deadline_months: u32,
    bid: BidDto,
    tie_advances: SideDto,
    consecutive_skips_for_loss: u32,
    missed_rounds_for_inactive: u32,
    sides_count_quick_rounds: bool,
    platform: String,
    game_name_prefix: String,
    quick_round_prefix: String,
}

impl From<&LadderRules> for RulesDto {
    fn from(r: &LadderRules) -> Self {
        RulesDto {
            deadline_months: r.deadline_months,
            bid: r.bid.into(),
            tie_advances: r.tie_advances.into(),
            consecutive_skips_for_loss: r.consecutive_skips_for_loss,
            missed_rounds_for_inactive: r.missed_rounds_for_inactive,
            sides_count_quick_rounds: r.sides_count_quick_rounds,
            platform: r.platform.clone(),
            game_name_prefix: r.game_name_prefix.clone(),
            quick_round_prefix: r.quick_round_prefix.clone(),
        }
    }
}

impl From<RulesDto> for LadderRules {
    fn from(r: RulesDto) -> Self {
        LadderRules {
            deadline_months: r.deadline_months,
            bid: r.bid.into(),
            tie_advances: r.tie_advances.into(),
            consecutive_skips_for_loss: r.consecutive_skips_for_loss,
            missed_rounds_for_inactive: r.missed_rounds_for_inactive,
            sides_count_quick_rounds: r.sides_count_quick_rounds,
            platform: r.platform,
            game_name_prefix: r.game_name_prefix,
            quick_round_prefix: r.quick_round_prefix,
        }
    }
}

// ---------------------------------------------------------------------------
// Games.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ParticipantDto {
    player: Pid,
    side: SideDto,
    counts: CountsDto,
}

impl From<Participant> for ParticipantDto {
    fn from(p: Participant) -> Self {
        ParticipantDto {
            player: Pid(p.player),
            side: p.side.into(),
            counts: p.counts.into(),
        }
    }
}

impl From<ParticipantDto> for Participant {
    fn from(p: ParticipantDto) -> Self {
        Participant {
            player: p.player.0,
            side: p.side.into(),
            counts: p.counts.into(),
        }
    }
}

/// Why each player has his side: `{"kind": "champion-switch", ...}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
enum SideReasonDto {
    ChampionSwitch {
        champion: Pid,
        last: SideDto,
        /// The last game counted (issue 15); absent in older logs.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game: Option<Gid>,
    },
    // `{}` (not a unit variant) so that unknown keys are refused.
    BothSwitch {
        /// The last games counted of the players now USSR and US (issue
        /// 15); absent in older logs.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        games: Option<(Gid, Gid)>,
    },
    NewcomerFlexible {
        newcomer: Pid,
        other: Pid,
        last: SideDto,
        /// The last game counted (issue 15); absent in older logs.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game: Option<Gid>,
    },
    MostUnbalanced {
        player: Pid,
        ussr: u32,
        us: u32,
        other_ussr: u32,
        other_us: u32,
    },
    HigherRungLeastPlayed {
        player: Pid,
        ussr: u32,
        us: u32,
    },
    HigherRungSwitch {
        player: Pid,
        last: SideDto,
        /// The last game counted (issue 15); absent in older logs.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game: Option<Gid>,
    },
    Drawn {
        higher: Pid,
        side: SideDto,
        draw_index: u64,
    },
    EliminatorSwitch {
        player: Pid,
        last: SideDto,
        /// The last game counted (issue 15); absent in older logs.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game: Option<Gid>,
    },
    EliminatorDrawn {
        player: Pid,
        side: SideDto,
        draw_index: u64,
    },
    Chosen {},
}

impl From<&SideReason> for SideReasonDto {
    fn from(r: &SideReason) -> Self {
        match *r {
            SideReason::ChampionSwitch {
                champion,
                last,
                game,
            } => SideReasonDto::ChampionSwitch {
                champion: Pid(champion),
                last: last.into(),
                game: game.map(Gid),
            },
            SideReason::BothSwitch { games } => SideReasonDto::BothSwitch {
                games: games.map(|(a, b)| (Gid(a), Gid(b))),
            },
            SideReason::NewcomerFlexible {
                newcomer,
                other,
                last,
                game,
            } => SideReasonDto::NewcomerFlexible {
                newcomer: Pid(newcomer),
                other: Pid(other),
                last: last.into(),
                game: game.map(Gid),
            },
            SideReason::MostUnbalanced {
                player,
                ussr,
                us,
                other_ussr,
                other_us,
            } => SideReasonDto::MostUnbalanced {
                player: Pid(player),
                ussr,
                us,
                other_ussr,
                other_us,
            },
            SideReason::HigherRungLeastPlayed { player, ussr, us } => {
                SideReasonDto::HigherRungLeastPlayed {
                    player: Pid(player),
                    ussr,
                    us,
                }
            }
            SideReason::HigherRungSwitch { player, last, game } => {
                SideReasonDto::HigherRungSwitch {
                    player: Pid(player),
                    last: last.into(),
                    game: game.map(Gid),
                }
            }
            SideReason::Drawn {
                higher,
                side,
                draw_index,
            } => SideReasonDto::Drawn {
                higher: Pid(higher),
                side: side.into(),
                draw_index,
            },
            SideReason::EliminatorSwitch { player, last, game } => {
                SideReasonDto::EliminatorSwitch {
                    player: Pid(player),
                    last: last.into(),
                    game: game.map(Gid),
                }
            }
            SideReason::EliminatorDrawn {
                player,
                side,
                draw_index,
            } => SideReasonDto::EliminatorDrawn {
                player: Pid(player),
                side: side.into(),
                draw_index,
            },
            SideReason::Chosen => SideReasonDto::Chosen {},
        }
    }
}

impl From<SideReasonDto> for SideReason {
    fn from(r: SideReasonDto) -> Self {
        match r {
            SideReasonDto::ChampionSwitch {
                champion,
                last,
                game,
            } => SideReason::ChampionSwitch {
                champion: champion.0,
                last: last.into(),
                game: game.map(|g| g.0),
            },
            SideReasonDto::BothSwitch { games } => SideReason::BothSwitch {
                games: games.map(|(a, b)| (a.0, b.0)),
            },
            SideReasonDto::NewcomerFlexible {
                newcomer,
                other,
                last,
                game,
            } => SideReason::NewcomerFlexible {
                newcomer: newcomer.0,
                other: other.0,
                last: last.into(),
                game: game.map(|g| g.0),
            },
            SideReasonDto::MostUnbalanced {
                player,
                ussr,
                us,
                other_ussr,
                other_us,
            } => SideReason::MostUnbalanced {
                player: player.0,
                ussr,
                us,
                other_ussr,
                other_us,
            },
            SideReasonDto::HigherRungLeastPlayed { player, ussr, us } => {
                SideReason::HigherRungLeastPlayed {
                    player: player.0,
                    ussr,
                    us,
                }
            }
            SideReasonDto::HigherRungSwitch { player, last, game } => {
                SideReason::HigherRungSwitch {
                    player: player.0,
                    last: last.into(),
                    game: game.map(|g| g.0),
                }
            }
            SideReasonDto::Drawn {
                higher,
                side,
                draw_index,
            } => SideReason::Drawn {
                higher: higher.0,
                side: side.into(),
                draw_index,
            },
            SideReasonDto::EliminatorSwitch { player, last, game } => {
                SideReason::EliminatorSwitch {
                    player: player.0,
                    last: last.into(),
                    game: game.map(|g| g.0),
                }
            }
            SideReasonDto::EliminatorDrawn {
                player,
                side,
                draw_index,
            } => SideReason::EliminatorDrawn {
                player: player.0,
                side: side.into(),
                draw_index,
            },
            SideReasonDto::Chosen {} => SideReason::Chosen,
        }
    }
}

/// Why two players were paired: `{"kind": "adjacent", "rungs": [1, 2]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
enum PairingReasonDto {
    Adjacent { rungs: (u32, u32) },
    Eliminator { rung: u32 },
    Override { reason: String },
    Late { reason: String },
    QuickRound {},
}

impl From<&PairingReason> for PairingReasonDto {
    fn from(r: &PairingReason) -> Self {
        match r {
            PairingReason::Adjacent { rungs } => PairingReasonDto::Adjacent { rungs: *rungs },
            PairingReason::Eliminator { rung } => PairingReasonDto::Eliminator { rung: *rung },
            PairingReason::Override { reason } => PairingReasonDto::Override {
                reason: reason.clone(),
            },
            PairingReason::Late { reason } => PairingReasonDto::Late {
                reason: reason.clone(),
            },
            PairingReason::QuickRound => PairingReasonDto::QuickRound {},
        }
    }
}

impl From<PairingReasonDto> for PairingReason {
    fn from(r: PairingReasonDto) -> Self {
        match r {
            PairingReasonDto::Adjacent { rungs } => PairingReason::Adjacent { rungs },
            PairingReasonDto::Eliminator { rung } => PairingReason::Eliminator { rung },
            PairingReasonDto::Override { reason } => PairingReason::Override { reason },
            PairingReasonDto::Late { reason } => PairingReason::Late { reason },
            PairingReasonDto::QuickRound {} => PairingReason::QuickRound,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScheduledGameDto {
    id: Gid,
    ussr: ParticipantDto,
    us: ParticipantDto,
    /// Index into the ladder's moderators; absent when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    moderator: Option<u32>,
    sides: SideReasonDto,
    pairing: PairingReasonDto,
}

impl From<&ScheduledGame> for ScheduledGameDto {
    fn from(g: &ScheduledGame) -> Self {
        ScheduledGameDto {
            id: Gid(g.id),
            ussr: g.ussr.into(),
            us: g.us.into(),
            moderator: g.moderator,
            sides: (&g.sides).into(),
            pairing: (&g.pairing).into(),
        }
    }
}

impl From<ScheduledGameDto> for ScheduledGame {
    fn from(g: ScheduledGameDto) -> Self {
        ScheduledGame {
            id: g.id.0,
            ussr: g.ussr.into(),
            us: g.us.into(),
            moderator: g.moderator,
            sides: g.sides.into(),
            pairing: g.pairing.into(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct AdjudicationDto {
    final_state: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ussr_statement: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    us_statement: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    third_party: Option<String>,
    decision: String,
}

impl From<&Adjudication> for AdjudicationDto {
    fn from(a: &Adjudication) -> Self {
        AdjudicationDto {
            final_state: a.final_state.clone(),
            ussr_statement: a.ussr_statement.clone(),
            us_statement: a.us_statement.clone(),
            third_party: a.third_party.clone(),
            decision: a.decision.clone(),
        }
    }
}

impl From<AdjudicationDto> for Adjudication {
    fn from(a: AdjudicationDto) -> Self {
        Adjudication {
            final_state: a.final_state,
            ussr_statement: a.ussr_statement,
            us_statement: a.us_statement,
            third_party: a.third_party,
            decision: a.decision,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct GameResultDto {
    outcome: OutcomeDto,
    ended_by: EndTagDto,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    vp: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    turn: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    status: GameStatusDto,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    adjudication: Option<AdjudicationDto>,
    at: Stamp,
}

impl From<&GameResult> for GameResultDto {
    fn from(r: &GameResult) -> Self {
        GameResultDto {
            outcome: r.outcome.into(),
            ended_by: EndTagDto(r.ended_by.clone()),
            vp: r.vp,
            turn: r.turn,
            note: r.note.clone(),
            status: r.status.into(),
            adjudication: r.adjudication.as_ref().map(Into::into),
            at: Stamp(r.at),
        }
    }
}

impl From<GameResultDto> for GameResult {
    fn from(r: GameResultDto) -> Self {
        GameResult {
            outcome: r.outcome.into(),
            ended_by: r.ended_by.0,
            vp: r.vp,
            turn: r.turn,
            note: r.note,
            status: r.status.into(),
            adjudication: r.adjudication.map(Into::into),
            at: r.at.0,
        }
    }
}

/// A result as a player reported it (`result-reported`): no status, no
/// adjudication, no time of its own (ARB-R45).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReportedResultDto {
    outcome: OutcomeDto,
    ended_by: EndTagDto,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    vp: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    turn: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

impl From<&ResultInput> for ReportedResultDto {
    fn from(r: &ResultInput) -> Self {
        ReportedResultDto {
            outcome: r.outcome.into(),
            ended_by: EndTagDto(r.ended_by.clone()),
            vp: r.vp,
            turn: r.turn,
            note: r.note.clone(),
        }
    }
}

impl From<ReportedResultDto> for ResultInput {
    fn from(r: ReportedResultDto) -> Self {
        ResultInput {
            outcome: r.outcome.into(),
            ended_by: r.ended_by.0,
            vp: r.vp,
            turn: r.turn,
            note: r.note,
        }
    }
}

/// Who confirmed or rejected a report: `{"player": 3}` or
/// `{"moderator": "Name"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum ConfirmerDto {
    Player(Pid),
    Moderator(String),
}

impl From<&Confirmer> for ConfirmerDto {
    fn from(c: &Confirmer) -> Self {
        match c {
            Confirmer::Player(p) => ConfirmerDto::Player(Pid(*p)),
            Confirmer::Moderator(name) => ConfirmerDto::Moderator(name.clone()),
        }
    }
}

impl From<ConfirmerDto> for Confirmer {
    fn from(c: ConfirmerDto) -> Self {
        match c {
            ConfirmerDto::Player(p) => Confirmer::Player(p.0),
            ConfirmerDto::Moderator(name) => Confirmer::Moderator(name),
        }
    }
}

// ---------------------------------------------------------------------------
// Rounds.

/// How the round was paired: `{"kind": "adjacent"}` or
/// `{"kind": "override", "reason": "..."}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
enum PairingMethodDto {
    Adjacent {},
    Override { reason: String },
}

impl From<&PairingMethod> for PairingMethodDto {
    fn from(m: &PairingMethod) -> Self {
        match m {
            PairingMethod::Adjacent => PairingMethodDto::Adjacent {},
            PairingMethod::Override { reason } => PairingMethodDto::Override {
                reason: reason.clone(),
            },
        }
    }
}

impl From<PairingMethodDto> for PairingMethod {
    fn from(m: PairingMethodDto) -> Self {
        match m {
            PairingMethodDto::Adjacent {} => PairingMethod::Adjacent,
            PairingMethodDto::Override { reason } => PairingMethod::Override { reason },
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SkipDto {
    player: Pid,
    rung: u32,
    consecutive: u32,
    as_loss: bool,
}

impl From<&Skip> for SkipDto {
    fn from(s: &Skip) -> Self {
        SkipDto {
            player: Pid(s.player),
            rung: s.rung,
            consecutive: s.consecutive,
            as_loss: s.as_loss,
        }
    }
}

impl From<SkipDto> for Skip {
    fn from(s: SkipDto) -> Self {
        Skip {
            player: s.player.0,
            rung: s.rung,
            consecutive: s.consecutive,
            as_loss: s.as_loss,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RoundAnnouncedDto {
    round: u32,
    at: Stamp,
    deadline: Stamp,
    bid: BidDto,
    pairing: PairingMethodDto,
    games: Vec<ScheduledGameDto>,
    skips: Vec<SkipDto>,
    /// `[[player, rung], ...]`.
    byes: Vec<(Pid, u32)>,
    seed: Hex32,
    next_seed_hash: Hex32,
}

impl From<&RoundAnnounced> for RoundAnnouncedDto {
    fn from(a: &RoundAnnounced) -> Self {
        RoundAnnouncedDto {
            round: a.round,
            at: Stamp(a.at),
            deadline: Stamp(a.deadline),
            bid: a.bid.into(),
            pairing: (&a.pairing).into(),
            games: a.games.iter().map(Into::into).collect(),
            skips: a.skips.iter().map(Into::into).collect(),
            byes: a.byes.iter().map(|&(p, rung)| (Pid(p), rung)).collect(),
            seed: Hex32(a.seed),
            next_seed_hash: Hex32(a.next_seed_hash),
        }
    }
}

impl From<RoundAnnouncedDto> for RoundAnnounced {
    fn from(a: RoundAnnouncedDto) -> Self {
        RoundAnnounced {
            round: a.round,
            at: a.at.0,
            deadline: a.deadline.0,
            bid: a.bid.into(),
            pairing: a.pairing.into(),
            games: a.games.into_iter().map(Into::into).collect(),
            skips: a.skips.into_iter().map(Into::into).collect(),
            byes: a.byes.into_iter().map(|(p, rung)| (p.0, rung)).collect(),
            seed: a.seed.0,
            next_seed_hash: a.next_seed_hash.0,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RetirementDto {
    player: Pid,
    rung: u32,
    missed: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RoundClosedDto {
    round: u32,
    at: Stamp,
    order: Vec<Pid>,
    /// Compact arrays, see [`MoveDto`].
    moves: Vec<MoveDto>,
    inactive: Vec<RetirementDto>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    champion: Option<Pid>,
    streak: u32,
    /// Games carried over to the next round by an early close (ARB-R21).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    carried: Vec<Gid>,
    /// The moderator's reason for an early close.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    early: Option<String>,
}

impl From<&RoundClosed> for RoundClosedDto {
    fn from(c: &RoundClosed) -> Self {
        RoundClosedDto {
            round: c.round,
            at: Stamp(c.at),
            order: c.order.iter().copied().map(Pid).collect(),
            moves: c.moves.iter().copied().map(MoveDto).collect(),
            inactive: c
                .inactive
                .iter()
                .map(|r| RetirementDto {
                    player: Pid(r.player),
                    rung: r.rung,
                    missed: r.missed,
                })
                .collect(),
            champion: c.champion.map(Pid),
            streak: c.streak,
            carried: c.carried.iter().copied().map(Gid).collect(),
            early: c.early.clone(),
        }
    }
}

impl From<RoundClosedDto> for RoundClosed {
    fn from(c: RoundClosedDto) -> Self {
        RoundClosed {
            round: c.round,
            at: c.at.0,
            order: c.order.into_iter().map(|p| p.0).collect(),
            moves: c.moves.into_iter().map(|m| m.0).collect(),
            inactive: c
                .inactive
                .into_iter()
                .map(|r| Retirement {
                    player: r.player.0,
                    rung: r.rung,
                    missed: r.missed,
                })
                .collect(),
            champion: c.champion.map(|p| p.0),
            streak: c.streak,
            carried: c.carried.into_iter().map(|g| g.0).collect(),
            early: c.early,
        }
    }
}

// ---------------------------------------------------------------------------
// The bodies of events (the fields beside `v` and `type`).

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CreatedDto {
    name: String,
    rules: RulesDto,
    seed_hash: Hex32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RulesChangedDto {
    from_round: u32,
    rules: RulesDto,
    reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NameDto {
    name: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayerNamedDto {
    player: Pid,
    name: String,
    surname: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayerDto {
    player: Pid,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayerReasonDto {
    player: Pid,
    reason: String,
}

/// An account linked to or unlinked from a player (ARB-R50), in every
/// format.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayerAccountDto {
    player: Pid,
    account: String,
}

/// A competition's time zone as its `…time-zone-set` events record it:
/// `{"zone": "Europe/Berlin"}`, an IANA name (ARB-R82); a name that is
/// not one is an invalid record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ZoneDto {
    zone: ZoneName,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
struct ZoneName(arbiter_engine::zone::TimeZone);

impl TryFrom<String> for ZoneName {
    type Error = String;
    fn try_from(name: String) -> Result<Self, String> {
        arbiter_engine::zone::TimeZone::parse(&name)
            .map(ZoneName)
            .map_err(|e| e.message)
    }
}

impl From<ZoneName> for String {
    fn from(z: ZoneName) -> String {
        z.0.name().to_string()
    }
}

impl ZoneDto {
    pub(crate) fn new(zone: arbiter_engine::zone::TimeZone) -> Self {
        ZoneDto {
            zone: ZoneName(zone),
        }
    }

    pub(crate) fn zone(&self) -> arbiter_engine::zone::TimeZone {
        self.zone.0
    }
}

impl PlayerAccountDto {
    pub(crate) fn new(player: arbiter_engine::model::PlayerId, account: &str) -> Self {
        PlayerAccountDto {
            player: Pid(player),
            account: account.to_string(),
        }
    }

    pub(crate) fn player(&self) -> arbiter_engine::model::PlayerId {
        self.player.0
    }

    pub(crate) fn into_account(self) -> String {
        self.account
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayerRoundDto {
    player: Pid,
    round: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GameAddedDto {
    round: u32,
    at: Stamp,
    game: ScheduledGameDto,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct QuickGameDto {
    at: Stamp,
    game: ScheduledGameDto,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResultRecordedDto {
    game: Gid,
    result: GameResultDto,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResultCorrectedDto {
    game: Gid,
    result: GameResultDto,
    reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GameCancelledDto {
    game: Gid,
    at: Stamp,
    reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResultReportedDto {
    game: Gid,
    result: ReportedResultDto,
    by: Pid,
    at: Stamp,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResultConfirmedDto {
    game: Gid,
    by: ConfirmerDto,
    at: Stamp,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReportRejectedDto {
    game: Gid,
    by: ConfirmerDto,
    reason: String,
    at: Stamp,
}

/// One member's carried records inside `carried-over` (issue 18 §1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CarriedMemberDto {
    name: String,
    surname: String,
    ussr: u32,
    us: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    last: Option<SideDto>,
    wins: u32,
    losses: u32,
    ties: u32,
    skip_streak: u32,
    missed_rounds: u32,
}

impl From<&CarriedMember> for CarriedMemberDto {
    fn from(m: &CarriedMember) -> Self {
        CarriedMemberDto {
            name: m.name.clone(),
            surname: m.surname.clone().unwrap_or_default(),
            ussr: m.ussr,
            us: m.us,
            last: m.last.map(Into::into),
            wins: m.record.wins,
            losses: m.record.losses,
            ties: m.record.ties,
            skip_streak: m.skip_streak,
            missed_rounds: m.missed,
        }
    }
}

impl From<CarriedMemberDto> for CarriedMember {
    fn from(m: CarriedMemberDto) -> Self {
        CarriedMember {
            name: m.name,
            surname: Some(m.surname),
            ussr: m.ussr,
            us: m.us,
            last: m.last.map(Into::into),
            record: Record {
                wins: m.wins,
                losses: m.losses,
                ties: m.ties,
            },
            skip_streak: m.skip_streak,
            missed: m.missed_rounds,
        }
    }
}

/// `carried-over`: a running ladder carried over from earlier records
/// (issue 18 §1, ARB-R72); members in ladder order, then the inactive list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CarriedOverDto {
    next_round: u32,
    champion_streak: u32,
    members: Vec<CarriedMemberDto>,
    inactive: Vec<CarriedMemberDto>,
    source: String,
    by: String,
    at: Stamp,
}

impl From<&CarryOver> for CarriedOverDto {
    fn from(c: &CarryOver) -> Self {
        CarriedOverDto {
            next_round: c.records.next_round,
            champion_streak: c.records.champion_streak,
            members: c.records.members.iter().map(Into::into).collect(),
            inactive: c.records.inactive.iter().map(Into::into).collect(),
            source: c.source.clone(),
            by: c.by.clone(),
            at: Stamp(c.at),
        }
    }
}

impl From<CarriedOverDto> for CarryOver {
    fn from(c: CarriedOverDto) -> Self {
        CarryOver {
            records: CarriedLadder {
                members: c.members.into_iter().map(Into::into).collect(),
                inactive: c.inactive.into_iter().map(Into::into).collect(),
                next_round: c.next_round,
                champion_streak: c.champion_streak,
            },
            source: c.source,
            by: c.by,
            at: c.at.0,
        }
    }
}

/// `reverted`, the same in every format (the XMadn ones too).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RevertedDto {
    pub(crate) seq: u64,
    pub(crate) summary: String,
}

impl RevertedDto {
    pub(crate) fn new(seq: u64, summary: &str) -> Self {
        RevertedDto {
            seq,
            summary: summary.to_owned(),
        }
    }
}

// Each `type` is `Event::kind()` of the variant (checked by the tests).
event_dto! {
    /// An event of format v1.
    EventDto {
        Created(CreatedDto) = "created",
        RulesChanged(RulesChangedDto) = "rules-changed",
        ModeratorAdded(NameDto) = "moderator-added",
        ModeratorRemoved(NameDto) = "moderator-removed",
        PlayerApplied(PlayerNamedDto) = "player-applied",
        PlayerApproved(PlayerDto) = "player-approved",
        PlayerDeclined(PlayerReasonDto) = "player-declined",
        GuestRegistered(PlayerNamedDto) = "guest-registered",
        PlayerReentered(PlayerDto) = "player-reentered",
        PlayerWithdrawn(PlayerReasonDto) = "player-withdrawn",
        EliminatorVolunteered(PlayerDto) = "eliminator-volunteered",
        EliminatorStoodDown(PlayerDto) = "eliminator-stood-down",
        SkipRequested(PlayerRoundDto) = "skip-requested",
        SkipCancelled(PlayerRoundDto) = "skip-cancelled",
        RoundAnnounced(Box<RoundAnnouncedDto>) = "round-announced",
        GameAdded(GameAddedDto) = "game-added",
        QuickGameScheduled(QuickGameDto) = "quick-game-scheduled",
        ResultRecorded(ResultRecordedDto) = "result-recorded",
        ResultCorrected(ResultCorrectedDto) = "result-corrected",
        GameCancelled(GameCancelledDto) = "game-cancelled",
        ResultReported(ResultReportedDto) = "result-reported",
        ResultConfirmed(ResultConfirmedDto) = "result-confirmed",
        ReportRejected(ReportRejectedDto) = "report-rejected",
        RoundClosed(Box<RoundClosedDto>) = "round-closed",
        AccountLinked(PlayerAccountDto) = "account-linked",
        AccountUnlinked(PlayerAccountDto) = "account-unlinked",
        TimeZoneSet(ZoneDto) = "time-zone-set",
        CarriedOver(Box<CarriedOverDto>) = "carried-over",
        Reverted(RevertedDto) = "reverted",
    }
}

impl From<&Event> for EventDto {
    fn from(e: &Event) -> Self {
        match e {
            Event::Created {
                name,
                rules,
                seed_hash,
            } => EventDto::Created(CreatedDto {
                name: name.clone(),
                rules: rules.into(),
                seed_hash: Hex32(*seed_hash),
            }),
            Event::RulesChanged {
                from_round,
                rules,
                reason,
            } => EventDto::RulesChanged(RulesChangedDto {
                from_round: *from_round,
                rules: rules.into(),
                reason: reason.clone(),
            }),
            Event::ModeratorAdded { name } => {
                EventDto::ModeratorAdded(NameDto { name: name.clone() })
            }
            Event::ModeratorRemoved { name } => {
                EventDto::ModeratorRemoved(NameDto { name: name.clone() })
            }
            Event::PlayerApplied {
                player,
                name,
                surname,
            } => EventDto::PlayerApplied(PlayerNamedDto {
                player: Pid(*player),
                name: name.clone(),
                surname: surname.clone(),
            }),
            Event::PlayerApproved { player } => EventDto::PlayerApproved(PlayerDto {
                player: Pid(*player),
            }),
            Event::PlayerDeclined { player, reason } => EventDto::PlayerDeclined(PlayerReasonDto {
                player: Pid(*player),
                reason: reason.clone(),
            }),
            Event::GuestRegistered {
                player,
                name,
                surname,
            } => EventDto::GuestRegistered(PlayerNamedDto {
                player: Pid(*player),
                name: name.clone(),
                surname: surname.clone(),
            }),
            Event::PlayerReentered { player } => EventDto::PlayerReentered(PlayerDto {
                player: Pid(*player),
            }),
            Event::PlayerWithdrawn { player, reason } => {
                EventDto::PlayerWithdrawn(PlayerReasonDto {
                    player: Pid(*player),
                    reason: reason.clone(),
                })
            }
            Event::EliminatorVolunteered { player } => EventDto::EliminatorVolunteered(PlayerDto {
                player: Pid(*player),
            }),
            Event::EliminatorStoodDown { player } => EventDto::EliminatorStoodDown(PlayerDto {
                player: Pid(*player),
            }),
            Event::SkipRequested { player, round } => EventDto::SkipRequested(PlayerRoundDto {
                player: Pid(*player),
                round: *round,
            }),
            Event::SkipCancelled { player, round } => EventDto::SkipCancelled(PlayerRoundDto {
                player: Pid(*player),
                round: *round,
            }),
            Event::RoundAnnounced(a) => EventDto::RoundAnnounced(Box::new(a.as_ref().into())),
            Event::GameAdded { round, at, game } => EventDto::GameAdded(GameAddedDto {
                round: *round,
                at: Stamp(*at),
                game: game.into(),
            }),
            Event::QuickGameScheduled { at, game } => EventDto::QuickGameScheduled(QuickGameDto {
                at: Stamp(*at),
                game: game.into(),
            }),
            Event::ResultRecorded { game, result } => EventDto::ResultRecorded(ResultRecordedDto {
                game: Gid(*game),
                result: result.into(),
            }),
            Event::ResultCorrected {
                game,
                result,
                reason,
            } => EventDto::ResultCorrected(ResultCorrectedDto {
                game: Gid(*game),
                result: result.into(),
                reason: reason.clone(),
            }),
            Event::GameCancelled { game, at, reason } => {
                EventDto::GameCancelled(GameCancelledDto {
                    game: Gid(*game),
                    at: Stamp(*at),
                    reason: reason.clone(),
                })
            }
            Event::ResultReported {
                game,
                result,
                by,
                at,
            } => EventDto::ResultReported(ResultReportedDto {
                game: Gid(*game),
                result: result.into(),
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
            Event::ReportRejected {
                game,
                by,
                reason,
                at,
            } => EventDto::ReportRejected(ReportRejectedDto {
                game: Gid(*game),
                by: by.into(),
                reason: reason.clone(),
                at: Stamp(*at),
            }),
            Event::RoundClosed(c) => EventDto::RoundClosed(Box::new(c.as_ref().into())),
            Event::AccountLinked { player, account } => {
                EventDto::AccountLinked(PlayerAccountDto::new(*player, account))
            }
            Event::AccountUnlinked { player, account } => {
                EventDto::AccountUnlinked(PlayerAccountDto::new(*player, account))
            }
            Event::TimeZoneSet { zone } => EventDto::TimeZoneSet(ZoneDto::new(*zone)),
            Event::CarriedOver(c) => EventDto::CarriedOver(Box::new(c.as_ref().into())),
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
                seed_hash: d.seed_hash.0,
            },
            EventDto::RulesChanged(d) => Event::RulesChanged {
                from_round: d.from_round,
                rules: d.rules.into(),
                reason: d.reason,
            },
            EventDto::ModeratorAdded(d) => Event::ModeratorAdded { name: d.name },
            EventDto::ModeratorRemoved(d) => Event::ModeratorRemoved { name: d.name },
            EventDto::PlayerApplied(d) => Event::PlayerApplied {
                player: d.player.0,
                name: d.name,
                surname: d.surname,
            },
            EventDto::PlayerApproved(d) => Event::PlayerApproved { player: d.player.0 },
            EventDto::PlayerDeclined(d) => Event::PlayerDeclined {
                player: d.player.0,
                reason: d.reason,
            },
            EventDto::GuestRegistered(d) => Event::GuestRegistered {
                player: d.player.0,
                name: d.name,
                surname: d.surname,
            },
            EventDto::PlayerReentered(d) => Event::PlayerReentered { player: d.player.0 },
            EventDto::PlayerWithdrawn(d) => Event::PlayerWithdrawn {
                player: d.player.0,
                reason: d.reason,
            },
            EventDto::EliminatorVolunteered(d) => {
                Event::EliminatorVolunteered { player: d.player.0 }
            }
            EventDto::EliminatorStoodDown(d) => Event::EliminatorStoodDown { player: d.player.0 },
            EventDto::SkipRequested(d) => Event::SkipRequested {
                player: d.player.0,
                round: d.round,
            },
            EventDto::SkipCancelled(d) => Event::SkipCancelled {
                player: d.player.0,
                round: d.round,
            },
            EventDto::RoundAnnounced(d) => Event::RoundAnnounced(Box::new((*d).into())),
            EventDto::GameAdded(d) => Event::GameAdded {
                round: d.round,
                at: d.at.0,
                game: d.game.into(),
            },
            EventDto::QuickGameScheduled(d) => Event::QuickGameScheduled {
                at: d.at.0,
                game: d.game.into(),
            },
            EventDto::ResultRecorded(d) => Event::ResultRecorded {
                game: d.game.0,
                result: d.result.into(),
            },
            EventDto::ResultCorrected(d) => Event::ResultCorrected {
                game: d.game.0,
                result: d.result.into(),
                reason: d.reason,
            },
            EventDto::GameCancelled(d) => Event::GameCancelled {
                game: d.game.0,
                at: d.at.0,
                reason: d.reason,
            },
            EventDto::ResultReported(d) => Event::ResultReported {
                game: d.game.0,
                result: d.result.into(),
                by: d.by.0,
                at: d.at.0,
            },
            EventDto::ResultConfirmed(d) => Event::ResultConfirmed {
                game: d.game.0,
                by: d.by.into(),
                at: d.at.0,
            },
            EventDto::ReportRejected(d) => Event::ReportRejected {
                game: d.game.0,
                by: d.by.into(),
                reason: d.reason,
                at: d.at.0,
            },
            EventDto::RoundClosed(d) => Event::RoundClosed(Box::new((*d).into())),
            EventDto::AccountLinked(d) => Event::AccountLinked {
                player: d.player(),
                account: d.into_account(),
            },
            EventDto::AccountUnlinked(d) => Event::AccountUnlinked {
                player: d.player(),
                account: d.into_account(),
            },
            EventDto::TimeZoneSet(z) => Event::TimeZoneSet { zone: z.zone() },
            EventDto::CarriedOver(d) => Event::CarriedOver(Box::new((*d).into())),
            EventDto::Reverted(d) => Event::Reverted {
                seq: d.seq,
                summary: d.summary,
            },
        }
    }
}
