//! The write overlay: a request's writes stay here until the request has succeeded.

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;
use std::ops::Bound;

use super::{Direction, KvPair, StoreError, Tx};

/// Buffers a request's writes over a base transaction. Reads see the buffered writes; nothing reaches
/// the base until [`Overlay::commit`], so a request that fails is simply dropped.
///
/// A write request's overlay also keeps what it read ([`Overlay::remembering_reads`]): the base does
/// not change under an overlay, and a write reads some keys twice (a record, then again when
/// [`super::table::save`] moves its index entries), each a memtable search or a PostgreSQL round trip.
pub struct Overlay<'a> {
    base: &'a mut dyn Tx,
    slots: BTreeMap<Vec<u8>, Slot>,
    /// How many more base reads may be kept (0: none are).
    reads_left: usize,
}

/// What the overlay knows of a key.
enum Slot {
    /// The base's value, read and unchanged.
    Read(Option<Vec<u8>>),
    Put(Vec<u8>),
    /// A put of a key the base does not hold ([`Tx::put_new`]): a later delete drops it.
    New(Vec<u8>),
    Delete,
}

impl Slot {
    fn value(&self) -> Option<&Vec<u8>> {
        match self {
            Slot::Read(v) => v.as_ref(),
            Slot::Put(v) | Slot::New(v) => Some(v),
            Slot::Delete => None,
        }
    }

    /// The base does not hold the key (a delete there would change nothing).
    fn absent_below(&self) -> bool {
        matches!(self, Slot::New(_) | Slot::Read(None))
    }
}

/// Reads a write request keeps at most: a handful are read twice, and a write that reads many
/// (a replay's window of events) should not hold them all.
const KEPT_READS: usize = 64;

impl<'a> Overlay<'a> {
    pub fn new(base: &'a mut dyn Tx) -> Overlay<'a> {
        Overlay {
            base,
            slots: BTreeMap::new(),
            reads_left: 0,
        }
    }

    /// An overlay that also keeps up to [`KEPT_READS`] values it read from the base.
    pub fn remembering_reads(base: &'a mut dyn Tx) -> Overlay<'a> {
        Overlay {
            reads_left: KEPT_READS,
            ..Overlay::new(base)
        }
    }

    /// Applies the buffered writes to the base transaction.
    pub fn commit(self) -> Result<(), StoreError> {
        for (key, slot) in self.slots {
            match slot {
                Slot::Read(_) => {}
                Slot::Put(v) => self.base.put(&key, &v)?,
                Slot::New(v) => self.base.put_new(&key, &v)?,
                Slot::Delete => self.base.delete(&key)?,
            }
        }
        Ok(())
    }
}

impl Tx for Overlay<'_> {
    fn get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        if let Some(slot) = self.slots.get(key) {
            return Ok(slot.value().cloned());
        }
        let value = self.base.get(key)?;
        if self.reads_left > 0 {
            self.reads_left -= 1;
            self.slots.insert(key.to_vec(), Slot::Read(value.clone()));
        }
        Ok(value)
    }

    fn put(&mut self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        match self.slots.entry(key.to_vec()) {
            // Still a key the base does not hold.
            Entry::Occupied(mut e) if e.get().absent_below() => {
                *e.get_mut() = Slot::New(value.to_vec())
            }
            Entry::Occupied(mut e) => *e.get_mut() = Slot::Put(value.to_vec()),
            Entry::Vacant(e) => {
                e.insert(Slot::Put(value.to_vec()));
            }
        }
        Ok(())
    }

    fn put_new(&mut self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        match self.slots.entry(key.to_vec()) {
            Entry::Occupied(mut e) if e.get().absent_below() => {
                *e.get_mut() = Slot::New(value.to_vec())
            }
            // Deleted here or read there: the base holds it, so the put must reach the base.
            Entry::Occupied(mut e) => *e.get_mut() = Slot::Put(value.to_vec()),
            Entry::Vacant(e) => {
                e.insert(Slot::New(value.to_vec()));
            }
        }
        Ok(())
    }

    fn delete(&mut self, key: &[u8]) -> Result<(), StoreError> {
        match self.slots.entry(key.to_vec()) {
            // Never in the base: nothing to delete there.
            Entry::Occupied(mut e) if e.get().absent_below() => *e.get_mut() = Slot::Read(None),
            Entry::Occupied(mut e) => *e.get_mut() = Slot::Delete,
            Entry::Vacant(e) => {
                e.insert(Slot::Delete);
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
        let pending: Vec<(&Vec<u8>, &Slot)> = self
            .slots
            .range::<[u8], _>((Bound::Included(start), Bound::Excluded(end)))
            // A read holds what the base holds.
            .filter(|(_, slot)| !matches!(slot, Slot::Read(_)))
            .collect();
        // Each buffered delete can hide at most one base entry, so this many base rows suffice.
        let base_limit = limit.saturating_add(pending.len());
        let base = self.base.scan(start, end, dir, base_limit)?;
        let mut merged: BTreeMap<Vec<u8>, Vec<u8>> = base.into_iter().collect();
        for (k, slot) in pending {
            match slot.value() {
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
