//! Simulated card spend over HTTP: authorizations and their decline reasons, holds, capture, reverse,
//! refund, expiry, spending limits and `GET /cards/{id}/spending`, card transactions, lists, tenancy,
//! idempotency and concurrent authorizations.

use std::thread;

use acceptance::fixtures::{authorize, balances, funded_card, id};
use acceptance::*;
use rust_decimal::Decimal;
use serde_json::{Value, json};

fn card(t: &Tenant, amount: &str) -> String {
    funded_card(t, amount, json!({})).0
}

fn purchase(amount: &str) -> Value {
    let amount: Value = serde_json::from_str(amount).unwrap();
    json!({"amount": amount, "channel": "pos",
           "merchant": {"name": "Corner Shop", "category": "grocery_stores", "mcc": "5411",
                        "city": "Lagos", "country": "ng"}})
}

fn declined_for(t: &Tenant, card: &str, body: &Value) -> String {
    let a = authorize(t, card, body);
    assert_eq!(a["approved"], false, "{a}");
    assert_eq!(a["status"], "declined");
    assert_eq!(dec(&a["pendingAmount"]), d("0"));
    a["declineReason"].as_str().unwrap().to_string()
}

#[test]
fn an_approved_authorization_holds_funds() {
    let t = tenant();
    let c = card(&t, "500");
    assert_eq!(balances(&t, &c), (d("500"), d("500"), d("500")));
    let resp = t.post(&format!("/cards/{c}/authorizations"), &purchase("120.50"));
    assert_eq!(resp.body["message"], "Authorization approved");
    let a = resp.data(201);
    object_id(&a["_id"]);
    assert_eq!(a["cardId"], c.as_str());
    assert_eq!(a["approved"], true);
    assert_eq!(a["status"], "pending");
    assert_eq!(a["declineReason"], Value::Null);
    assert_eq!(a["currency"], "USD");
    assert_eq!(a["channel"], "pos");
    assert_eq!(
        a["merchant"],
        json!({"name": "Corner Shop", "category": "grocery_stores", "mcc": "5411",
               "city": "Lagos", "country": "NG"})
    );
    assert_eq!(dec(&a["amount"]), d("120.5"));
    assert_eq!(dec(&a["pendingAmount"]), d("120.5"));
    for f in ["capturedAmount", "reversedAmount", "refundedAmount"] {
        assert_eq!(dec(&a[f]), d("0"), "{f}");
    }
    let week = timestamp(&a["expiresAt"]) - timestamp(&a["createdAt"]);
    assert_eq!(week, chrono::Duration::days(7));
    assert!(a["cardHolderId"].as_str().is_some());
    assert_eq!(balances(&t, &c), (d("379.5"), d("379.5"), d("500")));
    let got = t
        .get(&format!("/authorizations/{}", id(a)))
        .data(200)
        .clone();
    assert_eq!(&got, a);
    // Card lists filter on the available balance too.
    let listed = t.list("/cards", &[("availableBalance.lt", "400"), ("_id", &c)]);
    assert_eq!(ids(&listed), vec![c.clone()]);
}

