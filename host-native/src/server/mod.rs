//! The HTTP face: hyper 1 (http1, keep-alive) on tokio. Turns hyper requests into the core's plain
//! requests, sends reads to a read transaction and writes to the group-commit writer, and shuts down
//! gracefully.
//!
//! A request is judged on its head first: route, method, credentials and the client's rate budget are
//! checked before any of its body is read, so an unknown route, a wrong method, OPTIONS or a missing
//! key is answered at once, without the writer. Only then is the body read, within the read and
//! request timeouts and against a byte budget shared by every body being read or queued for the
//! writer, so slow or large uploads cannot exhaust memory.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use card_core::callout::{Asked, CallOut, Reply};
use card_core::domain::push::url_policy::{self, UrlPolicy};
use card_core::http::body::BodyReader;
use card_core::http::{cors, request_id, routes};
use card_core::service::{Prechecked, Validated};
use card_core::{Access, Method, Request, Response, Service};
use http_body_util::{BodyExt, Full};
use hyper::StatusCode;
use hyper::body::{Body, Incoming};
use hyper::header::{CONTENT_LENGTH, CONTENT_TYPE, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tracing::{debug, error, info, warn};

pub mod rate_limit;
pub mod static_files;

use self::rate_limit::RateLimiter;
use self::static_files::StaticFiles;
use crate::cli::Limits;
use crate::outbound::{AttemptError, Outbound};
use crate::store::Store;
use crate::system_env::SystemEnv;
use crate::writer::{Job, WriterHandle};

/// How long shutdown waits for in-flight connections before giving up on them.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// The body budget counts whole KiB, so that any byte size fits a semaphore's permit count.
const BUDGET_UNIT: usize = 1024;

pub struct AppState {
    pub service: Arc<Service>,
    pub store: Store,
    pub env: Arc<SystemEnv>,
    pub writer: WriterHandle,
    /// The web console's files (`--console DIR`), if enabled.
    pub console: Option<StaticFiles>,
    pub limits: Limits,
    pub rate: Arc<RateLimiter>,
    /// KiB of request bodies being read or queued, at most `--max-queued-bytes`.
    pub body_budget: Arc<Semaphore>,
    /// Origins allowed to call the API from a browser (`--cors-origin`); empty: CORS off.
    pub cors: cors::Origins,
    /// Whether a metrics recorder is installed (`--metrics-listen`): without one, no labels are built.
    pub metrics: bool,
    /// Wakes the webhook delivery task after a write (`crate::delivery`).
    pub deliveries: Arc<tokio::sync::Notify>,
    /// Calls out to clients' endpoints (a purchase's decision endpoint).
    pub outbound: Outbound,
}

impl AppState {
    pub fn body_budget(limits: &Limits) -> Arc<Semaphore> {
        Arc::new(Semaphore::new(budget_units(limits.max_queued_bytes)))
    }
}

/// Bytes of the body budget in use now (whole KiB), of `total` configured.
pub fn budget_held(budget: &Semaphore, total: usize) -> usize {
    budget_units(total).saturating_sub(budget.available_permits()) * BUDGET_UNIT
}

fn budget_units(bytes: usize) -> usize {
    bytes.div_ceil(BUDGET_UNIT).clamp(1, Semaphore::MAX_PERMITS)
}

/// Connections the kernel completes and holds for the accept loop. tokio's `TcpListener::bind` asks
/// for 128, so a burst of more new clients than that (a pool opening, a load generator starting)
/// had its SYNs dropped and each of those clients waited out TCP's one-second retransmit. The
/// kernel caps this at `net.core.somaxconn` (4096 by default since Linux 5.4).
const BACKLOG: u32 = 4096;

/// A listener on `addr` with a backlog of [`BACKLOG`]; in a tokio runtime.
pub fn listen(addr: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    // As tokio's `bind`: a restarted server may listen while old connections linger in TIME_WAIT.
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(BACKLOG)
}

/// Accepts connections until `shutdown` resolves, then stops accepting and waits (at most
/// [`SHUTDOWN_GRACE`]) for the connections still open to finish their requests.
pub async fn run(listener: TcpListener, state: Arc<AppState>, shutdown: impl Future<Output = ()>) {
    let graceful = GracefulShutdown::new();
    let mut http = http1::Builder::new();
    // The timer enables hyper's header read timeout, so idle half-open clients cannot pin connections.
    http.keep_alive(true)
        .timer(TokioTimer::new())
        .header_read_timeout(state.limits.read_timeout);
    // At the cap the loop stops accepting; further clients wait in the kernel's listen backlog.
    let connections = Arc::new(Semaphore::new(state.limits.max_connections as usize));
    tokio::pin!(shutdown);
    loop {
        let slot = tokio::select! {
            slot = connections.clone().acquire_owned() => slot,
            () = &mut shutdown => break,
        };
        let Ok(slot) = slot else { break };
        tokio::select! {
            accepted = listener.accept() => {
                let (stream, peer) = match accepted {
                    Ok(conn) => conn,
                    Err(e) => {
                        // Typically out of file descriptors: back off instead of spinning.
                        warn!(error = %e, "accept failed");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                };
                let _ = stream.set_nodelay(true);
                let state = state.clone();
                let svc = service_fn(move |req| {
                    let state = state.clone();
                    async move { Ok::<_, Infallible>(handle(&state, req, peer).await) }
                });
                let conn = graceful.watch(http.serve_connection(TokioIo::new(stream), svc));
                tokio::spawn(async move {
                    if let Err(e) = conn.await {
                        debug!(error = %e, "connection ended with an error");
                    }
                    drop(slot);
                });
            }
            () = &mut shutdown => break,
        }
    }
    drop(listener);
    info!(
        connections = graceful.count(),
        "shutting down: no longer accepting"
    );
    if tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown())
        .await
        .is_err()
    {
        warn!("connections still open after the grace period; closing anyway");
    }
}

/// Resolves on SIGINT (ctrl-c) or SIGTERM.
pub async fn shutdown_signal() {
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(e) => {
                error!(error = %e, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => info!("SIGINT received"),
        () = term => info!("SIGTERM received"),
    }
}

async fn handle(
    state: &AppState,
    req: hyper::Request<Incoming>,
    peer: SocketAddr,
) -> hyper::Response<Full<Bytes>> {
    let started = Instant::now();
    let method = Method::parse(req.method().as_str());
    let id = req
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .filter(|v| request_id::is_safe(v))
        .map_or_else(|| request_id::generate(&*state.env), str::to_owned);
    // Logs and metrics name the route template, never the path: it holds ids, and its query can
    // carry a reveal token.
    let mut seen = Seen {
        route: routes::template(req.uri().path()),
        client: None,
    };
    // Only what CORS reads of the head, and only when it is on.
    let cors_head: Vec<(String, String)> = if state.cors.is_empty() {
        Vec::new()
    } else {
        ["origin", "access-control-request-method"]
            .into_iter()
            .filter_map(|name| {
                let value = req.headers().get(name)?.to_str().ok()?;
                Some((name.to_owned(), value.to_owned()))
            })
            .collect()
    };
    let preflight = (!cors_head.is_empty())
        .then(|| {
            let mut head = Request::new(method, "/");
            head.headers = cors_head.clone().into();
            cors::preflight(&state.cors, &head)
        })
        .flatten();
    let response = match preflight {
        Some(answer) => answer,
        None => respond(state, req, &mut seen, &id, peer).await,
    };
    let response = cors::apply(&state.cors, &cors_head, response);
    if let Some(cause) = &response.cause {
        error!(request_id = %id, method = %method, route = seen.route, cause = %cause, "request failed");
    }
    let elapsed = started.elapsed();
    info!(
        request_id = %id,
        method = %method,
        route = seen.route,
        status = response.status,
        latency_ms = %format_args!("{:.3}", elapsed.as_secs_f64() * 1000.0),
        client = seen.client.as_deref().unwrap_or("-"),
        "request"
    );
    if state.metrics {
        crate::metrics::request(seen.route, method, response.status, elapsed);
    }
    to_hyper(request_id::stamp(response, &id))
}

/// What the log line and the metrics learn of a request while it is served.
struct Seen {
    route: &'static str,
    /// The authenticated client (its name, never its key).
    client: Option<String>,
}

async fn respond(
    state: &AppState,
    req: hyper::Request<Incoming>,
    seen: &mut Seen,
    id: &str,
    peer: SocketAddr,
) -> Response {
    if let Some((file, mime)) = state
        .console
        .as_ref()
        .and_then(|c| c.resolve(req.method().as_str(), req.uri().path()))
    {
        let head = req.method() == hyper::Method::HEAD;
        seen.route = "console";
        return tokio::task::spawn_blocking(move || StaticFiles::load(&file, mime, head))
            .await
            .unwrap_or_else(|_| Service::internal_error("the static file task failed"));
    }
    let deadline = tokio::time::Instant::now() + state.limits.request_timeout;
    let (mut parts, body) = req.into_parts();
    let announced = parts
        .headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let mut head = core_head(&mut parts);
    // What the audit trail records of the request: its id and where it came from.
    request_id::attach(&mut head, id);
    head.peer = Some(peer.ip());
    let body_pending = !body.is_end_stream();
    let (stage, client) = head_stage(state, head, body_pending).await;
    seen.client = client;
    let (pre, head) = match stage {
        Stage::Done(response) if body_pending => {
            // The body stays unread: the connection cannot be reused.
            return settle(state, response).with_header("connection", "close");
        }
        Stage::Done(response) => return settle(state, response),
        Stage::Scan(pre, head) => return settle(state, read(state, pre, head).await),
        Stage::Body(pre, head) => (pre, head),
    };
    let (req, budget) = match read_body(state, head, body, announced, deadline).await {
        Ok(read) => read,
        Err(response) => return response,
    };
    match pre.access {
        Access::Read => {
            let response = read(state, pre, req).await;
            drop(budget);
            settle(state, response)
        }
        Access::Write => {
            // Parse and validate here, concurrently, so the single writer never spends time on a
            // body it will refuse, and runs the command parsed here.
            let mut validated = match validate(state, pre, req).await {
                Ok(validated) => validated,
                Err(response) => return settle(state, response),
            };
            // A write that asks an outside endpoint first: asked and answered here, before the
            // writer sees it, so the writer never waits on the endpoint.
            if validated.asks() {
                let asked = ask_first(state, &validated).await;
                validated.set_asked(asked);
            }
            let response = state.writer.submit(Job::request(validated, budget)).await;
            // A committed write may have queued webhook deliveries: the delivery task looks.
            if response.status < 300 {
                state.deliveries.notify_one();
            }
            response
        }
    }
}

/// An answer from a read snapshot goes out at once (the snapshot holds only durable writes), or
/// 503 once the store failed.
fn settle(state: &AppState, response: Response) -> Response {
    state.writer.settled().unwrap_or(response)
}

/// What the head alone decided.
enum Stage {
    /// Answered: an error, a 429, `/health`, or a read with no body.
    Done(Response),
    /// An authorized read with no body that scans (a list): run on the blocking pool.
    Scan(Box<Prechecked>, Request),
    /// Authorized: read the body, then run it.
    Body(Box<Prechecked>, Request),
}

fn is_health(req: &Request) -> bool {
    req.path == "/health" && matches!(req.method, Method::Get | Method::Head)
}

/// Route, method, credentials and rate budget from the head, on one read transaction; a read of a
/// few records with no body is also run on it. On redb this runs where the connection runs: a few
/// B-tree lookups in a file the page cache holds cost less than a hand-off to another thread. On
/// PostgreSQL (a network round trip) and for lists (a scan) it goes to the blocking pool.
async fn head_stage(
    state: &AppState,
    head: Request,
    body_pending: bool,
) -> (Stage, Option<String>) {
    if is_health(&head) && !state.writer.health().is_ok() {
        return (
            Stage::Done(Service::unavailable("The writer cannot serve")),
            None,
        );
    }
    let (service, store, env) = (
        state.service.clone(),
        state.store.clone(),
        state.env.clone(),
    );
    let rate = state.rate.clone();
    let inline = matches!(state.store, Store::Redb(_));
    let metrics = state.metrics;
    let run = move || -> (Stage, Option<String>) {
        let health = is_health(&head);
        let mut client = None;
        let stage = store.read(|tx| {
            let pre = match service.precheck(&head, tx) {
                Ok(pre) => pre,
                Err(response) => return Stage::Done(response),
            };
            client.clone_from(&pre.client);
            if let Some(client) = &pre.client
                && let Err(limited) = rate.check(client, pre.access, Instant::now())
            {
                if metrics {
                    crate::metrics::rate_limited(pre.access);
                }
                return Stage::Done(limited.response());
            }
            if pre.access == Access::Read && !body_pending {
                if inline && !pre.prepared.reads_few() {
                    return Stage::Scan(Box::new(pre), head);
                }
                // Every stage on this one snapshot: the key precheck read serves the handler.
                return Stage::Done(match service.validate(pre, head, tx, &*env) {
                    Ok(validated) => service.handle(&validated, tx, &*env),
                    Err(response) => response,
                });
            }
            Stage::Body(Box::new(pre), head)
        });
        let stage = match stage {
            Ok(stage) => stage,
            Err(e) if health => {
                error!(error = %e, "health: cannot begin a read transaction");
                Stage::Done(Service::unavailable("Storage cannot serve"))
            }
            Err(e) => Stage::Done(Service::internal_error(&format!(
                "cannot begin read transaction: {e}"
            ))),
        };
        (stage, client)
    };
    on_store(inline, run).await.unwrap_or_else(|| {
        (
            Stage::Done(Service::internal_error("request panicked")),
            None,
        )
    })
}

/// Runs `work` on a store transaction: where the connection runs when `inline` (redb: a few B-tree
/// lookups cost less than a thread hand-off), else on the blocking pool. None if it panicked.
async fn on_store<T: Send + 'static>(
    inline: bool,
    work: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    let guarded = move || catch_unwind(AssertUnwindSafe(work)).ok();
    if inline {
        guarded()
    } else {
        tokio::task::spawn_blocking(guarded).await.ok().flatten()
    }
}

/// Reads the body within the read timeout (between chunks) and the request deadline, holding its
/// size in the shared body budget (waiting for room if need be). The budget travels with the request
/// to the writer and is released once it is answered.
async fn read_body(
    state: &AppState,
    mut req: Request,
    mut body: Incoming,
    announced: Option<u64>,
    deadline: tokio::time::Instant,
) -> Result<(Request, Option<OwnedSemaphorePermit>), Response> {
    let mut reader = BodyReader::new(Service::MAX_BODY_BYTES, announced)?;
    let total = budget_units(state.limits.max_queued_bytes);
    let units_for = |bytes: u64| {
        let kept = bytes.min(Service::MAX_BODY_BYTES as u64) as usize;
        budget_units(kept.max(1)).min(total)
    };
    let mut held: Option<OwnedSemaphorePermit> = None;
    let mut received: u64 = 0;
    let budget = &state.body_budget;
    if let Some(n) = announced {
        grow(budget, &mut held, units_for(n), deadline).await?;
    }
    loop {
        let idle = tokio::time::Instant::now() + state.limits.read_timeout;
        let frame = match tokio::time::timeout_at(idle.min(deadline), body.frame()).await {
            Ok(Some(frame)) => frame,
            Ok(None) => break,
            Err(_) => return Err(Service::request_timeout()),
        };
        let frame = frame.map_err(|e| {
            debug!(error = %e, "cannot read request body");
            Service::unreadable_body()
        })?;
        if let Ok(data) = frame.into_data() {
            received += data.len() as u64;
            grow(budget, &mut held, units_for(received), deadline).await?;
            reader.push(&data)?;
        }
    }
    req.body = reader.finish()?;
    Ok((req, held))
}

/// Grows `held` to `want` units of the body budget, waiting for room until `deadline`.
async fn grow(
    budget: &Arc<Semaphore>,
    held: &mut Option<OwnedSemaphorePermit>,
    want: usize,
    deadline: tokio::time::Instant,
) -> Result<(), Response> {
    let have = held.as_ref().map_or(0, OwnedSemaphorePermit::num_permits);
    if want <= have {
        return Ok(());
    }
    let more = u32::try_from(want - have).unwrap_or(u32::MAX);
    match tokio::time::timeout_at(deadline, budget.clone().acquire_many_owned(more)).await {
        Ok(Ok(permit)) => {
            match held {
                Some(h) => h.merge(permit),
                None => *held = Some(permit),
            }
            Ok(())
        }
        Ok(Err(_)) => Err(Service::unavailable("The server is shutting down")),
        Err(_) => Err(Service::request_timeout()),
    }
}

/// A write's body parsed and judged on a read transaction (`Service::validate`): the validated
/// request the writer runs, or the answer.
async fn validate(
    state: &AppState,
    pre: Box<Prechecked>,
    req: Request,
) -> Result<Validated, Response> {
    let (service, store, env) = (
        state.service.clone(),
        state.store.clone(),
        state.env.clone(),
    );
    // A small body on redb is checked where the connection runs, like a read of a few records.
    // Large bodies (uploads) and PostgreSQL go to the blocking pool.
    let inline = matches!(state.store, Store::Redb(_)) && req.body.len() <= INLINE_BODY;
    on_store(inline, move || {
        store
            .read(|tx| service.validate(*pre, req, tx, &*env))
            .unwrap_or_else(|e| Err(Service::internal_error(&format!("read transaction: {e}"))))
    })
    .await
    .unwrap_or_else(|| Err(Service::internal_error("validation panicked")))
}

/// The call-out of a write that asks first (`card_core::callout`): judged on a read snapshot, then
/// performed with no transaction open; None when there is nothing to ask.
async fn ask_first(state: &AppState, validated: &Validated) -> Option<Asked> {
    let (service, store, env) = (
        state.service.clone(),
        state.store.clone(),
        state.env.clone(),
    );
    let inline =
        matches!(state.store, Store::Redb(_)) && validated.request().body.len() <= INLINE_BODY;
    let probe = validated.clone();
    let call = on_store(inline, move || {
        store
            .read(|tx| service.ask(&probe, tx, &*env))
            .ok()
            .flatten()
    })
    .await
    .flatten()?;
    let policy = state.service.config().url_policy;
    Some(call_out(&state.outbound, policy, call).await)
}

/// Performs a call-out: the URL checked against the policy again (and every address it resolves
/// to, in `Outbound`), within its timeout.
pub async fn call_out(outbound: &Outbound, policy: UrlPolicy, call: CallOut) -> Asked {
    let target = match url_policy::check_url(policy, &call.url) {
        Ok(target) => target,
        Err(refusal) => return call.failed(refusal.to_string()),
    };
    let headers: Vec<(&str, &str)> = call
        .headers
        .iter()
        .filter(|(name, _)| !name.eq_ignore_ascii_case("content-type"))
        .map(|(name, value)| (name.as_str(), value.as_str()))
        .collect();
    let timeout = Duration::from_millis(call.timeout_ms);
    let attempt = outbound
        .post(&target, &headers, Bytes::from(call.body.clone()), timeout)
        .await;
    let reply = match (attempt.status, attempt.error) {
        (_, Some(AttemptError::Timeout)) => Reply::Timeout,
        (_, Some(error)) => Reply::Error(error.whole()),
        (Some(status), None) => Reply::Answer {
            status,
            body: attempt.body.to_vec(),
        },
        (None, None) => Reply::Error("no answer".into()),
    };
    Asked {
        context: call.context,
        latency_ms: u64::try_from(attempt.duration.as_millis()).unwrap_or(u64::MAX),
        reply,
    }
}

/// The largest body [`validate`] checks on the connection's own task.
const INLINE_BODY: usize = 16 * 1024;

/// Reads run on a fresh read transaction (a snapshot) on the blocking pool: the store may touch disk
/// or the network.
async fn read(state: &AppState, pre: Box<Prechecked>, req: Request) -> Response {
    let (service, store, env) = (
        state.service.clone(),
        state.store.clone(),
        state.env.clone(),
    );
    on_store(false, move || {
        store
            .read(|tx| match service.validate(*pre, req, tx, &*env) {
                Ok(validated) => service.handle(&validated, tx, &*env),
                Err(response) => response,
            })
            .unwrap_or_else(|e| Service::internal_error(&format!("read transaction: {e}")))
    })
    .await
    .unwrap_or_else(|| Service::internal_error("read request panicked"))
}

/// The core's request from the hyper head, with an empty body. Its headers are hyper's map, moved
/// in and read in place (`HostHeaders`), not copied; a head with a value that is not UTF-8 is copied
/// as before, each such value made text lossily, so the core sees the same values either way.
fn core_head(parts: &mut hyper::http::request::Parts) -> Request {
    let map = std::mem::take(&mut parts.headers);
    let headers = if map
        .values()
        .all(|v| std::str::from_utf8(v.as_bytes()).is_ok())
    {
        card_core::http::Headers::from_host(Arc::new(HostHeaders(map)))
    } else {
        map.iter()
            .map(|(name, value)| {
                (
                    name.as_str().to_owned(),
                    String::from_utf8_lossy(value.as_bytes()).into_owned(),
                )
            })
            .collect::<Vec<_>>()
            .into()
    };
    let mut req = Request::new(Method::parse(parts.method.as_str()), "");
    req.path = parts.uri.path().to_owned();
    req.query = parts.uri.query().unwrap_or("").to_owned();
    req.headers = headers;
    req
}

/// hyper's header map as the core reads it ([`card_core::http::HeaderSource`]). hyper's names are
/// lower case, and so are the names the core asks for.
struct HostHeaders(hyper::HeaderMap);

impl card_core::http::HeaderSource for HostHeaders {
    fn get(&self, name: &str) -> Option<&str> {
        std::str::from_utf8(self.0.get(name)?.as_bytes()).ok()
    }
}

fn to_hyper(response: Response) -> hyper::Response<Full<Bytes>> {
    let mut builder = hyper::Response::builder().status(response.status);
    for (name, value) in &response.headers {
        builder = builder.header(name.as_str(), value.as_str());
    }
    builder
        .body(Full::new(Bytes::from(response.body)))
        .unwrap_or_else(|e| {
            error!(error = %e, "the core produced an invalid response head");
            internal_error()
        })
}

/// Built without any fallible step, for when building the real response failed.
fn internal_error() -> hyper::Response<Full<Bytes>> {
    let core = Service::internal_error("invalid response head");
    let mut response = hyper::Response::new(Full::new(Bytes::from(core.body)));
    *response.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    /// More clients than tokio's default backlog connect at once while nothing accepts: every
    /// connect completes at once (with a backlog of 128, those past it time out here: checked).
    #[tokio::test]
    async fn a_burst_of_connects_fits_the_backlog() {
        let listener = listen("127.0.0.1:0".parse().unwrap()).unwrap();
        let addr = listener.local_addr().unwrap();
        // As many as the kernel allows (`net.core.somaxconn`, which caps any backlog), up to 512.
        let n = std::fs::read_to_string("/proc/sys/net/core/somaxconn")
            .ok()
            .and_then(|s| s.trim().parse::<usize>().ok())
            .map_or(512, |max| max.min(512));
        let clients = tokio::task::spawn_blocking(move || {
            (0..n)
                .map(|_| std::net::TcpStream::connect_timeout(&addr, Duration::from_millis(500)))
                .collect::<Result<Vec<_>, _>>()
        })
        .await
        .unwrap();
        assert_eq!(clients.map(|c| c.len()).unwrap(), n);
        drop(listener);
    }
}
