//! The card holder rules (README "Card holders"), over the normalized nested camelCase object:
//! one field error per problem, with dot paths (`person.email`, `identification.document.expiryDate`).

use std::sync::LazyLock;

use chrono::NaiveDate;
use regex::Regex;
use serde_json::{Map, Value};

use crate::domain::card_holders::{
    Address, Document, DocumentType, DocumentUrls, FileMeta, Gender, HolderMeta, Identification,
    NewCardHolder, Person, ProofOfAddress, ProofOfAddressType, VerificationStatus,
};
use crate::error::{ApiError, ApiResult};
use crate::http::fields::{Errors, Fields};
use crate::http::parse::input::body;

/// ISO 3166-1 alpha-2: the 249 officially assigned codes, sorted.
pub const COUNTRY_CODES: &[&str] = &[
    "AD", "AE", "AF", "AG", "AI", "AL", "AM", "AO", "AQ", "AR", "AS", "AT", "AU", "AW", "AX",
    "AZ", //
    "BA", "BB", "BD", "BE", "BF", "BG", "BH", "BI", "BJ", "BL", "BM", "BN", "BO", "BQ", "BR", "BS",
    "BT", "BV", "BW", "BY", "BZ", //
    "CA", "CC", "CD", "CF", "CG", "CH", "CI", "CK", "CL", "CM", "CN", "CO", "CR", "CU", "CV", "CW",
    "CX", "CY", "CZ", //
    "DE", "DJ", "DK", "DM", "DO", "DZ", //
    "EC", "EE", "EG", "EH", "ER", "ES", "ET", //
    "FI", "FJ", "FK", "FM", "FO", "FR", //
    "GA", "GB", "GD", "GE", "GF", "GG", "GH", "GI", "GL", "GM", "GN", "GP", "GQ", "GR", "GS", "GT",
    "GU", "GW", "GY", //
    "HK", "HM", "HN", "HR", "HT", "HU", //
    "ID", "IE", "IL", "IM", "IN", "IO", "IQ", "IR", "IS", "IT", //
    "JE", "JM", "JO", "JP", //
    "KE", "KG", "KH", "KI", "KM", "KN", "KP", "KR", "KW", "KY", "KZ", //
    "LA", "LB", "LC", "LI", "LK", "LR", "LS", "LT", "LU", "LV", "LY", //
    "MA", "MC", "MD", "ME", "MF", "MG", "MH", "MK", "ML", "MM", "MN", "MO", "MP", "MQ", "MR", "MS",
    "MT", "MU", "MV", "MW", "MX", "MY", "MZ", //
    "NA", "NC", "NE", "NF", "NG", "NI", "NL", "NO", "NP", "NR", "NU", "NZ", //
    "OM", //
    "PA", "PE", "PF", "PG", "PH", "PK", "PL", "PM", "PN", "PR", "PS", "PT", "PW", "PY", //
    "QA", //
    "RE", "RO", "RS", "RU", "RW", //
    "SA", "SB", "SC", "SD", "SE", "SG", "SH", "SI", "SJ", "SK", "SL", "SM", "SN", "SO", "SR", "SS",
    "ST", "SV", "SX", "SY", "SZ", //
    "TC", "TD", "TF", "TG", "TH", "TJ", "TK", "TL", "TM", "TN", "TO", "TR", "TT", "TV", "TW",
    "TZ", //
    "UA", "UG", "UM", "US", "UY", "UZ", //
    "VA", "VC", "VE", "VG", "VI", "VN", "VU", //
    "WF", "WS", //
    "YE", "YT", //
    "ZA", "ZM", "ZW",
];

/// local@domain.tld: no spaces, one @, a dot-separated domain with a 2+ letter top-level label.
const EMAIL_PATTERN: &str = r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,63}$";
const PHONE_PATTERN: &str = r"^\+?[0-9]{7,15}$";
static EMAIL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(EMAIL_PATTERN).unwrap_or_else(|_| unreachable!("static pattern")));
static PHONE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(PHONE_PATTERN).unwrap_or_else(|_| unreachable!("static pattern")));

fn is_email(s: &str) -> bool {
    EMAIL.is_match(s)
}

fn is_phone(s: &str) -> bool {
    PHONE.is_match(s)
}

pub(crate) const FILE_TYPES: &[&str] = &["image/jpeg", "image/png", "application/pdf"];
const SHORT: usize = 200;
const LONG: usize = 1000;
const URL: usize = 2048;

