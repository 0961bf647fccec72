//! /webhook-endpoints and /webhook-deliveries: where a client's events are pushed, and how each
//! push went (ARCHITECTURE.md, "Webhooks").

use serde_json::{Map, json};

use super::{Call, Command, command, to_value};
use crate::callout::{CallOut, Reply};
use crate::domain::push::signature::{self, Secret};
use crate::domain::vault::Vault;
use crate::domain::webhooks::deliveries::Attempt;
use crate::domain::webhooks::{self, deliveries, endpoints};
use crate::env::Timestamp;
use crate::error::{ApiError, ApiResult};
use crate::http::listing::Records;
use crate::http::views::{self, AttemptView, WebhookDeliveryView, WebhookEndpointView};
use crate::http::{Response, parse, reply};

/// Endpoint secrets are sealed with the vault key: without one, endpoints cannot be made.
fn vault(c: &mut Call) -> ApiResult<Vault> {
    let vault = c.config.vault().ok_or_else(|| ApiError::NotConfigured {
        code: crate::domain::vault::NOT_CONFIGURED,
        message: "no vault key is configured (native: --vault-key or CARDS_VAULT_KEY; \
                  Spin: the variable vault_key), so webhook secrets cannot be sealed"
            .into(),
    })?;
    vault.check_key(c.scope.tx)?;
    Ok(vault)
}

fn new_endpoint(c: &mut Call) -> ApiResult<endpoints::NewEndpoint> {
    let mut new = parse::webhooks::create(c.json_body()?)?;
    // Stored as the parser normalised it: the URL checked is the URL called.
    new.url = webhooks::check_url(c.config.url_policy, &new.url, "url")?.url;
    Ok(new)
}

fn endpoint_update(c: &mut Call) -> ApiResult<endpoints::EndpointUpdate> {
    let mut update = parse::webhooks::update(c.json_body()?)?;
    if let Some(url) = &update.url {
        update.url = Some(webhooks::check_url(c.config.url_policy, url, "url")?.url);
    }
    Ok(update)
}

pub fn check_create(c: &mut Call) -> ApiResult<Command> {
    command(new_endpoint(c)?)
}

pub fn create(c: &mut Call) -> ApiResult<Response> {
    let new = c.command::<endpoints::NewEndpoint>()?.clone();
    let vault = vault(c)?;
    let (endpoint, secret) = endpoints::create(&mut c.scope, &vault, new)?;
    let secret = secret.to_whsec();
    Ok(reply::created(
        "Webhook endpoint created successfully",
        &WebhookEndpointView::new(&endpoint, Some(&secret)),
    ))
}

pub fn get(c: &mut Call) -> ApiResult<Response> {
    let endpoint = endpoints::get(&mut c.scope, &c.route.id)?;
    Ok(reply::ok(
        "Webhook endpoint fetched successfully",
        &WebhookEndpointView::from(&endpoint),
    ))
}

pub fn list(c: &mut Call) -> ApiResult<Response> {
    let q = c.list_query(&views::WEBHOOK_ENDPOINT)?;
    let page = q.run(
        &mut Records::new(&mut c.scope, |_, e| to_value(WebhookEndpointView::from(&e))),
        None,
    )?;
    Ok(reply::list(
        "Webhook endpoints fetched successfully",
        &q,
        page,
    ))
}

pub fn check_update(c: &mut Call) -> ApiResult<Command> {
    command(endpoint_update(c)?)
}

pub fn update(c: &mut Call) -> ApiResult<Response> {
    let update = c.command::<endpoints::EndpointUpdate>()?.clone();
    let endpoint = endpoints::update(&mut c.scope, &c.route.id, update)?;
    Ok(reply::ok(
        "Webhook endpoint updated successfully",
        &WebhookEndpointView::from(&endpoint),
    ))
}

pub fn delete(c: &mut Call) -> ApiResult<Response> {
    let endpoint = crate::domain::outbox::delete_endpoint(&mut c.scope, &c.route.id)?;
    Ok(reply::ok(
        "Webhook endpoint deleted successfully",
        &WebhookEndpointView::from(&endpoint),
    ))
}

pub fn rotate_secret(c: &mut Call) -> ApiResult<Response> {
    let vault = vault(c)?;
    let (endpoint, secret) = endpoints::rotate(&mut c.scope, &vault, &c.route.id)?;
    let secret = secret.to_whsec();
    Ok(reply::ok(
        "Webhook endpoint secret rotated; the previous secret signs beside it for 24 hours",
        &WebhookEndpointView::new(&endpoint, Some(&secret)),
    ))
}

