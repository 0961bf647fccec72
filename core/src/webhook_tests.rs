//! Webhook endpoints and the outbox through the whole service (MemStore, fixed clock): requests in,
//! due deliveries out, so these live beside the other service-level tests, not in the domain.

use serde_json::{Value, json};

use crate::env::{Env, Timestamp};
use crate::http::Method::{self, Delete, Get, Post, Put};
use crate::service::Outcome;
use crate::test_app::{KEY_A, KEY_B, TestApp};

impl TestApp {
    fn alice(&mut self, method: Method, path: &str, body: Option<Value>) -> (u16, Value) {
        self.json_as(KEY_A, method, path, body)
    }

    fn endpoint(&mut self, key: &str, url: &str, events: Value) -> Value {
        let (s, v) = self.json_as(
            key,
            Post,
            "/webhook-endpoints",
            Some(json!({"url": url, "enabledEvents": events})),
        );
        assert_eq!(s, 201, "{v}");
        v["data"].clone()
    }

    fn account_as(&mut self, key: &str) -> String {
        let body = json!({"ownerType": "user", "name": "Main", "type": "checking",
            "category": "fiat", "currency": "USD", "balance": 10});
        let (s, v) = self.json_as(key, Post, "/accounts", Some(body));
        assert_eq!(s, 201, "{v}");
        v["data"]["_id"].as_str().unwrap().to_string()
    }

    fn take(&mut self) -> Vec<crate::service::Due> {
        self.service
            .take_due_deliveries(&mut self.store, &self.env, 100)
            .unwrap()
    }

    fn answer(&mut self, due: &[crate::service::Due], status: Option<u16>) {
        self.answer_each(due, |_| status);
    }

    /// Answers the `i`-th of `due` with `status(i)` (none: the connection was refused).
    fn answer_each(&mut self, due: &[crate::service::Due], status: impl Fn(usize) -> Option<u16>) {
        let outcomes: Vec<Outcome> = due
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let status = status(i);
                d.outcome(
                    status,
                    3,
                    status.is_none().then(|| "connection refused".to_string()),
                )
            })
            .collect();
        self.service
            .record_attempts(&mut self.store, &self.env, &outcomes)
            .unwrap();
    }

    fn deliveries(&mut self, endpoint: &str, query: &str) -> Vec<Value> {
        let (s, v) = self.alice(
            Get,
            &format!("/webhook-endpoints/{endpoint}/deliveries{query}"),
            None,
        );
        assert_eq!(s, 200, "{v}");
        v["data"].as_array().unwrap().clone()
    }
}

fn header<'a>(due: &'a crate::service::Due, name: &str) -> &'a str {
    due.headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| panic!("no {name} header"))
}

#[test]
fn the_secret_is_shown_once_and_endpoints_are_bounded() {
    let mut app = TestApp::new();
    let e = app.endpoint(KEY_A, "https://example.com/h", json!(["*"]));
    let secret = e["secret"].as_str().unwrap();
    assert!(secret.starts_with("whsec_"), "{secret}");
    assert_eq!(e["status"], "enabled");
    let id = e["_id"].as_str().unwrap();
    let (s, v) = app.alice(Get, &format!("/webhook-endpoints/{id}"), None);
    assert_eq!((s, &v["data"]["secret"]), (200, &Value::Null));
    let (_, list) = app.alice(Get, "/webhook-endpoints", None);
    assert_eq!(list["data"][0]["secret"], Value::Null);
    // Another client sees none of it.
    let (s, _) = app.json_as(KEY_B, Get, &format!("/webhook-endpoints/{id}"), None);
    assert_eq!(s, 404);
    for _ in 1..16 {
        app.endpoint(KEY_A, "https://example.com/h", json!(["card.created"]));
    }
    let (s, v) = app.alice(
        Post,
        "/webhook-endpoints",
        Some(json!({"url": "https://example.com/h", "enabledEvents": ["*"]})),
    );
    assert_eq!(s, 409, "{v}");
    // Bob still may.
    app.endpoint(KEY_B, "https://example.com/b", json!(["*"]));
}

#[test]
fn refused_urls_are_400_naming_url() {
    let mut app = TestApp::new();
    for url in [
        "http://169.254.169.254/latest/meta-data",
        "http://[fd00:ec2::254]/",
        "https://169.254.10.1/x",
        "http://10.0.0.5/h",
        "http://example.com/h",
    ] {
        let (s, v) = app.alice(
            Post,
            "/webhook-endpoints",
            Some(json!({"url": url, "enabledEvents": ["*"]})),
        );
        assert_eq!(s, 400, "{url}: {v}");
        assert_eq!(v["errors"][0]["field"], "url", "{url}: {v}");
    }
    let e = app.endpoint(KEY_A, "http://127.0.0.1:9/h", json!(["*"]));
    let id = e["_id"].as_str().unwrap();
    let (s, v) = app.alice(
        Put,
        &format!("/webhook-endpoints/{id}"),
        Some(json!({"url": "http://169.254.169.254/"})),
    );
    assert_eq!((s, &v["errors"][0]["field"]), (400, &json!("url")), "{v}");
}

