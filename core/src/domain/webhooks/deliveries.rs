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
//!
//! A pending delivery waiting for a retry (`failures > 0`) also has an entry
//! `keys::delivery_pending`, what a test clock advance moves; one that has failed no attempt since
//! it was queued is due at once (queued, retried or replayed at the host's now) or out for its
//! attempt, so it needs none: an advance while its attempt is out counts in the retry a failure
//! schedules ([`Due::offset_s`]). Two keys fewer with every delivery (ARCHITECTURE.md, "Webhooks").

use std::collections::HashMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::endpoints::{self, Endpoint, EndpointStatus};
use crate::domain::events::{self, Event, EventText};
use crate::domain::push::signature;
use crate::domain::push::url_policy::{Target, UrlPolicy};
use crate::domain::vault::Vault;
use crate::domain::{Result, Scope, test_clock};
use crate::env::{Env, Timestamp};
use crate::error::ApiError;
use crate::macros::str_enum;
use crate::storage::codec::{self, Record};
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

/// A delivery is listed only within its endpoint (`GET /webhook-endpoints/{id}/deliveries`, whose
/// `status` filter reads the records it walks), so its one index is `endpointId`, with the count
/// `meta.total` reads: no index of every delivery, none by `status` (the pending ones a test clock
/// advance moves have their own keys, `keys::delivery_pending`). Fewer keys written with every
/// event and at every outcome (ARCHITECTURE.md, "Webhooks").
impl table::Indexed for Delivery {
    const KIND: Kind = Kind::WebhookDelivery;
    const FIELDS: &'static [&'static str] = &["endpointId"];
    const INDEX_ALL: bool = false;

    fn id(&self) -> &str {
        &self.id
    }

    fn created_ms(&self) -> i64 {
        self.created_at.millis()
    }

    fn index_values(&self) -> Vec<&str> {
        vec![&self.endpoint_id]
    }
}

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

/// Whether `d` has its entry `keys::delivery_pending`: pending with a retry scheduled after a
/// failed attempt.
pub(crate) fn retrying(d: &Delivery) -> bool {
    d.status == DeliveryStatus::Pending && d.failures > 0
}

