//! The storage port: an ordered byte key-value transaction, and the write overlay that keeps a failed
//! request from leaving anything behind.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Bound;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Forward,
    Reverse,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError(pub String);

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

/// An in-memory store, for tests and the browser.
#[derive(Debug, Default, Clone)]
pub struct MemStore {
    map: BTreeMap<Vec<u8>, Vec<u8>>,
}

impl MemStore {
    pub fn new() -> MemStore {
        MemStore::default()
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&Vec<u8>, &Vec<u8>)> {
        self.map.iter()
    }
}

impl Tx for MemStore {
    fn get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.map.get(key).cloned())
    }

    fn put(&mut self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        self.map.insert(key.to_vec(), value.to_vec());
        Ok(())
    }

    fn delete(&mut self, key: &[u8]) -> Result<(), StoreError> {
        self.map.remove(key);
        Ok(())
    }

    fn scan(
        &mut self,
        start: &[u8],
        end: &[u8],
        dir: Direction,
        limit: usize,
    ) -> Result<Vec<KvPair>, StoreError> {
        if start >= end {
            return Ok(Vec::new());
        }
        let range = self
            .map
            .range::<[u8], _>((Bound::Included(start), Bound::Excluded(end)));
        let clone = |(k, v): (&Vec<u8>, &Vec<u8>)| (k.clone(), v.clone());
        Ok(match dir {
            Direction::Forward => range.take(limit).map(clone).collect(),
            Direction::Reverse => range.rev().take(limit).map(clone).collect(),
        })
    }
}

/// Buffers a request's writes over a base transaction. Reads see the buffered writes; nothing reaches
/// the base until [`Overlay::commit`], so a request that fails is simply dropped.
pub struct Overlay<'a> {
    base: &'a mut dyn Tx,
    writes: BTreeMap<Vec<u8>, Option<Vec<u8>>>,
}

impl<'a> Overlay<'a> {
    pub fn new(base: &'a mut dyn Tx) -> Overlay<'a> {
        Overlay {
            base,
            writes: BTreeMap::new(),
        }
    }

    pub fn is_dirty(&self) -> bool {
        !self.writes.is_empty()
    }

    /// Forgets every buffered write.
    pub fn discard(&mut self) {
        self.writes.clear();
    }

    /// Applies the buffered writes to the base transaction.
    pub fn commit(self) -> Result<(), StoreError> {
        for (key, value) in self.writes {
            match value {
                Some(v) => self.base.put(&key, &v)?,
                None => self.base.delete(&key)?,
            }
        }
        Ok(())
    }
}

impl Tx for Overlay<'_> {
    fn get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        match self.writes.get(key) {
            Some(v) => Ok(v.clone()),
            None => self.base.get(key),
        }
    }

    fn put(&mut self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        self.writes.insert(key.to_vec(), Some(value.to_vec()));
        Ok(())
    }

    fn delete(&mut self, key: &[u8]) -> Result<(), StoreError> {
        self.writes.insert(key.to_vec(), None);
        Ok(())
    }

    fn scan(
        &mut self,
        start: &[u8],
        end: &[u8],
        dir: Direction,
        limit: usize,
    ) -> Result<Vec<KvPair>, StoreError> {
        if start >= end {
            return Ok(Vec::new());
        }
        let pending: Vec<(&Vec<u8>, &Option<Vec<u8>>)> = self
            .writes
            .range::<[u8], _>((Bound::Included(start), Bound::Excluded(end)))
            .collect();
        // Each buffered delete can hide at most one base entry, so this many base rows suffice.
        let base_limit = limit.saturating_add(pending.len());
        let base = self.base.scan(start, end, dir, base_limit)?;
        let mut merged: BTreeMap<Vec<u8>, Vec<u8>> = base.into_iter().collect();
        for (k, v) in pending {
            match v {
                Some(v) => merged.insert(k.clone(), v.clone()),
                None => merged.remove(k),
            };
        }
        let mut out: Vec<KvPair> = merged.into_iter().collect();
        if dir == Direction::Reverse {
            out.reverse();
        }
        // The base was cut at base_limit, so only the first `limit` merged rows are certain.
        out.truncate(limit);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
        /// A scan through the overlay equals a scan of the store the overlay would commit to.
        #[test]
        fn overlay_scan_matches_committed(
            base_keys in proptest::collection::vec(0u8..32, 0..24),
            ops in proptest::collection::vec((0u8..32, any::<bool>()), 0..24),
            start in 0u8..32, len in 0u8..32, limit in 0usize..40, rev in any::<bool>(),
        ) {
            let mut base = MemStore::new();
            for k in &base_keys { base.put(&[*k], &[*k]).unwrap(); }
            let mut expected = base.clone();
            let dir = if rev { Direction::Reverse } else { Direction::Forward };
            let (s, e) = ([start], [start.saturating_add(len)]);
            let mut o = Overlay::new(&mut base);
            for (k, put) in &ops {
                if *put { o.put(&[*k], &[k + 100]).unwrap(); expected.put(&[*k], &[k + 100]).unwrap(); }
                else { o.delete(&[*k]).unwrap(); expected.delete(&[*k]).unwrap(); }
            }
            prop_assert_eq!(o.scan(&s, &e, dir, limit).unwrap(), expected.scan(&s, &e, dir, limit).unwrap());
        }
    }
}
