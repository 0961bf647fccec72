//! The OpenAPI 3.1 document of the API, built from the route table (`ROUTES`: each route's path,
//! method, who may call it and its [`Operation`]: name, body, answers, links), the error table (`ApiError`:
//! every status and code) and the domain's enumerations. Served at `GET /openapi.json`; `docs/openapi.json`
//! is a copy a test keeps equal (`UPDATE_OPENAPI=1 cargo test -p host-native --test openapi_file`
//! rewrites it).

mod schemas;
mod typescript;

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde_json::{Map, Value, json};

use super::handlers::Call;
use super::routes::{Access, Auth, ROUTES, Route};
use super::views;
use super::{Method, Response};
use crate::error::{ApiError, ApiResult, FieldError};
use crate::query::{FILTER_NUMBER_LIMIT, FieldType, Schema};
use schemas::reference;

/// The request body a route takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Body {
    None,
    /// A JSON object of this component schema.
    Json(&'static str),
    /// The same, or no body at all.
    OptionalJson(&'static str),
    /// JSON, or multipart with JSON-text parts, flat parts and files (POST /card-holders).
    CardHolder,
}

/// What a success answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Success {
    /// `{"statusCode","message","data"}` with `data` of this component schema.
    Data(u16, &'static str),
    /// A list page of this component schema.
    List(&'static str),
    /// This component schema, bare (not enveloped).
    Bare(&'static str),
    /// A stored file (JPEG, PNG or PDF).
    File,
    /// This document.
    OpenApi,
}

/// What the document says of a route beyond its path, method and auth: declared with the route
/// (`Route::op`).
#[derive(Debug, Clone, Copy)]
pub struct Operation {
    pub id: &'static str,
    pub tag: &'static str,
    pub summary: &'static str,
    pub body: Body,
    pub success: Success,
    /// Statuses this route may answer besides the ones of its kind (auth, body, write, `{id}`).
    pub errors: &'static [u16],
    /// How the record a success answers feeds the next calls (for readers, and for stateful
    /// contract tests that walk account -> card -> fund -> token -> reveal).
    pub links: &'static [Link],
}

/// An OpenAPI link: call operation `op` with these parameters and body fields (each a runtime
/// expression such as `$response.body#/data/_id`, or a constant).
#[derive(Debug, Clone, Copy)]
pub struct Link {
    pub name: &'static str,
    pub op: &'static str,
    pub parameters: &'static [(&'static str, &'static str)],
    pub body: &'static [(&'static str, &'static str)],
}

/// One value of every `ApiError` variant (the match has no wildcard, so a new variant does not
/// compile until it is listed here, and so reaches the document).
fn every_error() -> Vec<ApiError> {
    let mut all = vec![
        ApiError::Validation(vec![FieldError::new("f", "m")]),
        ApiError::Unauthorized,
        ApiError::InvalidToken,
        ApiError::PermissionDenied(String::new()),
        ApiError::NotFound("Card"),
        ApiError::MethodNotAllowed(String::new()),
        ApiError::InvalidState(String::new()),
        ApiError::IdempotencyConflict,
        ApiError::PayloadTooLarge,
        ApiError::QuotaExceeded {
            used: 0,
            adding: 0,
            quota: 0,
        },
        ApiError::UnsupportedMediaType(String::new()),
        ApiError::InsufficientFunds,
        ApiError::AccountUnavailable(String::new()),
        ApiError::CurrencyMismatch(String::new()),
        ApiError::Busy,
        ApiError::RequestTimeout,
        ApiError::RateLimited {
            retry_after_secs: 1,
        },
        ApiError::Unavailable(String::new()),
        ApiError::NotConfigured {
            code: crate::domain::vault::NOT_CONFIGURED,
            message: String::new(),
        },
        ApiError::NotConfigured {
            code: crate::domain::vault::KEY_MISMATCH,
            message: String::new(),
        },
        ApiError::Internal(String::new()),
    ];
    // A declined increment answers 422 with the decline reason as its code.
    all.extend(
        crate::domain::authorizations::DeclineReason::ALL
            .iter()
            .map(|r| ApiError::Declined(r)),
    );
    for e in &all {
        match e {
            ApiError::Validation(_)
            | ApiError::Unauthorized
            | ApiError::InvalidToken
            | ApiError::PermissionDenied(_)
            | ApiError::NotFound(_)
            | ApiError::MethodNotAllowed(_)
            | ApiError::InvalidState(_)
            | ApiError::IdempotencyConflict
            | ApiError::PayloadTooLarge
            | ApiError::QuotaExceeded { .. }
            | ApiError::UnsupportedMediaType(_)
            | ApiError::InsufficientFunds
            | ApiError::AccountUnavailable(_)
            | ApiError::CurrencyMismatch(_)
            | ApiError::Declined(_)
            | ApiError::Busy
            | ApiError::RequestTimeout
            | ApiError::RateLimited { .. }
            | ApiError::Unavailable(_)
            | ApiError::NotConfigured { .. }
            | ApiError::Internal(_) => {}
        }
    }
    all
}

/// Error codes by status, from the error table.
fn codes_by_status() -> BTreeMap<u16, Vec<&'static str>> {
    let mut by: BTreeMap<u16, Vec<&'static str>> = BTreeMap::new();
    for e in every_error() {
        let codes = by.entry(e.status()).or_default();
        if !codes.contains(&e.code()) {
            codes.push(e.code());
        }
    }
    by
}

/// The statuses a route can answer with an error: those of its kind, then its own.
fn error_statuses(route: &Route) -> Vec<u16> {
    let op = &route.op;
    let mut s = vec![408];
    if route.auth == Auth::Key {
        s.extend([401, 403, 429]);
    }
    if op.body != Body::None {
        s.extend([400, 413, 415]);
    }
    if route.method == Method::Post && route.auth == Auth::Key {
        // idempotency_conflict, and a malformed Idempotency-Key.
        s.extend([400, 409]);
    }
    if matches!(op.success, Success::List(_)) {
        // A bad parameter; a cursor naming no record.
        s.extend([400, 404]);
    }
    if route.path.contains("{id}") {
        s.push(404);
    }
    if route.access == Access::Write {
        s.push(503);
    }
    s.extend(op.errors);
    s.sort_unstable();
    s.dedup();
    s
}

fn json_content(schema: Value) -> Value {
    json!({ "application/json": { "schema": schema } })
}

fn success_response(op: &Operation) -> (u16, Value) {
    match op.success {
        Success::Data(status, schema) => (
            status,
            json!({
                "description": op.summary,
                "content": json_content(schemas::envelope(reference(schema))),
            }),
        ),
        Success::List(item) => (
            200,
            json!({
                "description": "A page of results",
                "content": json_content(reference(&format!("{item}List"))),
            }),
        ),
        Success::Bare(schema) => (
            200,
            json!({
                "description": op.summary,
                "headers": {"Cache-Control": {"schema": {"type": "string", "const": "no-store"}}},
                "content": json_content(reference(schema)),
            }),
        ),
        Success::File => {
            let binary = json!({ "schema": { "type": "string", "contentMediaType": "application/octet-stream" } });
            (
                200,
                json!({
                    "description": "The file's bytes, with the type it was recognised as",
                    "content": {
                        "image/jpeg": binary,
                        "image/png": binary,
                        "application/pdf": binary,
                    },
                }),
            )
        }
        Success::OpenApi => (
            200,
            json!({
                "description": "This document",
                "content": json_content(json!({"type": "object"})),
            }),
        ),
    }
}

fn request_body(body: Body) -> Option<Value> {
    match body {
        Body::None => None,
        Body::Json(schema) | Body::OptionalJson(schema) => {
            let mut content = json_content(reference(schema));
            if let Some(e) = schemas::example(schema) {
                content["application/json"]["example"] = e;
            }
            let required = matches!(body, Body::Json(_));
            Some(json!({ "required": required, "content": content }))
        }
        Body::CardHolder => Some(json!({
            "required": true,
            "content": {
                "application/json": {
                    "schema": reference("CardHolderCreate"),
                    "example": schemas::example("CardHolderCreate"),
                },
                "multipart/form-data": {
                    "schema": reference("CardHolderCreateMultipart"),
                    "example": schemas::example("CardHolderCreateMultipart"),
                },
            },
        })),
    }
}

/// A route's OpenAPI links (`Operation::links`), by name.
fn links(op: &Operation) -> Option<Value> {
    if op.links.is_empty() {
        return None;
    }
    let object = |pairs: &[(&str, &str)]| -> Map<String, Value> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), json!(v)))
            .collect()
    };
    let links = op.links.iter().map(|l| {
        let mut link = json!({"operationId": l.op, "parameters": object(l.parameters)});
        if !l.body.is_empty() {
            link["requestBody"] = Value::Object(object(l.body));
        }
        (l.name.to_string(), link)
    });
    Some(Value::Object(links.collect()))
}

