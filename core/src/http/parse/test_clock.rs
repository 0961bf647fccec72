//! The body of POST /test-clock/advance.

use serde_json::{Map, Value};

use crate::error::ApiResult;
use crate::http::fields::{Errors, Fields};

/// `{seconds}`: a whole number of seconds > 0 (the 10-year bound is the domain's, it depends on the
/// clock's current offset).
pub fn advance(body: Map<String, Value>) -> ApiResult<i64> {
    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    let seconds = match f.take("seconds") {
        None | Some(Value::Null) => {
            f.error("seconds", "is required");
            None
        }
        Some(v @ Value::Number(_)) => match crate::http::fields::whole_number(&v) {
            Some(s) if s > 0 => Some(s),
            _ => {
                f.error("seconds", "must be a whole number greater than 0");
                None
            }
        },
        Some(_) => {
            f.error("seconds", "must be a whole number greater than 0");
            None
        }
    };
    f.finish();
    errors.finish(seconds.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn parse(v: Value) -> ApiResult<i64> {
        match v {
            Value::Object(m) => advance(m),
            _ => unreachable!(),
        }
    }

    #[test]
    fn seconds_are_a_positive_whole_number() {
        assert_eq!(parse(json!({"seconds": 86400})).unwrap(), 86400);
        for bad in [
            json!({}),
            json!({"seconds": 0}),
            json!({"seconds": -5}),
            json!({"seconds": 1.5}),
            json!({"seconds": "10"}),
            json!({"seconds": 10, "other": 1}),
        ] {
            assert!(parse(bad.clone()).is_err(), "{bad}");
        }
    }
}
