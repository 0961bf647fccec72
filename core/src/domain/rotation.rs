//! Vault key rotation as `cards vault rotate` and a server started with `--vault-rotate` run it:
//! card entries in bounded batches, each in its own transaction that also stores where to resume,
//! then the PAN-index key and every endpoint's signing secret; once no entry is left under another key, the other keys
//! are forgotten so they can be removed from the configuration (README "Card data security").

use std::collections::BTreeMap;

use super::Result;
use super::authorizations::endpoint as decision_endpoints;
use super::vault::{self, PlannedBatch, Vault};
use super::webhooks::endpoints as webhook_endpoints;
use crate::env::Env;
use crate::storage::{StoreError, Tx, keys};

/// What one step of a rotation did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Step {
    /// Card entries looked at.
    pub scanned: u64,
    /// Entries (card data and endpoint secrets) re-sealed under the active key.
    pub resealed: u64,
    /// Every entry has been seen.
    pub done: bool,
}

/// One batch of at most `batch` card entries from where the last step stopped; after the last
/// batch, the endpoints' secrets (a few per client, so one transaction holds them).
pub fn step(tx: &mut dyn Tx, env: &dyn Env, vault: &Vault, batch: usize) -> Result<Step> {
    let planned = plan(tx, env, vault, batch)?;
    apply(tx, env, vault, &planned, batch)
}

/// A step's reading and sealing, on a read transaction: the server's rotation does this on a
/// snapshot, off its writer, so the write that follows ([`apply`]) only checks and puts.
pub fn plan(tx: &mut dyn Tx, env: &dyn Env, vault: &Vault, batch: usize) -> Result<PlannedBatch> {
    let after = resume_point(tx, vault.active_id())?;
    vault.plan_batch(tx, env, after.as_deref(), batch.max(1))
}

/// A step's write, from its [`plan`]. Should the stored resume point have moved since the plan was
/// read (another instance rotating), the step is read and sealed again here.
pub fn apply(
    tx: &mut dyn Tx,
    env: &dyn Env,
    vault: &Vault,
    planned: &PlannedBatch,
    batch: usize,
) -> Result<Step> {
    // A store still indexing PANs per vault key is re-keyed first (hosts do it at start; Spin's
    // rotation route may come first): its index entries would otherwise stay under the old key.
    vault.upgrade_pan_index(tx, env)?;
    let after = resume_point(tx, vault.active_id())?;
    let cards = if after == planned.after {
        vault.apply_batch(tx, env, planned)?
    } else {
        vault.rotate_batch(tx, env, after.as_deref(), batch.max(1))?
    };
    let mut step = Step {
        scanned: cards.scanned,
        resealed: cards.resealed,
        done: cards.next.is_none(),
    };
    match cards.next {
        Some(next) => {
            let mut point = vault.active_id().as_bytes().to_vec();
            point.push(0);
            point.extend_from_slice(&next);
            tx.put(&keys::vault_rotation(), &point)?;
        }
        None => {
            tx.delete(&keys::vault_rotation())?;
            step.resealed += vault.reseal_pan_key(tx, env)?;
            step.resealed += webhook_endpoints::reseal_all(tx, env, vault)?;
            step.resealed += decision_endpoints::reseal_all(tx, env, vault)?;
        }
    }
    Ok(step)
}

/// Where an interrupted rotation to `active` resumes: the last card entry it re-sealed. A point
/// stored by a rotation to another key does not count (that rotation starts over).
pub fn resume_point(
    tx: &mut dyn Tx,
    active: &str,
) -> std::result::Result<Option<Vec<u8>>, StoreError> {
    Ok(tx.get(&keys::vault_rotation())?.and_then(|v| {
        let (id, after) = v.split_at(v.iter().position(|b| *b == 0)?);
        (id == active.as_bytes()).then(|| after[1..].to_vec())
    }))
}

/// Sealed entries per key id: card data (entries from before key ids count under the original
/// key's id) and the endpoints' signing secrets.
pub fn entries_per_key(tx: &mut dyn Tx) -> Result<BTreeMap<String, u64>> {
    let mut counts = vault::entries_per_key(tx)?;
    webhook_endpoints::count_secrets(tx, &mut counts)?;
    decision_endpoints::count_secrets(tx, &mut counts)?;
    Ok(counts)
}

/// Entries still sealed under a key other than the active one.
pub fn left_under_other_keys(tx: &mut dyn Tx, vault: &Vault) -> Result<u64> {
    Ok(entries_per_key(tx)?
        .iter()
        .filter(|(id, _)| id.as_str() != vault.active_id())
        .map(|(_, n)| n)
        .sum())
}
