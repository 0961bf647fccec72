//! A small blocking HTTP client over the server under test: tenants (one API key each), responses with
//! parsed JSON, and raw requests for the protocol-level tests.

use std::sync::LazyLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use reqwest::Method;
use reqwest::header::HeaderMap;
use serde_json::Value;

use crate::host;

static HTTP: LazyLock<reqwest::blocking::Client> = LazyLock::new(|| {
    reqwest::blocking::Client::builder()
        // A proxy from the environment must never see (or break) requests to 127.0.0.1.
        .no_proxy()
        .timeout(Duration::from_secs(60))
        .build()
        .expect("HTTP client")
});

static NEXT_TENANT: AtomicUsize = AtomicUsize::new(0);

/// `http://127.0.0.1:PORT` of the shared server (started on first use).
pub fn base_url() -> &'static str {
    &host::server().base_url
}

/// Which host the suite runs against.
pub fn host_kind() -> host::HostKind {
    host::server().kind
}

/// A fresh client namespace: an API key no other test of the suite has used.
pub fn tenant() -> Tenant {
    let server = host::server();
    let n = NEXT_TENANT.fetch_add(1, Ordering::SeqCst);
    let pair = server.keys.get(n).unwrap_or_else(|| {
        panic!(
            "more than {} tenants used by the suite; raise host::SHARED_KEY_COUNT",
            server.keys.len()
        )
    });
    Tenant::at(&server.base_url, &pair.key, &pair.client)
}

/// A response: status, headers, the body as text and as JSON (`Value::Null` when it is not JSON).
#[derive(Debug)]
pub struct Resp {
    pub status: u16,
    pub headers: HeaderMap,
    /// The body as text (lossy for binary bodies; see `bytes`).
    pub text: String,
    /// The body exactly as received.
    pub bytes: Vec<u8>,
    pub body: Value,
    /// `METHOD path` of the request, for assertion messages.
    pub request: String,
}

impl Resp {
    /// Asserts the status and returns self; the message carries the request and the body.
    #[track_caller]
    pub fn expect(&self, status: u16) -> &Self {
        assert_eq!(
            self.status, status,
            "{} -> expected {status}, got {}: {}",
            self.request, self.status, self.text
        );
        self
    }