#[test]
fn a_change_is_delivered_signed_and_succeeds_on_2xx() {
    let mut app = TestApp::new();
    let e = app.endpoint(KEY_A, "http://127.0.0.1:9/h", json!(["account.created"]));
    let endpoint = e["_id"].as_str().unwrap().to_string();
    let account = app.account_as(KEY_A);
    let due = app.take();
    assert_eq!(due.len(), 1);
    let d = &due[0];
    assert_eq!(d.client, "alice");
    let body: Value = serde_json::from_slice(&d.body).unwrap();
    assert_eq!(body["type"], "account.created");
    assert_eq!(body["data"]["object"]["_id"], account.as_str());
    // The body is the event exactly as GET /events/{id} returns it.
    let event_id = body["_id"].as_str().unwrap();
    let (_, event) = app.alice(Get, &format!("/events/{event_id}"), None);
    assert_eq!(event["data"], body);
    assert_eq!(header(d, "webhook-id"), event_id);
    assert_eq!(
        header(d, "webhook-timestamp"),
        app.env.now().seconds().to_string()
    );
    assert_eq!(header(d, "webhook-signature").split(' ').count(), 1);
    assert!(header(d, "webhook-signature").starts_with("v1,"));
    // Leased: not taken again while its attempt runs.
    assert!(app.take().is_empty());
    app.answer(&due, Some(204));
    let list = app.deliveries(&endpoint, "");
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["status"], "succeeded");
    assert_eq!(list[0]["eventId"], event_id);
    assert_eq!(list[0]["attempts"][0]["status"], 204);
    assert_eq!(list[0]["nextAttemptAt"], Value::Null);
    // Past the lease nothing comes back: it is done.
    app.env.advance_millis(60_000);
    assert!(app.take().is_empty());
}

/// A lease that runs out (its instance died, or its attempt outlasted it) is taken again from the
/// entry the lease moved; that attempt's failure then waits the schedule like any other.
#[test]
fn a_failure_after_a_lease_ran_out_waits_the_schedule() {
    let mut app = TestApp::new();
    app.endpoint(KEY_A, "http://127.0.0.1:9/h", json!(["*"]));
    app.account_as(KEY_A);
    assert_eq!(app.take().len(), 1, "leased, never answered");
    app.env
        .advance_millis(crate::domain::webhooks::deliveries::LEASE_SECS * 1000);
    let due = app.take();
    assert_eq!(due.len(), 1, "taken again once its lease ran out");
    app.answer(&due, Some(500));
    assert!(
        app.take().is_empty(),
        "sent again at once after its failure"
    );
    app.env.advance_millis(4_999);
    assert!(
        app.take().is_empty(),
        "sent before the schedule's first wait"
    );
    app.env.advance_millis(1);
    let due = app.take();
    assert_eq!(due.len(), 1);
    app.answer(&due, Some(200));
    app.env.advance_millis(100_000_000);
    assert!(app.take().is_empty(), "an entry left behind");
}

#[test]
fn failures_follow_the_schedule_then_fail() {
    let mut app = TestApp::new();
    let e = app.endpoint(KEY_A, "http://127.0.0.1:9/h", json!(["*"]));
    let endpoint = e["_id"].as_str().unwrap().to_string();
    app.account_as(KEY_A);
    let schedule = crate::domain::webhooks::deliveries::default_schedule();
    for (i, wait) in schedule.iter().enumerate() {
        let due = app.take();
        assert_eq!(due.len(), 1, "attempt {i}");
        app.answer(&due, if i % 2 == 0 { Some(500) } else { None });
        let d = &app.deliveries(&endpoint, "")[0];
        assert_eq!(d["status"], "pending");
        let next = Timestamp::parse_rfc3339(d["nextAttemptAt"].as_str().unwrap()).unwrap();
        let wait = i64::try_from(wait.as_millis()).unwrap();
        assert_eq!(next.millis(), app.env.now().millis() + wait);
        // Not due a moment early.
        app.env.advance_millis(wait - 1);
        assert!(app.take().is_empty(), "attempt {i} came early");
        app.env.advance_millis(1);
    }
    let due = app.take();
    app.answer(&due, Some(503));
    let d = &app.deliveries(&endpoint, "?status=failed")[0];
    assert_eq!(d["attempts"].as_array().unwrap().len(), schedule.len() + 1);
    assert_eq!(d["nextAttemptAt"], Value::Null);
    app.env.advance_millis(100_000_000);
    assert!(app.take().is_empty());
    // Retry sends it again now, and the schedule starts over.
    let id = d["_id"].as_str().unwrap();
    let (s, v) = app.alice(Post, &format!("/webhook-deliveries/{id}/retry"), None);
    assert_eq!((s, &v["data"]["status"]), (200, &json!("pending")), "{v}");
    let due = app.take();
    assert_eq!(due.len(), 1);
    app.answer(&due, Some(200));
    assert_eq!(app.deliveries(&endpoint, "")[0]["status"], "succeeded");
    let (s, _) = app.json_as(
        KEY_B,
        Post,
        &format!("/webhook-deliveries/{id}/retry"),
        None,
    );
    assert_eq!(s, 404);
}

