//! The webhook delivery task (ARCHITECTURE.md, "Webhooks"): it takes the deliveries that are due
//! through the writer (a write like any request, which leases them), sends each with [`Outbound`]
//! outside any transaction, at most [`CONCURRENCY`] at a time and each within [`TIMEOUT`], and writes
//! the outcomes back through the writer. It wakes after every committed write (the server notifies
//! it) and when the earliest queued delivery comes due, and looks at least every [`IDLE`] (another
//! instance on the same PostgreSQL database may have queued something). A delivery leased by an
//! instance that died comes due again when its lease ends, so after a restart everything pending is
//! attempted; a crash mid-attempt may repeat an attempt (receivers dedupe on `webhook-id`).
//!
//! Client writes come first: when clients submitted writes since the task's previous take (or
//! write of outcomes), the next one waits until [`YIELD`] after it, collecting meanwhile; so under
//! load the task adds one take and one write of outcomes per [`YIELD`], each carrying many
//! deliveries, and leaves the writer and the CPU to the clients; it never starves (a batch every
//! [`YIELD`]), and with no client writing it takes and records at once. [`Stats`] counts where its
//! time goes (printed at shutdown beside the writer's summary).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use card_core::service::{Outcome, Planned, Taken};
use card_core::{Env, Response, Service, Tx};
use tokio::sync::{Notify, Semaphore, mpsc};
use tracing::{debug, warn};

use crate::outbound::Outbound;
use crate::store::{Store, Timings};
use crate::writer::{Internal, Job, WriterHandle};

/// What a take wrote: the leased deliveries and the queue's new floor, or why none.
type TakeResult = Result<Taken, TakeError>;

/// Why a take wrote nothing.
#[derive(Debug, thiserror::Error)]
enum TakeError {
    /// The core's refusal, its message as the writer's 500 answer carries it.
    #[error("{0}")]
    Core(String),
    #[error("the write answered {0}")]
    Write(u16),
}

/// Attempts in flight at once.
pub const CONCURRENCY: usize = 64;

/// The whole of one attempt: resolving, connecting, TLS and the answer.
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// The longest the task sleeps before it looks at the queue again.
pub const IDLE: Duration = Duration::from_secs(1);

/// How often the task reads the whole queue, not only from where its last take left off.
const FULL_LOOK: Duration = Duration::from_secs(1);

/// The least time between two looks at the queue when writes keep waking the task.
const PACE: Duration = Duration::from_millis(2);

/// Free attempt slots a take waits for.
const TAKE_AT_LEAST: u32 = 8;

/// Outcomes written back in one write, at most.
const RECORD_BATCH: usize = 512;

/// While clients write, the least time between two takes (or plans).
const YIELD: Duration = Duration::from_millis(10);

/// While clients write, the least time between two writes of outcomes. Longer than [`YIELD`]: a
/// write's cost grows less than its outcomes do (its deliveries' index counts, 16 shards a status,
/// are read and rewritten once per write, not once per outcome), and only the record waits, not
/// the attempt.
const RECORD_YIELD: Duration = Duration::from_millis(50);

/// What the task did and how long its writes held the writer.
#[derive(Debug, Default, Clone)]
pub struct Stats {
    /// Reads of the queue (when is the next one due).
    pub looks: Timings,
    /// Plans (read and signed on a snapshot, off the writer: redb, leases in memory).
    pub plans: Timings,
    /// Takes, timed on the writer (in the write), and the deliveries they leased (or planned).
    pub takes: Timings,
    pub taken: u64,
    /// Writes of outcomes, timed on the writer, and the outcomes written.
    pub records: Timings,
    pub recorded: u64,
    /// Attempts made, and how many succeeded.
    pub attempts: u64,
    pub succeeded: u64,
    /// Writes the task submitted (takes and outcomes), to tell the clients' writes from its own.
    pub writes: u64,
    /// Takes and writes of outcomes that waited for client writes, and how long in all.
    pub yielded: Timings,
}

impl Stats {
    pub fn summary(&self) -> String {
        format!(
            "webhook deliveries: {} attempted, {} succeeded; plans {} (off the writer); takes {} \
             (on the writer), {} taken; outcome writes {} (on the writer), {} written; looks {}; \
             yielded to client writes {}",
            self.attempts,
            self.succeeded,
            self.plans.summary(),
            self.takes.summary(),
            self.taken,
            self.records.summary(),
            self.recorded,
            self.looks.summary(),
            self.yielded.summary()
        )
    }
}

