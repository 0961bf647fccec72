//! The bodies of POST /cards, PUT /cards/{id} and POST /cards/{id}/fund, validated into typed commands.

use rust_decimal::Decimal;
use serde_json::{Map, Value};

use super::controls;
use crate::domain::Currency;
use crate::domain::cards::{
    Brand, CancellationReason, CardStatus, CardType, CardUpdate, ControlsPatch, Funding, NewCard,
    SpendingControls,
};
use crate::error::{ApiError, ApiResult};
use crate::http::fields::{Errors, Fields};
use crate::storage::codec::JsonText;

/// Parses a `spendingControls` object and checks it over the default controls, so that a combination
/// error is reported together with the shape errors.
fn controls_patch(f: &mut Fields, m: Map<String, Value>) -> ControlsPatch {
    let path = f.path("spendingControls");
    let patch = controls::patch(m, &path, f.errors);
    if let Err(ApiError::Validation(mut more)) = SpendingControls::default().apply(patch.clone()) {
        f.errors.0.append(&mut more);
    }
    patch
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

pub fn create(body: Map<String, Value>) -> ApiResult<NewCard> {
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
        .opt_enum("currency", Currency::CARD)
        .and_then(|s| Currency::parse(&s));
    let metadata = f.opt_object("metadata");
    let controls = f
        .opt_object("spendingControls")
        .map(|m| controls_patch(&mut f, m));
    let enable_2fa = f.opt_bool("enable2FA");
    let amount = min_amount(&mut f, "amount", Decimal::ONE, false);
    let disposable = f.opt_bool("disposable");
    f.finish();
    let (Some(debit_account_id), Some(card_holder_id), Some(kind), Some(brand), Some(status)) =
        (debit_account_id, card_holder_id, kind, brand, status)
    else {
        return Err(ApiError::Validation(errors.0));
    };
    errors.finish(NewCard {
        debit_account_id,
        card_holder_id,
        kind,
        brand,
        status,
        currency: currency.unwrap_or_else(Currency::default_card),
        metadata: JsonText(metadata.unwrap_or_default()),
        spending_controls: controls.unwrap_or_default(),
        enable_2fa: enable_2fa.unwrap_or(true),
        amount,
        disposable: disposable.unwrap_or(false),
    })
}

/// Sent with a value: `null` counts as absent, as everywhere in a body (`Fields::take`).
fn given(f: &Fields, key: &str) -> bool {
    f.has(key) && !f.is_null(key)
}

/// Validates a PUT body on its own; the domain applies its spending controls over the card's.
pub fn update(body: Map<String, Value>) -> ApiResult<CardUpdate> {
    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    let reason = f
        .opt_enum("cancellationReason", CancellationReason::ALL)
        .and_then(|s| CancellationReason::parse(&s));
    let reason_given = given(&f, "cancellationReason");
    let metadata = f.opt_object("metadata");
    let status = f
        .opt_enum("status", CardStatus::ALL)
        .and_then(|s| CardStatus::parse(&s));
    let status_given = given(&f, "status");
    let spending_controls = f
        .opt_object("spendingControls")
        .map(|m| controls_patch(&mut f, m));
    let credit_account_id = id_field(&mut f, "creditAccountId", false);
    let credit_given = given(&f, "creditAccountId");
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
        metadata: metadata.map(JsonText),
        spending_controls,
        credit_account_id,
    })
}

pub fn fund(body: Map<String, Value>) -> ApiResult<Funding> {
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
        _ => Err(ApiError::Validation(errors.0)),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn fields_of(body: Value) -> Vec<String> {
        let Value::Object(m) = body else {
            unreachable!()
        };
        match update(m) {
            Err(ApiError::Validation(errors)) => errors.into_iter().map(|e| e.field).collect(),
            other => panic!("expected a validation error, got {other:?}"),
        }
    }

    /// `null` is absent in an update too: a null status does not let a cancellation reason through,
    /// and a null reason does not satisfy a cancellation (found by the contract tests).
    #[test]
    fn null_counts_as_absent_in_the_cancel_rules() {
        assert_eq!(
            fields_of(json!({"status": null, "cancellationReason": "lost"})),
            ["cancellationReason"]
        );
        assert_eq!(
            fields_of(json!({"status": "canceled", "cancellationReason": null})),
            ["cancellationReason"]
        );
        assert_eq!(
            fields_of(json!({"creditAccountId": "x", "status": null})),
            ["creditAccountId"]
        );
        let Value::Object(m) = json!({"status": null, "cancellationReason": null}) else {
            unreachable!()
        };
        assert!(update(m).is_ok());
    }
}
