//! A request's stages (ARCHITECTURE.md, "Request stages"): a GET reads its API key once, a write's
//! body is parsed once (counted by `http::body::parses`, a test hook in the two body parsers), and
//! a write re-reads its key in its own transaction on purpose, so a key revoked mid-flight writes
//! nothing.

use serde_json::{Value, json};

use crate::domain::api_keys;
use crate::domain::permissions::Permissions;
use crate::env::Env;
use crate::http::body::parses;
use crate::http::{Method, Request, Response};
use crate::storage::{Direction, KvPair, MemStore, StoreError, Tx, keys};
use crate::test_app::{KEY_A, TestApp as App};
use crate::{Service, Validated};

/// A `Tx` that counts the reads of stored API keys (`k/<hash>`) it serves.
struct Counting<'a> {
    inner: &'a mut MemStore,
    key_reads: usize,
}

impl<'a> Counting<'a> {
    fn new(inner: &'a mut MemStore) -> Counting<'a> {
        Counting {
            inner,
            key_reads: 0,
        }
    }
}

impl Tx for Counting<'_> {
    fn get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        if key.starts_with(&keys::api_keys()) {
            self.key_reads += 1;
        }
        self.inner.get(key)
    }
    fn put(&mut self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        self.inner.put(key, value)
    }
    fn delete(&mut self, key: &[u8]) -> Result<(), StoreError> {
        self.inner.delete(key)
    }
    fn scan(
        &mut self,
        start: &[u8],
        end: &[u8],
        dir: Direction,
        limit: usize,
    ) -> Result<Vec<KvPair>, StoreError> {
        if start.starts_with(&keys::api_keys()) {
            self.key_reads += 1;
        }
        self.inner.scan(start, end, dir, limit)
    }
}

/// An app with a funded card, and a stored key of alice's (configured keys are never read): the
/// app, the key, and the card's path with its debit account.
fn app_with_card() -> (App, String, (String, String)) {
    let mut app = App::new();
    let now = app.env.now();
    let (key, _) =
        api_keys::create_key(&mut app.store, &app.env, "alice", Permissions::full(), now).unwrap();
    let post = |path: &str, body: Value| {
        Request::new(Method::Post, path)
            .header("x-api-key", KEY_A)
            .header("content-type", "application/json")
            .body(serde_json::to_vec(&body).unwrap())
    };
    let (s, account, _) = app.send(post(
        "/accounts",
        json!({"ownerType": "user", "name": "Main", "type": "checking", "category": "fiat",
            "currency": "USD", "balance": 1000}),
    ));
    assert_eq!(s, 201, "{account}");
    let account = account["data"]["_id"].as_str().unwrap().to_string();
    let (s, holder, _) = app.send(post(
        "/card-holders",
        json!({"name": "Ada Lovelace", "person": {"firstName": "Ada", "lastName": "Lovelace",
            "email": "ada@example.com", "phoneNumber": "+2348012345678"}}),
    ));
    assert_eq!(s, 201, "{holder}");
    let holder = holder["data"]["_id"].as_str().unwrap();
    let (s, card, _) = app.send(post(
        "/cards",
        json!({"debitAccountId": account, "cardHolderId": holder, "type": "virtual",
            "brand": "visa", "status": "active", "amount": 10}),
    ));
    assert_eq!(s, 201, "{card}");
    let card = card["data"]["_id"].as_str().unwrap().to_string();
    (app, key, (card, account))
}

fn fund(key: &str, (card, account): &(String, String), amount: u32) -> Request {
    Request::new(Method::Post, &format!("/cards/{card}/fund"))
        .header("x-api-key", key)
        .header("content-type", "application/json")
        .body(serde_json::to_vec(&json!({"amount": amount, "debitAccountId": account})).unwrap())
}

/// Precheck and validate on a copy of the store (a host's read snapshot), as a host runs them
/// before queueing a write: the validated request and the key reads they made.
fn staged(service: &Service, store: &MemStore, req: &Request) -> (Validated, usize) {
    let mut snapshot = store.clone();
    let mut tx = Counting::new(&mut snapshot);
    let env = crate::env::DeterministicEnv::default();
    let pre = service.precheck(req, &mut tx).expect("precheck passes");
    let validated = service
        .validate(pre, req.clone(), &mut tx, &env)
        .expect("validate passes");
    (validated, tx.key_reads)
}

fn json(resp: &Response) -> Value {
    serde_json::from_slice(&resp.body).unwrap()
}

