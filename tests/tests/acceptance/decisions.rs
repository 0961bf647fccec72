//! Real-time authorization decisions (README, "Real-time authorization decisions"): a decision
//! endpoint the test starts on 127.0.0.1 is asked about each purchase the issuer approves, and its
//! answer, its silence or its errors decide, with the endpoint's fallback.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use acceptance::decision_endpoint::{Behaviour, DecisionEndpoint, Received, signed_by};
use acceptance::fixtures::{authorize, balances, create_account, create_holder, id};
use acceptance::*;
use serde_json::{Value, json};

/// An active USD card funded with `amount`.
fn card(t: &Tenant, amount: i64) -> String {
    let account = id(&create_account(
        t,
        json!({"balance": 100000, "currency": "USD"}),
    ));
    let h = create_holder(t);
    let body = json!({"debitAccountId": account, "cardHolderId": h, "type": "virtual",
                      "brand": "Visa", "status": "active", "amount": amount});
    id(t.post("/cards", &body).data(201))
}

fn purchase(amount: i64, merchant: &str) -> Value {
    json!({"amount": amount, "channel": "web", "merchant": {"name": merchant, "mcc": "5411"}})
}

/// Sets the tenant's decision endpoint; its secret.
fn set_endpoint(t: &Tenant, url: &str, extra: Value) -> String {
    let body = fixtures::merge(json!({"url": url}), extra);
    let data = t.put("/authorization-endpoint", &body).data(200).clone();
    data["secret"]
        .as_str()
        .expect("a new endpoint shows its secret")
        .to_string()
}

fn approve() -> Behaviour {
    Behaviour::json(json!({"approved": true}))
}

#[test]
fn the_endpoint_is_set_read_replaced_rotated_and_deleted() {
    let t = tenant();
    t.get("/authorization-endpoint").expect(404);
    let endpoint = DecisionEndpoint::start(|_| approve());
    let set = t
        .put("/authorization-endpoint", &json!({"url": endpoint.url}))
        .data(200)
        .clone();
    let secret = set["secret"].as_str().unwrap().to_string();
    assert!(secret.starts_with("whsec_"), "{secret}");
    assert_eq!(set["timeoutMs"], 2000);
    assert_eq!(set["fallback"], "decline");
    let read = t.get("/authorization-endpoint").data(200).clone();
    assert_eq!(read["secret"], Value::Null);
    assert_eq!(read["url"], endpoint.url.as_str());
    // PUT replaces the settings and keeps the secret (not shown again).
    let replaced = t
        .put(
            "/authorization-endpoint",
            &json!({"url": endpoint.url, "timeoutMs": 500, "fallback": "approve"}),
        )
        .data(200)
        .clone();
    assert_eq!(replaced["secret"], Value::Null);
    assert_eq!(replaced["timeoutMs"], 500);
    assert_eq!(replaced["fallback"], "approve");
    let c = card(&t, 100);
    authorize(&t, &c, &purchase(5, "Kept secret"));
    assert!(signed_by(&endpoint.received()[0], &secret));
    // A rotation: the new secret, and for a day the old one too, sign each request.
    let rotated = t
        .post("/authorization-endpoint/rotate-secret", &json!({}))
        .data(200)
        .clone();
    let new_secret = rotated["secret"].as_str().unwrap().to_string();
    assert_ne!(new_secret, secret);
    authorize(&t, &c, &purchase(5, "Rotated"));
    let last = endpoint.received().pop().unwrap();
    assert!(signed_by(&last, &new_secret) && signed_by(&last, &secret));
    assert_eq!(last.header("webhook-signature").split(' ').count(), 2);
    let deleted = t.delete("/authorization-endpoint").data(200).clone();
    assert_eq!(deleted["url"], endpoint.url.as_str());
    t.get("/authorization-endpoint").expect(404);
    t.delete("/authorization-endpoint").expect(404);
    t.post("/authorization-endpoint/rotate-secret", &json!({}))
        .expect(404);
    // Without an endpoint nobody is asked.
    let plain = authorize(&t, &c, &purchase(5, "Alone"));
    assert_eq!(plain["decision"]["source"], "issuer");
    assert_eq!(endpoint.received().len(), 2);
}

