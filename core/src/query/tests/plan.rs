//! The planner against the full scan: for random documents, indexes, filters, sorts, pages and
//! cursors, [`ListQuery::run`] over an indexed source returns exactly what [`ListQuery::select`]
//! makes of every document.

use proptest::prelude::*;

use super::props::{SORTS, arb_docs, arb_filter, expression_query};
use super::*;
use crate::error::ApiResult;
use crate::query::{ALL, Documents, Pos, RangeKey, RangePos, Source};
use crate::storage::grams;
use crate::storage::ordered::{Ordered, Span};

/// Documents with indexes on `name` and `active` (stored as text, like the service's enums), read a
/// chunk at a time, as a store would.
struct Indexed {
    docs: Documents,
    all: Vec<Value>,
    /// With range indexes on `balance` and `updatedAt` (every document has both).
    ranges: bool,
    /// Records read: one per record `next` returns, one per `find`.
    reads: usize,
    /// Some `balance` entries stale ([`Indexed::is_stale`]).
    stale: bool,
    /// The `balance` index also in one part per `name` (a compound index).
    compound: bool,
    /// The `balance` entries carry [`COVERED`] (as stored: a stale entry's balance is stale).
    covered: bool,
}

/// What the `balance` entries carry when covered: not `updatedAt` nor `metadata`, so queries on
/// those read records.
const COVERED: &[&str] = &["_id", "balance", "name", "createdAt", "active"];

impl Indexed {
    fn new(docs: Vec<Value>) -> Indexed {
        Indexed {
            docs: Documents::new(docs.clone()),
            all: docs,
            ranges: false,
            reads: 0,
            stale: false,
            compound: false,
            covered: false,
        }
    }

    fn with_ranges(docs: Vec<Value>) -> Indexed {
        Indexed {
            ranges: true,
            ..Indexed::new(docs)
        }
    }

    fn with_stale_ranges(docs: Vec<Value>) -> Indexed {
        Indexed {
            stale: true,
            ..Indexed::with_ranges(docs)
        }
    }

    fn with_compound(self, compound: bool) -> Indexed {
        Indexed { compound, ..self }
    }

    fn with_covers(self, covered: bool) -> Indexed {
        Indexed { covered, ..self }
    }

    /// Whether `doc` has an entry in the range index `key` (every document, or those of its part).
    fn in_index(doc: &Value, key: &RangeKey) -> bool {
        key.within
            .as_ref()
            .is_none_or(|(f, v)| Indexed::value_of(doc, f).as_deref() == Some(v.as_str()))
    }

    /// Whether the `balance` entry of `doc` is stale: stored 1.00 below its value (as a card's
    /// available balance is, until its next write, after a hold lapsed).
    fn is_stale(doc: &Value) -> bool {
        doc["_id"]
            .as_str()
            .is_some_and(|id| id.ends_with(['3', '7']))
    }

    /// A document's entry in a range index, as the store would hold it.
    fn stored(&self, doc: &Value, field: &str) -> Ordered {
        match Indexed::ordered(doc, field) {
            Ordered::Num(d) if self.stale && field == "balance" && Indexed::is_stale(doc) => {
                Ordered::Num(d - rust_decimal::Decimal::ONE)
            }
            v => v,
        }
    }

    /// A document's value in a range index, as the store would encode it.
    fn ordered(doc: &Value, field: &str) -> Ordered {
        match &doc[field] {
            Value::Number(n) => Ordered::Num(n.to_string().parse().unwrap()),
            Value::String(s) => {
                Ordered::Millis(crate::env::Timestamp::parse_rfc3339(s).unwrap().millis())
            }
            other => panic!("{field} is {other}: not range-indexed"),
        }
    }

    fn value_of(doc: &Value, field: &str) -> Option<String> {
        doc.get(field).and_then(Value::as_str).map(str::to_string)
    }

    /// Whether `doc` is in the index `field = value`: a gram index (`name#3`) holds every
    /// record whose folded text has the gram, as `table::save` writes it.
    fn member(doc: &Value, field: &str, value: &str) -> bool {
        if field == ALL {
            return true;
        }
        if let Some(text) = field.strip_suffix("#3") {
            return crate::query::schema::lookup(doc, text)
                .and_then(Value::as_str)
                .is_some_and(|t| grams::of(t).iter().any(|g| g == value));
        }
        Indexed::value_of(doc, field).as_deref() == Some(value)
    }
}

