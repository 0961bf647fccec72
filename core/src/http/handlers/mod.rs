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

use std::any::Any;
use std::sync::Arc;

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
    /// The calling key (None for public routes).
    pub key: Option<&'a crate::domain::api_keys::KeyInfo>,
    /// The body as its route's check parsed it (`Route::check`), once per request: in
    /// `Service::validate`, or by the pipeline just before the handler when validate did not.
    pub command: Option<&'a (dyn Any + Send + Sync)>,
    pub scope: Scope<'a>,
}

/// A write's body parsed into its typed command (`NewCard`, `Funding`, ...) by the route's check.
/// Typed by the route: the check and the handler of one row agree on `T` (see [`Call::command`]).
/// Shared, not moved: a batch the store re-runs hands the handler the same command again.
pub type Command = Arc<dyn Any + Send + Sync>;

/// A check's answer: `value` as the request's command.
pub fn command<T: Any + Send + Sync>(value: T) -> ApiResult<Command> {
    Ok(Arc::new(value))
}

pub type Handler = fn(&mut Call) -> ApiResult<Response>;
/// Judges a write request's body without writing and returns it parsed (see `Route::check`).
pub type Check = fn(&mut Call) -> ApiResult<Command>;
/// What a write asks an outside endpoint before it runs (see `Route::ask`), on a read-only scope.
pub type Ask = fn(&mut Call) -> ApiResult<Option<crate::callout::CallOut>>;

impl<'a> Call<'a> {
    /// The first path parameter (`{id}`).
    pub fn id(&self) -> &str {
        &self.route.id
    }

    /// The second path parameter (`{sub}`).
    pub fn sub(&self) -> &str {
        &self.route.sub
    }

    /// The command the route's check parsed from the body. The pipeline runs the check before
    /// the handler whenever `validate` did not, so a miss is a route whose check and handler
    /// disagree on `T`: a bug, answered 500.
    pub fn command<T: Any>(&self) -> ApiResult<&'a T> {
        self.command
            .and_then(|c| c.downcast_ref::<T>())
            .ok_or_else(|| {
                ApiError::internal("the route's check and handler disagree on its command")
            })
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
