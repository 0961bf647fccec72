//! Fuzz-style property test on stable Rust: random request sequences through `Service::serve` on
//! MemStore, some storage calls failing on purpose. After every request: no panic, no 5xx unless a
//! storage call failed, and a request whose storage failed never answers 2xx (its writes are rolled
//! back, as a host does). After every request: each account's balance is the sum of its ledger, and
//! per currency, account plus card balances plus captured less refunded and dispute-credited amounts
//! equal the money put in by adjustments (transfers move it between accounts). Sequences move the
//! clients' test clocks, force declines, ask for partial approvals and increment holds.
//!
//! Cases: `CARDS_FUZZ_CASES` (default 1000); seed of the run: `CARDS_FUZZ_SEED`.

use std::collections::HashMap;

use proptest::prelude::*;
use proptest::test_runner::{Config as RunnerConfig, RngAlgorithm, TestRng, TestRunner};
use rust_decimal::Decimal;
use serde_json::{Value, json};

use crate::domain::authorizations::transactions::{CardTransaction, TransactionType};
use crate::domain::ledger::{self, EntryType};
use crate::domain::{Scope, accounts, authorizations, cards};
use crate::http::routes::ROUTES;
use crate::http::{Method, Request, Response};
use crate::storage::codec;
use crate::storage::keys::{self, Kind};
use crate::storage::{Direction, KvPair, MemStore, StoreError, Tx};
use crate::test_app::{KEY_A, KEY_B, TestApp as App};

/// A transaction over a copy of the store that fails every call from the `fail_at`-th on.
struct Faulty<'a> {
    inner: &'a mut MemStore,
    fail_at: Option<u32>,
    calls: u32,
    hit: bool,
}

impl Faulty<'_> {
    fn tick(&mut self) -> Result<(), StoreError> {
        self.calls += 1;
        if self.fail_at.is_some_and(|n| self.calls >= n) {
            self.hit = true;
            return Err(StoreError("injected fault".into()));
        }
        Ok(())
    }
}

impl Tx for Faulty<'_> {
    fn get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.tick()?;
        self.inner.get(key)
    }
    fn put(&mut self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        self.tick()?;
        self.inner.put(key, value)
    }
    fn delete(&mut self, key: &[u8]) -> Result<(), StoreError> {
        self.tick()?;
        self.inner.delete(key)
    }
    fn scan(
        &mut self,
        start: &[u8],
        end: &[u8],
        dir: Direction,
        limit: usize,
    ) -> Result<Vec<KvPair>, StoreError> {
        self.tick()?;
        self.inner.scan(start, end, dir, limit)
    }
}

/// splitmix64: the request builder's randomness, from the case's seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Ids the sequence has created, to aim requests at real records.
#[derive(Default)]
struct Pools {
    accounts: Vec<String>,
    holders: Vec<String>,
    cards: Vec<String>,
    details: Vec<(String, String)>,
    files: Vec<(String, String)>,
    tokens: Vec<(String, String)>,
    authorizations: Vec<String>,
    /// Card transactions seen in lists (captures among them, to dispute).
    transactions: Vec<String>,
    disputes: Vec<String>,
    transfers: Vec<String>,
    /// A currency change makes the per-currency sum unknowable from the store; the total still holds.
    currency_changed: bool,
}

const MONEY: &[&str] = &[
    "0",
    "1",
    "5",
    "10.5",
    "100",
    "0.01",
    "250.75",
    "1000",
    "0.999999999999999999999999999999",
    "1e2",
    "1e15",
    "999999999999999.99",
    "900000000000000",
    "-3",
    "79228162514264337593543950335",
    "1.005",
    "2E-2",
    "1e-400",
    "12345678901234567890e-10",
];

const ODD_IDS: &[&str] = &[
    "000000000000000000000000",
    "x",
    "%00",
    "ffffffffffffffffffffffff",
    "..",
    "%C3%A9",
    "",
];

