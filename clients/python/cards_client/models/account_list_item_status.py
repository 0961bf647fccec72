from enum import StrEnum


class AccountListItemStatus(StrEnum):
    ACTIVE = "active"
    CLOSED = "closed"
    INACTIVE = "inactive"
    SUSPENDED = "suspended"

    def __str__(self) -> str:
        return str(self.value)
