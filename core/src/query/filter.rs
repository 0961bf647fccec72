//! Filter conditions: parsed from the JSON form, the expression form and top-level parameters,
//! matched against documents, and written back as one normalized Mongo-style object.

use std::cmp::Ordering;

use serde_json::{Map, Value};

use super::schema::{field_type, lookup, present};
use super::value::{Scalar, compare};
use super::{FieldType, Schema};
use crate::error::FieldError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Eq,
    Ne,
    Gt,
    Gte,
    Lt,
    Lte,
    In,
    Nin,
    Between,
    Exists,
}

impl Op {
    /// An operator name, written with or without `$`.
    pub(crate) fn parse(name: &str) -> Option<Op> {
        Some(match name.strip_prefix('$').unwrap_or(name) {
            "eq" => Op::Eq,
            "ne" => Op::Ne,
            "gt" => Op::Gt,
            "gte" => Op::Gte,
            "lt" => Op::Lt,
            "lte" => Op::Lte,
            "in" => Op::In,
            "nin" => Op::Nin,
            "between" => Op::Between,
            "exists" => Op::Exists,
            _ => return None,
        })
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Op::Eq => "eq",
            Op::Ne => "ne",
            Op::Gt => "gt",
            Op::Gte => "gte",
            Op::Lt => "lt",
            Op::Lte => "lte",
            Op::In => "in",
            Op::Nin => "nin",
            Op::Between => "between",
            Op::Exists => "exists",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Operand {
    One(Scalar),
    Many(Vec<Scalar>),
    Range(Scalar, Scalar),
    Flag(bool),
}

impl Operand {
    fn to_json(&self) -> Value {
        match self {
            Operand::One(s) => s.to_json(),
            Operand::Many(list) => Value::Array(list.iter().map(Scalar::to_json).collect()),
            Operand::Range(a, b) => Value::Array(vec![a.to_json(), b.to_json()]),
            Operand::Flag(b) => Value::Bool(*b),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Condition {
    pub(crate) path: String,
    pub(crate) op: Op,
    pub(crate) operand: Operand,
}

impl Condition {
    /// Whether `doc` satisfies this condition. A field holding an array matches when any element
    /// does (ne/nin: when none is equal), as in MongoDB.
    pub(crate) fn matches(&self, doc: &Value) -> bool {
        let v = lookup(doc, &self.path);
        let cmp_any =
            |want: &Scalar, ok: fn(Ordering) -> bool| any(v, |x| compare(x, want).is_some_and(ok));
        match (self.op, &self.operand) {
            (Op::Exists, Operand::Flag(want)) => present(v) == *want,
            (Op::Eq, Operand::One(s)) => equals(v, s),
            (Op::Ne, Operand::One(s)) => !equals(v, s),
            (Op::Gt, Operand::One(s)) => cmp_any(s, Ordering::is_gt),
            (Op::Gte, Operand::One(s)) => cmp_any(s, Ordering::is_ge),
            (Op::Lt, Operand::One(s)) => cmp_any(s, Ordering::is_lt),
            (Op::Lte, Operand::One(s)) => cmp_any(s, Ordering::is_le),
            (Op::In, Operand::Many(list)) => list.iter().any(|s| equals(v, s)),
            (Op::Nin, Operand::Many(list)) => !list.iter().any(|s| equals(v, s)),
            (Op::Between, Operand::Range(lo, hi)) => any(v, |x| {
                compare(x, lo).is_some_and(Ordering::is_ge)
                    && compare(x, hi).is_some_and(Ordering::is_le)
            }),
            // The parser never builds other pairs.
            _ => false,
        }
    }
}

fn equals(v: Option<&Value>, want: &Scalar) -> bool {
    if *want == Scalar::Null {
        return !present(v);
    }
    any(v, |x| compare(x, want) == Some(Ordering::Equal))
}

fn any(v: Option<&Value>, f: impl Fn(&Value) -> bool) -> bool {
    match v {
        None => false,
        Some(Value::Array(items)) => items.iter().any(f),
        Some(x) => f(x),
    }
}

/// The conditions as one object: a field with only an equality is a bare value, otherwise an
/// object of `$`-operators in the order given. Fields keep the order of their first condition.
pub(crate) fn normalized(conditions: &[Condition]) -> Value {
    let mut out = Map::new();
    for c in conditions {
        if out.contains_key(&c.path) {
            continue;
        }
        let mine: Vec<&Condition> = conditions.iter().filter(|d| d.path == c.path).collect();
        let value = match mine.as_slice() {
            [only] if only.op == Op::Eq => only.operand.to_json(),
            _ => Value::Object(
                mine.iter()
                    .map(|d| (format!("${}", d.op.name()), d.operand.to_json()))
                    .collect(),
            ),
        };
        out.insert(c.path.clone(), value);
    }
    Value::Object(out)
}

/// Collects conditions (and every error) from the `filter` parameter and top-level parameters.
pub(crate) struct Builder<'a> {
    schema: &'a Schema,
    pub(crate) conditions: Vec<Condition>,
    errors: &'a mut Vec<FieldError>,
}

impl<'a> Builder<'a> {
    pub(crate) fn new(schema: &'a Schema, errors: &'a mut Vec<FieldError>) -> Builder<'a> {
        Builder {
            schema,
            conditions: Vec::new(),
            errors,
        }
    }

    fn error(&mut self, param: &str, message: String) {
        self.errors.push(FieldError::new(param, message));
    }

    /// The type of a filterable path; reports unknown and object-typed paths.
    fn field(&mut self, param: &str, path: &str) -> Option<FieldType> {
        match field_type(self.schema, path) {
            None => {
                self.error(param, format!("unknown field '{path}'"));
                None
            }
            Some(FieldType::Object) => {
                self.error(
                    param,
                    format!("'{path}' is an object; filter on one of its fields"),
                );
                None
            }
            Some(t) => Some(t),
        }
    }

    fn push(&mut self, param: &str, path: &str, op: Op, operand: Operand) {
        if self.conditions.iter().any(|c| c.path == path && c.op == op) {
            self.error(
                param,
                format!("'{path}' has more than one '{}' condition", op.name()),
            );
            return;
        }
        self.conditions.push(Condition {
            path: path.to_string(),
            op,
            operand,
        });
    }

    /// The `filter` parameter: JSON when it starts with `{`, else an expression.
    pub(crate) fn filter_param(&mut self, param: &str, text: &str) {
        if text.trim_start().starts_with('{') {
            self.json(param, text);
        } else {
            self.expression(param, text);
        }
    }

    /// `a=b&c.gte=1`, split on `&`.
    pub(crate) fn expression(&mut self, param: &str, text: &str) {
        for part in text.split('&').filter(|p| !p.is_empty()) {
            match part.split_once('=') {
                Some((key, value)) => self.pair(param, key, value),
                None => self.error(param, format!("'{part}' is not a field=value condition")),
            }
        }
    }

    /// One `key=value` condition; errors are reported on `param`.
    pub(crate) fn pair(&mut self, param: &str, key: &str, value: &str) {
        let (path, op) = self.split_key(key);
        let Some(t) = self.field(param, path) else {
            return;
        };
        let operand = match op {
            Op::In | Op::Nin => value
                .split(',')
                .map(|v| Scalar::from_text(t, v))
                .collect::<Result<Vec<_>, _>>()
                .map(Operand::Many),
            Op::Between => match value.split_once('|') {
                Some((lo, hi)) => Scalar::from_text(t, lo)
                    .and_then(|lo| Ok(Operand::Range(lo, Scalar::from_text(t, hi)?))),
                None => Err("needs two values for between, written a|b"),
            },
            Op::Exists => match value {
                "true" => Ok(Operand::Flag(true)),
                "false" => Ok(Operand::Flag(false)),
                _ => Err("must be true or false for exists"),
            },
            _ => Scalar::from_text(t, value).map(Operand::One),
        };
        match operand {
            Ok(operand) => self.push(param, path, op, operand),
            Err(m) => self.error(param, format!("'{path}' {m}")),
        }
    }

    /// A key whose last segment is an operator and whose rest is a known field is field + operator;
    /// any other key is a field compared for equality.
    fn split_key<'k>(&self, key: &'k str) -> (&'k str, Op) {
        if let Some((rest, last)) = key.rsplit_once('.')
            && let Some(op) = Op::parse(last)
            && field_type(self.schema, rest).is_some()
        {
            return (rest, op);
        }
        (key, Op::Eq)
    }

    /// `{"status":"active","balance":{"gte":100}}`.
    pub(crate) fn json(&mut self, param: &str, text: &str) {
        let map = match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(map)) => map,
            Ok(_) => return self.error(param, "must be a JSON object".into()),
            Err(e) => return self.error(param, format!("is not valid JSON: {e}")),
        };
        for (path, spec) in &map {
            let Some(t) = self.field(param, path) else {
                continue;
            };
            match spec {
                Value::Object(ops) if ops.is_empty() => {
                    self.error(param, format!("'{path}' has no operators"))
                }
                Value::Object(ops) => {
                    for (name, v) in ops {
                        match Op::parse(name) {
                            Some(op) => self.json_condition(param, path, t, op, v),
                            None => {
                                self.error(param, format!("unknown operator '{name}' for '{path}'"))
                            }
                        }
                    }
                }
                Value::Array(_) => self.error(
                    param,
                    format!("'{path}' must be a value or an object of operators"),
                ),
                v => self.json_condition(param, path, t, Op::Eq, v),
            }
        }
    }