fn money(rng: &mut Rng) -> Value {
    let text = if rng.chance(50) {
        format!("{}.{:02}", rng.below(500), rng.below(100))
    } else {
        rng.pick(MONEY).to_string()
    };
    Value::Number(serde_json::Number::from_string_unchecked(text))
}

fn junk(rng: &mut Rng) -> Value {
    match rng.below(10) {
        0 => Value::Null,
        1 => json!(true),
        2 => json!(-1),
        3 => json!(""),
        4 => json!("x"),
        5 => json!([]),
        6 => json!({}),
        7 => json!("a".repeat(300)),
        8 => money(rng),
        _ => json!([[{"a": [1, "b"]}]]),
    }
}

fn one_of(rng: &mut Rng, pool: &[String]) -> Value {
    if pool.is_empty() || rng.chance(10) {
        json!(rng.pick(ODD_IDS))
    } else {
        json!(rng.pick(pool))
    }
}

fn currency(rng: &mut Rng) -> &'static str {
    const CURRENCIES: [&str; 8] = ["USD", "USD", "USD", "USD", "EUR", "NGN", "usd", "X"];
    CURRENCIES[rng.below(CURRENCIES.len())]
}

fn controls(rng: &mut Rng) -> Value {
    let cats = |rng: &mut Rng| -> Value {
        let n = if rng.chance(5) { 101 } else { rng.below(4) };
        json!((0..n).map(|i| format!("cat{}", i % 3)).collect::<Vec<_>>())
    };
    let mut c = json!({});
    if rng.chance(50) {
        c["channels"] = json!({"atm": rng.chance(50), "web": rng.chance(50)});
    }
    if rng.chance(40) {
        c["allowedCategories"] = cats(rng);
    }
    if rng.chance(40) {
        c["blockedCategories"] = cats(rng);
    }
    if rng.chance(40) {
        let n = if rng.chance(5) { 21 } else { rng.below(3) };
        let limits: Vec<Value> = (0..n)
            .map(|_| json!({"amount": money(rng), "interval": rng.pick(&["daily", "weekly", "monthly", "yearly", "all_time", "hourly"])}))
            .collect();
        c["spendingLimits"] = json!(limits);
    }
    c
}

