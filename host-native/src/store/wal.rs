//! The write-ahead log beside the redb file (`<data>.wal`), which lets one batch's fsync overlap
//! the next batch's work.
//!
//! Without it every group commit waits for redb's fsync before the writer can start the next batch.
//! With it, a batch is committed to redb without an fsync (visible, not yet durable), its writes are
//! appended here, and the store's syncer thread ([`Syncer`]) makes the log durable and only then
//! lets the batch answer, while the writer already runs the next one. Now and then a batch is
//! committed to redb durably instead, and the log starts over: a checkpoint (`logged.rs`).
//!
//! This module knows nothing of redb: [`LoggedTx`] wraps any transaction and records its writes,
//! [`replay`] applies records to any transaction, and the bytes go through [`LogFile`].
//!
//! A record: `CWAL`, the sequence number (u64 LE), the payload length (u32 LE), a CRC-32 of the
//! sequence number and payload (u32 LE), then the payload: each write in the order it was applied,
//! a tag byte (1 put, 0 delete), the key length (u32 LE) and key, and for a put the value length
//! (u32 LE) and value. Reading stops at the first record that is torn or corrupt.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Instant;

use card_core::storage::KvPair;
use card_core::{Direction, StoreError, Tx};

use crate::store::Timings;
use crate::store::disk::DiskFile;

const MAGIC: &[u8; 4] = b"CWAL";
const HEADER: usize = 4 + 8 + 4 + 4;

/// The log files of the data file `data`: `<data>.wal` and `<data>.wal2`. The writer appends to
/// one while the records of the other are being checkpointed; then that file starts over.
pub fn paths_for(data: &Path) -> [PathBuf; 2] {
    [".wal", ".wal2"].map(|suffix| {
        let mut name = data.as_os_str().to_owned();
        name.push(suffix);
        PathBuf::from(name)
    })
}

#[derive(Debug, thiserror::Error)]
pub enum WalError {
    #[error("a checksummed log record is malformed")]
    Malformed,
    #[error("applying the log: {0}")]
    Store(#[from] StoreError),
}

/// Where the log's bytes go: appended, made durable, started over.
pub trait LogFile: Send + Sync + 'static {
    fn append(&self, bytes: &[u8]) -> io::Result<()>;
    fn sync(&self) -> io::Result<()>;
    /// Starts the log over once a checkpoint holds all it recorded: later appends go from its
    /// front, over what it held. Nothing to sync: [`replay`] skips a record the data file already
    /// holds, and a record's checksum ends reading at the first stale or torn one.
    fn start_over(&self) -> io::Result<()>;
}

/// A log file kept at most this long when it starts over ([`DiskLog`]); a longer one (after a burst
/// of writes, or a vault rotation) is cut back to nothing, so the disk it holds stays bounded.
pub const REUSE_AT_MOST: u64 = 256 << 20;

/// A log on a [`DiskFile`]: appends go after the last record. Starting over keeps the file's blocks
/// (up to [`REUSE_AT_MOST`]) and writes over them: an append then allocates no blocks, and the
/// syncer's fdatasync writes the data alone, not the file's new size and extents as well (on a
/// journaled file system, a journal commit) (ARCHITECTURE.md, "Hosts": the native host's group
/// commit).
pub struct DiskLog {
    file: Arc<dyn DiskFile>,
    /// Where the next record goes. Only the writer appends; only the checkpointer starts over,
    /// on the file the writer has switched away from; the syncer only syncs.
    len: AtomicU64,
}

impl DiskLog {
    /// A log over `file`, appending after what it holds (recovery empties the files first).
    pub fn new(file: Arc<dyn DiskFile>) -> io::Result<DiskLog> {
        let len = file.len()?;
        Ok(DiskLog {
            file,
            len: AtomicU64::new(len),
        })
    }
}

impl LogFile for DiskLog {
    fn append(&self, bytes: &[u8]) -> io::Result<()> {
        let at = self.len.load(Ordering::Acquire);
        self.file.write_at(at, bytes)?;
        self.len.store(at + bytes.len() as u64, Ordering::Release);
        Ok(())
    }