impl Source for Indexed {
    fn indexed(&self) -> &'static [&'static str] {
        &["name", "ownerId", "pin"]
    }

    fn texts(&self) -> &'static [&'static str] {
        &["name", "person.email"]
    }

    fn digits(&self, field: &str) -> Option<u32> {
        (self.ranges && field == "pin").then_some(2)
    }

    fn count(&mut self, field: &str, value: &str) -> ApiResult<u64> {
        Ok(self
            .all
            .iter()
            .filter(|d| Indexed::member(d, field, value))
            .count() as u64)
    }

    fn next(
        &mut self,
        field: &str,
        value: &str,
        desc: bool,
        after: Option<&Pos>,
        n: usize,
    ) -> ApiResult<Vec<(Pos, Value)>> {
        let mut out = Vec::new();
        let mut from = after.cloned();
        // Walk the whole ordered set, keeping only the index's members.
        while out.len() < n {
            let rows = self.docs.next(ALL, "", desc, from.as_ref(), 7)?;
            let Some(last) = rows.last() else { break };
            from = Some(last.0.clone());
            out.extend(
                rows.into_iter()
                    .filter(|(_, d)| Indexed::member(d, field, value)),
            );
        }
        out.truncate(n);
        self.reads += out.len();
        Ok(out)
    }

    fn positions(
        &mut self,
        field: &str,
        value: &str,
        desc: bool,
        after: Option<&Pos>,
        n: usize,
    ) -> ApiResult<Vec<Pos>> {
        let rows = self.next(field, value, desc, after, n)?;
        self.reads -= rows.len();
        Ok(rows.into_iter().map(|(p, _)| p).collect())
    }

    fn find(&mut self, id: &str) -> ApiResult<Option<(Pos, Value)>> {
        self.reads += 1;
        self.docs.find(id)
    }

    // Projected as a store's view would be: only the asked top-level fields, so a pass that reads
    // any other field would disagree with the full scan.
    fn scan_only(
        &mut self,
        after: Option<&str>,
        n: usize,
        fields: &[String],
    ) -> ApiResult<Vec<(Pos, Value)>> {
        let mut rows = self.scan(after, n)?;
        for (_, doc) in &mut rows {
            if let Value::Object(m) = doc {
                m.retain(|k, _| fields.contains(k));
            }
        }
        Ok(rows)
    }

    fn ranged(&self, field: &str) -> bool {
        self.ranges && ["balance", "updatedAt", "createdAt"].contains(&field)
    }

    fn compound(&self, field: &str, eq: &str) -> bool {
        self.compound && self.ranges && field == "balance" && eq == "name"
    }

    // The store's counts, when entries are stale (either way both count paths are tested).
    fn range_count(&mut self, key: &RangeKey, span: &Span) -> ApiResult<Option<u64>> {
        if !self.stale {
            return Ok(None);
        }
        let n = self
            .all
            .iter()
            .filter(|d| Indexed::in_index(d, key) && span.contains(&self.stored(d, &key.field)))
            .count();
        Ok(Some(n as u64))
    }

    fn stale(&mut self, key: &RangeKey) -> ApiResult<Vec<RangePos>> {
        let field = key.field.as_str();
        Ok(self
            .all
            .iter()
            .filter(|d| field == "balance" && self.stale && Indexed::is_stale(d))
            .filter(|d| Indexed::in_index(d, key))
            .map(|d| RangePos {
                value: self.stored(d, field).encode(),
                id: d["_id"].as_str().unwrap().to_string(),
            })
            .collect())
    }

    fn covered(&self, key: &RangeKey) -> &'static [&'static str] {
        match self.covered && key.field == "balance" {
            true => COVERED,
            false => &[],
        }
    }

    // The entries' covers, as a store holds them: a stale entry's balance is its stored one.
    fn range_docs(
        &mut self,
        key: &RangeKey,
        span: &Span,
        (desc, after, n): (bool, Option<&RangePos>, usize),
        fields: &[String],
    ) -> ApiResult<Vec<(RangePos, Option<std::rc::Rc<Value>>)>> {
        let covered = Source::covered(self, key);
        assert!(
            fields.iter().all(|f| covered.contains(&f.as_str())),
            "{fields:?} are not all covered"
        );
        let places = self.range_positions(key, span, desc, after, n)?;
        Ok(places
            .into_iter()
            .map(|p| {
                let doc = self.all.iter().find(|d| d["_id"] == p.id.as_str()).unwrap();
                let mut cover = serde_json::Map::new();
                for f in fields {
                    if let Some(v) = doc.get(f) {
                        cover.insert(f.clone(), v.clone());
                    }
                }
                if cover.contains_key("balance")
                    && let Ordered::Num(d) = self.stored(doc, "balance")
                {
                    cover.insert(
                        "balance".into(),
                        serde_json::from_str(&d.to_string()).unwrap(),
                    );
                }
                (p, Some(std::rc::Rc::new(Value::Object(cover))))
            })
            .collect())
    }

    fn range_positions(
        &mut self,
        key: &RangeKey,
        span: &Span,
        desc: bool,
        after: Option<&RangePos>,
        n: usize,
    ) -> ApiResult<Vec<RangePos>> {
        let field = key.field.as_str();
        assert!(self.ranged(field), "{field} has no range index");
        assert!(
            key.within.is_none() || self.compound(field, &key.within.as_ref().unwrap().0),
            "{key:?} is no compound index"
        );
        let mut all: Vec<RangePos> = self
            .all
            .iter()
            .filter(|d| Indexed::in_index(d, key) && span.contains(&self.stored(d, field)))
            .map(|d| RangePos {
                value: self.stored(d, field).encode(),
                id: d["_id"].as_str().unwrap().to_string(),
            })
            .collect();
        all.sort();
        if desc {
            all.reverse();
        }
        Ok(all
            .into_iter()
            .filter(|p| after.is_none_or(|a| if desc { p < a } else { p > a }))
            .take(n)
            .collect())
    }
}

