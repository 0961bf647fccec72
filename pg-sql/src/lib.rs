//! The PostgreSQL statements of both PostgreSQL adapters, the native server's (`host-native`'s
//! `store::pg`) and the Spin component's (`host-wasm`'s `spin_pg`, `--features postgres`): plain
//! text, so native instances and Spin replicas share one database with one schema. A crate of its
//! own so that neither host depends on the other (ARCHITECTURE.md, "PostgreSQL, both hosts").

mod conflict;

pub use conflict::{Attempt, Failure, Next};

/// The schema this release creates and reads (`cards_schema.version`).
pub const SCHEMA_VERSION: i32 = 1;

/// Serializes schema creation when several instances start at once (any fixed number works).
pub const SCHEMA_LOCK: i64 = 0x6361_7264_7300;

/// The schema, one statement each (Spin's `execute` runs one statement at a time). One table of
/// ordered byte keys and values: the core owns the key layout and its indexes.
pub const SCHEMA: [&str; 2] = [
    "CREATE TABLE IF NOT EXISTS cards_schema (version integer NOT NULL)",
    "CREATE TABLE IF NOT EXISTS cards_kv (k bytea PRIMARY KEY, v bytea NOT NULL)",
];
/// Taken first in the schema transaction (parameter: [`SCHEMA_LOCK`]).
pub const LOCK_SCHEMA: &str = "SELECT pg_advisory_xact_lock($1)";
/// Quiets the "already exists, skipping" notices of every later start.
pub const QUIET: &str = "SET LOCAL client_min_messages = warning";
/// One row even on an empty table (an aggregate), NULL when no version is stored.
pub const SCHEMA_VERSION_READ: &str = "SELECT max(version) FROM cards_schema";
pub const SCHEMA_VERSION_WRITE: &str = "INSERT INTO cards_schema (version) VALUES ($1)";

pub const GET: &str = "SELECT v FROM cards_kv WHERE k = $1";
pub const PUT: &str =
    "INSERT INTO cards_kv (k, v) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v";
pub const DELETE: &str = "DELETE FROM cards_kv WHERE k = $1";
/// A transaction's held puts in one statement: `$1` -> `$2`, each key once (so `ON CONFLICT` never
/// meets a row twice).
pub const PUT_MANY: &str = "INSERT INTO cards_kv (k, v) SELECT * FROM unnest($1::bytea[], $2::bytea[]) \
     ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v";
/// A transaction's held deletes in one statement: a join with the keys, each looked up in the
/// primary key.
pub const DELETE_MANY: &str =
    "DELETE FROM cards_kv USING unnest($1::bytea[]) AS gone(k) WHERE cards_kv.k = gone.k";
pub const SCAN_FORWARD: &str =
    "SELECT k, v FROM cards_kv WHERE k >= $1 AND k < $2 ORDER BY k LIMIT $3";
pub const SCAN_REVERSE: &str =
    "SELECT k, v FROM cards_kv WHERE k >= $1 AND k < $2 ORDER BY k DESC LIMIT $3";

/// What a scan of `start..end` for at most `limit` pairs runs: the statement of its direction
/// (`[forward, reverse]`, either adapter's form of them) and its `LIMIT` parameter; None when it
/// cannot find any pair (an empty range, a zero limit), answered without a query.
pub fn scan_plan<S>(
    [forward_statement, reverse_statement]: [S; 2],
    forward: bool,
    (start, end): (&[u8], &[u8]),
    limit: usize,
) -> Option<(S, i64)> {
    let statement = if forward {
        forward_statement
    } else {
        reverse_statement
    };
    (start < end && limit > 0).then(|| (statement, i64::try_from(limit).unwrap_or(i64::MAX)))
}

