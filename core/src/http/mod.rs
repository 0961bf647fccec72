//! The HTTP layer: plain request and response data the hosts translate to and from (no hyper or spin
//! types cross this line), the one route table, body parsing into typed commands, the views, the
//! envelope and error mapping, and the pipeline that wraps every handler in authentication,
//! idempotency and the write overlay. Only this layer builds `Response`s.

use std::fmt;

pub mod auth;
pub mod body;
pub mod cors;
pub mod errors;
pub mod fields;
pub mod forms;
pub mod handlers;
pub mod idempotency;
pub mod listing;
pub mod openapi;
pub mod parse;
pub(crate) mod pipeline;
pub mod reply;
pub mod request_id;
pub mod routes;
pub mod views;

#[cfg(test)]
mod tests_card_holders;

pub use pipeline::{ask, handle, validate};
pub use routes::Prepared;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    Get,
    Head,
    Post,
    Put,
    Patch,
    Delete,
    Options,
    Other,
}

impl Method {
    pub fn parse(s: &str) -> Method {
        match s {
            "GET" => Method::Get,
            "HEAD" => Method::Head,
            "POST" => Method::Post,
            "PUT" => Method::Put,
            "PATCH" => Method::Patch,
            "DELETE" => Method::Delete,
            "OPTIONS" => Method::Options,
            _ => Method::Other,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Head => "HEAD",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
            Method::Options => "OPTIONS",
            Method::Other => "OTHER",
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A host's own header map, read in place: the core asks it for the few headers it reads instead
/// of the host copying every header into the request (a name and a value allocated per header,
/// per request, on the read path).
pub trait HeaderSource: Send + Sync {
    /// The first value of header `name` (given in lower case), when it is valid UTF-8.
    fn get(&self, name: &str) -> Option<&str>;
}

/// A request's headers: a list (the core's tests, the Spin host), the host's own map
/// ([`HeaderSource`]), or both; what was set on the request ([`Headers::set`], [`Headers::push`])
/// comes first. Names are matched case-insensitively.
#[derive(Clone, Default)]
pub struct Headers {
    list: Vec<(String, String)>,
    host: Option<std::sync::Arc<dyn HeaderSource>>,
}

impl Headers {
    /// The host's map, read in place.
    pub fn from_host(host: std::sync::Arc<dyn HeaderSource>) -> Headers {
        Headers {
            list: Vec::new(),
            host: Some(host),
        }
    }

    /// The first value of a header, by case-insensitive name.
    pub fn get(&self, name: &str) -> Option<&str> {
        if let Some(value) = header_value(&self.list, name) {
            return Some(value);
        }
        let host = self.host.as_deref()?;
        if name.bytes().any(|b| b.is_ascii_uppercase()) {
            host.get(&name.to_ascii_lowercase())
        } else {
            host.get(name)
        }
    }

    /// Adds a header (after any of the same name).
    pub fn push(&mut self, name: &str, value: &str) {
        self.list.push((name.to_string(), value.to_string()));
    }

    /// Sets a header, replacing every value it had (the host's included).
    pub fn set(&mut self, name: &str, value: &str) {
        self.list.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        // First in the list, so it is found before the host's value of the same name.
        self.list.insert(0, (name.to_string(), value.to_string()));
    }

    /// The headers set as a list (not the host's map).
    pub fn listed(&self) -> &[(String, String)] {
        &self.list
    }
}

impl From<Vec<(String, String)>> for Headers {
    fn from(list: Vec<(String, String)>) -> Headers {
        Headers { list, host: None }
    }
}

/// Names only: values hold credentials.
impl fmt::Debug for Headers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Headers")
            .field(
                "list",
                &self.list.iter().map(|(n, _)| n).collect::<Vec<_>>(),
            )
            .field("host", &self.host.is_some())
            .finish()
    }
}

/// One HTTP request as the core sees it. Header names are matched case-insensitively.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: Method,
    /// The path without the query string, still percent-encoded.
    pub path: String,
    /// The raw query string without the leading `?` (empty when absent).
    pub query: String,
    pub headers: Headers,
    pub body: Vec<u8>,
    /// What an outside endpoint answered before this write ([`crate::callout`]); set by hosts only,
    /// never parsed from the request.
    pub asked: Option<crate::callout::Asked>,
    /// The caller's address as the host saw it (for the audit trail); None where it cannot tell.
    /// An address, not its text: only the audit of a token or reveal formats it.
    pub peer: Option<core::net::IpAddr>,
}

/// A request's credentials are wiped from memory when it is dropped: the API key (`x-api-key`,
/// `Authorization`) and the query string, which carries reveal tokens. The host's own buffers (and
/// its header map, when the request reads it in place) are its to wipe (README "Card data
/// security").
impl Drop for Request {
    fn drop(&mut self) {
        self.wipe_credentials();
    }
}

