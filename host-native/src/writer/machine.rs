//! Group commit as a state machine without I/O, after quinn-proto's deterministic core that threads
//! drive: it decides which writes form the next batch and when a batch's answers may go out; the
//! writer thread, the store's syncer and the connections only feed it events and carry out what it
//! hands back (`writer.rs`).
//!
//! Events: [`GroupCommit::submit`] a write; the writer takes [`GroupCommit::next_batch`], runs it in
//! one store transaction and reports [`GroupCommit::committed`] with the batch's answers and when
//! they are durable; a store whose commits become durable later (the write-ahead log) reports
//! [`GroupCommit::synced`] once a batch is on disk; [`GroupCommit::failed`] when the store cannot
//! go on. Query: [`GroupCommit::take_output`] (which answers may go out now, which never will).
//!
//! The rule it keeps: no answer goes out before everything it could rest on is durable. A batch's
//! answers wait for the batch. Reads need nothing of it: they see the store as of its durable point
//! (redb: `RedbFile::view`; PostgreSQL's commits are durable), so they never wait for a sync.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

pub use crate::store::Settle;

/// What the driving threads must deliver, taken with [`GroupCommit::take_output`].
#[derive(Debug)]
pub struct Output<J, A> {
    /// Answers that may go out now, in the order their batches committed.
    pub answers: Vec<A>,
    /// Answers of committed batches that will never be durable (the store failed first).
    pub lost: Vec<A>,
    /// Writes that will never run: the store failed, or the writer stopped, before their batch.
    pub refused: Vec<J>,
}

impl<J, A> Default for Output<J, A> {
    fn default() -> Self {
        Output {
            answers: Vec::new(),
            lost: Vec::new(),
            refused: Vec::new(),
        }
    }
}

#[cfg(test)]
impl<J, A> Output<J, A> {
    pub fn is_empty(&self) -> bool {
        self.answers.is_empty() && self.lost.is_empty() && self.refused.is_empty()
    }
}

/// Why a write was not queued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    Failed,
    Stopping,
}

/// A short wait before a small batch while commits are frequent (after PostgreSQL's
/// `commit_delay`/`commit_siblings`): a batch starts at least `wait` after the one before unless
/// `batch` writes are queued by then. Fewer, larger batches: fewer log records, fsyncs and thread
/// wake-ups for the same writes, at most `wait` more latency, and only while writes come faster
/// than one batch a `wait` (a write after a quiet spell goes at once).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub wait: Duration,
    pub batch: usize,
}

impl Window {
    /// No wait: every batch goes as soon as the writer is free.
    pub const OFF: Window = Window {
        wait: Duration::ZERO,
        batch: 1,
    };
}

/// What the writer does next ([`GroupCommit::next_batch_at`]).
#[derive(Debug, PartialEq, Eq)]
pub enum Next<J> {
    /// Run this batch.
    Batch(Vec<J>),
    /// Writes are queued but the window is open: take them at this time, or when
    /// [`GroupCommit::full`] says enough are queued, whichever comes first.
    Until(Instant),
    /// Nothing to take (nothing queued, a batch out, or the store failed).
    Nothing,
}

pub struct GroupCommit<J, A> {
    /// Queued writes.
    queue: VecDeque<J>,
    max_batch: usize,
    window: Window,
    /// When the last batch was taken.
    last_taken: Option<Instant>,
    /// The queued batch has been held back by the window (counted once, when it goes).
    held: bool,
    /// A batch is out with the writer.
    running: bool,
    stopping: bool,
    /// The failure that stopped the store, once it did.
    failed: Option<String>,
    /// The furthest point known durable.
    durable: u64,
    /// Committed batches' answers waiting for their point to be durable, oldest first.
    waiting: VecDeque<(u64, Vec<A>)>,
    out: Output<J, A>,
    stats: BatchStats,
}

impl<J, A> GroupCommit<J, A> {
    /// A pipeline over a store that is durable through `durable` (its last batch on disk).
    pub fn new(max_batch: usize, durable: u64) -> Self {
        GroupCommit {
            queue: VecDeque::new(),
            max_batch: max_batch.max(1),
            window: Window::OFF,
            last_taken: None,
            held: false,
            running: false,
            stopping: false,
            failed: None,
            durable,
            waiting: VecDeque::new(),
            out: Output::default(),
            stats: BatchStats::default(),
        }
    }