#[test]
fn bad_bodies_are_validation_errors() {
    let t = tenant();
    let c = card(&t, "100");
    let path = format!("/cards/{c}/authorizations");
    let cases: Vec<(Value, &str)> = vec![
        (
            json!({"channel": "pos", "merchant": {"name": "x"}}),
            "amount",
        ),
        (
            json!({"amount": 0, "channel": "pos", "merchant": {"name": "x"}}),
            "amount",
        ),
        (
            json!({"amount": -1, "channel": "pos", "merchant": {"name": "x"}}),
            "amount",
        ),
        (
            json!({"amount": 1.001, "channel": "pos", "merchant": {"name": "x"}}),
            "amount",
        ),
        (
            json!({"amount": "1", "channel": "pos", "merchant": {"name": "x"}}),
            "amount",
        ),
        (json!({"amount": 1, "merchant": {"name": "x"}}), "channel"),
        (
            json!({"amount": 1, "channel": "fax", "merchant": {"name": "x"}}),
            "channel",
        ),
        (json!({"amount": 1, "channel": "pos"}), "merchant"),
        (
            json!({"amount": 1, "channel": "pos", "merchant": "shop"}),
            "merchant",
        ),
        (
            json!({"amount": 1, "channel": "pos", "merchant": {}}),
            "merchant.name",
        ),
        (
            json!({"amount": 1, "channel": "pos", "merchant": {"name": " "}}),
            "merchant.name",
        ),
        (
            json!({"amount": 1, "channel": "pos", "merchant": {"name": "x".repeat(101)}}),
            "merchant.name",
        ),
        (
            json!({"amount": 1, "channel": "pos", "merchant": {"name": "x", "mcc": "54a1"}}),
            "merchant.mcc",
        ),
        (
            json!({"amount": 1, "channel": "pos", "merchant": {"name": "x", "category": "Food!"}}),
            "merchant.category",
        ),
        (
            json!({"amount": 1, "channel": "pos", "merchant": {"name": "x", "country": "NGA"}}),
            "merchant.country",
        ),
        (
            json!({"amount": 1, "channel": "pos", "merchant": {"name": "x", "owner": "y"}}),
            "merchant.owner",
        ),
        (
            json!({"amount": 1, "channel": "pos", "merchant": {"name": "x"}, "tip": 1}),
            "tip",
        ),
        (
            json!({"amount": 1, "channel": "pos", "merchant": {"name": "x"}, "currency": "$"}),
            "currency",
        ),
    ];
    for (body, field) in cases {
        let resp = t.post(&path, &body);
        resp.expect_error(400, "validation_error")
            .expect_field_error(field);
    }
    let resp = t.send(
        "POST",
        &path,
        &[("content-type", "text/plain")],
        Some(b"{}".to_vec()),
    );
    resp.expect_error(415, "unsupported_media_type");
    t.post(
        "/cards/0123456789abcdef01234567/authorizations",
        &purchase("1"),
    )
    .expect_error(404, "not_found");
    t.post("/cards/nope/authorizations", &purchase("1"))
        .expect_error(404, "not_found");
    // Nothing was recorded by any refused request.
    assert_eq!(ids(&t.get(&format!("/cards/{c}/authorizations"))).len(), 0);
    assert_eq!(balances(&t, &c).1, d("100"));
}

#[test]
fn each_decline_reason_and_their_order() {
    let t = tenant();
    let p = purchase("10");
    // card_canceled before everything.
    let c = card(&t, "100");
    t.delete(&format!("/cards/{c}")).expect(200);
    assert_eq!(declined_for(&t, &c, &p), "card_canceled");
    // card_inactive before currency_mismatch.
    let c = card(&t, "100");
    t.put(&format!("/cards/{c}"), &json!({"status": "inactive"}))
        .expect(200);
    let ngn = fixtures::merge(p.clone(), json!({"currency": "NGN"}));
    assert_eq!(declined_for(&t, &c, &ngn), "card_inactive");
    // currency_mismatch before channel_blocked.
    let (c, _) = funded_card(
        &t,
        "100",
        json!({"spendingControls": {"channels": {"pos": false}}}),
    );
    assert_eq!(declined_for(&t, &c, &ngn), "currency_mismatch");
    assert_eq!(declined_for(&t, &c, &p), "channel_blocked");
    let web = fixtures::merge(p.clone(), json!({"channel": "web"}));
    assert_eq!(authorize(&t, &c, &web)["approved"], true);
    // channel_blocked before category_blocked; blocked by category or by MCC.
    let (c, _) = funded_card(
        &t,
        "100",
        json!({"spendingControls": {"channels": {"atm": false}, "blockedCategories": ["5411"]}}),
    );
    let atm = fixtures::merge(p.clone(), json!({"channel": "atm"}));
    assert_eq!(declined_for(&t, &c, &atm), "channel_blocked");
    assert_eq!(declined_for(&t, &c, &p), "category_blocked");
    let other = json!({"amount": 10, "channel": "pos", "merchant": {"name": "Tech", "category": "electronics"}});
    assert_eq!(authorize(&t, &c, &other)["approved"], true);
    // category_not_allowed: neither category nor MCC listed; the MCC alone is enough to allow.
    let (c, _) = funded_card(
        &t,
        "100",
        json!({"spendingControls": {"allowedCategories": ["5411"],
                                    "spendingLimits": [{"amount": 5, "interval": "per_authorization"}]}}),
    );
    assert_eq!(declined_for(&t, &c, &other), "category_not_allowed");
    let unnamed = json!({"amount": 1, "channel": "pos", "merchant": {"name": "No category"}});
    assert_eq!(declined_for(&t, &c, &unnamed), "category_not_allowed");
    // spending_limit (checked after categories, before funds).
    assert_eq!(declined_for(&t, &c, &purchase("500")), "spending_limit");
    assert_eq!(authorize(&t, &c, &purchase("5"))["approved"], true);
    // insufficient_funds last.
    let c = card(&t, "20");
    assert_eq!(
        declined_for(&t, &c, &purchase("20.01")),
        "insufficient_funds"
    );
    assert_eq!(authorize(&t, &c, &purchase("20"))["approved"], true);
    assert_eq!(
        declined_for(&t, &c, &purchase("0.01")),
        "insufficient_funds"
    );
    // A declined authorization moves no money.
    assert_eq!(balances(&t, &c), (d("0"), d("0"), d("20")));
    let declined = t.list(
        &format!("/cards/{c}/authorizations"),
        &[("status", "declined")],
    );
    assert_eq!(ids(&declined).len(), 2);
}

