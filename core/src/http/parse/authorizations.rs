//! The bodies of POST /cards/{id}/authorizations and of capture, reverse and refund.

use rust_decimal::Decimal;
use serde_json::{Map, Value};

use crate::domain::authorizations::{Channel, DeclineReason, Merchant, NewAuthorization};
use crate::domain::cards::is_category;
use crate::error::{ApiError, ApiResult};
use crate::http::fields::{Errors, Fields};
use crate::http::parse::input::body;

fn is_mcc(c: &str) -> bool {
    c.len() == 4 && c.bytes().all(|b| b.is_ascii_digit())
}

fn is_country(c: &str) -> bool {
    c.len() == 2 && c.bytes().all(|b| b.is_ascii_alphabetic())
}

body! {
    /// The merchant of a simulated purchase.
    pub struct MerchantBody = "Merchant" {
        required name: "name", Text(100);
        optional category: "category",
            Pattern("^[a-z0-9_]{1,64}$", is_category, "must be 1 to 64 characters of a-z, 0-9 and _");
        optional mcc: "mcc", Pattern("^[0-9]{4}$", is_mcc, "must be 4 digits");
        optional city: "city", Text(100);
        optional country: "country",
            Pattern("^[A-Za-z]{2}$", is_country, "must be an ISO 3166-1 alpha-2 code");
    }
}

body! {
    /// `simulate` of a purchase.
    pub struct SimulateBody = "Simulate" {
        required decline_reason: "declineReason", Enum(DeclineReason::ALL);
    }
}

body! {
    /// POST /cards/{id}/authorizations.
    pub struct AuthorizationBody = "AuthorizationCreate" {
        required amount: "amount", Amount;
        optional currency: "currency", Currency;
        required channel: "channel", Enum(Channel::ALL);
        required merchant: "merchant", Inline(&MerchantBody::BODY);
        optional partial_approval_capable: "partialApprovalCapable", Bool;
        optional simulate: "simulate", Inline(&SimulateBody::BODY),
            "A forced outcome: declined with this reason, nothing checked, no money moves.";
    }
}

fn merchant(f: &mut Fields) -> Option<Merchant> {
    let map = f.read(&AuthorizationBody::merchant)?;
    let path = f.path("merchant");
    let mut m = Fields::new(map, &path, f.errors);
    let name = m.read(&MerchantBody::name);
    let category = m.read(&MerchantBody::category);
    let mcc = m.read(&MerchantBody::mcc);
    let city = m.read(&MerchantBody::city);
    let country = m
        .read(&MerchantBody::country)
        .map(|c| c.to_ascii_uppercase());
    m.finish();
    Some(Merchant {
        name: name?,
        category,
        mcc,
        city,
        country,
    })
}

pub fn create(body: Map<String, Value>) -> ApiResult<NewAuthorization> {
    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    let amount = f.read(&AuthorizationBody::amount);
    let currency = f.read(&AuthorizationBody::currency);
    let channel = f
        .read(&AuthorizationBody::channel)
        .and_then(|s| Channel::parse(&s));
    let merchant = merchant(&mut f);
    let partial_approval_capable = f
        .read(&AuthorizationBody::partial_approval_capable)
        .unwrap_or(false);
    let simulate_decline = simulate(&mut f);
    f.finish();
    let (Some(amount), Some(channel), Some(merchant)) = (amount, channel, merchant) else {
        return Err(ApiError::Validation(errors.0));
    };
    errors.finish(NewAuthorization {
        amount,
        currency,
        channel,
        merchant,
        partial_approval_capable,
        simulate_decline,
    })
}

/// `simulate: {declineReason}`: a forced outcome, any reason a purchase can be declined for.
fn simulate(f: &mut Fields) -> Option<DeclineReason> {
    let map = f.read(&AuthorizationBody::simulate)?;
    let path = f.path("simulate");
    let mut m = Fields::new(map, &path, f.errors);
    let reason = m
        .read(&SimulateBody::decline_reason)
        .and_then(|r| DeclineReason::parse(&r));
    m.finish();
    reason
}

body! {
    /// POST /authorizations/{id}/increment.
    pub struct IncrementBody = "IncrementBody" {
        required amount: "amount", Amount;
    }
}

body! {
    /// The body of capture, reverse and refund.
    pub struct AmountBody = "AmountBody",
        "Without `amount` (or without a body), the whole remaining amount." {
        optional amount: "amount", Amount;
    }
}

/// `{amount}` of an increment: required, > 0, at most 2 decimals.
pub fn increment(body: Map<String, Value>) -> ApiResult<Decimal> {
    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    let amount = f.read(&IncrementBody::amount);
    f.finish();
    errors.finish(amount.unwrap_or_default())
}

/// `{amount?}` of capture, reverse and refund.
pub fn amount(body: Map<String, Value>) -> ApiResult<Option<Decimal>> {
    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    let amount = f.read(&AmountBody::amount);
    f.finish();
    errors.finish(amount)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::http::forms;

    fn fields(body: serde_json::Value) -> Vec<String> {
        forms::create_authorization(&body)
            .into_iter()
            .map(|e| e.field)
            .collect()
    }

    #[test]
    fn the_browser_sees_the_servers_field_errors() {
        let ok =
            json!({"amount": 1.5, "channel": "web", "merchant": {"name": "Shop", "mcc": "5411"}});
        assert!(fields(ok).is_empty());
        assert_eq!(
            fields(json!({"amount": 0, "channel": "tv", "merchant": {"mcc": "1", "x": 1}, "y": 2})),
            vec![
                "amount",
                "channel",
                "merchant.name",
                "merchant.mcc",
                "merchant.x",
                "y"
            ]
        );
        assert_eq!(fields(json!([])), vec!["body"]);
    }
}
