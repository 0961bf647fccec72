//! The Spin face: an HTTP component (spin-sdk 5.2, `wasi:http/incoming-handler@0.2.0`) that runs the
//! core on Spin SQLite (`fermyon:spin/sqlite@2.0.0`), or, built with `--features postgres` and given
//! the variable `database_url`, on PostgreSQL ([`crate::spin_pg`]).
//!
//! Spin makes a fresh instance per request, so everything (configuration, service, connection) is
//! built per request; nothing is cached between requests.

use std::cell::Cell;

use card_core::callout::CallOut;
use card_core::domain::api_keys::ConfiguredKeys;
use card_core::domain::rotation;
use card_core::error::ApiError;
use card_core::http::Headers;
use card_core::http::body::BodyReader;
use card_core::http::{cors, errors, reply, request_id, routes};
use card_core::storage::KvPair;
use card_core::{
    Access, Config, Direction, Env, Method, Request, Response, Service, StoreError, Timestamp, Tx,
    Validated,
};
use futures::StreamExt as _;
use spin_sdk::http::{IncomingRequest, Method as SpinMethod};
use spin_sdk::http_component;
use spin_sdk::sqlite::{Connection, Value};

use crate::{settings, sql};

/// The Spin database label; runtime config can point it at libSQL/Turso.
const DATABASE: &str = "default";

#[http_component]
async fn handle(req: IncomingRequest) -> spin_sdk::http::Response {
    let headers: Vec<(String, String)> = req
        .headers()
        .entries()
        .into_iter()
        .map(|(name, value)| (name, String::from_utf8_lossy(&value).into_owned()))
        .collect();
    let headers = Headers::from(headers);
    let id = request_id::for_request(&headers, &WasiEnv::default());
    let origins = match variable("cors_origins") {
        Ok(list) => cors::Origins::new(list.split(',')),
        Err(e) => {
            eprintln!("host-wasm: request_id={id}: {e}; CORS stays off");
            cors::Origins::default()
        }
    };
    let cors_head: Vec<(String, String)> = headers
        .listed()
        .iter()
        .filter(|(name, _)| {
            name.eq_ignore_ascii_case("origin")
                || name.eq_ignore_ascii_case("access-control-request-method")
        })
        .cloned()
        .collect();
    let (resp, method, route) = match read_request(req, headers).await {
        Ok(mut req) => match cors::preflight(&origins, &req) {
            Some(answer) => (answer, req.method, routes::template(&req.path)),
            None => {
                // What the audit trail records: the id the response carries, and the address
                // Spin saw (it sets `spin-client-addr` on every incoming request).
                request_id::attach(&mut req, &id);
                req.peer = req
                    .header_value("spin-client-addr")
                    .and_then(|a| a.parse::<std::net::SocketAddr>().ok())
                    .map(|a| a.ip());
                (serve(&mut req), req.method, routes::template(&req.path))
            }
        },
        Err(resp) => (resp, Method::Other, "unread"),
    };
    let resp = cors::apply(&origins, &cors_head, resp);
    // Spin keeps the component's stderr as its log: a failure's cause, with the id the client got
    // (the route template, never the path: it holds ids, and a reveal's query a token).
    if let Some(cause) = &resp.cause {
        eprintln!("host-wasm: request_id={id} {method} {route}: {cause}");
    }
    to_spin(request_id::stamp(resp, &id))
}

/// The core's request from wasi:http, keeping at most [`Service::MAX_BODY_BYTES`] of body.
async fn read_request(req: IncomingRequest, headers: Headers) -> Result<Request, Response> {
    let method = match req.method() {
        SpinMethod::Get => Method::Get,
        SpinMethod::Head => Method::Head,
        SpinMethod::Post => Method::Post,
        SpinMethod::Put => Method::Put,
        SpinMethod::Patch => Method::Patch,
        SpinMethod::Delete => Method::Delete,
        SpinMethod::Options => Method::Options,
        _ => Method::Other,
    };
    let target = req.path_with_query().unwrap_or_else(|| "/".to_string());
    let mut request = Request::new(method, &target);
    request.headers = headers;

    let declared = request
        .header_value("content-length")
        .and_then(|v| v.trim().parse::<u64>().ok());
    let mut reader = BodyReader::new(Service::MAX_BODY_BYTES, declared)?;
    let mut stream = req.into_body_stream();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|_| Service::unreadable_body())?;
        reader.push(&chunk)?;
    }
    let body = reader.finish()?;
    request.body = body;
    Ok(request)
}

