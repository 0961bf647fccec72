//! Field-by-field reading of JSON bodies: every problem becomes one field error with a dot path, unknown
//! fields are rejected, and money is parsed exactly.

use std::str::FromStr;

use rust_decimal::Decimal;

use crate::domain::ledger;
use serde_json::{Map, Value};

use crate::error::{ApiError, FieldError};

/// Collected field errors of one request.
#[derive(Debug, Default)]
pub struct Errors(pub Vec<FieldError>);

impl Errors {
    pub fn push(&mut self, field: impl Into<String>, message: impl Into<String>) {
        self.0.push(FieldError::new(field, message));
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `Ok(value)` when nothing was reported, else the validation error.
    pub fn finish<T>(self, value: T) -> Result<T, ApiError> {
        if self.0.is_empty() {
            Ok(value)
        } else {
            Err(ApiError::Validation(self.0))
        }
    }
}

/// Parses a JSON body; malformed JSON and non-object bodies are validation errors on `body`.
pub fn parse_object(body: &[u8]) -> Result<Map<String, Value>, ApiError> {
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(ApiError::field("body", "must be a JSON object")),
        Err(e) => Err(ApiError::field("body", format!("malformed JSON: {e}"))),
    }
}

pub fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

/// Reads the fields of one JSON object, remembering which were consumed so the rest can be reported.
pub struct Fields<'a> {
    map: Map<String, Value>,
    prefix: String,
    seen: Vec<String>,
    pub errors: &'a mut Errors,
}

