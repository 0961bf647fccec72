//! The service's rules, one module per concept. Each operation takes a typed command and a [`Scope`]
//! (the storage transaction, the calling client, the clock reading and the id source) and returns a
//! typed record or a typed error. Nothing here knows about HTTP: no `Request`, no `Response`, no JSON
//! bodies. The records are stored through [`crate::storage::codec`]; how they look on the wire is
//! the http layer's business (`http::views`).

pub mod account_details;
pub mod accounts;
pub mod api_keys;
pub mod audit;
pub mod authorizations;
pub mod card_holders;
pub mod card_records;
pub mod cards;
pub mod controls;
pub mod currency;
pub mod dispute_records;
pub mod disputes;
pub mod events;
pub mod ids;
pub mod ledger;
pub mod lifecycle;
pub mod outbox;
pub mod permissions;
pub mod push;
pub mod rotation;
pub mod test_clock;
pub mod transfers;
pub mod upgrade;
pub mod vault;
pub mod webhooks;

#[cfg(test)]
mod props;

use crate::env::{Env, Timestamp};
use crate::error::ApiError;
use crate::storage::Tx;

pub use currency::Currency;
pub use ids::IdGen;

/// What every domain operation runs in: one client's view of one storage transaction at one instant.
pub struct Scope<'a> {
    pub tx: &'a mut dyn Tx,
    pub client: &'a str,
    pub now: Timestamp,
    pub ids: &'a IdGen,
    /// Randomness for ids and card secrets.
    pub env: &'a dyn Env,
}

impl Scope<'_> {
    pub fn new_id(&self) -> String {
        self.ids.next(self.env)
    }
}

/// The result of every domain operation.
pub type Result<T> = std::result::Result<T, ApiError>;

/// One of the caller's records of `kind` by id. An id that cannot be one, another client's record and an
/// unknown id all answer the same 404 for `what`.
fn find<T: crate::storage::Record>(
    s: &mut Scope,
    kind: crate::storage::keys::Kind,
    id: &str,
    what: &'static str,
) -> Result<T> {
    if !ids::is_valid(id) {
        return Err(ApiError::NotFound(what));
    }
    crate::storage::codec::get(s.tx, &crate::storage::keys::record(s.client, kind, id))?
        .ok_or(ApiError::NotFound(what))
}
