//! The component schemas: the wire shapes of `views`, the request bodies of `parse`, the envelopes of
//! `reply` and the error body of `errors`. Enumerations come from the domain's own `ALL` lists, limits
//! from the parsers' constants, so a new value or limit reaches the document without editing it.

use serde_json::{Map, Value, json};

use crate::domain::cards::Interval;
use crate::domain::ledger::MAX_INTEGER_DIGITS;
use crate::http::parse::account_details::{DetailBody, DetailUpdateBody};
use crate::http::parse::accounts::{AccountBody, AccountUpdateBody};
use crate::http::parse::api_keys::KeyBody;
use crate::http::parse::authorizations::{AmountBody, AuthorizationBody, IncrementBody};
use crate::http::parse::card_holder_validation::{
    AddressBody, FileMetaBody, HolderBody, HolderMetaBody, IdentificationBody, PersonBody,
};
use crate::http::parse::cards::{CardBody, CardUpdateBody, FundingBody};
use crate::http::parse::controls::ControlsBody;
use crate::http::parse::decisions::SettingsBody;
use crate::http::parse::disputes::{DisputeBody, ResolveBody};
use crate::http::parse::input::{Body, Input, Preset};
use crate::http::parse::test_clock::AdvanceBody;
use crate::http::parse::transfers::TransferBody;
use crate::http::parse::webhooks::{EndpointBody, EndpointUpdateBody, ReplayBody};
use crate::http::views::{
    AccountView, AddressView, ApiKeyView, AttemptView, AuditEventView, AuthorizationEndpointView,
    AuthorizationView, CardHolderView, CardTransactionView, CardView, DecisionView, DetailView,
    DisputeView, DocumentView, EntryView, EventView, FileMetaView, LimitSpendView, MerchantView,
    PersonView, ProofOfAddressView, TransferView, WebhookDeliveryView, WebhookEndpointView, Wire,
    WireField,
};

pub fn reference(name: &str) -> Value {
    json!({ "$ref": format!("#/components/schemas/{name}") })
}

fn nullable(schema: Value) -> Value {
    json!({ "anyOf": [schema, {"type": "null"}] })
}

fn string_enum(all: &[&str]) -> Value {
    json!({ "type": "string", "enum": all })
}

fn nullable_enum(all: &[&str]) -> Value {
    let mut values: Vec<Value> = all.iter().map(|s| json!(s)).collect();
    values.push(Value::Null);
    json!({ "type": ["string", "null"], "enum": values })
}

fn string() -> Value {
    json!({ "type": "string" })
}

fn nullable_string() -> Value {
    json!({ "type": ["string", "null"] })
}

fn timestamp() -> Value {
    json!({ "type": "string", "format": "date-time" })
}

fn boolean() -> Value {
    json!({ "type": "boolean" })
}

fn free_object() -> Value {
    json!({ "type": "object" })
}

/// An amount as the service returns it: an exact JSON number.
fn money() -> Value {
    json!({ "type": "number" })
}

/// An amount a request may give: at most 2 decimals, below 10^15, at least `min`.
fn money_input(min: &str, exclusive: bool) -> Value {
    let bound = if exclusive {
        "exclusiveMinimum"
    } else {
        "minimum"
    };
    let min: Value = serde_json::from_str(min).unwrap_or(json!(0));
    json!({
        "type": "number",
        bound: min,
        "exclusiveMaximum": 10i64.pow(MAX_INTEGER_DIGITS),
        "multipleOf": 0.01,
        "description": "Exact: at most 2 decimal places (JSON numbers are parsed without a float round trip)."
    })
}

/// Free text: trimmed, not empty, at most `max` characters.
fn text(max: usize) -> Value {
    // Not only white space, as Rust's `trim` sees it (ECMA's `\s` lacks U+0085).
    json!({ "type": "string", "minLength": 1, "maxLength": max, "pattern": "[^\\s\\u0085]" })
}

