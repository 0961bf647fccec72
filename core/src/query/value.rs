//! Typed filter values and how document values compare with them and with each other (sorting).

use std::borrow::Cow;
use std::cmp::Ordering;
use std::str::FromStr;

use rust_decimal::Decimal;
use serde_json::Value;

use super::FieldType;
use crate::env::Timestamp;

/// One filter operand, typed by its field.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Scalar {
    /// JSON `null` (only for eq/ne in the JSON form): matches a missing or null field.
    Null,
    Str(String),
    Num(Decimal),
    Bool(bool),
    Date(Timestamp),
    /// A value below a free-form field, kept as given: compared as numbers when both sides are
    /// numbers, else as text.
    Loose(Value),
}

impl Scalar {
    /// Parses the text of an expression value (`balance.gte=100`) as a value of type `t`.
    /// The error is the message's tail, e.g. "must be a number".
    pub(crate) fn from_text(t: FieldType, text: &str) -> Result<Scalar, &'static str> {
        match t {
            FieldType::Str => Ok(Scalar::Str(text.to_string())),
            FieldType::Number => filter_number(text).map(Scalar::Num),
            FieldType::Bool => parse_bool(text)
                .map(Scalar::Bool)
                .ok_or("must be true or false"),
            FieldType::Date => parse_date(text)
                .map(Scalar::Date)
                .ok_or("must be an RFC 3339 date"),
            FieldType::FreeForm => Ok(Scalar::Loose(loose_from_text(text))),
            FieldType::Object => Err("is an object; filter on one of its fields"),
        }
    }

    /// Converts a JSON filter value. Strings are accepted for numbers, booleans and dates (and parsed
    /// as text); `null` is returned as [`Scalar::Null`] for the caller to allow or refuse.
    pub(crate) fn from_json(t: FieldType, v: &Value) -> Result<Scalar, &'static str> {
        match (t, v) {
            (FieldType::Object, _) => Err("is an object; filter on one of its fields"),
            (_, Value::Null) => Ok(Scalar::Null),
            (_, Value::String(s)) => Scalar::from_text(t, s),
            (FieldType::Number, Value::Number(n)) => filter_number(&n.to_string()).map(Scalar::Num),
            (FieldType::Bool, Value::Bool(b)) => Ok(Scalar::Bool(*b)),
            (FieldType::FreeForm, Value::Number(_) | Value::Bool(_)) => {
                Ok(Scalar::Loose(v.clone()))
            }
            (FieldType::Str, _) => Err("must be a string"),
            (FieldType::Number, _) => Err("must be a number"),
            (FieldType::Bool, _) => Err("must be true or false"),
            (FieldType::Date, _) => Err("must be an RFC 3339 date"),
            (FieldType::FreeForm, _) => Err("must be a string, number or boolean"),
        }
    }

    /// The normalized JSON form: numbers as JSON numbers, dates as RFC 3339 UTC strings.
    pub(crate) fn to_json(&self) -> Value {
        match self {
            Scalar::Null => Value::Null,
            Scalar::Str(s) => Value::String(s.clone()),
            Scalar::Num(d) => decimal_json(d),
            Scalar::Bool(b) => Value::Bool(*b),
            Scalar::Date(t) => Value::String(t.to_rfc3339()),
            Scalar::Loose(v) => v.clone(),
        }
    }
}

/// An exact decimal from its text (plain or scientific); `None` when it is not a number or does not
/// fit a `Decimal` without rounding.
pub(crate) fn parse_decimal(text: &str) -> Option<Decimal> {
    if text.is_empty() || text.contains('_') {
        return None;
    }
    Decimal::from_str_exact(text).ok().or_else(|| {
        text.contains(['e', 'E'])
            .then(|| Decimal::from_scientific(text).ok())?
    })
}

/// The most a filter's number may be, either side of zero (the OpenAPI document's filter schema
/// says it as `minimum`/`maximum`, with `multipleOf` 0.01), like the amounts it compares with.
pub const FILTER_NUMBER_LIMIT: i64 = 1_000_000_000_000_000;

