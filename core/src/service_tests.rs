//! The request path end to end on MemStore with a fixed clock: atomicity, idempotency, money invariants,
//! the vault. HTTP-level tests of the same rules live in tests/.

use proptest::prelude::*;
use rust_decimal::Decimal;
use serde_json::{Value, json};

use crate::domain::ledger::Entry;
use crate::http::fields::{decimal_json, money};
use crate::http::{Method, Request};
use crate::storage::{Tx, codec, keys};
use crate::test_app::{KEY_A, KEY_B, TestApp as App};

impl App {
    fn call(&mut self, method: Method, path: &str, body: Option<Value>) -> (u16, Value) {
        self.json_as(KEY_A, method, path, body)
    }

    fn account(&mut self, balance: &str, currency: &str) -> String {
        let body = json!({"ownerType": "user", "name": "Main", "type": "checking", "category": "fiat",
            "currency": currency, "balance": serde_json::Number::from_string_unchecked(balance.into())});
        let (s, v) = self.call(Method::Post, "/accounts", Some(body));
        assert_eq!(s, 201, "{v}");
        v["data"]["_id"].as_str().unwrap().to_string()
    }

    fn holder(&mut self) -> String {
        let body = json!({"name": "Ada Lovelace", "person": {"firstName": "Ada", "lastName": "Lovelace",
            "email": "ada@example.com", "phoneNumber": "+2348012345678"}});
        let (s, v) = self.call(Method::Post, "/card-holders", Some(body));
        assert_eq!(s, 201, "{v}");
        v["data"]["_id"].as_str().unwrap().to_string()
    }

    fn issue(&mut self, account: &str, holder: &str, amount: Option<&str>) -> (u16, Value) {
        let mut body = json!({"debitAccountId": account, "cardHolderId": holder, "type": "virtual",
            "brand": "visa", "status": "active"});
        if let Some(a) = amount {
            body["amount"] = Value::Number(serde_json::Number::from_string_unchecked(a.into()));
        }
        self.call(Method::Post, "/cards", Some(body))
    }

    /// A reveal token for the card, then the reveal with it: the token and the revealed body.
    fn token_and_reveal(&mut self, id: &str) -> (String, Value) {
        let (s, t) = self.call(Method::Post, &format!("/cards/{id}/token"), None);
        assert_eq!(s, 201, "{t}");
        let token = t["data"]["token"].as_str().unwrap().to_string();
        let (s, v) = self.call(
            Method::Get,
            &format!("/cards/{id}/reveal?token={token}"),
            None,
        );
        assert_eq!(s, 200, "{v}");
        (token, v)
    }

    fn balance_of(&mut self, path: &str) -> Decimal {
        let (s, v) = self.call(Method::Get, path, None);
        assert_eq!(s, 200, "{v}");
        money(&v["data"]["balance"]).unwrap()
    }
}

fn dec(s: &str) -> Decimal {
    s.parse().unwrap()
}

#[test]
fn issue_with_amount_moves_money_atomically() {
    let mut app = App::new();
    let acct = app.account("100", "USD");
    let holder = app.holder();
    let (s, card) = app.issue(&acct, &holder, Some("30.5"));
    assert_eq!(s, 201, "{card}");
    let card = &card["data"];
    assert_eq!(card["brand"], "Visa");
    assert_eq!(card["currency"], "USD");
    assert_eq!(card["enable2FA"], true);
    assert_eq!(card["disposable"], false);
    assert_eq!(money(&card["balance"]).unwrap(), dec("30.5"));
    assert!(card.get("pan").is_none() && card.get("cvv").is_none());
    let masked = card["maskedPan"].as_str().unwrap();
    assert!(masked.starts_with('4') && masked.contains("******"));
    assert_eq!(app.balance_of(&format!("/accounts/{acct}")), dec("69.5"));
}

#[test]
fn a_failed_request_writes_nothing() {
    let mut app = App::new();
    let acct = app.account("10", "USD");
    let holder = app.holder();
    let before: Vec<_> = app
        .store
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let (s, v) = app.issue(&acct, &holder, Some("10.01"));
    assert_eq!((s, v["error"].as_str()), (422, Some("insufficient_funds")));
    let after: Vec<_> = app
        .store
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    assert_eq!(before, after);
}

#[test]
fn issuing_checks_the_debit_account() {
    let mut app = App::new();
    let ngn = app.account("100", "NGN");
    let holder = app.holder();
    let (s, v) = app.issue(&ngn, &holder, None);
    assert_eq!((s, v["error"].as_str()), (422, Some("currency_mismatch")));
    let usd = app.account("100", "USD");
    app.call(
        Method::Put,
        &format!("/accounts/{usd}"),
        Some(json!({"status": "suspended"})),
    );
    let (s, v) = app.issue(&usd, &holder, None);
    assert_eq!((s, v["error"].as_str()), (422, Some("account_unavailable")));
    let (s, _) = app.issue("0123456789abcdef01234567", &holder, None);
    assert_eq!(s, 404);
    let (s, _) = app.issue(&usd, "0123456789abcdef01234567", None);
    assert_eq!(s, 404);
}

#[test]
fn cancel_refunds_and_a_canceled_card_refuses_everything() {
    let mut app = App::new();
    let acct = app.account("100", "USD");
    let other = app.account("0", "USD");
    let holder = app.holder();
    let (_, card) = app.issue(&acct, &holder, Some("40"));
    let id = card["data"]["_id"].as_str().unwrap().to_string();
    let (s, v) = app.call(
        Method::Put,
        &format!("/cards/{id}"),
        Some(json!({"status": "canceled"})),
    );
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["errors"][0]["field"], "cancellationReason");
    let (s, v) = app.call(
        Method::Put,
        &format!("/cards/{id}"),
        Some(json!({"status": "canceled", "cancellationReason": "lost", "creditAccountId": other})),
    );
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["data"]["status"], "canceled");
    assert_eq!(money(&v["data"]["balance"]).unwrap(), Decimal::ZERO);
    assert_eq!(app.balance_of(&format!("/accounts/{other}")), dec("40"));
    assert_eq!(app.balance_of(&format!("/accounts/{acct}")), dec("60"));
    for (method, path, body) in [
        (
            Method::Put,
            format!("/cards/{id}"),
            Some(json!({"status": "active"})),
        ),
        (
            Method::Put,
            format!("/cards/{id}"),
            Some(json!({"metadata": {"a": 1}})),
        ),
        (Method::Delete, format!("/cards/{id}"), None),
        (
            Method::Post,
            format!("/cards/{id}/fund"),
            Some(json!({"debitAccountId": acct, "amount": 1})),
        ),
        (Method::Post, format!("/cards/{id}/token"), None),
        (Method::Get, format!("/cards/{id}/reveal?token=x"), None),
    ] {
        let (s, v) = app.call(method, &path, body);
        assert_eq!(
            (s, v["error"].as_str()),
            (409, Some("invalid_state")),
            "{method} {path}"
        );
    }
    // Its sealed PAN and CVV are gone.
    let vault_key = keys::sealed_card("alice", &id);
    assert_eq!(app.store.get(&vault_key).unwrap(), None);
}

