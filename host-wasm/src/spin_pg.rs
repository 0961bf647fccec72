//! The Spin component on PostgreSQL (`--features postgres`, used when the Spin variable `database_url`
//! is set), through Spin's outbound PostgreSQL `spin:postgres/postgres@3.0.0`.
//!
//! Same database as the native server's `--store`: the table `cards_kv` and the versioned schema of
//! [`crate::pg`], so native instances and Spin replicas can share one database. Every request is a
//! fresh instance with a connection of its own:
//! - a write request runs in one SERIALIZABLE transaction; when PostgreSQL aborts it on a conflict with
//!   another transaction (SQLSTATE 40001) or a deadlock (40P01), the whole request is run again from
//!   scratch after a short random pause, up to [`sql::MAX_ATTEMPTS`] times, then answered `503 busy`
//!   with `Retry-After`: the native server's conflict policy, [`Attempt`], which both drive;
//! - a read request runs in a READ ONLY REPEATABLE READ transaction: one snapshot, no conflicts;
//! - the response leaves only after COMMIT succeeded.
//!
//! Writes run one at a time across every instance: a write request holds the advisory lock
//! [`sql::WRITE_LOCK`] alone from a second connection and runs beside it (native instances take the
//! same lock; its documentation says why), so the conflicts above arise only with a writer that
//! does not take it. The lock is transaction-level: Spin pools connections across requests, and a
//! session lock (or a transaction) an instance left behind when it trapped would pass to the next
//! request. So every connection is reset first ([`sql::RESET`]), every write transaction sets its
//! lock, statement and idle timeouts ([`sql::SET_TIMEOUTS`], the variable `store_timeout`), and a
//! write that times out waiting is answered `503 busy` with `Retry-After`.
//!
//! No query here can return zero rows (Spin 4.0.0 to 4.0.2 never return from one,
//! spinframework/spin#3671): point reads, scans and the schema version read use the one-row and
//! sentinel statements of [`crate::pg`].
//!
//! The schema is created (and the data format stamped) by the first request that finds it missing.

use card_core::storage::KvPair;
use card_core::{Access, Direction, Request, Response, Service, StoreError, Tx, Validated};
use spin_sdk::pg3::{Connection, DbValue, ParameterValue, PgError};

use crate::pg::{self as sql, Attempt, Failure, Next};
use crate::spin::{Asking, WasiEnv, fail};

/// How one try of a request ended.
enum Outcome {
    Done(Response),
    /// Serialization failure or deadlock: running it again may succeed.
    Conflict(String),
    /// A lock wait or a statement ran out of time: answered `503 busy`.
    Busy(String),
    /// The schema (or the data format stamp) is missing: create it, then run the request again.
    NeedsSetup,
    Failed(String),
}

/// Opens a connection and ends whatever transaction a pooled one was left in.
fn open(url: &str) -> Result<Connection, String> {
    let conn = Connection::open(url).map_err(|e| describe(&e))?;
    conn.execute(sql::RESET, &[])
        .map_err(|e| format!("cannot reset the connection: {}", describe(&e)))?;
    Ok(conn)
}

/// The write lock held alone by a transaction on a connection of its own, beside every write's
/// transaction (`cards_pg_sql::WRITE_LOCK` says why); released (ROLLBACK) when dropped.
struct Alone(Connection);

impl Alone {
    fn take(url: &str, timeouts: &[ParameterValue]) -> Result<Alone, Outcome> {
        let conn = open(url).map_err(|e| Outcome::Failed(format!("cannot connect: {e}")))?;
        let refused = |e: PgError| failed("cannot take the write lock", &describe(&e));
        // A trapped instance leaves this connection in Spin's pool: its session times an aborted
        // transaction out too.
        conn.execute(sql::SET_IDLE_TIMEOUT_SESSION, &timeouts[1..])
            .map_err(refused)?;
        conn.execute(sql::BEGIN_SCHEMA, &[]).map_err(refused)?;
        // Held before the wait: a lock wait that runs out of time aborts the transaction, and
        // dropping `Alone` then ends it at once (not only after the session's idle timeout).
        let alone = Alone(conn);
        let mut params = timeouts.to_vec();
        params.push(ParameterValue::Int64(sql::WRITE_LOCK));
        alone
            .0
            .execute(sql::SET_TIMEOUTS_AND_LOCK_ALONE, &params)
            .map_err(refused)?;
        Ok(alone)
    }
}

