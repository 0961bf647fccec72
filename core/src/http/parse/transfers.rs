//! The body of POST /accounts/transfers, validated into a typed command.

use serde_json::{Map, Value};

use crate::domain::transfers::NewTransfer;
use crate::error::{ApiError, ApiResult};
use crate::http::fields::{Errors, Fields};
use crate::http::parse::input::body;

body! {
    /// POST /accounts/transfers.
    pub struct TransferBody = "TransferCreate" {
        required debit_account_id: "debitAccountId", Text(64);
        required credit_account_id: "creditAccountId", Text(64),
            "Another account than `debitAccountId`, in its currency.";
        // The smallest amount funding takes, too.
        required amount: "amount", AmountFrom(1, 2);
        optional narration: "narration", Text(255);
        optional reference: "reference", Text(100);
    }
}

pub fn create(body: Map<String, Value>) -> ApiResult<NewTransfer> {
    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    let debit_account_id = f.read(&TransferBody::debit_account_id);
    let credit_account_id = f.read(&TransferBody::credit_account_id);
    let amount = f.read(&TransferBody::amount);
    let narration = f.read(&TransferBody::narration);
    let reference = f.read(&TransferBody::reference);
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
