//! A client's decision endpoint (`/authorization-endpoint`): where its purchases are asked about,
//! how long to wait, what decides without an answer, and the signing secret, stored sealed by the
//! vault. A rotated-out secret keeps signing beside the new one for a day, as webhook endpoints' do.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::decisions::Fallback;
use crate::domain::vault::{SealedSecret, Vault};
use crate::domain::{Result, Scope};
use crate::env::{Env, Timestamp};
use crate::error::ApiError;
use crate::storage::codec::{self, Record};
use crate::storage::{Tx, keys};

/// How long a rotated-out secret keeps signing beside the new one.
pub const PREVIOUS_SECRET_SECS: i64 = 24 * 3600;
pub const DEFAULT_TIMEOUT_MS: u32 = 2000;
pub const MIN_TIMEOUT_MS: u32 = 100;
pub const MAX_TIMEOUT_MS: u32 = 10_000;

/// `PUT /authorization-endpoint`, validated.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub url: String,
    pub timeout_ms: u32,
    pub fallback: Fallback,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Endpoint {
    pub url: String,
    pub timeout_ms: u32,
    pub fallback: Fallback,
    pub secret: SealedSecret,
    pub previous: Option<Previous>,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

/// The secret before the last rotation, and until when it still signs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Previous {
    pub secret: SealedSecret,
    pub until: Timestamp,
}

impl Record for Endpoint {
    const VERSION: u8 = 1;
    const NAME: &'static str = "authorization endpoint";
}

/// The sealed secret opens only for this client's endpoint.
fn aad(client: &str) -> String {
    format!("authorization-endpoint/{client}")
}

pub fn get(s: &mut Scope) -> Result<Option<Endpoint>> {
    Ok(codec::get(s.tx, &keys::authorization_endpoint(s.client))?)
}

fn not_set() -> ApiError {
    ApiError::NotFound("Authorization endpoint")
}

pub fn find(s: &mut Scope) -> Result<Endpoint> {
    get(s)?.ok_or_else(not_set)
}

fn save(s: &mut Scope, endpoint: &Endpoint) -> Result<()> {
    Ok(codec::put(
        s.tx,
        &keys::authorization_endpoint(s.client),
        endpoint,
    )?)
}

/// Sets the endpoint (replacing its settings if one is set), and the secret it signs with, which
/// is returned (in clear, once) only when the endpoint is first set: `secret` makes one.
pub fn put(
    s: &mut Scope,
    vault: &Vault,
    settings: Settings,
    secret: impl FnOnce() -> String,
) -> Result<(Endpoint, Option<String>)> {
    let (endpoint, shown) = match get(s)? {
        Some(old) => (
            Endpoint {
                url: settings.url,
                timeout_ms: settings.timeout_ms,
                fallback: settings.fallback,
                updated_at: s.now,
                ..old
            },
            None,
        ),
        None => {
            let clear = secret();
            let sealed = vault.seal_text(s.env, &aad(s.client), &clear)?;
            let endpoint = Endpoint {
                url: settings.url,
                timeout_ms: settings.timeout_ms,
                fallback: settings.fallback,
                secret: sealed,
                previous: None,
                created_at: s.now,
                updated_at: s.now,
            };
            (endpoint, Some(clear))
        }
    };
    save(s, &endpoint)?;
    Ok((endpoint, shown))
}

/// A new secret (returned in clear); the current one keeps signing beside it for a day.
pub fn rotate(s: &mut Scope, vault: &Vault, secret: String) -> Result<(Endpoint, String)> {
    let mut endpoint = find(s)?;
    let sealed = vault.seal_text(s.env, &aad(s.client), &secret)?;
    let old = std::mem::replace(&mut endpoint.secret, sealed);
    endpoint.previous = Some(Previous {
        secret: old,
        until: s.now.plus_seconds(PREVIOUS_SECRET_SECS),
    });
    endpoint.updated_at = s.now;
    save(s, &endpoint)?;
    Ok((endpoint, secret))
}

pub fn delete(s: &mut Scope) -> Result<Endpoint> {
    let endpoint = find(s)?;
    s.tx.delete(&keys::authorization_endpoint(s.client))?;
    Ok(endpoint)
}

/// The secrets a request is signed with now, in clear: the current one, and the one before it
/// while it still signs.
pub fn signing_secrets(s: &Scope, vault: &Vault, endpoint: &Endpoint) -> Result<Vec<String>> {
    let aad = aad(s.client);
    let mut secrets = vec![vault.open_text(&aad, &endpoint.secret)?];
    if let Some(previous) = &endpoint.previous
        && previous.until > s.now
    {
        secrets.push(vault.open_text(&aad, &previous.secret)?);
    }
    Ok(secrets)
}

