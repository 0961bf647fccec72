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
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::{self, JoinHandle};

use card_core::http::Prepared;
use card_core::{Env, Request, Response, Service, Tx};
use tokio::sync::{Notify, OwnedSemaphorePermit, mpsc, oneshot, watch};
use tracing::{debug, error};

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
    /// The responses wait until the store's log is durable through this batch (None: they are
    /// durable already).
    pub settle_at: Option<u64>,
}

/// A store the writer commits batches to.
pub trait BatchStore: Send + Sync + 'static {
    /// Runs `jobs` in order, each seeing the writes of the ones before it, and commits.
    fn commit_batch(&self, handler: &dyn Handler, env: &dyn Env, jobs: &[Box<Job>]) -> Batch;

    /// How far its batches are visible and durable, for a store whose commits become durable
    /// later (through [`BatchStore::sync`]).
    fn progress(&self) -> Option<&Arc<Progress>> {
        None
    }

    /// Makes every batch committed so far durable.
    fn sync(&self) -> std::io::Result<()> {
        Ok(())
    }

    /// After the last batch, on a clean stop.
    fn close(&self) {}
}

/// How far the writer's batches are visible to reads and how far they are durable.
///
/// A read may see a batch that is committed but whose log record is still being fsynced. Its answer
/// waits ([`Progress::settled`]) until that batch is durable, so no client hears of a write that a
/// crash could still take back.
pub struct Progress {
    visible: AtomicU64,
    /// None once the log failed: nothing becomes durable any more.
    durable: watch::Sender<Option<u64>>,
}

impl Progress {
    pub fn new(seq: u64) -> Progress {
        Progress {
            visible: AtomicU64::new(seq),
            durable: watch::Sender::new(Some(seq)),
        }
    }

    /// Before batch `seq` is committed.
    pub fn publish(&self, seq: u64) {
        self.visible.store(seq, Ordering::SeqCst);
    }

    fn durable_through(&self, seq: u64) {
        self.durable.send_modify(|d| {
            if let Some(d) = d {
                *d = (*d).max(seq);
            }
        });
    }

    fn is_durable(&self, seq: u64) -> bool {
        matches!(*self.durable.borrow(), Some(d) if d >= seq)
    }

    fn fail(&self) {
        self.durable.send_replace(None);
    }

