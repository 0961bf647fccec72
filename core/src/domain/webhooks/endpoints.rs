//! Webhook endpoints: where a client wants its events pushed. At most [`MAX_ENDPOINTS`] per client.
//! The signing secret is sealed with the vault key (never stored plain) and shown only when it is
//! made; after a rotation the previous secret keeps signing beside the new one for a day of the
//! client's clock, so a receiver can switch without losing a delivery.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::domain::push::signature::Secret;
use crate::domain::vault::{SealedSecret, Vault};
use crate::domain::{Result, Scope};
use crate::env::{Env, Timestamp};
use crate::error::ApiError;
use crate::macros::{indexed, str_enum};
use crate::storage::codec::{self, Record};
use crate::storage::keys::{self, Kind};
use crate::storage::{Tx, table};

/// Endpoints per client (the outbox reads them all for every event the client appends).
pub const MAX_ENDPOINTS: usize = 16;

/// How long a rotated-out secret keeps signing beside the new one.
pub const ROTATION_OVERLAP_SECS: i64 = 24 * 3600;

/// `enabledEvents` that takes every event type.
pub const ALL_EVENTS: &str = "*";

str_enum!(EndpointStatus {
    Enabled = "enabled",
    Disabled = "disabled",
});

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Endpoint {
    pub id: String,
    pub url: String,
    /// Event types, or `["*"]`.
    pub enabled_events: Vec<String>,
    pub description: Option<String>,
    pub status: EndpointStatus,
    pub secret: SealedSecret,
    /// The secret before the last rotation and the instant (client clock) it stops signing.
    pub previous: Option<(SealedSecret, Timestamp)>,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

impl Record for Endpoint {
    const VERSION: u8 = 1;
    const NAME: &'static str = "webhook endpoint";
}

indexed!(Endpoint, Kind::WebhookEndpoint, |r| {
    "status" => r.status.as_str(),
}, texts {
    "url" => &r.url,
    "description" => r.description.as_deref().unwrap_or(""),
});

impl Endpoint {
    pub fn takes(&self, event_type: &str) -> bool {
        takes(&self.enabled_events, event_type)
    }
}

fn takes(enabled: &[String], event_type: &str) -> bool {
    enabled.iter().any(|e| e == ALL_EVENTS || e == event_type)
}

/// POST /webhook-endpoints, validated (the URL has passed the URL policy).
#[derive(Debug, Clone)]
pub struct NewEndpoint {
    pub url: String,
    pub enabled_events: Vec<String>,
    pub description: Option<String>,
}

/// PUT /webhook-endpoints/{id}: the fields sent; `description: Some(None)` clears it.
#[derive(Debug, Clone, Default)]
pub struct EndpointUpdate {
    pub url: Option<String>,
    pub enabled_events: Option<Vec<String>>,
    pub description: Option<Option<String>>,
    pub status: Option<EndpointStatus>,
}

/// The client's enabled endpoints and the event types each takes: one small record the outbox reads
/// for every event, rewritten whenever an endpoint changes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Subscriptions {
    pub endpoints: Vec<(String, Vec<String>)>,
}

impl Record for Subscriptions {
    const VERSION: u8 = 1;
    const NAME: &'static str = "webhook subscriptions";
}

impl Subscriptions {
    /// The endpoints that take `event_type`.
    pub fn matching<'a>(&'a self, event_type: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.endpoints
            .iter()
            .filter(move |(_, events)| takes(events, event_type))
            .map(|(id, _)| id.as_str())
    }
}

pub fn subscriptions(s: &mut Scope) -> Result<Subscriptions> {
    Ok(codec::get(s.tx, &keys::webhook_subscriptions(s.client))?.unwrap_or_default())
}

/// Rewrites the client's subscriptions from its endpoints (at most [`MAX_ENDPOINTS`] records).
fn refresh_subscriptions(s: &mut Scope) -> Result<()> {
    let all: Vec<Endpoint> = table::scan(s.tx, s.client, None, MAX_ENDPOINTS + 1)?;
    let subs = Subscriptions {
        endpoints: all
            .into_iter()
            .filter(|e| e.status == EndpointStatus::Enabled)
            .map(|e| (e.id, e.enabled_events))
            .collect(),
    };
    let key = keys::webhook_subscriptions(s.client);
    if subs.endpoints.is_empty() {
        s.tx.delete(&key)?;
    } else {
        codec::put(s.tx, &key, &subs)?;
    }
    Ok(())
}

/// What a sealed secret is bound to: its endpoint.
fn context(id: &str) -> String {
    format!("webhook-endpoint:{id}")
}

fn seal(s: &Scope, vault: &Vault, id: &str, secret: &Secret) -> Result<SealedSecret> {
    vault.seal_secret(s.env, &context(id), secret.as_bytes())
}

