//! Webhooks: a client's endpoints and the outbox of deliveries to them (ARCHITECTURE.md, "Webhooks").
//!
//! Every event that matches an enabled endpoint becomes a delivery in the transaction that appends
//! the event ([`deliveries::enqueue`]), so a committed change is delivered at least once and a
//! refused one never is. Pending deliveries sit in one queue ordered by when they are next due
//! (`keys::delivery_due`, host clock); hosts take what is due ([`deliveries::take_due`]), make the
//! HTTP calls outside any transaction and write the results back ([`deliveries::record`]). The core
//! decides what to send, signs it and schedules the retries; it never does I/O.

pub mod deliveries;
pub mod endpoints;

use crate::domain::push::url_policy::{self, Target, UrlPolicy};
use crate::error::ApiError;

/// The URL policy a webhook URL must pass when it is set: a refusal is a 400 naming `field`.
pub fn check_url(policy: UrlPolicy, url: &str, field: &str) -> Result<Target, ApiError> {
    url_policy::check_url(policy, url).map_err(|r| ApiError::field(field, r.0))
}
