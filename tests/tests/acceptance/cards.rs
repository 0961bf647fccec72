//! Cards and money over HTTP: issuing, funding, the lifecycle, refunds, spending controls, the ledger,
//! idempotency and concurrent funding.

use acceptance::fixtures::{create_account, create_holder, id};
use acceptance::*;
use rust_decimal::Decimal;
use serde_json::{Value, json};

fn funded_account(t: &Tenant, balance: &str, currency: &str) -> String {
    let balance: Value = serde_json::from_str(balance).unwrap();
    id(&create_account(
        t,
        json!({"balance": balance, "currency": currency}),
    ))
}

fn card_body(account: &str, holder: &str, extra: Value) -> Value {
    fixtures::merge(
        json!({"debitAccountId": account, "cardHolderId": holder, "type": "virtual",
               "brand": "Visa", "status": "active"}),
        extra,
    )
}

fn balance(t: &Tenant, path: &str) -> Decimal {
    dec(&t.get(path).data(200)["balance"])
}

fn entries(t: &Tenant, account: &str) -> Vec<Value> {
    t.list(
        &format!("/accounts/{account}/transactions"),
        &[("sort", "createdAt"), ("limit", "200")],
    )
    .data(200)
    .as_array()
    .unwrap()
    .clone()
}

#[test]
fn issue_applies_defaults_and_hides_card_data() {
    let t = tenant();
    let acct = funded_account(&t, "0", "USD");
    let h = create_holder(&t);
    let resp = t.post(
        "/cards",
        &card_body(&acct, &h, json!({"brand": "mastercard"})),
    );
    assert_eq!(resp.body["message"], "Card created successfully");
    let card = resp.data(201);
    object_id(&card["_id"]);
    assert_eq!(card["brand"], "MasterCard");
    assert_eq!(card["currency"], "USD");
    assert_eq!(card["enable2FA"], true);
    assert_eq!(card["disposable"], false);
    assert_eq!(card["status"], "active");
    assert_eq!(card["debitAccountId"], acct.as_str());
    assert_eq!(card["cardHolderId"], h.as_str());
    assert_eq!(
        card["spendingControls"]["channels"],
        json!({"atm": true, "pos": true, "web": true, "mobile": true})
    );
    assert_eq!(dec(&card["balance"]), d("0"));
    let masked = card["maskedPan"].as_str().unwrap();
    assert!(
        regex::Regex::new(r"^5[1-5]\d{4}\*{6}\d{4}$")
            .unwrap()
            .is_match(masked),
        "{masked}"
    );
    assert_eq!(&masked[12..], card["last4"].as_str().unwrap());
    assert_eq!(card["expiryMonth"].as_str().unwrap().len(), 2);
    let year: i32 = card["expiryYear"].as_str().unwrap().parse().unwrap();
    assert_eq!(
        year,
        chrono::Utc::now()
            .format("%Y")
            .to_string()
            .parse::<i32>()
            .unwrap()
            + 3
    );
    assert!(card.get("pan").is_none() && card.get("cvv").is_none());
    timestamp(&card["createdAt"]);
}

#[test]
fn issue_takes_every_field() {
    let t = tenant();
    let acct = funded_account(&t, "100", "NGN");
    let h = create_holder(&t);
    let body = card_body(
        &acct,
        &h,
        json!({
            "type": "physical", "status": "inactive", "currency": "NGN", "metadata": {"team": "ops", "n": 1},
            "enable2FA": false, "disposable": true, "amount": 12.5,
            "spendingControls": {
                "channels": {"atm": false},
                "blockedCategories": ["gambling", "5967"],
                "spendingLimits": [{"amount": 50, "interval": "daily", "categories": []},
                                   {"amount": 10.25, "interval": "per_authorization"}]
            }
        }),
    );
    let card = t.post("/cards", &body).data(201).clone();
    assert_eq!(card["type"], "physical");
    assert_eq!(card["status"], "inactive");
    assert_eq!(card["currency"], "NGN");
    assert_eq!(card["metadata"], json!({"team": "ops", "n": 1}));
    assert_eq!(card["enable2FA"], false);
    assert_eq!(card["disposable"], true);
    assert_eq!(dec(&card["balance"]), d("12.5"));
    let sc = &card["spendingControls"];
    assert_eq!(
        sc["channels"],
        json!({"atm": false, "pos": true, "web": true, "mobile": true})
    );
    assert_eq!(sc["blockedCategories"], json!(["gambling", "5967"]));
    assert_eq!(sc["allowedCategories"], json!([]));
    assert_eq!(dec(&sc["spendingLimits"][1]["amount"]), d("10.25"));
    assert_eq!(sc["spendingLimits"][1]["categories"], json!([]));
    assert_eq!(balance(&t, &format!("/accounts/{acct}")), d("87.5"));
    let e = entries(&t, &acct);
    let last = e.last().unwrap();
    assert_eq!(last["type"], "card_issue_funding");
    assert_eq!(dec(&last["amount"]), d("-12.5"));
    assert_eq!(dec(&last["balanceAfter"]), d("87.5"));
    assert_eq!(last["cardId"], card["_id"]);
}