/// What paging through the full scan gives between cursors: the matches strictly after `after`
/// and before `before` (places in the list order of every document); pages count from `after`, or
/// back from `before` when it is alone.
fn by_cursor(
    sort: &str,
    base: &str,
    docs: &[Value],
    (after, before): (Option<&str>, Option<&str>),
    page: usize,
    limit: usize,
) -> (Vec<Value>, bool) {
    let everything = q(&format!("{sort}&limit=200")).select(docs.to_vec()).0;
    let (matches, _) = q(&format!("{base}&limit=200")).select(docs.to_vec());
    let place = |id: &Value| everything.iter().position(|e| e["_id"] == *id);
    let low = after.and_then(|a| place(&json!(a)));
    let high = before.and_then(|b| place(&json!(b)));
    let side: Vec<Value> = matches
        .into_iter()
        .filter(|d| {
            let p = place(&d["_id"]).unwrap_or(0);
            low.is_none_or(|l| p > l) && high.is_none_or(|h| p < h)
        })
        .collect();
    let skip = (page - 1) * limit;
    let more = side.len() > skip + limit;
    if after.is_none() && before.is_some() {
        let end = side.len().saturating_sub(skip);
        let from = end.saturating_sub(limit);
        (side[from..end].to_vec(), more)
    } else {
        (side.into_iter().skip(skip).take(limit).collect(), more)
    }
}

const INDEXED: [&str; 5] = [
    "name=ann",
    "name=Bob",
    "name.in=cy,Dee,cy",
    "ownerId=o1",
    "name.in=ann,Dee",
];

