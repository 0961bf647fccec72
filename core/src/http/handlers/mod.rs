//! The handlers of the route table: each turns a request into a typed command, runs the domain
//! operation in the request's scope and answers the view. Returning `Err` writes nothing.

pub mod account_details;
pub mod accounts;
pub mod api_keys;
pub mod audit;
pub mod authorization_endpoint;
pub mod authorizations;
pub mod card_holders;
pub mod cards;
pub mod disputes;
pub mod events;
pub mod test_clock;
pub mod transfers;
pub mod webhooks;

use serde_json::{Map, Value, json};

use super::routes::Prepared;
use super::{Request, Response, body, reply};
use crate::config::Config;
use crate::domain::Scope;
use crate::domain::events::EventType;
use crate::error::{ApiError, ApiResult};
use crate::query::{self, ListQuery, Schema};
use crate::storage::codec::JsonText;

/// What a handler gets: the request, its path parameters, the configuration and the domain scope.
pub struct Call<'a> {
    pub req: &'a Request,
    pub route: &'a Prepared,
    pub config: &'a Config,
    /// The calling key (None for public routes, and for body checks, which never need it).
    pub key: Option<&'a crate::domain::api_keys::KeyInfo>,
    pub scope: Scope<'a>,
}

pub type Handler = fn(&mut Call) -> ApiResult<Response>;
/// Judges a write request's body without writing (see `Route::check`).
pub type Check = fn(&mut Call) -> ApiResult<()>;
/// What a write asks an outside endpoint before it runs (see `Route::ask`), on a read-only scope.
pub type Ask = fn(&mut Call) -> ApiResult<Option<crate::callout::CallOut>>;

impl Call<'_> {
    /// The first path parameter (`{id}`).
    pub fn id(&self) -> &str {
        &self.route.id
    }

    /// The second path parameter (`{sub}`).
    pub fn sub(&self) -> &str {
        &self.route.sub
    }

    pub fn json_body(&self) -> ApiResult<Map<String, Value>> {
        body::json_object(self.req)
    }

    pub fn list_query(&self, schema: &'static Schema) -> ApiResult<ListQuery> {
        query::parse(&self.req.query, schema).map_err(ApiError::Validation)
    }
}

/// Appends the event of a change: `view` is the changed resource as a read returns it.
pub fn emit(c: &mut Call, kind: EventType, view: &impl serde::Serialize) -> ApiResult<()> {
    let object = match to_value(view)? {
        Value::Object(m) => JsonText(m),
        _ => JsonText::default(),
    };
    crate::domain::outbox::publish(&mut c.scope, kind, object)?;
    Ok(())
}

/// A view as the JSON value the list language works on.
pub fn to_value(view: impl serde::Serialize) -> ApiResult<Value> {
    serde_json::to_value(view)
        .map_err(|e| ApiError::internal(format!("cannot serialize a view: {e}")))
}

pub fn health(_: &mut Call) -> ApiResult<Response> {
    Ok(reply::ok("Service is healthy", &json!({"status": "ok"})))
}
