//! Disputes: a card holder contests (part of) a capture; the simulated network answers `won` or
//! `lost`. A won dispute gives its amount back to the card as a `dispute_credit` card transaction, in
//! the transaction that stores the answer, so the credit happens once with the resolution.
//!
//! What can be disputed: the capture's amount less what the merchant refunded and less every earlier
//! dispute of it (a lost dispute is final, as with the networks). What can be refunded shrinks by the
//! disputes that are open or won (see `authorizations::refund`), so a capture never gives back more
//! than it took.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::authorizations::transactions::{self, CardTransaction, TransactionType};
use super::authorizations::{self, Authorization};
use super::{Currency, Result, Scope, cards, ledger};
use crate::env::Timestamp;
use crate::error::ApiError;
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
str_enum!(Outcome { Won = "won", Lost = "lost" });

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

/// POST /card-transactions/{id}/disputes, validated.
#[derive(Debug, Clone)]
pub struct NewDispute {
    pub reason: DisputeReason,
    /// Default: all that can still be disputed.
    pub amount: Option<Decimal>,
    pub explanation: Option<String>,
}

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

/// Opens a dispute on one of the caller's captures.
pub fn open(s: &mut Scope, transaction_id: &str, new: NewDispute) -> Result<Dispute> {
    let tx = transactions::get(s, transaction_id)?;
    if tx.kind != TransactionType::Capture {
        return Err(ApiError::InvalidState(format!(
            "Only a capture can be disputed, not a {}",
            tx.kind.as_str()
        )));
    }
    let card = cards::get(s, &tx.card_id)?;
    card.check_not_canceled()?;
    let auth: Authorization = authorizations::get(s, &tx.authorization_id)?;
    let disputed: Decimal = of_authorization(s, &auth.id)?
        .iter()
        .map(|d| d.amount)
        .sum();
    let rest = (-tx.amount - auth.refunded_amount - disputed).normalize();
    if rest <= Decimal::ZERO {
        return Err(ApiError::InvalidState(
            "The capture has nothing left to dispute (refunded or disputed already)".into(),
        ));
    }
    let amount = new.amount.unwrap_or(rest);
    if amount > rest {
        return Err(ApiError::InvalidState(format!(
            "Amount {amount} is more than the disputable amount {rest}"
        )));
    }
    let dispute = Dispute {
        id: s.new_id(),
        card_id: tx.card_id.clone(),
        transaction_id: tx.id.clone(),
        authorization_id: auth.id.clone(),
        amount: amount.normalize(),
        currency: tx.currency.clone(),
        reason: new.reason,
        explanation: new.explanation,
        status: DisputeStatus::Submitted,
        created_at: s.now,
        updated_at: s.now,
    };
    table::insert(s.tx, s.client, &dispute)?;
    Ok(dispute)
}

/// The network's answer. Won: the amount goes back to the card as a `dispute_credit` transaction
/// (returned with the dispute). A dispute answered already is 409, so a retry credits nothing twice.
pub fn resolve(
    s: &mut Scope,
    id: &str,
    outcome: Outcome,
) -> Result<(Dispute, Option<CardTransaction>)> {
    let mut dispute = get(s, id)?;
    if dispute.status != DisputeStatus::Submitted {
        return Err(ApiError::InvalidState(format!(
            "Dispute is {} already",
            dispute.status.as_str()
        )));
    }
    dispute.updated_at = s.now;
    let credit = match outcome {
        Outcome::Lost => {
            dispute.status = DisputeStatus::Lost;
            None
        }
        Outcome::Won => {
            dispute.status = DisputeStatus::Won;
            let mut card = cards::get(s, &dispute.card_id)?;
            // A canceled card's balance went back to an account; it cannot take money any more.
            card.check_not_canceled()?;
            card.balance =
                ledger::checked_sum(card.balance, dispute.amount, "The card balance")?.normalize();
            card.updated_at = s.now;
            let auth = authorizations::get(s, &dispute.authorization_id)?;
            let made =
                transactions::record(s, &auth, TransactionType::DisputeCredit, dispute.amount)?;
            cards::save(s, &card)?;
            Some(made)
        }
    };
    table::save(s.tx, s.client, &dispute)?;
    Ok((dispute, credit))
}
