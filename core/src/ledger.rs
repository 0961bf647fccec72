//! The account ledger: every balance change is an entry written in the same transaction as the change.
//! An account's balance always equals the sum of its entries' amounts.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::accounts::Account;
use crate::api::Ctx;
use crate::error::{ApiError, ApiResult};
use crate::keys;
use crate::macros::str_enum;
use crate::query::{FieldType, Schema};
use crate::records;

str_enum!(EntryType {
    Adjustment = "adjustment",
    CardIssueFunding = "card_issue_funding",
    CardFunding = "card_funding",
    CardRefund = "card_refund",
});

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    #[serde(rename = "_id")]
    pub id: String,
    pub account_id: String,
    #[serde(rename = "type")]
    pub kind: EntryType,
    /// Signed: credits are positive, debits negative.
    #[serde(with = "rust_decimal::serde::arbitrary_precision")]
    pub amount: Decimal,
    #[serde(with = "rust_decimal::serde::arbitrary_precision")]
    pub balance_after: Decimal,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card_id: Option<String>,
    pub created_at: String,
}

pub static SCHEMA: Schema = Schema {
    fields: &[
        ("_id", FieldType::Str),
        ("accountId", FieldType::Str),
        ("type", FieldType::Str),
        ("amount", FieldType::Number),
        ("balanceAfter", FieldType::Number),
        ("cardId", FieldType::Str),
        ("createdAt", FieldType::Date),
    ],
    default_search: &["type"],
    populate: &[],
};

pub fn prefix(client: &str, account_id: &str) -> Vec<u8> {
    keys::prefix(keys::LEDGER, &[client, account_id])
}

/// Moves `amount` (signed) into `account`, writing the entry and the account. A debit that would take
/// the balance below zero is refused with `insufficient_funds` and writes nothing.
pub fn post(
    ctx: &mut Ctx,
    account: &mut Account,
    kind: EntryType,
    amount: Decimal,
    card_id: Option<&str>,
) -> ApiResult<Entry> {
    let after = (account.balance + amount).normalize();
    if after.is_sign_negative() && !after.is_zero() {
        return Err(ApiError::InsufficientFunds);
    }
    let entry = Entry {
        id: ctx.new_id(),
        account_id: account.id.clone(),
        kind,
        amount: amount.normalize(),
        balance_after: after,
        card_id: card_id.map(str::to_string),
        created_at: ctx.now_string(),
    };
    account.balance = after;
    account.updated_at = ctx.now_string();
    records::put(
        ctx.tx,
        &keys::key(keys::LEDGER, &[&ctx.client, &account.id, &entry.id]),
        &entry,
    )?;
    records::put(ctx.tx, &account.key(), account)?;
    Ok(entry)
}
