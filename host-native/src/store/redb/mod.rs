//! The data file: redb behind the core's `Tx` port (one table `kv` of byte keys to byte values), opened
//! with its write-ahead log applied, and the snapshots reads take (the memtables over redb).

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock, Weak};

use card_core::storage::KvPair;
use card_core::{Direction, StoreError, Tx};
use redb::{
    Database, ReadOnlyTable, ReadableDatabase, ReadableTable, Table, TableDefinition, TableError,
    WriteTransaction,
};

pub mod logged;
pub mod memtable;

#[cfg(test)]
mod crash_tests;

use self::memtable::{Below, Layer, Layers, Memtable, View};
use crate::store::StorageError;
use crate::store::disk::{self, DiskBackend, DiskFile, IoStats};
use crate::store::wal::{self, DiskLog, LogFile};

pub const KV: TableDefinition<&[u8], &[u8]> = TableDefinition::new("kv");

/// The sequence number of the last logged batch the data file holds (key `seq`).
const SEQ_TABLE: TableDefinition<&str, u64> = TableDefinition::new("wal");
const SEQ_KEY: &str = "seq";

/// The sequence number of the last batch committed in `txn`'s view.
pub fn stored_seq(txn: &WriteTransaction) -> Result<u64, StoreError> {
    let table = txn.open_table(SEQ_TABLE).map_err(store_err)?;
    let seq = table
        .get(SEQ_KEY)
        .map_err(store_err)?
        .map_or(0, |v| v.value());
    Ok(seq)
}

/// Records in `txn` that it carries batch `seq`.
pub fn store_seq(txn: &WriteTransaction, seq: u64) -> Result<(), StoreError> {
    let mut table = txn.open_table(SEQ_TABLE).map_err(store_err)?;
    table.insert(SEQ_KEY, seq).map(|_| ()).map_err(store_err)
}

fn store_err(e: impl std::fmt::Display) -> StoreError {
    StoreError(e.to_string())
}

/// The data file, open, with its write-ahead log applied, and the writes not yet in it.
pub struct RedbFile {
    pub db: Database,
    pub path: PathBuf,
    /// The log's two files.
    pub logs: [Arc<dyn LogFile>; 2],
    /// The data file's writes and syncs, timed.
    pub io: Arc<IoStats>,
    /// The last logged batch the file held when it was opened.
    pub seq: u64,
    /// The writes since the last checkpoint (the writer's, `logged.rs`).
    pub layers: RwLock<Arc<Layers>>,
    /// The last batch durable (its log record fsynced): reads see the store as of it, so nothing
    /// a read answers can be lost and no read waits for a sync. Set before the answers resting on
    /// it go out (`logged.rs`), so a read that follows an answered write sees that write.
    pub durable: AtomicU64,
    /// The last batch whose writes redb may hold: a checkpoint sets it (to its memtable's last
    /// batch, durable by then) before each of its commits. A read whose redb snapshot holds part of
    /// a checkpoint reads the memtables at least that far ([`RedbFile::view`]).
    redb_holds: AtomicU64,
    /// The redb snapshot the last read began, for the reads after it ([`RedbFile::view`]).
    reads: Mutex<Option<SharedSnapshot>>,
    /// Counts writes made to redb outside the memtables ([`RedbFile::wrote_directly`]).
    direct_writes: AtomicU64,
}

/// A redb read snapshot and what it was checked against: the layers it was taken with and how many
/// direct writes redb had then.
struct SharedSnapshot {
    layers: Weak<Layers>,
    direct_writes: u64,
    below: ReadAdapter,
}

impl std::fmt::Debug for RedbFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedbFile")
            .field("path", &self.path)
            .field("seq", &self.seq)
            .finish_non_exhaustive()
    }
}

