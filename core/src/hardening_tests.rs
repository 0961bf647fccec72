//! Hardening through `Service` on MemStore: the body check a host runs before queueing a write, the
//! file quota, reveal tokens never stored, idempotency records swept by every write.

use serde_json::{Value, json};

use crate::domain::api_keys::ConfiguredKeys;
use crate::http::{Method, Request, Response};
use crate::storage::{MemStore, keys};
use crate::test_app::{KEY_A, TestApp as App};
use crate::{Config, Service, Validated};

fn json_req(method: Method, path: &str, body: &Value) -> Request {
    Request::new(method, path)
        .header("x-api-key", KEY_A)
        .header("content-type", "application/json")
        .body(serde_json::to_vec(body).unwrap())
}

impl App {
    /// `validate` on a copy of the store, as a host runs it on a read snapshot before queueing.
    fn check(&mut self, req: &Request) -> Result<Validated, Response> {
        let checked = self
            .service
            .precheck(req, &mut self.store)
            .expect("precheck passes");
        // A copy: the check must not need to write.
        let mut snapshot = self.store.clone();
        let before = snapshot.iter().count();
        let out = self
            .service
            .validate(checked, req.clone(), &mut snapshot, &self.env);
        assert_eq!(snapshot.iter().count(), before, "validate wrote");
        out
    }

    fn created(&mut self, req: Request) -> String {
        let (s, v, _) = self.send(req);
        assert_eq!(s, 201, "{v}");
        v["data"]["_id"].as_str().unwrap().to_string()
    }
}

fn account_body() -> Value {
    json!({"ownerType": "user", "name": "Main", "type": "checking", "category": "fiat",
        "currency": "USD", "balance": 100})
}

fn holder_body() -> Value {
    json!({"name": "Ada Lovelace", "person": {"firstName": "Ada", "lastName": "Lovelace",
        "email": "ada@example.com", "phoneNumber": "+2348012345678"}})
}

/// `validate` (on a snapshot) answers what the request answers through every stage on one
/// transaction for a bad body; what it passes, `handle` runs from its command, answering what every
/// stage on one transaction answers (404 first on routes that judge the body after finding the
/// record; a replayed Idempotency-Key).
#[test]
fn validate_agrees_with_handle() {
    let mut app = App::new();
    let account = app.created(json_req(Method::Post, "/accounts", &account_body()));
    let holder = app.created(json_req(Method::Post, "/card-holders", &holder_body()));
    let too_many: Vec<String> = (0..101).map(|i| format!("c{i}")).collect();
    let cases = [
        json_req(Method::Post, "/accounts", &json!({"name": 1})),
        json_req(Method::Post, "/accounts", &account_body()),
        json_req(
            Method::Put,
            "/accounts/000000000000000000000000",
            &json!({"x": 1}),
        ),
        json_req(
            Method::Put,
            &format!("/accounts/{account}"),
            &json!({"x": 1}),
        ),
        json_req(
            Method::Put,
            &format!("/accounts/{account}"),
            &json!({"name": "B"}),
        ),
        json_req(
            Method::Post,
            &format!("/accounts/{account}/details"),
            &json!({}),
        ),
        json_req(Method::Post, "/card-holders", &json!({"name": ""})),
        json_req(
            Method::Put,
            &format!("/card-holders/{holder}"),
            &json!({"name": 5}),
        ),
        json_req(Method::Post, "/cards", &json!({"debitAccountId": account})),
        json_req(
            Method::Put,
            "/cards/000000000000000000000000",
            &json!({"spendingControls": {"blockedCategories": too_many}}),
        ),
        json_req(Method::Put, "/cards/000000000000000000000000", &json!({})),
        json_req(
            Method::Post,
            "/cards/000000000000000000000000/fund",
            &json!({"amount": 0.001}),
        ),
        Request::new(Method::Post, "/accounts")
            .header("x-api-key", KEY_A)
            .header("content-type", "a€€")
            .body("{}"),
    ];
    for req in cases {
        let checked = app.check(&req);
        // The stages on one transaction, on a copy, for what the request answers.
        let mut copy = app.store.clone();
        let whole = app.service.serve(&req, &mut copy, &app.env);
        let (status, body): (u16, Value) = match &checked {
            // The staged path: the command validate parsed on the snapshot, handled on the store.
            Ok(validated) => {
                let resp = app.service.handle(validated, &mut app.store, &app.env);
                assert_eq!(resp.status, whole.status, "{} {}", req.method, req.path);
                (resp.status, serde_json::from_slice(&resp.body).unwrap())
            }
            Err(_) => {
                let (status, body, _) = app.send(req.clone());
                (status, body)
            }
        };
        match checked {
            Err(resp) => {
                assert!(
                    (400..500).contains(&resp.status),
                    "{} {}",
                    req.method,
                    req.path
                );
                assert_eq!(resp.status, status, "{} {}: {body}", req.method, req.path);
                let mine: Value = serde_json::from_slice(&resp.body).unwrap();
                assert_eq!(mine, body, "{} {}", req.method, req.path);
            }
            Ok(_) => assert!(
                status < 400 || status == 404,
                "{} {} passed the check but answered {status}: {body}",
                req.method,
                req.path
            ),
        }
    }

    // A key already used answers its replay or its conflict, whatever the body.
    let keyed =
        |body: &Value| json_req(Method::Post, "/accounts", body).header("idempotency-key", "k1");
    app.created(keyed(&account_body()));
    assert!(app.check(&keyed(&json!({"bad": 1}))).is_ok());
    let (status, _, _) = app.send(keyed(&json!({"bad": 1})));
    assert_eq!(status, 409);
}

