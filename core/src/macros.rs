//! `str_enum!`: closed sets of wire strings as Rust enums, with one list of allowed values for errors.
//! `indexed!`: a record kind's secondary indexes (`storage::table::Indexed`).

macro_rules! str_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name { $($variant),+ }

        impl $name {
            pub const ALL: &'static [&'static str] = &[$($text),+];

            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            pub fn parse(s: &str) -> Option<$name> {
                match s { $($text => Some($name::$variant),)+ _ => None }
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                $name::parse(&s).ok_or_else(|| serde::de::Error::unknown_variant(&s, &[$($text),+]))
            }
        }
    };
}

pub(crate) use str_enum;

/// `Indexed` for a record with `id: String` and `created_at: Timestamp`: its kind, and each indexed
/// field (named as list views name it) with the expression of its value, given the record as `$r`.
/// An optional `ranges` block names range indexes: the index, the list-view fields it answers, and
/// the expression of its value (a `storage::ordered::Ordered`). An optional `kept` block names the
/// range indexes the domain keeps itself, with the function that says which entries may be stale;
/// an optional `compound` block, kept indexes also kept per value of an indexed field (`"index" by
/// "field"`). An optional `texts` block names the text fields with a gram index (searches), with
/// their values. `index_all = false` leaves the kind out of the index of every record
/// (`Indexed::INDEX_ALL`): for a kind only ever listed within one value of a field.
macro_rules! indexed {
    ($ty:ty, $kind:expr, |$r:ident| { $($field:literal => $value:expr),+ $(,)? }
        $(, ranges { $($range:literal [$($shown:literal),+] => $rvalue:expr),+ $(,)? })?
        $(, kept { $($kept:literal [$($kshown:literal),+]),+ $(,)? }, stale = $stale:path)?
        $(, compound { $($cindex:literal by $cfield:literal),+ $(,)? })?
        $(, covered = $covered:path, $class:path => $uncover:path, $class_of:path)?
        $(, digits { $($dfield:literal => $dn:literal),+ $(,)? })?
        $(, texts { $($tfield:literal => $tvalue:expr),+ $(,)? })?
        $(, index_all = $all:literal)?) => {
        impl $crate::storage::table::Indexed for $ty {
            const KIND: $crate::storage::keys::Kind = $kind;
            const FIELDS: &'static [&'static str] = &[$($field),+];
            $(const INDEX_ALL: bool = $all;)?
            $(const RANGES: &'static [(&'static str, &'static [&'static str])] =
                &[$(($range, &[$($shown),+])),+];)?

            fn id(&self) -> &str {
                &self.id
            }

            fn created_ms(&self) -> i64 {
                self.created_at.millis()
            }

            fn index_values(&self) -> Vec<&str> {
                let $r = self;
                vec![$($value),+]
            }

            $(fn range_values(&self) -> Vec<$crate::storage::ordered::Ordered> {
                let $r = self;
                vec![$($rvalue),+]
            })?

            $(const DIGITS: &'static [(&'static str, u32)] = &[$(($dfield, $dn)),+];)?

            $(const COVERED: &'static [&'static str] = $covered;

            const COVER_CLASS: &'static [&'static str] = $class;

            fn cover_class(cover: &[u8]) -> Option<&[u8]> {
                $class_of(cover)
            }

            fn uncover(
                id: &str,
                cover: &[u8],
            ) -> ::core::result::Result<Self, $crate::storage::StoreError> {
                $uncover(id, cover)
            })?

            $(const COMPOUND: &'static [(&'static str, &'static str)] =
                &[$(($cindex, $cfield)),+];)?

            $(const TEXTS: &'static [&'static str] = &[$($tfield),+];

            fn texts(&self) -> Vec<&str> {
                let $r = self;
                vec![$($tvalue),+]
            })?

            $(const KEPT_RANGES: &'static [(&'static str, &'static [&'static str])] =
                &[$(($kept, &[$($kshown),+])),+];

            fn stale(
                tx: &mut dyn $crate::storage::Tx,
                client: &str,
                index: &str,
                now_ms: i64,
            ) -> ::core::result::Result<
                Vec<$crate::storage::table::RangePosition>,
                $crate::storage::StoreError,
            > {
                $stale(tx, client, index, now_ms)
            })?
        }
    };
}

pub(crate) use indexed;
