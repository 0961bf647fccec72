//! `Idempotency-Key` on POST routes (README "Idempotency"): the first outcome for (client, key) is kept
//! for 24 hours and replayed for the same request; a different request with that key is a conflict.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::env::Timestamp;
use crate::error::{ApiError, ApiResult};
use crate::http::{Request, Response};
use crate::storage::codec::{self, Record};
use crate::storage::{Direction, Tx, keys};

pub const HEADER: &str = "idempotency-key";
const RETENTION_SECS: i64 = 24 * 60 * 60;
/// Expired records removed per write request, so cleanup cost stays flat.
const SWEEP_BATCH: usize = 8;

#[derive(Serialize, Deserialize)]
struct Stored {
    fingerprint: String,
    status: u16,
    content_type: String,
    body: Vec<u8>,
    expires_at: i64,
}

impl Record for Stored {
    const VERSION: u8 = 1;
    const NAME: &'static str = "idempotency record";
}

pub enum Claim {
    /// The same request was answered before: send this again.
    Replay(Response),
    /// First use of the key: record the outcome once known.
    Fresh(Fresh),
}

pub struct Fresh {
    key: Vec<u8>,
    fingerprint: String,
}

fn fingerprint(req: &Request) -> String {
    let mut h = Sha256::new();
    h.update(req.method.as_str().as_bytes());
    h.update([0]);
    h.update(req.path.as_bytes());
    h.update([0]);
    h.update(&req.body);
    hex::encode(h.finalize())
}

impl Claim {
    pub fn check(
        req: &Request,
        client: &str,
        now: Timestamp,
        tx: &mut dyn Tx,
    ) -> ApiResult<Option<Claim>> {
        let Some(key) = req.header_value(HEADER) else {
            return Ok(None);
        };
        if key.is_empty() || key.len() > 255 || !key.bytes().all(|b| (0x20..0x7f).contains(&b)) {
            return Err(ApiError::field(
                "Idempotency-Key",
                "must be 1 to 255 printable ASCII characters",
            ));
        }
        let record_key = keys::idempotency(client, key);
        let fingerprint = fingerprint(req);
        if let Some(stored) = codec::get::<Stored>(tx, &record_key)?
            && stored.expires_at > now.millis()
        {
            if stored.fingerprint != fingerprint {
                return Err(ApiError::IdempotencyConflict);
            }
            let response = Response::bytes(stored.status, &stored.content_type, stored.body)
                .with_header("idempotent-replayed", "true");
            return Ok(Some(Claim::Replay(response)));
        }
        Ok(Some(Claim::Fresh(Fresh {
            key: record_key,
            fingerprint,
        })))
    }
}

/// Whether the request's `Idempotency-Key` decides its answer whatever the body: a live record
/// (replay or conflict) or a malformed key. Reads only.
pub fn decides(req: &Request, client: &str, now: Timestamp, tx: &mut dyn Tx) -> ApiResult<bool> {
    let Some(key) = req.header_value(HEADER) else {
        return Ok(false);
    };
    if key.is_empty() || key.len() > 255 || !key.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return Ok(true);
    }
    Ok(codec::get::<Stored>(tx, &keys::idempotency(client, key))?
        .is_some_and(|stored| stored.expires_at > now.millis()))
}

/// Outcomes worth replaying: successes and business-rule refusals. A malformed request (400, 413, 415)
/// executed nothing, so the caller may fix it and retry with the same key; 5xx may be retried too.
fn is_kept(status: u16) -> bool {
    (200..300).contains(&status) || matches!(status, 403 | 404 | 409 | 422)
}

impl Fresh {
    /// Keeps the outcome for [`RETENTION_SECS`] of the client's clock (`now`); its place in the
    /// expiry queue is on the host's clock (`host_now`), see [`sweep`].
    pub fn record(
        self,
        response: &Response,
        now: Timestamp,
        host_now: Timestamp,
        tx: &mut dyn Tx,
    ) -> ApiResult<()> {
        if !is_kept(response.status) {
            return Ok(());
        }
        let expires_at = now.plus_seconds(RETENTION_SECS).millis();
        let queued_at = host_now.plus_seconds(RETENTION_SECS).millis();
        let stored = Stored {
            fingerprint: self.fingerprint,
            status: response.status,
            content_type: response
                .header_value("content-type")
                .unwrap_or("application/json")
                .to_string(),
            body: response
                .replay_body
                .clone()
                .unwrap_or_else(|| response.body.clone()),
            expires_at,
        };
        codec::put(tx, &self.key, &stored)?;
        tx.put(&keys::idempotency_expiry(queued_at, &self.key), &self.key)?;
        Ok(())
    }
}

/// Deletes a few records whose time is up, oldest first. Every write request runs it (with or
/// without a key), so expired records go away at the pace of the writes, a few at a time.
///
/// It reads the queue up to the start of the current second, not the millisecond: the writes of one
/// second then read the same range, and a store may answer a read it already made in the same
/// transaction from memory (the PostgreSQL host does, for the requests of one group-commit batch).
///
/// A record's `expires_at` is on its client's clock (the test clock), its queue entry on the host's
/// (`host_now`), which is never ahead of a client's: the queue entry comes due at or after the record
/// expired for its client. The record is compared with its client's clock, so a newer record under
/// the same key (a later expiry on that clock) is never deleted.
pub fn sweep(tx: &mut dyn Tx, host_now: Timestamp) -> ApiResult<()> {
    let (start, end) = keys::idempotency_expired(host_now.millis().div_euclid(1000) * 1000);
    for (queue_key, record_key) in tx.scan(&start, &end, Direction::Forward, SWEEP_BATCH)? {
        let offset = match keys::idempotency_client(&record_key) {
            Some(client) => crate::domain::test_clock::offset(tx, client)?,
            None => 0,
        };
        let now = host_now.plus_seconds(offset);
        if let Some(stored) = codec::get::<Stored>(tx, &record_key)?
            && stored.expires_at <= now.millis()
        {
            tx.delete(&record_key)?;
        }
        tx.delete(&queue_key)?;
    }
    Ok(())
}