    /// With a commit window (see [`Window`]).
    pub fn with_window(mut self, window: Window) -> Self {
        self.window = window;
        self
    }

    /// Queues a write; returns its place in the submission order. Refused once the store failed
    /// or the writer is stopping (the write comes back to be answered).
    pub fn submit(&mut self, job: J) -> Result<u64, (J, Refusal)> {
        if self.failed.is_some() {
            return Err((job, Refusal::Failed));
        }
        if self.stopping {
            return Err((job, Refusal::Stopping));
        }
        self.queue.push_back(job);
        self.stats.submitted += 1;
        Ok(self.stats.submitted)
    }

    /// Jobs submitted and not yet taken into a batch.
    pub fn queued(&self) -> usize {
        self.queue.len()
    }

    /// The next batch for the writer, whatever the window: the waiting writes, up to the batch
    /// limit, in order. None while a batch is out, when nothing waits, or once the store failed.
    pub fn next_batch(&mut self) -> Option<Vec<J>> {
        if self.running || self.failed.is_some() || self.queue.is_empty() {
            return None;
        }
        let n = self.queue.len().min(self.max_batch);
        self.running = true;
        Some(self.queue.drain(..n).collect())
    }

    /// What the writer does at `now`: [`GroupCommit::next_batch`], unless the window holds a
    /// small batch back (the last batch was taken less than `wait` ago, fewer than `batch` writes
    /// are queued, and the writer is not stopping).
    pub fn next_batch_at(&mut self, now: Instant) -> Next<J> {
        if self.running || self.failed.is_some() || self.queue.is_empty() {
            return Next::Nothing;
        }
        if !self.stopping
            && !self.full()
            && let Some(last) = self.last_taken
            && let Some(at) = last.checked_add(self.window.wait)
            && now < at
        {
            self.held = true;
            return Next::Until(at);
        }
        if std::mem::take(&mut self.held) {
            self.stats.windowed += 1;
        }
        self.last_taken = Some(now);
        self.next_batch().map_or(Next::Nothing, Next::Batch)
    }

    /// Enough writes are queued that the window would not hold them back.
    pub fn full(&self) -> bool {
        self.queue.len() >= self.window.batch.min(self.max_batch)
    }

    /// The batch the writer took is committed (or was abandoned: `wrote` false); its answers may go
    /// out per `settle`.
    pub fn committed(&mut self, answers: Vec<A>, settle: Settle, wrote: bool) {
        self.stats.record(answers.len(), wrote);
        match settle {
            Settle::Now => self.out.answers.extend(answers),
            Settle::At(point) => {
                if point <= self.durable {
                    self.out.answers.extend(answers);
                } else if self.failed.is_some() {
                    self.out.lost.extend(answers);
                } else {
                    self.waiting.push_back((point, answers));
                }
            }
        }
        self.running = false;
    }

    /// The store is durable through `point`: the batches up to it may answer.
    pub fn synced(&mut self, point: u64) {
        if self.failed.is_some() {
            return;
        }
        self.durable = self.durable.max(point);
        while let Some((p, _)) = self.waiting.front()
            && *p <= self.durable
        {
            let (_, answers) = self.waiting.pop_front().expect("front exists");
            self.out.answers.extend(answers);
        }
    }

    /// The store cannot go on: what waits to be durable never will be, and queued writes never run.
    /// The first cause is kept.
    pub fn failed(&mut self, cause: impl Into<String>) {
        if self.failed.is_some() {
            return;
        }
        self.failed = Some(cause.into());
        for (_, answers) in self.waiting.drain(..) {
            self.out.lost.extend(answers);
        }
        self.out.refused.extend(self.queue.drain(..));
    }

    /// No more writes are taken; the queued ones still run.
    pub fn stop(&mut self) {
        self.stopping = true;
    }

    /// Stopping, and nothing is queued or running.
    pub fn finished(&self) -> bool {
        (self.stopping || self.failed.is_some()) && self.queue.is_empty() && !self.running
    }

    /// What the threads must deliver now.
    pub fn take_output(&mut self) -> Output<J, A> {
        std::mem::take(&mut self.out)
    }

