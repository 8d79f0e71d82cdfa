//! The small values of format v1: ids, times, hashes, sides, end tags and the
//! compact move. Each checks what it reads, so a decoded event never holds a
//! value the engine cannot take (player id 0, a 31-byte seed).

use std::fmt;

use arbiter_engine::model::{Counts, EndTag, GameId, GameStatus, Outcome, PlayerId, Side, Time};
use arbiter_engine::tws::{Move, MoveReason};
use chrono::{DateTime, SecondsFormat, Utc};
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Unexpected, Visitor};
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};

/// A player id: a plain integer, at least 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pid(pub(crate) PlayerId);

impl Serialize for Pid {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(self.0.0)
    }
}

impl<'de> Deserialize<'de> for Pid {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match u32::deserialize(d)? {
            0 => Err(de::Error::invalid_value(
                Unexpected::Unsigned(0),
                &"a player id (ids start at 1)",
            )),
            n => Ok(Pid(PlayerId(n))),
        }
    }
}

/// A game id: a plain integer, at least 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Gid(pub(crate) GameId);

impl Serialize for Gid {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(self.0.0)
    }
}

impl<'de> Deserialize<'de> for Gid {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match u32::deserialize(d)? {
            0 => Err(de::Error::invalid_value(
                Unexpected::Unsigned(0),
                &"a game id (ids start at 1)",
            )),
            n => Ok(Gid(GameId(n))),
        }
    }
}

/// A moment: RFC 3339 in UTC, `2026-01-31T12:00:00Z`, with as many
/// fractional digits as it has (none for whole seconds). Reading accepts any
/// RFC 3339 offset and converts to UTC. Years 0000..=9999 only (RFC 3339).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stamp(pub(crate) Time);

impl Serialize for Stamp {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0.to_rfc3339_opts(SecondsFormat::AutoSi, true))
    }
}

impl<'de> Deserialize<'de> for Stamp {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct StampVisitor;
        impl Visitor<'_> for StampVisitor {
            type Value = Stamp;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an RFC 3339 time such as \"2026-01-31T12:00:00Z\"")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Stamp, E> {
                DateTime::parse_from_rfc3339(v)
                    .map(|t| Stamp(t.with_timezone(&Utc)))
                    .map_err(|e| {
                        E::custom(format_args!(
                            "invalid time {v:?} ({e}): expected an RFC 3339 time such as \"2026-01-31T12:00:00Z\""
                        ))
                    })
            }
        }
        d.deserialize_str(StampVisitor)
    }
}

/// 32 bytes (a seed or a SHA-256 hash) as 64 lowercase hex digits. Reading
/// also accepts upper case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Hex32(pub(crate) [u8; 32]);

impl Serialize for Hex32 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&hex::encode(self.0))
    }
}

impl<'de> Deserialize<'de> for Hex32 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct HexVisitor;
        impl Visitor<'_> for HexVisitor {
            type Value = Hex32;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("32 bytes as 64 hex digits")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Hex32, E> {
                let mut out = [0u8; 32];
                match hex::decode_to_slice(v, &mut out) {
                    Ok(()) => Ok(Hex32(out)),
                    Err(hex::FromHexError::InvalidHexCharacter { c, index }) => {
                        Err(E::custom(format_args!(
                            "invalid hex digit {c:?} at position {index} of a 32-byte seed or hash"
                        )))
                    }
                    Err(_) => Err(E::custom(format_args!(
                        "a 32-byte seed or hash is 64 hex digits, found {} characters",
                        v.chars().count()
                    ))),
                }
            }
        }
        d.deserialize_str(HexVisitor)
    }
}

/// `From` both ways between a fieldless enum of the engine and its mirror,
/// variant for variant of the same name.
macro_rules! mirror_unit_enum {
    ($engine:ident, $dto:ident { $($variant:ident),* $(,)? }) => {
        impl From<$engine> for $dto {
            fn from(x: $engine) -> Self {
                match x {
                    $($engine::$variant => $dto::$variant,)*
                }
            }
        }

        impl From<$dto> for $engine {
            fn from(x: $dto) -> Self {
                match x {
                    $($dto::$variant => $engine::$variant,)*
                }
            }
        }
    };
}
pub(crate) use mirror_unit_enum;

/// A side: `"USSR"` or `"US"`. Also used by rules files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum SideDto {
    #[serde(rename = "USSR")]
    Ussr,
    #[serde(rename = "US")]
    Us,
}

mirror_unit_enum!(Side, SideDto { Ussr, Us });

