//! Group commit: one thread owns every write. It takes the first waiting write request, drains the
//! others that are waiting (up to the batch limit), runs them in order inside ONE write transaction of
//! the store (redb here, PostgreSQL in `pg_store`), commits once (durably, and only if the batch wrote
//! something), and only then answers them all.
//!
//! A storage fault that redb latches (an I/O error: every later transaction fails with `PreviousIo`),
//! a failed commit, or a panic of the thread itself stops the writer and marks it unhealthy: `/health`
//! answers 503 and the process exits non-zero, so a supervisor restarts it on a reopened data file.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};

use card_core::http::Prepared;
use card_core::{Env, Request, Response, Service, Tx};
use redb::Database;
use tokio::sync::{Notify, OwnedSemaphorePermit, mpsc, oneshot};
use tracing::{debug, error};

use crate::storage::WriteAdapter;

/// What the writer runs for each request. `Service` in production; tests plug in their own.
pub trait Handler: Send + Sync + 'static {
    fn handle(&self, req: &Request, tx: &mut dyn Tx, env: &dyn Env) -> Response;

    /// For a request the host already matched; handlers that do not care run it plainly.
    fn handle_prepared(
        &self,
        _prepared: &Prepared,
        req: &Request,
        tx: &mut dyn Tx,
        env: &dyn Env,
    ) -> Response {
        self.handle(req, tx, env)
    }
}

impl Handler for Service {
    fn handle(&self, req: &Request, tx: &mut dyn Tx, env: &dyn Env) -> Response {
        Service::handle(self, req, tx, env)
    }

    fn handle_prepared(
        &self,
        prepared: &Prepared,
        req: &Request,
        tx: &mut dyn Tx,
        env: &dyn Env,
    ) -> Response {
        Service::handle_prepared(self, prepared, req, tx, env)
    }
}

/// One queued write: the request, its route if the host matched it already, and the share of the
/// host's body-byte budget its body holds until it is answered.
pub struct Job {
    pub req: Request,
    pub prepared: Option<Prepared>,
    pub budget: Option<OwnedSemaphorePermit>,
}

impl Job {
    #[cfg(test)]
    pub fn plain(req: Request) -> Job {
        Job {
            req,
            prepared: None,
            budget: None,
        }
    }
}

/// What one group commit did.
pub struct Batch {
    /// One per request, in order, valid only once the writes they report are committed.
    pub responses: Vec<Response>,
    /// The store will not recover without a reopen: the writer stops.
    pub fatal: bool,
    /// A transaction was committed (false when the batch wrote nothing or failed).
    pub committed: bool,
}

/// A store the writer commits batches to.
pub trait BatchStore: Send + Sync + 'static {
    /// Runs `jobs` in order, each seeing the writes of the ones before it, and commits.
    fn commit_batch(&self, handler: &dyn Handler, env: &dyn Env, jobs: &[Box<Job>]) -> Batch;
}

impl BatchStore for Database {
    fn commit_batch(&self, handler: &dyn Handler, env: &dyn Env, jobs: &[Box<Job>]) -> Batch {
        let (responses, fatal, committed) = commit_batch(self, handler, env, jobs);
        Batch {
            responses,
            fatal,
            committed,
        }
    }
}

/// Runs one queued request on `tx`, turning a panic into a 500 (the core buffers a request's writes
/// and applies them only on success, so a request that panics has written nothing).
pub fn run_job(handler: &dyn Handler, job: &Job, tx: &mut dyn Tx, env: &dyn Env) -> Response {
    catch_unwind(AssertUnwindSafe(|| match &job.prepared {
        Some(p) => handler.handle_prepared(p, &job.req, tx, env),
        None => handler.handle(&job.req, tx, env),
    }))
    .unwrap_or_else(|_| Service::internal_error("request panicked"))
}

enum Msg {
    Write(Box<Job>, oneshot::Sender<Response>),
    Stop,
}

/// Whether the writer can still serve; shared with the HTTP side for `/health` and shutdown.
#[derive(Default)]
pub struct Health {
    failed: AtomicBool,
    notify: Notify,
}

impl Health {
    pub fn is_ok(&self) -> bool {
        !self.failed.load(Ordering::SeqCst)
    }

    fn fail(&self) {
        self.failed.store(true, Ordering::SeqCst);
        self.notify.notify_waiters();
        // A waiter that registers later still sees it.
        self.notify.notify_one();
    }

    /// Resolves once the writer has failed.
    pub async fn failed(&self) {
        while self.is_ok() {
            self.notify.notified().await;
        }
    }
}