/// An object with these properties; `required` lists the ones always present (or needed).
/// A closed object is a request body (or part of one): unknown keys are refused, and an optional key
/// may be `null`, which the parsers take as absent (`http::fields`).
fn object(mut properties: Value, required: &[&str], closed: bool) -> Value {
    if closed && let Some(m) = properties.as_object_mut() {
        for (key, schema) in m.iter_mut() {
            if !required.contains(&key.as_str()) {
                *schema = nullable(schema.take());
            }
        }
    }
    let mut o = json!({ "type": "object", "properties": properties, "required": required });
    if closed {
        o["additionalProperties"] = json!(false);
    }
    o
}

/// Undoes the nullable wrapping of `object` for these properties (all when `keys` is empty): a
/// multipart part cannot be null, and an update merged over the record must not clear what the
/// record requires.
fn not_null(mut o: Value, keys: &[&str]) -> Value {
    if let Some(m) = o["properties"].as_object_mut() {
        for (key, schema) in m.iter_mut() {
            if !keys.is_empty() && !keys.contains(&key.as_str()) {
                continue;
            }
            let inner = match schema.get("anyOf").and_then(Value::as_array) {
                Some(a) if a.len() == 2 && a[1] == json!({"type": "null"}) => a[0].clone(),
                _ => continue,
            };
            *schema = inner;
        }
    }
    o
}

/// A response object: every property is always present.
fn record(properties: Value) -> Value {
    let required: Vec<String> = properties
        .as_object()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    json!({ "type": "object", "properties": properties, "required": required })
}

fn account() -> Value {
    view(AccountView::WIRE)
}

fn ledger_entry() -> Value {
    view(EntryView::WIRE)
}

fn account_detail() -> Value {
    view(DetailView::WIRE)
}

fn person() -> Value {
    view(PersonView::WIRE)
}

fn address() -> Value {
    view(AddressView::WIRE)
}

fn file_meta() -> Value {
    view(FileMetaView::WIRE)
}

fn document() -> Value {
    view(DocumentView::WIRE)
}

fn proof_of_address() -> Value {
    view(ProofOfAddressView::WIRE)
}

fn card_holder() -> Value {
    view(CardHolderView::WIRE)
}

fn spending_controls() -> Value {
    let categories = json!({"type": "array", "items": string()});
    record(json!({
        "channels": record(json!({
            "atm": boolean(), "pos": boolean(), "web": boolean(), "mobile": boolean(),
        })),
        "allowedCategories": categories,
        "blockedCategories": categories,
        "spendingLimits": {"type": "array", "items": record(json!({
            "amount": money(),
            "interval": string_enum(Interval::ALL),
            "categories": categories,
        }))},
    }))
}

fn card() -> Value {
    view(CardView::WIRE)
}

fn merchant() -> Value {
    view(MerchantView::WIRE)
}

fn authorization() -> Value {
    view(AuthorizationView::WIRE)
}

fn decision() -> Value {
    view(DecisionView::WIRE)
    .tap_description("Who decided: the issuer's checks alone, the client's decision endpoint, or its fallback (after a timeout, an error or an invalid answer). Null for authorizations older than decisions.")
}

fn authorization_endpoint() -> Value {
    view(AuthorizationEndpointView::WIRE)
}

fn card_transaction() -> Value {
    view(CardTransactionView::WIRE)
}

fn transfer() -> Value {
    view(TransferView::WIRE)
}

/// The schema of a view declared with `view!`, from its fields: every field is required but a
/// `MaybeStr` (absent rather than null).
fn view(fields: &[WireField]) -> Value {
    let properties: Map<String, Value> = fields
        .iter()
        .map(|f| {
            let schema = match f.wire {
                Wire::Str | Wire::MaybeStr => string(),
                Wire::Pattern(p) => json!({"type": "string", "pattern": p}),
                Wire::OptStr => nullable_string(),
                Wire::Money => money(),
                Wire::Time => timestamp(),
                Wire::OptTime => nullable(timestamp()),
                Wire::OptDate => nullable(json!({"type": "string", "format": "date"})),
                Wire::Bool => boolean(),
                Wire::StrList => json!({"type": "array", "items": string()}),
                Wire::Json => free_object(),
                Wire::OptJson => json!({"type": ["object", "null"]}),
                Wire::Count => json!({"type": "integer", "minimum": 0}),
                Wire::Int(min, max) => json!({"type": "integer", "minimum": min, "maximum": max}),
                Wire::OptInt => json!({"type": ["integer", "null"]}),
                Wire::Ref(name) => reference(name),
                Wire::OptRef(name) => nullable(reference(name)),
                Wire::Inline(fields) => view(fields),
                Wire::EnumMap(keys, values) => record(Value::Object(
                    keys.iter()
                        .map(|k| (k.to_string(), string_enum(values)))
                        .collect(),
                )),
                Wire::List(name) => json!({"type": "array", "items": reference(name)}),
                Wire::Enum(all) => string_enum(all),
                Wire::OptEnum(all) => nullable_enum(all),
            };
            let schema = match f.doc {
                Some(d) => schema.tap_description(d),
                None => schema,
            };
            (f.name.to_string(), schema)
        })
        .collect();
    let mut schema = record(Value::Object(properties));
    schema["required"] = fields
        .iter()
        .filter(|f| f.wire != Wire::MaybeStr)
        .map(|f| json!(f.name))
        .collect();
    schema
}

