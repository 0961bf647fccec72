//! A decision endpoint the tests start on 127.0.0.1: a plain HTTP/1.1 server (a thread per
//! connection) that records each request and answers as the test's closure says: a JSON answer
//! after a delay, a status, or nothing until the client gives up.
//!
//! Signatures are checked here with an HMAC-SHA256 and a base64 written from the Standard Webhooks
//! text (`{id}.{timestamp}.{body}`, keyed with the secret's decoded bytes), not with the service's
//! code.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use sha2::{Digest, Sha256};

/// One request the endpoint received.
#[derive(Debug, Clone)]
pub struct Received {
    pub method: String,
    pub path: String,
    /// Lower-case names.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Received {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }
}

/// How to answer one request.
#[derive(Debug, Clone)]
pub enum Behaviour {
    /// `status` with `body` (JSON text) after `delay`.
    Answer {
        status: u16,
        body: String,
        delay: Duration,
    },
    /// Accept the request and answer nothing for this long, then close.
    Hang(Duration),
}

impl Behaviour {
    pub fn json(body: Value) -> Behaviour {
        Behaviour::Answer {
            status: 200,
            body: body.to_string(),
            delay: Duration::ZERO,
        }
    }

    pub fn after(self, delay: Duration) -> Behaviour {
        match self {
            Behaviour::Answer { status, body, .. } => Behaviour::Answer {
                status,
                body,
                delay,
            },
            hang => hang,
        }
    }
}

type Decide = dyn Fn(&Received) -> Behaviour + Send + Sync;

pub struct DecisionEndpoint {
    pub url: String,
    received: Arc<Mutex<Vec<Received>>>,
}

impl DecisionEndpoint {
    /// Starts the endpoint; `decide` answers each request (it may call the service first).
    pub fn start(decide: impl Fn(&Received) -> Behaviour + Send + Sync + 'static) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the decision endpoint");
        let url = format!("http://{}/decide", listener.local_addr().expect("address"));
        let received = Arc::new(Mutex::new(Vec::new()));
        let decide: Arc<Decide> = Arc::new(decide);
        let log = received.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let (decide, log) = (decide.clone(), log.clone());
                std::thread::spawn(move || serve(stream, &*decide, &log));
            }
        });
        DecisionEndpoint { url, received }
    }

    /// Every request so far, in arrival order.
    pub fn received(&self) -> Vec<Received> {
        self.received
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

fn serve(stream: TcpStream, decide: &Decide, log: &Mutex<Vec<Received>>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
    let mut reader = BufReader::new(match stream.try_clone() {
        Ok(s) => s,
        Err(_) => return,
    });
    let mut stream = stream;
    // Keep-alive: one request after another until the client closes.
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let mut parts = line.split_whitespace();
        let method = parts.next().unwrap_or_default().to_string();
        let path = parts.next().unwrap_or_default().to_string();
        let mut headers = Vec::new();
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h).unwrap_or(0) == 0 {
                return;
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
            }
        }
        let chunked = headers
            .iter()
            .any(|(k, v)| k == "transfer-encoding" && v.eq_ignore_ascii_case("chunked"));
        let body = if chunked {
            match read_chunked(&mut reader) {
                Some(body) => body,
                None => return,
            }
        } else {
            let length = headers
                .iter()
                .find(|(k, _)| k == "content-length")
                .and_then(|(_, v)| v.parse::<usize>().ok())
                .unwrap_or(0);
            let mut body = vec![0; length];
            if reader.read_exact(&mut body).is_err() {
                return;
            }
            body
        };
        let request = Received {
            method,
            path,
            headers,
            body,
        };
        log.lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(request.clone());
        match decide(&request) {
            Behaviour::Answer {
                status,
                body,
                delay,
            } => {
                std::thread::sleep(delay);
                let head = format!(
                    "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
                    body.len()
                );
                if stream.write_all(head.as_bytes()).is_err()
                    || stream.write_all(body.as_bytes()).is_err()
                {
                    return;
                }
            }
            Behaviour::Hang(time) => {
                std::thread::sleep(time);
                return;
            }
        }
    }
}

/// A chunked request body (RFC 9112, 7.1), trailers skipped.
fn read_chunked(reader: &mut impl BufRead) -> Option<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let mut size = String::new();
        reader.read_line(&mut size).ok()?;
        let size = usize::from_str_radix(size.trim().split(';').next()?, 16).ok()?;
        if size == 0 {
            // Trailers, up to the empty line.
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).ok()? == 0 || line.trim().is_empty() {
                    return Some(body);
                }
            }
        }
        let start = body.len();
        body.resize(start + size, 0);
        reader.read_exact(&mut body[start..]).ok()?;
        let mut end = String::new();
        reader.read_line(&mut end).ok()?;
    }
}

/// HMAC-SHA256 (RFC 2104) over SHA-256.
pub fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    let mut block = [0u8; 64];
    if key.len() > 64 {
        block[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let pad = |byte: u8| block.map(|b| b ^ byte);
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(message)
        .finalize();
    Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize()
        .into()
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

pub fn base64(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().fold(0u32, |n, b| n << 8 | u32::from(*b)) << (8 * (3 - chunk.len()));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

pub fn unbase64(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let (mut n, mut bits) = (0u32, 0);
    for c in text.bytes().filter(|&c| c != b'=') {
        let v = ALPHABET.iter().position(|&a| a == c)? as u32;
        n = n << 6 | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((n >> bits) as u8);
        }
    }
    Some(out)
}

/// Whether `request` carries a valid `v1` signature by `secret` (`whsec_` + base64), as Standard
/// Webhooks defines it; with several signatures (a rotation), any one will do.
pub fn signed_by(request: &Received, secret: &str) -> bool {
    let (Some(id), Some(at), Some(signatures)) = (
        request.header("webhook-id"),
        request.header("webhook-timestamp"),
        request.header("webhook-signature"),
    ) else {
        return false;
    };
    let Some(key) = secret.strip_prefix("whsec_").and_then(unbase64) else {
        return false;
    };
    let mut signed = format!("{id}.{at}.").into_bytes();
    signed.extend_from_slice(&request.body);
    let expected = format!("v1,{}", base64(&hmac_sha256(&key, &signed)));
    signatures.split(' ').any(|s| s == expected)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_and_base64_match_known_answers() {
        // RFC 4231, test case 2.
        assert_eq!(
            hex::encode(hmac_sha256(b"Jefe", b"what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64(b"fooba"), "Zm9vYmE=");
        assert_eq!(base64(b"foob"), "Zm9vYg==");
        assert_eq!(unbase64("Zm9vYg==").unwrap(), b"foob");
        assert_eq!(unbase64("Zm9vYmE=").unwrap(), b"fooba");
    }
}
