//! The account ledger: every balance change is an entry written in the same transaction as the change.
//! An account's balance always equals the sum of its entries' amounts.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::accounts::Account;
use super::{Result, Scope};
use crate::env::Timestamp;
use crate::error::ApiError;
use crate::macros::{indexed, str_enum};
use crate::storage::codec::{self, Record, money};
use crate::storage::keys::{self, Kind};
use crate::storage::table;

/// Amounts and balances stay below 10^15 (15 integer digits): far from `Decimal`'s limits, so
/// sums of a few of them never overflow, and still more than any real balance.
pub const MAX_INTEGER_DIGITS: u32 = 15;

/// The exclusive bound of every amount and balance: 10^15.
pub fn money_limit() -> Decimal {
    Decimal::from(10i64.pow(MAX_INTEGER_DIGITS))
}

/// `a + b`, refused with 409 `invalid_state` when the result reaches the bound.
pub fn checked_sum(a: Decimal, b: Decimal, what: &str) -> Result<Decimal> {
    a.checked_add(b)
        .filter(|r| r.abs() < money_limit())
        .ok_or_else(|| ApiError::InvalidState(format!(
            "{what} would reach 10^{MAX_INTEGER_DIGITS}, past the largest balance this service keeps"
        )))
}

str_enum!(EntryType {
    Adjustment = "adjustment",
    CardIssueFunding = "card_issue_funding",
    CardFunding = "card_funding",
    CardRefund = "card_refund",
    Transfer = "transfer",
});

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub id: String,
    pub account_id: String,
    pub kind: EntryType,
    /// Signed: credits are positive, debits negative.
    #[serde(with = "money")]
    pub amount: Decimal,
    #[serde(with = "money")]
    pub balance_after: Decimal,
    pub card_id: Option<String>,
    pub created_at: Timestamp,
}

impl Record for Entry {
    const VERSION: u8 = 1;
    const NAME: &'static str = "ledger entry";
}

// The index by account is each account's ledger in time order.
indexed!(Entry, Kind::LedgerEntry, |r| {
    "accountId" => &r.account_id,
});

/// Moves `amount` (signed) into `account`, writing the entry and the account. A debit that would take
/// the balance below zero is refused with `insufficient_funds` and writes nothing.
pub fn post(
    s: &mut Scope,
    account: &mut Account,
    kind: EntryType,
    amount: Decimal,
    card_id: Option<&str>,
) -> Result<Entry> {
    let after = checked_sum(account.balance, amount, "The account balance")?.normalize();
    if after.is_sign_negative() && !after.is_zero() {
        return Err(ApiError::InsufficientFunds);
    }
    let entry = Entry {
        id: s.new_id(),
        account_id: account.id.clone(),
        kind,
        amount: amount.normalize(),
        balance_after: after,
        card_id: card_id.map(str::to_string),
        created_at: s.now,
    };
    account.balance = after;
    account.updated_at = s.now;
    table::insert(s.tx, s.client, &entry)?;
    super::accounts::save(s, account)?;
    Ok(entry)
}

/// Every entry of the client (for checks over the whole ledger).
pub fn all_entries(s: &mut Scope) -> Result<Vec<Entry>> {
    Ok(codec::scan(
        s.tx,
        &keys::records(s.client, Kind::LedgerEntry),
    )?)
}
