//! One error type for every layer, with its status, code and message (the README's error table).
//! `http::errors` turns it into a response; `Internal` keeps its cause for the host's log and never
//! sends it to the client.

use serde::Serialize;

use crate::storage::StoreError;

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
    /// The key lacks this permission (`cards:write`, `reveal`).
    PermissionDenied(String),
    NotFound(&'static str),
    /// The value of the `Allow` header.
    MethodNotAllowed(String),
    InvalidState(String),
    IdempotencyConflict,
    PayloadTooLarge,
    /// The client's stored files would pass its quota: (bytes stored, bytes sent, quota).
    QuotaExceeded {
        used: u64,
        adding: u64,
        quota: u64,
    },
    UnsupportedMediaType(String),
    InsufficientFunds,
    AccountUnavailable(String),
    CurrencyMismatch(String),
    /// A change to a card's spend the card's checks refuse (an increment): the code is the decline
    /// reason (`spending_limit`, `insufficient_funds`, ...).
    Declined(&'static str),
    /// The store kept conflicting with other writers; the client may retry (503 with Retry-After).
    Busy,
    /// The client's request head or body did not arrive in time.
    RequestTimeout,
    /// The client spent its request budget; it may retry after this many seconds.
    RateLimited {
        retry_after_secs: u64,
    },
    /// The storage or the writer cannot serve (health check).
    Unavailable(String),
    /// The service lacks configuration a route needs (503): `code` names the problem.
    NotConfigured {
        code: &'static str,
        message: String,
    },
    /// The cause, for the host's log only.
    Internal(String),
}

impl ApiError {
    pub fn internal(cause: impl Into<String>) -> ApiError {
        ApiError::Internal(cause.into())
    }

    pub fn field(field: impl Into<String>, message: impl Into<String>) -> ApiError {
        ApiError::Validation(vec![FieldError::new(field, message)])
    }

    pub fn status(&self) -> u16 {
        match self {
            ApiError::Validation(_) => 400,
            ApiError::Unauthorized => 401,
            ApiError::InvalidToken | ApiError::PermissionDenied(_) => 403,
            ApiError::NotFound(_) => 404,
            ApiError::MethodNotAllowed(_) => 405,
            ApiError::InvalidState(_) | ApiError::IdempotencyConflict => 409,
            ApiError::PayloadTooLarge | ApiError::QuotaExceeded { .. } => 413,
            ApiError::UnsupportedMediaType(_) => 415,
            ApiError::InsufficientFunds
            | ApiError::AccountUnavailable(_)
            | ApiError::CurrencyMismatch(_)
            | ApiError::Declined(_) => 422,
            ApiError::NotConfigured { .. } => 503,
            ApiError::Internal(_) => 500,
            ApiError::Busy => 503,
            ApiError::RequestTimeout => 408,
            ApiError::RateLimited { .. } => 429,
            ApiError::Unavailable(_) => 503,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::Validation(_) => "validation_error",
            ApiError::Unauthorized => "unauthorized",
            ApiError::InvalidToken => "invalid_token",
            ApiError::PermissionDenied(_) => "permission_denied",
            ApiError::NotFound(_) => "not_found",
            ApiError::MethodNotAllowed(_) => "method_not_allowed",
            ApiError::InvalidState(_) => "invalid_state",
            ApiError::IdempotencyConflict => "idempotency_conflict",
            ApiError::PayloadTooLarge => "payload_too_large",
            ApiError::QuotaExceeded { .. } => "quota_exceeded",
            ApiError::UnsupportedMediaType(_) => "unsupported_media_type",
            ApiError::InsufficientFunds => "insufficient_funds",
            ApiError::AccountUnavailable(_) => "account_unavailable",
            ApiError::CurrencyMismatch(_) => "currency_mismatch",
            ApiError::Declined(reason) => reason,
            ApiError::NotConfigured { code, .. } => code,
            ApiError::Internal(_) => "internal_error",
            ApiError::Busy => "busy",
            ApiError::RequestTimeout => "request_timeout",
            ApiError::RateLimited { .. } => "rate_limited",
            ApiError::Unavailable(_) => "unavailable",
        }
    }

    pub fn message(&self) -> String {
        match self {
            ApiError::Validation(_) => "Validation failed".into(),
            ApiError::Unauthorized => "Missing or invalid API key".into(),
            ApiError::InvalidToken => "Invalid or expired token".into(),
            ApiError::PermissionDenied(what) => {
                format!("This API key lacks the permission {what}")
            }
            ApiError::NotFound(what) => format!("{what} not found"),
            ApiError::MethodNotAllowed(_) => "Method not allowed".into(),
            ApiError::InvalidState(m)
            | ApiError::UnsupportedMediaType(m)
            | ApiError::AccountUnavailable(m)
            | ApiError::CurrencyMismatch(m)
            | ApiError::Unavailable(m) => m.clone(),
            ApiError::Declined(reason) => format!("Declined: {reason}"),
            ApiError::RequestTimeout => "The request was not received in time".into(),
            ApiError::RateLimited { .. } => "Too many requests; retry later".into(),
            ApiError::IdempotencyConflict => {
                "Idempotency-Key was already used with a different request".into()
            }
            ApiError::PayloadTooLarge => "Request body is too large".into(),
            ApiError::QuotaExceeded {
                used,
                adding,
                quota,
            } => format!(
                "File storage quota exceeded: {used} bytes stored, {adding} more sent, quota {quota} bytes"
            ),
            ApiError::InsufficientFunds => "Insufficient funds in the debit account".into(),
            ApiError::NotConfigured { message, .. } => message.clone(),
            ApiError::Internal(_) => "Internal server error".into(),
            ApiError::Busy => "The service is busy; retry the request shortly".into(),
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        ApiError::Internal(e.to_string())
    }
}

impl From<Vec<FieldError>> for ApiError {
    fn from(errors: Vec<FieldError>) -> ApiError {
        ApiError::Validation(errors)
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
