from enum import StrEnum


class LedgerEntryListItemType(StrEnum):
    ADJUSTMENT = "adjustment"
    CARD_FUNDING = "card_funding"
    CARD_ISSUE_FUNDING = "card_issue_funding"
    CARD_REFUND = "card_refund"
    TRANSFER = "transfer"

    def __str__(self) -> str:
        return str(self.value)
