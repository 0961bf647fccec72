from enum import StrEnum


class AccountDetailType(StrEnum):
    BANK_ACCOUNT = "bank_account"
    CRYPTO_WALLET = "crypto_wallet"

    def __str__(self) -> str:
        return str(self.value)
