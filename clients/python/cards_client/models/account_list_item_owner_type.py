from enum import StrEnum


class AccountListItemOwnerType(StrEnum):
    BUSINESS = "business"
    PROVIDER = "provider"
    SYSTEM = "system"
    USER = "user"

    def __str__(self) -> str:
        return str(self.value)
