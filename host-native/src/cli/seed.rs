//! `cards seed`: fills a store with accounts, card holders and funded cards for one client. Every
//! record is made by a request through `Service::serve`, the code that serves HTTP, so the data
//! (indexes, ledger entries, events, sealed card numbers) is what a client would have made; many
//! requests share one transaction so that a million cards take minutes, not hours.

use std::process::ExitCode;

use anyhow::{Context, anyhow};
use std::time::Instant;

use card_core::domain::api_keys::ConfiguredKeys;
use card_core::{Config, Method, Request, Service};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{Value, json};

use crate::cli::SeedArgs;
use crate::store::Store;
use crate::system_env::{SystemEnv, random_bytes};
use crate::vault_key;

/// Enough for every card's funding (at most 1,000 each) on any account.
const OPENING_BALANCE: u64 = 100_000_000_000_000;

pub fn run(args: SeedArgs) -> anyhow::Result<ExitCode> {
    let (vault_keys, _) = vault_key::resolve(
        &args.vault.vault_keys,
        args.vault.vault_key_file.as_deref(),
        args.data.store.as_deref(),
        &args.data.data,
    )?;
    let store = Store::open(
        args.data.store.as_deref(),
        &args.data.data,
        args.data.cache_size,
        args.data.store_timeout,
    )?;
    let env = SystemEnv;
    // A key that lives only as long as this command: the requests authenticate like any other.
    let key = format!("seed_{}", hex::encode(random_bytes::<16>()?));
    let mut api_keys = ConfiguredKeys::default();
    api_keys
        .add(&key, &args.client)
        .map_err(|e| anyhow!("--client: {e}"))?;
    let service = Service::new(
        Config {
            api_keys,
            vault_key: vault_keys.first().copied(),
            vault_older_keys: vault_keys.get(1..).unwrap_or_default().to_vec(),
            ..Config::default()
        },
        &env,
    );
    store
        .write(|tx| {
            service
                .check_vault_key(tx, &env)
                .map_err(anyhow::Error::msg)
        })
        .with_context(|| store.describe(&args.data.data))?;

    let holders = args.holders.unwrap_or(args.cards.div_ceil(100)).max(1);
    let total = args.accounts + holders + args.cards;
    let bar = progress(total);
    let started = Instant::now();
    let mut seeder = Seeder {
        service: &service,
        store: &store,
        key: &key,
        batch: args.batch,
        bar: &bar,
    };
    let accounts = seeder.create(args.accounts, "/accounts", |i| {
        json!({"ownerType": "business", "name": format!("Funding {i}"), "type": "checking",
               "category": "fiat", "currency": "USD", "balance": OPENING_BALANCE})
    })?;
    let holder_ids = seeder.create(holders, "/card-holders", |i| {
        json!({"name": format!("Holder {i}"), "person": {"firstName": "Holder",
               "lastName": format!("N{i}"), "email": format!("holder{i}@example.com"),
               "phoneNumber": "+2348012345678"}})
    })?;
    seeder.create(args.cards, "/cards", |i| {
        json!({
            "debitAccountId": accounts[(i % args.accounts) as usize],
            "cardHolderId": holder_ids[(i % holders) as usize],
            "type": "virtual",
            "brand": if i % 2 == 0 { "visa" } else { "mastercard" },
            "status": if i % 10 == 9 { "inactive" } else { "active" },
            "amount": i * 37 % 1000 + 1,
            "metadata": {"seq": i},
        })
    })?;
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    println!(
        "seeded client {}: {} accounts, {holders} card holders, {} cards in {secs:.1} s ({:.0} records/s) into {}",
        args.client,
        args.accounts,
        args.cards,
        total as f64 / secs.max(f64::EPSILON),
        store.describe(&args.data.data)
    );
    Ok(ExitCode::SUCCESS)
}

struct Seeder<'a> {
    service: &'a Service,
    store: &'a Store,
    key: &'a str,
    batch: u64,
    bar: &'a ProgressBar,
}

impl Seeder<'_> {
    /// POSTs `n` bodies to `path`, `batch` per transaction, and returns the new records' ids.
    fn create(
        &mut self,
        n: u64,
        path: &str,
        body: impl Fn(u64) -> Value,
    ) -> anyhow::Result<Vec<String>> {
        let mut ids = Vec::with_capacity(usize::try_from(n).unwrap_or(0));
        let mut next = 0;
        while next < n {
            let end = (next + self.batch).min(n);
            let made = self.store.write(|tx| {
                let mut made = Vec::new();
                for i in next..end {
                    let mut req = Request::new(Method::Post, path);
                    req.headers = vec![
                        ("x-api-key".into(), self.key.to_string()),
                        ("content-type".into(), "application/json".into()),
                    ]
                    .into();
                    req.body = body(i).to_string().into_bytes();
                    let resp = self.service.serve(&req, tx, &SystemEnv);
                    let answer: Value = serde_json::from_slice(&resp.body).unwrap_or(Value::Null);
                    if resp.status != 201 {
                        return Err(anyhow!("POST {path} answered {}: {answer}", resp.status));
                    }
                    made.push(
                        answer["data"]["_id"]
                            .as_str()
                            .unwrap_or_default()
                            .to_string(),
                    );
                }
                Ok(made)
            })?;
            self.bar.inc(end - next);
            ids.extend(made);
            next = end;
        }
        Ok(ids)
    }
}

/// A bar on a terminal; nothing when stderr is not one (indicatif checks).
fn progress(total: u64) -> ProgressBar {
    let bar = ProgressBar::new(total);
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} records, {per_sec}, eta {eta}")
    {
        bar.set_style(style);
    }
    bar
}
