//! Authentication: every operation needs a key, as `Authorization: Bearer` or `x-api-key`; /health needs none.

use acceptance::fixtures::{account_body, create_account, id};
use acceptance::*;
use serde_json::json;

fn json_headers<'a>(extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut h = vec![("content-type", "application/json")];
    h.extend_from_slice(extra);
    h
}

fn body() -> Option<Vec<u8>> {
    Some(serde_json::to_vec(&account_body(json!({}))).unwrap())
}

#[test]
fn health_needs_no_key() {
    let resp = raw("GET", "/health", &[], None);
    resp.expect(200);
}

#[test]
fn no_key_is_401_on_reads_and_writes() {
    raw("GET", "/accounts", &[], None).expect_error(401, "unauthorized");
    raw("POST", "/accounts", &json_headers(&[]), body()).expect_error(401, "unauthorized");
    raw("GET", "/accounts/0123456789abcdef01234567", &[], None).expect_error(401, "unauthorized");
}

#[test]
fn unknown_key_is_401() {
    let bad = "Bearer test_0000000000000000000000000000000000";
    raw("GET", "/accounts", &[("authorization", bad)], None).expect_error(401, "unauthorized");
    raw(
        "GET",
        "/accounts",
        &[("x-api-key", "test_0000000000000000000000000000000000")],
        None,
    )
    .expect_error(401, "unauthorized");
    raw(
        "POST",
        "/accounts",
        &json_headers(&[("authorization", bad)]),
        body(),
    )
    .expect_error(401, "unauthorized");
}

#[test]
fn malformed_credentials_are_401() {
    let t = tenant();
    // A valid key under the wrong scheme, an empty bearer, a too-short key, a key with a suffix.
    let basic = format!("Basic {}", t.key);
    let suffixed = format!("Bearer {}x", t.key);
    for auth in [
        basic.as_str(),
        "Bearer ",
        "Bearer",
        "Bearer short",
        suffixed.as_str(),
    ] {
        raw("GET", "/accounts", &[("authorization", auth)], None).expect_error(401, "unauthorized");
    }
    raw("GET", "/accounts", &[("x-api-key", "")], None).expect_error(401, "unauthorized");
}

#[test]
fn bearer_works_for_reads_and_writes() {
    let t = tenant();
    let auth = format!("Bearer {}", t.key);
    let created = raw(
        "POST",
        "/accounts",
        &json_headers(&[("authorization", &auth)]),
        body(),
    );
    let account = created.data(201);
    assert_eq!(account["client"], json!(t.client));
    let path = format!("/accounts/{}", id(account));
    raw("GET", &path, &[("authorization", &auth)], None).expect(200);
    raw("GET", "/accounts", &[("authorization", &auth)], None).expect(200);
}

#[test]
fn x_api_key_works_for_reads_and_writes() {
    let t = tenant();
    let created = raw(
        "POST",
        "/accounts",
        &json_headers(&[("x-api-key", &t.key)]),
        body(),
    );
    let account = created.data(201);
    assert_eq!(account["client"], json!(t.client));
    let path = format!("/accounts/{}", id(account));
    raw("GET", &path, &[("x-api-key", &t.key)], None).expect(200);
    let put = raw(
        "PUT",
        &path,
        &json_headers(&[("x-api-key", &t.key)]),
        Some(br#"{"name":"Renamed"}"#.to_vec()),
    );
    assert_eq!(put.data(200)["name"], json!("Renamed"));
    let list = raw("GET", "/accounts", &[("x-api-key", &t.key)], None);
    assert_eq!(ids(&list), vec![id(account)]);
}

#[test]
fn both_schemes_reach_the_same_client() {
    let t = tenant();
    let account = create_account(&t, json!({}));
    let path = format!("/accounts/{}", id(&account));
    let by_header = raw("GET", &path, &[("x-api-key", &t.key)], None);
    let by_bearer = t.get(&path);
    assert_eq!(by_header.data(200), by_bearer.data(200));
}

#[test]
fn header_names_are_case_insensitive() {
    let t = tenant();
    let auth = format!("Bearer {}", t.key);
    raw("GET", "/accounts", &[("AUTHORIZATION", &auth)], None).expect(200);
    raw("GET", "/accounts", &[("X-Api-Key", &t.key)], None).expect(200);
}
