//! Operating the service: request ids on every host, JSON logs that never hold a secret, and the
//! Prometheus scrape (native host). The shared client (`client.rs`) also checks `Request-Id` on every
//! response of every test.

use std::collections::{BTreeMap, HashSet};
use std::thread;

use acceptance::fixtures::{create_account, id};
use acceptance::host::{HostKind, Instance, Stop, free_addr, on_postgres};
use acceptance::*;
use serde_json::{Value, json};

fn request_id(resp: &Resp) -> String {
    resp.header("request-id")
        .expect("every response has a Request-Id")
        .to_string()
}

#[test]
fn request_ids_are_unique_across_10000_requests() {
    let threads = 8;
    let each = 10_000 / threads;
    let ids: Vec<String> = thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(move || {
                    (0..each)
                        .map(|_| request_id(raw("GET", "/health", &[], None).expect(200)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("worker"))
            .collect()
    });
    assert_eq!(ids.len(), 10_000);
    let unique: HashSet<&String> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "request ids repeat");
    assert!(ids.iter().all(|i| i.starts_with("req_") && i.len() == 28));
}

#[test]
fn a_safe_incoming_request_id_is_kept_and_an_unsafe_one_replaced() {
    let r = raw("GET", "/health", &[("x-request-id", "trace-42.a_B")], None);
    assert_eq!(request_id(&r), "trace-42.a_B");
    for unsafe_id in ["has space", "semi;colon", &"a".repeat(65)] {
        let r = raw("GET", "/health", &[("x-request-id", unsafe_id)], None);
        let id = request_id(&r);
        assert_ne!(id, unsafe_id);
        assert!(id.starts_with("req_"), "{id}");
    }
    // An error body names the same id as its header.
    let t = tenant();
    let r = t.send(
        "GET",
        "/cards/0123456789abcdef01234567",
        &[("x-request-id", "support-ticket-7")],
        None,
    );
    r.expect_error(404, "not_found");
    assert_eq!(r.body["requestId"], "support-ticket-7");
    assert_eq!(request_id(&r), "support-ticket-7");
    // Also before authentication and for unknown routes.
    let r = raw("GET", "/cards", &[], None);
    r.expect_error(401, "unauthorized");
    assert_eq!(r.body["requestId"].as_str(), Some(request_id(&r).as_str()));
    raw("GET", "/no-such-route", &[], None).expect_error(404, "not_found");
}

/// The README's flow: account, holder, card, fund, authorization, token, reveal. Returns the
/// secrets it saw (the PAN, the CVV, the reveal token) and the ids of what it created.
fn readme_flow(t: &Tenant) -> (Vec<String>, Vec<String>) {
    let account = id(&create_account(
        t,
        json!({"balance": 1000, "currency": "USD"}),
    ));
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
                "brand": "Visa", "status": "active", "amount": 50}),
        )
        .data(201));
    t.post(
        &format!("/cards/{card}/fund"),
        &json!({"debitAccountId": account, "amount": 10}),
    )
    .expect(200);
    let auth = id(t
        .post(
            &format!("/cards/{card}/authorizations"),
            &json!({"amount": 12.5, "channel": "pos",
                "merchant": {"name": "Corner Shop", "category": "grocery_stores", "mcc": "5411",
                             "city": "Lagos", "country": "ng"}}),
        )
        .data(201));
    let token = t
        .send("POST", &format!("/cards/{card}/token"), &[], None)
        .data(201)["token"]
        .as_str()
        .expect("a token")
        .to_string();
    let revealed = t.get(&format!("/cards/{card}/reveal?token={}", encode(&token)));
    revealed.expect(200);
    let pan = revealed.body["pan"].as_str().expect("a PAN").to_string();
    let cvv = revealed.body["cvv"].as_str().expect("a CVV").to_string();
    (vec![pan, cvv, token], vec![account, holder, card, auth])
}

