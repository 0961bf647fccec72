//! Request-body validation without storage, for clients (the browser module): the same checks and the
//! same field errors the server answers with, because they are the same functions.

use serde_json::Value;

use super::handlers::card_holders::validate_create_json;
use super::parse;
use super::views;
use crate::error::{ApiError, FieldError};
use crate::query;

fn object(body: &Value) -> Result<serde_json::Map<String, Value>, Vec<FieldError>> {
    match body {
        Value::Object(m) => Ok(m.clone()),
        _ => Err(vec![FieldError::new("body", "must be a JSON object")]),
    }
}

fn errors<T>(result: Result<T, ApiError>) -> Vec<FieldError> {
    match result {
        Err(ApiError::Validation(e)) => e,
        _ => Vec::new(),
    }
}

/// POST /accounts. `client` is not known in a browser, so a given `client` is not compared.
pub fn create_account(body: &Value) -> Vec<FieldError> {
    match object(body) {
        Ok(m) => errors(parse::accounts::create(m, None)),
        Err(e) => e,
    }
}

/// POST /cards (the checks that need no stored record).
pub fn create_card(body: &Value) -> Vec<FieldError> {
    match object(body) {
        Ok(m) => errors(parse::cards::create(m)),
        Err(e) => e,
    }
}

/// PUT /cards/{id}; spending controls are checked as if merged over a card with default controls.
pub fn update_card(body: &Value) -> Vec<FieldError> {
    match object(body) {
        Ok(m) => errors(parse::cards::update(m)),
        Err(e) => e,
    }
}

/// POST /cards/{id}/authorizations.
pub fn create_authorization(body: &Value) -> Vec<FieldError> {
    match object(body) {
        Ok(m) => errors(parse::authorizations::create(m)),
        Err(e) => e,
    }
}

/// POST /authorizations/{id}/increment.
pub fn increment_authorization(body: &Value) -> Vec<FieldError> {
    match object(body) {
        Ok(m) => errors(parse::authorizations::increment(m)),
        Err(e) => e,
    }
}

/// POST /test-clock/advance (the 10-year bound depends on the clock, so it is the server's).
pub fn advance_test_clock(body: &Value) -> Vec<FieldError> {
    match object(body) {
        Ok(m) => errors(parse::test_clock::advance(m)),
        Err(e) => e,
    }
}

/// PUT /authorization-endpoint. Private ranges are the operator's choice, which a client does not
/// know: they pass here and the server decides.
pub fn set_authorization_endpoint(body: &Value) -> Vec<FieldError> {
    let lenient = crate::domain::push::UrlPolicy {
        allow_private: true,
    };
    match object(body) {
        Ok(m) => errors(parse::decisions::settings(m, |url| {
            crate::domain::push::url_policy::check_url(lenient, url)
                .map(drop)
                .map_err(|r| r.to_string())
        })),
        Err(e) => e,
    }
}

/// POST /cards/{id}/fund.
pub fn fund_card(body: &Value) -> Vec<FieldError> {
    match object(body) {
        Ok(m) => errors(parse::cards::fund(m)),
        Err(e) => e,
    }
}

/// POST /accounts/transfers (the checks that need no stored record).
pub fn create_transfer(body: &Value) -> Vec<FieldError> {
    match object(body) {
        Ok(m) => errors(parse::transfers::create(m)),
        Err(e) => e,
    }
}

/// POST /card-transactions/{id}/disputes.
pub fn create_dispute(body: &Value) -> Vec<FieldError> {
    match object(body) {
        Ok(m) => errors(parse::disputes::create(m)),
        Err(e) => e,
    }
}

/// POST /disputes/{id}/resolve.
pub fn resolve_dispute(body: &Value) -> Vec<FieldError> {
    match object(body) {
        Ok(m) => errors(parse::disputes::resolve(m)),
        Err(e) => e,
    }
}

/// POST /webhook-endpoints (the operator's URL policy is the server's: it depends on configuration).
pub fn create_webhook_endpoint(body: &Value) -> Vec<FieldError> {
    match object(body) {
        Ok(m) => errors(parse::webhooks::create(m)),
        Err(e) => e,
    }
}

/// PUT /webhook-endpoints/{id} (the URL policy is the server's).
pub fn update_webhook_endpoint(body: &Value) -> Vec<FieldError> {
    match object(body) {
        Ok(m) => errors(parse::webhooks::update(m)),
        Err(e) => e,
    }
}

/// POST /card-holders in its JSON form. `now` decides what "a date of birth in the future" is.
pub fn create_card_holder(body: &Value, now: crate::Timestamp) -> Vec<FieldError> {
    match object(body) {
        Ok(m) => errors(validate_create_json(m, now)),
        Err(e) => e,
    }
}

/// The resources with list endpoints, by the path segment that names them (the browser module's
/// `ListResource` type is generated from this table).
pub static LISTS: &[(&str, &query::Schema)] = &[
    ("accounts", &views::ACCOUNT),
    ("account-details", &views::ACCOUNT_DETAIL),
    ("transactions", &views::LEDGER_ENTRY),
    ("cards", &views::CARD),
    ("card-holders", &views::CARD_HOLDER),
    ("authorizations", &views::AUTHORIZATION),
    ("card-transactions", &views::CARD_TRANSACTION),
    ("events", &views::EVENT),
    ("transfers", &views::TRANSFER),
    ("disputes", &views::DISPUTE),
    ("webhook-endpoints", &views::WEBHOOK_ENDPOINT),
    ("deliveries", &views::WEBHOOK_DELIVERY),
];

/// The list-query schema of a listable resource.
pub fn list_schema(resource: &str) -> Option<&'static query::Schema> {
    LISTS
        .iter()
        .find(|(name, _)| *name == resource)
        .map(|(_, schema)| *schema)
}

/// Parses a list query for `resource` into its normalized plan.
pub fn parse_list_query(resource: &str, query: &str) -> Result<Value, Vec<FieldError>> {
    let schema = list_schema(resource)
        .ok_or_else(|| vec![FieldError::new("resource", "is not a listable resource")])?;
    query::parse(query, schema).map(|q| q.to_json())
}