/// A plausible body for the route, mutated now and then.
fn body_for(rng: &mut Rng, method: Method, path: &str, p: &Pools) -> Value {
    let mut body = match (method, path) {
        (Method::Post, "/accounts") => {
            json!({"ownerType": "user", "name": "Main", "type": "checking",
            "category": "fiat", "currency": currency(rng), "balance": money(rng)})
        }
        (Method::Put, "/accounts/{id}") => {
            let mut b = json!({});
            if rng.chance(60) {
                b["balance"] = money(rng);
            }
            if rng.chance(20) {
                b["status"] = json!(rng.pick(&["active", "inactive", "suspended", "closed"]));
            }
            if rng.chance(10) {
                b["currency"] = json!(currency(rng));
            }
            if rng.chance(20) {
                b["name"] = json!("Renamed");
            }
            b
        }
        (Method::Post, "/accounts/{id}/details") => {
            json!({"type": rng.pick(&["bank_account", "crypto_wallet", "card"]),
            "provider": "p", "details": {"iban": "DE00"}, "isPrimary": rng.chance(50)})
        }
        (Method::Put, "/accounts/{id}/details/{sub}") => {
            json!({"provider": "q", "isPrimary": rng.chance(50)})
        }
        (Method::Post, "/card-holders") | (Method::Put, "/card-holders/{id}") => {
            json!({"name": "Ada Lovelace", "person": {"firstName": "Ada", "lastName": "Lovelace",
            "email": "ada@example.com", "phoneNumber": "+2348012345678"}})
        }
        (Method::Post, "/cards") => {
            let mut b = json!({"debitAccountId": one_of(rng, &p.accounts),
                "cardHolderId": one_of(rng, &p.holders), "type": rng.pick(&["virtual", "physical"]),
                "brand": rng.pick(&["Visa", "mastercard"]), "status": rng.pick(&["active", "inactive"])});
            if rng.chance(60) {
                b["amount"] = money(rng);
            }
            if rng.chance(30) {
                b["currency"] = json!(currency(rng));
            }
            if rng.chance(30) {
                b["spendingControls"] = controls(rng);
            }
            b
        }
        (Method::Put, "/cards/{id}") => {
            let mut b = json!({});
            match rng.below(4) {
                0 => {
                    b["status"] = json!("canceled");
                    b["cancellationReason"] = json!(rng.pick(&["lost", "stolen"]));
                    if rng.chance(50) {
                        b["creditAccountId"] = one_of(rng, &p.accounts);
                    }
                }
                1 => b["status"] = json!(rng.pick(&["active", "inactive"])),
                2 => b["spendingControls"] = controls(rng),
                _ => b["metadata"] = json!({"k": "v"}),
            }
            b
        }
        (Method::Post, "/cards/{id}/fund") => {
            json!({"debitAccountId": one_of(rng, &p.accounts), "amount": money(rng)})
        }
        (Method::Post, "/cards/{id}/authorizations") => {
            // Mostly small amounts, so funded cards approve and later steps capture and refund.
            let amount = if rng.chance(70) {
                json!(rng.pick(&[1, 2, 5]))
            } else {
                money(rng)
            };
            let mut b = json!({"amount": amount, "channel": rng.pick(&["atm", "pos", "web", "mobile"]),
                "merchant": {"name": "Shop", "category": rng.pick(&["grocery_stores", "electronics"])}});
            if rng.chance(20) {
                b["currency"] = json!(currency(rng));
            }
            if rng.chance(25) {
                b["partialApprovalCapable"] = json!(rng.chance(90));
            }
            if rng.chance(8) {
                b["simulate"] = json!({"declineReason": rng.pick(&["spending_limit", "card_canceled", "webhook_error", "nope"])});
            }
            b
        }
        (Method::Post, "/test-clock/advance") => {
            let seconds = *rng.pick(&[
                60,
                3600,
                86_400,
                8 * 86_400,
                31 * 86_400,
                0,
                -1,
                400_000_000,
            ]);
            json!({"seconds": seconds})
        }
        (Method::Post, "/accounts/transfers") => {
            let mut b = json!({"debitAccountId": one_of(rng, &p.accounts),
                "creditAccountId": one_of(rng, &p.accounts), "amount": money(rng)});
            if rng.chance(30) {
                b["narration"] = json!("Rent");
            }
            if rng.chance(30) {
                b["reference"] = json!("ref-1");
            }
            b
        }
        (Method::Post, "/card-transactions/{id}/disputes") => {
            let mut b =
                json!({"reason": rng.pick(&["fraudulent", "not_received", "duplicate", "other"])});
            if rng.chance(50) {
                b["amount"] = if rng.chance(60) { json!(1) } else { money(rng) };
            }
            b
        }
        (Method::Post, "/disputes/{id}/resolve") => {
            json!({"outcome": rng.pick(&["won", "won", "lost"])})
        }
        (Method::Post, path) if path.starts_with("/authorizations/") => match rng.below(3) {
            0 => json!({}),
            1 => json!({"amount": 1}),
            _ => json!({"amount": money(rng)}),
        },
        _ => json!({}),
    };
    if rng.chance(15)
        && let Some(map) = body.as_object_mut()
    {
        let keys: Vec<String> = map.keys().cloned().collect();
        match rng.below(3) {
            0 if !keys.is_empty() => {
                map.remove(rng.pick(&keys));
            }
            1 if !keys.is_empty() => {
                let k = rng.pick(&keys).clone();
                map.insert(k, junk(rng));
            }
            _ => {
                map.insert("unknownField".into(), junk(rng));
            }
        }
    }
    body
}

const BOUNDARY: &str = "fuzzBoundary";

