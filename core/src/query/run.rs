//! The planner: runs a [`ListQuery`] over a [`Source`] of indexed records without loading them all.
//!
//! - Access: an equality or `in` on an indexed field walks that field's index (the one with the
//!   fewest entries when several qualify); otherwise the index of every record. Either way the
//!   walk is in creation order and every candidate is still matched against the whole query.
//! - Order: a sort on `createdAt` alone is the index order, so the walk stops once the page (and one
//!   more, for `hasMore`) is found. Any other sort keeps a bounded top-k of sort keys while the walk
//!   streams through the candidates in chunks.
//! - Total: from the index counts when the access alone decides the result (no other condition, no
//!   search); otherwise counted while streaming.
//!
//! The result equals [`ListQuery::select`] over every record (the property tests check that).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::rc::Rc;

use serde_json::Value;

use super::filter::{Op, Operand};
use super::schema::lookup;
use super::value::{Scalar, SortVal};
use super::{FieldType, ListQuery};
use crate::error::{ApiError, ApiResult};
use crate::storage::ordered::Span;
pub use crate::storage::table::RangePosition as RangePos;

/// The field whose index holds every record.
pub const ALL: &str = crate::storage::keys::ALL;

/// A record's place in index order: creation time (ms), then id.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos {
    pub created_ms: i64,
    pub id: String,
}

/// Indexed records as list documents (what list views show).
pub trait Source {
    /// Fields with an index; their values are compared as exact strings.
    fn indexed(&self) -> &'static [&'static str];
    /// The exact number of records whose `field` is `value` ([`ALL`]: every record).
    fn count(&mut self, field: &str, value: &str) -> ApiResult<u64>;
    /// Up to `n` records whose `field` is `value`, in index order (reversed when `desc`), strictly
    /// after `after` in that order.
    fn next(
        &mut self,
        field: &str,
        value: &str,
        desc: bool,
        after: Option<&Pos>,
        n: usize,
    ) -> ApiResult<Vec<(Pos, Value)>>;
    /// The places only of what [`Source::next`] returns: no record is read.
    fn positions(
        &mut self,
        field: &str,
        value: &str,
        desc: bool,
        after: Option<&Pos>,
        n: usize,
    ) -> ApiResult<Vec<Pos>> {
        let rows = self.next(field, value, desc, after, n)?;
        Ok(rows.into_iter().map(|(p, _)| p).collect())
    }
    /// One record by id (in this list's kind), with its place.
    fn find(&mut self, id: &str) -> ApiResult<Option<(Pos, Value)>>;
    /// Text fields with a gram index: the records whose folded value of `field` holds the trigram
    /// `g` are the index `(grams::index_field(field), g)` ([`crate::storage::grams`]), walked and
    /// counted through [`Source::next`] and [`Source::count`] like any other.
    fn texts(&self) -> &'static [&'static str] {
        &[]
    }
    /// `Some(n)` when every value of the indexed field `field` is exactly `n` ASCII digits: a search
    /// on it alone is answered by testing the pattern on every possible value and walking the
    /// index of those it matches.
    fn digits(&self, _field: &str) -> Option<u32> {
        None
    }
    /// Whether the list-view field `field` has a range index: every record's value of it (a
    /// number or an instant), in the order of (value, id).
    fn ranged(&self, _field: &str) -> bool {
        false
    }
    /// Whether the range index of `field` is also kept in one part per value of the indexed field
    /// `eq` (a compound index, the equality its prefix): [`RangeKey::within`] walks such a part.
    fn compound(&self, _field: &str, _eq: &str) -> bool {
        false
    }
    /// The exact number of entries of the range index `key` in `span`, when the source keeps
    /// counts that tell it without walking the span.
    fn range_count(&mut self, _key: &RangeKey, _span: &Span) -> ApiResult<Option<u64>> {
        Ok(None)
    }
    /// The entries of the range index `key` that may not hold their record's value now (the
    /// clock moved it since the record's last write), as stored: the planner reads those records.
    fn stale(&mut self, _key: &RangeKey) -> ApiResult<Vec<RangePos>> {
        Ok(Vec::new())
    }
    /// Up to `n` places of the range index `key` whose values lie in `span`, in (value, id)
    /// order (reversed when `desc`), strictly after `after` in that order. Reads no record.
    fn range_positions(
        &mut self,
        _key: &RangeKey,
        _span: &Span,
        _desc: bool,
        _after: Option<&RangePos>,
        _n: usize,
    ) -> ApiResult<Vec<RangePos>> {
        Ok(Vec::new())
    }
    /// The top-level fields (`_id` among them) that the entries of the range index `key` carry,
    /// exactly as the records' documents have them: a walk over it ([`Source::range_docs`])
    /// checks a record against conditions on those fields without reading it.
    fn covered(&self, _key: &RangeKey) -> &'static [&'static str] {
        &[]
    }
    /// [`Source::range_positions`], each place with a document of the `fields` (all of them
    /// [`Source::covered`]) that its entry carries, or `None` when the entry carries none.
    /// Entries that give equal documents may share one.
    fn range_docs(
        &mut self,
        key: &RangeKey,
        span: &Span,
        (desc, after, n): (bool, Option<&RangePos>, usize),
        _fields: &[String],
    ) -> ApiResult<Vec<(RangePos, Option<Rc<Value>>)>> {
        let rows = self.range_positions(key, span, desc, after, n)?;
        Ok(rows.into_iter().map(|p| (p, None)).collect())
    }
    /// Up to `n` of all the records, in an order of the source's choosing (for a store: as stored,
    /// without an index lookup per record), continuing after the record `after` of the last call.
    /// For passes that visit every record whatever the order.
    fn scan(&mut self, after: Option<&str>, n: usize) -> ApiResult<Vec<(Pos, Value)>> {
        let after = match after {
            Some(id) => self.find(id)?.map(|(p, _)| p),
            None => None,
        };
        self.next(ALL, "", false, after.as_ref(), n)
    }
    /// [`Source::scan`], but each document may hold only the top-level `fields` (and must hold
    /// them as the whole document does): for passes that read a few fields of every record.
    fn scan_only(
        &mut self,
        after: Option<&str>,
        n: usize,
        _fields: &[String],
    ) -> ApiResult<Vec<(Pos, Value)>> {
        self.scan(after, n)
    }
}

