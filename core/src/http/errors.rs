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
        ApiError::Busy => response.with_header("retry-after", "1"),
        ApiError::RateLimited { retry_after_secs } => {
            response.with_header("retry-after", &retry_after_secs.to_string())
        }
        ApiError::RequestTimeout => response.with_header("connection", "close"),
        ApiError::Internal(cause) => {
            response.cause = Some(cause.clone());
            response
        }
        // The operator must hear of it, not only the client.
        ApiError::NotConfigured { message, .. } => {
            response.cause = Some(message.clone());
            response
        }
        _ => response,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_is_503_with_retry_after() {
        let r = to_response(&ApiError::Busy);
        assert_eq!(r.status, 503);
        assert_eq!(
            crate::http::header_value(&r.headers, "retry-after"),
            Some("1")
        );
        let body: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(body["error"], "busy");
        assert_eq!(r.cause, None);
    }
}