fn multipart(rng: &mut Rng) -> Vec<u8> {
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
    if rng.chance(80) {
        text(
            &mut b,
            "person",
            r#"{"firstName":"Ada","lastName":"Lovelace","email":"ada@example.com","phoneNumber":"+2348012345678"}"#,
        );
    }
    if rng.chance(70) {
        let part = *rng.pick(&["documentMain", "documentBack", "proofOfAddress", "other"]);
        const FILES: [&[u8]; 4] = [
            b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01",
            b"%PDF-1.4\n%%EOF\n",
            b"\xFF\xD8\xFF\xE0\x00\x10JFIF\x00\xFF\xD9",
            b"plain text",
        ];
        let bytes = FILES[rng.below(FILES.len())];
        b.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{part}\"; filename=\"f\"\r\n\
                 Content-Type: application/octet-stream\r\n\r\n"
            )
            .as_bytes(),
        );
        b.extend_from_slice(bytes);
        b.extend_from_slice(b"\r\n");
    }
    if !rng.chance(5) {
        b.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    }
    b
}

const QUERY: &[&str] = &[
    "page=2",
    "limit=1",
    "limit=0",
    "limit=100000",
    "page=-1",
    "sort=-createdAt",
    "sort=balance",
    "sort=nope",
    "fields=balance,currency",
    "populate=cardHolder",
    "populate=debitAccount:name",
    "populate=nope",
    "search=ma",
    "status=active",
    "filter=%7B%22balance%22%3A%7B%22gte%22%3A1%7D%7D",
    "filter=%7B",
    "balance[gte]=10",
    "%ff=%fe",
    "token=rvl_00",
];

/// The row of `method path` in the route table.
fn row(method: Method, path: &str) -> &'static crate::http::routes::Route {
    ROUTES
        .iter()
        .find(|r| r.method == method && r.path == path)
        .expect("a row of the table")
}

/// Half the time the next step of a card's life (so sequences reach funding, tokens and refunds),
/// otherwise any row.
fn pick_route(rng: &mut Rng, p: &Pools) -> &'static crate::http::routes::Route {
    use Method::{Delete, Get, Post, Put};
    if rng.chance(50) {
        return rng.pick(ROUTES);
    }
    if p.accounts.len() < 2 && rng.chance(70) {
        return row(Post, "/accounts");
    }
    if p.holders.is_empty() {
        return row(Post, "/card-holders");
    }
    if p.cards.is_empty() || rng.chance(15) {
        return row(Post, "/cards");
    }
    let (method, path) = *rng.pick(&[
        (Post, "/cards/{id}/fund"),
        (Post, "/cards/{id}/fund"),
        (Post, "/cards/{id}/token"),
        (Get, "/cards/{id}/reveal"),
        (Put, "/cards/{id}"),
        (Put, "/cards/{id}"),
        (Delete, "/cards/{id}"),
        (Put, "/accounts/{id}"),
        (Post, "/accounts"),
        (Get, "/cards"),
        (Get, "/accounts/{id}/transactions"),
        (Post, "/cards/{id}/authorizations"),
        (Post, "/cards/{id}/authorizations"),
        (Post, "/cards/{id}/authorizations"),
        (Post, "/authorizations/{id}/capture"),
        (Post, "/authorizations/{id}/capture"),
        (Post, "/authorizations/{id}/reverse"),
        (Post, "/authorizations/{id}/refund"),
        (Post, "/authorizations/{id}/refund"),
        (Post, "/authorizations/{id}/increment"),
        (Post, "/authorizations/{id}/increment"),
        (Post, "/test-clock/advance"),
        (Get, "/test-clock"),
        (Get, "/cards/{id}/spending"),
        (Post, "/accounts/transfers"),
        (Post, "/accounts/transfers"),
        (Get, "/card-transactions"),
        (Get, "/card-transactions"),
        (Get, "/card-transactions"),
        (Post, "/card-transactions/{id}/disputes"),
        (Post, "/card-transactions/{id}/disputes"),
        (Post, "/card-transactions/{id}/disputes"),
        (Post, "/disputes/{id}/resolve"),
        (Post, "/disputes/{id}/resolve"),
        (Post, "/disputes/{id}/resolve"),
    ]);
    row(method, path)
}

