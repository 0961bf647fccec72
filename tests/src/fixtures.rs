//! Valid request bodies and creation helpers, so each test states only what it is about.

use rust_decimal::Decimal;
use serde_json::{Value, json};

use crate::assert::dec;
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

/// A `multipart/form-data` body built by hand, so tests control every byte (and its size).
pub struct Multipart {
    boundary: String,
    body: Vec<u8>,
}

impl Default for Multipart {
    fn default() -> Self {
        Self::new()
    }
}

impl Multipart {
    pub fn new() -> Multipart {
        Multipart {
            boundary: "----acceptance-boundary-7MA4YWxkTrZu0gW".to_string(),
            body: Vec::new(),
        }
    }

    /// A text part.
    pub fn text(mut self, name: &str, value: &str) -> Multipart {
        self.body.extend_from_slice(
            format!(
                "--{}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n",
                self.boundary
            )
            .as_bytes(),
        );
        self
    }

    /// A file part with a file name and a declared content type.
    pub fn file(
        mut self,
        name: &str,
        file_name: &str,
        content_type: &str,
        bytes: &[u8],
    ) -> Multipart {
        self.body.extend_from_slice(
            format!(
                "--{}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"{file_name}\"\r\nContent-Type: {content_type}\r\n\r\n",
                self.boundary
            )
            .as_bytes(),
        );
        self.body.extend_from_slice(bytes);
        self.body.extend_from_slice(b"\r\n");
        self
    }

    /// `(Content-Type header, body)`.
    pub fn finish(mut self) -> (String, Vec<u8>) {
        self.body
            .extend_from_slice(format!("--{}--\r\n", self.boundary).as_bytes());
        (
            format!("multipart/form-data; boundary={}", self.boundary),
            self.body,
        )
    }
}

impl Tenant {
    /// POST (or PUT) a multipart form.
    #[track_caller]
    pub fn multipart(&self, method: &str, path: &str, form: Multipart) -> crate::client::Resp {
        let (content_type, body) = form.finish();
        self.send(method, path, &[("content-type", &content_type)], Some(body))
    }
}

/// Minimal files that carry the right magic bytes.
pub mod files {
    pub fn png() -> Vec<u8> {
        let mut v = vec![0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A];
        v.extend_from_slice(b"\0\0\0\rIHDR fake png body");
        v
    }
    pub fn jpeg() -> Vec<u8> {
        let mut v = vec![0xFF, 0xD8, 0xFF, 0xE0];
        v.extend_from_slice(b"\0\x10JFIF fake jpeg body \xff\xd9");
        v
    }
    pub fn pdf() -> Vec<u8> {
        b"%PDF-1.4\n1 0 obj << >> endobj\n%%EOF\n".to_vec()
    }
}

/// Creates a card holder, Ada Lovelace (asserting 201), and returns its id.
pub fn create_holder(t: &Tenant) -> String {
    let body = json!({
        "name": "Ada Lovelace",
        "person": {"firstName": "Ada", "lastName": "Lovelace", "email": "ada@example.com",
                   "phoneNumber": "+2348012345678"}
    });
    id(t.post("/card-holders", &body).data(201))
}

/// An active virtual USD card funded with `amount` (JSON text, so a test chooses the number's
/// form) from a new account holding 1000, with `extra` card fields: (card id, account id).
pub fn funded_card(t: &Tenant, amount: &str, extra: Value) -> (String, String) {
    let account = id(&create_account(
        t,
        json!({"balance": 1000, "currency": "USD"}),
    ));
    let amount: Value = serde_json::from_str(amount).unwrap();
    let body = merge(
        json!({"debitAccountId": account, "cardHolderId": create_holder(t), "type": "virtual",
               "brand": "Visa", "status": "active", "amount": amount}),
        extra,
    );
    (id(t.post("/cards", &body).data(201)), account)
}

/// A purchase on `card` that must answer 201 (approved or declined): the authorization.
pub fn authorize(t: &Tenant, card: &str, body: &Value) -> Value {
    t.post(&format!("/cards/{card}/authorizations"), body)
        .data(201)
        .clone()
}

/// (balance, availableBalance, ledgerBalance) of a card.
pub fn balances(t: &Tenant, card: &str) -> (Decimal, Decimal, Decimal) {
    let c = t.get(&format!("/cards/{card}")).data(200).clone();
    (
        dec(&c["balance"]),
        dec(&c["availableBalance"]),
        dec(&c["ledgerBalance"]),
    )
}
