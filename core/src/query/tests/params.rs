//! page, limit, sort, fields, search, searchIn, populate, reserved names and error collection.

use serde_json::json;

use super::*;

#[test]
fn defaults() {
    let plan = q("").to_json();
    assert_eq!(plan["page"], json!(1));
    assert_eq!(plan["limit"], json!(20));
    assert_eq!(
        plan["sort"],
        json!([{"field": "createdAt", "order": "desc"}])
    );
    assert_eq!(plan["fields"], json!(null));
    assert_eq!(plan["search"], json!(null));
    assert_eq!(plan["searchIn"], json!(["name", "person.email"]));
    assert_eq!(plan["filter"], json!({}));
    assert_eq!(plan["populate"], json!([]));
}

#[test]
fn page_and_limit_accept_integers_in_range() {
    let x = q("page=3&limit=200");
    assert_eq!((x.page, x.limit), (3, 200));
    let x = q("limit=1");
    assert_eq!((x.page, x.limit), (1, 1));
}

#[test]
fn page_and_limit_reject_everything_else() {
    for bad in [
        "0",
        "-1",
        "1.5",
        "abc",
        "",
        " 1",
        "+1",
        "1e2",
        "99999999999999999999999",
    ] {
        let query = format!("page={}", enc(bad));
        assert_eq!(
            errs(&query),
            vec![fe("page", "must be an integer >= 1")],
            "{bad:?}"
        );
    }
    for bad in ["0", "201", "-5", "2.0", "x", "", "1000"] {
        let query = format!("limit={}", enc(bad));
        assert_eq!(
            errs(&query),
            vec![fe("limit", "must be an integer between 1 and 200")],
            "{bad:?}"
        );
    }
}

#[test]
fn a_reserved_name_may_appear_once() {
    assert_eq!(
        errs("page=1&page=2&page=3&limit=5&sort=name&sort=name"),
        vec![
            fe("page", "must be given at most once"),
            fe("sort", "must be given at most once")
        ]
    );
}