#[test]
fn only_matching_enabled_endpoints_of_the_client_get_deliveries() {
    let mut app = TestApp::new();
    let cards_only = app.endpoint(KEY_A, "http://127.0.0.1:9/a", json!(["card.created"]));
    let all = app.endpoint(KEY_A, "http://127.0.0.1:9/b", json!(["*"]));
    let off = app.endpoint(KEY_A, "http://127.0.0.1:9/c", json!(["*"]));
    let off_id = off["_id"].as_str().unwrap();
    let (s, _) = app.alice(
        Put,
        &format!("/webhook-endpoints/{off_id}"),
        Some(json!({"status": "disabled"})),
    );
    assert_eq!(s, 200);
    app.endpoint(KEY_B, "http://127.0.0.1:9/bob", json!(["*"]));
    app.account_as(KEY_A);
    let due = app.take();
    assert_eq!(due.len(), 1);
    assert_eq!(due[0].client, "alice");
    assert!(
        app.deliveries(cards_only["_id"].as_str().unwrap(), "")
            .is_empty()
    );
    assert_eq!(app.deliveries(all["_id"].as_str().unwrap(), "").len(), 1);
    assert!(app.deliveries(off_id, "").is_empty());
    // A refused request appends no event, so queues nothing.
    let (s, _) = app.alice(Post, "/accounts", Some(json!({"name": ""})));
    assert_eq!(s, 400);
    app.answer(&due, Some(200));
    assert!(app.take().is_empty());
}

#[test]
fn deleting_an_endpoint_drops_its_pending_deliveries() {
    let mut app = TestApp::new();
    let e = app.endpoint(KEY_A, "http://127.0.0.1:9/h", json!(["*"]));
    let id = e["_id"].as_str().unwrap().to_string();
    for _ in 0..3 {
        app.account_as(KEY_A);
    }
    let (s, _) = app.alice(Delete, &format!("/webhook-endpoints/{id}"), None);
    assert_eq!(s, 200);
    // Nothing of them is left: no record, index entry, count, queue or pending entry.
    let left: Vec<_> = everything(&mut app)
        .into_iter()
        .filter(|(k, _)| {
            k.starts_with(b"wq\0")
                || k.starts_with(b"wp\0")
                || k.windows(11).any(|w| w == b"\0whdelivery")
        })
        .collect();
    assert!(left.is_empty(), "{left:?}");
    assert!(app.take().is_empty());
    assert_eq!(
        app.alice(Get, &format!("/webhook-endpoints/{id}"), None).0,
        404
    );
    assert_eq!(
        app.alice(Get, &format!("/webhook-endpoints/{id}/deliveries"), None)
            .0,
        404
    );
}

#[test]
fn replay_queues_the_window_the_endpoint_takes() {
    let mut app = TestApp::new();
    let from = app.env.now();
    app.account_as(KEY_A);
    app.account_as(KEY_A);
    app.account_as(KEY_B);
    // Created after the events: replay is how it gets them.
    let e = app.endpoint(KEY_A, "http://127.0.0.1:9/h", json!(["account.created"]));
    let id = e["_id"].as_str().unwrap();
    assert!(app.take().is_empty());
    app.env.advance_millis(1000);
    let (s, v) = app.alice(
        Post,
        &format!("/webhook-endpoints/{id}/replay"),
        Some(json!({"from": from.to_rfc3339()})),
    );
    assert_eq!((s, &v["data"]["queued"]), (200, &json!(2)), "{v}");
    assert_eq!(app.take().len(), 2);
    let (s, v) = app.alice(
        Post,
        &format!("/webhook-endpoints/{id}/replay"),
        Some(json!({"from": app.env.now().plus_seconds(10).to_rfc3339()})),
    );
    assert_eq!(s, 400, "{v}");
}

#[test]
fn a_rotated_secret_signs_beside_the_new_one_for_a_day() {
    let mut app = TestApp::new();
    let e = app.endpoint(KEY_A, "http://127.0.0.1:9/h", json!(["*"]));
    let id = e["_id"].as_str().unwrap();
    let (s, v) = app.alice(
        Post,
        &format!("/webhook-endpoints/{id}/rotate-secret"),
        None,
    );
    assert_eq!(s, 200, "{v}");
    let new = v["data"]["secret"].as_str().unwrap();
    assert!(new.starts_with("whsec_") && new != e["secret"].as_str().unwrap());
    app.account_as(KEY_A);
    let due = app.take();
    assert_eq!(header(&due[0], "webhook-signature").split(' ').count(), 2);
    app.answer(&due, Some(200));
    let (s, _) = app.alice(
        Post,
        "/test-clock/advance",
        Some(json!({"seconds": 24 * 3600})),
    );
    assert_eq!(s, 200);
    app.account_as(KEY_A);
    let due = app.take();
    assert_eq!(header(&due[0], "webhook-signature").split(' ').count(), 1);
}

