//! `cards`: the card-issuing service as a native server, and its key management commands.

mod cli;
mod rate_limit;
mod server;
mod static_files;
mod storage;
mod system_env;
mod vault_key;
mod writer;

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use card_core::domain::api_keys::{self as auth, ConfiguredKeys};
use card_core::{Config, Env, Service, Tx};
use clap::Parser;
use redb::Database;
use tracing::{error, info, warn};
use tracing_subscriber::EnvFilter;

use crate::cli::{Cli, Command, KeysCommand, ServeArgs};
use crate::storage::{ReadAdapter, WriteAdapter};
use crate::system_env::SystemEnv;
use crate::writer::Writer;

fn main() -> ExitCode {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    install_panic_hook();
    let result = match cli.command {
        Command::Serve(args) => serve(args),
        Command::Keys(cmd) => keys(cmd),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Panics are caught and answered 500; log where, but never a formatted message, which could carry
/// request data.
fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&'static str>()
            .copied()
            .unwrap_or("(formatted message withheld)");
        let location = info
            .location()
            .map(|l| format!("{}:{}", l.file(), l.line()))
            .unwrap_or_default();
        error!(%location, message, "panic");
    }));
}

fn serve(args: ServeArgs) -> Result<ExitCode, String> {
    let data = args.data.data;
    let mut api_keys = ConfiguredKeys::default();
    for pair in &args.api_keys {
        api_keys
            .add_pair(pair)
            .map_err(|e| format!("--api-key / CARDS_API_KEYS: {e}"))?;
    }
    let (vault_key, source) = vault_key::resolve(args.vault_key.as_deref(), &data)?;
    match source {
        vault_key::Source::Configured => info!("vault key from configuration"),
        vault_key::Source::FileReused(p) => info!(file = %p.display(), "vault key from file"),
        vault_key::Source::FileCreated(p) => warn!(
            file = %p.display(),
            "created a new vault key file; keep it with the data file, card numbers cannot be read without it"
        ),
    }
    let db = Arc::new(storage::open(&data)?);
    let env = Arc::new(SystemEnv);
    if api_keys.is_empty() {
        ensure_a_stored_key(&db, &*env)?;
    }
    let service = Arc::new(Service::new(
        Config {
            api_keys,
            token_ttl_secs: args.token_ttl,
            vault_key: Some(vault_key),
            // One long-lived instance: the id counter lives in memory.
            stored_ids: false,
        },
        &*env,
    ));

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(args.listen))
        .map_err(|e| format!("cannot listen on {}: {e}", args.listen))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    let writer = Writer::start(
        db.clone(),
        service.clone(),
        env.clone(),
        args.max_batch as usize,
    )
    .map_err(|e| format!("cannot start the writer thread: {e}"))?;
    let limits = args.limits;
    let health = writer.handle().health().clone();
    let state = Arc::new(server::AppState {
        service,
        db,
        env,
        writer: writer.handle(),
        console: args.console.map(static_files::StaticFiles::new),
        rate: Arc::new(rate_limit::RateLimiter::new(
            limits.read_rate,
            limits.write_rate,
        )),
        body_budget: server::AppState::body_budget(&limits),
        limits,
    });
    info!(listen = %local, data = %data.display(), max_batch = args.max_batch, "cards listening");
    // A writer that failed (storage fault, panic) stops the server like a signal does, but the exit
    // is non-zero so a supervisor restarts it on a reopened data file.
    let stop = {
        let health = health.clone();
        async move {
            tokio::select! {
                () = server::shutdown_signal() => {}
                () = health.failed() => error!("the writer failed; shutting down"),
            }
        }
    };
    runtime.block_on(server::run(listener, state, stop));
    // Connections are done (or given up on): commit what is queued, then stop the writer.
    let stats = writer.stop();
    runtime.shutdown_timeout(Duration::from_secs(1));
    info!("stopped");
    println!("{}", stats.summary());
    if health.is_ok() {
        Ok(ExitCode::SUCCESS)
    } else {
        eprintln!("error: the writer failed (see the log); exiting non-zero");
        Ok(ExitCode::FAILURE)
    }
}

/// A fresh install with no configured and no stored key gets one for client `default`, printed once,
/// so a plain `cards serve` can be used right away.
fn ensure_a_stored_key(db: &Database, env: &dyn Env) -> Result<(), String> {
    let mut read = ReadAdapter::begin(db).map_err(|e| e.to_string())?;
    if auth::has_stored_keys(&mut read).map_err(|e| e.to_string())? {
        return Ok(());
    }
    let key = with_write(db, |tx| auth::create_key(tx, env, "default"))?;
    println!("API key for client \"default\": {key}");
    println!("(shown once; make more with `cards keys create --client NAME`)");
    Ok(())
}

fn keys(cmd: KeysCommand) -> Result<ExitCode, String> {
    match cmd {
        KeysCommand::Create { client, data } => {
            let db = storage::open(&data.data)?;
            let key = with_write(&db, |tx| auth::create_key(tx, &SystemEnv, &client))?;
            println!("{key}");
            Ok(ExitCode::SUCCESS)
        }
        KeysCommand::Revoke { key, data } => {
            let db = storage::open(&data.data)?;
            let existed = with_write(&db, |tx| {
                auth::revoke_key(tx, &key).map_err(|e| e.to_string())
            })?;
            if existed {
                println!("revoked");
                Ok(ExitCode::SUCCESS)
            } else {
                eprintln!("no such key");
                Ok(ExitCode::FAILURE)
            }
        }
    }
}

/// Runs `f` in one committed write transaction.
fn with_write<T>(
    db: &Database,
    f: impl FnOnce(&mut dyn Tx) -> Result<T, String>,
) -> Result<T, String> {
    let txn = db.begin_write().map_err(|e| e.to_string())?;
    let out = {
        let mut adapter = WriteAdapter::open(&txn).map_err(|e| e.to_string())?;
        f(&mut adapter)?
    };
    txn.commit().map_err(|e| e.to_string())?;
    Ok(out)
}