fn request(rng: &mut Rng, p: &Pools) -> Request {
    let route = pick_route(rng, p);
    let method = if rng.chance(88) {
        route.method
    } else {
        *rng.pick(&[
            Method::Get,
            Method::Head,
            Method::Post,
            Method::Put,
            Method::Patch,
            Method::Delete,
            Method::Options,
            Method::Other,
        ])
    };
    let pair = |rng: &mut Rng, pool: &[(String, String)]| -> (String, String) {
        if pool.is_empty() || rng.chance(10) {
            (rng.pick(ODD_IDS).to_string(), rng.pick(ODD_IDS).to_string())
        } else {
            rng.pick(pool).clone()
        }
    };
    let single = |rng: &mut Rng, pool: &[String]| one_of(rng, pool).as_str().unwrap().to_string();
    let (id, sub) = if route.path.starts_with("/accounts/{id}/details/") {
        pair(rng, &p.details)
    } else if route.path.starts_with("/card-holders/{id}/files") {
        pair(rng, &p.files)
    } else if route.path.starts_with("/accounts/transfers/") {
        (single(rng, &p.transfers), String::new())
    } else if route.path.starts_with("/card-transactions/") {
        (single(rng, &p.transactions), String::new())
    } else if route.path.starts_with("/disputes/") {
        (single(rng, &p.disputes), String::new())
    } else if route.path.starts_with("/accounts") {
        (single(rng, &p.accounts), String::new())
    } else if route.path.starts_with("/card-holders") {
        (single(rng, &p.holders), String::new())
    } else if route.path.starts_with("/authorizations") {
        (single(rng, &p.authorizations), String::new())
    } else {
        (single(rng, &p.cards), String::new())
    };
    let mut path = route.path.replace("{id}", &id).replace("{sub}", &sub);
    if rng.chance(2) {
        path = rng
            .pick(&["/", "/nope", "//accounts", "/accounts/", "/cards/a/b/c"])
            .to_string();
    }
    let mut query = String::new();
    if route.path.ends_with("/reveal") && !p.tokens.is_empty() {
        let (card, token) = rng.pick(&p.tokens);
        if rng.chance(70) {
            path = format!("/cards/{card}/reveal");
        }
        query = format!("token={token}");
    } else if method == Method::Get && rng.chance(50) {
        let parts: Vec<&str> = (0..1 + rng.below(3)).map(|_| *rng.pick(QUERY)).collect();
        query = parts.join("&");
    }
    let target = if query.is_empty() {
        path
    } else {
        format!("{path}?{query}")
    };
    let mut req = Request::new(method, &target);
    match rng.below(20) {
        0 => {}
        1 => req = req.header("x-api-key", KEY_B),
        2 => req = req.header("x-api-key", "not-a-key"),
        3 => req = req.header("authorization", &format!("Bearer {KEY_A}")),
        _ => req = req.header("x-api-key", KEY_A),
    }
    if rng.chance(20) {
        let key = rng.pick(&["k1", "k2", "k3", "", "é"]).to_string();
        req = req.header("idempotency-key", &key);
    }
    if matches!(method, Method::Post | Method::Put) || rng.chance(5) {
        let multipart_route = route.path == "/card-holders" && method == Method::Post;
        if multipart_route && rng.chance(50) {
            let ct = if rng.chance(90) {
                format!("multipart/form-data; boundary={BOUNDARY}")
            } else {
                rng.pick(&["multipart/form-data", "multipart/form-data; boundary=€€"])
                    .to_string()
            };
            req = req.header("content-type", &ct).body(multipart(rng));
        } else {
            let ct = if rng.chance(85) {
                "application/json"
            } else {
                *rng.pick(&[
                    "application/json; charset=utf-8",
                    "application/merge-patch+json",
                    "a€€",
                    "€+json",
                    "text/plain",
                    "",
                ])
            };
            if !ct.is_empty() {
                req = req.header("content-type", ct);
            }
            let body = if rng.chance(3) {
                b"{\"a\":".to_vec()
            } else {
                serde_json::to_vec(&body_for(rng, route.method, route.path, p)).unwrap()
            };
            req = req.body(body);
        }
    }
    req
}