body! {
    /// POST /card-holders (JSON), after the flat fields and snake_case keys are normalized; the
    /// name is required here, where the normalization has given it from the person.
    pub struct HolderBody = "CardHolderCreate",
        "Without `name`, the name is `<firstName> <lastName>`. The quickstart's flat fields \
         (`firstName`, `addressLine1`, `country`, ...) are accepted too." {
        optional name: "name", Text(SHORT);
        required person: "person", Ref(PersonBody::BODY.name);
        optional address: "address", Ref(AddressBody::BODY.name);
        optional identification: "identification", Ref(IdentificationBody::BODY.name);
        optional meta: "meta", Ref(HolderMetaBody::BODY.name);
    }
}

body! {
    /// A holder's `person`.
    pub struct PersonBody = "PersonInput", "snake_case keys are accepted too (`first_name`)." {
        required first_name: "firstName", Text(SHORT);
        required last_name: "lastName", Text(SHORT);
        optional date_of_birth: "dateOfBirth", Date("(19[0-9]{2}|200[0-9])"),
            "Not in the future (any real date before today is accepted).";
        required email: "email",
            TextPattern(254, EMAIL_PATTERN, is_email, "must be a valid email address");
        optional nationality: "nationality", LooseEnum(COUNTRY_CODES), "ISO 3166-1 alpha-2";
        optional gender: "gender", LooseEnum(Gender::ALL);
        required phone_number: "phoneNumber",
            TrimmedPattern(
                PHONE_PATTERN,
                is_phone,
                "must be an optional + followed by 7 to 15 digits"
            );
    }
}

body! {
    /// A holder's `address`.
    pub struct AddressBody = "AddressInput" {
        optional line1: "line1", Text(SHORT);
        optional city: "city", Text(SHORT);
        optional state: "state", Text(SHORT);
        optional postal_code: "postalCode", Text(20);
        optional country_code: "countryCode", LooseEnum(COUNTRY_CODES), "ISO 3166-1 alpha-2";
    }
}

body! {
    /// The `meta` and `backMeta` of an identification document or proof of address.
    pub struct FileMetaBody = "FileMetaInput" {
        required file_type: "fileType", Enum(FILE_TYPES);
        required content_hash: "contentHash",
            Pattern(
                "^sha256:[0-9a-f]{64}$",
                is_content_hash,
                "must be sha256: followed by 64 lowercase hex digits"
            );
    }
}

body! {
    /// A holder's `meta`.
    pub struct HolderMetaBody = "HolderMetaInput" {
        optional funding_source: "fundingSource", Text(SHORT);
        // The API types it as a string; a JSON number is kept as its exact text.
        optional monthly_transaction_value: "monthlyTransactionValue", TextOrNumber(100);
    }
}

body! {
    /// `identification.document.urls`.
    pub struct UrlsBody = "DocumentUrlsInput" {
        optional main: "main", Text(URL);
        optional back: "back", Text(URL);
    }
}

body! {
    /// `identification.document`.
    pub struct DocumentBody = "DocumentInput" {
        optional kind: "type", Enum(DocumentType::ALL);
        optional number: "number", Text(100);
        optional issue_date: "issueDate", Date("(19[0-9]{2}|200[0-9])"), "Not after expiryDate.";
        optional expiry_date: "expiryDate", Date("(20[1-9][0-9])"), "Not before issueDate.";
        optional issuing_country: "issuingCountry", LooseEnum(COUNTRY_CODES), "ISO 3166-1 alpha-2";
        optional verification_status: "verificationStatus", Enum(VerificationStatus::ALL);
        optional description: "description", Text(LONG);
        optional urls: "urls", Inline(&UrlsBody::BODY);
        optional meta: "meta", Ref(FileMetaBody::BODY.name);
        optional back_meta: "backMeta", Ref(FileMetaBody::BODY.name);
    }
}

body! {
    /// `identification.proofOfAddress`.
    pub struct ProofBody = "ProofOfAddressInput" {
        optional kind: "type", Enum(ProofOfAddressType::ALL);
        optional document_id: "documentId", Text(SHORT);
        optional verification_status: "verificationStatus", Enum(VerificationStatus::ALL);
        optional description: "description", Text(LONG);
        optional url: "url", Text(URL);
        optional meta: "meta", Ref(FileMetaBody::BODY.name);
    }
}

