//! Crash tests of the native store: random sequences of writes, batches, log syncs, checkpoints and
//! restarts, on a simulated disk (`store/disk/sim.rs`) that crashes at every sync point in turn. After
//! each crash the image is opened as a restart would (the vault key file, the data file, the log
//! applied) and checked against a model: every acknowledged write is there, nothing is half there
//! (the data equals the state after some whole batch), nothing a read saw is lost (reads see the
//! state after a whole batch, and a restart shows that one or a later one), a torn or corrupt log
//! tail is cut, and a crash inside a checkpoint or inside first-start creation recovers.
//!
//! It runs the real pieces single-threaded and in a fixed order: the group-commit state machine
//! decides which answers go out, `LoggedDb` writes and logs, its `Syncer` syncs and its checkpoints
//! run when told.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use card_core::storage::scan_prefix;
use card_core::{Response, Tx};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

use crate::store::batch::{Batch, BatchStore, Fatal, Progress};
use crate::store::disk::sim::{Image, SimDisk};
use crate::store::redb::logged::{Checkpoints, LoggedDb};
use crate::store::redb::{ReadAdapter, RedbFile};
use crate::vault_key;
use crate::writer::machine::GroupCommit;

fn data_path() -> PathBuf {
    Path::new("/data").join("cards.redb")
}

fn key_path() -> PathBuf {
    vault_key::key_file_for(&data_path())
}

/// Puts (`Some`) and deletes (`None`) of the keys `t0`..`t7`.
type Writes = Vec<(u8, Option<u8>)>;

#[derive(Debug, Clone)]
enum Op {
    /// A write, acknowledged only once durable.
    Submit(Writes),
    /// The writer commits the next batch.
    Commit,
    /// The syncer syncs the log.
    Sync,
    /// The next batch freezes the memtable for a checkpoint.
    Checkpoint,
    /// The checkpointer writes the frozen memtable into the data file.
    RunCheckpoint,
    /// A clean stop (a last checkpoint) and a start.
    Restart,
}

fn op() -> impl Strategy<Value = Op> {
    let writes = prop::collection::vec((0u8..8, prop::option::of(any::<u8>())), 1..4);
    prop_oneof![
        4 => writes.prop_map(Op::Submit),
        4 => Just(Op::Commit),
        3 => Just(Op::Sync),
        1 => Just(Op::Checkpoint),
        2 => Just(Op::RunCheckpoint),
        1 => Just(Op::Restart),
    ]
}

struct Job {
    id: usize,
    writes: Writes,
}

/// The state machine behind a mutex, as the store's progress sink (the writer's `Pipeline` without
/// its threads).
struct Driver(Mutex<GroupCommit<Job, usize>>);

impl Driver {
    fn lock(&self) -> MutexGuard<'_, GroupCommit<Job, usize>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Progress for Driver {
    fn synced(&self, point: u64) {
        self.lock().synced(point);
    }
    fn failed(&self, cause: &Fatal) {
        self.lock().failed(cause.0.clone());
    }
}

struct Jobs<'a>(&'a [Job]);

fn key(k: u8) -> [u8; 2] {
    [b't', k]
}

impl Batch for Jobs<'_> {
    fn len(&self) -> usize {
        self.0.len()
    }

    fn run(&self, i: usize, tx: &mut dyn Tx) -> Response {
        for (k, v) in &self.0[i].writes {
            let done = match v {
                // A key the transaction lacks goes in as `put_new`, as the index code's do, so the
                // checkpoints skip the deletes of keys new to their memtable here too.
                Some(v) => match tx.get(&key(*k)) {
                    Ok(None) => tx.put_new(&key(*k), &[*v]),
                    Ok(Some(_)) => tx.put(&key(*k), &[*v]),
                    Err(e) => Err(e),
                },
                None => tx.delete(&key(*k)),
            };
            if done.is_err() {
                return Response::bytes(500, "text/plain", Vec::new());
            }
        }
        Response::bytes(201, "text/plain", Vec::new())
    }
}

