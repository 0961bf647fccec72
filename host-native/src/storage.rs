//! The store a server runs on ([`Store`]: the redb file by default, or PostgreSQL with `--store`), and
//! redb behind the core's `Tx` port: one table `kv` of byte keys to byte values.

use std::path::Path;
use std::sync::Arc;

use card_core::storage::KvPair;
use card_core::{Direction, StoreError, Tx};
use redb::{
    Database, ReadOnlyTable, ReadableDatabase, ReadableTable, Table, TableDefinition, TableError,
    WriteTransaction,
};

use crate::pg_store::{self, PgStore};

/// Where the data lives: one redb file owned by this process, or a PostgreSQL database shared by
/// any number of instances.
#[derive(Clone)]
pub enum Store {
    Redb(Arc<Database>),
    Postgres(Arc<PgStore>),
}

impl Store {
    /// `--store URL` if given (PostgreSQL), else the redb file `data`.
    pub fn open(store: Option<&str>, data: &Path, cache_bytes: usize) -> Result<Store, String> {
        match store {
            Some(url) if pg_store::is_url(url) => Ok(Store::Postgres(Arc::new(PgStore::open(url)?))),
            Some(_) => Err(
                "--store / CARDS_STORE must be a postgres:// or postgresql:// URL (or leave it unset for the --data file)"
                    .into(),
            ),
            None => Ok(Store::Redb(Arc::new(open_cached(data, cache_bytes)?))),
        }
    }

    /// Where the data is, for logs (never a password).
    pub fn describe(&self, data: &Path) -> String {
        match self {
            Store::Redb(_) => data.display().to_string(),
            Store::Postgres(pg) => format!("postgres {}", pg.label()),
        }
    }

    /// Runs `f` in a read-only snapshot.
    pub fn read<R>(&self, f: impl FnOnce(&mut dyn Tx) -> R) -> Result<R, StoreError> {
        match self {
            Store::Redb(db) => Ok(f(&mut ReadAdapter::begin(db)?)),
            Store::Postgres(pg) => pg.read(f),
        }
    }

    /// Runs `f` in one committed write transaction (re-run on PostgreSQL conflicts).
    pub fn write<R>(
        &self,
        mut f: impl FnMut(&mut dyn Tx) -> Result<R, String>,
    ) -> Result<R, String> {
        match self {
            Store::Redb(db) => {
                let txn = db.begin_write().map_err(|e| e.to_string())?;
                let out = {
                    let mut adapter = WriteAdapter::open(&txn).map_err(|e| e.to_string())?;
                    f(&mut adapter)?
                };
                txn.commit().map_err(|e| e.to_string())?;
                Ok(out)
            }
            Store::Postgres(pg) => pg.write(f),
        }
    }
}

pub const KV: TableDefinition<&[u8], &[u8]> = TableDefinition::new("kv");

fn store_err(e: impl std::fmt::Display) -> StoreError {
    StoreError(e.to_string())
}

/// Opens (or creates) the data file with redb's default cache.
#[cfg(test)]
pub fn open(path: &Path) -> Result<Database, String> {
    open_cached(path, 1 << 30)
}

/// Opens (or creates) the data file and makes sure the table exists, so read transactions can open it.
pub fn open_cached(path: &Path, cache_bytes: usize) -> Result<Database, String> {
    create_private(path).map_err(|e| format!("cannot create data file {}: {e}", path.display()))?;
    let db = redb::Builder::new()
        .set_cache_size(cache_bytes)
        .create(path)
        .map_err(|e| match e {
            redb::DatabaseError::DatabaseAlreadyOpen => format!(
                "data file {} is in use by another process (a running `cards serve`?)",
                path.display()
            ),
            e => format!("cannot open data file {}: {e}", path.display()),
        })?;
    // What the write-ahead log holds beyond the file goes in first: it was written by this format.
    let replayed = crate::wal::recover(&db, path)
        .map_err(|e| format!("cannot recover data file {}: {e}", path.display()))?;
    if replayed > 0 {
        tracing::info!(batches = replayed, "applied the write-ahead log");
    }
    // The data format is checked (and an empty file stamped) before anything else touches the data.
    let init = || -> Result<(), String> {
        let tx = db.begin_write().map_err(|e| e.to_string())?;
        tx.open_table(KV).map_err(|e| e.to_string())?;
        {
            let mut adapter = WriteAdapter::open(&tx).map_err(|e| e.to_string())?;
            card_core::Service::open_store(&mut adapter).map_err(|e| e.to_string())?;
        }
        tx.commit().map_err(|e| e.to_string())
    };
    init().map_err(|e| format!("cannot open data file {}: {e}", path.display()))?;
    Ok(db)
}

/// A new data file is created readable by its owner only (0600): it holds personal data and identity
/// documents. redb then initializes the empty file. An existing file keeps its mode.
fn create_private(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
    {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e),
    }
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
pub struct ReadAdapter {
    // None only for a data file whose table was never created (not one `open` made).
    table: Option<ReadOnlyTable<&'static [u8], &'static [u8]>>,
}

impl ReadAdapter {
    pub fn begin(db: &Database) -> Result<ReadAdapter, StoreError> {
        let tx = db.begin_read().map_err(store_err)?;
        let table = match tx.open_table(KV) {
            Ok(t) => Some(t),
            Err(TableError::TableDoesNotExist(_)) => None,
            Err(e) => return Err(store_err(e)),
        };
        Ok(ReadAdapter { table })
    }
}

