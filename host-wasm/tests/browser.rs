//! The browser face's exported functions, run in headless Chromium by wasm-bindgen-test
//! (`scripts/test-browser`). Inputs are real JS values, built the way a page builds them.
#![cfg(all(target_arch = "wasm32", target_os = "unknown"))]

use host_wasm::browser::*;
use serde_json::{Value, json};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// A JS object as the page would write it (`JSON.parse` of a literal).
fn js(value: Value) -> JsValue {
    js_sys::JSON::parse(&value.to_string()).expect("test literal is JSON")
}

/// A JS result read back as JSON, the shape the page sees.
fn back(value: JsValue) -> Value {
    let text = js_sys::JSON::stringify(&value)
        .expect("result is JSON")
        .as_string()
        .expect("a string");
    serde_json::from_str(&text).expect("result parses")
}

fn errors(value: JsValue) -> Vec<(String, String)> {
    let Value::Array(items) = back(value) else {
        panic!("field errors must be an array")
    };
    items
        .into_iter()
        .map(|e| {
            let keys: Vec<&String> = e.as_object().expect("an object").keys().collect();
            assert_eq!(keys, ["field", "message"], "exactly {{field, message}}");
            (
                e["field"].as_str().unwrap().to_string(),
                e["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn err(field: &str, message: &str) -> (String, String) {
    (field.to_string(), message.to_string())
}

fn account() -> Value {
    json!({"ownerType": "business", "name": "Ops wallet", "type": "checking",
           "category": "fiat", "currency": "usd", "balance": 250.75})
}

#[wasm_bindgen_test]
fn a_valid_account_has_no_errors() {
    assert_eq!(errors(validate_create_account(js(account()))), vec![]);
}

#[wasm_bindgen_test]
fn an_empty_account_names_every_required_field() {
    assert_eq!(
        errors(validate_create_account(js(json!({})))),
        vec![
            err("ownerType", "is required"),
            err("name", "is required"),
            err("type", "is required"),
            err("category", "is required"),
            err("currency", "is required"),
        ]
    );
}

#[wasm_bindgen_test]
fn account_values_are_checked() {
    let mut body = account();
    body["ownerType"] = json!("individual");
    body["balance"] = json!(-5);
    body["canDebit"] = json!("yes");
    body["colour"] = json!("red");
    let got = errors(validate_create_account(js(body)));
    assert!(
        got.contains(&err(
            "ownerType",
            "must be one of: user, business, system, provider"
        )),
        "{got:?}"
    );
    assert!(
        got.contains(&err("balance", "must not be negative")),
        "{got:?}"
    );
    assert!(
        got.contains(&err("canDebit", "must be a boolean")),
        "{got:?}"
    );
    assert!(
        got.contains(&err("colour", "is not a known field")),
        "{got:?}"
    );
    assert_eq!(got.len(), 4, "{got:?}");
}

#[wasm_bindgen_test]
fn js_numbers_keep_their_decimal_digits() {
    // 10.1 and 0.1 have no exact f64; a float round trip would make them fail the 2-places rule.
    for amount in [
        json!(10.1),
        json!(0.1),
        json!(0.01),
        json!(1234567.89),
        json!(5),
    ] {
        let body = json!({"debitAccountId": "a", "amount": amount});
        assert_eq!(
            errors(validate_fund_card(js(body))),
            vec![],
            "amount {amount}"
        );
    }
    let body = json!({"debitAccountId": "a", "amount": 10.125});
    assert_eq!(
        errors(validate_fund_card(js(body))),
        vec![err("amount", "must have at most 2 decimal places")]
    );
    let body = json!({"debitAccountId": "a", "amount": 0});
    assert_eq!(
        errors(validate_fund_card(js(body))),
        vec![err("amount", "must be at least 0.01")]
    );
    let body = json!({"debitAccountId": "a", "amount": "10"});
    assert_eq!(
        errors(validate_fund_card(js(body))),
        vec![err("amount", "must be a number")]
    );
}

#[wasm_bindgen_test]
fn undefined_properties_are_absent_as_on_the_wire() {
    // JSON.stringify (what fetch sends) drops them, so the server never sees them.
    let body = js(json!({"debitAccountId": "a", "amount": 1}));
    js_sys::Reflect::set(&body, &"note".into(), &JsValue::UNDEFINED).unwrap();
    assert_eq!(errors(validate_fund_card(body)), vec![]);
    let body = js(json!({"amount": 1}));
    js_sys::Reflect::set(&body, &"debitAccountId".into(), &JsValue::UNDEFINED).unwrap();
    assert_eq!(
        errors(validate_fund_card(body)),
        vec![err("debitAccountId", "is required")]
    );
}

#[wasm_bindgen_test]
fn a_body_must_be_an_object() {
    for body in [
        JsValue::UNDEFINED,
        JsValue::NULL,
        JsValue::from_str("x"),
        js(json!([1, 2])),
    ] {
        assert_eq!(
            errors(validate_fund_card(body)),
            vec![err("body", "must be a JSON object")]
        );
    }
}

#[wasm_bindgen_test]
fn card_issuing_is_checked() {
    let valid = json!({"debitAccountId": "a", "cardHolderId": "h", "type": "virtual",
                       "brand": "visa", "status": "active", "amount": 25.5,
                       "spendingControls": {"spendingLimits": [{"amount": 100, "interval": "daily"}]}});
    assert_eq!(errors(validate_create_card(js(valid.clone()))), vec![]);

    let mut bad = valid;
    bad["amount"] = json!(0.5);
    bad["type"] = json!("plastic");
    bad["spendingControls"]["spendingLimits"][0]["interval"] = json!("hourly");
    let got = errors(validate_create_card(js(bad)));
    assert!(
        got.contains(&err("amount", "must be at least 1")),
        "{got:?}"
    );
    assert!(
        got.contains(&err("type", "must be one of: virtual, physical")),
        "{got:?}"
    );
    assert!(
        got.contains(&err(
            "spendingControls.spendingLimits[0].interval",
            "must be one of: per_authorization, daily, weekly, monthly, yearly, all_time"
        )),
        "path into the array: {got:?}"
    );
}

#[wasm_bindgen_test]
fn card_updates_are_checked() {
    assert_eq!(
        errors(validate_update_card(js(json!({"status": "inactive"})))),
        vec![]
    );
    let got = errors(validate_update_card(js(json!({"status": "gone"}))));
    assert_eq!(
        got,
        vec![err("status", "must be one of: active, inactive, canceled")]
    );
}

#[wasm_bindgen_test]
fn list_queries_parse_or_explain() {
    let parsed = back(parse_list_query("accounts", "page=2&limit=5&sort=-name"));
    assert_eq!(parsed["ok"], json!(true), "{parsed}");
    assert!(parsed["plan"].is_object(), "{parsed}");

    let parsed = back(parse_list_query("cards", "limit=500"));
    assert_eq!(parsed["ok"], json!(false), "{parsed}");
    assert_eq!(parsed["errors"][0]["field"], json!("limit"), "{parsed}");

    let parsed = back(parse_list_query("planets", ""));
    assert_eq!(
        parsed,
        json!({"ok": false, "errors": [{"field": "resource", "message": "is not a listable resource"}]})
    );
}

#[wasm_bindgen_test]
fn card_holders_are_checked() {
    let valid = json!({"name": "Ada Obi", "person": {"firstName": "Ada", "lastName": "Obi",
                       "email": "ada@example.com", "phoneNumber": "+2348012345678",
                       "dateOfBirth": "1990-02-28", "gender": "f"},
                       "address": {"line1": "1 Marina", "countryCode": "ng"}});
    assert_eq!(errors(validate_create_card_holder(js(valid))), vec![]);
    let snake = json!({"name": "Ada Obi", "person": {"first_name": "Ada", "last_name": "Obi",
                       "email": "ada@example.com", "phone_number": "+2348012345678"}});
    assert_eq!(errors(validate_create_card_holder(js(snake))), vec![]);

    let bad = json!({"name": "X", "person": {"firstName": "A", "lastName": "B", "email": "nope",
                     "phoneNumber": "12", "dateOfBirth": "2999-01-01", "gender": "x"}});
    let got = errors(validate_create_card_holder(js(bad)));
    for field in [
        "person.email",
        "person.phoneNumber",
        "person.dateOfBirth",
        "person.gender",
    ] {
        assert!(got.iter().any(|(f, _)| f == field), "{field} in {got:?}");
    }
    let got = errors(validate_create_card_holder(js(json!({}))));
    assert!(
        got.iter().any(|(f, m)| f == "person" && m == "is required"),
        "{got:?}"
    );
}
