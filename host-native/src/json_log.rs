//! The log's output: `--log-format json`, and the writer every log line of `serve` goes through.
//!
//! `--log-format json`: one object per line, the event's fields at the top level beside
//! `timestamp`, `level` and `target`, as tracing-subscriber's JSON format with `flatten_event` writes
//! them, but straight into the line's buffer: that format first collects the fields into a map of
//! `serde_json::Value`s, a handful of allocations for every request line. No spans are used, so none
//! are written.
//!
//! [`LogOut`]: where the lines go. Written as they came, a `write(2)` to stderr per request line
//! was the largest cost of logging (perf under `scripts/bench-ops`: about 7% of the server's time,
//! in ext4, against 2% formatting the line). `serve` gathers the lines in one buffer instead and a
//! log thread writes what gathered every [`GATHER`]: one `write(2)` for hundreds of lines. The
//! thread wakes only when lines wait (a request does no syscall to wake it: it is woken once per
//! gathering), so a busy server pays no context switch per line; an earlier non-blocking writer
//! (tracing-appender's channel, which wakes its thread for every line) measured slower than writing
//! directly. No line is dropped: past [`BUFFER_LIMIT`] the thread that logs writes the buffer out
//! itself. Warnings and errors are written at once, and [`flush`] (main, before exit) writes the rest.
//!
//! Leaf module: main installs it; it imports nothing of the crate.

use std::cell::Cell;
use std::fmt::{self, Write};
use std::io;
use std::sync::Mutex;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::Thread;
use std::time::Duration;

use tracing::field::{Field, Visit};
use tracing::{Event, Level, Metadata, Subscriber};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields, MakeWriter};
use tracing_subscriber::registry::LookupSpan;

pub struct Json;

impl<S, N> FormatEvent<S, N> for Json
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        _ctx: &FmtContext<'_, S, N>,
        mut w: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        let meta = event.metadata();
        w.write_str("{\"timestamp\":\"")?;
        timestamp(&mut w)?;
        w.write_str("\",\"level\":\"")?;
        w.write_str(meta.level().as_str())?;
        w.write_char('"')?;
        let mut fields = Fields {
            w: &mut w,
            result: Ok(()),
        };
        event.record(&mut fields);
        fields.result?;
        w.write_str(",\"target\":")?;
        string(&mut w, meta.target())?;
        w.write_str("}\n")
    }
}

/// The text format (the default): tracing-subscriber's `Full` format, whose every line it writes but
/// the request line (`server::handle`'s, one per request). That one it writes itself, the same
/// bytes cheaper: `Full` formats the date and time of day for every line, looks up the current span
/// and writes each piece through `fmt` with styles, about 4% of a server reading one card under
/// load (perf). With colours (a terminal) every line is `Full`'s.
#[derive(Default)]
pub struct Text {
    full: tracing_subscriber::fmt::format::Format,
}

/// The request line: the server's event with a `latency_ms` (`server::handle`).
fn is_request_line(meta: &Metadata<'_>) -> bool {
    meta.target() == "cards::server" && meta.fields().field("latency_ms").is_some()
}

impl<S, N> FormatEvent<S, N> for Text
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut w: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        let meta = event.metadata();
        // The request is served outside any span, so `Full` would write none.
        if w.has_ansi_escapes() || !is_request_line(meta) || ctx.lookup_current().is_some() {
            return self.full.format_event(ctx, w, event);
        }
        timestamp(&mut w)?;
        // `Full`'s level, right-aligned in five, and target.
        write!(w, " {:>5} {}: ", meta.level().as_str(), meta.target())?;
        let mut fields = TextFields {
            w: &mut w,
            first: true,
            result: Ok(()),
        };
        event.record(&mut fields);
        fields.result?;
        w.write_char('\n')
    }
}

/// The fields as `Full` writes them (tracing-subscriber's `DefaultVisitor`): the message as it is,
/// every other field `name=value` with the value's `Debug` (a string quoted and escaped, a `%`
/// value its `Display`), one space apart.
struct TextFields<'a, 'w> {
    w: &'a mut Writer<'w>,
    first: bool,
    result: fmt::Result,
}

