//! `cards vault rotate` and `cards vault status`: re-seal every card under the active vault key in
//! bounded batches (each its own transaction, with where to resume stored in it), and count the
//! entries per key id.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, anyhow};
use card_core::domain::vault::{self, Vault};
use card_core::storage::{Tx, keys};
use indicatif::{ProgressBar, ProgressStyle};

use super::{DataArg, VaultArgs, VaultCommand};
use crate::store::Store;
use crate::system_env::SystemEnv;
use crate::vault_key;

pub fn run(cmd: VaultCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        VaultCommand::Rotate { data, vault, batch } => rotate(&data, &vault, batch),
        VaultCommand::Status { data, vault } => status(&data, &vault),
    }
}

fn open(data: &DataArg) -> anyhow::Result<Store> {
    Store::open(
        data.store.as_deref(),
        &data.data,
        data.cache_size,
        data.store_timeout,
    )
    .with_context(|| "cannot open the store (a redb data file is locked while a server has it open; stop the server, or rotate on PostgreSQL while serving)")
}

fn vault_of(data: &DataArg, args: &VaultArgs) -> anyhow::Result<Vault> {
    let (keys, _) = vault_key::resolve(
        &args.vault_keys,
        args.vault_key_file.as_deref(),
        data.store.as_deref(),
        &data.data,
    )?;
    let (active, older) = keys.split_first().ok_or_else(|| anyhow!("no vault key"))?;
    Ok(Vault::with_keys(active, older))
}

/// The stored resume point: the active key's id, 0x00, the last entry re-sealed.
fn resume_point(
    tx: &mut dyn Tx,
    active: &str,
) -> Result<Option<Vec<u8>>, card_core::storage::StoreError> {
    Ok(tx.get(&keys::vault_rotation())?.and_then(|v| {
        let (id, after) = v.split_at(v.iter().position(|b| *b == 0)?);
        (id == active.as_bytes()).then(|| after[1..].to_vec())
    }))
}

fn rotate(data: &DataArg, args: &VaultArgs, batch: u64) -> anyhow::Result<ExitCode> {
    let vault = vault_of(data, args)?;
    let store = open(data)?;
    let env = SystemEnv;
    store
        .write(|tx| vault.check_key(tx).map_err(|e| anyhow!("{e}")))
        .with_context(|| store.describe(&data.data))?;
    let counts = store.read(vault::entries_per_key)??;
    let total: u64 = counts.values().sum();
    let active = vault.active_id().to_string();
    let mut after = store.read(|tx| resume_point(tx, &active))??;
    if after.is_some() {
        eprintln!("resuming an interrupted rotation");
    }
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} entries ({per_sec}, {eta} left)",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    let started = Instant::now();
    let mut resealed = 0u64;
    loop {
        let step = store.write(|tx| {
            let step = vault
                .rotate_batch(tx, &env, after.as_deref(), batch as usize)
                .map_err(|e| anyhow!("{}", e.message()))?;
            match &step.next {
                Some(next) => {
                    let mut point = active.as_bytes().to_vec();
                    point.push(0);
                    point.extend_from_slice(next);
                    tx.put(&keys::vault_rotation(), &point)?;
                }
                None => tx.delete(&keys::vault_rotation())?,
            }
            anyhow::Ok(step)
        })?;
        resealed += step.resealed;
        bar.inc(step.scanned);
        match step.next {
            Some(next) => after = Some(next),
            None => break,
        }
    }
    bar.finish_and_clear();
    // Every entry seen is under the active key now; a card issued meanwhile by a server still
    // sealing with an old key would show here, and keeps that key needed.
    let counts = store.read(vault::entries_per_key)??;
    let others: u64 = counts
        .iter()
        .filter(|(id, _)| **id != active)
        .map(|(_, n)| n)
        .sum();
    if others == 0 {
        store.write(|tx| {
            vault
                .retire_others(tx)
                .map_err(|e| anyhow!("{}", e.message()))
        })?;
    }
    println!(
        "re-sealed {resealed} of {} entries under key {active} in {:.1}s",
        counts.values().sum::<u64>(),
        started.elapsed().as_secs_f64()
    );
    if others > 0 {
        eprintln!(
            "{others} entries are still under other keys (a server still sealing with an old key?): \
             run `cards vault rotate` again once every instance has the new key first"
        );
        return Ok(ExitCode::FAILURE);
    }
    println!("every entry is under the active key: the other keys can be removed");
    Ok(ExitCode::SUCCESS)
}

fn status(data: &DataArg, args: &VaultArgs) -> anyhow::Result<ExitCode> {
    let store = open(data)?;
    // Only keys given explicitly: status never creates a key file.
    let configured = if args.vault_keys.is_empty() && args.vault_key_file.is_none() {
        None
    } else {
        Some(vault_of(data, args)?)
    };
    let counts = store.read(vault::entries_per_key)??;
    if counts.is_empty() {
        println!("no sealed card data");
    }
    for (id, n) in &counts {
        let role = match &configured {
            Some(v) if v.active_id() == id => " (active)",
            Some(v) if v.key_ids().contains(id) => " (configured, not active)",
            Some(_) => " (NOT configured)",
            None => "",
        };
        println!("key {id}: {n} entries{role}");
    }
    let rotating = store.read(|tx| tx.get(&keys::vault_rotation()))??;
    if rotating.is_some() {
        println!("a rotation was interrupted: run `cards vault rotate` again to finish it");
    }
    Ok(ExitCode::SUCCESS)
}