/// Every client's decision endpoint with its key, a page at a time.
fn for_each_endpoint(
    tx: &mut dyn Tx,
    mut each: impl FnMut(&mut dyn Tx, &[u8], &str, Endpoint) -> Result<()>,
) -> Result<()> {
    crate::storage::for_each_page(tx, &keys::authorization_endpoints(), 256, |tx, page| {
        for (key, value) in &page {
            let client = keys::text_parts(key)
                .get(1)
                .and_then(|c| std::str::from_utf8(c).ok())
                .unwrap_or_default()
                .to_string();
            each(tx, key, &client, codec::decode(value)?)?;
        }
        Ok(())
    })
}

/// Re-seals under the vault's active key every decision endpoint secret (current and previous)
/// that another key sealed: the last step of a vault rotation. Returns how many it re-sealed.
pub fn reseal_all(tx: &mut dyn Tx, env: &dyn Env, vault: &Vault) -> Result<u64> {
    let mut resealed = 0;
    for_each_endpoint(tx, |tx, key, client, mut e| {
        let context = aad(client);
        let mut changed = 0;
        if let Some(new) = vault.reseal_secret(env, &context, &e.secret)? {
            e.secret = new;
            changed += 1;
        }
        if let Some(previous) = &mut e.previous
            && let Some(new) = vault.reseal_secret(env, &context, &previous.secret)?
        {
            previous.secret = new;
            changed += 1;
        }
        if changed > 0 {
            codec::put(tx, key, &e)?;
            resealed += changed;
        }
        Ok(())
    })?;
    Ok(resealed)
}

/// Adds to `counts` how many decision endpoint secrets each vault key sealed.
pub fn count_secrets(tx: &mut dyn Tx, counts: &mut BTreeMap<String, u64>) -> Result<()> {
    for_each_endpoint(tx, |_, _, _, e| {
        let previous = e.previous.as_ref().map(|p| &p.secret);
        for sealed in std::iter::once(&e.secret).chain(previous) {
            *counts.entry(sealed.key_id().to_string()).or_insert(0) += 1;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::IdGen;
    use crate::env::{DeterministicEnv, Env};
    use crate::storage::MemStore;

    #[test]
    fn the_secret_is_sealed_shown_once_and_rotates_with_a_day_of_overlap() {
        let env = DeterministicEnv::default();
        let ids = IdGen::new(&env);
        let mut store = MemStore::new();
        let vault = Vault::new(&[7u8; 32]);
        let settings = Settings {
            url: "http://127.0.0.1:9/decide".into(),
            timeout_ms: 2000,
            fallback: Fallback::Decline,
        };
        let mut s = Scope {
            tx: &mut store,
            client: "acme",
            now: env.now(),
            ids: &ids,
            env: &env,
        };
        let (_, shown) = put(&mut s, &vault, settings.clone(), || "whsec_first".into()).unwrap();
        assert_eq!(shown.as_deref(), Some("whsec_first"));
        let (again, shown) = put(&mut s, &vault, settings, || "whsec_never".into()).unwrap();
        assert_eq!(shown, None);
        assert_eq!(
            signing_secrets(&s, &vault, &again).unwrap(),
            vec!["whsec_first".to_string()]
        );
        // Never stored in clear.
        let raw =
            s.tx.get(&keys::authorization_endpoint("acme"))
                .unwrap()
                .unwrap();
        assert!(!raw.windows(5).any(|w| w == b"first"));
        // Another client's key does not open it.
        let mut moved = again.clone();
        moved.previous = None;
        let other = Scope {
            client: "other",
            ..s
        };
        assert!(signing_secrets(&other, &vault, &moved).is_err());
        let mut s = Scope {
            client: "acme",
            ..other
        };
        let (rotated, secret) = rotate(&mut s, &vault, "whsec_second".into()).unwrap();
        assert_eq!(secret, "whsec_second");
        assert_eq!(
            signing_secrets(&s, &vault, &rotated).unwrap(),
            vec!["whsec_second".to_string(), "whsec_first".to_string()]
        );
        s.now = s.now.plus_seconds(PREVIOUS_SECRET_SECS);
        assert_eq!(
            signing_secrets(&s, &vault, &rotated).unwrap(),
            vec!["whsec_second".to_string()]
        );
        delete(&mut s).unwrap();
        assert!(get(&mut s).unwrap().is_none());
        assert!(matches!(delete(&mut s), Err(ApiError::NotFound(_))));
    }
}
