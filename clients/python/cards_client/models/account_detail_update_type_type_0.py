from enum import StrEnum


class AccountDetailUpdateTypeType0(StrEnum):
    BANK_ACCOUNT = "bank_account"
    CRYPTO_WALLET = "crypto_wallet"

    def __str__(self) -> str:
        return str(self.value)
