//! A webhook receiver for the tests: a tiny HTTP/1.1 server on 127.0.0.1 that records every request
//! and answers as the test says (a status, or a sleep first), and an independent Standard Webhooks
//! signature check (HMAC-SHA256 and base64 written here from their specifications, so the service's
//! own signing code is not what checks it).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

/// One request the receiver got.
#[derive(Debug, Clone)]
pub struct Received {
    pub path: String,
    /// Header names lowercased.
    pub headers: HashMap<String, String>,
    pub body: Vec<u8>,
}

impl Received {
    pub fn header(&self, name: &str) -> &str {
        self.headers.get(name).map(String::as_str).unwrap_or("")
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("a JSON body")
    }
}

/// How the receiver answers.
#[derive(Debug, Clone, Copy)]
pub enum Answer {
    Status(u16),
    /// Sleep, then answer 200 (longer than the sender's timeout: a timeout).
    Sleep(Duration),
}

struct Shared {
    received: Mutex<Vec<Received>>,
    answer: Mutex<Answer>,
    stop: AtomicBool,
}

pub struct Receiver {
    pub addr: SocketAddr,
    shared: Arc<Shared>,
}

impl Receiver {
    /// A receiver on a free loopback port, answering 200.
    pub fn start() -> Receiver {
        Receiver::start_on("127.0.0.1:0".parse().unwrap())
    }

    /// A receiver on `addr` (to come back on the port of one that stopped).
    pub fn start_on(addr: SocketAddr) -> Receiver {
        let listener = bind(addr);
        let addr = listener.local_addr().unwrap();
        let shared = Arc::new(Shared {
            received: Mutex::new(Vec::new()),
            answer: Mutex::new(Answer::Status(200)),
            stop: AtomicBool::new(false),
        });
        let s = shared.clone();
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                if s.stop.load(Ordering::SeqCst) {
                    return;
                }
                if let Ok(conn) = conn {
                    let s = s.clone();
                    std::thread::spawn(move || serve(conn, &s));
                }
            }
        });
        Receiver { addr, shared }
    }

    /// `http://127.0.0.1:PORT/path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub fn answer(&self, a: Answer) {
        *self.shared.answer.lock().unwrap() = a;
    }

    pub fn received(&self) -> Vec<Received> {
        self.shared.received.lock().unwrap().clone()
    }

    /// Waits until `pred` holds for what was received (at most `timeout`), then returns it.
    pub fn wait_for(&self, timeout: Duration, pred: impl Fn(&[Received]) -> bool) -> Vec<Received> {
        let deadline = Instant::now() + timeout;
        loop {
            let got = self.received();
            if pred(&got) {
                return got;
            }
            assert!(
                Instant::now() < deadline,
                "the receiver did not get what was expected within {timeout:?}; it got {} requests: {:?}",
                got.len(),
                got.iter()
                    .map(|r| r.header("webhook-id").to_string())
                    .collect::<Vec<_>>()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Stops listening: later connections are refused.
    pub fn stop(self) -> SocketAddr {
        self.shared.stop.store(true, Ordering::SeqCst);
        // Wakes the accept loop so it sees the flag and drops the listener.
        let _ = TcpStream::connect(self.addr);
        std::thread::sleep(Duration::from_millis(50));
        self.addr
    }
}

fn bind(addr: SocketAddr) -> TcpListener {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match TcpListener::bind(addr) {
            Ok(l) => return l,
            Err(e) if Instant::now() < deadline => {
                let _ = e;
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => panic!("cannot bind the receiver on {addr}: {e}"),
        }
    }
}

fn serve(conn: TcpStream, s: &Shared) {
    let _ = conn.set_read_timeout(Some(Duration::from_secs(10)));
    let mut reader = BufReader::new(conn.try_clone().expect("clone the connection"));
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    let path = line.split(' ').nth(1).unwrap_or("").to_string();
    let mut headers = HashMap::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).unwrap_or(0) == 0 {
            return;
        }
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((name, value)) = h.split_once(':') {
            headers.insert(name.trim().to_ascii_lowercase(), value.trim().to_string());
        }
    }
    let len: usize = headers
        .get("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0u8; len];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    if s.stop.load(Ordering::SeqCst) {
        return;
    }
    s.received.lock().unwrap().push(Received {
        path,
        headers,
        body,
    });
    let answer = *s.answer.lock().unwrap();
    let status = match answer {
        Answer::Status(status) => status,
        Answer::Sleep(d) => {
            std::thread::sleep(d);
            200
        }
    };
    let mut conn = conn;
    let _ = write!(
        conn,
        "HTTP/1.1 {status} X\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok"
    );
}

/// HMAC-SHA256 (RFC 2104) over SHA-256 (64-byte blocks).
pub fn hmac_sha256(key: &[u8], msg: &[u8]) -> [u8; 32] {
    let mut block = [0u8; 64];
    if key.len() > 64 {
        block[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let pad = |byte: u8| block.map(|b| b ^ byte);
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(msg)
        .finalize();
    Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize()
        .into()
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding (RFC 4648).
pub fn base64(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(B64[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

pub fn unbase64(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in text.bytes().filter(|c| *c != b'=') {
        let v = B64
            .iter()
            .position(|b| *b == c)
            .expect("a base64 character") as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

/// Whether one of the `v1,` signatures of `r` is `secret`'s (`whsec_` + base64) over
/// `{webhook-id}.{webhook-timestamp}.{body}`, as Standard Webhooks specifies.
pub fn signed_by(r: &Received, secret: &str) -> bool {
    let key = unbase64(secret.strip_prefix("whsec_").expect("a whsec_ secret"));
    let mut msg = format!(
        "{}.{}.",
        r.header("webhook-id"),
        r.header("webhook-timestamp")
    )
    .into_bytes();
    msg.extend_from_slice(&r.body);
    let want = format!("v1,{}", base64(&hmac_sha256(&key, &msg)));
    r.header("webhook-signature").split(' ').any(|s| s == want)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_standard_webhooks_example() {
        // The example signature of the Standard Webhooks specification's reference libraries.
        let r = Received {
            path: "/".into(),
            headers: HashMap::from([
                ("webhook-id".into(), "msg_p5jXN8AQM9LWM0D4loKWxJek".into()),
                ("webhook-timestamp".into(), "1614265330".into()),
                (
                    "webhook-signature".into(),
                    "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=".into(),
                ),
            ]),
            body: br#"{"test": 2432232314}"#.to_vec(),
        };
        assert!(signed_by(&r, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));
        assert!(!signed_by(&r, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSx"));
        assert_eq!(base64(b"ab"), "YWI=");
        assert_eq!(unbase64("YWI="), b"ab");
    }
}
