//! Disputes of captures and their simulated resolution.

use serde_json::Map;

use super::{Call, Command, command, emit, to_value};
use crate::domain::disputes;
use crate::domain::events::EventType;
use crate::error::ApiResult;
use crate::http::listing::Records;
use crate::http::views::{self, CardTransactionView, DisputeView};
use crate::http::{Response, parse, reply};

pub fn check_create(c: &mut Call) -> ApiResult<Command> {
    command(parse::disputes::create(c.json_body()?)?)
}

pub fn create(c: &mut Call) -> ApiResult<Response> {
    let new = c.command::<disputes::NewDispute>()?.clone();
    let dispute = disputes::open(&mut c.scope, &c.route.id, new)?;
    emit(c, EventType::DisputeCreated, &DisputeView::from(&dispute))?;
    Ok(reply::created(
        "Dispute created successfully",
        &DisputeView::from(&dispute),
    ))
}

pub fn get(c: &mut Call) -> ApiResult<Response> {
    let dispute = disputes::get(&mut c.scope, &c.route.id)?;
    Ok(reply::ok(
        "Dispute fetched successfully",
        &DisputeView::from(&dispute),
    ))
}

pub fn list(c: &mut Call) -> ApiResult<Response> {
    let q = c.list_query(&views::DISPUTE)?;
    let page = q.run(
        &mut Records::new(&mut c.scope, |_, d| to_value(DisputeView::from(&d))),
        None,
    )?;
    Ok(reply::list("Disputes fetched successfully", &q, page))
}

fn resolve_body(c: &mut Call) -> ApiResult<disputes::Outcome> {
    let body = if c.req.body.is_empty() {
        Map::new()
    } else {
        c.json_body()?
    };
    parse::disputes::resolve(body)
}

pub fn check_resolve(c: &mut Call) -> ApiResult<Command> {
    command(resolve_body(c)?)
}

/// The network's answer; a won dispute's credit is its own card transaction (and event).
pub fn resolve(c: &mut Call) -> ApiResult<Response> {
    let outcome = *c.command::<disputes::Outcome>()?;
    let (dispute, credit) = disputes::resolve(&mut c.scope, &c.route.id, outcome)?;
    emit(c, EventType::DisputeUpdated, &DisputeView::from(&dispute))?;
    if let Some(tx) = &credit {
        emit(
            c,
            EventType::TransactionCreated,
            &CardTransactionView::from(tx),
        )?;
    }
    Ok(reply::ok(
        "Dispute resolved successfully",
        &DisputeView::from(&dispute),
    ))
}