/// What the run did, to judge a crash image by.
#[derive(Default)]
struct Model {
    /// The test keys after each committed batch, in commit order (index 0: before any), and last
    /// the batch being committed when the disk crashed (its commit failed, but what it wrote may
    /// have reached the disk whole: a state a restart may show, though no write of it was
    /// acknowledged).
    states: Vec<BTreeMap<u8, u8>>,
    /// Which state each committed job's writes first appear in.
    job_state: HashMap<usize, usize>,
    /// The latest state an acknowledged write is in.
    acknowledged: usize,
    /// The latest state a read saw (reads see the state after a whole batch, a durable one).
    read: usize,
    /// The vault key the run was handed.
    key: Option<[u8; 32]>,
}

impl Model {
    fn committed(&mut self, jobs: &[Job]) {
        let mut state = self.states.last().cloned().unwrap_or_default();
        for job in jobs {
            for (k, v) in &job.writes {
                match v {
                    Some(v) => state.insert(*k, *v),
                    None => state.remove(k),
                };
            }
        }
        self.states.push(state);
        for job in jobs {
            self.job_state.insert(job.id, self.states.len() - 1);
        }
    }

    fn acknowledge(&mut self, jobs: Vec<usize>) {
        for id in jobs {
            let state = self.job_state[&id];
            self.acknowledged = self.acknowledged.max(state);
        }
    }
}

fn open(disk: &SimDisk, driver: &Arc<Driver>) -> Option<LoggedDb> {
    let file = RedbFile::open(disk, &data_path(), 1 << 20).ok()?;
    Some(LoggedDb::new(
        Arc::new(file),
        Checkpoints {
            interval: Duration::from_secs(3600),
            bytes: u64::MAX,
            // Checkpoints in parts of two keys (once the log holds their batches), so crashes
            // land between the parts too.
            commit_keys: 2,
            ..Checkpoints::every(Duration::ZERO)
        },
        driver.clone(),
    ))
}

/// Runs `ops` from an empty disk until they end or the disk crashes.
fn run(disk: &SimDisk, ops: &[Op], max_batch: usize) -> Model {
    let mut model = Model {
        states: vec![BTreeMap::new()],
        ..Model::default()
    };
    let Ok((keys, _)) = vault_key::load_or_create(disk, &key_path()) else {
        return model;
    };
    model.key = keys.first().copied();
    let driver = Arc::new(Driver(Mutex::new(GroupCommit::new(max_batch, 0))));
    let Some(mut db) = open(disk, &driver) else {
        return model;
    };
    let mut next_id = 0;
    for op in ops {
        match op {
            Op::Submit(writes) => {
                let job = Job {
                    id: next_id,
                    writes: writes.clone(),
                };
                next_id += 1;
                if driver.lock().submit(job).is_err() {
                    return model;
                }
            }
            Op::Commit => {
                let Some(batch) = driver.lock().next_batch() else {
                    continue;
                };
                match db.commit_batch(&Jobs(&batch)) {
                    Ok(c) => {
                        if c.wrote {
                            model.committed(&batch);
                        }
                        let ids = batch.iter().map(|j| j.id).collect();
                        driver.lock().committed(ids, c.settle, c.wrote);
                    }
                    Err(fatal) => {
                        model.committed(&batch);
                        driver.lock().failed(fatal.0);
                        return model;
                    }
                }
            }
            Op::Sync => {
                if db.sync_log().is_err() {
                    return model;
                }
            }
            Op::Checkpoint => db.checkpoint_next(),
            Op::RunCheckpoint => {
                if let Err(fatal) = db.run_pending_checkpoint() {
                    driver.lock().failed(fatal.0);
                    return model;
                }
            }
            Op::Restart => {
                db.close();
                drop(db);
                db = match open(disk, &driver) {
                    Some(db) => db,
                    None => return model,
                };
            }
        }
        let out = driver.lock().take_output();
        model.acknowledge(out.answers);
        if driver.lock().failure().is_some() {
            return model;
        }
        // What a read sees now: the state after some whole batch, at or after every acknowledged
        // one; the crash images must keep it (`check`).
        if let Ok(mut view) = db.file().view()
            && let Ok(rows) = scan_prefix(&mut view, b"t")
        {
            let seen: BTreeMap<u8, u8> = rows.into_iter().map(|(k, v)| (k[1], v[0])).collect();
            let states: Vec<usize> = (0..model.states.len())
                .filter(|i| model.states[*i] == seen)
                .collect();
            assert!(
                states.iter().any(|i| *i >= model.acknowledged),
                "a read saw {seen:?}, the state after batches {states:?}; acknowledged writes \
                 reach batch {} (states {:?})",
                model.acknowledged,
                model.states
            );
            model.read = model.read.max(states[0]);
        }
    }
    model
}

