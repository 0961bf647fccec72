//! The memtable's operations on the keys and values of real fundings (scripts/bench-writes' one hot
//! card and account): the core serves `POST /cards/{id}/fund` on `MemStore` through a recorder,
//! and the recorded reads, writes and scans are replayed into a memtable in batches, as the
//! writer thread does; then a checkpoint's walk (`latest`) and the freeing, as the checkpointer
//! does. Each phase is timed by the thread's CPU clock (preemption does not advance it).
//!
//! Run: `cargo bench -p host-native --bench memtable`. Environment: `BENCH_FUNDINGS` (default
//! 8000, about a checkpoint interval at the peak), `BENCH_BATCH` fundings per batch (default 32),
//! `BENCH_ROUNDS` (default 5). To compare with another `memtable.rs`, point the `#[path]` below
//! at it (docs/benchmarks.md says how the numbers there were taken).

use std::time::Duration;

use card_core::domain::api_keys::ConfiguredKeys;
use card_core::env::DeterministicEnv;
use card_core::storage::{Direction, KvPair, StoreError, Tx};
use card_core::{Config, MemStore, Method, Request, Service, Timestamp};
use serde_json::{Value, json};

#[allow(dead_code)]
#[path = "../src/store/redb/memtable.rs"]
mod memtable;

// As the server (src/main.rs): the allocator decides much of what freeing costs.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A memtable's operations, so another `memtable.rs` (an older one, `#[path]` to a copy) can be
/// measured in the same run by implementing this for its `Memtable` too.
trait Table: Default {
    fn name() -> &'static str;
    fn get(&self, key: &[u8], at: u64) -> usize;
    fn put(&self, seq: u64, key: &[u8], value: Option<&[u8]>);
    fn put_new(&self, seq: u64, key: &[u8], value: &[u8]);
    fn range(&self, start: &[u8], end: &[u8], dir: Direction, at: u64, limit: usize) -> usize;
    fn versions(&self) -> usize;
    /// The checkpoint's walk: keys and the bytes seen.
    fn latest(&self) -> (usize, usize);
    fn free(self);
}

macro_rules! table {
    ($name:literal, $m:ty) => {
        impl Table for $m {
            fn name() -> &'static str {
                $name
            }
            fn get(&self, key: &[u8], at: u64) -> usize {
                <$m>::get(self, key, at).map_or(0, |v| v.map_or(1, |v| v.len()))
            }
            fn put(&self, seq: u64, key: &[u8], value: Option<&[u8]>) {
                <$m>::put(self, seq, key, value)
            }
            fn put_new(&self, seq: u64, key: &[u8], value: &[u8]) {
                <$m>::put_new(self, seq, key, value)
            }
            fn range(
                &self,
                start: &[u8],
                end: &[u8],
                dir: Direction,
                at: u64,
                limit: usize,
            ) -> usize {
                <$m>::range(self, start, end, dir, at).take(limit).count()
            }
            fn versions(&self) -> usize {
                <$m>::versions(self)
            }
            fn latest(&self) -> (usize, usize) {
                let mut seen = (0, 0);
                for (k, v, new) in <$m>::latest(self) {
                    seen.0 += 1;
                    seen.1 += k.len() + v.map_or(0, |v| v.len()) + usize::from(new);
                }
                seen
            }
            fn free(self) {
                let mut freeing = self.into_freeing();
                while freeing.free(4096) {}
            }
        }
    };
}

table!("new", memtable::Memtable);

const KEY: &str = "bench-key-aaaaaaaaaaaa";

/// What a request did to its store, in order.
enum Op {
    Get(Vec<u8>),
    Put(Vec<u8>, Vec<u8>),
    PutNew(Vec<u8>, Vec<u8>),
    Delete(Vec<u8>),
    Scan(Vec<u8>, Vec<u8>, Direction, usize),
}