fn to_spin(resp: Response) -> spin_sdk::http::Response {
    let mut builder = spin_sdk::http::Response::builder();
    builder.status(resp.status);
    for (name, value) in resp.headers {
        // wasi:http forbids hop-by-hop headers; the Spin runtime manages the connection itself.
        if name.eq_ignore_ascii_case("connection") {
            continue;
        }
        builder.header(name, value);
    }
    builder.body(resp.body);
    builder.build()
}

/// One request: configuration, a transaction of the kind the core asks for, the core, commit. A
/// write that asks an outside endpoint first (`card_core::callout`) asks on a read transaction that
/// is closed before the call, so no transaction is open while the endpoint thinks.
fn serve(req: &mut Request) -> Response {
    let config = match config_from_variables() {
        Ok(config) => config,
        Err(e) => return fail(&format!("bad configuration: {e}")),
    };
    let env = WasiEnv::default();
    let service = Service::new(config, &env);
    let prepared = Service::prepare(req);
    let database_url = match variable("database_url") {
        Ok(url) => url.trim().to_string(),
        Err(e) => return fail(&format!("bad configuration: {e}")),
    };
    if req.method == Method::Post && (req.path == DISPATCH_PATH || req.path == ROTATE_PATH) {
        match operator(req) {
            // No operator key: the paths are unknown, as the core answers them (404).
            Ok(Operator::Absent) => {}
            Ok(Operator::Refused(resp)) => return resp,
            Ok(Operator::Allowed) if req.path == DISPATCH_PATH => {
                return dispatch(&service, &env, &database_url);
            }
            Ok(Operator::Allowed) => return rotate(&service, &env, &database_url),
            Err(e) => return fail(&format!("bad configuration: {e}")),
        }
    }
    // A write that asks first is validated on the read transaction it asks on, and the write runs
    // that validated request (its body parsed there, once); any other request runs every stage in
    // its one transaction.
    let staged = if prepared.asks() {
        let asked = if database_url.is_empty() {
            ask_sqlite(req, &service, &env)
        } else {
            ask_postgres(req, &service, &env, &database_url)
        };
        match asked {
            Some(Ok((mut validated, call))) => {
                if let Some(call) = call {
                    let policy = service.config().url_policy;
                    validated.set_asked(Some(crate::spin_out::call_out(policy, call)));
                }
                Some(validated)
            }
            // Refused by its head or its body: nothing to ask, nothing to write.
            Some(Err(resp)) => return resp,
            // Storage failed on the read: the write decides, and answers any failure.
            None => None,
        }
    } else {
        None
    };
    let req = &*req;
    let access = prepared.access();
    let resp = if database_url.is_empty() {
        serve_sqlite(req, staged.as_ref(), access, &service, &env)
    } else {
        serve_postgres(req, staged.as_ref(), access, &service, &env, &database_url)
    };
    // A committed write may have queued deliveries: send them now, the instance ends with the
    // request. Bounded, so the answer is not held long; the rest wait for the dispatch route.
    if prepared.access() == Access::Write
        && resp.status < 300
        && let Err(e) = send_due(&service, &env, &database_url, SEND_AFTER_WRITE)
    {
        eprintln!("host-wasm: webhook deliveries stay queued: {e}");
    }
    resp
}

/// Deliveries one write sends after its commit, at most.
const SEND_AFTER_WRITE: usize = 8;
/// Deliveries one dispatch call sends, at most: side by side, so a call takes as long as its
/// slowest attempt (at most 10 s).
const SEND_PER_DISPATCH: usize = 64;
/// The operator's route that sends what is due (retries): Spin's cron trigger, or any scheduler,
/// calls it with the `dispatch_key` variable in `x-dispatch-key`.
const DISPATCH_PATH: &str = "/webhook-deliveries/dispatch";

/// The operator's routes on Spin: `POST /vault/rotate`, one step of a vault key rotation per call
/// (Spin has no background task, and a SQLite file is the component's alone), until it answers
/// `done`. Steps of 100 card entries keep each call, and the writes beside it, short.
const ROTATE_PATH: &str = "/vault/rotate";
const ROTATE_BATCH: usize = 100;

/// Whether a request may use the operator's routes: they exist only when the `dispatch_key`
/// variable (the operator's key) is set, and answer only with it in `x-dispatch-key`.
enum Operator {
    Absent,
    Refused(Response),
    Allowed,
}

