//! The account ledger: every balance change is an entry written in the same transaction as the change.
//! An account's balance always equals the sum of its entries' amounts. The entries and the money bounds
//! live here; posting one (entry and account written together) is `accounts::post`.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::{Result, Scope};
use crate::env::Timestamp;
use crate::error::ApiError;
use crate::macros::{indexed, str_enum};
use crate::storage::codec::{self, Record, money};
use crate::storage::keys::{self, Kind};

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

// The index by account is each account's ledger in time order, and the only one: entries are
// listed only within their account (`GET /accounts/{id}/transactions`), so no index of every
// entry (data format 11: a key and a count fewer with every entry).
indexed!(Entry, Kind::LedgerEntry, |r| {
    "accountId" => &r.account_id,
}, index_all = false);

/// Every entry of the client (for checks over the whole ledger).
pub fn all_entries(s: &mut Scope) -> Result<Vec<Entry>> {
    Ok(codec::scan(
        s.tx,
        &keys::records(s.client, Kind::LedgerEntry),
    )?)
}
