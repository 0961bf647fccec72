//! The keys a funding writes (ARCHITECTURE.md, "What a write writes"): each a key whose value
//! changed, range entries moved with `put_new` at their new place, and nothing deleted that the
//! store below never held. A group-commit window (here an overlay over many fundings, as the
//! native memtable is) keeps only the last place of each moved range entry.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::Service;
use crate::domain::webhooks::deliveries::Outcome;
use crate::env::Env;
use crate::http::{Method, Request};
use crate::storage::{Direction, KvPair, MemStore, Overlay, StoreError, Tx};
use crate::test_app::{KEY_A, TestApp as App};

/// What reached the store: each write by key family (the tag, kind and field of its key) and
/// how, and how many deletes or puts changed nothing there.
#[derive(Default)]
pub(crate) struct Writes {
    /// Every key put or deleted, in order.
    pub(crate) keys: Vec<Vec<u8>>,
    by_family: BTreeMap<String, usize>,
    puts: usize,
    new: usize,
    deletes: usize,
    /// Deletes of keys the store did not hold, and puts of the value it held.
    idle: usize,
    /// How often each key was read (each a memtable search on redb, a round trip on PostgreSQL).
    pub(crate) reads: BTreeMap<Vec<u8>, usize>,
}

/// A transaction over a `MemStore` that counts what it writes (also `vault_tests.rs`).
pub(crate) struct Tracing<'a> {
    inner: &'a mut MemStore,
    pub(crate) w: Writes,
}

/// `r\0alice\0card\0available\0<value><id>` -> `r card available`: the key's first text parts.
fn family(key: &[u8]) -> String {
    // The delivery queue's due time is binary (it may hold 0x00 bytes); a pending entry's last
    // part is its delivery's id.
    for tag in ["wq", "wp"] {
        if key.starts_with(tag.as_bytes()) && key.get(tag.len()) == Some(&0) {
            return tag.into();
        }
    }
    let parts: Vec<String> = key
        .split(|b| *b == 0)
        .take(4)
        .enumerate()
        .filter(|(i, _)| *i != 1)
        .map(|(_, p)| String::from_utf8_lossy(p).into_owned())
        .collect();
    match parts.first().map(String::as_str) {
        // Records: tag and kind.
        Some("p") => parts[..2].join(" "),
        _ => parts.join(" "),
    }
}

impl<'a> Tracing<'a> {
    pub(crate) fn new(inner: &'a mut MemStore) -> Self {
        Tracing {
            inner,
            w: Writes::default(),
        }
    }

    fn note(&mut self, key: &[u8]) {
        self.w.keys.push(key.to_vec());
        *self.w.by_family.entry(family(key)).or_default() += 1;
    }
}

impl Tx for Tracing<'_> {
    fn get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        *self.w.reads.entry(key.to_vec()).or_default() += 1;
        self.inner.get(key)
    }
    fn put(&mut self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        self.note(key);
        self.w.puts += 1;
        if self.inner.get(key)?.as_deref() == Some(value) {
            self.w.idle += 1;
        }
        self.inner.put(key, value)
    }
    fn put_new(&mut self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        self.note(key);
        self.w.new += 1;
        self.inner.put_new(key, value)
    }
    fn delete(&mut self, key: &[u8]) -> Result<(), StoreError> {
        self.note(key);
        self.w.deletes += 1;
        if self.inner.get(key)?.is_none() {
            self.w.idle += 1;
        }
        self.inner.delete(key)
    }
    fn scan(
        &mut self,
        start: &[u8],
        end: &[u8],
        dir: Direction,
        limit: usize,
    ) -> Result<Vec<KvPair>, StoreError> {
        self.inner.scan(start, end, dir, limit)
    }
}

fn post(path: &str, body: Value) -> Request {
    Request::new(Method::Post, path)
        .header("x-api-key", KEY_A)
        .header("content-type", "application/json")
        .body(serde_json::to_vec(&body).unwrap())
}

