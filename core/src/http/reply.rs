//! Success responses: the `{"statusCode", "message", "data"}` envelope around a view.

use serde::Serialize;

use super::Response;
use crate::query::{ListQuery, Page};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Envelope<'a, T: Serialize> {
    status_code: u16,
    message: &'a str,
    data: &'a T,
}

fn envelope(status: u16, message: &str, data: &impl Serialize) -> Response {
    Response::json(
        status,
        &Envelope {
            status_code: status,
            message,
            data,
        },
    )
}

pub fn ok(message: &str, data: &impl Serialize) -> Response {
    envelope(200, message, data)
}

pub fn created(message: &str, data: &impl Serialize) -> Response {
    envelope(201, message, data)
}

/// A list page: the items (whole documents, projected here) and the query's `meta`.
pub fn list(message: &str, q: &ListQuery, page: Page) -> Response {
    let items = page.items.into_iter().map(|d| q.project(d)).collect();
    Response::json(200, &q.envelope(message, items, page.total, page.has_more))
}