/// A range index to walk: the one of a list-view field, or (`within`) the part of it whose records
/// have one value of an indexed field (a compound index, [`Source::compound`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RangeKey {
    pub field: String,
    /// (indexed field, value): only the records with that value, in the same (value, id) order.
    pub within: Option<(String, String)>,
}

impl RangeKey {
    pub fn of(field: &str) -> RangeKey {
        RangeKey {
            field: field.to_string(),
            within: None,
        }
    }
}

/// One page of a list.
#[derive(Debug)]
pub struct Page {
    /// Whole documents (projected later), in list order.
    pub items: Vec<Value>,
    pub total: u64,
    /// Whether the list goes on past this page in the direction of travel.
    pub has_more: bool,
}

/// Records are read in chunks: small first (most pages end early), larger while streaming.
const FIRST_CHUNK: usize = 32;
const MAX_CHUNK: usize = 512;

impl ListQuery {
    /// Runs the query over `src`. `within` is a condition every record of the list meets by
    /// construction (a card's authorizations: `("cardId", id)`), walked as an index and not shown
    /// in `meta.filter`.
    pub fn run(&self, src: &mut dyn Source, within: Option<(&str, &str)>) -> ApiResult<Page> {
        let access = self.access(src, within)?;
        if within.is_none()
            && !access.search
            && let Some(plan) = self.range_plan(src, access.cost)?
        {
            let bounds = Bounds {
                after: cursor(src, "The startingAfter record", self.after.as_deref())?,
                before: cursor(src, "The endingBefore record", self.before.as_deref())?,
            };
            return self.run_range(src, &plan, bounds);
        }
        let counted =
            if self.conditions.len() == access.covers && (self.search.is_none() || access.search) {
                let mut total = 0u64;
                for (field, value) in &access.ranges {
                    total = total.saturating_add(src.count(field, value)?);
                }
                Some(total)
            } else {
                None
            };
        // The walk reads keys only when its index decides the query; a range that decides it
        // still gives the total from its counts while the walk checks each record.
        let keys_only = counted.is_some();
        let counted = match (counted, within, access.covers) {
            (None, None, _) => self.span_total(src)?,
            (counted, _, _) => counted,
        };
        let bounds = Bounds {
            after: cursor(src, "The startingAfter record", self.after.as_deref())?,
            before: cursor(src, "The endingBefore record", self.before.as_deref())?,
        };
        if let [key] = self.sort.as_slice()
            && key.path == "createdAt"
        {
            self.walk_in_order(src, &access.ranges, key.desc, bounds, counted, keys_only)
        } else {
            self.top_k(src, &access.ranges, bounds, counted)
        }
    }

