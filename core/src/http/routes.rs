//! The route table: every route is one row `(method, path) -> (access, handler)`. A request is matched
//! once into a [`Prepared`] route, which tells the host what kind of transaction to open and tells the
//! pipeline which handler to run. A known path with another method answers 405 with `Allow` built from
//! the same rows; `HEAD` is served wherever `GET` is.

use std::sync::OnceLock;

use super::handlers::{self, Ask, Check, Handler};
use super::{Method, Request};
use crate::domain::audit::AuditAction;
use crate::domain::permissions::{Level, Need, Resource};
use crate::error::ApiError;

/// Which kind of storage transaction a request needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
}

/// Who may call a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Auth {
    Public,
    Key,
}

pub struct Route {
    pub method: Method,
    pub path: &'static str,
    pub access: Access,
    pub auth: Auth,
    pub handler: Handler,
    /// The part of a write handler that judges the body (reading at most the records it must find
    /// first), so a host can refuse a bad body before it queues the write. The handler runs it too.
    pub check: Option<Check>,
    /// For a write that asks an outside endpoint first (`crate::callout`): what to ask, judged on a
    /// read-only snapshot before the write is queued. The handler finds the answer in `Request::asked`.
    pub ask: Option<Ask>,
}

const fn route(method: Method, path: &'static str, access: Access, handler: Handler) -> Route {
    Route {
        method,
        path,
        access,
        auth: Auth::Key,
        handler,
        check: None,
        ask: None,
    }
}

/// A write route with a body, and the check of that body.
const fn with_body(method: Method, path: &'static str, handler: Handler, check: Check) -> Route {
    Route {
        method,
        path,
        access: Access::Write,
        auth: Auth::Key,
        handler,
        check: Some(check),
        ask: None,
    }
}

/// A write route with a body that asks an outside endpoint before it writes (`crate::callout`).
const fn asking(route: Route, ask: Ask) -> Route {
    Route {
        ask: Some(ask),
        ..route
    }
}

use Access::{Read, Write};
use Method::{Delete, Get, Post, Put};

