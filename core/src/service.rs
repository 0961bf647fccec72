//! The single entry point hosts call: configuration, and a request's stages (ARCHITECTURE.md,
//! "Request stages"): [`Service::precheck`] (route, key, grant: from the head) ->
//! [`Prechecked`] -> [`Service::validate`] (the body parsed into its typed command, once) ->
//! [`Validated`] -> [`Service::handle`].

use crate::callout::{Asked, CallOut};
use crate::domain::IdGen;
use crate::domain::api_keys::KeyInfo;
use crate::env::Env;
use crate::error::ApiError;
use crate::http::handlers::Command;
use crate::http::pipeline::Stage;
use crate::http::routes::Auth;
use crate::http::{self, Prepared, Request, Response, auth, errors};
use crate::storage::{Tx, format};

pub use crate::config::Config;
pub use crate::domain::webhooks::deliveries::{Due, Outcome, Planned, Taken};
pub use crate::http::routes::Access;

/// What a host learns from a request's headers before it reads the body.
#[derive(Debug, Clone)]
pub struct Prechecked {
    pub access: Access,
    /// The authenticated client; None for public routes.
    pub client: Option<String>,
    pub prepared: Prepared,
    /// The key precheck authenticated (None on public routes): the later stages take it from here
    /// rather than read it again (a write re-reads it once, in its transaction: `auth::recheck`).
    key: Option<KeyInfo>,
}

/// A request past [`Service::validate`]: the request, its key, and its body parsed into the route's
/// typed command (None for a route without a body, or when the request's Idempotency-Key decides
/// its answer). A host hands it to [`Service::handle`], for a write through its writer; `handle`
/// may run it more than once (a store that re-runs a batch), never parsing the body again.
#[derive(Clone)]
pub struct Validated {
    pre: Prechecked,
    req: Request,
    command: Option<Command>,
}

impl Validated {
    /// A request past precheck whose body `handle` parses itself, in the write transaction (still
    /// once): for a host that runs every stage on one transaction ([`Service::serve`], Spin), where
    /// a refused body is then answered as the write answers it (an expired idempotency record
    /// swept, a kept failure recorded under its Idempotency-Key).
    pub fn deferred(checked: Prechecked, req: Request) -> Validated {
        Validated {
            pre: checked,
            req,
            command: None,
        }
    }

    pub fn request(&self) -> &Request {
        &self.req
    }

    pub fn prechecked(&self) -> &Prechecked {
        &self.pre
    }

    /// Whether the route asks an outside endpoint before its write (`Prepared::asks`).
    pub fn asks(&self) -> bool {
        self.pre.prepared.asks()
    }

    /// The outcome of the call-out [`Service::ask`] returned, for the write to read.
    pub fn set_asked(&mut self, asked: Option<Asked>) {
        self.req.asked = asked;
    }

    fn stage(&self) -> Stage<'_> {
        Stage {
            prepared: &self.pre.prepared,
            req: &self.req,
            key: self.pre.key.as_ref(),
            command: self.command.as_ref(),
        }
    }
}

impl std::fmt::Debug for Validated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Validated")
            .field("pre", &self.pre)
            .field("method", &self.req.method)
            .field("path", &self.req.path)
            .field("command", &self.command.is_some())
            .finish()
    }
}

pub struct Service {
    pub(crate) config: Config,
    pub(crate) ids: IdGen,
}

impl Service {
    pub fn new(config: Config, env: &dyn Env) -> Service {
        Service {
            config,
            ids: IdGen::new(env),
        }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Checks that the store's data format is the one this release reads (stamping an empty store);
    /// hosts call it once at start, or per request where every request is a fresh instance.
    pub fn open_store(tx: &mut dyn Tx) -> Result<(), format::FormatError> {
        match format::open(tx)? {
            format::Opened::Current => Ok(()),
            format::Opened::Older(v) => crate::domain::upgrade::from(tx, v),
        }
    }

    /// Checks the configured vault key against the data (stamping its fingerprint on first use)
    /// and finishes an upgrade that needs the vault keys (`upgrade::with_vault`): hosts call it at
    /// start so that a wrong key stops the service with a clear message. What that upgrade
    /// re-keyed, if it ran.
    pub fn check_vault_key(
        &self,
        tx: &mut dyn Tx,
        env: &dyn Env,
    ) -> Result<Option<crate::domain::vault::Rekeyed>, String> {
        match self.config.vault() {
            Some(vault) => {
                vault.check_key(tx).map_err(|e| e.to_string())?;
                crate::domain::upgrade::with_vault(tx, env, &vault)
                    .map_err(|e| format!("cannot upgrade the PAN index: {}", e.message()))
            }
            None => Ok(None),
        }
    }

    fn delivery_settings(&self) -> crate::domain::webhooks::deliveries::Settings<'_> {
        crate::domain::webhooks::deliveries::Settings {
            vault: self.config.vault(),
            policy: self.config.url_policy,
            schedule: &self.config.webhook_retry_schedule,
        }
    }

