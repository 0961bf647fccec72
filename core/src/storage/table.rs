//! Indexed records: a record, its secondary index entries and their counts are written together, in
//! the caller's transaction, so an index never disagrees with the records it points at.
//!
//! Every record of an [`Indexed`] kind is in the index [`keys::ALL`] (unless its kind opts out,
//! [`Indexed::INDEX_ALL`]) and in one index per field it names. Index entries sort by creation time, then id (the default list order), and each index
//! keeps an exact count, so a list can walk a page and report its total without reading the rest.

use super::grams;
use super::ordered::{Ordered, Span};
use super::{Direction, Record, StoreError, Tx, codec, keys};
use keys::Kind;

/// A record kind with secondary indexes.
pub trait Indexed: Record {
    const KIND: Kind;
    fn id(&self) -> &str;
    /// Creation time in ms: an index's order. It must never change.
    fn created_ms(&self) -> i64;
    /// The indexed fields, besides [`keys::ALL`], named as list views name them.
    const FIELDS: &'static [&'static str];
    /// Whether every record is also in the index [`keys::ALL`] (with its count): what a list
    /// without an indexed equality walks. A kind only ever listed within one value of a field
    /// (webhook deliveries, by endpoint) saves an entry and a count per record.
    const INDEX_ALL: bool = true;
    /// The record's value of each of [`Indexed::FIELDS`], in that order, exactly as list views show
    /// it, so that an equality filter on the field is answered by the index alone.
    fn index_values(&self) -> Vec<&str>;
    /// Range indexes: each one's name and the list-view fields whose value it holds (one value
    /// can show under several names: an account's `balance` is also its `availableBalance`).
    /// Only fields that every record has and that only writes change (never the clock).
    const RANGES: &'static [(&'static str, &'static [&'static str])] = &[];
    /// The record's value of each of [`Indexed::RANGES`], in that order.
    fn range_values(&self) -> Vec<Ordered> {
        Vec::new()
    }
    /// Text fields with a gram index ([`super::grams`]), named as list views name them: every
    /// record is in the index of each distinct trigram of its folded value of each of them.
    const TEXTS: &'static [&'static str] = &[];
    /// The record's value of each of [`Indexed::TEXTS`], in that order, exactly as list views
    /// show it (what a search reads).
    fn texts(&self) -> Vec<&str> {
        Vec::new()
    }
    /// The top-level list-view fields (`_id` among them) that the entries of the kept range
    /// indexes carry as their value ([`keep_range`]'s cover), exactly as the record's view has
    /// them: a walk over such an index checks them without reading records ([`range_entries`]).
    const COVERED: &'static [&'static str] = &[];
    /// The fields of [`Indexed::COVERED`] that depend only on a cover's class
    /// ([`Indexed::cover_class`]): many records share one.
    const COVER_CLASS: &'static [&'static str] = &[];
    /// The class part of a cover.
    fn cover_class(_cover: &[u8]) -> Option<&[u8]> {
        None
    }
    /// The record `id` as far as a kept range entry's cover tells: its [`Indexed::COVERED`]
    /// fields as stored, the rest empty.
    fn uncover(_id: &str, _cover: &[u8]) -> Result<Self, StoreError> {
        Err(StoreError(format!("{} entries carry no cover", Self::NAME)))
    }
    /// Indexed fields whose every value is exactly this many ASCII digits (a card's `last4`).
    const DIGITS: &'static [(&'static str, u32)] = &[];
    /// Range indexes the domain keeps itself ([`keep_range`]), as [`Indexed::RANGES`]: their
    /// values depend on more than the record.
    const KEPT_RANGES: &'static [(&'static str, &'static [&'static str])] = &[];
    /// Compound range indexes: (kept range index, indexed field): the kept index is also kept in
    /// one part per value of the field (`keys::compound_range`), so an equality on the field and a
    /// range on the index walk one part. Kept by the domain with the kept index ([`keep_compound`]).
    const COMPOUND: &'static [(&'static str, &'static str)] = &[];
    /// The records whose entries in the kept range index `index` may not hold their value at
    /// `now_ms` (the clock changed it since the last write), with the value stored for each.
    fn stale(
        _tx: &mut dyn Tx,
        _client: &str,
        _index: &str,
        _now_ms: i64,
    ) -> Result<Vec<RangePosition>, StoreError> {
        Ok(Vec::new())
    }
}