fn operator(req: &Request) -> Result<Operator, String> {
    let expected = variable("dispatch_key")?;
    let expected = expected.trim();
    if expected.is_empty() {
        return Ok(Operator::Absent);
    }
    let given = req.header_value("x-dispatch-key").unwrap_or("").trim();
    Ok(if settings::same_key(given, expected) {
        Operator::Allowed
    } else {
        Operator::Refused(errors::to_response(&ApiError::Unauthorized))
    })
}

/// `POST /webhook-deliveries/dispatch`: 200 `{attempted}` after sending what is due.
fn dispatch(service: &Service, env: &WasiEnv, database_url: &str) -> Response {
    match send_due(service, env, database_url, SEND_PER_DISPATCH) {
        Ok(attempted) => reply::ok(
            "Due webhook deliveries attempted",
            &std::collections::BTreeMap::from([("attempted", attempted)]),
        ),
        Err(e) => fail(&format!("dispatch failed: {e}")),
    }
}

/// `POST /vault/rotate`: one step (the core's `domain::rotation`, its resume point stored with it);
/// after the last, the other keys are forgotten once nothing is left under them. 200
/// `{scanned, resealed, done, leftUnderOtherKeys}` (the last only when done).
fn rotate(service: &Service, env: &WasiEnv, database_url: &str) -> Response {
    let Some(vault) = service.config().vault() else {
        return errors::to_response(&ApiError::NotConfigured {
            code: card_core::domain::vault::NOT_CONFIGURED,
            message: "no vault key is configured (the variable vault_key): nothing to rotate"
                .into(),
        });
    };
    let step = in_write(database_url, |tx| {
        rotation::step(tx, env, &vault, ROTATE_BATCH).map_err(|e| e.message())
    });
    let step = match step {
        Ok(step) => step,
        Err(e) => return fail(&format!("vault rotation failed: {e}")),
    };
    let left = if step.done {
        let finish = in_write(database_url, |tx| {
            let left = rotation::left_under_other_keys(tx, &vault).map_err(|e| e.message())?;
            if left == 0 {
                vault.retire_others(tx).map_err(|e| e.message())?;
            }
            Ok(left)
        });
        match finish {
            Ok(left) => Some(left),
            Err(e) => return fail(&format!("vault rotation failed: {e}")),
        }
    } else {
        None
    };
    reply::ok(
        if step.done {
            "Vault rotation done"
        } else {
            "Vault rotation step done: call again"
        },
        &serde_json::json!({
            "scanned": step.scanned,
            "resealed": step.resealed,
            "done": step.done,
            "leftUnderOtherKeys": left,
        }),
    )
}

/// Takes up to `limit` due deliveries (leased, in a short write), sends them all at once through
/// wasi:http with no transaction open, and records the outcomes in a second short write. How many
/// were attempted.
fn send_due(
    service: &Service,
    env: &WasiEnv,
    database_url: &str,
    limit: usize,
) -> Result<usize, String> {
    let now = env.now().millis();
    let take = |tx: &mut dyn Tx| match Service::next_delivery_due(tx)? {
        Some(due) if due <= now => service.take_due_deliveries(tx, env, limit),
        _ => Ok(Vec::new()),
    };
    let due = in_write(database_url, take)?;
    if due.is_empty() {
        return Ok(0);
    }
    let outcomes = crate::spin_out::deliver_all(&due);
    in_write(database_url, |tx| {
        service.record_attempts(tx, env, &outcomes)
    })?;
    Ok(outcomes.len())
}

/// Runs `f` in a write transaction of its own on the configured store.
fn in_write<T>(
    database_url: &str,
    f: impl FnOnce(&mut dyn Tx) -> Result<T, String>,
) -> Result<T, String> {
    if database_url.is_empty() {
        return sqlite_write(f);
    }
    postgres_write(database_url, f)
}

fn sqlite_write<T>(f: impl FnOnce(&mut dyn Tx) -> Result<T, String>) -> Result<T, String> {
    let conn = Connection::open(DATABASE).map_err(|e| e.to_string())?;
    let mut tx = SqliteTx::new(&conn);
    let _ = tx.exec(sql::BUSY_TIMEOUT, &[]);
    sql::retry_busy(sql::BUSY_ATTEMPTS, || tx.exec(sql::BEGIN_WRITE, &[]))?;
    let out = f(&mut tx);
    let out = sql::settle(out, tx.failed.take(), || rollback(&tx))?;
    if let Err(e) = sql::retry_busy(sql::BUSY_ATTEMPTS, || tx.exec(sql::COMMIT, &[])) {
        rollback(&tx);
        return Err(e);
    }
    Ok(out)
}