    /// Takes up to `limit` webhook deliveries due by `env.now()` for the host to send, signed and
    /// leased (ARCHITECTURE.md, "Webhooks"). Run it in a write transaction; it writes all or nothing.
    /// The host sends each outside any transaction and reports with [`Service::record_attempts`].
    pub fn take_due_deliveries(
        &self,
        tx: &mut dyn Tx,
        env: &dyn Env,
        limit: usize,
    ) -> Result<Vec<Due>, String> {
        self.take_due_deliveries_from(tx, env, 0, limit)
            .map(|t| t.due)
    }

    /// [`Service::take_due_deliveries`] reading the queue from `from_ms` (host clock) on: a host that
    /// keeps the answer's `floor` and starts its next take there reads only what is new, not the
    /// deletions every earlier take left (ARCHITECTURE.md, "Webhooks").
    pub fn take_due_deliveries_from(
        &self,
        tx: &mut dyn Tx,
        env: &dyn Env,
        from_ms: i64,
        limit: usize,
    ) -> Result<Taken, String> {
        let mut overlay = crate::storage::Overlay::new(tx);
        let due = crate::domain::webhooks::deliveries::take_due(
            &mut overlay,
            env,
            &self.delivery_settings(),
            from_ms,
            limit,
            &event_body,
        )
        .map_err(cause)?;
        overlay.commit().map_err(|e| e.to_string())?;
        Ok(due)
    }

    /// What a take would lease, read on a snapshot and signed, writing nothing: for a host that
    /// alone serves its store and keeps its leases in memory (ARCHITECTURE.md, "Webhooks").
    /// `skip(client, delivery)` passes over the deliveries it holds. It records the outcomes
    /// (and `unsendable`) with [`Service::record_attempts`], and drops `stale` with
    /// [`Service::drop_stale_deliveries`].
    pub fn plan_due_deliveries(
        &self,
        tx: &mut dyn Tx,
        env: &dyn Env,
        from_ms: i64,
        limit: usize,
        skip: &dyn Fn(&str, &str) -> bool,
    ) -> Result<Planned, String> {
        crate::domain::webhooks::deliveries::plan(
            tx,
            env,
            &self.delivery_settings(),
            from_ms,
            limit,
            skip,
            &event_body,
        )
        .map_err(cause)
    }

    /// Deletes the queue entries a plan found stale ([`Planned::stale`]) whose delivery is still
    /// gone or answered. Run it in a write transaction.
    pub fn drop_stale_deliveries(tx: &mut dyn Tx, stale: &[Vec<u8>]) -> Result<(), String> {
        let mut overlay = crate::storage::Overlay::new(tx);
        crate::domain::webhooks::deliveries::drop_stale(&mut overlay, stale).map_err(cause)?;
        overlay.commit().map_err(|e| e.to_string())
    }

    /// Writes the outcomes of attempts: success, the next retry from the schedule, or `failed`.
    pub fn record_attempts(
        &self,
        tx: &mut dyn Tx,
        env: &dyn Env,
        outcomes: &[Outcome],
    ) -> Result<(), String> {
        let mut overlay = crate::storage::Overlay::new(tx);
        crate::domain::webhooks::deliveries::record(
            &mut overlay,
            env,
            &self.delivery_settings(),
            outcomes,
        )
        .map_err(cause)?;
        overlay.commit().map_err(|e| e.to_string())
    }

    /// When the earliest queued webhook delivery is due (host clock, ms): hosts sleep until then.
    /// One key read, fit for a read transaction.
    pub fn next_delivery_due(tx: &mut dyn Tx) -> Result<Option<i64>, String> {
        Self::next_delivery_due_from(tx, 0)
    }

    /// [`Service::next_delivery_due`] among the deliveries due at `from_ms` or later (a take's floor).
    pub fn next_delivery_due_from(tx: &mut dyn Tx, from_ms: i64) -> Result<Option<i64>, String> {
        crate::domain::webhooks::deliveries::next_due(tx, from_ms).map_err(cause)
    }

    /// Matches the request against the route table, once.
    pub fn prepare(req: &Request) -> Prepared {
        Prepared::new(req)
    }

    /// Which kind of transaction the request needs.
    pub fn access(req: &Request) -> Access {
        Prepared::new(req).access()
    }

