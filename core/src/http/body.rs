//! Request bodies: the size limits, content types, JSON objects, and the body reader both hosts use
//! (I/O-free: the host feeds it the chunks it reads).

use serde_json::{Map, Value};

use super::{Request, Response, errors};
use crate::error::ApiError;

pub const MAX_JSON_BYTES: usize = 1024 * 1024;
pub const MAX_MULTIPART_BYTES: usize = 12 * 1024 * 1024;
/// Past this many bytes an oversize body is no longer read to its end: the host closes the connection.
pub const DISCARD_LIMIT: u64 = 64 * 1024 * 1024;

/// The MIME type of a `Content-Type` value, lower-cased, without parameters.
pub fn media_type(content_type: &str) -> String {
    content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// `application/json` or any `+json` type.
pub fn is_json(content_type: Option<&str>) -> bool {
    let Some(ct) = content_type else { return false };
    let mime = media_type(ct);
    mime == "application/json" || (mime.len() > 5 && mime.ends_with("+json"))
}

/// The JSON object body of a JSON route: size, content type and syntax checked.
pub fn json_object(req: &Request) -> Result<Map<String, Value>, ApiError> {
    if req.body.len() > MAX_JSON_BYTES {
        return Err(ApiError::PayloadTooLarge);
    }
    if !is_json(req.header_value("content-type")) {
        return Err(ApiError::UnsupportedMediaType(
            "Content-Type must be application/json".into(),
        ));
    }
    #[cfg(test)]
    parses::count();
    super::fields::parse_object(&req.body)
}

/// A test hook: how many request bodies this thread parsed (a JSON object, a multipart form), so
/// the stage tests can show one parse per write.
#[cfg(test)]
pub(crate) mod parses {
    use std::cell::Cell;

    thread_local!(static PARSED: Cell<usize> = const { Cell::new(0) });

    pub(crate) fn count() {
        PARSED.with(|n| n.set(n.get() + 1));
    }

    pub(crate) fn so_far() -> usize {
        PARSED.with(Cell::get)
    }
}

/// Collects a request body chunk by chunk, keeping at most `max` bytes. An oversize body is still read
/// to its end (up to [`DISCARD_LIMIT`]) so that a client still sending hears the 413 instead of a reset.
pub struct BodyReader {
    max: usize,
    kept: Vec<u8>,
    total: u64,
}

impl BodyReader {
    /// Refuses at once a body whose declared length is past what is worth discarding.
    pub fn new(max: usize, declared_length: Option<u64>) -> Result<BodyReader, Response> {
        if declared_length.is_some_and(|n| n > DISCARD_LIMIT) {
            return Err(too_large());
        }
        Ok(BodyReader {
            max,
            kept: Vec::new(),
            total: 0,
        })
    }

    /// Takes the next chunk; an error means: answer it and close the connection.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), Response> {
        self.total += chunk.len() as u64;
        if self.total > DISCARD_LIMIT {
            return Err(too_large());
        }
        if self.total <= self.max as u64 {
            self.kept.extend_from_slice(chunk);
        }
        Ok(())
    }

    pub fn finish(self) -> Result<Vec<u8>, Response> {
        if self.total > self.max as u64 {
            Err(too_large())
        } else {
            Ok(self.kept)
        }
    }
}

fn too_large() -> Response {
    errors::to_response(&ApiError::PayloadTooLarge).with_header("connection", "close")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_content_types() {
        assert!(is_json(Some("application/json; charset=utf-8")));
        assert!(is_json(Some("Application/JSON")));
        assert!(is_json(Some("application/merge-patch+json")));
        assert!(!is_json(Some("text/plain")));
        assert!(!is_json(Some("a€€")));
        assert!(!is_json(Some("€+json")) || media_type("€+json").ends_with("+json"));
        assert!(!is_json(None));
    }

    #[test]
    fn reader_keeps_up_to_max_and_refuses_past_it() {
        let mut r = BodyReader::new(4, Some(8)).unwrap();
        r.push(b"ab").unwrap();
        r.push(b"cd").unwrap();
        assert_eq!(r.finish().unwrap(), b"abcd");
        let mut r = BodyReader::new(4, None).unwrap();
        r.push(b"abcde").unwrap();
        assert_eq!(r.finish().unwrap_err().status, 413);
        assert!(BodyReader::new(4, Some(DISCARD_LIMIT + 1)).is_err());
    }
}
