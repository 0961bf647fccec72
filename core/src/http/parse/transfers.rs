//! The body of POST /accounts/transfers, validated into a typed command.

use rust_decimal::Decimal;
use serde_json::{Map, Value};

use crate::domain::transfers::NewTransfer;
use crate::error::{ApiError, ApiResult};
use crate::http::fields::{Errors, Fields};

pub fn create(body: Map<String, Value>) -> ApiResult<NewTransfer> {
    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    let debit_account_id = f.text("debitAccountId", 64);
    let credit_account_id = f.text("creditAccountId", 64);
    let amount = f.money("amount").and_then(|a| {
        // The smallest amount funding takes, too.
        if a < Decimal::new(1, 2) {
            f.error("amount", "must be at least 0.01");
            None
        } else {
            Some(a)
        }
    });
    let narration = f.opt_text("narration", 255);
    let reference = f.opt_text("reference", 100);
    // A transfer to itself would move nothing: a mistake in the body, judged without storage.
    if debit_account_id.is_some() && debit_account_id == credit_account_id {
        f.error("creditAccountId", "must differ from debitAccountId");
    }
    f.finish();
    match (debit_account_id, credit_account_id, amount) {
        (Some(debit_account_id), Some(credit_account_id), Some(amount)) => {
            errors.finish(NewTransfer {
                debit_account_id,
                credit_account_id,
                amount,
                narration,
                reference,
            })
        }
        _ => Err(ApiError::Validation(errors.0)),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::http::forms;

    fn fields(body: serde_json::Value) -> Vec<String> {
        forms::create_transfer(&body)
            .into_iter()
            .map(|e| e.field)
            .collect()
    }

    #[test]
    fn the_browser_sees_the_servers_field_errors() {
        let ok = json!({"debitAccountId": "a", "creditAccountId": "b", "amount": 10.5,
                        "narration": "Rent", "reference": "r-1"});
        assert!(fields(ok).is_empty());
        assert_eq!(
            fields(json!({"debitAccountId": "a", "creditAccountId": "a", "amount": 0})),
            vec!["amount", "creditAccountId"]
        );
        assert_eq!(
            fields(json!({"amount": 1.001, "narration": "", "x": 1})),
            vec![
                "debitAccountId",
                "creditAccountId",
                "amount",
                "narration",
                "x"
            ]
        );
        assert_eq!(fields(json!(null)), vec!["body"]);
    }
}