fn counted(stats: &Mutex<Stats>) -> std::sync::MutexGuard<'_, Stats> {
    stats.lock().unwrap_or_else(|e| e.into_inner())
}

/// The task's previous write of one kind (take, or outcomes): when, and the clients' writes
/// submitted by then.
struct Mark {
    at: Instant,
    client_writes: u64,
}

/// The in-memory leases of a process that alone serves its store: deliveries planned and not yet
/// recorded, by delivery id (ids are unique across clients), each with whether its outcome was
/// written since the last plan began. A plan skips every id here: one released while the plan
/// read may be missing from its snapshot's queue or not; one released before the plan began is
/// dropped as it begins, as its snapshot, taken after, holds the outcome.
#[derive(Clone, Default)]
struct Held(Arc<Mutex<HashMap<String, bool>>>);

impl Held {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, bool>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Called before a plan takes its snapshot.
    fn begin(&self) {
        self.lock().retain(|_, released| !*released);
    }

    fn skips(&self, id: &str) -> bool {
        self.lock().contains_key(id)
    }

    fn hold(&self, ids: impl Iterator<Item = String>) {
        let mut held = self.lock();
        for id in ids {
            held.insert(id, false);
        }
    }

    fn release(&self, outcomes: &[Outcome]) {
        let mut held = self.lock();
        for o in outcomes {
            if let Some(released) = held.get_mut(&o.delivery_id) {
                *released = true;
            }
        }
    }
}

pub struct Deliverer {
    pub service: Arc<Service>,
    pub store: Store,
    pub env: Arc<dyn Env + Send + Sync>,
    pub writer: WriterHandle,
    pub outbound: Outbound,
    pub wake: Arc<Notify>,
    pub stats: Arc<Mutex<Stats>>,
}

impl Deliverer {
    /// Runs until the runtime stops.
    pub async fn run(self: Arc<Self>) {
        let permits = Arc::new(Semaphore::new(CONCURRENCY));
        let (outcomes, received) = mpsc::unbounded_channel();
        let held = Held::default();
        tokio::spawn(self.clone().record_loop(received, held.clone()));
        // Where the due part of the queue starts (host clock, ms): each take moves it up, so looks
        // and takes skip what earlier takes deleted (on redb those deletions stay in the memtable
        // until a checkpoint, and a walk from the start reads them all: the cost grew with every
        // delivery). Writes queue at their now or later, except a test clock advance (or the host
        // clock stepping back): the whole queue is read again every FULL_LOOK for those.
        let mut floor = 0i64;
        let mut full_look = Instant::now();
        let mut last_take = self.mark();
        loop {
            if full_look.elapsed() >= FULL_LOOK {
                floor = 0;
                full_look = Instant::now();
            }
            let wait = match self.next_due(floor).await {
                Some(due) => {
                    let now = self.env.now().millis();
                    if due <= now {
                        if self
                            .send_due(&permits, &outcomes, &held, &mut floor, &mut last_take)
                            .await
                        {
                            continue;
                        }
                        IDLE
                    } else {
                        Duration::from_millis((due - now) as u64).min(IDLE)
                    }
                }
                None => IDLE,
            };
            tokio::select! {
                () = self.wake.notified() => {
                    // Writes wake the task one after another under load: look at most every
                    // PACE, so the queue is read once per many writes, not once per write.
                    tokio::time::sleep(PACE).await;
                }
                () = tokio::time::sleep(wait) => {}
            }
        }
    }

    /// When the earliest queued delivery is due (host clock, ms).
    async fn next_due(&self, floor: i64) -> Option<i64> {
        let store = self.store.clone();
        let started = Instant::now();
        let read = tokio::task::spawn_blocking(move || {
            store.read(|tx| Service::next_delivery_due_from(tx, floor))
        })
        .await;
        counted(&self.stats).looks.record(started.elapsed());
        match read {
            Ok(Ok(Ok(due))) => due,
            Ok(Ok(Err(e))) => {
                warn!(cause = %e, "cannot read the webhook delivery queue");
                None
            }
            Ok(Err(e)) => {
                warn!(cause = %e, "cannot read the webhook delivery queue");
                None
            }
            Err(_) => None,
        }
    }

