//! /card-holders: POST accepts three forms that all end in one JSON object and one validation
//! (multipart with JSON-text parts, multipart with flat parts, and `application/json`); PUT takes
//! JSON, merged into the stored holder's fields, and validates the merged result.

use chrono::NaiveDate;
use serde_json::{Map, Value};

use super::{Call, Command, command, emit, to_value};
use crate::domain::card_holders::files::Upload;
use crate::domain::card_holders::{self, NewCardHolder};
use crate::domain::events::EventType;
use crate::env::Timestamp;
use crate::error::{ApiError, ApiResult};
use crate::http::fields::Errors;
use crate::http::listing::Records;
use crate::http::parse::card_holders::{from_parts, normalize_create, normalize_update};
use crate::http::parse::{card_holder_validation, multipart};
use crate::http::views::{self, CardHolderView};
use crate::http::{Response, body, reply};

/// The UTC calendar day of `now`: dates of birth must not be after it.
fn today(now: Timestamp) -> NaiveDate {
    now.to_datetime().date_naive()
}

/// Validates a POST /card-holders JSON body (the browser's check; the server runs the same code).
/// `now` is the caller's clock: a date of birth after its day is rejected.
pub fn validate_create_json(body: Map<String, Value>, now: Timestamp) -> ApiResult<NewCardHolder> {
    validate_create_with(Errors::default(), body, now)
}

/// Normalizes and validates a creation body; `errors` already found (multipart naming problems) are
/// reported together with the field errors.
fn validate_create_with(
    mut errors: Errors,
    body: Map<String, Value>,
    now: Timestamp,
) -> ApiResult<NewCardHolder> {
    let (normalized, broken) = normalize_create(body, &mut errors);
    match card_holder_validation::validate_with(normalized, today(now), &broken) {
        Ok(v) => errors.finish(v),
        Err(ApiError::Validation(mut more)) => {
            errors.0.append(&mut more);
            Err(ApiError::Validation(errors.0))
        }
        Err(e) => Err(e),
    }
}

fn parse_create(c: &mut Call) -> ApiResult<(NewCardHolder, Vec<Upload>)> {
    let content_type = c.req.header_value("content-type").unwrap_or_default();
    if body::media_type(content_type) == "multipart/form-data" {
        let parts = multipart::parse(content_type, &c.req.body)?;
        let mut errors = Errors::default();
        let (fields, uploads) = from_parts(parts, &mut errors)?;
        Ok((validate_create_with(errors, fields, c.scope.now)?, uploads))
    } else {
        // Size, content type (415) and JSON syntax.
        let fields = c.json_body()?;
        Ok((validate_create_json(fields, c.scope.now)?, Vec::new()))
    }
}

pub fn check_create(c: &mut Call) -> ApiResult<Command> {
    command(parse_create(c)?)
}

pub fn create(c: &mut Call) -> ApiResult<Response> {
    // A copy, files included: a batch the store re-runs hands the handler the same command again.
    let (new, uploads) = c.command::<(NewCardHolder, Vec<Upload>)>()?.clone();
    let holder = card_holders::create(&mut c.scope, new, uploads, c.config.file_quota_bytes)?;
    emit(
        c,
        EventType::CardHolderCreated,
        &CardHolderView::from(&holder),
    )?;
    Ok(reply::created(
        "Card holder created successfully",
        &CardHolderView::from(&holder),
    ))
}

pub fn get(c: &mut Call) -> ApiResult<Response> {
    let holder = card_holders::get(&mut c.scope, &c.route.id)?;
    Ok(reply::ok(
        "Card holder fetched successfully",
        &CardHolderView::from(&holder),
    ))
}

pub fn list(c: &mut Call) -> ApiResult<Response> {
    let q = c.list_query(&views::CARD_HOLDER)?;
    let page = q.run(
        &mut Records::new(&mut c.scope, |_, h| to_value(CardHolderView::from(&h))),
        None,
    )?;
    Ok(reply::list("Card holders fetched successfully", &q, page))
}

/// The body of a PUT: the normalized patch (after a 404 for an unknown holder). The command is the
/// patch, not the merged holder: the write merges it over the holder as the write transaction finds it.
fn parse_update(c: &mut Call) -> ApiResult<Map<String, Value>> {
    let body = c.json_body()?;
    card_holders::get(&mut c.scope, &c.route.id)?;
    let mut errors = Errors::default();
    let patch = normalize_update(body, &mut errors);
    errors.finish(())?;
    Ok(patch)
}

/// The holder's id and its validated replacement: `patch` merged over the stored holder.
fn merged(c: &mut Call, patch: Map<String, Value>) -> ApiResult<(String, NewCardHolder)> {
    let holder = card_holders::get(&mut c.scope, &c.route.id)?;
    // The fields PUT may change, as the JSON object the body is merged into.
    let mut merged = match to_value(CardHolderView::from(&holder))? {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    for k in ["_id", "createdAt", "updatedAt"] {
        merged.shift_remove(k);
    }
    merge(&mut merged, patch);
    let new = card_holder_validation::validate(merged, today(c.scope.now))?;
    Ok((holder.id, new))
}

pub fn check_update(c: &mut Call) -> ApiResult<Command> {
    let patch = parse_update(c)?;
    // The merged holder is judged here too, so a bad PUT is refused before its write is queued.
    merged(c, patch.clone())?;
    command(patch)
}

pub fn update(c: &mut Call) -> ApiResult<Response> {
    let patch = c.command::<Map<String, Value>>()?.clone();
    let (id, new) = merged(c, patch)?;
    let holder = card_holders::replace(&mut c.scope, &id, new)?;
    emit(
        c,
        EventType::CardHolderUpdated,
        &CardHolderView::from(&holder),
    )?;
    Ok(reply::ok(
        "Card holder updated successfully",
        &CardHolderView::from(&holder),
    ))
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
pub fn file(c: &mut Call) -> ApiResult<Response> {
    let (stored, bytes) = card_holders::file(&mut c.scope, &c.route.id, &c.route.sub)?;
    Ok(Response::bytes(200, &stored.content_type, bytes)
        .with_header("x-content-type-options", "nosniff")
        .with_header("cache-control", "private, no-store")
        .with_header("content-disposition", "inline"))
}