    /// Resolves once everything visible now is durable: true, or false if it never will be.
    pub async fn settled(&self) -> bool {
        let target = self.visible.load(Ordering::SeqCst);
        if self.is_durable(target) {
            return true;
        }
        let mut rx = self.durable.subscribe();
        match rx.wait_for(|d| d.is_none_or(|d| d >= target)).await {
            Ok(d) => d.is_some(),
            Err(_) => false,
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
    progress: Arc<Progress>,
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

    /// For an answer read from a snapshot: waits until every write it may have seen is durable.
    /// None when it will never be (the log failed): answer that instead.
    pub async fn settled(&self) -> Option<Response> {
        if self.progress.settled().await {
            None
        } else {
            Some(Service::unavailable("Storage cannot make writes durable"))
        }
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
        let progress = db
            .progress()
            .cloned()
            .unwrap_or_else(|| Arc::new(Progress::new(0)));
        let thread_health = health.clone();
        let thread = thread::Builder::new()
            .name("cards-writer".into())
            .spawn(move || {
                supervise(&thread_health, || {
                    let stopped = run(&*db, &*handler, &*env, rx, max_batch, &thread_health);
                    if !stopped.1 && thread_health.is_ok() {
                        db.close();
                    }
                    stopped
                })
            })?;
        Ok(Writer {
            handle: WriterHandle {
                tx,
                health,
                progress,
            },
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

/// A committed batch's answers, waiting for its log record to be durable.
struct Pending {
    seq: u64,
    replies: Vec<(oneshot::Sender<Response>, Response)>,
    budgets: Vec<Option<OwnedSemaphorePermit>>,
}

impl Pending {
    fn answer(self) {
        drop(self.budgets);
        for (reply, response) in self.replies {
            let _ = reply.send(response);
        }
    }

    fn fail(self) {
        drop(self.budgets);
        for (reply, _) in self.replies {
            let _ = reply.send(Service::internal_error(
                "storage failure making a batch durable",
            ));
        }
    }
}

/// The writer loop; returns its stats and whether it stopped on a fatal storage fault. Batches whose
/// answers must wait for the store's log go to the syncer thread, which fsyncs the log once for
/// every batch that reached it meanwhile, while this loop already runs the next batch.
fn run(
    db: &dyn BatchStore,
    handler: &dyn Handler,
    env: &dyn Env,
    rx: mpsc::Receiver<Msg>,
    max_batch: usize,
    health: &Health,
) -> (BatchStats, bool) {
    let progress = db.progress();
    let (to_syncer, pending) = std::sync::mpsc::channel::<Pending>();
    thread::scope(|scope| {
        if let Some(progress) = progress {
            let syncer = thread::Builder::new()
                .name("cards-syncer".into())
                .spawn_scoped(scope, move || sync_loop(db, progress, pending, health));
            if let Err(e) = syncer {
                error!(error = %e, "cannot start the syncer thread");
                health.fail();
                return (BatchStats::default(), true);
            }
        }
        // Dropping the sender when the loop ends lets the syncer finish and the scope join it.
        write_loop(db, handler, env, rx, max_batch, health, to_syncer)
    })
}

/// Makes the log durable for whatever batches are waiting, then answers them, in order.
fn sync_loop(
    db: &dyn BatchStore,
    progress: &Progress,
    pending: std::sync::mpsc::Receiver<Pending>,
    health: &Health,
) {
    while let Ok(first) = pending.recv() {
        let mut ready = vec![first];
        ready.extend(pending.try_iter());
        let through = ready.iter().map(|p| p.seq).max().unwrap_or(0);
        if !progress.is_durable(through) {
            if let Err(e) = db.sync() {
                // Nothing more becomes durable: fail what waits and all that comes.
                error!(error = %e, "cannot fsync the write-ahead log");
                progress.fail();
                health.fail();
                ready.into_iter().for_each(Pending::fail);
                pending.iter().for_each(Pending::fail);
                return;
            }
            progress.durable_through(through);
        }
        ready.into_iter().for_each(Pending::answer);
    }
}

fn write_loop(
    db: &dyn BatchStore,
    handler: &dyn Handler,
    env: &dyn Env,
    mut rx: mpsc::Receiver<Msg>,
    max_batch: usize,
    health: &Health,
    to_syncer: std::sync::mpsc::Sender<Pending>,
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
        if !health.is_ok() {
            // The syncer failed: nothing committed now could become durable.
            for reply in replies.drain(..) {
                let _ = reply.send(Service::unavailable("The writer cannot serve"));
            }
            return (stats, true);
        }
        let done = db.commit_batch(handler, env, &requests);
        stats.record(requests.len(), done.committed);
        debug!(batch = requests.len(), "group commit");
        if done.fatal {
            // Before anyone hears the 500: a client that then asks /health must see the fault.
            health.fail();
        }
        // Only now, after the commit returned (and, for a logged store, once the syncer has made
        // the log durable), does any client hear back; the bodies' budget is released with them.
        let batch = Pending {
            seq: done.settle_at.unwrap_or(0),
            replies: replies.drain(..).zip(done.responses).collect(),
            budgets: requests
                .drain(..)
                .map(|mut job| job.budget.take())
                .collect(),
        };
        let waits = match (done.settle_at, db.progress()) {
            (Some(seq), Some(progress)) => !progress.is_durable(seq),
            _ => false,
        };
        if !waits {
            batch.answer();
        } else if let Err(unsent) = to_syncer.send(batch) {
            unsent.0.fail();
        }
        if done.fatal {
            return (stats, true);
        }
    }
    (stats, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logged::LoggedDb;
    use crate::storage::{self, ReadAdapter};
    use card_core::env::DeterministicEnv;
    use card_core::storage::{Overlay, scan_prefix};
    use card_core::{Method, StoreError};
    use redb::Database;
    use std::time::Duration;

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

    /// The data file `name` in `dir` with its log, as `serve` opens it.
    fn logged(dir: &tempfile::TempDir, name: &str) -> (Arc<Database>, LoggedDb) {
        let path = dir.path().join(name);
        let db = Arc::new(storage::open(&path).unwrap());
        let logged = LoggedDb::open(db.clone(), &path, Duration::from_secs(1)).unwrap();
        (db, logged)
    }

    fn start(dir: &tempfile::TempDir, max_batch: usize) -> (Arc<Database>, Writer) {
        let (db, logged) = logged(dir, "w.redb");
        let writer = Writer::start(
            Arc::new(logged),
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
        let (db, logged) = logged(&dir, "w.redb");
        let env = DeterministicEnv::default();
        let jobs = |bodies: &[&str]| -> Vec<Box<Job>> {
            bodies
                .iter()
                .map(|b| Box::new(Job::plain(post(b))))
                .collect()
        };
        let run = |bodies: &[&str]| {
            let b = logged.commit_batch(&KvHandler, &env, &jobs(bodies));
            (b.responses, b.fatal, b.committed)
        };
        let (out, fatal, _) = run(&["a", "fail", "c"]);
        assert!(!fatal, "a one-off failure is not latched");
        assert!(out.iter().all(|r| r.status == 500));
        assert_eq!(stored(&db), 0);
        // A panicking request alone does not fail the batch.
        let (out, _, committed) = run(&["a", "panic", "a"]);
        assert!(committed);
        let statuses: Vec<u16> = out.iter().map(|r| r.status).collect();
        assert_eq!(statuses, vec![201, 500, 409]);
        assert_eq!(stored(&db), 1);
        // A batch that wrote nothing (a duplicate: 409) is not committed.
        let (out, fatal, committed) = run(&["a"]);
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
        let (db, logged) = logged(&dir, "s.redb");
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
        let writer = Writer::start(Arc::new(logged), service.clone(), env.clone(), 256).unwrap();
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

    #[tokio::test]
    async fn a_read_waits_until_what_it_could_see_is_durable() {
        let p = Arc::new(Progress::new(4));
        assert!(
            p.settled().await,
            "nothing published beyond what is durable"
        );
        p.publish(5);
        let waiting = tokio::spawn({
            let p = p.clone();
            async move { p.settled().await }
        });
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        assert!(!waiting.is_finished(), "batch 5 is visible but not durable");
        p.durable_through(5);
        assert!(waiting.await.unwrap());
        p.publish(6);
        p.fail();
        assert!(!p.settled().await, "a failed log never settles batch 6");
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
