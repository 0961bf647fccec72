//! `fixed-rate`: sends one request at a constant rate over keep-alive HTTP/1.1 connections and
//! reports latency percentiles. Latency counts from the moment each request was due, not from when
//! it was sent, so a server that stalls is charged for every request it held up (no coordinated
//! omission, unlike a closed-loop tool such as wrk).
//!
//! An event loop (mio's epoll) per thread, not a thread per connection: request `k` is due at
//! `start + k / rate`; when it is due it goes out on an idle connection, and while every connection
//! is busy it waits, charged from its due time all the same. One periodic timer (a timerfd ticking
//! at the due times but no more often than `--tick`, for sub-millisecond precision: epoll's own
//! timeout counts whole milliseconds) wakes the loop; everything due by then goes out in that one
//! wake, each request still charged from its own due time. Responses are read with a minimal
//! parser (status line, `content-length`). Both keep the generator's CPU low, which the server under
//! test shares: on two cores at 21,000 requests/s a wake per request (a 100 µs tick) cost 14 µs of
//! CPU a request, the default 500 µs tick 7 to 8, wrk 11.6 (docs/benchmarks.md, "The generator's
//! tick").
//!
//! The schedule starts once every connection is open: a connect that waits (a SYN a full listen
//! backlog dropped waits a second for its retransmit) is not charged to the requests.
//!
//! Usage: fixed-rate URL --rate N [--connections 64] [--seconds 10] [--threads 1] [--tick 500us]
//!        [--method POST] [--header 'name: value']... [--body TEXT] [--timeline FILE]
//! Prints one line: `rate R sent N ok N non-2xx N errors N p50 X p99 X max X ms`, and on stderr
//! the generator's own delay (a request due and a connection free, but not yet sent: the
//! generator had no CPU; included in the latencies). `--timeline FILE` also writes, for every 10 ms
//! of due times, the requests due then and their slowest latency, each line starting with the
//! wall-clock time (Unix ms), to line a stall up with the server's own log.

