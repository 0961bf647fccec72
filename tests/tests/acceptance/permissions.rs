//! Restricted keys and the audit trail, on every host: keys made over `POST /api-keys` with some
//! grants, each grant honoured and each missing one refused (403 `permission_denied` naming it,
//! nothing written, the body of a refused write not read), `reveal` off unless granted, and
//! `/audit-events` recording tokens, reveals (refused ones too) and key changes, per client, with
//! no card data in it.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use acceptance::fixtures::{create_account, create_holder, id};
use acceptance::host::{HostKind, server};
use acceptance::*;
use serde_json::{Value, json};

/// A key of `admin`'s client with `grants` (None: the body has no `permissions`).
fn key_with(admin: &Tenant, grants: Option<&[&str]>) -> (Tenant, Value) {
    let body = match grants {
        Some(g) => json!({ "permissions": g }),
        None => json!({}),
    };
    let data = admin.post("/api-keys", &body).data(201).clone();
    let key = data["key"].as_str().expect("the new key, shown once");
    assert!(key.starts_with("ck_"), "{data}");
    (Tenant::at(&admin.base_url, key, &admin.client), data)
}

fn card(t: &Tenant) -> String {
    let acct = id(&create_account(t, json!({"balance": 100})));
    let h = create_holder(t);
    id(t.post(
        "/cards",
        &json!({"debitAccountId": acct, "cardHolderId": h, "type": "virtual",
            "brand": "Visa", "status": "active", "amount": 5}),
    )
    .data(201))
}

#[track_caller]
fn denied(r: &Resp, missing: &str) {
    r.expect_error(403, "permission_denied");
    let message = r.body["message"].as_str().unwrap_or_default();
    assert!(
        message.contains(missing),
        "{} -> the message names {missing}: {message}",
        r.request
    );
}

fn total(t: &Tenant, path: &str) -> u64 {
    int(&t.get(&format!("{path}?limit=1")).expect(200).body["meta"]["total"])
}

#[test]
fn each_grant_is_honoured_and_each_missing_one_refused() {
    let admin = tenant();
    let card_id = card(&admin);
    let (t, data) = key_with(&admin, Some(&["cards:read", "accounts:write"]));
    assert_eq!(data["permissions"]["cards"], "read");
    assert_eq!(data["permissions"]["accounts"], "write");
    assert_eq!(data["permissions"]["events"], "none");
    assert_eq!(data["reveal"], false);
    assert_eq!(data["client"], json!(admin.client));

    // Granted: accounts read and write, cards read.
    create_account(&t, json!({}));
    t.get("/accounts").expect(200);
    let before = t.get(&format!("/cards/{card_id}")).data(200).clone();

    // Refused, naming what is missing, and nothing written.
    let cards_before = total(&admin, "/cards");
    denied(
        &t.put(&format!("/cards/{card_id}"), &json!({"status": "inactive"})),
        "cards:write",
    );
    denied(
        &t.post("/cards", &json!({"type": "virtual"})),
        "cards:write",
    );
    denied(&t.delete(&format!("/cards/{card_id}")), "cards:write");
    assert_eq!(total(&admin, "/cards"), cards_before);
    assert_eq!(
        admin.get(&format!("/cards/{card_id}")).data(200)["status"],
        before["status"]
    );
    denied(&t.get("/events"), "events:read");
    denied(&t.get("/card-holders"), "card_holders:read");
    denied(&t.get("/authorizations"), "authorizations:read");
    denied(&t.get("/audit-events"), "audit:read");
    denied(&t.get("/api-keys"), "api_keys:read");
    denied(&t.post("/api-keys", &json!({})), "api_keys:write");
    // `reveal` is off unless granted.
    denied(
        &t.send("POST", &format!("/cards/{card_id}/token"), &[], None),
        "reveal",
    );
    denied(
        &t.get(&format!("/cards/{card_id}/reveal?token=rvl_x")),
        "reveal",
    );
    // Bad credentials are still 401, before any permission.
    Tenant::at(&admin.base_url, "ck_nope_nope_nope_nope", &admin.client)
        .get("/cards")
        .expect_error(401, "unauthorized");
}

