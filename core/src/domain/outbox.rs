//! The outbox: what reaches the webhook delivery queue in the transaction of the change. A change's
//! event is appended through [`publish`], which queues a delivery per matching endpoint; the test
//! clock moves through [`advance_clock`], which moves the client's pending deliveries with it; an
//! endpoint is deleted through [`delete_endpoint`], which drops its deliveries first. This sits
//! above `events`, `test_clock` and `webhooks`, so the event log, the clock and the endpoints,
//! which the deliveries read, need nothing of them.

use super::events::{self, Event, EventType};
use super::test_clock::{self, Clock};
use super::webhooks::deliveries;
use super::webhooks::endpoints::{self, Endpoint};
use super::{Result, Scope};
use crate::storage::codec::JsonText;

/// Appends an event of `kind` about `object` (the resource's read form) and queues its deliveries.
pub fn publish(s: &mut Scope, kind: EventType, object: JsonText) -> Result<Event> {
    let event = events::append(s, kind, object)?;
    deliveries::enqueue(s, &event)?;
    Ok(event)
}

/// Moves the caller's clock `seconds` forward (see [`test_clock::advance`]) and the client's pending
/// deliveries, which are on the host's clock, sooner by as much.
pub fn advance_clock(s: &mut Scope, seconds: i64) -> Result<Clock> {
    let clock = test_clock::advance(s, seconds)?;
    deliveries::clock_advanced(s, seconds)?;
    Ok(clock)
}

/// Deletes one of the caller's webhook endpoints and its deliveries (pending ones are never
/// attempted).
pub fn delete_endpoint(s: &mut Scope, id: &str) -> Result<Endpoint> {
    let e = endpoints::get(s, id)?;
    deliveries::drop_all(s, &e.id)?;
    endpoints::remove(s, &e)?;
    Ok(e)
}
