//! Several `cards` instances on one PostgreSQL database (`--store`): money is conserved across
//! instances, their writes take turns (no conflict to re-run), keys made by the command line work on
//! every instance, data survives restarts and crashes. Each test has a database of its own on the
//! run's throwaway cluster ([`pg_cluster::shared`]); needs Debian's `postgresql`.
//!
//! The native tests run under `CARDS_TEST_STORE=postgres` (the native PostgreSQL run); the Spin ones
//! (two Spin test hosts running the component built with `--features postgres`, and one Spin host
//! beside one native server, on one database) under `CARDS_TEST_HOST=spin CARDS_TEST_STORE=postgres`.
//! The redb and SQLite runs skip them (and start no cluster): they would only repeat the native
//! PostgreSQL run's tests.

use std::process::Command;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use acceptance::fixtures::{create_account, create_holder, id};
use acceptance::host::{
    HostKind, Process, cards_bin, free_addr, on_postgres, spin_component, spin_test_host_bin,
};
use acceptance::pg_cluster::{self, PgCluster};
use acceptance::*;
use rust_decimal::Decimal;
use serde_json::json;

/// The native host's tests of this module run in the native PostgreSQL run only.
fn native() -> bool {
    HostKind::from_env() == HostKind::Native && on_postgres()
}

/// The Spin component on PostgreSQL is tested in the Spin-on-PostgreSQL run only (it needs the
/// component built with `--features postgres`).
fn spin_on_postgres() -> bool {
    HostKind::from_env() == HostKind::Spin && on_postgres()
}

/// One database (of its own, on the run's cluster), its vault key, and a directory for logs.
struct Db {
    cluster: &'static PgCluster,
    url: String,
    vault_key: String,
    logs: tempfile::TempDir,
}

impl Db {
    fn new() -> Db {
        let cluster = pg_cluster::shared();
        let url = cluster.create_database();
        Db {
            cluster,
            url,
            vault_key: "ab".repeat(32),
            logs: tempfile::tempdir().unwrap(),
        }
    }

    fn cards(&self) -> Command {
        let mut cmd = Command::new(cards_bin());
        for var in [
            "CARDS_API_KEYS",
            "CARDS_DATA",
            "CARDS_STORE",
            "CARDS_VAULT_KEY",
        ] {
            cmd.env_remove(var);
        }
        cmd
    }

