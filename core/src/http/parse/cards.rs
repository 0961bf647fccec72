//! The bodies of POST /cards, PUT /cards/{id} and POST /cards/{id}/fund, validated into typed commands.

use serde_json::{Map, Value};

use super::controls;
use crate::domain::Currency;
use crate::domain::cards::{
    Brand, CancellationReason, CardStatus, CardType, CardUpdate, ControlsPatch, Funding, NewCard,
    SpendingControls,
};
use crate::error::{ApiError, ApiResult};
use crate::http::fields::{Errors, Fields};
use crate::http::parse::input::body;
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

body! {
    /// POST /cards.
    pub struct CardBody = "CardCreate" {
        required debit_account_id: "debitAccountId", Text(64);
        required card_holder_id: "cardHolderId", Text(64);
        required kind: "type", Enum(CardType::ALL);
        required brand: "brand", LooseEnum(Brand::ALL);
        // A card is issued active or inactive, never canceled.
        required status: "status", Enum(&["active", "inactive"]);
        optional currency: "currency", Enum(Currency::CARD);
        optional metadata: "metadata", Object;
        optional spending_controls: "spendingControls", Ref("SpendingControlsInput");
        optional enable_2fa: "enable2FA", Bool;
        optional amount: "amount", AmountFrom(1, 0);
        optional disposable: "disposable", Bool;
    }
}

body! {
    /// POST /cards/{id}/fund.
    pub struct FundingBody = "CardFunding" {
        required debit_account_id: "debitAccountId", Text(64);
        required amount: "amount", AmountFrom(1, 2);
    }
}

pub fn create(body: Map<String, Value>) -> ApiResult<NewCard> {
    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    let debit_account_id = f.read(&CardBody::debit_account_id);
    let card_holder_id = f.read(&CardBody::card_holder_id);
    let kind = f.read(&CardBody::kind).and_then(|s| CardType::parse(&s));
    let brand = match f.read(&CardBody::brand) {
        Some(s) => {
            let b = Brand::parse_loose(&s);
            if b.is_none() {
                f.error("brand", "must be one of: Visa, MasterCard");
            }
            b
        }
        None => None,
    };
    let status = f
        .read(&CardBody::status)
        .and_then(|s| CardStatus::parse(&s));
    let currency = f
        .read(&CardBody::currency)
        .and_then(|s| Currency::parse(&s));
    let metadata = f.read(&CardBody::metadata);
    let controls = f
        .read(&CardBody::spending_controls)
        .map(|m| controls_patch(&mut f, m));
    let enable_2fa = f.read(&CardBody::enable_2fa);
    let amount = f.read(&CardBody::amount);
    let disposable = f.read(&CardBody::disposable);
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

body! {
    /// PUT /cards/{id}.
    pub struct CardUpdateBody = "CardUpdate",
        "`cancellationReason` is required with, and `creditAccountId` only accepted with, `status: canceled`." {
        optional status: "status", Enum(CardStatus::ALL);
        optional cancellation_reason: "cancellationReason", Enum(CancellationReason::ALL);
        optional metadata: "metadata", Object;
        optional spending_controls: "spendingControls", Ref("SpendingControlsInput");
        optional credit_account_id: "creditAccountId", Text(64);
    }
}

/// Validates a PUT body on its own; the domain applies its spending controls over the card's.
pub fn update(body: Map<String, Value>) -> ApiResult<CardUpdate> {
    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    let reason = f
        .read(&CardUpdateBody::cancellation_reason)
        .and_then(|s| CancellationReason::parse(&s));
    let reason_given = given(&f, "cancellationReason");
    let metadata = f.read(&CardUpdateBody::metadata);
    let status = f
        .read(&CardUpdateBody::status)
        .and_then(|s| CardStatus::parse(&s));
    let status_given = given(&f, "status");
    let spending_controls = f
        .read(&CardUpdateBody::spending_controls)
        .map(|m| controls_patch(&mut f, m));
    let credit_account_id = f.read(&CardUpdateBody::credit_account_id);
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
    let debit_account_id = f.read(&FundingBody::debit_account_id);
    let amount = f.read(&FundingBody::amount);
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
