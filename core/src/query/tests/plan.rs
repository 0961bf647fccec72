//! The planner against the full scan: for random documents, indexes, filters, sorts, pages and
//! cursors, [`ListQuery::run`] over an indexed source returns exactly what [`ListQuery::select`]
//! makes of every document.

use proptest::prelude::*;

use super::props::{SORTS, arb_docs, arb_filter, expression_query};
use super::*;
use crate::error::ApiResult;
use crate::query::{ALL, Documents, Pos, Source};

/// Documents with indexes on `name` and `active` (stored as text, like the service's enums), read a
/// chunk at a time, as a store would.
struct Indexed {
    docs: Documents,
    all: Vec<Value>,
}

impl Indexed {
    fn new(docs: Vec<Value>) -> Indexed {
        Indexed {
            docs: Documents::new(docs.clone()),
            all: docs,
        }
    }

    fn value_of(doc: &Value, field: &str) -> Option<String> {
        doc.get(field).and_then(Value::as_str).map(str::to_string)
    }
}

impl Source for Indexed {
    fn indexed(&self) -> &'static [&'static str] {
        &["name", "ownerId"]
    }

    fn count(&mut self, field: &str, value: &str) -> ApiResult<u64> {
        Ok(self
            .all
            .iter()
            .filter(|d| field == ALL || Indexed::value_of(d, field).as_deref() == Some(value))
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
            out.extend(rows.into_iter().filter(|(_, d)| {
                field == ALL || Indexed::value_of(d, field).as_deref() == Some(value)
            }));
        }
        out.truncate(n);
        Ok(out)
    }

    fn find(&mut self, id: &str) -> ApiResult<Option<(Pos, Value)>> {
        self.docs.find(id)
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

const INDEXED: [&str; 4] = ["name=ann", "name=Bob", "name.in=cy,Dee,cy", "ownerId=o1"];

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

#[test]
fn an_unknown_cursor_is_a_validation_error() {
    let query = q("startingAfter=ffffffffffffffffffffffff");
    let err = query.run(&mut Indexed::new(docs()), None).unwrap_err();
    assert_eq!(
        err,
        crate::error::ApiError::NotFound("The startingAfter record")
    );
}
