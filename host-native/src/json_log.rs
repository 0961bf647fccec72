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
use tracing_subscriber::fmt::time::{FormatTime, SystemTime};
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
        SystemTime.format_time(&mut w)?;
        write!(w, "\",\"level\":\"{}\"", meta.level())?;
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
        if LOG_THREAD.get().is_some() {
            return LogOut::Gathered;
        }
        let spawned = std::thread::Builder::new()
            .name("log-writer".into())
            .spawn(|| {
                loop {
                    // Parked until a line arrives, then a moment for more to gather.
                    std::thread::park();
                    std::thread::sleep(GATHER);
                    // Cleared before taking: a line logged after the take wakes the thread again.
                    WOKEN.store(false, Ordering::SeqCst);
                    flush();
                }
            });
        match spawned {
            Ok(handle) => {
                let _ = LOG_THREAD.set(handle.thread().clone());
                LogOut::Gathered
            }
            Err(_) => LogOut::Direct,
        }
    }
}

/// Writes every line gathered so far to stderr.
pub fn flush() {
    flush_into(&mut io::stderr().lock());
}

fn flush_into(sink: &mut impl io::Write) {
    let mut out = OUT.lock().unwrap_or_else(|e| e.into_inner());
    {
        let mut lines = LINES.lock().unwrap_or_else(|e| e.into_inner());
        if lines.is_empty() {
            return;
        }
        std::mem::swap(&mut *lines, &mut *out);
    }
    // As the direct writer does, a failed write is not reported: there is nowhere to report it.
    let _ = io::Write::write_all(sink, &out);
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
        } else if !WOKEN.load(Ordering::SeqCst)
            && !WOKEN.swap(true, Ordering::SeqCst)
            && let Some(thread) = LOG_THREAD.get()
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

    #[test]
    fn escapes_quotes_backslashes_and_control_characters() {
        let mut out = String::new();
        string(&mut out, "a\"b\\c\nd\u{1}é").unwrap();
        assert_eq!(out, r#""a\"b\\c\nd\u0001é""#);
        let parsed: String = serde_json::from_str(&out).unwrap();
        assert_eq!(parsed, "a\"b\\c\nd\u{1}é");
    }

    #[test]
    fn gathered_lines_keep_each_writers_order_and_none_is_lost() {
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
        flush_into(&mut written);
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
        flush_into(&mut again);
        assert!(again.is_empty(), "a line written twice");
    }
}
