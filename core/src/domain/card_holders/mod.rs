//! Card holders: the legal owner profile of a card, with personal data and optional identity documents
//! ([`files`]: checked by their magic bytes, hashed, stored in chunks). The nested value types below are
//! both the stored shape and the wire shape (camelCase); the top-level record is not (see `http::views`).

pub mod files;

use serde::{Deserialize, Serialize};

pub use files::{MAX_FILE_BYTES, StoredFile, Upload, UploadPart, sniff};

use super::{Result, Scope};
use crate::env::Timestamp;
use crate::error::ApiError;
use crate::macros::{indexed, str_enum};
use crate::storage::codec::Record;
use crate::storage::keys::Kind;
use crate::storage::ordered::Ordered;
use crate::storage::table;

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
    /// The back (`documentBack`) file; a document has one `meta`, so the back's lives beside it.
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CardHolder {
    pub id: String,
    pub name: String,
    pub person: Person,
    pub address: Option<Address>,
    pub identification: Identification,
    pub meta: HolderMeta,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

impl Record for CardHolder {
    const VERSION: u8 = 1;
    const NAME: &'static str = "card holder";
}

/// A validated holder (POST, or a PUT merged over the stored holder).
#[derive(Debug, Clone, PartialEq)]
pub struct NewCardHolder {
    pub name: String,
    pub person: Person,
    pub address: Option<Address>,
    pub identification: Identification,
    pub meta: HolderMeta,
}

/// The URL a stored file is served at.
pub fn file_url(holder_id: &str, file_id: &str) -> String {
    format!("/card-holders/{holder_id}/files/{file_id}")
}

/// One of the caller's holders; another client's or an unknown id is 404.
pub fn get(s: &mut Scope, id: &str) -> Result<CardHolder> {
    super::find(s, Kind::CardHolder, id, "Card holder")
}

fn save(s: &mut Scope, holder: &CardHolder) -> Result<()> {
    Ok(table::save(s.tx, s.client, holder)?)
}

indexed!(CardHolder, Kind::CardHolder, |r| {
    "person.email" => &r.person.email,
}, ranges {
    "updatedAt" ["updatedAt"] => Ordered::Millis(r.updated_at.millis()),
}, texts {
    // The view's default search fields (`search` without `searchIn`).
    "name" => &r.name,
    "person.firstName" => &r.person.first_name,
    "person.lastName" => &r.person.last_name,
    "person.email" => &r.person.email,
});

/// Creates a holder and stores its uploaded identity files, within the client's `file_quota` bytes
/// (files are never replaced or deleted, so usage only grows).
pub fn create(
    s: &mut Scope,
    new: NewCardHolder,
    uploads: Vec<Upload>,
    file_quota: u64,
) -> Result<CardHolder> {
    let adding: u64 = uploads.iter().map(|u| u.bytes.len() as u64).sum();
    if adding > 0 {
        files::reserve(s, adding, file_quota)?;
    }
    let mut holder = CardHolder {
        id: s.new_id(),
        name: new.name,
        person: new.person,
        address: new.address,
        identification: new.identification,
        meta: new.meta,
        created_at: s.now,
        updated_at: s.now,
    };
    for upload in uploads {
        let stored = files::store(s, &holder.id, &upload)?;
        attach(&mut holder, upload.part, &stored);
    }
    table::insert(s.tx, s.client, &holder)?;
    Ok(holder)
}

/// Replaces the editable fields of a holder (PUT merges the body over the holder before validating).
pub fn replace(s: &mut Scope, id: &str, new: NewCardHolder) -> Result<CardHolder> {
    let mut holder = get(s, id)?;
    holder.name = new.name;
    holder.person = new.person;
    holder.address = new.address;
    holder.identification = new.identification;
    holder.meta = new.meta;
    holder.updated_at = s.now;
    save(s, &holder)?;
    Ok(holder)
}

/// Points the holder's identification at a stored file. A file sent without the matching
/// identification object creates that object with only the file's URL and meta.
fn attach(holder: &mut CardHolder, part: UploadPart, stored: &StoredFile) {
    let url = file_url(&holder.id, &stored.id);
    let meta = FileMeta {
        file_type: stored.content_type.clone(),
        content_hash: stored.content_hash.clone(),
    };
    let ident = &mut holder.identification;
    match part {
        UploadPart::DocumentMain => {
            let doc = ident.document.get_or_insert_with(Document::empty);
            doc.urls.main = Some(url);
            doc.meta = Some(meta);
        }
        UploadPart::DocumentBack => {
            let doc = ident.document.get_or_insert_with(Document::empty);
            doc.urls.back = Some(url);
            doc.back_meta = Some(meta);
        }
        UploadPart::ProofOfAddress => {
            let poa = ident
                .proof_of_address
                .get_or_insert_with(ProofOfAddress::empty);
            poa.url = Some(url);
            poa.meta = Some(meta);
        }
    }
}

/// A stored file of one of the caller's holders, and its bytes.
pub fn file(s: &mut Scope, holder_id: &str, file_id: &str) -> Result<(StoredFile, Vec<u8>)> {
    let holder = get(s, holder_id)?;
    if !super::ids::is_valid(file_id) {
        return Err(ApiError::NotFound("File"));
    }
    let stored = files::load(s, file_id)?
        .filter(|f| f.holder_id == holder.id)
        .ok_or(ApiError::NotFound("File"))?;
    let bytes = files::read(s, &stored)?;
    Ok((stored, bytes))
}
