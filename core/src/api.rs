//! Routes, request checks common to every route, the success envelope, and the request path that wraps
//! each handler in authentication, idempotency and the write overlay.

use serde_json::{Map, Value, json};

use crate::auth::{self, Client};
use crate::env::{Env, Timestamp};
use crate::error::{ApiError, ApiResult};
use crate::http::{Method, Request, Response};
use crate::id::IdGen;
use crate::idempotency;
use crate::query::{self, ListQuery, Schema};
use crate::service::Service;
use crate::store::{Overlay, Tx};
use crate::validate;
use crate::{account_details, accounts, card_holders, cards};

pub const MAX_JSON_BYTES: usize = 1024 * 1024;
pub const MAX_MULTIPART_BYTES: usize = 12 * 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    Health,
    Accounts,
    Account,
    AccountTransactions,
    AccountDetails,
    AccountDetail,
    CardHolders,
    CardHolder,
    CardHolderFile,
    Cards,
    Card,
    CardFund,
    CardToken,
    CardReveal,
}

impl Route {
    fn methods(self) -> &'static [Method] {
        use Method::*;
        match self {
            Route::Health => &[Get],
            Route::Accounts => &[Get, Post],
            Route::Account => &[Get, Put],
            Route::AccountTransactions => &[Get],
            Route::AccountDetails => &[Get, Post],
            Route::AccountDetail => &[Get, Put, Delete],
            Route::CardHolders => &[Get, Post],
            Route::CardHolder => &[Get, Put],
            Route::CardHolderFile => &[Get],
            Route::Cards => &[Get, Post],
            Route::Card => &[Get, Put, Delete],
            Route::CardFund | Route::CardToken => &[Post],
            Route::CardReveal => &[Get],
        }
    }
}

const ROUTES: &[(&str, Route)] = &[
    ("/health", Route::Health),
    ("/accounts", Route::Accounts),
    ("/accounts/{id}", Route::Account),
    ("/accounts/{id}/transactions", Route::AccountTransactions),
    ("/accounts/{id}/details", Route::AccountDetails),
    ("/accounts/{id}/details/{sub}", Route::AccountDetail),
    ("/card-holders", Route::CardHolders),
    ("/card-holders/{id}", Route::CardHolder),
    ("/card-holders/{id}/files/{sub}", Route::CardHolderFile),
    ("/cards", Route::Cards),
    ("/cards/{id}", Route::Card),
    ("/cards/{id}/fund", Route::CardFund),
    ("/cards/{id}/token", Route::CardToken),
    ("/cards/{id}/reveal", Route::CardReveal),
];

fn router() -> &'static matchit::Router<Route> {
    static ROUTER: std::sync::OnceLock<matchit::Router<Route>> = std::sync::OnceLock::new();
    ROUTER.get_or_init(|| {
        let mut r = matchit::Router::new();
        for (path, route) in ROUTES {
            // The table is static and checked by a test, so an insert cannot fail at run time.
            let _ = r.insert(*path, *route);
        }
        r
    })
}

/// A matched route with its path parameters.
struct Matched {
    route: Route,
    id: String,
    sub: String,
}

fn match_route(path: &str) -> Option<Matched> {
    let m = router().at(path).ok()?;
    Some(Matched {
        route: *m.value,
        id: m.params.get("id").unwrap_or_default().to_string(),
        sub: m.params.get("sub").unwrap_or_default().to_string(),
    })
}

/// GET routes that change state (a reveal consumes its token) need a write transaction.
pub fn route_writes_on_read(path: &str) -> bool {
    match_route(path).is_some_and(|m| m.route == Route::CardReveal)
}

/// What a handler gets: the caller, its transaction (the request's overlay), the clock and ids.
pub struct Ctx<'a> {
    pub service: &'a Service,
    ids: &'a IdGen,
    pub req: &'a Request,
    pub tx: &'a mut dyn Tx,
    pub env: &'a dyn Env,
    pub client: String,
    /// The first path parameter (`{id}`), the second (`{sub}`).
    pub id: String,
    pub sub: String,
    pub now: Timestamp,
}

impl Ctx<'_> {
    pub fn new_id(&self) -> String {
        self.ids.next(self.env)
    }

    pub fn now_string(&self) -> String {
        self.now.to_rfc3339()
    }

    /// The JSON object body of a JSON route: size, content type and syntax checked.
    pub fn json_body(&self) -> ApiResult<Map<String, Value>> {
        json_body(self.req)
    }

    pub fn list_query(&self, schema: &'static Schema) -> ApiResult<ListQuery> {
        query::parse(&self.req.query, schema).map_err(ApiError::Validation)
    }
}

pub fn json_body(req: &Request) -> ApiResult<Map<String, Value>> {
    if req.body.len() > MAX_JSON_BYTES {
        return Err(ApiError::PayloadTooLarge);
    }
    if !is_json_content_type(req.header_value("content-type")) {
        return Err(ApiError::UnsupportedMediaType(
            "Content-Type must be application/json".into(),
        ));
    }
    validate::parse_object(&req.body)
}

fn is_json_content_type(ct: Option<&str>) -> bool {
    let Some(ct) = ct else { return false };
    let mime = ct.split(';').next().unwrap_or("").trim();
    mime.eq_ignore_ascii_case("application/json")
        || (mime.len() > 5 && mime[mime.len() - 5..].eq_ignore_ascii_case("+json"))
}

