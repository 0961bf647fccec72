//! Account transfers over HTTP: both ledger entries with the transfer, the funding errors, a transfer
//! to the same account, another client's account, idempotent retries, lists and events, and
//! concurrent transfers that keep the sum.

use std::thread;

use acceptance::fixtures::{create_account, id};
use acceptance::*;
use rust_decimal::Decimal;
use serde_json::{Value, json};

fn post_with_key(t: &Tenant, path: &str, key: &str, body: &Value) -> Resp {
    t.send(
        "POST",
        path,
        &[
            ("content-type", "application/json"),
            ("idempotency-key", key),
        ],
        Some(serde_json::to_vec(body).unwrap()),
    )
}

fn balance(t: &Tenant, account: &str) -> Decimal {
    dec(&t.get(&format!("/accounts/{account}")).data(200)["balance"])
}

/// The account's ledger entries of type `transfer`, newest first.
fn transfer_entries(t: &Tenant, account: &str) -> Vec<Value> {
    t.list(
        &format!("/accounts/{account}/transactions"),
        &[
            ("type", "transfer"),
            ("sort", "-createdAt"),
            ("limit", "200"),
        ],
    )
    .data(200)
    .as_array()
    .unwrap()
    .clone()
}

fn two_accounts(t: &Tenant, balance: i64) -> (String, String) {
    let a = id(&create_account(t, json!({"balance": balance})));
    let b = id(&create_account(t, json!({"balance": 0})));
    (a, b)
}

#[test]
fn a_transfer_moves_money_with_one_entry_on_each_account() {
    let t = tenant();
    let (a, b) = two_accounts(&t, 100);
    let body = json!({"debitAccountId": a, "creditAccountId": b, "amount": 40.25,
                      "narration": "Top up savings", "reference": "inv-1001"});
    let resp = t.post("/accounts/transfers", &body);
    assert_eq!(resp.body["message"], "Transfer created successfully");
    let tr = resp.data(201).clone();
    object_id(&tr["_id"]);
    assert_eq!(tr["debitAccountId"], a.as_str());
    assert_eq!(tr["creditAccountId"], b.as_str());
    assert_eq!(dec(&tr["amount"]), d("40.25"));
    assert_eq!(tr["currency"], "USD");
    assert_eq!(tr["narration"], "Top up savings");
    assert_eq!(tr["reference"], "inv-1001");
    timestamp(&tr["createdAt"]);
    assert_eq!(balance(&t, &a), d("59.75"));
    assert_eq!(balance(&t, &b), d("40.25"));
    let debit = transfer_entries(&t, &a);
    assert_eq!(debit.len(), 1);
    assert_eq!(dec(&debit[0]["amount"]), d("-40.25"));
    assert_eq!(dec(&debit[0]["balanceAfter"]), d("59.75"));
    let credit = transfer_entries(&t, &b);
    assert_eq!(credit.len(), 1);
    assert_eq!(dec(&credit[0]["amount"]), d("40.25"));
    assert_eq!(dec(&credit[0]["balanceAfter"]), d("40.25"));
    // Read back, listed, and announced.
    let got = t.get(&format!("/accounts/transfers/{}", id(&tr)));
    assert_eq!(got.data(200), &tr);
    assert_eq!(ids(&t.list("/accounts/transfers", &[])), vec![id(&tr)]);
    assert_eq!(
        ids(&t.list("/accounts/transfers", &[("creditAccountId", &b)])),
        vec![id(&tr)]
    );
    assert!(ids(&t.list("/accounts/transfers", &[("creditAccountId", &a)])).is_empty());
    let events = t.list("/events", &[("type", "transfer.created")]);
    let events = events.data(200).as_array().unwrap();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0]["data"]["object"], tr);
    // Optional texts are null when not given.
    let plain = t
        .post(
            "/accounts/transfers",
            &json!({"debitAccountId": b, "creditAccountId": a, "amount": 0.25}),
        )
        .data(201)
        .clone();
    assert_eq!(plain["narration"], Value::Null);
    assert_eq!(plain["reference"], Value::Null);
    assert_eq!(balance(&t, &a), d("60"));
    // The account routes are untouched by the transfers path.
    t.get(&format!("/accounts/{a}")).expect(200);
}

#[test]
fn funding_errors_apply_and_write_nothing() {
    let t = tenant();
    let (a, b) = two_accounts(&t, 10);
    let transfer = |from: &str, to: &str, amount: &str| {
        let amount: Value = serde_json::from_str(amount).unwrap();
        t.post(
            "/accounts/transfers",
            &json!({"debitAccountId": from, "creditAccountId": to, "amount": amount}),
        )
    };
    transfer(&a, &b, "10.01").expect_error(422, "insufficient_funds");
    let ngn = id(&create_account(
        &t,
        json!({"currency": "NGN", "balance": 5}),
    ));
    transfer(&a, &ngn, "1").expect_error(422, "currency_mismatch");
    transfer(&ngn, &a, "1").expect_error(422, "currency_mismatch");
    let no_debit = id(&create_account(
        &t,
        json!({"balance": 5, "canDebit": false}),
    ));
    transfer(&no_debit, &b, "1").expect_error(422, "account_unavailable");
    let no_credit = id(&create_account(&t, json!({"canCredit": false})));
    transfer(&a, &no_credit, "1").expect_error(422, "account_unavailable");
    let inactive = id(&create_account(&t, json!({"status": "inactive"})));
    transfer(&a, &inactive, "1").expect_error(422, "account_unavailable");
    // The same account on both sides is a mistake in the body.
    transfer(&a, &a, "1").expect_field_error("creditAccountId");
    transfer(&a, &b, "0").expect_field_error("amount");
    transfer(&a, &b, "1.001").expect_field_error("amount");
    t.post(
        "/accounts/transfers",
        &json!({"debitAccountId": a, "amount": 1}),
    )
    .expect_field_error("creditAccountId");
    t.post(
        "/accounts/transfers",
        &json!({"debitAccountId": a, "creditAccountId": b, "amount": 1, "memo": "x"}),
    )
    .expect_field_error("memo");
    transfer(&a, "000000000000000000000000", "1").expect_error(404, "not_found");
    assert_eq!(balance(&t, &a), d("10"));
    assert_eq!(balance(&t, &b), d("0"));
    assert!(transfer_entries(&t, &a).is_empty());
    assert_eq!(
        int(&t.list("/accounts/transfers", &[]).body["meta"]["total"]),
        0
    );
    t.get("/accounts/transfers/000000000000000000000000")
        .expect_error(404, "not_found");
}

