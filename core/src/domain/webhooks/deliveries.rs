//! Webhook deliveries: the outbox. A delivery is one event for one endpoint, with its attempts. A
//! pending delivery has one entry in the delivery queue (`keys::delivery_due`, host clock), which
//! hosts walk to find what is due; a delivery taken for an attempt has its entry moved
//! [`LEASE_SECS`] ahead in the same write, so with several instances on one database one instance
//! attempts it at a time, and a delivery whose attempt never reported (a crash) comes due again.
//!
//! A lease moves only the queue entry, not the delivery record (two small keys, not a record
//! rewrite, on every attempt): the [`Lease`] travels with the attempt ([`Due`], [`Outcome`]) and
//! the outcome's write drops the lease's entry. So while leased, a record's `due_ms` may name the
//! entry the lease replaced; `record` tells the two apart by the lease's `taken_ms`.

use std::collections::HashMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::endpoints::{self, Endpoint, EndpointStatus};
use crate::domain::events::{self, Event};
use crate::domain::push::signature;
use crate::domain::push::url_policy::{Target, UrlPolicy};
use crate::domain::vault::Vault;
use crate::domain::{Result, Scope, test_clock};
use crate::env::{Env, Timestamp};
use crate::error::ApiError;
use crate::macros::{indexed, str_enum};
use crate::storage::codec::Record;
use crate::storage::keys::{self, Kind};
use crate::storage::table::{self, Position};
use crate::storage::{Direction, Tx};

/// How long a delivery taken for an attempt is kept from other takers.
pub const LEASE_SECS: i64 = 30;

/// Attempts kept on a delivery (the oldest are dropped past it).
pub const MAX_ATTEMPTS_KEPT: usize = 50;

/// Events one replay may queue.
pub const MAX_REPLAY: usize = 10_000;

