//! Accounts: creation defaults, validation, balances, the status lifecycle, and the adjustment ledger.

use std::time::{SystemTime, UNIX_EPOCH};

use acceptance::assert::envelope;
use acceptance::fixtures::{account_body, create_account, id};
use acceptance::*;
use serde_json::{Value, json};

fn path(account: &Value) -> String {
    format!("/accounts/{}", id(account))
}

/// The account's ledger, oldest first (ids sort by creation).
fn ledger(t: &Tenant, account: &Value) -> Vec<Value> {
    let resp = t.list(
        &format!("{}/transactions", path(account)),
        &[("limit", "200")],
    );
    envelope(&resp, 200, "Transactions fetched successfully");
    let mut entries = resp.body["data"].as_array().expect("data array").clone();
    entries.sort_by(|a, b| a["_id"].as_str().cmp(&b["_id"].as_str()));
    entries
}

#[track_caller]
fn assert_balances(account: &Value, expected: &str) {
    for f in ["balance", "availableBalance", "ledgerBalance"] {
        assert_eq!(dec(&account[f]), d(expected), "{f} in {account}");
    }
}

#[test]
fn create_applies_defaults() {
    let t = tenant();
    let resp = t.post("/accounts", &account_body(json!({})));
    let a = envelope(&resp, 201, "Account created successfully");
    object_id(&a["_id"]);
    assert_eq!(a["ownerType"], json!("business"));
    assert_eq!(a["name"], json!("Operating account"));
    assert_eq!(a["type"], json!("checking"));
    assert_eq!(a["category"], json!("fiat"));
    assert_eq!(a["currency"], json!("USD"));
    assert_eq!(a["status"], json!("active"));
    assert_eq!(a["canDebit"], json!(true));
    assert_eq!(a["canCredit"], json!(true));
    assert_eq!(a["ownerId"], Value::Null, "ownerId present and null: {a}");
    assert!(a.get("ownerId").is_some(), "ownerId is present: {a}");
    assert!(
        a.get("network").is_some_and(Value::is_null),
        "network present and null: {a}"
    );
    assert_eq!(a["client"], json!(t.client));
    assert_balances(a, "0");
    let created = timestamp(&a["createdAt"]);
    let updated = timestamp(&a["updatedAt"]);
    assert_eq!(created, updated);
}

#[test]
fn create_with_every_field() {
    let t = tenant();
    let body = json!({
        "ownerType": "user",
        "ownerId": "user_42",
        "client": t.client,
        "name": "Savings",
        "type": "savings",
        "category": "crypto",
        "currency": "usdt",
        "status": "inactive",
        "network": "tron",
        "balance": 12.5,
        "canDebit": false,
        "canCredit": true
    });
    let a = t.post("/accounts", &body).data(201).clone();
    assert_eq!(a["ownerType"], json!("user"));
    assert_eq!(a["ownerId"], json!("user_42"));
    assert_eq!(a["client"], json!(t.client));
    assert_eq!(a["type"], json!("savings"));
    assert_eq!(a["category"], json!("crypto"));
    assert_eq!(a["currency"], json!("USDT"));
    assert_eq!(a["status"], json!("inactive"));
    assert_eq!(a["network"], json!("tron"));
    assert_eq!(a["canDebit"], json!(false));
    assert_eq!(a["canCredit"], json!(true));
    assert_balances(&a, "12.5");
}

#[test]
fn every_enum_value_is_accepted() {
    let t = tenant();
    for owner in ["user", "business", "system", "provider"] {
        assert_eq!(
            create_account(&t, json!({"ownerType": owner}))["ownerType"],
            json!(owner)
        );
    }
    for ty in ["savings", "treasury", "checking", "credit"] {
        assert_eq!(create_account(&t, json!({"type": ty}))["type"], json!(ty));
    }
    for cat in ["fiat", "crypto"] {
        assert_eq!(
            create_account(&t, json!({"category": cat}))["category"],
            json!(cat)
        );
    }
    for status in ["active", "inactive", "suspended"] {
        assert_eq!(
            create_account(&t, json!({"status": status}))["status"],
            json!(status)
        );
    }
}

#[test]
fn ids_are_object_ids_that_sort_by_creation() {
    let t = tenant();
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let mut previous = String::new();
    for _ in 0..5 {
        let a = create_account(&t, json!({}));
        let id = id(&a);
        // The first 4 bytes are the creation second.
        let secs = i64::from_str_radix(&id[..8], 16).unwrap();
        assert!(
            (secs - now).abs() < 600,
            "id {id} carries {secs}, now is {now}"
        );
        assert!(id > previous, "{id} does not sort after {previous}");
        previous = id;
    }
}