#[test]
fn a_get_reads_its_api_key_once() {
    let (mut app, key, (card, _)) = app_with_card();
    for path in [format!("/cards/{card}"), "/cards".to_string()] {
        let req = Request::new(Method::Get, &path).header("x-api-key", &key);
        // As the native host runs a GET: every stage on one read snapshot.
        let mut tx = Counting::new(&mut app.store);
        let pre = app.service.precheck(&req, &mut tx).unwrap();
        let validated = app.service.validate(pre, req, &mut tx, &app.env).unwrap();
        let resp = app.service.handle(&validated, &mut tx, &app.env);
        assert_eq!(resp.status, 200, "{path}: {}", json(&resp));
        assert_eq!(tx.key_reads, 1, "{path}");
    }
    // `serve` (all stages on one transaction) reads it once too.
    let req = Request::new(Method::Get, &format!("/cards/{card}")).header("x-api-key", &key);
    let mut tx = Counting::new(&mut app.store);
    assert_eq!(app.service.serve(&req, &mut tx, &app.env).status, 200);
    assert_eq!(tx.key_reads, 1);
}

#[test]
fn a_write_parses_its_body_once_and_rereads_its_key_in_its_transaction() {
    let (mut app, key, card) = app_with_card();
    let before = parses::so_far();
    let (validated, snapshot_reads) = staged(&app.service, &app.store, &fund(&key, &card, 5));
    assert_eq!(parses::so_far() - before, 1, "validate parses the body");
    assert_eq!(snapshot_reads, 1, "precheck authenticates on the snapshot");
    // A store that re-runs a batch hands `handle` the same validated request again: a copy of the
    // store stands for the transaction that was rolled back.
    let mut rolled_back = app.store.clone();
    let first = app.service.handle(&validated, &mut rolled_back, &app.env);
    let mut tx = Counting::new(&mut app.store);
    let resp = app.service.handle(&validated, &mut tx, &app.env);
    assert_eq!(resp.status, 200, "{}", json(&resp));
    assert_eq!(first.body, resp.body);
    assert_eq!(json(&resp)["data"]["balance"], json!(15));
    assert_eq!(tx.key_reads, 1, "the write's one re-check of its key");
    assert_eq!(parses::so_far() - before, 1, "handle parses nothing");

    // A multipart card holder: one parse of the form, files and all.
    let boundary = "----stageBoundary";
    let form = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nAda Lovelace\r\n\
         --{boundary}\r\nContent-Disposition: form-data; name=\"person\"\r\n\r\n\
         {{\"firstName\":\"Ada\",\"lastName\":\"Lovelace\",\"email\":\"ada@example.com\",\"phoneNumber\":\"+2348012345678\"}}\r\n\
         --{boundary}--\r\n"
    );
    let req = Request::new(Method::Post, "/card-holders")
        .header("x-api-key", &key)
        .header(
            "content-type",
            &format!("multipart/form-data; boundary={boundary}"),
        )
        .body(form.into_bytes());
    let before = parses::so_far();
    let (validated, _) = staged(&app.service, &app.store, &req);
    let resp = app.service.handle(&validated, &mut app.store, &app.env);
    assert_eq!(resp.status, 201, "{}", json(&resp));
    assert_eq!(parses::so_far() - before, 1);
}

#[test]
fn a_key_revoked_after_validate_writes_nothing() {
    let (mut app, key, card) = app_with_card();
    let (validated, _) = staged(&app.service, &app.store, &fund(&key, &card, 5));
    let get = Request::new(Method::Get, &format!("/cards/{}", card.0)).header("x-api-key", &key);
    let (read, _) = staged(&app.service, &app.store, &get);
    // Revoked between validate (on the snapshot) and the write.
    assert!(api_keys::revoke_key(&mut app.store, &key).unwrap());
    let before = app.store.clone();
    let resp = app.service.handle(&validated, &mut app.store, &app.env);
    assert_eq!(resp.status, 401, "{}", json(&resp));
    assert!(app.store.iter().eq(before.iter()), "nothing written");
    // A read prechecked before the revocation answers as of then: it changes nothing.
    let resp = app.service.handle(&read, &mut app.store, &app.env);
    assert_eq!(resp.status, 200, "{}", json(&resp));
    // Anything after it is refused at precheck.
    assert_eq!(app.send(get).0, 401);
}

#[test]
fn a_body_validate_left_to_its_idempotency_key_is_parsed_by_handle() {
    // The key decides on validate's snapshot (a replay), but the record is gone by the write: the
    // body is parsed then, once.
    let (mut app, key, card) = app_with_card();
    let keyed = |amount| fund(&key, &card, amount).header("idempotency-key", "k1");
    let mut with_record = app.store.clone();
    let first = app.service.serve(&keyed(5), &mut with_record, &app.env);
    assert_eq!(first.status, 200);
    let before = parses::so_far();
    let (validated, _) = staged(&app.service, &with_record, &keyed(5));
    assert_eq!(parses::so_far(), before, "a replay's body is not looked at");
    let resp = app.service.handle(&validated, &mut app.store, &app.env);
    assert_eq!(resp.status, 200, "{}", json(&resp));
    assert_eq!(json(&resp)["data"]["balance"], json!(15));
    assert_eq!(parses::so_far() - before, 1);
}