#[test]
fn bad_settings_are_refused_naming_the_field() {
    let t = tenant();
    for (body, field) in [
        (json!({}), "url"),
        (json!({"url": "http://169.254.169.254/latest"}), "url"),
        (json!({"url": "ftp://127.0.0.1/x"}), "url"),
        (
            json!({"url": "http://127.0.0.1:9/", "timeoutMs": 99}),
            "timeoutMs",
        ),
        (
            json!({"url": "http://127.0.0.1:9/", "timeoutMs": 10001}),
            "timeoutMs",
        ),
        (
            json!({"url": "http://127.0.0.1:9/", "fallback": "maybe"}),
            "fallback",
        ),
    ] {
        let resp = t.put("/authorization-endpoint", &body);
        resp.expect(400);
        assert!(resp.text.contains(field), "{body}: {}", resp.text);
    }
    t.get("/authorization-endpoint").expect(404);
}

#[test]
fn the_request_is_the_pending_authorization_signed_and_never_listed() {
    let t = tenant();
    let endpoint = DecisionEndpoint::start(|_| {
        Behaviour::json(json!({"approved": true, "metadata": {"rule": "ok"}}))
    });
    let secret = set_endpoint(&t, &endpoint.url, json!({}));
    let c = card(&t, 100);
    let auth = authorize(&t, &c, &purchase(30, "Signed"));
    assert_eq!(auth["approved"], true);
    assert_eq!(auth["status"], "pending");
    assert_eq!(auth["decision"]["source"], "endpoint");
    assert_eq!(auth["decision"]["reason"], Value::Null);
    assert_eq!(auth["decision"]["metadata"], json!({"rule": "ok"}));
    assert!(auth["decision"]["latencyMs"].as_u64().is_some());
    let asked = endpoint.received();
    assert_eq!(asked.len(), 1);
    let request = &asked[0];
    assert_eq!(request.method, "POST");
    assert!(signed_by(request, &secret), "{:?}", request.headers);
    assert!(!signed_by(
        request,
        "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
    ));
    let event = request.json();
    assert_eq!(event["type"], "authorization.request");
    assert_eq!(Some(request.header("webhook-id")), event["_id"].as_str());
    let object = &event["data"]["object"];
    assert_eq!(
        object["_id"], auth["_id"],
        "the endpoint was shown the id it created"
    );
    assert_eq!(object["status"], "pending");
    assert_eq!(object["cardId"], c.as_str());
    assert_eq!(dec(&object["amount"]), d("30"));
    assert_eq!(event["data"]["partialApprovalCapable"], false);
    // The stored authorization keeps its decision; the request is no event.
    let read = t
        .get(&format!("/authorizations/{}", id(&auth)))
        .data(200)
        .clone();
    assert_eq!(read["decision"], auth["decision"]);
    let events = t.list("/events", &[("limit", "100")]).data(200).clone();
    let types: Vec<&str> = events
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect();
    assert!(!types.contains(&"authorization.request"), "{types:?}");
    assert!(types.contains(&"authorization.created"));
    let listed = t
        .list("/events", &[("type", "authorization.request")])
        .data(200)
        .clone();
    assert_eq!(listed, json!([]));
}

#[test]
fn the_endpoint_declines_and_approves_part() {
    let t = tenant();
    let endpoint = DecisionEndpoint::start(|r: &Received| {
        let object = &r.json()["data"]["object"];
        match object["merchant"]["name"].as_str() {
            Some("No") => Behaviour::json(json!({"approved": false})),
            Some("Part") => Behaviour::json(json!({"approved": true, "amount": 12.5})),
            _ => approve(),
        }
    });
    set_endpoint(&t, &endpoint.url, json!({}));
    let c = card(&t, 100);
    let declined = authorize(&t, &c, &purchase(20, "No"));
    assert_eq!(declined["approved"], false);
    assert_eq!(declined["status"], "declined");
    assert_eq!(declined["declineReason"], "webhook_declined");
    assert_eq!(declined["decision"]["source"], "endpoint");
    assert_eq!(balances(&t, &c).1, d("100"), "a decline holds nothing");
    let body = fixtures::merge(
        purchase(20, "Part"),
        json!({"partialApprovalCapable": true}),
    );
    let part = authorize(&t, &c, &body);
    assert_eq!(part["approved"], true);
    assert_eq!(dec(&part["amount"]), d("12.5"));
    assert_eq!(dec(&part["requestedAmount"]), d("20"));
    assert_eq!(balances(&t, &c).1, d("87.5"));
    // A lower amount without partialApprovalCapable is an invalid answer: the fallback declines.
    let invalid = authorize(&t, &c, &purchase(20, "Part"));
    assert_eq!(invalid["approved"], false);
    assert_eq!(invalid["declineReason"], "webhook_error");
    assert_eq!(invalid["decision"]["source"], "fallback");
    assert_eq!(invalid["decision"]["reason"], "invalid_response");
    let full = authorize(&t, &c, &purchase(20, "Yes"));
    assert_eq!(full["approved"], true);
    assert_eq!(balances(&t, &c).1, d("67.5"));
}