use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::process::ExitCode;
use std::sync::{Arc, Barrier, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

use mio::net::TcpStream;
use mio::unix::SourceFd;
use mio::{Events, Interest, Poll, Token};
use rustix::time::{
    Itimerspec, TimerfdClockId, TimerfdFlags, TimerfdTimerFlags, Timespec, timerfd_create,
    timerfd_settime,
};

struct Args {
    host: String,
    path: String,
    rate: f64,
    connections: usize,
    seconds: f64,
    threads: usize,
    /// The least time between two of the timer's wakes.
    tick: Duration,
    method: String,
    headers: Vec<String>,
    body: String,
    timeline: Option<String>,
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut url = None;
    let mut out = Args {
        host: String::new(),
        path: String::new(),
        rate: 0.0,
        connections: 64,
        seconds: 10.0,
        threads: 1,
        tick: DEFAULT_TICK,
        method: "GET".into(),
        headers: Vec::new(),
        body: String::new(),
        timeline: None,
    };
    fn number<T: std::str::FromStr>(name: &str, v: Option<String>) -> Result<T, String>
    where
        T::Err: std::fmt::Display,
    {
        v.ok_or(format!("{name} needs a value"))?
            .parse()
            .map_err(|e| format!("{name}: {e}"))
    }
    /// `500us` or `2ms`.
    fn duration(name: &str, v: Option<String>) -> Result<Duration, String> {
        let v = v.ok_or(format!("{name} needs a value"))?;
        let whole = |n: &str| n.parse::<u64>().ok();
        let d = match (v.strip_suffix("us"), v.strip_suffix("ms")) {
            (Some(n), _) => whole(n).map(Duration::from_micros),
            (_, Some(n)) => whole(n).map(Duration::from_millis),
            _ => None,
        };
        d.ok_or(format!("{name}: {v}: a whole number and us or ms"))
    }
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rate" => out.rate = number("--rate", args.next())?,
            "--connections" => out.connections = number("--connections", args.next())?,
            "--seconds" => out.seconds = number("--seconds", args.next())?,
            "--threads" => out.threads = number("--threads", args.next())?,
            "--tick" => out.tick = duration("--tick", args.next())?,
            "--method" => out.method = args.next().ok_or("--method needs a value")?,
            "--header" => out
                .headers
                .push(args.next().ok_or("--header needs a value")?),
            "--body" => out.body = args.next().ok_or("--body needs a value")?,
            "--timeline" => out.timeline = Some(args.next().ok_or("--timeline needs a file")?),
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
    if out.rate <= 0.0 || out.connections == 0 || out.threads == 0 || out.tick.is_zero() {
        return Err("--rate, --connections, --threads and --tick must be positive".into());
    }
    // Every thread drives at least one connection.
    out.threads = out.threads.min(out.connections);
    Ok(out)
}

/// Results: latencies in µs, and counts.
#[derive(Default)]
struct Tally {
    latencies: Vec<u32>,
    /// How late each request went out after it was due and a connection was free (µs): the
    /// generator's own delay (it had no CPU), which the latencies include. Waiting for a free
    /// connection (the server is slow) is not counted here.
    late: Vec<u32>,
    /// Each answered request's due time (ms from the start) and latency (µs), for `--timeline`.
    timeline: Vec<(u32, u32)>,
    ok: u64,
    non_2xx: u64,
    errors: u64,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.latencies.extend(other.latencies);
        self.late.extend(other.late);
        self.timeline.extend(other.timeline);
        self.ok += other.ok;
        self.non_2xx += other.non_2xx;
        self.errors += other.errors;
    }
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

/// What the bytes read so far hold.
#[derive(Debug, PartialEq, Eq)]
enum Parsed {
    /// Not a whole response yet.
    Partial,
    /// A whole response of `len` bytes (head and body) with this status.
    Done { status: u16, len: usize },
    /// Not a response this tool can read (a chunked body, a bad status line).
    Bad(&'static str),
}

/// Reads one response from the start of `buf`: the status line and `content-length` only (a
/// response without one has no body: every server under test sends it).
fn parse_response(buf: &[u8]) -> Parsed {
    let Some(head_end) = buf.windows(4).position(|w| w == b"\r\n\r\n") else {
        // A head this long without its end is not a response.
        return if buf.len() > 64 * 1024 {
            Parsed::Bad("response head too long")
        } else {
            Parsed::Partial
        };
    };
    let head = &buf[..head_end];
    let mut lines = head.split(|b| *b == b'\n');
    let status_line = lines.next().unwrap_or_default();
    // "HTTP/1.1 201 Created"
    let status = match status_line {
        [b'H', b'T', b'T', b'P', b'/', _, b'.', _, b' ', a, b, c, ..]
            if [a, b, c].iter().all(|d| d.is_ascii_digit()) =>
        {
            u16::from(a - b'0') * 100 + u16::from(b - b'0') * 10 + u16::from(c - b'0')
        }
        _ => return Parsed::Bad("bad status line"),
    };
    let mut length = 0usize;
    for line in lines {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let Some(colon) = line.iter().position(|b| *b == b':') else {
            continue;
        };
        let (name, value) = (&line[..colon], line[colon + 1..].trim_ascii());
        if name.eq_ignore_ascii_case(b"content-length") {
            match std::str::from_utf8(value).ok().and_then(|v| v.parse().ok()) {
                Some(n) => length = n,
                None => return Parsed::Bad("bad content-length"),
            }
        } else if name.eq_ignore_ascii_case(b"transfer-encoding") {
            return Parsed::Bad("chunked responses are not supported");
        }
    }
    let len = head_end + 4 + length;
    if buf.len() < len {
        Parsed::Partial
    } else {
        Parsed::Done { status, len }
    }
}

/// When each request of one thread is due: this thread sends requests `first`, `first + step`,
/// ... of the whole run, request `k` due at `start + k / rate`, those due before `end`.
struct Schedule {
    start: Instant,
    /// Seconds between requests of the whole run.
    period: f64,
    step: u64,
    /// The next request of this thread not yet sent.
    next: u64,
    end: Instant,
}

impl Schedule {
    fn new(start: Instant, rate: f64, seconds: f64, first: u64, step: u64) -> Schedule {
        Schedule {
            start,
            period: 1.0 / rate,
            step,
            next: first,
            end: start + Duration::from_secs_f64(seconds),
        }
    }

    /// When request `next` is due; None once the run's end is reached.
    fn due(&self) -> Option<Instant> {
        let at = self.start + Duration::from_secs_f64(self.next as f64 * self.period);
        (at < self.end).then_some(at)
    }

    fn advance(&mut self) {
        self.next += self.step;
    }

    /// Time between this thread's requests.
    fn every(&self) -> Duration {
        Duration::from_secs_f64(self.period * self.step as f64)
    }
}

/// The one timer the loop waits on: a periodic timerfd that ticks at this thread's due times
/// (never faster than `--tick`), armed once, so waiting for the next due request costs no
/// syscall of its own; a tick is read (its count cleared) when it wakes the loop, or epoll, edge-
/// triggered, would not report the next.
struct Timer {
    fd: OwnedFd,
}

/// `--tick`'s default: above 2,000 requests/s a thread a tick sends several requests, each at
/// most this late (a twentieth of the 10 ms p99 the write benchmark's goal allows), charged to
/// the latencies.
const DEFAULT_TICK: Duration = Duration::from_micros(500);

impl Timer {
    /// Ticks at `first`, then every `every` (at least `tick`).
    fn new(first: Instant, every: Duration, tick: Duration) -> io::Result<Timer> {
        let fd = timerfd_create(
            TimerfdClockId::Monotonic,
            TimerfdFlags::NONBLOCK | TimerfdFlags::CLOEXEC,
        )?;
        let spec = |d: Duration| Timespec {
            tv_sec: d.as_secs() as _,
            tv_nsec: d.subsec_nanos() as _,
        };
        let spec = Itimerspec {
            it_interval: spec(every.max(tick)),
            // A zero it_value disarms: wait at least a nanosecond.
            it_value: spec(
                first
                    .saturating_duration_since(Instant::now())
                    .max(Duration::from_nanos(1)),
            ),
        };
        timerfd_settime(&fd, TimerfdTimerFlags::empty(), &spec)?;
        Ok(Timer { fd })
    }

    fn raw(&self) -> RawFd {
        self.fd.as_raw_fd()
    }

    /// It ticked: clears the count (EAGAIN, no tick, is fine).
    fn ticked(&self) {
        let mut count = [0u8; 8];
        let _ = rustix::io::read(&self.fd, &mut count);
    }
}

struct Conn {
    stream: TcpStream,
    /// The due time of the request out on it, if one is.
    due: Option<Instant>,
    /// Bytes of the request not yet written.
    unsent: usize,
    read: Vec<u8>,
    /// Since when it has been idle (as the loop saw it).
    idle_since: Instant,
}

const TIMER: Token = Token(usize::MAX);

/// A request this close to due goes out now: the timer's ticks and the due times are computed
/// apart and may differ by a rounding, and waiting a whole tick for it would be worse.
const EARLY: Duration = Duration::from_micros(2);

/// How long after the run's end the last responses may take before they count as errors.
const DRAIN: Duration = Duration::from_secs(30);

fn connect(host: &str) -> io::Result<TcpStream> {
    // Blocking connect (to a local server: quick), then non-blocking use.
    let s = std::net::TcpStream::connect(host)?;
    s.set_nodelay(true)?;
    s.set_nonblocking(true)?;
    Ok(TcpStream::from_std(s))
}

struct Driver<'a> {
    /// With `--timeline`, the schedule's start: each answer's due time is kept from it.
    timeline_from: Option<Instant>,
    host: &'a str,
    req: &'a [u8],
    poll: Poll,
    conns: Vec<Conn>,
    /// Connections with no request out.
    /// Oldest first: each request goes on the connection idle longest, so every connection
    /// carries its share (a server may tie a connection to one of its threads).
    idle: VecDeque<usize>,
    tally: Tally,
}

impl Driver<'_> {
    /// Sends the request due at `due` on idle connection `c`.
    fn send(&mut self, c: usize, due: Instant) {
        let conn = &mut self.conns[c];
        let sendable = due.max(conn.idle_since);
        let late = sendable.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
        self.tally.late.push(late);
        conn.due = Some(due);
        conn.unsent = self.req.len();
        self.write(c);
    }

    /// Writes what is left of connection `c`'s request (the rest when it is writable again).
    fn write(&mut self, c: usize) {
        let conn = &mut self.conns[c];
        while conn.unsent > 0 {
            let from = self.req.len() - conn.unsent;
            match conn.stream.write(&self.req[from..]) {
                Ok(0) => return self.broken(c),
                Ok(n) => conn.unsent -= n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => return self.broken(c),
            }
        }
    }

    /// Reads what connection `c` has; a whole response completes its request.
    fn read(&mut self, c: usize) {
        let mut chunk = [0u8; 16 * 1024];
        loop {
            let conn = &mut self.conns[c];
            match conn.stream.read(&mut chunk) {
                Ok(0) => return self.broken(c),
                // Less than asked for: the socket is empty now (no read to hear WouldBlock).
                Ok(n) if n < chunk.len() => {
                    conn.read.extend_from_slice(&chunk[..n]);
                    break;
                }
                Ok(n) => conn.read.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => return self.broken(c),
            }
        }
        let conn = &mut self.conns[c];
        let Some(due) = conn.due else {
            // Bytes nobody asked for.
            if !conn.read.is_empty() {
                self.broken(c);
            }
            return;
        };
        match parse_response(&conn.read) {
            Parsed::Partial => {}
            Parsed::Bad(_) => self.broken(c),
            Parsed::Done { status, len } => {
                conn.read.drain(..len);
                conn.due = None;
                conn.idle_since = Instant::now();
                let us = due.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
                self.tally.latencies.push(us);
                if let Some(start) = self.timeline_from {
                    let at = due.saturating_duration_since(start).as_millis() as u32;
                    self.tally.timeline.push((at, us));
                }
                if (200..300).contains(&status) {
                    self.tally.ok += 1;
                } else {
                    self.tally.non_2xx += 1;
                }
                self.idle.push_back(c);
            }
        }
    }

    /// Connection `c` failed: its request (if one was out) is an error; a new connection replaces it.
    fn broken(&mut self, c: usize) {
        let conn = &mut self.conns[c];
        // An idle connection (closed by the server) is in the idle list already.
        let was_busy = conn.due.take().is_some();
        if was_busy {
            self.tally.errors += 1;
        }
        let _ = self.poll.registry().deregister(&mut conn.stream);
        conn.read.clear();
        conn.unsent = 0;
        let registry = self.poll.registry();
        let replaced = connect(self.host).and_then(|mut s| {
            registry.register(&mut s, Token(c), Interest::READABLE | Interest::WRITABLE)?;
            Ok(s)
        });
        match replaced {
            Ok(s) => {
                conn.stream = s;
                conn.idle_since = Instant::now();
                if was_busy {
                    self.idle.push_back(c);
                }
            }
            // Fewer connections from now on.
            Err(_) => self.idle.retain(|i| *i != c),
        }
    }

    fn busy(&self) -> usize {
        self.conns.len() - self.idle.len()
    }
}