#[cfg(feature = "postgres")]
fn postgres_write<T>(
    url: &str,
    f: impl FnOnce(&mut dyn Tx) -> Result<T, String>,
) -> Result<T, String> {
    let timeout_ms = settings::parse_store_timeout(&variable("store_timeout")?)?;
    crate::spin_pg::in_write(url, timeout_ms, f)
}

#[cfg(not(feature = "postgres"))]
fn postgres_write<T>(
    _: &str,
    _: impl FnOnce(&mut dyn Tx) -> Result<T, String>,
) -> Result<T, String> {
    Err("this component was built without PostgreSQL".into())
}

/// A write that asks first, prechecked and validated on a read transaction (`Asking`), and
/// what it should send.
pub(crate) type Asking = Result<(Validated, Option<CallOut>), Response>;

/// [`Asking`] on a read transaction of the `default` SQLite database (rolled back before the call).
/// None on a storage failure: the write then runs every stage itself, and answers it.
fn ask_sqlite(req: &Request, service: &Service, env: &WasiEnv) -> Option<Asking> {
    let conn = Connection::open(DATABASE).ok()?;
    let mut tx = SqliteTx::new(&conn);
    sql::retry_busy(sql::BUSY_ATTEMPTS, || tx.exec(sql::BEGIN_READ, &[])).ok()?;
    let asking = asking(req, service, &mut tx, env);
    rollback(&tx);
    asking.filter(|_| tx.failed.is_none())
}

/// Precheck, validate and ask on one read transaction `tx`.
pub(crate) fn asking(
    req: &Request,
    service: &Service,
    tx: &mut dyn Tx,
    env: &WasiEnv,
) -> Option<Asking> {
    let staged = service
        .precheck(req, tx)
        .and_then(|pre| service.validate(pre, req.clone(), tx, env));
    Some(staged.map(|validated| {
        let call = service.ask(&validated, tx, env);
        (validated, call)
    }))
}

#[cfg(feature = "postgres")]
fn ask_postgres(req: &Request, service: &Service, env: &WasiEnv, url: &str) -> Option<Asking> {
    crate::spin_pg::ask(req, service, env, url)
}

#[cfg(not(feature = "postgres"))]
fn ask_postgres(_: &Request, _: &Service, _: &WasiEnv, _: &str) -> Option<Asking> {
    None
}

#[cfg(feature = "postgres")]
fn serve_postgres(
    req: &Request,
    staged: Option<&Validated>,
    access: Access,
    service: &Service,
    env: &WasiEnv,
    url: &str,
) -> Response {
    let timeout_ms = match variable("store_timeout").and_then(|v| settings::parse_store_timeout(&v))
    {
        Ok(ms) => ms,
        Err(e) => return fail(&format!("bad configuration: {e}")),
    };
    crate::spin_pg::serve(req, staged, access, service, env, url, timeout_ms)
}

/// Without the feature the component does not import `spin:postgres` at all (a Spin without it
/// could not start the component), so a configured database URL is a configuration error.
#[cfg(not(feature = "postgres"))]
fn serve_postgres(
    _req: &Request,
    _staged: Option<&Validated>,
    _access: Access,
    _service: &Service,
    _env: &WasiEnv,
    _url: &str,
) -> Response {
    fail(
        "the database_url variable is set, but this component was built without PostgreSQL: \
         build it with `cargo build -p host-wasm --target wasm32-wasip2 --release --features postgres`",
    )
}

