//! PostgreSQL behind the core's `Tx` port, for several `cards` instances on one database.
//!
//! One table `cards_kv` of `bytea` keys (primary key, so ordered by bytes) to `bytea` values: the core
//! owns the key layout and its indexes. `cards_schema` holds the schema version, created on first start.
//!
//! Transactions: a group-commit batch is one SERIALIZABLE transaction, run while a transaction on a
//! second connection holds the advisory lock [`sql::WRITE_LOCK`] alone: the writes of every
//! instance, native or Spin, run one after another (why: the lock's documentation), and the batch's
//! snapshot is taken after the wait. SERIALIZABLE stays as the guard against a writer that does not
//! take the lock: a batch that fails on a conflict (SQLSTATE 40001) or a deadlock is split and
//! re-run from scratch, so one conflicting request cannot fail the others; a single request is
//! re-run a bounded number of times, then answered 503 `busy`. The locks are transaction-level
//! (released by COMMIT or ROLLBACK, so no pooled connection keeps one), and every write transaction
//! bounds its lock waits and statements (`--store-timeout`): a write that times out is answered 503
//! `busy` with `Retry-After`. Reads run in READ ONLY REPEATABLE READ transactions: one snapshot, no
//! conflicts, no lock.

use std::collections::{BTreeMap, HashMap};
use std::ops::{Bound, Range};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use anyhow::Context as _;
use card_core::storage::KvPair;
use card_core::{Direction, Response, Service, StoreError, Tx};
use postgres::error::SqlState;
use postgres::{Client, IsolationLevel, Statement, Transaction};
use tokio_postgres_rustls::MakeRustlsConnect;

use super::StorageError;
use tracing::{error, info, warn};

use crate::store::batch::{Batch, BatchStore, Committed, Fatal, Settle};

/// The SQL text and schema version, shared with the Spin component (`host-wasm --features postgres`).
use cards_pg_sql::{self as sql, Attempt, Failure, Next, SCHEMA_LOCK, SCHEMA_VERSION};

/// Connections per instance (the writer holds one; reads share the rest).
const POOL_SIZE: u32 = 16;

/// The prepared statements of one connection: prepared once, not per query.
struct Statements {
    get: Statement,
    put_many: Statement,
    delete_many: Statement,
    scan_forward: Statement,
    scan_reverse: Statement,
    /// A write transaction's lock, statement and idle timeouts.
    timeouts: Statement,
    /// The timeouts and the write lock, transaction-level, alone, in one round trip.
    timeouts_lock_alone: Statement,
}

pub struct Conn {
    client: Client,
    stmts: Statements,
    /// Set when a transaction could not be ended: the pool must not hand the session out again.
    broken: bool,
}

/// Opens connections for the pool and prepares their statements.
struct Manager {
    config: postgres::Config,
    tls: MakeRustlsConnect,
    /// [`sql::SET_IDLE_TIMEOUT_SESSION`]'s parameter.
    idle_ms: String,
}

impl r2d2::ManageConnection for Manager {
    type Connection = Conn;
    type Error = postgres::Error;

    fn connect(&self) -> Result<Conn, postgres::Error> {
        let mut client = self.config.connect(self.tls.clone())?;
        client.execute(sql::SET_IDLE_TIMEOUT_SESSION, &[&self.idle_ms])?;
        let stmts = Statements {
            get: client.prepare(sql::GET)?,
            put_many: client.prepare(sql::PUT_MANY)?,
            delete_many: client.prepare(sql::DELETE_MANY)?,
            scan_forward: client.prepare(sql::SCAN_FORWARD)?,
            scan_reverse: client.prepare(sql::SCAN_REVERSE)?,
            timeouts: client.prepare(sql::SET_TIMEOUTS)?,
            timeouts_lock_alone: client.prepare(sql::SET_TIMEOUTS_AND_LOCK_ALONE)?,
        };
        Ok(Conn {
            client,
            stmts,
            broken: false,
        })
    }

    fn is_valid(&self, conn: &mut Conn) -> Result<(), postgres::Error> {
        conn.client.simple_query("").map(|_| ())
    }

    fn has_broken(&self, conn: &mut Conn) -> bool {
        conn.broken || conn.client.is_closed()
    }
}

/// The database of several instances: a connection pool and counters of conflicts.
pub struct PgStore {
    pool: r2d2::Pool<Manager>,
    /// Where it is, without the password, for logs.
    label: String,
    /// Transactions re-run after a serialization failure or deadlock.
    pub retries: AtomicU64,
    /// Requests answered `busy` after [`sql::MAX_ATTEMPTS`] or a timeout.
    pub busy: AtomicU64,
    /// [`sql::SET_TIMEOUTS`]' parameters (`--store-timeout`).
    timeouts: [String; 2],
}

/// Why a transaction did not commit, by its SQLSTATE (the policy's [`Failure`]).
fn classify(e: &postgres::Error) -> Failure {
    Failure::of_code(e.code().map(SqlState::code))
}

fn failure(e: postgres::Error) -> (Failure, String) {
    (classify(&e), cause(&e))
}

