//! /api-keys: a client's stored keys, managed with a key that holds `api_keys` (read to list,
//! write to create and revoke). A key may only create keys it covers (no `reveal` from a key
//! without it); the new key is shown once.

use serde_json::{Map, Value, json};

use super::{Call, Command, command, to_value};
use crate::domain::api_keys::{self, KeyInfo};
use crate::domain::audit::{self, Actor, AuditAction};
use crate::domain::permissions::Permissions;
use crate::error::{ApiError, ApiResult};
use crate::http::views::{self, ApiKeyView};
use crate::http::{Response, reply};
use crate::query::Documents;

/// The grants of the body's `permissions`; without it, the caller's own grants less `reveal`.
fn parse_create(c: &Call) -> ApiResult<Permissions> {
    let body: Map<String, Value> = c.json_body()?;
    let caller = c
        .key
        .map_or_else(Permissions::full, |k| k.permissions.clone());
    crate::http::parse::api_keys::create(body, &caller)
}

fn actor(c: &Call) -> Actor {
    c.key
        .map(|k| crate::http::auth::actor(c.req, k))
        .unwrap_or_default()
}

pub fn check_create(c: &mut Call) -> ApiResult<Command> {
    command(parse_create(c)?)
}

pub fn create(c: &mut Call) -> ApiResult<Response> {
    let permissions = c.command::<Permissions>()?.clone();
    let s = &mut c.scope;
    let (key, info) = api_keys::create_key(s.tx, s.env, s.client, permissions, s.now)
        .map_err(ApiError::internal)?;
    let actor = actor(c);
    audit::append(
        &mut c.scope,
        &actor,
        AuditAction::ApiKeyCreated,
        Ok(()),
        None,
        Some(&info.id),
    )?;
    let view = ApiKeyView::from(&info);
    let mut data = to_value(&view)?;
    data["key"] = json!(key);
    let mut response = reply::created("API key created successfully", &data);
    // The key is stored only as its hash: an idempotent replay cannot show it again.
    data["key"] = Value::Null;
    let replay = reply::created(
        "API key already created for this Idempotency-Key; a key is shown only once",
        &data,
    );
    response.replay_body = Some(replay.body);
    Ok(response)
}

pub fn list(c: &mut Call) -> ApiResult<Response> {
    let q = c.list_query(&views::API_KEY)?;
    let keys: Vec<KeyInfo> = api_keys::list(c.scope.tx, Some(c.scope.client))?;
    let items = keys
        .iter()
        .map(|k| to_value(ApiKeyView::from(k)))
        .collect::<ApiResult<_>>()?;
    // A client has few keys: they are listed from memory.
    let page = q.run(&mut Documents::new(items), None)?;
    Ok(reply::list("API keys fetched successfully", &q, page))
}

pub fn revoke(c: &mut Call) -> ApiResult<Response> {
    let s = &mut c.scope;
    let info = api_keys::revoke_by_id(s.tx, Some(s.client), &c.route.id)?
        .ok_or(ApiError::NotFound("API key"))?;
    let actor = actor(c);
    audit::append(
        &mut c.scope,
        &actor,
        AuditAction::ApiKeyRevoked,
        Ok(()),
        None,
        Some(&info.id),
    )?;
    Ok(reply::ok(
        "API key revoked successfully",
        &ApiKeyView::from(&info),
    ))
}
