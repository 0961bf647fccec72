//! The real clock and the OS random number generator, for the core's `Env` port.

use std::time::{SystemTime, UNIX_EPOCH};

use card_core::{Env, Timestamp};

/// Wall-clock time and OS randomness. Stateless, so one instance serves every thread.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemEnv;

impl Env for SystemEnv {
    fn now(&self) -> Timestamp {
        // A clock before 1970 is a broken host; clamp rather than fail every request.
        let millis = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
            .unwrap_or(0);
        Timestamp(millis)
    }

    fn fill_random(&self, buf: &mut [u8]) {
        // rand's thread-local generator: a CSPRNG (ChaCha) seeded and periodically reseeded from the
        // OS, without a system call per draw (a card issue draws many times: id, PAN digits, CVV).
        // If the OS cannot seed it, it panics; the host catches that and answers that request 500.
        rand::RngCore::fill_bytes(&mut rand::rng(), buf);
    }
}

/// The OS could not give random bytes.
#[derive(Debug, thiserror::Error)]
#[error("the OS random number generator failed: {0}")]
pub struct RandomError(getrandom::Error);

/// Random bytes outside any request (startup), as a plain error instead of a panic.
pub fn random_bytes<const N: usize>() -> Result<[u8; N], RandomError> {
    let mut buf = [0u8; N];
    getrandom::fill(&mut buf).map_err(RandomError)?;
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_is_recent_and_random_is_not_constant() {
        let env = SystemEnv;
        // After 2024-01-01.
        assert!(env.now().millis() > 1_704_067_200_000);
        let mut a = [0u8; 32];
        let mut b = [0u8; 32];
        env.fill_random(&mut a);
        env.fill_random(&mut b);
        assert_ne!(a, b);
    }
}
