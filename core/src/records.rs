//! Typed records in the key-value store, encoded as JSON.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::ApiError;
use crate::store::{Tx, scan_prefix};

pub fn get<T: DeserializeOwned>(tx: &mut dyn Tx, key: &[u8]) -> Result<Option<T>, ApiError> {
    match tx.get(key)? {
        Some(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|_| ApiError::Internal),
        None => Ok(None),
    }
}

pub fn put<T: Serialize>(tx: &mut dyn Tx, key: &[u8], value: &T) -> Result<(), ApiError> {
    let bytes = serde_json::to_vec(value).map_err(|_| ApiError::Internal)?;
    tx.put(key, &bytes)?;
    Ok(())
}

/// One of `client`'s records of kind `tag`, by its id path (`ids`, e.g. `[account, detail]`). An id that
/// cannot be one, another client's record and an unknown id all answer the same 404 for `what`.
pub fn find<T: DeserializeOwned>(
    tx: &mut dyn Tx,
    tag: &str,
    client: &str,
    ids: &[&str],
    what: &'static str,
) -> Result<T, ApiError> {
    if !ids.iter().all(|id| crate::id::is_valid(id)) {
        return Err(ApiError::NotFound(what));
    }
    let mut parts = Vec::with_capacity(ids.len() + 1);
    parts.push(client);
    parts.extend_from_slice(ids);
    get(tx, &crate::keys::key(tag, &parts))?.ok_or(ApiError::NotFound(what))
}

/// Every record under `prefix`, in key order.
pub fn list<T: DeserializeOwned>(tx: &mut dyn Tx, prefix: &[u8]) -> Result<Vec<T>, ApiError> {
    scan_prefix(tx, prefix)?
        .into_iter()
        .map(|(_, v)| serde_json::from_slice(&v).map_err(|_| ApiError::Internal))
        .collect()
}
