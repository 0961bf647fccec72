from enum import StrEnum


class CardListItemCancellationReasonType1(StrEnum):
    LOST = "lost"
    STOLEN = "stolen"

    def __str__(self) -> str:
        return str(self.value)
