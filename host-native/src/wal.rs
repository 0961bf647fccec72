//! The write-ahead log beside the redb file (`<data>.wal`), which lets one batch's fsync overlap
//! the next batch's work.
//!
//! Without it every group commit waits for redb's fsync before the writer can start the next batch,
//! so the writer sits idle for a third of its time. With it, a batch is committed to redb without
//! an fsync (`Durability::None`: visible, not yet durable), its writes are appended here, and the
//! syncer thread makes the log durable and only then answers the batch, while the writer already
//! runs the next one. Every second by default (`--checkpoint-interval`), or at 64 MiB of log, a
//! batch is committed to redb durably instead, and the log starts over: a checkpoint.
//!
//! Reads may see a batch before its record is durable; their answers wait for it
//! (`writer::Progress`), so no client hears of a write a crash could take back.
//!
//! Every batch stores its sequence number in redb's `wal` table in the same transaction. On open,
//! the records after the sequence number redb holds are applied again, in order, up to the first
//! record that is torn or out of sequence (a crash mid-append), and committed durably.
//!
//! A record: `CWAL`, the sequence number (u64 LE), the payload length (u32 LE), a CRC-32 of the
//! sequence number and payload (u32 LE), then the payload: each write in the order it was applied,
//! a tag byte (1 put, 0 delete), the key length (u32 LE) and key, and for a put the value length
//! (u32 LE) and value.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use card_core::{StoreError, Tx};
use redb::{Database, ReadableTable, TableDefinition, WriteTransaction};

/// The sequence number of the last batch redb holds (key `seq`).
const SEQ_TABLE: TableDefinition<&str, u64> = TableDefinition::new("wal");
const SEQ_KEY: &str = "seq";
const MAGIC: &[u8; 4] = b"CWAL";
const HEADER: usize = 4 + 8 + 4 + 4;

/// A checkpoint at least every `interval` (`--checkpoint-interval`), so recovery replays little
/// and redb frees the pages the non-durable commits left behind; and one whenever the log reaches
/// this size.
const CHECKPOINT_BYTES: u64 = 64 << 20;

/// The log file of the data file `data`.
pub fn path_for(data: &Path) -> PathBuf {
    let mut name = data.as_os_str().to_owned();
    name.push(".wal");
    PathBuf::from(name)
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

/// Applies a record's payload to `tx`, in order.
fn apply(payload: &[u8], tx: &mut dyn Tx) -> Result<(), String> {
    let mut rest = payload;
    let malformed = || "a checksummed log record is malformed".to_string();
    while let Some((&tag, after)) = rest.split_first() {
        let (key, after) = take_bytes(after).ok_or_else(malformed)?;
        rest = match tag {
            0 => {
                tx.delete(key).map_err(|e| e.to_string())?;
                after
            }
            1 => {
                let (value, after) = take_bytes(after).ok_or_else(malformed)?;
                tx.put(key, value).map_err(|e| e.to_string())?;
                after
            }
            _ => return Err(malformed()),
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

/// The sequence number of the last batch committed in `txn`'s view.
pub fn stored_seq(txn: &WriteTransaction) -> Result<u64, String> {
    let table = txn.open_table(SEQ_TABLE).map_err(|e| e.to_string())?;
    let seq = table
        .get(SEQ_KEY)
        .map_err(|e| e.to_string())?
        .map_or(0, |v| v.value());
    Ok(seq)
}

/// Records in `txn` that it carries batch `seq`.
pub fn store_seq(txn: &WriteTransaction, seq: u64) -> Result<(), StoreError> {
    let mut table = txn
        .open_table(SEQ_TABLE)
        .map_err(|e| StoreError(e.to_string()))?;
    table
        .insert(SEQ_KEY, seq)
        .map(|_| ())
        .map_err(|e| StoreError(e.to_string()))
}

/// Applies what the log of `data` holds beyond redb's last batch, commits it durably and empties
/// the log. Returns how many batches it applied.
pub fn recover(db: &Database, data: &Path) -> Result<usize, String> {
    let path = path_for(data);
    let mut bytes = Vec::new();
    match File::open(&path) {
        Ok(mut f) => f
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(format!("cannot open {}: {e}", path.display())),
    };
    let txn = db.begin_write().map_err(|e| e.to_string())?;
    let mut seq = stored_seq(&txn)?;
    let mut applied = 0;
    {
        let mut adapter = crate::storage::WriteAdapter::open(&txn).map_err(|e| e.to_string())?;
        for (n, payload) in records(&bytes) {
            if n <= seq {
                // Already in redb: written before the last durable commit.
                continue;
            }
            if n != seq + 1 {
                // Left over from before a checkpoint whose truncation was not yet on disk.
                break;
            }
            apply(payload, &mut adapter)?;
            seq = n;
            applied += 1;
        }
    }
    store_seq(&txn, seq).map_err(|e| e.to_string())?;
    txn.commit().map_err(|e| e.to_string())?;
    let file = open_log(&path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    file.set_len(0)
        .and_then(|()| file.sync_all())
        .map_err(|e| format!("cannot empty {}: {e}", path.display()))?;
    Ok(applied)
}

fn open_log(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(path)
}

/// The writer's end of the log: appends records and decides when to checkpoint.
pub struct Log {
    file: File,
    bytes: u64,
    interval: Duration,
    last_checkpoint: Instant,
    record: Vec<u8>,
}

impl Log {
    /// Opens the (recovered, so empty) log of `data`, and a second handle the syncer fsyncs.
    pub fn open(data: &Path, interval: Duration) -> io::Result<(Log, File)> {
        let file = open_log(&path_for(data))?;
        let syncer = file.try_clone()?;
        let bytes = file.metadata()?.len();
        let log = Log {
            file,
            bytes,
            interval,
            last_checkpoint: Instant::now(),
            record: Vec::new(),
        };
        Ok((log, syncer))
    }

    /// Whether the next batch should be committed to redb durably instead of logged.
    pub fn checkpoint_due(&self) -> bool {
        self.bytes >= CHECKPOINT_BYTES || self.last_checkpoint.elapsed() >= self.interval
    }

    /// After a durable redb commit: the log's records are all in redb, so it starts over.
    pub fn checkpointed(&mut self) -> io::Result<()> {
        self.file.set_len(0)?;
        self.bytes = 0;
        self.last_checkpoint = Instant::now();
        Ok(())
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
        self.file.write_all(&self.record)?;
        self.bytes += self.record.len() as u64;
        Ok(())
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
    fn reading_stops_at_a_torn_or_corrupt_record() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("d.redb");
        let (mut log, _) = Log::open(&data, Duration::from_secs(3600)).unwrap();
        let (one, two) = (payload(&[(b"k1", Some(b"v1"))]), payload(&[(b"k2", None)]));
        log.append(1, &one).unwrap();
        log.append(2, &two).unwrap();
        let bytes = std::fs::read(path_for(&data)).unwrap();
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
}