    #[cfg(test)]
    pub fn failure(&self) -> Option<&str> {
        self.failed.as_deref()
    }

    /// Committed batches whose answers wait to be durable.
    pub fn awaiting_sync(&self) -> usize {
        self.waiting.len()
    }

    pub fn stats(&self) -> &BatchStats {
        &self.stats
    }
}

/// How many requests each group commit carried.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct BatchStats {
    pub submitted: u64,
    pub commits: u64,
    pub requests: u64,
    pub max_batch: usize,
    /// `histogram[i]` counts batches of 2^i ..= 2^(i+1)-1 requests.
    pub histogram: [u64; 16],
    /// Batches the commit window held back before they went.
    pub windowed: u64,
}

impl BatchStats {
    /// A batch of `size` requests; one that wrote nothing was not committed and counts no commit.
    fn record(&mut self, size: usize, committed: bool) {
        self.requests += size as u64;
        if !committed {
            return;
        }
        self.commits += 1;
        self.max_batch = self.max_batch.max(size);
        let bucket = (usize::BITS - 1 - size.max(1).leading_zeros()) as usize;
        self.histogram[bucket.min(15)] += 1;
    }

    pub fn mean_batch(&self) -> f64 {
        if self.commits == 0 {
            0.0
        } else {
            self.requests as f64 / self.commits as f64
        }
    }

