//! `docs/openapi.json` is the document the code serves, kept in the repository for client generators
//! and reviewers. After an API change, rewrite it with
//! `UPDATE_OPENAPI=1 cargo test -p host-native --test openapi_file` (the core itself reads no files).
//! The browser module's TypeScript types, generated from the same component schemas, are kept and
//! rewritten the same way.

use std::path::PathBuf;

#[test]
fn docs_openapi_json_is_the_served_document() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/openapi.json");
    let served = card_core::http::openapi::document_text();
    if std::env::var_os("UPDATE_OPENAPI").is_some() {
        std::fs::write(&path, served).unwrap();
    }
    let kept = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        kept == served,
        "docs/openapi.json differs from the document the code serves; \
         regenerate it with UPDATE_OPENAPI=1 cargo test -p host-native --test openapi_file"
    );
}

#[test]
fn the_browser_modules_types_are_generated_from_the_document() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../host-wasm/src/browser.d.ts");
    let generated = card_core::http::openapi::browser_types();
    if std::env::var_os("UPDATE_OPENAPI").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let kept = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        kept == generated,
        "host-wasm/src/browser.d.ts differs from the types the document generates; \
         regenerate it with UPDATE_OPENAPI=1 cargo test -p host-native --test openapi_file"
    );
}
