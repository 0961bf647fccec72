//! The redb file behind the group-commit writer, with the write-ahead log ([`crate::store::wal`]) and a
//! memtable ([`crate::store::redb::memtable`]) in front of it.
//!
//! The writer never waits for the data file. Each batch runs on a snapshot (the memtables over a
//! redb read transaction), its writes go into the active memtable under the batch's sequence number
//! and its record is appended to the log; the next batch sees it at once, and the store's syncer
//! thread makes the log durable, then publishes the batch to reads (`RedbFile::durable`), then lets
//! its answers go out. Every `--checkpoint-interval`
//! (or at 64 MiB) the writer freezes the active memtable, starts a new one and switches the log to
//! its other file; the checkpointer thread writes the frozen memtable's newest versions into redb
//! (in durable commits of `--checkpoint-commit-keys` keys, its seq in the last), paced over the
//! interval, then drops it from reads and empties its log file. redb's fsync (which
//! grows with the data written since the last one: 120-190 ms a second at 25,000 fundings/s) so
//! happens beside the writer, and redb commits a few times a second instead of once a batch.
//!
//! Order that keeps a crash safe (`crash_tests.rs` checks it at every sync, and that no read sees
//! what a crash then loses): a batch's record is appended before it is synced, reads see it and
//! it answers only once the record is synced, a checkpoint commits (a part or its last) only once
//! the log holds all its batches durably, and a log file starts over only after the checkpoint of
//! its records returned (so every stale record left in it is one the data file holds).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use tracing::{debug, error, warn};

use crate::os_thread::{self, Priority};
use crate::store::Timings;
use crate::store::batch::{Batch, BatchStore, Committed, Fatal, Progress, Settle};
use crate::store::disk::IoTotals;
use crate::store::redb::memtable::{Layers, Memtable, View};
use crate::store::redb::{self, KV, ReadAdapter, RedbFile};
use crate::store::wal::{Log, LoggedTx, Syncer};

/// When the active memtable is checkpointed.
#[derive(Debug, Clone, Copy)]
pub struct Checkpoints {
    /// At least this often (`--checkpoint-interval`), so recovery replays little.
    pub interval: Duration,
    /// Whenever the active memtable holds this much.
    pub bytes: u64,
    /// The checkpointer thread's scheduling priority.
    pub priority: Priority,
    /// The share of the interval (in percent) the checkpointer thread spreads a checkpoint's
    /// inserts over, pausing between slices of keys (`--checkpoint-spread`; 0: all at once). The
    /// memtable's freeing is spread over what is left of the interval after the commit.
    pub spread_percent: u8,
    /// A checkpoint commits (durably) after about this many keys once the log holds its
    /// memtable's every batch durably, so its page writes are spread over several commits, not
    /// all in one at its end (`--checkpoint-commit-keys`; `u64::MAX`: one commit).
    pub commit_keys: u64,
    /// The same, after about this much work ([`work`]: mostly the bytes written), whichever
    /// comes first (`--checkpoint-commit-bytes`; `u64::MAX`: by keys alone).
    pub commit_bytes: u64,
}

impl Checkpoints {
    pub fn every(interval: Duration) -> Checkpoints {
        Checkpoints {
            interval,
            bytes: 64 << 20,
            priority: Priority::Normal,
            spread_percent: 0,
            commit_keys: u64::MAX,
            commit_bytes: u64::MAX,
        }
    }
}

/// Where the time went: the numbers behind the no-stall goal.
#[derive(Debug, Default, Clone)]
pub struct CommitStats {
    /// Running a batch's writes, on the writer.
    pub run: Timings,
    /// Appending a batch's log record, on the writer.
    pub append: Timings,
    /// A checkpoint (on the checkpointer), and the parts of it spent writing pages and in fsync.
    pub checkpoint: Timings,
    pub checkpoint_write: Timings,
    pub checkpoint_sync: Timings,
    /// The checkpointer's CPU time per checkpoint (the part of it a busy machine makes wait aside).
    pub checkpoint_cpu: Timings,
    /// Of it, the commit's (a stretch of its own, however paced the inserts before it).
    pub checkpoint_commit_cpu: Timings,
    /// Bytes of pages the checkpoints wrote, in total.
    pub checkpoint_bytes: u64,
    /// Keys the checkpoints wrote into redb, and the memtable versions they were chosen from.
    pub checkpoint_keys: u64,
    pub checkpoint_versions: u64,
    /// Of those keys, the ones whose newest version is a delete.
    pub checkpoint_deletes: u64,
    /// Keys the checkpoints did not write: put new in their memtable ([`card_core::Tx::put_new`],
    /// a moved range index entry's new place), then deleted (moved on) before it was written.
    pub checkpoint_skipped: u64,
    /// Commits a checkpoint made before its last (the parts of `--checkpoint-commit-keys`).
    pub checkpoint_parts: u64,
    /// The CPU time of each stretch the checkpointer thread works without a pause: a slice of
    /// inserts, a commit, a piece of a memtable's freeing (the whole checkpoint when not spread;
    /// not the last checkpoint, at a stop). Its longest is about the longest it holds a core the
    /// writer or a request thread may want.
    pub checkpoint_stretch: Timings,
    /// Time the checkpointer paused to spread its work.
    pub checkpoint_paused: Timings,
    /// Freeing a checkpointed memtable (on the checkpointer); how many times a batch or read
    /// still held it when the checkpoint ended (it waited), and how many times it gave up
    /// waiting (the last holder freed it).
    pub checkpoint_free: Timings,
    pub frees_waited: u64,
    pub frees_left: u64,
}