proptest! {
    #[test]
    fn planner_returns_what_a_full_scan_returns(
        docs in arb_docs(), sort in 0..SORTS.len() + 1, filter in arb_filter(),
        indexed in prop::option::of(0..INDEXED.len()), search in any::<bool>(),
        page in 1u64..5, limit in 1u64..8,
    ) {
        let sort = SORTS.get(sort).copied().unwrap_or("sort=-createdAt");
        let mut base = format!("{sort}&{}", expression_query(&filter));
        if let Some(i) = indexed {
            base.push('&');
            base.push_str(INDEXED[i]);
        }
        if search {
            base.push_str("&search=%5E%5Bab%5D");
        }
        let query = parse(&format!("{base}&page={page}&limit={limit}"), &SCHEMA);
        // A filter may already hold an equality on the indexed field: such queries are refused.
        prop_assume!(query.is_ok());
        let query = query.unwrap();
        let (expected, total) = query.select(docs.clone());
        let got = query.run(&mut Indexed::new(docs.clone()), None).unwrap();
        prop_assert_eq!(&got.items, &expected);
        prop_assert_eq!(got.total, total);
        prop_assert_eq!(got.has_more, total > page * limit);
        // The in-memory source agrees too.
        let plain = query.run(&mut Documents::new(docs), None).unwrap();
        prop_assert_eq!(&plain.items, &expected);
        prop_assert_eq!(plain.total, total);
    }

    #[test]
    fn cursor_pages_continue_the_full_scan(
        docs in arb_docs(), sort in 0..SORTS.len() + 1, filter in arb_filter(),
        indexed in prop::option::of(0..INDEXED.len()),
        after in prop::option::of(any::<prop::sample::Index>()),
        before in prop::option::of(any::<prop::sample::Index>()),
        page in 1usize..4, limit in 1u64..8,
    ) {
        prop_assume!(!docs.is_empty());
        let sort = SORTS.get(sort).copied().unwrap_or("sort=-createdAt");
        let mut base = format!("{sort}&{}", expression_query(&filter));
        if let Some(i) = indexed {
            base.push('&');
            base.push_str(INDEXED[i]);
        }
        prop_assume!(parse(&base, &SCHEMA).is_ok());
        let id = |i: &prop::sample::Index| docs[i.index(docs.len())]["_id"].as_str().unwrap_or_default().to_string();
        let (after, before) = (after.as_ref().map(id), before.as_ref().map(id));
        let mut query = format!("{base}&limit={limit}&page={page}");
        if let Some(a) = &after {
            query.push_str(&format!("&startingAfter={a}"));
        }
        if let Some(b) = &before {
            query.push_str(&format!("&endingBefore={b}"));
        }
        let (expected, more) = by_cursor(sort, &base, &docs, (after.as_deref(), before.as_deref()), page, limit as usize);
        let (_, total) = q(&format!("{base}&limit=200")).select(docs.clone());
        let got = q(&query).run(&mut Indexed::new(docs), None).unwrap();
        prop_assert_eq!(&got.items, &expected);
        prop_assert_eq!(got.has_more, more);
        prop_assert_eq!(got.total, total);
    }
}

/// Every document with a `balance` and an `updatedAt`, as range-indexed records always have.
fn ranged_docs(docs: Vec<Value>, updated: &[usize]) -> Vec<Value> {
    docs.into_iter()
        .zip(updated.iter().cycle())
        .map(|(mut d, u)| {
            if !d["balance"].is_number() {
                d["balance"] = json!(0);
            }
            d["updatedAt"] = json!(super::props::DATES[*u % super::props::DATES.len()]);
            // Two digits, from the id: the values repeat.
            let id = d["_id"].as_str().unwrap_or_default();
            d["pin"] = json!(format!(
                "{:02}",
                u64::from_str_radix(id, 16).unwrap_or(0) * 37 % 100
            ));
            d
        })
        .collect()
}

const RANGE_SORTS: [&str; 6] = [
    "sort=balance",
    "sort=-balance",
    "sort=updatedAt",
    "sort=-updatedAt",
    "sort=-createdAt",
    "sort=name",
];

/// Searches of the two-digit `pin`: answered from its index, value by value.
const PIN_SEARCHES: [&str; 7] = ["1", "^2", "3$", "[12]7", "99", "x", "."];

/// Range conditions on the range-indexed fields, beside the random filter.
const RANGES: [&str; 9] = [
    "createdAt.gte=2026-01-02T12:00:00.000Z",
    "createdAt.between=2026-01-01T00:00:00.000Z|2026-01-02T00:00:00.000Z",
    "balance.gte=0.5",
    "balance.lt=-1",
    "balance.between=-0.5|0.5",
    "updatedAt.gt=2026-01-02T00:00:00.000Z",
    "updatedAt.lte=2026-01-01T00:00:00.000Z",
    "balance=0",
    "updatedAt.between=2026-01-02T00:00:00.000Z|2026-01-02T12:00:00.000Z",
];