#[test]
fn deliveries_never_carry_card_secrets() {
    let mut app = TestApp::new();
    let e = app.endpoint(KEY_A, "http://127.0.0.1:9/h", json!(["*"]));
    let secret = e["secret"].as_str().unwrap().to_string();
    let account = app.account_as(KEY_A);
    let holder = {
        let body = json!({"name": "Ada Lovelace", "person": {"firstName": "Ada", "lastName": "Lovelace",
            "email": "ada@example.com", "phoneNumber": "+2348012345678"}});
        let (s, v) = app.alice(Post, "/card-holders", Some(body));
        assert_eq!(s, 201, "{v}");
        v["data"]["_id"].as_str().unwrap().to_string()
    };
    let (s, card) = app.alice(
        Post,
        "/cards",
        Some(
            json!({"debitAccountId": account, "cardHolderId": holder, "type": "virtual",
            "brand": "Visa", "status": "active", "currency": "USD", "amount": 1}),
        ),
    );
    assert_eq!(s, 201, "{card}");
    let card_id = card["data"]["_id"].as_str().unwrap();
    let (_, token) = app.alice(Post, &format!("/cards/{card_id}/token"), None);
    let token = token["data"]["token"].as_str().unwrap().to_string();
    let (_, revealed) = app.alice(Get, &format!("/cards/{card_id}/reveal?token={token}"), None);
    let pan = revealed["pan"].as_str().unwrap().to_string();
    let cvv = revealed["cvv"].as_str().unwrap().to_string();
    let due = app.take();
    assert!(due.len() >= 3);
    for d in &due {
        let text = String::from_utf8(d.body.clone()).unwrap();
        for secret in [&pan, &cvv, &token, &secret] {
            assert!(!text.contains(secret.as_str()), "{text}");
        }
    }
}

#[test]
fn retry_times_follow_the_test_clock() {
    let mut app = TestApp::new();
    let e = app.endpoint(KEY_A, "http://127.0.0.1:9/h", json!(["*"]));
    let endpoint = e["_id"].as_str().unwrap().to_string();
    app.account_as(KEY_A);
    let due = app.take();
    app.answer(&due, Some(500));
    let due = {
        app.env.advance_millis(5_000);
        app.take()
    };
    app.answer(&due, Some(500));
    // The next wait is 5 minutes of the client's clock: advancing it makes the retry due now.
    let next = app.deliveries(&endpoint, "")[0]["nextAttemptAt"].clone();
    assert!(app.take().is_empty());
    let (s, _) = app.alice(Post, "/test-clock/advance", Some(json!({"seconds": 300})));
    assert_eq!(s, 200);
    assert_eq!(app.deliveries(&endpoint, "")[0]["nextAttemptAt"], next);
    let due = app.take();
    assert_eq!(due.len(), 1);
    // The next wait is 30 minutes: another client's advance moves nothing of Alice's.
    app.answer(&due, Some(500));
    let (s, _) = app.json_as(
        KEY_B,
        Post,
        "/test-clock/advance",
        Some(json!({"seconds": 86400})),
    );
    assert_eq!(s, 200);
    assert!(app.take().is_empty());
    let (s, _) = app.alice(Post, "/test-clock/advance", Some(json!({"seconds": 1800})));
    assert_eq!(s, 200);
    assert_eq!(app.take().len(), 1);
}

/// The clock advanced while an attempt was out: its failure, recorded after the advance, does not
/// push the retry an advance later (the attempt was made at the earlier time).
#[test]
fn an_advance_while_an_attempt_is_out_is_kept_by_its_failure() {
    let mut app = TestApp::new();
    let e = app.endpoint(KEY_A, "http://127.0.0.1:9/h", json!(["*"]));
    let endpoint = e["_id"].as_str().unwrap().to_string();
    app.account_as(KEY_A);
    let due = app.take();
    assert_eq!(due.len(), 1);
    let (s, _) = app.alice(Post, "/test-clock/advance", Some(json!({"seconds": 3600})));
    assert_eq!(s, 200);
    app.answer(&due, Some(500));
    let d = &app.deliveries(&endpoint, "")[0];
    assert_eq!(d["status"], "pending", "{d}");
    assert_eq!(app.take().len(), 1, "due at once: {d}");
}

/// The same with the lease in memory (a plan, as the native host on redb sends): a first attempt
/// out during an advance has no pending entry to move, and its failure counts the advance in.
#[test]
fn an_advance_while_a_planned_first_attempt_is_out_is_kept_by_its_failure() {
    let mut app = TestApp::new();
    let e = app.endpoint(KEY_A, "http://127.0.0.1:9/h", json!(["*"]));
    let endpoint = e["_id"].as_str().unwrap().to_string();
    app.account_as(KEY_A);
    let planned = app.plan(100, &[]);
    assert_eq!(planned.due.len(), 1);
    let (s, _) = app.alice(Post, "/test-clock/advance", Some(json!({"seconds": 3600})));
    assert_eq!(s, 200);
    app.answer(&planned.due, Some(500));
    let d = &app.deliveries(&endpoint, "")[0];
    assert_eq!(d["status"], "pending", "{d}");
    assert_eq!(app.plan(100, &[]).due.len(), 1, "due at once: {d}");
    // Without the advance, the failure waits the schedule's first 5 s.
    let planned = app.plan(100, &[]);
    app.answer(&planned.due, Some(500));
    assert!(app.plan(100, &[]).due.is_empty());
}