str_enum!(DeliveryStatus {
    Pending = "pending",
    Succeeded = "succeeded",
    Failed = "failed",
});

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Attempt {
    /// The client's clock when the attempt was made.
    pub at: Timestamp,
    /// The HTTP status answered; None when there was no answer.
    pub status: Option<u16>,
    pub duration_ms: u64,
    pub error: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Delivery {
    pub id: String,
    pub endpoint_id: String,
    pub event_id: String,
    pub event_type: String,
    pub status: DeliveryStatus,
    pub attempts: Vec<Attempt>,
    /// Failed attempts since it was last queued: the place in the retry schedule.
    pub failures: u32,
    /// When the next attempt is due, on the client's clock (None unless pending).
    pub next_attempt_at: Option<Timestamp>,
    /// The host-clock time of its delivery queue entry (None unless pending).
    pub due_ms: Option<i64>,
    pub created_at: Timestamp,
}

impl Record for Delivery {
    const VERSION: u8 = 1;
    const NAME: &'static str = "webhook delivery";
}

indexed!(Delivery, Kind::WebhookDelivery, |r| {
    "endpointId" => &r.endpoint_id,
    "status" => r.status.as_str(),
});

/// The retry schedule the Standard Webhooks specification suggests (and Svix uses): the wait after
/// each failed attempt; after the last, the delivery is `failed`.
pub fn default_schedule() -> Vec<Duration> {
    [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600]
        .into_iter()
        .map(Duration::from_secs)
        .collect()
}

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// Puts `d` in the delivery queue at `due_ms` (host clock), moving its entry if it had one.
fn schedule(tx: &mut dyn Tx, client: &str, d: &mut Delivery, due_ms: i64) -> Result<()> {
    unschedule(tx, client, d)?;
    tx.put(&keys::delivery_due(due_ms, client, &d.id), &[])?;
    d.due_ms = Some(due_ms);
    Ok(())
}

fn unschedule(tx: &mut dyn Tx, client: &str, d: &mut Delivery) -> Result<()> {
    if let Some(due) = d.due_ms.take() {
        tx.delete(&keys::delivery_due(due, client, &d.id))?;
    }
    Ok(())
}

/// Queues `event` for every enabled endpoint of the client that takes its type (called by
/// `outbox::publish`, in the transaction of the change).
pub fn enqueue(s: &mut Scope, event: &Event) -> Result<()> {
    let subs = endpoints::subscriptions(s)?;
    for endpoint_id in subs.matching(event.kind.as_str()) {
        queue(s, endpoint_id, event)?;
    }
    Ok(())
}

/// A new pending delivery of `event` to `endpoint_id`, due now.
fn queue(s: &mut Scope, endpoint_id: &str, event: &Event) -> Result<Delivery> {
    let mut d = Delivery {
        id: s.new_id(),
        endpoint_id: endpoint_id.to_string(),
        event_id: event.id.clone(),
        event_type: event.kind.as_str().to_string(),
        status: DeliveryStatus::Pending,
        attempts: Vec::new(),
        failures: 0,
        next_attempt_at: Some(s.now),
        due_ms: None,
        created_at: s.now,
    };
    schedule(s.tx, s.client, &mut d, s.env.now().millis())?;
    table::insert(s.tx, s.client, &d)?;
    Ok(d)
}

pub fn get(s: &mut Scope, id: &str) -> Result<Delivery> {
    crate::domain::find(s, Kind::WebhookDelivery, id, "Webhook delivery")
}

/// Sends a delivery again now, whatever its status; the retry schedule starts over.
pub fn retry(s: &mut Scope, id: &str) -> Result<Delivery> {
    let mut d = get(s, id)?;
    d.status = DeliveryStatus::Pending;
    d.failures = 0;
    d.next_attempt_at = Some(s.now);
    schedule(s.tx, s.client, &mut d, s.env.now().millis())?;
    table::save(s.tx, s.client, &d)?;
    Ok(d)
}

/// Queues every event created in `[from, to)` that the endpoint takes; returns how many. A window
/// of more than [`MAX_REPLAY`] events is refused (400 on `to`) rather than half queued.
pub fn replay(s: &mut Scope, endpoint: &Endpoint, from: Timestamp, to: Timestamp) -> Result<usize> {
    let range = keys::index_range(s.client, Kind::Event, keys::ALL, "");
    let start = keys::index_position(&range, from.millis(), "");
    let end = keys::index_position(&range, to.millis(), "");
    let rows =
        s.tx.scan(&start, &end, Direction::Forward, MAX_REPLAY + 1)?;
    if rows.len() > MAX_REPLAY {
        return Err(ApiError::field(
            "to",
            format!("the window holds more than {MAX_REPLAY} events; replay a shorter one"),
        ));
    }
    let mut queued = 0;
    for (key, _) in rows {
        let Some((_, id)) = keys::index_entry_parts(&range, &key) else {
            continue;
        };
        let id = id.to_string();
        let event: Event = events::get(s, &id)?;
        if endpoint.takes(event.kind.as_str()) {
            queue(s, &endpoint.id, &event)?;
            queued += 1;
        }
    }
    Ok(queued)
}

/// The client's test clock moved `seconds` forward: its pending deliveries come due that much sooner
/// on the host's clock (their `nextAttemptAt`, on the client's clock, stays), so retry times follow
/// the client's clock like every other rule.
pub fn clock_advanced(s: &mut Scope, seconds: i64) -> Result<()> {
    let mut after: Option<Position> = None;
    loop {
        let found = table::positions(
            s.tx,
            s.client,
            Kind::WebhookDelivery,
            ("status", DeliveryStatus::Pending.as_str()),
            Direction::Forward,
            after.as_ref(),
            256,
        )?;
        let Some(last) = found.last().cloned() else {
            return Ok(());
        };
        for p in found {
            let Some(mut d) = table::get::<Delivery>(s.tx, s.client, &p.id)? else {
                continue;
            };
            if let Some(due) = d.due_ms {
                let sooner = due.saturating_sub(seconds.saturating_mul(1000));
                schedule(s.tx, s.client, &mut d, sooner)?;
                table::save(s.tx, s.client, &d)?;
            }
        }
        after = Some(last);
    }
}

/// Deletes every delivery of an endpoint (and their queue entries).
pub fn drop_all(s: &mut Scope, endpoint_id: &str) -> Result<()> {
    loop {
        let found = table::positions(
            s.tx,
            s.client,
            Kind::WebhookDelivery,
            ("endpointId", endpoint_id),
            Direction::Forward,
            None::<&Position>,
            256,
        )?;
        if found.is_empty() {
            return Ok(());
        }
        for p in found {
            if let Some(mut d) = table::get::<Delivery>(s.tx, s.client, &p.id)? {
                unschedule(s.tx, s.client, &mut d)?;
                table::remove(s.tx, s.client, &d)?;
            }
        }
    }
}

/// A delivery taken for an attempt: what the host sends, and where.
#[derive(Debug, Clone)]
pub struct Due {
    pub client: String,
    pub delivery_id: String,
    pub target: Target,
    /// The `webhook-*` headers (the host adds `content-type: application/json`).
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// The queue entry this attempt holds; hand it back in the [`Outcome`].
    pub lease: Lease,
}

/// A delivery's queue entry while an attempt holds it: the entry the take read (due at `taken_ms`)
/// moved to `until_ms`, host clock. Equal times: the entry was not moved (an outcome written in
/// the take itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lease {
    pub taken_ms: i64,
    pub until_ms: i64,
}