pub fn deliveries(c: &mut Call) -> ApiResult<Response> {
    let endpoint = endpoints::get(&mut c.scope, &c.route.id)?.id;
    let q = c.list_query(&views::WEBHOOK_DELIVERY)?;
    let page = q.run(
        &mut Records::new(&mut c.scope, |_, d| to_value(WebhookDeliveryView::from(&d))),
        Some(("endpointId", endpoint.as_str())),
    )?;
    Ok(reply::list(
        "Webhook deliveries fetched successfully",
        &q,
        page,
    ))
}

pub fn retry(c: &mut Call) -> ApiResult<Response> {
    let delivery = deliveries::retry(&mut c.scope, &c.route.id)?;
    Ok(reply::ok(
        "Webhook delivery queued to be sent now",
        &WebhookDeliveryView::from(&delivery),
    ))
}

fn replay_window(c: &mut Call) -> ApiResult<(Timestamp, Timestamp)> {
    let body = if c.req.body.is_empty() {
        Map::new()
    } else {
        c.json_body()?
    };
    parse::webhooks::replay(body, c.scope.now)
}

/// The window is judged against the caller's clock when the body is parsed (its default end is
/// that instant).
pub fn check_replay(c: &mut Call) -> ApiResult<Command> {
    command(replay_window(c)?)
}

pub fn replay(c: &mut Call) -> ApiResult<Response> {
    let (from, to) = *c.command::<(Timestamp, Timestamp)>()?;
    let endpoint = endpoints::get(&mut c.scope, &c.route.id)?;
    let queued = deliveries::replay(&mut c.scope, &endpoint, from, to)?;
    Ok(reply::ok(
        "Webhook events queued again",
        &json!({ "queued": queued }),
    ))
}

/// The event type of a test ping: sent at once, never stored, so never listed in `/events`.
pub const PING: &str = "ping";
/// A ping waits as long as a delivery attempt: any 2xx within 10 s succeeds.
pub const PING_TIMEOUT_MS: u64 = 10_000;

/// The signed `ping` `POST /webhook-endpoints/{id}/test` sends (`crate::callout`): signed and shaped
/// as a delivery is (`{_id, type, data: {object}, createdAt}`), with the endpoint's current secrets.
pub fn ask_test(c: &mut Call) -> ApiResult<Option<CallOut>> {
    let endpoint = endpoints::get(&mut c.scope, &c.route.id)?;
    let vault = vault(c)?;
    let secrets = endpoints::signing_secrets(&vault, &endpoint, c.scope.now)?;
    let event_id = c.scope.new_id();
    let body = json!({
        "_id": event_id,
        "type": PING,
        "data": {"object": {"endpointId": endpoint.id}},
        "createdAt": c.scope.now.to_rfc3339(),
    });
    let body = serde_json::to_vec(&body)
        .map_err(|e| ApiError::internal(format!("cannot serialize a ping: {e}")))?;
    let signing: Vec<&Secret> = secrets.iter().collect();
    let mut headers = vec![("content-type".to_string(), "application/json".to_string())];
    // Receivers compare the timestamp with their own clock: the host's, not the client's.
    headers.extend(
        signature::headers(&signing, &event_id, c.scope.env.now().seconds(), &body)
            .into_iter()
            .map(|(name, value)| (name.to_string(), value)),
    );
    Ok(Some(CallOut {
        url: endpoint.url,
        headers,
        body,
        timeout_ms: PING_TIMEOUT_MS,
        context: event_id,
    }))
}

/// 200 with the ping's attempt, as a delivery's attempts read; it leaves no record. A host that did
/// not send it (one without outbound HTTP) answers an attempt that says so.
pub fn test(c: &mut Call) -> ApiResult<Response> {
    // Deleted between the ask and the write: 404, as for any write to it.
    endpoints::get(&mut c.scope, &c.route.id)?;
    let attempt = match c.req.asked.as_ref() {
        Some(asked) => {
            let (status, error) = match &asked.reply {
                Reply::Answer { status, .. } => (Some(*status), None),
                Reply::Timeout => (None, Some("timed out".to_string())),
                Reply::Error(why) => (None, Some(why.clone())),
            };
            Attempt {
                at: c.scope.now,
                status,
                duration_ms: asked.latency_ms,
                error,
            }
        }
        None => Attempt {
            at: c.scope.now,
            status: None,
            duration_ms: 0,
            error: Some("not sent: this host does not send webhooks".into()),
        },
    };
    Ok(reply::ok(
        "Webhook endpoint pinged",
        &AttemptView::from(&attempt),
    ))
}
