//! Account transfers: money moved between two of a client's accounts in one currency. The transfer
//! record and its two ledger entries (a debit and a credit) are written in one transaction, so a
//! transfer is either whole or absent.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::ledger::EntryType;
use super::{Currency, Result, Scope, accounts};
use crate::env::Timestamp;
use crate::error::ApiError;
use crate::macros::indexed;
use crate::storage::codec::{Record, money};
use crate::storage::keys::Kind;
use crate::storage::table;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Transfer {
    pub id: String,
    pub debit_account_id: String,
    pub credit_account_id: String,
    #[serde(with = "money")]
    pub amount: Decimal,
    pub currency: Currency,
    pub narration: Option<String>,
    pub reference: Option<String>,
    pub created_at: Timestamp,
}

impl Record for Transfer {
    const VERSION: u8 = 1;
    const NAME: &'static str = "transfer";
}

indexed!(Transfer, Kind::Transfer, |r| {
    "debitAccountId" => &r.debit_account_id,
    "creditAccountId" => &r.credit_account_id,
}, texts {
    "narration" => r.narration.as_deref().unwrap_or(""),
    "reference" => r.reference.as_deref().unwrap_or(""),
});

/// POST /accounts/transfers, validated (the two ids differ).
#[derive(Debug, Clone)]
pub struct NewTransfer {
    pub debit_account_id: String,
    pub credit_account_id: String,
    pub amount: Decimal,
    pub narration: Option<String>,
    pub reference: Option<String>,
}

/// One of the caller's transfers; another client's or an unknown id is 404.
pub fn get(s: &mut Scope, id: &str) -> Result<Transfer> {
    super::find(s, Kind::Transfer, id, "Transfer")
}

/// Moves `new.amount` from the debit account to the credit account. Checked in the order funding
/// checks a debit account: both accounts exist and are the caller's (404), each is usable for its
/// side (422 `account_unavailable`), the currencies agree (422 `currency_mismatch`), the debit account
/// holds the amount (422 `insufficient_funds`).
pub fn create(s: &mut Scope, new: NewTransfer) -> Result<Transfer> {
    let mut debit = accounts::get(s, &new.debit_account_id)?;
    let mut credit = accounts::get(s, &new.credit_account_id)?;
    if debit.id == credit.id {
        // The parser refuses equal ids; kept here so the rule does not depend on it.
        return Err(ApiError::InvalidState(
            "A transfer needs two different accounts".into(),
        ));
    }
    debit.check_debitable()?;
    credit.check_creditable()?;
    if debit.currency != credit.currency {
        return Err(ApiError::CurrencyMismatch(format!(
            "Debit account currency {} differs from credit account currency {}",
            debit.currency, credit.currency
        )));
    }
    let transfer = Transfer {
        id: s.new_id(),
        debit_account_id: debit.id.clone(),
        credit_account_id: credit.id.clone(),
        amount: new.amount.normalize(),
        currency: debit.currency.clone(),
        narration: new.narration,
        reference: new.reference,
        created_at: s.now,
    };
    accounts::post(s, &mut debit, EntryType::Transfer, -new.amount, None)?;
    accounts::post(s, &mut credit, EntryType::Transfer, new.amount, None)?;
    table::insert(s.tx, s.client, &transfer)?;
    Ok(transfer)
}

/// Every transfer of the caller (for the invariant checks of the tests).
#[cfg(test)]
pub fn all(s: &mut Scope) -> Result<Vec<Transfer>> {
    Ok(crate::storage::codec::scan(
        s.tx,
        &crate::storage::keys::records(s.client, Kind::Transfer),
    )?)
}
