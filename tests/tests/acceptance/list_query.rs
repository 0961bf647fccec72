//! List queries (contract "List queries") on GET /accounts: paging, sort, projection, search, filter, envelope.

use std::time::Duration;

use acceptance::assert::envelope;
use acceptance::fixtures::{create_account, id};
use acceptance::*;
use serde_json::{Value, json};

/// Five accounts with distinct createdAt (oldest first).
///
/// | # | name            | currency | balance | status    | type     | ownerId | canDebit | network |
/// |---|-----------------|----------|---------|-----------|----------|---------|----------|---------|
/// | 0 | Alpha Operating | USD      | 100     | active    | checking | u1      | true     | null    |
/// | 1 | beta reserve    | EUR      | 250.5   | inactive  | savings  | null    | true     | null    |
/// | 2 | Gamma Treasury  | USD      | 0       | suspended | treasury | null    | true     | swift   |
/// | 3 | alpha payouts   | NGN      | 1000    | active    | checking | null    | false    | null    |
/// | 4 | Delta           | USD      | 99.99   | active    | credit   | u2      | true     | null    |
fn seed(t: &Tenant) -> Vec<Value> {
    let specs = [
        json!({"name": "Alpha Operating", "currency": "USD", "balance": 100, "ownerId": "u1"}),
        json!({"name": "beta reserve", "currency": "EUR", "balance": 250.5, "status": "inactive", "type": "savings"}),
        json!({"name": "Gamma Treasury", "currency": "USD", "status": "suspended", "type": "treasury", "network": "swift"}),
        json!({"name": "alpha payouts", "currency": "NGN", "balance": 1000, "canDebit": false}),
        json!({"name": "Delta", "currency": "USD", "balance": 99.99, "type": "credit", "ownerId": "u2"}),
    ];
    specs
        .into_iter()
        .map(|spec| {
            // Distinct milliseconds, so createdAt order is creation order without relying on the tie-break.
            std::thread::sleep(Duration::from_millis(3));
            create_account(t, spec)
        })
        .collect()
}

