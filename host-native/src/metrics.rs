//! Prometheus metrics (`--metrics-listen`): the names recorded, the recorder, and the scrape
//! listener. Recording goes through the `metrics` facade, so without `--metrics-listen` no recorder
//! is installed and every call below is a no-op (the server skips even building request labels).
//!
//! Leaf module: the server, the writer and the stores call it; it imports none of them.

use std::cell::RefCell;
use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Duration;

use bytes::Bytes;
use card_core::{Access, Method};
use http_body_util::Full;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use metrics::{Counter, Histogram, counter, gauge, histogram};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use tokio::net::TcpListener;
use tracing::{debug, warn};

pub const REQUESTS: &str = "cards_http_requests_total";
pub const REQUEST_SECONDS: &str = "cards_http_request_duration_seconds";
pub const RATE_LIMITED: &str = "cards_rate_limited_total";
pub const BATCH_SIZE: &str = "cards_writer_batch_size";
pub const COMMIT_SECONDS: &str = "cards_writer_commit_duration_seconds";
pub const QUEUE_DEPTH: &str = "cards_writer_queue_depth";
pub const BODY_BYTES_HELD: &str = "cards_body_bytes_held";
pub const LOG_FSYNC_SECONDS: &str = "cards_wal_fsync_duration_seconds";
pub const CHECKPOINT_SECONDS: &str = "cards_checkpoint_duration_seconds";
pub const PG_RERUNS: &str = "cards_postgres_reruns_total";
pub const PG_BUSY: &str = "cards_postgres_busy_total";
pub const WEBHOOK_ATTEMPTS: &str = "cards_webhook_attempts_total";
pub const WEBHOOK_ATTEMPT_SECONDS: &str = "cards_webhook_attempt_duration_seconds";

/// Latency buckets, seconds: from a cached read (tens of µs) to a stalled checkpoint (seconds).
const SECONDS_BUCKETS: &[f64] = &[
    0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
    1.0, 2.5, 5.0, 10.0,
];
/// Batch sizes up to the largest `--max-batch`.
const BATCH_BUCKETS: &[f64] = &[
    1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0, 4096.0, 65536.0,
];

/// Installs the process-wide recorder; its handle renders the scrape.
pub fn install() -> anyhow::Result<PrometheusHandle> {
    let handle = PrometheusBuilder::new()
        .set_buckets(SECONDS_BUCKETS)?
        .set_buckets_for_metric(Matcher::Full(BATCH_SIZE.into()), BATCH_BUCKETS)?
        .install_recorder()?;
    metrics::describe_counter!(
        REQUESTS,
        "HTTP requests answered, by route template, method and status"
    );
    metrics::describe_histogram!(
        REQUEST_SECONDS,
        metrics::Unit::Seconds,
        "HTTP request latency, head to answer"
    );
    metrics::describe_counter!(
        RATE_LIMITED,
        "requests refused 429 by the per-client rate limits, by access"
    );
    metrics::describe_histogram!(BATCH_SIZE, "write requests per group commit");
    metrics::describe_histogram!(
        COMMIT_SECONDS,
        metrics::Unit::Seconds,
        "time to run and commit one group-commit batch (redb: into the memtable and the log, before the fsync)"
    );
    metrics::describe_gauge!(
        QUEUE_DEPTH,
        "write requests queued for the writer, not yet in a batch"
    );
    metrics::describe_gauge!(
        BODY_BYTES_HELD,
        metrics::Unit::Bytes,
        "request-body bytes held, being read or queued (at most --max-queued-bytes)"
    );
    metrics::describe_histogram!(
        LOG_FSYNC_SECONDS,
        metrics::Unit::Seconds,
        "write-ahead log fsyncs (redb)"
    );
    metrics::describe_histogram!(
        CHECKPOINT_SECONDS,
        metrics::Unit::Seconds,
        "checkpoints of the memtable into the redb file"
    );
    metrics::describe_counter!(
        PG_RERUNS,
        "PostgreSQL transactions re-run after a serialization conflict"
    );
    metrics::describe_counter!(
        PG_BUSY,
        "requests answered 503 busy after conflicting on every attempt"
    );
    metrics::describe_counter!(
        WEBHOOK_ATTEMPTS,
        "webhook delivery attempts, by outcome (succeeded: a 2xx; failed: anything else)"
    );
    metrics::describe_histogram!(
        WEBHOOK_ATTEMPT_SECONDS,
        metrics::Unit::Seconds,
        "webhook delivery attempts, resolve to answer (at most the 10 s timeout)"
    );
    Ok(handle)
}

/// A request's kind for the metrics: route template (by its address and length: templates are
/// `'static`, so no string is hashed per request; equal templates at two addresses only make two
/// cache entries for the same handles), method, status.
type RequestKind = ((usize, usize), Method, u16);