impl CommitStats {
    pub fn summary(&self) -> String {
        format!(
            "commit timings: run {}; append {}; checkpoint {}, of it page writes {} and fsync {}, CPU {} (commits {}, {} before the last), paused {}; CPU stretches {}; {} MiB written, {} keys ({} deletes, {} deletes of new keys skipped) of {} versions; memtables freed {} (waited for {}, left {})",
            self.run.summary(),
            self.append.summary(),
            self.checkpoint.summary(),
            self.checkpoint_write.summary(),
            self.checkpoint_sync.summary(),
            self.checkpoint_cpu.summary(),
            self.checkpoint_commit_cpu.summary(),
            self.checkpoint_parts,
            self.checkpoint_paused.summary(),
            self.checkpoint_stretch.summary(),
            self.checkpoint_bytes >> 20,
            self.checkpoint_keys,
            self.checkpoint_deletes,
            self.checkpoint_skipped,
            self.checkpoint_versions,
            self.checkpoint_free.summary(),
            self.frees_waited,
            self.frees_left,
        )
    }
}

/// A frozen memtable to write into redb.
struct Job {
    memtable: Arc<Memtable>,
    /// Its last batch.
    through: u64,
    /// The log file holding its records.
    log: usize,
    /// When it was frozen: the next one is due an interval later.
    frozen_at: Instant,
}

#[derive(Default)]
struct CheckpointState {
    /// Frozen, waiting for the checkpointer.
    pending: Option<Job>,
    /// A frozen memtable not yet in redb (pending or being written).
    busy: bool,
    /// The last checkpoint failed: the store is failing, nothing waits for the checkpointer.
    failed: bool,
    stopping: bool,
}

pub struct LoggedDb {
    file: Arc<RedbFile>,
    state: Mutex<State>,
    syncer: Arc<Syncer>,
    progress: Arc<dyn Progress>,
    checkpoints: Mutex<CheckpointState>,
    checkpoint_wake: Condvar,
    stats: Mutex<CommitStats>,
    threads: Mutex<Threads>,
    /// A checkpoint taking longer than this falls behind its cadence and is warned about.
    slow: Duration,
    policy: Checkpoints,
    /// Bytes written per memtable byte in the last checkpoint (f64 bits; 1 before the first). A
    /// paced checkpoint counts its progress in work ([`work`]: the bytes it writes and a share per
    /// key; a rewritten key's older versions are passed over, uncounted), against its keys' share
    /// and its memtable's bytes times this and a tenth more: an estimate too high only ends the
    /// inserts early in their window, one too low would leave the keys past it unpaced at the
    /// window's end.
    written_per_byte: AtomicU64,
}

#[derive(Default)]
struct Threads {
    syncer: Option<JoinHandle<()>>,
    checkpointer: Option<JoinHandle<()>>,
}

struct State {
    log: Log,
    /// The last batch written.
    seq: u64,
    /// The payload buffer, reused from batch to batch.
    payload: Vec<u8>,
    policy: Checkpoints,
    last_checkpoint: Instant,
    checkpoint_asked: bool,
    /// A fatal fault happened: no more batches.
    failed: bool,
}

/// How long the checkpointer waits to free a memtable itself ([`LoggedDb::free`]).
const FREE_WAIT: Duration = Duration::from_millis(200);

/// Work ([`work`]) a paced checkpoint does between two looks at its pace: about 900 index
/// entries or 220 records of a kilobyte (a millisecond or so of CPU).
const CHECKPOINT_SLICE: u64 = 256 << 10;
/// What a key counts for in a checkpoint's work beside its bytes: its B-tree search and insert.
const KEY_WORK: u64 = 192;

/// A checkpoint's work for one key: the bytes it writes into the data file, and its insert. Paced
/// and cut into commits by this rather than by keys, a run of kilobyte records (events, ledger
/// entries) is spread as evenly as a run of small index entries: by keys, 4,096 records made
/// 4 MiB commits whose fsyncs held the log's for 2 to 5 ms (docs/benchmarks.md).
fn work(key: &[u8], value: Option<&[u8]>) -> u64 {
    (key.len() + value.map_or(0, <[u8]>::len)) as u64 + KEY_WORK
}

/// Keys (then arena chunks, `Freeing::free`) a paced free frees between two looks at its pace.
const FREE_SLICE: usize = 4096;
/// A paced free ends by this share of the interval after its memtable was frozen.
const FREE_BY: f64 = 0.95;

