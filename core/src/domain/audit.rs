//! The audit trail of access to card data (PCI DSS 10.2): every card token, every reveal (refused
//! ones too) and every change of a stored API key appends one record — who (the key's id, never the
//! key), what, which card, when, the outcome, the request id and the caller's address as the host
//! saw it. A record never holds a PAN, a CVV, a token or a key. Records are never updated or
//! deleted by the service (so they are kept at least the year PCI DSS 10.5.1 asks for).

use serde::{Deserialize, Serialize};

use super::{Result, Scope};
use crate::env::Timestamp;
use crate::macros::{indexed, str_enum};
use crate::storage::codec::Record;
use crate::storage::keys::Kind;
use crate::storage::table;

str_enum!(AuditAction {
    CardTokenCreated = "card.token_created",
    CardRevealed = "card.revealed",
    ApiKeyCreated = "api_key.created",
    ApiKeyRevoked = "api_key.revoked",
});

str_enum!(Outcome {
    Success = "success",
    Refused = "refused",
});

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditEvent {
    pub id: String,
    pub action: AuditAction,
    pub outcome: Outcome,
    /// The error code of a refusal (`invalid_token`, `permission_denied`, `not_found`, ...).
    pub error: Option<String>,
    /// The id of the key that made the request.
    pub key_id: String,
    /// The card a token or reveal was asked for (as the path named it, when it is an id).
    pub card_id: Option<String>,
    /// The key created or revoked.
    pub subject_key_id: Option<String>,
    pub request_id: Option<String>,
    /// The caller's address as the host saw it (None where the host cannot tell).
    pub address: Option<String>,
    pub created_at: Timestamp,
}

impl Record for AuditEvent {
    const VERSION: u8 = 1;
    const NAME: &'static str = "audit event";
}

indexed!(AuditEvent, Kind::AuditEvent, |r| {
    "action" => r.action.as_str(),
    "cardId" => r.card_id.as_deref().unwrap_or(""),
});

/// Who asked, from where: what every audit record of one request shares.
#[derive(Debug, Clone, Default)]
pub struct Actor {
    pub key_id: String,
    pub request_id: Option<String>,
    pub address: Option<String>,
}

/// Appends one record in the scope's transaction.
pub fn append(
    s: &mut Scope,
    actor: &Actor,
    action: AuditAction,
    outcome: std::result::Result<(), &str>,
    card_id: Option<&str>,
    subject_key_id: Option<&str>,
) -> Result<AuditEvent> {
    let (outcome, error) = match outcome {
        Ok(()) => (Outcome::Success, None),
        Err(code) => (Outcome::Refused, Some(code.to_string())),
    };
    let event = AuditEvent {
        id: s.new_id(),
        action,
        outcome,
        error,
        key_id: actor.key_id.clone(),
        card_id: card_id
            .filter(|id| super::ids::is_valid(id))
            .map(str::to_string),
        subject_key_id: subject_key_id.map(str::to_string),
        request_id: actor.request_id.clone(),
        address: actor.address.clone(),
        created_at: s.now,
    };
    table::insert(s.tx, s.client, &event)?;
    Ok(event)
}

pub fn get(s: &mut Scope, id: &str) -> Result<AuditEvent> {
    super::find(s, Kind::AuditEvent, id, "Audit event")
}

/// The actor of a key change made on the command line (no key, no request): the operator.
pub const OPERATOR: &str = "operator";

/// Records a key change made outside the API (`cards keys create|revoke`), under the key's client.
pub fn record_operator_change(
    tx: &mut dyn crate::storage::Tx,
    env: &dyn crate::env::Env,
    client: &str,
    action: AuditAction,
    subject_key_id: &str,
) -> Result<AuditEvent> {
    let ids = super::IdGen::new(env);
    let now = env.now();
    let mut s = Scope {
        tx,
        client,
        now,
        ids: &ids,
        env,
    };
    let actor = Actor {
        key_id: OPERATOR.into(),
        request_id: None,
        address: None,
    };
    append(&mut s, &actor, action, Ok(()), None, Some(subject_key_id))
}
