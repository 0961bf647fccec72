//! The bodies of the webhook endpoint routes. The URL's syntax and scheme are judged here; the
//! operator's URL policy (which depends on configuration) is applied by the handler.

use serde_json::{Map, Value};

use crate::domain::events::EventType;
use crate::domain::push::url_policy::MAX_URL;
use crate::domain::webhooks::endpoints::{ALL_EVENTS, EndpointStatus, EndpointUpdate, NewEndpoint};
use crate::env::Timestamp;
use crate::error::{ApiError, ApiResult};
use crate::http::fields::{Errors, Fields};
use crate::http::parse::input::body;

body! {
    /// POST /webhook-endpoints.
    pub struct EndpointBody = "WebhookEndpointCreate" {
        required url: "url", Text(MAX_URL),
            "https:// anywhere; http:// only to loopback. Link-local and cloud metadata \
            addresses are refused, private ranges unless the operator allows them.";
        required enabled_events: "enabledEvents", EnumSet(EventType::ALL, ALL_EVENTS, "event type"),
            "Event types, or [\"*\"] for every type (alone). \
            Duplicates are dropped.";
        optional description: "description", Text(255);
    }
}

body! {
    /// PATCH /webhook-endpoints/{id}: what is sent changes; a null `description` clears it.
    pub struct EndpointUpdateBody = "WebhookEndpointUpdate" {
        optional url: "url", Text(MAX_URL),
            "https:// anywhere; http:// only to loopback. Link-local and cloud metadata \
            addresses are refused, private ranges unless the operator allows them.";
        optional enabled_events: "enabledEvents", EnumSet(EventType::ALL, ALL_EVENTS, "event type"),
            "Event types, or [\"*\"] for every type (alone). \
            Duplicates are dropped.";
        optional description: "description", Text(255);
        optional status: "status", Enum(EndpointStatus::ALL);
    }
}

/// The URL's scheme, beyond the declared text (the operator's policy is the handler's).
fn http_url(f: &mut Fields, url: Option<String>) -> Option<String> {
    let url = url?;
    let lower = url.to_ascii_lowercase();
    if !(lower.starts_with("https://") || lower.starts_with("http://")) {
        f.error("url", "must be an http:// or https:// URL");
        return None;
    }
    Some(url)
}

pub fn create(body: Map<String, Value>) -> ApiResult<NewEndpoint> {
    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    let url = f.read(&EndpointBody::url);
    let url = http_url(&mut f, url);
    let enabled_events = f.read(&EndpointBody::enabled_events);
    let description = f.read(&EndpointBody::description);
    f.finish();
    match (url, enabled_events) {
        (Some(url), Some(enabled_events)) => errors.finish(NewEndpoint {
            url,
            enabled_events,
            description,
        }),
        _ => Err(ApiError::Validation(errors.0)),
    }
}

pub fn update(body: Map<String, Value>) -> ApiResult<EndpointUpdate> {
    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    let clear_description = f.is_null("description");
    let url = f.read(&EndpointUpdateBody::url);
    let update = EndpointUpdate {
        url: http_url(&mut f, url),
        enabled_events: f.read(&EndpointUpdateBody::enabled_events),
        description: match f.read(&EndpointUpdateBody::description) {
            Some(d) => Some(Some(d)),
            None if clear_description => Some(None),
            None => None,
        },
        status: f
            .read(&EndpointUpdateBody::status)
            .and_then(|s| EndpointStatus::parse(&s)),
    };
    f.finish();
    errors.finish(update)
}

body! {
    /// POST /webhook-endpoints/{id}/replay.
    pub struct ReplayBody = "WebhookReplay" {
        required from: "from", Time, "Before `to` (so, with no `to`, in the past).";
        optional to: "to", Time, "Default: now.";
    }
}

/// `{from, to?}`: RFC 3339 instants, `from` before `to` (default: now, given by the caller).
pub fn replay(body: Map<String, Value>, now: Timestamp) -> ApiResult<(Timestamp, Timestamp)> {
    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    let from = f.read(&ReplayBody::from);
    let to = f.read(&ReplayBody::to);
    let bad_to = f.has("to") && !f.is_null("to") && to.is_none();
    let to = to.unwrap_or(now);
    if let Some(from) = from
        && !bad_to
        && from >= to
    {
        f.error("from", "must be before `to`");
    }
    f.finish();
    match from {
        Some(from) => errors.finish((from, to)),
        None => Err(ApiError::Validation(errors.0)),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn obj(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => unreachable!(),
        }
    }

    fn fields(r: ApiResult<impl Sized>) -> Vec<String> {
        match r {
            Ok(_) => vec![],
            Err(ApiError::Validation(e)) => e.into_iter().map(|e| e.field).collect(),
            Err(e) => panic!("{e:?}"),
        }
    }

    #[test]
    fn creation_takes_known_event_types_or_star() {
        let ok = create(obj(json!({"url": "https://example.com/h",
            "enabledEvents": ["card.created", "card.created", "card.funded"]})))
        .unwrap();
        assert_eq!(ok.enabled_events, vec!["card.created", "card.funded"]);
        assert!(
            create(obj(
                json!({"url": "http://127.0.0.1:9/h", "enabledEvents": ["*"]})
            ))
            .is_ok()
        );
        assert_eq!(fields(create(obj(json!({})))), vec!["url", "enabledEvents"]);
        assert_eq!(
            fields(create(obj(json!({"url": "ftp://x", "enabledEvents": []})))),
            vec!["url", "enabledEvents"]
        );
        assert_eq!(
            fields(create(obj(
                json!({"url": "https://x", "enabledEvents": ["card.nope"]})
            ))),
            vec!["enabledEvents.0"]
        );
        assert_eq!(
            fields(create(obj(
                json!({"url": "https://x", "enabledEvents": ["*", "card.created"]})
            ))),
            vec!["enabledEvents"]
        );
        assert_eq!(
            fields(create(obj(
                json!({"url": "https://x", "enabledEvents": "*", "x": 1})
            ))),
            vec!["enabledEvents", "x"]
        );
    }

    #[test]
    fn updates_take_what_is_sent_and_null_clears_the_description() {
        let u = update(obj(json!({"status": "disabled", "description": null}))).unwrap();
        assert_eq!(u.status, Some(EndpointStatus::Disabled));
        assert_eq!(u.description, Some(None));
        assert!(u.url.is_none() && u.enabled_events.is_none());
        assert_eq!(
            fields(update(obj(json!({"status": "off"})))),
            vec!["status"]
        );
    }

    #[test]
    fn a_replay_window_is_ordered() {
        let now = Timestamp::parse_rfc3339("2026-11-22T10:00:00Z").unwrap();
        let (from, to) = replay(obj(json!({"from": "2026-11-22T09:00:00Z"})), now).unwrap();
        assert_eq!((from.millis(), to), (now.millis() - 3_600_000, now));
        assert_eq!(fields(replay(obj(json!({})), now)), vec!["from"]);
        assert_eq!(
            fields(replay(obj(json!({"from": "2026-11-22T11:00:00Z"})), now)),
            vec!["from"]
        );
        assert_eq!(
            fields(replay(obj(json!({"from": "yesterday"})), now)),
            vec!["from"]
        );
        // null is absent, as everywhere in a body: a null `from` is missing (it answered a
        // validation error naming no field before), a null `to` is now.
        assert_eq!(
            fields(replay(obj(json!({"from": null})), now)),
            vec!["from"]
        );
        assert_eq!(
            fields(replay(
                obj(json!({"from": "2026-11-22T11:00:00Z", "to": null})),
                now
            )),
            vec!["from"]
        );
    }
}
