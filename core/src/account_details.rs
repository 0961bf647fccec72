//! Account details: payout coordinates attached to an account, at most one of them primary.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::accounts;
use crate::api::{self, Ctx};
use crate::error::{ApiError, ApiResult};
use crate::http::Response;
use crate::keys;
use crate::macros::str_enum;
use crate::query::{FieldType, Schema};
use crate::records;
use crate::validate::{Errors, Fields};

str_enum!(DetailType { BankAccount = "bank_account", CryptoWallet = "crypto_wallet" });

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AccountDetail {
    #[serde(rename = "_id")]
    pub id: String,
    pub account_id: String,
    #[serde(rename = "type")]
    pub kind: DetailType,
    pub details: Map<String, Value>,
    pub provider: String,
    pub is_primary: bool,
    pub created_at: String,
    pub updated_at: String,
}

pub static SCHEMA: Schema = Schema {
    fields: &[
        ("_id", FieldType::Str),
        ("accountId", FieldType::Str),
        ("type", FieldType::Str),
        ("details", FieldType::FreeForm),
        ("provider", FieldType::Str),
        ("isPrimary", FieldType::Bool),
        ("createdAt", FieldType::Date),
        ("updatedAt", FieldType::Date),
    ],
    default_search: &["provider"],
    populate: &[],
};

fn key(client: &str, account_id: &str, id: &str) -> Vec<u8> {
    keys::key(keys::ACCOUNT_DETAIL, &[client, account_id, id])
}

fn prefix(client: &str, account_id: &str) -> Vec<u8> {
    keys::prefix(keys::ACCOUNT_DETAIL, &[client, account_id])
}

fn to_json(d: &AccountDetail) -> Value {
    serde_json::to_value(d).unwrap_or(Value::Null)
}

/// The account of the path, which must be the caller's.
fn account_id(ctx: &mut Ctx) -> ApiResult<String> {
    let id = ctx.id.clone();
    Ok(accounts::load(ctx, &id)?.id)
}

fn load(ctx: &mut Ctx, account_id: &str) -> ApiResult<AccountDetail> {
    let ids = [account_id, ctx.sub.as_str()];
    records::find(
        ctx.tx,
        keys::ACCOUNT_DETAIL,
        &ctx.client,
        &ids,
        "Account detail",
    )
}

/// Clears `isPrimary` on every other detail of the account.
fn clear_other_primaries(ctx: &mut Ctx, account_id: &str, keep: &str) -> ApiResult<()> {
    let others: Vec<AccountDetail> = records::list(ctx.tx, &prefix(&ctx.client, account_id))?;
    for mut d in others.into_iter().filter(|d| d.is_primary && d.id != keep) {
        d.is_primary = false;
        d.updated_at = ctx.now_string();
        records::put(ctx.tx, &key(&ctx.client, account_id, &d.id), &d)?;
    }
    Ok(())
}

struct Input {
    kind: Option<DetailType>,
    details: Option<Map<String, Value>>,
    provider: Option<String>,
    is_primary: Option<bool>,
}

fn read_input(body: Map<String, Value>, required: bool) -> ApiResult<Input> {
    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    let kind = if required {
        f.enumeration("type", DetailType::ALL)
    } else {
        f.opt_enum("type", DetailType::ALL)
    }
    .and_then(|s| DetailType::parse(&s));
    let details = if required {
        f.object_field("details")
    } else {
        f.opt_object("details")
    };
    let provider = if required {
        f.text("provider", 200)
    } else {
        f.opt_text("provider", 200)
    };
    let is_primary = f.opt_bool("isPrimary");
    f.finish();
    errors.finish(Input {
        kind,
        details,
        provider,
        is_primary,
    })
}

pub fn create(ctx: &mut Ctx) -> ApiResult<Response> {
    let body = ctx.json_body()?;
    let account_id = account_id(ctx)?;
    let input = read_input(body, true)?;
    let (Some(kind), Some(details), Some(provider)) = (input.kind, input.details, input.provider)
    else {
        return Err(ApiError::Internal);
    };
    let now = ctx.now_string();
    let detail = AccountDetail {
        id: ctx.new_id(),
        account_id: account_id.clone(),
        kind,
        details,
        provider,
        is_primary: input.is_primary.unwrap_or(false),
        created_at: now.clone(),
        updated_at: now,
    };
    if detail.is_primary {
        clear_other_primaries(ctx, &account_id, &detail.id)?;
    }
    records::put(ctx.tx, &key(&ctx.client, &account_id, &detail.id), &detail)?;
    api::created("Account detail created successfully", to_json(&detail))
}

pub fn list(ctx: &mut Ctx) -> ApiResult<Response> {
    let account_id = account_id(ctx)?;
    let q = ctx.list_query(&SCHEMA)?;
    let docs: Vec<Value> = records::list(ctx.tx, &prefix(&ctx.client, &account_id))?;
    let (items, total) = q.select(docs);
    api::list("Account details fetched successfully", &q, items, total)
}

pub fn get(ctx: &mut Ctx) -> ApiResult<Response> {
    let account_id = account_id(ctx)?;
    let detail = load(ctx, &account_id)?;
    api::ok("Account detail fetched successfully", to_json(&detail))
}

pub fn update(ctx: &mut Ctx) -> ApiResult<Response> {
    let body = ctx.json_body()?;
    let account_id = account_id(ctx)?;
    let mut detail = load(ctx, &account_id)?;
    let input = read_input(body, false)?;
    if let Some(v) = input.kind {
        detail.kind = v;
    }
    if let Some(v) = input.details {
        detail.details = v;
    }
    if let Some(v) = input.provider {
        detail.provider = v;
    }
    if let Some(v) = input.is_primary {
        detail.is_primary = v;
        if v {
            clear_other_primaries(ctx, &account_id, &detail.id)?;
        }
    }
    detail.updated_at = ctx.now_string();
    records::put(ctx.tx, &key(&ctx.client, &account_id, &detail.id), &detail)?;
    api::ok("Account detail updated successfully", to_json(&detail))
}

pub fn delete(ctx: &mut Ctx) -> ApiResult<Response> {
    let account_id = account_id(ctx)?;
    let detail = load(ctx, &account_id)?;
    ctx.tx.delete(&key(&ctx.client, &account_id, &detail.id))?;
    api::ok("Account detail deleted successfully", to_json(&detail))
}