/// `{"statusCode", "message", "data"}`.
pub fn envelope(status: u16, message: &str, data: Value) -> Response {
    Response::json(
        status,
        &json!({"statusCode": status, "message": message, "data": data}),
    )
}

pub fn ok(message: &str, data: Value) -> ApiResult<Response> {
    Ok(envelope(200, message, data))
}

pub fn created(message: &str, data: Value) -> ApiResult<Response> {
    Ok(envelope(201, message, data))
}

pub fn list(message: &str, q: &ListQuery, items: Vec<Value>, total: u64) -> ApiResult<Response> {
    let items = items.into_iter().map(|d| q.project(d)).collect();
    Ok(Response::json(200, &q.envelope(message, items, total)))
}

pub fn handle(service: &Service, req: &Request, tx: &mut dyn Tx, env: &dyn Env) -> Response {
    match handle_inner(service, req, tx, env) {
        Ok(r) => r,
        Err(e) => e.to_response(),
    }
}

fn handle_inner(
    service: &Service,
    req: &Request,
    tx: &mut dyn Tx,
    env: &dyn Env,
) -> ApiResult<Response> {
    let Some(m) = match_route(&req.path) else {
        return Err(ApiError::NotFound("Route"));
    };
    if !m.route.methods().contains(&req.method) {
        return Err(ApiError::MethodNotAllowed(m.route.methods().to_vec()));
    }
    if m.route == Route::Health {
        return ok("Service is healthy", json!({"status": "ok"}));
    }
    let Client(client) = auth::authenticate(req, &service.config.api_keys, tx)?;
    let now = env.now();
    let idem = if req.method == Method::Post {
        idempotency::Claim::check(req, &client, now, tx)?
    } else {
        None
    };
    if let Some(idempotency::Claim::Replay(response)) = idem {
        return Ok(response);
    }

    let mut overlay = Overlay::new(tx);
    let stored_ids = if service.config.stored_ids {
        Some(IdGen::load(&mut overlay, env)?)
    } else {
        None
    };
    let ids = stored_ids.as_ref().unwrap_or(&service.ids);
    let counter_before = ids.counter();
    let result = {
        let mut ctx = Ctx {
            service,
            ids,
            req,
            tx: &mut overlay,
            env,
            client: client.clone(),
            id: m.id,
            sub: m.sub,
            now,
        };
        dispatch(m.route, &mut ctx)
    };
    let response = match result {
        Ok(r) if r.status < 400 => {
            if stored_ids.is_some() && ids.counter() != counter_before {
                ids.save(&mut overlay)?;
            }
            overlay.commit()?;
            r
        }
        Ok(r) => r,
        Err(e) => {
            drop(overlay);
            e.to_response()
        }
    };
    if let Some(idempotency::Claim::Fresh(claim)) = idem {
        claim.record(&response, now, tx)?;
    }
    Ok(response)
}

fn dispatch(route: Route, ctx: &mut Ctx) -> ApiResult<Response> {
    use Method::*;
    match (route, ctx.req.method) {
        (Route::Accounts, Post) => accounts::create(ctx),
        (Route::Accounts, Get) => accounts::list(ctx),
        (Route::Account, Get) => accounts::get(ctx),
        (Route::Account, Put) => accounts::update(ctx),
        (Route::AccountTransactions, Get) => accounts::transactions(ctx),
        (Route::AccountDetails, Post) => account_details::create(ctx),
        (Route::AccountDetails, Get) => account_details::list(ctx),
        (Route::AccountDetail, Get) => account_details::get(ctx),
        (Route::AccountDetail, Put) => account_details::update(ctx),
        (Route::AccountDetail, Delete) => account_details::delete(ctx),
        (Route::CardHolders, Post) => card_holders::create(ctx),
        (Route::CardHolders, Get) => card_holders::list(ctx),
        (Route::CardHolder, Get) => card_holders::get(ctx),
        (Route::CardHolder, Put) => card_holders::update(ctx),
        (Route::CardHolderFile, Get) => card_holders::file(ctx),
        (Route::Cards, Post) => cards::create(ctx),
        (Route::Cards, Get) => cards::list(ctx),
        (Route::Card, Get) => cards::get(ctx),
        (Route::Card, Put) => cards::update(ctx),
        (Route::Card, Delete) => cards::delete(ctx),
        (Route::CardFund, Post) => cards::fund(ctx),
        (Route::CardToken, Post) => cards::token(ctx),
        (Route::CardReveal, Get) => cards::reveal(ctx),
        _ => Err(ApiError::MethodNotAllowed(route.methods().to_vec())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_route_pattern_is_registered() {
        for (path, route) in ROUTES {
            let concrete = path.replace("{id}", "a").replace("{sub}", "b");
            assert_eq!(
                match_route(&concrete).map(|m| m.route),
                Some(*route),
                "{path}"
            );
        }
        assert!(match_route("/nope").is_none());
    }

    #[test]
    fn json_content_types() {
        assert!(is_json_content_type(Some(
            "application/json; charset=utf-8"
        )));
        assert!(is_json_content_type(Some("application/merge-patch+json")));
        assert!(!is_json_content_type(Some("text/plain")));
        assert!(!is_json_content_type(None));
    }
}
