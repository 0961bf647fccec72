//! Running a plan over documents: filter, search, sort (with the `_id` tie-break) and the page.

use std::cmp::Ordering;

use regex::Regex;
use serde_json::Value;

use super::schema::lookup;
use super::value::{SortVal, loose_text};
use super::{FieldType, ListQuery};

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SortKey {
    pub(crate) path: String,
    pub(crate) ftype: FieldType,
    pub(crate) desc: bool,
}

fn directed(o: Ordering, desc: bool) -> Ordering {
    if desc { o.reverse() } else { o }
}

impl ListQuery {
    /// Whether `doc` passes every filter condition and the search.
    pub fn matches(&self, doc: &Value) -> bool {
        self.conditions.iter().all(|c| c.matches(doc))
            && self.search.as_ref().is_none_or(|re| {
                self.search_in
                    .iter()
                    .any(|p| lookup(doc, p).is_some_and(|v| text_matches(v, re)))
            })
    }

    /// Filters, searches and sorts `docs`, then cuts the requested page. Returns the page (documents
    /// whole, not projected) and the total after filter and search.
    pub fn select(&self, docs: Vec<Value>) -> (Vec<Value>, u64) {
        let mut rows: Vec<(Vec<SortVal>, SortVal, Value)> = docs
            .into_iter()
            .filter(|d| self.matches(d))
            .map(|d| {
                let keys = self
                    .sort
                    .iter()
                    .map(|k| SortVal::of(k.ftype, lookup(&d, &k.path)))
                    .collect();
                let id = SortVal::of(FieldType::Str, d.get("_id"));
                (keys, id, d)
            })
            .collect();
        // Ties break on `_id` in the direction of the last sort key, so the order is total.
        let id_desc = self.sort.last().is_some_and(|k| k.desc);
        rows.sort_by(|a, b| {
            self.sort
                .iter()
                .zip(a.0.iter().zip(&b.0))
                .map(|(k, (x, y))| directed(x.cmp(y), k.desc))
                .find(|o| o.is_ne())
                .unwrap_or_else(|| directed(a.1.cmp(&b.1), id_desc))
        });
        let total = rows.len() as u64;
        let skip =
            usize::try_from((self.page - 1).saturating_mul(self.limit)).unwrap_or(usize::MAX);
        let take = usize::try_from(self.limit).unwrap_or(usize::MAX);
        let page = rows
            .into_iter()
            .skip(skip)
            .take(take)
            .map(|r| r.2)
            .collect();
        (page, total)
    }
}

/// Whether any scalar inside `v` (arrays and objects searched through), as text, matches.
pub(super) fn text_matches(v: &Value, re: &Regex) -> bool {
    match v {
        Value::Array(items) => items.iter().any(|x| text_matches(x, re)),
        Value::Object(map) => map.values().any(|x| text_matches(x, re)),
        other => loose_text(other).is_some_and(|t| re.is_match(&t)),
    }
}
