//! The authorization decision at volume: `POST /cards/{id}/authorizations` through `Service::serve`
//! on a card with 100,000 authorizations in the current period and three limits with categories,
//! against a card with no authorizations and no limits, measured side by side in one run.
//!
//! Each sample is one whole request in the core (route, body, decision, the writes of an approval)
//! on `MemStore`; its writes go to an `Overlay` that is dropped, so both cards stay as they were.
//! Samples alternate between the two cards, so load on the machine falls on both alike. The store
//! is in memory to measure the decision itself: on the native server a write's latency is mostly the
//! group commit's log fsync, which would hide a decision many times slower (README, "Card spend").
//!
//! Each sample is timed twice: by the wall clock and by the thread's CPU clock. On a shared machine
//! the wall clock's tail is the scheduler's (a preempted sample waits milliseconds whichever card it
//! is for); the CPU clock counts only the work the request did, so the goal is checked on it and the
//! wall clock is reported beside it.
//!
//! Run: `scripts/bench-limits` (or `cargo bench -p card-core --bench limits`). Environment:
//! `BENCH_AUTHORIZATIONS` (default 100000), `BENCH_SAMPLES` per card (default 20000). Exits 1 when
//! the CPU-time p99 ratio is over 2.

use std::time::{Duration, Instant};

use card_core::domain::api_keys::ConfiguredKeys;
use card_core::env::DeterministicEnv;
use card_core::storage::Overlay;
use card_core::{Config, MemStore, Method, Request, Service, Timestamp};
use serde_json::{Value, json};

const KEY: &str = "bench-key-aaaaaaaaaaaa";

/// The merchants of the past authorizations: (category, MCC) pairs a card might see in a month.
const MERCHANTS: [(Option<&str>, Option<&str>); 16] = [
    (Some("airlines"), Some("4511")),
    (Some("airlines"), None),
    (None, Some("4511")),
    (Some("grocery_stores"), Some("5411")),
    (Some("grocery_stores"), Some("5499")),
    (Some("restaurants"), Some("5812")),
    (Some("restaurants"), Some("5814")),
    (Some("electronics"), Some("5732")),
    (Some("fuel"), Some("5541")),
    (Some("fuel"), Some("5542")),
    (Some("hotels"), Some("7011")),
    (Some("taxis"), Some("4121")),
    (Some("pharmacies"), Some("5912")),
    (Some("streaming"), Some("4899")),
    (None, Some("5999")),
    (None, None),
];

struct Bench {
    service: Service,
    store: MemStore,
    env: DeterministicEnv,
}

impl Bench {
    fn request(method: Method, path: &str, body: Option<Value>) -> Request {
        let req = Request::new(method, path).header("x-api-key", KEY);
        match body {
            Some(b) => req
                .header("content-type", "application/json")
                .body(serde_json::to_vec(&b).unwrap()),
            None => req,
        }
    }

    fn call(&mut self, method: Method, path: &str, body: Option<Value>) -> Value {
        let resp = self.service.serve(
            &Self::request(method, path, body),
            &mut self.store,
            &self.env,
        );
        let v: Value = serde_json::from_slice(&resp.body).unwrap_or(Value::Null);
        assert!(resp.status < 300, "{path}: {} {v}", resp.status);
        v
    }

    fn card(&mut self, account: &str, holder: &str, limits: Value) -> String {
        let body = json!({"debitAccountId": account, "cardHolderId": holder, "type": "virtual",
            "brand": "Visa", "status": "active", "amount": 1_000_000_000,
            "spendingControls": {"spendingLimits": limits}});
        self.call(Method::Post, "/cards", Some(body))["data"]["_id"]
            .as_str()
            .unwrap()
            .to_string()
    }

    /// One request's wall and CPU time, its writes dropped.
    fn sample(&mut self, req: &Request, into: &mut Samples) {
        let mut overlay = Overlay::new(&mut self.store);
        let (cpu, wall) = (thread_cpu_time(), Instant::now());
        let resp = self.service.serve(req, &mut overlay, &self.env);
        into.wall.push(wall.elapsed());
        into.cpu.push(thread_cpu_time() - cpu);
        assert_eq!(resp.status, 201, "{}", String::from_utf8_lossy(&resp.body));
    }
}

#[derive(Default)]
struct Samples {
    wall: Vec<Duration>,
    cpu: Vec<Duration>,
}

/// The CPU time this thread has used (preemption does not advance it).
fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec for the call to fill.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

fn purchase(amount: &str, category: Option<&str>, mcc: Option<&str>) -> Value {
    json!({"amount": serde_json::Number::from_string_unchecked(amount.into()), "channel": "pos",
        "merchant": {"name": "Merchant", "category": category, "mcc": mcc}})
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1]
}

