//! Hardening of the core over HTTP: list caps on spending controls, exact and bounded money, reveal
//! tokens never replayed, odd Content-Types. Each test failed before its fix.

use acceptance::fixtures::{Multipart, create_account, create_holder, id};
use acceptance::*;
use serde_json::{Value, json};

fn card(t: &Tenant, account: &str) -> String {
    let h = create_holder(t);
    id(t.post(
        "/cards",
        &json!({"debitAccountId": account, "cardHolderId": h, "type": "virtual",
            "brand": "Visa", "status": "active"}),
    )
    .data(201))
}

/// A JSON body with a number written exactly as `number` (no float on the way).
fn with_number(template: &str, number: &str) -> Vec<u8> {
    template.replace("NUMBER", number).into_bytes()
}

fn send_json(t: &Tenant, method: &str, path: &str, body: Vec<u8>) -> Resp {
    t.send(
        method,
        path,
        &[("content-type", "application/json")],
        Some(body),
    )
}

/// Item 1: 145k distinct categories (about 1 MiB) used to be deduplicated in quadratic time and then
/// answered 404 after many seconds; the list is now refused at once by its length.
#[test]
fn category_lists_are_capped() {
    let t = tenant();
    let names: Vec<String> = (0..145_000u32)
        .map(|i| {
            let mut s = String::new();
            let mut n = i;
            for _ in 0..4 {
                s.push((b'a' + (n % 26) as u8) as char);
                n /= 26;
            }
            s
        })
        .collect();
    let body = json!({"spendingControls": {"blockedCategories": names}});
    let bytes = serde_json::to_vec(&body).unwrap();
    assert!(bytes.len() < 1024 * 1024, "{}", bytes.len());
    send_json(&t, "PUT", "/cards/000000000000000000000000", bytes)
        .expect_field_error("spendingControls.blockedCategories");

    // At the caps: accepted; one past: refused with the field named.
    let account = id(&create_account(&t, json!({"balance": 10})));
    let c = card(&t, &account);
    let hundred: Vec<String> = (0..100).map(|i| format!("cat_{i}")).collect();
    t.put(
        &format!("/cards/{c}"),
        &json!({"spendingControls": {"allowedCategories": hundred}}),
    )
    .data(200);
    let over: Vec<String> = (0..101).map(|i| format!("cat_{i}")).collect();
    t.put(
        &format!("/cards/{c}"),
        &json!({"spendingControls": {"allowedCategories": over}}),
    )
    .expect_field_error("spendingControls.allowedCategories");
    let limit = json!({"amount": 10, "interval": "daily"});
    let twenty: Vec<Value> = (0..20).map(|_| limit.clone()).collect();
    t.put(
        &format!("/cards/{c}"),
        &json!({"spendingControls": {"spendingLimits": twenty}}),
    )
    .data(200);
    let over: Vec<Value> = (0..21).map(|_| limit.clone()).collect();
    t.put(
        &format!("/cards/{c}"),
        &json!({"spendingControls": {"spendingLimits": over}}),
    )
    .expect_field_error("spendingControls.spendingLimits");
}

const ACCOUNT: &str = r#"{"ownerType":"business","name":"n","type":"checking","category":"fiat","currency":"USD","balance":NUMBER}"#;

/// Items 6 and 7: balances above 15 integer digits are refused, and more than 2 decimals are
/// refused however many digits they take (they used to be rounded by `Decimal::from_str`).
#[test]
fn money_is_exact_and_bounded() {
    let t = tenant();
    for refused in [
        "79228162514264337593543950335",
        "1000000000000000",
        "1e15",
        "0.999999999999999999999999999999",
        "1.000000000000000000000000000001",
    ] {
        send_json(&t, "POST", "/accounts", with_number(ACCOUNT, refused))
            .expect_field_error("balance");
    }
    assert_eq!(int(&t.get("/accounts").body["meta"]["total"]), 0);
    let max = send_json(
        &t,
        "POST",
        "/accounts",
        with_number(ACCOUNT, "999999999999999.99"),
    );
    assert_eq!(dec(&max.data(201)["balance"]), d("999999999999999.99"));

    // A funding amount of 0.999... is refused, not debited as 1.
    let account = id(&create_account(&t, json!({"balance": 10})));
    let c = card(&t, &account);
    let fund = r#"{"debitAccountId":"ACCOUNT","amount":NUMBER}"#.replace("ACCOUNT", &account);
    send_json(
        &t,
        "POST",
        &format!("/cards/{c}/fund"),
        with_number(&fund, "0.999999999999999999999999999999"),
    )
    .expect_field_error("amount");
    send_json(
        &t,
        "POST",
        &format!("/cards/{c}/fund"),
        with_number(&fund, "1e15"),
    )
    .expect_field_error("amount");
    let acct = t.get(&format!("/accounts/{account}"));
    assert_eq!(dec(&acct.data(200)["balance"]), d("10"));
}

