//! The one HTTP/1.1 server the tests start on 127.0.0.1 to stand for what the service calls out to
//! (webhook receivers, decision endpoints): a thread per connection, keep-alive, content-length
//! and chunked bodies; it records every request and answers as the test's closure says.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::Value;

/// One request the server got.
#[derive(Debug, Clone)]
pub struct Received {
    pub method: String,
    pub path: String,
    /// Lower-case names, in arrival order.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Received {
    /// The header's value; empty when it is absent.
    pub fn header(&self, name: &str) -> &str {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map_or("", |(_, v)| v.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }
}

/// How to answer one request.
#[derive(Debug, Clone)]
pub enum Reply {
    /// `status` with a JSON `body`, after `delay`.
    Answer {
        status: u16,
        body: String,
        delay: Duration,
    },
    /// Accept the request and answer nothing for this long, then close.
    Hang(Duration),
}

type Handler = dyn Fn(&Received) -> Reply + Send + Sync;

struct Shared {
    received: Mutex<Vec<Received>>,
    stop: AtomicBool,
    /// Answer `connection: close` and end each connection after one request.
    close: bool,
}

pub struct Server {
    pub addr: SocketAddr,
    shared: Arc<Shared>,
}

impl Server {
    /// Listens on `addr` (port 0: a free one; a port a stopped server had: waits until it is free)
    /// and answers each request with `handler`; with `keep_alive` a connection serves one request
    /// after another, else each answer closes it.
    pub fn start_on(
        addr: SocketAddr,
        keep_alive: bool,
        handler: impl Fn(&Received) -> Reply + Send + Sync + 'static,
    ) -> Server {
        let listener = bind(addr);
        let addr = listener.local_addr().expect("the listener's address");
        let shared = Arc::new(Shared {
            received: Mutex::new(Vec::new()),
            stop: AtomicBool::new(false),
            close: !keep_alive,
        });
        let handler: Arc<Handler> = Arc::new(handler);
        let s = shared.clone();
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                if s.stop.load(Ordering::SeqCst) {
                    return;
                }
                if let Ok(conn) = conn {
                    let (s, handler) = (s.clone(), handler.clone());
                    std::thread::spawn(move || serve(conn, &s, &*handler));
                }
            }
        });
        Server { addr, shared }
    }

    /// Every request so far, in arrival order.
    pub fn received(&self) -> Vec<Received> {
        lock(&self.shared.received).clone()
    }

    /// Waits until `pred` holds for what was received (at most `timeout`): `Ok` with it, or `Err`
    /// with what came by the deadline.
    pub fn poll_for(
        &self,
        timeout: Duration,
        pred: impl Fn(&[Received]) -> bool,
    ) -> Result<Vec<Received>, Vec<Received>> {
        let deadline = Instant::now() + timeout;
        loop {
            let got = self.received();
            if pred(&got) {
                return Ok(got);
            }
            if Instant::now() >= deadline {
                return Err(got);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until `pred` holds for what was received (at most `timeout`), then returns it; panics
    /// at the deadline.
    pub fn wait_for(&self, timeout: Duration, pred: impl Fn(&[Received]) -> bool) -> Vec<Received> {
        self.poll_for(timeout, pred).unwrap_or_else(|got| {
            panic!(
                "the loopback server did not get what was expected within {timeout:?}; it got {} requests: {:?}",
                got.len(),
                got.iter()
                    .map(|r| r.header("webhook-id").to_string())
                    .collect::<Vec<_>>()
            )
        })
    }

    /// Stops listening: later connections are refused, requests in flight go unrecorded.
    pub fn stop(self) -> SocketAddr {
        self.shared.stop.store(true, Ordering::SeqCst);
        // Wakes the accept loop so it sees the flag and drops the listener.
        let _ = TcpStream::connect(self.addr);
        std::thread::sleep(Duration::from_millis(50));
        self.addr
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn bind(addr: SocketAddr) -> TcpListener {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match TcpListener::bind(addr) {
            Ok(l) => return l,
            Err(_) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => panic!("cannot bind a loopback server on {addr}: {e}"),
        }
    }
}

fn serve(stream: TcpStream, s: &Shared, handler: &Handler) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
    let Ok(clone) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(clone);
    let mut stream = stream;
    // Keep-alive: one request after another until the client closes.
    while let Some(request) = read_request(&mut reader) {
        if s.stop.load(Ordering::SeqCst) {
            return;
        }
        lock(&s.received).push(request.clone());
        match handler(&request) {
            Reply::Answer {
                status,
                body,
                delay,
            } => {
                std::thread::sleep(delay);
                let close = if s.close { "connection: close\r\n" } else { "" };
                let head = format!(
                    "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\n{close}\r\n",
                    body.len()
                );
                if stream.write_all(head.as_bytes()).is_err()
                    || stream.write_all(body.as_bytes()).is_err()
                    || s.close
                {
                    return;
                }
            }
            Reply::Hang(time) => {
                std::thread::sleep(time);
                return;
            }
        }
    }
}

/// One request, or None when the connection ends (or breaks) first.
fn read_request(reader: &mut impl BufRead) -> Option<Received> {
    let mut line = String::new();
    if reader.read_line(&mut line).ok()? == 0 {
        return None;
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or_default().to_string();
    let path = parts.next().unwrap_or_default().to_string();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).ok()? == 0 {
            return None;
        }
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let mut request = Received {
        method,
        path,
        headers,
        body: Vec::new(),
    };
    request.body = if request
        .header("transfer-encoding")
        .eq_ignore_ascii_case("chunked")
    {
        read_chunked(reader)?
    } else {
        let mut body = vec![0; request.header("content-length").parse().unwrap_or(0)];
        reader.read_exact(&mut body).ok()?;
        body
    };
    Some(request)
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
