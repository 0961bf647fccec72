//! The conflict policy of a write, the same on both hosts (ARCHITECTURE.md, "PostgreSQL, both
//! hosts"): every try holds [`WRITE_LOCK`](crate::WRITE_LOCK) alone, so the service's own writes
//! never conflict; a serialization failure or deadlock (with a writer that does not take the lock)
//! runs the write again after a random pause that grows with the try
//! ([`backoff_cap_ms`](crate::backoff_cap_ms)), up to [`MAX_ATTEMPTS`](crate::MAX_ATTEMPTS)
//! tries, then answers `503 busy`; a lock wait or statement that runs out of time is `busy` at
//! once. Pure: the host runs each try on its driver, sleeps the pause and draws the randomness
//! (`host-native`'s `store::pg`, `host-wasm`'s `spin_pg`).

use crate::{MAX_ATTEMPTS, backoff_cap_ms, is_conflict, is_timeout};

/// Why a try did not commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// Serialization failure (SQLSTATE 40001) or deadlock (40P01): running it again may succeed.
    Conflict,
    /// A lock wait (55P03) or a statement (57014) ran out of time.
    Timeout,
    Other,
}

impl Failure {
    /// The failure a SQLSTATE code names (`"40001"`; the native driver's `SqlState::code()`).
    pub fn of_code(code: Option<&str>) -> Failure {
        match code {
            Some("40001" | "40P01") => Failure::Conflict,
            Some("55P03" | "57014") => Failure::Timeout,
            _ => Failure::Other,
        }
    }

    /// The failure an error's text names (Spin's `spin:postgres` reports errors as text only; see
    /// [`is_conflict`], [`is_timeout`]).
    pub fn of_message(error: &str) -> Failure {
        if is_conflict(error) {
            Failure::Conflict
        } else if is_timeout(error) {
            Failure::Timeout
        } else {
            Failure::Other
        }
    }
}

/// One try of a write: which it is, and what follows when it fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attempt(u32);

/// What follows a failed try.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// Run the write again as `attempt` after a pause of `pause_ms` milliseconds.
    Rerun { attempt: Attempt, pause_ms: u64 },
    /// Answer `503 busy`: a timeout, or a conflict on the last try.
    Busy,
    /// Answer a failure (`500`): neither a conflict nor a timeout.
    Fail,
}

impl Attempt {
    pub const FIRST: Attempt = Attempt(1);

    /// 1 for the first try.
    pub fn number(self) -> u32 {
        self.0
    }

    /// What follows this try's `failure`; `random` is any random number (the pause is drawn from
    /// it: 1 to [`backoff_cap_ms`] of this try milliseconds).
    pub fn after(self, failure: Failure, random: u64) -> Next {
        match failure {
            Failure::Conflict if self.0 < MAX_ATTEMPTS => Next::Rerun {
                attempt: Attempt(self.0 + 1),
                pause_ms: random % backoff_cap_ms(self.0) + 1,
            },
            Failure::Conflict | Failure::Timeout => Next::Busy,
            Failure::Other => Next::Fail,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tries a write that always conflicts goes through, with the pause before each re-run.
    fn conflicting(random: u64) -> (Vec<u32>, Vec<u64>, Next) {
        let (mut tries, mut pauses, mut attempt) = (Vec::new(), Vec::new(), Attempt::FIRST);
        loop {
            tries.push(attempt.number());
            match attempt.after(Failure::Conflict, random) {
                Next::Rerun {
                    attempt: next,
                    pause_ms,
                } => {
                    pauses.push(pause_ms);
                    attempt = next;
                }
                end => return (tries, pauses, end),
            }
        }
    }

    #[test]
    fn a_conflict_is_re_run_until_the_last_try_which_is_busy() {
        let (tries, pauses, end) = conflicting(u64::MAX);
        assert_eq!(tries, (1..=MAX_ATTEMPTS).collect::<Vec<_>>());
        assert_eq!(end, Next::Busy);
        // The largest draw gives each try's cap: 2, 4, .. 64 ms, then 64 (capped).
        assert_eq!(pauses, [2, 4, 8, 16, 32, 64, 64]);
        let (_, least, _) = conflicting(0);
        assert!(least.iter().all(|ms| *ms == 1), "{least:?}");
    }

    #[test]
    fn a_pause_stays_within_its_cap_for_any_draw() {
        for attempt in 1..MAX_ATTEMPTS {
            for random in [0, 1, 7, 63, 64, 65, 1 << 40, u64::MAX - 1] {
                let Next::Rerun { pause_ms, .. } =
                    Attempt(attempt).after(Failure::Conflict, random)
                else {
                    panic!("try {attempt} of {MAX_ATTEMPTS} is re-run");
                };
                assert!(
                    (1..=backoff_cap_ms(attempt)).contains(&pause_ms),
                    "{pause_ms}"
                );
            }
        }
    }

    #[test]
    fn a_timeout_is_busy_at_once_and_anything_else_fails() {
        for attempt in [Attempt::FIRST, Attempt(MAX_ATTEMPTS)] {
            assert_eq!(attempt.after(Failure::Timeout, 5), Next::Busy);
            assert_eq!(attempt.after(Failure::Other, 5), Next::Fail);
        }
    }

    #[test]
    fn failures_are_told_by_code_and_by_message() {
        assert_eq!(Failure::of_code(Some("40001")), Failure::Conflict);
        assert_eq!(Failure::of_code(Some("40P01")), Failure::Conflict);
        assert_eq!(Failure::of_code(Some("55P03")), Failure::Timeout);
        assert_eq!(Failure::of_code(Some("57014")), Failure::Timeout);
        assert_eq!(Failure::of_code(Some("23505")), Failure::Other);
        assert_eq!(Failure::of_code(None), Failure::Other);
        let spin =
            "QueryFailed(\"db error: ERROR: could not serialize access (SqlState(E40001))\")";
        assert_eq!(Failure::of_message(spin), Failure::Conflict);
        assert_eq!(Failure::of_message("SQLSTATE 55P03"), Failure::Timeout);
        assert_eq!(Failure::of_message("connection refused"), Failure::Other);
    }
}
