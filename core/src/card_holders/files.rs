//! Identity documents: recognised by their magic bytes, hashed, and stored through the store port in
//! fixed-size chunks so no value grows past what every backend handles well.
//!
//! Keys: `file 0 client 0 fileId` holds the metadata record; `file 0 client 0 fileId 0 <8 hex digits>`
//! hold the chunks in order (fixed-width hex sorts like the index).

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::input::Upload;
use crate::error::{ApiError, ApiResult};
use crate::keys;
use crate::records;
use crate::store::{Tx, scan_prefix};

pub const MAX_FILE_BYTES: usize = 5 * 1024 * 1024;
pub const CHUNK_BYTES: usize = 256 * 1024;

/// The MIME type of JPEG, PNG and PDF content, by magic bytes; None for anything else.
pub fn sniff(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else if bytes.starts_with(&[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A]) {
        Some("image/png")
    } else if bytes.starts_with(b"%PDF-") {
        Some("application/pdf")
    } else {
        None
    }
}

/// `sha256:<lowercase hex>`.
pub fn content_hash(bytes: &[u8]) -> String {
    format!("sha256:{}", hex::encode(Sha256::digest(bytes)))
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredFile {
    #[serde(rename = "_id")]
    pub id: String,
    pub holder_id: String,
    /// The form part it came from (`documentMain`, `documentBack`, `proofOfAddress`).
    pub part: String,
    pub content_type: String,
    pub size: u64,
    pub content_hash: String,
    pub chunks: u32,
    pub created_at: String,
}

fn meta_key(client: &str, file_id: &str) -> Vec<u8> {
    keys::key(keys::FILE, &[client, file_id])
}

fn chunk_key(client: &str, file_id: &str, index: u32) -> Vec<u8> {
    keys::key(keys::FILE, &[client, file_id, &format!("{index:08x}")])
}

pub fn store(
    tx: &mut dyn Tx,
    client: &str,
    holder_id: &str,
    file_id: &str,
    upload: &Upload,
    now: &str,
) -> ApiResult<StoredFile> {
    let mut chunks = 0u32;
    for (i, chunk) in upload.bytes.chunks(CHUNK_BYTES).enumerate() {
        let index = u32::try_from(i).map_err(|_| ApiError::Internal)?;
        tx.put(&chunk_key(client, file_id, index), chunk)?;
        chunks = index + 1;
    }
    let stored = StoredFile {
        id: file_id.to_string(),
        holder_id: holder_id.to_string(),
        part: upload.part.as_str().to_string(),
        content_type: upload.content_type.to_string(),
        size: upload.bytes.len() as u64,
        content_hash: content_hash(&upload.bytes),
        chunks,
        created_at: now.to_string(),
    };
    records::put(tx, &meta_key(client, file_id), &stored)?;
    Ok(stored)
}

pub fn load(tx: &mut dyn Tx, client: &str, file_id: &str) -> ApiResult<Option<StoredFile>> {
    records::get(tx, &meta_key(client, file_id))
}

/// The file's bytes, reassembled; a missing or extra chunk is an internal error, never short data.
pub fn read(tx: &mut dyn Tx, client: &str, file: &StoredFile) -> ApiResult<Vec<u8>> {
    let chunks = scan_prefix(tx, &keys::prefix(keys::FILE, &[client, &file.id]))?;
    if chunks.len() != file.chunks as usize {
        return Err(ApiError::Internal);
    }
    let mut bytes = Vec::with_capacity(file.size as usize);
    for (_, chunk) in chunks {
        bytes.extend_from_slice(&chunk);
    }
    if bytes.len() as u64 != file.size {
        return Err(ApiError::Internal);
    }
    Ok(bytes)
}
