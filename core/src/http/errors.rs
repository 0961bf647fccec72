//! Errors to responses: the one place the error table becomes status, body and headers.

use serde_json::json;

use super::Response;
use crate::error::ApiError;

pub fn to_response(e: &ApiError) -> Response {
    let mut body = json!({
        "statusCode": e.status(),
        "message": e.message(),
        "error": e.code(),
    });
    if let ApiError::Validation(errors) = e {
        body["errors"] = json!(errors);
    }
    let mut response = match serde_json::to_vec(&body) {
        Ok(bytes) => Response::bytes(e.status(), "application/json", bytes),
        Err(_) => Response::bytes(500, "application/json", Vec::new()),
    };
    match e {
        ApiError::MethodNotAllowed(allow) => response.with_header("allow", allow),
        ApiError::Unauthorized => response.with_header("www-authenticate", "Bearer"),
        ApiError::RateLimited { retry_after_secs } => {
            response.with_header("retry-after", &retry_after_secs.to_string())
        }
        ApiError::RequestTimeout => response.with_header("connection", "close"),
        ApiError::Internal(cause) => {
            response.cause = Some(cause.clone());
            response
        }
        _ => response,
    }
}
