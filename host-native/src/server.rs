//! The HTTP face: hyper 1 (http1, keep-alive) on tokio. Turns hyper requests into the core's plain
//! requests, sends reads to a read transaction and writes to the group-commit writer, and shuts down
//! gracefully.

use std::convert::Infallible;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use card_core::http::body::BodyReader;
use card_core::{Access, Method, Request, Response, Service};
use http_body_util::{BodyExt, Full};
use hyper::StatusCode;
use hyper::body::Incoming;
use hyper::header::{CONTENT_LENGTH, CONTENT_TYPE, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tracing::{debug, error, info, warn};

use crate::static_files::StaticFiles;
use crate::storage::Store;
use crate::system_env::SystemEnv;
use crate::writer::WriterHandle;

/// How long shutdown waits for in-flight connections before giving up on them.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

pub struct AppState {
    pub service: Arc<Service>,
    pub store: Store,
    pub env: Arc<SystemEnv>,
    pub writer: WriterHandle,
    /// The web console's files (`--console DIR`), if enabled.
    pub console: Option<StaticFiles>,
}

/// Accepts connections until `shutdown` resolves, then stops accepting and waits (at most
/// [`SHUTDOWN_GRACE`]) for the connections still open to finish their requests.
pub async fn run(listener: TcpListener, state: Arc<AppState>, shutdown: impl Future<Output = ()>) {
    let graceful = GracefulShutdown::new();
    let mut http = http1::Builder::new();
    // The timer enables hyper's header read timeout, so idle half-open clients cannot pin connections.
    http.keep_alive(true).timer(TokioTimer::new());
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let (stream, _peer) = match accepted {
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
                    async move { Ok::<_, Infallible>(handle(&state, req).await) }
                });
                let conn = graceful.watch(http.serve_connection(TokioIo::new(stream), svc));
                tokio::spawn(async move {
                    if let Err(e) = conn.await {
                        debug!(error = %e, "connection ended with an error");
                    }
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

async fn handle(state: &AppState, req: hyper::Request<Incoming>) -> hyper::Response<Full<Bytes>> {
    let started = Instant::now();
    let method = req.method().clone();
    // The path only: the query can carry a reveal token.
    let path = req.uri().path().to_owned();
    let response = respond(state, req).await;
    if let Some(cause) = &response.cause {
        error!(method = %method, path = %path, cause = %cause, "request failed");
    }
    info!(
        method = %method,
        path = %path,
        status = response.status,
        ms = %format_args!("{:.3}", started.elapsed().as_secs_f64() * 1000.0),
        "request"
    );
    to_hyper(response)
}

async fn respond(state: &AppState, req: hyper::Request<Incoming>) -> Response {
    if let Some((file, mime)) = state
        .console
        .as_ref()
        .and_then(|c| c.resolve(req.method().as_str(), req.uri().path()))
    {
        let head = req.method() == hyper::Method::HEAD;
        return tokio::task::spawn_blocking(move || StaticFiles::load(&file, mime, head))
            .await
            .unwrap_or_else(|_| Service::internal_error("the static file task failed"));
    }
    let req = match to_core(req).await {
        Ok(req) => req,
        Err(response) => return response,
    };
    match Service::access(&req) {
        Access::Read => read(state, req).await,
        Access::Write => state.writer.submit(req).await,
    }
}

/// Reads run on a fresh read transaction (a snapshot) on the blocking pool: the store may touch disk
/// or the network.
async fn read(state: &AppState, req: Request) -> Response {
    let (service, store, env) = (
        state.service.clone(),
        state.store.clone(),
        state.env.clone(),
    );
    let task = tokio::task::spawn_blocking(move || {
        catch_unwind(AssertUnwindSafe(|| {
            store
                .read(|tx| service.handle(&req, tx, &*env))
                .unwrap_or_else(|e| Service::internal_error(&format!("read transaction: {e}")))
        }))
    });
    match task.await {
        Ok(Ok(response)) => response,
        Ok(Err(_)) | Err(_) => Service::internal_error("read request panicked"),
    }
}

/// The hyper request as the core's plain request; the body is read up to `Service::MAX_BODY_BYTES`.
async fn to_core(req: hyper::Request<Incoming>) -> Result<Request, Response> {
    let (parts, body) = req.into_parts();
    let announced = parts
        .headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let mut reader = BodyReader::new(Service::MAX_BODY_BYTES, announced)?;
    let mut body = body;
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| {
            debug!(error = %e, "cannot read request body");
            Service::unreadable_body()
        })?;
        if let Ok(data) = frame.into_data() {
            reader.push(&data)?;
        }
    }
    let body = reader.finish()?;
    let headers = parts
        .headers
        .iter()
        .map(|(name, value)| {
            (
                name.as_str().to_owned(),
                String::from_utf8_lossy(value.as_bytes()).into_owned(),
            )
        })
        .collect();
    Ok(Request {
        method: Method::parse(parts.method.as_str()),
        path: parts.uri.path().to_owned(),
        query: parts.uri.query().unwrap_or("").to_owned(),
        headers,
        body,
    })
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