#[test]
fn a_take_from_the_floor_finds_what_is_new_and_a_full_look_finds_what_an_advance_moved_below() {
    let mut app = TestApp::new();
    app.endpoint(KEY_A, "http://127.0.0.1:9/h", json!(["account.created"]));
    for _ in 0..3 {
        app.account_as(KEY_A);
    }
    let now = app.env.now().millis();
    // A take of fewer than are due reads up to the last it took; the next one starts there.
    let first = app
        .service
        .take_due_deliveries_from(&mut app.store, &app.env, 0, 2)
        .unwrap();
    assert_eq!(first.due.len(), 2);
    assert_eq!(first.floor, now);
    let rest = app
        .service
        .take_due_deliveries_from(&mut app.store, &app.env, first.floor, 2)
        .unwrap();
    assert_eq!(rest.due.len(), 1);
    assert_eq!(rest.floor, now, "the due part was read to its end: now");
    app.answer(&first.due, Some(500));
    app.answer(&rest.due, Some(204));
    // New deliveries are queued at the writer's now, never before a floor taken earlier.
    app.env.advance_millis(1_000);
    let floor = app.env.now().millis();
    app.account_as(KEY_A);
    let from = crate::service::Service::next_delivery_due_from(&mut app.store, floor).unwrap();
    assert_eq!(from, Some(floor));
    let taken = app
        .service
        .take_due_deliveries_from(&mut app.store, &app.env, floor, 100)
        .unwrap();
    assert_eq!(taken.due.len(), 1);
    app.answer(&taken.due, Some(204));
    // The two failed ones wait 5 s; a test clock advance makes them due before the floor: only a
    // look from the start of the queue finds them.
    let (s, _) = app.alice(Post, "/test-clock/advance", Some(json!({"seconds": 60})));
    assert_eq!(s, 200);
    let later = app.env.now().millis();
    let from_floor = app
        .service
        .take_due_deliveries_from(&mut app.store, &app.env, later, 100)
        .unwrap();
    assert!(from_floor.due.is_empty());
    let due = crate::service::Service::next_delivery_due(&mut app.store).unwrap();
    assert!(due.is_some_and(|d| d < later), "{due:?}");
    assert_eq!(app.take().len(), 2);
}

/// The delivery queue's entries (`wq/...`), all clients.
fn queued(app: &mut TestApp) -> usize {
    crate::storage::scan_prefix(&mut app.store, b"wq\0")
        .unwrap()
        .len()
}

/// A take moves only the delivery's queue entry, 30 s ahead (its lease): an attempt that never
/// reports (its host crashed) comes due again when the lease ends, and each outcome drops its own
/// lease's entry, so nothing stays queued once the delivery is done.
#[test]
fn an_unreported_attempt_comes_due_when_its_lease_ends_and_outcomes_drop_their_leases() {
    let mut app = TestApp::new();
    let e = app.endpoint(KEY_A, "http://127.0.0.1:9/h", json!(["account.created"]));
    let endpoint = e["_id"].as_str().unwrap().to_string();
    app.account_as(KEY_A);
    let taken_at = app.env.now().millis();
    let first = app.take();
    assert_eq!(first.len(), 1);
    assert_eq!(first[0].lease.taken_ms, taken_at);
    assert_eq!(first[0].lease.until_ms, taken_at + 30_000);
    assert_eq!(queued(&mut app), 1, "the entry moved, not copied");
    app.env.advance_millis(29_999);
    assert!(app.take().is_empty(), "leased");
    app.env.advance_millis(1);
    let second = app.take();
    assert_eq!(second.len(), 1, "the lease ended: due again");
    assert_eq!(second[0].delivery_id, first[0].delivery_id);
    assert_eq!(queued(&mut app), 1);
    // The first attempt reports after all (a failure), then the second one succeeds.
    app.answer(&first, Some(500));
    assert_eq!(
        queued(&mut app),
        2,
        "the retry of the failure, and the second lease"
    );
    app.answer(&second, Some(204));
    let d = &app.deliveries(&endpoint, "")[0];
    assert_eq!(d["status"], "succeeded");
    assert_eq!(d["attempts"].as_array().unwrap().len(), 2);
    assert_eq!(queued(&mut app), 0);
    app.env.advance_millis(3_600_000);
    assert!(app.take().is_empty());
}

/// An outcome of a delivery deleted while its attempt ran (its endpoint deleted) leaves no queue
/// entry behind; one take sends a delivery once even when it is queued twice (a retry while it
/// was leased).
#[test]
fn outcomes_of_deleted_deliveries_leave_nothing_queued_and_a_take_sends_each_once() {
    let mut app = TestApp::new();
    let e = app.endpoint(KEY_A, "http://127.0.0.1:9/h", json!(["account.created"]));
    let endpoint = e["_id"].as_str().unwrap().to_string();
    app.account_as(KEY_A);
    let due = app.take();
    assert_eq!(due.len(), 1);
    let (s, _) = app.alice(Delete, &format!("/webhook-endpoints/{endpoint}"), None);
    assert_eq!(s, 200);
    app.answer(&due, Some(204));
    assert_eq!(queued(&mut app), 0);

    let e = app.endpoint(KEY_A, "http://127.0.0.1:9/h", json!(["account.created"]));
    let endpoint = e["_id"].as_str().unwrap().to_string();
    app.account_as(KEY_A);
    let leased = app.take();
    let id = leased[0].delivery_id.clone();
    let (s, _) = app.alice(Post, &format!("/webhook-deliveries/{id}/retry"), None);
    assert_eq!(s, 200);
    // Queued now by the retry, and at the lease's end: both due past the lease, one attempt.
    app.env.advance_millis(30_000);
    let again = app.take();
    assert_eq!(again.len(), 1, "{again:?}");
    app.answer(&leased, Some(500));
    app.answer(&again, Some(204));
    assert_eq!(app.deliveries(&endpoint, "")[0]["status"], "succeeded");
    assert_eq!(queued(&mut app), 0);
}