impl Due {
    /// How the attempt went, for [`record`]: the HTTP status if an answer came, else why not.
    pub fn outcome(&self, status: Option<u16>, duration_ms: u64, error: Option<String>) -> Outcome {
        Outcome {
            client: self.client.clone(),
            delivery_id: self.delivery_id.clone(),
            status,
            duration_ms,
            error,
            lease: self.lease,
        }
    }
}

/// How an attempt went, as the host saw it.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub client: String,
    pub delivery_id: String,
    /// The HTTP status; None when no answer came (refused, timed out, address not allowed).
    pub status: Option<u16>,
    pub duration_ms: u64,
    pub error: Option<String>,
    /// The lease of the attempt ([`Due::lease`]).
    pub lease: Lease,
}

/// What taking and recording deliveries needs of the configuration.
pub struct Settings<'a> {
    pub vault: Option<Vault>,
    pub policy: UrlPolicy,
    pub schedule: &'a [Duration],
}

/// Takes up to `limit` deliveries due by the host's `env.now()`: each is leased (its queue entry moved
/// [`LEASE_SECS`] ahead) and returned signed, body and headers ready. `body` renders an event as
/// `GET /events/{id}` returns it. A delivery that cannot be sent (its endpoint disabled, its event
/// gone, its URL no longer allowed) is recorded as a failed attempt here instead.
///
/// Only the queue from `from_ms` on is read, and the answer says where the next take may start
/// reading (see [`Taken::floor`]): on a log-structured store the entries of deliveries already
/// taken stay behind as deletions until compacted, and a walk from the start of the queue reads
/// every one of them.
pub fn take_due(
    tx: &mut dyn Tx,
    env: &dyn Env,
    settings: &Settings,
    from_ms: i64,
    limit: usize,
    body: &dyn Fn(&Event) -> Result<Vec<u8>>,
) -> Result<Taken> {
    let host_now = env.now();
    let (_, end) = keys::deliveries_due(host_now.millis());
    let start = keys::deliveries_from(from_ms);
    let rows = tx.scan(&start, &end, Direction::Forward, limit)?;
    // Every entry read is moved or dropped below: nothing stays due before the last one read, or
    // before now when the due part of the queue was read to its end.
    let floor = if rows.len() < limit {
        host_now.millis()
    } else {
        rows.last().and_then(|(k, _)| due_of(k)).unwrap_or(from_ms)
    };
    let mut out = Vec::with_capacity(rows.len());
    let mut endpoints = HashMap::new();
    let until = host_now.plus_seconds(LEASE_SECS).millis();
    // A delivery with two entries (retried or moved by the test clock while leased) goes out once.
    let mut taken = std::collections::HashSet::new();
    for (key, _) in rows {
        let Some((client, id)) = keys::delivery_due_parts(&key) else {
            tx.delete(&key)?;
            continue;
        };
        let (client, id) = (client.to_string(), id.to_string());
        let Some(d) = table::get::<Delivery>(tx, &client, &id)? else {
            tx.delete(&key)?;
            continue;
        };
        if d.status != DeliveryStatus::Pending || !taken.insert((client.clone(), id.clone())) {
            tx.delete(&key)?;
            continue;
        }
        let taken_ms = due_of(&key).unwrap_or(i64::MIN);
        match prepare(tx, env, settings, &mut endpoints, &client, &d, body)? {
            Ok(mut due) => {
                // The lease: only the queue entry moves (the record is rewritten by the outcome).
                tx.delete(&key)?;
                tx.put(&keys::delivery_due(until, &client, &id), &[])?;
                due.lease = Lease {
                    taken_ms,
                    until_ms: until,
                };
                due.client = client;
                out.push(due);
            }
            Err(reason) => {
                let outcome = Outcome {
                    client,
                    delivery_id: id,
                    status: None,
                    duration_ms: 0,
                    error: Some(reason),
                    lease: Lease {
                        taken_ms,
                        until_ms: taken_ms,
                    },
                };
                record(tx, env, settings, &[outcome])?;
            }
        }
    }
    Ok(Taken {
        due: out,
        floor: floor.max(from_ms),
    })
}