    fn sync(&self) -> io::Result<()> {
        self.file.sync()
    }

    fn start_over(&self) -> io::Result<()> {
        if self.file.len()? > REUSE_AT_MOST {
            self.file.set_len(0)?;
        }
        self.len.store(0, Ordering::Release);
        Ok(())
    }
}

/// Appends one write to a record's payload.
pub fn encode_write(payload: &mut Vec<u8>, key: &[u8], value: Option<&[u8]>) {
    payload.push(u8::from(value.is_some()));
    push_bytes(payload, key);
    if let Some(v) = value {
        push_bytes(payload, v);
    }
}

fn push_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(bytes);
}

/// A transaction whose puts and deletes are also recorded, in order, as a log record's payload.
pub struct LoggedTx<'a> {
    inner: &'a mut dyn Tx,
    payload: &'a mut Vec<u8>,
}

impl<'a> LoggedTx<'a> {
    pub fn new(inner: &'a mut dyn Tx, payload: &'a mut Vec<u8>) -> LoggedTx<'a> {
        LoggedTx { inner, payload }
    }
}

impl Tx for LoggedTx<'_> {
    fn get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.inner.get(key)
    }

    fn put(&mut self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        self.inner.put(key, value)?;
        encode_write(self.payload, key, Some(value));
        Ok(())
    }

    /// Logged as a put: recovery replays the log into redb itself, where a put is all it takes.
    fn put_new(&mut self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        self.inner.put_new(key, value)?;
        encode_write(self.payload, key, Some(value));
        Ok(())
    }

    fn delete(&mut self, key: &[u8]) -> Result<(), StoreError> {
        self.inner.delete(key)?;
        encode_write(self.payload, key, None);
        Ok(())
    }

    fn scan(
        &mut self,
        start: &[u8],
        end: &[u8],
        dir: Direction,
        limit: usize,
    ) -> Result<Vec<KvPair>, StoreError> {
        self.inner.scan(start, end, dir, limit)
    }
}

/// Applies a record's payload to `tx`, in order.
fn apply(payload: &[u8], tx: &mut dyn Tx) -> Result<(), WalError> {
    let mut rest = payload;
    while let Some((&tag, after)) = rest.split_first() {
        let (key, after) = take_bytes(after).ok_or(WalError::Malformed)?;
        rest = match tag {
            0 => {
                tx.delete(key)?;
                after
            }
            1 => {
                let (value, after) = take_bytes(after).ok_or(WalError::Malformed)?;
                tx.put(key, value)?;
                after
            }
            _ => return Err(WalError::Malformed),
        };
    }
    Ok(())
}

fn take_bytes(input: &[u8]) -> Option<(&[u8], &[u8])> {
    let (len, rest) = input.split_first_chunk::<4>()?;
    let len = u32::from_le_bytes(*len) as usize;
    (rest.len() >= len).then(|| rest.split_at(len))
}

/// The records of a log file's bytes, in order, up to the first one that is torn or corrupt.
fn records(bytes: &[u8]) -> Vec<(u64, &[u8])> {
    let mut out = Vec::new();
    let mut rest = bytes;
    while rest.len() >= HEADER && &rest[..4] == MAGIC {
        let seq = u64::from_le_bytes(rest[4..12].try_into().expect("8 bytes"));
        let len = u32::from_le_bytes(rest[12..16].try_into().expect("4 bytes")) as usize;
        let crc = u32::from_le_bytes(rest[16..20].try_into().expect("4 bytes"));
        let Some(payload) = rest.get(HEADER..HEADER + len) else {
            break;
        };
        if checksum(seq, payload) != crc {
            break;
        }
        out.push((seq, payload));
        rest = &rest[HEADER + len..];
    }
    out
}

fn checksum(seq: u64, payload: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(&seq.to_le_bytes());
    h.update(payload);
    h.finalize()
}

