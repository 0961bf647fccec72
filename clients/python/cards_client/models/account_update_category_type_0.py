from enum import StrEnum


class AccountUpdateCategoryType0(StrEnum):
    CRYPTO = "crypto"
    FIAT = "fiat"

    def __str__(self) -> str:
        return str(self.value)