impl Visit for TextFields<'_, '_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.record_debug(field, &format_args!("{value}"));
        } else {
            self.record_debug(field, &value);
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        if self.result.is_err() {
            return;
        }
        self.result = (|| {
            if !std::mem::replace(&mut self.first, false) {
                self.w.write_char(' ')?;
            }
            match field.name() {
                // `Full` escapes terminal control characters in a message.
                "message" => write!(SafeText(self.w), "{value:?}"),
                name => write!(
                    self.w,
                    "{}={value:?}",
                    name.strip_prefix("r#").unwrap_or(name)
                ),
            }
        })();
    }
}

/// Writes text with the terminal control characters escaped as tracing-subscriber escapes them in a
/// message (ESC, BEL, BS, FF, DEL and the C1 controls).
struct SafeText<'a, W: Write>(&'a mut W);

impl<W: Write> Write for SafeText<'_, W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for ch in s.chars() {
            match ch {
                '\x1b' | '\x07' | '\x08' | '\x0c' | '\x7f' => {
                    write!(self.0, "\\x{:02x}", ch as u32)?
                }
                '\u{80}'..='\u{9f}' => write!(self.0, "\\u{{{:x}}}", ch as u32)?,
                _ => self.0.write_char(ch)?,
            }
        }
        Ok(())
    }
}

struct Fields<'a, 'w> {
    w: &'a mut Writer<'w>,
    result: fmt::Result,
}

impl Fields<'_, '_> {
    fn field(&mut self, field: &Field, value: impl FnOnce(&mut Writer<'_>) -> fmt::Result) {
        if self.result.is_ok() {
            self.result = (|| {
                self.w.write_char(',')?;
                string(self.w, field.name())?;
                self.w.write_char(':')?;
                value(self.w)
            })();
        }
    }
}

impl Visit for Fields<'_, '_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.field(field, |w| string(w, value));
    }
    fn record_u64(&mut self, field: &Field, value: u64) {
        self.field(field, |w| write!(w, "{value}"));
    }
    fn record_i64(&mut self, field: &Field, value: i64) {
        self.field(field, |w| write!(w, "{value}"));
    }
    fn record_bool(&mut self, field: &Field, value: bool) {
        self.field(field, |w| write!(w, "{value}"));
    }
    fn record_f64(&mut self, field: &Field, value: f64) {
        // JSON has no NaN or infinity.
        self.field(field, |w| match value.is_finite() {
            true => write!(w, "{value}"),
            false => w.write_str("null"),
        });
    }
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        // `%x` and messages arrive here; the value's text, escaped, as a string.
        self.field(field, |w| {
            w.write_char('"')?;
            write!(Escape(w), "{value:?}")?;
            w.write_char('"')
        });
    }
}

fn string(w: &mut impl Write, s: &str) -> fmt::Result {
    w.write_char('"')?;
    Escape(w).write_str(s)?;
    w.write_char('"')
}

/// Escapes what it is given for inside a JSON string.
struct Escape<'a, W: Write>(&'a mut W);

impl<W: Write> Write for Escape<'_, W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let mut start = 0;
        for (i, b) in s.bytes().enumerate() {
            let escaped = match b {
                b'"' => "\\\"",
                b'\\' => "\\\\",
                b'\n' => "\\n",
                b'\r' => "\\r",
                b'\t' => "\\t",
                0..=0x1f => "",
                _ => continue,
            };
            self.0.write_str(&s[start..i])?;
            if escaped.is_empty() {
                write!(self.0, "\\u{b:04x}")?;
            } else {
                self.0.write_str(escaped)?;
            }
            start = i + 1;
        }
        self.0.write_str(&s[start..])
    }
}

/// `SystemTime`'s timestamp (RFC 3339, UTC, microseconds: `2026-11-26T14:40:02.118000Z`), with the
/// date and time of day formatted once a second per thread rather than for every line.
fn timestamp(w: &mut impl Write) -> fmt::Result {
    let Ok(now) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) else {
        return w.write_str("1970-01-01T00:00:00.000000Z");
    };
    timestamp_at(w, now.as_secs(), now.subsec_micros())
}

