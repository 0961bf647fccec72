//! The storage layer: the `Tx` port (an ordered byte key-value transaction) that every host implements,
//! the in-memory store, the write overlay that keeps a failed request from leaving anything behind, the
//! one key builder ([`keys`]), the record codec ([`codec`]) and the data format version ([`format`]).
//!
//! Nothing here knows about HTTP or about the service's rules: arrows point down, http -> domain -> storage.

use std::fmt;

pub mod codec;
pub mod format;
pub mod grams;
pub mod keys;
mod mem;
pub mod ordered;
mod overlay;
pub mod table;

pub use codec::{Record, decode, encode};
pub use mem::MemStore;
pub use overlay::Overlay;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Forward,
    Reverse,
}

impl Direction {
    /// `Reverse` for a descending walk, `Forward` otherwise.
    pub fn descending(desc: bool) -> Self {
        if desc { Self::Reverse } else { Self::Forward }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError(pub String);

impl StoreError {
    /// A put or delete on a read transaction: every store's read side answers it the same way.
    pub fn read_only() -> StoreError {
        StoreError("write in a read-only transaction".into())
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "storage error: {}", self.0)
    }
}

impl std::error::Error for StoreError {}

pub type KvPair = (Vec<u8>, Vec<u8>);

/// One storage transaction. Hosts implement it over redb, SQLite or a map.
pub trait Tx {
    fn get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError>;
    fn put(&mut self, key: &[u8], value: &[u8]) -> Result<(), StoreError>;
    /// A put of a key the caller knows this transaction does not hold (a new index entry, a range
    /// entry's new place): the same as [`Tx::put`], and a store may rely on it. A delete of the key
    /// before it reaches older data need not reach that data either: the key was never there
    /// ([`Overlay`] drops the pair, the native memtable does not checkpoint it). A wrong claim
    /// would leave a deleted key behind, so only the index code makes it (and [`Overlay`], for a key
    /// it read as absent), and `MemStore` checks it in debug builds.
    fn put_new(&mut self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        self.put(key, value)
    }
    fn delete(&mut self, key: &[u8]) -> Result<(), StoreError>;
    /// Entries with `start <= key < end`, in `dir` order, at most `limit` of them.
    fn scan(
        &mut self,
        start: &[u8],
        end: &[u8],
        dir: Direction,
        limit: usize,
    ) -> Result<Vec<KvPair>, StoreError>;
}

/// All entries whose key starts with `prefix`, in key order.
pub fn scan_prefix(tx: &mut dyn Tx, prefix: &[u8]) -> Result<Vec<KvPair>, StoreError> {
    let end = prefix_end(prefix);
    tx.scan(prefix, &end, Direction::Forward, usize::MAX)
}

/// Runs `f` on every page of entries under `prefix` (at most `page` entries each), in key order,
/// so a walk over a big prefix never holds it all. Each page starts after the last key of the one
/// before: `f` may write, but a key it puts under `prefix` after that key is walked too.
pub fn for_each_page<E: From<StoreError>>(
    tx: &mut dyn Tx,
    prefix: &[u8],
    page: usize,
    mut f: impl FnMut(&mut dyn Tx, Vec<KvPair>) -> Result<(), E>,
) -> Result<(), E> {
    let end = prefix_end(prefix);
    let mut start = prefix.to_vec();
    loop {
        let rows = tx.scan(&start, &end, Direction::Forward, page)?;
        let Some((last, _)) = rows.last() else {
            return Ok(());
        };
        start = [last.as_slice(), &[0]].concat();
        let full = rows.len() == page;
        f(tx, rows)?;
        if !full {
            return Ok(());
        }
    }
}

/// The smallest key greater than every key starting with `prefix`.
pub fn prefix_end(prefix: &[u8]) -> Vec<u8> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < 0xff {
            end.push(last + 1);
            return end;
        }
    }
    // A prefix of only 0xff bytes: no finite upper bound, use a key past any we write.
    vec![0xff; prefix.len() + 1]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::{MemStore, Overlay};
    use proptest::prelude::*;

    #[test]
    fn overlay_hides_writes_until_commit() {
        let mut base = MemStore::new();
        base.put(b"a", b"1").unwrap();
        {
            let mut o = Overlay::new(&mut base);
            o.put(b"b", b"2").unwrap();
            o.delete(b"a").unwrap();
            assert_eq!(o.get(b"a").unwrap(), None);
            assert_eq!(o.get(b"b").unwrap(), Some(b"2".to_vec()));
        }
        assert_eq!(base.get(b"a").unwrap(), Some(b"1".to_vec()));
        assert_eq!(base.get(b"b").unwrap(), None);
        let mut o = Overlay::new(&mut base);
        o.put(b"b", b"2").unwrap();
        o.commit().unwrap();
        assert_eq!(base.get(b"b").unwrap(), Some(b"2".to_vec()));
    }

    #[test]
    fn prefix_end_carries() {
        assert_eq!(prefix_end(b"ab"), b"ac".to_vec());
        assert_eq!(prefix_end(&[1, 0xff]), vec![2]);
    }

    proptest! {
        /// A paged walk sees every entry under its prefix once, in order, none outside it, and
        /// pages of at most the size asked (one short or empty page ends it).
        #[test]
        fn for_each_page_walks_the_whole_prefix(
            keys in proptest::collection::btree_set((0u8..3, 0u8..40), 0..60),
            page in 1usize..9,
        ) {
            let mut store = MemStore::new();
            for (p, k) in &keys { store.put(&[*p, *k], &[*k]).unwrap(); }
            let mut seen = Vec::new();
            for_each_page(&mut store, &[1], page, |_, rows| {
                assert!(rows.len() <= page);
                seen.extend(rows.into_iter().map(|(k, _)| k));
                Ok::<_, StoreError>(())
            }).unwrap();
            let want: Vec<Vec<u8>> = keys.iter().filter(|(p, _)| *p == 1).map(|(p, k)| vec![*p, *k]).collect();
            prop_assert_eq!(seen, want);
        }

        /// A scan through the overlay (keeping its reads or not) equals a scan of the store the overlay
        /// would commit to.
        #[test]
        fn overlay_scan_matches_committed(
            base_keys in proptest::collection::vec(0u8..32, 0..24),
            ops in proptest::collection::vec((0u8..32, 0u8..4), 0..24),
            start in 0u8..32, len in 0u8..32, limit in 0usize..40, rev in any::<bool>(),
            remember in any::<bool>(),
        ) {
            let mut base = MemStore::new();
            for k in &base_keys { base.put(&[*k], &[*k]).unwrap(); }
            let mut expected = base.clone();
            let dir = Direction::descending(rev);
            let (s, e) = ([start], [start.saturating_add(len)]);
            let mut o = if remember { Overlay::remembering_reads(&mut base) } else { Overlay::new(&mut base) };
            for (k, op) in &ops {
                match op {
                    // A read, kept or not, shows what the overlay would commit.
                    3 => prop_assert_eq!(o.get(&[*k]).unwrap(), expected.get(&[*k]).unwrap()),
                    0 => { o.delete(&[*k]).unwrap(); expected.delete(&[*k]).unwrap(); }
                    // `put_new` only of a key the overlay does not show (its callers' claim).
                    1 if o.get(&[*k]).unwrap().is_none() => {
                        o.put_new(&[*k], &[k + 50]).unwrap(); expected.put(&[*k], &[k + 50]).unwrap();
                    }
                    _ => { o.put(&[*k], &[k + 100]).unwrap(); expected.put(&[*k], &[k + 100]).unwrap(); }
                }
            }
            prop_assert_eq!(o.scan(&s, &e, dir, limit).unwrap(), expected.scan(&s, &e, dir, limit).unwrap());
            // Committed (MemStore checks each `put_new` it is given), the base is what was expected.
            o.commit().unwrap();
            prop_assert!(base.iter().eq(expected.iter()));
        }
    }
}
