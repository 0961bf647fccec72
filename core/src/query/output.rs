//! What a plan shows the caller: the list envelope, the normalized filter and the whole plan.

use serde_json::{Value, json};

use super::ListQuery;
use super::filter::normalized;

impl ListQuery {
    /// `{"statusCode":200,"message","data","meta","filter"}` for a page of (projected) items.
    pub fn envelope(&self, message: &str, items: Vec<Value>, total: u64, has_more: bool) -> Value {
        json!({
            "statusCode": 200,
            "message": message,
            "data": items,
            "meta": {
                "page": self.page,
                "limit": self.limit,
                "total": total,
                "pages": total.div_ceil(self.limit.max(1)),
                "sort": self.raw.sort,
                "fields": self.raw.fields,
                "search": self.raw.search,
                "searchIn": self.raw.search_in,
                "filter": self.raw.filter,
                "startingAfter": self.after,
                "endingBefore": self.before,
                "hasMore": has_more,
            },
            "filter": self.filter_json(),
        })
    }

    /// The `filter` parameter and top-level filter parameters together, Mongo style; `{}` when none.
    pub fn filter_json(&self) -> Value {
        normalized(&self.conditions)
    }

    /// The normalized plan (what the browser's `parseListQuery` returns).
    pub fn to_json(&self) -> Value {
        json!({
            "page": self.page,
            "limit": self.limit,
            "sort": self.sort.iter().map(|k| json!({
                "field": k.path,
                "order": if k.desc { "desc" } else { "asc" },
            })).collect::<Vec<_>>(),
            "fields": self.fields,
            "search": self.search.as_ref().map(|re| re.as_str()),
            "searchIn": self.search_in,
            "filter": self.filter_json(),
            "populate": self.populate.iter().map(|p| json!({
                "name": p.name,
                "fields": p.fields,
            })).collect::<Vec<_>>(),
        })
    }
}
