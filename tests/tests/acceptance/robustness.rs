//! Hostile and edge-case input: the server answers with the contract's 4xx codes, never 500, never dies.

use std::thread;

use acceptance::fixtures::{account_body, create_account, id};
use acceptance::*;
use serde_json::json;

#[test]
fn deeply_nested_json_is_400_not_a_crash() {
    let t = tenant();
    let depth = 100_000;
    let body = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    t.send(
        "POST",
        "/accounts",
        &[("content-type", "application/json")],
        Some(body.into_bytes()),
    )
    .expect_error(400, "validation_error");
    // Nested inside a free-form object.
    let account = create_account(&t, json!({}));
    let nested = format!(
        r#"{{"type":"bank_account","provider":"p","details":{{"x":{}1{}}}}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    );
    t.send(
        "POST",
        &format!("/accounts/{}/details", id(&account)),
        &[("content-type", "application/json")],
        Some(nested.into_bytes()),
    )
    .expect_error(400, "validation_error");
    raw("GET", "/health", &[], None).expect(200);
}

#[test]
fn out_of_range_money_is_400() {
    let t = tenant();
    for balance in [
        "99999999999999999999999999999999",
        "1e400",
        "-1e-400",
        "1.5e-7",
    ] {
        let body = format!(
            r#"{{"ownerType":"business","name":"n","type":"checking","category":"fiat","currency":"USD","balance":{balance}}}"#
        );
        t.send(
            "POST",
            "/accounts",
            &[("content-type", "application/json")],
            Some(body.into_bytes()),
        )
        .expect_field_error("balance");
    }
    assert_eq!(int(&t.get("/accounts").body["meta"]["total"]), 0);
}

#[test]
fn free_form_details_round_trip_exactly() {
    let t = tenant();
    let account = create_account(&t, json!({}));
    let raw_body = r#"{"type":"crypto_wallet","provider":"p","details":{"precise":1.000000000000000000001,"big":123456789012345678901234567890,"nested":{"list":[true,null,"é"]},"emoji":"💳"}}"#;
    let resp = t.send(
        "POST",
        &format!("/accounts/{}/details", id(&account)),
        &[("content-type", "application/json")],
        Some(raw_body.as_bytes().to_vec()),
    );
    let sent: serde_json::Value = serde_json::from_str(raw_body).unwrap();
    assert_eq!(resp.data(201)["details"], sent["details"]);
    let detail = resp.body["data"].clone();
    let read = t.get(&format!(
        "/accounts/{}/details/{}",
        id(&account),
        id(&detail)
    ));
    assert_eq!(read.data(200)["details"], sent["details"]);
}

#[test]
fn unicode_text_round_trips_and_searches_case_insensitively() {
    let t = tenant();
    let a = create_account(&t, json!({"name": "École Fund ✓"}));
    assert_eq!(a["name"], json!("École Fund ✓"));
    let resp = t.list("/accounts", &[("search", "école")]);
    assert_eq!(ids(&resp), vec![id(&a)]);
    let resp = t.list("/accounts", &[("name", "École Fund ✓")]);
    assert_eq!(ids(&resp), vec![id(&a)]);
}

#[test]
fn huge_compiled_regex_is_400() {
    let t = tenant();
    create_account(&t, json!({}));
    let resp = t.list("/accounts", &[("search", r"(\w{500}){500}")]);
    resp.expect_field_error("search");
}

#[test]
fn concurrent_repeats_of_one_idempotency_key_create_once() {
    let t = tenant();
    let body = serde_json::to_vec(&account_body(json!({"balance": 9}))).unwrap();
    let handles: Vec<_> = (0..8)
        .map(|_| {
            let t = t.clone();
            let body = body.clone();
            thread::spawn(move || {
                t.send(
                    "POST",
                    "/accounts",
                    &[
                        ("content-type", "application/json"),
                        ("idempotency-key", "race-1"),
                    ],
                    Some(body),
                )
            })
        })
        .collect();
    let responses: Vec<Resp> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    for r in &responses {
        r.expect(201);
        assert_eq!(r.body, responses[0].body);
    }
    assert_eq!(int(&t.get("/accounts").body["meta"]["total"]), 1);
    let account = &responses[0].body["data"];
    let ledger = t.get(&format!("/accounts/{}/transactions", id(account)));
    assert_eq!(ids(&ledger).len(), 1);
}

#[test]
fn closed_accounts_stay_readable_with_their_ledger() {
    let t = tenant();
    let a = create_account(&t, json!({"balance": 3}));
    let p = format!("/accounts/{}", id(&a));
    t.put(&p, &json!({"balance": 0})).expect(200);
    t.put(&p, &json!({"status": "closed"})).expect(200);
    assert_eq!(ids(&t.get(&format!("{p}/transactions"))).len(), 2);
    let resp = t.list("/accounts", &[("status", "closed")]);
    assert_eq!(ids(&resp), vec![id(&a)]);
}

#[test]
fn far_pages_are_empty() {
    let t = tenant();
    create_account(&t, json!({}));
    let resp = t.list("/accounts", &[("page", "1000000")]);
    assert!(ids(&resp).is_empty());
    assert_eq!(int(&resp.body["meta"]["total"]), 1);
    assert_eq!(int(&resp.body["meta"]["page"]), 1_000_000);
}

#[test]
fn numeric_in_filters() {
    let t = tenant();
    for b in [1, 2, 3] {
        create_account(&t, json!({"balance": b}));
    }
    let resp = t.list("/accounts", &[("balance.in", "1,3")]);
    assert_eq!(ids(&resp).len(), 2);
    let resp = t.list(
        "/accounts",
        &[("filter", r#"{"balance":{"$nin":[1,3.00]}}"#)],
    );
    let balances: Vec<_> = column(&resp, "balance").into_iter().map(dec).collect();
    assert_eq!(balances, vec![d("2")]);
    t.list("/accounts", &[("balance.in", "1,x")])
        .expect_error(400, "validation_error");
}
