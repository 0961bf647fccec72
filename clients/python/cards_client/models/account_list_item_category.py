from enum import StrEnum


class AccountListItemCategory(StrEnum):
    CRYPTO = "crypto"
    FIAT = "fiat"

    def __str__(self) -> str:
        return str(self.value)
