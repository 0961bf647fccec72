//! The audit trail of access to card data (PCI DSS 10.2): every card token, every reveal (refused
//! ones too) and every change of a stored API key appends one record — who (the key's id, never the
//! key), what, which card, when, the outcome, the request id and the caller's address as the host
//! saw it. A record never holds a PAN, a CVV, a token or a key. Records are never updated; each is
//! kept [`RETENTION_DAYS`] (more than the year PCI DSS 10.5.1 asks for), then removed by a later
//! append of the same client, a few per append: the trail stays bounded with no sweeper, and no
//! append does more than a bounded amount of extra work.

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

/// How long a record is kept, by the host's clock.
pub const RETENTION_DAYS: i64 = 400;

/// Expired records an append removes at most (oldest first): more than one, so removal outpaces
/// appends and a backlog (after a long pause) drains.
const PRUNE_PER_APPEND: usize = 2;

/// Appends one record in the scope's transaction (and removes up to [`PRUNE_PER_APPEND`] expired ones).
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
    prune(s)?;
    table::insert(s.tx, s.client, &event)?;
    Ok(event)
}

/// Removes the client's oldest records if they have expired. Ids follow the host's clock, so the
/// first records are the oldest; the host's clock decides (a record made under a test clock moved
/// forward carries a later `createdAt` and is kept longer, never shorter).
fn prune(s: &mut Scope) -> Result<()> {
    let cutoff = s.env.now().plus_seconds(-RETENTION_DAYS * 24 * 3600);
    let oldest: Vec<AuditEvent> = table::scan(s.tx, s.client, None, PRUNE_PER_APPEND)?;
    for e in oldest.iter().filter(|e| e.created_at < cutoff) {
        table::remove(s.tx, s.client, e)?;
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::IdGen;
    use crate::env::{DeterministicEnv, Env};
    use crate::storage::MemStore;
    use crate::storage::keys::ALL;

    fn append_one(store: &mut MemStore, env: &DeterministicEnv, client: &str) {
        let ids = IdGen::new(env);
        let mut s = Scope {
            tx: store,
            client,
            now: env.now(),
            ids: &ids,
            env,
        };
        let actor = Actor {
            key_id: "k1".into(),
            ..Actor::default()
        };
        append(
            &mut s,
            &actor,
            AuditAction::CardRevealed,
            Ok(()),
            None,
            None,
        )
        .unwrap();
    }

    fn count(store: &mut MemStore, client: &str) -> u64 {
        table::count(store, client, Kind::AuditEvent, ALL, "").unwrap()
    }

    #[test]
    fn records_are_kept_the_retention_then_removed_two_per_append_oldest_first() {
        let (mut store, env) = (MemStore::new(), DeterministicEnv::default());
        for _ in 0..5 {
            append_one(&mut store, &env, "alice");
        }
        append_one(&mut store, &env, "bob");
        // A day short of the retention: nothing goes.
        env.advance_millis((RETENTION_DAYS - 1) * 24 * 3600 * 1000);
        append_one(&mut store, &env, "alice");
        assert_eq!(count(&mut store, "alice"), 6);
        // Past it: each append removes two of the five expired, never the new ones, never bob's.
        env.advance_millis(2 * 24 * 3600 * 1000);
        append_one(&mut store, &env, "alice");
        assert_eq!(count(&mut store, "alice"), 5);
        append_one(&mut store, &env, "alice");
        append_one(&mut store, &env, "alice");
        assert_eq!(
            count(&mut store, "alice"),
            4,
            "five expired gone, four recent kept"
        );
        append_one(&mut store, &env, "alice");
        assert_eq!(count(&mut store, "alice"), 5);
        assert_eq!(count(&mut store, "bob"), 1);
    }
}