impl RedbFile {
    /// A snapshot: the memtables as of the last durable batch over redb. Taken again in the rare
    /// case that a checkpoint wrote the layers' memtables into redb between taking the two.
    ///
    /// It reads as of `durable`, never later: a batch is visible to its writer's successors at
    /// once (the writer reads the latest state) but to reads only once its log record is on disk,
    /// so a read never waits for a sync, and nothing it answers can be lost. A checkpoint commits
    /// its memtable's batches into redb only once they are durable, after raising `redb_holds` to
    /// the last of them; read after the redb snapshot is taken, it tells how far the snapshot may
    /// hold (a part of a checkpoint commits keys without the rest), and the read goes at least
    /// that far in the memtables, so it never sees part of a batch.
    ///
    /// The redb snapshot (a read transaction and its table) is shared by the reads that take the
    /// same layers: beginning one and opening its tables was about 5% of the server's time reading
    /// one card under load (perf). Sound because redb changes only by a checkpoint, which swaps the
    /// layers before and after its commits (a snapshot checked against layers stays right for
    /// them: whatever a checkpoint commits stays in those layers' frozen memtable), or by a direct
    /// write ([`RedbFile::wrote_directly`]). A checkpoint also drops the shared snapshot
    /// ([`RedbFile::forget_reads`]), so an old one does not keep redb from reusing pages.
    pub fn view(&self) -> Result<View<ReadAdapter>, StoreError> {
        loop {
            let (layers, durable) = {
                let layers = self.layers.read().unwrap_or_else(|e| e.into_inner());
                (layers.clone(), self.durable.load(Ordering::Acquire))
            };
            let direct_writes = self.direct_writes.load(Ordering::Acquire);
            let shared = {
                let reads = self.reads.lock().unwrap_or_else(|e| e.into_inner());
                reads
                    .as_ref()
                    .filter(|r| {
                        r.direct_writes == direct_writes
                            && std::ptr::eq(r.layers.as_ptr(), Arc::as_ptr(&layers))
                    })
                    .map(|r| r.below.clone())
            };
            let below = match shared {
                Some(below) => below,
                None => {
                    let below = ReadAdapter::begin(&self.db)?;
                    if below.seq > layers.redb_at_most {
                        continue;
                    }
                    *self.reads.lock().unwrap_or_else(|e| e.into_inner()) = Some(SharedSnapshot {
                        layers: Arc::downgrade(&layers),
                        direct_writes,
                        below: below.clone(),
                    });
                    below
                }
            };
            // After the snapshot: at least what any checkpoint commit in it raised it to.
            let holds = self.redb_holds.load(Ordering::Acquire);
            if holds > layers.redb_at_most {
                // A later checkpoint than these layers know of may be in the snapshot.
                continue;
            }
            return Ok(View {
                layers,
                at: durable.max(holds),
                below,
                writing: false,
                wrote: false,
            });
        }
    }

    /// Before a checkpoint commits batches through `through` (all durable) into redb.
    pub fn redb_may_hold(&self, through: u64) {
        self.redb_holds.fetch_max(through, Ordering::AcqRel);
    }

    /// The batches through `point` are durable: reads may see them (before any answer resting on
    /// them goes out).
    pub fn durable_through(&self, point: u64) {
        self.durable.fetch_max(point, Ordering::AcqRel);
    }

