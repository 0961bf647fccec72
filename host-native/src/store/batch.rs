//! What the group-commit writer needs from a store, and nothing more: run one batch of writes in
//! one transaction and commit it. A store whose commits become durable only later (redb behind the
//! write-ahead log) reports how far they are durable through [`Progress`]; PostgreSQL's
//! commits are durable when they return and it needs none of that.

use std::time::Duration;

use card_core::{Response, Tx};

/// The writes of one batch, as a store runs them: each on a transaction, in order.
pub trait Batch {
    fn len(&self) -> usize;
    /// Runs write `i` on `tx`; a write that fails writes nothing (the core buffers its changes) and
    /// a panic is answered 500. A store may run a write again in a new transaction after a conflict.
    fn run(&self, i: usize, tx: &mut dyn Tx) -> Response;
}

/// A batch the store has finished.
#[derive(Debug)]
pub struct Committed {
    /// One per write, in order.
    pub responses: Vec<Response>,
    /// When the responses may go out.
    pub settle: Settle,
    /// A transaction was committed (false when the batch wrote nothing or was rolled back).
    pub wrote: bool,
}

/// A fault after which the store must not be written without a reopen (a failed commit or log
/// append, a latched I/O error): the process stops and a supervisor restarts it.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{0}")]
pub struct Fatal(pub String);

impl Fatal {
    pub fn new(what: &str, cause: impl std::fmt::Display) -> Fatal {
        Fatal(format!("{what}: {cause}"))
    }
}

/// A store the writer commits batches to.
pub trait BatchStore: Send + Sync + 'static {
    /// Runs the batch's writes in order, each seeing the ones before it, in one transaction, and
    /// commits it. A storage error that spoils only this batch answers its writes 500 and returns
    /// `Ok`; one the store cannot recover from returns `Err`, and the writer stops.
    fn commit_batch(&self, batch: &dyn Batch) -> Result<Committed, Fatal>;

    /// After the last batch, on a clean stop.
    fn close(&self) {}
}

/// How a store whose commits become durable after they are made tells the writer.
pub trait Progress: Send + Sync + 'static {
    /// Everything through `point` is durable.
    fn synced(&self, point: u64);
    /// Nothing more becomes durable.
    fn failed(&self, cause: &Fatal);
}

/// When a committed batch's answers may go out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settle {
    /// At once: the commit was durable, or the batch changed nothing and read nothing pending.
    Now,
    /// Once the store reports [`GroupCommit::synced`] through this point.
    At(u64),
}

/// Durations in power-of-two buckets of microseconds: enough to see a tail without keeping samples.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Timings {
    pub count: u64,
    pub total_us: u64,
    pub max_us: u64,
    /// `buckets[i]` counts durations of 2^(i-1) ..< 2^i µs (bucket 0: under 1 µs).
    pub buckets: [u64; 24],
}

impl Timings {
    pub fn record(&mut self, d: Duration) {
        let us = u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
        self.count += 1;
        self.total_us = self.total_us.saturating_add(us);
        self.max_us = self.max_us.max(us);
        let bucket = (u64::BITS - us.leading_zeros()) as usize;
        self.buckets[bucket.min(23)] += 1;
    }

    /// `count`, mean, an upper bound of the 99th percentile (its bucket's top) and max, in ms.
    pub fn summary(&self) -> String {
        if self.count == 0 {
            return "0".into();
        }
        let mut seen = 0;
        let p99 = self
            .buckets
            .iter()
            .enumerate()
            .find(|(_, n)| {
                seen += **n;
                seen * 100 >= self.count * 99
            })
            .map_or(self.max_us, |(i, _)| (1u64 << i).min(self.max_us));
        format!(
            "{} (mean {:.2} ms, p99 <= {:.1} ms, max {:.1} ms)",
            self.count,
            self.total_us as f64 / self.count as f64 / 1000.0,
            p99 as f64 / 1000.0,
            self.max_us as f64 / 1000.0
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timings_summarise_a_tail() {
        let mut t = Timings::default();
        for _ in 0..99 {
            t.record(Duration::from_micros(100));
        }
        t.record(Duration::from_millis(150));
        assert_eq!(t.count, 100);
        assert_eq!(t.max_us, 150_000);
        assert_eq!(
            t.summary(),
            "100 (mean 1.60 ms, p99 <= 0.1 ms, max 150.0 ms)"
        );
    }
}
