//! Disputes over HTTP: open on a capture, won (the card credited once, a retried resolve with the same
//! key included) and lost, 409 on a second answer, what can be disputed and refunded, tenancy, events.

use acceptance::fixtures::{create_account, id};
use acceptance::*;
use rust_decimal::Decimal;
use serde_json::{Value, json};

fn post_with_key(t: &Tenant, path: &str, key: &str, body: &Value) -> Resp {
    t.send(
        "POST",
        path,
        &[
            ("content-type", "application/json"),
            ("idempotency-key", key),
        ],
        Some(serde_json::to_vec(body).unwrap()),
    )
}

/// A USD card holding 500, and the capture of a 120 purchase on it: (card, authorization, capture).
fn captured(t: &Tenant) -> (String, String, String) {
    let account = id(&create_account(t, json!({"balance": 1000})));
    let holder = id(t
        .post(
            "/card-holders",
            &json!({"name": "Ada Lovelace", "person": {"firstName": "Ada", "lastName": "Lovelace",
                    "email": "ada@example.com", "phoneNumber": "+2348012345678"}}),
        )
        .data(201));
    let card = id(t
        .post(
            "/cards",
            &json!({"debitAccountId": account, "cardHolderId": holder, "type": "virtual",
                    "brand": "Visa", "status": "active", "amount": 500}),
        )
        .data(201));
    let auth = id(t
        .post(
            &format!("/cards/{card}/authorizations"),
            &json!({"amount": 120, "channel": "web", "merchant": {"name": "Gadget Store"}}),
        )
        .data(201));
    t.post(&format!("/authorizations/{auth}/capture"), &json!({}))
        .expect(200);
    let txs = t.list(
        &format!("/cards/{card}/transactions"),
        &[("type", "capture")],
    );
    let capture = ids(&txs)[0].clone();
    (card, auth, capture)
}

fn card_balance(t: &Tenant, card: &str) -> Decimal {
    dec(&t.get(&format!("/cards/{card}")).data(200)["balance"])
}

fn credits(t: &Tenant, card: &str) -> Vec<Value> {
    t.list(
        &format!("/cards/{card}/transactions"),
        &[("type", "dispute_credit")],
    )
    .data(200)
    .as_array()
    .unwrap()
    .clone()
}

#[test]
fn a_won_dispute_credits_the_card_once() {
    let t = tenant();
    let (card, auth, capture) = captured(&t);
    assert_eq!(card_balance(&t, &card), d("380"));
    let resp = t.post(
        &format!("/card-transactions/{capture}/disputes"),
        &json!({"reason": "not_received", "amount": 50, "explanation": "Never delivered"}),
    );
    assert_eq!(resp.body["message"], "Dispute created successfully");
    let dispute = resp.data(201).clone();
    object_id(&dispute["_id"]);
    assert_eq!(dispute["cardId"], card.as_str());
    assert_eq!(dispute["transactionId"], capture.as_str());
    assert_eq!(dispute["authorizationId"], auth.as_str());
    assert_eq!(dec(&dispute["amount"]), d("50"));
    assert_eq!(dispute["currency"], "USD");
    assert_eq!(dispute["reason"], "not_received");
    assert_eq!(dispute["explanation"], "Never delivered");
    assert_eq!(dispute["status"], "submitted");
    timestamp(&dispute["createdAt"]);
    timestamp(&dispute["updatedAt"]);
    // Nothing moves until the network answers.
    assert_eq!(card_balance(&t, &card), d("380"));
    let did = id(&dispute);
    assert_eq!(t.get(&format!("/disputes/{did}")).data(200), &dispute);
    let path = format!("/disputes/{did}/resolve");
    let first = post_with_key(&t, &path, "resolve-1", &json!({"outcome": "won"}));
    assert_eq!(first.body["message"], "Dispute resolved successfully");
    let won = first.data(200).clone();
    assert_eq!(won["status"], "won");
    assert_eq!(card_balance(&t, &card), d("430"));
    // The same request again (a retry after a lost answer) replays the answer and credits nothing.
    let again = post_with_key(&t, &path, "resolve-1", &json!({"outcome": "won"}));
    again.expect(200);
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(again.body, first.body);
    assert_eq!(card_balance(&t, &card), d("430"));
    // A new answer to an answered dispute is refused.
    t.post(&path, &json!({"outcome": "won"}))
        .expect_error(409, "invalid_state");
    t.post(&path, &json!({"outcome": "lost"}))
        .expect_error(409, "invalid_state");
    assert_eq!(card_balance(&t, &card), d("430"));
    let credit = credits(&t, &card);
    assert_eq!(credit.len(), 1, "{credit:?}");
    assert_eq!(dec(&credit[0]["amount"]), d("50"));
    assert_eq!(credit[0]["authorizationId"], auth.as_str());
    assert_eq!(credit[0]["currency"], "USD");
    // Events: created, updated, and the credit as a transaction.
    let kinds = |kind: &str| {
        t.list("/events", &[("type", kind)])
            .data(200)
            .as_array()
            .unwrap()
            .clone()
    };
    assert_eq!(kinds("dispute.created").len(), 1);
    let updated = kinds("dispute.updated");
    assert_eq!(updated.len(), 1);
    assert_eq!(updated[0]["data"]["object"], won);
    let made: Vec<Value> = kinds("transaction.created")
        .into_iter()
        .filter(|e| e["data"]["object"]["type"] == "dispute_credit")
        .collect();
    assert_eq!(made.len(), 1);
    // Lists.
    assert_eq!(ids(&t.list("/disputes", &[])), vec![did.clone()]);
    assert_eq!(
        ids(&t.list("/disputes", &[("status", "won")])),
        vec![did.clone()]
    );
    assert!(ids(&t.list("/disputes", &[("status", "submitted")])).is_empty());
    assert_eq!(
        ids(&t.list("/disputes", &[("transactionId", &capture)])),
        vec![did]
    );
}

