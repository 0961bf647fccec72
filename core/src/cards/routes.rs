//! The card routes. Each handler runs inside the request's overlay: returning an error writes nothing.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use chrono::Datelike;
use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::controls;
use super::input::{validate_create, validate_fund, validate_update};
use super::{Brand, CancellationReason, Card, CardStatus, SCHEMA, load, save};
use crate::accounts::{self, Account};
use crate::api::{self, Ctx};
use crate::error::{ApiError, ApiResult};
use crate::http::Response;
use crate::keys;
use crate::ledger::{self, EntryType};
use crate::lifecycle::{CardTrigger, card_move};
use crate::query;
use crate::records;
use crate::validate::Errors;
use crate::vault::{self, Vault};

fn vault(ctx: &Ctx) -> ApiResult<Vault> {
    ctx.service
        .config
        .vault_key
        .as_ref()
        .map(Vault::new)
        .ok_or(ApiError::Internal)
}

fn check_currency(card: &Card, account: &Account) -> ApiResult<()> {
    if account.currency == card.currency.as_str() {
        Ok(())
    } else {
        Err(ApiError::CurrencyMismatch(format!(
            "Card currency {} differs from account currency {}",
            card.currency.as_str(),
            account.currency
        )))
    }
}

/// The debit account of a card operation: the caller's, usable, in the card's currency.
fn debit_account(ctx: &mut Ctx, card: &Card, id: &str) -> ApiResult<Account> {
    let account = accounts::load(ctx, id)?;
    account.check_debitable()?;
    check_currency(card, &account)?;
    Ok(account)
}

pub fn create(ctx: &mut Ctx) -> ApiResult<Response> {
    let body = ctx.json_body()?;
    let new = validate_create(body)?;
    crate::card_holders::load(ctx, &new.card_holder_id)?;
    let now = ctx.now.to_datetime();
    let mut card = Card {
        id: ctx.new_id(),
        debit_account_id: new.debit_account_id,
        card_holder_id: new.card_holder_id,
        kind: new.kind,
        brand: new.brand,
        currency: new.currency,
        status: new.status,
        metadata: new.metadata,
        spending_controls: new.spending_controls,
        enable_2fa: new.enable_2fa,
        disposable: new.disposable,
        balance: Decimal::ZERO,
        masked_pan: None,
        last4: None,
        expiry_month: Some(format!("{:02}", now.month())),
        expiry_year: Some(format!("{:04}", now.year() + 3)),
        cancellation_reason: None,
        canceled_at: None,
        created_at: ctx.now_string(),
        updated_at: ctx.now_string(),
    };
    let debit_id = card.debit_account_id.clone();
    let mut account = debit_account(ctx, &card, &debit_id)?;
    if let Some(amount) = new.amount {
        ledger::post(
            ctx,
            &mut account,
            EntryType::CardIssueFunding,
            -amount,
            Some(&card.id),
        )?;
        card.balance = amount;
    }
    let secrets = vault(ctx)?.issue(
        ctx.tx,
        ctx.env,
        &ctx.client,
        &card.id,
        card.brand == Brand::Visa,
    )?;
    card.masked_pan = Some(vault::mask(&secrets.pan));
    card.last4 = Some(secrets.pan[secrets.pan.len() - 4..].to_string());
    save(ctx, &card)?;
    api::created("Card created successfully", card.to_json())
}

pub fn get(ctx: &mut Ctx) -> ApiResult<Response> {
    let id = ctx.id.clone();
    let card = load(ctx, &id)?;
    api::ok("Card fetched successfully", card.to_json())
}

pub fn list(ctx: &mut Ctx) -> ApiResult<Response> {
    let q = ctx.list_query(&SCHEMA)?;
    let cards: Vec<Card> = records::list(ctx.tx, &keys::prefix(keys::CARD, &[&ctx.client]))?;
    let (mut items, total) = q.select(cards.iter().map(Card::to_json).collect());
    // Many cards share a holder or an account: load each related record once per request.
    let mut loaded: HashMap<(&str, String), Option<Value>> = HashMap::new();
    for item in &mut items {
        for p in &q.populate {
            let (id_field, tag) = match p.name.as_str() {
                "cardHolder" => ("cardHolderId", keys::CARD_HOLDER),
                "debitAccount" => ("debitAccountId", keys::ACCOUNT),
                _ => continue,
            };
            let id = item[id_field].as_str().unwrap_or_default().to_string();
            let related = match loaded.entry((tag, id)) {
                Entry::Occupied(e) => e.get().clone(),
                Entry::Vacant(e) => {
                    let key = keys::key(tag, &[&ctx.client, &e.key().1]);
                    let doc = match tag {
                        keys::ACCOUNT => {
                            records::get::<Account>(ctx.tx, &key)?.map(|a| a.to_json())
                        }
                        _ => records::get::<Value>(ctx.tx, &key)?,
                    };
                    e.insert(doc).clone()
                }
            };
            item[p.name.as_str()] = match (related, &p.fields) {
                (Some(doc), Some(fields)) => query::project_fields(doc, fields),
                (Some(doc), None) => doc,
                (None, _) => Value::Null,
            };
        }
    }
    api::list("Cards fetched successfully", &q, items, total)
}

