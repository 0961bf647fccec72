//! `cards vault rotate` and `cards vault status`: re-seal every card and endpoint secret under the
//! active vault key in bounded batches (the core's `domain::rotation` steps, each its own transaction
//! with where to resume stored in it), and count the entries per key id.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, anyhow};
use card_core::domain::vault::Vault;
use card_core::domain::{rotation, upgrade};
use card_core::storage::keys;
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
    .with_context(|| "cannot open the store (a redb data file is locked while a server has it open; stop the server, or start it with --vault-rotate to rotate while serving)")
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

fn rotate(data: &DataArg, args: &VaultArgs, batch: u64) -> anyhow::Result<ExitCode> {
    let vault = vault_of(data, args)?;
    let store = open(data)?;
    let env = SystemEnv;
    // The key check, and a format-7 store's PAN index re-keyed first (its entries would otherwise
    // stay keyed under the old vault key).
    store
        .write(|tx| {
            vault.check_key(tx).map_err(|e| anyhow!("{e}"))?;
            upgrade::with_vault(tx, &env, &vault).map_err(|e| anyhow!("{}", e.message()))
        })
        .with_context(|| store.describe(&data.data))?;
    let counts = entry_counts(&store)?;
    let total: u64 = counts.values().sum();
    let active = vault.active_id().to_string();
    if store
        .read(|tx| rotation::resume_point(tx, &active))??
        .is_some()
    {
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
            rotation::step(tx, &env, &vault, batch as usize).map_err(|e| anyhow!("{}", e.message()))
        })?;
        resealed += step.resealed;
        bar.inc(step.scanned);
        if step.done {
            break;
        }
    }
    bar.finish_and_clear();
    // Every entry seen is under the active key now; a card issued meanwhile by a server still
    // sealing with an old key would show here, and keeps that key needed.
    let others = store.write(|tx| {
        let left =
            rotation::left_under_other_keys(tx, &vault).map_err(|e| anyhow!("{}", e.message()))?;
        if left == 0 {
            vault
                .retire_others(tx)
                .map_err(|e| anyhow!("{}", e.message()))?;
        }
        anyhow::Ok(left)
    })?;
    let counts = entry_counts(&store)?;
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
    let counts = entry_counts(&store)?;
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

/// Sealed entries per key id (card data and endpoint secrets).
fn entry_counts(store: &Store) -> anyhow::Result<std::collections::BTreeMap<String, u64>> {
    store
        .read(rotation::entries_per_key)?
        .map_err(|e| anyhow!("{}", e.message()))
}