#[test]
fn a_lost_dispute_credits_nothing() {
    let t = tenant();
    let (card, _, capture) = captured(&t);
    let dispute = t
        .post(
            &format!("/card-transactions/{capture}/disputes"),
            &json!({"reason": "fraudulent"}),
        )
        .data(201)
        .clone();
    // Without an amount, all of the capture.
    assert_eq!(dec(&dispute["amount"]), d("120"));
    assert_eq!(dispute["explanation"], Value::Null);
    let path = format!("/disputes/{}/resolve", id(&dispute));
    let lost = t.post(&path, &json!({"outcome": "lost"})).data(200).clone();
    assert_eq!(lost["status"], "lost");
    assert_eq!(card_balance(&t, &card), d("380"));
    assert!(credits(&t, &card).is_empty());
    t.post(&path, &json!({"outcome": "won"}))
        .expect_error(409, "invalid_state");
    assert_eq!(card_balance(&t, &card), d("380"));
    // A lost dispute is final for its amount: nothing is left to dispute.
    t.post(
        &format!("/card-transactions/{capture}/disputes"),
        &json!({"reason": "other"}),
    )
    .expect_error(409, "invalid_state");
}

#[test]
fn at_most_what_is_not_yet_disputed_or_refunded() {
    let t = tenant();
    let (card, auth, capture) = captured(&t);
    let path = format!("/card-transactions/{capture}/disputes");
    // 120 captured; 20 refunded leaves 100.
    t.post(
        &format!("/authorizations/{auth}/refund"),
        &json!({"amount": 20}),
    )
    .expect(200);
    t.post(&path, &json!({"reason": "duplicate", "amount": 100.01}))
        .expect_error(409, "invalid_state");
    let first = t
        .post(&path, &json!({"reason": "duplicate", "amount": 60}))
        .data(201)
        .clone();
    t.post(&path, &json!({"reason": "duplicate", "amount": 40.01}))
        .expect_error(409, "invalid_state");
    // An open dispute's amount cannot be refunded as well: 40 is left for a refund.
    t.post(
        &format!("/authorizations/{auth}/refund"),
        &json!({"amount": 40.01}),
    )
    .expect_error(409, "invalid_state");
    let rest = t.post(&path, &json!({"reason": "other"})).data(201).clone();
    assert_eq!(dec(&rest["amount"]), d("40"));
    t.post(&path, &json!({"reason": "other"}))
        .expect_error(409, "invalid_state");
    t.post(
        &format!("/authorizations/{auth}/refund"),
        &json!({"amount": 1}),
    )
    .expect_error(409, "invalid_state");
    // Both won: the card has back all it paid (380 + 20 refunded + 60 + 40).
    for d_ in [&first, &rest] {
        t.post(
            &format!("/disputes/{}/resolve", id(d_)),
            &json!({"outcome": "won"}),
        )
        .expect(200);
    }
    assert_eq!(card_balance(&t, &card), d("500"));
    assert_eq!(credits(&t, &card).len(), 2);
}

#[test]
fn bad_requests_and_other_clients() {
    let t = tenant();
    let (card, _, capture) = captured(&t);
    let path = format!("/card-transactions/{capture}/disputes");
    t.post(&path, &json!({})).expect_field_error("reason");
    t.post(&path, &json!({"reason": "angry"}))
        .expect_field_error("reason");
    t.post(&path, &json!({"reason": "other", "amount": 0}))
        .expect_field_error("amount");
    t.post(&path, &json!({"reason": "other", "note": 1}))
        .expect_field_error("note");
    t.post(
        "/card-transactions/000000000000000000000000/disputes",
        &json!({"reason": "other"}),
    )
    .expect_error(404, "not_found");
    // Only a capture can be disputed.
    let auth = id(t
        .post(
            &format!("/cards/{card}/authorizations"),
            &json!({"amount": 10, "channel": "pos", "merchant": {"name": "Shop"}}),
        )
        .data(201));
    t.post(&format!("/authorizations/{auth}/capture"), &json!({}))
        .expect(200);
    t.post(
        &format!("/authorizations/{auth}/refund"),
        &json!({"amount": 5}),
    )
    .expect(200);
    let refund = ids(&t.list(
        &format!("/cards/{card}/transactions"),
        &[("type", "refund")],
    ))[0]
        .clone();
    t.post(
        &format!("/card-transactions/{refund}/disputes"),
        &json!({"reason": "other"}),
    )
    .expect_error(409, "invalid_state");
    let dispute = id(t
        .post(&path, &json!({"reason": "other", "amount": 1}))
        .data(201));
    let resolve = format!("/disputes/{dispute}/resolve");
    t.post(&resolve, &json!({"outcome": "maybe"}))
        .expect_field_error("outcome");
    t.post(&resolve, &json!({})).expect_field_error("outcome");
    // Another client sees none of it.
    let bob = tenant();
    bob.get(&format!("/disputes/{dispute}"))
        .expect_error(404, "not_found");
    bob.post(&resolve, &json!({"outcome": "won"}))
        .expect_error(404, "not_found");
    bob.post(&path, &json!({"reason": "other"}))
        .expect_error(404, "not_found");
    assert!(ids(&bob.list("/disputes", &[])).is_empty());
    assert_eq!(
        t.get(&format!("/disputes/{dispute}")).data(200)["status"],
        "submitted"
    );
}
