//! /events: the log of changes, newest first by default.

use super::{Call, to_value};
use crate::domain::events;
use crate::error::ApiResult;
use crate::http::views::{self, EventView};
use crate::http::{Response, reply};

pub fn list(c: &mut Call) -> ApiResult<Response> {
    let q = c.list_query(&views::EVENT)?;
    let items = events::all(&mut c.scope)?
        .iter()
        .map(|e| to_value(EventView::from(e)))
        .collect::<ApiResult<_>>()?;
    let (items, total) = q.select(items);
    Ok(reply::list("Events fetched successfully", &q, items, total))
}

pub fn get(c: &mut Call) -> ApiResult<Response> {
    let event = events::get(&mut c.scope, &c.route.id)?;
    Ok(reply::ok(
        "Event fetched successfully",
        &EventView::from(&event),
    ))
}