/// The benchmark's fixtures (`scripts/bench writes`): an account, a holder, an active card with
/// nothing held, funded at issue (so its balance's bucket holds while cents are added), and one
/// funding already made.
fn funded() -> (App, Request) {
    let mut app = App::new();
    let (_, account, _) = app.send(post(
        "/accounts",
        json!({"ownerType": "business", "name": "Bench", "type": "checking", "category": "fiat",
            "currency": "USD", "balance": 1000000000}),
    ));
    let account = account["data"]["_id"].as_str().unwrap().to_string();
    let (_, holder, _) = app.send(post(
        "/card-holders",
        json!({"name": "B", "person": {"firstName": "B", "lastName": "C", "email": "b@c.io",
            "phoneNumber": "+15555550100"}}),
    ));
    let (s, card, _) = app.send(post(
        "/cards",
        json!({"debitAccountId": account, "cardHolderId": holder["data"]["_id"], "type": "virtual",
            "brand": "Visa", "status": "active", "amount": 100}),
    ));
    assert_eq!(s, 201, "{card}");
    let card = card["data"]["_id"].as_str().unwrap();
    let fund = post(
        &format!("/cards/{card}/fund"),
        json!({"amount": 0.01, "debitAccountId": account}),
    );
    app.env.advance_millis(1);
    assert_eq!(app.send(fund.clone()).0, 200);
    (app, fund)
}

#[test]
fn a_funding_writes_only_what_changed() {
    let (mut app, fund) = funded();
    app.env.advance_millis(1);
    let mut tx = Tracing::new(&mut app.store);
    let resp = app.service.serve(&fund, &mut tx, &app.env);
    assert_eq!(resp.status, 200);
    let w = tx.w;
    let families: Vec<(&str, usize)> = w.by_family.iter().map(|(f, n)| (f.as_str(), *n)).collect();
    assert_eq!(
        families,
        [
            // Three shards of counts (the event list, all and by type; the account's ledger).
            ("c event *", 1),
            ("c event type", 1),
            ("c ledger accountId", 1),
            // The two new records' index entries (a ledger entry only in its account's index).
            ("i event *", 1),
            ("i event type", 1),
            ("i ledger accountId", 1),
            // The account and card, the new entry and event.
            ("p account", 1),
            ("p card", 1),
            ("p event", 1),
            ("p ledger", 1),
            // Each moved range entry: its old place deleted, its new one put.
            ("r account balance", 2),
            ("r account updatedAt", 2),
            ("r card available", 2),
            ("r card available@status=active", 2),
            ("r card updatedAt", 2),
        ]
    );
    // 20 keys: 4 puts (the records), 11 `put_new`s (index entries, range entries' new places, and
    // the three count shards, which the funding before did not reach: a key the write read as
    // absent is put new) and 5 deletes (range entries' old places).
    assert_eq!((w.puts, w.new, w.deletes), (4, 11, 5));
    assert_eq!(
        w.idle, 0,
        "no delete of a key never stored, no put of the same value"
    );
    // Each key read once: the card, its account and its holds are checked and then saved, and
    // the write's overlay keeps what it read (ARCHITECTURE.md, "Invariants").
    let twice: Vec<String> = w
        .reads
        .iter()
        .filter(|(_, n)| **n > 1)
        .map(|(k, n)| format!("{} x{n}", k.escape_ascii()))
        .collect();
    assert_eq!(twice, Vec::<String>::new());
}

#[test]
fn a_window_of_fundings_keeps_only_the_last_place_of_each_range_entry() {
    let (mut app, fund) = funded();
    let mut tx = Tracing::new(&mut app.store);
    {
        // Ten fundings in one window (what a memtable gathers between checkpoints).
        let mut window = Overlay::new(&mut tx);
        for _ in 0..10 {
            app.env.advance_millis(1);
            assert_eq!(app.service.serve(&fund, &mut window, &app.env).status, 200);
        }
        window.commit().unwrap();
    }
    let w = tx.w;
    assert_eq!(w.idle, 0, "{:?}", w.by_family);
    // Each of the five moved range entries: one delete (its place before the window) and one put
    // (its place after); the nine places between never reach the store.
    for family in [
        "r account balance",
        "r account updatedAt",
        "r card available",
        "r card available@status=active",
        "r card updatedAt",
    ] {
        assert_eq!(w.by_family[family], 2, "{family}");
    }
    assert_eq!(w.deletes, 5);
    // And what is stored is what the same ten fundings store one by one.
    let (mut direct, fund) = funded();
    for _ in 0..10 {
        direct.env.advance_millis(1);
        assert_eq!(direct.send(fund.clone()).0, 200);
    }
    assert!(direct.store.iter().eq(app.store.iter()));
}

