//! The three request forms of POST /card-holders turned into one JSON object in the nested camelCase
//! shape, so one validation ([`super::validate`]) serves them all:
//!
//! - snake_case keys are renamed to their camelCase field (`first_name` -> `firstName`) at every known
//!   level; a key given in both spellings is an error; keys unknown in both spellings stay as sent, so
//!   the validation names them as the caller wrote them;
//! - `person`, `address`, `identification` and `meta` given as JSON text (multipart parts, or strings in
//!   a JSON body) are parsed;
//! - the quickstart's flat fields fill `person` and `address`; where a JSON part carries the same field,
//!   the JSON part wins;
//! - without `name`, the name is `"<firstName> <lastName>"`.

use serde_json::{Map, Value};

use super::multipart::Part;
use crate::domain::card_holders::{MAX_FILE_BYTES, Upload, UploadPart, sniff};
use crate::error::{ApiError, ApiResult};
use crate::http::fields::{Errors, join};
use crate::http::parse::card_holder_validation::{
    AddressBody, DocumentBody, FileMetaBody, HolderBody, HolderMetaBody, IdentificationBody,
    PersonBody, ProofBody, UrlsBody,
};
use crate::http::parse::input::Body;

/// The field names of a declared body: the keys each level knows come from the declarations the
/// validation reads (`card_holder_validation`), so they are written once.
fn names(body: &Body) -> Vec<&'static str> {
    body.fields.iter().map(|f| f.name).collect()
}

/// Quickstart flat field -> (object, field in it).
const FLAT: &[(&str, &str, &str)] = &[
    ("firstName", "person", "firstName"),
    ("lastName", "person", "lastName"),
    ("email", "person", "email"),
    ("phoneNumber", "person", "phoneNumber"),
    ("dateOfBirth", "person", "dateOfBirth"),
    ("gender", "person", "gender"),
    ("nationality", "person", "nationality"),
    ("addressLine1", "address", "line1"),
    ("city", "address", "city"),
    ("state", "address", "state"),
    ("postalCode", "address", "postalCode"),
    ("country", "address", "countryCode"),
];

/// Text parts larger than this are refused (413): no field needs more.
pub const MAX_TEXT_PART_BYTES: usize = 1024 * 1024;

/// `first_name` -> `firstName`; keys without `_` are returned unchanged.
pub fn camelize(key: &str) -> String {
    if !key.contains('_') {
        return key.to_string();
    }
    let mut out = String::with_capacity(key.len());
    for (i, seg) in key.split('_').filter(|s| !s.is_empty()).enumerate() {
        let mut chars = seg.chars();
        if i == 0 {
            out.push_str(seg);
        } else if let Some(c) = chars.next() {
            out.extend(c.to_uppercase());
            out.push_str(chars.as_str());
        }
    }
    out
}

fn known_keys(path: &str) -> Option<Vec<&'static str>> {
    Some(names(match path {
        "person" => &PersonBody::BODY,
        "address" => &AddressBody::BODY,
        "identification" => &IdentificationBody::BODY,
        "identification.document" => &DocumentBody::BODY,
        "identification.document.urls" => &UrlsBody::BODY,
        "identification.document.meta"
        | "identification.document.backMeta"
        | "identification.proofOfAddress.meta" => &FileMetaBody::BODY,
        "identification.proofOfAddress" => &ProofBody::BODY,
        "meta" => &HolderMetaBody::BODY,
        _ => return None,
    }))
}

/// Renames snake_case keys to the known camelCase field of this level.
fn rename_aliases(
    map: Map<String, Value>,
    path: &str,
    known: &[&str],
    errors: &mut Errors,
) -> Map<String, Value> {
    let mut out = Map::new();
    for (key, value) in map {
        let canonical = if known.contains(&key.as_str()) {
            key.clone()
        } else {
            let c = camelize(&key);
            if known.contains(&c.as_str()) {
                c
            } else {
                key.clone()
            }
        };
        if out.contains_key(&canonical) {
            errors.push(
                join(path, &key),
                format!("is given twice (also as {})", join(path, &canonical)),
            );
            continue;
        }
        out.insert(canonical, value);
    }
    out
}

/// Renames aliases at every known level below `path`.
fn normalize_value(value: Value, path: &str, errors: &mut Errors) -> Value {
    match (value, known_keys(path)) {
        (Value::Object(map), Some(known)) => {
            let map = rename_aliases(map, path, &known, errors);
            Value::Object(
                map.into_iter()
                    .map(|(k, v)| {
                        let child = join(path, &k);
                        (k, normalize_value(v, &child, errors))
                    })
                    .collect(),
            )
        }
        (value, _) => value,
    }
}

/// Top-level keys valid at creation: the nested fields and the flat quickstart fields.
fn create_keys() -> Vec<&'static str> {
    names(&HolderBody::BODY)
        .into_iter()
        .chain(FLAT.iter().map(|(flat, _, _)| *flat))
        .collect()
}

