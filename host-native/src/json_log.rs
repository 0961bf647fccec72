//! `--log-format json`: one object per line, the event's fields at the top level beside
//! `timestamp`, `level` and `target`, as tracing-subscriber's JSON format with `flatten_event` writes
//! them, but straight into the line's buffer: that format first collects the fields into a map of
//! `serde_json::Value`s, a handful of allocations for every request line. No spans are used, so none
//! are written.
//!
//! Leaf module: main installs it; it imports nothing of the crate.

use std::fmt::{self, Write};

use tracing::field::{Field, Visit};
use tracing::{Event, Subscriber};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::time::{FormatTime, SystemTime};
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
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
}
