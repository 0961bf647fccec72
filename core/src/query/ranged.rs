//! Plans over range indexes (numbers and instants, `Source::ranged`):
//!
//! - a sort on one range-indexed field walks that index in the sort's direction, bounded by the
//!   query's conditions on the field, and stops after the page: the index order (value, then id) is
//!   the list order, ties broken on `_id` in the sort's direction;
//! - a range condition on such a field whose span holds few entries (under [`NARROW`]) reads just
//!   those records and sorts them like any list, when that is fewer than an equality index would
//!   give.
//!
//! When the span decides the whole query (every condition is on the walked field, no search), the
//! walk reads keys only until the page starts, and `meta.total` is the number of keys in the span,
//! counted by walking keys (no record is read): inside the span and outside it in turns, so the walk
//! costs twice the smaller side (the index holds every record, so its size is the `*` count).
//! Otherwise each candidate is read and matched, and the total counted in the same pass.
//!
//! A range index may be kept in parts, one per value of an indexed field ([`Source::compound`]):
//! with an equality on that field the walk takes that value's part ([`RangeKey::within`]), which
//! leaves out every record the equality refuses, and which decides the query when the equality and
//! the range are all its conditions.
//!
//! A range index's entries may carry some of their records' fields ([`Source::covered`]: cards'
//! kept index carries its cards' small fields). When every field the query reads is carried, the
//! walk checks, sorts and counts from the entries ([`Source::range_docs`]) and reads records only
//! for the page; an entry inside the span is checked only against the conditions the span does not
//! hold ([`ListQuery::matches_beside`]).

use std::collections::{HashMap, HashSet, VecDeque};
use std::rc::Rc;

use serde_json::Value;

use super::ListQuery;
use super::filter::{Condition, Op, Operand};
use super::run::{ALL, Bounds, Candidates, Page, Pos, RangeKey, RangePos, Source};
use super::schema::lookup;
use super::value::{Scalar, parse_decimal};
use crate::env::Timestamp;
use crate::error::{ApiError, ApiResult};
use crate::storage::ordered::{Ordered, Span};

/// A span with fewer entries than this is read whole rather than walked in another order.
#[cfg(not(test))]
const NARROW: usize = 4096;
/// An equality index with at most this many entries is read whole (and sorted) rather than walking
/// the sort's range index and checking each record against it.
#[cfg(not(test))]
const SMALL_INDEX: u64 = 1024;
#[cfg(not(test))]
const CHUNK: usize = 256;
#[cfg(not(test))]
const COUNT_CHUNK: usize = 2048;
// Tests use small lists: small thresholds make them take every path.
#[cfg(test)]
const NARROW: usize = 6;
#[cfg(test)]
const SMALL_INDEX: u64 = 4;
#[cfg(test)]
const CHUNK: usize = 3;
#[cfg(test)]
const COUNT_CHUNK: usize = 2;

/// The range index to walk and how.
pub(super) struct RangePlan {
    key: RangeKey,
    span: Span,
    /// The span alone decides the query: records are read only for the page.
    decided: bool,
    /// `Some(desc)`: walked in list order (the sort is on this field); `None`: read whole.
    order: Option<bool>,
    /// The fields the query reads (its conditions, search and sort, and `_id`), when the index's
    /// entries carry them all ([`Source::covered`]): the walk checks, sorts and counts from the
    /// entries, and reads records only for the page.
    covered: Option<Vec<String>>,
    /// With `covered`: the fields of the conditions the span does not hold
    /// ([`ListQuery::matches_beside`]), what a check of an entry in the span reads.
    beside: Vec<String>,
}

impl ListQuery {
    /// The span of each range-indexed field the conditions bound, and how many conditions each
    /// folds in.
    fn spans(&self, src: &dyn Source) -> HashMap<String, (Span, usize)> {
        let mut spans: HashMap<String, (Span, usize)> = HashMap::new();
        for c in &self.conditions {
            let ends = ends(src, c);
            if ends.is_empty() {
                continue;
            }
            let (span, folded) = spans.entry(c.path.clone()).or_default();
            for (low, v, inclusive) in ends {
                span.narrow(low, v, inclusive);
            }
            *folded += 1;
        }
        spans
    }