#[test]
fn client_in_body_must_be_the_callers() {
    let t = tenant();
    let other = tenant();
    let ok = t.post("/accounts", &account_body(json!({"client": t.client})));
    assert_eq!(ok.data(201)["client"], json!(t.client));
    t.post("/accounts", &account_body(json!({"client": other.client})))
        .expect_field_error("client");
    t.post(
        "/accounts",
        &account_body(json!({"client": "someone-else"})),
    )
    .expect_field_error("client");
    assert_eq!(int(&t.get("/accounts").body["meta"]["total"]), 1);
    assert_eq!(int(&other.get("/accounts").body["meta"]["total"]), 0);
}

#[test]
fn currency_is_upper_cased_and_checked() {
    let t = tenant();
    for (given, stored) in [
        ("usd", "USD"),
        ("Ngn", "NGN"),
        ("usdt", "USDT"),
        ("abcdefghij", "ABCDEFGHIJ"),
        ("x1y", "X1Y"),
    ] {
        assert_eq!(
            create_account(&t, json!({"currency": given}))["currency"],
            json!(stored)
        );
    }
    for bad in ["US", "", "ABCDEFGHIJK", "US-D", "US D", "€UR", "usd\n"] {
        t.post("/accounts", &account_body(json!({"currency": bad})))
            .expect_field_error("currency");
    }
}

#[test]
fn required_fields_are_required() {
    let t = tenant();
    for field in ["ownerType", "name", "type", "category", "currency"] {
        t.post("/accounts", &account_body(json!({field: null})))
            .expect_field_error(field);
    }
}

#[test]
fn balance_rules_at_creation() {
    let t = tenant();
    t.post("/accounts", &account_body(json!({"balance": -1})))
        .expect_field_error("balance");
    t.post("/accounts", &account_body(json!({"balance": -0.01})))
        .expect_field_error("balance");
    t.post("/accounts", &account_body(json!({"balance": 1.001})))
        .expect_field_error("balance");
    t.post("/accounts", &account_body(json!({"balance": 0.125})))
        .expect_field_error("balance");
    assert_eq!(int(&t.get("/accounts").body["meta"]["total"]), 0);
    let a = create_account(&t, json!({"balance": 10.10}));
    assert_balances(&a, "10.1");
    let big = create_account(&t, json!({"balance": 1234567890123.45}));
    assert_balances(&big, "1234567890123.45");
}

#[test]
fn large_and_precise_balances_stay_exact() {
    let t = tenant();
    // Written as raw JSON so no float is involved on the client side either. The largest balance
    // (15 integer digits, 2 decimals) has 17 significant digits: more than an f64 holds exactly.
    let body = r#"{"ownerType":"business","name":"Exact","type":"treasury","category":"fiat","currency":"USD","balance":999999999999999.99}"#;
    let resp = t.send(
        "POST",
        "/accounts",
        &[("content-type", "application/json")],
        Some(body.as_bytes().to_vec()),
    );
    let a = resp.data(201);
    assert_balances(a, "999999999999999.99");
    let read = t.get(&path(a));
    assert_balances(read.data(200), "999999999999999.99");
}

#[test]
fn read_returns_the_account_with_balances() {
    let t = tenant();
    let a = create_account(&t, json!({"balance": 100}));
    let resp = t.get(&path(&a));
    let read = envelope(&resp, 200, "Account fetched successfully");
    assert_eq!(read, &a);
    assert_balances(read, "100");
}

#[test]
fn put_updates_fields() {
    let t = tenant();
    let a = create_account(&t, json!({}));
    std::thread::sleep(std::time::Duration::from_millis(5));
    let resp = t.put(
        &path(&a),
        &json!({
            "ownerType": "system",
            "ownerId": "sys-1",
            "name": "Treasury pool",
            "type": "treasury",
            "category": "crypto",
            "network": "ethereum",
            "canDebit": false,
            "canCredit": false
        }),
    );
    let u = envelope(&resp, 200, "Account updated successfully").clone();
    assert_eq!(u["_id"], a["_id"]);
    assert_eq!(u["ownerType"], json!("system"));
    assert_eq!(u["ownerId"], json!("sys-1"));
    assert_eq!(u["name"], json!("Treasury pool"));
    assert_eq!(u["type"], json!("treasury"));
    assert_eq!(u["category"], json!("crypto"));
    assert_eq!(u["network"], json!("ethereum"));
    assert_eq!(u["canDebit"], json!(false));
    assert_eq!(u["canCredit"], json!(false));
    assert_eq!(u["client"], json!(t.client));
    assert_eq!(u["createdAt"], a["createdAt"]);
    assert!(timestamp(&u["updatedAt"]) > timestamp(&a["updatedAt"]));
    assert_eq!(t.get(&path(&a)).data(200), &u);
}

