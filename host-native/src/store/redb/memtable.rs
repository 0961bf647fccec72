//! Recent writes that are not yet in the data file, versioned by batch: the writer adds each batch's
//! puts and deletes under the batch's sequence number, and a read at batch `n` (a snapshot) sees,
//! for each key, the newest version at or before `n`. A lock-free skip list, so reads never wait
//! for the writer. The checkpointer later writes the newest version of every key into redb in one
//! durable transaction (`logged.rs`).
//!
//! [`View`] is what a transaction sees: the active memtable, the one being checkpointed, then redb,
//! newest first, merged lazily so a scan with a limit reads only what it returns.

use std::cmp::Reverse;
use std::iter::Peekable;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use card_core::storage::KvPair;
use card_core::{Direction, StoreError, Tx};
use crossbeam_skiplist::SkipMap;
use crossbeam_skiplist::map::Entry;

type Versioned = (Vec<u8>, Reverse<u64>);

/// A key's value as a layer knows it: `None` is a delete that hides older layers.
pub type Version = Option<Vec<u8>>;

#[derive(Default)]
pub struct Memtable {
    map: SkipMap<Versioned, Version>,
    bytes: AtomicU64,
}

impl Memtable {
    /// Writes `key` in batch `seq` (a later write of the same batch replaces it).
    pub fn put(&self, seq: u64, key: &[u8], value: Option<&[u8]>) {
        let size = key.len() + value.map_or(0, <[u8]>::len) + 16;
        self.bytes.fetch_add(size as u64, Ordering::Relaxed);
        self.map
            .insert((key.to_vec(), Reverse(seq)), value.map(<[u8]>::to_vec));
    }

    /// Bytes written so far, versions included.
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Versions held, of every key.
    pub fn versions(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The newest version of `key` at or before batch `at`; None if this layer has none.
    pub fn get(&self, key: &[u8], at: u64) -> Option<Version> {
        let entry = self
            .map
            .lower_bound(std::ops::Bound::Included(&(key.to_vec(), Reverse(at))))?;
        (entry.key().0 == key).then(|| entry.value().clone())
    }

    /// The newest version at or before `at` of each key in `[start, end)`, in `dir` order.
    pub fn range(&self, start: &[u8], end: &[u8], dir: Direction, at: u64) -> Layer<'_> {
        let range = self
            .map
            .range((start.to_vec(), Reverse(u64::MAX))..(end.to_vec(), Reverse(u64::MAX)));
        let versions: Box<dyn Iterator<Item = Entry<'_, Versioned, Version>> + '_> = match dir {
            Direction::Forward => Box::new(range),
            Direction::Reverse => Box::new(range.rev()),
        };
        Box::new(Newest {
            versions: versions.peekable(),
            at,
        })
    }

    /// The newest version of every key, in key order: what a checkpoint writes.
    pub fn latest(&self) -> impl Iterator<Item = (Vec<u8>, Version)> + '_ {
        Newest {
            versions: self.map.iter().peekable(),
            at: u64::MAX,
        }
        .map(|r| r.expect("a memtable cannot fail"))
    }
}

/// One layer's keys in scan order, each with its newest visible version.
pub type Layer<'a> = Box<dyn Iterator<Item = Result<(Vec<u8>, Version), StoreError>> + 'a>;

struct Newest<'a, I: Iterator<Item = Entry<'a, Versioned, Version>>> {
    versions: Peekable<I>,
    at: u64,
}

impl<'a, I: Iterator<Item = Entry<'a, Versioned, Version>>> Iterator for Newest<'a, I> {
    type Item = Result<(Vec<u8>, Version), StoreError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let first = self.versions.next()?;
            let key = first.key().0.clone();
            let mut best: Option<(u64, Version)> = None;
            let mut consider = |e: &Entry<'a, Versioned, Version>| {
                let seq = e.key().1.0;
                if seq <= self.at && best.as_ref().is_none_or(|(s, _)| seq > *s) {
                    best = Some((seq, e.value().clone()));
                }
            };
            consider(&first);
            while let Some(e) = self.versions.peek()
                && e.key().0 == key
            {
                consider(e);
                self.versions.next();
            }
            if let Some((_, v)) = best {
                return Some(Ok((key, v)));
            }
        }
    }
}