/// [`serve`] on the Spin SQLite database `default`.
fn serve_sqlite(
    req: &Request,
    staged: Option<&Validated>,
    access: Access,
    service: &Service,
    env: &WasiEnv,
) -> Response {
    let conn = match Connection::open(DATABASE) {
        Ok(conn) => conn,
        Err(e) => return fail(&format!("cannot open the {DATABASE:?} database: {e}")),
    };
    let mut tx = SqliteTx::new(&conn);
    // Wait for another instance's write lock instead of failing at once; a backend that refuses the
    // pragma (libSQL) still works, with the retries below.
    if let Err(e) = tx.exec(sql::BUSY_TIMEOUT, &[]) {
        eprintln!("host-wasm: cannot set the busy timeout: {e}");
    }
    if let Err(e) = sql::retry_busy(sql::BUSY_ATTEMPTS, || tx.exec(sql::CREATE, &[])) {
        return fail(&format!("cannot create the kv table: {e}"));
    }
    let begin = match access {
        Access::Write => sql::BEGIN_WRITE,
        Access::Read => sql::BEGIN_READ,
    };
    if let Err(e) = sql::retry_busy(sql::BUSY_ATTEMPTS, || tx.exec(begin, &[])) {
        return fail(&format!("cannot begin a transaction: {e}"));
    }
    // Every request is a fresh instance, so the data format is checked (and an empty store stamped)
    // per request: one point read.
    if let Err(e) = Service::open_store(&mut tx) {
        rollback(&tx);
        return fail(&e.to_string());
    }

    // The core keeps a failed request's writes out of `tx` itself (except records the README's
    // idempotency rules keep), so whatever reached `tx` is committed, unless storage or randomness
    // failed underneath it.
    let resp = run(req, staged, service, &mut tx, env);
    if let Some(e) = tx.failed.take() {
        rollback(&tx);
        return fail(&format!("storage failed during the request: {e}"));
    }
    if env.random_failed.get() {
        rollback(&tx);
        return fail("the WASI random source failed");
    }
    if let Err(e) = sql::retry_busy(sql::BUSY_ATTEMPTS, || tx.exec(sql::COMMIT, &[])) {
        rollback(&tx);
        return fail(&format!("commit failed: {e}"));
    }
    resp
}

/// The core on the request's transaction: the request validated on the read it asked on, or every
/// stage here (`Service::serve`: the key authenticated once, the body parsed once, in the write).
pub(crate) fn run(
    req: &Request,
    staged: Option<&Validated>,
    service: &Service,
    tx: &mut dyn Tx,
    env: &WasiEnv,
) -> Response {
    match staged {
        Some(validated) => service.handle(validated, tx, env),
        None => service.serve(req, tx, env),
    }
}

/// Answers 500; [`handle`] logs the cause with the request id.
pub(crate) fn fail(cause: &str) -> Response {
    Service::internal_error(cause)
}

fn rollback(tx: &SqliteTx<'_>) {
    if let Err(e) = tx.exec(sql::ROLLBACK, &[]) {
        // The connection closes with the instance, which rolls back anyway.
        eprintln!("host-wasm: rollback failed: {e}");
    }
}

/// A Spin variable, with a missing or empty one read as "".
fn variable(name: &str) -> Result<String, String> {
    match spin_sdk::variables::get(name) {
        Ok(value) => Ok(value),
        Err(spin_sdk::variables::Error::Undefined(_)) => Ok(String::new()),
        Err(e) => Err(format!("variable {name}: {e}")),
    }
}

fn config_from_variables() -> Result<Config, String> {
    let mut config = Config {
        api_keys: ConfiguredKeys::parse_list(&variable("api_keys")?)
            .map_err(|e| format!("api_keys: {e}"))?,
        vault_key: None,
        // Every request is a fresh instance: keep the id counter in the database so ids sort by creation.
        stored_ids: true,
        ..Config::default()
    };
    // `vault_keys` (several, the first sealing) replaces `vault_key` when set: see README
    // "Card data security" for a rotation.
    let mut keys = settings::parse_vault_keys(&variable("vault_keys")?)?.into_iter();
    if let Some(active) = keys.next() {
        config.vault_key = Some(active);
        config.vault_older_keys = keys.collect();
    } else {
        config.vault_key = settings::parse_vault_key(&variable("vault_key")?)?;
    }
    if let Some(ttl) = settings::parse_token_ttl(&variable("token_ttl")?)? {
        config.token_ttl_secs = ttl;
    }
    if let Some(ttl) = settings::parse_ttl("authorization_ttl", &variable("authorization_ttl")?)? {
        config.authorization_ttl_secs = ttl;
    }
    if let Some(schedule) = settings::parse_retry_schedule(&variable("webhook_retry_schedule")?)? {
        config.webhook_retry_schedule = schedule;
    }
    config.test_clock = settings::parse_switch("test_clock", &variable("test_clock")?)?;
    // Off unless set: clients' endpoints (a decision endpoint) may then be in private ranges.
    config.url_policy.allow_private = match variable("allow_private_urls")?.trim() {
        "" => false,
        value => settings::parse_switch("allow_private_urls", value)?,
    };
    let quota = variable("file_quota")?;
    if !quota.trim().is_empty() {
        config.file_quota_bytes = quota
            .trim()
            .parse()
            .map_err(|_| "file_quota must be a number of bytes".to_string())?;
    }
    Ok(config)
}

