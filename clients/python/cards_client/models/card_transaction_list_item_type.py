from enum import StrEnum


class CardTransactionListItemType(StrEnum):
    CAPTURE = "capture"
    DISPUTE_CREDIT = "dispute_credit"
    REFUND = "refund"

    def __str__(self) -> str:
        return str(self.value)