/// A POST body (any form) in the nested camelCase shape, flat fields moved in and the name derived.
/// Also returns the top-level keys whose JSON text was already reported as broken, so the validation
/// does not report them a second time.
pub fn normalize_create(
    body: Map<String, Value>,
    errors: &mut Errors,
) -> (Map<String, Value>, Vec<&'static str>) {
    let mut top = rename_aliases(body, "", &create_keys(), errors);
    let mut broken = Vec::new();
    for key in ["person", "address", "identification", "meta"] {
        if let Some(Value::String(text)) = top.get(key) {
            match serde_json::from_str::<Value>(text) {
                Ok(v @ Value::Object(_)) => {
                    top.insert(key.to_string(), v);
                }
                Ok(_) => {
                    errors.push(key, "must be JSON text of an object");
                    broken.push(key);
                }
                Err(e) => {
                    errors.push(key, format!("must be JSON text of an object: {e}"));
                    broken.push(key);
                }
            }
        }
    }
    let mut top: Map<String, Value> = top
        .into_iter()
        .map(|(k, v)| {
            let v = normalize_value(v, &k, errors);
            (k, v)
        })
        .collect();
    for (flat, object, field) in FLAT {
        let Some(value) = top.shift_remove(*flat) else {
            continue;
        };
        let target = top.entry(object.to_string()).or_insert(Value::Null);
        if target.is_null() {
            *target = Value::Object(Map::new());
        }
        // A target that is not an object is reported by the validation; the JSON part's own field wins.
        if let Value::Object(m) = target {
            m.entry(field.to_string()).or_insert(value);
        }
    }
    if top.get("name").is_none_or(Value::is_null)
        && let Some(name) = derived_name(&top)
    {
        top.insert("name".into(), Value::String(name));
    }
    (top, broken)
}

/// `"<firstName> <lastName>"` from whichever of the two is a non-empty string.
fn derived_name(top: &Map<String, Value>) -> Option<String> {
    let person = top.get("person")?.as_object()?;
    let parts: Vec<&str> = ["firstName", "lastName"]
        .iter()
        .filter_map(|k| person.get(*k).and_then(Value::as_str))
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// A PUT body in the nested camelCase shape (no flat fields, no JSON text).
pub fn normalize_update(body: Map<String, Value>, errors: &mut Errors) -> Map<String, Value> {
    rename_aliases(body, "", &names(&HolderBody::BODY), errors)
        .into_iter()
        .map(|(k, v)| {
            let v = normalize_value(v, &k, errors);
            (k, v)
        })
        .collect()
}

/// Sorts multipart parts into text fields (as JSON strings) and checked file uploads.
/// Oversized parts are 413 and files that are not JPEG, PNG or PDF are 415; naming problems
/// (unknown or repeated parts, non-UTF-8 text) are field errors in `errors`.
pub fn from_parts(
    parts: Vec<Part>,
    errors: &mut Errors,
) -> ApiResult<(Map<String, Value>, Vec<Upload>)> {
    let text_keys = create_keys();
    let mut body = Map::new();
    let mut uploads: Vec<Upload> = Vec::new();
    for part in parts {
        if let Some(which) = UploadPart::parse(&part.name) {
            // A browser form with no file chosen sends an empty part with an empty file name.
            if part.data.is_empty() && part.file_name.as_deref().unwrap_or("").is_empty() {
                continue;
            }
            if part.data.len() > MAX_FILE_BYTES {
                return Err(ApiError::PayloadTooLarge);
            }
            let Some(content_type) = sniff(&part.data) else {
                return Err(ApiError::UnsupportedMediaType(format!(
                    "{} must be a JPEG, PNG or PDF file",
                    which.as_str()
                )));
            };
            if uploads.iter().any(|u| u.part == which) {
                errors.push(which.as_str(), "is given more than once");
                continue;
            }
            uploads.push(Upload {
                part: which,
                content_type,
                bytes: part.data,
            });
            continue;
        }
        let known = text_keys.contains(&part.name.as_str())
            || text_keys.contains(&camelize(&part.name).as_str());
        if !known {
            errors.push(part.name.as_str(), "is not a known part");
            continue;
        }
        if part.data.len() > MAX_TEXT_PART_BYTES {
            return Err(ApiError::PayloadTooLarge);
        }
        let Ok(text) = String::from_utf8(part.data) else {
            errors.push(part.name.as_str(), "must be UTF-8 text");
            continue;
        };
        // HTML forms send empty inputs as empty parts: they mean "not given".
        if text.trim().is_empty() {
            continue;
        }
        if body.contains_key(&part.name) {
            errors.push(part.name.as_str(), "is given more than once");
            continue;
        }
        body.insert(part.name, Value::String(text));
    }
    uploads.sort_by_key(|u| u.part as u8);
    Ok((body, uploads))
}