    /// Takes as many due deliveries as there are free attempt slots and starts their attempts.
    /// True when it took some (the caller looks again at once).
    async fn send_due(
        &self,
        permits: &Arc<Semaphore>,
        outcomes: &mpsc::UnboundedSender<Outcome>,
        held: &Held,
        floor: &mut i64,
        last_take: &mut Mark,
    ) -> bool {
        // Wait for a few free slots, then take as many as are free: a leased delivery is sent at
        // once, and under load each take (a write) leases several.
        let Ok(some) = permits.acquire_many(TAKE_AT_LEAST).await else {
            return false;
        };
        self.yield_to_writes(last_take, YIELD).await;
        let free = permits.available_permits() + TAKE_AT_LEAST as usize;
        drop(some);
        let due = if self.leases_in_memory() {
            // No write before the attempts: read and sign on a snapshot, hold them here.
            match self.plan(*floor, free, held).await {
                Ok(planned) => {
                    *floor = planned.floor;
                    for o in planned.unsendable {
                        let _ = outcomes.send(o);
                    }
                    planned.due
                }
                Err(e) => {
                    warn!(cause = %e, "cannot plan due webhook deliveries");
                    return false;
                }
            }
        } else {
            match self.take(*floor, free).await {
                Ok(taken) => {
                    *floor = taken.floor;
                    taken.due
                }
                Err(e) => {
                    warn!(cause = %e, "cannot take due webhook deliveries");
                    return false;
                }
            }
        };
        let took = !due.is_empty();
        for d in due {
            let Ok(permit) = permits.clone().acquire_owned().await else {
                return false;
            };
            let (outbound, outcomes) = (self.outbound.clone(), outcomes.clone());
            let stats = self.stats.clone();
            tokio::spawn(async move {
                let outcome = attempt(&outbound, d, &stats).await;
                drop(permit);
                let _ = outcomes.send(outcome);
            });
        }
        took
    }

    /// Clients' writes submitted so far: all the writer's, less the task's own.
    fn client_writes(&self) -> u64 {
        let own = counted(&self.stats).writes;
        self.writer.submitted().saturating_sub(own)
    }

    fn mark(&self) -> Mark {
        Mark {
            at: Instant::now(),
            client_writes: self.client_writes(),
        }
    }

    /// Client writes first: when clients wrote since `mark`, waits until `pause` after it. Moves
    /// `mark` to now.
    async fn yield_to_writes(&self, mark: &mut Mark, pause: Duration) {
        if self.client_writes() > mark.client_writes
            && let Some(left) = pause.checked_sub(mark.at.elapsed())
        {
            tokio::time::sleep(left).await;
            counted(&self.stats).yielded.record(left);
        }
        *mark = self.mark();
    }

    /// Submits one of the task's own writes.
    async fn submit(&self, write: Internal) -> Response {
        counted(&self.stats).writes += 1;
        self.writer.submit(internal(write)).await
    }

    /// Whether this process alone serves the store, so an attempt's lease can live in memory: a
    /// redb file is held by one process (PostgreSQL may be shared by several instances, whose
    /// leases are in the store).
    fn leases_in_memory(&self) -> bool {
        matches!(self.store, Store::Redb(_))
    }

    /// Up to `limit` due deliveries due at `floor` or later, read and signed on a snapshot and
    /// held in `held` until their outcomes are written; nothing written first. They are sent only
    /// once everything the snapshot saw is durable (a change not yet durable is not announced).
    /// The entries of deliveries that are gone go in a write of their own (rare).
    async fn plan(&self, floor: i64, limit: usize, held: &Held) -> Result<Planned, TakeError> {
        let (service, store, env) = (self.service.clone(), self.store.clone(), self.env.clone());
        held.begin();
        let holding = held.clone();
        let started = Instant::now();
        let read = tokio::task::spawn_blocking(move || {
            store.read(|tx| {
                let skip = |_: &str, id: &str| holding.skips(id);
                service.plan_due_deliveries(tx, &*env, floor, limit, &skip)
            })
        })
        .await;
        counted(&self.stats).plans.record(started.elapsed());
        let planned = match read {
            Ok(Ok(Ok(planned))) => planned,
            Ok(Ok(Err(e))) => return Err(TakeError::Core(e)),
            Ok(Err(e)) => return Err(TakeError::Core(e.to_string())),
            Err(_) => return Err(TakeError::Core("the plan panicked".into())),
        };
        if let Some(answer) = self.writer.settled() {
            return Err(TakeError::Write(answer.status));
        }
        held.hold(
            (planned.due.iter().map(|d| d.delivery_id.clone()))
                .chain(planned.unsendable.iter().map(|o| o.delivery_id.clone())),
        );
        counted(&self.stats).taken += planned.due.len() as u64;
        if !planned.stale.is_empty() {
            let stale = Arc::new(planned.stale.clone());
            let write: Internal =
                Arc::new(
                    move |tx: &mut dyn Tx, _: &dyn Env| match Service::drop_stale_deliveries(
                        tx, &stale,
                    ) {
                        Ok(()) => Job::done(),
                        Err(e) => Service::internal_error(&e),
                    },
                );
            let answer = self.submit(write).await;
            if answer.status != 200 {
                warn!(
                    status = answer.status,
                    "cannot drop stale webhook queue entries"
                );
            }
        }
        Ok(planned)
    }

