//! API keys, each owned by one client, stored only as SHA-256 hashes. How a request presents its key
//! is the http layer's business (`http::auth`).

use std::collections::HashMap;

use sha2::{Digest, Sha256};

use serde::{Deserialize, Serialize};

use super::permissions::Permissions;
use crate::env::{Env, Timestamp};
use crate::storage::codec::{self, Record};
use crate::storage::{Direction, StoreError, Tx, for_each_page, keys, prefix_end};

pub fn hash_key(key: &str) -> String {
    hex::encode(Sha256::digest(key.as_bytes()))
}

/// Client names: 1 to 64 of `A-Z a-z 0-9 _ . -`.
pub fn is_valid_client(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// Keys given by configuration (development), kept hashed in memory only.
#[derive(Debug, Default, Clone)]
pub struct ConfiguredKeys(HashMap<String, String>);

impl ConfiguredKeys {
    /// Parses `KEY=CLIENT` pairs separated by commas.
    pub fn parse_list(list: &str) -> Result<ConfiguredKeys, String> {
        let mut keys = ConfiguredKeys::default();
        for pair in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            keys.add_pair(pair)?;
        }
        Ok(keys)
    }

    /// Adds one `KEY=CLIENT` pair.
    pub fn add_pair(&mut self, pair: &str) -> Result<(), String> {
        let (key, client) = pair
            .split_once('=')
            .ok_or_else(|| "an API key must be given as KEY=CLIENT".to_string())?;
        self.add(key.trim(), client.trim())
    }

    pub fn add(&mut self, key: &str, client: &str) -> Result<(), String> {
        if key.len() < 16 {
            return Err("an API key must be at least 16 characters".into());
        }
        if !is_valid_client(client) {
            return Err(format!(
                "invalid client name {client:?}: use 1 to 64 of A-Z a-z 0-9 _ . -"
            ));
        }
        self.0.insert(hash_key(key), client.to_string());
        Ok(())
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A key as the service knows it: its public id (never the key), its client and its grants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyInfo {
    /// The first 24 hex characters of the key's SHA-256: names the key in audit records and in
    /// `/api-keys` without revealing it.
    pub id: String,
    pub client: String,
    pub permissions: Permissions,
    /// None for configured keys and keys stored before permissions existed.
    pub created_at: Option<Timestamp>,
    /// True for keys given by configuration (not stored, so not revocable over the API).
    pub configured: bool,
}

/// A stored key's record. Keys stored before it held their client's name alone (plain text, whose
/// first byte is never this record's version byte); those read as full access.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct StoredKey {
    client: String,
    permissions: Permissions,
    created_at: Timestamp,
}

impl Record for StoredKey {
    const VERSION: u8 = 1;
    const NAME: &'static str = "API key";
}

/// The public id of a key, from its hash.
pub fn key_id(hash: &str) -> String {
    hash[..24.min(hash.len())].to_string()
}

fn decode_stored(hash: &str, value: &[u8]) -> Result<KeyInfo, StoreError> {
    let id = key_id(hash);
    if value.first() == Some(&StoredKey::VERSION) {
        let k: StoredKey = codec::decode(value)?;
        return Ok(KeyInfo {
            id,
            client: k.client,
            permissions: k.permissions,
            created_at: Some(k.created_at),
            configured: false,
        });
    }
    let client = String::from_utf8(value.to_vec())
        .map_err(|_| StoreError("a stored API key names a client that is not UTF-8".into()))?;
    Ok(KeyInfo {
        id,
        client,
        permissions: Permissions::full(),
        created_at: None,
        configured: false,
    })
}

/// The key a request presents: configured keys first, then stored ones.
pub fn lookup(
    key: &str,
    configured: &ConfiguredKeys,
    tx: &mut dyn Tx,
) -> Result<Option<KeyInfo>, StoreError> {
    let hash = hash_key(key);
    if let Some(client) = configured.0.get(&hash) {
        return Ok(Some(KeyInfo {
            id: key_id(&hash),
            client: client.clone(),
            permissions: Permissions::full(),
            created_at: None,
            configured: true,
        }));
    }
    match tx.get(&keys::api_key(&hash))? {
        Some(value) => decode_stored(&hash, &value).map(Some),
        None => Ok(None),
    }
}

/// The client a presented key belongs to: configured keys first, then stored ones.
pub fn client_of(
    key: &str,
    configured: &ConfiguredKeys,
    tx: &mut dyn Tx,
) -> Result<Option<String>, StoreError> {
    Ok(lookup(key, configured, tx)?.map(|k| k.client))
}

/// Creates a key for `client` with `permissions`, stores its hash and returns the key (never
/// stored in clear) with what the service knows of it.
pub fn create_key(
    tx: &mut dyn Tx,
    env: &dyn Env,
    client: &str,
    permissions: Permissions,
    now: Timestamp,
) -> Result<(String, KeyInfo), String> {
    if !is_valid_client(client) {
        return Err(format!(
            "invalid client name {client:?}: use 1 to 64 of A-Z a-z 0-9 _ . -"
        ));
    }
    let mut secret = [0u8; 24];
    env.fill_random(&mut secret);
    let key = format!("ck_{}", hex::encode(secret));
    let hash = hash_key(&key);
    let record = StoredKey {
        client: client.to_string(),
        permissions,
        created_at: now,
    };
    codec::put(tx, &keys::api_key(&hash), &record).map_err(|e| e.to_string())?;
    let info = decode_stored(&hash, &codec::encode(&record).map_err(|e| e.to_string())?)
        .map_err(|e| e.to_string())?;
    Ok((key, info))
}

/// Removes a stored key; true if it existed.
pub fn revoke_key(tx: &mut dyn Tx, key: &str) -> Result<bool, StoreError> {
    let k = keys::api_key(&hash_key(key));
    let existed = tx.get(&k)?.is_some();
    tx.delete(&k)?;
    Ok(existed)
}

/// The stored keys (of `client`, or of every client), by id. Keys are few (an operator makes
/// them), so this scans them all.
pub fn list(tx: &mut dyn Tx, client: Option<&str>) -> Result<Vec<KeyInfo>, StoreError> {
    let start = keys::api_keys();
    let mut out = Vec::new();
    for_each_page(tx, &start, 256, |_, page| {
        for (k, v) in page {
            let hash = String::from_utf8_lossy(&k[start.len()..]).into_owned();
            let info = decode_stored(&hash, &v)?;
            if client.is_none_or(|c| c == info.client) {
                out.push(info);
            }
        }
        Ok::<_, StoreError>(())
    })?;
    out.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(out)
}

/// Removes `client`'s stored key with public id `id`; returns it, or None if there is none.
pub fn revoke_by_id(
    tx: &mut dyn Tx,
    client: Option<&str>,
    id: &str,
) -> Result<Option<KeyInfo>, StoreError> {
    let start = keys::api_keys();
    let Some(found) = list(tx, client)?.into_iter().find(|k| k.id == id) else {
        return Ok(None);
    };
    // The id is a prefix of the hash; the key is the one whose hash starts with it.
    let mut prefix = start.clone();
    prefix.extend_from_slice(id.as_bytes());
    let end = prefix_end(&start);
    for (k, _) in tx.scan(&prefix, &end, Direction::Forward, 1)? {
        if k.starts_with(&prefix) {
            tx.delete(&k)?;
        }
    }
    Ok(Some(found))
}

/// True when at least one key is stored.
pub fn has_stored_keys(tx: &mut dyn Tx) -> Result<bool, StoreError> {
    let start = keys::api_keys();
    let end = prefix_end(&start);
    Ok(!tx.scan(&start, &end, Direction::Forward, 1)?.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::{DeterministicEnv, Env};
    use crate::storage::MemStore;

    #[test]
    fn stored_keys_are_hashed_and_revocable() {
        let env = DeterministicEnv::default();
        let mut store = MemStore::new();
        assert!(!has_stored_keys(&mut store).unwrap());
        let (key, info) = create_key(
            &mut store,
            &env,
            "acme",
            Permissions::default_new(),
            env.now(),
        )
        .unwrap();
        assert!(has_stored_keys(&mut store).unwrap());
        // Only the hash is stored.
        assert!(store.iter().all(|(k, v)| {
            !k.windows(key.len()).any(|w| w == key.as_bytes())
                && !v.windows(key.len()).any(|w| w == key.as_bytes())
        }));
        assert_eq!(info.id, key_id(&hash_key(&key)));
        let listed = list(&mut store, Some("acme")).unwrap();
        assert_eq!(listed, vec![info.clone()]);
        assert!(list(&mut store, Some("other")).unwrap().is_empty());
        assert_eq!(
            lookup(&key, &ConfiguredKeys::default(), &mut store).unwrap(),
            Some(info)
        );
        let none = ConfiguredKeys::default();
        assert_eq!(
            client_of(&key, &none, &mut store).unwrap().as_deref(),
            Some("acme")
        );
        assert_eq!(client_of("nope", &none, &mut store).unwrap(), None);
        assert!(revoke_key(&mut store, &key).unwrap());
        assert_eq!(client_of(&key, &none, &mut store).unwrap(), None);
    }

    #[test]
    fn keys_stored_before_permissions_keep_full_access() {
        let mut store = MemStore::new();
        let key = "ck_0123456789abcdef0123456789abcdef";
        store.put(&keys::api_key(&hash_key(key)), b"acme").unwrap();
        let info = lookup(key, &ConfiguredKeys::default(), &mut store)
            .unwrap()
            .unwrap();
        assert_eq!(info.client, "acme");
        assert_eq!(info.permissions, Permissions::full());
        assert_eq!(info.created_at, None);
        let id = info.id.clone();
        assert_eq!(revoke_by_id(&mut store, Some("other"), &id).unwrap(), None);
        assert_eq!(
            revoke_by_id(&mut store, Some("acme"), &id).unwrap(),
            Some(info)
        );
        assert!(!has_stored_keys(&mut store).unwrap());
    }

    #[test]
    fn configured_keys_parse() {
        let keys = ConfiguredKeys::parse_list("dev-key-0123456789=alice, other-key-0123456789=bob")
            .unwrap();
        let mut store = MemStore::new();
        assert_eq!(
            client_of("other-key-0123456789", &keys, &mut store)
                .unwrap()
                .as_deref(),
            Some("bob")
        );
        assert!(ConfiguredKeys::parse_list("short=alice").is_err());
        assert!(ConfiguredKeys::parse_list("dev-key-0123456789=bad client").is_err());
    }
}
