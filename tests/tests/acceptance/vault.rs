//! Card data over HTTP: token-then-reveal, its rules one by one, and that no PAN or CVV is ever found
//! in clear in a response other than reveal, in the data files or in the server's logs.

use acceptance::fixtures::{create_account, create_holder, id};
use acceptance::*;
use serde_json::{Value, json};

fn issue(t: &Tenant, brand: &str) -> Value {
    let acct = id(&create_account(t, json!({"balance": 100})));
    let h = create_holder(t);
    t.post(
        "/cards",
        &json!({"debitAccountId": acct, "cardHolderId": h, "type": "virtual",
        "brand": brand, "status": "active", "amount": 5}),
    )
    .data(201)
    .clone()
}

fn token(t: &Tenant, card: &str) -> String {
    let r = t.send("POST", &format!("/cards/{card}/token"), &[], None);
    let data = r.data(201);
    timestamp(&data["expiresAt"]);
    data["token"].as_str().unwrap().to_string()
}

fn luhn_valid(pan: &str) -> bool {
    let sum: u32 = pan
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| {
            let d = u32::from(b - b'0');
            if i % 2 == 1 {
                let x = d * 2;
                if x > 9 { x - 9 } else { x }
            } else {
                d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

#[test]
fn token_then_reveal() {
    let t = tenant();
    let card = issue(&t, "Visa");
    let cid = id(&card);
    let tok = token(&t, &cid);
    assert!(tok.len() >= 32, "at least 128 random bits");
    let r = t.get(&format!("/cards/{cid}/reveal?token={}", encode(&tok)));
    r.expect(200);
    let keys: Vec<&str> = r
        .body
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        ["pan", "cvv", "expiryMonth", "expiryYear"],
        "a bare object"
    );
    let pan = r.body["pan"].as_str().unwrap();
    assert!(
        pan.len() == 16 && pan.starts_with('4') && luhn_valid(pan),
        "{pan}"
    );
    assert_eq!(&pan[12..], card["last4"].as_str().unwrap());
    assert_eq!(&pan[..6], &card["maskedPan"].as_str().unwrap()[..6]);
    let cvv = r.body["cvv"].as_str().unwrap();
    assert!(cvv.len() == 3 && cvv.bytes().all(|b| b.is_ascii_digit()));
    assert_eq!(r.body["expiryMonth"], card["expiryMonth"]);
    assert_eq!(r.body["expiryYear"], card["expiryYear"]);
}

#[test]
fn tokens_are_single_use_bound_to_card_and_client() {
    let t = tenant();
    let a = id(&issue(&t, "MasterCard"));
    let b = id(&issue(&t, "Visa"));
    let reveal = |t: &Tenant, card: &str, tok: Option<&str>| match tok {
        Some(tok) => t.get(&format!("/cards/{card}/reveal?token={}", encode(tok))),
        None => t.get(&format!("/cards/{card}/reveal")),
    };
    reveal(&t, &a, None).expect_error(403, "invalid_token");
    reveal(&t, &a, Some("rvl_0000")).expect_error(403, "invalid_token");
    let tok = token(&t, &a);
    reveal(&t, &b, Some(&tok)).expect_error(403, "invalid_token");
    let other = tenant();
    reveal(&other, &a, Some(&tok)).expect_error(404, "not_found");
    let r = reveal(&t, &a, Some(&tok));
    r.expect(200);
    assert!(r.body["pan"].as_str().unwrap().starts_with('5'));
    reveal(&t, &a, Some(&tok)).expect_error(403, "invalid_token");
    // Authentication still applies to reveal.
    let tok = token(&t, &a);
    raw(
        "GET",
        &format!("/cards/{a}/reveal?token={}", encode(&tok)),
        &[],
        None,
    )
    .expect_error(401, "unauthorized");
}

#[test]
fn paused_cards_reveal_and_canceled_cards_do_not() {
    let t = tenant();
    let cid = id(&issue(&t, "Visa"));
    t.put(&format!("/cards/{cid}"), &json!({"status": "inactive"}))
        .expect(200);
    let tok = token(&t, &cid);
    t.get(&format!("/cards/{cid}/reveal?token={}", encode(&tok)))
        .expect(200);
    let tok = token(&t, &cid);
    t.delete(&format!("/cards/{cid}")).expect(200);
    t.get(&format!("/cards/{cid}/reveal?token={}", encode(&tok)))
        .expect_error(409, "invalid_state");
    t.send("POST", &format!("/cards/{cid}/token"), &[], None)
        .expect_error(409, "invalid_state");
}

/// Every key of every object in `v`, recursively.
fn all_keys(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, v) in m {
                out.push(k.clone());
                all_keys(v, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|v| all_keys(v, out)),
        _ => {}
    }
}

#[test]
fn card_data_never_appears_in_clear() {
    let t = tenant();
    let mut secrets = Vec::new();
    let mut ids = Vec::new();
    for brand in ["Visa", "MasterCard", "visa"] {
        let cid = id(&issue(&t, brand));
        let tok = token(&t, &cid);
        let r = t.get(&format!("/cards/{cid}/reveal?token={}", encode(&tok)));
        r.expect(200);
        secrets.push((
            r.body["pan"].as_str().unwrap().to_string(),
            r.body["cvv"].as_str().unwrap().to_string(),
            tok,
        ));
        ids.push(cid);
    }
    // Cancel one: its ciphertext is destroyed; the rest stay sealed.
    t.put(
        &format!("/cards/{}", ids[0]),
        &json!({"status": "canceled", "cancellationReason": "stolen"}),
    )
    .expect(200);

    // No read, list or populated response carries a pan or cvv key, or a PAN.
    let mut bodies = vec![
        t.get("/cards"),
        t.list("/cards", &[("populate", "cardHolder,debitAccount")]),
    ];
    bodies.extend(ids.iter().map(|c| t.get(&format!("/cards/{c}"))));
    for r in &bodies {
        let mut keys = Vec::new();
        all_keys(&r.body, &mut keys);
        assert!(!keys.iter().any(|k| k == "pan" || k == "cvv"), "{}", r.text);
        for (pan, _, _) in &secrets {
            assert!(!r.text.contains(pan.as_str()));
        }
    }

    // Scan the server's whole state: its data file(s) or database files, and every captured log line.
    let server = host::server();
    let mut scanned = 0;
    for entry in server.data_dirs().iter().flat_map(|d| walk(d)) {
        // A database server may remove a temporary file of its own during the walk.
        let Ok(bytes) = std::fs::read(&entry) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        for (pan, cvv, tok) in &secrets {
            assert!(
                !text.contains(pan.as_str()),
                "PAN in clear in {}",
                entry.display()
            );
            assert!(
                !text.contains(&format!("{pan}:{cvv}")),
                "in {}",
                entry.display()
            );
            assert!(
                !text.contains(&format!("\"cvv\":\"{cvv}\"")),
                "CVV in {}",
                entry.display()
            );
            assert!(
                !text.contains(tok.as_str()),
                "reveal token in clear in {}",
                entry.display()
            );
        }
        assert!(
            !text.contains(&t.key),
            "API key in clear in {}",
            entry.display()
        );
        scanned += 1;
    }
    assert!(scanned >= 2, "expected a data file and a log file");
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        if p.is_dir() {
            out.extend(walk(&p))
        } else {
            out.push(p)
        }
    }
    out
}
