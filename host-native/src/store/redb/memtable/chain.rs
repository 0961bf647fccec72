//! A memtable's storage: its keys and versions, bump-allocated in an [`Arena`] that frees nothing
//! until the whole memtable goes, and each key's versions in a [`Chain`], newest first.
//!
//! The one invariant the `unsafe` below rests on: every [`Bytes`] and every node pointer in a
//! [`Chain`] points into the arena of the memtable that holds it, and an arena's chunks are freed
//! only when it is dropped, after the skip list that holds the chains (`Memtable`'s and
//! `Freeing`'s field order). A node, once published, is never written again except for its `next`
//! pointer (atomic); a version a batch replaces or takes out is unlinked, not freed, so a reader
//! that has just reached it still reads valid memory. One writer at a time (the memtable's lock)
//! changes the chains; readers only load them (Acquire, paired with the writer's Release).

use std::alloc::{Layout, alloc, dealloc, handle_alloc_error};
use std::borrow::Borrow;
use std::cmp::Ordering as CmpOrdering;
use std::mem::{align_of, size_of};
use std::ptr::{self, NonNull};
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};

/// Bytes of one arena chunk; a larger allocation gets a chunk of its own.
const CHUNK: usize = 256 << 10;

/// Bump allocation for one memtable: appended to by its writer, freed all at once.
#[derive(Default)]
pub struct Arena {
    /// CHUNK bytes each, the last one bumped.
    chunks: Vec<Chunk>,
    /// Allocations larger than a quarter chunk, one each.
    large: Vec<Chunk>,
    /// Bytes used of the last chunk.
    used: usize,
}

/// One allocation of the arena, 8-aligned. Held as a raw pointer, never as a reference, so the
/// pointers handed out of it stay valid however the arena is reached.
struct Chunk {
    at: NonNull<u8>,
    layout: Layout,
}

// SAFETY: the chunk owns its allocation, which any thread may free.
unsafe impl Send for Chunk {}

impl Chunk {
    fn new(size: usize) -> Chunk {
        // Only a size near isize::MAX fails, which no slice the caller holds can have.
        let layout = Layout::array::<u64>(size.div_ceil(8).max(1))
            .unwrap_or_else(|_| handle_alloc_error(Layout::new::<u64>()));
        // SAFETY: a layout of non-zero size.
        let at =
            NonNull::new(unsafe { alloc(layout) }).unwrap_or_else(|| handle_alloc_error(layout));
        Chunk { at, layout }
    }
}

impl Drop for Chunk {
    fn drop(&mut self) {
        // SAFETY: allocated by `Chunk::new` with this layout, freed once.
        unsafe { dealloc(self.at.as_ptr(), self.layout) }
    }
}

/// Where the arena stood, to give back an allocation that turned out unneeded ([`Arena::reset`]).
#[derive(Clone, Copy)]
pub struct Mark {
    chunks: usize,
    used: usize,
}

impl Arena {
    /// `size` bytes aligned to `align` (at most 8), valid until the arena is dropped.
    fn alloc(&mut self, size: usize, align: usize) -> NonNull<u8> {
        debug_assert!(align.is_power_of_two() && align <= 8);
        if size > CHUNK / 4 {
            let chunk = Chunk::new(size);
            let at = chunk.at;
            self.large.push(chunk);
            return at;
        }
        let start = self.used.next_multiple_of(align);
        match self.chunks.last() {
            Some(chunk) if start + size <= CHUNK => {
                self.used = start + size;
                // SAFETY: within the chunk's CHUNK bytes.
                unsafe { chunk.at.add(start) }
            }
            _ => {
                let chunk = Chunk::new(CHUNK);
                let at = chunk.at;
                self.chunks.push(chunk);
                self.used = size;
                at
            }
        }
    }

    /// A copy of `bytes` in the arena.
    pub fn bytes(&mut self, bytes: &[u8]) -> Bytes {
        let at = self.alloc(bytes.len(), 1);
        // SAFETY: `at` is a fresh allocation of `bytes.len()` bytes, not overlapping `bytes`.
        unsafe { ptr::copy_nonoverlapping(bytes.as_ptr(), at.as_ptr(), bytes.len()) };
        Bytes {
            at,
            len: bytes.len(),
        }
    }

    /// A node and, right after it, its value (a checkpoint's walk reads both).
    fn node(&mut self, value: &[u8], node: impl FnOnce(Bytes) -> Node) -> *mut Node {
        let at = self
            .alloc(size_of::<Node>(), align_of::<Node>())
            .cast::<Node>();
        let value = self.bytes(value);
        // SAFETY: a fresh allocation of a Node's size and alignment.
        unsafe { at.as_ptr().write(node(value)) };
        at.as_ptr()
    }

