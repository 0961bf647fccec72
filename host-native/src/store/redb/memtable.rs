//! Recent writes that are not yet in the data file, versioned by batch: the writer adds each batch's
//! puts and deletes under the batch's sequence number, and a read at batch `n` (a snapshot) sees,
//! for each key, the newest version at or before `n`. A lock-free skip list of keys, each holding
//! its versions newest first (`chain.rs`), so reads never wait for the writer, a key's rewrite adds
//! a version without a skip-list insert, and a read finds the key once. The checkpointer later
//! writes the newest version of every key into redb in one durable transaction (`logged.rs`).
//!
//! [`View`] is what a transaction sees: the active memtable, the one being checkpointed, then redb,
//! newest first, merged lazily so a scan with a limit reads only what it returns.

// A path of its own, so benches/memtable.rs can take this file in by its path too.
#[path = "memtable/chain.rs"]
mod chain;

use std::ops::Bound;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use card_core::storage::KvPair;
use card_core::{Direction, StoreError, Tx};
use crossbeam_epoch as epoch;
use crossbeam_skiplist::base::{IntoIter, RefIter, RefRange, SkipList};

use self::chain::{Arena, Chain, Key, Outcome, Write};

/// A key's value as a layer knows it: `None` is a delete that hides older layers.
pub type Version = Option<Vec<u8>>;

pub struct Memtable {
    /// Declared before the arena, so dropped before it (`chain.rs`: keys and chains point into it).
    map: SkipList<Key, Chain>,
    /// The keys' and versions' memory, held by the one writer for a whole write (readers never
    /// take it: they follow the chains).
    writer: Mutex<Arena>,
    versions: AtomicUsize,
    bytes: AtomicU64,
}

impl Default for Memtable {
    fn default() -> Self {
        Memtable {
            map: SkipList::new(epoch::default_collector().clone()),
            writer: Mutex::default(),
            versions: AtomicUsize::new(0),
            bytes: AtomicU64::new(0),
        }
    }
}

impl Memtable {
    /// Writes `key` in batch `seq` (a later write of the same batch replaces it). A delete of a
    /// key put with [`Memtable::put_new`] in the same batch takes that version out: the key was in
    /// no layer before, and no read has seen the batch.
    pub fn put(&self, seq: u64, key: &[u8], value: Option<&[u8]>) {
        let write = match value {
            Some(v) => Write::Put(v),
            None => Write::Delete,
        };
        self.write(seq, key, write);
    }

    /// [`Memtable::put`] of a key that no layer holds at batch `seq` (the caller's claim): a
    /// checkpoint need not delete it from redb if it is deleted before the memtable is written.
    pub fn put_new(&self, seq: u64, key: &[u8], value: &[u8]) {
        self.write(seq, key, Write::New(value));
    }

    fn write(&self, seq: u64, key: &[u8], write: Write<'_>) {
        let mut arena = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
        let guard = &epoch::pin();
        // One search: the key is made first (a long one in the arena, given back if the key was
        // there).
        let mark = arena.mark();
        let copy = Key::new(key, &mut arena);
        let mut inserted = false;
        let entry = self.map.get_or_insert_with(
            copy,
            || {
                inserted = true;
                Chain::default()
            },
            guard,
        );
        if !inserted {
            // SAFETY: the key was there, so the skip list dropped `copy` without linking it:
            // nothing points into what was allocated for it.
            unsafe { arena.reset(mark) };
        }
        let value = match write {
            Write::Put(v) | Write::New(v) => v.len(),
            Write::Delete => 0,
        };
        match entry.value().write(&mut arena, seq, write) {
            Outcome::Added => {
                self.versions.fetch_add(1, Ordering::Relaxed);
                self.bytes
                    .fetch_add(Self::size(key, value), Ordering::Relaxed);
            }
            Outcome::Replaced => {
                self.bytes
                    .fetch_add(Self::size(key, value), Ordering::Relaxed);
            }
            Outcome::TakenOut { value, emptied } => {
                self.versions.fetch_sub(1, Ordering::Relaxed);
                self.bytes
                    .fetch_sub(Self::size(key, value), Ordering::Relaxed);
                if emptied {
                    // A key with no version is no key of this layer (`latest`, `versions`).
                    entry.remove(guard);
                }
            }
        }
        entry.release(guard);
    }

    fn size(key: &[u8], value: usize) -> u64 {
        (key.len() + value + 16) as u64
    }

    /// Bytes written so far, versions included.
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Versions held, of every key.
    pub fn versions(&self) -> usize {
        self.versions.load(Ordering::Relaxed)
    }