#[test]
fn capture_whole_and_partial() {
    let t = tenant();
    let c = card(&t, "500");
    let a = id(&authorize(&t, &c, &purchase("100")));
    let resp = t.post(&format!("/authorizations/{a}/capture"), &json!({}));
    let cap = resp.data(200);
    assert_eq!(cap["status"], "closed");
    assert_eq!(dec(&cap["capturedAmount"]), d("100"));
    assert_eq!(dec(&cap["pendingAmount"]), d("0"));
    assert_eq!(balances(&t, &c), (d("400"), d("400"), d("400")));
    // Partial capture: the rest is released.
    let b = id(&authorize(&t, &c, &purchase("80")));
    assert_eq!(balances(&t, &c), (d("320"), d("320"), d("400")));
    let cap = t
        .post(
            &format!("/authorizations/{b}/capture"),
            &json!({"amount": 30}),
        )
        .data(200)
        .clone();
    assert_eq!(cap["status"], "closed");
    assert_eq!(dec(&cap["capturedAmount"]), d("30"));
    assert_eq!(dec(&cap["reversedAmount"]), d("50"));
    assert_eq!(balances(&t, &c), (d("370"), d("370"), d("370")));
    // Closed: nothing more to capture or reverse.
    t.post(&format!("/authorizations/{b}/capture"), &json!({}))
        .expect_error(409, "invalid_state");
    t.post(&format!("/authorizations/{b}/reverse"), &json!({}))
        .expect_error(409, "invalid_state");
    // More than pending is refused and changes nothing; a capture with no body at all takes the whole.
    let e = id(&authorize(&t, &c, &purchase("10")));
    t.post(
        &format!("/authorizations/{e}/capture"),
        &json!({"amount": 10.01}),
    )
    .expect_error(409, "invalid_state");
    t.post(
        &format!("/authorizations/{e}/capture"),
        &json!({"amount": 0}),
    )
    .expect_error(400, "validation_error")
    .expect_field_error("amount");
    t.post(
        &format!("/authorizations/{e}/capture"),
        &json!({"extra": 1}),
    )
    .expect_error(400, "validation_error")
    .expect_field_error("extra");
    let whole = t.send("POST", &format!("/authorizations/{e}/capture"), &[], None);
    assert_eq!(dec(&whole.data(200)["capturedAmount"]), d("10"));
    // Captures are card transactions, negative from the card's point of view.
    let txs = t.list(
        &format!("/cards/{c}/transactions"),
        &[("sort", "createdAt")],
    );
    let txs = txs.data(200).as_array().unwrap().clone();
    assert_eq!(txs.len(), 3);
    assert_eq!(
        txs.iter().map(|t| dec(&t["amount"])).collect::<Vec<_>>(),
        vec![d("-100"), d("-30"), d("-10")]
    );
    assert_eq!(txs[0]["type"], "capture");
    assert_eq!(txs[0]["authorizationId"], a.as_str());
    assert_eq!(txs[0]["currency"], "USD");
    assert_eq!(txs[0]["merchant"]["name"], "Corner Shop");
    let one = t
        .get(&format!("/card-transactions/{}", id(&txs[1])))
        .data(200)
        .clone();
    assert_eq!(one, txs[1]);
    // Declined authorizations cannot be captured.
    let declined = id(&authorize(&t, &c, &purchase("9999")));
    t.post(&format!("/authorizations/{declined}/capture"), &json!({}))
        .expect_error(409, "invalid_state");
}