/// The range index of `field` of kind `R` that answers the list-view field `field`, if any.
pub fn range_index_of<R: Indexed>(field: &str) -> Option<&'static str> {
    R::RANGES
        .iter()
        .chain(R::KEPT_RANGES)
        .find(|(_, fields)| fields.contains(&field))
        .map(|(name, _)| *name)
}

/// Whether the range index `index` of kind `R` has a compound part per value of `field`.
pub fn compound_of<R: Indexed>(index: &str, field: &str) -> bool {
    R::COMPOUND.iter().any(|&(i, f)| i == index && f == field)
}

/// The record's value of the indexed field `field`, as its index holds it.
pub fn index_value<'r, R: Indexed>(r: &'r R, field: &str) -> Option<&'r str> {
    R::FIELDS
        .iter()
        .zip(r.index_values())
        .find(|(f, _)| **f == field)
        .map(|(_, v)| v)
}

/// Moves the entry of record `id` in the compound part of the kept range index `index` by `field`
/// from `old` (the field's value and the kept value; none: no entry yet) to `new`: within one part
/// when the field's value stays, else out of the old part into the new one. `cover` is the entry's
/// value (what a walk reads instead of the record: [`range_entries`]).
pub fn keep_compound(
    tx: &mut dyn Tx,
    client: &str,
    (kind, index, field): (Kind, &str, &str),
    (id, cover): (&str, &[u8]),
    (old, new): (Option<(&str, &Ordered)>, (&str, &Ordered)),
) -> Res {
    let part = |value: &str| keys::compound_range(index, field, value);
    match old {
        Some((was, old)) if was == new.0 => keep_range(
            tx,
            client,
            (kind, &part(was)),
            (id, cover),
            (Some(old), new.1),
            false,
        ),
        Some((was, old)) => {
            remove_range(tx, client, kind, &part(was), &old.encode(), id)?;
            add_range(
                tx,
                client,
                (kind, &part(new.0)),
                &new.1.encode(),
                (id, cover),
            )
        }
        None => add_range(
            tx,
            client,
            (kind, &part(new.0)),
            &new.1.encode(),
            (id, cover),
        ),
    }
}

/// Moves the entry of record `id` in the kept range index `index` from `old` (none: no entry
/// yet) to `new`, with `cover` as its value. The domain derives both from what is stored, so
/// nothing is read here. An entry whose value stays is rewritten only when `recover` (its cover
/// changed).
pub fn keep_range(
    tx: &mut dyn Tx,
    client: &str,
    (kind, index): (Kind, &str),
    (id, cover): (&str, &[u8]),
    (old, new): (Option<&Ordered>, &Ordered),
    recover: bool,
) -> Res {
    if old == Some(new) {
        if recover {
            let prefix = keys::range_index(client, kind, index);
            tx.put(&keys::range_entry(&prefix, &new.encode(), id), cover)?;
        }
        return Ok(());
    }
    let new = new.encode();
    match old.map(Ordered::encode) {
        Some(old) => move_range(tx, client, (kind, index), (&old, &new), (id, cover)),
        None => add_range(tx, client, (kind, index), &new, (id, cover)),
    }
}

/// Gives the entry of `id` at `value` in the kept range index `index` the value `cover`, writing
/// (and counting) the entry when it is missing (for upgrades).
pub fn cover_range(
    tx: &mut dyn Tx,
    client: &str,
    (kind, index): (Kind, &str),
    (id, cover): (&str, &[u8]),
    value: &Ordered,
) -> Res {
    let new = value.encode();
    let key = keys::range_entry(&keys::range_index(client, kind, index), &new, id);
    match tx.get(&key)? {
        None => add_range(tx, client, (kind, index), &new, (id, cover)),
        Some(stored) if stored == cover => Ok(()),
        Some(_) => tx.put(&key, cover),
    }
}

/// Writes the entry of `id` in the kept range index `index` when it is missing (for upgrades).
pub fn start_range(
    tx: &mut dyn Tx,
    client: &str,
    kind: Kind,
    index: &str,
    id: &str,
    value: &Ordered,
) -> Res {
    let new = value.encode();
    let key = keys::range_entry(&keys::range_index(client, kind, index), &new, id);
    if tx.get(&key)?.is_none() {
        add_range(tx, client, (kind, index), &new, (id, &[]))?;
    }
    Ok(())
}

