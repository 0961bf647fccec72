//! The event log: every change appends one event, in the same transaction as the change, carrying the
//! changed resource as a read returns it. Resources never hold PAN, CVV or reveal tokens in their
//! read form, so neither do events.

use serde::{Deserialize, Serialize};

use super::{Result, Scope};
use crate::env::Timestamp;
use crate::macros::{indexed, str_enum};
use crate::storage::codec::{JsonText, Record};
use crate::storage::keys::Kind;
use crate::storage::table;

str_enum!(EventType {
    AccountCreated = "account.created",
    AccountUpdated = "account.updated",
    CardHolderCreated = "card_holder.created",
    CardHolderUpdated = "card_holder.updated",
    CardCreated = "card.created",
    CardUpdated = "card.updated",
    CardFunded = "card.funded",
    CardCanceled = "card.canceled",
    AuthorizationCreated = "authorization.created",
    AuthorizationUpdated = "authorization.updated",
    TransactionCreated = "transaction.created",
    TransferCreated = "transfer.created",
    DisputeCreated = "dispute.created",
    DisputeUpdated = "dispute.updated",
});

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub id: String,
    pub kind: EventType,
    /// The resource after the change, as a read returns it.
    pub object: JsonText,
    pub created_at: Timestamp,
}

impl Record for Event {
    const VERSION: u8 = 1;
    const NAME: &'static str = "event";
}

indexed!(Event, Kind::Event, |r| {
    "type" => r.kind.as_str(),
});

/// Appends an event of `kind` about `object` (the resource's read form); changes publish through
/// `outbox::publish`, which also queues its deliveries.
pub(super) fn append(s: &mut Scope, kind: EventType, object: JsonText) -> Result<Event> {
    let event = Event {
        id: s.new_id(),
        kind,
        object,
        created_at: s.now,
    };
    table::insert(s.tx, s.client, &event)?;
    Ok(event)
}

/// An event as stored, its texts borrowed from the stored bytes and its object left as the JSON
/// text it is stored as: what a webhook delivery's body is written from, without parsing the
/// object into a map and writing it out again (that was a quarter of a delivery's planning). The
/// same fields in the same order as [`Event`] (postcard is not self-describing);
/// `http::views`'s `event_body_is_the_event_view` checks it.
#[derive(Debug, Deserialize)]
pub struct EventText<'a> {
    pub id: &'a str,
    pub kind: EventType,
    /// The object's JSON text, as [`JsonText`] stores it.
    pub object: &'a str,
    pub created_at: Timestamp,
}

/// Reads the event stored in `bytes` as [`EventText`] and hands it to `f`: borrowed from the
/// bytes, or for a record of an older version decoded whole and its object written as text.
pub fn with_text<T>(bytes: &[u8], f: impl FnOnce(&EventText<'_>) -> Result<T>) -> Result<T> {
    match crate::storage::codec::decode_view::<Event, EventText<'_>>(bytes) {
        Some(text) => f(&text?),
        None => {
            let e: Event = crate::storage::codec::decode(bytes)?;
            let object = serde_json::to_string(&e.object.0).map_err(|err| {
                crate::error::ApiError::internal(format!("cannot write an event's object: {err}"))
            })?;
            f(&EventText {
                id: &e.id,
                kind: e.kind,
                object: &object,
                created_at: e.created_at,
            })
        }
    }
}

pub fn get(s: &mut Scope, id: &str) -> Result<Event> {
    super::find(s, Kind::Event, id, "Event")
}