/// How many requests each group commit carried.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct BatchStats {
    pub commits: u64,
    pub requests: u64,
    pub max_batch: usize,
    /// `histogram[i]` counts batches of 2^i ..= 2^(i+1)-1 requests.
    pub histogram: [u64; 16],
}

impl BatchStats {
    /// A batch of `size` requests; one that wrote nothing was not committed and counts no commit.
    fn record(&mut self, size: usize, committed: bool) {
        self.requests += size as u64;
        if !committed {
            return;
        }
        self.commits += 1;
        self.max_batch = self.max_batch.max(size);
        let bucket = (usize::BITS - 1 - size.max(1).leading_zeros()) as usize;
        self.histogram[bucket.min(15)] += 1;
    }

    pub fn mean_batch(&self) -> f64 {
        if self.commits == 0 {
            0.0
        } else {
            self.requests as f64 / self.commits as f64
        }
    }

    /// One line for shutdown: total commits, write requests, mean and max batch, and the histogram.
    pub fn summary(&self) -> String {
        let buckets: Vec<String> = self
            .histogram
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(i, n)| {
                let (lo, hi) = (1usize << i, (1usize << (i + 1)) - 1);
                if lo == hi {
                    format!("{lo}:{n}")
                } else {
                    format!("{lo}-{hi}:{n}")
                }
            })
            .collect();
        format!(
            "group commit summary: {} commits, {} write requests, mean batch {:.2}, max batch {}, batches by size [{}]",
            self.commits,
            self.requests,
            self.mean_batch(),
            self.max_batch,
            buckets.join(" ")
        )
    }
}

/// The sending side, cloned into every connection.
#[derive(Clone)]
pub struct WriterHandle {
    tx: mpsc::Sender<Msg>,
    health: Arc<Health>,
}

impl WriterHandle {
    /// Queues a write request and waits until it is durable (or failed). A writer that is gone
    /// (failed or shutting down) answers 503.
    pub async fn submit(&self, job: Job) -> Response {
        let (reply, answer) = oneshot::channel();
        if self
            .tx
            .send(Msg::Write(Box::new(job), reply))
            .await
            .is_err()
        {
            return Service::unavailable("The writer is not running");
        }
        answer
            .await
            .unwrap_or_else(|_| Service::unavailable("The writer stopped before answering"))
    }

    pub fn health(&self) -> &Arc<Health> {
        &self.health
    }
}

pub struct Writer {
    handle: WriterHandle,
    thread: JoinHandle<BatchStats>,
}

/// Queue depth before submitters wait: a bound keeps memory flat under overload.
const QUEUE: usize = 4096;

impl Writer {
    pub fn start<S: BatchStore, H: Handler>(
        db: Arc<S>,
        handler: Arc<H>,
        env: Arc<dyn Env + Send + Sync>,
        max_batch: usize,
    ) -> std::io::Result<Writer> {
        let (tx, rx) = mpsc::channel(QUEUE);
        let max_batch = max_batch.max(1);
        let health = Arc::new(Health::default());
        let thread_health = health.clone();
        let thread = thread::Builder::new()
            .name("cards-writer".into())
            .spawn(move || {
                supervise(&thread_health, || {
                    run(&*db, &*handler, &*env, rx, max_batch, &thread_health)
                })
            })?;
        Ok(Writer {
            handle: WriterHandle { tx, health },
            thread,
        })
    }

    pub fn handle(&self) -> WriterHandle {
        self.handle.clone()
    }

    /// Lets every request queued so far be committed and answered, then stops the thread.
    pub fn stop(self) -> BatchStats {
        // try_send: never block shutdown on a full queue; a dropped sender set also stops the loop.
        let Writer { handle, thread } = self;
        let stop = handle.tx.try_send(Msg::Stop);
        drop(handle);
        if stop.is_err() {
            debug!("writer queue full at shutdown; it stops when the last sender goes");
        }
        thread.join().unwrap_or_else(|_| {
            error!("the writer thread panicked");
            BatchStats::default()
        })
    }
}

/// Runs the writer loop; a panic that escapes it, or a fatal storage fault it reports, marks the
/// writer failed (the queue's receiver is dropped with the loop, so later writes answer 503).
fn supervise(health: &Health, run: impl FnOnce() -> (BatchStats, bool)) -> BatchStats {
    match catch_unwind(AssertUnwindSafe(run)) {
        Ok((stats, false)) => stats,
        Ok((stats, true)) => {
            error!("the writer stopped on a storage fault; exiting so the data file is reopened");
            health.fail();
            stats
        }
        Err(_) => {
            error!("the writer thread panicked; exiting");
            health.fail();
            BatchStats::default()
        }
    }
}