fn micros(d: Duration) -> String {
    format!("{:.1} µs", d.as_secs_f64() * 1e6)
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let past = env_number("BENCH_AUTHORIZATIONS", 100_000);
    let samples = env_number("BENCH_SAMPLES", 20_000);
    // A Wednesday at midnight UTC: every authorization below falls in the same day, week and month.
    let env = DeterministicEnv::new(Timestamp::parse_rfc3339("2026-11-25T00:00:00Z").unwrap(), 7);
    let mut api_keys = ConfiguredKeys::default();
    api_keys.add(KEY, "bench").unwrap();
    let config = Config {
        api_keys,
        vault_key: Some([42; 32]),
        ..Config::default()
    };
    let mut b = Bench {
        service: Service::new(config, &env),
        store: MemStore::new(),
        env,
    };
    Service::open_store(&mut b.store).unwrap();
    let account = b.call(
        Method::Post,
        "/accounts",
        Some(
            json!({"ownerType": "business", "name": "Bench", "type": "checking",
            "category": "fiat", "currency": "USD", "balance": 10_000_000_000u64}),
        ),
    )["data"]["_id"]
        .as_str()
        .unwrap()
        .to_string();
    let holder = b.call(
        Method::Post,
        "/card-holders",
        Some(
            json!({"name": "B C", "person": {"firstName": "B", "lastName": "C",
            "email": "b@c.io", "phoneNumber": "+15555550100"}}),
        ),
    )["data"]["_id"]
        .as_str()
        .unwrap()
        .to_string();
    let limits = json!([
        {"amount": 999_999_999, "interval": "daily", "categories": ["airlines", "4511"]},
        {"amount": 999_999_999, "interval": "weekly", "categories": ["grocery_stores", "5411", "5499"]},
        {"amount": 999_999_999, "interval": "monthly", "categories": ["restaurants", "5812", "5814"]},
    ]);
    let busy = b.card(&account, &holder, limits.clone());
    let fresh = b.card(&account, &holder, json!([]));
    // The same limits without the volume: what the limits cost, apart from the authorizations.
    let limited = b.card(&account, &holder, limits);

    let seeding = Instant::now();
    for i in 0..past {
        let (category, mcc) = MERCHANTS[i % MERCHANTS.len()];
        let body = purchase("0.01", category, mcc);
        b.call(
            Method::Post,
            &format!("/cards/{busy}/authorizations"),
            Some(body),
        );
        b.env.advance_millis(1);
    }
    let spending = b.call(Method::Get, &format!("/cards/{busy}/spending"), None);
    let spent: Vec<String> = spending["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["spent"].to_string())
        .collect();
    println!(
        "seeded {past} authorizations on one card in {:.1} s; its limits' spent: {}",
        seeding.elapsed().as_secs_f64(),
        spent.join(", ")
    );

    // The purchase every limit of the busy card is computed for (the daily one applies to it).
    let flight = purchase("0.01", Some("airlines"), Some("4511"));
    let busy_req = Bench::request(
        Method::Post,
        &format!("/cards/{busy}/authorizations"),
        Some(flight.clone()),
    );
    let fresh_req = Bench::request(
        Method::Post,
        &format!("/cards/{fresh}/authorizations"),
        Some(flight.clone()),
    );
    let limited_req = Bench::request(
        Method::Post,
        &format!("/cards/{limited}/authorizations"),
        Some(flight),
    );
    let mut warm = Samples::default();
    for _ in 0..samples / 10 {
        b.sample(&busy_req, &mut warm);
        b.sample(&fresh_req, &mut warm);
        b.sample(&limited_req, &mut warm);
    }
    let mut on_busy = Samples::default();
    let mut on_fresh = Samples::default();
    let mut on_limited = Samples::default();
    for i in 0..samples {
        if i % 2 == 0 {
            b.sample(&busy_req, &mut on_busy);
            b.sample(&fresh_req, &mut on_fresh);
            b.sample(&limited_req, &mut on_limited);
        } else {
            b.sample(&limited_req, &mut on_limited);
            b.sample(&fresh_req, &mut on_fresh);
            b.sample(&busy_req, &mut on_busy);
        }
    }
    for s in [&mut on_busy, &mut on_fresh, &mut on_limited] {
        s.wall.sort();
        s.cpu.sort();
    }
    println!(
        "POST /cards/{{id}}/authorizations in Service::serve on MemStore, {samples} samples per card, alternating:"
    );
    let busy_label = format!("card with {past} authorizations this period, 3 category limits");
    let fresh_label = "card with no authorizations and no limits";
    let limited_label = "card with the same 3 limits and no authorizations";
    let mut ratios = Vec::new();
    for (clock, busy, fresh, limited) in [
        ("CPU time ", &on_busy.cpu, &on_fresh.cpu, &on_limited.cpu),
        ("wall time", &on_busy.wall, &on_fresh.wall, &on_limited.wall),
    ] {
        for (label, d) in [
            (busy_label.as_str(), busy),
            (fresh_label, fresh),
            (limited_label, limited),
        ] {
            println!(
                "  {clock}  {label:<62} p50 {:>9}   p99 {:>9}   p99.9 {:>9}",
                micros(percentile(d, 0.50)),
                micros(percentile(d, 0.99)),
                micros(percentile(d, 0.999)),
            );
        }
        let ratio = |of: &[Duration], p| {
            percentile(busy, p).as_secs_f64() / percentile(of, p).as_secs_f64()
        };
        ratios.push((clock, ratio(fresh, 0.99), ratio(fresh, 0.50)));
        println!(
            "ratio, {clock}: against none p99 {:.2}x, p50 {:.2}x; against the same limits without the volume p99 {:.2}x, p50 {:.2}x",
            ratio(fresh, 0.99),
            ratio(fresh, 0.50),
            ratio(limited, 0.99),
            ratio(limited, 0.50)
        );
    }
    let cpu_p99 = ratios[0].1;
    println!(
        "goal: CPU-time p99 at most 2x: {}",
        if cpu_p99 <= 2.0 { "met" } else { "NOT met" }
    );
    if cpu_p99 > 2.0 {
        std::process::exit(1);
    }
}