/// The families of `w` whose key names webhook deliveries (their records, indexes, counts and
/// queues), as (family, writes).
fn delivery_families(w: &Writes) -> Vec<(&str, usize)> {
    w.by_family
        .iter()
        .filter(|(f, _)| f.contains("whdelivery") || f.starts_with("wq") || f.starts_with("wp"))
        .map(|(f, n)| (f.as_str(), *n))
        .collect()
}

/// The deliveries due now, planned on `tx` as the native host plans them, each answered 200.
fn answered_200(service: &Service, tx: &mut dyn Tx, env: &dyn Env) -> Vec<Outcome> {
    let planned = service
        .plan_due_deliveries(tx, env, 0, 10, &|_, _| false)
        .unwrap();
    planned
        .due
        .iter()
        .map(|d| d.outcome(Some(200), 1, None))
        .collect()
}

/// What a delivery writes (ARCHITECTURE.md, "Webhooks"): with its event, in the client's write;
/// then its successful first attempt, as the native host on redb records it (planned on a
/// snapshot, the lease in memory).
#[test]
fn a_delivery_writes_few_keys_with_its_event_and_at_its_first_success() {
    let mut app = App::new();
    let account = json!({"ownerType": "user", "name": "Load", "type": "checking",
        "category": "fiat", "currency": "USD"});
    let endpoint = json!({"url": "http://127.0.0.1:9/h", "enabledEvents": ["account.created"]});
    assert_eq!(app.send(post("/webhook-endpoints", endpoint)).0, 201);
    // One delivery before, so the count shards exist as they do under load.
    assert_eq!(app.send(post("/accounts", account.clone())).0, 201);
    let outcomes = answered_200(&app.service, &mut app.store, &app.env);
    app.service
        .record_attempts(&mut app.store, &app.env, &outcomes)
        .unwrap();

    app.env.advance_millis(1);
    let mut tx = Tracing::new(&mut app.store);
    let req = post("/accounts", account);
    assert_eq!(app.service.serve(&req, &mut tx, &app.env).status, 201);
    let enqueue = tx.w;
    assert_eq!(enqueue.idle, 0, "{:?}", enqueue.by_family);
    // 4 keys (format 6 wrote 8: also the `status` and every-delivery index entries and counts;
    // format 9 wrote 5: also the `wp` entry, now put only when a retry waits).
    assert_eq!(
        delivery_families(&enqueue),
        [
            // The endpoint's list of deliveries, and its count (`meta.total`).
            ("c whdelivery endpointId", 1),
            ("i whdelivery endpointId", 1),
            ("p whdelivery", 1),
            // Due now in the queue.
            ("wq", 1),
        ]
    );

    let outcomes = answered_200(&app.service, &mut app.store, &app.env);
    assert_eq!(outcomes.len(), 1);
    let mut tx = Tracing::new(&mut app.store);
    app.service
        .record_attempts(&mut tx, &app.env, &outcomes)
        .unwrap();
    let success = tx.w;
    assert_eq!(success.idle, 0, "{:?}", success.by_family);
    // 2 keys: the record rewritten (status, attempt), out of the queue (format 6 wrote 6: also the
    // `status` index entry moved and its two counts; format 9 wrote 3: also the `wp` entry).
    assert_eq!(
        delivery_families(&success),
        [("p whdelivery", 1), ("wq", 1)]
    );
    assert_eq!((success.puts, success.new, success.deletes), (1, 0, 1));
}