    /// Leases up to `limit` due deliveries due at `floor` or later, in one write through the writer.
    async fn take(&self, floor: i64, limit: usize) -> TakeResult {
        let taken: Arc<Mutex<Option<TakeResult>>> = Arc::default();
        let (service, slot, stats) = (self.service.clone(), taken.clone(), self.stats.clone());
        let write: Internal = Arc::new(move |tx: &mut dyn Tx, env: &dyn Env| {
            let started = Instant::now();
            let result = service.take_due_deliveries_from(tx, env, floor, limit);
            counted(&stats).takes.record(started.elapsed());
            let answer = match &result {
                Ok(_) => Job::done(),
                Err(e) => Service::internal_error(e),
            };
            // A write the store re-runs (a conflict on PostgreSQL) replaces the earlier result.
            *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(result.map_err(TakeError::Core));
            answer
        });
        let answer = self.submit(write).await;
        let result = taken.lock().unwrap_or_else(|e| e.into_inner()).take();
        match (answer.status, result) {
            (200, Some(Ok(taken))) => {
                counted(&self.stats).taken += taken.due.len() as u64;
                Ok(taken)
            }
            (200, Some(result)) => result,
            (status, _) => Err(TakeError::Write(status)),
        }
    }

    /// Writes outcomes back as they arrive, many per write; while clients write, at most one write
    /// per `RECORD_YIELD`, collecting meanwhile.
    async fn record_loop(
        self: Arc<Self>,
        mut received: mpsc::UnboundedReceiver<Outcome>,
        held: Held,
    ) {
        let mut last = self.mark();
        while let Some(first) = received.recv().await {
            self.yield_to_writes(&mut last, RECORD_YIELD).await;
            let mut batch = vec![first];
            while batch.len() < RECORD_BATCH {
                match received.try_recv() {
                    Ok(o) => batch.push(o),
                    Err(_) => break,
                }
            }
            let n = batch.len();
            let (service, stats) = (self.service.clone(), self.stats.clone());
            let batch = Arc::new(batch);
            let written = batch.clone();
            let write: Internal = Arc::new(move |tx: &mut dyn Tx, env: &dyn Env| {
                let started = Instant::now();
                let done = match service.record_attempts(tx, env, &batch) {
                    Ok(()) => Job::done(),
                    Err(e) => Service::internal_error(&e),
                };
                counted(&stats).records.record(started.elapsed());
                done
            });
            let answer = self.submit(write).await;
            // Written (or not): the next plan may take them again. An entry a failed write left
            // behind is below the floor; the next full look finds it.
            held.release(&written);
            if answer.status == 200 {
                counted(&self.stats).recorded += n as u64;
            } else {
                // Not lost: the leases end (in memory: released above) and the deliveries are
                // attempted again.
                warn!(
                    status = answer.status,
                    outcomes = n,
                    "cannot record webhook attempts"
                );
            }
            // Recorded outcomes may have scheduled retries sooner than the task's sleep.
            self.wake.notify_one();
        }
    }
}

fn internal(write: Internal) -> Job {
    Job::internal(write)
}

/// One attempt; its outcome as the core records it.
async fn attempt(
    outbound: &Outbound,
    mut d: card_core::service::Due,
    stats: &Mutex<Stats>,
) -> Outcome {
    let body = Bytes::from(std::mem::take(&mut d.body));
    let headers: Vec<(&str, &str)> = d
        .headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    let a = outbound.post(&d.target, &headers, body, TIMEOUT).await;
    debug!(delivery = %d.delivery_id, status = ?a.status, error = ?a.error, "webhook attempt");
    crate::metrics::webhook_attempt(a.succeeded(), a.duration);
    {
        let mut stats = counted(stats);
        stats.attempts += 1;
        stats.succeeded += u64::from(a.succeeded());
    }
    d.outcome(
        a.status,
        u64::try_from(a.duration.as_millis()).unwrap_or(u64::MAX),
        a.error.map(|e| e.whole()),
    )
}
