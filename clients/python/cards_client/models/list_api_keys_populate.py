from enum import StrEnum


class ListApiKeysPopulate(StrEnum):
    CARDHOLDER = "cardHolder"
    CARDHOLDERDEBITACCOUNT = "cardHolder;debitAccount"
    DEBITACCOUNT = "debitAccount"

    def __str__(self) -> str:
        return str(self.value)
