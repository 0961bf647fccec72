from enum import StrEnum


class AuthorizationListItemStatus(StrEnum):
    CLOSED = "closed"
    DECLINED = "declined"
    EXPIRED = "expired"
    PENDING = "pending"
    REVERSED = "reversed"

    def __str__(self) -> str:
        return str(self.value)
