//! A test-only server that runs the card service's Spin component the way Spin does: the component is
//! compiled and pre-instantiated once, and every HTTP request gets a fresh `Store` and instance.
//!
//! `wasmtime serve` cannot run the component because nothing there provides `fermyon:spin/*`; this host
//! adds the Spin interfaces the component imports:
//! - `fermyon:spin/sqlite@2.0.0` over rusqlite, with the database named `default` in `--sqlite FILE`;
//! - `spin:postgres/postgres@3.0.0` over tokio-postgres ([`postgres`]), for the component built with
//!   `--features postgres`;
//! - `fermyon:spin/variables@2.0.0` answering `api_keys`, `vault_key`, `token_ttl`, `authorization_ttl`,
//!   `test_clock`, `database_url`, `store_timeout`, `cors_origins`, `allow_private_urls`,
//!   `webhook_retry_schedule`, `dispatch_key` from the environment (`CARDS_API_KEYS`,
//!   `CARDS_VAULT_KEY`, `CARDS_TOKEN_TTL`, `CARDS_AUTHORIZATION_TTL`, `CARDS_TEST_CLOCK`, `CARDS_DATABASE_URL`,
//!   `CARDS_STORE_TIMEOUT`, `CARDS_CORS_ORIGINS`, `CARDS_ALLOW_PRIVATE_URLS`,
//!   `CARDS_WEBHOOK_RETRY_SCHEDULE`, `CARDS_DISPATCH_KEY`); unset ones are `undefined`, as in Spin when a
//!   variable has no value, and the component falls back to its defaults.
//!
//! It is not a Spin replacement: no manifest, no routing, no outbound HTTP policy.

use std::collections::HashMap;
use std::convert::Infallible;
use std::hash::{Hash as _, Hasher as _};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context as _, anyhow};
use bytes::Bytes;
use clap::Parser;
use http_body_util::{BodyExt, Full};
use hyper::server::conn::http1;
use tokio::net::TcpListener;
use tokio::sync::Mutex;
use wasmtime::component::{Component, HasSelf, Linker, Resource, ResourceTable};
use wasmtime::{Engine, Store};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};
use wasmtime_wasi_http::io::TokioIo;
use wasmtime_wasi_http::p2::bindings::ProxyPre;
use wasmtime_wasi_http::p2::bindings::http::types::Scheme;
use wasmtime_wasi_http::p2::body::HyperOutgoingBody;
use wasmtime_wasi_http::{WasiHttpCtx, WasiHttpCtxView, WasiHttpView};

mod postgres;

mod bindings {
    wasmtime::component::bindgen!({
        path: "wit",
        world: "spin-imports",
        // SQLite host functions are synchronous (rusqlite blocks); they still work inside an async
        // store. PostgreSQL's are async (tokio-postgres), so a guest waiting on the database does not
        // block a runtime thread.
        imports: {
            "spin:postgres/postgres": async | trappable,
            default: trappable,
        },
        with: {
            "fermyon:spin/sqlite.connection": super::SqliteConnection,
            "spin:postgres/postgres.connection": super::postgres::PgConnection,
        },
    });
}

use bindings::fermyon::spin::{sqlite, variables};

/// Guest fuel is not used; a runaway guest is stopped by epoch interruption after this long.
const GUEST_TIMEOUT: Duration = Duration::from_secs(30);
const EPOCH_TICK: Duration = Duration::from_millis(100);

#[derive(Parser, Debug)]
#[command(
    name = "spin-test-host",
    about = "Serve the card service's Spin component over HTTP (for tests)"
)]
struct Args {
    /// The component: target/wasm32-wasip2/release/host_wasm.wasm (under $CARGO_TARGET_DIR if set).
    #[arg(long)]
    component: PathBuf,
    /// Address to listen on; port 0 picks a free port (the chosen address is printed on stdout).
    #[arg(long, default_value = "127.0.0.1:3000")]
    listen: SocketAddr,
    /// The SQLite file behind the component's `default` database (created if missing; a relative
    /// path is taken from the working directory, which is how the acceptance harness uses it).
    #[arg(long, default_value = "cards.sqlite")]
    sqlite: PathBuf,
    /// Answer a `spin:postgres` query that returns no rows, as Spin 4.0.3 and later do. Without it
    /// (the default, and what the acceptance suite runs) such a query traps the guest: Spin 4.0.0
    /// to 4.0.2 never return from it (spinframework/spin#3671), so a component that sends one hangs.
    #[arg(long)]
    pg_allow_empty: bool,
}