/// Cancels `card` (PUT canceled or DELETE): refunds its balance to the credit account, or else to
/// its debit account, as a ledger entry, and destroys its PAN and CVV.
fn cancel(
    ctx: &mut Ctx,
    card: &mut Card,
    trigger: CardTrigger,
    reason: Option<CancellationReason>,
    credit_account_id: Option<String>,
) -> ApiResult<()> {
    card.status = card_move(card.status, trigger)?;
    let refund_to = credit_account_id.unwrap_or_else(|| card.debit_account_id.clone());
    let mut account = accounts::load(ctx, &refund_to)?;
    if card.balance > Decimal::ZERO {
        account.check_creditable()?;
        check_currency(card, &account)?;
        ledger::post(
            ctx,
            &mut account,
            EntryType::CardRefund,
            card.balance,
            Some(&card.id),
        )?;
        card.balance = Decimal::ZERO;
    }
    vault::destroy(ctx.tx, &ctx.client, &card.id)?;
    card.cancellation_reason = reason;
    card.canceled_at = Some(ctx.now_string());
    Ok(())
}

pub fn update(ctx: &mut Ctx) -> ApiResult<Response> {
    let id = ctx.id.clone();
    let body = ctx.json_body()?;
    let update = validate_update(body)?;
    let mut card = load(ctx, &id)?;
    card.check_not_canceled()?;
    if let Some(given) = update.spending_controls {
        let mut errors = Errors::default();
        let merged = controls::merge(
            &card.spending_controls,
            given,
            "spendingControls",
            &mut errors,
        );
        errors.finish(())?;
        card.spending_controls = merged;
    }
    if let Some(metadata) = update.metadata {
        card.metadata = metadata;
    }
    match update.status {
        Some(to) if to == card.status => {}
        Some(CardStatus::Inactive) => card.status = card_move(card.status, CardTrigger::Pause)?,
        Some(CardStatus::Active) => card.status = card_move(card.status, CardTrigger::Resume)?,
        Some(CardStatus::Canceled) => cancel(
            ctx,
            &mut card,
            CardTrigger::Cancel,
            update.cancellation_reason,
            update.credit_account_id,
        )?,
        None => {}
    }
    card.updated_at = ctx.now_string();
    save(ctx, &card)?;
    api::ok("Card updated successfully", card.to_json())
}

pub fn delete(ctx: &mut Ctx) -> ApiResult<Response> {
    let id = ctx.id.clone();
    let mut card = load(ctx, &id)?;
    card.check_not_canceled()?;
    cancel(ctx, &mut card, CardTrigger::Terminate, None, None)?;
    card.updated_at = ctx.now_string();
    save(ctx, &card)?;
    api::ok("Card terminated successfully", card.to_json())
}

pub fn fund(ctx: &mut Ctx) -> ApiResult<Response> {
    let id = ctx.id.clone();
    let body = ctx.json_body()?;
    let funding = validate_fund(body)?;
    let mut card = load(ctx, &id)?;
    card.check_not_canceled()?;
    let mut account = debit_account(ctx, &card, &funding.debit_account_id)?;
    ledger::post(
        ctx,
        &mut account,
        EntryType::CardFunding,
        -funding.amount,
        Some(&card.id),
    )?;
    card.balance = (card.balance + funding.amount).normalize();
    card.updated_at = ctx.now_string();
    save(ctx, &card)?;
    api::ok("Card funded successfully", card.to_json())
}

pub fn token(ctx: &mut Ctx) -> ApiResult<Response> {
    let id = ctx.id.clone();
    let card = load(ctx, &id)?;
    card.check_not_canceled()?;
    let ttl = ctx.service.config.token_ttl_secs;
    let (token, expires) = vault::create_token(ctx.tx, ctx.env, &ctx.client, &card.id, ttl)?;
    api::created(
        "Card token created successfully",
        json!({"token": token, "expiresAt": expires.to_rfc3339()}),
    )
}

pub fn reveal(ctx: &mut Ctx) -> ApiResult<Response> {
    let id = ctx.id.clone();
    let card = load(ctx, &id)?;
    if card.status == CardStatus::Canceled {
        return Err(ApiError::InvalidState(
            "Card is canceled and cannot be revealed".into(),
        ));
    }
    let token = form_urlencoded::parse(ctx.req.query.as_bytes())
        .find(|(k, _)| k == "token")
        .map(|(_, v)| v.into_owned());
    vault::consume_token(ctx.tx, ctx.now, &ctx.client, &card.id, token.as_deref())?;
    let secrets = vault(ctx)?.reveal(ctx.tx, &ctx.client, &card.id)?;
    Ok(Response::json(
        200,
        &json!({
            "pan": secrets.pan,
            "cvv": secrets.cvv,
            "expiryMonth": card.expiry_month,
            "expiryYear": card.expiry_year,
        }),
    )
    .with_header("cache-control", "no-store"))
}