proptest! {
    #[test]
    fn range_plans_return_what_a_full_scan_returns(
        docs in arb_docs(), updated in prop::collection::vec(0usize..4, 1..5),
        sort in 0..RANGE_SORTS.len(), filter in arb_filter(),
        range in prop::option::of(0..RANGES.len()), indexed in prop::option::of(0..INDEXED.len()),
        search in any::<bool>(), page in 1u64..5, limit in 1u64..8, stale in any::<bool>(),
        compound in any::<bool>(), covered in any::<bool>(),
        pin in prop::option::of(0..PIN_SEARCHES.len()),
        after in prop::option::of(any::<prop::sample::Index>()),
        before in prop::option::of(any::<prop::sample::Index>()),
    ) {
        let docs = ranged_docs(docs, &updated);
        let sort = RANGE_SORTS[sort];
        let mut base = format!("{sort}&{}", expression_query(&filter));
        for extra in [range.map(|i| RANGES[i]), indexed.map(|i| INDEXED[i])].into_iter().flatten() {
            base.push('&');
            base.push_str(&enc_query(extra));
        }
        match (search, pin) {
            (_, Some(i)) => base.push_str(&format!("&search={}&searchIn=pin", enc(PIN_SEARCHES[i]))),
            (true, None) => base.push_str("&search=%5E%5Bab%5D"),
            (false, None) => {}
        }
        // A filter may already hold the same condition: such queries are refused.
        prop_assume!(parse(&base, &SCHEMA).is_ok());
        let query = q(&format!("{base}&page={page}&limit={limit}"));
        let (expected, total) = query.select(docs.clone());
        let source = |docs: Vec<Value>| if stale { Indexed::with_stale_ranges(docs) } else { Indexed::with_ranges(docs) }.with_compound(compound).with_covers(covered);
        let got = query.run(&mut source(docs.clone()), None).unwrap();
        prop_assert_eq!(&got.items, &expected);
        prop_assert_eq!(got.total, total);
        prop_assert_eq!(got.has_more, total > page * limit);
        // And between cursors.
        if docs.is_empty() {
            return Ok(());
        }
        let id = |i: &prop::sample::Index| docs[i.index(docs.len())]["_id"].as_str().unwrap_or_default().to_string();
        let (after, before) = (after.as_ref().map(id), before.as_ref().map(id));
        let mut query = format!("{base}&limit={limit}&page={page}");
        if let Some(a) = &after {
            query.push_str(&format!("&startingAfter={a}"));
        }
        if let Some(b) = &before {
            query.push_str(&format!("&endingBefore={b}"));
        }
        let (expected, more) = by_cursor(sort, &base, &docs, (after.as_deref(), before.as_deref()), page as usize, limit as usize);
        let got = q(&query).run(&mut source(docs), None).unwrap();
        prop_assert_eq!(&got.items, &expected);
        prop_assert_eq!(got.has_more, more);
        prop_assert_eq!(got.total, total);
    }
}

/// Many documents with distinct balances (-5.00 to 4.99) and ids.
fn many() -> Vec<Value> {
    (0..1000i64)
        .map(|i| {
            let name = ["ann", "Bob"][(i % 2) as usize];
            let mut d = json!({
                "_id": format!("{:024x}", (i * 7919) % 1000),
                "createdAt": super::props::DATES[(i % 4) as usize],
                "updatedAt": super::props::DATES[(i % 3) as usize],
                "name": name,
            });
            d["balance"] =
                serde_json::from_str(&rust_decimal::Decimal::new(i - 500, 2).to_string()).unwrap();
            d
        })
        .collect()
}

#[test]
fn a_range_decided_page_reads_only_its_records() {
    for (query, first) in [
        ("sort=-balance&limit=5", "4.99"),
        ("sort=balance&balance.gt=-1&limit=5&page=30", "0.46"),
        ("sort=-balance&balance.lte=0&limit=5&page=20", "-0.95"),
        ("sort=-createdAt&limit=5&page=100&name=ann", "0"),
    ] {
        let query = q(query);
        let mut src = Indexed::with_ranges(many());
        let got = query.run(&mut src, None).unwrap();
        let (expected, total) = query.select(many());
        assert_eq!(got.items, expected, "{query:?}");
        assert_eq!(got.total, total);
        assert_eq!(src.reads, 5, "{query:?} read {} records", src.reads);
        if first != "0" {
            assert_eq!(got.items[0]["balance"].to_string(), first);
        }
    }
}