    /// One line for shutdown: total commits, write requests, mean and max batch, and the histogram.
    pub fn summary(&self) -> String {
        let buckets: Vec<String> = self
            .histogram
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(i, n)| {
                let (lo, hi) = (1usize << i, (1usize << (i + 1)) - 1);
                if lo == hi {
                    format!("{lo}:{n}")
                } else {
                    format!("{lo}-{hi}:{n}")
                }
            })
            .collect();
        format!(
            "group commit summary: {} commits, {} write requests, mean batch {:.2}, max batch {}, batches by size [{}], {} held by the commit window",
            self.commits,
            self.requests,
            self.mean_batch(),
            self.max_batch,
            buckets.join(" "),
            self.windowed
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    type Machine = GroupCommit<u32, (u32, u64)>;

    #[test]
    fn a_batch_answers_once_its_point_is_synced() {
        let mut m = Machine::new(8, 0);
        for j in 0..3 {
            m.submit(j).unwrap();
        }
        let batch = m.next_batch().unwrap();
        assert_eq!(batch, vec![0, 1, 2]);
        assert_eq!(m.next_batch(), None, "one batch at a time");
        m.submit(3).unwrap();
        m.committed(batch.iter().map(|j| (*j, 1)).collect(), Settle::At(1), true);
        assert!(m.take_output().is_empty(), "nothing before the sync");
        assert_eq!(
            m.next_batch(),
            Some(vec![3]),
            "the next batch runs meanwhile"
        );
        m.synced(1);
        assert_eq!(m.take_output().answers, vec![(0, 1), (1, 1), (2, 1)]);
        m.committed(vec![(3, 1)], Settle::At(1), false);
        assert_eq!(m.take_output().answers, vec![(3, 1)], "already durable");
        assert_eq!(m.stats().commits, 1);
        assert_eq!(m.stats().requests, 4);
    }

    #[test]
    fn a_failure_loses_what_waits_and_refuses_what_is_queued() {
        let mut m = Machine::new(1, 0);
        m.submit(0).unwrap();
        m.submit(1).unwrap();
        let b = m.next_batch().unwrap();
        m.committed(vec![(b[0], 1)], Settle::At(1), true);
        m.failed("disk full");
        m.failed("later cause");
        let out = m.take_output();
        assert_eq!(
            (out.answers, out.lost, out.refused),
            (vec![], vec![(0, 1)], vec![1])
        );
        assert_eq!(m.failure(), Some("disk full"));
        assert_eq!(m.submit(5), Err((5, Refusal::Failed)));
        assert_eq!(m.next_batch(), None);
        m.synced(2);
        assert!(
            m.take_output().is_empty(),
            "a sync after the failure answers nothing"
        );
        assert!(m.finished());
    }

    #[test]
    fn stopping_runs_what_is_queued_and_refuses_more() {
        let mut m = Machine::new(2, 5);
        m.submit(0).unwrap();
        m.stop();
        assert_eq!(m.submit(1), Err((1, Refusal::Stopping)));
        assert!(!m.finished());
        let b = m.next_batch().unwrap();
        assert!(!m.finished());
        m.committed(vec![(b[0], 0)], Settle::Now, true);
        assert!(m.finished());
        assert_eq!(m.take_output().answers.len(), 1);
    }

    #[test]
    fn a_window_holds_a_small_batch_back_while_commits_are_frequent() {
        let wait = Duration::from_micros(200);
        let mut m = Machine::new(8, 0).with_window(Window { wait, batch: 3 });
        let t0 = Instant::now();
        let us = |n| t0 + Duration::from_micros(n);
        m.submit(0).unwrap();
        assert_eq!(
            m.next_batch_at(t0),
            Next::Batch(vec![0]),
            "the first goes at once"
        );
        m.committed(vec![(0, 0)], Settle::Now, true);
        m.submit(1).unwrap();
        assert_eq!(m.next_batch_at(us(50)), Next::Until(us(200)));
        m.submit(2).unwrap();
        assert!(!m.full());
        assert_eq!(m.next_batch_at(us(150)), Next::Until(us(200)));
        assert_eq!(
            m.next_batch_at(us(200)),
            Next::Batch(vec![1, 2]),
            "the window ends"
        );
        assert_eq!(m.stats().windowed, 1, "held twice, counted once");
        m.committed(vec![], Settle::Now, false);
        // Enough queued: no wait.
        for j in 3..6 {
            m.submit(j).unwrap();
        }
        assert!(m.full());
        assert_eq!(m.next_batch_at(us(210)), Next::Batch(vec![3, 4, 5]));
        m.committed(vec![], Settle::Now, false);
        // After a quiet spell a write goes at once.
        m.submit(6).unwrap();
        assert_eq!(m.next_batch_at(us(5_000)), Next::Batch(vec![6]));
        m.committed(vec![], Settle::Now, false);
        // Stopping: what is queued goes without waiting.
        m.submit(7).unwrap();
        assert_eq!(m.next_batch_at(us(5_010)), Next::Until(us(5_200)));
        m.stop();
        assert_eq!(m.next_batch_at(us(5_020)), Next::Batch(vec![7]));
        assert_eq!(m.stats().windowed, 2);
        // Off: never held back.
        let mut off = Machine::new(8, 0);
        for j in 0..2 {
            off.submit(j).unwrap();
            assert_eq!(off.next_batch_at(t0), Next::Batch(vec![j]));
            off.committed(vec![], Settle::Now, false);
        }
    }

    #[derive(Debug, Clone)]
    enum Event {
        Submit,
        Take,
        /// Time passes (µs).
        Tick(u16),
        /// Commit the batch out: durable now, or at a new point (`true`), or resting on the last.
        Commit(u8),
        Sync,
        Fail,
    }

    fn event() -> impl Strategy<Value = Event> {
        prop_oneof![
            4 => Just(Event::Submit),
            3 => Just(Event::Take),
            2 => (0u16..300).prop_map(Event::Tick),
            3 => (0u8..3).prop_map(Event::Commit),
            2 => Just(Event::Sync),
            1 => Just(Event::Fail),
        ]
    }

    /// Takes what the machine released and checks it against the model's sync point.
    fn drain(
        m: &mut Machine,
        synced: u64,
        failed: bool,
        answered: &mut Vec<u32>,
        settled: &mut usize,
    ) -> Result<(), TestCaseError> {
        let out = m.take_output();
        for (j, point) in &out.answers {
            prop_assert!(
                *point <= synced,
                "job {} answered at {} before sync {}",
                j,
                point,
                synced
            );
            answered.push(*j);
        }
        for (_, point) in &out.lost {
            prop_assert!(failed && *point > synced);
        }
        *settled += out.answers.len() + out.lost.len() + out.refused.len();
        Ok(())
    }

    proptest! {
        /// Against a model: every write is answered exactly once (answered, lost or refused), in
        /// submission order among the answered, batches keep order and size, and nothing is
        /// answered before its point is durable. With a commit window, a batch is held back
        /// only while it is small and the last one was taken less than the window ago, and
        /// never past that.
        #[test]
        fn no_answer_before_its_point_is_durable(
            max_batch in 1usize..5,
            window_us in prop_oneof![Just(0u64), 1u64..400],
            window_batch in 1usize..6,
            events in prop::collection::vec(event(), 1..120),
        ) {
            let window = Window { wait: Duration::from_micros(window_us), batch: window_batch };
            let mut m = Machine::new(max_batch, 0).with_window(window);
            let mut now = Instant::now();
            let mut last_taken: Option<Instant> = None;
            let mut next_job = 0u32;
            let mut out_batch: Option<Vec<u32>> = None;
            let mut last_point = 0u64;
            let mut synced = 0u64;
            let mut failed = false;
            let mut answered = Vec::new();
            let mut settled = 0usize;
            let mut taken = 0u32;
            for e in events {
                match e {
                    Event::Submit => {
                        let r = m.submit(next_job);
                        prop_assert_eq!(r.is_ok(), !failed);
                        if r.is_err() {
                            settled += 1;
                        }
                        next_job += 1;
                    }
                    Event::Tick(us) => now += Duration::from_micros(u64::from(us)),
                    Event::Take if out_batch.is_none() => match m.next_batch_at(now) {
                        Next::Nothing => prop_assert!(failed || m.queued() == 0),
                        Next::Until(at) => {
                            let queued = (next_job - taken) as usize;
                            prop_assert!(!failed && queued > 0);
                            prop_assert!(queued < window_batch.min(max_batch), "{} queued held back", queued);
                            prop_assert_eq!(Some(at), last_taken.map(|l| l + window.wait));
                            prop_assert!(at > now, "held back past the window");
                        }
                        Next::Batch(b) => {
                            last_taken = Some(now);
                            prop_assert!(!b.is_empty() && b.len() <= max_batch);
                            prop_assert_eq!(b[0], taken, "batches keep submission order");
                            // Cut short only by the limit.
                            let after = taken + b.len() as u32;
                            prop_assert!(
                                b.len() == max_batch || after == next_job,
                                "batch {:?} stopped early", b
                            );
                            taken += b.len() as u32;
                            out_batch = Some(b);
                        }
                    },
                    Event::Take => {}
                    Event::Commit(kind) => {
                        if let Some(b) = out_batch.take() {
                            let settle = match kind {
                                // Durable at once: a store with nothing pending (a durable commit).
                                0 if synced == last_point => Settle::Now,
                                1 => {
                                    last_point += 1;
                                    Settle::At(last_point)
                                }
                                _ => Settle::At(last_point),
                            };
                            let point = match settle { Settle::Now => 0, Settle::At(p) => p };
                            m.committed(b.into_iter().map(|j| (j, point)).collect(), settle, kind == 1);
                        }
                    }
                    Event::Sync => {
                        if !failed && synced < last_point {
                            synced += 1;
                            m.synced(synced);
                        }
                    }
                    Event::Fail => {
                        failed = true;
                        m.failed("injected");
                    }
                }
                drain(&mut m, synced, failed, &mut answered, &mut settled)?;
            }
            // Drain: commit what is out, sync everything, and every job is settled exactly once.
            if let Some(b) = out_batch.take() {
                m.committed(b.into_iter().map(|j| (j, last_point)).collect(), Settle::At(last_point), true);
            }
            if !failed {
                synced = last_point;
                m.synced(synced);
            }
            drain(&mut m, synced, failed, &mut answered, &mut settled)?;
            while let Some(b) = m.next_batch() {
                m.committed(b.into_iter().map(|j| (j, 0)).collect(), Settle::Now, true);
                drain(&mut m, synced, failed, &mut answered, &mut settled)?;
            }
            prop_assert_eq!(settled, next_job as usize);
            let mut sorted = answered.clone();
            sorted.sort_unstable();
            prop_assert_eq!(sorted, answered, "answers go out in order");
        }
    }

    #[test]
    fn summary_line() {
        let mut s = BatchStats::default();
        for n in [1, 3, 3, 8] {
            s.record(n, true);
        }
        s.record(2, false);
        assert_eq!(
            s.summary(),
            "group commit summary: 4 commits, 17 write requests, mean batch 4.25, max batch 8, batches by size [1:1 2-3:2 8-15:1], 0 held by the commit window"
        );
    }
}