/// Opens the image as a restart would and checks it against the model.
fn check(image: &Image, model: &Model) -> Result<(), TestCaseError> {
    let disk = SimDisk::from_image(image, None, 0);
    if let Some(key) = model.key {
        let (again, _) = vault_key::load_or_create(&disk, &key_path())
            .map_err(|e| TestCaseError::fail(format!("vault key: {e}")))?;
        prop_assert_eq!(again, vec![key], "the vault key handed out survived");
    }
    let file = RedbFile::open(&disk, &data_path(), 1 << 20)
        .map_err(|e| TestCaseError::fail(format!("restart failed: {e}")))?;
    let mut read = ReadAdapter::begin(&file.db).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let rows = scan_prefix(&mut read, b"t").map_err(|e| TestCaseError::fail(e.to_string()))?;
    let found: BTreeMap<u8, u8> = rows.into_iter().map(|(k, v)| (k[1], v[0])).collect();
    let matches: Vec<usize> = (0..model.states.len())
        .filter(|i| model.states[*i] == found)
        .collect();
    prop_assert!(
        matches
            .iter()
            .any(|i| *i >= model.acknowledged.max(model.read)),
        "after the crash the data is {:?}, which is the state after batches {:?}; \
         acknowledged writes reach batch {}, reads saw batch {} (states {:?})",
        found,
        matches,
        model.acknowledged,
        model.read,
        model.states
    );
    Ok(())
}

/// Crash points and cases run, for the summary line.
static CASES: AtomicU64 = AtomicU64::new(0);
static CRASHES: AtomicU64 = AtomicU64::new(0);