#[test]
fn reverse_partial_then_whole() {
    let t = tenant();
    let c = card(&t, "200");
    let a = id(&authorize(&t, &c, &purchase("100")));
    let r = t
        .post(
            &format!("/authorizations/{a}/reverse"),
            &json!({"amount": 40}),
        )
        .data(200)
        .clone();
    assert_eq!(r["status"], "pending");
    assert_eq!(dec(&r["pendingAmount"]), d("60"));
    assert_eq!(dec(&r["reversedAmount"]), d("40"));
    assert_eq!(balances(&t, &c), (d("140"), d("140"), d("200")));
    t.post(
        &format!("/authorizations/{a}/reverse"),
        &json!({"amount": 61}),
    )
    .expect_error(409, "invalid_state");
    let r = t
        .post(&format!("/authorizations/{a}/reverse"), &json!({}))
        .data(200)
        .clone();
    assert_eq!(r["status"], "reversed");
    assert_eq!(dec(&r["pendingAmount"]), d("0"));
    assert_eq!(dec(&r["reversedAmount"]), d("100"));
    assert_eq!(balances(&t, &c), (d("200"), d("200"), d("200")));
    t.post(&format!("/authorizations/{a}/reverse"), &json!({}))
        .expect_error(409, "invalid_state");
    t.post(&format!("/authorizations/{a}/capture"), &json!({}))
        .expect_error(409, "invalid_state");
    // Reversals are no card transactions.
    assert!(ids(&t.get(&format!("/cards/{c}/transactions"))).is_empty());
}

#[test]
fn refund_up_to_what_was_captured() {
    let t = tenant();
    let (c, account) = funded_card(&t, "300", json!({}));
    let a = id(&authorize(&t, &c, &purchase("100")));
    t.post(&format!("/authorizations/{a}/refund"), &json!({}))
        .expect_error(409, "invalid_state");
    t.post(
        &format!("/authorizations/{a}/capture"),
        &json!({"amount": 80}),
    )
    .expect(200);
    let r = t
        .post(
            &format!("/authorizations/{a}/refund"),
            &json!({"amount": 30}),
        )
        .data(200)
        .clone();
    assert_eq!(dec(&r["refundedAmount"]), d("30"));
    assert_eq!(balances(&t, &c), (d("250"), d("250"), d("250")));
    t.post(
        &format!("/authorizations/{a}/refund"),
        &json!({"amount": 50.01}),
    )
    .expect_error(409, "invalid_state");
    let r = t
        .post(&format!("/authorizations/{a}/refund"), &json!({}))
        .data(200)
        .clone();
    assert_eq!(dec(&r["refundedAmount"]), d("80"));
    assert_eq!(balances(&t, &c), (d("300"), d("300"), d("300")));
    t.post(&format!("/authorizations/{a}/refund"), &json!({}))
        .expect_error(409, "invalid_state");
    let refunds = t.list("/card-transactions", &[("cardId", &c), ("type", "refund")]);
    let refunds = refunds.data(200).as_array().unwrap().clone();
    assert_eq!(refunds.len(), 2);
    assert!(refunds.iter().all(|r| dec(&r["amount"]) > Decimal::ZERO));
    // Money is conserved: the account gave 300, the card spent 80 and got 80 back.
    let acct = dec(&t.get(&format!("/accounts/{account}")).data(200)["balance"]);
    assert_eq!(acct + balances(&t, &c).2 + d("80") - d("80"), d("1000"));
}

