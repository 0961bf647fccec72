//! /events: the log of changes, newest first by default.

use super::{Call, to_value};
use crate::domain::events;
use crate::error::ApiResult;
use crate::http::listing::Records;
use crate::http::views::{self, EventView};
use crate::http::{Response, reply};

pub fn list(c: &mut Call) -> ApiResult<Response> {
    let q = c.list_query(&views::EVENT)?;
    let page = q.run(
        &mut Records::new(&mut c.scope, |_, e| to_value(EventView::from(&e))),
        None,
    )?;
    Ok(reply::list("Events fetched successfully", &q, page))
}

pub fn get(c: &mut Call) -> ApiResult<Response> {
    let event = events::get(&mut c.scope, &c.route.id)?;
    Ok(reply::ok(
        "Event fetched successfully",
        &EventView::from(&event),
    ))
}
