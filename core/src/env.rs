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
        let mut buf = [0; 24];
        match self.rfc3339_in(&mut buf) {
            Some(text) => text.to_string(),
            None => self.to_rfc3339_general(),
        }
    }

    /// chrono's RFC 3339, for every instant.
    fn to_rfc3339_general(self) -> String {
        self.to_datetime()
            .to_rfc3339_opts(SecondsFormat::Millis, true)
    }

    /// [`Timestamp::to_rfc3339`] written into `buf` without chrono or an allocation (a view writes
    /// several instants per record); None before 1970 or past year 9999, which chrono writes.
    pub fn rfc3339_in(self, buf: &mut [u8; 24]) -> Option<&str> {
        if self.0 < 0 {
            return None;
        }
        let secs = self.0 / 1000;
        let (days, of_day) = (secs / 86_400, secs % 86_400);
        // The civil date of a day since the epoch (Howard Hinnant's days-to-civil); days >= 0.
        let z = days + 719_468;
        let (era, doe) = (z / 146_097, z % 146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + i64::from(month <= 2);
        if year > 9999 {
            return None;
        }
        *buf = *b"0000-00-00T00:00:00.000Z";
        let mut put = |at: usize, width: usize, mut n: i64| {
            for i in (at..at + width).rev() {
                buf[i] = b'0' + (n % 10) as u8;
                n /= 10;
            }
        };
        put(0, 4, year);
        put(5, 2, month);
        put(8, 2, day);
        put(11, 2, of_day / 3600);
        put(14, 2, of_day / 60 % 60);
        put(17, 2, of_day % 60);
        put(20, 3, self.0 % 1000);
        std::str::from_utf8(buf).ok()
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

    /// The random stream's state: [`DeterministicEnv::rewind`] to it draws the same bytes again
    /// (a test that a repeated PAN is refused).
    pub fn random_state(&self) -> u64 {
        *self.rng.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn rewind(&self, state: u64) {
        *self.rng.lock().unwrap_or_else(|e| e.into_inner()) = state;
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

    /// The last instant of year 9999.
    const LAST: i64 = 253_402_300_799_999;

    #[test]
    fn rfc3339_is_chronos_at_the_edges() {
        for millis in [
            i64::MIN,
            -1,
            0,
            1,
            951_782_400_000, // 2000-02-29
            4_107_542_399_999,
            LAST,
            LAST + 1,
            i64::MAX,
        ] {
            let t = Timestamp(millis);
            assert_eq!(t.to_rfc3339(), t.to_rfc3339_general(), "{millis}");
        }
        let mut buf = [0; 24];
        assert_eq!(Timestamp(-1).rfc3339_in(&mut buf), None);
        assert_eq!(Timestamp(LAST + 1).rfc3339_in(&mut buf), None);
        assert_eq!(
            Timestamp(LAST).rfc3339_in(&mut buf),
            Some("9999-12-31T23:59:59.999Z")
        );
    }

    proptest::proptest! {
        #[test]
        fn rfc3339_is_chronos(millis in 0..=LAST) {
            let t = Timestamp(millis);
            proptest::prop_assert_eq!(t.to_rfc3339(), t.to_rfc3339_general());
        }
    }
}
