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

/// Every record under `prefix`, in key order.
pub fn list<T: DeserializeOwned>(tx: &mut dyn Tx, prefix: &[u8]) -> Result<Vec<T>, ApiError> {
    scan_prefix(tx, prefix)?
        .into_iter()
        .map(|(_, v)| serde_json::from_slice(&v).map_err(|_| ApiError::Internal))
        .collect()
}
