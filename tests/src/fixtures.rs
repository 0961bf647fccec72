//! Valid request bodies and creation helpers, so each test states only what it is about.

use serde_json::{Value, json};

use crate::client::Tenant;

/// Merges the top-level keys of `overrides` into `base`; a `null` override removes the key.
pub fn merge(mut base: Value, overrides: Value) -> Value {
    if let (Some(base_map), Value::Object(over)) = (base.as_object_mut(), overrides) {
        for (k, v) in over {
            if v.is_null() {
                base_map.remove(&k);
            } else {
                base_map.insert(k, v);
            }
        }
    }
    base
}

/// A valid POST /accounts body (without `client`, like the quickstart).
pub fn account_body(overrides: Value) -> Value {
    merge(
        json!({
            "ownerType": "business",
            "name": "Operating account",
            "type": "checking",
            "category": "fiat",
            "currency": "USD"
        }),
        overrides,
    )
}

/// Creates an account (asserting 201) and returns its `data`.
#[track_caller]
pub fn create_account(t: &Tenant, overrides: Value) -> Value {
    t.post("/accounts", &account_body(overrides))
        .data(201)
        .clone()
}

/// A valid POST /accounts/{id}/details body.
pub fn detail_body(overrides: Value) -> Value {
    merge(
        json!({
            "type": "bank_account",
            "details": {"bankName": "First Bank", "accountNumber": "0123456789", "iban": "GB33BUKB20201555555555"},
            "provider": "acme-bank"
        }),
        overrides,
    )
}

/// Creates an account detail (asserting 201) and returns its `data`.
#[track_caller]
pub fn create_detail(t: &Tenant, account_id: &str, overrides: Value) -> Value {
    t.post(
        &format!("/accounts/{account_id}/details"),
        &detail_body(overrides),
    )
    .data(201)
    .clone()
}

/// The `_id` string of a resource.
#[track_caller]
pub fn id(resource: &Value) -> String {
    crate::assert::object_id(&resource["_id"]).to_string()
}