#[test]
fn the_issuer_declines_without_asking() {
    let t = tenant();
    let endpoint = DecisionEndpoint::start(|_| approve());
    set_endpoint(&t, &endpoint.url, json!({}));
    let c = card(&t, 10);
    let declined = authorize(&t, &c, &purchase(20, "Too much"));
    assert_eq!(declined["declineReason"], "insufficient_funds");
    assert_eq!(declined["decision"]["source"], "issuer");
    let forced = fixtures::merge(
        purchase(1, "Forced"),
        json!({"simulate": {"declineReason": "card_inactive"}}),
    );
    assert_eq!(authorize(&t, &c, &forced)["declineReason"], "card_inactive");
    assert!(endpoint.received().is_empty());
}

#[test]
fn timeouts_fall_back_to_either_setting() {
    let t = tenant();
    // The endpoint hangs far longer than the fallback may take even on a loaded machine (tests run
    // several at a time): the answer comes from the 200 ms timeout, not from the endpoint.
    let endpoint = DecisionEndpoint::start(|_| Behaviour::Hang(Duration::from_secs(20)));
    set_endpoint(
        &t,
        &endpoint.url,
        json!({"timeoutMs": 200, "fallback": "decline"}),
    );
    let c = card(&t, 100);
    let started = std::time::Instant::now();
    let declined = authorize(&t, &c, &purchase(10, "Slow"));
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(declined["approved"], false);
    assert_eq!(declined["declineReason"], "webhook_timeout");
    assert_eq!(declined["decision"]["source"], "fallback");
    assert_eq!(declined["decision"]["reason"], "timeout");
    assert!(declined["decision"]["latencyMs"].as_u64().unwrap() >= 200);
    t.put(
        "/authorization-endpoint",
        &json!({"url": endpoint.url, "timeoutMs": 200, "fallback": "approve"}),
    )
    .expect(200);
    let approved = authorize(&t, &c, &purchase(10, "Slow"));
    assert_eq!(approved["approved"], true);
    assert_eq!(approved["decision"]["source"], "fallback");
    assert_eq!(approved["decision"]["reason"], "timeout");
    assert_eq!(balances(&t, &c).1, d("90"));
}

#[test]
fn errors_fall_back() {
    let t = tenant();
    let endpoint =
        DecisionEndpoint::start(
            |r: &Received| match r.json()["data"]["object"]["merchant"]["name"].as_str() {
                Some("Invalid") => Behaviour::json(json!({"approved": "yes"})),
                _ => Behaviour::Answer {
                    status: 500,
                    body: "{}".into(),
                    delay: Duration::ZERO,
                },
            },
        );
    set_endpoint(&t, &endpoint.url, json!({}));
    let c = card(&t, 100);
    let failed = authorize(&t, &c, &purchase(10, "Broken"));
    assert_eq!(failed["declineReason"], "webhook_error");
    assert_eq!(failed["decision"]["reason"], "error");
    let invalid = authorize(&t, &c, &purchase(10, "Invalid"));
    assert_eq!(invalid["declineReason"], "webhook_error");
    assert_eq!(invalid["decision"]["reason"], "invalid_response");
    // Nobody listening at all: an error too; with fallback approve the purchase goes through.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/gone", closed.local_addr().unwrap());
    drop(closed);
    t.put(
        "/authorization-endpoint",
        &json!({"url": url, "fallback": "approve"}),
    )
    .expect(200);
    let approved = authorize(&t, &c, &purchase(10, "Nobody"));
    assert_eq!(approved["approved"], true);
    assert_eq!(approved["decision"]["source"], "fallback");
    assert_eq!(approved["decision"]["reason"], "error");
    assert_eq!(balances(&t, &c).1, d("90"));
}