/// What a take leased, and where the queue's due part starts after it.
#[derive(Debug, Clone)]
pub struct Taken {
    pub due: Vec<Due>,
    /// No entry due before this (host clock, ms) is left in the queue, unless a later write puts one
    /// there: new deliveries, retries and outcomes are queued at the writer's now or later, only the
    /// test clock (`clock_advanced`) or the host's clock stepping back queue one earlier, so a host
    /// that starts its takes here must still read the whole queue from time to time.
    pub floor: i64,
}

/// The due time (host clock, ms) of a delivery queue key.
fn due_of(key: &[u8]) -> Option<i64> {
    key.get(3..11)
        .and_then(|b| <[u8; 8]>::try_from(b).ok())
        .map(i64::from_be_bytes)
}

/// An endpoint as a take needs it: where to send and the secrets that sign, or why nothing can be
/// sent to it. Read and opened once per take, however many of its deliveries are due.
type Ready = std::result::Result<(Target, Vec<signature::Secret>), String>;

fn ready(
    tx: &mut dyn Tx,
    env: &dyn Env,
    settings: &Settings,
    client: &str,
    endpoint_id: &str,
) -> Result<Ready> {
    let Some(endpoint) = table::get::<Endpoint>(tx, client, endpoint_id)? else {
        return Ok(Err("the endpoint was deleted".into()));
    };
    if endpoint.status != EndpointStatus::Enabled {
        return Ok(Err("the endpoint is disabled".into()));
    }
    let target = match super::check_url(settings.policy, &endpoint.url, "url") {
        Ok(t) => t,
        Err(_) => return Ok(Err("the URL is not allowed by the URL policy".into())),
    };
    let vault = settings.vault.as_ref().ok_or_else(|| {
        ApiError::internal("webhook deliveries need the vault key to open endpoint secrets")
    })?;
    let client_now = test_clock::now(tx, client, env)?;
    let secrets = endpoints::signing_secrets(vault, &endpoint, client_now)?;
    Ok(Ok((target, secrets)))
}

/// The signed request of one delivery, or why it cannot be sent.
fn prepare(
    tx: &mut dyn Tx,
    env: &dyn Env,
    settings: &Settings,
    endpoints: &mut HashMap<(String, String), Ready>,
    client: &str,
    d: &Delivery,
    body: &dyn Fn(&Event) -> Result<Vec<u8>>,
) -> Result<std::result::Result<Due, String>> {
    let cached = (client.to_string(), d.endpoint_id.clone());
    if !endpoints.contains_key(&cached) {
        let r = ready(tx, env, settings, client, &d.endpoint_id)?;
        endpoints.insert(cached.clone(), r);
    }
    let (target, secrets) = match endpoints.get(&cached) {
        Some(Ok(ready)) => ready,
        Some(Err(why)) => return Ok(Err(why.clone())),
        None => {
            return Err(ApiError::internal(
                "an endpoint vanished from the take's cache",
            ));
        }
    };
    let Some(event) = table::get::<Event>(tx, client, &d.event_id)? else {
        return Ok(Err("the event is no longer kept".into()));
    };
    let body = body(&event)?;
    let refs: Vec<&signature::Secret> = secrets.iter().collect();
    // Receivers compare the timestamp with their own clock, so it is the host's, not the client's.
    let headers = signature::headers(&refs, &d.event_id, env.now().seconds(), &body)
        .into_iter()
        .map(|(name, value)| (name.to_string(), value))
        .collect();
    Ok(Ok(Due {
        client: String::new(),
        delivery_id: d.id.clone(),
        target: target.clone(),
        headers,
        body,
        lease: Lease {
            taken_ms: 0,
            until_ms: 0,
        },
    }))
}

