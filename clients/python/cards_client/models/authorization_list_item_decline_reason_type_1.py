from enum import StrEnum


class AuthorizationListItemDeclineReasonType1(StrEnum):
    CARD_CANCELED = "card_canceled"
    CARD_INACTIVE = "card_inactive"
    CATEGORY_BLOCKED = "category_blocked"
    CATEGORY_NOT_ALLOWED = "category_not_allowed"
    CHANNEL_BLOCKED = "channel_blocked"
    CURRENCY_MISMATCH = "currency_mismatch"
    INSUFFICIENT_FUNDS = "insufficient_funds"
    SPENDING_LIMIT = "spending_limit"
    WEBHOOK_DECLINED = "webhook_declined"
    WEBHOOK_ERROR = "webhook_error"
    WEBHOOK_TIMEOUT = "webhook_timeout"

    def __str__(self) -> str:
        return str(self.value)