impl Request {
    fn wipe_credentials(&mut self) {
        use zeroize::Zeroize;
        for (name, value) in &mut self.headers.list {
            if name.eq_ignore_ascii_case("x-api-key") || name.eq_ignore_ascii_case("authorization")
            {
                value.zeroize();
            }
        }
        self.query.zeroize();
    }

    pub fn new(method: Method, target: &str) -> Request {
        let (path, query) = match target.split_once('?') {
            Some((p, q)) => (p.to_string(), q.to_string()),
            None => (target.to_string(), String::new()),
        };
        Request {
            method,
            path,
            query,
            headers: Headers::default(),
            body: Vec::new(),
            asked: None,
            peer: None,
        }
    }

    pub fn header(mut self, name: &str, value: &str) -> Request {
        self.headers.push(name, value);
        self
    }

    pub fn body(mut self, body: impl Into<Vec<u8>>) -> Request {
        self.body = body.into();
        self
    }

    /// The first value of a header, by case-insensitive name.
    pub fn header_value(&self, name: &str) -> Option<&str> {
        self.headers.get(name)
    }
}

/// The first value of header `name` (case-insensitive) in `headers`.
pub fn header_value<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// Why a request failed inside (a 5xx): for the host's log, never sent to the client.
    pub cause: Option<String>,
    /// For a body that carries a secret shown once (a reveal token): the body an idempotent replay
    /// sends and the idempotency record keeps instead, so the secret is never stored.
    pub replay_body: Option<Vec<u8>>,
}

impl Response {
    /// A JSON body. Serializing a `Value` or a view cannot fail short of a bug; if it does, the
    /// response is a 500 with the cause, never a success with an empty body.
    pub fn json(status: u16, value: &impl serde::Serialize) -> Response {
        // Room for a typical single record (a card is about 700 bytes), so it is written without
        // growing the buffer several times over.
        let mut body = Vec::with_capacity(1024);
        match serde_json::to_writer(&mut body, value) {
            Ok(()) => Response::bytes(status, "application/json", body),
            Err(e) => errors::to_response(&crate::error::ApiError::internal(format!(
                "cannot serialize a response body: {e}"
            ))),
        }
    }

    pub fn bytes(status: u16, content_type: &str, body: Vec<u8>) -> Response {
        Response {
            status,
            headers: vec![("content-type".into(), content_type.into())],
            body,
            cause: None,
            replay_body: None,
        }
    }

    pub fn with_header(mut self, name: &str, value: &str) -> Response {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }

    pub fn header_value(&self, name: &str) -> Option<&str> {
        header_value(&self.headers, name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_are_wiped_and_nothing_else() {
        let mut req = Request::new(Method::Get, "/cards/c1/reveal?token=tok_secret")
            .header("X-Api-Key", "sk_secret")
            .header("authorization", "Bearer sk_secret")
            .header("accept", "application/json");
        req.wipe_credentials();
        assert_eq!(req.query, "");
        let values: Vec<&str> = req
            .headers
            .listed()
            .iter()
            .map(|(_, v)| v.as_str())
            .collect();
        assert_eq!(values, ["", "", "application/json"]);
        assert_eq!(req.path, "/cards/c1/reveal");
    }

    /// A host's map as the native host's is: lower-case names, looked up as given.
    struct Map(Vec<(&'static str, &'static str)>);

    impl HeaderSource for Map {
        fn get(&self, name: &str) -> Option<&str> {
            self.0.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
        }
    }

    #[test]
    fn headers_read_in_place_are_found_by_any_case_and_what_is_set_comes_first() {
        let host = Map(vec![
            ("x-api-key", "sk_1"),
            ("x-request-id", "theirs"),
            ("x-request-id", "second"),
        ]);
        let mut headers = Headers::from_host(std::sync::Arc::new(host));
        assert_eq!(headers.get("X-Api-Key"), Some("sk_1"));
        assert_eq!(headers.get("x-request-id"), Some("theirs"));
        assert_eq!(headers.get("content-type"), None);
        headers.set("X-Request-Id", "ours");
        assert_eq!(headers.get("x-request-id"), Some("ours"));
        headers.push("x-request-id", "later");
        assert_eq!(headers.get("x-request-id"), Some("ours"));
        headers.set("x-request-id", "again");
        assert_eq!(headers.listed().len(), 1);
        assert_eq!(headers.get("x-request-id"), Some("again"));
        // A clone reads the same map (the host's is shared, not copied).
        assert_eq!(headers.clone().get("x-api-key"), Some("sk_1"));
        // Debug shows names only, never a value (they hold credentials).
        let shown = format!("{headers:?}");
        assert!(
            shown.contains("x-request-id") && !shown.contains("again"),
            "{shown}"
        );
    }
}