impl Tx for ReadAdapter {
    fn get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        match &self.table {
            Some(t) => get_in(t, key),
            None => Ok(None),
        }
    }

    fn put(&mut self, _key: &[u8], _value: &[u8]) -> Result<(), StoreError> {
        Err(StoreError("write in a read-only transaction".into()))
    }

    fn delete(&mut self, _key: &[u8]) -> Result<(), StoreError> {
        Err(StoreError("write in a read-only transaction".into()))
    }

    fn scan(
        &mut self,
        start: &[u8],
        end: &[u8],
        dir: Direction,
        limit: usize,
    ) -> Result<Vec<KvPair>, StoreError> {
        match &self.table {
            Some(t) => scan_in(t, start, end, dir, limit),
            None => Ok(Vec::new()),
        }
    }
}

/// The table of an open write transaction. Remembers whether any storage call failed, so the group
/// commit can abort the whole transaction instead of committing a half-applied request.
pub struct WriteAdapter<'txn> {
    table: Table<'txn, &'static [u8], &'static [u8]>,
    failed: bool,
    /// Whether any put or delete reached the table: a batch that wrote nothing is not committed.
    wrote: bool,
    /// Every put and delete, in order, as a log record's payload (when the writer logs).
    log: Option<Vec<u8>>,
}

impl<'txn> WriteAdapter<'txn> {
    pub fn open(tx: &'txn WriteTransaction) -> Result<WriteAdapter<'txn>, StoreError> {
        Ok(WriteAdapter {
            table: tx.open_table(KV).map_err(store_err)?,
            failed: false,
            wrote: false,
            log: None,
        })
    }

    /// Also records every write into `payload` (cleared first), for the write-ahead log.
    pub fn logging(mut self, mut payload: Vec<u8>) -> Self {
        payload.clear();
        self.log = Some(payload);
        self
    }

    /// The writes recorded since [`WriteAdapter::logging`].
    pub fn into_log(self) -> Option<Vec<u8>> {
        self.log
    }

    /// True once any storage call returned an error.
    pub fn failed(&self) -> bool {
        self.failed
    }

    /// True once any put or delete was applied.
    pub fn wrote(&self) -> bool {
        self.wrote
    }

    fn note<T>(&mut self, r: Result<T, StoreError>) -> Result<T, StoreError> {
        if r.is_err() {
            self.failed = true;
        }
        r
    }
}

impl Tx for WriteAdapter<'_> {
    fn get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        let r = get_in(&self.table, key);
        self.note(r)
    }

    fn put(&mut self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        #[cfg(test)]
        if key == FAIL_KEY {
            return self.note(Err(StoreError("injected failure".into())));
        }
        self.wrote = true;
        if let Some(log) = &mut self.log {
            crate::wal::encode_write(log, key, Some(value));
        }
        let r = self.table.insert(key, value).map(|_| ()).map_err(store_err);
        self.note(r)
    }

    fn delete(&mut self, key: &[u8]) -> Result<(), StoreError> {
        self.wrote = true;
        if let Some(log) = &mut self.log {
            crate::wal::encode_write(log, key, None);
        }
        let r = self.table.remove(key).map(|_| ()).map_err(store_err);
        self.note(r)
    }

    fn scan(
        &mut self,
        start: &[u8],
        end: &[u8],
        dir: Direction,
        limit: usize,
    ) -> Result<Vec<KvPair>, StoreError> {
        let r = scan_in(&self.table, start, end, dir, limit);
        self.note(r)
    }
}

/// Tests write this key to simulate a storage failure (redb itself rarely fails on demand).
#[cfg(test)]
pub const FAIL_KEY: &[u8] = b"\xfftest-storage-failure";

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(rows: &[KvPair]) -> Vec<&[u8]> {
        rows.iter().map(|(k, _)| k.as_slice()).collect()
    }

    fn seeded() -> (tempfile::TempDir, Database) {
        let dir = tempfile::tempdir().unwrap();
        let db = open(&dir.path().join("t.redb")).unwrap();
        let tx = db.begin_write().unwrap();
        {
            let mut w = WriteAdapter::open(&tx).unwrap();
            for k in [b"a1", b"a2", b"a3", b"b1"] {
                w.put(k, &[k[1]]).unwrap();
            }
            w.put(b"zz", b"gone").unwrap();
            w.delete(b"zz").unwrap();
            assert!(!w.failed());
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
    fn a_failed_call_is_remembered() {
        let (_dir, db) = seeded();
        let tx = db.begin_write().unwrap();
        let mut w = WriteAdapter::open(&tx).unwrap();
        w.put(b"ok", b"1").unwrap();
        assert!(!w.failed());
        assert!(w.put(FAIL_KEY, b"").is_err());
        assert!(w.failed());
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
            let db = open(&path).unwrap();
            let tx = db.begin_write().unwrap();
            WriteAdapter::open(&tx).unwrap().put(b"k", b"v").unwrap();
            tx.commit().unwrap();
        }
        let db = open(&path).unwrap();
        assert_eq!(
            ReadAdapter::begin(&db).unwrap().get(b"k").unwrap(),
            Some(b"v".to_vec())
        );
    }
}
