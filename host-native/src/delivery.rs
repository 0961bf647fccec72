//! The webhook delivery task (ARCHITECTURE.md, "Webhooks"): it takes the deliveries that are due
//! through the writer (a write like any request, which leases them), sends each with [`Outbound`]
//! outside any transaction, at most [`CONCURRENCY`] at a time and each within [`TIMEOUT`], and writes
//! the outcomes back through the writer. It wakes after every committed write (the server notifies
//! it) and when the earliest queued delivery comes due, and looks at least every [`IDLE`] (another
//! instance on the same PostgreSQL database may have queued something). A delivery leased by an
//! instance that died comes due again when its lease ends, so after a restart everything pending is
//! attempted; a crash mid-attempt may repeat an attempt (receivers dedupe on `webhook-id`).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use card_core::service::{Outcome, Taken};
use card_core::{Env, Response, Service, Tx};
use tokio::sync::{Notify, Semaphore, mpsc};
use tracing::{debug, warn};

use crate::outbound::Outbound;
use crate::store::Store;
use crate::writer::{Internal, Job, WriterHandle};

/// What a take wrote: the leased deliveries and the queue's new floor, or why none.
type TakeResult = Result<Taken, String>;

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

pub struct Deliverer {
    pub service: Arc<Service>,
    pub store: Store,
    pub env: Arc<dyn Env + Send + Sync>,
    pub writer: WriterHandle,
    pub outbound: Outbound,
    pub wake: Arc<Notify>,
}

impl Deliverer {
    /// Runs until the runtime stops.
    pub async fn run(self: Arc<Self>) {
        let permits = Arc::new(Semaphore::new(CONCURRENCY));
        let (outcomes, received) = mpsc::unbounded_channel();
        tokio::spawn(self.clone().record_loop(received));
        // Where the due part of the queue starts (host clock, ms): each take moves it up, so looks
        // and takes skip what earlier takes deleted (on redb those deletions stay in the memtable
        // until a checkpoint, and a walk from the start reads them all: the cost grew with every
        // delivery). Writes queue at their now or later, except a test clock advance (or the host
        // clock stepping back): the whole queue is read again every FULL_LOOK for those.
        let mut floor = 0i64;
        let mut full_look = Instant::now();
        loop {
            if full_look.elapsed() >= FULL_LOOK {
                floor = 0;
                full_look = Instant::now();
            }
            let wait = match self.next_due(floor).await {
                Some(due) => {
                    let now = self.env.now().millis();
                    if due <= now {
                        if self.send_due(&permits, &outcomes, &mut floor).await {
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
        let read = tokio::task::spawn_blocking(move || {
            store.read(|tx| Service::next_delivery_due_from(tx, floor))
        })
        .await;
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
        floor: &mut i64,
    ) -> bool {
        // Wait for a few free slots, then take as many as are free: a leased delivery is sent at
        // once, and under load each take (a write) leases several.
        let Ok(some) = permits.acquire_many(TAKE_AT_LEAST).await else {
            return false;
        };
        let free = permits.available_permits() + TAKE_AT_LEAST as usize;
        drop(some);
        let due = match self.take(*floor, free).await {
            Ok(taken) => {
                *floor = taken.floor;
                taken.due
            }
            Err(e) => {
                warn!(cause = %e, "cannot take due webhook deliveries");
                return false;
            }
        };
        let took = !due.is_empty();
        for d in due {
            let Ok(permit) = permits.clone().acquire_owned().await else {
                return false;
            };
            let (outbound, outcomes) = (self.outbound.clone(), outcomes.clone());
            tokio::spawn(async move {
                let outcome = attempt(&outbound, d).await;
                drop(permit);
                let _ = outcomes.send(outcome);
            });
        }
        took
    }

    /// Leases up to `limit` due deliveries due at `floor` or later, in one write through the writer.
    async fn take(&self, floor: i64, limit: usize) -> TakeResult {
        let taken: Arc<Mutex<Option<TakeResult>>> = Arc::default();
        let (service, slot) = (self.service.clone(), taken.clone());
        let write: Internal = Arc::new(move |tx: &mut dyn Tx, env: &dyn Env| {
            let result = service.take_due_deliveries_from(tx, env, floor, limit);
            let answer = match &result {
                Ok(_) => done(),
                Err(e) => Service::internal_error(e),
            };
            // A write the store re-runs (a conflict on PostgreSQL) replaces the earlier result.
            *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
            answer
        });
        let answer = self.writer.submit(internal(write)).await;
        let result = taken.lock().unwrap_or_else(|e| e.into_inner()).take();
        match (answer.status, result) {
            (200, Some(result)) => result,
            (status, _) => Err(format!("the write answered {status}")),
        }
    }

    /// Writes outcomes back as they arrive, many per write.
    async fn record_loop(self: Arc<Self>, mut received: mpsc::UnboundedReceiver<Outcome>) {
        while let Some(first) = received.recv().await {
            let mut batch = vec![first];
            while batch.len() < RECORD_BATCH {
                match received.try_recv() {
                    Ok(o) => batch.push(o),
                    Err(_) => break,
                }
            }
            let n = batch.len();
            let service = self.service.clone();
            let batch = Arc::new(batch);
            let write: Internal = Arc::new(move |tx: &mut dyn Tx, env: &dyn Env| {
                match service.record_attempts(tx, env, &batch) {
                    Ok(()) => done(),
                    Err(e) => Service::internal_error(&e),
                }
            });
            let answer = self.writer.submit(internal(write)).await;
            if answer.status != 200 {
                // Not lost: the leases end and the deliveries are attempted again.
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

fn done() -> Response {
    Response::bytes(200, "text/plain", Vec::new())
}

fn internal(write: Internal) -> Job {
    Job::internal("/internal/webhook-deliveries", write)
}

/// One attempt; its outcome as the core records it.
async fn attempt(outbound: &Outbound, d: card_core::service::Due) -> Outcome {
    let headers: Vec<(&str, &str)> = d
        .headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    let a = outbound
        .post(&d.target, &headers, Bytes::from(d.body), TIMEOUT)
        .await;
    debug!(delivery = %d.delivery_id, status = ?a.status, error = ?a.error, "webhook attempt");
    crate::metrics::webhook_attempt(a.succeeded(), a.duration);
    Outcome {
        client: d.client,
        delivery_id: d.delivery_id,
        status: a.status,
        duration_ms: u64::try_from(a.duration.as_millis()).unwrap_or(u64::MAX),
        error: a.error.map(|e| e.to_string()),
    }
}