impl TestApp {
    /// A plan of the host that keeps its leases in memory, skipping the deliveries in `held`.
    fn plan(&mut self, limit: usize, held: &[&crate::service::Due]) -> crate::service::Planned {
        let skip = |client: &str, id: &str| {
            held.iter()
                .any(|d| d.client == client && d.delivery_id == id)
        };
        self.service
            .plan_due_deliveries(&mut self.store, &self.env, 0, limit, &skip)
            .unwrap()
    }
}

/// Everything stored, to show a plan writes nothing.
fn everything(app: &mut TestApp) -> Vec<crate::storage::KvPair> {
    crate::storage::scan_prefix(&mut app.store, b"").unwrap()
}

/// A plan (in-memory leases: one process serves the store) reads and signs without writing; it
/// passes over what the host holds; each outcome drops the entry its plan read, so a delivery done
/// leaves nothing queued, and a retry while it was in flight is not lost.
#[test]
fn a_plan_writes_nothing_skips_what_is_held_and_outcomes_drop_the_entries_it_read() {
    let mut app = TestApp::new();
    let e = app.endpoint(KEY_A, "http://127.0.0.1:9/h", json!(["account.created"]));
    let endpoint = e["_id"].as_str().unwrap().to_string();
    for _ in 0..3 {
        app.account_as(KEY_A);
    }
    let now = app.env.now().millis();
    let before = everything(&mut app);
    let first = app.plan(2, &[]);
    assert_eq!(first.due.len(), 2);
    assert_eq!(first.floor, now);
    assert!(first.unsendable.is_empty() && first.stale.is_empty());
    assert_eq!(first.due[0].lease.taken_ms, first.due[0].lease.until_ms);
    assert_eq!(everything(&mut app), before, "a plan writes nothing");
    assert!(
        header(&first.due[0], "webhook-signature").starts_with("v1,"),
        "signed"
    );
    let held: Vec<&crate::service::Due> = first.due.iter().collect();
    let rest = app.plan(100, &held);
    assert_eq!(rest.due.len(), 1, "the two held are passed over");
    assert_ne!(rest.due[0].delivery_id, first.due[0].delivery_id);
    assert_ne!(rest.due[0].delivery_id, first.due[1].delivery_id);
    // A retry while the first is in flight moves its entry; the outcome keeps the new one.
    let id = first.due[0].delivery_id.clone();
    let (s, _) = app.alice(Post, &format!("/webhook-deliveries/{id}/retry"), None);
    assert_eq!(s, 200);
    app.answer(&first.due, Some(500));
    app.answer(&rest.due, Some(204));
    assert_eq!(queued(&mut app), 2, "the two failures' retries");
    app.env.advance_millis(5_000);
    let retries = app.plan(100, &[]);
    assert_eq!(retries.due.len(), 2, "{retries:?}");
    app.answer(&retries.due, Some(204));
    assert_eq!(queued(&mut app), 0);
    let all = app.deliveries(&endpoint, "");
    assert!(all.iter().all(|d| d["status"] == "succeeded"), "{all:?}");
    // An entry of a delivery no longer pending is stale: dropped, never sent.
    assert!(app.plan(100, &[]).due.is_empty());
}

/// A plan gives back what cannot be sent as failed attempts to record, and entries of deliveries
/// gone as stale ones to drop.
#[test]
fn a_plan_returns_unsendable_deliveries_as_outcomes_and_stale_entries_to_drop() {
    let mut app = TestApp::new();
    let e = app.endpoint(KEY_A, "http://127.0.0.1:9/h", json!(["account.created"]));
    let endpoint = e["_id"].as_str().unwrap().to_string();
    app.account_as(KEY_A);
    let (s, _) = app.alice(
        Put,
        &format!("/webhook-endpoints/{endpoint}"),
        Some(json!({"status": "disabled"})),
    );
    assert_eq!(s, 200);
    let planned = app.plan(100, &[]);
    assert!(planned.due.is_empty());
    assert_eq!(planned.unsendable.len(), 1);
    app.service
        .record_attempts(&mut app.store, &app.env, &planned.unsendable)
        .unwrap();
    let d = &app.deliveries(&endpoint, "")[0];
    assert_eq!(d["attempts"][0]["error"], "the endpoint is disabled");
    assert_eq!(queued(&mut app), 1, "its retry");
    // A stray entry of a delivery that is gone: stale, and dropped only while it still is.
    let stray = crate::storage::keys::delivery_due(1, "nobody", "0123456789abcdef01234567");
    crate::storage::Tx::put(&mut app.store, &stray, &[]).unwrap();
    let planned = app.plan(100, &[]);
    assert_eq!(planned.stale, vec![stray]);
    crate::service::Service::drop_stale_deliveries(&mut app.store, &planned.stale).unwrap();
    assert_eq!(queued(&mut app), 1);
}