fn parameter(name: &str) -> Value {
    json!({ "$ref": format!("#/components/parameters/{name}") })
}

fn operation(route: &Route) -> Value {
    let op = &route.op;
    let mut params = Vec::new();
    if route.path.contains("{id}") {
        params.push(parameter("id"));
    }
    if route.path.contains("{sub}") {
        params.push(parameter(if route.path.contains("/files/") {
            "fileId"
        } else {
            "detailId"
        }));
    }
    if let Success::List(item) = op.success {
        params.extend(list_parameters(item));
    }
    if route.method == Method::Get && route.path.ends_with("/reveal") {
        params.push(parameter("token"));
    }
    if route.method == Method::Post && route.auth == Auth::Key {
        params.push(parameter("Idempotency-Key"));
    }
    let mut responses = Map::new();
    let (status, mut ok) = success_response(op);
    if let Some(links) = links(op) {
        ok["links"] = links;
    }
    responses.insert(status.to_string(), ok);
    for s in error_statuses(route) {
        responses.insert(
            s.to_string(),
            json!({ "$ref": format!("#/components/responses/E{s}") }),
        );
    }
    let mut o = json!({
        "operationId": op.id,
        "tags": [op.tag],
        "summary": op.summary,
        "parameters": params,
        "responses": responses,
    });
    if let Some(body) = request_body(op.body) {
        o["requestBody"] = body;
    }
    if route.auth == Auth::Public {
        o["security"] = json!([]);
    }
    o
}

