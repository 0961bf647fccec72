//! Identity documents: recognised by their magic bytes, hashed, and stored through the storage port
//! in fixed-size chunks so no value grows past what every backend handles well. The metadata is a
//! record of kind `File`; the chunks live under `keys::file_chunks`.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::super::{Result, Scope};
use crate::env::Timestamp;
use crate::error::ApiError;
use crate::storage::codec::{self, Record};
use crate::storage::keys::{self, Kind};
use crate::storage::scan_prefix;

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

/// The file parts, in the order they are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UploadPart {
    DocumentMain,
    DocumentBack,
    ProofOfAddress,
}

impl UploadPart {
    pub fn parse(name: &str) -> Option<UploadPart> {
        match name {
            "documentMain" | "document_main" => Some(UploadPart::DocumentMain),
            "documentBack" | "document_back" => Some(UploadPart::DocumentBack),
            "proofOfAddress" | "proof_of_address" => Some(UploadPart::ProofOfAddress),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            UploadPart::DocumentMain => "documentMain",
            UploadPart::DocumentBack => "documentBack",
            UploadPart::ProofOfAddress => "proofOfAddress",
        }
    }
}

/// An uploaded file that passed the size and type checks.
#[derive(Debug, Clone)]
pub struct Upload {
    pub part: UploadPart,
    pub content_type: &'static str,
    pub bytes: Vec<u8>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredFile {
    pub id: String,
    pub holder_id: String,
    /// The form part it came from (`documentMain`, `documentBack`, `proofOfAddress`).
    pub part: String,
    pub content_type: String,
    pub size: u64,
    pub content_hash: String,
    pub chunks: u32,
    pub created_at: Timestamp,
}

impl Record for StoredFile {
    const VERSION: u8 = 1;
    const NAME: &'static str = "file";
}

/// The bytes of files the client stores.
pub fn usage(s: &mut Scope) -> Result<u64> {
    match s.tx.get(&keys::file_usage(s.client))? {
        None => Ok(0),
        Some(raw) => <[u8; 8]>::try_from(raw.as_slice())
            .map(u64::from_be_bytes)
            .map_err(|_| ApiError::internal("the file usage counter is corrupt")),
    }
}

/// Counts `adding` more bytes against the client's `quota`, in the transaction that stores them;
/// past the quota nothing is counted and the request is refused with 413 `quota_exceeded`.
pub fn reserve(s: &mut Scope, adding: u64, quota: u64) -> Result<()> {
    let used = usage(s)?;
    let total = used.saturating_add(adding);
    if total > quota {
        return Err(ApiError::QuotaExceeded {
            used,
            adding,
            quota,
        });
    }
    s.tx.put(&keys::file_usage(s.client), &total.to_be_bytes())?;
    Ok(())
}

/// Stores an upload for `holder_id` under a new file id.
pub fn store(s: &mut Scope, holder_id: &str, upload: &Upload) -> Result<StoredFile> {
    let file_id = s.new_id();
    let mut chunks = 0u32;
    for (i, chunk) in upload.bytes.chunks(CHUNK_BYTES).enumerate() {
        let index = u32::try_from(i).map_err(|_| ApiError::internal("file has too many chunks"))?;
        s.tx.put(&keys::file_chunk(s.client, &file_id, index), chunk)?;
        chunks = index + 1;
    }
    let stored = StoredFile {
        id: file_id,
        holder_id: holder_id.to_string(),
        part: upload.part.as_str().to_string(),
        content_type: upload.content_type.to_string(),
        size: upload.bytes.len() as u64,
        content_hash: content_hash(&upload.bytes),
        chunks,
        created_at: s.now,
    };
    codec::put(
        s.tx,
        &keys::record(s.client, Kind::File, &stored.id),
        &stored,
    )?;
    Ok(stored)
}

pub fn load(s: &mut Scope, file_id: &str) -> Result<Option<StoredFile>> {
    Ok(codec::get(
        s.tx,
        &keys::record(s.client, Kind::File, file_id),
    )?)
}

/// The file's bytes, reassembled; a missing or extra chunk is an internal error, never short data.
pub fn read(s: &mut Scope, file: &StoredFile) -> Result<Vec<u8>> {
    let chunks = scan_prefix(s.tx, &keys::file_chunks(s.client, &file.id))?;
    if chunks.len() != file.chunks as usize {
        return Err(ApiError::internal(format!(
            "file {} has {} chunks, its record says {}",
            file.id,
            chunks.len(),
            file.chunks
        )));
    }
    let mut bytes = Vec::with_capacity(file.size as usize);
    for (_, chunk) in chunks {
        bytes.extend_from_slice(&chunk);
    }
    if bytes.len() as u64 != file.size {
        return Err(ApiError::internal(format!("file {} is short", file.id)));
    }
    Ok(bytes)
}