#[test]
fn json_logs_are_one_object_per_line_and_hold_no_secret() {
    if HostKind::from_env() != HostKind::Native {
        return; // Spin keeps the component's stderr; its log format is Spin's.
    }
    let mut server = Instance::start_with_env(&[("CARDS_LOG_FORMAT", "json")]);
    let t = server.tenant(0);
    let (secrets, ids) = readme_flow(&t);
    // A request that fails, with a key in its Authorization header.
    let wrong_key = "sk_wrong_0123456789abcdef";
    let r = raw_to(server.base_url(), "GET", "/cards", wrong_key);
    assert_eq!(r.status, 401);
    // Lines are written by a log thread a moment after the answer; a graceful stop flushes them.
    assert_eq!(server.stop(Stop::Graceful), Some(0));
    let log = server.log();
    let mut requests = Vec::new();
    // The file also holds the process's stdout: the summary printed at shutdown.
    let summary = [
        "group commit summary:",
        "commit timings:",
        "log fsyncs:",
        "postgres conflicts:",
    ];
    for line in log
        .lines()
        .filter(|l| !l.trim().is_empty() && !summary.iter().any(|p| l.starts_with(p)))
    {
        let value: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("a log line that is not JSON ({e}): {line}"));
        if value["message"] == "request" {
            requests.push(value);
        }
    }
    // 7 writes and reads of the flow, the 401, and at least the start-up health checks.
    assert!(requests.len() >= 8, "{} request lines", requests.len());
    for r in &requests {
        for field in [
            "request_id",
            "method",
            "route",
            "status",
            "latency_ms",
            "client",
        ] {
            assert!(!r[field].is_null(), "{field} missing: {r}");
        }
        let route = r["route"].as_str().unwrap();
        assert!(
            !ids.iter().any(|i| route.contains(i.as_str())),
            "a raw path in the log: {r}"
        );
    }
    let routes: BTreeMap<&str, usize> = requests.iter().fold(BTreeMap::new(), |mut m, r| {
        *m.entry(r["route"].as_str().unwrap()).or_default() += 1;
        m
    });
    for route in [
        "/accounts",
        "/card-holders",
        "/cards",
        "/cards/{id}/fund",
        "/cards/{id}/authorizations",
        "/cards/{id}/token",
        "/cards/{id}/reveal",
    ] {
        assert!(routes.contains_key(route), "{route} not logged: {routes:?}");
    }
    let revealed = requests
        .iter()
        .find(|r| r["route"] == "/cards/{id}/reveal")
        .unwrap();
    assert_eq!(revealed["status"], 200);
    assert_eq!(revealed["client"].as_str(), Some(t.client.as_str()));
    assert!(revealed["request_id"].as_str().unwrap().starts_with("req_"));
    let refused = requests.iter().find(|r| r["status"] == 401).unwrap();
    assert_eq!(refused["route"], "/cards");
    // No API key, token, PAN or CVV anywhere in the log, whatever the line.
    let keys = [t.key.as_str(), wrong_key];
    for secret in secrets.iter().map(String::as_str).chain(keys) {
        // The CVV is 3 digits: too short to look for alone; look for it as a JSON value instead.
        let needle = if secret.len() <= 4 {
            format!("\"{secret}\"")
        } else {
            secret.to_string()
        };
        assert!(!log.contains(&needle), "a secret ({secret:.4}…) in the log");
    }
}

fn raw_to(base: &str, method: &str, path: &str, key: &str) -> Resp {
    let auth = format!("Bearer {key}");
    try_send_to(base, method, path, &[("authorization", &auth)], None)
        .expect("the request goes through")
}

/// Prometheus text: `name{labels} value` lines, comments skipped.
fn samples(text: &str) -> BTreeMap<String, f64> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let (name, value) = l.rsplit_once(' ')?;
            Some((name.to_string(), value.parse().ok()?))
        })
        .collect()
}

fn sample(samples: &BTreeMap<String, f64>, name: &str, labels: &[(&str, &str)]) -> f64 {
    samples
        .iter()
        .find(|(k, _)| {
            k.split_once('{').map_or(k.as_str(), |(n, _)| n) == name
                && labels
                    .iter()
                    .all(|(l, v)| k.contains(&format!("{l}=\"{v}\"")))
        })
        .map_or(0.0, |(_, v)| *v)
}