/// The server's own words for an error it sent (SQLSTATE, message, detail): `postgres::Error`
/// displays only "db error" for those.
fn cause(e: &postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => match db.detail() {
            Some(detail) => format!("{} {}: {detail}", db.code().code(), db.message()),
            None => format!("{} {}", db.code().code(), db.message()),
        },
        None => e.to_string(),
    }
}

fn store_err(e: postgres::Error) -> StoreError {
    StoreError(cause(&e))
}

/// True for a `--store` value this adapter takes.
pub fn is_url(store: &str) -> bool {
    store.starts_with("postgres://") || store.starts_with("postgresql://")
}

impl PgStore {
    /// Connects, creates (or checks) the schema and the data format. Fails with a message fit for
    /// the operator: unreachable server, wrong credentials, a newer schema.
    /// Writes wait at most `timeout` for a lock or one statement.
    pub fn open(url: &str, timeout: Duration) -> anyhow::Result<PgStore> {
        let (url, roots) = split_roots(url);
        let config: postgres::Config = url
            .parse()
            .context("--store / CARDS_STORE is not a PostgreSQL URL")?;
        let label = label(&config);
        // The causes stay a chain under this context: `{:#}` prints them all ("error performing
        // TLS handshake: invalid peer certificate: UnknownIssuer"), the driver's message alone
        // rarely says what to fix.
        let fail = || format!("cannot open PostgreSQL store {label}");
        let tls = tls(&roots).with_context(fail)?;
        let mut client = config.connect(tls.clone()).with_context(fail)?;
        migrate(&mut client).with_context(fail)?;
        drop(client);
        let timeouts = sql::timeout_params(
            u64::try_from(timeout.as_millis())
                .unwrap_or(u64::MAX)
                .max(1),
        );
        let idle_ms = timeouts[1].clone();
        let pool = r2d2::Pool::builder()
            .max_size(POOL_SIZE)
            .min_idle(Some(1))
            // No extra round trip per checkout: a broken connection is dropped when it comes back
            // (`has_broken`), and the request that hit it fails with a storage error.
            .test_on_check_out(false)
            .connection_timeout(Duration::from_secs(30))
            .build(Manager {
                config,
                tls,
                idle_ms,
            })
            .with_context(fail)?;
        let store = PgStore {
            pool,
            label: label.clone(),
            retries: AtomicU64::new(0),
            busy: AtomicU64::new(0),
            timeouts,
        };
        store
            .write(|tx| card_core::Service::open_store(tx).map_err(anyhow::Error::from))
            .with_context(fail)?;
        Ok(store)
    }

    pub fn label(&self) -> &str {
        &self.label
    }

    fn conn(&self) -> Result<r2d2::PooledConnection<Manager>, StoreError> {
        self.pool.get().map_err(|e| StoreError(e.to_string()))
    }

    /// Runs `f` in a read-only snapshot (REPEATABLE READ) transaction, begun at `f`'s first read:
    /// PostgreSQL takes the snapshot at the first statement anyway, and a write's first stage (the
    /// key's check, with the keys configured at start) often reads nothing, which then costs no
    /// round trip.
    pub fn read<R>(&self, f: impl FnOnce(&mut dyn Tx) -> R) -> Result<R, StoreError> {
        let mut conn = self.conn()?;
        let conn = &mut *conn;
        let mut lazy = LazyRead {
            client: Some(&mut conn.client),
            stmts: &conn.stmts,
            tx: None,
        };
        let out = f(&mut lazy);
        if let Some(adapter) = lazy.tx {
            adapter.tx.commit().map_err(store_err)?;
        }
        Ok(out)
    }

    /// Runs `f` in one SERIALIZABLE transaction and commits, re-running it on conflicts (for the
    /// command line and the start-up check).
    /// `f`'s own error comes back as it is; a transaction that cannot commit, as
    /// [`StorageError::Postgres`].
    pub fn write<R, E: From<StorageError>>(
        &self,
        mut f: impl FnMut(&mut dyn Tx) -> Result<R, E>,
    ) -> Result<R, E> {
        let mut attempt = Attempt::FIRST;
        loop {
            let failure = match self.in_write(|tx| {
                let out = f(tx);
                match (tx.failure.take(), out) {
                    (None, Ok(value)) => Ok(Ok(value)),
                    (Some(failure), _) => Err(failure),
                    (None, Err(e)) => Ok(Err(e)),
                }
            }) {
                Ok(Ok(value)) => return Ok(value),
                Ok(Err(e)) => return Err(e),
                Err(failure) => failure,
            };
            match attempt.after(failure.0, random()) {
                Next::Rerun {
                    attempt: next,
                    pause_ms,
                } => {
                    self.retries.fetch_add(1, Ordering::Relaxed);
                    crate::metrics::pg_rerun();
                    pause(pause_ms);
                    attempt = next;
                }
                Next::Busy | Next::Fail => {
                    return Err(StorageError::Postgres(anyhow::Error::msg(failure.1)).into());
                }
            }
        }
    }

