//! The redb file behind the group-commit writer: each batch is committed to redb without an fsync
//! and its writes appended to the write-ahead log ([`crate::wal`]), which the writer's syncer makes
//! durable before anyone hears back. Every so often a batch is committed durably instead (a
//! checkpoint) and the log starts over.

use std::fs::File;
use std::path::Path;
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::Duration;

use card_core::{Env, Service};
use redb::Database;
use tracing::error;

use crate::storage::WriteAdapter;
use crate::wal::{self, Log};
use crate::writer::{Batch, BatchStore, Handler, Job, Progress, run_job};

pub struct LoggedDb {
    db: Arc<Database>,
    state: Mutex<State>,
    /// The log file again, for the syncer's fsync (which must not wait for the writer's appends).
    sync_file: File,
    progress: Arc<Progress>,
    /// Dropped with the store, which stops the write-back thread.
    _write_back: mpsc::Sender<()>,
}

/// How often the write-back thread flushes the data file's dirty pages.
const WRITE_BACK_EVERY: Duration = Duration::from_millis(100);

/// Flushes the data file's dirty pages every [`WRITE_BACK_EVERY`] until `stop` is dropped.
///
/// A checkpoint's fsync otherwise writes a whole interval's pages at once (100 to 200 ms at a
/// million cards), and the writer waits for it. Flushing them early is only a head start: the pages
/// of commits made without an fsync are never the durable state's pages (redb reuses a freed page
/// only after a durable commit), so whenever they reach the disk, a crash still recovers the last
/// checkpoint plus the log.
fn spawn_write_back(data: &Path, stop: mpsc::Receiver<()>) -> std::io::Result<()> {
    let file = File::open(data)?;
    thread::Builder::new()
        .name("cards-writeback".into())
        .spawn(move || {
            while let Err(mpsc::RecvTimeoutError::Timeout) = stop.recv_timeout(WRITE_BACK_EVERY) {
                if let Err(e) = file.sync_data() {
                    // The writer's own commits see the fault; this thread only gives up.
                    error!(error = %e, "cannot write back the data file");
                    return;
                }
            }
        })?;
    Ok(())
}

struct State {
    log: Log,
    /// The last batch committed to redb.
    seq: u64,
    /// The payload buffer, reused from batch to batch.
    payload: Vec<u8>,
}

impl LoggedDb {
    /// The writer's store over `db`, whose log [`crate::storage::open_cached`] has already applied.
    pub fn open(
        db: Arc<Database>,
        data: &Path,
        checkpoint_interval: Duration,
    ) -> Result<LoggedDb, String> {
        let txn = db.begin_write().map_err(|e| e.to_string())?;
        let seq = wal::stored_seq(&txn)?;
        txn.abort().map_err(|e| e.to_string())?;
        let (log, sync_file) = Log::open(data, checkpoint_interval)
            .map_err(|e| format!("cannot open {}: {e}", wal::path_for(data).display()))?;
        let (write_back, stop) = mpsc::channel();
        spawn_write_back(data, stop)
            .map_err(|e| format!("cannot start writing back {}: {e}", data.display()))?;
        Ok(LoggedDb {
            db,
            state: Mutex::new(State {
                log,
                seq,
                payload: Vec::new(),
            }),
            sync_file,
            progress: Arc::new(Progress::new(seq)),
            _write_back: write_back,
        })
    }
}

impl BatchStore for LoggedDb {
    fn progress(&self) -> Option<&Arc<Progress>> {
        Some(&self.progress)
    }

    fn commit_batch(&self, handler: &dyn Handler, env: &dyn Env, jobs: &[Box<Job>]) -> Batch {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let state = &mut *state;
        let failed = |fatal| Batch {
            responses: jobs
                .iter()
                .map(|_| Service::internal_error("storage failure in group commit"))
                .collect(),
            fatal,
            committed: false,
            settle_at: None,
        };
        let mut txn = match self.db.begin_write() {
            Ok(t) => t,
            Err(e) => {
                error!(error = %e, "cannot begin write transaction");
                return failed(true);
            }
        };
        let checkpoint = state.log.checkpoint_due();
        if !checkpoint && let Err(e) = txn.set_durability(redb::Durability::None) {
            error!(error = %e, "cannot set the durability of a write transaction");
            return failed(true);
        }
        let mut responses = Vec::with_capacity(jobs.len());
        let payload = std::mem::take(&mut state.payload);
        let (storage_failed, wrote) = match WriteAdapter::open(&txn) {
            Ok(adapter) => {
                let mut adapter = adapter.logging(payload);
                for job in jobs {
                    responses.push(run_job(handler, job, &mut adapter, env));
                }
                let outcome = (adapter.failed(), adapter.wrote());
                state.payload = adapter.into_log().unwrap_or_default();
                outcome
            }
            Err(e) => {
                error!(error = %e, "cannot open table in write transaction");
                (true, false)
            }
        };
        let seq = state.seq + 1;
        let stamped = wrote && !storage_failed && wal::store_seq(&txn, seq).is_ok();
        if !stamped {
            if storage_failed || wrote {
                error!(
                    batch = jobs.len(),
                    "storage error in group commit; batch aborted"
                );
            }
            if let Err(e) = txn.abort() {
                error!(error = %e, "abort failed");
            }
            if !storage_failed && !wrote {
                // Nothing written, but the answers may rest on batches not yet durable.
                return Batch {
                    responses,
                    fatal: false,
                    committed: false,
                    settle_at: Some(state.seq),
                };
            }
            // A latched I/O error fails the next transaction too; a one-off failure does not.
            let latched = self.db.begin_write().map(|t| t.abort()).is_err();
            return failed(latched);
        }
        // Before the commit: a read that sees this batch also sees that it must wait for it.
        self.progress.publish(seq);
        if let Err(e) = txn.commit() {
            // After a failed write the file's state is unknown: never write on without a reopen.
            error!(error = %e, batch = jobs.len(), "group commit failed");
            return failed(true);
        }
        state.seq = seq;
        let logged = if checkpoint {
            state.log.checkpointed()
        } else {
            state.log.append(seq, &state.payload)
        };
        if let Err(e) = logged {
            error!(error = %e, "cannot write the write-ahead log");
            return failed(true);
        }
        Batch {
            responses,
            fatal: false,
            committed: true,
            settle_at: Some(seq),
        }
    }

    fn sync(&self) -> std::io::Result<()> {
        self.sync_file.sync_data()
    }

    /// A last durable commit, so a clean stop leaves an empty log.
    fn close(&self) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let done = self
            .db
            .begin_write()
            .map_err(|e| e.to_string())
            .and_then(|txn| {
                wal::store_seq(&txn, state.seq).map_err(|e| e.to_string())?;
                txn.commit().map_err(|e| e.to_string())
            })
            .and_then(|()| state.log.checkpointed().map_err(|e| e.to_string()));
        if let Err(e) = done {
            error!(error = %e, "the last checkpoint failed; the next start applies the log");
        }
    }
}