#[test]
fn issue_validation_names_each_field() {
    let t = tenant();
    let acct = funded_account(&t, "100", "USD");
    let h = create_holder(&t);
    t.post("/cards", &json!({}))
        .expect_field_error("debitAccountId")
        .expect_field_error("cardHolderId")
        .expect_field_error("type")
        .expect_field_error("brand")
        .expect_field_error("status");
    for (extra, field) in [
        (json!({"brand": "Amex"}), "brand"),
        (json!({"type": "plastic"}), "type"),
        (json!({"status": "canceled"}), "status"),
        (json!({"currency": "EUR"}), "currency"),
        (json!({"amount": 0.99}), "amount"),
        (json!({"amount": 1.001}), "amount"),
        (json!({"amount": "5"}), "amount"),
        (json!({"enable2FA": "yes"}), "enable2FA"),
        (json!({"metadata": []}), "metadata"),
        (json!({"colour": "red"}), "colour"),
        (
            json!({"spendingControls": {"allowedCategories": ["food"], "blockedCategories": ["bars"]}}),
            "spendingControls.blockedCategories",
        ),
        (
            json!({"spendingControls": {"allowedCategories": ["Food!"]}}),
            "spendingControls.allowedCategories[0]",
        ),
        (
            json!({"spendingControls": {"spendingLimits": [{"amount": 5, "interval": "hourly"}]}}),
            "spendingControls.spendingLimits[0].interval",
        ),
        (
            json!({"spendingControls": {"spendingLimits": [{"amount": 0, "interval": "daily"}]}}),
            "spendingControls.spendingLimits[0].amount",
        ),
        (
            json!({"spendingControls": {"spendingLimits": [{"interval": "daily"}]}}),
            "spendingControls.spendingLimits[0].amount",
        ),
        (
            json!({"spendingControls": {"channels": {"atm": 1}}}),
            "spendingControls.channels.atm",
        ),
        (
            json!({"spendingControls": {"channels": {"fax": true}}}),
            "spendingControls.channels.fax",
        ),
        (
            json!({"spendingControls": {"velocity": 3}}),
            "spendingControls.velocity",
        ),
    ] {
        t.post("/cards", &card_body(&acct, &h, extra))
            .expect_field_error(field);
    }
    for interval in [
        "per_authorization",
        "daily",
        "weekly",
        "monthly",
        "yearly",
        "all_time",
    ] {
        let sc = json!({"spendingLimits": [{"amount": 1, "interval": interval, "categories": ["travel"]}]});
        t.post(
            "/cards",
            &card_body(&acct, &h, json!({"spendingControls": sc})),
        )
        .expect(201);
    }
    // Nothing was charged by any refused request.
    assert_eq!(balance(&t, &format!("/accounts/{acct}")), d("100"));
}

#[test]
fn insufficient_funds_leaves_no_card_and_no_entry() {
    let t = tenant();
    let acct = funded_account(&t, "20", "USD");
    let h = create_holder(&t);
    t.post("/cards", &card_body(&acct, &h, json!({"amount": 20.01})))
        .expect_error(422, "insufficient_funds");
    assert_eq!(int(&t.get("/cards").body["meta"]["total"]), 0);
    assert_eq!(entries(&t, &acct).len(), 1, "only the opening adjustment");
    assert_eq!(balance(&t, &format!("/accounts/{acct}")), d("20"));
    t.post("/cards", &card_body(&acct, &h, json!({"amount": 20})))
        .expect(201);
    assert_eq!(balance(&t, &format!("/accounts/{acct}")), d("0"));
}