#[cfg(test)]
#[test]
fn a_scan_that_cannot_find_a_pair_runs_no_query() {
    let statements = [SCAN_FORWARD, SCAN_REVERSE];
    assert_eq!(
        scan_plan(statements, true, (b"a", b"b"), 5),
        Some((SCAN_FORWARD, 5))
    );
    assert_eq!(
        scan_plan(statements, false, (b"a", b"b"), usize::MAX),
        Some((SCAN_REVERSE, i64::MAX))
    );
    assert_eq!(scan_plan(statements, true, (b"b", b"b"), 5), None);
    assert_eq!(scan_plan(statements, true, (b"c", b"b"), 5), None);
    assert_eq!(scan_plan(statements, true, (b"a", b"b"), 0), None);
}

// The Spin component's reads. Spin 4.0.0 to 4.0.2 never return from a `spin:postgres` query
// that yields no row (spinframework/spin#3671, fixed by #3673 after 4.0.2), and the component
// reads missing keys all the time. So none of its queries can yield zero rows: a point read is
// one row holding the value or NULL, and a range scan carries a sentinel row whose key is NULL,
// which the adapter drops. The native adapter keeps the plain statements above.

/// A point read: always one row, the value or NULL when the key is missing.
pub const GET_ONE_ROW: &str = "SELECT (SELECT v FROM cards_kv WHERE k = $1) AS v";
/// A forward scan, or the sentinel `(NULL, NULL)` alone when the range is empty: the limited
/// scan is the inner side of a LEFT JOIN with one row. That join can only be a nested loop over
/// that one row, which passes the index scan's rows on in order (no sort over the range; the
/// adapter checks the order all the same).
pub const SCAN_FORWARD_SENTINEL: &str = "SELECT s.k, s.v FROM (SELECT 1) one LEFT JOIN (SELECT k, v FROM cards_kv WHERE k >= $1 AND k < $2 ORDER BY k LIMIT $3) s ON true";
pub const SCAN_REVERSE_SENTINEL: &str = "SELECT s.k, s.v FROM (SELECT 1) one LEFT JOIN (SELECT k, v FROM cards_kv WHERE k >= $1 AND k < $2 ORDER BY k DESC LIMIT $3) s ON true";

/// A write request: its reads and writes in one transaction PostgreSQL makes serializable.
pub const BEGIN_WRITE: &str = "BEGIN ISOLATION LEVEL SERIALIZABLE";
/// A read request: one snapshot, never a conflict.
pub const BEGIN_READ: &str = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY";
/// The schema transaction: READ COMMITTED, so after the advisory lock it sees what another
/// instance created meanwhile.
pub const BEGIN_SCHEMA: &str = "BEGIN";
pub const COMMIT: &str = "COMMIT";
pub const ROLLBACK: &str = "ROLLBACK";

/// The write lock of every write transaction, native or Spin (any fixed number other than
/// [`SCHEMA_LOCK`]), held alone: the instances' writes run one after another. Every write touches
/// a few shared keys (the sharded counts of events and ledger entries), so two writes side by
/// side conflicted nearly always: SERIALIZABLE aborted one, or they deadlocked and waited out
/// `deadlock_timeout` (1 s) first; two instances funding cards did 13 to 56 requests a second
/// against 465 to 586 with the lock held alone (README "Scale out").
///
/// Transaction-level locks only: COMMIT or ROLLBACK releases them, so a connection that goes
/// back to a pool (Spin pools them across requests) keeps no lock, and PostgreSQL ends a
/// transaction left idle by a dead instance after [`SET_TIMEOUTS`]'s idle timeout.
pub const WRITE_LOCK: i64 = 0x6361_7264_7301;
/// Bounded waits for one transaction (`SET LOCAL`, as `set_config(.., true)` so the values can
/// be parameters): `$1` milliseconds for a lock (`lock_timeout`) and for each statement
/// (`statement_timeout`), `$2` for the transaction to sit idle (a dead or trapped instance's
/// transaction, and its locks, end then). A timeout fails the statement with SQLSTATE 55P03 or
/// 57014 ([`is_timeout`]); hosts answer it `503 busy` with `Retry-After`.
pub const SET_TIMEOUTS: &str = "SELECT set_config('lock_timeout', $1, true), set_config('statement_timeout', $1, true), set_config('idle_in_transaction_session_timeout', $2, true)";
/// [`SET_TIMEOUTS`] and then [`WRITE_LOCK`] (`$3`) alone, in one statement, one round trip (the
/// target list is evaluated in order, so `lock_timeout` already bounds the wait for the lock). A
/// write runs this in a transaction of its own on a second connection, and its SERIALIZABLE
/// transaction beside it: that transaction's snapshot is then taken after the wait, so it sees
/// every write that went before it (taken in the write's own transaction, the snapshot would come
/// before the wait).
pub const SET_TIMEOUTS_AND_LOCK_ALONE: &str = "SELECT set_config('lock_timeout', $1, true), set_config('statement_timeout', $1, true), set_config('idle_in_transaction_session_timeout', $2, true), pg_advisory_xact_lock($3)";
/// The idle timeout for the whole session (`$1`, [`timeout_params`]' second), set once per
/// connection: a statement's error undoes its transaction's `SET LOCAL`s, so a transaction whose
/// lock wait ran out of time in an instance that then hung would sit open, aborted, with no idle
/// timeout of its own.
pub const SET_IDLE_TIMEOUT_SESSION: &str =
    "SELECT set_config('idle_in_transaction_session_timeout', $1, false)";