/// Turns a store this release wrote into what format 6 wrote for its webhook deliveries: every
/// delivery also in the index of all deliveries and by `status`, with their counts (16 shards by
/// the id's last hex digit), and no pending entries (`wp`). How many keys it changed.
fn make_format_6(store: &mut crate::storage::MemStore) -> usize {
    use crate::domain::webhooks::deliveries::Delivery;
    use crate::storage::keys::{self, Kind};
    use crate::storage::{Tx, codec};
    let mut changed = 0;
    for (k, _) in crate::storage::scan_prefix(store, b"wp\0").unwrap() {
        store.delete(&k).unwrap();
        changed += 1;
    }
    let kind = Kind::WebhookDelivery;
    let all: Vec<Delivery> = codec::scan(store, &keys::records("alice", kind)).unwrap();
    let mut counts = std::collections::BTreeMap::<Vec<u8>, u64>::new();
    for d in &all {
        let shard = d.id.chars().last().unwrap().to_digit(16).unwrap() as u8;
        for (field, value) in [(keys::ALL, ""), ("status", d.status.as_str())] {
            let entry =
                keys::index_entry("alice", kind, field, value, d.created_at.millis(), &d.id);
            store.put(&entry, &[]).unwrap();
            *counts
                .entry(keys::tally("alice", kind, field, value, shard))
                .or_default() += 1;
            changed += 1;
        }
    }
    for (k, n) in counts {
        store.put(&k, &n.to_be_bytes()).unwrap();
    }
    store
        .put(&keys::format_version(), &6u32.to_be_bytes())
        .unwrap();
    changed
}

/// Turns a store this release wrote into what format 9 wrote: a `wp` entry for every pending
/// delivery, not only those waiting for a retry. How many entries it added.
fn make_format_9(store: &mut crate::storage::MemStore) -> usize {
    use crate::domain::webhooks::deliveries::{Delivery, DeliveryStatus};
    use crate::storage::keys::{self, Kind};
    use crate::storage::{Tx, codec};
    let all: Vec<Delivery> =
        codec::scan(store, &keys::records("alice", Kind::WebhookDelivery)).unwrap();
    let mut added = 0;
    for d in all {
        let key = keys::delivery_pending("alice", &d.id);
        if d.status == DeliveryStatus::Pending && store.get(&key).unwrap().is_none() {
            store.put(&key, &[]).unwrap();
            added += 1;
        }
    }
    store
        .put(&keys::format_version(), &9u32.to_be_bytes())
        .unwrap();
    added
}

/// A format-6 (or -9) store's deliveries (pending, retrying, succeeded, failed) upgrade to exactly
/// what this release writes, and a test clock advance then moves the retry waiting as before.
#[test]
fn a_format_6_store_keeps_its_deliveries_in_this_releases_keys() {
    let mut app = TestApp::new();
    let config = crate::Config {
        webhook_retry_schedule: vec![std::time::Duration::from_secs(60)],
        ..app.service.config().clone()
    };
    app.service = crate::Service::new(config, &app.env);
    let e = app.endpoint(KEY_A, "http://127.0.0.1:9/h", json!(["account.created"]));
    let endpoint = e["_id"].as_str().unwrap().to_string();
    for _ in 0..5 {
        app.account_as(KEY_A);
    }
    let due = app.take();
    assert_eq!(due.len(), 5);
    app.answer(&due[..1], Some(200));
    app.answer(&due[1..3], Some(500));
    app.env.advance_millis(60_000);
    let again = app.take();
    assert_eq!(
        again.len(),
        2 + 2,
        "the two failed, and the two whose lease ended"
    );
    let failed: Vec<_> = again
        .iter()
        .filter(|d| due[1..3].iter().any(|f| f.delivery_id == d.delivery_id))
        .cloned()
        .collect();
    app.answer(&failed[..1], Some(500));
    let states: Vec<Value> = app
        .deliveries(&endpoint, "")
        .iter()
        .map(|d| d["status"].clone())
        .collect();
    assert!(states.contains(&json!("succeeded")) && states.contains(&json!("failed")));
    let pending = states.iter().filter(|s| **s == "pending").count();
    assert_eq!(pending, 3, "{states:?}");

    crate::storage::format::stamp(&mut app.store).unwrap();
    let current = everything(&mut app);
    assert!(make_format_6(&mut app.store) > 5);
    assert_ne!(everything(&mut app), current);
    crate::Service::open_store(&mut app.store).unwrap();
    assert_eq!(everything(&mut app), current);
    // Format 9's shape (a `wp` entry for every pending delivery) too.
    assert_eq!(make_format_9(&mut app.store), 2);
    crate::Service::open_store(&mut app.store).unwrap();
    assert_eq!(everything(&mut app), current);

    // Once their leases end (host clock) the three pending are due again; answered, none waits.
    app.env
        .advance_millis(crate::domain::webhooks::deliveries::LEASE_SECS * 1000);
    let due = app.take();
    assert_eq!(due.len(), 3);
    app.answer(&due, Some(204));
    assert!(app.take().is_empty());
    let pending = crate::storage::scan_prefix(&mut app.store, b"wp\0").unwrap();
    assert!(pending.is_empty(), "{pending:?}");
    let (_, list) = app.alice(
        Get,
        &format!("/webhook-endpoints/{endpoint}/deliveries?limit=2"),
        None,
    );
    assert_eq!(list["meta"]["total"], 5, "{list}");
}

