from enum import StrEnum


class AccountUpdateStatusType0(StrEnum):
    ACTIVE = "active"
    CLOSED = "closed"
    INACTIVE = "inactive"
    SUSPENDED = "suspended"

    def __str__(self) -> str:
        return str(self.value)