const BOUNDARY: &str = "----quotaBoundary";
const PNG: &[u8] =
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00";

fn holder_with_file(padding: usize) -> Request {
    let mut file = PNG.to_vec();
    file.resize(PNG.len() + padding, 0);
    let mut b = Vec::new();
    let text = |b: &mut Vec<u8>, name: &str, value: &str| {
        b.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            )
            .as_bytes(),
        );
    };
    text(&mut b, "name", "Ada Lovelace");
    text(&mut b, "person", &holder_body()["person"].to_string());
    b.extend_from_slice(
        format!(
            "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"documentMain\"; filename=\"a.png\"\r\n\
             Content-Type: image/png\r\n\r\n"
        )
        .as_bytes(),
    );
    b.extend_from_slice(&file);
    b.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
    Request::new(Method::Post, "/card-holders")
        .header("x-api-key", KEY_A)
        .header(
            "content-type",
            &format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(b)
}

fn usage(store: &mut MemStore, client: &str) -> u64 {
    use crate::storage::Tx;
    store
        .get(&keys::file_usage(client))
        .unwrap()
        .map(|raw| u64::from_be_bytes(raw.try_into().unwrap()))
        .unwrap_or(0)
}

/// Item 2: a client's files count against its quota in the transaction that stores them; past the
/// quota the upload is 413 `quota_exceeded` and nothing is stored or counted.
#[test]
fn file_quota_is_enforced_per_client() {
    let mut app = App::new();
    let mut keys_ = ConfiguredKeys::default();
    keys_.add(KEY_A, "alice").unwrap();
    app.service = Service::new(
        Config {
            api_keys: keys_,
            vault_key: Some([1; 32]),
            file_quota_bytes: 3000,
            ..Config::default()
        },
        &app.env,
    );
    let (s, v, _) = app.send(holder_with_file(1000));
    assert_eq!(s, 201, "{v}");
    let one = (PNG.len() + 1000) as u64;
    assert_eq!(usage(&mut app.store, "alice"), one);
    let (s, _, _) = app.send(holder_with_file(1000));
    assert_eq!(s, 201);
    let before = app.store.clone();
    let (s, v, _) = app.send(holder_with_file(1000));
    assert_eq!(s, 413, "{v}");
    assert_eq!(v["error"], "quota_exceeded");
    assert!(
        v["message"].as_str().unwrap().contains("quota 3000 bytes"),
        "{v}"
    );
    assert_eq!(usage(&mut app.store, "alice"), 2 * one);
    assert_eq!(app.store.iter().count(), before.iter().count());
    // A holder without files is not limited.
    let (s, _, _) = app.send(json_req(Method::Post, "/card-holders", &holder_body()));
    assert_eq!(s, 201);
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Item 4: with or without an Idempotency-Key, the token is nowhere in the store.
#[test]
fn reveal_tokens_are_never_stored() {
    let mut app = App::new();
    let account = app.created(json_req(Method::Post, "/accounts", &account_body()));
    let holder = app.created(json_req(Method::Post, "/card-holders", &holder_body()));
    let card = app.created(json_req(
        Method::Post,
        "/cards",
        &json!({"debitAccountId": account, "cardHolderId": holder, "type": "virtual",
            "brand": "visa", "status": "active"}),
    ));
    for key in [None, Some("t1")] {
        let mut req =
            Request::new(Method::Post, &format!("/cards/{card}/token")).header("x-api-key", KEY_A);
        if let Some(k) = key {
            req = req.header("idempotency-key", k);
        }
        let (s, v, _) = app.send(req.clone());
        assert_eq!(s, 201);
        let token = v["data"]["token"].as_str().unwrap().to_string();
        for (k, value) in app.store.iter() {
            assert!(!contains(k, token.as_bytes()) && !contains(value, token.as_bytes()));
        }
        if key.is_some() {
            let (s, again, _) = app.send(req);
            assert_eq!(s, 201);
            assert_eq!(again["data"]["token"], Value::Null);
            assert_eq!(again["data"]["expiresAt"], v["data"]["expiresAt"]);
        }
    }
}

/// Item 10: expired idempotency records are swept by write requests without a key too.
#[test]
fn idempotency_records_are_swept_by_every_write() {
    let mut app = App::new();
    for i in 0..3 {
        let req = json_req(Method::Post, "/accounts", &account_body())
            .header("idempotency-key", &format!("k{i}"));
        app.created(req);
    }
    let records = |store: &MemStore| {
        let prefix = keys::idempotency("alice", "");
        store.iter().filter(|(k, _)| k.starts_with(&prefix)).count()
    };
    assert_eq!(records(&app.store), 3);
    app.env.advance_millis(25 * 3600 * 1000);
    // A write without a key, even one that fails, sweeps.
    let (s, _, _) = app.send(json_req(Method::Post, "/accounts", &json!({})));
    assert_eq!(s, 400);
    assert_eq!(records(&app.store), 0);
}

/// Under an advanced test clock an idempotency record lives 24 hours of its client's clock, a newer
/// record under the same key survives the sweep of the older one's queue entry, and records are
/// still removed once the host's clock passes their queue time.
#[test]
fn idempotency_records_follow_the_clients_clock_and_the_sweep_keeps_newer_ones() {
    const HOUR: i64 = 3600 * 1000;
    let mut app = App::new();
    let records = |store: &MemStore| {
        let prefix = keys::idempotency("alice", "");
        store.iter().filter(|(k, _)| k.starts_with(&prefix)).count()
    };
    let create = |app: &mut App, name: &str| {
        let mut body = account_body();
        body["name"] = json!(name);
        app.send(json_req(Method::Post, "/accounts", &body).header("idempotency-key", "same"))
    };
    let sweep = |app: &mut App| {
        let (s, _, _) = app.send(json_req(Method::Post, "/accounts", &json!({})));
        assert_eq!(s, 400);
    };
    // Host H0, alice H0: the first record, due at alice's H0+24h, queued at host H0+24h.
    let (s, first, _) = create(&mut app, "One");
    assert_eq!(s, 201);
    // Host H0+1h; alice 25 hours ahead (H0+26h): the key is free again.
    app.env.advance_millis(HOUR);
    let (s, _) = app.json_as(
        KEY_A,
        Method::Post,
        "/test-clock/advance",
        Some(json!({"seconds": 25 * 3600})),
    );
    assert_eq!(s, 200);
    let (s, second, resp) = create(&mut app, "Two");
    assert_eq!(s, 201, "{second}");
    assert_eq!(resp.header_value("idempotent-replayed"), None);
    assert_ne!(first["data"]["_id"], second["data"]["_id"]);
    // The second is due at alice's H0+50h, queued at host H0+25h. Host H0+24h+1s: the first
    // record's queue entry is swept, the second record (alice at H0+49h+1s) is kept and replays.
    app.env.advance_millis(23 * HOUR + 1000);
    sweep(&mut app);
    assert_eq!(records(&app.store), 1);
    let (s, replay, resp) = create(&mut app, "Two");
    assert_eq!(
        (s, resp.header_value("idempotent-replayed")),
        (201, Some("true"))
    );
    assert_eq!(replay["data"]["_id"], second["data"]["_id"]);
    // Host H0+25h+1s: the second's queue entry comes due and alice is past its expiry: swept.
    app.env.advance_millis(HOUR);
    sweep(&mut app);
    assert_eq!(records(&app.store), 0);
}
