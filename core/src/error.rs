//! One error type for every request path, mapped once to status, code and message (contract.md "Errors").

use serde::Serialize;
use serde_json::json;

use crate::http::{Method, Response};
use crate::store::StoreError;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

impl FieldError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> FieldError {
        FieldError {
            field: field.into(),
            message: message.into(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiError {
    Validation(Vec<FieldError>),
    Unauthorized,
    InvalidToken,
    NotFound(&'static str),
    MethodNotAllowed(Vec<Method>),
    InvalidState(String),
    IdempotencyConflict,
    PayloadTooLarge,
    UnsupportedMediaType(String),
    InsufficientFunds,
    AccountUnavailable(String),
    CurrencyMismatch(String),
    Internal,
}

impl ApiError {
    pub fn field(field: impl Into<String>, message: impl Into<String>) -> ApiError {
        ApiError::Validation(vec![FieldError::new(field, message)])
    }

    pub fn status(&self) -> u16 {
        match self {
            ApiError::Validation(_) => 400,
            ApiError::Unauthorized => 401,
            ApiError::InvalidToken => 403,
            ApiError::NotFound(_) => 404,
            ApiError::MethodNotAllowed(_) => 405,
            ApiError::InvalidState(_) | ApiError::IdempotencyConflict => 409,
            ApiError::PayloadTooLarge => 413,
            ApiError::UnsupportedMediaType(_) => 415,
            ApiError::InsufficientFunds
            | ApiError::AccountUnavailable(_)
            | ApiError::CurrencyMismatch(_) => 422,
            ApiError::Internal => 500,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::Validation(_) => "validation_error",
            ApiError::Unauthorized => "unauthorized",
            ApiError::InvalidToken => "invalid_token",
            ApiError::NotFound(_) => "not_found",
            ApiError::MethodNotAllowed(_) => "method_not_allowed",
            ApiError::InvalidState(_) => "invalid_state",
            ApiError::IdempotencyConflict => "idempotency_conflict",
            ApiError::PayloadTooLarge => "payload_too_large",
            ApiError::UnsupportedMediaType(_) => "unsupported_media_type",
            ApiError::InsufficientFunds => "insufficient_funds",
            ApiError::AccountUnavailable(_) => "account_unavailable",
            ApiError::CurrencyMismatch(_) => "currency_mismatch",
            ApiError::Internal => "internal_error",
        }
    }

    pub fn message(&self) -> String {
        match self {
            ApiError::Validation(_) => "Validation failed".into(),
            ApiError::Unauthorized => "Missing or invalid API key".into(),
            ApiError::InvalidToken => "Invalid or expired token".into(),
            ApiError::NotFound(what) => format!("{what} not found"),
            ApiError::MethodNotAllowed(_) => "Method not allowed".into(),
            ApiError::InvalidState(m)
            | ApiError::UnsupportedMediaType(m)
            | ApiError::AccountUnavailable(m)
            | ApiError::CurrencyMismatch(m) => m.clone(),
            ApiError::IdempotencyConflict => {
                "Idempotency-Key was already used with a different request".into()
            }
            ApiError::PayloadTooLarge => "Request body is too large".into(),
            ApiError::InsufficientFunds => "Insufficient funds in the debit account".into(),
            ApiError::Internal => "Internal server error".into(),
        }
    }

    pub fn to_response(&self) -> Response {
        let mut body = json!({
            "statusCode": self.status(),
            "message": self.message(),
            "error": self.code(),
        });
        if let ApiError::Validation(errors) = self {
            body["errors"] = json!(errors);
        }
        let response = Response::json(self.status(), &body);
        match self {
            ApiError::MethodNotAllowed(allowed) => {
                let allow: Vec<&str> = allowed.iter().map(|m| m.as_str()).collect();
                response.with_header("allow", &allow.join(", "))
            }
            ApiError::Unauthorized => response.with_header("www-authenticate", "Bearer"),
            _ => response,
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(_: StoreError) -> ApiError {
        ApiError::Internal
    }
}

impl From<Vec<FieldError>> for ApiError {
    fn from(errors: Vec<FieldError>) -> ApiError {
        ApiError::Validation(errors)
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