    /// Keys held (a freeing's steps, `Freeing::free`).
    pub fn keys(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.versions() == 0
    }

    /// The newest version of `key` at or before batch `at`; None if this layer has none.
    pub fn get(&self, key: &[u8], at: u64) -> Option<Version> {
        let guard = &epoch::pin();
        let entry = self.map.get(key, guard)?;
        let node = entry.value().at(at)?;
        Some(node.value().map(<[u8]>::to_vec))
    }

    /// The newest version at or before `at` of each key in `[start, end)`, in `dir` order.
    pub fn range<'a>(
        &'a self,
        start: &'a [u8],
        end: &'a [u8],
        dir: Direction,
        at: u64,
    ) -> Layer<'a> {
        let keys = self
            .map
            .ref_range((Bound::Included(start), Bound::Excluded(end)));
        Box::new(Scan { keys, dir, at }.map(Ok))
    }

    /// The newest version of every key, in key order, and whether the key was new to this
    /// memtable (its oldest version here a [`Memtable::put_new`]): what a checkpoint writes. A
    /// new key's delete is not written: redb never had it. A key's chain knows both without a
    /// walk of its versions (a key every batch rewrites has one per batch).
    pub fn latest(&self) -> Latest<'_> {
        Latest {
            keys: self.map.ref_iter(),
            read: 0,
        }
    }

    /// Takes the memtable apart key by key, so its freeing can be done in pieces with pauses
    /// between ([`Freeing::free`]); dropping it frees the rest.
    pub fn into_freeing(self) -> Freeing {
        let Memtable { map, writer, .. } = self;
        Freeing {
            keys: map.into_iter(),
            arena: writer.into_inner().unwrap_or_else(PoisonError::into_inner),
        }
    }
}

/// `[start, end)` of borrowed keys.
type Span<'a> = (Bound<&'a [u8]>, Bound<&'a [u8]>);

/// [`Memtable::range`]'s keys, each with its newest version at or before `at`.
struct Scan<'a> {
    keys: RefRange<'a, [u8], Span<'a>, Key, Chain>,
    dir: Direction,
    at: u64,
}

impl Iterator for Scan<'_> {
    type Item = (Vec<u8>, Version);

    fn next(&mut self) -> Option<Self::Item> {
        let guard = &epoch::pin();
        loop {
            let entry = match self.dir {
                Direction::Forward => self.keys.next(guard),
                Direction::Reverse => self.keys.next_back(guard),
            }?;
            let found = entry.value().at(self.at).map(|node| {
                let key = entry.key().get().to_vec();
                (key, node.value().map(<[u8]>::to_vec))
            });
            entry.release(guard);
            if found.is_some() {
                return found;
            }
        }
    }
}

impl Drop for Scan<'_> {
    fn drop(&mut self) {
        self.keys.drop_impl(&epoch::pin());
    }
}

/// [`Memtable::latest`]: the newest version of every key, and how many keys it has read.
pub struct Latest<'a> {
    keys: RefIter<'a, Key, Chain>,
    read: usize,
}

impl Latest<'_> {
    /// Keys read so far.
    #[cfg(test)]
    pub fn keys_read(&self) -> usize {
        self.read
    }
}

impl Iterator for Latest<'_> {
    type Item = (Vec<u8>, Version, bool);

    fn next(&mut self) -> Option<Self::Item> {
        let guard = &epoch::pin();
        loop {
            let entry = self.keys.next(guard)?;
            self.read += 1;
            let chain = entry.value();
            let found = chain.newest().map(|node| {
                let key = entry.key().get().to_vec();
                (key, node.value().map(<[u8]>::to_vec), chain.oldest_new())
            });
            entry.release(guard);
            if found.is_some() {
                return found;
            }
        }
    }
}

impl Drop for Latest<'_> {
    fn drop(&mut self) {
        self.keys.drop_impl(&epoch::pin());
    }
}

/// A memtable being freed ([`Memtable::into_freeing`]): its skip list's nodes a key at a time,
/// then its arena's chunks.
pub struct Freeing {
    /// Declared before the arena, so dropped before it (`chain.rs`).
    keys: IntoIter<Key, Chain>,
    arena: Arena,
}

impl Freeing {
    /// Frees up to `n` keys, or once none is left a chunk of the arena per 1,024 of `n` (a chunk
    /// holds about that many versions); false once nothing is left.
    pub fn free(&mut self, n: usize) -> bool {
        for _ in 0..n {
            if self.keys.next().is_none() {
                return self.arena.free_chunks(n.div_ceil(1024));
            }
        }
        true
    }
}