fn dispute() -> Value {
    view(DisputeView::WIRE)
}

fn webhook_endpoint() -> Value {
    view(WebhookEndpointView::WIRE)
}

fn webhook_delivery() -> Value {
    view(WebhookDeliveryView::WIRE)
}

fn limit_spend() -> Value {
    view(LimitSpendView::WIRE)
}

fn event() -> Value {
    view(EventView::WIRE)
}

fn card_token() -> Value {
    record(json!({
        "token": {
            "type": ["string", "null"],
            "description": "Single use; null on an idempotent replay (a token is shown only once)."
        },
        "expiresAt": timestamp(),
    }))
}

fn audit_event() -> Value {
    view(AuditEventView::WIRE)
}

fn api_key() -> Value {
    view(ApiKeyView::WIRE)
}

fn api_key_created() -> Value {
    let mut key = api_key();
    key["properties"]["key"] = json!({
        "type": ["string", "null"],
        "description": "The key: shown only here; null on an idempotent replay."
    });
    if let Some(required) = key["required"].as_array_mut() {
        required.push(json!("key"));
    }
    key
}

fn card_secrets() -> Value {
    record(json!({
        "pan": {"type": "string", "pattern": "^[0-9]{12,19}$"},
        "cvv": {"type": "string", "pattern": "^[0-9]{3,4}$"},
        "expiryMonth": string(),
        "expiryYear": string(),
    }))
}

// ---- request bodies ----

/// The schema of one declared body field (`parse::input`).
fn input(i: Input) -> Value {
    match i {
        Input::Text(max) => text(max),
        Input::ClearableText(max) => nullable(text(max)),
        Input::Amount => money_input("0", true),
        Input::AmountFrom(num, scale) => {
            money_input(&rust_decimal::Decimal::new(num, scale).to_string(), false)
        }
        Input::Balance => money_input("0", false),
        Input::Enum(all) | Input::LooseEnum(all) => string_enum(all),
        Input::Currency => currency_input(),
        Input::Bool => boolean(),
        Input::Object => free_object(),
        Input::Ref(name) => reference(name),
        Input::Time => timestamp(),
        Input::Inline(b) => body(b),
        Input::Pattern(pattern, _, _) => json!({"type": "string", "pattern": pattern}),
        Input::EnumSet(all, wildcard, _) => json!({"anyOf": [
            {"type": "array", "minItems": 1, "items": string_enum(all)},
            {"type": "array", "minItems": 1, "items": string_enum(&[wildcard])},
        ]}),
        Input::PatternList(max, pattern, _, _) => json!({
            "type": "array",
            "maxItems": max,
            "items": {"type": "string", "pattern": pattern},
        }),
        Input::WholeNumber(min, max) => {
            json!({"type": "integer", "minimum": min, "maximum": max})
        }
        Input::Between(min, max) => json!({"type": "integer", "minimum": min, "maximum": max}),
        Input::Str => string(),
        Input::TextPattern(max, pattern, _, _) => {
            json!({"type": "string", "pattern": pattern, "maxLength": max})
        }
        Input::TrimmedPattern(pattern, _, _) => json!({"type": "string", "pattern": pattern}),
        Input::Date(years) => json!({
            "type": "string",
            "format": "date",
            "pattern": format!("^{years}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])$"),
        }),
        Input::TextOrNumber(max) => json!({"anyOf": [text(max), {"type": "number"}]}),
        Input::StrList(pattern) => {
            json!({"type": "array", "items": {"type": "string", "pattern": pattern()}})
        }
        Input::InlineList(max, b) => json!({"type": "array", "maxItems": max, "items": body(b)}),
    }
}