    /// Runs `f` in a SERIALIZABLE write transaction with its timeouts set, beside a transaction on
    /// another connection that holds the write lock alone; commits when `f` returns `Ok(Ok(_))`.
    fn in_write<R, E>(
        &self,
        f: impl FnOnce(&mut PgTx<'_>) -> Result<Result<R, E>, (Failure, String)>,
    ) -> Result<Result<R, E>, (Failure, String)> {
        // Taken first: the work's snapshot then comes after the wait.
        let _alone = self.alone()?;
        let mut conn = self.conn().map_err(|e| (Failure::Other, e.0))?;
        let conn = &mut *conn;
        let mut tx = conn
            .client
            .build_transaction()
            .isolation_level(IsolationLevel::Serializable)
            .start()
            .map_err(failure)?;
        let [wait, idle] = &self.timeouts;
        tx.execute(&conn.stmts.timeouts, &[wait, idle])
            .map_err(failure)?;
        let mut adapter = PgTx::new(tx, &conn.stmts, false);
        match f(&mut adapter)? {
            Ok(value) => {
                adapter.commit()?;
                Ok(Ok(value))
            }
            // Dropping the transaction rolls it back.
            Err(e) => Ok(Err(e)),
        }
    }

    /// A connection whose open transaction holds the write lock alone (waiting at most the
    /// timeout); ROLLBACK when dropped releases it.
    fn alone(&self) -> Result<Alone, (Failure, String)> {
        let mut conn = self.conn().map_err(|e| (Failure::Other, e.0))?;
        conn.client
            .batch_execute(sql::BEGIN_SCHEMA)
            .map_err(failure)?;
        let mut alone = Alone(conn);
        let conn = &mut *alone.0;
        let [lock, idle] = &self.timeouts;
        conn.client
            .execute(
                &conn.stmts.timeouts_lock_alone,
                &[lock, idle, &sql::WRITE_LOCK],
            )
            .map_err(failure)?;
        Ok(alone)
    }

    /// One try of `requests` in one transaction.
    fn attempt(
        &self,
        batch: &dyn Batch,
        requests: Range<usize>,
    ) -> Result<Vec<Response>, (Failure, String)> {
        self.in_write(|adapter| {
            let mut responses = Vec::with_capacity(requests.len());
            for i in requests {
                responses.push(batch.run(i, adapter));
                if adapter.failure.is_some() {
                    // The transaction is aborted: nothing after this can succeed.
                    break;
                }
            }
            match adapter.failure.take() {
                Some(failure) => Err(failure),
                None => Ok(Ok::<_, std::convert::Infallible>(responses)),
            }
        })
        .map(|done| match done {
            Ok(responses) => responses,
            Err(never) => match never {},
        })
    }

    /// Runs `requests` in order; on a conflict (only with a writer that does not take the write
    /// lock), halves are run on their own (each committed before the next starts, so order is
    /// kept, each a first try), down to single requests that the conflict policy ([`Attempt`])
    /// re-runs.
    fn run(&self, batch: &dyn Batch, requests: Range<usize>, attempt: Attempt) -> Vec<Response> {
        let (failure, cause) = match self.attempt(batch, requests.clone()) {
            Ok(responses) => return responses,
            Err(failed) => failed,
        };
        let tries = attempt.number();
        if failure == Failure::Conflict {
            self.retries.fetch_add(1, Ordering::Relaxed);
            crate::metrics::pg_rerun();
            info!(batch = requests.len(), tries, cause = %cause, "write conflict with another transaction; re-running");
            if requests.len() > 1 {
                let middle = requests.start + requests.len() / 2;
                let mut out = self.run(batch, requests.start..middle, Attempt::FIRST);
                out.extend(self.run(batch, middle..requests.end, Attempt::FIRST));
                return out;
            }
        }
        match attempt.after(failure, random()) {
            Next::Rerun {
                attempt: next,
                pause_ms,
            } => {
                pause(pause_ms);
                self.run(batch, requests, next)
            }
            Next::Busy => {
                self.busy.fetch_add(1, Ordering::Relaxed);
                if failure == Failure::Conflict {
                    crate::metrics::pg_busy();
                    warn!(tries, "request still conflicting; answered busy");
                } else {
                    warn!(batch = requests.len(), cause = %cause, "PostgreSQL timed out; answered busy");
                }
                requests.map(|_| Service::busy()).collect()
            }
            Next::Fail => {
                error!(batch = requests.len(), cause = %cause, "PostgreSQL batch failed");
                requests
                    .map(|_| Service::internal_error("storage failure in group commit"))
                    .collect()
            }
        }
    }
}

impl BatchStore for PgStore {
    fn commit_batch(&self, batch: &dyn Batch) -> Result<Committed, Fatal> {
        // A failed PostgreSQL transaction leaves nothing latched: the next batch starts afresh.
        Ok(Committed {
            responses: self.run(batch, 0..batch.len(), Attempt::FIRST),
            settle: Settle::Now,
            wrote: true,
        })
    }
}

/// A pooled connection in a transaction that holds the write lock alone.
struct Alone(r2d2::PooledConnection<Manager>);

impl Drop for Alone {
    fn drop(&mut self) {
        if let Err(e) = self.0.client.batch_execute(sql::ROLLBACK) {
            // A session still in the transaction would stall every other instance's writes.
            error!(error = %e, "cannot release the write lock; closing the connection");
            self.0.broken = true;
        }
    }
}

/// The randomness a re-run's pause is drawn from ([`Attempt::after`]).
fn random() -> u64 {
    let mut r = [0u8; 8];
    let _ = getrandom::fill(&mut r);
    u64::from_le_bytes(r)
}

/// The pause before a re-run, so conflicting instances stop colliding.
fn pause(ms: u64) {
    std::thread::sleep(Duration::from_millis(ms));
}

/// Where the server's certificate chain must lead: the URL's `sslrootcert`, read as libpq reads it
/// (a PEM file of CA certificates, or `system` for the operating system's trust store), else Mozilla's
/// roots (webpki-roots). Used when the URL's `sslmode` asks for TLS (`prefer`, the default, falls back
/// to plain TCP on a server without TLS); the chain and the host name are always verified.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Roots {
    Mozilla,
    System,
    File(String),
}

