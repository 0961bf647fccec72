//! Card holders: the legal owner profile of a card, with personal data and optional identity documents.
//!
//! POST accepts three forms that all end in one JSON object and one validation ([`input`]):
//! multipart with JSON-text parts (`person`, `address`, `identification`, `meta`), multipart with the
//! quickstart's flat parts (`firstName`, `addressLine1`, `country`, ...), and `application/json`.
//! Uploaded identity documents are checked by their magic bytes and stored in chunks ([`files`]).
//! PUT takes JSON, merges nested objects into the stored holder and validates the merged result.

mod files;
mod input;
mod multipart;
mod validation;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use files::{MAX_FILE_BYTES, StoredFile, sniff};
pub use validation::{COUNTRY_CODES, NewCardHolder, validate};

use input::{normalize_create, normalize_update};

use crate::api::{self, Ctx};
use crate::env::Timestamp;
use crate::error::{ApiError, ApiResult};
use crate::http::Response;
use crate::keys;
use crate::macros::str_enum;
use crate::query::{FieldType, Schema};
use crate::records;

str_enum!(Gender { Male = "m", Female = "f", Other = "o" });
str_enum!(DocumentType {
    Passport = "passport",
    NationalId = "national_id",
    DriversLicense = "drivers_license",
    VotersCard = "voters_card",
    ResidencePermit = "residence_permit",
});
str_enum!(ProofOfAddressType {
    UtilityBill = "utility_bill",
    BankStatement = "bank_statement",
    TenancyAgreement = "tenancy_agreement",
    GovernmentLetter = "government_letter",
});
str_enum!(VerificationStatus { Pending = "pending", Verified = "verified", Rejected = "rejected" });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Person {
    pub first_name: String,
    pub last_name: String,
    /// `YYYY-MM-DD`.
    pub date_of_birth: Option<String>,
    pub email: String,
    /// ISO 3166-1 alpha-2, upper case.
    pub nationality: Option<String>,
    pub gender: Option<Gender>,
    pub phone_number: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Address {
    pub line1: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub postal_code: Option<String>,
    pub country_code: Option<String>,
}

/// What the service knows about one stored file: its MIME type and `sha256:<hex>` of its bytes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileMeta {
    pub file_type: String,
    pub content_hash: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DocumentUrls {
    pub main: Option<String>,
    pub back: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Document {
    #[serde(rename = "type")]
    pub kind: Option<DocumentType>,
    pub number: Option<String>,
    pub issue_date: Option<String>,
    pub expiry_date: Option<String>,
    pub issuing_country: Option<String>,
    pub verification_status: VerificationStatus,
    pub description: Option<String>,
    pub urls: DocumentUrls,
    /// The front (`documentMain`) file.
    pub meta: Option<FileMeta>,
    /// The back (`documentBack`) file; interface.md has one `meta`, so the back's lives beside it.
    pub back_meta: Option<FileMeta>,
}

impl Document {
    /// A document known only by an uploaded file.
    pub fn empty() -> Document {
        Document {
            kind: None,
            number: None,
            issue_date: None,
            expiry_date: None,
            issuing_country: None,
            verification_status: VerificationStatus::Pending,
            description: None,
            urls: DocumentUrls::default(),
            meta: None,
            back_meta: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProofOfAddress {
    #[serde(rename = "type")]
    pub kind: Option<ProofOfAddressType>,
    pub document_id: Option<String>,
    pub verification_status: VerificationStatus,
    pub description: Option<String>,
    pub url: Option<String>,
    pub meta: Option<FileMeta>,
}

impl ProofOfAddress {
    pub fn empty() -> ProofOfAddress {
        ProofOfAddress {
            kind: None,
            document_id: None,
            verification_status: VerificationStatus::Pending,
            description: None,
            url: None,
            meta: None,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Identification {
    pub document: Option<Document>,
    pub proof_of_address: Option<ProofOfAddress>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HolderMeta {
    pub funding_source: Option<String>,
    pub monthly_transaction_value: Option<String>,
}

/// The stored record is exactly the public representation (cards embed it as is for `populate`); the
/// owning client is part of its key, not of the record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CardHolder {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub person: Person,
    pub address: Option<Address>,
    pub identification: Identification,
    pub meta: HolderMeta,
    pub created_at: String,
    pub updated_at: String,
}

pub static SCHEMA: Schema = Schema {
    fields: &[
        ("_id", FieldType::Str),
        ("name", FieldType::Str),
        ("person", FieldType::Object),
        ("person.firstName", FieldType::Str),
        ("person.lastName", FieldType::Str),
        ("person.dateOfBirth", FieldType::Str),
        ("person.email", FieldType::Str),
        ("person.nationality", FieldType::Str),
        ("person.gender", FieldType::Str),
        ("person.phoneNumber", FieldType::Str),
        ("address", FieldType::Object),
        ("address.line1", FieldType::Str),
        ("address.city", FieldType::Str),
        ("address.state", FieldType::Str),
        ("address.postalCode", FieldType::Str),
        ("address.countryCode", FieldType::Str),
        ("identification", FieldType::Object),
        ("identification.document", FieldType::Object),
        ("identification.document.type", FieldType::Str),
        ("identification.document.number", FieldType::Str),
        ("identification.document.issueDate", FieldType::Str),
        ("identification.document.expiryDate", FieldType::Str),
        ("identification.document.issuingCountry", FieldType::Str),
        ("identification.document.verificationStatus", FieldType::Str),
        ("identification.document.description", FieldType::Str),
        ("identification.document.urls", FieldType::Object),
        ("identification.document.urls.main", FieldType::Str),
        ("identification.document.urls.back", FieldType::Str),
        ("identification.document.meta", FieldType::Object),
        ("identification.document.meta.fileType", FieldType::Str),
        ("identification.document.meta.contentHash", FieldType::Str),
        ("identification.document.backMeta", FieldType::Object),
        ("identification.document.backMeta.fileType", FieldType::Str),
        (
            "identification.document.backMeta.contentHash",
            FieldType::Str,
        ),
        ("identification.proofOfAddress", FieldType::Object),
        ("identification.proofOfAddress.type", FieldType::Str),
        ("identification.proofOfAddress.documentId", FieldType::Str),
        (
            "identification.proofOfAddress.verificationStatus",
            FieldType::Str,
        ),
        ("identification.proofOfAddress.description", FieldType::Str),
        ("identification.proofOfAddress.url", FieldType::Str),
        ("identification.proofOfAddress.meta", FieldType::Object),
        (
            "identification.proofOfAddress.meta.fileType",
            FieldType::Str,
        ),
        (
            "identification.proofOfAddress.meta.contentHash",
            FieldType::Str,
        ),
        ("meta", FieldType::Object),
        ("meta.fundingSource", FieldType::Str),
        ("meta.monthlyTransactionValue", FieldType::Str),
        ("createdAt", FieldType::Date),
        ("updatedAt", FieldType::Date),
    ],
    default_search: &[
        "name",
        "person.firstName",
        "person.lastName",
        "person.email",
    ],
    populate: &[],
};

impl CardHolder {
    pub fn key(&self, client: &str) -> Vec<u8> {
        keys::key(keys::CARD_HOLDER, &[client, &self.id])
    }

    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The fields PUT may change, as the JSON object a PUT body is merged into.
    fn editable_json(&self) -> Map<String, Value> {
        let mut m = match self.to_json() {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        for k in ["_id", "createdAt", "updatedAt"] {
            m.shift_remove(k);
        }
        m
    }

    fn apply(&mut self, new: NewCardHolder) {
        self.name = new.name;
        self.person = new.person;
        self.address = new.address;
        self.identification = new.identification;
        self.meta = new.meta;
    }
}

/// The URL a stored file is served at.
pub fn file_url(holder_id: &str, file_id: &str) -> String {
    format!("/card-holders/{holder_id}/files/{file_id}")
}

/// The UTC calendar day of `now`: dates of birth must not be after it.
fn today(now: Timestamp) -> NaiveDate {
    now.to_datetime().date_naive()
}

/// Validates a POST /card-holders JSON body (the browser's check; the server runs the same code).
/// `now` is the caller's clock: a date of birth after its day is rejected.
pub fn validate_create_json(body: Map<String, Value>, now: Timestamp) -> ApiResult<NewCardHolder> {
    validate_create_with(crate::validate::Errors::default(), body, now)
}

/// Normalizes and validates a creation body; `errors` already found (multipart naming problems) are
/// reported together with the field errors.
fn validate_create_with(
    mut errors: crate::validate::Errors,
    body: Map<String, Value>,
    now: Timestamp,
) -> ApiResult<NewCardHolder> {
    let (normalized, broken) = normalize_create(body, &mut errors);
    match validation::validate_with(normalized, today(now), &broken) {
        Ok(v) => errors.finish(v),
        Err(ApiError::Validation(mut more)) => {
            errors.0.append(&mut more);
            Err(ApiError::Validation(errors.0))
        }
        Err(e) => Err(e),
    }
}

/// Loads one of the caller's holders; another client's or an unknown id is 404.
pub fn load(ctx: &mut Ctx, id: &str) -> ApiResult<CardHolder> {
    records::find(ctx.tx, keys::CARD_HOLDER, &ctx.client, &[id], "Card holder")
}

/// The MIME type of the body, lower-cased, without parameters.
fn media_type(ctx: &Ctx) -> Option<String> {
    ctx.req.header_value("content-type").map(|ct| {
        ct.split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase()
    })
}

pub fn create(ctx: &mut Ctx) -> ApiResult<Response> {
    let (new, uploads) = if media_type(ctx).as_deref() == Some("multipart/form-data") {
        let content_type = ctx.req.header_value("content-type").unwrap_or_default();
        let parts = multipart::parse(content_type, &ctx.req.body)?;
        let mut errors = crate::validate::Errors::default();
        let (body, uploads) = input::from_parts(parts, &mut errors)?;
        (validate_create_with(errors, body, ctx.now)?, uploads)
    } else {
        // Size, content type (415) and JSON syntax.
        let body = ctx.json_body()?;
        (validate_create_json(body, ctx.now)?, Vec::new())
    };

    let now = ctx.now_string();
    let mut holder = CardHolder {
        id: ctx.new_id(),
        name: new.name,
        person: new.person,
        address: new.address,
        identification: new.identification,
        meta: new.meta,
        created_at: now.clone(),
        updated_at: now,
    };
    for upload in uploads {
        let file_id = ctx.new_id();
        let stored = files::store(
            ctx.tx,
            &ctx.client,
            &holder.id,
            &file_id,
            &upload,
            &holder.created_at,
        )?;
        attach(&mut holder, upload.part, &stored);
    }
    records::put(ctx.tx, &holder.key(&ctx.client), &holder)?;
    api::created("Card holder created successfully", holder.to_json())
}

/// Points the holder's identification at a stored file. A file sent without the matching
/// identification object creates that object with only the file's URL and meta.
fn attach(holder: &mut CardHolder, part: input::FilePart, stored: &StoredFile) {
    let url = file_url(&holder.id, &stored.id);
    let meta = FileMeta {
        file_type: stored.content_type.clone(),
        content_hash: stored.content_hash.clone(),
    };
    let ident = &mut holder.identification;
    match part {
        input::FilePart::DocumentMain => {
            let doc = ident.document.get_or_insert_with(Document::empty);
            doc.urls.main = Some(url);
            doc.meta = Some(meta);
        }
        input::FilePart::DocumentBack => {
            let doc = ident.document.get_or_insert_with(Document::empty);
            doc.urls.back = Some(url);
            doc.back_meta = Some(meta);
        }
        input::FilePart::ProofOfAddress => {
            let poa = ident
                .proof_of_address
                .get_or_insert_with(ProofOfAddress::empty);
            poa.url = Some(url);
            poa.meta = Some(meta);
        }
    }
}

pub fn get(ctx: &mut Ctx) -> ApiResult<Response> {
    let id = ctx.id.clone();
    let holder = load(ctx, &id)?;
    api::ok("Card holder fetched successfully", holder.to_json())
}

pub fn list(ctx: &mut Ctx) -> ApiResult<Response> {
    let q = ctx.list_query(&SCHEMA)?;
    let holders: Vec<CardHolder> =
        records::list(ctx.tx, &keys::prefix(keys::CARD_HOLDER, &[&ctx.client]))?;
    let (items, total) = q.select(holders.iter().map(CardHolder::to_json).collect());
    api::list("Card holders fetched successfully", &q, items, total)
}

pub fn update(ctx: &mut Ctx) -> ApiResult<Response> {
    let id = ctx.id.clone();
    let body = ctx.json_body()?;
    let mut holder = load(ctx, &id)?;

    let mut errors = crate::validate::Errors::default();
    let patch = normalize_update(body, &mut errors);
    errors.finish(())?;
    let mut merged = holder.editable_json();
    merge(&mut merged, patch);
    let new = validate(merged, today(ctx.now))?;

    holder.apply(new);
    holder.updated_at = ctx.now_string();
    records::put(ctx.tx, &holder.key(&ctx.client), &holder)?;
    api::ok("Card holder updated successfully", holder.to_json())
}

/// Deep merge: objects merge key by key, anything else (null included) replaces.
fn merge(base: &mut Map<String, Value>, patch: Map<String, Value>) {
    for (k, v) in patch {
        match (base.get_mut(&k), v) {
            (Some(Value::Object(b)), Value::Object(p)) => merge(b, p),
            (_, v) => {
                base.insert(k, v);
            }
        }
    }
}

/// GET /card-holders/{id}/files/{fileId}: the stored bytes, to the owning client only.
pub fn file(ctx: &mut Ctx) -> ApiResult<Response> {
    let id = ctx.id.clone();
    let holder = load(ctx, &id)?;
    let file_id = ctx.sub.clone();
    if !crate::id::is_valid(&file_id) {
        return Err(ApiError::NotFound("File"));
    }
    let stored = files::load(ctx.tx, &ctx.client, &file_id)?
        .filter(|f| f.holder_id == holder.id)
        .ok_or(ApiError::NotFound("File"))?;
    let bytes = files::read(ctx.tx, &ctx.client, &stored)?;
    Ok(Response::bytes(200, &stored.content_type, bytes)
        .with_header("x-content-type-options", "nosniff")
        .with_header("cache-control", "private, no-store")
        .with_header("content-disposition", "inline"))
}

#[cfg(test)]
mod tests;