/// `"ussr-win"`, `"us-win"` or `"tie"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum OutcomeDto {
    UssrWin,
    UsWin,
    Tie,
}

impl From<Outcome> for OutcomeDto {
    fn from(o: Outcome) -> Self {
        match o {
            Outcome::Win(Side::Ussr) => OutcomeDto::UssrWin,
            Outcome::Win(Side::Us) => OutcomeDto::UsWin,
            Outcome::Tie => OutcomeDto::Tie,
        }
    }
}

impl From<OutcomeDto> for Outcome {
    fn from(o: OutcomeDto) -> Self {
        match o {
            OutcomeDto::UssrWin => Outcome::Win(Side::Ussr),
            OutcomeDto::UsWin => Outcome::Win(Side::Us),
            OutcomeDto::Tie => Outcome::Tie,
        }
    }
}

/// `"ladder"` or `"quick-round"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum CountsDto {
    Ladder,
    QuickRound,
}

mirror_unit_enum!(Counts, CountsDto { Ladder, QuickRound });

/// `"scheduled"`, `"played"`, `"agreed"`, `"adjudicated"`, `"forfeited"`,
/// `"cancelled"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum GameStatusDto {
    Scheduled,
    Played,
    Agreed,
    Adjudicated,
    Forfeited,
    Cancelled,
}

mirror_unit_enum!(
    GameStatus,
    GameStatusDto {
        Scheduled,
        Played,
        Agreed,
        Adjudicated,
        Forfeited,
        Cancelled,
    }
);

/// How a game ended: one of the engine's short tags as a string (`"vp"`,
/// `"defcon"`, `"europe"`, `"final-scoring"`, `"wargames"`, `"concession"`,
/// `"forfeit"`, `"adjudication"`), or `{"other": "free text"}` for a tag the
/// moderator named. The object form keeps `Other("vp")` apart from `Vp`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct EndTagDto(pub(crate) EndTag);

const END_TAG_EXPECTED: &str = "an end tag (\"vp\", \"defcon\", \"europe\", \"final-scoring\", \
     \"wargames\", \"concession\", \"forfeit\", \"adjudication\") or {\"other\": \"text\"}";

impl Serialize for EndTagDto {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            EndTag::Other(text) => {
                let mut map = s.serialize_map(Some(1))?;
                map.serialize_entry("other", text)?;
                map.end()
            }
            known => s.serialize_str(known.tag()),
        }
    }
}

impl<'de> Deserialize<'de> for EndTagDto {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct EndTagVisitor;
        impl<'de> Visitor<'de> for EndTagVisitor {
            type Value = EndTagDto;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(END_TAG_EXPECTED)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<EndTagDto, E> {
                EndTag::KNOWN
                    .iter()
                    .find(|(tag, _)| *tag == v)
                    .map(|(_, t)| EndTagDto(t.clone()))
                    .ok_or_else(|| E::invalid_value(Unexpected::Str(v), &END_TAG_EXPECTED))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<EndTagDto, A::Error> {
                let mut text: Option<String> = None;
                while let Some(key) = map.next_key::<String>()? {
                    if key != "other" {
                        return Err(de::Error::unknown_field(&key, &["other"]));
                    }
                    if text.is_some() {
                        return Err(de::Error::duplicate_field("other"));
                    }
                    text = Some(map.next_value()?);
                }
                text.map(|t| EndTagDto(EndTag::Other(t)))
                    .ok_or_else(|| de::Error::missing_field("other"))
            }
        }
        d.deserialize_any(EndTagVisitor)
    }
}

/// The code of a [`MoveReason`] inside a compact move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum MoveCode {
    Won,
    WonTie,
    Lost,
    LostTie,
    Skipped,
    SkippedTop,
    SkipLoss,
    Bye,
    NoResult,
    Entered,
    CarriedOver,
}

/// One move at the close of a round, as a compact JSON array (a round of a
/// 1,000,000-player ladder has 1,000,000 of them):
///
/// ```text
/// [player, from, to, "won", game]        MoveReason::Won { game, tie: false }
/// [player, from, to, "won-tie", game]    MoveReason::Won { game, tie: true }
/// [player, from, to, "lost", game]       MoveReason::Lost { game, tie: false }
/// [player, from, to, "lost-tie", game]   MoveReason::Lost { game, tie: true }
/// [player, from, to, "skipped"]          MoveReason::Skipped
/// [player, from, to, "skipped-top"]      MoveReason::SkippedTop
/// [player, from, to, "skip-loss", n]     MoveReason::SkipLoss { consecutive: n }
/// [player, from, to, "bye"]              MoveReason::Bye
/// [player, from, to, "no-result", game]  MoveReason::NoResult { game }
/// [player, from, to, "entered"]          MoveReason::Entered
/// [player, from, to, "carried-over", game] MoveReason::CarriedOver { game }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct MoveDto(pub(crate) Move);