fn range_count_key(client: &str, kind: Kind, index: &str, encoded: &[u8], id: &str) -> Vec<u8> {
    let mut k = keys::range_counts(client, kind, index);
    k.extend_from_slice(Ordered::bucket(encoded));
    k.push(shard(id));
    k
}

/// Writes a range index entry (its value `cover`) and counts it in its bucket.
fn add_range(
    tx: &mut dyn Tx,
    client: &str,
    (kind, index): (Kind, &str),
    encoded: &[u8],
    (id, cover): (&str, &[u8]),
) -> Res {
    let prefix = keys::range_index(client, kind, index);
    // A record has one entry per range index, and this is not its place yet.
    tx.put_new(&keys::range_entry(&prefix, encoded, id), cover)?;
    bump(tx, &range_count_key(client, kind, index, encoded, id), 1)
}

fn remove_range(
    tx: &mut dyn Tx,
    client: &str,
    kind: Kind,
    index: &str,
    encoded: &[u8],
    id: &str,
) -> Res {
    let prefix = keys::range_index(client, kind, index);
    tx.delete(&keys::range_entry(&prefix, encoded, id))?;
    bump(tx, &range_count_key(client, kind, index, encoded, id), -1)
}

/// Moves a range entry from `old` to `new` (encoded, different values); the bucket counts move only
/// when the bucket does.
fn move_range(
    tx: &mut dyn Tx,
    client: &str,
    (kind, index): (Kind, &str),
    (old, new): (&[u8], &[u8]),
    (id, cover): (&str, &[u8]),
) -> Res {
    if Ordered::bucket(old) != Ordered::bucket(new) {
        remove_range(tx, client, kind, index, old, id)?;
        return add_range(tx, client, (kind, index), new, (id, cover));
    }
    let prefix = keys::range_index(client, kind, index);
    tx.delete(&keys::range_entry(&prefix, old, id))?;
    tx.put_new(&keys::range_entry(&prefix, new, id), cover)
}

/// The exact number of entries of the range index `index` of `kind` whose values lie in `span`:
/// the counts of the buckets wholly inside it, plus the entries of its two end buckets, each
/// counted by walking the smaller of its parts inside and outside the span (keys only).
pub fn range_count(
    tx: &mut dyn Tx,
    client: &str,
    kind: Kind,
    index: &str,
    span: &Span,
) -> Result<u64, StoreError> {
    let counts = keys::range_counts(client, kind, index);
    let lo = span.lo.as_ref().map(|(v, _)| v.encode());
    let hi = span.hi.as_ref().map(|(v, _)| v.encode());
    let lo_bucket = lo.as_deref().map(Ordered::bucket);
    let hi_bucket = hi.as_deref().map(Ordered::bucket);
    // Whole buckets: strictly after the low end's and strictly before the high end's.
    let start = match lo_bucket {
        Some(b) => [counts.as_slice(), b, &[0xff]].concat(),
        None => counts.clone(),
    };
    let end = match hi_bucket {
        Some(b) => [counts.as_slice(), b].concat(),
        None => super::prefix_end(&counts),
    };
    let mut total = 0u64;
    if start < end {
        for (_, v) in tx.scan(&start, &end, Direction::Forward, usize::MAX)? {
            total = total.saturating_add(read_u64(Some(&v))?);
        }
    }
    let mut edges: Vec<&[u8]> = lo_bucket.into_iter().chain(hi_bucket).collect();
    edges.dedup();
    for b in edges {
        total = total.saturating_add(bucket_part(tx, client, kind, index, span, b)?);
    }
    Ok(total)
}

