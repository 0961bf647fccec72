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

/// The fatal path on a real disk that fills up: with the file size capped (RLIMIT_FSIZE) a write
/// to the data file or the log fails under load (EFBIG). The store is marked failed, the write whose record failed answers 500,
/// and the process exits with status 1 on its own (so a supervisor restarts it); on restart every
/// write that was acknowledged is there.
#[test]
fn a_failed_log_append_stops_the_server_and_loses_no_acknowledged_write() {
    use acceptance::client::try_send_to;
    use acceptance::host::{Process, cards_bin, free_addr};
    use std::os::unix::process::CommandExt;
    use std::process::Command;
    use std::time::Duration;

    if HostKind::from_env() != HostKind::Native || on_postgres() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("cards.redb");
    let key = "fatal_test_key_0123456789";
    let serve = |limit: Option<u64>| {
        let addr = free_addr();
        let mut cmd = Command::new(cards_bin());
        cmd.args(["serve", "--listen", &addr.to_string()])
            .arg("--data")
            .arg(&data)
            .args(["--api-key", &format!("{key}=acme")])
            .args(["--checkpoint-interval", "60m"])
            .env("CARDS_WRITE_RATE", "0")
            .env_remove("CARDS_STORE")
            .env_remove("CARDS_VAULT_KEY");
        if let Some(limit) = limit {
            // SAFETY: setrlimit and signal are async-signal-safe and touch no parent memory.
            unsafe {
                cmd.pre_exec(move || {
                    // A write past the cap fails with EFBIG instead of killing the process.
                    libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                    let cap = libc::rlimit {
                        rlim_cur: limit,
                        rlim_max: limit,
                    };
                    if libc::setrlimit(libc::RLIMIT_FSIZE, &cap) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
        let log = dir.path().join(format!("serve-{}.log", addr.port()));
        Process::spawn(cmd, addr, &log).unwrap()
    };
    // The files start well under the cap (the data file at about 1 MiB, the log empty); the log
    // grows past it (about 2 KiB a write: some 700 writes), the data file does not (no checkpoint).
    let server = serve(Some(3 << 19));
    let t = acceptance::client::Tenant::at(&server.base_url, key, "acme");
    let name = "n".repeat(200);
    let mut acknowledged = Vec::new();
    let mut failed = None;
    for _ in 0..20_000 {
        let body = serde_json::to_vec(&account_body(json!({ "name": name }))).unwrap();
        let sent = try_send_to(
            &t.base_url,
            "POST",
            "/accounts",
            &[
                ("authorization", &format!("Bearer {key}")),
                ("content-type", "application/json"),
            ],
            Some(body),
        );
        match sent {
            Ok(r) if r.status == 201 => acknowledged.push(r.body["data"].clone()),
            Ok(r) => {
                failed = Some(r.status);
                break;
            }
            Err(_) => break,
        }
    }
    assert_eq!(failed, Some(500), "the write whose log record failed");
    assert!(
        acknowledged.len() > 100,
        "{} written first",
        acknowledged.len()
    );
    let exit = server.wait_exit(Duration::from_secs(30));
    assert_eq!(exit, Ok(Some(1)), "{}", server.output());
    assert!(
        server
            .output()
            .contains("group commit failed; the writer stops"),
        "{}",
        server.output()
    );

    let again = serve(None);
    let t = acceptance::client::Tenant::at(&again.base_url, key, "acme");
    for account in &acknowledged {
        assert_eq!(
            &t.get(&format!("/accounts/{}", id(account)))
                .data(200)
                .clone(),
            account
        );
    }
}
