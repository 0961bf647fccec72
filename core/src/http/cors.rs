//! CORS, off by default: with allowed origins configured (`--cors-origin`, the Spin variable
//! `cors_origins`), a page on one of them may call the API with a key. Hosts answer a preflight with
//! [`preflight`] before anything else, and pass every other response through [`apply`].
//!
//! The key travels in `Authorization` or `x-api-key`, never in a cookie, so no
//! `Access-Control-Allow-Credentials`.

use super::{Method, Request, Response, header_value};

const ALLOW_METHODS: &str = "GET, HEAD, POST, PUT, DELETE";
// `x-api-key` is the OpenAPI document's security scheme: generated clients send it.
const ALLOW_HEADERS: &str = "authorization, x-api-key, content-type, idempotency-key, x-request-id";
/// What a page's script may read of a response besides the CORS-safelisted headers.
const EXPOSE_HEADERS: &str = "request-id, retry-after, ratelimit-limit, ratelimit-remaining, ratelimit-reset, allow, idempotent-replayed, content-disposition";
/// How long a browser may cache a preflight's answer, seconds.
const MAX_AGE: &str = "600";

/// The allowed origins: exact `scheme://host[:port]` strings, or `*` for any.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Origins(Vec<String>);

impl Origins {
    /// From the configured list; entries are trimmed, a trailing `/` dropped, empty ones skipped.
    pub fn new<S: AsRef<str>>(origins: impl IntoIterator<Item = S>) -> Origins {
        Origins(
            origins
                .into_iter()
                .map(|o| o.as_ref().trim().trim_end_matches('/').to_string())
                .filter(|o| !o.is_empty())
                .collect(),
        )
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The request's `Origin` when it is allowed.
    fn allowed<'r>(&self, origin: Option<&'r str>) -> Option<&'r str> {
        if self.0.is_empty() {
            return None;
        }
        let origin = origin?;
        self.0
            .iter()
            .any(|o| o == "*" || o.eq_ignore_ascii_case(origin))
            .then_some(origin)
    }
}

/// The answer to a CORS preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`)
/// from an allowed origin; None for anything else, which the host serves as usual (an OPTIONS the
/// route table does not know answers 405).
pub fn preflight(origins: &Origins, req: &Request) -> Option<Response> {
    if req.method != Method::Options || req.header_value("access-control-request-method").is_none()
    {
        return None;
    }
    let origin = origins.allowed(req.header_value("origin"))?;
    Some(
        Response::bytes(204, "text/plain", Vec::new())
            .with_header("access-control-allow-origin", origin)
            .with_header("access-control-allow-methods", ALLOW_METHODS)
            .with_header("access-control-allow-headers", ALLOW_HEADERS)
            .with_header("access-control-max-age", MAX_AGE)
            .with_header("vary", "Origin"),
    )
}

/// Adds the CORS headers to a response for a request from an allowed origin. A response that has
/// them already (a [`preflight`] answer) is left alone: a browser refuses an
/// `Access-Control-Allow-Origin` given twice.
pub fn apply(origins: &Origins, req_headers: &[(String, String)], response: Response) -> Response {
    if response
        .header_value("access-control-allow-origin")
        .is_some()
    {
        return response;
    }
    match origins.allowed(header_value(req_headers, "origin")) {
        Some(origin) => response
            .with_header("access-control-allow-origin", origin)
            .with_header("access-control-expose-headers", EXPOSE_HEADERS)
            .with_header("vary", "Origin"),
        None => response,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(origin: &str) -> Request {
        Request::new(Method::Options, "/cards")
            .header("Origin", origin)
            .header("Access-Control-Request-Method", "POST")
    }

    #[test]
    fn off_by_default() {
        let none = Origins::default();
        assert!(preflight(&none, &options("http://app.test")).is_none());
        let r = apply(
            &none,
            options("http://app.test").headers.listed(),
            Response::bytes(200, "x", vec![]),
        );
        assert_eq!(r.header_value("access-control-allow-origin"), None);
    }

    #[test]
    fn allowed_origins_get_a_preflight_and_headers_others_do_not() {
        let o = Origins::new(["http://app.test/", " "]);
        let p = preflight(&o, &options("http://app.test")).unwrap();
        assert_eq!(p.status, 204);
        assert_eq!(
            p.header_value("access-control-allow-origin"),
            Some("http://app.test")
        );
        let allowed = p.header_value("access-control-allow-headers").unwrap();
        assert!(allowed.contains("authorization") && allowed.contains("x-api-key"));
        assert!(preflight(&o, &options("http://evil.test")).is_none());
        // An OPTIONS that is not a preflight is not answered here.
        let plain = Request::new(Method::Options, "/cards").header("Origin", "http://app.test");
        assert!(preflight(&o, &plain).is_none());
        let r = apply(
            &o,
            options("http://app.test").headers.listed(),
            Response::bytes(200, "x", vec![]),
        );
        assert_eq!(
            r.header_value("access-control-allow-origin"),
            Some("http://app.test")
        );
        assert!(
            r.header_value("access-control-expose-headers")
                .unwrap()
                .contains("request-id")
        );
        let any = Origins::new(["*"]);
        assert!(preflight(&any, &options("http://other.test")).is_some());
    }

    #[test]
    fn a_preflight_answer_passed_through_apply_names_the_origin_once() {
        let o = Origins::new(["http://app.test"]);
        let req = options("http://app.test");
        let answer = apply(&o, req.headers.listed(), preflight(&o, &req).unwrap());
        let count = |name: &str| answer.headers.iter().filter(|(n, _)| n == name).count();
        assert_eq!(count("access-control-allow-origin"), 1);
        assert_eq!(count("vary"), 1);
    }
}