    /// Drops the shared read snapshot (a checkpoint swapped the layers).
    pub fn forget_reads(&self) {
        *self.reads.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// After a write committed to redb outside the memtables (`Store::write`: the command line's
    /// writes): no read may use a snapshot begun before it.
    pub fn wrote_directly(&self) {
        self.direct_writes.fetch_add(1, Ordering::AcqRel);
        self.forget_reads();
    }
}

impl RedbFile {
    /// Opens (or creates, mode 0600, its directory synced) the data file on `disk`, applies what its
    /// write-ahead log holds beyond it, and checks its data format (an empty file is stamped), so
    /// read transactions can open the table.
    pub fn open(
        disk: &dyn disk::Disk,
        path: &Path,
        cache_bytes: usize,
    ) -> Result<RedbFile, StorageError> {
        let (_, (db, io)) = match disk.open(path) {
            Ok(file) => {
                let opened = open_db(&file, path, cache_bytes)?;
                (file, opened)
            }
            // A first start: the file gets its name only once redb has made it and its format is
            // stamped, so a crash meanwhile leaves no half-made file that no start could open.
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                disk::create_whole(disk, path, |file| {
                    let (db, io) = open_db(file, path, cache_bytes)?;
                    stamp_format(&db, path)?;
                    Ok::<_, StorageError>((db, io))
                })?
            }
            Err(e) => return Err(StorageError::io("open data file", path)(e)),
        };
        let [a, b] = wal::paths_for(path);
        let open_log = |p: PathBuf| match disk::open_or_create(disk, &p) {
            Ok((file, _)) => Ok((p, file)),
            Err(e) => Err(StorageError::io("create write-ahead log", &p)(e)),
        };
        let files = [open_log(a)?, open_log(b)?];
        let seq = recover(&db, path, &files)?;
        let log = |(p, file): &(PathBuf, Arc<dyn DiskFile>)| match DiskLog::new(file.clone()) {
            Ok(log) => Ok(Arc::new(log) as Arc<dyn LogFile>),
            Err(e) => Err(StorageError::io("open", p)(e)),
        };
        let logs = [log(&files[0])?, log(&files[1])?];
        // The data format is checked before anything else touches the data.
        stamp_format(&db, path)?;
        Ok(RedbFile {
            db,
            path: path.to_path_buf(),
            logs,
            io,
            seq,
            layers: RwLock::new(Arc::new(Layers {
                active: Arc::new(Memtable::default()),
                frozen: None,
                redb_at_most: seq,
            })),
            durable: AtomicU64::new(seq),
            redb_holds: AtomicU64::new(seq),
            reads: Mutex::new(None),
            direct_writes: AtomicU64::new(0),
        })
    }
}

/// redb over `file`, which this process then holds locked.
fn open_db(
    file: &Arc<dyn DiskFile>,
    path: &Path,
    cache_bytes: usize,
) -> Result<(Database, Arc<IoStats>), StorageError> {
    if !file
        .try_lock()
        .map_err(StorageError::io("lock data file", path))?
    {
        return Err(StorageError::InUse(path.to_path_buf()));
    }
    let (backend, io) = DiskBackend::new(file.clone());
    let db = redb::Builder::new()
        .set_cache_size(cache_bytes)
        .create_with_backend(backend)
        .map_err(StorageError::redb(path))?;
    Ok((db, io))
}

/// Checks the data format (an empty store is stamped with the current one) and makes sure the table
/// exists, so read transactions can open it.
fn stamp_format(db: &Database, path: &Path) -> Result<(), StorageError> {
    let txn = db.begin_write().map_err(StorageError::redb(path))?;
    txn.open_table(KV).map_err(StorageError::redb(path))?;
    {
        let mut adapter = WriteAdapter::open(&txn)?;
        card_core::Service::open_store(&mut adapter).map_err(|source| StorageError::Format {
            path: path.to_path_buf(),
            source,
        })?;
    }
    txn.commit().map_err(StorageError::redb(path))
}