#[test]
fn a_refused_write_is_answered_before_its_body_is_read() {
    if server().kind != HostKind::Native {
        // The Spin runtime reads a request's body before the component sees the request.
        return;
    }
    let admin = tenant();
    let (t, _) = key_with(&admin, Some(&["cards:read"]));
    let addr = admin.base_url.trim_start_matches("http://");
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    // Announces a 1 MB body and sends none of it: only an answer from the head can come back.
    write!(
        stream,
        "POST /cards HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {}\r\n\
         Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n",
        t.key
    )
    .unwrap();
    let mut buf = [0u8; 4096];
    let n = stream.read(&mut buf).expect("an answer without the body");
    let head = String::from_utf8_lossy(&buf[..n]);
    assert!(head.starts_with("HTTP/1.1 403"), "{head}");
    assert!(head.contains("permission_denied"), "{head}");
}

#[test]
fn a_key_grants_only_what_it_holds_and_keys_can_be_listed_and_revoked() {
    let admin = tenant();
    // Without `permissions`: the caller's grants without reveal.
    let (default, data) = key_with(&admin, None);
    assert_eq!(data["reveal"], false);
    assert_eq!(data["permissions"]["cards"], "write");
    assert_eq!(data["permissions"]["api_keys"], "write");
    // A key without reveal cannot make one with it.
    denied(
        &default.post(
            "/api-keys",
            &json!({"permissions": ["cards:read", "reveal"]}),
        ),
        "does not hold",
    );
    let (reader, _) = key_with(&default, Some(&["*:read"]));
    denied(
        &reader.post("/api-keys", &json!({"permissions": ["*:read"]})),
        "api_keys:write",
    );
    admin
        .post("/api-keys", &json!({"permissions": ["cards:admin"]}))
        .expect_field_error("permissions");
    admin
        .post("/api-keys", &json!({"permissions": "cards:read"}))
        .expect_field_error("permissions");
    admin
        .post("/api-keys", &json!({"name": "x"}))
        .expect_field_error("name");

    let reader_id = admin.get("/api-keys").expect(200).body["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["permissions"]["cards"] == "read" && k["permissions"]["accounts"] == "read")
        .map(|k| k["_id"].as_str().unwrap().to_string())
        .expect("the reader key is listed");
    let listed = admin.get("/api-keys").expect(200).text.clone();
    assert!(!listed.contains(&reader.key) && !listed.contains(&default.key));
    // Another client neither sees nor revokes it.
    let other = tenant();
    assert!(!other.get("/api-keys").expect(200).text.contains(&reader_id));
    other
        .delete(&format!("/api-keys/{reader_id}"))
        .expect_error(404, "not_found");
    reader.get("/cards").expect(200);
    admin.delete(&format!("/api-keys/{reader_id}")).expect(200);
    reader.get("/cards").expect_error(401, "unauthorized");
    admin
        .delete(&format!("/api-keys/{reader_id}"))
        .expect_error(404, "not_found");
}

#[test]
fn tokens_reveals_and_key_changes_are_audited_without_card_data() {
    let admin = tenant();
    let card_id = card(&admin);
    let (revealer, created) = key_with(&admin, Some(&["cards:read", "reveal"]));
    let revealer_id = created["_id"].as_str().unwrap().to_string();
    let (no_reveal, created) = key_with(&admin, Some(&["cards:read"]));
    let no_reveal_id = created["_id"].as_str().unwrap().to_string();

    let token_resp = revealer.send(
        "POST",
        &format!("/cards/{card_id}/token"),
        &[("x-request-id", "audit-token-1")],
        None,
    );
    let token = token_resp.data(201)["token"].as_str().unwrap().to_string();
    let secrets = revealer
        .get(&format!("/cards/{card_id}/reveal?token={}", encode(&token)))
        .expect(200)
        .body
        .clone();
    let pan = secrets["pan"].as_str().unwrap().to_string();
    let cvv = secrets["cvv"].as_str().unwrap().to_string();
    // Used already: refused, and recorded.
    revealer
        .get(&format!("/cards/{card_id}/reveal?token={}", encode(&token)))
        .expect_error(403, "invalid_token");
    // Without the grant: refused, and recorded.
    denied(
        &no_reveal.send("POST", &format!("/cards/{card_id}/token"), &[], None),
        "reveal",
    );

    let list = admin.get("/audit-events?limit=100");
    list.expect(200);
    let events = list.body["data"].as_array().unwrap();
    let find = |action: &str, outcome: &str, key: &str| {
        events
            .iter()
            .find(|e| e["action"] == action && e["outcome"] == outcome && e["keyId"] == key)
            .unwrap_or_else(|| panic!("no {action} {outcome} by {key} in {events:#?}"))
    };
    let t = find("card.token_created", "success", &revealer_id);
    assert_eq!(t["cardId"], json!(card_id));
    assert_eq!(t["requestId"], "audit-token-1");
    assert_eq!(t["error"], Value::Null);
    object_id(&t["_id"]);
    timestamp(&t["createdAt"]);
    find("card.revealed", "success", &revealer_id);
    let refused = find("card.revealed", "refused", &revealer_id);
    assert_eq!(refused["error"], "invalid_token");
    assert_eq!(refused["cardId"], json!(card_id));
    let denied_token = find("card.token_created", "refused", &no_reveal_id);
    assert_eq!(denied_token["error"], "permission_denied");
    let created = events
        .iter()
        .find(|e| e["action"] == "api_key.created" && e["subjectKeyId"] == json!(revealer_id))
        .expect("the key's creation is recorded");
    assert_eq!(created["outcome"], "success");
    let admin_key_id = created["keyId"].clone();
    assert_ne!(admin_key_id, json!(revealer_id));
    if server().kind == HostKind::Native {
        assert_eq!(created["address"], "127.0.0.1");
    }

    // The list language works on it; one record reads by id.
    let refusals = admin.list("/audit-events", &[("outcome", "refused")]);
    assert_eq!(int(&refusals.expect(200).body["meta"]["total"]), 2);
    let one = admin
        .get(&format!("/audit-events/{}", t["_id"].as_str().unwrap()))
        .data(200)
        .clone();
    assert_eq!(one["action"], "card.token_created");

    // Never card data, a token or a key.
    acceptance::assert::no_card_secrets(
        &list.text,
        &pan,
        &cvv,
        &[&token, &revealer.key, &no_reveal.key],
    );
    // Nor the server's log lines (CVVs are 3 digits: too short to scan for).
    for dir in [server().state_dir()] {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "log") {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                for secret in [&pan, &token, &revealer.key] {
                    assert!(
                        !text.contains(secret.as_str()),
                        "{} holds a secret",
                        path.display()
                    );
                }
            }
        }
    }

    // Tenancy: another client sees none of it.
    let other = tenant();
    let theirs = other.get("/audit-events");
    theirs.expect(200);
    assert_eq!(int(&theirs.body["meta"]["total"]), 0, "{}", theirs.text);
    other
        .get(&format!("/audit-events/{}", t["_id"].as_str().unwrap()))
        .expect_error(404, "not_found");

    // Revoking is recorded too.
    admin
        .delete(&format!("/api-keys/{no_reveal_id}"))
        .expect(200);
    let revoked = admin.list("/audit-events", &[("action", "api_key.revoked")]);
    let revoked = &revoked.expect(200).body["data"][0];
    assert_eq!(revoked["subjectKeyId"], json!(no_reveal_id));
    assert_eq!(revoked["keyId"], admin_key_id);
}
