//! Idempotency-Key on POST: one effect, the stored response replayed, a different request refused.

use acceptance::fixtures::{account_body, create_account, detail_body, id};
use acceptance::*;
use serde_json::json;

fn post_with_key(t: &Tenant, path: &str, key: &str, body: &serde_json::Value) -> Resp {
    t.send(
        "POST",
        path,
        &[
            ("content-type", "application/json"),
            ("idempotency-key", key),
        ],
        Some(serde_json::to_vec(body).unwrap()),
    )
}

#[test]
fn a_repeat_replays_the_first_response_and_creates_once() {
    let t = tenant();
    let body = account_body(json!({"balance": 40}));
    let first = post_with_key(&t, "/accounts", "create-1", &body);
    first.expect(201);
    assert!(first.header("idempotent-replayed").is_none());
    let second = post_with_key(&t, "/accounts", "create-1", &body);
    second.expect(201);
    assert_eq!(second.header("idempotent-replayed"), Some("true"));
    assert_eq!(second.body, first.body);
    assert_eq!(int(&t.get("/accounts").body["meta"]["total"]), 1);
    // The balance was recorded once.
    let ledger = t.get(&format!(
        "/accounts/{}/transactions",
        id(&first.body["data"])
    ));
    assert_eq!(ids(&ledger).len(), 1);
}

#[test]
fn a_different_request_with_the_same_key_is_409() {
    let t = tenant();
    post_with_key(
        &t,
        "/accounts",
        "k-2",
        &account_body(json!({"name": "one"})),
    )
    .expect(201);
    post_with_key(
        &t,
        "/accounts",
        "k-2",
        &account_body(json!({"name": "two"})),
    )
    .expect_error(409, "idempotency_conflict");
    let account = create_account(&t, json!({}));
    post_with_key(
        &t,
        &format!("/accounts/{}/details", id(&account)),
        "k-2",
        &detail_body(json!({})),
    )
    .expect_error(409, "idempotency_conflict");
    assert_eq!(int(&t.get("/accounts").body["meta"]["total"]), 2);
}

#[test]
fn keys_are_per_client() {
    let a = tenant();
    let b = tenant();
    let ra = post_with_key(&a, "/accounts", "shared-key", &account_body(json!({})));
    let rb = post_with_key(&b, "/accounts", "shared-key", &account_body(json!({})));
    ra.expect(201);
    rb.expect(201);
    assert!(rb.header("idempotent-replayed").is_none());
    assert_ne!(ra.body["data"]["_id"], rb.body["data"]["_id"]);
    assert_eq!(rb.body["data"]["client"], json!(b.client));
}

#[test]
fn invalid_keys_are_400() {
    let t = tenant();
    let long = "k".repeat(256);
    for key in [long.as_str(), "tab\there", "ключ"] {
        let resp = post_with_key(&t, "/accounts", key, &account_body(json!({})));
        resp.expect_error(400, "validation_error");
    }
    assert_eq!(int(&t.get("/accounts").body["meta"]["total"]), 0);
    let ok = "k".repeat(255);
    post_with_key(&t, "/accounts", &ok, &account_body(json!({}))).expect(201);
}