/// Writes attempts' outcomes: a 2xx succeeds the delivery; anything else schedules the next retry
/// from `settings.schedule`, or fails the delivery after the last. Each outcome's lease entry is
/// dropped; outcomes of deliveries gone or no longer pending (deleted, or retried meanwhile and
/// already answered) change nothing else.
pub fn record(
    tx: &mut dyn Tx,
    env: &dyn Env,
    settings: &Settings,
    outcomes: &[Outcome],
) -> Result<()> {
    let host_now = env.now();
    // The test clock's offset, read once per client of the batch.
    let mut offsets: HashMap<String, i64> = HashMap::new();
    for o in outcomes {
        tx.delete(&keys::delivery_due(
            o.lease.until_ms,
            &o.client,
            &o.delivery_id,
        ))?;
        let Some(mut d) = table::get::<Delivery>(tx, &o.client, &o.delivery_id)? else {
            continue;
        };
        if d.status != DeliveryStatus::Pending {
            continue;
        }
        if d.due_ms == Some(o.lease.taken_ms) {
            // Its entry is the lease's, dropped above; else it was queued again meanwhile (a
            // retry, a test clock advance) and that entry stays the delivery's.
            d.due_ms = None;
        }
        let offset = match offsets.get(&o.client) {
            Some(offset) => *offset,
            None => {
                let offset = test_clock::offset(tx, &o.client)?;
                offsets.insert(o.client.clone(), offset);
                offset
            }
        };
        let client_now = host_now.plus_seconds(offset);
        d.attempts.push(Attempt {
            at: client_now,
            status: o.status,
            duration_ms: o.duration_ms,
            error: o.error.clone(),
        });
        if d.attempts.len() > MAX_ATTEMPTS_KEPT {
            d.attempts.remove(0);
        }
        let ok = o.error.is_none() && o.status.is_some_and(|s| (200..300).contains(&s));
        if ok {
            d.status = DeliveryStatus::Succeeded;
            d.next_attempt_at = None;
            unschedule(tx, &o.client, &mut d)?;
        } else {
            d.failures = d.failures.saturating_add(1);
            match settings.schedule.get(d.failures as usize - 1) {
                Some(wait) => {
                    let wait = millis(*wait);
                    d.next_attempt_at = Some(Timestamp(client_now.millis().saturating_add(wait)));
                    schedule(
                        tx,
                        &o.client,
                        &mut d,
                        host_now.millis().saturating_add(wait),
                    )?;
                }
                None => {
                    d.status = DeliveryStatus::Failed;
                    d.next_attempt_at = None;
                    unschedule(tx, &o.client, &mut d)?;
                }
            }
        }
        table::save(tx, &o.client, &d)?;
    }
    Ok(())
}

/// Whether anything in the delivery queue is due by `now_ms` (one key read; hosts ask before they
/// queue a write to take deliveries).
pub fn any_due(tx: &mut dyn Tx, now_ms: i64) -> Result<bool> {
    let (start, end) = keys::deliveries_due(now_ms);
    Ok(!tx.scan(&start, &end, Direction::Forward, 1)?.is_empty())
}

/// When the earliest queued delivery due at `from_ms` or later is due (host clock, ms), if any:
/// hosts sleep until then. `from_ms` is 0 for the whole queue, or a take's [`Taken::floor`].
pub fn next_due(tx: &mut dyn Tx, from_ms: i64) -> Result<Option<i64>> {
    let (prefix, _) = keys::deliveries_due(0);
    let end = crate::storage::prefix_end(&prefix);
    let start = keys::deliveries_from(from_ms);
    Ok(tx
        .scan(&start, &end, Direction::Forward, 1)?
        .first()
        .and_then(|(k, _)| due_of(k)))
}