/// A delivery queued and answered within one window (what a memtable gathers between checkpoints):
/// its queue entry was put new and deleted, so it does not reach the store below; only
/// its record, its `endpointId` entry and that entry's count do.
#[test]
fn a_delivery_answered_within_a_window_leaves_only_its_record_and_index_entry() {
    let mut app = App::new();
    let endpoint = json!({"url": "http://127.0.0.1:9/h", "enabledEvents": ["account.created"]});
    assert_eq!(app.send(post("/webhook-endpoints", endpoint)).0, 201);
    let mut tx = Tracing::new(&mut app.store);
    {
        let mut window = Overlay::new(&mut tx);
        let req = post(
            "/accounts",
            json!({"ownerType": "user", "name": "Load", "type": "checking",
                "category": "fiat", "currency": "USD"}),
        );
        assert_eq!(app.service.serve(&req, &mut window, &app.env).status, 201);
        let outcomes = answered_200(&app.service, &mut window, &app.env);
        assert_eq!(outcomes.len(), 1);
        app.service
            .record_attempts(&mut window, &app.env, &outcomes)
            .unwrap();
        window.commit().unwrap();
    }
    let w = tx.w;
    assert_eq!(w.idle, 0, "{:?}", w.by_family);
    assert_eq!(
        delivery_families(&w),
        [
            ("c whdelivery endpointId", 1),
            ("i whdelivery endpointId", 1),
            ("p whdelivery", 1),
        ]
    );
}

/// Format 11: a ledger entry is in its account's index alone. A format-10 store (each entry also
/// in the index of every entry, with its counts) opens to what this release writes, key for key,
/// and its account's transactions still list them all.
#[test]
fn a_format_10_store_drops_the_index_of_every_ledger_entry() {
    use crate::domain::ledger::Entry;
    use crate::storage::{codec, format, keys, keys::Kind, scan_prefix};

    let (mut app, fund) = funded();
    for _ in 0..20 {
        app.env.advance_millis(1);
        assert_eq!(app.send(fund.clone()).0, 200);
    }
    format::stamp(&mut app.store).unwrap();
    let current = scan_prefix(&mut app.store, b"").unwrap();
    // Format 10's shape: every entry also under `*`, counted in shards by its id's last digit.
    let entries: Vec<Entry> =
        codec::scan(&mut app.store, &keys::records("alice", Kind::LedgerEntry)).unwrap();
    assert!(entries.len() > 20, "{}", entries.len());
    let mut counts: BTreeMap<u8, u64> = BTreeMap::new();
    for e in &entries {
        let key = keys::index_entry(
            "alice",
            Kind::LedgerEntry,
            keys::ALL,
            "",
            e.created_at.millis(),
            &e.id,
        );
        app.store.put(&key, &[]).unwrap();
        let shard = e.id.chars().last().and_then(|c| c.to_digit(16)).unwrap() as u8;
        *counts.entry(shard).or_default() += 1;
    }
    for (shard, n) in counts {
        let key = keys::tally("alice", Kind::LedgerEntry, keys::ALL, "", shard);
        app.store.put(&key, &n.to_be_bytes()).unwrap();
    }
    format::stamp_version(&mut app.store, 10).unwrap();
    assert_ne!(scan_prefix(&mut app.store, b"").unwrap(), current);

    Service::open_store(&mut app.store).unwrap();
    assert_eq!(scan_prefix(&mut app.store, b"").unwrap(), current);
    let account = &entries[0].account_id;
    let list = Request::new(
        Method::Get,
        &format!("/accounts/{account}/transactions?limit=5"),
    )
    .header("x-api-key", KEY_A);
    let (status, body, _) = app.send(list);
    assert_eq!(status, 200, "{body}");
    let of_account = entries.iter().filter(|e| &e.account_id == account).count();
    assert_eq!(body["meta"]["total"], json!(of_account), "{body}");
    assert_eq!(body["data"].as_array().unwrap().len(), 5);
}