fn error_responses() -> Map<String, Value> {
    let mut m = Map::new();
    for (status, codes) in codes_by_status() {
        let list = codes
            .iter()
            .map(|c| format!("`{c}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let mut response = json!({
            "description": format!("Error: {list}"),
            "content": json_content(json!({
                "allOf": [reference("Error")],
                "properties": {"error": {"enum": codes}},
            })),
        });
        let retry =
            json!({"schema": {"type": "integer", "minimum": 0}, "description": "Seconds to wait"});
        match status {
            401 => {
                response["headers"] =
                    json!({"WWW-Authenticate": {"schema": {"type": "string", "const": "Bearer"}}})
            }
            429 => response["headers"] = json!({"Retry-After": retry}),
            _ => {}
        }
        m.insert(format!("E{status}"), response);
    }
    m
}

/// The list-query schema of a list item.
fn query_schema(item: &str) -> &'static Schema {
    match item {
        "Account" => &views::ACCOUNT,
        "AccountDetail" => &views::ACCOUNT_DETAIL,
        "LedgerEntry" => &views::LEDGER_ENTRY,
        "CardHolder" => &views::CARD_HOLDER,
        "Authorization" => &views::AUTHORIZATION,
        "CardTransaction" => &views::CARD_TRANSACTION,
        "Event" => &views::EVENT,
        "Transfer" => &views::TRANSFER,
        "Dispute" => &views::DISPUTE,
        "WebhookEndpoint" => &views::WEBHOOK_ENDPOINT,
        "WebhookDelivery" => &views::WEBHOOK_DELIVERY,
        "ApiKey" => &views::API_KEY,
        "AuditEvent" => &views::AUDIT_EVENT,
        "Card" => &views::CARD,
        // No fallback: a new list must name its schema here, or the document is not built (a
        // fallback once gave /api-keys and /audit-events the cards' filter).
        other => panic!("no list-query schema for the list of {other}"),
    }
}