#[test]
fn every_error_is_collected() {
    let query = format!(
        "page=0&limit=0&sort=nope&fields=bad&search={}&searchIn=zzz&filter={}&foo=1&populate=nobody",
        enc("("),
        enc(r#"{"x":1}"#)
    );
    let e = errs(&query);
    let fields: Vec<&str> = e.iter().map(|e| e.field.as_str()).collect();
    assert_eq!(
        fields,
        [
            "page", "limit", "sort", "fields", "search", "searchIn", "filter", "foo", "populate"
        ]
    );
    assert_eq!(e[2], fe("sort", "unknown field 'nope'"));
    assert_eq!(e[6], fe("filter", "unknown field 'x'"));
    assert_eq!(e[7], fe("foo", "unknown field 'foo'"));
    assert_eq!(e[8], fe("populate", "unknown relation 'nobody'"));
}

#[test]
fn sort_parses_directions_and_dot_paths() {
    let plan = q("sort=name,-createdAt,person.email,-metadata.tier").to_json();
    assert_eq!(
        plan["sort"],
        json!([
            {"field": "name", "order": "asc"},
            {"field": "createdAt", "order": "desc"},
            {"field": "person.email", "order": "asc"},
            {"field": "metadata.tier", "order": "desc"},
        ])
    );
    // Empty items are ignored; nothing left means the default.
    assert_eq!(
        q("sort=name,,").to_json()["sort"],
        json!([{"field": "name", "order": "asc"}])
    );
    assert_eq!(
        q("sort=").to_json()["sort"],
        json!([{"field": "createdAt", "order": "desc"}])
    );
}

#[test]
fn sort_rejects_unknown_object_and_repeated_fields() {
    assert_eq!(
        errs("sort=nope,person,name,-name,person.nope,-"),
        vec![
            fe("sort", "unknown field 'nope'"),
            fe("sort", "'person' is an object; sort on one of its fields"),
            fe("sort", "'name' is given more than once"),
            fe("sort", "unknown field 'person.nope'"),
            fe("sort", "unknown field ''"),
        ]
    );
}

#[test]
fn fields_accept_schema_paths_objects_free_form_and_relations() {
    let plan = q("fields=name,person,person.email,metadata.a.b,owner,owner.email,name").to_json();
    assert_eq!(
        plan["fields"],
        json!([
            "name",
            "person",
            "person.email",
            "metadata.a.b",
            "owner",
            "owner.email"
        ])
    );
    assert_eq!(
        errs("fields=name,nope,person.nope,owner.nope,name.x"),
        vec![
            fe("fields", "unknown field 'nope'"),
            fe("fields", "unknown field 'person.nope'"),
            fe("fields", "unknown field 'owner.nope'"),
            fe("fields", "unknown field 'name.x'"),
        ]
    );
}

#[test]
fn search_is_limited_to_100_characters() {
    let ok = "a".repeat(100);
    assert_eq!(q(&format!("search={ok}")).to_json()["search"], json!(ok));
    let long = "é".repeat(101);
    assert_eq!(
        errs(&format!("search={}", enc(&long))),
        vec![fe("search", "must be at most 100 characters")]
    );
}

#[test]
fn an_invalid_pattern_is_a_field_error() {
    for bad in ["(", "[a-", "a{2,1}", "\\"] {
        let e = errs(&format!("search={}", enc(bad)));
        assert_eq!(e.len(), 1, "{bad}");
        assert_eq!(e[0].field, "search");
        assert!(
            e[0].message
                .starts_with("is not a valid regular expression: "),
            "{}",
            e[0].message
        );
        assert!(!e[0].message.contains('\n'));
    }
}

#[test]
fn an_oversized_pattern_is_refused() {
    // Small text, huge automaton: the size limit stops it.
    let e = errs(&format!("search={}", enc(r"\w{1000}\w{1000}\w{1000}")));
    assert_eq!(e[0].field, "search");
}

#[test]
fn search_in_is_checked() {
    assert_eq!(
        q("search=x&searchIn=name,metadata.note,person").to_json()["searchIn"],
        json!(["name", "metadata.note", "person"])
    );
    assert_eq!(
        errs("searchIn=name,nope"),
        vec![fe("searchIn", "unknown field 'nope'")]
    );
}

#[test]
fn populate_forms() {
    assert_eq!(q("populate=owner").populate[0].name, "owner");
    assert_eq!(q("populate=owner").populate[0].fields, None);
    for form in ["owner:name email", "owner:name,email", "owner:name email;"] {
        let p = &q(&format!("populate={}", enc(form))).populate;
        assert_eq!(p.len(), 1);
        assert_eq!(
            p[0].fields,
            Some(vec!["name".to_string(), "email".to_string()])
        );
    }
    // `+` in a query string is a space.
    assert_eq!(
        q("populate=owner:name+email").populate[0].fields,
        Some(vec!["name".to_string(), "email".to_string()])
    );
    assert_eq!(
        q("populate=owner:name").to_json()["populate"],
        json!([{"name": "owner", "fields": ["name"]}])
    );
}

#[test]
fn populate_errors() {
    assert_eq!(
        errs(&format!("populate={}", enc("owner:name nope;team,owner"))),
        vec![
            fe("populate", "unknown field 'nope' of 'owner'"),
            fe("populate", "unknown relation 'team'"),
            fe("populate", "'owner' is given more than once"),
        ]
    );
}

#[test]
fn meta_echoes_raw_strings() {
    let query = format!(
        "sort={}&fields=name&search=al&searchIn=name&filter={}&limit=4",
        enc("-name"),
        enc("balance.gte=1")
    );
    let env = q(&query).envelope("Things fetched successfully", vec![], 9, false);
    assert_eq!(
        env["meta"],
        json!({
            "page": 1, "limit": 4, "total": 9, "pages": 3,
            "sort": "-name", "fields": "name", "search": "al", "searchIn": "name",
            "filter": "balance.gte=1",
            "startingAfter": null, "endingBefore": null, "hasMore": false,
        })
    );
    let env = q("").envelope("x", vec![], 0, false);
    assert_eq!(
        env["meta"],
        json!({
            "page": 1, "limit": 20, "total": 0, "pages": 0,
            "sort": null, "fields": null, "search": null, "searchIn": null, "filter": null,
            "startingAfter": null, "endingBefore": null, "hasMore": false,
        })
    );
}

#[test]
fn cursors_are_ids_echoed_in_meta() {
    let both = q("startingAfter=65a1b2c3d4e5f60718293a4b&endingBefore=b&page=2");
    let meta = &both.envelope("x", vec![], 0, true)["meta"];
    assert_eq!(meta["startingAfter"], json!("65a1b2c3d4e5f60718293a4b"));
    assert_eq!(meta["endingBefore"], json!("b"));
    assert_eq!(meta["hasMore"], json!(true));
    for bad in [
        "endingBefore=",
        "startingAfter=a%20b",
        "startingAfter=a&startingAfter=b",
    ] {
        assert!(parse(bad, &SCHEMA).is_err(), "{bad}");
    }
    let long = format!("startingAfter={}", "a".repeat(65));
    assert_eq!(
        errs(&long),
        vec![fe(
            "startingAfter",
            "must be the id of a record in this list"
        )]
    );
}