/// When the threads start sending, agreed once every thread has connected: a connect that waits
/// (a SYN the server's full backlog dropped waits a second) must not count against the requests.
struct Start {
    connected: Barrier,
    at: OnceLock<(Instant, u64)>,
}

impl Start {
    /// Waits for every thread's connections, then the start (a moment from now) and its
    /// wall-clock time in Unix ms, the same for every thread.
    fn after_connecting(&self) -> (Instant, u64) {
        self.connected.wait();
        *self.at.get_or_init(|| {
            let lead = Duration::from_millis(20);
            let wall = (std::time::SystemTime::now() + lead)
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as u64);
            (Instant::now() + lead, wall)
        })
    }
}

/// `connections` connections to `host`, registered with a new poll.
fn connect_all(host: &str, connections: usize) -> io::Result<(Poll, Vec<Conn>)> {
    let poll = Poll::new()?;
    let mut conns = Vec::with_capacity(connections);
    for i in 0..connections {
        let mut stream = connect(host)?;
        poll.registry().register(
            &mut stream,
            Token(i),
            Interest::READABLE | Interest::WRITABLE,
        )?;
        conns.push(Conn {
            stream,
            due: None,
            unsent: 0,
            read: Vec::new(),
            idle_since: Instant::now(),
        });
    }
    Ok((poll, conns))
}

