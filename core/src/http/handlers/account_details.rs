//! /accounts/{id}/details and /accounts/{id}/details/{detailId}.

use super::{Call, Command, command, to_value};
use crate::domain::account_details::{self, DetailUpdate, NewDetail};
use crate::error::ApiResult;
use crate::http::views::{self, DetailView};
use crate::http::{Response, parse, reply};
use crate::query::Documents;

fn parse_create(c: &mut Call) -> ApiResult<NewDetail> {
    let body = c.json_body()?;
    // The account of the path answers 404 before the body is judged.
    crate::domain::accounts::get(&mut c.scope, &c.route.id)?;
    parse::account_details::create(body)
}

pub fn check_create(c: &mut Call) -> ApiResult<Command> {
    command(parse_create(c)?)
}

pub fn create(c: &mut Call) -> ApiResult<Response> {
    let new = c.command::<NewDetail>()?.clone();
    let detail = account_details::create(&mut c.scope, &c.route.id, new)?;
    Ok(reply::created(
        "Account detail created successfully",
        &DetailView::from(&detail),
    ))
}

pub fn list(c: &mut Call) -> ApiResult<Response> {
    let details = account_details::all(&mut c.scope, &c.route.id)?;
    let q = c.list_query(&views::ACCOUNT_DETAIL)?;
    let items = details
        .iter()
        .map(|d| to_value(DetailView::from(d)))
        .collect::<ApiResult<_>>()?;
    // An account has few details: they are listed from memory.
    let page = q.run(&mut Documents::new(items), None)?;
    Ok(reply::list(
        "Account details fetched successfully",
        &q,
        page,
    ))
}

pub fn get(c: &mut Call) -> ApiResult<Response> {
    let detail = account_details::get(&mut c.scope, &c.route.id, &c.route.sub)?;
    Ok(reply::ok(
        "Account detail fetched successfully",
        &DetailView::from(&detail),
    ))
}

fn parse_update(c: &mut Call) -> ApiResult<DetailUpdate> {
    let body = c.json_body()?;
    account_details::get(&mut c.scope, &c.route.id, &c.route.sub)?;
    parse::account_details::update(body)
}

pub fn check_update(c: &mut Call) -> ApiResult<Command> {
    command(parse_update(c)?)
}

pub fn update(c: &mut Call) -> ApiResult<Response> {
    let u = c.command::<DetailUpdate>()?.clone();
    let detail = account_details::update(&mut c.scope, &c.route.id, &c.route.sub, u)?;
    Ok(reply::ok(
        "Account detail updated successfully",
        &DetailView::from(&detail),
    ))
}

pub fn delete(c: &mut Call) -> ApiResult<Response> {
    let detail = account_details::delete(&mut c.scope, &c.route.id, &c.route.sub)?;
    Ok(reply::ok(
        "Account detail deleted successfully",
        &DetailView::from(&detail),
    ))
}
