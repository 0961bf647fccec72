//! Simulated card spend: authorizations, their capture, reversal and refund, card transactions and
//! what is left of a card's spending limits.

use rust_decimal::Decimal;
use serde_json::Map;

use serde_json::json;

use super::{Call, Command, command, emit, to_value};
use crate::callout::CallOut;
use crate::domain::authorizations::decisions::{Asking, Outcome};
use crate::domain::authorizations::{self, Authorization, Decide, endpoint, transactions};
use crate::domain::cards;
use crate::domain::events::EventType;
use crate::domain::push::signature::{self, Secret};
use crate::error::ApiError;
use crate::error::ApiResult;
use crate::http::listing::Records;
use crate::http::views::{self, AuthorizationView, CardTransactionView, LimitSpendView};
use crate::http::{Response, parse, reply};

pub fn check_create(c: &mut Call) -> ApiResult<Command> {
    command(parse::authorizations::create(c.json_body()?)?)
}

/// The `authorization.request` a decision endpoint is sent (`crate::callout`): the authorization as
/// the issuer's checks would create it on the snapshot, signed. None when there is no endpoint, the
/// purchase is forced or declined by the issuer anyway (the write answers any refusal).
pub fn ask_create(c: &mut Call) -> ApiResult<Option<CallOut>> {
    let new = c.command::<authorizations::NewAuthorization>()?.clone();
    if new.simulate_decline.is_some() {
        return Ok(None);
    }
    let Some(endpoint) = endpoint::get(&mut c.scope)? else {
        return Ok(None);
    };
    let partial = new.partial_approval_capable;
    let ttl = c.config.authorization_ttl_secs;
    // On the overlay the ask runs in: what this writes is dropped.
    let mut draft = authorizations::authorize(&mut c.scope, &c.route.id, new, ttl)?;
    if !draft.approved {
        return Ok(None);
    }
    draft.decision = None;
    let vault = super::cards::vault(c)?;
    let secrets = endpoint::signing_secrets(&c.scope, &vault, &endpoint)?;
    let secrets = secrets
        .iter()
        .map(|s| Secret::parse(s))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| ApiError::internal("a stored decision endpoint secret does not parse"))?;
    let event_id = c.scope.new_id();
    let body = to_value(json!({
        "_id": event_id,
        "type": AUTHORIZATION_REQUEST,
        "data": {
            "object": AuthorizationView::from(&draft),
            "partialApprovalCapable": partial,
        },
        "createdAt": c.scope.now.to_rfc3339(),
    }))?;
    let body = serde_json::to_vec(&body)
        .map_err(|e| ApiError::internal(format!("cannot serialize a request: {e}")))?;
    // Signatures carry the host's time: receivers compare it with their own clock.
    let at = c.scope.env.now().seconds();
    let signing: Vec<&Secret> = secrets.iter().collect();
    let mut headers = vec![("content-type".to_string(), "application/json".to_string())];
    headers.extend(
        signature::headers(&signing, &event_id, at, &body)
            .into_iter()
            .map(|(name, value)| (name.to_string(), value)),
    );
    Ok(Some(CallOut {
        url: endpoint.url,
        headers,
        body,
        timeout_ms: u64::from(endpoint.timeout_ms),
        context: draft.id,
    }))
}

/// The event type of a decision request: sent, never stored, so never listed in `/events`.
pub const AUTHORIZATION_REQUEST: &str = "authorization.request";

/// What the client's decision endpoint (if it has one) adds to this write: the answer the host got
/// before it (`Request::asked`), or none, when the fallback decides.
fn endpoint_part(c: &mut Call) -> ApiResult<Decide> {
    let Some(endpoint) = endpoint::get(&mut c.scope)? else {
        return Ok(Decide::default());
    };
    let asked = c.req.asked.as_ref();
    Ok(Decide {
        id: asked.map(|a| a.context.clone()),
        asking: Some(Asking {
            fallback: endpoint.fallback,
            outcome: asked.map(|a| Outcome::of(a, parse::decisions::answer)),
            latency_ms: asked.map_or(0, |a| a.latency_ms),
        }),
    })
}

/// 201 whether approved or declined: the decision is the resource. The issuer's checks run again
/// here, on the card as it is now, whatever the endpoint answered.
pub fn create(c: &mut Call) -> ApiResult<Response> {
    let new = c.command::<authorizations::NewAuthorization>()?.clone();
    let ttl = c.config.authorization_ttl_secs;
    let with = endpoint_part(c)?;
    let auth = authorizations::authorize_with(&mut c.scope, &c.route.id, new, ttl, with)?;
    emit(
        c,
        EventType::AuthorizationCreated,
        &AuthorizationView::from(&auth),
    )?;
    let message = if auth.approved {
        "Authorization approved"
    } else {
        "Authorization declined"
    };
    Ok(reply::created(message, &AuthorizationView::from(&auth)))
}

pub fn get(c: &mut Call) -> ApiResult<Response> {
    let auth = authorizations::get(&mut c.scope, &c.route.id)?;
    Ok(reply::ok(
        "Authorization fetched successfully",
        &AuthorizationView::from(&auth),
    ))
}

