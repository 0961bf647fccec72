//! The OpenAPI document: served without a key at `GET /openapi.json` by every host, and equal to
//! `docs/openapi.json` (which `scripts/test` validates as OpenAPI 3.1 and runs schemathesis with).

use acceptance::*;
use serde_json::Value;

fn kept() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/openapi.json");
    std::fs::read_to_string(path).expect("docs/openapi.json")
}

#[test]
fn served_without_a_key_and_equal_to_the_kept_copy() {
    let resp = raw("GET", "/openapi.json", &[], None);
    resp.expect(200);
    assert_eq!(resp.header("content-type"), Some("application/json"));
    assert!(
        resp.text == kept(),
        "GET /openapi.json differs from docs/openapi.json \
         (regenerate: UPDATE_OPENAPI=1 cargo test -p host-native --test openapi_file)"
    );
    assert_eq!(resp.body["openapi"], "3.1.0");
}

#[test]
fn documents_the_paths_this_host_answers() {
    let doc: Value = serde_json::from_str(&kept()).unwrap();
    let t = tenant();
    for (path, item) in doc["paths"].as_object().unwrap() {
        let concrete = path
            .replace("{id}", "0123456789abcdef01234567")
            .replace("{sub}", "0123456789abcdef01234567");
        for method in item.as_object().unwrap().keys() {
            let method = method.to_ascii_uppercase();
            let resp = t.send(&method, &concrete, &[], None);
            // A documented route is routed: never "no such route" or "wrong method".
            assert!(
                resp.status != 405
                    && !(resp.status == 404 && resp.body["message"] == "Route not found"),
                "{method} {path}: {} {}",
                resp.status,
                resp.text
            );
        }
    }
}