/// The URL without `sslrootcert` (the PostgreSQL driver refuses options it does not know) and the
/// roots it named.
fn split_roots(url: &str) -> (String, Roots) {
    let Some((base, query)) = url.split_once('?') else {
        return (url.to_owned(), Roots::Mozilla);
    };
    let mut roots = Roots::Mozilla;
    let mut kept = form_urlencoded::Serializer::new(String::new());
    for (k, v) in form_urlencoded::parse(query.as_bytes()) {
        if k == "sslrootcert" {
            roots = match &*v {
                "system" => Roots::System,
                path => Roots::File(path.to_owned()),
            };
        } else {
            kept.append_pair(&k, &v);
        }
    }
    let kept = kept.finish();
    if kept.is_empty() {
        (base.to_owned(), roots)
    } else {
        (format!("{base}?{kept}"), roots)
    }
}

fn tls(roots: &Roots) -> anyhow::Result<MakeRustlsConnect> {
    let mut store = rustls::RootCertStore::empty();
    match roots {
        Roots::Mozilla => store.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
        Roots::System => {
            let found = rustls_native_certs::load_native_certs();
            if found.certs.is_empty() {
                anyhow::bail!(
                    "sslrootcert=system: no certificates in the system trust store ({:?})",
                    found.errors
                );
            }
            store.add_parsable_certificates(found.certs);
        }
        Roots::File(path) => {
            use rustls::pki_types::{CertificateDer, pem::PemObject};
            let pem = std::fs::read(path).with_context(|| format!("sslrootcert {path}"))?;
            let certs = CertificateDer::pem_slice_iter(&pem)
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| anyhow::anyhow!("sslrootcert {path}: {e:?}"))?;
            let (added, _) = store.add_parsable_certificates(certs);
            if added == 0 {
                anyhow::bail!("sslrootcert {path}: no CA certificate in it");
            }
        }
    }
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()?
    .with_root_certificates(store)
    .with_no_client_auth();
    Ok(MakeRustlsConnect::new(config))
}

/// `host:port/dbname`, never the password.
fn label(config: &postgres::Config) -> String {
    let host = config
        .get_hosts()
        .first()
        .map(|h| match h {
            postgres::config::Host::Tcp(h) => h.clone(),
            postgres::config::Host::Unix(p) => p.display().to_string(),
        })
        .unwrap_or_default();
    let port = config.get_ports().first().copied().unwrap_or(5432);
    format!("{host}:{port}/{}", config.get_dbname().unwrap_or(""))
}

/// Creates the tables on first start; refuses a schema newer than this release's.
fn migrate(client: &mut Client) -> anyhow::Result<()> {
    let mut tx = client.transaction()?;
    tx.execute(sql::LOCK_SCHEMA, &[&SCHEMA_LOCK])?;
    tx.batch_execute(sql::QUIET)?;
    for statement in sql::SCHEMA {
        tx.batch_execute(statement)?;
    }
    let version: Option<i32> = tx
        .query_opt(sql::SCHEMA_VERSION_READ, &[])?
        .and_then(|row| row.get(0));
    match version {
        None => {
            tx.execute(sql::SCHEMA_VERSION_WRITE, &[&SCHEMA_VERSION])?;
        }
        Some(v) if v == SCHEMA_VERSION => {}
        Some(v) => anyhow::bail!(sql::newer_schema(v)),
    }
    Ok(tx.commit()?)
}

/// One PostgreSQL transaction as the core's `Tx`. Remembers the first failure: after an error
/// PostgreSQL refuses every later statement of the transaction, and the batch needs the first cause.
///
/// Writes are held back and sent together ([`sql::PUT_MANY`], [`sql::DELETE_MANY`]) before the
/// next scan of a range holding one of them and before the commit: a request's writes come from
/// the core's overlay in one burst after its reads, so a batch's writes cost two round trips in
/// all, not one per key. Their failures (a conflict, a timeout) then show at that scan or at the
/// commit, which fail the whole transaction as before.
pub struct PgTx<'a> {
    tx: Transaction<'a>,
    stmts: &'a Statements,
    read_only: bool,
    failure: Option<(Failure, String)>,
    /// The writes not yet sent, the last per key (`None` deletes); key order, so two instances
    /// writing the same keys take their row locks in the same order.
    pending: BTreeMap<Vec<u8>, Option<Vec<u8>>>,
    /// What a write transaction knows the database holds, from its reads and its sent writes: a
    /// group-commit batch's requests read the same keys (a hot card, its account, the test clock,
    /// the webhook subscriptions), and within one transaction PostgreSQL answers a repeated read
    /// alike, so each is one round trip per batch, not per request. At most [`KNOWN_KEYS`].
    known: HashMap<Vec<u8>, Option<Vec<u8>>>,
    /// A write transaction's scans and what they read, until it next sends writes: every request of
    /// a batch runs the idempotency sweep, which reads one range for a whole second.
    scanned: HashMap<Scan, Vec<KvPair>>,
}