impl Drop for Alone {
    fn drop(&mut self) {
        // Closing the connection rolls back too; a pooled one is reset by its next request.
        rollback(&self.0);
    }
}

/// Runs the request on the database at `url`; writes wait at most `timeout_ms` for a lock.
pub(crate) fn serve(
    req: &Request,
    staged: Option<&Validated>,
    access: Access,
    service: &Service,
    env: &WasiEnv,
    url: &str,
    timeout_ms: u64,
) -> Response {
    let conn = match open(url) {
        Ok(conn) => conn,
        Err(e) => return fail(&format!("cannot connect to PostgreSQL: {e}")),
    };
    let timeouts = sql::timeout_params(timeout_ms).map(ParameterValue::Str);
    let write = access == Access::Write;
    let mut set_up = false;
    let mut attempt = Attempt::FIRST;
    loop {
        // A write holds the lock alone first, so its own snapshot comes after the wait.
        let alone = if write {
            match Alone::take(url, &timeouts) {
                Ok(alone) => Some(alone),
                Err(outcome) => return finish(req, outcome),
            }
        } else {
            None
        };
        let outcome = run_once(&conn, req, staged, access, service, env, &timeouts);
        drop(alone);
        match outcome {
            Outcome::NeedsSetup if !set_up => {
                set_up = true;
                if let Err(e) = set_up_schema(&conn) {
                    return fail(&format!("cannot create the PostgreSQL schema: {e}"));
                }
            }
            Outcome::NeedsSetup => {
                return fail("the PostgreSQL schema is still missing after creating it");
            }
            Outcome::Conflict(cause) => {
                let tries = attempt.number();
                let random = wasi::random::random::get_random_u64();
                match attempt.after(Failure::Conflict, random) {
                    Next::Rerun {
                        attempt: next,
                        pause_ms,
                    } => {
                        eprintln!(
                            "host-wasm: write conflict with another transaction (try {tries}); re-running: {cause}"
                        );
                        pause(pause_ms);
                        attempt = next;
                    }
                    Next::Busy | Next::Fail => {
                        eprintln!(
                            "host-wasm: request still conflicting after {tries} tries; answered busy"
                        );
                        return Service::busy();
                    }
                }
            }
            other => return finish(req, other),
        }
    }
}

/// The response of a try that ends the request.
fn finish(req: &Request, outcome: Outcome) -> Response {
    match outcome {
        // `spin::handle` logs a failure's cause with the request id.
        Outcome::Done(resp) => resp,
        Outcome::Busy(cause) => {
            eprintln!(
                "host-wasm: {} {}: timed out; answered busy: {cause}",
                req.method, req.path
            );
            Service::busy()
        }
        Outcome::Conflict(cause) | Outcome::Failed(cause) => fail(&cause),
        Outcome::NeedsSetup => fail("the PostgreSQL schema is missing"),
    }
}

/// One try: BEGIN, the schema version, the data format, the core, COMMIT.
/// A write sets its timeouts (the caller holds the write lock beside it).
/// A write that asks first, prechecked and validated on a read transaction (rolled back before the
/// call), and what it should send (`spin::Asking`). None on a storage failure, or before the schema
/// exists: the write then runs every stage itself, and answers it.
pub(crate) fn ask(req: &Request, service: &Service, env: &WasiEnv, url: &str) -> Option<Asking> {
    let conn = open(url).ok()?;
    conn.execute(sql::BEGIN_READ, &[]).ok()?;
    let asking = match schema_version(&conn) {
        Ok(Some(v)) if v == sql::SCHEMA_VERSION => {
            let mut tx = PgTx::new(&conn, true);
            crate::spin::asking(req, service, &mut tx, env).filter(|_| tx.outcome().is_none())
        }
        _ => None,
    };
    rollback(&conn);
    asking
}