#[test]
fn put_keeps_fields_not_given() {
    let t = tenant();
    let a = create_account(&t, json!({"network": "swift", "balance": 5}));
    let u = t
        .put(&path(&a), &json!({"name": "Only the name"}))
        .data(200)
        .clone();
    assert_eq!(u["name"], json!("Only the name"));
    for f in [
        "ownerType",
        "type",
        "category",
        "currency",
        "status",
        "network",
        "canDebit",
        "canCredit",
        "client",
    ] {
        assert_eq!(u[f], a[f], "{f} changed");
    }
    assert_balances(&u, "5");
}

#[test]
fn put_validates() {
    let t = tenant();
    let a = create_account(&t, json!({"balance": 3}));
    let p = path(&a);
    t.put(&p, &json!({"status": "open"}))
        .expect_field_error("status");
    t.put(&p, &json!({"type": "current"}))
        .expect_field_error("type");
    t.put(&p, &json!({"balance": -5}))
        .expect_field_error("balance");
    t.put(&p, &json!({"balance": 2.555}))
        .expect_field_error("balance");
    t.put(&p, &json!({"currency": "E"}))
        .expect_field_error("currency");
    t.put(&p, &json!({"canDebit": "no"}))
        .expect_field_error("canDebit");
    // A rejected request changes nothing.
    t.put(&p, &json!({"name": "changed", "balance": -5}))
        .expect(400);
    let read = t.get(&p);
    assert_eq!(read.data(200), &a);
    assert_eq!(ledger(&t, &a).len(), 1);
}

#[test]
fn status_moves_freely_among_active_inactive_suspended() {
    let t = tenant();
    let a = create_account(&t, json!({}));
    let p = path(&a);
    for status in [
        "inactive",
        "suspended",
        "active",
        "suspended",
        "inactive",
        "active",
    ] {
        let u = t.put(&p, &json!({"status": status}));
        assert_eq!(u.data(200)["status"], json!(status));
        assert_eq!(t.get(&p).data(200)["status"], json!(status));
    }
}

#[test]
fn closing_needs_a_zero_balance() {
    let t = tenant();
    let a = create_account(&t, json!({"balance": 20}));
    let p = path(&a);
    t.put(&p, &json!({"status": "closed"}))
        .expect_error(409, "invalid_state");
    assert_eq!(t.get(&p).data(200)["status"], json!("active"));
    t.put(&p, &json!({"balance": 0})).expect(200);
    let closed = t.put(&p, &json!({"status": "closed"}));
    assert_eq!(closed.data(200)["status"], json!("closed"));
}

#[test]
fn every_open_status_can_close() {
    let t = tenant();
    for status in ["active", "inactive", "suspended"] {
        let a = create_account(&t, json!({"status": status}));
        let u = t.put(&path(&a), &json!({"status": "closed"}));
        assert_eq!(u.data(200)["status"], json!("closed"));
    }
}

#[test]
fn closed_is_terminal() {
    let t = tenant();
    let a = create_account(&t, json!({}));
    let p = path(&a);
    t.put(&p, &json!({"status": "closed"})).expect(200);
    for status in ["active", "inactive", "suspended"] {
        t.put(&p, &json!({"status": status}))
            .expect_error(409, "invalid_state");
    }
    t.put(&p, &json!({"balance": 10}))
        .expect_error(409, "invalid_state");
    let read = t.get(&p);
    let read = read.data(200);
    assert_eq!(read["status"], json!("closed"));
    assert_balances(read, "0");
}

#[test]
fn currency_changes_only_at_zero_balance() {
    let t = tenant();
    let a = create_account(&t, json!({"currency": "USD"}));
    let p = path(&a);
    let u = t.put(&p, &json!({"currency": "eur"}));
    assert_eq!(u.data(200)["currency"], json!("EUR"));
    t.put(&p, &json!({"balance": 1})).expect(200);
    t.put(&p, &json!({"currency": "GBP"}))
        .expect_error(409, "invalid_state");
    assert_eq!(t.get(&p).data(200)["currency"], json!("EUR"));
}

