//! The bodies of POST /cards, PUT /cards/{id} and POST /cards/{id}/fund, validated into typed input.

use rust_decimal::Decimal;
use serde_json::{Map, Value};

use super::controls::{self, SpendingControls};
use super::{Brand, CancellationReason, CardCurrency, CardStatus, CardType};
use crate::error::ApiResult;
use crate::validate::{Errors, Fields};

pub struct NewCard {
    pub debit_account_id: String,
    pub card_holder_id: String,
    pub kind: CardType,
    pub brand: Brand,
    pub status: CardStatus,
    pub currency: CardCurrency,
    pub metadata: Map<String, Value>,
    pub spending_controls: SpendingControls,
    pub enable_2fa: bool,
    pub amount: Option<Decimal>,
    pub disposable: bool,
}

pub struct CardUpdate {
    pub status: Option<CardStatus>,
    pub cancellation_reason: Option<CancellationReason>,
    pub metadata: Option<Map<String, Value>>,
    pub spending_controls: Option<Map<String, Value>>,
    pub credit_account_id: Option<String>,
}

pub struct Funding {
    pub debit_account_id: String,
    pub amount: Decimal,
}

fn id_field(f: &mut Fields, key: &str, required: bool) -> Option<String> {
    if required {
        f.text(key, 64)
    } else {
        f.opt_text(key, 64)
    }
}

fn min_amount(f: &mut Fields, key: &str, min: Decimal, required: bool) -> Option<Decimal> {
    let amount = if required {
        f.money(key)
    } else {
        f.opt_money(key)
    }?;
    if amount < min {
        f.error(key, format!("must be at least {min}"));
        return None;
    }
    Some(amount)
}

pub fn validate_create(body: Map<String, Value>) -> ApiResult<NewCard> {
    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    let debit_account_id = id_field(&mut f, "debitAccountId", true);
    let card_holder_id = id_field(&mut f, "cardHolderId", true);
    let kind = f
        .enumeration("type", CardType::ALL)
        .and_then(|s| CardType::parse(&s));
    let brand = match f.str("brand") {
        Some(s) => {
            let b = Brand::parse_loose(&s);
            if b.is_none() {
                f.error("brand", "must be one of: Visa, MasterCard");
            }
            b
        }
        None => None,
    };
    let status = match f.enumeration("status", &["active", "inactive"]) {
        Some(s) => CardStatus::parse(&s),
        None => None,
    };
    let currency = f
        .opt_enum("currency", CardCurrency::ALL)
        .map(|s| CardCurrency::parse(&s));
    let metadata = f.opt_object("metadata");
    let controls = f.opt_object("spendingControls").map(|m| {
        let path = f.path("spendingControls");
        controls::merge(&SpendingControls::default(), m, &path, f.errors)
    });
    let enable_2fa = f.opt_bool("enable2FA");
    let amount = min_amount(&mut f, "amount", Decimal::ONE, false);
    let disposable = f.opt_bool("disposable");
    f.finish();
    let (Some(debit_account_id), Some(card_holder_id), Some(kind), Some(brand), Some(status)) =
        (debit_account_id, card_holder_id, kind, brand, status)
    else {
        return Err(crate::error::ApiError::Validation(errors.0));
    };
    errors.finish(NewCard {
        debit_account_id,
        card_holder_id,
        kind,
        brand,
        status,
        currency: currency.flatten().unwrap_or(CardCurrency::Usd),
        metadata: metadata.unwrap_or_default(),
        spending_controls: controls.unwrap_or_default(),
        enable_2fa: enable_2fa.unwrap_or(true),
        amount,
        disposable: disposable.unwrap_or(false),
    })
}

/// Validates a PUT body on its own; spending controls are merged over the card's by the route.
pub fn validate_update(body: Map<String, Value>) -> ApiResult<CardUpdate> {
    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    let reason = f
        .opt_enum("cancellationReason", CancellationReason::ALL)
        .and_then(|s| CancellationReason::parse(&s));
    let reason_given = f.has("cancellationReason");
    let metadata = f.opt_object("metadata");
    let status = f
        .opt_enum("status", CardStatus::ALL)
        .and_then(|s| CardStatus::parse(&s));
    let status_given = f.has("status");
    let spending_controls = f.opt_object("spendingControls");
    if let Some(m) = &spending_controls {
        // Checked here against the defaults so every shape error is reported with the others.
        let path = f.path("spendingControls");
        controls::merge(&SpendingControls::default(), m.clone(), &path, f.errors);
    }
    let credit_account_id = id_field(&mut f, "creditAccountId", false);
    let credit_given = f.has("creditAccountId");
    f.finish();
    let canceling = status == Some(CardStatus::Canceled);
    // A bad status value is reported on its own, not again through the fields that depend on it.
    let status_ok = !status_given || status.is_some();
    if canceling && !reason_given {
        errors.push("cancellationReason", "is required when status is canceled");
    }
    if status_ok && !canceling {
        if reason_given {
            errors.push(
                "cancellationReason",
                "is only accepted with status canceled",
            );
        }
        if credit_given {
            errors.push("creditAccountId", "is only accepted with status canceled");
        }
    }
    errors.finish(CardUpdate {
        status,
        cancellation_reason: reason,
        metadata,
        spending_controls,
        credit_account_id,
    })
}

pub fn validate_fund(body: Map<String, Value>) -> ApiResult<Funding> {
    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    let debit_account_id = id_field(&mut f, "debitAccountId", true);
    let amount = min_amount(&mut f, "amount", Decimal::new(1, 2), true);
    f.finish();
    match (debit_account_id, amount) {
        (Some(debit_account_id), Some(amount)) => errors.finish(Funding {
            debit_account_id,
            amount,
        }),
        _ => Err(crate::error::ApiError::Validation(errors.0)),
    }
}
