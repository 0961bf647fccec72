from enum import StrEnum


class ListAuditEventsPopulate(StrEnum):
    CARDHOLDER = "cardHolder"
    CARDHOLDERDEBITACCOUNT = "cardHolder;debitAccount"
    DEBITACCOUNT = "debitAccount"

    def __str__(self) -> str:
        return str(self.value)