#[test]
fn cancel_reverses_holds_before_the_refund() {
    let t = tenant();
    let (c, account) = funded_card(&t, "500", json!({}));
    let a = id(&authorize(&t, &c, &purchase("200")));
    let b = id(&authorize(&t, &c, &purchase("50")));
    t.post(&format!("/authorizations/{b}/capture"), &json!({}))
        .expect(200);
    let canceled = t
        .put(
            &format!("/cards/{c}"),
            &json!({"status": "canceled", "cancellationReason": "lost"}),
        )
        .data(200)
        .clone();
    assert_eq!(dec(&canceled["balance"]), d("0"));
    assert_eq!(dec(&canceled["ledgerBalance"]), d("0"));
    let a = t.get(&format!("/authorizations/{a}")).data(200).clone();
    assert_eq!(a["status"], "reversed");
    assert_eq!(dec(&a["reversedAmount"]), d("200"));
    // The whole ledger balance (500 - 50 captured) went back, held part included.
    let acct = dec(&t.get(&format!("/accounts/{account}")).data(200)["balance"]);
    assert_eq!(acct, d("950"));
    t.post(&format!("/authorizations/{b}/refund"), &json!({}))
        .expect_error(409, "invalid_state");
}

#[test]
fn spending_limits_by_period_and_the_spending_report() {
    let t = tenant();
    let (c, _) = funded_card(
        &t,
        "1000",
        json!({"spendingControls": {"spendingLimits": [
            {"amount": 100, "interval": "daily"},
            {"amount": 50, "interval": "per_authorization"},
            {"amount": 300, "interval": "monthly", "categories": []},
            {"amount": 20, "interval": "all_time", "categories": ["electronics"]},
            {"amount": 500, "interval": "weekly"},
            {"amount": 900, "interval": "yearly"},
        ]}}),
    );
    let spending = |t: &Tenant| t.get(&format!("/cards/{c}/spending")).data(200).clone();
    let s = spending(&t);
    assert_eq!(s.as_array().unwrap().len(), 6);
    assert_eq!(s[0]["interval"], "daily");
    assert_eq!(dec(&s[0]["spent"]), d("0"));
    assert_eq!(dec(&s[0]["available"]), d("100"));
    assert_eq!(s[1]["periodStart"], Value::Null);
    assert_eq!(s[3]["periodStart"], Value::Null);
    assert_eq!(s[3]["categories"], json!(["electronics"]));
    let day = timestamp(&s[0]["periodStart"]);
    assert_eq!(day.format("%H:%M:%S%.3f").to_string(), "00:00:00.000");
    let now = chrono::Utc::now();
    assert!(now.signed_duration_since(day) < chrono::Duration::days(1));
    let month = timestamp(&s[2]["periodStart"]);
    assert_eq!(month.format("%d %H:%M").to_string(), "01 00:00");
    let week = timestamp(&s[4]["periodStart"]);
    assert_eq!(week.format("%a %H:%M").to_string(), "Mon 00:00");
    let year = timestamp(&s[5]["periodStart"]);
    assert_eq!(year.format("%m-%d %H:%M").to_string(), "01-01 00:00");

    assert_eq!(declined_for(&t, &c, &purchase("50.01")), "spending_limit");
    let a = id(&authorize(&t, &c, &purchase("40")));
    let b = id(&authorize(&t, &c, &purchase("30")));
    t.post(
        &format!("/authorizations/{a}/capture"),
        &json!({"amount": 35}),
    )
    .expect(200);
    t.post(
        &format!("/authorizations/{b}/reverse"),
        &json!({"amount": 10}),
    )
    .expect(200);
    // Spent = pending + captured: 35 + 20.
    let s = spending(&t);
    assert_eq!(dec(&s[0]["spent"]), d("55"));
    assert_eq!(dec(&s[0]["available"]), d("45"));
    assert_eq!(dec(&s[2]["spent"]), d("55"));
    // The electronics limit counts only electronics: none yet.
    assert_eq!(dec(&s[3]["spent"]), d("0"));
    assert_eq!(dec(&s[3]["available"]), d("20"));
    // Refunds do not restore a limit.
    t.post(&format!("/authorizations/{a}/refund"), &json!({}))
        .expect(200);
    assert_eq!(dec(&spending(&t)[0]["spent"]), d("55"));
    // A limit with categories applies only to purchases in them.
    let tech = json!({"amount": 20.01, "channel": "web", "merchant": {"name": "Tech", "category": "electronics"}});
    assert_eq!(declined_for(&t, &c, &tech), "spending_limit");
    // The daily limit: 45 left.
    assert_eq!(declined_for(&t, &c, &purchase("45.01")), "spending_limit");
    assert_eq!(authorize(&t, &c, &purchase("45"))["approved"], true);
    assert_eq!(declined_for(&t, &c, &purchase("0.01")), "spending_limit");
    let s = spending(&t);
    assert_eq!(dec(&s[0]["spent"]), d("100"));
    assert_eq!(dec(&s[0]["available"]), d("0"));
    t.get("/cards/0123456789abcdef01234567/spending")
        .expect_error(404, "not_found");
}