/// A checkpoint's pace on the checkpointer thread: it works in slices and, between them, pauses
/// so that its work is spread over the interval instead of holding a core for its whole length
/// (two cores: while it holds one, the writer, the request threads and the clients share the
/// other). It pauses only while it is ahead of its pace and no next checkpoint is due: when the
/// writes outrun it (the next memtable due, or grown to the size that freezes it, or the store
/// stopping) it goes at full speed, so memory stays bounded as it did unpaced.
struct Pace<'a> {
    db: &'a LoggedDb,
    frozen_at: Instant,
    paced: bool,
    /// Its stretches go into the stats (the checkpointer thread's, beside the writes).
    counted: bool,
    /// The thread's CPU time when the current stretch of work began.
    since_cpu: Duration,
    /// Time paused so far.
    paused: Duration,
}

impl Pace<'_> {
    /// True when it must not pause: the next memtable is due (or ready), or the store stops.
    fn urgent(&self) -> bool {
        let policy = &self.db.policy;
        if self.frozen_at.elapsed() >= policy.interval
            || self.db.current_layers().active.bytes() >= policy.bytes
        {
            return true;
        }
        let checkpoints = self.db.checkpoint_state();
        checkpoints.stopping || checkpoints.pending.is_some()
    }

    fn start_stretch(&mut self) {
        self.since_cpu = os_thread::cpu_time();
    }

    fn end_stretch(&mut self) {
        if self.counted {
            let worked = os_thread::cpu_time().saturating_sub(self.since_cpu);
            self.db.record(|s| s.checkpoint_stretch.record(worked));
        }
    }

    /// Pauses `d` (nothing if zero), ending one stretch of work and starting the next.
    fn wait(&mut self, d: Duration) {
        if d.is_zero() {
            return;
        }
        self.end_stretch();
        let pausing = Instant::now();
        thread::sleep(d);
        self.paused += pausing.elapsed();
        self.start_stretch();
    }
}

/// How long to pause, at `now`, after `done` of `total` units of work spread evenly over `window`
/// from `start`: until the moment that much work is due (nothing when behind).
fn pace_wait(start: Instant, window: Duration, done: u64, total: u64, now: Instant) -> Duration {
    if total == 0 {
        return Duration::ZERO;
    }
    let due = start + window.mul_f64(done.min(total) as f64 / total as f64);
    due.saturating_duration_since(now)
}

impl LoggedDb {
    /// The writer's store over `file`, reporting to `progress`, without threads: the caller drives
    /// the syncer and the checkpoints (the crash tests do).
    pub fn new(file: Arc<RedbFile>, policy: Checkpoints, progress: Arc<dyn Progress>) -> Self {
        let seq = file.durable.load(Ordering::Acquire);
        progress.synced(seq);
        LoggedDb {
            slow: policy.interval,
            policy,
            syncer: Arc::new(Syncer::new(file.logs.clone(), seq)),
            state: Mutex::new(State {
                log: Log::new(file.logs.clone()),
                seq,
                payload: Vec::new(),
                policy,
                last_checkpoint: Instant::now(),
                checkpoint_asked: false,
                failed: false,
            }),
            file,
            progress,
            checkpoints: Mutex::new(CheckpointState::default()),
            checkpoint_wake: Condvar::new(),
            stats: Mutex::new(CommitStats::default()),
            threads: Mutex::new(Threads::default()),
            written_per_byte: AtomicU64::new(1f64.to_bits()),
        }
    }

    /// [`LoggedDb::new`] with its syncer and checkpointer threads.
    pub fn start(
        file: Arc<RedbFile>,
        policy: Checkpoints,
        progress: Arc<dyn Progress>,
    ) -> std::io::Result<Arc<LoggedDb>> {
        let db = Arc::new(LoggedDb::new(file, policy, progress));
        let (syncer, file, progress) = (db.syncer.clone(), db.file.clone(), db.progress.clone());
        let sync = thread::Builder::new()
            .name("cards-syncer".into())
            .spawn(move || sync_loop(&syncer, &file, &*progress))?;
        let checkpointer = db.clone();
        let checkpoint = thread::Builder::new()
            .name("cards-checkpoint".into())
            .spawn(move || {
                if let Err(e) = policy.priority.apply_to_this_thread() {
                    warn!(error = %e, priority = ?policy.priority, "cannot set the checkpointer's priority");
                }
                checkpointer.checkpoint_loop()
            })?;
        *db.threads() = Threads {
            syncer: Some(sync),
            checkpointer: Some(checkpoint),
        };
        Ok(db)
    }

    fn threads(&self) -> MutexGuard<'_, Threads> {
        self.threads.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn checkpoint_state(&self) -> MutexGuard<'_, CheckpointState> {
        self.checkpoints.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The data file, for a test's reads.
    #[cfg(test)]
    pub fn file(&self) -> &Arc<RedbFile> {
        &self.file
    }

    /// Syncs the log, for a caller that drives it without the thread; the point durable now.
    #[cfg(test)]
    pub fn sync_log(&self) -> std::io::Result<u64> {
        let point = self.syncer.sync_pending()?;
        self.synced(point);
        Ok(point)
    }