/// The component schema of a body declared with `body!`: a closed object of its fields.
pub fn body(b: &Body) -> Value {
    let required: Vec<&str> = b
        .fields
        .iter()
        .filter(|f| f.required)
        .map(|f| f.name)
        .collect();
    body_requiring(b, &required)
}

/// As `body`, with only these fields required (a patch, a multipart form).
fn body_requiring(b: &Body, required: &[&str]) -> Value {
    let properties: Map<String, Value> = b
        .fields
        .iter()
        .map(|f| {
            let schema = match f.default {
                Some(Preset::Int(i)) => input(f.input).with("default", json!(i)),
                Some(Preset::Str(v)) => input(f.input).with("default", json!(v)),
                None => input(f.input),
            };
            let schema = match f.doc {
                Some(d) => schema.tap_description(d),
                None => schema,
            };
            (f.name.to_string(), schema)
        })
        .collect();
    let schema = object(Value::Object(properties), required, true);
    match b.doc {
        Some(d) => schema.tap_description(d),
        None => schema,
    }
}

fn currency_input() -> Value {
    json!({"type": "string", "pattern": "^[A-Za-z0-9]{3,10}$", "description": "Upper-cased."})
}

/// The spending controls: a declared body, and the rule across its lists.
fn spending_controls_input() -> Value {
    body(&ControlsBody::BODY).with(
        "not",
        json!({
            "properties": {
                "allowedCategories": {"type": "array", "minItems": 1},
                "blockedCategories": {"type": "array", "minItems": 1},
            },
            "required": ["allowedCategories", "blockedCategories"],
        }),
    )
}

fn card_update() -> Value {
    body(&CardUpdateBody::BODY)
    .with(
        "anyOf",
        json!([
            {"properties": {"status": {"const": "canceled"}, "cancellationReason": {"type": "string"}},
             "required": ["status", "cancellationReason"]},
            {"properties": {
                "status": {"enum": ["active", "inactive", null]},
                "cancellationReason": {"type": "null"},
                "creditAccountId": {"type": "null"},
            }},
        ]),
    )
}

/// Multipart: the flat parts (and files) as properties. The JSON-text parts (`person`, `address`,
/// `identification`, `meta`: the JSON form's objects as text) are described, not listed, so that
/// generated requests do not send text that is not JSON.
fn card_holder_multipart() -> Value {
    let file = json!({"type": "string", "contentMediaType": "application/octet-stream",
                      "description": "JPEG, PNG or PDF (recognised by content), at most 5 MiB"});
    let person = not_null(body_requiring(&PersonBody::BODY, &[]), &[]);
    let address = not_null(body(&AddressBody::BODY), &[]);
    // HTML forms send an empty input as an empty part, which means "not given": an optional part may
    // be blank (only what Rust's `trim` removes, which is what the parser checks).
    let or_blank = |v: &Value| {
        json!({"anyOf": [v, {"type": "string",
            "pattern": "^[\\t\\n\\u000b\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]*$",
            "description": "Blank: not given."}]})
    };
    not_null(object(
        json!({
            "name": or_blank(&text(200)),
            "firstName": person["properties"]["firstName"],
            "lastName": person["properties"]["lastName"],
            "email": person["properties"]["email"],
            "phoneNumber": person["properties"]["phoneNumber"],
            "dateOfBirth": or_blank(&person["properties"]["dateOfBirth"]),
            "gender": or_blank(&person["properties"]["gender"]),
            "nationality": or_blank(&person["properties"]["nationality"]),
            "addressLine1": or_blank(&address["properties"]["line1"]),
            "city": or_blank(&address["properties"]["city"]),
            "state": or_blank(&address["properties"]["state"]),
            "postalCode": or_blank(&address["properties"]["postalCode"]),
            "country": or_blank(&address["properties"]["countryCode"]),
            "documentMain": file,
            "documentBack": file,
            "proofOfAddress": file,
        }),
        &["firstName", "lastName", "email", "phoneNumber"],
        true,
    ), &[])
    .tap_description(
        "Flat parts, or JSON-text parts `person`, `address`, `identification` and `meta` holding the \
         objects of the JSON form (a JSON part's field wins over the flat one); snake_case part names \
         are accepted too. Files `documentMain`, `documentBack` and `proofOfAddress` are stored and \
         served at `GET /card-holders/{id}/files/{fileId}`; a file without its identification object \
         creates it (status `pending`).",
    )
}