/// Applies to `tx` the records of the log files `files` that follow batch `after`, in sequence, up
/// to the first gap (each file's records end at its first torn or corrupt one). Returns the last
/// batch applied and how many were.
pub fn replay(files: &[&[u8]], after: u64, tx: &mut dyn Tx) -> Result<(u64, usize), WalError> {
    let mut all: Vec<(u64, &[u8])> = files.iter().flat_map(|b| records(b)).collect();
    all.sort_by_key(|(n, _)| *n);
    let mut seq = after;
    let mut applied = 0;
    for (n, payload) in all {
        if n <= seq {
            // Already in the store: written before its last durable commit, or left from before
            // its file started over (every such record is one a checkpoint holds).
            continue;
        }
        if n != seq + 1 {
            break;
        }
        apply(payload, tx)?;
        seq = n;
        applied += 1;
    }
    Ok((seq, applied))
}

/// The writer's end of the log: appends to the current file of two.
pub struct Log {
    files: [Arc<dyn LogFile>; 2],
    current: usize,
    record: Vec<u8>,
}

impl Log {
    /// A log over `files`, which recovery has emptied.
    pub fn new(files: [Arc<dyn LogFile>; 2]) -> Log {
        Log {
            files,
            current: 0,
            record: Vec::new(),
        }
    }

    /// The file appends go to.
    pub fn current(&self) -> usize {
        self.current
    }

    /// Appends go to the other file from now on (which started over after its checkpoint).
    pub fn switch(&mut self) {
        self.current = 1 - self.current;
    }

    /// Appends batch `seq`'s writes (into the OS's cache; the syncer makes them durable).
    pub fn append(&mut self, seq: u64, payload: &[u8]) -> io::Result<()> {
        self.record.clear();
        self.record.extend_from_slice(MAGIC);
        self.record.extend_from_slice(&seq.to_le_bytes());
        self.record
            .extend_from_slice(&(payload.len() as u32).to_le_bytes());
        self.record
            .extend_from_slice(&checksum(seq, payload).to_le_bytes());
        self.record.extend_from_slice(payload);
        self.files[self.current].append(&self.record)
    }
}

/// Makes the log durable through the last appended record, off the writer's path: one fsync (per
/// file appended to) for every record appended while the previous one ran.
pub struct Syncer {
    files: [Arc<dyn LogFile>; 2],
    state: Mutex<SyncState>,
    wake: Condvar,
    /// Held through a sync: the syncer thread and a checkpoint that needs its memtable's batches
    /// durable ([`Syncer::sync_through`]) may both sync, one at a time (each takes the files
    /// appended to since the last sync, so a second one beside the first could skip a file the
    /// first is still syncing).
    syncing: Mutex<()>,
}

#[derive(Default)]
struct SyncState {
    appended: u64,
    synced: u64,
    /// Files appended to since their last sync.
    dirty: [bool; 2],
    stopping: bool,
    /// A sync failed: nothing more becomes durable (a later fsync of the same file may succeed
    /// without the pages the failed one lost).
    failed: bool,
    /// Each fsync's duration.
    timings: Timings,
}

