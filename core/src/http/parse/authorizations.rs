//! The bodies of POST /cards/{id}/authorizations and of capture, reverse and refund.

use rust_decimal::Decimal;
use serde_json::{Map, Value};

use crate::domain::Currency;
use crate::domain::authorizations::{Channel, DeclineReason, Merchant, NewAuthorization};
use crate::domain::cards::is_category;
use crate::error::{ApiError, ApiResult};
use crate::http::fields::{Errors, Fields};
use crate::http::parse::input::body;

/// An amount > 0 with at most 2 decimals.
fn positive_amount(f: &mut Fields, key: &str, required: bool) -> Option<Decimal> {
    let amount = if required {
        f.money(key)
    } else {
        f.opt_money(key)
    }?;
    if amount <= Decimal::ZERO {
        f.error(key, "must be greater than 0");
        return None;
    }
    Some(amount)
}

fn merchant(f: &mut Fields) -> Option<Merchant> {
    let map = f.object_field("merchant")?;
    let path = f.path("merchant");
    let mut m = Fields::new(map, &path, f.errors);
    let name = m.text("name", 100);
    let category = m.opt_str("category").and_then(|c| {
        if is_category(&c) {
            Some(c)
        } else {
            m.error("category", "must be 1 to 64 characters of a-z, 0-9 and _");
            None
        }
    });
    let mcc = m.opt_str("mcc").and_then(|c| {
        if c.len() == 4 && c.bytes().all(|b| b.is_ascii_digit()) {
            Some(c)
        } else {
            m.error("mcc", "must be 4 digits");
            None
        }
    });
    let city = m.opt_text("city", 100);
    let country = m.opt_str("country").and_then(|c| {
        if c.len() == 2 && c.bytes().all(|b| b.is_ascii_alphabetic()) {
            Some(c.to_ascii_uppercase())
        } else {
            m.error("country", "must be an ISO 3166-1 alpha-2 code");
            None
        }
    });
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
    let amount = positive_amount(&mut f, "amount", true);
    let currency = f.opt_str("currency").and_then(|c| {
        let parsed = Currency::parse(&c);
        if parsed.is_none() {
            f.error("currency", "must be 3 to 10 characters of A-Z and 0-9");
        }
        parsed
    });
    let channel = f
        .enumeration("channel", Channel::ALL)
        .and_then(|s| Channel::parse(&s));
    let merchant = merchant(&mut f);
    let partial_approval_capable = f.opt_bool("partialApprovalCapable").unwrap_or(false);
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
    let map = f.opt_object("simulate")?;
    let path = f.path("simulate");
    let mut m = Fields::new(map, &path, f.errors);
    let reason = m
        .enumeration("declineReason", DeclineReason::ALL)
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