#[test]
fn an_equality_and_a_range_walk_one_compound_part() {
    // Half the documents are ann's: the part of `balance` by `name=ann` holds only hers, so a page
    // reads its records alone and the total comes from the part's counts (or its keys).
    for stale in [false, true] {
        for query in [
            "name=ann&sort=-balance&limit=5",
            "name=ann&balance.gte=0&sort=-balance&limit=5&page=3",
            "name=Bob&balance.between=-1|1&sort=balance&limit=5&page=2",
            "balance.lt=0&name=Bob&sort=-balance&limit=5&page=4",
        ] {
            let query = q(query);
            let mut src = match stale {
                true => Indexed::with_stale_ranges(many()),
                false => Indexed::with_ranges(many()),
            }
            .with_compound(true);
            let got = query.run(&mut src, None).unwrap();
            let (expected, total) = query.select(many());
            assert_eq!(got.items, expected, "{query:?}");
            assert_eq!(got.total, total, "{query:?}");
            assert!(total > 15, "{query:?}: {total}");
            // The page's records, and (stale) the part's stale records, read once to place them.
            let stale_here =
                |d: &Value| stale && Indexed::is_stale(d) && d["name"] == expected[0]["name"];
            let placed = many().iter().filter(|d| stale_here(d)).count();
            let paged = expected.iter().filter(|d| !stale_here(d)).count();
            assert_eq!(
                src.reads,
                paged + placed,
                "{query:?} read {} records",
                src.reads
            );
        }
    }
    // Without the compound part, the same query reads and checks ann's and Bob's records.
    let query = q("name=ann&balance.gte=0&sort=-balance&limit=5&page=3");
    let mut src = Indexed::with_ranges(many());
    assert_eq!(
        query.run(&mut src, None).unwrap().items,
        query.select(many()).0
    );
    assert!(src.reads > 100, "{}", src.reads);
}

#[test]
fn an_in_and_a_range_count_from_the_parts_of_its_values() {
    // `name.in` with a range: the total is the sum of each value's part's counts (each corrected
    // for its stale entries), so only the page (and the stale records) is read; without the
    // parts, every record is read to count.
    for query in [
        "name.in=ann,Bob&balance.gte=1&sort=-balance&limit=5",
        "name.in=ann,Zed&balance.between=-2|2&sort=balance&limit=5&page=2",
        "name.in=Bob,ann,Bob&balance.lt=0",
        "name.in=Bob&balance.gte=-1&sort=-updatedAt&limit=4",
    ] {
        let query = q(query);
        let (expected, total) = query.select(many());
        assert!(total > 100, "{query:?}: {total}");
        let mut src = Indexed::with_stale_ranges(many()).with_compound(true);
        let got = query.run(&mut src, None).unwrap();
        assert_eq!(got.items, expected, "{query:?}");
        assert_eq!(got.total, total, "{query:?}");
        assert!(src.reads < 500, "{query:?} read {} records", src.reads);
        let mut src = Indexed::with_stale_ranges(many());
        let got = query.run(&mut src, None).unwrap();
        assert_eq!((got.items, got.total), (expected, total), "{query:?}");
        assert!(src.reads >= 1000, "{query:?} read {} records", src.reads);
    }
}

#[test]
fn a_narrow_range_reads_only_its_span() {
    // Six records between -0.02 and 0.03 (the test threshold for a narrow span is 6 entries).
    let query = q("balance.between=-0.02|0.02&sort=name&limit=2");
    let mut src = Indexed::with_ranges(many());
    let got = query.run(&mut src, None).unwrap();
    let (expected, total) = query.select(many());
    assert_eq!((got.items, got.total), (expected, total));
    assert_eq!(total, 5);
    // The five in the span, and the page's two again.
    assert_eq!(src.reads, 7);
}

