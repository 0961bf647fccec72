from enum import StrEnum


class AccountDetailCreateType(StrEnum):
    BANK_ACCOUNT = "bank_account"
    CRYPTO_WALLET = "crypto_wallet"

    def __str__(self) -> str:
        return str(self.value)
