//! The card service as WebAssembly, one crate with a face per target:
//! - `wasm32-wasip2` (any `target_os = "wasi"`): a Spin HTTP component ([`spin`]), storage on Spin SQLite,
//!   or on PostgreSQL with the cargo feature `postgres` and the Spin variable `database_url`;
//! - `wasm32-unknown-unknown`: the browser face ([`browser`]), the core's own validators as wasm-bindgen
//!   functions for the page in `web/`.
//!
//! On the host target the crate builds as a library of the target-independent parts (`sql`, `pg`, settings), so `cargo build --workspace` and
//! `cargo clippy --workspace` keep working without a wasm toolchain.

#[cfg(target_os = "wasi")]
pub mod spin;

#[cfg(all(target_os = "wasi", feature = "postgres"))]
mod spin_pg;

#[cfg(target_os = "wasi")]
mod spin_out;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub mod browser;

/// The SQLite statements of the Spin storage adapter: plain text, kept target-independent so their
/// shape is unit-tested on the host too.
pub mod sql {
    /// One table for the core's ordered key-value port. `WITHOUT ROWID` stores rows in key order,
    /// so range scans walk the primary-key b-tree directly. SQLite compares BLOBs with memcmp and then
    /// by length: exactly the byte order the core's key layout assumes.
    pub const CREATE: &str = "CREATE TABLE IF NOT EXISTS kv (k BLOB PRIMARY KEY NOT NULL, v BLOB NOT NULL) WITHOUT ROWID";
    pub const GET: &str = "SELECT v FROM kv WHERE k = ?";
    pub const PUT: &str =
        "INSERT INTO kv (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v";
    pub const DELETE: &str = "DELETE FROM kv WHERE k = ?";
    pub const SCAN_FORWARD: &str =
        "SELECT k, v FROM kv WHERE k >= ? AND k < ? ORDER BY k ASC LIMIT ?";
    pub const SCAN_REVERSE: &str =
        "SELECT k, v FROM kv WHERE k >= ? AND k < ? ORDER BY k DESC LIMIT ?";
    /// Takes the write lock up front, so a write request never fails half-way on a lock upgrade.
    pub const BEGIN_WRITE: &str = "BEGIN IMMEDIATE";
    /// A deferred transaction: every read of one request sees one snapshot.
    pub const BEGIN_READ: &str = "BEGIN";
    pub const COMMIT: &str = "COMMIT";
    pub const ROLLBACK: &str = "ROLLBACK";
    /// How long SQLite itself waits for another connection's lock before answering SQLITE_BUSY.
    pub const BUSY_TIMEOUT: &str = "PRAGMA busy_timeout = 5000";
    /// How many times in all a BEGIN or COMMIT that found the database busy is tried.
    pub const BUSY_ATTEMPTS: u32 = 4;

    /// Whether an error from the database is SQLite's "busy"/"locked" (another writer holds the
    /// lock), which is worth retrying, rather than a real failure.
    pub fn is_busy(error: &str) -> bool {
        let e = error.to_ascii_lowercase();
        e.contains("database is locked")
            || e.contains("busy")
            || e.contains("database table is locked")
    }

    /// Runs `op` until it succeeds or fails with something other than busy, at most `attempts` times.
    /// A COMMIT that failed busy leaves its transaction open, so running it again is sound.
    pub fn retry_busy<T>(
        attempts: u32,
        mut op: impl FnMut() -> Result<T, String>,
    ) -> Result<T, String> {
        let mut tries = 1;
        loop {
            match op() {
                Err(e) if is_busy(&e) && tries < attempts => tries += 1,
                other => return other,
            }
        }
    }

    /// What a write's closure returned, unless the store failed underneath it (`failed`, which
    /// wins); `rollback` runs on either error, so nothing of a failed write is committed.
    pub fn settle<T>(
        out: Result<T, String>,
        failed: Option<String>,
        rollback: impl FnOnce(),
    ) -> Result<T, String> {
        let out = match failed {
            Some(e) => Err(e),
            None => out,
        };
        if out.is_err() {
            rollback();
        }
        out
    }

    /// The `LIMIT` value for a scan: SQLite takes an i64, and a negative one means "no limit".
    pub fn limit(limit: usize) -> i64 {
        i64::try_from(limit).unwrap_or(-1)
    }
}

/// The PostgreSQL statements, shared with the native server through their own crate.
pub use cards_pg_sql as pg;

/// Parsing of the Spin variables (`vault_key`, `token_ttl`; `api_keys` is parsed by the core).
pub mod settings {
    // The core's vault-key parser, the one the native server's key file and flags use.
    use card_core::domain::vault::parse_key_hex;

    /// Parses the `vault_key` variable: 64 hex characters (32 bytes); empty means not configured.
    pub fn parse_vault_key(value: &str) -> Result<Option<[u8; 32]>, String> {
        let value = value.trim();
        if value.is_empty() {
            return Ok(None);
        }
        parse_key_hex(value)
            .map(Some)
            .map_err(|_| "vault_key must be 64 hex characters (32 bytes)".to_string())
    }