/// Records the ids a successful response created.
fn collect(req: &Request, resp: &Response, p: &mut Pools) {
    if !(200..300).contains(&resp.status) {
        return;
    }
    let Ok(v) = serde_json::from_slice::<Value>(&resp.body) else {
        return;
    };
    let data = &v["data"];
    let id = data["_id"].as_str().map(str::to_string);
    let parts: Vec<&str> = req.path.split('/').collect();
    match (req.method, parts.as_slice()) {
        (Method::Post, ["", "accounts"]) => p.accounts.extend(id),
        (Method::Post, ["", "accounts", "transfers"]) => p.transfers.extend(id),
        (Method::Post, ["", "card-transactions", _, "disputes"]) => p.disputes.extend(id),
        (Method::Get, ["", "card-transactions"] | ["", "cards", _, "transactions"]) => {
            for t in data.as_array().into_iter().flatten() {
                if let Some(id) = t["_id"].as_str()
                    && !p.transactions.iter().any(|x| x == id)
                {
                    p.transactions.push(id.to_string());
                }
            }
        }
        (Method::Post, ["", "accounts", account, "details"]) => {
            p.details.extend(id.map(|d| (account.to_string(), d)))
        }
        (Method::Post, ["", "card-holders"]) => {
            p.holders.extend(id.clone());
            let doc = &data["identification"];
            for url in [
                &doc["document"]["urls"]["main"],
                &doc["document"]["urls"]["back"],
                &doc["proofOfAddress"]["url"],
            ] {
                if let Some(file) = url.as_str().and_then(|u| u.rsplit('/').next())
                    && let Some(h) = &id
                {
                    p.files.push((h.clone(), file.to_string()));
                }
            }
        }
        (Method::Post, ["", "cards"]) => p.cards.extend(id),
        (Method::Post, ["", "cards", _, "authorizations"]) => p.authorizations.extend(id),
        (Method::Post, ["", "cards", card, "token"]) => {
            if let Some(t) = data["token"].as_str() {
                p.tokens.push((card.to_string(), t.to_string()));
            }
        }
        (Method::Put, ["", "accounts", _])
            if req.body.windows(10).any(|w| w == b"\"currency\"") =>
        {
            p.currency_changed = true
        }
        _ => {}
    }
}

/// Each account's balance is its ledger's sum; per currency (or in total, after a currency change),
/// account and card ledger balances plus captured less refunded amounts equal the adjustments.
fn check_money(app: &App, p: &Pools) -> Result<(), TestCaseError> {
    for client in ["alice", "bob"] {
        let mut store = app.store.clone();
        let now = crate::domain::test_clock::now(&mut store, client, &app.env)
            .map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        let mut s = Scope {
            tx: &mut store,
            client,
            now,
            ids: &app.service.ids,
            env: &app.env,
        };
        let accounts = accounts::all(&mut s).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        let cards = cards::all(&mut s).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        let entries =
            ledger::all_entries(&mut s).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        let mut held: HashMap<String, Decimal> = HashMap::new();
        let mut put_in: HashMap<String, Decimal> = HashMap::new();
        let key = |c: &crate::domain::Currency| {
            if p.currency_changed {
                "all".to_string()
            } else {
                format!("{c:?}")
            }
        };
        for a in &accounts {
            let sum: Decimal = entries
                .iter()
                .filter(|e| e.account_id == a.id)
                .map(|e| e.amount)
                .sum();
            prop_assert_eq!(sum, a.balance, "ledger of account {}", a.id);
            prop_assert!(a.balance >= Decimal::ZERO && a.balance < ledger::money_limit());
            *held.entry(key(&a.currency)).or_default() += a.balance;
            let adjustments: Decimal = entries
                .iter()
                .filter(|e| e.account_id == a.id && e.kind == EntryType::Adjustment)
                .map(|e| e.amount)
                .sum();
            *put_in.entry(key(&a.currency)).or_default() += adjustments;
        }
        for c in &cards {
            prop_assert!(c.balance >= Decimal::ZERO && c.balance < ledger::money_limit());
            prop_assert!(c.available() >= Decimal::ZERO && c.available() <= c.balance);
            *held.entry(key(&c.currency)).or_default() += c.balance;
        }
        // Captured money left for the merchant; refunded money came back.
        let auths =
            authorizations::all(&mut s).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        for a in &auths {
            *held.entry(key(&a.currency)).or_default() += a.captured_amount - a.refunded_amount;
        }
        // So did won disputes' credits.
        let card_txs: Vec<CardTransaction> =
            codec::scan(s.tx, &keys::records(client, Kind::CardTransaction))
                .map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        for t in card_txs
            .iter()
            .filter(|t| t.kind == TransactionType::DisputeCredit)
        {
            *held.entry(key(&t.currency)).or_default() -= t.amount;
        }
        held.retain(|_, v| !v.is_zero());
        put_in.retain(|_, v| !v.is_zero());
        prop_assert_eq!(held, put_in, "money made or lost for {}", client);
    }
    Ok(())
}