/// The create body's fields, none required, `person` a patch: what is given is merged over the
/// stored holder, which must keep its name and person.
fn card_holder_update() -> Value {
    let mut schema = not_null(body_requiring(&HolderBody::BODY, &[]), &["name", "person"])
        .tap_description("Merged over the stored holder, then validated as a whole.");
    schema["properties"]["person"] = reference("PersonPatch");
    schema
}

// ---- envelopes and errors ----

fn error(codes: &[&str]) -> Value {
    let mut e = object(
        json!({
            "statusCode": {"type": "integer"},
            "message": string(),
            "error": string_enum(codes),
            "errors": {"type": "array", "items": reference("FieldError")},
            "requestId": {"type": "string", "description": "The `Request-Id` header of this response (every host sets both), for tracing the request in the server's log."},
        }),
        &["statusCode", "message", "error"],
        false,
    );
    e["description"] = json!("`errors` only on `validation_error`.");
    e
}

fn list_meta() -> Value {
    record(json!({
        "page": {"type": "integer", "minimum": 1},
        "limit": {"type": "integer", "minimum": 1},
        "total": {"type": "integer", "minimum": 0},
        "pages": {"type": "integer", "minimum": 0},
        "sort": nullable_string(),
        "fields": nullable_string(),
        "search": nullable_string(),
        "searchIn": nullable_string(),
        "filter": nullable_string(),
        "startingAfter": nullable_string(),
        "endingBefore": nullable_string(),
        "hasMore": {"type": "boolean", "description": "Whether the list goes on past this page (backwards when only `endingBefore` is given)"},
    }))
}

/// `{"statusCode","message","data"}` around `data`.
pub fn envelope(data: Value) -> Value {
    record(json!({
        "statusCode": {"type": "integer"},
        "message": string(),
        "data": data,
    }))
}

/// A list page of `item`: items may be projected by `fields` and extended by `populate`, so no
/// property is required.
pub fn list_envelope(item: &str) -> Value {
    record(json!({
        "statusCode": {"type": "integer"},
        "message": string(),
        "data": {"type": "array", "items": reference(&format!("{item}ListItem"))},
        "meta": reference("ListMeta"),
        "filter": {"type": "object", "description": "The filter as understood, Mongo style."},
    }))
}

trait Describe {
    fn tap_description(self, d: &str) -> Value;
    fn with(self, key: &str, value: Value) -> Value;
}

impl Describe for Value {
    fn tap_description(self, d: &str) -> Value {
        self.with("description", json!(d))
    }

    fn with(mut self, key: &str, value: Value) -> Value {
        self[key] = value;
        self
    }
}

/// A record schema for projected list items: `fields` selects any paths, nested ones included, so
/// no property is required at any depth; references are inlined from `components` to drop theirs.
fn loose(schema: Value, components: &Map<String, Value>) -> Value {
    match schema {
        Value::Object(mut m) => {
            if let Some(Value::String(r)) = m.get("$ref")
                && let Some(target) = r
                    .strip_prefix("#/components/schemas/")
                    .and_then(|name| components.get(name))
            {
                return loose(target.clone(), components);
            }
            m.shift_remove("required");
            Value::Object(
                m.into_iter()
                    .map(|(k, v)| (k, loose(v, components)))
                    .collect(),
            )
        }
        Value::Array(a) => Value::Array(a.into_iter().map(|v| loose(v, components)).collect()),
        v => v,
    }
}

