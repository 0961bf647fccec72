//! The route table: every route is ONE declaration in [`ROUTES`] holding all that is said of it: how
//! it is matched and run (method, path, access, handler, body check, call-out), what the calling key
//! needs, what the audit trail records, and its OpenAPI operation (name, tag, body, answers). A
//! request is matched once into a [`Prepared`] route, which tells the host what kind of transaction
//! to open and tells the pipeline which handler to run. A known path with another method answers 405
//! with `Allow` built from the same rows; `HEAD` is served wherever `GET` is.

use std::sync::OnceLock;

use super::handlers::{self, Ask, Check, Handler};
use super::openapi::{Body, Link, Operation, Success};
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
    /// What the calling key needs (None for a public route). Every constructor of a key route takes
    /// it, so a key route without one cannot be declared.
    pub need: Option<Need>,
    pub handler: Handler,
    /// The part of a write handler that judges the body (reading at most the records it must find
    /// first), so a host can refuse a bad body before it queues the write. The handler runs it too.
    pub check: Option<Check>,
    /// For a write that asks an outside endpoint first (`crate::callout`): what to ask, judged on a
    /// read-only snapshot before the write is queued. The handler finds the answer in `Request::asked`.
    pub ask: Option<Ask>,
    /// What the pipeline records of every call in the audit trail, refusals included (card tokens
    /// and reveals; key changes are recorded by their handlers).
    pub audit: Option<AuditAction>,
    /// The route in the OpenAPI document.
    pub op: Operation,
}

/// A route before its OpenAPI operation is given: [`Draft::op`] makes it a [`Route`], so a route
/// cannot be declared without one.
struct Draft(Route);

const fn draft(
    method: Method,
    path: &'static str,
    access: Access,
    need: Option<Need>,
    handler: Handler,
) -> Draft {
    Draft(Route {
        method,
        path,
        access,
        auth: if need.is_some() {
            Auth::Key
        } else {
            Auth::Public
        },
        need,
        handler,
        check: None,
        ask: None,
        audit: None,
        op: Operation {
            id: "",
            tag: "",
            summary: "",
            body: Body::None,
            success: Success::OpenApi,
            errors: &[],
            links: &[],
        },
    })
}

/// A GET anyone may call.
const fn public(path: &'static str, handler: Handler) -> Draft {
    draft(Method::Get, path, Access::Read, None, handler)
}

/// A GET that needs `read` on `resource`.
const fn read(path: &'static str, resource: Resource, handler: Handler) -> Draft {
    draft(
        Method::Get,
        path,
        Access::Read,
        Some(Need::Resource(resource, Level::Read)),
        handler,
    )
}

/// A write that needs `write` on `resource`.
const fn write(method: Method, path: &'static str, resource: Resource, handler: Handler) -> Draft {
    draft(
        method,
        path,
        Access::Write,
        Some(Need::Resource(resource, Level::Write)),
        handler,
    )
}

/// A write that needs the `reveal` grant whatever else the key holds (a card token, a reveal), and
/// whose every call, a refused one too, is recorded as `audit`.
const fn reveal(method: Method, path: &'static str, handler: Handler, audit: AuditAction) -> Draft {
    let mut d = draft(method, path, Access::Write, Some(Need::Reveal), handler);
    d.0.audit = Some(audit);
    d
}

impl Draft {
    /// The request body the route takes, and its check.
    const fn body(mut self, body: Body, check: Check) -> Draft {
        self.0.op.body = body;
        self.0.check = Some(check);
        self
    }

    /// What the route asks an outside endpoint before it writes (`crate::callout`).
    const fn asks(mut self, ask: Ask) -> Draft {
        self.0.ask = Some(ask);
        self
    }

    /// The OpenAPI operation: its id, tag, what a success answers, and its summary.
    const fn op(
        self,
        id: &'static str,
        tag: &'static str,
        success: Success,
        summary: &'static str,
    ) -> Route {
        let mut r = self.0;
        r.op.id = id;
        r.op.tag = tag;
        r.op.success = success;
        r.op.summary = summary;
        r
    }
}

impl Route {
    /// Statuses this route may answer besides the ones of its kind (auth, body, write, `{id}`).
    const fn errors(mut self, errors: &'static [u16]) -> Route {
        self.op.errors = errors;
        self
    }

