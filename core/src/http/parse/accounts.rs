//! The bodies of POST /accounts and PUT /accounts/{id}.

use rust_decimal::Decimal;
use serde_json::{Map, Value};

use crate::domain::Currency;
use crate::domain::accounts::{
    AccountStatus, AccountType, AccountUpdate, Category, NewAccount, OwnerType,
};
use crate::error::{ApiError, ApiResult};
use crate::http::fields::{Errors, Fields};

/// Currency codes: 3 to 10 of A-Z and 0-9, upper-cased.
fn currency(f: &mut Fields, required: bool) -> Option<Currency> {
    let raw = if required {
        f.str("currency")
    } else {
        f.opt_str("currency")
    }?;
    let code = Currency::parse(&raw);
    if code.is_none() {
        f.error("currency", "must be 3 to 10 characters of A-Z and 0-9");
    }
    code
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

/// Validates a POST /accounts body for `client` (None in the browser, where it is not known).
pub fn create(body: Map<String, Value>, client: Option<&str>) -> ApiResult<NewAccount> {
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

/// Validates a PUT /accounts/{id} body: every field optional.
pub fn update(body: Map<String, Value>) -> ApiResult<AccountUpdate> {
    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    let u = AccountUpdate {
        owner_type: enum_field(&mut f, "ownerType", OwnerType::ALL, OwnerType::parse, false),
        owner_id: nullable_text(&mut f, "ownerId"),
        name: f.opt_text("name", 200),
        kind: enum_field(&mut f, "type", AccountType::ALL, AccountType::parse, false),
        category: enum_field(&mut f, "category", Category::ALL, Category::parse, false),
        status: enum_field(
            &mut f,
            "status",
            AccountStatus::ALL,
            AccountStatus::parse,
            false,
        ),
        currency: currency(&mut f, false),
        network: nullable_text(&mut f, "network"),
        balance: non_negative(&mut f, "balance"),
        can_debit: f.opt_bool("canDebit"),
        can_credit: f.opt_bool("canCredit"),
    };
    f.finish();
    errors.finish(u)
}