pub static ROUTES: &[Route] = &[
    Route {
        method: Get,
        path: "/health",
        access: Read,
        auth: Auth::Public,
        handler: handlers::health,
        check: None,
        ask: None,
    },
    Route {
        method: Get,
        path: "/openapi.json",
        access: Read,
        auth: Auth::Public,
        handler: super::openapi::serve,
        check: None,
        ask: None,
    },
    route(Get, "/accounts", Read, handlers::accounts::list),
    // A static segment wins over `{id}` in the router, so these never reach /accounts/{id}.
    route(Get, "/accounts/transfers", Read, handlers::transfers::list),
    with_body(
        Post,
        "/accounts/transfers",
        handlers::transfers::create,
        handlers::transfers::check_create,
    ),
    route(
        Get,
        "/accounts/transfers/{id}",
        Read,
        handlers::transfers::get,
    ),
    with_body(
        Post,
        "/accounts",
        handlers::accounts::create,
        handlers::accounts::check_create,
    ),
    route(Get, "/accounts/{id}", Read, handlers::accounts::get),
    with_body(
        Put,
        "/accounts/{id}",
        handlers::accounts::update,
        handlers::accounts::check_update,
    ),
    route(
        Get,
        "/accounts/{id}/transactions",
        Read,
        handlers::accounts::transactions,
    ),
    route(
        Get,
        "/accounts/{id}/details",
        Read,
        handlers::account_details::list,
    ),
    with_body(
        Post,
        "/accounts/{id}/details",
        handlers::account_details::create,
        handlers::account_details::check_create,
    ),
    route(
        Get,
        "/accounts/{id}/details/{sub}",
        Read,
        handlers::account_details::get,
    ),
    with_body(
        Put,
        "/accounts/{id}/details/{sub}",
        handlers::account_details::update,
        handlers::account_details::check_update,
    ),
    route(
        Delete,
        "/accounts/{id}/details/{sub}",
        Write,
        handlers::account_details::delete,
    ),
    route(Get, "/card-holders", Read, handlers::card_holders::list),
    with_body(
        Post,
        "/card-holders",
        handlers::card_holders::create,
        handlers::card_holders::check_create,
    ),
    route(Get, "/card-holders/{id}", Read, handlers::card_holders::get),
    with_body(
        Put,
        "/card-holders/{id}",
        handlers::card_holders::update,
        handlers::card_holders::check_update,
    ),
    route(
        Get,
        "/card-holders/{id}/files/{sub}",
        Read,
        handlers::card_holders::file,
    ),
    route(Get, "/cards", Read, handlers::cards::list),
    with_body(
        Post,
        "/cards",
        handlers::cards::create,
        handlers::cards::check_create,
    ),
    route(Get, "/cards/{id}", Read, handlers::cards::get),
    with_body(
        Put,
        "/cards/{id}",
        handlers::cards::update,
        handlers::cards::check_update,
    ),
    route(Delete, "/cards/{id}", Write, handlers::cards::terminate),
    with_body(
        Post,
        "/cards/{id}/fund",
        handlers::cards::fund,
        handlers::cards::check_fund,
    ),
    route(Post, "/cards/{id}/token", Write, handlers::cards::token),
    // A reveal consumes its token, so this GET writes.
    route(Get, "/cards/{id}/reveal", Write, handlers::cards::reveal),
    asking(
        with_body(
            Post,
            "/cards/{id}/authorizations",
            handlers::authorizations::create,
            handlers::authorizations::check_create,
        ),
        handlers::authorizations::ask_create,
    ),
    route(
        Get,
        "/cards/{id}/authorizations",
        Read,
        handlers::authorizations::list_of_card,
    ),
    route(
        Get,
        "/cards/{id}/transactions",
        Read,
        handlers::authorizations::transactions_of_card,
    ),
    route(
        Get,
        "/cards/{id}/spending",
        Read,
        handlers::authorizations::spending,
    ),
    route(Get, "/authorizations", Read, handlers::authorizations::list),
    route(
        Get,
        "/authorizations/{id}",
        Read,
        handlers::authorizations::get,
    ),
    with_body(
        Post,
        "/authorizations/{id}/capture",
        handlers::authorizations::capture,
        handlers::authorizations::check_amount,
    ),
    with_body(
        Post,
        "/authorizations/{id}/reverse",
        handlers::authorizations::reverse,
        handlers::authorizations::check_amount,
    ),
    with_body(
        Post,
        "/authorizations/{id}/increment",
        handlers::authorizations::increment,
        handlers::authorizations::check_increment,
    ),
    with_body(
        Post,
        "/authorizations/{id}/refund",
        handlers::authorizations::refund,
        handlers::authorizations::check_amount,
    ),
    route(
        Get,
        "/card-transactions",
        Read,
        handlers::authorizations::transactions,
    ),
    route(
        Get,
        "/card-transactions/{id}",
        Read,
        handlers::authorizations::transaction,
    ),
    route(Get, "/test-clock", Read, handlers::test_clock::get),
    with_body(
        Post,
        "/test-clock/advance",
        handlers::test_clock::advance,
        handlers::test_clock::check_advance,
    ),
    with_body(
        Post,
        "/card-transactions/{id}/disputes",
        handlers::disputes::create,
        handlers::disputes::check_create,
    ),
    route(Get, "/disputes", Read, handlers::disputes::list),
    route(Get, "/disputes/{id}", Read, handlers::disputes::get),
    with_body(
        Post,
        "/disputes/{id}/resolve",
        handlers::disputes::resolve,
        handlers::disputes::check_resolve,
    ),
    route(
        Get,
        "/authorization-endpoint",
        Read,
        handlers::authorization_endpoint::get,
    ),
    with_body(
        Put,
        "/authorization-endpoint",
        handlers::authorization_endpoint::put,
        handlers::authorization_endpoint::check_put,
    ),
    route(
        Delete,
        "/authorization-endpoint",
        Write,
        handlers::authorization_endpoint::delete,
    ),
    route(
        Post,
        "/authorization-endpoint/rotate-secret",
        Write,
        handlers::authorization_endpoint::rotate_secret,
    ),
    route(Get, "/events", Read, handlers::events::list),
    route(Get, "/events/{id}", Read, handlers::events::get),
    route(Get, "/webhook-endpoints", Read, handlers::webhooks::list),
    with_body(
        Post,
        "/webhook-endpoints",
        handlers::webhooks::create,
        handlers::webhooks::check_create,
    ),
    route(
        Get,
        "/webhook-endpoints/{id}",
        Read,
        handlers::webhooks::get,
    ),
    with_body(
        Put,
        "/webhook-endpoints/{id}",
        handlers::webhooks::update,
        handlers::webhooks::check_update,
    ),
    route(
        Delete,
        "/webhook-endpoints/{id}",
        Write,
        handlers::webhooks::delete,
    ),
    route(
        Post,
        "/webhook-endpoints/{id}/rotate-secret",
        Write,
        handlers::webhooks::rotate_secret,
    ),
    route(
        Get,
        "/webhook-endpoints/{id}/deliveries",
        Read,
        handlers::webhooks::deliveries,
    ),
    with_body(
        Post,
        "/webhook-endpoints/{id}/replay",
        handlers::webhooks::replay,
        handlers::webhooks::check_replay,
    ),
    // Sends a signed ping before its write (which only checks the endpoint is still there).
    asking(
        route(
            Post,
            "/webhook-endpoints/{id}/test",
            Write,
            handlers::webhooks::test,
        ),
        handlers::webhooks::ask_test,
    ),
    route(
        Post,
        "/webhook-deliveries/{id}/retry",
        Write,
        handlers::webhooks::retry,
    ),
    route(Get, "/api-keys", Read, handlers::api_keys::list),
    with_body(
        Post,
        "/api-keys",
        handlers::api_keys::create,
        handlers::api_keys::check_create,
    ),
    route(Delete, "/api-keys/{id}", Write, handlers::api_keys::revoke),
    route(Get, "/audit-events", Read, handlers::audit::list),
    route(Get, "/audit-events/{id}", Read, handlers::audit::get),
];