    /// The index ranges to walk, and how many of the query's conditions they decide by themselves.
    fn access(&self, src: &mut dyn Source, within: Option<(&str, &str)>) -> ApiResult<Access> {
        if let Some((field, value)) = within {
            return Ok(Access {
                ranges: vec![(field.to_string(), value.to_string())],
                covers: 0,
                cost: None,
                search: false,
            });
        }
        let indexed = src.indexed();
        let mut best: Option<(u64, Vec<(String, String)>)> = None;
        for c in &self.conditions {
            if !indexed.contains(&c.path.as_str()) {
                continue;
            }
            let values: Vec<&str> = match (&c.op, &c.operand) {
                (Op::Eq, Operand::One(Scalar::Str(v))) => vec![v.as_str()],
                (Op::In, Operand::Many(list)) => {
                    let Some(mut vs) = list
                        .iter()
                        .map(|s| match s {
                            Scalar::Str(v) => Some(v.as_str()),
                            _ => None,
                        })
                        .collect::<Option<Vec<_>>>()
                    else {
                        continue;
                    };
                    vs.sort_unstable();
                    vs.dedup();
                    vs
                }
                _ => continue,
            };
            let mut cost = 0u64;
            for v in &values {
                cost = cost.saturating_add(src.count(&c.path, v)?);
            }
            if best.as_ref().is_none_or(|(b, _)| cost < *b) {
                let ranges = values
                    .iter()
                    .map(|v| (c.path.clone(), v.to_string()))
                    .collect();
                best = Some((cost, ranges));
            }
        }
        if let Some(access) = self.search_access(src, best.as_ref().map(|(c, _)| *c))? {
            return Ok(access);
        }
        // A text search through its gram posting lists (`grams.rs`), when they hold at most half
        // the records and fewer than the equality access: every candidate is re-checked (covers 0).
        if let Some((cost, ranges)) = self.gram_lanes(src)?
            && best.as_ref().is_none_or(|(b, _)| cost < *b)
            && cost.saturating_mul(2) <= src.count(ALL, "")?
        {
            return Ok(Access {
                ranges,
                covers: 0,
                cost: Some(cost),
                search: false,
            });
        }
        Ok(match best {
            Some((cost, ranges)) => Access {
                ranges,
                covers: 1,
                cost: Some(cost),
                search: false,
            },
            None => Access {
                ranges: vec![(ALL.to_string(), String::new())],
                covers: 0,
                cost: None,
                search: false,
            },
        })
    }

    /// A search on one indexed field of n-digit values (a card's `last4`): the pattern is tested
    /// on each of the 10^n possible values, exactly as on a record's, and the index of each value it
    /// matches is walked; the total is the sum of their counts. Taken when it is fewer entries than
    /// the equality access (`eq_cost`) and at most [`MAX_LANES`] values match.
    fn search_access(
        &self,
        src: &mut dyn Source,
        eq_cost: Option<u64>,
    ) -> ApiResult<Option<Access>> {
        let (Some(re), [field]) = (&self.search, self.search_in.as_slice()) else {
            return Ok(None);
        };
        let Some(n) = src.digits(field).filter(|n| *n <= 4) else {
            return Ok(None);
        };
        if !src.indexed().contains(&field.as_str()) {
            return Ok(None);
        }
        let width = n as usize;
        let mut values = Vec::new();
        for v in 0..10u32.pow(n) {
            let text = format!("{v:0width$}");
            if re.is_match(&text) {
                values.push(text);
                if values.len() > MAX_LANES {
                    return Ok(None);
                }
            }
        }
        let mut cost = 0u64;
        for v in &values {
            cost = cost.saturating_add(src.count(field, v)?);
        }
        if eq_cost.is_some_and(|c| c <= cost) {
            return Ok(None);
        }
        // No value at all: an empty walk, nothing can match.
        let ranges: Vec<(String, String)> =
            values.into_iter().map(|v| (field.clone(), v)).collect();
        Ok(Some(Access {
            ranges,
            covers: 0,
            cost: Some(cost),
            search: true,
        }))
    }