/// A scan's range, direction and limit.
type Scan = (Vec<u8>, Vec<u8>, bool, i64);

/// The most scans a write transaction remembers, and the most rows of one (the sweep reads at most
/// 8; a rotation's or an upgrade's pages are read once).
const KNOWN_SCANS: usize = 64;
const KNOWN_SCAN_ROWS: usize = 16;

/// The most keys a write transaction remembers (a rotation or an upgrade reads far more, once).
const KNOWN_KEYS: usize = 4096;

impl<'a> PgTx<'a> {
    fn new(tx: Transaction<'a>, stmts: &'a Statements, read_only: bool) -> PgTx<'a> {
        PgTx {
            tx,
            stmts,
            read_only,
            failure: None,
            pending: BTreeMap::new(),
            known: HashMap::new(),
            scanned: HashMap::new(),
        }
    }

    /// Notes what the database holds at `key` (read, or sent): a known key is updated, a new one
    /// kept while there is room.
    fn remember(&mut self, key: &[u8], value: Option<Vec<u8>>) {
        if self.read_only {
            return;
        }
        if let Some(known) = self.known.get_mut(key) {
            *known = value;
        } else if self.known.len() < KNOWN_KEYS {
            self.known.insert(key.to_vec(), value);
        }
    }

    /// Sends the held writes in one statement.
    fn flush(&mut self) -> Result<(), StoreError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        // What the scans read may change now.
        self.scanned.clear();
        let mut gone = Vec::new();
        let (mut keys, mut values) = (Vec::new(), Vec::new());
        for (key, value) in std::mem::take(&mut self.pending) {
            // Once sent, the database holds it (or the transaction fails).
            self.remember(&key, value.clone());
            match value {
                Some(value) => {
                    keys.push(key);
                    values.push(value);
                }
                None => gone.push(key),
            }
        }
        if !gone.is_empty() {
            let r = self.tx.execute(&self.stmts.delete_many, &[&gone]);
            self.note(r)?;
        }
        if !keys.is_empty() {
            let r = self.tx.execute(&self.stmts.put_many, &[&keys, &values]);
            self.note(r)?;
        }
        Ok(())
    }

    /// Sends the held writes and commits; the first failure of the transaction, if any.
    fn commit(mut self) -> Result<(), (Failure, String)> {
        // A failure noted before the flush is the transaction's first, and the flush would only
        // be refused after it.
        if self.failure.is_none() {
            let _ = self.flush();
        }
        if let Some(failure) = self.failure.take() {
            return Err(failure);
        }
        self.tx.commit().map_err(failure)
    }

    fn note<T>(&mut self, r: Result<T, postgres::Error>) -> Result<T, StoreError> {
        r.map_err(|e| {
            let cause = cause(&e);
            if self.failure.is_none() {
                self.failure = Some((classify(&e), cause.clone()));
            }
            StoreError(cause)
        })
    }

    fn writable(&self) -> Result<(), StoreError> {
        if self.read_only {
            Err(StoreError::read_only())
        } else {
            Ok(())
        }
    }
}

impl Tx for PgTx<'_> {
    fn get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        if let Some(held) = self.pending.get(key).or_else(|| self.known.get(key)) {
            return Ok(held.clone());
        }
        let r = self.tx.query_opt(&self.stmts.get, &[&key]);
        let value: Option<Vec<u8>> = self.note(r)?.map(|row| row.get(0));
        self.remember(key, value.clone());
        Ok(value)
    }

    fn put(&mut self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        self.writable()?;
        self.pending.insert(key.to_vec(), Some(value.to_vec()));
        Ok(())
    }

    fn delete(&mut self, key: &[u8]) -> Result<(), StoreError> {
        self.writable()?;
        self.pending.insert(key.to_vec(), None);
        Ok(())
    }

    fn scan(
        &mut self,
        start: &[u8],
        end: &[u8],
        dir: Direction,
        limit: usize,
    ) -> Result<Vec<KvPair>, StoreError> {
        let statements = [&self.stmts.scan_forward, &self.stmts.scan_reverse];
        let forward = dir == Direction::Forward;
        let Some((stmt, limit)) = sql::scan_plan(statements, forward, (start, end), limit) else {
            return Ok(Vec::new());
        };
        // Only held writes inside the range change what it reads (a request's idempotency sweep
        // reads expired records, which a batch's fundings never write).
        if self
            .pending
            .range::<[u8], _>((Bound::Included(start), Bound::Excluded(end)))
            .next()
            .is_some()
        {
            self.flush()?;
        }
        let scan = (!self.read_only).then(|| (start.to_vec(), end.to_vec(), forward, limit));
        if let Some(rows) = scan.as_ref().and_then(|scan| self.scanned.get(scan)) {
            return Ok(rows.clone());
        }
        let r = self.tx.query(stmt, &[&start, &end, &limit]);
        let rows: Vec<KvPair> = self
            .note(r)?
            .into_iter()
            .map(|row| (row.get(0), row.get(1)))
            .collect();
        if let Some(scan) = scan
            && self.scanned.len() < KNOWN_SCANS
            && rows.len() <= KNOWN_SCAN_ROWS
        {
            self.scanned.insert(scan, rows.clone());
        }
        Ok(rows)
    }
}

