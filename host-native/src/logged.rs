//! The redb file behind the group-commit writer: each batch is committed to redb without an fsync
//! and its writes appended to the write-ahead log ([`crate::wal`]), which the store's syncer thread
//! makes durable before the batch may answer. Every so often a batch is committed durably instead
//! (a checkpoint) and the log starts over.
//!
//! Order that keeps a crash safe (the crash tests in `crash_tests.rs` check it at every sync):
//! the writer reports a batch visible before redb shows it, appends its record only after redb
//! committed it, and truncates the log only after a checkpoint's durable commit returned.

use std::sync::{Arc, Mutex, MutexGuard, mpsc};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use card_core::Service;
use tracing::{error, warn};

use crate::batch_store::{Batch, BatchStore, Committed, Fatal, Progress, Settle};
use crate::disk::{DiskFile, IoTotals};
use crate::group_commit::Timings;
use crate::storage::{self, RedbFile, WriteAdapter};
use crate::wal::{Log, LoggedTx, Syncer};

/// When a batch is committed durably instead of logged.
#[derive(Debug, Clone, Copy)]
pub struct Checkpoints {
    /// At least this often (`--checkpoint-interval`), so recovery replays little.
    pub interval: Duration,
    /// Whenever the log has grown this much.
    pub log_bytes: u64,
}

impl Checkpoints {
    pub fn every(interval: Duration) -> Checkpoints {
        Checkpoints {
            interval,
            log_bytes: 64 << 20,
        }
    }
}

/// Where the writer's time went, per commit: the numbers behind the no-stall goal.
#[derive(Debug, Default, Clone)]
pub struct CommitStats {
    /// Running a batch's writes (before its commit).
    pub run: Timings,
    /// A logged batch's redb commit (no fsync).
    pub commit: Timings,
    /// Appending a batch's log record.
    pub append: Timings,
    /// A checkpoint's whole durable commit, and the parts of it spent writing pages and in fsync.
    pub checkpoint: Timings,
    pub checkpoint_write: Timings,
    pub checkpoint_sync: Timings,
    /// Bytes of pages a checkpoint wrote, in total.
    pub checkpoint_bytes: u64,
}

impl CommitStats {
    pub fn summary(&self) -> String {
        format!(
            "commit timings: run {}; logged commit {}; append {}; checkpoint {}, of it page writes {} and fsync {}, {} MiB written",
            self.run.summary(),
            self.commit.summary(),
            self.append.summary(),
            self.checkpoint.summary(),
            self.checkpoint_write.summary(),
            self.checkpoint_sync.summary(),
            self.checkpoint_bytes >> 20
        )
    }
}

pub struct LoggedDb {
    file: Arc<RedbFile>,
    state: Mutex<State>,
    syncer: Arc<Syncer>,
    progress: Arc<dyn Progress>,
    threads: Mutex<Threads>,
}

#[derive(Default)]
struct Threads {
    syncer: Option<JoinHandle<()>>,
    /// Dropped at close, which stops the write-back thread.
    write_back: Option<(mpsc::Sender<()>, JoinHandle<()>)>,
}

struct State {
    log: Log,
    /// The last batch committed to redb.
    seq: u64,
    /// The payload buffer, reused from batch to batch.
    payload: Vec<u8>,
    checkpoints: Checkpoints,
    last_checkpoint: Instant,
    checkpoint_asked: bool,
    /// A fatal fault happened: no more commits.
    failed: bool,
    stats: CommitStats,
}

/// A commit this slow is logged with where its time went.
const SLOW_COMMIT: Duration = Duration::from_millis(20);

/// How often the write-back thread flushes the data file's dirty pages.
const WRITE_BACK_EVERY: Duration = Duration::from_millis(100);

impl LoggedDb {
    /// The writer's store over `file`, reporting to `progress`, without threads: the caller drives
    /// [`LoggedDb::syncer`] (the crash tests do).
    pub fn new(file: Arc<RedbFile>, checkpoints: Checkpoints, progress: Arc<dyn Progress>) -> Self {
        let seq = file.seq;
        progress.synced(seq);
        LoggedDb {
            syncer: Arc::new(Syncer::new(file.log.clone(), seq)),
            state: Mutex::new(State {
                log: Log::new(file.log.clone()),
                seq,
                payload: Vec::new(),
                checkpoints,
                last_checkpoint: Instant::now(),
                checkpoint_asked: false,
                failed: false,
                stats: CommitStats::default(),
            }),
            file,
            progress,
            threads: Mutex::new(Threads::default()),
        }
    }

