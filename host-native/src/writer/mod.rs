//! Group commit: the threads that drive [`GroupCommit`]. Connections queue writes
//! ([`WriterHandle::submit`]); one writer thread takes each batch the state machine hands out, runs
//! it in ONE transaction of the store (redb or PostgreSQL, `crate::store`) and reports it
//! committed; the store reports how far it is durable ([`Progress`], from its own syncer thread
//! when it has one). Whoever causes a state change delivers what it releases: the answers that may
//! go out, those that never will, and the writes refused.
//!
//! A fatal store fault (a failed commit or log append, a latched I/O error) or a panic of the writer
//! thread marks the writer failed: queued and waiting writes are answered at once, reads waiting
//! for durability answer 503, `/health` answers 503 and the process exits non-zero, so a supervisor
//! restarts it on a reopened data file.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::Instant;

use card_core::{Env, Response, Service, Tx, Validated};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore, oneshot};
use tracing::error;

pub mod machine;

use self::machine::{BatchStats, GroupCommit, Next, Output, Refusal, Window};
use crate::store::{Batch, BatchStore, Committed, Fatal, Progress, Settle};

/// What the writer runs for each request. `Service` in production; tests may plug in their own.
pub trait Handler: Send + Sync + 'static {
    fn handle(&self, validated: &Validated, tx: &mut dyn Tx, env: &dyn Env) -> Response;
}

impl Handler for Service {
    fn handle(&self, validated: &Validated, tx: &mut dyn Tx, env: &dyn Env) -> Response {
        Service::handle(self, validated, tx, env)
    }
}

/// One queued write, and the share of the host's body-byte budget its body holds until it is
/// answered.
pub struct Job {
    pub work: Work,
    pub budget: Option<OwnedSemaphorePermit>,
}

/// What a queued write runs.
pub enum Work {
    /// A client's request past its stages (`Service::precheck`, `Service::validate`): authenticated,
    /// its body parsed into its command. A batch the store re-runs runs it again from the same.
    Request(Box<Validated>),
    /// A write of the host's own (the webhook delivery task's, a rotation step), run in the batch's
    /// transaction like any request.
    Internal(Internal),
}

/// A host's own write: it must write all or nothing (an error leaves `tx` as it was).
pub type Internal = Arc<dyn Fn(&mut dyn Tx, &dyn Env) -> Response + Send + Sync>;

impl Job {
    /// What a host's own write answers when it succeeded (its result travels beside the answer).
    pub fn done() -> Response {
        Response::bytes(200, "text/plain", Vec::new())
    }

    /// A client's validated request, holding `budget` until it is answered.
    pub fn request(validated: Validated, budget: Option<OwnedSemaphorePermit>) -> Job {
        Job {
            work: Work::Request(Box::new(validated)),
            budget,
        }
    }

    /// A host's own write.
    pub fn internal(write: Internal) -> Job {
        Job {
            work: Work::Internal(write),
            budget: None,
        }
    }
}

/// Runs one queued request on `tx`, turning a panic into a 500 (the core buffers a request's writes
/// and applies them only on success, so a request that panics has written nothing).
pub fn run_job(handler: &dyn Handler, job: &Job, tx: &mut dyn Tx, env: &dyn Env) -> Response {
    catch_unwind(AssertUnwindSafe(|| match &job.work {
        Work::Request(validated) => handler.handle(validated, tx, env),
        Work::Internal(write) => write(tx, env),
    }))
    .unwrap_or_else(|_| Service::internal_error("request panicked"))
}

/// A write in the queue, with where its answer goes.
struct Queued {
    job: Job,
    reply: oneshot::Sender<Response>,
    /// Its place in the bounded queue, given back when it is answered.
    _slot: OwnedSemaphorePermit,
}

