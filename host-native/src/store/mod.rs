//! Where the data lives ([`Store`]: the redb file by default, or PostgreSQL with `--store`), and what
//! the group-commit writer needs of a store ([`batch`]). Nothing here knows who drives it: the writer
//! and the server import the store, never the other way round (`scripts/check-layers`).

pub mod batch;
pub mod disk;
pub mod pg;
pub mod redb;
pub mod wal;

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use card_core::storage::format::FormatError;
use card_core::{StoreError, Tx};

pub use self::batch::{Batch, BatchStore, Committed, Fatal, Progress, Settle, Timings};
use self::pg::PgStore;
use self::redb::{RedbFile, WriteAdapter};
use self::wal::WalError;

/// Why a store could not be opened or written.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("data file {} is in use by another process (a running `cards serve`?)", .0.display())]
    InUse(PathBuf),
    #[error("cannot create the data file: {0}")]
    Create(#[from] io::Error),
    #[error("data file {}: {source}", path.display())]
    Redb {
        path: PathBuf,
        #[source]
        source: ::redb::Error,
    },
    #[error("cannot recover data file {} from its write-ahead log: {source}", path.display())]
    Recover {
        path: PathBuf,
        #[source]
        source: WalError,
    },
    #[error("cannot open data file {}: {source}", path.display())]
    Format {
        path: PathBuf,
        #[source]
        source: FormatError,
    },
    #[error(
        "--store / CARDS_STORE must be a postgres:// or postgresql:// URL (or leave it unset for the --data file)"
    )]
    NotAUrl,
    /// Its causes stay a chain (`source()`), printed whole by `{:#}`.
    #[error(transparent)]
    Postgres(anyhow::Error),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl StorageError {
    fn io(action: &'static str, path: &Path) -> impl FnOnce(io::Error) -> StorageError {
        let path = path.to_path_buf();
        move |source| StorageError::Io {
            action,
            path,
            source,
        }
    }

    fn redb<E: Into<::redb::Error>>(path: &Path) -> impl FnOnce(E) -> StorageError {
        let path = path.to_path_buf();
        move |e| StorageError::Redb {
            path,
            source: e.into(),
        }
    }
}

/// Where the data lives: one redb file owned by this process, or a PostgreSQL database shared by
/// any number of instances.
#[derive(Clone)]
pub enum Store {
    Redb(Arc<RedbFile>),
    Postgres(Arc<PgStore>),
}

impl Store {
    /// `--store URL` if given (PostgreSQL, whose writes wait at most `pg_timeout` for a lock or a
    /// statement), else the redb file `data`.
    pub fn open(
        store: Option<&str>,
        data: &Path,
        cache_bytes: usize,
        pg_timeout: Duration,
    ) -> Result<Store, StorageError> {
        match store {
            Some(url) if pg::is_url(url) => Ok(Store::Postgres(Arc::new(
                PgStore::open(url, pg_timeout).map_err(StorageError::Postgres)?,
            ))),
            Some(_) => Err(StorageError::NotAUrl),
            None => Ok(Store::Redb(Arc::new(RedbFile::open(
                &disk::RealDisk,
                data,
                cache_bytes,
            )?))),
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
            Store::Redb(file) => Ok(f(&mut file.view()?)),
            Store::Postgres(pg) => pg.read(f),
        }
    }

    /// Runs `f` in one committed (durable) write transaction (re-run on PostgreSQL conflicts).
    pub fn write<R, E>(&self, mut f: impl FnMut(&mut dyn Tx) -> Result<R, E>) -> Result<R, E>
    where
        E: From<StorageError>,
    {
        match self {
            Store::Redb(file) => {
                let path = &file.path;
                let txn = file.db.begin_write().map_err(StorageError::redb(path))?;
                let out = {
                    let mut adapter = WriteAdapter::open(&txn).map_err(StorageError::from)?;
                    f(&mut adapter)?
                };
                txn.commit().map_err(StorageError::redb(path))?;
                file.wrote_directly();
                Ok(out)
            }
            Store::Postgres(pg) => pg.write(f),
        }
    }
}
