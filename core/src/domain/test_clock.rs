//! The test clock: each client's time is the host's clock plus an offset the client moves forward
//! (`POST /test-clock/advance`). Every rule reads time through the request's `Scope::now`, which the
//! pipeline takes from here, so expiry, spending-limit periods, token lifetime, idempotency retention
//! and `createdAt`/`updatedAt` all follow the client's clock. The offset is a record in the store, so
//! it survives restarts and every instance sees it. It only grows, so a client's time never moves
//! back (ARCHITECTURE.md, "Test clock").

use serde::{Deserialize, Serialize};

use super::{Result, Scope};
use crate::env::{Env, Timestamp};
use crate::error::ApiError;
use crate::storage::codec::{self, Record};
use crate::storage::{StoreError, Tx, keys};

/// The most a client's clock may be ahead of the host's: ten years of 365 days.
pub const MAX_OFFSET_SECS: i64 = 10 * 365 * 24 * 3600;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct TestClock {
    offset_secs: i64,
}

impl Record for TestClock {
    const VERSION: u8 = 1;
    const NAME: &'static str = "test clock";
}

/// How far `client`'s clock is ahead of the host's, in seconds (0 for a client that never advanced).
pub fn offset(tx: &mut dyn Tx, client: &str) -> std::result::Result<i64, StoreError> {
    Ok(codec::get::<TestClock>(tx, &keys::test_clock(client))?.map_or(0, |c| c.offset_secs))
}

/// `client`'s time now: the host's clock plus the client's offset.
pub fn now(
    tx: &mut dyn Tx,
    client: &str,
    env: &dyn Env,
) -> std::result::Result<Timestamp, StoreError> {
    Ok(env.now().plus_seconds(offset(tx, client)?))
}

/// A client's clock as the API shows it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Clock {
    pub now: Timestamp,
    pub offset_secs: i64,
}

/// The caller's clock at the request's instant.
pub fn get(s: &mut Scope) -> Result<Clock> {
    Ok(Clock {
        now: s.now,
        offset_secs: offset(s.tx, s.client)?,
    })
}

/// Moves the caller's clock `seconds` (> 0, checked by the parser) forward; more than
/// [`MAX_OFFSET_SECS`] in total is 400. What time changes (expired holds, new limit periods, old
/// tokens) is read at the new time; only the webhook delivery queue, which is on the host's clock,
/// moves the client's pending deliveries sooner (`outbox::advance_clock`, the way a request moves it).
pub(super) fn advance(s: &mut Scope, seconds: i64) -> Result<Clock> {
    let before = offset(s.tx, s.client)?;
    let offset_secs = before
        .checked_add(seconds)
        .filter(|o| *o <= MAX_OFFSET_SECS)
        .ok_or_else(|| {
            ApiError::field(
                "seconds",
                format!(
                    "the clock may be at most {MAX_OFFSET_SECS} seconds (10 years) ahead; it is {before} ahead"
                ),
            )
        })?;
    codec::put(
        s.tx,
        &keys::test_clock(s.client),
        &TestClock { offset_secs },
    )?;
    Ok(Clock {
        now: s.now.plus_seconds(seconds),
        offset_secs,
    })
}
