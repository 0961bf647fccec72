//! The event log over HTTP: one event per change, in order, carrying the resource as a read returns
//! it; type filters; per client; never a PAN, CVV or reveal token.

use acceptance::fixtures::{create_account, id};
use acceptance::*;
use serde_json::{Value, json};

#[test]
fn every_change_appends_one_event_with_the_resource() {
    let t = tenant();
    let account = create_account(&t, json!({"balance": 1000, "currency": "USD"}));
    let acct = id(&account);
    t.put(&format!("/accounts/{acct}"), &json!({"name": "Renamed"}))
        .expect(200);
    let holder = t
        .post(
            "/card-holders",
            &json!({"name": "Ada Lovelace",
                    "person": {"firstName": "Ada", "lastName": "Lovelace", "email": "ada@example.com",
                               "phoneNumber": "+2348012345678"}}),
        )
        .data(201)
        .clone();
    let card = t
        .post(
            "/cards",
            &json!({"debitAccountId": acct, "cardHolderId": id(&holder), "type": "virtual",
                    "brand": "Visa", "status": "active", "amount": 100}),
        )
        .data(201)
        .clone();
    let c = id(&card);
    let funded = t
        .post(
            &format!("/cards/{c}/fund"),
            &json!({"debitAccountId": acct, "amount": 50}),
        )
        .data(200)
        .clone();
    let token = t.send("POST", &format!("/cards/{c}/token"), &[], None);
    let token = token.data(201)["token"].as_str().unwrap().to_string();
    let revealed = t.get(&format!("/cards/{c}/reveal?token={token}"));
    let pan = revealed.body["pan"].as_str().unwrap().to_string();
    let cvv = revealed.body["cvv"].as_str().unwrap().to_string();
    let auth = t
        .post(
            &format!("/cards/{c}/authorizations"),
            &json!({"amount": 30, "channel": "web", "merchant": {"name": "Shop"}}),
        )
        .data(201)
        .clone();
    let a = id(&auth);
    let captured = t
        .post(&format!("/authorizations/{a}/capture"), &json!({}))
        .data(200)
        .clone();
    t.post(
        &format!("/authorizations/{a}/refund"),
        &json!({"amount": 10}),
    )
    .expect(200);
    let canceled = t.delete(&format!("/cards/{c}")).data(200).clone();
    // Refused requests append nothing.
    t.post(&format!("/authorizations/{a}/capture"), &json!({}))
        .expect_error(409, "invalid_state");

    let resp = t.list("/events", &[("sort", "createdAt"), ("limit", "200")]);
    let events = resp.data(200).as_array().unwrap().clone();
    let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(
        types,
        vec![
            "account.created",
            "account.updated",
            "card_holder.created",
            "card.created",
            "card.funded",
            "authorization.created",
            "authorization.updated",
            "transaction.created",
            "authorization.updated",
            "transaction.created",
            "card.canceled",
        ]
    );
    let object = |i: usize| events[i]["data"]["object"].clone();
    assert_eq!(object(0), account);
    assert_eq!(object(2), holder);
    assert_eq!(object(3), card);
    assert_eq!(object(4), funded);
    assert_eq!(object(5), auth);
    assert_eq!(object(6), captured);
    assert_eq!(object(7)["type"], "capture");
    assert_eq!(dec(&object(9)["amount"]), d("10"));
    assert_eq!(object(10), canceled);
    for e in &events {
        object_id(&e["_id"]);
        timestamp(&e["createdAt"]);
        acceptance::assert::no_card_secrets(&e.to_string(), &pan, &cvv, &[&token]);
    }
    let one = t
        .get(&format!("/events/{}", id(&events[4])))
        .data(200)
        .clone();
    assert_eq!(one, events[4]);
    let filtered = t.list(
        "/events",
        &[
            ("type.in", "card.created,card.funded"),
            ("sort", "createdAt"),
        ],
    );
    let filtered: Vec<Value> = filtered.data(200).as_array().unwrap().clone();
    assert_eq!(filtered, vec![events[3].clone(), events[4].clone()]);
    let other = tenant();
    assert!(ids(&other.get("/events")).is_empty());
    other
        .get(&format!("/events/{}", id(&events[0])))
        .expect_error(404, "not_found");
    t.list("/events", &[("nope", "1")])
        .expect_error(400, "validation_error");
}
