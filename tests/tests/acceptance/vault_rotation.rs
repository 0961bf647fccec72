//! Vault key rotation: a second key becomes the active one and every card is re-sealed under it while
//! the server keeps serving, by `cards vault rotate` (on PostgreSQL, where the command and the servers
//! share the database; a redb data file belongs to one process, so there the server is stopped for it)
//! or by the server itself (`--vault-rotate`, any native store); `cards vault status` counts the
//! entries per key, the old key can then go, and a store whose data names a key that is not
//! configured is refused with the key's id. On Spin with SQLite (which the command line cannot reach)
//! the keys are checked without the rotation.

use std::collections::BTreeMap;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use acceptance::fixtures::{create_account, id};
use acceptance::host::{HostKind, cards_bin, on_postgres};
use acceptance::*;
use serde_json::json;

/// The operator's key of Spin's operator routes (the variable `dispatch_key`).
const OPERATOR_KEY: &str = "operator-key-for-tests-0123";

const NEW_KEY: &str = "1111111111111111111111111111111111111111111111111111111111111111";

fn issue(t: &Tenant, n: usize) -> Vec<String> {
    let account = id(&create_account(t, json!({"balance": 10000})));
    let body = json!({"name": "Ada Lovelace", "person": {"firstName": "Ada", "lastName": "Lovelace",
        "email": "ada@example.com", "phoneNumber": "+15555550100"}});
    let holder = id(t.post("/card-holders", &body).data(201));
    (0..n)
        .map(|_| {
            id(t.post(
                "/cards",
                &json!({"debitAccountId": account, "cardHolderId": holder, "type": "virtual",
                    "brand": "visa", "status": "active", "amount": 1}),
            )
            .data(201))
        })
        .collect()
}

fn reveal(t: &Tenant, card: &str) -> Resp {
    let r = t.send("POST", &format!("/cards/{card}/token"), &[], None);
    let token = r.data(201)["token"].as_str().unwrap().to_string();
    t.get(&format!("/cards/{card}/reveal?token={}", encode(&token)))
}

fn pans(t: &Tenant, cards: &[String]) -> BTreeMap<String, String> {
    cards
        .iter()
        .map(|c| (c.clone(), reveal_pan(&reveal(t, c))))
        .collect()
}

#[track_caller]
fn reveal_pan(r: &Resp) -> String {
    r.expect(200);
    r.body["pan"].as_str().unwrap_or_default().to_string()
}

/// `cards vault ARGS` on the instance's store with `keys`; (success, stdout + stderr).
fn vault_cmd(server: &Instance, args: &[&str], keys: &[&str]) -> (bool, String) {
    let mut cmd = Command::new(cards_bin());
    for var in [
        "CARDS_VAULT_KEY",
        "CARDS_VAULT_KEY_FILE",
        "CARDS_STORE",
        "CARDS_DATA",
    ] {
        cmd.env_remove(var);
    }
    cmd.arg("vault").args(args);
    match server.store_url() {
        Some(url) => cmd.arg("--store").arg(url),
        None => cmd.arg("--data").arg(server.state_dir().join("cards.redb")),
    };
    for k in keys {
        cmd.arg("--vault-key").arg(k);
    }
    let out = cmd.output().expect("run cards vault");
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// `key ID: N entries` lines of `cards vault status`.
fn status(server: &Instance, keys: &[&str]) -> BTreeMap<String, u64> {
    let (ok, out) = vault_cmd(server, &["status"], keys);
    assert!(ok, "cards vault status: {out}");
    out.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("key ")?;
            let (id, rest) = rest.split_once(": ")?;
            let n = rest.split_whitespace().next()?.parse().ok()?;
            Some((id.to_string(), n))
        })
        .collect()
}