/// Creates an endpoint with a fresh secret; returns it with the secret (shown this once).
pub fn create(s: &mut Scope, vault: &Vault, new: NewEndpoint) -> Result<(Endpoint, Secret)> {
    let count = table::count(s.tx, s.client, Kind::WebhookEndpoint, keys::ALL, "")?;
    if count >= MAX_ENDPOINTS as u64 {
        return Err(ApiError::InvalidState(format!(
            "A client has at most {MAX_ENDPOINTS} webhook endpoints; delete one first"
        )));
    }
    let id = s.new_id();
    let secret = Secret::generate(s.env);
    let endpoint = Endpoint {
        secret: seal(s, vault, &id, &secret)?,
        id,
        url: new.url,
        enabled_events: new.enabled_events,
        description: new.description,
        status: EndpointStatus::Enabled,
        previous: None,
        created_at: s.now,
        updated_at: s.now,
    };
    table::insert(s.tx, s.client, &endpoint)?;
    refresh_subscriptions(s)?;
    Ok((endpoint, secret))
}

pub fn get(s: &mut Scope, id: &str) -> Result<Endpoint> {
    crate::domain::find(s, Kind::WebhookEndpoint, id, "Webhook endpoint")
}

pub fn update(s: &mut Scope, id: &str, u: EndpointUpdate) -> Result<Endpoint> {
    let mut e = get(s, id)?;
    if let Some(url) = u.url {
        e.url = url;
    }
    if let Some(events) = u.enabled_events {
        e.enabled_events = events;
    }
    if let Some(description) = u.description {
        e.description = description;
    }
    if let Some(status) = u.status {
        e.status = status;
    }
    e.updated_at = s.now;
    table::save(s.tx, s.client, &e)?;
    refresh_subscriptions(s)?;
    Ok(e)
}

/// Removes an endpoint whose deliveries are gone (`outbox::delete_endpoint`, which drops them
/// first, is how a request deletes one).
pub(in crate::domain) fn remove(s: &mut Scope, e: &Endpoint) -> Result<()> {
    table::remove(s.tx, s.client, e)?;
    refresh_subscriptions(s)
}

/// A new secret; the current one keeps signing for [`ROTATION_OVERLAP_SECS`] of the client's clock.
pub fn rotate(s: &mut Scope, vault: &Vault, id: &str) -> Result<(Endpoint, Secret)> {
    let mut e = get(s, id)?;
    let secret = Secret::generate(s.env);
    let new = seal(s, vault, &e.id, &secret)?;
    let old = std::mem::replace(&mut e.secret, new);
    e.previous = Some((old, s.now.plus_seconds(ROTATION_OVERLAP_SECS)));
    e.updated_at = s.now;
    table::save(s.tx, s.client, &e)?;
    Ok((e, secret))
}

/// The secrets that sign a delivery at `now` (the client's clock): the current one, and the previous
/// one while its overlap lasts.
pub fn signing_secrets(vault: &Vault, e: &Endpoint, now: Timestamp) -> Result<Vec<Secret>> {
    let mut out = vec![open(vault, e, &e.secret)?];
    if let Some((old, until)) = &e.previous
        && now < *until
    {
        out.push(open(vault, e, old)?);
    }
    Ok(out)
}

fn open(vault: &Vault, e: &Endpoint, sealed: &SealedSecret) -> Result<Secret> {
    Ok(Secret::from_bytes(
        vault.open_secret(&context(&e.id), sealed)?,
    ))
}

/// Re-seals under the vault's active key every endpoint secret (current and previous) of every
/// client that another key sealed: the last step of a vault rotation. Returns how many it re-sealed.
pub fn reseal_all(tx: &mut dyn Tx, env: &dyn Env, vault: &Vault) -> Result<u64> {
    let mut resealed = 0;
    for client in table::clients_with(tx, Kind::WebhookEndpoint)? {
        let all: Vec<Endpoint> = table::scan(tx, &client, None, MAX_ENDPOINTS + 1)?;
        for mut e in all {
            let context = context(&e.id);
            let mut changed = 0;
            if let Some(new) = vault.reseal_secret(env, &context, &e.secret)? {
                e.secret = new;
                changed += 1;
            }
            if let Some((old, until)) = &e.previous
                && let Some(new) = vault.reseal_secret(env, &context, old)?
            {
                e.previous = Some((new, *until));
                changed += 1;
            }
            if changed > 0 {
                table::save(tx, &client, &e)?;
                resealed += changed;
            }
        }
    }
    Ok(resealed)
}

/// Adds to `counts` how many endpoint secrets each vault key sealed (`cards vault status`).
pub fn count_secrets(tx: &mut dyn Tx, counts: &mut BTreeMap<String, u64>) -> Result<()> {
    for client in table::clients_with(tx, Kind::WebhookEndpoint)? {
        let all: Vec<Endpoint> = table::scan(tx, &client, None, MAX_ENDPOINTS + 1)?;
        for e in &all {
            let previous = e.previous.as_ref().map(|(old, _)| old);
            for sealed in std::iter::once(&e.secret).chain(previous) {
                *counts.entry(sealed.key_id().to_string()).or_insert(0) += 1;
            }
        }
    }
    Ok(())
}