    /// The batches through `point` are durable: reads may see them, then their answers go out.
    fn synced(&self, point: u64) {
        self.file.durable_through(point);
        self.progress.synced(point);
    }

    /// Makes the log durable through `point` if it is not yet (syncing it here if the syncer
    /// thread has not got there): a checkpoint commits only durable batches into redb, since reads
    /// see redb whole and must never see a batch a crash could lose.
    fn make_durable(&self, point: u64) -> Result<(), Fatal> {
        if self.file.durable.load(Ordering::Acquire) >= point {
            return Ok(());
        }
        let synced = self
            .syncer
            .sync_through(point)
            .map_err(|e| Fatal::new("cannot fsync the write-ahead log", e))?;
        self.synced(synced);
        Ok(())
    }

    /// The bytes the active memtable holds.
    #[cfg(test)]
    pub fn current_bytes(&self) -> u64 {
        self.current_layers().active.bytes()
    }

    /// The next batch freezes the memtable for a checkpoint, whatever the interval says.
    #[cfg(test)]
    pub fn checkpoint_next(&self) {
        self.state().checkpoint_asked = true;
    }

    pub fn stats(&self) -> CommitStats {
        self.stats.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The log's fsyncs.
    pub fn sync_timings(&self) -> Timings {
        self.syncer.timings()
    }

    fn record(&self, f: impl FnOnce(&mut CommitStats)) {
        f(&mut self.stats.lock().unwrap_or_else(|e| e.into_inner()));
    }

    /// Freezes the active memtable for the checkpointer when one is due and none is running.
    fn maybe_freeze(&self, state: &mut State) {
        let layers = self.current_layers();
        let due = state.checkpoint_asked
            || layers.active.bytes() >= state.policy.bytes
            || state.last_checkpoint.elapsed() >= state.policy.interval;
        if !due || layers.active.is_empty() {
            return;
        }
        let mut checkpoints = self.checkpoint_state();
        // Backpressure: while the checkpointer is still writing the last frozen memtable, the
        // active one may grow to twice the size that freezes it, no more; then the writer waits,
        // so memory stays bounded when the disk is slower than the writes.
        while checkpoints.busy
            && !checkpoints.failed
            && layers.active.bytes() >= state.policy.bytes.saturating_mul(2)
        {
            checkpoints = self
                .checkpoint_wake
                .wait(checkpoints)
                .unwrap_or_else(|e| e.into_inner());
        }
        if checkpoints.busy {
            return;
        }
        let job = Job {
            memtable: layers.active.clone(),
            through: state.seq,
            log: state.log.current(),
            frozen_at: Instant::now(),
        };
        state.log.switch();
        *self.file.layers.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(Layers {
            active: Arc::new(Memtable::default()),
            frozen: Some(job.memtable.clone()),
            redb_at_most: job.through,
        });
        self.file.forget_reads();
        checkpoints.pending = Some(job);
        checkpoints.busy = true;
        drop(checkpoints);
        self.checkpoint_wake.notify_all();
        state.last_checkpoint = Instant::now();
        state.checkpoint_asked = false;
    }

    fn current_layers(&self) -> Arc<Layers> {
        self.file
            .layers
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Runs the frozen memtable's checkpoint, if one waits, at once; false if none did.
    pub fn run_pending_checkpoint(&self) -> Result<bool, Fatal> {
        self.run_checkpoint(false)
    }

    /// [`LoggedDb::run_pending_checkpoint`], spread over the interval when `paced` ([`Pace`]):
    /// on the checkpointer thread (whose stretches of work are counted), not the last at a stop.
    fn run_checkpoint(&self, paced: bool) -> Result<bool, Fatal> {
        let Some(job) = self.checkpoint_state().pending.take() else {
            return Ok(false);
        };
        let mut pace = Pace {
            db: self,
            frozen_at: job.frozen_at,
            paced: paced && self.policy.spread_percent > 0,
            counted: paced,
            since_cpu: Duration::ZERO,
            paused: Duration::ZERO,
        };
        let done = self.checkpoint(&job, &mut pace);
        let mut checkpoints = self.checkpoint_state();
        checkpoints.busy = done.is_err();
        checkpoints.failed = done.is_err();
        drop(checkpoints);
        self.checkpoint_wake.notify_all();
        if done.is_ok() {
            self.free(job.memtable, &mut pace);
        }
        done.map(|()| true)
    }

    /// Frees a checkpointed memtable on this thread. A batch or read that began before the
    /// checkpoint's swap still holds it; whichever lets go last frees hundreds of thousands of
    /// nodes (tens of milliseconds), on the writer or a request's thread unless waited for here. Views live for one batch or one read, so the wait is short; past `FREE_WAIT` (a long
    /// scan) the last holder frees it after all.
    ///
    /// Paced, it frees `FREE_SLICE` keys at a time, spread over what is left of the interval
    /// (until `FREE_BY` of it), and frees the rest at once when the next checkpoint is due.
    fn free(&self, memtable: Arc<Memtable>, pace: &mut Pace<'_>) {
        let elsewhere = Arc::strong_count(&memtable) > 1;
        let deadline = Instant::now() + FREE_WAIT;
        while Arc::strong_count(&memtable) > 1 && Instant::now() < deadline {
            thread::sleep(Duration::from_micros(200));
        }
        // Paced by keys: a freeing frees a key's versions together (`Freeing::free`).
        let keys = memtable.keys();
        let Ok(memtable) = Arc::try_unwrap(memtable) else {
            self.record(|s| {
                s.frees_waited += u64::from(elsewhere);
                s.frees_left += 1;
            });
            return;
        };
        pace.start_stretch();
        let start = Instant::now();
        let until = pace.frozen_at + self.policy.interval.mul_f64(FREE_BY);
        let window = until.saturating_duration_since(start);
        let mut freeing = memtable.into_freeing();
        let mut busy = Duration::ZERO;
        let mut freed = 0;
        loop {
            let slice = Instant::now();
            let more = freeing.free(FREE_SLICE);
            busy += slice.elapsed();
            freed += FREE_SLICE;
            if !more {
                break;
            }
            if !pace.paced || pace.urgent() {
                continue;
            }
            let (freed, keys) = (freed as u64, keys as u64);
            pace.wait(pace_wait(start, window, freed, keys, Instant::now()));
        }
        drop(freeing);
        pace.end_stretch();
        self.record(|s| {
            s.frees_waited += u64::from(elsewhere);
            s.checkpoint_free.record(busy);
        });
    }

    /// Writes the newest version of every key of `job`'s memtable into redb in durable commits
    /// (one, or parts of `commit_keys` once the log holds the memtable durably; the last records
    /// `job.through`), then lets reads go to redb for them and empties their log file.
    fn checkpoint(&self, job: &Job, pace: &mut Pace<'_>) -> Result<(), Fatal> {
        let started = Instant::now();
        let cpu_before = os_thread::cpu_time();
        let io_before = self.file.io.totals();
        let versions = job.memtable.versions() as u64;
        let (mut keys, mut deletes, mut skipped) = (0u64, 0u64, 0u64);
        let db = &self.file.db;
        let fatal = |what: &str, e: &dyn std::fmt::Display| Fatal::new(what, e);
        // Paced: the inserts are spread over the first `spread_percent` of the interval.
        let window = self
            .policy
            .interval
            .mul_f64(f64::from(self.policy.spread_percent) / 100.0)
            .saturating_sub(started.saturating_duration_since(job.frozen_at));
        let mut latest = job.memtable.latest();
        // Paced by work walked (skipped deletes too), against the work expected.
        let bytes = job.memtable.bytes();
        let per_byte = f64::from_bits(self.written_per_byte.load(Ordering::Relaxed));
        let expected = (bytes as f64 * (per_byte * 1.1).min(1.0)).ceil() as u64
            + job.memtable.keys() as u64 * KEY_WORK;
        // Work walked, and of it the keys' and values' own bytes (what the next pace learns from).
        let (mut walked, mut walked_bytes) = (0u64, 0u64);
        let (mut slice, mut in_part, mut part_work, mut parts) = (0, 0u64, 0u64, 0u64);
        let mut commit_cpu = Duration::ZERO;
        pace.start_stretch();
        loop {
            let txn = db
                .begin_write()
                .map_err(|e| fatal("cannot begin a checkpoint", &e))?;
            let mut last = true;
            {
                let mut table = txn
                    .open_table(KV)
                    .map_err(|e| fatal("cannot open the table for a checkpoint", &e))?;
                for (key, value, new) in latest.by_ref() {
                    let w = work(&key, value.as_deref());
                    walked += w;
                    walked_bytes += w - KEY_WORK;
                    slice += w;
                    if slice >= CHECKPOINT_SLICE {
                        slice = 0;
                        if pace.paced && !pace.urgent() {
                            let now = Instant::now();
                            pace.wait(pace_wait(started, window, walked, expected, now));
                        }
                    }
                    let done = match value {
                        Some(v) => table.insert(key.as_slice(), v.as_slice()).map(|_| ()),
                        // Put new in this memtable, then deleted: redb never had it.
                        None if new => {
                            skipped += 1;
                            continue;
                        }
                        None => {
                            deletes += 1;
                            table.remove(key.as_slice()).map(|_| ())
                        }
                    };
                    keys += 1;
                    done.map_err(|e| fatal("checkpoint write failed", &e))?;
                    in_part += 1;
                    part_work += w;
                    // Every commit waits for the log to hold every batch of this memtable durably
                    // (`make_durable`): a crash then leaves redb with some keys' newest versions
                    // and the log to replay over them, in order, to the same state; before that, a
                    // part could hold a version of a batch the crash loses, without the rest of
                    // it (and a read could see it). A part waits for the syncer thread to get
                    // there rather than sync the log itself.
                    let full =
                        in_part >= self.policy.commit_keys || part_work >= self.policy.commit_bytes;
                    if full && self.syncer.synced() >= job.through {
                        last = false;
                        break;
                    }
                }
            }
            if last {
                redb::store_seq(&txn, job.through)
                    .map_err(|e| fatal("checkpoint write failed", &e))?;
            }
            // Only durable batches go into redb, and reads hear first that redb may hold them.
            self.make_durable(job.through)?;
            self.file.redb_may_hold(job.through);
            // The commit is a stretch of its own.
            pace.end_stretch();
            pace.start_stretch();
            let cpu = os_thread::cpu_time();
            txn.commit()
                .map_err(|e| fatal("checkpoint commit failed", &e))?;
            commit_cpu += os_thread::cpu_time().saturating_sub(cpu);
            pace.end_stretch();
            if last {
                break;
            }
            pace.start_stretch();
            (in_part, part_work) = (0, 0);
            parts += 1;
        }
        if bytes > 0 {
            let per_byte = walked_bytes as f64 / bytes as f64;
            self.written_per_byte
                .store(per_byte.to_bits(), Ordering::Relaxed);
        }
        let took = started.elapsed();
        crate::metrics::checkpoint(took);
        {
            let mut layers = self.file.layers.write().unwrap_or_else(|e| e.into_inner());
            let current = layers.clone();
            *layers = Arc::new(Layers {
                active: current.active.clone(),
                frozen: None,
                redb_at_most: current.redb_at_most,
            });
        }
        // The shared read snapshot predates the commit: dropped, so it keeps no pages from reuse.
        self.file.forget_reads();
        self.file.logs[job.log]
            .start_over()
            .map_err(|e| fatal("cannot start the write-ahead log over", &e))?;
        let io: IoTotals = self.file.io.totals() - io_before;
        let cpu = os_thread::cpu_time().saturating_sub(cpu_before);
        // Every checkpoint is told at debug, with where its time went; one slower than the interval
        // means the writes outrun it (the memtable grows toward back-pressure): that is a warning.
        macro_rules! checkpoint_event {
            ($level:ident, $message:literal) => {
                $level!(
                    through = job.through,
                    ms = took.as_secs_f64() * 1000.0,
                    paused_ms = pace.paused.as_secs_f64() * 1000.0,
                    parts,
                    cpu_ms = cpu.as_secs_f64() * 1000.0,
                    keys,
                    deletes,
                    skipped,
                    versions,
                    write_ms = io.write.as_secs_f64() * 1000.0,
                    written_kib = io.write_bytes >> 10,
                    fsync_ms = io.sync.as_secs_f64() * 1000.0,
                    $message
                )
            };
        }
        if took >= self.slow {
            checkpoint_event!(
                warn,
                "checkpoint slower than its interval (writes outrun it)"
            );
        } else {
            checkpoint_event!(debug, "checkpoint");
        }
        self.record(|s| {
            s.checkpoint.record(took);
            s.checkpoint_write.record(io.write);
            s.checkpoint_sync.record(io.sync);
            s.checkpoint_cpu.record(cpu);
            s.checkpoint_paused.record(pace.paused);
            s.checkpoint_commit_cpu.record(commit_cpu);
            s.checkpoint_parts += parts;
            s.checkpoint_bytes += io.write_bytes;
            s.checkpoint_keys += keys;
            s.checkpoint_versions += versions;
            s.checkpoint_deletes += deletes;
            s.checkpoint_skipped += skipped;
        });
        Ok(())
    }

    fn checkpoint_loop(&self) {
        loop {
            {
                let mut checkpoints = self.checkpoint_state();
                while checkpoints.pending.is_none() {
                    if checkpoints.stopping {
                        return;
                    }
                    checkpoints = self
                        .checkpoint_wake
                        .wait(checkpoints)
                        .unwrap_or_else(|e| e.into_inner());
                }
            }
            if let Err(fatal) = self.run_checkpoint(true) {
                self.state().failed = true;
                self.progress.failed(&fatal);
                return;
            }
        }
    }
}

/// Makes the log durable for whatever was appended meanwhile, until stopped, and tells reads
/// (`file`) and then the writer's answers; a failed fsync fails the store (nothing more can become
/// durable).
fn sync_loop(syncer: &Syncer, file: &RedbFile, progress: &dyn Progress) {
    while let Some(synced) = syncer.next() {
        match synced {
            Ok(point) => {
                file.durable_through(point);
                progress.synced(point);
            }
            Err(e) => {
                progress.failed(&Fatal::new("cannot fsync the write-ahead log", e));
                return;
            }
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
        self.maybe_freeze(state);
        let started = Instant::now();
        let seq = state.seq + 1;
        let below = match ReadAdapter::begin(&self.file.db) {
            Ok(r) => r,
            Err(e) => {
                state.failed = true;
                return Err(Fatal::new("cannot begin a read transaction", e));
            }
        };
        let mut view = View {
            layers: self.current_layers(),
            at: seq,
            below,
            writing: true,
            wrote: false,
        };
        let mut responses = Vec::with_capacity(batch.len());
        state.payload.clear();
        {
            let mut logged = LoggedTx::new(&mut view, &mut state.payload);
            for i in 0..batch.len() {
                responses.push(batch.run(i, &mut logged));
            }
        }
        self.record(|s| s.run.record(started.elapsed()));
        if !view.wrote {
            // Nothing written, but the answers may rest on batches not yet durable.
            return Ok(Committed {
                responses,
                settle: Settle::At(state.seq),
                wrote: false,
            });
        }
        let appending = Instant::now();
        if let Err(e) = state.log.append(seq, &state.payload) {
            // The batch's writes sit in the memtable unpublished; nothing may read or log on.
            state.failed = true;
            return Err(Fatal::new("cannot write the write-ahead log", e));
        }
        self.record(|s| s.append.record(appending.elapsed()));
        self.syncer.appended(seq, state.log.current());
        state.seq = seq;
        // Reads see it once it is durable (`RedbFile::view`); the writer's next batch sees it now.
        Ok(Committed {
            responses,
            settle: Settle::At(seq),
            wrote: true,
        })
    }

    /// A last checkpoint, so a clean stop leaves an empty log; then the threads stop.
    fn close(&self) {
        // The checkpointer finishes what it has, then stops.
        self.checkpoint_state().stopping = true;
        self.checkpoint_wake.notify_all();
        let threads = std::mem::take(&mut *self.threads());
        if let Some(t) = threads.checkpointer {
            let _ = t.join();
        }
        let mut state = self.state();
        if !state.failed {
            state.checkpoint_asked = true;
            self.maybe_freeze(&mut state);
            match self.run_pending_checkpoint() {
                // Everything is in the data file, durably.
                Ok(_) => self.synced(state.seq),
                Err(e) => {
                    error!(error = %e, "the last checkpoint failed; the next start applies the log");
                }
            }
        }
        drop(state);
        self.syncer.stop();
        if let Some(t) = threads.syncer {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use card_core::{Response, Tx};

    /// Puts keys `p/<from>`..`p/<to>`, 8-byte values, in one write.
    struct Puts(u32, u32);

    impl Batch for Puts {
        fn len(&self) -> usize {
            1
        }

        fn run(&self, _: usize, tx: &mut dyn Tx) -> Response {
            for i in self.0..self.1 {
                let key = [b"p/".as_slice(), &i.to_be_bytes()].concat();
                tx.put(&key, &u64::from(i).to_le_bytes()).unwrap();
            }
            Response::bytes(201, "text/plain", Vec::new())
        }
    }

    struct Nobody;

    impl Progress for Nobody {
        fn synced(&self, _: u64) {}
        fn failed(&self, _: &Fatal) {}
    }

    /// A store with its threads over a fresh file, `keys` keys written and frozen for a checkpoint
    /// the checkpointer has begun.
    fn frozen(dir: &tempfile::TempDir, policy: Checkpoints, keys: u32) -> Arc<LoggedDb> {
        let file = Arc::new(redb::open(&dir.path().join("p.redb")).unwrap());
        let db = LoggedDb::start(file, policy, Arc::new(Nobody)).unwrap();
        db.commit_batch(&Puts(0, keys)).unwrap();
        db.checkpoint_next();
        // This batch freezes the one before.
        db.commit_batch(&Puts(keys, keys + 1)).unwrap();
        assert!(db.current_layers().frozen.is_some());
        db
    }

    fn checkpointed(db: &LoggedDb) -> bool {
        db.current_layers().frozen.is_none()
    }

    fn stored(db: &LoggedDb) -> usize {
        let mut r = ReadAdapter::begin(&db.file.db).unwrap();
        card_core::storage::scan_prefix(&mut r, b"p/")
            .unwrap()
            .len()
    }

    /// `count` keys `p/<i>` of `size` bytes each, from `from`.
    struct Sized {
        from: u32,
        count: u32,
        size: usize,
    }

    impl Batch for Sized {
        fn len(&self) -> usize {
            1
        }

        fn run(&self, _: usize, tx: &mut dyn Tx) -> Response {
            for i in self.from..self.from + self.count {
                let key = [b"p/".as_slice(), &i.to_be_bytes()].concat();
                tx.put(&key, &vec![7; self.size]).unwrap();
            }
            Response::bytes(201, "text/plain", Vec::new())
        }
    }

    /// Parts end at `commit_bytes` as well as at `commit_keys`: 64 values of 16 KiB make parts
    /// of four keys, where keys alone would put them all in the first part.
    #[test]
    fn a_checkpoint_commits_big_values_in_parts_by_their_bytes() {
        let parts = |commit_bytes: u64| {
            let dir = tempfile::tempdir().unwrap();
            let file = Arc::new(redb::open(&dir.path().join("b.redb")).unwrap());
            let policy = Checkpoints {
                bytes: u64::MAX,
                commit_keys: 512,
                commit_bytes,
                ..Checkpoints::every(Duration::from_secs(3600))
            };
            let db = LoggedDb::new(file, policy, Arc::new(Nobody));
            let (big, small) = (
                Sized {
                    from: 0,
                    count: 64,
                    size: 16 << 10,
                },
                Sized {
                    from: 64,
                    count: 2048,
                    size: 8,
                },
            );
            db.commit_batch(&big).unwrap();
            db.commit_batch(&small).unwrap();
            db.sync_log().unwrap();
            db.checkpoint_next();
            db.commit_batch(&Sized {
                from: 5000,
                count: 1,
                size: 8,
            })
            .unwrap();
            assert!(db.run_pending_checkpoint().unwrap());
            assert_eq!(stored(&db), 64 + 2048);
            db.stats().checkpoint_parts
        };
        // By keys alone: 2,112 keys in parts of 512, the first 512 holding every big value.
        assert_eq!(parts(u64::MAX), 4);
        // By bytes too: the big values in 16 parts of four (16.6 KiB of work each), then the
        // small keys (206 bytes of work each) in parts of 319: 6 more before the last.
        assert_eq!(parts(64 << 10), 16 + 6);
    }

    #[test]
    fn pace_waits_until_the_work_done_is_due() {
        let start = Instant::now();
        let window = Duration::from_millis(800);
        // A quarter done at once: it waits until a quarter of the window has passed.
        assert_eq!(
            pace_wait(start, window, 25, 100, start),
            Duration::from_millis(200)
        );
        assert_eq!(
            pace_wait(start, window, 25, 100, start + Duration::from_millis(150)),
            Duration::from_millis(50)
        );
        // Behind its pace, or all done, or nothing to do: no wait past the window.
        assert_eq!(
            pace_wait(start, window, 25, 100, start + Duration::from_millis(300)),
            Duration::ZERO
        );
        assert_eq!(
            pace_wait(start, window, 200, 100, start + window),
            Duration::ZERO
        );
        assert_eq!(pace_wait(start, window, 5, 0, start), Duration::ZERO);
    }

    /// Spread over most of a 4 s interval, a checkpoint that takes a fraction of it unpaced (even
    /// in a debug build beside other tests) pauses between its slices, and still writes every key.
    #[test]
    fn a_paced_checkpoint_spreads_its_inserts_over_the_interval() {
        let dir = tempfile::tempdir().unwrap();
        let policy = Checkpoints {
            spread_percent: 90,
            bytes: u64::MAX,
            ..Checkpoints::every(Duration::from_secs(4))
        };
        let started = Instant::now();
        let db = frozen(&dir, policy, 20_000);
        // Counted once it is done (after the layers' swap).
        while db.stats().checkpoint.count == 0 {
            thread::sleep(Duration::from_millis(5));
        }
        let stats = db.stats();
        assert!(
            stats.checkpoint_paused.total_us >= 1_000_000,
            "paused {}",
            stats.checkpoint_paused.summary()
        );
        assert!(started.elapsed() >= Duration::from_millis(1200));
        // Many stretches, not one.
        assert!(stats.checkpoint_stretch.count >= 10, "{}", stats.summary());
        // The batch that froze the memtable is in the next one.
        assert_eq!(stored(&db), 20_000);
        db.close();
        assert_eq!(stored(&db), 20_001);
    }

    /// A paced checkpoint goes at full speed once the store stops: `close` does not wait out a
    /// long interval.
    #[test]
    fn a_paced_checkpoint_hurries_when_the_store_stops() {
        let dir = tempfile::tempdir().unwrap();
        let policy = Checkpoints {
            spread_percent: 90,
            bytes: u64::MAX,
            ..Checkpoints::every(Duration::from_secs(60))
        };
        let db = frozen(&dir, policy, 20_000);
        thread::sleep(Duration::from_millis(200));
        assert!(!checkpointed(&db), "paced over 54 s, it is still writing");
        let closing = Instant::now();
        db.close();
        assert!(closing.elapsed() < Duration::from_secs(20));
        assert_eq!(stored(&db), 20_001);
    }

    /// A paced checkpoint goes at full speed when the writes outrun it: the next memtable grows to
    /// the size that freezes it, long before the interval ends.
    #[test]
    fn a_paced_checkpoint_hurries_when_the_next_memtable_is_full() {
        let dir = tempfile::tempdir().unwrap();
        let policy = Checkpoints {
            spread_percent: 90,
            bytes: 1 << 20,
            ..Checkpoints::every(Duration::from_secs(60))
        };
        let db = frozen(&dir, policy, 20_000);
        thread::sleep(Duration::from_millis(200));
        assert!(!checkpointed(&db), "paced over 54 s, it is still writing");
        // Over a MiB (30 bytes a key) into the active memtable.
        db.commit_batch(&Puts(20_001, 80_000)).unwrap();
        let waiting = Instant::now();
        while !checkpointed(&db) {
            assert!(
                waiting.elapsed() < Duration::from_secs(20),
                "the checkpoint did not hurry"
            );
            thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(stored(&db), 20_000);
        db.close();
        assert_eq!(stored(&db), 80_000);
    }
}
