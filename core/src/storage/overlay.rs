//! The write overlay: a request's writes stay here until the request has succeeded.

use std::collections::BTreeMap;
use std::ops::Bound;

use super::{Direction, KvPair, StoreError, Tx};

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