/// What a random run of the outbox's operations may do to a client's deliveries.
#[derive(Debug, Clone)]
enum Op {
    /// A change that queues a delivery.
    Queue,
    /// Take (leases in the store) what is due and answer it: 2xx when the bit is set; an unset
    /// `answered` leaves the attempts out.
    Take { ok: u8, answered: bool },
    /// Plan (leases in memory) what is due and answer it.
    Plan { ok: u8 },
    /// `POST /webhook-deliveries/{id}/retry` of the n-th delivery listed.
    Retry(usize),
    /// `POST /test-clock/advance`.
    Advance(i64),
    /// The host's clock moves on (ms).
    Pass(i64),
}

fn op() -> impl proptest::strategy::Strategy<Value = Op> {
    use proptest::prelude::*;
    prop_oneof![
        3 => Just(Op::Queue),
        2 => (any::<u8>(), any::<bool>()).prop_map(|(ok, answered)| Op::Take { ok, answered }),
        2 => any::<u8>().prop_map(|ok| Op::Plan { ok }),
        1 => (0usize..8).prop_map(Op::Retry),
        1 => (1i64..400).prop_map(Op::Advance),
        1 => (1i64..40_000).prop_map(Op::Pass),
    ]
}

impl TestApp {
    /// Answers `due` with 2xx where `ok`'s bit (by position) is set, else 500.
    fn answer_by_bits(&mut self, due: &[crate::service::Due], ok: u8) {
        self.answer_each(due, |i| {
            Some(if ok >> (i % 8) & 1 == 1 { 204 } else { 500 })
        });
    }

    /// The `wp` entries and the deliveries waiting for a retry (pending after a failed attempt).
    fn retry_entries(&mut self) -> (Vec<String>, Vec<String>) {
        use crate::domain::webhooks::deliveries::{Delivery, DeliveryStatus};
        use crate::storage::keys::{self, Kind};
        let prefix = keys::deliveries_pending("alice");
        let entries = crate::storage::scan_prefix(&mut self.store, &prefix)
            .unwrap()
            .into_iter()
            .map(|(k, _)| String::from_utf8(k[prefix.len()..].to_vec()).unwrap())
            .collect();
        let all: Vec<Delivery> = crate::storage::codec::scan(
            &mut self.store,
            &keys::records("alice", Kind::WebhookDelivery),
        )
        .unwrap();
        let retrying = all
            .into_iter()
            .filter(|d| d.status == DeliveryStatus::Pending && d.failures > 0)
            .map(|d| d.id)
            .collect();
        (entries, retrying)
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// Whatever the order of changes, takes, plans, outcomes, retries and clock moves, a delivery
    /// has its `wp` entry exactly while it waits for a retry after a failed attempt (what a test
    /// clock advance must move; the others are due or out), and a long enough wait of both clocks
    /// then sends every pending delivery.
    #[test]
    fn a_delivery_has_its_pending_entry_exactly_while_a_retry_waits(
        ops in proptest::collection::vec(op(), 1..40)
    ) {
        let mut app = TestApp::new();
        let config = crate::Config {
            webhook_retry_schedule: vec![
                std::time::Duration::from_secs(5),
                std::time::Duration::from_secs(300),
                std::time::Duration::from_secs(3600),
            ],
            ..app.service.config().clone()
        };
        app.service = crate::Service::new(config, &app.env);
        let e = app.endpoint(KEY_A, "http://127.0.0.1:9/h", json!(["account.created"]));
        let endpoint = e["_id"].as_str().unwrap().to_string();
        for op in ops {
            match op {
                Op::Queue => {
                    app.account_as(KEY_A);
                }
                Op::Take { ok, answered } => {
                    let due = app.take();
                    if answered {
                        app.answer_by_bits(&due, ok);
                    }
                }
                Op::Plan { ok } => {
                    let planned = app.plan(100, &[]);
                    app.answer_by_bits(&planned.due, ok);
                }
                Op::Retry(n) => {
                    let list = app.deliveries(&endpoint, "?limit=8");
                    if let Some(id) = list.get(n).and_then(|d| d["_id"].as_str()) {
                        let (s, v) = app.alice(Post, &format!("/webhook-deliveries/{id}/retry"), None);
                        proptest::prop_assert_eq!(s, 200, "{}", v);
                    }
                }
                Op::Advance(seconds) => {
                    let (s, v) = app.alice(Post, "/test-clock/advance", Some(json!({"seconds": seconds})));
                    proptest::prop_assert_eq!(s, 200, "{}", v);
                }
                Op::Pass(ms) => app.env.advance_millis(ms),
            }
            let (mut entries, mut retrying) = app.retry_entries();
            entries.sort();
            retrying.sort();
            proptest::prop_assert_eq!(entries, retrying);
        }
        // Leases end and retries come due: everything pending goes out, each once per take.
        for _ in 0..4 {
            app.env.advance_millis(4 * 3600 * 1000);
            let due = app.take();
            app.answer_by_bits(&due, u8::MAX);
        }
        let pending = app.deliveries(&endpoint, "?status=pending&limit=100");
        proptest::prop_assert!(pending.is_empty(), "{:?}", pending);
        let (entries, _) = app.retry_entries();
        proptest::prop_assert!(entries.is_empty(), "{:?}", entries);
    }
}