impl Syncer {
    pub fn new(files: [Arc<dyn LogFile>; 2], synced: u64) -> Syncer {
        Syncer {
            files,
            state: Mutex::new(SyncState {
                appended: synced,
                synced,
                ..SyncState::default()
            }),
            wake: Condvar::new(),
            syncing: Mutex::new(()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, SyncState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Record `seq` was appended to file `file`.
    pub fn appended(&self, seq: u64, file: usize) {
        let mut s = self.lock();
        s.appended = s.appended.max(seq);
        s.dirty[file] = true;
        drop(s);
        self.wake.notify_one();
    }

    /// Waits for a record not yet durable and syncs; the point now durable, or None once stopped
    /// with nothing left to sync.
    pub fn next(&self) -> Option<io::Result<u64>> {
        let mut s = self.lock();
        while s.appended <= s.synced {
            if s.stopping {
                return None;
            }
            s = self.wake.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        drop(s);
        Some(self.sync_pending())
    }

    /// Syncs if a record is not yet durable; returns the point durable now.
    pub fn sync_pending(&self) -> io::Result<u64> {
        self.sync_through(u64::MAX)
    }

    /// Makes the log durable through `point` (syncing what was appended, if it is not yet), one
    /// sync at a time; returns the point durable now.
    pub fn sync_through(&self, point: u64) -> io::Result<u64> {
        let _syncing = self.syncing.lock().unwrap_or_else(|e| e.into_inner());
        let (target, synced, dirty) = {
            let mut s = self.lock();
            if s.failed {
                return Err(io::Error::other("an earlier fsync of the log failed"));
            }
            if s.synced >= point {
                return Ok(s.synced);
            }
            (s.appended, s.synced, std::mem::take(&mut s.dirty))
        };
        if target <= synced {
            return Ok(synced);
        }
        let started = Instant::now();
        for (file, dirty) in self.files.iter().zip(dirty) {
            if dirty && let Err(e) = file.sync() {
                self.lock().failed = true;
                return Err(e);
            }
        }
        let took = started.elapsed();
        crate::metrics::log_fsync(took);
        let mut s = self.lock();
        s.timings.record(took);
        s.synced = s.synced.max(target);
        Ok(s.synced)
    }

    /// The point durable now.
    pub fn synced(&self) -> u64 {
        self.lock().synced
    }

    /// [`Syncer::next`] returns None once nothing is left to sync.
    pub fn stop(&self) {
        self.lock().stopping = true;
        self.wake.notify_one();
    }

    pub fn timings(&self) -> Timings {
        self.lock().timings.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use card_core::storage::MemStore;

    fn payload(writes: &[(&[u8], Option<&[u8]>)]) -> Vec<u8> {
        let mut p = Vec::new();
        for (k, v) in writes {
            encode_write(&mut p, k, *v);
        }
        p
    }

    #[test]
    fn a_payload_applies_its_writes_in_order() {
        let mut store = MemStore::new();
        store.put(b"gone", b"x").unwrap();
        let p = payload(&[
            (b"a", Some(b"1")),
            (b"gone", None),
            (b"a", Some(b"2")),
            (b"", Some(b"")),
        ]);
        apply(&p, &mut store).unwrap();
        let all: Vec<_> = store.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        assert_eq!(
            all,
            vec![(b"".to_vec(), b"".to_vec()), (b"a".to_vec(), b"2".to_vec())]
        );
        assert!(apply(&[7, 0, 0, 0, 0], &mut store).is_err());
        assert!(apply(&[1, 9, 0, 0, 0, b'k'], &mut store).is_err());
    }

    #[test]
    fn a_logged_tx_records_exactly_the_writes_that_reached_the_store() {
        let mut store = MemStore::new();
        let mut p = Vec::new();
        {
            let mut tx = LoggedTx::new(&mut store, &mut p);
            tx.put(b"k", b"v").unwrap();
            tx.delete(b"k").unwrap();
            tx.put(b"j", b"w").unwrap();
            assert_eq!(tx.get(b"j").unwrap(), Some(b"w".to_vec()));
        }
        assert_eq!(
            p,
            payload(&[(b"k", Some(b"v")), (b"k", None), (b"j", Some(b"w"))])
        );
        let mut replayed = MemStore::new();
        apply(&p, &mut replayed).unwrap();
        assert_eq!(
            replayed.iter().collect::<Vec<_>>(),
            store.iter().collect::<Vec<_>>()
        );
    }

    /// A log file in memory.
    #[derive(Default)]
    struct Bytes(Mutex<Vec<u8>>);

    impl LogFile for Bytes {
        fn append(&self, bytes: &[u8]) -> io::Result<()> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(())
        }
        fn sync(&self) -> io::Result<()> {
            Ok(())
        }
        fn start_over(&self) -> io::Result<()> {
            self.0.lock().unwrap().clear();
            Ok(())
        }
    }

    #[test]
    fn reading_stops_at_a_torn_or_corrupt_record() {
        let file = Arc::new(Bytes::default());
        let mut log = Log::new([file.clone(), Arc::new(Bytes::default())]);
        let (one, two) = (payload(&[(b"k1", Some(b"v1"))]), payload(&[(b"k2", None)]));
        log.append(1, &one).unwrap();
        log.append(2, &two).unwrap();
        let bytes = file.0.lock().unwrap().clone();
        assert_eq!(
            records(&bytes),
            vec![(1, one.as_slice()), (2, two.as_slice())]
        );
        // Torn anywhere in the second record: only the first survives.
        for cut in (bytes.len() - two.len() - HEADER)..bytes.len() {
            assert_eq!(records(&bytes[..cut]).len(), 1, "cut at {cut}");
        }
        // A flipped bit in the second record's payload.
        let mut bad = bytes.clone();
        let last = bad.len() - 1;
        bad[last] ^= 1;
        assert_eq!(records(&bad).len(), 1);
    }

    #[test]
    fn replay_applies_what_follows_the_store_in_sequence_across_both_files() {
        let files = [Arc::new(Bytes::default()), Arc::new(Bytes::default())];
        let mut log = Log::new([files[0].clone(), files[1].clone()]);
        for seq in [1, 3, 4] {
            log.append(seq, &payload(&[(&seq.to_le_bytes(), Some(b"x"))]))
                .unwrap();
        }
        log.switch();
        for seq in [5, 7] {
            log.append(seq, &payload(&[(&seq.to_le_bytes(), Some(b"x"))]))
                .unwrap();
        }
        let bytes = files.map(|f| f.0.lock().unwrap().clone());
        let mut store = MemStore::new();
        // The store holds batch 3 already; 7 does not follow 5.
        assert_eq!(
            replay(&[&bytes[1], &bytes[0]], 3, &mut store).unwrap(),
            (5, 2)
        );
        assert_eq!(store.iter().count(), 2);
    }

    fn real_log(dir: &tempfile::TempDir, name: &str) -> (Arc<dyn DiskFile>, DiskLog) {
        use crate::store::disk::{Disk, RealDisk};
        let file = RealDisk.create_new(&dir.path().join(name)).unwrap();
        (file.clone(), DiskLog::new(file).unwrap())
    }

    #[test]
    fn a_log_that_starts_over_writes_over_its_blocks_and_replay_skips_what_they_held() {
        let dir = tempfile::tempdir().unwrap();
        let (file, log) = real_log(&dir, "data.wal");
        let mut writer = Log::new([
            Arc::new(log) as Arc<dyn LogFile>,
            Arc::new(Bytes::default()),
        ]);
        let big = vec![7u8; 4096];
        for seq in 1..=5 {
            writer
                .append(seq, &payload(&[(&seq.to_le_bytes(), Some(&big))]))
                .unwrap();
        }
        let full = file.len().unwrap();
        // Batches 1 to 5 checkpointed: the file starts over and batch 6 goes at its front.
        writer.files[0].start_over().unwrap();
        let six = payload(&[(b"six", Some(b"x"))]);
        writer.append(6, &six).unwrap();
        assert_eq!(file.len().unwrap(), full, "the file keeps its blocks");
        let bytes = file.read_all().unwrap();
        assert_eq!(records(&bytes)[0], (6, six.as_slice()));
        let mut store = MemStore::new();
        assert_eq!(replay(&[&bytes], 5, &mut store).unwrap(), (6, 1));
        assert_eq!(store.iter().count(), 1);
    }

    #[test]
    fn a_log_longer_than_it_may_stay_is_cut_when_it_starts_over() {
        let dir = tempfile::tempdir().unwrap();
        let (file, log) = real_log(&dir, "data.wal");
        // Sparse: no disk used.
        file.set_len(REUSE_AT_MOST + 1).unwrap();
        log.start_over().unwrap();
        assert_eq!(file.len().unwrap(), 0);
        log.append(b"CWAL").unwrap();
        assert_eq!(file.read_all().unwrap(), b"CWAL");
    }
}
