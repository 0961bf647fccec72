//! /accounts and /accounts/{id}/transactions.

use super::{Call, Command, command, emit, to_value};
use crate::domain::accounts;
use crate::domain::accounts::{AccountUpdate, NewAccount};
use crate::domain::events::EventType;
use crate::error::ApiResult;
use crate::http::listing::Records;
use crate::http::views::{self, AccountView, EntryView};
use crate::http::{Response, parse, reply};

fn parse_create(c: &mut Call) -> ApiResult<NewAccount> {
    parse::accounts::create(c.json_body()?, Some(c.scope.client))
}

pub fn check_create(c: &mut Call) -> ApiResult<Command> {
    command(parse_create(c)?)
}

pub fn create(c: &mut Call) -> ApiResult<Response> {
    let new = c.command::<NewAccount>()?.clone();
    let account = accounts::create(&mut c.scope, new)?;
    emit(c, EventType::AccountCreated, &AccountView::from(&account))?;
    Ok(reply::created(
        "Account created successfully",
        &AccountView::from(&account),
    ))
}

pub fn get(c: &mut Call) -> ApiResult<Response> {
    let account = accounts::get(&mut c.scope, &c.route.id)?;
    Ok(reply::ok(
        "Account fetched successfully",
        &AccountView::from(&account),
    ))
}

pub fn list(c: &mut Call) -> ApiResult<Response> {
    let q = c.list_query(&views::ACCOUNT)?;
    let page = q.run(
        &mut Records::new(&mut c.scope, |_, a| to_value(AccountView::from(&a))),
        None,
    )?;
    Ok(reply::list("Accounts fetched successfully", &q, page))
}

fn parse_update(c: &mut Call) -> ApiResult<AccountUpdate> {
    let body = c.json_body()?;
    // An unknown account is 404 before the body's fields are judged.
    accounts::get(&mut c.scope, &c.route.id)?;
    parse::accounts::update(body)
}

pub fn check_update(c: &mut Call) -> ApiResult<Command> {
    command(parse_update(c)?)
}

pub fn update(c: &mut Call) -> ApiResult<Response> {
    let u = c.command::<AccountUpdate>()?.clone();
    let account = accounts::update(&mut c.scope, &c.route.id, u)?;
    emit(c, EventType::AccountUpdated, &AccountView::from(&account))?;
    Ok(reply::ok(
        "Account updated successfully",
        &AccountView::from(&account),
    ))
}

pub fn transactions(c: &mut Call) -> ApiResult<Response> {
    let account = accounts::get(&mut c.scope, &c.route.id)?;
    let q = c.list_query(&views::LEDGER_ENTRY)?;
    let page = q.run(
        &mut Records::new(&mut c.scope, |_, e| to_value(EntryView::from(&e))),
        Some(("accountId", &account.id)),
    )?;
    Ok(reply::list("Transactions fetched successfully", &q, page))
}