/// One thread's run: `connections` connections, its share of the schedule.
fn drive(
    host: &str,
    req: &[u8],
    connections: usize,
    schedule: impl FnOnce(Instant) -> Schedule,
    tick: Duration,
    start: &Start,
    timeline: bool,
) -> io::Result<Tally> {
    let connected = connect_all(host, connections);
    // Every thread reaches the barrier, one that failed to connect too (the others would wait).
    let at = start.after_connecting().0;
    let (poll, conns) = connected?;
    let mut schedule = schedule(at);
    let first = schedule.due().unwrap_or(schedule.end);
    let timer = Timer::new(first, schedule.every(), tick)?;
    poll.registry()
        .register(&mut SourceFd(&timer.raw()), TIMER, Interest::READABLE)?;
    let mut d = Driver {
        timeline_from: timeline.then_some(schedule.start),
        host,
        req,
        poll,
        idle: (0..connections).collect(),
        conns,
        tally: Tally::default(),
    };
    let mut events = Events::with_capacity(1024);
    let drain_until = schedule.end + DRAIN;
    loop {
        let now = Instant::now();
        // Everything due goes out now, one request per idle connection; what finds none waits
        // (its latency still counts from its due time).
        while let Some(due) = schedule.due()
            && due <= now + EARLY
            && let Some(c) = d.idle.pop_front()
        {
            d.send(c, due);
            schedule.advance();
        }
        let next = schedule.due();
        if next.is_none() && d.busy() == 0 {
            break;
        }
        if next.is_none() && now >= drain_until {
            d.tally.errors += d.busy() as u64;
            break;
        }
        let wait = next
            .is_none()
            .then(|| drain_until.saturating_duration_since(now));
        match d.poll.poll(&mut events, wait) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
        for e in events.iter() {
            if e.token() == TIMER {
                timer.ticked();
                continue;
            }
            let c = e.token().0;
            if e.is_writable() && d.conns[c].unsent > 0 {
                d.write(c);
            }
            if e.is_readable() || e.is_read_closed() || e.is_error() {
                d.read(c);
            }
        }
    }
    Ok(d.tally)
}