body! {
    /// A holder's `identification`.
    pub struct IdentificationBody = "IdentificationInput" {
        optional document: "document", Inline(&DocumentBody::BODY);
        optional proof_of_address: "proofOfAddress", Inline(&ProofBody::BODY);
    }
}

/// `sha256:` and 64 lowercase hex digits (the declared pattern, without a regex).
fn is_content_hash(s: &str) -> bool {
    s.strip_prefix("sha256:").is_some_and(|hex| {
        hex.len() == 64 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    })
}

/// Validates a normalized holder object (see [`super::input`]). `today` bounds the date of birth.
pub fn validate(body: Map<String, Value>, today: NaiveDate) -> ApiResult<NewCardHolder> {
    validate_with(body, today, &[])
}

/// As [`validate`]; the top-level keys in `broken` were already reported (unparsable JSON text) and
/// are skipped, and so is the name a broken `person` would have given.
pub fn validate_with(
    body: Map<String, Value>,
    today: NaiveDate,
    broken: &[&str],
) -> ApiResult<NewCardHolder> {
    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    for key in broken {
        f.take(key);
    }
    let name = if broken.contains(&"person") && !f.has("name") {
        None
    } else {
        let name = f.read(&HolderBody::name);
        f.required("name", name)
    };
    let person = if broken.contains(&"person") {
        None
    } else {
        f.read(&HolderBody::person)
            .and_then(|m| person(m, today, f.errors))
    };
    let address = f
        .read(&HolderBody::address)
        .and_then(|m| address(m, f.errors));
    let identification = f
        .read(&HolderBody::identification)
        .map(|m| identification(m, f.errors))
        .unwrap_or_default();
    let meta = f
        .read(&HolderBody::meta)
        .map(|m| holder_meta(m, f.errors))
        .unwrap_or_default();
    f.finish();
    match (name, person) {
        (Some(name), Some(person)) => errors.finish(NewCardHolder {
            name,
            person,
            address,
            identification,
            meta,
        }),
        // A missing name or person recorded its error here or, when broken, before.
        _ => Err(ApiError::Validation(errors.0)),
    }
}

fn person(map: Map<String, Value>, today: NaiveDate, errors: &mut Errors) -> Option<Person> {
    let mut f = Fields::new(map, "person", errors);
    let first_name = f.read(&PersonBody::first_name);
    let last_name = f.read(&PersonBody::last_name);
    let date_of_birth = f.read(&PersonBody::date_of_birth);
    if let Some((_, d)) = &date_of_birth
        && *d > today
    {
        f.error("dateOfBirth", "must not be in the future");
    }
    let email = f.read(&PersonBody::email);
    let nationality = f.read(&PersonBody::nationality);
    let nationality = country_code(&mut f, "nationality", nationality);
    let gender = f.read(&PersonBody::gender);
    let gender = gender.and_then(|s| gender_of(&mut f, &s));
    let phone_number = f.read(&PersonBody::phone_number);
    f.finish();
    Some(Person {
        first_name: first_name?,
        last_name: last_name?,
        date_of_birth: date_of_birth.map(|(s, _)| s),
        email: email?,
        nationality,
        gender,
        phone_number: phone_number?,
    })
}

fn address(map: Map<String, Value>, errors: &mut Errors) -> Option<Address> {
    let mut f = Fields::new(map, "address", errors);
    let a = Address {
        line1: f.read(&AddressBody::line1),
        city: f.read(&AddressBody::city),
        state: f.read(&AddressBody::state),
        postal_code: f.read(&AddressBody::postal_code),
        country_code: {
            let raw = f.read(&AddressBody::country_code);
            country_code(&mut f, "countryCode", raw)
        },
    };
    f.finish();
    Some(a)
}

fn identification(map: Map<String, Value>, errors: &mut Errors) -> Identification {
    let mut f = Fields::new(map, "identification", errors);
    let document = f
        .read(&IdentificationBody::document)
        .map(|m| document(m, f.errors));
    let proof_of_address = f
        .read(&IdentificationBody::proof_of_address)
        .map(|m| proof_of_address(m, f.errors));
    f.finish();
    Identification {
        document,
        proof_of_address,
    }
}