    /// [`LoggedDb::new`] with its syncer thread, and a write-back thread that flushes the data
    /// file's dirty pages every [`WRITE_BACK_EVERY`].
    pub fn start(
        file: Arc<RedbFile>,
        checkpoints: Checkpoints,
        progress: Arc<dyn Progress>,
    ) -> std::io::Result<Arc<LoggedDb>> {
        let db = Arc::new(LoggedDb::new(file, checkpoints, progress));
        let (syncer, progress) = (db.syncer.clone(), db.progress.clone());
        let sync = thread::Builder::new()
            .name("cards-syncer".into())
            .spawn(move || sync_loop(&syncer, &*progress))?;
        let (stop, stopped) = mpsc::channel();
        let data = db.file.data.clone();
        let write_back = thread::Builder::new()
            .name("cards-writeback".into())
            .spawn(move || write_back_loop(&*data, &stopped))?;
        *db.threads() = Threads {
            syncer: Some(sync),
            write_back: Some((stop, write_back)),
        };
        Ok(db)
    }

    fn threads(&self) -> MutexGuard<'_, Threads> {
        self.threads.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The log's syncer, for a caller that drives it without the thread.
    #[cfg(test)]
    pub fn syncer(&self) -> &Syncer {
        &self.syncer
    }

    /// The next batch is committed durably (a checkpoint), whatever the interval says.
    #[cfg(test)]
    pub fn checkpoint_next(&self) {
        self.state().checkpoint_asked = true;
    }

    pub fn stats(&self) -> CommitStats {
        self.state().stats.clone()
    }

    /// The log's fsyncs.
    pub fn sync_timings(&self) -> Timings {
        self.syncer.timings()
    }

    fn fatal(&self, state: &mut State, what: &str, cause: impl std::fmt::Display) -> Fatal {
        state.failed = true;
        Fatal::new(what, cause)
    }
}

/// Makes the log durable for whatever was appended meanwhile, until stopped; a failed fsync fails
/// the store (nothing more can become durable).
fn sync_loop(syncer: &Syncer, progress: &dyn Progress) {
    while let Some(synced) = syncer.next() {
        match synced {
            Ok(point) => progress.synced(point),
            Err(e) => {
                progress.failed(&Fatal::new("cannot fsync the write-ahead log", e));
                return;
            }
        }
    }
}

/// A checkpoint's fsync otherwise writes a whole interval's pages at once, and the writer waits for
/// it. Flushing them early is only a head start: the pages of commits made without an fsync are
/// never the durable state's pages (redb reuses a freed page only after a durable commit), so
/// whenever they reach the disk, a crash still recovers the last checkpoint plus the log.
fn write_back_loop(data: &dyn DiskFile, stop: &mpsc::Receiver<()>) {
    while let Err(mpsc::RecvTimeoutError::Timeout) = stop.recv_timeout(WRITE_BACK_EVERY) {
        if let Err(e) = data.sync() {
            // The writer's own commits see the fault; this thread only gives up.
            error!(error = %e, "cannot write back the data file");
            return;
        }
    }
}

