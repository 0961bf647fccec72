//! `cards`: the card-issuing service as a native server, and its key management commands.

mod allocator;
mod background;
mod cli;
mod delivery;
mod json_log;
mod metrics;
mod os_thread;
mod outbound;
mod rotation;
mod server;
mod store;
mod system_env;
mod vault_key;
mod writer;

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, anyhow};
use card_core::domain::api_keys::{self as auth, ConfiguredKeys};
use card_core::domain::audit::{self, AuditAction};
use card_core::domain::permissions::Permissions;
use card_core::{Config, Env, Service};
use clap::Parser;
use tracing::{error, info, warn};
use tracing_subscriber::EnvFilter;
use zeroize::Zeroize;

use crate::cli::{Cli, Command, KeysCommand, LogFormat, ServeArgs};
use crate::store::Store;
use crate::store::redb::logged::{Checkpoints, LoggedDb};
use crate::system_env::SystemEnv;
use crate::writer::machine::Window;
use crate::writer::{Pipeline, Writer};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let logs = tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        // The server's lines are gathered and written by a log thread, many per write(2)
        // (json_log.rs: the syscall per request line was logging's largest cost); the other
        // commands write theirs as they come.
        .with_writer(match cli.command {
            Command::Serve(_) => json_log::LogOut::gathered(),
            _ => json_log::LogOut::Direct,
        });
    match cli.log_format {
        // tracing-subscriber's text, the request line written cheaper (json_log::Text).
        LogFormat::Text => logs
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .event_format(json_log::Text::default())
            .init(),
        // One object per line, the event's fields at the top level beside timestamp and level.
        LogFormat::Json => logs.event_format(json_log::Json).init(),
    }
    install_panic_hook();
    let result = match cli.command {
        Command::Serve(args) => serve(*args),
        Command::Keys(cmd) => keys(cmd),
        Command::Seed(args) => cli::seed::run(args),
        Command::Listen(args) => cli::listen::run(args),
        Command::Vault(cmd) => cli::vault::run(cmd),
        Command::Completions { shell } => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(shell, &mut cmd, "cards", &mut std::io::stdout());
            Ok(ExitCode::SUCCESS)
        }
        Command::Man => clap_mangen::Man::new(<Cli as clap::CommandFactory>::command())
            .render(&mut std::io::stdout())
            .map(|()| ExitCode::SUCCESS)
            .map_err(anyhow::Error::from),
    };
    json_log::flush();
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
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

