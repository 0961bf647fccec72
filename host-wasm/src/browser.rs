//! The browser face (`wasm32-unknown-unknown`): the core's request validators as JavaScript functions,
//! so a page reports exactly the field errors the server would, before sending anything.
//!
//! No validation logic lives here: every function hands the body to `card_core::forms`, the same code
//! the server runs.
//!
//! Inputs cross as JSON text: a JS value is turned into text by the page's own `JSON.stringify` and
//! parsed by `serde_json`, exactly as the server parses the body `fetch` sends. So numbers keep the
//! digits JavaScript writes for them (`10.1` stays `10.1`, no `f64` round trip in Rust), `undefined`
//! properties vanish as they do on the wire, and `Date`s become the strings the server would see.

use card_core::Timestamp;
use card_core::error::FieldError;
use card_core::http::forms;
use serde_json::Value;
use wasm_bindgen::prelude::*;

// The request bodies' types are generated from the OpenAPI component schemas, which the core builds
// from the bodies' declarations (`body!`); a host-native test keeps the file equal to the generator.
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = include_str!("browser.d.ts");

/// The body as the server would parse it: `JSON.stringify` then `serde_json`. A value JSON cannot
/// carry (a cycle, a BigInt, a bare `undefined` or function) is no JSON object either.
fn json_of(value: &JsValue) -> Result<Value, Vec<FieldError>> {
    js_sys::JSON::stringify(value)
        .ok()
        .and_then(|s| s.as_string())
        .and_then(|text| serde_json::from_str(&text).ok())
        .ok_or_else(|| vec![FieldError::new("body", "must be a JSON object")])
}

/// Field errors as a JS array of plain `{field, message}` objects.
fn to_js<T: serde::Serialize + ?Sized>(value: &T) -> JsValue {
    // Plain objects, not `Map`s, so pages can read `e.field` and compare with the server's JSON.
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    value.serialize(&serializer).unwrap_or(JsValue::NULL)
}

fn validate(body: &JsValue, check: fn(&Value) -> Vec<FieldError>) -> JsValue {
    let errors = match json_of(body) {
        Ok(v) => check(&v),
        Err(e) => e,
    };
    to_js(&errors)
}

/// Checks a POST /accounts body; an empty array means the server's validation would pass.
#[wasm_bindgen(js_name = validateCreateAccount, unchecked_return_type = "FieldError[]")]
pub fn validate_create_account(
    #[wasm_bindgen(unchecked_param_type = "Draft<CreateAccountBody>")] body: JsValue,
) -> JsValue {
    validate(&body, forms::create_account)
}

/// Checks a POST /card-holders body in its JSON form (camelCase or snake_case keys). "Today", for the
/// date-of-birth check, is the browser's clock, as the server uses its own.
#[wasm_bindgen(js_name = validateCreateCardHolder, unchecked_return_type = "FieldError[]")]
pub fn validate_create_card_holder(
    #[wasm_bindgen(unchecked_param_type = "Draft<CreateCardHolderBody>")] body: JsValue,
) -> JsValue {
    // Date.now() is integral milliseconds, well inside i64.
    let now = Timestamp(js_sys::Date::now() as i64);
    let errors = match json_of(&body) {
        Ok(v) => forms::create_card_holder(&v, now),
        Err(e) => e,
    };
    to_js(&errors)
}

/// Checks a POST /cards body (the checks that need no stored record: existence, ownership,
/// currency and funds are the server's).
#[wasm_bindgen(js_name = validateCreateCard, unchecked_return_type = "FieldError[]")]
pub fn validate_create_card(
    #[wasm_bindgen(unchecked_param_type = "Draft<CreateCardBody>")] body: JsValue,
) -> JsValue {
    validate(&body, forms::create_card)
}

/// Checks a PUT /cards/{id} body.
#[wasm_bindgen(js_name = validateUpdateCard, unchecked_return_type = "FieldError[]")]
pub fn validate_update_card(
    #[wasm_bindgen(unchecked_param_type = "Draft<UpdateCardBody>")] body: JsValue,
) -> JsValue {
    validate(&body, forms::update_card)
}

/// Checks a POST /cards/{id}/fund body.
#[wasm_bindgen(js_name = validateFundCard, unchecked_return_type = "FieldError[]")]
pub fn validate_fund_card(
    #[wasm_bindgen(unchecked_param_type = "Draft<FundCardBody>")] body: JsValue,
) -> JsValue {
    validate(&body, forms::fund_card)
}

/// Checks a POST /cards/{id}/authorizations body (the decision itself is the server's).
#[wasm_bindgen(js_name = validateCreateAuthorization, unchecked_return_type = "FieldError[]")]
pub fn validate_create_authorization(
    #[wasm_bindgen(unchecked_param_type = "Draft<CreateAuthorizationBody>")] body: JsValue,
) -> JsValue {
    validate(&body, forms::create_authorization)
}