/// `MemStore`, recording.
struct Recorder {
    store: MemStore,
    ops: Vec<Op>,
}

impl Tx for Recorder {
    fn get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.ops.push(Op::Get(key.to_vec()));
        self.store.get(key)
    }
    fn put(&mut self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        self.ops.push(Op::Put(key.to_vec(), value.to_vec()));
        self.store.put(key, value)
    }
    fn put_new(&mut self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        self.ops.push(Op::PutNew(key.to_vec(), value.to_vec()));
        self.store.put_new(key, value)
    }
    fn delete(&mut self, key: &[u8]) -> Result<(), StoreError> {
        self.ops.push(Op::Delete(key.to_vec()));
        self.store.delete(key)
    }
    fn scan(
        &mut self,
        start: &[u8],
        end: &[u8],
        dir: Direction,
        limit: usize,
    ) -> Result<Vec<KvPair>, StoreError> {
        self.ops
            .push(Op::Scan(start.to_vec(), end.to_vec(), dir, limit));
        self.store.scan(start, end, dir, limit)
    }
}

/// The ops of `fundings` fundings of one card from one account, one list per funding.
fn record(fundings: usize) -> Vec<Vec<Op>> {
    let env = DeterministicEnv::new(Timestamp::parse_rfc3339("2026-11-25T00:00:00Z").unwrap(), 7);
    let mut api_keys = ConfiguredKeys::default();
    api_keys.add(KEY, "bench").unwrap();
    let config = Config {
        api_keys,
        vault_key: Some([42; 32]),
        ..Config::default()
    };
    let service = Service::new(config, &env);
    let mut rec = Recorder {
        store: MemStore::new(),
        ops: Vec::new(),
    };
    Service::open_store(&mut rec.store).unwrap();
    let call = |rec: &mut Recorder, path: &str, body: Value| -> Value {
        let req = Request::new(Method::Post, path)
            .header("x-api-key", KEY)
            .header("content-type", "application/json")
            .body(serde_json::to_vec(&body).unwrap());
        let resp = service.serve(&req, rec, &env);
        assert!(resp.status < 300, "{path}: {}", resp.status);
        env.advance_millis(1);
        serde_json::from_slice(&resp.body).unwrap()
    };
    let id = |v: Value| v["data"]["_id"].as_str().unwrap().to_string();
    let account = id(call(
        &mut rec,
        "/accounts",
        json!({"ownerType": "business", "name": "Bench", "type": "checking",
            "category": "fiat", "currency": "USD", "balance": 1_000_000_000}),
    ));
    let holder = id(call(
        &mut rec,
        "/card-holders",
        json!({"name": "B", "person": {"firstName": "B", "lastName": "C",
            "email": "b@c.io", "phoneNumber": "+15555550100"}}),
    ));
    let card = id(call(
        &mut rec,
        "/cards",
        json!({"debitAccountId": account, "cardHolderId": holder, "type": "virtual",
            "brand": "Visa", "status": "active"}),
    ));
    let fund = format!("/cards/{card}/fund");
    (0..fundings)
        .map(|_| {
            rec.ops.clear();
            call(
                &mut rec,
                &fund,
                json!({"debitAccountId": account, "amount": 0.01}),
            );
            std::mem::take(&mut rec.ops)
        })
        .collect()
}

/// The CPU time this thread has used.
fn cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec for the call to fill.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One round's CPU time per unit, in ns: the writer's work a funding; a read of a key the fundings
/// read at the writer's batch but one (a request's snapshot at the durable point) and at the
/// middle batch (an old snapshot); the walk a key; the freeing a funding.
struct Round {
    write: f64,
    read: f64,
    read_old: f64,
    walk: f64,
    free: f64,
    keys: usize,
    versions: usize,
}

