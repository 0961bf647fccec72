from enum import StrEnum


class AccountCreateOwnerType(StrEnum):
    BUSINESS = "business"
    PROVIDER = "provider"
    SYSTEM = "system"
    USER = "user"

    def __str__(self) -> str:
        return str(self.value)