#[test]
fn a_balance_spent_while_the_endpoint_thinks_is_rechecked() {
    let t = tenant();
    let c = card(&t, 50);
    let (spender, card_id) = (t.clone(), c.clone());
    let endpoint = DecisionEndpoint::start(move |r: &Received| {
        if r.json()["data"]["object"]["merchant"]["name"] == "Outer" {
            // Spends the balance through the API (this purchase asks the endpoint too).
            let inner = authorize(&spender, &card_id, &purchase(40, "Inner"));
            assert_eq!(inner["approved"], true, "{inner}");
        }
        approve()
    });
    // The longest timeout: the outer ask waits for a whole inner purchase (its own ask included),
    // which on a loaded machine can outlast the default.
    set_endpoint(&t, &endpoint.url, json!({"timeoutMs": 10000}));
    let outer = authorize(&t, &c, &purchase(30, "Outer"));
    assert_eq!(outer["approved"], false, "{outer}");
    assert_eq!(outer["declineReason"], "insufficient_funds");
    assert_eq!(outer["decision"]["source"], "issuer");
    assert_eq!(balances(&t, &c).1, d("10"));
}

#[test]
fn concurrent_purchases_with_a_slow_endpoint_never_overspend() {
    let t = tenant();
    let c = card(&t, 100);
    let asked = Arc::new(AtomicUsize::new(0));
    let seen = asked.clone();
    let endpoint = DecisionEndpoint::start(move |_| {
        seen.fetch_add(1, Ordering::SeqCst);
        approve().after(Duration::from_millis(200))
    });
    // The longest timeout: this is about the balance, and spin-test-host runs one guest at a time
    // (a guest back from its call waits its turn behind the others' asks).
    set_endpoint(&t, &endpoint.url, json!({"timeoutMs": 10000}));
    let threads: Vec<_> = (0..50)
        .map(|i| {
            let (t, c) = (t.clone(), c.clone());
            std::thread::spawn(move || authorize(&t, &c, &purchase(10, &format!("Shop {i}"))))
        })
        .collect();
    let results: Vec<Value> = threads.into_iter().map(|h| h.join().unwrap()).collect();
    let approved = results.iter().filter(|a| a["approved"] == true).count();
    assert_eq!(approved, 10, "exactly what the balance holds");
    for declined in results.iter().filter(|a| a["approved"] == false) {
        assert_eq!(
            declined["declineReason"], "insufficient_funds",
            "{declined}"
        );
    }
    assert_eq!(balances(&t, &c).1, d("0"));
    assert!(asked.load(Ordering::SeqCst) >= 10);
}

#[test]
fn a_replayed_rotation_never_shows_the_secret_again() {
    let t = tenant();
    let endpoint = DecisionEndpoint::start(|_| approve());
    set_endpoint(&t, &endpoint.url, json!({}));
    let headers = [
        ("content-type", "application/json"),
        ("idempotency-key", "rotate-once"),
    ];
    let first = t.send(
        "POST",
        "/authorization-endpoint/rotate-secret",
        &headers,
        Some(b"{}".to_vec()),
    );
    let secret = first.data(200)["secret"].as_str().unwrap().to_string();
    let again = t.send(
        "POST",
        "/authorization-endpoint/rotate-secret",
        &headers,
        Some(b"{}".to_vec()),
    );
    assert_eq!(again.data(200)["secret"], Value::Null);
    assert!(!again.text.contains(&secret));
    // Still the first rotation's secret: the replay rotated nothing.
    let c = card(&t, 100);
    authorize(&t, &c, &purchase(1, "After"));
    let last = endpoint.received().pop().unwrap();
    assert!(signed_by(&last, &secret));
}

#[test]
fn one_clients_endpoint_never_hears_of_anothers_purchases() {
    let (a, b) = (tenant(), tenant());
    let endpoint = DecisionEndpoint::start(|_| Behaviour::json(json!({"approved": false})));
    set_endpoint(&a, &endpoint.url, json!({}));
    b.get("/authorization-endpoint").expect(404);
    let c = card(&b, 100);
    let auth = authorize(&b, &c, &purchase(5, "Elsewhere"));
    assert_eq!(auth["approved"], true);
    assert_eq!(auth["decision"]["source"], "issuer");
    assert!(endpoint.received().is_empty());
    // Nor can the other client read, replace or delete it.
    b.delete("/authorization-endpoint").expect(404);
    a.get("/authorization-endpoint").expect(200);
}