#[test]
fn another_clients_accounts_and_transfers_are_not_found() {
    let alice = tenant();
    let bob = tenant();
    let (a, b) = two_accounts(&alice, 50);
    let bobs = id(&create_account(&bob, json!({"balance": 50})));
    for (from, to) in [(&a, &bobs), (&bobs, &b)] {
        alice
            .post(
                "/accounts/transfers",
                &json!({"debitAccountId": from, "creditAccountId": to, "amount": 1}),
            )
            .expect_error(404, "not_found");
    }
    let tr = alice
        .post(
            "/accounts/transfers",
            &json!({"debitAccountId": a, "creditAccountId": b, "amount": 1}),
        )
        .data(201)
        .clone();
    bob.get(&format!("/accounts/transfers/{}", id(&tr)))
        .expect_error(404, "not_found");
    assert!(ids(&bob.list("/accounts/transfers", &[])).is_empty());
    assert_eq!(balance(&bob, &bobs), d("50"));
    assert_eq!(balance(&alice, &a), d("49"));
}

#[test]
fn a_retry_with_the_same_key_transfers_once() {
    let t = tenant();
    let (a, b) = two_accounts(&t, 100);
    let body = json!({"debitAccountId": a, "creditAccountId": b, "amount": 30});
    let first = post_with_key(&t, "/accounts/transfers", "tr-1", &body);
    first.expect(201);
    let second = post_with_key(&t, "/accounts/transfers", "tr-1", &body);
    second.expect(201);
    assert_eq!(second.header("idempotent-replayed"), Some("true"));
    assert_eq!(second.body, first.body);
    assert_eq!(balance(&t, &a), d("70"));
    assert_eq!(balance(&t, &b), d("30"));
    assert_eq!(transfer_entries(&t, &a).len(), 1);
    assert_eq!(
        int(&t.list("/accounts/transfers", &[]).body["meta"]["total"]),
        1
    );
    // Another body under the same key is refused.
    post_with_key(
        &t,
        "/accounts/transfers",
        "tr-1",
        &json!({"debitAccountId": a, "creditAccountId": b, "amount": 31}),
    )
    .expect_error(409, "idempotency_conflict");
}

#[test]
fn concurrent_transfers_between_two_accounts_keep_the_sum() {
    let t = tenant();
    let (a, b) = two_accounts(&t, 0);
    t.put(&format!("/accounts/{a}"), &json!({"balance": 500}))
        .expect(200);
    t.put(&format!("/accounts/{b}"), &json!({"balance": 500}))
        .expect(200);
    // 100 transfers of 7, half each way, from 10 threads; some may find too little money.
    let handles: Vec<_> = (0..10)
        .map(|n| {
            let t = t.clone();
            let (a, b) = (a.clone(), b.clone());
            thread::spawn(move || {
                let mut done = (0u32, 0u32);
                for i in 0..10 {
                    let (from, to) = if (n + i) % 2 == 0 { (&a, &b) } else { (&b, &a) };
                    let resp = t.post(
                        "/accounts/transfers",
                        &json!({"debitAccountId": from, "creditAccountId": to, "amount": 7}),
                    );
                    match resp.status {
                        201 if from == &a => done.0 += 1,
                        201 => done.1 += 1,
                        _ => {
                            resp.expect_error(422, "insufficient_funds");
                        }
                    }
                }
                done
            })
        })
        .collect();
    let (mut a_to_b, mut b_to_a) = (0u32, 0u32);
    for h in handles {
        let (x, y) = h.join().unwrap();
        a_to_b += x;
        b_to_a += y;
    }
    let (ba, bb) = (balance(&t, &a), balance(&t, &b));
    assert_eq!(ba + bb, d("1000"));
    let net = Decimal::from(7 * (i64::from(b_to_a) - i64::from(a_to_b)));
    assert_eq!(ba, d("500") + net);
    assert_eq!(
        int(&t.list("/accounts/transfers", &[]).body["meta"]["total"]),
        u64::from(a_to_b + b_to_a)
    );
    // Each ledger is an unbroken chain that ends at the balance.
    for (account, end) in [(&a, ba), (&b, bb)] {
        let resp = t.list(
            &format!("/accounts/{account}/transactions"),
            &[("limit", "200"), ("sort", "createdAt")],
        );
        let mut entries: Vec<Value> = resp.data(200).as_array().unwrap().clone();
        entries.sort_by(|x, y| x["_id"].as_str().cmp(&y["_id"].as_str()));
        let mut running = Decimal::ZERO;
        for e in &entries {
            running += dec(&e["amount"]);
        }
        assert_eq!(running, end, "{}", resp.text);
    }
}
