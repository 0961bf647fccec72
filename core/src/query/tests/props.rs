//! Property tests: paging partitions the result, totals ignore paging, the order is total and
//! independent of input order, and the JSON and expression filter forms agree.

use proptest::prelude::*;
use serde_json::json;

use super::*;

pub(super) const DATES: [&str; 4] = [
    "2026-01-01T00:00:00.000Z",
    "2026-01-02T00:00:00.000Z",
    "2026-01-02T12:00:00.000Z",
    "2026-01-03T00:00:00.000Z",
];
const NAMES: [&str; 4] = ["ann", "Bob", "cy", "Dee"];
pub(super) const SORTS: [&str; 8] = [
    "",
    "sort=createdAt",
    "sort=name",
    "sort=-name",
    "sort=balance,-createdAt",
    "sort=-balance",
    "sort=active,name",
    "sort=-active,-metadata.n",
];

/// Documents with unique ids (in random order) and few distinct values, so sort keys tie often.
pub(super) fn arb_docs() -> impl Strategy<Value = Vec<Value>> {
    prop::collection::vec(
        (
            0..DATES.len(),
            0..NAMES.len(),
            prop::option::of(-300i64..300),
            any::<bool>(),
            prop::option::of(0..4u8),
        ),
        0..40,
    )
    .prop_flat_map(|rows| {
        let n = rows.len();
        (Just(rows), Just((0..n).collect::<Vec<_>>()).prop_shuffle())
    })
    .prop_map(|(rows, order)| {
        rows.into_iter()
            .zip(order)
            .map(|((date, name, cents, active, n), id)| {
                let mut d = json!({
                    "_id": format!("{id:024x}"),
                    "createdAt": DATES[date],
                    "name": NAMES[name],
                    "active": active,
                });
                if let Some(c) = cents {
                    d["balance"] = json_text(&rust_decimal::Decimal::new(c, 2).to_string());
                }
                if let Some(n) = n {
                    d["metadata"] = json!({"n": n});
                }
                d
            })
            .collect()
    })
}