/// What a key needs for a route, by path: each route belongs to the resource of its longest listed
/// prefix (a whole number of segments), at the level of its access (a read needs `read`, a write
/// `write`). Card tokens and reveals need `reveal` whatever else the key holds.
enum Grant {
    Reveal,
    Of(Resource),
}

static GRANTS: &[(&str, Grant)] = &[
    ("/cards/{id}/token", Grant::Reveal),
    ("/cards/{id}/reveal", Grant::Reveal),
    (
        "/cards/{id}/authorizations",
        Grant::Of(Resource::Authorizations),
    ),
    (
        "/cards/{id}/transactions",
        Grant::Of(Resource::Authorizations),
    ),
    ("/cards", Grant::Of(Resource::Cards)),
    ("/accounts", Grant::Of(Resource::Accounts)),
    ("/card-holders", Grant::Of(Resource::CardHolders)),
    ("/authorizations", Grant::Of(Resource::Authorizations)),
    (
        "/card-transactions/{id}/disputes",
        Grant::Of(Resource::Disputes),
    ),
    ("/card-transactions", Grant::Of(Resource::Authorizations)),
    ("/disputes", Grant::Of(Resource::Disputes)),
    ("/events", Grant::Of(Resource::Events)),
    ("/test-clock", Grant::Of(Resource::TestClock)),
    ("/webhook-endpoints", Grant::Of(Resource::Webhooks)),
    ("/webhook-deliveries", Grant::Of(Resource::Webhooks)),
    // Where the service asks about authorizations is configured like a webhook.
    ("/authorization-endpoint", Grant::Of(Resource::Webhooks)),
    ("/api-keys", Grant::Of(Resource::ApiKeys)),
    ("/audit-events", Grant::Of(Resource::Audit)),
];

/// The grant `route` needs; None for public routes. A key route missing from [`GRANTS`] needs
/// `api_keys:write` (the administrator's), so a new route is never open by omission.
fn need_of(route: &Route) -> Option<Need> {
    if route.auth == Auth::Public {
        return None;
    }
    let level = match route.access {
        Access::Read => Level::Read,
        Access::Write => Level::Write,
    };
    let under = |prefix: &str| {
        route.path == prefix
            || route
                .path
                .strip_prefix(prefix)
                .is_some_and(|rest| rest.starts_with('/'))
    };
    let grant = GRANTS
        .iter()
        .filter(|(prefix, _)| under(prefix))
        .max_by_key(|(prefix, _)| prefix.len())
        .map(|(_, g)| g);
    Some(match grant {
        Some(Grant::Reveal) => Need::Reveal,
        Some(Grant::Of(r)) => Need::Resource(*r, level),
        None => Need::Resource(Resource::ApiKeys, Level::Write),
    })
}

/// [`need_of`] for every row, computed once.
fn needs() -> &'static [Option<Need>] {
    static NEEDS: OnceLock<Vec<Option<Need>>> = OnceLock::new();
    NEEDS.get_or_init(|| ROUTES.iter().map(need_of).collect())
}

