//! What the group-commit writer needs from a store, and nothing more: run one batch of writes in
//! one transaction and commit it. A store whose commits become durable only later (redb behind the
//! write-ahead log) reports how far they are visible and durable through [`Progress`]; PostgreSQL's
//! commits are durable when they return and it needs none of that.

use card_core::{Response, Tx};

pub use crate::group_commit::Settle;

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

/// How a store whose commits become durable after they become visible tells the writer.
pub trait Progress: Send + Sync + 'static {
    /// Reads may see the store through `point` from now on; called before the commit shows it.
    fn visible(&self, point: u64);
    /// Everything through `point` is durable.
    fn synced(&self, point: u64);
    /// Nothing more becomes durable.
    fn failed(&self, cause: &Fatal);
}