thread_local! {
    /// The request metrics' handles by (route template, method, status), per worker thread: after
    /// the first request of a kind, recording one is two atomic updates, with no label set built
    /// (the status's string) and no registry lookup. Bounded: templates x methods x statuses.
    static REQUEST_HANDLES: RefCell<HashMap<RequestKind, (Counter, Histogram), BuildHasherDefault<KindHasher>>> =
        RefCell::new(HashMap::default());
}

/// A few integers to hash, not attacker-chosen: one multiply per word (as rustc's FxHasher)
/// instead of SipHash's rounds.
#[derive(Default)]
struct KindHasher(u64);

impl KindHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for KindHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }
    fn write_u16(&mut self, n: u16) {
        self.add(u64::from(n));
    }
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
    fn write_isize(&mut self, n: isize) {
        self.add(n as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// One answered request.
pub fn request(route: &'static str, method: Method, status: u16, took: Duration) {
    let kind = ((route.as_ptr() as usize, route.len()), method, status);
    REQUEST_HANDLES.with_borrow_mut(|handles| {
        let (count, latency) = handles.entry(kind).or_insert_with(|| {
            let m = method.as_str();
            (
                counter!(REQUESTS, "route" => route, "method" => m, "status" => status.to_string()),
                histogram!(REQUEST_SECONDS, "route" => route, "method" => m),
            )
        });
        count.increment(1);
        latency.record(took.as_secs_f64());
    });
}

pub fn rate_limited(access: Access) {
    let access = match access {
        Access::Read => "read",
        Access::Write => "write",
    };
    counter!(RATE_LIMITED, "access" => access).increment(1);
}

/// One group commit of `size` requests that took `took` to run and commit.
pub fn batch(size: usize, took: Duration) {
    histogram!(BATCH_SIZE).record(size as f64);
    histogram!(COMMIT_SECONDS).record(took.as_secs_f64());
}

pub fn log_fsync(took: Duration) {
    histogram!(LOG_FSYNC_SECONDS).record(took.as_secs_f64());
}

pub fn checkpoint(took: Duration) {
    histogram!(CHECKPOINT_SECONDS).record(took.as_secs_f64());
}

pub fn pg_rerun() {
    counter!(PG_RERUNS).increment(1);
}

pub fn pg_busy() {
    counter!(PG_BUSY).increment(1);
}

/// One webhook delivery attempt.
pub fn webhook_attempt(succeeded: bool, took: Duration) {
    let outcome = if succeeded { "succeeded" } else { "failed" };
    counter!(WEBHOOK_ATTEMPTS, "outcome" => outcome).increment(1);
    histogram!(WEBHOOK_ATTEMPT_SECONDS).record(took.as_secs_f64());
}

/// Gauges read at scrape time rather than kept up to date on every request.
pub struct Gauges {
    pub queue_depth: Box<dyn Fn() -> usize + Send + Sync>,
    pub body_bytes_held: Box<dyn Fn() -> usize + Send + Sync>,
}

/// Serves `GET /metrics` (any other path: 404) until `shutdown` resolves.
pub async fn serve(
    listener: TcpListener,
    handle: PrometheusHandle,
    gauges: Gauges,
    shutdown: impl Future<Output = ()>,
) {
    let state = std::sync::Arc::new((handle, gauges));
    // Histograms keep raw samples until upkeep folds them in; do it even when nobody scrapes.
    let upkeep = {
        let state = state.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(5)).await;
                state.0.run_upkeep();
            }
        })
    };
    tokio::pin!(shutdown);
    loop {
        let (stream, _) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(conn) => conn,
                Err(e) => {
                    warn!(error = %e, "metrics: accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let state = state.clone();
        let svc = service_fn(move |req: hyper::Request<hyper::body::Incoming>| {
            let state = state.clone();
            async move {
                let (handle, gauges) = &*state;
                let response = if req.uri().path() == "/metrics"
                    && matches!(*req.method(), hyper::Method::GET | hyper::Method::HEAD)
                {
                    gauge!(QUEUE_DEPTH).set((gauges.queue_depth)() as f64);
                    gauge!(BODY_BYTES_HELD).set((gauges.body_bytes_held)() as f64);
                    hyper::Response::builder()
                        .header("content-type", "text/plain; version=0.0.4")
                        .body(Full::new(Bytes::from(handle.render())))
                } else {
                    hyper::Response::builder()
                        .status(404)
                        .body(Full::new(Bytes::from_static(b"not found\n")))
                };
                Ok::<_, Infallible>(response.unwrap_or_default())
            }
        });
        tokio::spawn(async move {
            if let Err(e) = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), svc)
                .await
            {
                debug!(error = %e, "metrics connection ended with an error");
            }
        });
    }
    upkeep.abort();
}