    /// Sorted by `createdAt`: the index order itself, so the walk stops after the page.
    fn walk_in_order(
        &self,
        src: &mut dyn Source,
        ranges: &[(String, String)],
        desc: bool,
        bounds: Bounds,
        counted: Option<u64>,
        keys_only: bool,
    ) -> ApiResult<Page> {
        let (skip, limit) = (self.skip(), self.limit_usize());
        // Only `endingBefore`: walk back from it; otherwise forward (from `startingAfter`).
        let backwards = bounds.after.is_none() && bounds.before.is_some();
        let walk_desc = desc != backwards;
        let (start, stop) = match backwards {
            true => (bounds.before.map(|(p, _)| p), None),
            false => (bounds.after.map(|(p, _)| p), bounds.before.map(|(p, _)| p)),
        };
        let past = |p: &Pos, stop: &Pos| if walk_desc { p <= stop } else { p >= stop };
        // Without bounds and without counts, the walk goes on to the end to count.
        let count_here = counted.is_none() && start.is_none() && stop.is_none();
        let mut walk = Walk::new(ranges, walk_desc, start.clone());
        // When the index decides the query, records are read only for the page (a deep page
        // walks keys until it starts).
        walk.keys_only = keys_only;
        let mut items = Vec::new();
        let mut seen = 0usize;
        let mut has_more = false;
        while let Some((pos, doc)) = walk.next(src)? {
            if stop.as_ref().is_some_and(|s| past(&pos, s)) {
                break;
            }
            if doc.as_ref().is_some_and(|d| !self.matches(d)) {
                continue;
            }
            seen += 1;
            if seen <= skip {
                continue;
            }
            if items.len() < limit {
                items.push(match doc {
                    Some(doc) => doc,
                    None => src.find(&pos.id)?.map(|(_, d)| d).ok_or_else(|| {
                        ApiError::internal(format!(
                            "an index entry points at a missing record {}",
                            pos.id
                        ))
                    })?,
                });
            } else {
                has_more = true;
                if !count_here {
                    break;
                }
            }
        }
        if backwards {
            items.reverse();
        }
        let total = match counted {
            Some(n) => n,
            None if count_here => seen as u64,
            None => self.count_matches(src, ranges)?,
        };
        Ok(Page {
            items,
            total,
            has_more,
        })
    }

    /// Any other sort: one pass over the candidates keeping the best `skip + limit + 1` sort keys.
    fn top_k(
        &self,
        src: &mut dyn Source,
        ranges: &[(String, String)],
        bounds: Bounds,
        counted: Option<u64>,
    ) -> ApiResult<Page> {
        let mut walk = Walk::unordered(ranges);
        walk.only = Some(self.read_fields());
        self.top_k_of(src, Candidates::Walk(walk), bounds, counted)
    }