/// The whole run: threads of their own connections, request `k` on thread `k % threads`.
/// Also the start's wall-clock time, in Unix ms.
fn run(a: &Args) -> io::Result<(Tally, u64)> {
    let req = Arc::new(request_bytes(a));
    let start = Arc::new(Start {
        connected: Barrier::new(a.threads),
        at: OnceLock::new(),
    });
    let threads: Vec<_> = (0..a.threads)
        .map(|t| {
            let host = a.host.clone();
            let req = req.clone();
            // Connections split as evenly as they go.
            let conns = a.connections / a.threads + usize::from(t < a.connections % a.threads);
            let (rate, seconds, threads, tick) = (a.rate, a.seconds, a.threads as u64, a.tick);
            let schedule = move |at| Schedule::new(at, rate, seconds, t as u64, threads);
            let timeline = a.timeline.is_some();
            let start = start.clone();
            thread::spawn(move || drive(&host, &req, conns, schedule, tick, &start, timeline))
        })
        .collect();
    let mut all = Tally::default();
    for t in threads {
        all.add(
            t.join()
                .map_err(|_| io::Error::other("a thread panicked"))??,
        );
    }
    all.latencies.sort_unstable();
    all.late.sort_unstable();
    let wall = start.at.get().map_or(0, |&(_, wall)| wall);
    Ok((all, wall))
}

/// `--timeline`: per 10 ms of due times, `unix_ms offset_ms requests max_ms`.
fn write_timeline(path: &str, wall: u64, timeline: &[(u32, u32)]) -> io::Result<()> {
    const STEP: u32 = 10;
    let buckets = timeline
        .iter()
        .map(|(at, _)| at / STEP)
        .max()
        .map_or(0, |m| m + 1);
    let mut rows = vec![(0u32, 0u32); buckets as usize];
    for &(at, us) in timeline {
        let row = &mut rows[(at / STEP) as usize];
        row.0 += 1;
        row.1 = row.1.max(us);
    }
    let mut out = io::BufWriter::new(std::fs::File::create(path)?);
    for (i, (n, max)) in rows.iter().enumerate() {
        let at = i as u64 * u64::from(STEP);
        writeln!(
            out,
            "{} {at} {n} {:.2}",
            wall + at,
            f64::from(*max) / 1000.0
        )?;
    }
    out.flush()
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    f64::from(sorted[i]) / 1000.0
}