/// One layer's keys in scan order, each with its newest visible version.
pub type Layer<'a> = Box<dyn Iterator<Item = Result<(Vec<u8>, Version), StoreError>> + 'a>;

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
                .and_then(|f| f.get(key, self.at))
        })
    }

    fn write(&mut self, key: &[u8], value: Option<&[u8]>, new: bool) -> Result<(), StoreError> {
        if !self.writing {
            return Err(StoreError::read_only());
        }
        match (value, new) {
            (Some(v), true) => self.layers.active.put_new(self.at, key, v),
            _ => self.layers.active.put(self.at, key, value),
        }
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
        self.write(key, Some(value), false)
    }

    fn put_new(&mut self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        self.write(key, Some(value), true)
    }

    fn delete(&mut self, key: &[u8]) -> Result<(), StoreError> {
        self.write(key, None, false)
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
            layers.push(f.range(start, end, dir, self.at));
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
                    match v {
                        // A key the view does not hold goes in as `put_new`, as the index code's.
                        Some(v) if !model.contains_key(k) => target.put_new(seq, &[*k], &[*v]),
                        _ => target.put(seq, &[*k], v.as_ref().map(std::slice::from_ref)),
                    }
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
            let dir = Direction::descending(reverse);
            let end = start.saturating_add(len);
            // Reads at every batch, before the freeze too: a read as of the durable point may
            // be behind batches of the frozen layer (a checkpoint not yet durable).
            for (at, want) in states.iter().enumerate() {
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

        /// Checkpoints that skip the deletes of keys new to their memtable (`latest`'s flag)
        /// leave redb as the writes in order left the store: a skipped delete was of a key
        /// redb never held. Writes of keys the view lacks are `put_new`s (the index code's claim).
        #[test]
        fn checkpoints_that_skip_new_keys_deletes_leave_what_the_writes_left(
            base in prop::collection::btree_map(0u8..12, any::<u8>(), 0..6),
            batches in prop::collection::vec(prop::collection::vec((0u8..12, prop::option::of(any::<u8>())), 1..6), 1..16),
            freezes in prop::collection::vec(any::<bool>(), 16),
        ) {
            let mut redb = MemStore::new();
            for (k, v) in &base {
                redb.put(&[*k], &[*v]).unwrap();
            }
            let checkpoint = |m: &Memtable, redb: &mut MemStore| {
                for (key, version, new) in m.latest() {
                    match version {
                        Some(v) => redb.put(&key, &v).unwrap(),
                        None if new => assert!(redb.get(&key).unwrap().is_none(), "skipped a delete of a key redb holds"),
                        None => redb.delete(&key).unwrap(),
                    }
                }
            };
            let mut model: BTreeMap<u8, u8> = base.clone();
            let mut active = Memtable::default();
            for (i, batch) in batches.iter().enumerate() {
                let seq = i as u64 + 1;
                for (k, v) in batch {
                    // The view at this write: what the model holds (the batch's own writes too).
                    match v {
                        Some(v) if !model.contains_key(k) => active.put_new(seq, &[*k], &[*v]),
                        _ => active.put(seq, &[*k], v.as_ref().map(std::slice::from_ref)),
                    }
                    match v {
                        Some(v) => model.insert(*k, *v),
                        None => model.remove(k),
                    };
                }
                if freezes[i] {
                    checkpoint(&std::mem::take(&mut active), &mut redb);
                }
            }
            checkpoint(&active, &mut redb);
            let want: Vec<KvPair> = model.iter().map(|(k, v)| (vec![*k], vec![*v])).collect();
            prop_assert_eq!(redb.scan(&[0], &[0xff], Direction::Forward, usize::MAX).unwrap(), want);
        }
    }

    type Batched = (Vec<u8>, std::cmp::Reverse<u64>);

    /// The rules of a version map keyed by (key, batch), written one version at a time: what
    /// the memtable means (the skip list of versions it replaced kept them this way).
    #[derive(Default)]
    struct Versions {
        /// (key, batch) to (the value or a delete, whether a put new).
        map: BTreeMap<Batched, (Version, bool)>,
        bytes: u64,
    }

    impl Versions {
        fn write(&mut self, seq: u64, key: &[u8], value: Option<&[u8]>, new: bool) {
            let at = (key.to_vec(), std::cmp::Reverse(seq));
            let size = |v: Option<&[u8]>| (key.len() + v.map_or(0, <[u8]>::len) + 16) as u64;
            // A delete of the batch's own new version takes it out.
            if value.is_none()
                && let Some((Some(v), true)) = self.map.get(&at)
            {
                self.bytes -= size(Some(v));
                self.map.remove(&at);
                return;
            }
            // Put new over a version of the batch is a plain put.
            let new = new && value.is_some() && !self.map.contains_key(&at);
            self.bytes += size(value);
            self.map.insert(at, (value.map(<[u8]>::to_vec), new));
        }

        fn get(&self, key: &[u8], at: u64) -> Option<Version> {
            let ((k, _), (v, _)) = self
                .map
                .range((key.to_vec(), std::cmp::Reverse(at))..)
                .next()?;
            (k == key).then(|| v.clone())
        }

        fn latest(&self) -> Vec<(Vec<u8>, Version, bool)> {
            let mut out: Vec<(Vec<u8>, Version, bool)> = Vec::new();
            for ((k, _), (v, new)) in &self.map {
                match out.last_mut() {
                    Some(last) if last.0 == *k => last.2 = *new,
                    _ => out.push((k.clone(), v.clone(), *new)),
                }
            }
            out
        }
    }

    proptest! {
        /// Random writes, in batches out of order too (the chain's general case), against the
        /// version map: every read at every batch, `latest` with its oldest kinds, the version
        /// count and the bytes agree.
        #[test]
        fn the_memtable_keeps_the_rules_of_a_version_map(
            writes in prop::collection::vec((1u64..8, 0u8..6, prop::option::of(0u8..4), any::<bool>()), 0..80),
        ) {
            let m = Memtable::default();
            let mut model = Versions::default();
            // Short keys and long ones (past what a skip-list node holds inline), sharing prefixes.
            let key = |k: u8| [vec![b'k'; if k.is_multiple_of(2) { 3 } else { 200 }], vec![k]].concat();
            for (seq, k, v, new) in &writes {
                let key = key(*k);
                let value = v.map(|v| vec![v; usize::from(v)]);
                match (&value, new) {
                    (Some(v), true) => m.put_new(*seq, &key, v),
                    _ => m.put(*seq, &key, value.as_deref()),
                }
                model.write(*seq, &key, value.as_deref(), *new);
                prop_assert_eq!(m.versions(), model.map.len());
                prop_assert_eq!(m.bytes(), model.bytes);
            }
            for k in 0u8..6 {
                let key = key(k);
                for at in 0..9 {
                    prop_assert_eq!(m.get(&key, at), model.get(&key, at), "key {} at {}", k, at);
                }
            }
            prop_assert_eq!(m.latest().collect::<Vec<_>>(), model.latest());
        }
    }

    /// Readers at the batches the writer has finished, while it writes the next ones (rewriting
    /// keys within a batch, taking new keys out): each read sees exactly its batch's state.
    #[test]
    fn readers_see_their_batch_while_the_writer_goes_on() {
        use std::sync::atomic::AtomicU64;
        const KEYS: u8 = 24;
        const BATCHES: u64 = 3000;
        // The batch that last wrote key `k` at or before batch `s`, if any (0: deleted or never).
        fn last_write(k: u8, s: u64) -> u64 {
            (1..=s)
                .rev()
                .find(|b| (u64::from(k) + b) % 3 == 0)
                .filter(|b| b % 7 != 0)
                .unwrap_or(0)
        }
        let m = Arc::new(Memtable::default());
        let done = Arc::new(AtomicU64::new(0));
        let readers: Vec<_> = (0..2)
            .map(|_| {
                let (m, done) = (m.clone(), done.clone());
                std::thread::spawn(move || {
                    let mut reads = 0u64;
                    loop {
                        let s = done.load(Ordering::Acquire);
                        for k in 0..KEYS {
                            let want = match last_write(k, s) {
                                0 if (1..=s).any(|b| (u64::from(k) + b) % 3 == 0) => Some(None),
                                0 => None,
                                b => Some(Some(b.to_le_bytes().to_vec())),
                            };
                            assert_eq!(m.get(&[k], s), want, "key {k} at {s}");
                            reads += 1;
                        }
                        let scanned: Vec<_> = m
                            .range(&[0], &[KEYS], Direction::Forward, s)
                            .map(Result::unwrap)
                            .filter_map(|(k, v)| v.map(|_| k[0]))
                            .collect();
                        let want: Vec<u8> = (0..KEYS).filter(|k| last_write(*k, s) != 0).collect();
                        assert_eq!(scanned, want, "at {s}");
                        if s == BATCHES {
                            return reads;
                        }
                    }
                })
            })
            .collect();
        for s in 1..=BATCHES {
            for k in 0..KEYS {
                if (u64::from(k) + s) % 3 == 0 {
                    // Rewritten within the batch; a delete every seventh batch.
                    m.put(s, &[k], Some(b"first"));
                    let value = (s % 7 != 0).then(|| s.to_le_bytes());
                    m.put(s, &[k], value.as_ref().map(|v| &v[..]));
                }
                // A new key put and taken out in the batch: never seen.
                m.put_new(s, &[k, 1], b"gone");
                m.put(s, &[k, 1], None);
            }
            done.store(s, Ordering::Release);
        }
        for r in readers {
            assert!(r.join().unwrap() > 0);
        }
        assert_eq!(m.get(&[0, 1], BATCHES), None);
    }

    #[test]
    fn a_memtable_is_freed_in_pieces_and_latest_reads_each_key_once() {
        let m = Memtable::default();
        for seq in 1..=3 {
            for k in 0u8..4 {
                m.put(seq, &[k], Some(&[seq as u8]));
            }
        }
        assert_eq!(m.versions(), 12);
        let mut latest = m.latest();
        assert_eq!(latest.next(), Some((vec![0], Some(vec![3]), false)));
        assert_eq!(latest.keys_read(), 1);
        assert_eq!(latest.by_ref().count(), 3);
        assert_eq!(latest.keys_read(), 4);
        drop(latest);
        let mut freeing = m.into_freeing();
        // Two keys, two more, then the arena's one chunk.
        assert!(freeing.free(2));
        assert!(freeing.free(2));
        assert!(!freeing.free(2));
    }

    /// A key rewritten every batch, new at its first, and keys around it: `latest` gives each
    /// key's newest version once, with its oldest version's kind, and reads each key once.
    #[test]
    fn latest_gives_the_newest_version_and_the_oldest_kind_of_a_key_with_many() {
        let m = Memtable::default();
        let many = 100u64;
        // "a": new at batch 1, then rewritten every batch, deleted at the last.
        m.put_new(1, b"a", b"1");
        // "a\0": one version, between "a" and "b"; "b": a plain put rewritten as often as "a".
        m.put(1, b"a\0", Some(b"x"));
        for seq in 2..=many {
            m.put(seq, b"a", Some(&seq.to_le_bytes()));
            m.put(seq, b"b", Some(&seq.to_le_bytes()));
        }
        m.put(many + 1, b"a", None);
        // "c": new, rewritten in its own batch (a plain put then), then deleted: written.
        m.put_new(1, b"c", b"1");
        m.put(1, b"c", Some(b"2"));
        m.put(2, b"c", None);
        assert_eq!(m.versions(), 2 * many as usize + 1 + 2);
        assert_eq!(m.get(b"a", 50), Some(Some(50u64.to_le_bytes().to_vec())));
        assert_eq!(m.get(b"c", 1), Some(Some(b"2".to_vec())));
        let mut latest = m.latest();
        let got: Vec<_> = latest.by_ref().collect();
        assert_eq!(
            got,
            vec![
                (b"a".to_vec(), None, true),
                (b"a\0".to_vec(), Some(b"x".to_vec()), false),
                (b"b".to_vec(), Some(many.to_le_bytes().to_vec()), false),
                (b"c".to_vec(), None, false),
            ]
        );
        assert_eq!(latest.keys_read(), 4);
    }

    #[test]
    fn a_new_key_put_and_deleted_leaves_nothing_to_checkpoint() {
        let m = Memtable::default();
        // In one batch: the version goes, as if never written.
        m.put_new(1, b"a", b"1");
        m.put(1, b"a", None);
        assert_eq!(m.versions(), 0);
        assert_eq!(m.bytes(), 0);
        // Across batches: the delete stays for reads, and the checkpoint skips it.
        m.put_new(2, b"b", b"2");
        m.put(3, b"b", None);
        // A key redb may hold (a plain put first): its delete is written.
        m.put(2, b"c", Some(b"2"));
        m.put(3, b"c", None);
        assert_eq!(m.get(b"b", 3), Some(None));
        // Put new over a delete of the same batch, then deleted: the delete stays.
        m.put(4, b"b", Some(b"4"));
        m.put(5, b"b", None);
        m.put_new(5, b"b", b"5");
        m.put(5, b"b", None);
        assert_eq!(m.get(b"b", 5), Some(None));
        let latest: Vec<_> = m.latest().collect();
        assert_eq!(
            latest,
            vec![(b"b".to_vec(), None, true), (b"c".to_vec(), None, false)]
        );
    }
}