    /// The OpenAPI links of a success.
    const fn links(mut self, links: &'static [Link]) -> Route {
        self.op.links = links;
        self
    }
}

/// The id of the record a create answers (a link's runtime expression).
const NEW_ID: &str = "$response.body#/data/_id";

/// A link to `op` on the record the route created.
const fn on_new(op: &'static str) -> Link {
    Link {
        name: op,
        op,
        parameters: &[("path.id", NEW_ID)],
        body: &[],
    }
}

/// A link to `op` on a record created under the request's (`/accounts/{id}/details/{sub}`).
const fn on_new_sub(op: &'static str) -> Link {
    Link {
        name: op,
        op,
        parameters: &[("path.id", "$request.path.id"), ("path.sub", NEW_ID)],
        body: &[],
    }
}

/// A link named `name` that creates a record with `op` from these body fields (naming the record the
/// route created).
const fn create_from(
    name: &'static str,
    op: &'static str,
    body: &'static [(&'static str, &'static str)],
) -> Link {
    Link {
        name,
        op,
        parameters: &[],
        body,
    }
}

// OpenAPI tags.
const SERVICE: &str = "Service";
const ACCOUNTS: &str = "Accounts";
const DETAILS: &str = "Account details";
const HOLDERS: &str = "Card holders";
const CARDS: &str = "Cards";
const SPEND: &str = "Card spend";
const DISPUTES: &str = "Disputes";
const SIMULATE: &str = "Simulate";
const DECISIONS: &str = "Real-time decisions";
const EVENTS: &str = "Events";
const WEBHOOKS: &str = "Webhooks";
const KEYS: &str = "API keys";
const AUDIT: &str = "Audit";

use AuditAction::{CardRevealed, CardTokenCreated};
use Body::{CardHolder as Multipart, Json, OptionalJson};
use Method::{Delete, Get, Post, Put};
use Resource::{
    Accounts, ApiKeys, Audit, Authorizations, CardHolders, Cards, Disputes, Events, TestClock,
    Webhooks,
};
use Success::{Bare, Data, File, List, OpenApi};
use handlers::{
    account_details as details, accounts, api_keys, audit, authorization_endpoint as decisions,
    authorizations, card_holders as holders, cards, disputes, events, test_clock, transfers,
    webhooks,
};

