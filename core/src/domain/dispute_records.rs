//! The dispute record and its reads: below `authorizations`, whose refunds are limited by what
//! open or won disputes claim ([`claimed`]), and below `disputes`, which opens and answers them.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::{Currency, Result, Scope};
use crate::env::Timestamp;
use crate::macros::{indexed, str_enum};
use crate::storage::Direction;
use crate::storage::codec::{Record, money};
use crate::storage::keys::Kind;
use crate::storage::table;

str_enum!(DisputeReason {
    Fraudulent = "fraudulent",
    NotReceived = "not_received",
    Duplicate = "duplicate",
    NotAsDescribed = "not_as_described",
    Other = "other",
});
str_enum!(DisputeStatus { Submitted = "submitted", Won = "won", Lost = "lost" });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Dispute {
    pub id: String,
    pub card_id: String,
    /// The disputed capture.
    pub transaction_id: String,
    pub authorization_id: String,
    #[serde(with = "money")]
    pub amount: Decimal,
    pub currency: Currency,
    pub reason: DisputeReason,
    pub explanation: Option<String>,
    pub status: DisputeStatus,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

impl Record for Dispute {
    const VERSION: u8 = 1;
    const NAME: &'static str = "dispute";
}

indexed!(Dispute, Kind::Dispute, |r| {
    "cardId" => &r.card_id,
    "transactionId" => &r.transaction_id,
    "authorizationId" => &r.authorization_id,
    "status" => r.status.as_str(),
}, texts {
    "reason" => r.reason.as_str(),
    "explanation" => r.explanation.as_deref().unwrap_or(""),
});

/// One of the caller's disputes; another client's or an unknown id is 404.
pub fn get(s: &mut Scope, id: &str) -> Result<Dispute> {
    super::find(s, Kind::Dispute, id, "Dispute")
}

/// The disputes of one authorization's capture (a handful at most), oldest first.
pub fn of_authorization(s: &mut Scope, authorization_id: &str) -> Result<Vec<Dispute>> {
    let positions = table::positions(
        s.tx,
        s.client,
        Kind::Dispute,
        ("authorizationId", authorization_id),
        Direction::Forward,
        None,
        usize::MAX,
    )?;
    let mut out = Vec::with_capacity(positions.len());
    for p in positions {
        if let Some(d) = table::get::<Dispute>(s.tx, s.client, &p.id)? {
            out.push(d);
        }
    }
    Ok(out)
}

/// What disputes of `auth` may still give back or have given back (open or won): what a refund
/// cannot also return.
pub fn claimed(s: &mut Scope, authorization_id: &str) -> Result<Decimal> {
    Ok(of_authorization(s, authorization_id)?
        .iter()
        .filter(|d| d.status != DisputeStatus::Lost)
        .map(|d| d.amount)
        .sum())
}