fn serve(mut args: ServeArgs) -> anyhow::Result<ExitCode> {
    allocator::keep_freed_memory();
    if !allocator::small_pages() {
        warn!("the kernel kept transparent huge pages on: the writer may stall on page faults");
    }
    let data = args.data.data;
    let store_url = args.data.store;
    let mut api_keys = ConfiguredKeys::default();
    for pair in &args.api_keys {
        api_keys
            .add_pair(pair)
            .map_err(|e| anyhow!("--api-key / CARDS_API_KEYS: {e}"))?;
    }
    if let Some(path) = &args.api_keys_file {
        let text = vault_key::read_private(path)?;
        for (n, line) in text.lines().enumerate().map(|(n, l)| (n + 1, l.trim())) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            api_keys
                .add_pair(line)
                .map_err(|e| anyhow!("--api-keys-file {}:{n}: {e}", path.display()))?;
        }
    }
    let (vault_keys, source) = vault_key::resolve(
        &args.vault.vault_keys,
        args.vault.vault_key_file.as_deref(),
        store_url.as_deref(),
        &data,
    )?;
    // The keys as given are parsed (API keys kept only hashed): wipe their text, and the parsed
    // vault keys once the configuration holds them.
    let vault_keys = zeroize::Zeroizing::new(vault_keys);
    args.vault.vault_keys.zeroize();
    args.api_keys.zeroize();
    match source {
        vault_key::Source::Configured => info!("vault key from configuration"),
        vault_key::Source::KeyFile(p) => info!(file = %p.display(), "vault keys from file"),
        vault_key::Source::FileReused(p) => info!(file = %p.display(), "vault key from file"),
        vault_key::Source::FileCreated(p) => warn!(
            file = %p.display(),
            "created a new vault key file; keep it with the data file, card numbers cannot be read without it"
        ),
    }
    let store = Store::open(
        store_url.as_deref(),
        &data,
        args.data.cache_size,
        args.data.store_timeout,
    )?;
    let env = Arc::new(SystemEnv);
    if api_keys.is_empty() {
        ensure_a_stored_key(&store, &*env)?;
    }
    let url_policy = card_core::domain::push::UrlPolicy {
        allow_private: args.allow_private_urls,
    };
    let outbound = outbound::Outbound::new(url_policy).resolving(&args.resolve);
    let service = Arc::new(Service::new(
        Config {
            api_keys,
            token_ttl_secs: args.token_ttl,
            authorization_ttl_secs: args.authorization_ttl,
            vault_key: vault_keys.first().copied(),
            vault_older_keys: vault_keys.get(1..).unwrap_or_default().to_vec(),
            // Long-lived instances: the id counter lives in memory. Ids stay unique across instances
            // on one database through their 5 random instance bytes.
            stored_ids: false,
            file_quota_bytes: args.file_quota,
            test_clock: args.test_clock,
            webhook_retry_schedule: args.webhook_retry_schedule.0.clone(),
            url_policy,
        },
        &*env,
    ));
    let checking = std::time::Instant::now();
    let rekeyed = store
        .write(|tx| {
            service
                .check_vault_key(tx, &*env)
                .map_err(anyhow::Error::msg)
        })
        .with_context(|| store.describe(&data))?;
    if let Some(done) = rekeyed {
        info!(
            cards = done.cards,
            destroyed_cards_kept = done.legacy,
            seconds = checking.elapsed().as_secs_f64(),
            "data format 8: re-keyed the PAN index under the store's PAN-index key"
        );
    }
    if let Some(vault) = service.config().vault() {
        // Ids only: which key seals, which others are kept for opening.
        info!(active = vault.active_id(), keys = ?vault.key_ids(), "vault keys");
    }

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the runtime")?;
    let listener = runtime
        .block_on(async { server::listen(args.listen) })
        .with_context(|| format!("cannot listen on {}", args.listen))?;
    let local = listener.local_addr()?;
    let metrics = match args.metrics_listen {
        Some(addr) => {
            let listener = runtime
                .block_on(async { server::listen(addr) })
                .with_context(|| format!("cannot listen on {addr} for metrics"))?;
            let handle = metrics::install().context("cannot install the metrics recorder")?;
            info!(listen = %listener.local_addr()?, "metrics at /metrics");
            Some((listener, handle))
        }
        None => None,
    };
    let pipeline = Pipeline::with_window(
        args.max_batch as usize,
        Window {
            wait: args.commit_window,
            batch: args.commit_window_batch as usize,
        },
    );
    let logged = match &store {
        Store::Redb(file) => Some(
            LoggedDb::start(
                file.clone(),
                Checkpoints {
                    priority: args.checkpoint_priority,
                    spread_percent: args.checkpoint_spread,
                    commit_keys: match args.checkpoint_commit_keys {
                        0 => u64::MAX,
                        keys => keys,
                    },
                    commit_bytes: match args.checkpoint_commit_bytes {
                        0 => u64::MAX,
                        bytes => bytes,
                    },
                    ..Checkpoints::every(args.checkpoint_interval)
                },
                pipeline.clone(),
            )
            .context("cannot start the write-ahead log's threads")?,
        ),
        Store::Postgres(_) => None,
    };
    let writer = match (&store, &logged) {
        (_, Some(db)) => Writer::start(pipeline, db.clone(), service.clone(), env.clone()),
        (Store::Postgres(pg), None) => {
            Writer::start(pipeline, pg.clone(), service.clone(), env.clone())
        }
        (Store::Redb(_), None) => unreachable!("a redb store has its log"),
    }
    .context("cannot start the writer thread")?;
    let where_ = store.describe(&data);
    let limits = args.limits;
    let handle = writer.handle();
    let deliveries = Arc::new(tokio::sync::Notify::new());
    let delivery_stats = Arc::new(std::sync::Mutex::new(delivery::Stats::default()));
    // Deliveries and the rotation on the background runtime, at a lower priority than the clients.
    let background = background::runtime().context("cannot start the background runtime")?;
    if args.deliver_webhooks {
        background.spawn(
            Arc::new(delivery::Deliverer {
                service: service.clone(),
                store: store.clone(),
                env: env.clone(),
                writer: writer.handle(),
                // A pool of its own: a connection's driver runs on the runtime that made it, and the
                // server's call-outs (decisions, test pings) stay on the clients' threads.
                outbound: outbound.separate_pool(),
                wake: deliveries.clone(),
                stats: delivery_stats.clone(),
            })
            .run(),
        );
    } else {
        info!(
            "webhook deliveries queue but are not sent from this instance (--deliver-webhooks false)"
        );
    }
    if args.vault_rotate {
        match service.config().vault() {
            Some(vault) => {
                background.spawn(
                    Arc::new(rotation::Rotator {
                        vault: Arc::new(vault),
                        store: store.clone(),
                        env: env.clone(),
                        writer: writer.handle(),
                        batch: args.vault_rotate_batch as usize,
                        pause: args.vault_rotate_pause,
                    })
                    .run(),
                );
            }
            None => warn!("--vault-rotate: no vault key is configured; nothing to rotate"),
        }
    }
    let state = Arc::new(server::AppState {
        service,
        store: store.clone(),
        env,
        writer: writer.handle(),
        console: args.console.map(server::static_files::StaticFiles::new),
        rate: Arc::new(server::rate_limit::RateLimiter::new(
            limits.read_rate,
            limits.write_rate,
        )),
        body_budget: server::AppState::body_budget(&limits),
        limits,
        metrics: metrics.is_some(),
        cors: card_core::http::cors::Origins::new(&args.cors_origins),
        deliveries,
        outbound,
    });
    if let Some((listener, handle)) = metrics {
        let gauges = {
            let (writer, budget, total) = (
                state.writer.clone(),
                state.body_budget.clone(),
                state.limits.max_queued_bytes,
            );
            metrics::Gauges {
                queue_depth: Box::new(move || writer.queued()),
                body_bytes_held: Box::new(move || server::budget_held(&budget, total)),
            }
        };
        runtime.spawn(metrics::serve(
            listener,
            handle,
            gauges,
            std::future::pending(),
        ));
    }
    info!(listen = %local, data = %where_, max_batch = args.max_batch, "cards listening");
    // A writer that failed (storage fault, panic) stops the server like a signal does, but the exit
    // is non-zero so a supervisor restarts it on a reopened data file.
    let stop = {
        let handle = handle.clone();
        async move {
            tokio::select! {
                () = server::shutdown_signal() => {}
                () = handle.health().failed() => error!("the writer failed; shutting down"),
            }
        }
    };
    runtime.block_on(server::run(listener, state, stop));
    // Connections are done (or given up on): commit what is queued, then stop the writer.
    let stats = writer.stop();
    background.shutdown_timeout(Duration::from_secs(1));
    runtime.shutdown_timeout(Duration::from_secs(1));
    info!("stopped");
    // The log's lines first, so the summary comes after them, as it did when lines were written at once.
    json_log::flush();
    println!("{}", stats.summary());
    if let Some(db) = &logged {
        println!("{}", db.stats().summary());
        println!("log fsyncs: {}", db.sync_timings().summary());
    }
    // Only when something was sent: the line is plain text, even with JSON logs.
    let delivered = delivery_stats
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    if delivered.attempts > 0 {
        println!("{}", delivered.summary());
    }
    if let Store::Postgres(pg) = &store {
        println!(
            "postgres conflicts: {} transactions re-run, {} requests answered busy",
            pg.retries.load(std::sync::atomic::Ordering::Relaxed),
            pg.busy.load(std::sync::atomic::Ordering::Relaxed)
        );
    }
    if handle.health().is_ok() {
        Ok(ExitCode::SUCCESS)
    } else {
        eprintln!("error: the writer failed (see the log); exiting non-zero");
        Ok(ExitCode::FAILURE)
    }
}