impl BatchStore for LoggedDb {
    fn commit_batch(&self, batch: &dyn Batch) -> Result<Committed, Fatal> {
        let mut guard = self.state();
        let state = &mut *guard;
        if state.failed {
            return Err(Fatal("the store failed earlier".into()));
        }
        let started = Instant::now();
        let db = &self.file.db;
        let mut txn = db
            .begin_write()
            .map_err(|e| self.fatal(state, "cannot begin a write transaction", e))?;
        let checkpoint = state.checkpoint_asked
            || state.log.bytes() >= state.checkpoints.log_bytes
            || state.last_checkpoint.elapsed() >= state.checkpoints.interval;
        if !checkpoint && let Err(e) = txn.set_durability(redb::Durability::None) {
            return Err(self.fatal(state, "cannot set a transaction's durability", e));
        }
        let mut responses = Vec::with_capacity(batch.len());
        state.payload.clear();
        let (storage_failed, wrote) = match WriteAdapter::open(&txn) {
            Ok(mut adapter) => {
                let mut logged = LoggedTx::new(&mut adapter, &mut state.payload);
                for i in 0..batch.len() {
                    responses.push(batch.run(i, &mut logged));
                }
                (adapter.failed(), adapter.wrote())
            }
            Err(e) => {
                error!(error = %e, "cannot open the table in a write transaction");
                (true, false)
            }
        };
        let seq = state.seq + 1;
        let stamped = wrote && !storage_failed && storage::store_seq(&txn, seq).is_ok();
        if !stamped {
            if let Err(e) = txn.abort() {
                error!(error = %e, "abort failed");
            }
            if !storage_failed && !wrote {
                // Nothing written, but the answers may rest on batches not yet durable.
                return Ok(Committed {
                    responses,
                    settle: Settle::At(state.seq),
                    wrote: false,
                });
            }
            error!(
                batch = batch.len(),
                "storage error in group commit; batch aborted"
            );
            // A latched I/O error fails the next transaction too; a one-off failure does not.
            if let Err(e) = db.begin_write().map(|t| t.abort()) {
                return Err(self.fatal(state, "the data file failed", e));
            }
            return Ok(Committed {
                responses: responses
                    .iter()
                    .map(|_| Service::internal_error("storage failure in group commit"))
                    .collect(),
                settle: Settle::Now,
                wrote: false,
            });
        }
        state.stats.run.record(started.elapsed());
        // Before the commit: a read that sees this batch also sees that it must wait for it.
        self.progress.visible(seq);
        let io_before = self.file.io.totals();
        let committing = Instant::now();
        if let Err(e) = txn.commit() {
            // After a failed write the file's state is unknown: never write on without a reopen.
            return Err(self.fatal(state, "group commit failed", e));
        }
        state.seq = seq;
        let took = committing.elapsed();
        let io: IoTotals = self.file.io.totals() - io_before;
        if took >= SLOW_COMMIT {
            warn!(
                checkpoint,
                batch = batch.len(),
                commit_ms = took.as_secs_f64() * 1000.0,
                run_ms = (committing - started).as_secs_f64() * 1000.0,
                write_ms = io.write.as_secs_f64() * 1000.0,
                written_kib = io.write_bytes >> 10,
                fsync_ms = io.sync.as_secs_f64() * 1000.0,
                "slow commit"
            );
        }
        if checkpoint {
            state.stats.checkpoint.record(took);
            state.stats.checkpoint_write.record(io.write);
            state.stats.checkpoint_sync.record(io.sync);
            state.stats.checkpoint_bytes += io.write_bytes;
            if let Err(e) = state.log.truncate() {
                return Err(self.fatal(state, "cannot empty the write-ahead log", e));
            }
            state.last_checkpoint = Instant::now();
            state.checkpoint_asked = false;
            // Everything through this batch is in the data file, durably.
            self.progress.synced(seq);
        } else {
            state.stats.commit.record(took);
            let appending = Instant::now();
            if let Err(e) = state.log.append(seq, &state.payload) {
                return Err(self.fatal(state, "cannot write the write-ahead log", e));
            }
            state.stats.append.record(appending.elapsed());
            self.syncer.appended(seq);
        }
        Ok(Committed {
            responses,
            settle: Settle::At(seq),
            wrote: true,
        })
    }

    /// A last durable commit, so a clean stop leaves an empty log; then the threads stop.
    fn close(&self) {
        {
            let mut state = self.state();
            if !state.failed {
                let seq = state.seq;
                let done = (|| -> Result<(), Box<dyn std::error::Error>> {
                    let txn = self.file.db.begin_write()?;
                    storage::store_seq(&txn, seq)?;
                    txn.commit()?;
                    Ok(())
                })();
                match done {
                    Ok(()) => {
                        if let Err(e) = state.log.truncate() {
                            warn!(error = %e, "cannot empty the write-ahead log; the next start applies it");
                        }
                        self.progress.synced(seq);
                    }
                    Err(e) => {
                        error!(error = %e, "the last checkpoint failed; the next start applies the log");
                    }
                }
            }
        }
        self.syncer.stop();
        let threads = std::mem::take(&mut *self.threads());
        if let Some(t) = threads.syncer {
            let _ = t.join();
        }
        if let Some((stop, t)) = threads.write_back {
            drop(stop);
            let _ = t.join();
        }
    }
}