    /// Parses the `vault_keys` variable: vault keys separated by commas, spaces or newlines, the
    /// first active (it seals), the others only opening what they sealed until a rotation.
    pub fn parse_vault_keys(value: &str) -> Result<Vec<[u8; 32]>, String> {
        value
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|k| !k.is_empty())
            .map(|k| {
                parse_key_hex(k)
                    .map_err(|_| "vault_keys: each key must be 64 hex characters".to_string())
            })
            .collect()
    }

    /// Parses the `token_ttl` variable (seconds); empty means the core's default.
    pub fn parse_token_ttl(value: &str) -> Result<Option<i64>, String> {
        parse_ttl("token_ttl", value)
    }

    /// Parses a lifetime variable `name` (seconds, > 0); empty means the core's default.
    /// An on/off variable, on when empty.
    pub fn parse_switch(name: &str, value: &str) -> Result<bool, String> {
        match value.trim().to_ascii_lowercase().as_str() {
            "" | "on" | "true" | "yes" | "1" => Ok(true),
            "off" | "false" | "no" | "0" => Ok(false),
            _ => Err(format!("{name} must be on or off")),
        }
    }

    pub fn parse_ttl(name: &str, value: &str) -> Result<Option<i64>, String> {
        let value = value.trim();
        if value.is_empty() {
            return Ok(None);
        }
        match value.parse::<i64>() {
            Ok(secs) if secs > 0 => Ok(Some(secs)),
            _ => Err(format!("{name} must be a positive number of seconds")),
        }
    }

    /// Parses the `store_timeout` variable (as the native `--store-timeout`: `5s`, `500ms`, `1m`, a
    /// bare number is seconds) into milliseconds; empty means the default.
    pub fn parse_store_timeout(value: &str) -> Result<u64, String> {
        let value = value.trim();
        if value.is_empty() {
            return Ok(crate::pg::DEFAULT_TIMEOUT_MS);
        }
        let split = value
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(value.len());
        let (n, unit) = value.split_at(split);
        let bad = || format!("store_timeout must be a duration such as 5s or 500ms, not {value:?}");
        let n: u64 = n.parse().map_err(|_| bad())?;
        let ms = match unit.trim() {
            "" | "s" => n.saturating_mul(1000),
            "ms" => n,
            "m" => n.saturating_mul(60_000),
            _ => return Err(bad()),
        };
        if ms == 0 {
            return Err("store_timeout must be more than zero".into());
        }
        Ok(ms)
    }

    /// Parses the `webhook_retry_schedule` variable (as the native `--webhook-retry-schedule`: waits
    /// separated by commas, each `500ms`, `5s`, `2m`, `1h`, `7d`, a bare number is seconds); empty
    /// means the default schedule.
    pub fn parse_retry_schedule(value: &str) -> Result<Option<Vec<std::time::Duration>>, String> {
        let value = value.trim();
        if value.is_empty() {
            return Ok(None);
        }
        let bad = |w: &str| {
            format!("webhook_retry_schedule: {w:?} is not a duration such as 5s, 500ms, 2m, 1h, 7d")
        };
        value
            .split(',')
            .map(|w| {
                let w = w.trim();
                let split = w.find(|c: char| !c.is_ascii_digit()).unwrap_or(w.len());
                let (n, unit) = w.split_at(split);
                let n: u64 = n.parse().map_err(|_| bad(w))?;
                let ms = match unit.trim() {
                    "ms" => n,
                    "" | "s" => n.saturating_mul(1000),
                    "m" => n.saturating_mul(60_000),
                    "h" => n.saturating_mul(3_600_000),
                    "d" => n.saturating_mul(86_400_000),
                    _ => return Err(bad(w)),
                };
                if ms == 0 {
                    return Err(format!(
                        "webhook_retry_schedule: {w:?} must be more than zero"
                    ));
                }
                Ok(std::time::Duration::from_millis(ms))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    /// Whether `given` is the operator's `expected` key, in time that does not depend on where they
    /// first differ (only on their lengths).
    pub fn same_key(given: &str, expected: &str) -> bool {
        let (a, b) = (given.as_bytes(), expected.as_bytes());
        let diff = a
            .iter()
            .zip(b)
            .fold(u8::from(a.len() != b.len()), |acc, (x, y)| acc | (x ^ y));
        diff == 0
    }
}

#[cfg(test)]
mod tests {
    use super::settings::*;
    use super::sql::{is_busy, limit, retry_busy};

    #[test]
    fn retry_schedules_and_dispatch_keys_parse() {
        use std::time::Duration;
        assert_eq!(parse_retry_schedule(" ").unwrap(), None);
        assert_eq!(
            parse_retry_schedule("500ms, 2, 1m,1h,1d").unwrap(),
            Some(vec![
                Duration::from_millis(500),
                Duration::from_secs(2),
                Duration::from_secs(60),
                Duration::from_secs(3600),
                Duration::from_secs(86_400),
            ])
        );
        for bad in ["0s", "5x", "s", "1,,2"] {
            assert!(parse_retry_schedule(bad).is_err(), "{bad}");
        }
        assert!(same_key("k3y-0123", "k3y-0123"));
        assert!(!same_key("k3y-0124", "k3y-0123"));
        assert!(!same_key("k3y-012", "k3y-0123"));
        assert!(!same_key("", "k"));
    }

    #[test]
    fn postgres_conflicts_are_told_from_other_errors() {
        use super::pg::{is_conflict, is_undefined_table};
        // The `Debug` text tokio-postgres gives (and Spin passes on in `query-failed`).
        let serialization = r#"Error { kind: Db, cause: Some(DbError { severity: "ERROR", parsed_severity: Some(Error), code: SqlState(E40001), message: "could not serialize access due to read/write dependencies among transactions" }) }"#;
        assert!(is_conflict(serialization));
        assert!(is_conflict("ERROR: deadlock detected"));
        assert!(is_conflict("db error: SQLSTATE 40P01"));
        let unique = r#"Error { kind: Db, cause: Some(DbError { code: SqlState(E23505), message: "duplicate key value" }) }"#;
        assert!(!is_conflict(unique));
        assert!(!is_conflict("connection refused"));
        assert!(is_undefined_table(
            r#"Error { kind: Db, cause: Some(DbError { code: SqlState(E42P01), message: "relation \"cards_schema\" does not exist" }) }"#
        ));
        assert!(!is_undefined_table(serialization));
    }

    #[test]
    fn limit_maps_unbounded_to_negative() {
        assert_eq!(limit(10), 10);
        assert_eq!(limit(usize::MAX), -1);
    }

    #[test]
    fn busy_is_retried_and_other_errors_are_not() {
        let mut calls = 0;
        let r = retry_busy(4, || {
            calls += 1;
            if calls < 3 {
                Err("database is locked".to_string())
            } else {
                Ok(calls)
            }
        });
        assert_eq!(r, Ok(3));
        let mut calls = 0;
        let r: Result<(), String> = retry_busy(4, || {
            calls += 1;
            Err("SQLITE_BUSY: database is busy".to_string())
        });
        assert!(r.is_err());
        assert_eq!(calls, 4);
        let mut calls = 0;
        let r: Result<(), String> = retry_busy(4, || {
            calls += 1;
            Err("disk I/O error".to_string())
        });
        assert_eq!((r, calls), (Err("disk I/O error".to_string()), 1));
        assert!(!is_busy("no such table: kv"));
    }

    #[test]
    fn store_timeout_parsing() {
        assert_eq!(parse_store_timeout(""), Ok(crate::pg::DEFAULT_TIMEOUT_MS));
        assert_eq!(parse_store_timeout("3"), Ok(3000));
        assert_eq!(parse_store_timeout(" 250ms "), Ok(250));
        assert_eq!(parse_store_timeout("2m"), Ok(120_000));
        assert!(parse_store_timeout("0s").is_err());
        assert!(parse_store_timeout("5h").is_err());
        assert!(parse_store_timeout("ms").is_err());
    }

    #[test]
    fn postgres_timeouts_are_told_from_other_errors() {
        use super::pg::{is_conflict, is_timeout, timeout_params};
        let lock = r#"Error { kind: Db, cause: Some(DbError { code: SqlState(E55P03), message: "canceling statement due to lock timeout" }) }"#;
        assert!(is_timeout(lock) && !is_conflict(lock));
        assert!(is_timeout("db error: SQLSTATE 57014"));
        assert!(!is_timeout("db error: SQLSTATE 40001"));
        assert_eq!(
            timeout_params(1500),
            ["1500".to_string(), "3000".to_string()]
        );
    }

    #[test]
    fn vault_keys_parsing() {
        assert!(parse_vault_keys(" ").unwrap().is_empty());
        let keys = parse_vault_keys(&format!("{},\n{}", "0f".repeat(32), "a0".repeat(32))).unwrap();
        assert_eq!(keys, vec![[0x0f; 32], [0xa0; 32]]);
        assert!(parse_vault_keys(&"0f".repeat(31)).is_err());
    }

    #[test]
    fn vault_key_parsing() {
        assert_eq!(parse_vault_key("").unwrap(), None);
        let key = parse_vault_key(&"0f".repeat(32)).unwrap().unwrap();
        assert_eq!(key, [0x0f; 32]);
        assert!(parse_vault_key(&"0f".repeat(31)).is_err());
        assert!(parse_vault_key(&"zz".repeat(32)).is_err());
    }

    #[test]
    fn token_ttl_parsing() {
        assert_eq!(parse_token_ttl("").unwrap(), None);
        assert_eq!(parse_token_ttl(" 300 ").unwrap(), Some(300));
        assert!(parse_token_ttl("0").is_err());
        assert!(parse_token_ttl("abc").is_err());
        assert_eq!(parse_ttl("authorization_ttl", "60").unwrap(), Some(60));
        assert!(parse_switch("test_clock", "").unwrap());
        assert!(!parse_switch("test_clock", " OFF ").unwrap());
        assert!(parse_switch("test_clock", "maybe").is_err());
        let err = parse_ttl("authorization_ttl", "-1").unwrap_err();
        assert!(err.starts_with("authorization_ttl"), "{err}");
    }
}
