//! The body of POST /test-clock/advance.

use serde_json::{Map, Value};

use crate::domain::test_clock::MAX_OFFSET_SECS;
use crate::error::ApiResult;
use crate::http::fields::{Errors, Fields};
use crate::http::parse::input::body;

body! {
    /// POST /test-clock/advance: the 10-year bound is the domain's (it depends on the clock's
    /// current offset); the document states it.
    pub struct AdvanceBody = "TestClockAdvance" {
        required seconds: "seconds", WholeNumber(1, MAX_OFFSET_SECS);
    }
}

/// `{seconds}`: a whole number of seconds > 0.
pub fn advance(body: Map<String, Value>) -> ApiResult<i64> {
    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    let seconds = f.read(&AdvanceBody::seconds);
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