#[test]
fn debit_account_must_be_usable_mine_and_in_the_card_currency() {
    let t = tenant();
    let h = create_holder(&t);
    let ngn = funded_account(&t, "100", "NGN");
    t.post("/cards", &card_body(&ngn, &h, json!({})))
        .expect_error(422, "currency_mismatch");
    for change in [
        json!({"status": "inactive"}),
        json!({"status": "suspended"}),
        json!({"canDebit": false}),
    ] {
        let acct = funded_account(&t, "100", "USD");
        t.put(&format!("/accounts/{acct}"), &change).expect(200);
        t.post("/cards", &card_body(&acct, &h, json!({"amount": 5})))
            .expect_error(422, "account_unavailable");
        assert_eq!(balance(&t, &format!("/accounts/{acct}")), d("100"));
    }
    let acct = funded_account(&t, "100", "USD");
    t.post(
        "/cards",
        &card_body("0123456789abcdef01234567", &h, json!({})),
    )
    .expect_error(404, "not_found");
    t.post(
        "/cards",
        &card_body(&acct, "0123456789abcdef01234567", json!({})),
    )
    .expect_error(404, "not_found");
    let other = tenant();
    let theirs = funded_account(&other, "100", "USD");
    let their_holder = create_holder(&other);
    t.post("/cards", &card_body(&theirs, &h, json!({"amount": 5})))
        .expect_error(404, "not_found");
    t.post("/cards", &card_body(&acct, &their_holder, json!({})))
        .expect_error(404, "not_found");
    assert_eq!(balance(&other, &format!("/accounts/{theirs}")), d("100"));
}