/// An example body for a request schema (the README's), shown by the reference page and sent by the
/// contract tests' examples phase.
pub fn example(schema: &str) -> Option<Value> {
    Some(match schema {
        "AccountCreate" => json!({
            "ownerType": "business", "name": "Operating", "type": "checking",
            "category": "fiat", "currency": "USD", "balance": 500,
        }),
        "AccountUpdate" => json!({"name": "Operating (main)", "status": "active"}),
        "AccountDetailCreate" => json!({
            "type": "bank_account", "provider": "acme-bank", "isPrimary": true,
            "details": {"accountNumber": "0123456789", "bankCode": "058"},
        }),
        "AccountDetailUpdate" => json!({"isPrimary": false}),
        "CardCreate" => json!({
            "debitAccountId": "6b0441f0af7223969f33f312", "cardHolderId": "6b0441f0af7223969f33f31a",
            "type": "virtual", "brand": "Visa", "status": "active", "currency": "USD", "amount": 100,
        }),
        "CardUpdate" => json!({"status": "inactive"}),
        "CardFunding" => json!({"debitAccountId": "6b0441f0af7223969f33f312", "amount": 25.5}),
        "CardHolderCreate" => json!({
            "name": "Ada Lovelace",
            "person": {
                "firstName": "Ada", "lastName": "Lovelace", "email": "ada@example.com",
                "phoneNumber": "+2348012345678", "dateOfBirth": "1990-12-10",
            },
            "address": {"line1": "1 Marina", "city": "Lagos", "state": "LA", "postalCode": "101001", "countryCode": "NG"},
        }),
        "CardHolderCreateMultipart" => json!({
            "firstName": "Ada", "lastName": "Lovelace", "email": "ada@example.com",
            "phoneNumber": "+2348012345678", "country": "NG",
        }),
        "CardHolderUpdate" => json!({"address": {"city": "Abuja"}}),
        "AuthorizationCreate" => json!({
            "amount": 12.5, "channel": "web",
            "merchant": {"name": "Coffee Shop", "category": "restaurants", "mcc": "5814", "country": "NG"},
        }),
        "AmountBody" => json!({"amount": 5}),
        "IncrementBody" => json!({"amount": 20}),
        "TestClockAdvance" => json!({"seconds": 86400}),
        "AuthorizationEndpointSet" => {
            json!({"url": "https://example.com/decide", "timeoutMs": 2000, "fallback": "decline"})
        }
        "TransferCreate" => json!({
            "debitAccountId": "6b0441f0af7223969f33f312", "creditAccountId": "6b0441f0af7223969f33f313",
            "amount": 40, "narration": "Top up savings", "reference": "inv-1001",
        }),
        "DisputeCreate" => {
            json!({"reason": "not_received", "amount": 5, "explanation": "Never delivered"})
        }
        "DisputeResolve" => json!({"outcome": "won"}),
        "WebhookEndpointCreate" => json!({
            "url": "https://example.com/webhooks", "enabledEvents": ["card.created", "authorization.created"],
            "description": "Ledger sync",
        }),
        "WebhookEndpointUpdate" => json!({"status": "disabled"}),
        "WebhookReplay" => json!({"from": "2026-11-22T10:00:00Z"}),
        "ApiKeyCreate" => json!({"permissions": ["cards:read", "accounts:write"]}),
        _ => return None,
    })
}

