//! The write overlay: a request's writes stay here until the request has succeeded.

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;
use std::ops::Bound;

use super::{Direction, KvPair, StoreError, Tx};

/// Buffers a request's writes over a base transaction. Reads see the buffered writes; nothing reaches
/// the base until [`Overlay::commit`], so a request that fails is simply dropped.
pub struct Overlay<'a> {
    base: &'a mut dyn Tx,
    writes: BTreeMap<Vec<u8>, Write>,
}

/// A buffered write.
enum Write {
    Put(Vec<u8>),
    /// A put of a key the base does not hold ([`Tx::put_new`]): a later delete drops it.
    New(Vec<u8>),
    Delete,
}

impl Write {
    fn value(&self) -> Option<&Vec<u8>> {
        match self {
            Write::Put(v) | Write::New(v) => Some(v),
            Write::Delete => None,
        }
    }
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
        for (key, write) in self.writes {
            match write {
                Write::Put(v) => self.base.put(&key, &v)?,
                Write::New(v) => self.base.put_new(&key, &v)?,
                Write::Delete => self.base.delete(&key)?,
            }
        }
        Ok(())
    }
}

impl Tx for Overlay<'_> {
    fn get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        match self.writes.get(key) {
            Some(w) => Ok(w.value().cloned()),
            None => self.base.get(key),
        }
    }

    fn put(&mut self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        match self.writes.entry(key.to_vec()) {
            // Still a key the base does not hold.
            Entry::Occupied(mut e) if matches!(e.get(), Write::New(_)) => {
                *e.get_mut() = Write::New(value.to_vec())
            }
            Entry::Occupied(mut e) => *e.get_mut() = Write::Put(value.to_vec()),
            Entry::Vacant(e) => {
                e.insert(Write::Put(value.to_vec()));
            }
        }
        Ok(())
    }

    fn put_new(&mut self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        match self.writes.entry(key.to_vec()) {
            Entry::Occupied(mut e) if matches!(e.get(), Write::New(_)) => {
                *e.get_mut() = Write::New(value.to_vec())
            }
            // Deleted here: the base may hold it, so the put must reach the base.
            Entry::Occupied(mut e) => *e.get_mut() = Write::Put(value.to_vec()),
            Entry::Vacant(e) => {
                e.insert(Write::New(value.to_vec()));
            }
        }
        Ok(())
    }

    fn delete(&mut self, key: &[u8]) -> Result<(), StoreError> {
        match self.writes.entry(key.to_vec()) {
            // Never in the base: nothing to delete there.
            Entry::Occupied(e) if matches!(e.get(), Write::New(_)) => {
                e.remove();
            }
            Entry::Occupied(mut e) => *e.get_mut() = Write::Delete,
            Entry::Vacant(e) => {
                e.insert(Write::Delete);
            }
        }
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
        let pending: Vec<(&Vec<u8>, &Write)> = self
            .writes
            .range::<[u8], _>((Bound::Included(start), Bound::Excluded(end)))
            .collect();
        // Each buffered delete can hide at most one base entry, so this many base rows suffice.
        let base_limit = limit.saturating_add(pending.len());
        let base = self.base.scan(start, end, dir, base_limit)?;
        let mut merged: BTreeMap<Vec<u8>, Vec<u8>> = base.into_iter().collect();
        for (k, w) in pending {
            match w.value() {
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