/// The writer loop; returns its stats and whether it stopped on a fatal storage fault.
fn run(
    db: &dyn BatchStore,
    handler: &dyn Handler,
    env: &dyn Env,
    mut rx: mpsc::Receiver<Msg>,
    max_batch: usize,
    health: &Health,
) -> (BatchStats, bool) {
    let mut stats = BatchStats::default();
    let mut requests: Vec<Box<Job>> = Vec::with_capacity(max_batch);
    let mut replies: Vec<oneshot::Sender<Response>> = Vec::with_capacity(max_batch);
    let mut stopping = false;
    while !stopping {
        match rx.blocking_recv() {
            Some(Msg::Write(req, reply)) => {
                requests.push(req);
                replies.push(reply);
            }
            Some(Msg::Stop) | None => break,
        }
        while requests.len() < max_batch {
            match rx.try_recv() {
                Ok(Msg::Write(req, reply)) => {
                    requests.push(req);
                    replies.push(reply);
                }
                Ok(Msg::Stop) => {
                    stopping = true;
                    break;
                }
                Err(_) => break,
            }
        }
        let done = db.commit_batch(handler, env, &requests);
        stats.record(requests.len(), done.committed);
        let (responses, fatal) = (done.responses, done.fatal);
        debug!(batch = requests.len(), "group commit");
        if fatal {
            // Before anyone hears the 500: a client that then asks /health must see the fault.
            health.fail();
        }
        // Only now, after the commit returned, does any client hear back; the bodies' budget is
        // released with them.
        for job in requests.drain(..) {
            drop(job.budget);
        }
        for (reply, response) in replies.drain(..).zip(responses) {
            let _ = reply.send(response);
        }
        if fatal {
            return (stats, true);
        }
    }
    (stats, false)
}

