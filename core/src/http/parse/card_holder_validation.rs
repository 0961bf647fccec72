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

pub(crate) static EMAIL: LazyLock<Regex> = LazyLock::new(|| {
    // local@domain.tld: no spaces, one @, a dot-separated domain with a 2+ letter top-level label.
    Regex::new(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,63}$")
        .unwrap_or_else(|_| unreachable!("static pattern"))
});
pub(crate) static PHONE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\+?[0-9]{7,15}$").unwrap_or_else(|_| unreachable!("static pattern"))
});
static DATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$").unwrap_or_else(|_| unreachable!("static pattern"))
});

pub(crate) const FILE_TYPES: &[&str] = &["image/jpeg", "image/png", "application/pdf"];
const SHORT: usize = 200;
const LONG: usize = 1000;
const URL: usize = 2048;

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
        f.text("name", SHORT)
    };
    let person = if broken.contains(&"person") {
        None
    } else {
        f.object_field("person")
            .and_then(|m| person(m, today, f.errors))
    };
    let address = f.opt_object("address").and_then(|m| address(m, f.errors));
    let identification = f
        .opt_object("identification")
        .map(|m| identification(m, f.errors))
        .unwrap_or_default();
    let meta = f
        .opt_object("meta")
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
    let first_name = f.text("firstName", SHORT);
    let last_name = f.text("lastName", SHORT);
    let date_of_birth = date(&mut f, "dateOfBirth");
    if let Some((_, d)) = &date_of_birth
        && *d > today
    {
        f.error("dateOfBirth", "must not be in the future");
    }
    let email = email(&mut f);
    let nationality = country(&mut f, "nationality");
    let gender = gender(&mut f);
    let phone_number = phone(&mut f);
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
    let document = f.opt_object("document").map(|m| document(m, f.errors));
    let proof_of_address = f
        .opt_object("proofOfAddress")
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
        .opt_enum("type", DocumentType::ALL)
        .and_then(|s| DocumentType::parse(&s));
    let number = f.opt_text("number", 100);
    let issue = date(&mut f, "issueDate");
    let expiry = date(&mut f, "expiryDate");
    if let (Some((_, i)), Some((_, e))) = (&issue, &expiry)
        && i > e
    {
        f.error("issueDate", "must not be after expiryDate");
    }
    let issuing_country = country(&mut f, "issuingCountry");
    let verification_status = verification_status(&mut f);
    let description = f.opt_text("description", LONG);
    let urls = f
        .opt_object("urls")
        .map(|m| {
            let mut u = Fields::new(m, &format!("{path}.urls"), f.errors);
            let urls = DocumentUrls {
                main: u.opt_text("main", URL),
                back: u.opt_text("back", URL),
            };
            u.finish();
            urls
        })
        .unwrap_or_default();
    let meta = f
        .opt_object("meta")
        .and_then(|m| file_meta(m, &format!("{path}.meta"), f.errors));
    let back_meta = f
        .opt_object("backMeta")
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
        .opt_enum("type", ProofOfAddressType::ALL)
        .and_then(|s| ProofOfAddressType::parse(&s));
    let document_id = f.opt_text("documentId", SHORT);
    let verification_status = verification_status(&mut f);
    let description = f.opt_text("description", LONG);
    let url = f.opt_text("url", URL);
    let meta = f
        .opt_object("meta")
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

fn verification_status(f: &mut Fields) -> VerificationStatus {
    f.opt_enum("verificationStatus", VerificationStatus::ALL)
        .and_then(|s| VerificationStatus::parse(&s))
        .unwrap_or(VerificationStatus::Pending)
}

/// `YYYY-MM-DD`, a real calendar date: the text as given and the date.
fn date(f: &mut Fields, key: &str) -> Option<(String, NaiveDate)> {
    let s = f.opt_str(key)?;
    let s = s.trim();
    let parsed = DATE
        .is_match(s)
        .then(|| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok())
        .flatten();
    match parsed {
        Some(d) => Some((s.to_string(), d)),
        None => {
            f.error(key, "must be a real date in the form YYYY-MM-DD");
            None
        }
    }
}

fn email(f: &mut Fields) -> Option<String> {
    let s = f.text("email", 254)?;
    if EMAIL.is_match(&s) {
        Some(s)
    } else {
        f.error("email", "must be a valid email address");
        None
    }
}

fn phone(f: &mut Fields) -> Option<String> {
    let s = f.text("phoneNumber", 16)?;
    if PHONE.is_match(&s) {
        Some(s)
    } else {
        f.error(
            "phoneNumber",
            "must be an optional + followed by 7 to 15 digits",
        );
        None
    }
}

fn gender(f: &mut Fields) -> Option<Gender> {
    let s = f.opt_str("gender")?;
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
fn country(f: &mut Fields, key: &str) -> Option<String> {
    let raw = f.opt_str(key);
    country_code(f, key, raw)
}

/// As [`country`], for a string already read.
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