#[test]
fn covered_entries_read_only_the_page() {
    for (query, reads) in [
        // A narrow span: checked and sorted from the entries, the page read.
        ("balance.between=-0.02|0.02&sort=name&limit=2", 2),
        ("balance.between=-0.02|0.02&name=ann&limit=2", 2),
        // A walk in balance order with a condition the range does not decide, and its total.
        ("name=ann&balance.gte=1&sort=-balance&limit=3", 3),
        ("name=Bob&balance.lt=0&sort=balance&limit=4&page=3", 4),
        // `updatedAt` is not covered: every candidate is read.
        (
            "updatedAt.lt=2026-01-02T00:00:00.000Z&balance.gte=4.9&sort=-balance&limit=2",
            10,
        ),
    ] {
        let query = q(query);
        let (expected, total) = query.select(many());
        let mut src = Indexed::with_ranges(many()).with_covers(true);
        let got = query.run(&mut src, None).unwrap();
        assert_eq!((&got.items, got.total), (&expected, total), "{query:?}");
        assert!(total > 0, "{query:?}");
        assert_eq!(src.reads, reads, "{query:?}");
    }
}

/// A `key=value` condition with its value URL-encoded.
fn enc_query(cond: &str) -> String {
    let (k, v) = cond.split_once('=').unwrap_or((cond, ""));
    format!("{k}={}", enc(v))
}

#[test]
fn an_unknown_cursor_is_a_validation_error() {
    let query = q("startingAfter=ffffffffffffffffffffffff");
    let err = query.run(&mut Indexed::new(docs()), None).unwrap_err();
    assert_eq!(
        err,
        crate::error::ApiError::NotFound("The startingAfter record")
    );
}

/// Names and emails for text searches: case variants (the Kelvin sign, the long s, final sigma,
/// accented letters), short texts, a NUL and a newline.
const TEXTS: [&str; 19] = [
    "Ada Lovelace",
    "ADA KING",
    "Grace Hopper",
    "\u{212A}elvin Kay",
    "kelvin",
    "Straße",
    "STRASSE",
    "ſtar ship",
    "Σίσυφος",
    "ΣΊΣΥΦΟΣ",
    "σίσυφος",
    "Émile Zola",
    "emile",
    "abab",
    "a",
    "",
    "Dee",
    "x\u{0}yz",
    "ada\nlove",
];
const EMAILS: [&str; 8] = [
    "ada@example.com",
    "ADA@EXAMPLE.COM",
    "grace@navy.mil",
    "k@kelvin.org",
    "strasse@b.de",
    "zoë@ex.org",
    "",
    "sisyphus@gr",
];

/// Searches: literals, case variants (non-ASCII too), alternations, classes, repetitions, and
/// patterns that require no gram (answered by the one pass).
const TEXT_SEARCHES: [&str; 40] = [
    "ada",
    "ADA",
    "lov",
    "ada lov",
    "ada|grace",
    "(ada|gra)ce?",
    "[ae]mil",
    "kel",
    "\u{212A}EL",
    "(?-i)Kel",
    "stra",
    "ſta",
    "STA",
    "σίσ",
    "ΣΊΣ",
    "φος",
    "ΦΟΣ",
    "émi",
    "ÉMI",
    "ada.*ex",
    "ex.*com$",
    "^gra",
    "ov(e|a)",
    "a.a",
    ".*",
    "ab",
    "a|b",
    "(ab){2}",
    "ba+b",
    "[^a]da",
    "\\bkay",
    "x\u{0}y",
    "ada\\nlo",
    "example\\.com",
    "\\w{3}",
    "hop{2}",
    "n@|zoë",
    "@ex",
    "[a-f]{3}",
    "(?i)ELV|ASS",
];

const SEARCH_IN: [&str; 5] = [
    "",
    "&searchIn=name",
    "&searchIn=person.email",
    "&searchIn=name,person.email",
    // `person.firstName` has no gram index: the one pass.
    "&searchIn=name,person.firstName",
];

/// `docs` with names and emails from [`TEXTS`] and [`EMAILS`] (some without an email).
fn texted_docs(docs: Vec<Value>, picks: &[(usize, Option<usize>)]) -> Vec<Value> {
    docs.into_iter()
        .zip(picks.iter().cycle())
        .map(|(mut d, (name, email))| {
            d["name"] = json!(TEXTS[name % TEXTS.len()]);
            if let Some(e) = email {
                let e = EMAILS[e % EMAILS.len()];
                d["person"] = json!({"email": e, "firstName": TEXTS[(name + 3) % TEXTS.len()]});
            }
            d
        })
        .collect()
}