impl<'a> Fields<'a> {
    pub fn new(map: Map<String, Value>, prefix: &str, errors: &'a mut Errors) -> Fields<'a> {
        Fields {
            map,
            prefix: prefix.to_string(),
            seen: Vec::new(),
            errors,
        }
    }

    /// Reads `value` as an object at `path`; reports and returns None otherwise.
    pub fn object(value: Value, path: &str, errors: &'a mut Errors) -> Option<Fields<'a>> {
        match value {
            Value::Object(map) => Some(Fields::new(map, path, errors)),
            _ => {
                errors.push(path, "must be an object");
                None
            }
        }
    }

    pub fn path(&self, key: &str) -> String {
        join(&self.prefix, key)
    }

    pub fn error(&mut self, key: &str, message: impl Into<String>) {
        let path = self.path(key);
        self.errors.push(path, message);
    }

    pub fn has(&self, key: &str) -> bool {
        self.map.contains_key(key)
    }

    /// Takes a raw value; `null` counts as absent. The first of `names` present wins (aliases).
    pub fn take_any(&mut self, names: &[&str]) -> Option<(String, Value)> {
        let mut found = None;
        for name in names {
            self.seen.push(name.to_string());
            if let Some(v) = self.map.get(*name)
                && found.is_none()
                && !v.is_null()
            {
                found = Some((name.to_string(), v.clone()));
            }
        }
        found
    }

    pub fn take(&mut self, key: &str) -> Option<Value> {
        self.take_any(&[key]).map(|(_, v)| v)
    }

    /// True when the key was sent with an explicit `null` (used by updates that clear a field).
    pub fn is_null(&self, key: &str) -> bool {
        matches!(self.map.get(key), Some(Value::Null))
    }

    pub(crate) fn required<T>(&mut self, key: &str, value: Option<T>) -> Option<T> {
        if value.is_none() && self.map.get(key).is_none_or(|v| v.is_null()) {
            self.error(key, "is required");
        }
        value
    }

    pub fn opt_str(&mut self, key: &str) -> Option<String> {
        self.opt_str_any(&[key])
    }

    /// A string under any of the alias names; errors name the alias that was sent.
    pub fn opt_str_any(&mut self, names: &[&str]) -> Option<String> {
        let (name, v) = self.take_any(names)?;
        match v {
            Value::String(s) => Some(s),
            _ => {
                self.error(&name, "must be a string");
                None
            }
        }
    }

    pub fn str(&mut self, key: &str) -> Option<String> {
        let v = self.opt_str(key);
        self.required(key, v)
    }

    /// A non-empty string after trimming, at most `max` characters.
    pub fn opt_text(&mut self, key: &str, max: usize) -> Option<String> {
        let s = self.opt_str(key)?;
        self.check_text(key, s, max)
    }

    pub fn text(&mut self, key: &str, max: usize) -> Option<String> {
        let v = self.opt_text(key, max);
        self.required(key, v)
    }

    pub fn check_text(&mut self, key: &str, s: String, max: usize) -> Option<String> {
        let t = s.trim();
        if t.is_empty() {
            self.error(key, "must not be empty");
            None
        } else if t.chars().count() > max {
            self.error(key, format!("must be at most {max} characters"));
            None
        } else {
            Some(t.to_string())
        }
    }

    pub fn opt_bool(&mut self, key: &str) -> Option<bool> {
        match self.take(key)? {
            Value::Bool(b) => Some(b),
            _ => {
                self.error(key, "must be a boolean");
                None
            }
        }
    }

    /// One of `allowed`, matched exactly.
    pub fn opt_enum(&mut self, key: &str, allowed: &[&str]) -> Option<String> {
        let s = self.opt_str(key)?;
        if allowed.contains(&s.as_str()) {
            Some(s)
        } else {
            self.error(key, format!("must be one of: {}", allowed.join(", ")));
            None
        }
    }

    pub fn enumeration(&mut self, key: &str, allowed: &[&str]) -> Option<String> {
        let v = self.opt_enum(key, allowed);
        self.required(key, v)
    }

    pub fn opt_object(&mut self, key: &str) -> Option<Map<String, Value>> {
        match self.take(key)? {
            Value::Object(m) => Some(m),
            _ => {
                self.error(key, "must be an object");
                None
            }
        }
    }

    pub fn object_field(&mut self, key: &str) -> Option<Map<String, Value>> {
        let v = self.opt_object(key);
        self.required(key, v)
    }

    /// A money amount: a JSON number with at most 2 decimal places, parsed without any float.
    pub fn opt_money(&mut self, key: &str) -> Option<Decimal> {
        let v = self.take(key)?;
        match money(&v) {
            Ok(d) => Some(d),
            Err(m) => {
                self.error(key, m);
                None
            }
        }
    }

    pub fn money(&mut self, key: &str) -> Option<Decimal> {
        let v = self.opt_money(key);
        self.required(key, v)
    }

    /// Reports every key that was never asked for.
    pub fn finish(self) {
        let Fields {
            map,
            prefix,
            seen,
            errors,
        } = self;
        #[cfg(test)]
        consulted::record(&prefix, &seen);
        for key in map.keys() {
            if !seen.iter().any(|s| s == key) {
                errors.push(join(&prefix, key), "is not a known field");
            }
        }
    }
}

/// A test hook: the paths of every field a parser asked for (`Fields::finish` records them), so a
/// test can compare a parser's fields with its body's schema (`openapi/tests.rs`).
#[cfg(test)]
pub mod consulted {
    use std::cell::RefCell;

    thread_local! {
        static PATHS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    }

    pub(super) fn record(prefix: &str, seen: &[String]) {
        PATHS.with(|p| {
            p.borrow_mut()
                .extend(seen.iter().map(|k| super::join(prefix, k)))
        });
    }

    /// Runs `f` and returns the paths asked for meanwhile, sorted, each once.
    pub fn during(f: impl FnOnce()) -> Vec<String> {
        PATHS.with(|p| p.borrow_mut().clear());
        f();
        let mut paths = PATHS.with(|p| std::mem::take(&mut *p.borrow_mut()));
        paths.sort();
        paths.dedup();
        paths
    }
}

/// Parses a JSON number exactly into a Decimal with at most 2 decimal places and at most
/// [`ledger::MAX_INTEGER_DIGITS`] integer digits. Works on the number's text digit by digit, so
/// nothing is rounded: `0.999999999999999999999999999999` is refused, not read as 1.
pub fn money(v: &Value) -> Result<Decimal, String> {
    let Value::Number(n) = v else {
        return Err("must be a number".into());
    };
    exact_money(&n.to_string())
}

fn exact_money(text: &str) -> Result<Decimal, String> {
    let out_of_range = || {
        format!(
            "must be less than 10^{} (at most {} integer digits)",
            ledger::MAX_INTEGER_DIGITS,
            ledger::MAX_INTEGER_DIGITS
        )
    };
    let (negative, rest) = match text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, text),
    };
    let (mantissa, exponent) = match rest.split_once(['e', 'E']) {
        Some((m, e)) => (m, e),
        None => (rest, "0"),
    };
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: String = int_part.chars().chain(frac_part.chars()).collect();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err("must be a number".into());
    }
    let digits = digits.trim_start_matches('0');
    let significant = digits.trim_end_matches('0');
    if significant.is_empty() {
        return Ok(Decimal::ZERO);
    }
    // value = significant * 10^power; a huge exponent saturates and is refused below.
    let exponent: i64 = exponent
        .strip_prefix('+')
        .unwrap_or(exponent)
        .parse()
        .unwrap_or(if exponent.starts_with('-') {
            i64::MIN / 4
        } else {
            i64::MAX / 4
        });
    let trailing_zeros = (digits.len() - significant.len()) as i64;
    let power = exponent
        .saturating_add(trailing_zeros)
        .saturating_sub(frac_part.len() as i64);
    if power < -2 {
        return Err("must have at most 2 decimal places".into());
    }
    let integer_digits = (significant.len() as i64).saturating_add(power);
    if integer_digits > i64::from(ledger::MAX_INTEGER_DIGITS) {
        return Err(out_of_range());
    }
    // At most 17 significant digits here: they fit an i64 mantissa exactly.
    let mut mantissa: i64 = significant.parse().map_err(|_| out_of_range())?;
    let mut scale = 0u32;
    if power < 0 {
        scale = power.unsigned_abs() as u32;
    } else {
        for _ in 0..power {
            mantissa *= 10;
        }
    }
    if negative {
        mantissa = -mantissa;
    }
    Ok(Decimal::new(mantissa, scale).normalize())
}