/// The Spin variables, read once from the environment at start.
fn variables_from_env() -> HashMap<String, String> {
    [
        ("api_keys", "CARDS_API_KEYS"),
        ("vault_key", "CARDS_VAULT_KEY"),
        ("vault_keys", "CARDS_VAULT_KEYS"),
        ("token_ttl", "CARDS_TOKEN_TTL"),
        ("authorization_ttl", "CARDS_AUTHORIZATION_TTL"),
        ("test_clock", "CARDS_TEST_CLOCK"),
        ("database_url", "CARDS_DATABASE_URL"),
        ("store_timeout", "CARDS_STORE_TIMEOUT"),
        ("cors_origins", "CARDS_CORS_ORIGINS"),
        ("allow_private_urls", "CARDS_ALLOW_PRIVATE_URLS"),
        ("webhook_retry_schedule", "CARDS_WEBHOOK_RETRY_SCHEDULE"),
        ("dispatch_key", "CARDS_DISPATCH_KEY"),
    ]
    .into_iter()
    .filter_map(|(var, env)| std::env::var(env).ok().map(|v| (var.to_string(), v)))
    .collect()
}

/// What every request's store shares.
struct Shared {
    db_path: PathBuf,
    variables: HashMap<String, String>,
    /// A `spin:postgres` query that returns no rows traps the guest (see `--pg-allow-empty`).
    pg_strict: bool,
}

/// Per-request store data.
pub(crate) struct State {
    pub(crate) table: ResourceTable,
    wasi: WasiCtx,
    http: WasiHttpCtx,
    pub(crate) hooks: GuestLockHooks,
    shared: Arc<Shared>,
}

/// Outgoing HTTP as wasmtime sends it, with the guest lock let go while the guest waits for the
/// answer: another guest may run meanwhile (the component holds no transaction while it calls out,
/// and the endpoint it calls may call the service back, as on a real Spin, which runs instances
/// side by side). The lock is taken again before the guest sees the answer. A guest may have
/// several requests out at once (webhook deliveries go side by side): the first answer takes the
/// lock back, the later ones find the guest holding it.
#[derive(Default)]
pub(crate) struct GuestLockHooks {
    /// The lock and the guard the running guest holds.
    lock: Option<Arc<Mutex<()>>>,
    held: Arc<std::sync::Mutex<Held>>,
    /// One answer at a time takes the lock back.
    turn: Arc<Mutex<()>>,
}

#[derive(Default)]
pub(crate) struct Held {
    /// None: not yet taken, or let go while the guest waits for an answer.
    guard: Option<tokio::sync::OwnedMutexGuard<()>>,
    /// The guest returned: an answer that comes after must not take the lock for it.
    done: bool,
}

fn held(h: &std::sync::Mutex<Held>) -> std::sync::MutexGuard<'_, Held> {
    h.lock().unwrap_or_else(|e| e.into_inner())
}

type SendResult = wasmtime_wasi_http::Result<(
    hyper::Response<wasmtime_wasi_http::WasiBody>,
    Box<dyn std::future::Future<Output = Result<(), wasmtime_wasi_http::Error>> + Send>,
)>;

impl wasmtime_wasi_http::WasiHttpHooks for GuestLockHooks {
    fn send_request(
        &mut self,
        request: hyper::Request<wasmtime_wasi_http::WasiBody>,
        options: Option<wasmtime_wasi_http::RequestOptions>,
        fut: Box<dyn std::future::Future<Output = Result<(), wasmtime_wasi_http::Error>> + Send>,
    ) -> Box<dyn std::future::Future<Output = SendResult> + Send> {
        _ = fut;
        drop(held(&self.held).guard.take());
        let (lock, slot, turn) = (self.lock.clone(), self.held.clone(), self.turn.clone());
        Box::new(async move {
            let sent = wasmtime_wasi_http::default_send_request(request, options).await;
            if let Some(lock) = lock {
                let _turn = turn.lock().await;
                let taken = {
                    let h = held(&slot);
                    h.guard.is_some() || h.done
                };
                if !taken {
                    let guard = lock.lock_owned().await;
                    let mut h = held(&slot);
                    if !h.done {
                        h.guard = Some(guard);
                    }
                }
            }
            let (res, io) = sent?;
            Ok((
                res.map(BodyExt::boxed_unsync),
                Box::new(io) as Box<dyn std::future::Future<Output = _> + Send>,
            ))
        })
    }
}