/// Applies what the log holds beyond the data file's last batch, commits it durably, then empties
/// the log. Returns the last batch the file now holds. Emptied, not started over as a checkpoint
/// does (`DiskLog`): past a gap the log may hold records of batches that were never acknowledged,
/// numbered as the batches this run writes next, and replay must not meet those after a crash.
fn recover(
    db: &Database,
    path: &Path,
    logs: &[(PathBuf, Arc<dyn DiskFile>)],
) -> Result<u64, StorageError> {
    let mut contents = Vec::new();
    for (log_path, file) in logs {
        contents.push(
            file.read_all()
                .map_err(StorageError::io("read", log_path))?,
        );
    }
    let txn = db.begin_write().map_err(StorageError::redb(path))?;
    let stored = stored_seq(&txn)?;
    let (seq, applied) = {
        let mut adapter = WriteAdapter::open(&txn)?;
        let files: Vec<&[u8]> = contents.iter().map(Vec::as_slice).collect();
        wal::replay(&files, stored, &mut adapter).map_err(|source| StorageError::Recover {
            path: path.to_path_buf(),
            source,
        })?
    };
    store_seq(&txn, seq)?;
    txn.commit().map_err(StorageError::redb(path))?;
    if applied > 0 {
        tracing::info!(batches = applied, "applied the write-ahead log");
    }
    for ((log_path, file), bytes) in logs.iter().zip(&contents) {
        if !bytes.is_empty() {
            file.set_len(0)
                .and_then(|()| file.sync())
                .map_err(StorageError::io("empty", log_path))?;
        }
    }
    Ok(seq)
}

/// Opens (or creates) the data file with redb's default cache.
#[cfg(test)]
pub fn open(path: &Path) -> Result<RedbFile, StorageError> {
    RedbFile::open(&disk::RealDisk, path, 1 << 30)
}

fn get_in<T: ReadableTable<&'static [u8], &'static [u8]>>(
    table: &T,
    key: &[u8],
) -> Result<Option<Vec<u8>>, StoreError> {
    Ok(table
        .get(key)
        .map_err(store_err)?
        .map(|v| v.value().to_vec()))
}

type RangeItem<'a> = (
    redb::AccessGuard<'a, &'static [u8]>,
    redb::AccessGuard<'a, &'static [u8]>,
);

fn scan_in<T: ReadableTable<&'static [u8], &'static [u8]>>(
    table: &T,
    start: &[u8],
    end: &[u8],
    dir: Direction,
    limit: usize,
) -> Result<Vec<KvPair>, StoreError> {
    if start >= end || limit == 0 {
        return Ok(Vec::new());
    }
    let range = table.range(start..end).map_err(store_err)?;
    let pair = |item: Result<RangeItem<'_>, redb::StorageError>| {
        item.map(|(k, v)| (k.value().to_vec(), v.value().to_vec()))
            .map_err(store_err)
    };
    match dir {
        Direction::Forward => range.take(limit).map(pair).collect(),
        Direction::Reverse => range.rev().take(limit).map(pair).collect(),
    }
}

/// A read-only snapshot. Writes are refused: the core asked for a read transaction, so a write is a bug.
/// Clones share the snapshot: the reads that take the same layers use one ([`RedbFile::view`]).
#[derive(Clone)]
pub struct ReadAdapter {
    // None only for a data file whose table was never created (not one `open` made).
    table: Option<Arc<ReadOnlyTable<&'static [u8], &'static [u8]>>>,
    /// The last logged batch the snapshot holds.
    pub seq: u64,
}

impl ReadAdapter {
    pub fn begin(db: &Database) -> Result<ReadAdapter, StoreError> {
        let tx = db.begin_read().map_err(store_err)?;
        let table = match tx.open_table(KV) {
            Ok(t) => Some(Arc::new(t)),
            Err(TableError::TableDoesNotExist(_)) => None,
            Err(e) => return Err(store_err(e)),
        };
        let seq = match tx.open_table(SEQ_TABLE) {
            Ok(t) => t.get(SEQ_KEY).map_err(store_err)?.map_or(0, |v| v.value()),
            Err(TableError::TableDoesNotExist(_)) => 0,
            Err(e) => return Err(store_err(e)),
        };
        Ok(ReadAdapter { table, seq })
    }
}

impl Below for ReadAdapter {
    fn layer(
        &mut self,
        start: &[u8],
        end: &[u8],
        dir: Direction,
    ) -> Result<Layer<'static>, StoreError> {
        let Some(table) = &self.table else {
            return Ok(Box::new(std::iter::empty()));
        };
        let range = table.range::<&[u8]>(start..end).map_err(store_err)?;
        let pair = |item: Result<RangeItem<'static>, redb::StorageError>| {
            item.map(|(k, v)| (k.value().to_vec(), Some(v.value().to_vec())))
                .map_err(store_err)
        };
        Ok(match dir {
            Direction::Forward => Box::new(range.map(pair)),
            Direction::Reverse => Box::new(range.rev().map(pair)),
        })
    }
}