/// A Decimal as an exact JSON number.
/// A JSON number that is whole, in any spelling JSON Schema's `integer` admits (`837`, `837.0`,
/// `8.37e2`), read exactly from its text (serde_json keeps it: arbitrary_precision).
pub fn whole_number(v: &Value) -> Option<i64> {
    let Value::Number(n) = v else { return None };
    if let Some(i) = n.as_i64() {
        return Some(i);
    }
    let text = n.to_string();
    let d = Decimal::from_str(&text)
        .or_else(|_| Decimal::from_scientific(&text))
        .ok()?;
    if d.fract().is_zero() {
        i64::try_from(d.trunc()).ok()
    } else {
        None
    }
}

pub fn decimal_json(d: Decimal) -> Value {
    let text = d.normalize().to_string();
    match serde_json::Number::from_str(&text) {
        Ok(n) => Value::Number(n),
        Err(_) => Value::String(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn money_is_exact() {
        let v: Value = serde_json::from_str("0.1").unwrap();
        assert_eq!(money(&v).unwrap(), Decimal::new(1, 1));
        let v: Value = serde_json::from_str("123456789012345.25").unwrap();
        assert_eq!(money(&v).unwrap().to_string(), "123456789012345.25");
        for refused in [
            "1000000000000000",
            "1e15",
            "0.999999999999999999999999999999",
            "79228162514264337593543950335",
            "1e400",
            "1.5e-7",
            "1e-3",
        ] {
            let v: Value = serde_json::from_str(refused).unwrap();
            assert!(money(&v).is_err(), "{refused}");
        }
        for (text, value) in [
            ("999999999999999.99", "999999999999999.99"),
            ("-1.5", "-1.5"),
            ("0.00", "0"),
            ("-0", "0"),
            ("0e999999999999999999999", "0"),
            ("1500e-3", "1.5"),
            ("12.3400", "12.34"),
            ("1E+2", "100"),
        ] {
            let v: Value = serde_json::from_str(text).unwrap();
            assert_eq!(money(&v).unwrap().to_string(), value, "{text}");
        }
        let v: Value = serde_json::from_str("1.005").unwrap();
        assert!(money(&v).is_err());
        let v: Value = serde_json::from_str("1.50").unwrap();
        assert_eq!(money(&v).unwrap(), Decimal::new(15, 1));
        let v: Value = serde_json::from_str("1e2").unwrap();
        assert_eq!(money(&v).unwrap(), Decimal::new(100, 0));
        assert!(money(&json!("1")).is_err());
        assert_eq!(decimal_json(Decimal::new(1050, 2)).to_string(), "10.5");
    }

    #[test]
    fn reports_unknown_and_missing_fields() {
        let mut errors = Errors::default();
        let map = parse_object(br#"{"name":"a","extra":1,"n":null}"#).unwrap();
        let mut f = Fields::new(map, "x", &mut errors);
        assert_eq!(f.str("name").as_deref(), Some("a"));
        assert_eq!(f.str("n"), None);
        assert_eq!(f.str("missing"), None);
        f.finish();
        let fields: Vec<&str> = errors.0.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["x.n", "x.missing", "x.extra"]);
    }
}

#[cfg(test)]
mod whole_number_tests {
    use super::whole_number;
    use serde_json::Value;

    fn n(text: &str) -> Value {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn every_spelling_of_a_whole_number_and_nothing_else() {
        assert_eq!(whole_number(&n("837")), Some(837));
        assert_eq!(whole_number(&n("837.0")), Some(837));
        assert_eq!(whole_number(&n("8.37e2")), Some(837));
        assert_eq!(whole_number(&n("-5")), Some(-5));
        assert_eq!(whole_number(&n("837.5")), None);
        assert_eq!(whole_number(&n("1e30")), None);
        assert_eq!(whole_number(&n("\"837\"")), None);
    }
}
