//! One declaration per request body (`body!`): each field's wire name, kind, whether it is required
//! and its description, in one list. The parser reads every declared field through its constant
//! (`Fields::read(&TransferBody::amount)`: the name, the limit and the requirement come from the
//! declaration), and the OpenAPI document builds the body's component schema from the same list
//! (`Body`, turned into JSON Schema by `openapi/schemas.rs`), so a field, a limit or an enumeration
//! is written once. `openapi/tests.rs` checks that each parser consults exactly the fields its schema
//! lists (a parser could still read a field by its bare name).

use rust_decimal::Decimal;
use serde_json::{Map, Value};

use crate::domain::Currency;
use crate::http::fields::Fields;

/// What a field's value must be: the parser's check and the schema's type both come from it.
#[derive(Clone, Copy, Debug)]
pub enum Input {
    /// Trimmed, not empty, at most this many characters.
    Text(usize),
    /// As `Text`, or `null` to clear the stored value.
    ClearableText(usize),
    /// An amount greater than 0 (at most 2 decimals, as every amount).
    Amount,
    /// An amount of at least `Decimal::new(num, scale)`.
    AmountFrom(i64, u32),
    /// An amount of at least 0.
    Balance,
    /// One of these strings, exactly.
    Enum(&'static [&'static str]),
    /// One of these strings, as the parser's own loose reading takes them (`Brand::parse_loose`):
    /// the parser judges the string; the document lists the canonical spellings.
    LooseEnum(&'static [&'static str]),
    /// A currency code: 3 to 10 of A-Z and 0-9, upper-cased.
    Currency,
    Bool,
    /// A free-form object.
    Object,
    /// An object parsed by its own code, documented by this component schema.
    Ref(&'static str),
    /// An RFC 3339 instant.
    Time,
    /// An object of these declared fields, written out in the schema (not a component).
    Inline(&'static Body),
    /// A string matching this regular expression (the document's), which the function checks
    /// (the parser's: no regex at run time), refused with this message.
    Pattern(&'static str, fn(&str) -> bool, &'static str),
    /// A non-empty list of these strings (`all`), duplicates dropped, or the wildcard alone; the
    /// errors name an item as `noun` ("event type").
    EnumSet(&'static [&'static str], &'static str, &'static str),
    /// A list of at most this many strings, each as `Pattern`; duplicates dropped.
    PatternList(usize, &'static str, fn(&str) -> bool, &'static str),
    /// A list of at most this many objects of these declared fields, which the parser reads one by
    /// one (written out in the schema).
    InlineList(usize, &'static Body),
    /// A whole number of at least `min`. `max` is the document's maximum, which the domain checks
    /// (the test clock's bound depends on how far it already is ahead), not the parser.
    WholeNumber(i64, i64),
    /// A whole number from `min` to `max`.
    Between(i64, i64),
    /// Any string (the parser's caller judges it further).
    Str,
    /// A list of strings, each matching the regular expression this function makes (the
    /// document's, built from a domain list; the parser's caller judges each item).
    StrList(fn() -> String),
    /// As `Text`, or a JSON number kept as its exact text.
    TextOrNumber(usize),
    /// A real calendar date `YYYY-MM-DD` (trimmed); the document's pattern allows the years this
    /// regular expression matches (and days up to 28, so every generated date is real).
    Date(&'static str),
    /// As `Text(max)`, then matching this regular expression (the document's), which the function
    /// checks, refused with this message.
    TextPattern(usize, &'static str, fn(&str) -> bool, &'static str),
    /// Trimmed, not empty, then as `Pattern` (whose regular expression bounds the length).
    TrimmedPattern(&'static str, fn(&str) -> bool, &'static str),
}

/// The value an optional field takes when it is absent (or null): the parser's
/// (`Fields::read_or_default`) and the document's `default`.
#[derive(Clone, Copy, Debug)]
pub enum Preset {
    Int(i64),
    Str(&'static str),
}

/// A kind's value made from its `Preset` (None: that preset does not fit the kind).
pub trait FromPreset: Sized {
    fn from_preset(p: Preset) -> Option<Self>;
}

impl FromPreset for i64 {
    fn from_preset(p: Preset) -> Option<i64> {
        match p {
            Preset::Int(i) => Some(i),
            Preset::Str(_) => None,
        }
    }
}

impl FromPreset for String {
    fn from_preset(p: Preset) -> Option<String> {
        match p {
            Preset::Str(s) => Some(s.to_string()),
            Preset::Int(_) => None,
        }
    }
}

/// One field of a declared body, as the document sees it.
#[derive(Clone, Copy, Debug)]
pub struct InputField {
    pub name: &'static str,
    pub input: Input,
    pub required: bool,
    pub doc: Option<&'static str>,
    pub default: Option<Preset>,
}

/// A declared request body: its component schema's name, its fields in the document's order.
#[derive(Debug)]
pub struct Body {
    pub name: &'static str,
    pub fields: &'static [InputField],
    pub doc: Option<&'static str>,
}

/// A field as the parser reads it: the declaration's `InputField`, typed by its kind so that the
/// value read has the kind's Rust type.
pub struct Field<K> {
    pub field: InputField,
    pub kind: K,
}

/// How a kind is read from a body (`None`: absent, or refused with a field error).
pub trait Kind {
    type Out;
    fn read(&self, f: &mut Fields, name: &str) -> Option<Self::Out>;
}

/// The kinds, one type each (the same names as `Input`'s variants, which `body!` relies on).
pub mod kinds {
    pub struct Text(pub usize);
    pub struct ClearableText(pub usize);
    pub struct Amount;
    pub struct AmountFrom(pub i64, pub u32);
    pub struct Balance;
    pub struct Enum(pub &'static [&'static str]);
    pub struct LooseEnum(pub &'static [&'static str]);
    pub struct Currency;
    pub struct Bool;
    pub struct Object;
    pub struct Ref(pub &'static str);
    pub struct Time;
    pub struct Inline(pub &'static super::Body);
    pub struct Pattern(pub &'static str, pub fn(&str) -> bool, pub &'static str);
    pub struct EnumSet(
        pub &'static [&'static str],
        pub &'static str,
        pub &'static str,
    );
    pub struct PatternList(
        pub usize,
        pub &'static str,
        pub fn(&str) -> bool,
        pub &'static str,
    );
    pub struct InlineList(pub usize, pub &'static super::Body);
    pub struct WholeNumber(pub i64, pub i64);
    pub struct Between(pub i64, pub i64);
    pub struct Str;
    pub struct StrList(pub fn() -> String);
    pub struct TextOrNumber(pub usize);
    pub struct Date(pub &'static str);
    pub struct TextPattern(
        pub usize,
        pub &'static str,
        pub fn(&str) -> bool,
        pub &'static str,
    );
    pub struct TrimmedPattern(pub &'static str, pub fn(&str) -> bool, pub &'static str);
}

impl Kind for kinds::Text {
    type Out = String;
    fn read(&self, f: &mut Fields, name: &str) -> Option<String> {
        f.opt_text(name, self.0)
    }
}

impl Kind for kinds::ClearableText {
    type Out = Option<String>;
    fn read(&self, f: &mut Fields, name: &str) -> Option<Option<String>> {
        if f.is_null(name) {
            f.take(name);
            return Some(None);
        }
        f.opt_text(name, self.0).map(Some)
    }
}

fn amount_where(
    f: &mut Fields,
    name: &str,
    ok: impl Fn(Decimal) -> bool,
    message: impl Fn() -> String,
) -> Option<Decimal> {
    let amount = f.opt_money(name)?;
    if ok(amount) {
        Some(amount)
    } else {
        f.error(name, message());
        None
    }
}

impl Kind for kinds::Amount {
    type Out = Decimal;
    fn read(&self, f: &mut Fields, name: &str) -> Option<Decimal> {
        amount_where(
            f,
            name,
            |a| a > Decimal::ZERO,
            || "must be greater than 0".into(),
        )
    }
}

impl Kind for kinds::AmountFrom {
    type Out = Decimal;
    fn read(&self, f: &mut Fields, name: &str) -> Option<Decimal> {
        let min = Decimal::new(self.0, self.1);
        amount_where(f, name, |a| a >= min, || format!("must be at least {min}"))
    }
}

impl Kind for kinds::Balance {
    type Out = Decimal;
    fn read(&self, f: &mut Fields, name: &str) -> Option<Decimal> {
        amount_where(
            f,
            name,
            |a| a >= Decimal::ZERO,
            || "must not be negative".into(),
        )
    }
}

impl Kind for kinds::Enum {
    type Out = String;
    fn read(&self, f: &mut Fields, name: &str) -> Option<String> {
        f.opt_enum(name, self.0)
    }
}

impl Kind for kinds::LooseEnum {
    type Out = String;
    fn read(&self, f: &mut Fields, name: &str) -> Option<String> {
        f.opt_str(name)
    }
}

impl Kind for kinds::Currency {
    type Out = Currency;
    fn read(&self, f: &mut Fields, name: &str) -> Option<Currency> {
        let raw = f.opt_str(name)?;
        let code = Currency::parse(&raw);
        if code.is_none() {
            f.error(name, "must be 3 to 10 characters of A-Z and 0-9");
        }
        code
    }
}

impl Kind for kinds::Bool {
    type Out = bool;
    fn read(&self, f: &mut Fields, name: &str) -> Option<bool> {
        f.opt_bool(name)
    }
}

impl Kind for kinds::Object {
    type Out = Map<String, Value>;
    fn read(&self, f: &mut Fields, name: &str) -> Option<Map<String, Value>> {
        f.opt_object(name)
    }
}

impl Kind for kinds::Ref {
    type Out = Map<String, Value>;
    fn read(&self, f: &mut Fields, name: &str) -> Option<Map<String, Value>> {
        f.opt_object(name)
    }
}

impl Kind for kinds::Time {
    type Out = crate::Timestamp;
    fn read(&self, f: &mut Fields, name: &str) -> Option<crate::Timestamp> {
        let s = f.opt_str(name)?;
        let t = crate::Timestamp::parse_rfc3339(&s);
        if t.is_none() {
            f.error(
                name,
                "must be an RFC 3339 date-time, e.g. 2026-11-22T10:00:00Z",
            );
        }
        t
    }
}

impl Kind for kinds::Inline {
    type Out = Map<String, Value>;
    fn read(&self, f: &mut Fields, name: &str) -> Option<Map<String, Value>> {
        f.opt_object(name)
    }
}

impl Kind for kinds::Pattern {
    type Out = String;
    fn read(&self, f: &mut Fields, name: &str) -> Option<String> {
        let s = f.opt_str(name)?;
        if (self.1)(&s) {
            Some(s)
        } else {
            f.error(name, self.2);
            None
        }
    }
}

impl Kind for kinds::EnumSet {
    type Out = Vec<String>;
    fn read(&self, f: &mut Fields, name: &str) -> Option<Vec<String>> {
        let kinds::EnumSet(all, wildcard, noun) = *self;
        let Value::Array(items) = f.take(name)? else {
            f.error(name, format!("must be a list of {noun}s"));
            return None;
        };
        if items.is_empty() {
            f.error(
                name,
                format!("must name at least one {noun}, or \"{wildcard}\""),
            );
            return None;
        }
        let mut out: Vec<String> = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            match item.as_str() {
                Some(t) if t == wildcard || all.contains(&t) => {
                    if !out.iter().any(|o| o == t) {
                        out.push(t.to_string());
                    }
                }
                _ => {
                    f.error(
                        &format!("{name}.{i}"),
                        format!("must be \"{wildcard}\" or one of: {}", all.join(", ")),
                    );
                    return None;
                }
            }
        }
        if out.len() > 1 && out.iter().any(|t| t == wildcard) {
            f.error(
                name,
                format!("\"{wildcard}\" takes every {noun} and stands alone"),
            );
            return None;
        }
        Some(out)
    }
}

/// A list of at most `max` items; refused whole (one length check, before any item is looked at).
fn list(f: &mut Fields, name: &str, max: usize, not_a_list: &str) -> Option<Vec<Value>> {
    let Value::Array(items) = f.take(name)? else {
        f.error(name, not_a_list);
        return None;
    };
    if items.len() > max {
        f.error(name, format!("must have at most {max} entries"));
        return None;
    }
    Some(items)
}

impl Kind for kinds::PatternList {
    type Out = Vec<String>;
    fn read(&self, f: &mut Fields, name: &str) -> Option<Vec<String>> {
        let kinds::PatternList(max, _, check, message) = *self;
        let items = list(f, name, max, "must be an array of strings")?;
        let mut out: Vec<String> = Vec::with_capacity(items.len());
        let mut ok = true;
        for (i, item) in items.into_iter().enumerate() {
            match item {
                Value::String(s) if check(&s) => {
                    if !out.contains(&s) {
                        out.push(s);
                    }
                }
                _ => {
                    f.error(&format!("{name}[{i}]"), message);
                    ok = false;
                }
            }
        }
        ok.then_some(out)
    }
}

impl Kind for kinds::InlineList {
    type Out = Vec<Value>;
    fn read(&self, f: &mut Fields, name: &str) -> Option<Vec<Value>> {
        list(f, name, self.0, "must be an array")
    }
}

impl Kind for kinds::WholeNumber {
    type Out = i64;
    fn read(&self, f: &mut Fields, name: &str) -> Option<i64> {
        let v = f.take(name)?;
        match crate::http::fields::whole_number(&v) {
            Some(n) if n >= self.0 => Some(n),
            _ => {
                let below = self.0 - 1;
                f.error(name, format!("must be a whole number greater than {below}"));
                None
            }
        }
    }
}

impl Kind for kinds::Between {
    type Out = i64;
    fn read(&self, f: &mut Fields, name: &str) -> Option<i64> {
        let v = f.take(name)?;
        match crate::http::fields::whole_number(&v) {
            Some(n) if (self.0..=self.1).contains(&n) => Some(n),
            _ => {
                let (min, max) = (self.0, self.1);
                f.error(name, format!("must be a whole number from {min} to {max}"));
                None
            }
        }
    }
}

impl Kind for kinds::Str {
    type Out = String;
    fn read(&self, f: &mut Fields, name: &str) -> Option<String> {
        f.opt_str(name)
    }
}

impl Kind for kinds::StrList {
    type Out = Vec<String>;
    fn read(&self, f: &mut Fields, name: &str) -> Option<Vec<String>> {
        let v = f.take(name)?;
        let items = match v {
            Value::Array(items) => items,
            _ => {
                f.error(name, "must be a list of strings");
                return None;
            }
        };
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            let Value::String(s) = item else {
                f.error(name, "must be a list of strings");
                return None;
            };
            out.push(s);
        }
        Some(out)
    }
}

impl Kind for kinds::TextOrNumber {
    type Out = String;
    fn read(&self, f: &mut Fields, name: &str) -> Option<String> {
        match f.take(name)? {
            Value::Number(n) => Some(n.to_string()),
            Value::String(s) => f.check_text(name, s, self.0),
            _ => {
                f.error(name, "must be a string");
                None
            }
        }
    }
}

impl Kind for kinds::TextPattern {
    type Out = String;
    fn read(&self, f: &mut Fields, name: &str) -> Option<String> {
        let s = f.opt_text(name, self.0)?;
        if (self.2)(&s) {
            Some(s)
        } else {
            f.error(name, self.3);
            None
        }
    }
}

impl Kind for kinds::TrimmedPattern {
    type Out = String;
    fn read(&self, f: &mut Fields, name: &str) -> Option<String> {
        let s = f.opt_text(name, usize::MAX)?;
        if (self.1)(&s) {
            Some(s)
        } else {
            f.error(name, self.2);
            None
        }
    }
}

impl Kind for kinds::Date {
    type Out = (String, chrono::NaiveDate);
    fn read(&self, f: &mut Fields, name: &str) -> Option<(String, chrono::NaiveDate)> {
        let s = f.opt_str(name)?;
        date(f, name, &s)
    }
}

/// `YYYY-MM-DD`, a real calendar date: the trimmed text and the date, or a field error.
pub fn date(f: &mut Fields, name: &str, s: &str) -> Option<(String, chrono::NaiveDate)> {
    let s = s.trim();
    let shape = s.len() == 10
        && s.bytes().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                b == b'-'
            } else {
                b.is_ascii_digit()
            }
        });
    match shape
        .then(|| chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").ok())
        .flatten()
    {
        Some(d) => Some((s.to_string(), d)),
        None => {
            f.error(name, "must be a real date in the form YYYY-MM-DD");
            None
        }
    }
}

