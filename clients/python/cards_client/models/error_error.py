from enum import StrEnum


class ErrorError(StrEnum):
    ACCOUNT_UNAVAILABLE = "account_unavailable"
    BUSY = "busy"
    CARD_CANCELED = "card_canceled"
    CARD_INACTIVE = "card_inactive"
    CATEGORY_BLOCKED = "category_blocked"
    CATEGORY_NOT_ALLOWED = "category_not_allowed"
    CHANNEL_BLOCKED = "channel_blocked"
    CURRENCY_MISMATCH = "currency_mismatch"
    IDEMPOTENCY_CONFLICT = "idempotency_conflict"
    INSUFFICIENT_FUNDS = "insufficient_funds"
    INTERNAL_ERROR = "internal_error"
    INVALID_STATE = "invalid_state"
    INVALID_TOKEN = "invalid_token"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    NOT_CONFIGURED = "not_configured"
    NOT_FOUND = "not_found"
    PAYLOAD_TOO_LARGE = "payload_too_large"
    PERMISSION_DENIED = "permission_denied"
    QUOTA_EXCEEDED = "quota_exceeded"
    RATE_LIMITED = "rate_limited"
    REQUEST_TIMEOUT = "request_timeout"
    SPENDING_LIMIT = "spending_limit"
    UNAUTHORIZED = "unauthorized"
    UNAVAILABLE = "unavailable"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    VALIDATION_ERROR = "validation_error"
    VAULT_KEY_MISMATCH = "vault_key_mismatch"
    WEBHOOK_DECLINED = "webhook_declined"
    WEBHOOK_ERROR = "webhook_error"
    WEBHOOK_TIMEOUT = "webhook_timeout"

    def __str__(self) -> str:
        return str(self.value)
