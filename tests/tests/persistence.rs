//! Durability: what the server acknowledged survives a crash (SIGKILL) and a graceful stop (SIGTERM).
//! Each test runs a server of its own, so it can stop and restart it on the same data.

use acceptance::fixtures::{account_body, create_account, create_detail, id};
use acceptance::*;
use serde_json::json;

#[test]
fn acknowledged_writes_survive_a_crash() {
    let mut server = Instance::start();
    let t = server.tenant(0);
    let account = create_account(&t, json!({"balance": 12.34, "currency": "ngn"}));
    let p = format!("/accounts/{}", id(&account));
    let updated = t
        .put(&p, &json!({"balance": 20, "name": "Renamed"}))
        .data(200)
        .clone();
    let detail = create_detail(&t, &id(&account), json!({"isPrimary": true}));
    let ledger_before = ids(&t.get(&format!("{p}/transactions")));
    assert_eq!(ledger_before.len(), 2);

    server.stop(Stop::Crash);
    server.restart();
    let t = server.tenant(0);

    assert_eq!(t.get(&p).data(200), &updated);
    assert_eq!(ids(&t.get(&format!("{p}/transactions"))), ledger_before);
    assert_eq!(
        t.get(&format!("{p}/details/{}", id(&detail))).data(200),
        &detail
    );
    // Still writable, and the new ids do not collide with the old ones.
    let again = create_account(&t, json!({}));
    assert_ne!(id(&again), id(&account));
    assert_eq!(int(&t.get("/accounts").body["meta"]["total"]), 2);
    // Tenancy holds across restarts.
    server.tenant(1).get(&p).expect_error(404, "not_found");
}

#[test]
fn concurrent_acknowledged_creates_all_survive_a_crash() {
    let mut server = Instance::start();
    let threads: Vec<_> = (0..4)
        .map(|n| {
            let t = server.tenant(n);
            std::thread::spawn(move || {
                (0..10)
                    .map(|i| {
                        id(&create_account(
                            &t,
                            json!({"name": format!("acct {i}"), "balance": i}),
                        ))
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let created: Vec<Vec<String>> = threads.into_iter().map(|h| h.join().unwrap()).collect();

    server.stop(Stop::Crash);
    server.restart();

    for (n, mine) in created.iter().enumerate() {
        let t = server.tenant(n);
        let mut listed = ids(&t.list("/accounts", &[("limit", "200")]));
        listed.sort();
        let mut want = mine.clone();
        want.sort();
        assert_eq!(listed, want, "tenant {n}");
    }
}

#[test]
fn idempotency_records_survive_a_restart() {
    let mut server = Instance::start();
    let t = server.tenant(0);
    let body = serde_json::to_vec(&account_body(json!({"balance": 5}))).unwrap();
    let headers = [
        ("content-type", "application/json"),
        ("idempotency-key", "restart-1"),
    ];
    let first = t.send("POST", "/accounts", &headers, Some(body.clone()));
    first.expect(201);

    server.stop(Stop::Crash);
    server.restart();
    let t = server.tenant(0);

    let second = t.send("POST", "/accounts", &headers, Some(body));
    second.expect(201);
    assert_eq!(second.header("idempotent-replayed"), Some("true"));
    assert_eq!(second.body, first.body);
    assert_eq!(int(&t.get("/accounts").body["meta"]["total"]), 1);
}

#[test]
fn graceful_stop_exits_cleanly_and_keeps_data() {
    let mut server = Instance::start();
    let t = server.tenant(0);
    let account = create_account(&t, json!({"balance": 1}));
    assert_eq!(
        server.stop(Stop::Graceful),
        Some(0),
        "SIGTERM ends the server with exit code 0"
    );
    server.restart();
    let t = server.tenant(0);
    assert_eq!(
        t.get(&format!("/accounts/{}", id(&account))).data(200),
        &account
    );
}