fn timestamp_at(w: &mut impl Write, secs: u64, micros: u32) -> fmt::Result {
    thread_local! {
        /// The second last formatted and its `YYYY-MM-DDTHH:MM:SS.`.
        static SECOND: Cell<(u64, [u8; 20])> = const { Cell::new((u64::MAX, [0; 20])) };
    }
    let (cached, mut prefix) = SECOND.get();
    if cached != secs {
        let Some(formatted) = second_prefix(secs) else {
            // Past year 9999: the general form.
            return write!(w, "{secs}.{micros:06}");
        };
        prefix = formatted;
        SECOND.set((secs, prefix));
    }
    let mut fraction = *b"000000Z";
    let mut rest = micros.min(999_999);
    for digit in fraction[..6].iter_mut().rev() {
        *digit = b'0' + (rest % 10) as u8;
        rest /= 10;
    }
    // Both are ASCII digits and separators.
    w.write_str(std::str::from_utf8(&prefix).map_err(|_| fmt::Error)?)?;
    w.write_str(std::str::from_utf8(&fraction).map_err(|_| fmt::Error)?)
}

/// `YYYY-MM-DDTHH:MM:SS.` of a second since the epoch (the civil date by Howard Hinnant's
/// days-to-civil algorithm); None past year 9999.
fn second_prefix(secs: u64) -> Option<[u8; 20]> {
    let days = i64::try_from(secs / 86_400).ok()?;
    let of_day = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    if year > 9999 {
        return None;
    }
    let mut out = *b"0000-00-00T00:00:00.";
    let mut put = |at: usize, width: usize, mut value: u64| {
        for i in (at..at + width).rev() {
            out[i] = b'0' + (value % 10) as u8;
            value /= 10;
        }
    };
    put(0, 4, year as u64);
    put(5, 2, month as u64);
    put(8, 2, day as u64);
    put(11, 2, of_day / 3600);
    put(14, 2, of_day / 60 % 60);
    put(17, 2, of_day % 60);
    Some(out)
}

/// How long the log thread lets lines gather before writing them: how late a line may reach stderr.
pub const GATHER: Duration = Duration::from_millis(10);
/// Lines held past this are written by the thread that logs (no line is ever dropped).
pub const BUFFER_LIMIT: usize = 256 * 1024;

/// Lines not yet written, in the order they were logged.
static LINES: Mutex<Vec<u8>> = Mutex::new(Vec::new());
/// The buffer being written out (the other half of the double buffer). Held from taking the lines
/// to the end of their write, so batches reach stderr in order.
static OUT: Mutex<Vec<u8>> = Mutex::new(Vec::new());
/// Lines wait and the log thread has been woken for them.
static WOKEN: AtomicBool = AtomicBool::new(false);
static LOG_THREAD: OnceLock<Thread> = OnceLock::new();

/// Where the log's lines go: stderr as they come, or gathered (see the module's doc).
#[derive(Clone, Copy)]
pub enum LogOut {
    Direct,
    Gathered,
}

impl LogOut {
    /// Gathered, with the log thread started (for `serve`); falls back to direct if the thread
    /// cannot be started.
    pub fn gathered() -> LogOut {
        match start_log_thread(write_to_stderr) {
            Ok(()) => LogOut::Gathered,
            Err(_) => LogOut::Direct,
        }
    }
}

/// Starts the log thread (once): it writes what gathered to `sink`, [`GATHER`] after a line woke it.
fn start_log_thread(sink: fn(&[u8])) -> io::Result<()> {
    if LOG_THREAD.get().is_some() {
        return Ok(());
    }
    let handle = std::thread::Builder::new()
        .name("log-writer".into())
        .spawn(move || {
            loop {
                // Parked until a line arrives, then a moment for more to gather.
                std::thread::park();
                std::thread::sleep(GATHER);
                // Cleared before taking: a line logged after the take wakes the thread again.
                WOKEN.store(false, Ordering::SeqCst);
                write_gathered(sink);
            }
        })?;
    let _ = LOG_THREAD.set(handle.thread().clone());
    Ok(())
}

/// Writes every line gathered so far to stderr.
pub fn flush() {
    write_gathered(write_to_stderr);
}

fn write_to_stderr(lines: &[u8]) {
    // As the direct writer does, a failed write is not reported: there is nowhere to report it.
    let _ = io::Write::write_all(&mut io::stderr().lock(), lines);
}

fn write_gathered(sink: impl FnOnce(&[u8])) {
    let mut out = OUT.lock().unwrap_or_else(|e| e.into_inner());
    {
        let mut lines = LINES.lock().unwrap_or_else(|e| e.into_inner());
        if lines.is_empty() {
            return;
        }
        std::mem::swap(&mut *lines, &mut *out);
    }
    sink(&out);
    out.clear();
}