/// Checks a POST /authorizations/{id}/increment body (the checks of the purchase are the server's).
#[wasm_bindgen(js_name = validateIncrementAuthorization, unchecked_return_type = "FieldError[]")]
pub fn validate_increment_authorization(
    #[wasm_bindgen(unchecked_param_type = "Draft<IncrementAuthorizationBody>")] body: JsValue,
) -> JsValue {
    validate(&body, forms::increment_authorization)
}

/// Checks a POST /test-clock/advance body.
#[wasm_bindgen(js_name = validateAdvanceTestClock, unchecked_return_type = "FieldError[]")]
pub fn validate_advance_test_clock(
    #[wasm_bindgen(unchecked_param_type = "Draft<AdvanceTestClockBody>")] body: JsValue,
) -> JsValue {
    validate(&body, forms::advance_test_clock)
}

/// Checks a PUT /authorization-endpoint body (private ranges are the operator's choice: the server's).
#[wasm_bindgen(js_name = validateSetAuthorizationEndpoint, unchecked_return_type = "FieldError[]")]
pub fn validate_set_authorization_endpoint(
    #[wasm_bindgen(unchecked_param_type = "Draft<SetAuthorizationEndpointBody>")] body: JsValue,
) -> JsValue {
    validate(&body, forms::set_authorization_endpoint)
}

/// Checks a POST /accounts/transfers body (the accounts themselves, their currencies and funds are
/// the server's).
#[wasm_bindgen(js_name = validateTransfer, unchecked_return_type = "FieldError[]")]
pub fn validate_transfer(
    #[wasm_bindgen(unchecked_param_type = "Draft<CreateTransferBody>")] body: JsValue,
) -> JsValue {
    validate(&body, forms::create_transfer)
}

/// Checks a POST /card-transactions/{id}/disputes body (what is left to dispute is the server's).
#[wasm_bindgen(js_name = validateDispute, unchecked_return_type = "FieldError[]")]
pub fn validate_dispute(
    #[wasm_bindgen(unchecked_param_type = "Draft<CreateDisputeBody>")] body: JsValue,
) -> JsValue {
    validate(&body, forms::create_dispute)
}

/// Checks a POST /disputes/{id}/resolve body.
#[wasm_bindgen(js_name = validateResolveDispute, unchecked_return_type = "FieldError[]")]
pub fn validate_resolve_dispute(
    #[wasm_bindgen(unchecked_param_type = "Draft<ResolveDisputeBody>")] body: JsValue,
) -> JsValue {
    validate(&body, forms::resolve_dispute)
}

/// Checks a POST /webhook-endpoints body (the URL policy is the server's).
#[wasm_bindgen(js_name = validateWebhookEndpoint, unchecked_return_type = "FieldError[]")]
pub fn validate_webhook_endpoint(
    #[wasm_bindgen(unchecked_param_type = "Draft<CreateWebhookEndpointBody>")] body: JsValue,
) -> JsValue {
    validate(&body, forms::create_webhook_endpoint)
}

/// Checks a PUT /webhook-endpoints/{id} body (the URL policy is the server's).
#[wasm_bindgen(js_name = validateWebhookEndpointUpdate, unchecked_return_type = "FieldError[]")]
pub fn validate_webhook_endpoint_update(
    #[wasm_bindgen(unchecked_param_type = "Draft<UpdateWebhookEndpointBody>")] body: JsValue,
) -> JsValue {
    validate(&body, forms::update_webhook_endpoint)
}

/// Parses a list query string (no leading `?`) for a list endpoint into its normalized plan, or the
/// field errors the server would answer with.
#[wasm_bindgen(js_name = parseListQuery, unchecked_return_type = "ParsedListQuery")]
pub fn parse_list_query(
    #[wasm_bindgen(unchecked_param_type = "ListResource")] resource: &str,
    query: &str,
) -> JsValue {
    let query = query.strip_prefix('?').unwrap_or(query);
    let result = match forms::parse_list_query(resource, query) {
        Ok(plan) => serde_json::json!({ "ok": true, "plan": plan }),
        Err(errors) => serde_json::json!({ "ok": false, "errors": errors }),
    };
    // Through JSON text: serde_json's exact numbers (arbitrary_precision) are not plain numbers to
    // serde-wasm-bindgen, while JSON.parse reads them as the page would read the server's JSON.
    serde_json::to_string(&result)
        .ok()
        .and_then(|text| js_sys::JSON::parse(&text).ok())
        .unwrap_or(JsValue::NULL)
}
