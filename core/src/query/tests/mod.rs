//! Tests of the list-query language over a small schema with every field type.

mod filters;
mod params;
mod plan;
mod props;
mod select;

use serde_json::{Value, json};

use super::{FieldType as T, ListQuery, Schema, parse};
use crate::error::FieldError;

static OWNER: Schema = Schema {
    fields: &[
        ("_id", T::Str),
        ("name", T::Str),
        ("email", T::Str),
        ("createdAt", T::Date),
    ],
    default_search: &["name"],
    populate: &[],
};

static SCHEMA: Schema = Schema {
    fields: &[
        ("_id", T::Str),
        ("createdAt", T::Date),
        ("updatedAt", T::Date),
        ("name", T::Str),
        ("balance", T::Number),
        ("active", T::Bool),
        ("person", T::Object),
        ("person.email", T::Str),
        ("person.firstName", T::Str),
        ("tags", T::Str),
        ("metadata", T::FreeForm),
        ("ownerId", T::Str),
        ("pin", T::Str),
    ],
    default_search: &["name", "person.email"],
    populate: &[("owner", &OWNER)],
};

fn q(query: &str) -> ListQuery {
    match parse(query, &SCHEMA) {
        Ok(q) => q,
        Err(e) => panic!("query {query:?} rejected: {e:?}"),
    }
}

fn errs(query: &str) -> Vec<FieldError> {
    match parse(query, &SCHEMA) {
        Ok(_) => panic!("query {query:?} accepted"),
        Err(e) => e,
    }
}

fn fe(field: &str, message: &str) -> FieldError {
    FieldError::new(field, message)
}

/// URL-encodes one query value.
fn enc(s: &str) -> String {
    form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

/// A document; `balance` is given as JSON text so it stays an exact number.
fn doc(id: &str, created: &str, name: &str, balance: &str, active: bool) -> Value {
    let mut d = json!({
        "_id": id,
        "createdAt": created,
        "name": name,
        "active": active,
        "person": {"email": format!("{}@example.com", name.to_lowercase()), "firstName": name},
    });
    d["balance"] = serde_json::from_str(balance).unwrap_or(Value::Null);
    d
}

/// Six documents: two share a createdAt (tie-break on `_id`), one lacks a balance.
fn docs() -> Vec<Value> {
    let mut d = vec![
        doc("a1", "2026-01-01T00:00:00.000Z", "Alice", "100.50", true),
        doc("a2", "2026-01-02T00:00:00.000Z", "bob", "20", false),
        doc("a3", "2026-01-02T00:00:00.000Z", "Carol", "300", true),
        doc("a4", "2026-01-04T00:00:00.000Z", "dave", "0.01", true),
        doc(
            "a5",
            "2026-01-05T00:00:00.000Z",
            "Eve",
            "999999999999999.99",
            false,
        ),
        doc("a6", "2026-01-06T00:00:00.000Z", "Frank", "null", true),
    ];
    d[0]["metadata"] = json!({"tier": "gold", "score": 10, "vip": true});
    d[1]["metadata"] = json!({"tier": "silver", "score": 9});
    d[2]["metadata"] = json!({"tier": "gold", "score": "100"});
    d[0]["tags"] = json!(["x", "y"]);
    d[1]["tags"] = json!(["z"]);
    if let Some(m) = d[5].as_object_mut() {
        m.remove("balance");
    }
    d
}

fn ids(items: &[Value]) -> Vec<&str> {
    items
        .iter()
        .map(|d| d["_id"].as_str().unwrap_or("?"))
        .collect()
}

/// The ids selected by `query` from [`docs`] (all pages: limit 200).
fn pick(query: &str) -> Vec<String> {
    let full = if query.is_empty() {
        "limit=200".to_string()
    } else {
        format!("{query}&limit=200")
    };
    let (items, _) = q(&full).select(docs());
    ids(&items).into_iter().map(String::from).collect()
}

/// JSON from text, so numbers keep their exact text (`json!` goes through f64).
fn json_text(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}