/// The JSON form of `filter` for a query schema: one property per filterable field.
fn filter_schema(schema: &Schema) -> Value {
    let mut props = Map::new();
    for (field, t) in schema.fields {
        let scalar = match t {
            FieldType::Str => json!({"type": "string"}),
            // Exact decimals: bounded, at most 2 places, like the amounts they compare with.
            FieldType::Number => {
                let limit = FILTER_NUMBER_LIMIT as f64;
                json!({"type": "number", "minimum": -limit, "maximum": limit, "multipleOf": 0.01})
            }
            FieldType::Bool => json!({"type": "boolean"}),
            FieldType::Date => json!({"type": "string", "format": "date-time"}),
            FieldType::Object | FieldType::FreeForm => continue,
        };
        let many = json!({"type": "array", "items": scalar});
        let ops = json!({
            "type": "object",
            "minProperties": 1,
            "additionalProperties": false,
            "properties": {
                "eq": {"anyOf": [scalar, {"type": "null"}]},
                "ne": {"anyOf": [scalar, {"type": "null"}]},
                "gt": scalar, "gte": scalar, "lt": scalar, "lte": scalar,
                "in": many, "nin": many,
                "between": {"type": "array", "items": scalar, "minItems": 2, "maxItems": 2},
                "exists": {"type": "boolean"},
            },
        });
        props.insert(
            field.to_string(),
            json!({"anyOf": [scalar, {"type": "null"}, ops]}),
        );
    }
    json!({"type": "object", "properties": props, "additionalProperties": false})
}

/// The list-query parameters of a list of `item`, with the field names of its query schema.
fn list_parameters(item: &str) -> Vec<Value> {
    let schema = query_schema(item);
    let q = |name: &str, schema: Value, description: &str| json!({"name": name, "in": "query", "required": false, "schema": schema, "description": description});
    let names: Vec<&str> = schema.fields.iter().map(|(f, _)| *f).collect();
    // One sort key as an enumeration (the server takes a comma list of distinct keys).
    // Empty means the default.
    let sortable: Vec<String> = std::iter::once(String::new())
        .chain(
            schema
                .fields
                .iter()
                .filter(|(_, t)| *t != FieldType::Object)
                .flat_map(|(f, _)| [f.to_string(), format!("-{f}")]),
        )
        .collect();
    let alternatives = names
        .iter()
        .map(|n| regex::escape(n))
        .collect::<Vec<_>>()
        .join("|");
    let list = format!("^(({alternatives})(,({alternatives}))*)?$");
    let mut params = vec![
        parameter("page"),
        parameter("limit"),
        parameter("startingAfter"),
        parameter("endingBefore"),
        q(
            "sort",
            json!({"type": "string", "enum": sortable}),
            "Sort key, `-` for descending (default `-createdAt`); several distinct keys may be given as a comma list",
        ),
        q(
            "fields",
            json!({"type": "string", "pattern": list}),
            "Comma-separated fields to return (`_id` always)",
        ),
        parameter("search"),
        q(
            "searchIn",
            json!({"type": "string", "pattern": list}),
            "Comma-separated fields `search` looks in",
        ),
        json!({
            "name": "filter", "in": "query", "required": false,
            "content": {"application/json": {"schema": filter_schema(schema)}},
            "description": "Conditions, all ANDed: a field's value, or an object of operators \
                (eq, ne, gt, gte, lt, lte, in, nin, between, exists), e.g. `{\"balance\":{\"gte\":100}}`. \
                Also accepted as an expression (`status=active&balance.gte=100`), and any field may be \
                given as its own query parameter (`status=active`, `balance.gte=100`).",
        }),
    ];
    if !schema.populate.is_empty() {
        params.push(parameter("populate"));
    }
    params
}

