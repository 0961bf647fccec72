from enum import StrEnum


class AccountCreateCategory(StrEnum):
    CRYPTO = "crypto"
    FIAT = "fiat"

    def __str__(self) -> str:
        return str(self.value)