/// Runs `f` in one short write transaction of its own (beside the store's write lock held alone,
/// as a request's), for the deliveries a host sends: take them, then record what came of them. A
/// conflict or a failure is an error: nothing is written, and the deliveries stay queued.
pub(crate) fn in_write<T>(
    url: &str,
    timeout_ms: u64,
    f: impl FnOnce(&mut dyn Tx) -> Result<T, String>,
) -> Result<T, String> {
    let timeouts = sql::timeout_params(timeout_ms).map(ParameterValue::Str);
    let _alone = Alone::take(url, &timeouts).map_err(|outcome| match outcome {
        Outcome::Conflict(cause) | Outcome::Busy(cause) | Outcome::Failed(cause) => cause,
        Outcome::Done(_) | Outcome::NeedsSetup => "cannot take the write lock".to_string(),
    })?;
    let conn = open(url)?;
    let steps: [(&str, &[ParameterValue]); 2] =
        [(sql::BEGIN_WRITE, &[]), (sql::SET_TIMEOUTS, &timeouts)];
    for (statement, params) in steps {
        if let Err(e) = conn.execute(statement, params) {
            rollback(&conn);
            return Err(describe(&e));
        }
    }
    match schema_version(&conn) {
        Ok(Some(v)) if v == sql::SCHEMA_VERSION => {}
        _ => {
            rollback(&conn);
            return Err("the PostgreSQL schema is not there yet".into());
        }
    }
    let mut tx = PgTx::new(&conn, false);
    let out = f(&mut tx);
    let out = crate::sql::settle(out, tx.failed.take(), || rollback(&conn))?;
    conn.execute(sql::COMMIT, &[]).map_err(|e| describe(&e))?;
    Ok(out)
}

fn run_once(
    conn: &Connection,
    req: &Request,
    staged: Option<&Validated>,
    access: Access,
    service: &Service,
    env: &WasiEnv,
    timeouts: &[ParameterValue],
) -> Outcome {
    let begin = match access {
        Access::Write => sql::BEGIN_WRITE,
        Access::Read => sql::BEGIN_READ,
    };
    if let Err(e) = conn.execute(begin, &[]) {
        return failed("cannot begin a transaction", &describe(&e));
    }
    let mut outcome = None;
    if access == Access::Write {
        let steps: &[(&str, &[ParameterValue])] = &[(sql::SET_TIMEOUTS, timeouts)];
        for (statement, params) in steps {
            if let Err(e) = conn.execute(statement, params) {
                outcome = Some(failed("cannot set the timeouts", &describe(&e)));
                break;
            }
        }
    }
    let outcome =
        outcome.unwrap_or_else(|| run_in_transaction(conn, req, staged, service, env, access));
    match outcome {
        // A failed COMMIT already ended the transaction; everything else is rolled back.
        Outcome::Done(_) => {}
        _ => rollback(conn),
    }
    outcome
}

fn run_in_transaction(
    conn: &Connection,
    req: &Request,
    staged: Option<&Validated>,
    service: &Service,
    env: &WasiEnv,
    access: Access,
) -> Outcome {
    match schema_version(conn) {
        Ok(Some(v)) if v == sql::SCHEMA_VERSION => {}
        Ok(Some(v)) => return Outcome::Failed(sql::newer_schema(v)),
        Ok(None) => return Outcome::NeedsSetup,
        Err(e) if sql::is_undefined_table(&e) => return Outcome::NeedsSetup,
        Err(e) => return failed("cannot read the schema version", &e),
    }
    let mut tx = PgTx::new(conn, access == Access::Read);
    // Every request is a fresh instance, so the data format is checked per request: one point read.
    if let Err(e) = Service::open_store(&mut tx) {
        if tx.wanted_write {
            // A read request on a database no write has stamped yet.
            return Outcome::NeedsSetup;
        }
        return tx
            .outcome()
            .unwrap_or_else(|| Outcome::Failed(e.to_string()));
    }
    // A re-run (a conflict) runs the same validated request again: its body is not parsed again.
    let resp = crate::spin::run(req, staged, service, &mut tx, env);
    if let Some(outcome) = tx.outcome() {
        return outcome;
    }
    if env.random_failed.get() {
        return Outcome::Failed("the WASI random source failed".into());
    }
    match conn.execute(sql::COMMIT, &[]) {
        Ok(_) => Outcome::Done(resp),
        // PostgreSQL ended the transaction either way; nothing is left to roll back.
        Err(e) => failed("commit failed", &describe(&e)),
    }
}