impl WasiView for State {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

impl WasiHttpView for State {
    fn http(&mut self) -> WasiHttpCtxView<'_> {
        WasiHttpCtxView {
            ctx: &mut self.http,
            table: &mut self.table,
            hooks: &mut self.hooks,
        }
    }
}

/// The host side of a `fermyon:spin/sqlite` connection. Dropping it (with its store) closes the
/// SQLite connection, which rolls back any transaction a trapped guest left open.
pub struct SqliteConnection {
    conn: rusqlite::Connection,
}

fn open_db(path: &std::path::Path) -> rusqlite::Result<rusqlite::Connection> {
    create_private(path).map_err(|e| {
        rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CANTOPEN),
            Some(format!("cannot create {}: {e}", path.display())),
        )
    })?;
    let conn = rusqlite::Connection::open(path)?;
    // Requests are serialized, but a second host process or a test peeking at the file may not be.
    conn.busy_timeout(Duration::from_secs(5))?;
    Ok(conn)
}

/// A new database file is created readable by its owner only (0600): it holds personal data. SQLite
/// gives its journal the database file's mode. An existing file keeps its mode.
fn create_private(path: &std::path::Path) -> std::io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
    {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e),
    }
}

impl sqlite::Host for State {}

impl sqlite::HostConnection for State {
    fn open(
        &mut self,
        database: String,
    ) -> wasmtime::Result<Result<Resource<SqliteConnection>, sqlite::Error>> {
        // Spin gives a component the `default` database unless runtime config labels others.
        if database != "default" {
            return Ok(Err(sqlite::Error::NoSuchDatabase));
        }
        let conn = match open_db(&self.shared.db_path) {
            Ok(conn) => conn,
            Err(e) => return Ok(Err(sqlite::Error::Io(e.to_string()))),
        };
        Ok(Ok(self.table.push(SqliteConnection { conn })?))
    }

    fn execute(
        &mut self,
        conn: Resource<SqliteConnection>,
        statement: String,
        parameters: Vec<sqlite::Value>,
    ) -> wasmtime::Result<Result<sqlite::QueryResult, sqlite::Error>> {
        let conn = self.table.get(&conn)?;
        Ok(execute(&conn.conn, &statement, parameters)
            .map_err(|e| sqlite::Error::Io(e.to_string())))
    }

    fn drop(&mut self, conn: Resource<SqliteConnection>) -> wasmtime::Result<()> {
        self.table.delete(conn)?;
        Ok(())
    }
}

fn execute(
    conn: &rusqlite::Connection,
    statement: &str,
    parameters: Vec<sqlite::Value>,
) -> rusqlite::Result<sqlite::QueryResult> {
    use rusqlite::types::{Value as SqlValue, ValueRef};
    let mut stmt = conn.prepare_cached(statement)?;
    let columns: Vec<String> = stmt.column_names().map(String::from).collect();
    let params = parameters.into_iter().map(|v| match v {
        sqlite::Value::Integer(i) => SqlValue::Integer(i),
        sqlite::Value::Real(r) => SqlValue::Real(r),
        sqlite::Value::Text(t) => SqlValue::Text(t),
        sqlite::Value::Blob(b) => SqlValue::Blob(b),
        sqlite::Value::Null => SqlValue::Null,
    });
    let mut rows = stmt.query(rusqlite::params_from_iter(params))?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        let mut values = Vec::with_capacity(columns.len());
        for i in 0..columns.len() {
            values.push(match row.get_ref(i)? {
                ValueRef::Null => sqlite::Value::Null,
                ValueRef::Integer(i) => sqlite::Value::Integer(i),
                ValueRef::Real(r) => sqlite::Value::Real(r),
                ValueRef::Text(t) => sqlite::Value::Text(String::from_utf8_lossy(t).into_owned()),
                ValueRef::Blob(b) => sqlite::Value::Blob(b.to_vec()),
            });
        }
        out.push(sqlite::RowResult { values });
    }
    Ok(sqlite::QueryResult { columns, rows: out })
}