/// One line's writer: tracing-subscriber formats the line, then writes it here in one `write_all`.
pub struct Line {
    out: LogOut,
    urgent: bool,
}

impl io::Write for Line {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let LogOut::Direct = self.out {
            return io::Write::write(&mut io::stderr(), buf);
        }
        let held = {
            let mut lines = LINES.lock().unwrap_or_else(|e| e.into_inner());
            lines.extend_from_slice(buf);
            lines.len()
        };
        if self.urgent || held >= BUFFER_LIMIT {
            flush();
        } else if let Some(thread) = LOG_THREAD.get()
            && !WOKEN.load(Ordering::SeqCst)
            && !WOKEN.swap(true, Ordering::SeqCst)
        {
            thread.unpark();
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.out {
            LogOut::Direct => io::Write::flush(&mut io::stderr()),
            LogOut::Gathered => Ok(()),
        }
    }
}

impl<'a> MakeWriter<'a> for LogOut {
    type Writer = Line;

    fn make_writer(&'a self) -> Line {
        Line {
            out: *self,
            urgent: true,
        }
    }

    fn make_writer_for(&'a self, meta: &Metadata<'_>) -> Line {
        Line {
            out: *self,
            urgent: *meta.level() <= Level::WARN,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tracing_subscriber::fmt::time::{FormatTime, SystemTime};

    /// A writer into a shared buffer, for a subscriber under test.
    #[derive(Clone, Default)]
    struct Captured(std::sync::Arc<Mutex<Vec<u8>>>);

    impl io::Write for Captured {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// The lines `emit` logs through the text format, and through tracing-subscriber's own.
    fn both(emit: impl Fn()) -> (String, String) {
        let ours = Captured::default();
        let theirs = Captured::default();
        let (o, t) = (ours.clone(), theirs.clone());
        let sub = tracing_subscriber::fmt()
            .with_ansi(false)
            .with_writer(move || o.clone())
            .event_format(Text::default())
            .finish();
        tracing::subscriber::with_default(sub, &emit);
        let sub = tracing_subscriber::fmt()
            .with_ansi(false)
            .with_writer(move || t.clone())
            .finish();
        tracing::subscriber::with_default(sub, &emit);
        let text = |c: Captured| String::from_utf8(c.0.lock().unwrap().clone()).unwrap();
        (text(ours), text(theirs))
    }

    /// Past the timestamp (the two were taken apart in time), which is checked on its own below.
    fn past_time(line: &str) -> &str {
        line.split_once(' ').map_or("", |(_, rest)| rest)
    }

    #[test]
    fn the_text_request_line_is_the_one_tracing_subscriber_writes() {
        // The request line as server::handle logs it, with a client name that needs escaping and a
        // message with a terminal escape; and a line of another shape, which `Full` writes.
        let emit = || {
            for client in ["bench", "a \"q\" \\ é\n\u{1b}[1m"] {
                tracing::info!(
                    target: "cards::server",
                    request_id = %"req_0123",
                    method = %"GET",
                    route = "/cards/{id}",
                    status = 200u16,
                    latency_ms = %format_args!("{:.3}", 0.25),
                    client,
                    "request"
                );
            }
            tracing::info!(target: "cards::server", latency_ms = 1u64, "odd \u{1b}[31m \u{85} line");
            tracing::warn!(target: "cards::writer", n = 3, "not a request line");
        };
        let (ours, theirs) = both(emit);
        let ours: Vec<&str> = ours.lines().collect();
        let theirs: Vec<&str> = theirs.lines().collect();
        assert_eq!(ours.len(), 4);
        assert_eq!(ours.len(), theirs.len());
        for (o, t) in ours.iter().zip(&theirs) {
            assert_eq!(past_time(o), past_time(t));
            // Same shape of timestamp: RFC 3339, UTC, microseconds.
            assert_eq!(o.find(' '), Some(27), "{o}");
            assert_eq!(t.find(' '), Some(27), "{t}");
        }
        assert!(
            past_time(ours[0]).starts_with(
                " INFO cards::server: request request_id=req_0123 method=GET route=\"/cards/{id}\" \
                 status=200 latency_ms=0.250 client=\"bench\""
            ),
            "{}",
            ours[0]
        );
    }

    #[test]
    fn escapes_quotes_backslashes_and_control_characters() {
        let mut out = String::new();
        string(&mut out, "a\"b\\c\nd\u{1}é").unwrap();
        assert_eq!(out, r#""a\"b\\c\nd\u0001é""#);
        let parsed: String = serde_json::from_str(&out).unwrap();
        assert_eq!(parsed, "a\"b\\c\nd\u{1}é");
    }

    // One test for the shared buffer: the log thread, once started, would take lines from a second.
    #[test]
    fn gathered_lines_keep_each_writers_order_none_is_lost_and_the_log_thread_writes_them() {
        use std::io::Write as _;
        let (threads, per_thread) = (4, 500);
        std::thread::scope(|scope| {
            for t in 0..threads {
                scope.spawn(move || {
                    for n in 0..per_thread {
                        let mut line = Line {
                            out: LogOut::Gathered,
                            urgent: false,
                        };
                        line.write_all(format!("{t} {n}\n").as_bytes()).unwrap();
                    }
                });
            }
        });
        let mut written = Vec::new();
        write_gathered(|lines| written.extend_from_slice(lines));
        let text = String::from_utf8(written).unwrap();
        let mut next = vec![0; threads];
        for line in text.lines() {
            let (t, n) = line.split_once(' ').unwrap();
            let (t, n): (usize, usize) = (t.parse().unwrap(), n.parse().unwrap());
            assert_eq!(n, next[t], "thread {t}'s lines out of order");
            next[t] += 1;
        }
        assert_eq!(next, vec![per_thread; threads], "lines lost");
        let mut again = Vec::new();
        write_gathered(|lines| again.extend_from_slice(lines));
        assert!(again.is_empty(), "a line written twice");

        // The log thread: woken by a line, it writes it a moment later, and is woken again by the
        // lines after that gathering.
        static WRITTEN: Mutex<Vec<u8>> = Mutex::new(Vec::new());
        start_log_thread(|lines| WRITTEN.lock().unwrap().extend_from_slice(lines)).unwrap();
        let log = |text: &str| {
            let mut line = Line {
                out: LogOut::Gathered,
                urgent: false,
            };
            line.write_all(text.as_bytes()).unwrap();
        };
        let written_within_5s = |expected: &str| {
            let deadline = std::time::Instant::now() + Duration::from_secs(5);
            while std::time::Instant::now() < deadline {
                if *WRITTEN.lock().unwrap() == expected.as_bytes() {
                    return true;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            false
        };
        log("first\n");
        assert!(written_within_5s("first\n"));
        log("second\n");
        log("third\n");
        assert!(written_within_5s("first\nsecond\nthird\n"));
    }
    #[test]
    fn timestamps_are_rfc3339_utc_with_microseconds() {
        let at = |secs, micros| {
            let mut out = String::new();
            timestamp_at(&mut out, secs, micros).unwrap();
            out
        };
        assert_eq!(at(0, 0), "1970-01-01T00:00:00.000000Z");
        assert_eq!(at(951_782_400, 7), "2000-02-29T00:00:00.000007Z");
        assert_eq!(at(951_868_799, 999_999), "2000-02-29T23:59:59.999999Z");
        assert_eq!(at(1_709_164_800, 500_000), "2024-02-29T00:00:00.500000Z");
        // Twice in the same second: the cached date and time of day, a new fraction.
        assert_eq!(at(1_795_704_002, 118_000), "2026-11-26T14:40:02.118000Z");
        assert_eq!(at(1_795_704_002, 118_001), "2026-11-26T14:40:02.118001Z");
        assert_eq!(at(1_798_761_599, 1), "2026-12-31T23:59:59.000001Z");
        assert_eq!(at(4_107_542_400, 0), "2100-03-01T00:00:00.000000Z");
        assert_eq!(at(253_402_300_799, 0), "9999-12-31T23:59:59.000000Z");
        // The same form as tracing-subscriber's `SystemTime`, which the format replaced.
        let mut theirs = String::new();
        SystemTime
            .format_time(&mut Writer::new(&mut theirs))
            .unwrap();
        let mut ours = String::new();
        timestamp(&mut ours).unwrap();
        assert_eq!(ours.len(), theirs.len(), "{ours} vs {theirs}");
        assert_eq!(ours[..13], theirs[..13], "{ours} vs {theirs}");
    }
}
