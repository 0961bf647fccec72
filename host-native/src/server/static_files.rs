//! The web console (`cards serve --console DIR`): plain files from DIR for `GET /`, `GET /docs` (the API
//! reference page, `docs.html`) and for paths whose last segment has a known file extension (`/app.js`,
//! `/pkg/cards_browser_bg.wasm`) and that are not a core route (`/openapi.json`). Opt-in: without the flag
//! every request goes to the core.

use std::path::{Path, PathBuf};

use card_core::error::ApiError;
use card_core::http::Prepared;
use card_core::{Method, Request, Response, Service};

#[derive(Debug, Clone)]
pub struct StaticFiles {
    root: PathBuf,
}

impl StaticFiles {
    pub fn new(root: PathBuf) -> StaticFiles {
        StaticFiles { root }
    }

    /// The file a GET/HEAD `path` names, if it is a console path (not whether it exists).
    pub fn resolve(&self, method: &str, path: &str) -> Option<(PathBuf, &'static str)> {
        if method != "GET" && method != "HEAD" {
            return None;
        }
        // The core's own routes (`/openapi.json`) are never files.
        let routed = Prepared::new(&Request::new(Method::Get, path)).route();
        if !matches!(routed, Err(ApiError::NotFound(_))) {
            return None;
        }
        let rel = match path {
            "/" => "index.html",
            // The API reference (Redoc over GET /openapi.json).
            "/docs" => "docs.html",
            _ => path.strip_prefix('/')?,
        };
        let name = rel.rsplit('/').next()?;
        let ext = name.rsplit_once('.')?.1;
        let mime = content_type(ext)?;
        // Only plain names: no "..", no hidden files, no backslashes or other odd characters.
        let safe = rel.split('/').all(|seg| {
            !seg.is_empty()
                && !seg.starts_with('.')
                && seg
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
        });
        safe.then(|| (self.root.join(rel), mime))
    }

    /// Reads the file; a missing one is 404 like any unknown route.
    pub fn load(file: &Path, mime: &str, head: bool) -> Response {
        match std::fs::read(file) {
            Ok(bytes) => {
                let length = bytes.len().to_string();
                Response::bytes(200, mime, if head { Vec::new() } else { bytes })
                    .with_header("content-length", &length)
                    // The console is rebuilt in place; always revalidate.
                    .with_header("cache-control", "no-cache")
                    .with_header("x-content-type-options", "nosniff")
            }
            Err(_) => Service::not_found(),
        }
    }
}

fn content_type(ext: &str) -> Option<&'static str> {
    Some(match ext {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        // WebAssembly.instantiateStreaming requires exactly this type.
        "wasm" => "application/wasm",
        "ts" => "text/plain; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn console_paths_and_api_paths_do_not_collide() {
        let s = StaticFiles::new(PathBuf::from("/srv/web"));
        assert_eq!(
            s.resolve("GET", "/").unwrap().0,
            PathBuf::from("/srv/web/index.html")
        );
        let (file, mime) = s.resolve("GET", "/pkg/cards_browser_bg.wasm").unwrap();
        assert_eq!(
            (file, mime),
            (
                PathBuf::from("/srv/web/pkg/cards_browser_bg.wasm"),
                "application/wasm"
            )
        );
        assert_eq!(
            s.resolve("HEAD", "/app.js").unwrap().1,
            "text/javascript; charset=utf-8"
        );
        for api in [
            "/accounts",
            "/cards/0123456789abcdef01234567",
            "/card-holders",
        ] {
            assert!(s.resolve("GET", api).is_none(), "{api}");
        }
        assert!(s.resolve("POST", "/").is_none());
        assert!(s.resolve("GET", "/openapi.json").is_none(), "a core route");
        assert_eq!(
            s.resolve("GET", "/docs").unwrap().0,
            PathBuf::from("/srv/web/docs.html")
        );
        assert!(
            s.resolve("GET", "/data.redb").is_none(),
            "unknown extensions are not served"
        );
    }

    #[test]
    fn no_escape_from_the_root() {
        let s = StaticFiles::new(PathBuf::from("/srv/web"));
        for bad in [
            "/../etc/x.html",
            "/pkg/../../x.js",
            "/.hidden.js",
            "//x.js",
            "/a%2e%2e/x.js",
            "/a\\b.js",
        ] {
            assert!(s.resolve("GET", bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn serves_and_misses() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("index.html"), "<h1>hi</h1>").unwrap();
        let s = StaticFiles::new(dir.path().to_path_buf());
        let (file, mime) = s.resolve("GET", "/").unwrap();
        let r = StaticFiles::load(&file, mime, false);
        assert_eq!(
            (r.status, r.body.as_slice()),
            (200, b"<h1>hi</h1>".as_slice())
        );
        assert_eq!(
            r.header_value("content-type"),
            Some("text/html; charset=utf-8")
        );
        let r = StaticFiles::load(&file, mime, true);
        assert!(r.body.is_empty());
        let (file, mime) = s.resolve("GET", "/missing.js").unwrap();
        assert_eq!(StaticFiles::load(&file, mime, false).status, 404);
    }
}