fn round<T: Table>(fundings: &[Vec<Op>], batch: usize) -> Round {
    let m = T::default();
    let mut sink = 0usize;
    let start = cpu();
    for (i, ops) in fundings.iter().enumerate() {
        let seq = (i / batch) as u64 + 1;
        for op in ops {
            match op {
                Op::Get(k) => sink += m.get(k, seq),
                Op::Put(k, v) => m.put(seq, k, Some(v)),
                Op::PutNew(k, v) => m.put_new(seq, k, v),
                Op::Delete(k) => m.put(seq, k, None),
                Op::Scan(s, e, d, l) => sink += m.range(s, e, *d, seq, *l),
            }
        }
    }
    let write = cpu() - start;
    let versions = m.versions();
    let last = fundings.len().div_ceil(batch) as u64;
    let mut reads_at = |at: u64| {
        let start = cpu();
        let mut reads = 0;
        for op in fundings.iter().flatten() {
            if let Op::Get(k) = op {
                sink += m.get(k, at);
                reads += 1;
            }
        }
        (cpu() - start, reads)
    };
    let (read, reads) = reads_at(last.saturating_sub(1));
    let (read_old, _) = reads_at(last / 2);
    let start = cpu();
    let (keys, seen) = m.latest();
    let walk = cpu() - start;
    let start = cpu();
    m.free();
    let free = cpu() - start;
    std::hint::black_box((sink, seen));
    let ns = |d: Duration, n: usize| d.as_secs_f64() * 1e9 / n.max(1) as f64;
    Round {
        write: ns(write, fundings.len()),
        read: ns(read, reads),
        read_old: ns(read_old, reads),
        walk: ns(walk, keys),
        free: ns(free, fundings.len()),
        keys,
        versions,
    }
}

fn report(name: &str, x: &Round) {
    println!(
        "{name:>4}: writer {:>6.0} ns/funding  read {:>4.0} ns/get (old snapshot {:>4.0})  latest {:>4.0} ns/key  free {:>5.0} ns/funding  ({} keys, {} versions)",
        x.write, x.read, x.read_old, x.walk, x.free, x.keys, x.versions
    );
}

fn median(rounds: &[Round], f: fn(&Round) -> f64) -> f64 {
    let mut v: Vec<f64> = rounds.iter().map(f).collect();
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// One table's round ([`round`] of it).
type Run = fn(&[Vec<Op>], usize) -> Round;

/// Runs `rounds` rounds of each table, alternating, and reports each and the medians.
fn compare(recorded: &[Vec<Op>], batch: usize, rounds: usize, tables: &[(&str, Run)]) {
    let mut all: Vec<Vec<Round>> = tables.iter().map(|_| Vec::new()).collect();
    for r in 0..rounds {
        println!("round {r}");
        for (i, (name, run)) in tables.iter().enumerate() {
            let x = run(recorded, batch);
            report(name, &x);
            all[i].push(x);
        }
    }
    for ((name, _), rounds) in tables.iter().zip(&all) {
        let m = Round {
            write: median(rounds, |r| r.write),
            read: median(rounds, |r| r.read),
            read_old: median(rounds, |r| r.read_old),
            walk: median(rounds, |r| r.walk),
            free: median(rounds, |r| r.free),
            keys: rounds.first().map_or(0, |r| r.keys),
            versions: rounds.first().map_or(0, |r| r.versions),
        };
        print!("median ");
        report(name, &m);
    }
}

fn main() {
    let fundings = env_number("BENCH_FUNDINGS", 8000);
    let batch = env_number("BENCH_BATCH", 32).max(1);
    let rounds = env_number("BENCH_ROUNDS", 5);
    let recorded = record(fundings);
    let ops: usize = recorded.iter().map(Vec::len).sum();
    println!(
        "{fundings} fundings, {batch} a batch, {:.1} ops a funding",
        ops as f64 / fundings as f64
    );
    compare(
        &recorded,
        batch,
        rounds,
        &[(memtable::Memtable::name(), round::<memtable::Memtable>)],
    );
}