#[test]
fn metrics_count_requests_by_route_template_and_status() {
    if HostKind::from_env() != HostKind::Native {
        return; // The Spin component holds no counters between requests (README, "Operate").
    }
    let metrics = free_addr();
    let server = Instance::start_with_env(&[("CARDS_METRICS_LISTEN", &metrics.to_string())]);
    let t = server.tenant(0);
    let base = server.base_url();
    let accounts = (0..5)
        .map(|_| id(&create_account(&t, json!({"balance": 10}))))
        .collect::<Vec<_>>();
    for a in &accounts {
        t.get(&format!("/accounts/{a}")).expect(200);
    }
    for _ in 0..3 {
        t.get("/accounts/0123456789abcdef01234567")
            .expect_error(404, "not_found");
    }
    for _ in 0..2 {
        assert_eq!(raw_to(base, "GET", "/accounts", "sk_nobody").status, 401);
    }
    let scrape = reqwest::blocking::Client::builder()
        .no_proxy()
        .build()
        .unwrap()
        .get(format!("http://{metrics}/metrics"))
        .send()
        .expect("the metrics listener answers");
    assert_eq!(scrape.status().as_u16(), 200);
    let text = scrape.text().unwrap();
    let s = samples(&text);
    let requests = |route, method, status| {
        sample(
            &s,
            "cards_http_requests_total",
            &[("route", route), ("method", method), ("status", status)],
        )
    };
    assert_eq!(requests("/accounts", "POST", "201"), 5.0, "{text}");
    assert_eq!(requests("/accounts/{id}", "GET", "200"), 5.0, "{text}");
    assert_eq!(requests("/accounts/{id}", "GET", "404"), 3.0, "{text}");
    assert_eq!(requests("/accounts", "GET", "401"), 2.0, "{text}");
    assert!(
        !text.contains(&accounts[0]),
        "a raw path among the labels: {text}"
    );
    // Every write went through a group commit: the batch sizes add up to the writes.
    let batches = sample(&s, "cards_writer_batch_size_count", &[]);
    assert!(batches >= 1.0, "{text}");
    assert_eq!(
        sample(&s, "cards_writer_batch_size_sum", &[]),
        5.0,
        "{text}"
    );
    assert!(sample(&s, "cards_writer_commit_duration_seconds_count", &[]) >= 1.0);
    if !on_postgres() {
        assert!(sample(&s, "cards_wal_fsync_duration_seconds_count", &[]) >= 1.0);
    }
    assert_eq!(
        sample(
            &s,
            "cards_http_request_duration_seconds_count",
            &[("route", "/accounts/{id}")]
        ),
        8.0,
        "{text}"
    );
    assert!(text.contains("cards_writer_queue_depth"), "{text}");
    // Only /metrics is served there, and not on the API's port.
    assert_eq!(
        raw_to(base, "GET", "/metrics", "sk_nobody").status,
        404,
        "metrics on the API listener"
    );
}

#[test]
fn cors_is_off_by_default() {
    let preflight = raw(
        "OPTIONS",
        "/cards",
        &[
            ("origin", "http://app.test"),
            ("access-control-request-method", "POST"),
        ],
        None,
    );
    assert_ne!(preflight.status, 204);
    assert_eq!(preflight.header("access-control-allow-origin"), None);
    let t = tenant();
    let r = t.send("GET", "/cards", &[("origin", "http://app.test")], None);
    r.expect(200);
    assert_eq!(r.header("access-control-allow-origin"), None);
}

#[test]
fn cors_answers_preflights_and_marks_responses_for_allowed_origins() {
    let server = Instance::start_with_env(&[(
        "CARDS_CORS_ORIGINS",
        "http://app.test,http://localhost:5173",
    )]);
    let base = server.base_url();
    let t = server.tenant(0);
    let preflight = |origin: &str| {
        try_send_to(
            base,
            "OPTIONS",
            "/cards",
            &[
                ("origin", origin),
                ("access-control-request-method", "POST"),
                (
                    "access-control-request-headers",
                    "authorization, content-type",
                ),
            ],
            None,
        )
        .expect("the preflight goes through")
    };
    let ok = preflight("http://localhost:5173");
    assert_eq!(ok.status, 204, "{}", ok.text);
    assert_eq!(
        ok.header("access-control-allow-origin"),
        Some("http://localhost:5173")
    );
    let allowed_headers = ok.header("access-control-allow-headers").unwrap();
    for h in [
        "authorization",
        "x-api-key",
        "content-type",
        "idempotency-key",
    ] {
        assert!(allowed_headers.contains(h), "{allowed_headers}");
    }
    assert!(
        ok.header("access-control-allow-methods")
            .unwrap()
            .contains("POST")
    );
    assert_eq!(ok.header("vary"), Some("Origin"));
    // Another origin is not let in: no CORS headers, the usual 405 for OPTIONS.
    let refused = preflight("http://evil.test");
    assert_eq!(refused.status, 405);
    assert_eq!(refused.header("access-control-allow-origin"), None);
    // The actual request, with a key, from the allowed origin.
    let r = t.send(
        "POST",
        "/accounts",
        &[
            ("origin", "http://app.test"),
            ("content-type", "application/json"),
        ],
        Some(serde_json::to_vec(&fixtures::account_body(json!({}))).unwrap()),
    );
    r.expect(201);
    assert_eq!(
        r.header("access-control-allow-origin"),
        Some("http://app.test")
    );
    assert!(
        r.header("access-control-expose-headers")
            .unwrap()
            .contains("request-id")
    );
    // Errors carry them too, so a page can read the error and its request id.
    let e = t.send(
        "GET",
        "/cards/0123456789abcdef01234567",
        &[("origin", "http://app.test")],
        None,
    );
    e.expect_error(404, "not_found");
    assert_eq!(
        e.header("access-control-allow-origin"),
        Some("http://app.test")
    );
    let other = t.send("GET", "/cards", &[("origin", "http://evil.test")], None);
    other.expect(200);
    assert_eq!(other.header("access-control-allow-origin"), None);
}