    pub fn mark(&self) -> Mark {
        Mark {
            chunks: self.chunks.len(),
            used: self.used,
        }
    }

    /// Gives back what was allocated since `mark` if no chunk was added since (otherwise leaves
    /// it), to be allocated again.
    ///
    /// # Safety
    ///
    /// Nothing any thread can reach may point into what was allocated since `mark`: it will be
    /// written again.
    pub unsafe fn reset(&mut self, mark: Mark) {
        if self.chunks.len() == mark.chunks {
            self.used = mark.used;
        }
    }

    /// Frees up to `n` chunks; false once none is left.
    pub fn free_chunks(&mut self, n: usize) -> bool {
        for _ in 0..n {
            if self.large.pop().or_else(|| self.chunks.pop()).is_none() {
                return false;
            }
        }
        !(self.large.is_empty() && self.chunks.is_empty())
    }

    /// Bytes the arena holds (its chunks).
    #[cfg(test)]
    pub fn capacity(&self) -> usize {
        self.chunks
            .iter()
            .chain(&self.large)
            .map(|c| c.layout.size())
            .sum()
    }
}

/// Bytes in an [`Arena`]: a key or a value.
#[derive(Clone, Copy)]
pub struct Bytes {
    at: NonNull<u8>,
    len: usize,
}

// SAFETY: an immutable view of arena memory, read by any thread while the arena lives (the module's
// invariant); it owns nothing and is never written through.
unsafe impl Send for Bytes {}
unsafe impl Sync for Bytes {}

impl Bytes {
    pub fn get(&self) -> &[u8] {
        // SAFETY: written once by `Arena::bytes`, never written again, alive while its arena is
        // (the module's invariant: nothing holding a `Bytes` outlives the arena).
        unsafe { std::slice::from_raw_parts(self.at.as_ptr(), self.len) }
    }
}

/// Bytes of a key kept in its skip-list node itself (most keys: a search then compares keys
/// without a second cache miss per step); a longer key is in the arena.
const INLINE: usize = 118;

/// A skip-list key, ordered as bytes and found by `&[u8]`.
pub enum Key {
    Inline { len: u8, bytes: [u8; INLINE] },
    Arena(Bytes),
}

impl Key {
    /// `key`, inline if it fits, else copied into `arena`.
    pub fn new(key: &[u8], arena: &mut Arena) -> Key {
        match u8::try_from(key.len()) {
            Ok(len) if key.len() <= INLINE => {
                let mut bytes = [0; INLINE];
                bytes[..key.len()].copy_from_slice(key);
                Key::Inline { len, bytes }
            }
            _ => Key::Arena(arena.bytes(key)),
        }
    }

    pub fn get(&self) -> &[u8] {
        match self {
            // `len` <= INLINE (`Key::new`).
            Key::Inline { len, bytes } => bytes.get(..usize::from(*len)).unwrap_or_default(),
            Key::Arena(b) => b.get(),
        }
    }
}

impl Borrow<[u8]> for Key {
    fn borrow(&self) -> &[u8] {
        self.get()
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

impl Eq for Key {}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<CmpOrdering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Self) -> CmpOrdering {
        self.get().cmp(other.get())
    }
}

/// A version's kind: a put, a put of a key no older layer holds ([`super::Memtable::put_new`]),
/// or a delete.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Put,
    New,
    Delete,
}

/// One version of a key, in the arena.
pub struct Node {
    /// The next older version (null: none). Written before the node is published, and after
    /// only when the version after it is replaced or taken out.
    next: AtomicPtr<Node>,
    pub seq: u64,
    pub kind: Kind,
    value: Bytes,
}

impl Node {
    /// The value (empty for a delete).
    pub fn value(&self) -> Option<&[u8]> {
        (self.kind != Kind::Delete).then(|| self.value.get())
    }

    fn next(&self) -> Option<&Node> {
        load(&self.next)
    }
}

fn load(slot: &AtomicPtr<Node>) -> Option<&Node> {
    // SAFETY: a published node in the arena, alive as long as the chain that reached it (the
    // module's invariant); Acquire pairs with the Release that published it.
    unsafe { slot.load(Ordering::Acquire).as_ref() }
}

