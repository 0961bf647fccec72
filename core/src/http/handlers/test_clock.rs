//! `GET /test-clock` and `POST /test-clock/advance`: the caller's clock, and moving it forward.
//! Both answer 404 when the operator turned the test clock off (`Config::test_clock`).

use serde::Serialize;

use super::{Call, Command, command};
use crate::domain::test_clock::{self, Clock};
use crate::env::Timestamp;
use crate::error::{ApiError, ApiResult};
use crate::http::{Response, parse, reply};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClockView {
    now: String,
    offset_seconds: i64,
}

impl From<Clock> for ClockView {
    fn from(c: Clock) -> Self {
        ClockView {
            now: Timestamp::to_rfc3339(c.now),
            offset_seconds: c.offset_secs,
        }
    }
}

fn enabled(c: &Call) -> ApiResult<()> {
    if c.config.test_clock {
        Ok(())
    } else {
        Err(ApiError::NotFound("Route"))
    }
}

pub fn get(c: &mut Call) -> ApiResult<Response> {
    enabled(c)?;
    let clock = test_clock::get(&mut c.scope)?;
    Ok(reply::ok(
        "Test clock fetched successfully",
        &ClockView::from(clock),
    ))
}

pub fn check_advance(c: &mut Call) -> ApiResult<Command> {
    enabled(c)?;
    command(parse::test_clock::advance(c.json_body()?)?)
}

pub fn advance(c: &mut Call) -> ApiResult<Response> {
    enabled(c)?;
    let seconds = *c.command()?;
    let clock = crate::domain::outbox::advance_clock(&mut c.scope, seconds)?;
    Ok(reply::ok(
        "Test clock advanced successfully",
        &ClockView::from(clock),
    ))
}
