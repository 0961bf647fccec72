//! The record codec: postcard (a compact, non-self-describing serde format that builds for every
//! target) behind a one-byte record version, so a record written by an older release is recognised and
//! never misread.
//!
//! Records are the domain's typed structs. Because postcard is not self-describing, record types use no
//! serde attribute that depends on field names or on `deserialize_any` (`skip_serializing_if`,
//! `flatten`, `untagged`, `serde_json::Value`): free-form JSON is kept as [`JsonText`], money as
//! [`money`].

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{StoreError, Tx};

/// A stored type: its encoding version, bumped (with a migration) whenever its fields change.
pub trait Record: Serialize + DeserializeOwned {
    const VERSION: u8;
    /// What the record is, for error messages.
    const NAME: &'static str;

    /// Reads an older version of the record (`rest` is its postcard bytes), for a change that needs
    /// no migration of the store (a field added with a value derived from the others). `None`: this
    /// version is not one this release reads.
    fn older(_version: u8, _rest: &[u8]) -> Option<Result<Self, postcard::Error>> {
        None
    }
}

pub fn encode<T: Record>(value: &T) -> Result<Vec<u8>, StoreError> {
    postcard::to_extend(value, vec![T::VERSION])
        .map_err(|e| StoreError(format!("cannot encode {}: {e}", T::NAME)))
}

/// A current-version record of `T` read as `V`, a view with `T`'s fields in `T`'s order whose texts
/// may borrow from `bytes` (a list's pass reads a few fields of each record without copying the
/// rest). `None` for any other version: the caller decodes that one whole, with [`decode`].
pub fn decode_view<'a, T: Record, V: serde::Deserialize<'a>>(
    bytes: &'a [u8],
) -> Option<Result<V, StoreError>> {
    match bytes.split_first() {
        Some((&v, rest)) if v == T::VERSION => Some(
            postcard::from_bytes(rest)
                .map_err(|e| StoreError(format!("cannot decode {}: {e}", T::NAME))),
        ),
        _ => None,
    }
}

pub fn decode<T: Record>(bytes: &[u8]) -> Result<T, StoreError> {
    match bytes.split_first() {
        Some((&v, rest)) if v == T::VERSION => postcard::from_bytes(rest)
            .map_err(|e| StoreError(format!("cannot decode {}: {e}", T::NAME))),
        Some((&v, rest)) => match T::older(v, rest) {
            Some(older) => {
                older.map_err(|e| StoreError(format!("cannot decode {} version {v}: {e}", T::NAME)))
            }
            None => Err(StoreError(format!(
                "{} record has version {v}, this release reads version {}",
                T::NAME,
                T::VERSION
            ))),
        },
        None => Err(StoreError(format!("empty {} record", T::NAME))),
    }
}

pub fn get<T: Record>(tx: &mut dyn Tx, key: &[u8]) -> Result<Option<T>, StoreError> {
    tx.get(key)?.map(|b| decode(&b)).transpose()
}

pub fn put<T: Record>(tx: &mut dyn Tx, key: &[u8], value: &T) -> Result<(), StoreError> {
    tx.put(key, &encode(value)?)
}

/// Every record under `prefix`, in key order.
pub fn scan<T: Record>(tx: &mut dyn Tx, prefix: &[u8]) -> Result<Vec<T>, StoreError> {
    super::scan_prefix(tx, prefix)?
        .iter()
        .map(|(_, v)| decode(v))
        .collect()
}

/// Free-form JSON (card metadata, account detail coordinates): a JSON object, stored as its text.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct JsonText(pub serde_json::Map<String, serde_json::Value>);

impl Serialize for JsonText {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            self.0.serialize(s)
        } else {
            let text = serde_json::to_string(&self.0).map_err(serde::ser::Error::custom)?;
            s.serialize_str(&text)
        }
    }
}

impl<'de> serde::Deserialize<'de> for JsonText {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        if d.is_human_readable() {
            serde_json::Map::deserialize(d).map(JsonText)
        } else {
            let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
            serde_json::from_str(&text)
                .map(JsonText)
                .map_err(serde::de::Error::custom)
        }
    }
}