/// Item 6: a card funded from two large accounts cannot pass the bound; the refused funding moves
/// nothing.
#[test]
fn balances_stay_below_the_bound() {
    let t = tenant();
    let big = "900000000000000";
    let a1 = id(send_json(&t, "POST", "/accounts", with_number(ACCOUNT, big)).data(201));
    let a2 = id(send_json(&t, "POST", "/accounts", with_number(ACCOUNT, big)).data(201));
    let c = card(&t, &a1);
    let fund = |account: &str| {
        let body = r#"{"debitAccountId":"ACCOUNT","amount":NUMBER}"#.replace("ACCOUNT", account);
        send_json(
            &t,
            "POST",
            &format!("/cards/{c}/fund"),
            with_number(&body, big),
        )
    };
    fund(&a1).data(200);
    fund(&a2).expect_error(409, "invalid_state");
    let balance = |path: &str| dec(&t.get(path).data(200)["balance"]);
    assert_eq!(balance(&format!("/accounts/{a2}")), d(big));
    assert_eq!(balance(&format!("/cards/{c}")), d(big));
}

/// Item 4: the idempotency record of a token request keeps no token: a replay answers the same
/// status and expiry with `"token": null`.
#[test]
fn token_replay_never_shows_the_token_again() {
    let t = tenant();
    let account = id(&create_account(&t, json!({"balance": 10})));
    let c = card(&t, &account);
    let path = format!("/cards/{c}/token");
    let first = t.send("POST", &path, &[("idempotency-key", "tok-1")], None);
    let data = first.data(201).clone();
    let token = data["token"].as_str().unwrap().to_string();
    let again = t.send("POST", &path, &[("idempotency-key", "tok-1")], None);
    let replay = again.data(201);
    assert_eq!(replay["token"], Value::Null);
    assert_eq!(replay["expiresAt"], data["expiresAt"]);
    assert!(
        again.body["message"]
            .as_str()
            .unwrap()
            .contains("shown only once")
    );
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert!(!again.text.contains(&token));
    // The first token still works once.
    t.get(&format!("/cards/{c}/reveal?token={token}")).data(200);
}

/// Item 5: a non-ASCII Content-Type is a 415 on a JSON route and on the multipart route, never a
/// panic; the server keeps serving.
#[test]
fn non_ascii_content_type_is_415() {
    let t = tenant();
    let http = reqwest::blocking::Client::builder()
        .no_proxy()
        .build()
        .unwrap();
    let odd = reqwest::header::HeaderValue::from_bytes("a€€".as_bytes()).unwrap();
    let multipart_odd =
        reqwest::header::HeaderValue::from_bytes("multipart/form-data; boundary=€€".as_bytes())
            .unwrap();
    let (_, form) = Multipart::new().text("name", "x").finish();
    for (path, ct, body) in [
        ("/accounts", odd.clone(), b"{}".to_vec()),
        ("/card-holders", odd, form.clone()),
        ("/card-holders", multipart_odd, form),
    ] {
        let resp = http
            .post(format!("{}{path}", t.base_url))
            .header("authorization", format!("Bearer {}", t.key))
            .header("content-type", ct)
            .body(body)
            .send()
            .unwrap();
        let status = resp.status().as_u16();
        assert!((400..500).contains(&status), "{path}: {status}");
    }
    raw("GET", "/health", &[], None).expect(200);
}
