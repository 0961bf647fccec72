//! /audit-events: the client's audit trail (card tokens, reveals, key changes), newest first by
//! default. Needs `audit:read`; never carries card data, tokens or keys.

use super::{Call, to_value};
use crate::domain::audit::AuditEvent;
use crate::error::ApiResult;
use crate::http::listing::Records;
use crate::http::views::{self, AuditEventView};
use crate::http::{Response, reply};

pub fn list(c: &mut Call) -> ApiResult<Response> {
    let q = c.list_query(&views::AUDIT_EVENT)?;
    let page = q.run(
        &mut Records::new(&mut c.scope, |_, e: AuditEvent| {
            to_value(AuditEventView::from(&e))
        }),
        None,
    )?;
    Ok(reply::list("Audit events fetched successfully", &q, page))
}

pub fn get(c: &mut Call) -> ApiResult<Response> {
    let event: AuditEvent = crate::domain::audit::get(&mut c.scope, &c.route.id)?;
    Ok(reply::ok(
        "Audit event fetched successfully",
        &AuditEventView::from(&event),
    ))
}
