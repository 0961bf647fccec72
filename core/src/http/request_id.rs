//! Request ids: every response carries `Request-Id`, and an error body its `requestId`, so one
//! request can be traced from a client's report to the host's log line. The id is the caller's
//! `X-Request-Id` when it looks safe to echo and log, else one drawn from the host's randomness.

use super::{Headers, Response, header_value};
use crate::env::Env;

/// The longest incoming `X-Request-Id` kept; a longer one is replaced.
pub const MAX_LEN: usize = 64;

/// The incoming id, if it is short and only `[A-Za-z0-9._-]` (so it cannot split a header or a log
/// line, nor carry much of anything else).
pub fn incoming(headers: &Headers) -> Option<&str> {
    headers.get("x-request-id").filter(|id| is_safe(id))
}

/// 1 to [`MAX_LEN`] characters of `[A-Za-z0-9._-]`.
pub fn is_safe(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_LEN
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// `req_` and 24 hex digits (96 random bits) from the host's randomness.
pub fn generate(env: &dyn Env) -> String {
    let mut bytes = [0u8; 12];
    env.fill_random(&mut bytes);
    let mut id = String::with_capacity(4 + 24);
    id.push_str("req_");
    id.push_str(&hex::encode(bytes));
    id
}

/// The request's id: the incoming one when safe, else a fresh one.
pub fn for_request(headers: &Headers, env: &dyn Env) -> String {
    match incoming(headers) {
        Some(id) => id.to_string(),
        None => generate(env),
    }
}

/// Sets the request's `X-Request-Id` to the id the host chose (what the audit trail records), so the
/// core sees the same id the response carries.
pub fn attach(req: &mut super::Request, id: &str) {
    req.headers.set("x-request-id", id);
}

/// Adds `Request-Id`, and `requestId` to a JSON error body (the error envelope).
pub fn stamp(mut response: Response, id: &str) -> Response {
    if response.status >= 400
        && is_json(&response)
        && let Ok(serde_json::Value::Object(mut body)) =
            serde_json::from_slice::<serde_json::Value>(&response.body)
        && body.contains_key("error")
    {
        body.insert("requestId".into(), id.into());
        if let Ok(bytes) = serde_json::to_vec(&body) {
            response.body = bytes;
        }
    }
    response.headers.push(("request-id".into(), id.to_string()));
    response
}

fn is_json(response: &Response) -> bool {
    header_value(&response.headers, "content-type")
        .is_some_and(|ct| ct.starts_with("application/json"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::DeterministicEnv;
    use crate::error::ApiError;
    use crate::http::errors;

    fn headers(id: &str) -> Headers {
        vec![("X-Request-Id".into(), id.into())].into()
    }

    #[test]
    fn a_safe_incoming_id_is_kept_and_an_unsafe_one_replaced() {
        let env = DeterministicEnv::default();
        assert_eq!(for_request(&headers("abc-1.2_3"), &env), "abc-1.2_3");
        for bad in ["", "a b", "a\"b", "x\ny", "é", &"a".repeat(MAX_LEN + 1)] {
            let id = for_request(&headers(bad), &env);
            assert!(id.starts_with("req_") && id.len() == 28, "{bad:?} -> {id}");
        }
        assert_eq!(for_request(&headers(&"a".repeat(MAX_LEN)), &env).len(), 64);
    }

    #[test]
    fn generated_ids_differ() {
        let env = DeterministicEnv::default();
        let a = generate(&env);
        let b = generate(&env);
        assert_ne!(a, b);
    }

    #[test]
    fn errors_carry_the_id_in_body_and_header() {
        let r = stamp(errors::to_response(&ApiError::NotFound("Card")), "req_1");
        assert_eq!(r.header_value("request-id"), Some("req_1"));
        let body: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(body["requestId"], "req_1");
        assert_eq!(body["error"], "not_found");
        let ok = stamp(
            Response::bytes(200, "application/json", b"{}".to_vec()),
            "r",
        );
        assert_eq!(ok.body, b"{}");
        assert_eq!(ok.header_value("request-id"), Some("r"));
    }
}