/// A committed write's answer, held until the state machine lets it go out.
struct Reply {
    reply: oneshot::Sender<Response>,
    response: Response,
    /// Released with the answer: the body's budget and the queue slot.
    _held: (Option<OwnedSemaphorePermit>, OwnedSemaphorePermit),
}

type Machine = GroupCommit<Queued, Reply>;

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

/// The state machine and what wakes its threads; the store's [`Progress`].
pub struct Pipeline {
    inner: Mutex<Inner>,
    /// Wakes the writer thread when there is work or it should stop.
    work: Condvar,
    health: Health,
}

struct Inner {
    machine: Machine,
    /// The writer thread waits on `work`: a submit must wake it.
    writer_idle: bool,
    /// The writer thread waits out the commit window: a submit that fills the batch wakes it.
    writer_windowed: bool,
}

/// Queue depth before submitters wait: a bound keeps memory flat under overload.
const QUEUE: usize = 4096;

impl Pipeline {
    #[cfg(test)]
    pub fn new(max_batch: usize) -> Arc<Pipeline> {
        Pipeline::with_window(max_batch, Window::OFF)
    }

    /// A pipeline whose batches wait out a commit window ([`Window`]).
    pub fn with_window(max_batch: usize, window: Window) -> Arc<Pipeline> {
        Arc::new(Pipeline {
            inner: Mutex::new(Inner {
                machine: GroupCommit::new(max_batch, 0).with_window(window),
                writer_idle: false,
                writer_windowed: false,
            }),
            work: Condvar::new(),
            health: Health::default(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Marks the writer failed before anyone hears of it, then delivers what the failure released.
    fn fail(&self, cause: &str) {
        let out = {
            let mut inner = self.lock();
            inner.machine.failed(cause);
            inner.machine.take_output()
        };
        self.health.fail();
        self.work.notify_one();
        deliver(out);
    }

    /// Write requests queued, not yet in a batch.
    pub fn queued(&self) -> usize {
        self.lock().machine.queued()
    }

    /// Counts of the batches so far.
    pub fn stats(&self) -> BatchStats {
        self.lock().machine.stats().clone()
    }
}

impl Progress for Pipeline {
    fn synced(&self, point: u64) {
        let out = {
            let mut inner = self.lock();
            inner.machine.synced(point);
            inner.machine.take_output()
        };
        deliver(out);
    }

    fn failed(&self, cause: &Fatal) {
        error!(cause = %cause, "the store failed; writes stop");
        self.fail(&cause.0);
    }
}

/// Sends what the state machine released; outside its lock.
fn deliver(out: Output<Queued, Reply>) {
    for a in out.answers {
        let _ = a.reply.send(a.response);
    }
    for a in out.lost {
        let _ = a.reply.send(Service::internal_error(
            "storage failure making a batch durable",
        ));
    }
    for q in out.refused {
        let _ = q
            .reply
            .send(Service::unavailable("The writer cannot serve"));
    }
}

/// The sending side, cloned into every connection.
#[derive(Clone)]
pub struct WriterHandle {
    pipeline: Arc<Pipeline>,
    slots: Arc<Semaphore>,
}

impl WriterHandle {
    /// Queues a write request and waits until it is durable (or failed). A writer that is gone
    /// (failed or shutting down) answers 503.
    pub async fn submit(&self, job: Job) -> Response {
        let Ok(slot) = self.slots.clone().acquire_owned().await else {
            return Service::unavailable("The writer is not running");
        };
        let (reply, answer) = oneshot::channel();
        let queued = Queued {
            job,
            reply,
            _slot: slot,
        };
        let wake = {
            let mut inner = self.pipeline.lock();
            match inner.machine.submit(queued) {
                Ok(_) => inner.writer_idle || (inner.writer_windowed && inner.machine.full()),
                Err((_, Refusal::Failed)) => {
                    return Service::unavailable("The writer cannot serve");
                }
                Err((_, Refusal::Stopping)) => {
                    return Service::unavailable("The writer is not running");
                }
            }
        };
        if wake {
            self.pipeline.work.notify_one();
        }
        answer
            .await
            .unwrap_or_else(|_| Service::unavailable("The writer stopped before answering"))
    }

    pub fn health(&self) -> &Health {
        &self.pipeline.health
    }

    /// Write requests queued, not yet in a batch (a metrics gauge).
    pub fn queued(&self) -> usize {
        self.pipeline.queued()
    }

    /// Writes submitted since the start (requests and the host's own): the delivery task paces its
    /// own writes when clients are writing.
    pub fn submitted(&self) -> u64 {
        self.pipeline.lock().machine.stats().submitted
    }

    /// For an answer read from a snapshot: Some(503) once the store failed, to answer instead. A
    /// snapshot holds only durable writes (redb's is taken at the durable point,
    /// `RedbFile::view`; PostgreSQL's commits are durable), so an answer never waits; but a failed
    /// store serves no more (the process is stopping, `/health` says so), as writes do not. An
    /// atomic load, not the pipeline's lock: every read asks.
    pub fn settled(&self) -> Option<Response> {
        (!self.pipeline.health.is_ok()).then(unsettled)
    }
}

fn unsettled() -> Response {
    Service::unavailable("Storage cannot make writes durable")
}

/// The writes of one batch, run by the store through the handler.
struct Jobs<'a> {
    handler: &'a dyn Handler,
    env: &'a dyn Env,
    jobs: &'a [Job],
}

impl Batch for Jobs<'_> {
    fn len(&self) -> usize {
        self.jobs.len()
    }

    fn run(&self, i: usize, tx: &mut dyn Tx) -> Response {
        run_job(self.handler, &self.jobs[i], tx, self.env)
    }
}

pub struct Writer {
    handle: WriterHandle,
    thread: JoinHandle<()>,
}

impl Writer {
    /// Starts the writer thread over `store`, reporting to `pipeline` (which a store with a syncer
    /// was given as its [`Progress`]).
    pub fn start<S: BatchStore, H: Handler>(
        pipeline: Arc<Pipeline>,
        store: Arc<S>,
        handler: Arc<H>,
        env: Arc<dyn Env + Send + Sync>,
    ) -> std::io::Result<Writer> {
        let driven = pipeline.clone();
        let thread = thread::Builder::new()
            .name("cards-writer".into())
            .spawn(move || {
                let ran = catch_unwind(AssertUnwindSafe(|| {
                    write_loop(&driven, &*store, &*handler, &*env)
                }));
                if ran.is_err() {
                    error!("the writer thread panicked; exiting");
                    driven.fail("the writer thread panicked");
                }
            })?;
        Ok(Writer {
            handle: WriterHandle {
                pipeline,
                slots: Arc::new(Semaphore::new(QUEUE)),
            },
            thread,
        })
    }

    pub fn handle(&self) -> WriterHandle {
        self.handle.clone()
    }

    /// Lets every request queued so far be committed and answered, then stops the thread.
    pub fn stop(self) -> BatchStats {
        let pipeline = &self.handle.pipeline;
        pipeline.lock().machine.stop();
        pipeline.work.notify_one();
        if self.thread.join().is_err() {
            error!("the writer thread panicked");
        }
        pipeline.stats()
    }
}

/// Takes batches until the state machine is finished (stopped or failed and drained).
fn write_loop(pipeline: &Pipeline, store: &dyn BatchStore, handler: &dyn Handler, env: &dyn Env) {
    while let Some(batch) = next_batch(pipeline) {
        let (jobs, replies): (Vec<Job>, Vec<_>) = batch
            .into_iter()
            .map(|q| (q.job, (q.reply, q._slot)))
            .unzip();
        let started = std::time::Instant::now();
        let done = store.commit_batch(&Jobs {
            handler,
            env,
            jobs: &jobs,
        });
        crate::metrics::batch(jobs.len(), started.elapsed());
        let Committed {
            responses,
            settle,
            wrote,
        } = match done {
            Ok(c) => c,
            Err(fatal) => {
                // Before anyone hears the 500: a client that then asks /health must see the fault.
                error!(cause = %fatal, batch = jobs.len(), "group commit failed; the writer stops");
                pipeline.fail(&fatal.0);
                Committed {
                    responses: jobs
                        .iter()
                        .map(|_| Service::internal_error("storage failure in group commit"))
                        .collect(),
                    settle: Settle::Now,
                    wrote: false,
                }
            }
        };
        let answers = replies
            .into_iter()
            .zip(jobs)
            .zip(responses)
            .map(|(((reply, slot), mut job), response)| Reply {
                reply,
                response,
                _held: (job.budget.take(), slot),
            })
            .collect();
        let out = {
            let mut inner = pipeline.lock();
            inner.machine.committed(answers, settle, wrote);
            inner.machine.take_output()
        };
        deliver(out);
    }
    if pipeline.health.is_ok() {
        store.close();
        // What a failed last checkpoint left waiting will never be answered otherwise.
        let waiting = pipeline.lock().machine.awaiting_sync();
        if waiting > 0 {
            pipeline.fail("stopped before every batch was durable");
        }
    }
}

fn next_batch(pipeline: &Pipeline) -> Option<Vec<Queued>> {
    let mut inner = pipeline.lock();
    loop {
        match inner.machine.next_batch_at(Instant::now()) {
            Next::Batch(batch) => return Some(batch),
            Next::Until(at) => {
                // The commit window: until `at`, or a submit that fills the batch, or a stop.
                inner.writer_windowed = true;
                let wait = at.saturating_duration_since(Instant::now());
                inner = match pipeline.work.wait_timeout(inner, wait) {
                    Ok((g, _)) => g,
                    Err(e) => e.into_inner().0,
                };
                inner.writer_windowed = false;
            }
            Next::Nothing => {
                if inner.machine.finished() {
                    return None;
                }
                inner.writer_idle = true;
                inner = pipeline.work.wait(inner).unwrap_or_else(|e| e.into_inner());
                inner.writer_idle = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::redb::logged::{Checkpoints, LoggedDb};
    use crate::store::redb::{self, ReadAdapter, RedbFile};
    use crate::store::wal::LogFile;
    use card_core::env::DeterministicEnv;
    use card_core::storage::{Overlay, scan_prefix};
    use card_core::{MemStore, Method, Request, StoreError};
    use std::sync::atomic::AtomicUsize;
    use std::time::Duration;

    /// A write that stores body -> "1" under "k/", panics on "panic", answers 409 on a duplicate
    /// (to show each request sees the ones before it in the same batch).
    fn kv(body: &str) -> Job {
        let key = [b"k/".as_slice(), body.as_bytes()].concat();
        let panics = body == "panic";
        Job::internal(Arc::new(move |tx: &mut dyn Tx, _: &dyn Env| {
            if panics {
                panic!("asked to");
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
        }))
    }

    fn open(dir: &tempfile::TempDir, name: &str) -> RedbFile {
        redb::open(&dir.path().join(name)).unwrap()
    }

    /// A writer over the data file `file`, as `serve` starts it.
    fn start_on(file: RedbFile, max_batch: usize) -> (Arc<RedbFile>, Writer) {
        start_checkpointing(file, max_batch, Checkpoints::every(Duration::from_secs(1)))
    }

    /// [`start_on`] with checkpoints as given.
    fn start_checkpointing(
        file: RedbFile,
        max_batch: usize,
        checkpoints: Checkpoints,
    ) -> (Arc<RedbFile>, Writer) {
        start_piped(file, Pipeline::new(max_batch), checkpoints)
    }

    /// [`start_checkpointing`] over `pipeline`.
    fn start_piped(
        file: RedbFile,
        pipeline: Arc<Pipeline>,
        checkpoints: Checkpoints,
    ) -> (Arc<RedbFile>, Writer) {
        let file = Arc::new(file);
        let db = LoggedDb::start(file.clone(), checkpoints, pipeline.clone()).unwrap();
        let writer = Writer::start(
            pipeline,
            db,
            Arc::new(Service::new(
                card_core::Config::default(),
                &DeterministicEnv::default(),
            )),
            Arc::new(DeterministicEnv::default()),
        )
        .unwrap();
        (file, writer)
    }

    fn start(dir: &tempfile::TempDir, max_batch: usize) -> (Arc<RedbFile>, Writer) {
        start_on(open(dir, "w.redb"), max_batch)
    }

    fn stored(file: &RedbFile) -> usize {
        let mut r = ReadAdapter::begin(&file.db).unwrap();
        scan_prefix(&mut r, b"k/").unwrap().len()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn concurrent_writes_are_all_answered_and_batched() {
        let dir = tempfile::tempdir().unwrap();
        let (file, writer) = start(&dir, 256);
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
                tokio::spawn(async move { h.submit(kv(&body)).await.status })
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
        // 300 concurrent submitters against one writer: some commit must carry several.
        assert!(stats.max_batch > 1, "{stats:?}");
        assert_eq!(stats.histogram.iter().sum::<u64>(), stats.commits);
        assert_eq!(stored(&file), 298);
    }

    /// With a commit window, writes that come one after another (each waiting for the one
    /// before) go in batches at least the window apart; a burst that fills the batch does not
    /// wait; a stop during the window ends it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_commit_window_spaces_small_batches() {
        let dir = tempfile::tempdir().unwrap();
        let wait = Duration::from_millis(20);
        let pipeline = Pipeline::with_window(256, Window { wait, batch: 8 });
        let (file, writer) = start_piped(
            open(&dir, "w.redb"),
            pipeline,
            Checkpoints::every(Duration::from_secs(1)),
        );
        let handle = writer.handle();
        let started = std::time::Instant::now();
        for i in 0..6 {
            assert_eq!(handle.submit(kv(&format!("s{i}"))).await.status, 201);
        }
        // The first goes at once; each later one waits for the window after the one before.
        assert!(started.elapsed() >= wait * 5, "{:?}", started.elapsed());
        let burst = std::time::Instant::now();
        let tasks: Vec<_> = (0..8)
            .map(|i| {
                let h = handle.clone();
                tokio::spawn(async move { h.submit(kv(&format!("b{i}"))).await.status })
            })
            .collect();
        for t in tasks {
            assert_eq!(t.await.unwrap(), 201);
        }
        // A full batch ends the window (the last batch was taken under `wait` ago); the
        // burst may still split, each part going when the batch before is done or full.
        assert!(burst.elapsed() < wait * 8, "{:?}", burst.elapsed());
        let last = tokio::spawn({
            let h = handle.clone();
            async move { h.submit(kv("last")).await.status }
        });
        // Queued (in the window), or already through if the burst took longer than it.
        while handle.queued() == 0 && !last.is_finished() {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        let stats = tokio::task::spawn_blocking(move || writer.stop())
            .await
            .unwrap();
        assert_eq!(last.await.unwrap(), 201);
        assert_eq!(stats.requests, 15);
        assert_eq!(stored(&file), 15);
    }

    /// Reads share a redb snapshot while the layers stay (`RedbFile::view`); each still sees every
    /// write answered before it, across the checkpoints (one after every batch here) that swap them.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn reads_see_every_answered_write_across_checkpoints() {
        let dir = tempfile::tempdir().unwrap();
        let every_batch = Checkpoints {
            interval: Duration::from_millis(1),
            bytes: 1,
            // The lowest priority `serve` offers: the writer then waits at the memtable's bound
            // (twice the checkpoint size) for a checkpointer that gets a core last.
            priority: crate::os_thread::Priority::Idle,
            // Paced as `serve` paces by default (at 1 ms, pauses of microseconds).
            spread_percent: 60,
            commit_keys: 4096,
            commit_bytes: 1 << 20,
        };
        let (file, writer) = start_checkpointing(open(&dir, "r.redb"), 8, every_batch);
        let h = writer.handle();
        for i in 0..200 {
            assert_eq!(h.submit(kv(&i.to_string())).await.status, 201);
            for _ in 0..3 {
                let mut view = file.view().unwrap();
                let seen = scan_prefix(&mut view, b"k/").unwrap().len();
                assert_eq!(seen, i + 1, "after write {i}");
            }
        }
        writer.stop();
        assert_eq!(stored(&file), 200);
    }

    /// Reads beside checkpoints in parts of two keys (a checkpoint after about every batch): each
    /// read sees every key of one whole batch (never part of one, though redb may hold part of a
    /// checkpoint under its snapshot), never an older batch than a read before it, and at least
    /// every batch answered before it began.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn reads_beside_checkpoints_in_parts_see_whole_batches_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let parts = Checkpoints {
            interval: Duration::from_millis(1),
            bytes: 1,
            commit_keys: 2,
            ..Checkpoints::every(Duration::from_millis(1))
        };
        let (file, writer) = start_checkpointing(open(&dir, "p.redb"), 8, parts);
        let h = writer.handle();
        let answered = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let done = Arc::new(AtomicBool::new(false));
        let readers: Vec<_> = (0..2)
            .map(|_| {
                let (file, answered, done) = (file.clone(), answered.clone(), done.clone());
                thread::spawn(move || {
                    let (mut last, mut reads) = (0u64, 0u64);
                    while !done.load(Ordering::SeqCst) {
                        let floor = answered.load(Ordering::SeqCst);
                        let rows = scan_prefix(&mut file.view().unwrap(), b"k/").unwrap();
                        let values: Vec<u64> = rows
                            .iter()
                            .map(|(_, v)| std::str::from_utf8(v).unwrap().parse().unwrap())
                            .collect();
                        let seen = values.first().copied().unwrap_or(0);
                        assert!(
                            values.is_empty()
                                || (values.len() == 10 && values.iter().all(|v| *v == seen)),
                            "part of a batch: {values:?}"
                        );
                        assert!(seen >= last, "went back from {last} to {seen}");
                        assert!(seen >= floor, "missed answered write {floor} (saw {seen})");
                        last = seen;
                        reads += 1;
                    }
                    reads
                })
            })
            .collect();
        for i in 1..=150u64 {
            let write: Internal = Arc::new(move |tx: &mut dyn Tx, _: &dyn Env| {
                for k in 0..10 {
                    tx.put(format!("k/{k}").as_bytes(), i.to_string().as_bytes())
                        .unwrap();
                }
                Job::done()
            });
            assert_eq!(h.submit(Job::internal(write)).await.status, 200);
            answered.store(i, Ordering::SeqCst);
        }
        done.store(true, Ordering::SeqCst);
        for r in readers {
            assert!(r.join().unwrap() > 0);
        }
        writer.stop();
        assert_eq!(stored(&file), 10);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn max_batch_one_commits_each_request_alone() {
        let dir = tempfile::tempdir().unwrap();
        let (file, writer) = start(&dir, 1);
        let h = writer.handle();
        let tasks: Vec<_> = (0..20)
            .map(|i| {
                let h = h.clone();
                tokio::spawn(async move { h.submit(kv(&i.to_string())).await.status })
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
        assert_eq!(stored(&file), 20);
    }

    /// The real service through the writer: concurrent account creations, one invalid among them.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn real_service_creates_accounts_in_batches() {
        let dir = tempfile::tempdir().unwrap();
        let file = Arc::new(open(&dir, "s.redb"));
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
        let pipeline = Pipeline::new(256);
        let db = LoggedDb::start(
            file.clone(),
            Checkpoints::every(Duration::from_secs(1)),
            pipeline.clone(),
        )
        .unwrap();
        let writer = Writer::start(pipeline, db, service.clone(), env.clone()).unwrap();
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
                // Its body judged in the write (the bad one answered by the writer).
                let pre = service.precheck(&req, &mut MemStore::new()).unwrap();
                let job = Job::request(Validated::deferred(pre, req), None);
                tokio::spawn(async move { h.submit(job).await.status })
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
        let mut r = ReadAdapter::begin(&file.db).unwrap();
        let resp = service.serve(&list, &mut r, &*env);
        assert_eq!(resp.status, 200);
        let v: serde_json::Value = serde_json::from_slice(&resp.body).unwrap();
        assert_eq!(v["data"].as_array().map(Vec::len), Some(39), "{v}");
    }

    /// A log whose fsyncs wait until released (and then fail, with `sync_fails`) and whose
    /// appends fail from the `fail_from`-th on: a disk that fills up while a sync is slow.
    struct Faulty {
        inner: Arc<dyn LogFile>,
        appends: AtomicUsize,
        fail_from: usize,
        sync_fails: bool,
        released: Mutex<bool>,
        release: Condvar,
    }

    impl Faulty {
        /// Over `file`'s first log, which it replaces.
        fn over(file: &mut RedbFile, fail_from: usize, sync_fails: bool) -> Arc<Faulty> {
            let faulty = Arc::new(Faulty {
                inner: file.logs[0].clone(),
                appends: AtomicUsize::new(0),
                fail_from,
                sync_fails,
                released: Mutex::new(false),
                release: Condvar::new(),
            });
            file.logs[0] = faulty.clone();
            faulty
        }

        fn release(&self) {
            *self.released.lock().unwrap() = true;
            self.release.notify_all();
        }

        /// Holds the fsyncs from now on.
        fn hold(&self) {
            *self.released.lock().unwrap() = false;
        }
    }

    impl LogFile for Faulty {
        fn append(&self, bytes: &[u8]) -> std::io::Result<()> {
            if self.appends.fetch_add(1, Ordering::SeqCst) + 1 >= self.fail_from {
                return Err(std::io::Error::other("no space left on device (injected)"));
            }
            self.inner.append(bytes)
        }
        fn sync(&self) -> std::io::Result<()> {
            let mut released = self.released.lock().unwrap();
            while !*released {
                released = self.release.wait(released).unwrap();
            }
            if self.sync_fails {
                return Err(std::io::Error::other("fsync failed (injected)"));
            }
            self.inner.sync()
        }
        fn start_over(&self) -> std::io::Result<()> {
            self.inner.start_over()
        }
    }

    /// Waits until a committed batch waits for its fsync (its writes in the memtable, its record
    /// appended).
    async fn until_awaiting_sync(h: &WriterHandle) {
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while h.pipeline.lock().machine.awaiting_sync() == 0 {
            assert!(
                std::time::Instant::now() < deadline,
                "the write was never committed"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    fn keys_read(file: &RedbFile) -> Vec<Vec<u8>> {
        let rows = scan_prefix(&mut file.view().unwrap(), b"k/").unwrap();
        rows.into_iter().map(|(k, _)| k).collect()
    }

    /// With a write's fsync held back, a read answers at once with the state before that write
    /// (the write answers only after the fsync), and a read after the write's answer sees it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_read_does_not_wait_for_a_write_not_yet_durable() {
        let dir = tempfile::tempdir().unwrap();
        let mut file = open(&dir, "h.redb");
        let held = Faulty::over(&mut file, usize::MAX, false);
        let (file, writer) = start_on(file, 256);
        let h = writer.handle();
        held.release();
        assert_eq!(h.submit(kv("before")).await.status, 201);
        assert_eq!(keys_read(&file), vec![b"k/before".to_vec()]);
        held.hold();
        let write = tokio::spawn({
            let h = h.clone();
            async move { h.submit(kv("held")).await.status }
        });
        until_awaiting_sync(&h).await;
        assert_eq!(h.settled().map(|r| r.status), None, "no wait, no failure");
        assert_eq!(keys_read(&file), vec![b"k/before".to_vec()]);
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!write.is_finished(), "the write waits for its fsync");
        assert_eq!(keys_read(&file), vec![b"k/before".to_vec()]);

        held.release();
        assert_eq!(write.await.unwrap(), 201);
        assert_eq!(
            keys_read(&file),
            vec![b"k/before".to_vec(), b"k/held".to_vec()],
            "answered, so durable, so seen"
        );
        writer.stop();
        assert_eq!(stored(&file), 2);
    }

    /// A read never sees a batch whose fsync then fails: before the failure it answers without it,
    /// after it 503 (the store is failing); the write answers 500.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_read_never_sees_a_write_whose_fsync_fails() {
        let dir = tempfile::tempdir().unwrap();
        let mut file = open(&dir, "s.redb");
        let failing = Faulty::over(&mut file, usize::MAX, true);
        let (file, writer) = start_on(file, 256);
        let h = writer.handle();
        let write = tokio::spawn({
            let h = h.clone();
            async move { h.submit(kv("lost")).await.status }
        });
        until_awaiting_sync(&h).await;
        assert!(keys_read(&file).is_empty(), "not durable, not seen");
        assert_eq!(h.settled().map(|r| r.status), None);

        failing.release();
        assert_eq!(write.await.unwrap(), 500, "its batch will never be durable");
        tokio::time::timeout(Duration::from_secs(5), h.health().failed())
            .await
            .unwrap();
        assert!(keys_read(&file).is_empty(), "still not seen");
        assert_eq!(h.settled().map(|r| r.status), Some(503));
        assert_eq!(h.submit(kv("after")).await.status, 503);
        writer.stop();
    }

    /// The fatal path: a failed log append stops the writer at once. The write whose record failed
    /// and the one still waiting for its fsync answer 500, a read meanwhile answers at once (without
    /// the write) and 503 once the store failed, `/health`'s flag and future resolve, and later
    /// writes answer 503.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_failed_log_append_fails_the_store_and_reads_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut file = open(&dir, "f.redb");
        let faulty = Faulty::over(&mut file, 2, false);
        let (file, writer) = start_on(file, 256);
        let h = writer.handle();
        let first = tokio::spawn({
            let h = h.clone();
            async move { h.submit(kv("a")).await.status }
        });
        // Committed, its fsync held: a read answers at once, without it.
        until_awaiting_sync(&h).await;
        assert_eq!(h.settled().map(|r| r.status), None);
        assert!(keys_read(&file).is_empty());
        assert!(h.health().is_ok());

        let second = h.submit(kv("b")).await.status;
        assert_eq!(second, 500, "its log record could not be written");
        assert_eq!(first.await.unwrap(), 500, "its batch will never be durable");
        assert!(!h.health().is_ok());
        tokio::time::timeout(Duration::from_secs(5), h.health().failed())
            .await
            .unwrap();
        assert_eq!(h.submit(kv("c")).await.status, 503);
        assert_eq!(h.settled().map(|r| r.status), Some(503));
        assert!(keys_read(&file).is_empty());

        faulty.release();
        let stats = writer.stop();
        assert_eq!(stats.requests, 2);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_stopped_writer_answers_503() {
        let dir = tempfile::tempdir().unwrap();
        let (file, writer) = start(&dir, 1);
        let h = writer.handle();
        assert_eq!(h.submit(kv("x")).await.status, 201);
        writer.stop();
        assert_eq!(h.submit(kv("y")).await.status, 503);
        assert!(h.health().is_ok(), "a clean stop is not a failure");
        assert_eq!(stored(&file), 1);
    }
}
