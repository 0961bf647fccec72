//! Durability: what the server acknowledged survives a crash (SIGKILL) and a graceful stop (SIGTERM).
//! Each test runs a server of its own, so it can stop and restart it on the same data.

use acceptance::fixtures::{account_body, create_account, create_detail, id};
use acceptance::host::{HostKind, on_postgres};
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

/// The native host answers a write once its batch is in the fsynced write-ahead log, before the
/// data file has it; a crash then leaves the writes only in the log, and the restart applies them.
#[test]
fn writes_only_in_the_write_ahead_log_survive_a_crash() {
    if HostKind::from_env() != HostKind::Native || on_postgres() {
        return;
    }
    // No checkpoint after the first batch: everything acknowledged later lives in the log alone.
    let mut server = Instance::start_with_env(&[("CARDS_CHECKPOINT_INTERVAL", "60m")]);
    let threads: Vec<_> = (0..4)
        .map(|n| {
            let t = server.tenant(0);
            std::thread::spawn(move || {
                (0..5)
                    .map(|i| {
                        create_account(&t, json!({"name": format!("{n}-{i}"), "balance": i + 1}))
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let created: Vec<serde_json::Value> = threads
        .into_iter()
        .flat_map(|h| h.join().unwrap())
        .collect();
    let log = server.state_dir().join("cards.redb.wal");
    let logged = std::fs::metadata(&log).map(|m| m.len()).unwrap_or(0);
    assert!(
        logged > 0,
        "the acknowledged writes are in {}",
        log.display()
    );

    server.stop(Stop::Crash);
    server.restart();
    let t = server.tenant(0);

    for account in &created {
        let p = format!("/accounts/{}", id(account));
        assert_eq!(t.get(&p).data(200), account);
        assert_eq!(ids(&t.get(&format!("{p}/transactions"))).len(), 1);
    }
    assert_eq!(int(&t.get("/accounts").body["meta"]["total"]), 20);
    assert_eq!(
        std::fs::metadata(&log).map(|m| m.len()).unwrap_or(0),
        0,
        "the restart applied the log and emptied it"
    );
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