    /// [`ListQuery::top_k`] over any candidates.
    pub(super) fn top_k_of(
        &self,
        src: &mut dyn Source,
        mut walk: Candidates<'_>,
        bounds: Bounds,
        counted: Option<u64>,
    ) -> ApiResult<Page> {
        let (skip, limit) = (self.skip(), self.limit_usize());
        let keep = skip.saturating_add(limit).saturating_add(1);
        let backwards = bounds.after.is_none() && bounds.before.is_some();
        let low = bounds.after.map(|(_, doc)| self.sort_key(&doc));
        let high = bounds.before.map(|(_, doc)| self.sort_key(&doc));
        // Forward: a max-heap drops the last of the kept keys; backwards: a min-heap drops the first.
        let mut ahead: BinaryHeap<(Vec<Directed>, String)> = BinaryHeap::new();
        let mut behind: BinaryHeap<Reverse<(Vec<Directed>, String)>> = BinaryHeap::new();
        let mut total = 0u64;
        while let Some((pos, doc)) = walk.next(src)? {
            let Some(doc) = doc.filter(|d| self.matches(d)) else {
                continue;
            };
            total += 1;
            let key = self.sort_key(&doc);
            if low.as_ref().is_some_and(|b| key <= *b) || high.as_ref().is_some_and(|b| key >= *b) {
                continue;
            }
            if backwards {
                behind.push(Reverse((key, pos.id)));
                if behind.len() > keep {
                    behind.pop();
                }
            } else {
                ahead.push((key, pos.id));
                if ahead.len() > keep {
                    ahead.pop();
                }
            }
        }
        let (ids, has_more) = if backwards {
            let mut kept: Vec<_> = behind.into_iter().map(|Reverse(e)| e).collect();
            kept.sort();
            let more = kept.len() > skip.saturating_add(limit);
            let end = kept.len().saturating_sub(skip);
            let from = end.saturating_sub(limit);
            kept.truncate(end);
            (kept.split_off(from), more)
        } else {
            let kept = ahead.into_sorted_vec();
            let more = kept.len() > skip.saturating_add(limit);
            (kept.into_iter().skip(skip).take(limit).collect(), more)
        };
        let mut items = Vec::with_capacity(ids.len());
        for (_, id) in ids {
            if let Some((_, doc)) = src.find(&id)? {
                items.push(doc);
            }
        }
        Ok(Page {
            items,
            total: counted.unwrap_or(total),
            has_more,
        })
    }

    pub(super) fn count_matches(
        &self,
        src: &mut dyn Source,
        ranges: &[(String, String)],
    ) -> ApiResult<u64> {
        let mut walk = Walk::unordered(ranges);
        // Counting places nothing: `_id` and `createdAt` only when a condition reads them.
        walk.only = Some(self.match_fields());
        let mut n = 0u64;
        while let Some((_, doc)) = walk.next(src)? {
            if doc.is_some_and(|d| self.matches(&d)) {
                n += 1;
            }
        }
        Ok(n)
    }

    /// The top-level fields that matching and sorting read (a pass over every record builds
    /// documents of these alone; the page's records are read whole): `_id` for the tie-break,
    /// `createdAt` only when a condition or the sort reads it (the walk places each record
    /// itself, so formatting every record's instant was wasted).
    pub(super) fn read_fields(&self) -> Vec<String> {
        let sorted = self.sort.iter().map(|k| &k.path);
        top_fields(["_id"], self.matched_paths().chain(sorted))
    }

    /// The top-level fields that matching alone reads (a pass that only counts).
    fn match_fields(&self) -> Vec<String> {
        top_fields([], self.matched_paths())
    }

    /// The paths the conditions and the search read.
    fn matched_paths(&self) -> impl Iterator<Item = &String> {
        let searched = self
            .search
            .as_ref()
            .map_or(&[][..], |_| &self.search_in[..]);
        self.conditions.iter().map(|c| &c.path).chain(searched)
    }

    /// The document's place in the list order: its sort values, then `_id` in the direction of the
    /// last sort key (the tie-break [`ListQuery::select`] uses).
    fn sort_key(&self, doc: &Value) -> Vec<Directed> {
        let mut key: Vec<Directed> = self
            .sort
            .iter()
            .map(|k| Directed::new(SortVal::of(k.ftype, lookup(doc, &k.path)), k.desc))
            .collect();
        let id_desc = self.sort.last().is_some_and(|k| k.desc);
        key.push(Directed::new(
            SortVal::of(FieldType::Str, doc.get("_id")),
            id_desc,
        ));
        key
    }

    pub(super) fn skip(&self) -> usize {
        usize::try_from((self.page - 1).saturating_mul(self.limit)).unwrap_or(usize::MAX)
    }

    pub(super) fn limit_usize(&self) -> usize {
        usize::try_from(self.limit).unwrap_or(usize::MAX)
    }
}

/// `first`, then the top-level field of each path, each once.
fn top_fields<'p, const N: usize>(
    first: [&str; N],
    paths: impl Iterator<Item = &'p String>,
) -> Vec<String> {
    let mut fields: Vec<String> = first.map(String::from).to_vec();
    for p in paths {
        let top = p.split('.').next().unwrap_or(p);
        if !fields.iter().any(|f| f == top) {
            fields.push(top.to_string());
        }
    }
    fields
}