    /// Whether `doc` (of a record whose entry lies in the span of `field`) passes the conditions
    /// that span does not hold (every one folded into it holds), and the search.
    fn matches_beside(&self, src: &dyn Source, doc: &Value, field: &str) -> bool {
        self.conditions
            .iter()
            .filter(|c| c.path != field || ends(src, c).is_empty())
            .all(|c| c.matches(doc))
            && self.search.as_ref().is_none_or(|re| {
                self.search_in
                    .iter()
                    .any(|p| lookup(doc, p).is_some_and(|v| super::eval::text_matches(v, re)))
            })
    }

    /// The top-level fields [`ListQuery::matches_beside`] reads.
    fn fields_beside(&self, src: &dyn Source, field: &str) -> Vec<String> {
        let mut fields: Vec<String> = Vec::new();
        let unfolded = self
            .conditions
            .iter()
            .filter(|c| c.path != field || ends(src, c).is_empty())
            .map(|c| &c.path);
        let searched = self
            .search
            .as_ref()
            .map_or(&[][..], |_| &self.search_in[..]);
        for p in unfolded.chain(searched) {
            let top = p.split('.').next().unwrap_or(p);
            if !fields.iter().any(|f| f == top) {
                fields.push(top.to_string());
            }
        }
        fields
    }

    /// The equality condition (field, value) on an indexed field whose value splits the range
    /// index of `field` into parts ([`Source::compound`]): walking that part alone leaves out
    /// every record the equality refuses.
    fn compound_eq(&self, src: &dyn Source, field: &str) -> Option<(String, String)> {
        self.conditions
            .iter()
            .find_map(|c| match (&c.op, &c.operand) {
                (Op::Eq, Operand::One(Scalar::Str(v)))
                    if c.path != field && src.compound(field, &c.path) =>
                {
                    Some((c.path.clone(), v.clone()))
                }
                _ => None,
            })
    }

    /// The range index to walk for `field`: its part for the query's equality when it has one.
    fn range_key(&self, src: &dyn Source, field: &str) -> RangeKey {
        RangeKey {
            field: field.to_string(),
            within: self.compound_eq(src, field),
        }
    }

    /// Whether walking `key` over its span decides the whole query: every condition is on its
    /// field, or is the equality its part stands for, and there is no search.
    fn decides(&self, spans: &HashMap<String, (Span, usize)>, key: &RangeKey) -> bool {
        let folded = spans.get(&key.field).map_or(0, |(_, n)| *n);
        self.search.is_none() && folded + usize::from(key.within.is_some()) == self.conditions.len()
    }

    /// The fields the query reads, when the entries of `key` carry them all.
    fn covered_by(&self, src: &dyn Source, key: &RangeKey) -> Option<Vec<String>> {
        let covered = src.covered(key);
        let fields = self.read_fields();
        fields
            .iter()
            .all(|f| covered.contains(&f.as_str()))
            .then_some(fields)
    }

    /// A plan over a range index, when one beats the equality access (`eq_cost`: its entries).
    pub(super) fn range_plan(
        &self,
        src: &mut dyn Source,
        eq_cost: Option<u64>,
    ) -> ApiResult<Option<RangePlan>> {
        let spans = self.spans(src);
        // A sort on createdAt alone is the order of every index (`walk_in_order`).
        if let [sort] = self.sort.as_slice()
            && src.ranged(&sort.path)
            && sort.path != "createdAt"
        {
            if eq_cost.is_some_and(|c| c <= SMALL_INDEX) {
                return Ok(None);
            }
            let key = self.range_key(src, &sort.path);
            let span = spans.get(&sort.path).map(|(s, _)| s.clone());
            return Ok(Some(RangePlan {
                decided: self.decides(&spans, &key),
                covered: self.covered_by(src, &key),
                beside: self.fields_beside(src, &key.field),
                key,
                span: span.unwrap_or_default(),
                order: Some(sort.desc),
            }));
        }
        let mut best: Option<(usize, RangeKey, &Span)> = None;
        for (field, (span, _)) in &spans {
            let key = self.range_key(src, field);
            let n = src.range_positions(&key, span, false, None, NARROW)?.len();
            let better = best.as_ref().is_none_or(|(b, _, _)| n < *b);
            if n < NARROW && eq_cost.is_none_or(|c| (n as u64) < c) && better {
                best = Some((n, key, span));
            }
        }
        Ok(best.map(|(_, key, span)| RangePlan {
            decided: self.decides(&spans, &key),
            covered: self.covered_by(src, &key),
            beside: self.fields_beside(src, &key.field),
            key,
            span: span.clone(),
            order: None,
        }))
    }