    /// `body.data` after asserting the status.
    #[track_caller]
    pub fn data(&self, status: u16) -> &Value {
        self.expect(status);
        &self.body["data"]
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// Asserts an error response: status, `error` code and the error envelope shape.
    #[track_caller]
    pub fn expect_error(&self, status: u16, code: &str) -> &Self {
        self.expect(status);
        crate::assert::error_envelope(self, status, code);
        self
    }

    /// Asserts a 400 `validation_error` whose `errors` name `field`.
    #[track_caller]
    pub fn expect_field_error(&self, field: &str) -> &Self {
        self.expect_error(400, "validation_error");
        let fields = self.error_fields();
        assert!(
            fields.iter().any(|f| f == field),
            "{} -> expected a field error on {field:?}, got fields {fields:?}: {}",
            self.request,
            self.text
        );
        self
    }

    /// The `field` of every entry in `errors`.
    pub fn error_fields(&self) -> Vec<String> {
        self.body["errors"]
            .as_array()
            .map(|errors| {
                errors
                    .iter()
                    .filter_map(|e| e["field"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// Sends any request to the shared server and reads the response; `Err` only when the connection
/// itself fails.
pub fn try_send(
    method: &str,
    path_and_query: &str,
    headers: &[(&str, &str)],
    body: Option<Vec<u8>>,
) -> Result<Resp, reqwest::Error> {
    try_send_to(base_url(), method, path_and_query, headers, body)
}

/// [`try_send`] to any server (a dedicated [`crate::host::Instance`]).
pub fn try_send_to(
    base: &str,
    method: &str,
    path_and_query: &str,
    headers: &[(&str, &str)],
    body: Option<Vec<u8>>,
) -> Result<Resp, reqwest::Error> {
    let method = Method::from_bytes(method.as_bytes()).expect("a valid HTTP method");
    let url = format!("{base}{path_and_query}");
    let mut req = HTTP.request(method.clone(), &url);
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    if let Some(body) = body {
        req = req.body(body);
    }
    let resp = req.send()?;
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    let bytes = resp.bytes()?.to_vec();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    // Every response of every host, in every test, carries its request id (and an error body the same).
    let id = headers
        .get("request-id")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_else(|| panic!("{method} {path_and_query} -> {status} without Request-Id"));
    assert!(
        !id.is_empty()
            && id.len() <= 64
            && id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b)),
        "{method} {path_and_query} -> Request-Id {id:?} is not a safe id"
    );
    if status >= 400 && body.get("error").is_some() {
        assert_eq!(
            body.get("requestId").and_then(Value::as_str),
            Some(id),
            "{method} {path_and_query} -> the error body's requestId is the Request-Id: {text}"
        );
    }
    Ok(Resp {
        status,
        headers,
        text,
        bytes,
        body,
        request: format!("{method} {path_and_query}"),
    })
}

/// Sends any request exactly as given (no credentials added).
#[track_caller]
pub fn raw(
    method: &str,
    path_and_query: &str,
    headers: &[(&str, &str)],
    body: Option<Vec<u8>>,
) -> Resp {
    try_send(method, path_and_query, headers, body)
        .unwrap_or_else(|e| panic!("{method} {path_and_query}: request failed: {e}"))
}

/// Percent-encodes a query from pairs (`+` never stands for a space here; a space is `%20`).
pub fn query(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// Percent-encodes one query component: everything but unreserved characters.
pub fn encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// One API key and its client; all requests carry the key as `Authorization: Bearer`.
#[derive(Debug, Clone)]
pub struct Tenant {
    pub key: String,
    pub client: String,
    /// The server this tenant talks to.
    pub base_url: String,
}

impl Tenant {
    /// A tenant of the server at `base_url`.
    pub fn at(base_url: &str, key: &str, client: &str) -> Tenant {
        Tenant {
            key: key.to_string(),
            client: client.to_string(),
            base_url: base_url.to_string(),
        }
    }

    fn auth(&self) -> String {
        format!("Bearer {}", self.key)
    }

    /// A request with this tenant's key plus `headers`.
    #[track_caller]
    pub fn send(
        &self,
        method: &str,
        path_and_query: &str,
        headers: &[(&str, &str)],
        body: Option<Vec<u8>>,
    ) -> Resp {
        let auth = self.auth();
        let mut all = vec![("authorization", auth.as_str())];
        all.extend_from_slice(headers);
        try_send_to(&self.base_url, method, path_and_query, &all, body)
            .unwrap_or_else(|e| panic!("{method} {path_and_query}: request failed: {e}"))
    }

    #[track_caller]
    pub fn get(&self, path_and_query: &str) -> Resp {
        self.send("GET", path_and_query, &[], None)
    }

    /// `GET path?pairs` with the pairs percent-encoded.
    #[track_caller]
    pub fn list(&self, path: &str, pairs: &[(&str, &str)]) -> Resp {
        if pairs.is_empty() {
            self.get(path)
        } else {
            self.get(&format!("{path}?{}", query(pairs)))
        }
    }

    #[track_caller]
    pub fn post(&self, path: &str, body: &Value) -> Resp {
        self.json("POST", path, body)
    }

    #[track_caller]
    pub fn put(&self, path: &str, body: &Value) -> Resp {
        self.json("PUT", path, body)
    }

    #[track_caller]
    pub fn delete(&self, path: &str) -> Resp {
        self.send("DELETE", path, &[], None)
    }

    /// A request with a JSON body and `Content-Type: application/json`.
    #[track_caller]
    pub fn json(&self, method: &str, path: &str, body: &Value) -> Resp {
        let bytes = serde_json::to_vec(body).expect("serialize JSON");
        self.send(
            method,
            path,
            &[("content-type", "application/json")],
            Some(bytes),
        )
    }
}