/// Merges layers, the first the newest: for each key the first layer that has it decides; deletes
/// hide the key. At most `limit` pairs.
pub fn merge(
    mut layers: Vec<Layer<'_>>,
    dir: Direction,
    limit: usize,
) -> Result<Vec<KvPair>, StoreError> {
    let mut heads = Vec::with_capacity(layers.len());
    for l in &mut layers {
        heads.push(l.next().transpose()?);
    }
    let mut out = Vec::new();
    while out.len() < limit {
        let mut best: Option<usize> = None;
        for (i, head) in heads.iter().enumerate() {
            let Some((k, _)) = head else { continue };
            let better = match best.and_then(|b| heads[b].as_ref()) {
                None => true,
                Some((bk, _)) => match dir {
                    Direction::Forward => k < bk,
                    Direction::Reverse => k > bk,
                },
            };
            if better {
                best = Some(i);
            }
        }
        let Some(b) = best else { break };
        let (key, value) = heads[b].take().expect("the best head exists");
        for (i, head) in heads.iter_mut().enumerate() {
            if i == b || head.as_ref().is_some_and(|(k, _)| *k == key) {
                *head = layers[i].next().transpose()?;
            }
        }
        if let Some(v) = value {
            out.push((key, v));
        }
    }
    Ok(out)
}

/// The memtables of one moment: the active one and, while a checkpoint runs, the one it writes.
pub struct Layers {
    pub active: Arc<Memtable>,
    pub frozen: Option<Arc<Memtable>>,
    /// The latest batch whose writes redb may hold and this view still stands on: a read whose
    /// redb snapshot holds a later one took these layers too early and takes them again.
    pub redb_at_most: u64,
}

/// The store below the memtables (redb): reads, and its keys in a range as a layer.
pub trait Below: Tx {
    fn layer(
        &mut self,
        start: &[u8],
        end: &[u8],
        dir: Direction,
    ) -> Result<Layer<'static>, StoreError>;
}

/// A snapshot: the memtables at batch `at`, then the store below. With `writing`, puts and deletes
/// go into the active memtable as batch `at` (the writer's transaction).
pub struct View<R: Below> {
    pub layers: Arc<Layers>,
    pub at: u64,
    pub below: R,
    pub writing: bool,
    /// Whether any put or delete was made.
    pub wrote: bool,
}

impl<R: Below> View<R> {
    fn layer_get(&self, key: &[u8]) -> Option<Version> {
        self.layers.active.get(key, self.at).or_else(|| {
            self.layers
                .frozen
                .as_ref()
                .and_then(|f| f.get(key, u64::MAX))
        })
    }

    fn write(&mut self, key: &[u8], value: Option<&[u8]>) -> Result<(), StoreError> {
        if !self.writing {
            return Err(StoreError::read_only());
        }
        self.layers.active.put(self.at, key, value);
        self.wrote = true;
        Ok(())
    }
}