    /// The total of a query that one range decides (every condition on one range-indexed field,
    /// or on it and the equality of one of its compound parts; no search), from the source's range
    /// counts, whatever index the walk takes.
    pub(super) fn span_total(&self, src: &mut dyn Source) -> ApiResult<Option<u64>> {
        if self.search.is_some() {
            return Ok(None);
        }
        let spans = self.spans(src);
        for (field, (span, _)) in &spans {
            let key = self.range_key(src, field);
            if !self.decides(&spans, &key) {
                continue;
            }
            let Some(keys) = src.range_count(&key, span)? else {
                return Ok(None);
            };
            let stale = Stale::read(self, src, &key)?;
            return Ok(Some(stale.corrected(keys, span)));
        }
        self.union_total(src)
    }

    /// The total of a query whose conditions are an `in` on the field a range index has parts
    /// for ([`Source::compound`]) and range conditions on that index's field (no search): the sum
    /// of each listed value's part's count over the span, each corrected for its stale entries.
    /// The parts are disjoint (a record is in the part of its one value), so nothing counts twice.
    pub(super) fn union_total(&self, src: &mut dyn Source) -> ApiResult<Option<u64>> {
        if self.search.is_some() {
            return Ok(None);
        }
        let spans = self.spans(src);
        for (field, (span, folded)) in &spans {
            let Some((eq, values)) = self.conditions.iter().find_map(|c| {
                let (Op::In, Operand::Many(list)) = (&c.op, &c.operand) else {
                    return None;
                };
                if c.path == *field || !src.compound(field, &c.path) {
                    return None;
                }
                let mut values: Vec<&str> = list
                    .iter()
                    .map(|s| match s {
                        Scalar::Str(v) => Some(v.as_str()),
                        _ => None,
                    })
                    .collect::<Option<_>>()?;
                values.sort_unstable();
                values.dedup();
                Some((c.path.clone(), values))
            }) else {
                continue;
            };
            if folded + 1 != self.conditions.len() {
                continue;
            }
            let mut total = 0u64;
            for value in values {
                let key = RangeKey {
                    field: field.clone(),
                    within: Some((eq.clone(), value.to_string())),
                };
                let Some(keys) = src.range_count(&key, span)? else {
                    return Ok(None);
                };
                let stale = Stale::read(self, src, &key)?;
                total = total.saturating_add(stale.corrected(keys, span));
            }
            return Ok(Some(total));
        }
        Ok(None)
    }

