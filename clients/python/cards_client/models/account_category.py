from enum import StrEnum


class AccountCategory(StrEnum):
    CRYPTO = "crypto"
    FIAT = "fiat"

    def __str__(self) -> str:
        return str(self.value)
