//! Filter operators in both forms and as top-level parameters, typing, errors, normalization.

use serde_json::json;

use super::*;

/// The ids matched by a JSON filter.
fn pick_json(filter: &str) -> Vec<String> {
    pick(&format!("filter={}", enc(filter)))
}

/// The ids matched by a filter expression inside `filter`.
fn pick_expr(expr: &str) -> Vec<String> {
    pick(&format!("filter={}", enc(expr)))
}

#[test]
fn eq_in_every_form() {
    assert_eq!(pick("name=bob"), ["a2"]);
    assert_eq!(pick_expr("name=bob"), ["a2"]);
    assert_eq!(pick_json(r#"{"name":"bob"}"#), ["a2"]);
    assert_eq!(pick_json(r#"{"name":{"eq":"bob"}}"#), ["a2"]);
    assert_eq!(pick_json(r#"{"name":{"$eq":"bob"}}"#), ["a2"]);
    assert_eq!(pick("name.eq=bob"), ["a2"]);
    assert_eq!(pick("name.$eq=bob"), ["a2"]);
    // Equality is exact and case-sensitive.
    assert_eq!(pick("name=Bob"), Vec::<String>::new());
}

#[test]
fn ne_matches_missing_fields_too() {
    assert_eq!(pick("name.ne=bob"), ["a6", "a5", "a4", "a3", "a1"]);
    assert_eq!(pick("balance.ne=20"), ["a6", "a5", "a4", "a3", "a1"]);
    assert_eq!(
        pick_json(r#"{"balance":{"$ne":20}}"#),
        ["a6", "a5", "a4", "a3", "a1"]
    );
}

#[test]
fn numbers_compare_exactly() {
    assert_eq!(pick("balance=100.5"), ["a1"]);
    assert_eq!(pick("balance=100.500"), ["a1"]);
    assert_eq!(pick("balance.gt=100.5"), ["a5", "a3"]);
    assert_eq!(pick("balance.gte=100.5"), ["a5", "a3", "a1"]);
    assert_eq!(pick("balance.lt=20"), ["a4"]);
    assert_eq!(pick("balance.lte=20"), ["a4", "a2"]);
    // Beyond f64 precision (as an f64, 999999999999999.99 and .98 are both 1e15): only the exact
    // value matches.
    assert_eq!(pick("balance.gt=999999999999999.98"), ["a5"]);
    assert_eq!(pick("balance=999999999999999.99"), ["a5"]);
    assert_eq!(pick("balance=1000000000000000"), Vec::<String>::new());
    assert_eq!(pick_json(r#"{"balance":999999999999999.99}"#), ["a5"]);
    assert_eq!(pick_json(r#"{"balance":{"gte":1e2,"lt":"3e2"}}"#), ["a1"]);
}

#[test]
fn in_and_nin() {
    assert_eq!(pick("name.in=bob,dave,nobody"), ["a4", "a2"]);
    assert_eq!(pick_json(r#"{"name":{"in":["bob","dave"]}}"#), ["a4", "a2"]);
    assert_eq!(pick_json(r#"{"name":{"$in":"bob,dave"}}"#), ["a4", "a2"]);
    assert_eq!(pick("balance.in=20,300.00"), ["a3", "a2"]);
    assert_eq!(pick("name.nin=bob,dave"), ["a6", "a5", "a3", "a1"]);
    assert_eq!(
        pick_json(r#"{"balance":{"nin":[20,300]}}"#),
        ["a6", "a5", "a4", "a1"]
    );
}

#[test]
fn between_is_inclusive() {
    assert_eq!(
        pick(&format!("balance.between={}", enc("20|100.5"))),
        ["a2", "a1"]
    );
    assert_eq!(
        pick_json(r#"{"balance":{"between":[20,100.5]}}"#),
        ["a2", "a1"]
    );
    assert_eq!(
        pick_json(r#"{"balance":{"$between":"20|100.5"}}"#),
        ["a2", "a1"]
    );
    let range = "2026-01-02T00:00:00.000Z|2026-01-04T00:00:00Z";
    assert_eq!(
        pick(&format!("createdAt.between={}", enc(range))),
        ["a4", "a3", "a2"]
    );
}

#[test]
fn exists() {
    assert_eq!(pick("balance.exists=false"), ["a6"]);
    assert_eq!(pick("balance.exists=true"), ["a5", "a4", "a3", "a2", "a1"]);
    assert_eq!(pick("metadata.exists=true"), ["a3", "a2", "a1"]);
    assert_eq!(pick("metadata.vip.exists=true"), ["a1"]);
    assert_eq!(
        pick_json(r#"{"metadata":{"exists":false}}"#),
        ["a6", "a5", "a4"]
    );
    // Null counts as absent.
    let mut d = docs();
    d[0]["balance"] = Value::Null;
    let (items, _) = q("balance.exists=false").select(d);
    assert_eq!(ids(&items), ["a6", "a1"]);
}

#[test]
fn json_null_means_missing_or_null() {
    assert_eq!(pick_json(r#"{"balance":null}"#), ["a6"]);
    assert_eq!(
        pick_json(r#"{"balance":{"ne":null}}"#),
        ["a5", "a4", "a3", "a2", "a1"]
    );
}

#[test]
fn dates_compare_as_instants() {
    assert_eq!(
        pick("createdAt.gte=2026-01-04T00:00:00Z"),
        ["a6", "a5", "a4"]
    );
    // Same instant written with an offset (an encoded `+`).
    let t = enc("2026-01-04T01:00:00+01:00");
    assert_eq!(pick(&format!("createdAt.gte={t}")), ["a6", "a5", "a4"]);
    // An unencoded `+` arrives as a space and is read back as `+`.
    assert_eq!(
        pick("createdAt.gte=2026-01-04T01:00:00+01:00"),
        ["a6", "a5", "a4"]
    );
    assert_eq!(pick("createdAt=2026-01-02T00:00:00.000Z"), ["a3", "a2"]);
    assert_eq!(
        pick_json(r#"{"createdAt":{"lt":"2026-01-02T00:00:00Z"}}"#),
        ["a1"]
    );
}

#[test]
fn booleans() {
    assert_eq!(pick("active=false"), ["a5", "a2"]);
    assert_eq!(pick_json(r#"{"active":true}"#), ["a6", "a4", "a3", "a1"]);
    assert_eq!(pick_json(r#"{"active":"false"}"#), ["a5", "a2"]);
}

#[test]
fn nested_and_free_form_paths() {
    assert_eq!(pick("person.email=bob@example.com"), ["a2"]);
    assert_eq!(
        pick_json(r#"{"person.firstName":{"in":["Eve","Carol"]}}"#),
        ["a5", "a3"]
    );
    assert_eq!(pick("metadata.tier=gold"), ["a3", "a1"]);
    // Loose: numbers (and numeric text) compare as numbers: 10, 9 and "100".
    assert_eq!(pick("metadata.score.gte=10"), ["a3", "a1"]);
    assert_eq!(pick_json(r#"{"metadata.score":{"gt":9.5}}"#), ["a3", "a1"]);
    assert_eq!(pick("metadata.score=100"), ["a3"]);
    assert_eq!(pick_json(r#"{"metadata.vip":true}"#), ["a1"]);
    // Non-numbers compare as text.
    assert_eq!(pick("metadata.tier.gt=g"), ["a3", "a2", "a1"]);
    assert_eq!(pick("metadata.tier.lt=h"), ["a3", "a1"]);
}

#[test]
fn array_fields_match_any_element() {
    assert_eq!(pick("tags=x"), ["a1"]);
    assert_eq!(pick("tags.in=y,z"), ["a2", "a1"]);
    assert_eq!(pick("tags.ne=x"), ["a6", "a5", "a4", "a3", "a2"]);
    assert_eq!(pick("tags.nin=x,z"), ["a6", "a5", "a4", "a3"]);
}

#[test]
fn conditions_are_anded_across_filter_and_top_level() {
    let query = format!(
        "filter={}&active=true&balance.lte=300",
        enc(r#"{"balance":{"gte":100}}"#)
    );
    assert_eq!(pick(&query), ["a3", "a1"]);
    let query = format!(
        "filter={}&name.ne=Carol",
        enc("balance.gte=100&active=true")
    );
    assert_eq!(pick(&query), ["a1"]);
}

#[test]
fn a_key_splits_into_field_and_operator_only_when_both_are_known() {
    // `person.email` ends in a non-operator: the whole key is the field.
    let x = q("person.email=bob@example.com");
    assert_eq!(x.filter_json(), json!({"person.email": "bob@example.com"}));
    // A free-form sub path ending in an operator: field `metadata.gt`, operator lt.
    assert_eq!(
        q("metadata.gt.lt=5").filter_json(),
        json!({"metadata.gt": {"$lt": 5}})
    );
    assert_eq!(
        q("metadata.a=true&metadata.b=x&metadata.c=007").filter_json(),
        json!({"metadata.a": true, "metadata.b": "x", "metadata.c": "007"})
    );
    assert_eq!(
        errs("balance.foo=1"),
        vec![fe("balance.foo", "unknown field 'balance.foo'")]
    );
}

#[test]
fn type_errors_name_the_parameter_and_the_field() {
    assert_eq!(
        errs("balance=abc&active=yes&createdAt.gt=yesterday&balance.in=1,x"),
        vec![
            fe("balance", "'balance' must be a number"),
            fe("active", "'active' must be true or false"),
            fe("createdAt.gt", "'createdAt' must be an RFC 3339 date"),
            fe("balance.in", "'balance' must be a number"),
        ]
    );
    let json_filter =
        r#"{"balance":"abc","name":5,"active":1,"createdAt":{"gt":false},"metadata.x":[1]}"#;
    assert_eq!(
        errs(&format!("filter={}", enc(json_filter))),
        vec![
            fe("filter", "'balance' must be a number"),
            fe("filter", "'name' must be a string"),
            fe("filter", "'active' must be true or false"),
            fe("filter", "'createdAt' must be an RFC 3339 date"),
            fe(
                "filter",
                "'metadata.x' must be a value or an object of operators"
            ),
        ]
    );
}

/// A filter's number is held to what the OpenAPI document says of it (at most 2 decimal places,
/// within ±1e15, like the amounts it compares with), in both forms.
#[test]
fn filter_numbers_keep_the_documented_bounds() {
    assert_eq!(
        errs("balance.gt=0.001&balance.lt=1000000000000000.01&balance.ne=32612401086477290"),
        vec![
            fe("balance.gt", "'balance' must have at most 2 decimal places"),
            fe("balance.lt", "'balance' must be between -1e15 and 1e15"),
            fe("balance.ne", "'balance' must be between -1e15 and 1e15"),
        ]
    );
    let json_filter = r#"{"balance":{"eq":0.37,"ne":3.261240108647729e+16}}"#;
    assert_eq!(
        errs(&format!("filter={}", enc(json_filter))),
        vec![fe("filter", "'balance' must be between -1e15 and 1e15")]
    );
    // The bounds themselves, and trailing zeros past the second place, pass.
    q("balance.gte=-1000000000000000&balance.lte=1e15&balance.ne=0.500");
}

#[test]
fn operator_shape_errors() {
    let json_filter = r#"{"balance":{"between":[1],"in":5,"gt":null,"foo":1},"name":{"exists":"maybe"},"active":{}}"#;
    assert_eq!(
        errs(&format!("filter={}", enc(json_filter))),
        vec![
            fe(
                "filter",
                "'balance' needs two values for between: [a, b] or \"a|b\""
            ),
            fe(
                "filter",
                "'balance' needs an array or a comma-separated list for in/nin"
            ),
            fe("filter", "'balance' must not be null"),
            fe("filter", "unknown operator 'foo' for 'balance'"),
            fe("filter", "'name' must be true or false for exists"),
            fe("filter", "'active' has no operators"),
        ]
    );
    assert_eq!(
        errs(&format!(
            "balance.between=1&name.exists=maybe&filter={}",
            enc("name&x")
        )),
        vec![
            fe("filter", "'name' is not a field=value condition"),
            fe("filter", "'x' is not a field=value condition"),
            fe(
                "balance.between",
                "'balance' needs two values for between, written a|b"
            ),
            fe("name.exists", "'name' must be true or false for exists"),
        ]
    );
}

#[test]
fn unknown_and_object_fields_are_refused() {
    assert_eq!(
        errs(&format!(
            "filter={}&person=x",
            enc(r#"{"nope":1,"person":{"exists":true}}"#)
        )),
        vec![
            fe("filter", "unknown field 'nope'"),
            fe(
                "filter",
                "'person' is an object; filter on one of its fields"
            ),
            fe(
                "person",
                "'person' is an object; filter on one of its fields"
            ),
        ]
    );
}

#[test]
fn bad_json_is_a_field_error() {
    let e = errs(&format!("filter={}", enc(r#"{"name":"#)));
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].field, "filter");
    assert!(
        e[0].message.starts_with("is not valid JSON"),
        "{}",
        e[0].message
    );
}

#[test]
fn the_same_condition_twice_is_refused() {
    assert_eq!(
        errs(&format!(
            "filter={}&balance.gte=2",
            enc(r#"{"balance":{"gte":1}}"#)
        )),
        vec![fe(
            "balance.gte",
            "'balance' has more than one 'gte' condition"
        )]
    );
    assert_eq!(
        errs("name=a&name=b"),
        vec![fe("name", "'name' has more than one 'eq' condition")]
    );
    assert_eq!(
        errs(&format!(
            "filter={}",
            enc(r#"{"balance":{"gte":1,"$gte":2}}"#)
        )),
        vec![fe("filter", "'balance' has more than one 'gte' condition")]
    );
}

#[test]
fn normalized_filter() {
    assert_eq!(q("").filter_json(), json!({}));
    let query = format!(
        "filter={}&balance.lte=500&createdAt.gte={}&active=true",
        enc(
            r#"{"name":"bob","balance":{"gte":100.50},"tags":{"in":["x"]},"metadata.n":{"between":[1,"z"]},"ownerId":{"exists":true}}"#
        ),
        enc("2026-01-01T01:00:00+01:00"),
    );
    assert_eq!(
        q(&query).filter_json(),
        json_text(
            r#"{"name": "bob", "balance": {"$gte": 100.50, "$lte": 500}, "tags": {"$in": ["x"]},
                "metadata.n": {"$between": [1, "z"]}, "ownerId": {"$exists": true},
                "createdAt": {"$gte": "2026-01-01T00:00:00.000Z"}, "active": true}"#
        )
    );
    // Numbers keep their exact text.
    assert_eq!(
        serde_json::to_string(&q("balance.gte=100.50").filter_json()).unwrap_or_default(),
        r#"{"balance":{"$gte":100.50}}"#
    );
    // An equality next to other operators goes inside the object.
    assert_eq!(
        q("name=bob&name.ne=x&balance.nin=1,2").filter_json(),
        json!({"name": {"$eq": "bob", "$ne": "x"}, "balance": {"$nin": [1, 2]}})
    );
    // The envelope carries the same object.
    assert_eq!(
        q("active=true").envelope("m", vec![], 0, false)["filter"],
        json!({"active": true})
    );
}