#[test]
fn idempotent_funding_moves_money_once() {
    let mut app = App::new();
    let acct = app.account("100", "USD");
    let holder = app.holder();
    let (_, card) = app.issue(&acct, &holder, None);
    let id = card["data"]["_id"].as_str().unwrap().to_string();
    let fund = |app: &mut App, key: &str, amount: &str, api_key: &str| {
        let body = format!(r#"{{"debitAccountId":"{acct}","amount":{amount}}}"#);
        app.send(
            Request::new(Method::Post, &format!("/cards/{id}/fund"))
                .header("x-api-key", api_key)
                .header("content-type", "application/json")
                .header("Idempotency-Key", key)
                .body(body),
        )
    };
    let (s1, b1, r1) = fund(&mut app, "k1", "10", KEY_A);
    let (s2, b2, r2) = fund(&mut app, "k1", "10", KEY_A);
    assert_eq!((s1, s2), (200, 200));
    assert_eq!(b1, b2);
    assert_eq!(r1.header_value("idempotent-replayed"), None);
    assert_eq!(r2.header_value("idempotent-replayed"), Some("true"));
    assert_eq!(app.balance_of(&format!("/accounts/{acct}")), dec("90"));
    let (s3, b3, _) = fund(&mut app, "k1", "11", KEY_A);
    assert_eq!(
        (s3, b3["error"].as_str()),
        (409, Some("idempotency_conflict"))
    );
    // Keys are scoped per client: bob's "k1" is his own (and his request is a 404 on alice's card).
    let (s4, _, r4) = fund(&mut app, "k1", "10", KEY_B);
    assert_eq!(s4, 404);
    assert_eq!(r4.header_value("idempotent-replayed"), None);
    // After 24 hours the key is free again.
    app.env.advance_millis(24 * 3600 * 1000 + 1);
    let (s5, _, r5) = fund(&mut app, "k1", "11", KEY_A);
    assert_eq!((s5, r5.header_value("idempotent-replayed")), (200, None));
}

#[test]
fn token_then_reveal_with_the_injected_clock() {
    let mut app = App::new();
    let acct = app.account("0", "USD");
    let holder = app.holder();
    let (_, card) = app.issue(&acct, &holder, None);
    let id = card["data"]["_id"].as_str().unwrap().to_string();
    let (token, v) = app.token_and_reveal(&id);
    let pan = v["pan"].as_str().unwrap().to_string();
    assert!(crate::domain::vault::luhn_valid(&pan) && pan.starts_with('4'));
    assert_eq!(v["cvv"].as_str().unwrap().len(), 3);
    assert_eq!(v["expiryYear"], "2029");
    assert_eq!(card["data"]["last4"].as_str().unwrap(), &pan[12..]);
    // Single use.
    let (s, v) = app.call(
        Method::Get,
        &format!("/cards/{id}/reveal?token={token}"),
        None,
    );
    assert_eq!((s, v["error"].as_str()), (403, Some("invalid_token")));
    // Expiry follows the injected clock.
    let (_, t) = app.call(Method::Post, &format!("/cards/{id}/token"), None);
    let token = t["data"]["token"].as_str().unwrap().to_string();
    app.env.advance_millis(120_000);
    let (s, _) = app.call(
        Method::Get,
        &format!("/cards/{id}/reveal?token={token}"),
        None,
    );
    assert_eq!(s, 403);
    // Nothing in the store holds the PAN in clear.
    assert!(
        app.store
            .iter()
            .all(|(_, v)| !v.windows(16).any(|w| w == pan.as_bytes()))
    );
}

#[derive(Debug, Clone)]
enum Op {
    Issue {
        account: usize,
        amount: Option<u32>,
    },
    Fund {
        card: usize,
        account: usize,
        cents: u32,
    },
    Cancel {
        card: usize,
        to_other: bool,
    },
    Adjust {
        account: usize,
        cents: u32,
    },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0usize..3, proptest::option::of(1u32..80))
            .prop_map(|(account, amount)| Op::Issue { account, amount }),
        (0usize..8, 0usize..3, 1u32..5000).prop_map(|(card, account, cents)| Op::Fund {
            card,
            account,
            cents
        }),
        (0usize..8, any::<bool>()).prop_map(|(card, to_other)| Op::Cancel { card, to_other }),
        (0usize..3, 0u32..20000).prop_map(|(account, cents)| Op::Adjust { account, cents }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// Money is neither made nor lost: account plus card balances always equal the adjustments made,
    /// each account balance equals the sum of its ledger entries, and nothing goes negative.
    #[test]
    fn money_is_conserved(ops in proptest::collection::vec(op(), 1..30)) {
        let mut app = App::new();
        let accounts: Vec<String> = (0..3).map(|_| app.account("50", "USD")).collect();
        let holder = app.holder();
        let mut cards: Vec<String> = Vec::new();
        let mut adjustments = dec("150");
        for op in ops {
            match op {
                Op::Issue { account, amount } => {
                    let a = amount.map(|a| a.to_string());
                    let (s, v) = app.issue(&accounts[account], &holder, a.as_deref());
                    prop_assert!(s == 201 || s == 422, "{v}");
                    if s == 201 { cards.push(v["data"]["_id"].as_str().unwrap().to_string()); }
                }
                Op::Fund { card, account, cents } if card < cards.len() => {
                    let body = json!({"debitAccountId": accounts[account],
                        "amount": decimal_json(Decimal::new(cents.into(), 2))});
                    let (s, v) = app.call(Method::Post, &format!("/cards/{}/fund", cards[card]), Some(body));
                    prop_assert!(matches!(s, 200 | 409 | 422), "{v}");
                }
                Op::Cancel { card, to_other } if card < cards.len() => {
                    let mut body = json!({"status": "canceled", "cancellationReason": "stolen"});
                    if to_other { body["creditAccountId"] = json!(accounts[2]); }
                    let (s, v) = app.call(Method::Put, &format!("/cards/{}", cards[card]), Some(body));
                    prop_assert!(matches!(s, 200 | 409), "{v}");
                }
                Op::Adjust { account, cents } => {
                    let before = app.balance_of(&format!("/accounts/{}", accounts[account]));
                    let target = Decimal::new(cents.into(), 2);
                    let (s, _) = app.call(Method::Put, &format!("/accounts/{}", accounts[account]),
                        Some(json!({"balance": decimal_json(target)})));
                    prop_assert_eq!(s, 200);
                    adjustments += target - before;
                }
                _ => {}
            }
            let mut total = Decimal::ZERO;
            for a in &accounts {
                let b = app.balance_of(&format!("/accounts/{a}"));
                prop_assert!(b >= Decimal::ZERO);
                let entries: Vec<Entry> = codec::scan(&mut app.store, &keys::records("alice", keys::Kind::LedgerEntry))
                    .unwrap()
                    .into_iter()
                    .filter(|e: &Entry| e.account_id == *a)
                    .collect();
                let sum: Decimal = entries.iter().map(|e| e.amount).sum();
                prop_assert_eq!(sum, b);
                total += b;
            }
            for c in &cards {
                let b = app.balance_of(&format!("/cards/{c}"));
                prop_assert!(b >= Decimal::ZERO);
                total += b;
            }
            prop_assert_eq!(total, adjustments);
        }
    }
}

/// Every key and value of the store.
fn snapshot(store: &mut crate::storage::MemStore) -> Vec<(Vec<u8>, Vec<u8>)> {
    crate::storage::scan_prefix(store, &[]).unwrap()
}

impl App {
    /// The service started again with only `key` for the vault (the old key removed after a
    /// rotation), the same API keys.
    fn restart_with_vault_key(&mut self, key: [u8; 32]) {
        let mut api_keys = crate::domain::api_keys::ConfiguredKeys::default();
        api_keys.add(KEY_A, "alice").unwrap();
        api_keys.add(KEY_B, "bob").unwrap();
        let config = crate::Config {
            api_keys,
            vault_key: Some(key),
            ..crate::Config::default()
        };
        self.service = crate::Service::new(config, &self.env);
    }
}

impl App {
    fn authorize(&mut self, card: &str, amount: u32, merchant: Value) -> String {
        let body = json!({"amount": amount, "channel": "pos", "merchant": merchant});
        let (s, v) = self.call(
            Method::Post,
            &format!("/cards/{card}/authorizations"),
            Some(body),
        );
        assert_eq!(s, 201, "{v}");
        v["data"]["_id"].as_str().unwrap().to_string()
    }

    fn spent(&mut self, card: &str) -> Vec<Decimal> {
        let (s, v) = self.call(Method::Get, &format!("/cards/{card}/spending"), None);
        assert_eq!(s, 200, "{v}");
        let limits = v["data"].as_array().unwrap();
        limits.iter().map(|l| money(&l["spent"]).unwrap()).collect()
    }
}

/// A store with spend of every shape: purchases in several (category, MCC) pairs and periods, a
/// partial capture, a whole reversal, a decline, a refund, a hold settled as expired and one expired by
/// the clock on a card nothing has written to since. Returns the account, and the card with limits.
fn spend_fixture(app: &mut App) -> (String, String) {
    let acct = app.account("1000", "USD");
    let holder = app.holder();
    let (s, card) = app.issue(&acct, &holder, Some("300"));
    assert_eq!(s, 201, "{card}");
    let card = card["data"]["_id"].as_str().unwrap().to_string();
    let limits = json!({"spendingControls": {"spendingLimits": [
        {"amount": 80, "interval": "daily", "categories": ["airlines"]},
        {"amount": 100, "interval": "monthly", "categories": ["airlines", "4511"]},
        {"amount": 500, "interval": "all_time"},
    ]}});
    let (s, v) = app.call(Method::Put, &format!("/cards/{card}"), Some(limits));
    assert_eq!(s, 200, "{v}");
    let (_, other) = app.issue(&acct, &holder, Some("100"));
    let other = other["data"]["_id"].as_str().unwrap().to_string();

    let grocery = app.authorize(
        &card,
        50,
        json!({"name": "Shop", "category": "grocery_stores", "mcc": "5411"}),
    );
    let flight = json!({"name": "Air", "category": "airlines", "mcc": "4511"});
    app.authorize(&card, 30, flight.clone());
    let reversed = app.authorize(&card, 10, json!({"name": "Air", "category": "airlines"}));
    app.authorize(&card, 5, json!({"name": "Unnamed"}));
    let mcc_only = app.authorize(&card, 20, json!({"name": "Air", "mcc": "4511"}));
    app.authorize(&other, 40, flight.clone());
    for (path, body) in [
        (
            format!("/authorizations/{grocery}/capture"),
            json!({"amount": 20}),
        ),
        (
            format!("/authorizations/{grocery}/refund"),
            json!({"amount": 5}),
        ),
        (format!("/authorizations/{reversed}/reverse"), json!({})),
        (format!("/authorizations/{mcc_only}/capture"), json!({})),
    ] {
        let (s, v) = app.call(Method::Post, &path, Some(body));
        assert_eq!(s, 200, "{v}");
    }
    // Past the 7-day lifetime: the card's next write settles its expired holds; `other` keeps its
    // hold stored as pending.
    app.env.advance_millis(8 * 24 * 3600 * 1000);
    app.authorize(&card, 7, flight);
    let (s, v) = app.call(
        Method::Post,
        &format!("/cards/{card}/authorizations"),
        Some(json!({"amount": 100, "channel": "pos", "merchant": {"name": "Air", "category": "airlines"}})),
    );
    assert_eq!(
        (s, v["data"]["declineReason"].as_str()),
        (201, Some("spending_limit"))
    );
    (acct, card)
}

/// Format 2 and 3's spend totals: one per card, interval and period for every purchase, whatever its
/// merchant. Rewrites the store's spend totals that way, from its authorizations.
fn write_format_3_spend_totals(store: &mut crate::storage::MemStore) {
    use crate::domain::authorizations::{Authorization, spend};
    use crate::domain::cards::Interval;
    #[derive(serde::Serialize, serde::Deserialize)]
    struct SpendTotal {
        #[serde(with = "crate::storage::codec::money")]
        amount: Decimal,
    }
    impl codec::Record for SpendTotal {
        const VERSION: u8 = 1;
        const NAME: &'static str = "spend total";
    }
    for (k, _) in crate::storage::scan_prefix(store, &keys::tagged("sp")).unwrap() {
        store.delete(&k).unwrap();
    }
    let auths: Vec<Authorization> =
        codec::scan(store, &keys::records("alice", keys::Kind::Authorization)).unwrap();
    for a in auths.iter().filter(|a| a.approved) {
        for interval in ["daily", "weekly", "monthly", "yearly", "all_time"] {
            let start = spend::period_start(Interval::parse(interval).unwrap(), a.created_at)
                .map_or(0, |t| t.millis());
            let key = [
                b"sp\0alice\0".as_slice(),
                a.card_id.as_bytes(),
                b"\0",
                interval.as_bytes(),
                b"\0",
                &start.to_be_bytes(),
            ]
            .concat();
            let before = codec::get::<SpendTotal>(store, &key)
                .unwrap()
                .map_or(Decimal::ZERO, |t| t.amount);
            let amount = (before + a.pending_amount + a.captured_amount).normalize();
            codec::put(store, &key, &SpendTotal { amount }).unwrap();
        }
    }
}

/// Opens `app`'s store (in an older format) and checks it then equals `current` key for key.
fn upgrade_and_compare(app: &mut App, current: &[(Vec<u8>, Vec<u8>)]) {
    assert_ne!(snapshot(&mut app.store), current);
    crate::Service::open_store(&mut app.store).unwrap();
    let upgraded = snapshot(&mut app.store);
    let show = |kv: &(Vec<u8>, Vec<u8>)| String::from_utf8_lossy(&kv.0).into_owned();
    let missing: Vec<String> = current
        .iter()
        .filter(|kv| !upgraded.contains(kv))
        .map(show)
        .collect();
    let extra: Vec<String> = upgraded
        .iter()
        .filter(|kv| !current.contains(kv))
        .map(show)
        .collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "missing {missing:?}, extra {extra:?}"
    );
}