/// The entries of one bucket that lie in `span`: the bucket's count, less its entries outside the
/// span, or its entries inside, whichever walk ends first.
fn bucket_part(
    tx: &mut dyn Tx,
    client: &str,
    kind: Kind,
    index: &str,
    span: &Span,
    bucket: &[u8],
) -> Result<u64, StoreError> {
    let counts = [keys::range_counts(client, kind, index).as_slice(), bucket].concat();
    let mut size = 0u64;
    for (_, v) in tx.scan(&counts, &super::prefix_end(&counts), Direction::Forward, 32)? {
        size = size.saturating_add(read_u64(Some(&v))?);
    }
    let prefix = keys::range_index(client, kind, index);
    let whole = [prefix.as_slice(), bucket].concat();
    let (b_start, b_end) = (whole.clone(), super::prefix_end(&whole));
    let (s_start, s_end) = span_keys(&prefix, span);
    // Inside: the bucket and the span; outside: the bucket's parts below and above the span (when
    // the two do not meet, inside is empty and its walk ends first).
    let inside = (
        b_start.clone().max(s_start.clone()),
        b_end.clone().min(s_end.clone()),
    );
    let below = (b_start, b_end.clone().min(s_start));
    let above = (s_end, b_end);
    let mut walks = [Keys::new(inside), Keys::new(below), Keys::new(above)];
    loop {
        if walks[0].step(tx)? {
            return Ok(walks[0].n);
        }
        let mut open = false;
        for w in &mut walks[1..] {
            open |= !w.step(tx)?;
        }
        if !open {
            return Ok(size.saturating_sub(walks[1].n + walks[2].n));
        }
    }
}

/// The keys of a span in the range index that starts with `prefix`: [start, end).
fn span_keys(prefix: &[u8], span: &Span) -> (Vec<u8>, Vec<u8>) {
    let at = |v: &Ordered, past: bool| {
        let mut k = prefix.to_vec();
        k.extend_from_slice(&v.encode());
        // Ids are ASCII, so 0xff sorts after every id of the value.
        if past {
            k.push(0xff);
        }
        k
    };
    let start = match &span.lo {
        None => prefix.to_vec(),
        Some((v, inclusive)) => at(v, !inclusive),
    };
    let end = match &span.hi {
        None => super::prefix_end(prefix),
        Some((v, inclusive)) => at(v, *inclusive),
    };
    (start, end)
}

/// A key-only count of a key range, a chunk at a time.
struct Keys {
    start: Vec<u8>,
    end: Vec<u8>,
    n: u64,
    done: bool,
}

const COUNT_CHUNK: usize = 1024;

impl Keys {
    fn new((start, end): (Vec<u8>, Vec<u8>)) -> Keys {
        let done = start >= end;
        Keys {
            start,
            end,
            n: 0,
            done,
        }
    }

    /// Counts one more chunk; true when the range is done.
    fn step(&mut self, tx: &mut dyn Tx) -> Result<bool, StoreError> {
        if self.done {
            return Ok(true);
        }
        let rows = tx.scan(&self.start, &self.end, Direction::Forward, COUNT_CHUNK)?;
        self.n += rows.len() as u64;
        self.done = rows.len() < COUNT_CHUNK;
        if let Some((last, _)) = rows.last() {
            self.start = [last.as_slice(), &[0]].concat();
        }
        Ok(self.done)
    }
}

fn range_key<R: Indexed>(client: &str, r: &R, index: &str, value: &Ordered) -> Vec<u8> {
    keys::range_entry(
        &keys::range_index(client, R::KIND, index),
        &value.encode(),
        r.id(),
    )
}