/// `#[serde(with = "money")]` for `Decimal`: an exact JSON number in human-readable formats, the 16
/// bytes of `Decimal::serialize` in the store.
pub mod money {
    use rust_decimal::Decimal;
    use serde::{Deserialize, Deserializer, Serializer};

    /// serde_json's name for a number written as the text given (`arbitrary_precision`).
    const NUMBER: &str = "$serde_json::private::Number";

    pub fn serialize<S: Serializer>(d: &Decimal, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            // What `rust_decimal::serde::arbitrary_precision::serialize` writes (a serde_json
            // `Number` of the decimal's text: the text as it is), without parsing that text into a
            // `Number` first, which cost more than writing it (perf of a card read).
            use serde::ser::SerializeStruct;
            let mut number = s.serialize_struct(NUMBER, 1)?;
            number.serialize_field(NUMBER, &d.to_string())?;
            number.end()
        } else {
            s.serialize_bytes(&d.serialize())
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Decimal, D::Error> {
        if d.is_human_readable() {
            rust_decimal::serde::arbitrary_precision::deserialize(d)
        } else {
            let bytes = <&[u8]>::deserialize(d)?;
            let raw: [u8; 16] = bytes
                .try_into()
                .map_err(|_| serde::de::Error::invalid_length(bytes.len(), &"16 bytes"))?;
            Ok(Decimal::deserialize(raw))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::Decimal;
    use serde::Deserialize;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Sample {
        #[serde(with = "money")]
        amount: Decimal,
        meta: JsonText,
        note: Option<String>,
    }

    impl Record for Sample {
        const VERSION: u8 = 3;
        const NAME: &'static str = "sample";
    }

    #[test]
    fn round_trips_and_refuses_other_versions() {
        let mut meta = serde_json::Map::new();
        meta.insert("k".into(), serde_json::json!([1, {"a": null}]));
        let s = Sample {
            amount: "-12.30".parse().unwrap(),
            meta: JsonText(meta),
            note: None,
        };
        let bytes = encode(&s).unwrap();
        assert_eq!(bytes[0], 3);
        let back: Sample = decode(&bytes).unwrap();
        assert_eq!(back, s);
        assert_eq!(back.amount.to_string(), "-12.30");
        let mut old = bytes.clone();
        old[0] = 2;
        let err = decode::<Sample>(&old).unwrap_err();
        assert!(err.0.contains("version 2"), "{err}");
        assert!(decode::<Sample>(&bytes[..bytes.len() - 1]).is_err());
    }

    /// A `Decimal` from its parts (mantissa and scale).
    fn decimal(mantissa: i128, scale: u32) -> Decimal {
        Decimal::try_from_i128_with_scale(mantissa % 10i128.pow(28), scale).unwrap()
    }

    proptest::proptest! {
        /// Money is written as rust_decimal's own `arbitrary_precision` writes it, as JSON text and
        /// as a `serde_json::Value`.
        #[test]
        fn money_is_written_as_rust_decimal_writes_it(
            mantissa in proptest::num::i128::ANY,
            scale in 0u32..=28,
        ) {
            #[derive(Serialize)]
            struct Ours(#[serde(with = "money")] Decimal);
            #[derive(Serialize)]
            struct Theirs(#[serde(with = "rust_decimal::serde::arbitrary_precision")] Decimal);
            let d = decimal(mantissa, scale);
            proptest::prop_assert_eq!(
                serde_json::to_string(&Ours(d)).unwrap(),
                serde_json::to_string(&Theirs(d)).unwrap()
            );
            proptest::prop_assert_eq!(
                serde_json::to_value(Ours(d)).unwrap(),
                serde_json::to_value(Theirs(d)).unwrap()
            );
        }
    }

    #[test]
    fn money_is_an_exact_json_number() {
        let s = Sample {
            amount: "0.10".parse().unwrap(),
            meta: JsonText::default(),
            note: Some("x".into()),
        };
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(json, r#"{"amount":0.10,"meta":{},"note":"x"}"#);
    }
}