/// A write to a chain.
#[derive(Clone, Copy)]
pub enum Write<'v> {
    Put(&'v [u8]),
    New(&'v [u8]),
    Delete,
}

/// What a write did to its chain's versions.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A version was added.
    Added,
    /// The batch's own version was replaced.
    Replaced,
    /// The batch's own `New` version was taken out by its delete (its value's length given),
    /// `emptied` if it was the chain's only one.
    TakenOut { value: usize, emptied: bool },
}

/// One key's versions, newest first, and whether the oldest is a [`Kind::New`] (kept here, so a
/// checkpoint need not walk to it).
#[derive(Default)]
pub struct Chain {
    head: AtomicPtr<Node>,
    oldest_new: AtomicBool,
}

impl Chain {
    /// The newest version.
    pub fn newest(&self) -> Option<&Node> {
        load(&self.head)
    }

    /// The newest version at or before batch `at`.
    pub fn at(&self, at: u64) -> Option<&Node> {
        let mut node = self.newest();
        while let Some(n) = node {
            if n.seq <= at {
                return Some(n);
            }
            node = n.next();
        }
        None
    }

    /// Whether the oldest version is a put of a key new to the memtable.
    pub fn oldest_new(&self) -> bool {
        self.oldest_new.load(Ordering::Acquire)
    }

    /// Writes `write` in batch `seq`: a later write of the batch replaces its version, except
    /// that a delete takes a `New` of the batch out (no layer held the key, no read saw the batch),
    /// and a put new over a version of the batch (a delete) is a plain put, so a later delete puts
    /// that delete back. The caller is the memtable's one writer (it holds the arena mutably).
    pub fn write(&self, arena: &mut Arena, seq: u64, write: Write<'_>) -> Outcome {
        // The slot whose node is the newest version at or before `seq` (batches arrive in order,
        // so that is the head but for a test), and the node before it.
        let mut before: Option<&Node> = None;
        let mut slot = &self.head;
        while let Some(n) = load(slot).filter(|n| n.seq > seq) {
            before = Some(n);
            slot = &n.next;
        }
        let current = load(slot);
        let same = current.filter(|n| n.seq == seq);
        if let (Some(n), Write::Delete) = (same, write)
            && n.kind == Kind::New
        {
            let after = n.next.load(Ordering::Acquire);
            slot.store(after, Ordering::Release);
            if after.is_null() {
                let oldest = before.is_some_and(|b| b.kind == Kind::New);
                self.oldest_new.store(oldest, Ordering::Release);
            }
            return Outcome::TakenOut {
                value: n.value.get().len(),
                emptied: self.head.load(Ordering::Acquire).is_null(),
            };
        }
        let (kind, value) = match (write, same.is_some()) {
            (Write::New(v), false) => (Kind::New, v),
            (Write::Put(v) | Write::New(v), _) => (Kind::Put, v),
            (Write::Delete, _) => (Kind::Delete, &[][..]),
        };
        let next = match same {
            Some(n) => n.next.load(Ordering::Acquire),
            None => current.map_or(ptr::null_mut(), |n| ptr::from_ref(n).cast_mut()),
        };
        let node = arena.node(value, |value| Node {
            next: AtomicPtr::new(next),
            seq,
            kind,
            value,
        });
        if next.is_null() {
            self.oldest_new.store(kind == Kind::New, Ordering::Release);
        }
        slot.store(node, Ordering::Release);
        if same.is_some() {
            Outcome::Replaced
        } else {
            Outcome::Added
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_arena_keeps_what_it_gave_out_and_takes_back_only_since_a_mark() {
        use super::*;
        let mut arena = Arena::default();
        let small: Vec<Bytes> = (0..20_000u32)
            .map(|i| arena.bytes(&i.to_be_bytes().repeat(i as usize % 50)))
            .collect();
        let big = arena.bytes(&[7; CHUNK]);
        let mark = arena.mark();
        let given_back = arena.bytes(b"given back");
        // SAFETY: `given_back` is only read below, on this thread, to see it reused.
        unsafe { arena.reset(mark) };
        let after = arena.bytes(b"after");
        // The given-back bytes were allocated again.
        assert!(given_back.get().starts_with(b"after"));
        assert_eq!(after.get(), b"after");
        for (i, b) in small.iter().enumerate() {
            assert_eq!(b.get(), (i as u32).to_be_bytes().repeat(i % 50).as_slice());
        }
        assert_eq!(big.get(), &[7; CHUNK][..]);
        assert!(arena.capacity() >= CHUNK * 2);
        assert!(arena.free_chunks(1));
        while arena.free_chunks(1) {}
        assert_eq!(arena.capacity(), 0);
    }
}
