//! Accounts: wallets or ledgers that fund cards. Balance changes go through the ledger only.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::api::{self, Ctx};
use crate::error::{ApiError, ApiResult};
use crate::http::Response;
use crate::keys;
use crate::ledger::{self, EntryType};
use crate::lifecycle;
use crate::macros::str_enum;
use crate::query::{FieldType, Schema};
use crate::records;
use crate::validate::{Errors, Fields, decimal_json};

str_enum!(OwnerType { User = "user", Business = "business", System = "system", Provider = "provider" });
str_enum!(AccountType { Savings = "savings", Treasury = "treasury", Checking = "checking", Credit = "credit" });
str_enum!(Category { Fiat = "fiat", Crypto = "crypto" });
str_enum!(AccountStatus { Active = "active", Inactive = "inactive", Suspended = "suspended", Closed = "closed" });

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Account {
    #[serde(rename = "_id")]
    pub id: String,
    pub owner_type: OwnerType,
    pub owner_id: Option<String>,
    pub client: String,
    pub name: String,
    #[serde(rename = "type")]
    pub kind: AccountType,
    pub category: Category,
    pub status: AccountStatus,
    pub currency: String,
    pub network: Option<String>,
    /// The sum of the account's ledger entries.
    #[serde(with = "rust_decimal::serde::arbitrary_precision")]
    pub balance: Decimal,
    pub can_debit: bool,
    pub can_credit: bool,
    pub created_at: String,
    pub updated_at: String,
}

pub static SCHEMA: Schema = Schema {
    fields: &[
        ("_id", FieldType::Str),
        ("ownerType", FieldType::Str),
        ("ownerId", FieldType::Str),
        ("client", FieldType::Str),
        ("name", FieldType::Str),
        ("type", FieldType::Str),
        ("category", FieldType::Str),
        ("status", FieldType::Str),
        ("currency", FieldType::Str),
        ("network", FieldType::Str),
        ("balance", FieldType::Number),
        ("availableBalance", FieldType::Number),
        ("ledgerBalance", FieldType::Number),
        ("canDebit", FieldType::Bool),
        ("canCredit", FieldType::Bool),
        ("createdAt", FieldType::Date),
        ("updatedAt", FieldType::Date),
    ],
    default_search: &["name"],
    populate: &[],
};

impl Account {
    pub fn key(&self) -> Vec<u8> {
        keys::key(keys::ACCOUNT, &[&self.client, &self.id])
    }

    /// The public representation. Without holds, available and ledger balances equal the balance.
    pub fn to_json(&self) -> Value {
        let mut v = serde_json::to_value(self).unwrap_or(Value::Null);
        let b = decimal_json(self.balance);
        v["balance"] = b.clone();
        v["availableBalance"] = b.clone();
        v["ledgerBalance"] = b;
        v
    }

    /// Debits need an active account that allows them.
    pub fn check_debitable(&self) -> ApiResult<()> {
        if self.status != AccountStatus::Active || !self.can_debit {
            return Err(ApiError::AccountUnavailable(
                "Debit account is not active or does not allow debits".into(),
            ));
        }
        Ok(())
    }

    pub fn check_creditable(&self) -> ApiResult<()> {
        if self.status != AccountStatus::Active || !self.can_credit {
            return Err(ApiError::AccountUnavailable(
                "Credit account is not active or does not allow credits".into(),
            ));
        }
        Ok(())
    }
}

/// Loads one of the caller's accounts; another client's or an unknown id is 404.
pub fn load(ctx: &mut Ctx, id: &str) -> ApiResult<Account> {
    records::find(ctx.tx, keys::ACCOUNT, &ctx.client, &[id], "Account")
}

/// Currency codes: 3 to 10 of A-Z and 0-9, upper-cased.
fn currency(f: &mut Fields, required: bool) -> Option<String> {
    let raw = if required {
        f.str("currency")
    } else {
        f.opt_str("currency")
    }?;
    let code = raw.to_ascii_uppercase();
    if (3..=10).contains(&code.len())
        && code
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
    {
        Some(code)
    } else {
        f.error("currency", "must be 3 to 10 characters of A-Z and 0-9");
        None
    }
}

