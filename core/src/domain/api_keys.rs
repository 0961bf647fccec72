//! API keys, each owned by one client, stored only as SHA-256 hashes. How a request presents its key
//! is the http layer's business (`http::auth`).

use std::collections::HashMap;

use sha2::{Digest, Sha256};

use crate::env::Env;
use crate::storage::{Direction, StoreError, Tx, keys, prefix_end};

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

/// The client a presented key belongs to: configured keys first, then stored ones.
pub fn client_of(
    key: &str,
    configured: &ConfiguredKeys,
    tx: &mut dyn Tx,
) -> Result<Option<String>, StoreError> {
    let hash = hash_key(key);
    if let Some(client) = configured.0.get(&hash) {
        return Ok(Some(client.clone()));
    }
    match tx.get(&keys::api_key(&hash))? {
        Some(client) => String::from_utf8(client)
            .map(Some)
            .map_err(|_| StoreError("a stored API key names a client that is not UTF-8".into())),
        None => Ok(None),
    }
}

/// Creates a key for `client`, stores its hash and returns the key, which is never stored in clear.
pub fn create_key(tx: &mut dyn Tx, env: &dyn Env, client: &str) -> Result<String, String> {
    if !is_valid_client(client) {
        return Err(format!(
            "invalid client name {client:?}: use 1 to 64 of A-Z a-z 0-9 _ . -"
        ));
    }
    let mut secret = [0u8; 24];
    env.fill_random(&mut secret);
    let key = format!("ck_{}", hex::encode(secret));
    tx.put(&keys::api_key(&hash_key(&key)), client.as_bytes())
        .map_err(|e| e.to_string())?;
    Ok(key)
}

/// Removes a stored key; true if it existed.
pub fn revoke_key(tx: &mut dyn Tx, key: &str) -> Result<bool, StoreError> {
    let k = keys::api_key(&hash_key(key));
    let existed = tx.get(&k)?.is_some();
    tx.delete(&k)?;
    Ok(existed)
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
    use crate::env::DeterministicEnv;
    use crate::storage::MemStore;

    #[test]
    fn stored_keys_are_hashed_and_revocable() {
        let env = DeterministicEnv::default();
        let mut store = MemStore::new();
        assert!(!has_stored_keys(&mut store).unwrap());
        let key = create_key(&mut store, &env, "acme").unwrap();
        assert!(has_stored_keys(&mut store).unwrap());
        // Only the hash is stored.
        assert!(
            store
                .iter()
                .all(|(k, v)| !k.windows(key.len()).any(|w| w == key.as_bytes())
                    && v.as_slice() == b"acme")
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