fn main() -> ExitCode {
    let a = match parse(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("fixed-rate: {e}");
            return ExitCode::from(2);
        }
    };
    let (all, wall) = match run(&a) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("fixed-rate: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(path) = &a.timeline
        && let Err(e) = write_timeline(path, wall, &all.timeline)
    {
        eprintln!("fixed-rate: {path}: {e}");
        return ExitCode::FAILURE;
    }
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
    // Beside the line scripts read: how much of that was the generator's own delay.
    eprintln!(
        "fixed-rate: own delay (due, a connection free, not yet sent) p50 {:.2} p99 {:.2} max {:.2} ms",
        percentile(&all.late, 0.50),
        percentile(&all.late, 0.99),
        all.late.last().map_or(0.0, |m| f64::from(*m) / 1000.0),
    );
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufRead;
    use std::net::TcpListener;

    /// A tally's µs in ms.
    fn ms(us: u32) -> f64 {
        f64::from(us) / 1000.0
    }

    #[test]
    fn parses_a_whole_response_and_waits_for_a_partial_one() {
        let r = b"HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\nhello";
        let whole = Parsed::Done {
            status: 201,
            len: r.len(),
        };
        assert_eq!(parse_response(r), whole);
        for cut in 0..r.len() {
            assert_eq!(parse_response(&r[..cut]), Parsed::Partial, "cut at {cut}");
        }
        // A pipelined next response is left for the next parse.
        let two = [r.as_slice(), b"HTTP/1.1 4"].concat();
        assert_eq!(parse_response(&two), whole);
        // No content-length: no body; a lower-case header name counts too.
        assert_eq!(
            parse_response(b"HTTP/1.1 204 No Content\r\n\r\n"),
            Parsed::Done {
                status: 204,
                len: 27
            }
        );
        assert_eq!(
            parse_response(b"HTTP/1.1 409 Conflict\r\ncontent-length:2\r\n\r\n{}"),
            Parsed::Done {
                status: 409,
                len: 45
            }
        );
    }

    #[test]
    fn the_timeline_has_a_line_per_10_ms_with_its_slowest() {
        let path = std::env::temp_dir().join(format!("fixed-rate-{}.timeline", std::process::id()));
        let path = path.to_str().unwrap();
        write_timeline(path, 1_000, &[(0, 1_000), (5, 3_000), (25, 2_000)]).unwrap();
        let text = std::fs::read_to_string(path).unwrap();
        std::fs::remove_file(path).unwrap();
        assert_eq!(text, "1000 0 2 3.00\n1010 10 0 0.00\n1020 20 1 2.00\n");
    }

    #[test]
    fn the_tick_is_read_in_microseconds_or_milliseconds() {
        let tick = |v: &str| {
            parse(
                [
                    "http://h/".to_string(),
                    "--rate".into(),
                    "1".into(),
                    "--tick".into(),
                    v.into(),
                ]
                .into_iter(),
            )
            .map(|a| a.tick)
        };
        assert_eq!(tick("250us"), Ok(Duration::from_micros(250)));
        assert_eq!(tick("2ms"), Ok(Duration::from_millis(2)));
        for bad in ["0us", "250", "1.5ms", "ms", "5s"] {
            assert!(tick(bad).is_err(), "{bad}");
        }
        let default = parse(["http://h/".to_string(), "--rate".into(), "1".into()].into_iter());
        assert_eq!(default.map(|a| a.tick), Ok(DEFAULT_TICK));
    }

    #[test]
    fn refuses_what_it_cannot_read() {
        assert!(matches!(
            parse_response(b"HTTX/1.1 200 OK\r\n\r\n"),
            Parsed::Bad(_)
        ));
        assert!(matches!(
            parse_response(b"HTTP/1.1 2x0 OK\r\n\r\n"),
            Parsed::Bad(_)
        ));
        assert!(matches!(
            parse_response(b"HTTP/1.1 200 OK\r\ncontent-length: -1\r\n\r\n"),
            Parsed::Bad(_)
        ));
        assert!(matches!(
            parse_response(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
            Parsed::Bad(_)
        ));
    }

    #[test]
    fn the_schedule_is_exact_and_split_between_threads() {
        let start = Instant::now();
        // 1,000/s for 0.1 s: requests 0..100, 1 ms apart; thread 1 of 3 sends 1, 4, 7, ...
        let mut s = Schedule::new(start, 1000.0, 0.1, 1, 3);
        let mut dues = Vec::new();
        while let Some(d) = s.due() {
            dues.push(d - start);
            s.advance();
        }
        assert_eq!(dues.len(), 33);
        assert_eq!(dues[0], Duration::from_millis(1));
        assert_eq!(dues[1], Duration::from_millis(4));
        assert_eq!(dues[32], Duration::from_millis(97));
    }

    /// A server that answers each request on each connection `delay` after reading it.
    fn slow_server(delay: Duration) -> String {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        thread::spawn(move || {
            for s in listener.incoming() {
                let Ok(s) = s else { return };
                thread::spawn(move || {
                    let mut w = s.try_clone().unwrap();
                    let mut r = io::BufReader::new(s);
                    let mut line = String::new();
                    loop {
                        // The request line and headers (GET: no body).
                        loop {
                            line.clear();
                            if r.read_line(&mut line).unwrap_or(0) == 0 {
                                return;
                            }
                            if line == "\r\n" {
                                break;
                            }
                        }
                        thread::sleep(delay);
                        if w.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok")
                            .is_err()
                        {
                            return;
                        }
                    }
                });
            }
        });
        addr
    }

    fn args(addr: &str, rate: f64, connections: usize, seconds: f64) -> Args {
        parse(
            [
                format!("http://{addr}/x"),
                "--rate".into(),
                rate.to_string(),
                "--connections".into(),
                connections.to_string(),
                "--seconds".into(),
                seconds.to_string(),
            ]
            .into_iter(),
        )
        .unwrap()
    }

    /// One connection, a request due every 5 ms, each answered 20 ms after it is sent: the
    /// requests queue behind each other. From its due time request k waits about 15k ms more
    /// than the one before; from its send time every one would take 20 ms.
    #[test]
    fn latency_counts_from_the_due_time_not_the_send_time() {
        let addr = slow_server(Duration::from_millis(20));
        let (t, _) = run(&args(&addr, 200.0, 1, 0.1)).unwrap();
        assert_eq!((t.ok, t.errors), (20, 0));
        let max_ms = ms(*t.latencies.last().unwrap());
        // The last (k = 19) waited about 19 * 15 ms before it was sent, then 20 ms.
        assert!(
            max_ms > 250.0,
            "max {max_ms} ms: counted from the send time"
        );
        // Waiting for the busy connection is the server's delay, not the generator's own.
        let own_ms = ms(*t.late.iter().max().unwrap());
        assert!(own_ms < 50.0, "own delay {own_ms} ms");
        let min_ms = ms(t.latencies[0]);
        assert!(min_ms >= 20.0, "min {min_ms} ms");
    }

    /// A tick longer than the requests' spacing sends them together when it wakes, each charged
    /// from its own due time: the first of each 20 ms goes out about 19 ms late.
    #[test]
    fn a_long_tick_sends_late_and_charges_the_wait() {
        let addr = slow_server(Duration::ZERO);
        let mut a = args(&addr, 1000.0, 32, 0.1);
        a.tick = Duration::from_millis(20);
        let (t, _) = run(&a).unwrap();
        assert_eq!((t.ok, t.errors), (100, 0));
        let own_ms = ms(*t.late.last().unwrap());
        let max_ms = ms(*t.latencies.last().unwrap());
        assert!(own_ms >= 15.0, "own delay {own_ms} ms: sent when due");
        assert!(max_ms >= own_ms, "max {max_ms} ms: not charged the wait");
    }

    /// Two threads share the schedule (every other request) and the connections: every request
    /// is sent once, none queues.
    #[test]
    fn threads_split_the_requests_between_them() {
        let addr = slow_server(Duration::from_millis(5));
        let mut a = args(&addr, 400.0, 6, 0.25);
        a.threads = 2;
        let (t, _) = run(&a).unwrap();
        assert_eq!((t.ok, t.errors), (100, 0));
        let max_ms = ms(*t.latencies.last().unwrap());
        assert!(max_ms < 40.0, "max {max_ms} ms");
    }

    /// With enough connections nothing queues: each request takes about the server's delay, and
    /// a request due while one connection is busy goes out on another.
    #[test]
    fn a_due_request_takes_an_idle_connection() {
        let addr = slow_server(Duration::from_millis(20));
        let (t, _) = run(&args(&addr, 200.0, 8, 0.2)).unwrap();
        assert_eq!((t.ok, t.errors), (40, 0));
        let max_ms = ms(*t.latencies.last().unwrap());
        assert!(
            max_ms < 60.0,
            "max {max_ms} ms: requests waited for a busy connection"
        );
    }
}