fn entries<R: Indexed>(r: &R) -> Vec<(&'static str, &str)> {
    let mut all: Vec<(&'static str, &str)> =
        R::FIELDS.iter().copied().zip(r.index_values()).collect();
    if R::INDEX_ALL {
        all.push((keys::ALL, ""));
    }
    all
}

/// The gram index entries of `r`: (index field, gram), sorted, each once.
fn gram_entries<R: Indexed>(r: &R) -> Vec<(String, String)> {
    let mut all = Vec::new();
    for (field, text) in R::TEXTS.iter().zip(r.texts()) {
        let index = grams::index_field(field);
        all.extend(grams::of(text).into_iter().map(|g| (index.clone(), g)));
    }
    all.sort_unstable();
    all
}

/// Counts are sharded by the id's last hex digit (0 to 15), which the id generator's counter turns
/// over with every id.
fn shard(id: &str) -> u8 {
    id.chars()
        .last()
        .and_then(|c| c.to_digit(16))
        .map_or(0, |d| d as u8)
}

fn add_entry<R: Indexed>(tx: &mut dyn Tx, client: &str, r: &R, field: &str, value: &str) -> Res {
    let key = keys::index_entry(client, R::KIND, field, value, r.created_ms(), r.id());
    // Only for a value the record did not have (a new record, or a changed value).
    tx.put_new(&key, &[])?;
    bump(
        tx,
        &keys::tally(client, R::KIND, field, value, shard(r.id())),
        1,
    )
}

fn remove_entry<R: Indexed>(tx: &mut dyn Tx, client: &str, r: &R, field: &str, value: &str) -> Res {
    let key = keys::index_entry(client, R::KIND, field, value, r.created_ms(), r.id());
    tx.delete(&key)?;
    bump(
        tx,
        &keys::tally(client, R::KIND, field, value, shard(r.id())),
        -1,
    )
}

type Res = Result<(), StoreError>;

fn bump(tx: &mut dyn Tx, key: &[u8], delta: i64) -> Res {
    let now = read_u64(tx.get(key)?.as_deref())?;
    let next = now.saturating_add_signed(delta);
    if next == 0 {
        tx.delete(key)
    } else {
        tx.put(key, &next.to_be_bytes())
    }
}

fn read_u64(bytes: Option<&[u8]>) -> Result<u64, StoreError> {
    match bytes {
        None => Ok(0),
        Some(b) => b
            .try_into()
            .map(u64::from_be_bytes)
            .map_err(|_| StoreError("an index count is not 8 bytes".into())),
    }
}

/// Writes a record that does not exist yet, with its index entries.
pub fn insert<R: Indexed>(tx: &mut dyn Tx, client: &str, r: &R) -> Res {
    codec::put(tx, &keys::record(client, R::KIND, r.id()), r)?;
    for (field, value) in entries(r) {
        add_entry(tx, client, r, field, value)?;
    }
    for ((index, _), value) in R::RANGES.iter().zip(r.range_values()) {
        add_range(tx, client, (R::KIND, index), &value.encode(), (r.id(), &[]))?;
    }
    for (field, gram) in gram_entries(r) {
        add_entry(tx, client, r, &field, &gram)?;
    }
    Ok(())
}

/// Writes the gram index entries of `r` that are missing, with their counts (for upgrades).
pub fn index_texts<R: Indexed>(tx: &mut dyn Tx, client: &str, r: &R) -> Res {
    for (field, gram) in gram_entries(r) {
        let key = keys::index_entry(client, R::KIND, &field, &gram, r.created_ms(), r.id());
        if tx.get(&key)?.is_none() {
            add_entry(tx, client, r, &field, &gram)?;
        }
    }
    Ok(())
}

/// Writes the entry of `r` in the index of `field` (one of [`Indexed::FIELDS`]) when it is missing,
/// with its count (for upgrades that add an indexed field).
pub fn index_field<R: Indexed>(tx: &mut dyn Tx, client: &str, r: &R, field: &str) -> Res {
    let Some(value) = entries(r)
        .into_iter()
        .find(|(f, _)| *f == field)
        .map(|(_, v)| v)
    else {
        return Ok(());
    };
    let key = keys::index_entry(client, R::KIND, field, value, r.created_ms(), r.id());
    if tx.get(&key)?.is_none() {
        add_entry(tx, client, r, field, value)?;
    }
    Ok(())
}

/// Writes the range index entries of `r` that are missing (for upgrades).
pub fn index_ranges<R: Indexed>(tx: &mut dyn Tx, client: &str, r: &R) -> Res {
    for ((index, _), value) in R::RANGES.iter().zip(r.range_values()) {
        if tx.get(&range_key(client, r, index, &value))?.is_none() {
            add_range(tx, client, (R::KIND, index), &value.encode(), (r.id(), &[]))?;
        }
    }
    Ok(())
}

/// Writes a record, moving the index entries whose values changed since the stored version.
pub fn save<R: Indexed>(tx: &mut dyn Tx, client: &str, r: &R) -> Res {
    save_over(tx, client, r).map(drop)
}

/// [`save`], giving back the version it replaced (none: it inserted the record).
pub fn save_over<R: Indexed>(
    tx: &mut dyn Tx,
    client: &str,
    r: &R,
) -> Result<Option<R>, StoreError> {
    let key = keys::record(client, R::KIND, r.id());
    let Some(old) = codec::get::<R>(tx, &key)? else {
        return insert(tx, client, r).map(|()| None);
    };
    codec::put(tx, &key, r)?;
    let (before, after) = (entries(&old), entries(r));
    let moved = old.created_ms() != r.created_ms();
    for (field, value) in &before {
        if moved || !after.contains(&(*field, *value)) {
            remove_entry(tx, client, &old, field, value)?;
        }
    }
    for (field, value) in &after {
        if moved || !before.contains(&(*field, *value)) {
            add_entry(tx, client, r, field, value)?;
        }
    }
    let (before, after) = (old.range_values(), r.range_values());
    for (((index, _), was), now) in R::RANGES.iter().zip(&before).zip(&after) {
        // Equal values encode alike (1.5 and 1.50): only a changed value moves its entry.
        if was != now {
            let (was, now) = (was.encode(), now.encode());
            move_range(tx, client, (R::KIND, index), (&was, &now), (r.id(), &[]))?;
        }
    }
    if !R::TEXTS.is_empty() && (moved || old.texts() != r.texts()) {
        // Both sorted: only the grams that came or went move.
        let (before, after) = (gram_entries(&old), gram_entries(r));
        for (field, gram) in &before {
            if moved || after.binary_search(&(field.clone(), gram.clone())).is_err() {
                remove_entry(tx, client, &old, field, gram)?;
            }
        }
        for (field, gram) in &after {
            if moved
                || before
                    .binary_search(&(field.clone(), gram.clone()))
                    .is_err()
            {
                add_entry(tx, client, r, field, gram)?;
            }
        }
    }
    Ok(Some(old))
}

/// Deletes a stored record with its index entries.
pub fn remove<R: Indexed>(tx: &mut dyn Tx, client: &str, r: &R) -> Res {
    tx.delete(&keys::record(client, R::KIND, r.id()))?;
    for (field, value) in entries(r) {
        remove_entry(tx, client, r, field, value)?;
    }
    for (field, gram) in gram_entries(r) {
        remove_entry(tx, client, r, &field, &gram)?;
    }
    Ok(())
}

/// The exact number of records of `kind` whose `field` is `value` ([`keys::ALL`]: all of them).
pub fn count(
    tx: &mut dyn Tx,
    client: &str,
    kind: Kind,
    field: &str,
    value: &str,
) -> Result<u64, StoreError> {
    let prefix = keys::tallies(client, kind, field, value);
    let end = super::prefix_end(&prefix);
    let mut total = 0u64;
    for (_, v) in tx.scan(&prefix, &end, Direction::Forward, 256)? {
        total = total.saturating_add(read_u64(Some(&v))?);
    }
    Ok(total)
}

/// A place in an index: creation time (ms) and id.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    pub created_ms: i64,
    pub id: String,
}

