//! `cards serve --vault-rotate`: the server re-seals card data and endpoint secrets under the active
//! vault key in the background, one bounded batch per write through the writer, so it keeps serving
//! meanwhile (`cards vault rotate` cannot open a redb data file a server holds). The steps are the
//! core's (`card_core::domain::rotation`), the same the command runs; where to resume is stored with
//! each batch, so a restarted server goes on where it stopped.
//!
//! It runs on the background runtime (`background.rs`, a lower OS priority) and keeps the writer
//! for the writes alone: each batch is read, opened and sealed again on a snapshot first
//! (`rotation::plan`), and its write (`rotation::apply`) only checks that each entry is still as
//! read and puts what was sealed. While clients write, a step waits until `pause`
//! (`--vault-rotate-pause`) after the previous one began, so the rotation adds at most one batch
//! per pause to the writer's work (and to the checkpoints'); with no client writing it goes at
//! full speed.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use card_core::domain::rotation::{self, Step};
use card_core::domain::vault::Vault;
use card_core::env::Env;
use card_core::error::ApiError;
use card_core::service::Service;
use card_core::storage::{StoreError, Tx};
use tracing::{error, info, warn};

use crate::store::Store;
use crate::writer::{Internal, Job, WriterHandle};

/// Why a step, a read or the retirement did not finish: the log gets it typed, not flattened.
#[derive(Debug, thiserror::Error)]
enum RotationError {
    /// The core refused; its message, the one the writer's 500 answer carries.
    #[error("{}", .0.message())]
    Core(ApiError),
    #[error("the write answered {0}")]
    Write(u16),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Join(#[from] tokio::task::JoinError),
}

/// How often progress is logged.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

pub struct Rotator {
    pub vault: Arc<Vault>,
    pub store: Store,
    pub env: Arc<dyn Env + Send + Sync>,
    pub writer: WriterHandle,
    pub batch: usize,
    /// While clients write, the least time between the starts of two steps (`--vault-rotate-pause`).
    pub pause: Duration,
}

impl Rotator {
    pub async fn run(self: Arc<Self>) {
        match self.read(|tx, vault| Ok(vault.needs_rotation(tx)?)).await {
            Ok(false) => {
                info!(
                    active = self.vault.active_id(),
                    "vault rotation: every entry is under the active key"
                );
                return;
            }
            Ok(true) => {}
            Err(cause) => {
                error!(%cause, "vault rotation: cannot read the store; not rotating");
                return;
            }
        }
        info!(
            active = self.vault.active_id(),
            batch = self.batch,
            "vault rotation started"
        );
        let started = Instant::now();
        let (mut scanned, mut resealed, mut logged) = (0u64, 0u64, Instant::now());
        // The writer's writes counted after the last step: the clients' are the others (the
        // delivery task's count as theirs).
        let mut writes = self.writer.submitted();
        loop {
            let stepped = Instant::now();
            let step = match self.step().await {
                Ok(step) => step,
                Err(cause) => {
                    // Where it stopped is stored: a restart with --vault-rotate resumes there.
                    error!(%cause, scanned, resealed, "vault rotation stopped");
                    return;
                }
            };
            scanned += step.scanned;
            resealed += step.resealed;
            if step.done {
                break;
            }
            if logged.elapsed() >= PROGRESS_EVERY {
                info!(scanned, resealed, "vault rotation in progress");
                logged = Instant::now();
            }
            // Client writes first: when others wrote since the last step, the next waits.
            let now = self.writer.submitted();
            let others = now.saturating_sub(writes).saturating_sub(1);
            writes = now;
            if others > 0
                && let Some(left) = self.pause.checked_sub(stepped.elapsed())
            {
                tokio::time::sleep(left).await;
            } else {
                tokio::task::yield_now().await;
            }
        }
        let left = self
            .read(|tx, vault| {
                rotation::left_under_other_keys(tx, vault).map_err(RotationError::Core)
            })
            .await;
        match left {
            Ok(0) => match self.retire().await {
                Ok(()) => info!(
                    active = self.vault.active_id(),
                    scanned,
                    resealed,
                    seconds = started.elapsed().as_secs_f64(),
                    "vault rotation finished: every entry is under the active key; the other keys can be removed"
                ),
                Err(cause) => error!(%cause, "vault rotation: cannot forget the other keys"),
            },
            Ok(left) => warn!(
                left,
                "vault rotation: entries are still under other keys (an instance still sealing with an old key?); \
                 restart with --vault-rotate once every instance has the new key first"
            ),
            Err(cause) => error!(%cause, "vault rotation: cannot count what is left"),
        }
    }

    /// One batch: read and sealed on a snapshot, then written through the writer.
    async fn step(&self) -> Result<Step, RotationError> {
        let (env, batch) = (self.env.clone(), self.batch);
        let planned = Arc::new(
            self.read(move |tx, vault| {
                rotation::plan(tx, &*env, vault, batch).map_err(RotationError::Core)
            })
            .await?,
        );
        let slot: Arc<Mutex<Option<Result<Step, RotationError>>>> = Arc::default();
        let (vault, out) = (self.vault.clone(), slot.clone());
        let write: Internal = Arc::new(move |tx: &mut dyn Tx, env: &dyn Env| {
            let step = rotation::apply(tx, env, &vault, &planned, batch);
            let answer = match &step {
                Ok(_) => Job::done(),
                Err(e) => Service::internal_error(&e.message()),
            };
            // A write the store re-runs (a conflict on PostgreSQL) replaces the earlier result.
            *out.lock().unwrap_or_else(|e| e.into_inner()) =
                Some(step.map_err(RotationError::Core));
            answer
        });
        // Its answer waits for the step to be durable, so the progress it reports rests on durable
        // data. Reads never wait for it (they see the store as of its durable point).
        let answer = self.writer.submit(Job::internal(write)).await;
        let step = slot.lock().unwrap_or_else(|e| e.into_inner()).take();
        match (answer.status, step) {
            (200, Some(step)) => step,
            (_, Some(Err(cause))) => Err(cause),
            (status, _) => Err(RotationError::Write(status)),
        }
    }

    async fn retire(&self) -> Result<(), RotationError> {
        let vault = self.vault.clone();
        let write: Internal =
            Arc::new(
                move |tx: &mut dyn Tx, _: &dyn Env| match vault.retire_others(tx) {
                    Ok(()) => Job::done(),
                    Err(e) => Service::internal_error(&e.message()),
                },
            );
        let answer = self.writer.submit(Job::internal(write)).await;
        match answer.status {
            200 => Ok(()),
            status => Err(RotationError::Write(status)),
        }
    }

    async fn read<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut dyn Tx, &Vault) -> Result<R, RotationError> + Send + 'static,
    ) -> Result<R, RotationError> {
        let (store, vault) = (self.store.clone(), self.vault.clone());
        tokio::task::spawn_blocking(move || store.read(|tx| f(tx, &vault))).await??
    }
}
