//! Concurrent requests on the shared server: every acknowledged change is applied exactly once and the
//! ledger stays a consistent chain.

use std::thread;

use acceptance::fixtures::{create_account, create_detail, id};
use acceptance::*;
use rust_decimal::Decimal;
use serde_json::{Value, json};

#[test]
fn concurrent_balance_updates_keep_the_ledger_consistent() {
    let t = tenant();
    let account = create_account(&t, json!({"balance": 0}));
    let p = format!("/accounts/{}", id(&account));
    let handles: Vec<_> = (1..=8)
        .map(|n| {
            let t = t.clone();
            let p = p.clone();
            thread::spawn(move || {
                for i in 0..5 {
                    let target = n * 100 + i;
                    t.put(&p, &json!({"balance": target})).expect(200);
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    let balance = dec(&t.get(&p).data(200)["balance"]);
    let resp = t.list(&format!("{p}/transactions"), &[("limit", "200")]);
    let mut entries: Vec<Value> = resp.data(200).as_array().unwrap().clone();
    entries.sort_by(|a, b| a["_id"].as_str().cmp(&b["_id"].as_str()));
    // Every PUT changed the balance (each thread sets values no other thread sets), so 40 entries.
    assert_eq!(entries.len(), 40, "{}", resp.text);
    let mut running = Decimal::ZERO;
    for e in &entries {
        running += dec(&e["amount"]);
        assert_eq!(
            dec(&e["balanceAfter"]),
            running,
            "ledger chain broken at {e}"
        );
    }
    assert_eq!(running, balance);
}

#[test]
fn concurrent_creates_all_succeed_with_unique_ids() {
    let t = tenant();
    let handles: Vec<_> = (0..8)
        .map(|_| {
            let t = t.clone();
            thread::spawn(move || {
                (0..10)
                    .map(|_| id(&create_account(&t, json!({}))))
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut all: Vec<String> = handles
        .into_iter()
        .flat_map(|h| h.join().unwrap())
        .collect();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 80);
    let mut listed = ids(&t.list("/accounts", &[("limit", "200")]));
    listed.sort();
    assert_eq!(listed, all);
}

#[test]
fn concurrent_primaries_leave_exactly_one() {
    let t = tenant();
    let account = create_account(&t, json!({}));
    let account_id = id(&account);
    let handles: Vec<_> = (0..8)
        .map(|_| {
            let t = t.clone();
            let account_id = account_id.clone();
            thread::spawn(move || create_detail(&t, &account_id, json!({"isPrimary": true})))
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    let resp = t.list(
        &format!("/accounts/{account_id}/details"),
        &[("isPrimary", "true")],
    );
    assert_eq!(ids(&resp).len(), 1, "{}", resp.text);
    let resp = t.get(&format!("/accounts/{account_id}/details"));
    assert_eq!(ids(&resp).len(), 8);
}