fn flight(amount: &str) -> Value {
    let amount: Value = serde_json::from_str(amount).unwrap();
    json!({"amount": amount, "channel": "web",
           "merchant": {"name": "Airline", "category": "airlines", "mcc": "4511"}})
}

/// The limits of `/cards/{c}/spending` as (interval, categories, spent, available).
fn spending_of(t: &Tenant, c: &str) -> Vec<(String, Value, Decimal, Decimal)> {
    let s = t.get(&format!("/cards/{c}/spending")).data(200).clone();
    s.as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let interval = l["interval"].as_str().unwrap().to_string();
            (
                interval,
                l["categories"].clone(),
                dec(&l["spent"]),
                dec(&l["available"]),
            )
        })
        .collect()
}

#[test]
fn a_category_limit_is_spent_only_by_its_categories() {
    let t = tenant();
    let (c, _) = funded_card(
        &t,
        "1000",
        json!({"spendingControls": {"spendingLimits": [
            {"amount": 80, "interval": "daily", "categories": ["airlines"]},
        ]}}),
    );
    // 50 on groceries leaves the airline limit whole: an airline purchase of 60 fits.
    assert_eq!(authorize(&t, &c, &purchase("50"))["approved"], true);
    assert_eq!(
        spending_of(&t, &c),
        [("daily".into(), json!(["airlines"]), d("0"), d("80"))]
    );
    assert_eq!(authorize(&t, &c, &flight("60"))["approved"], true);
    assert_eq!(
        spending_of(&t, &c),
        [("daily".into(), json!(["airlines"]), d("60"), d("20"))]
    );
    assert_eq!(declined_for(&t, &c, &flight("20.01")), "spending_limit");
    // Groceries are still not limited.
    assert_eq!(authorize(&t, &c, &purchase("100"))["approved"], true);
    assert_eq!(authorize(&t, &c, &flight("20"))["approved"], true);
    assert_eq!(declined_for(&t, &c, &flight("0.01")), "spending_limit");

    // New limits count the purchases already made that they apply to.
    t.put(
        &format!("/cards/{c}"),
        &json!({"spendingControls": {"spendingLimits": [
            {"amount": 200, "interval": "daily", "categories": ["grocery_stores"]},
            {"amount": 90, "interval": "monthly", "categories": ["airlines"]},
            {"amount": 500, "interval": "all_time"},
        ]}}),
    )
    .data(200);
    assert_eq!(
        spending_of(&t, &c),
        [
            ("daily".into(), json!(["grocery_stores"]), d("150"), d("50")),
            ("monthly".into(), json!(["airlines"]), d("80"), d("10")),
            ("all_time".into(), json!([]), d("230"), d("270")),
        ]
    );
    assert_eq!(declined_for(&t, &c, &purchase("50.01")), "spending_limit");
    assert_eq!(authorize(&t, &c, &flight("10"))["approved"], true);
}

#[test]
fn a_limit_listing_both_category_and_mcc_counts_a_purchase_once() {
    let t = tenant();
    let (c, _) = funded_card(
        &t,
        "1000",
        json!({"spendingControls": {"spendingLimits": [
            {"amount": 100, "interval": "weekly", "categories": ["airlines", "4511"]},
        ]}}),
    );
    // Category and MCC both listed: 60 counts as 60, not 120, so 40 more fit.
    let a = id(&authorize(&t, &c, &flight("60")));
    assert_eq!(
        spending_of(&t, &c),
        [(
            "weekly".into(),
            json!(["airlines", "4511"]),
            d("60"),
            d("40")
        )]
    );
    // Either one alone makes a purchase count.
    let by_mcc =
        json!({"amount": 15, "channel": "pos", "merchant": {"name": "Air", "mcc": "4511"}});
    let by_category = json!({"amount": 15, "channel": "pos", "merchant": {"name": "Air", "category": "airlines"}});
    assert_eq!(authorize(&t, &c, &by_mcc)["approved"], true);
    assert_eq!(authorize(&t, &c, &by_category)["approved"], true);
    assert_eq!(declined_for(&t, &c, &flight("10.01")), "spending_limit");
    // Released parts stop counting: the capture of 45 releases 15.
    t.post(
        &format!("/authorizations/{a}/capture"),
        &json!({"amount": 45}),
    )
    .expect(200);
    assert_eq!(
        spending_of(&t, &c),
        [(
            "weekly".into(),
            json!(["airlines", "4511"]),
            d("75"),
            d("25")
        )]
    );
    assert_eq!(authorize(&t, &c, &flight("25"))["approved"], true);
    assert_eq!(declined_for(&t, &c, &by_mcc), "spending_limit");
}