fn non_negative(f: &mut Fields, key: &str) -> Option<Decimal> {
    let amount = f.opt_money(key)?;
    if amount.is_sign_negative() && !amount.is_zero() {
        f.error(key, "must not be negative");
        return None;
    }
    Some(amount)
}

fn enum_field<T>(
    f: &mut Fields,
    key: &str,
    all: &[&str],
    parse: fn(&str) -> Option<T>,
    required: bool,
) -> Option<T> {
    let s = if required {
        f.enumeration(key, all)
    } else {
        f.opt_enum(key, all)
    }?;
    parse(&s)
}

/// Nullable free text: a string, or null to clear it.
fn nullable_text(f: &mut Fields, key: &str) -> Option<Option<String>> {
    if f.is_null(key) {
        f.take(key);
        return Some(None);
    }
    f.opt_text(key, 200).map(Some)
}

pub struct NewAccount {
    owner_type: OwnerType,
    owner_id: Option<String>,
    name: String,
    kind: AccountType,
    category: Category,
    currency: String,
    status: AccountStatus,
    network: Option<String>,
    balance: Decimal,
    can_debit: bool,
    can_credit: bool,
}

/// Validates a POST /accounts body for `client`.
pub fn validate_create(
    body: serde_json::Map<String, Value>,
    client: Option<&str>,
) -> ApiResult<NewAccount> {
    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    let owner_type = enum_field(&mut f, "ownerType", OwnerType::ALL, OwnerType::parse, true);
    if let Some(given) = f.opt_str("client")
        && client.is_some_and(|c| c != given)
    {
        f.error("client", "must be the client of the API key");
    }
    let name = f.text("name", 200);
    let kind = enum_field(&mut f, "type", AccountType::ALL, AccountType::parse, true);
    let category = enum_field(&mut f, "category", Category::ALL, Category::parse, true);
    let currency = currency(&mut f, true);
    let owner_id = f.opt_text("ownerId", 200);
    let status = enum_field(
        &mut f,
        "status",
        AccountStatus::ALL,
        AccountStatus::parse,
        false,
    );
    let network = f.opt_text("network", 200);
    let balance = non_negative(&mut f, "balance");
    let can_debit = f.opt_bool("canDebit");
    let can_credit = f.opt_bool("canCredit");
    f.finish();
    let (Some(owner_type), Some(name), Some(kind), Some(category), Some(currency)) =
        (owner_type, name, kind, category, currency)
    else {
        return Err(ApiError::Validation(errors.0));
    };
    errors.finish(NewAccount {
        owner_type,
        owner_id,
        name,
        kind,
        category,
        currency,
        status: status.unwrap_or(AccountStatus::Active),
        network,
        balance: balance.unwrap_or_default(),
        can_debit: can_debit.unwrap_or(true),
        can_credit: can_credit.unwrap_or(true),
    })
}

pub fn create(ctx: &mut Ctx) -> ApiResult<Response> {
    let body = ctx.json_body()?;
    let new = validate_create(body, Some(&ctx.client))?;
    if new.status == AccountStatus::Closed && !new.balance.is_zero() {
        return Err(ApiError::InvalidState(
            "A closed account must have a zero balance".into(),
        ));
    }
    let now = ctx.now_string();
    let mut account = Account {
        id: ctx.new_id(),
        owner_type: new.owner_type,
        owner_id: new.owner_id,
        client: ctx.client.clone(),
        name: new.name,
        kind: new.kind,
        category: new.category,
        status: new.status,
        currency: new.currency,
        network: new.network,
        balance: Decimal::ZERO,
        can_debit: new.can_debit,
        can_credit: new.can_credit,
        created_at: now.clone(),
        updated_at: now,
    };
    if new.balance.is_zero() {
        records::put(ctx.tx, &account.key(), &account)?;
    } else {
        ledger::post(ctx, &mut account, EntryType::Adjustment, new.balance, None)?;
    }
    api::created("Account created successfully", account.to_json())
}

