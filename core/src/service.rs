//! The single entry point hosts call.

use crate::api;
use crate::auth::ConfiguredKeys;
use crate::env::Env;
use crate::http::{Method, Request, Response};
use crate::id::IdGen;
use crate::store::Tx;

#[derive(Debug, Clone)]
pub struct Config {
    pub api_keys: ConfiguredKeys,
    /// Lifetime of a reveal token.
    pub token_ttl_secs: i64,
    /// AES-256 key for PAN and CVV (set by the host from configuration).
    pub vault_key: Option<[u8; 32]>,
    /// Keep the id generator's state in the store: for hosts that start a fresh instance per request,
    /// so ids still sort by creation. Long-lived hosts keep it in memory.
    pub stored_ids: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            api_keys: ConfiguredKeys::default(),
            token_ttl_secs: 120,
            vault_key: None,
            stored_ids: false,
        }
    }
}

/// Which kind of storage transaction a request needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
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

    /// Reads may run on a read-only transaction; everything else needs a write transaction.
    pub fn access(req: &Request) -> Access {
        match req.method {
            Method::Get | Method::Head if !api::route_writes_on_read(&req.path) => Access::Read,
            Method::Get | Method::Head => Access::Write,
            _ => Access::Write,
        }
    }

    /// Handles one request. A request that fails leaves `tx` exactly as it was, except for its
    /// idempotency record where contract.md keeps one.
    pub fn handle(&self, req: &Request, tx: &mut dyn Tx, env: &dyn Env) -> Response {
        api::handle(self, req, tx, env)
    }

    /// The response for a body the host refused to read because it is over every limit.
    pub fn payload_too_large() -> Response {
        crate::error::ApiError::PayloadTooLarge.to_response()
    }

    /// The largest body any route accepts; hosts stop reading past it.
    pub const MAX_BODY_BYTES: usize = api::MAX_MULTIPART_BYTES;

    /// The response hosts send when the core panicked (it should not).
    pub fn internal_error() -> Response {
        crate::error::ApiError::Internal.to_response()
    }
}