impl variables::Host for State {
    fn get(&mut self, name: String) -> wasmtime::Result<Result<String, variables::Error>> {
        Ok(match self.shared.variables.get(&name) {
            Some(value) => Ok(value.clone()),
            None => Err(variables::Error::Undefined(format!(
                "no variable for the given key: {name}"
            ))),
        })
    }
}

struct Server {
    pre: ProxyPre<State>,
    shared: Arc<Shared>,
    /// One guest call at a time: SQLite write transactions never collide, like a single Spin
    /// instance on a local database file. On PostgreSQL too, so conflicts come only from other
    /// processes on the same database (two hosts, or a host and a native server).
    guest_lock: Arc<Mutex<()>>,
}

/// The contract's 500 body, for when the guest traps or never answers.
fn internal_error() -> hyper::Response<HyperOutgoingBody> {
    let body = r#"{"statusCode":500,"message":"Internal server error","error":"internal_error"}"#;
    let mut resp = hyper::Response::new(
        Full::new(Bytes::from_static(body.as_bytes()))
            .map_err(|never| match never {})
            .boxed_unsync(),
    );
    *resp.status_mut() = hyper::StatusCode::INTERNAL_SERVER_ERROR;
    resp.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    resp
}

impl Server {
    async fn handle(
        self: Arc<Self>,
        mut req: hyper::Request<hyper::body::Incoming>,
    ) -> hyper::Response<HyperOutgoingBody> {
        // wasi:http needs an authority; HTTP/1.0 clients may send no Host.
        if req.uri().authority().is_none() && !req.headers().contains_key(hyper::header::HOST) {
            req.headers_mut().insert(
                hyper::header::HOST,
                hyper::header::HeaderValue::from_static("localhost"),
            );
        }
        match self.call_guest(req).await {
            Ok(resp) => resp,
            Err(e) => {
                eprintln!("spin-test-host: request failed: {e:#}");
                internal_error()
            }
        }
    }

    async fn call_guest(
        &self,
        req: hyper::Request<hyper::body::Incoming>,
    ) -> anyhow::Result<hyper::Response<HyperOutgoingBody>> {
        let mut store = Store::new(
            self.pre.engine(),
            State {
                table: ResourceTable::new(),
                wasi: WasiCtx::builder().inherit_stdout().inherit_stderr().build(),
                http: WasiHttpCtx::new(),
                hooks: GuestLockHooks {
                    lock: Some(self.guest_lock.clone()),
                    ..GuestLockHooks::default()
                },
                shared: self.shared.clone(),
            },
        );
        let slot = store.data().hooks.held.clone();
        store.set_epoch_deadline(GUEST_TIMEOUT.as_millis() as u64 / EPOCH_TICK.as_millis() as u64);
        store.epoch_deadline_trap();

        let (sender, receiver) = tokio::sync::oneshot::channel();
        let incoming = store
            .data_mut()
            .http()
            .new_incoming_request(Scheme::Http, req)
            .map_err(anyhow::Error::from)?;
        let out = store
            .data_mut()
            .http()
            .new_response_outparam(sender)
            .map_err(anyhow::Error::from)?;
        let pre = self.pre.clone();
        let lock = self.guest_lock.clone();

        // The guest keeps running after it sets the response head (it still writes the body), so it
        // runs in its own task, holding the lock until it returns.
        // The guard sits in `held`, where the outgoing-HTTP hook lets it go while the guest waits.
        let task = tokio::task::spawn(async move {
            let guard = lock.lock_owned().await;
            held(&slot).guard = Some(guard);
            let proxy = pre.instantiate_async(&mut store).await?;
            let result = proxy
                .wasi_http_incoming_handler()
                .call_handle(&mut store, incoming, out)
                .await;
            let guard = {
                let mut h = held(&slot);
                h.done = true;
                h.guard.take()
            };
            drop(guard);
            result
        });

        match receiver.await {
            Ok(Ok(resp)) => Ok(resp),
            Ok(Err(code)) => Err(anyhow!("guest answered with an error code: {code:?}")),
            // The sender was dropped with the store: the guest trapped or returned without answering.
            Err(_) => match task.await {
                Ok(Ok(())) => Err(anyhow!("guest never set a response")),
                Ok(Err(e)) => Err(anyhow::Error::from(e).context("guest trapped")),
                Err(e) => Err(anyhow::Error::from(e).context("guest task failed")),
            },
        }
    }
}