pub fn get(ctx: &mut Ctx) -> ApiResult<Response> {
    let id = ctx.id.clone();
    let account = load(ctx, &id)?;
    api::ok("Account fetched successfully", account.to_json())
}

pub fn list(ctx: &mut Ctx) -> ApiResult<Response> {
    let q = ctx.list_query(&SCHEMA)?;
    let accounts: Vec<Account> =
        records::list(ctx.tx, &keys::prefix(keys::ACCOUNT, &[&ctx.client]))?;
    let (items, total) = q.select(accounts.iter().map(Account::to_json).collect());
    api::list("Accounts fetched successfully", &q, items, total)
}

pub fn update(ctx: &mut Ctx) -> ApiResult<Response> {
    let id = ctx.id.clone();
    let body = ctx.json_body()?;
    let mut account = load(ctx, &id)?;

    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    let owner_type = enum_field(&mut f, "ownerType", OwnerType::ALL, OwnerType::parse, false);
    let owner_id = nullable_text(&mut f, "ownerId");
    let name = f.opt_text("name", 200);
    let kind = enum_field(&mut f, "type", AccountType::ALL, AccountType::parse, false);
    let category = enum_field(&mut f, "category", Category::ALL, Category::parse, false);
    let status = enum_field(
        &mut f,
        "status",
        AccountStatus::ALL,
        AccountStatus::parse,
        false,
    );
    let currency = currency(&mut f, false);
    let network = nullable_text(&mut f, "network");
    let balance = non_negative(&mut f, "balance");
    let can_debit = f.opt_bool("canDebit");
    let can_credit = f.opt_bool("canCredit");
    f.finish();
    errors.finish(())?;

    if account.status == AccountStatus::Closed {
        return Err(ApiError::InvalidState("Account is closed".into()));
    }
    // The balance moves first, so one PUT can empty an account and close it or change its currency.
    if let Some(target) = balance {
        let delta = target - account.balance;
        if !delta.is_zero() {
            ledger::post(ctx, &mut account, EntryType::Adjustment, delta, None)?;
        }
    }
    if let Some(code) = currency {
        if code != account.currency && !account.balance.is_zero() {
            return Err(ApiError::InvalidState(
                "Currency can change only while the balance is zero".into(),
            ));
        }
        account.currency = code;
    }
    if let Some(to) = status {
        lifecycle::account_move(account.status, to)?;
        if to == AccountStatus::Closed && !account.balance.is_zero() {
            return Err(ApiError::InvalidState(
                "Closing an account needs a zero balance".into(),
            ));
        }
        account.status = to;
    }
    if let Some(v) = owner_type {
        account.owner_type = v;
    }
    if let Some(v) = owner_id {
        account.owner_id = v;
    }
    if let Some(v) = name {
        account.name = v;
    }
    if let Some(v) = kind {
        account.kind = v;
    }
    if let Some(v) = category {
        account.category = v;
    }
    if let Some(v) = network {
        account.network = v;
    }
    if let Some(v) = can_debit {
        account.can_debit = v;
    }
    if let Some(v) = can_credit {
        account.can_credit = v;
    }
    account.updated_at = ctx.now_string();
    records::put(ctx.tx, &account.key(), &account)?;
    api::ok("Account updated successfully", account.to_json())
}

pub fn transactions(ctx: &mut Ctx) -> ApiResult<Response> {
    let id = ctx.id.clone();
    let account = load(ctx, &id)?;
    let q = ctx.list_query(&ledger::SCHEMA)?;
    let entries: Vec<Value> = records::list(ctx.tx, &ledger::prefix(&ctx.client, &account.id))?;
    let (items, total) = q.select(entries);
    api::list("Transactions fetched successfully", &q, items, total)
}
