//! `multipart/form-data` parsing with `multer`, inside the I/O-free core: the whole body is already in
//! memory, so it is fed to multer as a one-chunk stream that is always ready, and multer's futures are
//! polled to completion by hand (no runtime, no threads: this builds for every wasm target).

use std::convert::Infallible;
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use bytes::Bytes;
use multer::{Constraints, Multipart, SizeLimit};

use crate::domain::card_holders::MAX_FILE_BYTES;
use crate::error::{ApiError, ApiResult};
use crate::http::body::MAX_MULTIPART_BYTES;

/// One form part as sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    pub name: String,
    pub file_name: Option<String>,
    pub data: Vec<u8>,
}

fn malformed(detail: impl std::fmt::Display) -> ApiError {
    ApiError::field("body", format!("malformed multipart body: {detail}"))
}

fn map_error(e: multer::Error) -> ApiError {
    match e {
        multer::Error::FieldSizeExceeded { .. } | multer::Error::StreamSizeExceeded { .. } => {
            ApiError::PayloadTooLarge
        }
        other => malformed(other),
    }
}

/// Polls a future whose every input is already available. With a ready stream multer never waits,
/// so a future still pending after many polls means a bug, answered as an internal error.
fn run_ready<F: Future>(fut: F) -> Option<F::Output> {
    let mut fut = pin!(fut);
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..1024 {
        if let Poll::Ready(v) = fut.as_mut().poll(&mut cx) {
            return Some(v);
        }
    }
    None
}

/// Every part of `body`, in order. A body over 12 MiB or a part over 5 MiB is 413; a body that is not
/// well-formed multipart (no or wrong boundary, truncated part, missing part name) is 400 on `body`.
pub fn parse(content_type: &str, body: &[u8]) -> ApiResult<Vec<Part>> {
    #[cfg(test)]
    crate::http::body::parses::count();
    if body.len() > MAX_MULTIPART_BYTES {
        return Err(ApiError::PayloadTooLarge);
    }
    let boundary = multer::parse_boundary(content_type).map_err(malformed)?;
    let stream =
        futures_util::stream::iter([Ok::<Bytes, Infallible>(Bytes::copy_from_slice(body))]);
    let limits = SizeLimit::new()
        .whole_stream(MAX_MULTIPART_BYTES as u64)
        // The largest part any field takes; text parts have their own, smaller limit later.
        .per_field(MAX_FILE_BYTES as u64);
    let mut multipart =
        Multipart::with_constraints(stream, boundary, Constraints::new().size_limit(limits));
    let read_all = async move {
        let mut parts = Vec::new();
        while let Some(field) = multipart.next_field().await.map_err(map_error)? {
            let Some(name) = field.name().map(str::to_string) else {
                return Err(malformed("a part has no name"));
            };
            let file_name = field.file_name().map(str::to_string);
            let data = field.bytes().await.map_err(map_error)?;
            parts.push(Part {
                name,
                file_name,
                data: data.to_vec(),
            });
        }
        Ok(parts)
    };
    run_ready(read_all).unwrap_or_else(|| {
        Err(ApiError::internal(
            "the multipart reader did not finish on a complete body",
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const CT: &str = "multipart/form-data; boundary=XyZ";

    fn body(parts: &[(&str, Option<&str>, &[u8])]) -> Vec<u8> {
        let mut b = Vec::new();
        for (name, file, data) in parts {
            b.extend_from_slice(b"--XyZ\r\n");
            match file {
                Some(f) => b.extend_from_slice(
                    format!("Content-Disposition: form-data; name=\"{name}\"; filename=\"{f}\"\r\nContent-Type: application/octet-stream\r\n\r\n").as_bytes(),
                ),
                None => b.extend_from_slice(format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes()),
            }
            b.extend_from_slice(data);
            b.extend_from_slice(b"\r\n");
        }
        b.extend_from_slice(b"--XyZ--\r\n");
        b
    }

    #[test]
    fn parses_text_and_file_parts() {
        let b = body(&[
            ("name", None, b"Ada Lovelace"),
            ("documentMain", Some("a.png"), b"\x89PNG\r\n\x1a\nrest"),
        ]);
        let parts = parse(CT, &b).unwrap();
        assert_eq!(parts.len(), 2);
        assert_eq!(
            parts[0],
            Part {
                name: "name".into(),
                file_name: None,
                data: b"Ada Lovelace".to_vec()
            }
        );
        assert_eq!(parts[1].file_name.as_deref(), Some("a.png"));
        assert_eq!(parts[1].data, b"\x89PNG\r\n\x1a\nrest");
    }

    #[test]
    fn malformed_bodies_are_400_on_body() {
        let b = body(&[("name", None, b"Ada")]);
        for (ct, bytes) in [
            ("multipart/form-data", b.clone()),                 // no boundary
            ("multipart/form-data; boundary=Other", b.clone()), // wrong boundary
            (CT, b[..b.len() - 12].to_vec()),                   // truncated
            (
                CT,
                b"--XyZ\r\nContent-Disposition: form-data\r\n\r\nx\r\n--XyZ--\r\n".to_vec(),
            ), // no name
        ] {
            match parse(ct, &bytes) {
                Err(ApiError::Validation(e)) => assert_eq!(e[0].field, "body", "{ct}"),
                other => panic!("{ct}: {other:?}"),
            }
        }
    }

    #[test]
    fn oversized_parts_are_413() {
        let big = vec![b'a'; MAX_FILE_BYTES + 1];
        let b = body(&[("documentMain", Some("x.pdf"), &big)]);
        assert_eq!(parse(CT, &b), Err(ApiError::PayloadTooLarge));
        let exact = vec![b'a'; MAX_FILE_BYTES];
        let b = body(&[("documentMain", Some("x.pdf"), &exact)]);
        assert_eq!(parse(CT, &b).unwrap()[0].data.len(), MAX_FILE_BYTES);
    }
}