#[test]
fn every_acknowledged_write_survives_a_crash_at_any_sync() {
    let cases = std::env::var("CARDS_CRASH_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(16);
    let mut runner = TestRunner::new(Config::with_cases(cases));
    let strategy = (prop::collection::vec(op(), 1..48), 1usize..4, any::<u64>());
    runner
        .run(&strategy, |(ops, max_batch, seed)| {
            // A run to the end counts its sync points; then one run per point, crashing there.
            let whole = SimDisk::new(None, seed);
            let model = run(&whole, &ops, max_batch);
            let points = whole.syncs();
            check(&whole.crash_now(), &model)?;
            for at in 0..points {
                let disk = SimDisk::new(Some(at), seed.wrapping_add(at));
                let model = run(&disk, &ops, max_batch);
                let image = disk.image().unwrap_or_else(|| disk.crash_now());
                check(&image, &model)?;
            }
            CASES.fetch_add(1, Ordering::Relaxed);
            CRASHES.fetch_add(points + 1, Ordering::Relaxed);
            Ok(())
        })
        .unwrap();
    eprintln!(
        "crash tests: {} cases, {} crash points, each restarted and checked",
        CASES.load(Ordering::Relaxed),
        CRASHES.load(Ordering::Relaxed)
    );
}

/// While a checkpoint is still being written, the active memtable grows to twice the size that
/// freezes it and no further: then a commit waits for the checkpointer (memory stays bounded).
#[test]
fn a_writer_ahead_of_its_checkpoints_waits_for_them() {
    let disk = SimDisk::new(None, 7);
    let driver = Arc::new(Driver(Mutex::new(GroupCommit::new(1, 0))));
    let file = RedbFile::open(&disk, &data_path(), 1 << 20).unwrap();
    let db = Arc::new(LoggedDb::new(
        Arc::new(file),
        Checkpoints {
            interval: Duration::from_secs(3600),
            bytes: 64,
            ..Checkpoints::every(Duration::ZERO)
        },
        driver.clone(),
    ));
    let commit = |db: &LoggedDb, k: u8| {
        let jobs = [Job {
            id: k as usize,
            writes: vec![(k % 8, Some(k))],
        }];
        db.commit_batch(&Jobs(&jobs)).unwrap();
    };
    // Fill the active memtable past the freeze size, then freeze it: the checkpointer (run by
    // hand here) has not written it yet.
    let mut k = 0u8;
    while db.current_bytes() < 64 {
        commit(&db, k);
        k += 1;
    }
    db.checkpoint_next();
    commit(&db, k);
    // The new active memtable may reach 128 bytes; a writer that goes on must then wait.
    let writer = {
        let db = db.clone();
        std::thread::spawn(move || {
            for i in 0..64u8 {
                commit(&db, k.wrapping_add(1).wrapping_add(i));
            }
        })
    };
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        !writer.is_finished(),
        "the writer ran ahead of an unfinished checkpoint without bound"
    );
    // Each checkpoint the writer waits for lets it go on; it finishes once they keep up.
    while !writer.is_finished() {
        db.run_pending_checkpoint().unwrap();
        std::thread::sleep(Duration::from_millis(5));
    }
    writer.join().unwrap();
}

/// A read that still holds the checkpointed memtable when its checkpoint ends does not free it
/// (tens of milliseconds on a request's thread): the checkpointer waits and frees it itself.
#[test]
fn the_checkpointer_frees_a_memtable_a_read_still_holds() {
    let disk = SimDisk::new(None, 11);
    let driver = Arc::new(Driver(Mutex::new(GroupCommit::new(1, 0))));
    let file = Arc::new(RedbFile::open(&disk, &data_path(), 1 << 20).unwrap());
    let db = LoggedDb::new(
        file.clone(),
        Checkpoints {
            interval: Duration::from_secs(3600),
            bytes: u64::MAX,
            ..Checkpoints::every(Duration::ZERO)
        },
        driver,
    );
    let commit = |id: usize, k: u8| {
        let jobs = [Job {
            id,
            writes: vec![(k, Some(k))],
        }];
        db.commit_batch(&Jobs(&jobs)).unwrap();
    };
    commit(0, 1);
    db.checkpoint_next();
    commit(1, 2);
    // What a read that began before the checkpoint holds: the layers with the frozen memtable.
    let held = file.layers.read().unwrap().clone();
    let frozen = Arc::downgrade(held.frozen.as_ref().expect("the memtable was frozen"));
    // It lets go 50 ms after the checkpoint's swap (not 50 ms from now, which a checkpoint slowed
    // by a busy machine could outlast, leaving nothing to wait for).
    let swapped = file.clone();
    let reader = std::thread::spawn(move || {
        while swapped.layers.read().unwrap().frozen.is_some() {
            std::thread::sleep(Duration::from_millis(1));
        }
        std::thread::sleep(Duration::from_millis(50));
        drop(held);
    });
    assert!(db.run_pending_checkpoint().unwrap());
    assert!(
        frozen.upgrade().is_none(),
        "the checkpoint returned while a read still held its memtable"
    );
    reader.join().unwrap();
    let stats = db.stats();
    assert_eq!((stats.frees_waited, stats.frees_left), (1, 0));
    assert_eq!(stats.checkpoint_free.count, 1);
}