/// Clock and randomness from WASI (`wasi:clocks/wall-clock`, `wasi:random/random`), through the
/// same `wasi` 0.2.0 bindings spin-sdk uses. (getrandom 0.3 would pull `wasip2`, which raises every
/// WASI import of the component to 0.2.12 and narrows the Spin versions that can run it.)
#[derive(Default)]
pub(crate) struct WasiEnv {
    /// The port cannot return an error, so a failure is remembered and the request answered 500.
    pub(crate) random_failed: Cell<bool>,
}

impl Env for WasiEnv {
    fn now(&self) -> Timestamp {
        let now = wasi::clocks::wall_clock::now();
        let millis = i64::try_from(now.seconds)
            .unwrap_or(i64::MAX)
            .saturating_mul(1000)
            .saturating_add(i64::from(now.nanoseconds / 1_000_000));
        Timestamp(millis)
    }

    fn fill_random(&self, buf: &mut [u8]) {
        let bytes = wasi::random::random::get_random_bytes(buf.len() as u64);
        if bytes.len() == buf.len() {
            buf.copy_from_slice(&bytes);
        } else {
            self.random_failed.set(true);
        }
    }
}

/// The core's storage port over one Spin SQLite connection, inside the request's transaction.
struct SqliteTx<'a> {
    conn: &'a Connection,
    /// The first storage error; the core may turn it into a response, but the host must not commit.
    failed: Option<String>,
}

impl<'a> SqliteTx<'a> {
    fn new(conn: &'a Connection) -> SqliteTx<'a> {
        SqliteTx { conn, failed: None }
    }

    fn exec(&self, statement: &str, params: &[Value]) -> Result<Vec<Vec<Value>>, String> {
        self.conn
            .execute(statement, params)
            .map(|result| result.rows.into_iter().map(|row| row.values).collect())
            .map_err(|e| e.to_string())
    }

    /// Runs a statement for the core, remembering a failure so the request is rolled back.
    fn run(&mut self, statement: &str, params: &[Value]) -> Result<Vec<Vec<Value>>, StoreError> {
        self.exec(statement, params).map_err(|e| {
            self.failed.get_or_insert_with(|| e.clone());
            StoreError(e)
        })
    }
}

fn blob(value: Value) -> Result<Vec<u8>, StoreError> {
    match value {
        Value::Blob(bytes) => Ok(bytes),
        _ => Err(StoreError("kv holds a value that is not a BLOB".into())),
    }
}

impl Tx for SqliteTx<'_> {
    fn get(&mut self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        let rows = self.run(sql::GET, &[Value::Blob(key.to_vec())])?;
        match rows
            .into_iter()
            .next()
            .and_then(|row| row.into_iter().next())
        {
            Some(value) => blob(value).map(Some),
            None => Ok(None),
        }
    }

    fn put(&mut self, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        self.run(
            sql::PUT,
            &[Value::Blob(key.to_vec()), Value::Blob(value.to_vec())],
        )?;
        Ok(())
    }

    fn delete(&mut self, key: &[u8]) -> Result<(), StoreError> {
        self.run(sql::DELETE, &[Value::Blob(key.to_vec())])?;
        Ok(())
    }

    fn scan(
        &mut self,
        start: &[u8],
        end: &[u8],
        dir: Direction,
        limit: usize,
    ) -> Result<Vec<KvPair>, StoreError> {
        if start >= end || limit == 0 {
            return Ok(Vec::new());
        }
        let statement = match dir {
            Direction::Forward => sql::SCAN_FORWARD,
            Direction::Reverse => sql::SCAN_REVERSE,
        };
        let params = [
            Value::Blob(start.to_vec()),
            Value::Blob(end.to_vec()),
            Value::Integer(sql::limit(limit)),
        ];
        self.run(statement, &params)?
            .into_iter()
            .map(|row| {
                let mut values = row.into_iter();
                match (values.next(), values.next()) {
                    (Some(k), Some(v)) => Ok((blob(k)?, blob(v)?)),
                    _ => Err(StoreError("kv scan returned a short row".into())),
                }
            })
            .collect()
    }
}
