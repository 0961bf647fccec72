//! /accounts/transfers: money between two of the caller's accounts.

use super::{Call, Command, command, emit, to_value};
use crate::domain::events::EventType;
use crate::domain::transfers;
use crate::error::ApiResult;
use crate::http::listing::Records;
use crate::http::views::{self, TransferView};
use crate::http::{Response, parse, reply};

pub fn check_create(c: &mut Call) -> ApiResult<Command> {
    command(parse::transfers::create(c.json_body()?)?)
}

pub fn create(c: &mut Call) -> ApiResult<Response> {
    let new = c.command::<transfers::NewTransfer>()?.clone();
    let transfer = transfers::create(&mut c.scope, new)?;
    emit(
        c,
        EventType::TransferCreated,
        &TransferView::from(&transfer),
    )?;
    Ok(reply::created(
        "Transfer created successfully",
        &TransferView::from(&transfer),
    ))
}

pub fn get(c: &mut Call) -> ApiResult<Response> {
    let transfer = transfers::get(&mut c.scope, &c.route.id)?;
    Ok(reply::ok(
        "Transfer fetched successfully",
        &TransferView::from(&transfer),
    ))
}

pub fn list(c: &mut Call) -> ApiResult<Response> {
    let q = c.list_query(&views::TRANSFER)?;
    let page = q.run(
        &mut Records::new(&mut c.scope, |_, t| to_value(TransferView::from(&t))),
        None,
    )?;
    Ok(reply::list("Transfers fetched successfully", &q, page))
}