fn run_case(seed: u64) -> Result<(), TestCaseError> {
    let mut rng = Rng(seed);
    let mut app = App::new();
    let mut pools = Pools::default();
    let steps = 1 + rng.below(32);
    for _ in 0..steps {
        let req = request(&mut rng, &pools);
        // A fault at a random one of the storage calls this request makes (counted on a dry run).
        let fail_at = if rng.chance(20) {
            let mut dry = app.store.clone();
            let mut count = Faulty {
                inner: &mut dry,
                fail_at: None,
                calls: 0,
                hit: false,
            };
            app.service.serve(&req, &mut count, &app.env);
            (count.calls > 0).then(|| 1 + rng.below(count.calls as usize) as u32)
        } else {
            None
        };
        let mut copy = app.store.clone();
        let mut tx = Faulty {
            inner: &mut copy,
            fail_at,
            calls: 0,
            hit: false,
        };
        let resp = app.service.serve(&req, &mut tx, &app.env);
        let hit = tx.hit;
        let what = format!(
            "seed {seed}: {} {}?{} -> {} {}",
            req.method,
            req.path,
            req.query,
            resp.status,
            String::from_utf8_lossy(&resp.body)
        );
        if hit {
            prop_assert!(
                !(200..300).contains(&resp.status),
                "acknowledged a failed write: {}",
                what
            );
        } else {
            prop_assert!(resp.status < 500, "{}", what);
            prop_assert!((100..500).contains(&resp.status), "{}", what);
            app.store = copy;
            collect(&req, &resp, &mut pools);
            // A capture's answer is the authorization; its transaction (to dispute) is in the store.
            if req.path.ends_with("/capture") && (200..300).contains(&resp.status) {
                let made: Vec<CardTransaction> = codec::scan(
                    &mut app.store,
                    &keys::records("alice", Kind::CardTransaction),
                )
                .unwrap_or_default();
                for t in made {
                    if !pools.transactions.contains(&t.id) {
                        pools.transactions.push(t.id);
                    }
                }
            }
        }
        check_money(&app, &pools)?;
        app.env.advance_millis(1 + rng.below(90_000) as i64);
    }
    Ok(())
}

#[test]
fn fuzz_service_handle() {
    let cases = std::env::var("CARDS_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let seed: u64 = std::env::var("CARDS_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5EED);
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let mut runner = TestRunner::new_with_rng(
        RunnerConfig {
            cases,
            failure_persistence: None,
            ..RunnerConfig::default()
        },
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes),
    );
    let result = runner.run(&any::<u64>(), run_case);
    if let Err(e) = result {
        panic!("{e}");
    }
}
