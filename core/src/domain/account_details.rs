//! Account details: payout coordinates attached to an account, at most one of them primary.

use serde::{Deserialize, Serialize};

use super::{Result, Scope, accounts};
use crate::env::Timestamp;
use crate::error::ApiError;
use crate::macros::str_enum;
use crate::storage::codec::{self, JsonText, Record};
use crate::storage::keys;

str_enum!(DetailType { BankAccount = "bank_account", CryptoWallet = "crypto_wallet" });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AccountDetail {
    pub id: String,
    pub account_id: String,
    pub kind: DetailType,
    pub details: JsonText,
    pub provider: String,
    pub is_primary: bool,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

impl Record for AccountDetail {
    const VERSION: u8 = 1;
    const NAME: &'static str = "account detail";
}

#[derive(Debug, Clone)]
pub struct NewDetail {
    pub kind: DetailType,
    pub details: JsonText,
    pub provider: String,
    pub is_primary: bool,
}

#[derive(Debug, Clone, Default)]
pub struct DetailUpdate {
    pub kind: Option<DetailType>,
    pub details: Option<JsonText>,
    pub provider: Option<String>,
    pub is_primary: Option<bool>,
}

fn save(s: &mut Scope, d: &AccountDetail) -> Result<()> {
    Ok(codec::put(
        s.tx,
        &keys::detail(s.client, &d.account_id, &d.id),
        d,
    )?)
}

/// The details of one of the caller's accounts (404 for an account that is not the caller's).
pub fn all(s: &mut Scope, account_id: &str) -> Result<Vec<AccountDetail>> {
    let account = accounts::get(s, account_id)?;
    Ok(codec::scan(s.tx, &keys::details(s.client, &account.id))?)
}

pub fn get(s: &mut Scope, account_id: &str, id: &str) -> Result<AccountDetail> {
    let account = accounts::get(s, account_id)?;
    if !super::ids::is_valid(id) {
        return Err(ApiError::NotFound("Account detail"));
    }
    codec::get(s.tx, &keys::detail(s.client, &account.id, id))?
        .ok_or(ApiError::NotFound("Account detail"))
}

/// Clears `isPrimary` on every other detail of the account.
fn clear_other_primaries(s: &mut Scope, account_id: &str, keep: &str) -> Result<()> {
    let others: Vec<AccountDetail> = codec::scan(s.tx, &keys::details(s.client, account_id))?;
    for mut d in others.into_iter().filter(|d| d.is_primary && d.id != keep) {
        d.is_primary = false;
        d.updated_at = s.now;
        save(s, &d)?;
    }
    Ok(())
}

pub fn create(s: &mut Scope, account_id: &str, new: NewDetail) -> Result<AccountDetail> {
    let account = accounts::get(s, account_id)?;
    let detail = AccountDetail {
        id: s.new_id(),
        account_id: account.id,
        kind: new.kind,
        details: new.details,
        provider: new.provider,
        is_primary: new.is_primary,
        created_at: s.now,
        updated_at: s.now,
    };
    if detail.is_primary {
        clear_other_primaries(s, &detail.account_id, &detail.id)?;
    }
    save(s, &detail)?;
    Ok(detail)
}

pub fn update(s: &mut Scope, account_id: &str, id: &str, u: DetailUpdate) -> Result<AccountDetail> {
    let mut detail = get(s, account_id, id)?;
    if let Some(v) = u.kind {
        detail.kind = v;
    }
    if let Some(v) = u.details {
        detail.details = v;
    }
    if let Some(v) = u.provider {
        detail.provider = v;
    }
    if let Some(v) = u.is_primary {
        detail.is_primary = v;
        if v {
            clear_other_primaries(s, &detail.account_id, &detail.id)?;
        }
    }
    detail.updated_at = s.now;
    save(s, &detail)?;
    Ok(detail)
}

/// Removes a detail; returns it as it was.
pub fn delete(s: &mut Scope, account_id: &str, id: &str) -> Result<AccountDetail> {
    let detail = get(s, account_id, id)?;
    s.tx.delete(&keys::detail(s.client, &detail.account_id, &detail.id))?;
    Ok(detail)
}