/// The rows of one path, by index into [`ROUTES`].
fn router() -> &'static matchit::Router<Vec<usize>> {
    static ROUTER: OnceLock<matchit::Router<Vec<usize>>> = OnceLock::new();
    ROUTER.get_or_init(|| {
        let mut paths: Vec<(&str, Vec<usize>)> = Vec::new();
        for (i, r) in ROUTES.iter().enumerate() {
            match paths.iter_mut().find(|(p, _)| *p == r.path) {
                Some((_, rows)) => rows.push(i),
                None => paths.push((r.path, vec![i])),
            }
        }
        let mut router = matchit::Router::new();
        for (path, rows) in paths {
            // The table is static and checked by a test, so an insert cannot fail at run time.
            let _ = router.insert(path, rows);
        }
        router
    })
}

/// A request matched against the table: the route (or the error to answer) and its path parameters.
#[derive(Debug, Clone)]
pub struct Prepared {
    matched: Result<usize, ApiError>,
    pub id: String,
    pub sub: String,
}

impl Prepared {
    pub fn new(req: &Request) -> Prepared {
        let Ok(m) = router().at(&req.path) else {
            return Prepared::error(ApiError::NotFound("Route"));
        };
        // HEAD is GET without the body (the host drops it).
        let method = match req.method {
            Method::Head => Method::Get,
            m => m,
        };
        let rows = m.value;
        let matched = rows
            .iter()
            .copied()
            .find(|&i| ROUTES[i].method == method)
            .ok_or_else(|| ApiError::MethodNotAllowed(allow(rows)));
        Prepared {
            matched,
            id: m.params.get("id").unwrap_or_default().to_string(),
            sub: m.params.get("sub").unwrap_or_default().to_string(),
        }
    }

    fn error(e: ApiError) -> Prepared {
        Prepared {
            matched: Err(e),
            id: String::new(),
            sub: String::new(),
        }
    }

    /// The matched row, or the 404/405 to answer.
    pub fn route(&self) -> Result<&'static Route, ApiError> {
        self.matched.clone().map(|i| &ROUTES[i])
    }

    /// Reads run on a read-only transaction; writes, and requests answered with an error before
    /// any handler runs, say so here.
    pub fn access(&self) -> Access {
        match &self.matched {
            Ok(i) => ROUTES[*i].access,
            Err(_) => Access::Read,
        }
    }

    /// Whether the route asks an outside endpoint before its write: the host runs
    /// `Service::ask`, performs what it returns, and puts the outcome on the request.
    pub fn asks(&self) -> bool {
        matches!(&self.matched, Ok(i) if ROUTES[*i].ask.is_some())
    }
}

impl Prepared {
    /// What the calling key needs for this route (None: public, or no route matched).
    pub fn need(&self) -> Option<Need> {
        match &self.matched {
            Ok(i) => needs()[*i],
            Err(_) => None,
        }
    }

    /// What the pipeline records of this route's calls in the audit trail: card tokens and reveals,
    /// refused ones included. (Key changes are recorded by their handlers.)
    pub fn audit_action(&self) -> Option<AuditAction> {
        let route = self.route().ok()?;
        match route.path {
            "/cards/{id}/token" => Some(AuditAction::CardTokenCreated),
            "/cards/{id}/reveal" => Some(AuditAction::CardRevealed),
            _ => None,
        }
    }

    /// Whether the pipeline records this route's calls, refusals included.
    pub fn audited(&self) -> bool {
        self.audit_action().is_some()
    }

    /// A read of one record by id (its path ends in a parameter) or a public route: a few keys, so a
    /// host may run it where the connection runs rather than hand it to a thread pool. Lists scan.
    pub fn reads_few(&self) -> bool {
        match &self.matched {
            Ok(i) => {
                let r = &ROUTES[*i];
                r.access == Access::Read && (r.path.ends_with('}') || r.auth == Auth::Public)
            }
            // Answered from the table alone.
            Err(_) => true,
        }
    }
}

/// The route template a path matches (`/cards/{id}`), or `unmatched`: what logs and metrics name a
/// request by, never the raw path (which holds ids, and would give metrics a label per record).
pub fn template(path: &str) -> &'static str {
    match router().at(path) {
        Ok(m) => m.value.first().map_or("unmatched", |&i| ROUTES[i].path),
        Err(_) => "unmatched",
    }
}

