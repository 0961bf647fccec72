//! The bodies of POST /accounts and PUT /accounts/{id}.

use serde_json::{Map, Value};

use crate::domain::accounts::{
    AccountStatus, AccountType, AccountUpdate, Category, NewAccount, OwnerType,
};
use crate::error::{ApiError, ApiResult};
use crate::http::fields::{Errors, Fields};
use crate::http::parse::input::body;

body! {
    /// POST /accounts. `client` is read too, but accepted only when it names the key's own client,
    /// which the document cannot know: it is left out of the schema.
    pub struct AccountBody = "AccountCreate" {
        required owner_type: "ownerType", Enum(OwnerType::ALL);
        optional owner_id: "ownerId", Text(200);
        required name: "name", Text(200);
        required kind: "type", Enum(AccountType::ALL);
        required category: "category", Enum(Category::ALL);
        optional status: "status", Enum(AccountStatus::ALL);
        required currency: "currency", Currency;
        optional network: "network", Text(200);
        optional balance: "balance", Balance;
        optional can_debit: "canDebit", Bool;
        optional can_credit: "canCredit", Bool;
    }
}

body! {
    /// PUT /accounts/{id}: every field optional; `ownerId` and `network` may be cleared with null.
    pub struct AccountUpdateBody = "AccountUpdate" {
        optional owner_type: "ownerType", Enum(OwnerType::ALL);
        optional owner_id: "ownerId", ClearableText(200);
        optional name: "name", Text(200);
        optional kind: "type", Enum(AccountType::ALL);
        optional category: "category", Enum(Category::ALL);
        optional status: "status", Enum(AccountStatus::ALL);
        optional currency: "currency", Currency;
        optional network: "network", ClearableText(200);
        optional balance: "balance", Balance;
        optional can_debit: "canDebit", Bool;
        optional can_credit: "canCredit", Bool;
    }
}

/// Validates a POST /accounts body for `client` (None in the browser, where it is not known).
pub fn create(body: Map<String, Value>, client: Option<&str>) -> ApiResult<NewAccount> {
    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    let owner_type = f
        .read(&AccountBody::owner_type)
        .and_then(|s| OwnerType::parse(&s));
    if let Some(given) = f.opt_str("client")
        && client.is_some_and(|c| c != given)
    {
        f.error("client", "must be the client of the API key");
    }
    let name = f.read(&AccountBody::name);
    let kind = f
        .read(&AccountBody::kind)
        .and_then(|s| AccountType::parse(&s));
    let category = f
        .read(&AccountBody::category)
        .and_then(|s| Category::parse(&s));
    let currency = f.read(&AccountBody::currency);
    let owner_id = f.read(&AccountBody::owner_id);
    let status = f
        .read(&AccountBody::status)
        .and_then(|s| AccountStatus::parse(&s));
    let network = f.read(&AccountBody::network);
    let balance = f.read(&AccountBody::balance);
    let can_debit = f.read(&AccountBody::can_debit);
    let can_credit = f.read(&AccountBody::can_credit);
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
        owner_type: f
            .read(&AccountUpdateBody::owner_type)
            .and_then(|s| OwnerType::parse(&s)),
        owner_id: f.read(&AccountUpdateBody::owner_id),
        name: f.read(&AccountUpdateBody::name),
        kind: f
            .read(&AccountUpdateBody::kind)
            .and_then(|s| AccountType::parse(&s)),
        category: f
            .read(&AccountUpdateBody::category)
            .and_then(|s| Category::parse(&s)),
        status: f
            .read(&AccountUpdateBody::status)
            .and_then(|s| AccountStatus::parse(&s)),
        currency: f.read(&AccountUpdateBody::currency),
        network: f.read(&AccountUpdateBody::network),
        balance: f.read(&AccountUpdateBody::balance),
        can_debit: f.read(&AccountUpdateBody::can_debit),
        can_credit: f.read(&AccountUpdateBody::can_credit),
    };
    f.finish();
    errors.finish(u)
}