fn document(map: Map<String, Value>, errors: &mut Errors) -> Document {
    let path = "identification.document";
    let mut f = Fields::new(map, path, errors);
    let kind = f
        .read(&DocumentBody::kind)
        .and_then(|s| DocumentType::parse(&s));
    let number = f.read(&DocumentBody::number);
    let issue = f.read(&DocumentBody::issue_date);
    let expiry = f.read(&DocumentBody::expiry_date);
    if let (Some((_, i)), Some((_, e))) = (&issue, &expiry)
        && i > e
    {
        f.error("issueDate", "must not be after expiryDate");
    }
    let issuing_country = f.read(&DocumentBody::issuing_country);
    let issuing_country = country_code(&mut f, "issuingCountry", issuing_country);
    let verification_status = verification_status(f.read(&DocumentBody::verification_status));
    let description = f.read(&DocumentBody::description);
    let urls = f
        .read(&DocumentBody::urls)
        .map(|m| {
            let mut u = Fields::new(m, &format!("{path}.urls"), f.errors);
            let urls = DocumentUrls {
                main: u.read(&UrlsBody::main),
                back: u.read(&UrlsBody::back),
            };
            u.finish();
            urls
        })
        .unwrap_or_default();
    let meta = f
        .read(&DocumentBody::meta)
        .and_then(|m| file_meta(m, &format!("{path}.meta"), f.errors));
    let back_meta = f
        .read(&DocumentBody::back_meta)
        .and_then(|m| file_meta(m, &format!("{path}.backMeta"), f.errors));
    f.finish();
    Document {
        kind,
        number,
        issue_date: issue.map(|(s, _)| s),
        expiry_date: expiry.map(|(s, _)| s),
        issuing_country,
        verification_status,
        description,
        urls,
        meta,
        back_meta,
    }
}

fn proof_of_address(map: Map<String, Value>, errors: &mut Errors) -> ProofOfAddress {
    let path = "identification.proofOfAddress";
    let mut f = Fields::new(map, path, errors);
    let kind = f
        .read(&ProofBody::kind)
        .and_then(|s| ProofOfAddressType::parse(&s));
    let document_id = f.read(&ProofBody::document_id);
    let verification_status = verification_status(f.read(&ProofBody::verification_status));
    let description = f.read(&ProofBody::description);
    let url = f.read(&ProofBody::url);
    let meta = f
        .read(&ProofBody::meta)
        .and_then(|m| file_meta(m, &format!("{path}.meta"), f.errors));
    f.finish();
    ProofOfAddress {
        kind,
        document_id,
        verification_status,
        description,
        url,
        meta,
    }
}

fn file_meta(map: Map<String, Value>, path: &str, errors: &mut Errors) -> Option<FileMeta> {
    let mut f = Fields::new(map, path, errors);
    let file_type = f.read(&FileMetaBody::file_type);
    let content_hash = f.read(&FileMetaBody::content_hash);
    f.finish();
    Some(FileMeta {
        file_type: file_type?,
        content_hash: content_hash?,
    })
}

fn holder_meta(map: Map<String, Value>, errors: &mut Errors) -> HolderMeta {
    let mut f = Fields::new(map, "meta", errors);
    let funding_source = f.read(&HolderMetaBody::funding_source);
    let monthly_transaction_value = f.read(&HolderMetaBody::monthly_transaction_value);
    f.finish();
    HolderMeta {
        funding_source,
        monthly_transaction_value,
    }
}

/// Pending unless given.
fn verification_status(given: Option<String>) -> VerificationStatus {
    given
        .and_then(|s| VerificationStatus::parse(&s))
        .unwrap_or(VerificationStatus::Pending)
}

/// Any case, trimmed.
fn gender_of(f: &mut Fields, s: &str) -> Option<Gender> {
    match Gender::parse(&s.trim().to_ascii_lowercase()) {
        Some(g) => Some(g),
        None => {
            f.error(
                "gender",
                format!("must be one of: {}", Gender::ALL.join(", ")),
            );
            None
        }
    }
}

/// ISO 3166-1 alpha-2, upper-cased on input.
fn country_code(f: &mut Fields, key: &str, raw: Option<String>) -> Option<String> {
    let s = raw?;
    let code = s.trim().to_ascii_uppercase();
    if COUNTRY_CODES.binary_search(&code.as_str()).is_ok() {
        Some(code)
    } else {
        f.error(key, "must be an ISO 3166-1 alpha-2 country code");
        None
    }
}