/// Up to `n` positions of the index `field = value` of `kind`, in `dir` order, strictly after
/// `after` (in that order) when given.
pub fn positions(
    tx: &mut dyn Tx,
    client: &str,
    kind: Kind,
    (field, value): (&str, &str),
    dir: Direction,
    after: Option<&Position>,
    n: usize,
) -> Result<Vec<Position>, StoreError> {
    let range = keys::index_range(client, kind, field, value);
    let end = super::prefix_end(&range);
    let rows = match (after, dir) {
        (None, _) => tx.scan(&range, &end, dir, n)?,
        (Some(p), Direction::Forward) => {
            // The smallest key greater than the position's: the key with a 0x00 appended.
            let mut start = keys::index_position(&range, p.created_ms, &p.id);
            start.push(0);
            tx.scan(&start, &end, dir, n)?
        }
        (Some(p), Direction::Reverse) => {
            let stop = keys::index_position(&range, p.created_ms, &p.id);
            tx.scan(&range, &stop, dir, n)?
        }
    };
    rows.iter()
        .map(|(k, _)| {
            keys::index_entry_parts(&range, k)
                .map(|(created_ms, id)| Position {
                    created_ms,
                    id: id.to_string(),
                })
                .ok_or_else(|| StoreError("an index entry key is malformed".into()))
        })
        .collect()
}

/// A place in a range index: the encoded value, then the id.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct RangePosition {
    pub value: Vec<u8>,
    pub id: String,
}

