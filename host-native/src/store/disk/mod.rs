//! The files the native store keeps (the data file, its write-ahead log, the vault key file), behind
//! a small trait: the real file system in production, and in tests a simulated one that keeps
//! written and synced bytes apart and can crash at any sync (`sim.rs`).
//!
//! A file created here is durable only once its directory is synced too ([`create_durably`]):
//! fsyncing a new file does not make its name survive a crash.

#[cfg(test)]
pub mod sim;

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::{FileExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A file system: open and create files, sync a directory.
pub trait Disk: Send + Sync + 'static {
    /// Opens an existing file for reading and writing (`NotFound` if there is none).
    fn open(&self, path: &Path) -> io::Result<Arc<dyn DiskFile>>;
    /// Creates a new, empty file readable by its owner only (`AlreadyExists` if there is one).
    fn create_new(&self, path: &Path) -> io::Result<Arc<dyn DiskFile>>;
    fn remove(&self, path: &Path) -> io::Result<()>;
    /// Gives the file at `from` the name `to` too (`AlreadyExists` if `to` exists): a name that
    /// appears whole, with what was synced under the other name.
    fn link(&self, from: &Path, to: &Path) -> io::Result<()>;
    /// Makes the directory's entries (created, linked and removed files) durable.
    fn sync_dir(&self, dir: &Path) -> io::Result<()>;
}

/// One open file.
pub trait DiskFile: Send + Sync + fmt::Debug + 'static {
    fn len(&self) -> io::Result<u64>;
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()>;
    fn write_at(&self, offset: u64, data: &[u8]) -> io::Result<()>;
    fn set_len(&self, len: u64) -> io::Result<()>;
    /// Makes the file's bytes and length durable (fdatasync).
    fn sync(&self) -> io::Result<()>;
    /// Takes an exclusive lock for this process' lifetime; false if another process holds it.
    fn try_lock(&self) -> io::Result<bool> {
        Ok(true)
    }

    fn read_all(&self) -> io::Result<Vec<u8>> {
        let len = usize::try_from(self.len()?).map_err(io::Error::other)?;
        let mut bytes = vec![0; len];
        self.read_at(0, &mut bytes)?;
        Ok(bytes)
    }
}

/// The directory holding `path` (`.` for a bare file name).
pub fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// `<path>.new.<pid>`: where this process makes a file before it gets its name (each process its
/// own, so two starting at once cannot write into each other's).
pub fn staging_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".new.{}", std::process::id()));
    PathBuf::from(name)
}

/// Opens `path`, creating it (mode 0600) if it does not exist; a new file's directory is synced
/// before it is returned, so its name survives a crash. Returns whether it was created.
pub fn open_or_create(disk: &dyn Disk, path: &Path) -> io::Result<(Arc<dyn DiskFile>, bool)> {
    match disk.open(path) {
        Ok(f) => return Ok((f, false)),
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
        Err(_) => {}
    }
    match disk.create_new(path) {
        Ok(f) => {
            disk.sync_dir(&parent_dir(path))?;
            Ok((f, true))
        }
        // Another process made it meanwhile.
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok((disk.open(path)?, false)),
        Err(e) => Err(e),
    }
}

/// A new file that gets its name only once `fill` has written and synced it: made under
/// [`staging_path`] (a leftover from a crash is discarded first), then linked to `path` (never over an
/// existing file: `AlreadyExists` if another process won) and the directory synced. A crash at any
/// point leaves either no `path` or a whole one.
pub fn create_whole<T, E: From<io::Error>>(
    disk: &dyn Disk,
    path: &Path,
    fill: impl FnOnce(&Arc<dyn DiskFile>) -> Result<T, E>,
) -> Result<(Arc<dyn DiskFile>, T), E> {
    let staging = staging_path(path);
    match disk.remove(&staging) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e.into()),
    }
    let file = disk.create_new(&staging)?;
    let made = fill(&file).and_then(|out| {
        file.sync()?;
        disk.link(&staging, path)?;
        Ok(out)
    });
    let _ = disk.remove(&staging);
    let out = made?;
    disk.sync_dir(&parent_dir(path))?;
    Ok((file, out))
}

/// Creates `path` holding `contents`, whole (see [`create_whole`]).
pub fn create_durably(disk: &dyn Disk, path: &Path, contents: &[u8]) -> io::Result<()> {
    create_whole(disk, path, |f| f.write_at(0, contents)).map(|_| ())
}

/// The real file system.
#[derive(Debug, Clone, Copy, Default)]
pub struct RealDisk;

#[derive(Debug)]
struct RealFile(File);

