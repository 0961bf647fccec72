//! Accounts: wallets or ledgers that fund cards. Balance changes go through the ledger only.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::ledger::{Entry, EntryType, checked_sum};
use super::{Currency, Result, Scope, lifecycle};
use crate::env::Timestamp;
use crate::error::ApiError;
use crate::macros::{indexed, str_enum};
use crate::storage::codec::{Record, money};
use crate::storage::keys::Kind;
use crate::storage::ordered::Ordered;
use crate::storage::table;

pub use super::lifecycle::AccountStatus;

str_enum!(OwnerType { User = "user", Business = "business", System = "system", Provider = "provider" });
str_enum!(AccountType { Savings = "savings", Treasury = "treasury", Checking = "checking", Credit = "credit" });
str_enum!(Category { Fiat = "fiat", Crypto = "crypto" });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Account {
    pub id: String,
    pub owner_type: OwnerType,
    pub owner_id: Option<String>,
    pub client: String,
    pub name: String,
    pub kind: AccountType,
    pub category: Category,
    pub status: AccountStatus,
    pub currency: Currency,
    pub network: Option<String>,
    /// The sum of the account's ledger entries.
    #[serde(with = "money")]
    pub balance: Decimal,
    pub can_debit: bool,
    pub can_credit: bool,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

impl Record for Account {
    const VERSION: u8 = 1;
    const NAME: &'static str = "account";
}

impl Account {
    /// Debits need an active account that allows them.
    pub fn check_debitable(&self) -> Result<()> {
        if self.status != AccountStatus::Active || !self.can_debit {
            return Err(ApiError::AccountUnavailable(
                "Debit account is not active or does not allow debits".into(),
            ));
        }
        Ok(())
    }

    pub fn check_creditable(&self) -> Result<()> {
        if self.status != AccountStatus::Active || !self.can_credit {
            return Err(ApiError::AccountUnavailable(
                "Credit account is not active or does not allow credits".into(),
            ));
        }
        Ok(())
    }
}

/// POST /accounts, validated.
#[derive(Debug, Clone)]
pub struct NewAccount {
    pub owner_type: OwnerType,
    pub owner_id: Option<String>,
    pub name: String,
    pub kind: AccountType,
    pub category: Category,
    pub currency: Currency,
    pub status: AccountStatus,
    pub network: Option<String>,
    pub balance: Decimal,
    pub can_debit: bool,
    pub can_credit: bool,
}

/// PUT /accounts/{id}, validated: `None` keeps a field, `Some(None)` clears a nullable one.
#[derive(Debug, Clone, Default)]
pub struct AccountUpdate {
    pub owner_type: Option<OwnerType>,
    pub owner_id: Option<Option<String>>,
    pub name: Option<String>,
    pub kind: Option<AccountType>,
    pub category: Option<Category>,
    pub status: Option<AccountStatus>,
    pub currency: Option<Currency>,
    pub network: Option<Option<String>>,
    pub balance: Option<Decimal>,
    pub can_debit: Option<bool>,
    pub can_credit: Option<bool>,
}

/// One of the caller's accounts; another client's or an unknown id is 404.
pub fn get(s: &mut Scope, id: &str) -> Result<Account> {
    super::find(s, Kind::Account, id, "Account")
}

pub fn save(s: &mut Scope, account: &Account) -> Result<()> {
    Ok(table::save(s.tx, s.client, account)?)
}

/// Posts to the ledger, the one way an account's balance moves: moves `amount` (signed) into
/// `account`, writing the entry and the account. A debit that would take the balance below zero is
/// refused with `insufficient_funds` and writes nothing.
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
    save(s, account)?;
    Ok(entry)
}

indexed!(Account, Kind::Account, |r| {
    "status" => r.status.as_str(),
    "currency" => r.currency.as_str(),
    "type" => r.kind.as_str(),
    "category" => r.category.as_str(),
    "ownerType" => r.owner_type.as_str(),
}, ranges {
    // An account has no holds: all three show the one stored balance.
    "balance" ["balance", "availableBalance", "ledgerBalance"] => Ordered::Num(r.balance),
    "updatedAt" ["updatedAt"] => Ordered::Millis(r.updated_at.millis()),
}, texts {
    // The default search field; a funding's save compares the name and moves nothing.
    "name" => &r.name,
});

/// Every account of the caller, oldest first.
/// Loads them all: for the invariant checks of the tests; lists go through the planner.
#[cfg(test)]
pub fn all(s: &mut Scope) -> Result<Vec<Account>> {
    Ok(crate::storage::codec::scan(
        s.tx,
        &crate::storage::keys::records(s.client, Kind::Account),
    )?)
}

/// Creates an account; an opening balance is an adjustment entry in its ledger.
pub fn create(s: &mut Scope, new: NewAccount) -> Result<Account> {
    if new.status == AccountStatus::Closed && !new.balance.is_zero() {
        return Err(ApiError::InvalidState(
            "A closed account must have a zero balance".into(),
        ));
    }
    let mut account = Account {
        id: s.new_id(),
        owner_type: new.owner_type,
        owner_id: new.owner_id,
        client: s.client.to_string(),
        name: new.name,
        kind: new.kind,
        category: new.category,
        status: new.status,
        currency: new.currency,
        network: new.network,
        balance: Decimal::ZERO,
        can_debit: new.can_debit,
        can_credit: new.can_credit,
        created_at: s.now,
        updated_at: s.now,
    };
    if new.balance.is_zero() {
        save(s, &account)?;
    } else {
        post(s, &mut account, EntryType::Adjustment, new.balance, None)?;
    }
    Ok(account)
}

pub fn update(s: &mut Scope, id: &str, u: AccountUpdate) -> Result<Account> {
    let mut account = get(s, id)?;
    if account.status == AccountStatus::Closed {
        return Err(ApiError::InvalidState("Account is closed".into()));
    }
    // The balance moves first, so one PUT can empty an account and close it or change its currency.
    if let Some(target) = u.balance {
        let delta = target
            .checked_sub(account.balance)
            .ok_or_else(|| ApiError::InvalidState("The balance would be out of range".into()))?;
        if !delta.is_zero() {
            post(s, &mut account, EntryType::Adjustment, delta, None)?;
        }
    }
    if let Some(code) = u.currency {
        if code != account.currency && !account.balance.is_zero() {
            return Err(ApiError::InvalidState(
                "Currency can change only while the balance is zero".into(),
            ));
        }
        account.currency = code;
    }
    if let Some(to) = u.status {
        lifecycle::account_move(account.status, to)?;
        if to == AccountStatus::Closed && !account.balance.is_zero() {
            return Err(ApiError::InvalidState(
                "Closing an account needs a zero balance".into(),
            ));
        }
        account.status = to;
    }
    if let Some(v) = u.owner_type {
        account.owner_type = v;
    }
    if let Some(v) = u.owner_id {
        account.owner_id = v;
    }
    if let Some(v) = u.name {
        account.name = v;
    }
    if let Some(v) = u.kind {
        account.kind = v;
    }
    if let Some(v) = u.category {
        account.category = v;
    }
    if let Some(v) = u.network {
        account.network = v;
    }
    if let Some(v) = u.can_debit {
        account.can_debit = v;
    }
    if let Some(v) = u.can_credit {
        account.can_credit = v;
    }
    account.updated_at = s.now;
    save(s, &account)?;
    Ok(account)
}