/// `d` is answered (succeeded or failed): out of the queue and no longer pending. `retrying`: it
/// had its pending entry ([`retrying`] before this attempt's outcome).
fn settle(
    tx: &mut dyn Tx,
    client: &str,
    d: &mut Delivery,
    status: DeliveryStatus,
    retrying: bool,
) -> Result<()> {
    d.status = status;
    d.next_attempt_at = None;
    unschedule(tx, client, d)?;
    if retrying {
        tx.delete(&keys::delivery_pending(client, &d.id))?;
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
    // A new id: its queue entry is a new key (`put_new`), so when its outcome deletes it before a
    // checkpoint (the common case: delivered within milliseconds), it never reaches the data file
    // (the native memtable drops the pair, as an `Overlay` does). Due now, it needs no pending
    // entry (the module's doc).
    let due = s.env.now().millis();
    s.tx.put_new(&keys::delivery_due(due, s.client, &d.id), &[])?;
    d.due_ms = Some(due);
    table::insert(s.tx, s.client, &d)?;
    Ok(d)
}

pub fn get(s: &mut Scope, id: &str) -> Result<Delivery> {
    crate::domain::find(s, Kind::WebhookDelivery, id, "Webhook delivery")
}

/// Sends a delivery again now, whatever its status; the retry schedule starts over.
pub fn retry(s: &mut Scope, id: &str) -> Result<Delivery> {
    let mut d = get(s, id)?;
    // Due now: no retry waits, so no pending entry.
    if retrying(&d) {
        s.tx.delete(&keys::delivery_pending(s.client, &d.id))?;
    }
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

/// The client's test clock moved `seconds` forward: its deliveries waiting for a retry come due that
/// much sooner on the host's clock (their `nextAttemptAt`, on the client's clock, stays), so retry
/// times follow the client's clock like every other rule. The others are due already, or out for
/// an attempt whose failure counts the advance in ([`Due::offset_s`]).
pub fn clock_advanced(s: &mut Scope, seconds: i64) -> Result<()> {
    let prefix = keys::deliveries_pending(s.client);
    let client = s.client;
    crate::storage::for_each_page(s.tx, &prefix, 256, |tx, page| {
        for (key, _) in page {
            let Some(id) = key
                .get(prefix.len()..)
                .and_then(|b| std::str::from_utf8(b).ok())
            else {
                continue;
            };
            let Some(mut d) = table::get::<Delivery>(tx, client, id)? else {
                continue;
            };
            if let Some(due) = d.due_ms {
                let sooner = due.saturating_sub(seconds.saturating_mul(1000));
                schedule(tx, client, &mut d, sooner)?;
                table::save(tx, client, &d)?;
            }
        }
        Ok(())
    })
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
                if retrying(&d) {
                    s.tx.delete(&keys::delivery_pending(s.client, &d.id))?;
                }
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
    /// The client's test clock offset (seconds) when it was planned: a test clock advance while the
    /// attempt is out brings the retry its failure schedules that much sooner (the attempt was
    /// made before the advance).
    pub offset_s: i64,
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
            offset_s: self.offset_s,
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
    /// As [`Due::offset_s`].
    pub offset_s: i64,
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
    body: &dyn Fn(&EventText<'_>) -> Result<Vec<u8>>,
) -> Result<Taken> {
    let none = |_: &str, _: &str| false;
    let planned = plan(tx, env, settings, from_ms, limit, &none, body)?;
    for key in planned.stale.iter().chain(&planned.duplicates) {
        tx.delete(key)?;
    }
    let until = env.now().plus_seconds(LEASE_SECS).millis();
    let mut out = planned.due;
    for due in &mut out {
        // The lease: only the queue entry moves (the record is rewritten by the outcome).
        tx.delete(&keys::delivery_due(
            due.lease.taken_ms,
            &due.client,
            &due.delivery_id,
        ))?;
        tx.put(
            &keys::delivery_due(until, &due.client, &due.delivery_id),
            &[],
        )?;
        due.lease.until_ms = until;
    }
    record(tx, env, settings, &planned.unsendable)?;
    Ok(Taken {
        due: out,
        floor: planned.floor,
    })
}

/// What is due, read without writing: [`plan`]'s answer. A host that alone serves its store (one
/// process holds the file) can keep its leases in memory: it sends `due` at once, records
/// `unsendable` like outcomes (each outcome drops the entry it names: `Lease` with equal times),
/// and drops `stale` ([`drop_stale`]); nothing else needs a write before the attempts.
#[derive(Debug, Clone, Default)]
pub struct Planned {
    /// Signed and ready; each `lease` is the entry read, not moved (`taken_ms == until_ms`).
    pub due: Vec<Due>,
    /// Deliveries that cannot be sent (endpoint disabled or gone, event gone, URL refused), as
    /// failed attempts to record.
    pub unsendable: Vec<Outcome>,
    /// Entries of no pending delivery (its record gone or answered): delete them.
    pub stale: Vec<Vec<u8>>,
    /// Second entries of a delivery this plan already holds (retried or moved by the test clock
    /// while an earlier entry was leased): a take deletes them, an in-memory lease skips them.
    pub duplicates: Vec<Vec<u8>>,
    /// As [`Taken::floor`].
    pub floor: i64,
}

/// Queue rows read per scan of a plan, and at most in all (beyond `limit` deliveries, the rows
/// `skip` passes over).
const PLAN_CHUNK: usize = 64;
const PLAN_MAX_ROWS: usize = 4096;

/// Reads up to `limit` deliveries due by the host's `env.now()` from `from_ms` on and signs them,
/// writing nothing (see [`Planned`]). `skip(client, id)` passes over deliveries the host holds
/// already (in flight); their entries count as read for the floor, since their outcome moves or
/// drops them.
pub fn plan(
    tx: &mut dyn Tx,
    env: &dyn Env,
    settings: &Settings,
    from_ms: i64,
    limit: usize,
    skip: &dyn Fn(&str, &str) -> bool,
    body: &dyn Fn(&EventText<'_>) -> Result<Vec<u8>>,
) -> Result<Planned> {
    let host_now = env.now();
    let (_, end) = keys::deliveries_due(host_now.millis());
    let mut start = keys::deliveries_from(from_ms);
    let mut planned = Planned::default();
    let mut endpoints = HashMap::new();
    // A delivery with two entries (retried or moved by the test clock while leased) goes out once.
    let mut taken = std::collections::HashSet::new();
    let mut read = 0;
    // Every entry read is planned, skipped (in flight) or dropped: nothing stays due before the
    // last one read, or before now when the due part of the queue was read to its end.
    let mut floor = from_ms;
    'scan: while read < PLAN_MAX_ROWS {
        let rows = tx.scan(&start, &end, Direction::Forward, PLAN_CHUNK)?;
        let whole = rows.len() < PLAN_CHUNK;
        for (key, _) in rows {
            read += 1;
            if planned.due.len() + planned.unsendable.len() >= limit {
                floor = due_of(&key).unwrap_or(from_ms);
                break 'scan;
            }
            start = key.clone();
            start.push(0);
            let Some((client, id)) = keys::delivery_due_parts(&key) else {
                planned.stale.push(key);
                continue;
            };
            if skip(client, id) {
                continue;
            }
            let (client, id) = (client.to_string(), id.to_string());
            let Some(d) = table::get::<Delivery>(tx, &client, &id)? else {
                planned.stale.push(key);
                continue;
            };
            if d.status != DeliveryStatus::Pending {
                planned.stale.push(key);
                continue;
            }
            if !taken.insert((client.clone(), id.clone())) {
                planned.duplicates.push(key);
                continue;
            }
            let taken_ms = due_of(&key).unwrap_or(i64::MIN);
            let lease = Lease {
                taken_ms,
                until_ms: taken_ms,
            };
            match prepare(tx, env, settings, &mut endpoints, &client, &d, body)? {
                Ok(mut due) => {
                    due.lease = lease;
                    due.client = client;
                    planned.due.push(due);
                }
                Err((reason, offset_s)) => planned.unsendable.push(Outcome {
                    client,
                    delivery_id: id,
                    status: None,
                    duration_ms: 0,
                    error: Some(reason),
                    lease,
                    offset_s,
                }),
            }
        }
        if whole {
            floor = host_now.millis();
            break;
        }
        // Read on, or stopped at the row cap: nothing read past the last row.
        floor = due_of(&start).unwrap_or(from_ms);
    }
    planned.floor = floor.max(from_ms);
    Ok(planned)
}

/// Deletes queue entries a [`plan`] found stale, each only if its delivery is still gone or no
/// longer pending (a write between the plan and this one may have queued it again).
pub fn drop_stale(tx: &mut dyn Tx, stale: &[Vec<u8>]) -> Result<()> {
    for key in stale {
        let live = match keys::delivery_due_parts(key) {
            None => false,
            Some((client, id)) => table::get::<Delivery>(tx, client, id)?
                .is_some_and(|d| d.status == DeliveryStatus::Pending),
        };
        if !live {
            tx.delete(key)?;
        }
    }
    Ok(())
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

/// An endpoint as a take needs it: its client's test clock offset (seconds), and where to send
/// and the secrets that sign, or why nothing can be sent to it. Read and opened once per take,
/// however many of its deliveries are due.
type Ready = (
    i64,
    std::result::Result<(Target, Vec<signature::Secret>), String>,
);

fn ready(
    tx: &mut dyn Tx,
    env: &dyn Env,
    settings: &Settings,
    client: &str,
    endpoint_id: &str,
) -> Result<Ready> {
    // An unsendable delivery's outcome needs the offset too (`Outcome::offset_s`).
    let offset_s = test_clock::offset(tx, client)?;
    let Some(endpoint) = table::get::<Endpoint>(tx, client, endpoint_id)? else {
        return Ok((offset_s, Err("the endpoint was deleted".into())));
    };
    if endpoint.status != EndpointStatus::Enabled {
        return Ok((offset_s, Err("the endpoint is disabled".into())));
    }
    let target = match super::check_url(settings.policy, &endpoint.url, "url") {
        Ok(t) => t,
        Err(_) => {
            let why = "the URL is not allowed by the URL policy";
            return Ok((offset_s, Err(why.into())));
        }
    };
    let vault = settings.vault.as_ref().ok_or_else(|| {
        ApiError::internal("webhook deliveries need the vault key to open endpoint secrets")
    })?;
    let client_now = env.now().plus_seconds(offset_s);
    let secrets = endpoints::signing_secrets(vault, &endpoint, client_now)?;
    Ok((offset_s, Ok((target, secrets))))
}

/// The signed request of one delivery, or why it cannot be sent (with its client's test clock
/// offset, for the outcome).
fn prepare(
    tx: &mut dyn Tx,
    env: &dyn Env,
    settings: &Settings,
    endpoints: &mut HashMap<(String, String), Ready>,
    client: &str,
    d: &Delivery,
    body: &dyn Fn(&EventText<'_>) -> Result<Vec<u8>>,
) -> Result<std::result::Result<Due, (String, i64)>> {
    let cached = (client.to_string(), d.endpoint_id.clone());
    if !endpoints.contains_key(&cached) {
        let r = ready(tx, env, settings, client, &d.endpoint_id)?;
        endpoints.insert(cached.clone(), r);
    }
    let (offset_s, (target, secrets)) = match endpoints.get(&cached) {
        Some((offset_s, Ok(ready))) => (*offset_s, ready),
        Some((offset_s, Err(why))) => return Ok(Err((why.clone(), *offset_s))),
        None => {
            return Err(ApiError::internal(
                "an endpoint vanished from the take's cache",
            ));
        }
    };
    // The stored event read as text: its object goes into the body as stored, not parsed.
    let Some(event) = tx.get(&keys::record(client, Kind::Event, &d.event_id))? else {
        return Ok(Err(("the event is no longer kept".into(), offset_s)));
    };
    let body = events::with_text(&event, body)?;
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
        offset_s,
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
        let was_retrying = retrying(&d);
        match d.due_ms {
            // Its entry is the lease's, dropped above.
            Some(due) if due == o.lease.taken_ms => d.due_ms = None,
            // An entry from before the lease's stands for this attempt too: an earlier lease of
            // it that ran out (the entry moved on without the record, so this one was taken from
            // where that lease left it), or a test clock advance that moved the taken entry while
            // the attempt was out (counted in through `offset_s`). Kept, it would send the
            // delivery again at once after a failure instead of after the schedule's wait.
            Some(due) if due < o.lease.taken_ms => {
                tx.delete(&keys::delivery_due(due, &o.client, &o.delivery_id))?;
                d.due_ms = None;
            }
            // Queued again meanwhile (a retry): that entry stays the delivery's.
            _ => {}
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
            settle(
                tx,
                &o.client,
                &mut d,
                DeliveryStatus::Succeeded,
                was_retrying,
            )?;
        } else {
            d.failures = d.failures.saturating_add(1);
            match settings.schedule.get(d.failures as usize - 1) {
                Some(wait) => {
                    // The attempt was made before any test clock advance that came while it was
                    // out: the wait counts from then on the client's clock. A re-queue that came
                    // meanwhile (a `retry`, or an advance moving a retry's entry) is kept when it
                    // is sooner than the schedule's next.
                    let advanced_ms = offset
                        .saturating_sub(o.offset_s)
                        .max(0)
                        .saturating_mul(1000);
                    let next = host_now
                        .millis()
                        .saturating_add(millis(*wait))
                        .saturating_sub(advanced_ms);
                    let due = d.due_ms.map_or(next, |queued| queued.min(next));
                    let offset_ms = offset.saturating_mul(1000);
                    d.next_attempt_at = Some(Timestamp(due.saturating_add(offset_ms)));
                    schedule(tx, &o.client, &mut d, due)?;
                    if !was_retrying {
                        tx.put(&keys::delivery_pending(&o.client, &d.id), &[])?;
                    }
                }
                None => settle(tx, &o.client, &mut d, DeliveryStatus::Failed, was_retrying)?,
            }
        }
        // Its one indexed value (`endpointId`) and its creation never change: the record alone is
        // rewritten, without reading the stored one again to compare.
        codec::put(
            tx,
            &keys::record(&o.client, Kind::WebhookDelivery, &d.id),
            &d,
        )?;
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