const MOVE_EXPECTED: &str =
    "a move [player, from, to, reason] or [player, from, to, reason, number]";

impl Serialize for MoveDto {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let m = &self.0;
        let (code, number) = match m.reason {
            MoveReason::Won { game, tie: false } => (MoveCode::Won, Some(game.0)),
            MoveReason::Won { game, tie: true } => (MoveCode::WonTie, Some(game.0)),
            MoveReason::Lost { game, tie: false } => (MoveCode::Lost, Some(game.0)),
            MoveReason::Lost { game, tie: true } => (MoveCode::LostTie, Some(game.0)),
            MoveReason::Skipped => (MoveCode::Skipped, None),
            MoveReason::SkippedTop => (MoveCode::SkippedTop, None),
            MoveReason::SkipLoss { consecutive } => (MoveCode::SkipLoss, Some(consecutive)),
            MoveReason::Bye => (MoveCode::Bye, None),
            MoveReason::NoResult { game } => (MoveCode::NoResult, Some(game.0)),
            MoveReason::Entered => (MoveCode::Entered, None),
            MoveReason::CarriedOver { game } => (MoveCode::CarriedOver, Some(game.0)),
        };
        let mut seq = s.serialize_seq(Some(if number.is_some() { 5 } else { 4 }))?;
        seq.serialize_element(&m.player.0)?;
        seq.serialize_element(&m.from)?;
        seq.serialize_element(&m.to)?;
        seq.serialize_element(&code)?;
        if let Some(n) = number {
            seq.serialize_element(&n)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for MoveDto {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct MoveVisitor;
        impl<'de> Visitor<'de> for MoveVisitor {
            type Value = MoveDto;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(MOVE_EXPECTED)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<MoveDto, A::Error> {
                let player: Pid = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::invalid_length(0, &MOVE_EXPECTED))?;
                let from: u32 = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::invalid_length(1, &MOVE_EXPECTED))?;
                let to: u32 = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::invalid_length(2, &MOVE_EXPECTED))?;
                let code: MoveCode = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::invalid_length(3, &MOVE_EXPECTED))?;
                let game = |seq: &mut A| -> Result<GameId, A::Error> {
                    let g: Gid = seq.next_element()?.ok_or_else(|| {
                        de::Error::invalid_length(4, &"a game id after this move's reason")
                    })?;
                    Ok(g.0)
                };
                let reason = match code {
                    MoveCode::Won => MoveReason::Won {
                        game: game(&mut seq)?,
                        tie: false,
                    },
                    MoveCode::WonTie => MoveReason::Won {
                        game: game(&mut seq)?,
                        tie: true,
                    },
                    MoveCode::Lost => MoveReason::Lost {
                        game: game(&mut seq)?,
                        tie: false,
                    },
                    MoveCode::LostTie => MoveReason::Lost {
                        game: game(&mut seq)?,
                        tie: true,
                    },
                    MoveCode::Skipped => MoveReason::Skipped,
                    MoveCode::SkippedTop => MoveReason::SkippedTop,
                    MoveCode::SkipLoss => MoveReason::SkipLoss {
                        consecutive: seq.next_element()?.ok_or_else(|| {
                            de::Error::invalid_length(
                                4,
                                &"the number of consecutive skips after \"skip-loss\"",
                            )
                        })?,
                    },
                    MoveCode::Bye => MoveReason::Bye,
                    MoveCode::NoResult => MoveReason::NoResult {
                        game: game(&mut seq)?,
                    },
                    MoveCode::Entered => MoveReason::Entered,
                    MoveCode::CarriedOver => MoveReason::CarriedOver {
                        game: game(&mut seq)?,
                    },
                };
                if seq.next_element::<IgnoredAny>()?.is_some() {
                    return Err(de::Error::custom(
                        "a move has too many elements: [player, from, to, reason] or [player, from, to, reason, number]",
                    ));
                }
                Ok(MoveDto(Move {
                    player: player.0,
                    from,
                    to,
                    reason,
                }))
            }
        }
        d.deserialize_seq(MoveVisitor)
    }
}