impl<R: Below> Tx for View<R> {
    fn get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        match self.layer_get(key) {
            Some(v) => Ok(v),
            None => self.below.get(key),
        }
    }

    fn put(&mut self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        self.write(key, Some(value))
    }

    fn delete(&mut self, key: &[u8]) -> Result<(), StoreError> {
        self.write(key, None)
    }

    fn scan(
        &mut self,
        start: &[u8],
        end: &[u8],
        dir: Direction,
        limit: usize,
    ) -> Result<Vec<KvPair>, StoreError> {
        if start >= end || limit == 0 {
            return Ok(Vec::new());
        }
        let below = self.below.layer(start, end, dir)?;
        let mut layers = vec![self.layers.active.range(start, end, dir, self.at)];
        if let Some(f) = &self.layers.frozen {
            layers.push(f.range(start, end, dir, u64::MAX));
        }
        layers.push(below);
        merge(layers, dir, limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use card_core::storage::MemStore;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    fn layer(pairs: Vec<(Vec<u8>, Version)>) -> Layer<'static> {
        Box::new(pairs.into_iter().map(Ok))
    }

    /// A map as the store below.
    struct Plain(MemStore);

    impl Tx for Plain {
        fn get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
            self.0.get(key)
        }
        fn put(&mut self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
            self.0.put(key, value)
        }
        fn delete(&mut self, key: &[u8]) -> Result<(), StoreError> {
            self.0.delete(key)
        }
        fn scan(
            &mut self,
            s: &[u8],
            e: &[u8],
            d: Direction,
            l: usize,
        ) -> Result<Vec<KvPair>, StoreError> {
            self.0.scan(s, e, d, l)
        }
    }

    impl Below for Plain {
        fn layer(
            &mut self,
            s: &[u8],
            e: &[u8],
            d: Direction,
        ) -> Result<Layer<'static>, StoreError> {
            let rows = self.0.scan(s, e, d, usize::MAX)?;
            Ok(layer(rows.into_iter().map(|(k, v)| (k, Some(v))).collect()))
        }
    }

    #[test]
    fn versions_answer_by_batch_and_deletes_hide_older_layers() {
        let m = Memtable::default();
        m.put(3, b"a", Some(b"3"));
        m.put(5, b"a", None);
        m.put(7, b"a", Some(b"7"));
        m.put(5, b"b", Some(b"5"));
        assert_eq!(m.get(b"a", 2), None);
        assert_eq!(m.get(b"a", 4), Some(Some(b"3".to_vec())));
        assert_eq!(m.get(b"a", 6), Some(None));
        assert_eq!(m.get(b"a", u64::MAX), Some(Some(b"7".to_vec())));
        assert_eq!(m.get(b"", 9), None);
        let at6: Vec<_> = m
            .range(b"a", b"c", Direction::Reverse, 6)
            .map(Result::unwrap)
            .collect();
        assert_eq!(
            at6,
            vec![(b"b".to_vec(), Some(b"5".to_vec())), (b"a".to_vec(), None)]
        );
        let below = layer(vec![
            (b"a".to_vec(), Some(b"old".to_vec())),
            (b"c".to_vec(), Some(b"c".to_vec())),
        ]);
        let merged = merge(
            vec![m.range(b"a", b"z", Direction::Forward, 6), below],
            Direction::Forward,
            10,
        )
        .unwrap();
        assert_eq!(
            merged,
            vec![
                (b"b".to_vec(), b"5".to_vec()),
                (b"c".to_vec(), b"c".to_vec())
            ]
        );
    }

    proptest! {
        /// Layers of random versions against a plain map that applies them in order: every read
        /// at every batch, every scan range, direction and limit agree.
        #[test]
        fn a_view_reads_what_the_writes_in_order_left(
            base in prop::collection::btree_map(0u8..16, any::<u8>(), 0..8),
            batches in prop::collection::vec(prop::collection::vec((0u8..16, prop::option::of(any::<u8>())), 1..4), 1..12),
            freeze in 0usize..12,
            start in 0u8..16, len in 0u8..17, limit in 0usize..20, reverse: bool,
        ) {
            let mut redb = MemStore::new();
            for (k, v) in &base {
                redb.put(&[*k], &[*v]).unwrap();
            }
            let frozen = Memtable::default();
            let active = Memtable::default();
            let mut model: BTreeMap<u8, u8> = base.clone();
            let mut states = vec![model.clone()];
            for (i, batch) in batches.iter().enumerate() {
                let seq = i as u64 + 1;
                let target = if i < freeze { &frozen } else { &active };
                for (k, v) in batch {
                    target.put(seq, &[*k], v.as_ref().map(std::slice::from_ref));
                    match v {
                        Some(v) => model.insert(*k, *v),
                        None => model.remove(k),
                    };
                }
                states.push(model.clone());
            }
            let layers = Arc::new(Layers {
                active: Arc::new(active),
                frozen: Some(Arc::new(frozen)),
                redb_at_most: 0,
            });
            let dir = if reverse { Direction::Reverse } else { Direction::Forward };
            let end = start.saturating_add(len);
            // Reads at every batch from the freeze on (earlier batches live in the frozen layer,
            // which every view sees whole).
            let first = batches.len().min(freeze);
            for (at, want) in states.iter().enumerate().skip(first) {
                let mut view = View {
                    layers: layers.clone(),
                    at: at as u64,
                    below: Plain(redb.clone()),
                    writing: false,
                    wrote: false,
                };
                for k in 0u8..16 {
                    prop_assert_eq!(view.get(&[k]).unwrap(), want.get(&k).map(|v| vec![*v]));
                }
                let mut expected: Vec<KvPair> = want
                    .range(start..end.max(start))
                    .map(|(k, v)| (vec![*k], vec![*v]))
                    .collect();
                if reverse {
                    expected.reverse();
                }
                expected.truncate(limit);
                prop_assert_eq!(view.scan(&[start], &[end], dir, limit).unwrap(), expected);
            }
        }
    }
}
