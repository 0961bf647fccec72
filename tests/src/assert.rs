//! Assertions shared by the test files: exact numbers, ids, timestamps, envelopes.

use std::str::FromStr;
use std::sync::LazyLock;

use regex::Regex;
use rust_decimal::Decimal;
use serde_json::Value;

use crate::client::Resp;

static OBJECT_ID: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[0-9a-f]{24}$").unwrap());
static RFC3339_MS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$").unwrap());

/// The exact decimal value of a JSON number (serde_json keeps the written digits: arbitrary_precision).
/// Panics when the value is not a JSON number: money must be written as a number, not a string.
#[track_caller]
pub fn dec(v: &Value) -> Decimal {
    let Value::Number(n) = v else {
        panic!("expected a JSON number, got {v}");
    };
    let text = n.to_string();
    Decimal::from_str_exact(&text)
        .or_else(|_| Decimal::from_scientific(&text))
        .unwrap_or_else(|e| panic!("{text} is not an exact decimal: {e}"))
}

/// A decimal from its text, for the expected side of comparisons: `d("0.3")`.
#[track_caller]
pub fn d(text: &str) -> Decimal {
    Decimal::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// A non-negative JSON integer (meta fields, status codes).
#[track_caller]
pub fn int(v: &Value) -> u64 {
    v.as_u64()
        .unwrap_or_else(|| panic!("expected a non-negative integer, got {v}"))
}

#[track_caller]
pub fn object_id(v: &Value) -> &str {
    let s = v
        .as_str()
        .unwrap_or_else(|| panic!("expected an id string, got {v}"));
    assert!(
        OBJECT_ID.is_match(s),
        "{s:?} is not 24 lowercase hex characters"
    );
    s
}

/// RFC 3339 UTC with milliseconds (`2026-11-22T10:00:00.000Z`); returns the parsed instant.
#[track_caller]
pub fn timestamp(v: &Value) -> chrono::DateTime<chrono::FixedOffset> {
    let s = v
        .as_str()
        .unwrap_or_else(|| panic!("expected a timestamp string, got {v}"));
    assert!(
        RFC3339_MS.is_match(s),
        "{s:?} is not RFC 3339 UTC with milliseconds"
    );
    chrono::DateTime::parse_from_rfc3339(s).unwrap_or_else(|e| panic!("{s:?}: {e}"))
}

/// The error envelope: exactly `statusCode`, `message`, `error`, `requestId` (the `Request-Id`
/// header), and `errors` only (and non-empty) for `validation_error`.
#[track_caller]
pub fn error_envelope(resp: &Resp, status: u16, code: &str) {
    let body = resp.body.as_object().unwrap_or_else(|| {
        panic!(
            "{} -> error body is not a JSON object: {:?}",
            resp.request, resp.text
        )
    });
    assert_eq!(
        body.get("statusCode").and_then(Value::as_u64),
        Some(u64::from(status)),
        "{} -> statusCode: {}",
        resp.request,
        resp.text
    );
    assert_eq!(
        body.get("error").and_then(Value::as_str),
        Some(code),
        "{} -> error code: {}",
        resp.request,
        resp.text
    );
    let message = body.get("message").and_then(Value::as_str);
    assert!(
        message.is_some_and(|m| !m.is_empty()),
        "{} -> message must be a non-empty string: {}",
        resp.request,
        resp.text
    );
    if code == "validation_error" {
        assert_eq!(message, Some("Validation failed"), "{}", resp.text);
        let errors = body
            .get("errors")
            .and_then(Value::as_array)
            .unwrap_or_else(|| {
                panic!(
                    "{} -> validation_error without errors: {}",
                    resp.request, resp.text
                )
            });
        assert!(
            !errors.is_empty(),
            "{} -> empty errors: {}",
            resp.request,
            resp.text
        );
        for e in errors {
            assert!(
                e["field"].is_string() && e["message"].as_str().is_some_and(|m| !m.is_empty()),
                "{} -> each error has field and message: {}",
                resp.request,
                resp.text
            );
        }
    } else {
        assert!(
            !body.contains_key("errors"),
            "{} -> `errors` only for validation_error: {}",
            resp.request,
            resp.text
        );
    }
    let mut keys: Vec<&str> = body.keys().map(String::as_str).collect();
    keys.retain(|k| !["statusCode", "message", "error", "errors", "requestId"].contains(k));
    assert_eq!(
        body.get("requestId").and_then(Value::as_str),
        resp.header("request-id"),
        "{} -> requestId must be the Request-Id header: {}",
        resp.request,
        resp.text
    );
    assert!(
        keys.is_empty(),
        "{} -> unexpected keys {keys:?} in error body: {}",
        resp.request,
        resp.text
    );
    let ct = resp.header("content-type").unwrap_or("");
    assert!(
        ct.starts_with("application/json"),
        "{} -> error content-type {ct:?}",
        resp.request
    );
}

/// The success envelope of a single resource: statusCode equals the HTTP status, message as given.
#[track_caller]
pub fn envelope<'a>(resp: &'a Resp, status: u16, message: &str) -> &'a Value {
    resp.expect(status);
    assert_eq!(
        resp.body["statusCode"].as_u64(),
        Some(u64::from(status)),
        "{}: {}",
        resp.request,
        resp.text
    );
    assert_eq!(
        resp.body["message"].as_str(),
        Some(message),
        "{}: {}",
        resp.request,
        resp.text
    );
    &resp.body["data"]
}

/// The `_id`s of a list response's `data`, in order.
#[track_caller]
pub fn ids(resp: &Resp) -> Vec<String> {
    resp.expect(200);
    resp.body["data"]
        .as_array()
        .unwrap_or_else(|| panic!("{} -> data is not an array: {}", resp.request, resp.text))
        .iter()
        .map(|item| object_id(&item["_id"]).to_string())
        .collect()
}

/// `values` of `field` in a list response's `data`, in order.
#[track_caller]
pub fn column<'a>(resp: &'a Resp, field: &str) -> Vec<&'a Value> {
    resp.expect(200);
    resp.body["data"]
        .as_array()
        .unwrap_or_else(|| panic!("{} -> data is not an array: {}", resp.request, resp.text))
        .iter()
        .map(|item| &item[field])
        .collect()
}

/// That `text` (a response or request body) carries none of a card's secrets: not the PAN, the
/// reveal token or any `others` (keys, signing secrets) anywhere, and the CVV not as a JSON value
/// nor a `pan`/`cvv` field. A CVV is three digits, which turn up by chance inside ids and
/// timestamps, so it is looked for as a whole value only.
#[track_caller]
pub fn no_card_secrets(text: &str, pan: &str, cvv: &str, others: &[&str]) {
    for secret in [pan].into_iter().chain(others.iter().copied()) {
        assert!(!text.contains(secret), "a secret in {text}");
    }
    assert!(!text.contains(&format!("\"{cvv}\"")), "the CVV in {text}");
    assert!(
        !text.contains("\"pan\"") && !text.contains("\"cvv\""),
        "a pan or cvv field in {text}"
    );
}