/// The default of the hosts' store timeout setting (milliseconds).
pub const DEFAULT_TIMEOUT_MS: u64 = 5_000;

/// [`SET_TIMEOUTS`]' parameters for a timeout of `ms` milliseconds: the idle timeout is twice
/// as long, so a transaction that waits alone beside a re-run outlasts the re-run's statements.
pub fn timeout_params(ms: u64) -> [String; 2] {
    [ms.to_string(), ms.saturating_mul(2).to_string()]
}

/// A statement for a connection a pool hands over: ends a transaction an earlier request
/// left open (with its locks); on a clean connection it only warns.
pub const RESET: &str = "ROLLBACK";

/// How many times one request is run before it is answered `503 busy` ([`Attempt`]).
pub const MAX_ATTEMPTS: u32 = 8;

/// The most milliseconds of the random pause before try `attempt + 1`: it grows with the
/// attempt, so conflicting instances stop colliding.
pub fn backoff_cap_ms(attempt: u32) -> u64 {
    1u64 << attempt.min(6)
}

/// Whether a PostgreSQL error, as text, is a serialization failure (SQLSTATE 40001) or a deadlock
/// (40P01): running the transaction again may succeed. Spin's `spin:postgres@3.0.0` reports a
/// query error as text only (`query-failed(string)`, tokio-postgres's `Debug` form, which names
/// the code as `SqlState(E40001)`); the messages cover servers and hosts that word it otherwise.
pub fn is_conflict(error: &str) -> bool {
    ["E40001", "E40P01", "SQLSTATE 40001", "SQLSTATE 40P01"]
        .iter()
        .any(|code| error.contains(code))
        || error.contains("could not serialize access")
        || error.contains("deadlock detected")
}

/// Whether a PostgreSQL error, as text, is a lock wait or statement that ran out of time
/// (SQLSTATE 55P03 lock_not_available, 57014 query_canceled): answered `503 busy`.
pub fn is_timeout(error: &str) -> bool {
    ["E55P03", "E57014", "SQLSTATE 55P03", "SQLSTATE 57014"]
        .iter()
        .any(|code| error.contains(code))
        || error.contains("canceling statement due to")
}

/// Whether a PostgreSQL error, as text, says the schema is missing (SQLSTATE 42P01, undefined
/// table): a database no instance has started on yet.
pub fn is_undefined_table(error: &str) -> bool {
    error.contains("E42P01") || error.contains("SQLSTATE 42P01")
}

/// The message for a database whose schema this release does not read.
pub fn newer_schema(version: i32) -> String {
    format!("the database schema is version {version}; this release reads version {SCHEMA_VERSION}")
}