    /// `cards ARGS --store URL`, which must succeed: its standard output.
    fn run(&self, args: &[&str]) -> String {
        let out = self
            .cards()
            .args(args)
            .args(["--store", &self.url])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "cards {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// `cards keys create --store URL`: the new key.
    fn create_key(&self, client: &str) -> String {
        self.run(&["keys", "create", "--client", client])
    }

    fn revoke_key(&self, key: &str) {
        self.run(&["keys", "revoke", "--key", key]);
    }

    /// An instance of `kind` on this database (keys from the store only).
    fn serve(&self, name: &str, kind: HostKind) -> Process {
        self.serve_with(name, kind, &[])
    }

    /// [`Db::serve`] with extra environment variables (both hosts read `CARDS_STORE_TIMEOUT`).
    fn serve_with(&self, name: &str, kind: HostKind, env: &[(&str, &str)]) -> Process {
        let addr = free_addr();
        let log = self.logs.path().join(format!("{name}.log"));
        let cmd = match kind {
            HostKind::Native => {
                let mut cmd = self.cards();
                cmd.args(["serve", "--listen", &addr.to_string(), "--store", &self.url])
                    .args(["--vault-key", &self.vault_key]);
                cmd
            }
            // The Spin test host with the PostgreSQL component: the variable `database_url` points it
            // at this database, `vault_key` is the same key; no `api_keys`.
            HostKind::Spin => {
                let mut cmd = std::process::Command::new(spin_test_host_bin());
                cmd.arg("--component")
                    .arg(spin_component(true))
                    .args(["--listen", &addr.to_string(), "--sqlite"])
                    .arg(self.logs.path().join(format!("{name}.sqlite")))
                    .env("CARDS_DATABASE_URL", &self.url)
                    .env("CARDS_VAULT_KEY", &self.vault_key)
                    .env_remove("CARDS_API_KEYS");
                cmd
            }
        };
        let mut cmd = cmd;
        cmd.envs(env.iter().copied());
        Process::spawn(cmd, addr, &log)
            .unwrap_or_else(|e| panic!("{} instance {name}: {e}", kind.name()))
    }
}

/// An account holding `balance` USD and an active card on it, made through `t`.
fn account_and_card(t: &Tenant, balance: i64) -> (String, String) {
    let acct = id(&create_account(
        t,
        json!({"balance": balance, "currency": "USD"}),
    ));
    let h = create_holder(t);
    let card = id(t
        .post(
            "/cards",
            &json!({"debitAccountId": acct, "cardHolderId": h, "type": "virtual",
                    "brand": "Visa", "status": "active"}),
        )
        .data(201));
    (acct, card)
}

fn balance(t: &Tenant, path: &str) -> Decimal {
    dec(&t.get(path).data(200)["balance"])
}

/// `n` concurrent POSTs of `body` to `path`, sent alternately to the tenants; returns the responses.
fn post_concurrently(
    tenants: &[Tenant],
    path: &str,
    body: serde_json::Value,
    n: usize,
) -> Vec<Resp> {
    let tenants = Arc::new(tenants.to_vec());
    let threads: Vec<_> = (0..n)
        .map(|i| {
            let (tenants, path, body) = (tenants.clone(), path.to_string(), body.clone());
            thread::spawn(move || tenants[i % tenants.len()].post(&path, &body))
        })
        .collect();
    threads.into_iter().map(|t| t.join().unwrap()).collect()
}

/// Two instances of `kinds` on `db` and a tenant of client `acme` (with a key made by the command
/// line) on each.
fn two_instances(db: &Db, kinds: [HostKind; 2]) -> (Process, Process, Tenant, Tenant) {
    let key = db.create_key("acme");
    let (a, b) = (db.serve("a", kinds[0]), db.serve("b", kinds[1]));
    let ta = Tenant::at(&a.base_url, &key, "acme");
    let tb = Tenant::at(&b.base_url, &key, "acme");
    (a, b, ta, tb)
}

#[test]
fn concurrent_fundings_on_two_instances_conserve_money_and_conflicts_are_re_run() {
    if native() {
        fundings_on_two_instances([HostKind::Native, HostKind::Native]);
    }
}

#[test]
fn concurrent_fundings_on_two_spin_instances_conserve_money_and_conflicts_are_re_run() {
    if spin_on_postgres() {
        fundings_on_two_instances([HostKind::Spin, HostKind::Spin]);
    }
}

/// A Spin replica and a native server share one database: same schema, same keys, same data.
#[test]
fn concurrent_fundings_on_a_spin_and_a_native_instance_conserve_money() {
    if spin_on_postgres() {
        fundings_on_two_instances([HostKind::Spin, HostKind::Native]);
    }
}

/// 100 concurrent fundings of 10 from an account holding 500, sent alternately to two instances of
/// `kinds` on one database: exactly 50 succeed, every response matches the final balances, and at
/// no write conflicted: every write holds the write lock alone, so the instances' writes take turns
/// (before, nearly every pair conflicted on the shared count keys, and re-runs and deadlock waits
/// brought two instances down to tens of requests a second).
fn fundings_on_two_instances(kinds: [HostKind; 2]) {
    let db = Db::new();
    let (a, b, ta, tb) = two_instances(&db, kinds);
    let conflicts = || {
        let log = a.output() + &b.output();
        log.matches("re-running").count()
    };
    for round in 1..=2 {
        let (acct, card) = account_and_card(&ta, 500);
        let responses = post_concurrently(
            &[ta.clone(), tb.clone()],
            &format!("/cards/{card}/fund"),
            json!({"debitAccountId": acct, "amount": 10}),
            100,
        );
        let ok = responses.iter().filter(|r| r.status == 200).count();
        for r in &responses {
            assert!(
                r.status == 200 || (r.status == 422 && r.body["error"] == "insufficient_funds"),
                "round {round}: {} {}",
                r.status,
                r.text
            );
        }
        assert_eq!(ok, 50, "round {round}: 500 funds exactly 50 fundings of 10");
        // Every acknowledged card balance is one of 10, 20, ... 500: each saw a distinct commit.
        let mut seen: Vec<Decimal> = responses
            .iter()
            .filter(|r| r.status == 200)
            .map(|r| dec(&r.body["data"]["balance"]))
            .collect();
        seen.sort();
        let expected: Vec<Decimal> = (1..=50).map(|i| Decimal::from(i * 10)).collect();
        assert_eq!(seen, expected, "round {round}");
        for t in [&ta, &tb] {
            assert_eq!(balance(t, &format!("/accounts/{acct}")), Decimal::ZERO);
            assert_eq!(balance(t, &format!("/cards/{card}")), Decimal::from(500));
        }
        let entries = tb
            .list(
                &format!("/accounts/{acct}/transactions"),
                &[("limit", "200")],
            )
            .data(200)
            .as_array()
            .unwrap()
            .clone();
        let fundings = entries
            .iter()
            .filter(|e| e["type"] == "card_funding")
            .count();
        assert_eq!(
            fundings, 50,
            "round {round}: one ledger entry per acknowledged funding"
        );
    }
    assert_eq!(
        conflicts(),
        0,
        "a write conflicted though writes take turns"
    );
    assert!(!(a.output() + &b.output()).contains("answered busy"));
}

#[test]
fn concurrent_authorizations_on_two_instances_hold_each_unit_of_money_once() {
    if !native() {
        return;
    }
    let db = Db::new();
    let (a, b, ta, tb) = two_instances(&db, [HostKind::Native, HostKind::Native]);
    let (acct, card) = account_and_card(&ta, 500);
    ta.post(
        &format!("/cards/{card}/fund"),
        &json!({"debitAccountId": acct, "amount": 500}),
    )
    .data(200);
    let responses = post_concurrently(
        &[ta.clone(), tb.clone()],
        &format!("/cards/{card}/authorizations"),
        json!({"amount": 10, "channel": "pos", "merchant": {"name": "Shop"}}),
        100,
    );
    let mut approved = 0;
    for r in &responses {
        let data = r.data(201);
        if data["approved"] == true {
            approved += 1;
            assert_eq!(data["status"], "pending", "{}", r.text);
        } else {
            assert_eq!(data["declineReason"], "insufficient_funds", "{}", r.text);
        }
    }
    assert_eq!(
        approved, 50,
        "500 on the card holds exactly 50 authorizations of 10"
    );
    for t in [&ta, &tb] {
        let c = t.get(&format!("/cards/{card}")).data(200).clone();
        assert_eq!(dec(&c["availableBalance"]), Decimal::ZERO);
        assert_eq!(dec(&c["ledgerBalance"]), Decimal::from(500));
        let pending = t
            .list(
                &format!("/cards/{card}/authorizations"),
                &[("status", "pending"), ("limit", "200")],
            )
            .data(200)
            .as_array()
            .unwrap()
            .len();
        assert_eq!(pending, 50, "every approval is stored, on every instance");
    }
    assert!(!(a.output() + &b.output()).contains("answered busy"));
}

#[test]
fn keys_made_by_the_command_line_work_on_every_instance_until_revoked() {
    if !native() {
        return;
    }
    let db = Db::new();
    let (a, b, ta, tb) = two_instances(&db, [HostKind::Native, HostKind::Native]);
    // No default key was printed: the store already had one.
    assert!(!a.output().contains("API key for client"), "{}", a.output());
    let acct = id(&create_account(&ta, json!({"name": "Shared"})));
    assert_eq!(
        tb.get(&format!("/accounts/{acct}")).data(200)["name"],
        "Shared"
    );
    // A key made while both run works at once on both.
    let later = db.create_key("beta");
    let tl = Tenant::at(&b.base_url, &later, "beta");
    tl.get(&format!("/accounts/{acct}"))
        .expect_error(404, "not_found");
    db.revoke_key(&ta.key);
    ta.get("/accounts").expect_error(401, "unauthorized");
    tb.get("/accounts").expect_error(401, "unauthorized");
}

#[test]
fn a_crash_during_fundings_loses_no_acknowledged_funding_and_retries_apply_once() {
    if !native() {
        return;
    }
    let db = Db::new();
    let (a, b, ta, tb) = two_instances(&db, [HostKind::Native, HostKind::Native]);
    let (acct, card) = account_and_card(&tb, 1000);
    let n = 60;
    let fund = |t: &Tenant, i: usize| {
        try_send_to(
            &t.base_url,
            "POST",
            &format!("/cards/{card}/fund"),
            &[
                ("authorization", &format!("Bearer {}", t.key)),
                ("content-type", "application/json"),
                ("idempotency-key", &format!("fund-{i}")),
            ],
            Some(
                json!({"debitAccountId": acct, "amount": 1})
                    .to_string()
                    .into_bytes(),
            ),
        )
    };
    // Fundings to A from several threads while A is killed (SIGKILL) part way.
    let acked: Vec<usize> = thread::scope(|s| {
        let workers: Vec<_> = (0..4)
            .map(|w| {
                let ta = &ta;
                let fund = &fund;
                s.spawn(move || {
                    (w..n)
                        .step_by(4)
                        .filter(|i| matches!(fund(ta, *i), Ok(r) if r.status == 200))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        thread::sleep(std::time::Duration::from_millis(300));
        drop(a);
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    // Every acknowledged funding is in the database.
    let card_now = balance(&tb, &format!("/cards/{card}"));
    assert!(
        card_now >= Decimal::from(acked.len() as i64),
        "{card_now} < {}",
        acked.len()
    );
    assert_eq!(
        balance(&tb, &format!("/accounts/{acct}")) + card_now,
        Decimal::from(1000),
        "money is conserved"
    );
    // Retrying every funding with its key through B applies each exactly once.
    for i in 0..n {
        let r = fund(&tb, i).unwrap();
        assert_eq!(r.status, 200, "{}", r.text);
    }
    assert_eq!(
        balance(&tb, &format!("/cards/{card}")),
        Decimal::from(n as i64)
    );
    assert_eq!(
        balance(&tb, &format!("/accounts/{acct}")),
        Decimal::from(1000 - n as i64)
    );
    let _ = b;
}

#[test]
fn data_survives_restarts_and_the_schema_is_versioned() {
    if !native() {
        return;
    }
    let db = Db::new();
    let key = db.create_key("acme");
    let a = db.serve("a", HostKind::Native);
    let t = Tenant::at(&a.base_url, &key, "acme");
    let (acct, card) = account_and_card(&t, 100);
    t.post(
        &format!("/cards/{card}/fund"),
        &json!({"debitAccountId": acct, "amount": 25}),
    )
    .expect(200);
    drop(a);
    let a2 = db.serve("a2", HostKind::Native);
    let t2 = Tenant::at(&a2.base_url, &key, "acme");
    assert_eq!(
        balance(&t2, &format!("/accounts/{acct}")),
        Decimal::from(75)
    );
    assert_eq!(balance(&t2, &format!("/cards/{card}")), Decimal::from(25));
    let name = db.url.rsplit('/').next().unwrap();
    assert_eq!(
        db.cluster
            .psql(name, "SELECT version FROM cards_schema")
            .trim(),
        "1"
    );
    drop(a2);
    // A schema newer than this release is refused with a clear message.
    db.cluster
        .psql(name, "UPDATE cards_schema SET version = 99");
    let out = db
        .cards()
        .args(["keys", "create", "--client", "x", "--store", &db.url])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("schema is version 99"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn store_needs_a_configured_vault_key() {
    if !native() {
        return;
    }
    let db = Db::new();
    let out = db
        .cards()
        .args(["serve", "--listen", "127.0.0.1:0", "--store", &db.url])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--store needs the vault key configured"),
        "{err}"
    );
    let out = db
        .cards()
        .args(["keys", "create", "--client", "x", "--store", "mysql://nope"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("postgres://"));
}

#[test]
fn seed_fills_the_database_and_lists_read_it_from_any_instance() {
    if !native() {
        return;
    }
    let db = Db::new();
    db.run(&[
        "seed",
        "--client",
        "acme",
        "--cards",
        "25",
        "--holders",
        "5",
        "--batch",
        "10",
        "--vault-key",
        &db.vault_key,
    ]);
    let (_a, _b, ta, tb) = two_instances(&db, [HostKind::Native, HostKind::Native]);
    for t in [&ta, &tb] {
        let first = t.get("/cards?limit=10").expect(200).body.clone();
        assert_eq!(first["meta"]["total"], json!(25));
        assert_eq!(first["meta"]["hasMore"], json!(true));
        let holder = first["data"][0]["cardHolderId"]
            .as_str()
            .unwrap()
            .to_string();
        let of_holder = t
            .get(&format!("/cards?cardHolderId={holder}"))
            .expect(200)
            .body
            .clone();
        assert_eq!(of_holder["meta"]["total"], json!(5));
        let last = first["data"][9]["_id"].as_str().unwrap().to_string();
        let next = t
            .get(&format!("/cards?limit=20&startingAfter={last}"))
            .expect(200)
            .body
            .clone();
        assert_eq!(next["data"].as_array().map(Vec::len), Some(15));
        assert_eq!(next["meta"]["hasMore"], json!(false));
    }
}

/// The advisory lock every write transaction takes (`host_wasm::pg::WRITE_LOCK`).
const WRITE_LOCK: i64 = 0x6361_7264_7301;

impl Db {
    /// The number of advisory locks on [`WRITE_LOCK`] in `mode` (`ExclusiveLock`, `ShareLock`)
    /// that are granted (or waited for) in this database (`pg_locks` shows the whole cluster's, and
    /// other tests' servers write to other databases of it).
    fn write_locks(&self, mode: &str, granted: bool) -> usize {
        let db = self.url.rsplit('/').next().unwrap();
        let sql = format!(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND mode = '{mode}' \
             AND granted = {granted} AND ((classid::bigint << 32) | objid::bigint) = {WRITE_LOCK} \
             AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
        );
        self.cluster.psql(db, &sql).trim().parse().unwrap()
    }

    /// Waits (up to 10 s) until `write_locks(mode, granted)` is at least `n`.
    fn wait_for_locks(&self, mode: &str, granted: bool, n: usize) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.write_locks(mode, granted) < n {
            assert!(
                Instant::now() < deadline,
                "no {mode} (granted {granted}) on the write lock"
            );
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// A session that holds the write lock alone, in an open transaction.
    fn hold_write_lock(&self) -> acceptance::pg_cluster::PsqlSession {
        let mut session = self.cluster.session(&self.url);
        session.send(&format!(
            "BEGIN; SELECT pg_advisory_xact_lock({WRITE_LOCK});"
        ));
        self.wait_for_locks("ExclusiveLock", true, 1);
        session
    }
}

/// Instances of every host this run covers: native, and with Spin on PostgreSQL a Spin one too.
fn hosts() -> Vec<HostKind> {
    if spin_on_postgres() {
        vec![HostKind::Spin, HostKind::Native]
    } else if native() {
        vec![HostKind::Native]
    } else {
        vec![]
    }
}

/// Another session holds the write lock: a write through each host answers 503 `busy` with
/// `Retry-After` once the store timeout (1 s) has passed, not later, and succeeds after the lock is
/// released. Reads are not held up.
#[test]
fn a_write_behind_a_held_lock_answers_busy_within_the_timeout_then_succeeds() {
    let kinds = hosts();
    if kinds.is_empty() {
        return;
    }
    let db = Db::new();
    let key = db.create_key("acme");
    let timeout = Duration::from_secs(1);
    let instances: Vec<(HostKind, Process)> = kinds
        .iter()
        .enumerate()
        .map(|(i, &kind)| {
            let p = db.serve_with(&format!("i{i}"), kind, &[("CARDS_STORE_TIMEOUT", "1s")]);
            (kind, p)
        })
        .collect();
    let tenants: Vec<Tenant> = instances
        .iter()
        .map(|(_, p)| Tenant::at(&p.base_url, &key, "acme"))
        .collect();
    let (acct, card) = account_and_card(&tenants[0], 100);
    let fund = json!({"debitAccountId": acct, "amount": 1});
    let path = format!("/cards/{card}/fund");

    let session = db.hold_write_lock();
    for ((kind, _), t) in instances.iter().zip(&tenants) {
        let started = Instant::now();
        let r = t.post(&path, &fund);
        let took = started.elapsed();
        r.expect_error(503, "busy");
        assert!(
            r.header("retry-after").is_some(),
            "{kind:?}: no Retry-After"
        );
        assert!(
            took >= timeout,
            "{kind:?}: answered after {took:?}, before the lock timeout"
        );
        // Generous: tests run several at a time on a small machine (a held-forever write never answers).
        assert!(
            took < timeout + Duration::from_secs(10),
            "{kind:?}: answered after {took:?}, long after the lock timeout"
        );
        // Reads take no write lock.
        assert_eq!(balance(t, &format!("/cards/{card}")), Decimal::ZERO);
    }
    drop(session);
    for ((kind, _), t) in instances.iter().zip(&tenants) {
        let r = t.post(&path, &fund);
        assert_eq!(r.status, 200, "{kind:?}: {}", r.text);
    }
    assert_eq!(
        balance(&tenants[0], &format!("/cards/{card}")),
        Decimal::from(kinds.len() as i64)
    );
    assert_eq!(
        db.write_locks("ExclusiveLock", true),
        0,
        "no lock outlives its transaction"
    );
}

/// An instance stops in the middle of a write transaction (SIGSTOP, as a hung or trapped instance
/// whose pooled connection stays open) right after it was granted the write lock; then it is
/// killed. PostgreSQL ends the stopped instance's idle transaction after its idle timeout, so a
/// writer that needs the lock alone gets it soon, and the next request on the same database, through
/// another instance, is not blocked.
#[test]
fn an_instance_that_stops_mid_transaction_does_not_wedge_the_database() {
    let kinds = hosts();
    if kinds.is_empty() {
        return;
    }
    let db = Db::new();
    let key = db.create_key("acme");
    // A: lock waits up to 5 s, an idle transaction ends after 10 s. The lock wait must outlast the
    // steps below until the test releases its lock (slow on a loaded machine), or A gives up first.
    let a = db.serve_with("a", HostKind::Native, &[("CARDS_STORE_TIMEOUT", "5s")]);
    let b = db.serve("b", kinds[0]);
    let (ta, tb) = (
        Tenant::at(&a.base_url, &key, "acme"),
        Tenant::at(&b.base_url, &key, "acme"),
    );
    let (acct, card) = account_and_card(&tb, 100);
    let fund = json!({"debitAccountId": acct, "amount": 1});
    let path = format!("/cards/{card}/fund");

    let session = db.hold_write_lock();
    let stuck = {
        let (ta, path, fund) = (ta.clone(), path.clone(), fund.clone());
        thread::spawn(move || {
            let _ = try_send_to(
                &ta.base_url,
                "POST",
                &path,
                &[
                    ("authorization", &format!("Bearer {}", ta.key)),
                    ("content-type", "application/json"),
                ],
                Some(fund.to_string().into_bytes()),
            );
        })
    };
    // A's transaction is open and waits for the lock; stop A, then let PostgreSQL grant it.
    db.wait_for_locks("ExclusiveLock", false, 1);
    // SAFETY: signals to a child process this test started.
    unsafe { libc::kill(a.pid() as libc::pid_t, libc::SIGSTOP) };
    drop(session);
    db.wait_for_locks("ExclusiveLock", true, 1);

    // Another writer gets the lock once A's transactions are ended.
    let started = Instant::now();
    let db_name = db.url.rsplit('/').next().unwrap().to_string();
    db.cluster.psql(
        &db_name,
        &format!(
            "SET lock_timeout = '20s'; BEGIN; SELECT pg_advisory_xact_lock({WRITE_LOCK}); COMMIT;"
        ),
    );
    let waited = started.elapsed();
    assert!(
        waited < Duration::from_secs(20),
        "the stopped instance held the write lock for {waited:?}"
    );
    // Every transaction the stopped instance had open ends by its idle timeout (10 s), also one
    // that waited for the lock behind the first (a background write of A's) and gave up: that one
    // is left "idle in transaction (aborted)" until its own timeout.
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let idle = db.cluster.psql(
            &db_name,
            // This database's sessions only: other tests use other databases of the cluster.
            "SELECT count(*) FROM pg_stat_activity WHERE state LIKE 'idle in transaction%' \
             AND datname = current_database()",
        );
        if idle.trim() == "0" {
            break;
        }
        assert!(Instant::now() < deadline, "a transaction is left open");
        thread::sleep(Duration::from_millis(100));
    }

    // Kill A; the next write through B goes through at once.
    drop(a);
    stuck.join().unwrap();
    let started = Instant::now();
    let r = tb.post(&path, &fund);
    assert_eq!(r.status, 200, "{}", r.text);
    // Well under A's idle-transaction timeout (10 s), with room for a loaded machine.
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(balance(&tb, &format!("/cards/{card}")), Decimal::ONE);
}

/// Two native instances on one database share the webhook delivery queue: each event is delivered
/// once (a delivery is leased by one instance at a time), and when one instance dies with deliveries
/// pending for a receiver that is down, the other delivers them once their leases end.
#[test]
fn webhook_deliveries_on_two_instances_arrive_once_and_survive_one_dying() {
    use acceptance::receiver::Receiver;
    if !native() {
        return;
    }
    let db = Db::new();
    let key = db.create_key("acme");
    // Retries every second for 90 s: the receiver is down a while in the second half.
    let retries = ["1s"; 90].join(",");
    let schedule = [("CARDS_WEBHOOK_RETRY_SCHEDULE", retries.as_str())];
    let a = db.serve_with("a", HostKind::Native, &schedule);
    let b = db.serve_with("b", HostKind::Native, &schedule);
    let (ta, tb) = (
        Tenant::at(&a.base_url, &key, "acme"),
        Tenant::at(&b.base_url, &key, "acme"),
    );
    let receiver = Receiver::start();
    ta.post(
        "/webhook-endpoints",
        &json!({"url": receiver.url("/h"), "enabledEvents": ["account.created"]}),
    )
    .data(201);
    let threads: Vec<_> = [ta.clone(), tb.clone()]
        .into_iter()
        .map(|t| {
            thread::spawn(move || {
                (0..100)
                    .map(|_| id(&create_account(&t, json!({}))))
                    .collect::<Vec<_>>()
                    .len()
            })
        })
        .collect();
    assert_eq!(
        threads
            .into_iter()
            .map(|t| t.join().unwrap())
            .sum::<usize>(),
        200
    );
    let got = receiver.wait_for(Duration::from_secs(60), |r| r.len() >= 200);
    std::thread::sleep(Duration::from_secs(2));
    let got = if receiver.received().len() > got.len() {
        receiver.received()
    } else {
        got
    };
    let mut ids: Vec<&str> = got.iter().map(|r| r.header("webhook-id")).collect();
    ids.sort();
    ids.dedup();
    assert_eq!((ids.len(), got.len()), (200, 200), "each event once");

    // Instance a dies with 50 deliveries pending for a receiver that is down: b delivers them.
    let addr = receiver.stop();
    let created: Vec<String> = (0..50)
        .map(|_| id(&create_account(&ta, json!({}))))
        .collect();
    // SAFETY: a plain kill of a child process this test started.
    unsafe {
        libc::kill(a.pid() as libc::pid_t, libc::SIGKILL);
    }
    let receiver = Receiver::start_on(addr);
    let got = receiver.wait_for(Duration::from_secs(90), |r| {
        let mut objects: Vec<String> = r
            .iter()
            .map(|r| {
                r.json()["data"]["object"]["_id"]
                    .as_str()
                    .unwrap_or("")
                    .to_string()
            })
            .collect();
        objects.sort();
        objects.dedup();
        created.iter().all(|c| objects.binary_search(c).is_ok())
    });
    assert!(got.len() >= 50);
    drop(b);
}