/// Up to `n` places of the range index `index` of `kind` whose values lie in `span`, in `dir`
/// order, strictly after `after` (in that order) when given. Reads keys only.
#[allow(clippy::too_many_arguments)]
pub fn range_positions(
    tx: &mut dyn Tx,
    client: &str,
    kind: Kind,
    index: &str,
    span: &Span,
    dir: Direction,
    after: Option<&RangePosition>,
    n: usize,
) -> Result<Vec<RangePosition>, StoreError> {
    let rows = range_entries(tx, client, (kind, index), span, dir, after, n)?;
    Ok(rows.into_iter().map(|(p, _)| p).collect())
}

/// [`range_positions`], each place with its entry's value: the cover a kept range index's entry
/// carries ([`keep_range`]; empty for the other indexes), read in the same walk.
pub fn range_entries(
    tx: &mut dyn Tx,
    client: &str,
    (kind, index): (Kind, &str),
    span: &Span,
    dir: Direction,
    after: Option<&RangePosition>,
    n: usize,
) -> Result<Vec<(RangePosition, Vec<u8>)>, StoreError> {
    let prefix = keys::range_index(client, kind, index);
    let (mut start, mut end) = span_keys(&prefix, span);
    if let Some(p) = after {
        let mut k = keys::range_entry(&prefix, &p.value, &p.id);
        match dir {
            Direction::Forward => {
                k.push(0);
                start = start.max(k);
            }
            Direction::Reverse => end = end.min(k),
        }
    }
    if start >= end {
        return Ok(Vec::new());
    }
    tx.scan(&start, &end, dir, n)?
        .into_iter()
        .map(|(k, v)| {
            keys::range_entry_parts(&prefix, &k)
                .map(|(value, id)| {
                    let p = RangePosition {
                        value: value.to_vec(),
                        id: id.to_string(),
                    };
                    (p, v)
                })
                .ok_or_else(|| StoreError("a range index key is malformed".into()))
        })
        .collect()
}

/// [`range_positions`] over creation times: the index of every record ([`keys::ALL`]) is in
/// (createdAt, id) order, so it is the range index of `createdAt` (`span` holds `Ordered::Millis`).
#[allow(clippy::too_many_arguments)]
pub fn created_positions(
    tx: &mut dyn Tx,
    client: &str,
    kind: Kind,
    span: &Span,
    dir: Direction,
    after: Option<&RangePosition>,
    n: usize,
) -> Result<Vec<RangePosition>, StoreError> {
    let range = keys::index_range(client, kind, keys::ALL, "");
    let ms = |v: &Ordered| match v {
        Ordered::Millis(ms) => *ms,
        Ordered::Num(_) => 0,
    };
    let at = |m: i64| keys::index_position(&range, m, "")[..range.len() + 8].to_vec();
    let mut start = match &span.lo {
        None => range.clone(),
        Some((v, true)) => at(ms(v)),
        Some((v, false)) => at(ms(v).saturating_add(1)),
    };
    let mut end = match &span.hi {
        None => super::prefix_end(&range),
        Some((v, true)) => at(ms(v).saturating_add(1)),
        Some((v, false)) => at(ms(v)),
    };
    if let Some(p) = after {
        let created = match Ordered::encoded_len(&p.value) {
            Some(9) => i64::from_be_bytes(p.value[1..9].try_into().unwrap_or_default()) ^ i64::MIN,
            _ => return Err(StoreError("a createdAt cursor is not an instant".into())),
        };
        let mut k = keys::index_position(&range, created, &p.id);
        match dir {
            Direction::Forward => {
                k.push(0);
                start = start.max(k);
            }
            Direction::Reverse => end = end.min(k),
        }
    }
    if start >= end {
        return Ok(Vec::new());
    }
    tx.scan(&start, &end, dir, n)?
        .iter()
        .map(|(k, _)| {
            keys::index_entry_parts(&range, k)
                .map(|(created, id)| RangePosition {
                    value: Ordered::Millis(created).encode(),
                    id: id.to_string(),
                })
                .ok_or_else(|| StoreError("an index entry key is malformed".into()))
        })
        .collect()
}

/// Up to `n` records of kind `R` in id order, after the record `after`: the records themselves,
/// read in one range scan.
pub fn scan<R: Indexed>(
    tx: &mut dyn Tx,
    client: &str,
    after: Option<&str>,
    n: usize,
) -> Result<Vec<R>, StoreError> {
    scan_decoded(tx, client, after, n, codec::decode)
}