/// Every component schema, by name.
pub fn components(error_codes: &[&str]) -> Map<String, Value> {
    let mut m = Map::new();
    let mut add = |name: &str, v: Value| {
        m.insert(name.to_string(), v);
    };
    add("Account", account());
    add("LedgerEntry", ledger_entry());
    add("AccountDetail", account_detail());
    add("Person", person());
    add("Address", address());
    add("FileMeta", file_meta());
    add("Document", document());
    add("ProofOfAddress", proof_of_address());
    add("CardHolder", card_holder());
    add("SpendingControls", spending_controls());
    add("Card", card());
    add("CardToken", card_token());
    add("Merchant", merchant());
    add("Authorization", authorization());
    add("Decision", decision());
    add("AuthorizationEndpoint", authorization_endpoint());
    add(SettingsBody::BODY.name, body(&SettingsBody::BODY));
    add("CardTransaction", card_transaction());
    add("LimitSpend", limit_spend());
    add(
        "LimitSpendList",
        json!({"type": "array", "items": reference("LimitSpend")}),
    );
    add("Event", event());
    add("ApiKey", api_key());
    add("AuditEvent", audit_event());
    add("ApiKeyCreated", api_key_created());
    add(KeyBody::BODY.name, body(&KeyBody::BODY));
    add("Transfer", transfer());
    add("Dispute", dispute());
    add(TransferBody::BODY.name, body(&TransferBody::BODY));
    add("WebhookEndpoint", webhook_endpoint());
    add("WebhookDelivery", webhook_delivery());
    add("WebhookAttempt", view(AttemptView::WIRE));
    add(EndpointBody::BODY.name, body(&EndpointBody::BODY));
    add(
        EndpointUpdateBody::BODY.name,
        body(&EndpointUpdateBody::BODY),
    );
    add(ReplayBody::BODY.name, body(&ReplayBody::BODY));
    add(
        "WebhookReplayResult",
        record(json!({"queued": {"type": "integer", "minimum": 0}})),
    );
    add(DisputeBody::BODY.name, body(&DisputeBody::BODY));
    add(ResolveBody::BODY.name, body(&ResolveBody::BODY));
    add(AuthorizationBody::BODY.name, body(&AuthorizationBody::BODY));
    add(AmountBody::BODY.name, body(&AmountBody::BODY));
    add(IncrementBody::BODY.name, body(&IncrementBody::BODY));
    add(
        "TestClock",
        record(json!({
            "now": timestamp(),
            "offsetSeconds": {"type": "integer", "minimum": 0},
        })),
    );
    add(AdvanceBody::BODY.name, body(&AdvanceBody::BODY));
    add("CardSecrets", card_secrets());
    add(AccountBody::BODY.name, body(&AccountBody::BODY));
    add(AccountUpdateBody::BODY.name, body(&AccountUpdateBody::BODY));
    add(DetailBody::BODY.name, body(&DetailBody::BODY));
    add(DetailUpdateBody::BODY.name, body(&DetailUpdateBody::BODY));
    add("SpendingControlsInput", spending_controls_input());
    add(CardBody::BODY.name, body(&CardBody::BODY));
    add("CardUpdate", card_update());
    add(FundingBody::BODY.name, body(&FundingBody::BODY));
    add(PersonBody::BODY.name, body(&PersonBody::BODY));
    add(
        "PersonPatch",
        not_null(
            body_requiring(&PersonBody::BODY, &[]),
            &["firstName", "lastName", "email", "phoneNumber"],
        ),
    );
    add(FileMetaBody::BODY.name, body(&FileMetaBody::BODY));
    add(
        IdentificationBody::BODY.name,
        body(&IdentificationBody::BODY),
    );
    add(HolderMetaBody::BODY.name, body(&HolderMetaBody::BODY));
    add(AddressBody::BODY.name, body(&AddressBody::BODY));
    add(HolderBody::BODY.name, body(&HolderBody::BODY));
    add("CardHolderCreateMultipart", card_holder_multipart());
    add("CardHolderUpdate", card_holder_update());
    add(
        "FieldError",
        record(json!({"field": string(), "message": string()})),
    );
    add("Error", error(error_codes));
    add("ListMeta", list_meta());
    add("Health", record(json!({"status": string_enum(&["ok"])})));
    for (name, schema) in [
        ("Account", account()),
        ("LedgerEntry", ledger_entry()),
        ("AccountDetail", account_detail()),
        ("CardHolder", card_holder()),
        ("Card", card()),
        ("Authorization", authorization()),
        ("CardTransaction", card_transaction()),
        ("Event", event()),
        ("Transfer", transfer()),
        ("Dispute", dispute()),
        ("WebhookEndpoint", webhook_endpoint()),
        ("WebhookDelivery", webhook_delivery()),
        ("ApiKey", api_key()),
        ("AuditEvent", audit_event()),
    ] {
        let item = loose(schema, &m);
        m.insert(format!("{name}ListItem"), item);
    }
    m
}
