//! The data format version, kept in the store itself. A store written by a release with another
//! format is refused with a message that says so, never misread.
//!
//! | version | what changed |
//! |---|---|
//! | 1 | (no version key) records as JSON text, keys `tag 0 parts` |
//! | 2 | records in the postcard codec with a version byte; the key layout of [`super::keys`] |
//! | 3 | secondary indexes in creation order with sharded counts ([`super::table`]); ledger entries are records of their own kind. A format-2 store is upgraded in place on open |
//! | 4 | spend totals per (merchant category, MCC) pair, so a limit with categories counts only the purchases it applies to. A format-2 or -3 store is upgraded in place on open |
//! | 5 | range indexes (`r`, [`super::ordered`]) on numbers and instants that lists filter and sort on. A format-2, -3 or -4 store is upgraded in place on open |
//! | 6 | gram indexes ([`super::grams`]) of the text fields searches read (card holders, accounts, transfers, disputes, webhook endpoints), and compound range indexes: cards' kept index of what they can spend also in one part per `status` (`keys::compound_range`), so a status and a range on it walk one part. A format-2 to -5 store is upgraded in place on open |
//! | 7 | webhook deliveries indexed by `endpointId` alone (no index of every delivery, none by `status`), and each pending delivery's entry `wp` ([`super::keys::delivery_pending`]), so a delivery writes fewer keys. A format-2 to -6 store is upgraded in place on open |
//! | 8 | the PAN uniqueness index (`pan 0 hmac`) keyed by an HMAC under the store's own PAN-index key (random, sealed under the active vault key at `m 0 panindexkey`) instead of under each vault key, so a vault rotation rewrites only the sealed entries. A format-2 to -7 store is upgraded on open to format 7, and to 8 at once when it holds no PAN index entry; one that does is re-keyed by the first open with the vault keys (`domain::vault::Vault::upgrade_pan_index`) |
//! | 9 | cards' entries in the kept range index of what they can spend (whole and per `status`) carry the card's small list fields as their value (`domain::card_records::Cover`), so a count or check over a span reads no card. A format-2 to -8 store is upgraded in place on open (a format-7 store with PAN index entries gets the covers and stays at 7 until the vault re-keys it) |
//! | 10 | a pending webhook delivery has its entry `wp` ([`super::keys::delivery_pending`]) only while it waits for a retry after a failed attempt, not from the start (two keys fewer with every delivery: put with its event, deleted by its outcome). A format-2 to -9 store is upgraded in place on open |
//! | 11 | ledger entries indexed by `accountId` alone (no index of every entry, which no list walks: entries are listed within their account), so every entry writes a key and a count fewer. A format-2 to -10 store is upgraded in place on open |

use super::{Direction, StoreError, Tx, keys};

pub const CURRENT: u32 = 11;

/// The last format whose PAN index is keyed per vault key: a store that holds PAN index entries
/// stays in it after [`open`] until the vault keys re-key the index.
pub const PAN_INDEX_PER_VAULT_KEY: u32 = 7;

/// What [`open`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opened {
    /// In the current format (or empty, now stamped).
    Current,
    /// In this older format, which the caller upgrades before stamping it with [`stamp`].
    Older(u32),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormatError {
    /// Written by another release; the message says which format and what to do.
    Unsupported(String),
    Storage(StoreError),
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FormatError::Unsupported(m) => f.write_str(m),
            FormatError::Storage(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for FormatError {}

impl From<StoreError> for FormatError {
    fn from(e: StoreError) -> Self {
        FormatError::Storage(e)
    }
}

/// The format of the store behind `tx`: `None` for an empty store.
pub fn read(tx: &mut dyn Tx) -> Result<Option<u32>, StoreError> {
    if let Some(v) = tx.get(&keys::format_version())? {
        let raw: [u8; 4] = v
            .as_slice()
            .try_into()
            .map_err(|_| StoreError("the format version is not 4 bytes".into()))?;
        return Ok(Some(u32::from_be_bytes(raw)));
    }
    let any = tx.scan(&[], &[0xff; 8], Direction::Forward, 1)?;
    Ok(if any.is_empty() { None } else { Some(1) })
}

/// Writes [`CURRENT`] as the store's format.
pub fn stamp(tx: &mut dyn Tx) -> Result<(), StoreError> {
    stamp_version(tx, CURRENT)
}

/// Writes `version` as the store's format (an upgrade that stops short of [`CURRENT`]).
pub fn stamp_version(tx: &mut dyn Tx, version: u32) -> Result<(), StoreError> {
    tx.put(&keys::format_version(), &version.to_be_bytes())
}

/// Checks that the store can be read by this release, and stamps an empty one with [`CURRENT`].
/// Needs a write transaction when the store is empty.
pub fn open(tx: &mut dyn Tx) -> Result<Opened, FormatError> {
    match read(tx)? {
        Some(CURRENT) => Ok(Opened::Current),
        None => {
            stamp(tx)?;
            Ok(Opened::Current)
        }
        Some(v) if (2..CURRENT).contains(&v) => Ok(Opened::Older(v)),
        Some(1) => Err(FormatError::Unsupported(format!(
            "the data was written by an earlier release (data format 1, JSON records); this release \
             reads data format {CURRENT}. Start this release on a new data file (or database), or keep \
             running the earlier release on this one"
        ))),
        Some(v) => Err(FormatError::Unsupported(format!(
            "the data has format {v}, newer than this release reads ({CURRENT}); run a newer release"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::MemStore;

    #[test]
    fn stamps_empty_stores_and_refuses_old_ones() {
        let mut s = MemStore::new();
        assert_eq!(read(&mut s).unwrap(), None);
        assert_eq!(open(&mut s).unwrap(), Opened::Current);
        assert_eq!(read(&mut s).unwrap(), Some(CURRENT));
        assert_eq!(open(&mut s).unwrap(), Opened::Current);

        let mut old = MemStore::new();
        old.put(b"acct\0c\0id", b"{}").unwrap();
        let err = open(&mut old).unwrap_err();
        assert!(err.to_string().contains("data format 1"), "{err}");

        let mut newer = MemStore::new();
        newer
            .put(&keys::format_version(), &(CURRENT + 1).to_be_bytes())
            .unwrap();
        assert!(
            open(&mut newer)
                .unwrap_err()
                .to_string()
                .contains(&format!("format {}", CURRENT + 1))
        );
    }
}
