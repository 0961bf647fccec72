//! Hand-written HTTP/1.1 over a plain socket, for tests that must control exactly what is sent and
//! when: a head without its body, a body trickled byte by byte, a connection held open idle.

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// A response read off the socket: status, headers (names lower-cased) and body.
#[derive(Debug)]
pub struct WireResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl WireResponse {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The `error` code of a JSON error body.
    pub fn error_code(&self) -> String {
        serde_json::from_slice::<serde_json::Value>(&self.body)
            .ok()
            .and_then(|v| v["error"].as_str().map(str::to_string))
            .unwrap_or_default()
    }
}

/// A connection to `base_url` (`http://host:port`).
pub fn connect(base_url: &str) -> TcpStream {
    let addr = base_url.trim_start_matches("http://");
    let stream = TcpStream::connect(addr).unwrap_or_else(|e| panic!("connect {addr}: {e}"));
    stream.set_nodelay(true).expect("nodelay");
    stream
}

/// Writes a request head (adds `Host`); the body, if any, is the caller's to send.
pub fn send_head(stream: &mut TcpStream, method: &str, target: &str, headers: &[(&str, &str)]) {
    let mut head = format!("{method} {target} HTTP/1.1\r\nHost: test\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).expect("write the head");
}

/// Reads one response, waiting at most `wait` for each read; `None` when nothing complete arrived in
/// time or the server closed the connection first. `head_only` is for answers to `HEAD`.
pub fn read_response(
    stream: &mut TcpStream,
    wait: Duration,
    head_only: bool,
) -> Option<WireResponse> {
    stream.set_read_timeout(Some(wait)).expect("read timeout");
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    let head_end = loop {
        if let Some(i) = find(&buf, b"\r\n\r\n") {
            break i;
        }
        match stream.read(&mut chunk) {
            Ok(0) => return None,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return None;
            }
            Err(_) => return None,
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines.next()?.split(' ').nth(1)?.parse().ok()?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = buf[head_end + 4..].to_vec();
    let want = if head_only { 0 } else { length };
    while body.len() < want {
        match stream.read(&mut chunk) {
            Ok(0) => return None,
            Ok(n) => body.extend_from_slice(&chunk[..n]),
            Err(_) => return None,
        }
    }
    body.truncate(want);
    Some(WireResponse {
        status,
        headers,
        body,
    })
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