/// Candidates of a pass whose order does not matter: an index walk, or records already read.
pub(super) enum Candidates<'r> {
    Walk(Walk<'r>),
    Loaded(VecDeque<(Pos, Value)>),
}

impl Candidates<'_> {
    fn next(&mut self, src: &mut dyn Source) -> ApiResult<Option<(Pos, Option<Value>)>> {
        match self {
            Candidates::Walk(w) => w.next(src),
            Candidates::Loaded(docs) => Ok(docs.pop_front().map(|(p, d)| (p, Some(d)))),
        }
    }
}

/// The records named by `startingAfter` and `endingBefore`, with their places.
pub(super) struct Bounds {
    pub(super) after: Option<(Pos, Value)>,
    pub(super) before: Option<(Pos, Value)>,
}

/// The record a cursor names; an id that names none is 404, like any unknown record.
fn cursor(
    src: &mut dyn Source,
    what: &'static str,
    id: Option<&str>,
) -> ApiResult<Option<(Pos, Value)>> {
    let Some(id) = id else { return Ok(None) };
    src.find(id)?.map(Some).ok_or(ApiError::NotFound(what))
}

struct Access {
    ranges: Vec<(String, String)>,
    /// How many conditions the ranges decide alone (0 or 1).
    covers: usize,
    /// The number of entries of the equality ranges, when the access walks some.
    cost: Option<u64>,
    /// The ranges are exactly the records the search matches.
    search: bool,
}

/// At most this many index values are walked together for a search.
const MAX_LANES: usize = 1000;

/// A sort value in its direction, so that the natural order of a key is the list order.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Directed {
    Asc(SortVal),
    Desc(Reverse<SortVal>),
}

impl Directed {
    fn new(v: SortVal, desc: bool) -> Directed {
        if desc {
            Directed::Desc(Reverse(v))
        } else {
            Directed::Asc(v)
        }
    }
}

/// Several index ranges walked as one, merged by position (a record is in one range only: an
/// indexed field holds one value; gram lists share records, so their walk drops repeats).
pub(super) struct Walk<'r> {
    ranges: Vec<Lane<'r>>,
    desc: bool,
    chunk: usize,
    /// Every record, in the source's own order ([`Source::scan`]).
    everything: bool,
    /// Places only ([`Source::positions`]): the documents come back as `None`.
    keys_only: bool,
    /// Gram lists may share records: the place last returned, so a record comes once.
    last: Option<Pos>,
    dedup: bool,
    /// Over every record: documents of these top-level fields only ([`Source::scan_only`]).
    only: Option<Vec<String>>,
}

struct Lane<'r> {
    field: &'r str,
    value: &'r str,
    buf: VecDeque<(Pos, Option<Value>)>,
    after: Option<Pos>,
    done: bool,
}

