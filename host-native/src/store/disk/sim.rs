//! A simulated file system for crash tests, after redb's `tests/crash_consistency.rs` and
//! TigerBeetle's storage fault injection: it keeps what was written apart from what was synced, and
//! can crash at a chosen sync.
//!
//! A crash image holds what a real disk may hold after power loss: the names as of the last
//! directory sync plus, at random, some of the later creations, links and removals in the order
//! they happened (a journal replays a prefix); for each file, its synced bytes, and for every 512-byte sector written since, at random
//! the old bytes, the new ones, or (past the synced length) zeros or garbage; its length the synced
//! one or the written one. `kill -9` keeps the OS page cache and so never shows any of this.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::store::disk::{Disk, DiskFile, parent_dir};

const SECTOR: usize = 512;

#[derive(Debug, Default, Clone)]
struct Inode {
    live: Vec<u8>,
    durable: Vec<u8>,
}

/// A change of a directory's names not yet synced.
#[derive(Debug, Clone)]
enum DirOp {
    Add(PathBuf, usize),
    Remove(PathBuf),
}

#[derive(Debug, Default)]
struct State {
    inodes: Vec<Inode>,
    live: BTreeMap<PathBuf, usize>,
    durable: BTreeMap<PathBuf, usize>,
    pending: Vec<DirOp>,
    /// Syncs so far (file and directory): the crash points.
    syncs: u64,
    crash_at: Option<u64>,
    /// The image taken at the crash; every operation fails from then on.
    image: Option<Image>,
    seed: u64,
}

/// The files a crash left: name to bytes.
pub type Image = BTreeMap<PathBuf, Vec<u8>>;

#[derive(Debug, Clone, Default)]
pub struct SimDisk(Arc<Mutex<State>>);

#[derive(Debug)]
struct SimFile {
    disk: SimDisk,
    inode: usize,
}

fn crashed() -> io::Error {
    io::Error::other("simulated crash")
}

impl SimDisk {
    /// An empty disk that crashes at sync number `crash_at` (counting from 0), if given; `seed`
    /// picks which unsynced sectors the crash keeps.
    pub fn new(crash_at: Option<u64>, seed: u64) -> SimDisk {
        let disk = SimDisk::default();
        {
            let mut s = disk.lock();
            s.crash_at = crash_at;
            s.seed = seed | 1;
        }
        disk
    }

    /// A disk holding a crash image, every byte durable.
    pub fn from_image(image: &Image, crash_at: Option<u64>, seed: u64) -> SimDisk {
        let disk = SimDisk::new(crash_at, seed);
        {
            let mut s = disk.lock();
            for (path, bytes) in image {
                let inode = s.inodes.len();
                s.inodes.push(Inode {
                    live: bytes.clone(),
                    durable: bytes.clone(),
                });
                s.live.insert(path.clone(), inode);
                s.durable.insert(path.clone(), inode);
            }
        }
        disk
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Syncs so far.
    pub fn syncs(&self) -> u64 {
        self.lock().syncs
    }

    /// The image of the crash, once it happened.
    pub fn image(&self) -> Option<Image> {
        self.lock().image.clone()
    }

    /// Crashes now (at the end of a run), whatever was synced.
    pub fn crash_now(&self) -> Image {
        let mut s = self.lock();
        if s.image.is_none() {
            let image = s.build_image();
            s.image = Some(image);
        }
        s.image.clone().unwrap_or_default()
    }
}

impl State {
    fn alive(&self) -> io::Result<()> {
        if self.image.is_some() {
            Err(crashed())
        } else {
            Ok(())
        }
    }

    /// Counts a sync; at the crash point, takes the image and fails instead.
    fn sync_point(&mut self) -> io::Result<()> {
        self.alive()?;
        let n = self.syncs;
        self.syncs += 1;
        if self.crash_at == Some(n) {
            let image = self.build_image();
            self.image = Some(image);
            return Err(crashed());
        }
        Ok(())
    }

    fn random(&mut self) -> u64 {
        // xorshift64: deterministic per seed.
        let mut x = self.seed;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.seed = x;
        x
    }

    fn apply(names: &mut BTreeMap<PathBuf, usize>, op: &DirOp) {
        match op {
            DirOp::Add(path, inode) => {
                names.insert(path.clone(), *inode);
            }
            DirOp::Remove(path) => {
                names.remove(path);
            }
        }
    }

