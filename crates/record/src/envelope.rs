//! Reading the envelope `{"v": 1, "type": "...", ...}` in one pass.
//!
//! The encoder writes `v` and `type` first. The reader takes them as they
//! come, checks the version before anything else (so a newer record gives a
//! version error, not a confusing field error), and then reads the rest of
//! the same JSON object straight into the variant named by `type`, without
//! buffering: a round of a million moves is parsed once. A document whose
//! other keys come before `v` or `type` (written by hand) is still read: its
//! remaining entries are buffered first.
//!
//! The reader is generic over the DTO enum: any enum whose derived
//! `Deserialize` has one newtype or struct variant per `type` (renamed to
//! it) is read this way: the TWS ladder's [`crate::v1`] events and the XMadn
//! formats' ([`crate::xmadn`]). Each of them is declared with
//! [`event_dto!`], which also writes the envelope ([`Tagged`]).

use std::fmt;
use std::marker::PhantomData;

use serde::de::value::{MapAccessDeserializer, MapDeserializer};
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, IgnoredAny, IntoDeserializer, MapAccess,
    Unexpected, VariantAccess, Visitor,
};
use serde::{Deserialize, Serialize};

use crate::FORMAT_VERSION;

/// A body with its envelope: `{"v": 1, "type": kind, ...body}`.
#[derive(Serialize)]
pub(crate) struct Tagged<'a, T> {
    pub(crate) v: u32,
    #[serde(rename = "type")]
    pub(crate) kind: &'static str,
    #[serde(flatten)]
    pub(crate) body: &'a T,
}

/// An enum of event bodies, one variant per `type`: read through
/// [`Decoded`], which takes `type` as the variant name; written with `v`
/// and `type` first, then the body's fields ([`Tagged`]); and the list of
/// its types (`KINDS`).
macro_rules! event_dto {
    ($(#[$meta:meta])* $name:ident { $($variant:ident($body:ty) = $kind:literal,)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
        pub(crate) enum $name {
            $(
                #[serde(rename = $kind)]
                $variant($body),
            )*
        }

        /// Every `type` of this format.
        pub(crate) const KINDS: &[&str] = &[$($kind),*];

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                match self {
                    $(
                        $name::$variant(body) => serde::Serialize::serialize(
                            &$crate::envelope::Tagged {
                                v: $crate::FORMAT_VERSION,
                                kind: $kind,
                                body,
                            },
                            s,
                        ),
                    )*
                }
            }
        }
    };
}
pub(crate) use event_dto;

/// What the envelope held: a v1 event of the DTO enum `T`, or a record of
/// another version.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)] // Returned once per decode, moved at once.
pub(crate) enum Decoded<T> {
    /// A v1 event.
    V1(T),
    /// A record of another format version (its body is not read).
    Unsupported(u32),
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Decoded<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(EnvelopeVisitor(PhantomData))
    }
}

struct EnvelopeVisitor<T>(PhantomData<T>);

const ENVELOPE: &str = "an Arbiter event: a JSON object with `v` (the format version) and `type`";

fn drain<'de, A: MapAccess<'de>>(map: &mut A) -> Result<(), A::Error> {
    while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
    Ok(())
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for EnvelopeVisitor<T> {
    type Value = Decoded<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(ENVELOPE)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Decoded<T>, A::Error> {
        let mut version: Option<u32> = None;
        let mut kind: Option<String> = None;
        // Fast path: `v` and `type` are the first two keys.
        while version.is_none() || kind.is_none() {
            let Some(key) = map.next_key::<String>()? else {
                break;
            };
            match header(&key, &mut map, &mut version, &mut kind)? {
                Header::Read => {}
                Header::Unsupported(v) => return Ok(Decoded::Unsupported(v)),
                Header::Other => {
                    let first = (key, map.next_value::<serde_json::Value>()?);
                    return buffered(map, version, kind, first);
                }
            }
        }
        if version.is_none() {
            return Err(de::Error::missing_field("v"));
        }
        let Some(kind) = kind else {
            return Err(de::Error::missing_field("type"));
        };
        T::deserialize(Body { kind, map }).map(Decoded::V1)
    }
}

/// What reading one key of the envelope did.
enum Header {
    /// `v` or `type`, read.
    Read,
    /// A version this build cannot read (the version found): decoding ends
    /// here.
    Unsupported(u32),
    /// A body field: its value is still to be read.
    Other,
}

/// Read `v` or `type` if `key` is one of them.
fn header<'de, A: MapAccess<'de>>(
    key: &str,
    map: &mut A,
    version: &mut Option<u32>,
    kind: &mut Option<String>,
) -> Result<Header, A::Error> {
    match key {
        "v" => {
            if version.is_some() {
                return Err(de::Error::duplicate_field("v"));
            }
            let v: u32 = map.next_value()?;
            if v != FORMAT_VERSION {
                drain(map)?;
                return Ok(Header::Unsupported(v));
            }
            *version = Some(v);
            Ok(Header::Read)
        }
        "type" => {
            if kind.is_some() {
                return Err(de::Error::duplicate_field("type"));
            }
            *kind = Some(map.next_value()?);
            Ok(Header::Read)
        }
        _ => Ok(Header::Other),
    }
}

/// The slow path: some body field came before `v` or `type`.
fn buffered<'de, T: Deserialize<'de>, A: MapAccess<'de>>(
    mut map: A,
    mut version: Option<u32>,
    mut kind: Option<String>,
    first: (String, serde_json::Value),
) -> Result<Decoded<T>, A::Error> {
    let mut rest = vec![first];
    while let Some(key) = map.next_key::<String>()? {
        match header(&key, &mut map, &mut version, &mut kind)? {
            Header::Read => {}
            Header::Unsupported(v) => return Ok(Decoded::Unsupported(v)),
            Header::Other => {
                let value = map.next_value::<serde_json::Value>()?;
                rest.push((key, value));
            }
        }
    }
    if version.is_none() {
        return Err(de::Error::missing_field("v"));
    }
    let Some(kind) = kind else {
        return Err(de::Error::missing_field("type"));
    };
    let body = Body {
        kind,
        map: MapDeserializer::<_, serde_json::Error>::new(rest.into_iter()),
    };
    T::deserialize(body)
        .map(Decoded::V1)
        .map_err(de::Error::custom)
}

/// The rest of the envelope's object, presented to the DTO enum's derived
/// `Deserialize` as an enum whose variant is `type` and whose struct is the
/// remaining entries.
struct Body<A> {
    kind: String,
    map: A,
}

impl<'de, A: MapAccess<'de>> Deserializer<'de> for Body<A> {
    type Error = A::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_enum(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de, A: MapAccess<'de>> EnumAccess<'de> for Body<A> {
    type Error = A::Error;
    type Variant = BodyMap<A>;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, BodyMap<A>), A::Error> {
        let variant = seed.deserialize(self.kind.as_str().into_deserializer())?;
        Ok((variant, BodyMap(self.map)))
    }
}

/// The remaining entries are the variant's body.
struct BodyMap<A>(A);

impl<'de, A: MapAccess<'de>> VariantAccess<'de> for BodyMap<A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        Err(de::Error::invalid_type(
            Unexpected::Map,
            &"an event without fields",
        ))
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        seed.deserialize(MapAccessDeserializer::new(self.0))
    }

    fn tuple_variant<V: Visitor<'de>>(
        self,
        _len: usize,
        _visitor: V,
    ) -> Result<V::Value, A::Error> {
        Err(de::Error::invalid_type(
            Unexpected::Map,
            &"an event with named fields",
        ))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        visitor.visit_map(self.0)
    }
}