// The order of the rows is the order of the paths in the OpenAPI document.
#[rustfmt::skip]
pub static ROUTES: &[Route] = &[
    public("/health", handlers::health)
        .op("health", SERVICE, Data(200, "Health"), "Whether the service can serve").errors(&[503]),
    public("/openapi.json", super::openapi::serve)
        .op("openapi", SERVICE, OpenApi, "This OpenAPI document"),

    read("/accounts", Accounts, accounts::list)
        .op("listAccounts", ACCOUNTS, List("Account"), "List accounts"),
    // A static segment wins over `{id}` in the router, so these never reach /accounts/{id}.
    read("/accounts/transfers", Accounts, transfers::list)
        .op("listTransfers", ACCOUNTS, List("Transfer"), "List transfers between accounts"),
    write(Post, "/accounts/transfers", Accounts, transfers::create)
        .body(Json("TransferCreate"), transfers::check_create)
        .op("createTransfer", ACCOUNTS, Data(201, "Transfer"),
            "Move money between two of the caller's accounts (one ledger entry on each)")
        .errors(&[404, 409, 422])
        .links(&[on_new("getTransfer")]),
    read("/accounts/transfers/{id}", Accounts, transfers::get)
        .op("getTransfer", ACCOUNTS, Data(200, "Transfer"), "Get a transfer"),
    write(Post, "/accounts", Accounts, accounts::create)
        .body(Json("AccountCreate"), accounts::check_create)
        .op("createAccount", ACCOUNTS, Data(201, "Account"),
            "Create an account (an opening balance is recorded as a ledger entry)")
        .links(&[
            on_new("getAccount"), on_new("updateAccount"), on_new("listAccountTransactions"),
            on_new("listAccountDetails"), on_new("createAccountDetail"),
            create_from("createCardFromAccount", "createCard", &[("debitAccountId", NEW_ID)]),
        ]),
    read("/accounts/{id}", Accounts, accounts::get)
        .op("getAccount", ACCOUNTS, Data(200, "Account"), "Get an account"),
    write(Put, "/accounts/{id}", Accounts, accounts::update)
        .body(Json("AccountUpdate"), accounts::check_update)
        .op("updateAccount", ACCOUNTS, Data(200, "Account"), "Update an account").errors(&[409, 422]),
    read("/accounts/{id}/transactions", Accounts, accounts::transactions)
        .op("listAccountTransactions", ACCOUNTS, List("LedgerEntry"), "List an account's ledger entries"),

    read("/accounts/{id}/details", Accounts, details::list)
        .op("listAccountDetails", DETAILS, List("AccountDetail"), "List an account's payout details"),
    write(Post, "/accounts/{id}/details", Accounts, details::create)
        .body(Json("AccountDetailCreate"), details::check_create)
        .op("createAccountDetail", DETAILS, Data(201, "AccountDetail"), "Add payout details to an account")
        .links(&[
            on_new_sub("getAccountDetail"), on_new_sub("updateAccountDetail"), on_new_sub("deleteAccountDetail"),
        ]),
    read("/accounts/{id}/details/{sub}", Accounts, details::get)
        .op("getAccountDetail", DETAILS, Data(200, "AccountDetail"), "Get payout details"),
    write(Put, "/accounts/{id}/details/{sub}", Accounts, details::update)
        .body(Json("AccountDetailUpdate"), details::check_update)
        .op("updateAccountDetail", DETAILS, Data(200, "AccountDetail"), "Update payout details"),
    write(Delete, "/accounts/{id}/details/{sub}", Accounts, details::delete)
        .op("deleteAccountDetail", DETAILS, Data(200, "AccountDetail"), "Delete payout details"),

    read("/card-holders", CardHolders, holders::list)
        .op("listCardHolders", HOLDERS, List("CardHolder"), "List card holders"),
    write(Post, "/card-holders", CardHolders, holders::create)
        .body(Multipart, holders::check_create)
        .op("createCardHolder", HOLDERS, Data(201, "CardHolder"),
            "Create a card holder, with identity documents as multipart files")
        .links(&[
            on_new("getCardHolder"), on_new("updateCardHolder"),
            create_from("createCardForHolder", "createCard", &[("cardHolderId", NEW_ID)]),
            // An account the holder owns.
            create_from("createAccountForHolder", "createAccount", &[("ownerType", "user"), ("ownerId", NEW_ID)]),
        ]),
    read("/card-holders/{id}", CardHolders, holders::get)
        .op("getCardHolder", HOLDERS, Data(200, "CardHolder"), "Get a card holder"),
    write(Put, "/card-holders/{id}", CardHolders, holders::update)
        .body(Json("CardHolderUpdate"), holders::check_update)
        .op("updateCardHolder", HOLDERS, Data(200, "CardHolder"), "Update a card holder (merged over the stored one)"),
    read("/card-holders/{id}/files/{sub}", CardHolders, holders::file)
        .op("getCardHolderFile", HOLDERS, File, "Download an uploaded file"),

    read("/cards", Cards, cards::list)
        .op("listCards", CARDS, List("Card"), "List cards (`populate=cardHolder,debitAccount`)"),
    write(Post, "/cards", Cards, cards::create)
        .body(Json("CardCreate"), cards::check_create)
        .op("createCard", CARDS, Data(201, "Card"), "Issue a card, funded from an account in the same step")
        .errors(&[404, 422])
        .links(&[
            on_new("getCard"), on_new("updateCard"), on_new("terminateCard"), on_new("createCardToken"),
            on_new("createAuthorization"), on_new("getCardSpending"),
            Link { name: "fundCard", op: "fundCard", parameters: &[("path.id", NEW_ID)],
                body: &[("debitAccountId", "$response.body#/data/debitAccountId")] },
        ]),
    read("/cards/{id}", Cards, cards::get)
        .op("getCard", CARDS, Data(200, "Card"), "Get a card"),
    write(Put, "/cards/{id}", Cards, cards::update)
        .body(Json("CardUpdate"), cards::check_update)
        .op("updateCard", CARDS, Data(200, "Card"), "Change a card's status, controls or metadata; cancel it")
        .errors(&[409, 422]),
    write(Delete, "/cards/{id}", Cards, cards::terminate)
        .op("terminateCard", CARDS, Data(200, "Card"), "Terminate a card (its balance goes back to the debit account)")
        .errors(&[409]),
    write(Post, "/cards/{id}/fund", Cards, cards::fund)
        .body(Json("CardFunding"), cards::check_fund)
        .op("fundCard", CARDS, Data(200, "Card"), "Move money from an account to a card").errors(&[409, 422]),
    reveal(Post, "/cards/{id}/token", cards::token, CardTokenCreated)
        .op("createCardToken", CARDS, Data(201, "CardToken"),
            "A short-lived single-use token to reveal the card's number")
        .errors(&[409])
        .links(&[
            Link { name: "revealCard", op: "revealCard",
                parameters: &[("path.id", "$request.path.id"), ("query.token", "$response.body#/data/token")], body: &[] },
        ]),
    // A reveal consumes its token, so this GET writes.
    reveal(Get, "/cards/{id}/reveal", cards::reveal, CardRevealed)
        .op("revealCard", CARDS, Bare("CardSecrets"), "The full card number and CVV, for a token (which it consumes)")
        .errors(&[403, 409]),

    write(Post, "/cards/{id}/authorizations", Authorizations, authorizations::create)
        .body(Json("AuthorizationCreate"), authorizations::check_create)
        .asks(authorizations::ask_create)
        .op("createAuthorization", SPEND, Data(201, "Authorization"),
            "Simulate a purchase: approved (a hold) or declined with a reason")
        .errors(&[409, 422])
        .links(&[
            on_new("getAuthorization"), on_new("captureAuthorization"), on_new("reverseAuthorization"),
            on_new("refundAuthorization"), on_new("incrementAuthorization"),
        ]),
    read("/cards/{id}/authorizations", Authorizations, authorizations::list_of_card)
        .op("listCardAuthorizations", SPEND, List("Authorization"), "List a card's authorizations"),
    read("/cards/{id}/transactions", Authorizations, authorizations::transactions_of_card)
        .op("listCardTransactionsOfCard", SPEND, List("CardTransaction"),
            "List a card's transactions (captures and refunds)"),
    // The card's own limits: read with the card.
    read("/cards/{id}/spending", Cards, authorizations::spending)
        .op("getCardSpending", SPEND, Data(200, "LimitSpendList"),
            "What each spending limit allows in its current period"),
    read("/authorizations", Authorizations, authorizations::list)
        .op("listAuthorizations", SPEND, List("Authorization"), "List authorizations"),
    read("/authorizations/{id}", Authorizations, authorizations::get)
        .op("getAuthorization", SPEND, Data(200, "Authorization"), "Get an authorization"),
    write(Post, "/authorizations/{id}/capture", Authorizations, authorizations::capture)
        .body(OptionalJson("AmountBody"), authorizations::check_amount)
        .op("captureAuthorization", SPEND, Data(200, "Authorization"),
            "Capture a pending authorization, wholly or in part")
        .errors(&[409, 422]),
    write(Post, "/authorizations/{id}/reverse", Authorizations, authorizations::reverse)
        .body(OptionalJson("AmountBody"), authorizations::check_amount)
        .op("reverseAuthorization", SPEND, Data(200, "Authorization"),
            "Release a pending authorization's hold, wholly or in part")
        .errors(&[409, 422]),
    write(Post, "/authorizations/{id}/increment", Authorizations, authorizations::increment)
        .body(Json("IncrementBody"), authorizations::check_increment)
        .op("incrementAuthorization", SPEND, Data(200, "Authorization"),
            "Raise a pending authorization's hold after the checks of a new purchase (422 with the reason when declined)")
        .errors(&[409, 422]),
    write(Post, "/authorizations/{id}/refund", Authorizations, authorizations::refund)
        .body(OptionalJson("AmountBody"), authorizations::check_amount)
        .op("refundAuthorization", SPEND, Data(200, "Authorization"), "Refund a captured amount, wholly or in part")
        .errors(&[409, 422]),
    read("/card-transactions", Authorizations, authorizations::transactions)
        .op("listCardTransactions", SPEND, List("CardTransaction"), "List card transactions"),
    read("/card-transactions/{id}", Authorizations, authorizations::transaction)
        .op("getCardTransaction", SPEND, Data(200, "CardTransaction"), "Get a card transaction"),

    read("/test-clock", TestClock, test_clock::get)
        .op("getTestClock", SIMULATE, Data(200, "TestClock"),
            "The caller's test clock: its time and how far it is ahead of the host's (404 when turned off)")
        .errors(&[404]),
    write(Post, "/test-clock/advance", TestClock, test_clock::advance)
        .body(Json("TestClockAdvance"), test_clock::check_advance)
        .op("advanceTestClock", SIMULATE, Data(200, "TestClock"),
            "Move the caller's test clock forward (at most 10 years ahead in total): holds expire, limit periods roll, tokens and idempotency records age")
        .errors(&[404]),

    write(Post, "/card-transactions/{id}/disputes", Disputes, disputes::create)
        .body(Json("DisputeCreate"), disputes::check_create)
        .op("createDispute", DISPUTES, Data(201, "Dispute"), "Dispute a capture, wholly or in part")
        .errors(&[409])
        .links(&[on_new("getDispute"), on_new("resolveDispute")]),
    read("/disputes", Disputes, disputes::list)
        .op("listDisputes", DISPUTES, List("Dispute"), "List disputes"),
    read("/disputes/{id}", Disputes, disputes::get)
        .op("getDispute", DISPUTES, Data(200, "Dispute"), "Get a dispute"),
    write(Post, "/disputes/{id}/resolve", Disputes, disputes::resolve)
        .body(Json("DisputeResolve"), disputes::check_resolve)
        .op("resolveDispute", DISPUTES, Data(200, "Dispute"),
            "Simulate the network's answer: won credits the card (a dispute_credit transaction)")
        .errors(&[409]),

    // Where the service asks about authorizations is configured like a webhook.
    read("/authorization-endpoint", Webhooks, decisions::get)
        .op("getAuthorizationEndpoint", DECISIONS, Data(200, "AuthorizationEndpoint"),
            "The caller's decision endpoint (404 when none is set); its secret is null")
        .errors(&[404]),
    write(Put, "/authorization-endpoint", Webhooks, decisions::put)
        .body(Json("AuthorizationEndpointSet"), decisions::check_put)
        .op("setAuthorizationEndpoint", DECISIONS, Data(200, "AuthorizationEndpoint"),
            "Set (or replace) the endpoint asked about each purchase the issuer's checks approve; the secret is shown when it is first set")
        .errors(&[503]),
    write(Delete, "/authorization-endpoint", Webhooks, decisions::delete)
        .op("deleteAuthorizationEndpoint", DECISIONS, Data(200, "AuthorizationEndpoint"),
            "Remove the decision endpoint: the issuer's checks alone decide again")
        .errors(&[404]),
    write(Post, "/authorization-endpoint/rotate-secret", Webhooks, decisions::rotate_secret)
        .op("rotateAuthorizationEndpointSecret", DECISIONS, Data(200, "AuthorizationEndpoint"),
            "A new signing secret (shown once); the old one signs beside it for 24 hours")
        .errors(&[404, 503]),

    read("/events", Events, events::list)
        .op("listEvents", EVENTS, List("Event"), "List events (one per change, the resource as a read returns it)"),
    read("/events/{id}", Events, events::get)
        .op("getEvent", EVENTS, Data(200, "Event"), "Get an event"),

    read("/webhook-endpoints", Webhooks, webhooks::list)
        .op("listWebhookEndpoints", WEBHOOKS, List("WebhookEndpoint"), "List webhook endpoints (secrets are never listed)"),
    write(Post, "/webhook-endpoints", Webhooks, webhooks::create)
        .body(Json("WebhookEndpointCreate"), webhooks::check_create)
        .op("createWebhookEndpoint", WEBHOOKS, Data(201, "WebhookEndpoint"),
            "Add a webhook endpoint (at most 16); its signing secret is in this answer only")
        .errors(&[409, 503])
        .links(&[
            on_new("getWebhookEndpoint"), on_new("updateWebhookEndpoint"), on_new("deleteWebhookEndpoint"),
            on_new("rotateWebhookEndpointSecret"), on_new("listWebhookDeliveries"), on_new("replayWebhookEvents"),
        ]),
    read("/webhook-endpoints/{id}", Webhooks, webhooks::get)
        .op("getWebhookEndpoint", WEBHOOKS, Data(200, "WebhookEndpoint"), "Get a webhook endpoint (`secret` is null)"),
    write(Put, "/webhook-endpoints/{id}", Webhooks, webhooks::update)
        .body(Json("WebhookEndpointUpdate"), webhooks::check_update)
        .op("updateWebhookEndpoint", WEBHOOKS, Data(200, "WebhookEndpoint"),
            "Change a webhook endpoint's URL, event types, description or status"),
    write(Delete, "/webhook-endpoints/{id}", Webhooks, webhooks::delete)
        .op("deleteWebhookEndpoint", WEBHOOKS, Data(200, "WebhookEndpoint"),
            "Delete a webhook endpoint; its pending deliveries are dropped"),
    write(Post, "/webhook-endpoints/{id}/rotate-secret", Webhooks, webhooks::rotate_secret)
        .op("rotateWebhookEndpointSecret", WEBHOOKS, Data(200, "WebhookEndpoint"),
            "A new signing secret (in this answer only); the previous one signs beside it for 24 hours")
        .errors(&[503]),
    read("/webhook-endpoints/{id}/deliveries", Webhooks, webhooks::deliveries)
        .op("listWebhookDeliveries", WEBHOOKS, List("WebhookDelivery"), "List an endpoint's deliveries with their attempts"),
    write(Post, "/webhook-endpoints/{id}/replay", Webhooks, webhooks::replay)
        .body(Json("WebhookReplay"), webhooks::check_replay)
        .op("replayWebhookEvents", WEBHOOKS, Data(200, "WebhookReplayResult"),
            "Queue again every event of a window the endpoint takes"),
    // Sends a signed ping before its write (which only checks the endpoint is still there).
    write(Post, "/webhook-endpoints/{id}/test", Webhooks, webhooks::test)
        .asks(webhooks::ask_test)
        .op("testWebhookEndpoint", WEBHOOKS, Data(200, "WebhookAttempt"),
            "Send the endpoint a signed `ping` event now and answer how that attempt went (nothing is stored)")
        .errors(&[503]),
    write(Post, "/webhook-deliveries/{id}/retry", Webhooks, webhooks::retry)
        .op("retryWebhookDelivery", WEBHOOKS, Data(200, "WebhookDelivery"), "Send a delivery again now, whatever its status"),

    read("/api-keys", ApiKeys, api_keys::list)
        .op("listApiKeys", KEYS, List("ApiKey"), "List the client's stored keys (ids and grants; never a key)"),
    write(Post, "/api-keys", ApiKeys, api_keys::create)
        .body(Json("ApiKeyCreate"), api_keys::check_create)
        .op("createApiKey", KEYS, Data(201, "ApiKeyCreated"),
            "Create a key with some of the caller's grants; the key is shown once"),
    write(Delete, "/api-keys/{id}", ApiKeys, api_keys::revoke)
        .op("revokeApiKey", KEYS, Data(200, "ApiKey"), "Revoke a stored key of the client"),

    read("/audit-events", Audit, audit::list)
        .op("listAuditEvents", AUDIT, List("AuditEvent"),
            "List the audit trail: card tokens, reveals (refused ones too) and key changes"),
    read("/audit-events/{id}", Audit, audit::get)
        .op("getAuditEvent", AUDIT, Data(200, "AuditEvent"), "Get an audit record"),
];

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
            Ok(i) => ROUTES[*i].need,
            Err(_) => None,
        }
    }

    /// What the pipeline records of this route's calls in the audit trail ([`Route::audit`]).
    pub fn audit_action(&self) -> Option<AuditAction> {
        self.route().ok()?.audit
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
    fn every_key_route_needs_a_grant_at_its_level() {
        for r in ROUTES {
            let at = |level| match r.access {
                Access::Read => level == Level::Read,
                Access::Write => level == Level::Write,
            };
            match (r.auth, r.need) {
                (Auth::Public, None) => {}
                (Auth::Key, Some(Need::Resource(_, level))) => {
                    assert!(at(level), "{} {} needs {level:?}", r.method, r.path)
                }
                // Only the audited card tokens and reveals need `reveal`.
                (Auth::Key, Some(Need::Reveal)) => assert!(r.audit.is_some()),
                _ => panic!("{} {}: {:?} with {:?}", r.method, r.path, r.auth, r.need),
            }
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