#[test]
fn rotation_keeps_every_card_readable_and_frees_the_old_key() {
    let mut server = Instance::start_with_env(&[("CARDS_DISPATCH_KEY", OPERATOR_KEY)]);
    let old = server.vault_key().unwrap().to_string();
    let t = server.tenant(0);
    let cards = issue(&t, 12);
    let before = pans(&t, &cards);
    assert!(before.values().all(|p| p.len() == 16), "{before:?}");

    // The new key first, the old one kept for opening.
    server.stop(Stop::Graceful);
    server.set_vault_keys(&[NEW_KEY, &old]);
    server.restart();
    let t = server.tenant(0);
    assert_eq!(
        pans(&t, &cards[..3]),
        before
            .iter()
            .take(3)
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    );
    let mut cards = cards;
    let mut before = before;
    let newer = issue(&t, 1);
    before.extend(pans(&t, &newer));
    cards.extend(newer);

    let spin_sqlite = server.kind() == HostKind::Spin && !on_postgres();
    if spin_sqlite {
        // The command line cannot reach Spin's SQLite: without a rotation the old key stays needed,
        // and leaving it out is a clear 503 naming it.
        server.stop(Stop::Graceful);
        server.set_vault_keys(&[NEW_KEY]);
        server.restart();
        let r = reveal(&server.tenant(0), &cards[0]);
        r.expect_error(503, "vault_key_mismatch");
        assert!(
            r.body["message"].as_str().unwrap().contains("key id"),
            "{}",
            r.text
        );
        // The operator's route rotates instead, a step per call, while the component serves.
        server.stop(Stop::Graceful);
        server.set_vault_keys(&[NEW_KEY, &old]);
        server.restart();
        let t = server.tenant(0);
        let refused = acceptance::client::try_send_to(
            server.base_url(),
            "POST",
            "/vault/rotate",
            &[("x-dispatch-key", "not-the-operator-key")],
            None,
        )
        .unwrap();
        assert_eq!(refused.status, 401, "{}", refused.text);
        let mut steps = 0;
        loop {
            let step = acceptance::client::try_send_to(
                server.base_url(),
                "POST",
                "/vault/rotate",
                &[("x-dispatch-key", OPERATOR_KEY)],
                None,
            )
            .unwrap();
            let data = step.data(200).clone();
            let card = &cards[steps % cards.len()];
            assert_eq!(
                &reveal_pan(&reveal(&t, card)),
                &before[card],
                "during the rotation"
            );
            steps += 1;
            if data["done"] == true {
                assert_eq!(data["leftUnderOtherKeys"], 0, "{data}");
                break;
            }
            assert!(steps < 100, "the rotation does not end: {data}");
        }
    }

    if spin_sqlite {
        // Rotated above.
    } else if !on_postgres() {
        // redb: the data file is the server's while it runs.
        let (ok, out) = vault_cmd(&server, &["rotate"], &[NEW_KEY, &old]);
        assert!(
            !ok && out.contains("in use"),
            "rotated a redb file a server holds open: {out}"
        );
        server.stop(Stop::Graceful);
    }
    // The command line (Spin SQLite rotated through its route above).
    let new_id = if spin_sqlite {
        None
    } else {
        let counts = status(&server, &[NEW_KEY, &old]);
        // 13 cards and the store's PAN-index key.
        assert_eq!(counts.values().sum::<u64>(), 14, "{counts:?}");
        assert_eq!(counts.len(), 2, "one entry under the new key: {counts:?}");
        let new_id = counts
            .iter()
            .find(|(_, n)| **n == 1)
            .map(|(id, _)| id.clone())
            .unwrap();
        let old_id = counts.keys().find(|id| **id != new_id).unwrap().clone();

        if on_postgres() {
            // While the server serves: reveals before, during and after the rotation.
            let stop = Arc::new(AtomicBool::new(false));
            let done = Arc::new(AtomicU64::new(0));
            let reader = {
                let (t, cards, before) = (t.clone(), cards.clone(), before.clone());
                let (stop, done) = (stop.clone(), done.clone());
                std::thread::spawn(move || {
                    let mut i = 0;
                    while !stop.load(Ordering::SeqCst) || i < cards.len() {
                        let card = &cards[i % cards.len()];
                        let r = reveal(&t, card);
                        assert_eq!(&reveal_pan(&r), &before[card], "during the rotation");
                        done.fetch_add(1, Ordering::SeqCst);
                        i += 1;
                    }
                })
            };
            let (ok, out) = vault_cmd(&server, &["rotate", "--batch", "2"], &[NEW_KEY, &old]);
            stop.store(true, Ordering::SeqCst);
            reader
                .join()
                .expect("every reveal during the rotation succeeded");
            assert!(ok, "cards vault rotate: {out}");
            assert!(out.contains("re-sealed 13 of 14"), "{out}");
            assert!(done.load(Ordering::SeqCst) >= 13);
        } else {
            let (ok, out) = vault_cmd(&server, &["rotate", "--batch", "5"], &[NEW_KEY, &old]);
            assert!(ok && out.contains("re-sealed 13 of 14"), "{out}");
            let counts = status(&server, &[NEW_KEY]);
            assert_eq!(counts, BTreeMap::from([(new_id.clone(), 14)]));
            server.restart();
        }
        if on_postgres() {
            let counts = status(&server, &[NEW_KEY]);
            assert_eq!(counts, BTreeMap::from([(new_id.clone(), 14)]));
        }
        // Again: nothing left to do.
        if on_postgres() {
            let (ok, out) = vault_cmd(&server, &["rotate"], &[NEW_KEY, &old]);
            assert!(ok && out.contains("re-sealed 0 of 14"), "{out}");
        }
        let _ = old_id;
        Some(new_id)
    };
    let t = server.tenant(0);
    assert_eq!(pans(&t, &cards), before);

    // The old key removed: everything still reveals, and new cards are issued.
    server.stop(Stop::Graceful);
    server.set_vault_keys(&[NEW_KEY]);
    server.restart();
    let t = server.tenant(0);
    assert_eq!(pans(&t, &cards), before);
    issue(&t, 1);

    // The old key alone: the data names a key that is not configured.
    server.stop(Stop::Graceful);
    server.set_vault_keys(&[&old]);
    match server.kind() {
        HostKind::Native => {
            let err = server
                .try_restart()
                .expect_err("started without the new key");
            let new_id = new_id.expect("the command line rotated");
            assert!(
                err.contains(&new_id),
                "the refusal names the key id:\n{err}"
            );
        }
        HostKind::Spin => {
            server.restart();
            let r = reveal(&server.tenant(0), &cards[0]);
            r.expect_error(503, "vault_key_mismatch");
            let named = new_id.as_deref().unwrap_or("key id");
            assert!(r.text.contains(named), "{}", r.text);
        }
    }
}