    pub(super) fn run_range(
        &self,
        src: &mut dyn Source,
        plan: &RangePlan,
        bounds: Bounds,
    ) -> ApiResult<Page> {
        let stale = Stale::read(self, src, &plan.key)?;
        let Some(desc) = plan.order else {
            // Covered: the entries' documents are checked and sorted; top-k reads the page's.
            let mut walk = RangeWalk::new(plan, &stale, false, None, plan.covered.as_deref());
            let mut docs = VecDeque::new();
            while let Some((p, doc)) = walk.next(src)? {
                docs.push_back(match doc {
                    Doc::Whole(doc) => (
                        Pos {
                            created_ms: 0,
                            id: p.id,
                        },
                        doc,
                    ),
                    Doc::Covered(doc) => (
                        Pos {
                            created_ms: 0,
                            id: p.id,
                        },
                        Rc::unwrap_or_clone(doc),
                    ),
                    Doc::Unread => load(src, &p.id)?,
                });
            }
            return self.top_k_of(src, Candidates::Loaded(docs), bounds, None);
        };
        let (skip, limit) = (self.skip(), self.limit_usize());
        let place = |b: &Option<(Pos, Value)>| -> ApiResult<Option<RangePos>> {
            b.as_ref()
                .map(|(_, doc)| range_place(doc, &plan.key.field))
                .transpose()
        };
        let (after, before) = (place(&bounds.after)?, place(&bounds.before)?);
        // Only `endingBefore`: walk back from it; otherwise forward (from `startingAfter`).
        let backwards = after.is_none() && before.is_some();
        let walk_desc = desc != backwards;
        let (from, stop) = match backwards {
            true => (before, None),
            false => (after, before),
        };
        let past = |p: &RangePos, stop: &RangePos| if walk_desc { p <= stop } else { p >= stop };
        // Unless the keys decide it, the total is counted by reading every candidate: in this
        // walk when it covers the whole list.
        let count_here = !plan.decided
            && from.is_none()
            && stop.is_none()
            && src.range_count(&plan.key, &plan.span)?.is_none();
        let (mut items, mut seen, mut has_more) = (Vec::new(), 0usize, false);
        // Decided: the keys alone say which records are in; else the entries' covers, if any.
        let covered = plan
            .covered
            .as_ref()
            .filter(|_| !plan.decided)
            .map(|_| plan.beside.as_slice());
        let mut walk = RangeWalk::new(plan, &stale, walk_desc, from, covered);
        while let Some((p, doc)) = walk.next(src)? {
            if stop.as_ref().is_some_and(|s| past(&p, s)) {
                break;
            }
            let doc = match (doc, plan.decided) {
                (Doc::Whole(doc), _) => Some(doc),
                (_, true) => None,
                (Doc::Covered(doc), false) => {
                    if !self.matches_beside(src, &doc, &plan.key.field) {
                        continue;
                    }
                    // A page's record is read whole.
                    None
                }
                (Doc::Unread, false) => {
                    let (_, doc) = load(src, &p.id)?;
                    if !self.matches(&doc) {
                        continue;
                    }
                    Some(doc)
                }
            };
            seen += 1;
            if seen <= skip {
                continue;
            }
            if items.len() < limit {
                items.push(match doc {
                    Some(doc) => doc,
                    None => load(src, &p.id)?.1,
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
        let total = if plan.decided {
            let keys = match src.range_count(&plan.key, &plan.span)? {
                Some(n) => n,
                None => count_span(src, &plan.key, &plan.span)?,
            };
            stale.corrected(keys, &plan.span)
        } else if count_here {
            seen as u64
        } else if let Some(n) = self.union_total(src)? {
            n
        } else if plan.covered.is_some() {
            // The span's entries carry what the conditions read: counted from them alone.
            let mut n = 0u64;
            let mut walk = RangeWalk::new(plan, &stale, false, None, Some(&plan.beside));
            walk.chunk = COUNT_CHUNK;
            while let Some((p, doc)) = walk.next(src)? {
                let pass = match doc {
                    Doc::Whole(doc) => self.matches(&doc),
                    Doc::Covered(doc) => self.matches_beside(src, &doc, &plan.key.field),
                    Doc::Unread => self.matches(&load(src, &p.id)?.1),
                };
                n += u64::from(pass);
            }
            n
        } else if src
            .range_count(&plan.key, &plan.span)?
            .is_some_and(|n| n > src.count(ALL, "").unwrap_or(0) / 8)
        {
            // A wide span: one pass over the records as stored beats reading them one by one.
            self.count_matches(src, &[(ALL.to_string(), String::new())])?
        } else {
            let mut n = 0u64;
            let mut walk = RangeWalk::new(plan, &stale, false, None, None);
            while let Some((p, doc)) = walk.next(src)? {
                let doc = match doc {
                    Doc::Whole(doc) => doc,
                    Doc::Covered(doc) => Rc::unwrap_or_clone(doc),
                    Doc::Unread => load(src, &p.id)?.1,
                };
                if self.matches(&doc) {
                    n += 1;
                }
            }
            n
        };
        Ok(Page {
            items,
            total,
            has_more,
        })
    }
}

/// The records whose index entries may be stale: their entries as stored (skipped in walks), and
/// those of them that match the query, read, at their true places.
struct Stale {
    stored: Vec<RangePos>,
    ids: HashSet<String>,
    docs: Vec<(RangePos, Value)>,
}

impl Stale {
    /// The number of matches in `span`, from `keys` entries counted there: the stale entries the
    /// keys count are replaced by their records' true values.
    fn corrected(&self, keys: u64, span: &Span) -> u64 {
        let stored_inside = self
            .stored
            .iter()
            .filter(|p| span_holds(span, &p.value))
            .count() as u64;
        (keys + self.docs.len() as u64).saturating_sub(stored_inside)
    }

    fn read(q: &ListQuery, src: &mut dyn Source, key: &RangeKey) -> ApiResult<Stale> {
        let stored = src.stale(key)?;
        let mut docs = Vec::new();
        for p in &stored {
            let (_, doc) = load(src, &p.id)?;
            if q.matches(&doc) {
                docs.push((range_place(&doc, &key.field)?, doc));
            }
        }
        docs.sort_by(|a, b| a.0.cmp(&b.0));
        let ids = stored.iter().map(|p| p.id.clone()).collect();
        Ok(Stale { stored, ids, docs })
    }
}

/// What a walk gives with a place: a stale record's whole document, the document of the fields
/// its entry carries, or nothing read.
enum Doc {
    Whole(Value),
    /// Shared by the entries of one class ([`Source::range_docs`]).
    Covered(Rc<Value>),
    Unread,
}

/// A walk over a span of a range index in one direction, chunk by chunk, with the stale entries
/// left out and the matching stale records merged in at their true places (with their documents);
/// with `covered`, each entry's document of those fields.
struct RangeWalk<'p> {
    plan: &'p RangePlan,
    stale: &'p Stale,
    desc: bool,
    from: Option<RangePos>,
    covered: Option<&'p [String]>,
    /// Entries read at a time.
    chunk: usize,
    buf: VecDeque<(RangePos, Option<Rc<Value>>)>,
    done: bool,
    /// The stale documents still to merge, in walk order.
    pending: VecDeque<(RangePos, Value)>,
}

impl<'p> RangeWalk<'p> {
    fn new(
        plan: &'p RangePlan,
        stale: &'p Stale,
        desc: bool,
        from: Option<RangePos>,
        covered: Option<&'p [String]>,
    ) -> Self {
        let ahead = |p: &RangePos| {
            from.as_ref()
                .is_none_or(|f| if desc { p < f } else { p > f })
        };
        let mut pending: VecDeque<(RangePos, Value)> = stale
            .docs
            .iter()
            .filter(|(p, _)| ahead(p))
            .cloned()
            .collect();
        if desc {
            pending = pending.into_iter().rev().collect();
        }
        RangeWalk {
            plan,
            stale,
            desc,
            from,
            covered,
            chunk: CHUNK,
            buf: VecDeque::new(),
            done: false,
            pending,
        }
    }

    fn next(&mut self, src: &mut dyn Source) -> ApiResult<Option<(RangePos, Doc)>> {
        loop {
            if self.buf.is_empty() && !self.done {
                let (key, span, from) = (&self.plan.key, &self.plan.span, self.from.as_ref());
                let n = self.chunk;
                let chunk: Vec<(RangePos, Option<Rc<Value>>)> = match self.covered {
                    Some(fields) => src.range_docs(key, span, (self.desc, from, n), fields)?,
                    None => src
                        .range_positions(key, span, self.desc, from, n)?
                        .into_iter()
                        .map(|p| (p, None))
                        .collect(),
                };
                self.done = chunk.len() < n;
                if let Some((last, _)) = chunk.last() {
                    self.from = Some(last.clone());
                }
                self.buf.extend(chunk);
            }
            let first = |a: &RangePos, b: &RangePos| if self.desc { a > b } else { a < b };
            let take_stale = match (self.pending.front(), self.buf.front()) {
                (Some(_), None) => true,
                (Some((s, _)), Some((p, _))) => first(s, p),
                (None, _) => false,
            };
            if take_stale {
                return Ok(self.pending.pop_front().map(|(p, d)| (p, Doc::Whole(d))));
            }
            let Some((p, doc)) = self.buf.pop_front() else {
                return Ok(None);
            };
            if self.stale.ids.is_empty() || !self.stale.ids.contains(&p.id) {
                let doc = doc.map_or(Doc::Unread, Doc::Covered);
                return Ok(Some((p, doc)));
            }
        }
    }
}

/// Whether the encoded value `v` lies in `span`.
fn span_holds(span: &Span, v: &[u8]) -> bool {
    let above = span.lo.as_ref().is_none_or(|(lo, incl)| {
        let lo = lo.encode();
        v > lo.as_slice() || (*incl && v == lo.as_slice())
    });
    let below = span.hi.as_ref().is_none_or(|(hi, incl)| {
        let hi = hi.encode();
        v < hi.as_slice() || (*incl && v == hi.as_slice())
    });
    above && below
}

/// The ends a condition puts on its field's span, when the field is range-indexed and the
/// condition is a range (none: the condition is not folded into a span).
fn ends(src: &dyn Source, c: &Condition) -> Vec<(bool, Ordered, bool)> {
    if !src.ranged(&c.path) {
        return Vec::new();
    }
    let one = |s: &Scalar| ordered(s);
    match (&c.op, &c.operand) {
        (Op::Gt, Operand::One(s)) => one(s).map(|v| vec![(true, v, false)]),
        (Op::Gte, Operand::One(s)) => one(s).map(|v| vec![(true, v, true)]),
        (Op::Lt, Operand::One(s)) => one(s).map(|v| vec![(false, v, false)]),
        (Op::Lte, Operand::One(s)) => one(s).map(|v| vec![(false, v, true)]),
        (Op::Eq, Operand::One(s)) => one(s).map(|v| vec![(true, v, true), (false, v, true)]),
        (Op::Between, Operand::Range(lo, hi)) => one(lo)
            .zip(one(hi))
            .map(|(lo, hi)| vec![(true, lo, true), (false, hi, true)]),
        _ => None,
    }
    .unwrap_or_default()
}

/// The value of a filter operand as a range index holds it.
fn ordered(s: &Scalar) -> Option<Ordered> {
    match s {
        Scalar::Num(d) => Some(Ordered::Num(*d)),
        Scalar::Date(t) => Some(Ordered::Millis(t.millis())),
        _ => None,
    }
}

/// A record's place in the range index of `field`, from its list document.
fn range_place(doc: &Value, field: &str) -> ApiResult<RangePos> {
    let value = match lookup(doc, field) {
        Some(Value::Number(n)) => parse_decimal(&n.to_string()).map(Ordered::Num),
        Some(Value::String(s)) => Timestamp::parse_rfc3339(s).map(|t| Ordered::Millis(t.millis())),
        _ => None,
    };
    let id = doc.get("_id").and_then(Value::as_str);
    match (value, id) {
        (Some(v), Some(id)) => Ok(RangePos {
            value: v.encode(),
            id: id.to_string(),
        }),
        _ => Err(ApiError::internal(format!(
            "a range-indexed record has no value of {field}"
        ))),
    }
}

fn load(src: &mut dyn Source, id: &str) -> ApiResult<(Pos, Value)> {
    // An index entry always has its record: both are written in one transaction.
    src.find(id)?.ok_or_else(|| {
        ApiError::internal(format!("an index entry points at a missing record {id}"))
    })
}

/// The number of entries in `span`: the keys inside and the keys outside are walked in turns, and
/// the side that ends first gives the count (the index holds every record).
fn count_span(src: &mut dyn Source, key: &RangeKey, span: &Span) -> ApiResult<u64> {
    // The index holds every record, or every record of its part's value.
    let size = |src: &mut dyn Source| match &key.within {
        Some((field, value)) => src.count(field, value),
        None => src.count(ALL, ""),
    };
    if span.lo.is_none() && span.hi.is_none() {
        return size(src);
    }
    let below = span.lo.as_ref().map(|(v, incl)| Span {
        lo: None,
        hi: Some((*v, !incl)),
    });
    let above = span.hi.as_ref().map(|(v, incl)| Span {
        lo: Some((*v, !incl)),
        hi: None,
    });
    let mut inside = Lane::new(span.clone());
    let mut outside: Vec<Lane> = below.into_iter().chain(above).map(Lane::new).collect();
    loop {
        if inside.step(src, key)? {
            return Ok(inside.n);
        }
        let mut open = false;
        for lane in &mut outside {
            if !lane.done {
                open |= !lane.step(src, key)?;
            }
        }
        if !open {
            let out: u64 = outside.iter().map(|l| l.n).sum();
            return Ok(size(src)?.saturating_sub(out));
        }
    }
}

/// A key-only count of one span, a chunk at a time.
struct Lane {
    span: Span,
    after: Option<RangePos>,
    n: u64,
    done: bool,
}

impl Lane {
    fn new(span: Span) -> Lane {
        Lane {
            span,
            after: None,
            n: 0,
            done: false,
        }
    }

    /// Counts one more chunk; true when the span is done.
    fn step(&mut self, src: &mut dyn Source, key: &RangeKey) -> ApiResult<bool> {
        let chunk =
            src.range_positions(key, &self.span, false, self.after.as_ref(), COUNT_CHUNK)?;
        self.n += chunk.len() as u64;
        self.done = chunk.len() < COUNT_CHUNK;
        self.after = chunk.last().cloned();
        Ok(self.done)
    }
}