impl Tx for ReadAdapter {
    fn get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        match &self.table {
            Some(t) => get_in(t.as_ref(), key),
            None => Ok(None),
        }
    }

    fn put(&mut self, _key: &[u8], _value: &[u8]) -> Result<(), StoreError> {
        Err(StoreError::read_only())
    }

    fn delete(&mut self, _key: &[u8]) -> Result<(), StoreError> {
        Err(StoreError::read_only())
    }

    fn scan(
        &mut self,
        start: &[u8],
        end: &[u8],
        dir: Direction,
        limit: usize,
    ) -> Result<Vec<KvPair>, StoreError> {
        match &self.table {
            Some(t) => scan_in(t.as_ref(), start, end, dir, limit),
            None => Ok(Vec::new()),
        }
    }
}

/// The table of an open write transaction (the command line's writes, recovery, checkpoints).
pub struct WriteAdapter<'txn> {
    table: Table<'txn, &'static [u8], &'static [u8]>,
}

impl<'txn> WriteAdapter<'txn> {
    pub fn open(tx: &'txn WriteTransaction) -> Result<WriteAdapter<'txn>, StoreError> {
        Ok(WriteAdapter {
            table: tx.open_table(KV).map_err(store_err)?,
        })
    }
}

impl Tx for WriteAdapter<'_> {
    fn get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        get_in(&self.table, key)
    }

    fn put(&mut self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        self.table.insert(key, value).map(|_| ()).map_err(store_err)
    }

    fn delete(&mut self, key: &[u8]) -> Result<(), StoreError> {
        self.table.remove(key).map(|_| ()).map_err(store_err)
    }

    fn scan(
        &mut self,
        start: &[u8],
        end: &[u8],
        dir: Direction,
        limit: usize,
    ) -> Result<Vec<KvPair>, StoreError> {
        scan_in(&self.table, start, end, dir, limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(rows: &[KvPair]) -> Vec<&[u8]> {
        rows.iter().map(|(k, _)| k.as_slice()).collect()
    }

    /// A read after a write made straight to redb (the command line's) sees it, though reads share
    /// a snapshot.
    #[test]
    fn a_read_after_a_direct_write_sees_it() {
        let dir = tempfile::tempdir().unwrap();
        let file = Arc::new(open(&dir.path().join("d.redb")).unwrap());
        let store = crate::store::Store::Redb(file);
        for value in [b"1", b"2", b"3"] {
            store
                .write(|tx| tx.put(b"k", value).map_err(StorageError::from))
                .unwrap();
            let read = store.read(|tx| tx.get(b"k").unwrap()).unwrap();
            assert_eq!(read.as_deref(), Some(&value[..]));
        }
    }

    fn seeded() -> (tempfile::TempDir, Database) {
        let dir = tempfile::tempdir().unwrap();
        let db = open(&dir.path().join("t.redb")).unwrap().db;
        let tx = db.begin_write().unwrap();
        {
            let mut w = WriteAdapter::open(&tx).unwrap();
            for k in [b"a1", b"a2", b"a3", b"b1"] {
                w.put(k, &[k[1]]).unwrap();
            }
            w.put(b"zz", b"gone").unwrap();
            w.delete(b"zz").unwrap();
        }
        tx.commit().unwrap();
        (dir, db)
    }

    #[test]
    fn scans_both_directions_with_limits() {
        let (_dir, db) = seeded();
        let mut r = ReadAdapter::begin(&db).unwrap();
        let all = r.scan(b"a", b"b", Direction::Forward, usize::MAX).unwrap();
        assert_eq!(keys(&all), vec![&b"a1"[..], b"a2", b"a3"]);
        assert_eq!(all[0].1, b"1".to_vec());
        let rev = r.scan(b"a", b"b", Direction::Reverse, 2).unwrap();
        assert_eq!(keys(&rev), vec![&b"a3"[..], b"a2"]);
        let fwd = r.scan(b"a2", b"z", Direction::Forward, 2).unwrap();
        assert_eq!(keys(&fwd), vec![&b"a2"[..], b"a3"]);
        // End is exclusive, an empty or inverted range is empty, limit 0 is empty.
        assert_eq!(
            keys(&r.scan(b"a1", b"a3", Direction::Reverse, 9).unwrap()),
            vec![&b"a2"[..], b"a1"]
        );
        assert!(
            r.scan(b"b", b"a", Direction::Forward, 9)
                .unwrap()
                .is_empty()
        );
        assert!(
            r.scan(b"a", b"a", Direction::Forward, 9)
                .unwrap()
                .is_empty()
        );
        assert!(
            r.scan(b"a", b"z", Direction::Forward, 0)
                .unwrap()
                .is_empty()
        );
        assert_eq!(r.get(b"b1").unwrap(), Some(b"1".to_vec()));
        assert_eq!(r.get(b"zz").unwrap(), None);
    }

    #[test]
    fn write_adapter_reads_its_own_writes() {
        let (_dir, db) = seeded();
        let tx = db.begin_write().unwrap();
        let mut w = WriteAdapter::open(&tx).unwrap();
        w.put(b"a0", b"0").unwrap();
        w.delete(b"a2").unwrap();
        let rows = w.scan(b"a", b"b", Direction::Reverse, usize::MAX).unwrap();
        assert_eq!(keys(&rows), vec![&b"a3"[..], b"a1", b"a0"]);
        drop(w);
        tx.abort().unwrap();
        // Aborted: nothing reached the file.
        let mut r = ReadAdapter::begin(&db).unwrap();
        assert_eq!(r.get(b"a0").unwrap(), None);
        assert_eq!(r.get(b"a2").unwrap(), Some(b"2".to_vec()));
    }

    #[test]
    fn read_adapter_refuses_writes_and_sees_a_snapshot() {
        let (_dir, db) = seeded();
        let mut r = ReadAdapter::begin(&db).unwrap();
        assert!(r.put(b"x", b"y").is_err());
        assert!(r.delete(b"a1").is_err());
        // A commit after the snapshot began is invisible to it.
        let tx = db.begin_write().unwrap();
        WriteAdapter::open(&tx).unwrap().put(b"a9", b"9").unwrap();
        tx.commit().unwrap();
        assert_eq!(r.get(b"a9").unwrap(), None);
        assert_eq!(
            ReadAdapter::begin(&db).unwrap().get(b"a9").unwrap(),
            Some(b"9".to_vec())
        );
        assert_eq!(r.get(b"a1").unwrap(), Some(b"1".to_vec()));
    }

    #[test]
    fn a_new_data_file_is_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.redb");
        drop(open(&path).unwrap());
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    #[test]
    fn reopening_keeps_data() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.redb");
        {
            let db = open(&path).unwrap().db;
            let tx = db.begin_write().unwrap();
            WriteAdapter::open(&tx).unwrap().put(b"k", b"v").unwrap();
            tx.commit().unwrap();
        }
        // Another test of this binary spawning a process (pg.rs runs `openssl`) lends the child a
        // copy of the first open's descriptor until its exec, and with it the file's lock: retry.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        let db = loop {
            match open(&path) {
                Ok(file) => break file.db,
                Err(StorageError::InUse(_)) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(std::time::Duration::from_millis(10))
                }
                Err(e) => panic!("reopen: {e}"),
            }
        };
        assert_eq!(
            ReadAdapter::begin(&db).unwrap().get(b"k").unwrap(),
            Some(b"v".to_vec())
        );
    }
}