#[test]
fn funding_moves_money_from_the_account_to_the_card() {
    let t = tenant();
    let acct = funded_account(&t, "50", "USD");
    let h = create_holder(&t);
    let card = id(t
        .post("/cards", &card_body(&acct, &h, json!({"amount": 10})))
        .data(201));
    let resp = t.post(
        &format!("/cards/{card}/fund"),
        &json!({"debitAccountId": acct, "amount": 0.01}),
    );
    assert_eq!(resp.body["message"], "Card funded successfully");
    assert_eq!(dec(&resp.data(200)["balance"]), d("10.01"));
    assert_eq!(balance(&t, &format!("/accounts/{acct}")), d("39.99"));
    let e = entries(&t, &acct);
    assert_eq!(
        e.iter()
            .map(|e| e["type"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["adjustment", "card_issue_funding", "card_funding"]
    );
    assert_eq!(dec(&e[2]["amount"]), d("-0.01"));
    let path = format!("/cards/{card}/fund");
    t.post(&path, &json!({"debitAccountId": acct, "amount": 0}))
        .expect_field_error("amount");
    t.post(&path, &json!({"debitAccountId": acct, "amount": 0.001}))
        .expect_field_error("amount");
    t.post(&path, &json!({"amount": 1}))
        .expect_field_error("debitAccountId");
    t.post(&path, &json!({"debitAccountId": acct, "amount": 40}))
        .expect_error(422, "insufficient_funds");
    let ngn = funded_account(&t, "50", "NGN");
    t.post(&path, &json!({"debitAccountId": ngn, "amount": 1}))
        .expect_error(422, "currency_mismatch");
    t.post(
        "/cards/0123456789abcdef01234567/fund",
        &json!({"debitAccountId": acct, "amount": 1}),
    )
    .expect_error(404, "not_found");
    assert_eq!(balance(&t, &format!("/cards/{card}")), d("10.01"));
}

#[test]
fn lifecycle_follows_the_table() {
    let t = tenant();
    let acct = funded_account(&t, "0", "USD");
    let h = create_holder(&t);
    let card = id(t.post("/cards", &card_body(&acct, &h, json!({}))).data(201));
    let path = format!("/cards/{card}");
    assert_eq!(
        t.put(&path, &json!({"status": "inactive"})).data(200)["status"],
        "inactive"
    );
    assert_eq!(
        t.put(&path, &json!({"status": "active"})).data(200)["status"],
        "active"
    );
    t.put(&path, &json!({"status": "canceled"}))
        .expect_field_error("cancellationReason");
    t.put(
        &path,
        &json!({"status": "canceled", "cancellationReason": "misplaced"}),
    )
    .expect_field_error("cancellationReason");
    t.put(&path, &json!({"cancellationReason": "lost"}))
        .expect_field_error("cancellationReason");
    t.put(
        &path,
        &json!({"status": "inactive", "creditAccountId": acct}),
    )
    .expect_field_error("creditAccountId");
    t.put(&path, &json!({"status": "frozen"}))
        .expect_field_error("status");
    let c = t
        .put(
            &path,
            &json!({"status": "canceled", "cancellationReason": "stolen"}),
        )
        .data(200)
        .clone();
    assert_eq!(c["status"], "canceled");
    assert_eq!(c["cancellationReason"], "stolen");
    // A canceled card refuses every change, and stays readable.
    for (method, p, body) in [
        ("PUT", path.clone(), Some(json!({"status": "active"}))),
        ("PUT", path.clone(), Some(json!({"status": "inactive"}))),
        ("PUT", path.clone(), Some(json!({"metadata": {"a": 1}}))),
        (
            "PUT",
            path.clone(),
            Some(json!({"spendingControls": {"channels": {"web": false}}})),
        ),
        ("DELETE", path.clone(), None),
        (
            "POST",
            format!("{path}/fund"),
            Some(json!({"debitAccountId": acct, "amount": 1})),
        ),
    ] {
        let r = match body {
            Some(b) => t.json(method, &p, &b),
            None => t.send(method, &p, &[], None),
        };
        r.expect_error(409, "invalid_state");
    }
    assert_eq!(t.get(&path).data(200)["status"], "canceled");
}

#[test]
fn updates_merge_spending_controls_and_replace_metadata() {
    let t = tenant();
    let acct = funded_account(&t, "0", "USD");
    let h = create_holder(&t);
    let body = card_body(
        &acct,
        &h,
        json!({"metadata": {"a": 1},
        "spendingControls": {"allowedCategories": ["travel"], "channels": {"atm": false}}}),
    );
    let card = id(t.post("/cards", &body).data(201));
    let path = format!("/cards/{card}");
    let c = t.put(&path, &json!({"metadata": {"b": 2},
        "spendingControls": {"channels": {"web": false}, "spendingLimits": [{"amount": 5, "interval": "weekly"}]}}))
        .data(200).clone();
    assert_eq!(c["metadata"], json!({"b": 2}));
    let sc = &c["spendingControls"];
    assert_eq!(
        sc["channels"],
        json!({"atm": false, "pos": true, "web": false, "mobile": true})
    );
    assert_eq!(
        sc["allowedCategories"],
        json!(["travel"]),
        "absent keys keep their values"
    );
    assert_eq!(sc["spendingLimits"][0]["interval"], "weekly");
    // Adding blocked categories while allowed ones stay is the exclusive pair: refused, nothing changed.
    t.put(
        &path,
        &json!({"spendingControls": {"blockedCategories": ["bars"]}}),
    )
    .expect_field_error("spendingControls.blockedCategories");
    let c = t
        .put(
            &path,
            &json!({"spendingControls": {"allowedCategories": [], "blockedCategories": ["bars"]}}),
        )
        .data(200)
        .clone();
    assert_eq!(c["spendingControls"]["blockedCategories"], json!(["bars"]));
    t.put(&path, &json!({"nickname": "x"}))
        .expect_field_error("nickname");
}

#[test]
fn cancel_refunds_to_the_credit_account_or_the_debit_account() {
    let t = tenant();
    let acct = funded_account(&t, "100", "USD");
    let savings = funded_account(&t, "0", "USD");
    let h = create_holder(&t);
    let a = id(t
        .post("/cards", &card_body(&acct, &h, json!({"amount": 30})))
        .data(201));
    let b = id(t
        .post("/cards", &card_body(&acct, &h, json!({"amount": 20})))
        .data(201));
    // A credit account in another currency, or unusable, is refused and nothing moves.
    let ngn = funded_account(&t, "0", "NGN");
    t.put(
        &format!("/cards/{a}"),
        &json!({"status": "canceled", "cancellationReason": "lost", "creditAccountId": ngn}),
    )
    .expect_error(422, "currency_mismatch");
    let closed_credit = funded_account(&t, "0", "USD");
    t.put(
        &format!("/accounts/{closed_credit}"),
        &json!({"canCredit": false}),
    )
    .expect(200);
    t.put(&format!("/cards/{a}"), &json!({"status": "canceled", "cancellationReason": "lost", "creditAccountId": closed_credit}))
        .expect_error(422, "account_unavailable");
    assert_eq!(t.get(&format!("/cards/{a}")).data(200)["status"], "active");

    let c = t.put(&format!("/cards/{a}"), &json!({"status": "canceled", "cancellationReason": "lost", "creditAccountId": savings}))
        .data(200).clone();
    assert_eq!(dec(&c["balance"]), d("0"));
    assert_eq!(balance(&t, &format!("/accounts/{savings}")), d("30"));
    let refund = entries(&t, &savings).pop().unwrap();
    assert_eq!(
        (refund["type"].as_str(), dec(&refund["amount"])),
        (Some("card_refund"), d("30"))
    );
    assert_eq!(refund["cardId"], a.as_str());

    // DELETE terminates, refunds to the debit account, answers 200 with the card, which stays readable.
    let resp = t.delete(&format!("/cards/{b}"));
    let c = resp.data(200);
    assert_eq!(c["status"], "canceled");
    assert_eq!(dec(&c["balance"]), d("0"));
    assert_eq!(balance(&t, &format!("/accounts/{acct}")), d("70"));
    assert_eq!(
        t.get(&format!("/cards/{b}")).data(200)["status"],
        "canceled"
    );
    t.delete(&format!("/cards/{b}"))
        .expect_error(409, "invalid_state");
}

#[test]
fn ledger_and_balances_agree() {
    let t = tenant();
    let acct = funded_account(&t, "100", "USD");
    let h = create_holder(&t);
    let card = id(t
        .post("/cards", &card_body(&acct, &h, json!({"amount": 25.25})))
        .data(201));
    t.post(
        &format!("/cards/{card}/fund"),
        &json!({"debitAccountId": acct, "amount": 4.75}),
    )
    .expect(200);
    t.put(
        &format!("/cards/{card}"),
        &json!({"status": "canceled", "cancellationReason": "lost"}),
    )
    .expect(200);
    let e = entries(&t, &acct);
    let sum: Decimal = e.iter().map(|e| dec(&e["amount"])).sum();
    assert_eq!(sum, balance(&t, &format!("/accounts/{acct}")));
    assert_eq!(sum, d("100"));
    let card_sum: Decimal = e
        .iter()
        .filter(|e| e["cardId"] == card.as_str())
        .map(|e| dec(&e["amount"]))
        .sum();
    assert_eq!(card_sum, d("0"), "issue + fund - refund");
    // The ledger is a list endpoint: filter by type.
    let refunds = t.list(
        &format!("/accounts/{acct}/transactions"),
        &[("type", "card_refund")],
    );
    assert_eq!(int(&refunds.body["meta"]["total"]), 1);
}

#[test]
fn list_cards_with_search_filter_and_populate() {
    let t = tenant();
    let acct = funded_account(&t, "10", "USD");
    let h = create_holder(&t);
    let mut ids = Vec::new();
    for status in ["active", "inactive", "active"] {
        ids.push(id(t
            .post("/cards", &card_body(&acct, &h, json!({"status": status})))
            .data(201)));
    }
    let r = t.list("/cards", &[("status", "active")]);
    assert_eq!(int(&r.body["meta"]["total"]), 2);
    assert_eq!(r.body["filter"], json!({"status": "active"}));
    assert_eq!(r.body["message"], "Cards fetched successfully");
    let all = t.list("/cards", &[("search", &acct[..10])]);
    assert_eq!(
        int(&all.body["meta"]["total"]),
        3,
        "default search covers debitAccountId"
    );
    let r = t.list(
        "/cards",
        &[
            (
                "populate",
                "cardHolder:name person.email;debitAccount:name currency",
            ),
            ("fields", "status"),
        ],
    );
    for c in r.data(200).as_array().unwrap() {
        assert_eq!(c["cardHolder"]["name"], "Ada Lovelace");
        assert_eq!(
            c["cardHolder"]["person"],
            json!({"email": "ada@example.com"})
        );
        assert_eq!(c["debitAccount"]["currency"], "USD");
        assert!(c["debitAccount"].get("balance").is_none());
        assert!(c.get("last4").is_none());
        assert!(c["status"].is_string());
    }
    let r = t.list("/cards", &[("populate", "cardHolder,debitAccount")]);
    let first = &r.data(200)[0];
    assert_eq!(first["cardHolder"]["_id"], h.as_str());
    assert_eq!(first["debitAccount"]["_id"], acct.as_str());
    t.list("/cards", &[("populate", "owner")])
        .expect_field_error("populate");
    t.list("/cards", &[("populate", "cardHolder:nope")])
        .expect_field_error("populate");
    let other = tenant();
    assert_eq!(int(&other.get("/cards").body["meta"]["total"]), 0);
    other
        .get(&format!("/cards/{}", ids[0]))
        .expect_error(404, "not_found");
}

#[test]
fn a_retried_funding_moves_money_once() {
    let t = tenant();
    let acct = funded_account(&t, "100", "USD");
    let h = create_holder(&t);
    let card = id(t.post("/cards", &card_body(&acct, &h, json!({}))).data(201));
    let path = format!("/cards/{card}/fund");
    let body = serde_json::to_vec(&json!({"debitAccountId": acct, "amount": 10})).unwrap();
    let send = |key: &str, body: Vec<u8>| {
        t.send(
            "POST",
            &path,
            &[
                ("content-type", "application/json"),
                ("idempotency-key", key),
            ],
            Some(body),
        )
    };
    let first = send("fund-1", body.clone());
    first.expect(200);
    assert_eq!(first.header("idempotent-replayed"), None);
    let again = send("fund-1", body.clone());
    again.expect(200);
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(again.body, first.body);
    assert_eq!(balance(&t, &format!("/accounts/{acct}")), d("90"));
    let other = serde_json::to_vec(&json!({"debitAccountId": acct, "amount": 11})).unwrap();
    send("fund-1", other).expect_error(409, "idempotency_conflict");
    send("fund-2", body).expect(200);
    assert_eq!(balance(&t, &format!("/accounts/{acct}")), d("80"));
    // Idempotency works on every POST: issuing a card twice with one key makes one card.
    let issue = serde_json::to_vec(&card_body(&acct, &h, json!({"amount": 5}))).unwrap();
    let c1 = t.send(
        "POST",
        "/cards",
        &[
            ("content-type", "application/json"),
            ("idempotency-key", "issue-1"),
        ],
        Some(issue.clone()),
    );
    let c2 = t.send(
        "POST",
        "/cards",
        &[
            ("content-type", "application/json"),
            ("idempotency-key", "issue-1"),
        ],
        Some(issue),
    );
    assert_eq!((c1.status, c2.status), (201, 201));
    assert_eq!(c1.body["data"]["_id"], c2.body["data"]["_id"]);
    assert_eq!(int(&t.get("/cards").body["meta"]["total"]), 2);
    assert_eq!(balance(&t, &format!("/accounts/{acct}")), d("75"));
}

#[test]
fn concurrent_fundings_never_overdraw() {
    let t = tenant();
    let acct = funded_account(&t, "500", "USD");
    let h = create_holder(&t);
    let card = id(t.post("/cards", &card_body(&acct, &h, json!({}))).data(201));
    let path = format!("/cards/{card}/fund");
    let body = json!({"debitAccountId": acct, "amount": 10});
    let statuses: Vec<u16> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..100)
            .map(|_| s.spawn(|| t.post(&path, &body).status))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(
        statuses.iter().filter(|s| **s == 200).count(),
        50,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|s| **s == 422).count(),
        50,
        "{statuses:?}"
    );
    assert_eq!(balance(&t, &format!("/accounts/{acct}")), d("0"));
    assert_eq!(balance(&t, &format!("/cards/{card}")), d("500"));
    for e in entries(&t, &acct) {
        assert!(dec(&e["balanceAfter"]) >= Decimal::ZERO);
    }
}