    fn json_condition(&mut self, param: &str, path: &str, t: FieldType, op: Op, v: &Value) {
        let one = |v: &Value| match Scalar::from_json(t, v) {
            Ok(Scalar::Null) => Err("must not be null"),
            other => other,
        };
        let operand = match (op, v) {
            (Op::Eq | Op::Ne, v) => Scalar::from_json(t, v).map(Operand::One),
            (Op::In | Op::Nin, Value::Array(items)) => items
                .iter()
                .map(one)
                .collect::<Result<Vec<_>, _>>()
                .map(Operand::Many),
            (Op::In | Op::Nin, Value::String(s)) => s
                .split(',')
                .map(|v| Scalar::from_text(t, v))
                .collect::<Result<Vec<_>, _>>()
                .map(Operand::Many),
            (Op::In | Op::Nin, _) => Err("needs an array or a comma-separated list for in/nin"),
            (Op::Between, Value::Array(items)) if items.len() == 2 => {
                one(&items[0]).and_then(|lo| Ok(Operand::Range(lo, one(&items[1])?)))
            }
            (Op::Between, Value::String(s)) if s.contains('|') => {
                let (lo, hi) = s.split_once('|').unwrap_or_default();
                Scalar::from_text(t, lo)
                    .and_then(|lo| Ok(Operand::Range(lo, Scalar::from_text(t, hi)?)))
            }
            (Op::Between, _) => Err("needs two values for between: [a, b] or \"a|b\""),
            (Op::Exists, Value::Bool(b)) => Ok(Operand::Flag(*b)),
            (Op::Exists, Value::String(s)) if s == "true" || s == "false" => {
                Ok(Operand::Flag(s == "true"))
            }
            (Op::Exists, _) => Err("must be true or false for exists"),
            (_, v) => one(v).map(Operand::One),
        };
        match operand {
            Ok(operand) => self.push(param, path, op, operand),
            Err(m) => self.error(param, format!("'{path}' {m}")),
        }
    }
}
