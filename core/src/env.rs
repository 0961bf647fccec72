//! The environment port: time and randomness come from the host, never from the OS inside the core.

use std::sync::Mutex;

use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Serialize};

/// Milliseconds since the Unix epoch, UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Timestamp(pub i64);

impl Timestamp {
    pub fn millis(self) -> i64 {
        self.0
    }

    pub fn seconds(self) -> i64 {
        self.0.div_euclid(1000)
    }

    pub fn plus_seconds(self, secs: i64) -> Timestamp {
        Timestamp(self.0.saturating_add(secs.saturating_mul(1000)))
    }

    pub fn to_datetime(self) -> DateTime<Utc> {
        DateTime::from_timestamp_millis(self.0).unwrap_or_default()
    }

    /// RFC 3339 in UTC with millisecond precision, e.g. `2026-11-22T10:00:00.000Z`.
    pub fn to_rfc3339(self) -> String {
        self.to_datetime()
            .to_rfc3339_opts(SecondsFormat::Millis, true)
    }

    pub fn parse_rfc3339(s: &str) -> Option<Timestamp> {
        DateTime::parse_from_rfc3339(s)
            .ok()
            .map(|d| Timestamp(d.timestamp_millis()))
    }
}

pub trait Env {
    fn now(&self) -> Timestamp;
    /// Fills `buf` with cryptographically secure random bytes.
    fn fill_random(&self, buf: &mut [u8]);
}

/// A fixed clock that tests move by hand, and a seeded (not secure) random stream: every run is the same.
pub struct DeterministicEnv {
    now: Mutex<Timestamp>,
    rng: Mutex<u64>,
}

impl DeterministicEnv {
    pub fn new(start: Timestamp, seed: u64) -> DeterministicEnv {
        DeterministicEnv {
            now: Mutex::new(start),
            rng: Mutex::new(seed),
        }
    }

    pub fn set_now(&self, t: Timestamp) {
        *self.now.lock().unwrap_or_else(|e| e.into_inner()) = t;
    }

    pub fn advance_millis(&self, ms: i64) {
        let mut now = self.now.lock().unwrap_or_else(|e| e.into_inner());
        *now = Timestamp(now.0 + ms);
    }
}

impl Default for DeterministicEnv {
    fn default() -> Self {
        // 2026-11-22T10:00:00.000Z
        DeterministicEnv::new(Timestamp(1_795_341_600_000), 7)
    }
}

impl Env for DeterministicEnv {
    fn now(&self) -> Timestamp {
        *self.now.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn fill_random(&self, buf: &mut [u8]) {
        let mut state = self.rng.lock().unwrap_or_else(|e| e.into_inner());
        for chunk in buf.chunks_mut(8) {
            // splitmix64
            *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = *state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            chunk.copy_from_slice(&z.to_le_bytes()[..chunk.len()]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_rfc3339_millis() {
        assert_eq!(
            DeterministicEnv::default().now().to_rfc3339(),
            "2026-11-22T10:00:00.000Z"
        );
        let t = Timestamp::parse_rfc3339("2026-11-22T10:00:00.123Z").unwrap();
        assert_eq!(t.to_rfc3339(), "2026-11-22T10:00:00.123Z");
    }
}