impl Fields<'_> {
    /// Reads a declared field with a default: absent (or null) is the declared `Preset`; a value
    /// given but refused is None (with its field error).
    pub fn read_or_default<K: Kind>(&mut self, field: &Field<K>) -> Option<K::Out>
    where
        K::Out: FromPreset,
    {
        let given = self.has(field.field.name) && !self.is_null(field.field.name);
        let v = self.read(field);
        if given {
            v
        } else {
            field.field.default.and_then(K::Out::from_preset)
        }
    }

    /// Reads a declared field: its kind's check, then "is required" when it is and was not given.
    pub fn read<K: Kind>(&mut self, field: &Field<K>) -> Option<K::Out> {
        let name = field.field.name;
        let v = field.kind.read(self, name);
        if field.field.required {
            self.required(name, v)
        } else {
            v
        }
    }
}

/// Declares a request body: `pub struct TransferBody = "TransferCreate" { required amount:
/// "amount", AmountFrom(1, 2), "doc"; .. }` makes `TransferBody::amount` (a `Field` the parser
/// reads) and `TransferBody::BODY` (the `Body` the document is built from). Each field is
/// `required` or `optional`, then its Rust name, wire name, kind (an `Input` variant), an optional
/// default (`= Int(2000)`, `= Str("decline")`: a `Preset`, read by `Fields::read_or_default`) and an
/// optional description; the fields are listed in the document's order.
macro_rules! body {
    (@required required) => { true };
    (@required optional) => { false };
    (@doc) => { None };
    (@doc $d:literal) => { Some($d) };
    (@default) => { None };
    (@default $p:ident($v:expr)) => { Some($crate::http::parse::input::Preset::$p($v)) };
    (@field $req:ident $wire:literal $kind:ident ($($arg:expr),*) [$($p:ident($v:expr))?] $($doc:literal)?) => {
        $crate::http::parse::input::InputField {
            name: $wire,
            input: $crate::http::parse::input::Input::$kind($($arg),*),
            required: body!(@required $req),
            doc: body!(@doc $($doc)?),
            default: body!(@default $($p($v))?),
        }
    };
    (@field $req:ident $wire:literal $kind:ident [$($p:ident($v:expr))?] $($doc:literal)?) => {
        $crate::http::parse::input::InputField {
            name: $wire,
            input: $crate::http::parse::input::Input::$kind,
            required: body!(@required $req),
            doc: body!(@doc $($doc)?),
            default: body!(@default $($p($v))?),
        }
    };
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident = $component:literal $(, $bdoc:literal)? {
            $( $req:ident $field:ident : $wire:literal, $kind:ident $(($($arg:expr),*))?
                $(= $p:ident($v:expr))? $(, $doc:literal)? ; )*
        }
    ) => {
        $(#[$meta])*
        $vis struct $name;

        #[allow(non_upper_case_globals, dead_code)]
        impl $name {
            $(
                pub const $field: $crate::http::parse::input::Field<
                    $crate::http::parse::input::kinds::$kind,
                > = $crate::http::parse::input::Field {
                    field: body!(@field $req $wire $kind $(($($arg),*))? [$($p($v))?] $($doc)?),
                    kind: $crate::http::parse::input::kinds::$kind $(($($arg),*))?,
                };
            )*

            pub const BODY: $crate::http::parse::input::Body = $crate::http::parse::input::Body {
                name: $component,
                fields: &[$(Self::$field.field),*],
                doc: body!(@doc $($bdoc)?),
            };
        }
    };
}
pub(crate) use body;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::fields::Errors;

    #[test]
    fn a_date_is_a_real_calendar_day_in_its_one_shape() {
        let mut errors = Errors::default();
        let mut f = Fields::new(Map::new(), "d", &mut errors);
        let day = date(&mut f, "x", " 2024-02-29 ").map(|(s, _)| s);
        assert_eq!(day.as_deref(), Some("2024-02-29"));
        for bad in [
            "2023-02-29",
            "2024-2-01",
            "20240201",
            "2024-02-1a",
            "２０２４-02-01",
        ] {
            assert!(date(&mut f, "x", bad).is_none(), "{bad}");
        }
        drop(f);
        assert_eq!(errors.0.len(), 5);
        assert_eq!(errors.0[0].field, "d.x");
    }
}
