//! The vault key against the data: a missing key and a key that is not the one the cards were sealed
//! with fail loudly and explainably, never as a bare 500, and the original key still works afterwards.
//! Each test runs a server of its own so that it can restart it with another key.

use acceptance::fixtures::{create_account, create_holder, id};
use acceptance::host::HostKind;
use acceptance::*;
use serde_json::json;

fn new_card(t: &Tenant) -> serde_json::Value {
    let account = id(&create_account(t, json!({"balance": 100})));
    json!({"debitAccountId": account, "cardHolderId": create_holder(t), "type": "virtual",
        "brand": "visa", "status": "active", "amount": 5})
}

fn reveal(t: &Tenant, card: &str) -> Resp {
    let r = t.send("POST", &format!("/cards/{card}/token"), &[], None);
    let token = r.data(201)["token"].as_str().unwrap().to_string();
    t.get(&format!("/cards/{card}/reveal?token={}", encode(&token)))
}

const OTHER_KEY: &str = "0000000000000000000000000000000000000000000000000000000000000001";

#[test]
fn a_key_that_did_not_seal_the_data_is_refused_and_the_right_one_still_works() {
    let mut server = Instance::start();
    let original = server.vault_key().unwrap().to_string();
    let t = server.tenant(0);
    let body = new_card(&t);
    let card = id(t.post("/cards", &body).data(201));
    reveal(&t, &card).data(200);

    server.stop(Stop::Graceful);
    server.set_vault_key(Some(OTHER_KEY));
    match server.kind() {
        // The native host checks the key at start and refuses to serve with the wrong one.
        HostKind::Native => {
            let err = server
                .try_restart()
                .expect_err("started with the wrong vault key");
            assert!(
                err.contains("vault key") && err.contains("sealed"),
                "no explanation in the log:\n{err}"
            );
        }
        // A Spin instance lives for one request: each vault route answers 503 with the reason.
        HostKind::Spin => {
            server.restart();
            let t = server.tenant(0);
            t.post("/cards", &new_card(&t))
                .expect_error(503, "vault_key_mismatch");
            t.send("POST", &format!("/cards/{card}/token"), &[], None)
                .data(201);
            let r = reveal(&t, &card);
            r.expect_error(503, "vault_key_mismatch");
            assert!(r.body["message"].as_str().unwrap().contains("vault key"));
            // Routes without card data are unaffected.
            t.get(&format!("/cards/{card}")).data(200);
            server.stop(Stop::Graceful);
        }
    }

    server.set_vault_key(Some(&original));
    server.restart();
    let t = server.tenant(0);
    let pan = reveal(&t, &card).body["pan"].clone();
    assert!(pan.as_str().is_some_and(|p| p.len() >= 15), "{pan}");
    t.post("/cards", &new_card(&t)).data(201);
}

#[test]
fn no_vault_key_is_a_clear_503_on_spin_and_a_kept_key_file_natively() {
    let mut server = Instance::start();
    server.stop(Stop::Graceful);
    server.set_vault_key(None);
    if acceptance::host::on_postgres() && server.kind() == HostKind::Native {
        // A shared database has no place beside it for a key file: the native server refuses to
        // start. (The Spin component answers as on SQLite, below: it keeps no key file anywhere.)
        let err = server
            .try_restart()
            .expect_err("started on PostgreSQL without a vault key");
        assert!(err.contains("needs the vault key"), "{err}");
        return;
    }
    server.restart();
    let t = server.tenant(0);
    let body = new_card(&t);
    match server.kind() {
        HostKind::Spin => {
            let r = t.post("/cards", &body);
            r.expect_error(503, "not_configured");
            assert!(r.body["message"].as_str().unwrap().contains("vault_key"));
            // Nothing was written: the account's balance is untouched.
            let account = body["debitAccountId"].as_str().unwrap();
            assert_eq!(
                dec(&t.get(&format!("/accounts/{account}")).data(200)["balance"]),
                d("100")
            );
        }
        HostKind::Native => {
            // Natively a key file is made beside the data and reused at the next start.
            let card = id(t.post("/cards", &body).data(201));
            server.stop(Stop::Graceful);
            server.restart();
            reveal(&server.tenant(0), &card).data(200);
        }
    }
}