#[test]
fn balance_at_creation_is_an_adjustment_entry() {
    let t = tenant();
    let a = create_account(&t, json!({"balance": 250.75}));
    let entries = ledger(&t, &a);
    assert_eq!(entries.len(), 1, "{entries:?}");
    let e = &entries[0];
    object_id(&e["_id"]);
    assert_eq!(e["accountId"], a["_id"]);
    assert_eq!(e["type"], json!("adjustment"));
    assert_eq!(dec(&e["amount"]), d("250.75"));
    assert_eq!(dec(&e["balanceAfter"]), d("250.75"));
    timestamp(&e["createdAt"]);
}

#[test]
fn every_balance_change_is_a_signed_adjustment() {
    let t = tenant();
    let a = create_account(&t, json!({"balance": 0.1}));
    let p = path(&a);
    // 0.1 -> 0.3 -> 0.05 -> 100.2: the adjustments are exactly +0.2, -0.25, +100.15.
    assert_balances(t.put(&p, &json!({"balance": 0.3})).data(200), "0.3");
    assert_balances(t.put(&p, &json!({"balance": 0.05})).data(200), "0.05");
    assert_balances(t.put(&p, &json!({"balance": 100.2})).data(200), "100.2");
    assert_balances(t.get(&p).data(200), "100.2");
    let entries = ledger(&t, &a);
    let got: Vec<_> = entries
        .iter()
        .map(|e| {
            (
                e["type"].as_str().unwrap().to_string(),
                dec(&e["amount"]),
                dec(&e["balanceAfter"]),
            )
        })
        .collect();
    let want = vec![
        ("adjustment".to_string(), d("0.1"), d("0.1")),
        ("adjustment".to_string(), d("0.2"), d("0.3")),
        ("adjustment".to_string(), d("-0.25"), d("0.05")),
        ("adjustment".to_string(), d("100.15"), d("100.2")),
    ];
    assert_eq!(got, want);
    // The ledger sums to the balance.
    let sum: rust_decimal::Decimal = entries.iter().map(|e| dec(&e["amount"])).sum();
    assert_eq!(sum, d("100.2"));
}

#[test]
fn changes_without_a_balance_add_no_entry() {
    let t = tenant();
    let a = create_account(&t, json!({"balance": 7}));
    t.put(&path(&a), &json!({"name": "renamed", "status": "inactive"}))
        .expect(200);
    assert_eq!(ledger(&t, &a).len(), 1);
}

#[test]
fn transactions_is_a_list_endpoint() {
    let t = tenant();
    let a = create_account(&t, json!({"balance": 1}));
    let p = path(&a);
    for b in ["2", "3", "4"] {
        t.put(&p, &json!({"balance": b.parse::<u64>().unwrap()}))
            .expect(200);
    }
    let resp = t.list(
        &format!("{p}/transactions"),
        &[("limit", "2"), ("page", "2")],
    );
    resp.expect(200);
    assert_eq!(int(&resp.body["meta"]["total"]), 4);
    assert_eq!(int(&resp.body["meta"]["pages"]), 2);
    assert_eq!(ids(&resp).len(), 2);
    let resp = t.list(&format!("{p}/transactions"), &[("sort", "balanceAfter")]);
    let after: Vec<_> = column(&resp, "balanceAfter").into_iter().map(dec).collect();
    assert_eq!(after, vec![d("1"), d("2"), d("3"), d("4")]);
    let resp = t.list(
        &format!("{p}/transactions"),
        &[("filter", r#"{"type":"adjustment"}"#)],
    );
    assert_eq!(ids(&resp).len(), 4);
    let resp = t.list(&format!("{p}/transactions"), &[("type", "card_funding")]);
    assert_eq!(ids(&resp).len(), 0);
    // The default text field of transactions is `type`.
    let resp = t.list(&format!("{p}/transactions"), &[("search", "ADJUST")]);
    assert_eq!(ids(&resp).len(), 4);
}

#[test]
fn timestamps_are_rfc3339_with_milliseconds() {
    let t = tenant();
    let a = create_account(&t, json!({}));
    let created = timestamp(&a["createdAt"]);
    let now = chrono::DateTime::<chrono::Utc>::from(SystemTime::now());
    let skew = (now.timestamp_millis() - created.timestamp_millis()).abs();
    assert!(skew < 600_000, "createdAt {created} is far from now {now}");
}