fn parameters() -> Value {
    let q = |name: &str, schema: Value, description: &str| json!({"name": name, "in": "query", "required": false, "schema": schema, "description": description});
    let path = |description: &str| json!({"in": "path", "required": true, "schema": {"type": "string"}, "description": description});
    let mut id = path("The record's id");
    id["name"] = json!("id");
    let mut detail = path("The account detail's id");
    detail["name"] = json!("sub");
    let mut file = path("The file's id (from the holder's document urls)");
    file["name"] = json!("sub");
    json!({
        "id": id,
        "detailId": detail,
        "fileId": file,
        "page": q("page", json!({"type": "integer", "minimum": 1, "maximum": u64::MAX}), "Page number, from 1"),
        "limit": q("limit", json!({"type": "integer", "minimum": 1, "maximum": 200}), "Items per page (default 20)"),
        "startingAfter": q("startingAfter", json!({"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"}),
            "Cursor paging: the page after the record with this id (in the list's order); `page` then counts from it"),
        "endingBefore": q("endingBefore", json!({"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"}),
            "Cursor paging: the page just before the record with this id; with `startingAfter`, the records between the two"),
        "search": q("search", json!({"type": "string", "format": "regex", "maxLength": 100}), "Case-insensitive regular expression over the search fields"),
        "populate": q("populate", json!({"type": "string", "enum": ["cardHolder", "debitAccount", "cardHolder;debitAccount"]}),
            "Relations to embed, `;`-separated; each may select fields: `cardHolder:name person.email`"),
        "token": q("token", json!({"type": "string"}), "The reveal token from POST /cards/{id}/token"),
        "Idempotency-Key": {
            "name": "Idempotency-Key", "in": "header", "required": false,
            "schema": {"type": "string", "pattern": "^[\\x20-\\x7E]{1,255}$"},
            "description": "A retry with the same key and body answers the stored response with `Idempotent-Replayed: true` (kept 24 hours); the same key with another body is 409 `idempotency_conflict`.",
        },
    })
}

/// The whole document.
pub fn document() -> Value {
    let mut paths = Map::new();
    for route in ROUTES {
        let item = paths
            .entry(route.path.to_string())
            .or_insert_with(|| json!({}));
        item[route.method.as_str().to_ascii_lowercase()] = operation(route);
    }
    let codes: Vec<&str> = codes_by_status().into_values().flatten().collect();
    let mut schemas = schemas::components(&codes);
    for item in [
        "Account",
        "LedgerEntry",
        "AccountDetail",
        "CardHolder",
        "Card",
        "Authorization",
        "CardTransaction",
        "Event",
        "Transfer",
        "Dispute",
        "WebhookEndpoint",
        "WebhookDelivery",
        "ApiKey",
        "AuditEvent",
    ] {
        schemas.insert(format!("{item}List"), schemas::list_envelope(item));
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "cards",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "A card-issuing service: accounts with a ledger, account details, card holders \
                with identity documents, and cards with funding, spending controls, lifecycle and a \
                token-then-reveal flow. Every list endpoint speaks one query language. Errors share \
                one shape (`Error`).",
        },
        "servers": [{"url": "/"}],
        "security": [{"bearer": []}, {"apiKey": []}],
        "tags": [
            {"name": "Service"}, {"name": "Accounts"}, {"name": "Account details"},
            {"name": "Card holders"}, {"name": "Cards"}, {"name": "Card spend"}, {"name": "Disputes"}, {"name": "Simulate"}, {"name": "Real-time decisions"}, {"name": "Events"}, {"name": "Webhooks"},
        ],
        "paths": paths,
        "components": {
            "schemas": schemas,
            "responses": error_responses(),
            "parameters": parameters(),
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer", "description": "`Authorization: Bearer <key>`"},
                "apiKey": {"type": "apiKey", "in": "header", "name": "x-api-key"},
            },
        },
    })
}

/// The document as served: pretty JSON with a final newline (as kept in `docs/openapi.json`).
pub fn document_text() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let mut s = serde_json::to_string_pretty(&document()).unwrap_or_default();
        s.push('\n');
        s
    })
}

/// The browser module's TypeScript types (`host-wasm/src/browser.d.ts`), from the document's
/// component schemas.
pub fn browser_types() -> String {
    let doc = document();
    let empty = Map::new();
    let components = doc["components"]["schemas"].as_object().unwrap_or(&empty);
    typescript::browser_types(components)
}

pub fn serve(_: &mut Call) -> ApiResult<Response> {
    Ok(Response::bytes(
        200,
        "application/json",
        document_text().as_bytes().to_vec(),
    ))
}

#[cfg(test)]
mod tests;