async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(term) => term,
                Err(_) => {
                    let _ = ctrl_c.await;
                    return;
                }
            };
        tokio::select! {
            _ = ctrl_c => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = ctrl_c.await;
    }
}

/// Compiles the component, reusing machine code compiled earlier for the same bytes and engine.
///
/// Compiling the ~2.5 MB component takes seconds, and the acceptance suite starts a host per test
/// binary, so the compiled form is kept in `$SPIN_TEST_HOST_CACHE` (default: the temp directory).
fn load_component(engine: &Engine, path: &Path) -> anyhow::Result<Component> {
    let wasm = std::fs::read(path)?;
    let mut hasher = std::hash::DefaultHasher::new();
    wasm.hash(&mut hasher);
    engine.precompile_compatibility_hash().hash(&mut hasher);
    env!("CARGO_PKG_VERSION").hash(&mut hasher);
    let dir = std::env::var_os("SPIN_TEST_HOST_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("spin-test-host-cache"));
    let cached = dir.join(format!("{:016x}.cwasm", hasher.finish()));

    if cached.is_file() {
        // SAFETY: the file is one this program wrote with `precompile_component` for an engine
        // with the same compatibility hash; wasmtime still checks its header before using it.
        match unsafe { Component::deserialize_file(engine, &cached) } {
            Ok(component) => return Ok(component),
            Err(e) => eprintln!("spin-test-host: ignoring cached {}: {e}", cached.display()),
        }
    }
    let compiled = engine
        .precompile_component(&wasm)
        .map_err(anyhow::Error::from)?;
    // Written under a unique name and renamed, so hosts starting in parallel never see half a file.
    let written = std::fs::create_dir_all(&dir).and_then(|()| {
        let tmp = dir.join(format!("{}.tmp", std::process::id()));
        std::fs::write(&tmp, &compiled)?;
        std::fs::rename(&tmp, &cached)
    });
    if let Err(e) = written {
        eprintln!("spin-test-host: cannot cache the compiled component: {e}");
    }
    // SAFETY: `compiled` was produced just above by this engine.
    unsafe { Component::deserialize(engine, &compiled) }.map_err(anyhow::Error::from)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();

    let mut config = wasmtime::Config::new();
    config.epoch_interruption(true);
    let engine = Engine::new(&config).map_err(anyhow::Error::from)?;
    let component = load_component(&engine, &args.component)
        .with_context(|| format!("loading component {}", args.component.display()))?;

    let mut linker = Linker::<State>::new(&engine);
    wasmtime_wasi::p2::add_to_linker_async(&mut linker).map_err(anyhow::Error::from)?;
    wasmtime_wasi_http::p2::add_only_http_to_linker_async(&mut linker)
        .map_err(anyhow::Error::from)?;
    bindings::SpinImports::add_to_linker::<_, HasSelf<_>>(&mut linker, |s| s)
        .map_err(anyhow::Error::from)?;
    let pre = linker
        .instantiate_pre(&component)
        .and_then(ProxyPre::new)
        .map_err(anyhow::Error::from)
        .context("the component does not fit this host (imports or exports)")?;

    // Create the file up front so a bad path fails at start, and use WAL so a reader (a test
    // inspecting the file) never blocks the guest. This connection stays open until exit: SQLite
    // deletes the -wal/-shm files (after a checkpoint) whenever its last connection closes, and the
    // guest's connections close after every request; keeping one open keeps those files stable.
    let keeper =
        open_db(&args.sqlite).with_context(|| format!("opening {}", args.sqlite.display()))?;
    keeper.pragma_update(None, "journal_mode", "WAL")?;

    let engine_for_ticks = engine.clone();
    std::thread::spawn(move || {
        loop {
            std::thread::sleep(EPOCH_TICK);
            engine_for_ticks.increment_epoch();
        }
    });

    let server = Arc::new(Server {
        pre,
        shared: Arc::new(Shared {
            db_path: args.sqlite.clone(),
            variables: variables_from_env(),
            pg_strict: !args.pg_allow_empty,
        }),
        guest_lock: Arc::new(Mutex::new(())),
    });

    let listener = TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("binding {}", args.listen))?;
    // The harness reads this line to learn the port when --listen ends in :0.
    println!("listening on http://{}", listener.local_addr()?);

    let shutdown = shutdown_signal();
    tokio::pin!(shutdown);
    loop {
        let (stream, _) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(conn) => conn,
                Err(e) => {
                    eprintln!("spin-test-host: accept failed: {e}");
                    continue;
                }
            },
            _ = &mut shutdown => break,
        };
        let server = server.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req| {
                let server = server.clone();
                async move { Ok::<_, Infallible>(server.handle(req).await) }
            });
            if let Err(e) = http1::Builder::new()
                .keep_alive(true)
                .serve_connection(TokioIo::new(stream), service)
                .await
            {
                eprintln!("spin-test-host: connection error: {e}");
            }
        });
    }
    drop(keeper);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlite::HostConnection as _;

    fn state(db_path: PathBuf) -> State {
        State {
            table: ResourceTable::new(),
            wasi: WasiCtx::builder().build(),
            http: WasiHttpCtx::new(),
            hooks: GuestLockHooks::default(),
            shared: Arc::new(Shared {
                db_path,
                variables: HashMap::from([("api_keys".to_string(), "k=v".to_string())]),
                pg_strict: true,
            }),
        }
    }

    fn blob(b: &[u8]) -> sqlite::Value {
        sqlite::Value::Blob(b.to_vec())
    }

    #[test]
    fn a_new_database_file_is_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("sth-mode-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("db.sqlite");
        let _ = std::fs::remove_file(&path);
        let conn = open_db(&path).unwrap();
        conn.execute_batch("CREATE TABLE t (x)").unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        drop(conn);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn only_the_default_database_opens() {
        let dir = std::env::temp_dir().join(format!("sth-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut s = state(dir.join("db.sqlite"));
        assert!(matches!(
            s.open("other".into()).unwrap(),
            Err(sqlite::Error::NoSuchDatabase)
        ));
        let conn = s.open("default".into()).unwrap().unwrap();
        let r = s
            .execute(
                conn,
                "SELECT 1 + ?".into(),
                vec![sqlite::Value::Integer(41)],
            )
            .unwrap()
            .unwrap();
        assert!(matches!(r.rows[0].values[0], sqlite::Value::Integer(42)));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn variables_come_from_the_environment_map() {
        let mut s = state(PathBuf::from("unused"));
        assert!(matches!(
            variables::Host::get(&mut s, "api_keys".into()).unwrap(),
            Ok(v) if v == "k=v"
        ));
        assert!(matches!(
            variables::Host::get(&mut s, "vault_key".into()).unwrap(),
            Err(variables::Error::Undefined(_))
        ));
    }

    /// The component's own statements: BLOB keys in byte order, both directions, no-limit, upsert.
    #[test]
    fn blob_range_scans_follow_byte_order() {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        execute(&conn, host_wasm::sql::CREATE, vec![]).unwrap();
        for k in [&b"a"[..], b"a\x00", b"a\xff", b"b", b"\x00"] {
            execute(&conn, host_wasm::sql::PUT, vec![blob(k), blob(b"v")]).unwrap();
        }
        let keys = |sql: &str, limit: i64| -> Vec<Vec<u8>> {
            execute(
                &conn,
                sql,
                vec![blob(b"a"), blob(b"b"), sqlite::Value::Integer(limit)],
            )
            .unwrap()
            .rows
            .into_iter()
            .map(|r| match &r.values[0] {
                sqlite::Value::Blob(b) => b.clone(),
                _ => panic!("not a blob"),
            })
            .collect()
        };
        let (fwd, rev) = (host_wasm::sql::SCAN_FORWARD, host_wasm::sql::SCAN_REVERSE);
        assert_eq!(
            keys(fwd, host_wasm::sql::limit(usize::MAX)),
            vec![b"a".to_vec(), b"a\x00".to_vec(), b"a\xff".to_vec()]
        );
        assert_eq!(keys(rev, 2), vec![b"a\xff".to_vec(), b"a\x00".to_vec()]);

        execute(&conn, host_wasm::sql::PUT, vec![blob(b"b"), blob(b"v2")]).unwrap();
        let got = execute(&conn, host_wasm::sql::GET, vec![blob(b"b")]).unwrap();
        assert!(matches!(&got.rows[0].values[0], sqlite::Value::Blob(v) if v == b"v2"));
        execute(&conn, host_wasm::sql::DELETE, vec![blob(b"b")]).unwrap();
        let gone = execute(&conn, host_wasm::sql::GET, vec![blob(b"b")]).unwrap();
        assert!(gone.rows.is_empty());
    }
}
