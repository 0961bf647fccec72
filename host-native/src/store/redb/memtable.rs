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
use std::ops::Bound;
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
    map: SkipMap<Versioned, Stored>,
    bytes: AtomicU64,
}

/// A version as held: a put, a put of a key no older layer holds ([`Tx::put_new`]), or a delete.
#[derive(Clone)]
enum Stored {
    Put(Vec<u8>),
    New(Vec<u8>),
    Delete,
}

impl Stored {
    fn version(&self) -> Version {
        match self {
            Stored::Put(v) | Stored::New(v) => Some(v.clone()),
            Stored::Delete => None,
        }
    }
}

impl Memtable {
    /// Writes `key` in batch `seq` (a later write of the same batch replaces it). A delete of a
    /// key put with [`Memtable::put_new`] in the same batch takes that version out: the key was in
    /// no layer before, and no read has seen the batch.
    pub fn put(&self, seq: u64, key: &[u8], value: Option<&[u8]>) {
        let versioned = (key.to_vec(), Reverse(seq));
        let Some(v) = value else {
            // One search, as an insert: a `New` of this batch is kept (and then taken out),
            // anything else replaced.
            let entry = self.map.compare_insert(versioned, Stored::Delete, |old| {
                !matches!(old, Stored::New(_))
            });
            if matches!(entry.value(), Stored::New(_)) {
                let size = Self::size(key, entry.value());
                entry.remove();
                self.bytes.fetch_sub(size, Ordering::Relaxed);
            } else {
                self.bytes
                    .fetch_add(Self::size(key, &Stored::Delete), Ordering::Relaxed);
            }
            return;
        };
        self.insert(versioned, Stored::Put(v.to_vec()));
    }

    /// [`Memtable::put`] of a key that no layer holds at batch `seq` (the caller's claim): a
    /// checkpoint need not delete it from redb if it is deleted before the memtable is written.
    pub fn put_new(&self, seq: u64, key: &[u8], value: &[u8]) {
        let mut inserted = false;
        let stored = Stored::New(value.to_vec());
        let size = Self::size(key, &stored);
        let entry = self
            .map
            .get_or_insert_with((key.to_vec(), Reverse(seq)), || {
                inserted = true;
                stored
            });
        if inserted {
            self.bytes.fetch_add(size, Ordering::Relaxed);
        } else {
            // Over a delete of the same batch: a later delete must put that delete back, not
            // take the version out, so this is a plain put.
            let versioned = entry.key().clone();
            self.insert(versioned, Stored::Put(value.to_vec()));
        }
    }

    fn size(key: &[u8], stored: &Stored) -> u64 {
        let value = match stored {
            Stored::Put(v) | Stored::New(v) => v.len(),
            Stored::Delete => 0,
        };
        (key.len() + value + 16) as u64
    }

    fn insert(&self, versioned: Versioned, stored: Stored) {
        self.bytes
            .fetch_add(Self::size(&versioned.0, &stored), Ordering::Relaxed);
        self.map.insert(versioned, stored);
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
            .lower_bound(Bound::Included(&(key.to_vec(), Reverse(at))))?;
        (entry.key().0 == key).then(|| entry.value().version())
    }

    /// The newest version at or before `at` of each key in `[start, end)`, in `dir` order.
    pub fn range(&self, start: &[u8], end: &[u8], dir: Direction, at: u64) -> Layer<'_> {
        let range = self
            .map
            .range((start.to_vec(), Reverse(u64::MAX))..(end.to_vec(), Reverse(u64::MAX)));
        let versions: Box<dyn Iterator<Item = Entry<'_, Versioned, Stored>> + '_> = match dir {
            Direction::Forward => Box::new(range),
            Direction::Reverse => Box::new(range.rev()),
        };
        Box::new(
            Newest {
                versions: versions.peekable(),
                at,
                read: 0,
            }
            .map(|(key, version, _)| Ok((key, version))),
        )
    }

    /// The newest version of every key, in key order, and whether the key was new to this
    /// memtable (its oldest version here a [`Memtable::put_new`]): what a checkpoint writes. A
    /// new key's delete is not written: redb never had it.
    ///
    /// A key's versions sort newest first, so its first is the one written; past
    /// [`WALK_VERSIONS`] of them it finds the oldest (whose kind says whether the key was new) in
    /// one search instead of walking them all: a key every batch rewrites (an account, a card, a
    /// counter) has a version per batch, a third of a checkpoint's versions, each a cache miss.
    pub fn latest(&self) -> Latest<'_> {
        Latest {
            map: &self.map,
            next: self.map.front(),
            read: 0,
        }
    }

    /// Takes the memtable apart version by version, so its freeing (three allocations per
    /// version, tens of milliseconds for a checkpoint's) can be done in pieces with pauses between
    /// ([`Freeing::free`]); dropping it frees the rest.
    pub fn into_freeing(self) -> Freeing {
        Freeing(self.map.into_iter())
    }
}

/// Versions of one key [`Memtable::latest`] walks one by one before it searches for the oldest.
const WALK_VERSIONS: usize = 8;

/// [`Memtable::latest`]: the newest version of every key, and how far into the versions it is.
pub struct Latest<'a> {
    map: &'a SkipMap<Versioned, Stored>,
    /// The next key's newest version.
    next: Option<Entry<'a, Versioned, Stored>>,
    read: usize,
}

impl Latest<'_> {
    /// Versions walked so far (of [`Memtable::versions`]; the versions a search passed over are
    /// not counted, so a checkpoint paces by keys, `logged.rs`).
    #[cfg(test)]
    pub fn versions_read(&self) -> usize {
        self.read
    }
}

