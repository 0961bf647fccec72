//! `cards listen` (README, "Forward events to a local receiver"): follows the events of the server
//! under test (any host) and forwards each, signed with the secret it prints, to a receiver the test
//! starts on 127.0.0.1.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use acceptance::decision_endpoint::{Behaviour, DecisionEndpoint, signed_by};
use acceptance::fixtures::{create_account, id};
use acceptance::*;
use serde_json::json;

#[test]
fn listen_forwards_new_events_signed_and_prints_each() {
    let t = tenant();
    // Before listen starts: not forwarded.
    create_account(&t, json!({"name": "Before"}));
    let receiver = DecisionEndpoint::start(|_| Behaviour::json(json!({"ok": true})));
    let mut child = Command::new(host::cards_bin())
        .args([
            "listen",
            "--forward-to",
            &receiver.url,
            "--api",
            base_url(),
            "--key",
            &t.key,
            "--events",
            "account.created,card_holder.created",
            "--interval",
            "50ms",
            "--max-events",
            "2",
        ])
        .stdout(Stdio::piped())
        .spawn()
        .expect("start cards listen");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let ready = lines.next().unwrap().unwrap();
    let secret = ready
        .split_whitespace()
        .find(|w| w.starts_with("whsec_"))
        .map(|w| w.trim_end_matches(')').to_string())
        .unwrap_or_else(|| panic!("no secret in {ready:?}"));
    // Give it its first poll (it starts after the newest event), then make two events it forwards
    // and one of a type it does not.
    std::thread::sleep(Duration::from_millis(500));
    let account = create_account(&t, json!({"name": "After"}));
    let funded = id(&account);
    t.put(&format!("/accounts/{funded}"), &json!({"name": "Renamed"}))
        .expect(200);
    let holder = t
        .post(
            "/card-holders",
            &json!({"name": "Ada Lovelace", "person": {"firstName": "Ada", "lastName": "Lovelace",
                    "email": "ada@example.com", "phoneNumber": "+2348012345678"}}),
        )
        .data(201)
        .clone();
    let printed: Vec<String> = lines.by_ref().take(2).map(|l| l.unwrap()).collect();
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "listen did not stop after 2 events"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success());
    let received = receiver.received();
    assert_eq!(received.len(), 2, "{received:?}");
    let events: Vec<_> = received.iter().map(|r| r.json()).collect();
    assert_eq!(events[0]["type"], "account.created");
    assert_eq!(events[0]["data"]["object"]["_id"], account["_id"]);
    assert_eq!(events[1]["type"], "card_holder.created");
    assert_eq!(events[1]["data"]["object"]["_id"], holder["_id"]);
    for r in &received {
        assert!(signed_by(r, &secret), "{:?}", r.headers);
        assert_eq!(Some(r.header("webhook-id")), r.json()["_id"].as_str());
    }
    // The event as GET /events/{id} returns it.
    let stored = t
        .get(&format!("/events/{}", events[0]["_id"].as_str().unwrap()))
        .data(200)
        .clone();
    assert_eq!(stored, events[0]);
    assert!(
        printed[0].contains("account.created") && printed[0].contains("[200]"),
        "{printed:?}"
    );
    assert!(printed[1].contains("card_holder.created"), "{printed:?}");
}