fn allow(rows: &[usize]) -> String {
    let mut methods: Vec<&str> = rows.iter().map(|&i| ROUTES[i].method.as_str()).collect();
    if methods.contains(&"GET") {
        methods.push("HEAD");
    }
    methods.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_reachable_and_unique() {
        for (i, r) in ROUTES.iter().enumerate() {
            let concrete = r.path.replace("{id}", "a").replace("{sub}", "b");
            let req = Request::new(r.method, &concrete);
            let p = Prepared::new(&req);
            assert_eq!(p.matched, Ok(i), "{} {}", r.method, r.path);
        }
        assert!(
            Prepared::new(&Request::new(Method::Get, "/nope"))
                .route()
                .is_err()
        );
    }

    #[test]
    fn every_key_route_names_its_grant() {
        for r in ROUTES.iter().filter(|r| r.auth == Auth::Key) {
            let listed = GRANTS.iter().any(|(p, _)| {
                r.path == *p || r.path.strip_prefix(p).is_some_and(|x| x.starts_with('/'))
            });
            assert!(listed, "{} {} has no entry in GRANTS", r.method, r.path);
        }
        let need = |m, p| Prepared::new(&Request::new(m, p)).need();
        assert_eq!(need(Method::Get, "/health"), None);
        assert_eq!(
            need(Method::Get, "/cards/x"),
            Some(Need::Resource(Resource::Cards, Level::Read))
        );
        assert_eq!(
            need(Method::Post, "/cards/x/fund"),
            Some(Need::Resource(Resource::Cards, Level::Write))
        );
        assert_eq!(need(Method::Post, "/cards/x/token"), Some(Need::Reveal));
        assert_eq!(need(Method::Get, "/cards/x/reveal"), Some(Need::Reveal));
        assert_eq!(
            need(Method::Post, "/cards/x/authorizations"),
            Some(Need::Resource(Resource::Authorizations, Level::Write))
        );
        assert_eq!(
            need(Method::Post, "/card-transactions/x/disputes"),
            Some(Need::Resource(Resource::Disputes, Level::Write))
        );
        assert_eq!(
            need(Method::Get, "/accounts/transfers"),
            Some(Need::Resource(Resource::Accounts, Level::Read))
        );
    }

    #[test]
    fn templates_name_the_route_not_the_path() {
        assert_eq!(template("/cards/0123"), "/cards/{id}");
        assert_eq!(template("/cards"), "/cards");
        assert_eq!(template("/nope/x"), "unmatched");
    }

    #[test]
    fn transfers_are_not_an_account_id() {
        let path_of = |m, p| {
            Prepared::new(&Request::new(m, p))
                .route()
                .map(|r| r.path)
                .ok()
        };
        assert_eq!(
            path_of(Method::Get, "/accounts/transfers"),
            Some("/accounts/transfers")
        );
        assert_eq!(
            path_of(Method::Post, "/accounts/transfers"),
            Some("/accounts/transfers")
        );
        assert_eq!(
            path_of(Method::Get, "/accounts/transfers/x"),
            Some("/accounts/transfers/{id}")
        );
        assert_eq!(path_of(Method::Get, "/accounts/x"), Some("/accounts/{id}"));
        assert_eq!(
            path_of(Method::Get, "/accounts/x/transactions"),
            Some("/accounts/{id}/transactions")
        );
        // Not an account's PUT: the transfers path knows GET and POST only.
        assert_eq!(
            Prepared::new(&Request::new(Method::Put, "/accounts/transfers"))
                .route()
                .err(),
            Some(ApiError::MethodNotAllowed("GET, POST, HEAD".into()))
        );
    }

    #[test]
    fn wrong_method_lists_the_rows_of_the_path() {
        let p = Prepared::new(&Request::new(Method::Patch, "/cards/x"));
        assert_eq!(
            p.route().err(),
            Some(ApiError::MethodNotAllowed("GET, PUT, DELETE, HEAD".into()))
        );
        let head = Prepared::new(&Request::new(Method::Head, "/cards/x"));
        assert_eq!(head.route().unwrap().method, Method::Get);
        assert_eq!(head.access(), Access::Read);
    }

    #[test]
    fn reads_of_one_record_are_few_and_lists_are_not() {
        let few = |m, p| Prepared::new(&Request::new(m, p)).reads_few();
        assert!(few(Method::Get, "/cards/x"));
        assert!(few(Method::Get, "/health"));
        assert!(few(Method::Get, "/card-holders/x/files/y"));
        assert!(few(Method::Get, "/nope"));
        assert!(!few(Method::Get, "/cards"));
        assert!(!few(Method::Get, "/accounts/transfers"));
        assert!(few(Method::Get, "/accounts/transfers/x"));
        assert!(!few(Method::Get, "/accounts/x/transactions"));
        assert!(!few(Method::Get, "/accounts/x/details"));
        assert!(!few(Method::Put, "/cards/x"));
        assert!(!few(Method::Get, "/cards/x/reveal"));
    }
}
