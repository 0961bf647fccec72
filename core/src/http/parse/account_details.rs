//! The bodies of POST /accounts/{id}/details and PUT /accounts/{id}/details/{detailId}.

use serde_json::{Map, Value};

use crate::domain::account_details::{DetailType, DetailUpdate, NewDetail};
use crate::error::{ApiError, ApiResult};
use crate::http::fields::{Errors, Fields};
use crate::http::parse::input::body;
use crate::storage::codec::JsonText;

body! {
    /// POST /accounts/{id}/details.
    pub struct DetailBody = "AccountDetailCreate" {
        required kind: "type", Enum(DetailType::ALL);
        required details: "details", Object;
        required provider: "provider", Text(200);
        optional is_primary: "isPrimary", Bool;
    }
}

body! {
    /// PUT /accounts/{id}/details/{detailId}: the same fields, none required.
    pub struct DetailUpdateBody = "AccountDetailUpdate" {
        optional kind: "type", Enum(DetailType::ALL);
        optional details: "details", Object;
        optional provider: "provider", Text(200);
        optional is_primary: "isPrimary", Bool;
    }
}

fn read(body: Map<String, Value>, required: bool) -> ApiResult<DetailUpdate> {
    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    let (kind, details, provider, is_primary) = if required {
        (
            f.read(&DetailBody::kind),
            f.read(&DetailBody::details),
            f.read(&DetailBody::provider),
            f.read(&DetailBody::is_primary),
        )
    } else {
        (
            f.read(&DetailUpdateBody::kind),
            f.read(&DetailUpdateBody::details),
            f.read(&DetailUpdateBody::provider),
            f.read(&DetailUpdateBody::is_primary),
        )
    };
    f.finish();
    errors.finish(DetailUpdate {
        kind: kind.and_then(|s| DetailType::parse(&s)),
        details: details.map(JsonText),
        provider,
        is_primary,
    })
}

pub fn create(body: Map<String, Value>) -> ApiResult<NewDetail> {
    let d = read(body, true)?;
    match (d.kind, d.details, d.provider) {
        (Some(kind), Some(details), Some(provider)) => Ok(NewDetail {
            kind,
            details,
            provider,
            is_primary: d.is_primary.unwrap_or(false),
        }),
        // `read` reported every missing required field already.
        _ => Err(ApiError::internal(
            "a required detail field passed validation unset",
        )),
    }
}

pub fn update(body: Map<String, Value>) -> ApiResult<DetailUpdate> {
    read(body, false)
}