/// A read-only transaction begun at its first statement ([`PgStore::read`]).
struct LazyRead<'a> {
    client: Option<&'a mut Client>,
    stmts: &'a Statements,
    tx: Option<PgTx<'a>>,
}

impl<'a> LazyRead<'a> {
    fn begun(&mut self) -> Result<&mut PgTx<'a>, StoreError> {
        let tx = match self.tx.take() {
            Some(tx) => tx,
            None => {
                // Taken once: after a failed begin, every later read fails too.
                let client = self
                    .client
                    .take()
                    .ok_or_else(|| StoreError("the read transaction could not begin".into()))?;
                let tx = client
                    .build_transaction()
                    .isolation_level(IsolationLevel::RepeatableRead)
                    .read_only(true)
                    .start()
                    .map_err(store_err)?;
                PgTx::new(tx, self.stmts, true)
            }
        };
        Ok(self.tx.insert(tx))
    }
}

impl Tx for LazyRead<'_> {
    fn get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.begun()?.get(key)
    }

    fn put(&mut self, _key: &[u8], _value: &[u8]) -> Result<(), StoreError> {
        Err(StoreError::read_only())
    }

    fn delete(&mut self, _key: &[u8]) -> Result<(), StoreError> {
        Err(StoreError::read_only())
    }

    fn scan(
        &mut self,
        start: &[u8],
        end: &[u8],
        dir: Direction,
        limit: usize,
    ) -> Result<Vec<KvPair>, StoreError> {
        self.begun()?.scan(start, end, dir, limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use acceptance::pg_cluster::PgCluster;

    #[test]
    fn sslrootcert_is_taken_out_of_the_url_and_names_the_roots() {
        let (url, roots) =
            split_roots("postgres://u:p@h:5/db?sslmode=require&sslrootcert=%2Fetc%2Fca.pem");
        assert_eq!(url, "postgres://u:p@h:5/db?sslmode=require");
        assert_eq!(roots, Roots::File("/etc/ca.pem".into()));
        let (url, roots) = split_roots("postgres://h/db?sslrootcert=system");
        assert_eq!((url.as_str(), roots), ("postgres://h/db", Roots::System));
        let (url, roots) = split_roots("postgres://h/db");
        assert_eq!((url.as_str(), roots), ("postgres://h/db", Roots::Mozilla));
    }

    /// A CA and a server certificate for 127.0.0.1 signed by it, made with the openssl command.
    fn certificates(dir: &std::path::Path, name: &str) -> std::path::PathBuf {
        let run = |args: &[&str]| {
            let out = std::process::Command::new("openssl")
                .current_dir(dir)
                .args(args)
                .output()
                .expect("run openssl");
            assert!(
                out.status.success(),
                "openssl {args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        };
        let ec = [
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
        ];
        let ca = format!("{name}-ca");
        run(&[
            &["req", "-x509"][..],
            &ec,
            &[
                "-keyout",
                &format!("{ca}.key"),
                "-out",
                &format!("{ca}.pem"),
                "-days",
                "2",
                "-subj",
                "/CN=cards test CA",
            ],
        ]
        .concat());
        run(&[
            &["req"][..],
            &ec,
            &[
                "-keyout",
                &format!("{name}.key"),
                "-out",
                &format!("{name}.csr"),
                "-subj",
                "/CN=127.0.0.1",
            ],
        ]
        .concat());
        std::fs::write(
            dir.join("san.ext"),
            "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n",
        )
        .unwrap();
        run(&[
            "x509",
            "-req",
            "-in",
            &format!("{name}.csr"),
            "-CA",
            &format!("{ca}.pem"),
            "-CAkey",
            &format!("{ca}.key"),
            "-CAcreateserial",
            "-out",
            &format!("{name}.crt"),
            "-days",
            "2",
            "-extfile",
            "san.ext",
        ]);
        dir.join(format!("{ca}.pem"))
    }

    #[test]
    fn tls_trusts_the_ca_file_sslrootcert_names_and_refuses_others() {
        let dir = tempfile::tempdir().unwrap();
        let ca = certificates(dir.path(), "server");
        let other_ca = certificates(dir.path(), "other");
        let key = dir.path().join("server.key");
        acceptance::pg_cluster::give_to_server(dir.path());
        acceptance::pg_cluster::give_to_server(&key);
        std::fs::set_permissions(&key, std::os::unix::fs::PermissionsExt::from_mode(0o600))
            .unwrap();
        let cert_file = format!("ssl_cert_file={}", dir.path().join("server.crt").display());
        let key_file = format!("ssl_key_file={}", key.display());
        let cluster = PgCluster::start(&["fsync=off", "ssl=on", &cert_file, &key_file]);
        let db = cluster.create_database();
        let url = |extra: &str| format!("{db}?sslmode=require{extra}");
        let timeout = Duration::from_secs(5);

        let ok = PgStore::open(&url(&format!("&sslrootcert={}", ca.display())), timeout);
        assert!(ok.is_ok(), "{:?}", ok.err());
        // Mozilla's roots do not know the test CA; neither does another CA.
        // The whole chain, as `cards serve` prints it.
        let refused =
            |url: &str| format!("{:#}", PgStore::open(url, timeout).err().expect("refused"));
        let mozilla = refused(&url(""));
        assert!(
            mozilla.contains("certificate") || mozilla.contains("Certificate"),
            "{mozilla}"
        );
        let other = refused(&url(&format!("&sslrootcert={}", other_ca.display())));
        assert!(other.contains("ertificate"), "{other}");
        // The system's store loads (it is not empty) and does not know the test CA either.
        let system = refused(&url("&sslrootcert=system"));
        assert!(system.contains("UnknownIssuer"), "{system}");
        let missing = refused(&url("&sslrootcert=/nonexistent/ca.pem"));
        assert!(missing.contains("/nonexistent/ca.pem"), "{missing}");
    }
    use std::sync::atomic::AtomicU32;

    fn begin_serializable(
        client: &mut postgres::Client,
    ) -> Result<Transaction<'_>, postgres::Error> {
        client
            .build_transaction()
            .isolation_level(IsolationLevel::Serializable)
            .start()
    }

    /// Body `skew`: reads `b`, then (while `interfere` lasts) lets another SERIALIZABLE transaction read
    /// `a`, write `b` and commit, then writes `a`: a write skew PostgreSQL must refuse. Any other body
    /// is stored as a key.
    struct Skew {
        url: String,
        interfere: AtomicU32,
    }

    impl Batch for Skew {
        fn len(&self) -> usize {
            BATCH.len()
        }

        fn run(&self, i: usize, tx: &mut dyn Tx) -> Response {
            let status = |r: Result<(), StoreError>| {
                Response::bytes(if r.is_ok() { 201 } else { 500 }, "text/plain", Vec::new())
            };
            let body = BATCH[i].as_bytes();
            if body != b"skew" {
                return status(tx.put(body, b"1"));
            }
            if let Err(e) = tx.get(b"b") {
                return status(Err(e));
            }
            if self.interfere.load(Ordering::SeqCst) > 0 {
                self.interfere.fetch_sub(1, Ordering::SeqCst);
                let mut other = postgres::Client::connect(&self.url, postgres::NoTls).unwrap();
                let mut t = begin_serializable(&mut other).unwrap();
                t.query("SELECT v FROM cards_kv WHERE k = 'a'", &[])
                    .unwrap();
                t.execute("UPDATE cards_kv SET v = 'x' WHERE k = 'b'", &[])
                    .unwrap();
                t.commit().unwrap();
            }
            status(tx.put(b"a", b"2"))
        }
    }

    fn setup(interfere: u32) -> (PgCluster, PgStore, Skew) {
        let cluster = PgCluster::start(&["fsync=off"]);
        let url = cluster.create_database();
        let store = PgStore::open(&url, Duration::from_secs(5)).unwrap();
        store
            .write(|tx| {
                tx.put(b"a", b"0").map_err(StorageError::from)?;
                tx.put(b"b", b"0").map_err(StorageError::from)
            })
            .unwrap();
        let handler = Skew {
            url,
            interfere: AtomicU32::new(interfere),
        };
        (cluster, store, handler)
    }

    /// One batch: two plain writes around the skewed one.
    const BATCH: [&str; 3] = ["x1", "skew", "x2"];

    fn statuses(rs: &[Response]) -> Vec<u16> {
        rs.iter().map(|r| r.status).collect()
    }

    #[test]
    fn a_conflicting_batch_is_split_and_re_run() {
        let (_cluster, store, batch) = setup(1);
        let rs = store.commit_batch(&batch).unwrap().responses;
        assert_eq!(statuses(&rs), [201, 201, 201]);
        assert_eq!(store.retries.load(Ordering::SeqCst), 1);
        let got = store
            .read(|tx| ["x1", "x2", "a"].map(|k| tx.get(k.as_bytes()).unwrap()))
            .unwrap();
        assert_eq!(
            got,
            [
                Some(b"1".to_vec()),
                Some(b"1".to_vec()),
                Some(b"2".to_vec())
            ]
        );
    }

    #[test]
    fn a_request_that_keeps_conflicting_is_busy_and_fails_no_other() {
        let (_cluster, store, batch) = setup(u32::MAX);
        let rs = store.commit_batch(&batch).unwrap().responses;
        assert_eq!(statuses(&rs), [201, 503, 201]);
        assert_eq!(
            card_core::http::header_value(&rs[1].headers, "retry-after"),
            Some("1")
        );
        assert_eq!(store.busy.load(Ordering::SeqCst), 1);
        let a = store.read(|tx| tx.get(b"a").unwrap()).unwrap();
        assert_eq!(a, Some(b"0".to_vec()), "the busy request wrote nothing");
    }

    /// Writes are held back and sent before scans and the commit, and reads are kept: a
    /// transaction of random puts, deletes, gets (many of keys read, written or sent before) and
    /// scans reads what a map applying them in order holds, commits exactly that, and a
    /// rolled-back one leaves nothing.
    #[test]
    fn held_writes_read_back_and_commit_as_a_map_would() {
        let (_cluster, store, _) = setup(0);
        let mut model = BTreeMap::<Vec<u8>, Vec<u8>>::new();
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let stored = |store: &PgStore| {
            store
                .read(|tx| tx.scan(b"x/", b"x0", Direction::Forward, 1_000).unwrap())
                .unwrap()
        };
        for round in 0..6 {
            let before = model.clone();
            let rolled_back = round % 3 == 2;
            let outcome = store.write(|tx| {
                for _ in 0..200 {
                    let key = format!("x/{:02}", next(40)).into_bytes();
                    match next(10) {
                        0..=3 => {
                            let value = next(1_000).to_string().into_bytes();
                            tx.put(&key, &value).unwrap();
                            model.insert(key, value);
                        }
                        4 | 5 => {
                            tx.delete(&key).unwrap();
                            model.remove(&key);
                        }
                        6 | 7 => assert_eq!(tx.get(&key).unwrap().as_ref(), model.get(&key)),
                        _ => {
                            let end = format!("x/{:02}", next(41)).into_bytes();
                            let (dir, limit) = if next(2) == 0 {
                                (Direction::Forward, 1 + next(8) as usize)
                            } else {
                                (Direction::Reverse, 1 + next(8) as usize)
                            };
                            let want: Vec<KvPair> = {
                                let span = model
                                    .range(key.clone()..)
                                    .take_while(|(k, _)| **k < end)
                                    .map(|(k, v)| (k.clone(), v.clone()));
                                match dir {
                                    Direction::Forward => span.take(limit).collect(),
                                    Direction::Reverse => {
                                        let all: Vec<KvPair> = span.collect();
                                        all.into_iter().rev().take(limit).collect()
                                    }
                                }
                            };
                            assert_eq!(tx.scan(&key, &end, dir, limit).unwrap(), want);
                        }
                    }
                }
                if rolled_back {
                    Err(StorageError::Postgres(anyhow::anyhow!("rolled back")))
                } else {
                    Ok(())
                }
            });
            assert_eq!(outcome.is_err(), rolled_back);
            if rolled_back {
                model = before;
            }
            let want: Vec<KvPair> = model.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
            assert_eq!(stored(&store), want, "round {round}");
        }
        assert!(!model.is_empty());
    }

    /// A write transaction answers a repeated scan from memory only while nothing it wrote since
    /// falls in the range: a write inside it shows at once, held or sent.
    #[test]
    fn a_repeated_scan_sees_the_writes_made_since() {
        let (_cluster, store, _) = setup(0);
        let keys = |rows: Vec<KvPair>| rows.into_iter().map(|(k, _)| k).collect::<Vec<_>>();
        store
            .write(|tx| {
                let scan =
                    |tx: &mut dyn Tx| keys(tx.scan(b"s/", b"s0", Direction::Forward, 8).unwrap());
                assert_eq!(scan(tx), Vec::<Vec<u8>>::new());
                tx.put(b"t", b"outside").unwrap();
                assert_eq!(scan(tx), Vec::<Vec<u8>>::new());
                tx.put(b"s/1", b"1").unwrap();
                assert_eq!(scan(tx), [b"s/1".to_vec()]);
                // Sent by that scan; then one more, held, and one gone.
                tx.put(b"s/2", b"2").unwrap();
                tx.delete(b"s/1").unwrap();
                assert_eq!(scan(tx), [b"s/2".to_vec()]);
                assert_eq!(scan(tx), [b"s/2".to_vec()]);
                Ok::<_, StorageError>(())
            })
            .unwrap();
        let after = store
            .read(|tx| keys(tx.scan(b"s/", b"s0", Direction::Forward, 8).unwrap()))
            .unwrap();
        assert_eq!(after, [b"s/2".to_vec()]);
    }

    #[test]
    fn reads_are_read_only_and_scans_are_ordered() {
        let (_cluster, store, _) = setup(0);
        store
            .write(|tx| {
                for k in [&b"k\x01"[..], b"k\x02", b"k\xff", b"l"] {
                    tx.put(k, k).map_err(StorageError::from)?;
                }
                tx.delete(b"l").map_err(StorageError::from)
            })
            .unwrap();
        let (fwd, rev, write) = store
            .read(|tx| {
                (
                    tx.scan(b"k", b"l", Direction::Forward, 10).unwrap(),
                    tx.scan(b"k", b"m", Direction::Reverse, 2).unwrap(),
                    tx.put(b"z", b"z"),
                )
            })
            .unwrap();
        let keys = |v: &[KvPair]| v.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>();
        assert_eq!(
            keys(&fwd),
            [b"k\x01".to_vec(), b"k\x02".to_vec(), b"k\xff".to_vec()]
        );
        assert_eq!(keys(&rev), [b"k\xff".to_vec(), b"k\x02".to_vec()]);
        assert!(write.is_err());
    }
}