impl Disk for RealDisk {
    fn open(&self, path: &Path) -> io::Result<Arc<dyn DiskFile>> {
        let f = OpenOptions::new().read(true).write(true).open(path)?;
        Ok(Arc::new(RealFile(f)))
    }

    fn create_new(&self, path: &Path) -> io::Result<Arc<dyn DiskFile>> {
        let f = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path)?;
        Ok(Arc::new(RealFile(f)))
    }

    fn remove(&self, path: &Path) -> io::Result<()> {
        std::fs::remove_file(path)
    }

    fn link(&self, from: &Path, to: &Path) -> io::Result<()> {
        std::fs::hard_link(from, to)
    }

    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        File::open(dir)?.sync_all()
    }
}

impl DiskFile for RealFile {
    fn len(&self) -> io::Result<u64> {
        Ok(self.0.metadata()?.len())
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        self.0.read_exact_at(buf, offset)
    }

    fn write_at(&self, offset: u64, data: &[u8]) -> io::Result<()> {
        self.0.write_all_at(data, offset)
    }

    fn set_len(&self, len: u64) -> io::Result<()> {
        self.0.set_len(len)
    }

    fn sync(&self) -> io::Result<()> {
        self.0.sync_data()
    }

    fn try_lock(&self) -> io::Result<bool> {
        match self.0.try_lock() {
            Ok(()) => Ok(true),
            Err(std::fs::TryLockError::WouldBlock) => Ok(false),
            Err(std::fs::TryLockError::Error(e)) => Err(e),
        }
    }
}

/// Time and bytes a file spent in writes and syncs, so a commit can say where its time went.
#[derive(Debug, Default)]
pub struct IoStats {
    writes: AtomicU64,
    write_bytes: AtomicU64,
    write_ns: AtomicU64,
    syncs: AtomicU64,
    sync_ns: AtomicU64,
}

/// A reading of [`IoStats`]; subtract two to get what happened between them.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct IoTotals {
    pub writes: u64,
    pub write_bytes: u64,
    pub write: Duration,
    pub syncs: u64,
    pub sync: Duration,
}

impl IoStats {
    pub fn totals(&self) -> IoTotals {
        IoTotals {
            writes: self.writes.load(Ordering::Relaxed),
            write_bytes: self.write_bytes.load(Ordering::Relaxed),
            write: Duration::from_nanos(self.write_ns.load(Ordering::Relaxed)),
            syncs: self.syncs.load(Ordering::Relaxed),
            sync: Duration::from_nanos(self.sync_ns.load(Ordering::Relaxed)),
        }
    }

    fn add(counter: &AtomicU64, since: Instant) {
        let ns = u64::try_from(since.elapsed().as_nanos()).unwrap_or(u64::MAX);
        counter.fetch_add(ns, Ordering::Relaxed);
    }
}

impl std::ops::Sub for IoTotals {
    type Output = IoTotals;
    fn sub(self, before: IoTotals) -> IoTotals {
        IoTotals {
            writes: self.writes - before.writes,
            write_bytes: self.write_bytes - before.write_bytes,
            write: self.write.saturating_sub(before.write),
            syncs: self.syncs - before.syncs,
            sync: self.sync.saturating_sub(before.sync),
        }
    }
}

/// redb's storage on a [`DiskFile`], counting its I/O.
#[derive(Debug)]
pub struct DiskBackend {
    file: Arc<dyn DiskFile>,
    io: Arc<IoStats>,
}

impl DiskBackend {
    pub fn new(file: Arc<dyn DiskFile>) -> (DiskBackend, Arc<IoStats>) {
        let io = Arc::new(IoStats::default());
        (
            DiskBackend {
                file,
                io: io.clone(),
            },
            io,
        )
    }
}

impl redb::StorageBackend for DiskBackend {
    fn len(&self) -> io::Result<u64> {
        self.file.len()
    }

    fn read(&self, offset: u64, out: &mut [u8]) -> io::Result<()> {
        self.file.read_at(offset, out)
    }

    fn set_len(&self, len: u64) -> io::Result<()> {
        self.file.set_len(len)
    }

    fn sync_data(&self) -> io::Result<()> {
        let started = Instant::now();
        let r = self.file.sync();
        self.io.syncs.fetch_add(1, Ordering::Relaxed);
        IoStats::add(&self.io.sync_ns, started);
        r
    }

    fn write(&self, offset: u64, data: &[u8]) -> io::Result<()> {
        let started = Instant::now();
        let r = self.file.write_at(offset, data);
        self.io.writes.fetch_add(1, Ordering::Relaxed);
        self.io
            .write_bytes
            .fetch_add(data.len() as u64, Ordering::Relaxed);
        IoStats::add(&self.io.write_ns, started);
        r
    }
}
