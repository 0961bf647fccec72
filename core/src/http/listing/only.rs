//! A view with only some of its top-level fields: `Only(&view, fields)` serializes the view as it
//! would, but the struct it writes keeps only the named fields, and the others are never
//! serialized (no value is built for them). Passes over every record (a list's count or top-k of a
//! condition no index answers) build documents of just the fields the query reads this way.

use serde::ser::{Serialize, SerializeStruct, Serializer};

pub struct Only<'a, T>(pub &'a T, pub &'a [String]);

impl<T: Serialize> Serialize for Only<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(Keep {
            inner: s,
            fields: self.1,
        })
    }
}

/// Passes everything to `inner`, but a struct (the view itself) keeps only `fields`.
struct Keep<'f, S> {
    inner: S,
    fields: &'f [String],
}

pub struct KeepStruct<'f, S> {
    inner: S,
    fields: &'f [String],
}

impl<S: SerializeStruct> SerializeStruct for KeepStruct<'_, S> {
    type Ok = S::Ok;
    type Error = S::Error;

    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), S::Error> {
        if self.fields.iter().any(|f| f == key) {
            self.inner.serialize_field(key, value)
        } else {
            Ok(())
        }
    }

    fn skip_field(&mut self, key: &'static str) -> Result<(), S::Error> {
        self.inner.skip_field(key)
    }

    fn end(self) -> Result<S::Ok, S::Error> {
        self.inner.end()
    }
}

macro_rules! forward {
    ($($name:ident($($arg:ident: $ty:ty),*);)*) => {
        $(fn $name(self, $($arg: $ty),*) -> Result<S::Ok, S::Error> {
            self.inner.$name($($arg),*)
        })*
    };
}

impl<'f, S: Serializer> Serializer for Keep<'f, S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = S::SerializeSeq;
    type SerializeTuple = S::SerializeTuple;
    type SerializeTupleStruct = S::SerializeTupleStruct;
    type SerializeTupleVariant = S::SerializeTupleVariant;
    type SerializeMap = S::SerializeMap;
    type SerializeStruct = KeepStruct<'f, S::SerializeStruct>;
    type SerializeStructVariant = S::SerializeStructVariant;

    forward! {
        serialize_bool(v: bool);
        serialize_i8(v: i8);
        serialize_i16(v: i16);
        serialize_i32(v: i32);
        serialize_i64(v: i64);
        serialize_i128(v: i128);
        serialize_u8(v: u8);
        serialize_u16(v: u16);
        serialize_u32(v: u32);
        serialize_u64(v: u64);
        serialize_u128(v: u128);
        serialize_f32(v: f32);
        serialize_f64(v: f64);
        serialize_char(v: char);
        serialize_str(v: &str);
        serialize_bytes(v: &[u8]);
        serialize_none();
        serialize_unit();
        serialize_unit_struct(name: &'static str);
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str);
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<S::Ok, S::Error> {
        self.inner.serialize_some(value)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.inner.serialize_newtype_struct(name, value)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.inner
            .serialize_newtype_variant(name, index, variant, value)
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<S::SerializeSeq, S::Error> {
        self.inner.serialize_seq(len)
    }

    fn serialize_tuple(self, len: usize) -> Result<S::SerializeTuple, S::Error> {
        self.inner.serialize_tuple(len)
    }

    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<S::SerializeTupleStruct, S::Error> {
        self.inner.serialize_tuple_struct(name, len)
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<S::SerializeTupleVariant, S::Error> {
        self.inner
            .serialize_tuple_variant(name, index, variant, len)
    }

    fn serialize_map(self, len: Option<usize>) -> Result<S::SerializeMap, S::Error> {
        self.inner.serialize_map(len)
    }

    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        Ok(KeepStruct {
            inner: self.inner.serialize_struct(name, len)?,
            fields: self.fields,
        })
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<S::SerializeStructVariant, S::Error> {
        self.inner
            .serialize_struct_variant(name, index, variant, len)
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(serde::Serialize)]
    struct Inner {
        a: u8,
        b: &'static str,
    }

    #[derive(serde::Serialize)]
    struct View {
        id: &'static str,
        inner: Inner,
        #[serde(skip_serializing_if = "Option::is_none")]
        gone: Option<u8>,
        n: f64,
    }

    #[test]
    fn keeps_only_the_named_top_level_fields() {
        let v = View {
            id: "x",
            inner: Inner { a: 1, b: "y" },
            gone: None,
            n: 1.5,
        };
        let keep = |f: &[&str]| {
            let f: Vec<String> = f.iter().map(|s| s.to_string()).collect();
            serde_json::to_value(Only(&v, &f)).unwrap()
        };
        assert_eq!(
            keep(&["inner", "n"]),
            json!({"inner": {"a": 1, "b": "y"}, "n": 1.5})
        );
        assert_eq!(keep(&["id", "gone"]), json!({"id": "x"}));
        assert_eq!(keep(&[]), json!({}));
        let all = keep(&["id", "inner", "gone", "n"]);
        assert_eq!(all, serde_json::to_value(&v).unwrap());
    }
}