    /// Route, method and credentials, from the headers alone (the body may be unread): the host
    /// answers `Err` at once, without reading the body or queueing a write. `tx` may be read-only.
    /// The one place a request's key is authenticated.
    pub fn precheck(&self, req: &Request, tx: &mut dyn Tx) -> Result<Prechecked, Response> {
        let prepared = Prepared::new(req);
        let route = prepared.route().map_err(|e| errors::to_response(&e))?;
        let key = match route.auth {
            Auth::Public => None,
            Auth::Key => {
                let key = auth::authenticate(req, &self.config.api_keys, tx)
                    .map_err(|e| errors::to_response(&e))?;
                // Refused here, before the body is read or a write queued. A refused token or
                // reveal goes on to the writer instead, which records it in the audit trail.
                if !prepared.audited() {
                    auth::authorize(&key, prepared.need()).map_err(|e| errors::to_response(&e))?;
                }
                Some(key)
            }
        };
        Ok(Prechecked {
            access: prepared.access(),
            client: key.as_ref().map(|k| k.client.clone()),
            prepared,
            key,
        })
    }

    /// Parses and judges the body of `req` (with its head `checked`) into the route's typed
    /// command, without writing: `Err` is the answer, given before a write is queued. `tx` may be
    /// read-only (routes that answer 404 for an unknown record before judging the body read it).
    /// A route without a body reads nothing here.
    pub fn validate(
        &self,
        checked: Prechecked,
        req: Request,
        tx: &mut dyn Tx,
        env: &dyn Env,
    ) -> Result<Validated, Response> {
        let mut validated = Validated {
            pre: checked,
            req,
            command: None,
        };
        validated.command = http::validate(&self.config, &self.ids, validated.stage(), tx, env)
            .map_err(|e| errors::to_response(&e))?;
        Ok(validated)
    }

    /// For a route that asks an outside endpoint before its write ([`Validated::asks`]): what to
    /// send, judged on a read-only snapshot `tx`, or None (nothing to ask; the write decides alone,
    /// and answers any refusal). The host performs the call with no transaction or writer held,
    /// then hands the write the outcome ([`Validated::set_asked`], `crate::callout`).
    pub fn ask(&self, validated: &Validated, tx: &mut dyn Tx, env: &dyn Env) -> Option<CallOut> {
        http::ask(&self.config, &self.ids, validated.stage(), tx, env)
            // A refused request asks nothing: the write refuses it the same way.
            .unwrap_or(None)
    }

    /// Handles a validated request. A request that fails leaves `tx` exactly as it was, except for
    /// its idempotency record where the README's idempotency rules keep one.
    pub fn handle(&self, validated: &Validated, tx: &mut dyn Tx, env: &dyn Env) -> Response {
        http::handle(&self.config, &self.ids, validated.stage(), tx, env)
    }

    /// Every stage on one transaction (tests, `cards seed`): precheck, then `handle` parses the
    /// body itself ([`Validated::deferred`]).
    pub fn serve(&self, req: &Request, tx: &mut dyn Tx, env: &dyn Env) -> Response {
        match self.precheck(req, tx) {
            Ok(pre) => self.handle(&Validated::deferred(pre, req.clone()), tx, env),
            Err(response) => response,
        }
    }

    /// The response for a body the host refused to read because it is over every limit.
    pub fn payload_too_large() -> Response {
        errors::to_response(&ApiError::PayloadTooLarge)
    }

    /// The 404 of an unknown route, for host-served paths (static files) that turn out missing.
    pub fn not_found() -> Response {
        errors::to_response(&ApiError::NotFound("Route"))
    }

    /// The response for a body the connection failed to deliver; the host closes the connection.
    pub fn unreadable_body() -> Response {
        errors::to_response(&ApiError::field(
            "body",
            "the request body could not be read",
        ))
        .with_header("connection", "close")
    }

    /// 503 for a host whose storage or writer cannot serve (its health check answers this).
    pub fn unavailable(what: &str) -> Response {
        errors::to_response(&ApiError::Unavailable(what.to_string()))
    }

    /// 408 for a request whose head or body did not arrive in time; the host closes the connection.
    pub fn request_timeout() -> Response {
        errors::to_response(&ApiError::RequestTimeout)
    }

    /// 429 for a client over its request budget, with `Retry-After`.
    pub fn rate_limited(retry_after_secs: u64) -> Response {
        errors::to_response(&ApiError::RateLimited { retry_after_secs })
    }

    /// The largest body any route accepts; hosts stop reading past it.
    pub const MAX_BODY_BYTES: usize = http::body::MAX_MULTIPART_BYTES;

    /// 503 `busy` with Retry-After: for a write the store kept refusing on conflicts with other
    /// instances.
    pub fn busy() -> Response {
        errors::to_response(&ApiError::Busy)
    }

    /// The response hosts send when the core panicked (it should not), with `cause` for their log.
    pub fn internal_error(cause: &str) -> Response {
        errors::to_response(&ApiError::internal(cause))
    }
}

/// A webhook delivery's body: the event as `GET /events/{id}` returns it.
fn event_body(e: &crate::domain::events::EventText<'_>) -> crate::domain::Result<Vec<u8>> {
    Ok(crate::http::views::event_body(e))
}

/// An error's cause for the host's log (an internal error's own text, not the answer's).
fn cause(e: ApiError) -> String {
    match e {
        ApiError::Internal(c) => c,
        e => e.message(),
    }
}