impl<'r> Walk<'r> {
    fn new(ranges: &'r [(String, String)], desc: bool, start: Option<Pos>) -> Walk<'r> {
        Walk {
            ranges: ranges
                .iter()
                .map(|(field, value)| Lane {
                    field,
                    value,
                    buf: VecDeque::new(),
                    after: start.clone(),
                    done: false,
                })
                .collect(),
            desc,
            // Many lanes (a search over many values) start small: the page takes a few of each.
            chunk: if ranges.len() > 8 { 4 } else { FIRST_CHUNK },
            everything: false,
            keys_only: false,
            last: None,
            dedup: ranges.len() > 1
                && ranges
                    .iter()
                    .any(|(field, _)| crate::storage::grams::is_index_field(field)),
            only: None,
        }
    }

    /// A walk whose order does not matter: over every record, the source's own scan.
    fn unordered(ranges: &'r [(String, String)]) -> Walk<'r> {
        let mut walk = Walk::new(ranges, false, None);
        walk.everything = matches!(ranges, [(field, _)] if field == ALL);
        walk.chunk = MAX_CHUNK;
        walk
    }

    fn next(&mut self, src: &mut dyn Source) -> ApiResult<Option<(Pos, Option<Value>)>> {
        loop {
            let row = self.merged(src)?;
            if !self.dedup {
                return Ok(row);
            }
            // Lanes are merged in order, so a record in several comes out in a row.
            match row {
                Some((pos, _)) if self.last.as_ref() == Some(&pos) => continue,
                Some((pos, doc)) => {
                    self.last = Some(pos.clone());
                    return Ok(Some((pos, doc)));
                }
                None => return Ok(None),
            }
        }
    }

    fn merged(&mut self, src: &mut dyn Source) -> ApiResult<Option<(Pos, Option<Value>)>> {
        let mut grew = false;
        for lane in &mut self.ranges {
            if lane.buf.is_empty() && !lane.done {
                let after = lane.after.as_ref();
                let rows: Vec<(Pos, Option<Value>)> = if self.keys_only {
                    src.positions(lane.field, lane.value, self.desc, after, self.chunk)?
                        .into_iter()
                        .map(|p| (p, None))
                        .collect()
                } else {
                    let after_id = after.map(|p| p.id.as_str());
                    let rows = if self.everything {
                        match &self.only {
                            Some(fields) => src.scan_only(after_id, self.chunk, fields)?,
                            None => src.scan(after_id, self.chunk)?,
                        }
                    } else {
                        src.next(lane.field, lane.value, self.desc, after, self.chunk)?
                    };
                    rows.into_iter().map(|(p, d)| (p, Some(d))).collect()
                };
                lane.done = rows.len() < self.chunk;
                lane.after = rows.last().map(|(p, _)| p.clone());
                lane.buf.extend(rows);
                grew = true;
            }
        }
        if grew {
            self.chunk = (self.chunk * 2).min(MAX_CHUNK);
        }
        let desc = self.desc;
        let best = self
            .ranges
            .iter()
            .enumerate()
            .filter_map(|(i, l)| l.buf.front().map(|(p, _)| (i, p)))
            .reduce(|a, b| {
                let b_first = if desc { b.1 > a.1 } else { b.1 < a.1 };
                if b_first { b } else { a }
            })
            .map(|(i, _)| i);
        Ok(best.and_then(|i| self.ranges[i].buf.pop_front()))
    }
}

/// Documents already in memory as a [`Source`] with no index (a list of a few records).
pub struct Documents {
    /// In index order.
    docs: Vec<(Pos, Value)>,
}

impl Documents {
    pub fn new(docs: Vec<Value>) -> Documents {
        let mut docs: Vec<(Pos, Value)> = docs
            .into_iter()
            .map(|d| {
                let created_ms = d
                    .get("createdAt")
                    .and_then(Value::as_str)
                    .and_then(crate::env::Timestamp::parse_rfc3339)
                    .map_or(0, |t| t.millis().max(0));
                let id = d.get("_id").and_then(Value::as_str).unwrap_or_default();
                let pos = Pos {
                    created_ms,
                    id: id.to_string(),
                };
                (pos, d)
            })
            .collect();
        docs.sort_by(|a, b| a.0.cmp(&b.0));
        Documents { docs }
    }
}

impl Source for Documents {
    fn indexed(&self) -> &'static [&'static str] {
        &[]
    }

    fn count(&mut self, _field: &str, _value: &str) -> ApiResult<u64> {
        Ok(self.docs.len() as u64)
    }

    fn next(
        &mut self,
        _field: &str,
        _value: &str,
        desc: bool,
        after: Option<&Pos>,
        n: usize,
    ) -> ApiResult<Vec<(Pos, Value)>> {
        let rows: Box<dyn Iterator<Item = &(Pos, Value)>> = if desc {
            Box::new(
                self.docs
                    .iter()
                    .rev()
                    .filter(|(p, _)| after.is_none_or(|a| p < a)),
            )
        } else {
            Box::new(
                self.docs
                    .iter()
                    .filter(|(p, _)| after.is_none_or(|a| p > a)),
            )
        };
        Ok(rows.take(n).cloned().collect())
    }

    fn find(&mut self, id: &str) -> ApiResult<Option<(Pos, Value)>> {
        Ok(self.docs.iter().find(|(p, _)| p.id == id).cloned())
    }
}