proptest! {
    #[test]
    fn text_searches_return_what_a_full_scan_returns(
        docs in arb_docs(),
        picks in prop::collection::vec((0..TEXTS.len(), prop::option::of(0..EMAILS.len())), 1..12),
        search in 0..TEXT_SEARCHES.len(), search_in in 0..SEARCH_IN.len(),
        sort in 0..RANGE_SORTS.len(), filter in prop::option::of(arb_filter()),
        indexed in prop::option::of(0..INDEXED.len()), page in 1u64..4, limit in 1u64..6,
        after in prop::option::of(any::<prop::sample::Index>()),
        before in prop::option::of(any::<prop::sample::Index>()),
    ) {
        let docs = ranged_docs(texted_docs(docs, &picks), &[0, 1, 2]);
        let sort = RANGE_SORTS[sort];
        let mut base = format!(
            "{sort}&search={}{}",
            enc(TEXT_SEARCHES[search]),
            SEARCH_IN[search_in]
        );
        if let Some(filter) = &filter {
            base.push('&');
            base.push_str(&expression_query(filter));
        }
        if let Some(i) = indexed {
            base.push('&');
            base.push_str(&enc_query(INDEXED[i]));
        }
        prop_assume!(parse(&base, &SCHEMA).is_ok());
        let query = q(&format!("{base}&page={page}&limit={limit}"));
        let (expected, total) = query.select(docs.clone());
        for ranges in [false, true] {
            let mut src = if ranges { Indexed::with_ranges(docs.clone()) } else { Indexed::new(docs.clone()) };
            let got = query.run(&mut src, None).unwrap();
            prop_assert_eq!(&got.items, &expected);
            prop_assert_eq!(got.total, total);
            prop_assert_eq!(got.has_more, total > page * limit);
        }
        if docs.is_empty() {
            return Ok(());
        }
        let id = |i: &prop::sample::Index| docs[i.index(docs.len())]["_id"].as_str().unwrap_or_default().to_string();
        let (after, before) = (after.as_ref().map(id), before.as_ref().map(id));
        let mut query = format!("{base}&limit={limit}&page={page}");
        if let Some(a) = &after {
            query.push_str(&format!("&startingAfter={a}"));
        }
        if let Some(b) = &before {
            query.push_str(&format!("&endingBefore={b}"));
        }
        let (expected, more) = by_cursor(sort, &base, &docs, (after.as_deref(), before.as_deref()), page as usize, limit as usize);
        let got = q(&query).run(&mut Indexed::new(docs), None).unwrap();
        prop_assert_eq!(&got.items, &expected);
        prop_assert_eq!(got.has_more, more);
        prop_assert_eq!(got.total, total);
    }
}

/// 1000 documents, 10 of them named "Ada ...": a search for `ada` reads the candidates of its
/// gram (and the page again), not every record; one with no gram reads them all.
#[test]
fn a_text_search_reads_only_its_candidates() {
    let docs: Vec<Value> = many()
        .into_iter()
        .enumerate()
        .map(|(i, mut d)| {
            d["name"] = json!(if i % 100 == 7 {
                format!("Ada {i}")
            } else {
                format!("Grace {i}")
            });
            d["person"] = json!({"email": format!("p{i}@example.com")});
            d
        })
        .collect();
    for (query, reads) in [
        ("search=ada&limit=3", 10),
        ("search=(?i)aDa&limit=3&sort=name", 10 + 3),
        // " 99": Grace 99 and 990 to 999.
        ("search=ada|race 99&searchIn=name&limit=3", 10 + 11),
        ("search=a.a&limit=3", 1000),
    ] {
        let query = q(&query
            .replace('|', "%7C")
            .replace('?', "%3F")
            .replace(' ', "+"));
        let mut src = Indexed::new(docs.clone());
        let got = query.run(&mut src, None).unwrap();
        let (expected, total) = query.select(docs.clone());
        assert_eq!((&got.items, got.total), (&expected, total), "{query:?}");
        assert_eq!(src.reads, reads, "{query:?}");
    }
}
