//! The bodies of POST /accounts/{id}/details and PUT /accounts/{id}/details/{detailId}.

use serde_json::{Map, Value};

use crate::domain::account_details::{DetailType, DetailUpdate, NewDetail};
use crate::error::{ApiError, ApiResult};
use crate::http::fields::{Errors, Fields};
use crate::storage::codec::JsonText;

fn read(body: Map<String, Value>, required: bool) -> ApiResult<DetailUpdate> {
    let mut errors = Errors::default();
    let mut f = Fields::new(body, "", &mut errors);
    let kind = if required {
        f.enumeration("type", DetailType::ALL)
    } else {
        f.opt_enum("type", DetailType::ALL)
    }
    .and_then(|s| DetailType::parse(&s));
    let details = if required {
        f.object_field("details")
    } else {
        f.opt_object("details")
    };
    let provider = if required {
        f.text("provider", 200)
    } else {
        f.opt_text("provider", 200)
    };
    let is_primary = f.opt_bool("isPrimary");
    f.finish();
    errors.finish(DetailUpdate {
        kind,
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