/// The outcome of a statement that failed with `e` ([`Failure::of_message`]).
fn failed(what: &str, e: &str) -> Outcome {
    match Failure::of_message(e) {
        Failure::Conflict => Outcome::Conflict(e.to_string()),
        Failure::Timeout => Outcome::Busy(e.to_string()),
        Failure::Other => Outcome::Failed(format!("{what}: {e}")),
    }
}

fn rollback(conn: &Connection) {
    if let Err(e) = conn.execute(sql::ROLLBACK, &[]) {
        // The connection closes with the instance, which rolls back anyway.
        eprintln!("host-wasm: rollback failed: {}", describe(&e));
    }
}

/// `cards_schema`'s version; an error (as text) when the table is missing.
fn schema_version(conn: &Connection) -> Result<Option<i32>, String> {
    let rows = conn
        .query(sql::SCHEMA_VERSION_READ, &[])
        .map_err(|e| describe(&e))?;
    match rows.rows.first().and_then(|row| row.first()) {
        None | Some(DbValue::DbNull) => Ok(None),
        Some(DbValue::Int32(v)) => Ok(Some(*v)),
        Some(other) => Err(format!("the schema version is not an integer: {other:?}")),
    }
}

/// Creates the tables and the schema version (under an advisory lock, so instances starting at
/// once do it one after the other) and stamps the data format of an empty store, in one
/// transaction. Refuses a schema newer than this release's.
fn set_up_schema(conn: &Connection) -> Result<(), String> {
    let exec = |statement: &str, params: &[ParameterValue]| {
        conn.execute(statement, params)
            .map(|_| ())
            .map_err(|e| describe(&e))
    };
    exec(sql::BEGIN_SCHEMA, &[])?;
    let result = (|| {
        exec(sql::LOCK_SCHEMA, &[ParameterValue::Int64(sql::SCHEMA_LOCK)])?;
        exec(sql::QUIET, &[])?;
        for statement in sql::SCHEMA {
            exec(statement, &[])?;
        }
        match schema_version(conn)? {
            None => exec(
                sql::SCHEMA_VERSION_WRITE,
                &[ParameterValue::Int32(sql::SCHEMA_VERSION)],
            )?,
            Some(v) if v == sql::SCHEMA_VERSION => {}
            Some(v) => return Err(sql::newer_schema(v)),
        }
        let mut tx = PgTx::new(conn, false);
        Service::open_store(&mut tx).map_err(|e| e.to_string())
    })();
    match result {
        Ok(()) => exec(sql::COMMIT, &[]),
        Err(e) => {
            rollback(conn);
            Err(e)
        }
    }
}

/// The pause before a re-run (WASI's monotonic clock), so conflicting instances stop colliding.
fn pause(ms: u64) {
    wasi::clocks::monotonic_clock::subscribe_duration(ms * 1_000_000).block();
}

/// The text of a pg3 error; a query error carries PostgreSQL's SQLSTATE in it.
fn describe(e: &PgError) -> String {
    match e {
        PgError::ConnectionFailed(m) => format!("connection failed: {m}"),
        PgError::BadParameter(m) => format!("bad parameter: {m}"),
        PgError::QueryFailed(m) => m.clone(),
        PgError::ValueConversionFailed(m) => format!("value conversion failed: {m}"),
        PgError::Other(m) => m.clone(),
    }
}