#[test]
fn lists_use_the_query_language_and_stay_per_client() {
    let t = tenant();
    let other = tenant();
    let c1 = card(&t, "100");
    let c2 = card(&t, "100");
    let a1 = id(&authorize(&t, &c1, &purchase("10")));
    let a2 = id(&authorize(&t, &c2, &purchase("20")));
    let a3 = id(&authorize(&t, &c1, &purchase("500")));
    let of_c1 = t.list(
        &format!("/cards/{c1}/authorizations"),
        &[("sort", "createdAt")],
    );
    assert_eq!(ids(&of_c1), vec![a1.clone(), a3.clone()]);
    assert_eq!(of_c1.body["meta"]["total"], 2);
    let all = t.list("/authorizations", &[("sort", "-amount"), ("limit", "2")]);
    assert_eq!(ids(&all), vec![a3.clone(), a2.clone()]);
    assert_eq!(all.body["meta"]["pages"], 2);
    let approved = t.list(
        "/authorizations",
        &[("filter", r#"{"approved": true, "amount": {"gte": 15}}"#)],
    );
    assert_eq!(ids(&approved), vec![a2.clone()]);
    let declined = t.list(
        "/authorizations",
        &[("declineReason", "insufficient_funds")],
    );
    assert_eq!(ids(&declined), vec![a3.clone()]);
    let searched = t.list(
        "/authorizations",
        &[("search", "^corner"), ("fields", "merchant.name")],
    );
    assert_eq!(ids(&searched).len(), 3);
    assert_eq!(
        searched.data(200)[0],
        json!({"_id": a3, "merchant": {"name": "Corner Shop"}})
    );
    t.list("/authorizations", &[("sort", "nope")])
        .expect_error(400, "validation_error");
    t.list("/authorizations", &[("amount.gt", "abc")])
        .expect_error(400, "validation_error");
    t.list("/card-transactions", &[("filter", "bogus=1")])
        .expect_error(400, "validation_error");
    // Another client sees none of it.
    assert!(ids(&other.get("/authorizations")).is_empty());
    other
        .get(&format!("/authorizations/{a1}"))
        .expect_error(404, "not_found");
    other
        .get(&format!("/cards/{c1}/authorizations"))
        .expect_error(404, "not_found");
    other
        .get(&format!("/cards/{c1}/transactions"))
        .expect_error(404, "not_found");
    other
        .get(&format!("/cards/{c1}/spending"))
        .expect_error(404, "not_found");
    other
        .post(&format!("/authorizations/{a1}/capture"), &json!({}))
        .expect_error(404, "not_found");
    other
        .post(&format!("/authorizations/{a1}/reverse"), &json!({}))
        .expect_error(404, "not_found");
    other
        .post(&format!("/authorizations/{a1}/refund"), &json!({}))
        .expect_error(404, "not_found");
    other
        .post(&format!("/cards/{c1}/authorizations"), &purchase("1"))
        .expect_error(404, "not_found");
    t.get("/authorizations/nope").expect_error(404, "not_found");
    t.get("/card-transactions/0123456789abcdef01234567")
        .expect_error(404, "not_found");
    assert_eq!(balances(&t, &c1).1, d("90"));
}

#[test]
fn an_idempotency_key_retry_holds_once() {
    let t = tenant();
    let c = card(&t, "100");
    let path = format!("/cards/{c}/authorizations");
    let body = serde_json::to_vec(&purchase("25")).unwrap();
    let headers = [
        ("content-type", "application/json"),
        ("idempotency-key", "auth-retry-1"),
    ];
    let first = t.send("POST", &path, &headers, Some(body.clone()));
    let a = first.data(201).clone();
    let again = t.send("POST", &path, &headers, Some(body));
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(again.data(201), &a);
    assert_eq!(balances(&t, &c).1, d("75"));
    assert_eq!(ids(&t.get(&path)).len(), 1);
    let different = serde_json::to_vec(&purchase("26")).unwrap();
    t.send("POST", &path, &headers, Some(different))
        .expect_error(409, "idempotency_conflict");
}

/// `n` authorizations of `amount` on `card` at once; how many were approved.
fn concurrent_approvals(t: &Tenant, card: &str, n: usize, amount: &str) -> usize {
    let handles: Vec<_> = (0..n)
        .map(|_| {
            let t = t.clone();
            let path = format!("/cards/{card}/authorizations");
            let body = purchase(amount);
            thread::spawn(move || t.post(&path, &body).data(201)["approved"] == true)
        })
        .collect();
    handles
        .into_iter()
        .map(|h| h.join().unwrap())
        .filter(|a| *a)
        .count()
}

#[test]
fn concurrent_authorizations_never_overspend_the_balance() {
    let t = tenant();
    let c = card(&t, "500");
    assert_eq!(concurrent_approvals(&t, &c, 100, "10"), 50);
    assert_eq!(balances(&t, &c), (d("0"), d("0"), d("500")));
    let declined = t.list(
        &format!("/cards/{c}/authorizations"),
        &[("declineReason", "insufficient_funds")],
    );
    assert_eq!(declined.body["meta"]["total"], 50);
}

#[test]
fn concurrent_authorizations_never_pass_a_daily_limit() {
    let t = tenant();
    let (c, _) = funded_card(
        &t,
        "1000",
        json!({"spendingControls": {"spendingLimits": [{"amount": 100, "interval": "daily"}]}}),
    );
    assert_eq!(concurrent_approvals(&t, &c, 20, "10"), 10);
    assert_eq!(balances(&t, &c).1, d("900"));
    let s = t.get(&format!("/cards/{c}/spending")).data(200).clone();
    assert_eq!(dec(&s[0]["spent"]), d("100"));
}

#[test]
fn holds_expire_at_expires_at_without_any_write() {
    // A server of its own with a two-second authorization lifetime.
    let server = Instance::start_with_env(&[("CARDS_AUTHORIZATION_TTL", "2")]);
    let t = server.tenant(0);
    let (c, _) = funded_card(
        &t,
        "100",
        json!({"spendingControls": {"spendingLimits": [{"amount": 50, "interval": "daily"}]}}),
    );
    let a = authorize(&t, &c, &purchase("40"));
    let ttl = timestamp(&a["expiresAt"]) - timestamp(&a["createdAt"]);
    assert_eq!(ttl, chrono::Duration::seconds(2));
    let b = id(&authorize(&t, &c, &purchase("5")));
    t.post(&format!("/authorizations/{b}/capture"), &json!({}))
        .expect(200);
    assert_eq!(balances(&t, &c), (d("55"), d("55"), d("95")));
    // Wait until the clock is past expiresAt (the lifetime, not a timing assumption about the server).
    let expires = timestamp(&a["expiresAt"]);
    while chrono::Utc::now() <= expires + chrono::Duration::milliseconds(50) {
        thread::sleep(std::time::Duration::from_millis(100));
    }
    let got = t
        .get(&format!("/authorizations/{}", id(&a)))
        .data(200)
        .clone();
    assert_eq!(got["status"], "expired");
    assert_eq!(dec(&got["pendingAmount"]), d("0"));
    assert_eq!(got["updatedAt"], a["expiresAt"]);
    assert_eq!(balances(&t, &c), (d("95"), d("95"), d("95")));
    let s = t.get(&format!("/cards/{c}/spending")).data(200).clone();
    assert_eq!(dec(&s[0]["spent"]), d("5"));
    let expired = t.list("/authorizations", &[("status", "expired")]);
    assert_eq!(ids(&expired), vec![id(&a)]);
    t.post(&format!("/authorizations/{}/capture", id(&a)), &json!({}))
        .expect_error(409, "invalid_state");
    t.post(&format!("/authorizations/{}/reverse", id(&a)), &json!({}))
        .expect_error(409, "invalid_state");
    // The limit has room again: had the expired 40 still counted, 5 + 40 + 45 would pass 50.
    assert_eq!(authorize(&t, &c, &purchase("45"))["approved"], true);
}
