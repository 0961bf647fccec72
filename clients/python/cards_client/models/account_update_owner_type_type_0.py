from enum import StrEnum


class AccountUpdateOwnerTypeType0(StrEnum):
    BUSINESS = "business"
    PROVIDER = "provider"
    SYSTEM = "system"
    USER = "user"

    def __str__(self) -> str:
        return str(self.value)
