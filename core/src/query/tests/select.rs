//! Sorting (and its tie-break), paging, search, projection and the envelope.

use serde_json::json;

use super::super::project_fields;
use super::*;

#[test]
fn default_sort_is_newest_first_with_id_tie_break() {
    assert_eq!(pick(""), ["a6", "a5", "a4", "a3", "a2", "a1"]);
    assert_eq!(pick("sort=createdAt"), ["a1", "a2", "a3", "a4", "a5", "a6"]);
}

#[test]
fn missing_values_sort_first_ascending_and_last_descending() {
    assert_eq!(pick("sort=balance"), ["a6", "a4", "a2", "a1", "a3", "a5"]);
    assert_eq!(pick("sort=-balance"), ["a5", "a3", "a1", "a2", "a4", "a6"]);
}

#[test]
fn strings_sort_by_code_point() {
    assert_eq!(pick("sort=name"), ["a1", "a3", "a5", "a6", "a2", "a4"]);
    assert_eq!(
        pick("sort=-person.firstName"),
        ["a4", "a2", "a6", "a5", "a3", "a1"]
    );
}

#[test]
fn ties_break_on_id_in_the_direction_of_the_last_key() {
    assert_eq!(pick("sort=active"), ["a2", "a5", "a1", "a3", "a4", "a6"]);
    assert_eq!(pick("sort=-active"), ["a6", "a4", "a3", "a1", "a5", "a2"]);
    assert_eq!(
        pick("sort=-active,createdAt"),
        ["a1", "a3", "a4", "a6", "a2", "a5"]
    );
    assert_eq!(
        pick("sort=active,-createdAt"),
        ["a5", "a2", "a6", "a4", "a3", "a1"]
    );
    assert_eq!(pick("sort=-_id"), ["a6", "a5", "a4", "a3", "a2", "a1"]);
}

#[test]
fn free_form_sorts_by_type_then_value() {
    // missing (a4, a5, a6), then numbers 9 and 10, then the text "100".
    assert_eq!(
        pick("sort=metadata.score"),
        ["a4", "a5", "a6", "a2", "a1", "a3"]
    );
}

#[test]
fn input_order_does_not_matter() {
    let mut reversed = docs();
    reversed.reverse();
    for query in ["", "sort=active", "sort=-balance,name", "sort=createdAt"] {
        let (a, _) = q(query).select(docs());
        let (b, _) = q(query).select(reversed.clone());
        assert_eq!(a, b, "{query}");
    }
}

#[test]
fn paging() {
    let (items, total) = q("limit=2&page=2").select(docs());
    assert_eq!((ids(&items), total), (vec!["a4", "a3"], 6));
    let (items, total) = q("limit=4&page=2").select(docs());
    assert_eq!((ids(&items), total), (vec!["a2", "a1"], 6));
    let (items, total) = q("limit=2&page=4").select(docs());
    assert_eq!((items.len(), total), (0, 6));
    let (items, total) = q("limit=200&page=18446744073709551615").select(docs());
    assert_eq!((items.len(), total), (0, 6));
    let (items, total) = q("limit=2&active=true").select(docs());
    assert_eq!((ids(&items), total), (vec!["a6", "a4"], 4));
}

#[test]
fn search_default_fields_case_insensitive() {
    assert_eq!(pick("search=ALI"), ["a1"]);
    assert_eq!(pick("search=%5Eb"), ["a2"]);
    // person.email is a default field.
    assert_eq!(
        pick("search=example.com%24"),
        ["a6", "a5", "a4", "a3", "a2", "a1"]
    );
    assert_eq!(pick("search=nobody"), Vec::<String>::new());
    assert_eq!(pick("search="), ["a6", "a5", "a4", "a3", "a2", "a1"]);
}

#[test]
fn search_in_chosen_fields_of_any_type() {
    assert_eq!(pick("searchIn=metadata&search=GOLD"), ["a3", "a1"]);
    assert_eq!(pick("searchIn=metadata.tier&search=^s"), ["a2"]);
    assert_eq!(pick("searchIn=balance&search=%5E100"), ["a1"]);
    assert_eq!(pick("searchIn=balance&search=%5E(100%7C999)"), ["a5", "a1"]);
    assert_eq!(pick("searchIn=tags&search=%5Ez%24"), ["a2"]);
    assert_eq!(pick("searchIn=active,name&search=%5Efalse"), ["a5", "a2"]);
    // The search is ANDed with the filter.
    assert_eq!(pick("searchIn=name&search=e&active=false"), ["a5"]);
    // searchIn without search changes nothing.
    assert_eq!(pick("searchIn=name").len(), 6);
}

#[test]
fn projection() {
    let d = docs().remove(0);
    assert_eq!(q("").project(d.clone()), d);
    assert_eq!(
        q("fields=name").project(d.clone()),
        json!({"_id": "a1", "name": "Alice"})
    );
    assert_eq!(
        q("fields=person.email").project(d.clone()),
        json!({"_id": "a1", "person": {"email": "alice@example.com"}})
    );
    assert_eq!(
        q("fields=metadata.tier,balance,person.email,person").project(d.clone()),
        json_text(
            r#"{"_id": "a1", "person": {"email": "alice@example.com", "firstName": "Alice"},
                "balance": 100.50, "metadata": {"tier": "gold"}}"#
        )
    );
    // A path the document lacks selects nothing.
    let d4 = docs().remove(3);
    assert_eq!(q("fields=metadata.tier").project(d4), json!({"_id": "a4"}));
}

#[test]
fn populated_relations_are_always_kept() {
    let mut d = docs().remove(0);
    d["owner"] = json!({"_id": "o1", "name": "Olga", "email": "o@x"});
    assert_eq!(
        q("fields=name&populate=owner").project(d),
        json!({"_id": "a1", "name": "Alice", "owner": {"_id": "o1", "name": "Olga", "email": "o@x"}})
    );
}

#[test]
fn project_fields_rules() {
    let d = json!({"_id": 1, "items": [{"a": 1, "b": 2}, {"b": 3}, 5], "x": {"y": null}, "n": 7});
    assert_eq!(
        project_fields(d.clone(), &["items.a".to_string()]),
        json!({"_id": 1, "items": [{"a": 1}, {}]})
    );
    assert_eq!(
        project_fields(d.clone(), &["x.y.z".to_string(), "n.m".to_string()]),
        json!({"_id": 1, "x": {}})
    );
    assert_eq!(
        project_fields(d.clone(), &["n".to_string(), "x.y".to_string()]),
        json!({"_id": 1, "x": {"y": null}, "n": 7})
    );
    assert_eq!(project_fields(json!(null), &["a".to_string()]), json!(null));
}

#[test]
fn envelope() {
    let x = q("limit=2&fields=name&active=true&balance.gt=0");
    let (items, total) = x.select(docs());
    let items: Vec<Value> = items.into_iter().map(|d| x.project(d)).collect();
    assert_eq!(
        x.envelope("Things fetched successfully", items, total, true),
        json!({
            "statusCode": 200,
            "message": "Things fetched successfully",
            "data": [{"_id": "a4", "name": "dave"}, {"_id": "a3", "name": "Carol"}],
            "meta": {
                "page": 1, "limit": 2, "total": 3, "pages": 2,
                "sort": null, "fields": "name", "search": null, "searchIn": null, "filter": null,
                "startingAfter": null, "endingBefore": null, "hasMore": true,
            },
            "filter": {"active": true, "balance": {"$gt": 0}},
        })
    );
}