/// Format 4 and older had no range indexes, kept range values, queue of holds by expiry or index
/// of cards' `last4`.
fn delete_range_indexes(store: &mut crate::storage::MemStore) {
    for prefix in [
        &b"i\0alice\0card\0last4\0"[..],
        &b"c\0alice\0card\0last4\0"[..],
    ] {
        let entries = crate::storage::scan_prefix(store, prefix).unwrap();
        assert!(!entries.is_empty());
        for (k, _) in entries {
            store.delete(&k).unwrap();
        }
    }
    for tag in ["r", "rc", "hq"] {
        let entries = crate::storage::scan_prefix(store, &keys::tagged(tag)).unwrap();
        assert!(!entries.is_empty(), "no {tag} keys");
        for (k, _) in entries {
            store.delete(&k).unwrap();
        }
    }
}

#[test]
fn a_format_4_store_upgrades_to_exactly_what_this_release_writes() {
    let mut app = App::new();
    spend_fixture(&mut app);
    crate::storage::format::stamp(&mut app.store).unwrap();
    let current = snapshot(&mut app.store);
    delete_range_indexes(&mut app.store);
    app.store
        .put(&keys::format_version(), &4u32.to_be_bytes())
        .unwrap();
    upgrade_and_compare(&mut app, &current);
    // The range indexes answer again: the richest account first.
    let (s, v) = app.call(Method::Get, "/accounts?sort=-balance&limit=1", None);
    assert_eq!(s, 200, "{v}");
    let (_, all) = app.call(Method::Get, "/accounts?limit=100", None);
    let richest = all["data"]
        .as_array()
        .unwrap()
        .iter()
        .max_by_key(|a| {
            (
                dec(&a["balance"].to_string()),
                a["_id"].as_str().map(str::to_string),
            )
        })
        .cloned()
        .unwrap();
    assert_eq!(v["data"][0]["_id"], richest["_id"], "{v}");
    assert_eq!(v["meta"]["total"], all["meta"]["total"]);
    // Cards by what they can spend, one with a hold lapsed by the clock but still stored: the same
    // order and totals as sorting every card.
    let (_, all) = app.call(Method::Get, "/cards?limit=100", None);
    let mut cards: Vec<(Decimal, String)> = all["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                dec(&c["balance"].to_string()),
                c["_id"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    cards.sort();
    cards.reverse();
    let (s, v) = app.call(Method::Get, "/cards?sort=-availableBalance", None);
    assert_eq!(s, 200, "{v}");
    let got: Vec<&str> = data_ids(&v);
    let want: Vec<&str> = cards.iter().map(|(_, id)| id.as_str()).collect();
    assert_eq!(got, want);
    for (b, _) in &cards {
        let (s, v) = app.call(Method::Get, &format!("/cards?balance.gte={b}"), None);
        assert_eq!(s, 200, "{v}");
        let n = cards.iter().filter(|(c, _)| c >= b).count();
        assert_eq!(v["meta"]["total"].as_u64(), Some(n as u64), "{v}");
    }
}

/// Turns a store this release wrote into what format 5 wrote: no compound range parts (cards'
/// kept index of what they can spend, per status) and no gram indexes (`<field>#3`) or their
/// counts. The numbers of compound and gram keys removed.
fn make_format_5(store: &mut crate::storage::MemStore) -> (usize, usize) {
    let (mut parts, mut grams) = (0, 0);
    for (k, _) in snapshot(store) {
        let p = keys::text_parts(&k);
        if matches!(p[0], b"r" | b"rc")
            && p.get(3)
                .is_some_and(|f| f.starts_with(b"available@status="))
        {
            store.delete(&k).unwrap();
            parts += 1;
        } else if matches!(p[0], b"i" | b"c") && p.get(3).is_some_and(|f| f.ends_with(b"#3")) {
            store.delete(&k).unwrap();
            grams += 1;
        }
    }
    store
        .put(&keys::format_version(), &5u32.to_be_bytes())
        .unwrap();
    (parts, grams)
}

#[test]
fn a_format_5_store_gets_compound_range_parts() {
    let mut app = App::new();
    let (acct, card) = spend_fixture(&mut app);
    // Cards of two statuses, so two compound parts; one card with a lapsed hold still stored.
    let holder = app.holder();
    let (_, paused) = app.issue(&acct, &holder, Some("40"));
    let paused = paused["data"]["_id"].as_str().unwrap().to_string();
    let (s, v) = app.call(
        Method::Put,
        &format!("/cards/{paused}"),
        Some(json!({"status": "inactive"})),
    );
    assert_eq!(s, 200, "{v}");
    crate::storage::format::stamp(&mut app.store).unwrap();
    let current = snapshot(&mut app.store);
    let (parts, _) = make_format_5(&mut app.store);
    assert!(parts > 4, "{parts}");
    upgrade_and_compare(&mut app, &current);
    // A status and a range walk one part: the same cards, order and total as a full sort.
    let (_, all) = app.call(Method::Get, "/cards?limit=100", None);
    for status in ["active", "inactive"] {
        let mut want: Vec<(Decimal, String)> = all["data"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["status"] == status && dec(&c["balance"].to_string()) >= dec("1"))
            .map(|c| {
                let id = c["_id"].as_str().unwrap().to_string();
                (dec(&c["balance"].to_string()), id)
            })
            .collect();
        want.sort();
        want.reverse();
        let (s, v) = app.call(
            Method::Get,
            &format!("/cards?status={status}&balance.gte=1&sort=-balance"),
            None,
        );
        assert_eq!(s, 200, "{v}");
        assert_eq!(v["meta"]["total"].as_u64(), Some(want.len() as u64), "{v}");
        let got: Vec<&str> = data_ids(&v);
        let want: Vec<&str> = want.iter().map(|(_, id)| id.as_str()).collect();
        assert_eq!(got, want);
    }
    // An `in` over statuses and a range: the total from both parts (each corrected for the lapsed
    // hold), the page from the whole index; the same as a full sort.
    for (query, statuses, low) in [
        (
            "status.in=active,inactive&balance.gte=1",
            &["active", "inactive"][..],
            "1",
        ),
        (
            "status.in=inactive,canceled&balance.gte=0",
            &["inactive", "canceled"],
            "0",
        ),
        ("status.in=active&balance.gte=-1000", &["active"], "-1000"),
    ] {
        let mut want: Vec<(Decimal, String)> = all["data"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| statuses.iter().any(|s| c["status"] == *s))
            .filter(|c| dec(&c["balance"].to_string()) >= dec(low))
            .map(|c| {
                let id = c["_id"].as_str().unwrap().to_string();
                (dec(&c["balance"].to_string()), id)
            })
            .collect();
        assert!(!want.is_empty(), "{query}");
        want.sort();
        want.reverse();
        let (s, v) = app.call(Method::Get, &format!("/cards?{query}&sort=-balance"), None);
        assert_eq!(s, 200, "{v}");
        assert_eq!(
            v["meta"]["total"].as_u64(),
            Some(want.len() as u64),
            "{query}: {v}"
        );
        let got: Vec<&str> = data_ids(&v);
        let want: Vec<&str> = want.iter().map(|(_, id)| id.as_str()).collect();
        assert_eq!(got, want, "{query}");
    }
    assert!(v_contains(&all, &card) && v_contains(&all, &paused));
}

/// Format 8 wrote cards' entries in the kept range index of what they can spend (the whole
/// index and its status parts) with empty values; format 9 gives each its card's cover.
#[test]
fn a_format_8_store_gets_covered_range_entries() {
    let mut app = App::new();
    let (acct, card) = spend_fixture(&mut app);
    // A canceled card (its cover says so) and a card with a hold stored (its cover's amount is
    // its balance less the hold).
    let holder = app.holder();
    let (_, gone) = app.issue(&acct, &holder, Some("7"));
    let gone = gone["data"]["_id"].as_str().unwrap().to_string();
    let (s, v) = app.call(Method::Delete, &format!("/cards/{gone}"), None);
    assert_eq!(s, 200, "{v}");
    crate::storage::format::stamp(&mut app.store).unwrap();
    let current = snapshot(&mut app.store);
    let mut emptied = 0;
    for (k, v) in snapshot(&mut app.store) {
        let p = keys::text_parts(&k);
        if p[0] == b"r" && p.get(2) == Some(&&b"card"[..]) && p[3].starts_with(b"available") {
            assert!(!v.is_empty(), "{}", String::from_utf8_lossy(&k));
            app.store.put(&k, &[]).unwrap();
            emptied += 1;
        }
    }
    // Every card in the whole index and in its status's part.
    let records = keys::records("alice", keys::Kind::Card);
    let cards = crate::storage::scan_prefix(&mut app.store, &records).unwrap();
    assert_eq!(emptied, cards.len() * 2);
    app.store
        .put(&keys::format_version(), &8u32.to_be_bytes())
        .unwrap();
    // Read without covers first: the entries are read whole, with the same answers.
    let queries = [
        "/cards?status=canceled&balance.gte=0&sort=-balance",
        "/cards?brand=Visa&balance.gte=0&sort=-balance",
        "/cards?balance.lt=1000",
    ];
    let before: Vec<Value> = queries
        .iter()
        .map(|q| app.call(Method::Get, q, None).1)
        .collect();
    upgrade_and_compare(&mut app, &current);
    for (q, was) in queries.iter().zip(before) {
        let (s, v) = app.call(Method::Get, q, None);
        assert_eq!(s, 200, "{v}");
        assert_eq!(v["data"], was["data"], "{q}");
        assert_eq!(v["meta"]["total"], was["meta"]["total"], "{q}");
        assert!(v["meta"]["total"].as_u64() > Some(0), "{q}: {v}");
    }
    assert!(!card.is_empty());
}

fn v_contains(list: &Value, id: &str) -> bool {
    list["data"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["_id"] == id)
}

#[test]
fn a_format_3_store_upgrades_to_exactly_what_this_release_writes() {
    let mut app = App::new();
    let (_, card) = spend_fixture(&mut app);
    crate::storage::format::stamp(&mut app.store).unwrap();
    let current = snapshot(&mut app.store);
    let spent = app.spent(&card);
    // Daily on airlines: the 7 of today. Monthly on airlines or MCC 4511: the 20 captured and the 7
    // (airlines and 4511, counted once); the 30 and the 5 expired, the 10 was reversed, groceries are
    // not theirs. Every purchase, all time: the grocery capture of 20, the 20 and the 7.
    assert_eq!(spent, [dec("7"), dec("27"), dec("47")]);

    write_format_3_spend_totals(&mut app.store);
    delete_range_indexes(&mut app.store);
    app.store
        .put(&keys::format_version(), &3u32.to_be_bytes())
        .unwrap();
    upgrade_and_compare(&mut app, &current);
    assert_eq!(app.spent(&card), spent);
}

#[test]
fn a_format_2_store_upgrades_to_exactly_what_this_release_writes() {
    let mut app = App::new();
    let (acct, card) = spend_fixture(&mut app);
    crate::storage::format::stamp(&mut app.store).unwrap();
    let current = snapshot(&mut app.store);
    let spent = app.spent(&card);

    // Format 2's layout: no index entries or counts but authorizations and card transactions by
    // card in id order, ledger entries under `l 0 client 0 account 0 id`, and format 3's spend totals.
    write_format_3_spend_totals(&mut app.store);
    let key = |parts: &[&str]| parts.join("\0").into_bytes();
    for (k, v) in snapshot(&mut app.store) {
        let parts: Vec<String> = keys::text_parts(&k)
            .iter()
            .map(|p| String::from_utf8_lossy(p).into_owned())
            .collect();
        match parts.first().map(String::as_str) {
            Some("i" | "c" | "r" | "rc" | "hq") => app.store.delete(&k).unwrap(),
            Some("p") if parts[2] == "ledger" => {
                let e: Entry = codec::decode(&v).unwrap();
                app.store.delete(&k).unwrap();
                app.store
                    .put(&key(&["l", &parts[1], &e.account_id, &e.id]), &v)
                    .unwrap();
            }
            Some("p") if parts[2] == "authz" || parts[2] == "cardtx" => {
                let id = &parts[3];
                let card = if parts[2] == "authz" {
                    let a: crate::domain::authorizations::Authorization =
                        codec::decode(&v).unwrap();
                    a.card_id
                } else {
                    let t: crate::domain::authorizations::transactions::CardTransaction =
                        codec::decode(&v).unwrap();
                    t.card_id
                };
                app.store
                    .put(&key(&["i", &parts[1], &parts[2], "cardId", &card, id]), b"")
                    .unwrap();
            }
            _ => {}
        }
    }
    app.store
        .put(&keys::format_version(), &2u32.to_be_bytes())
        .unwrap();
    upgrade_and_compare(&mut app, &current);
    assert_eq!(app.spent(&card), spent);
    // The opening balance, and the two cards' funding.
    let (s, v) = app.call(Method::Get, &format!("/accounts/{acct}/transactions"), None);
    assert_eq!((s, v["meta"]["total"].as_u64()), (200, Some(3)), "{v}");
}

#[test]
fn a_format_5_store_gets_gram_indexes() {
    let mut app = App::new();
    spend_fixture(&mut app);
    let body = json!({"name": "\u{212A}urt Gödel", "person": {"firstName": "Kurt", "lastName": "GÖDEL",
        "email": "kurt@ias.edu", "phoneNumber": "+2348012345678"}});
    let (s, v) = app.call(Method::Post, "/card-holders", Some(body));
    assert_eq!(s, 201, "{v}");
    // A transfer and a webhook endpoint: their kinds have gram indexes too.
    let (from, to) = (app.account("50", "USD"), app.account("0", "USD"));
    let body = json!({"debitAccountId": from, "creditAccountId": to, "amount": 5,
        "narration": "Rent for März", "reference": "inv-77"});
    let (s, v) = app.call(Method::Post, "/accounts/transfers", Some(body));
    assert_eq!(s, 201, "{v}");
    let body = json!({"url": "https://example.com/hooks", "description": "Ledger sync", "enabledEvents": ["*"]});
    let (s, v) = app.call(Method::Post, "/webhook-endpoints", Some(body));
    assert_eq!(s, 201, "{v}");
    crate::storage::format::stamp(&mut app.store).unwrap();
    let current = snapshot(&mut app.store);
    let (_, grams) = make_format_5(&mut app.store);
    assert!(grams > 0);
    upgrade_and_compare(&mut app, &current);
    // The indexes answer: case variants (the Kelvin sign, ö and Ö) find the same holders.
    for (search, n) in [
        ("kurt", 1),
        ("KURT", 1),
        ("gödel", 1),
        ("GÖD", 1),
        ("lovelace|ias", 2),
    ] {
        let search: String = form_urlencoded::byte_serialize(search.as_bytes()).collect();
        let (s, v) = app.call(Method::Get, &format!("/card-holders?search={search}"), None);
        assert_eq!(
            (s, v["meta"]["total"].as_u64()),
            (200, Some(n)),
            "{search}: {v}"
        );
    }
    for (path, n) in [
        ("/accounts/transfers?search=M%C3%84RZ", 1),
        ("/accounts/transfers?search=inv-7", 1),
        ("/webhook-endpoints?search=ledger", 1),
        ("/webhook-endpoints?search=nothing", 0),
    ] {
        let (s, v) = app.call(Method::Get, path, None);
        assert_eq!(
            (s, v["meta"]["total"].as_u64()),
            (200, Some(n)),
            "{path}: {v}"
        );
    }
}

/// The gram keys of the store (entries and counts).
fn gram_keys(store: &mut crate::storage::MemStore) -> Vec<(Vec<u8>, Vec<u8>)> {
    snapshot(store)
        .into_iter()
        .filter(|(k, _)| {
            let parts = keys::text_parts(k);
            matches!(parts[0], b"i" | b"c") && parts.get(3).is_some_and(|f| f.ends_with(b"#3"))
        })
        .collect()
}

/// An update moves only the grams that came or went: the gram keys after it are exactly those a
/// fresh insert of the updated holder writes, counts included, and searches follow the new text.
#[test]
fn a_holder_update_moves_its_grams() {
    let mut app = App::new();
    let id = app.holder();
    let other = app.holder();
    let body = json!({"name": "Grace Hopper", "person": {"firstName": "Grace", "lastName": "Lovelace",
        "email": "grace@navy.mil", "phoneNumber": "+2348012345678"}});
    let (s, v) = app.call(Method::Put, &format!("/card-holders/{id}"), Some(body));
    assert_eq!(s, 200, "{v}");
    let after = gram_keys(&mut app.store);
    for (k, _) in &after {
        app.store.delete(k).unwrap();
    }
    for holder in [&id, &other] {
        let h: crate::domain::card_holders::CardHolder =
            crate::storage::table::get(&mut app.store, "alice", holder)
                .unwrap()
                .unwrap();
        crate::storage::table::index_texts(&mut app.store, "alice", &h).unwrap();
    }
    assert_eq!(gram_keys(&mut app.store), after);
    for (search, n) in [
        ("grace", 1),
        ("lovelace", 2),
        ("ada", 1),
        ("navy|example", 2),
    ] {
        let (s, v) = app.call(Method::Get, &format!("/card-holders?search={search}"), None);
        assert_eq!(
            (s, v["meta"]["total"].as_u64()),
            (200, Some(n)),
            "{search}: {v}"
        );
    }
}

/// Range filters and sorts over the stored indexes answer what filtering and sorting every record
/// gives: accounts made a second apart, with balances that repeat.
#[test]
fn range_queries_over_the_store_match_the_whole_list() {
    let mut app = App::new();
    for i in 0..40 {
        app.account(&format!("{}.5", (i * 7) % 11), "USD");
        app.env.advance_millis(1000);
    }
    let (_, all) = app.call(Method::Get, "/accounts?limit=200&sort=createdAt", None);
    let all = all["data"].as_array().unwrap().clone();
    let created = |i: usize| all[i]["createdAt"].as_str().unwrap().to_string();
    let ids = |v: &serde_json::Value| -> Vec<String> {
        v["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["_id"].as_str().unwrap().to_string())
            .collect()
    };
    let by = |pred: &dyn Fn(&serde_json::Value) -> bool| -> Vec<String> {
        all.iter()
            .filter(|a| pred(a))
            .map(|a| a["_id"].as_str().unwrap().to_string())
            .collect()
    };
    // createdAt spans: wide (walked in order) and narrow (read whole).
    for (query, lo, hi) in [
        (format!("createdAt.gte={}", created(5)), 5, 40),
        (
            format!("createdAt.between={}|{}", created(30), created(32)),
            30,
            33,
        ),
    ] {
        let q = format!(
            "/accounts?limit=200&sort=createdAt&{}",
            query.replace('+', "%2B")
        );
        let (s, v) = app.call(Method::Get, &q, None);
        assert_eq!(s, 200, "{v}");
        let want: Vec<String> = all[lo..hi]
            .iter()
            .map(|a| a["_id"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(ids(&v), want, "{q}");
        assert_eq!(v["meta"]["total"].as_u64(), Some(want.len() as u64));
    }
    // Balances: a range and a sort, ties broken on the id in the sort's direction.
    let (s, v) = app.call(
        Method::Get,
        "/accounts?limit=200&balance.gte=5&sort=-balance",
        None,
    );
    assert_eq!(s, 200, "{v}");
    let mut want: Vec<(Decimal, String)> = all
        .iter()
        .map(|a| {
            (
                dec(&a["balance"].to_string()),
                a["_id"].as_str().unwrap().to_string(),
            )
        })
        .filter(|(b, _)| *b >= dec("5"))
        .collect();
    want.sort();
    want.reverse();
    assert_eq!(
        ids(&v),
        want.iter().map(|(_, id)| id.clone()).collect::<Vec<_>>()
    );
    assert_eq!(v["meta"]["total"].as_u64(), Some(want.len() as u64));
    let narrow = by(&|a| dec(&a["balance"].to_string()) < dec("1"));
    let (_, v) = app.call(
        Method::Get,
        "/accounts?limit=200&balance.lt=1&sort=createdAt",
        None,
    );
    assert_eq!(ids(&v), narrow);
}

/// A search on `last4` alone is answered from the `last4` index, value by value: the same cards
/// and total as matching every card's `last4`.
#[test]
fn a_last4_search_matches_what_every_card_would() {
    let mut app = App::new();
    let acct = app.account("1000", "USD");
    let holder = app.holder();
    for _ in 0..30 {
        let (s, v) = app.issue(&acct, &holder, None);
        assert_eq!(s, 201, "{v}");
    }
    let (_, all) = app.call(Method::Get, "/cards?limit=200", None);
    let all = all["data"].as_array().unwrap().clone();
    for pattern in ["1", "^9", "0$", "[0-3]{2}", "x", "."] {
        let re = regex::RegexBuilder::new(pattern)
            .case_insensitive(true)
            .build()
            .unwrap();
        let want: Vec<&str> = all
            .iter()
            .filter(|c| re.is_match(c["last4"].as_str().unwrap()))
            .map(|c| c["_id"].as_str().unwrap())
            .collect();
        let query: String = form_urlencoded::byte_serialize(pattern.as_bytes()).collect();
        for limit in [200, 3] {
            let (s, v) = app.call(
                Method::Get,
                &format!("/cards?search={query}&searchIn=last4&limit={limit}"),
                None,
            );
            assert_eq!(s, 200, "{v}");
            let got: Vec<&str> = data_ids(&v);
            assert_eq!(
                got,
                want.iter().copied().take(limit).collect::<Vec<_>>(),
                "{pattern}"
            );
            assert_eq!(
                v["meta"]["total"].as_u64(),
                Some(want.len() as u64),
                "{pattern}"
            );
        }
    }
}

/// A vault rotation re-seals card data and every client's endpoint secrets (current and previous),
/// after which the old key can go: a service with the new key alone reveals every card and opens
/// every secret.
#[test]
fn a_rotation_reseals_cards_and_endpoint_secrets_then_frees_the_old_key() {
    use std::collections::BTreeMap;

    use crate::domain::authorizations::endpoint as decision_endpoints;
    use crate::domain::rotation;
    use crate::domain::vault::Vault;
    use crate::domain::webhooks::endpoints as webhook_endpoints;
    use crate::domain::{IdGen, Scope};
    use crate::env::Env;
    use crate::storage::table;

    let mut app = App::new();
    let acct = app.account("0", "USD");
    let holder = app.holder();
    let reveal = |app: &mut App, id: &str| {
        let (_, v) = app.token_and_reveal(id);
        (v["pan"].to_string(), v["cvv"].to_string())
    };
    let mut cards = Vec::new();
    for _ in 0..5 {
        let (s, v) = app.issue(&acct, &holder, None);
        assert_eq!(s, 201, "{v}");
        cards.push(v["data"]["_id"].as_str().unwrap().to_string());
    }
    let before: Vec<_> = cards.iter().map(|c| reveal(&mut app, c)).collect();
    let endpoint = |app: &mut App, key: &str, url: &str| {
        let body = json!({"url": url, "enabledEvents": ["*"]});
        let (s, v) = app.json_as(key, Method::Post, "/webhook-endpoints", Some(body));
        assert_eq!(s, 201, "{v}");
        v["data"]["_id"].as_str().unwrap().to_string()
    };
    let alice_hook = endpoint(&mut app, KEY_A, "https://example.com/a");
    let bob_hook = endpoint(&mut app, KEY_B, "https://example.com/b");
    let (s, v) = app.call(
        Method::Post,
        &format!("/webhook-endpoints/{alice_hook}/rotate-secret"),
        None,
    );
    assert_eq!(s, 200, "{v}");
    let alice_whsec = v["data"]["secret"].as_str().unwrap().to_string();
    let body = json!({"url": "https://example.com/decide"});
    let (s, v) = app.call(Method::Put, "/authorization-endpoint", Some(body));
    assert!(s == 200 || s == 201, "{v}");
    let (s, v) = app.call(Method::Post, "/authorization-endpoint/rotate-secret", None);
    assert_eq!(s, 200, "{v}");
    let decision_secret = v["data"]["secret"].as_str().unwrap().to_string();

    let (old_key, new_key) = ([42u8; 32], [7u8; 32]);
    let old_id = Vault::new(&old_key).active_id().to_string();
    let rotating = Vault::with_keys(&new_key, &[old_key]);
    let new_id = rotating.active_id().to_string();
    assert!(rotating.needs_rotation(&mut app.store).unwrap());
    // 5 cards; the PAN-index key; alice's hook (current and previous), bob's hook, alice's
    // decision endpoint (both).
    assert_eq!(
        rotation::entries_per_key(&mut app.store).unwrap(),
        BTreeMap::from([(old_id.clone(), 11)])
    );
    let mut steps = 0;
    let mut resealed = 0;
    loop {
        let step = rotation::step(&mut app.store, &app.env, &rotating, 2).unwrap();
        steps += 1;
        resealed += step.resealed;
        if step.done {
            break;
        }
    }
    assert_eq!((steps, resealed), (3, 11));
    assert_eq!(
        rotation::entries_per_key(&mut app.store).unwrap(),
        BTreeMap::from([(new_id.clone(), 11)])
    );
    // Again: nothing left to do.
    let again = rotation::step(&mut app.store, &app.env, &rotating, 100).unwrap();
    assert_eq!((again.resealed, again.done), (0, true));
    assert_eq!(
        rotation::left_under_other_keys(&mut app.store, &rotating).unwrap(),
        0
    );
    rotating.retire_others(&mut app.store).unwrap();
    assert!(!rotating.needs_rotation(&mut app.store).unwrap());

    // The new key alone.
    let alone = Vault::new(&new_key);
    alone.check_key(&mut app.store).unwrap();
    assert!(Vault::new(&old_key).check_key(&mut app.store).is_err());
    let now = app.env.now();
    for (client, id, expect) in [
        ("alice", &alice_hook, Some(&alice_whsec)),
        ("bob", &bob_hook, None),
    ] {
        let e: webhook_endpoints::Endpoint =
            table::get(&mut app.store, client, id).unwrap().unwrap();
        let secrets = webhook_endpoints::signing_secrets(&alone, &e, now).unwrap();
        assert_eq!(secrets.len(), if expect.is_some() { 2 } else { 1 });
        if let Some(whsec) = expect {
            assert_eq!(&secrets[0].to_whsec(), whsec);
        }
    }
    let ids = IdGen::new(&app.env);
    let s = Scope {
        tx: &mut app.store,
        client: "alice",
        now,
        ids: &ids,
        env: &app.env,
    };
    let mut s = s;
    let e = decision_endpoints::find(&mut s).unwrap();
    let secrets = decision_endpoints::signing_secrets(&s, &alone, &e).unwrap();
    assert_eq!((secrets.len(), &secrets[0]), (2, &decision_secret));
    app.restart_with_vault_key(new_key);
    let after: Vec<_> = cards.iter().map(|c| reveal(&mut app, c)).collect();
    assert_eq!(after, before);
}

/// A rotation step read and sealed ahead of its write (as the server plans it on a snapshot) writes
/// only what is still as read: a card canceled in between is skipped, the same plan written twice
/// re-seals nothing the second time, and a plan whose resume point moved is read again in the write.
#[test]
fn a_planned_rotation_step_writes_only_what_is_still_as_read() {
    use std::collections::BTreeMap;

    use crate::domain::rotation;
    use crate::domain::vault::Vault;

    let mut app = App::new();
    let acct = app.account("0", "USD");
    let other = app.account("0", "USD");
    let holder = app.holder();
    let mut cards = Vec::new();
    for _ in 0..4 {
        let (s, v) = app.issue(&acct, &holder, None);
        assert_eq!(s, 201, "{v}");
        cards.push(v["data"]["_id"].as_str().unwrap().to_string());
    }
    let reveal = |app: &mut App, id: &str| app.token_and_reveal(id).1["pan"].to_string();
    let before: Vec<_> = cards.iter().map(|c| reveal(&mut app, c)).collect();
    let (old_key, new_key) = ([42u8; 32], [7u8; 32]);
    let rotating = Vault::with_keys(&new_key, &[old_key]);
    let new_id = rotating.active_id().to_string();

    // A plan of the first card alone, made stale by a step that rotates it first.
    let stale = rotation::plan(&mut app.store, &app.env, &rotating, 1).unwrap();
    let first = rotation::step(&mut app.store, &app.env, &rotating, 1).unwrap();
    assert_eq!((first.scanned, first.resealed, first.done), (1, 1, false));
    // Written, it reads from where the step stopped: the second card.
    let second = rotation::apply(&mut app.store, &app.env, &rotating, &stale, 1).unwrap();
    assert_eq!(
        (second.scanned, second.resealed, second.done),
        (1, 1, false)
    );

    // The rest planned, then the third card canceled (its sealed data destroyed) before the write.
    let plan = rotation::plan(&mut app.store, &app.env, &rotating, 10).unwrap();
    let (s, v) = app.call(
        Method::Put,
        &format!("/cards/{}", cards[2]),
        Some(json!({"status": "canceled", "cancellationReason": "lost", "creditAccountId": other})),
    );
    assert_eq!(s, 200, "{v}");
    let rest = rotation::apply(&mut app.store, &app.env, &rotating, &plan, 10).unwrap();
    // The fourth card and the PAN-index key.
    assert_eq!((rest.scanned, rest.resealed, rest.done), (2, 2, true));
    assert_eq!(
        rotation::entries_per_key(&mut app.store).unwrap(),
        BTreeMap::from([(new_id, 4)])
    );
    // The same plan again finds every entry changed since it was read, and under the active key.
    let again = rotation::apply(&mut app.store, &app.env, &rotating, &plan, 10).unwrap();
    assert_eq!(again.resealed, 0);
    rotating.retire_others(&mut app.store).unwrap();

    // The new key alone reveals the live cards as before.
    app.restart_with_vault_key(new_key);
    for i in [0, 1, 3] {
        assert_eq!(reveal(&mut app, &cards[i]), before[i]);
    }
}

/// `s` percent-encoded for a query string.
fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[test]
fn a_pass_over_every_card_reads_what_each_can_spend() {
    // A condition no index answers (`enable2FA`) with a range: the total is one pass over every
    // card, each built with only the fields the query reads, holds included for its balance.
    let mut app = App::new();
    let acct = app.account("1000", "USD");
    let holder = app.holder();
    let mut ids = Vec::new();
    for amount in ["120", "50", "300"] {
        let (s, v) = app.issue(&acct, &holder, Some(amount));
        assert_eq!(s, 201, "{v}");
        ids.push(v["data"]["_id"].as_str().unwrap().to_string());
    }
    app.authorize(&ids[0], 30, json!({"name": "Shop"}));
    for (query, total, first) in [
        ("enable2FA=true&availableBalance.lt=100&sort=-balance", 2, 0),
        ("enable2FA=true&balance.gte=90&sort=balance", 2, 0),
        ("enable2FA=true&balance.gte=90&sort=last4", 2, usize::MAX),
        (
            "disposable=false&availableBalance.between=50|90",
            2,
            usize::MAX,
        ),
    ] {
        let (s, v) = app.call(Method::Get, &format!("/cards?{query}"), None);
        assert_eq!(s, 200, "{v}");
        assert_eq!(v["meta"]["total"], total, "{query}: {v}");
        if first != usize::MAX {
            assert_eq!(v["data"][0]["_id"], ids[first].as_str(), "{query}: {v}");
        }
    }
    // A search no index answers passes over every card: each text it reads is decoded (a
    // partial decode leaves the others empty).
    let (_, all) = app.call(Method::Get, "/cards", None);
    let first = &all["data"][0];
    let last4 = first["last4"].as_str().unwrap();
    for (field, pattern) in [
        ("debitAccountId", format!("^{acct}$")),
        ("cardHolderId", format!("^{holder}$")),
        ("maskedPan", format!("{last4}$")),
        (
            "expiryMonth",
            format!("^{}$", first["expiryMonth"].as_str().unwrap()),
        ),
        (
            "expiryYear",
            format!("^{}$", first["expiryYear"].as_str().unwrap()),
        ),
    ] {
        let want = all["data"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| {
                regex::Regex::new(&pattern)
                    .unwrap()
                    .is_match(c[field].as_str().unwrap())
            })
            .count();
        assert!(want >= 1, "{field}");
        let query = format!(
            "/cards?searchIn={field}&search={}&sort=-balance",
            enc(&pattern)
        );
        let (s, v) = app.call(Method::Get, &query, None);
        assert_eq!(s, 200, "{v}");
        assert_eq!(
            v["meta"]["total"].as_u64(),
            Some(want as u64),
            "{query}: {v}"
        );
    }
    // The hold lapses with the clock and stays stored: the pass (which reads the chunk's held
    // totals at once) takes it off as a read of the card does.
    app.env.advance_millis(8 * 24 * 3600 * 1000);
    let (_, card) = app.call(Method::Get, &format!("/cards/{}", ids[0]), None);
    assert_eq!(card["data"]["balance"], json!(120), "{card}");
    for (query, total, first) in [
        ("enable2FA=true&availableBalance.lt=100&sort=-balance", 1, 1),
        ("enable2FA=true&balance.gte=100&sort=balance", 2, 0),
        ("disposable=false&availableBalance.between=100|120", 1, 0),
    ] {
        let (s, v) = app.call(Method::Get, &format!("/cards?{query}"), None);
        assert_eq!(s, 200, "{v}");
        assert_eq!(v["meta"]["total"], total, "{query}: {v}");
        assert_eq!(v["data"][0]["_id"], ids[first].as_str(), "{query}: {v}");
    }
}

/// The `_id`s of a list answer's `data`, in order.
fn data_ids(v: &Value) -> Vec<&str> {
    v["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["_id"].as_str().unwrap())
        .collect()
}
