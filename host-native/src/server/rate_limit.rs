//! Per-client request budgets: one token bucket per authenticated client for reads and one for
//! writes. A bucket holds at most `rate` tokens (a one-second burst) and refills at `rate` per second.
//! Kept here rather than with a crate so the 429 can say exactly how many tokens are left and when
//! the bucket is full again (the `RateLimit-*` headers), and so tests can drive the clock.
//! Buckets exist only for authenticated clients, so their number is bounded by the API keys.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

use card_core::{Access, Response, Service};

/// A refused request: what the 429 tells the client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limited {
    pub limit: u32,
    /// Whole seconds until one request is allowed again (at least 1).
    pub retry_after_secs: u64,
    /// Whole seconds until the bucket is full again.
    pub reset_secs: u64,
}

impl Limited {
    /// `429 rate_limited` with `Retry-After` and the `RateLimit-*` headers.
    pub fn response(&self) -> Response {
        Service::rate_limited(self.retry_after_secs)
            .with_header("ratelimit-limit", &self.limit.to_string())
            .with_header("ratelimit-remaining", "0")
            .with_header("ratelimit-reset", &self.reset_secs.to_string())
    }
}

struct Bucket {
    tokens: f64,
    last: Instant,
}

struct Budget {
    /// Requests per second; 0 = unlimited.
    rate: u32,
    buckets: Mutex<HashMap<String, Bucket>>,
}

impl Budget {
    fn new(rate: u32) -> Budget {
        Budget {
            rate,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    fn take(&self, client: &str, now: Instant) -> Result<(), Limited> {
        if self.rate == 0 {
            return Ok(());
        }
        let rate = f64::from(self.rate);
        // A poisoned lock only means another request panicked while holding it; the map is still sound.
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        let bucket = buckets.entry(client.to_string()).or_insert(Bucket {
            tokens: rate,
            last: now,
        });
        let elapsed = now.saturating_duration_since(bucket.last).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * rate).min(rate);
        bucket.last = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            return Ok(());
        }
        let secs = |tokens: f64| ((tokens / rate).ceil() as u64).max(1);
        Err(Limited {
            limit: self.rate,
            retry_after_secs: secs(1.0 - bucket.tokens),
            reset_secs: secs(rate - bucket.tokens),
        })
    }
}

pub struct RateLimiter {
    read: Budget,
    write: Budget,
}

impl RateLimiter {
    pub fn new(read_rate: u32, write_rate: u32) -> RateLimiter {
        RateLimiter {
            read: Budget::new(read_rate),
            write: Budget::new(write_rate),
        }
    }

    /// Takes one request from `client`'s budget for this kind of access.
    pub fn check(&self, client: &str, access: Access, now: Instant) -> Result<(), Limited> {
        match access {
            Access::Read => self.read.take(client, now),
            Access::Write => self.write.take(client, now),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_burst_then_refusal_then_refill() {
        let limiter = RateLimiter::new(3, 1);
        let t0 = Instant::now();
        for _ in 0..3 {
            limiter.check("a", Access::Read, t0).unwrap();
        }
        let refused = limiter.check("a", Access::Read, t0).unwrap_err();
        assert_eq!(
            refused,
            Limited {
                limit: 3,
                retry_after_secs: 1,
                reset_secs: 1
            }
        );
        // Another client and the write budget are separate.
        limiter.check("b", Access::Read, t0).unwrap();
        limiter.check("a", Access::Write, t0).unwrap();
        let w = limiter.check("a", Access::Write, t0).unwrap_err();
        assert_eq!((w.limit, w.retry_after_secs), (1, 1));
        // A third of a second later one read token is back.
        let later = t0 + Duration::from_millis(340);
        limiter.check("a", Access::Read, later).unwrap();
        assert!(limiter.check("a", Access::Read, later).is_err());
        let r = refused.response();
        assert_eq!(r.status, 429);
        assert_eq!(r.header_value("retry-after"), Some("1"));
        assert_eq!(r.header_value("ratelimit-limit"), Some("3"));
    }

    #[test]
    fn zero_means_unlimited() {
        let limiter = RateLimiter::new(0, 0);
        let t0 = Instant::now();
        for _ in 0..10_000 {
            limiter.check("a", Access::Write, t0).unwrap();
        }
    }
}