/// [`scan`], each record decoded by `decode` (a partial decoder: a pass that reads a few fields).
pub fn scan_decoded<R: Indexed>(
    tx: &mut dyn Tx,
    client: &str,
    after: Option<&str>,
    n: usize,
    mut decode: impl FnMut(&[u8]) -> Result<R, StoreError>,
) -> Result<Vec<R>, StoreError> {
    let range = keys::records(client, R::KIND);
    let end = super::prefix_end(&range);
    let start = match after {
        Some(id) => {
            let mut k = keys::record(client, R::KIND, id);
            k.push(0);
            k
        }
        None => range,
    };
    tx.scan(&start, &end, Direction::Forward, n)?
        .iter()
        .map(|(_, v)| decode(v))
        .collect()
}

/// The record `id` of `kind`, if stored.
/// The clients with at least one record of `kind`: one seek per client (a skip scan over the
/// records' keys, which start with the client), never a walk over their records.
pub fn clients_with(tx: &mut dyn Tx, kind: Kind) -> Result<Vec<String>, StoreError> {
    let all = keys::all_records();
    let end = super::prefix_end(&all);
    let mut start = all;
    let mut clients = Vec::new();
    while let Some((key, _)) = tx.scan(&start, &end, Direction::Forward, 1)?.pop() {
        let Some(client) = keys::text_parts(&key)
            .get(1)
            .and_then(|c| std::str::from_utf8(c).ok())
            .map(str::to_string)
        else {
            break;
        };
        let records = keys::records(&client, kind);
        let records_end = super::prefix_end(&records);
        if !tx
            .scan(&records, &records_end, Direction::Forward, 1)?
            .is_empty()
        {
            clients.push(client.clone());
        }
        start = super::prefix_end(&keys::client_records(&client));
    }
    Ok(clients)
}

pub fn get<R: Indexed>(tx: &mut dyn Tx, client: &str, id: &str) -> Result<Option<R>, StoreError> {
    codec::get(tx, &keys::record(client, R::KIND, id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::MemStore;
    use proptest::prelude::*;
    use rust_decimal::Decimal;

    fn arb_span() -> impl Strategy<Value = Span> {
        let end = prop::option::of((-2000i64..2000, 0u32..3, any::<bool>()))
            .prop_map(|e| e.map(|(m, s, incl)| (Ordered::Num(Decimal::new(m, s)), incl)));
        (end.clone(), end).prop_map(|(lo, hi)| Span { lo, hi })
    }

    proptest! {
        #[test]
        fn range_counts_are_exact(
            values in prop::collection::vec((-3000i64..3000, 0u32..3), 0..200),
            moves in prop::collection::vec((any::<prop::sample::Index>(), -3000i64..3000), 0..40),
            spans in prop::collection::vec(arb_span(), 1..8),
        ) {
            let mut tx = MemStore::new();
            let mut now: Vec<Decimal> = values.iter().map(|(m, s)| Decimal::new(*m, *s)).collect();
            let id = |i: usize| format!("{i:024x}");
            for (i, v) in now.iter().enumerate() {
                add_range(&mut tx, "c", (Kind::Card, "x"), &Ordered::Num(*v).encode(), (&id(i), &[])).unwrap();
            }
            if !now.is_empty() {
                for (i, v) in moves {
                    let i = i.index(now.len());
                    let (old, new) = (Ordered::Num(now[i]).encode(), Ordered::Num(Decimal::new(v, 2)).encode());
                    if old != new {
                        move_range(&mut tx, "c", (Kind::Card, "x"), (&old, &new), (&id(i), &[])).unwrap();
                    }
                    now[i] = Decimal::new(v, 2);
                }
            }
            for span in spans {
                let want = now.iter().filter(|v| span.contains(&Ordered::Num(**v))).count() as u64;
                prop_assert_eq!(range_count(&mut tx, "c", Kind::Card, "x", &span).unwrap(), want, "{:?}", span);
                let listed = range_positions(&mut tx, "c", Kind::Card, "x", &span, Direction::Forward, None, usize::MAX).unwrap();
                prop_assert_eq!(listed.len() as u64, want);
            }
        }
    }

    #[test]
    fn every_hex_digit_is_its_own_shard() {
        let shards: Vec<u8> = "0123456789abcdef"
            .chars()
            .map(|c| shard(&format!("65a1{c}")))
            .collect();
        assert_eq!(shards, (0..16).collect::<Vec<u8>>());
    }
}
