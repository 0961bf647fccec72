//! The body of `PUT /authorization-endpoint`, and a decision endpoint's answer.

use serde_json::{Map, Value};

use crate::domain::authorizations::decisions::{Answer, Fallback};
use crate::domain::authorizations::endpoint::{
    DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, MIN_TIMEOUT_MS, Settings,
};
use crate::domain::push::url_policy::MAX_URL;
use crate::error::{ApiError, ApiResult};
use crate::http::fields::{Errors, Fields};
use crate::http::parse::input::body;
use crate::storage::codec::JsonText;

body! {
    /// PUT /authorization-endpoint.
    pub struct SettingsBody = "AuthorizationEndpointSet" {
        required url: "url", Text(MAX_URL),
            "https anywhere; http only to loopback; never link-local or metadata addresses; \
             private ranges only when the operator allows them.";
        optional timeout_ms: "timeoutMs",
            Between(MIN_TIMEOUT_MS as i64, MAX_TIMEOUT_MS as i64) = Int(DEFAULT_TIMEOUT_MS as i64);
        optional fallback: "fallback", Enum(Fallback::ALL) = Str("decline");
    }
}

/// `{url, timeoutMs?, fallback?}`; `url` is judged by `check_url` (the operator's URL policy), which
/// answers why it refuses one.
pub fn settings(
    body: Map<String, Value>,
    check_url: impl FnOnce(&str) -> Result<(), String>,
) -> ApiResult<Settings> {
    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    let url = f
        .read(&SettingsBody::url)
        .and_then(|u| match check_url(&u) {
            Ok(()) => Some(u),
            Err(why) => {
                f.error("url", why);
                None
            }
        });
    // In range, so it fits a u32.
    let timeout_ms = f
        .read_or_default(&SettingsBody::timeout_ms)
        .and_then(|ms| u32::try_from(ms).ok());
    // Absent (or null) is the default; a wrong value reports its error and fails below.
    let fallback = f
        .read_or_default(&SettingsBody::fallback)
        .and_then(|s| Fallback::parse(&s));
    f.finish();
    errors.finish(())?;
    match (url, timeout_ms, fallback) {
        (Some(url), Some(timeout_ms), Some(fallback)) => Ok(Settings {
            url,
            timeout_ms,
            fallback,
        }),
        // Every missing part reported a field error above.
        _ => Err(ApiError::internal(
            "authorization endpoint settings incomplete",
        )),
    }
}

/// A decision endpoint's 200 body: `{approved: bool, amount?: number > 0 with at most 2 decimals,
/// metadata?: object}`. Unknown fields are ignored (a receiver may echo more); anything else is
/// not an answer (None).
pub fn answer(body: &[u8]) -> Option<Answer> {
    let Ok(Value::Object(map)) = serde_json::from_slice::<Value>(body) else {
        return None;
    };
    let mut errors = Errors::default();
    let mut f = Fields::new(map, "", &mut errors);
    let approved = match f.take("approved") {
        Some(Value::Bool(b)) => Some(b),
        _ => None,
    };
    let amount = f.opt_money("amount");
    let metadata = match f.take("metadata") {
        None => Some(None),
        Some(Value::Object(m)) => Some(Some(JsonText(m))),
        Some(_) => None,
    };
    drop(f);
    if !errors.is_empty() {
        return None;
    }
    Some(Answer {
        approved: approved?,
        amount,
        metadata: metadata?,
    })
}

#[cfg(test)]
mod tests {
    use rust_decimal::Decimal;
    use serde_json::json;

    use super::*;

    fn map(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => unreachable!(),
        }
    }

    fn loopback(url: &str) -> Result<(), String> {
        if url.starts_with("http://127.0.0.1") {
            Ok(())
        } else {
            Err("is refused".into())
        }
    }

    #[test]
    fn settings_default_and_bound() {
        let s = settings(map(json!({"url": "http://127.0.0.1:1/a"})), loopback).unwrap();
        assert_eq!((s.timeout_ms, s.fallback), (2000, Fallback::Decline));
        let s = settings(
            map(json!({"url": "http://127.0.0.1:1/a", "timeoutMs": 100, "fallback": "approve"})),
            loopback,
        )
        .unwrap();
        assert_eq!((s.timeout_ms, s.fallback), (100, Fallback::Approve));
        for (bad, field) in [
            (json!({}), "url"),
            (json!({"url": "http://169.254.169.254/"}), "url"),
            (json!({"url": 5}), "url"),
            (
                json!({"url": "http://127.0.0.1/", "timeoutMs": 99}),
                "timeoutMs",
            ),
            (
                json!({"url": "http://127.0.0.1/", "timeoutMs": 10001}),
                "timeoutMs",
            ),
            (
                json!({"url": "http://127.0.0.1/", "timeoutMs": 1.5}),
                "timeoutMs",
            ),
            (
                json!({"url": "http://127.0.0.1/", "fallback": "maybe"}),
                "fallback",
            ),
            (json!({"url": "http://127.0.0.1/", "extra": 1}), "extra"),
        ] {
            match settings(map(bad.clone()), loopback) {
                Err(crate::error::ApiError::Validation(errors)) => {
                    assert!(errors.iter().any(|e| e.field == field), "{bad}: {errors:?}")
                }
                other => panic!("{bad}: {other:?}"),
            }
        }
    }

    #[test]
    fn answers() {
        let a = answer(br#"{"approved": true}"#).unwrap();
        assert!(a.approved && a.amount.is_none() && a.metadata.is_none());
        let a =
            answer(br#"{"approved": true, "amount": 12.5, "metadata": {"k": 1}, "x": 0}"#).unwrap();
        assert_eq!(a.amount, Some(Decimal::new(125, 1)));
        assert!(a.metadata.is_some());
        for bad in [
            &b"not json"[..],
            b"[]",
            b"{}",
            br#"{"approved": "yes"}"#,
            br#"{"approved": true, "amount": "5"}"#,
            br#"{"approved": true, "amount": 1.234}"#,
            br#"{"approved": true, "metadata": []}"#,
        ] {
            assert_eq!(answer(bad), None, "{}", String::from_utf8_lossy(bad));
        }
    }
}