/// A filter's number: exact, at most 2 decimal places, within [`FILTER_NUMBER_LIMIT`].
fn filter_number(text: &str) -> Result<Decimal, &'static str> {
    let d = parse_decimal(text).ok_or("must be a number")?;
    if d.normalize().scale() > 2 {
        return Err("must have at most 2 decimal places");
    }
    if d.abs() > Decimal::from(FILTER_NUMBER_LIMIT) {
        return Err("must be between -1e15 and 1e15");
    }
    Ok(d)
}

/// Expression text below a free-form field: a JSON number or boolean when it is written as one
/// (so both filter forms normalize alike), else the string.
fn loose_from_text(text: &str) -> Value {
    match serde_json::from_str::<Value>(text) {
        Ok(v @ (Value::Number(_) | Value::Bool(_))) => v,
        _ => Value::String(text.to_string()),
    }
}

fn parse_bool(text: &str) -> Option<bool> {
    match text {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// An RFC 3339 instant. A `+` in an offset that arrived unencoded in a query string has become a
/// space, so a last space is read as `+` when the text does not parse as given.
pub(crate) fn parse_date(text: &str) -> Option<Timestamp> {
    Timestamp::parse_rfc3339(text).or_else(|| {
        let i = text.rfind(' ')?;
        Timestamp::parse_rfc3339(&format!("{}+{}", &text[..i], &text[i + 1..]))
    })
}

fn decimal_json(d: &Decimal) -> Value {
    serde_json::Number::from_str(&d.to_string())
        .map(Value::Number)
        .unwrap_or_else(|_| Value::String(d.to_string()))
}

/// How a (non-array) document value compares with a filter operand; `None` when they cannot be
/// compared (wrong type in the document), which matches no ordering or equality condition.
pub(crate) fn compare(doc: &Value, want: &Scalar) -> Option<Ordering> {
    match (doc, want) {
        (Value::String(a), Scalar::Str(b)) => Some(a.as_str().cmp(b.as_str())),
        (Value::Number(a), Scalar::Num(b)) => parse_decimal(&a.to_string()).map(|a| a.cmp(b)),
        (Value::Bool(a), Scalar::Bool(b)) => Some(a.cmp(b)),
        (Value::String(a), Scalar::Date(b)) => Timestamp::parse_rfc3339(a).map(|a| a.cmp(b)),
        (_, Scalar::Loose(b)) => loose_compare(doc, b),
        _ => None,
    }
}

/// Numbers compare numerically when both sides are numbers (or numeric text), else as text.
fn loose_compare(a: &Value, b: &Value) -> Option<Ordering> {
    let (a, b) = (loose_text(a)?, loose_text(b)?);
    match (parse_decimal(&a), parse_decimal(&b)) {
        (Some(x), Some(y)) => Some(x.cmp(&y)),
        _ => Some(a.cmp(&b)),
    }
}

/// The text of a scalar JSON value (what search and loose comparison see).
pub(crate) fn loose_text(v: &Value) -> Option<Cow<'_, str>> {
    match v {
        Value::String(s) => Some(Cow::Borrowed(s)),
        Value::Number(n) => Some(Cow::Owned(n.to_string())),
        Value::Bool(b) => Some(Cow::Borrowed(if *b { "true" } else { "false" })),
        _ => None,
    }
}

/// A document value as a sort key. The variant order is the order across types; missing and null
/// come first, so they sort before any value ascending.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum SortVal {
    Missing,
    Bool(bool),
    Num(Decimal),
    Date(Timestamp),
    Str(String),
    /// Arrays, objects and numbers beyond `Decimal`: ordered by their JSON text.
    Other(String),
}

impl SortVal {
    pub(crate) fn of(t: FieldType, v: Option<&Value>) -> SortVal {
        match v {
            None | Some(Value::Null) => SortVal::Missing,
            Some(Value::Bool(b)) => SortVal::Bool(*b),
            Some(Value::Number(n)) => {
                let text = n.to_string();
                parse_decimal(&text).map_or(SortVal::Other(text), SortVal::Num)
            }
            Some(Value::String(s)) if t == FieldType::Date => {
                Timestamp::parse_rfc3339(s).map_or_else(|| SortVal::Str(s.clone()), SortVal::Date)
            }
            Some(Value::String(s)) => SortVal::Str(s.clone()),
            Some(other) => SortVal::Other(other.to_string()),
        }
    }
}