/// The core's storage port over the request's PostgreSQL transaction.
struct PgTx<'a> {
    conn: &'a Connection,
    read_only: bool,
    /// The first storage error: after it PostgreSQL refuses every later statement of the
    /// transaction, and the request must be re-run (a conflict) or answered 500, never committed.
    failed: Option<String>,
    /// A write was asked for in a read-only transaction.
    wanted_write: bool,
}

impl<'a> PgTx<'a> {
    fn new(conn: &'a Connection, read_only: bool) -> PgTx<'a> {
        PgTx {
            conn,
            read_only,
            failed: None,
            wanted_write: false,
        }
    }

    /// What the request comes to when storage failed underneath it.
    fn outcome(&self) -> Option<Outcome> {
        self.failed
            .as_deref()
            .map(|e| failed("storage failed during the request", e))
    }

    fn note<T>(&mut self, r: Result<T, PgError>) -> Result<T, StoreError> {
        r.map_err(|e| {
            let e = describe(&e);
            self.failed.get_or_insert_with(|| e.clone());
            StoreError(e)
        })
    }

    fn query(
        &mut self,
        statement: &str,
        params: &[ParameterValue],
    ) -> Result<Vec<Vec<DbValue>>, StoreError> {
        let r = self.conn.query(statement, params);
        self.note(r).map(|set| set.rows)
    }

    fn execute(&mut self, statement: &str, params: &[ParameterValue]) -> Result<(), StoreError> {
        if self.read_only {
            self.wanted_write = true;
            return Err(StoreError::read_only());
        }
        let r = self.conn.execute(statement, params);
        self.note(r).map(|_| ())
    }
}

fn bytes(value: DbValue) -> Result<Vec<u8>, StoreError> {
    match value {
        DbValue::Binary(bytes) => Ok(bytes),
        _ => Err(StoreError(
            "cards_kv holds a value that is not bytea".into(),
        )),
    }
}

fn binary(b: &[u8]) -> ParameterValue {
    ParameterValue::Binary(b.to_vec())
}

impl Tx for PgTx<'_> {
    fn get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        let rows = self.query(sql::GET_ONE_ROW, &[binary(key)])?;
        match rows
            .into_iter()
            .next()
            .and_then(|row| row.into_iter().next())
        {
            Some(DbValue::DbNull) => Ok(None),
            Some(value) => bytes(value).map(Some),
            None => Err(StoreError("a point read returned no row".into())),
        }
    }

    fn put(&mut self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        self.execute(sql::PUT, &[binary(key), binary(value)])
    }

    fn delete(&mut self, key: &[u8]) -> Result<(), StoreError> {
        self.execute(sql::DELETE, &[binary(key)])
    }

    fn scan(
        &mut self,
        start: &[u8],
        end: &[u8],
        dir: Direction,
        limit: usize,
    ) -> Result<Vec<KvPair>, StoreError> {
        let sentinels = [sql::SCAN_FORWARD_SENTINEL, sql::SCAN_REVERSE_SENTINEL];
        let forward = dir == Direction::Forward;
        let Some((statement, limit)) = sql::scan_plan(sentinels, forward, (start, end), limit)
        else {
            return Ok(Vec::new());
        };
        let n = ParameterValue::Int64(limit);
        let mut pairs: Vec<KvPair> = Vec::new();
        for row in self.query(statement, &[binary(start), binary(end), n])? {
            let mut values = row.into_iter();
            match (values.next(), values.next()) {
                // The sentinel of an empty range.
                (Some(DbValue::DbNull), _) => {}
                (Some(k), Some(v)) => {
                    let k = bytes(k)?;
                    let in_order = pairs.last().is_none_or(|(last, _)| match dir {
                        Direction::Forward => *last < k,
                        Direction::Reverse => *last > k,
                    });
                    if !in_order {
                        return Err(StoreError(
                            "cards_kv scan returned rows out of order".into(),
                        ));
                    }
                    pairs.push((k, bytes(v)?));
                }
                _ => return Err(StoreError("cards_kv scan returned a short row".into())),
            }
        }
        Ok(pairs)
    }
}