/// One condition in both forms: (expression `key=value`, JSON `"field": spec`).
fn arb_condition() -> impl Strategy<Value = (String, String)> {
    prop_oneof![
        (0..NAMES.len()).prop_map(|i| (
            format!("name={}", NAMES[i]),
            format!(r#""name":"{}""#, NAMES[i])
        )),
        (0..NAMES.len(), 0..NAMES.len()).prop_map(|(i, j)| (
            format!("name.in={},{}", NAMES[i], NAMES[j]),
            format!(r#""name":{{"$in":["{}","{}"]}}"#, NAMES[i], NAMES[j])
        )),
        (0..NAMES.len()).prop_map(|i| (
            format!("name.nin={}", NAMES[i]),
            format!(r#""name":{{"nin":"{}"}}"#, NAMES[i])
        )),
        (-300i64..300, 0usize..6).prop_map(|(c, op)| {
            let op = ["gt", "gte", "lt", "lte", "ne", "eq"][op];
            let v = format!("{}", rust_decimal::Decimal::new(c, 2));
            (
                format!("balance.{op}={v}"),
                format!(r#""balance":{{"{op}":{v}}}"#),
            )
        }),
        (-300i64..300, 0i64..300).prop_map(|(lo, w)| {
            let (lo, hi) = (
                rust_decimal::Decimal::new(lo, 2),
                rust_decimal::Decimal::new(lo + w, 2),
            );
            (
                format!("balance.between={lo}|{hi}"),
                format!(r#""balance":{{"between":[{lo},{hi}]}}"#),
            )
        }),
        any::<bool>().prop_map(|b| (format!("active={b}"), format!(r#""active":{b}"#))),
        any::<bool>().prop_map(|b| (
            format!("balance.exists={b}"),
            format!(r#""balance":{{"$exists":{b}}}"#)
        )),
        (0..DATES.len(), any::<bool>()).prop_map(|(i, lt)| {
            let op = if lt { "lt" } else { "gte" };
            (
                format!("createdAt.{op}={}", DATES[i]),
                format!(r#""createdAt":{{"{op}":"{}"}}"#, DATES[i]),
            )
        }),
        (0u8..5).prop_map(|n| (
            format!("metadata.n.gte={n}"),
            format!(r#""metadata.n":{{"gte":{n}}}"#)
        )),
    ]
}

/// Distinct fields, so the two forms never repeat a (field, operator) pair.
pub(super) fn arb_filter() -> impl Strategy<Value = Vec<(String, String)>> {
    prop::collection::vec(arb_condition(), 0..4).prop_map(|conds| {
        let mut seen: Vec<String> = Vec::new();
        conds
            .into_iter()
            .filter(|(expr, _)| {
                let field = expr.split(['.', '=']).next().unwrap_or("").to_string();
                let fresh = !seen.contains(&field);
                seen.push(field);
                fresh
            })
            .collect()
    })
}

pub(super) fn expression_query(conds: &[(String, String)]) -> String {
    let expr: Vec<&str> = conds.iter().map(|(e, _)| e.as_str()).collect();
    if expr.is_empty() {
        String::new()
    } else {
        format!("filter={}", enc(&expr.join("&")))
    }
}

fn json_query(conds: &[(String, String)]) -> String {
    let body: Vec<&str> = conds.iter().map(|(_, j)| j.as_str()).collect();
    format!("filter={}", enc(&format!("{{{}}}", body.join(","))))
}

fn run(query: &str, docs: Vec<Value>) -> (Vec<Value>, u64) {
    q(query).select(docs)
}

proptest! {
    #[test]
    fn total_ignores_page_and_limit(docs in arb_docs(), sort in 0..SORTS.len(), filter in arb_filter(),
                                    page in 1u64..10, limit in 1u64..=200) {
        let base = format!("{}&{}", SORTS[sort], expression_query(&filter));
        let (_, all) = run(&format!("{base}&limit=200"), docs.clone());
        let (items, total) = run(&format!("{base}&page={page}&limit={limit}"), docs);
        prop_assert_eq!(total, all);
        prop_assert!(items.len() as u64 <= limit);
    }

    #[test]
    fn pages_partition_the_sorted_result(docs in arb_docs(), sort in 0..SORTS.len(), filter in arb_filter(),
                                         limit in 1u64..12) {
        let base = format!("{}&{}", SORTS[sort], expression_query(&filter));
        let (full, total) = run(&format!("{base}&limit=200"), docs.clone());
        prop_assert_eq!(full.len() as u64, total);
        let pages = q(&format!("{base}&limit={limit}")).envelope("m", vec![], total, false)["meta"]["pages"].as_u64();
        prop_assert_eq!(pages, Some(total.div_ceil(limit)));
        let mut joined = Vec::new();
        for page in 1..=total.div_ceil(limit) + 1 {
            let (items, t) = run(&format!("{base}&limit={limit}&page={page}"), docs.clone());
            prop_assert_eq!(t, total);
            joined.extend(items);
        }
        prop_assert_eq!(&joined, &full);
        let mut seen: Vec<&str> = ids(&joined);
        seen.sort_unstable();
        seen.dedup();
        prop_assert_eq!(seen.len(), joined.len());
    }

    #[test]
    fn order_is_total_and_ignores_input_order(docs in arb_docs(), sort in 0..SORTS.len()) {
        let query = format!("{}&limit=200", SORTS[sort]);
        let (sorted, _) = run(&query, docs.clone());
        let mut reversed = docs.clone();
        reversed.reverse();
        prop_assert_eq!(&run(&query, reversed).0, &sorted);
        // Neighbours equal on every sort key are ordered by _id in the last key's direction.
        let keys: Vec<(String, bool)> = q(&query).to_json()["sort"].as_array().cloned().unwrap_or_default()
            .iter().map(|k| (k["field"].as_str().unwrap_or("").to_string(), k["order"] == "desc")).collect();
        let desc = keys.last().is_some_and(|k| k.1);
        for pair in sorted.windows(2) {
            let same = keys.iter().all(|(f, _)| {
                let get = |d: &Value| super::super::schema::lookup(d, f).cloned().unwrap_or(Value::Null);
                get(&pair[0]) == get(&pair[1])
            });
            if same {
                let (a, b) = (pair[0]["_id"].as_str(), pair[1]["_id"].as_str());
                prop_assert!(if desc { a > b } else { a < b }, "{:?} then {:?}", a, b);
            }
        }
    }

    #[test]
    fn json_and_expression_filters_agree(docs in arb_docs(), filter in arb_filter()) {
        let by_expr = q(&expression_query(&filter));
        let by_json = q(&json_query(&filter));
        prop_assert_eq!(by_expr.filter_json(), by_json.filter_json());
        let limit = "&limit=200";
        prop_assert_eq!(
            run(&format!("{}{limit}", expression_query(&filter)), docs.clone()),
            run(&format!("{}{limit}", json_query(&filter)), docs.clone())
        );
        // The same conditions as top-level parameters.
        let top: Vec<String> = filter.iter().map(|(e, _)| {
            let (k, v) = e.split_once('=').unwrap_or((e, ""));
            format!("{k}={}", enc(v))
        }).collect();
        prop_assert_eq!(
            run(&format!("{}{limit}", top.join("&")), docs.clone()),
            run(&format!("{}{limit}", json_query(&filter)), docs.clone())
        );
        // The normalized filter, fed back in, selects the same documents.
        let again = format!("filter={}{limit}", enc(&by_json.filter_json().to_string()));
        prop_assert_eq!(
            run(&again, docs.clone()),
            run(&format!("{}{limit}", json_query(&filter)), docs)
        );
    }
}