/// A fresh install with no configured and no stored key gets one for client `default`, printed once,
/// so a plain `cards serve` can be used right away. It is the operator's first key: full access,
/// `reveal` included, as every key had before permissions existed.
fn ensure_a_stored_key(store: &Store, env: &dyn Env) -> anyhow::Result<()> {
    if store.read(auth::has_stored_keys)?? {
        return Ok(());
    }
    let (key, _) = store.write(|tx| {
        auth::create_key(tx, env, "default", Permissions::full(), env.now())
            .map_err(anyhow::Error::msg)
    })?;
    println!("API key for client \"default\": {key}");
    println!("(shown once; make more with `cards keys create --client NAME`)");
    Ok(())
}

fn open_store(data: &cli::DataArg) -> anyhow::Result<Store> {
    Store::open(
        data.store.as_deref(),
        &data.data,
        data.cache_size,
        data.store_timeout,
    )
    .map_err(Into::into)
}

fn keys(cmd: KeysCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        KeysCommand::Create {
            client,
            permissions,
            data,
        } => {
            let permissions = if permissions.is_empty() {
                Permissions::default_new()
            } else {
                Permissions::parse(permissions.iter().map(String::as_str))
                    .map_err(|e| anyhow!("--permissions: {e}"))?
            };
            let store = open_store(&data)?;
            let (key, info) = store.write(|tx| {
                let (key, info) = auth::create_key(
                    tx,
                    &SystemEnv,
                    &client,
                    permissions.clone(),
                    SystemEnv.now(),
                )
                .map_err(anyhow::Error::msg)?;
                audit::record_operator_change(
                    tx,
                    &SystemEnv,
                    &client,
                    AuditAction::ApiKeyCreated,
                    &info.id,
                )
                .map_err(|e| anyhow!("cannot record the audit event: {}", e.message()))?;
                anyhow::Ok((key, info))
            })?;
            println!("{key}");
            eprintln!("id {} permissions {}", info.id, info.permissions.describe());
            Ok(ExitCode::SUCCESS)
        }
        KeysCommand::List { client, data } => {
            let store = open_store(&data)?;
            let keys = store.read(|tx| auth::list(tx, client.as_deref()))??;
            for k in keys {
                let created = k
                    .created_at
                    .map_or_else(|| "-".to_string(), |t| t.to_rfc3339());
                println!(
                    "{}\t{}\t{}\t{}",
                    k.id,
                    k.client,
                    created,
                    k.permissions.describe()
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        KeysCommand::Revoke { key, id, data } => {
            let store = open_store(&data)?;
            let existed = store.write(|tx| {
                let id = match (&key, &id) {
                    (Some(key), _) => auth::key_id(&auth::hash_key(key)),
                    (_, Some(id)) => id.clone(),
                    (None, None) => return anyhow::Ok(false),
                };
                let Some(info) = auth::revoke_by_id(tx, None, &id)? else {
                    return Ok(false);
                };
                audit::record_operator_change(
                    tx,
                    &SystemEnv,
                    &info.client,
                    AuditAction::ApiKeyRevoked,
                    &info.id,
                )
                .map_err(|e| anyhow!("cannot record the audit event: {}", e.message()))?;
                Ok(true)
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