/// The authorizations, all of the client's or (`of_card`) one card's (404 for an unknown card).
fn list_authorizations(c: &mut Call, of_card: bool) -> ApiResult<Response> {
    let card = match of_card {
        true => Some(cards::get(&mut c.scope, &c.route.id)?.id),
        false => None,
    };
    let q = c.list_query(&views::AUTHORIZATION)?;
    let page = q.run(
        &mut Records::new(&mut c.scope, |s, a| {
            to_value(AuthorizationView::from(&authorizations::effective(
                a, s.now,
            )))
        }),
        card.as_deref().map(|id| ("cardId", id)),
    )?;
    Ok(reply::list("Authorizations fetched successfully", &q, page))
}

/// The card transactions, all of the client's or (`of_card`) one card's.
fn list_transactions(c: &mut Call, of_card: bool) -> ApiResult<Response> {
    let card = match of_card {
        true => Some(cards::get(&mut c.scope, &c.route.id)?.id),
        false => None,
    };
    let q = c.list_query(&views::CARD_TRANSACTION)?;
    let page = q.run(
        &mut Records::new(&mut c.scope, |_, t| to_value(CardTransactionView::from(&t))),
        card.as_deref().map(|id| ("cardId", id)),
    )?;
    Ok(reply::list(
        "Card transactions fetched successfully",
        &q,
        page,
    ))
}

pub fn list(c: &mut Call) -> ApiResult<Response> {
    list_authorizations(c, false)
}

pub fn list_of_card(c: &mut Call) -> ApiResult<Response> {
    list_authorizations(c, true)
}

pub fn transactions(c: &mut Call) -> ApiResult<Response> {
    list_transactions(c, false)
}

pub fn transactions_of_card(c: &mut Call) -> ApiResult<Response> {
    list_transactions(c, true)
}

pub fn transaction(c: &mut Call) -> ApiResult<Response> {
    let t = transactions::get(&mut c.scope, &c.route.id)?;
    Ok(reply::ok(
        "Card transaction fetched successfully",
        &CardTransactionView::from(&t),
    ))
}

pub fn spending(c: &mut Call) -> ApiResult<Response> {
    let limits = authorizations::spending(&mut c.scope, &c.route.id)?;
    let views: Vec<LimitSpendView> = limits.iter().map(LimitSpendView::from).collect();
    Ok(reply::ok("Card spending fetched successfully", &views))
}

/// The `{amount?}` body of capture, reverse and refund; no body at all means no amount.
fn amount_body(c: &mut Call) -> ApiResult<Option<Decimal>> {
    let body = if c.req.body.is_empty() {
        Map::new()
    } else {
        c.json_body()?
    };
    parse::authorizations::amount(body)
}

/// The events of a change to an authorization: it was updated, and a capture or refund made a
/// card transaction.
fn changed(
    c: &mut Call,
    auth: &Authorization,
    made: Option<&transactions::CardTransaction>,
) -> ApiResult<()> {
    emit(
        c,
        EventType::AuthorizationUpdated,
        &AuthorizationView::from(auth),
    )?;
    if let Some(tx) = made {
        emit(
            c,
            EventType::TransactionCreated,
            &CardTransactionView::from(tx),
        )?;
    }
    Ok(())
}

pub fn check_amount(c: &mut Call) -> ApiResult<Command> {
    command(amount_body(c)?)
}

pub fn capture(c: &mut Call) -> ApiResult<Response> {
    let amount = *c.command::<Option<Decimal>>()?;
    let (auth, tx) = authorizations::capture(&mut c.scope, &c.route.id, amount)?;
    changed(c, &auth, Some(&tx))?;
    Ok(reply::ok(
        "Authorization captured successfully",
        &AuthorizationView::from(&auth),
    ))
}

pub fn check_increment(c: &mut Call) -> ApiResult<Command> {
    command(parse::authorizations::increment(c.json_body()?)?)
}

/// 200 with the raised authorization; a declined increment is 422 with the reason.
pub fn increment(c: &mut Call) -> ApiResult<Response> {
    let amount = *c.command::<Decimal>()?;
    let auth = authorizations::increment(&mut c.scope, &c.route.id, amount)?;
    changed(c, &auth, None)?;
    Ok(reply::ok(
        "Authorization incremented successfully",
        &AuthorizationView::from(&auth),
    ))
}

pub fn reverse(c: &mut Call) -> ApiResult<Response> {
    let amount = *c.command::<Option<Decimal>>()?;
    let auth = authorizations::reverse(&mut c.scope, &c.route.id, amount)?;
    changed(c, &auth, None)?;
    Ok(reply::ok(
        "Authorization reversed successfully",
        &AuthorizationView::from(&auth),
    ))
}

pub fn refund(c: &mut Call) -> ApiResult<Response> {
    let amount = *c.command::<Option<Decimal>>()?;
    let (auth, tx) = authorizations::refund(&mut c.scope, &c.route.id, amount)?;
    changed(c, &auth, Some(&tx))?;
    Ok(reply::ok(
        "Authorization refunded successfully",
        &AuthorizationView::from(&auth),
    ))
}