impl Iterator for Latest<'_> {
    type Item = (Vec<u8>, Version, bool);

    fn next(&mut self) -> Option<Self::Item> {
        let newest = self.next.take()?;
        self.read += 1;
        let key = newest.key().0.clone();
        let version = newest.value().version();
        let mut oldest = newest;
        let mut walked = 1;
        loop {
            if walked == WALK_VERSIONS {
                // The smallest seq sorts last: the greatest entry at or below (key, 0) is the
                // key's oldest version (this one, if no other is left).
                if let Some(e) = self
                    .map
                    .upper_bound(Bound::Included(&(key.clone(), Reverse(0))))
                {
                    oldest = e;
                }
            }
            match oldest.next() {
                Some(e) if e.key().0 == key => {
                    self.read += 1;
                    walked += 1;
                    oldest = e;
                }
                after => {
                    self.next = after;
                    break;
                }
            }
        }
        let new = matches!(oldest.value(), Stored::New(_));
        Some((key, version, new))
    }
}

/// A memtable being freed ([`Memtable::into_freeing`]).
pub struct Freeing(crossbeam_skiplist::map::IntoIter<Versioned, Stored>);

impl Freeing {
    /// Frees up to `n` versions; false once none is left.
    pub fn free(&mut self, n: usize) -> bool {
        for _ in 0..n {
            if self.0.next().is_none() {
                return false;
            }
        }
        true
    }
}

/// One layer's keys in scan order, each with its newest visible version.
pub type Layer<'a> = Box<dyn Iterator<Item = Result<(Vec<u8>, Version), StoreError>> + 'a>;

struct Newest<'a, I: Iterator<Item = Entry<'a, Versioned, Stored>>> {
    versions: Peekable<I>,
    at: u64,
    /// Versions taken from `versions`.
    read: usize,
}

impl<'a, I: Iterator<Item = Entry<'a, Versioned, Stored>>> Iterator for Newest<'a, I> {
    /// A key, its newest version at or before `at`, and whether its oldest version is a `New`
    /// (in a forward walk; a reverse walk meets the oldest first).
    type Item = (Vec<u8>, Version, bool);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let first = self.versions.next()?;
            self.read += 1;
            let key = first.key().0.clone();
            let mut best: Option<(u64, Version)> = None;
            let mut oldest_new = false;
            let mut consider = |e: &Entry<'a, Versioned, Stored>| {
                let seq = e.key().1.0;
                if seq <= self.at && best.as_ref().is_none_or(|(s, _)| seq > *s) {
                    best = Some((seq, e.value().version()));
                }
                oldest_new = matches!(e.value(), Stored::New(_));
            };
            consider(&first);
            while let Some(e) = self.versions.peek()
                && e.key().0 == key
            {
                consider(e);
                self.versions.next();
                self.read += 1;
            }
            if let Some((_, v)) = best {
                return Some((key, v, oldest_new));
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
            let dir = if reverse { Direction::Reverse } else { Direction::Forward };
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

    #[test]
    fn a_memtable_is_freed_in_pieces_and_latest_counts_the_versions_it_read() {
        let m = Memtable::default();
        for seq in 1..=3 {
            for k in 0u8..4 {
                m.put(seq, &[k], Some(&[seq as u8]));
            }
        }
        let mut latest = m.latest();
        assert_eq!(latest.next(), Some((vec![0], Some(vec![3]), false)));
        assert_eq!(latest.versions_read(), 3);
        assert_eq!(latest.by_ref().count(), 3);
        assert_eq!(latest.versions_read(), 12);
        drop(latest);
        let mut freeing = m.into_freeing();
        assert!(freeing.free(5));
        assert!(freeing.free(5));
        assert!(!freeing.free(5));
    }

    /// Keys with more versions than `latest` walks one by one: it still writes each key's newest
    /// version once, with its oldest version's kind, and goes on with the next key.
    #[test]
    fn latest_finds_the_oldest_version_of_a_key_with_many() {
        let m = Memtable::default();
        let many = WALK_VERSIONS as u64 * 3;
        // "a": new at batch 1, then rewritten every batch, deleted at the last.
        m.put_new(1, b"a", b"1");
        // "a\0": one version, between "a" and "b"; "b": a plain put rewritten as often as "a".
        m.put(1, b"a\0", Some(b"x"));
        for seq in 2..=many {
            m.put(seq, b"a", Some(&seq.to_le_bytes()));
            m.put(seq, b"b", Some(&seq.to_le_bytes()));
        }
        m.put(many + 1, b"a", None);
        // Exactly as many versions as it walks, and one more.
        for seq in 1..=WALK_VERSIONS as u64 {
            m.put(seq, b"c", Some(&seq.to_le_bytes()));
            m.put_new(seq, b"d", &seq.to_le_bytes());
        }
        m.put(WALK_VERSIONS as u64 + 1, b"d", None);
        let mut latest = m.latest();
        let got: Vec<_> = latest.by_ref().collect();
        assert_eq!(
            got,
            vec![
                (b"a".to_vec(), None, true),
                (b"a\0".to_vec(), Some(b"x".to_vec()), false),
                (b"b".to_vec(), Some(many.to_le_bytes().to_vec()), false),
                (
                    b"c".to_vec(),
                    Some((WALK_VERSIONS as u64).to_le_bytes().to_vec()),
                    false
                ),
                (b"d".to_vec(), None, true),
            ]
        );
        // The versions past the walked ones were searched over, not read.
        assert!(
            latest.versions_read() < m.versions(),
            "{}",
            latest.versions_read()
        );
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