/// A status with a range on what a card can spend, sorted by it (the status's part of the range
/// index is walked), or another equality with it: the same cards, order, totals and pages as
/// sorting the whole list here, after status changes, fundings, a cancel and a hold.
#[test]
fn status_and_balance_lists_agree_with_a_full_sort() {
    let t = tenant();
    let acct = funded_account(&t, "10000", "USD");
    let h = create_holder(&t);
    let mut cards = Vec::new();
    // 0: issued without an amount.
    for amount in [5, 50, 50, 120, 300, 0, 75, 50] {
        let extra = match amount {
            0 => json!({}),
            n => json!({"amount": n}),
        };
        let body = card_body(&acct, &h, extra);
        cards.push(id(t.post("/cards", &body).data(201)));
    }
    let path = |i: usize| format!("/cards/{}", cards[i]);
    t.put(&path(1), &json!({"status": "inactive"})).data(200);
    t.put(&path(4), &json!({"status": "inactive"})).data(200);
    t.put(&path(4), &json!({"status": "active"})).data(200);
    t.post(
        &format!("{}/fund", path(4)),
        &json!({"debitAccountId": acct, "amount": 25}),
    )
    .data(200);
    t.put(
        &path(6),
        &json!({"status": "canceled", "cancellationReason": "lost"}),
    )
    .data(200);
    let hold = json!({"amount": 20.5, "channel": "pos", "merchant": {"name": "Shop"}});
    fixtures::authorize(&t, &cards[3], &hold);
    let all = t.list("/cards", &[("limit", "100")]).data(200).clone();
    let all = all.as_array().unwrap();
    // `type` and `brand` have no part; `enable2FA` no index at all: its total comes from one pass
    // over every card, each built with only the fields the query reads.
    let equalities = [
        ("enable2FA", "true"),
        ("status", "active"),
        ("status", "inactive"),
        ("status", "canceled"),
        ("type", "virtual"),
        ("brand", "Visa"),
    ];
    let shown = |v: &Value| v.as_str().map_or(v.to_string(), str::to_string);
    for (eq, value) in equalities {
        for (field, op, bound) in [
            ("balance", "gte", "50"),
            ("availableBalance", "lt", "100"),
            ("balance", "between", "0|99.5"),
            ("availableBalance", "gt", "-1"),
        ] {
            for desc in [false, true] {
                let within = |v: Decimal| match op {
                    "gte" => v >= d(bound),
                    "lt" => v < d(bound),
                    "gt" => v > d(bound),
                    _ => v >= d("0") && v <= d("99.5"),
                };
                let mut want: Vec<(Decimal, String)> = all
                    .iter()
                    .filter(|c| shown(&c[eq]) == value && within(dec(&c[field])))
                    .map(|c| (dec(&c[field]), c["_id"].as_str().unwrap().to_string()))
                    .collect();
                want.sort();
                if desc {
                    want.reverse();
                }
                let want: Vec<String> = want.into_iter().map(|(_, id)| id).collect();
                // Every equality has cards in some range here (a list that cannot be empty).
                if op == "gt" {
                    assert!(!want.is_empty(), "{eq}={value}");
                }
                let sort = format!("{}{field}", if desc { "-" } else { "" });
                let cond = format!("{field}.{op}");
                let query = [(eq, value), (cond.as_str(), bound), ("sort", &sort)];
                let listed = t.list("/cards", &query);
                assert_eq!(ids(&listed), want, "{query:?}");
                assert_eq!(listed.body["meta"]["total"], want.len(), "{query:?}");
                // The second page of two.
                let paged = [&query[..], &[("limit", "2"), ("page", "2")]].concat();
                let listed = t.list("/cards", &paged);
                let page: Vec<String> = want.iter().skip(2).take(2).cloned().collect();
                assert_eq!(ids(&listed), page, "{paged:?}");
                assert_eq!(listed.body["meta"]["total"], want.len(), "{paged:?}");
            }
        }
    }
}
