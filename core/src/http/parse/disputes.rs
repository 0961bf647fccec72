//! The bodies of POST /card-transactions/{id}/disputes and POST /disputes/{id}/resolve.

use serde_json::{Map, Value};

use crate::domain::disputes::{DisputeReason, NewDispute, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::http::fields::{Errors, Fields};
use crate::http::parse::input::body;

body! {
    /// POST /card-transactions/{id}/disputes.
    pub struct DisputeBody = "DisputeCreate" {
        required reason: "reason", Enum(DisputeReason::ALL);
        optional amount: "amount", Amount,
            "Default: all of the capture not yet refunded or disputed.";
        optional explanation: "explanation", Text(1000);
    }
}

body! {
    /// POST /disputes/{id}/resolve.
    pub struct ResolveBody = "DisputeResolve" {
        required outcome: "outcome", Enum(Outcome::ALL);
    }
}

pub fn create(body: Map<String, Value>) -> ApiResult<NewDispute> {
    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    let reason = f
        .read(&DisputeBody::reason)
        .and_then(|r| DisputeReason::parse(&r));
    let amount = f.read(&DisputeBody::amount);
    let explanation = f.read(&DisputeBody::explanation);
    f.finish();
    let Some(reason) = reason else {
        return Err(ApiError::Validation(errors.0));
    };
    errors.finish(NewDispute {
        reason,
        amount,
        explanation,
    })
}

pub fn resolve(body: Map<String, Value>) -> ApiResult<Outcome> {
    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    let outcome = f
        .read(&ResolveBody::outcome)
        .and_then(|o| Outcome::parse(&o));
    f.finish();
    match outcome {
        Some(o) => errors.finish(o),
        None => Err(ApiError::Validation(errors.0)),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::http::forms;

    fn fields(body: serde_json::Value) -> Vec<String> {
        forms::create_dispute(&body)
            .into_iter()
            .map(|e| e.field)
            .collect()
    }

    #[test]
    fn the_browser_sees_the_servers_field_errors() {
        assert!(fields(json!({"reason": "fraudulent"})).is_empty());
        assert!(
            fields(json!({"reason": "other", "amount": 5, "explanation": "Never came"})).is_empty()
        );
        assert_eq!(
            fields(json!({"reason": "angry", "amount": -1, "explanation": "", "y": 1})),
            vec!["reason", "amount", "explanation", "y"]
        );
        assert_eq!(fields(json!({})), vec!["reason"]);
        assert_eq!(
            forms::resolve_dispute(&json!({"outcome": "maybe"}))
                .into_iter()
                .map(|e| e.field)
                .collect::<Vec<_>>(),
            vec!["outcome"]
        );
        assert!(forms::resolve_dispute(&json!({"outcome": "won"})).is_empty());
    }
}
