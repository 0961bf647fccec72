from enum import StrEnum


class CardTransactionListItemType(StrEnum):
    CAPTURE = "capture"
    REFUND = "refund"

    def __str__(self) -> str:
        return str(self.value)
