//! `fixed-rate`: sends one request at a constant rate over keep-alive HTTP/1.1 connections and
//! reports latency percentiles. Latency counts from the moment each request was due, not from when
//! it was sent, so a server that stalls is charged for every request it held up (no coordinated
//! omission, unlike a closed-loop tool such as wrk).
//!
//! Usage: fixed-rate URL --rate N [--connections 64] [--seconds 10] [--method POST]
//!        [--header 'name: value']... [--body TEXT]
//! Prints one line: `rate R sent N ok N non-2xx N errors N p50 X p99 X max X ms`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::ExitCode;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

struct Args {
    host: String,
    path: String,
    rate: f64,
    connections: usize,
    seconds: f64,
    method: String,
    headers: Vec<String>,
    body: String,
}

fn parse() -> Result<Args, String> {
    let mut args = std::env::args().skip(1);
    let mut url = None;
    let mut out = Args {
        host: String::new(),
        path: String::new(),
        rate: 0.0,
        connections: 64,
        seconds: 10.0,
        method: "GET".into(),
        headers: Vec::new(),
        body: String::new(),
    };
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--rate" => {
                out.rate = value("--rate")?
                    .parse()
                    .map_err(|e| format!("--rate: {e}"))?
            }
            "--connections" => {
                out.connections = value("--connections")?
                    .parse()
                    .map_err(|e| format!("--connections: {e}"))?;
            }
            "--seconds" => {
                out.seconds = value("--seconds")?
                    .parse()
                    .map_err(|e| format!("--seconds: {e}"))?;
            }
            "--method" => out.method = value("--method")?,
            "--header" => out.headers.push(value("--header")?),
            "--body" => out.body = value("--body")?,
            _ if url.is_none() => url = Some(a),
            _ => return Err(format!("unexpected argument {a}")),
        }
    }
    let url = url.ok_or("a URL is needed")?;
    let rest = url
        .strip_prefix("http://")
        .ok_or("only http:// URLs are supported")?;
    let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    out.host = host.to_string();
    out.path = if path.is_empty() {
        "/".into()
    } else {
        path.into()
    };
    if out.rate <= 0.0 || out.connections == 0 {
        return Err("--rate and --connections must be positive".into());
    }
    Ok(out)
}

/// One connection's results: latencies in µs, and counts.
#[derive(Default)]
struct Tally {
    latencies: Vec<u32>,
    ok: u64,
    non_2xx: u64,
    errors: u64,
}

fn request_bytes(a: &Args) -> Vec<u8> {
    let mut head = format!("{} {} HTTP/1.1\r\nhost: {}\r\n", a.method, a.path, a.host);
    for h in &a.headers {
        head.push_str(h);
        head.push_str("\r\n");
    }
    if !a.body.is_empty() || a.method != "GET" {
        head.push_str(&format!("content-length: {}\r\n", a.body.len()));
    }
    head.push_str("\r\n");
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(a.body.as_bytes());
    bytes
}

/// Reads one response; its status.
fn read_response(r: &mut BufReader<TcpStream>) -> std::io::Result<u16> {
    let mut line = String::new();
    r.read_line(&mut line)?;
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("bad status line {line:?}")))?;
    let mut length = 0usize;
    loop {
        line.clear();
        if r.read_line(&mut line)? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((name, value)) = l.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    r.read_exact(&mut body)?;
    Ok(status)
}

fn connect(host: &str) -> std::io::Result<(TcpStream, BufReader<TcpStream>)> {
    let s = TcpStream::connect(host)?;
    s.set_nodelay(true)?;
    let r = BufReader::new(s.try_clone()?);
    Ok((s, r))
}

/// Connection `i` of `n` sends requests due at `start + (k * n + i) / rate`.
fn drive(a: &Args, req: &[u8], i: usize, start: Instant) -> Tally {
    let mut t = Tally::default();
    let period = Duration::from_secs_f64(a.connections as f64 / a.rate);
    let first = Duration::from_secs_f64(i as f64 / a.rate);
    let end = start + Duration::from_secs_f64(a.seconds);
    let mut conn = None;
    let mut due = start + first;
    while due < end {
        let now = Instant::now();
        if due > now {
            thread::sleep(due - now);
        }
        if conn.is_none() {
            conn = connect(&a.host).ok();
        }
        let result = match conn.as_mut() {
            Some((w, r)) => w.write_all(req).and_then(|()| read_response(r)),
            None => Err(std::io::ErrorKind::NotConnected.into()),
        };
        match result {
            Ok(status) => {
                let us = due.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
                t.latencies.push(us);
                if (200..300).contains(&status) {
                    t.ok += 1;
                } else {
                    t.non_2xx += 1;
                }
            }
            Err(_) => {
                t.errors += 1;
                conn = None;
            }
        }
        due += period;
    }
    t
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    f64::from(sorted[i]) / 1000.0
}

fn main() -> ExitCode {
    let a = match parse() {
        Ok(a) => Arc::new(a),
        Err(e) => {
            eprintln!("fixed-rate: {e}");
            return ExitCode::from(2);
        }
    };
    let req = Arc::new(request_bytes(&a));
    // The threads start together a moment from now.
    let start = Instant::now() + Duration::from_millis(100);
    let threads: Vec<_> = (0..a.connections)
        .map(|i| {
            let (a, req) = (a.clone(), req.clone());
            thread::spawn(move || drive(&a, &req, i, start))
        })
        .collect();
    let mut all = Tally::default();
    for t in threads {
        let t = t.join().unwrap_or_default();
        all.latencies.extend(t.latencies);
        all.ok += t.ok;
        all.non_2xx += t.non_2xx;
        all.errors += t.errors;
    }
    all.latencies.sort_unstable();
    let sent = all.latencies.len() as u64 + all.errors;
    println!(
        "rate {:.0} sent {} ok {} non-2xx {} errors {} p50 {:.2} p99 {:.2} max {:.2} ms",
        a.rate,
        sent,
        all.ok,
        all.non_2xx,
        all.errors,
        percentile(&all.latencies, 0.50),
        percentile(&all.latencies, 0.99),
        all.latencies.last().map_or(0.0, |m| f64::from(*m) / 1000.0),
    );
    ExitCode::SUCCESS
}