/// Runs `requests` in order in one redb write transaction and commits it (a batch that wrote nothing
/// is not committed: no fsync). Each request sees the writes of the ones before it. A storage failure
/// anywhere fails the whole batch: nothing is committed and every request gets 500.
fn commit_batch(
    db: &Database,
    handler: &dyn Handler,
    env: &dyn Env,
    requests: &[Box<Job>],
) -> (Vec<Response>, bool, bool) {
    let all_failed = || {
        requests
            .iter()
            .map(|_| Service::internal_error("storage failure in group commit"))
            .collect()
    };
    let txn = match db.begin_write() {
        Ok(t) => t,
        Err(e) => {
            error!(error = %e, "cannot begin write transaction");
            return (all_failed(), true, false);
        }
    };
    let mut responses = Vec::with_capacity(requests.len());
    let (storage_failed, wrote) = match WriteAdapter::open(&txn) {
        Ok(mut adapter) => {
            for job in requests {
                responses.push(run_job(handler, job, &mut adapter, env));
            }
            (adapter.failed(), adapter.wrote())
        }
        Err(e) => {
            error!(error = %e, "cannot open table in write transaction");
            (true, false)
        }
    };
    if storage_failed || !wrote {
        if storage_failed {
            error!(
                batch = requests.len(),
                "storage error in group commit; batch aborted"
            );
        }
        if let Err(e) = txn.abort() {
            error!(error = %e, "abort failed");
        }
        if !storage_failed {
            return (responses, false, false);
        }
        // A latched I/O error fails the next transaction too; a one-off failure does not.
        let latched = db.begin_write().map(|t| t.abort()).is_err();
        return (all_failed(), latched, false);
    }
    match txn.commit() {
        Ok(()) => (responses, false, true),
        Err(e) => {
            // After a failed fsync the file's state is unknown: never write on without a reopen.
            error!(error = %e, batch = requests.len(), "group commit failed");
            (all_failed(), true, false)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::{self, ReadAdapter};
    use card_core::env::DeterministicEnv;
    use card_core::storage::{Overlay, scan_prefix};
    use card_core::{Method, StoreError};

    /// Stores body -> "1" under "k/", panics on "panic", fails storage on "fail", answers 409 on a
    /// duplicate (to show each request sees the ones before it in the same batch).
    struct KvHandler;

    impl Handler for KvHandler {
        fn handle(&self, req: &Request, tx: &mut dyn Tx, _env: &dyn Env) -> Response {
            let key = [b"k/".as_slice(), &req.body].concat();
            match req.body.as_slice() {
                b"panic" => panic!("asked to"),
                b"fail" => {
                    let _ = tx.put(storage::FAIL_KEY, b"");
                    return Response::bytes(500, "text/plain", Vec::new());
                }
                _ => {}
            }
            let mut o = Overlay::new(tx);
            if o.get(&key).ok().flatten().is_some() {
                return Response::bytes(409, "text/plain", Vec::new());
            }
            let _ = o.put(&key, b"1");
            match o.commit() {
                Ok(()) => Response::bytes(201, "text/plain", Vec::new()),
                Err(StoreError(_)) => Response::bytes(500, "text/plain", Vec::new()),
            }
        }
    }

    fn post(body: &str) -> Request {
        Request::new(Method::Post, "/kv").body(body.as_bytes().to_vec())
    }

    fn start(dir: &tempfile::TempDir, max_batch: usize) -> (Arc<Database>, Writer) {
        let db = Arc::new(storage::open(&dir.path().join("w.redb")).unwrap());
        let writer = Writer::start(
            db.clone(),
            Arc::new(KvHandler),
            Arc::new(DeterministicEnv::default()),
            max_batch,
        )
        .unwrap();
        (db, writer)
    }

    fn stored(db: &Database) -> usize {
        let mut r = ReadAdapter::begin(db).unwrap();
        scan_prefix(&mut r, b"k/").unwrap().len()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn concurrent_writes_are_all_answered_and_batched() {
        let dir = tempfile::tempdir().unwrap();
        let (db, writer) = start(&dir, 256);
        let handle = writer.handle();
        let tasks: Vec<_> = (0..300)
            .map(|i| {
                let h = handle.clone();
                let body = match i {
                    17 => "panic".to_string(),
                    // A duplicate of 3: exactly one of the pair wins.
                    18 => "3".to_string(),
                    _ => i.to_string(),
                };
                tokio::spawn(async move { h.submit(Job::plain(post(&body))).await.status })
            })
            .collect();
        let mut statuses = Vec::new();
        for t in tasks {
            statuses.push(t.await.unwrap());
        }
        let count = |s: u16| statuses.iter().filter(|x| **x == s).count();
        assert_eq!(count(201), 298, "{statuses:?}");
        assert_eq!(count(409), 1);
        assert_eq!(count(500), 1);
        assert_eq!(statuses[17], 500);
        let stats = writer.stop();
        assert_eq!(stats.requests, 300);
        assert!(stats.commits >= 1 && stats.commits <= 300);
        // 300 concurrent submitters against an fsync per commit: some commit must carry several.
        assert!(stats.max_batch > 1, "{stats:?}");
        assert_eq!(stats.histogram.iter().sum::<u64>(), stats.commits);
        assert_eq!(stored(&db), 298);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_storage_failure_fails_the_whole_batch_and_commits_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let (db, writer) = start(&dir, 256);
        let h = writer.handle();
        // Sent together so they most likely share a batch; either way, no good write may be lost
        // and the failing one must fail.
        let (a, b, c) = tokio::join!(
            h.submit(Job::plain(post("a"))),
            h.submit(Job::plain(post("fail"))),
            h.submit(Job::plain(post("c")))
        );
        assert_eq!(b.status, 500);
        let stats = writer.stop();
        let ok = [a.status, c.status].iter().filter(|s| **s == 201).count();
        assert_eq!(stored(&db), ok, "201 answered exactly for what is stored");
        assert_eq!(stats.requests, 3);
    }

    #[test]
    fn storage_failure_aborts_the_batch() {
        let dir = tempfile::tempdir().unwrap();
        let db = storage::open(&dir.path().join("w.redb")).unwrap();
        let env = DeterministicEnv::default();
        let jobs = |bodies: &[&str]| -> Vec<Box<Job>> {
            bodies
                .iter()
                .map(|b| Box::new(Job::plain(post(b))))
                .collect()
        };
        let (out, fatal, _) = commit_batch(&db, &KvHandler, &env, &jobs(&["a", "fail", "c"]));
        assert!(!fatal, "a one-off failure is not latched");
        assert!(out.iter().all(|r| r.status == 500));
        assert_eq!(stored(&db), 0);
        // A panicking request alone does not fail the batch.
        let (out, _, committed) = commit_batch(&db, &KvHandler, &env, &jobs(&["a", "panic", "a"]));
        assert!(committed);
        let statuses: Vec<u16> = out.iter().map(|r| r.status).collect();
        assert_eq!(statuses, vec![201, 500, 409]);
        assert_eq!(stored(&db), 1);
        // A batch that wrote nothing (a duplicate: 409) is not committed.
        let (out, fatal, committed) = commit_batch(&db, &KvHandler, &env, &jobs(&["a"]));
        assert_eq!((out[0].status, fatal, committed), (409, false, false));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn max_batch_one_commits_each_request_alone() {
        let dir = tempfile::tempdir().unwrap();
        let (db, writer) = start(&dir, 1);
        let h = writer.handle();
        let tasks: Vec<_> = (0..20)
            .map(|i| {
                let h = h.clone();
                tokio::spawn(async move { h.submit(Job::plain(post(&i.to_string()))).await.status })
            })
            .collect();
        for t in tasks {
            assert_eq!(t.await.unwrap(), 201);
        }
        let stats = writer.stop();
        assert_eq!(
            (stats.commits, stats.requests, stats.max_batch),
            (20, 20, 1)
        );
        assert_eq!(stored(&db), 20);
    }

    /// The real service through the writer: concurrent account creations, one invalid among them.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn real_service_creates_accounts_in_batches() {
        let dir = tempfile::tempdir().unwrap();
        let db = Arc::new(storage::open(&dir.path().join("s.redb")).unwrap());
        let env: Arc<DeterministicEnv> = Arc::new(DeterministicEnv::default());
        let key = "test-key-0123456789";
        let config = card_core::Config {
            api_keys: card_core::domain::api_keys::ConfiguredKeys::parse_list(&format!(
                "{key}=acme"
            ))
            .unwrap(),
            token_ttl_secs: 120,
            vault_key: Some([7; 32]),
            ..card_core::Config::default()
        };
        let service = Arc::new(Service::new(config, &*env));
        let writer = Writer::start(db.clone(), service.clone(), env.clone(), 256).unwrap();
        let h = writer.handle();
        let tasks: Vec<_> = (0..40)
            .map(|i| {
                let h = h.clone();
                let body = if i == 5 {
                    r#"{"ownerType":"user","name":"Bad","type":"checking","category":"fiat"}"#.to_string()
                } else {
                    format!(
                        r#"{{"ownerType":"user","name":"A{i}","type":"checking","category":"fiat","currency":"USD"}}"#
                    )
                };
                let req = Request::new(Method::Post, "/accounts")
                    .header("x-api-key", key)
                    .header("content-type", "application/json")
                    .body(body);
                tokio::spawn(async move { h.submit(Job::plain(req)).await.status })
            })
            .collect();
        let mut statuses = Vec::new();
        for t in tasks {
            statuses.push(t.await.unwrap());
        }
        assert_eq!(statuses[5], 400, "{statuses:?}");
        assert_eq!(
            statuses.iter().filter(|s| **s == 201).count(),
            39,
            "{statuses:?}"
        );
        assert_eq!(writer.stop().requests, 40);

        // A read transaction sees every committed account.
        let list = Request::new(Method::Get, "/accounts?limit=100").header("x-api-key", key);
        assert_eq!(Service::access(&list), card_core::Access::Read);
        let mut r = ReadAdapter::begin(&db).unwrap();
        let resp = service.handle(&list, &mut r, &*env);
        assert_eq!(resp.status, 200);
        let v: serde_json::Value = serde_json::from_slice(&resp.body).unwrap();
        assert_eq!(v["data"].as_array().map(Vec::len), Some(39), "{v}");
    }

    #[test]
    fn a_panic_or_a_fatal_fault_marks_the_writer_failed() {
        let health = Health::default();
        assert!(health.is_ok());
        supervise(&health, || (BatchStats::default(), false));
        assert!(health.is_ok());
        supervise(&health, || panic!("outside catch_unwind"));
        assert!(!health.is_ok());
        let health = Health::default();
        supervise(&health, || (BatchStats::default(), true));
        assert!(!health.is_ok());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_failed_writer_answers_503_and_resolves_its_health_future() {
        let dir = tempfile::tempdir().unwrap();
        let (_db, writer) = start(&dir, 1);
        let h = writer.handle();
        // Simulate the loop ending on a fault: stop it, then mark it failed.
        writer.stop();
        h.health().fail();
        h.health().failed().await;
        assert_eq!(h.submit(Job::plain(post("x"))).await.status, 503);
    }

    #[test]
    fn summary_line() {
        let mut s = BatchStats::default();
        for n in [1, 3, 3, 8] {
            s.record(n, true);
        }
        s.record(2, false);
        assert_eq!(
            s.summary(),
            "group commit summary: 4 commits, 17 write requests, mean batch 4.25, max batch 8, batches by size [1:1 2-3:2 8-15:1]"
        );
    }
}