/// Query pairs and the names a query must find.
type Pairs<'a> = &'a [(&'a str, &'a str)];
type Names<'a> = &'a [&'a str];

fn names(resp: &Resp) -> Vec<String> {
    column(resp, "name")
        .into_iter()
        .map(|v| v.as_str().expect("name").to_string())
        .collect()
}

fn sorted_names(resp: &Resp) -> Vec<String> {
    let mut n = names(resp);
    n.sort();
    n
}

fn strs(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// JSON equality where numbers compare by exact decimal value (100 == 100.0) and object key order is free.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(_), Value::Number(_)) => dec(a) == dec(b),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

#[track_caller]
fn assert_filter_envelope(resp: &Resp, expected: Value) {
    resp.expect(200);
    assert!(
        same(&resp.body["filter"], &expected),
        "{}: envelope filter {} != expected {}",
        resp.request,
        resp.body["filter"],
        expected
    );
}

#[test]
fn defaults_and_meta() {
    let t = tenant();
    let accounts = seed(&t);
    let resp = t.get("/accounts");
    envelope(&resp, 200, "Accounts fetched successfully");
    let meta = &resp.body["meta"];
    assert_eq!(int(&meta["page"]), 1);
    assert_eq!(int(&meta["limit"]), 20);
    assert_eq!(int(&meta["total"]), 5);
    assert_eq!(int(&meta["pages"]), 1);
    for key in ["sort", "fields", "search", "searchIn", "filter"] {
        assert!(
            meta.get(key).is_some_and(Value::is_null),
            "meta.{key} present and null: {meta}"
        );
    }
    assert_eq!(resp.body["filter"], json!({}));
    // Default sort: newest first.
    let want: Vec<String> = accounts.iter().rev().map(id).collect();
    assert_eq!(ids(&resp), want);
    // List items are the same representation as single reads.
    assert_eq!(&resp.body["data"][4], &accounts[0]);
}

#[test]
fn empty_list() {
    let t = tenant();
    let resp = t.get("/accounts");
    assert_eq!(resp.data(200), &json!([]));
    assert_eq!(int(&resp.body["meta"]["total"]), 0);
    assert_eq!(int(&resp.body["meta"]["pages"]), 0);
}

#[test]
fn paging() {
    let t = tenant();
    let accounts = seed(&t);
    let newest_first: Vec<String> = accounts.iter().rev().map(id).collect();
    let mut walked = Vec::new();
    for page in 1..=3 {
        let resp = t.list("/accounts", &[("limit", "2"), ("page", &page.to_string())]);
        let meta = &resp.body["meta"];
        assert_eq!(int(&meta["page"]), page);
        assert_eq!(int(&meta["limit"]), 2);
        assert_eq!(int(&meta["total"]), 5);
        assert_eq!(int(&meta["pages"]), 3);
        walked.extend(ids(&resp));
    }
    assert_eq!(walked, newest_first);
    let beyond = t.list("/accounts", &[("limit", "2"), ("page", "4")]);
    assert!(ids(&beyond).is_empty());
    assert_eq!(int(&beyond.body["meta"]["total"]), 5);
    assert_eq!(ids(&t.list("/accounts", &[("limit", "1")])).len(), 1);
    assert_eq!(ids(&t.list("/accounts", &[("limit", "200")])).len(), 5);
    assert_eq!(
        int(&t.list("/accounts", &[("limit", "5")]).body["meta"]["pages"]),
        1
    );
    assert_eq!(
        int(&t.list("/accounts", &[("limit", "4")]).body["meta"]["pages"]),
        2
    );
}

#[test]
fn bad_page_and_limit_are_400() {
    let t = tenant();
    for bad in [
        "0",
        "201",
        "abc",
        "-1",
        "1.5",
        "1e2",
        "99999999999999999999999",
    ] {
        t.list("/accounts", &[("limit", bad)])
            .expect_field_error("limit");
    }
    for bad in ["0", "-1", "abc", "2.0"] {
        t.list("/accounts", &[("page", bad)])
            .expect_field_error("page");
    }
}

#[test]
fn meta_echoes_raw_strings() {
    let t = tenant();
    seed(&t);
    let pairs = [
        ("sort", "-balance,name"),
        ("fields", "name,balance"),
        ("search", "Al+pha|Delta"),
        ("searchIn", "name"),
        ("filter", r#"{"status": "active"}"#),
        ("page", "1"),
        ("limit", "3"),
    ];
    let resp = t.list("/accounts", &pairs);
    resp.expect(200);
    let meta = &resp.body["meta"];
    for (key, value) in &pairs[..5] {
        assert_eq!(meta[*key], json!(value), "meta.{key}: {meta}");
    }
    assert_eq!(int(&meta["limit"]), 3);
    // Top-level filter parameters are not the `filter` parameter: meta.filter stays null.
    let resp = t.list("/accounts", &[("status", "active")]);
    assert!(resp.body["meta"]["filter"].is_null(), "{}", resp.text);
}

#[test]
fn sort_numeric_ascending_and_descending() {
    let t = tenant();
    seed(&t);
    let resp = t.list("/accounts", &[("sort", "balance")]);
    let balances: Vec<_> = column(&resp, "balance").into_iter().map(dec).collect();
    assert_eq!(
        balances,
        vec![d("0"), d("99.99"), d("100"), d("250.5"), d("1000")]
    );
    let resp = t.list("/accounts", &[("sort", "-balance")]);
    let balances: Vec<_> = column(&resp, "balance").into_iter().map(dec).collect();
    assert_eq!(
        balances,
        vec![d("1000"), d("250.5"), d("100"), d("99.99"), d("0")]
    );
}

#[test]
fn sort_multi_key() {
    let t = tenant();
    seed(&t);
    let resp = t.list("/accounts", &[("sort", "currency,-balance")]);
    assert_eq!(
        names(&resp),
        vec![
            "beta reserve",
            "alpha payouts",
            "Alpha Operating",
            "Delta",
            "Gamma Treasury"
        ]
    );
    let resp = t.list("/accounts", &[("sort", "-currency,balance")]);
    assert_eq!(
        names(&resp),
        vec![
            "Gamma Treasury",
            "Delta",
            "Alpha Operating",
            "alpha payouts",
            "beta reserve"
        ]
    );
}

#[test]
fn sort_by_created_at() {
    let t = tenant();
    let accounts = seed(&t);
    let oldest_first: Vec<String> = accounts.iter().map(id).collect();
    assert_eq!(
        ids(&t.list("/accounts", &[("sort", "createdAt")])),
        oldest_first
    );
    let newest_first: Vec<String> = accounts.iter().rev().map(id).collect();
    assert_eq!(
        ids(&t.list("/accounts", &[("sort", "-createdAt")])),
        newest_first
    );
}

#[test]
fn ties_break_on_id_so_pages_are_stable() {
    let t = tenant();
    // Same status and currency for all: every sort key ties.
    let mut created: Vec<String> = (0..6).map(|_| id(&create_account(&t, json!({})))).collect();
    created.sort();
    for sort in ["status", "-status", "currency,status"] {
        let mut walked = Vec::new();
        for page in 1..=6 {
            let resp = t.list(
                "/accounts",
                &[("sort", sort), ("limit", "1"), ("page", &page.to_string())],
            );
            walked.extend(ids(&resp));
        }
        let mut asc = walked.clone();
        asc.sort();
        let mut desc = asc.clone();
        desc.reverse();
        assert!(
            walked == asc || walked == desc,
            "sort={sort}: ties not ordered by _id: {walked:?}"
        );
        assert_eq!(asc, created, "sort={sort}: every account exactly once");
        let again: Vec<String> = ids(&t.list("/accounts", &[("sort", sort)]));
        assert_eq!(again, walked, "sort={sort}: one page and six pages agree");
    }
}

#[test]
fn sort_unknown_field_is_400() {
    let t = tenant();
    for bad in ["colour", "-colour", "name,colour", "balance.amount"] {
        t.list("/accounts", &[("sort", bad)])
            .expect_field_error("sort");
    }
}

#[test]
fn fields_projection_keeps_id() {
    let t = tenant();
    seed(&t);
    let resp = t.list("/accounts", &[("fields", "name")]);
    for item in resp.data(200).as_array().unwrap() {
        let keys: Vec<&str> = item
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut keys = keys;
        keys.sort();
        assert_eq!(keys, vec!["_id", "name"], "{item}");
        object_id(&item["_id"]);
    }
    let resp = t.list(
        "/accounts",
        &[("fields", "name,balance,currency"), ("sort", "balance")],
    );
    let first = &resp.data(200)[0];
    assert_eq!(first.as_object().unwrap().len(), 4, "{first}");
    assert_eq!(first["name"], json!("Gamma Treasury"));
    assert_eq!(first["currency"], json!("USD"));
    assert_eq!(dec(&first["balance"]), d("0"));
    // _id alone is a valid projection.
    let resp = t.list("/accounts", &[("fields", "_id")]);
    assert!(
        resp.data(200)
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i.as_object().unwrap().len() == 1)
    );
    // Sorting by a field that is projected away still sorts.
    let resp = t.list("/accounts", &[("fields", "name"), ("sort", "-balance")]);
    assert_eq!(names(&resp)[0], "alpha payouts");
}

#[test]
fn fields_unknown_is_400() {
    let t = tenant();
    for bad in ["colour", "name,colour", "name.first"] {
        t.list("/accounts", &[("fields", bad)])
            .expect_field_error("fields");
    }
}

#[test]
fn search_is_a_case_insensitive_regex_on_name() {
    let t = tenant();
    seed(&t);
    let resp = t.list("/accounts", &[("search", "alpha")]);
    assert_eq!(
        sorted_names(&resp),
        strs(&["Alpha Operating", "alpha payouts"])
    );
    assert_eq!(resp.body["meta"]["search"], json!("alpha"));
    let resp = t.list("/accounts", &[("search", "^ALPHA")]);
    assert_eq!(
        sorted_names(&resp),
        strs(&["Alpha Operating", "alpha payouts"])
    );
    let resp = t.list("/accounts", &[("search", "(reserve|treasury)$")]);
    assert_eq!(
        sorted_names(&resp),
        strs(&["beta reserve", "Gamma Treasury"])
    );
    let resp = t.list("/accounts", &[("search", "op.rat")]);
    assert_eq!(sorted_names(&resp), strs(&["Alpha Operating"]));
    // Default search fields of accounts: name only, so a currency does not match.
    assert!(ids(&t.list("/accounts", &[("search", "USD")])).is_empty());
    assert_eq!(
        int(&t.list("/accounts", &[("search", "a")]).body["meta"]["total"]),
        5
    );
}

#[test]
fn search_in_chosen_fields() {
    let t = tenant();
    seed(&t);
    let resp = t.list("/accounts", &[("search", "usd"), ("searchIn", "currency")]);
    assert_eq!(
        sorted_names(&resp),
        strs(&["Alpha Operating", "Gamma Treasury", "Delta"])
    );
    assert_eq!(resp.body["meta"]["searchIn"], json!("currency"));
    let resp = t.list(
        "/accounts",
        &[("search", "^(eur|delta)"), ("searchIn", "name,currency")],
    );
    assert_eq!(sorted_names(&resp), strs(&["beta reserve", "Delta"]));
    let resp = t.list("/accounts", &[("search", "swift"), ("searchIn", "network")]);
    assert_eq!(sorted_names(&resp), strs(&["Gamma Treasury"]));
    // searchIn=currency no longer searches names.
    assert!(
        ids(&t.list(
            "/accounts",
            &[("search", "alpha"), ("searchIn", "currency")]
        ))
        .is_empty()
    );
}

#[test]
fn search_errors() {
    let t = tenant();
    for bad in ["(", "[a-", "a{2,1}", "*x"] {
        t.list("/accounts", &[("search", bad)])
            .expect_field_error("search");
    }
    t.list("/accounts", &[("search", &"a".repeat(101))])
        .expect_field_error("search");
    t.list("/accounts", &[("search", &"a".repeat(100))])
        .expect(200);
    t.list("/accounts", &[("search", "x"), ("searchIn", "colour")])
        .expect_field_error("searchIn");
    t.list("/accounts", &[("search", "x"), ("searchIn", "name,colour")])
        .expect_field_error("searchIn");
}

#[test]
fn search_combines_with_filters() {
    let t = tenant();
    seed(&t);
    let resp = t.list("/accounts", &[("search", "alpha"), ("canDebit", "false")]);
    assert_eq!(sorted_names(&resp), strs(&["alpha payouts"]));
    let resp = t.list(
        "/accounts",
        &[
            ("search", "a"),
            ("status", "active"),
            ("sort", "-balance"),
            ("limit", "2"),
        ],
    );
    assert_eq!(names(&resp), vec!["alpha payouts", "Alpha Operating"]);
    assert_eq!(int(&resp.body["meta"]["total"]), 3);
    assert_eq!(int(&resp.body["meta"]["pages"]), 2);
}

#[test]
fn filter_json_with_and_without_dollar() {
    let t = tenant();
    seed(&t);
    let cases: &[(&str, &[&str])] = &[
        (
            r#"{"status":"active"}"#,
            &["Alpha Operating", "alpha payouts", "Delta"],
        ),
        (r#"{"status":{"eq":"inactive"}}"#, &["beta reserve"]),
        (
            r#"{"balance":{"gte":100}}"#,
            &["Alpha Operating", "beta reserve", "alpha payouts"],
        ),
        (
            r#"{"balance":{"$gte":100}}"#,
            &["Alpha Operating", "beta reserve", "alpha payouts"],
        ),
        (
            r#"{"balance":{"gt":100}}"#,
            &["beta reserve", "alpha payouts"],
        ),
        (r#"{"balance":{"$lt":100}}"#, &["Gamma Treasury", "Delta"]),
        (r#"{"balance":{"lte":99.99}}"#, &["Gamma Treasury", "Delta"]),
        (
            r#"{"balance":{"gte":99.99,"lte":250.5}}"#,
            &["Delta", "Alpha Operating", "beta reserve"],
        ),
        (r#"{"balance":250.5}"#, &["beta reserve"]),
        (r#"{"balance":250.50}"#, &["beta reserve"]),
        (
            r#"{"currency":{"in":["USD","EUR"]}}"#,
            &["Alpha Operating", "beta reserve", "Gamma Treasury", "Delta"],
        ),
        (
            r#"{"currency":{"$nin":["USD"]}}"#,
            &["beta reserve", "alpha payouts"],
        ),
        (
            r#"{"status":{"$ne":"active"}}"#,
            &["beta reserve", "Gamma Treasury"],
        ),
        (r#"{"canDebit":false}"#, &["alpha payouts"]),
        (
            r#"{"ownerId":{"exists":true}}"#,
            &["Alpha Operating", "Delta"],
        ),
        (
            r#"{"ownerId":{"$exists":false}}"#,
            &["beta reserve", "Gamma Treasury", "alpha payouts"],
        ),
        (r#"{"network":"swift"}"#, &["Gamma Treasury"]),
        (
            r#"{"status":"active","balance":{"gte":100}}"#,
            &["Alpha Operating", "alpha payouts"],
        ),
        (
            r#"{"type":"checking","currency":"USD"}"#,
            &["Alpha Operating"],
        ),
        (
            r#"{}"#,
            &[
                "Alpha Operating",
                "beta reserve",
                "Gamma Treasury",
                "alpha payouts",
                "Delta",
            ],
        ),
    ];
    for (filter, want) in cases {
        let resp = t.list("/accounts", &[("filter", filter)]);
        assert_eq!(
            sorted_names(&resp),
            strs(want),
            "filter={filter}: {}",
            resp.text
        );
        assert_eq!(
            int(&resp.body["meta"]["total"]),
            want.len() as u64,
            "filter={filter}"
        );
        assert_eq!(resp.body["meta"]["filter"], json!(filter));
    }
}

#[test]
fn filter_expression_form() {
    let t = tenant();
    seed(&t);
    let cases: &[(&str, &[&str])] = &[
        (
            "status=active",
            &["Alpha Operating", "alpha payouts", "Delta"],
        ),
        (
            "status=active&balance.gte=100",
            &["Alpha Operating", "alpha payouts"],
        ),
        (
            "currency.in=USD,EUR",
            &["Alpha Operating", "beta reserve", "Gamma Treasury", "Delta"],
        ),
        ("currency.nin=USD,EUR", &["alpha payouts"]),
        (
            "balance.between=99.99|250.5",
            &["Delta", "Alpha Operating", "beta reserve"],
        ),
        ("balance.between=0|0", &["Gamma Treasury"]),
        ("ownerId.exists=true", &["Alpha Operating", "Delta"]),
        (
            "ownerId.exists=false",
            &["beta reserve", "Gamma Treasury", "alpha payouts"],
        ),
        (
            "balance.ne=0",
            &["Alpha Operating", "beta reserve", "alpha payouts", "Delta"],
        ),
        ("balance.gt=100", &["beta reserve", "alpha payouts"]),
        ("balance.lt=100", &["Gamma Treasury", "Delta"]),
        (
            "balance.lte=100",
            &["Gamma Treasury", "Delta", "Alpha Operating"],
        ),
        ("balance=1000", &["alpha payouts"]),
        ("canDebit=true&type=checking", &["Alpha Operating"]),
    ];
    for (filter, want) in cases {
        let resp = t.list("/accounts", &[("filter", filter)]);
        assert_eq!(
            sorted_names(&resp),
            strs(want),
            "filter={filter}: {}",
            resp.text
        );
        assert_eq!(resp.body["meta"]["filter"], json!(filter));
    }
}

#[test]
fn top_level_filter_parameters() {
    let t = tenant();
    seed(&t);
    let cases: &[(Pairs, Names)] = &[
        (
            &[("status", "active"), ("currency", "USD")],
            &["Alpha Operating", "Delta"],
        ),
        (
            &[("balance.gte", "100")],
            &["Alpha Operating", "beta reserve", "alpha payouts"],
        ),
        (
            &[("currency.in", "NGN,EUR")],
            &["beta reserve", "alpha payouts"],
        ),
        (&[("canDebit", "false")], &["alpha payouts"]),
        (
            &[("balance.between", "1|150")],
            &["Alpha Operating", "Delta"],
        ),
        (&[("network.exists", "true")], &["Gamma Treasury"]),
        (
            &[("filter", r#"{"status":"active"}"#), ("currency", "USD")],
            &["Alpha Operating", "Delta"],
        ),
        (
            &[
                ("filter", "balance.gte=100"),
                ("status", "active"),
                ("limit", "10"),
            ],
            &["Alpha Operating", "alpha payouts"],
        ),
    ];
    for (pairs, want) in cases {
        let resp = t.list("/accounts", pairs);
        assert_eq!(sorted_names(&resp), strs(want), "{pairs:?}: {}", resp.text);
    }
}

#[test]
fn filter_on_created_at_takes_dates() {
    let t = tenant();
    let accounts = seed(&t);
    let third = accounts[2]["createdAt"].as_str().unwrap();
    let resp = t.list("/accounts", &[("createdAt.gte", third)]);
    assert_eq!(
        sorted_names(&resp),
        strs(&["Gamma Treasury", "alpha payouts", "Delta"])
    );
    let resp = t.list(
        "/accounts",
        &[("filter", &format!(r#"{{"createdAt":{{"$lt":"{third}"}}}}"#))],
    );
    assert_eq!(
        sorted_names(&resp),
        strs(&["Alpha Operating", "beta reserve"])
    );
    let resp = t.list(
        "/accounts",
        &[("updatedAt.lte", "2000-01-01T00:00:00.000Z")],
    );
    assert!(ids(&resp).is_empty());
}

#[test]
fn filter_values_are_typed() {
    let t = tenant();
    seed(&t);
    let bad: &[&[(&str, &str)]] = &[
        &[("balance.gte", "abc")],
        &[("balance", "lots")],
        &[("canDebit", "maybe")],
        &[("createdAt.gte", "yesterday")],
        &[("ownerId.exists", "perhaps")],
        &[("balance.between", "1")],
        &[("balance.between", "a|b")],
        &[("filter", r#"{"canDebit":"yes"}"#)],
        &[("filter", r#"{"balance":{"gte":"abc"}}"#)],
        &[("filter", r#"{"balance":{"gte":true}}"#)],
        &[("filter", "createdAt.lt=2020-13-45")],
    ];
    for pairs in bad {
        t.list("/accounts", pairs)
            .expect_error(400, "validation_error");
    }
}

#[test]
fn unknown_filter_fields_and_operators_are_400() {
    let t = tenant();
    let bad: &[&[(&str, &str)]] = &[
        &[("colour", "red")],
        &[("colour.in", "red,blue")],
        &[("balance.foo", "1")],
        &[("balance.regex", "1")],
        &[("filter", r#"{"colour":"red"}"#)],
        &[("filter", r#"{"balance":{"$regex":"1"}}"#)],
        &[("filter", r#"{"balance":{"$where":"1"}}"#)],
        &[("filter", "colour=red")],
        &[("filter", "balance.like=1")],
        &[("filter", "{bad json")],
        &[("filter", "[1,2]")],
        &[("populate", "owner")],
    ];
    for pairs in bad {
        t.list("/accounts", pairs)
            .expect_error(400, "validation_error");
    }
}

#[test]
fn envelope_filter_is_normalized() {
    let t = tenant();
    seed(&t);
    let cases: Vec<(Vec<(&str, &str)>, Value)> = vec![
        (vec![], json!({})),
        (vec![("status", "active")], json!({"status": "active"})),
        (
            vec![("filter", "status=active")],
            json!({"status": "active"}),
        ),
        (
            vec![("filter", r#"{"status":"active"}"#)],
            json!({"status": "active"}),
        ),
        (
            vec![("filter", r#"{"status":{"$eq":"active"}}"#)],
            json!({"status": "active"}),
        ),
        (
            vec![("filter", r#"{"status":{"eq":"active"}}"#)],
            json!({"status": "active"}),
        ),
        (
            vec![("balance.gte", "100")],
            json!({"balance": {"$gte": 100}}),
        ),
        (
            vec![("filter", r#"{"balance":{"gte":100}}"#)],
            json!({"balance": {"$gte": 100}}),
        ),
        (
            vec![("filter", r#"{"balance":{"$gte":100,"lt":500}}"#)],
            json!({"balance": {"$gte": 100, "$lt": 500}}),
        ),
        (
            vec![("filter", "balance.gt=99.99")],
            json!({"balance": {"$gt": 99.99}}),
        ),
        (
            vec![("status.ne", "closed")],
            json!({"status": {"$ne": "closed"}}),
        ),
        (
            vec![("currency.in", "USD,EUR")],
            json!({"currency": {"$in": ["USD", "EUR"]}}),
        ),
        (
            vec![("filter", r#"{"currency":{"nin":["USD"]}}"#)],
            json!({"currency": {"$nin": ["USD"]}}),
        ),
        (vec![("canDebit", "false")], json!({"canDebit": false})),
        (
            vec![("ownerId.exists", "true")],
            json!({"ownerId": {"$exists": true}}),
        ),
        (
            vec![("filter", r#"{"status":"active"}"#), ("currency", "USD")],
            json!({"status": "active", "currency": "USD"}),
        ),
        (
            vec![("filter", "status=active&balance.lte=1000")],
            json!({"status": "active", "balance": {"$lte": 1000}}),
        ),
    ];
    for (pairs, want) in cases {
        let resp = t.list("/accounts", &pairs);
        assert_filter_envelope(&resp, want);
    }
}

#[test]
fn list_envelope_shape() {
    let t = tenant();
    seed(&t);
    let resp = t.list("/accounts", &[("limit", "2")]);
    resp.expect(200);
    let body = resp.body.as_object().unwrap();
    assert_eq!(body["statusCode"], json!(200));
    assert_eq!(body["message"], json!("Accounts fetched successfully"));
    assert!(body["data"].is_array());
    assert!(body["meta"].is_object());
    assert!(body["filter"].is_object());
    for key in [
        "page", "limit", "total", "pages", "sort", "fields", "search", "searchIn", "filter",
    ] {
        assert!(
            body["meta"].get(key).is_some(),
            "meta.{key} missing: {}",
            resp.text
        );
    }
}

/// The ids of a page, in order.
fn page_ids(resp: &Resp) -> Vec<String> {
    resp.body["data"]
        .as_array()
        .expect("data array")
        .iter()
        .map(|d| d["_id"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn cursor_paging_walks_the_list_both_ways() {
    let t = tenant();
    seed(&t);
    for (filter, sort) in [
        ("", "-createdAt"),
        ("status=active", "createdAt"),
        ("", "name"),
    ] {
        let mut base = vec![("sort", sort), ("limit", "2")];
        if let Some((k, v)) = filter.split_once('=') {
            base.push((k, v));
        }
        let whole = t.list(
            "/accounts",
            &[&base[..1], &[("limit", "200")], &base[2..]].concat(),
        );
        let expected = page_ids(&whole);
        let total = whole.body["meta"]["total"].clone();
        // Forward: startingAfter the last id of each page until hasMore is false.
        let (mut seen, mut after) = (Vec::new(), None::<String>);
        loop {
            let mut params = base.clone();
            if let Some(a) = &after {
                params.push(("startingAfter", a.as_str()));
            }
            let resp = t.list("/accounts", &params);
            envelope(&resp, 200, "Accounts fetched successfully");
            assert_eq!(resp.body["meta"]["total"], total, "{filter} {sort}");
            seen.extend(page_ids(&resp));
            if resp.body["meta"]["hasMore"] != json!(true) {
                break;
            }
            after = seen.last().cloned();
        }
        assert_eq!(seen, expected, "forward, {filter} {sort}");
        // Backward from the last record: endingBefore the first id of each page.
        let last = expected.last().cloned().unwrap_or_default();
        let (mut back, mut before) = (vec![last.clone()], last);
        loop {
            let mut params = base.clone();
            params.push(("endingBefore", before.as_str()));
            let resp = t.list("/accounts", &params);
            let ids = page_ids(&resp);
            back.splice(0..0, ids.iter().cloned());
            if resp.body["meta"]["hasMore"] != json!(true) {
                break;
            }
            before = ids.first().cloned().unwrap_or_default();
        }
        assert_eq!(back, expected, "backward, {filter} {sort}");
    }
    // A cursor naming no record is 404; a malformed one is 400.
    let resp = t.list(
        "/accounts",
        &[("startingAfter", "ffffffffffffffffffffffff")],
    );
    assert_eq!(resp.status, 404, "{}", resp.body);
    let resp = t.list("/accounts", &[("endingBefore", "not an id")]);
    assert_eq!(resp.status, 400, "{}", resp.body);
}