#[test]
fn a_killed_rotation_resumes_where_it_stopped() {
    if HostKind::from_env() != HostKind::Native || on_postgres() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("cards.redb");
    let old = "2222222222222222222222222222222222222222222222222222222222222222";
    let cards = |args: &[&str]| {
        let mut cmd = Command::new(cards_bin());
        for var in [
            "CARDS_VAULT_KEY",
            "CARDS_VAULT_KEY_FILE",
            "CARDS_STORE",
            "CARDS_DATA",
        ] {
            cmd.env_remove(var);
        }
        cmd.args(args).arg("--data").arg(&data);
        cmd
    };
    let out = cards(&["seed", "--cards", "3000", "--vault-key", old])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    // One entry per transaction: slow enough to be killed midway.
    let mut child = cards(&[
        "vault",
        "rotate",
        "--batch",
        "1",
        "--vault-key",
        NEW_KEY,
        "--vault-key",
        old,
    ])
    .stdout(std::process::Stdio::null())
    .stderr(std::process::Stdio::null())
    .spawn()
    .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert!(
        child.try_wait().unwrap().is_none(),
        "the rotation ended before it could be killed"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    let status = cards(&["vault", "status"]).output().unwrap();
    let status = String::from_utf8_lossy(&status.stdout).to_string();
    assert!(status.contains("interrupted"), "{status}");
    let counts: Vec<u64> = status
        .lines()
        .filter_map(|l| {
            l.split(": ")
                .nth(1)?
                .split_whitespace()
                .next()?
                .parse()
                .ok()
        })
        .collect();
    assert_eq!(counts.len(), 2, "some entries moved, some not: {status}");
    // The cards and the PAN-index key.
    assert_eq!(counts.iter().sum::<u64>(), 3001);

    let out = cards(&[
        "vault",
        "rotate",
        "--vault-key",
        NEW_KEY,
        "--vault-key",
        old,
    ])
    .output()
    .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{said}");
    assert!(said.contains("resuming"), "{said}");
    let status = cards(&["vault", "status", "--vault-key", NEW_KEY])
        .output()
        .unwrap();
    let status = String::from_utf8_lossy(&status.stdout).to_string();
    assert!(
        status.contains(": 3001 entries (active)") && !status.contains("interrupted"),
        "{status}"
    );
}

/// `cards serve --vault-rotate`: the server itself re-seals every card and endpoint secret under the
/// new key in the background while it serves (the way to rotate a redb data file, which no other
/// process can open while it is served); reveals keep working throughout, and the old key can go.
#[test]
fn a_server_started_with_vault_rotate_reseals_while_serving() {
    if HostKind::from_env() != HostKind::Native {
        return; // Spin has no background task: the command line rotates on its PostgreSQL.
    }
    let mut server = Instance::start_with_env(&[
        ("CARDS_VAULT_ROTATE", "true"),
        ("CARDS_VAULT_ROTATE_BATCH", "3"),
    ]);
    let old = server.vault_key().unwrap().to_string();
    let t = server.tenant(0);
    let cards = issue(&t, 40);
    let before = pans(&t, &cards);
    let hook = id(t
        .post(
            "/webhook-endpoints",
            &json!({"url": "http://127.0.0.1:9/hook", "enabledEvents": ["*"]}),
        )
        .data(201));
    // One key only: nothing to do.
    assert!(
        server.log().contains("every entry is under the active key"),
        "{}",
        server.log()
    );

    server.stop(Stop::Graceful);
    server.set_vault_keys(&[NEW_KEY, &old]);
    server.restart();
    let t = server.tenant(0);
    let mut reveals = 0;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let card = &cards[reveals % cards.len()];
        assert_eq!(
            &reveal_pan(&reveal(&t, card)),
            &before[card],
            "during the rotation"
        );
        reveals += 1;
        if server.log().contains("vault rotation finished") {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "{}", server.log());
    }
    assert!(
        server.log().contains("vault rotation started"),
        "{}",
        server.log()
    );

    // The old key removed: every card reveals, the endpoint's secret still signs, new cards issue.
    server.stop(Stop::Graceful);
    let counts = status(&server, &[NEW_KEY]);
    assert_eq!(counts.len(), 1, "{counts:?}");
    assert_eq!(
        counts.values().sum::<u64>(),
        42,
        "40 cards, the PAN-index key and one endpoint secret: {counts:?}"
    );
    server.set_vault_keys(&[NEW_KEY]);
    server.restart();
    let t = server.tenant(0);
    assert_eq!(pans(&t, &cards), before);
    let ping = t.post(&format!("/webhook-endpoints/{hook}/test"), &json!({}));
    assert_ne!(
        ping.status, 503,
        "the endpoint's secret opens: {}",
        ping.text
    );
    issue(&t, 1);
}
