//! Disputes: a card holder contests (part of) a capture; the simulated network answers `won` or
//! `lost`. A won dispute gives its amount back to the card as a `dispute_credit` card transaction, in
//! the transaction that stores the answer, so the credit happens once with the resolution.
//!
//! What can be disputed: the capture's amount less what the merchant refunded and less every earlier
//! dispute of it (a lost dispute is final, as with the networks). What can be refunded shrinks by the
//! disputes that are open or won (see `authorizations::refund`), so a capture never gives back more
//! than it took.

use rust_decimal::Decimal;

pub use super::dispute_records::{
    Dispute, DisputeReason, DisputeStatus, claimed, get, of_authorization,
};

use super::authorizations::transactions::{self, CardTransaction, TransactionType};
use super::authorizations::{self, Authorization};
use super::{Result, Scope, card_records, cards, ledger};
use crate::error::ApiError;
use crate::macros::str_enum;
use crate::storage::table;

str_enum!(Outcome { Won = "won", Lost = "lost" });

/// POST /card-transactions/{id}/disputes, validated.
#[derive(Debug, Clone)]
pub struct NewDispute {
    pub reason: DisputeReason,
    /// Default: all that can still be disputed.
    pub amount: Option<Decimal>,
    pub explanation: Option<String>,
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
            card_records::save(s, &card)?;
            Some(made)
        }
    };
    table::save(s.tx, s.client, &dispute)?;
    Ok((dispute, credit))
}