    fn build_image(&mut self) -> Image {
        let mut durable = self.durable.clone();
        let kept = (self.random() % (self.pending.len() as u64 + 1)) as usize;
        for op in &self.pending[..kept] {
            State::apply(&mut durable, op);
        }
        let names: Vec<(PathBuf, usize)> = durable.into_iter().collect();
        let mut image = Image::new();
        for (path, inode) in names {
            let Inode { live, durable } = self.inodes[inode].clone();
            let len = if self.random().is_multiple_of(2) {
                durable.len()
            } else {
                live.len()
            };
            let mut bytes = durable.clone();
            bytes.resize(len, 0);
            for start in (0..len).step_by(SECTOR) {
                let end = (start + SECTOR).min(len);
                let new = live.get(start..end.min(live.len()));
                let old = durable.get(start..end.min(durable.len()));
                if new == old {
                    continue;
                }
                match self.random() % 4 {
                    // The sector as last synced (zeros past the synced length).
                    0 => {}
                    // Past the synced length, garbage.
                    1 if start >= durable.len() => {
                        for b in &mut bytes[start..end] {
                            *b = self.random() as u8;
                        }
                    }
                    // The new bytes reached the disk.
                    _ => {
                        if let Some(new) = new {
                            bytes[start..start + new.len()].copy_from_slice(new);
                        }
                    }
                }
            }
            image.insert(path, bytes);
        }
        image
    }
}

impl Disk for SimDisk {
    fn open(&self, path: &Path) -> io::Result<Arc<dyn DiskFile>> {
        let s = self.lock();
        s.alive()?;
        let inode = *s
            .live
            .get(path)
            .ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))?;
        Ok(Arc::new(SimFile {
            disk: self.clone(),
            inode,
        }))
    }

    fn create_new(&self, path: &Path) -> io::Result<Arc<dyn DiskFile>> {
        let mut s = self.lock();
        s.alive()?;
        if s.live.contains_key(path) {
            return Err(io::ErrorKind::AlreadyExists.into());
        }
        let inode = s.inodes.len();
        s.inodes.push(Inode::default());
        s.live.insert(path.to_path_buf(), inode);
        s.pending.push(DirOp::Add(path.to_path_buf(), inode));
        Ok(Arc::new(SimFile {
            disk: self.clone(),
            inode,
        }))
    }

    fn remove(&self, path: &Path) -> io::Result<()> {
        let mut s = self.lock();
        s.alive()?;
        s.live
            .remove(path)
            .ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))?;
        s.pending.push(DirOp::Remove(path.to_path_buf()));
        Ok(())
    }

    fn link(&self, from: &Path, to: &Path) -> io::Result<()> {
        let mut s = self.lock();
        s.alive()?;
        let inode = *s
            .live
            .get(from)
            .ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))?;
        if s.live.contains_key(to) {
            return Err(io::ErrorKind::AlreadyExists.into());
        }
        s.live.insert(to.to_path_buf(), inode);
        s.pending.push(DirOp::Add(to.to_path_buf(), inode));
        Ok(())
    }

    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        let mut s = self.lock();
        s.sync_point()?;
        let (synced, later): (Vec<DirOp>, Vec<DirOp>) =
            std::mem::take(&mut s.pending).into_iter().partition(|op| {
                let (DirOp::Add(p, _) | DirOp::Remove(p)) = op;
                parent_dir(p) == dir
            });
        for op in &synced {
            State::apply(&mut s.durable, op);
        }
        s.pending = later;
        Ok(())
    }
}

impl DiskFile for SimFile {
    fn len(&self) -> io::Result<u64> {
        let s = self.disk.lock();
        s.alive()?;
        Ok(s.inodes[self.inode].live.len() as u64)
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        let s = self.disk.lock();
        s.alive()?;
        let live = &s.inodes[self.inode].live;
        let start = usize::try_from(offset).map_err(io::Error::other)?;
        let bytes = live
            .get(start..start + buf.len())
            .ok_or_else(|| io::Error::from(io::ErrorKind::UnexpectedEof))?;
        buf.copy_from_slice(bytes);
        Ok(())
    }

    fn write_at(&self, offset: u64, data: &[u8]) -> io::Result<()> {
        let mut s = self.disk.lock();
        s.alive()?;
        let live = &mut s.inodes[self.inode].live;
        let start = usize::try_from(offset).map_err(io::Error::other)?;
        if live.len() < start + data.len() {
            live.resize(start + data.len(), 0);
        }
        live[start..start + data.len()].copy_from_slice(data);
        Ok(())
    }

    fn set_len(&self, len: u64) -> io::Result<()> {
        let mut s = self.disk.lock();
        s.alive()?;
        let len = usize::try_from(len).map_err(io::Error::other)?;
        s.inodes[self.inode].live.resize(len, 0);
        Ok(())
    }

    fn sync(&self) -> io::Result<()> {
        let mut s = self.disk.lock();
        s.sync_point()?;
        let inode = &mut s.inodes[self.inode];
        inode.durable = inode.live.clone();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crash_keeps_only_synced_names_and_synced_bytes() {
        let disk = SimDisk::new(None, 7);
        let dir = Path::new("/d");
        let a = disk.create_new(&dir.join("a")).unwrap();
        a.write_at(0, b"first").unwrap();
        a.sync().unwrap();
        disk.sync_dir(dir).unwrap();
        a.write_at(0, b"SECOND").unwrap();
        let b = disk.create_new(&dir.join("b")).unwrap();
        b.write_at(0, b"b").unwrap();
        b.sync().unwrap();
        // b's name was never synced: there only if the journal kept it. a: synced bytes, or the
        // new ones, sector by sector.
        let image = disk.crash_now();
        assert!(image.contains_key(&dir.join("a")));
        assert!(image.len() <= 2);
        let a_bytes = &image[&dir.join("a")];
        let possible: [&[u8]; 4] = [b"first", b"first\0", b"SECON", b"SECOND"];
        assert!(possible.contains(&a_bytes.as_slice()), "{a_bytes:?}");
        assert!(
            a.write_at(0, b"x").is_err(),
            "nothing works after the crash"
        );
    }

    #[test]
    fn a_crash_at_a_sync_fails_it_and_freezes_the_disk() {
        let disk = SimDisk::new(Some(1), 3);
        let f = disk.create_new(Path::new("/d/f")).unwrap();
        disk.sync_dir(Path::new("/d")).unwrap();
        f.write_at(0, &[1; 2000]).unwrap();
        assert!(f.sync().is_err(), "sync number 1 crashes");
        assert_eq!(disk.syncs(), 2);
        let image = disk.image().unwrap();
        // Synced length 0, written 2000: either length, and each sector old (zero), new or garbage.
        let bytes = &image[Path::new("/d/f")];
        assert!(bytes.is_empty() || bytes.len() == 2000);
    }
}
